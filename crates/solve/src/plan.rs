//! A tablebase as a graph of independent jobs, one per material slice, so that a cluster
//! scheduler (Slurm, or `make` on one machine) can build it on many machines at once.
//!
//! Which slices a job reads is the solver's to say ([`SliceSolver::needs`]): the compact
//! solver values a shell position of a smaller slice through its own captures, so it reads
//! every slice a chain of captures leads into ([`ancestors`](crate::ancestors), each as the material that
//! stores it); a solver that looks a capture up in the slice it leads into (the retro solver
//! of the test tooling) reads only [`parents`](crate::parents). [`graph`] builds the plan from that one
//! answer, and the job ([`run_job`]) reads exactly those files. A job of slice `m`:
//! 1. does nothing if `m`'s own file is there and valid (a damaged one is reported and built
//!    again, replacing it);
//! 2. refuses, naming them, if a parent's file is missing, and names the parent and the
//!    reason if one is damaged; it writes nothing then;
//! 3. refuses up front a slice that would not fit the memory limit;
//! 4. loads its parents, builds `m` with the solver's own per-slice code and writes its file
//!    atomically (a temporary file beside it, renamed over it: `crates/system/src/files.rs`).
//!
//! So jobs whose files share one folder may run on different machines in any order the
//! graph allows, and a job run twice, or killed and run again, ends with the same file.
//! [`Compact`] is the compact solver of `crates/solve/src/on_disk.rs` (the files `ordo tb build`
//! writes); the test tooling runs the retro solver through the same trait.

use std::marker::PhantomData;
use std::path::{Path, PathBuf};

use super::compact::{self, CompactTables};
use super::on_disk::{self, CompactSliceReport};
use super::{memory, Material, Progress, SliceReport, SolveError};
use crate::rules::{Dims, Engine, Variant};

/// One job of the graph: a slice and the slices it reads.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Job {
    /// The material of the slice this job builds.
    pub material: Material,
    /// The slices it reads (reached by a capture), which must be built before it.
    pub parents: Vec<Material>,
}

/// The job of every slice `solver` stores up to `max` ([`SliceSolver::materials`]), fewer
/// pieces first, each with the slices it reads ([`SliceSolver::needs`]): every job comes
/// after its parents. The one source of the job graph for every solver.
pub fn graph(solver: &dyn SliceSolver, max: Material) -> Vec<Job> {
    solver
        .materials(max)
        .into_iter()
        .map(|material| Job {
            material,
            parents: solver.needs(material),
        })
        .collect()
}

/// How a job reads and builds slices: the files and the per-slice code of one solver. The
/// job's steps ([`run_job`]) are the same whatever the solver.
pub trait SliceSolver {
    /// The solver's name (`compact`), as its jobs' logs say it.
    fn name(&self) -> &'static str;
    /// The game and board of the set.
    fn game(&self) -> (Variant, Dims);
    /// The slices of a set up to `max`, one job each, fewer pieces first.
    fn materials(&self, max: Material) -> Vec<Material>;
    /// The file of slice `m` under `dir`.
    fn path(&self, dir: &Path, m: Material) -> PathBuf;
    /// The slices whose files building `m` reads: [`parents`](crate::parents), or [`ancestors`](crate::ancestors) for a
    /// solver that follows captures further.
    fn needs(&self, m: Material) -> Vec<Material>;
    /// Bytes building `m` takes at its peak, the slices it reads included.
    fn estimate(&self, m: Material) -> Result<u64, SolveError>;
    /// Load slice `m` from its file, refusing a file that is damaged or not that slice.
    fn load(&mut self, dir: &Path, m: Material) -> Result<SliceReport, SolveError>;
    /// Build `m` from the slices loaded and write its file atomically.
    fn build(
        &mut self,
        dir: &Path,
        m: Material,
        progress: &dyn Progress,
    ) -> Result<SliceReport, SolveError>;
}

