//! A broad space of candidate moves, legal and illegal alike, for testing the adjudicator
//! against the engines. It follows the geometry only: every direction, every distance, every
//! line of own pieces, every kept group; the rules are left to [`super::adjudicate`].

use std::collections::hash_map::DefaultHasher;
use std::collections::HashSet;
use std::hash::{Hash, Hasher};

use crate::rules::{Direction, Heading, Move, Position, Rng, Square, Step, Variant};

use super::groups::groups;
use super::step::{check_step, Ctx, Role};

/// Every candidate step of the side to move:
///
/// - every own piece in all eight directions at every distance up to the board's edge, as a
///   singleton written with `x` exactly when the landing square holds an opponent piece; when
///   that capture would leave the opponent in more than one group, also one candidate per
///   opponent group kept (named by its lowest square; all groups, not only the largest);
/// - every ordo run (two own squares on one row or column with only own pieces between them,
///   in canonical order) in all eight directions at every distance that keeps its first piece
///   on the board.
pub fn candidate_steps(pos: &Position) -> Vec<Step> {
    let dims = pos.dims();
    let me = pos.to_move;
    let opp = me.opponent();
    let mine = pos.pieces(me);
    let mut out = Vec::new();
    for &from in &mine {
        for dir in Direction::ALL {
            let mut k = 1i8;
            while let Some(to) = dims.offset(from, dir.dc * k, dir.dr * k) {
                let capture = pos.get(to) == Some(opp);
                let plain = Step::Single {
                    from,
                    to,
                    capture,
                    keep: None,
                };
                out.push(plain);
                if capture {
                    let mut after = pos.clone();
                    after.set(from, None);
                    after.set(to, Some(me));
                    let gs = groups(&after, opp);
                    if gs.len() > 1 {
                        for g in &gs {
                            out.push(Step::Single {
                                from,
                                to,
                                capture,
                                keep: Some(g[0]),
                            });
                        }
                    }
                }
                k += 1;
            }
        }
    }
    for &first in &mine {
        for (lc, lr) in [(1i8, 0i8), (0, 1)] {
            let mut last = first;
            while let Some(next) = dims.offset(last, lc, lr) {
                if pos.get(next) != Some(me) {
                    break;
                }
                last = next;
                for dir in Direction::ALL {
                    let mut k = 1i8;
                    while let Some(to) = dims.offset(first, dir.dc * k, dir.dr * k) {
                        out.push(Step::Ordo { first, last, to });
                        k += 1;
                    }
                }
            }
        }
    }
    out
}

/// The position after `step` as far as its geometry allows, whatever rules it breaks; `None`
/// when it cannot be carried out (pieces off the board or on one square).
fn after_step(pos: &Position, step: &Step) -> Option<Position> {
    let ctx = Ctx::of(pos);
    check_step(pos, step, &ctx, Role::XFirst)
        .outcome
        .map(|o| o.after)
}

fn heading(step: &Step, pos: &Position) -> Option<Heading> {
    step.direction().map(|(d, _)| d.heading(pos.to_move))
}

/// The whole candidate space: every candidate step as a one-step move and, in Ordo X, every
/// two-step combination (any candidate step, then any candidate step on the board after it).
/// On large boards the Ordo X space has millions of moves; see [`candidate_moves_limited`].
pub fn candidate_moves(pos: &Position) -> Vec<Move> {
    candidate_moves_limited(pos, usize::MAX)
}

/// Like [`candidate_moves`] with at most `max_two_step` two-step moves. When the full two-step
/// space is larger, a deterministic sample (seeded by the position) is taken instead: half of
/// it sideways steps followed by forward or diagonally forward steps, half any step followed by
/// any step.
pub fn candidate_moves_limited(pos: &Position, max_two_step: usize) -> Vec<Move> {
    let mut h = DefaultHasher::new();
    pos.hash(&mut h);
    candidate_moves_sampled(pos, max_two_step, h.finish())
}

