//! Every function of the crate fits on a screen: no function in `src/` is longer than
//! [`LIMIT`] lines (from its `fn` line to its closing brace), so each reads at a glance and is
//! named after what it does. The check reads the source as text, with comments and
//! literals blanked out by the same reader as `independence.rs`. What is deliberately longer
//! stands in [`ALLOWED`] with its reason.

use super::independence::{code_only, crate_sources};

/// The most lines a function may take.
const LIMIT: usize = 60;

/// Functions allowed to be longer than [`LIMIT`]: (file below the crate, function name,
/// reason). Each entry must still be needed: one that no longer names a long function fails
/// the test, so the list only shrinks.
const ALLOWED: [(&str, &str, &str); 0] = [
    // No data tables are long today; one would stand here with the reason it is a table.
];

/// A function found in a source file: its name, first line (1-based) and length in lines.
#[derive(Debug, PartialEq, Eq)]
struct Function {
    name: String,
    line: usize,
    lines: usize,
}

/// The name of the function an item line declares (`fn`, with any of `pub`, `pub(…)`,
/// `const`, `async`, `unsafe`, `extern` before it), if it declares one.
fn declared_fn(line: &str) -> Option<String> {
    let mut rest = line.trim_start();
    loop {
        let word: String = rest.chars().take_while(|c| !c.is_whitespace()).collect();
        let qualifier = word == "pub"
            || word.starts_with("pub(")
            || ["const", "async", "unsafe", "extern", "default"].contains(&word.as_str());
        if !qualifier {
            break;
        }
        rest = rest[word.len()..].trim_start();
    }
    let after = rest.strip_prefix("fn ")?.trim_start();
    let name: String = after
        .chars()
        .take_while(|&c| c.is_alphanumeric() || c == '_')
        .collect();
    (!name.is_empty()).then_some(name)
}

/// The line (0-based) on which the body of the function declared at line `start` of `lines`
/// closes, or `None` for a declaration without a body (a trait method ending in `;`).
fn body_end(lines: &[&str], start: usize) -> Option<usize> {
    let (mut parens, mut braces, mut opened) = (0i32, 0i32, false);
    for (k, line) in lines.iter().enumerate().skip(start) {
        for c in line.chars() {
            match c {
                '(' | '[' => parens += 1,
                ')' | ']' => parens -= 1,
                ';' if parens == 0 && !opened => return None,
                '{' => {
                    braces += 1;
                    opened = true;
                }
                '}' => {
                    braces -= 1;
                    if opened && braces == 0 {
                        return Some(k);
                    }
                }
                _ => {}
            }
        }
    }
    None
}

/// Every function with a body in the source text `src`, nested ones included.
fn functions(src: &str) -> Vec<Function> {
    let code = code_only(src);
    let lines: Vec<&str> = code.lines().collect();
    let mut out = Vec::new();
    for (k, line) in lines.iter().enumerate() {
        let Some(name) = declared_fn(line) else {
            continue;
        };
        if let Some(end) = body_end(&lines, k) {
            out.push(Function {
                name,
                line: k + 1,
                lines: end - k + 1,
            });
        }
    }
    out
}

#[test]
fn no_function_is_longer_than_a_screen() {
    let mut long = Vec::new();
    let mut allowed_seen = Vec::new();
    let mut count = 0;
    for (rel, text) in crate_sources() {
        for f in functions(&text) {
            count += 1;
            if f.lines <= LIMIT {
                continue;
            }
            match ALLOWED.iter().find(|(p, n, _)| *p == rel && *n == f.name) {
                Some(entry) => allowed_seen.push(entry.1),
                None => long.push(format!("{rel}:{} {} ({} lines)", f.line, f.name, f.lines)),
            }
        }
    }
    assert!(count > 500, "only {count} functions found in src/");
    assert!(
        long.is_empty(),
        "functions longer than {LIMIT} lines (split them into functions named after what they do, or add one to ALLOWED with the reason):\n{}",
        long.join("\n")
    );
    let stale: Vec<String> = ALLOWED
        .iter()
        .filter(|(_, n, _)| !allowed_seen.contains(n))
        .map(|(p, n, _)| format!("{p} {n}"))
        .collect();
    assert!(
        stale.is_empty(),
        "ALLOWED names functions that are no longer over {LIMIT} lines; remove them:\n{}",
        stale.join("\n")
    );
}

#[test]
fn finder_measures_from_fn_line_to_closing_brace() {
    let src = "\
/// Doc with a brace {.
pub(crate) fn a(x: [u8; 2]) -> u8 {
    let s = \"}\";
    let c = '{';
    // }
    x[0]
}
trait T {
    fn decl(&self);
    fn with_body(&self) {}
}
const fn b() -> &'static str { r#\"{\"# }
";
    let found = functions(src);
    let got: Vec<(&str, usize, usize)> = found
        .iter()
        .map(|f| (f.name.as_str(), f.line, f.lines))
        .collect();
    assert_eq!(got, [("a", 2, 6), ("with_body", 10, 1), ("b", 12, 1)]);
}

#[test]
fn finder_flags_a_planted_long_function() {
    let body = "    let x = 1;\n".repeat(LIMIT);
    let src = format!("fn long() {{\n{body}}}\nfn short() {{}}\n");
    let found = functions(&src);
    assert_eq!(found[0].name, "long");
    assert_eq!(found[0].lines, LIMIT + 2);
    assert!(found[0].lines > LIMIT);
    assert_eq!(found[1].lines, 1);
}
