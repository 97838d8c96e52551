//! The retro solver, kept as an oracle for the compact solver of `ordo-solve` (which the
//! product ships alone): retrograde analysis over every position reachable from a
//! small-board start, each stored with its key (`space`, `analysis`), endgame slices of every
//! position of a material (`tb`), table files of format 2 (`file`), and the verification
//! pass and plain bounded minimax that check its tables (`verify`). The integration tests
//! cross-check the compact solver against it on every board both solve in seconds, and
//! write its format-2 files to check that the product refuses them.
//!
//! Every position stored has the player who just moved in one group, since that holds after
//! every legal move (ORDO-4.3) and at the starts; in classic Ordo the side to move may be
//! split, and such a position is valued from its reconnecting successors like any other.

mod analysis;
mod file;
mod space;
pub mod tb;
mod verify;

use std::marker::PhantomData;
use std::path::{Path, PathBuf};
use std::time::Instant;

pub use analysis::{solve as retrograde, tally, Graph, Target, NO_POSITION};
pub use file::{load_raw, save_raw, Expect, Header, Table, FORMAT, MAX_HEADER};
pub use space::{key_of, load, pack, unpack, Key, Space, SpaceGraph, MAX_PACKED_SQUARES};
pub use tb::{RetroTablebase, SliceGraph, SliceIndex};
pub use verify::{bounded, bounded_expectation, verify, verify_graph};

use crate::notation::format_move;
use crate::rules::{Color, Dims, Engine, Move, Position, Variant};
use crate::solve::ProblemTables;
use crate::solve::SliceSolver;
use crate::solve::{
    sort_best_first, BuildOptions, GameOptions, GameReport, Material, Outcome, Progress, Setup,
    SliceReport, SolveError, Value, VerifyScope,
};

/// The checkpoint beside a table: its path with `.partial` added.
fn partial_path(p: &Path) -> PathBuf {
    crate::solve::partial_dir(p)
}

/// Solve every position reachable from the `setup` start of `dims` in `variant` on engine
/// `E`, or load the table if `opts.table` already holds it, or resume from its checkpoint.
/// A damaged or outdated table (or checkpoint) is reported through
/// [`Progress::note`] and solved again; a valid table of another game, or one beyond the
/// memory limit, is an error (and left in place).
pub fn solve_game<E: Engine>(
    variant: Variant,
    dims: Dims,
    setup: Setup,
    opts: &GameOptions,
) -> Result<(Table, GameReport), SolveError> {
    let clock = Instant::now();
    let start_pos = setup.start(dims, variant)?;
    let start = E::from_position(&start_pos).map_err(|e| SolveError::Input(e.to_string()))?;
    let limit = crate::solve::effective_limit(opts.memory_limit);
    let (found, space) = match &opts.table {
        Some(path) => saved(path, variant, dims, setup, &limit, opts.progress)?,
        None => (None, None),
    };
    let loaded = found.is_some();
    let table = match found {
        Some(t) => t,
        None => solve_fresh::<E>(&start, setup, space, &limit, opts, clock)?,
    };
    let load_seconds = loaded.then(|| clock.elapsed().as_secs_f64());
    let verify_clock = Instant::now();
    let verified = if opts.verify {
        Some(verify::<E>(&table.space, &table.values, opts.progress)?.ok())
    } else {
        None
    };
    let verify_seconds = verified.map(|_| verify_clock.elapsed().as_secs_f64());
    let outcome = outcome(&table, &start, variant, dims, setup)?;
    let mut report = game_report(&table, outcome, verified, verify_seconds);
    report.load_seconds = load_seconds;
    Ok((table, report))
}

/// The saved table at `path`, or else its checkpoint's space; a file that is refused for
/// damage or age is reported and ignored, one of another game is an error.
fn saved(
    path: &Path,
    variant: Variant,
    dims: Dims,
    setup: Setup,
    limit: &Option<crate::solve::MemoryLimit>,
    progress: &dyn Progress,
) -> Result<(Option<Table>, Option<Space>), SolveError> {
    let scope = setup.name();
    if path.exists() {
        match Table::load(path, variant, dims, scope, true, *limit) {
            Ok(t) => return Ok((Some(t), None)),
            Err(e @ SolveError::File { .. }) => progress.note(&format!(
                "table refused: {e}; solving again (the new table replaces it)"
            )),
            // Another game's table, or one too large to load: not replaced.
            Err(e) => return Err(e),
        }
    }
    let partial = partial_path(path);
    if partial.exists() {
        match Table::load(&partial, variant, dims, scope, false, *limit) {
            Ok(t) => {
                progress.note(&format!("resuming from {}", partial.display()));
                return Ok((None, Some(t.space)));
            }
            Err(e @ SolveError::File { .. }) => {
                progress.note(&format!("checkpoint refused: {e}; enumerating again"))
            }
            Err(e) => return Err(e),
        }
    }
    Ok((None, None))
}

