//! The adjudicator's verdict on one move, reduced to what the conformance driver needs: legal
//! or not, the clauses that permit or forbid it, and the details in words.

use crate::adjudicate::{adjudicate, Verdict};
use crate::rules::{ClauseId, Move, Position};

/// The clauses behind a verdict.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Judgement {
    /// Whether the adjudicator finds the move legal.
    pub legal: bool,
    /// For a legal move the clauses that permit it, for an illegal one the clauses it breaks.
    pub clauses: Vec<ClauseId>,
    /// For an illegal move, what breaks each clause.
    pub details: Vec<String>,
}

/// Ask the adjudicator (`crate::adjudicate::adjudicate`).
pub fn judge(pos: &Position, mv: &Move) -> Judgement {
    match adjudicate(pos, mv) {
        Verdict::Legal { permits, .. } => Judgement {
            legal: true,
            clauses: permits,
            details: Vec::new(),
        },
        Verdict::Illegal { violations } => Judgement {
            legal: false,
            clauses: violations.iter().map(|v| v.clause).collect(),
            details: violations
                .iter()
                .map(|v| format!("{}: {}", v.clause, v.detail))
                .collect(),
        },
    }
}
