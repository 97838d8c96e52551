//! The move vocabulary: a move (one turn) is one step, or in Ordo X two steps (ORDOX-3.1).
//!
//! A step only *describes* geometry; whether it is legal is for an engine or the adjudicator to
//! decide. The notation writes and reads these values (spec/notation.md).

use serde::{Deserialize, Serialize};

use super::types::{Dims, Direction, Square};

/// One step of a turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Step {
    /// A singleton move (ORDO-6.1): the piece on `from` goes to `to`. `capture` is set when `to`
    /// holds an opponent piece (ORDO-6.3). In Ordo X, when the capture splits the opponent into
    /// several largest groups of equal size, `keep` names a square of the group that stays
    /// (ORDOX-4.2); otherwise it is `None`.
    Single {
        /// The square the piece leaves.
        from: Square,
        /// The square it arrives on (adjacent, or further along a line of empty squares).
        to: Square,
        /// Whether `to` holds an opponent piece, which the move captures (ORDO-6.3).
        capture: bool,
        /// In Ordo X, after a capture that leaves the opponent in tied largest groups: a square
        /// of the group that stays (ORDOX-4.2); else `None`.
        keep: Option<Square>,
    },
    /// An ordo move (ORDO-7.1): the pieces on the straight run from `first` to `last` all move by
    /// the displacement that takes `first` to `to`. Canonically `first` is the end with the lower
    /// row-major index (the left end of a row, the lower end of a column).
    Ordo {
        /// One end of the run (canonically the lower row-major index).
        first: Square,
        /// The other end of the run, on the same row or column as `first`.
        last: Square,
        /// Where `first` arrives; the whole run moves by the same displacement.
        to: Square,
    },
}

impl Step {
    /// The square whose piece leads the description (`from` or `first`).
    pub fn origin(&self) -> Square {
        match *self {
            Step::Single { from, .. } => from,
            Step::Ordo { first, .. } => first,
        }
    }

    /// The landing square of the leading piece.
    pub fn target(&self) -> Square {
        match *self {
            Step::Single { to, .. } | Step::Ordo { to, .. } => to,
        }
    }

    /// The column and row displacement every moved piece undergoes.
    pub fn displacement(&self) -> (i16, i16) {
        let (a, b) = (self.origin(), self.target());
        (b.col as i16 - a.col as i16, b.row as i16 - a.row as i16)
    }

    /// Direction and distance of the step, if the displacement is a non-zero straight line.
    pub fn direction(&self) -> Option<(Direction, u8)> {
        let (dc, dr) = self.displacement();
        Direction::of_displacement(dc, dr)
    }

    /// Whether this is an ordo step.
    pub fn is_ordo(&self) -> bool {
        matches!(self, Step::Ordo { .. })
    }

    /// The squares of the pieces the step moves, in order from `first` to `last`: one square for
    /// a singleton; for an ordo, every square of the run, or `None` if `first` and `last` do not
    /// lie on one row or one column.
    pub fn moved_squares(&self) -> Option<Vec<Square>> {
        match *self {
            Step::Single { from, .. } => Some(vec![from]),
            Step::Ordo { first, last, .. } => {
                if first.row == last.row {
                    let step: i16 = if last.col >= first.col { 1 } else { -1 };
                    let n = (last.col as i16 - first.col as i16).abs();
                    Some(
                        (0..=n)
                            .map(|i| Square::new((first.col as i16 + i * step) as u8, first.row))
                            .collect(),
                    )
                } else if first.col == last.col {
                    let step: i16 = if last.row >= first.row { 1 } else { -1 };
                    let n = (last.row as i16 - first.row as i16).abs();
                    Some(
                        (0..=n)
                            .map(|i| Square::new(first.col, (first.row as i16 + i * step) as u8))
                            .collect(),
                    )
                } else {
                    None
                }
            }
        }
    }

    /// The same step with an ordo's ends in canonical order (lower row-major index first, the
    /// landing square adjusted so the move is unchanged). Singletons are returned as they are.
    pub fn canonical(&self, dims: Dims) -> Step {
        match *self {
            Step::Ordo { first, last, .. } if dims.index(last) < dims.index(first) => {
                let (dc, dr) = self.displacement();
                let to_last =
                    Square::new((last.col as i16 + dc) as u8, (last.row as i16 + dr) as u8);
                Step::Ordo {
                    first: last,
                    last: first,
                    to: to_last,
                }
            }
            s => s,
        }
    }

    /// The same step with its tie choice (ORDOX-4.2) set to `keep`; ordo steps never carry one.
    pub fn with_keep(&self, keep: Option<Square>) -> Step {
        match *self {
            Step::Single {
                from, to, capture, ..
            } => Step::Single {
                from,
                to,
                capture,
                keep,
            },
            o => o,
        }
    }

    /// Every square the step names (for bounds checks).
    pub fn named_squares(&self) -> Vec<Square> {
        match *self {
            Step::Single { from, to, keep, .. } => {
                let mut v = vec![from, to];
                v.extend(keep);
                v
            }
            Step::Ordo { first, last, to } => vec![first, last, to],
        }
    }
}

/// One move = one turn (ORDOX-5.1): a single step, or in Ordo X a sideways step followed by a
/// forward step (ORDOX-3.1). There is no pass move (ORDO-3.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Move {
    /// The move's step: the only one in Ordo, the sideways step of an Ordo X double move.
    pub first: Step,
    /// In Ordo X, the forward step that follows a sideways step (ORDOX-3.1); `None` otherwise.
    pub second: Option<Step>,
}

impl Move {
    /// A one-step move.
    pub fn single(step: Step) -> Move {
        Move {
            first: step,
            second: None,
        }
    }

    /// A two-step Ordo X turn.
    pub fn double(first: Step, second: Step) -> Move {
        Move {
            first,
            second: Some(second),
        }
    }

    /// The steps in order.
    pub fn steps(&self) -> impl Iterator<Item = &Step> {
        std::iter::once(&self.first).chain(self.second.as_ref())
    }

    /// The first square the move names that lies off a `dims` board, if any (ORDO-1.5: such
    /// a move is readable but names no square of the board).
    ///
    /// ```
    /// use ordo_core::notation::parse_move;
    /// use ordo_core::rules::Dims;
    /// let mv = parse_move("h2-h3,h3-i4").unwrap();
    /// assert_eq!(mv.off_board_square(Dims::STANDARD), None);
    /// assert_eq!(mv.off_board_square(Dims::CHESS).unwrap().to_string(), "i4");
    /// ```
    pub fn off_board_square(&self, dims: Dims) -> Option<Square> {
        self.steps()
            .flat_map(|s| s.named_squares())
            .find(|&q| !dims.contains(q))
    }

    /// Whether any step captures.
    pub fn is_capture(&self) -> bool {
        self.steps()
            .any(|s| matches!(s, Step::Single { capture: true, .. }))
    }

    /// The same move without any tie choice (ORDOX-4.2): moves that differ only in the group
    /// kept compare equal this way.
    pub fn without_keeps(&self) -> Move {
        Move {
            first: self.first.with_keep(None),
            second: self.second.map(|s| s.with_keep(None)),
        }
    }

    /// The move with every ordo step in canonical order (see [`Step::canonical`]).
    pub fn canonical(&self, dims: Dims) -> Move {
        Move {
            first: self.first.canonical(dims),
            second: self.second.map(|s| s.canonical(dims)),
        }
    }
}
