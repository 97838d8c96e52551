//! The three oracles stay independent: the reference engine (`crates/reference`), the
//! bitboard engine (`crates/bitboard`) and the adjudicator (`crates/adjudicate`) are crates
//! that depend on the vocabulary crate (`crates/core`: the rules and the notation) and on no
//! other crate of the workspace, so the compiler refuses any shared helper: a bug in one of
//! them can never be copied into another. These tests are the second guard over the crate
//! graph: they read each oracle's manifest (every dependency table, dev- and build-
//! dependencies included) and its source (any `ordo_…` crate path in code).
//!
//! One exception, for tests only: an oracle may dev-depend on the clause-test crate
//! (`crates/clause-tests`, the clause tests generic over the engine), which itself depends on
//! the vocabulary crate alone and names no other workspace crate, so no engine code can travel
//! through it.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// The oracle crates, by their folder below `crates/`.
const ORACLES: [&str; 3] = ["reference", "bitboard", "adjudicate"];

/// The one workspace crate an oracle may depend on.
const VOCABULARY: &str = "ordo-core";

/// The test crate an oracle may dev-depend on, and its folder below `crates/`.
const CLAUSE_TESTS: (&str, &str) = ("ordo-clause-tests", "clause-tests");

/// The crates of test tooling (not published), by their folder below `crates/`.
const TEST_TOOLING: [&str; 2] = ["testkit", "clause-tests"];

/// The source with comments, string and character literals blanked out, so a path named in a
/// doc comment or a message is not taken for an import (and a brace in one is not counted by
/// `structure.rs`). Lines are kept: a blanked literal or comment keeps its line breaks.
pub(super) fn code_only(src: &str) -> String {
    let mut out = String::with_capacity(src.len());
    scan(src, |piece, kind| {
        if kind == Piece::Code {
            out.push_str(piece);
        } else {
            out.push(' ');
            out.extend(piece.chars().filter(|&c| c == '\n'));
        }
    });
    out
}

/// The string literals of the source (plain and raw, quotes included), each with the line
/// (1-based) it starts on; comments and character literals are not among them.
pub(super) fn string_literals(src: &str) -> Vec<(usize, &str)> {
    let (mut out, mut line) = (Vec::new(), 1);
    scan(src, |piece, kind| {
        if kind == Piece::String {
            out.push((line, piece));
        }
        line += piece.matches('\n').count();
    });
    out
}

/// What a piece of source text is, as [`scan`] cuts it.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Piece {
    Code,
    Comment,
    String,
    Char,
}

/// Cut `src` into code (one character at a time), comments, string and character literals,
/// in order, handing each to `each`.
fn scan<'a>(src: &'a str, mut each: impl FnMut(&'a str, Piece)) {
    let mut i = 0;
    while i < src.len() {
        let rest = &src[i..];
        let (len, kind) = if rest.starts_with("//") {
            (rest.find('\n').unwrap_or(rest.len()), Piece::Comment)
        } else if rest.starts_with("/*") {
            (
                rest.find("*/").map_or(rest.len(), |k| k + 2),
                Piece::Comment,
            )
        } else if rest.starts_with('"') {
            (string_len(rest), Piece::String)
        } else if let Some(k) = raw_string_len(rest) {
            (k, Piece::String)
        } else if let Some(k) = char_literal_len(rest) {
            (k, Piece::Char)
        } else {
            let ch = rest.chars().next().expect("not at the end");
            (ch.len_utf8(), Piece::Code)
        };
        each(&rest[..len], kind);
        i += len;
    }
}

/// Length of the string literal at the start of `s` (which starts with `"`).
fn string_len(s: &str) -> usize {
    let b = s.as_bytes();
    let mut k = 1;
    while k < b.len() {
        match b[k] {
            b'\\' => k += 2,
            b'"' => return k + 1,
            _ => k += 1,
        }
    }
    b.len()
}

/// Length of the raw string literal (`r"…"`, `r#"…"#`, …) at the start of `s`, if one is.
fn raw_string_len(s: &str) -> Option<usize> {
    let hashes = s
        .strip_prefix('r')?
        .bytes()
        .take_while(|&b| b == b'#')
        .count();
    let body = s[1 + hashes..].strip_prefix('"')?;
    let end = format!("\"{}", "#".repeat(hashes));
    Some(
        body.find(&end)
            .map_or(s.len(), |k| 2 + hashes + k + end.len()),
    )
}

