//! Compact table files, format 4: the one-byte values of one or more core slices.
//!
//! ```text
//! ORDO-TABLE\n
//! {"format":4,"solver":"compact",...}\n    one line of JSON: the CompactHeader (at most 64 KiB)
//! checksum blake3 0123...(64 hex digits)\n BLAKE3 of line 1, line 2 and the payload
//! for each slice of the header, in order: entries x 1 byte, the value codes in index order
//! ```
//!
//! A file stores values and what rebuilds their index (game, board, material and
//! [`INDEX_SCHEME`]), never the index itself: the loader rebuilds each slice's index from
//! the request and refuses a file whose scheme or entry counts differ. An endgame file
//! holds one material; a game file every material a small-board start can come down to
//! ([`Material::up_to`] the start's). Format 3 (the same layout with an FNV-1a 64 checksum,
//! which a forger recomputes in a line of code) is refused with the command that rebuilds
//! it. Loading checks, before allocating anything for the
//! values: a regular file (before opening it: a FIFO would block the open); the first line; the header line's length; the format (a table of
//! the retro solver, format 2, which this build no longer reads, is named as such); game,
//! board, kind and scope against the request; the rules version and the index scheme; the
//! slices' materials and entry counts against the rebuilt indexes; the file's size against
//! the header; the memory limit. Then the checksum, and the header's counts against the
//! values.

use std::io::{BufRead, BufReader, Write};
use std::path::Path;

use super::{decode, CompactTables, Slice, SliceStats, INDEX_SCHEME};
use crate::checksum::{blake3_line, parse_blake3_line, read_line_limited, BLAKE3_LINE};
use crate::fault::TableFault;
use crate::material::Material;
use crate::memory::{self, Limit};
use crate::rules::{clauses, Dims, Variant};
use crate::value::Value;
use crate::{RetroHeld, SolveError};

pub(super) const MAGIC: &str = "ORDO-TABLE";
/// The layout version of compact table files.
pub const FORMAT: u32 = 4;
/// The previous layout of compact table files (FNV-1a 64 checksum), refused with how to rebuild.
pub const FNV_FORMAT: u32 = 3;
/// The layout version of the retro solver's files, refused with a message of their own.
pub const RETRO_FORMAT: u32 = 2;
/// The longest header line accepted, newline included.
pub const MAX_HEADER: usize = 1 << 16;

/// Everything a compact table file says about itself.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CompactHeader {
    /// Layout version ([`FORMAT`]).
    pub format: u32,
    /// Always `compact`.
    pub solver: String,
    /// A whole game's tables or one endgame slice (`game`, `endgame`).
    pub kind: TableKind,
    /// The game (`classic` or `x`).
    #[serde(with = "crate::text")]
    pub variant: Variant,
    /// The board (`COLSxROWS`).
    #[serde(with = "crate::text")]
    pub board: Dims,
    /// The setup (`row1`, `row2`) or the material (`3v2`).
    pub scope: String,
    /// `INDEX_SCHEME` of the index the values are in.
    pub index_scheme: u32,
    /// [`clauses::Registry::rules_version`] of the rules the values were computed under.
    pub rules_version: u32,
    /// The slices stored, in payload order, each with its entry count and value counts.
    pub slices: Vec<SliceStats>,
    /// Wall time of the run that solved the table, milliseconds.
    #[serde(default)]
    pub solve_ms: Option<u64>,
    /// Peak resident memory of that run, bytes.
    #[serde(default)]
    pub peak_memory: Option<u64>,
}

/// What a table file holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TableKind {
    /// Every material a small-board start can come down to (`ordo solve`).
    Game,
    /// One material (a slice of `ordo tb build`).
    Endgame,
}

impl TableKind {
    /// `game` or `endgame`, as the header writes it.
    pub fn name(self) -> &'static str {
        match self {
            TableKind::Game => "game",
            TableKind::Endgame => "endgame",
        }
    }
}

impl std::fmt::Display for TableKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// What a caller asks a compact file to be; anything else is refused.
#[derive(Clone, Debug)]
pub struct CompactExpect {
    /// A game's tables or an endgame slice.
    pub kind: TableKind,
    /// The setup or the material.
    pub scope: String,
    /// The materials the file must hold, in order.
    pub materials: Vec<Material>,
    /// The memory the values may take.
    pub memory: Option<Limit>,
}

