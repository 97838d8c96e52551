//! `ordo conform`: drive an outside engine over the protocol and check it against the rules.
//!
//! The run, in order: the handshake and `capabilities` (what the engine plays: [`support`]);
//! the case suite of `spec/cases/` through the one harness ([`suite`]: moves, legal and illegal
//! moves, effects read back with `show`, statuses), on the games and boards the engine plays;
//! the playout vectors of `spec/conformance/` (moves and status, and the position each capture
//! or two-step turn produces);
//! the protocol probes (malformed requests, the other spellings the notation allows:
//! [`probes`]); seeded random playouts along which the engine follows the reference with
//! `play`. Every difference becomes a finding attributed to its clause ([`compare`],
//! [`attribute`]), the first of each kind is minimized ([`minimize`]), and the report puts the
//! summary first ([`report`]). Crashes, hangs, garbage answers and lines without end are
//! reported as such, the engine restarted, and the run goes on, until too many restarts or
//! too much time waited on replies that never came.
//!
//! The rooms: [`drive`] talks to the engine, [`compare`] compares, [`attribute`] names clauses
//! and readings, [`minimize`] shrinks, [`report`] writes.

pub mod attribute;
pub mod compare;
pub mod difference;
pub mod drive;
pub mod minimize;
pub mod probes;
pub mod report;
pub mod suite;
pub mod support;

use crate::rules::ClauseId;
use std::path::PathBuf;
use std::time::Duration;

use thiserror::Error;

use self::compare::{analyze, effect_difference};
use self::difference::{Diff, Expected};
use self::drive::{Driver, SetReply};
use self::report::{Kind, Report};
use self::support::{start_of, Skip, Support};
use super::client::{External, Failure};
use super::judge::judge;
use super::protocol::GameBoard;
use super::vectors::{self, random_line, Located};
use crate::notation::{format_move, format_position, parse_move, parse_position};
use crate::reference::Reference;
use crate::rules::Rng;
use crate::rules::{Engine, Move, Position};

pub use difference::Reading;

/// What `ordo conform` was asked to do.
#[derive(Clone, Debug)]
pub struct Options {
    /// The engine's command line, run with `sh -c`.
    pub command: String,
    /// Directory of the vector files (`playouts.jsonl` is used; `clauses.jsonl` is the case
    /// suite's language-neutral copy, so the suite is run instead); `None` for the vectors
    /// built into the program.
    pub vectors: Option<PathBuf>,
    /// Directory of the case suite; `None` for the suite built into the program.
    pub cases: Option<PathBuf>,
    /// Number of random playouts.
    pub playouts: u32,
    /// Plies per playout.
    pub plies: u32,
    /// Seed of the playouts.
    pub seed: u64,
    /// Longest wait for one reply.
    pub timeout: Duration,
    /// Where to write one SVG diagram per detailed finding.
    pub svg_dir: Option<PathBuf>,
    /// Check only these games and boards.
    pub only: Option<Vec<GameBoard>>,
}

/// What an engine did with a move it was asked to play.
enum Played {
    /// It refused the move with this reply.
    Refused(String),
    /// It played the move and shows this position.
    Shown(Position),
}

/// Why `ordo conform` could not run at all.
#[derive(Debug, Error)]
pub enum ConformError {
    /// The command to start the engine is empty (or only whitespace).
    #[error("the engine command is empty")]
    EmptyCommand,
    /// The timeout for one answer is zero.
    #[error("the timeout must be at least 1 ms")]
    ZeroTimeout,
    /// The built-in vectors (or a vector file given) do not load.
    #[error("vectors: {0}")]
    Vectors(#[from] vectors::VectorError),
    /// The case suite does not load; the loader's error as text.
    #[error("case suite: {0}")]
    Cases(String),
    /// The directory for the diagrams of differences cannot be made or written.
    #[error("svg directory {path}: {error}")]
    SvgDir {
        /// The directory as given.
        path: String,
        /// The system's error, as text.
        error: String,
    },
}

/// Restarts after which the run stops.
const MAX_RESTARTS: usize = 8;
/// The run stops once it has waited this many timeouts in all on replies that never came
/// (hangs, endless lines), so that an engine that fails so costs a bounded time.
const MAX_WAITED_TIMEOUTS: u32 = 4;
/// Garbage answers after which the run stops.
const MAX_GARBAGE: usize = 25;
/// Moves of a vector whose effects are checked with `play` and `show`.
const EFFECTS_PER_VECTOR: usize = 6;

/// Run state.
pub(crate) struct Run<'a> {
    opts: &'a Options,
    drive: Driver,
    support: Support,
    report: Report,
}

