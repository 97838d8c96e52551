//! The proof search against the endgame tables: random positions the tables hold, each
//! proved without the tables, unbounded (who wins) and bounded by the tables' distance (a
//! win within the distance is proved, a win two plies sooner refuted). The tables are exact,
//! so any difference is a fault of the search, its bounds or its certificates.
//!
//! `cargo run --release --example prove-against-tables -- DIR …` runs it on a folder of
//! tables (analysis/run.sh --prove-tables publishes the 10 x 8 figures).

use std::sync::atomic::AtomicBool;

use ordo_prove::{prove, Goal, Options, Outcome};
use ordo_solve::{Material, Tablebase, Value};

use crate::rules::{Color, Dims, Position, Rng, Square, Variant};

/// A random valid position of `dims` with 1 to `max` pieces a side, which the tables value
/// and which is not over.
pub fn random_position(
    rng: &mut Rng,
    variant: Variant,
    dims: Dims,
    max: Material,
    tb: &Tablebase,
) -> Position {
    loop {
        let to_move = [Color::White, Color::Black][rng.below(2) as usize];
        let mut pos = Position::empty(dims, to_move, variant);
        let counts = [
            1 + rng.below(u64::from(max.white)),
            1 + rng.below(u64::from(max.black)),
        ];
        for (c, n) in [Color::White, Color::Black].into_iter().zip(counts) {
            for _ in 0..n {
                let i = rng.below(dims.len() as u64) as usize;
                let cols = dims.cols as usize;
                pos.set(Square::new((i % cols) as u8, (i / cols) as u8), Some(c));
            }
        }
        if pos.validate().is_ok() && matches!(tb.value(&pos), Ok(v) if v != Value::Loss(0)) {
            return pos;
        }
    }
}

/// What a cross-check found.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Tally {
    /// Positions tried.
    pub samples: u64,
    /// Of them, proved (win or draw) by the unbounded search, each as the tables say.
    pub proved: u64,
    /// Only refuted for one side (a draw or a loss not completed).
    pub one_side: u64,
    /// Not settled within the budget.
    pub open: u64,
    /// Bounded searches (win within the tables' distance, and within two plies less) that
    /// came out as the tables say.
    pub bounded: u64,
    /// Bounded searches left open by the budget.
    pub bounded_open: u64,
    /// Nodes of every search.
    pub nodes: u64,
    /// Every difference from the tables, one line each (none expected).
    pub differences: Vec<String>,
}

/// The side that wins `pos` by the tables' value, and in how many plies.
fn winner(pos: &Position, v: Value) -> Option<(Color, u32)> {
    match v {
        Value::Win(d) => Some((pos.to_move, u32::from(d))),
        Value::Loss(d) => Some((pos.to_move.opponent(), u32::from(d))),
        Value::Draw => None,
    }
}

/// Prove `pos` with `opts` and the goal `goal`; the outcome, the proof's longest line and
/// the nodes.
fn run(pos: &Position, opts: &Options, goal: Goal) -> (Outcome, Option<u32>, u64) {
    let opts = Options {
        goal,
        ..opts.clone()
    };
    let stop = AtomicBool::new(false);
    let r = prove(pos, &opts, None, None, &stop, &mut |_| {}).expect("a valid position");
    let longest = r.parts.first().and_then(|p| p.1.longest);
    (r.outcome, longest, r.nodes)
}

/// Cross-check `samples` random positions of the tables `tb` (their game and board, up to
/// `max` pieces a side) that are draws or wins of at least `min_plies` plies (random
/// positions are mostly won at once), from the generator seeded with `seed`; `opts` bounds
/// each search.
pub fn cross_check(
    tb: &Tablebase,
    (variant, dims, max): (Variant, Dims, Material),
    (samples, min_plies): (u64, u32),
    seed: u64,
    opts: &Options,
) -> Tally {
    let mut rng = Rng::new(seed);
    let mut t = Tally::default();
    while t.samples < samples {
        let pos = random_position(&mut rng, variant, dims, max, tb);
        let v = tb.value(&pos).expect("a position the tables hold");
        if winner(&pos, v).is_some_and(|(_, d)| d < min_plies) {
            continue;
        }
        t.samples += 1;
        unbounded(&pos, v, opts, &mut t);
        if let Some((side, d)) = winner(&pos, v) {
            bounded(&pos, side, d, opts, &mut t);
        }
    }
    t
}

/// The unbounded search: its outcome is the tables', and a win's proof is no shorter than
/// the tables' distance (no forced win is quicker than the quickest).
fn unbounded(pos: &Position, v: Value, opts: &Options, t: &mut Tally) {
    let (got, longest, nodes) = run(pos, opts, Goal::Value);
    t.nodes += nodes;
    let want = match winner(pos, v) {
        Some((c, _)) => Outcome::Wins(c),
        None => Outcome::Draw,
    };
    match got {
        Outcome::NotProved => t.open += 1,
        Outcome::CannotWin(c) if want != Outcome::Wins(c) => t.one_side += 1,
        _ if got != want => t
            .differences
            .push(format!("{pos}: proved {got:?}, tables {v:?}")),
        _ => t.proved += 1,
    }
    if let (Some((_, d)), Some(l)) = (winner(pos, v), longest) {
        if l < d {
            t.differences.push(format!(
                "{pos}: a proof of {l} plies, the tables' quickest win is {d}"
            ));
        }
    }
}

/// The bounded searches: a win within `d` plies (the tables' distance) is proved, and one
/// within `d - 2` refuted.
fn bounded(pos: &Position, side: Color, d: u32, opts: &Options, t: &mut Tally) {
    let mut cases = vec![(d, true)];
    if d >= 2 {
        cases.push((d - 2, false));
    }
    for (plies, wins) in cases {
        let (got, longest, nodes) = run(pos, opts, Goal::WinWithin { side, plies });
        t.nodes += nodes;
        match (got, wins) {
            (Outcome::NotProved, _) => t.bounded_open += 1,
            (Outcome::Wins(_), true) if longest.is_some_and(|l| l <= plies) => t.bounded += 1,
            (Outcome::CannotWin(_), false) => t.bounded += 1,
            _ => t.differences.push(format!(
                "{pos}: {side:?} within {plies} plies: {got:?} (longest {longest:?}), tables {d}"
            )),
        }
    }
}
