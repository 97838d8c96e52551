//! Problems proved by the proof search (spec/problems.md): for problems whose material no
//! table holds and whose tree is too wide for the exact depth-limited search. Each first
//! move is searched with the stipulation as the bound ("win in N": after the first move the
//! winner has 2N - 2 plies left), and each key's win is read out as a certificate that the
//! checker confirms on the reference engine, with its longest line within the stipulation.

use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use ordo_bitboard::Bitboard;
use ordo_core::notation::format_move;
use ordo_core::rules::{Color, Engine, Move};
use ordo_solve::{stipulation_turns, Method, Problem, ProblemReport, Tablebase};

use crate::{prove_within, Options, Outcome, ProveError};

/// What one first move was found to do within the stipulation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Found {
    /// It wins; the quickest win found through it, in plies from the problem's position,
    /// where every shorter bound was refuted.
    Wins(Option<u32>),
    /// It does not win within the stipulation.
    DoesNot,
    /// Not settled within the budget.
    Open,
}

/// Verify `p` by proof search: each key must win within the stipulation (its certificate
/// written into `certificates` as `ID.cert`, or `ID-K.cert` for the K-th of several keys),
/// and with `only_keys` every other first move must be refuted. `opts` bounds each search
/// (its goal is set here); `tables` serve as leaves.
pub fn verify_problem(
    p: &Problem,
    opts: &Options,
    tables: Option<&Tablebase>,
    certificates: Option<&Path>,
    stop: &AtomicBool,
) -> Result<ProblemReport, ProveError> {
    let clock = Instant::now();
    let bad = |e: String| ProveError::Position(format!("problem {}: {e}", p.id));
    let turns = stipulation_turns(&p.stipulation).map_err(|e| bad(e.to_string()))?;
    let e = Bitboard::from_position(&p.position).map_err(|e| bad(e.to_string()))?;
    let keys = resolve_keys(p, &e).map_err(bad)?;
    let plies = 2 * u32::from(turns) - 1;
    let mut v = Verdict::default();
    for (i, key) in keys.iter().enumerate() {
        let file = certificates.map(|dir| dir.join(file_name(&p.id, i, keys.len())));
        let found = first_move(&e, key, plies, opts, tables, file.as_deref(), stop, &mut v)?;
        v.record(key, found, true, turns);
        if let (Found::Wins(_), Some(f)) = (found, file.filter(|f| f.exists())) {
            v.certificates.push(f.display().to_string());
        }
    }
    if p.only_keys {
        for m in e.legal_moves().iter().filter(|m| !keys.contains(m)) {
            let found = first_move(&e, m, plies, opts, tables, None, stop, &mut v)?;
            v.record(m, found, false, turns);
        }
    }
    Ok(v.report(p, clock))
}

/// The problem's keys as legal moves.
fn resolve_keys(p: &Problem, e: &Bitboard) -> Result<Vec<Move>, String> {
    if p.keys.is_empty() {
        return Err("no key move given".into());
    }
    p.keys
        .iter()
        .map(|k| e.resolve(k).ok_or(format!("key {k} is not a legal move")))
        .collect()
}

/// The certificate file of the `i`-th of `n` keys of problem `id`.
fn file_name(id: &str, i: usize, n: usize) -> String {
    let safe: String = id
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    if n == 1 {
        format!("{safe}.cert")
    } else {
        format!("{safe}-{}.cert", i + 1)
    }
}

/// What the searches found, gathered into the report.
#[derive(Default)]
struct Verdict {
    winning: Vec<String>,
    faults: Vec<String>,
    shortest: Option<u32>,
    certificates: Vec<String>,
    nodes: u64,
    unsettled_shortest: bool,
}

impl Verdict {
    fn record(&mut self, m: &Move, found: Found, key: bool, turns: u16) {
        let name = format_move(m);
        match (found, key) {
            (Found::Wins(d), _) => {
                self.winning.push(name.clone());
                match d {
                    Some(d) => self.shortest = Some(self.shortest.map_or(d, |s| s.min(d))),
                    None => self.unsettled_shortest = true,
                }
                if !key {
                    self.faults
                        .push(format!("{name} also wins within {turns} turns (a cook)"));
                }
            }
            (Found::DoesNot, true) => self
                .faults
                .push(format!("the key {name} does not win within {turns} turns")),
            (Found::DoesNot, false) => {}
            (Found::Open, _) => self.faults.push(format!(
                "{name}: not settled within the node budget of each search"
            )),
        }
    }

    fn report(self, p: &Problem, clock: Instant) -> ProblemReport {
        // The quickest win is known when every first move that could win was searched.
        let complete = p.only_keys && !self.unsettled_shortest && self.faults.is_empty();
        ProblemReport {
            id: p.id.clone(),
            sound: self.faults.is_empty(),
            faults: self.faults,
            winning: self.winning,
            shortest: self.shortest.filter(|_| complete).map(|d| d as u16),
            method: Method::Prove,
            proof_nodes: self.nodes,
            seconds: clock.elapsed().as_secs_f64(),
            certificates: self.certificates,
            fallback: None,
        }
    }
}

/// Search the first move `m` of `e` under a stipulation of `plies` plies: the shortest
/// bound that proves its win (each shorter one refuted), or its refutation at the full
/// bound. The winning search writes its certificate to `file`.
#[allow(clippy::too_many_arguments)]
fn first_move(
    e: &Bitboard,
    m: &Move,
    plies: u32,
    opts: &Options,
    tables: Option<&Tablebase>,
    file: Option<&Path>,
    stop: &AtomicBool,
    v: &mut Verdict,
) -> Result<Found, ProveError> {
    let after = e.apply(m);
    let side = e.side_to_move();
    let mut all_refuted = true;
    // Bound 0: the first move itself ends the game.
    for left in (0..plies).step_by(2) {
        let outcome = bounded(&after, side, left, opts, tables, file, stop, v)?;
        match outcome {
            Outcome::Wins(_) => return Ok(Found::Wins(all_refuted.then_some(left + 1))),
            Outcome::CannotWin(_) => {}
            _ => all_refuted = false,
        }
    }
    Ok(if all_refuted {
        Found::DoesNot
    } else {
        Found::Open
    })
}

/// One bounded proof search: can `side` win `after` within `left` plies.
#[allow(clippy::too_many_arguments)]
fn bounded(
    after: &Bitboard,
    side: Color,
    left: u32,
    opts: &Options,
    tables: Option<&Tablebase>,
    file: Option<&Path>,
    stop: &AtomicBool,
    v: &mut Verdict,
) -> Result<Outcome, ProveError> {
    let r = prove_within(&after.to_position(), (side, left), opts, tables, file, stop)?;
    v.nodes += r.nodes;
    Ok(r.outcome)
}
