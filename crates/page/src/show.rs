//! What a verdict shows on the board rather than in a list (show, don't list): the boards of a
//! move step by step ([`frames`]: before, each step, the removal after an Ordo X capture), the
//! groups that decide it drawn on those boards (the mover's groups a disconnecting move leaves,
//! ORDO-4.3; the opponent's groups a capture leaves, kept or removed, ORDOX-4.1), and the board
//! after each choice of a tie (ORDOX-4.2, [`tie_choices`]).

use serde::Serialize;

use crate::adjudicate::{groups, groups_after_capture, Verdict};
use crate::notation::{format_move, format_position};
use crate::reference::Reference;
use crate::render::{self, Annotations};
use crate::rules::{Color, Engine, Move, Position, Square, Step, Variant};

/// Groups of pieces drawn on a board, with what they are.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct GroupInfo {
    /// `split`: a group of the mover's pieces that a disconnecting move leaves apart (ORDO-4.3,
    /// ORDO-9.1, ORDOX-3.2); `left`: an opponent group a classic capture leaves (ORDO-9.3);
    /// `kept` and `removed`: an opponent group an Ordo X capture leaves, and whether it stays
    /// (ORDOX-4.1, ORDOX-4.2); `tied`: one of the tied largest groups.
    pub role: &'static str,
    /// The group's squares in row-major order.
    pub squares: Vec<String>,
}

/// One board of a verdict's sequence.
#[derive(Clone, Debug, Serialize)]
pub struct Frame {
    /// `before`, `capture` (the pieces moved, the capture made, the pieces to remove still on
    /// the board and marked), `after` (a step done, removal included) or `as-written` (an
    /// illegal move carried out as written, to show what it breaks).
    pub kind: &'static str,
    /// What the board shows, e.g. `Step 1: b3xb4 captures b4`.
    pub label: String,
    /// The position drawn (the side to move is the mover's until the last board).
    pub position: String,
    /// Squares marked as captured and as about to be removed.
    pub captured: Vec<String>,
    /// Squares of the opponent pieces about to be removed with their group (Ordo X).
    pub removed: Vec<String>,
    /// The groups drawn on this board.
    pub groups: Vec<GroupInfo>,
    /// The diagram.
    pub svg: String,
}

/// One choice of a tie (ORDOX-4.2): the group kept, and the board after the capture with it.
#[derive(Clone, Debug, Serialize)]
pub struct TieChoice {
    /// The square that names the choice (`b3xb4/c4`): the group's first square.
    pub keep: String,
    /// Every square of the group kept, in row-major order.
    pub group: Vec<String>,
    /// The step written with the choice, e.g. `b3xb4/c4`.
    pub step: String,
    /// The position after the capture and the removal of the other groups, and its diagram.
    pub after: String,
    /// The diagram of that position.
    pub svg: String,
}

fn names(squares: &[Square]) -> Vec<String> {
    squares.iter().map(|s| s.to_string()).collect()
}

fn group_list(role: &'static str, gs: &[Vec<Square>]) -> Vec<GroupInfo> {
    gs.iter()
        .map(|g| GroupInfo {
            role,
            squares: names(g),
        })
        .collect()
}

fn frame(
    kind: &'static str,
    label: String,
    pos: &Position,
    marks: (Vec<Square>, Vec<Square>),
    groups: Vec<GroupInfo>,
) -> Frame {
    marked_frame(kind, label, pos, marks, groups, None)
}

/// [`frame`] with the step `done` that led to `pos` marked on it, its origin and landing
/// squares and arrows drawn as on the board before the move.
fn marked_frame(
    kind: &'static str,
    label: String,
    pos: &Position,
    marks: (Vec<Square>, Vec<Square>),
    groups: Vec<GroupInfo>,
    done: Option<&Move>,
) -> Frame {
    let notes = Annotations {
        captured: marks.0.clone(),
        removed: marks.1.clone(),
        title: None,
    };
    Frame {
        kind,
        label,
        position: format_position(pos),
        captured: names(&marks.0),
        removed: names(&marks.1),
        groups,
        svg: after_svg(pos, done, &notes),
    }
}

