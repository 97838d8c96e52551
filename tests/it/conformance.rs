//! The conformance kit proves itself: the committed vectors parse, cover every clause, match
//! both engines and regenerate byte for byte; `ordo engine` follows spec/protocol.md (its
//! examples are replayed); and `ordo conform` passes our own engines, catches each planted
//! deviation with the right clause (and names the known reading where there is one), and
//! survives engines that crash, hang or answer garbage.

use std::collections::BTreeSet;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use crate::common::ordo_cmd as ordo;
use ordo_conformance::vectors::{self, Located, Vector};
use ordo_core::rules::clauses;

const ORDO: &str = env!("CARGO_BIN_EXE_ordo");

fn vector_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("spec/conformance")
}

/// The vectors built into the program are the committed files of `spec/conformance/`, byte for
/// byte, so `ordo conform` run from any folder checks what the repository publishes.
#[test]
fn built_in_vectors_are_the_committed_files() {
    for (name, text) in vectors::BUILT_IN {
        let file = std::fs::read_to_string(vector_dir().join(name)).unwrap();
        assert!(
            file == text,
            "{name}: the built-in copy differs from spec/conformance"
        );
    }
    let names: Vec<&str> = vectors::BUILT_IN.iter().map(|v| v.0).collect();
    assert_eq!(names, [vectors::CLAUSES_FILE, vectors::PLAYOUTS_FILE]);
    assert_eq!(vectors::built_in().unwrap().len(), committed().len());
}

fn committed() -> Vec<Located> {
    vectors::read_dir(&vector_dir()).unwrap_or_else(|e| panic!("{e}"))
}

/// One protocol session: `ordo ARGS` fed `input` on stdin, until it exits.
fn engine_session(args: &[&str], input: &[u8]) -> Output {
    let mut child = Command::new(ORDO)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(input).unwrap();
    child.wait_with_output().unwrap()
}

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

fn temp_dir(name: &str) -> PathBuf {
    crate::common::scratch(&format!("conformance-{name}"))
}

// ---- The vector files ----

#[test]
fn files_parse_and_are_well_formed() {
    let all = committed();
    let files: BTreeSet<&str> = all.iter().map(|l| l.file.as_str()).collect();
    assert_eq!(
        files,
        BTreeSet::from([vectors::CLAUSES_FILE, vectors::PLAYOUTS_FILE])
    );
    let mut ids = BTreeSet::new();
    for lv in &all {
        let v = &lv.vector;
        assert!(ids.insert(v.id.clone()), "duplicate id {}", v.id);
        let problems = vectors::lint(v);
        assert!(
            problems.is_empty(),
            "{} line {}: {problems:?}",
            lv.file,
            lv.line
        );
        assert!(!v.clauses.is_empty(), "{} names no clause", v.id);
        assert!(!v.perft.is_empty() && v.perft.len() <= 3, "{}", v.id);
        // Ordo X on the standard board: perft to depth 1 only.
        if v.variant == "x" && v.position.matches('/').count() == 7 && v.moves.len() > 500 {
            assert_eq!(v.perft.len(), 1, "{}", v.id);
        }
    }
    let playouts = all
        .iter()
        .filter(|l| l.file == vectors::PLAYOUTS_FILE)
        .count();
    assert_eq!(playouts, vectors::PLAYOUT_COUNT);
    // The field order of spec/conformance/README.md.
    let first = std::fs::read_to_string(vector_dir().join(vectors::CLAUSES_FILE)).unwrap();
    let line = first.lines().next().unwrap();
    let order = [
        "\"id\"",
        "\"variant\"",
        "\"position\"",
        "\"moves\"",
        "\"status\"",
        "\"clauses\"",
        "\"perft\"",
        "\"note\"",
    ];
    let at: Vec<usize> = order.iter().map(|k| line.find(k).unwrap()).collect();
    assert!(at.windows(2).all(|w| w[0] < w[1]), "{line}");
}

#[test]
fn every_clause_is_exercised_by_a_vector() {
    let all: Vec<Vector> = committed().into_iter().map(|l| l.vector).collect();
    let named = vectors::exercised_clauses(&all);
    let registry: BTreeSet<String> = clauses::registry()
        .clauses
        .iter()
        .map(|c| c.id.clone())
        .collect();
    let missing: Vec<&String> = registry.difference(&named).collect();
    assert!(missing.is_empty(), "clauses without a vector: {missing:?}");
    let unknown: Vec<&String> = named.difference(&registry).collect();
    assert!(
        unknown.is_empty(),
        "vectors name unknown clauses: {unknown:?}"
    );
    // Every clause also has a vector of its own in clauses.jsonl (the case suite).
    let hand: Vec<Vector> = committed()
        .into_iter()
        .filter(|l| l.file == vectors::CLAUSES_FILE)
        .map(|l| l.vector)
        .collect();
    let hand_named = vectors::exercised_clauses(&hand);
    let missing: Vec<&String> = registry.difference(&hand_named).collect();
    assert!(
        missing.is_empty(),
        "clauses without a vector in clauses.jsonl: {missing:?}"
    );
}

#[test]
fn the_unreachable_clauses_are_noted() {
    let all = committed();
    for clause in ["ORDO-10.4", "ORDOX-3.3"] {
        let v = all
            .iter()
            .map(|l| &l.vector)
            .find(|v| v.clauses.iter().any(|c| c == clause) && v.note.contains(clause))
            .unwrap_or_else(|| panic!("no vector notes why {clause} has no example"));
        assert_eq!(v.status, vectors::VectorStatus::Ongoing, "{}", v.id);
        assert!(!v.moves.is_empty());
    }
}

#[test]
fn reference_engine_matches_the_files() {
    let m = vectors::check::<ordo_reference::Reference>(&committed());
    assert!(m.is_empty(), "{m:#?}");
}

