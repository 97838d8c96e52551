//! `ordo tb job` and `ordo tb plan`: one slice as an independent job, and the job graph of a
//! table set for a cluster scheduler (crates/solve/src/plan.rs).

use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use super::solve::{parse_bytes, parse_material, solve_error, SetupArg};
use super::{CliError, EngineArg, VariantArg};
use crate::bitboard::Bitboard;
use crate::reference::Reference;
use crate::rules::{Color, Dims, Variant};
use crate::solve::CompactTables;
use crate::solve::{plies, Material, Phase, Progress, Setup, SliceReport};
use crate::solve::{CompactSliceSolver, JobError, SliceSolver};

/// The compact solver of `ordo tb build` on `engine`, as a job runs it.
fn job_solver(engine: EngineArg, dims: Dims, variant: Variant) -> Box<dyn SliceSolver + Send> {
    match engine {
        EngineArg::Bitboard => Box::new(CompactSliceSolver::<Bitboard>::new(dims, variant)),
        EngineArg::Reference => Box::new(CompactSliceSolver::<Reference>::new(dims, variant)),
    }
}

/// Arguments of `ordo tb job`.
#[derive(clap::Args, Debug)]
pub struct JobArgs {
    /// Game: classic or x.
    #[arg(long, value_enum, default_value = "classic")]
    pub variant: VariantArg,
    /// Board, COLSxROWS.
    #[arg(long, default_value = "10x8")]
    pub board: String,
    /// The slice to build: WHITE,BLACK pieces.
    #[arg(long)]
    pub material: String,
    /// Folder of the slice files: the parents' are read from it, the slice's written to it.
    #[arg(long, default_value = "tables")]
    pub dir: PathBuf,
    /// Engine that generates the moves.
    #[arg(long, value_enum, default_value = "bitboard")]
    pub engine: EngineArg,
    /// Refuse up front a slice that would need more memory than this (K, M, G, T suffixes).
    #[arg(long, value_name = "BYTES")]
    pub memory_limit: Option<String>,
    /// Worker threads, 1 to 256 (default: $SLURM_CPUS_PER_TASK where Slurm sets it, else all
    /// cores).
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=256))]
    pub threads: Option<u16>,
    /// Print the slice's report as JSON.
    #[arg(long)]
    pub json: bool,
}

/// Output of `ordo tb plan`.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlanFormat {
    /// A bash script of `sbatch --dependency=afterok:…` submissions.
    Slurm,
    /// A makefile whose targets are the files (`make -j N -f FILE`).
    Make,
    /// The graph as JSON, for any other scheduler.
    Json,
}

/// Arguments of `ordo tb plan`.
#[derive(clap::Args, Debug)]
pub struct PlanArgs {
    /// Game: classic or x.
    #[arg(long, value_enum, default_value = "classic")]
    pub variant: VariantArg,
    /// Board, COLSxROWS.
    #[arg(long, default_value = "10x8")]
    pub board: String,
    /// Largest material, WHITE,BLACK: every slice with 1..=WHITE White and 1..=BLACK Black
    /// pieces.
    #[arg(long, required_unless_present = "setup", conflicts_with = "setup")]
    pub max_pieces: Option<String>,
    /// Solve a small board's game instead: every slice up to the start's material, then a
    /// job that writes the game file and reports the start (in
    /// DIR/game-VARIANT-BOARD-SETUP.txt).
    #[arg(long, value_enum)]
    pub setup: Option<SetupArg>,
    /// Folder of the slice files, as every node sees it (made absolute).
    #[arg(long, default_value = "tables")]
    pub dir: PathBuf,
    /// What to print.
    #[arg(long, value_enum, default_value = "slurm")]
    pub format: PlanFormat,
    /// The ordo binary the jobs run, as every node sees it (default: this one).
    #[arg(long)]
    pub ordo: Option<PathBuf>,
    /// Rank pairs of a slice counted exactly; a larger slice is sized from a sample of
    /// about as many (2^36 by default: under a CPU minute a slice). From 1,024 to 2^50.
    #[arg(long, value_name = "PAIRS", default_value_t = PLAN_PAIRS,
          value_parser = clap::value_parser!(u64).range(1024..=1 << 50))]
    pub sample_pairs: u64,
}

fn parse_flag_material(flag: &str, s: &str) -> Result<Material, CliError> {
    parse_material(s).map_err(|CliError(msg)| CliError(msg.replacen("--max-pieces", flag, 1)))
}