/// Like [`candidate_moves_limited`] with an explicit seed for the sample.
pub fn candidate_moves_sampled(pos: &Position, max_two_step: usize, seed: u64) -> Vec<Move> {
    let firsts = candidate_steps(pos);
    let mut out: Vec<Move> = firsts.iter().copied().map(Move::single).collect();
    if pos.variant != Variant::X || max_two_step == 0 {
        return out;
    }
    match all_two_step(pos, &firsts, max_two_step) {
        Some(twos) => out.extend(twos),
        None => out.extend(sampled_two_step(pos, &firsts, max_two_step, seed)),
    }
    out
}

/// Every candidate two-step move starting with one of `firsts`, or `None` if there are more
/// than `max_two_step`.
fn all_two_step(pos: &Position, firsts: &[Step], max_two_step: usize) -> Option<Vec<Move>> {
    let mut twos = Vec::new();
    for f in firsts {
        if let Some(after) = after_step(pos, f) {
            for s in candidate_steps(&after) {
                twos.push(Move::double(*f, s));
            }
            if twos.len() > max_two_step {
                return None;
            }
        }
    }
    Some(twos)
}

/// At most `max_two_step` distinct two-step moves drawn from `seed`: first steps drawn in
/// turn from the sideways ones (structured) and from all of `firsts`, eight second steps
/// drawn after each.
fn sampled_two_step(pos: &Position, firsts: &[Step], max_two_step: usize, seed: u64) -> Vec<Move> {
    let mut rng = Rng::new(seed);
    let sideways: Vec<Step> = firsts
        .iter()
        .copied()
        .filter(|s| heading(s, pos) == Some(Heading::Sideways))
        .collect();
    let per_first = 8usize;
    let n_firsts = max_two_step.div_ceil(per_first).max(1);
    let mut seen: HashSet<Move> = HashSet::new();
    let mut twos = Vec::new();
    for i in 0..n_firsts {
        if twos.len() >= max_two_step {
            break;
        }
        let structured = i % 2 == 0 && !sideways.is_empty();
        let f = if structured {
            sideways[rng.below(sideways.len() as u64) as usize]
        } else {
            firsts[rng.below(firsts.len() as u64) as usize]
        };
        let Some(after) = after_step(pos, &f) else {
            continue;
        };
        let seconds = candidate_steps(&after);
        let forward: Vec<Step> = seconds
            .iter()
            .copied()
            .filter(|s| {
                matches!(
                    heading(s, &after),
                    Some(Heading::Forward | Heading::DiagonalForward)
                )
            })
            .collect();
        for j in 0..per_first {
            let pool = if structured && j % 4 != 3 && !forward.is_empty() {
                &forward
            } else {
                &seconds
            };
            if pool.is_empty() || twos.len() >= max_two_step {
                break;
            }
            let m = Move::double(f, pool[rng.below(pool.len() as u64) as usize]);
            if seen.insert(m) {
                twos.push(m);
            }
        }
    }
    twos
}

/// The opponent's groups (largest first, each in row-major order) right after the capture
/// `step` of the side to move, before any removal; `None` unless `step` is a singleton written
/// as a capture whose landing square holds an opponent piece. For tests that name a kept group
/// (ORDOX-4.2) by each of its squares, and for the dispute page, which draws these groups.
pub fn groups_after_capture(pos: &Position, step: &Step) -> Option<Vec<Vec<Square>>> {
    let Step::Single {
        from,
        to,
        capture: true,
        ..
    } = *step
    else {
        return None;
    };
    let dims = pos.dims();
    if !dims.contains(from) || !dims.contains(to) || pos.get(to) != Some(pos.to_move.opponent()) {
        return None;
    }
    let mut after = pos.clone();
    after.set(from, None);
    after.set(to, Some(pos.to_move));
    Some(groups(&after, pos.to_move.opponent()))
}
