//! The position and move notation of `spec/notation.md`.
//!
//! What it owns:
//! - the one-line position notation (`2BB2BB2/BBBBBBBBBB/… w classic`): [`parse_position`],
//!   [`format_position`], and `FromStr`/`Display` for [`Position`];
//! - the move notation (`e2-e4`, `e4xf5`, `a2:d2-a3`, `e5xf5/g7,f5-f6`): [`parse_move`],
//!   [`parse_square`], [`format_move`], [`parse_moves`]/[`format_moves`] for whitespace-separated
//!   move lists, `FromStr`/`Display` for [`Move`] and `Display` for [`Step`];
//! - the plain-text board [`diagram`] that `ordo show` prints;
//! - game records ([`parse_record`], spec/game-record.md) and the lenient move reader
//!   [`parse_move_lenient`] for other programs' spellings;
//! - [`NotationError`], the single error type of every parser here.
//!
//! The notation knows geometry only. A parsed square is checked against the limits every board
//! shares (columns `a`..`p`, rows `1`..`16`), never against a particular board, and a parsed
//! position is not validated against the rules ([`Position::validate`] is the engines' business).
//! Whether a move is legal, and which legal move a spelling denotes, is decided when the move is
//! resolved against a position ([`crate::rules::Engine::resolve`]).
//!
//! Every parser here returns an error, never panics, on any input: empty, non-ASCII, huge
//! numbers, control characters. Columns in errors count characters (not bytes) from 1.
//!
//! [`Position`]: crate::rules::Position
//! [`Position::validate`]: crate::rules::Position::validate
//! [`Move`]: crate::rules::Move
//! [`Step`]: crate::rules::Step

mod diagram;
mod echo;
mod moves;
mod position;
mod record;

use std::fmt;

pub use diagram::diagram;
pub use echo::{echo, echo_within, escape_lines, needs_escape, one_line, ECHO_LIMIT};
pub use moves::{
    format_move, format_moves, parse_move, parse_moves, parse_square, sorted_moves, sorted_notation,
};
pub use position::{format_position, parse_position};
pub use record::{parse_move_lenient, parse_record, GameRecord, Header, RecordError, RecordMove};

/// Why a piece of notation could not be read.
///
/// Displayed on one line as
/// `<kind> '<input>' at character <column>: expected <expected>, found <found>`, for example
/// `move 'e2-q4' at character 4: expected a column letter a..p, found 'q'`. Control characters
/// of the input are shown escaped (`\n`, `\t`, …) so that the message stays on one line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotationError {
    /// What was being read: `"position"`, `"move"` or `"square"`.
    pub kind: &'static str,
    /// The whole input, as given (not trimmed).
    pub input: String,
    /// 1-based character (not byte) column in `input` where the problem was found; one past the
    /// last character when the input ended too early.
    pub column: usize,
    /// What the notation allows at that point.
    pub expected: String,
    /// What was there instead: a quoted character or token (`'q'`, `'17'`), a count, or
    /// `end of input`.
    pub found: String,
}

impl fmt::Display for NotationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} '{}' at character {}: expected {}, found {}",
            self.kind,
            echo(&self.input),
            self.column,
            self.expected,
            cut(&self.found)
        )
    }
}

impl std::error::Error for NotationError {}

/// A text already escaped, cut as [`echo`] cuts.
fn cut(s: &str) -> String {
    match s.char_indices().nth(ECHO_LIMIT) {
        None => s.to_string(),
        Some((at, _)) => format!("{}… ({} characters)", &s[..at], s.chars().count()),
    }
}

/// A character as an error message quotes it: `'q'`, `'\n'`.
fn quote_char(c: char) -> String {
    format!("'{}'", c.escape_debug())
}

/// A run of characters as an error message quotes it.
fn quote_chars(cs: &[char]) -> String {
    let mut out = String::from("'");
    for &c in cs {
        out.extend(c.escape_debug());
    }
    out.push('\'');
    out
}

/// What an error message says when the input has ended.
const END_OF_INPUT: &str = "end of input";

/// A read position over the characters of an input, with the bounds of the part being read.
/// Works on `char`s, so no byte offset is ever used to slice a string.
struct Cursor<'a> {
    kind: &'static str,
    input: &'a str,
    chars: Vec<char>,
    pos: usize,
    end: usize,
}

impl<'a> Cursor<'a> {
    /// A cursor over `input` with leading and trailing whitespace skipped.
    fn trimmed(kind: &'static str, input: &'a str) -> Cursor<'a> {
        let chars: Vec<char> = input.chars().collect();
        let end = chars
            .iter()
            .rposition(|c| !c.is_whitespace())
            .map_or(0, |i| i + 1);
        let pos = chars.iter().position(|c| !c.is_whitespace()).unwrap_or(end);
        Cursor {
            kind,
            input,
            chars,
            pos,
            end,
        }
    }

    fn peek(&self) -> Option<char> {
        if self.pos < self.end {
            self.chars.get(self.pos).copied()
        } else {
            None
        }
    }

    fn at_end(&self) -> bool {
        self.pos >= self.end
    }

    /// How the character at `pos` (within the current bounds) is quoted, or `end of input`.
    fn found_at(&self, pos: usize) -> String {
        if pos < self.end {
            self.chars
                .get(pos)
                .map_or(END_OF_INPUT.to_string(), |&c| quote_char(c))
        } else {
            END_OF_INPUT.to_string()
        }
    }

    fn error_at(
        &self,
        pos: usize,
        expected: impl Into<String>,
        found: impl Into<String>,
    ) -> NotationError {
        NotationError {
            kind: self.kind,
            input: self.input.to_string(),
            column: pos + 1,
            expected: expected.into(),
            found: found.into(),
        }
    }

    /// An error at the current position, quoting what stands there.
    fn error_here(&self, expected: impl Into<String>) -> NotationError {
        self.error_at(self.pos, expected, self.found_at(self.pos))
    }
}
