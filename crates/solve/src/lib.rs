//! The solver of Ordo and Ordo X: exact game values (win or loss with the distance in plies,
//! or draw) of endgame tables by material and of whole small-board games, one byte a core
//! position (the compact solver), stored in checksummed files and verified.
//!
//! The modules are private; what other crates use is named at the root:
//! - the library's way in, which the `ordo` facade re-exports: [`build_tables`] (endgame
//!   slices in a folder), [`solve_board`] (a whole small board), [`verify_tables`], the probe
//!   [`Tablebase`] (a position's [`Tablebase::value`], each move's by [`Tablebase::moves`]),
//!   [`Value`], [`Material`], the options ([`BuildOptions`], [`GameOptions`]), the reports
//!   ([`CompactSliceReport`], [`CompactGameReport`], [`Verification`]), [`Progress`] and
//!   [`SolveError`];
//! - for the command line and the test tooling: the compact solver's tables in memory
//!   ([`CompactTables`]) and on disk ([`build_slices`], [`open_slices`], [`solve_game`],
//!   resumption through [`partial_dir`]), the job graph of a tablebase for a cluster
//!   ([`job_graph`], [`run_job`]), problems ([`parse_problems`], [`verify_problem`],
//!   [`compose_problems`]), the memory limits ([`effective_limit`]) and the checksum lines of
//!   the table files.
//!
//! The older retro solver (every reachable position with its key, table files of format 2)
//! is in the test tooling (`ordo-testkit`), where it cross-checks this one; a file of format 2
//! is refused here ([`SolveError::RetroTable`]).
//!
//! It runs on any [`Engine`](rules::Engine); the command line uses the bitboard engine, the
//! tests check it on the reference engine too.

use ordo_core::{notation, rules};
use ordo_system::files;

mod checksum;
mod compact;
mod fault;
mod material;
mod memory;
mod names;
mod on_disk;
mod plan;
mod problem;
mod report;
mod tablebase;
mod text;
mod value;

use std::path::PathBuf;

pub use material::{
    ancestors, connected_sets, connected_sets_bounded, parents, require_slices, Material,
    ParseMaterialError,
};
pub use names::Names;
pub use report::{
    BuildOptions, Counts, GameReport, SliceReport, Solver, Verification, VerifyScope,
};

// The table files: their checksum lines (also read by the test tooling's forgers).
pub use checksum::{
    blake3_line, parse_blake3_line, parse_checksum_line, read_line_limited, Fnv, BLAKE3_LINE,
    BLAKE3_PREFIX, CHECKSUM_LINE, CHECKSUM_PREFIX,
};
// The compact solver: its tables in memory, their files and the slices a material stores.
pub use compact::{
    carries_check, colour_flip, content_checksum, decode as decode_value, flip_rows, mirror,
    needs as slices_read, parse_list as parse_checksum_list, start_material, stored_material,
    stored_up_to, verify_log_path, CompactExpect, CompactGame, CompactHeader, CompactTables,
    CoreIndex, Listed, Sets, SliceStats, TableKind, FORMAT as TABLE_FORMAT, MAX_RANK_PAIRS,
};
// What a job may take: the memory limits of the system and of the user.
pub use memory::{
    check as check_limit, effective as effective_limit, human as human_bytes, Limit as MemoryLimit,
    Need as MemoryNeed, Source as LimitSource,
};
// The compact solver on disk: build, open, solve a game, resume.
pub use on_disk::{
    build as build_slices, build_slice, check_memory, check_memory_sized,
    estimate as estimate_bytes, file_name as slice_file_name, files_read as table_files_read,
    job_estimate, load_slice, open as open_slices, open_more, open_more_from, owed_mark,
    partial_dir, path as slice_path, size as size_job, solve_game, unloaded as unloaded_slices,
    CompactGameReport, CompactSliceReport, Sizing, VerdictSummary, PROGRAM_BYTES, WORK_PER_ENTRY,
};
// A tablebase for a cluster: its job graph and one job.
pub use plan::{
    graph as job_graph, run_job, Compact as CompactSliceSolver, Job, JobError, SliceSolver,
};
// Problems: read, prove, compose, write.
pub use problem::{
    compose as compose_problems, lost_within, parse_file as parse_problems,
    turns as stipulation_turns, verify as verify_problem, verify_with as verify_problem_with,
    write_file as write_problems, Method, OutOfBudget, Problem, ProblemFile, ProblemReport,
    Tables as ProblemTables, DEFAULT_SEARCH_NODES,
};
pub use tablebase::{Tablebase, IN_MEMORY};
pub use value::{plies, sort_best_first, Value, Wdl};

