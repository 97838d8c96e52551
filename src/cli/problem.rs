//! `ordo problem verify|compose`: problems proved by the tables or by search
//! (crates/solve/src/problem.rs, spec/problems.md), from the compact solver's slice files.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::Duration;

use super::solve::{parse_material, solve_error, NAMES};
use super::{CliError, EngineArg, VariantArg};
use crate::bitboard::Bitboard;
use crate::reference::Reference;
use crate::rules::{Dims, Variant};
use crate::solve::SolveError;
use crate::solve::{Method, ProblemReport};

/// Arguments of `ordo problem`.
#[derive(clap::Args, Debug)]
pub struct ProblemArgs {
    #[command(subcommand)]
    pub what: ProblemCommand,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum MethodArg {
    /// The tables where they hold the material, search otherwise.
    Auto,
    /// Exact depth-limited search only.
    Search,
    /// Proof-number search bounded by the stipulation, a certificate per key.
    Prove,
}

#[derive(clap::Subcommand, Debug)]
pub enum ProblemCommand {
    /// Prove every problem of a file: each key wins within the stipulation, and with
    /// only_keys no other first move does (exit 1 if a claim fails).
    Verify {
        /// The problem file (TOML, spec/problems.md).
        file: PathBuf,
        /// Folder of endgame slice files to use where they hold the material (`--tables`, the
        /// older name, also works).
        #[arg(long = "dir", alias = "tables", default_value = "tables")]
        tables: PathBuf,
        /// How to prove: auto (the tables where they hold the material, else the exact
        /// search, and the proof search where that gives up; a table that is missing or
        /// refused is reported), search (the exact search only) or prove (the proof search
        /// only).
        #[arg(long, value_enum, default_value = "auto")]
        method: MethodArg,
        /// Folder to write a certificate into for each key a proof search proves
        /// (`ID.cert`; `ordo prove --check` judges it).
        #[arg(long, value_name = "DIR")]
        certificates: Option<PathBuf>,
        /// Memory for the proof search's transposition table: bytes, or with a suffix K, M,
        /// G, T (256M if not given).
        #[arg(long)]
        memory_limit: Option<String>,
        /// Engine that generates the moves.
        #[arg(long, value_enum, default_value = super::ENGINE_DEFAULT)]
        engine: EngineArg,
        /// Give up a search after this many positions (the tables prove any length; for the
        /// proof search, each bound of each first move).
        #[arg(long, default_value_t = crate::solve::DEFAULT_SEARCH_NODES)]
        max_nodes: u64,
        /// One JSON report per problem.
        #[arg(long)]
        json: bool,
        /// Prove only the problem with this id (repeat it for several).
        #[arg(long = "id", value_name = "ID")]
        ids: Vec<String>,
    },
    /// Compose problems from a built slice (one winning first move, longest wins first), or
    /// with --from-games from random games by proof search (any number of pieces).
    Compose {
        /// Game: classic or x.
        #[arg(long, value_enum, default_value = "classic")]
        variant: VariantArg,
        /// Board, COLSxROWS.
        #[arg(long, default_value = "10x8")]
        board: String,
        /// The slice, WHITE,BLACK (from a slice).
        #[arg(long, required_unless_present = "from_games")]
        material: Option<String>,
        /// Compose from random games from the board's standard start (two filled rows each)
        /// instead: positions where the side to move wins within --max-turns of its turns
        /// by exactly one first move, each claim settled by bounded proof searches.
        #[arg(long, conflicts_with = "material")]
        from_games: bool,
        /// The random games' seed (with --from-games).
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// The most random games to play (with --from-games).
        #[arg(long, default_value_t = 200)]
        games: usize,
        /// The longest stipulation, in the winner's turns (with --from-games).
        #[arg(long, default_value_t = 3)]
        max_turns: u16,
        /// The shortest stipulation, in the winner's turns (with --from-games; 2 leaves out
        /// problems whose key ends the game).
        #[arg(long, default_value_t = 2)]
        min_turns: u16,
        /// The most nodes of each bounded search (with --from-games).
        #[arg(long, default_value_t = crate::solve::DEFAULT_SEARCH_NODES)]
        max_nodes: u64,
        /// Folder of the slice files (the slice and every smaller one must be built).
        #[arg(long, default_value = "tables")]
        dir: PathBuf,
        /// How many problems.
        #[arg(long, default_value_t = 3)]
        count: usize,
    },
}

/// Run `ordo problem`.
pub fn run(args: &ProblemArgs, out: &mut String) -> Result<u8, CliError> {
    match &args.what {
        ProblemCommand::Verify {
            file,
            tables,
            method,
            engine,
            json,
            max_nodes,
            ids,
            certificates,
            memory_limit,
        } => {
            let how = How {
                tables: (*method == MethodArg::Auto).then_some(tables.as_path()),
                method: *method,
                engine: *engine,
                max_nodes: *max_nodes,
                certificates: certificates.as_deref(),
                table_bytes: super::solve::parse_bytes(memory_limit.as_deref().unwrap_or("256M"))?,
            };
            let chosen = Chosen { ids, json: *json };
            verify(file, &how, chosen, out)
        }
        ProblemCommand::Compose {
            variant,
            board,
            material,
            dir,
            count,
            from_games,
            seed,
            games,
            max_turns,
            min_turns,
            max_nodes,
        } => {
            let dims: Dims = board
                .parse()
                .map_err(|e| CliError(format!("--board: {e}")))?;
            let variant = Variant::from(*variant);
            if *from_games {
                let budget = (*count, *games, (*min_turns, *max_turns), *max_nodes);
                return compose_from_games(variant, dims, *seed, budget, out);
            }
            let m = parse_material(material.as_deref().unwrap_or_default())?;
            let tables = crate::solve::open_slices(dims, variant, m, dir).map_err(solve_error)?;
            let problems = crate::solve::compose_problems::<Bitboard>(&tables, m, *count)?;
            out.push_str(&crate::solve::write_problems(&problems)?);
            Ok(0)
        }
    }
}

/// `ordo problem compose --from-games`: problems from random games from the standard start.
fn compose_from_games(
    variant: Variant,
    dims: Dims,
    seed: u64,
    (count, games, (min_turns, max_turns), max_nodes): (usize, usize, (u16, u16), u64),
    out: &mut String,
) -> Result<u8, CliError> {
    if !(1..=20).contains(&max_turns) {
        return Err(CliError(format!("--max-turns {max_turns}: from 1 to 20")));
    }
    if !(1..=max_turns).contains(&min_turns) {
        return Err(CliError(format!(
            "--min-turns {min_turns}: from 1 to --max-turns ({max_turns})"
        )));
    }
    let start = crate::rules::setup::filled_rows(dims, 2, variant)
        .ok_or_else(|| CliError(format!("the standard start does not fit the {dims} board")))?;
    let how = crate::prove::Composing {
        max_turns,
        min_turns,
        search: crate::prove::Options {
            nodes: Some(max_nodes),
            ..Default::default()
        },
    };
    let stop = super::interrupt::catch()?;
    let clock = std::time::Instant::now();
    let terminal = std::io::IsTerminal::is_terminal(&std::io::stderr());
    let mut shown = clock;
    let mut progress = |played: usize, found: usize| {
        let every = Duration::from_millis(if terminal { 500 } else { 30_000 });
        if shown.elapsed() < every {
            return;
        }
        shown = std::time::Instant::now();
        let line = games_line(played, games, found, clock.elapsed());
        match terminal {
            true => eprint!("\r{line}"),
            false => eprintln!("{line}"),
        }
    };
    let problems =
        crate::prove::compose_from_games(&start, seed, (count, games), &how, stop, &mut progress)
            .map_err(|e| CliError(e.to_string()))?;
    if terminal && clock.elapsed() >= Duration::from_millis(500) {
        eprint!("\r\x1b[K");
    }
    out.push_str(&crate::solve::write_problems(&problems)?);
    if stop.load(std::sync::atomic::Ordering::Relaxed) {
        super::out::note_line(&format!(
            "interrupted: the {} found so far are written",
            crate::text::count(problems.len(), "problem")
        ));
        return Ok(super::interrupt::INTERRUPTED);
    }
    Ok(0)
}

/// The progress line of `compose --from-games`: games played, problems found, the rate and
/// the time the remaining games would take at most.
fn games_line(played: usize, games: usize, found: usize, elapsed: Duration) -> String {
    let rate = played as f64 / elapsed.as_secs_f64().max(1e-9);
    let left = (games - played) as f64 / rate.max(1e-9);
    format!(
        "game {played} of {games}, {} found, {:.2} games/s, at most {} left  ",
        crate::text::count(found, "problem"),
        rate,
        super::bar::span(left)
    )
}

/// `ordo problem verify`: prove every problem of `file` (with the tables in `tables`, if
/// given), each report as text or JSON; exit status 1 if a claim fails.
/// Which problems of the file `problem verify` proves (`--id`; none given: all), and how it
/// reports them.
struct Chosen<'a> {
    ids: &'a [String],
    json: bool,
}

