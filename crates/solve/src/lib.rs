//! The retrograde solver: exact game values (win or loss with the distance in plies, or draw)
//! for every position reachable from a small-board start, stored compactly and verified.
//!
//! What it owns:
//! - [`Value`] and its two-byte code (`value`);
//! - [`Space`], the set of positions a table covers with its perfect index (`space`);
//! - the retrograde analysis over a space, cycles included (`retro`);
//! - the verification pass and the plain bounded minimax that check a table (`verify`);
//! - table files with their header, checksum and atomic writes (`file`);
//! - [`solve_game`], the whole pipeline behind `ordo solve`, with a checkpoint after the
//!   enumeration so that an interrupted run resumes without enumerating again.
//!
//! It runs on any [`Engine`]; the command line uses the bitboard engine, the tests check it
//! on the reference engine too.
//!
//! Every position stored has the player who just moved in one group, since that holds after
//! every legal move (ORDO-4.3) and at the starts; in classic Ordo the side to move may be
//! split, and such a position is valued from its reconnecting successors like any other.

use ordo_core::{notation, rules};
use ordo_os::files;

pub mod checksum;
pub mod compact;
pub mod ctb;
mod file;
pub mod memory;
mod names;
pub mod plan;
pub mod problem;
mod retro;
mod space;
pub mod tb;
mod value;
mod verify;

use std::path::{Path, PathBuf};
use std::time::Instant;

pub use file::{load_raw, Expect, Header, Table, FORMAT, MAX_HEADER};
pub use names::Names;
pub use retro::{solve as retrograde, tally, Counts, Graph, Target, NO_POSITION};
pub use space::{key_of, load, pack, unpack, Key, Space, SpaceGraph, MAX_SQUARES};
pub use value::{plies, sort_best_first, Value};
pub use verify::{bounded, bounded_expectation, verify, verify_graph, Verdict};

use crate::notation::format_move;
use crate::rules::{setup, Dims, Engine, Position, Variant};

/// Why solving, loading or probing failed. The variants that point to a setting (the
/// memory limit, the solver, the search budget) are typed, so a front end can name it in its
/// terms with [`SolveError::render`]; `Display` uses the library's.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum SolveError {
    #[error("{0}")]
    TooLarge(String),
    /// A job that would not fit its memory limit.
    #[error("{}", self.render(&Names::LIBRARY))]
    OverMemory {
        /// The job and what it needs, up to "the memory limit of".
        before: String,
        limit: memory::Limit,
        /// What follows the limit, if anything.
        after: String,
    },
    #[error("table inconsistent: {0}")]
    Corrupt(String),
    #[error("{path}: {msg}")]
    File { path: String, msg: String },
    /// A valid table file of another game, board, kind or scope than the one asked for.
    #[error("{path}: {msg}")]
    OtherTable { path: String, msg: String },
    /// A valid table file, or a folder of table files (`them`), that the other solver reads:
    /// `solver` (the kind of tables found, not the kind asked for). The message says what was
    /// `found`, then to read it with `solver` or do `otherwise`.
    #[error("{}", self.render(&Names::LIBRARY))]
    OtherSolver {
        path: String,
        found: String,
        solver: problem::TableKind,
        them: bool,
        otherwise: String,
    },
    /// The search of problem `problem` expanded `max_nodes` positions without deciding
    /// 'win in `turns`'; `refused` says why the tables were not used, where they were asked for.
    #[error("{}", self.render(&Names::LIBRARY))]
    SearchGaveUp {
        problem: String,
        max_nodes: u64,
        turns: u16,
        refused: Option<Box<SolveError>>,
    },
    #[error("{0}")]
    Mismatch(String),
    #[error("{0}")]
    Input(String),
    /// Stopped on request ([`Progress::stop_requested`]): what was done and kept.
    #[error("{0}")]
    Interrupted(String),
    /// Slices a probe of material `needed` would read are not built in `dir`.
    #[error("{dir}: no {} {dims} {needed} table: slice{} {} not built", .variant.name(), if .missing.len() == 1 { "" } else { "s" }, .missing.iter().map(|m| m.to_string()).collect::<Vec<_>>().join(", "))]
    MissingSlices {
        dir: String,
        variant: Variant,
        dims: Dims,
        needed: tb::Material,
        missing: Vec<tb::Material>,
    },
}

impl SolveError {
    fn io(path: &Path, e: impl std::fmt::Display) -> SolveError {
        SolveError::File {
            path: path.display().to_string(),
            msg: e.to_string(),
        }
    }
}

/// A small-board start: each side fills its home row (`row1`) or its two nearest rows (`row2`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Setup {
    Row1,
    Row2,
}

