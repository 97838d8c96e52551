//! Table files: a text header, then the keys and values in index order.
//!
//! ```text
//! ORDO-TABLE\n
//! {"format":1,"kind":"game",...,"checksum":"…"}\n     one line of JSON: the Header
//! entries x 16 bytes: keys (little-endian u128), in index order; absent in endgame slices
//! entries x 2 bytes:  value codes (little-endian u16); absent in a checkpoint
//! ```
//!
//! The checksum (FNV-1a, 64 bits, over the body) and every header field are checked on
//! loading; a file of another format version, rules version, game or board is refused with
//! a one-line reason. Files are written to a temporary name and renamed into place, so an
//! interrupted write never leaves a half file under the real name.

use std::io::{BufRead, BufReader, BufWriter, Read, Write};
use std::path::Path;

use super::retro::Counts;
use super::space::{Key, Space};
use super::SolveError;
use crate::rules::{clauses, Dims, Variant};

const MAGIC: &str = "ORDO-TABLE";
/// The version of this file layout.
pub const FORMAT: u32 = 1;

/// Everything a table file says about itself.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Header {
    /// Layout version ([`FORMAT`]).
    pub format: u32,
    /// `game` (every position reachable from a start) or `endgame` (a material slice).
    pub kind: String,
    /// `classic` or `x`.
    pub variant: String,
    /// `COLSxROWS`.
    pub board: String,
    /// What the table covers: the setup (`row1`, `row2`) or the material (`3v2`).
    pub scope: String,
    /// [`clauses::Registry::rules_version`] of the rules the values were computed under.
    pub rules_version: u32,
    /// Number of index entries (positions, and gaps in an endgame slice's index).
    pub entries: u64,
    /// Whether the keys of the entries are stored (a game table); an endgame slice computes
    /// them from the index.
    pub keyed: bool,
    /// Whether the values are stored (a checkpoint holds keys only).
    pub solved: bool,
    /// Value counts of a solved table.
    pub counts: Option<Counts>,
    /// Wall time of the run that solved the table, milliseconds.
    #[serde(default)]
    pub solve_ms: Option<u64>,
    /// Peak resident memory of that run, bytes.
    #[serde(default)]
    pub peak_memory: Option<u64>,
    /// FNV-1a 64 of the body, as 16 hex digits.
    pub checksum: String,
}

/// A table as read from or written to a file.
#[derive(Clone, Debug)]
pub struct Table {
    pub header: Header,
    pub space: Space,
    /// One [`super::Value::code`] per position; empty in a checkpoint.
    pub values: Vec<u16>,
}

struct Fnv(u64);

