//! The engine protocol of `spec/protocol.md`: the words of requests and replies, shared by the
//! server ([`super::server`]) and the client ([`super::client`]).
//!
//! One request per line, one reply per line, UTF-8, `\n` line ends (a `\r` before it is
//! ignored). The client starts with `ordo 1`; the engine answers `ordo 1 ok name <name>`.

use crate::rules::{Color, Dims, ParseDimsError, Position, Status, Variant, WinReason};

/// The protocol version this crate speaks.
pub const VERSION: u32 = 1;

/// Longest request line the server reads, in bytes; longer lines get `error line-too-long`.
pub const MAX_REQUEST: usize = 64 * 1024;

/// Longest reply line the client reads, in bytes (a `moves` reply on a large Ordo X board can
/// hold thousands of moves).
pub const MAX_REPLY: usize = 8 * 1024 * 1024;

/// The error codes of `error <code> <message>` replies.
pub mod codes {
    /// A request before the handshake.
    pub const NO_HANDSHAKE: &str = "no-handshake";
    /// `ordo <n>` with a version the engine does not speak.
    pub const UNSUPPORTED_VERSION: &str = "unsupported-version";
    /// The first word is no request of the protocol.
    pub const UNKNOWN_COMMAND: &str = "unknown-command";
    /// Missing, extra or malformed arguments.
    pub const BAD_ARGUMENTS: &str = "bad-arguments";
    /// `position` with text that is not position notation.
    pub const BAD_POSITION: &str = "bad-position";
    /// `position` with a position that cannot be set up (ORDO-2.3).
    pub const INVALID_POSITION: &str = "invalid-position";
    /// `play` with text that is not move notation.
    pub const BAD_MOVE: &str = "bad-move";
    /// `play` with a move that is not legal in the current position.
    pub const ILLEGAL_MOVE: &str = "illegal-move";
    /// A game or board the engine does not play (see `capabilities`).
    pub const UNSUPPORTED: &str = "unsupported";
    /// A request line longer than the engine accepts.
    pub const LINE_TOO_LONG: &str = "line-too-long";
    /// A request line that is not UTF-8.
    pub const BAD_ENCODING: &str = "bad-encoding";
    /// The engine failed on a valid request (its own code raised); `ordo engine` never sends
    /// it, the helper modules of `spec/conformance/adapters/` do.
    pub const INTERNAL_ERROR: &str = "internal-error";
    /// Every code, for documentation checks.
    pub const ALL: [&str; 12] = [
        NO_HANDSHAKE,
        UNSUPPORTED_VERSION,
        UNKNOWN_COMMAND,
        BAD_ARGUMENTS,
        BAD_POSITION,
        INVALID_POSITION,
        BAD_MOVE,
        ILLEGAL_MOVE,
        UNSUPPORTED,
        LINE_TOO_LONG,
        BAD_ENCODING,
        INTERNAL_ERROR,
    ];
}

/// An error reply: `error <code> <message>`, the message flattened to one line.
pub fn error_reply(code: &str, message: &str) -> String {
    let flat: String = message
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    let flat = flat.trim();
    if flat.is_empty() {
        format!("error {code}")
    } else {
        format!("error {code} {flat}")
    }
}

/// The reply to `status`: `status ongoing` or `status won <white|black> <reason>`.
pub fn status_reply(s: Status) -> String {
    match s {
        Status::Ongoing => "status ongoing".to_string(),
        Status::Won { winner, reason } => {
            format!("status won {} {}", winner.name(), reason.name())
        }
    }
}

/// A status as an engine reported it: the protocol's statuses, and `draw`, which the protocol
/// does not define but which an engine that reads ORDO-10.3 or ORDO-10.4 as a draw may send.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReportedStatus {
    /// `ongoing`: the game goes on.
    Ongoing,
    /// `draw`: not in the protocol; an engine reading ORDO-10.3 or ORDO-10.4 as a draw sends it.
    Draw,
    /// A win, with the winner and the reason the engine gave.
    Won {
        /// The side that won.
        winner: Color,
        /// Why, as the rules name the reasons.
        reason: WinReason,
    },
}

impl ReportedStatus {
    /// The reported form of one of our statuses.
    pub fn of(s: Status) -> ReportedStatus {
        match s {
            Status::Ongoing => ReportedStatus::Ongoing,
            Status::Won { winner, reason } => ReportedStatus::Won { winner, reason },
        }
    }

