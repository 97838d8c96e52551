//! Structured inputs for the coverage-guided targets (`fuzz/`), built from raw fuzz bytes so
//! that every byte string is a valid case and a small change of the bytes is a small change of
//! the case. The costs are bounded so that a target runs about a thousand cases a second:
//!
//! - small boards (2 x 2 .. 6 x 5, at most 30 squares) as set-up positions (ORDO-2.3) or as playouts from their
//!   reachable starts: small enough to compare every legal move through the reference engine;
//! - the 10 x 8 and 8 x 8 boards (and any other up to 128 squares) as playouts from the start
//!   or sparse set-up positions, on which the oracles sample a few moves instead of replaying
//!   whole games through the reference engine (whose Ordo X move list costs ~10 ms there).
//!
//! Playouts are walked by the engine the caller names (the fast one), so a case costs one
//! reference move list at most.

use std::sync::OnceLock;

use crate::rules::{setup, Color, Dims, Engine, Move, Position, Variant};
use ordo_conformance::diff::reachable_starts;

/// Boards of at most this many squares are "small": the oracles compare every legal move.
pub const SMALL_SQUARES: usize = 30;
/// Longest playout on a small board, in plies.
pub const SMALL_PLIES: usize = 24;
/// Longest playout on a big board, in plies: classic, then Ordo X (whose move list is long).
pub const BIG_PLIES: [usize; 2] = [40, 6];
/// Most pieces of each colour in a set-up position on a big board.
pub const BIG_PIECES: usize = 12;
/// Most moves a case samples on a big board.
pub const PICKS: usize = 4;

/// Bounded draws from fuzz bytes; once the bytes run out every draw is 0.
#[derive(Clone, Debug)]
pub struct Draws<'a> {
    bytes: &'a [u8],
}

impl<'a> Draws<'a> {
    pub fn new(bytes: &'a [u8]) -> Draws<'a> {
        Draws { bytes }
    }

    /// The next byte (0 past the end).
    pub fn byte(&mut self) -> u8 {
        match self.bytes.split_first() {
            Some((&b, rest)) => {
                self.bytes = rest;
                b
            }
            None => 0,
        }
    }

    /// A number in `0..n` (0 when `n` is 0), from one byte when `n` fits in one, else two.
    pub fn below(&mut self, n: usize) -> usize {
        if n <= 1 {
            return 0;
        }
        let raw = if n <= 256 {
            self.byte() as usize
        } else {
            u16::from_le_bytes([self.byte(), self.byte()]) as usize
        };
        raw % n
    }

    /// One bit, from a whole byte.
    pub fn flag(&mut self) -> bool {
        self.byte() & 1 == 1
    }

    /// The bytes not drawn yet.
    pub fn rest(&self) -> &'a [u8] {
        self.bytes
    }
}

/// How a case's position was made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    /// Pieces placed square by square (ORDO-2.3); possibly invalid (see [`Case::from_bytes`]).
    SetUp,
    /// A playout of this many plies from a start.
    Playout(usize),
}

/// One case of the differential targets: a position, how it was made, and the choices that
/// pick the moves to sample in it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Case {
    pub position: Position,
    pub origin: Origin,
    /// Up to [`PICKS`] move choices (taken modulo the number of moves).
    pub picks: Vec<u16>,
}

impl Case {
    /// Whether the board is small enough to compare every move ([`SMALL_SQUARES`]).
    pub fn is_small(&self) -> bool {
        self.position.dims().len() <= SMALL_SQUARES
    }

    /// Whether the reference engine's move list is cheap here ([`is_cheap`]).
    pub fn is_cheap(&self) -> bool {
        is_cheap(&self.position)
    }

    /// The case that `bytes` describe, its playouts walked by engine `E`; `None` when the
    /// set-up cannot be repaired into a valid position (the side that moved last has no piece).
    /// One set-up in eight is left unrepaired, so that it may be invalid (ORDO-2.3): the
    /// oracles then check that every engine refuses it alike.
    /// The first byte picks the kind: small set-up (3 in 8), small playout (3 in 8), big
    /// playout, big set-up.
    pub fn from_bytes<E: Engine>(bytes: &[u8]) -> Option<Case> {
        let mut d = Draws::new(bytes);
        let (position, origin) = match d.byte() % 8 {
            0..=2 => (small_setup(&mut d)?, Origin::SetUp),
            3..=5 => {
                let start = &small_starts()[d.below(small_starts().len())];
                playout::<E>(start, &mut d, SMALL_PLIES)
            }
            6 => {
                let variant = Variant::ALL[d.below(2)];
                let start = if d.flag() {
                    setup::chess_board(variant)
                } else {
                    setup::standard(variant)
                };
                let max = BIG_PLIES[usize::from(variant == Variant::X)];
                playout::<E>(&start, &mut d, max)
            }
            _ => (big_setup(&mut d)?, Origin::SetUp),
        };
        let picks = (0..PICKS)
            .map(|_| u16::from_le_bytes([d.byte(), d.byte()]))
            .collect();
        Some(Case {
            position,
            origin,
            picks,
        })
    }
}

