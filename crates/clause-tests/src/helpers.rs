//! Helpers of the clause tests: positions from square lists, move sets in canonical
//! notation, lines of play, and a connection check written here, independent of every engine.

use std::collections::BTreeSet;

use ordo_core::notation::{format_move, parse_move, parse_position, parse_square};
use ordo_core::rules::{Color, Dims, Engine, Position, Status, Variant, WinReason};

/// A position from space-separated square lists, e.g. `pos(Variant::Classic, 5, 5, 'w',
/// "c1 c2", "d4")`.
pub fn pos(
    variant: Variant,
    cols: usize,
    rows: usize,
    to_move: char,
    white: &str,
    black: &str,
) -> Position {
    let dims = Dims::new(cols, rows).expect("test board within limits");
    let side = if to_move == 'w' {
        Color::White
    } else {
        Color::Black
    };
    let mut p = Position::empty(dims, side, variant);
    for (list, c) in [(white, Color::White), (black, Color::Black)] {
        for s in list.split_whitespace() {
            let sq = parse_square(s).expect("test square");
            assert!(dims.contains(sq), "{s} is off the test board");
            p.set(sq, Some(c));
        }
    }
    p
}

/// Load a position into an engine, panicking on an invalid test position.
pub fn load<E: Engine>(p: &Position) -> E {
    E::from_position(p).unwrap_or_else(|e| panic!("test position rejected: {e}"))
}

/// Parse a position string.
pub fn fen(s: &str) -> Position {
    parse_position(s).unwrap_or_else(|e| panic!("{e}"))
}

/// The legal moves as a sorted set of canonical notation.
pub fn move_set<E: Engine>(e: &E) -> BTreeSet<String> {
    e.legal_moves().iter().map(format_move).collect()
}

/// Whether the move written `m` is legal.
pub fn is_legal<E: Engine>(e: &E, m: &str) -> bool {
    move_set(e).contains(m)
}

/// Play a line of moves, each of which must be legal.
pub fn play_line<E: Engine>(e: &E, line: &[&str]) -> E {
    let mut cur = e.clone();
    for m in line {
        let mv = parse_move(m).unwrap_or_else(|err| panic!("{err}"));
        cur = cur
            .play(&mv)
            .unwrap_or_else(|_| panic!("{m} is not legal; legal: {:?}", move_set(&cur)));
    }
    cur
}

/// Whether all pieces of colour `c` are connected through the eight neighbours (ORDO-4.1),
/// by a flood fill written here, independent of either engine.
pub fn one_group(p: &Position, c: Color) -> bool {
    let pieces = p.pieces(c);
    let Some(&first) = pieces.first() else {
        return true;
    };
    let mut seen = vec![first];
    let mut todo = vec![first];
    while let Some(a) = todo.pop() {
        for &b in &pieces {
            if !seen.contains(&b) && a.col.abs_diff(b.col) <= 1 && a.row.abs_diff(b.row) <= 1 {
                seen.push(b);
                todo.push(b);
            }
        }
    }
    seen.len() == pieces.len()
}

/// The squares of colour `c`, in row-major order from a1, as one string (`"a2 a3"`).
pub fn squares(p: &Position, c: Color) -> String {
    p.pieces(c)
        .iter()
        .map(|s| s.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// The status of a game `winner` has won for `reason`.
pub fn won(winner: Color, reason: WinReason) -> Status {
    Status::Won { winner, reason }
}