pub(super) fn file_error(path: &Path, msg: impl std::fmt::Display) -> SolveError {
    SolveError::File {
        path: path.display().to_string(),
        msg: msg.to_string(),
    }
}

impl CompactTables {
    /// Write the slices `materials` (all built) atomically to `path` as one file of `kind`
    /// and `scope`, with `stats` (one per material, in order).
    pub fn save(
        &self,
        path: &Path,
        kind: TableKind,
        scope: &str,
        stats: &[SliceStats],
        solve_ms: Option<u64>,
    ) -> Result<CompactHeader, SolveError> {
        let mut parts = Vec::new();
        for s in stats {
            let m = s.material;
            let slice = self
                .slices
                .get(&m)
                .ok_or_else(|| SolveError::Input(format!("slice {m} is not built")))?;
            parts.push(slice.values.as_slice());
        }
        let header = CompactHeader {
            format: FORMAT,
            solver: "compact".into(),
            kind,
            variant: self.variant,
            board: self.dims,
            scope: scope.into(),
            index_scheme: INDEX_SCHEME,
            rules_version: clauses::registry().rules_version,
            slices: stats.to_vec(),
            solve_ms,
            peak_memory: ordo_system::usage::peak_memory(),
        };
        let text = serde_json::to_string(&header).map_err(|e| file_error(path, e))?;
        let head = format!("{MAGIC}\n{text}\n");
        if text.len() + 1 > MAX_HEADER {
            return Err(file_error(path, "header longer than 64 KiB"));
        }
        let mut h = blake3::Hasher::new();
        h.update(head.as_bytes());
        parts.iter().for_each(|p| {
            h.update(p);
        });
        crate::files::write_atomically_with(path, |w| {
            w.write_all(head.as_bytes())?;
            writeln!(w, "{}", blake3_line(&h.finalize()))?;
            parts.iter().try_for_each(|p| w.write_all(p))
        })
        .map_err(|e| file_error(path, e.reason))?;
        Ok(header)
    }

    /// Read the compact file at `path`, refusing it unless it is exactly what `want`
    /// describes (see the module documentation), and add its slices.
    pub fn load(&mut self, path: &Path, want: &CompactExpect) -> Result<CompactHeader, SolveError> {
        let f = crate::files::open_regular(path).map_err(|e| file_error(path, e))?;
        let meta = f.metadata().map_err(|e| file_error(path, e))?;
        self.load_from(BufReader::new(f), meta.len(), path, want)
    }

    /// [`load`](Self::load) from the bytes of a table file (`name` in errors), with the
    /// same checks: what a page in a browser fetched ([`crate::Tablebase::in_memory`]).
    pub fn load_bytes(
        &mut self,
        name: &Path,
        bytes: &[u8],
        want: &CompactExpect,
    ) -> Result<CompactHeader, SolveError> {
        self.load_from(bytes, bytes.len() as u64, name, want)
    }

    /// Read a table file of `size` bytes from `r` (see [`load`](Self::load)).
    fn load_from(
        &mut self,
        mut r: impl BufRead,
        size: u64,
        path: &Path,
        want: &CompactExpect,
    ) -> Result<CompactHeader, SolveError> {
        let bad = |msg: String| file_error(path, msg);
        let io = |e: std::io::Error| file_error(path, e);
        let fault = |f: TableFault| file_error(path, f);
        let line = read_head(&mut r, path)?;
        let header = parse_header(&line).map_err(|msg| match msg {
            Foreign::Retro(held) => SolveError::RetroTable {
                path: path.display().to_string(),
                held,
            },
            Foreign::Bad(msg) => bad(msg),
        })?;
        if let Some(msg) = self.other_table(&header, want) {
            return Err(SolveError::OtherTable {
                path: path.display().to_string(),
                msg,
            });
        }
        let indexes = self.check_header(&header, want).map_err(fault)?;
        let stored = read_checksum(&mut r)
            .map_err(io)?
            .ok_or_else(|| bad("no checksum line after the header".into()))?;
        let head_len = (MAGIC.len() + 1 + line.len() + BLAKE3_LINE) as u64;
        let payload: u64 = header.slices.iter().map(|s| s.entries).sum();
        check_file_size(size, head_len, payload).map_err(fault)?;
        memory::check(
            &format!("loading {}", path.display()),
            payload,
            want.memory.as_ref(),
        )?;
        let mut h = blake3::Hasher::new();
        h.update(format!("{MAGIC}\n").as_bytes());
        h.update(&line);
        let mut slices = Vec::new();
        for (s, index) in header.slices.iter().zip(indexes) {
            let mut values = vec![0u8; s.entries as usize];
            r.read_exact(&mut values).map_err(io)?;
            h.update(&values);
            slices.push((s, Slice { index, values }));
        }
        let got = h.finalize();
        if got != stored {
            return Err(fault(TableFault::Checksum {
                stored: stored.to_hex().to_string(),
                got: got.to_hex().to_string(),
            }));
        }
        for (s, slice) in slices {
            check_counts(s, &slice.values).map_err(fault)?;
            self.checks.remove(&s.material);
            self.slices.insert(s.material, slice);
        }
        Ok(header)
    }