    /// The clause a reported win cites, if any.
    pub fn clause(self) -> Option<crate::rules::ClauseId> {
        match self {
            ReportedStatus::Won { reason, .. } => Some(reason.clause_id()),
            _ => None,
        }
    }
}

impl std::fmt::Display for ReportedStatus {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            ReportedStatus::Ongoing => f.write_str("ongoing"),
            ReportedStatus::Draw => f.write_str("draw"),
            ReportedStatus::Won { winner, reason } => {
                write!(f, "won {} {}", winner.name(), reason.name())
            }
        }
    }
}

/// Read a `status …` reply; `None` when it is not one.
pub fn parse_status_reply(line: &str) -> Option<ReportedStatus> {
    let words: Vec<&str> = line.split_whitespace().collect();
    match words.as_slice() {
        ["status", "ongoing"] => Some(ReportedStatus::Ongoing),
        ["status", "draw"] => Some(ReportedStatus::Draw),
        ["status", "won", w, r] => {
            let winner = Color::ALL.into_iter().find(|c| c.name() == *w)?;
            let reason = WinReason::from_name(r)?;
            Some(ReportedStatus::Won { winner, reason })
        }
        _ => None,
    }
}

/// Read a `moves …` reply into its move texts; `None` when it is not one.
pub fn parse_moves_reply(line: &str) -> Option<Vec<String>> {
    let mut words = line.split_whitespace();
    (words.next()? == "moves").then(|| words.map(str::to_string).collect())
}

/// Read a handshake reply `ordo <version> ok name <name>`: the name (possibly empty), or `None`
/// when the line is no positive answer for `version`.
pub fn parse_handshake_reply(line: &str, version: u32) -> Option<String> {
    let rest = line.trim().strip_prefix("ordo ")?;
    let rest = rest.strip_prefix(&version.to_string())?;
    let rest = rest.strip_prefix(" ok")?;
    if rest.is_empty() {
        return Some(String::new());
    }
    let name = rest.strip_prefix(" name")?;
    Some(name.trim().to_string())
}

/// One game on one board, or on every board (`None`): a token of a `capabilities` reply.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct GameBoard {
    /// The game.
    pub variant: Variant,
    /// The board; `None` for every board ORDO-1.5 allows (`*`).
    pub dims: Option<Dims>,
}

impl GameBoard {
    /// The game and board of a position.
    pub fn of(pos: &Position) -> GameBoard {
        GameBoard {
            variant: pos.variant,
            dims: Some(pos.dims()),
        }
    }

    /// Whether this token covers `other` (a `*` board covers every board of its game).
    pub fn covers(&self, other: &GameBoard) -> bool {
        self.variant == other.variant && (self.dims.is_none() || self.dims == other.dims)
    }
}

impl std::fmt::Display for GameBoard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let game = match self.variant {
            Variant::Classic => "classic",
            Variant::X => "x",
        };
        match self.dims {
            Some(d) => write!(f, "{game}:{}x{}", d.cols, d.rows),
            None => write!(f, "{game}:*"),
        }
    }
}

/// Why a `<game>:<board>` token does not read as a [`GameBoard`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseGameBoardError {
    /// No `:` between a game and a board.
    #[error("'{}' is not <game>:<board>", .0.escape_debug())]
    Form(String),
    /// The game is neither `classic` nor `x`.
    #[error("unknown game '{}': expected classic or x", .0.escape_debug())]
    Game(String),
    /// The board is neither `*` nor a board size.
    #[error(transparent)]
    Board(#[from] ParseDimsError),
}

impl std::str::FromStr for GameBoard {
    type Err = ParseGameBoardError;

    /// `classic:10x8`, `x:*`, …
    fn from_str(s: &str) -> Result<GameBoard, ParseGameBoardError> {
        let (game, board) = s
            .split_once(':')
            .ok_or_else(|| ParseGameBoardError::Form(s.to_string()))?;
        let variant = game
            .parse::<Variant>()
            .map_err(|_| ParseGameBoardError::Game(game.to_string()))?;
        let dims = match board {
            "*" => None,
            b => Some(b.parse::<Dims>()?),
        };
        Ok(GameBoard { variant, dims })
    }
}

/// The reply to `capabilities`.
pub fn capabilities_reply(tokens: &[GameBoard]) -> String {
    let words: Vec<String> = tokens.iter().map(|t| t.to_string()).collect();
    format!("capabilities {}", words.join(" "))
        .trim_end()
        .to_string()
}

