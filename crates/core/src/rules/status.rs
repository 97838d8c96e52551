//! Game status: still going, or won, with the reason and the clause that decided it.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::types::Color;
use super::ClauseId;

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum WinReason {
    /// A piece of the winner stands on the loser's home row (ORDO-10.1).
    HomeRow,
    /// The loser has no piece left (ORDO-10.2).
    NoPieces,
    /// The loser is split at the start of the turn and no legal move reconnects it (ORDO-10.3).
    CannotReconnect,
    /// The loser is one group at the start of the turn and has no legal move (ORDO-10.4).
    NoLegalMove,
}

impl WinReason {
    /// Every reason.
    pub const ALL: [WinReason; 4] = [
        WinReason::HomeRow,
        WinReason::NoPieces,
        WinReason::CannotReconnect,
        WinReason::NoLegalMove,
    ];

    /// The clause that decides a game for this reason.
    pub fn clause(self) -> &'static str {
        match self {
            WinReason::HomeRow => "ORDO-10.1",
            WinReason::NoPieces => "ORDO-10.2",
            WinReason::CannotReconnect => "ORDO-10.3",
            WinReason::NoLegalMove => "ORDO-10.4",
        }
    }

    /// The clause that decides a game for this reason, as a [`ClauseId`].
    pub fn clause_id(self) -> ClauseId {
        match self {
            WinReason::HomeRow => ClauseId::ordo(10, 1),
            WinReason::NoPieces => ClauseId::ordo(10, 2),
            WinReason::CannotReconnect => ClauseId::ordo(10, 3),
            WinReason::NoLegalMove => ClauseId::ordo(10, 4),
        }
    }

    /// Short machine name: `home-row`, `no-pieces`, `cannot-reconnect`, `no-legal-move`.
    pub fn name(self) -> &'static str {
        match self {
            WinReason::HomeRow => "home-row",
            WinReason::NoPieces => "no-pieces",
            WinReason::CannotReconnect => "cannot-reconnect",
            WinReason::NoLegalMove => "no-legal-move",
        }
    }

    /// Parse a [`WinReason::name`].
    pub fn from_name(s: &str) -> Option<WinReason> {
        WinReason::ALL.into_iter().find(|r| r.name() == s)
    }
}

/// The state of the game in a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Status {
    /// The side to move has at least one legal move.
    Ongoing,
    /// The game is over.
    Won {
        /// The side that won.
        winner: Color,
        /// Which rule ended the game.
        reason: WinReason,
    },
}

impl Status {
    /// The clause that decided the game, if it is over.
    pub fn clause(self) -> Option<&'static str> {
        match self {
            Status::Ongoing => None,
            Status::Won { reason, .. } => Some(reason.clause()),
        }
    }

    /// The clause that decided the game, if it is over, as a [`ClauseId`].
    pub fn clause_id(self) -> Option<ClauseId> {
        match self {
            Status::Ongoing => None,
            Status::Won { reason, .. } => Some(reason.clause_id()),
        }
    }

    /// Whether the game is over.
    pub fn is_over(self) -> bool {
        !matches!(self, Status::Ongoing)
    }
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Status::Ongoing => f.write_str("ongoing"),
            Status::Won { winner, reason } => {
                write!(
                    f,
                    "{} wins ({}, {})",
                    winner,
                    reason.name(),
                    reason.clause()
                )
            }
        }
    }
}
