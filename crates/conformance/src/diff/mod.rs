//! Differential testing, shared by the stable campaign (`ordo fuzz`), the fuzz targets
//! (`ordo fuzz`) and the tests: deterministic generators of positions and playouts, and the
//! oracles that compare two engines (or an engine with a from-scratch rebuild of itself) on
//! everything they expose — legal moves in canonical notation, the position after every move,
//! and the status with its reason.

pub mod campaign;
pub mod shrink;

use std::fmt;

use crate::notation::{format_move, format_position, parse_move, parse_position, sorted_notation};
use crate::rules::{setup, Color, Dims, Engine, Move, Position, Rng, Variant};

/// Start positions reachable in play: the standard start, the 8 x 8 variant, and small boards
/// 3 x 3 .. 6 x 6 with each side on its home row or its two nearest rows, in both variants.
pub fn reachable_starts() -> Vec<Position> {
    let mut v = Vec::new();
    for variant in Variant::ALL {
        v.push(setup::standard(variant));
        v.push(setup::chess_board(variant));
        for cols in 3..=6 {
            for rows in 3..=6 {
                let dims = Dims::new(cols, rows).expect("small board");
                v.extend(setup::filled_rows(dims, 1, variant));
                v.extend(setup::filled_rows(dims, 2, variant));
            }
        }
    }
    v
}

/// A random position that can be set up (ORDO-2.3): a board of 2..=`max_side` columns and rows
/// (at most 128 squares), pieces scattered with a random density, so each colour may be
/// connected or not, either side to move, either variant.
pub fn random_position(rng: &mut Rng, max_side: u8) -> Position {
    let max_side = max_side.clamp(2, 16) as u64;
    loop {
        let cols = 2 + rng.below(max_side - 1) as usize;
        let rows = 2 + rng.below(max_side - 1) as usize;
        let Ok(dims) = Dims::new(cols, rows) else {
            continue;
        };
        let to_move = if rng.below(2) == 0 {
            Color::White
        } else {
            Color::Black
        };
        let variant = Variant::ALL[rng.below(2) as usize];
        let mut p = Position::empty(dims, to_move, variant);
        let density = 2 + rng.below(6);
        for sq in dims.squares() {
            match rng.below(density) {
                0 => p.set(sq, Some(Color::White)),
                1 => p.set(sq, Some(Color::Black)),
                _ => {}
            }
        }
        if p.validate().is_ok() {
            return p;
        }
    }
}

/// Where two engines (or an engine and its rebuild) disagree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Divergence {
    /// The position in which they disagree.
    pub position: Position,
    /// The move concerned, if the disagreement is about one move.
    pub mv: Option<Move>,
    /// What differs.
    pub what: String,
}

impl fmt::Display for Divergence {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "position {}", format_position(&self.position))?;
        if let Some(m) = &self.mv {
            write!(f, " move {}", format_move(m))?;
        }
        write!(f, ": {}", self.what)
    }
}

/// A [`Divergence`] at `pos`, after `mv` when a move caused it, described by `what`.
pub fn diverge(pos: &Position, mv: Option<Move>, what: String) -> Divergence {
    Divergence {
        position: pos.clone(),
        mv,
        what,
    }
}

/// Compare engines `A` and `B` on one position: whether they accept it, their status, their
/// legal moves, and the position after every legal move. Returns the number of moves compared.
pub fn compare_position<A: Engine, B: Engine>(pos: &Position) -> Result<usize, Divergence> {
    match load_both::<A, B>(pos)? {
        Some((a, b)) => compare_engines(&a, &b),
        None => Ok(0),
    }
}

/// Both engines loaded with `pos`; `None` when both refuse it, a divergence when one does.
pub fn load_both<A: Engine, B: Engine>(pos: &Position) -> Result<Option<(A, B)>, Divergence> {
    match (A::from_position(pos), B::from_position(pos)) {
        (Ok(a), Ok(b)) => Ok(Some((a, b))),
        (Err(_), Err(_)) => Ok(None),
        (ra, rb) => Err(diverge(
            pos,
            None,
            format!(
                "{} {} the position, {} {} it",
                A::NAME,
                if ra.is_ok() { "accepts" } else { "refuses" },
                B::NAME,
                if rb.is_ok() { "accepts" } else { "refuses" }
            ),
        )),
    }
}

