//! The report of `ordo conform`: a typed record of the run (`--json` prints it whole) and its
//! text form, summary first, identical findings collapsed into one line with a count, then
//! the first finding of each kind in full (minimized, with a diagram).

use crate::rules::ClauseId;
use std::collections::BTreeMap;
use std::fmt::Write as _;

use serde::Serialize;

use super::difference::Reading;
use super::difference::{Diff, MoveNote};
use super::Options;
use crate::client::{shorten, Failure, Health};
use crate::notation::{format_position, parse_move, parse_position};
use crate::render::{self, Annotations};
use crate::rules::{Move, Position};
use ordo_core::text::count;

/// What kind of finding.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Kind {
    /// The engine's moves or status differ from the rules'.
    Moves,
    /// The engine refuses a valid position of a game and board it plays.
    Refused,
    /// The position a move produced differs (read back with `show`).
    Effect,
    /// The engine refuses to play a move it has just listed.
    PlayRefused,
    /// A malformed request or an accepted spelling is answered against the protocol.
    Protocol,
    /// The engine accepts `play` but shows the position unchanged: it did not play the move.
    Unchanged,
    /// The engine lists a move more than once (in one spelling or several), and nothing else
    /// differs.
    Repeated,
}

impl Kind {
    /// The kind of a position's difference.
    pub fn of(d: &Diff) -> Kind {
        if d.refused.is_some() {
            Kind::Refused
        } else if d.only_engine.is_empty()
            && d.only_reference.is_empty()
            && d.status.is_none()
            && !d.listed_twice.is_empty()
        {
            Kind::Repeated
        } else {
            Kind::Moves
        }
    }

    fn words(self) -> &'static str {
        match self {
            Kind::Moves => "moves or status differ",
            Kind::Refused => "a valid position is refused",
            Kind::Effect => "a move produces another position",
            Kind::PlayRefused => "a listed move is refused by 'play'",
            Kind::Protocol => "protocol",
            Kind::Unchanged => "'play' leaves the position unchanged",
            Kind::Repeated => "a move is listed twice",
        }
    }

    /// The name of the kind, as in the JSON report.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Moves => "moves",
            Kind::Refused => "refused",
            Kind::Effect => "effect",
            Kind::PlayRefused => "play-refused",
            Kind::Protocol => "protocol",
            Kind::Unchanged => "unchanged",
            Kind::Repeated => "repeated",
        }
    }
}

/// A shrunk finding.
#[derive(Clone, Debug, Serialize)]
pub struct Minimized {
    /// The smallest position found that still shows the difference, canonical.
    pub position: String,
    /// How many pieces that position has, both sides together.
    pub pieces: usize,
    /// The difference on that position, in one line.
    pub summary: String,
    /// The move drawn on the minimized position: one of its own differences.
    pub shown_move: Option<String>,
}

/// One finding.
#[derive(Clone, Debug, Serialize)]
pub struct Finding {
    /// What kind of difference: moves, status, a refused position, the protocol.
    pub kind: Kind,
    /// Where in the run it was found: a vector or case with its file and line, a playout and its
    /// move, a probe.
    pub place: String,
    /// The position it was found on, canonical.
    pub position: String,
    /// The main clause(s); empty for protocol findings.
    pub main: Vec<ClauseId>,
    /// Every clause involved.
    pub clauses: Vec<ClauseId>,
    /// The known alternative readings of the rules the engine's answers fit.
    pub readings: Vec<Reading>,
    /// One line.
    pub summary: String,
    /// The move differences, for `moves` findings.
    pub diff: Option<Diff>,
    /// The move to draw, canonical.
    pub shown_move: Option<String>,
    /// The smallest position showing the same difference, when minimizing found one.
    pub minimized: Option<Minimized>,
    /// The diagram written for the finding: its path, or why it could not be written.
    pub svg: Option<String>,
    /// The position itself, for drawing and minimizing (not serialized).
    #[serde(skip)]
    pub pos: Option<Position>,
}

impl Finding {
    /// What the report draws for this finding: the minimized position with its own move when
    /// the finding was minimized, else the finding's position with its move.
    pub fn drawn(&self) -> Option<(Position, Option<Move>)> {
        let read = |t: &Option<String>| t.as_deref().and_then(|t| parse_move(t).ok());
        match &self.minimized {
            Some(m) => Some((parse_position(&m.position).ok()?, read(&m.shown_move))),
            None => Some((self.pos.clone()?, read(&self.shown_move))),
        }
    }
}