#[test]
fn bitboard_engine_matches_the_files() {
    let m = vectors::check::<ordo_bitboard::Bitboard>(&committed());
    assert!(m.is_empty(), "{m:#?}");
}

#[test]
fn conformance_check_command() {
    let dir = vector_dir();
    for engine in ["reference", "bitboard"] {
        let o = ordo(&[
            "conformance",
            "check",
            "--engine",
            engine,
            "--dir",
            dir.to_str().unwrap(),
        ]);
        assert_eq!(o.status.code(), Some(0), "{}", text(&o));
        assert!(text(&o).contains("differ"), "{}", text(&o));
    }
    // A tampered file is reported with exit status 1.
    let tmp = temp_dir("tampered");
    let original = std::fs::read_to_string(dir.join(vectors::CLAUSES_FILE)).unwrap();
    let tampered = original.replacen("\"moves\":[\"", "\"moves\":[\"a1-a1\",\"", 1);
    std::fs::write(tmp.join("clauses.jsonl"), tampered).unwrap();
    let o = ordo(&["conformance", "check", "--dir", tmp.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(text(&o).contains("MISMATCH"), "{}", text(&o));
    let o = ordo(&["conformance", "check", "--dir", "/nonexistent/ordo/vectors"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    let _ = std::fs::remove_dir_all(&tmp);
}

#[test]
fn regeneration_is_deterministic() {
    let tmp = temp_dir("generate");
    let o = ordo(&["conformance", "generate", "--dir", tmp.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    for name in [vectors::CLAUSES_FILE, vectors::PLAYOUTS_FILE] {
        let fresh = std::fs::read(tmp.join(name)).unwrap();
        let kept = std::fs::read(vector_dir().join(name)).unwrap();
        assert!(
            fresh == kept,
            "{name} differs from a fresh `ordo conformance generate`; regenerate and review"
        );
    }
    // Written atomically: nothing but the two files is left behind.
    let left: Vec<String> = std::fs::read_dir(&tmp)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(left.len(), 2, "{left:?}");
    let _ = std::fs::remove_dir_all(&tmp);
}

// ---- The protocol ----

/// Replay every example session of spec/protocol.md (blocks of `> request` / `< reply` lines,
/// or `client:` / `engine:` lines) against `ordo engine`.
#[test]
fn protocol_examples_hold() {
    let doc =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("spec/protocol.md"))
            .unwrap();
    let mut sessions: Vec<Vec<(bool, String)>> = Vec::new();
    let mut in_block = false;
    for line in doc.lines() {
        if line.starts_with("```") {
            in_block = !in_block;
            if in_block {
                sessions.push(Vec::new());
            }
            continue;
        }
        if !in_block {
            continue;
        }
        let entry = if let Some(r) = line.strip_prefix("> ").or(line.strip_prefix("client: ")) {
            Some((true, r.to_string()))
        } else {
            line.strip_prefix("< ")
                .or(line.strip_prefix("engine: "))
                .map(|r| (false, r.to_string()))
        };
        if let Some(e) = entry {
            sessions.last_mut().unwrap().push(e);
        }
    }
    sessions.retain(|s| !s.is_empty());
    assert!(
        sessions.len() >= 8,
        "found {} example sessions",
        sessions.len()
    );
    for session in sessions {
        let mut input = String::new();
        let mut expected = Vec::new();
        if !session[0].1.starts_with("ordo ") {
            input.push_str("ordo 1\n");
            expected.push("ordo 1 ok name".to_string());
        }
        for (is_request, l) in &session {
            if *is_request {
                input.push_str(l);
                input.push('\n');
            } else {
                expected.push(l.clone());
            }
        }
        let out = engine_session(&["engine"], input.as_bytes());
        let got: Vec<String> = String::from_utf8_lossy(&out.stdout)
            .lines()
            .map(String::from)
            .collect();
        assert_eq!(got.len(), expected.len(), "input:\n{input}\ngot:\n{got:#?}");
        for (g, e) in got.iter().zip(&expected) {
            if e.starts_with("ordo 1 ok name") {
                assert!(g.starts_with("ordo 1 ok name "), "{g}");
            } else {
                assert_eq!(g, e, "input:\n{input}");
            }
        }
    }
}

#[test]
fn every_error_code_is_documented() {
    let doc =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("spec/protocol.md"))
            .unwrap();
    for code in ordo_conformance::protocol::codes::ALL {
        assert!(
            doc.contains(&format!("| `{code}` |")),
            "{code} is not in the table"
        );
    }
}

/// `ordo engine` serves both engines and knows nothing of planted deviations: they are test
/// tooling (the example `planted-engine`), and `--plant` is no option of the product.
#[test]
fn engine_serves_both_engines_and_has_no_plants() {
    for engine in ["reference", "bitboard"] {
        let out = engine_session(
            &["engine", "--engine", engine],
            b"ordo 1\nvariant x\nmoves\nplay a2:a3-a3\nstatus\n",
        );
        assert!(out.status.success());
        let lines: Vec<String> = String::from_utf8_lossy(&out.stdout)
            .lines()
            .map(String::from)
            .collect();
        assert!(lines[0].starts_with(&format!("ordo 1 ok name ordo {engine}")));
        assert_eq!(lines[2].split_whitespace().count(), 1 + 2062);
        assert_eq!(lines[3], "ok");
        assert_eq!(lines[4], "status ongoing");
    }
    let help = text(&ordo(&["engine", "--help"]));
    assert!(!help.contains("plant"), "{help}");
    let o = ordo(&["engine", "--plant", "ordo-captures"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o).contains("unexpected argument '--plant'"),
        "{}",
        text(&o)
    );
}
