//! `ordo engine`: an engine of this crate served over the line protocol of `spec/protocol.md`.
//!
//! The server reads one request per line and writes exactly one reply line for each (blank
//! lines are ignored), flushing after every reply. It never panics on input: every malformed
//! line gets an `error <code> <message>` reply and the server goes on.

use std::collections::VecDeque;
use std::io::{self, BufRead, Write};
use std::time::{Duration, Instant};

use super::lines::{read_line, Line};
use super::protocol::{capabilities_reply, codes, error_reply, status_reply, GameBoard};
use super::protocol::{parse_game_request, MAX_GAME_MOVES, MAX_REQUEST, VERSION};
use crate::notation::{echo, format_position, parse_move, parse_position};
use crate::reference::Reference;
use crate::rules::{setup, Engine, Move, Position, PositionError, Status, Variant};

/// Which engine of this crate to serve.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EngineChoice {
    /// The reference engine (crates/reference/).
    Reference,
    /// The bitboard engine (crates/bitboard/).
    Bitboard,
}

impl EngineChoice {
    /// The engine's name.
    pub fn name(self) -> &'static str {
        match self {
            EngineChoice::Reference => Reference::NAME,
            EngineChoice::Bitboard => crate::bitboard::Bitboard::NAME,
        }
    }
}

/// A loaded position as the served engine sees it.
pub trait State: Send {
    /// The position.
    fn position(&self) -> Position;
    /// The engine's move list.
    fn moves(&self) -> Vec<Move>;
    /// The engine's status.
    fn status(&self) -> Status;
    /// The position after the engine plays `mv` (any accepted spelling), or `None` when the
    /// engine does not consider it legal.
    fn play(&self, mv: &Move) -> Option<Position>;
    /// Perft, or `None` once the budget is spent (too many leaves, or its time is up).
    fn perft(&self, depth: u32, budget: &mut PerftBudget) -> Option<u64>;
}

/// The rules a server follows. This crate's engines follow them as written
/// ([`EngineChoice`]); the test tooling serves deliberate deviations through its own
/// implementation, to prove that `ordo conform` catches each one.
pub trait Rules: Send {
    /// The name the handshake reports.
    fn name(&self) -> String;
    /// What `capabilities` answers: `None` when the engine does not know the request.
    fn capabilities(&self) -> Option<Vec<GameBoard>>;
    /// The error reply to a position the engine does not play, if it is one.
    fn refuse(&self, pos: &Position) -> Option<String>;
    /// The position loaded, or why it cannot be set up.
    fn load(&self, pos: &Position) -> Result<Box<dyn State>, PositionError>;
    /// Leaves one `perft` request may count before it is refused.
    fn perft_budget(&self) -> u64;
    /// The depth from which the engine's own perft counts the leaves in one call (the budget
    /// is checked between such calls, so each must be quick).
    fn perft_bulk_depth(&self) -> u32 {
        1
    }
    /// Whether the engine knows the `game` request; one that does not answers it
    /// `error unknown-command`, as an engine written before the request.
    fn knows_game(&self) -> bool {
        true
    }
    /// The reply to `status`: `history` holds the positions of the game so far (the start of
    /// the last `game`, `position` or `variant`, then one per move played; at most
    /// [`MAX_GAME_MOVES`] + 1, the oldest forgotten first), the current position last. The
    /// rules of `spec/rules.md` never look at it (ORDO-3.3).
    fn status_in_game(&self, state: &dyn State, history: &[Position]) -> String {
        let _ = history;
        status_reply(state.status())
    }
}

/// A position loaded into engine `E`.
struct Loaded<E: Engine>(E);

impl<E: Engine> State for Loaded<E> {
    fn position(&self) -> Position {
        self.0.to_position()
    }
    fn moves(&self) -> Vec<Move> {
        self.0.legal_moves()
    }
    fn status(&self) -> Status {
        self.0.status()
    }
    fn play(&self, mv: &Move) -> Option<Position> {
        self.0.play(mv).ok().map(|e| e.to_position())
    }
    fn perft(&self, depth: u32, budget: &mut PerftBudget) -> Option<u64> {
        budgeted_perft(&self.0, depth, budget)
    }
}