/// The summary of a report: every count is the sum of its parts, each finding counted once
/// in each table.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Summary {
    /// Findings in all.
    pub findings: usize,
    /// Findings by their main clauses (joined by ", "; `none` for findings no clause of the
    /// rules explains: protocol findings, an engine that contradicts itself).
    pub by_clause: BTreeMap<String, usize>,
    /// Findings by the known readings they fit (joined by " + "; `none` for the others).
    pub by_reading: BTreeMap<String, usize>,
    /// Findings by kind.
    pub by_kind: BTreeMap<String, usize>,
    /// Groups of identical findings (one per defect).
    pub groups: usize,
}

/// The key of a finding's main clauses in [`Summary::by_clause`].
pub fn clause_key(main: &[ClauseId]) -> String {
    if main.is_empty() {
        NONE.to_string()
    } else {
        ClauseId::join(main, ", ")
    }
}

/// The key of findings without a clause or reading.
pub const NONE: &str = "none";

/// An engine failure.
#[derive(Clone, Debug, Serialize)]
pub struct Incident {
    /// Where in the run the engine failed (as [`Finding::place`]).
    pub place: String,
    /// `crash`, `hang` or `garbage`.
    pub kind: &'static str,
    /// What happened: the request, the reply or the exit, in one line.
    pub detail: String,
}

/// Counts of engine failures.
#[derive(Clone, Debug, Default, Serialize)]
pub struct HealthCounts {
    /// Times the engine process died or closed its output.
    pub crashes: usize,
    /// Times it gave no answer within the timeout.
    pub hangs: usize,
    /// Replies that were not the protocol's answer to the request.
    pub garbage: usize,
    /// Reply lines without an end (past the longest a reply may have, or unfinished at the
    /// timeout); the engine was killed at once.
    pub endless_lines: usize,
    /// Times it was started again.
    pub restarts: usize,
    /// Milliseconds spent in all waiting on replies that never came (hangs, endless lines).
    pub waited_ms: u64,
}

impl From<Health> for HealthCounts {
    fn from(h: Health) -> HealthCounts {
        HealthCounts {
            crashes: h.crashes,
            hangs: h.hangs,
            garbage: h.garbage,
            endless_lines: h.endless_lines,
            restarts: h.restarts,
            waited_ms: u64::try_from(h.waited.as_millis()).unwrap_or(u64::MAX),
        }
    }
}

/// The exit status of `ordo conform` when the engine passed.
pub const EXIT_PASS: u8 = 0;
/// The exit status when a healthy engine differs from the rules (rules findings only).
pub const EXIT_DIFFERENCES: u8 = 1;
/// The exit status when the engine is broken or unusable (a crash, a hang, garbage, an endless
/// line, could not start, nothing compared). Bad usage of the command is 2.
pub const EXIT_BROKEN: u8 = 3;

/// What makes findings identical: kind, main clauses, readings.
type GroupKey = (Kind, Vec<ClauseId>, Vec<Reading>);

/// Whether the engine passed: `PASS` or `FAIL`, as the JSON report's `verdict` field and the
/// text report's verdict line write it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "UPPERCASE")]
pub enum Verdict {
    /// No finding, no engine failure, the run complete and something compared.
    Pass,
    /// Anything else; the report's `why` says what.
    Fail,
}

impl std::fmt::Display for Verdict {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Verdict::Pass => "PASS",
            Verdict::Fail => "FAIL",
        })
    }
}