impl Fnv {
    fn new() -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
    fn update(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= u64::from(b);
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
}

fn checksum(keys: &[Key], values: &[u16]) -> String {
    let mut h = Fnv::new();
    for k in keys {
        h.update(&k.to_le_bytes());
    }
    for v in values {
        h.update(&v.to_le_bytes());
    }
    format!("{:016x}", h.0)
}

/// The header of a file holding `keys` (empty for an endgame slice) and `values` (empty
/// for a checkpoint) for `entries` index entries.
#[allow(clippy::too_many_arguments)]
pub fn header(
    kind: &str,
    scope: &str,
    variant: Variant,
    dims: Dims,
    entries: usize,
    keys: &[Key],
    values: &[u16],
    counts: Option<Counts>,
) -> Header {
    Header {
        format: FORMAT,
        kind: kind.into(),
        variant: variant.name().into(),
        board: dims.to_string(),
        scope: scope.into(),
        rules_version: clauses::registry().rules_version,
        entries: entries as u64,
        keyed: !keys.is_empty() || entries == 0,
        solved: !values.is_empty() || entries == 0,
        counts,
        solve_ms: None,
        peak_memory: None,
        checksum: checksum(keys, values),
    }
}

/// Write a header, keys and values atomically to `path`.
pub fn save_raw(
    path: &Path,
    header: &Header,
    keys: &[Key],
    values: &[u16],
) -> Result<(), SolveError> {
    let text = serde_json::to_string(header).map_err(|e| SolveError::io(path, e))?;
    crate::render::write_atomically_with(path, |w: &mut BufWriter<std::fs::File>| {
        writeln!(w, "{MAGIC}")?;
        writeln!(w, "{text}")?;
        for k in keys {
            w.write_all(&k.to_le_bytes())?;
        }
        for v in values {
            w.write_all(&v.to_le_bytes())?;
        }
        Ok(())
    })
    .map_err(|e| SolveError::io(path, e))
}

/// Read any table file: its header (checked against this build), keys and values, after
/// checking the checksum.
pub fn load_raw(path: &Path) -> Result<(Header, Vec<Key>, Vec<u16>), SolveError> {
    let bad = |msg: String| SolveError::File {
        path: path.display().to_string(),
        msg,
    };
    let f = std::fs::File::open(path).map_err(|e| SolveError::io(path, e))?;
    let mut r = BufReader::new(f);
    let mut line = String::new();
    r.read_line(&mut line)
        .map_err(|e| SolveError::io(path, e))?;
    if line.trim_end() != MAGIC {
        return Err(bad(format!(
            "not an Ordo table (first line is not {MAGIC})"
        )));
    }
    line.clear();
    r.read_line(&mut line)
        .map_err(|e| SolveError::io(path, e))?;
    let header: Header = serde_json::from_str(line.trim_end())
        .map_err(|e| bad(format!("unreadable header: {e}")))?;
    if header.format != FORMAT {
        return Err(bad(format!(
            "file format {} (this build reads format {FORMAT})",
            header.format
        )));
    }
    let rules = clauses::registry().rules_version;
    if header.rules_version != rules {
        return Err(bad(format!(
            "computed under rules version {} (this build has rules version {rules}); rebuild it",
            header.rules_version
        )));
    }
    header
        .variant
        .parse::<Variant>()
        .map_err(|e| bad(format!("header variant: {e}")))?;
    header
        .board
        .parse::<Dims>()
        .map_err(|e| bad(format!("header board: {e}")))?;
    let n = usize::try_from(header.entries).map_err(|_| bad("too many entries".into()))?;
    let mut keys = Vec::new();
    if header.keyed {
        keys.reserve(n);
        let mut buf16 = [0u8; 16];
        for i in 0..n {
            r.read_exact(&mut buf16)
                .map_err(|_| bad(format!("truncated: key {i} of {n} missing")))?;
            keys.push(u128::from_le_bytes(buf16));
        }
    }
    let mut values = Vec::new();
    if header.solved {
        values.reserve(n);
        let mut buf2 = [0u8; 2];
        for i in 0..n {
            r.read_exact(&mut buf2)
                .map_err(|_| bad(format!("truncated: value {i} of {n} missing")))?;
            values.push(u16::from_le_bytes(buf2));
        }
    }
    let mut rest = [0u8; 1];
    if r.read(&mut rest).map_err(|e| SolveError::io(path, e))? != 0 {
        return Err(bad("trailing bytes after the table".into()));
    }
    let sum = checksum(&keys, &values);
    if sum != header.checksum {
        return Err(bad(format!(
            "checksum mismatch (header {}, contents {sum}): the file is corrupted",
            header.checksum
        )));
    }
    Ok((header, keys, values))
}

impl Table {
    /// A game table (or, with no values, a checkpoint) of `space`.
    pub fn new(
        kind: &str,
        scope: &str,
        space: Space,
        values: Vec<u16>,
        counts: Option<Counts>,
    ) -> Table {
        let header = header(
            kind,
            scope,
            space.variant(),
            space.dims(),
            space.len(),
            space.keys(),
            &values,
            counts,
        );
        Table {
            header,
            space,
            values,
        }
    }

    /// Write atomically to `path`.
    pub fn save(&self, path: &Path) -> Result<(), SolveError> {
        save_raw(path, &self.header, self.space.keys(), &self.values)
    }

    /// Read a game table, checking its header against this build and its checksum.
    pub fn load(path: &Path) -> Result<Table, SolveError> {
        let (header, keys, values) = load_raw(path)?;
        let bad = |msg: String| SolveError::File {
            path: path.display().to_string(),
            msg,
        };
        if !header.keyed {
            return Err(bad(format!("a {} table, not a game table", header.kind)));
        }
        let variant: Variant = header.variant.parse().map_err(|e| bad(format!("{e}")))?;
        let dims: Dims = header.board.parse().map_err(&bad)?;
        let space = Space::from_keys(dims, variant, keys.clone())?;
        if space.keys() != keys.as_slice() {
            return Err(bad("keys are not in index order or repeat".into()));
        }
        Ok(Table {
            header,
            space,
            values,
        })
    }

    /// Refuse a table of another game, board or scope than expected.
    pub fn expect(
        &self,
        variant: Variant,
        dims: Dims,
        kind: &str,
        scope: &str,
    ) -> Result<(), SolveError> {
        let want = (
            variant.name().to_string(),
            dims.to_string(),
            kind.to_string(),
            scope.to_string(),
        );
        let have = (
            self.header.variant.clone(),
            self.header.board.clone(),
            self.header.kind.clone(),
            self.header.scope.clone(),
        );
        if want != have {
            return Err(SolveError::Mismatch(format!(
                "the table is {} {} {} {}, not {} {} {} {}",
                have.0, have.1, have.2, have.3, want.0, want.1, want.2, want.3
            )));
        }
        Ok(())
    }
}
