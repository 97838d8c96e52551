//! Checks of a solved table that do not trust the solver.
//!
//! - [`verify`]: every stored value is recomputed from its successors' stored values,
//!   generated afresh through [`Engine::legal_moves`] and [`Engine::apply`] (not the solver's
//!   [`Engine::successors`] path), and must match. Together with the game-over positions being
//!   losses in 0, this local consistency proves the whole table: the distances are a ranking
//!   that certifies each win and loss, and a draw that hid a win would see a lost successor.
//! - [`bounded`]: a plain depth-limited minimax, the independent second route used by the
//!   tests (on the reference engine) for sampled positions of small boards.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

use rayon::prelude::*;

use super::analysis::{Graph, Target, NO_POSITION};
use super::space::{Space, SpaceGraph};
use crate::notation::format_position;
use crate::rules::Engine;
use crate::solve::Value;
use crate::solve::{SolveError, Verification};

/// Recompute every value of `values` (indexed by `space`) from its successors through `E`.
pub fn verify<E: Engine>(
    space: &Space,
    values: &[u16],
    progress: &dyn crate::solve::Progress,
) -> Result<Verification, SolveError> {
    verify_graph(&SpaceGraph::<E>::new(space), values, progress)
}

/// Recompute every value of `values` (one per index of `graph`) from its successors' values:
/// stored ones inside the graph, known ones outside it.
pub fn verify_graph<G: Graph>(
    graph: &G,
    values: &[u16],
    progress: &dyn crate::solve::Progress,
) -> Result<Verification, SolveError> {
    if values.len() != graph.len() {
        return Err(SolveError::Corrupt(format!(
            "{} values for {} indices",
            values.len(),
            graph.len()
        )));
    }
    let checked = AtomicU64::new(0);
    let ticker = crate::solve::Ticker::new(
        progress,
        crate::solve::Phase::VERIFYING,
        Some(graph.len() as u64),
    );
    let mismatches = AtomicU64::new(0);
    let examples = Mutex::new(Vec::new());
    let note = |text: String| {
        mismatches.fetch_add(1, Ordering::Relaxed);
        let mut ex = examples.lock().unwrap_or_else(|p| p.into_inner());
        if ex.len() < 5 {
            ex.push(text);
        }
    };
    (0..graph.len())
        .into_par_iter()
        .try_for_each(|i| -> Result<(), SolveError> {
            ticker.tick();
            let Some(e) = graph.load(i)? else {
                if values[i] != NO_POSITION {
                    note(format!("index {i} names no position but holds a value"));
                }
                return Ok(());
            };
            let mut succ = Vec::new();
            for m in e.legal_moves() {
                succ.push(match graph.locate(&e.apply(&m))? {
                    Target::Inside(j) => Value::from_code(values[j as usize]),
                    Target::Known(v) => v,
                });
            }
            let want = Value::from_successors(succ);
            let have = Value::from_code(values[i]);
            if want != have || values[i] == NO_POSITION {
                note(format!(
                    "{}: stored {have}, successors give {want}",
                    format_position(&e.to_position())
                ));
            }
            checked.fetch_add(1, Ordering::Relaxed);
            Ok(())
        })?;
    let mut examples = examples.into_inner().unwrap_or_else(|p| p.into_inner());
    examples.sort();
    Ok(Verification {
        checked: checked.into_inner(),
        mismatches: mismatches.into_inner(),
        examples,
    })
}

/// The exact value of `e` if the game is decided within `depth` plies at best play, `None`
/// if it is not (a draw, or a longer win or loss). Plain minimax, no table, no pruning.
pub fn bounded<E: Engine>(e: &E, depth: u16) -> Option<Value> {
    let moves = e.legal_moves();
    if moves.is_empty() {
        return Some(Value::Loss(0));
    }
    if depth == 0 {
        return None;
    }
    let mut quickest_win: Option<u16> = None;
    let mut slowest_loss: u16 = 0;
    let mut unknown = false;
    for m in &moves {
        match bounded(&e.apply(m), depth - 1) {
            Some(Value::Loss(d)) => {
                quickest_win = Some(quickest_win.map_or(d + 1, |w| w.min(d + 1)))
            }
            Some(Value::Win(d)) => slowest_loss = slowest_loss.max(d + 1),
            Some(Value::Draw) | None => unknown = true,
        }
    }
    match quickest_win {
        Some(w) => Some(Value::Win(w)),
        None if unknown => None,
        None => Some(Value::Loss(slowest_loss)),
    }
}

/// What [`bounded`] must say about a position whose table value is `v`.
pub fn bounded_expectation(v: Value, depth: u16) -> Option<Value> {
    match v.distance() {
        Some(d) if d <= depth => Some(v),
        _ => None,
    }
}
