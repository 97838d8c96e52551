//! No import circles between files: within each crate of the workspace, no source file names
//! an item of a file that names an item of it back, directly or round a longer loop. A circle
//! means a helper lives in the wrong file: neither file can be read, moved or tested without
//! the other. A module and the files of its own submodules do not count: a parent (`lib.rs`,
//! `mod.rs`, `a.rs` beside `a/`) declares its children and re-exports them, and children use
//! what their parent holds, which is how Rust modules are meant to be layered.
//!
//! The check reads the source as text, with comments and literals blanked out by the same
//! reader as `independence.rs`: every path that starts with `crate::`, `super::` or `self::`
//! (in a `use` tree or in code) is resolved to the file that holds its longest prefix.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use petgraph::algo::tarjan_scc;
use petgraph::graph::DiGraph;

use super::independence::{code_only, rust_files};

/// The module path of a source file below `src/` (`lib.rs` and `main.rs` are the root,
/// `a/mod.rs` and `a.rs` are `a`).
fn module_of(rel: &Path) -> Vec<String> {
    let mut parts: Vec<String> = rel
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    let last = parts.pop().unwrap_or_default();
    let stem = last.trim_end_matches(".rs");
    if !matches!(stem, "lib" | "main" | "mod") {
        parts.push(stem.to_string());
    }
    parts
}

/// The paths (as segment lists) a `use` tree or an inline path names, starting at `at` in
/// `code`, which follows a `crate`, `super` or `self` keyword: `crate::a::{b, c::d}` gives
/// `[a, b]` and `[a, c, d]` after the keyword's segment.
fn paths_at(code: &str, at: usize, prefix: Vec<String>, out: &mut Vec<Vec<String>>) -> usize {
    let bytes = code.as_bytes();
    let mut i = at;
    let mut path = prefix;
    loop {
        while i < bytes.len() && bytes[i].is_ascii_whitespace() {
            i += 1;
        }
        if code[i..].starts_with("::") {
            i += 2;
            continue;
        }
        if i < bytes.len() && bytes[i] == b'{' {
            i += 1;
            loop {
                i = paths_at(code, i, path.clone(), out);
                while i < bytes.len() && (bytes[i].is_ascii_whitespace() || bytes[i] == b',') {
                    i += 1;
                }
                if i >= bytes.len() || bytes[i] == b'}' {
                    out.push(path.clone());
                    return i + 1;
                }
            }
        }
        let len = code[i..]
            .bytes()
            .take_while(|b| b.is_ascii_alphanumeric() || *b == b'_')
            .count();
        if len == 0 {
            out.push(path);
            return i;
        }
        path.push(code[i..i + len].to_string());
        i += len;
        if !code[i..].trim_start().starts_with("::") {
            out.push(path);
            return i;
        }
    }
}

/// Every absolute module path (from the crate root) that `code`, the source of the file of
/// module `module`, names through `crate::`, `super::` or `self::`.
fn named_paths(code: &str, module: &[String]) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    for keyword in ["crate", "super", "self"] {
        let mut from = 0;
        while let Some(k) = code[from..].find(keyword) {
            let start = from + k;
            from = start + keyword.len();
            let before = code[..start].chars().next_back();
            if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':')
                || !code[from..].starts_with("::")
            {
                continue;
            }
            let base = base_of(keyword, module);
            let mut found = Vec::new();
            paths_at(code, from, Vec::new(), &mut found);
            out.extend(
                found
                    .into_iter()
                    .filter_map(|rel| resolve(base.clone()?, rel)),
            );
        }
    }
    out
}

/// The module a path keyword refers to: the root, the parent, or the file's own module.
/// `super` in `a/b.rs` (module `a::b`) is `a`; `self` is `a::b`.
fn base_of(keyword: &str, module: &[String]) -> Option<Vec<String>> {
    match keyword {
        "crate" => Some(Vec::new()),
        "self" => Some(module.to_vec()),
        _ => module.split_last().map(|(_, parent)| parent.to_vec()),
    }
}

/// `base` followed by `rel`, with any leading `super` segments of `rel` applied.
fn resolve(mut base: Vec<String>, rel: Vec<String>) -> Option<Vec<String>> {
    let mut rel = rel.into_iter().peekable();
    while rel.peek().is_some_and(|s| s == "super") {
        rel.next();
        base.pop()?;
    }
    base.extend(rel.filter(|s| s != "self"));
    Some(base)
}

/// The file (index into `modules`) holding the longest prefix of `path`.
fn file_of(path: &[String], modules: &BTreeMap<Vec<String>, usize>) -> Option<usize> {
    (0..=path.len())
        .rev()
        .find_map(|n| modules.get(&path[..n]).copied())
}

