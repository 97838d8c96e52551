//! Game records (spec/game-record.md): PGN-like headers, then the moves in the notation of
//! spec/notation.md, with move numbers, comments and a result token; and the lenient move
//! reader that accepts other programs' spellings of the same notation.

use crate::rules::{setup, Dims, Move, Position, Variant};

use super::{echo, parse_move, parse_position, NotationError};

/// A header such as `[White "Anna"]`.
pub type Header = (String, String);

/// One move of a record, with where it was written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordMove {
    /// The token as written.
    pub text: String,
    /// The line of the token, from 1.
    pub line: usize,
    /// The column of the token's first character on its line, from 1, counted in characters
    /// (not bytes).
    pub column: usize,
    /// The move it denotes.
    pub mv: Move,
}

/// A parsed game record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// Every header in order, as written.
    pub headers: Vec<Header>,
    /// The start position (the `Start` header, or the standard start of `Variant` and `Board`).
    pub start: Position,
    /// The moves in order.
    pub moves: Vec<RecordMove>,
    /// The result token of the movetext (`1-0`, `0-1` or `*`), if any.
    pub result: Option<String>,
}

impl GameRecord {
    /// The value of header `key` (case-insensitive), if present.
    pub fn header(&self, key: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(key))
            .map(|(_, v)| v.as_str())
    }
}

/// Where and why a record could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}, column {column}: {message}")]
pub struct RecordError {
    /// The line where reading failed, from 1.
    pub line: usize,
    /// The column there, from 1, in characters.
    pub column: usize,
    /// What is wrong, in one line.
    pub message: String,
}

/// Read a move written in the project's notation or in a spelling other Ordo programs use for
/// the same notation: upper-case squares (`E2-E4`), `X` or `×` for a capture, an en or em dash
/// for `-`, and trailing check-like marks `+ # ! ?`. Anything else must be the notation itself.
pub fn parse_move_lenient(s: &str) -> Result<Move, NotationError> {
    let trimmed = s.trim().trim_end_matches(['+', '#', '!', '?']);
    let respelled: String = trimmed
        .chars()
        .map(|c| match c {
            'X' | '×' => 'x',
            '–' | '—' => '-',
            'A'..='P' => c.to_ascii_lowercase(),
            c => c,
        })
        .collect();
    parse_move(&respelled).map_err(|mut e| {
        e.kind = "move";
        e.input = s.to_string();
        e
    })
}

/// A token of the movetext with its position.
struct Token {
    text: String,
    line: usize,
    column: usize,
}

/// Read a record. See spec/game-record.md for the format.
pub fn parse_record(text: &str) -> Result<GameRecord, RecordError> {
    let scan = scan(text)?;
    let start = start_position(&scan.headers, &scan.header_at)?;
    let (moves, result) = moves_and_result(&scan.tokens)?;
    Ok(GameRecord {
        headers: scan.headers,
        start,
        moves,
        result,
    })
}

/// A record cut into its headers (with where each was written: line, column) and the
/// tokens of its movetext.
struct Scan {
    headers: Vec<Header>,
    header_at: Vec<(usize, usize)>,
    tokens: Vec<Token>,
}

/// Cut a record into headers and movetext tokens, dropping comments and move numbers.
fn scan(text: &str) -> Result<Scan, RecordError> {
    let mut s = Scan {
        headers: Vec::new(),
        header_at: Vec::new(),
        tokens: Vec::new(),
    };
    let mut in_comment: Option<(usize, usize)> = None;
    for (li, raw) in text.lines().enumerate() {
        let line = li + 1;
        if in_comment.is_none() && s.tokens.is_empty() {
            let t = raw.trim();
            if t.starts_with('[') {
                let column = raw.chars().count() - raw.trim_start().chars().count() + 1;
                s.headers.push(parse_header(t, line, column)?);
                s.header_at.push((line, column));
                continue;
            }
        }
        scan_movetext_line(raw, line, &mut in_comment, &mut s.tokens)?;
    }
    if let Some((line, column)) = in_comment {
        return Err(RecordError {
            line,
            column,
            message: "comment opened with '{' is never closed".into(),
        });
    }
    Ok(s)
}

/// Add the tokens of movetext line `line` (`raw`) to `tokens`; `in_comment` says where a
/// comment still open began.
fn scan_movetext_line(
    raw: &str,
    line: usize,
    in_comment: &mut Option<(usize, usize)>,
    tokens: &mut Vec<Token>,
) -> Result<(), RecordError> {
    let chars: Vec<char> = raw.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if in_comment.is_some() {
            if c == '}' {
                *in_comment = None;
            }
            i += 1;
        } else if c.is_whitespace() {
            i += 1;
        } else if c == ';' {
            break;
        } else if c == '{' {
            *in_comment = Some((line, i + 1));
            i += 1;
        } else if c == '[' {
            return Err(RecordError {
                line,
                column: i + 1,
                message: "a header must come before the first move".into(),
            });
        } else {
            let start = i;
            while i < chars.len() && !chars[i].is_whitespace() && !"{;".contains(chars[i]) {
                i += 1;
            }
            let text: String = chars[start..i].iter().collect();
            // Move numbers are not kept (a file of them costs no memory), unless one follows
            // a result, which is reported below.
            let after_result = tokens.last().is_some_and(|t| is_result(&t.text));
            if !is_move_number(&text) || after_result {
                tokens.push(Token {
                    text,
                    line,
                    column: start + 1,
                });
            }
        }
    }
    Ok(())
}

