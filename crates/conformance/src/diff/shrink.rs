//! The one position minimizer: take pieces away one at a time while a finding still holds.
//! `ordo fuzz` shrinks divergences between the engines with it, `ordo conform` shrinks
//! disagreements with an outside engine.

use crate::rules::Position;

/// Shrink `start`: remove pieces one at a time, keeping each removal after which the position
/// is still valid (ORDO-2.3) and `still` finds the same fault again (returning what it found),
/// until no single removal keeps it or `budget` calls of `still` are spent. Returns the
/// smallest position found and its finding.
pub fn shrink<T>(
    start: (Position, T),
    budget: usize,
    mut still: impl FnMut(&Position) -> Option<T>,
) -> (Position, T) {
    let mut best = start;
    let mut spent = 0;
    loop {
        let mut improved = false;
        for sq in best.0.dims().squares() {
            if spent >= budget {
                return best;
            }
            if best.0.get(sq).is_none() {
                continue;
            }
            let mut p = best.0.clone();
            p.set(sq, None);
            if p.validate().is_err() {
                continue;
            }
            spent += 1;
            if let Some(found) = still(&p) {
                best = (p, found);
                improved = true;
                break;
            }
        }
        if !improved {
            return best;
        }
    }
}
