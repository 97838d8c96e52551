//! `ordo conform`: drive an external engine over the protocol and compare it with the
//! reference engine.
//!
//! The engine is checked on every vector of `spec/conformance/` (against the expected moves and
//! status written in the files), then along seeded random playouts whose positions the
//! reference engine produces (the engine is moved along with `play`). For every disagreement
//! the report gives the position, the moves only the engine lists and those only the reference
//! lists, the status of each, the clauses involved (from the adjudicator: for a move only the
//! engine accepts, the clauses it breaks; for a move the engine misses, the clauses that permit
//! it and not the moves both accept; for a status, the clauses of the statuses), the known
//! alternative reading the engine follows if the difference fits one, a minimized position
//! that still disagrees (pieces taken away one at a time while the position stays valid and the
//! engine still disagrees for the same clauses), and a diagram (Unicode, and SVG files with
//! `--svg-dir`). Crashes, hangs and garbage answers are reported as such, the engine restarted,
//! and the run goes on.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::PathBuf;
use std::time::Duration;

use super::client::{shorten, External, Failure};
use super::judge::judge;
use super::protocol::{parse_moves_reply, parse_status_reply, ReportedStatus};
use super::vectors::{self, is_sub_run, random_line, Located};
use super::Rng;
use crate::notation::{format_move, format_position, parse_move, parse_position};
use crate::reference::Reference;
use crate::render::{self, Annotations};
use crate::rules::{Engine, Move, Position, Status, WinReason};

/// What `ordo conform` was asked to do.
#[derive(Clone, Debug)]
pub struct Options {
    /// The engine's command line, run with `sh -c`.
    pub command: String,
    /// Directory of the vector files.
    pub vectors: PathBuf,
    /// Number of random playouts.
    pub playouts: u32,
    /// Plies per playout.
    pub plies: u32,
    /// Seed of the playouts.
    pub seed: u64,
    /// Longest wait for one reply.
    pub timeout: Duration,
    /// Where to write one SVG diagram per disagreement.
    pub svg_dir: Option<PathBuf>,
}

/// At most this many disagreements are reported in full (minimized, drawn); the rest get one
/// line each.
const DETAILED: usize = 10;
/// Disagreements reported in full even when they show no new clause.
const MIN_DETAILED: usize = 3;
/// Engine queries one minimization may spend.
const MINIMIZE_BUDGET: usize = 400;
/// Differing moves listed per side in a full report.
const LISTED: usize = 8;
/// Restarts after which the run stops.
const MAX_RESTARTS: usize = 8;
/// Garbage answers after which the run stops.
const MAX_GARBAGE: usize = 25;
/// Agreed moves whose permitting clauses are compared with those of missed moves.
const AGREED_SAMPLE: usize = 48;

/// A known alternative reading of a clause that an engine's answers fit.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Reading {
    pub clause: &'static str,
    pub text: &'static str,
}

impl std::fmt::Display for Reading {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "engine follows reading \"{}\" of clause {}",
            self.text, self.clause
        )
    }
}

const READING_TIE_UNNAMED: Reading = Reading {
    clause: "ORDOX-4.2",
    text: "the capturer does not choose the kept group: the victim chooses, or the engine decides (the capture is listed without /keep)",
};
const READING_TIE_ENGINE_PICKS: Reading = Reading {
    clause: "ORDOX-4.2",
    text: "the engine picks one of the tied groups itself (only one kept group is listed)",
};
const READING_NO_MOVE_RECONNECT: Reading = Reading {
    clause: "ORDO-10.3",
    text: "a player without a legal move does not lose: the game goes on or is drawn",
};
const READING_NO_MOVE_CONNECTED: Reading = Reading {
    clause: "ORDO-10.4",
    text: "a player without a legal move does not lose: the game goes on or is drawn (stalemate)",
};
const READING_MAXIMAL_RUNS: Reading = Reading {
    clause: "ORDO-5.2",
    text: "only a maximal line is an ordo: part of a longer line may not move as an ordo",
};

/// What the engine said about one position.
#[derive(Clone, Debug)]
struct Seen {
    moves: Vec<String>,
    status: ReportedStatus,
}

/// What the reference (or a vector) expects.
#[derive(Clone, Debug)]
struct Expected {
    moves: BTreeSet<String>,
    status: Status,
}

/// One move that only one side lists, with the clauses behind it.
#[derive(Clone, Debug)]
struct MoveNote {
    text: String,
    clauses: Vec<&'static str>,
    detail: String,
}

/// The comparison of one position.
#[derive(Clone, Debug, Default)]
struct Diff {
    only_engine: Vec<MoveNote>,
    only_reference: Vec<MoveNote>,
    /// (expected, engine) when they differ.
    status: Option<(ReportedStatus, ReportedStatus)>,
    /// The engine's error reply to `position`.
    refused: Option<String>,
    status_clauses: Vec<&'static str>,
    readings: BTreeSet<Reading>,
    /// Every clause involved.
    clauses: BTreeSet<&'static str>,
    /// The main clause(s): those of the known reading, or else those named by the most
    /// differing moves and statuses.
    main: Vec<&'static str>,
}

impl Diff {
    fn is_empty(&self) -> bool {
        self.only_engine.is_empty()
            && self.only_reference.is_empty()
            && self.status.is_none()
            && self.refused.is_none()
    }
}