/// Length of the character literal (`'x'`, `'\n'`, `'\u{7b}'`) at the start of `s`, if one is
/// (a lifetime such as `'a` is not).
fn char_literal_len(s: &str) -> Option<usize> {
    let rest = s.strip_prefix('\'')?;
    if let Some(esc) = rest.strip_prefix('\\') {
        return esc.get(1..)?.find('\'').map(|k| k + 4);
    }
    let c = rest.chars().next()?;
    rest[c.len_utf8()..]
        .starts_with('\'')
        .then_some(c.len_utf8() + 2)
}

/// Every `.rs` file below `dir`.
pub(super) fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            out.extend(rust_files(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
    out
}

/// Every kind of dependency table.
const ALL_KINDS: [&str; 3] = ["dependencies", "dev-dependencies", "build-dependencies"];

/// The workspace crates a manifest depends on (`ordo…` keys of `[dependencies]`,
/// `[dev-dependencies]`, `[build-dependencies]` and their `[target.….…]` forms).
fn ordo_dependencies(manifest: &str) -> BTreeSet<String> {
    ordo_dependency_specs(manifest, &ALL_KINDS)
        .into_iter()
        .map(|(package, _)| package)
        .collect()
}

/// The workspace crates a manifest depends on in the tables of `kinds` (and their
/// `[target.….…]` forms): each package name with its specification.
fn ordo_dependency_specs(manifest: &str, kinds: &[&str]) -> Vec<(String, toml::Value)> {
    let doc: toml::Table = manifest.parse().expect("a manifest");
    let mut scopes: Vec<&toml::Table> = vec![&doc];
    if let Some(targets) = doc.get("target").and_then(|t| t.as_table()) {
        scopes.extend(targets.values().filter_map(|c| c.as_table()));
    }
    let tables = scopes.iter().flat_map(|t| {
        kinds
            .iter()
            .filter_map(|k| t.get(*k).and_then(|d| d.as_table()))
    });
    let mut out = Vec::new();
    for deps in tables {
        for (name, spec) in deps {
            let package = spec.get("package").and_then(|p| p.as_str()).unwrap_or(name);
            if package.starts_with("ordo") {
                out.push((package.to_string(), spec.clone()));
            }
        }
    }
    out
}

/// The folder (relative to the workspace) a dependency specification points to: its `path`
/// relative to the crate folder `dir`, or for `workspace = true` the `path` of the same key
/// in the root manifest's `[workspace.dependencies]`.
fn dependency_folder(spec: &toml::Value, key: &str, dir: &str, root: &toml::Table) -> String {
    if spec.get("workspace").and_then(|w| w.as_bool()) == Some(true) {
        let path = root["workspace"]["dependencies"]
            .get(key)
            .and_then(|d| d.get("path"))
            .and_then(|p| p.as_str());
        return path
            .unwrap_or("(not a path)")
            .trim_end_matches('/')
            .to_string();
    }
    match spec.get("path").and_then(|p| p.as_str()) {
        Some(path) => normalize(&format!("{dir}/{path}")),
        None => "(not a path)".to_string(),
    }
}

/// A relative path with its `.` and `..` steps resolved (`crates/a/../b` is `crates/b`).
fn normalize(path: &str) -> String {
    let mut parts: Vec<&str> = Vec::new();
    for part in path.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            p => parts.push(p),
        }
    }
    parts.join("/")
}

/// What breaks the independence of the oracle whose manifest is `manifest`, in the folder
/// `dir` (`crates/reference`): a workspace dependency but the vocabulary, or a
/// dev-dependency but the vocabulary and the clause-test crate of `crates/clause-tests`.
fn oracle_dependency_faults(manifest: &str, dir: &str, root: &toml::Table) -> Vec<String> {
    let mut faults = Vec::new();
    let normal = ordo_dependency_specs(manifest, &["dependencies", "build-dependencies"]);
    let normal: BTreeSet<String> = normal.into_iter().map(|(p, _)| p).collect();
    if normal != BTreeSet::from([VOCABULARY.to_string()]) {
        faults.push(format!(
            "{dir} depends on {normal:?}, not on {VOCABULARY} alone"
        ));
    }
    let doc: toml::Table = manifest.parse().expect("a manifest");
    for (package, spec) in ordo_dependency_specs(manifest, &["dev-dependencies"]) {
        let key = dev_dependency_key(&doc, &package);
        let folder = dependency_folder(&spec, &key, dir, root);
        let test_crate = format!("crates/{}", CLAUSE_TESTS.1);
        if package != VOCABULARY && (package != CLAUSE_TESTS.0 || folder != test_crate) {
            faults.push(format!("{dir} dev-depends on {package} ({folder})"));
        }
    }
    faults
}