use crate::rules::{setup, Dims, Move, Position, Variant};

/// Why solving, loading or probing failed. The variants that point to a setting (the
/// memory limit, the search budget) are typed, so a front end can name it in its
/// terms with [`SolveError::render`]; `Display` uses the library's.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum SolveError {
    /// A board, slice or table beyond what the solver's index can address (too many
    /// positions or rank pairs), refused before any work; the text names the figures.
    #[error("{0}")]
    TooLarge(String),
    /// A job that would not fit its memory limit.
    #[error("{}", self.render(&Names::LIBRARY))]
    OverMemory {
        /// The job and what it needs, up to "the memory limit of"; with [`need`] set, the
        /// job and its verb only (`the tables need`), the need written after it.
        ///
        /// [`need`]: SolveError::OverMemory::need
        before: String,
        /// What the job needs, when it was sized.
        need: Option<memory::Need>,
        /// The memory limit the job was held to, in bytes, and what set it.
        limit: memory::Limit,
        /// What follows the limit, if anything.
        after: String,
    },
    /// A table whose content contradicts itself (an entry that does not decode, a count
    /// that does not match); the text says where.
    #[error("table inconsistent: {0}")]
    Corrupt(String),
    /// A file that could not be read, written or parsed ([`SolveError::io`]).
    #[error("{path}: {msg}")]
    File {
        /// The file's path, as given.
        path: String,
        /// What went wrong with it (the system's error or the parser's).
        msg: String,
    },
    /// A valid table file of another game, board, kind or scope than the one asked for.
    #[error("{path}: {msg}")]
    OtherTable {
        /// The table file's path, as given.
        path: String,
        /// What it holds against what was asked for.
        msg: String,
    },
    /// A table file of the retro solver (format 2), which this build no longer reads, and what
    /// its header says it held, so that a front end can say how to build it again.
    #[error("{}", self.render(&Names::LIBRARY))]
    RetroTable {
        /// The table file's path, as given.
        path: String,
        /// What its header says it held.
        held: Box<RetroHeld>,
    },
    /// The search of problem `problem` expanded `max_nodes` positions without deciding
    /// 'win in `turns`'; `refused` says why the tables were not used, where they were asked for.
    #[error("{}", self.render(&Names::LIBRARY))]
    SearchGaveUp {
        /// The problem's name, as its file or the command line gives it.
        problem: String,
        /// The search budget: positions expanded before giving up.
        max_nodes: u64,
        /// The turns of the claimed win (White's moves, not plies).
        turns: u16,
        /// Why the tables were not used, where they were asked for; `None` if they were
        /// not asked for.
        refused: Option<Box<SolveError>>,
    },
    /// The verification pass found a stored value that its successors' values contradict;
    /// the text names the slice and the position.
    #[error("{0}")]
    Mismatch(String),
    /// An argument the solver cannot take (a position with no place in the table asked
    /// for, a slice not built, a bad board or material); the text says which.
    #[error("{0}")]
    Input(String),
    /// Stopped on request ([`Progress::stop_requested`]): what was done and kept.
    #[error("{0}")]
    Interrupted(String),
    /// Slices a probe of material `needed` would read are not built in `dir`.
    #[error("{dir}: no {} {dims} {needed} table: {} {} not built", .variant.name(), ordo_core::text::word(.missing.len(), "slice"), .missing.iter().map(|m| m.to_string()).collect::<Vec<_>>().join(", "))]
    MissingSlices {
        /// The table directory that was probed.
        dir: String,
        /// The rules the table is for.
        variant: Variant,
        /// The board the table is for.
        dims: Dims,
        /// The material of the probed position.
        needed: Material,
        /// The slices (materials) the probe would read that have no file in `dir`.
        missing: Vec<Material>,
    },
}

impl SolveError {
    /// A file that cannot be read or written: its path and the reason.
    pub fn io(path: &std::path::Path, e: impl std::fmt::Display) -> SolveError {
        SolveError::File {
            path: path.display().to_string(),
            msg: e.to_string(),
        }
    }

    /// Refuse a checkpoint path `path` (a slice's `FILE.partial`, or a game solve's
    /// `TABLE.partial/` folder) that is a FIFO, a socket or a device node: it is neither read
    /// (which could block) nor replaced or deleted, and the error names it.
    pub fn refuse_special(path: &std::path::Path) -> Result<(), SolveError> {
        match files::special_kind(path) {
            Ok(None) => Ok(()),
            Ok(Some(kind)) => Err(SolveError::io(
                path,
                format!("the checkpoint is {kind}, not a file or folder; left as it is: move it away to build"),
            )),
            Err(e) => Err(SolveError::io(path, e)),
        }
    }
}

