//! The case suite (`spec/cases/`, [`crate::cases`]) run against the outside
//! engine through the one harness ([`run_suite`]): the engine answers as a [`CaseOracle`] over
//! the protocol, and every failed check becomes an attributed finding.

use std::collections::{BTreeMap, BTreeSet};

use super::attribute::{main_clauses, repetition_reading};
use super::compare::{analyze, effect_difference};
use super::difference::{Expected, Seen};
use super::drive::SetReply;
use super::report::Kind;
use super::Run;
use crate::cases::Skip;
use crate::cases::{game_moves, run_suite, Case, CaseOracle, Check, MoveVerdict, OracleError};
use crate::notation::{format_position, parse_move, parse_position};
use crate::protocol::ReportedStatus;
use crate::reference::Reference;
use crate::rules::{Engine, Position, Status};

/// The outside engine as an oracle of the harness, remembering what it answered.
struct Outside<'r, 'a> {
    run: &'r mut Run<'a>,
    seen: BTreeMap<String, Seen>,
    after: BTreeMap<(String, String), Position>,
    /// What the engine answered after a game (and showed, if it answers `show`): by
    /// [`game_key`], so that two cases from one start keep their own answers.
    games: BTreeMap<(String, String), (Seen, Option<Position>)>,
    /// The moves (`after`) and games ([`game_key`]) the engine gave no
    /// answer to because it failed (crashed, hung, answered garbage, or the run stopped): an
    /// incident of its health, already reported, never a rules finding.
    failed: BTreeSet<(String, String)>,
}

impl Outside<'_, '_> {
    /// The engine's failures so far (crashes, hangs, garbage), and whether the run stopped.
    fn failures(&self) -> (usize, bool) {
        let h = &self.run.drive.engine.health;
        (
            h.crashes + h.hangs + h.garbage,
            self.run.report.stopped.is_some(),
        )
    }

    /// Note `key` as unanswered for the engine's health when it failed since `before`.
    fn note_failure(&mut self, before: (usize, bool), key: (String, String)) {
        if self.failures() != before || !self.run.drive.engine.is_running() {
            self.failed.insert(key);
        }
    }

    /// Set `position` and read the engine's moves and status (once per position).
    fn look(&mut self, position: &str) -> Result<Seen, OracleError> {
        if let Some(s) = self.seen.get(position) {
            return Ok(s.clone());
        }
        let pos = parse_position(position).map_err(|e| OracleError::Failed(e.to_string()))?;
        if !self.run.supported(&pos) {
            return Err(OracleError::Unsupported(
                "the engine does not play this game and board".into(),
            ));
        }
        if !self.run.alive("case suite") {
            return Err(OracleError::Failed("the engine is not running".into()));
        }
        let seen = (|| match self.run.drive.set(&pos)? {
            SetReply::Accepted => self.run.drive.look().map(Ok),
            SetReply::Unsupported(r) => Ok(Err(OracleError::Unsupported(r))),
            SetReply::Refused(r) => Ok(Err(OracleError::Failed(format!(
                "refuses the position: {r}"
            )))),
        })();
        match seen {
            Ok(Ok(s)) => {
                self.seen.insert(position.to_string(), s.clone());
                Ok(s)
            }
            Ok(Err(e)) => Err(e),
            Err(f) => {
                let e = OracleError::Failed(f.to_string());
                self.run.incident("case suite", f);
                Err(e)
            }
        }
    }
}

impl CaseOracle for Outside<'_, '_> {
    fn name(&self) -> String {
        self.run.drive.engine.name.clone()
    }

    fn moves(&mut self, position: &str) -> Result<Vec<String>, OracleError> {
        Ok(self.look(position)?.moves)
    }

    fn verdict(&mut self, position: &str, mv: &str) -> Result<MoveVerdict, OracleError> {
        let listed = self.look(position)?.moves.iter().any(|m| m == mv);
        Ok(if listed {
            MoveVerdict::Legal
        } else {
            MoveVerdict::Illegal { clauses: None }
        })
    }

    fn after(&mut self, position: &str, mv: &str) -> Result<Option<String>, OracleError> {
        let before = self.failures();
        let answer = self.after_of(position, mv);
        if answer.is_err() {
            self.note_failure(before, (position.to_string(), mv.to_string()));
        }
        answer
    }

