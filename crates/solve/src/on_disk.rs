//! The compact solver on disk: endgame tablebases of one file per slice, and whole-game
//! solves of one file, both in the compact format (`compact::store`), with the memory check
//! up front, progress on every slice, layer group and verification, and resumption.
//!
//! A tablebase build writes each slice atomically as soon as it is solved, so an
//! interrupted build loses at most the slice under way and a rerun loads the finished ones.
//! A game solve keeps its finished slices as endgame files in `TABLE.partial/` until the
//! last one is done, then writes the game file and removes the folder; a rerun resumes there.
//! Its verification keeps the chunks checked in `TABLE.verifying` (`compact::VerifyLog`)
//! until the pass ends.

use std::path::{Path, PathBuf};
use std::time::Instant;

use super::compact::{self, CompactExpect, CompactGame, CompactTables, SliceStats, TableKind};
use super::material::{self, Material};
use super::memory::{self, human};
use super::{
    BuildOptions, GameOptions, Progress, RunWork, Setup, SolveError, Solver, Stage, Verification,
};
use crate::rules::{Dims, Engine, Variant};

/// Working memory of the layer solver per entry of the largest layer group, bytes (its
/// local graph: counters, offsets, predecessor lists of the moves inside the layer).
pub const WORK_PER_ENTRY: u64 = 64;

/// The file of the compact slice `m` under `dir`.
pub fn path(dir: &Path, variant: Variant, dims: Dims, m: Material) -> PathBuf {
    dir.join(file_name(variant, dims, m))
}

/// The name of the endgame file of slice `m`: `ctb-VARIANT-BOARD-WvB.ordotb`.
pub fn file_name(variant: Variant, dims: Dims, m: Material) -> String {
    format!("ctb-{}-{}-{}.ordotb", variant.name(), dims, m)
}

/// The names of the files a probe of a position of material `m` reads: the stored slices of
/// its material and of every smaller one.
pub fn files_read(variant: Variant, dims: Dims, m: Material) -> Vec<String> {
    compact::stored_up_to(m)
        .into_iter()
        .map(|s| file_name(variant, dims, s))
        .collect()
}

/// What building (or loading) one compact slice gave.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct CompactSliceReport {
    /// The rules the slice is for (`classic` or `x` in JSON).
    #[serde(with = "crate::text")]
    pub variant: Variant,
    /// The board the slice is for (`COLSxROWS` in JSON).
    #[serde(with = "crate::text")]
    pub board: Dims,
    /// The solver that built it.
    pub solver: Solver,
    /// Its material, counts and sizes (flattened into the JSON).
    #[serde(flatten)]
    pub stats: SliceStats,
    /// Wall time of the build, seconds (as recorded in the file).
    pub seconds: Option<f64>,
    /// Peak resident memory of the building process when the slice was done, bytes.
    pub peak_memory: Option<u64>,
    /// Whether this run built the slice (false: loaded from its file).
    pub built: bool,
    /// Verification of this run, if asked for.
    pub verified: Option<bool>,
}

/// Bytes a compact job over `materials` needs at its peak, from the index sizes alone
/// (counted without building an index: nothing is allocated but the connected sets): a
/// byte per entry of every slice (all stay in memory, captures read the smaller ones), the
/// indexes, the ranked sets, the work of the largest layer group and the cache of shell
/// values.
pub fn estimate(tables: &mut CompactTables, materials: &[Material]) -> Result<u64, SolveError> {
    Ok(size(tables, materials, None)?.bytes)
}

/// Bytes the job building slice `m` needs at its peak ([`estimate`] of the slice and of every
/// slice it reads), plus what the program itself and its buffers take besides the tables.
/// `tables` keeps what it measured: sizing every job of a plan with one `tables` measures each
/// slice once.
pub fn job_estimate(tables: &mut CompactTables, m: Material) -> Result<u64, SolveError> {
    let mut all = compact::needs(tables.variant, m);
    all.push(m);
    Ok(estimate(tables, &all)? + PROGRAM_BYTES)
}

/// What a job holds besides its tables: the program and its buffers.
pub const PROGRAM_BYTES: u64 = 64 << 20;

/// What sizing a compact job found: its bytes at the peak ([`estimate`]), or a lower
/// bound when the sizing stopped early, and the stored positions of each slice sized.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Sizing {
    /// Bytes the job holds at its peak (a lower bound unless `complete`).
    pub bytes: u64,
    /// Whether every slice was sized (false: `bytes` is a lower bound).
    pub complete: bool,
    /// The stored positions (index entries) of each slice sized, by material.
    pub entries: std::collections::BTreeMap<Material, u64>,
}

