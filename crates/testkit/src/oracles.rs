//! The oracles of the coverage-guided targets (`fuzz/`) over the cases of [`crate::input`]:
//! the targets only build a case from their bytes and call one of these.
//!
//! On a small board a case is checked in full (every legal move, every successor); on a big
//! board the fast engine's whole move list is taken and a few moves are sampled from it, so
//! that the reference engine never generates an Ordo X move list there (~10 ms each).

use std::collections::HashSet;

use crate::adjudicate::{adjudicate, candidate_moves_sampled, Verdict};
use crate::input::Case;
use crate::notation::{sorted_moves, sorted_notation};
use crate::rules::{Engine, Move, Position, Variant};
use ordo_conformance::diff;
use ordo_conformance::diff::{
    check_apply_picked, compare_position, compare_successors, diverge, load_both, same_position,
    Divergence,
};

/// Most candidate moves the adjudicator judges in one case, and most two-step candidates
/// generated to draw them from (Ordo X): on a small board, then on a big one.
pub const CANDIDATES: [usize; 2] = [16, 8];
const TWO_STEPS: [usize; 2] = [16, 4];
/// Legal moves of the engine the adjudicator judges in one case.
const LEGAL_PICKS: usize = 2;

/// The differential oracle (engine `A`, the reference, against `B`): [`compare_position`] on a
/// small board when the reference's move list is cheap ([`Case::is_cheap`]), else
/// [`compare_sampled`]. Returns the moves compared.
pub fn check_case<A: Engine, B: Engine>(case: &Case) -> Result<usize, Divergence> {
    if case.is_small() && case.is_cheap() {
        compare_position::<A, B>(&case.position)
    } else {
        compare_sampled::<A, B>(&case.position, &case.picks, case.is_cheap())
    }
}

/// Both engines accept or refuse the position alike and hold it alike; for each move `picks`
/// choose among `B`'s legal moves, `A`'s successor equals `B`'s. With `lists` the status and
/// the whole move lists are compared too, as in [`compare_position`].
pub fn compare_sampled<A: Engine, B: Engine>(
    pos: &Position,
    picks: &[u16],
    lists: bool,
) -> Result<usize, Divergence> {
    let Some((a, b)) = load_both::<A, B>(pos)? else {
        return Ok(0);
    };
    let moves = if lists {
        diff::compare_outline(&a, &b)?.1
    } else {
        same_position(&a, &b)?;
        b.legal_moves()
    };
    if moves.is_empty() {
        return Ok(0);
    }
    for &p in picks {
        let m = diff::picked(&moves, p);
        compare_successors(&a, &b, m, m)?;
    }
    Ok(picks.len())
}

/// The apply oracle ([`ordo_conformance::diff::check_apply_rebuild`]) for engine `E` on the first `picks` moves
/// the case's picks choose (one on a big Ordo X board, where each check generates five move
/// lists of some two thousand moves).
pub fn check_apply_case<E: Engine>(case: &Case, picks: usize) -> Result<usize, Divergence> {
    let big_x = !case.is_small() && case.position.variant == Variant::X;
    let n = if big_x {
        1
    } else {
        picks.min(case.picks.len())
    };
    check_apply_picked::<E>(&case.position, &case.picks[..n])
}