fn parse_board(s: &str) -> Result<Dims, CliError> {
    s.parse().map_err(|e| CliError(format!("--board: {e}")))
}

fn job_error(e: JobError) -> CliError {
    match e {
        JobError::Solve(e) => solve_error(e),
        e @ JobError::MissingParents { .. } => {
            CliError(format!("{e} (their jobs come first: ordo tb plan)"))
        }
        e => CliError(e.to_string()),
    }
}

/// Run `ordo tb job`.
pub fn job(a: &JobArgs, out: &mut String) -> Result<u8, CliError> {
    let dims = parse_board(&a.board)?;
    let variant = Variant::from(a.variant);
    let m = parse_flag_material("--material", &a.material)?;
    let memory_limit = a.memory_limit.as_deref().map(parse_bytes).transpose()?;
    // The folder is made by the build itself, once every check has passed: a refused job
    // leaves nothing behind.
    let pool = job_pool(a.threads)?;
    let mut log = Lines::new(format!("{variant} {dims} {m}"), Duration::from_secs(10));
    // The build stops at a layer group boundary and keeps its checkpoint.
    log.stop = Some(super::interrupt::catch()?);
    log.note(&format!(
        "starting in {} ({})",
        a.dir.display(),
        crate::text::count(pool.current_num_threads(), "thread")
    ));
    let clock = Instant::now();
    let mut solver = job_solver(a.engine, dims, variant);
    let result =
        pool.install(|| crate::solve::run_job(&mut *solver, &a.dir, m, memory_limit, &log));
    let r = match result {
        Ok(r) => r,
        Err(JobError::Solve(e)) => {
            let typed = a.memory_limit.as_deref();
            let limit = |e| super::solve::limit_error(e, typed);
            return super::interrupt::stopped(e, "the same job", limit, |t| eprintln!("{t}"));
        }
        Err(e) => return Err(job_error(e)),
    };
    log.finish(&r, clock.elapsed());
    if a.json {
        let _ = writeln!(out, "{}", serde_json::to_string(&r)?);
    } else {
        let c = &r.counts;
        let status = if r.built { "built" } else { "already built" };
        let what = format!("{} {} {}", r.variant, r.board, r.material);
        let _ = writeln!(
            out,
            "{what}: {status}: {}: {} won, {} lost, {} drawn, longest {}",
            crate::text::count(c.positions, "position"),
            c.wins,
            c.losses,
            c.draws,
            plies(c.longest)
        );
    }
    Ok(0)
}

/// The job's worker threads: `--threads`, else the CPUs Slurm gave the job
/// (`$SLURM_CPUS_PER_TASK`, which must then be a count from 1), else all cores.
fn job_pool(threads: Option<u16>) -> Result<rayon::ThreadPool, CliError> {
    let threads = match (threads, std::env::var("SLURM_CPUS_PER_TASK")) {
        (Some(n), _) => Some(usize::from(n)),
        (None, Ok(s)) => match s.trim().parse::<usize>() {
            Ok(n) if n >= 1 => Some(n),
            _ => {
                return Err(CliError(format!(
                "SLURM_CPUS_PER_TASK is {s:?}: expected a thread count from 1 (or pass --threads)"
            )))
            }
        },
        (None, Err(_)) => None,
    };
    let mut b = rayon::ThreadPoolBuilder::new();
    if let Some(n) = threads {
        b = b.num_threads(n);
    }
    Ok(b.build()?)
}

/// A [`Progress`] for batch jobs: plain lines on stderr (a log file under a scheduler), one
/// when a phase starts and one every `every` with the count, rate and time left.
struct Lines {
    what: String,
    every: Duration,
    state: Mutex<(String, Instant, Instant)>,
    /// Ctrl-C (or, under a scheduler, its stop signal) asks the job to stop.
    stop: Option<&'static AtomicBool>,
}

impl Lines {
    fn new(what: String, every: Duration) -> Lines {
        let now = Instant::now();
        Lines {
            what,
            every,
            state: Mutex::new((String::new(), now, now)),
            stop: None,
        }
    }

    fn line(&self, text: &str) {
        let _ = writeln!(std::io::stderr(), "ordo tb job: {}: {text}", self.what);
    }