impl Setup {
    /// `row1` or `row2`.
    pub fn name(self) -> &'static str {
        match self {
            Setup::Row1 => "row1",
            Setup::Row2 => "row2",
        }
    }

    /// The start position of this setup on `dims`, White to move.
    pub fn start(self, dims: Dims, variant: Variant) -> Result<Position, SolveError> {
        let depth = match self {
            Setup::Row1 => 1,
            Setup::Row2 => 2,
        };
        setup::filled_rows(dims, depth, variant).ok_or_else(|| {
            SolveError::Input(format!(
                "setup {} needs at least {} rows; the board {dims} has {}",
                self.name(),
                2 * depth,
                dims.rows
            ))
        })
    }
}

/// A first move of the start and what it leads to.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct FirstMove {
    /// The move in canonical notation.
    #[serde(rename = "move")]
    pub mv: String,
    /// The game length in plies after this move at best play (this move included).
    pub plies: u16,
}

/// The game's name as the solver's reports print it, from the variant as they spell it
/// (`x` or `classic`): `Ordo X` or `Ordo`.
pub fn game_name(variant: &str) -> &'static str {
    if variant == "x" {
        "Ordo X"
    } else {
        "Ordo"
    }
}

/// The start of a solved small board, as both solvers report it: its value and the first
/// moves that keep a forced win.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Outcome {
    pub variant: String,
    pub board: String,
    pub setup: String,
    /// `win`, `loss` or `draw`, for White, who moves first.
    pub start: String,
    /// The game length in plies at best play (`None` for a draw).
    pub optimal_length: Option<u16>,
    /// Every first move that keeps a forced win, quickest first.
    pub winning_first_moves: Vec<FirstMove>,
    /// Number of legal first moves.
    pub first_moves: usize,
}

impl Outcome {
    /// The outcome of the `setup` start of `dims`, whose value for White is `value` and
    /// whose first moves lead to `moves` (each valued for Black, to move after it), best
    /// first.
    pub fn new(
        variant: Variant,
        dims: Dims,
        setup: Setup,
        value: Value,
        moves: &[(String, Value)],
    ) -> Outcome {
        let winning_first_moves = moves
            .iter()
            .filter_map(|(m, v)| match v {
                Value::Loss(d) => Some(FirstMove {
                    mv: m.clone(),
                    plies: d + 1,
                }),
                _ => None,
            })
            .collect();
        Outcome {
            variant: variant.name().into(),
            board: dims.to_string(),
            setup: setup.name().into(),
            start: match value {
                Value::Win(_) => "win",
                Value::Loss(_) => "loss",
                Value::Draw => "draw",
            }
            .into(),
            optimal_length: value.distance(),
            winning_first_moves,
            first_moves: moves.len(),
        }
    }
}

impl std::fmt::Display for Outcome {
    /// Two lines: the value of the start, and the winning first moves with their lengths.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let game = game_name(&self.variant);
        let value = match (self.start.as_str(), self.optimal_length) {
            ("win", Some(n)) => format!("White (to move) wins in {}", plies(n)),
            ("loss", Some(n)) => format!("Black wins in {}", plies(n)),
            _ => "draw: neither side can force the end".to_string(),
        };
        writeln!(f, "{game} {} {}: {value}", self.board, self.setup)?;
        let moves: Vec<String> = self
            .winning_first_moves
            .iter()
            .map(|m| format!("{} ({})", m.mv, m.plies))
            .collect();
        writeln!(
            f,
            "winning first moves: {} of {}{}{}",
            moves.len(),
            self.first_moves,
            if moves.is_empty() { "" } else { ": " },
            moves.join(", ")
        )
    }
}

/// What `ordo solve --solver retro` reports about a solved small board.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct GameReport {
    #[serde(flatten)]
    pub outcome: Outcome,
    pub counts: Counts,
    /// Whether the verification pass ran and passed (`None`: not run).
    pub verified: Option<bool>,
    /// Wall time of the solve (enumeration and retrograde analysis) as the table records it,
    /// seconds; `None` for a table that does not say.
    pub seconds: Option<f64>,
    /// Wall time of the verification pass of this run, seconds.
    pub verify_seconds: Option<f64>,
    /// Peak resident memory of the solving run, bytes (`None` where the system does not say).
    pub peak_memory: Option<u64>,
    /// Wall time of loading the saved table in this run, seconds (`None`: this run solved).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub load_seconds: Option<f64>,
}

