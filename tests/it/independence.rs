//! The three oracles stay independent: the reference engine (`src/reference/`), the bitboard
//! engine (`src/bitboard/`) and the adjudicator (`src/adjudicate/`) reach into the rest of the
//! crate only through the shared rules (`src/rules/`) and, for the adjudicator, the notation
//! (`src/notation/`). A bug in one of them can then never be copied into another by a shared
//! helper. The check reads the source: every `crate::` path and every `super::` path that
//! climbs out of the oracle's own directory names the top-level module it reaches.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// Each oracle and the top-level modules it may use.
const ORACLES: [(&str, &[&str]); 3] = [
    ("reference", &["rules"]),
    ("bitboard", &["rules"]),
    ("adjudicate", &["rules", "notation"]),
];

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

/// The module depth of a source file below `src/`: `src/reference/mod.rs` is 1 (the module
/// `reference`), `src/reference/steps.rs` is 2.
fn module_depth(rel: &Path) -> usize {
    let parts = rel.components().count();
    let is_root = matches!(
        rel.file_name().and_then(|f| f.to_str()),
        Some("mod.rs" | "lib.rs")
    );
    if is_root {
        parts - 1
    } else {
        parts
    }
}

/// The top-level modules reached from a file at module depth `depth`: the segment after
/// `crate::`, and the segment after a run of `super::` that climbs to the crate root. Group
/// imports (`use crate::{a, b::c}`) count each member.
fn reached_modules(code: &str, depth: usize) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let is_ident = |c: char| c.is_alphanumeric() || c == '_';
    let mut i = 0;
    while i < code.len() {
        let rest = &code[i..];
        let starts_word = !code[..i].chars().next_back().is_some_and(is_ident);
        let root = if !starts_word {
            None
        } else if rest.starts_with("crate::") {
            Some("crate::".len())
        } else {
            let supers = (0..)
                .take_while(|k| rest[k * "super::".len()..].starts_with("super::"))
                .count();
            (supers > 0 && supers >= depth).then_some(supers * "super::".len())
        };
        let Some(skip) = root else {
            i += rest.chars().next().map_or(1, char::len_utf8);
            continue;
        };
        let after = rest[skip..].trim_start();
        if let Some(group) = after.strip_prefix('{') {
            for member in top_level_members(group) {
                let name: String = member.trim().chars().take_while(|&c| is_ident(c)).collect();
                if !name.is_empty() {
                    out.insert(name);
                }
            }
        } else {
            let name: String = after.chars().take_while(|&c| is_ident(c)).collect();
            if !name.is_empty() {
                out.insert(name);
            }
        }
        i += skip;
    }
    out
}

/// The members of a `{…}` group (`group` starts after the `{`), split at its own commas only.
fn top_level_members(group: &str) -> Vec<&str> {
    let (mut depth, mut from, mut out) = (0usize, 0, Vec::new());
    for (k, c) in group.char_indices() {
        match c {
            '{' => depth += 1,
            '}' if depth == 0 => {
                out.push(&group[from..k]);
                return out;
            }
            '}' => depth -= 1,
            ',' if depth == 0 => {
                out.push(&group[from..k]);
                from = k + 1;
            }
            _ => {}
        }
    }
    out.push(&group[from..]);
    out
}

/// The top-level modules used by `src` at module depth `depth` that `allowed` does not list
/// (the oracle's own module `own` is always allowed).
fn forbidden(src: &str, depth: usize, own: &str, allowed: &[&str]) -> Vec<String> {
    reached_modules(&code_only(src), depth)
        .into_iter()
        .filter(|m| m != own && !allowed.contains(&m.as_str()))
        .collect()
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

#[test]
fn oracles_import_only_rules_and_notation() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut bad = Vec::new();
    let mut files = 0;
    for (own, allowed) in ORACLES {
        for path in rust_files(&src.join(own)) {
            let rel = path.strip_prefix(&src).unwrap();
            let text = std::fs::read_to_string(&path).unwrap();
            files += 1;
            for m in forbidden(&text, module_depth(rel), own, allowed) {
                bad.push(format!("src/{} reaches crate::{m}", rel.display()));
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

/// Every Rust file of the crate's `src/`: its name below the crate (`src/…`, forward
/// slashes) and its text.
pub(super) fn crate_sources() -> Vec<(String, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let files = rust_files(&root.join("src"));
    assert!(files.len() > 50, "only {} source files", files.len());
    files
        .into_iter()
        .map(|p| {
            let rel = p.strip_prefix(root).unwrap().to_string_lossy();
            let text = std::fs::read_to_string(&p).unwrap();
            (rel.replace('\\', "/"), text)
        })
        .collect()
}

/// Whether the source file `rel` (as [`crate_sources`] names it) is the binary's command
/// line rather than the library.
pub(super) fn is_command_line(rel: &str) -> bool {
    rel.starts_with("src/cli/") || rel == "src/main.rs"
}

/// The crates of the command line (`cli` feature): named only by the binary's modules.
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

/// The library (all of `src/` but the binary's `main.rs` and `cli/`) names no crate of the
/// command line, so `default-features = false` leaves clap, indicatif and ctrlc out of its
/// API; `.ci/run` builds it so.
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
    let src = "use crate::rules::{Color, Position};\nuse crate::bitboard::Bitboard;\n";
    assert_eq!(forbidden(src, 2, "reference", &["rules"]), ["bitboard"]);
}

#[test]
fn checker_catches_grouped_and_inline_paths() {
    let src = "use crate::{rules::{Move, Step}, diff::Rng};\nfn f() { crate::solve::x(); }\n";
    assert_eq!(forbidden(src, 1, "bitboard", &["rules"]), ["diff", "solve"]);
}

#[test]
fn checker_catches_super_escapes() {
    // From src/adjudicate/step.rs (depth 2) `super::super::` is the crate root; from
    // src/adjudicate/mod.rs (depth 1) a single `super::` already is.
    let nested = "use super::groups::groups;\nuse super::super::reference::Reference;\n";
    assert_eq!(
        forbidden(nested, 2, "adjudicate", &["rules"]),
        ["reference"]
    );
    assert_eq!(
        forbidden(
            "use super::bitboard::Bitboard;",
            1,
            "adjudicate",
            &["rules"]
        ),
        ["bitboard"]
    );
    assert!(forbidden("use super::groups::groups;", 2, "adjudicate", &["rules"]).is_empty());
}

#[test]
fn checker_ignores_comments_and_strings() {
    let src =
        "//! Like [`crate::reference`].\n/* crate::solve */\nconst S: &str = \"crate::cli\";\n";
    assert!(forbidden(src, 1, "bitboard", &["rules"]).is_empty());
}

#[test]
fn module_depth_of_files() {
    assert_eq!(module_depth(Path::new("reference/mod.rs")), 1);
    assert_eq!(module_depth(Path::new("reference/steps.rs")), 2);
    assert_eq!(module_depth(Path::new("bitboard/gen/runs.rs")), 3);
}