    /// Why the header names another table than the one asked for, if it does.
    fn other_table(&self, h: &CompactHeader, want: &CompactExpect) -> Option<String> {
        let asked = format!(
            "{} {} {} {}",
            self.variant.name(),
            self.dims,
            want.kind,
            want.scope
        );
        let holds = format!("{} {} {} {}", h.variant, h.board, h.kind, h.scope);
        (asked != holds).then(|| format!("holds the {holds} table, not the {asked} asked for"))
    }

    /// The header's fields against this build and the request; the rebuilt indexes.
    fn check_header(
        &mut self,
        h: &CompactHeader,
        want: &CompactExpect,
    ) -> Result<Vec<super::CoreIndex>, TableFault> {
        let rules = clauses::registry().rules_version;
        if h.rules_version != rules {
            return Err(TableFault::RulesVersion {
                file: h.rules_version,
                build: rules,
            });
        }
        if h.index_scheme != INDEX_SCHEME || h.solver != "compact" {
            return Err(TableFault::IndexScheme {
                scheme: h.index_scheme,
                solver: h.solver.clone(),
            });
        }
        let names: Vec<String> = want.materials.iter().map(|m| m.to_string()).collect();
        let held: Vec<String> = h.slices.iter().map(|s| s.material.to_string()).collect();
        if names != held {
            return Err(TableFault::Slices {
                held,
                expected: names,
            });
        }
        let mut indexes = Vec::new();
        for (s, &m) in h.slices.iter().zip(&want.materials) {
            let index = self
                .core_index(m)
                .map_err(|e| TableFault::Index(e.to_string()))?;
            if s.entries != index.len() as u64 {
                return Err(TableFault::SliceEntries {
                    material: m.to_string(),
                    said: s.entries,
                    index: index.len(),
                });
            }
            indexes.push(index);
        }
        Ok(indexes)
    }
}

pub(super) fn read_checksum(r: &mut impl BufRead) -> std::io::Result<Option<blake3::Hash>> {
    Ok(parse_blake3_line(
        read_line_limited(r, BLAKE3_LINE)?.as_deref(),
    ))
}

/// Why a header line is not read.
pub(super) enum Foreign {
    /// A retro solver's table (format 2: an error, never replaced), with what its header says.
    Retro(Box<RetroHeld>),
    /// Damaged or of an unknown format.
    Bad(String),
}

/// The header of a line, refusing other formats first: a retro table by name.
pub(super) fn parse_header(line: &[u8]) -> Result<CompactHeader, Foreign> {
    #[derive(serde::Deserialize)]
    struct Version {
        format: u32,
    }
    let version: Version = serde_json::from_slice(line)
        .map_err(|e| Foreign::Bad(format!("unreadable header (no format version): {e}")))?;
    match version.format {
        FORMAT => serde_json::from_slice(line)
            .map_err(|e| Foreign::Bad(format!("unreadable header: {e}"))),
        RETRO_FORMAT => Err(Foreign::Retro(
            serde_json::from_slice(line).unwrap_or_default(),
        )),
        FNV_FORMAT => Err(Foreign::Bad(format!(
            "a compact table of format {FNV_FORMAT}, whose FNV-1a checksum does not guard against edits (this build reads format {FORMAT}, checksummed with BLAKE3); delete the file and build the table again with the same command"
        ))),
        f => Err(Foreign::Bad(format!(
            "table file format {f} (this build reads compact tables of format {FORMAT}); delete the file and build the table again"
        ))),
    }
}

