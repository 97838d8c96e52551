//! Driving the engine: the requests `ordo conform` sends and how their replies are read. Every
//! function returns the engine's answer or the [`Failure`] (crash, hang, garbage) that stopped
//! it; nothing here compares or judges.

use std::collections::BTreeSet;

use super::difference::Seen;
use crate::client::{External, Failure};
use crate::notation::{format_position, parse_position};
use crate::protocol::{codes, error_code, game_request, parse_capabilities_reply};
use crate::protocol::{parse_moves_reply, parse_status_reply, GameBoard};
use crate::rules::Position;

/// The engine's answer to `position`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SetReply {
    /// `ok`: the engine set the position up.
    Accepted,
    /// `error unsupported …`.
    Unsupported(String),
    /// Any other error reply.
    Refused(String),
}

/// The engine and what its replies showed about the protocol.
#[derive(Debug)]
pub struct Driver {
    /// The engine process being driven, with its health so far.
    pub engine: External,
    /// `moves` replies not sorted by byte order.
    pub unsorted: usize,
    /// Whether the engine answers `show`; `None` until asked.
    pub shows: Option<bool>,
    /// The moves of the engine's last `moves` reply.
    pub last_moves: BTreeSet<String>,
    /// Whether the engine knows `game`; `None` until asked.
    pub knows_game: Option<bool>,
}

impl Driver {
    /// Drive `engine`, nothing yet known of its replies.
    pub fn new(engine: External) -> Driver {
        Driver {
            engine,
            unsorted: 0,
            shows: None,
            last_moves: BTreeSet::new(),
            knows_game: None,
        }
    }

    /// `capabilities`: `Ok(None)` when the engine does not know the request.
    pub fn capabilities(&mut self) -> Result<Option<Vec<GameBoard>>, Failure> {
        let reply = self.engine.request("capabilities")?;
        match parse_capabilities_reply(&reply) {
            Some(Ok(caps)) => Ok(Some(caps)),
            Some(Err(e)) => Err(self.engine.garbage("capabilities", &reply, &e.to_string())),
            None if error_code(&reply).is_some() => Ok(None),
            None => Err(self.engine.garbage(
                "capabilities",
                &reply,
                "'capabilities …' or 'error unknown-command …'",
            )),
        }
    }

    /// Send `position` with `text` as the position.
    pub fn set_text(&mut self, text: &str) -> Result<SetReply, Failure> {
        let req = format!("position {text}");
        let reply = self.engine.request(&req)?;
        match error_code(&reply) {
            _ if reply.trim() == "ok" => Ok(SetReply::Accepted),
            Some(codes::UNSUPPORTED) => Ok(SetReply::Unsupported(reply)),
            Some(_) => Ok(SetReply::Refused(reply)),
            None => Err(self.engine.garbage(&req, &reply, "'ok' or 'error …'")),
        }
    }

    /// Set a position in its canonical text.
    pub fn set(&mut self, pos: &Position) -> Result<SetReply, Failure> {
        self.set_text(&format_position(pos))
    }

    /// `game <start> moves …`: `Ok(None)` when the engine does not know the request (it
    /// answers `error unknown-command`; later calls return `None` at once).
    pub fn game(&mut self, start: &str, moves: &[String]) -> Result<Option<SetReply>, Failure> {
        if self.knows_game == Some(false) {
            return Ok(None);
        }
        let req = game_request(start, moves);
        let reply = self.engine.request(&req)?;
        let answer = match error_code(&reply) {
            _ if reply.trim() == "ok" => SetReply::Accepted,
            Some(codes::UNKNOWN_COMMAND) if self.knows_game.is_none() => {
                self.knows_game = Some(false);
                return Ok(None);
            }
            Some(codes::UNSUPPORTED) => SetReply::Unsupported(reply),
            Some(_) => SetReply::Refused(reply),
            None => return Err(self.engine.garbage(&req, &reply, "'ok' or 'error …'")),
        };
        self.knows_game = Some(true);
        Ok(Some(answer))
    }

    /// The moves and the status of the engine's current position.
    pub fn look(&mut self) -> Result<Seen, Failure> {
        let reply = self.engine.request("moves")?;
        let Some(moves) = parse_moves_reply(&reply) else {
            return Err(self.engine.garbage("moves", &reply, "'moves …'"));
        };
        if moves.windows(2).any(|w| w[0] > w[1]) {
            self.unsorted += 1;
        }
        self.last_moves = moves.iter().cloned().collect();
        let reply = self.engine.request("status")?;
        let Some(status) = parse_status_reply(&reply) else {
            return Err(self.engine.garbage(
                "status",
                &reply,
                "'status ongoing' or 'status won <white|black> <reason>'",
            ));
        };
        Ok(Seen { moves, status })
    }

    /// `play <text>`: `Ok(None)` when played, `Ok(Some(reply))` for an error reply.
    pub fn play(&mut self, text: &str) -> Result<Option<String>, Failure> {
        let req = format!("play {text}");
        let reply = self.engine.request(&req)?;
        if reply.trim() == "ok" {
            Ok(None)
        } else if error_code(&reply).is_some() {
            Ok(Some(reply))
        } else {
            Err(self.engine.garbage(&req, &reply, "'ok' or 'error …'"))
        }
    }

    /// `show`: the engine's position, or `Ok(None)` when the engine does not answer `show`
    /// (asked once; later calls return `None` at once).
    pub fn show(&mut self) -> Result<Option<Position>, Failure> {
        if self.shows == Some(false) {
            return Ok(None);
        }
        let reply = self.engine.request("show")?;
        if let Some(text) = reply.trim().strip_prefix("position ") {
            if let Ok(p) = parse_position(text) {
                self.shows = Some(true);
                return Ok(Some(p));
            }
        }
        if self.shows.is_none() && error_code(&reply).is_some() {
            self.shows = Some(false);
            return Ok(None);
        }
        Err(self.engine.garbage("show", &reply, "'position <position>'"))
    }

    /// Send any line and return the reply as it is (the protocol probes).
    pub fn raw(&mut self, line: &str) -> Result<String, Failure> {
        self.engine.request(line)
    }
}