/// What one `perft` request may spend: leaves and time. The bulk depth is where the engine's
/// own perft takes over (checked between its calls only).
#[derive(Clone, Debug)]
pub struct PerftBudget {
    leaves: u64,
    deadline: Instant,
    bulk: u32,
    /// Set once the time ran out (rather than the leaves).
    pub timed_out: bool,
}

impl PerftBudget {
    /// At most `leaves` leaves within `time`, the engine's own perft counting from depth `bulk`.
    pub fn new(leaves: u64, time: Duration, bulk: u32) -> PerftBudget {
        PerftBudget {
            leaves,
            deadline: Instant::now() + time,
            bulk: bulk.max(1),
            timed_out: false,
        }
    }

    /// The depth from which the engine's own perft counts.
    pub fn bulk(&self) -> u32 {
        self.bulk
    }
}

/// Take `n` leaves from the budget; `None` when it does not hold them or its time is up.
pub fn spend(budget: &mut PerftBudget, n: u64) -> Option<u64> {
    if Instant::now() >= budget.deadline {
        budget.timed_out = true;
        return None;
    }
    budget.leaves = budget.leaves.checked_sub(n)?;
    Some(n)
}

/// Perft that gives up once it has counted more leaves than the budget holds, or its time is
/// up. The last plies (the budget's bulk depth) are counted by the engine's own perft.
fn budgeted_perft<E: Engine>(e: &E, depth: u32, budget: &mut PerftBudget) -> Option<u64> {
    if depth <= budget.bulk() {
        return spend(budget, e.perft(depth));
    }
    let mut total = 0;
    for m in e.legal_moves() {
        total += budgeted_perft(&e.apply(&m), depth - 1, budget)?;
    }
    Some(total)
}

/// Leaves one `perft` request may count on the reference engine (or under a planted
/// deviation) before it is refused: about ten seconds of work (spec/protocol.md, `perft`).
pub const PERFT_BUDGET_REFERENCE: u64 = 1_000_000;
/// The same for the bitboard engine.
pub const PERFT_BUDGET_BITBOARD: u64 = 200_000_000;
/// The longest one `perft` request may run on any engine before it is refused
/// (spec/protocol.md, `perft`).
pub const PERFT_TIME: Duration = Duration::from_secs(10);

/// Every game on every board (`classic:* x:*`).
pub fn every_game() -> Vec<GameBoard> {
    Variant::ALL
        .into_iter()
        .map(|variant| GameBoard {
            variant,
            dims: None,
        })
        .collect()
}

impl Rules for EngineChoice {
    fn name(&self) -> String {
        format!(
            "ordo {} {}",
            EngineChoice::name(*self),
            env!("CARGO_PKG_VERSION")
        )
    }
    fn capabilities(&self) -> Option<Vec<GameBoard>> {
        Some(every_game())
    }
    fn refuse(&self, _: &Position) -> Option<String> {
        None
    }
    fn load(&self, pos: &Position) -> Result<Box<dyn State>, PositionError> {
        Ok(match self {
            EngineChoice::Reference => Box::new(Loaded(Reference::from_position(pos)?)),
            EngineChoice::Bitboard => {
                Box::new(Loaded(crate::bitboard::Bitboard::from_position(pos)?))
            }
        })
    }
    fn perft_budget(&self) -> u64 {
        match self {
            EngineChoice::Reference => PERFT_BUDGET_REFERENCE,
            EngineChoice::Bitboard => PERFT_BUDGET_BITBOARD,
        }
    }
    fn perft_bulk_depth(&self) -> u32 {
        match self {
            // One level of the reference engine can take seconds in Ordo X: count it move by
            // move so that the time limit is checked often.
            EngineChoice::Reference => 1,
            EngineChoice::Bitboard => 2,
        }
    }
}

/// The protocol state of one session.
pub struct Server {
    rules: Box<dyn Rules>,
    handshaken: bool,
    state: Box<dyn State>,
    /// The positions of the game so far, the current one last (see [`Rules::status_in_game`]).
    history: VecDeque<Position>,
    quit: bool,
    perft_budget: u64,
    perft_time: Duration,
}

