//! The SVG diagram (see [`super::svg`]).

use std::fmt::Write;

use crate::notation::format_position;
use crate::rules::{Color, Move, Position, Square};

use super::{arrows, game_name, move_text, on_board, on_board_squares, point_name, Annotations};

/// Side of a square, in SVG user units.
const SQ: i32 = 48;
/// Blank space around everything.
const PAD: i32 = 12;
/// Width of the column of row numbers left of the board.
const NUM_W: i32 = 24;
/// Height of the line of column letters under the board.
const LETTER_H: i32 = 22;
/// Gap between the board and the home-row labels, and the labels' width.
const LABEL_GAP: i32 = 10;
const LABEL_W: i32 = 124;
/// Height of the title line and of the caption line.
const TITLE_H: i32 = 32;
const CAPTION_H: i32 = 20;

const LIGHT: &str = "#f0d9b5";
const DARK: &str = "#b58863";
const ARROW_COLOURS: [&str; 2] = ["#1565c0", "#e65100"];

/// Escape text for XML character data and attribute values. Characters XML 1.0 does not allow
/// (most control characters) become U+FFFD; line breaks and tabs become spaces.
pub(super) fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for ch in s.chars() {
        match ch {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\t' | '\n' | '\r' => out.push(' '),
            c if (c as u32) < 0x20 || c == '\u{FFFE}' || c == '\u{FFFF}' => out.push('\u{FFFD}'),
            c => out.push(c),
        }
    }
    out
}

/// A rough width of `text` at a font size, for sizing the document.
fn text_width(text: &str, font_size: i32) -> i32 {
    text.chars().count() as i32 * font_size * 6 / 10
}

