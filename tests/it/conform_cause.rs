//! `ordo conform`, third version: findings attributed by cause (the clause of the
//! first point where engine and rules part, one kind per defect), drawings that replay, counts
//! that add up in the text and the JSON report, engine replies escaped, and the planted faults
//! the first plant set lacked (`play` that changes nothing, a broken capture rule, a win
//! claimed too early or too late).

use std::time::Duration;

use ordo_conformance::conform::report::{Kind, Report};
use ordo_conformance::conform::Options;
use ordo_core::rules::{ClauseId, Position, Step};
use ordo_testkit::plant::Plant;

use crate::conform::{assert_caught, kinds, main_clauses, planted_json, planted_report};

/// The clause ids written in `texts`.
fn ids(texts: &[&str]) -> Vec<ClauseId> {
    texts.iter().map(|t| t.parse().unwrap()).collect()
}

/// The groups (one per defect) of `p`'s report, protocol findings left out.
fn rule_groups(p: Plant) -> Vec<(Kind, Vec<ClauseId>)> {
    let r = planted_report(p);
    r.groups()
        .iter()
        .map(|g| &r.findings[g[0]])
        .filter(|f| f.kind != Kind::Protocol)
        .map(|f| (f.kind, f.main.clone()))
        .collect()
}

/// ORDO-6.4: an engine that drops the singleton captures on a diagonal is named by the capture
/// rule (not by ORDO-9.3, which only forbids removal), as one defect.
#[test]
fn ordo_6_4_planted_no_diagonal_captures_is_named_by_the_capture_rule() {
    assert_caught(Plant::NoDiagonalCaptures, None);
    let groups = rule_groups(Plant::NoDiagonalCaptures);
    assert_eq!(groups, [(Kind::Moves, ids(&["ORDO-6.4"]))], "{groups:?}");
}

/// ORDO-10.1: a win declared on the mover's own home row (too early) is named by the clause of
/// the claimed win, never by the moves the engine stops listing (ORDO-4.3 and others), and
/// every finding is one kind.
#[test]
fn ordo_10_1_planted_own_row_wins_is_named_by_the_claimed_win() {
    assert_caught(Plant::OwnRowWins, None);
    let groups = rule_groups(Plant::OwnRowWins);
    assert_eq!(groups, [(Kind::Moves, ids(&["ORDO-10.1"]))], "{groups:?}");
    let report = planted_report(Plant::OwnRowWins).text();
    assert!(
        report.contains("status: engine won black home-row, rules ongoing"),
        "{report}"
    );
}

/// ORDO-10.1: a home-row win the engine reports as `ongoing` (too late) is named by the clause
/// of the win the rules give, as one defect.
#[test]
fn ordo_10_1_planted_home_row_win_missed_is_named_by_the_missed_win() {
    assert_caught(Plant::HomeRowWinMissed, None);
    let groups = rule_groups(Plant::HomeRowWinMissed);
    assert_eq!(groups, [(Kind::Moves, ids(&["ORDO-10.1"]))], "{groups:?}");
}

/// An engine that accepts `play` and changes nothing gets the plain diagnosis (the position did
/// not change), never a rules clause such as ORDO-3.1 for the side to move.
#[test]
fn planted_play_ignored_is_diagnosed_as_unchanged() {
    let p = Plant::PlayIgnored;
    let v = planted_json(p);
    assert_eq!(v["verdict"], "FAIL");
    assert!(main_clauses(&v).is_empty(), "{:?}", main_clauses(&v));
    let k = kinds(&v);
    assert!(k.iter().any(|k| k == "unchanged"), "{k:?}");
    assert!(
        k.iter().all(|k| k == "unchanged" || k == "protocol"),
        "{k:?}"
    );
    let report = planted_report(p).text();
    assert!(
        report.contains("'play' leaves the position unchanged"),
        "{report}"
    );
    assert!(!report.contains("[ORDO-3.1]"), "{report}");
}

/// Whether `mv` can be drawn on `pos`: its first step starts from pieces of the side to move,
/// and a capture lands on an opponent piece.
fn replays(pos: &Position, step: &Step) -> bool {
    let me = Some(pos.to_move);
    match *step {
        Step::Single {
            from, to, capture, ..
        } => pos.get(from) == me && (!capture || pos.get(to) == Some(pos.to_move.opponent())),
        _ => step
            .moved_squares()
            .is_some_and(|v| v.iter().all(|&s| pos.get(s) == me)),
    }
}

/// Every move the report draws replays on the position drawn with it, the minimized findings
/// included (a minimized finding draws its own move, not the original one), for every plant.
#[test]
fn every_drawn_move_replays_on_its_drawn_position() {
    let mut minimized = 0;
    for p in Plant::ALL {
        for f in &planted_report(p).findings {
            minimized += usize::from(f.minimized.is_some());
            let Some((pos, Some(mv))) = f.drawn() else {
                continue;
            };
            assert!(
                replays(&pos, &mv.first),
                "{}: {} drawn on {} ({})",
                p.name(),
                ordo_core::notation::format_move(&mv),
                ordo_core::notation::format_position(&pos),
                f.place
            );
        }
    }
    assert!(minimized > 5, "only {minimized} minimized findings");
}

