//! The case suite of `spec/cases/*.toml`: hand-stated expectations for every clause, run
//! against any oracle (our engines, the adjudicator, an external engine) by one harness.
//!
//! - [`Case`], [`Illegal`], [`Effect`]: one case of the suite (schema:
//!   `spec/conformance/README.md`, "The case suite");
//! - [`embedded`], [`load_dir`], [`parse_file`]: the suite compiled into the program, or read
//!   from a directory, with one-line errors naming the file, the line and the case;
//! - [`CaseOracle`], [`run_suite`], [`SuiteReport`]: the harness; implementations for our own
//!   engines and the adjudicator are in [`super::oracles`];
//! - [`fill_bulk`]: the generator of the bulk data (`moves`, `perft`) from the reference engine.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::path::Path;

use serde::Deserialize;

use crate::files::Limit;
use crate::notation::{format_position, parse_move, parse_position, NotationError};
use crate::rules::{clauses, Color, PositionError, Status, WinReason};

/// The directory of the suite within the repository.
pub const SUITE_DIR: &str = "spec/cases";

/// The suite files compiled into the program, by name, in name order.
pub const EMBEDDED: &[(&str, &str)] = &[
    ("board.toml", include_str!("../data/cases/board.toml")),
    (
        "connection.toml",
        include_str!("../data/cases/connection.toml"),
    ),
    ("end.toml", include_str!("../data/cases/end.toml")),
    ("games.toml", include_str!("../data/cases/games.toml")),
    ("moves.toml", include_str!("../data/cases/moves.toml")),
    ("ordo.toml", include_str!("../data/cases/ordo.toml")),
    ("split.toml", include_str!("../data/cases/split.toml")),
    (
        "x-removal.toml",
        include_str!("../data/cases/x-removal.toml"),
    ),
    ("x-turn.toml", include_str!("../data/cases/x-turn.toml")),
];

/// One case: a position, the clauses it exercises and what every oracle must say about it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Case {
    /// Unique name within the suite.
    pub id: String,
    /// The file it was read from (without directory).
    pub file: String,
    /// The line of its `id`, from 1.
    pub line: usize,
    /// The clauses it exercises.
    pub clauses: Vec<String>,
    /// The position, canonical (spec/notation.md).
    pub position: String,
    /// One line: what it shows.
    pub note: String,
    /// The exact legal move set, canonical and sorted, when given.
    pub moves: Option<Vec<String>>,
    /// Moves that must be legal.
    pub legal: Vec<String>,
    /// Moves that must be illegal, with the clauses that forbid them.
    pub illegal: Vec<Illegal>,
    /// Moves with the position each produces.
    pub effect: Vec<Effect>,
    /// The status of the position, when given.
    pub status: Option<Status>,
    /// `perft[i]` is perft(i + 1).
    pub perft: Vec<u64>,
    /// A game played from the position, with the status after each move (a game case).
    pub game: Vec<GameStep>,
}

/// One move of a game case and the status of the game after it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameStep {
    /// The move in notation, as played from the position before it.
    pub mv: String,
    /// The status of the game once the move is played (ongoing, or a win with its reason).
    pub status: Status,
}

/// The moves of a game case's first `n` steps.
pub fn game_moves(game: &[GameStep], n: usize) -> Vec<String> {
    game.iter().take(n).map(|s| s.mv.clone()).collect()
}

/// A move that must be illegal, and every clause it breaks (as the adjudicator reports them).
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Illegal {
    /// The move in notation (written `move` in the case file).
    #[serde(rename = "move")]
    pub mv: String,
    /// The ids of every clause the move breaks (`ORDO-…`/`ORDOX-…`), as the adjudicator names them;
    /// never empty in a valid case.
    pub clauses: Vec<String>,
}

