//! `ordo prove`: a start proved with its certificate, the certificate judged on the reference
//! engine, a damaged one refused with the line where it fails, bad input refused with one line.

use crate::common::{assert_ok, assert_refused, ordo_cmd, stderr, stdout};

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

#[test]
fn bad_input_is_one_line_with_status_2() {
    assert_refused(&ordo_cmd(&["prove", "--board", "5x5"]));
    assert_refused(&ordo_cmd(&["prove", "--board", "3x3", "--setup", "row9"]));
    assert_refused(&ordo_cmd(&["prove", "--position", "nonsense"]));
    assert_refused(&ordo_cmd(&["prove", "--check", "/nonexistent/cert"]));
    assert_refused(&ordo_cmd(&[
        "prove", "--board", "3x3", "--setup", "row1", "--time", "-1",
    ]));
}

/// The published proofs (analysis/proofs/, `bash analysis/run.sh --proofs`) agree with the
/// retrograde solver's records: a row for every solved board, every proved start with the
/// solver's value and a certificate that held on the reference engine with the same result,
/// one checksum line per certificate, and the Markdown table listing the same rows.
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