    /// The closing line: what was done, how many positions, how fast.
    fn finish(&self, r: &SliceReport, took: Duration) {
        let secs = took.as_secs_f64().max(1e-3);
        if r.built {
            self.line(&format!(
                "built {} ({}) in {secs:.1} s, {:.0} entries a second",
                crate::text::count(r.counts.positions, "position"),
                crate::text::count(r.entries, "index entry"),
                r.entries as f64 / secs
            ));
        } else {
            self.line(&format!(
                "already built and valid ({}); nothing to do",
                crate::text::count(r.counts.positions, "position")
            ));
        }
    }
}

impl Progress for Lines {
    fn update(&self, phase: Phase, done: u64, total: Option<u64>) {
        let mut s = self.state.lock().unwrap_or_else(|p| p.into_inner());
        let now = Instant::now();
        let (name, unit) = (phase.name, phase.unit);
        if s.0 != name {
            *s = (name.to_string(), now, now);
            drop(s);
            let of = total
                .map(|t| format!(" ({} {unit} to do)", super::bar::grouped(t)))
                .unwrap_or_default();
            self.line(&format!("{name}{of}"));
            return;
        }
        if now.duration_since(s.2) < self.every {
            return;
        }
        s.2 = now;
        let rate = done as f64 / now.duration_since(s.1).as_secs_f64().max(1e-3);
        drop(s);
        let rest = match total {
            Some(t) => format!(
                " of {} {unit} ({rate:.0} a second, about {} left)",
                super::bar::grouped(t),
                super::bar::span(t.saturating_sub(done) as f64 / rate.max(1.0))
            ),
            None => format!(" {unit} ({rate:.0} a second)"),
        };
        self.line(&format!("{name}: {}{rest}", super::bar::grouped(done)));
    }

    fn note(&self, text: &str) {
        self.line(text);
    }

    fn stop_requested(&self) -> bool {
        self.stop.is_some_and(|f| f.load(Ordering::Relaxed))
    }
}

/// The rank pairs a plan counts of one slice: past them it samples about as many (under a
/// CPU minute a slice). Ordo X row2 5 x 5's five largest slices are sampled, its total within
/// 0.08 % of the count; classic row2 6 x 5's 24 largest, the whole plan in 5 CPU minutes.
const PLAN_PAIRS: u64 = 1 << 36;

/// One job of a plan, as the schedulers are told it.
#[derive(serde::Serialize)]
struct Planned {
    /// `3v2`, or `game`.
    name: String,
    /// Names of the jobs it waits for.
    parents: Vec<String>,
    /// The file it leaves behind.
    output: PathBuf,
    /// Whether that file is the command's standard output (the game's verdict); otherwise
    /// the command writes it itself.
    stdout_to_output: bool,
    /// Memory it needs at its peak, bytes.
    memory_bytes: u64,
    /// What its file stores, a byte each: the slice's core positions up to symmetry (the
    /// game's job: every slice's).
    stored_bytes: u64,
    /// `counted`, or `sampled` where the slice has too many rank pairs to count for a plan
    /// (then `standard_error` is one standard error of `stored_bytes`).
    sized: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    standard_error: Option<u64>,
    /// Why this version cannot build it, if it cannot (its index would pass a bound).
    #[serde(skip_serializing_if = "Option::is_none")]
    beyond: Option<String>,
    command: Vec<String>,
}

/// Run `ordo tb plan`.
pub fn plan(a: &PlanArgs, out: &mut String) -> Result<u8, CliError> {
    let dims = parse_board(&a.board)?;
    let variant = Variant::from(a.variant);
    let dir = std::path::absolute(&a.dir)
        .map_err(|e| CliError(format!("--dir {}: {e}", a.dir.display())))?;
    let ordo = match &a.ordo {
        Some(p) => std::path::absolute(p),
        None => std::env::current_exe(),
    }
    .map_err(|e| CliError(format!("--ordo: {e}")))?;
    let (max, game) = selection(a, dims, variant)?;
    // A game's slices go where `ordo solve` keeps them until it writes the game file.
    let table = game.as_ref().map(|(setup, _)| {
        dir.join(format!(
            "ctb-{}-{dims}-{}.ordotb",
            variant.name(),
            setup.name()
        ))
    });
    let ctx = Context {
        dims,
        variant,
        dir,
        ordo: ordo.display().to_string(),
        table,
    };
    let job_dir = ctx
        .table
        .as_deref()
        .map_or(ctx.dir.clone(), crate::solve::partial_dir);
    // One sizer for every job: each slice is measured once (a minute for Ordo X row2 5 x 5,
    // shown on a terminal as rank pairs visited, with a rate and the time left).
    let mut sizer = CompactTables::plan_only(dims, variant, a.sample_pairs);
    let bar = super::bar::Bar::new();
    let jobs = slice_jobs(&ctx, max, &job_dir, &mut sizer, &bar);
    bar.finish();
    let mut jobs = jobs?;
    if let (Some((setup, _)), Some(table)) = (&game, &ctx.table) {
        jobs.push(game_job(&ctx, max, *setup, table, &mut sizer)?);
    }
    let what = match &game {
        Some((setup, _)) => format!("the {variant} {dims} {} game", setup.name()),
        None => format!("the {variant} {dims} tablebase up to {max}"),
    };
    print_plan(a.format, &ctx, &what, &jobs, out)?;
    Ok(0)
}

