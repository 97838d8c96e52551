//! Traceability between spec/clauses.toml, the code and the tests: every clause of the registry
//! is cited by the code (src/) and by a test (tests/), and every clause id cited anywhere in the
//! code or the tests exists in the registry. Also: spec/rules.md is exactly what the registry
//! renders to.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use ordo::rules::clauses::{is_clause_id, registry, render_markdown, Registry};

/// Every clause id cited in the `.rs` files under `dir`, with the first file citing it.
fn citations(dir: &Path) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let text = std::fs::read_to_string(&path).unwrap();
                for id in ids_in(&text) {
                    out.entry(id).or_insert_with(|| path.display().to_string());
                }
            }
        }
    }
    out
}

/// The clause ids in a text: `ORDO-`/`ORDOX-` followed by `<digits>.<digits>`.
fn ids_in(text: &str) -> BTreeSet<String> {
    let bytes = text.as_bytes();
    let mut out = BTreeSet::new();
    let mut i = 0;
    while let Some(pos) = text[i..].find("ORDO") {
        let start = i + pos;
        let mut j = start + 4;
        if bytes.get(j) == Some(&b'X') {
            j += 1;
        }
        if bytes.get(j) == Some(&b'-') {
            j += 1;
            let digits = |mut k: usize| {
                while k < bytes.len() && bytes[k].is_ascii_digit() {
                    k += 1;
                }
                k
            };
            let a = digits(j);
            if a > j && bytes.get(a) == Some(&b'.') {
                let b = digits(a + 1);
                if b > a + 1 {
                    let id = &text[start..b];
                    assert!(is_clause_id(id));
                    out.insert(id.to_string());
                }
            }
        }
        i = start + 4;
    }
    out
}

#[test]
fn registry_parses_with_unique_ids_and_sources() {
    let reg = registry();
    assert!(reg.clauses.len() >= 40);
    assert!(reg.clauses.iter().any(|c| c.id.starts_with("ORDOX-")));
    // Registry::parse refuses duplicates and rulings without reasoning.
    let dup = format!(
        "{}\n[[clause]]\nid = \"{}\"\ntitle = \"t\"\nkind = \"source\"\ntext = \"x\"\nsources = [\"s\"]\n",
        ordo::rules::clauses::REGISTRY_TOML,
        reg.clauses[0].id
    );
    assert!(Registry::parse(&dup).unwrap_err().contains("twice"));
}

#[test]
fn every_clause_is_cited_by_code_and_by_a_test() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let code = citations(&root.join("src"));
    let tests = citations(&root.join("tests"));
    let mut missing = Vec::new();
    for c in &registry().clauses {
        if !code.contains_key(&c.id) {
            missing.push(format!("{} is cited by no code in src/", c.id));
        }
        if !tests.contains_key(&c.id) {
            missing.push(format!("{} is cited by no test in tests/", c.id));
        }
    }
    assert!(missing.is_empty(), "{}", missing.join("\n"));
}

#[test]
fn every_cited_id_exists() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let reg = registry();
    let mut unknown = Vec::new();
    for dir in ["src", "tests", "benches", "fuzz"] {
        if !root.join(dir).exists() {
            continue;
        }
        for (id, file) in citations(&root.join(dir)) {
            if reg.get(&id).is_none() {
                unknown.push(format!(
                    "{file} cites {id}, which is not in spec/clauses.toml"
                ));
            }
        }
    }
    assert!(unknown.is_empty(), "{}", unknown.join("\n"));
}

#[test]
fn citation_scanner_finds_ids() {
    let found = ids_in("see ORDO-6.3 and ORDOX-4.2, not ORDO-9 or ORDOX-.1");
    let want: BTreeSet<String> = ["ORDO-6.3", "ORDOX-4.2"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    assert_eq!(found, want);
}

#[test]
fn rules_md_is_rendered_from_the_registry() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("spec/rules.md");
    let on_disk = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        on_disk == render_markdown(),
        "spec/rules.md is stale: run `cargo run -- rules --markdown > spec/rules.md`"
    );
}
