//! The SVG diagram (see [`super::svg`]).

use std::fmt::Write;

use ordo_core::notation::format_position;
use ordo_core::rules::{Color, Dims, Move, Position, Square};

use super::{arrows, move_text, on_board, on_board_squares, point_name, Annotations, Arrow};

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

/// Escape text for XML character data and attribute values ([`super::escape_markup`]).
/// Characters XML 1.0 does not allow (most control characters) become U+FFFD; line breaks and
/// tabs become spaces.
pub(super) fn escape(s: &str) -> String {
    let allowed: String = s
        .chars()
        .map(|ch| match ch {
            '\t' | '\n' | '\r' => ' ',
            c if (c as u32) < 0x20 || c == '\u{FFFE}' || c == '\u{FFFF}' => '\u{FFFD}',
            c => c,
        })
        .collect();
    super::escape_markup(&allowed)
}

/// A rough width of `text` at a font size, for sizing the document.
fn text_width(text: &str, font_size: i32) -> i32 {
    text.chars().count() as i32 * font_size * 6 / 10
}

pub(super) fn render(pos: &Position, mv: Option<&Move>, notes: &Annotations) -> String {
    let mut sheet = Sheet::new(pos, mv, notes);
    let arrows = mv.map(arrows).unwrap_or_default();
    sheet.header();
    sheet.squares();
    sheet.home_rows();
    sheet.coordinates();
    sheet.marks(&arrows);
    sheet.pieces();
    sheet.removed_and_captured();
    sheet.arrows(&arrows);
    sheet.footer();
    sheet.s
}

/// The document being written and its layout.
struct Sheet<'a> {
    pos: &'a Position,
    mv: Option<&'a Move>,
    notes: &'a Annotations,
    dims: Dims,
    title: Option<&'a str>,
    caption: String,
    board_x: i32,
    board_y: i32,
    board_w: i32,
    board_h: i32,
    caption_y: i32,
    width: i32,
    height: i32,
    s: String,
}