/// A disagreement found during the run.
struct Disagreement {
    place: String,
    position: Position,
    diff: Diff,
    /// How the engine got there, when the difference came from `play`.
    play_note: Option<String>,
}

/// Run state.
struct Run<'a> {
    opts: &'a Options,
    engine: External,
    disagreements: Vec<Disagreement>,
    incidents: Vec<(String, Failure)>,
    compared: usize,
    aborted: Option<String>,
    /// `moves` replies not sorted by byte order (compared as sets all the same).
    unsorted: usize,
    /// `moves` replies that list a move twice.
    repeated: usize,
}

/// Run `ordo conform`. `Ok(true)` when the engine agrees everywhere and never failed,
/// `Ok(false)` otherwise; `Err` for bad arguments (nothing was run).
pub fn run(opts: &Options, out: &mut String) -> Result<bool, String> {
    if opts.command.trim().is_empty() {
        return Err("--engine: the command is empty".into());
    }
    if opts.timeout.is_zero() {
        return Err("--timeout-ms must be at least 1".into());
    }
    let vectors = vectors::read_dir(&opts.vectors).map_err(|e| format!("--vectors: {e}"))?;
    if let Some(dir) = &opts.svg_dir {
        std::fs::create_dir_all(dir).map_err(|e| format!("--svg-dir {}: {e}", dir.display()))?;
    }
    let _ = writeln!(out, "ordo conform: engine `{}`", opts.command);
    let _ = writeln!(
        out,
        "vectors: {} from {}; playouts: {} of up to {} plies, seed {}; timeout {} ms",
        vectors.len(),
        opts.vectors.display(),
        opts.playouts,
        opts.plies,
        opts.seed,
        opts.timeout.as_millis()
    );
    let engine = match External::start(&opts.command, opts.timeout) {
        Ok(e) => e,
        Err(f) => {
            let _ = writeln!(out, "\nENGINE FAILURE at the handshake — {f}");
            let _ = writeln!(
                out,
                "\nSUMMARY\n  the engine could not be driven: {} at the handshake; nothing was compared",
                f.kind()
            );
            let _ = writeln!(out, "verdict: FAIL (the engine {})", failure_words(&f));
            return Ok(false);
        }
    };
    let _ = writeln!(out, "handshake: engine name '{}'", engine.name);
    let mut run = Run {
        opts,
        engine,
        disagreements: Vec::new(),
        incidents: Vec::new(),
        compared: 0,
        aborted: None,
        unsorted: 0,
        repeated: 0,
    };
    let mut vector_results: Vec<(String, Option<bool>)> = Vec::new();
    for lv in &vectors {
        if run.aborted.is_some() {
            vector_results.push((lv.vector.id.clone(), None));
            continue;
        }
        let r = run.vector(lv);
        vector_results.push((lv.vector.id.clone(), r));
    }
    let mut playout_positions = 0;
    let mut playouts_done = 0;
    let starts = vectors::playout_starts();
    let mut rng = Rng::new(opts.seed);
    for p in 0..opts.playouts {
        if run.aborted.is_some() {
            break;
        }
        let (name, start) = &starts[rng.below(starts.len() as u64) as usize];
        let line = random_line::<Reference>(start, opts.plies, &mut rng);
        playout_positions += run.playout(p + 1, name, &line);
        playouts_done += 1;
    }
    let minimized = run.minimize_detailed();
    run.engine.quit();
    run.report(
        out,
        &vector_results,
        playouts_done,
        playout_positions,
        &minimized,
    );
    Ok(run.disagreements.is_empty() && run.incidents.is_empty() && run.aborted.is_none())
}

fn failure_words(f: &Failure) -> &'static str {
    match f {
        Failure::Crash(_) => "crashed",
        Failure::Hang(_) => "hung",
        Failure::Garbage(_) => "answered garbage",
    }
}

