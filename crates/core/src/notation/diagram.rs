//! The plain-text board that `ordo show` prints (spec/notation.md, "Diagram").

use crate::rules::{Color, Position, Square};

/// A plain-text picture of the position: the rows from the top (the last row, Black's home row)
/// down to row 1, each line starting with the right-aligned row number, the squares as `W`, `B`
/// or `.` separated by spaces, the home rows marked at the end of their line; then a line of
/// column letters and a line naming the side to move and the variant. Every line ends with a
/// newline and none has trailing spaces.
///
/// ```text
///  8  . . B B . . B B . .  <- Black's home row
///  7  B B B B B B B B B B
///  …
///  1  . . W W . . W W . .  <- White's home row
///     a b c d e f g h i j
/// White to move, classic Ordo
/// ```
pub fn diagram(p: &Position) -> String {
    let dims = p.dims();
    let mut out = String::new();
    for r in (0..dims.rows).rev() {
        out.push_str(&format!("{:>2} ", r as u32 + 1));
        for c in 0..dims.cols {
            out.push(' ');
            out.push(match p.get(Square::new(c, r)) {
                Some(color) => color.piece_char(),
                None => '.',
            });
        }
        if r == Color::Black.home_row(dims) {
            out.push_str("  <- Black's home row");
        } else if r == Color::White.home_row(dims) {
            out.push_str("  <- White's home row");
        }
        out.push('\n');
    }
    out.push_str("   ");
    for c in 0..dims.cols {
        out.push(' ');
        out.push(Square::new(c, 0).col_char());
    }
    out.push('\n');
    out.push_str(&format!(
        "{} to move, {}\n",
        p.to_move,
        p.variant.game_name()
    ));
    out
}
