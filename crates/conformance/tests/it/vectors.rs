//! The committed vectors of `spec/conformance/`: they are the files built into the program,
//! parse, are well formed, exercise every clause (the unreachable ones noted) and match both
//! engines; every error code of the protocol is documented in spec/protocol.md.

use std::collections::BTreeSet;
use std::path::PathBuf;

use ordo_conformance::vectors::{self, Located, Vector};
use ordo_core::rules::clauses;

fn vector_dir() -> PathBuf {
    crate::workspace().join("spec/conformance")
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
fn every_error_code_is_documented() {
    let doc = std::fs::read_to_string(crate::workspace().join("spec/protocol.md")).unwrap();
    for code in ordo_conformance::protocol::codes::ALL {
        assert!(
            doc.contains(&format!("| `{code}` |")),
            "{code} is not in the table"
        );
    }
}

/// A vector file over its bound (a sparse file of 4 GiB) is refused from its size, an endless
/// one (a link to `/dev/zero`) at the bound, before anything is parsed.
#[test]
fn vector_files_are_read_within_their_bound() {
    let dir = crate::scratch("vectors-bounds");
    let big = dir.join("big.jsonl");
    std::fs::File::create(&big)
        .unwrap()
        .set_len(4 << 30)
        .unwrap();
    let e = vectors::read_dir(&dir).unwrap_err().to_string();
    assert!(
        e.contains("big.jsonl: a vector file has at most 16 MiB"),
        "{e}"
    );
    assert!(e.contains("4294967296 bytes"), "{e}");
    std::fs::remove_file(&big).unwrap();
    std::os::unix::fs::symlink("/dev/zero", dir.join("zero.jsonl")).unwrap();
    let e = vectors::read_dir(&dir).unwrap_err().to_string();
    assert!(
        e.contains("zero.jsonl: a vector file has at most 16 MiB"),
        "{e}"
    );
    assert!(e.contains("read no further"), "{e}");
    let _ = std::fs::remove_dir_all(&dir);
}