/// A legal move and the position it produces (canonical).
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Effect {
    /// The move in notation (written `move` in the case file).
    #[serde(rename = "move")]
    pub mv: String,
    /// The position after the move, in canonical notation.
    pub after: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFile {
    case: Vec<RawCase>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCase {
    id: String,
    clauses: Vec<String>,
    position: String,
    note: String,
    moves: Option<Vec<String>>,
    #[serde(default)]
    legal: Vec<String>,
    #[serde(default)]
    illegal: Vec<Illegal>,
    #[serde(default)]
    effect: Vec<Effect>,
    status: Option<RawStatus>,
    #[serde(default)]
    perft: Vec<u64>,
    #[serde(default)]
    game: Vec<RawStep>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawStep {
    #[serde(rename = "move")]
    mv: String,
    status: RawStatus,
}

#[derive(Deserialize)]
#[serde(untagged)]
enum RawStatus {
    Word(String),
    Won { winner: String, reason: String },
}

/// A suite file or case that cannot be used: where, and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{file}{}{}: {message}", line.map(|l| format!(" line {l}")).unwrap_or_default(), case.as_ref().map(|c| format!(" (case {c})")).unwrap_or_default())]
pub struct LoadError {
    /// The suite file, as its path was given to the loader.
    pub file: String,
    /// The line of the file where the fault is (from 1), when the reader can tell.
    pub line: Option<usize>,
    /// The id of the case at fault, when the fault is within one case.
    pub case: Option<String>,
    /// What is wrong, on one line.
    pub message: String,
}

/// The suite compiled into the program.
pub fn embedded() -> Result<Vec<Case>, LoadError> {
    let mut out = Vec::new();
    for (name, text) in EMBEDDED {
        out.extend(parse_file(name, text)?);
    }
    check_unique(&out)?;
    Ok(out)
}

/// The largest case file read, in bytes (the suite's largest is under 16 KiB): a larger file is
/// refused before it is parsed.
pub const CASE_FILE: Limit = Limit {
    bytes: 1 << 20,
    kind: "a case file",
};

/// The most the case files of one folder may hold together.
pub const CASE_FOLDER: Limit = Limit {
    bytes: 16 << 20,
    kind: "a folder of case files",
};

/// Every `*.toml` file of `dir`, in name order, each within [`CASE_FILE`] and all within
/// [`CASE_FOLDER`].
pub fn load_dir(dir: &Path) -> Result<Vec<Case>, LoadError> {
    let files =
        crate::files::read_folder(dir, "toml", CASE_FILE, CASE_FOLDER).map_err(|e| LoadError {
            file: e.path.display().to_string(),
            line: None,
            case: None,
            message: e.reason.to_string(),
        })?;
    if files.is_empty() {
        return Err(LoadError {
            file: dir.display().to_string(),
            line: None,
            case: None,
            message: "no *.toml case files".into(),
        });
    }
    let mut out = Vec::new();
    for (path, text) in files {
        let name = path.file_name().map(|n| n.to_string_lossy().into_owned());
        out.extend(parse_file(&name.unwrap_or_default(), &text)?);
    }
    check_unique(&out)?;
    Ok(out)
}

fn check_unique(cases: &[Case]) -> Result<(), LoadError> {
    let mut seen: BTreeMap<&str, &Case> = BTreeMap::new();
    for c in cases {
        if let Some(first) = seen.insert(&c.id, c) {
            return Err(LoadError {
                file: c.file.clone(),
                line: Some(c.line),
                case: Some(c.id.clone()),
                message: format!("duplicate id (first in {} line {})", first.file, first.line),
            });
        }
    }
    Ok(())
}

/// The line (from 1) of byte offset `at` in `text`.
fn line_of(text: &str, at: usize) -> usize {
    text[..at.min(text.len())].matches('\n').count() + 1
}

/// Read one suite file: TOML syntax and schema (unknown fields are errors), then every case's
/// contents (see [`validate`]).
pub fn parse_file(name: &str, text: &str) -> Result<Vec<Case>, LoadError> {
    let raw = parse_raw(name, text)?;
    let mut out = Vec::new();
    let mut cursor = 0;
    for r in raw.case {
        // The case's own `id` line: the first after the previous case's.
        let needle = format!("id = \"{}\"", r.id);
        let at = text[cursor..].find(&needle).map(|i| cursor + i);
        cursor = at.map_or(cursor, |i| i + needle.len());
        let line = at.map_or(0, |i| line_of(text, i));
        let fail = |message: String| LoadError {
            file: name.to_string(),
            line: Some(line),
            case: Some(r.id.clone()),
            message,
        };
        let status = match &r.status {
            None => None,
            Some(s) => Some(read_status(s).map_err(|e| fail(e.to_string()))?),
        };
        let mut game = Vec::new();
        for (i, step) in r.game.iter().enumerate() {
            let status = read_status(&step.status)
                .map_err(|e| fail(format!("game move {} ({}): {e}", i + 1, step.mv)))?;
            game.push(GameStep {
                mv: step.mv.clone(),
                status,
            });
        }
        let case = Case {
            id: r.id.clone(),
            file: name.to_string(),
            line,
            clauses: r.clauses,
            position: r.position,
            note: r.note,
            moves: r.moves,
            legal: r.legal,
            illegal: r.illegal,
            effect: r.effect,
            status,
            perft: r.perft,
            game,
        };
        validate(&case).map_err(|e| fail(e.to_string()))?;
        out.push(case);
    }
    check_unique(&out)?;
    Ok(out)
}

fn parse_raw(name: &str, text: &str) -> Result<RawFile, LoadError> {
    toml::from_str(text).map_err(|e| LoadError {
        file: name.to_string(),
        line: e.span().map(|s| line_of(text, s.start)),
        case: None,
        message: e.message().replace('\n', " "),
    })
}

/// What is wrong with a case of the suite: its contents ([`validate`]) or its status.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CaseFault {
    /// A position of the case (its start, or a move's `after`) does not read as notation.
    #[error("{what}: {error}")]
    PositionUnreadable {
        /// Which position of the case: `position`, or the `after` of a move.
        what: String,
        /// Why the notation does not read.
        error: NotationError,
    },
    /// A position reads but is not written in canonical notation.
    #[error("{what} is not canonical: {canonical}")]
    NotCanonical {
        /// Which position of the case: `position`, or the `after` of a move.
        what: String,
        /// The same position in canonical notation, as the case should write it.
        canonical: String,
    },
    /// A position reads but is not one the rules allow (a piece count, a disconnected side).
    #[error("{what} cannot be set up: {error}")]
    CannotSetUp {
        /// Which position of the case: `position`, or the `after` of a move.
        what: String,
        /// The rule of setting up the position breaks.
        error: PositionError,
    },
    /// The case's `id` is empty or has whitespace in it.
    #[error("id must be one word")]
    Id,
    /// The case's `note` is empty or spans lines.
    #[error("note must be one non-empty line")]
    Note,
    /// The case names no clause it tests.
    #[error("clauses is empty")]
    NoClauses,
    /// The case names a clause id the registry does not know.
    #[error("unknown clause {0}")]
    UnknownClause(String),
    /// A move of `legal`, `illegal` or `effect` does not read.
    #[error("move '{mv}': {error}")]
    MoveUnreadable {
        /// The move as the case writes it.
        mv: String,
        /// Why it does not read.
        error: NotationError,
    },
    /// An illegal move (named here) lists no clause it breaks.
    #[error("illegal {0} names no clause")]
    IllegalWithoutClause(String),
    /// The case's `moves` is not in ascending order or names a move twice.
    #[error("moves are not sorted or repeat a move")]
    MovesUnsorted,
    /// A move of `moves` does not read.
    #[error("move '{0}' does not read")]
    ListedMoveUnreadable(String),
    /// A move the case says is legal (named here) is missing from its own `moves`.
    #[error("legal {0} is not in moves")]
    LegalNotInMoves(String),
    /// A move the case says is illegal (named here) is listed in its own `moves`.
    #[error("illegal {0} is in moves")]
    IllegalInMoves(String),
    /// The case's perft count at depth 1 is not the length of its `moves`.
    #[error("perft(1) differs from the number of moves")]
    PerftDiffers,
    /// A status written as a word (here) other than `ongoing`.
    #[error("status '{0}': expected \"ongoing\" or {{ winner = ..., reason = ... }}")]
    StatusWord(String),
    /// A status's winner (here) is neither side.
    #[error("status: unknown winner '{0}'")]
    Winner(String),
    /// A status's reason (here) is none the rules name.
    #[error("status: unknown reason '{0}'")]
    Reason(String),
    /// The game case has more moves (here) than the protocol's limit of 1024.
    #[error("game has {0} moves: at most 1024 (spec/protocol.md, `game`)")]
    GameTooLong(usize),
}

fn read_status(s: &RawStatus) -> Result<Status, CaseFault> {
    match s {
        RawStatus::Word(w) if w == "ongoing" => Ok(Status::Ongoing),
        RawStatus::Word(w) => Err(CaseFault::StatusWord(w.clone())),
        RawStatus::Won { winner, reason } => {
            let w = Color::ALL.into_iter().find(|c| c.name() == winner);
            let w = w.ok_or_else(|| CaseFault::Winner(winner.clone()))?;
            let r =
                WinReason::from_name(reason).ok_or_else(|| CaseFault::Reason(reason.clone()))?;
            Ok(Status::Won {
                winner: w,
                reason: r,
            })
        }
    }
}

/// The contents of a case: a canonical position that can be set up, known clauses, canonical
/// sorted moves, moves that read, canonical `after` positions, a one-line note, and no move
/// both in `moves` and `illegal` (or `legal` moves missing from `moves`).
pub fn validate(c: &Case) -> Result<(), CaseFault> {
    check_position("position", &c.position)?;
    if c.id.is_empty() || c.id.contains(char::is_whitespace) {
        return Err(CaseFault::Id);
    }
    if c.note.contains('\n') || c.note.is_empty() {
        return Err(CaseFault::Note);
    }
    let known: BTreeSet<&str> = clauses::registry()
        .clauses
        .iter()
        .map(|c| c.id.as_str())
        .collect();
    let named = c
        .clauses
        .iter()
        .chain(c.illegal.iter().flat_map(|i| &i.clauses));
    if c.clauses.is_empty() {
        return Err(CaseFault::NoClauses);
    }
    if let Some(bad) = named.clone().find(|id| !known.contains(id.as_str())) {
        return Err(CaseFault::UnknownClause(bad.clone()));
    }
    if c.game.len() > crate::protocol::MAX_GAME_MOVES {
        return Err(CaseFault::GameTooLong(c.game.len()));
    }
    let mvs = c.legal.iter().chain(c.illegal.iter().map(|i| &i.mv));
    let mvs = mvs.chain(c.game.iter().map(|s| &s.mv));
    for m in mvs.chain(c.effect.iter().map(|e| &e.mv)) {
        parse_move(m).map_err(|error| CaseFault::MoveUnreadable {
            mv: m.clone(),
            error,
        })?;
    }
    for e in &c.effect {
        check_position(&format!("after of {}", e.mv), &e.after)?;
    }
    if let Some(i) = c.illegal.iter().find(|i| i.clauses.is_empty()) {
        return Err(CaseFault::IllegalWithoutClause(i.mv.clone()));
    }
    let Some(moves) = &c.moves else {
        return Ok(());
    };
    if moves.windows(2).any(|w| w[0] >= w[1]) {
        return Err(CaseFault::MovesUnsorted);
    }
    if let Some(m) = moves.iter().find(|m| parse_move(m).is_err()) {
        return Err(CaseFault::ListedMoveUnreadable(m.clone()));
    }
    if let Some(m) = c.legal.iter().find(|m| !moves.contains(m)) {
        return Err(CaseFault::LegalNotInMoves(m.clone()));
    }
    if let Some(i) = c.illegal.iter().find(|i| moves.contains(&i.mv)) {
        return Err(CaseFault::IllegalInMoves(i.mv.clone()));
    }
    if c.perft.first().is_some_and(|&n| n != moves.len() as u64) {
        return Err(CaseFault::PerftDiffers);
    }
    Ok(())
}

fn check_position(what: &str, text: &str) -> Result<(), CaseFault> {
    let p = parse_position(text).map_err(|error| CaseFault::PositionUnreadable {
        what: what.to_string(),
        error,
    })?;
    if format_position(&p) != text {
        return Err(CaseFault::NotCanonical {
            what: what.to_string(),
            canonical: format_position(&p),
        });
    }
    p.validate().map_err(|error| CaseFault::CannotSetUp {
        what: what.to_string(),
        error,
    })
}

/// Why an oracle gives no answer.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum OracleError {
    /// The oracle does not support this game, board or question: the check is skipped.
    #[error("unsupported: {0}")]
    Unsupported(String),
    /// The oracle failed (refused a valid position, crashed, answered garbage): a failure.
    #[error("{0}")]
    Failed(String),
}

/// An oracle's verdict on one move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveVerdict {
    /// The oracle plays the move.
    Legal,
    /// Illegal; with the clauses it breaks when the oracle can say.
    Illegal {
        /// The ids of the clauses broken, or `None` for an oracle that only says "illegal".
        clauses: Option<Vec<String>>,
    },
}

