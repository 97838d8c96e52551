//! Table files under damage, shared by the `table_file` fuzz target (`fuzz/`) and the test
//! that replays its seed corpus (`tests/it/fuzz_seeds.rs`): the loaders of both formats
//! (the retro solver's, format 2, `crate::retro`, and the compact solver's, format 4,
//! `crate::solve::CompactTables`) never panic, never trust a damaged file, and what they accept
//! holds together.
//!
//! An input's first byte picks a case, the rest drives it:
//! - 0: the bytes are a file, loaded as a retro game table, a retro endgame slice, a compact
//!   game table and a compact endgame slice; only a valid file of the kind asked for loads;
//! - 1, 2: edits (below) to a valid file, the retro classic 3 x 3 row1 game table (1) or the
//!   compact one (2): the loader accepts the file if and only if it is unchanged;
//! - 3: edits to the valid compact file, then its checksum line recomputed, as a forger
//!   would: the loader refuses the file or loads a table whose slices are the ones asked for,
//!   in which every probe and the verification pass end with a value or an error.
//!
//! Edits are four bytes each, `[op, a, b, c]`, with `p = a + 256 b` a position: `op % 5` is
//! 0 to xor byte `p` with `c`, 1 to set it to `c`, 2 to cut the file at `p`, 3 to insert `c`
//! at `p`, 4 to replace number `a` of the header line with the boundary value `b` picks
//! ([`NUMBERS`]).

use std::path::Path;
use std::sync::OnceLock;

use crate::bitboard::Bitboard;
use crate::retro::{load_raw, Expect, Table};
use crate::rules::{Dims, Engine, Variant};
use crate::solve::blake3_line;
use crate::solve::Material;
use crate::solve::{CompactExpect, CompactTables, TableKind};
use crate::solve::{GameOptions, Setup};

/// At most this many edits of an input are applied.
pub const MAX_EDITS: usize = 64;

/// The numbers an edit writes into a header: the boundaries a parser or a sum can trip on.
pub const NUMBERS: [u64; 12] = [
    0,
    1,
    2,
    255,
    256,
    65_535,
    u32::MAX as u64,
    1 << 32,
    1 << 53,
    1 << 63,
    u64::MAX - 1,
    u64::MAX,
];

fn dims() -> Dims {
    "3x3".parse().expect("3 x 3 is a board")
}

/// Every material of the classic 3 x 3 row1 game's compact table, in file order.
fn game_materials() -> Vec<Material> {
    crate::solve::stored_up_to(Material { white: 3, black: 3 })
}

/// The valid retro game table (classic 3 x 3 row1), as its bytes.
pub fn valid_retro(scratch: &Path) -> &'static [u8] {
    static BYTES: OnceLock<Vec<u8>> = OnceLock::new();
    BYTES.get_or_init(|| {
        let opts = GameOptions::default();
        let (table, _) =
            crate::retro::solve_game::<Bitboard>(Variant::Classic, dims(), Setup::Row1, &opts)
                .expect("the 3 x 3 game solves");
        table.save(scratch).expect("the scratch file is writable");
        std::fs::read(scratch).expect("the scratch file is readable")
    })
}

/// The valid compact game table (classic 3 x 3 row1), as its bytes.
pub fn valid_compact(scratch: &Path) -> &'static [u8] {
    static BYTES: OnceLock<Vec<u8>> = OnceLock::new();
    BYTES.get_or_init(|| {
        let (tables, report) = crate::solve::solve_game::<Bitboard>(
            Variant::Classic,
            dims(),
            Setup::Row1,
            &Default::default(),
        )
        .expect("the 3 x 3 game solves");
        tables
            .save(scratch, TableKind::Game, "row1", &report.game.slices, None)
            .expect("the scratch file is writable");
        std::fs::read(scratch).expect("the scratch file is readable")
    })
}

fn write(scratch: &Path, bytes: &[u8]) {
    std::fs::write(scratch, bytes).expect("the scratch file is writable");
}

fn load_retro_game(scratch: &Path) -> bool {
    Table::load(scratch, Variant::Classic, dims(), "row1", true, None).is_ok()
}