/// Print the plan `jobs` of `what` in `format`: for a scheduler only if every job can run.
fn print_plan(
    format: PlanFormat,
    ctx: &Context,
    what: &str,
    jobs: &[Planned],
    out: &mut String,
) -> Result<(), CliError> {
    if format != PlanFormat::Json {
        if let Some((j, why)) = jobs.iter().find_map(|j| Some(j).zip(j.beyond.as_ref())) {
            return Err(CliError(format!(
                "{what}: job {} cannot be built by this version: {why}; `--format json` gives the whole graph with every slice's size",
                j.name
            )));
        }
    }
    match format {
        PlanFormat::Slurm => slurm_script(ctx, what, jobs, out),
        PlanFormat::Make => makefile(ctx, what, jobs, out)?,
        PlanFormat::Json => {
            let slices = jobs.iter().filter(|j| !j.stdout_to_output);
            let v = serde_json::json!({
                "variant": ctx.variant.name(),
                "board": ctx.dims.to_string(),
                "dir": ctx.dir,
                "solver": "compact",
                "stored_bytes": slices.map(|j| j.stored_bytes).sum::<u64>(),
                "jobs_beyond": jobs.iter().filter(|j| j.beyond.is_some()).count(),
                "jobs": jobs,
            });
            let _ = writeln!(out, "{}", serde_json::to_string_pretty(&v)?);
        }
    }
    Ok(())
}

/// The material bound of a plan, and the game's setup and start if it plans a game.
fn selection(
    a: &PlanArgs,
    dims: Dims,
    variant: Variant,
) -> Result<(Material, Option<(Setup, crate::rules::Position)>), CliError> {
    match (&a.max_pieces, a.setup) {
        (Some(s), _) => Ok((parse_flag_material("--max-pieces", s)?, None)),
        (None, Some(setup)) => {
            let setup = Setup::from(setup);
            let start = setup.start(dims, variant).map_err(solve_error)?;
            let m = Material {
                white: start.count(Color::White) as u32,
                black: start.count(Color::Black) as u32,
            };
            Ok((m, Some((setup, start))))
        }
        (None, None) => Err(CliError("give --max-pieces or --setup".into())),
    }
}

/// What every job of a plan shares.
struct Context {
    dims: Dims,
    variant: Variant,
    dir: PathBuf,
    ordo: String,
    /// The game file a game's plan ends with (its slices are in `TABLE.partial/`).
    table: Option<PathBuf>,
}

/// The job of every slice up to `max`, from the library's graph, its files in `dir`.
fn slice_jobs(
    ctx: &Context,
    max: Material,
    dir: &Path,
    sizer: &mut CompactTables,
    progress: &dyn Progress,
) -> Result<Vec<Planned>, CliError> {
    let solver = job_solver(EngineArg::Bitboard, ctx.dims, ctx.variant);
    let graph = crate::solve::job_graph(&*solver, max);
    let sizing = Phase {
        name: "sizing the slices",
        unit: "rank pairs",
    };
    let mut pairs = Vec::new();
    for j in &graph {
        pairs.push(sizer.pairs_to_size(j.material).map_err(solve_error)?);
    }
    let (total, mut done) = (pairs.iter().sum::<u64>(), 0);
    let mut jobs = Vec::new();
    for (j, p) in graph.iter().zip(pairs) {
        progress.update(sizing, done, Some(total));
        done += p;
        let m = j.material;
        let command = [
            &ctx.ordo,
            "tb",
            "job",
            "--variant",
            ctx.variant.name(),
            "--board",
            &ctx.dims.to_string(),
            "--material",
            &format!("{},{}", m.white, m.black),
            "--dir",
            &dir.display().to_string(),
        ];
        let size = sizer.core_size(m).map_err(solve_error)?;
        jobs.push(Planned {
            name: m.to_string(),
            parents: j.parents.iter().map(|p| p.to_string()).collect(),
            output: solver.path(dir, m),
            stdout_to_output: false,
            memory_bytes: crate::solve::job_estimate(sizer, m).map_err(solve_error)?,
            stored_bytes: size.entries,
            sized: if size.sampled.is_some() {
                "sampled"
            } else {
                "counted"
            },
            standard_error: size.sampled,
            beyond: sizer.buildable(m).err().map(|e| e.to_string()),
            command: command.iter().map(|s| s.to_string()).collect(),
        });
    }
    Ok(jobs)
}

