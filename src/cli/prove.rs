//! `ordo prove`: who wins a position, proved by the proof-number search of `ordo-prove` on
//! the bitboard engine, with a certificate; and `ordo prove --check FILE`, which judges a
//! certificate on the reference engine (`ordo-certificate`).

use std::fmt::Write as _;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use super::interrupt::{self, INTERRUPTED};
use super::solve::parse_bytes;
use super::{CliError, VariantArg};
use crate::certificate::{check_file, Established};
use crate::notation::parse_position;
use crate::prove::{prove, Goal, Options, Outcome, Report, Tick, INF};
use crate::rules::{setup, Color, Dims, Position, Variant};
use crate::solve::Tablebase;
use crate::text::{count, word};

/// Arguments of `ordo prove`.
#[derive(clap::Args, Debug)]
pub struct ProveArgs {
    /// Judge the certificate FILE on the reference engine instead of proving (exit 0 if it
    /// holds, 1 if it is refused, with the line or node where it fails).
    #[arg(long, value_name = "FILE")]
    pub check: Option<PathBuf>,
    /// The position to prove, in the notation of spec/notation.md.
    #[arg(long, short = 'p', conflicts_with_all = ["board", "setup", "variant"])]
    pub position: Option<String>,
    /// Game of a start given by --board and --setup: classic or x.
    #[arg(long, value_enum, default_value = "classic")]
    pub variant: VariantArg,
    /// Board of a start, COLSxROWS (default 10x8, the standard start).
    #[arg(long, default_value = "10x8")]
    pub board: String,
    /// Start on a board other than 10 x 8 and 8 x 8: rowN, each side fills its N nearest rows.
    #[arg(long, value_name = "rowN")]
    pub setup: Option<String>,
    /// A folder of endgame tables (ordo tb build): positions they hold are leaves.
    #[arg(long, value_name = "DIR")]
    pub tables: Option<PathBuf>,
    /// Memory for the transposition table: bytes, or with a suffix K, M, G, T (default 1G,
    /// at most half of what the system allows).
    #[arg(long, value_name = "BYTES")]
    pub memory_limit: Option<String>,
    /// Stop after this many seconds.
    #[arg(long, value_name = "SECONDS")]
    pub time: Option<f64>,
    /// Stop after this many nodes.
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Write the certificate of the result to FILE.
    #[arg(long, value_name = "FILE")]
    pub certificate: Option<PathBuf>,
    /// Resume from FILE if it exists; save the search's table there when it stops short.
    #[arg(long, value_name = "FILE")]
    pub checkpoint: Option<PathBuf>,
    /// Prove instead that the side to move wins within PLIES plies (its winning move at
    /// most PLIES plies from now): a search bounded by the plies left, which has no cycles,
    /// so classic Ordo's endless lines cannot mislead it.
    #[arg(long, value_name = "PLIES")]
    pub within: Option<u32>,
    /// Start every child's disproof number at its number of moves (df-pn+ mobility) rather
    /// than 1: fewer nodes, more time per node (for measuring).
    #[arg(long)]
    pub mobility: bool,
    /// Start every child at 1, 1 rather than from how far each side's most advanced piece
    /// is from the other's home row (for measuring).
    #[arg(long)]
    pub no_advance: bool,
    /// Count a position whose side to move can win with its next move won at once, without
    /// expanding it (the default in classic Ordo; for measuring in Ordo X).
    #[arg(long, conflicts_with = "no_win_check")]
    pub win_check: bool,
    /// Expand such a position like any other (the default in Ordo X; for measuring in
    /// classic Ordo).
    #[arg(long)]
    pub no_win_check: bool,
    /// Weak proof numbers: count a node's replies as the costliest one plus one for each
    /// other, not their sum, so that a position reached by several moves is not counted
    /// once for each (fewer nodes on large Ordo X boards).
    #[arg(long)]
    pub weak: bool,
    /// Print the report as JSON.
    #[arg(long)]
    pub json: bool,
    /// No progress on stderr.
    #[arg(long, short = 'q')]
    pub quiet: bool,
}