impl Run<'_> {
    /// Record an engine failure; stop the run when the engine cannot go on.
    fn incident(&mut self, place: &str, f: Failure) {
        self.incidents.push((place.to_string(), f));
        let h = &self.engine.health;
        if h.restarts >= MAX_RESTARTS {
            self.aborted = Some(format!(
                "the engine was restarted {} times; giving up",
                h.restarts
            ));
        } else if h.garbage >= MAX_GARBAGE {
            self.aborted = Some(format!(
                "the engine answered garbage {} times; giving up",
                h.garbage
            ));
        }
    }

    /// Make sure the engine runs (restarting it after a crash or hang); stop the run if it
    /// cannot be restarted.
    fn alive(&mut self, place: &str) -> bool {
        if self.aborted.is_some() {
            return false;
        }
        if self.engine.is_running() {
            return true;
        }
        match self.engine.ensure_running() {
            Ok(()) => true,
            Err(f) => {
                let why = format!("the engine could not be restarted ({f})");
                self.incidents.push((place.to_string(), f));
                self.aborted = Some(why);
                false
            }
        }
    }

    /// Set a position: `Ok(None)` when accepted, `Ok(Some(reply))` when the engine refused it.
    fn set_position(&mut self, pos: &Position) -> Result<Option<String>, Failure> {
        let req = format!("position {}", format_position(pos));
        let reply = self.engine.request(&req)?;
        if reply.trim() == "ok" {
            Ok(None)
        } else if reply.starts_with("error ") || reply.trim() == "error" {
            Ok(Some(reply))
        } else {
            Err(self.engine.garbage(&req, &reply, "'ok' or 'error …'"))
        }
    }

    /// Ask for the moves and the status of the engine's current position.
    fn look(&mut self) -> Result<Seen, Failure> {
        let reply = self.engine.request("moves")?;
        let Some(moves) = parse_moves_reply(&reply) else {
            return Err(self.engine.garbage("moves", &reply, "'moves …'"));
        };
        if moves.windows(2).any(|w| w[0] > w[1]) {
            self.unsorted += 1;
        }
        if moves.iter().collect::<BTreeSet<_>>().len() < moves.len() {
            self.repeated += 1;
        }
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

    /// Set `pos` and compare the engine with `expected`.
    fn probe(&mut self, pos: &Position, expected: &Expected) -> Result<Diff, Failure> {
        if let Some(refusal) = self.set_position(pos)? {
            let mut d = Diff {
                refused: Some(refusal),
                main: vec!["ORDO-2.3"],
                ..Diff::default()
            };
            d.clauses.insert("ORDO-2.3");
            return Ok(d);
        }
        let seen = self.look()?;
        Ok(analyze(pos, expected, &seen))
    }

    /// One vector: `Some(true)` passed, `Some(false)` failed, `None` not compared.
    fn vector(&mut self, lv: &Located) -> Option<bool> {
        let v = &lv.vector;
        let place = format!("vector `{}` ({} line {})", v.id, lv.file, lv.line);
        let Ok(pos) = parse_position(&v.position) else {
            self.aborted = Some(format!("{place}: the position does not read"));
            return None;
        };
        let Some(status) = v.status.to_status() else {
            self.aborted = Some(format!("{place}: the status does not read"));
            return None;
        };
        let expected = Expected {
            moves: v.moves.iter().cloned().collect(),
            status,
        };
        if !self.alive(&place) {
            return None;
        }
        match self.probe(&pos, &expected) {
            Ok(d) => {
                self.compared += 1;
                if d.is_empty() {
                    Some(true)
                } else {
                    self.disagreements.push(Disagreement {
                        place,
                        position: pos,
                        diff: d,
                        play_note: None,
                    });
                    Some(false)
                }
            }
            Err(f) => {
                self.incident(&place, f);
                Some(false)
            }
        }
    }

    /// One playout: the engine follows the reference's line with `play`; every position is
    /// compared. Returns the number of positions compared.
    fn playout(&mut self, n: u32, name: &str, line: &[(Option<Move>, Position)]) -> usize {
        let mut compared = 0;
        let mut synced = false;
        let mut prev: Option<&Position> = None;
        for (ply, (mv, pos)) in line.iter().enumerate() {
            let place = format!("playout {n} from {name}, ply {ply}");
            if !self.alive(&place) {
                break;
            }
            let Ok(reference) = Reference::from_position(pos) else {
                break;
            };
            let expected = Expected {
                moves: reference.legal_moves().iter().map(format_move).collect(),
                status: reference.status(),
            };
            let mut play_note = None;
            // Follow the line with `play` while in step; otherwise set the position.
            if let (true, Some(mv)) = (synced, mv) {
                let text = format_move(mv);
                match self.engine.request(&format!("play {text}")) {
                    Ok(r) if r.trim() == "ok" => play_note = Some(text),
                    // The engine refuses a legal move; the previous position's comparison
                    // already shows it as missing. The position is set afresh below.
                    Ok(r) if r.starts_with("error") => {}
                    Ok(r) => {
                        let f =
                            self.engine
                                .garbage(&format!("play {text}"), &r, "'ok' or 'error …'");
                        self.incident(&place, f);
                        synced = false;
                        continue;
                    }
                    Err(f) => {
                        self.incident(&place, f);
                        synced = false;
                        continue;
                    }
                }
            }
            let result = if play_note.is_some() {
                self.look().map(|seen| analyze(pos, &expected, &seen))
            } else {
                self.probe(pos, &expected)
            };
            let diff = match result {
                Ok(d) => d,
                Err(f) => {
                    self.incident(&place, f);
                    synced = false;
                    continue;
                }
            };
            compared += 1;
            self.compared += 1;
            synced = diff.refused.is_none();
            if diff.is_empty() {
                prev = Some(pos);
                continue;
            }
            // A difference right after `play`: is the engine's position the same as ours?
            let mut note = None;
            let mut diff = diff;
            if let (Some(text), Some(before)) = (&play_note, prev) {
                match self.probe(pos, &expected) {
                    Ok(fresh) if fresh.is_empty() => {
                        let clauses = parse_move(text)
                            .map(|m| judge(before, &m).clauses)
                            .unwrap_or_default();
                        diff.clauses = clauses.iter().copied().collect();
                        diff.main = diff.clauses.iter().copied().collect();
                        note = Some(format!(
                            "after 'play {text}' the engine's moves or status differ, but set with 'position' it agrees: its 'play' reached another position (clauses of the move: {})",
                            join(&clauses)
                        ));
                    }
                    Ok(fresh) => diff = fresh,
                    Err(f) => {
                        self.incident(&place, f);
                        synced = false;
                        continue;
                    }
                }
            }
            self.disagreements.push(Disagreement {
                place,
                position: pos.clone(),
                diff,
                play_note: note,
            });
            prev = Some(pos);
        }
        compared
    }

    /// Take pieces away one at a time while the position stays valid and the engine still
    /// disagrees for one of the same clauses (or in the same way, when no clause is known).
    fn minimize(&mut self, pos: &Position, diff: &Diff) -> Option<(Position, Diff)> {
        let same = |d: &Diff| {
            if d.is_empty() {
                return false;
            }
            if diff.main.is_empty() {
                (d.only_engine.is_empty() == diff.only_engine.is_empty())
                    && (d.only_reference.is_empty() == diff.only_reference.is_empty())
                    && (d.status.is_some() == diff.status.is_some())
            } else {
                d.main.iter().any(|c| diff.main.contains(c))
            }
        };
        let mut best = pos.clone();
        let mut best_diff = diff.clone();
        let mut spent = 0;
        loop {
            let mut improved = false;
            let squares: Vec<_> = best
                .dims()
                .squares()
                .filter(|&sq| best.get(sq).is_some())
                .collect();
            for sq in squares {
                if spent >= MINIMIZE_BUDGET || self.aborted.is_some() {
                    break;
                }
                let mut cand = best.clone();
                if cand.get(sq).is_none() {
                    continue;
                }
                cand.set(sq, None);
                let Ok(reference) = Reference::from_position(&cand) else {
                    continue;
                };
                let expected = Expected {
                    moves: reference.legal_moves().iter().map(format_move).collect(),
                    status: reference.status(),
                };
                spent += 1;
                if !self.alive("minimizing") {
                    break;
                }
                match self.probe(&cand, &expected) {
                    Ok(d) if same(&d) => {
                        best = cand;
                        best_diff = d;
                        improved = true;
                    }
                    Ok(_) => {}
                    Err(f) => {
                        self.incident("minimizing", f);
                        return (best != *pos).then_some((best, best_diff));
                    }
                }
            }
            if !improved || spent >= MINIMIZE_BUDGET {
                break;
            }
        }
        (best != *pos).then_some((best, best_diff))
    }

    /// Pick the disagreements to report in full and minimize each (while the engine still
    /// runs).
    fn minimize_detailed(&mut self) -> BTreeMap<usize, Option<(Position, Diff)>> {
        let detailed = pick_detailed(&self.disagreements);
        let mut out = BTreeMap::new();
        for i in detailed {
            let (pos, diff) = {
                let d = &self.disagreements[i];
                (d.position.clone(), d.diff.clone())
            };
            let m = if self.aborted.is_none() {
                self.minimize(&pos, &diff)
            } else {
                None
            };
            out.insert(i, m);
        }
        out
    }

    fn report(
        &mut self,
        out: &mut String,
        vector_results: &[(String, Option<bool>)],
        playouts: u32,
        playout_positions: usize,
        detailed: &BTreeMap<usize, Option<(Position, Diff)>>,
    ) {
        let disagreements = std::mem::take(&mut self.disagreements);
        let mut by_clause: BTreeMap<&'static str, usize> = BTreeMap::new();
        let mut also: BTreeMap<&'static str, usize> = BTreeMap::new();
        let mut readings: BTreeMap<Reading, usize> = BTreeMap::new();
        for d in &disagreements {
            for c in &d.diff.main {
                *by_clause.entry(c).or_default() += 1;
            }
            for c in d.diff.clauses.iter().filter(|c| !d.diff.main.contains(c)) {
                *also.entry(c).or_default() += 1;
            }
            for r in &d.diff.readings {
                *readings.entry(r.clone()).or_default() += 1;
            }
        }
        for (&i, minimized) in detailed {
            self.write_detailed(out, i + 1, &disagreements[i], minimized.as_ref());
        }
        if disagreements.len() > detailed.len() {
            let _ = writeln!(out, "\nFURTHER DISAGREEMENTS (one line each)");
        }
        for (i, d) in disagreements.iter().enumerate() {
            if !detailed.contains_key(&i) {
                let svg = self
                    .write_svg(i + 1, &d.position, &d.diff)
                    .map(|s| format!(" ({s})"))
                    .unwrap_or_default();
                let _ = writeln!(
                    out,
                    "  {} — {}: {} [{}]{svg}",
                    i + 1,
                    d.place,
                    one_line(&d.diff),
                    join(&d.diff.main)
                );
            }
        }
        for (place, f) in &self.incidents {
            let _ = writeln!(out, "\nENGINE FAILURE — {place}: {f}");
        }
        if let Some(why) = &self.aborted {
            let _ = writeln!(out, "\nSTOPPED — {why}");
        }
        let passed = vector_results.iter().filter(|r| r.1 == Some(true)).count();
        let failed = vector_results.iter().filter(|r| r.1 == Some(false)).count();
        let skipped = vector_results.iter().filter(|r| r.1.is_none()).count();
        let _ = writeln!(out, "\nSUMMARY");
        let _ = writeln!(
            out,
            "  vectors: {passed} passed, {failed} failed, {skipped} not compared (of {})",
            vector_results.len()
        );
        let failed_ids: Vec<&str> = vector_results
            .iter()
            .filter(|r| r.1 == Some(false))
            .map(|r| r.0.as_str())
            .collect();
        if !failed_ids.is_empty() {
            let _ = writeln!(out, "  failed vectors: {}", failed_ids.join(" "));
        }
        let _ = writeln!(
            out,
            "  playouts: {playouts} played, {playout_positions} positions compared"
        );
        let _ = writeln!(out, "  positions compared: {}", self.compared);
        let _ = writeln!(out, "  disagreements: {}", disagreements.len());
        if !by_clause.is_empty() {
            let _ = writeln!(out, "  disagreements by clause (the main clause of each):");
            let mut rows: Vec<(&&str, &usize)> = by_clause.iter().collect();
            rows.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
            for (c, k) in rows {
                let title = crate::rules::clauses::get(c)
                    .map(|cl| cl.title.as_str())
                    .unwrap_or("");
                let _ = writeln!(out, "    {c:<10} {k:>5}  {title}");
            }
        }
        if !also.is_empty() {
            let mut rows: Vec<(&&str, &usize)> = also.iter().collect();
            rows.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
            let list: Vec<String> = rows.iter().map(|(c, k)| format!("{c} ({k})")).collect();
            let _ = writeln!(out, "  other clauses involved: {}", list.join(", "));
        }
        if !readings.is_empty() {
            let _ = writeln!(out, "  known readings:");
            for (r, k) in &readings {
                let _ = writeln!(out, "    {r} ({k} position(s))");
            }
        }
        if self.unsorted + self.repeated > 0 {
            let _ = writeln!(
                out,
                "  protocol remarks: {} 'moves' replies not sorted by byte order, {} listing a move twice (compared as sets; spec/protocol.md asks for sorted, distinct moves)",
                self.unsorted, self.repeated
            );
        }
        let h = &self.engine.health;
        let _ = writeln!(
            out,
            "  engine failures: {} crash(es), {} hang(s), {} garbage answer(s), {} restart(s)",
            h.crashes, h.hangs, h.garbage, h.restarts
        );
        let clean = disagreements.is_empty() && self.incidents.is_empty() && self.aborted.is_none();
        if clean {
            let _ = writeln!(
                out,
                "verdict: PASS (no disagreement in {} positions)",
                self.compared
            );
        } else {
            let mut what = Vec::new();
            if !disagreements.is_empty() {
                what.push(format!("{} disagreement(s)", disagreements.len()));
            }
            let mut kinds: Vec<&str> = self
                .incidents
                .iter()
                .map(|(_, f)| failure_words(f))
                .collect();
            kinds.sort();
            kinds.dedup();
            if !kinds.is_empty() {
                what.push(format!("the engine {}", kinds.join(", ")));
            }
            if self.aborted.is_some() {
                what.push("the run stopped early".into());
            }
            let _ = writeln!(out, "verdict: FAIL ({})", what.join("; "));
        }
        self.disagreements = disagreements;
    }

    fn write_detailed(
        &self,
        out: &mut String,
        n: usize,
        d: &Disagreement,
        minimized: Option<&(Position, Diff)>,
    ) {
        let _ = writeln!(out, "\nDISAGREEMENT {n} — {}", d.place);
        let _ = writeln!(out, "  position: {}", format_position(&d.position));
        if let Some(note) = &d.play_note {
            let _ = writeln!(out, "  {note}");
        }
        write_diff(out, &d.diff, "  ");
        let (shown_pos, shown_diff) = match minimized {
            Some((p, md)) => {
                let _ = writeln!(
                    out,
                    "  minimized: {} ({} pieces, from {}): {}",
                    format_position(p),
                    piece_count(p),
                    piece_count(&d.position),
                    one_line(md)
                );
                (p, md)
            }
            None => {
                let _ = writeln!(
                    out,
                    "  minimized: no piece can be taken away without losing the disagreement"
                );
                (&d.position, &d.diff)
            }
        };
        let (mv, title) = diagram_move(shown_diff);
        let notes = Annotations {
            title: Some(title),
            ..Annotations::default()
        };
        let board = render::unicode(shown_pos, mv.as_ref(), &notes);
        for line in board.lines() {
            let _ = writeln!(out, "    {line}");
        }
        if let Some(note) = self.write_svg(n, shown_pos, shown_diff) {
            let _ = writeln!(out, "  {note}");
        }
    }

    /// With `--svg-dir`, draw a disagreement to `disagreement-<n>.svg` there; what happened, in
    /// words.
    fn write_svg(&self, n: usize, pos: &Position, diff: &Diff) -> Option<String> {
        let dir = self.opts.svg_dir.as_ref()?;
        let (mv, title) = diagram_move(diff);
        let notes = Annotations {
            title: Some(title),
            ..Annotations::default()
        };
        let path = dir.join(format!("disagreement-{n:03}.svg"));
        let svg = render::svg(pos, mv.as_ref(), &notes);
        Some(match render::write_atomically(&path, &svg) {
            Ok(()) => format!("svg: {}", path.display()),
            Err(e) => format!("svg: could not write {}: {e}", path.display()),
        })
    }
}