/// Something that can answer questions about positions: an engine, the adjudicator, an
/// external engine over the protocol. Positions and moves are canonical notation.
pub trait CaseOracle {
    /// A name for reports.
    fn name(&self) -> String;
    /// The legal moves of a position (any order).
    fn moves(&mut self, position: &str) -> Result<Vec<String>, OracleError>;
    /// Whether a move is legal and, when the oracle can say, which clauses forbid it.
    fn verdict(&mut self, position: &str, mv: &str) -> Result<MoveVerdict, OracleError>;
    /// The position after a legal move (canonical), `None` when the oracle cannot say.
    fn after(&mut self, position: &str, mv: &str) -> Result<Option<String>, OracleError>;
    /// The status of a position.
    fn status(&mut self, position: &str) -> Result<Status, OracleError>;
    /// perft(depth), `None` when the oracle cannot say.
    fn perft(&mut self, position: &str, depth: u32) -> Result<Option<u64>, OracleError>;
    /// The status after `moves` played in order from `start`, the oracle knowing the game
    /// (spec/protocol.md, `game`); `Unsupported` when the oracle cannot be given a game.
    fn game_status(&mut self, start: &str, moves: &[String]) -> Result<Status, OracleError> {
        let _ = (start, moves);
        Err(OracleError::Unsupported(
            "the oracle cannot be given a game".into(),
        ))
    }
}