/// [`estimate`], slice by slice, fewer pieces first, stopping as soon as the estimate so far
/// (at least the connected sets the sizing itself holds) passes `bound`: the job cannot
/// fit, and sizing it further would take the memory and time the limit is meant to spare.
pub fn size(
    tables: &mut CompactTables,
    materials: &[Material],
    bound: Option<u64>,
) -> Result<Sizing, SolveError> {
    let (mut bytes, mut group, mut largest) = (0u64, 0u64, 0u64);
    let mut stored: Vec<Material> = materials
        .iter()
        .map(|&m| compact::stored_material(m))
        .collect();
    stored.sort_unstable_by_key(|m| m.build_order());
    stored.dedup();
    let mut sizing = Sizing::default();
    for m in stored {
        let size = tables.core_size(m)?;
        bytes += size.entries + size.marks + 16 * size.sets;
        group = group.max(size.largest_group);
        largest = largest.max(size.entries);
        sizing.entries.insert(m, size.entries);
        let shell = compact::shell_entries(tables.variant, largest as usize);
        let cache = compact::ShellCache::bytes_for(shell) as u64;
        let sets = tables.sets_bytes(sizing.entries.keys());
        sizing.bytes = (bytes + WORK_PER_ENTRY * group + cache).max(sets);
        if bound.is_some_and(|b| sizing.bytes > b) {
            return Ok(sizing);
        }
    }
    sizing.complete = true;
    Ok(sizing)
}

/// Refuse up front a compact job over every slice up to `max` that would not fit the
/// memory limit (the tightest of `asked` and the system's); the tables, empty. Each side's
/// connected sets are counted first with a bound (the enumeration stops as soon as they
/// alone could not fit), so an impossible job is refused quickly and in bounded memory.
pub fn check_memory(
    dims: Dims,
    variant: Variant,
    max: Material,
    asked: Option<u64>,
) -> Result<CompactTables, SolveError> {
    check_memory_sized(dims, variant, max, asked).map(|(t, _)| t)
}

/// [`check_memory`], with the stored positions of every slice up to `max`.
pub fn check_memory_sized(
    dims: Dims,
    variant: Variant,
    max: Material,
    asked: Option<u64>,
) -> Result<(CompactTables, Sizing), SolveError> {
    let limit = memory::effective(asked);
    if let Some(l) = &limit {
        refuse_hopeless(dims, variant, max, l)?;
    }
    let mut tables = CompactTables::new(dims, variant);
    let all = Material::up_to(max.white, max.black);
    let sizing = size(&mut tables, &all, limit.map(|l| l.bytes))?;
    match &limit {
        Some(l) if sizing.bytes > l.bytes => Err(SolveError::needs_memory(
            format!(
                "the compact {} tables of {dims} up to {max} (values, the largest layer group and the shell cache) need",
                variant.name()
            ),
            memory::Need {
                bytes: sizing.bytes,
                at_least: !sizing.complete,
            },
            l,
        )),
        _ => Ok((tables, sizing)),
    }
}

/// Refuse the compact tables of every slice up to `max` under limit `l` by what costs little
/// to count, before any index is sized (sizing 8 x 8 up to 8v8 against 1 GiB took seconds):
/// a limit with no room for the smallest slice is said as such; then the lower bound
/// [`entries_at_least`] on their stored positions, a byte each, is checked; then the
/// connected sets of each side are counted with a cap that stops the enumeration as soon as
/// they alone could not fit.
fn refuse_hopeless(
    dims: Dims,
    variant: Variant,
    max: Material,
    l: &memory::Limit,
) -> Result<(), SolveError> {
    let over = |k: u32, cap: usize, squares: u64| {
        SolveError::over_memory(
            format!(
                "the compact {} tables of {dims} up to {max} do not fit",
                variant.name()
            ),
            l,
            &over_memory_why(k, cap, squares, l.bytes),
        )
    };
    // With more than `cap` connected sets of k pieces, the slice of k against 1 alone
    // (two sides to move, every square for the single piece) would hold over half the
    // limit; the enumeration stops there, having used about a quarter of it.
    let squares = dims.len() as u64;
    let cap = usize::try_from(l.bytes / (4 * squares)).unwrap_or(usize::MAX);
    if cap == 0 {
        return Err(over(1, cap, squares));
    }
    let floor = entries_at_least(dims, max);
    if floor > l.bytes {
        return Err(SolveError::needs_memory(
            format!(
                "the compact {} tables of {dims} up to {max} (a byte a stored position, before their indexes and work) need",
                variant.name()
            ),
            memory::Need {
                bytes: floor,
                at_least: true,
            },
            l,
        ));
    }
    for k in 1..=max.white.max(max.black) {
        if material::connected_sets_bounded(dims, k, cap).is_none() {
            return Err(over(k, cap, squares));
        }
    }
    Ok(())
}

