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
        /// How to prove: auto (the tables where they hold the material, search otherwise;
        /// a table that is missing or refused is reported) or search (search only).
        #[arg(long, value_enum, default_value = "auto")]
        method: MethodArg,
        /// Engine that generates the moves.
        #[arg(long, value_enum, default_value = super::ENGINE_DEFAULT)]
        engine: EngineArg,
        /// Give up a search after this many positions (the tables prove any length).
        #[arg(long, default_value_t = crate::solve::DEFAULT_SEARCH_NODES)]
        max_nodes: u64,
        /// One JSON report per problem.
        #[arg(long)]
        json: bool,
        /// Prove only the problem with this id (repeat it for several).
        #[arg(long = "id", value_name = "ID")]
        ids: Vec<String>,
    },
    /// Compose problems from a built slice: one winning first move, longest wins first.
    Compose {
        /// Game: classic or x.
        #[arg(long, value_enum, default_value = "classic")]
        variant: VariantArg,
        /// Board, COLSxROWS.
        #[arg(long, default_value = "10x8")]
        board: String,
        /// The slice, WHITE,BLACK.
        #[arg(long)]
        material: String,
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
        } => {
            let dir = (*method == MethodArg::Auto).then_some(tables.as_path());
            let chosen = Chosen { ids, json: *json };
            verify(file, dir, *engine, chosen, *max_nodes, out)
        }
        ProblemCommand::Compose {
            variant,
            board,
            material,
            dir,
            count,
        } => {
            let dims: Dims = board
                .parse()
                .map_err(|e| CliError(format!("--board: {e}")))?;
            let variant = Variant::from(*variant);
            let m = parse_material(material)?;
            let tables = crate::solve::open_slices(dims, variant, m, dir).map_err(solve_error)?;
            let problems = crate::solve::compose_problems::<Bitboard>(&tables, m, *count)?;
            out.push_str(&crate::solve::write_problems(&problems)?);
            Ok(0)
        }
    }
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

fn verify(
    file: &Path,
    tables: Option<&Path>,
    engine: EngineArg,
    chosen: Chosen,
    max_nodes: u64,
    out: &mut String,
) -> Result<u8, CliError> {
    let json = chosen.json;
    let mut all_sound = true;
    for p in &chosen_problems(file, &chosen)? {
        let clock = super::clock::Clock::start();
        let r = match engine {
            EngineArg::Bitboard => crate::solve::verify_problem::<Bitboard>(p, tables, max_nodes),
            EngineArg::Reference => crate::solve::verify_problem::<Reference>(p, tables, max_nodes),
        }
        .map_err(|e| CliError(format!("{}: {}", file.display(), message(&e))))?;
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
        },
        crate::text::count(r.proof_nodes, "node"),
        super::clock::timing(Duration::from_secs_f64(r.seconds.max(0.0)), cpu, 2),
        r.shortest
            .map(|d| format!(", quickest win {}", crate::solve::plies(d)))
            .unwrap_or_default()
    );
    if let Some(why) = &r.fallback {
        let _ = writeln!(
            out,
            "  tables not used, proved by search instead: {}",
            message(why)
        );
    }
    let _ = writeln!(out, "  winning first moves: {}", r.winning.join(" "));
    for f in &r.faults {
        let _ = writeln!(out, "  fault: {f}");
    }
}
