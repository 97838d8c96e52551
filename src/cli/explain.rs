//! `ordo explain`: the adjudicator's verdict on one move.
//!
//! `ordo explain [--position P] [--variant V] [--board 10x8|8x8] MOVE [--svg FILE]
//! [--html FILE]` (or `--move MOVE`, the older spelling) judges
//! the move clause by clause (`crate::adjudicate`), independently of the engines, and prints
//! `verdict: legal` or `verdict: illegal`:
//!
//! - for an illegal move, every clause it breaks: its id and title, what breaks it in this move,
//!   and the clause quoted from spec/clauses.toml with its source references; exit status 1;
//! - for a legal move, what it does (pieces moved, captures, a split of the opponent, pieces
//!   removed, a win and its reason), the clauses that permit it, and the resulting position with
//!   its status; exit status 0.
//!
//! Notation that cannot be read (the position or the move), and a position that cannot be set
//! up (ORDO-2.3), are bad input: one line on stderr, exit status 2. A move whose squares lie off
//! the board is readable notation and is judged (ORDO-1.5). With `--svg FILE` the position is
//! drawn with the move and the captured and removed pieces marked. With `--html FILE` the whole
//! verdict is written as one self-contained HTML file (inline diagram, the clause texts, no
//! network; `crate::page::pages::verdict_page`), to attach where a link cannot go. Both files
//! are written atomically.

use std::fmt::Write as _;
use std::path::PathBuf;

use super::{write_file, CliError, MoveArg, StartArgs};
use crate::adjudicate::{adjudicate, canonical_spelling, Effects, Verdict, Violation};
use crate::notation::{format_move, format_position, parse_move};
use crate::rules::{clauses, ClauseId, Color, Move, Position, Square, Status};
use crate::text::count;

/// Arguments of `ordo explain`.
#[derive(clap::Args, Debug)]
#[command(mut_arg("mv", |a| a.required_unless_present("move_flag").help("The move to judge, in the notation of spec/notation.md")))]
pub struct ExplainArgs {
    #[command(flatten)]
    pub mv: MoveArg,
    #[command(flatten)]
    pub at: StartArgs,
    /// Also write an SVG diagram of the position with the move drawn.
    #[arg(long)]
    pub svg: Option<PathBuf>,
    /// Also write the verdict as one self-contained HTML file (diagram and clause texts inline).
    #[arg(long)]
    pub html: Option<PathBuf>,
}

/// The clause's id and title, or the id alone if the registry lacks it.
fn headline(id: &str) -> String {
    match clauses::get(id) {
        Some(c) => format!("{} {} [{}]", c.id, c.title, c.kind.name()),
        None => id.to_string(),
    }
}

/// Indent every line of `text` by `n` spaces.
fn indent(text: &str, n: usize) -> String {
    let pad = " ".repeat(n);
    text.lines()
        .map(|l| {
            if l.is_empty() {
                String::new()
            } else {
                format!("{pad}{l}\n")
            }
        })
        .collect()
}

/// Run `ordo explain`.
pub fn run(args: &ExplainArgs, out: &mut String) -> Result<u8, CliError> {
    let start = args.at.read()?;
    start.pos.validate().map_err(|e| start.refused(e))?;
    let pos = start.pos;
    let mv = match args.mv.read()? {
        Some(given) => given.mv,
        // Clap requires one of the two; read as an empty move if ever not.
        None => parse_move("").map_err(|e| CliError(format!("MOVE: {e}")))?,
    };
    let verdict = adjudicate(&pos, &mv);

    let _ = writeln!(out, "position: {}", format_position(&pos));
    let _ = writeln!(out, "move: {}", format_move(&mv));
    let code = match &verdict {
        Verdict::Illegal { violations } => {
            write_violations(violations, out);
            1
        }
        Verdict::Legal { permits, effects } => {
            write_legal(&pos, &mv, permits, effects, out);
            0
        }
    };
    if let Some(path) = &args.svg {
        let text = crate::page::api::verdict_svg(&pos, &mv, &verdict);
        write_file(path, &text)?;
        let _ = writeln!(out, "wrote {}", path.display());
    }
    if let Some(path) = &args.html {
        let answer = crate::page::api::explain_move(&pos, &mv);
        write_file(path, &crate::page::pages::verdict_page(&answer))?;
        let _ = writeln!(out, "wrote {}", path.display());
    }
    Ok(code)
}

/// The verdict on an illegal move: every clause it breaks, why, and the clause's text.
fn write_violations(violations: &[Violation], out: &mut String) {
    let _ = writeln!(out, "verdict: illegal");
    let _ = writeln!(out, "{} violated:", count(violations.len(), "clause"));
    for v in violations {
        let id = v.clause.to_string();
        let _ = writeln!(out, "\n{}", headline(&id));
        let _ = writeln!(out, "  {}", v.detail);
        if let Some(c) = clauses::get(&id) {
            let _ = writeln!(out, "  the rule:");
            out.push_str(&indent(&clauses::quote_body(c), 4));
        }
    }
}

/// The verdict on a legal move `mv` in `pos`: its spelling, what it does, the clauses that
/// permit it, and the position it leads to.
fn write_legal(
    pos: &Position,
    mv: &Move,
    permits: &[ClauseId],
    effects: &Effects,
    out: &mut String,
) {
    let _ = writeln!(out, "verdict: legal");
    if let Some(c) = canonical_spelling(pos, mv) {
        let text = format_move(&c);
        if text != format_move(mv) {
            let _ = writeln!(out, "canonical spelling: {text}");
        }
    }
    write_effects(pos.to_move.opponent(), effects, out);
    let _ = writeln!(out, "permitted by:");
    for p in crate::page::api::deciding_first(permits, effects.status.clause()) {
        let _ = writeln!(out, "  {}", headline(&p.to_string()));
    }
    let _ = writeln!(out, "result: {}", format_position(&effects.result));
    let _ = writeln!(out, "status: {}", effects.status);
}

/// What a legal move does: the pieces it moves, captures and removes, whether it splits
/// `opp`, and whether it wins.
fn write_effects(opp: Color, effects: &Effects, out: &mut String) {
    let moved: Vec<String> = effects
        .moved
        .iter()
        .map(|(f, t)| format!("{f}->{t}"))
        .collect();
    let _ = writeln!(out, "moves: {}", moved.join(" "));
    let list = |v: &[Square]| {
        if v.is_empty() {
            "none".to_string()
        } else {
            v.iter()
                .map(|s| s.to_string())
                .collect::<Vec<_>>()
                .join(" ")
        }
    };
    let _ = writeln!(out, "captures: {}", list(&effects.captured));
    let _ = writeln!(
        out,
        "splits {opp}: {}",
        if effects.splits_opponent { "yes" } else { "no" }
    );
    let _ = writeln!(out, "removes: {}", list(&effects.removed));
    match effects.status {
        Status::Won { winner, reason } => {
            let _ = writeln!(
                out,
                "wins: {winner} wins ({}, {})",
                reason.name(),
                headline(reason.clause())
            );
        }
        Status::Ongoing => {
            let _ = writeln!(out, "wins: no");
        }
    }
}
