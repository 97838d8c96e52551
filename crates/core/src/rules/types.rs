//! Colours, variants, board dimensions, squares and directions.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// The two players. White moves first (ORDO-3.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Color {
    /// The side that moves first (ORDO-3.1); its home row is row 1 (ORDO-1.3).
    White,
    /// The side that moves second; its home row is the board's last row (ORDO-1.3).
    Black,
}

impl Color {
    /// Both colours, White first.
    pub const ALL: [Color; 2] = [Color::White, Color::Black];

    /// The other player.
    pub fn opponent(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// Row step that counts as forward for this colour (ORDO-1.4): White moves up the rows,
    /// Black down.
    pub fn forward(self) -> i8 {
        match self {
            Color::White => 1,
            Color::Black => -1,
        }
    }

    /// This colour's home row, 0-based (ORDO-1.3): row 1 for White, the last row for Black.
    pub fn home_row(self, dims: Dims) -> u8 {
        match self {
            Color::White => 0,
            Color::Black => dims.rows - 1,
        }
    }

    /// The letter used by the position notation: `W` or `B`.
    pub fn piece_char(self) -> char {
        match self {
            Color::White => 'W',
            Color::Black => 'B',
        }
    }

    /// The letter used for the side to move: `w` or `b`.
    pub fn side_char(self) -> char {
        match self {
            Color::White => 'w',
            Color::Black => 'b',
        }
    }

    /// Lower-case English name.
    pub fn name(self) -> &'static str {
        match self {
            Color::White => "white",
            Color::Black => "black",
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Color::White => "White",
            Color::Black => "Black",
        })
    }
}

/// The two games the project implements.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Variant {
    /// Classic Ordo (2009 rules; clauses `ORDO-…`).
    Classic,
    /// Ordo X (clauses `ORDOX-…` on top of the shared `ORDO-…` clauses).
    X,
}

impl Variant {
    /// Both variants, classic first.
    pub const ALL: [Variant; 2] = [Variant::Classic, Variant::X];

    /// The name used by the notation and by `--variant`: `classic` or `x`.
    pub fn name(self) -> &'static str {
        match self {
            Variant::Classic => "classic",
            Variant::X => "x",
        }
    }

    /// The game's name in prose: `classic Ordo` or `Ordo X`.
    pub fn game_name(self) -> &'static str {
        match self {
            Variant::Classic => "classic Ordo",
            Variant::X => "Ordo X",
        }
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An unknown variant name.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown variant '{0}': expected 'classic' or 'x'")]
pub struct UnknownVariant(pub String);

impl FromStr for Variant {
    type Err = UnknownVariant;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "classic" => Ok(Variant::Classic),
            "x" => Ok(Variant::X),
            _ => Err(UnknownVariant(s.to_string())),
        }
    }
}

/// Smallest number of columns or rows a board may have (ORDO-1.5).
pub const MIN_SIDE: u8 = 2;
/// Largest number of columns or rows a board may have (ORDO-1.5).
pub const MAX_SIDE: u8 = 16;
/// Largest number of squares a board may have (ORDO-1.5): every square fits one bit of a `u128`.
pub const MAX_SQUARES: usize = 128;

/// Board dimensions: columns x rows (ORDO-1.1, ORDO-1.5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Dims {
    /// Columns, from [`MIN_SIDE`] to [`MAX_SIDE`] (10 on the standard board).
    pub cols: u8,
    /// Rows, from [`MIN_SIDE`] to [`MAX_SIDE`] (8 on the standard board); `cols * rows` is at
    /// most [`MAX_SQUARES`].
    pub rows: u8,
}

/// Board dimensions outside the limits of ORDO-1.5.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "board {cols}x{rows} is outside the limits: 2 to 16 columns and rows, at most 128 squares (ORDO-1.5)"
)]
pub struct DimsError {
    /// The columns asked for.
    pub cols: usize,
    /// The rows asked for.
    pub rows: usize,
}

impl Dims {
    /// The standard 10 x 8 board (ORDO-1.1).
    pub const STANDARD: Dims = Dims { cols: 10, rows: 8 };
    /// The 8 x 8 board of the chess-board variant (ORDO-1.6).
    pub const CHESS: Dims = Dims { cols: 8, rows: 8 };

    /// Checked constructor (ORDO-1.5).
    pub fn new(cols: usize, rows: usize) -> Result<Dims, DimsError> {
        let ok_side = |n: usize| (MIN_SIDE as usize..=MAX_SIDE as usize).contains(&n);
        if ok_side(cols) && ok_side(rows) && cols * rows <= MAX_SQUARES {
            Ok(Dims {
                cols: cols as u8,
                rows: rows as u8,
            })
        } else {
            Err(DimsError { cols, rows })
        }
    }

    /// Number of squares.
    pub fn len(self) -> usize {
        self.cols as usize * self.rows as usize
    }

    /// Never true for valid dimensions; present for clippy's `len_without_is_empty`.
    pub fn is_empty(self) -> bool {
        self.len() == 0
    }

    /// Whether `sq` lies on this board.
    pub fn contains(self, sq: Square) -> bool {
        sq.col < self.cols && sq.row < self.rows
    }