/// Enumerate (unless a checkpoint gave the space), solve and save.
fn solve_fresh<E: Engine>(
    start: &E,
    setup: Setup,
    space: Option<Space>,
    limit: &Option<crate::solve::MemoryLimit>,
    opts: &GameOptions,
    clock: Instant,
) -> Result<Table, SolveError> {
    let scope = setup.name();
    let space = match space {
        Some(s) => s,
        None => {
            let s = Space::reachable(start, limit.as_ref(), opts.progress)?;
            if let Some(path) = &opts.table {
                Table::new("game", scope, s.clone(), Vec::new(), None).save(&partial_path(path))?;
            }
            s
        }
    };
    let (values, counts) = analysis::solve(&SpaceGraph::<E>::new(&space), opts.progress)?;
    let mut t = Table::new("game", scope, space, values, Some(counts));
    t.header.solve_ms = Some(clock.elapsed().as_millis() as u64);
    t.header.peak_memory = ordo_system::usage::peak_memory();
    if let Some(path) = &opts.table {
        t.save(path)?;
        let _ = std::fs::remove_file(partial_path(path));
    }
    Ok(t)
}

/// The value of a position in a table, if the table holds it.
pub fn probe<E: Engine>(table: &Table, e: &E) -> Option<Value> {
    table
        .space
        .index(key_of(e))
        .map(|i| Value::from_code(table.values[i]))
}

/// Every legal move of `e` with the value it leaves the opponent, best first for the mover:
/// quickest win, then draws, then slowest loss.
pub fn rank_moves<E: Engine>(table: &Table, e: &E) -> Result<Vec<(Move, Value)>, SolveError> {
    let mut out = Vec::new();
    for m in e.legal_moves() {
        let v = probe(table, &e.apply(&m)).ok_or_else(|| {
            SolveError::Corrupt(format!(
                "the successor after {} is not in the table",
                format_move(&m)
            ))
        })?;
        out.push((m, v));
    }
    sort_best_first(&mut out, format_move);
    Ok(out)
}

/// The start of the solved `table` (whose start position is `start`) as the report gives it.
fn outcome<E: Engine>(
    table: &Table,
    start: &E,
    variant: Variant,
    dims: Dims,
    setup: Setup,
) -> Result<Outcome, SolveError> {
    let value = probe(table, start)
        .ok_or_else(|| SolveError::Corrupt("the start is not in the table".into()))?;
    let moves = rank_moves(table, start)?;
    Ok(Outcome::new(variant, dims, setup, value, &moves))
}

fn game_report(
    table: &Table,
    outcome: Outcome,
    verified: Option<bool>,
    verify_seconds: Option<f64>,
) -> GameReport {
    GameReport {
        outcome,
        counts: table
            .header
            .counts
            .clone()
            .unwrap_or_else(|| tally(&table.values)),
        verified,
        seconds: table.header.solve_ms.map(|ms| ms as f64 / 1000.0),
        verify_seconds,
        peak_memory: table.header.peak_memory,
        load_seconds: None,
    }
}

/// The tablebase solver of [`tb`] (two bytes an index entry, the retrograde
/// analysis over one slice) as a [`SliceSolver`], generating moves with engine `E`.
#[derive(Debug)]
pub struct Retro<E> {
    tb: RetroTablebase,
    memory_limit: Option<u64>,
    engine: PhantomData<fn() -> E>,
}

impl<E: Engine> Retro<E> {
    pub fn new(dims: Dims, variant: Variant, memory_limit: Option<u64>) -> Self {
        Retro {
            tb: RetroTablebase::new(dims, variant),
            memory_limit,
            engine: PhantomData,
        }
    }

    /// The slices loaded or built so far.
    pub fn tablebase(&self) -> &RetroTablebase {
        &self.tb
    }

    fn report(&self, m: Material, header: &Header, built: bool) -> SliceReport {
        slice_report(self.tb.variant, self.tb.dims, m, header, built)
    }
}