    fn status(&mut self, position: &str) -> Result<Status, OracleError> {
        match self.look(position)?.status {
            ReportedStatus::Ongoing => Ok(Status::Ongoing),
            ReportedStatus::Won { winner, reason } => Ok(Status::Won { winner, reason }),
            ReportedStatus::Draw => Err(OracleError::Failed("status draw".into())),
        }
    }

    fn perft(&mut self, _position: &str, _depth: u32) -> Result<Option<u64>, OracleError> {
        Ok(None)
    }

    /// The engine given the game with `game`, then asked `moves` and `status`.
    fn game_status(&mut self, start: &str, moves: &[String]) -> Result<Status, OracleError> {
        let before = self.failures();
        let played = self.play_game(start, moves);
        if played.is_err() {
            self.note_failure(before, game_key(start, moves));
        }
        let (seen, shown) = played?;
        self.games
            .insert(game_key(start, moves), (seen.clone(), shown));
        match seen.status {
            ReportedStatus::Ongoing => Ok(Status::Ongoing),
            ReportedStatus::Won { winner, reason } => Ok(Status::Won { winner, reason }),
            ReportedStatus::Draw => Err(OracleError::Failed("status draw".into())),
        }
    }
}

impl Outside<'_, '_> {
    /// Set `position`, play `mv` and read back the position the engine shows.
    fn after_of(&mut self, position: &str, mv: &str) -> Result<Option<String>, OracleError> {
        self.look(position)?;
        let pos = parse_position(position).map_err(|e| OracleError::Failed(e.to_string()))?;
        let result = (|| {
            if self.run.drive.set(&pos)? != SetReply::Accepted {
                return Ok(Err("refuses the position".to_string()));
            }
            if let Some(reply) = self.run.drive.play(mv)? {
                return Ok(Err(format!("answers 'play {mv}' with '{reply}'")));
            }
            self.run.drive.show().map(Ok)
        })();
        match result {
            Ok(Ok(Some(p))) => {
                self.after
                    .insert((position.to_string(), mv.to_string()), p.clone());
                Ok(Some(format_position(&p)))
            }
            Ok(Ok(None)) => Ok(None),
            Ok(Err(why)) => Err(OracleError::Failed(why)),
            Err(f) => {
                let e = OracleError::Failed(f.to_string());
                self.run.incident("case suite", f);
                Err(e)
            }
        }
    }

    /// Send the game and read the engine's moves and status after it.
    fn play_game(
        &mut self,
        start: &str,
        moves: &[String],
    ) -> Result<(Seen, Option<Position>), OracleError> {
        let pos = parse_position(start).map_err(|e| OracleError::Failed(e.to_string()))?;
        if !self.run.supported(&pos) {
            return Err(OracleError::Unsupported(
                "the engine does not play this game and board".into(),
            ));
        }
        if !self.run.alive("case suite") {
            return Err(OracleError::Failed("the engine is not running".into()));
        }
        let seen = (|| match self.run.drive.game(start, moves)? {
            None => Ok(Err(OracleError::Unsupported(NO_GAME.into()))),
            Some(SetReply::Accepted) => {
                let seen = self.run.drive.look()?;
                Ok(Ok((seen, self.run.drive.show()?)))
            }
            Some(SetReply::Unsupported(r)) => Ok(Err(OracleError::Unsupported(r))),
            Some(SetReply::Refused(r)) => {
                Ok(Err(OracleError::Failed(format!("refuses the game: {r}"))))
            }
        })();
        seen.unwrap_or_else(|f: crate::client::Failure| {
            let e = OracleError::Failed(f.to_string());
            self.run.incident("case suite", f);
            Err(e)
        })
    }
}

/// What the engine answered the case suite, and what it could not answer for its health.
struct Answers {
    seen: BTreeMap<String, Seen>,
    after: BTreeMap<(String, String), Position>,
    games: BTreeMap<(String, String), (Seen, Option<Position>)>,
    failed: BTreeSet<(String, String)>,
}

/// The key of a game's answers: its start, and its moves after the word `game` (no move is
/// spelled so, so a game's key never meets the key of a move played on a position).
fn game_key(start: &str, moves: &[String]) -> (String, String) {
    (start.to_string(), format!("game {}", moves.join(" ")))
}