/// What a retro solver's table file (format 2) says it held, each field as far as its header
/// reads.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Deserialize)]
pub struct RetroHeld {
    /// `game` or `endgame`.
    pub kind: Option<String>,
    /// `classic` or `x`.
    pub variant: Option<String>,
    /// `COLSxROWS`.
    pub board: Option<String>,
    /// The setup (`row1`) or the material (`3v2`).
    pub scope: Option<String>,
}

impl RetroHeld {
    /// `the classic 3x3 game row1 table`, if the header said all four.
    pub fn describe(&self) -> Option<String> {
        let (kind, variant) = (self.kind.as_ref()?, self.variant.as_ref()?);
        let (board, scope) = (self.board.as_ref()?, self.scope.as_ref()?);
        Some(format!("the {variant} {board} {kind} {scope} table"))
    }
}

/// A small-board start: each side fills its home row (`row1`) or its two nearest rows (`row2`).
/// Its text form (`Display`, `FromStr`) is that name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Setup {
    /// Each side's pieces fill its home row (`row1`).
    Row1,
    /// Each side's pieces fill its two rows nearest its edge (`row2`).
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

    /// Both setups, `row1` first.
    pub const ALL: [Setup; 2] = [Setup::Row1, Setup::Row2];

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
    /// The move (in canonical notation in JSON).
    #[serde(rename = "move", with = "text")]
    pub mv: Move,
    /// The game length in plies after this move at best play (this move included).
    pub plies: u16,
}

impl std::fmt::Display for Setup {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// A setup name that is neither `row1` nor `row2`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("setup '{0}': expected row1 or row2")]
pub struct ParseSetupError(pub String);

impl std::str::FromStr for Setup {
    type Err = ParseSetupError;
    /// `row1` or `row2`, in any case.
    fn from_str(s: &str) -> Result<Setup, ParseSetupError> {
        Setup::ALL
            .into_iter()
            .find(|v| v.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| ParseSetupError(s.to_string()))
    }
}

/// The game's name as the solver's reports and tables print it: `Ordo` or `Ordo X`.
pub fn report_name(variant: Variant) -> &'static str {
    match variant {
        Variant::Classic => "Ordo",
        Variant::X => "Ordo X",
    }
}

/// The start of a solved small board, as the solver reports it: its value and the first
/// moves that keep a forced win.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Outcome {
    /// The rules solved under (`classic` or `x` in JSON).
    #[serde(with = "text")]
    pub variant: Variant,
    /// The board solved (`COLSxROWS` in JSON).
    #[serde(with = "text")]
    pub board: Dims,
    /// The start solved (`row1` or `row2` in JSON).
    #[serde(with = "text")]
    pub setup: Setup,
    /// Won, lost or drawn for White, who moves first (`win`, `loss`, `draw` in JSON).
    pub start: Wdl,
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
        moves: &[(Move, Value)],
    ) -> Outcome {
        let winning_first_moves = moves
            .iter()
            .filter_map(|(m, v)| match v {
                Value::Loss(d) => Some(FirstMove {
                    mv: *m,
                    plies: d + 1,
                }),
                _ => None,
            })
            .collect();
        Outcome {
            variant,
            board: dims,
            setup,
            start: value.wdl(),
            optimal_length: value.distance(),
            winning_first_moves,
            first_moves: moves.len(),
        }
    }
}

