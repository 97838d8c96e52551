//! The adjudicator: the verdict on one proposed move, reached clause by clause.
//!
//! It is its own code path, written from `spec/rules.md` alone: it never looks the move up in a
//! generated move list and imports neither engine (only the vocabulary and the notation), so
//! that its verdicts check the engines and the engines check it.
//!
//! - [`adjudicate`]: the verdict on one move: every clause it breaks, or the clauses that permit
//!   it and what it does ([`Effects`]), including the status after it, which this module
//!   computes with its own search for a legal reply. [`canonical_spelling`] gives a legal
//!   move's canonical notation.
//! - [`candidate_moves`], [`candidate_moves_limited`], [`candidate_moves_sampled`],
//!   [`candidate_steps`]: a broad space of geometrically possible moves, legal and illegal
//!   alike, for checking the adjudicator against the engines.
//! - [`groups`]: the groups of one colour (ORDO-4.1), by a flood fill of its own.
//!
//! ```
//! use ordo_adjudicate::adjudicate;
//! use ordo_core::notation::{parse_move, parse_position};
//!
//! let pos = parse_position("4/4/1B2/W3/WW2 w classic").unwrap();
//! assert!(adjudicate(&pos, &parse_move("b1-b2").unwrap()).is_legal());
//! // The ordo a1..b1 would land on White's own piece on a2.
//! let verdict = adjudicate(&pos, &parse_move("a1:b1-a2").unwrap());
//! assert_eq!(verdict.clause_ids(), ["ORDO-7.3"]);
//! // A capture written with '-', which would also leave b3 apart from a1 and b1: both faults.
//! let verdict = adjudicate(&pos, &parse_move("a2-b3").unwrap());
//! assert_eq!(verdict.clause_ids(), ["ORDO-6.4", "ORDO-4.3"]);
//! ```

use ordo_core::rules;

mod candidates;
mod groups;
mod step;
mod turn;

use crate::rules::{ClauseId, Move, Position, PositionError, Square, Status};

pub use candidates::{
    candidate_moves, candidate_moves_limited, candidate_moves_sampled, candidate_steps,
    groups_after_capture,
};
pub use groups::{groups, is_one_group};

/// One clause a proposed move breaks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Violation {
    /// The clause id, e.g. `ORDO-7.2`.
    pub clause: ClauseId,
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
    /// Whether a capture left the opponent in more than one group (before any removal).
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
        /// The clauses that allow this move (its kind of move, its distance, the group rule
        /// it keeps), in the order the adjudicator checked them.
        permits: Vec<ClauseId>,
        /// What the move does: pieces captured or removed, the position and status after it.
        effects: Box<Effects>,
    },
    /// The move is illegal; `violations` lists every clause it breaks (never empty).
    Illegal {
        /// Each clause the move breaks with the reason, in the order found; never empty.
        violations: Vec<Violation>,
    },
}

impl Verdict {
    /// Whether the move is legal (the verdict is [`Verdict::Legal`]).
    pub fn is_legal(&self) -> bool {
        matches!(self, Verdict::Legal { .. })
    }

    /// The violations (empty for a legal move).
    pub fn violations(&self) -> &[Violation] {
        match self {
            Verdict::Legal { .. } => &[],
            Verdict::Illegal { violations } => violations,
        }
    }

    /// The ids of the clauses broken, in the order found, each once (empty for a legal move).
    pub fn clause_ids(&self) -> Vec<ClauseId> {
        let mut ids: Vec<ClauseId> = Vec::new();
        for v in self.violations() {
            if !ids.contains(&v.clause) {
                ids.push(v.clause);
            }
        }
        ids
    }

    /// The clauses that permit a legal move (empty for an illegal one).
    pub fn permits(&self) -> &[ClauseId] {
        match self {
            Verdict::Legal { permits, .. } => permits,
            Verdict::Illegal { .. } => &[],
        }
    }

    /// The effects of a legal move.
    pub fn effects(&self) -> Option<&Effects> {
        match self {
            Verdict::Legal { effects, .. } => Some(effects),
            Verdict::Illegal { .. } => None,
        }
    }
}

