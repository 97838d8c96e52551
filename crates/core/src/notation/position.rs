//! The position notation (spec/notation.md, "Position notation"):
//! `<row N>/…/<row 1> <side> <variant>`, for example
//! `2BB2BB2/BBBBBBBBBB/BB2BB2BB/10/10/WW2WW2WW/WWWWWWWWWW/2WW2WW2 w classic`.

use std::fmt;
use std::str::FromStr;

use crate::rules::{Color, Dims, Position, Square, Variant, MAX_SIDE, MAX_SQUARES, MIN_SIDE};

use super::{quote_chars, Cursor, NotationError, END_OF_INPUT};

/// Read a position: the board (rows from the last row down to row 1, separated by `/`; `W`, `B`
/// and decimal counts of empty squares), the side to move (`w` or `b`) and the variant
/// (`classic` or `x`), separated by spaces or tabs.
///
/// The board size follows from the rows and must be within the limits of ORDO-1.5. The
/// position is not checked against the rules ([`Position::validate`] does that).
///
/// ```
/// use ordo_core::notation::parse_position;
/// let p = parse_position("2BB2BB2/BBBBBBBBBB/BB2BB2BB/10/10/WW2WW2WW/WWWWWWWWWW/2WW2WW2 w classic")
///     .unwrap();
/// assert_eq!((p.dims().cols, p.dims().rows), (10, 8));
/// ```
pub fn parse_position(s: &str) -> Result<Position, NotationError> {
    let cur = Cursor::trimmed("position", s);
    let fields = fields(&cur);
    let Some(&(board_start, board_end)) = fields.first() else {
        return Err(cur.error_at(
            cur.end,
            "a board: rows from the last row down to row 1, separated by '/'",
            END_OF_INPUT,
        ));
    };
    let (dims, rows) = read_board(&cur, board_start, board_end)?;
    let to_move = read_side(&cur, fields.get(1).copied())?;
    let variant = read_variant(&cur, fields.get(2).copied())?;
    if let Some(&(extra_start, extra_end)) = fields.get(3) {
        return Err(cur.error_at(
            extra_start,
            "end of input after the variant (a position has exactly three fields)",
            quote_chars(&cur.chars[extra_start..extra_end]),
        ));
    }
    let mut pos = Position::empty(dims, to_move, variant);
    for (i, row) in rows.iter().enumerate() {
        let r = (dims.rows as usize - 1 - i) as u8;
        for (c, &piece) in row.iter().enumerate() {
            pos.set(Square::new(c as u8, r), piece);
        }
    }
    Ok(pos)
}

/// The fields of a position: maximal runs of characters other than space and tab, as char
/// ranges.
fn fields(cur: &Cursor<'_>) -> Vec<(usize, usize)> {
    let mut fields = Vec::new();
    let mut i = cur.pos;
    while i < cur.end {
        if is_separator(cur.chars[i]) {
            i += 1;
            continue;
        }
        let start = i;
        while i < cur.end && !is_separator(cur.chars[i]) {
            i += 1;
        }
        fields.push((start, i));
    }
    fields
}

/// The side to move, from the second field (`None`: missing).
fn read_side(cur: &Cursor<'_>, field: Option<(usize, usize)>) -> Result<Color, NotationError> {
    let Some((side_start, side_end)) = field else {
        return Err(cur.error_at(
            cur.end,
            "the side to move 'w' or 'b' after the board",
            END_OF_INPUT,
        ));
    };
    match &cur.chars[side_start..side_end] {
        ['w'] => Ok(Color::White),
        ['b'] => Ok(Color::Black),
        other => Err(cur.error_at(
            side_start,
            "the side to move 'w' or 'b'",
            quote_chars(other),
        )),
    }
}

/// The variant, from the third field (`None`: missing).
fn read_variant(cur: &Cursor<'_>, field: Option<(usize, usize)>) -> Result<Variant, NotationError> {
    let Some((var_start, var_end)) = field else {
        return Err(cur.error_at(
            cur.end,
            "the variant 'classic' or 'x' after the side to move",
            END_OF_INPUT,
        ));
    };
    let variant_chars = &cur.chars[var_start..var_end];
    let variant_name: String = variant_chars.iter().collect();
    Variant::from_str(&variant_name).map_err(|_| {
        cur.error_at(
            var_start,
            "the variant 'classic' or 'x'",
            quote_chars(variant_chars),
        )
    })
}

/// The canonical notation of a position: runs of empty squares merged into one number, fields
/// separated by single spaces.
pub fn format_position(p: &Position) -> String {
    let dims = p.dims();
    let mut out = String::new();
    for r in (0..dims.rows).rev() {
        let mut empty = 0;
        for c in 0..dims.cols {
            match p.get(Square::new(c, r)) {
                None => empty += 1,
                Some(color) => {
                    if empty > 0 {
                        out.push_str(&empty.to_string());
                        empty = 0;
                    }
                    out.push(color.piece_char());
                }
            }
        }
        if empty > 0 {
            out.push_str(&empty.to_string());
        }
        if r > 0 {
            out.push('/');
        }
    }
    out.push(' ');
    out.push(p.to_move.side_char());
    out.push(' ');
    out.push_str(p.variant.name());
    out
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&format_position(self))
    }
}

impl FromStr for Position {
    type Err = NotationError;
    fn from_str(s: &str) -> Result<Position, NotationError> {
        parse_position(s)
    }
}

fn is_separator(c: char) -> bool {
    c == ' ' || c == '\t'
}

