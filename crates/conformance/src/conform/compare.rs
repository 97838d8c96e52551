//! Comparison: what the engine said about a position (its moves, its status, the position a
//! move produced) against what the rules say, with every difference explained by clauses.

use std::collections::BTreeSet;

use super::attribute::{self, main_clauses, readings};
use super::difference::{Diff, Expected, MoveNote, Reading, Seen};
use crate::judge::judge;
use crate::notation::{format_move, parse_move};
use crate::protocol::ReportedStatus;
use crate::reference::Reference;
use crate::rules::{ClauseId, Engine, Move, Position, Square, Status, Step};

/// Compare what the engine said with what is expected, and explain every difference.
pub fn analyze(pos: &Position, expected: &Expected, seen: &Seen) -> Diff {
    let engine: BTreeSet<String> = seen.moves.iter().cloned().collect();
    let mut d = Diff::default();
    compare_status(expected.status, seen.status, &mut d);
    if d.status.is_some() && pos.variant == crate::rules::Variant::X {
        ordox_3_5(expected.status, &mut d);
    }
    d.status_cause = status_cause(expected, seen);
    d.listed_twice = repeated_texts(&seen.moves);
    let extra: Vec<&String> = engine.difference(&expected.moves).collect();
    let missing: Vec<&String> = expected.moves.difference(&engine).collect();
    if extra.is_empty() && missing.is_empty() && d.status.is_none() {
        return d;
    }
    let mut respelled = BTreeSet::new();
    for text in extra {
        // Another spelling of a move the engine also lists canonically: a move listed twice.
        if let Some(c) = respelling(pos, expected, text).filter(|c| engine.contains(c)) {
            d.listed_twice.push(MoveNote {
                text: c,
                clauses: vec![],
                detail: format!("listed again as {text}"),
            });
            continue;
        }
        d.only_engine
            .push(explain_extra(pos, expected, text, &mut respelled));
    }
    let agreed = agreed_clauses(pos, expected, &engine);
    for text in missing {
        d.only_reference
            .push(explain_missing(pos, text, &agreed, &respelled));
    }
    d.readings = readings(pos, expected, seen);
    for m in d.only_engine.iter().chain(&d.only_reference) {
        d.clauses.extend(m.clauses.iter().copied());
    }
    d.clauses.extend(d.status_clauses.iter().copied());
    d.clauses.extend(d.readings.iter().map(|r| r.clause));
    d.main = main_clauses(&d);
    d
}

/// The moves listed more than once in one spelling, each with how many times.
fn repeated_texts(moves: &[String]) -> Vec<MoveNote> {
    let mut times: std::collections::BTreeMap<&str, usize> = std::collections::BTreeMap::new();
    for m in moves {
        *times.entry(m.as_str()).or_default() += 1;
    }
    times
        .into_iter()
        .filter(|&(_, n)| n > 1)
        .map(|(m, n)| MoveNote {
            text: m.to_string(),
            clauses: vec![],
            detail: format!("listed {n} times"),
        })
        .collect()
}

/// A status difference and its clauses; a difference in the reason alone cites ORDO-10.5,
/// which decides between reasons.
fn compare_status(want: Status, got: ReportedStatus, d: &mut Diff) {
    let want = ReportedStatus::of(want);
    if want == got {
        return;
    }
    d.status = Some((want, got));
    let mut clauses: BTreeSet<ClauseId> = [want.clause(), got.clause()]
        .into_iter()
        .flatten()
        .collect();
    if let (ReportedStatus::Won { winner: a, .. }, ReportedStatus::Won { winner: b, .. }) =
        (want, got)
    {
        d.same_winner = a == b;
    }
    if d.same_winner || clauses.is_empty() {
        clauses.insert(ClauseId::ordo(10, 5));
    }
    d.status_clauses = clauses.into_iter().collect();
}

/// ORDOX-3.5: in Ordo X a split player without a reconnecting turn loses by the Ordo X ruling
/// as well as by ORDO-10.3; a status difference there names both.
fn ordox_3_5(want: Status, d: &mut Diff) {
    use crate::rules::WinReason;
    if let Status::Won {
        reason: WinReason::CannotReconnect,
        ..
    } = want
    {
        if !d.status_clauses.contains(&ClauseId::ordo_x(3, 5)) {
            d.status_clauses.push(ClauseId::ordo_x(3, 5));
        }
    }
}

