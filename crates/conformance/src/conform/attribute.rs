//! Attribution: which clause a difference between the engine and the rules belongs to, and
//! which known alternative reading of a ruling the engine's answers fit.

use std::collections::{BTreeMap, BTreeSet};

use super::difference::{Diff, Expected, MoveNote, Reading, Seen};
use crate::notation::{format_move, parse_move};
use crate::reference::{is_one_group, Reference};
use crate::rules::ClauseId;
use crate::rules::{Engine, Heading, Move, Position, Status, Step, Variant, WinReason};
use crate::vectors::is_sub_run;

/// Ordo X 4.2 read as if the capturer did not choose the group kept after a tied split.
pub const TIE_UNNAMED: Reading = Reading {
    clause: ClauseId::ordo_x(4, 2),
    text: "the capturer does not choose the kept group: the victim chooses, or the engine decides (the capture is listed without /keep)",
};
/// Ordo X 4.2 read as if the engine chose the kept group of a tied split itself.
pub const TIE_ENGINE_PICKS: Reading = Reading {
    clause: ClauseId::ordo_x(4, 2),
    text: "the engine picks one of the tied groups itself (only one kept group is listed)",
};
/// Ordo 10.3 read as if a player who cannot reconnect, having no move, did not lose.
pub const NO_MOVE_RECONNECT: Reading = Reading {
    clause: ClauseId::ordo(10, 3),
    text: "a player without a legal move does not lose: the game goes on or is drawn",
};
/// Ordo 10.4 read as stalemate: a connected player without a legal move does not lose.
pub const NO_MOVE_CONNECTED: Reading = Reading {
    clause: ClauseId::ordo(10, 4),
    text: "a player without a legal move does not lose: the game goes on or is drawn (stalemate)",
};
/// Ordo 5.2 read as if only a whole line (not part of it) could move as an ordo.
pub const MAXIMAL_RUNS: Reading = Reading {
    clause: ClauseId::ordo(5, 2),
    text: "only a maximal line is an ordo: part of a longer line may not move as an ordo",
};
/// Ordo X 3.4 read as if capturing the last piece sideways did not end the turn.
pub const LAST_CAPTURE_CONTINUES: Reading = Reading {
    clause: ClauseId::ordo_x(3, 4),
    text: "a sideways step that captures the opponent's last piece still needs a forward step: the turn does not end there",
};
/// Ordo X 4.1 read as if only groups touching the captured square were removed.
pub const REMOVAL_ADJACENT_ONLY: Reading = Reading {
    clause: ClauseId::ordo_x(4, 1),
    text: "after a capture only the opponent's groups that touch the captured square are removed, not every piece outside a largest group",
};

/// Ordo 3.3 read with a draw by threefold repetition, which the rules do not have.
pub const THREEFOLD: Reading = Reading {
    clause: ClauseId::ordo(3, 3),
    text: "a position that comes back for the third time in a game ends it in a draw (threefold repetition)",
};
/// Ordo 3.3 read with a draw by fourfold repetition, which the rules do not have.
pub const FOURFOLD: Reading = Reading {
    clause: ClauseId::ordo(3, 3),
    text: "a position that occurs for the fourth time in a game, the start counted, ends it in a draw (fourfold repetition)",
};
/// Ordo 3.3 read with a draw once a position has occurred five times or more.
pub const FIVEFOLD: Reading = Reading {
    clause: ClauseId::ordo(3, 3),
    text: "a position that occurs for the fifth time or more in a game, the start counted, ends it in a draw (repetition)",
};

/// The repetition reading of Ordo 3.3 that a draw fits on a position that has occurred `times`
/// times in the game, the start counted; `None` under three.
pub fn repetition_reading(times: usize) -> Option<Reading> {
    match times {
        0..=2 => None,
        3 => Some(THREEFOLD),
        4 => Some(FOURFOLD),
        _ => Some(FIVEFOLD),
    }
}

/// Whether a step of `m` goes backward or diagonally backward for the side to move.
pub fn goes_backward(pos: &Position, m: &Move) -> bool {
    m.steps().any(|s| {
        s.direction().is_some_and(|(d, _)| {
            matches!(
                d.heading(pos.to_move),
                Heading::Backward | Heading::DiagonalBackward
            )
        })
    })
}

/// A move the engine misses that only a split classic player may make (ORDO-9.2).
pub fn split_backward(pos: &Position, m: &Move) -> bool {
    pos.variant == Variant::Classic && !is_one_group(pos, pos.to_move) && goes_backward(pos, m)
}

/// Whether some ordo step of `m` moves only part of a longer line (ORDO-5.2).
pub fn moves_sub_run(pos: &Position, m: &Move) -> bool {
    if is_sub_run(pos, &m.first) {
        return true;
    }
    let (Some(second), Ok(reference)) = (m.second, Reference::from_position(pos)) else {
        return false;
    };
    let mut mid = reference.apply(&Move::single(m.first)).to_position();
    mid.to_move = pos.to_move;
    is_sub_run(&mid, &second)
}