/// The whole report.
#[derive(Clone, Debug, Serialize)]
pub struct Report {
    /// The command that starts the engine, as given.
    pub command: String,
    /// The name the engine gave in its handshake (empty if it gave none).
    pub name: String,
    /// Pass or fail, and for a failure its kind.
    pub verdict: Verdict,
    /// The exit status of `ordo conform` ([`Report::exit_status`]): 0 pass, 1 rules differences
    /// of a healthy engine, 3 an engine broken or unusable.
    pub exit_status: u8,
    /// The reasons for a failing verdict, one line each (empty on a pass).
    pub why: Vec<String>,
    /// What the engine declared with `capabilities` (`None`: it does not know the request).
    pub declared: Option<Vec<String>>,
    /// Games and boards not checked, with the reason, one each.
    pub unsupported: Vec<(String, String)>,
    /// Built-in vectors in the run.
    pub vectors_total: usize,
    /// Vectors on which the engine agreed with the expected answer.
    pub vectors_passed: usize,
    /// The ids of the vectors it disagreed on.
    pub vectors_failed: Vec<String>,
    /// Vectors not compared (a game or board the engine does not support, or the run stopped).
    pub vectors_not_compared: usize,
    /// Random games played against the reference engine.
    pub playouts: u32,
    /// Positions those games compared, in all.
    pub playout_positions: usize,
    /// Positions compared with the rules in the whole run (vectors, cases, playouts).
    pub compared: usize,
    /// Whether the engine answers `show` (so effects were checked); `None`: never asked.
    pub effects_checked: Option<bool>,
    /// Whether the engine knows `game` (so game cases were played); `None`: never asked.
    pub games_known: Option<bool>,
    /// Game cases skipped because the engine does not know `game`.
    pub game_cases_skipped: usize,
    /// Game cases played through `game` (passed or failed).
    pub game_cases_played: usize,
    /// The game cases the engine ended before their last move (a status other than `ongoing`
    /// where the case goes on), by id.
    pub game_cases_ended_early: Vec<String>,
    /// The counts, each the sum of its parts.
    pub summary: Summary,
    /// Games and boards of which positions were compared.
    pub checked: Vec<String>,
    /// Every difference found, in the order found.
    pub findings: Vec<Finding>,
    /// Every failure of the engine process (crash, hang, garbage), in order.
    pub incidents: Vec<Incident>,
    /// The counts of those failures and of the restarts.
    pub health: HealthCounts,
    /// `moves` replies not sorted in byte order (the protocol asks for it).
    pub unsorted: usize,
    /// Why the run stopped before the end (the engine could not be restarted, a vector did not
    /// read); `None` when it ran to the end.
    pub stopped: Option<String>,
    /// The seed of the playouts: the same seed replays the same games.
    pub seed: u64,
    /// Where the diagrams of the findings go, if anywhere (not serialized).
    #[serde(skip)]
    pub svg_dir: Option<std::path::PathBuf>,
}

impl Report {
    /// An empty report of a run with `opts` over `vectors` vectors: nothing checked yet, the
    /// verdict a failure until [`Report::finish`] says otherwise.
    pub fn new(opts: &Options, vectors: usize) -> Report {
        Report {
            command: opts.command.clone(),
            name: String::new(),
            verdict: Verdict::Fail,
            exit_status: EXIT_BROKEN,
            why: Vec::new(),
            declared: None,
            unsupported: Vec::new(),
            vectors_total: vectors,
            vectors_passed: 0,
            vectors_failed: Vec::new(),
            vectors_not_compared: 0,
            playouts: 0,
            playout_positions: 0,
            compared: 0,
            effects_checked: None,
            games_known: None,
            game_cases_skipped: 0,
            game_cases_played: 0,
            game_cases_ended_early: Vec::new(),
            summary: Summary::default(),
            checked: Vec::new(),
            findings: Vec::new(),
            incidents: Vec::new(),
            health: HealthCounts::default(),
            unsorted: 0,
            stopped: None,
            seed: opts.seed,
            svg_dir: opts.svg_dir.clone(),
        }
    }

    /// Whether the engine passed: no finding, no failure, the run complete.
    pub fn passed(&self) -> bool {
        self.verdict == Verdict::Pass
    }

    /// Whether the engine is broken or unusable: it crashed, hung, answered garbage or could
    /// not be started (any incident), the run stopped early, or nothing could be compared.
    pub fn broken(&self) -> bool {
        !self.incidents.is_empty() || self.stopped.is_some() || self.compared == 0
    }

    /// The exit status for the verdict: [`EXIT_PASS`], [`EXIT_DIFFERENCES`] when a healthy
    /// engine differs from the rules, [`EXIT_BROKEN`] when the engine is broken (whatever
    /// its findings: they cover only what it answered).
    pub fn exit_status(&self) -> u8 {
        if self.broken() {
            EXIT_BROKEN
        } else if self.findings.is_empty() {
            EXIT_PASS
        } else {
            EXIT_DIFFERENCES
        }
    }

    /// Record a failure of the engine process at `place` as an incident.
    pub fn failure(&mut self, place: &str, f: &Failure) {
        self.incidents.push(Incident {
            place: place.to_string(),
            kind: f.kind(),
            detail: f.detail().to_string(),
        });
    }

    /// A vector's result: `None` not compared.
    pub fn vector(&mut self, id: &str, ok: Option<bool>) {
        match ok {
            Some(true) => self.vectors_passed += 1,
            Some(false) => self.vectors_failed.push(id.to_string()),
            None => self.vectors_not_compared += 1,
        }
    }

    /// Count one playout that compared `positions` positions.
    pub fn playout(&mut self, positions: usize) {
        self.playouts += 1;
        self.playout_positions += positions;
    }