impl<'a> Sheet<'a> {
    /// The layout: title line, board with row numbers and home-row labels, column letters,
    /// caption; wide enough for the caption and the title.
    fn new(pos: &'a Position, mv: Option<&'a Move>, notes: &'a Annotations) -> Sheet<'a> {
        let dims = pos.dims();
        let title = notes
            .title
            .as_deref()
            .map(str::trim)
            .filter(|t| !t.is_empty());
        let board_x = PAD + NUM_W;
        let board_y = PAD + if title.is_some() { TITLE_H } else { 0 };
        let (board_w, board_h) = (dims.cols as i32 * SQ, dims.rows as i32 * SQ);
        let mut caption = format!("{} to move, {}", pos.to_move, pos.variant.game_name());
        if let Some(m) = mv {
            caption.push_str(&format!("; move {}", move_text(dims, m)));
        }
        let caption_y = board_y + board_h + LETTER_H + CAPTION_H - 4;
        let width = (board_x + board_w + LABEL_GAP + LABEL_W + PAD)
            .max(2 * PAD + text_width(&caption, 13))
            .max(2 * PAD + title.map_or(0, |t| text_width(t, 18)));
        Sheet {
            pos,
            mv,
            notes,
            dims,
            title,
            caption,
            board_x,
            board_y,
            board_w,
            board_h,
            caption_y,
            width,
            height: caption_y + PAD,
            s: String::new(),
        }
    }

    /// Pixel centre of a (column, row) point; the last row is at the top (ORDO-1.2).
    fn centre(&self, (c, r): (i16, i16)) -> (i32, i32) {
        (
            self.board_x + c as i32 * SQ + SQ / 2,
            self.board_y + (self.dims.rows as i32 - 1 - r as i32) * SQ + SQ / 2,
        )
    }

    /// Pixel top-left corner of a square.
    fn corner(&self, sq: Square) -> (i32, i32) {
        (
            self.board_x + sq.col as i32 * SQ,
            self.board_y + (self.dims.rows as i32 - 1 - sq.row as i32) * SQ,
        )
    }

    /// The XML prolog, the root element with its data attributes, title, description,
    /// arrowhead markers, background and the visible title line.
    fn header(&mut self) {
        let (dims, width, height) = (self.dims, self.width, self.height);
        let s = &mut self.s;
        s.push_str("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
        let _ = write!(
            s,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" \
             viewBox=\"0 0 {width} {height}\" font-family=\"sans-serif\" data-board=\"{dims}\" \
             data-position=\"{}\"",
            escape(&format_position(self.pos))
        );
        if let Some(m) = self.mv {
            let _ = write!(s, " data-move=\"{}\"", escape(&move_text(dims, m)));
        }
        s.push_str(">\n");
        let fallback = format!("{dims} {} diagram", self.pos.variant.game_name());
        let _ = writeln!(
            s,
            "<title>{}</title>",
            escape(self.title.unwrap_or(&fallback))
        );
        let _ = writeln!(s, "<desc>{}</desc>", escape(&self.caption));
        self.arrowheads();
        let s = &mut self.s;
        let _ = writeln!(
            s,
            "<rect class=\"background\" x=\"0\" y=\"0\" width=\"{width}\" height=\"{height}\" fill=\"#ffffff\"/>"
        );
        if let Some(t) = self.title {
            let _ = writeln!(
                s,
                "<text class=\"title\" x=\"{}\" y=\"{}\" font-size=\"18\" font-weight=\"bold\" \
                 text-anchor=\"middle\">{}</text>",
                width / 2,
                PAD + 18,
                escape(t)
            );
        }
    }

    /// Arrowheads, one per step colour.
    fn arrowheads(&mut self) {
        let s = &mut self.s;
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
    }

    /// The squares, a1 dark, and the frame.
    fn squares(&mut self) {
        let mut out = String::from("<g class=\"board\">\n");
        for sq in self.dims.squares() {
            let (x, y) = self.corner(sq);
            let (shade, fill) = if (sq.col + sq.row) % 2 == 0 {
                ("dark", DARK)
            } else {
                ("light", LIGHT)
            };
            let _ = writeln!(
                out,
                "<rect class=\"square {shade}\" data-square=\"{sq}\" x=\"{x}\" y=\"{y}\" \
                 width=\"{SQ}\" height=\"{SQ}\" fill=\"{fill}\"/>"
            );
        }
        let (board_x, board_y, board_w, board_h) =
            (self.board_x, self.board_y, self.board_w, self.board_h);
        let _ = writeln!(
            out,
            "<rect class=\"frame\" x=\"{board_x}\" y=\"{board_y}\" width=\"{board_w}\" \
             height=\"{board_h}\" fill=\"none\" stroke=\"#333333\" stroke-width=\"2\"/>"
        );
        out.push_str("</g>\n");
        self.s.push_str(&out);
    }

    /// Home rows (ORDO-1.3): a tinted band and a label beside the board.
    fn home_rows(&mut self) {
        let board_w = self.board_w;
        for color in Color::ALL {
            let row = color.home_row(self.dims);
            let (x, y) = self.corner(Square::new(0, row));
            let label_x = self.board_x + board_w + LABEL_GAP;
            let (tint, label) = match color {
                Color::White => ("#4fc3f7", "White's home row"),
                Color::Black => ("#7e57c2", "Black's home row"),
            };
            let _ = writeln!(
                self.s,
                "<rect class=\"home-row {}\" data-row=\"{}\" x=\"{x}\" y=\"{y}\" width=\"{board_w}\" \
                 height=\"{SQ}\" fill=\"{tint}\" fill-opacity=\"0.25\"/>",
                color.name(),
                row as u32 + 1
            );
            let _ = writeln!(
                self.s,
                "<text class=\"home-row-label {}\" data-row=\"{}\" x=\"{}\" y=\"{}\" font-size=\"13\" \
                 fill=\"#333333\">{label}</text>",
                color.name(),
                row as u32 + 1,
                label_x,
                y + SQ / 2 + 5
            );
        }
    }

    /// Coordinates (ORDO-1.2): letters under the columns, numbers left of the rows.
    fn coordinates(&mut self) {
        let letters_y = self.board_y + self.board_h + 17;
        for c in 0..self.dims.cols {
            let (x, _) = self.centre((c as i16, 0));
            let _ = writeln!(
                self.s,
                "<text class=\"coord col\" x=\"{x}\" y=\"{letters_y}\" font-size=\"14\" text-anchor=\"middle\">{}</text>",
                Square::new(c, 0).col_char()
            );
        }
        for r in 0..self.dims.rows {
            let (_, y) = self.centre((0, r as i16));
            let _ = writeln!(
                self.s,
                "<text class=\"coord row\" x=\"{}\" y=\"{}\" font-size=\"14\" text-anchor=\"middle\">{}</text>",
                PAD + NUM_W / 2 - 2,
                y + 5,
                r as u32 + 1
            );
        }
    }

    /// Squares the move leaves and reaches.
    fn marks(&mut self, arrows: &[Arrow]) {
        let mut marked: Vec<(&str, Square)> = Vec::new();
        for a in arrows {
            for (class, p) in [("origin", a.from), ("landing", a.to)] {
                if let Some(sq) = on_board(self.dims, p) {
                    if !marked.contains(&(class, sq)) {
                        marked.push((class, sq));
                    }
                }
            }
        }
        for (class, sq) in &marked {
            let (x, y) = self.corner(*sq);
            let fill = if *class == "origin" {
                "#fff176"
            } else {
                "#aed581"
            };
            let _ = writeln!(
                self.s,
                "<rect class=\"{class}\" data-square=\"{sq}\" x=\"{}\" y=\"{}\" width=\"{}\" \
                 height=\"{}\" fill=\"{fill}\" fill-opacity=\"0.6\"/>",
                x + 2,
                y + 2,
                SQ - 4,
                SQ - 4
            );
        }
    }

    /// The pieces.
    fn pieces(&mut self) {
        let mut out = String::from("<g class=\"pieces\">\n");
        for sq in self.dims.squares() {
            let Some(color) = self.pos.get(sq) else {
                continue;
            };
            let (cx, cy) = self.centre((sq.col as i16, sq.row as i16));
            let (fill, stroke) = match color {
                Color::White => ("#ffffff", "#222222"),
                Color::Black => ("#222222", "#000000"),
            };
            let _ = writeln!(
                out,
                "<circle class=\"piece {}\" data-square=\"{sq}\" cx=\"{cx}\" cy=\"{cy}\" r=\"{}\" \
                 fill=\"{fill}\" stroke=\"{stroke}\" stroke-width=\"2\"/>",
                color.name(),
                SQ * 2 / 5
            );
        }
        out.push_str("</g>\n");
        self.s.push_str(&out);
    }

    /// Removed pieces (ORDOX-4.1): a dashed ring; captured pieces: a red cross.
    fn removed_and_captured(&mut self) {
        for sq in on_board_squares(self.dims, &self.notes.removed) {
            let (cx, cy) = self.centre((sq.col as i16, sq.row as i16));
            let _ = writeln!(
                self.s,
                "<circle class=\"removed\" data-square=\"{sq}\" cx=\"{cx}\" cy=\"{cy}\" r=\"{}\" \
                 fill=\"none\" stroke=\"#d32f2f\" stroke-width=\"3\" stroke-dasharray=\"5 4\"/>",
                SQ / 2 - 2
            );
        }
        for sq in on_board_squares(self.dims, &self.notes.captured) {
            let (cx, cy) = self.centre((sq.col as i16, sq.row as i16));
            let d = SQ * 3 / 10;
            let _ = writeln!(
                self.s,
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
    }

    /// Arrows, from origin centre to landing centre, cut at the board's edge.
    fn arrows(&mut self, arrows: &[Arrow]) {
        let rect = (
            self.board_x,
            self.board_y,
            self.board_x + self.board_w,
            self.board_y + self.board_h,
        );
        for (i, a) in arrows.iter().enumerate() {
            let (x1, y1) = clamp_point(self.centre(a.from), rect);
            let (x2, y2) = cut(self.centre(a.from), self.centre(a.to), rect);
            let (ox, oy) = spread(arrows, i);
            let (x1, y1, x2, y2) = (x1 + ox, y1 + oy, x2 + ox, y2 + oy);
            let colour = ARROW_COLOURS[(a.step as usize - 1).min(1)];
            let dash = if a.step > 1 {
                " stroke-dasharray=\"9 5\""
            } else {
                ""
            };
            let _ = writeln!(
                self.s,
                "<line class=\"arrow\" data-step=\"{}\" data-from=\"{}\" data-to=\"{}\" x1=\"{x1}\" \
                 y1=\"{y1}\" x2=\"{x2}\" y2=\"{y2}\" stroke=\"{colour}\" stroke-width=\"5\" \
                 stroke-linecap=\"round\" stroke-opacity=\"0.85\"{dash} \
                 marker-end=\"url(#ordo-arrowhead-{})\"/>",
                a.step,
                point_name(self.dims, a.from),
                point_name(self.dims, a.to),
                a.step.min(2)
            );
        }
    }

    /// The caption line and the end of the document.
    fn footer(&mut self) {
        let _ = writeln!(
            self.s,
            "<text class=\"caption\" x=\"{PAD}\" y=\"{}\" font-size=\"13\" fill=\"#333333\">{}</text>",
            self.caption_y,
            escape(&self.caption)
        );
        self.s.push_str("</svg>\n");
    }
}

/// The sideways pixel offset of arrow `i`: when the pieces of an ordo run move along the run,
/// their arrows would lie on one line, so they are spread apart.
fn spread(arrows: &[Arrow], i: usize) -> (i32, i32) {
    let a = &arrows[i];
    let same_step: Vec<usize> = (0..arrows.len())
        .filter(|&j| arrows[j].step == a.step)
        .collect();
    let n = same_step.len();
    let (dc, dr) = (a.to.0 - a.from.0, a.to.1 - a.from.1);
    if n <= 1 || (dc, dr) == (0, 0) {
        return (0, 0);
    }
    let (f0, f1) = (arrows[same_step[0]].from, arrows[same_step[1]].from);
    let (rc, rr) = (f1.0 - f0.0, f1.1 - f0.1);
    if rc * dr != rr * dc {
        return (0, 0);
    }
    // Pixel direction (dc, -dr); its perpendicular (dr, dc).
    let k = same_step.iter().position(|&j| j == i).unwrap_or(0) as f64;
    let spacing = (6.0f64).min(30.0 / (n - 1) as f64);
    let shift = (k - (n - 1) as f64 / 2.0) * spacing;
    let len = ((dc * dc + dr * dr) as f64).sqrt();
    (
        (shift * dr as f64 / len).round() as i32,
        (shift * dc as f64 / len).round() as i32,
    )
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
