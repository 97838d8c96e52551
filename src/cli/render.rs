//! `ordo render`: Unicode and SVG diagrams.
//!
//! `ordo render [MOVE] [--position P] [--variant V] [--board 10x8|8x8] [--svg FILE]
//! [--title T]` (the move also as `--move MOVE`, the older spelling) draws the position (and
//! the move, as arrows) as a Unicode board on standard output, or writes it as an SVG file. The move is drawn as given, legal or not: a diagram may
//! show a disputed move. Its squares must lie on the board. A capture step marks the captured
//! square when an opponent piece stands there; when the move is legal, the pieces it removes with
//! their group (ORDOX-4.1) are marked too.

use std::path::PathBuf;

use super::{start_position, CliError, MoveArg, StartArgs};
use crate::reference::Reference;
use crate::render::{self, Annotations};
use crate::rules::{Engine, Move, Position, Square, Step};

/// Arguments of `ordo render`.
#[derive(clap::Args, Debug)]
#[command(mut_arg("mv", |a| a.help("A move to draw, in the notation of spec/notation.md (need not be legal)")))]
pub struct RenderArgs {
    #[command(flatten)]
    pub mv: MoveArg,
    #[command(flatten)]
    pub at: StartArgs,
    /// Write an SVG file here instead of printing the Unicode board.
    #[arg(long)]
    pub svg: Option<PathBuf>,
    /// A caption drawn above the board.
    #[arg(long)]
    pub title: Option<String>,
}

/// Run `ordo render`.
pub fn run(args: &RenderArgs, out: &mut String) -> Result<u8, CliError> {
    let pos = start_position(&args.at)?;
    let dims = pos.dims();
    let mv = match args.mv.read()? {
        None => None,
        Some(given) => {
            if let Some(off) = given.mv.off_board_square(dims) {
                return Err(CliError(format!(
                    "{} '{}': square {off} is off the {dims} board",
                    given.name,
                    given.text.trim()
                )));
            }
            Some(given.mv)
        }
    };
    let notes = Annotations {
        captured: mv.as_ref().map(|m| captured(&pos, m)).unwrap_or_default(),
        removed: mv.as_ref().map(|m| removed(&pos, m)).unwrap_or_default(),
        title: args.title.clone(),
    };
    match &args.svg {
        None => out.push_str(&render::unicode(&pos, mv.as_ref(), &notes)),
        Some(path) => {
            let text = render::svg(&pos, mv.as_ref(), &notes);
            super::write_file(path, &text)?;
            out.push_str(&format!("wrote {}\n", path.display()));
        }
    }
    Ok(0)
}

/// The squares a move's capture steps land on while an opponent piece stands there (ORDO-6.3),
/// following the steps geometrically on the board (the second step of an Ordo X turn on the
/// board as it stands after the first). Legality is not checked.
fn captured(pos: &Position, mv: &Move) -> Vec<Square> {
    let dims = pos.dims();
    let mut board = pos.clone();
    let mut out = Vec::new();
    for step in mv.steps() {
        if let Step::Single {
            from,
            to,
            capture: true,
            ..
        } = *step
        {
            let mover = board.get(from).unwrap_or(pos.to_move);
            if board.get(to) == Some(mover.opponent()) && !out.contains(&to) {
                out.push(to);
            }
        }
        // Move the pieces: lift them all, then set them down where they land.
        let (dc, dr) = step.displacement();
        let moved = step.moved_squares().unwrap_or_else(|| vec![step.origin()]);
        let lifted: Vec<_> = moved
            .iter()
            .filter(|q| dims.contains(**q))
            .map(|&q| {
                let piece = board.get(q);
                board.set(q, None);
                (q, piece)
            })
            .collect();
        for (q, piece) in lifted {
            if let Some(land) = dims.offset(q, clamp_i8(dc), clamp_i8(dr)) {
                if piece.is_some() {
                    board.set(land, piece);
                }
            }
        }
    }
    out
}

fn clamp_i8(v: i16) -> i8 {
    v.clamp(i8::MIN as i16, i8::MAX as i16) as i8
}

/// The opponent pieces a legal move removes besides the captured ones (ORDOX-4.1), found by
/// playing it on the reference engine; nothing when the position cannot be loaded or the move
/// is not legal.
fn removed(pos: &Position, mv: &Move) -> Vec<Square> {
    let Ok(engine) = Reference::from_position(pos) else {
        return Vec::new();
    };
    let Some(legal) = engine.resolve(mv) else {
        return Vec::new();
    };
    let after = engine.apply(&legal).to_position();
    let opponent = pos.to_move.opponent();
    let captured = captured(pos, &legal);
    pos.pieces(opponent)
        .into_iter()
        .filter(|&q| after.get(q) != Some(opponent) && !captured.contains(&q))
        .collect()
}