/// The session's state without the engine objects (trait objects): the engine's name, the
/// position, the game's length and the limits.
impl std::fmt::Debug for Server {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Server")
            .field("rules", &self.rules.name())
            .field("handshaken", &self.handshaken)
            .field("position", &self.state.position())
            .field("history", &self.history.len())
            .field("quit", &self.quit)
            .field("perft_budget", &self.perft_budget)
            .field("perft_time", &self.perft_time)
            .finish()
    }
}

impl Server {
    /// A server for one of this crate's engines. It starts on the standard classic start.
    pub fn new(choice: EngineChoice) -> Server {
        Server::with_rules(Box::new(choice))
    }

    /// A server following `rules`. It starts on the standard classic start.
    pub fn with_rules(rules: Box<dyn Rules>) -> Server {
        let start = setup::standard(Variant::Classic);
        let state = rules
            .load(&start)
            .expect("the standard start can always be set up");
        Server {
            history: VecDeque::from([start]),
            perft_budget: rules.perft_budget(),
            perft_time: PERFT_TIME,
            rules,
            handshaken: false,
            state,
            quit: false,
        }
    }

    /// The same server with another limit on the leaves one `perft` request may count.
    pub fn with_perft_budget(mut self, leaves: u64) -> Server {
        self.perft_budget = leaves;
        self
    }

    /// The same server with another limit on the time one `perft` request may take.
    pub fn with_perft_time(mut self, time: Duration) -> Server {
        self.perft_time = time;
        self
    }

    /// The name the handshake reports.
    pub fn name(&self) -> String {
        self.rules.name()
    }

    /// Whether `quit` has been received.
    pub fn done(&self) -> bool {
        self.quit
    }

    /// The reply to one request line (without its line end); `None` for a blank line.
    /// The reply to `moves`: every legal move once, sorted.
    fn moves_reply(&self) -> String {
        let mut v = crate::notation::sorted_notation(&self.state.moves());
        v.dedup();
        if v.is_empty() {
            "moves".into()
        } else {
            format!("moves {}", v.join(" "))
        }
    }

    /// Answer one request line (a trailing `\r` is ignored): the reply line without its newline, or
    /// `None` for a blank line, which gets no reply.
    pub fn handle(&mut self, line: &str) -> Option<String> {
        let line = line.strip_suffix('\r').unwrap_or(line);
        let trimmed = line.trim();
        if trimmed.is_empty() {
            return None;
        }
        let (word, rest) = match trimmed.split_once(char::is_whitespace) {
            Some((w, r)) => (w, r.trim()),
            None => (trimmed, ""),
        };
        let args: Vec<&str> = rest.split_whitespace().collect();
        if word == "quit" {
            self.quit = true;
            return Some("bye".into());
        }
        if word == "ordo" {
            return Some(self.handshake(&args));
        }
        if !self.handshaken {
            return Some(error_reply(
                codes::NO_HANDSHAKE,
                &format!("send 'ordo {VERSION}' first"),
            ));
        }
        Some(match word {
            "variant" => self.variant(&args),
            "position" => self.position(rest),
            "moves" => match refuse_args("moves", &args) {
                Some(refusal) => refusal,
                None => self.moves_reply(),
            },
            "play" => self.play(&args),
            "status" => match refuse_args("status", &args) {
                Some(refusal) => refusal,
                None => self
                    .rules
                    .status_in_game(self.state.as_ref(), self.history.make_contiguous()),
            },
            "game" if self.rules.knows_game() => self.game(rest),
            "show" => match refuse_args("show", &args) {
                Some(refusal) => refusal,
                None => format!("position {}", format_position(&self.state.position())),
            },
            "perft" => self.perft(&args),
            "capabilities" => self.capabilities(&args),
            other => error_reply(
                codes::UNKNOWN_COMMAND,
                &format!(
                    "'{}' is not a request (ordo, capabilities, variant, position, game, moves, play, status, show, perft, quit)",
                    echo(other)
                ),
            ),
        })
    }

