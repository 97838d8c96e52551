//! The one trait both engines implement, so tests, fuzzers, the command line and the solver can
//! run on either.

use super::moves::{Move, Step};
use super::position::{Position, PositionError};
use super::status::Status;
use super::types::{Color, Dims, Variant};

/// A proposed move that is not in the legal move list, with the position it was proposed in.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{mv} is not a legal move in {position} (`ordo explain` names every clause it breaks)")]
pub struct IllegalMove {
    /// The move as proposed.
    pub mv: Move,
    /// The position it was proposed in.
    pub position: Position,
}

/// An Ordo rules engine: a position of one variant plus the rules that act on it.
///
/// The status and the legal moves depend on the position alone, never on the history that led
/// to it: the rules have no repetition or move-count rule (ORDO-3.3).
pub trait Engine: Clone + Send + Sync + Sized + 'static {
    /// Short name (`reference`, `bitboard`).
    const NAME: &'static str;

    /// Load a position; it is validated first (ORDO-2.3).
    fn from_position(pos: &Position) -> Result<Self, PositionError>;

    /// Export the position.
    fn to_position(&self) -> Position;

    /// Board dimensions.
    fn dims(&self) -> Dims;

    /// The player whose turn it is.
    fn side_to_move(&self) -> Color;

    /// The game being played.
    fn variant(&self) -> Variant;

    /// Every legal move (one move = one turn, ORDOX-5.1), each once, with ordo steps in
    /// canonical order and a tie choice named by the lowest square of the group kept. Empty when
    /// the game is over (ORDO-10.5).
    fn legal_moves(&self) -> Vec<Move>;

    /// Apply the steps of `mv` in order without checking legality. `mv` should come from
    /// [`Engine::legal_moves`]; anything else gives an unspecified position but never a panic
    /// as long as its squares are on the board.
    fn apply(&self, mv: &Move) -> Self;

    /// The game status (ORDO-10.1 to ORDO-10.5).
    fn status(&self) -> Status;

    /// Each colour's pieces as a mask, White first: bit `i` is the square of
    /// [`Dims::square`]`(i)` (row-major, a1 = bit 0). The solver's compact key.
    fn occupancy(&self) -> [u128; 2] {
        let pos = self.to_position();
        let dims = pos.dims();
        let mut occ = [0u128; 2];
        for (i, sq) in dims.squares().enumerate() {
            if let Some(c) = pos.get(sq) {
                occ[c as usize] |= 1u128 << i;
            }
        }
        occ
    }

    /// Load the position whose [`Engine::occupancy`] is `occ` (validated, ORDO-2.3; bits
    /// beyond the board are ignored, a square claimed by both colours goes to White).
    fn from_occupancy(
        dims: Dims,
        variant: Variant,
        to_move: Color,
        occ: [u128; 2],
    ) -> Result<Self, PositionError> {
        let mut pos = Position::empty(dims, to_move, variant);
        for (i, sq) in dims.squares().enumerate() {
            if occ[0] >> i & 1 == 1 {
                pos.set(sq, Some(Color::White));
            } else if occ[1] >> i & 1 == 1 {
                pos.set(sq, Some(Color::Black));
            }
        }
        Self::from_position(&pos)
    }

    /// Replace the contents of `out` with the position after each legal move, in the order of
    /// [`Engine::legal_moves`] (the solver's inner loop; an engine may skip the move list).
    fn successors(&self, out: &mut Vec<Self>) {
        out.clear();
        out.extend(self.legal_moves().iter().map(|m| self.apply(m)));
    }

    /// [`Engine::from_occupancy`] for a caller that knows the position is valid (ORDO-2.3)
    /// and which colours are split (`split[c]`: colour `c` is not one group, ORDO-4.1): the
    /// solver's positions from its index. An engine may trust `split` and skip its flood
    /// fills; a wrong `split` gives an unspecified position, never a panic.
    fn from_occupancy_split(
        dims: Dims,
        variant: Variant,
        to_move: Color,
        occ: [u128; 2],
        split: [bool; 2],
    ) -> Result<Self, PositionError> {
        let _ = split;
        Self::from_occupancy(dims, variant, to_move, occ)
    }

    /// Replace the contents of `out` with the [`Engine::occupancy`] after each legal move, in
    /// the order of [`Engine::successors`] (the opponent to move in each): the solver's
    /// inner loop, which needs no more of a successor than its pieces.
    fn successor_occupancies(&self, out: &mut Vec<[u128; 2]>) {
        let mut next = Vec::new();
        self.successors(&mut next);
        out.clear();
        out.extend(next.iter().map(|s| s.occupancy()));
    }

    /// Number of move sequences of length `depth` (leaf nodes), counting turns, not positions
    /// (ORDOX-5.1).
    fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = self.legal_moves();
        if depth == 1 {
            return moves.len() as u64;
        }
        moves.iter().map(|m| self.apply(m).perft(depth - 1)).sum()
    }

    /// Perft split by first move.
    fn divide(&self, depth: u32) -> Vec<(Move, u64)> {
        self.legal_moves()
            .into_iter()
            .map(|m| {
                let n = if depth <= 1 {
                    1
                } else {
                    self.apply(&m).perft(depth - 1)
                };
                (m, n)
            })
            .collect()
    }

    /// Find the legal move that `mv` denotes: ordo ends may be given in either order, and a tie
    /// choice (ORDOX-4.2) may name any square of the group kept.
    fn resolve(&self, mv: &Move) -> Option<Move> {
        let want = mv.canonical(self.dims());
        let legal = self.legal_moves();
        if let Some(m) = legal.iter().find(|m| **m == want) {
            return Some(*m);
        }
        let opponent = self.side_to_move().opponent();
        legal.into_iter().find(|cand| {
            if cand.without_keeps() != want.without_keeps() {
                return false;
            }
            let mut cur = self.clone();
            for (have, asked) in cand.steps().zip(want.steps()) {
                let next = cur.apply(&Move::single(*have));
                match (keep_of(have), keep_of(asked)) {
                    (None, None) => {}
                    (Some(_), Some(k)) => {
                        if !next.dims().contains(k) || next.to_position().get(k) != Some(opponent) {
                            return false;
                        }
                    }
                    _ => return false,
                }
                cur = next;
            }
            true
        })
    }

    /// Play a move given in any accepted spelling (see [`Engine::resolve`]).
    fn play(&self, mv: &Move) -> Result<Self, IllegalMove> {
        match self.resolve(mv) {
            Some(m) => Ok(self.apply(&m)),
            None => Err(IllegalMove {
                mv: *mv,
                position: self.to_position(),
            }),
        }
    }
}

fn keep_of(step: &Step) -> Option<crate::rules::Square> {
    match *step {
        Step::Single { keep, .. } => keep,
        Step::Ordo { .. } => None,
    }
}
