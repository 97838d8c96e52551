//! Diagrams: a Unicode board for the terminal and SVG files, with coordinates, home rows, the
//! move drawn as arrows, and captured and removed pieces marked.
//!
//! Both diagrams follow the conventions of the rules and the notation (spec/notation.md): columns
//! are lettered from White's left, `a` first, and rows numbered from White's side (ORDO-1.2);
//! White's home row, row 1, is drawn at the bottom and Black's home row, the last row, at the
//! top (ORDO-1.3). They describe geometry only: a move is drawn as given, legal or not, and
//! nothing here panics on squares that lie off the board (they are left out, or an arrow is cut
//! at the board's edge).

mod svg;
mod unicode;

use ordo_core::notation::format_move;
use ordo_core::rules::{Dims, Move, Position, Square};

/// What to mark besides the pieces.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Annotations {
    /// Squares whose piece the move captures (drawn on the position before the move).
    pub captured: Vec<Square>,
    /// Squares whose piece is removed with a smaller or unchosen group (ORDOX-4.1).
    pub removed: Vec<Square>,
    /// A caption, e.g. the verdict.
    pub title: Option<String>,
}

/// An SVG document of `pos` (the position before `mv`, if a move is given).
///
/// A self-contained document (`xmlns="http://www.w3.org/2000/svg"`, a `viewBox`) whose elements
/// carry machine-readable attributes:
///
/// - `<svg data-board="10x8" data-position="…" data-move="…">` on the root;
/// - `<rect class="square light|dark" data-square="a1">` for every square, a1 dark;
/// - `<text class="coord col">a</text>` under each column and `<text class="coord row">1</text>`
///   left of each row (ORDO-1.2);
/// - `<rect class="home-row white|black" data-row="1">` tinting each home row and
///   `<text class="home-row-label white|black">White's home row</text>` beside it (ORDO-1.3);
/// - `<circle class="piece white|black" data-square="c3">` for every piece;
/// - `<rect class="origin|landing" data-square="…">` highlighting the squares a move leaves and
///   reaches;
/// - `<line class="arrow" data-step="1|2" data-from="e3" data-to="f3">` per moved piece per
///   step, the second step of an Ordo X turn dashed and in another colour; an arrow that would
///   leave the board stops at its edge and has `data-to="off-board"`;
/// - `<g class="captured" data-square="…">` (a red cross) and `<circle class="removed"
///   data-square="…">` (a dashed ring);
/// - `<text class="title">` at the top when `notes.title` is set, and `<text class="caption">`
///   at the bottom naming the side to move, the game and the move.
pub fn svg(pos: &Position, mv: Option<&Move>, notes: &Annotations) -> String {
    svg::render(pos, mv, notes)
}

/// A Unicode board of `pos` for the terminal.
///
/// `●` is a black piece, `○` a white one, `·` an empty square; the board is framed with
/// box-drawing characters, the rows run from the last row at the top down to row 1 with their
/// numbers on both sides, the column letters above and below (ORDO-1.2), and the home rows are
/// marked at the end of their lines (ORDO-1.3). With a move, the squares it leaves are shown as
/// `[●]`, the squares it reaches as `(·)`, a square that is both as `{●}`; captured pieces as
/// `×●×` and removed ones as `~●~`; the move, its arrows and the captured and removed squares
/// are listed under the board. The output is deterministic, every line ends with a newline and
/// none has trailing spaces.
pub fn unicode(pos: &Position, mv: Option<&Move>, notes: &Annotations) -> String {
    unicode::render(pos, mv, notes)
}

/// Escape text for HTML or XML character data and attribute values: `& < > " '` as entities
/// (the apostrophe as `&#39;`, which both read). The SVG diagrams and the server's HTML pages
/// share it.
///
/// ```
/// assert_eq!(
///     ordo_render::escape_markup(r#"<a href="x">Tom & Jerry's</a>"#),
///     "&lt;a href=&quot;x&quot;&gt;Tom &amp; Jerry&#39;s&lt;/a&gt;"
/// );
/// ```
pub fn escape_markup(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for ch in s.chars() {
        match ch {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// One arrow of a drawn move: a moved piece going from `from` to `to` in step `step` (1 or 2).
/// Coordinates are (column, row), 0-based, and may lie off the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Arrow {
    step: u8,
    from: (i16, i16),
    to: (i16, i16),
}

/// The arrows of a move: one per moved piece per step (ORDO-6.1 singletons, ORDO-7.1 ordo runs,
/// ORDOX-3.1 two-step turns). An ordo whose ends do not lie on one row or column is drawn as one
/// arrow from its first end.
fn arrows(mv: &Move) -> Vec<Arrow> {
    let mut out = Vec::new();
    for (i, step) in mv.steps().enumerate() {
        let (dc, dr) = step.displacement();
        let moved = step.moved_squares().unwrap_or_else(|| vec![step.origin()]);
        for sq in moved {
            let from = (sq.col as i16, sq.row as i16);
            out.push(Arrow {
                step: i as u8 + 1,
                from,
                to: (from.0 + dc, from.1 + dr),
            });
        }
    }
    out
}

/// The square at (column, row) if it is on the board.
fn on_board(dims: Dims, (c, r): (i16, i16)) -> Option<Square> {
    if (0..dims.cols as i16).contains(&c) && (0..dims.rows as i16).contains(&r) {
        Some(Square::new(c as u8, r as u8))
    } else {
        None
    }
}

/// The name of a point on the board (`e3`), or `off-board`.
fn point_name(dims: Dims, p: (i16, i16)) -> String {
    on_board(dims, p).map_or_else(|| "off-board".to_string(), |s| s.to_string())
}

/// The move in the notation of spec/notation.md, or a description when it names squares off the
/// board (which the notation may not be able to spell).
fn move_text(dims: Dims, mv: &Move) -> String {
    if mv.off_board_square(dims).is_none() {
        format_move(mv)
    } else {
        "a move naming squares off the board".to_string()
    }
}

/// The annotated squares that lie on the board, sorted, each once.
fn on_board_squares(dims: Dims, squares: &[Square]) -> Vec<Square> {
    let mut v: Vec<Square> = squares
        .iter()
        .copied()
        .filter(|&q| dims.contains(q))
        .collect();
    v.sort_by_key(|&q| dims.index(q));
    v.dedup();
    v
}