    /// Row-major index of a square: `row * cols + col` (a1 is 0).
    pub fn index(self, sq: Square) -> usize {
        sq.row as usize * self.cols as usize + sq.col as usize
    }

    /// The square with row-major index `i`.
    pub fn square(self, i: usize) -> Square {
        Square::new(
            (i % self.cols as usize) as u8,
            (i / self.cols as usize) as u8,
        )
    }

    /// Every square, in row-major order from a1.
    pub fn squares(self) -> impl Iterator<Item = Square> {
        (0..self.len()).map(move |i| self.square(i))
    }

    /// The square one `(dc, dr)` step away, if it is on the board.
    pub fn offset(self, sq: Square, dc: i8, dr: i8) -> Option<Square> {
        let c = sq.col as i16 + dc as i16;
        let r = sq.row as i16 + dr as i16;
        if c < 0 || r < 0 || c >= self.cols as i16 || r >= self.rows as i16 {
            None
        } else {
            Some(Square::new(c as u8, r as u8))
        }
    }
}

impl fmt::Display for Dims {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.cols, self.rows)
    }
}

/// Why a board size does not read as [`Dims`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseDimsError {
    /// The text is not two numbers joined by `x`.
    #[error("board '{0}' is not of the form COLSxROWS, such as 10x8")]
    Form(String),
    /// A board of that size is not allowed.
    #[error(transparent)]
    Size(#[from] DimsError),
}

impl FromStr for Dims {
    type Err = ParseDimsError;
    /// `COLSxROWS`, such as `10x8` (the form [`Dims`] displays).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad = || ParseDimsError::Form(s.to_string());
        let (c, r) = s.split_once(['x', 'X']).ok_or_else(bad)?;
        let cols: usize = c.trim().parse().map_err(|_| bad())?;
        let rows: usize = r.trim().parse().map_err(|_| bad())?;
        Ok(Dims::new(cols, rows)?)
    }
}

/// A square: 0-based column (a = 0, from White's left) and row (row 1 = 0, White's side)
/// (ORDO-1.2). Written `a1`, `j8`, … by the notation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Square {
    /// The column, from 0 (`a`, White's left) to the board's columns less one.
    pub col: u8,
    /// The row, from 0 (row 1, White's side) to the board's rows less one.
    pub row: u8,
}

impl Square {
    /// The square on column `col` and row `row`, both from 0; not checked against a board.
    pub const fn new(col: u8, row: u8) -> Square {
        Square { col, row }
    }

    /// Column letter, `a` for column 0.
    pub fn col_char(self) -> char {
        (b'a' + self.col) as char
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.col_char(), self.row as u32 + 1)
    }
}

/// One of the eight straight-line directions, as an absolute board step.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Direction {
    /// The column step: -1 (toward column `a`), 0 or 1.
    pub dc: i8,
    /// The row step: -1 (toward row 1, White's side), 0 or 1.
    pub dr: i8,
}

/// How a direction looks from the mover's side of the board (ORDO-1.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Heading {
    /// Straight toward the opponent's side (up the board for White).
    Forward,
    /// Diagonally toward the opponent's side.
    DiagonalForward,
    /// Along the row, left or right.
    Sideways,
    /// Straight toward the mover's own side.
    Backward,
    /// Diagonally toward the mover's own side.
    DiagonalBackward,
}

impl Direction {
    /// All eight directions.
    pub const ALL: [Direction; 8] = [
        Direction { dc: 0, dr: 1 },
        Direction { dc: 1, dr: 1 },
        Direction { dc: 1, dr: 0 },
        Direction { dc: 1, dr: -1 },
        Direction { dc: 0, dr: -1 },
        Direction { dc: -1, dr: -1 },
        Direction { dc: -1, dr: 0 },
        Direction { dc: -1, dr: 1 },
    ];

    /// The heading of this direction for a piece of colour `c` (ORDO-1.4).
    pub fn heading(self, c: Color) -> Heading {
        let fwd = self.dr * c.forward();
        match (self.dc != 0, fwd) {
            (false, 1) => Heading::Forward,
            (true, 1) => Heading::DiagonalForward,
            (true, 0) => Heading::Sideways,
            (false, -1) => Heading::Backward,
            _ => Heading::DiagonalBackward,
        }
    }

    /// Whether the direction runs along a row or a column (not diagonal).
    pub fn is_orthogonal(self) -> bool {
        self.dc == 0 || self.dr == 0
    }

    /// The direction of a non-zero displacement that lies on a straight line (orthogonal or
    /// diagonal), with the number of unit steps; `None` for a zero or knight-like displacement.
    pub fn of_displacement(dc: i16, dr: i16) -> Option<(Direction, u8)> {
        if (dc, dr) == (0, 0) || !(dc == 0 || dr == 0 || dc.abs() == dr.abs()) {
            return None;
        }
        let dist = dc.abs().max(dr.abs());
        Some((
            Direction {
                dc: dc.signum() as i8,
                dr: dr.signum() as i8,
            },
            dist as u8,
        ))
    }
}
