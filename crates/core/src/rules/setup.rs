//! Start positions: the standard 10 x 8 setup (ORDO-2.2, a figure the texts do not transcribe)
//! and the 8 x 8 chess-board variant (ORDO-1.6).

use super::position::Position;
use super::types::{Color, Dims, Square, Variant};

/// White's squares in the standard setup as (column, row), 0-based (ORDO-2.2): c1 d1 g1 h1,
/// a2 to j2, a3 b3 e3 f3 i3 j3 — 20 pieces (ORDO-2.1).
const STANDARD_WHITE: [(u8, u8); 20] = [
    (2, 0),
    (3, 0),
    (6, 0),
    (7, 0),
    (0, 1),
    (1, 1),
    (2, 1),
    (3, 1),
    (4, 1),
    (5, 1),
    (6, 1),
    (7, 1),
    (8, 1),
    (9, 1),
    (0, 2),
    (1, 2),
    (4, 2),
    (5, 2),
    (8, 2),
    (9, 2),
];

/// The standard start position on the 10 x 8 board (ORDO-1.1, ORDO-2.2; for Ordo X, ORDOX-1.1):
/// Black is White's mirror image across the middle of the board; White to move (ORDO-3.1).
pub fn standard(variant: Variant) -> Position {
    let dims = Dims::STANDARD;
    let mut pos = Position::empty(dims, Color::White, variant);
    for &(c, r) in &STANDARD_WHITE {
        pos.set(Square::new(c, r), Some(Color::White));
        pos.set(Square::new(c, dims.rows - 1 - r), Some(Color::Black));
    }
    pos
}

/// The 8 x 8 chess-board variant (ORDO-1.6): the standard setup without its leftmost and
/// rightmost columns, 16 pieces each.
pub fn chess_board(variant: Variant) -> Position {
    let full = standard(variant);
    let dims = Dims::CHESS;
    let mut pos = Position::empty(dims, Color::White, variant);
    for sq in dims.squares() {
        pos.set(sq, full.get(Square::new(sq.col + 1, sq.row)));
    }
    pos
}

/// A small-board start where each side fills its `depth` nearest rows (`row1`: its home row,
/// `row2`: its two nearest rows), White to move (ORDO-1.5, ORDO-3.1). `None` when the two
/// sides would overlap (2 x depth > rows).
pub fn filled_rows(dims: Dims, depth: u8, variant: Variant) -> Option<Position> {
    if depth == 0 || 2 * depth > dims.rows {
        return None;
    }
    let mut pos = Position::empty(dims, Color::White, variant);
    for sq in dims.squares() {
        if sq.row < depth {
            pos.set(sq, Some(Color::White));
        } else if sq.row >= dims.rows - depth {
            pos.set(sq, Some(Color::Black));
        }
    }
    Some(pos)
}