/// ORDO-10: the clause of the first difference in status, by cause. An engine that claims a
/// win names the claim's clause (a win on the wrong home row is ORDO-10.1, whatever moves it
/// stops listing); one that misses the rules' win names the clause of that win; one that
/// calls a game drawn or lost for want of moves while listing none of the rules' moves is
/// `None`: the omitted moves come first.
fn status_cause(expected: &Expected, seen: &Seen) -> Option<ClauseId> {
    use crate::rules::WinReason;
    let want = ReportedStatus::of(expected.status);
    let got = seen.status;
    if want == got {
        return None;
    }
    let no_moves_claim = match got {
        ReportedStatus::Won { reason, .. } => {
            matches!(reason, WinReason::NoLegalMove | WinReason::CannotReconnect)
        }
        ReportedStatus::Draw => true,
        ReportedStatus::Ongoing => false,
    };
    if no_moves_claim && seen.moves.is_empty() && !expected.moves.is_empty() {
        return None;
    }
    got.clause()
        .or(want.clause())
        .or(Some(ClauseId::ordo(10, 5)))
}

/// Clauses that permit (a sample of) the moves both list.
fn agreed_clauses(
    pos: &Position,
    expected: &Expected,
    engine: &BTreeSet<String>,
) -> BTreeSet<ClauseId> {
    const SAMPLE: usize = 48;
    let agreed: Vec<Move> = expected
        .moves
        .intersection(engine)
        .filter_map(|t| parse_move(t).ok())
        .collect();
    let stride = (agreed.len() / SAMPLE).max(1);
    agreed
        .iter()
        .step_by(stride)
        .flat_map(|m| judge(pos, m).clauses)
        .collect()
}

/// A move only the engine lists: not notation, off the board, a non-canonical spelling of a
/// legal move, or a move the adjudicator finds illegal (with the clauses it breaks).
fn explain_extra(
    pos: &Position,
    expected: &Expected,
    text: &str,
    respelled: &mut BTreeSet<String>,
) -> MoveNote {
    let note = |clauses: Vec<ClauseId>, detail: String| MoveNote {
        text: text.to_string(),
        clauses,
        detail,
    };
    let dims = pos.dims();
    let m = match parse_move(text) {
        Err(e) => return note(vec![], format!("is not move notation: {e}")),
        Ok(m) => m,
    };
    if !m
        .steps()
        .flat_map(|s| s.named_squares())
        .all(|q| dims.contains(q))
    {
        return note(
            vec![ClauseId::ordo(1, 5)],
            format!("names a square off the {dims} board"),
        );
    }
    if let Some(c) = respelling(pos, expected, text) {
        respelled.insert(c.clone());
        return note(
            vec![],
            format!("is a non-canonical spelling of the legal move {c} (spec/notation.md, canonical spelling)"),
        );
    }
    if m.second.is_some() && attribute::sideways_last_capture(pos, &m.first) {
        return note(
            vec![ClauseId::ordo_x(3, 4)],
            "continues a turn whose sideways step took the opponent's last piece".into(),
        );
    }
    let j = judge(pos, &m);
    if j.legal {
        note(
            vec![],
            "(the adjudicator finds it legal, the reference does not)".into(),
        )
    } else {
        note(dedup(j.clauses), format!("breaks {}", j.details.join("; ")))
    }
}

/// The legal move of the rules that `text`, not its canonical spelling, spells otherwise.
fn respelling(pos: &Position, expected: &Expected, text: &str) -> Option<String> {
    let m = parse_move(text).ok()?;
    let dims = pos.dims();
    if !m
        .steps()
        .flat_map(|s| s.named_squares())
        .all(|q| dims.contains(q))
    {
        return None;
    }
    Reference::from_position(pos)
        .ok()
        .and_then(|r| r.resolve(&m))
        .map(|r| format_move(&r))
        .filter(|c| expected.moves.contains(c) && c != text)
}