/// How many times, the start counted, the position had occurred in the game of `case` (its
/// `line`) when the engine first reported a draw: the count of its repetition rule, which the
/// draws it goes on reporting after that do not change.
fn first_draw(case: &Case, line: &[Position], answers: &Answers) -> Option<usize> {
    let n = (1..=case.game.len()).find(|&n| {
        let key = game_key(&case.position, &game_moves(&case.game, n));
        answers
            .games
            .get(&key)
            .is_some_and(|(seen, _)| seen.status == ReportedStatus::Draw)
    })?;
    Some(line[..=n].iter().filter(|p| **p == line[n]).count())
}

/// Whether the engine ended the game of `case` before its last move: it reported a status
/// other than `ongoing` after a move where the case goes on.
fn ended_early(case: &Case, answers: &Answers) -> bool {
    let last = case.game.len();
    case.game
        .iter()
        .enumerate()
        .take(last.saturating_sub(1))
        .any(|(i, step)| {
            let key = game_key(&case.position, &game_moves(&case.game, i + 1));
            step.status == Status::Ongoing
                && answers
                    .games
                    .get(&key)
                    .is_some_and(|(seen, _)| seen.status != ReportedStatus::Ongoing)
        })
}

/// The positions of a game case's line by the reference engine: the start, then one after each
/// move (`None` when the case's game is not legal, which the suite's own tests exclude).
fn game_line(case: &Case) -> Option<Vec<Position>> {
    let mut e = Reference::from_position(&parse_position(&case.position).ok()?).ok()?;
    let mut line = vec![e.to_position()];
    for step in &case.game {
        e = e.play(&parse_move(&step.mv).ok()?).ok()?;
        line.push(e.to_position());
    }
    Some(line)
}

/// Why the game cases are skipped for an engine without `game`.
pub const NO_GAME: &str = "the engine does not know the 'game' request";