/// The moves of the movetext `tokens` and its result token, which must come last.
fn moves_and_result(tokens: &[Token]) -> Result<(Vec<RecordMove>, Option<String>), RecordError> {
    let mut moves = Vec::new();
    let mut result = None;
    for (k, tok) in tokens.iter().enumerate() {
        if is_move_number(&tok.text) {
            continue;
        }
        if is_result(&tok.text) {
            if k + 1 != tokens.len() {
                return Err(RecordError {
                    line: tok.line,
                    column: tok.column,
                    message: format!("the result '{}' must be the last token", tok.text),
                });
            }
            result = Some(tok.text.clone());
            continue;
        }
        let mv = parse_move_lenient(&tok.text).map_err(|e| RecordError {
            line: tok.line,
            column: tok.column + e.column.saturating_sub(1),
            message: e.to_string(),
        })?;
        moves.push(RecordMove {
            text: tok.text.clone(),
            line: tok.line,
            column: tok.column,
            mv,
        });
    }
    Ok((moves, result))
}

fn is_result(t: &str) -> bool {
    ["1-0", "0-1", "*"].contains(&t)
}

fn is_move_number(t: &str) -> bool {
    let digits = t.trim_end_matches('.');
    digits.len() < t.len() && !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
}

fn parse_header(t: &str, line: usize, column: usize) -> Result<Header, RecordError> {
    let err = |message: String| RecordError {
        line,
        column,
        message,
    };
    let inner = t
        .strip_prefix('[')
        .and_then(|s| s.strip_suffix(']'))
        .ok_or_else(|| err("a header is written [Key \"value\"]".into()))?;
    let (key, rest) = inner
        .trim()
        .split_once(char::is_whitespace)
        .ok_or_else(|| err("a header is written [Key \"value\"]".into()))?;
    let value = rest
        .trim()
        .strip_prefix('"')
        .and_then(|s| s.strip_suffix('"'))
        .ok_or_else(|| {
            err(format!(
                "the value of header '{}' must be in double quotes",
                echo(key)
            ))
        })?;
    if !key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return Err(err(format!(
            "header key '{}' must be letters, digits or '_'",
            echo(key)
        )));
    }
    Ok((key.to_string(), value.replace("\\\"", "\"")))
}

/// The start position the headers give; `at` is where each header was written.
fn start_position(headers: &[Header], at: &[(usize, usize)]) -> Result<Position, RecordError> {
    let h = Headers { headers, at };
    let variant = match h.find("Variant") {
        None => None,
        Some((line, v)) => Some(
            v.parse::<Variant>()
                .map_err(|e| h.err(line, format!("header Variant: {e}")))?,
        ),
    };
    let board = match h.find("Board") {
        None => None,
        Some((line, b)) => Some((line, h.board(line, b)?)),
    };
    if let Some((line, s)) = h.find("Start") {
        return h.start_header(line, s, variant, board);
    }
    let v = variant.unwrap_or(Variant::Classic);
    match board {
        None => Ok(setup::standard(v)),
        Some((_, d)) if d == Dims::STANDARD => Ok(setup::standard(v)),
        Some((_, d)) if d == Dims::CHESS => Ok(setup::chess_board(v)),
        Some((line, d)) => Err(h.err(
            line,
            format!("board {d} has no standard start; give the start position in a Start header"),
        )),
    }
}

/// The headers of a record with where each was written (line, column).
struct Headers<'a> {
    headers: &'a [Header],
    at: &'a [(usize, usize)],
}

impl Headers<'_> {
    /// The line and value of header `key` (case-insensitive), if present.
    fn find(&self, key: &str) -> Option<(usize, &str)> {
        self.headers
            .iter()
            .zip(self.at)
            .find(|((k, _), _)| k.eq_ignore_ascii_case(key))
            .map(|((_, v), &(line, _))| (line, v.as_str()))
    }

    /// An error about the header on `line`.
    fn err(&self, line: usize, message: String) -> RecordError {
        RecordError {
            line,
            column: self
                .at
                .iter()
                .find(|(l, _)| *l == line)
                .map_or(1, |&(_, c)| c),
            message,
        }
    }

    /// The board size of the `Board` header `b`, on `line`.
    fn board(&self, line: usize, b: &str) -> Result<Dims, RecordError> {
        let (c, r) = b
            .split_once(['x', 'X'])
            .and_then(|(c, r)| Some((c.parse::<usize>().ok()?, r.parse::<usize>().ok()?)))
            .ok_or_else(|| {
                self.err(
                    line,
                    format!(
                        "header Board '{}': expected COLSxROWS such as 10x8",
                        echo(b)
                    ),
                )
            })?;
        Dims::new(c, r).map_err(|e| self.err(line, format!("header Board: {e}")))
    }

    /// The position of the `Start` header `s` on `line`, which must agree with the
    /// `variant` and the `board` (with its line) the other headers give.
    fn start_header(
        &self,
        line: usize,
        s: &str,
        variant: Option<Variant>,
        board: Option<(usize, Dims)>,
    ) -> Result<Position, RecordError> {
        let pos = parse_position(s).map_err(|e| self.err(line, format!("header Start: {e}")))?;
        if let Some(v) = variant {
            if v != pos.variant {
                return Err(self.err(
                    line,
                    format!(
                        "header Start is a {} position but Variant says {v}",
                        pos.variant
                    ),
                ));
            }
        }
        if let Some((bl, d)) = board {
            if d != pos.dims() {
                return Err(self.err(
                    bl,
                    format!("header Board says {d} but Start is {}", pos.dims()),
                ));
            }
        }
        Ok(pos)
    }
}