/// A move only the rules list: the clauses that permit it, the specific ones first.
fn explain_missing(
    pos: &Position,
    text: &str,
    agreed: &BTreeSet<ClauseId>,
    respelled: &BTreeSet<String>,
) -> MoveNote {
    let note = |clauses: Vec<ClauseId>, detail: &str| MoveNote {
        text: text.to_string(),
        clauses,
        detail: detail.to_string(),
    };
    if respelled.contains(text) {
        return note(vec![], "(listed by the engine in another spelling)");
    }
    let Ok(m) = parse_move(text) else {
        return note(vec![], "");
    };
    let j = judge(pos, &m);
    if !j.legal {
        return note(
            vec![],
            "(the adjudicator finds it illegal, the reference legal)",
        );
    }
    // The feature that makes this move special names its clause, even when moves both list
    // rely on the same clause (a split player's backward singletons also carry ORDO-9.2).
    // A capture the engine omits while it lists backward moves of the split player is a
    // capture fault, not a direction fault.
    let backward_listed = agreed.contains(&ClauseId::ordo(9, 2));
    if attribute::split_backward(pos, &m) && !(m.is_capture() && backward_listed) {
        return note(
            vec![ClauseId::ordo(9, 2)],
            "is legal: a split player may move backward",
        );
    }
    if m.second.is_none() && attribute::sideways_last_capture(pos, &m.first) {
        return note(
            vec![ClauseId::ordo_x(3, 4)],
            "is legal: a sideways step that takes the last piece ends the turn",
        );
    }
    let (clauses, detail) = permitting_clauses(&m, dedup(j.clauses), agreed);
    note(clauses, detail)
}

/// The clauses that permit the legal move `m` the engine omits, from `all` the adjudicator
/// cites: those the moves both list do not rely on; else, for a capture, the capture rule;
/// never a clause that only forbids other moves (unless no other is cited).
fn permitting_clauses(
    m: &Move,
    all: Vec<ClauseId>,
    agreed: &BTreeSet<ClauseId>,
) -> (Vec<ClauseId>, &'static str) {
    let permitting: Vec<ClauseId> = all
        .iter()
        .copied()
        .filter(|c| !ONLY_FORBID.contains(c))
        .collect();
    let specific: Vec<ClauseId> = permitting
        .iter()
        .copied()
        .filter(|c| !agreed.contains(c))
        .collect();
    if !specific.is_empty() {
        (specific, "is legal")
    } else if m.is_capture() && permitting.contains(&ClauseId::ordo(6, 4)) {
        (
            vec![ClauseId::ordo(6, 4)],
            "is legal: a singleton may capture this way",
        )
    } else if permitting.is_empty() {
        (all, "is legal")
    } else {
        (permitting, "is legal")
    }
}

/// Clauses the adjudicator cites for a legal move that only restrict moves (the connection
/// rule, the split rules, no removal in classic Ordo, paths): they never permit a move, so
/// they are never the cause of an omitted one.
const ONLY_FORBID: [ClauseId; 6] = [
    ClauseId::ordo(4, 3),
    ClauseId::ordo(9, 1),
    ClauseId::ordo(9, 3),
    ClauseId::ordo(6, 3),
    ClauseId::ordo(7, 3),
    ClauseId::ordo_x(3, 2),
];

fn dedup(v: Vec<ClauseId>) -> Vec<ClauseId> {
    let mut seen = BTreeSet::new();
    v.into_iter().filter(|c| seen.insert(*c)).collect()
}

/// What differs in the position a move produced: the clauses, the attributed readings, and
/// the difference in words.
type EffectDifference = (Vec<ClauseId>, Vec<Reading>, String);

