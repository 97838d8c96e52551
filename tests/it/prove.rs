//! `ordo prove`: a start proved with its certificate, the certificate judged on the reference
//! engine, a damaged one refused with the line where it fails, bad input refused with one line.

use crate::common::{assert_ok, assert_refused, ordo_cmd, stderr, stdout};
use ordo_cli::cli::bar::grouped;

fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("ordo-it-prove-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Ordo X 3 x 4 from the two-row setup is a Black win (analysis/games.md): proved, written,
/// checked; one byte changed and the check refuses it (exit 1).
#[test]
fn a_proved_start_writes_a_certificate_that_checks() {
    let dir = scratch("cert");
    let cert = dir.join("x-3x4-row2.cert");
    let c = cert.to_str().unwrap();
    let o = ordo_cmd(&[
        "prove",
        "-q",
        "--variant",
        "x",
        "--board",
        "3x4",
        "--setup",
        "row2",
        "--certificate",
        c,
    ]);
    assert_ok(&o);
    assert!(stdout(&o).contains("result: Black wins"), "{}", stdout(&o));
    let o = ordo_cmd(&["prove", "--check", c]);
    assert_ok(&o);
    assert!(
        stdout(&o).contains("holds on the reference engine"),
        "{}",
        stdout(&o)
    );
    assert!(stdout(&o).contains("result: Black wins"));
    let text = std::fs::read_to_string(&cert).unwrap();
    std::fs::write(&cert, text.replacen(" all ", " one ", 1)).unwrap();
    let o = ordo_cmd(&["prove", "--check", c]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("refused"), "{}", stderr(&o));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The JSON report names the result and the proof's size.
#[test]
fn the_json_report_names_the_result() {
    let o = ordo_cmd(&[
        "prove",
        "-q",
        "--json",
        "--variant",
        "classic",
        "--board",
        "3x3",
        "--setup",
        "row1",
    ]);
    assert_ok(&o);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["result"], "White wins");
    // The solver's quickest win is 3 plies (analysis/games.md); a proof's longest line is
    // no shorter, and odd (the winner moves last).
    let longest = v["parts"][0]["longest"].as_u64().unwrap();
    assert!(longest >= 3 && longest % 2 == 1, "{longest}");
}

/// A quiet proof of the Ordo X 4 x 4 start from the two-row setup, a White win in 13 plies.
const X_4X4_ROW2: [&str; 8] = [
    "prove",
    "-q",
    "--variant",
    "x",
    "--board",
    "4x4",
    "--setup",
    "row2",
];

/// `--weak` reaches the search: Ordo X 4 x 4 row2, a White win (analysis/games.md), is proved
/// with and without it, through different numbers of nodes.
#[test]
fn weak_proof_numbers_prove_the_same_value_by_another_search() {
    let nodes = |weak: bool| {
        let flags: &[&str] = if weak {
            &["--json", "--weak"]
        } else {
            &["--json"]
        };
        let o = ordo_cmd(&[&X_4X4_ROW2[..], flags].concat());
        assert_ok(&o);
        let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
        assert_eq!(v["result"], "White wins");
        v["nodes"].as_u64().unwrap()
    };
    assert_ne!(nodes(true), nodes(false));
}

/// A budget too small to prove anything says so, with exit status 1.
#[test]
fn a_spent_budget_is_not_proved() {
    let o = ordo_cmd(&[
        "prove",
        "-q",
        "--variant",
        "x",
        "--board",
        "4x5",
        "--setup",
        "row2",
        "--nodes",
        "5",
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("not proved within the budget"),
        "{}",
        stdout(&o)
    );
}

/// `--within N`: Ordo X 4 x 4 from the two-row setup is a White win in 13 plies
/// (analysis/games.md), so a win within 13 is proved, with a certificate whose longest line
/// is 13 and which holds on the reference engine, and a win within 11 is refuted (ORDO-10.1).
#[test]
fn a_bounded_proof_finds_the_quickest_win_and_no_quicker() {
    let dir = scratch("within");
    let cert = dir.join("x-4x4-row2-13.cert");
    let c = cert.to_str().unwrap();
    let args = X_4X4_ROW2;
    let o = ordo_cmd(&[&args[..], &["--within", "13", "--certificate", c]].concat());
    assert_ok(&o);
    assert!(
        stdout(&o).contains("result: White wins within 13 plies"),
        "{}",
        stdout(&o)
    );
    assert!(
        stdout(&o).contains("longest line 13 plies"),
        "{}",
        stdout(&o)
    );
    let o = ordo_cmd(&["prove", "--check", c]);
    assert_ok(&o);
    assert!(
        stdout(&o).contains("longest line: 13 plies"),
        "{}",
        stdout(&o)
    );
    let o = ordo_cmd(&[&args[..], &["--within", "11", "--json"]].concat());
    assert_ok(&o);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["result"], "White cannot win within 11 plies");
    assert_eq!(v["within"], 11);
    assert_eq!(v["parts"].as_array().map(Vec::len), Some(0));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_input_is_one_line_with_status_2() {
    assert_refused(&ordo_cmd(&["prove", "--board", "5x5"]));
    assert_refused(&ordo_cmd(&["prove", "--board", "3x3", "--setup", "row9"]));
    assert_refused(&ordo_cmd(&["prove", "--position", "nonsense"]));
    assert_refused(&ordo_cmd(&["prove", "--check", "/nonexistent/cert"]));
    assert_refused(&ordo_cmd(&[
        "prove", "--board", "3x3", "--setup", "row1", "--time", "-1",
    ]));
    assert_refused(&ordo_cmd(&[
        "prove", "--board", "3x3", "--setup", "row1", "--within", "0",
    ]));
    assert_refused(&ordo_cmd(&[
        "prove", "--board", "3x3", "--setup", "row1", "--within", "10001",
    ]));
}

/// The longer proofs of the row2 5 x 5 starts (`bash analysis/run.sh --long-proofs`): both
/// reports prove the solver's value (White wins, analysis/compact/), with a longest line no
/// shorter than the solver's quickest win, and have their certificates' checksum lines in
/// `long.b3` (with these two, every board the solver solved is proved).
#[test]
fn the_published_long_proofs_agree_with_the_solver() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("analysis");
    let b3 = std::fs::read_to_string(root.join("proofs/long.b3")).unwrap();
    let mut reports = 0;
    for v in ["x", "classic"] {
        let Ok(text) = std::fs::read_to_string(root.join(format!("proofs/{v}-5x5-row2.json")))
        else {
            continue;
        };
        reports += 1;
        let p: serde_json::Value = serde_json::from_str(&text).unwrap();
        let solver: serde_json::Value = serde_json::from_str(
            &std::fs::read_to_string(root.join(format!("compact/{v}-5x5-row2.json"))).unwrap(),
        )
        .unwrap();
        assert_eq!(solver["start"], "win");
        let cert = format!(" {v}-5x5-row2.cert");
        let line = b3.lines().find(|l| l.ends_with(&cert));
        assert_eq!(p["result"], "White wins", "{v}");
        assert!(line.is_some_and(|l| l.starts_with("blake3 ")), "{v}");
        let longest = p["parts"][0]["longest"].as_u64().unwrap();
        assert!(longest >= solver["optimal_length"].as_u64().unwrap(), "{v}");
    }
    assert_eq!(reports, 2);
    assert_eq!(
        b3.lines().count(),
        2,
        "a checksum line for every proof, no more"
    );
}

/// The row2 6 x 5 proofs (`bash analysis/run.sh --row2-6x5`), beyond what the solver has
/// enumerated: every report that proves its start has its certificate's closing BLAKE3 line in
/// `row2-6x5.b3` (one line a proved report, no more), a longest line that is odd (the winner
/// moves last, ORDO-10.1), and its node counts quoted in analysis/README.md.
#[test]
fn the_published_row2_6x5_proofs_have_their_checksums() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("analysis");
    let b3 = std::fs::read_to_string(root.join("proofs/row2-6x5.b3")).unwrap();
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let mut proved = 0;
    for v in ["x", "classic"] {
        let Ok(text) = std::fs::read_to_string(root.join(format!("proofs/{v}-6x5-row2.json")))
        else {
            continue;
        };
        let p: serde_json::Value = serde_json::from_str(&text).unwrap();
        if p["parts"].as_array().is_none_or(Vec::is_empty) {
            continue;
        }
        proved += 1;
        assert_eq!(p["position"].as_str().unwrap().split(' ').nth(1), Some("w"));
        let cert = format!(" {v}-6x5-row2.cert");
        let line = b3.lines().find(|l| l.ends_with(&cert));
        assert!(line.is_some_and(|l| l.starts_with("blake3 ")), "{v}");
        assert_eq!(p["parts"][0]["longest"].as_u64().unwrap() % 2, 1, "{v}");
        for n in [&p["nodes"], &p["parts"][0]["nodes"]] {
            let quoted = grouped(n.as_u64().unwrap());
            assert!(readme.contains(&quoted), "{v}: README lacks {quoted}");
        }
    }
    assert!(proved >= 1, "no row2 6 x 5 start proved");
    assert_eq!(
        b3.lines().count(),
        proved,
        "a checksum line a proof, no more"
    );
}