impl<E: Engine> SliceSolver for Retro<E> {
    fn name(&self) -> &'static str {
        "retro"
    }
    fn materials(&self, max: Material) -> Vec<Material> {
        Material::up_to(max.white, max.black)
    }
    fn path(&self, dir: &Path, m: Material) -> PathBuf {
        RetroTablebase::path(dir, self.tb.variant, self.tb.dims, m)
    }
    fn game(&self) -> (Variant, Dims) {
        (self.tb.variant, self.tb.dims)
    }
    fn needs(&self, m: Material) -> Vec<Material> {
        // A capture is looked up in the slice it leads into, never followed further.
        crate::solve::parents(self.tb.variant, m)
    }
    fn estimate(&self, m: Material) -> Result<u64, SolveError> {
        let (dims, variant) = (self.tb.dims, self.tb.variant);
        let own = SliceIndex::new(dims, variant, m)?.len() as u64 * tb::bytes_per_entry(variant);
        let mut read = 0;
        for p in crate::solve::parents(variant, m) {
            read += SliceIndex::new(dims, variant, p)?.len() as u64 * 2;
        }
        // The program itself, its connected sets and buffers.
        Ok(own + read + (64 << 20))
    }
    fn load(&mut self, dir: &Path, m: Material) -> Result<SliceReport, SolveError> {
        let header = self.tb.load_slice(dir, m)?;
        Ok(self.report(m, &header, false))
    }
    fn build(
        &mut self,
        dir: &Path,
        m: Material,
        progress: &dyn Progress,
    ) -> Result<SliceReport, SolveError> {
        let index = SliceIndex::new(self.tb.dims, self.tb.variant, m)?;
        let opts = BuildOptions {
            verify: VerifyScope::None,
            memory_limit: self.memory_limit,
            progress,
        };
        let header = tb::build_one::<E>(&mut self.tb, index, dir, &opts)?;
        Ok(self.report(m, &header, true))
    }
}

/// The report of slice `m` as its file's header describes it (not verified).
pub fn slice_report(
    variant: Variant,
    dims: Dims,
    m: Material,
    header: &Header,
    built: bool,
) -> SliceReport {
    SliceReport {
        variant,
        board: dims,
        material: m,
        entries: header.entries,
        counts: header.counts.clone().unwrap_or_default(),
        seconds: header.solve_ms.map(|ms| ms as f64 / 1000.0),
        peak_memory: header.peak_memory,
        built,
        verified: None,
    }
}

/// The retro solver's endgame slices as a problem's [`ProblemTables`]: every position of each
/// material stored.
impl ProblemTables for RetroTablebase {
    fn game(&self) -> (Variant, Dims) {
        (self.variant, self.dims)
    }

    fn value<E: Engine>(&self, e: &E) -> Result<Value, SolveError> {
        RetroTablebase::value(self, e.occupancy(), e.side_to_move())?.ok_or_else(|| {
            SolveError::Input(format!(
                "no loaded table holds the material of {}",
                crate::notation::format_position(&e.to_position())
            ))
        })
    }

    fn entries(&self, m: Material) -> Result<Vec<(usize, Value)>, SolveError> {
        let (_, values) = self
            .slices
            .get(&m)
            .ok_or_else(|| SolveError::Input(format!("slice {m} is not loaded")))?;
        Ok(values
            .iter()
            .enumerate()
            .filter(|&(_, &c)| c != NO_POSITION)
            .map(|(i, &c)| (i, Value::from_code(c)))
            .collect())
    }

    fn position(&self, m: Material, i: usize) -> Option<([u128; 2], Color)> {
        self.slices.get(&m)?.0.unrank(i)
    }
}

/// The retro slices in `dir` that hold the material of `pos` and every smaller one: what
/// [`crate::solve::verify_problem_with`] opens to prove a problem by the retro tables.
pub fn problem_tables(pos: &Position, dir: &Path) -> Result<RetroTablebase, SolveError> {
    let m = Material {
        white: pos.count(Color::White) as u32,
        black: pos.count(Color::Black) as u32,
    };
    tb::open(pos.dims(), pos.variant, m, dir)
}

/// Every legal move of `e` with its value from `tables` (any [`ProblemTables`]), best first,
/// spelt in notation.
pub fn moves_of<E: Engine, T: ProblemTables>(
    tables: &T,
    e: &E,
) -> Result<(Value, Vec<(String, Value)>), SolveError> {
    let (v, moves): (Value, Vec<(Move, Value)>) = tables.value_and_moves(e)?;
    let mut named: Vec<(String, Value)> = moves.iter().map(|(m, v)| (format_move(m), *v)).collect();
    sort_best_first(&mut named, String::clone);
    Ok((v, named))
}

/// The announcement of slice `m` as a step of its own (the retro solver does not size its
/// runs up front).
fn step(m: crate::solve::Material) -> crate::solve::Stage {
    crate::solve::Stage {
        what: format!("slice {m}"),
        number: 1,
        of: 1,
        run: None,
    }
}