/// The import edges between the files of one crate's `src/`, as (importer, imported) pairs
/// of paths relative to `src/`, ancestors (a file and the files of its enclosing modules)
/// left out.
fn import_edges(src: &Path) -> BTreeSet<(PathBuf, PathBuf)> {
    let files: Vec<PathBuf> = rust_files(src)
        .into_iter()
        .map(|p| p.strip_prefix(src).unwrap().to_path_buf())
        .collect();
    let modules: BTreeMap<Vec<String>, usize> = files
        .iter()
        .enumerate()
        .filter(|(_, rel)| !rel.ends_with("main.rs") || !src.join("lib.rs").exists())
        .map(|(i, rel)| (module_of(rel), i))
        .collect();
    let mut edges = BTreeSet::new();
    for (i, rel) in files.iter().enumerate() {
        let code = code_only(&std::fs::read_to_string(src.join(rel)).unwrap());
        let module = module_of(rel);
        for path in named_paths(&code, &module) {
            let Some(j) = file_of(&path, &modules) else {
                continue;
            };
            let target = module_of(&files[j]);
            let related = module.starts_with(&target) || target.starts_with(&module);
            if j != i && !related {
                edges.insert((rel.clone(), files[j].clone()));
            }
        }
    }
    edges
}

/// The circles among `edges`: each a sorted list of the files that import one another.
fn circles(edges: &BTreeSet<(PathBuf, PathBuf)>) -> Vec<Vec<PathBuf>> {
    let mut graph = DiGraph::<PathBuf, ()>::new();
    let mut index = BTreeMap::new();
    for (a, b) in edges {
        for f in [a, b] {
            index
                .entry(f.clone())
                .or_insert_with(|| graph.add_node(f.clone()));
        }
        graph.add_edge(index[a], index[b], ());
    }
    let mut out: Vec<Vec<PathBuf>> = tarjan_scc(&graph)
        .into_iter()
        .filter(|c| c.len() > 1)
        .map(|c| {
            let mut files: Vec<PathBuf> = c.iter().map(|&n| graph[n].clone()).collect();
            files.sort();
            files
        })
        .collect();
    out.sort();
    out
}

/// The `src/` folders of the workspace: the command line's and each crate's.
fn source_roots() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut out = vec![root.join("src")];
    for entry in std::fs::read_dir(root.join("crates")).unwrap() {
        let src = entry.unwrap().path().join("src");
        if src.is_dir() {
            out.push(src);
        }
    }
    out.push(root.join("bench/src"));
    out.sort();
    out
}

#[test]
fn no_file_imports_a_file_that_imports_it_back() {
    let mut found = Vec::new();
    for src in source_roots() {
        for circle in circles(&import_edges(&src)) {
            let names: Vec<String> = circle.iter().map(|p| p.display().to_string()).collect();
            found.push(format!("{}: {}", src.display(), names.join(" <-> ")));
        }
    }
    assert!(found.is_empty(), "import circles:\n{}", found.join("\n"));
}

/// Writes `files` (path below `src/`, text) into a fresh folder and returns its circles. Each
/// call numbers its own folder: the tests run side by side, and a folder named by the file
/// count alone would be shared by two tests with as many files, one removing it under the other.
fn circles_in(files: &[(&str, &str)]) -> Vec<Vec<PathBuf>> {
    static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let call = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("ordo-imports-{}-{call}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    for (rel, text) in files {
        let path = dir.join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    let found = circles(&import_edges(&dir));
    std::fs::remove_dir_all(&dir).unwrap();
    found
}

#[test]
fn checker_finds_a_planted_circle_through_use_trees_and_inline_paths() {
    let found = circles_in(&[
        ("lib.rs", "mod a;\nmod b;\nmod c;\npub use a::A;\n"),
        ("a.rs", "use crate::{b::{self, B}, c};\npub struct A;\n"),
        ("b.rs", "pub struct B;\nfn f() { super::c::g(); }\n"),
        (
            "c.rs",
            "// use crate::a::A;\nfn g() { let _ = \"crate::a\"; crate::a::A; }\n",
        ),
    ]);
    let want: Vec<PathBuf> = ["a.rs", "b.rs", "c.rs"].iter().map(PathBuf::from).collect();
    assert_eq!(found, vec![want]);
}

#[test]
fn checker_lets_a_module_and_its_submodules_use_each_other() {
    let found = circles_in(&[
        ("lib.rs", "mod m;\nmod n;\npub use m::Thing;\n"),
        (
            "m/mod.rs",
            "mod child;\npub use child::Thing;\npub struct Shared;\n",
        ),
        (
            "m/child.rs",
            "use super::Shared;\npub struct Thing(Shared);\n",
        ),
        ("n.rs", "use crate::m::Thing;\n"),
    ]);
    assert!(found.is_empty(), "{found:?}");
}