/// The last job of a game's plan, once every slice is built: `ordo solve` writes the game
/// file `table` from the finished slices in its `.partial` folder; its report goes to
/// `DIR/game-VARIANT-BOARD-SETUP.txt`.
fn game_job(
    ctx: &Context,
    max: Material,
    setup: Setup,
    table: &Path,
    sizer: &mut CompactTables,
) -> Result<Planned, CliError> {
    let name = format!(
        "game-{}-{}-{}.txt",
        ctx.variant.name(),
        ctx.dims,
        setup.name()
    );
    let (command, memory_bytes) = solve_command(ctx, max, setup, table, sizer)?;
    let last = crate::solve::stored_material(max);
    let (mut stored_bytes, mut var, mut beyond) = (0u64, None, None);
    for m in crate::solve::stored_up_to(max) {
        let size = sizer.core_size(m).map_err(solve_error)?;
        stored_bytes += size.entries;
        if let Some(e) = size.sampled {
            var = Some(var.unwrap_or(0.0) + (e as f64).powi(2));
        }
        beyond = beyond.or(sizer.buildable(m).err().map(|e| e.to_string()));
    }
    let sampled = var.map(|v: f64| v.sqrt().round() as u64);
    Ok(Planned {
        name: "game".into(),
        parents: vec![last.to_string()],
        output: ctx.dir.join(name),
        stdout_to_output: true,
        memory_bytes,
        stored_bytes,
        sized: if sampled.is_some() {
            "sampled"
        } else {
            "counted"
        },
        standard_error: sampled,
        beyond,
        command: std::iter::once(ctx.ordo.clone()).chain(command).collect(),
    })
}

/// `ordo solve` writing the game file `table` from its finished slices, and its memory: every
/// slice's values and index, besides the program.
fn solve_command(
    ctx: &Context,
    max: Material,
    setup: Setup,
    table: &Path,
    sizer: &mut CompactTables,
) -> Result<(Vec<String>, u64), CliError> {
    let (dims, table) = (ctx.dims.to_string(), table.display().to_string());
    let command = [
        "solve",
        "--variant",
        ctx.variant.name(),
        "--board",
        &dims,
        "--setup",
        setup.name(),
        "--table",
        &table,
    ];
    let all = crate::solve::stored_up_to(max);
    let bytes = crate::solve::estimate_bytes(sizer, &all).map_err(solve_error)?;
    Ok((
        command.map(String::from).to_vec(),
        bytes + crate::solve::PROGRAM_BYTES,
    ))
}

/// `s` as one shell word: as it is when it has nothing the shell would read, else quoted.
fn sh(s: &str) -> String {
    let plain = |c: char| c.is_ascii_alphanumeric() || "_-./:,=+@%".contains(c);
    if !s.is_empty() && s.chars().all(plain) {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', r"'\''"))
    }
}

fn shell_command(words: &[String]) -> String {
    words.iter().map(|w| sh(w)).collect::<Vec<_>>().join(" ")
}

/// Megabytes (MiB) for `--mem`, rounded up.
fn mebibytes(bytes: u64) -> u64 {
    bytes.div_ceil(1 << 20)
}

const STORAGE: &str =
    "# Storage: every node must see the folder at the same path (a shared file system such as\n\
    # NFS or Lustre), and the ordo binary too; each job reads its parents' files from it and\n\
    # writes its own there atomically (a temporary file in the same folder, renamed). See\n\
    # README.md, \"Building tables on a cluster\".\n";

