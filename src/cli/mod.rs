//! The `ordo` command line: list moves, play a line, count perft, show a position, quote the
//! rules. Every command runs on either engine through the [`Engine`] trait. Bad input of any
//! kind ends with one line on stderr naming what and where, and exit status 2.

mod analysis;
pub mod bar;
mod check_game;
mod clock;
mod conformance;
mod explain;
mod fuzz;
mod interrupt;
pub mod out;
mod perft;
mod problem;
mod prove;
mod render;
mod serve;
mod site;
mod solve;
mod tb;
mod tb_build;
mod tb_checksums;
mod tb_cluster;

use std::process::ExitCode;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand, ValueEnum};

use crate::adjudicate::adjudicate;
use crate::bitboard::perft::{divide_parallel, Divide, PerftError, PerftOptions};
use crate::bitboard::Bitboard;
use crate::notation::{
    diagram, echo, format_move, format_position, parse_move, parse_move_lenient, parse_position,
};
use crate::reference::Reference;
use crate::rules::{clauses, setup, Engine, Position, Status, Variant};

/// Reference implementation of Dieter Stein's Ordo and Ordo X.
#[derive(Parser, Debug)]
#[command(name = "ordo", version, about)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

/// Where a command starts, for the commands that read a position without running an engine
/// (`show`, `explain`, `render`).
#[derive(clap::Args, Debug, Clone)]
pub struct StartArgs {
    /// Start position in the notation of spec/notation.md (default: the standard start).
    #[arg(long, short = 'p')]
    pub position: Option<String>,
    /// Variant for the standard start: classic or x (default: classic, or the variant written
    /// in --position).
    #[arg(long, value_enum)]
    pub variant: Option<VariantArg>,
    /// Standard start on this board: 10x8 (ORDO-2.2) or 8x8 (ORDO-1.6).
    #[arg(long, value_enum, default_value = "10x8")]
    pub board: BoardArg,
}

/// Where a command starts, and the engine that runs it (`moves`, `play`, `perft`, `tb probe`).
#[derive(clap::Args, Debug, Clone)]
pub struct PositionArgs {
    #[command(flatten)]
    pub start: StartArgs,
    /// Engine to run: the fast bitboard engine, or the plain reference engine (same answers).
    #[arg(long, value_enum, default_value = ENGINE_DEFAULT)]
    pub engine: EngineArg,
}

/// The `--engine` every command that runs one of ours defaults to: one default
/// everywhere, the reference engine one flag away.
pub const ENGINE_DEFAULT: &str = "bitboard";