pub(super) fn render(pos: &Position, mv: Option<&Move>, notes: &Annotations) -> String {
    let dims = pos.dims();
    let (cols, rows) = (dims.cols as i32, dims.rows as i32);
    let title = notes
        .title
        .as_deref()
        .map(str::trim)
        .filter(|t| !t.is_empty());

    let board_x = PAD + NUM_W;
    let board_y = PAD + if title.is_some() { TITLE_H } else { 0 };
    let (board_w, board_h) = (cols * SQ, rows * SQ);
    let caption = {
        let mut c = format!("{} to move, {}", pos.to_move, game_name(pos));
        if let Some(m) = mv {
            c.push_str(&format!("; move {}", move_text(dims, m)));
        }
        c
    };
    let caption_y = board_y + board_h + LETTER_H + CAPTION_H - 4;
    let height = caption_y + PAD;
    let width = (board_x + board_w + LABEL_GAP + LABEL_W + PAD)
        .max(2 * PAD + text_width(&caption, 13))
        .max(2 * PAD + title.map_or(0, |t| text_width(t, 18)));

    // Pixel centre of a (column, row) point; the last row is at the top (ORDO-1.2).
    let centre = |(c, r): (i16, i16)| -> (i32, i32) {
        (
            board_x + c as i32 * SQ + SQ / 2,
            board_y + (rows - 1 - r as i32) * SQ + SQ / 2,
        )
    };
    let corner = |sq: Square| -> (i32, i32) {
        (
            board_x + sq.col as i32 * SQ,
            board_y + (rows - 1 - sq.row as i32) * SQ,
        )
    };

    let mut s = String::new();
    s.push_str("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let _ = write!(
        s,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" \
         viewBox=\"0 0 {width} {height}\" font-family=\"sans-serif\" data-board=\"{dims}\" \
         data-position=\"{}\"",
        escape(&format_position(pos))
    );
    if let Some(m) = mv {
        let _ = write!(s, " data-move=\"{}\"", escape(&move_text(dims, m)));
    }
    s.push_str(">\n");
    let _ = writeln!(
        s,
        "<title>{}</title>",
        escape(title.unwrap_or(&format!("{dims} {} diagram", game_name(pos))))
    );
    let _ = writeln!(s, "<desc>{}</desc>", escape(&caption));

    // Arrowheads, one per step colour.
    s.push_str("<defs>\n");
    for (i, colour) in ARROW_COLOURS.iter().enumerate() {
        let _ = writeln!(
            s,
            "<marker id=\"ordo-arrowhead-{}\" viewBox=\"0 0 10 10\" refX=\"8\" refY=\"5\" \
             markerWidth=\"4\" markerHeight=\"4\" orient=\"auto\">\
             <path d=\"M0,0 L10,5 L0,10 z\" fill=\"{colour}\"/></marker>",
            i + 1
        );
    }
    s.push_str("</defs>\n");
    let _ = writeln!(
        s,
        "<rect class=\"background\" x=\"0\" y=\"0\" width=\"{width}\" height=\"{height}\" fill=\"#ffffff\"/>"
    );

    if let Some(t) = title {
        let _ = writeln!(
            s,
            "<text class=\"title\" x=\"{}\" y=\"{}\" font-size=\"18\" font-weight=\"bold\" \
             text-anchor=\"middle\">{}</text>",
            width / 2,
            PAD + 18,
            escape(t)
        );
    }

    // The squares, a1 dark.
    s.push_str("<g class=\"board\">\n");
    for sq in dims.squares() {
        let (x, y) = corner(sq);
        let (shade, fill) = if (sq.col + sq.row) % 2 == 0 {
            ("dark", DARK)
        } else {
            ("light", LIGHT)
        };
        let _ = writeln!(
            s,
            "<rect class=\"square {shade}\" data-square=\"{sq}\" x=\"{x}\" y=\"{y}\" \
             width=\"{SQ}\" height=\"{SQ}\" fill=\"{fill}\"/>"
        );
    }
    let _ = writeln!(
        s,
        "<rect class=\"frame\" x=\"{board_x}\" y=\"{board_y}\" width=\"{board_w}\" \
         height=\"{board_h}\" fill=\"none\" stroke=\"#333333\" stroke-width=\"2\"/>"
    );
    s.push_str("</g>\n");

    // Home rows (ORDO-1.3): a tinted band and a label beside the board.
    for color in Color::ALL {
        let row = color.home_row(dims);
        let (x, y) = corner(Square::new(0, row));
        let (tint, label) = match color {
            Color::White => ("#4fc3f7", "White's home row"),
            Color::Black => ("#7e57c2", "Black's home row"),
        };
        let _ = writeln!(
            s,
            "<rect class=\"home-row {}\" data-row=\"{}\" x=\"{x}\" y=\"{y}\" width=\"{board_w}\" \
             height=\"{SQ}\" fill=\"{tint}\" fill-opacity=\"0.25\"/>",
            color.name(),
            row as u32 + 1
        );
        let _ = writeln!(
            s,
            "<text class=\"home-row-label {}\" data-row=\"{}\" x=\"{}\" y=\"{}\" font-size=\"13\" \
             fill=\"#333333\">{label}</text>",
            color.name(),
            row as u32 + 1,
            board_x + board_w + LABEL_GAP,
            y + SQ / 2 + 5
        );
    }

    // Coordinates (ORDO-1.2): letters under the columns, numbers left of the rows.
    for c in 0..dims.cols {
        let (x, _) = centre((c as i16, 0));
        let _ = writeln!(
            s,
            "<text class=\"coord col\" x=\"{x}\" y=\"{}\" font-size=\"14\" text-anchor=\"middle\">{}</text>",
            board_y + board_h + 17,
            Square::new(c, 0).col_char()
        );
    }
    for r in 0..dims.rows {
        let (_, y) = centre((0, r as i16));
        let _ = writeln!(
            s,
            "<text class=\"coord row\" x=\"{}\" y=\"{}\" font-size=\"14\" text-anchor=\"middle\">{}</text>",
            PAD + NUM_W / 2 - 2,
            y + 5,
            r as u32 + 1
        );
    }

    let arrows = mv.map(arrows).unwrap_or_default();

    // Squares the move leaves and reaches.
    let mut marked: Vec<(&str, Square)> = Vec::new();
    for a in &arrows {
        for (class, p) in [("origin", a.from), ("landing", a.to)] {
            if let Some(sq) = on_board(dims, p) {
                if !marked.contains(&(class, sq)) {
                    marked.push((class, sq));
                }
            }
        }
    }
    for (class, sq) in &marked {
        let (x, y) = corner(*sq);
        let fill = if *class == "origin" {
            "#fff176"
        } else {
            "#aed581"
        };
        let _ = writeln!(
            s,
            "<rect class=\"{class}\" data-square=\"{sq}\" x=\"{}\" y=\"{}\" width=\"{}\" \
             height=\"{}\" fill=\"{fill}\" fill-opacity=\"0.6\"/>",
            x + 2,
            y + 2,
            SQ - 4,
            SQ - 4
        );
    }

    // Pieces.
    s.push_str("<g class=\"pieces\">\n");
    for sq in dims.squares() {
        let Some(color) = pos.get(sq) else { continue };
        let (cx, cy) = centre((sq.col as i16, sq.row as i16));
        let (fill, stroke) = match color {
            Color::White => ("#ffffff", "#222222"),
            Color::Black => ("#222222", "#000000"),
        };
        let _ = writeln!(
            s,
            "<circle class=\"piece {}\" data-square=\"{sq}\" cx=\"{cx}\" cy=\"{cy}\" r=\"{}\" \
             fill=\"{fill}\" stroke=\"{stroke}\" stroke-width=\"2\"/>",
            color.name(),
            SQ * 2 / 5
        );
    }
    s.push_str("</g>\n");

    // Removed pieces (ORDOX-4.1): a dashed ring; captured pieces: a red cross.
    for sq in on_board_squares(dims, &notes.removed) {
        let (cx, cy) = centre((sq.col as i16, sq.row as i16));
        let _ = writeln!(
            s,
            "<circle class=\"removed\" data-square=\"{sq}\" cx=\"{cx}\" cy=\"{cy}\" r=\"{}\" \
             fill=\"none\" stroke=\"#d32f2f\" stroke-width=\"3\" stroke-dasharray=\"5 4\"/>",
            SQ / 2 - 2
        );
    }
    for sq in on_board_squares(dims, &notes.captured) {
        let (cx, cy) = centre((sq.col as i16, sq.row as i16));
        let d = SQ * 3 / 10;
        let _ = writeln!(
            s,
            "<g class=\"captured\" data-square=\"{sq}\" stroke=\"#d32f2f\" stroke-width=\"5\" \
             stroke-linecap=\"round\"><line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\"/>\
             <line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\"/></g>",
            cx - d,
            cy - d,
            cx + d,
            cy + d,
            cx - d,
            cy + d,
            cx + d,
            cy - d
        );
    }

    // Arrows, from origin centre to landing centre, cut at the board's edge. When the pieces
    // of an ordo run move along the run, their arrows would lie on one line: they are spread
    // apart sideways.
    let rect = (board_x, board_y, board_x + board_w, board_y + board_h);
    for (i, a) in arrows.iter().enumerate() {
        let (mut x1, mut y1) = clamp_point(centre(a.from), rect);
        let (mut x2, mut y2) = cut(centre(a.from), centre(a.to), rect);
        let same_step: Vec<usize> = (0..arrows.len())
            .filter(|&j| arrows[j].step == a.step)
            .collect();
        let n = same_step.len();
        let (dc, dr) = (a.to.0 - a.from.0, a.to.1 - a.from.1);
        if n > 1 && (dc, dr) != (0, 0) {
            let (f0, f1) = (arrows[same_step[0]].from, arrows[same_step[1]].from);
            let (rc, rr) = (f1.0 - f0.0, f1.1 - f0.1);
            if rc * dr == rr * dc {
                // Pixel direction (dc, -dr); its perpendicular (dr, dc).
                let k = same_step.iter().position(|&j| j == i).unwrap_or(0) as f64;
                let spacing = (6.0f64).min(30.0 / (n - 1) as f64);
                let shift = (k - (n - 1) as f64 / 2.0) * spacing;
                let len = ((dc * dc + dr * dr) as f64).sqrt();
                let ox = (shift * dr as f64 / len).round() as i32;
                let oy = (shift * dc as f64 / len).round() as i32;
                (x1, y1, x2, y2) = (x1 + ox, y1 + oy, x2 + ox, y2 + oy);
            }
        }
        let colour = ARROW_COLOURS[(a.step as usize - 1).min(1)];
        let dash = if a.step > 1 {
            " stroke-dasharray=\"9 5\""
        } else {
            ""
        };
        let _ = writeln!(
            s,
            "<line class=\"arrow\" data-step=\"{}\" data-from=\"{}\" data-to=\"{}\" x1=\"{x1}\" \
             y1=\"{y1}\" x2=\"{x2}\" y2=\"{y2}\" stroke=\"{colour}\" stroke-width=\"5\" \
             stroke-linecap=\"round\" stroke-opacity=\"0.85\"{dash} \
             marker-end=\"url(#ordo-arrowhead-{})\"/>",
            a.step,
            point_name(dims, a.from),
            point_name(dims, a.to),
            a.step.min(2)
        );
    }

    let _ = writeln!(
        s,
        "<text class=\"caption\" x=\"{PAD}\" y=\"{caption_y}\" font-size=\"13\" fill=\"#333333\">{}</text>",
        escape(&caption)
    );
    s.push_str("</svg>\n");
    s
}

