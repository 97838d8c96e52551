//! A whole turn: the classic one-step move (ORDO-3.1), the Ordo X turn structure (ORDOX-3.1,
//! ORDOX-3.3, ORDOX-3.4), and the end of the game (ORDO-10).

use crate::rules::{Color, Heading, Move, Position, Square, Status, Step, Variant, WinReason};

use super::candidates::candidate_steps;
use super::groups::is_one_group;
use super::step::{check_step, heading_words, Ctx, Role, StepOutcome, StepReport};
use super::Violation;

/// The verdict on a turn, without the game status after it.
#[derive(Clone, Debug, Default)]
pub(crate) struct TurnReport {
    pub violations: Vec<Violation>,
    pub permits: Vec<&'static str>,
    /// What the turn does, when it could be carried out (meaningful when there is no violation).
    pub outcome: Option<TurnOutcome>,
}

#[derive(Clone, Debug)]
pub(crate) struct TurnOutcome {
    pub moved: Vec<(Square, Square)>,
    pub captured: Vec<Square>,
    pub removed: Vec<Square>,
    pub splits_opponent: bool,
    /// The position after the turn, the other side to move.
    pub result: Position,
    /// The move in canonical spelling (ordo ends ordered, a tie named by the kept group's lowest
    /// square).
    pub canonical: Move,
}

impl TurnReport {
    fn absorb(&mut self, step: &StepReport) {
        self.violations.extend(step.violations.iter().cloned());
        for &p in &step.permits {
            self.permit(p);
        }
    }

    fn permit(&mut self, clause: &'static str) {
        if !self.permits.contains(&clause) {
            self.permits.push(clause);
        }
    }

    fn violate(&mut self, clause: &'static str, detail: String) {
        self.violations.push(Violation { clause, detail });
    }
}

/// ORDO-10.1, ORDO-10.2 (judged as ORDO-10.5 says): the win of the player who has just moved
/// (the one not to move in `pos`): a piece on the home row of the side to move (reported first),
/// or the side to move without pieces. With the square on the home row, if any.
pub(crate) fn decided(pos: &Position) -> Option<(Status, Option<Square>)> {
    let me = pos.to_move;
    let last = me.opponent();
    let home = me.home_row(pos.dims());
    if let Some(sq) = pos.pieces(last).into_iter().find(|s| s.row == home) {
        return Some((
            Status::Won {
                winner: last,
                reason: WinReason::HomeRow,
            },
            Some(sq),
        ));
    }
    if pos.count(me) == 0 {
        return Some((
            Status::Won {
                winner: last,
                reason: WinReason::NoPieces,
            },
            None,
        ));
    }
    None
}

fn is_forward(h: Option<Heading>) -> bool {
    matches!(h, Some(Heading::Forward | Heading::DiagonalForward))
}

fn step_heading(step: &Step, me: Color) -> Option<Heading> {
    step.direction().map(|(d, _)| d.heading(me))
}

/// Judge a whole turn of the side to move in `pos` (the game-over check of ORDO-10.5 aside).
pub(crate) fn check_turn(pos: &Position, mv: &Move) -> TurnReport {
    let ctx = Ctx::of(pos);
    let me = ctx.me;
    let opp = me.opponent();
    let dims = pos.dims();
    let mut t = TurnReport::default();
    let finish = |t: &mut TurnReport, outs: &[&StepOutcome], canonical: Move| {
        let last = outs.last().expect("at least one step");
        let mut result = last.after.clone();
        result.to_move = opp;
        t.outcome = Some(TurnOutcome {
            moved: outs.iter().flat_map(|o| o.moved.iter().copied()).collect(),
            captured: outs.iter().filter_map(|o| o.captured).collect(),
            removed: outs
                .iter()
                .flat_map(|o| o.removed.iter().copied())
                .collect(),
            splits_opponent: outs.iter().any(|o| o.splits_opponent),
            result,
            canonical,
        });
    };
    match ctx.variant {
        Variant::Classic => {
            let r1 = check_step(pos, &mv.first, &ctx, Role::Classic);
            t.absorb(&r1);
            if let Some(second) = &mv.second {
                t.violate(
                    "ORDO-3.1",
                    format!("a classic Ordo move is a single step; the second step {second} is not allowed (two-step turns, a sideways step followed by a forward one, belong to Ordo X only, ORDOX-3.1)"),
                );
            }
            if let Some(o) = &r1.outcome {
                let c = mv.first.canonical(dims).with_keep(o.canonical_keep);
                finish(&mut t, &[o], Move::single(c));
            }
        }
        Variant::X => match &mv.second {
            None => {
                let r1 = check_step(pos, &mv.first, &ctx, Role::XOnly);
                t.absorb(&r1);
                let wins_outright = r1.outcome.as_ref().is_some_and(|o| o.after.count(opp) == 0);
                match r1.heading {
                    Some(Heading::Forward | Heading::DiagonalForward) => t.permit("ORDOX-3.1"),
                    Some(Heading::Sideways) if wins_outright => {
                        t.permit("ORDOX-3.1");
                        t.permit("ORDOX-3.4");
                    }
                    Some(Heading::Sideways) => {
                        t.violate(
                            "ORDOX-3.1",
                            format!("{} is a sideways step, which must be followed in the same turn by a forward or diagonally forward step; a one-step turn goes forward or diagonally forward", mv.first),
                        );
                        if let (true, Some(o)) = (r1.is_clean(), &r1.outcome) {
                            if !forward_follow_up_exists(&o.after, &ctx) {
                                t.violate(
                                    "ORDOX-3.3",
                                    format!("after {} no forward step is legal for {me}, so this sideways step cannot begin a turn at all", mv.first),
                                );
                            }
                        }
                    }
                    // Backward headings are already reported (ORDOX-1.2); no heading, no check.
                    _ => {}
                }
                if let Some(o) = &r1.outcome {
                    let c = mv.first.canonical(dims).with_keep(o.canonical_keep);
                    finish(&mut t, &[o], Move::single(c));
                }
            }
            Some(second) => {
                let r1 = check_step(pos, &mv.first, &ctx, Role::XFirst);
                t.absorb(&r1);
                match r1.heading {
                    Some(Heading::Sideways) => t.permit("ORDOX-3.1"),
                    Some(h @ (Heading::Forward | Heading::DiagonalForward)) => t.violate(
                        "ORDOX-3.1",
                        format!("the first step {} goes {}, but a forward step never begins a two-step turn: a two-step turn is a sideways step followed by a forward one", mv.first, heading_words(h)),
                    ),
                    _ => {}
                }
                let Some(o1) = &r1.outcome else {
                    // The first step cannot be carried out, so the board the second step is
                    // described on does not exist. Its direction can still be judged.
                    if step_heading(second, me) == Some(Heading::Sideways) {
                        t.violate(
                            "ORDOX-3.1",
                            format!("the second step {second} goes sideways, but a turn never has two sideways steps: the second step goes forward or diagonally forward"),
                        );
                    }
                    return t;
                };
                if o1.after.count(opp) == 0 {
                    t.violate(
                        "ORDOX-3.4",
                        format!("the first step {} takes {opp}'s last piece and ends the game at once (ORDO-10.2); the turn consists of that step alone, so the second step {second} may not be made", mv.first),
                    );
                    return t;
                }
                let ctx2 = Ctx {
                    split_at_start: false,
                    ..ctx
                };
                let r2 = check_step(&o1.after, second, &ctx2, Role::XSecond);
                t.absorb(&r2);
                if r2.heading == Some(Heading::Sideways) {
                    t.violate(
                        "ORDOX-3.1",
                        format!("the second step {second} goes sideways, but a turn never has two sideways steps: the second step goes forward or diagonally forward"),
                    );
                }
                if let Some(o2) = &r2.outcome {
                    let c = Move::double(
                        mv.first.canonical(dims).with_keep(o1.canonical_keep),
                        second.canonical(dims).with_keep(o2.canonical_keep),
                    );
                    finish(&mut t, &[o1, o2], c);
                }
            }
        },
    }
    t
}