impl std::ops::Deref for PositionArgs {
    type Target = StartArgs;
    fn deref(&self) -> &StartArgs {
        &self.start
    }
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum VariantArg {
    Classic,
    X,
}

impl From<VariantArg> for Variant {
    fn from(v: VariantArg) -> Variant {
        match v {
            VariantArg::Classic => Variant::Classic,
            VariantArg::X => Variant::X,
        }
    }
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum BoardArg {
    #[value(name = "10x8")]
    Standard,
    #[value(name = "8x8")]
    Chess,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum EngineArg {
    /// The plain reference engine (the ordo-reference crate).
    Reference,
    /// The optimized bitboard engine (the ordo-bitboard crate).
    Bitboard,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// List the legal moves, one per line in canonical notation, sorted.
    Moves {
        #[command(flatten)]
        at: PositionArgs,
    },
    /// Play moves from the start position; print the resulting position and status.
    Play {
        /// Moves in the notation of spec/notation.md, or the spellings game records accept
        /// (A3-A4, ×; spec/game-record.md).
        moves: Vec<String>,
        #[command(flatten)]
        at: PositionArgs,
    },
    /// Count move sequences of the given length (one Ordo X turn is one move).
    Perft(perft::PerftArgs),
    /// Draw the position as text, with its status.
    Show {
        #[command(flatten)]
        at: StartArgs,
    },
    /// The verdict on one proposed move, clause by clause (spec/rules.md).
    Explain(explain::ExplainArgs),
    /// Draw a position, and a move, as a Unicode board or an SVG file.
    Render(render::RenderArgs),
    /// Serve the web page for settling rule disputes: a board to click, verdicts with their
    /// clauses, shareable links, and a JSON API.
    Serve(serve::ServeArgs),
    /// Write the dispute page as a static site into a folder: it judges in the browser
    /// (WebAssembly), so any static host serves it and its links open for anyone.
    Site(site::SiteArgs),
    /// Replay a game record (spec/game-record.md) and judge every move.
    CheckGame(check_game::CheckGameArgs),
    /// Conformance vectors (spec/conformance/): rebuild them from the reference, or check an
    /// engine of this crate against them.
    Conformance(conformance::ConformanceArgs),
    /// Serve an engine of this crate over the line protocol of spec/protocol.md.
    Engine(conformance::EngineArgs),
    /// Check an external engine through the protocol: vectors, then random playouts.
    Conform(conformance::ConformArgs),
    /// Differential campaign: reference against bitboard on random playouts and set-up
    /// positions; a minimized reproduction and exit status 1 on any divergence.
    Fuzz(fuzz::FuzzArgs),
    /// Solve a small board: the value of the start and the winning first moves, from every
    /// core position of every material the start can come down to (the compact solver of the
    /// ordo-solve crate).
    Solve(solve::SolveArgs),
    /// Endgame tablebases by material: build, verify, probe.
    Tb(tb::TbArgs),
    /// Prove who wins a position by proof-number search (tables as leaves), with a
    /// certificate; or judge a certificate on the reference engine (--check).
    Prove(prove::ProveArgs),
    /// Problems: verify their claims, or compose new ones from the tables.
    Problem(problem::ProblemArgs),
    /// Tables of the analysis report (analysis/) from saved results.
    Analysis(analysis::AnalysisArgs),
    /// Quote the rules: one clause by id, all clause titles, or the whole of spec/rules.md.
    Rules {
        /// A clause id such as ORDO-6.3 (any case: ordo-6.3 is the same clause).
        id: Option<String>,
        /// Print spec/rules.md as generated from spec/clauses.toml.
        #[arg(long)]
        markdown: bool,
    },
}

/// A failure to report: one line, exit status 2.
#[derive(Debug)]
pub struct CliError(pub String);

impl<E: std::fmt::Display> From<E> for CliError {
    fn from(e: E) -> Self {
        CliError(e.to_string())
    }
}

/// Write `text` to `path` atomically; a failure names the file.
pub fn write_file(path: &std::path::Path, text: &str) -> Result<(), CliError> {
    crate::files::write_atomically(path, text).map_err(|e| CliError(format!("cannot write {e}")))
}

/// Entry point of the binary.
pub fn main() -> ExitCode {
    let cli = match parse_args() {
        Ok(c) => c,
        Err(e) => {
            use clap::error::ErrorKind;
            match e.kind() {
                ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => {
                    return out::finish(&e.render().to_string(), Ok(0));
                }
                // A command made of subcommands, given alone: its help, on stderr, exit 2.
                ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
                    out::note_line(e.render().to_string().trim_end());
                    return ExitCode::from(2);
                }
                _ => {
                    let args: Vec<String> = std::env::args().skip(1).collect();
                    let which = command_path(&Cli::command(), &args);
                    return out::finish("", Err(one_line_usage_error(&e.to_string(), &which)));
                }
            }
        }
    };
    interrupt::by_default();
    let mut text = String::new();
    let result = run(&cli, &mut text).map_err(|CliError(msg)| msg);
    out::finish(&text, result)
}

/// The command line, read by clap; a command made of subcommands (`ordo`, `ordo tb`, …) given
/// alone prints its help (exit status 2).
fn parse_args() -> Result<Cli, clap::Error> {
    let matches = with_habits(Cli::command()).try_get_matches()?;
    Cli::from_arg_matches(&matches)
}

/// `cmd` and all its subcommands with the habits every command shares: a command
/// made of subcommands prints its help when given alone, and every listed value (variant,
/// engine, board, …) is read in any case (`--variant X`, `--engine Reference`).
pub fn with_habits(cmd: clap::Command) -> clap::Command {
    let cmd = with_help_when_bare(cmd);
    any_case(cmd)
}

/// `cmd` and all its subcommands, their listed values read in any case.
fn any_case(cmd: clap::Command) -> clap::Command {
    cmd.mut_args(|a| {
        // A flag (`--json`) lists the values true and false but takes none: clap's debug
        // build refuses one read in any case.
        if a.get_action().takes_values() && a.get_value_parser().possible_values().is_some() {
            a.ignore_case(true)
        } else {
            a
        }
    })
    .mut_subcommands(any_case)
}

/// `cmd`, and each of its commands that has subcommands, set to print the help when given no
/// argument.
fn with_help_when_bare(cmd: clap::Command) -> clap::Command {
    let names: Vec<String> = cmd
        .get_subcommands()
        .filter(|c| c.has_subcommands())
        .map(|c| c.get_name().to_string())
        .collect();
    let mut cmd = cmd.arg_required_else_help(true);
    for name in names {
        cmd = cmd.mut_subcommand(name, with_help_when_bare);
    }
    cmd
}

/// Clap's multi-line usage error as one line: the message and the names it lists, without the
/// usage block, and the help of the command it is about (`see ordo explain --help`).
pub fn one_line_usage_error(text: &str, command: &str) -> String {
    let words: Vec<&str> = text
        .lines()
        .take_while(|l| !l.starts_with("Usage:") && !l.starts_with("For more information"))
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    let joined = words.join(" ");
    let msg = joined.trim_start_matches("error: ").trim();
    let help = format!("see {command} --help");
    if msg.is_empty() {
        format!("invalid arguments ({help})")
    } else {
        format!("{msg} ({help})")
    }
}

/// The command the words `args` (after `ordo`) call: `ordo`, then each leading word that
/// names a subcommand of the one before (`ordo tb build` for `tb build --bogus`).
fn command_path(cli: &clap::Command, args: &[String]) -> String {
    let mut path = vec![cli.get_name().to_string()];
    let mut cur = cli;
    for a in args {
        match cur.find_subcommand(a) {
            Some(sub) => {
                path.push(sub.get_name().to_string());
                cur = sub;
            }
            None => break,
        }
    }
    path.join(" ")
}

/// A start position as read from [`StartArgs`], with where it came from, so that every error
/// about it names `--position` when the position was given there.
#[derive(Debug)]
pub struct Start {
    pub pos: Position,
    /// Whether `--position` gave it (else it is a standard start).
    pub given: bool,
}

impl Start {
    /// `e`, about this position, as an error naming `--position` when it was given there.
    pub fn refused(&self, e: impl std::fmt::Display) -> CliError {
        let where_ = if self.given { "--position: " } else { "" };
        CliError(format!("{where_}{e}"))
    }
}

impl StartArgs {
    /// The start position asked for: `--position` read, checked against `--variant`, or the
    /// standard start of `--variant` on `--board`.
    pub fn read(&self) -> Result<Start, CliError> {
        let Some(text) = &self.position else {
            let v = self.variant.map(Variant::from).unwrap_or(Variant::Classic);
            let pos = match self.board {
                BoardArg::Standard => setup::standard(v),
                BoardArg::Chess => setup::chess_board(v),
            };
            return Ok(Start { pos, given: false });
        };
        let pos = parse_position(text).map_err(|e| CliError(format!("--position: {e}")))?;
        if let Some(v) = self.variant.filter(|&v| Variant::from(v) != pos.variant) {
            return Err(CliError(format!(
                "--variant {} contradicts the variant '{}' written in --position",
                Variant::from(v),
                pos.variant
            )));
        }
        Ok(Start { pos, given: true })
    }
}

/// The start position a command asked for ([`StartArgs::read`] without its origin).
pub fn start_position(at: &StartArgs) -> Result<Position, CliError> {
    Ok(at.read()?.pos)
}

/// The one move a command judges or draws (`explain`, `render`): the `MOVE` argument, or
/// `--move` (kept, hidden, for the command lines written before the argument). `explain`
/// makes one of them required.
#[derive(clap::Args, Debug, Clone)]
pub struct MoveArg {
    /// The move, in the notation of spec/notation.md.
    #[arg(value_name = "MOVE")]
    pub mv: Option<String>,
    /// The move, as a flag (the same as the MOVE argument).
    #[arg(
        long = "move",
        short = 'm',
        value_name = "MOVE",
        conflicts_with = "mv",
        hide = true
    )]
    pub move_flag: Option<String>,
}

