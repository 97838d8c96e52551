//! A slice's checkpoint: the values of its finished layer groups, so that an interrupted
//! build loses at most the group under way.
//!
//! Layer groups are solved in slot order and each is a contiguous run of the value array
//! ([`CoreIndex::layers`]), so the groups done are a prefix of the values. The file:
//!
//! ```text
//! ORDO-CHECKPOINT\n
//! {"format":3,"variant":...,"material":"3v2","groups":12,"done":40960,...,"check":{...}}\n
//! checksum blake3 0123...(64 hex digits)\n BLAKE3 of line 1, line 2 and the payload
//! done x 1 byte                             the values of the first `groups` layer groups
//! ```
//!
//! It is written atomically (`crates/system/src/files.rs`) beside the slice's file, as that file's name with
//! `.partial` added, and removed once the slice's file is written. A checkpoint of another
//! slice, board, game, rules version or index scheme, or one that is damaged, is not used:
//! the caller hears why and the slice is built from its first group. So is a checkpoint of
//! format 1 (an FNV-1a 64 checksum), written before the tables moved to BLAKE3.
//!
//! Format 3 adds `check`, the verdict of the in-sweep check of the groups kept
//! (`layer::check_layer`, run as each group is settled): a build resumed from it checks the
//! groups it adds in its own sweep and ends with the verdict of the whole slice, as a build
//! in one go does, so a slice built across stops needs no verification pass after it. A
//! checkpoint of format 2 (before that) is still used; it carries no verdict, so the slice
//! it resumes is verified after its build.

use std::io::{BufRead, BufReader, Read, Write};
use std::path::Path;

use super::{CoreIndex, Layer, SliceStats, INDEX_SCHEME};
use crate::checksum::{self, BLAKE3_LINE};
use crate::material::Material;
use crate::report::Verification;
use crate::rules::{clauses, Dims, Variant};

/// Why a checkpoint is not written, or not used.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CheckpointError {
    /// Reading or writing the file failed.
    #[error("{0}")]
    Io(String),
    #[error("not a checkpoint (first line is not {})", MAGIC)]
    NotCheckpoint,
    #[error("a line longer than {0} bytes, or none")]
    LongLine(u64),
    #[error("unreadable header: {0}")]
    Header(String),
    /// The checkpoint of another slice, game, board, build or point of the build.
    #[error("it is of {theirs}, not of this build's slice {ours}")]
    OtherSlice { theirs: String, ours: Material },
    #[error("no checksum line")]
    NoChecksum,
    #[error("{len} bytes, its header implies {implied}: the file is truncated or extended")]
    Size { len: u64, implied: u64 },
    #[error("checksum mismatch: the file is corrupted")]
    Checksum,
}

impl CheckpointError {
    fn io(e: impl std::fmt::Display) -> CheckpointError {
        CheckpointError::Io(e.to_string())
    }
}

const MAGIC: &str = "ORDO-CHECKPOINT";
const FORMAT: u32 = 3;
/// The oldest format read: 2 (no `check`).
const OLDEST: u32 = 2;
/// The longest header line read.
const MAX_HEADER: u64 = 1 << 16;

/// What a checkpoint says about itself.
#[derive(Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct Header {
    format: u32,
    variant: String,
    board: String,
    material: String,
    index_scheme: u32,
    rules_version: u32,
    /// Entries of the slice's index.
    entries: u64,
    /// Layer groups finished, and the values they fill (a prefix of the slice's).
    groups: u64,
    done: u64,
    /// The statistics of the finished groups.
    stats: SliceStats,
    /// The in-sweep check of the finished groups (format 3 on).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    check: Option<Verification>,
}

/// Where a build stands: the layer groups finished, their statistics, and the verdict of
/// the in-sweep check of all of them (`None`: some were built by a run that kept no
/// verdict, a checkpoint of format 2).
pub(super) struct Kept {
    pub groups: usize,
    pub stats: SliceStats,
    pub check: Option<Verification>,
}

/// The slice a checkpoint belongs to.
pub(super) struct Of<'a> {
    pub dims: Dims,
    pub variant: Variant,
    pub material: Material,
    pub index: &'a CoreIndex,
    pub groups: &'a [Vec<Layer>],
}