/// The published proofs (analysis/proofs/, `bash analysis/run.sh --proofs`) agree with the
/// retrograde solver's records: a row for every solved board, every proved start with the
/// solver's value and a certificate that held on the reference engine with the same result,
/// its longest line no shorter than the solver's quickest win (and within the bound of a win
/// proved bounded), one checksum line per certificate, and the Markdown table listing the same rows.
#[test]
fn the_published_proofs_agree_with_the_solver() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("analysis");
    let rows: Vec<serde_json::Value> = std::fs::read_to_string(root.join("proofs/proofs.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let mut solved = Vec::new();
    for dir in ["games", "compact"] {
        for f in std::fs::read_dir(root.join(dir)).unwrap() {
            let path = f.unwrap().path();
            let name = path.file_name().unwrap().to_str().unwrap().to_string();
            if name.ends_with("-row1.json") || name.ends_with("-row2.json") {
                let v: serde_json::Value =
                    serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
                solved.push(v);
            }
        }
    }
    assert_eq!(solved.len(), 34);
    assert_eq!(rows.len(), solved.len());
    let mut proved = 0;
    for s in &solved {
        let key =
            |v: &serde_json::Value| (v["variant"].clone(), v["board"].clone(), v["setup"].clone());
        let row = rows
            .iter()
            .find(|r| key(r) == key(s))
            .expect("a row for every solved board");
        assert_eq!(row["solver"], s["start"]);
        let proof = row["proof"].as_str().unwrap();
        if proof == "not proved within the budget" {
            assert_eq!(row["checked"], "none");
            continue;
        }
        let want = match s["start"].as_str().unwrap() {
            "win" => "White wins",
            "loss" => "Black wins",
            _ => "draw",
        };
        assert!(proof.starts_with(want), "{row}");
        assert!(row["checked"].as_str().unwrap().starts_with(want), "{row}");
        if want != "draw" {
            // A proof's longest line is no shorter than the quickest forced win, and a
            // win proved by a bounded search comes within its bound.
            let longest = row["longest"].as_u64().unwrap();
            assert!(longest >= s["optimal_length"].as_u64().unwrap(), "{row}");
            if let Some(bound) = row["bounded"].as_u64() {
                assert!(longest <= bound, "{row}");
            }
        }
        proved += 1;
    }
    let b3 = std::fs::read_to_string(root.join("proofs/proofs.b3")).unwrap();
    assert_eq!(b3.lines().count(), proved);
    assert!(b3
        .lines()
        .all(|l| l.starts_with("blake3 ") && l.ends_with(".cert")));
    let md = std::fs::read_to_string(root.join("proofs/proofs.md")).unwrap();
    assert_eq!(
        md.lines().filter(|l| l.starts_with("| Ordo")).count(),
        rows.len()
    );
}

/// The published 10 x 8 problems composed from random games (analysis/problems/games.*,
/// `bash analysis/run.sh --problems`) hold: each proved again by the proof search is sound
/// with the quickest win it published, and writes the very certificate whose checksum is
/// published (the search is deterministic), whose longest line is within the stipulation.
#[test]
fn the_published_game_problems_prove_again_with_the_same_certificates() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("analysis/problems");
    let dir = crate::common::scratch("game-problems");
    let o = ordo_cmd(&[
        "problem",
        "verify",
        root.join("games.toml").to_str().unwrap(),
        "--method",
        "prove",
        "--json",
        "--certificates",
        dir.to_str().unwrap(),
    ]);
    assert_ok(&o);
    let reports: Vec<serde_json::Value> = stdout(&o)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let md = std::fs::read_to_string(root.join("games.md")).unwrap();
    let b3 = std::fs::read_to_string(root.join("games.b3")).unwrap();
    assert!(reports.len() >= 10, "{} problems", reports.len());
    assert_eq!(b3.lines().count(), reports.len());
    for r in &reports {
        let id = r["id"].as_str().unwrap();
        assert_eq!(r["sound"], true, "{r}");
        let row = md
            .lines()
            .find(|l| l.starts_with(&format!("| {id} |")))
            .unwrap_or_else(|| panic!("{id} is not in games.md"));
        assert!(
            row.contains(&format!("| {} plies |", r["shortest"])),
            "{row}"
        );
        let cert = dir.join(format!("{id}.cert"));
        let closing = std::fs::read_to_string(&cert).unwrap();
        let line = format!("{} {id}.cert", closing.lines().last().unwrap());
        assert!(b3.lines().any(|l| l == line), "{line} is not in games.b3");
        let checked = stdout(&ordo_cmd(&["prove", "--check", cert.to_str().unwrap()]));
        let longest: u32 = checked
            .split("longest line: ")
            .nth(1)
            .and_then(|s| s.split(' ').next())
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(|| panic!("{checked}"));
        // Within the bound that proved it, and no shorter: a quicker forced line would have
        // been proved at the smaller bound, which was refuted.
        assert_eq!(
            u64::from(longest) + 1,
            r["shortest"].as_u64().unwrap(),
            "{checked}"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The published cross-check of the proof search against the 10 x 8 tables
/// (analysis/proofs/tables-10x8.*, `bash analysis/run.sh --prove-tables`): thousands of
/// positions, material up to 5 against 5 in both games, no difference from the tables, each run's tally adding up, and the Markdown
/// table showing every run.
#[test]
fn the_published_table_cross_check_found_no_difference() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("analysis/proofs");
    let runs: Vec<serde_json::Value> = std::fs::read_to_string(root.join("tables-10x8.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let n = |r: &serde_json::Value, k: &str| r[k].as_u64().unwrap();
    let samples: u64 = runs.iter().map(|r| n(r, "samples")).sum();
    assert!(samples >= 2000, "{samples} positions");
    for game in ["classic", "x"] {
        assert!(
            runs.iter()
                .any(|r| r["max"] == "5v5" && r["variant"] == game),
            "no {game} run reaches 5 against 5"
        );
    }
    for r in &runs {
        assert_eq!(r["differences"].as_array().unwrap().len(), 0, "{r}");
        assert_eq!(
            n(r, "proved") + n(r, "one_side") + n(r, "open"),
            n(r, "samples"),
            "{r}"
        );
        assert!(n(r, "bounded") > 0, "{r}");
    }
    let md = std::fs::read_to_string(root.join("tables-10x8.md")).unwrap();
    assert_eq!(
        md.lines().filter(|l| l.starts_with("| Ordo")).count(),
        runs.len()
    );
}

/// The published attempts at row2 6 x 6 and the 8 x 8 board (analysis/proofs/attempts.jsonl,
/// `bash analysis/run.sh --attempts`): one line for each of the four starts, each with the
/// budget it had and the root's numbers it reached, and the README quoting those numbers.
#[test]
fn the_published_attempts_give_their_numbers() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("analysis");
    let rows: Vec<serde_json::Value> = std::fs::read_to_string(root.join("proofs/attempts.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let starts: Vec<(String, String)> = rows
        .iter()
        .map(|r| (r["variant"].to_string(), r["board"].to_string()))
        .collect();
    for v in ["\"classic\"", "\"x\""] {
        for b in ["\"6x6\"", "\"8x8\""] {
            assert!(starts.contains(&(v.into(), b.into())), "{v} {b}");
        }
    }
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    for r in &rows {
        let n = |k: &str| r[k].as_u64().unwrap();
        assert!(
            n("nodes") > 0 && n("proof") > 0 && n("budget_seconds") > 0,
            "{r}"
        );
        let numbers = format!("{} / {}", grouped(n("proof")), grouped(n("disproof")));
        assert!(
            readme.contains(&numbers),
            "analysis/README.md does not quote {numbers}"
        );
    }
}