/// One kind of check the harness makes on a case.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Check {
    /// The exact move set.
    Moves,
    /// A move that must be legal.
    Legal(String),
    /// A move that must be illegal for the stated clauses.
    Illegal(String),
    /// The position a move produces.
    Effect(String),
    /// The status of the case's position.
    Status,
    /// The perft count at this depth (plies) from the case's position.
    Perft(u32),
    /// The status after the first `n` moves of the game (from 1), the last being the move.
    Game(usize, String),
}

impl fmt::Display for Check {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Check::Moves => write!(f, "moves"),
            Check::Legal(m) => write!(f, "legal {m}"),
            Check::Illegal(m) => write!(f, "illegal {m}"),
            Check::Effect(m) => write!(f, "effect {m}"),
            Check::Status => write!(f, "status"),
            Check::Perft(d) => write!(f, "perft({d})"),
            Check::Game(n, m) => write!(f, "status after game move {n} ({m})"),
        }
    }
}

/// A check the oracle failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    /// The id of the case whose check failed.
    pub case: String,
    /// The suite file the case is in.
    pub file: String,
    /// Which check of the case failed.
    pub check: Check,
    /// What the case says the answer is, as text (a move list, a position, a status, a count).
    pub expected: String,
    /// What the oracle answered instead, in the same form.
    pub got: String,
    /// The clauses of the check (an illegal move's) or else of the case.
    pub clauses: Vec<String>,
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "FAIL {} ({}) {}: expected {}, got {} [{}]",
            self.case,
            self.file,
            self.check,
            self.expected,
            self.got,
            self.clauses.join(" ")
        )
    }
}

