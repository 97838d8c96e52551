//! One step, clause by clause: squares on the board (ORDO-1.5), the pieces that move (ORDO-5.1,
//! ORDO-6.1), the displacement (ORDO-1.4, ORDO-6.1, ORDO-7.1), the direction (ORDO-8, ORDO-9.2,
//! ORDOX-1.2, ORDOX-2), the path (ORDO-6.3, ORDO-6.4, ORDO-7.2, ORDO-7.3, ORDOX-2.3), the
//! removal after a capture (ORDOX-4.1, ORDOX-4.2, ORDO-9.3) and the connection rule (ORDO-4.3,
//! ORDO-9.1, ORDOX-3.2).

use crate::rules::{ClauseId, Color, Direction, Heading, Position, Square, Step, Variant};
use ordo_core::text::count;

use super::groups::groups;
use super::Violation;

/// What a step is judged against: the game, the mover, and whether the mover started the turn
/// split (classic backward moves, ORDO-9.2).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Ctx {
    pub variant: Variant,
    pub me: Color,
    pub split_at_start: bool,
}

impl Ctx {
    /// The context of a turn that starts in `pos`.
    pub fn of(pos: &Position) -> Ctx {
        Ctx {
            variant: pos.variant,
            me: pos.to_move,
            split_at_start: groups(pos, pos.to_move).len() > 1,
        }
    }
}

/// Which step of which kind of turn is being judged (for the wording, and for the connection
/// clause that applies).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Role {
    /// The one step of a classic move.
    Classic,
    /// The only step of an Ordo X turn.
    XOnly,
    /// The first step of a two-step Ordo X turn.
    XFirst,
    /// The second step of a two-step Ordo X turn.
    XSecond,
}

impl Role {
    fn prefix(self) -> &'static str {
        match self {
            Role::Classic | Role::XOnly => "",
            Role::XFirst => "first step: ",
            Role::XSecond => "second step: ",
        }
    }

    fn after_what(self) -> &'static str {
        match self {
            Role::Classic | Role::XOnly => "after the move",
            Role::XFirst => "after the first step",
            Role::XSecond => "after the second step",
        }
    }
}

/// What a step does, when its geometry lets it be carried out at all (whatever else it breaks).
#[derive(Clone, Debug)]
pub(crate) struct StepOutcome {
    /// The position after the step (same side to move).
    pub after: Position,
    pub moved: Vec<(Square, Square)>,
    pub captured: Option<Square>,
    pub removed: Vec<Square>,
    pub splits_opponent: bool,
    /// The kept group's lowest square, when a tie was resolved (ORDOX-4.2).
    pub canonical_keep: Option<Square>,
}

/// The verdict on one step.
#[derive(Clone, Debug, Default)]
pub(crate) struct StepReport {
    pub violations: Vec<Violation>,
    pub permits: Vec<ClauseId>,
    /// The step's heading for the mover, when its displacement is a straight line.
    pub heading: Option<Heading>,
    pub outcome: Option<StepOutcome>,
}

impl StepReport {
    fn violate(&mut self, clause: ClauseId, detail: String) {
        self.violations.push(Violation { clause, detail });
    }

    fn permit(&mut self, clause: ClauseId) {
        if !self.permits.contains(&clause) {
            self.permits.push(clause);
        }
    }

    /// Whether the step breaks no clause.
    pub fn is_clean(&self) -> bool {
        self.violations.is_empty()
    }
}

/// Orientation of an ordo's line (ORDO-5.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Orientation {
    Horizontal,
    Vertical,
}

/// A heading in words.
pub(crate) fn heading_words(h: Heading) -> &'static str {
    match h {
        Heading::Forward => "forward",
        Heading::DiagonalForward => "diagonally forward",
        Heading::Sideways => "sideways",
        Heading::Backward => "backward",
        Heading::DiagonalBackward => "diagonally backward",
    }
}