impl Of<'_> {
    fn header(&self, kept: &Kept) -> Header {
        let (groups, stats) = (kept.groups, &kept.stats);
        Header {
            format: if kept.check.is_some() { FORMAT } else { OLDEST },
            variant: self.variant.name().into(),
            board: self.dims.to_string(),
            material: self.material.to_string(),
            index_scheme: INDEX_SCHEME,
            rules_version: clauses::registry().rules_version,
            entries: self.index.len() as u64,
            groups: groups as u64,
            done: self.done(groups) as u64,
            stats: stats.clone(),
            check: kept.check.clone(),
        }
    }

    /// Values filled by the first `groups` layer groups.
    pub fn done(&self, groups: usize) -> usize {
        match groups {
            0 => 0,
            g => self.groups[g - 1].last().map_or(0, |l| l.end),
        }
    }

    /// Write the first `kept.groups` groups' values (a prefix of `values`) to `path`.
    pub fn save(&self, path: &Path, kept: &Kept, values: &[u8]) -> Result<(), CheckpointError> {
        let head = serde_json::to_string(&self.header(kept)).map_err(CheckpointError::io)?;
        let head = format!("{MAGIC}\n{head}\n");
        let payload = &values[..self.done(kept.groups)];
        let mut h = blake3::Hasher::new();
        h.update(head.as_bytes());
        h.update(payload);
        crate::files::write_atomically_with(path, |w| {
            w.write_all(head.as_bytes())?;
            writeln!(w, "{}", checksum::blake3_line(&h.finalize()))?;
            w.write_all(payload)
        })
        .map_err(CheckpointError::io)
    }

    /// Read the checkpoint at `path` into the prefix of `values` it covers; why it is not
    /// used if it is not this slice's or is damaged (`values` may then be partly written).
    pub fn load(&self, path: &Path, values: &mut [u8]) -> Result<Kept, CheckpointError> {
        let f = crate::files::open_regular(path).map_err(CheckpointError::io)?;
        let len = f.metadata().map_err(CheckpointError::io)?.len();
        let mut r = BufReader::new(f);
        let (magic, line, h) = read_header(&mut r)?;
        let kept = Kept {
            groups: usize::try_from(h.groups).unwrap_or(usize::MAX),
            stats: h.stats.clone(),
            check: h.check.clone().filter(|_| h.format == FORMAT),
        };
        if kept.groups > self.groups.len() || h != self.header(&kept) {
            return Err(CheckpointError::OtherSlice {
                theirs: format!(
                    "slice {} of {} {} after {} layer groups (index scheme {}, rules version {}, {} entries)",
                    h.material, h.variant, h.board, h.groups, h.index_scheme, h.rules_version, h.entries
                ),
                ours: self.material,
            });
        }
        let sum = read_line(&mut r, BLAKE3_LINE as u64)?;
        let stored = checksum::parse_blake3_line(Some(&sum)).ok_or(CheckpointError::NoChecksum)?;
        let head = (magic.len() + line.len() + sum.len()) as u64;
        if len != head + h.done {
            return Err(CheckpointError::Size {
                len,
                implied: head + h.done,
            });
        }
        let payload = &mut values[..h.done as usize];
        r.read_exact(payload).map_err(CheckpointError::io)?;
        let mut hash = blake3::Hasher::new();
        [&magic[..], &line, payload].iter().for_each(|b| {
            hash.update(b);
        });
        if hash.finalize() != stored {
            return Err(CheckpointError::Checksum);
        }
        Ok(kept)
    }
}

/// Whether the checkpoint at `path` carries the verdict of the in-sweep check of its groups
/// (format 3), read from its header alone: what a run plans on (a build resumed from one
/// needs no verification pass after it); loading it checks the whole file when it is used.
pub fn carries_check(path: &Path) -> bool {
    let header = || -> Result<Header, CheckpointError> {
        let mut r = BufReader::new(crate::files::open_regular(path).map_err(CheckpointError::io)?);
        read_header(&mut r).map(|(_, _, h)| h)
    };
    header().is_ok_and(|h| h.format == FORMAT && h.check.is_some())
}

/// The magic line, the header line (both as read, for the checksum) and the header they hold.
fn read_header(r: &mut impl BufRead) -> Result<(Vec<u8>, Vec<u8>, Header), CheckpointError> {
    let magic = read_line(r, MAGIC.len() as u64 + 1)?;
    if magic != format!("{MAGIC}\n").as_bytes() {
        return Err(CheckpointError::NotCheckpoint);
    }
    let line = read_line(r, MAX_HEADER)?;
    let h = serde_json::from_slice(&line).map_err(|e| CheckpointError::Header(e.to_string()))?;
    Ok((magic, line, h))
}

/// One line of at most `max` bytes, its newline included.
fn read_line(r: &mut impl BufRead, max: u64) -> Result<Vec<u8>, CheckpointError> {
    checksum::read_line_limited(r, max as usize)
        .map_err(CheckpointError::io)?
        .ok_or(CheckpointError::LongLine(max))
}