/// A move read from [`MoveArg`]: the text given, the move, and the name to give it in an
/// error (`MOVE` or `--move`).
#[derive(Debug)]
pub struct GivenMove<'a> {
    pub name: &'static str,
    pub text: &'a str,
    pub mv: crate::rules::Move,
}

impl MoveArg {
    /// The move given, read; `None` when none is given; an error naming `MOVE` or `--move`
    /// when it cannot be read.
    pub fn read(&self) -> Result<Option<GivenMove<'_>>, CliError> {
        let (name, text) = match (&self.mv, &self.move_flag) {
            (Some(text), _) => ("MOVE", text),
            (None, Some(text)) => ("--move", text),
            (None, None) => return Ok(None),
        };
        let mv = parse_move(text).map_err(|e| CliError(format!("{name}: {e}")))?;
        Ok(Some(GivenMove { name, text, mv }))
    }
}

/// Run a command, appending its standard output to `out`. The exit status is 0 on success and
/// 1 for a negative verdict (an illegal move, a failed check); bad input is an `Err` (status 2).
pub fn run(cli: &Cli, out: &mut String) -> Result<u8, CliError> {
    let done = |r: Result<(), CliError>| r.map(|()| 0);
    match &cli.command {
        Command::Rules { id, markdown } => done(rules(id.as_deref(), *markdown, out)),
        Command::Explain(args) => explain::run(args, out),
        Command::Render(args) => render::run(args, out),
        Command::Serve(args) => serve::run(args, out),
        Command::Site(args) => site::run(args, out),
        Command::CheckGame(args) => check_game::run(args, out),
        Command::Conformance(args) => conformance::run_conformance(args, out),
        Command::Engine(args) => conformance::run_engine(args, out),
        Command::Conform(args) => conformance::run_conform(args, out),
        Command::Fuzz(args) => fuzz::campaign::<Reference, Bitboard>(args, out),
        Command::Solve(args) => solve::run(args, out),
        Command::Analysis(args) => analysis::run(args, out),
        Command::Tb(args) => tb::run(args, out),
        Command::Prove(args) => prove::run(args, out),
        Command::Problem(args) => problem::run(args, out),
        Command::Moves { at } => done(dispatch(at, |e| moves(e, out))),
        Command::Show { at } => done(show(at, out)),
        Command::Play { moves, at } => done(dispatch(at, |e| play(e, moves, out))),
        Command::Perft(args) => perft::run(args, out),
    }
}