/// Squares as text: `a1 b2 c3`.
pub(crate) fn squares_text(sqs: &[Square]) -> String {
    sqs.iter()
        .map(Square::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

/// Groups as text: `{a1 a2}, {e5}`.
pub(crate) fn groups_text(gs: &[Vec<Square>]) -> String {
    gs.iter()
        .map(|g| format!("{{{}}}", squares_text(g)))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Occupied squares as text: `e3 (White), e4 (Black)`.
fn occupied_text(sqs: &[(Square, Color)]) -> String {
    sqs.iter()
        .map(|(s, c)| format!("{s} ({c})"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Judge one step of the side `ctx.me` in `pos`, collecting every clause it breaks. Checks that
/// the step makes meaningless (squares off the board, no line of pieces, no direction) are
/// skipped; all others are made. Each clause group is one method of [`Judge`], in the order
/// the spec states them.
pub(crate) fn check_step(pos: &Position, step: &Step, ctx: &Ctx, role: Role) -> StepReport {
    let mut judge = Judge {
        pos,
        step,
        ctx,
        role,
        pre: role.prefix(),
        r: StepReport::default(),
    };
    judge.judge();
    judge.r
}

/// One step being judged, and the report so far.
struct Judge<'a> {
    pos: &'a Position,
    step: &'a Step,
    ctx: &'a Ctx,
    role: Role,
    /// `first step: ` and the like, before every detail.
    pre: &'static str,
    r: StepReport,
}

/// The kept-group square a step names, and that square again when it lies off the board.
#[derive(Clone, Copy)]
struct Keep {
    named: Option<Square>,
    off: Option<Square>,
}

/// The pieces a step moves: one square, or an ordo's run with its orientation; `ok` when they
/// are all the mover's.
struct Pieces {
    run: Vec<Square>,
    orientation: Option<Orientation>,
    ok: bool,
}

/// What an ordo's path meets (ORDO-1.5, ORDO-7.2, ORDO-7.3).
#[derive(Default)]
struct OrdoPath {
    landings: Vec<(Square, Square)>,
    off_pieces: Vec<Square>,
    land_opp: Vec<Square>,
    land_own: Vec<Square>,
    passed: Vec<(Square, Color)>,
}

/// The removal after a capture (ORDOX-4.1, ORDOX-4.2, ORDO-9.3).
#[derive(Default)]
struct Removal {
    removed: Vec<Square>,
    splits_opponent: bool,
    canonical_keep: Option<Square>,
}

impl Judge<'_> {
    /// Every clause group in turn, stopping where the step no longer describes a move.
    fn judge(&mut self) {
        let Some(keep) = self.squares_on_board() else {
            return;
        };
        let Some(pieces) = self.pieces_that_move() else {
            return;
        };
        if !pieces.ok && !self.step.is_ordo() {
            self.straight_line_only();
            return;
        }
        let Some((dir, dist)) = self.displacement() else {
            return;
        };
        let single_file = match pieces.orientation {
            Some(Orientation::Horizontal) => dir.dr == 0,
            Some(Orientation::Vertical) => dir.dc == 0,
            None => false,
        };
        self.direction(dir, pieces.orientation, single_file);
        if !pieces.ok {
            return;
        }
        let (landings, captured) = match *self.step {
            Step::Single { .. } => self.singleton_path(dir, dist),
            Step::Ordo { .. } => (self.ordo_path(&pieces.run, dir, dist, single_file), None),
        };
        if landings.is_empty() {
            // Pieces would leave the board or two pieces would share a square: nothing to
            // apply, and the later checks (removal, connection) have no position to look at.
            self.keep_without_capture(keep);
            return;
        }
        self.finish(landings, captured, keep);
    }

    /// Carry the step out, then the removal and the connection rule on the result.
    fn finish(&mut self, landings: Vec<(Square, Square)>, captured: Option<Square>, keep: Keep) {
        // Captured pieces are replaced.
        let mut after = self.pos.clone();
        for &(f, _) in &landings {
            after.set(f, None);
        }
        for &(_, t) in &landings {
            after.set(t, Some(self.ctx.me));
        }
        let removal = if captured.is_some() {
            self.removal_after_capture(&mut after, keep)
        } else {
            self.keep_without_capture(keep);
            Removal::default()
        };
        self.connection_rule(&after);
        self.r.outcome = Some(StepOutcome {
            after,
            moved: landings,
            captured,
            removed: removal.removed,
            splits_opponent: removal.splits_opponent,
            canonical_keep: removal.canonical_keep,
        });
    }

    /// ORDO-1.5: every square the step names lies on the board. `None` when a square of the
    /// move itself lies off it (nothing else can be judged).
    fn squares_on_board(&mut self) -> Option<Keep> {
        let (dims, step, pre) = (self.pos.dims(), self.step, self.pre);
        let (core, named): (Vec<Square>, Option<Square>) = match *step {
            Step::Single { from, to, keep, .. } => (vec![from, to], keep),
            Step::Ordo { first, last, to } => (vec![first, last, to], None),
        };
        let mut off: Vec<Square> = core
            .iter()
            .copied()
            .filter(|&q| !dims.contains(q))
            .collect();
        off.dedup();
        let keep_off = named.filter(|&k| !dims.contains(k));
        if !off.is_empty() || keep_off.is_some() {
            let mut listed = off.clone();
            listed.extend(keep_off);
            self.r.violate(
                ClauseId::ordo(1, 5),
                format!(
                    "{pre}{step} names {} off the {dims} board {}, which has columns a to {} and rows 1 to {}",
                    if listed.len() == 1 { "a square" } else { "squares" },
                    squares_text(&listed),
                    (b'a' + dims.cols - 1) as char,
                    dims.rows
                ),
            );
        }
        off.is_empty().then_some(Keep {
            named,
            off: keep_off,
        })
    }

    /// The pieces that move: a piece of the mover (ORDO-6.1), or a line of two or more of the
    /// mover's pieces on one row or column (ORDO-5.1). `None` when the ends name no line.
    fn pieces_that_move(&mut self) -> Option<Pieces> {
        match *self.step {
            Step::Single { from, .. } => Some(Pieces {
                run: vec![from],
                orientation: None,
                ok: self.singleton_is_the_movers(from),
            }),
            Step::Ordo { first, last, .. } => self.ordo_is_a_line(first, last),
        }
    }

    /// ORDO-6.1: a singleton step starts on one of the mover's pieces.
    fn singleton_is_the_movers(&mut self, from: Square) -> bool {
        let (me, pre) = (self.ctx.me, self.pre);
        match self.pos.get(from) {
            Some(c) if c == me => true,
            None => {
                self.r.violate(
                    ClauseId::ordo(6, 1),
                    format!("{pre}there is no piece on {from} to move"),
                );
                false
            }
            Some(c) => {
                self.r.violate(
                    ClauseId::ordo(6, 1),
                    format!("{pre}the piece on {from} is {c}'s; {me} moves only {me}'s own pieces"),
                );
                false
            }
        }
    }

    /// ORDO-5.1: an ordo's ends lie on one row or column, two or more squares apart, and every
    /// square between them holds one of the mover's pieces.
    fn ordo_is_a_line(&mut self, first: Square, last: Square) -> Option<Pieces> {
        let pre = self.pre;
        if first == last {
            self.r.violate(
                ClauseId::ordo(5, 1),
                format!("{pre}{first}:{last} names a single square; an ordo is a line of two or more pieces"),
            );
            return None;
        }
        if first.row != last.row && first.col != last.col {
            let why = if first.row.abs_diff(last.row) == first.col.abs_diff(last.col) {
                "lie on a diagonal, and pieces in a diagonal line never form an ordo"
            } else {
                "are neither on one row nor on one column"
            };
            self.r.violate(
                ClauseId::ordo(5, 1),
                format!("{pre}the ordo ends {first} and {last} {why}"),
            );
            return None;
        }
        let run = self
            .step
            .moved_squares()
            .expect("ends on one row or column");
        let ok = self.run_is_unbroken(&run, first, last);
        let orientation = if first.row == last.row {
            Orientation::Horizontal
        } else {
            Orientation::Vertical
        };
        Some(Pieces {
            run,
            orientation: Some(orientation),
            ok,
        })
    }

    /// ORDO-5.1: no square of the run is empty or the opponent's.
    fn run_is_unbroken(&mut self, run: &[Square], first: Square, last: Square) -> bool {
        let (me, opp, pre) = (self.ctx.me, self.ctx.me.opponent(), self.pre);
        let holding = |want: Option<Color>| -> Vec<Square> {
            run.iter()
                .copied()
                .filter(|&s| self.pos.get(s) == want)
                .collect()
        };
        let (empty, foreign) = (holding(None), holding(Some(opp)));
        if empty.is_empty() && foreign.is_empty() {
            return true;
        }
        let is_are = |v: &[Square]| if v.len() == 1 { "is" } else { "are" };
        let mut parts = Vec::new();
        if !empty.is_empty() {
            parts.push(format!("{} {} empty", squares_text(&empty), is_are(&empty)));
        }
        if !foreign.is_empty() {
            parts.push(format!(
                "{} {} {opp}'s",
                squares_text(&foreign),
                is_are(&foreign)
            ));
        }
        self.r.violate(
            ClauseId::ordo(5, 1),
            format!(
                "{pre}the run {first}..{last} is not an unbroken line of {me}'s pieces: {}",
                parts.join("; ")
            ),
        );
        false
    }

    /// ORDO-1.4 for a step that starts on no piece of the mover: it describes no move of the
    /// mover, so its direction and path are not judged, but a crooked line still is.
    fn straight_line_only(&mut self) {
        if self.step.direction().is_none() {
            let (dc, dr) = self.step.displacement();
            if (dc, dr) != (0, 0) {
                self.r
                    .violate(ClauseId::ordo(1, 4), self.crooked_detail(dc, dr));
            }
        }
    }

    fn crooked_detail(&self, dc: i16, dr: i16) -> String {
        format!(
            "{}{} goes {} and {}, which is neither along a row, a column nor a diagonal",
            self.pre,
            self.step,
            ordo_core::text::count(dc.abs(), "column"),
            ordo_core::text::count(dr.abs(), "row")
        )
    }

    /// "a singleton" or "an ordo".
    fn what(&self) -> &'static str {
        if self.step.is_ordo() {
            "an ordo"
        } else {
            "a singleton"
        }
    }

    /// The displacement: one or more squares (ORDO-6.1, ORDO-7.1) along one of the eight
    /// directions (ORDO-1.4). Records the heading; `None` when there is no direction.
    fn displacement(&mut self) -> Option<(Direction, u8)> {
        let (step, pre, what) = (self.step, self.pre, self.what());
        let move_clause = if step.is_ordo() {
            ClauseId::ordo(7, 1)
        } else {
            ClauseId::ordo(6, 1)
        };
        let (dc, dr) = step.displacement();
        let Some((dir, dist)) = step.direction() else {
            if (dc, dr) == (0, 0) {
                self.r.violate(
                    move_clause,
                    format!("{pre}{step} does not move: {what} moves one or more squares"),
                );
            } else {
                self.r
                    .violate(ClauseId::ordo(1, 4), self.crooked_detail(dc, dr));
                self.r.violate(
                    move_clause,
                    format!("{pre}{what} moves in a straight line, and {step} does not"),
                );
            }
            return None;
        };
        self.r.heading = Some(dir.heading(self.ctx.me));
        if step.is_ordo() {
            self.r.permit(ClauseId::ordo(5, 1));
            self.r.permit(ClauseId::ordo(7, 1));
        } else {
            self.r.permit(ClauseId::ordo(6, 1));
        }
        Some((dir, dist))
    }

    /// The direction (ORDO-8.1, ORDO-8.2, ORDO-9.2; ORDOX-1.2, ORDOX-2.1, ORDOX-2.2).
    fn direction(&mut self, dir: Direction, orientation: Option<Orientation>, single_file: bool) {
        let heading = dir.heading(self.ctx.me);
        match (self.ctx.variant, orientation) {
            (Variant::Classic, None) => self.classic_singleton_direction(heading),
            (Variant::Classic, Some(o)) => {
                self.classic_ordo_direction(dir, heading, o, single_file)
            }
            (Variant::X, o) => self.x_direction(heading, o.is_some(), single_file),
        }
    }

    /// ORDO-8.1, ORDO-9.2: a classic singleton moves forward, diagonally forward or sideways,
    /// and backward too in a turn its side starts split.
    fn classic_singleton_direction(&mut self, heading: Heading) {
        let (me, pre, step) = (self.ctx.me, self.pre, self.step);
        let hw = heading_words(heading);
        match heading {
            Heading::Forward | Heading::DiagonalForward | Heading::Sideways => {
                self.r.permit(ClauseId::ordo(8, 1))
            }
            Heading::Backward | Heading::DiagonalBackward if self.ctx.split_at_start => {
                self.r.permit(ClauseId::ordo(9, 2))
            }
            Heading::Backward | Heading::DiagonalBackward => {
                self.r.violate(
                    ClauseId::ordo(8, 1),
                    format!("{pre}{step} moves the singleton {hw}; in classic Ordo a singleton moves only forward, diagonally forward or sideways"),
                );
                self.r.violate(
                    ClauseId::ordo(9, 2),
                    format!("{pre}backward moves are allowed only in a turn {me} starts split, and {me}'s pieces form one group"),
                );
            }
        }
    }

    /// ORDO-8.2, ORDO-9.2: a classic ordo moves orthogonally and side by side: a horizontal
    /// one forward (and backward in a turn its side starts split), a vertical one sideways.
    fn classic_ordo_direction(
        &mut self,
        dir: Direction,
        heading: Heading,
        o: Orientation,
        single_file: bool,
    ) {
        let (pre, step) = (self.pre, self.step);
        let hw = heading_words(heading);
        let split_note = if self.ctx.split_at_start {
            " (ORDO-9.2 adds only the orthogonal backward move of a horizontal ordo)"
        } else {
            ""
        };
        if !dir.is_orthogonal() {
            self.r.violate(
                ClauseId::ordo(8, 2),
                format!("{pre}{step} moves the ordo {hw}; in classic Ordo an ordo never moves diagonally{split_note}"),
            );
        } else if single_file {
            let rule = match o {
                Orientation::Horizontal => "a horizontal ordo moves only forward",
                Orientation::Vertical => "a vertical ordo moves only sideways",
            };
            self.r.violate(
                ClauseId::ordo(8, 2),
                format!("{pre}{step} moves the ordo {hw} along its own line, in single file, which classic Ordo forbids: {rule}{split_note}"),
            );
        } else if heading == Heading::Backward {
            self.horizontal_ordo_backward();
        } else {
            self.r.permit(ClauseId::ordo(8, 2));
        }
    }

    /// ORDO-9.2: a horizontal ordo going backward, side by side, only in a turn its side
    /// starts split.
    fn horizontal_ordo_backward(&mut self) {
        let (me, pre, step) = (self.ctx.me, self.pre, self.step);
        if self.ctx.split_at_start {
            self.r.permit(ClauseId::ordo(9, 2));
            return;
        }
        self.r.violate(
            ClauseId::ordo(8, 2),
            format!("{pre}{step} moves the horizontal ordo backward; a horizontal ordo moves only forward"),
        );
        self.r.violate(
            ClauseId::ordo(9, 2),
            format!("{pre}a horizontal ordo may move backward only in a turn {me} starts split, and {me}'s pieces form one group"),
        );
    }

    /// ORDOX-1.2, ORDOX-2.1, ORDOX-2.2 (ORDOX-2.3 in single file): in Ordo X nothing moves
    /// backward, split or not.
    fn x_direction(&mut self, heading: Heading, is_ordo: bool, single_file: bool) {
        let (pre, step, what) = (self.pre, self.step, self.what());
        let hw = heading_words(heading);
        let dir_clause = if is_ordo {
            ClauseId::ordo_x(2, 2)
        } else {
            ClauseId::ordo_x(2, 1)
        };
        if matches!(heading, Heading::Backward | Heading::DiagonalBackward) {
            let split_note = if self.ctx.split_at_start {
                ", not even in a turn the player starts split"
            } else {
                ""
            };
            self.r.violate(
                ClauseId::ordo_x(1, 2),
                format!("{pre}{step} moves {hw}; in Ordo X no piece or ordo ever moves backward{split_note}"),
            );
            self.r.violate(
                dir_clause,
                format!(
                    "{pre}in Ordo X {what} moves forward, diagonally forward or sideways, not {hw}"
                ),
            );
            return;
        }
        self.r.permit(dir_clause);
        if single_file {
            self.r.permit(ClauseId::ordo_x(2, 3));
        }
    }

    /// The square `k` squares from `sq` along `dir`, if on the board.
    fn at(&self, sq: Square, dir: Direction, k: u8) -> Option<Square> {
        self.pos
            .dims()
            .offset(sq, dir.dc * k as i8, dir.dr * k as i8)
    }

    /// ORDO-6.3, ORDO-6.4: a singleton passes over no piece, never lands on its own side's
    /// piece, and captures (written `x`) exactly when it lands on the opponent's. Returns the
    /// landing and the captured square.
    fn singleton_path(
        &mut self,
        dir: Direction,
        dist: u8,
    ) -> (Vec<(Square, Square)>, Option<Square>) {
        let Step::Single {
            from, to, capture, ..
        } = *self.step
        else {
            unreachable!("singleton_path is called for singleton steps")
        };
        let (me, opp) = (self.ctx.me, self.ctx.me.opponent());
        let passed: Vec<(Square, Color)> = (1..dist)
            .filter_map(|k| self.at(from, dir, k))
            .filter_map(|s| self.pos.get(s).map(|c| (s, c)))
            .collect();
        let landing = self.pos.get(to);
        self.singleton_passes_over_nothing(&passed, landing == Some(me), to);
        self.capture_is_written(from, to, landing, capture);
        let captured = (landing == Some(opp)).then_some(to);
        let landings = if landing != Some(me) {
            vec![(from, to)]
        } else {
            Vec::new()
        };
        (landings, captured)
    }

    /// ORDO-6.3: nothing passed over, no own piece landed on.
    fn singleton_passes_over_nothing(
        &mut self,
        passed: &[(Square, Color)],
        lands_on_own: bool,
        to: Square,
    ) {
        if passed.is_empty() && !lands_on_own {
            return;
        }
        let (me, pre, step) = (self.ctx.me, self.pre, self.step);
        let mut parts = Vec::new();
        if !passed.is_empty() {
            parts.push(format!(
                "it would pass over {}, but a singleton never passes over a piece",
                occupied_text(passed)
            ));
        }
        if lands_on_own {
            parts.push(format!("it would land on {me}'s own piece on {to}"));
        }
        self.r.violate(
            ClauseId::ordo(6, 3),
            format!("{pre}{step}: {}", parts.join("; ")),
        );
    }

    /// ORDO-6.4: a move onto an opponent's piece captures it and is written with `x`; a move
    /// written with `x` lands on an opponent's piece.
    fn capture_is_written(
        &mut self,
        from: Square,
        to: Square,
        landing: Option<Color>,
        capture: bool,
    ) {
        let (opp, pre) = (self.ctx.me.opponent(), self.pre);
        match (landing, capture) {
            (Some(c), false) if c == opp => self.r.violate(
                ClauseId::ordo(6, 4),
                format!("{pre}{to} holds a {opp} piece, so moving there captures it and is written {from}x{to}; '{from}-{to}' (written with '-') denotes no legal move"),
            ),
            (None, true) => self.r.violate(
                ClauseId::ordo(6, 4),
                format!("{pre}{from}x{to} is written as a capture, but {to} is empty: there is nothing to capture (a move to an empty square is written {from}-{to})"),
            ),
            (Some(c), true) if c == opp => self.r.permit(ClauseId::ordo(6, 4)),
            _ => {}
        }
    }

    /// ORDO-5.2, ORDO-1.5, ORDO-7.2, ORDO-7.3 for an ordo's path; returns the landings, empty
    /// when a piece would leave the board or land on one of its own side.
    fn ordo_path(
        &mut self,
        run: &[Square],
        dir: Direction,
        dist: u8,
        single_file: bool,
    ) -> Vec<(Square, Square)> {
        if self.line_continues(run) {
            self.r.permit(ClauseId::ordo(5, 2));
        }
        let mut path = self.ordo_path_squares(run, dir, dist);
        self.ordo_stays_on_board(&path.off_pieces);
        self.ordo_never_captures(&path.land_opp);
        self.ordo_path_is_empty(&path, single_file);
        if !path.off_pieces.is_empty() || !path.land_own.is_empty() {
            path.landings.clear();
        } else if path.land_opp.is_empty() && path.passed.is_empty() {
            self.r.permit(ClauseId::ordo(7, 3));
        }
        path.landings
    }

    /// ORDO-5.2: the mover's line goes on past one of the named ends (the ordo is part of it).
    fn line_continues(&self, run: &[Square]) -> bool {
        let dims = self.pos.dims();
        let (a, b) = (run[0], run[run.len() - 1]);
        let (ldc, ldr) = (
            (b.col as i16 - a.col as i16).signum() as i8,
            (b.row as i16 - a.row as i16).signum() as i8,
        );
        [dims.offset(a, -ldc, -ldr), dims.offset(b, ldc, ldr)]
            .into_iter()
            .flatten()
            .any(|s| self.pos.get(s) == Some(self.ctx.me))
    }

    /// Where each piece of the run lands, which leave the board, and what the path meets.
    /// Squares the ordo itself vacates count as empty. In Ordo X this is ORDOX-2.3; in classic
    /// Ordo a piece can only meet its own ordo's square in single file, which ORDO-8.2 already
    /// forbids, so nothing is lost by treating it the same way.
    fn ordo_path_squares(&self, run: &[Square], dir: Direction, dist: u8) -> OrdoPath {
        let dims = self.pos.dims();
        let mut path = OrdoPath::default();
        for &p in run {
            match self.at(p, dir, dist) {
                Some(t) => path.landings.push((p, t)),
                None => path.off_pieces.push(p),
            }
        }
        let land_set: Vec<Square> = path.landings.iter().map(|&(_, t)| t).collect();
        for &t in &land_set {
            match self.pos.get(t) {
                Some(c) if !run.contains(&t) && c == self.ctx.me.opponent() => {
                    path.land_opp.push(t)
                }
                Some(_) if !run.contains(&t) => path.land_own.push(t),
                _ => {}
            }
        }
        for &p in run {
            for k in 1..dist {
                let Some(s) = self.at(p, dir, k) else { break };
                let seen = path.passed.iter().any(|&(q, _)| q == s);
                if run.contains(&s) || land_set.contains(&s) || seen {
                    continue;
                }
                if let Some(c) = self.pos.get(s) {
                    path.passed.push((s, c));
                }
            }
        }
        path.passed.sort_by_key(|&(s, _)| dims.index(s));
        path.land_opp.sort_by_key(|&s| dims.index(s));
        path.land_own.sort_by_key(|&s| dims.index(s));
        path
    }

    /// ORDO-1.5: no piece of the ordo leaves the board.
    fn ordo_stays_on_board(&mut self, off_pieces: &[Square]) {
        if off_pieces.is_empty() {
            return;
        }
        let (dims, pre, step) = (self.pos.dims(), self.pre, self.step);
        self.r.violate(
            ClauseId::ordo(1, 5),
            format!(
                "{pre}{step} would carry the {} on {} off the {dims} board",
                ordo_core::text::word(off_pieces.len(), "piece"),
                squares_text(off_pieces)
            ),
        );
    }

    /// ORDO-7.2: an ordo never lands on the opponent's pieces.
    fn ordo_never_captures(&mut self, land_opp: &[Square]) {
        if land_opp.is_empty() {
            return;
        }
        let (opp, pre, step) = (self.ctx.me.opponent(), self.pre, self.step);
        self.r.violate(
            ClauseId::ordo(7, 2),
            format!(
                "{pre}{step} would land on {opp}'s {} on {}, but an ordo never captures",
                ordo_core::text::word(land_opp.len(), "piece"),
                squares_text(land_opp)
            ),
        );
    }

    /// ORDO-7.3 (ORDOX-2.3): every square an ordo passes over or lands on is empty.
    fn ordo_path_is_empty(&mut self, path: &OrdoPath, single_file: bool) {
        if path.passed.is_empty() && path.land_own.is_empty() {
            return;
        }
        let (me, pre) = (self.ctx.me, self.pre);
        let mut parts = Vec::new();
        if !path.passed.is_empty() {
            parts.push(format!(
                "it would pass over {}",
                occupied_text(&path.passed)
            ));
        }
        if !path.land_own.is_empty() {
            parts.push(format!(
                "it would land on {me}'s own {} on {}",
                ordo_core::text::word(path.land_own.len(), "piece"),
                squares_text(&path.land_own)
            ));
        }
        let note = if self.ctx.variant == Variant::X && single_file {
            " (only the squares the ordo itself vacates count as empty, ORDOX-2.3)"
        } else {
            ""
        };
        self.r.violate(
            ClauseId::ordo(7, 3),
            format!(
                "{pre}every square an ordo passes over or lands on must be empty, but {}{note}",
                parts.join(" and ")
            ),
        );
    }

    /// After a capture: in Ordo X the removal of every opponent group but one (ORDOX-4.1) and
    /// the choice among tied largest groups (ORDOX-4.2); in classic Ordo no removal (ORDO-9.3).
    fn removal_after_capture(&mut self, after: &mut Position, keep: Keep) -> Removal {
        let (opp, pre, step) = (self.ctx.me.opponent(), self.pre, self.step);
        let gs = groups(after, opp);
        let splits_opponent = gs.len() > 1;
        match (self.ctx.variant, keep.named) {
            (Variant::Classic, k) => {
                if splits_opponent {
                    self.r.permit(ClauseId::ordo(9, 3));
                }
                if let Some(k) = k {
                    self.r.violate(
                        ClauseId::ordo(9, 3),
                        format!("{pre}{step} names a kept group (/{k}), but a capture in classic Ordo removes only the captured piece, so there is no group to choose"),
                    );
                }
            }
            (Variant::X, Some(k)) if !splits_opponent => self.r.violate(
                ClauseId::ordo_x(4, 2),
                format!("{pre}{step} names a kept group (/{k}), but the capture leaves {opp} in one group, so there is nothing to choose"),
            ),
            (Variant::X, _) if splits_opponent => {
                return self.x_removal(after, &gs, keep);
            }
            (Variant::X, _) => {}
        }
        Removal {
            splits_opponent,
            ..Removal::default()
        }
    }

    /// ORDOX-4.1, ORDOX-4.2: every opponent group but the kept one is removed from `after`.
    fn x_removal(&mut self, after: &mut Position, gs: &[Vec<Square>], keep: Keep) -> Removal {
        self.r.permit(ClauseId::ordo_x(4, 1));
        let largest = gs[0].len();
        let tied: Vec<usize> = (0..gs.len()).filter(|&i| gs[i].len() == largest).collect();
        let mut canonical_keep = None;
        let kept = if tied.len() >= 2 {
            let kept = self.tie_choice(gs, &tied, keep);
            canonical_keep = Some(gs[kept][0]);
            kept
        } else {
            self.no_tie_to_choose(gs, keep);
            0
        };
        let dims = after.dims();
        let mut removed: Vec<Square> = (0..gs.len())
            .filter(|&i| i != kept)
            .flat_map(|i| gs[i].iter().copied())
            .collect();
        removed.sort_by_key(|&s| dims.index(s));
        for &s in &removed {
            after.set(s, None);
        }
        Removal {
            removed,
            splits_opponent: true,
            canonical_keep,
        }
    }

    /// ORDOX-4.2: among tied largest groups the move names the one that stays. Returns the
    /// index of the kept group (the first tied one when the choice is missing or wrong).
    fn tie_choice(&mut self, gs: &[Vec<Square>], tied: &[usize], keep: Keep) -> usize {
        let (opp, pre, step) = (self.ctx.me.opponent(), self.pre, self.step);
        let tied_text = || groups_text(&tied.iter().map(|&i| gs[i].clone()).collect::<Vec<_>>());
        match keep.named {
            _ if keep.off.is_some() => {}
            None => self.r.violate(
                ClauseId::ordo_x(4, 2),
                format!(
                    "{pre}the capture leaves {opp} in {} with {} tied for largest ({}); the move must name the group that stays, by one of its squares, e.g. {}x{}/{}",
                    count(gs.len(), "group"),
                    count(tied.len(), "group"),
                    tied_text(),
                    step.origin(),
                    step.target(),
                    gs[tied[0]][0]
                ),
            ),
            Some(k) => {
                if let Some(&i) = tied.iter().find(|&&i| gs[i].contains(&k)) {
                    self.r.permit(ClauseId::ordo_x(4, 2));
                    return i;
                }
                let where_ = match gs.iter().find(|g| g.contains(&k)) {
                    Some(g) => format!(
                        "{k} belongs to a group of {}, smaller than the largest ({})",
                        g.len(),
                        gs[0].len()
                    ),
                    None => format!("{k} holds no {opp} piece after the capture"),
                };
                self.r.violate(
                    ClauseId::ordo_x(4, 2),
                    format!(
                        "{pre}{where_}; the group kept must be one of the tied largest groups: {}",
                        tied_text()
                    ),
                );
            }
        }
        0
    }

    /// ORDOX-4.2: with no tie, naming a kept group is an error (the largest stays by ORDOX-4.1).
    fn no_tie_to_choose(&mut self, gs: &[Vec<Square>], keep: Keep) {
        if let (Some(k), None) = (keep.named, keep.off) {
            let (pre, step) = (self.pre, self.step);
            self.r.violate(
                ClauseId::ordo_x(4, 2),
                format!(
                    "{pre}{step} names a kept group (/{k}), but no groups tie for largest: the largest group ({}) stays by ORDOX-4.1 and there is nothing to choose",
                    groups_text(&gs[..1])
                ),
            );
        }
    }

    /// A kept group named on a step that captures nothing (ORDOX-4.2; classic: ORDO-9.3).
    fn keep_without_capture(&mut self, keep: Keep) {
        if let (Some(k), None) = (keep.named, keep.off) {
            let clause = match self.ctx.variant {
                Variant::Classic => ClauseId::ordo(9, 3),
                Variant::X => ClauseId::ordo_x(4, 2),
            };
            let (pre, step) = (self.pre, self.step);
            self.r.violate(
                clause,
                format!("{pre}{step} names a kept group (/{k}) but captures nothing; a kept group is named only after a capture that leaves tied largest groups"),
            );
        }
    }

    /// The connection rule: ORDO-4.3, ORDO-9.1 for a classic player who starts split, and in
    /// Ordo X after each step, ORDOX-3.2 (ORDOX-3.5 for a split set-up position).
    fn connection_rule(&mut self, after: &Position) {
        let (me, ctx, role) = (self.ctx.me, self.ctx, self.role);
        let mine = groups(after, me);
        if mine.len() <= 1 {
            self.connected_after(ctx, role);
            return;
        }
        let (clause, lead) = match ctx.variant {
            Variant::Classic if ctx.split_at_start => (
                ClauseId::ordo(9, 1),
                format!("{me} starts the turn split and must reconnect, but "),
            ),
            Variant::Classic => (ClauseId::ordo(4, 3), String::new()),
            Variant::X if ctx.split_at_start && role != Role::XSecond => (
                ClauseId::ordo_x(3, 2),
                format!(
                    "{me} starts the turn split, so the first step must reconnect (ORDOX-3.5), but "
                ),
            ),
            Variant::X => (
                ClauseId::ordo_x(3, 2),
                "every step must leave the mover one group, but ".to_string(),
            ),
        };
        self.r.violate(
            clause,
            format!(
                "{}{lead}{} {me}'s pieces would form {}: {}",
                self.pre,
                role.after_what(),
                count(mine.len(), "group"),
                groups_text(&mine)
            ),
        );
    }

    /// The connection clauses a connected result satisfies.
    fn connected_after(&mut self, ctx: &Ctx, role: Role) {
        match ctx.variant {
            Variant::Classic if ctx.split_at_start => self.r.permit(ClauseId::ordo(9, 1)),
            Variant::Classic => self.r.permit(ClauseId::ordo(4, 3)),
            Variant::X => {
                self.r.permit(ClauseId::ordo(4, 3));
                if role != Role::XOnly {
                    self.r.permit(ClauseId::ordo_x(3, 2));
                }
            }
        }
    }
}