/// The verdict on `mv` played by the side to move in `pos`, clause by clause (spec/rules.md).
///
/// The move is never looked up in a move list: each clause is checked on its own, and for an
/// illegal move every clause it breaks is reported. Checks that an earlier fault makes
/// meaningless (a square off the board, no line of pieces, no straight direction, a board that
/// cannot exist after an impossible first step) are skipped; all independent ones are made.
///
/// A position that cannot be set up (ORDO-2.3, ORDO-1.5) has no legal move; neither has a game
/// that is already decided (ORDO-10.5). For a legal move the verdict lists the clauses that
/// permit it and its [`Effects`], with the status after it computed by this module's own search
/// for a legal reply (ORDO-10.3, ORDO-10.4).
pub fn adjudicate(pos: &Position, mv: &Move) -> Verdict {
    if let Some(v) = check_ordo_2_3_position_can_be_set_up(pos) {
        return Verdict::Illegal {
            violations: vec![v],
        };
    }
    let mut violations: Vec<Violation> = check_ordo_10_5_game_not_over(pos).into_iter().collect();
    let report = turn::check_turn(pos, mv);
    violations.extend(report.violations);
    if !violations.is_empty() {
        return Verdict::Illegal { violations };
    }
    let outcome = report
        .outcome
        .expect("a turn without violations can be carried out");
    let status = turn::status_of(&outcome.result);
    let mut permits = report.permits;
    if let Some(c) = status.clause() {
        let c: ClauseId = c.parse().expect("a status names a clause id");
        if !permits.contains(&c) {
            permits.push(c);
        }
    }
    sort_in_registry_order(&mut permits);
    Verdict::Legal {
        permits,
        effects: Box::new(Effects {
            moved: outcome.moved,
            captured: outcome.captured,
            removed: outcome.removed,
            splits_opponent: outcome.splits_opponent,
            result: outcome.result,
            status,
        }),
    }
}

/// ORDO-2.3, ORDO-1.5: a position that cannot be set up has no legal move.
fn check_ordo_2_3_position_can_be_set_up(pos: &Position) -> Option<Violation> {
    let e = pos.validate().err()?;
    let clause = match e {
        PositionError::Dims(_) => ClauseId::ordo(1, 5),
        _ => ClauseId::ordo(2, 3),
    };
    Some(Violation {
        clause,
        detail: format!("the position cannot be set up, so no move can be made: {e}"),
    })
}

/// ORDO-10.5: a game already won (ORDO-10.1, ORDO-10.2) has no legal move.
fn check_ordo_10_5_game_not_over(pos: &Position) -> Option<Violation> {
    let (status, square) = turn::decided(pos)?;
    let why = match square {
        Some(sq) => format!(
            "{}'s piece on {sq} stands on {}'s home row (ORDO-10.1)",
            pos.to_move.opponent(),
            pos.to_move
        ),
        None => format!("{} has no piece left (ORDO-10.2)", pos.to_move),
    };
    Some(Violation {
        clause: ClauseId::ordo(10, 5),
        detail: format!("the game is already over ({status}): {why}; a game that has been won has no legal moves"),
    })
}

/// Sort clause ids in the order of the registry (spec/rules.md), which reads from the board
/// to the end of the game.
fn sort_in_registry_order(ids: &mut [ClauseId]) {
    let order = |id: &ClauseId| {
        crate::rules::clauses::registry()
            .clauses
            .iter()
            .position(|c| *id == *c.id)
            .unwrap_or(usize::MAX)
    };
    ids.sort_by_key(order);
}

/// The canonical spelling (spec/notation.md) of `mv` if it is legal in `pos`: ordo ends in
/// row-major order, a tie choice (ORDOX-4.2) named by the lowest square of the kept group.
pub fn canonical_spelling(pos: &Position, mv: &Move) -> Option<Move> {
    if pos.validate().is_err() || turn::decided(pos).is_some() {
        return None;
    }
    let report = turn::check_turn(pos, mv);
    if !report.violations.is_empty() {
        return None;
    }
    report.outcome.map(|o| o.canonical)
}

/// The status of `pos` (ORDO-10.1 to ORDO-10.5), by this module's own search for a legal move:
/// a win of the player who has just moved, else ongoing when the side to move has a legal move,
/// else a loss of the side to move (ORDO-10.4 when it is one group, ORDO-10.3 when split).
pub fn status(pos: &Position) -> Status {
    turn::status_of(pos)
}