fn load_retro_slice(scratch: &Path) -> bool {
    let want = Expect {
        kind: "endgame",
        variant: Variant::Classic,
        dims: dims(),
        scope: "1v1".into(),
        solved: true,
        entries: Some(72),
        memory: None,
    };
    load_raw(scratch, &want).is_ok()
}

/// The compact game table at `scratch`, if the loader accepts it.
fn load_compact_game(scratch: &Path) -> Option<CompactTables> {
    let want = CompactExpect {
        kind: TableKind::Game,
        scope: "row1".into(),
        materials: game_materials(),
        memory: None,
    };
    let mut tables = CompactTables::new(dims(), Variant::Classic);
    tables.load(scratch, &want).ok().map(|_| tables)
}

fn load_compact_slice(scratch: &Path) -> bool {
    let m = Material { white: 2, black: 1 };
    let want = CompactExpect {
        kind: TableKind::Endgame,
        scope: m.to_string(),
        materials: vec![m],
        memory: None,
    };
    CompactTables::new(dims(), Variant::Classic)
        .load(scratch, &want)
        .is_ok()
}

/// An invariant of the table file loaders that an input broke ([`check`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TableFileFault {
    /// A changed table of this format loaded.
    #[error("a changed {0} table was trusted")]
    ChangedTrusted(&'static str),
    /// The valid table of this format did not load.
    #[error("the valid {0} table was refused")]
    ValidRefused(&'static str),
    /// Raw bytes loaded as this format's game table.
    #[error("raw bytes loaded as the {0} game table")]
    RawLoaded(&'static str),
    /// A forged compact file loaded with other slices than those asked for.
    #[error("loaded slices {loaded:?}, asked for {asked:?}")]
    OtherSlices {
        loaded: Vec<Material>,
        asked: Vec<Material>,
    },
    /// A loaded slice whose values and index differ in length.
    #[error("slice {0}: values and index differ in length")]
    SliceLength(Material),
    /// The start position of the test board could not be set up.
    #[error("the start position: {0}")]
    Start(String),
}

/// Run one input (see the module documentation) with `scratch` as the file: `Err` names the
/// invariant that failed. A panic of a loader propagates.
pub fn check(data: &[u8], scratch: &Path) -> Result<(), TableFileFault> {
    let Some((&case, rest)) = data.split_first() else {
        return Ok(());
    };
    match case % 4 {
        0 => raw(rest, scratch),
        1 => {
            let valid = valid_retro(scratch);
            let bytes = edit(valid, rest);
            write(scratch, &bytes);
            agree("retro", load_retro_game(scratch), bytes == valid)
        }
        2 => {
            let valid = valid_compact(scratch);
            let bytes = edit(valid, rest);
            write(scratch, &bytes);
            agree(
                "compact",
                load_compact_game(scratch).is_some(),
                bytes == valid,
            )
        }
        _ => forged(rest, scratch),
    }
}

/// A changed file must be refused, the unchanged one loaded.
fn agree(format: &'static str, loaded: bool, unchanged: bool) -> Result<(), TableFileFault> {
    match (loaded, unchanged) {
        (true, false) => Err(TableFileFault::ChangedTrusted(format)),
        (false, true) => Err(TableFileFault::ValidRefused(format)),
        _ => Ok(()),
    }
}

/// Raw bytes as every kind of file: only the valid game tables load as games.
fn raw(bytes: &[u8], scratch: &Path) -> Result<(), TableFileFault> {
    let (retro, compact) = (valid_retro(scratch), valid_compact(scratch));
    write(scratch, bytes);
    if load_retro_game(scratch) && bytes != retro {
        return Err(TableFileFault::RawLoaded("retro"));
    }
    if load_compact_game(scratch).is_some() && bytes != compact {
        return Err(TableFileFault::RawLoaded("compact"));
    }
    let _ = (load_retro_slice(scratch), load_compact_slice(scratch));
    Ok(())
}

/// The compact file edited and its checksum recomputed: refused, or a table of the slices
/// asked for whose probes and verification end without a panic.
fn forged(edits: &[u8], scratch: &Path) -> Result<(), TableFileFault> {
    let valid = valid_compact(scratch);
    let bytes = rechecksum(edit(valid, edits));
    write(scratch, &bytes);
    let Some(tables) = load_compact_game(scratch) else {
        return if bytes == valid {
            Err(TableFileFault::ValidRefused("compact"))
        } else {
            Ok(())
        };
    };
    let materials: Vec<Material> = tables.slices.keys().copied().collect();
    let mut want = game_materials();
    want.sort_unstable();
    if materials != want {
        return Err(TableFileFault::OtherSlices {
            loaded: materials,
            asked: want,
        });
    }
    for (m, slice) in &tables.slices {
        if slice.values.len() != slice.index.len() {
            return Err(TableFileFault::SliceLength(*m));
        }
    }
    let start = Setup::Row1
        .start(dims(), Variant::Classic)
        .map_err(|e| TableFileFault::Start(e.to_string()))?;
    let start =
        Bitboard::from_position(&start).map_err(|e| TableFileFault::Start(e.to_string()))?;
    let _ = tables.rank_moves(&start);
    let _ = tables.verify::<Bitboard>();
    Ok(())
}

/// `valid` with the edits of `data` applied.
fn edit(valid: &[u8], data: &[u8]) -> Vec<u8> {
    let mut bytes = valid.to_vec();
    for e in data.chunks_exact(4).take(MAX_EDITS) {
        let (op, a, b, c) = (e[0], e[1], e[2], e[3]);
        let p = usize::from(a) + 256 * usize::from(b);
        match op % 5 {
            0 if !bytes.is_empty() => {
                let i = p % bytes.len();
                bytes[i] ^= c;
            }
            1 if !bytes.is_empty() => {
                let i = p % bytes.len();
                bytes[i] = c;
            }
            2 => bytes.truncate(p % (bytes.len() + 1)),
            3 => bytes.insert(p % (bytes.len() + 1), c),
            4 => bytes = set_number(&bytes, usize::from(a), NUMBERS[usize::from(b) % 12]),
            _ => {}
        }
    }
    bytes
}

/// `bytes` with the `k`-th run of digits of its second line (the header) replaced by `value`.
fn set_number(bytes: &[u8], k: usize, value: u64) -> Vec<u8> {
    let Some(start) = bytes.iter().position(|&b| b == b'\n').map(|i| i + 1) else {
        return bytes.to_vec();
    };
    let end = bytes[start..]
        .iter()
        .position(|&b| b == b'\n')
        .map_or(bytes.len(), |i| start + i);
    let mut runs = Vec::new();
    let mut i = start;
    while i < end {
        if bytes[i].is_ascii_digit() {
            let j = bytes[i..end]
                .iter()
                .position(|b| !b.is_ascii_digit())
                .map_or(end, |n| i + n);
            runs.push((i, j));
            i = j;
        } else {
            i += 1;
        }
    }
    let Some(&(from, to)) = runs.get(k % runs.len().max(1)) else {
        return bytes.to_vec();
    };
    [&bytes[..from], value.to_string().as_bytes(), &bytes[to..]].concat()
}

/// `bytes` with its third line made the checksum line of the first two lines and the
/// payload after it, as the compact format computes it (`crate::solve::blake3_line`); unchanged
/// if it has no three lines.
pub fn rechecksum(bytes: Vec<u8>) -> Vec<u8> {
    let newlines: Vec<usize> = bytes
        .iter()
        .enumerate()
        .filter(|&(_, &b)| b == b'\n')
        .map(|(i, _)| i)
        .take(3)
        .collect();
    let [_, head_end, sum_end] = newlines[..] else {
        return bytes;
    };
    let mut h = blake3::Hasher::new();
    h.update(&bytes[..=head_end]);
    h.update(&bytes[sum_end + 1..]);
    let line = blake3_line(&h.finalize());
    [&bytes[..=head_end], line.as_bytes(), &bytes[sum_end..]].concat()
}