fn dispatch<T>(
    at: &PositionArgs,
    job: impl FnOnce(AnyEngine) -> Result<T, CliError>,
) -> Result<T, CliError> {
    let start = at.read()?;
    match at.engine {
        EngineArg::Reference => {
            let e = Reference::from_position(&start.pos).map_err(|e| start.refused(e))?;
            job(AnyEngine::new(e))
        }
        EngineArg::Bitboard => {
            let e = Bitboard::from_position(&start.pos).map_err(|e| start.refused(e))?;
            job(AnyEngine::new(e))
        }
    }
}

/// A boxed engine, so the command bodies are written once.
pub struct AnyEngine {
    inner: Box<dyn DynEngine>,
}

/// The engine's name and position; the engine itself is a trait object.
impl std::fmt::Debug for AnyEngine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AnyEngine")
            .field("engine", &self.inner.name())
            .field("position", &self.inner.position())
            .finish()
    }
}

trait DynEngine: Send + Sync {
    fn name(&self) -> &'static str;
    fn position(&self) -> Position;
    fn moves(&self) -> Vec<crate::rules::Move>;
    fn status(&self) -> Status;
    fn play(&self, mv: &crate::rules::Move) -> Option<Box<dyn DynEngine>>;
    fn divide(&self, depth: u32, opts: &PerftOptions) -> Result<Divide, PerftError>;
}