/// Run `ordo prove`.
pub fn run(args: &ProveArgs, out: &mut String) -> Result<u8, CliError> {
    if let Some(file) = &args.check {
        return check(file, args, out);
    }
    let pos = start(args)?;
    let tables = match &args.tables {
        Some(dir) => Some(Tablebase::open(dir)?),
        None => None,
    };
    let opts = options(args, pos.to_move)?;
    let stop = interrupt::catch()?;
    let mut shown = Instant::now();
    let quiet = args.quiet;
    // On a terminal one line redrawn twice a second; into a file a line every 30 s.
    let terminal = std::io::IsTerminal::is_terminal(&std::io::stderr());
    let every = Duration::from_millis(if terminal { 500 } else { 30_000 });
    let mut progress = |t: &Tick| {
        if !quiet && shown.elapsed() >= every {
            shown = Instant::now();
            match terminal {
                true => eprint!("\r{}", tick_line(t)),
                false => eprintln!("{}", tick_line(t)),
            }
        }
    };
    let cert = args.certificate.as_deref();
    let report = prove(&pos, &opts, tables.as_ref(), cert, stop, &mut progress)?;
    if !quiet && terminal {
        eprint!("\r\x1b[K");
    }
    if report.stopped.as_deref() == Some("interrupted") {
        let saved = match &args.checkpoint {
            Some(p) => format!("; the search's table is saved in {}", p.display()),
            None => String::new(),
        };
        super::out::note_line(&format!("interrupted after {} nodes{saved}", report.nodes));
        return Ok(INTERRUPTED);
    }
    if args.json {
        let _ = writeln!(
            out,
            "{}",
            serde_json::to_string_pretty(&json(&report, args))?
        );
    } else {
        write_report(&report, args, out);
    }
    Ok(u8::from(report.outcome == Outcome::NotProved))
}

/// The progress line: nodes, rate, the root's proof and disproof numbers, the table.
fn tick_line(t: &Tick) -> String {
    let secs = t.elapsed.as_secs_f64().max(1e-9);
    format!(
        "{} nodes, {}/s, {:?} attacker{}: proof {} disproof {}, table {}% full  ",
        t.nodes,
        (t.nodes as f64 / secs) as u64,
        t.attacker,
        t.within
            .map_or(String::new(), |n| format!(" within {n} plies")),
        t.root.0,
        t.root.1,
        t.table.0 * 100 / t.table.1.max(1)
    )
}

/// The position to prove: --position, or the start of --board and --setup.
fn start(args: &ProveArgs) -> Result<Position, CliError> {
    if let Some(p) = &args.position {
        let pos = parse_position(p).map_err(|e| CliError(format!("--position: {e}")))?;
        pos.validate()
            .map_err(|e| CliError(format!("--position: {e}")))?;
        return Ok(pos);
    }
    let variant = Variant::from(args.variant);
    let dims: Dims = args
        .board
        .parse()
        .map_err(|e| CliError(format!("--board {:?}: {e}", args.board)))?;
    let rows = match args.setup.as_deref() {
        None if (dims.cols, dims.rows) == (10, 8) => return Ok(setup::standard(variant)),
        None if (dims.cols, dims.rows) == (8, 8) => return Ok(setup::chess_board(variant)),
        None => return Err(CliError(format!("--board {dims} needs --setup rowN"))),
        Some(s) => s
            .strip_prefix("row")
            .and_then(|n| n.parse::<u8>().ok())
            .ok_or_else(|| CliError(format!("--setup {s:?}: expected row1, row2, …")))?,
    };
    setup::filled_rows(dims, rows, variant)
        .ok_or_else(|| CliError(format!("--setup row{rows} does not fit the {dims} board")))
}

fn options(args: &ProveArgs, mover: Color) -> Result<Options, CliError> {
    let allowed = crate::solve::effective_limit(None).map(|l| l.bytes / 2);
    let table_bytes = match &args.memory_limit {
        Some(s) => parse_bytes(s)?,
        None => allowed.unwrap_or(u64::MAX).min(1 << 30),
    };
    let time = match args.time {
        Some(t) if !(t.is_finite() && t > 0.0 && t < 1e9) => {
            return Err(CliError(format!("--time {t}: a number of seconds above 0")))
        }
        t => t.map(Duration::from_secs_f64),
    };
    let goal = match args.within {
        None => Goal::Value,
        Some(plies @ 1..=MAX_WITHIN) => Goal::WinWithin { side: mover, plies },
        Some(p) => {
            return Err(CliError(format!(
                "--within {p}: a number of plies from 1 to {MAX_WITHIN}"
            )))
        }
    };
    Ok(Options {
        table_bytes,
        nodes: args.nodes,
        time,
        mobility: args.mobility,
        advance: !args.no_advance,
        win_check: match (args.win_check, args.no_win_check) {
            (true, _) => Some(true),
            (_, true) => Some(false),
            _ => None,
        },
        weak: args.weak,
        checkpoint: args.checkpoint.clone(),
        goal,
    })
}

/// The longest bound `--within` takes: far beyond any win the tables or the search have
/// met (the longest forced win in the 10 x 8 tables is 41 plies).
const MAX_WITHIN: u32 = 10_000;

fn side(c: Color) -> &'static str {
    match c {
        Color::White => "White",
        Color::Black => "Black",
    }
}