/// What a long computation reports as it goes: the library calls it, a front end draws it
/// (the command line with progress bars). Implementations must be cheap; they are called
/// from worker threads about every 65,536 units of work.
///
/// ```
/// struct Log;
/// impl ordo_solve::Progress for Log {
///     fn update(&self, phase: &str, done: u64, total: Option<u64>) {
///         eprintln!("{phase}: {done} of {total:?}");
///     }
///     fn note(&self, text: &str) {
///         eprintln!("note: {text}");
///     }
/// }
/// ```
pub trait Progress: Sync {
    /// `done` units of `total` (`None`: not known in advance) in the phase named `phase`.
    fn update(&self, phase: &str, done: u64, total: Option<u64>);
    /// A one-line notice the user should see: a refused table, a fallback, a resumption.
    fn note(&self, _text: &str) {}
    /// A new piece of work begins (a slice of a tablebase); its phases follow.
    fn begin(&self, _what: &str) {}
    /// Whether the caller asks the work to stop (Ctrl-C): work that can stop early asks at
    /// its safe points, keeps what it can and ends with [`SolveError::Interrupted`].
    fn stop_requested(&self) -> bool {
        false
    }
}

/// A [`Progress`] that shows nothing.
#[derive(Clone, Copy, Debug, Default)]
pub struct Silent;

impl Progress for Silent {
    fn update(&self, _phase: &str, _done: u64, _total: Option<u64>) {}
}

/// Counts the units of a parallel phase and reports every 65,536th to a [`Progress`].
pub(crate) struct Ticker<'a> {
    progress: &'a dyn Progress,
    phase: &'a str,
    total: Option<u64>,
    done: std::sync::atomic::AtomicU64,
}

impl<'a> Ticker<'a> {
    pub(crate) fn new(progress: &'a dyn Progress, phase: &'a str, total: Option<u64>) -> Self {
        progress.update(phase, 0, total);
        Ticker {
            progress,
            phase,
            total,
            done: Default::default(),
        }
    }
    /// One unit done.
    pub(crate) fn tick(&self) {
        let c = self.done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
        if c % (1 << 16) == 0 {
            self.progress.update(self.phase, c, self.total);
        }
    }
    /// `n` units done at once (work an earlier run did), reported at once.
    pub(crate) fn add(&self, n: u64) {
        let c = self.done.fetch_add(n, std::sync::atomic::Ordering::Relaxed) + n;
        self.progress.update(self.phase, c, self.total);
    }
}

/// Options of [`solve_game`].
pub struct GameOptions<'a> {
    /// Where the solved table goes; its checkpoint is the same path with `.partial` added.
    /// `None`: nothing is written.
    pub table: Option<PathBuf>,
    /// Run the verification pass after solving (or on the loaded table), resumable through
    /// the log `TABLE.verifying` when `table` is set.
    pub verify: bool,
    /// Bytes this run may use at most; the tighter of this and the system's limits
    /// ([`memory::effective`]) bounds the enumeration and the loading of a table.
    pub memory_limit: Option<u64>,
    pub progress: &'a dyn Progress,
}

/// Nothing written, no verification, the system's memory limit, no progress shown.
impl Default for GameOptions<'static> {
    fn default() -> Self {
        GameOptions {
            table: None,
            verify: false,
            memory_limit: None,
            progress: &Silent,
        }
    }
}

/// The checkpoint beside a table: its path with `.partial` added (one helper for both
/// solvers, see [`ctb::partial_dir`]).
fn partial_path(p: &Path) -> PathBuf {
    ctb::partial_dir(p)
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
    let limit = memory::effective(opts.memory_limit);
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
        Some(verify::verify::<E>(&table.space, &table.values, opts.progress)?.ok())
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
    limit: &Option<memory::Limit>,
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
    limit: &Option<memory::Limit>,
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
    let (values, counts) = retro::solve(&SpaceGraph::<E>::new(&space), opts.progress)?;
    let mut t = Table::new("game", scope, space, values, Some(counts));
    t.header.solve_ms = Some(clock.elapsed().as_millis() as u64);
    t.header.peak_memory = peak_memory();
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
pub fn rank_moves<E: Engine>(table: &Table, e: &E) -> Result<Vec<(String, Value)>, SolveError> {
    let mut out = Vec::new();
    for m in e.legal_moves() {
        let v = probe(table, &e.apply(&m)).ok_or_else(|| {
            SolveError::Corrupt(format!(
                "the successor after {} is not in the table",
                format_move(&m)
            ))
        })?;
        out.push((format_move(&m), v));
    }
    sort_best_first(&mut out, String::clone);
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

/// Peak resident memory of this process in bytes (Linux: `VmHWM` of `/proc/self/status`).
pub fn peak_memory() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}