impl<E: Engine> DynEngine for E {
    fn name(&self) -> &'static str {
        E::NAME
    }
    fn position(&self) -> Position {
        self.to_position()
    }
    fn moves(&self) -> Vec<crate::rules::Move> {
        self.legal_moves()
    }
    fn status(&self) -> Status {
        Engine::status(self)
    }
    fn play(&self, mv: &crate::rules::Move) -> Option<Box<dyn DynEngine>> {
        Engine::play(self, mv)
            .ok()
            .map(|e| Box::new(e) as Box<dyn DynEngine>)
    }
    fn divide(&self, depth: u32, opts: &PerftOptions) -> Result<Divide, PerftError> {
        divide_parallel(self, depth, opts)
    }
}

impl AnyEngine {
    fn new<E: Engine>(e: E) -> AnyEngine {
        AnyEngine { inner: Box::new(e) }
    }
}

fn moves(e: AnyEngine, out: &mut String) -> Result<(), CliError> {
    for m in crate::notation::sorted_notation(&e.inner.moves()) {
        out.push_str(&m);
        out.push('\n');
    }
    Ok(())
}

/// `ordo show`: the diagram, the notation and the status (from the bitboard engine: both
/// engines give the same status, so the command has no `--engine`).
fn show(at: &StartArgs, out: &mut String) -> Result<(), CliError> {
    let at = PositionArgs {
        start: at.clone(),
        engine: EngineArg::Bitboard,
    };
    dispatch(&at, |e| show_with(e, out))
}

fn show_with(e: AnyEngine, out: &mut String) -> Result<(), CliError> {
    let pos = e.inner.position();
    out.push_str(&diagram(&pos));
    if !out.ends_with('\n') {
        out.push('\n');
    }
    out.push_str(&format!("position: {}\n", format_position(&pos)));
    out.push_str(&format!("status: {}\n", e.inner.status()));
    Ok(())
}

fn play(e: AnyEngine, moves: &[String], out: &mut String) -> Result<(), CliError> {
    let mut cur = e.inner;
    for (i, text) in moves.iter().enumerate() {
        let n = i + 1;
        let mv = parse_move_lenient(text).map_err(|err| CliError(format!("move {n}: {err}")))?;
        let dims = cur.position().dims();
        if let Some(off) = mv.off_board_square(dims) {
            return Err(CliError(format!(
                "move {n} '{}': square {off} is off the {dims} board",
                echo(text)
            )));
        }
        let status = cur.status();
        if status.is_over() {
            return Err(CliError(format!(
                "move {n} '{}': the game is already over ({status})",
                echo(text)
            )));
        }
        cur = match cur.play(&mv) {
            Some(next) => next,
            None => return Err(CliError(illegal_move(n, text, &cur.position(), &mv))),
        };
    }
    out.push_str(&format!("position: {}\n", format_position(&cur.position())));
    out.push_str(&format!("status: {}\n", cur.status()));
    Ok(())
}

/// Why move `n` (`text`, read as `mv`) is not legal in `pos`: the first clause the adjudicator
/// finds broken, and the `ordo explain` command that lists them all.
fn illegal_move(n: usize, text: &str, pos: &Position, mv: &crate::rules::Move) -> String {
    let fen = format_position(pos);
    let why = match adjudicate(pos, mv).violations().first() {
        Some(v) => format!("{} ({})", v.clause, v.detail.replace('\n', " ")),
        None => "the engine rejects it, but the adjudicator finds it legal".to_string(),
    };
    format!(
        "move {n} '{}' is not legal in {fen}: {why}; all reasons: ordo explain --position \"{fen}\" '{}'",
        echo(text),
        format_move(mv)
    )
}

fn rules(id: Option<&str>, markdown: bool, out: &mut String) -> Result<(), CliError> {
    if markdown {
        out.push_str(&clauses::render_markdown());
        return Ok(());
    }
    let reg = clauses::registry();
    match id {
        Some(id) => {
            let c = reg.get(&id.trim().to_ascii_uppercase()).ok_or_else(|| {
                CliError(format!(
                    "no clause '{}' in spec/clauses.toml (ids look like ORDO-6.3 or ORDOX-4.2; `ordo rules` lists them)",
                    echo(id)
                ))
            })?;
            out.push_str(&clauses::quote(c));
        }
        None => {
            for c in &reg.clauses {
                out.push_str(&format!("{:<10} [{}] {}\n", c.id, c.kind.name(), c.title));
            }
        }
    }
    Ok(())
}