type Row = Vec<Option<Color>>;

/// Read the board field `chars[start..end]`: its dimensions and its rows, top row first.
fn read_board(
    cur: &Cursor<'_>,
    start: usize,
    end: usize,
) -> Result<(Dims, Vec<Row>), NotationError> {
    let chars = &cur.chars;
    let max_side = MAX_SIDE as usize;
    let min_side = MIN_SIDE as usize;
    let n_rows = 1 + chars[start..end].iter().filter(|&&c| c == '/').count();
    let mut rows: Vec<Row> = Vec::new();
    let mut width: Option<usize> = None;
    let mut i = start;
    loop {
        let label = n_rows - rows.len(); // the board row number this row describes
        if rows.len() == max_side {
            return Err(cur.error_at(
                i,
                format!("at most {max_side} rows"),
                format!("{n_rows} rows"),
            ));
        }
        if let Some(w) = width {
            if (rows.len() + 1) * w > MAX_SQUARES {
                return Err(cur.error_at(
                    i,
                    format!("at most {MAX_SQUARES} squares (columns x rows)"),
                    format!("{w} columns x {n_rows} rows = {} squares", w * n_rows),
                ));
            }
        }
        let (row, overflow_at) = read_row(cur, &mut i, end, label, width.unwrap_or(max_side))?;
        width = Some(check_row_width(cur, i, label, width, &row, overflow_at)?);
        rows.push(row);
        if i == end {
            break;
        }
        i += 1; // the '/'
    }
    if rows.len() < min_side {
        return Err(cur.error_at(
            end,
            format!("at least {min_side} rows separated by '/'"),
            crate::text::count(rows.len(), "row"),
        ));
    }
    let cols = width.unwrap_or(0);
    let dims = Dims::new(cols, rows.len()).map_err(|e| {
        // Unreachable after the checks above; kept so that no input can panic.
        cur.error_at(start, "a board within the size limits", e.to_string())
    })?;
    Ok((dims, rows))
}

/// Read one row from `*i`: tokens up to the next '/' or `end`. Returns the row and where it
/// first grew past `limit` squares, if it did.
fn read_row(
    cur: &Cursor<'_>,
    i: &mut usize,
    end: usize,
    label: usize,
    limit: usize,
) -> Result<(Row, Option<usize>), NotationError> {
    let chars = &cur.chars;
    let mut row: Row = Vec::new();
    let mut overflow_at: Option<usize> = None;
    if *i == end || chars[*i] == '/' {
        return Err(cur.error_at(
            *i,
            format!("row {label}: 'W', 'B' or a number of empty squares"),
            cur.found_at(*i),
        ));
    }
    while *i < end && chars[*i] != '/' {
        let token = *i;
        match chars[token] {
            'W' | 'B' => {
                row.push(Some(if chars[token] == 'W' {
                    Color::White
                } else {
                    Color::Black
                }));
                *i += 1;
            }
            '1'..='9' => {
                while *i < end && chars[*i].is_ascii_digit() {
                    *i += 1;
                }
                let n = empty_run(cur, token, *i)?;
                row.resize(row.len() + n, None);
            }
            '0' => {
                return Err(cur.error_at(
                    token,
                    format!(
                        "a number of empty squares from 1 to {MAX_SIDE} (no zero, no leading zero)"
                    ),
                    cur.found_at(token),
                ))
            }
            _ => {
                return Err(cur.error_at(
                    token,
                    format!("row {label}: 'W', 'B', a number of empty squares or '/'"),
                    cur.found_at(token),
                ))
            }
        }
        if row.len() > limit && overflow_at.is_none() {
            overflow_at = Some(token);
        }
    }
    Ok((row, overflow_at))
}

/// The number of empty squares written by the digits `chars[from..to]`, 1 to [`MAX_SIDE`].
fn empty_run(cur: &Cursor<'_>, from: usize, to: usize) -> Result<usize, NotationError> {
    let max_side = MAX_SIDE as usize;
    let digits = &cur.chars[from..to];
    // At most two digits are evaluated, so no number can overflow.
    let n = if digits.len() <= 2 {
        digits
            .iter()
            .fold(0, |acc, d| acc * 10 + d.to_digit(10).unwrap_or(0) as usize)
    } else {
        usize::MAX
    };
    if n > max_side {
        return Err(cur.error_at(
            from,
            format!("a number of empty squares from 1 to {max_side}"),
            quote_chars(digits),
        ));
    }
    Ok(n)
}

/// The first row sets the width (within the size limits); every later row must match it.
/// Returns the width.
fn check_row_width(
    cur: &Cursor<'_>,
    i: usize,
    label: usize,
    width: Option<usize>,
    row: &Row,
    overflow_at: Option<usize>,
) -> Result<usize, NotationError> {
    let (max_side, min_side) = (MAX_SIDE as usize, MIN_SIDE as usize);
    match width {
        None => {
            if let Some(at) = overflow_at {
                return Err(cur.error_at(
                    at,
                    format!("at most {max_side} columns in row {label}"),
                    row.len().to_string(),
                ));
            }
            if row.len() < min_side {
                return Err(cur.error_at(
                    i,
                    format!("at least {min_side} columns in row {label}"),
                    row.len().to_string(),
                ));
            }
            Ok(row.len())
        }
        Some(w) if row.len() != w => Err(cur.error_at(
            overflow_at.unwrap_or(i),
            format!("row {label} to have {w} squares like the rows above it"),
            row.len().to_string(),
        )),
        Some(w) => Ok(w),
    }
}
