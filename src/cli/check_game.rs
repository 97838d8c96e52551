//! `ordo check-game`: replay a game record (spec/game-record.md) with the reference engine and
//! judge every move; at the first illegal move, report every clause it violates (from the
//! adjudicator) and stop; finally report the status and whether the recorded result agrees.

use std::fmt::Write as _;
use std::path::PathBuf;

use super::CliError;
use crate::adjudicate::{adjudicate, Verdict};
use crate::notation::{echo, format_move, format_position, parse_record, RecordMove};
use crate::reference::Reference;
use crate::render::{self, Annotations};
use crate::rules::{clauses, Color, Engine, Status};
use crate::text::count;

/// Arguments of `ordo check-game`.
#[derive(clap::Args, Debug)]
pub struct CheckGameArgs {
    /// The game record to check (format: spec/game-record.md).
    pub file: PathBuf,
    /// Write a diagram (SVG) of the first illegal move, or of the final position, to this file.
    #[arg(long)]
    pub svg: Option<PathBuf>,
}

/// Run `ordo check-game`: exit 0 when every move is legal and the recorded result (if any)
/// agrees, 1 otherwise, 2 when the file cannot be read.
pub fn run(args: &CheckGameArgs, out: &mut String) -> Result<u8, CliError> {
    let name = args.file.display();
    let text = read_record(&args.file)?;
    let rec = parse_record(&text).map_err(|e| CliError(format!("{name}: {e}")))?;
    let mut engine = Reference::from_position(&rec.start)
        .map_err(|e| CliError(format!("{name}: start position: {e}")))?;
    for key in ["Event", "White", "Black", "Source", "Date"] {
        if let Some(v) = rec.header(key) {
            let _ = writeln!(out, "{key}: {}", echo(v));
        }
    }
    let _ = writeln!(out, "start: {}", format_position(&rec.start));
    let total = rec.moves.len();
    for (i, rm) in rec.moves.iter().enumerate() {
        let n = i + 1;
        let side = engine.side_to_move();
        let status = engine.status();
        if status.is_over() {
            let at = move_place(n, &engine, rm);
            let _ = writeln!(
                out,
                "{at} '{}': illegal: the game is already over ({status})",
                echo(&rm.text)
            );
            quote(out, "ORDO-10.5", "a decided game has no legal moves");
            let _ = writeln!(
                out,
                "result: {n} of {} legal before the game ended",
                count(total, "move")
            );
            return Ok(1);
        }
        let Some(m) = engine.resolve(&rm.mv) else {
            report_illegal(args, n, &engine, rm, out)?;
            let _ = writeln!(out, "result: move {n} of {total} is illegal");
            return Ok(1);
        };
        let canonical = format_move(&m);
        if canonical == rm.text {
            let _ = writeln!(out, "{n}. {side} {canonical}: legal");
        } else {
            let _ = writeln!(out, "{n}. {side} {} (= {canonical}): legal", echo(&rm.text));
        }
        engine = engine.apply(&m);
    }
    report_end(args, &engine, total, rec.result.as_deref(), out)
}

/// Where recorded move `n` stands: its number, the side making it, its line and column.
fn move_place(n: usize, engine: &Reference, rm: &RecordMove) -> String {
    let side = engine.side_to_move();
    format!("move {n} ({side}, line {}, column {})", rm.line, rm.column)
}

/// Report recorded move `n`, which the reference engine finds illegal: every clause the
/// adjudicator says it breaks, and the diagram if asked for.
fn report_illegal(
    args: &CheckGameArgs,
    n: usize,
    engine: &Reference,
    rm: &RecordMove,
    out: &mut String,
) -> Result<(), CliError> {
    let pos = engine.to_position();
    let at = move_place(n, engine, rm);
    let _ = writeln!(
        out,
        "{at} '{}': illegal in {}",
        echo(&rm.text),
        format_position(&pos)
    );
    match adjudicate(&pos, &rm.mv) {
        Verdict::Illegal { violations } => {
            for v in &violations {
                quote(out, &v.clause.to_string(), &v.detail);
            }
        }
        Verdict::Legal { .. } => {
            let _ = writeln!(
                out,
                "  the adjudicator finds this move legal but the reference engine does not: please report this disagreement"
            );
        }
    }
    if let Some(path) = &args.svg {
        let notes = Annotations {
            title: Some(format!("move {n} {}: illegal", echo(&rm.text))),
            ..Annotations::default()
        };
        write_svg(path, &render::svg(&pos, Some(&rm.mv), &notes), out)?;
    }
    Ok(())
}

/// Report the end of a game whose `total` moves were all legal: the final position, its
/// status, whether the `recorded` result agrees (exit status 0) or not (1).
fn report_end(
    args: &CheckGameArgs,
    engine: &Reference,
    total: usize,
    recorded: Option<&str>,
    out: &mut String,
) -> Result<u8, CliError> {
    let status = engine.status();
    let _ = writeln!(out, "final: {}", format_position(&engine.to_position()));
    let _ = writeln!(out, "status: {status}");
    if let Some(path) = &args.svg {
        let notes = Annotations {
            title: Some(format!("after {}: {status}", count(total, "move"))),
            ..Annotations::default()
        };
        write_svg(path, &render::svg(&engine.to_position(), None, &notes), out)?;
    }
    if result_agrees(recorded, status) {
        let _ = writeln!(out, "result: all {} legal", count(total, "move"));
        Ok(0)
    } else {
        let _ = writeln!(
            out,
            "result: all {} legal, but the record says {} while the game is {status}",
            count(total, "move"),
            recorded.unwrap_or("")
        );
        Ok(1)
    }
}

/// Whether the `recorded` result (none or `*`: not stated) agrees with the game's `status`.
fn result_agrees(recorded: Option<&str>, status: Status) -> bool {
    let winner = match status {
        Status::Won { winner, .. } => Some(winner),
        Status::Ongoing => None,
    };
    match recorded {
        None | Some("*") => true,
        Some("1-0") => winner == Some(Color::White),
        Some("0-1") => winner == Some(Color::Black),
        Some(_) => false,
    }
}

/// Longest game record `check-game` reads, in bytes (spec/game-record.md): far more than any
/// game needs, and little enough that the replay's memory stays small.
pub const MAX_RECORD: u64 = 1 << 20;

/// The text of a game record, refused when longer than [`MAX_RECORD`] (read no further, so a
/// huge file or a device costs nothing).
fn read_record(path: &std::path::Path) -> Result<String, CliError> {
    let limit = crate::files::Limit {
        bytes: MAX_RECORD,
        kind: "a game record",
    };
    Ok(crate::files::read_text(path, limit)?)
}

/// A violated clause as the report shows it: id, title, what broke it, the clause text and its
/// sources.
fn quote(out: &mut String, id: &str, detail: &str) {
    match clauses::get(id) {
        Some(c) => {
            let _ = writeln!(out, "  violates {} {}: {detail}", c.id, c.title);
            for line in clauses::quote(c).lines().skip(1) {
                let _ = writeln!(out, "  {line}");
            }
        }
        None => {
            let _ = writeln!(out, "  violates {id}: {detail}");
        }
    }
}

/// Write the diagram `svg` to `path` and say so.
fn write_svg(path: &std::path::Path, svg: &str, out: &mut String) -> Result<(), CliError> {
    super::write_file(path, svg)?;
    let _ = writeln!(out, "diagram: {}", echo(&path.display().to_string()));
    Ok(())
}