/// Which disagreements to report in full: for every clause and reading, the smallest position
/// that shows it ([`DETAILED`] at most), and at least [`MIN_DETAILED`], the earliest first.
fn pick_detailed(ds: &[Disagreement]) -> BTreeSet<usize> {
    let mut by_size: Vec<usize> = (0..ds.len()).collect();
    by_size.sort_by_key(|&i| (piece_count(&ds[i].position), i));
    let mut chosen = BTreeSet::new();
    let mut covered: BTreeSet<String> = BTreeSet::new();
    let keys = |d: &Disagreement| -> Vec<String> {
        let mut k: Vec<String> = d.diff.clauses.iter().map(|c| c.to_string()).collect();
        k.extend(d.diff.readings.iter().map(|r| r.text.to_string()));
        if d.diff.refused.is_some() {
            k.push("refused".into());
        }
        if d.play_note.is_some() {
            k.push("play".into());
        }
        if k.is_empty() {
            k.push("unattributed".into());
        }
        k
    };
    for &i in &by_size {
        if chosen.len() >= DETAILED {
            break;
        }
        let k = keys(&ds[i]);
        if k.iter().any(|x| !covered.contains(x)) {
            chosen.insert(i);
            covered.extend(k);
        }
    }
    for i in 0..ds.len() {
        if chosen.len() >= MIN_DETAILED {
            break;
        }
        chosen.insert(i);
    }
    chosen
}