    fn handshake(&mut self, args: &[&str]) -> String {
        match args {
            [v] if *v == VERSION.to_string() => {
                self.handshaken = true;
                format!("ordo {VERSION} ok name {}", self.name())
            }
            [v] if v.parse::<u64>().is_ok() => error_reply(
                codes::UNSUPPORTED_VERSION,
                &format!("this engine speaks ordo {VERSION}"),
            ),
            _ => error_reply(
                codes::BAD_ARGUMENTS,
                &format!("expected 'ordo {VERSION}' (the protocol version)"),
            ),
        }
    }

    fn variant(&mut self, args: &[&str]) -> String {
        match standard_start("variant classic|x [10x8|8x8]", args) {
            Ok(pos) => self.set(&pos),
            Err(refusal) => refusal,
        }
    }

    /// `game <start> [moves <move> …]`: the position after the moves, with its history; on
    /// any error the previous position and history stay.
    fn game(&mut self, rest: &str) -> String {
        let request = match parse_game_request(rest) {
            Ok(r) => r,
            Err(message) => return error_reply(codes::BAD_ARGUMENTS, &message),
        };
        let start = match request.standard() {
            Some(args) if args.is_empty() => Ok(setup::standard(Variant::Classic)),
            Some(args) => {
                standard_start("game start [classic|x [10x8|8x8]] [moves <move> …]", &args)
            }
            None => parse_position(&request.start)
                .map_err(|e| error_reply(codes::BAD_POSITION, &e.to_string())),
        };
        let start = match start {
            Ok(p) => p,
            Err(refusal) => return refusal,
        };
        if let Some(refusal) = self.rules.refuse(&start) {
            return refusal;
        }
        let mut state = match self.rules.load(&start) {
            Ok(s) => s,
            Err(e) => return error_reply(codes::INVALID_POSITION, &e.to_string()),
        };
        let mut history = VecDeque::from([start]);
        for (i, text) in request.moves.iter().enumerate() {
            let played = parse_move(text)
                .map_err(|e| {
                    error_reply(codes::BAD_MOVE, &format!("move {} of the game: {e}", i + 1))
                })
                .and_then(|mv| {
                    self.next(state.as_ref(), &mv).ok_or_else(|| {
                        error_reply(
                            codes::ILLEGAL_MOVE,
                            &format!("{text} (move {} of the game)", i + 1),
                        )
                    })
                });
            match played {
                Ok((s, p)) => {
                    state = s;
                    history.push_back(p);
                }
                Err(refusal) => return refusal,
            }
        }
        self.state = state;
        self.history = history;
        "ok".into()
    }

    /// The state after `mv` in `state` and its position, or `None` when the move is illegal.
    fn next(&self, state: &dyn State, mv: &Move) -> Option<(Box<dyn State>, Position)> {
        if mv.off_board_square(state.position().dims()).is_some() {
            return None;
        }
        let p = state.play(mv)?;
        let s = self.rules.load(&p).ok()?;
        Some((s, p))
    }

    fn position(&mut self, text: &str) -> String {
        if text.is_empty() {
            return error_reply(codes::BAD_ARGUMENTS, "expected 'position <notation>'");
        }
        match parse_position(text) {
            Ok(pos) => self.set(&pos),
            Err(e) => error_reply(codes::BAD_POSITION, &e.to_string()),
        }
    }

    /// `capabilities`: every game on every board, or what the rules served declare.
    fn capabilities(&self, args: &[&str]) -> String {
        match (self.rules.capabilities(), refuse_args("capabilities", args)) {
            (None, _) => error_reply(
                codes::UNKNOWN_COMMAND,
                "'capabilities' is not a request of this engine",
            ),
            (Some(_), Some(refusal)) => refusal,
            (Some(c), None) => capabilities_reply(&c),
        }
    }

    fn set(&mut self, pos: &Position) -> String {
        if let Some(refusal) = self.rules.refuse(pos) {
            return refusal;
        }
        match self.rules.load(pos) {
            Ok(s) => {
                self.state = s;
                self.history = VecDeque::from([pos.clone()]);
                "ok".into()
            }
            Err(e) => error_reply(codes::INVALID_POSITION, &e.to_string()),
        }
    }