/// The most connected sets one count of [`entries_at_least`] enumerates (16 bytes each, at
/// most one and a half times as many held at once: 6 MiB); a count beyond it is taken as 0.
const BAND_SETS_CAP: usize = 1 << 18;

/// A lower bound on the stored positions (index entries) of the compact tables of every
/// slice up to `max` on `dims`, from counts of connected sets on bands of the board alone: no
/// index is built or measured, and each count is capped ([`BAND_SETS_CAP`]).
///
/// Why it never exceeds the truth, so that refusing a limit below it never refuses tables
/// that would fit ([`size`] counts a byte for every entry of every slice, all held at once):
/// - every slice stores its White-to-move positions (with equal material only those), one
///   entry for each pair of left-right mirror images: at least half of them;
/// - take White's `w` pieces a connected set of the lowest `h` rows (`1 <= h < rows`) and
///   Black's `b` pieces one of the rows above: the sets are disjoint, each side is one group
///   and White is off its goal row (the top row, ORDO-2.3), so each such pair is a distinct
///   stored White-to-move position;
/// - the connected sets of a band of `h` rows are those of a board of `cols` x `h` (adjacency
///   does not depend on where the band lies), so there are `c(h, w) * c(rows - h, b)` pairs,
///   `c(h, k)` the connected sets of `k` squares of that board, or 0 where the count passed
///   the cap ([`material::connected_set_counts`]);
/// - a slice's bound is the best `h` of those, halved; the slices' bounds add up.
fn entries_at_least(dims: Dims, max: Material) -> u64 {
    let rows = dims.rows;
    let k = max.white.max(max.black);
    // counts[h][j]: the connected sets of j squares on a band of h full rows.
    let counts: Vec<Vec<u64>> = (0..rows)
        .map(|h| match h {
            0 => vec![0; k as usize + 1],
            _ => material::connected_set_counts(Dims { rows: h, ..dims }, k, BAND_SETS_CAP),
        })
        .collect();
    let slice = |m: &Material| {
        (1..usize::from(rows))
            .map(|h| {
                let (below, above) = (&counts[h], &counts[usize::from(rows) - h]);
                below[m.white as usize].saturating_mul(above[m.black as usize]) / 2
            })
            .max()
            .unwrap_or(0)
    };
    compact::stored_up_to(max)
        .iter()
        .map(slice)
        .fold(0, u64::saturating_add)
}

/// Why a limit of `bytes` cannot hold the tables: `k` pieces have over `cap` connected sets on
/// a board of `squares` squares, so the `k`v1 slice alone needs over half the limit; a limit
/// with no room for a single set is said as such.
fn over_memory_why(k: u32, cap: usize, squares: u64, bytes: u64) -> String {
    if cap == 0 {
        return format!(
            ": a limit under {} leaves no room for the smallest slice",
            human(4 * squares)
        );
    }
    format!(
        ": with {} there are over {}, so the {k}v1 slice alone needs over {} and the rest more",
        ordo_core::text::count(k, "piece"),
        ordo_core::text::count(cap, "connected set"),
        human(bytes / 2)
    )
}

fn endgame_expect(m: Material) -> CompactExpect {
    CompactExpect {
        kind: TableKind::Endgame,
        scope: m.to_string(),
        materials: vec![m],
        memory: memory::effective(None),
    }
}

/// Load slice `m` from its file, or build it (every smaller slice is in `tables`) and
/// write it; its report (not verified yet).
fn load_or_build<E: Engine>(
    tables: &mut CompactTables,
    file: &Path,
    m: Material,
    progress: &dyn Progress,
) -> Result<CompactSliceReport, SolveError> {
    if file.exists() {
        load_slice(tables, file, m)
    } else {
        build_slice::<E>(tables, file, m, progress)
    }
}

/// Load slice `m` from its endgame file `file` into `tables`, refusing a file that is
/// damaged or holds another slice; its report.
pub fn load_slice(
    tables: &mut CompactTables,
    file: &Path,
    m: Material,
) -> Result<CompactSliceReport, SolveError> {
    let header = tables.load(file, &endgame_expect(m))?;
    Ok(slice_report(tables, &header, false))
}

