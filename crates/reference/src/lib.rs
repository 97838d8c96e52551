//! The reference engine: a deliberately plain, readable executable version of
//! `spec/rules.md`. The board is the vocabulary's grid of squares; groups come from petgraph;
//! legal moves are every candidate the geometry allows, kept when it passes every clause check.
//! No bit tricks, no caching, no incremental state: each function names the clause it
//! implements, and the optimized engine is checked against this one.

use ordo_core::rules;

mod directions;
mod groups;
mod steps;

use crate::rules::{
    Color, Dims, Engine, Move, Position, PositionError, Status, Variant, WinReason,
};

use directions::Phase;
pub use groups::{groups, is_one_group, neighbours};
use steps::{apply_step, candidate_steps, with_tie_choices};

/// A position under the reference rules.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Reference {
    pos: Position,
}

impl Reference {
    /// The position.
    pub fn position(&self) -> &Position {
        &self.pos
    }
}

/// ORDO-10.1, ORDO-10.2, ORDO-10.5: the wins judged for the player who has just moved: a piece
/// on the home row of the side to move, or the side to move without pieces; the home row is
/// reported first when both hold.
fn decided(pos: &Position) -> Option<Status> {
    let me = pos.to_move;
    let last = me.opponent();
    let home = me.home_row(pos.dims());
    if pos.pieces(last).iter().any(|sq| sq.row == home) {
        return Some(Status::Won {
            winner: last,
            reason: WinReason::HomeRow,
        });
    }
    if pos.count(me) == 0 {
        return Some(Status::Won {
            winner: last,
            reason: WinReason::NoPieces,
        });
    }
    None
}

/// ORDO-4.3 (and ORDO-9.1 when split, ORDOX-3.2 per step): the mover is one group after the
/// step.
fn keeps_mover_connected(after: &Position, mover: Color) -> bool {
    is_one_group(after, mover)
}

/// The legal steps of the side to move for `phase`: candidates expanded with their tie choices
/// (ORDOX-4.2), kept when the mover stays one group (ORDO-4.3).
fn legal_steps(pos: &Position, phase: Phase) -> Vec<(crate::rules::Step, Position)> {
    let me = pos.to_move;
    let mut out = Vec::new();
    for cand in candidate_steps(pos, me, phase) {
        for step in with_tie_choices(pos, pos.variant, cand) {
            let after = apply_step(pos, pos.variant, &step);
            if keeps_mover_connected(&after, me) {
                out.push((step, after));
            }
        }
    }
    out
}

/// Classic Ordo: one step per move (ORDO-8.1, ORDO-8.2); backward moves only when the mover
/// starts split (ORDO-9.1, ORDO-9.2); every move leaves the mover one group (ORDO-4.3).
fn classic_moves(pos: &Position) -> Vec<Move> {
    let split = !is_one_group(pos, pos.to_move);
    legal_steps(pos, Phase::Classic { split })
        .into_iter()
        .map(|(s, _)| Move::single(s))
        .collect()
}

/// Ordo X (ORDOX-3.1): a forward step alone, or a sideways step followed by a forward step,
/// each leaving the mover one group (ORDOX-3.2). A sideways step with no legal forward
/// follow-up starts no turn (ORDOX-3.3), unless it captured the opponent's last piece, which
/// ends the game with that step alone (ORDOX-3.4). Never backward (ORDOX-1.2).
fn x_moves(pos: &Position) -> Vec<Move> {
    let me = pos.to_move;
    let mut out: Vec<Move> = legal_steps(pos, Phase::XForward)
        .into_iter()
        .map(|(s, _)| Move::single(s))
        .collect();
    for (side, after) in legal_steps(pos, Phase::XSideways) {
        if after.count(me.opponent()) == 0 {
            out.push(Move::single(side));
            continue;
        }
        for (fwd, _) in legal_steps(&after, Phase::XForward) {
            out.push(Move::double(side, fwd));
        }
    }
    out
}

impl Engine for Reference {
    const NAME: &'static str = "reference";

    fn from_position(pos: &Position) -> Result<Self, PositionError> {
        pos.validate()?;
        Ok(Reference { pos: pos.clone() })
    }

    fn to_position(&self) -> Position {
        self.pos.clone()
    }

    fn dims(&self) -> Dims {
        self.pos.dims()
    }

    fn side_to_move(&self) -> Color {
        self.pos.to_move
    }

    fn variant(&self) -> Variant {
        self.pos.variant
    }

    /// No moves once the game is decided (ORDO-10.5); otherwise by variant. A pass is never
    /// among them (ORDO-3.2).
    fn legal_moves(&self) -> Vec<Move> {
        if decided(&self.pos).is_some() {
            return Vec::new();
        }
        match self.pos.variant {
            Variant::Classic => classic_moves(&self.pos),
            Variant::X => x_moves(&self.pos),
        }
    }

    /// The steps in order, then the other side to move (ORDO-3.1).
    fn apply(&self, mv: &Move) -> Self {
        let dims = self.pos.dims();
        let on_board = mv
            .steps()
            .all(|s| s.named_squares().iter().all(|&q| dims.contains(q)));
        let mut pos = self.pos.clone();
        if on_board {
            for step in mv.steps() {
                if step.moved_squares().is_some() {
                    pos = apply_step(&pos, pos.variant, step);
                }
            }
        }
        pos.to_move = pos.to_move.opponent();
        Reference { pos }
    }

    /// ORDO-10.1 and ORDO-10.2 for the player who just moved (ORDO-10.5), then ORDO-10.3 (split
    /// and no move; also ORDOX-3.5) or ORDO-10.4 (one group and no move) for the side to move.
    fn status(&self) -> Status {
        if let Some(s) = decided(&self.pos) {
            return s;
        }
        if !self.legal_moves().is_empty() {
            return Status::Ongoing;
        }
        let me = self.pos.to_move;
        let reason = if is_one_group(&self.pos, me) {
            WinReason::NoLegalMove
        } else {
            WinReason::CannotReconnect
        };
        Status::Won {
            winner: me.opponent(),
            reason,
        }
    }
}