/// Compare two loaded engines on the same position (see [`compare_position`]).
pub fn compare_engines<A: Engine, B: Engine>(a: &A, b: &B) -> Result<usize, Divergence> {
    compare_loaded(a, b).map(|moves| moves.len())
}

/// [`compare_engines`], returning `A`'s legal moves so that a caller walking on does not
/// generate them again (each list costs the reference engine a flood fill per candidate).
fn compare_loaded<A: Engine, B: Engine>(a: &A, b: &B) -> Result<Vec<Move>, Divergence> {
    let (moves, moves_b) = compare_outline(a, b)?;
    // The lists are equal as notation, so each move of A has its twin in B under the same
    // spelling (a lookup, not `resolve`, which would rebuild B's list for every move).
    let twins: std::collections::HashMap<String, Move> =
        moves_b.into_iter().map(|m| (format_move(&m), m)).collect();
    for m in &moves {
        let Some(mb) = twins.get(&format_move(m)) else {
            return Err(diverge(
                &a.to_position(),
                Some(*m),
                format!("{} has no twin of the move", B::NAME),
            ));
        };
        compare_successors(a, b, m, mb)?;
    }
    Ok(moves)
}

/// The position both engines hold, their status and their legal moves as notation; returns
/// both lists.
pub fn compare_outline<A: Engine, B: Engine>(
    a: &A,
    b: &B,
) -> Result<(Vec<Move>, Vec<Move>), Divergence> {
    same_position(a, b)?;
    let pos = a.to_position();
    let (sa, sb) = (a.status(), b.status());
    if sa != sb {
        return Err(diverge(
            &pos,
            None,
            format!("status: {} says {sa}, {} says {sb}", A::NAME, B::NAME),
        ));
    }
    let (moves, moves_b) = (a.legal_moves(), b.legal_moves());
    let (ma, mb) = (sorted_notation(&moves), sorted_notation(&moves_b));
    if ma != mb {
        return Err(lists_differ::<A, B>(&pos, &ma, &mb));
    }
    Ok((moves, moves_b))
}

/// Both engines hold the same position.
pub fn same_position<A: Engine, B: Engine>(a: &A, b: &B) -> Result<(), Divergence> {
    let pos = a.to_position();
    if b.to_position() == pos {
        return Ok(());
    }
    Err(diverge(
        &pos,
        None,
        format!(
            "{} holds another position: {}",
            B::NAME,
            format_position(&b.to_position())
        ),
    ))
}

/// The divergence of two different sorted move lists.
pub fn lists_differ<A: Engine, B: Engine>(
    pos: &Position,
    ma: &[String],
    mb: &[String],
) -> Divergence {
    let only_a: Vec<&String> = ma.iter().filter(|m| !mb.contains(m)).collect();
    let only_b: Vec<&String> = mb.iter().filter(|m| !ma.contains(m)).collect();
    let dup = ma.windows(2).any(|w| w[0] == w[1]) || mb.windows(2).any(|w| w[0] == w[1]);
    let first = only_a
        .first()
        .or(only_b.first())
        .and_then(|m| parse_move(m).ok());
    diverge(
        pos,
        first,
        format!(
            "legal moves differ: {} moves in {}, {} in {}; only {}: {:?}; only {}: {:?}{}",
            ma.len(),
            A::NAME,
            mb.len(),
            B::NAME,
            A::NAME,
            only_a.iter().take(8).collect::<Vec<_>>(),
            B::NAME,
            only_b.iter().take(8).collect::<Vec<_>>(),
            if dup { " (a list repeats a move)" } else { "" }
        ),
    )
}

/// `A` after `m` and `B` after its twin `mb` hold the same position.
pub fn compare_successors<A: Engine, B: Engine>(
    a: &A,
    b: &B,
    m: &Move,
    mb: &Move,
) -> Result<(), Divergence> {
    let (pa, pb) = (a.apply(m).to_position(), b.apply(mb).to_position());
    if pa == pb {
        return Ok(());
    }
    Err(diverge(
        &a.to_position(),
        Some(*m),
        format!(
            "after the move {} has {}, {} has {}",
            A::NAME,
            format_position(&pa),
            B::NAME,
            format_position(&pb)
        ),
    ))
}