/// The position a move produced differs: the clauses of the effect that differs and what
/// differs, in words. `before` is the position the move was played from, `want` the rules'
/// result, `got` the engine's.
pub fn effect_difference(
    before: &Position,
    mv: &Move,
    want: &Position,
    got: &Position,
) -> EffectDifference {
    if got.dims() != want.dims() || got.variant != want.variant {
        return (
            vec![ClauseId::ordo(2, 3)],
            vec![],
            "the engine's position is on another board or game".into(),
        );
    }
    if let Some(d) = removal_difference(before, mv, want, got) {
        return d;
    }
    if got.to_move != want.to_move {
        let clause = if mv.second.is_none() && attribute::sideways_last_capture(before, &mv.first) {
            ClauseId::ordo_x(3, 4)
        } else {
            ClauseId::ordo(3, 1)
        };
        return (
            vec![clause],
            vec![],
            format!(
                "the engine has {} to move, the rules {}",
                got.to_move.name(),
                want.to_move.name()
            ),
        );
    }
    let clause = if mv.is_capture() {
        ClauseId::ordo(6, 4)
    } else if mv.first.is_ordo() {
        ClauseId::ordo(7, 1)
    } else {
        ClauseId::ordo(6, 1)
    };
    let squares: Vec<_> = want
        .dims()
        .squares()
        .filter(|&s| want.get(s) != got.get(s))
        .collect();
    (
        vec![clause],
        vec![],
        format!("the squares {} differ", square_names(&squares)),
    )
}

