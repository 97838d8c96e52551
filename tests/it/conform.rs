//! `ordo conform` against our own engines and against every planted deviation: a correct
//! engine passes (also one that plays only classic Ordo on 10 x 8, declared or not), and every
//! planted fault is caught and named by its main clause or known reading. Also the engine
//! failures conform must survive, the `--only` and `--json` options, and the protocol probes.

use std::process::{Command, Output};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use ordo_conformance::conform::report::Report;
use ordo_conformance::conform::Options;
use ordo_testkit::plant::Plant;
use serde_json::Value;

const ORDO: &str = env!("CARGO_BIN_EXE_ordo");

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

/// `ordo conform` on `engine` with few playouts and the built-in vectors: exit status, output,
/// time taken.
fn conform(engine: &str, extra: &[&str]) -> (Option<i32>, String, Duration) {
    let mut args = vec![
        "conform",
        "--engine",
        engine,
        "--playouts",
        "3",
        "--plies",
        "12",
    ];
    args.extend_from_slice(extra);
    let start = Instant::now();
    let o = Command::new(ORDO).args(&args).output().expect("run ordo");
    (o.status.code(), text(&o), start.elapsed())
}

/// The JSON report of `ordo conform --json`.
pub(crate) fn conform_json(engine: &str, extra: &[&str]) -> (Option<i32>, Value) {
    let mut extra = extra.to_vec();
    extra.push("--json");
    let (code, out, _) = conform(engine, &extra);
    let v: Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}"));
    (code, v)
}

/// The planted engine of the workspace's examples (`cargo test` builds the examples beside the
/// binaries; `cargo build --release --examples` alone builds it).
pub(crate) fn planted_engine() -> std::path::PathBuf {
    let bin = std::path::Path::new(ORDO).parent().unwrap();
    let path = bin.join("examples").join("planted-engine");
    assert!(
        path.is_file(),
        "{}: no planted engine (cargo build --release --examples)",
        path.display()
    );
    path
}

/// The command of the planted engine with plant `p` on the bitboard engine. A plant changes the
/// move list or status of whichever correct engine it wraps, so the base does not change what
/// conform finds ([`a_plant_is_found_alike_on_either_correct_engine`] shows it); the bitboard base
/// makes the runs of every plant about four times cheaper than the reference base.
fn planted(p: Plant) -> String {
    planted_on(p, "bitboard")
}

/// The command of the planted engine with plant `p` on `base` (`reference` or `bitboard`).
fn planted_on(p: Plant, base: &str) -> String {
    format!("'{}' {} {base}", planted_engine().display(), p.name())
}

/// The main clauses of every finding, most frequent first.
pub(crate) fn main_clauses(v: &Value) -> Vec<String> {
    let mut count: std::collections::BTreeMap<String, usize> = Default::default();
    for f in v["findings"].as_array().unwrap() {
        for c in f["main"].as_array().unwrap() {
            *count.entry(c.as_str().unwrap().to_string()).or_default() += 1;
        }
    }
    let mut rows: Vec<(String, usize)> = count.into_iter().collect();
    rows.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    rows.into_iter().map(|r| r.0).collect()
}

fn readings(v: &Value) -> Vec<String> {
    v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|f| f["readings"].as_array().unwrap().clone())
        .map(|r| r["clause"].as_str().unwrap().to_string())
        .collect()
}