/// A position from raw fuzz input: `2 + cols % 15` by `2 + rows % 15` squares (skipped above
/// 128), each cell empty, White or Black by its byte (missing bytes: empty); `None` when the
/// board is too large or the position cannot be set up (ORDO-2.3).
pub fn position_from_bytes(
    cols: u8,
    rows: u8,
    cells: &[u8],
    black_to_move: bool,
    x: bool,
) -> Option<Position> {
    let dims = Dims::new(2 + cols as usize % 15, 2 + rows as usize % 15).ok()?;
    let to_move = if black_to_move {
        Color::Black
    } else {
        Color::White
    };
    let variant = if x { Variant::X } else { Variant::Classic };
    let mut p = Position::empty(dims, to_move, variant);
    for (sq, byte) in dims.squares().zip(cells.iter()) {
        match byte % 3 {
            1 => p.set(sq, Some(Color::White)),
            2 => p.set(sq, Some(Color::Black)),
            _ => {}
        }
    }
    p.validate().ok().map(|()| p)
}

/// Play from `start`, taking at each ply the move with index `choice % count` among the legal
/// moves sorted by notation, comparing `A` and `B` at every position on the way. Returns the
/// number of positions compared.
pub fn check_line<A: Engine, B: Engine>(
    start: &Position,
    choices: &[u16],
) -> Result<usize, Divergence> {
    let mut it = choices.iter();
    check_with::<A, B>(start, choices.len(), |n| {
        it.next().map_or(0, |&c| c as usize % n)
    })
}

/// Play from `start`, choosing moves with `rng`, for at most `plies` plies, comparing `A` and
/// `B` at every position on the way. Returns the number of positions compared.
pub fn check_playout<A: Engine, B: Engine>(
    start: &Position,
    rng: &mut Rng,
    plies: usize,
) -> Result<usize, Divergence> {
    check_with::<A, B>(start, plies, |n| rng.below(n as u64) as usize)
}

fn check_with<A: Engine, B: Engine>(
    start: &Position,
    plies: usize,
    mut choose: impl FnMut(usize) -> usize,
) -> Result<usize, Divergence> {
    let Ok(mut a) = A::from_position(start) else {
        return compare_position::<A, B>(start).map(|_| 1);
    };
    let mut checked = 0;
    for _ in 0..=plies {
        let b = B::from_position(&a.to_position()).map_err(|e| {
            diverge(
                &a.to_position(),
                None,
                format!("{} refuses the position: {e}", B::NAME),
            )
        })?;
        let mut moves = compare_loaded(&a, &b)?;
        checked += 1;
        if moves.is_empty() {
            break;
        }
        moves.sort_by_key(format_move);
        let m = moves[choose(moves.len())];
        a = a.apply(&m);
    }
    Ok(checked)
}

/// The `apply` oracle: for every legal move of `pos`, the engine's own successor must equal a
/// from-scratch load of the successor's exported position, in position, status and legal moves
/// (catches state an engine updates incrementally and gets wrong).
pub fn check_apply_rebuild<E: Engine>(pos: &Position) -> Result<usize, Divergence> {
    let Ok(e) = E::from_position(pos) else {
        return Ok(0);
    };
    let moves = e.legal_moves();
    for m in &moves {
        apply_matches_rebuild(&e, m)?;
    }
    Ok(moves.len())
}

/// [`check_apply_rebuild`] for the moves `picks` choose (each modulo the number of legal
/// moves) instead of every move. Returns the number of moves checked.
pub fn check_apply_picked<E: Engine>(pos: &Position, picks: &[u16]) -> Result<usize, Divergence> {
    let Ok(e) = E::from_position(pos) else {
        return Ok(0);
    };
    let moves = e.legal_moves();
    if moves.is_empty() {
        return Ok(0);
    }
    for &p in picks {
        apply_matches_rebuild(&e, picked(&moves, p))?;
    }
    Ok(picks.len())
}