/// A check the oracle could not make (unsupported game, board or question).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Skip {
    /// The id of the case whose check was skipped.
    pub case: String,
    /// Which check could not be made.
    pub check: Check,
    /// Why not, as the oracle said (the game, board or question it does not support).
    pub reason: String,
}

/// The result of a suite run.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SuiteReport {
    /// The name of the oracle that answered (an engine, the adjudicator, an outside program).
    pub oracle: String,
    /// How many cases of the suite were run.
    pub cases: usize,
    /// Checks made (passed or failed; skips not counted).
    pub checks: usize,
    /// Every check the oracle failed, in the order of the suite.
    pub failures: Vec<Failure>,
    /// Every check the oracle could not make, in the order of the suite.
    pub skips: Vec<Skip>,
}

impl SuiteReport {
    /// No failure.
    pub fn passed(&self) -> bool {
        self.failures.is_empty()
    }

    /// One line: cases, checks, failures, skips.
    pub fn summary(&self) -> String {
        let failed: BTreeSet<&str> = self.failures.iter().map(|f| f.case.as_str()).collect();
        format!(
            "{}: case suite: {} cases, {} checks, {} failed ({} cases), {} skipped",
            self.oracle,
            self.cases,
            self.checks,
            self.failures.len(),
            failed.len(),
            self.skips.len()
        )
    }
}