/// Read a `capabilities …` reply; `None` when the line is not one, `Some(Err)` when a token
/// does not read.
pub fn parse_capabilities_reply(line: &str) -> Option<Result<Vec<GameBoard>, ParseGameBoardError>> {
    let mut words = line.split_whitespace();
    if words.next()? != "capabilities" {
        return None;
    }
    Some(words.map(str::parse).collect())
}

/// Most moves one `game` request may carry (spec/protocol.md, `game`): a longer request is
/// refused with `error bad-arguments`, so that one request cannot make an engine work for ever.
pub const MAX_GAME_MOVES: usize = 1024;

/// A `game` request read into its start and its moves (the words after `moves`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRequest<'a> {
    /// The start: `start [<classic|x> [10x8|8x8]]`, or a position in notation (the words
    /// before `moves`, joined by single spaces).
    pub start: String,
    /// The moves played from the start, in order, as given.
    pub moves: Vec<&'a str>,
}

impl GameRequest<'_> {
    /// The arguments of a standard start (`start classic 8x8` → `["classic", "8x8"]`), or
    /// `None` when the start is a position.
    pub fn standard(&self) -> Option<Vec<&str>> {
        let mut words = self.start.split(' ');
        (words.next() == Some("start")).then(|| words.collect())
    }
}

/// Read the arguments of a `game` request (the text after the word `game`): the start, then
/// optionally the word `moves` and at most [`MAX_GAME_MOVES`] moves. The error is the message
/// of an `error bad-arguments` reply.
pub fn parse_game_request(rest: &str) -> Result<GameRequest<'_>, String> {
    let words: Vec<&str> = rest.split_whitespace().collect();
    let at = words
        .iter()
        .position(|w| *w == "moves")
        .unwrap_or(words.len());
    if at == 0 {
        return Err("expected 'game <start> [moves <move> …]': no start before the moves".into());
    }
    let moves = words.get(at + 1..).unwrap_or_default().to_vec();
    if moves.len() > MAX_GAME_MOVES {
        return Err(format!(
            "a game line has at most {MAX_GAME_MOVES} moves; this one has {}",
            moves.len()
        ));
    }
    Ok(GameRequest {
        start: words[..at].join(" "),
        moves,
    })
}

/// The `game` request for `start` (`start …` or a position in notation) and `moves`.
pub fn game_request(start: &str, moves: &[String]) -> String {
    if moves.is_empty() {
        format!("game {start}")
    } else {
        format!("game {start} moves {}", moves.join(" "))
    }
}

/// Read an error reply: its code, or `None` when the line is not `error <code> …`.
pub fn error_code(line: &str) -> Option<&str> {
    let mut words = line.split_whitespace();
    (words.next()? == "error").then(|| words.next().unwrap_or(""))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replies_round_trip() {
        for s in [
            Status::Ongoing,
            Status::Won {
                winner: Color::Black,
                reason: WinReason::CannotReconnect,
            },
        ] {
            assert_eq!(
                parse_status_reply(&status_reply(s)),
                Some(ReportedStatus::of(s))
            );
        }
        assert_eq!(parse_status_reply("status won blue home-row"), None);
        assert_eq!(
            parse_moves_reply("moves a1-a2 b1-b2"),
            Some(vec!["a1-a2".into(), "b1-b2".into()])
        );
        assert_eq!(parse_moves_reply("moves"), Some(vec![]));
        assert_eq!(parse_moves_reply("garbage"), None);
        assert_eq!(
            parse_handshake_reply("ordo 1 ok name my engine 2", 1).as_deref(),
            Some("my engine 2")
        );
        assert_eq!(parse_handshake_reply("ordo 1 ok", 1).as_deref(), Some(""));
        assert_eq!(parse_handshake_reply("ordo 12 ok", 1), None);
        assert_eq!(parse_handshake_reply("garbage", 1), None);
        assert_eq!(error_reply("bad-move", "a\nb"), "error bad-move a b");
        let caps = parse_capabilities_reply("capabilities classic:10x8 x:*")
            .unwrap()
            .unwrap();
        assert_eq!(capabilities_reply(&caps), "capabilities classic:10x8 x:*");
        assert!(caps[1].covers(&"x:5x5".parse().unwrap()));
        assert!(!caps[0].covers(&"classic:8x8".parse().unwrap()));
        assert!(parse_capabilities_reply("capabilities chess:8x8")
            .unwrap()
            .is_err());
        assert_eq!(error_code("error unsupported 5x5"), Some("unsupported"));
    }
}
