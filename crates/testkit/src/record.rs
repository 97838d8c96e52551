//! The game-record target's generator and oracle (spec/game-record.md, `ordo check-game`):
//! records of legal games written with the variety the format allows (headers, move numbers,
//! comments, other programs' spellings, a result), then mutated character by character, or
//! raw bytes; whatever the reader accepts must replay alike in the engines and the adjudicator.

use crate::adjudicate::{adjudicate, status as adjudicated_status};
use crate::input::{is_cheap, small_starts, Draws, BIG_PLIES, SMALL_PLIES, SMALL_SQUARES};
use crate::notation::{format_move, format_position, parse_move_lenient, parse_record};
use crate::rules::{setup, Engine, Move, Position, Variant};
use ordo_conformance::diff::{diverge, load_both, same_position, Divergence};

/// Characters a mutation inserts: the format's punctuation, digits, file letters, the other
/// spellings and a few strangers.
const ALPHABET: &[char] = &[
    '-', 'x', 'X', '×', '–', '—', '[', ']', '{', '}', ';', '"', '\n', ' ', '.', '0', '1', '2', '9',
    'a', 'b', 'c', 'h', 'j', 'p', 'q', 'A', 'C', '+', '#', '!', '?', '*', '/', '\\', '\t', '\r',
    'é',
];

/// A game record from fuzz bytes. The first byte picks raw text (1 in 4: the rest of the bytes,
/// lossily decoded) or the record of [`game_record`], changed by up to three mutations
/// (a character inserted, deleted or replaced).
pub fn record_from_bytes<E: Engine>(bytes: &[u8]) -> String {
    let mut d = Draws::new(bytes);
    if d.byte() % 4 == 0 {
        return String::from_utf8_lossy(d.rest()).into_owned();
    }
    let (text, _) = game_record::<E>(&mut d);
    let mut text: Vec<char> = text.chars().collect();
    for _ in 0..d.below(4) {
        mutate(&mut text, &mut d);
    }
    text.into_iter().collect()
}

/// The record of a game played by engine `E` from a start (a small board with a `Start`
/// header, or the 10 x 8 or 8 x 8 start by `Variant` and `Board` headers), written with drawn
/// spellings, move numbers, comments and result; and its number of moves.
pub fn game_record<E: Engine>(d: &mut Draws) -> (String, usize) {
    let (start, headers) = record_start(d);
    let max = if start.dims().len() <= SMALL_SQUARES {
        SMALL_PLIES
    } else {
        BIG_PLIES[usize::from(start.variant == Variant::X)]
    };
    let moves = game::<E>(&start, d, max);
    (headers + &movetext(&moves, d), moves.len())
}

/// A start position and the headers that name it.
fn record_start(d: &mut Draws) -> (Position, String) {
    let mut headers = String::new();
    if d.flag() {
        headers.push_str("[Event \"fuzz\"]\n[White \"A\"]\n[Black \"B\"]\n");
    }
    let start = match d.byte() % 4 {
        0 => setup::standard(Variant::ALL[d.below(2)]),
        1 => setup::chess_board(Variant::ALL[d.below(2)]),
        _ => small_starts()[d.below(small_starts().len())].clone(),
    };
    let small = start.dims() != crate::rules::Dims::STANDARD;
    if small || start.variant == Variant::X || d.flag() {
        headers.push_str(&format!("[Variant \"{}\"]\n", start.variant.name()));
    }
    if small || d.flag() {
        headers.push_str(&format!("[Board \"{}\"]\n", start.dims()));
    }
    if start.dims().len() <= SMALL_SQUARES {
        headers.push_str(&format!("[Start \"{}\"]\n", format_position(&start)));
    }
    (start, headers)
}

/// The moves of a game of up to `max` plies (their number drawn) played by `E`.
fn game<E: Engine>(start: &Position, d: &mut Draws, max: usize) -> Vec<Move> {
    let Ok(mut e) = E::from_position(start) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for _ in 0..d.below(max + 1) {
        let moves = e.legal_moves();
        if moves.is_empty() {
            break;
        }
        let m = moves[d.below(moves.len())];
        e = e.apply(&m);
        out.push(m);
    }
    out
}

/// The movetext: move numbers, each move in a drawn spelling, now and then a comment, and a
/// drawn result token.
fn movetext(moves: &[Move], d: &mut Draws) -> String {
    let mut out = String::new();
    for (i, m) in moves.iter().enumerate() {
        if i % 2 == 0 {
            out.push_str(&format!("{}. ", i / 2 + 1));
        }
        out.push_str(&spelled(&format_move(m), d.byte()));
        match d.byte() % 16 {
            0 => out.push_str(" {a comment}"),
            1 => out.push_str(" ; to the end of the line\n"),
            _ => {}
        }
        out.push(if i % 2 == 1 { '\n' } else { ' ' });
    }
    out.push_str(["", "*", "1-0", "0-1"][d.below(4)]);
    out.push('\n');
    out
}