/// Run every case against `oracle`.
pub fn run_suite(cases: &[Case], oracle: &mut dyn CaseOracle) -> SuiteReport {
    let mut report = SuiteReport {
        oracle: oracle.name(),
        cases: cases.len(),
        ..SuiteReport::default()
    };
    for case in cases {
        let mut run = Run {
            case,
            report: &mut report,
        };
        run.case_checks(oracle);
    }
    report
}

/// The checks of one case, recording into the report.
struct Run<'a> {
    case: &'a Case,
    report: &'a mut SuiteReport,
}

/// What one check found: passed, or the expected and the actual answer.
enum Outcome {
    Pass,
    Differ(String, String),
    Skipped(String),
}

fn answer<T>(r: Result<T, OracleError>, judge: impl FnOnce(T) -> Outcome) -> Outcome {
    match r {
        Ok(v) => judge(v),
        Err(OracleError::Unsupported(why)) => Outcome::Skipped(why),
        Err(OracleError::Failed(why)) => {
            Outcome::Differ("an answer".into(), format!("error: {why}"))
        }
    }
}

impl Run<'_> {
    fn record(&mut self, check: Check, clauses: &[String], outcome: Outcome) {
        match outcome {
            Outcome::Pass => self.report.checks += 1,
            Outcome::Differ(expected, got) => {
                self.report.checks += 1;
                self.report.failures.push(Failure {
                    case: self.case.id.clone(),
                    file: self.case.file.clone(),
                    check,
                    expected,
                    got,
                    clauses: clauses.to_vec(),
                });
            }
            Outcome::Skipped(reason) => self.report.skips.push(Skip {
                case: self.case.id.clone(),
                check,
                reason,
            }),
        }
    }

    fn case_checks(&mut self, o: &mut dyn CaseOracle) {
        let c = self.case;
        let pos = c.position.as_str();
        if let Some(want) = &c.moves {
            let out = answer(o.moves(pos), |got| compare_moves(want, got));
            self.record(Check::Moves, &c.clauses, out);
        }
        for m in &c.legal {
            let out = answer(o.verdict(pos, m), |v| match v {
                MoveVerdict::Legal => Outcome::Pass,
                v => Outcome::Differ("legal".into(), verdict_text(&v)),
            });
            self.record(Check::Legal(m.clone()), &c.clauses, out);
        }
        for i in &c.illegal {
            let out = answer(o.verdict(pos, &i.mv), |v| judge_illegal(i, v));
            self.record(Check::Illegal(i.mv.clone()), &i.clauses, out);
        }
        for e in &c.effect {
            let out = answer(o.after(pos, &e.mv), |got| match got {
                None => Outcome::Skipped("the oracle cannot say".into()),
                Some(p) if p == e.after => Outcome::Pass,
                Some(p) => Outcome::Differ(e.after.clone(), p),
            });
            self.record(Check::Effect(e.mv.clone()), &c.clauses, out);
        }
        if let Some(want) = c.status {
            let out = answer(o.status(pos), |got| {
                if got == want {
                    Outcome::Pass
                } else {
                    Outcome::Differ(want.to_string(), got.to_string())
                }
            });
            self.record(Check::Status, &c.clauses, out);
        }
        self.perft_checks(o);
        self.game_checks(o);
    }

    /// The status after each move of the game, the oracle given the game so far.
    fn game_checks(&mut self, o: &mut dyn CaseOracle) {
        let c = self.case;
        for (i, step) in c.game.iter().enumerate() {
            let moves = game_moves(&c.game, i + 1);
            let out = answer(o.game_status(&c.position, &moves), |got| {
                if got == step.status {
                    Outcome::Pass
                } else {
                    Outcome::Differ(step.status.to_string(), got.to_string())
                }
            });
            self.record(Check::Game(i + 1, step.mv.clone()), &c.clauses, out);
        }
    }

    fn perft_checks(&mut self, o: &mut dyn CaseOracle) {
        let c = self.case;
        for (i, &want) in c.perft.iter().enumerate() {
            let depth = i as u32 + 1;
            let out = answer(o.perft(&c.position, depth), |got| match got {
                None => Outcome::Skipped("the oracle cannot say".into()),
                Some(n) if n == want => Outcome::Pass,
                Some(n) => Outcome::Differ(want.to_string(), n.to_string()),
            });
            let stop = !matches!(out, Outcome::Pass);
            self.record(Check::Perft(depth), &c.clauses, out);
            if stop {
                break;
            }
        }
    }
}