/// Why a job did not end with its slice's file.
#[derive(Debug, thiserror::Error)]
pub enum JobError {
    /// Parents not built yet (their jobs have not run, or ran elsewhere).
    #[error("slice {slice} of {variant} {dims} reads {} first: missing in {dir}: {}", list(.needs), first_of(.missing.clone(), "file"))]
    MissingParents {
        /// The slice the job builds.
        slice: Material,
        /// The rules of the tables.
        variant: Variant,
        /// The board of the tables.
        dims: Dims,
        /// The table folder the parents were looked for in.
        dir: String,
        /// Every slice the job reads.
        needs: Vec<Material>,
        /// The missing files' names.
        missing: Vec<String>,
    },
    /// A parent's file is refused.
    #[error("slice {slice} reads slice {parent}, whose file is refused: {source}")]
    DamagedParent {
        /// The slice the job builds.
        slice: Material,
        /// The parent whose file was refused.
        parent: Material,
        /// Why it was refused.
        source: SolveError,
    },
    /// Building the slice itself failed (memory, a file, a stop).
    #[error(transparent)]
    Solve(#[from] SolveError),
}

fn list(ms: &[Material]) -> String {
    first_of(ms.iter().map(|m| m.to_string()).collect(), "slice")
}

/// The first [`LISTED`] of `items` joined by commas, then how many more and how many in all: a
/// message stays one readable line however many slices a job reads.
fn first_of(items: Vec<String>, noun: &str) -> String {
    if items.len() <= LISTED {
        return items.join(", ");
    }
    format!(
        "{}, and {} more ({} in all)",
        items[..LISTED].join(", "),
        items.len() - LISTED,
        ordo_core::text::count(items.len(), noun)
    )
}

/// How many slices or files a message names before it gives the count of the rest.
const LISTED: usize = 8;

/// Run the job of slice `m` in `dir` (see the module documentation): the slice's report,
/// `built` false if its valid file was already there. `memory_limit` as in
/// [`memory::effective`].
pub fn run_job(
    solver: &mut dyn SliceSolver,
    dir: &Path,
    m: Material,
    memory_limit: Option<u64>,
    progress: &dyn Progress,
) -> Result<SliceReport, JobError> {
    if let Some(done) = existing(solver, dir, m, progress)? {
        return Ok(done);
    }
    let needs = solver.needs(m);
    let missing: Vec<String> = needs
        .iter()
        .map(|&p| solver.path(dir, p))
        .filter(|f| !f.exists())
        .map(|f| f.file_name().unwrap_or_default().to_string_lossy().into())
        .collect();
    let (variant, dims) = solver.game();
    if !missing.is_empty() {
        return Err(JobError::MissingParents {
            slice: m,
            variant,
            dims,
            dir: dir.display().to_string(),
            needs,
            missing,
        });
    }
    let what = format!("slice {m} of {variant} {dims}");
    let limit = memory::effective(memory_limit);
    memory::check(&what, solver.estimate(m)?, limit.as_ref())?;
    for &parent in &needs {
        let r = solver
            .load(dir, parent)
            .map_err(|source| JobError::DamagedParent {
                slice: m,
                parent,
                source,
            })?;
        progress.note(&format!(
            "read slice {parent} ({} positions)",
            r.counts.positions
        ));
    }
    // The folder is made only now, every check passed, so a refused job leaves none behind.
    std::fs::create_dir_all(dir).map_err(|e| SolveError::io(dir, e))?;
    Ok(solver.build(dir, m, progress)?)
}

/// The report of `m`'s own file if it is there and valid; `None` if it is to be built
/// (absent, or damaged: reported through `progress`).
fn existing(
    solver: &mut dyn SliceSolver,
    dir: &Path,
    m: Material,
    progress: &dyn Progress,
) -> Result<Option<SliceReport>, SolveError> {
    let path = solver.path(dir, m);
    if !path.exists() {
        return Ok(None);
    }
    match solver.load(dir, m) {
        Ok(r) => Ok(Some(r)),
        Err(e @ SolveError::File { .. }) => {
            progress.note(&format!("{e}; building slice {m} again"));
            Ok(None)
        }
        // Another table under that name, or one too large to load: left alone.
        Err(e) => Err(e),
    }
}

/// The compact solver of `crates/solve/src/on_disk.rs` (a byte a core position, shell positions valued
/// through their captures) as a [`SliceSolver`], generating moves with engine `E`. Its jobs
/// are the stored materials only: a material with fewer White than Black pieces is its
/// colour twin's file ([`crate::compact::stored_material`]).
pub struct Compact<E> {
    tables: CompactTables,
    /// Tables that only size slices ([`SliceSolver::estimate`]), kept between calls so that
    /// each slice is measured once.
    sizer: std::sync::Mutex<CompactTables>,
    engine: PhantomData<fn() -> E>,
}

/// Prints the board and rules and the slices held (not their tables).
impl<E> std::fmt::Debug for Compact<E> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Compact")
            .field("tables", &self.tables)
            .finish_non_exhaustive()
    }
}