/// ORDOX-3.3: whether some forward step (ORDOX-3.1) is legal for `ctx.me` in `after`, the
/// position after a sideways step.
pub(crate) fn forward_follow_up_exists(after: &Position, ctx: &Ctx) -> bool {
    let ctx2 = Ctx {
        split_at_start: false,
        ..*ctx
    };
    candidate_steps(after)
        .iter()
        .filter(|s| is_forward(step_heading(s, ctx.me)))
        .any(|s| check_step(after, s, &ctx2, Role::XSecond).is_clean())
}

/// Whether the side to move in `pos` has at least one legal move (ORDO-3.2); `pos` must not be
/// decided already. Stops at the first legal move found, trying one-step moves first.
pub(crate) fn has_legal_move(pos: &Position) -> bool {
    let ctx = Ctx::of(pos);
    let me = ctx.me;
    // A quick first pass: one-square singleton steps forward and diagonally forward, which are
    // legal one-step moves in both games whenever they keep the mover one group. In practice
    // one of them nearly always is (see the observation under ORDO-10.4).
    let role = match ctx.variant {
        Variant::Classic => Role::Classic,
        Variant::X => Role::XOnly,
    };
    let dims = pos.dims();
    for from in pos.pieces(me) {
        for dc in [0i8, -1, 1] {
            let Some(to) = dims.offset(from, dc, me.forward()) else {
                continue;
            };
            let step = Step::Single {
                from,
                to,
                capture: pos.get(to) == Some(me.opponent()),
                keep: None,
            };
            if check_step(pos, &step, &ctx, role).is_clean() {
                return true;
            }
        }
    }
    let steps = candidate_steps(pos);
    match ctx.variant {
        Variant::Classic => steps
            .iter()
            .any(|s| check_step(pos, s, &ctx, Role::Classic).is_clean()),
        Variant::X => {
            steps
                .iter()
                .filter(|s| is_forward(step_heading(s, me)))
                .any(|s| check_step(pos, s, &ctx, Role::XOnly).is_clean())
                || steps
                    .iter()
                    .filter(|s| step_heading(s, me) == Some(Heading::Sideways))
                    .any(|s| {
                        let r = check_step(pos, s, &ctx, Role::XFirst);
                        match (&r.outcome, r.is_clean()) {
                            (Some(o), true) => {
                                o.after.count(me.opponent()) == 0
                                    || forward_follow_up_exists(&o.after, &ctx)
                            }
                            _ => false,
                        }
                    })
        }
    }
}

/// The status of `pos` (ORDO-10.1 to ORDO-10.5): a win of the player who has just moved, or else
/// ongoing if the side to move has a legal move, or else a loss of the side to move: ORDO-10.4
/// when it is one group, ORDO-10.3 when it is split.
pub(crate) fn status_of(pos: &Position) -> Status {
    if let Some((s, _)) = decided(pos) {
        return s;
    }
    if has_legal_move(pos) {
        return Status::Ongoing;
    }
    let me = pos.to_move;
    Status::Won {
        winner: me.opponent(),
        reason: if is_one_group(pos, me) {
            WinReason::NoLegalMove
        } else {
            WinReason::CannotReconnect
        },
    }
}