impl std::fmt::Display for Outcome {
    /// Two lines: the value of the start, and the winning first moves with their lengths.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let game = report_name(self.variant);
        let value = match (self.start, self.optimal_length) {
            (Wdl::Win, Some(n)) => format!("White (to move) wins in {}", plies(n)),
            (Wdl::Loss, Some(n)) => format!("Black wins in {}", plies(n)),
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

/// What a long computation reports as it goes: the library calls it, a front end draws it
/// (the command line with progress bars). Implementations must be cheap; they are called
/// from worker threads about every 65,536 units of work.
///
/// ```
/// use ordo_solve::{Phase, Stage};
/// struct Log;
/// impl ordo_solve::Progress for Log {
///     fn update(&self, phase: Phase, done: u64, total: Option<u64>) {
///         eprintln!("{}: {done} of {total:?} {}", phase.name, phase.unit);
///     }
///     fn note(&self, text: &str) {
///         eprintln!("note: {text}");
///     }
///     fn begin(&self, step: &Stage) {
///         eprintln!("{} ({} of {})", step.what, step.number, step.of);
///     }
/// }
/// ```
pub trait Progress: Sync {
    /// `done` of `total` (`None`: not known in advance) units of `phase`.
    fn update(&self, phase: Phase, done: u64, total: Option<u64>);
    /// A one-line notice the user should see: a refused table, a fallback, a resumption.
    fn note(&self, _text: &str) {}
    /// A new stage of the run begins (a slice of a tablebase); its phases follow, counted
    /// from zero.
    fn begin(&self, _step: &Stage) {}
    /// Whether the caller asks the work to stop (Ctrl-C): work that can stop early asks at
    /// its safe points, keeps what it can and ends with [`SolveError::Interrupted`].
    fn stop_requested(&self) -> bool {
        false
    }
}

/// A phase of long work and the unit it counts, as [`Progress::update`] reports it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Phase {
    /// What is being done: `building`, `verifying`.
    pub name: &'static str,
    /// What its counts count, plural: `stored positions`.
    pub unit: &'static str,
}

impl Phase {
    /// Solving a slice layer group by layer group, in stored positions (a byte each).
    pub const BUILDING: Phase = Phase {
        name: "building",
        unit: "stored positions",
    };
    /// Recomputing stored values from their successors, in stored positions.
    pub const VERIFYING: Phase = Phase {
        name: "verifying",
        unit: "stored positions",
    };
}

/// A stage of a run (a slice of a tablebase or of a game solve), as [`Progress::begin`]
/// announces it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stage {
    /// What the stage is: `slice 3v2`.
    pub what: String,
    /// Its place in the run, from 1, of [`Stage::of`] stages.
    pub number: usize,
    /// The number of stages of the run.
    pub of: usize,
    /// The work of the whole run, when it is known up front.
    pub run: Option<RunWork>,
}

/// The work of a run in stored positions, each counted once for every phase that goes over
/// it in this run (a slice built and verified counts twice, a slice read from its file and
/// not verified not at all).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RunWork {
    /// The work of the stages before this one.
    pub before: u64,
    /// The work of every stage.
    pub total: u64,
}

/// A [`Progress`] that shows nothing.
#[derive(Clone, Copy, Debug, Default)]
pub struct Silent;

impl Progress for Silent {
    fn update(&self, _phase: Phase, _done: u64, _total: Option<u64>) {}
}

/// Counts the units of a parallel phase and reports every 65,536th to a [`Progress`] (the
/// verification passes, and the retro solver of the test tooling).
pub struct Ticker<'a> {
    progress: &'a dyn Progress,
    phase: Phase,
    total: Option<u64>,
    done: std::sync::atomic::AtomicU64,
}

impl<'a> Ticker<'a> {
    /// A ticker of `phase` reporting to `progress`, with `total` units (`None`: not known
    /// in advance); reports 0 done at once.
    pub fn new(progress: &'a dyn Progress, phase: Phase, total: Option<u64>) -> Self {
        progress.update(phase, 0, total);
        Ticker {
            progress,
            phase,
            total,
            done: Default::default(),
        }
    }
    /// One unit done.
    pub fn tick(&self) {
        let c = self.done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
        if c % (1 << 16) == 0 {
            self.progress.update(self.phase, c, self.total);
        }
    }
    /// `n` units done at once (work an earlier run did), reported at once.
    pub fn add(&self, n: u64) {
        let c = self.done.fetch_add(n, std::sync::atomic::Ordering::Relaxed) + n;
        self.progress.update(self.phase, c, self.total);
    }
}

/// Prints the phase and the count (the [`Progress`] it reports to cannot be printed).
impl std::fmt::Debug for Ticker<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Ticker")
            .field("phase", &self.phase)
            .field("total", &self.total)
            .field("done", &self.done)
            .finish_non_exhaustive()
    }
}

/// Options of [`on_disk::solve_game`].
pub struct GameOptions<'a> {
    /// Where the solved table goes; its checkpoint is the same path with `.partial` added.
    /// `None`: nothing is written.
    pub table: Option<PathBuf>,
    /// Run the verification pass after solving (or on the loaded table), resumable through
    /// the log `TABLE.verifying` when `table` is set.
    pub verify: bool,
    /// Bytes this run may use at most; the tighter of this and the system's limits
    /// ([`effective_limit`]) bounds the enumeration and the loading of a table.
    pub memory_limit: Option<u64>,
    /// Where the phases' progress and the notices go ([`Silent`] for nowhere).
    pub progress: &'a dyn Progress,
}