/// Every count of the summary is the sum of its parts: by clause, by reading and by kind each
/// add up to the findings, in the JSON report and in the text, and the failure counts equal the
/// failures listed.
fn assert_counts_add_up(what: &str, r: &Report) {
    let v = serde_json::to_value(r).unwrap();
    let s = &v["summary"];
    let n = v["findings"].as_array().unwrap().len() as u64;
    assert_eq!(s["findings"].as_u64(), Some(n), "{what}");
    for table in ["by_clause", "by_reading", "by_kind"] {
        let sum: u64 = s[table]
            .as_object()
            .unwrap()
            .values()
            .map(|x| x.as_u64().unwrap())
            .sum();
        assert_eq!(sum, n, "{what}: {table} {s:#}");
    }
    let text = r.text();
    let clause_rows: u64 = text
        .lines()
        .skip_while(|l| !l.starts_with("  findings by main clause:"))
        .skip(1)
        .take_while(|l| l.starts_with("    "))
        .map(|l| {
            l.split_whitespace()
                .find_map(|t| t.parse::<u64>().ok())
                .unwrap()
        })
        .sum();
    assert_eq!(clause_rows, n, "{what}: {text}");
    for (kind, field) in [
        ("crash", "crashes"),
        ("hang", "hangs"),
        ("garbage", "garbage"),
        ("endless-line", "endless_lines"),
    ] {
        let listed = r.incidents.iter().filter(|i| i.kind == kind).count() as u64;
        assert_eq!(v["health"][field].as_u64(), Some(listed), "{what}: {text}");
    }
}

#[test]
fn summary_counts_add_up_for_every_plant() {
    for p in Plant::ALL {
        assert_counts_add_up(p.name(), planted_report(p));
    }
}

fn run(command: &str, timeout_ms: u64) -> Report {
    let opts = Options {
        command: command.into(),
        vectors: None,
        cases: None,
        playouts: 1,
        plies: 4,
        seed: 1,
        timeout: Duration::from_millis(timeout_ms),
        svg_dir: None,
        only: None,
    };
    ordo_conformance::conform::run(&opts).unwrap()
}

/// A handshake that crashes or hangs is counted in the failure counts it sits under, and the
/// report names no empty engine name.
#[test]
fn a_failed_handshake_is_counted_and_names_no_empty_name() {
    for (engine, kind) in [("read x; exit 3", "crash"), ("sleep 100", "hang")] {
        let r = run(engine, 300);
        assert_counts_add_up(engine, &r);
        let text = r.text();
        assert!(!text.contains("(name '')"), "{text}");
        assert!(text.contains(&format!("1 {kind}")), "{text}");
    }
}

/// Whatever control characters an engine sends (ESC, NUL, BEL), the text report prints them
/// escaped.
#[test]
fn engine_replies_are_escaped_in_the_report() {
    let engine = r#"read x; printf 'ordo 1 ok name a\033[2Jb\000c\n'; while read l; do printf 'error bad \033]0;title\007 %s\n' "$l"; done"#;
    let r = run(engine, 2000);
    let text = r.text();
    assert!(
        !text.chars().any(|c| c.is_control() && c != '\n'),
        "{text:?}"
    );
    assert!(text.contains("\\u{1b}"), "{text}");
}

/// An engine that declares one game and board: the report says what was checked first, and
/// the unsupported line names a count and the first few, not every pair.
#[test]
fn the_unsupported_line_says_what_was_checked() {
    let text = planted_report(Plant::Classic10x8Declared).text();
    let checked = text.find("  checked: classic:10x8\n").expect(&text);
    let line = text
        .lines()
        .find(|l| l.starts_with("  unsupported, not checked:"))
        .expect(&text);
    assert!(text.find(line).unwrap() > checked, "{text}");
    assert!(line.contains("games and boards ("), "{line}");
    assert!(line.len() < 200, "{line}");
}

/// ORDO-3.3, through the protocol's `game` request: an engine that declares a draw when a position
/// comes back a third time in the game fails on the game cases given with `game`, with the
/// threefold-repetition reading named as the main clause and one kind.
#[test]
fn threefold_draw_is_named_by_ordo_3_3_and_its_reading() {
    let p = Plant::RepetitionDraw(3, true);
    assert_caught(p, Some("ORDO-3.3"));
    let v = planted_json(p);
    assert_eq!(main_clauses(&v), vec!["ORDO-3.3".to_string()]);
    assert!(kinds(&v).iter().all(|k| k == "moves"), "{:?}", kinds(&v));
    let by_kind = v["summary"]["by_kind"].as_object().unwrap();
    assert_eq!(by_kind.len(), 1, "{by_kind:?}");
    let report = planted_report(p).text();
    assert!(report.contains("threefold repetition"), "{report}");
    assert!(
        report.contains(" played through 'game', the engine knowing each game"),
        "{report}"
    );
    assert!(v["game_cases_played"].as_u64().unwrap() >= 2, "{v}");
}