pub(crate) fn kinds(v: &Value) -> Vec<String> {
    v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["kind"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn conform_passes_our_own_engines() {
    for engine in ["reference", "bitboard"] {
        let cmd = format!("'{ORDO}' engine --engine {engine}");
        let (code, report, _) = conform(&cmd, &[]);
        assert_eq!(code, Some(0), "{report}");
        assert!(report.contains("verdict: PASS"), "{report}");
        assert!(report.contains("findings: 0"), "{report}");
        assert!(
            report.contains("effects of moves: checked with 'show'"),
            "{report}"
        );
    }
}

/// ORDO-2.3, ORDO-1.5: an engine that plays only classic Ordo on 10 x 8 and is correct there
/// passes by default, whether it declares it (`capabilities`) or only refuses the rest; each
/// unsupported game and board is reported, never as a disagreement.
#[test]
fn ordo_2_3_a_correct_classic_10x8_engine_passes_by_default() {
    for p in [Plant::Classic10x8Only, Plant::Classic10x8Declared] {
        let (code, v) = conform_json(&planted(p), &[]);
        assert_eq!(code, Some(0), "{}: {v:#}", p.name());
        assert_eq!(v["verdict"], "PASS");
        assert_eq!(v["findings"].as_array().unwrap().len(), 0);
        let unsupported: Vec<&str> = v["unsupported"]
            .as_array()
            .unwrap()
            .iter()
            .map(|u| u[0].as_str().unwrap())
            .collect();
        assert!(unsupported.contains(&"x:10x8"), "{unsupported:?}");
        assert!(unsupported.contains(&"classic:4x4"), "{unsupported:?}");
        assert!(!unsupported.contains(&"classic:10x8"), "{unsupported:?}");
        assert!(v["compared"].as_u64().unwrap() > 20, "{v:#}");
        let declared = &v["declared"];
        match p {
            Plant::Classic10x8Declared => assert_eq!(declared[0], "classic:10x8"),
            _ => assert!(declared.is_null()),
        }
    }
}

/// `--only` narrows the check by hand: only classic 10 x 8 positions are compared.
#[test]
fn only_narrows_the_games_and_boards() {
    let cmd = format!("'{ORDO}' engine");
    let (code, v) = conform_json(&cmd, &["--only", "classic:10x8"]);
    assert_eq!(code, Some(0), "{v:#}");
    assert!(v["unsupported"].as_array().unwrap().is_empty(), "{v:#}");
    let total = v["vectors_total"].as_u64().unwrap();
    let skipped = v["vectors_not_compared"].as_u64().unwrap();
    assert!(skipped > 0 && skipped < total, "{v:#}");
    let (code, out, _) = conform(&cmd, &["--only", "chess:8x8"]);
    assert_eq!(code, Some(2), "{out}");
    assert_eq!(out.lines().count(), 1, "{out}");
    assert!(out.contains("--only"), "{out}");
}

/// The report of one in-process conform run (the library behind `ordo conform`, the same
/// options as [`conform`] with `--timeout-ms 20000`) on each planted engine, made once and
/// shared by every test that looks at that plant, so that the tests can run side by side
/// without running a plant twice.
pub(crate) fn planted_report(p: Plant) -> &'static Report {
    static REPORTS: [OnceLock<Report>; Plant::ALL.len()] =
        [const { OnceLock::new() }; Plant::ALL.len()];
    let i = Plant::ALL.iter().position(|&q| q == p).unwrap();
    REPORTS[i].get_or_init(|| conform_in_process(&planted(p), p.name()))
}

/// One in-process conform run on `command` (3 playouts of 12 plies, seed 1, timeout 20 s).
fn conform_in_process(command: &str, what: &str) -> Report {
    let opts = Options {
        command: command.into(),
        vectors: None,
        cases: None,
        playouts: 3,
        plies: 12,
        seed: 1,
        timeout: Duration::from_millis(20_000),
        svg_dir: None,
        only: None,
    };
    ordo_conformance::conform::run(&opts).unwrap_or_else(|e| panic!("{what}: {e}"))
}

/// The planted engine on the reference engine and on the bitboard engine is found alike,
/// finding for finding, for plants of the move list (ORDO-6.4, ORDOX-4.1) and of the status
/// (ORDO-10.1): the base under a plant is not what conform judges. Only the command and the
/// engine's name differ.
#[test]
fn a_plant_is_found_alike_on_either_correct_engine() {
    for p in [
        Plant::NoDiagonalCaptures,
        Plant::RemovesAdjacentOnly,
        Plant::HomeRowWinMissed,
    ] {
        let on = |base| {
            let r = conform_in_process(&planted_on(p, base), p.name());
            assert!(!r.passed(), "{}", p.name());
            let mut v = serde_json::to_value(r).unwrap();
            // The command and the handshake's name say which base it is.
            v["command"] = Value::Null;
            v["name"] = Value::Null;
            v
        };
        assert_eq!(on("reference"), on("bitboard"), "{}", p.name());
    }
}

/// The JSON document `ordo conform --json` prints for [`planted_report`].
pub(crate) fn planted_json(p: Plant) -> Value {
    serde_json::to_value(planted_report(p)).unwrap()
}

/// A planted fault is caught: the verdict fails with no crash or hang, and the most frequent
/// main clause is the clause the plant breaks, with the known reading `reading` (or none).
pub(crate) fn assert_caught(p: Plant, reading: Option<&str>) {
    let v = planted_json(p);
    assert!(!planted_report(p).passed(), "{}: {v:#}", p.name());
    assert_eq!(v["verdict"], "FAIL");
    // Rules differences of a healthy engine: exit status 1, not 3.
    assert_eq!(planted_report(p).exit_status(), 1, "{}: {v:#}", p.name());
    assert_eq!(v["exit_status"], 1);
    let h = &v["health"];
    assert_eq!(
        (h["crashes"].as_u64(), h["hangs"].as_u64()),
        (Some(0), Some(0))
    );
    let main = main_clauses(&v);
    assert_eq!(
        main.first().map(String::as_str),
        Some(p.clause()),
        "{}: {main:?}",
        p.name()
    );
    let r = readings(&v);
    match reading {
        Some(c) => assert!(r.iter().any(|x| x == c), "{}: {r:?}", p.name()),
        None => assert!(r.is_empty(), "{}: {r:?}", p.name()),
    }
}

/// Every planted fault has its test below (one each, so that they run side by side).
#[test]
fn every_plant_has_its_test() {
    let source = [include_str!("conform.rs"), include_str!("conform_cause.rs")].concat();
    for p in Plant::ALL {
        let named = format!("Plant::{p:?}");
        assert!(
            source.matches(&named).count() >= 1,
            "no test runs {} ({named})",
            p.name()
        );
    }
}

/// ORDO-7.2: ordo steps that capture are caught and named.
#[test]
fn ordo_7_2_planted_ordo_captures_is_caught() {
    assert_caught(Plant::OrdoCaptures, None);
}

/// ORDO-9.2: a split player without backward directions is caught and named.
#[test]
fn ordo_9_2_planted_no_backward_when_split_is_caught() {
    assert_caught(Plant::NoBackwardWhenSplit, None);
}

/// ORDOX-4.2: a tie capture without a kept group is caught, with the victim-chooses reading.
#[test]
fn ordox_4_2_planted_victim_chooses_is_caught() {
    assert_caught(Plant::VictimChooses, Some("ORDOX-4.2"));
}

/// ORDO-10.3: a player without moves who does not lose is caught, with its reading.
#[test]
fn ordo_10_3_planted_no_loss_without_moves_is_caught() {
    assert_caught(Plant::NoLossWithoutMoves, Some("ORDO-10.3"));
}

/// ORDO-5.2: maximal lines only is caught, with the maximal-run reading.
#[test]
fn ordo_5_2_planted_maximal_runs_only_is_caught() {
    assert_caught(Plant::MaximalRunsOnly, Some("ORDO-5.2"));
}

/// ORDO-9.2: a split player's horizontal ordos without a backward move are caught.
#[test]
fn ordo_9_2_planted_no_backward_ordo_when_split_is_caught() {
    assert_caught(Plant::NoBackwardOrdoWhenSplit, None);
}

/// ORDOX-4.1: removing only the groups next to the capture is caught, with its reading.
#[test]
fn ordox_4_1_planted_removes_adjacent_only_is_caught() {
    assert_caught(Plant::RemovesAdjacentOnly, Some("ORDOX-4.1"));
}

/// ORDOX-3.4: a sideways capture of the last piece that must go on is caught, with its reading.
#[test]
fn ordox_3_4_planted_sideways_last_capture_continues_is_caught() {
    assert_caught(Plant::SidewaysLastCaptureContinues, Some("ORDOX-3.4"));
}

/// ORDO-10.5: reporting `no-pieces` first is caught and named.
#[test]
fn ordo_10_5_planted_no_pieces_first_is_caught() {
    assert_caught(Plant::NoPiecesFirst, None);
}

/// An engine that refuses every move fails, with play-refused findings and no crash or hang.
#[test]
fn planted_refuses_play_is_caught() {
    let p = Plant::RefusesPlay;
    let v = planted_json(p);
    assert!(!planted_report(p).passed(), "{v:#}");
    assert_eq!(v["verdict"], "FAIL");
    let h = &v["health"];
    assert_eq!(
        (h["crashes"].as_u64(), h["hangs"].as_u64()),
        (Some(0), Some(0))
    );
    let k = kinds(&v);
    assert!(k.iter().any(|k| k == "play-refused"), "{k:?}");
}

/// ORDOX-4.1: the removal fault changes no move name; only the position read back with
/// `show` reveals it, as an effect finding.
#[test]
fn ordox_4_1_removal_is_caught_by_its_effect() {
    let k = kinds(&planted_json(Plant::RemovesAdjacentOnly));
    assert!(!k.is_empty() && k.iter().all(|k| k == "effect"), "{k:?}");
}

/// ORDO-10.5: a status that differs only in its reason says so and cites the ruling.
#[test]
fn ordo_10_5_reason_only_status_difference() {
    let report = planted_report(Plant::NoPiecesFirst).text();
    assert!(report.contains("same winner, reason differs"), "{report}");
    assert!(report.contains("[ORDO-10.5]"), "{report}");
}

/// ORDO-9.2: a missing backward ordo of a split player is ORDO-9.2, not the maximal-run
/// reading of ORDO-5.2.
#[test]
fn ordo_9_2_missing_backward_ordos_are_not_the_maximal_run_reading() {
    let v = planted_json(Plant::NoBackwardOrdoWhenSplit);
    assert_eq!(
        main_clauses(&v).first().map(String::as_str),
        Some("ORDO-9.2")
    );
    assert!(!readings(&v).iter().any(|r| r == "ORDO-5.2"), "{v:#}");
}

/// The report puts the summary first and collapses identical findings into one line.
#[test]
fn the_report_is_summary_first_and_collapsed() {
    let report = planted_report(Plant::VictimChooses).text();
    let verdict = report.find("verdict: FAIL").unwrap();
    let summary = report.find("SUMMARY").unwrap();
    let findings = report.find("FINDINGS (identical ones collapsed)").unwrap();
    assert!(verdict < summary && summary < findings, "{report}");
    let collapsed = report
        .lines()
        .find(|l| l.contains("× [ORDOX-4.2]"))
        .unwrap_or_else(|| panic!("{report}"));
    let n: usize = collapsed.trim().split('×').next().unwrap().parse().unwrap();
    assert!(n > 1, "{collapsed}");
}

/// A malformed request answered with the wrong code is a protocol finding; an engine that
/// refuses an accepted spelling of a move likewise.
#[test]
fn protocol_probes_check_error_codes_and_spellings() {
    // An engine that answers every request it does not know with `error bad-arguments`.
    let dir = crate::common::scratch("conform-probe");
    let script = dir.join("wrap.sh");
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh\n'{ORDO}' engine | sed -u 's/^error unknown-command/error bad-arguments/'\n"
        ),
    )
    .unwrap();
    let (code, v) = conform_json(&format!("sh '{}'", script.display()), &[]);
    assert_eq!(code, Some(1), "{v:#}");
    let protocol: Vec<&Value> = v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["kind"] == "protocol")
        .collect();
    assert!(
        protocol
            .iter()
            .any(|f| f["summary"].as_str().unwrap().contains("frobnicate")),
        "{v:#}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn conform_survives_a_crash() {
    let (code, report, took) = conform("read x; exit 3", &["--timeout-ms", "2000"]);
    assert_eq!(code, Some(3), "{report}");
    assert!(report.contains("crash"), "{report}");
    assert!(report.contains("exited with status 3"), "{report}");
    assert!(took < Duration::from_secs(20), "{took:?}");
}