/// The diagram of `pos`, the position after `done`, with `done` marked on it (the squares it
/// left and reached, its arrows), its caption saying `after` the move rather than naming it
/// as the move to play.
pub fn after_svg(pos: &Position, done: Option<&Move>, notes: &Annotations) -> String {
    let svg = render::svg(pos, done, notes);
    match done {
        Some(_) => svg.replace("; move ", "; after "),
        None => svg,
    }
}

/// Whether every square `mv` names is on the board (the engine applies only such moves).
fn on_board(pos: &Position, mv: &Move) -> bool {
    let dims = pos.dims();
    mv.steps()
        .all(|s| s.named_squares().iter().all(|&q| dims.contains(q)))
}

/// The position after the steps of `mv` up to `upto` (1 or 2), the mover still to move.
fn after_steps(engine: &Reference, mv: &Move, upto: usize) -> Position {
    let part = if upto == 1 {
        Move::single(mv.first)
    } else {
        *mv
    };
    let mut after = engine.apply(&part).to_position();
    after.to_move = engine.to_position().to_move;
    after
}

/// The boards of a verdict: for a legal move, each step (a capture that removes pieces in two
/// boards: the capture, then the removal); for a move that breaks a connection rule, the move
/// as written with the mover's groups drawn. The board before the move is the answer's `svg`.
pub fn frames(pos: &Position, mv: &Move, verdict: &Verdict) -> Vec<Frame> {
    let Ok(engine) = Reference::from_position(pos) else {
        return Vec::new();
    };
    if !on_board(pos, mv) {
        return Vec::new();
    }
    match verdict {
        Verdict::Legal { .. } => legal_frames(&engine, pos, mv),
        Verdict::Illegal { violations } => {
            let connection = violations.iter().any(|v| {
                ["ORDO-4.3", "ORDO-9.1", "ORDOX-3.2"]
                    .iter()
                    .any(|c| v.clause == *c)
            });
            if connection {
                split_frame(&engine, pos, mv).into_iter().collect()
            } else {
                Vec::new()
            }
        }
    }
}

/// The first board of `mv` (after step 1, then after step 2) where the mover is in several
/// groups, those groups drawn.
fn split_frame(engine: &Reference, pos: &Position, mv: &Move) -> Option<Frame> {
    let me = pos.to_move;
    let count = if mv.second.is_some() { 2 } else { 1 };
    (1..=count).find_map(|k| {
        let after = after_steps(engine, mv, k);
        let gs = groups(&after, me);
        (gs.len() > 1).then(|| {
            let when = if count == 1 {
                "As written".to_string()
            } else {
                format!("After step {k} as written")
            };
            let label = format!("{when}: {me}'s pieces would form {} groups", gs.len());
            frame(
                "as-written",
                label,
                &after,
                (vec![], vec![]),
                group_list("split", &gs),
            )
        })
    })
}

fn legal_frames(engine: &Reference, pos: &Position, mv: &Move) -> Vec<Frame> {
    let me = pos.to_move;
    let steps: Vec<Step> = mv.steps().copied().collect();
    let mut out = Vec::new();
    let mut before = pos.clone();
    for (i, step) in steps.iter().enumerate() {
        let after = after_steps(engine, mv, i + 1);
        let label = if steps.len() == 1 {
            format!("After {}", format_move(&Move::single(*step)))
        } else {
            format!(
                "After step {}: {}",
                i + 1,
                format_move(&Move::single(*step))
            )
        };
        let done = Move::single(*step);
        let after_frame = |groups| {
            let none = (vec![], vec![]);
            marked_frame("after", label, &after, none, groups, Some(&done))
        };
        match capture_frame(&before, &after, step, me, i, steps.len()) {
            Some((capture, kept)) if !capture.removed.is_empty() => {
                out.push(capture);
                out.push(after_frame(kept));
            }
            Some((capture, _)) => out.push(after_frame(capture.groups)),
            None => out.push(after_frame(vec![])),
        }
        before = after;
    }
    out
}

