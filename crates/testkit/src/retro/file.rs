//! Table files, format 2: three text lines, then the keys and values in index order.
//!
//! ```text
//! ORDO-TABLE\n
//! {"format":2,"kind":"game",...}\n              one line of JSON: the Header (at most 4096 bytes)
//! checksum fnv1a64 0123456789abcdef\n           FNV-1a 64 of line 1, line 2 and the payload
//! entries x 16 bytes: keys (little-endian u128), in index order; absent in endgame slices
//! entries x 2 bytes:  value codes (little-endian u16); absent in a checkpoint
//! ```
//!
//! The checksum covers the header as well as the payload, so no field can be changed
//! unnoticed. Loading checks, in this order and before allocating anything for the payload:
//! that the file is a regular file; the first line; the header line's length; the format
//! version (format 1, whose checksum did not cover the header, is refused with a one-line
//! message; a compact solver table, format 4, is refused as another table); the
//! rules version; that the game, board, kind and scope (setup or material) are
//! the ones asked for; that the number of entries is the one the request implies (an endgame
//! slice's index size) or at least fits an index; that the file's size is exactly what the
//! header implies; that the payload fits the memory limit. Then the checksum, and the value
//! counts of the header against the values. A forger who edits a field and recomputes the
//! checksum is not caught here; the verification pass recomputes every value from its
//! successors.

use std::io::{BufReader, Read, Write};
use std::path::Path;

use super::analysis::tally;
use super::space::{Key, Space};
use crate::rules::{clauses, Dims, Variant};
use crate::solve::MemoryLimit;
use crate::solve::{parse_checksum_line, read_line_limited, Fnv, CHECKSUM_LINE, CHECKSUM_PREFIX};
use crate::solve::{Counts, SolveError};

const MAGIC: &str = "ORDO-TABLE";
/// The version of this file layout.
pub const FORMAT: u32 = 2;
/// The longest header line accepted, newline included.
pub const MAX_HEADER: usize = 4096;

/// Everything a table file says about itself.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
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
}

/// What a caller asks a table file to be; anything else is refused.
#[derive(Clone, Debug)]
pub struct Expect {
    /// `game` or `endgame`.
    pub kind: &'static str,
    pub variant: Variant,
    pub dims: Dims,
    /// The setup or the material.
    pub scope: String,
    /// Whether values must be present (false: a checkpoint, keys only).
    pub solved: bool,
    /// The exact number of entries, where the request implies it (an endgame slice).
    pub entries: Option<u64>,
    /// The memory the payload may take.
    pub memory: Option<MemoryLimit>,
}

/// A table as read from or written to a file.
#[derive(Clone, Debug)]
pub struct Table {
    pub header: Header,
    pub space: Space,
    /// One [`crate::solve::Value::code`] per position; empty in a checkpoint.
    pub values: Vec<u16>,
}

/// The checksum of a file: its first two lines (newlines included) and its payload.
fn checksum(head: &[u8], keys: &[Key], values: &[u16]) -> u64 {
    let mut h = Fnv::new();
    h.update(head);
    for k in keys {
        h.update(&k.to_le_bytes());
    }
    for v in values {
        h.update(&v.to_le_bytes());
    }
    h.0
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
        keyed: !keys.is_empty() || (entries == 0 && kind == "game"),
        solved: !values.is_empty() || entries == 0,
        counts,
        solve_ms: None,
        peak_memory: None,
    }
}

/// Write a header, keys and values atomically to `path` (see `ordo_system::files`).
pub fn save_raw(
    path: &Path,
    header: &Header,
    keys: &[Key],
    values: &[u16],
) -> Result<(), SolveError> {
    let text = serde_json::to_string(header).map_err(|e| SolveError::io(path, e))?;
    let head = format!("{MAGIC}\n{text}\n");
    if head.len() - MAGIC.len() - 1 > MAX_HEADER {
        return Err(SolveError::io(path, "header longer than 4096 bytes"));
    }
    let sum = checksum(head.as_bytes(), keys, values);
    ordo_system::files::write_atomically_with(path, |w| {
        w.write_all(head.as_bytes())?;
        writeln!(w, "{CHECKSUM_PREFIX}{sum:016x}")?;
        for k in keys {
            w.write_all(&k.to_le_bytes())?;
        }
        for v in values {
            w.write_all(&v.to_le_bytes())?;
        }
        Ok(())
    })
    .map_err(|e| SolveError::io(path, e.reason))
}

/// The refusal of a compact solver's table where a retro one was asked for.
fn compact_table_here(path: &Path) -> SolveError {
    SolveError::OtherTable {
        path: path.display().to_string(),
        msg: format!(
            "a compact solver table (format {}), not a retro one (format {FORMAT})",
            crate::solve::TABLE_FORMAT
        ),
    }
}