/// The largest problem file read (the largest in analysis/ is under 16 KiB): a larger one is
/// refused before the TOML reader sees it.
const PROBLEM_FILE: crate::files::Limit = crate::files::Limit {
    bytes: 1 << 20,
    kind: "a problem file",
};

/// The problems of `file` that `chosen` names, in the file's order; an id the file does not
/// hold is an error naming it.
fn chosen_problems(file: &Path, chosen: &Chosen) -> Result<Vec<crate::solve::Problem>, CliError> {
    let text = crate::files::read_text(file, PROBLEM_FILE)?;
    let parsed = crate::solve::parse_problems(&text)
        .map_err(|e| CliError(format!("{}: {e}", file.display())))?;
    if parsed.problems.is_empty() {
        return Err(CliError(format!(
            "{}: no [[problem]] in the file",
            file.display()
        )));
    }
    if let Some(id) = chosen
        .ids
        .iter()
        .find(|id| !parsed.problems.iter().any(|p| &p.id == *id))
    {
        let cut = crate::notation::echo(id);
        return Err(CliError(format!(
            "--id {cut}: {} holds no problem with this id",
            file.display()
        )));
    }
    Ok(parsed
        .problems
        .into_iter()
        .filter(|p| chosen.ids.is_empty() || chosen.ids.contains(&p.id))
        .collect())
}