/// A move in one of the spellings the reader accepts (`parse_move_lenient`).
fn spelled(canonical: &str, how: u8) -> String {
    match how % 8 {
        1 => canonical
            .chars()
            .map(|c| {
                if c == 'x' {
                    'X'
                } else {
                    c.to_ascii_uppercase()
                }
            })
            .collect(),
        2 => canonical.replace('x', "×"),
        3 => canonical.replace('-', "–"),
        4 => canonical.replace('-', "—"),
        5 => format!("{canonical}+"),
        6 => format!("{canonical}!?"),
        _ => canonical.to_string(),
    }
}

/// Insert, delete or replace one character at a drawn place.
fn mutate(text: &mut Vec<char>, d: &mut Draws) {
    let kind = d.below(3);
    let at = d.below(text.len() + 1);
    let c = ALPHABET[d.below(ALPHABET.len())];
    match kind {
        0 => text.insert(at, c),
        _ if at == text.len() => {}
        1 => {
            text.remove(at);
        }
        _ => text[at] = c,
    }
}

/// Where a record that the reader accepts does not replay alike (or its error is not one line).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RecordFault {
    /// The reader's error spans more than one line.
    #[error("the record reader's error is not one line: {0:?}")]
    ErrorNotOneLine(String),
    /// The start or move `index` (0: the start) is judged differently.
    #[error("move {index} {text:?}: {divergence}")]
    Replay {
        index: usize,
        text: String,
        divergence: Divergence,
    },
}

/// The record oracle, as `ordo check-game` reads and judges a record: the reader never panics
/// and its error is one line; the start is accepted by both engines or by neither; then move
/// by move until the first illegal one, `B` (the fast engine) and the adjudicator agree on
/// whether the game is over (ORDO-10.5) and whether the move is legal, the canonical spelling
/// of the move reads back as itself, and both engines reach the same position. On small
/// boards where its move list is cheap ([`is_cheap`]) `A` (the reference) resolves each move
/// too. Returns the moves replayed.
pub fn check_record<A: Engine, B: Engine>(text: &str) -> Result<usize, RecordFault> {
    let rec = match parse_record(text) {
        Ok(rec) => rec,
        Err(e) if e.to_string().contains('\n') => {
            return Err(RecordFault::ErrorNotOneLine(e.to_string()))
        }
        Err(_) => return Ok(0),
    };
    let fault = |index: usize, text: &str| {
        let text = text.to_string();
        move |divergence| RecordFault::Replay {
            index,
            text,
            divergence,
        }
    };
    let Some((mut a, mut b)) = load_both::<A, B>(&rec.start).map_err(fault(0, "start"))? else {
        return Ok(0);
    };
    for (i, rm) in rec.moves.iter().enumerate() {
        let Some(m) = replay_one(&a, &b, &rm.mv).map_err(fault(i + 1, &rm.text))? else {
            return Ok(i);
        };
        a = a.apply(&m);
        b = b.apply(&m);
        same_position(&a, &b).map_err(fault(i + 1, &rm.text))?;
    }
    Ok(rec.moves.len())
}

/// One recorded move `mv` judged in the engines' position: the legal move it denotes, `None`
/// when the game is over or the move illegal.
fn replay_one<A: Engine, B: Engine>(a: &A, b: &B, mv: &Move) -> Result<Option<Move>, Divergence> {
    let pos = b.to_position();
    let fail = |what: String| Err(diverge(&pos, Some(*mv), what));
    let over = b.status().is_over();
    if over != adjudicated_status(&pos).is_over() {
        return fail(format!(
            "{} and the adjudicator differ on the status",
            B::NAME
        ));
    }
    if over {
        return Ok(None);
    }
    let legal = adjudicate(&pos, mv).is_legal();
    let resolved = b.resolve(mv);
    if legal != resolved.is_some() {
        return fail(format!(
            "the adjudicator says {}, {} says {}",
            word(legal),
            B::NAME,
            word(resolved.is_some())
        ));
    }
    if pos.dims().len() <= SMALL_SQUARES && is_cheap(&pos) {
        let by_a = a.resolve(mv);
        if by_a.map(|m| format_move(&m)) != resolved.map(|m| format_move(&m)) {
            return fail(format!(
                "{} and {} resolve it differently",
                A::NAME,
                B::NAME
            ));
        }
    }
    if let Some(m) = resolved {
        if parse_move_lenient(&format_move(&m)).ok() != Some(m) {
            return fail(format!(
                "its canonical spelling {} does not read back",
                format_move(&m)
            ));
        }
    }
    Ok(resolved)
}

fn word(legal: bool) -> &'static str {
    if legal {
        "legal"
    } else {
        "illegal"
    }
}