/// Read any table file, refusing it unless it is exactly what `want` describes (see the
/// module documentation for the checks): its header, keys and values.
pub fn load_raw(path: &Path, want: &Expect) -> Result<(Header, Vec<Key>, Vec<u16>), SolveError> {
    let bad = |msg: String| SolveError::File {
        path: path.display().to_string(),
        msg,
    };
    let f = std::fs::File::open(path).map_err(|e| SolveError::io(path, e))?;
    let meta = f.metadata().map_err(|e| SolveError::io(path, e))?;
    if !meta.is_file() {
        return Err(bad("not a regular file".into()));
    }
    let mut r = BufReader::new(f);
    let magic = read_line_limited(&mut r, MAGIC.len() + 1).map_err(|e| SolveError::io(path, e))?;
    if magic.as_deref() != Some(format!("{MAGIC}\n").as_bytes()) {
        return Err(bad(format!(
            "not an Ordo table (first line is not {MAGIC})"
        )));
    }
    let line = read_line_limited(&mut r, MAX_HEADER)
        .map_err(|e| SolveError::io(path, e))?
        .ok_or_else(|| bad(format!("no header line of at most {MAX_HEADER} bytes")))?;
    if compact_format(&line) {
        return Err(compact_table_here(path));
    }
    let fault = |f: TableFault| bad(f.to_string());
    let header = parse_header(&line).map_err(fault)?;
    if let Some(msg) = other_table(&header, want) {
        return Err(SolveError::OtherTable {
            path: path.display().to_string(),
            msg,
        });
    }
    check_header(&header, want).map_err(fault)?;
    let sum_line = read_line_limited(&mut r, CHECKSUM_LINE).map_err(|e| SolveError::io(path, e))?;
    let stored = parse_checksum_line(sum_line.as_deref())
        .ok_or_else(|| bad("no checksum line after the header".into()))?;
    let head_len = (MAGIC.len() + 1 + line.len()) as u64;
    let payload =
        check_size(&header, meta.len(), head_len + CHECKSUM_LINE as u64).map_err(fault)?;
    crate::solve::check_limit(
        &format!("loading {}", path.display()),
        payload,
        want.memory.as_ref(),
    )?;
    let (keys, values) = read_payload(&mut r, &header).map_err(|e| SolveError::io(path, e))?;
    let mut head = format!("{MAGIC}\n").into_bytes();
    head.extend_from_slice(&line);
    let sum = checksum(&head, &keys, &values);
    if sum != stored {
        return Err(fault(TableFault::Checksum { stored, got: sum }));
    }
    check_counts(&header, &values).map_err(fault)?;
    Ok((header, keys, values))
}

/// Whether a header line is the compact solver's (another solver's valid table).
fn compact_format(line: &[u8]) -> bool {
    #[derive(serde::Deserialize)]
    struct Version {
        format: u32,
    }
    serde_json::from_slice::<Version>(line).is_ok_and(|v| v.format == crate::solve::TABLE_FORMAT)
}

/// Why a table file is refused: what its header or contents say against the file itself, this
/// build or the request. The loaders name the file ([`SolveError::File`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub(crate) enum TableFault {
    #[error("unreadable header (no format version): {0}")]
    NoFormat(String),
    #[error("unreadable header: {0}")]
    Header(String),
    #[error("table file format {0} (this build reads format {FORMAT} only, whose checksum covers the header); delete the file and build the table again")]
    Format(u32),
    #[error(
        "computed under rules version {file} (this build has rules version {build}); rebuild it"
    )]
    RulesVersion { file: u32, build: u32 },
    #[error("a {kind} table that says it {} its keys", if *.keyed { "stores" } else { "does not store" })]
    Keys { kind: String, keyed: bool },
    #[error("holds no values (a checkpoint)")]
    NoValues,
    #[error("holds values where a checkpoint was expected")]
    UnexpectedValues,
    #[error("says {said} entries; the {scope} index has {index}")]
    Entries {
        said: u64,
        scope: String,
        index: u64,
    },
    #[error("says {0} entries; an index has fewer than 2^32")]
    TooManyEntries(u64),
    #[error("value counts must be present exactly when values are")]
    CountsPresence,
    /// The file is shorter or longer than its header implies.
    #[error("{len} bytes; the header implies {implied} ({entries} entries): the file is {}", if .len < .implied { "truncated" } else { "extended" })]
    Size {
        len: u64,
        implied: u64,
        entries: u64,
    },
    #[error(
        "checksum mismatch (stored {stored:016x}, contents {got:016x}): the file is corrupted"
    )]
    Checksum { stored: u64, got: u64 },
    #[error("the header counts {header} {what}, the values {values}: the file is inconsistent")]
    Counts {
        what: &'static str,
        header: u64,
        values: u64,
    },
}

