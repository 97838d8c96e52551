//! The move notation (spec/notation.md, "Move notation").
//!
//! ```text
//! move   := step ( "," step )?
//! step   := single | ordo
//! single := square ( "-" | "x" ) square ( "/" square )?     "/square" only after "x"
//! ordo   := square ":" square "-" square
//! square := column row        column a..p, row 1..16 without leading zero
//! ```

use std::fmt;
use std::str::FromStr;

use crate::rules::{Engine, Move, Square, Step};

use super::{quote_chars, Cursor, NotationError};

/// Largest row number the notation accepts (the largest board side, ORDO-1.5).
const MAX_ROW: u32 = crate::rules::MAX_SIDE as u32;

/// Read one move: one step, or two steps separated by a comma (an Ordo X turn).
///
/// Leading and trailing whitespace is ignored; nothing else may surround the move. Squares are
/// checked against the notation's limits only (columns `a`..`p`, rows `1`..`16`), not against a
/// board, and ordo ends are kept in the order written.
///
/// ```
/// use ordo_core::notation::parse_move;
/// let m = parse_move("e5xf5/g7,f5-f6").unwrap();
/// assert_eq!(m.to_string(), "e5xf5/g7,f5-f6");
/// assert!(parse_move("e2-q4").unwrap_err().to_string().contains("column letter a..p"));
/// ```
pub fn parse_move(s: &str) -> Result<Move, NotationError> {
    let mut cur = Cursor::trimmed("move", s);
    if cur.at_end() {
        return Err(cur.error_here("a move such as 'e2-e4'"));
    }
    read_move(&mut cur, false)
}

/// Read a list of moves separated by whitespace (spaces, tabs or line breaks), such as a game
/// record. An empty or blank input is the empty list. Error columns count from the start of the
/// whole input.
pub fn parse_moves(s: &str) -> Result<Vec<Move>, NotationError> {
    let mut cur = Cursor::trimmed("move", s);
    let mut out = Vec::new();
    loop {
        while cur.peek().is_some_and(char::is_whitespace) {
            cur.pos += 1;
        }
        if cur.at_end() {
            return Ok(out);
        }
        out.push(read_move(&mut cur, true)?);
    }
}

/// Read one square such as `e4` or `p16`: a column letter `a`..`p` and a row number `1`..`16`
/// without leading zero. Leading and trailing whitespace is ignored.
pub fn parse_square(s: &str) -> Result<Square, NotationError> {
    let mut cur = Cursor::trimmed("square", s);
    let sq = read_square(&mut cur)?;
    if !cur.at_end() {
        return Err(fail(&cur, "end of input after the square"));
    }
    Ok(sq)
}

/// The notation of a move (its canonical spelling when the move itself is canonical).
///
/// A `keep` square is written whenever it is set, even on a step without capture, so nothing is
/// lost; the parser accepts `/square` only after a capture.
pub fn format_move(m: &Move) -> String {
    m.to_string()
}

/// Moves in canonical notation, sorted: the one form in which the oracles, the tests and the
/// protocols compare and list move lists.
pub fn sorted_notation(moves: &[Move]) -> Vec<String> {
    let mut v: Vec<String> = moves.iter().map(format_move).collect();
    v.sort();
    v
}

/// An engine's legal moves in canonical notation, sorted ([`sorted_notation`]).
pub fn sorted_moves<E: Engine>(e: &E) -> Vec<String> {
    sorted_notation(&e.legal_moves())
}

/// A list of moves in notation, separated by single spaces.
pub fn format_moves(moves: &[Move]) -> String {
    moves
        .iter()
        .map(Move::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

impl fmt::Display for Step {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Step::Single {
                from,
                to,
                capture,
                keep,
            } => {
                write!(f, "{from}{}{to}", if capture { 'x' } else { '-' })?;
                if let Some(k) = keep {
                    write!(f, "/{k}")?;
                }
                Ok(())
            }
            Step::Ordo { first, last, to } => write!(f, "{first}:{last}-{to}"),
        }
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.first)?;
        if let Some(second) = &self.second {
            write!(f, ",{second}")?;
        }
        Ok(())
    }
}

impl FromStr for Move {
    type Err = NotationError;
    fn from_str(s: &str) -> Result<Move, NotationError> {
        parse_move(s)
    }
}

/// An error at the cursor; when a space stands there, say that moves contain none.
fn fail(cur: &Cursor<'_>, expected: &str) -> NotationError {
    match cur.peek() {
        Some(c) if c.is_whitespace() => {
            fail_because(cur, expected, "a move is written without spaces")
        }
        _ => cur.error_here(expected),
    }
}

/// An error at the cursor, explaining why what stands there is not allowed.
fn fail_because(cur: &Cursor<'_>, expected: &str, why: &str) -> NotationError {
    cur.error_at(
        cur.pos,
        expected,
        format!("{} ({why})", cur.found_at(cur.pos)),
    )
}

/// Whether the cursor stands where a move may end: the end of input, or in a list a space.
fn at_move_end(cur: &Cursor<'_>, list: bool) -> bool {
    match cur.peek() {
        None => true,
        Some(c) => list && c.is_whitespace(),
    }
}

