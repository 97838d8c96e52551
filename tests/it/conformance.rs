//! The conformance kit proves itself through the command line (the committed vectors' own
//! tests are in `crates/conformance/tests/`): the vectors regenerate byte for byte;
//! `ordo engine` follows spec/protocol.md (its examples are replayed); and `ordo conform` passes our own engines, catches each planted
//! deviation with the right clause (and names the known reading where there is one), and
//! survives engines that crash, hang or answer garbage.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use crate::common::ordo_cmd as ordo;
use ordo_conformance::vectors;

const ORDO: &str = env!("CARGO_BIN_EXE_ordo");

fn vector_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("spec/conformance")
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