/// The header of a line, refusing other format versions first (with the version named).
fn parse_header(line: &[u8]) -> Result<Header, TableFault> {
    #[derive(serde::Deserialize)]
    struct Version {
        format: u32,
    }
    let version: Version =
        serde_json::from_slice(line).map_err(|e| TableFault::NoFormat(e.to_string()))?;
    if version.format != FORMAT {
        return Err(TableFault::Format(version.format));
    }
    serde_json::from_slice(line).map_err(|e| TableFault::Header(e.to_string()))
}

/// Why the header names another table than the one asked for, if it does.
fn other_table(h: &Header, want: &Expect) -> Option<String> {
    let asked = format!(
        "{} {} {} {}",
        want.variant.name(),
        want.dims,
        want.kind,
        want.scope
    );
    let holds = format!("{} {} {} {}", h.variant, h.board, h.kind, h.scope);
    (asked != holds).then(|| format!("holds the {holds} table, not the {asked} asked for"))
}

/// The header's fields against this build and the request.
fn check_header(h: &Header, want: &Expect) -> Result<(), TableFault> {
    let rules = clauses::registry().rules_version;
    if h.rules_version != rules {
        return Err(TableFault::RulesVersion {
            file: h.rules_version,
            build: rules,
        });
    }
    if h.keyed != (want.kind == "game") {
        return Err(TableFault::Keys {
            kind: h.kind.clone(),
            keyed: h.keyed,
        });
    }
    if h.solved != want.solved {
        return Err(if want.solved {
            TableFault::NoValues
        } else {
            TableFault::UnexpectedValues
        });
    }
    if let Some(n) = want.entries.filter(|&n| n != h.entries) {
        return Err(TableFault::Entries {
            said: h.entries,
            scope: want.scope.to_string(),
            index: n,
        });
    }
    if h.entries >= u64::from(u32::MAX) {
        return Err(TableFault::TooManyEntries(h.entries));
    }
    if h.solved != h.counts.is_some() {
        return Err(TableFault::CountsPresence);
    }
    Ok(())
}

/// The file's size against what the header implies, before anything is allocated; the
/// payload's size.
fn check_size(h: &Header, size: u64, head: u64) -> Result<u64, TableFault> {
    let per = 16 * u64::from(h.keyed) + 2 * u64::from(h.solved);
    let payload = h.entries * per;
    if size != head + payload {
        return Err(TableFault::Size {
            len: size,
            implied: head + payload,
            entries: h.entries,
        });
    }
    Ok(payload)
}

fn read_payload(r: &mut impl Read, h: &Header) -> std::io::Result<(Vec<Key>, Vec<u16>)> {
    let n = h.entries as usize;
    let mut keys = Vec::new();
    if h.keyed {
        keys.reserve_exact(n);
        let mut buf = [0u8; 16];
        for _ in 0..n {
            r.read_exact(&mut buf)?;
            keys.push(u128::from_le_bytes(buf));
        }
    }
    let mut values = Vec::new();
    if h.solved {
        values.reserve_exact(n);
        let mut buf = [0u8; 2];
        for _ in 0..n {
            r.read_exact(&mut buf)?;
            values.push(u16::from_le_bytes(buf));
        }
    }
    Ok((keys, values))
}

/// The header's counts against the values they summarise.
fn check_counts(h: &Header, values: &[u16]) -> Result<(), TableFault> {
    let Some(said) = &h.counts else {
        return Ok(());
    };
    let have = tally(values);
    let pairs = [
        ("positions", said.positions, have.positions),
        ("wins", said.wins, have.wins),
        ("losses", said.losses, have.losses),
        ("draws", said.draws, have.draws),
        ("longest", u64::from(said.longest), u64::from(have.longest)),
    ];
    match pairs.iter().find(|(_, a, b)| a != b) {
        Some(&(what, header, values)) => Err(TableFault::Counts {
            what,
            header,
            values,
        }),
        None => Ok(()),
    }
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

    /// Read a game table (or a checkpoint) of `variant` on `dims` from `setup`, refusing
    /// anything else, a damaged file, or keys that are not positions of the board in index
    /// order.
    pub fn load(
        path: &Path,
        variant: Variant,
        dims: Dims,
        setup: &str,
        solved: bool,
        memory: Option<MemoryLimit>,
    ) -> Result<Table, SolveError> {
        let want = Expect {
            kind: "game",
            variant,
            dims,
            scope: setup.into(),
            solved,
            entries: None,
            memory,
        };
        let (header, keys, values) = load_raw(path, &want)?;
        let bad = |msg: String| SolveError::File {
            path: path.display().to_string(),
            msg,
        };
        let board = if dims.len() >= 128 {
            u128::MAX
        } else {
            (1u128 << dims.len()) - 1
        };
        if let Some(k) = keys.iter().find(|&&k| {
            let (occ, stm) = super::space::unpack(k);
            super::space::pack(occ, stm) != k
                || occ[0] & occ[1] != 0
                || (occ[0] | occ[1]) & !board != 0
        }) {
            return Err(bad(format!(
                "key {k:#x} is not a position of the {dims} board"
            )));
        }
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
}