/// The outcome in words, of a search bounded by `within` plies if it was.
fn outcome_text(o: Outcome, within: Option<u32>) -> String {
    if let Some(n) = within {
        return match o {
            Outcome::Wins(c) => format!("{} wins within {}", side(c), crate::solve::plies(n)),
            Outcome::CannotWin(c) => {
                format!("{} cannot win within {}", side(c), crate::solve::plies(n))
            }
            _ => "not proved within the budget".into(),
        };
    }
    match o {
        Outcome::Wins(c) => format!("{} wins", side(c)),
        Outcome::Draw => "draw: neither side can force a win (ORDO-3.3)".into(),
        Outcome::CannotWin(c) => format!("{} cannot force a win (the rest not proved)", side(c)),
        Outcome::NotProved => "not proved within the budget".into(),
    }
}

fn write_report(r: &Report, args: &ProveArgs, out: &mut String) {
    let _ = writeln!(out, "position: {}", r.position);
    let _ = writeln!(out, "result: {}", outcome_text(r.outcome, args.within));
    for (claim, size) in &r.parts {
        let longest = match size.longest {
            Some(n) => format!(", longest line {n} plies"),
            None => String::new(),
        };
        let leaves = match size.table_leaves {
            0 => String::new(),
            n => format!(", {n} table {}", word(n, "leaf")),
        };
        let nodes = count(size.nodes, "node");
        let _ = writeln!(out, "proof of \"{claim}\": {nodes}{longest}{leaves}");
    }
    if let Some(n) = r.bounded {
        let _ = writeln!(
            out,
            "bounded: the search was stuck on cycles; a search bounded by {} proved the win",
            crate::solve::plies(n)
        );
    }
    let secs = r.elapsed.as_secs_f64();
    let _ = writeln!(
        out,
        "search: {} in {secs:.2} s ({:.0} nodes/s), table {} of {} entries in use",
        count(r.nodes, "node"),
        r.nodes as f64 / secs.max(1e-9),
        r.table.0,
        r.table.1
    );
    for (attacker, pn, dn) in &r.roots {
        let (pn, dn) = (number(*pn), number(*dn));
        let _ = writeln!(
            out,
            "root for {}: proof number {pn}, disproof number {dn}",
            side(*attacker)
        );
    }
    if let Some(why) = &r.stopped {
        let _ = writeln!(out, "stopped: {why}");
    }
    if let (Some(c), false) = (&args.certificate, r.parts.is_empty()) {
        let _ = writeln!(
            out,
            "certificate: {} (check: ordo prove --check FILE)",
            c.display()
        );
    }
}

/// A proof or disproof number, `infinite` for a solved node's.
fn number(n: u32) -> String {
    if n >= INF {
        "infinite".into()
    } else {
        n.to_string()
    }
}

fn json(r: &Report, args: &ProveArgs) -> serde_json::Value {
    let parts: Vec<_> = r
        .parts
        .iter()
        .map(|(c, s)| {
            serde_json::json!({"claim": c.to_string(), "nodes": s.nodes,
                "longest": s.longest, "table_leaves": s.table_leaves})
        })
        .collect();
    let roots: Vec<_> = r
        .roots
        .iter()
        .map(|(a, p, d)| serde_json::json!({"attacker": side(*a), "proof": p, "disproof": d}))
        .collect();
    serde_json::json!({
        "position": r.position.to_string(),
        "result": outcome_text(r.outcome, args.within),
        "within": args.within,
        "bounded": r.bounded,
        "parts": parts,
        "nodes": r.nodes,
        "seconds": r.elapsed.as_secs_f64(),
        "roots": roots,
        "stopped": r.stopped,
        "table_probes": r.table_probes,
        "certificate": args.certificate.as_ref().filter(|_| !r.parts.is_empty()),
    })
}

/// `--check FILE`: judge a certificate on the reference engine.
fn check(file: &std::path::Path, args: &ProveArgs, out: &mut String) -> Result<u8, CliError> {
    let name = file.display();
    match check_file(file, args.tables.as_deref()) {
        Ok(c) => {
            let what = match c.established {
                Established::Wins(s) => format!("{} wins", side(s)),
                Established::Draw => "draw: neither side can force a win".into(),
                Established::CannotWin(s) => format!("{} cannot force a win", side(s)),
            };
            let nodes: u64 = c.parts.iter().map(|p| u64::from(p.1)).sum();
            let _ = writeln!(out, "certificate {name}: holds on the reference engine");
            let _ = writeln!(out, "position: {}", c.root);
            let _ = writeln!(out, "result: {what}");
            if let Some(l) = c.longest {
                let _ = writeln!(
                    out,
                    "longest line: {} (the win comes within it)",
                    crate::solve::plies(l)
                );
            }
            let _ = writeln!(
                out,
                "size: {} in {}, {} table {}",
                count(nodes, "node"),
                count(c.parts.len(), "part"),
                c.table_leaves,
                word(c.table_leaves, "leaf")
            );
            Ok(0)
        }
        Err(e) if e.unreadable => Err(CliError(format!("{name}: {e}"))),
        Err(e) => {
            super::out::error_line(&format!("certificate {name} refused: {e}"));
            Ok(1)
        }
    }
}