    /// A difference in moves, status, or a refused position.
    pub fn disagree(
        &mut self,
        kind: Kind,
        place: &str,
        pos: &Position,
        d: Diff,
        shown: Option<String>,
    ) {
        let shown = shown.or_else(|| {
            d.only_engine
                .first()
                .or(d.only_reference.first())
                .or(d.listed_twice.first())
                .map(|m| m.text.clone())
        });
        self.findings.push(Finding {
            kind,
            place: place.to_string(),
            position: format_position(pos),
            main: d.main.clone(),
            clauses: d.clauses.iter().copied().collect(),
            readings: d.readings.iter().cloned().collect(),
            summary: one_line(&d),
            diff: Some(d),
            shown_move: shown,
            minimized: None,
            svg: None,
            pos: Some(pos.clone()),
        });
    }

    /// The position a move produced differs.
    #[allow(clippy::too_many_arguments)]
    pub fn effect(
        &mut self,
        place: &str,
        pos: &Position,
        mv: &str,
        got: &Position,
        clauses: Vec<ClauseId>,
        readings: Vec<Reading>,
        detail: String,
    ) {
        let mut main = clauses.clone();
        main.extend(readings.iter().map(|r| r.clause));
        main.sort();
        main.dedup();
        self.findings.push(Finding {
            kind: Kind::Effect,
            place: place.to_string(),
            position: format_position(pos),
            main: main.clone(),
            clauses: main,
            readings,
            summary: format!(
                "after {mv} the engine shows {}: {detail}",
                format_position(got)
            ),
            diff: None,
            shown_move: Some(mv.to_string()),
            minimized: None,
            svg: None,
            pos: Some(pos.clone()),
        });
    }

    /// The engine refuses to play a move it listed.
    pub fn play_refused(
        &mut self,
        place: &str,
        pos: &Position,
        mv: &str,
        reply: &str,
        clauses: Vec<ClauseId>,
    ) {
        let mut clauses = clauses;
        clauses.dedup();
        // No clause of the rules is at fault: the engine contradicts itself.
        self.findings.push(Finding {
            kind: Kind::PlayRefused,
            place: place.to_string(),
            position: format_position(pos),
            main: vec![],
            clauses,
            readings: vec![],
            summary: format!(
                "the engine lists {mv} but answers 'play {mv}' with '{}'",
                shorten(reply)
            ),
            diff: None,
            shown_move: Some(mv.to_string()),
            minimized: None,
            svg: None,
            pos: Some(pos.clone()),
        });
    }

    /// The engine accepted `play mv` and shows the position it was played on: no rule is at
    /// fault, the engine does not play moves.
    pub fn unchanged(&mut self, place: &str, pos: &Position, mv: &str) {
        self.findings.push(Finding {
            kind: Kind::Unchanged,
            place: place.to_string(),
            position: format_position(pos),
            main: vec![],
            clauses: vec![],
            readings: vec![],
            summary: format!(
                "the engine answers 'play {mv}' without an error but 'show' gives the position it was played on: the move was not played"
            ),
            diff: None,
            shown_move: Some(mv.to_string()),
            minimized: None,
            svg: None,
            pos: Some(pos.clone()),
        });
    }

    /// A protocol finding: `request` got `reply`, the protocol asks for `want`.
    pub fn protocol(&mut self, place: &str, request: &str, reply: &str, want: &str) {
        self.findings.push(Finding {
            kind: Kind::Protocol,
            place: place.to_string(),
            position: String::new(),
            main: vec![],
            clauses: vec![],
            readings: vec![],
            summary: format!(
                "'{}' was answered '{}'; spec/protocol.md asks for {want}",
                shorten(request),
                shorten(reply)
            ),
            diff: None,
            shown_move: None,
            minimized: None,
            svg: None,
            pos: None,
        });
    }

    /// Count the failures from the incidents listed, and the findings by clause, reading and
    /// kind.
    fn count(&mut self) {
        let n = |k: &str| self.incidents.iter().filter(|i| i.kind == k).count();
        (self.health.crashes, self.health.hangs, self.health.garbage) =
            (n("crash"), n("hang"), n("garbage"));
        self.health.endless_lines = n("endless-line");
        let mut s = Summary {
            findings: self.findings.len(),
            groups: self.groups().len(),
            ..Summary::default()
        };
        for f in &self.findings {
            *s.by_clause.entry(clause_key(&f.main)).or_default() += 1;
            let reading = if f.readings.is_empty() {
                NONE.to_string()
            } else {
                let r: Vec<String> = f.readings.iter().map(|r| r.to_string()).collect();
                r.join(" + ")
            };
            *s.by_reading.entry(reading).or_default() += 1;
            *s.by_kind.entry(f.kind.name().to_string()).or_default() += 1;
        }
        self.summary = s;
    }