#[test]
fn conform_survives_a_hang() {
    let (code, report, took) = conform("sleep 100", &["--timeout-ms", "300"]);
    assert_eq!(code, Some(3), "{report}");
    assert!(
        report.contains("hang — no reply to 'ordo 1' within 300 ms"),
        "{report}"
    );
    assert!(took < Duration::from_secs(20), "{took:?}");
}

#[test]
fn conform_survives_garbage() {
    let (code, report, took) = conform("yes garbage", &["--timeout-ms", "2000"]);
    assert_eq!(code, Some(3), "{report}");
    assert!(report.contains("garbage — the handshake"), "{report}");
    assert!(took < Duration::from_secs(20), "{took:?}");
}

/// An engine that shakes hands and then never answers: each hang is killed, the engine
/// restarted, until conform gives up; all within a bounded time.
#[test]
fn conform_restarts_an_engine_that_hangs_later() {
    let engine = "read x; echo 'ordo 1 ok name sleepy'; sleep 100";
    let (code, report, took) = conform(engine, &["--timeout-ms", "300"]);
    assert_eq!(code, Some(3), "{report}");
    assert!(report.contains("hang — no reply to"), "{report}");
    // Counts in words that agree with their number.
    assert!(
        report.contains(" 1 restart\n")
            || report.contains(" 1 restart,")
            || report.contains(" restarts"),
        "{report}"
    );
    assert!(
        !report.contains("(s)") && !report.contains("(es)"),
        "{report}"
    );
    assert!(report.contains("STOPPED"), "{report}");
    assert!(took < Duration::from_secs(60), "{took:?}");
}

