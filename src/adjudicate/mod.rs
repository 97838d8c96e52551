//! The adjudicator: the verdict on one proposed move, reached clause by clause.
//!
//! It is its own code path, written from `spec/rules.md` alone: it never looks the move up in a
//! generated move list and imports neither engine (only the vocabulary and the notation), so
//! that its verdicts check the engines and the engines check it.

use crate::rules::{Position, Square, Status};

/// One clause a proposed move breaks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Violation {
    /// The clause id, e.g. `ORDO-7.2`.
    pub clause: &'static str,
    /// What exactly breaks it in this move, e.g. "the ordo would land on Black's piece on c4".
    pub detail: String,
}

/// What a legal move does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Effects {
    /// Every piece moved, from and to, in step order.
    pub moved: Vec<(Square, Square)>,
    /// Opponent pieces captured by landing on them (ORDO-6.4).
    pub captured: Vec<Square>,
    /// Opponent pieces removed with a smaller or unchosen group (ORDOX-4.1, ORDOX-4.2).
    pub removed: Vec<Square>,
    /// Whether a capture left the opponent split (before any removal).
    pub splits_opponent: bool,
    /// The position after the move.
    pub result: Position,
    /// The status after the move (a win with its reason, or ongoing).
    pub status: Status,
}

/// The verdict on a proposed move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The move is legal; `permits` lists the clauses that allow it.
    Legal {
        permits: Vec<&'static str>,
        effects: Box<Effects>,
    },
    /// The move is illegal; `violations` lists every clause it breaks (never empty).
    Illegal { violations: Vec<Violation> },
}

impl Verdict {
    pub fn is_legal(&self) -> bool {
        matches!(self, Verdict::Legal { .. })
    }
}
