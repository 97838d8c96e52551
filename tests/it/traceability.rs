//! Traceability between spec/clauses.toml, the code and the tests: every clause of the registry
//! is cited by the code (src/) and by a test (tests/), and every clause id cited anywhere in the
//! code or the tests exists in the registry. Also: spec/rules.md is exactly what the registry
//! renders to.
//!
//! A test counts as citing a clause only where the test itself names it: in the test
//! function's name (`ordo_6_3_…` is ORDO-6.3, `ordox_4_2_…` is ORDOX-4.2), in the test
//! function's doc comment, or in a string literal inside its body (assertion data). An id in a
//! plain comment, or in a helper that no test names, does not count.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use ordo_core::rules::clauses::{is_clause_id, registry, render_markdown, RegistryError};

/// The `.rs` files under `dir`, with their text; generated files (the clause table, which
/// holds every clause of the registry) are no citation and are left out.
fn rs_files(dir: &Path) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let text = std::fs::read_to_string(&path).unwrap();
                if !text.starts_with("// @generated") {
                    out.push((path.display().to_string(), text));
                }
            }
        }
    }
    out
}

/// Every clause id cited in the `.rs` files under `dir`, with the first file citing it.
fn citations(dir: &Path) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for (file, text) in rs_files(dir) {
        for id in ids_in(&text) {
            out.entry(id).or_insert_with(|| file.clone());
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

/// A `#[test]` function as the traceability check sees it.
#[derive(Debug, Default)]
struct TestFn {
    name: String,
    /// Its doc comment, the `///` lines above it.
    doc: String,
    /// The contents of the string literals in its body, one per line.
    strings: String,
}

impl TestFn {
    /// The clause ids this test names: in its name, its doc comment or its string literals.
    fn cited(&self) -> BTreeSet<String> {
        let mut ids = ids_in(&self.doc);
        ids.extend(ids_in(&self.strings));
        ids.extend(ids_in_name(&self.name));
        ids
    }
}

/// The clause id a test name spells: `ordo_<a>_<b>` or `ordox_<a>_<b>` anywhere in the name.
fn ids_in_name(name: &str) -> BTreeSet<String> {
    let parts: Vec<&str> = name.split('_').collect();
    let number = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    let mut out = BTreeSet::new();
    for w in parts.windows(3) {
        let prefix = match w[0] {
            "ordo" => "ORDO",
            "ordox" => "ORDOX",
            _ => continue,
        };
        if number(w[1]) && number(w[2]) {
            out.insert(format!("{prefix}-{}.{}", w[1], w[2]));
        }
    }
    out
}

/// Every test function in a source text: each `fn` under a `#[test]` attribute, and each
/// generic test body that an `on_both_engines!(name, …)` list instantiates as a `#[test]`
/// per engine.
fn test_fns(text: &str) -> Vec<TestFn> {
    let listed = macro_listed(text);
    let lines: Vec<&str> = text.lines().collect();
    let mut offset = 0;
    let mut out = Vec::new();
    for (i, l) in lines.iter().enumerate() {
        let at = offset;
        offset += l.len() + 1;
        let Some(name) = fn_name(l) else { continue };
        let mut docs = Vec::new();
        let mut is_test = listed.contains(&name);
        for above in lines[..i].iter().rev() {
            let above = above.trim();
            if let Some(d) = above.strip_prefix("///") {
                docs.push(d);
            } else if above.starts_with("#[") {
                is_test |= above == "#[test]";
            } else {
                break;
            }
        }
        let Some(open) = text[at..].find('{') else {
            continue;
        };
        if !is_test {
            continue;
        }
        docs.reverse();
        out.push(TestFn {
            name,
            doc: docs.join("\n"),
            strings: body_strings(&text[at + open..]),
        });
    }
    out
}

/// The name of the function a line declares (`fn name`, `pub fn name`), if it declares one.
fn fn_name(line: &str) -> Option<String> {
    let t = line.trim_start();
    let t = t.strip_prefix("pub ").unwrap_or(t);
    let name: String = t
        .strip_prefix("fn ")?
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect();
    (!name.is_empty()).then_some(name)
}

/// The names listed in `on_both_engines!(a, b, …)` invocations and in the
/// `engine_tests!($engine, module; a, b, …)` lists of the clause-test crate.
fn macro_listed(text: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let calls = ["on_both_engines!(", "engine_tests!("];
    for (k, call) in calls.iter().flat_map(|c| text.match_indices(c)) {
        let list = &text[k + call.len()..];
        let list = &list[..list.find(')').unwrap_or(list.len())];
        let list = match call {
            "engine_tests!(" => list.split_once(';').map_or("", |(_, names)| names),
            _ => list,
        };
        for name in list.split(',') {
            let name = name.trim();
            if !name.is_empty() && name.chars().all(|c| c.is_alphanumeric() || c == '_') {
                out.insert(name.to_string());
            }
        }
    }
    out
}

/// The string literals of the block that `code` starts with (at its `{`), up to its matching
/// `}`; comments and character literals are skipped.
fn body_strings(code: &str) -> String {
    let b = code.as_bytes();
    let (mut depth, mut i, mut out) = (0usize, 0, String::new());
    while i < b.len() {
        let rest = &code[i..];
        if rest.starts_with("//") {
            i += rest.find('\n').unwrap_or(rest.len());
        } else if rest.starts_with("/*") {
            i += rest.find("*/").map_or(rest.len(), |k| k + 2);
        } else if let Some(len) = string_literal_len(rest) {
            out.push_str(&rest[..len]);
            out.push('\n');
            i += len;
        } else if rest.starts_with('\'') {
            i += char_literal_len(rest);
        } else {
            match b[i] {
                b'{' => depth += 1,
                b'}' => {
                    depth -= 1;
                    if depth == 0 {
                        break;
                    }
                }
                _ => {}
            }
            i += 1;
        }
    }
    out
}

/// The length of the string literal (`"…"`, `r"…"`, `r#"…"#`, `b"…"`) at the start of `s`.
fn string_literal_len(s: &str) -> Option<usize> {
    let body = s.strip_prefix('b').unwrap_or(s);
    let prefix = s.len() - body.len();
    if let Some(raw) = body.strip_prefix('r') {
        let hashes = raw.bytes().take_while(|&c| c == b'#').count();
        if raw[hashes..].starts_with('"') {
            let close = format!("\"{}", "#".repeat(hashes));
            let from = prefix + 1 + hashes + 1;
            return Some(
                s[from..]
                    .find(&close)
                    .map_or(s.len(), |k| from + k + close.len()),
            );
        }
        return None;
    }
    if !body.starts_with('"') {
        return None;
    }
    let bytes = s.as_bytes();
    let mut k = prefix + 1;
    while k < bytes.len() {
        match bytes[k] {
            b'\\' => k += 2,
            b'"' => return Some(k + 1),
            _ => k += 1,
        }
    }
    Some(s.len())
}

/// The length of the character literal or lifetime at the start of `s` (which starts with `'`).
fn char_literal_len(s: &str) -> usize {
    let b = s.as_bytes();
    if b.get(1) == Some(&b'\\') {
        return s[2..].find('\'').map_or(s.len(), |k| k + 3);
    }
    match s[1..].chars().next() {
        Some(c) if s[1 + c.len_utf8()..].starts_with('\'') => 2 + c.len_utf8(),
        _ => 1,
    }
}

/// Every clause id named by a test (see the module doc) in the `.rs` files under `dir`, with
/// the first file naming it.
fn tested(dir: &Path) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for (file, text) in rs_files(dir) {
        for id in test_fns(&text).iter().flat_map(TestFn::cited) {
            out.entry(id).or_insert_with(|| file.clone());
        }
    }
    out
}

#[test]
fn registry_parses_with_unique_ids_and_sources() {
    let reg = registry();
    assert!(reg.clauses.len() >= 40);
    assert!(reg.clauses.iter().any(|c| c.id.starts_with("ORDOX-")));
    // Registry::check refuses duplicates.
    let mut dup = reg.clone();
    dup.clauses.push(reg.clauses[0].clone());
    let err = dup.check().unwrap_err();
    assert_eq!(err, RegistryError::Duplicate(reg.clauses[0].id.clone()));
    assert!(err.to_string().contains("appears twice"), "{err}");
}

/// The folders of tests: the command line's `tests/`, each crate's `tests/`, and the generic
/// clause tests of `crates/clause-tests/src` (instantiated by the engines' `tests/`).
fn test_folders() -> Vec<std::path::PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut dirs = vec![root.join("tests"), root.join("crates/clause-tests/src")];
    for entry in std::fs::read_dir(root.join("crates")).unwrap() {
        let tests = entry.unwrap().path().join("tests");
        if tests.is_dir() {
            dirs.push(tests);
        }
    }
    dirs
}

