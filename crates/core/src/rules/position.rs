//! The plain position description every engine loads from and exports to: a grid of squares,
//! the side to move and the variant (ORDO-2.3). It knows geometry only, no rules of movement.

use serde::{Deserialize, Serialize};

use super::types::{Color, Dims, DimsError, Square, Variant};

/// A position: board dimensions, what stands on each square, side to move, variant.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Position {
    dims: Dims,
    cells: Vec<Option<Color>>,
    /// The player whose turn it is.
    pub to_move: Color,
    /// The game being played.
    pub variant: Variant,
}

/// Why a position cannot be set up (ORDO-2.3).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    /// The board's dimensions are outside the limits (ORDO-1.5).
    #[error(transparent)]
    Dims(#[from] DimsError),
    /// The side that just moved (named here) has no piece left: the game ended before.
    #[error(
        "{0} is not to move but has no piece: the game ended when its last piece was captured (ORDO-2.3)"
    )]
    LastMoverHasNoPieces(Color),
    /// The side to move already stands on its opponent's home row: the game ended before.
    #[error(
        "{color} is to move but already has a piece on {square}, its opponent's home row: the game ended when it arrived (ORDO-2.3)"
    )]
    SideToMoveOnHomeRow {
        /// The side to move.
        color: Color,
        /// Its piece on the opponent's home row (the first one found).
        square: Square,
    },
}

impl Position {
    /// An empty board.
    pub fn empty(dims: Dims, to_move: Color, variant: Variant) -> Position {
        Position {
            dims,
            cells: vec![None; dims.len()],
            to_move,
            variant,
        }
    }

    /// Board dimensions.
    pub fn dims(&self) -> Dims {
        self.dims
    }

    /// What stands on `sq` (`None` when empty). Panics if `sq` is off the board.
    pub fn get(&self, sq: Square) -> Option<Color> {
        self.cells[self.dims.index(sq)]
    }

    /// Put a piece on `sq` or empty it. Panics if `sq` is off the board.
    pub fn set(&mut self, sq: Square, piece: Option<Color>) {
        let i = self.dims.index(sq);
        self.cells[i] = piece;
    }

    /// Squares holding a piece of colour `c`, in row-major order from a1.
    pub fn pieces(&self, c: Color) -> Vec<Square> {
        self.dims
            .squares()
            .filter(|&sq| self.get(sq) == Some(c))
            .collect()
    }

    /// Number of pieces of colour `c`.
    pub fn count(&self, c: Color) -> usize {
        self.cells.iter().filter(|&&p| p == Some(c)).count()
    }

    /// Check that the position can be set up (ORDO-1.5, ORDO-2.3): the board is within limits,
    /// the player who moved last still has a piece, and the side to move has no piece on its
    /// opponent's home row. Both excluded cases describe games that already ended.
    pub fn validate(&self) -> Result<(), PositionError> {
        Dims::new(self.dims.cols as usize, self.dims.rows as usize)?;
        let last = self.to_move.opponent();
        if self.count(last) == 0 {
            return Err(PositionError::LastMoverHasNoPieces(last));
        }
        let target_row = last.home_row(self.dims);
        if let Some(square) = self
            .pieces(self.to_move)
            .into_iter()
            .find(|sq| sq.row == target_row)
        {
            return Err(PositionError::SideToMoveOnHomeRow {
                color: self.to_move,
                square,
            });
        }
        Ok(())
    }

    /// The left-right mirror image (column a <-> last column); same side to move.
    pub fn mirrored(&self) -> Position {
        let mut out = Position::empty(self.dims, self.to_move, self.variant);
        for sq in self.dims.squares() {
            out.set(mirror_square(self.dims, sq), self.get(sq));
        }
        out
    }

    /// The board turned 180 degrees with the colours swapped, and the other side to move: the
    /// same game seen from the other chair.
    pub fn colour_flipped(&self) -> Position {
        let mut out = Position::empty(self.dims, self.to_move.opponent(), self.variant);
        for sq in self.dims.squares() {
            out.set(
                rotate_square(self.dims, sq),
                self.get(sq).map(Color::opponent),
            );
        }
        out
    }
}

/// The square's left-right mirror image.
pub fn mirror_square(dims: Dims, sq: Square) -> Square {
    Square::new(dims.cols - 1 - sq.col, sq.row)
}

/// The square turned 180 degrees about the board's centre.
pub fn rotate_square(dims: Dims, sq: Square) -> Square {
    Square::new(dims.cols - 1 - sq.col, dims.rows - 1 - sq.row)
}