/// Run `ordo conform`: the typed report (its `passed()` is the verdict), or why nothing ran.
pub fn run(opts: &Options) -> Result<Report, ConformError> {
    if opts.command.trim().is_empty() {
        return Err(ConformError::EmptyCommand);
    }
    if opts.timeout.is_zero() {
        return Err(ConformError::ZeroTimeout);
    }
    let vectors: Vec<Located> = vectors::read(opts.vectors.as_deref())
        .map_err(ConformError::Vectors)?
        .into_iter()
        .filter(|lv| lv.file != vectors::CLAUSES_FILE)
        .collect();
    let cases = match &opts.cases {
        Some(dir) => super::cases::load_dir(dir),
        None => super::cases::embedded(),
    }
    .map_err(|e| ConformError::Cases(e.to_string()))?;
    if let Some(dir) = &opts.svg_dir {
        make_svg_dir(dir)?;
    }
    let mut report = Report::new(opts, cases.len() + vectors.len());
    let engine = match External::start(&opts.command, opts.timeout) {
        Ok(e) => e,
        Err(f) => {
            report.failure("the handshake", &f);
            report.stopped = Some(format!("the engine could not be driven: {f}"));
            return Ok(report.finish());
        }
    };
    report.name = engine.name.clone();
    let mut run = Run {
        opts,
        drive: Driver::new(engine),
        support: Support {
            only: opts.only.clone(),
            ..Support::default()
        },
        report,
    };
    run.capabilities();
    run.case_suite(&cases);
    for lv in &vectors {
        run.vector(lv);
    }
    let positions: Vec<Position> = cases
        .iter()
        .map(|c| c.position.as_str())
        .chain(vectors.iter().map(|lv| lv.vector.position.as_str()))
        .filter_map(|t| parse_position(t).ok())
        .collect();
    run.probes(&positions);
    run.playouts();
    run.minimize_detailed();
    run.drive.engine.quit();
    Ok(run.finish())
}

/// Make the folder of the diagrams; a file in its place is refused in words.
fn make_svg_dir(dir: &std::path::Path) -> Result<(), ConformError> {
    let error = |error: String| ConformError::SvgDir {
        path: dir.display().to_string(),
        error,
    };
    if dir.exists() && !dir.is_dir() {
        return Err(error(
            "it is a file, not a folder; name a folder for the diagrams".into(),
        ));
    }
    std::fs::create_dir_all(dir).map_err(|e| error(e.to_string()))
}