/// Build slice `m` (every slice its captures lead into, directly or through a chain of
/// captures, is in `tables`) and write its endgame file `file` atomically; its report. The
/// finished layer groups are kept in the checkpoint `FILE.partial` ([`partial_dir`]) while
/// it is built, resumed from there, and that file removed when `file` is written; a stop
/// asked through `progress` ends with [`SolveError::Interrupted`] at a group boundary.
pub fn build_slice<E: Engine>(
    tables: &mut CompactTables,
    file: &Path,
    m: Material,
    progress: &dyn Progress,
) -> Result<CompactSliceReport, SolveError> {
    let clock = Instant::now();
    let checkpoint = partial_dir(file);
    let stats = tables.build_slice_resuming::<E>(m, progress, Some(&checkpoint))?;
    let ms = clock.elapsed().as_millis() as u64;
    let header = tables.save(file, TableKind::Endgame, &m.to_string(), &[stats], Some(ms))?;
    let _ = std::fs::remove_file(&checkpoint);
    Ok(slice_report(tables, &header, true))
}

/// The mark `FILE.unverified` of the slice file `file`: the slice was resumed from a
/// checkpoint that kept no verdict of its groups (format 2) by a run that verifies what it
/// builds, and that verification (a pass after the build, not in its sweep) is not done yet. A later run verifying what it builds
/// (`--verify-new`) verifies the slice although it reads it from its file, then removes the
/// mark; a stop during that pass leaves it.
pub fn owed_mark(file: &Path) -> PathBuf {
    let mut name = file.as_os_str().to_owned();
    name.push(".unverified");
    PathBuf::from(name)
}

/// Write the mark [`owed_mark`] of slice `m` before its resumed build.
fn owe_verification(mark: &Path, m: Material) -> Result<(), SolveError> {
    let text = format!(
        "slice {m} was resumed from its checkpoint; its verification is owed: the next build that verifies the slices it builds verifies it too\n"
    );
    crate::files::write_atomically_with(mark, |w| std::io::Write::write_all(w, text.as_bytes()))
        .map_err(|e| SolveError::io(mark, e))
}

/// [`SolveError::Interrupted`] if `progress` asks to stop before slice `m`.
fn stop_before(
    progress: &dyn Progress,
    m: Material,
    done: usize,
    dir: &Path,
) -> Result<(), SolveError> {
    if !progress.stop_requested() {
        return Ok(());
    }
    Err(SolveError::Interrupted(format!(
        "stopped before slice {m}; the {done} slices finished are in {}",
        dir.display()
    )))
}

fn slice_report(
    tables: &CompactTables,
    header: &compact::CompactHeader,
    built: bool,
) -> CompactSliceReport {
    CompactSliceReport {
        variant: tables.variant,
        board: tables.dims,
        solver: Solver::Compact,
        stats: header.slices[0].clone(),
        seconds: header.solve_ms.map(|ms| ms as f64 / 1000.0),
        peak_memory: header.peak_memory,
        built,
        verified: None,
    }
}

/// Build (or load, where a valid file exists) every compact slice up to `max` in `dir`,
/// fewer pieces first, each written atomically when done; the slices `opts.verify` covers
/// are recomputed from their successors. `each` sees every slice's report when done. (The
/// retro solver of the test tooling, an independent oracle for this one, has a `build` of the
/// same signature.)
pub fn build<E: Engine>(
    dims: Dims,
    variant: Variant,
    max: Material,
    dir: &Path,
    opts: &BuildOptions,
    mut each: impl FnMut(&CompactSliceReport),
) -> Result<(CompactTables, Vec<CompactSliceReport>), SolveError> {
    let (mut tables, sizing) = check_memory_sized(dims, variant, max, opts.memory_limit)?;
    std::fs::create_dir_all(dir).map_err(|e| SolveError::io(dir, e))?;
    clean_dead_writers(dir, opts.progress);
    let slices = compact::stored_up_to(max);
    let steps = build_steps(&slices, &sizing, |m| {
        let file = path(dir, variant, dims, m);
        let built = !file.exists();
        // A slice built here is checked in its build's sweep, unless it resumes a
        // checkpoint that kept no verdict of its groups: that one is verified after.
        let partial = partial_dir(&file);
        let pass = !built || partial.exists() && !compact::carries_check(&partial);
        let owed = owed_mark(&file).exists() && opts.verify.covers(true);
        (built, opts.verify.covers(built) && pass || owed)
    });
    let mut reports = Vec::new();
    for (&m, step) in slices.iter().zip(&steps) {
        let file = path(dir, variant, dims, m);
        let (mark, fresh) = (owed_mark(&file), !file.exists());
        let owed = mark.exists() && opts.verify.covers(true);
        // A stop is honoured before any slice with work left: one to build, or one read
        // from its file that this run verifies.
        if fresh || owed || opts.verify.covers(false) {
            stop_before(opts.progress, m, reports.len(), dir)?;
        }
        opts.progress.begin(step);
        let partial = partial_dir(&file);
        if fresh
            && partial.exists()
            && !compact::carries_check(&partial)
            && opts.verify.covers(true)
        {
            owe_verification(&mark, m)?;
        }
        let mut report = load_or_build::<E>(&mut tables, &file, m, opts.progress)?;
        if opts.verify.covers(report.built) || owed {
            // A slice built whole here was checked in the build's sweep.
            let verdict = match tables.build_check(m).filter(|_| report.built) {
                Some(v) => v.clone(),
                None => {
                    let log = compact::verify_log_path(&file);
                    tables.verify_slice_logged::<E>(m, opts.progress, &log)?
                }
            };
            report.verified = Some(verdict.ok());
            let _ = std::fs::remove_file(&mark);
        }
        each(&report);
        reports.push(report);
    }
    Ok((tables, reports))
}