/// The header line of a table file, after its first line (which must be the magic).
pub(super) fn read_head(r: &mut impl BufRead, path: &Path) -> Result<Vec<u8>, SolveError> {
    let io = |e: std::io::Error| file_error(path, e);
    let magic = read_line_limited(r, MAGIC.len() + 1).map_err(io)?;
    if magic.as_deref() != Some(format!("{MAGIC}\n").as_bytes()) {
        return Err(file_error(
            path,
            format!("not an Ordo table (first line is not {MAGIC})"),
        ));
    }
    read_line_limited(r, MAX_HEADER)
        .map_err(io)?
        .ok_or_else(|| {
            file_error(
                path,
                format!("no header line of at most {MAX_HEADER} bytes"),
            )
        })
}

/// The file's size against the size its header implies.
pub(super) fn check_file_size(len: u64, head_len: u64, payload: u64) -> Result<(), TableFault> {
    if len == head_len + payload {
        return Ok(());
    }
    Err(TableFault::Size {
        len,
        implied: head_len + payload,
        entries: payload,
    })
}

/// The header's counts of a slice against its values. A stored byte answers for one to four
/// core positions (itself, its mirror image, its colour twin and the twin's image), so each
/// count of the header lies between the stored count and four times it; the longest
/// distance is the same.
fn check_counts(s: &SliceStats, values: &[u8]) -> Result<(), TableFault> {
    let mut have = SliceStats::default();
    for &c in values {
        match decode(c) {
            Value::Win(d) => (have.wins, have.longest) = (have.wins + 1, have.longest.max(d)),
            Value::Loss(d) => (have.losses, have.longest) = (have.losses + 1, have.longest.max(d)),
            Value::Draw => have.draws += 1,
        }
    }
    let bad = |what: &'static str| {
        Err(TableFault::SliceCounts {
            material: s.material.to_string(),
            what,
            stored: values.len(),
        })
    };
    // Checked: the header's numbers are the file's, any u64 (a forged sum must not wrap).
    let sum = s
        .wins
        .checked_add(s.losses)
        .and_then(|n| n.checked_add(s.draws));
    if s.entries != values.len() as u64 || sum != Some(s.positions) {
        return bad("entries or positions");
    }
    let within = |header: u64, stored: u64| stored <= header && header <= 4 * stored;
    if !within(s.wins, have.wins) || !within(s.losses, have.losses) || !within(s.draws, have.draws)
    {
        return bad("wins, losses or draws");
    }
    if s.longest != have.longest {
        return bad("longest distance");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The typed fields of a header are written as the strings the format has always held
    /// (files built before and after are byte for byte the same), and read back.
    #[test]
    fn a_header_writes_its_kind_game_and_board_as_text() {
        let header = CompactHeader {
            format: FORMAT,
            solver: "compact".into(),
            kind: TableKind::Endgame,
            variant: Variant::X,
            board: Dims { cols: 4, rows: 3 },
            scope: "2v1".into(),
            index_scheme: INDEX_SCHEME,
            rules_version: 7,
            slices: Vec::new(),
            solve_ms: None,
            peak_memory: Some(1),
        };
        let text = serde_json::to_string(&header).unwrap();
        assert_eq!(
            text,
            format!(
                "{{\"format\":{FORMAT},\"solver\":\"compact\",\"kind\":\"endgame\",\"variant\":\"x\",\"board\":\"4x3\",\"scope\":\"2v1\",\"index_scheme\":{INDEX_SCHEME},\"rules_version\":7,\"slices\":[],\"solve_ms\":null,\"peak_memory\":1}}"
            )
        );
        assert_eq!(parse_header(text.as_bytes()).ok(), Some(header));
        let game = text.replace("\"endgame\"", "\"game\"");
        assert_eq!(
            parse_header(game.as_bytes()).ok().map(|h| h.kind),
            Some(TableKind::Game)
        );
        let other = text.replace("\"x\"", "\"chess\"");
        assert!(parse_header(other.as_bytes()).is_err());
    }
}