/// The adjudicator oracle: candidate moves (legal and illegal, drawn from the adjudicator's
/// own candidate space, at most [`CANDIDATES`]) and legal moves of `B` are judged legal by the
/// adjudicator exactly when `B` can resolve them, and a legal verdict's resulting position is
/// `B`'s successor and `A`'s; the adjudicator's status equals `B`'s. Both engines accept or refuse the
/// position alike (ORDO-2.3). When its move list is cheap
/// ([`Case::is_cheap`]) `A` (the reference) must also have the same legal moves as `B`.
/// Returns the number of moves judged.
pub fn check_adjudicate_case<A: Engine, B: Engine>(case: &Case) -> Result<usize, Divergence> {
    let pos = &case.position;
    let Some((a, b)) = load_both::<A, B>(pos)? else {
        return Ok(0);
    };
    let legal = b.legal_moves();
    if case.is_cheap() {
        let (la, lb) = (sorted_moves(&a), sorted_notation(&legal));
        if la != lb {
            return Err(diff::lists_differ::<A, B>(pos, &la, &lb));
        }
    }
    let status = crate::adjudicate::status(pos);
    if status != b.status() {
        let what = format!(
            "status: adjudicator says {status}, {} says {}",
            B::NAME,
            b.status()
        );
        return Err(diverge(pos, None, what));
    }
    // The engine's moves are canonical (spec/notation.md): a set of values, no notation.
    let canonical: HashSet<Move> = legal.iter().copied().collect();
    let moves = judged_moves(case, &legal);
    for m in &moves {
        judge_one(&a, &b, &canonical, m)?;
    }
    Ok(moves.len())
}

/// The moves the adjudicator judges: up to [`LEGAL_PICKS`] legal moves of the engine, then up to
/// [`CANDIDATES`] candidates spread evenly over the candidate space from an offset the picks
/// give (all of them when there are fewer).
fn judged_moves(case: &Case, legal: &[Move]) -> Vec<Move> {
    let seed = case.picks.iter().fold(0u64, |h, &p| h << 16 | p as u64);
    let mut out: Vec<Move> = Vec::new();
    if !legal.is_empty() {
        let picks = case.picks.iter().take(LEGAL_PICKS);
        out.extend(picks.map(|&p| *diff::picked(legal, p)));
    }
    let size = usize::from(!case.is_small());
    let (most, two_steps) = (CANDIDATES[size], TWO_STEPS[size]);
    let cands = candidate_moves_sampled(&case.position, two_steps, seed);
    let n = cands.len();
    if n <= most {
        out.extend(cands);
    } else {
        let offset = seed as usize % n;
        out.extend((0..most).map(|i| cands[(offset + i * n / most) % n]));
    }
    out
}

/// One move judged by the adjudicator against engine `b` (whose legal moves are `legal`); the
/// position after a legal move is also compared with `a`'s successor (cheap in any engine).
fn judge_one<A: Engine, B: Engine>(
    a: &A,
    b: &B,
    legal: &HashSet<Move>,
    m: &Move,
) -> Result<(), Divergence> {
    let pos = b.to_position();
    let verdict = adjudicate(&pos, m);
    let canonical = m.canonical(pos.dims());
    let has_keep = m.without_keeps() != *m;
    let resolved = if legal.contains(&canonical) {
        Some(canonical)
    } else if has_keep {
        b.resolve(m)
    } else {
        None
    };
    let disagree = |what: String| Err(diverge(&pos, Some(*m), what));
    match (&verdict, resolved) {
        (Verdict::Legal { .. }, None) => disagree(format!(
            "the adjudicator finds the move legal, {} does not",
            B::NAME
        )),
        (Verdict::Illegal { violations }, Some(_)) => disagree(format!(
            "{} finds the move legal, the adjudicator does not: {:?}",
            B::NAME,
            violations.iter().map(|v| v.clause).collect::<Vec<_>>()
        )),
        (Verdict::Legal { effects, .. }, Some(r))
            if effects.result != b.apply(&r).to_position() =>
        {
            disagree(format!(
                "after the move the adjudicator has {}, {} has {}",
                crate::notation::format_position(&effects.result),
                B::NAME,
                crate::notation::format_position(&b.apply(&r).to_position())
            ))
        }
        (Verdict::Legal { effects, .. }, Some(r))
            if effects.result != a.apply(&r).to_position() =>
        {
            disagree(format!(
                "after the move the adjudicator has {}, {} has {}",
                crate::notation::format_position(&effects.result),
                A::NAME,
                crate::notation::format_position(&a.apply(&r).to_position())
            ))
        }
        _ => Ok(()),
    }
}