/// The steps of a run over `slices`, one a slice, with the run's work: a slice's stored
/// positions counted once if `work` says this run builds it and once if it verifies it.
fn build_steps(
    slices: &[Material],
    sizing: &Sizing,
    work: impl Fn(Material) -> (bool, bool),
) -> Vec<Stage> {
    let cost: Vec<u64> = slices
        .iter()
        .map(|&m| {
            let entries = sizing.entries.get(&m).copied().unwrap_or(0);
            let (built, verified) = work(m);
            entries * (u64::from(built) + u64::from(verified))
        })
        .collect();
    let total = cost.iter().sum();
    let mut before = 0;
    slices
        .iter()
        .zip(&cost)
        .enumerate()
        .map(|(k, (m, c))| {
            let step = Stage {
                what: format!("slice {m}"),
                number: k + 1,
                of: slices.len(),
                run: Some(RunWork { before, total }),
            };
            before += c;
            step
        })
        .collect()
}

/// Remove the temporary files that killed writers left in `dir` (any target's, of the naming
/// of `crates/system/src/files.rs`, whose process is gone), saying how many.
fn clean_dead_writers(dir: &Path, progress: &dyn Progress) {
    if let Ok(n @ 1..) = crate::files::remove_stale_in(dir) {
        progress.note(&format!(
            "removed {} of killed writers in {}",
            ordo_core::text::count(n, "temporary file"),
            dir.display()
        ));
    }
}

/// Load every compact slice a probe of material `m` may need: `m` and all smaller. If any
/// is missing, the error lists every missing one (before loading anything), or names the
/// retro solver's slice of `m` if the folder holds that instead.
pub fn open(
    dims: Dims,
    variant: Variant,
    m: Material,
    dir: &Path,
) -> Result<CompactTables, SolveError> {
    let mut tables = CompactTables::new(dims, variant);
    open_more(&mut tables, m, dir)?;
    Ok(tables)
}

/// Load into `tables` the slices a probe of material `m` may need that it does not hold yet,
/// as [`open`] does (nothing is loaded if one is missing).
pub fn open_more(tables: &mut CompactTables, m: Material, dir: &Path) -> Result<(), SolveError> {
    let (variant, dims) = (tables.variant, tables.dims);
    let all = unloaded(tables, m);
    material::require_slices(dir, variant, dims, m, &all, |s| path(dir, variant, dims, s))
        .map_err(|e| retro_instead(e, dir, variant, dims, m))?;
    for s in all {
        tables.load(&path(dir, variant, dims, s), &endgame_expect(s))?;
    }
    Ok(())
}

/// The slices a probe of material `m` may need that `tables` does not hold yet.
pub fn unloaded(tables: &CompactTables, m: Material) -> Vec<Material> {
    compact::stored_up_to(m)
        .into_iter()
        .filter(|s| !tables.slices.contains_key(s))
        .collect()
}