fn piece_count(p: &Position) -> usize {
    p.dims().squares().filter(|&sq| p.get(sq).is_some()).count()
}

/// The move to draw for a disagreement and the diagram's caption.
fn diagram_move(d: &Diff) -> (Option<Move>, String) {
    if let Some(m) = d.only_engine.first() {
        if let Ok(mv) = parse_move(&m.text) {
            return (
                Some(mv),
                format!("only the engine lists {} [{}]", m.text, join(&m.clauses)),
            );
        }
    }
    if let Some(m) = d.only_reference.first() {
        if let Ok(mv) = parse_move(&m.text) {
            return (
                Some(mv),
                format!("the engine misses {} [{}]", m.text, join(&m.clauses)),
            );
        }
    }
    if let Some((want, got)) = d.status {
        return (None, format!("status: engine {got}, reference {want}"));
    }
    (None, "the engine refuses the position".into())
}

fn write_diff(out: &mut String, d: &Diff, indent: &str) {
    if let Some(r) = &d.refused {
        let _ = writeln!(
            out,
            "{indent}the engine refuses the position (ORDO-2.3 allows it): {}",
            shorten(r)
        );
    }
    let list = |out: &mut String, title: &str, notes: &[MoveNote]| {
        let _ = writeln!(out, "{indent}{title} ({}):", notes.len());
        for m in notes.iter().take(LISTED) {
            let clauses = if m.clauses.is_empty() {
                String::new()
            } else {
                format!(" [{}]", join(&m.clauses))
            };
            let _ = writeln!(out, "{indent}  {}{clauses} {}", m.text, m.detail);
        }
        if notes.len() > LISTED {
            let _ = writeln!(out, "{indent}  … and {} more", notes.len() - LISTED);
        }
    };
    if d.refused.is_none() {
        if !d.only_engine.is_empty() {
            list(out, "only in the engine", &d.only_engine);
        }
        if !d.only_reference.is_empty() {
            list(out, "only in the reference", &d.only_reference);
        }
        if d.only_engine.is_empty() && d.only_reference.is_empty() {
            let _ = writeln!(out, "{indent}moves: both list the same");
        }
        match d.status {
            Some((want, got)) => {
                let _ = writeln!(
                    out,
                    "{indent}status: engine says {got}, reference says {want} [{}]",
                    join(&d.status_clauses)
                );
            }
            None => {
                let _ = writeln!(out, "{indent}status: both agree");
            }
        }
    }
    let others: BTreeSet<&'static str> = d
        .clauses
        .iter()
        .copied()
        .filter(|c| !d.main.contains(c))
        .collect();
    if others.is_empty() {
        let _ = writeln!(out, "{indent}clauses: {}", join_main(&d.main));
    } else {
        let _ = writeln!(
            out,
            "{indent}clauses: {}; also involved: {}",
            join_main(&d.main),
            join_set(&others)
        );
    }
    for r in &d.readings {
        let _ = writeln!(out, "{indent}reading: {r}");
    }
}