fn read_move(cur: &mut Cursor<'_>, list: bool) -> Result<Move, NotationError> {
    let first = read_step(cur)?;
    check_after_step(cur, &first, false, list)?;
    if cur.peek() == Some(',') {
        cur.pos += 1;
        let second = read_step(cur)?;
        check_after_step(cur, &second, true, list)?;
        Ok(Move::double(first, second))
    } else {
        Ok(Move::single(first))
    }
}

/// After a step: the move must end, or (after the first step) a comma must follow, or (after a
/// capture without a kept group) a `/square` may follow. A following comma is left unread.
fn check_after_step(
    cur: &Cursor<'_>,
    step: &Step,
    second: bool,
    list: bool,
) -> Result<(), NotationError> {
    if at_move_end(cur, list) || (!second && cur.peek() == Some(',')) {
        return Ok(());
    }
    let end = if list {
        "a space or end of input"
    } else {
        "end of input"
    };
    let capture_without_keep = matches!(
        step,
        Step::Single {
            capture: true,
            keep: None,
            ..
        }
    );
    let mut allowed: Vec<&str> = Vec::new();
    if capture_without_keep {
        allowed.push("'/' (a kept group)");
    }
    if !second {
        allowed.push("',' (a second step)");
    }
    allowed.push(end);
    let expected = match allowed.len() {
        1 => allowed[0].to_string(),
        n => format!("{} or {}", allowed[..n - 1].join(", "), allowed[n - 1]),
    };
    let why = match cur.peek() {
        Some('/') if step.is_ordo() => "an ordo move never captures, so it keeps no group",
        Some('/') if !capture_without_keep => match step {
            Step::Single { capture: false, .. } => {
                "a kept group follows only a capture written with 'x'"
            }
            _ => "a capture names at most one kept group",
        },
        Some(',') if second => "a move has at most two steps",
        _ => return Err(fail(cur, &expected)),
    };
    Err(fail_because(cur, &expected, why))
}

/// One step: a move `a-b`, a capture `axb` (with an optional kept group `/c`), or an ordo
/// move `a:b-c`.
fn read_step(cur: &mut Cursor<'_>) -> Result<Step, NotationError> {
    let from = read_square(cur)?;
    match cur.peek() {
        Some('-') => {
            cur.pos += 1;
            let to = read_square(cur)?;
            Ok(Step::Single {
                from,
                to,
                capture: false,
                keep: None,
            })
        }
        Some('x') => {
            cur.pos += 1;
            let to = read_square(cur)?;
            let keep = if cur.peek() == Some('/') {
                cur.pos += 1;
                Some(read_square(cur)?)
            } else {
                None
            };
            Ok(Step::Single {
                from,
                to,
                capture: true,
                keep,
            })
        }
        Some(':') => {
            cur.pos += 1;
            read_ordo_rest(cur, from)
        }
        _ => Err(fail(
            cur,
            "'-' (a move), 'x' (a capture) or ':' (the other end of an ordo run)",
        )),
    }
}

/// The rest of an ordo move from `first` on, after the `:`: `last-to`.
fn read_ordo_rest(cur: &mut Cursor<'_>, first: Square) -> Result<Step, NotationError> {
    let last = read_square(cur)?;
    match cur.peek() {
        Some('-') => cur.pos += 1,
        Some('x') => {
            return Err(fail_because(
                cur,
                "'-'",
                "ordo moves are written with '-' and never capture",
            ))
        }
        _ => {
            return Err(fail(
                cur,
                "'-' and the square where the run's first end lands",
            ))
        }
    }
    let to = read_square(cur)?;
    Ok(Step::Ordo { first, last, to })
}

fn read_square(cur: &mut Cursor<'_>) -> Result<Square, NotationError> {
    let col = match cur.peek() {
        Some(c @ 'a'..='p') => c as u8 - b'a',
        _ => return Err(fail(cur, "a column letter a..p")),
    };
    cur.pos += 1;
    let start = cur.pos;
    match cur.peek() {
        Some('1'..='9') => {}
        Some('0') => {
            let why = if cur.chars.get(cur.pos + 1).is_some_and(char::is_ascii_digit) {
                "row numbers have no leading zero"
            } else {
                "rows are numbered from 1"
            };
            return Err(fail_because(cur, "a row number 1..16", why));
        }
        _ => return Err(fail(cur, "a row number 1..16")),
    }
    while cur.peek().is_some_and(|c| c.is_ascii_digit()) {
        cur.pos += 1;
    }
    let digits = &cur.chars[start..cur.pos];
    // At most two digits are evaluated, so no number can overflow.
    let row = if digits.len() <= 2 {
        digits
            .iter()
            .fold(0, |acc, d| acc * 10 + d.to_digit(10).unwrap_or(0))
    } else {
        u32::MAX
    };
    if row > MAX_ROW {
        return Err(cur.error_at(start, "a row number 1..16", quote_chars(digits)));
    }
    Ok(Square::new(col, (row - 1) as u8))
}