    /// Decide the verdict.
    pub fn finish(mut self) -> Report {
        self.count();
        let mut why = Vec::new();
        if !self.findings.is_empty() {
            why.push(count(self.findings.len(), "finding"));
        }
        if !self.incidents.is_empty() {
            let mut kinds: Vec<&str> = self.incidents.iter().map(|i| i.kind).collect();
            kinds.sort();
            kinds.dedup();
            why.push(format!("engine failures: {}", kinds.join(", ")));
        }
        if self.stopped.is_some() {
            why.push("the run stopped early".into());
        }
        if self.compared == 0 && why.is_empty() {
            why.push(
                "nothing was compared: the engine plays none of the games and boards checked"
                    .into(),
            );
        }
        if self.broken() {
            why.push("the engine is broken or unusable (exit status 3)".into());
        }
        self.verdict = if why.is_empty() {
            Verdict::Pass
        } else {
            Verdict::Fail
        };
        self.why = why;
        self.exit_status = self.exit_status();
        self
    }

    /// The groups of identical findings: (kind, main clauses, readings) → indexes, in order of
    /// first appearance.
    pub fn groups(&self) -> Vec<Vec<usize>> {
        let mut order: Vec<GroupKey> = Vec::new();
        let mut map: BTreeMap<GroupKey, Vec<usize>> = BTreeMap::new();
        for (i, f) in self.findings.iter().enumerate() {
            let mut key = (f.kind, f.main.clone(), f.readings.clone());
            if f.kind == Kind::Protocol {
                key.1 = vec![];
                key.2 = vec![];
            }
            if !map.contains_key(&key) {
                order.push(key.clone());
            }
            map.entry(key).or_default().push(i);
        }
        order
            .into_iter()
            .map(|k| map.remove(&k).unwrap_or_default())
            .collect()
    }

    /// The text report.
    pub fn text(&self) -> String {
        let mut out = String::new();
        self.write_summary(&mut out);
        self.write_groups(&mut out);
        self.write_details(&mut out);
        // Whatever the engine said, nothing it sent reaches the terminal raw.
        crate::client::escape(&out)
    }

    fn write_summary(&self, out: &mut String) {
        let name = if self.name.is_empty() {
            "no name: the handshake did not complete".to_string()
        } else {
            format!("name '{}'", self.name)
        };
        let _ = writeln!(out, "ordo conform: engine `{}` ({name})", self.command);
        let verdict = match self.verdict {
            Verdict::Pass => format!("PASS (no disagreement in {} positions)", self.compared),
            Verdict::Fail => format!("FAIL ({})", self.why.join("; ")),
        };
        let _ = writeln!(out, "verdict: {verdict}");
        let _ = writeln!(out, "\nSUMMARY");
        match &self.declared {
            Some(d) => {
                let _ = writeln!(out, "  capabilities: {}", d.join(" "));
            }
            None => {
                let _ = writeln!(
                    out,
                    "  capabilities: not declared (inferred from the engine's answers)"
                );
            }
        }
        self.write_unsupported(out);
        self.write_coverage(out);
        let k = &self.summary.by_kind;
        let kinds: Vec<String> = k.iter().map(|(k, n)| format!("{n} {k}")).collect();
        let _ = match kinds.len() {
            0 | 1 => writeln!(out, "  findings: {}", self.findings.len()),
            _ => writeln!(
                out,
                "  findings: {} ({})",
                self.findings.len(),
                kinds.join(", ")
            ),
        };
        self.write_by_clause(out);
        self.write_health(out);
    }

    /// What was compared: the cases and vectors, the playouts, the effects of moves.
    fn write_coverage(&self, out: &mut String) {
        let _ = writeln!(
            out,
            "  cases and vectors: {} passed, {} failed, {} not compared (of {})",
            self.vectors_passed,
            self.vectors_failed.len(),
            self.vectors_not_compared,
            self.vectors_total
        );
        if !self.vectors_failed.is_empty() {
            let _ = writeln!(out, "  failed: {}", self.vectors_failed.join(" "));
        }
        let _ = writeln!(
            out,
            "  playouts: {} played (seed {}), {} positions compared",
            self.playouts, self.seed, self.playout_positions
        );
        let _ = writeln!(out, "  positions compared: {}", self.compared);
        let effects = match self.effects_checked {
            Some(true) => "checked with 'show' after every 'play'",
            Some(false) => "NOT checked: the engine does not answer 'show'",
            None => "not checked (no move was played)",
        };
        let _ = writeln!(out, "  effects of moves: {effects}");
        let games = match self.games_known {
            Some(true) => format!(
                "{} played through 'game', the engine knowing each game; {}",
                self.game_cases_played,
                self.ended_early()
            ),
            Some(false) => format!(
                "NOT played: the engine does not know the 'game' request ({} skipped)",
                count(self.game_cases_skipped, "case")
            ),
            None => "none run".to_string(),
        };
        let _ = writeln!(out, "  game cases: {games}");
    }