/// The board right after the capture `step` (`before` → `after`), the pieces the removal takes
/// still standing and marked, the opponent's groups drawn by role; and the groups to draw on
/// the board after the removal. `None` when the step captures nothing.
fn capture_frame(
    before: &Position,
    after: &Position,
    step: &Step,
    me: Color,
    index: usize,
    count: usize,
) -> Option<(Frame, Vec<GroupInfo>)> {
    let (from, to) = capture_squares(step)?;
    let them = me.opponent();
    // `before` has the mover to move (after_steps), as groups_after_capture asks.
    let gs = groups_after_capture(before, step)?;
    let mut captured = before.clone();
    captured.set(from, None);
    captured.set(to, Some(me));
    let removed: Vec<Square> = captured
        .pieces(them)
        .into_iter()
        .filter(|&q| after.get(q) != Some(them))
        .collect();
    let roles = opponent_roles(before.variant, &gs, &removed);
    let kept_after: Vec<GroupInfo> = roles
        .iter()
        .filter(|g| g.role != "removed")
        .cloned()
        .collect();
    let step_name = if count == 1 {
        String::new()
    } else {
        format!("Step {}: ", index + 1)
    };
    let what = if removed.is_empty() {
        format!("captures {to}")
    } else {
        format!("captures {to}; {} marked to be removed", removed.len())
    };
    let label = format!("{step_name}{} {what}", format_move(&Move::single(*step)));
    let f = frame("capture", label, &captured, (vec![], removed), roles);
    Some((f, kept_after))
}

/// The squares a capture step leaves and lands on; `None` for a step that is not a singleton
/// written as a capture.
fn capture_squares(step: &Step) -> Option<(Square, Square)> {
    match *step {
        Step::Single {
            from,
            to,
            capture: true,
            ..
        } => Some((from, to)),
        _ => None,
    }
}

/// The opponent's groups right after a capture, by role: `left` in classic Ordo (ORDO-9.3),
/// `kept` or `removed` in Ordo X (ORDOX-4.1, ORDOX-4.2); none when the capture splits nothing.
fn opponent_roles(variant: Variant, gs: &[Vec<Square>], removed: &[Square]) -> Vec<GroupInfo> {
    if gs.len() < 2 {
        return Vec::new();
    }
    if variant == Variant::Classic {
        return group_list("left", gs);
    }
    gs.iter()
        .map(|g| GroupInfo {
            role: if g.iter().any(|q| removed.contains(q)) {
                "removed"
            } else {
                "kept"
            },
            squares: names(g),
        })
        .collect()
}

/// The boards after each choice of a tie the capture `step` leaves (ORDOX-4.2): empty unless
/// the game is Ordo X and the capture leaves several largest groups of the same size.
pub fn tie_choices(pos: &Position, step: &Step) -> Vec<TieChoice> {
    let Some((from, to)) = capture_squares(step) else {
        return Vec::new();
    };
    let tied = tied_squares(pos, step);
    let Ok(engine) = Reference::from_position(pos) else {
        return Vec::new();
    };
    tied.iter()
        .filter_map(|g| {
            let keep: Square = *g.first()?;
            let choice = Step::Single {
                from,
                to,
                capture: true,
                keep: Some(keep),
            };
            let mut after = engine.apply(&Move::single(choice)).to_position();
            after.to_move = pos.to_move;
            let notes = Annotations::default();
            Some(TieChoice {
                keep: keep.to_string(),
                group: names(g),
                step: format_move(&Move::single(choice)),
                after: format_position(&after),
                svg: render::svg(&after, None, &notes),
            })
        })
        .collect()
}

/// The opponent's largest groups after the capture `step`, when more than one has the
/// largest size and the game is Ordo X (ORDOX-4.2): the groups a tie lets the mover choose from.
pub(crate) fn tied_squares(pos: &Position, step: &Step) -> Vec<Vec<Square>> {
    if pos.variant != Variant::X {
        return Vec::new();
    }
    let Some(groups) = groups_after_capture(pos, step) else {
        return Vec::new();
    };
    let largest = groups.iter().map(Vec::len).max().unwrap_or(0);
    let tied: Vec<Vec<Square>> = groups.into_iter().filter(|g| g.len() == largest).collect();
    if tied.len() > 1 {
        tied
    } else {
        Vec::new()
    }
}