/// The squares, by name, separated by spaces.
fn square_names(v: &[Square]) -> String {
    v.iter()
        .map(|s| s.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// ORDOX-4.1, ORDOX-4.2: the difference when a capture that splits the victim leaves pieces
/// of it on the board that the rules remove (another tied group kept, or too few removed);
/// `None` when that is not what differs.
fn removal_difference(
    before: &Position,
    mv: &Move,
    want: &Position,
    got: &Position,
) -> Option<EffectDifference> {
    let victim = before.to_move.opponent();
    let kept: Vec<_> = want
        .dims()
        .squares()
        .filter(|&s| got.get(s) == Some(victim) && want.get(s).is_none())
        .collect();
    let removed_by_rule = before.pieces(victim).len()
        > want.pieces(victim).len()
            + mv.steps()
                .filter(|s| matches!(s, Step::Single { capture: true, .. }))
                .count();
    if !(mv.is_capture() && removed_by_rule && !kept.is_empty()) {
        return None;
    }
    let tie = mv
        .steps()
        .any(|s| matches!(s, Step::Single { keep: Some(_), .. }));
    if tie && got.pieces(victim).len() == want.pieces(victim).len() {
        return Some((
            vec![ClauseId::ordo_x(4, 2)],
            vec![],
            format!(
                "the engine kept another tied group: {} stay",
                square_names(&kept)
            ),
        ));
    }
    // Every piece left is away from the captured squares: the engine removed only what
    // touches them.
    let far = kept.iter().all(|s| {
        !mv.steps()
            .any(|st| crate::reference::neighbours(*s, st.target()))
    });
    let detail = format!(
        "the engine leaves {} on the board; ORDOX-4.1 removes every piece outside a largest group",
        square_names(&kept)
    );
    let reading = if far {
        vec![attribute::REMOVAL_ADJACENT_ONLY]
    } else {
        vec![]
    };
    Some((vec![ClauseId::ordo_x(4, 1)], reading, detail))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::conform::attribute::{NO_MOVE_RECONNECT, TIE_ENGINE_PICKS};
    use crate::notation::parse_position;

    fn seen(moves: &[&str], status: ReportedStatus) -> Seen {
        Seen {
            moves: moves.iter().map(|s| s.to_string()).collect(),
            status,
        }
    }

    #[test]
    fn ordox_4_2_an_engine_that_picks_one_tied_group_is_recognized() {
        let pos = parse_position("5/BB1BB/2B2/1WW2/5 w x").unwrap();
        let exp = Expected::of(&pos).unwrap();
        let moves: Vec<&str> = exp
            .moves
            .iter()
            .map(String::as_str)
            .filter(|m| !m.ends_with("/d4"))
            .collect();
        let d = analyze(&pos, &exp, &seen(&moves, ReportedStatus::Ongoing));
        assert!(d.readings.contains(&TIE_ENGINE_PICKS), "{d:?}");
        assert_eq!(d.main, [ClauseId::ordo_x(4, 2)]);
    }

    #[test]
    fn ordo_10_3_a_draw_for_a_player_without_moves_is_recognized() {
        let pos = parse_position("4/W1BW/W3 w classic").unwrap();
        let exp = Expected::of(&pos).unwrap();
        let d = analyze(&pos, &exp, &seen(&[], ReportedStatus::Draw));
        assert!(d.readings.contains(&NO_MOVE_RECONNECT), "{d:?}");
        assert_eq!(d.main, [ClauseId::ordo(10, 3)]);
    }

    #[test]
    fn a_non_canonical_spelling_is_told_apart() {
        let pos = parse_position("3B/4/4/WW2 w classic").unwrap();
        let exp = Expected::of(&pos).unwrap();
        let mut moves: Vec<String> = exp.moves.iter().cloned().collect();
        let i = moves.iter().position(|m| m == "a1:b1-a2").unwrap();
        moves[i] = "b1:a1-b2".into();
        let refs: Vec<&str> = moves.iter().map(String::as_str).collect();
        let d = analyze(&pos, &exp, &seen(&refs, ReportedStatus::Ongoing));
        assert_eq!(d.only_engine.len(), 1);
        assert!(d.only_engine[0]
            .detail
            .contains("non-canonical spelling of the legal move a1:b1-a2"));
    }

    #[test]
    fn ordo_10_5_a_reason_only_difference_names_the_ruling() {
        let pos = parse_position("3B/4/B3/WW2 w classic").unwrap();
        let mut exp = Expected::of(&pos).unwrap();
        exp.status = Status::Won {
            winner: crate::rules::Color::White,
            reason: crate::rules::WinReason::HomeRow,
        };
        let got = ReportedStatus::Won {
            winner: crate::rules::Color::White,
            reason: crate::rules::WinReason::NoPieces,
        };
        let moves: Vec<&str> = exp.moves.iter().map(String::as_str).collect();
        let d = analyze(&pos, &exp, &seen(&moves, got));
        assert!(d.same_winner);
        assert_eq!(d.main, [ClauseId::ordo(10, 5)]);
    }

    /// ORDOX-3.5: an Ordo X engine that lets a split player without a reconnecting turn play
    /// on is told the Ordo X ruling besides ORDO-10.3.
    #[test]
    fn ordox_3_5_is_named_for_a_split_ordo_x_player_without_a_turn() {
        let pos = parse_position("4/W1BW/W3 w x").unwrap();
        let exp = Expected::of(&pos).unwrap();
        assert!(
            matches!(
                exp.status,
                Status::Won {
                    reason: crate::rules::WinReason::CannotReconnect,
                    ..
                }
            ),
            "{:?}",
            exp.status
        );
        let d = analyze(&pos, &exp, &seen(&[], ReportedStatus::Ongoing));
        assert!(d.clauses.contains(&ClauseId::ordo_x(3, 5)), "{d:?}");
        assert!(d.clauses.contains(&ClauseId::ordo(10, 3)), "{d:?}");
    }

    /// ORDOX-3.5 and ORDO-10.3 in the JSON report: each clause of a difference is written as
    /// its id's text, and the set of involved clauses in the order of those texts.
    #[test]
    fn ordox_3_5_clauses_are_written_as_their_ids() {
        let pos = parse_position("4/W1BW/W3 w x").unwrap();
        let exp = Expected::of(&pos).unwrap();
        let d = analyze(&pos, &exp, &seen(&[], ReportedStatus::Ongoing));
        let json = serde_json::to_value(&d).unwrap();
        let want = serde_json::json!(["ORDO-10.3", "ORDOX-3.5"]);
        assert_eq!(json["status_clauses"], want, "{json:#}");
        assert_eq!(json["status_cause"], "ORDO-10.3", "{json:#}");
        let texts = |key: &str| -> Vec<String> {
            let list = json[key]
                .as_array()
                .unwrap_or_else(|| panic!("{key}: {json:#}"));
            list.iter()
                .map(|c| c.as_str().unwrap().to_string())
                .collect()
        };
        let clauses = texts("clauses");
        assert!(clauses.windows(2).all(|w| w[0] < w[1]), "{clauses:?}");
        assert!(clauses.iter().any(|c| c == "ORDOX-3.5"), "{clauses:?}");
        let main = texts("main");
        assert!(main.iter().all(|c| clauses.contains(c)), "{main:?}");
    }

    /// ORDO-10.1: a win claimed on the mover's own home row is named by the claim, not by
    /// the moves the engine stops listing.
    #[test]
    fn ordo_10_1_a_claimed_win_is_named_by_its_clause() {
        let pos = parse_position("3B/4/B3/WW2 w classic").unwrap();
        let exp = Expected::of(&pos).unwrap();
        let got = ReportedStatus::Won {
            winner: crate::rules::Color::Black,
            reason: crate::rules::WinReason::HomeRow,
        };
        let d = analyze(&pos, &exp, &seen(&[], got));
        assert!(!d.only_reference.is_empty());
        assert_eq!(d.main, [ClauseId::ordo(10, 1)]);
    }

    /// ORDO-6.4: an omitted diagonal capture is named by the capture rule, never by a clause
    /// that only forbids other moves (ORDO-9.3, ORDO-4.3).
    #[test]
    fn ordo_6_4_an_omitted_capture_is_named_by_the_capture_rule() {
        let pos = parse_position("4/4/2B1/1WW1 w classic").unwrap();
        let exp = Expected::of(&pos).unwrap();
        assert!(exp.moves.contains("b1xc2"), "{:?}", exp.moves);
        let moves: Vec<&str> = exp
            .moves
            .iter()
            .map(String::as_str)
            .filter(|m| *m != "b1xc2")
            .collect();
        let d = analyze(&pos, &exp, &seen(&moves, ReportedStatus::Ongoing));
        assert_eq!(d.main, [ClauseId::ordo(6, 4)], "{d:?}");
    }

    /// spec/protocol.md, `moves`, each move once: a move listed twice in
    /// one spelling, or an ordo listed in both of its spellings, is a difference of its own
    /// kind, never merged into the set.
    #[test]
    fn a_move_listed_twice_is_a_finding_of_its_own_kind() {
        use crate::conform::report::Kind;
        let pos = parse_position("3B/4/4/WW2 w classic").unwrap();
        let exp = Expected::of(&pos).unwrap();
        let mut moves: Vec<&str> = exp.moves.iter().map(String::as_str).collect();
        assert!(moves.contains(&"a1:b1-a2"), "{moves:?}");
        moves.push("a1:b1-a2");
        let d = analyze(&pos, &exp, &seen(&moves, ReportedStatus::Ongoing));
        assert_eq!(d.listed_twice.len(), 1, "{d:?}");
        assert_eq!(d.listed_twice[0].detail, "listed 2 times");
        assert!(
            d.only_engine.is_empty() && d.only_reference.is_empty(),
            "{d:?}"
        );
        assert_eq!(Kind::of(&d), Kind::Repeated);
        moves.pop();
        moves.push("b1:a1-b2");
        let d = analyze(&pos, &exp, &seen(&moves, ReportedStatus::Ongoing));
        assert_eq!(d.listed_twice[0].text, "a1:b1-a2", "{d:?}");
        assert_eq!(d.listed_twice[0].detail, "listed again as b1:a1-b2");
        assert_eq!(Kind::of(&d), Kind::Repeated);
        // With another difference beside it, the rules' difference names the kind.
        moves.retain(|m| *m != "a1-a2");
        let d = analyze(&pos, &exp, &seen(&moves, ReportedStatus::Ongoing));
        assert_eq!(
            (Kind::of(&d), d.listed_twice.len()),
            (Kind::Moves, 1),
            "{d:?}"
        );
    }

    #[test]
    fn agreement_is_an_empty_diff() {
        let pos = parse_position("3B/4/B3/WW2 w classic").unwrap();
        let exp = Expected::of(&pos).unwrap();
        let moves: Vec<&str> = exp.moves.iter().map(String::as_str).collect();
        assert!(analyze(&pos, &exp, &seen(&moves, ReportedStatus::Ongoing)).is_empty());
    }
}
