//! Single steps: enumerating ordos, walking candidate steps square by square, and applying a
//! step (capture, and in Ordo X the removal of smaller groups).

use crate::rules::{Color, Direction, Position, Square, Step, Variant};

use super::directions::{ordo_may_go, singleton_may_go, Orientation, Phase};
use super::groups::groups;

/// ORDO-5.1, ORDO-5.2: every ordo of colour `c` — every run of two or more of its pieces on
/// consecutive squares of one row or one column, sub-runs of longer runs included — as
/// (first, last, orientation) with `first` the lower square.
pub fn ordos(pos: &Position, c: Color) -> Vec<(Square, Square, Orientation)> {
    let dims = pos.dims();
    let mut out = Vec::new();
    for first in pos.pieces(c) {
        for (orientation, dc, dr) in [
            (Orientation::Horizontal, 1, 0),
            (Orientation::Vertical, 0, 1),
        ] {
            let mut last = first;
            while let Some(next) = dims.offset(last, dc, dr) {
                if pos.get(next) != Some(c) {
                    break;
                }
                last = next;
                out.push((first, last, orientation));
            }
        }
    }
    out
}

/// The square `dist` steps from `sq` in direction `dir`, if on the board.
fn walk(pos: &Position, sq: Square, dir: Direction, dist: u8) -> Option<Square> {
    pos.dims()
        .offset(sq, dir.dc * dist as i8, dir.dr * dist as i8)
}

/// ORDO-6.1, ORDO-6.3, ORDO-6.4: the singleton steps of the piece on `from` in direction `dir`:
/// over empty squares, stopping before an own piece, or on an opponent's piece, capturing it.
/// Any piece may move alone, also one standing in an ordo (ORDO-6.2). A capture is offered
/// beside the other steps, never forced (ORDO-3.4).
pub fn singleton_steps(pos: &Position, from: Square, dir: Direction) -> Vec<Step> {
    let me = pos.get(from).expect("a piece on the origin square");
    let mut out = Vec::new();
    let mut dist = 1;
    while let Some(to) = walk(pos, from, dir, dist) {
        match pos.get(to) {
            None => out.push(Step::Single {
                from,
                to,
                capture: false,
                keep: None,
            }),
            Some(c) if c != me => {
                out.push(Step::Single {
                    from,
                    to,
                    capture: true,
                    keep: None,
                });
                break;
            }
            Some(_) => break,
        }
        dist += 1;
    }
    out
}

/// ORDO-7.1, ORDO-7.2, ORDO-7.3, ORDOX-2.3: the steps of the ordo from `first` to `last` in
/// direction `dir`: every piece moves the same distance the same way; every square a piece
/// passes over or lands on must be empty — or, in Ordo X, a square of the same ordo, which
/// its piece vacates (single file). Ordos never capture, so an opponent's piece blocks.
pub fn ordo_steps(
    pos: &Position,
    variant: Variant,
    first: Square,
    last: Square,
    dir: Direction,
) -> Vec<Step> {
    let run = Step::Ordo {
        first,
        last,
        to: first,
    }
    .moved_squares()
    .expect("an ordo lies on a line");
    let mut out = Vec::new();
    let mut dist = 1;
    loop {
        let mut ok = true;
        for &p in &run {
            for k in 1..=dist {
                match walk(pos, p, dir, k) {
                    None => ok = false,
                    Some(sq) => {
                        let vacated = variant == Variant::X && run.contains(&sq);
                        if pos.get(sq).is_some() && !vacated {
                            ok = false;
                        }
                    }
                }
            }
        }
        if !ok {
            return out;
        }
        let to = walk(pos, first, dir, dist).expect("checked above");
        out.push(Step::Ordo { first, last, to });
        dist += 1;
    }
}

/// Every geometrically possible step of colour `c` for `phase`: singletons (ORDO-6.1) and
/// ordos (ORDO-7.1) in the directions the phase allows. Tie choices are not yet expanded.
pub fn candidate_steps(pos: &Position, c: Color, phase: Phase) -> Vec<Step> {
    let mut out = Vec::new();
    for from in pos.pieces(c) {
        for dir in Direction::ALL {
            if singleton_may_go(phase, dir.heading(c)) {
                out.extend(singleton_steps(pos, from, dir));
            }
        }
    }
    for (first, last, orientation) in ordos(pos, c) {
        for dir in Direction::ALL {
            if ordo_may_go(phase, orientation, dir, dir.heading(c)) {
                out.extend(ordo_steps(pos, phase.variant(), first, last, dir));
            }
        }
    }
    out
}

/// ORDOX-4.2: the tie choices a capture offers. For a capturing step in Ordo X that leaves the
/// opponent in several groups with two or more of the largest size, one step per tied group,
/// naming it by its lowest row-major square; otherwise the step itself.
pub fn with_tie_choices(pos: &Position, variant: Variant, step: Step) -> Vec<Step> {
    if let Step::Single {
        from,
        to,
        capture: true,
        ..
    } = step
    {
        if variant == Variant::X {
            let mover = pos.get(from).expect("a piece on the origin square");
            let after = move_pieces(pos, &step);
            let gs = groups(&after, mover.opponent());
            if gs.len() > 1 && gs[1].len() == gs[0].len() {
                let largest = gs[0].len();
                return gs
                    .iter()
                    .filter(|g| g.len() == largest)
                    .map(|g| Step::Single {
                        from,
                        to,
                        capture: true,
                        keep: Some(g[0]),
                    })
                    .collect();
            }
        }
    }
    vec![step]
}

/// ORDO-6.4, ORDO-7.1: move the pieces of a step (capturing what stands on a singleton's
/// landing square), without any removal.
fn move_pieces(pos: &Position, step: &Step) -> Position {
    let mut next = pos.clone();
    let (dc, dr) = step.displacement();
    let moved = step.moved_squares().unwrap_or_default();
    let colour = moved.first().and_then(|&s| pos.get(s));
    for &sq in &moved {
        next.set(sq, None);
    }
    for &sq in &moved {
        if let Some(to) = pos.dims().offset(sq, dc as i8, dr as i8) {
            next.set(to, colour);
        }
    }
    next
}

/// Apply one step: move the pieces, capture (ORDO-6.4); in Ordo X, after a capture that leaves
/// the opponent split, remove every opponent piece outside the largest group, or outside the
/// tied group the capturer keeps (ORDOX-4.1, ORDOX-4.2). In classic Ordo nothing else is
/// removed (ORDO-9.3). Does not change the side to move.
pub fn apply_step(pos: &Position, variant: Variant, step: &Step) -> Position {
    let mover = pos.get(step.origin());
    let mut next = move_pieces(pos, step);
    if let (
        Step::Single {
            capture: true,
            keep,
            ..
        },
        Some(mover),
        Variant::X,
    ) = (*step, mover, variant)
    {
        let gs = groups(&next, mover.opponent());
        if gs.len() > 1 {
            let largest = gs[0].len();
            let kept = keep
                .and_then(|k| gs.iter().position(|g| g.len() == largest && g.contains(&k)))
                .unwrap_or(0);
            for (i, g) in gs.iter().enumerate() {
                if i != kept {
                    for &sq in g {
                        next.set(sq, None);
                    }
                }
            }
        }
    }
    next
}
