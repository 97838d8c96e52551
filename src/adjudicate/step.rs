//! One step, clause by clause: squares on the board (ORDO-1.5), the pieces that move (ORDO-5.1,
//! ORDO-6.1), the displacement (ORDO-1.4, ORDO-6.1, ORDO-7.1), the direction (ORDO-8, ORDO-9.2,
//! ORDOX-1.2, ORDOX-2), the path (ORDO-6.3, ORDO-6.4, ORDO-7.2, ORDO-7.3, ORDOX-2.3), the
//! removal after a capture (ORDOX-4.1, ORDOX-4.2, ORDO-9.3) and the connection rule (ORDO-4.3,
//! ORDO-9.1, ORDOX-3.2).

use crate::rules::{Color, Heading, Position, Square, Step, Variant};

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
    pub permits: Vec<&'static str>,
    /// The step's heading for the mover, when its displacement is a straight line.
    pub heading: Option<Heading>,
    pub outcome: Option<StepOutcome>,
}

impl StepReport {
    fn violate(&mut self, clause: &'static str, detail: String) {
        self.violations.push(Violation { clause, detail });
    }

    fn permit(&mut self, clause: &'static str) {
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

fn plural(n: usize, one: &str, many: &str) -> String {
    if n == 1 {
        format!("{n} {one}")
    } else {
        format!("{n} {many}")
    }
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
/// skipped; all others are made.
pub(crate) fn check_step(pos: &Position, step: &Step, ctx: &Ctx, role: Role) -> StepReport {
    let mut r = StepReport::default();
    let dims = pos.dims();
    let me = ctx.me;
    let opp = me.opponent();
    let x = ctx.variant == Variant::X;
    let pre = role.prefix();

    // ORDO-1.5: every square the step names lies on the board.
    let (core, keep): (Vec<Square>, Option<Square>) = match *step {
        Step::Single { from, to, keep, .. } => (vec![from, to], keep),
        Step::Ordo { first, last, to } => (vec![first, last, to], None),
    };
    let mut off: Vec<Square> = core
        .iter()
        .copied()
        .filter(|&q| !dims.contains(q))
        .collect();
    off.dedup();
    let keep_off = keep.filter(|&k| !dims.contains(k));
    if !off.is_empty() || keep_off.is_some() {
        let mut named = off.clone();
        named.extend(keep_off);
        r.violate(
            "ORDO-1.5",
            format!(
                "{pre}{step} names {} off the {dims} board {}, which has columns a to {} and rows 1 to {}",
                if named.len() == 1 { "a square" } else { "squares" },
                squares_text(&named),
                (b'a' + dims.cols - 1) as char,
                dims.rows
            ),
        );
    }
    if !off.is_empty() {
        return r;
    }

    // The pieces that move: a piece of the mover (ORDO-6.1), or a line of two or more of the
    // mover's pieces on one row or column (ORDO-5.1).
    let mut pieces_ok = true;
    let (run, orientation): (Vec<Square>, Option<Orientation>) = match *step {
        Step::Single { from, .. } => {
            match pos.get(from) {
                Some(c) if c == me => {}
                None => {
                    pieces_ok = false;
                    r.violate(
                        "ORDO-6.1",
                        format!("{pre}there is no piece on {from} to move"),
                    );
                }
                Some(c) => {
                    pieces_ok = false;
                    r.violate(
                        "ORDO-6.1",
                        format!(
                            "{pre}the piece on {from} is {c}'s; {me} moves only {me}'s own pieces"
                        ),
                    );
                }
            }
            (vec![from], None)
        }
        Step::Ordo { first, last, .. } => {
            if first == last {
                r.violate(
                    "ORDO-5.1",
                    format!("{pre}{first}:{last} names a single square; an ordo is a line of two or more pieces"),
                );
                return r;
            }
            if first.row != last.row && first.col != last.col {
                let why = if first.row.abs_diff(last.row) == first.col.abs_diff(last.col) {
                    "lie on a diagonal, and pieces in a diagonal line never form an ordo"
                } else {
                    "are neither on one row nor on one column"
                };
                r.violate(
                    "ORDO-5.1",
                    format!("{pre}the ordo ends {first} and {last} {why}"),
                );
                return r;
            }
            let run = step.moved_squares().expect("ends on one row or column");
            let empty: Vec<Square> = run
                .iter()
                .copied()
                .filter(|&s| pos.get(s).is_none())
                .collect();
            let foreign: Vec<Square> = run
                .iter()
                .copied()
                .filter(|&s| pos.get(s) == Some(opp))
                .collect();
            if !empty.is_empty() || !foreign.is_empty() {
                pieces_ok = false;
                let mut parts = Vec::new();
                if !empty.is_empty() {
                    parts.push(format!(
                        "{} {} empty",
                        squares_text(&empty),
                        if empty.len() == 1 { "is" } else { "are" }
                    ));
                }
                if !foreign.is_empty() {
                    parts.push(format!(
                        "{} {} {opp}'s",
                        squares_text(&foreign),
                        if foreign.len() == 1 { "is" } else { "are" }
                    ));
                }
                r.violate(
                    "ORDO-5.1",
                    format!(
                        "{pre}the run {first}..{last} is not an unbroken line of {me}'s pieces: {}",
                        parts.join("; ")
                    ),
                );
            }
            let o = if first.row == last.row {
                Orientation::Horizontal
            } else {
                Orientation::Vertical
            };
            (run, Some(o))
        }
    };

    // A step that starts on no piece of the mover describes no move of the mover: its
    // direction and path are not judged.
    if !pieces_ok && !step.is_ordo() {
        if step.direction().is_none() {
            let (dc, dr) = step.displacement();
            if (dc, dr) != (0, 0) {
                r.violate(
                    "ORDO-1.4",
                    format!("{pre}{step} goes {} column(s) and {} row(s), which is neither along a row, a column nor a diagonal", dc.abs(), dr.abs()),
                );
            }
        }
        return r;
    }

    // The displacement: one or more squares (ORDO-6.1, ORDO-7.1) along one of the eight
    // directions (ORDO-1.4).
    let move_clause = if step.is_ordo() {
        "ORDO-7.1"
    } else {
        "ORDO-6.1"
    };
    let what = if step.is_ordo() {
        "an ordo"
    } else {
        "a singleton"
    };
    let (dc, dr) = step.displacement();
    let Some((dir, dist)) = step.direction() else {
        if (dc, dr) == (0, 0) {
            r.violate(
                move_clause,
                format!("{pre}{step} does not move: {what} moves one or more squares"),
            );
        } else {
            r.violate(
                "ORDO-1.4",
                format!(
                    "{pre}{step} goes {} column(s) and {} row(s), which is neither along a row, a column nor a diagonal",
                    dc.abs(),
                    dr.abs()
                ),
            );
            r.violate(
                move_clause,
                format!("{pre}{what} moves in a straight line, and {step} does not"),
            );
        }
        return r;
    };
    let heading = dir.heading(me);
    r.heading = Some(heading);
    if step.is_ordo() {
        r.permit("ORDO-5.1");
        r.permit("ORDO-7.1");
    } else {
        r.permit("ORDO-6.1");
    }
    let hw = heading_words(heading);
    let single_file = match orientation {
        Some(Orientation::Horizontal) => dir.dr == 0,
        Some(Orientation::Vertical) => dir.dc == 0,
        None => false,
    };

    // The direction (ORDO-8.1, ORDO-8.2, ORDO-9.2; ORDOX-1.2, ORDOX-2.1, ORDOX-2.2).
    match (ctx.variant, orientation) {
        (Variant::Classic, None) => match heading {
            Heading::Forward | Heading::DiagonalForward | Heading::Sideways => r.permit("ORDO-8.1"),
            Heading::Backward | Heading::DiagonalBackward => {
                if ctx.split_at_start {
                    r.permit("ORDO-9.2");
                } else {
                    r.violate(
                        "ORDO-8.1",
                        format!("{pre}{step} moves the singleton {hw}; in classic Ordo a singleton moves only forward, diagonally forward or sideways"),
                    );
                    r.violate(
                        "ORDO-9.2",
                        format!("{pre}backward moves are allowed only in a turn {me} starts split, and {me}'s pieces form one group"),
                    );
                }
            }
        },
        (Variant::Classic, Some(o)) => {
            let split_note = if ctx.split_at_start {
                " (ORDO-9.2 adds only the orthogonal backward move of a horizontal ordo)"
            } else {
                ""
            };
            if !dir.is_orthogonal() {
                r.violate(
                    "ORDO-8.2",
                    format!("{pre}{step} moves the ordo {hw}; in classic Ordo an ordo never moves diagonally{split_note}"),
                );
            } else if single_file {
                let rule = match o {
                    Orientation::Horizontal => "a horizontal ordo moves only forward",
                    Orientation::Vertical => "a vertical ordo moves only sideways",
                };
                r.violate(
                    "ORDO-8.2",
                    format!("{pre}{step} moves the ordo {hw} along its own line, in single file, which classic Ordo forbids: {rule}{split_note}"),
                );
            } else if heading == Heading::Backward {
                // A horizontal ordo going backward, side by side.
                if ctx.split_at_start {
                    r.permit("ORDO-9.2");
                } else {
                    r.violate(
                        "ORDO-8.2",
                        format!("{pre}{step} moves the horizontal ordo backward; a horizontal ordo moves only forward"),
                    );
                    r.violate(
                        "ORDO-9.2",
                        format!("{pre}a horizontal ordo may move backward only in a turn {me} starts split, and {me}'s pieces form one group"),
                    );
                }
            } else {
                r.permit("ORDO-8.2");
            }
        }
        (Variant::X, o) => {
            let dir_clause = if o.is_some() {
                "ORDOX-2.2"
            } else {
                "ORDOX-2.1"
            };
            match heading {
                Heading::Backward | Heading::DiagonalBackward => {
                    let split_note = if ctx.split_at_start {
                        ", not even in a turn the player starts split"
                    } else {
                        ""
                    };
                    r.violate(
                        "ORDOX-1.2",
                        format!("{pre}{step} moves {hw}; in Ordo X no piece or ordo ever moves backward{split_note}"),
                    );
                    r.violate(
                        dir_clause,
                        format!("{pre}in Ordo X {what} moves forward, diagonally forward or sideways, not {hw}"),
                    );
                }
                _ => {
                    r.permit(dir_clause);
                    if single_file {
                        r.permit("ORDOX-2.3");
                    }
                }
            }
        }
    }

    if !pieces_ok {
        return r;
    }

    // The path, the landing squares and the capture.
    let at = |sq: Square, k: u8| dims.offset(sq, dir.dc * k as i8, dir.dr * k as i8);
    let mut landings: Vec<(Square, Square)> = Vec::new();
    let mut captured = None;
    match *step {
        Step::Single {
            from, to, capture, ..
        } => {
            let passed: Vec<(Square, Color)> = (1..dist)
                .filter_map(|k| at(from, k))
                .filter_map(|s| pos.get(s).map(|c| (s, c)))
                .collect();
            let landing = pos.get(to);
            if !passed.is_empty() || landing == Some(me) {
                let mut parts = Vec::new();
                if !passed.is_empty() {
                    parts.push(format!(
                        "it would pass over {}, but a singleton never passes over a piece",
                        occupied_text(&passed)
                    ));
                }
                if landing == Some(me) {
                    parts.push(format!("it would land on {me}'s own piece on {to}"));
                }
                r.violate("ORDO-6.3", format!("{pre}{step}: {}", parts.join("; ")));
            }
            match (landing, capture) {
                (Some(c), false) if c == opp => r.violate(
                    "ORDO-6.4",
                    format!("{pre}{to} holds a {opp} piece, so moving there captures it and is written {from}x{to}; '{from}-{to}' (written with '-') denotes no legal move"),
                ),
                (None, true) => r.violate(
                    "ORDO-6.4",
                    format!("{pre}{from}x{to} is written as a capture, but {to} is empty: there is nothing to capture (a move to an empty square is written {from}-{to})"),
                ),
                _ => {}
            }
            if landing == Some(opp) {
                captured = Some(to);
                if capture {
                    r.permit("ORDO-6.4");
                }
            }
            if landing != Some(me) {
                landings.push((from, to));
            }
        }
        Step::Ordo { .. } => {
            let line_continues = {
                let (a, b) = (run[0], run[run.len() - 1]);
                let (ldc, ldr) = (
                    (b.col as i16 - a.col as i16).signum() as i8,
                    (b.row as i16 - a.row as i16).signum() as i8,
                );
                [dims.offset(a, -ldc, -ldr), dims.offset(b, ldc, ldr)]
                    .into_iter()
                    .flatten()
                    .any(|s| pos.get(s) == Some(me))
            };
            if line_continues {
                r.permit("ORDO-5.2");
            }
            // Squares the ordo itself vacates count as empty. In Ordo X this is ORDOX-2.3; in
            // classic Ordo a piece can only meet its own ordo's square in single file, which
            // ORDO-8.2 already forbids, so nothing is lost by treating it the same way.
            let mut off_pieces = Vec::new();
            let mut land_set: Vec<Square> = Vec::new();
            for &p in &run {
                match at(p, dist) {
                    Some(t) => {
                        land_set.push(t);
                        landings.push((p, t));
                    }
                    None => off_pieces.push(p),
                }
            }
            let mut land_opp = Vec::new();
            let mut land_own = Vec::new();
            let mut passed: Vec<(Square, Color)> = Vec::new();
            for &t in &land_set {
                match pos.get(t) {
                    Some(c) if !run.contains(&t) => {
                        if c == opp {
                            land_opp.push(t);
                        } else {
                            land_own.push(t);
                        }
                    }
                    _ => {}
                }
            }
            for &p in &run {
                for k in 1..dist {
                    let Some(s) = at(p, k) else { break };
                    if run.contains(&s)
                        || land_set.contains(&s)
                        || passed.iter().any(|&(q, _)| q == s)
                    {
                        continue;
                    }
                    if let Some(c) = pos.get(s) {
                        passed.push((s, c));
                    }
                }
            }
            passed.sort_by_key(|&(s, _)| dims.index(s));
            land_opp.sort_by_key(|&s| dims.index(s));
            land_own.sort_by_key(|&s| dims.index(s));
            if !off_pieces.is_empty() {
                r.violate(
                    "ORDO-1.5",
                    format!(
                        "{pre}{step} would carry the {} on {} off the {dims} board",
                        if off_pieces.len() == 1 {
                            "piece"
                        } else {
                            "pieces"
                        },
                        squares_text(&off_pieces)
                    ),
                );
            }
            if !land_opp.is_empty() {
                r.violate(
                    "ORDO-7.2",
                    format!(
                        "{pre}{step} would land on {opp}'s {} on {}, but an ordo never captures",
                        if land_opp.len() == 1 {
                            "piece"
                        } else {
                            "pieces"
                        },
                        squares_text(&land_opp)
                    ),
                );
            }
            if !passed.is_empty() || !land_own.is_empty() {
                let mut parts = Vec::new();
                if !passed.is_empty() {
                    parts.push(format!("it would pass over {}", occupied_text(&passed)));
                }
                if !land_own.is_empty() {
                    parts.push(format!(
                        "it would land on {me}'s own {} on {}",
                        if land_own.len() == 1 {
                            "piece"
                        } else {
                            "pieces"
                        },
                        squares_text(&land_own)
                    ));
                }
                let note = if x && single_file {
                    " (only the squares the ordo itself vacates count as empty, ORDOX-2.3)"
                } else {
                    ""
                };
                r.violate(
                    "ORDO-7.3",
                    format!(
                        "{pre}every square an ordo passes over or lands on must be empty, but {}{note}",
                        parts.join(" and ")
                    ),
                );
            }
            if !off_pieces.is_empty() || !land_own.is_empty() {
                landings.clear();
            } else if land_opp.is_empty() && passed.is_empty() {
                r.permit("ORDO-7.3");
            }
        }
    }
    if landings.is_empty() {
        // Pieces would leave the board or two pieces would share a square: nothing to apply,
        // and the later checks (removal, connection) have no position to look at.
        check_keep_without_capture(&mut r, ctx, keep, keep_off, pre, step);
        return r;
    }

    // Carry the step out (captured pieces are replaced).
    let mut after = pos.clone();
    for &(f, _) in &landings {
        after.set(f, None);
    }
    for &(_, t) in &landings {
        after.set(t, Some(me));
    }

    // After a capture: in Ordo X the removal of every opponent group but one (ORDOX-4.1) and
    // the choice among tied largest groups (ORDOX-4.2); in classic Ordo no removal (ORDO-9.3).
    let mut removed = Vec::new();
    let mut splits_opponent = false;
    let mut canonical_keep = None;
    if captured.is_some() {
        let gs = groups(&after, opp);
        splits_opponent = gs.len() > 1;
        match ctx.variant {
            Variant::Classic => {
                if splits_opponent {
                    r.permit("ORDO-9.3");
                }
                if let Some(k) = keep {
                    r.violate(
                        "ORDO-9.3",
                        format!("{pre}{step} names a kept group (/{k}), but a capture in classic Ordo removes only the captured piece, so there is no group to choose"),
                    );
                }
            }
            Variant::X if !splits_opponent => {
                if let Some(k) = keep {
                    r.violate(
                        "ORDOX-4.2",
                        format!("{pre}{step} names a kept group (/{k}), but the capture leaves {opp} in one group, so there is nothing to choose"),
                    );
                }
            }
            Variant::X => {
                r.permit("ORDOX-4.1");
                let largest = gs[0].len();
                let tied: Vec<&Vec<Square>> = gs.iter().filter(|g| g.len() == largest).collect();
                let mut kept: &Vec<Square> = &gs[0];
                if tied.len() >= 2 {
                    match keep {
                        _ if keep_off.is_some() => {}
                        None => r.violate(
                            "ORDOX-4.2",
                            format!(
                                "{pre}the capture leaves {opp} in {} with {} tied for largest ({}); the move must name the group that stays, by one of its squares, e.g. {}x{}/{}",
                                plural(gs.len(), "group", "groups"),
                                plural(tied.len(), "group", "groups"),
                                groups_text(&tied.iter().map(|g| (*g).clone()).collect::<Vec<_>>()),
                                step.origin(),
                                step.target(),
                                tied[0][0]
                            ),
                        ),
                        Some(k) => match tied.iter().find(|g| g.contains(&k)) {
                            Some(g) => {
                                kept = g;
                                r.permit("ORDOX-4.2");
                            }
                            None => {
                                let where_ = match gs.iter().find(|g| g.contains(&k)) {
                                    Some(g) => format!(
                                        "{k} belongs to a group of {}, smaller than the largest ({largest})",
                                        g.len()
                                    ),
                                    None => format!("{k} holds no {opp} piece after the capture"),
                                };
                                r.violate(
                                    "ORDOX-4.2",
                                    format!(
                                        "{pre}{where_}; the group kept must be one of the tied largest groups: {}",
                                        groups_text(&tied.iter().map(|g| (*g).clone()).collect::<Vec<_>>())
                                    ),
                                );
                            }
                        },
                    }
                    canonical_keep = Some(kept[0]);
                } else if let Some(k) = keep {
                    if keep_off.is_none() {
                        r.violate(
                            "ORDOX-4.2",
                            format!(
                                "{pre}{step} names a kept group (/{k}), but no groups tie for largest: the largest group ({}) stays by ORDOX-4.1 and there is nothing to choose",
                                groups_text(&gs[..1])
                            ),
                        );
                    }
                }
                for g in &gs {
                    if !std::ptr::eq(g, kept) {
                        removed.extend(g.iter().copied());
                    }
                }
                removed.sort_by_key(|&s| dims.index(s));
                for &s in &removed {
                    after.set(s, None);
                }
            }
        }
    } else {
        check_keep_without_capture(&mut r, ctx, keep, keep_off, pre, step);
    }

    // The connection rule: ORDO-4.3, ORDO-9.1 for a classic player who starts split, and in
    // Ordo X after each step, ORDOX-3.2 (ORDOX-3.5 for a split set-up position).
    let mine = groups(&after, me);
    if mine.len() > 1 {
        let (clause, lead) = match ctx.variant {
            Variant::Classic if ctx.split_at_start => (
                "ORDO-9.1",
                format!("{me} starts the turn split and must reconnect, but"),
            ),
            Variant::Classic => ("ORDO-4.3", String::new()),
            Variant::X if ctx.split_at_start && role != Role::XSecond => (
                "ORDOX-3.2",
                format!(
                    "{me} starts the turn split, so the first step must reconnect (ORDOX-3.5), but"
                ),
            ),
            Variant::X => (
                "ORDOX-3.2",
                "every step must leave the mover one group, but".to_string(),
            ),
        };
        let lead = if lead.is_empty() {
            String::new()
        } else {
            format!("{lead} ")
        };
        r.violate(
            clause,
            format!(
                "{pre}{lead}{} {me}'s pieces would form {}: {}",
                role.after_what(),
                plural(mine.len(), "group", "groups"),
                groups_text(&mine)
            ),
        );
    } else {
        match ctx.variant {
            Variant::Classic if ctx.split_at_start => r.permit("ORDO-9.1"),
            Variant::Classic => r.permit("ORDO-4.3"),
            Variant::X => {
                r.permit("ORDO-4.3");
                if role != Role::XOnly {
                    r.permit("ORDOX-3.2");
                }
            }
        }
    }

    r.outcome = Some(StepOutcome {
        after,
        moved: landings,
        captured,
        removed,
        splits_opponent,
        canonical_keep,
    });
    r
}

/// A kept group named on a step that captures nothing (ORDOX-4.2; classic: ORDO-9.3).
fn check_keep_without_capture(
    r: &mut StepReport,
    ctx: &Ctx,
    keep: Option<Square>,
    keep_off: Option<Square>,
    pre: &str,
    step: &Step,
) {
    if let (Some(k), None) = (keep, keep_off) {
        let clause = match ctx.variant {
            Variant::Classic => "ORDO-9.3",
            Variant::X => "ORDOX-4.2",
        };
        r.violate(
            clause,
            format!("{pre}{step} names a kept group (/{k}) but captures nothing; a kept group is named only after a capture that leaves tied largest groups"),
        );
    }
}