/// One line: counts of the differences.
fn one_line(d: &Diff) -> String {
    if let Some(r) = &d.refused {
        return format!("the engine refuses the position: {}", shorten(r));
    }
    let mut parts = Vec::new();
    if !d.only_engine.is_empty() {
        let first: Vec<&str> = d
            .only_engine
            .iter()
            .take(3)
            .map(|m| m.text.as_str())
            .collect();
        parts.push(format!(
            "{} only in the engine ({}{})",
            d.only_engine.len(),
            first.join(" "),
            if d.only_engine.len() > 3 { " …" } else { "" }
        ));
    }
    if !d.only_reference.is_empty() {
        let first: Vec<&str> = d
            .only_reference
            .iter()
            .take(3)
            .map(|m| m.text.as_str())
            .collect();
        parts.push(format!(
            "{} only in the reference ({}{})",
            d.only_reference.len(),
            first.join(" "),
            if d.only_reference.len() > 3 {
                " …"
            } else {
                ""
            }
        ));
    }
    if let Some((want, got)) = d.status {
        parts.push(format!("status: engine {got}, reference {want}"));
    }
    for r in &d.readings {
        parts.push(r.to_string());
    }
    parts.join("; ")
}

fn join(v: &[&'static str]) -> String {
    v.join(", ")
}

fn join_main(v: &[&'static str]) -> String {
    if v.is_empty() {
        "none identified".into()
    } else {
        format!("{} (main)", v.join(", "))
    }
}

fn join_set(v: &BTreeSet<&'static str>) -> String {
    if v.is_empty() {
        "none identified".into()
    } else {
        v.iter().copied().collect::<Vec<_>>().join(", ")
    }
}

/// Compare what the engine said with what is expected, and explain every difference.
fn analyze(pos: &Position, expected: &Expected, seen: &Seen) -> Diff {
    let engine_set: BTreeSet<String> = seen.moves.iter().cloned().collect();
    let extra: Vec<&String> = engine_set.difference(&expected.moves).collect();
    let missing: Vec<&String> = expected.moves.difference(&engine_set).collect();
    let want_status = ReportedStatus::of(expected.status);
    let mut d = Diff::default();
    if want_status != seen.status {
        d.status = Some((want_status, seen.status));
        d.status_clauses = [want_status.clause(), seen.status.clause()]
            .into_iter()
            .flatten()
            .collect::<BTreeSet<_>>()
            .into_iter()
            .collect();
        if d.status_clauses.is_empty() {
            d.status_clauses.push("ORDO-10.5");
        }
    }
    if extra.is_empty() && missing.is_empty() && d.status.is_none() {
        return d;
    }
    let reference = Reference::from_position(pos).ok();
    let dims = pos.dims();
    // Moves the engine spells differently from the canonical spelling.
    let mut respelled: BTreeSet<String> = BTreeSet::new();
    for text in &extra {
        let note = match parse_move(text) {
            Err(e) => MoveNote {
                text: (*text).clone(),
                clauses: vec![],
                detail: format!("is not move notation: {e}"),
            },
            Ok(m)
                if !m
                    .steps()
                    .flat_map(|s| s.named_squares())
                    .all(|q| dims.contains(q)) =>
            {
                MoveNote {
                    text: (*text).clone(),
                    clauses: vec!["ORDO-1.5"],
                    detail: format!("names a square off the {dims} board"),
                }
            }
            Ok(m) => {
                let canonical = reference
                    .as_ref()
                    .and_then(|r| r.resolve(&m))
                    .map(|r| format_move(&r))
                    .filter(|c| expected.moves.contains(c));
                match canonical {
                    Some(c) => {
                        respelled.insert(c.clone());
                        MoveNote {
                            text: (*text).clone(),
                            clauses: vec![],
                            detail: format!(
                                "is a non-canonical spelling of the legal move {c} (spec/notation.md, canonical spelling)"
                            ),
                        }
                    }
                    None => {
                        let j = judge(pos, &m);
                        if j.legal {
                            MoveNote {
                                text: (*text).clone(),
                                clauses: vec![],
                                detail: "(the adjudicator finds it legal, the reference does not)"
                                    .into(),
                            }
                        } else {
                            MoveNote {
                                text: (*text).clone(),
                                clauses: dedup(j.clauses),
                                detail: format!("breaks {}", j.details.join("; ")),
                            }
                        }
                    }
                }
            }
        };
        d.only_engine.push(note);
    }
    // Clauses that permit the moves both list: a missed move is attributed to the clauses that
    // permit it but none of these.
    let agreed: Vec<Move> = expected
        .moves
        .intersection(&engine_set)
        .filter_map(|t| parse_move(t).ok())
        .collect();
    let mut agreed_clauses: BTreeSet<&'static str> = BTreeSet::new();
    let stride = (agreed.len() / AGREED_SAMPLE).max(1);
    for m in agreed.iter().step_by(stride) {
        agreed_clauses.extend(judge(pos, m).clauses);
    }
    for text in &missing {
        if respelled.contains(*text) {
            d.only_reference.push(MoveNote {
                text: (*text).clone(),
                clauses: vec![],
                detail: "(listed by the engine in another spelling)".into(),
            });
            continue;
        }
        let Ok(m) = parse_move(text) else { continue };
        let j = judge(pos, &m);
        let all = dedup(j.clauses);
        let specific: Vec<&'static str> = all
            .iter()
            .copied()
            .filter(|c| !agreed_clauses.contains(c))
            .collect();
        let (clauses, detail) = if j.legal {
            if specific.is_empty() {
                (all, "is legal".to_string())
            } else {
                (specific, "is legal".to_string())
            }
        } else {
            (
                vec![],
                "(the adjudicator finds it illegal, the reference legal)".to_string(),
            )
        };
        d.only_reference.push(MoveNote {
            text: (*text).clone(),
            clauses,
            detail,
        });
    }
    d.readings = readings(pos, expected, seen, &engine_set);
    for m in d.only_engine.iter().chain(&d.only_reference) {
        d.clauses.extend(m.clauses.iter().copied());
    }
    d.clauses.extend(d.status_clauses.iter().copied());
    d.clauses.extend(d.readings.iter().map(|r| r.clause));
    d.main = main_clauses(&d);
    d
}

/// The clauses of the known readings; or else the clauses named by the most differing moves
/// (a status difference counts as one).
fn main_clauses(d: &Diff) -> Vec<&'static str> {
    if !d.readings.is_empty() {
        let set: BTreeSet<&'static str> = d.readings.iter().map(|r| r.clause).collect();
        return set.into_iter().collect();
    }
    let mut freq: BTreeMap<&'static str, usize> = BTreeMap::new();
    for m in d.only_engine.iter().chain(&d.only_reference) {
        for c in &m.clauses {
            *freq.entry(c).or_default() += 1;
        }
    }
    for c in &d.status_clauses {
        *freq.entry(c).or_default() += 1;
    }
    let max = freq.values().copied().max().unwrap_or(0);
    freq.into_iter()
        .filter(|&(_, k)| k == max && max > 0)
        .map(|(c, _)| c)
        .collect()
}

fn dedup(v: Vec<&'static str>) -> Vec<&'static str> {
    let mut seen = BTreeSet::new();
    v.into_iter().filter(|c| seen.insert(*c)).collect()
}

/// The known alternative readings the engine's answers fit.
fn readings(
    pos: &Position,
    expected: &Expected,
    seen: &Seen,
    engine_set: &BTreeSet<String>,
) -> BTreeSet<Reading> {
    let mut out = BTreeSet::new();
    // (b) ORDO-10.3 / ORDO-10.4: a player without a legal move is not lost.
    if let Status::Won { reason, .. } = expected.status {
        if matches!(seen.status, ReportedStatus::Ongoing | ReportedStatus::Draw) {
            match reason {
                WinReason::CannotReconnect => {
                    out.insert(READING_NO_MOVE_RECONNECT);
                }
                WinReason::NoLegalMove => {
                    out.insert(READING_NO_MOVE_CONNECTED);
                }
                _ => {}
            }
        }
    }
    // (a) ORDOX-4.2: tie choices.
    let mut ties: BTreeMap<String, Vec<&String>> = BTreeMap::new();
    for t in &expected.moves {
        if let Ok(m) = parse_move(t) {
            if m.steps()
                .any(|s| matches!(s, crate::rules::Step::Single { keep: Some(_), .. }))
            {
                ties.entry(format_move(&m.without_keeps()))
                    .or_default()
                    .push(t);
            }
        }
    }
    for (stripped, variants) in &ties {
        let listed = variants.iter().filter(|v| engine_set.contains(**v)).count();
        if engine_set.contains(stripped) && listed < variants.len() {
            out.insert(READING_TIE_UNNAMED);
        } else if variants.len() > 1 && listed == 1 {
            out.insert(READING_TIE_ENGINE_PICKS);
        }
    }
    // (c) ORDO-5.2: only maximal lines are ordos.
    let Ok(reference) = Reference::from_position(pos) else {
        return out;
    };
    let sub_run = |t: &str| -> bool {
        let Ok(m) = parse_move(t) else { return false };
        if is_sub_run(pos, &m.first) {
            return true;
        }
        match m.second {
            Some(second) => {
                let mut mid = reference.apply(&Move::single(m.first)).to_position();
                mid.to_move = pos.to_move;
                is_sub_run(&mid, &second)
            }
            None => false,
        }
    };
    let missing: Vec<&String> = expected.moves.difference(engine_set).collect();
    if !missing.is_empty()
        && missing.iter().all(|t| sub_run(t))
        && !seen.moves.iter().any(|t| sub_run(t))
    {
        out.insert(READING_MAXIMAL_RUNS);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn expected(pos: &Position) -> Expected {
        let r = Reference::from_position(pos).unwrap();
        Expected {
            moves: r.legal_moves().iter().map(format_move).collect(),
            status: r.status(),
        }
    }

    fn seen(moves: &[&str], status: ReportedStatus) -> Seen {
        Seen {
            moves: moves.iter().map(|s| s.to_string()).collect(),
            status,
        }
    }

    #[test]
    fn an_engine_that_picks_one_tied_group_is_recognized() {
        let pos = parse_position("5/BB1BB/2B2/1WW2/5 w x").unwrap();
        let exp = expected(&pos);
        let mut moves: Vec<&str> = exp
            .moves
            .iter()
            .map(String::as_str)
            .filter(|m| !m.ends_with("/d4"))
            .collect();
        moves.sort();
        let d = analyze(&pos, &exp, &seen(&moves, ReportedStatus::Ongoing));
        assert!(d.readings.contains(&READING_TIE_ENGINE_PICKS), "{d:?}");
        assert_eq!(d.main, ["ORDOX-4.2"]);
    }

    #[test]
    fn a_draw_for_a_player_without_moves_is_recognized() {
        let pos = parse_position("4/W1BW/W3 w classic").unwrap();
        let exp = expected(&pos);
        let d = analyze(&pos, &exp, &seen(&[], ReportedStatus::Draw));
        assert!(d.readings.contains(&READING_NO_MOVE_RECONNECT), "{d:?}");
        assert_eq!(d.main, ["ORDO-10.3"]);
        assert!(d.only_engine.is_empty() && d.only_reference.is_empty());
    }

    #[test]
    fn a_non_canonical_spelling_is_told_apart() {
        let pos = parse_position("3B/4/4/WW2 w classic").unwrap();
        let exp = expected(&pos);
        let mut moves: Vec<String> = exp.moves.iter().cloned().collect();
        let i = moves.iter().position(|m| m == "a1:b1-a2").unwrap();
        moves[i] = "b1:a1-b2".into();
        let refs: Vec<&str> = moves.iter().map(String::as_str).collect();
        let d = analyze(&pos, &exp, &seen(&refs, ReportedStatus::Ongoing));
        assert_eq!(d.only_engine.len(), 1);
        assert!(d.only_engine[0]
            .detail
            .contains("non-canonical spelling of the legal move a1:b1-a2"));
        assert!(d.readings.is_empty());
    }

    #[test]
    fn agreement_is_an_empty_diff() {
        let pos = parse_position("3B/4/B3/WW2 w classic").unwrap();
        let exp = expected(&pos);
        let moves: Vec<&str> = exp.moves.iter().map(String::as_str).collect();
        assert!(analyze(&pos, &exp, &seen(&moves, ReportedStatus::Ongoing)).is_empty());
    }
}