/// An engine that answers with the wrong kind of reply mid-run: reported as garbage, and the
/// run goes on to the end or stops after too many.
#[test]
fn conform_reports_garbage_answers_mid_run() {
    let engine = "read x; echo 'ordo 1 ok name echo'; while read l; do echo \"what is $l\"; done";
    let (code, report, took) = conform(engine, &["--timeout-ms", "2000"]);
    assert_eq!(code, Some(3), "{report}");
    assert!(report.contains("garbage —"), "{report}");
    assert!(report.contains("garbage"), "{report}");
    assert!(took < Duration::from_secs(40), "{took:?}");
}

#[test]
fn conform_rejects_bad_arguments() {
    let o = Command::new(ORDO)
        .args([
            "conform",
            "--engine",
            "true",
            "--vectors",
            "/nonexistent/ordo/vectors",
        ])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert_eq!(err.lines().count(), 1, "{err}");
    for args in [&["conform", "--engine", "  "][..], &["conform"][..]] {
        let o = Command::new(ORDO).args(args).output().unwrap();
        assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    }
}

/// The kit runs from any folder: `ordo conform` and `ordo conformance check` read
/// the vectors and the case suite built into the program, so an implementer runs them from
/// their own project's folder, where no `spec/` exists; `--vectors DIR` still overrides, and
/// a folder without vector files is refused naming the flag.
#[test]
fn the_kit_runs_from_an_empty_folder() {
    let dir = crate::common::scratch("kit-anywhere");
    let engine = format!("'{ORDO}' engine");
    let run = |args: &[&str]| {
        let o = Command::new(ORDO)
            .args(args)
            .current_dir(&dir)
            .output()
            .expect("run ordo");
        (o.status.code(), text(&o))
    };
    let (code, out) = run(&["conform", "--engine", &engine, "--playouts", "1"]);
    assert_eq!(code, Some(0), "{out}");
    assert!(out.contains("PASS"), "{out}");
    let (code, out) = run(&["conformance", "check", "--engine", "bitboard"]);
    assert_eq!(code, Some(0), "{out}");
    assert!(out.contains(" vectors match, 0 differ"), "{out}");
    let (code, out) = run(&["conform", "--engine", &engine, "--vectors", "."]);
    assert_eq!(code, Some(2), "{out}");
    assert!(out.contains("--vectors") && out.contains("no"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}