fn compare_moves(want: &[String], got: Vec<String>) -> Outcome {
    let want_set: BTreeSet<&String> = want.iter().collect();
    let got_set: BTreeSet<&String> = got.iter().collect();
    if want_set == got_set && got.len() == want.len() {
        return Outcome::Pass;
    }
    let missing: Vec<&str> = want_set.difference(&got_set).map(|s| s.as_str()).collect();
    let extra: Vec<&str> = got_set.difference(&want_set).map(|s| s.as_str()).collect();
    Outcome::Differ(
        format!(
            "{} moves, the oracle lacks [{}]",
            want.len(),
            preview(&missing)
        ),
        format!("{} moves, not in the case [{}]", got.len(), preview(&extra)),
    )
}

fn judge_illegal(i: &Illegal, v: MoveVerdict) -> Outcome {
    let want = format!("illegal by {}", i.clauses.join(" "));
    match v {
        MoveVerdict::Legal => Outcome::Differ(want, "legal".into()),
        MoveVerdict::Illegal { clauses: None } => Outcome::Pass,
        MoveVerdict::Illegal { clauses: Some(got) } => {
            let a: BTreeSet<&String> = i.clauses.iter().collect();
            let b: BTreeSet<&String> = got.iter().collect();
            if a == b {
                Outcome::Pass
            } else {
                Outcome::Differ(want, format!("illegal by {}", got.join(" ")))
            }
        }
    }
}

fn verdict_text(v: &MoveVerdict) -> String {
    match v {
        MoveVerdict::Legal => "legal".into(),
        MoveVerdict::Illegal { clauses: None } => "illegal".into(),
        MoveVerdict::Illegal { clauses: Some(c) } => format!("illegal by {}", c.join(" ")),
    }
}