fn slurm_script(ctx: &Context, what: &str, jobs: &[Planned], out: &mut String) {
    let logs = ctx.dir.join("logs").display().to_string();
    let _ = write!(
        out,
        "#!/usr/bin/env bash\n\
         # Generated by `ordo tb plan`: {what} as {} Slurm jobs, each submitted\n\
         # after the jobs whose files it reads (--dependency=afterok). Run it where sbatch works:\n\
         #   bash THIS-FILE            (prints each job's name and Slurm job id)\n\
         # More sbatch options for every job: SBATCH_ARGS='--partition=long --time=8:00:00' bash THIS-FILE\n\
         # (sbatch reads SBATCH_PARTITION, SBATCH_ACCOUNT, SBATCH_TIMELIMIT and its other variables too).\n\
         # A job whose file is already there and valid does nothing, so the script can run again.\n\
         {STORAGE}set -euo pipefail\nmkdir -p {}\n",
        jobs.len(),
        sh(&logs)
    );
    // The game's slices are gone once its file is written: submitting again would redo them.
    if let Some(t) = &ctx.table {
        let t = sh(&t.display().to_string());
        let _ = writeln!(
            out,
            "if [ -e {t} ] && [ ! -e {t}.partial ]; then echo \"{t} is solved: nothing to submit (delete it to solve again)\" >&2; exit 0; fi"
        );
    }
    for j in jobs {
        let var = format!("j_{}", j.name.replace('-', "_"));
        let deps = if j.parents.is_empty() {
            String::new()
        } else {
            let ids: Vec<String> = j
                .parents
                .iter()
                .map(|p| format!("${{j_{}}}", p.replace('-', "_")))
                .collect();
            format!(" --dependency=afterok:{}", ids.join(":"))
        };
        let (output, error) = if j.stdout_to_output {
            (
                j.output.display().to_string(),
                format!("{logs}/{}-%j.err", j.name),
            )
        } else {
            let log = format!("{logs}/tb-{}-%j.out", j.name);
            (log.clone(), log)
        };
        let _ = writeln!(
            out,
            "{var}=$(sbatch --parsable ${{SBATCH_ARGS:-}} --job-name=ordo-tb-{}{deps} --mem={}M --output={} --error={} --wrap={})\n\
             {var}=${{{var}%%;*}}; echo \"{} ${var}\"",
            j.name,
            mebibytes(j.memory_bytes),
            sh(&output),
            sh(&error),
            sh(&shell_command(&j.command)),
            j.name,
        );
    }
}

fn makefile(ctx: &Context, what: &str, jobs: &[Planned], out: &mut String) -> Result<(), CliError> {
    let bad = |c: char| c.is_whitespace() || "$:#%\\'\"*?[]".contains(c);
    if ctx.dir.display().to_string().chars().any(bad) {
        return Err(CliError(format!(
            "--format make: the folder '{}' has a character make cannot take in a file name; use --format slurm or json",
            ctx.dir.display()
        )));
    }
    let file = |name: &str| {
        jobs.iter()
            .find(|j| j.name == name)
            .map(|j| j.output.display().to_string())
            .unwrap_or_default()
    };
    let all: Vec<String> = jobs
        .iter()
        .map(|j| j.output.display().to_string())
        .collect();
    // A compact game's slices are removed once its file is written: the goal is the game's
    // report alone, and the slices are secondary (missing, they are not built again while
    // the report is up to date).
    let (goals, secondary) = match &ctx.table {
        Some(_) => {
            let (slices, game) = all.split_at(all.len() - 1);
            (game, format!(".SECONDARY: {}\n", slices.join(" ")))
        }
        None => (&all[..], String::new()),
    };
    let _ = write!(
        out,
        "# Generated by `ordo tb plan`: {what} as make rules, one target a file.\n\
         # Run: make -j N -f THIS-FILE\n\
         {STORAGE}.PHONY: all\nall: {}\n{secondary}",
        goals.join(" ")
    );
    for j in jobs {
        let parents: Vec<String> = j.parents.iter().map(|p| file(p)).collect();
        let command = shell_command(&j.command).replace('$', "$$");
        let recipe = if j.stdout_to_output {
            format!("{command} > $@.tmp && mv $@.tmp $@")
        } else {
            command
        };
        let _ = write!(
            out,
            "\n{}:{}{}\n\t{recipe}\n",
            j.output.display(),
            if parents.is_empty() { "" } else { " " },
            parents.join(" ")
        );
    }
    Ok(())
}