impl Run<'_> {
    /// Run the case suite and turn its failures into findings; each case counts as a vector.
    pub(super) fn case_suite(&mut self, cases: &[Case]) {
        let mut outside = Outside {
            run: self,
            seen: BTreeMap::new(),
            after: BTreeMap::new(),
            games: BTreeMap::new(),
            failed: BTreeSet::new(),
        };
        let suite = run_suite(cases, &mut outside);
        let answers = Answers {
            seen: outside.seen,
            after: outside.after,
            games: outside.games,
            failed: outside.failed,
        };
        self.count_game_cases(cases, &suite.skips);
        self.report.game_cases_ended_early = cases
            .iter()
            .filter(|c| ended_early(c, &answers))
            .map(|c| c.id.clone())
            .collect();
        let failed: BTreeSet<&str> = suite.failures.iter().map(|f| f.case.as_str()).collect();
        let skipped: BTreeSet<&str> = suite.skips.iter().map(|s| s.case.as_str()).collect();
        for case in cases {
            let place = format!("case `{}` ({} line {})", case.id, case.file, case.line);
            if failed.contains(case.id.as_str()) {
                let checks: Vec<&Check> = suite
                    .failures
                    .iter()
                    .filter(|f| f.case == case.id)
                    .map(|f| &f.check)
                    .collect();
                self.case_findings(case, &place, &checks, &answers);
                self.game_findings(case, &place, &checks, &answers);
                self.report.vector(&case.id, Some(false));
            } else if skipped.contains(case.id.as_str())
                && !answers.seen.contains_key(&case.position)
            {
                self.report.vector(&case.id, None);
            } else {
                self.report.compared += 1;
                self.report.vector(&case.id, Some(true));
            }
        }
    }

    /// The game cases skipped for want of `game`, and those played through it (a game case
    /// is played when one of its game checks was made).
    fn count_game_cases(&mut self, cases: &[Case], skips: &[Skip]) {
        self.report.games_known = self.drive.knows_game;
        let no_game: BTreeSet<&str> = skips
            .iter()
            .filter(|s| s.reason == NO_GAME)
            .map(|s| s.case.as_str())
            .collect();
        self.report.game_cases_skipped = no_game.len();
        let game_skips: BTreeSet<&str> = skips
            .iter()
            .filter(|s| matches!(s.check, Check::Game(..)))
            .map(|s| s.case.as_str())
            .collect();
        self.report.game_cases_played = cases
            .iter()
            .filter(|c| !c.game.is_empty() && !game_skips.contains(c.id.as_str()))
            .count();
    }

    /// The findings of one failed case: its moves and status compared in full (with every
    /// clause attributed), and each differing effect.
    fn case_findings(&mut self, case: &Case, place: &str, checks: &[&Check], answers: &Answers) {
        let Ok(pos) = parse_position(&case.position) else {
            return;
        };
        self.report.compared += 1;
        let Some(reference) = Expected::of(&pos) else {
            return;
        };
        let looked = checks
            .iter()
            .any(|c| !matches!(c, Check::Effect(_) | Check::Game(..)));
        match answers.seen.get(&case.position) {
            Some(s) if looked => {
                let expected = Expected {
                    moves: case
                        .moves
                        .as_ref()
                        .map(|m| m.iter().cloned().collect())
                        .unwrap_or(reference.moves),
                    status: case.status.unwrap_or(reference.status),
                };
                let d = analyze(&pos, &expected, s);
                if !d.is_empty() {
                    self.report.disagree(Kind::of(&d), place, &pos, d, None);
                }
            }
            // The harness got no answer (a refusal): set the position again to see why.
            None if looked && self.report.stopped.is_none() => match self.probe(&pos, &reference) {
                Ok(Some(d)) if !d.is_empty() => {
                    self.report.disagree(Kind::of(&d), place, &pos, d, None)
                }
                Ok(_) => {}
                Err(f) => self.incident(place, f),
            },
            _ => {}
        }
        self.effect_findings(case, place, &pos, checks, answers);
    }

    /// The findings of the game checks of a failed case: after each game move where the engine
    /// and the rules part, its moves and status compared with the rules' on the position the
    /// game reached; a draw on a position seen three times or more names a repetition reading
    /// of ORDO-3.3 (threefold, fourfold, five or more).
    fn game_findings(&mut self, case: &Case, place: &str, checks: &[&Check], answers: &Answers) {
        let Some(line) = game_line(case) else { return };
        let reading = first_draw(case, &line, answers).and_then(repetition_reading);
        for check in checks {
            let Check::Game(n, mv) = check else { continue };
            let (Some(pos), Some(step)) = (line.get(*n), case.game.get(n - 1)) else {
                continue;
            };
            let here = format!("{place}, after game move {n} ({mv})");
            let key = game_key(&case.position, &game_moves(&case.game, *n));
            let Some((seen, shown)) = answers.games.get(&key) else {
                let failed = key.clone();
                if let (Ok(m), false) = (parse_move(mv), answers.failed.contains(&failed)) {
                    self.play_refused(&here, &line[n - 1], &m, "an error to 'game'");
                }
                continue;
            };
            // The engine stands elsewhere: the moves of the game did not take (effects are
            // checked by the position cases; a game that changed nothing is said as such).
            if let Some(shown) = shown.as_ref().filter(|s| *s != pos) {
                if shown == &line[n - 1] {
                    self.report.unchanged(&here, shown, mv);
                }
                continue;
            }
            let Some(reference) = Expected::of(pos) else {
                continue;
            };
            let expected = Expected {
                moves: reference.moves,
                status: step.status,
            };
            let mut d = analyze(pos, &expected, seen);
            if let (ReportedStatus::Draw, Some(r)) = (&seen.status, reading.clone()) {
                d.clauses.insert(r.clause);
                d.readings.insert(r);
                d.main = main_clauses(&d);
            }
            if !d.is_empty() {
                self.report.compared += 1;
                self.report.disagree(Kind::of(&d), &here, pos, d, None);
            }
        }
    }

    /// The findings of the effect checks of a failed case whose position is `pos`: each
    /// position the engine produced that differs from the case's, or a move it refused.
    fn effect_findings(
        &mut self,
        case: &Case,
        place: &str,
        pos: &Position,
        checks: &[&Check],
        answers: &Answers,
    ) {
        for check in checks {
            let Check::Effect(mv) = check else { continue };
            let want = case
                .effect
                .iter()
                .find(|e| &e.mv == mv)
                .and_then(|e| parse_position(&e.after).ok());
            let (Some(want), Ok(m)) = (want, parse_move(mv)) else {
                continue;
            };
            let key = (case.position.clone(), mv.clone());
            match answers.after.get(&key) {
                Some(got) if got == pos => self.report.unchanged(place, pos, mv),
                Some(got) => {
                    let (clauses, readings, detail) = effect_difference(pos, &m, &want, got);
                    self.report
                        .effect(place, pos, mv, got, clauses, readings, detail);
                }
                None if answers.failed.contains(&key) => {}
                None => self.play_refused(place, pos, &m, "an error"),
            }
        }
    }
}