/// [`open_more`] from files given as bytes, by [`file_name`] (those loaded are taken out of
/// `files`): each is checked as a file on disk is. `origin` names where they came from in
/// the error that lists the missing ones (nothing is loaded if one is missing).
pub fn open_more_from(
    tables: &mut CompactTables,
    m: Material,
    files: &mut std::collections::HashMap<String, Vec<u8>>,
    origin: &str,
) -> Result<(), SolveError> {
    let (variant, dims) = (tables.variant, tables.dims);
    let all = unloaded(tables, m);
    let name = |s: Material| file_name(variant, dims, s);
    let missing: Vec<Material> = all
        .iter()
        .copied()
        .filter(|&s| !files.contains_key(&name(s)))
        .collect();
    if !missing.is_empty() {
        return Err(SolveError::MissingSlices {
            dir: origin.to_string(),
            variant,
            dims,
            needed: m,
            missing,
        });
    }
    for s in all {
        let bytes = files.remove(&name(s)).unwrap_or_default();
        tables.load_bytes(Path::new(&name(s)), &bytes, &endgame_expect(s))?;
    }
    Ok(())
}

/// [`SolveError::RetroTable`] instead of missing slices where `dir` holds the retro solver's
/// slice of `m` (`tb-VARIANT-BOARD-WvB.ordotb`, the name it wrote), else `e`.
fn retro_instead(
    e: SolveError,
    dir: &Path,
    variant: Variant,
    dims: Dims,
    m: Material,
) -> SolveError {
    let old = dir.join(format!("tb-{}-{dims}-{m}.ordotb", variant.name()));
    if !matches!(e, SolveError::MissingSlices { .. }) || !old.is_file() {
        return e;
    }
    let held = super::RetroHeld {
        kind: Some("endgame".into()),
        variant: Some(variant.name().into()),
        board: Some(dims.to_string()),
        scope: Some(m.to_string()),
    };
    SolveError::RetroTable {
        path: old.display().to_string(),
        held: Box::new(held),
    }
}

/// What `ordo solve` reports.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct CompactGameReport {
    /// The solver that solved the board.
    pub solver: Solver,
    /// The start's outcome and every slice built (flattened into the JSON).
    #[serde(flatten)]
    pub game: CompactGame,
    /// The verification of this run (`None`: not run).
    pub verified: Option<bool>,
    /// Core values recomputed by the verification, and the first mismatches.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub verdict: Option<VerdictSummary>,
    /// Wall time of the solve as the table records it, seconds.
    pub seconds: Option<f64>,
    /// Wall time of the verification pass of this run, seconds.
    pub verify_seconds: Option<f64>,
    /// Peak resident memory of the solving run, bytes.
    pub peak_memory: Option<u64>,
    /// Wall time of loading the saved table in this run (`None`: this run solved).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub load_seconds: Option<f64>,
}

/// A [`Verification`] as a report shows it.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct VerdictSummary {
    /// Core positions recomputed.
    pub checked: u64,
    /// Positions whose stored value differs from the recomputed one.
    pub mismatches: u64,
    /// The first few mismatches: position, stored value, recomputed value.
    pub examples: Vec<String>,
}

impl From<Verification> for VerdictSummary {
    fn from(v: Verification) -> Self {
        VerdictSummary {
            checked: v.checked,
            mismatches: v.mismatches,
            examples: v.examples,
        }
    }
}

/// The folder of a game solve's finished slices: the table's path with `.partial` added.
pub fn partial_dir(table: &Path) -> PathBuf {
    let mut s = table.as_os_str().to_owned();
    s.push(".partial");
    PathBuf::from(s)
}

/// Solve every core position of every material the `setup` start of `dims` comes down
/// to with the compact solver, or load the game file `opts.table` if it holds them, or
/// resume from its `.partial` folder. A damaged or outdated file is reported through
/// [`Progress::note`] and solved again; a valid file of another game (or a retro solver's
/// table, [`SolveError::RetroTable`]) is an error and left in place.
pub fn solve_game<E: Engine>(
    variant: Variant,
    dims: Dims,
    setup: Setup,
    opts: &GameOptions,
) -> Result<(CompactTables, CompactGameReport), SolveError> {
    let clock = Instant::now();
    let max = compact::start_material(variant, dims, setup)?;
    let (mut tables, sizing) = check_memory_sized(dims, variant, max, opts.memory_limit)?;
    let materials = compact::stored_up_to(max);
    let want = CompactExpect {
        kind: TableKind::Game,
        scope: setup.name().into(),
        materials: materials.clone(),
        memory: memory::effective(opts.memory_limit),
    };
    let loaded = load_game_table(&mut tables, &want, opts)?;
    let (header, load_seconds) = match loaded {
        Some(h) => (h, Some(clock.elapsed().as_secs_f64())),
        None => (
            solve_fresh::<E>(&mut tables, setup, (&materials, &sizing), opts, clock)?,
            None,
        ),
    };
    let verify_clock = Instant::now();
    let verdict = if opts.verify {
        let log = opts.table.as_deref().map(compact::verify_log_path);
        let pass = tables.stored_positions();
        let built = load_seconds.map_or(sizing.entries.values().sum(), |_| 0);
        let run = RunWork {
            before: built,
            total: built + pass,
        };
        Some(tables.verify_built_run::<E>(opts.progress, log.as_deref(), run)?)
    } else {
        None
    };
    let report = CompactGameReport {
        solver: Solver::Compact,
        game: compact::report::<E>(&tables, setup, header.slices.clone())?,
        verified: verdict.as_ref().map(Verification::ok),
        verify_seconds: verdict
            .as_ref()
            .map(|_| verify_clock.elapsed().as_secs_f64()),
        verdict: verdict.map(VerdictSummary::from),
        seconds: header.solve_ms.map(|ms| ms as f64 / 1000.0),
        peak_memory: header.peak_memory,
        load_seconds,
    };
    Ok((tables, report))
}