    fn play(&mut self, args: &[&str]) -> String {
        let [text] = args else {
            return error_reply(codes::BAD_ARGUMENTS, "expected 'play <move>' (one move)");
        };
        let mv = match parse_move(text) {
            Ok(m) => m,
            Err(e) => return error_reply(codes::BAD_MOVE, &e.to_string()),
        };
        match self.next(self.state.as_ref(), &mv) {
            Some((s, p)) => {
                self.state = s;
                if self.history.len() > MAX_GAME_MOVES {
                    self.history.pop_front();
                }
                self.history.push_back(p);
                "ok".into()
            }
            None => error_reply(codes::ILLEGAL_MOVE, text),
        }
    }

    fn perft(&mut self, args: &[&str]) -> String {
        let [d] = args else {
            return error_reply(codes::BAD_ARGUMENTS, "expected 'perft <depth>'");
        };
        let depth = match d.parse::<u32>() {
            Ok(depth) if depth <= 8 => depth,
            _ => {
                return error_reply(
                    codes::BAD_ARGUMENTS,
                    "expected 'perft <depth>' with a depth from 0 to 8",
                )
            }
        };
        let bulk = self.rules.perft_bulk_depth();
        let mut budget = PerftBudget::new(self.perft_budget, self.perft_time, bulk);
        match self.state.perft(depth, &mut budget) {
            Some(n) => format!("perft {depth} {n}"),
            None if budget.timed_out => error_reply(
                codes::BAD_ARGUMENTS,
                &format!(
                    "perft {depth} takes more than {} ms from this position, the limit of one request",
                    self.perft_time.as_millis()
                ),
            ),
            None => error_reply(
                codes::BAD_ARGUMENTS,
                &format!(
                    "perft {depth} counts more than {} move sequences from this position, the limit of one request",
                    self.perft_budget
                ),
            ),
        }
    }
}

/// The standard start of `variant`'s arguments (`classic|x [10x8|8x8]`), or the refusal that
/// gives `usage`.
fn standard_start(usage: &str, args: &[&str]) -> Result<Position, String> {
    let (game, board) = match args {
        [g] => (*g, "10x8"),
        [g, b] => (*g, *b),
        _ => {
            return Err(error_reply(
                codes::BAD_ARGUMENTS,
                &format!("expected '{usage}'"),
            ))
        }
    };
    let Ok(variant) = game.parse::<Variant>() else {
        return Err(error_reply(
            codes::BAD_ARGUMENTS,
            &format!("unknown variant '{}': expected classic or x", echo(game)),
        ));
    };
    match board {
        "10x8" => Ok(setup::standard(variant)),
        "8x8" => Ok(setup::chess_board(variant)),
        _ => Err(error_reply(
            codes::BAD_ARGUMENTS,
            &format!("unknown board '{}': expected 10x8 or 8x8", echo(board)),
        )),
    }
}

/// The refusal of request `word` given arguments `args`, if it was given any: it takes none.
fn refuse_args(word: &str, args: &[&str]) -> Option<String> {
    (!args.is_empty()).then(|| {
        error_reply(
            codes::BAD_ARGUMENTS,
            &format!("'{word}' takes no arguments"),
        )
    })
}