impl Run<'_> {
    fn finish(mut self) -> Report {
        self.report.unsorted = self.drive.unsorted;
        self.report.health = self.drive.engine.health.clone().into();
        self.report.effects_checked = self.drive.shows;
        self.report.unsupported = self
            .support
            .unsupported()
            .map(|(gb, why)| (gb.to_string(), why.to_string()))
            .collect();
        self.report.checked = self
            .support
            .accepted
            .keys()
            .map(|gb| gb.to_string())
            .collect();
        self.report.finish()
    }

    /// Record an engine failure; stop the run when the engine cannot go on.
    fn incident(&mut self, place: &str, f: Failure) {
        self.report.failure(place, &f);
        let h = &self.drive.engine.health;
        if h.restarts >= MAX_RESTARTS {
            self.report.stopped = Some(format!(
                "the engine was restarted {} times; giving up",
                h.restarts
            ));
        } else if h.garbage >= MAX_GARBAGE {
            self.report.stopped = Some(format!(
                "the engine answered garbage {} times; giving up",
                h.garbage
            ));
        } else if h.waited >= self.opts.timeout * MAX_WAITED_TIMEOUTS {
            self.report.stopped = Some(format!(
                "waited {:.1} s in all on replies that never came ({MAX_WAITED_TIMEOUTS} times the timeout); giving up",
                h.waited.as_secs_f64()
            ));
        }
    }

    /// Make sure the engine runs (restarting it after a crash or hang).
    fn alive(&mut self, place: &str) -> bool {
        if self.report.stopped.is_some() {
            return false;
        }
        if self.drive.engine.is_running() {
            return true;
        }
        match self.drive.engine.ensure_running() {
            Ok(()) => true,
            Err(f) => {
                let why = format!("the engine could not be restarted ({f})");
                self.report.failure(place, &f);
                self.report.stopped = Some(why);
                false
            }
        }
    }

    /// Ask `capabilities`; an engine that does not know it is judged by its answers.
    fn capabilities(&mut self) {
        match self.drive.capabilities() {
            Ok(caps) => {
                self.report.declared = caps
                    .as_ref()
                    .map(|c| c.iter().map(|g| g.to_string()).collect());
                self.support.declared = caps;
            }
            Err(f) => self.incident("capabilities", f),
        }
    }

    /// Whether positions of `pos`'s game and board are compared. For an engine that declares
    /// nothing, the first position of a game and board not yet accepted is preceded by its
    /// start position: refused, the engine plays none of it.
    fn supported(&mut self, pos: &Position) -> bool {
        if self.report.stopped.is_some() {
            return false;
        }
        let gb = GameBoard::of(pos);
        match self.support.known(gb) {
            Err(_) => false,
            Ok(true) => true,
            Ok(false) => {
                let start = start_of(gb);
                match self.drive.set(&start) {
                    Ok(SetReply::Accepted) => {
                        self.support.accepted.insert(gb, ());
                        true
                    }
                    Ok(SetReply::Unsupported(reply) | SetReply::Refused(reply)) => {
                        let start = format_position(&start);
                        self.support.skip(gb, Skip::Inferred { start, reply });
                        false
                    }
                    Err(f) => {
                        self.incident("checking which boards the engine plays", f);
                        false
                    }
                }
            }
        }
    }

    /// Set `pos` and compare the engine's moves and status with `expected`. `Ok(None)` when the
    /// game and board turn out unsupported.
    fn probe(&mut self, pos: &Position, expected: &Expected) -> Result<Option<Diff>, Failure> {
        match self.drive.set(pos)? {
            SetReply::Accepted => {
                self.support.accepted.insert(GameBoard::of(pos), ());
                let seen = self.drive.look()?;
                Ok(Some(analyze(pos, expected, &seen)))
            }
            SetReply::Unsupported(reply) => {
                self.support
                    .skip(GameBoard::of(pos), Skip::Refused { reply });
                Ok(None)
            }
            SetReply::Refused(reply) => {
                let mut d = Diff {
                    refused: Some(reply),
                    main: vec![ClauseId::ordo(2, 3)],
                    ..Diff::default()
                };
                d.clauses.insert(ClauseId::ordo(2, 3));
                Ok(Some(d))
            }
        }
    }

    /// One vector: its moves and status, then the effects of its captures and two-step turns.
    fn vector(&mut self, lv: &Located) {
        let v = &lv.vector;
        let place = format!("vector `{}` ({} line {})", v.id, lv.file, lv.line);
        let (Ok(pos), Some(status)) = (parse_position(&v.position), v.status.to_status()) else {
            self.report.stopped = Some(format!("{place}: the vector does not read"));
            return;
        };
        if !self.alive(&place) || !self.supported(&pos) {
            self.report.vector(&v.id, None);
            return;
        }
        let expected = Expected {
            moves: v.moves.iter().cloned().collect(),
            status,
        };
        match self.probe(&pos, &expected) {
            Ok(None) => self.report.vector(&v.id, None),
            Ok(Some(d)) => {
                self.report.compared += 1;
                let ok = d.is_empty();
                if !ok {
                    self.report.disagree(Kind::of(&d), &place, &pos, d, None);
                }
                let effects_ok = self.effects(&place, &pos, &expected);
                self.report.vector(&v.id, Some(ok && effects_ok));
            }
            Err(f) => {
                self.incident(&place, f);
                self.report.vector(&v.id, Some(false));
            }
        }
    }

    /// Play the first captures and two-step turns of `pos` and compare the position each
    /// produces (read back with `show`) with the rules'. `false` when one differs.
    fn effects(&mut self, place: &str, pos: &Position, expected: &Expected) -> bool {
        let picked: Vec<Move> = expected
            .moves
            .iter()
            .filter_map(|t| parse_move(t).ok())
            .filter(|m| m.is_capture() || m.second.is_some())
            .take(EFFECTS_PER_VECTOR)
            .collect();
        let mut ok = true;
        for mv in picked {
            if self.drive.shows == Some(false) || !self.alive(place) {
                break;
            }
            ok &= self.effect(place, pos, &mv, false);
        }
        ok
    }

    /// Set `pos` (unless `synced`), play `mv`, and compare what the engine shows with the
    /// rules' result. `false` when they differ.
    fn effect(&mut self, place: &str, pos: &Position, mv: &Move, synced: bool) -> bool {
        let Ok(reference) = Reference::from_position(pos) else {
            return true;
        };
        let want = reference.apply(mv).to_position();
        let text = format_move(mv);
        let result = (|| -> Result<Option<Played>, Failure> {
            if !synced && self.drive.set(pos)? != SetReply::Accepted {
                return Ok(None);
            }
            if let Some(reply) = self.drive.play(&text)? {
                return Ok(Some(Played::Refused(reply)));
            }
            Ok(self.drive.show()?.map(Played::Shown))
        })();
        match result {
            Ok(None) => true,
            Ok(Some(Played::Shown(got))) if got == want => true,
            Ok(Some(Played::Shown(got))) if got == *pos => {
                self.report.unchanged(place, pos, &text);
                false
            }
            Ok(Some(Played::Shown(got))) => {
                let (clauses, readings, detail) = effect_difference(pos, mv, &want, &got);
                self.report
                    .effect(place, pos, &text, &got, clauses, readings, detail);
                false
            }
            Ok(Some(Played::Refused(reply))) => {
                self.play_refused(place, pos, mv, &reply);
                false
            }
            Err(f) => {
                self.incident(place, f);
                false
            }
        }
    }

    /// The engine refused to play a legal move. A finding of its own when the engine listed
    /// the move itself (a move it does not list is already reported as missing).
    fn play_refused(&mut self, place: &str, pos: &Position, mv: &Move, reply: &str) {
        let text = format_move(mv);
        if self.drive.last_moves.contains(&text) {
            let clauses = judge(pos, mv).clauses;
            self.report.play_refused(place, pos, &text, reply, clauses);
        }
    }

    /// The seeded random playouts, from the starts of games and boards the engine plays.
    fn playouts(&mut self) {
        let all = vectors::playout_starts();
        let mut starts = Vec::new();
        for (name, pos) in all {
            if self.supported(&pos) {
                starts.push((name, pos));
            }
        }
        if starts.is_empty() {
            return;
        }
        let mut rng = Rng::new(self.opts.seed);
        for p in 0..self.opts.playouts {
            if self.report.stopped.is_some() {
                break;
            }
            let (name, start) = &starts[rng.below(starts.len() as u64) as usize];
            let line = random_line::<Reference>(start, self.opts.plies, &mut rng);
            let n = self.playout(p + 1, name, &line);
            self.report.playout(n);
        }
    }

    /// One playout: the engine follows the reference's line with `play` (its result read back
    /// with `show`); every position is compared. Returns the number of positions compared.
    fn playout(&mut self, n: u32, name: &str, line: &[(Option<Move>, Position)]) -> usize {
        let mut compared = 0;
        let mut synced = false;
        let mut prev: Option<&Position> = None;
        for (ply, (mv, pos)) in line.iter().enumerate() {
            let place = match mv {
                Some(m) => format!(
                    "playout {n} from {name}, ply {ply}, after {}",
                    format_move(m)
                ),
                None => format!("playout {n} from {name}, ply {ply}"),
            };
            if !self.alive(&place) {
                break;
            }
            let Some(expected) = Expected::of(pos) else {
                break;
            };
            if let (true, Some(mv), Some(before)) = (synced, mv, prev) {
                synced = self.effect(&place, before, mv, true);
            } else {
                synced = false;
            }
            let result = if synced {
                self.drive
                    .look()
                    .map(|seen| Some(analyze(pos, &expected, &seen)))
            } else {
                self.probe(pos, &expected)
            };
            let diff = match result {
                Ok(Some(d)) => d,
                Ok(None) => break,
                Err(f) => {
                    self.incident(&place, f);
                    synced = false;
                    continue;
                }
            };
            compared += 1;
            self.report.compared += 1;
            synced = diff.refused.is_none();
            if !diff.is_empty() {
                self.report
                    .disagree(Kind::of(&diff), &place, pos, diff, None);
            }
            prev = Some(pos);
        }
        compared
    }
}