/// The header of the game file `opts.table` if it exists and holds `want` (its values now in
/// `tables`); `None` to solve (no file, or a damaged or outdated one, said and emptied).
fn load_game_table(
    tables: &mut CompactTables,
    want: &CompactExpect,
    opts: &GameOptions,
) -> Result<Option<compact::CompactHeader>, SolveError> {
    let Some(file) = opts.table.as_ref().filter(|f| f.exists()) else {
        return Ok(None);
    };
    // Not a regular file (a FIFO, a folder): an error, never solved again and replaced.
    if let Err(e) = crate::files::open_regular(file) {
        return Err(SolveError::File {
            path: file.display().to_string(),
            msg: e.to_string(),
        });
    }
    match tables.load(file, want) {
        Ok(h) => Ok(Some(h)),
        Err(e @ SolveError::File { .. }) => {
            *tables = CompactTables::new(tables.dims, tables.variant);
            opts.progress.note(&format!(
                "table refused: {e}; solving again (the new table replaces it)"
            ));
            Ok(None)
        }
        Err(e) => Err(e),
    }
}

/// Build one slice of a game solve, through its checkpoint file in `partial` when there is
/// one (a refused checkpoint is said and built again).
fn slice_of_game<E: Engine>(
    tables: &mut CompactTables,
    partial: Option<&Path>,
    m: Material,
    opts: &GameOptions,
) -> Result<SliceStats, SolveError> {
    let Some(dir) = partial else {
        return tables.build_slice::<E>(m, opts.progress);
    };
    let file = path(dir, tables.variant, tables.dims, m);
    match load_or_build::<E>(tables, &file, m, opts.progress) {
        Err(e @ SolveError::File { .. }) => {
            opts.progress.note(&format!(
                "checkpoint refused: {e}; building the slice again"
            ));
            let _ = std::fs::remove_file(&file);
            Ok(load_or_build::<E>(tables, &file, m, opts.progress)?.stats)
        }
        r => Ok(r?.stats),
    }
}

/// Make the `.partial` folder `p` of a game solve (saying so if it resumes one) and clean
/// the temporary files of killed writers in it and beside it.
fn prepare_partial(p: &Path, progress: &dyn Progress) -> Result<(), SolveError> {
    SolveError::refuse_special(p)?;
    if p.is_dir() {
        progress.note(&format!(
            "resuming from the finished slices in {}",
            p.display()
        ));
    }
    std::fs::create_dir_all(p).map_err(|e| SolveError::io(p, e))?;
    clean_dead_writers(p, progress);
    if let Some(parent) = p.parent().filter(|d| !d.as_os_str().is_empty()) {
        clean_dead_writers(parent, progress);
    }
    Ok(())
}