/// The move `pick` chooses from a non-empty list: with its lowest bit set, among the captures
/// (where most clauses act: ORDO-6, ORDOX-4) when there are any; the other bits index.
pub fn picked(moves: &[Move], pick: u16) -> &Move {
    let index = (pick >> 1) as usize;
    if pick & 1 == 1 {
        let captures = moves.iter().filter(|m| m.is_capture()).count();
        if captures > 0 {
            let nth = index % captures;
            return moves
                .iter()
                .filter(|m| m.is_capture())
                .nth(nth)
                .expect("counted");
        }
    }
    &moves[index % moves.len()]
}

/// The successor of `e` by `m` equals its own rebuild (see [`check_apply_rebuild`]).
fn apply_matches_rebuild<E: Engine>(e: &E, m: &Move) -> Result<(), Divergence> {
    let next = e.apply(m);
    let rebuilt = E::from_position(&next.to_position()).map_err(|err| {
        diverge(
            &e.to_position(),
            Some(*m),
            format!("the successor cannot be loaded again: {err}"),
        )
    })?;
    // Moves of one engine compare as values, sorted only when their orders differ (an Ordo X
    // list is long).
    let (mut ma, mut mb) = (next.legal_moves(), rebuilt.legal_moves());
    if ma != mb {
        ma.sort_unstable();
        mb.sort_unstable();
    }
    if next.status() != rebuilt.status() || ma != mb {
        return Err(diverge(
            &e.to_position(),
            Some(*m),
            "the successor differs from its rebuild".into(),
        ));
    }
    Ok(())
}

/// Where a text that parses does not survive formatting and parsing again.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RoundTripError {
    /// The canonical text of what parsed is refused by the parser.
    #[error("{text:?} parses, but its canonical form {canonical:?} does not: {error}")]
    Reparse {
        /// The text as first given.
        text: String,
        /// The canonical text written from what `text` parsed to.
        canonical: String,
        /// Why the parser refuses `canonical`.
        error: Box<crate::notation::NotationError>,
    },
    /// The canonical text parses to another value.
    #[error("{what} {text:?} does not round-trip: its canonical form {canonical:?} parses to another {what}")]
    Changed {
        /// What kind of value: `position`, `move`, `record`.
        what: &'static str,
        /// The text as first given.
        text: String,
        /// The canonical text, which parses to a value other than `text`'s.
        canonical: String,
    },
}

/// The notation oracle for arbitrary text: parsers never panic, and whatever parses formats
/// back to text that parses to the same value.
pub fn check_notation(text: &str) -> Result<(), RoundTripError> {
    if let Ok(m) = parse_move(text) {
        round_trip("move", text, format_move(&m), &m, parse_move)?;
    }
    if let Ok(p) = parse_position(text) {
        round_trip("position", text, format_position(&p), &p, parse_position)?;
    }
    let _ = crate::notation::parse_square(text);
    let _ = crate::notation::parse_record(text);
    Ok(())
}

/// `canonical` (the formatted form of `value`, parsed from `text`) must parse back to `value`.
fn round_trip<T: PartialEq>(
    what: &'static str,
    text: &str,
    canonical: String,
    value: &T,
    parse: impl Fn(&str) -> Result<T, crate::notation::NotationError>,
) -> Result<(), RoundTripError> {
    match parse(&canonical) {
        Err(error) => Err(RoundTripError::Reparse {
            error: Box::new(error),
            text: text.to_string(),
            canonical,
        }),
        Ok(again) if again != *value => Err(RoundTripError::Changed {
            what,
            text: text.to_string(),
            canonical,
        }),
        Ok(_) => Ok(()),
    }
}

/// Shrink a divergence with [`shrink::shrink`]: remove pieces one at a time while the
/// position stays valid and `still_diverges` holds.
pub fn minimize(
    d: &Divergence,
    still_diverges: impl Fn(&Position) -> Option<Divergence>,
) -> Divergence {
    shrink::shrink((d.position.clone(), d.clone()), usize::MAX, still_diverges).1
}