/// The first step of `m` when it is one sideways single step that captures the opponent's last
/// piece in Ordo X (the turn ends there, ORDOX-3.4).
pub fn sideways_last_capture(pos: &Position, first: &Step) -> bool {
    let sideways = first
        .direction()
        .is_some_and(|(d, _)| d.heading(pos.to_move) == Heading::Sideways);
    pos.variant == Variant::X
        && sideways
        && matches!(first, Step::Single { capture: true, .. })
        && pos.pieces(pos.to_move.opponent()).len() == 1
}

/// The known readings the engine's answers fit.
pub fn readings(pos: &Position, expected: &Expected, seen: &Seen) -> BTreeSet<Reading> {
    let engine: BTreeSet<String> = seen.moves.iter().cloned().collect();
    let mut out = BTreeSet::new();
    no_move_readings(expected, seen, &mut out);
    tie_readings(expected, &engine, &mut out);
    // ORDO-5.2: every missed move that no more specific clause explains moves part of a line,
    // and the engine lists no such move.
    let unexplained: Vec<Move> = expected
        .moves
        .difference(&engine)
        .filter_map(|t| parse_move(t).ok())
        .filter(|m| !split_backward(pos, m))
        .collect();
    let engine_sub_run = seen
        .moves
        .iter()
        .filter_map(|t| parse_move(t).ok())
        .any(|m| moves_sub_run(pos, &m));
    if !unexplained.is_empty()
        && unexplained.iter().all(|m| moves_sub_run(pos, m))
        && !engine_sub_run
    {
        out.insert(MAXIMAL_RUNS);
    }
    // ORDOX-3.4: the engine lists two-step turns whose first step alone takes the last piece.
    let continues = engine.difference(&expected.moves).any(|t| {
        parse_move(t).is_ok_and(|m| {
            m.second.is_some()
                && sideways_last_capture(pos, &m.first)
                && expected
                    .moves
                    .contains(&format_move(&Move::single(m.first)))
        })
    });
    if continues {
        out.insert(LAST_CAPTURE_CONTINUES);
    }
    out
}

/// ORDO-10.3 / ORDO-10.4: a player without a legal move is not lost.
fn no_move_readings(expected: &Expected, seen: &Seen, out: &mut BTreeSet<Reading>) {
    use crate::protocol::ReportedStatus;
    if let Status::Won { reason, .. } = expected.status {
        if matches!(seen.status, ReportedStatus::Ongoing | ReportedStatus::Draw) {
            match reason {
                WinReason::CannotReconnect => {
                    out.insert(NO_MOVE_RECONNECT);
                }
                WinReason::NoLegalMove => {
                    out.insert(NO_MOVE_CONNECTED);
                }
                _ => {}
            }
        }
    }
}

/// ORDOX-4.2: tie choices listed without a kept group, or only one of them.
fn tie_readings(expected: &Expected, engine: &BTreeSet<String>, out: &mut BTreeSet<Reading>) {
    let mut ties: BTreeMap<String, Vec<&String>> = BTreeMap::new();
    for t in &expected.moves {
        if let Ok(m) = parse_move(t) {
            if m.steps()
                .any(|s| matches!(s, Step::Single { keep: Some(_), .. }))
            {
                ties.entry(format_move(&m.without_keeps()))
                    .or_default()
                    .push(t);
            }
        }
    }
    for (stripped, variants) in &ties {
        let listed = variants.iter().filter(|v| engine.contains(**v)).count();
        if engine.contains(stripped) && listed < variants.len() {
            out.insert(TIE_UNNAMED);
        } else if variants.len() > 1 && listed == 1 {
            out.insert(TIE_ENGINE_PICKS);
        }
    }
}

/// The main clauses of a difference, by cause, from the first point where the engine and the
/// rules part: a reason-only status difference is ORDO-10.5; else the clauses of the known
/// readings; else the clause of a status the engine claims and the rules do not give (or of a
/// win it misses); else the clauses that forbid the moves the engine lists and the rules do
/// not; else the clauses that permit the moves it omits (the most frequent, in each case).
pub fn main_clauses(d: &Diff) -> Vec<ClauseId> {
    if d.same_winner {
        return vec![ClauseId::ordo(10, 5)];
    }
    if !d.readings.is_empty() {
        let set: BTreeSet<ClauseId> = d.readings.iter().map(|r| r.clause).collect();
        return set.into_iter().collect();
    }
    if let Some(c) = d.status_cause {
        return vec![c];
    }
    let extra = most_frequent(&d.only_engine);
    if !extra.is_empty() {
        return extra;
    }
    let missing = most_frequent(&d.only_reference);
    if missing.is_empty() {
        d.status_clauses.clone()
    } else {
        missing
    }
}

/// The clauses named by the most moves of `notes`.
fn most_frequent(notes: &[MoveNote]) -> Vec<ClauseId> {
    let mut freq: BTreeMap<ClauseId, usize> = BTreeMap::new();
    for m in notes {
        for c in &m.clauses {
            *freq.entry(*c).or_default() += 1;
        }
    }
    let max = freq.values().copied().max().unwrap_or(0);
    freq.into_iter()
        .filter(|&(_, k)| k == max && max > 0)
        .map(|(c, _)| c)
        .collect()
}
