//! What the solvers report: the counts and reports of the published results (`analysis/`),
//! a slice's report (every job's, [`crate::plan::run_job`]), the verdict of a verification
//! pass, and the options of a tablebase build.

use crate::rules::{Dims, Variant};
use crate::{Material, Outcome};

/// The solver that computed a report: always the compact solver in this crate (the field
/// stays in the reports so that older ones, which named others, keep their meaning).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Solver {
    /// One byte a core position ([`crate::CompactTables`]).
    #[default]
    Compact,
}

/// How the games of a graph end and how the values came out.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Counts {
    /// Positions solved.
    pub positions: u64,
    /// Distinct moves between them (edges of the game graph, inside it).
    pub edges: u64,
    /// Won for the side to move.
    pub wins: u64,
    /// Lost for the side to move (game-over positions included).
    pub losses: u64,
    /// Neither side can force the end.
    pub draws: u64,
    /// Game over by ORDO-10.1 (a piece reached the home row of the side to move).
    pub over_home_row: u64,
    /// Game over by ORDO-10.2 (the side to move has no piece).
    pub over_no_pieces: u64,
    /// Side to move split and unable to reconnect (ORDO-10.3).
    pub cannot_reconnect: u64,
    /// Stalemates: side to move one group and without a legal move (ORDO-10.4).
    pub stalemates: u64,
    /// Longest distance to the end of the game, in plies.
    pub longest: u16,
}

/// What the retro solver (now in the test tooling) reported about a solved small board: the
/// form of the published reports of `analysis/games/`, which the command line tabulates.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct GameReport {
    /// The start's value, game length and winning first moves (flattened into the JSON).
    #[serde(flatten)]
    pub outcome: Outcome,
    /// How the games of the board's graph end and how its values came out.
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

/// What building (or loading) one slice gave (the retro solver's slices reported every
/// position of the material; the published reports of `analysis/tablebases/` are of this form).
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct SliceReport {
    /// The rules the slice is for (`classic` or `x` in JSON).
    #[serde(with = "crate::text")]
    pub variant: Variant,
    /// The board the slice is for (`COLSxROWS` in JSON).
    #[serde(with = "crate::text")]
    pub board: Dims,
    /// The slice's material (`3v2` in JSON).
    #[serde(with = "crate::text")]
    pub material: Material,
    /// Index entries (positions plus gaps).
    pub entries: u64,
    /// How the slice's positions end and how their values came out.
    pub counts: Counts,
    /// Wall time of the build, seconds (as recorded in the file).
    pub seconds: Option<f64>,
    /// Peak resident memory of the building process when the slice was done, bytes.
    pub peak_memory: Option<u64>,
    /// Whether this run built the slice (false: loaded from its file).
    pub built: bool,
    /// Verification of this run, if asked for.
    pub verified: Option<bool>,
}

/// The outcome of a verification pass.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Verification {
    /// Positions recomputed.
    pub checked: u64,
    /// Positions whose stored value differs from the recomputed one.
    pub mismatches: u64,
    /// The first few mismatches: position, stored value, recomputed value.
    pub examples: Vec<String>,
}

impl Verification {
    /// Whether every position matched.
    pub fn ok(&self) -> bool {
        self.mismatches == 0
    }
}

/// Which slices a build recomputes from their successors once they are in memory.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum VerifyScope {
    /// None: the values are trusted as built or as read (their files are checksummed).
    #[default]
    None,
    /// Only the slices this run builds; those read from existing files were verified (or
    /// not) by the run that built them.
    Built,
    /// Every slice, built or read.
    All,
}

impl VerifyScope {
    /// Whether a slice this run built (`built`) or read from its file is recomputed.
    pub fn covers(self, built: bool) -> bool {
        match self {
            VerifyScope::None => false,
            VerifyScope::Built => built,
            VerifyScope::All => true,
        }
    }
}

/// Options of a tablebase build ([`crate::build_tables`], [`crate::build_slices`]).
pub struct BuildOptions<'a> {
    /// Which slices to recompute from their successors after building or loading them.
    pub verify: VerifyScope,
    /// Bytes this run may use at most (the tighter of this and the system's limits counts).
    pub memory_limit: Option<u64>,
    /// Where the phases' progress and the notices go ([`crate::Silent`] for nowhere).
    pub progress: &'a dyn crate::Progress,
}

/// Prints every option but where progress goes (a [`crate::Progress`] cannot be printed).
impl std::fmt::Debug for BuildOptions<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BuildOptions")
            .field("verify", &self.verify)
            .field("memory_limit", &self.memory_limit)
            .finish_non_exhaustive()
    }
}

/// No verification, the system's memory limit, no progress shown.
impl Default for BuildOptions<'static> {
    fn default() -> Self {
        BuildOptions {
            verify: VerifyScope::None,
            memory_limit: None,
            progress: &crate::Silent,
        }
    }
}