    /// How many game cases the engine ended before their last move, and which.
    fn ended_early(&self) -> String {
        match self.game_cases_ended_early.as_slice() {
            [] => "0 ended early".to_string(),
            ids => format!("{} ended early ({})", ids.len(), ids.join(" ")),
        }
    }

    /// How the engine kept to the protocol: remarks, failures and incidents, a stop.
    fn write_health(&self, out: &mut String) {
        if self.unsorted > 0 {
            let _ = writeln!(
                out,
                "  protocol remarks: {} not sorted by byte order (compared as sets)",
                count(self.unsorted, "'moves' reply")
            );
        }
        let h = &self.health;
        let endless = match h.endless_lines {
            0 => String::new(),
            n => format!("{}, ", count(n, "endless line")),
        };
        let _ = writeln!(
            out,
            "  engine failures: {}, {}, {}, {endless}{}",
            count(h.crashes, "crash"),
            count(h.hangs, "hang"),
            count(h.garbage, "garbage answer"),
            count(h.restarts, "restart")
        );
        if h.waited_ms > 0 {
            let _ = writeln!(
                out,
                "  waited for replies that never came: {:.1} s in all",
                h.waited_ms as f64 / 1000.0
            );
        }
        for i in &self.incidents {
            let _ = writeln!(out, "    {}: {} — {}", i.place, i.kind, shorten(&i.detail));
        }
        if let Some(why) = &self.stopped {
            let _ = writeln!(out, "  STOPPED: {why}");
        }
    }

    /// What was checked, then one line per reason: the games and boards not checked for it
    /// (a long list cut to its first few).
    fn write_unsupported(&self, out: &mut String) {
        if !self.checked.is_empty() {
            let _ = writeln!(out, "  checked: {}", self.checked.join(" "));
        }
        let mut by: Vec<(String, Vec<&str>)> = Vec::new();
        for (gb, why) in &self.unsupported {
            // Inferred refusals differ only in the position and the reply: one line for all.
            let key = match why.split_once(" the start position ") {
                Some((head, tail)) => format!("{head} the start position of each (first: {tail})"),
                None => why.clone(),
            };
            match by
                .iter_mut()
                .find(|(k, _)| k.split(" (first:").next() == key.split(" (first:").next())
            {
                Some((_, v)) => v.push(gb),
                None => by.push((key, vec![gb])),
            }
        }
        const LISTED: usize = 4;
        for (why, gbs) in by {
            let list = if gbs.len() > LISTED {
                format!(
                    "{} games and boards ({} …)",
                    gbs.len(),
                    gbs[..LISTED].join(" ")
                )
            } else {
                gbs.join(" ")
            };
            let _ = writeln!(out, "  unsupported, not checked: {list} — {why}");
        }
    }

    /// The findings by main clause and by known reading, each finding counted once.
    fn write_by_clause(&self, out: &mut String) {
        let sum = &self.summary;
        if sum.findings == 0 {
            return;
        }
        let _ = writeln!(out, "  findings by main clause:");
        let mut rows: Vec<(&String, &usize)> = sum.by_clause.iter().collect();
        rows.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
        for (c, k) in rows {
            let title = if c == NONE {
                "no clause of the rules (protocol, or the engine contradicts itself)".to_string()
            } else {
                let t: Vec<&str> = c
                    .split(", ")
                    .map(|c| {
                        crate::rules::clauses::get(c)
                            .map(|cl| cl.title.as_str())
                            .unwrap_or("")
                    })
                    .collect();
                t.join(" / ")
            };
            let _ = writeln!(out, "    {c:<10} {k:>5}  {title}");
        }
        if sum.by_reading.keys().any(|r| r != NONE) {
            let _ = writeln!(out, "  findings by known reading:");
            for (r, k) in &sum.by_reading {
                let r = if r == NONE { "no known reading" } else { r };
                let _ = writeln!(out, "    {r} ({})", count(*k, "finding"));
            }
        }
    }

