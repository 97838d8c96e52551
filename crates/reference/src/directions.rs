//! Which directions a step may take, clause by clause.

use crate::rules::{Direction, Heading, Variant};

/// Which headings a step is being generated for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// A whole classic move (ORDO-8.1, ORDO-8.2, ORDO-9.2).
    Classic { split: bool },
    /// An Ordo X forward step: a one-step turn or the second step of a turn (ORDOX-3.1).
    XForward,
    /// An Ordo X sideways step that opens a two-step turn (ORDOX-3.1).
    XSideways,
}

impl Phase {
    pub fn variant(self) -> Variant {
        match self {
            Phase::Classic { .. } => Variant::Classic,
            Phase::XForward | Phase::XSideways => Variant::X,
        }
    }
}

/// Orientation of an ordo's line (ORDO-5.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Orientation {
    Horizontal,
    Vertical,
}

/// ORDO-8.1 (classic: forward, diagonally forward, sideways), ORDO-9.2 (classic, split: also
/// backward and diagonally backward), ORDOX-2.1 and ORDOX-1.2 (Ordo X: never backward), split
/// by ORDOX-3.1 into forward and sideways steps.
pub fn singleton_may_go(phase: Phase, heading: Heading) -> bool {
    use Heading::*;
    match phase {
        Phase::Classic { split } => match heading {
            Forward | DiagonalForward | Sideways => true,
            Backward | DiagonalBackward => split,
        },
        Phase::XForward => matches!(heading, Forward | DiagonalForward),
        Phase::XSideways => heading == Sideways,
    }
}

/// ORDO-8.2 (classic: a horizontal ordo moves forward, a vertical one sideways, never
/// diagonally or in single file), ORDO-9.2 (classic, split: horizontal ordos also backward),
/// ORDOX-2.2 (Ordo X: forward, diagonally forward or sideways whatever the orientation) and
/// ORDOX-1.2 (never backward).
pub fn ordo_may_go(
    phase: Phase,
    orientation: Orientation,
    dir: Direction,
    heading: Heading,
) -> bool {
    use Heading::*;
    match phase {
        Phase::Classic { split } => match orientation {
            Orientation::Horizontal => {
                dir.is_orthogonal() && (heading == Forward || (split && heading == Backward))
            }
            Orientation::Vertical => heading == Sideways,
        },
        Phase::XForward => matches!(heading, Forward | DiagonalForward),
        Phase::XSideways => heading == Sideways,
    }
}
