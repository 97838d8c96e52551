//! A whole turn: the classic one-step move (ORDO-3.1), the Ordo X turn structure (ORDOX-3.1,
//! ORDOX-3.3, ORDOX-3.4), and the end of the game (ORDO-10).

use crate::rules::{
    ClauseId, Color, Heading, Move, Position, Square, Status, Step, Variant, WinReason,
};

use super::candidates::candidate_steps;
use super::groups::is_one_group;
use super::step::{check_step, heading_words, Ctx, Role, StepOutcome, StepReport};
use super::Violation;

/// The verdict on a turn, without the game status after it.
#[derive(Clone, Debug, Default)]
pub(crate) struct TurnReport {
    pub violations: Vec<Violation>,
    pub permits: Vec<ClauseId>,
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

    fn permit(&mut self, clause: ClauseId) {
        if !self.permits.contains(&clause) {
            self.permits.push(clause);
        }
    }

    fn violate(&mut self, clause: ClauseId, detail: String) {
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
    let mut t = TurnReport::default();
    match (ctx.variant, &mv.second) {
        (Variant::Classic, _) => check_ordo_3_1_classic_turn(&mut t, pos, mv, &ctx),
        (Variant::X, None) => check_ordox_3_1_one_step_turn(&mut t, pos, mv, &ctx),
        (Variant::X, Some(second)) => {
            check_ordox_3_1_two_step_turn(&mut t, pos, &mv.first, second, &ctx)
        }
    }
    t
}

/// What the turn made of `outs` (its steps' outcomes, in order) does, spelled `canonical`;
/// `next` moves after it.
fn turn_outcome(outs: &[&StepOutcome], canonical: Move, next: Color) -> TurnOutcome {
    let last = outs.last().expect("at least one step");
    let mut result = last.after.clone();
    result.to_move = next;
    TurnOutcome {
        moved: outs.iter().flat_map(|o| o.moved.iter().copied()).collect(),
        captured: outs.iter().filter_map(|o| o.captured).collect(),
        removed: outs
            .iter()
            .flat_map(|o| o.removed.iter().copied())
            .collect(),
        splits_opponent: outs.iter().any(|o| o.splits_opponent),
        result,
        canonical,
    }
}

/// The outcome of a one-step turn whose step report is `r1`, if it could be carried out.
fn one_step_outcome(pos: &Position, mv: &Move, r1: &StepReport) -> Option<TurnOutcome> {
    let o = r1.outcome.as_ref()?;
    let c = mv.first.canonical(pos.dims()).with_keep(o.canonical_keep);
    Some(turn_outcome(&[o], Move::single(c), pos.to_move.opponent()))
}

/// ORDO-3.1: a classic turn is one step.
fn check_ordo_3_1_classic_turn(t: &mut TurnReport, pos: &Position, mv: &Move, ctx: &Ctx) {
    let r1 = check_step(pos, &mv.first, ctx, Role::Classic);
    t.absorb(&r1);
    if let Some(second) = &mv.second {
        t.violate(
            ClauseId::ordo(3, 1),
            format!("a classic Ordo move is a single step; the second step {second} is not allowed (two-step turns, a sideways step followed by a forward one, belong to Ordo X only, ORDOX-3.1)"),
        );
    }
    t.outcome = one_step_outcome(pos, mv, &r1);
}

/// ORDOX-3.1, ORDOX-3.4: an Ordo X turn of one step goes forward or diagonally forward,
/// unless a sideways step takes the opponent's last piece.
fn check_ordox_3_1_one_step_turn(t: &mut TurnReport, pos: &Position, mv: &Move, ctx: &Ctx) {
    let opp = ctx.me.opponent();
    let r1 = check_step(pos, &mv.first, ctx, Role::XOnly);
    t.absorb(&r1);
    let wins_outright = r1.outcome.as_ref().is_some_and(|o| o.after.count(opp) == 0);
    match r1.heading {
        Some(Heading::Forward | Heading::DiagonalForward) => t.permit(ClauseId::ordo_x(3, 1)),
        Some(Heading::Sideways) if wins_outright => {
            t.permit(ClauseId::ordo_x(3, 1));
            t.permit(ClauseId::ordo_x(3, 4));
        }
        Some(Heading::Sideways) => {
            t.violate(
                ClauseId::ordo_x(3, 1),
                format!("{} is a sideways step, which must be followed in the same turn by a forward or diagonally forward step; a one-step turn goes forward or diagonally forward", mv.first),
            );
            check_ordox_3_3_sideways_can_begin_a_turn(t, &mv.first, &r1, ctx);
        }
        // Backward headings are already reported (ORDOX-1.2); no heading, no check.
        _ => {}
    }
    t.outcome = one_step_outcome(pos, mv, &r1);
}

/// ORDOX-3.3: a clean sideways step `first` after which no forward step is legal cannot
/// begin a turn at all.
fn check_ordox_3_3_sideways_can_begin_a_turn(
    t: &mut TurnReport,
    first: &Step,
    r1: &StepReport,
    ctx: &Ctx,
) {
    if let (true, Some(o)) = (r1.is_clean(), &r1.outcome) {
        if !forward_follow_up_exists(&o.after, ctx) {
            t.violate(
                ClauseId::ordo_x(3, 3),
                format!("after {first} no forward step is legal for {}, so this sideways step cannot begin a turn at all", ctx.me),
            );
        }
    }
}

/// ORDOX-3.1, ORDOX-3.4: a two-step Ordo X turn is a sideways step, then a forward one, and
/// has no second step when the first takes the opponent's last piece.
fn check_ordox_3_1_two_step_turn(
    t: &mut TurnReport,
    pos: &Position,
    first: &Step,
    second: &Step,
    ctx: &Ctx,
) {
    let opp = ctx.me.opponent();
    let r1 = check_step(pos, first, ctx, Role::XFirst);
    t.absorb(&r1);
    check_ordox_3_1_first_step_sideways(t, first, r1.heading);
    let Some(o1) = &r1.outcome else {
        // The first step cannot be carried out, so the board the second step is
        // described on does not exist. Its direction can still be judged.
        check_ordox_3_1_second_step_not_sideways(t, second, step_heading(second, ctx.me));
        return;
    };
    if o1.after.count(opp) == 0 {
        t.violate(
            ClauseId::ordo_x(3, 4),
            format!("the first step {first} takes {opp}'s last piece and ends the game at once (ORDO-10.2); the turn consists of that step alone, so the second step {second} may not be made"),
        );
        return;
    }
    let ctx2 = Ctx {
        split_at_start: false,
        ..*ctx
    };
    let r2 = check_step(&o1.after, second, &ctx2, Role::XSecond);
    t.absorb(&r2);
    check_ordox_3_1_second_step_not_sideways(t, second, r2.heading);
    if let Some(o2) = &r2.outcome {
        let dims = pos.dims();
        let c = Move::double(
            first.canonical(dims).with_keep(o1.canonical_keep),
            second.canonical(dims).with_keep(o2.canonical_keep),
        );
        t.outcome = Some(turn_outcome(&[o1, o2], c, opp));
    }
}

/// ORDOX-3.1: the first step of a two-step turn goes sideways.
fn check_ordox_3_1_first_step_sideways(t: &mut TurnReport, first: &Step, h: Option<Heading>) {
    match h {
        Some(Heading::Sideways) => t.permit(ClauseId::ordo_x(3, 1)),
        Some(h @ (Heading::Forward | Heading::DiagonalForward)) => t.violate(
            ClauseId::ordo_x(3, 1),
            format!("the first step {first} goes {}, but a forward step never begins a two-step turn: a two-step turn is a sideways step followed by a forward one", heading_words(h)),
        ),
        _ => {}
    }
}

/// ORDOX-3.1: the second step of a turn never goes sideways.
fn check_ordox_3_1_second_step_not_sideways(t: &mut TurnReport, second: &Step, h: Option<Heading>) {
    if h == Some(Heading::Sideways) {
        t.violate(
            ClauseId::ordo_x(3, 1),
            format!("the second step {second} goes sideways, but a turn never has two sideways steps: the second step goes forward or diagonally forward"),
        );
    }
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
