//! Protocol probes: a few malformed requests, each of which must get its error code, and the
//! spellings other than the canonical one that `spec/notation.md` tells engines to accept
//! (either order of an ordo's ends, any square of a kept group, extra whitespace in a
//! position), each of which must be played as the canonical move.

use super::drive::SetReply;
use super::support::start_of;
use super::Run;
use crate::notation::{format_move, format_position};
use crate::protocol::{codes, error_code, GameBoard};
use crate::reference::Reference;
use crate::rules::{Color, Engine, Move, Position, Step};

/// Alternative spellings tried at most.
const SPELLINGS: usize = 24;

impl Run<'_> {
    /// Run the probes on the first game and board the engine plays.
    pub(super) fn probes(&mut self, positions: &[Position]) {
        let Some(home) = positions.iter().find(|p| {
            self.support.accepted.contains_key(&GameBoard::of(p))
                || self
                    .support
                    .declared
                    .as_ref()
                    .is_some_and(|d| d.iter().any(|c| c.covers(&GameBoard::of(p))))
        }) else {
            return;
        };
        let gb = GameBoard::of(home);
        self.malformed(gb);
        let mut tried = 0;
        for pos in positions.iter().filter(|p| GameBoard::of(p) == gb) {
            if tried >= SPELLINGS || !self.alive("probes") {
                break;
            }
            tried += self.spellings(pos, SPELLINGS - tried);
        }
    }

    /// Malformed requests and the error code each must get.
    fn malformed(&mut self, gb: GameBoard) {
        let mut empty = start_of(gb);
        for sq in empty.pieces(Color::Black) {
            empty.set(sq, None);
        }
        let invalid = format!("position {}", format_position(&empty));
        let probes: [(&str, &str); 7] = [
            ("frobnicate", codes::UNKNOWN_COMMAND),
            ("moves please", codes::BAD_ARGUMENTS),
            ("play", codes::BAD_ARGUMENTS),
            ("play e2e4", codes::BAD_MOVE),
            ("position", codes::BAD_ARGUMENTS),
            ("position 3", codes::BAD_POSITION),
            (&invalid, codes::INVALID_POSITION),
        ];
        for (req, want) in probes {
            if !self.alive("protocol probes") {
                return;
            }
            match self.drive.raw(req) {
                Ok(reply) if error_code(&reply) == Some(want) => {}
                Ok(reply) => self.report.protocol(
                    "protocol probe",
                    req,
                    &reply,
                    &format!("'error {want} …'"),
                ),
                Err(f) => self.incident(&format!("protocol probe '{req}'"), f),
            }
        }
    }

    /// Try the other spellings of the moves of `pos` (at most `max`); returns how many.
    fn spellings(&mut self, pos: &Position, max: usize) -> usize {
        let Ok(reference) = Reference::from_position(pos) else {
            return 0;
        };
        let mut tried = 0;
        let spaced = format!(" \t{}  ", format_position(pos).replace(' ', "\t "));
        if tried < max {
            tried += 1;
            self.spelled_position(pos, &spaced);
        }
        for mv in reference.legal_moves() {
            if tried >= max {
                break;
            }
            for alt in other_spellings(&reference, &mv) {
                if tried >= max || !self.alive("spelling probes") {
                    break;
                }
                tried += 1;
                self.spelled_move(pos, &mv, &alt);
            }
        }
        tried
    }

    /// `position` in a non-canonical spacing must be set as the canonical position.
    fn spelled_position(&mut self, pos: &Position, text: &str) {
        let place = "spelling probe (position)";
        match self.drive.set_text(text) {
            Ok(SetReply::Accepted) => match self.drive.show() {
                Ok(Some(got)) if got != *pos => self.report.protocol(place, &format!("position {text}"), &format!("position {}", format_position(&got)), &format!("the position {}", format_position(pos))),
                Ok(_) => {}
                Err(f) => self.incident(place, f),
            },
            Ok(SetReply::Refused(r) | SetReply::Unsupported(r)) => {
                self.report.protocol(place, &format!("position {text}"), &r, "'ok' (spec/notation.md: fields are separated by one or more spaces or tabs, surrounding whitespace is ignored)")
            }
            Err(f) => self.incident(place, f),
        }
    }

    /// `play` of a move in another accepted spelling must play the canonical move.
    fn spelled_move(&mut self, pos: &Position, mv: &Move, alt: &str) {
        let place = "spelling probe (move)";
        let canonical = format_move(mv);
        let result = (|| {
            if self.drive.set(pos)? != SetReply::Accepted {
                return Ok(None);
            }
            if let Some(err) = self.drive.play(alt)? {
                return Ok(Some(Err(err)));
            }
            Ok(self.drive.show()?.map(Ok))
        })();
        let want = Reference::from_position(pos).map(|r| r.apply(mv).to_position());
        match (result, want) {
            (Ok(Some(Err(reply))), _) => self.report.protocol(
                place,
                &format!("play {alt}"),
                &reply,
                &format!("'ok': {alt} is an accepted spelling of {canonical} (spec/notation.md)"),
            ),
            (Ok(Some(Ok(got))), Ok(want)) if got != want => self.report.protocol(
                place,
                &format!("play {alt}"),
                &format!("position {}", format_position(&got)),
                &format!("the position after {canonical}"),
            ),
            (Err(f), _) => self.incident(place, f),
            _ => {}
        }
    }
}

/// The spellings of `mv` other than the canonical one that engines must accept: an ordo with
/// its ends the other way round, a kept group named by another of its squares.
pub fn other_spellings<E: Engine>(e: &E, mv: &Move) -> Vec<String> {
    let mut out = Vec::new();
    if let (Step::Ordo { first, last, to }, None) = (mv.first, mv.second) {
        let (dc, dr) = (
            to.col as i8 - first.col as i8,
            to.row as i8 - first.row as i8,
        );
        if let Some(to2) = e.dims().offset(last, dc, dr) {
            let flipped = Move::single(Step::Ordo {
                first: last,
                last: first,
                to: to2,
            });
            out.push(format_move(&flipped));
        }
    }
    if let (
        Step::Single {
            from,
            to,
            capture: true,
            keep: Some(k),
        },
        None,
    ) = (mv.first, mv.second)
    {
        let after = e.apply(mv).to_position();
        let victim = e.to_position().to_move.opponent();
        if let Some(other) = after.pieces(victim).into_iter().find(|&s| s != k) {
            let alt = Move::single(Step::Single {
                from,
                to,
                capture: true,
                keep: Some(other),
            });
            out.push(format_move(&alt));
        }
    }
    out
}
