//! The three oracles stay independent: the reference engine (`crates/reference`), the
//! bitboard engine (`crates/bitboard`) and the adjudicator (`crates/adjudicate`) are crates
//! that depend on the vocabulary crate (`crates/core`: the rules and the notation) and on no
//! other crate of the workspace, so the compiler refuses any shared helper: a bug in one of
//! them can never be copied into another. These tests are the second guard over the crate
//! graph: they read each oracle's manifest (every dependency table, dev- and build-
//! dependencies included) and its source (any `ordo_…` crate path in code).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// The oracle crates, by their folder below `crates/`.
const ORACLES: [&str; 3] = ["reference", "bitboard", "adjudicate"];

/// The one workspace crate an oracle may depend on.
const VOCABULARY: &str = "ordo-core";

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

/// The workspace crates a manifest depends on (`ordo…` keys of `[dependencies]`,
/// `[dev-dependencies]`, `[build-dependencies]` and their `[target.….…]` forms).
fn ordo_dependencies(manifest: &str) -> BTreeSet<String> {
    let doc: toml::Table = manifest.parse().expect("a manifest");
    let mut scopes: Vec<&toml::Table> = vec![&doc];
    if let Some(targets) = doc.get("target").and_then(|t| t.as_table()) {
        scopes.extend(targets.values().filter_map(|c| c.as_table()));
    }
    let kinds = ["dependencies", "dev-dependencies", "build-dependencies"];
    let tables = scopes.iter().flat_map(|t| {
        kinds
            .iter()
            .filter_map(|k| t.get(*k).and_then(|d| d.as_table()))
    });
    let mut out = BTreeSet::new();
    for deps in tables {
        for (name, spec) in deps {
            let package = spec.get("package").and_then(|p| p.as_str()).unwrap_or(name);
            if package.starts_with("ordo") {
                out.insert(package.to_string());
            }
        }
    }
    out
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
    dirs.push(workspace().join("crates/testkit"));
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

#[test]
fn oracle_crates_depend_only_on_the_vocabulary() {
    for oracle in ORACLES {
        let path = workspace().join("crates").join(oracle).join("Cargo.toml");
        let manifest = std::fs::read_to_string(&path).unwrap();
        let deps = ordo_dependencies(&manifest);
        assert_eq!(
            deps,
            BTreeSet::from([VOCABULARY.to_string()]),
            "{} may depend on {VOCABULARY} alone",
            path.display()
        );
    }
}

#[test]
fn oracle_sources_name_no_other_workspace_crate() {
    let (mut bad, mut files) = (Vec::new(), 0);
    let crates = workspace_crates();
    for oracle in ORACLES {
        let own = format!("ordo_{oracle}");
        for path in rust_files(&workspace().join("crates").join(oracle)) {
            files += 1;
            let text = std::fs::read_to_string(&path).unwrap();
            for name in ordo_crates_named(&text, &own, &crates) {
                if name != VOCABULARY.replace('-', "_") {
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

/// The crates of the product (every folder of `crates/` but the test tooling), sorted.
pub(super) fn product_crates() -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(workspace().join("crates"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.join("Cargo.toml").is_file() && !p.ends_with("testkit"))
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