/// Build every slice (resuming from the `.partial` folder), write the game file, remove
/// the folder; the header written (or, with no table file, the one that would be).
fn solve_fresh<E: Engine>(
    tables: &mut CompactTables,
    setup: Setup,
    (materials, sizing): (&[Material], &Sizing),
    opts: &GameOptions,
    clock: Instant,
) -> Result<compact::CompactHeader, SolveError> {
    let (variant, dims) = (tables.variant, tables.dims);
    let partial = opts.table.as_deref().map(partial_dir);
    if let Some(p) = &partial {
        prepare_partial(p, opts.progress)?;
    }
    let steps = build_steps(materials, sizing, |m| {
        let done = partial
            .as_deref()
            .is_some_and(|p| path(p, variant, dims, m).exists());
        (!done, false)
    });
    let mut stats = Vec::new();
    for (&m, step) in materials.iter().zip(&steps) {
        if let Some(p) = partial
            .as_deref()
            .filter(|p| !path(p, variant, dims, m).exists())
        {
            stop_before(opts.progress, m, stats.len(), p)?;
        }
        opts.progress.begin(step);
        stats.push(slice_of_game::<E>(tables, partial.as_deref(), m, opts)?);
    }
    let ms = Some(clock.elapsed().as_millis() as u64);
    let header = match &opts.table {
        Some(file) => tables.save(file, TableKind::Game, setup.name(), &stats, ms)?,
        None => compact::CompactHeader {
            format: compact::FORMAT,
            solver: "compact".into(),
            kind: TableKind::Game,
            variant,
            board: dims,
            scope: setup.name().into(),
            index_scheme: compact::INDEX_SCHEME,
            rules_version: crate::rules::clauses::registry().rules_version,
            slices: stats,
            solve_ms: ms,
            peak_memory: ordo_system::usage::peak_memory(),
        },
    };
    if let Some(p) = &partial {
        let _ = std::fs::remove_dir_all(p);
    }
    Ok(header)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The refusal of a memory limit reads right: counts agree with their numbers, and a limit
    /// too small for any slice says so instead of "over 0 KB".
    #[test]
    fn the_over_memory_reason_reads_right() {
        let tiny = over_memory_why(1, 0, 16, 1);
        assert_eq!(
            tiny,
            ": a limit under 64 bytes leaves no room for the smallest slice"
        );
        let one = over_memory_why(1, 1, 16, 64);
        assert!(
            one.contains("with 1 piece there are over 1 connected set,"),
            "{one}"
        );
        assert!(one.contains("needs over 32 bytes"), "{one}");
        let more = over_memory_why(3, 5, 80, 10_000_000);
        assert!(
            more.contains("with 3 pieces there are over 5 connected sets"),
            "{more}"
        );
        assert!(
            more.contains("the 3v1 slice alone needs over 5 MB"),
            "{more}"
        );
    }

    fn dims(cols: u8, rows: u8) -> Dims {
        Dims { cols, rows }
    }

    /// The cheap bound is a lower bound: on small boards, up to every material it never
    /// passes the entries the indexes measure, slice set by slice set, and it is not 0 (the
    /// test would say nothing of a bound that is always 0).
    #[test]
    fn entries_at_least_never_exceeds_the_measured_entries() {
        for (board, top) in [
            (dims(3, 3), 2),
            (dims(4, 4), 3),
            (dims(5, 4), 3),
            (dims(4, 6), 3),
        ] {
            let mut tables = CompactTables::new(board, Variant::Classic);
            for max in Material::up_to(top, top) {
                let all = Material::up_to(max.white, max.black);
                let measured: u64 = size(&mut tables, &all, None)
                    .unwrap()
                    .entries
                    .values()
                    .sum();
                let bound = entries_at_least(board, max);
                assert!(bound <= measured, "{board} {max}: {bound} > {measured}");
                assert!(bound > 0, "{board} {max}");
            }
        }
    }

    /// 8 x 8 up to its start's 8v8 is refused against 1 GiB by the bound alone, before any
    /// index is sized, in the form of the sizing's refusal ("need over ..., over the memory
    /// limit of ...").
    #[test]
    fn an_8x8_game_is_refused_by_the_entry_bound_before_sizing() {
        let (board, max) = (dims(8, 8), Material { white: 8, black: 8 });
        assert!(entries_at_least(board, max) > 1 << 30);
        let clock = Instant::now();
        let err = check_memory(board, Variant::Classic, max, Some(1 << 30)).unwrap_err();
        let msg = err.to_string();
        assert!(
            msg.contains("a byte a stored position") && msg.contains(" need over "),
            "{msg}"
        );
        assert!(msg.contains("over the memory limit of"), "{msg}");
        assert!(clock.elapsed().as_secs() < 10, "{:?}", clock.elapsed());
    }

    /// A board whose tables fit is not refused by the bound: 4 x 4 up to 4v4 (its start)
    /// against a limit of exactly what its sizing says it needs.
    #[test]
    fn a_small_board_that_fits_is_not_refused_by_the_entry_bound() {
        let (board, max) = (dims(4, 4), Material { white: 4, black: 4 });
        let mut tables = CompactTables::new(board, Variant::Classic);
        let sizing = size(&mut tables, &Material::up_to(4, 4), None).unwrap();
        assert!(sizing.complete);
        assert!(entries_at_least(board, max) <= sizing.bytes);
        let fits = check_memory(board, Variant::Classic, max, Some(sizing.bytes));
        assert!(fits.is_ok(), "{:?}", fits.err());
    }
}