/// The key under which a manifest's dev-dependencies name `package` (the package itself, or
/// the key of a `package = "…"` rename).
fn dev_dependency_key(doc: &toml::Table, package: &str) -> String {
    let scopes = std::iter::once(doc).chain(
        doc.get("target")
            .and_then(|t| t.as_table())
            .into_iter()
            .flat_map(|t| t.values().filter_map(|c| c.as_table())),
    );
    for scope in scopes {
        let Some(deps) = scope.get("dev-dependencies").and_then(|d| d.as_table()) else {
            continue;
        };
        for (key, spec) in deps {
            if spec.get("package").and_then(|p| p.as_str()).unwrap_or(key) == package {
                return key.clone();
            }
        }
    }
    package.to_string()
}

/// The workspace crates `code` names as paths (`ordo_reference::…`, `use ordo::…`), comments
/// and strings aside, among `crates` (their library names); `own` does not count. Game terms
/// such as `ordo_steps` are no crate and do not count.
fn ordo_crates_named(code: &str, own: &str, crates: &BTreeSet<String>) -> BTreeSet<String> {
    let code = code_only(code);
    let is_ident = |c: char| c.is_alphanumeric() || c == '_';
    code.match_indices("ordo")
        .filter(|(at, _)| !code[..*at].chars().next_back().is_some_and(is_ident))
        .filter_map(|(at, _)| {
            let name: String = code[at..].chars().take_while(|&c| is_ident(c)).collect();
            let path = code[at + name.len()..].trim_start().starts_with("::");
            (path && name != own && crates.contains(&name)).then_some(name)
        })
        .collect()
}

/// The library names of every crate of the workspace (`ordo`, `ordo_core`, …).
fn workspace_crates() -> BTreeSet<String> {
    let mut dirs = product_crates();
    dirs.extend(TEST_TOOLING.map(|d| workspace().join("crates").join(d)));
    let names: BTreeSet<String> = dirs
        .iter()
        .map(|d| {
            let manifest: toml::Table = std::fs::read_to_string(d.join("Cargo.toml"))
                .unwrap()
                .parse()
                .unwrap();
            manifest["package"]["name"]
                .as_str()
                .unwrap()
                .replace('-', "_")
        })
        .collect();
    assert!(
        names.contains("ordo") && names.contains("ordo_core"),
        "{names:?}"
    );
    names
}

fn workspace() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The root manifest, parsed.
fn root_manifest() -> toml::Table {
    let text = std::fs::read_to_string(workspace().join("Cargo.toml")).unwrap();
    text.parse().unwrap()
}

#[test]
fn oracle_crates_depend_only_on_the_vocabulary() {
    let root = root_manifest();
    for oracle in ORACLES {
        let dir = format!("crates/{oracle}");
        let manifest = std::fs::read_to_string(workspace().join(&dir).join("Cargo.toml")).unwrap();
        let faults = oracle_dependency_faults(&manifest, &dir, &root);
        assert!(faults.is_empty(), "{}", faults.join("\n"));
    }
}

/// The clause-test crate an oracle may dev-depend on depends on the vocabulary alone, in
/// every table, and is the package the oracles name.
#[test]
fn the_clause_test_crate_depends_only_on_the_vocabulary() {
    let dir = workspace().join("crates").join(CLAUSE_TESTS.1);
    let manifest = std::fs::read_to_string(dir.join("Cargo.toml")).unwrap();
    let doc: toml::Table = manifest.parse().unwrap();
    assert_eq!(doc["package"]["name"].as_str(), Some(CLAUSE_TESTS.0));
    assert_eq!(
        ordo_dependencies(&manifest),
        BTreeSet::from([VOCABULARY.to_string()]),
        "{} may depend on {VOCABULARY} alone",
        dir.display()
    );
}