/// How `problem verify` proves: the tables, the method, the engine of the exact search,
/// the budgets and where certificates go.
struct How<'a> {
    tables: Option<&'a Path>,
    method: MethodArg,
    engine: EngineArg,
    max_nodes: u64,
    certificates: Option<&'a Path>,
    table_bytes: u64,
}

fn verify(file: &Path, how: &How, chosen: Chosen, out: &mut String) -> Result<u8, CliError> {
    let json = chosen.json;
    let mut all_sound = true;
    if let Some(dir) = how.certificates {
        std::fs::create_dir_all(dir)
            .map_err(|e| CliError(format!("--certificates {}: {e}", dir.display())))?;
    }
    for p in &chosen_problems(file, &chosen)? {
        let clock = super::clock::Clock::start();
        let r = verify_one(p, how).map_err(|e| CliError(format!("{}: {e}", file.display())))?;
        all_sound &= r.sound;
        let cpu = clock.cpu();
        if json {
            let _ = writeln!(out, "{}", serde_json::to_string(&JsonReport::of(&r, cpu))?);
        } else {
            write_report(&r, cpu, out);
        }
    }
    Ok(u8::from(!all_sound))
}

/// One problem by the method asked for; in auto, a search that gives up hands the problem
/// to the proof search.
fn verify_one(p: &crate::solve::Problem, how: &How) -> Result<ProblemReport, String> {
    let mut gave_up = None;
    if how.method != MethodArg::Prove {
        let r = match how.engine {
            EngineArg::Bitboard => {
                crate::solve::verify_problem::<Bitboard>(p, how.tables, how.max_nodes)
            }
            EngineArg::Reference => {
                crate::solve::verify_problem::<Reference>(p, how.tables, how.max_nodes)
            }
        };
        match r {
            Err(e @ SolveError::SearchGaveUp { .. }) if how.method == MethodArg::Auto => {
                gave_up = Some(e);
            }
            r => return r.map_err(|e| message(&e)),
        }
    }
    let opts = crate::prove::Options {
        table_bytes: how.table_bytes,
        nodes: Some(how.max_nodes),
        ..Default::default()
    };
    let stop = std::sync::atomic::AtomicBool::new(false);
    let mut r = crate::prove::verify_problem(p, &opts, None, how.certificates, &stop)
        .map_err(|e| e.to_string())?;
    r.fallback = gave_up;
    Ok(r)
}

/// A library error in the command line's terms (an old retro table with the command that
/// builds the compact ones).
fn message(e: &SolveError) -> String {
    match e {
        SolveError::RetroTable { .. } => solve_error(e.clone()).0,
        e => e.render(&NAMES),
    }
}

/// A report as `--json` prints it: the fallback in the command line's terms.
#[derive(serde::Serialize)]
struct JsonReport {
    #[serde(flatten)]
    report: ProblemReport,
    #[serde(skip_serializing_if = "Option::is_none")]
    fallback: Option<String>,
    /// The CPU time of the process while it proved the problem (`seconds` is the wall time).
    cpu_seconds: f64,
}

impl JsonReport {
    fn of(r: &ProblemReport, cpu: Duration) -> JsonReport {
        let mut report = r.clone();
        let fallback = report.fallback.take().map(|why| message(&why));
        let cpu_seconds = cpu.as_secs_f64();
        JsonReport {
            report,
            fallback,
            cpu_seconds,
        }
    }
}

/// One problem's lines; `cpu`: the CPU time the proof took (the report holds its wall time).
fn write_report(r: &ProblemReport, cpu: Duration, out: &mut String) {
    let _ = writeln!(
        out,
        "{}: {} ({} proof, {}, {}){}",
        r.id,
        if r.sound { "sound" } else { "UNSOUND" },
        match r.method {
            Method::Table => "table",
            Method::Search => "search",
            Method::Prove => "proof-number search",
        },
        crate::text::count(r.proof_nodes, "node"),
        super::clock::timing(Duration::from_secs_f64(r.seconds.max(0.0)), cpu, 2),
        r.shortest
            .map(|d| format!(", quickest win {}", crate::solve::plies(d)))
            .unwrap_or_default()
    );
    if let Some(why) = &r.fallback {
        let instead = match r.method {
            Method::Prove => "proved by the proof search instead",
            _ => "tables not used, proved by search instead",
        };
        let _ = writeln!(out, "  {instead}: {}", message(why));
    }
    let _ = writeln!(out, "  winning first moves: {}", r.winning.join(" "));
    for c in &r.certificates {
        let _ = writeln!(out, "  certificate: {}", crate::notation::echo(c));
    }
    for f in &r.faults {
        let _ = writeln!(out, "  fault: {f}");
    }
    if r.faults.iter().any(|f| f.contains("not settled")) {
        let _ = writeln!(out, "  (raise --max-nodes to settle it)");
    }
}
