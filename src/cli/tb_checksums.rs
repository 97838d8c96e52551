//! `ordo tb checksums`: the content checksums of compact table files, and their check
//! against a list published apart from the files, so that a forged table is caught
//! (`crates/solve/src/compact/digest.rs`).

use std::fmt::Write as _;
use std::path::Path;

use super::solve::solve_error;
use super::CliError;
use crate::notation::echo;
use crate::solve::{content_checksum, parse_checksum_list};

/// Run `ordo tb checksums`: list, or check against `check`; the exit status.
pub fn run(dir: &Path, check: Option<&Path>, out: &mut String) -> Result<u8, CliError> {
    match check {
        None => list(dir, out),
        Some(list) => compare(dir, list, out),
    }
}

/// Every compact table file (`*.ordotb`) directly in `dir`, by name.
fn table_files(dir: &Path) -> Result<Vec<String>, CliError> {
    let entries =
        std::fs::read_dir(dir).map_err(|e| CliError(format!("{}: {e}", dir.display())))?;
    let mut names: Vec<String> = entries
        .filter_map(Result::ok)
        .filter_map(|e| e.file_name().into_string().ok())
        .filter(|n| n.ends_with(".ordotb") && !n.starts_with('.'))
        .collect();
    names.sort();
    Ok(names)
}

fn list(dir: &Path, out: &mut String) -> Result<u8, CliError> {
    let names = table_files(dir)?;
    if names.is_empty() {
        return Err(CliError(format!(
            "{}: no table files (*.ordotb) to checksum",
            dir.display()
        )));
    }
    let mut misnamed = 0;
    for name in names {
        let sum = content_checksum(&dir.join(&name)).map_err(solve_error)?;
        let _ = writeln!(out, "{}  {}", sum.to_hex(), echo(&name));
        if let Some(holds) = named_for(&dir.join(&name)).filter(|h| *h != name) {
            misnamed += 1;
            super::out::note_line(&format!(
                "ordo: warning: {} holds the table named {} (its header says so): renamed or swapped",
                echo(&name),
                echo(&holds)
            ));
        }
    }
    Ok(u8::from(misnamed > 0))
}

/// The file name the header of the table file at `path` gives it (`ctb-GAME-BOARD-SCOPE.ordotb`),
/// read from its first 64 KiB; `None` when the header does not read (`content_checksum` has
/// already refused such a file).
fn named_for(path: &Path) -> Option<String> {
    use std::io::Read;
    let mut head = Vec::new();
    let f = crate::files::open_regular(path).ok()?;
    f.take(70_000).read_to_end(&mut head).ok()?;
    let line = head.split(|&b| b == b'\n').nth(1)?;
    let h: serde_json::Value = serde_json::from_slice(line).ok()?;
    let field = |k: &str| h[k].as_str().map(str::to_string);
    Some(format!(
        "ctb-{}-{}-{}.ordotb",
        field("variant")?,
        field("board")?,
        field("scope")?
    ))
}

/// The largest checksum list read: some ten thousand tables' lines.
const CHECKSUM_LIST: crate::files::Limit = crate::files::Limit {
    bytes: 1 << 20,
    kind: "a checksum list",
};

fn compare(dir: &Path, list: &Path, out: &mut String) -> Result<u8, CliError> {
    let text = crate::files::read_text(list, CHECKSUM_LIST)
        .map_err(|e| CliError(format!("--check {e}")))?;
    let listed = parse_checksum_list(&text)
        .map_err(|e| CliError(format!("--check {}: {e}", list.display())))?;
    if listed.is_empty() {
        return Err(CliError(format!(
            "--check {}: no checksums listed",
            list.display()
        )));
    }
    let mut bad = 0;
    for l in &listed {
        let path = dir.join(&l.name);
        let verdict = if !path.exists() {
            "MISSING".to_string()
        } else {
            match content_checksum(&path) {
                Ok(sum) if sum == l.checksum => "OK".to_string(),
                Ok(sum) => format!(
                    "FAILED (published {}, file {})",
                    l.checksum.to_hex(),
                    sum.to_hex()
                ),
                Err(e) => format!("FAILED ({e})"),
            }
        };
        bad += usize::from(verdict != "OK");
        let _ = writeln!(out, "{}: {verdict}", echo(&l.name));
    }
    let _ = writeln!(
        out,
        "{}",
        match bad {
            0 => format!("every one of the {} tables listed matches", listed.len()),
            n => format!("{n} of the {} tables listed do not match", listed.len()),
        }
    );
    Ok(u8::from(bad > 0))
}