/// Nothing written, no verification, the system's memory limit, no progress shown.
/// Prints every option but where progress goes (a [`Progress`] cannot be printed).
impl std::fmt::Debug for GameOptions<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GameOptions")
            .field("table", &self.table)
            .field("verify", &self.verify)
            .field("memory_limit", &self.memory_limit)
            .finish_non_exhaustive()
    }
}

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

/// Build (or load, where a valid file exists) every endgame slice of `variant` on `dims` up to
/// material `max` in `dir`, fewer pieces first, each file written atomically when done;
/// `opts` says which slices to verify, the memory limit and where progress goes. The reports,
/// one a slice; [`Tablebase::open`] then probes the folder.
///
/// ```
/// use ordo_solve::{build_tables, BuildOptions, Material};
///
/// let dir = std::env::temp_dir().join(format!("ordo-solve-doc-build-{}", std::process::id()));
/// let max = Material { white: 1, black: 1 };
/// let reports = build_tables::<ordo_bitboard::Bitboard>(
///     &dir, ordo_core::rules::Variant::Classic, "3x3".parse().unwrap(), max,
///     &BuildOptions::default()).unwrap();
/// assert!(reports.iter().all(|r| r.built && r.stats.material.white <= 1));
/// assert_eq!(reports.last().unwrap().stats.material, max);
/// # std::fs::remove_dir_all(&dir).unwrap();
/// ```
pub fn build_tables<E: rules::Engine>(
    dir: &std::path::Path,
    variant: Variant,
    dims: Dims,
    max: Material,
    opts: &BuildOptions,
) -> Result<Vec<CompactSliceReport>, SolveError> {
    build_slices::<E>(dims, variant, max, dir, opts, |_| {}).map(|(_, reports)| reports)
}

/// Solve the whole game of the `setup` start of a small board: every core position of every
/// material the start comes down to, then the start ([`solve_game`], without the tables).
///
/// ```
/// use ordo_solve::{solve_board, GameOptions, Setup, Wdl};
///
/// let v = ordo_core::rules::Variant::Classic;
/// let report = solve_board::<ordo_bitboard::Bitboard>(v, "3x3".parse().unwrap(), Setup::Row1,
///     &GameOptions::default()).unwrap();
/// assert_eq!(report.game.outcome.start, Wdl::Win); // White, who moves first
/// ```
pub fn solve_board<E: rules::Engine>(
    variant: Variant,
    dims: Dims,
    setup: Setup,
    opts: &GameOptions,
) -> Result<CompactGameReport, SolveError> {
    solve_game::<E>(variant, dims, setup, opts).map(|(_, report)| report)
}

/// Verify the endgame slices up to `max` in `dir`: each one built again from the slices below
/// it and compared with its file, every mismatch counted ([`Verification::ok`] if none).
///
/// ```
/// use ordo_solve::{build_tables, verify_tables, BuildOptions, Material, Silent};
///
/// let dir = std::env::temp_dir().join(format!("ordo-solve-doc-verify-{}", std::process::id()));
/// let (v, dims) = (ordo_core::rules::Variant::X, "3x3".parse().unwrap());
/// let max = Material { white: 2, black: 1 };
/// build_tables::<ordo_bitboard::Bitboard>(&dir, v, dims, max, &BuildOptions::default()).unwrap();
/// let verdict = verify_tables::<ordo_bitboard::Bitboard>(&dir, v, dims, max, &Silent).unwrap();
/// assert!(verdict.ok() && verdict.checked > 0);
/// # std::fs::remove_dir_all(&dir).unwrap();
/// ```
pub fn verify_tables<E: rules::Engine>(
    dir: &std::path::Path,
    variant: Variant,
    dims: Dims,
    max: Material,
    progress: &dyn Progress,
) -> Result<Verification, SolveError> {
    open_slices(dims, variant, max, dir)?.verify_all::<E>(progress)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A first move is a typed move, written in JSON (the reports of `ordo solve --json` and
    /// `analysis/games/`) as its canonical notation under `move`, and read back from it.
    #[test]
    fn a_first_move_is_written_in_canonical_notation() {
        let mv = notation::parse_move("a1:b1-a2").unwrap();
        let first = FirstMove { mv, plies: 3 };
        let text = serde_json::to_string(&first).unwrap();
        assert_eq!(text, r#"{"move":"a1:b1-a2","plies":3}"#);
        assert_eq!(serde_json::from_str::<FirstMove>(&text).unwrap(), first);
        assert!(serde_json::from_str::<FirstMove>(r#"{"move":"z","plies":3}"#).is_err());
    }
}
