//! What the engine plays: the games and boards it declares with `capabilities`, or, for an
//! engine that declares nothing, what it shows by accepting or refusing the start of each game
//! on each board; narrowed by `--only`. Positions outside it are not compared, and each
//! unsupported game and board is reported once.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::protocol::{GameBoard, ParseGameBoardError};
use crate::rules::{setup, Color, Dims, Position};

/// Why a game on a board is not checked.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "why", rename_all = "kebab-case")]
pub enum Skip {
    /// Left out by `--only`.
    NotAsked,
    /// The engine's `capabilities` do not name it.
    NotDeclared,
    /// The engine answered `error unsupported` for it.
    Refused {
        /// The engine's error reply, whole.
        reply: String,
    },
    /// The engine declares nothing and refuses the start of that game on that board.
    Inferred {
        /// The start position it refused, canonical.
        start: String,
        /// The engine's error reply, whole.
        reply: String,
    },
}

impl std::fmt::Display for Skip {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Skip::NotAsked => f.write_str("not among the games and boards asked for"),
            Skip::NotDeclared => f.write_str("not among the engine's capabilities"),
            Skip::Refused { reply } => write!(f, "the engine answers '{reply}'"),
            Skip::Inferred { start, reply } => write!(
                f,
                "inferred: the engine declares nothing and refuses the start position {start} ('{reply}')"
            ),
        }
    }
}

/// What is known of the engine's support.
#[derive(Clone, Debug, Default)]
pub struct Support {
    /// `--only`: check nothing else.
    pub only: Option<Vec<GameBoard>>,
    /// The engine's `capabilities`, when it answered.
    pub declared: Option<Vec<GameBoard>>,
    /// Games and boards the engine has accepted a position of.
    pub accepted: BTreeMap<GameBoard, ()>,
    /// Games and boards not checked, with the reason.
    pub skipped: BTreeMap<GameBoard, Skip>,
}

impl Support {
    /// Whether positions of `gb` are to be compared, as far as is known without asking the
    /// engine: `Err` with the reason when not, `Ok(true)` when known, `Ok(false)` when only the
    /// engine's answer can tell.
    pub fn known(&mut self, gb: GameBoard) -> Result<bool, Skip> {
        if let Some(s) = self.skipped.get(&gb) {
            return Err(s.clone());
        }
        if let Some(only) = &self.only {
            if !only.iter().any(|o| o.covers(&gb)) {
                return Err(self.skip(gb, Skip::NotAsked));
            }
        }
        match &self.declared {
            Some(caps) if caps.iter().any(|c| c.covers(&gb)) => Ok(true),
            Some(_) => Err(self.skip(gb, Skip::NotDeclared)),
            None => Ok(self.accepted.contains_key(&gb)),
        }
    }

    /// Record that `gb` is not checked, once; returns the reason.
    pub fn skip(&mut self, gb: GameBoard, why: Skip) -> Skip {
        self.skipped.entry(gb).or_insert(why).clone()
    }

    /// Whether `gb` is unsupported for any reason but `--only` (for the report).
    pub fn unsupported(&self) -> impl Iterator<Item = (&GameBoard, &Skip)> {
        self.skipped.iter().filter(|(_, s)| **s != Skip::NotAsked)
    }
}

/// The start position of a game on a board: the standard start on 10 x 8 and 8 x 8 (ORDO-2.2,
/// ORDO-1.6), else each side filling its home row, White to move.
pub fn start_of(gb: GameBoard) -> Position {
    let dims = gb.dims.unwrap_or(Dims::STANDARD);
    if dims == Dims::STANDARD {
        return setup::standard(gb.variant);
    }
    if dims == (Dims { cols: 8, rows: 8 }) {
        return setup::chess_board(gb.variant);
    }
    let mut p = Position::empty(dims, Color::White, gb.variant);
    for sq in dims.squares() {
        if sq.row == 0 {
            p.set(sq, Some(Color::White));
        } else if sq.row + 1 == dims.rows {
            p.set(sq, Some(Color::Black));
        }
    }
    p
}

/// Read `--only classic:10x8,x:10x8`.
pub fn parse_only(text: &str) -> Result<Vec<GameBoard>, ParseGameBoardError> {
    // Typed by a user, so read in any case like every listed value, unlike the protocol's own
    // tokens.
    text.split(',')
        .map(|t| t.trim().to_ascii_lowercase().parse::<GameBoard>())
        .collect()
}

#[cfg(test)]
mod only_tests {
    use super::parse_only;

    /// `--only` is read in any case, as every other listed value of the command line.
    #[test]
    fn only_reads_games_and_boards_in_any_case() {
        let upper = parse_only("Classic:10X8, X:*").unwrap();
        assert_eq!(upper, parse_only("classic:10x8,x:*").unwrap());
        assert_eq!(upper.len(), 2);
        assert!(parse_only("chess:8x8").is_err());
    }
}