#[test]
fn oracle_sources_name_no_other_workspace_crate() {
    let (mut bad, mut files) = (Vec::new(), 0);
    let crates = workspace_crates();
    let vocabulary = VOCABULARY.replace('-', "_");
    let clause_tests = CLAUSE_TESTS.0.replace('-', "_");
    assert!(crates.contains(&clause_tests), "{crates:?}");
    for folder in ORACLES.into_iter().chain([CLAUSE_TESTS.1]) {
        let own = format!("ordo_{}", folder.replace('-', "_"));
        let dir = workspace().join("crates").join(folder);
        for path in rust_files(&dir) {
            files += 1;
            // An oracle's own tests may instantiate the clause tests.
            let test = path.starts_with(dir.join("tests")) && folder != CLAUSE_TESTS.1;
            let text = std::fs::read_to_string(&path).unwrap();
            for name in ordo_crates_named(&text, &own, &crates) {
                if name != vocabulary && !(test && name == clause_tests) {
                    bad.push(format!("{} names {name}", path.display()));
                }
            }
        }
    }
    assert!(files >= 10, "only {files} oracle source files found");
    assert!(
        bad.is_empty(),
        "oracle independence broken:\n{}",
        bad.join("\n")
    );
}

/// The dependency check passes a dev-dependency on the clause-test crate and fails a shared
/// helper: a dev-dependency on another workspace crate, on a crate renamed to the clause-test
/// crate's name but elsewhere, or the clause-test crate as a normal dependency.
#[test]
fn checker_allows_only_the_clause_test_crate_as_an_extra() {
    let root: toml::Table = r#"
[workspace.dependencies]
ordo-core = { path = "crates/core" }
ordo-clause-tests = { path = "crates/clause-tests" }
ordo-testkit = { path = "crates/testkit" }
"#
    .parse()
    .unwrap();
    let with = |extra: &str| format!("[dependencies]\nordo-core.workspace = true\n{extra}");
    let faults = |m: &str| oracle_dependency_faults(m, "crates/reference", &root);
    let fine = [
        "[dev-dependencies]\nordo-clause-tests.workspace = true\n",
        "[dev-dependencies]\nordo-clause-tests = { path = \"../clause-tests\" }\n",
    ];
    for extra in fine {
        assert_eq!(faults(&with(extra)), Vec::<String>::new(), "{extra}");
    }
    let broken = [
        "[dev-dependencies]\nordo-testkit.workspace = true\n",
        "[dev-dependencies]\nordo-clause-tests = { path = \"../bitboard\" }\n",
        "[dev-dependencies]\nt = { package = \"ordo-clause-tests\", path = \"../testkit\" }\n",
        "ordo-clause-tests.workspace = true\n",
        "[target.'cfg(unix)'.dev-dependencies]\nordo-bitboard = { path = \"../bitboard\" }\n",
    ];
    for extra in broken {
        assert_eq!(faults(&with(extra)).len(), 1, "{extra}");
    }
}

/// The crates of the product (every folder of `crates/` but the test tooling), sorted.
pub(super) fn product_crates() -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(workspace().join("crates"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.join("Cargo.toml").is_file())
        .filter(|p| !TEST_TOOLING.iter().any(|d| p.ends_with(d)))
        .collect();
    dirs.sort();
    assert!(dirs.len() >= 9, "only {} product crates", dirs.len());
    dirs
}

/// Every Rust source file of the product (the command line's `src/` and each product
/// crate's `src/`) but generated ones (data, such as the clause table): its name below the
/// workspace (forward slashes) and its text.
pub(super) fn crate_sources() -> Vec<(String, String)> {
    let root = workspace();
    let mut files = rust_files(&root.join("src"));
    for dir in product_crates() {
        files.extend(rust_files(&dir.join("src")));
    }
    assert!(files.len() > 50, "only {} source files", files.len());
    files
        .into_iter()
        .map(|p| {
            let rel = p.strip_prefix(root).unwrap().to_string_lossy();
            let text = std::fs::read_to_string(&p).unwrap();
            (rel.replace('\\', "/"), text)
        })
        .filter(|(_, text)| !text.starts_with("// @generated"))
        .collect()
}

/// Whether the source file `rel` (as [`crate_sources`] names it) is the command line (the
/// `ordo-cli` package's `src/`) rather than a library crate.
pub(super) fn is_command_line(rel: &str) -> bool {
    rel.starts_with("src/")
}

/// The crates of the command line: named only by the `ordo-cli` package.
const CLI_CRATES: [&str; 3] = ["clap", "indicatif", "ctrlc"];

/// The CLI crates `code` names as paths (`clap::…`, `use indicatif`), comments and strings
/// aside.
fn cli_crates_named(code: &str) -> Vec<&'static str> {
    let code = code_only(code);
    CLI_CRATES
        .into_iter()
        .filter(|c| {
            code.match_indices(c).any(|(at, _)| {
                let before = code[..at].chars().next_back();
                let after = &code[at + c.len()..];
                !before.is_some_and(|b| b.is_alphanumeric() || b == '_')
                    && (after.starts_with("::") || code[..at].ends_with("use "))
            })
        })
        .collect()
}