    fn write_groups(&self, out: &mut String) {
        if self.findings.is_empty() {
            return;
        }
        let _ = writeln!(out, "\nFINDINGS (identical ones collapsed)");
        for g in self.groups() {
            let f = &self.findings[g[0]];
            let clauses = if f.main.is_empty() {
                String::new()
            } else {
                format!("[{}] ", ClauseId::join(&f.main, ", "))
            };
            let _ = writeln!(
                out,
                "  {}× {clauses}{} — first: {}: {}",
                g.len(),
                f.kind.words(),
                f.place,
                f.summary
            );
        }
    }

    fn write_details(&self, out: &mut String) {
        for (n, g) in self.groups().iter().enumerate() {
            let f = &self.findings[g[0]];
            if f.kind == Kind::Protocol {
                continue;
            }
            let _ = writeln!(
                out,
                "\nFINDING {} — {} ({}× in all)",
                n + 1,
                f.place,
                g.len()
            );
            let _ = writeln!(out, "  position: {}", f.position);
            match &f.diff {
                Some(d) => write_diff(out, d, "  "),
                None => {
                    let _ = writeln!(out, "  {}", f.summary);
                    let _ = writeln!(out, "  clauses: {}", main_words(&f.main));
                    for r in &f.readings {
                        let _ = writeln!(out, "  reading: {r}");
                    }
                }
            }
            self.write_shrunk(out, f);
        }
    }

    fn write_shrunk(&self, out: &mut String, f: &Finding) {
        let Some(pos) = &f.pos else { return };
        match &f.minimized {
            Some(m) => {
                let _ = writeln!(
                    out,
                    "  minimized: {} ({} pieces): {}",
                    m.position, m.pieces, m.summary
                );
            }
            // Only differences in moves or status are minimized.
            None if f.kind == Kind::Moves => {
                let _ = writeln!(
                    out,
                    "  minimized: no piece can be taken away without losing the finding"
                );
            }
            None => {}
        }
        let (shown, mv) = f.drawn().unwrap_or_else(|| (pos.clone(), None));
        let notes = Annotations {
            title: Some(format!(
                "{} [{}]",
                f.kind.words(),
                ClauseId::join(&f.main, ", ")
            )),
            ..Annotations::default()
        };
        for line in render::unicode(&shown, mv.as_ref(), &notes).lines() {
            let _ = writeln!(out, "    {line}");
        }
        if let Some(svg) = &f.svg {
            let _ = writeln!(out, "  svg: {svg}");
        }
    }
}

fn main_words(v: &[ClauseId]) -> String {
    if v.is_empty() {
        "none identified".into()
    } else {
        format!("{} (main)", ClauseId::join(v, ", "))
    }
}

/// The move lists and status of a difference, as lines.
pub fn write_diff(out: &mut String, d: &Diff, indent: &str) {
    if let Some(r) = &d.refused {
        let _ = writeln!(
            out,
            "{indent}the engine refuses the position (ORDO-2.3 allows it): {}",
            shorten(r)
        );
    } else {
        write_move_notes(out, indent, "only in the engine", &d.only_engine);
        write_move_notes(out, indent, "only in the rules", &d.only_reference);
        write_move_notes(out, indent, "listed twice by the engine", &d.listed_twice);
        if let Some((want, got)) = d.status {
            let same = if d.same_winner {
                " (same winner, reason differs)"
            } else {
                ""
            };
            let _ = writeln!(
                out,
                "{indent}status: engine says {got}, the rules say {want}{same} [{}]",
                ClauseId::join(&d.status_clauses, ", ")
            );
        }
    }
    let others: Vec<ClauseId> = d
        .clauses
        .iter()
        .copied()
        .filter(|c| !d.main.contains(c))
        .collect();
    if others.is_empty() {
        let _ = writeln!(out, "{indent}clauses: {}", main_words(&d.main));
    } else {
        let _ = writeln!(
            out,
            "{indent}clauses: {}; also involved: {}",
            main_words(&d.main),
            ClauseId::join(&others, ", ")
        );
    }
    for r in &d.readings {
        let _ = writeln!(out, "{indent}reading: {r}");
    }
}

