//! The checkpoint of a verification pass over a game table or a slice file: `TABLE.verifying`,
//! beside the file, lists the chunks of index entries already recomputed without a mismatch, so an
//! interrupted pass loses at most the chunk under way (a few seconds of work) instead of hours. The
//! log names the tables by a fingerprint of their values: a log of other values (the table solved
//! again, or damaged) is set aside and begun anew. The pass removes its log when it ends, so every
//! later `--verify` checks everything again.
//!
//! ```text
//! ordo-verify-log 1 <fingerprint, 16 hex digits> <chunk size>
//! <material> <chunk number> <positions checked> ok      one line a chunk, appended
//! ```
//!
//! A line is trusted only whole (ending in ` ok` and a newline); a torn last line is
//! ignored and its chunk checked again.

use std::collections::HashMap;
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

use super::CompactTables;
use crate::checksum::Fnv;
use crate::material::Material;
use crate::SolveError;

/// Index entries a chunk holds (the unit of resumption).
pub(super) const CHUNK: usize = 1 << 22;

const MAGIC: &str = "ordo-verify-log 1";

/// An open verification log: the chunks checked before, and the file new ones go to.
pub struct VerifyLog {
    path: PathBuf,
    done: HashMap<(Material, usize), u64>,
    file: File,
}

impl VerifyLog {
    /// Open the log at `path` for tables of fingerprint `fingerprint`: the chunks it lists
    /// when it names the same tables; otherwise (missing, another table's, unreadable) a
    /// new log replaces it.
    pub fn open(path: &Path, fingerprint: u64) -> Result<VerifyLog, SolveError> {
        let io = |e: std::io::Error| SolveError::io(path, e);
        let head = format!("{MAGIC} {fingerprint:016x} {CHUNK}");
        let text = match crate::files::open_regular(path) {
            Ok(mut f) => {
                let mut text = String::new();
                std::io::Read::read_to_string(&mut f, &mut text).map_or(String::new(), |_| text)
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
            Err(e) => return Err(io(e)),
        };
        let mut lines = text.lines();
        let kept = lines.next() == Some(head.as_str());
        let done = if kept {
            lines.filter_map(parse_line).collect()
        } else {
            crate::files::write_atomically(path, &format!("{head}\n"))
                .map_err(|e| SolveError::io(path, e))?;
            HashMap::new()
        };
        let mut file = OpenOptions::new().append(true).open(path).map_err(io)?;
        if kept && !text.ends_with('\n') {
            // A torn last line: end it, so the next record starts a line of its own.
            file.write_all(b"\n").map_err(io)?;
        }
        Ok(VerifyLog {
            path: path.to_path_buf(),
            done,
            file,
        })
    }

    /// The positions checked in chunk `chunk` of slice `m` by an earlier run, if it ran.
    pub fn done(&self, m: Material, chunk: usize) -> Option<u64> {
        self.done.get(&(m, chunk)).copied()
    }

    /// Where the log is.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// How many chunks earlier runs checked.
    pub fn resumed(&self) -> usize {
        self.done.len()
    }

    /// Record chunk `chunk` of slice `m` as checked without a mismatch, on disk before
    /// this returns.
    pub fn record(&mut self, m: Material, chunk: usize, checked: u64) -> Result<(), SolveError> {
        let io = |e: std::io::Error| SolveError::io(&self.path, e);
        writeln!(self.file, "{m} {chunk} {checked} ok").map_err(io)?;
        self.file.sync_data().map_err(io)?;
        self.done.insert((m, chunk), checked);
        Ok(())
    }

    /// The pass has ended: remove the log.
    pub fn finish(self) -> Result<(), SolveError> {
        std::fs::remove_file(&self.path).map_err(|e| SolveError::io(&self.path, e))
    }
}

/// A whole record line: `material chunk checked ok`.
fn parse_line(line: &str) -> Option<((Material, usize), u64)> {
    let mut w = line.split(' ');
    let (m, chunk, checked) = (w.next()?, w.next()?, w.next()?);
    if w.next() != Some("ok") || w.next().is_some() {
        return None;
    }
    Some((
        (m.parse().ok()?, chunk.parse().ok()?),
        checked.parse().ok()?,
    ))
}

/// The log of a game table: its path with `.verifying` added.
pub fn log_path(table: &Path) -> PathBuf {
    let mut s = table.as_os_str().to_owned();
    s.push(".verifying");
    PathBuf::from(s)
}

impl CompactTables {
    /// A fingerprint of the tables: game, board, and every slice's material and values.
    pub fn fingerprint(&self) -> u64 {
        let all: Vec<Material> = self.slices.keys().copied().collect();
        self.fingerprint_of(&all)
    }

    /// A fingerprint of game, board, and the material and values of each slice of `of`
    /// these tables hold (in order of material, each once).
    pub fn fingerprint_of(&self, of: &[Material]) -> u64 {
        let of: std::collections::BTreeSet<&Material> = of.iter().collect();
        let mut h = Fnv::new();
        h.update(format!("{} {}", self.variant.name(), self.dims).as_bytes());
        for (m, slice) in self.slices.iter().filter(|(m, _)| of.contains(m)) {
            h.update(format!(" {m}:{}", slice.values.len()).as_bytes());
            h.update(&slice.values);
        }
        h.0
    }
}