/// The repetition game cases of the suite that come back to a position six times.
const SIX_TIMES: [&str; 2] = [
    "game-repetition-six-times-standard-start",
    "game-repetition-six-times-small",
];

/// ORDO-3.3: an engine declaring a repetition draw at the `n`th occurrence of a position, the
/// start counted or not, ends both six-times repetition cases (10 x 8 and 4 x 3) early: the
/// report fails it with ORDO-3.3 as the only main clause, and names the cases as ended early
/// in the text and the JSON.
fn assert_repetition_caught(p: Plant) {
    assert_caught(p, Some("ORDO-3.3"));
    let v = planted_json(p);
    assert_eq!(
        main_clauses(&v),
        vec!["ORDO-3.3".to_string()],
        "{}",
        p.name()
    );
    let early: Vec<&str> = v["game_cases_ended_early"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_str().unwrap())
        .collect();
    let failed = v["vectors_failed"].as_array().unwrap();
    for id in SIX_TIMES {
        assert!(early.contains(&id), "{}: {early:?}", p.name());
        assert!(failed.iter().any(|f| f == id), "{}: {failed:?}", p.name());
    }
    let text = planted_report(p).text();
    let line = format!("; {} ended early (", early.len());
    assert!(text.contains(&line), "{}: {text}", p.name());
}

/// ORDO-3.3: a draw at the third occurrence, the start not counted (as one real program
/// does: on the 10 x 8 case it comes on move 9), is caught.
#[test]
fn ordo_3_3_draw_at_third_occurrence_after_start_is_caught() {
    assert_repetition_caught(Plant::RepetitionDraw(3, false));
}

/// ORDO-3.3: a draw at the third occurrence, the start counted, ends the six-times cases early.
#[test]
fn ordo_3_3_draw_at_third_occurrence_with_start_is_caught() {
    assert_repetition_caught(Plant::RepetitionDraw(3, true));
}

/// ORDO-3.3: a draw at the fourth occurrence, the start counted, is caught.
#[test]
fn ordo_3_3_draw_at_fourth_occurrence_with_start_is_caught() {
    assert_repetition_caught(Plant::RepetitionDraw(4, true));
}

/// ORDO-3.3: a draw at the fourth occurrence, the start not counted, is caught.
#[test]
fn ordo_3_3_draw_at_fourth_occurrence_after_start_is_caught() {
    assert_repetition_caught(Plant::RepetitionDraw(4, false));
}

/// ORDO-3.3: a draw at the fifth occurrence, the start counted, is caught.
#[test]
fn ordo_3_3_draw_at_fifth_occurrence_with_start_is_caught() {
    assert_repetition_caught(Plant::RepetitionDraw(5, true));
}

/// ORDO-3.3: a draw at the fifth occurrence, the start not counted, is caught.
#[test]
fn ordo_3_3_draw_at_fifth_occurrence_after_start_is_caught() {
    assert_repetition_caught(Plant::RepetitionDraw(5, false));
}

/// ORDO-3.3: a correct engine plays every game case to its last move: none ended early, the
/// six-times repetition cases pass, and the report says "0 ended early".
#[test]
fn ordo_3_3_a_correct_engine_ends_no_game_case_early() {
    let engine = format!("'{}' engine", env!("CARGO_BIN_EXE_ordo"));
    let (code, v) = crate::conform::conform_json(&engine, &[]);
    assert_eq!(code, Some(0), "{v:#}");
    assert_eq!(v["game_cases_ended_early"], serde_json::json!([]), "{v:#}");
    let failed = v["vectors_failed"].as_array().unwrap();
    assert!(failed.is_empty(), "{failed:?}");
    let played = v["game_cases_played"].as_u64().unwrap();
    let games = ordo_conformance::cases::embedded()
        .unwrap()
        .iter()
        .filter(|c| !c.game.is_empty())
        .count();
    assert_eq!(played, games as u64, "{v:#}");
}

/// spec/protocol.md, `moves`, each move once: an engine that lists every
/// ordo move from both ends of its run, as one real engine does, fails with one kind of
/// finding, "a move is listed twice", and no clause of the rules named.
#[test]
fn planted_ordos_twice_is_a_move_listed_twice() {
    let p = Plant::OrdosTwice;
    let v = planted_json(p);
    assert_eq!(v["verdict"], "FAIL", "{v:#}");
    assert_eq!(rule_groups(p), vec![(Kind::Repeated, ids(&[]))]);
    assert!(main_clauses(&v).is_empty(), "{:?}", main_clauses(&v));
    let report = planted_report(p).text();
    assert!(report.contains("listed twice by the engine"), "{report}");
    assert!(report.contains(" listed again as "), "{report}");
    // Not minimized (only differences of the rules are), and not said to be.
    assert!(!report.contains("minimized:"), "{report}");
}