/// The first few moves of one side of a difference, titled, with their clauses and why.
fn write_move_notes(out: &mut String, indent: &str, title: &str, notes: &[MoveNote]) {
    const LISTED: usize = 8;
    if notes.is_empty() {
        return;
    }
    let _ = writeln!(out, "{indent}{title} ({}):", notes.len());
    for m in notes.iter().take(LISTED) {
        let clauses = if m.clauses.is_empty() {
            String::new()
        } else {
            format!(" [{}]", ClauseId::join(&m.clauses, ", "))
        };
        let _ = writeln!(out, "{indent}  {}{clauses} {}", m.text, m.detail);
    }
    if notes.len() > LISTED {
        let _ = writeln!(out, "{indent}  … and {} more", notes.len() - LISTED);
    }
}

/// One line: counts of the differences.
pub fn one_line(d: &Diff) -> String {
    if let Some(r) = &d.refused {
        return format!("the engine refuses the position: {}", shorten(r));
    }
    let mut parts = Vec::new();
    let first = |v: &[MoveNote]| {
        let f: Vec<&str> = v.iter().take(3).map(|m| m.text.as_str()).collect();
        format!("{}{}", f.join(" "), if v.len() > 3 { " …" } else { "" })
    };
    if !d.only_engine.is_empty() {
        parts.push(format!(
            "{} only in the engine ({})",
            d.only_engine.len(),
            first(&d.only_engine)
        ));
    }
    if !d.only_reference.is_empty() {
        parts.push(format!(
            "{} only in the rules ({})",
            d.only_reference.len(),
            first(&d.only_reference)
        ));
    }
    if !d.listed_twice.is_empty() {
        parts.push(format!(
            "{} listed twice by the engine ({}; spec/protocol.md: each move once)",
            d.listed_twice.len(),
            first(&d.listed_twice)
        ));
    }
    if let Some((want, got)) = d.status {
        let same = if d.same_winner {
            "same winner, reason differs: "
        } else {
            ""
        };
        parts.push(format!("status: {same}engine {got}, rules {want}"));
    }
    for r in &d.readings {
        parts.push(r.to_string());
    }
    parts.join("; ")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The verdict is written `PASS` or `FAIL`, in the JSON report's `verdict` field and on
    /// the text report's verdict line alike, and only a pass is one.
    #[test]
    fn the_verdict_is_written_pass_or_fail() {
        for (v, text) in [(Verdict::Pass, "PASS"), (Verdict::Fail, "FAIL")] {
            assert_eq!(serde_json::to_value(v).unwrap(), text);
            assert_eq!(v.to_string(), text);
        }
        let opts = Options {
            command: "engine".into(),
            vectors: None,
            cases: None,
            playouts: 0,
            plies: 0,
            seed: 0,
            timeout: std::time::Duration::from_secs(1),
            svg_dir: None,
            only: None,
        };
        let report = Report::new(&opts, 0).finish();
        assert_eq!(report.verdict, Verdict::Fail);
        assert!(!report.passed());
        let json = serde_json::to_value(&report).unwrap();
        assert_eq!(json["verdict"], "FAIL");
        assert!(report
            .text()
            .contains("\nverdict: FAIL (nothing was compared"));
        // Nothing compared: the engine is unusable.
        assert_eq!(report.exit_status(), EXIT_BROKEN);
    }

    /// The exit status: 0 a pass, 1 rules findings of a healthy engine, 3 an engine failure
    /// or an early stop, whatever the findings beside it.
    #[test]
    fn the_exit_status_tells_rules_differences_from_a_broken_engine() {
        let opts = Options {
            command: "engine".into(),
            vectors: None,
            cases: None,
            playouts: 0,
            plies: 0,
            seed: 0,
            timeout: std::time::Duration::from_secs(1),
            svg_dir: None,
            only: None,
        };
        let pos = crate::notation::parse_position("4/4/1B2/W3/WW2 w classic").unwrap();
        let mut r = Report::new(&opts, 1);
        r.compared = 1;
        let healthy = r.clone().finish();
        assert_eq!((healthy.exit_status, healthy.passed()), (EXIT_PASS, true));
        r.unchanged("here", &pos, "a1-a2");
        let wrong = r.clone().finish();
        assert_eq!(wrong.exit_status, EXIT_DIFFERENCES);
        assert!(
            !wrong.why.iter().any(|w| w.contains("broken")),
            "{:?}",
            wrong.why
        );
        r.failure("there", &Failure::Crash("the engine exited".into()));
        let broken = r.clone().finish();
        assert_eq!(broken.exit_status, EXIT_BROKEN);
        assert!(broken
            .text()
            .contains("the engine is broken or unusable (exit status 3)"));
        let mut stopped = Report::new(&opts, 1);
        stopped.compared = 1;
        stopped.stopped = Some("giving up".into());
        assert_eq!(stopped.finish().exit_status, EXIT_BROKEN);
    }
}