/// Whether the reference engine's move list is cheap in `p` (a few hundred microseconds when
/// instrumented): at most 12 pieces of the side to move in classic Ordo, 6 in Ordo X, whose
/// two-step turns multiply the candidates.
pub fn is_cheap(p: &Position) -> bool {
    p.count(p.to_move) <= if p.variant == Variant::X { 6 } else { 12 }
}

/// The reachable starts of [`reachable_starts`] on small boards ([`SMALL_SQUARES`]).
pub fn small_starts() -> &'static [Position] {
    static STARTS: OnceLock<Vec<Position>> = OnceLock::new();
    STARTS.get_or_init(|| {
        reachable_starts()
            .into_iter()
            .filter(|p| p.dims().len() <= SMALL_SQUARES)
            .collect()
    })
}

/// The variant, the side to move and whether to repair the set-up (7 in 8) from one byte.
fn variant_and_side(d: &mut Draws) -> (Variant, Color, bool) {
    let b = d.byte();
    let variant = Variant::ALL[(b & 1) as usize];
    let side = if b & 2 == 0 {
        Color::White
    } else {
        Color::Black
    };
    (variant, side, b & 0x1c != 0x1c)
}

/// A board of 2..=6 columns and rows, at most [`SMALL_SQUARES`] squares, one byte per square
/// (0 or 3: empty, 1 White, 2 Black).
fn small_setup(d: &mut Draws) -> Option<Position> {
    let cols = 2 + d.below(5);
    let dims = Dims::new(cols, (2 + d.below(5)).min(SMALL_SQUARES / cols)).ok()?;
    let (variant, side, repair) = variant_and_side(d);
    let mut p = Position::empty(dims, side, variant);
    for sq in dims.squares() {
        match d.byte() % 4 {
            1 => p.set(sq, Some(Color::White)),
            2 => p.set(sq, Some(Color::Black)),
            _ => {}
        }
    }
    if repair {
        repaired(p)
    } else {
        Some(p)
    }
}

/// A board of 7..=16 columns and rows (at most 128 squares) with 1..=[`BIG_PIECES`] pieces of
/// each colour, each on a drawn square (a square drawn twice keeps its last piece).
fn big_setup(d: &mut Draws) -> Option<Position> {
    let cols = 7 + d.below(10);
    let rows = (7 + d.below(10)).min(128 / cols);
    let dims = Dims::new(cols, rows).ok()?;
    let (variant, side, repair) = variant_and_side(d);
    let mut p = Position::empty(dims, side, variant);
    for colour in [Color::White, Color::Black] {
        for _ in 0..=d.below(BIG_PIECES) {
            p.set(dims.square(d.below(dims.len())), Some(colour));
        }
    }
    if repair {
        repaired(p)
    } else {
        Some(p)
    }
}

/// `p` made valid (ORDO-2.3) by clearing the pieces of the side to move on its opponent's home
/// row; `None` when the side that moved last has no piece.
fn repaired(mut p: Position) -> Option<Position> {
    let target = p.to_move.opponent().home_row(p.dims());
    for sq in p.pieces(p.to_move) {
        if sq.row == target {
            p.set(sq, None);
        }
    }
    p.validate().ok().map(|()| p)
}

/// Play up to `max` plies (their number drawn) from `start` with engine `E`, each move drawn
/// from `E`'s legal moves in its own order; stops early when the game is over.
fn playout<E: Engine>(start: &Position, d: &mut Draws, max: usize) -> (Position, Origin) {
    let plies = d.below(max + 1);
    let Ok(mut e) = E::from_position(start) else {
        return (start.clone(), Origin::Playout(0));
    };
    let mut played = 0;
    while played < plies {
        let moves: Vec<Move> = e.legal_moves();
        if moves.is_empty() {
            break;
        }
        e = e.apply(&moves[d.below(moves.len())]);
        played += 1;
    }
    (e.to_position(), Origin::Playout(played))
}