#[test]
fn every_clause_is_cited_by_code_and_by_a_test() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    // The product's code: the library crates and the command line, not the test tooling.
    let mut code = citations(&root.join("src"));
    for dir in super::independence::product_crates() {
        code.extend(citations(&dir.join("src")));
    }
    let tests = test_folders().iter().fold(BTreeMap::new(), |mut all, dir| {
        all.extend(tested(dir));
        all
    });
    let mut missing = Vec::new();
    for c in &registry().clauses {
        if !code.contains_key(&c.id) {
            missing.push(format!(
                "{} is cited by no code in crates/*/src or src/",
                c.id
            ));
        }
        if !tests.contains_key(&c.id) {
            missing.push(format!(
                "{} is named by no test in tests/, crates/*/tests or crates/clause-tests (test name, test doc comment or a string in a test body)",
                c.id
            ));
        }
    }
    assert!(missing.is_empty(), "{}", missing.join("\n"));
}

#[test]
fn every_cited_id_exists() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let reg = registry();
    let mut unknown = Vec::new();
    for dir in ["src", "crates", "bench", "tests", "fuzz"] {
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

/// A planted file: an id in a plain comment or in a helper does not count; ids in a test's
/// name, doc comment and string literals do.
#[test]
fn only_test_names_docs_and_strings_count() {
    let text = r##"
// ORDO-1.1 in a plain comment
fn helper() { assert_eq!(x, "ORDO-1.2"); }

/// Checks ORDO-2.3.
#[test]
#[ignore = "x"]
fn ordo_4_3_connection() {
    // ORDO-5.1 in a comment inside the body
    let c = '{';
    assert!(y, "ORDOX-4.2: {}", r#"ORDO-6.4"#);
    let s = "}";
}

#[test]
fn unrelated() { let z = 1; }
fn after() { let _ = "ORDO-7.1"; }
/// ORDO-8.1 in a generic test body instantiated per engine.
fn generic_body<E: Engine>() {}
fn not_listed<E: Engine>() { let _ = "ORDO-8.2"; }
on_both_engines!(generic_body);
/// ORDO-9.1 in a clause-test crate's list.
pub fn crate_body<E: Engine>() {}
$crate::engine_tests!($engine, classic;
    crate_body,
);
"##;
    let fns = test_fns(text);
    assert_eq!(fns.len(), 4, "{fns:?}");
    let cited: BTreeSet<String> = fns.iter().flat_map(TestFn::cited).collect();
    let want = [
        "ORDO-2.3",
        "ORDO-4.3",
        "ORDOX-4.2",
        "ORDO-6.4",
        "ORDO-8.1",
        "ORDO-9.1",
    ];
    let want: BTreeSet<String> = want.iter().map(|s| s.to_string()).collect();
    assert_eq!(cited, want);
}
