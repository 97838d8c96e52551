//! The Unicode board (see [`super::unicode`]).

use ordo_core::rules::{Color, Dims, Move, Position, Square};
use ordo_core::text::count;

use super::{arrows, move_text, on_board, on_board_squares, point_name, Annotations, Arrow};

/// How a square is marked: the characters either side of its piece.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mark {
    Plain,
    Origin,
    Landing,
    Both,
    Captured,
    Removed,
}

impl Mark {
    fn brackets(self) -> (char, char) {
        match self {
            Mark::Plain => (' ', ' '),
            Mark::Origin => ('[', ']'),
            Mark::Landing => ('(', ')'),
            Mark::Both => ('{', '}'),
            Mark::Captured => ('×', '×'),
            Mark::Removed => ('~', '~'),
        }
    }

    fn legend(self) -> &'static str {
        match self {
            Mark::Plain => "",
            Mark::Origin => "[ ] leaves",
            Mark::Landing => "( ) reaches",
            Mark::Both => "{ } leaves and reaches",
            Mark::Captured => "× × captured",
            Mark::Removed => "~ ~ removed",
        }
    }
}

fn glyph(piece: Option<Color>) -> char {
    match piece {
        Some(Color::White) => '○',
        Some(Color::Black) => '●',
        None => '·',
    }
}

pub(super) fn render(pos: &Position, mv: Option<&Move>, notes: &Annotations) -> String {
    let dims = pos.dims();
    let arrows = mv.map(arrows).unwrap_or_default();
    let captured = on_board_squares(dims, &notes.captured);
    let removed = on_board_squares(dims, &notes.removed);
    let marks = square_marks(dims, &arrows, &captured, &removed);
    let mut lines: Vec<String> = Vec::new();
    lines.extend(title_line(notes));
    lines.extend(board_lines(pos, &marks));
    lines.push(format!(
        "{} to move, {}; White {}, Black {}",
        pos.to_move,
        pos.variant.game_name(),
        count(pos.count(Color::White), "piece"),
        count(pos.count(Color::Black), "piece")
    ));
    if let Some(m) = mv {
        lines.extend(move_lines(dims, m, &arrows));
    }
    let list = |v: &[Square]| {
        v.iter()
            .map(Square::to_string)
            .collect::<Vec<_>>()
            .join(" ")
    };
    if !captured.is_empty() {
        lines.push(format!("captured: {}", list(&captured)));
    }
    if !removed.is_empty() {
        lines.push(format!("removed: {}", list(&removed)));
    }
    lines.extend(legend_line(&marks));
    let mut out = String::new();
    for l in lines {
        out.push_str(l.trim_end());
        out.push('\n');
    }
    out
}

/// The mark of every square: origins and landings of the move's arrows, then removed and
/// captured pieces (which win).
fn square_marks(
    dims: Dims,
    arrows: &[Arrow],
    captured: &[Square],
    removed: &[Square],
) -> Vec<Mark> {
    let mut marks = vec![Mark::Plain; dims.len()];
    for a in arrows {
        for (p, is_origin) in [(a.from, true), (a.to, false)] {
            if let Some(sq) = on_board(dims, p) {
                let m = &mut marks[dims.index(sq)];
                *m = match (*m, is_origin) {
                    (Mark::Plain | Mark::Origin, true) => Mark::Origin,
                    (Mark::Plain | Mark::Landing, false) => Mark::Landing,
                    _ => Mark::Both,
                };
            }
        }
    }
    for &sq in removed {
        marks[dims.index(sq)] = Mark::Removed;
    }
    for &sq in captured {
        marks[dims.index(sq)] = Mark::Captured;
    }
    marks
}

/// The title, on one line, with no control characters that a terminal would act on.
fn title_line(notes: &Annotations) -> Option<String> {
    let t = notes
        .title
        .as_deref()
        .map(str::trim)
        .filter(|t| !t.is_empty())?;
    let one_line = t.split_whitespace().collect::<Vec<_>>().join(" ");
    Some(
        one_line
            .chars()
            .map(|c| if c.is_control() { '\u{FFFD}' } else { c })
            .collect(),
    )
}

/// The framed board with column letters above and below, row numbers on both sides and the
/// home rows named (ORDO-1.3: row 1 is White's home row, the last row Black's).
fn board_lines(pos: &Position, marks: &[Mark]) -> Vec<String> {
    let dims = pos.dims();
    let mut letters = String::from("    ");
    for c in 0..dims.cols {
        letters.push(' ');
        letters.push(Square::new(c, 0).col_char());
        letters.push(' ');
    }
    let rule = "─".repeat(3 * dims.cols as usize);
    // Width of the row numbers right of the board, so the home-row marks line up.
    let num_w = if dims.rows >= 10 { 2 } else { 1 };
    let mut lines = vec![letters.clone(), format!("   ┌{rule}┐")];
    for r in (0..dims.rows).rev() {
        let n = r as u32 + 1;
        let mut l = format!("{n:>2} │");
        for c in 0..dims.cols {
            let sq = Square::new(c, r);
            let (open, close) = marks[dims.index(sq)].brackets();
            l.push(open);
            l.push(glyph(pos.get(sq)));
            l.push(close);
        }
        l.push_str(&format!("│ {n:<w$}", w = num_w));
        if r == Color::Black.home_row(dims) {
            l.push_str("  ← Black's home row");
        } else if r == Color::White.home_row(dims) {
            l.push_str("  ← White's home row");
        }
        lines.push(l);
    }
    lines.push(format!("   └{rule}┘"));
    lines.push(letters);
    lines
}

/// The move and, for each step, where its pieces go.
fn move_lines(dims: Dims, m: &Move, arrows: &[Arrow]) -> Vec<String> {
    let mut lines = vec![format!("move: {}", move_text(dims, m))];
    for step in 1..=2u8 {
        let parts: Vec<String> = arrows
            .iter()
            .filter(|a| a.step == step)
            .map(|a| format!("{} → {}", point_name(dims, a.from), point_name(dims, a.to)))
            .collect();
        if !parts.is_empty() {
            lines.push(format!("  step {step}: {}", parts.join(", ")));
        }
    }
    lines
}

/// The legend of the marks used, if any.
fn legend_line(marks: &[Mark]) -> Option<String> {
    let used: Vec<&str> = [
        Mark::Origin,
        Mark::Landing,
        Mark::Both,
        Mark::Captured,
        Mark::Removed,
    ]
    .into_iter()
    .filter(|m| marks.contains(m))
    .map(Mark::legend)
    .collect();
    (!used.is_empty()).then(|| format!("marks: {}", used.join(", ")))
}