/// A point moved into the rectangle `(left, top, right, bottom)`.
fn clamp_point((x, y): (i32, i32), (l, t, r, b): (i32, i32, i32, i32)) -> (i32, i32) {
    (x.clamp(l, r), y.clamp(t, b))
}

/// Where the segment from `from` towards `to` leaves the rectangle `(left, top, right, bottom)`:
/// `to` itself when it lies inside, else the last point of the segment inside (with `from`
/// clamped into the rectangle first).
fn cut(from: (i32, i32), to: (i32, i32), rect: (i32, i32, i32, i32)) -> (i32, i32) {
    let (l, t, r, b) = rect;
    if (l..=r).contains(&to.0) && (t..=b).contains(&to.1) {
        return to;
    }
    let from = clamp_point(from, rect);
    let (dx, dy) = ((to.0 - from.0) as f64, (to.1 - from.1) as f64);
    let mut k = 1.0f64;
    for (d, p, lo, hi) in [(dx, from.0, l, r), (dy, from.1, t, b)] {
        if d > 0.0 {
            k = k.min((hi - p) as f64 / d);
        } else if d < 0.0 {
            k = k.min((lo - p) as f64 / d);
        }
    }
    let k = k.max(0.0);
    clamp_point(
        (
            from.0 + (dx * k).round() as i32,
            from.1 + (dy * k).round() as i32,
        ),
        rect,
    )
}