/// Serve requests from `input` until `quit` or the end of input, writing each reply as one line
/// to `output` and flushing it at once. A request line keeps at most [`MAX_REQUEST`] bytes in
/// memory (the line ending not counted): the rest of a longer line is read and thrown away, and
/// the line is answered `error line-too-long`.
pub fn serve<R: BufRead, W: Write>(
    server: &mut Server,
    mut input: R,
    mut output: W,
) -> io::Result<()> {
    let mut buf = Vec::new();
    loop {
        let reply = match read_line(&mut input, MAX_REQUEST, &mut buf)? {
            Line::End => return Ok(()),
            Line::TooLong { bytes } => Some(error_reply(
                codes::LINE_TOO_LONG,
                &format!("a request line has at most {MAX_REQUEST} bytes; this one has {bytes}"),
            )),
            Line::Kept => match std::str::from_utf8(&buf) {
                Ok(line) => server.handle(line),
                Err(_) => Some(error_reply(
                    codes::BAD_ENCODING,
                    "the request line is not UTF-8",
                )),
            },
        };
        if let Some(r) = reply {
            output.write_all(r.as_bytes())?;
            output.write_all(b"\n")?;
            output.flush()?;
        }
        if server.done() {
            return Ok(());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn session(lines: &str) -> Vec<String> {
        let mut s = Server::new(EngineChoice::Reference);
        let mut out = Vec::new();
        serve(&mut s, lines.as_bytes(), &mut out).unwrap();
        String::from_utf8(out)
            .unwrap()
            .lines()
            .map(String::from)
            .collect()
    }

    #[test]
    fn a_short_session() {
        let r = session(
            "moves\nordo 2\nordo 1\n\nposition 1B/W1 b x\nmoves\nplay b2-a2\nplay b2-a2,a2xa1\nstatus\nfrobnicate\nposition 3\nposition W1/1B w classic\nquit\nmoves\n",
        );
        assert!(r[0].starts_with("error no-handshake"), "{r:?}");
        assert!(r[1].starts_with("error unsupported-version"), "{r:?}");
        assert!(r[2].starts_with("ordo 1 ok name ordo reference"), "{r:?}");
        assert_eq!(r[3], "ok");
        assert_eq!(r[4], "moves b2-a2,a2-b1 b2-a2,a2xa1 b2-b1 b2xa1");
        assert_eq!(r[5], "error illegal-move b2-a2");
        assert_eq!(r[6], "ok");
        assert_eq!(r[7], "status won black home-row");
        assert!(r[8].starts_with("error unknown-command"), "{r:?}");
        assert!(r[9].starts_with("error bad-position"), "{r:?}");
        assert!(r[10].starts_with("error invalid-position"), "{r:?}");
        assert_eq!(r[11], "bye");
        assert_eq!(r.len(), 12);
    }

    /// spec/protocol.md, `game`: a start and the moves played set the position after them, on
    /// both engines; a standard start is `start` with `variant`'s arguments; after an error the
    /// previous position stays.
    #[test]
    fn game_sets_the_position_after_its_moves() {
        for choice in [EngineChoice::Reference, EngineChoice::Bitboard] {
            let mut s = Server::new(choice);
            let mut out = Vec::new();
            let input = "ordo 1\ngame B4/5/2W2/5/5 w classic moves c3-c5\nstatus\nshow\n\
                game 1B/W1 b x\nshow\ngame start x 8x8 moves\nshow\n\
                game start moves zz\ngame 1B/W1 b x moves b2-b1 a1-a2\n\
                game start chess\ngame moves a1-a2\ngame 3\nshow\ngame start\nstatus\n";
            serve(&mut s, input.as_bytes(), &mut out).unwrap();
            let text = String::from_utf8(out).unwrap();
            let r: Vec<&str> = text.lines().collect();
            assert_eq!(r[1], "ok", "{choice:?}");
            assert_eq!(r[2], "status won white home-row", "{choice:?}");
            assert_eq!(r[3], "position B1W2/5/5/5/5 b classic", "{choice:?}");
            assert_eq!(r[4], "ok");
            assert_eq!(r[5], "position 1B/W1 b x");
            assert_eq!(r[6], "ok");
            assert!(r[7].ends_with(" w x"), "{r:?}");
            assert!(
                r[8].starts_with("error bad-move move 1 of the game"),
                "{r:?}"
            );
            assert!(
                r[9].starts_with("error illegal-move a1-a2 (move 2 of the game)"),
                "{r:?}"
            );
            assert!(
                r[10].starts_with("error bad-arguments unknown variant"),
                "{r:?}"
            );
            assert!(
                r[11].starts_with("error bad-arguments expected 'game <start>"),
                "{r:?}"
            );
            assert!(r[12].starts_with("error bad-position"), "{r:?}");
            assert!(r[13].starts_with("position "), "{r:?}");
            assert_eq!(r[14], "ok");
            assert_eq!(r[15], "status ongoing");
        }
    }

    /// spec/protocol.md, `game`: at most 1,024 moves; one more is `bad-arguments`, never work
    /// without bound.
    #[test]
    fn a_game_line_is_bounded() {
        let mut s = Server::new(EngineChoice::Reference);
        s.handle("ordo 1");
        let long = format!("game start moves{}", " e2-e3".repeat(MAX_GAME_MOVES + 1));
        let r = s.handle(&long).unwrap();
        assert!(
            r.starts_with(
                "error bad-arguments a game line has at most 1024 moves; this one has 1025"
            ),
            "{r}"
        );
    }

    /// `perft 8` on the standard start must not block the session for ever: a hostile client
    /// cannot hang the engine.
    #[test]
    fn perft_stops_at_its_budget_and_the_session_goes_on() {
        let mut s = Server::new(EngineChoice::Reference).with_perft_budget(1_000);
        let mut out = Vec::new();
        let input = "ordo 1\nperft 8\nperft 2\nposition BBBB/4/4/WWWW w classic\nperft 2\n";
        serve(&mut s, input.as_bytes(), &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        let r: Vec<&str> = text.lines().collect();
        assert!(
            r[1].starts_with("error bad-arguments perft 8 counts more than 1000"),
            "{r:?}"
        );
        assert!(r[2].starts_with("error bad-arguments perft 2"), "{r:?}");
        assert_eq!(r[4], "perft 2 150");
    }

    /// `perft` is bounded by time as well as by leaves, on both engines: in
    /// Ordo X on 10 x 8 the reference engine's few leaves take long, and the time limit
    /// refuses the request long before the leaf limit would.
    #[test]
    fn perft_stops_at_its_time_limit_on_both_engines() {
        for (choice, depth) in [(EngineChoice::Reference, 3), (EngineChoice::Bitboard, 6)] {
            let mut s = Server::new(choice).with_perft_time(Duration::from_millis(200));
            let mut out = Vec::new();
            let input = format!("ordo 1\nvariant x\nperft {depth}\nstatus\n");
            let start = Instant::now();
            serve(&mut s, input.as_bytes(), &mut out).unwrap();
            let took = start.elapsed();
            let text = String::from_utf8(out).unwrap();
            let r: Vec<&str> = text.lines().collect();
            assert!(
                r[2].starts_with(&format!(
                    "error bad-arguments perft {depth} takes more than 200 ms"
                )),
                "{choice:?}: {r:?}"
            );
            assert_eq!(r[3], "status ongoing");
            assert!(took < Duration::from_secs(3), "{choice:?}: {took:?}");
        }
    }

    /// spec/protocol.md: a request of exactly 65,536 bytes is accepted, the line ending not
    /// counted; one byte more is `line-too-long`.
    #[test]
    fn a_request_of_exactly_the_limit_is_accepted() {
        let mut s = Server::new(EngineChoice::Reference);
        let pad = |n: usize| format!("status{}", " ".repeat(n - "status".len()));
        let input = format!(
            "ordo 1\n{}\n{}\r\n{}\n",
            pad(MAX_REQUEST),
            pad(MAX_REQUEST),
            pad(MAX_REQUEST + 1)
        );
        let mut out = Vec::new();
        serve(&mut s, input.as_bytes(), &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        let r: Vec<&str> = text.lines().collect();
        assert_eq!(r[1], "status ongoing");
        assert_eq!(r[2], "status ongoing");
        assert!(r[3].starts_with("error line-too-long"), "{r:?}");
    }

    #[test]
    fn bad_bytes_and_long_lines() {
        let mut s = Server::new(EngineChoice::Reference);
        let mut input = b"ordo 1\n\xff\xfe\n".to_vec();
        input.extend(std::iter::repeat_n(b'a', MAX_REQUEST + 10));
        input.extend(b"\nstatus\n");
        let mut out = Vec::new();
        serve(&mut s, &input[..], &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        let r: Vec<&str> = text.lines().collect();
        assert!(r[1].starts_with("error bad-encoding"));
        assert!(r[2].starts_with("error line-too-long"));
        assert_eq!(r[3], "status ongoing");
    }
}