impl<E: Engine> Compact<E> {
    /// A solver of the slices of `variant` on `dims`, holding none yet.
    pub fn new(dims: Dims, variant: Variant) -> Self {
        Compact {
            tables: CompactTables::new(dims, variant),
            sizer: std::sync::Mutex::new(CompactTables::new(dims, variant)),
            engine: PhantomData,
        }
    }

    /// The slices loaded or built so far.
    pub fn tables(&self) -> &CompactTables {
        &self.tables
    }
}

/// A compact slice's report in the shape every job reports.
fn job_report(r: CompactSliceReport) -> SliceReport {
    let st = r.stats;
    SliceReport {
        variant: r.variant,
        board: r.board,
        material: st.material,
        entries: st.entries,
        counts: super::Counts {
            positions: st.positions,
            wins: st.wins,
            losses: st.losses,
            draws: st.draws,
            longest: st.longest,
            ..Default::default()
        },
        seconds: r.seconds,
        peak_memory: r.peak_memory,
        built: r.built,
        verified: r.verified,
    }
}

impl<E: Engine> SliceSolver for Compact<E> {
    fn name(&self) -> &'static str {
        "compact"
    }
    fn materials(&self, max: Material) -> Vec<Material> {
        crate::compact::stored_up_to(max)
    }
    fn path(&self, dir: &Path, m: Material) -> PathBuf {
        on_disk::path(dir, self.tables.variant, self.tables.dims, m)
    }
    fn game(&self) -> (Variant, Dims) {
        (self.tables.variant, self.tables.dims)
    }
    fn needs(&self, m: Material) -> Vec<Material> {
        compact::needs(self.tables.variant, m)
    }
    fn estimate(&self, m: Material) -> Result<u64, SolveError> {
        let mut sizer = self.sizer.lock().unwrap_or_else(|e| e.into_inner());
        on_disk::job_estimate(&mut sizer, m)
    }
    fn load(&mut self, dir: &Path, m: Material) -> Result<SliceReport, SolveError> {
        let file = self.path(dir, m);
        on_disk::load_slice(&mut self.tables, &file, m).map(job_report)
    }
    fn build(
        &mut self,
        dir: &Path,
        m: Material,
        progress: &dyn Progress,
    ) -> Result<SliceReport, SolveError> {
        let file = self.path(dir, m);
        on_disk::build_slice::<E>(&mut self.tables, &file, m, progress).map(job_report)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A job of a large slice reads a hundred others: its message names the first eight and
    /// counts the rest, so the line stays short.
    #[test]
    fn a_long_list_of_slices_is_cut_with_its_count() {
        let few: Vec<String> = (1..=3).map(|i| format!("{i}v1")).collect();
        assert_eq!(first_of(few, "slice"), "1v1, 2v1, 3v1");
        let many: Vec<String> = (1..=120).map(|i| format!("{i}v1")).collect();
        let text = first_of(many, "slice");
        assert!(text.starts_with("1v1, 2v1,"), "{text}");
        assert!(
            text.ends_with("8v1, and 112 more (120 slices in all)"),
            "{text}"
        );
    }
}