/// No library crate names a crate of the command line (only the `ordo-cli` package's `src/`
/// does), so clap, indicatif and ctrlc stay out of every library's API; `.ci/run` checks the
/// facade's dependency tree too.
#[test]
fn the_library_names_no_command_line_crate() {
    let mut bad = Vec::new();
    for (rel, text) in crate_sources() {
        for c in cli_crates_named(&text)
            .into_iter()
            .filter(|_| !is_command_line(&rel))
        {
            bad.push(format!("{rel} names {c}"));
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
    assert_eq!(
        cli_crates_named("#[derive(clap::ValueEnum)]\nuse indicatif;\n// ctrlc::set"),
        ["clap", "indicatif"]
    );
}

#[test]
fn checker_catches_a_planted_crate_import() {
    let src = "use ordo_core::rules::Position;\nuse ordo_bitboard::Bitboard;\nfn f() { ordo::explain(); }\n";
    let named = ordo_crates_named(src, "ordo_reference", &workspace_crates());
    assert_eq!(
        named,
        BTreeSet::from(["ordo".into(), "ordo_bitboard".into(), "ordo_core".into()])
    );
}

#[test]
fn checker_ignores_comments_strings_game_terms_and_the_crate_itself() {
    let src = "//! Like [`ordo_reference::x`].\n/* ordo_solve::y */\nconst S: &str = \"ordo_core::z\";\nuse ordo_bitboard::gen;\nlet ordo_steps = ordo_path::new();\n";
    assert!(ordo_crates_named(src, "ordo_bitboard", &workspace_crates()).is_empty());
}

#[test]
fn checker_reads_every_dependency_table() {
    let manifest = r#"
[dependencies]
ordo-core.workspace = true
petgraph = "0.8"
[dev-dependencies]
ordo-bitboard = { path = "../bitboard" }
[target.'cfg(unix)'.build-dependencies]
helper = { package = "ordo-solve", path = "../solve" }
"#;
    let deps = ordo_dependencies(manifest);
    let want = ["ordo-bitboard", "ordo-core", "ordo-solve"].map(String::from);
    assert_eq!(deps, BTreeSet::from(want));
}

/// The certificate checker (`crates/certificate`) judges what the proof search (`crates/prove`,
/// on the bitboard engine) writes, so it must not run on either: its manifest names neither
/// `ordo-prove` nor `ordo-bitboard`, and its source names neither crate nor the bitboard
/// engine's type (the table probes it reaches through `ordo-solve` are made on
/// `Tablebase<Reference>`).
#[test]
fn the_certificate_checker_shares_no_code_with_the_search_or_the_bitboard_engine() {
    let dir = workspace().join("crates/certificate");
    let manifest = std::fs::read_to_string(dir.join("Cargo.toml")).unwrap();
    let deps = ordo_dependencies(&manifest);
    for banned in ["ordo-prove", "ordo-bitboard"] {
        assert!(
            !deps.contains(banned),
            "ordo-certificate depends on {banned}: {deps:?}"
        );
    }
    let crates = workspace_crates();
    for file in std::fs::read_dir(dir.join("src")).unwrap() {
        let path = file.unwrap().path();
        let src = std::fs::read_to_string(&path).unwrap();
        let named = ordo_crates_named(&src, "ordo_certificate", &crates);
        for banned in ["ordo_prove", "ordo_bitboard"] {
            assert!(
                !named.contains(banned),
                "{}: names {banned}",
                path.display()
            );
        }
        assert!(
            !code_only(&src).contains("Bitboard"),
            "{}: names Bitboard",
            path.display()
        );
        let code = code_only(&src);
        let uses: Vec<&str> = code
            .lines()
            .filter(|l| !l.trim_start().starts_with("use "))
            .collect();
        let probes: usize = uses.iter().map(|l| l.matches("Tablebase").count()).sum();
        let on_reference: usize = uses
            .iter()
            .map(|l| {
                l.matches("Tablebase::<Reference>").count()
                    + l.matches("Tablebase<Reference>").count()
            })
            .sum();
        assert_eq!(
            probes,
            on_reference,
            "{}: a Tablebase not on the reference engine",
            path.display()
        );
    }
}