/// At most eight items, then a count of the rest.
fn preview(items: &[&str]) -> String {
    let mut s = items.iter().take(8).copied().collect::<Vec<_>>().join(" ");
    if items.len() > 8 {
        s.push_str(&format!(" … ({} more)", items.len() - 8));
    }
    s
}

/// Perft is listed (in the suite's cases and the vectors) one level deeper while the next count is
/// estimated at most this (see
/// [`perft_list`]).
pub const PERFT_LEAF_BUDGET: u64 = 6_000;
/// The deepest perft level listed.
pub const PERFT_MAX_DEPTH: u32 = 3;

/// perft(1), perft(2), …, given perft(1): one level deeper while the estimate of the next
/// count (the last count times the average branching so far) is at most
/// [`PERFT_LEAF_BUDGET`], up to [`PERFT_MAX_DEPTH`].
pub fn perft_list<E: crate::rules::Engine>(e: &E, perft1: u64) -> Vec<u64> {
    let mut out = vec![perft1];
    loop {
        let d = out.len();
        if d >= PERFT_MAX_DEPTH as usize {
            break;
        }
        let last = out[d - 1];
        let before = if d >= 2 { out[d - 2] } else { 1 };
        let branching = last.div_ceil(before.max(1));
        if last.saturating_mul(branching) > PERFT_LEAF_BUDGET {
            break;
        }
        out.push(e.perft(d as u32 + 1));
    }
    out
}

/// Rewrite the bulk data of a suite file from the reference engine: every `moves = [...]` and
/// `perft = [...]` entry present in a case is recomputed (perft to the depth of
/// [`perft_list`]); everything else is kept byte for byte. Only the TOML and
/// the positions are checked here: validate the result with [`parse_file`].
pub fn fill_bulk(name: &str, text: &str) -> Result<String, LoadError> {
    use crate::reference::Reference;
    use crate::rules::Engine;
    let cases = parse_raw(name, text)?.case;
    let mut out = String::new();
    let mut index: Option<usize> = None;
    let mut lines = text.lines();
    while let Some(line) = lines.next() {
        if line.trim() == "[[case]]" {
            index = Some(index.map_or(0, |i| i + 1));
        }
        let key = ["moves = [", "perft = ["]
            .into_iter()
            .find(|k| line.starts_with(k));
        let (Some(key), Some(i)) = (key, index) else {
            out.push_str(line);
            out.push('\n');
            continue;
        };
        // Skip the rest of a value spread over several lines.
        let mut depth = line.matches('[').count() - line.matches(']').count();
        while depth > 0 {
            let l = lines.next().unwrap_or("]");
            depth = depth + l.matches('[').count() - l.matches(']').count();
        }
        let case = &cases[i];
        let located = |message: String| LoadError {
            file: name.to_string(),
            line: None,
            case: Some(case.id.clone()),
            message,
        };
        check_position("position", &case.position).map_err(|e| located(e.to_string()))?;
        let pos = parse_position(&case.position).map_err(|e| located(e.to_string()))?;
        let e = Reference::from_position(&pos).map_err(|e| located(e.to_string()))?;
        let moves = crate::notation::sorted_moves(&e);
        if key.starts_with("moves") {
            out.push_str(&toml_list("moves", &moves));
        } else {
            let perft = perft_list(&e, moves.len() as u64);
            let nums: Vec<String> = perft.iter().map(u64::to_string).collect();
            out.push_str(&format!("perft = [{}]\n", nums.join(", ")));
        }
    }
    Ok(out)
}

/// `key = [...]` of quoted strings, wrapped at 100 columns.
pub fn toml_list(key: &str, items: &[String]) -> String {
    if items.is_empty() {
        return format!("{key} = []\n");
    }
    let mut out = format!("{key} = [\n");
    let mut line = String::from("   ");
    for it in items {
        let piece = format!(" \"{it}\",");
        if line.len() + piece.len() > 100 {
            out.push_str(&line);
            out.push('\n');
            line = String::from("   ");
        }
        line.push_str(&piece);
    }
    out.push_str(&line);
    out.push_str("\n]\n");
    out
}
