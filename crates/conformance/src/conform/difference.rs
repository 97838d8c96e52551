//! The data of a comparison: what the engine said about a position, what the rules expect,
//! and the difference between them with its clauses and readings. Apart from the comparison
//! (`compare`) and the attribution (`attribute`), which both use it, so that neither imports
//! the other's types.

use std::collections::BTreeSet;

use serde::Serialize;

use crate::notation::format_move;
use crate::protocol::ReportedStatus;
use crate::reference::Reference;
use crate::rules::{ClauseId, Engine, Position, Status};

/// A known alternative reading of a clause that an engine's answers fit.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct Reading {
    pub clause: ClauseId,
    pub text: &'static str,
}

impl std::fmt::Display for Reading {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "engine follows reading \"{}\" of clause {}",
            self.text, self.clause
        )
    }
}

/// What the engine said about one position.
#[derive(Clone, Debug)]
pub struct Seen {
    pub moves: Vec<String>,
    pub status: ReportedStatus,
}

/// What the rules (the reference engine, or a case) expect.
#[derive(Clone, Debug)]
pub struct Expected {
    pub moves: BTreeSet<String>,
    pub status: Status,
}

impl Expected {
    /// What the reference engine says about `pos`.
    pub fn of(pos: &Position) -> Option<Expected> {
        let r = Reference::from_position(pos).ok()?;
        Some(Expected {
            moves: r.legal_moves().iter().map(format_move).collect(),
            status: r.status(),
        })
    }
}

/// One move that only one side lists, with the clauses behind it.
#[derive(Clone, Debug, Serialize)]
pub struct MoveNote {
    pub text: String,
    pub clauses: Vec<ClauseId>,
    pub detail: String,
}

/// The comparison of one position.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Diff {
    pub only_engine: Vec<MoveNote>,
    pub only_reference: Vec<MoveNote>,
    /// Moves the engine lists more than once, in one spelling or in several (spec/protocol.md,
    /// `moves`: each once): never merged silently, since one engine's two spellings of a move
    /// can be two different moves to it.
    pub listed_twice: Vec<MoveNote>,
    /// (expected, engine) when they differ.
    #[serde(serialize_with = "status_pair")]
    pub status: Option<(ReportedStatus, ReportedStatus)>,
    /// Both statuses name the same winner; only the reason differs (ORDO-10.5 decides).
    pub same_winner: bool,
    /// The engine's error reply to `position`.
    pub refused: Option<String>,
    pub status_clauses: Vec<ClauseId>,
    /// The clause of the status the engine claims and the rules do not give (or, when the
    /// engine misses a win, of the win the rules give); `None` when the status agrees, or when
    /// the engine's claim only follows from moves it omits (a no-move win with no moves
    /// listed: the omitted moves are the cause).
    pub status_cause: Option<ClauseId>,
    pub readings: BTreeSet<Reading>,
    /// Every clause involved.
    pub clauses: BTreeSet<ClauseId>,
    /// The main clause(s).
    pub main: Vec<ClauseId>,
}

fn status_pair<S: serde::Serializer>(
    v: &Option<(ReportedStatus, ReportedStatus)>,
    s: S,
) -> Result<S::Ok, S::Error> {
    match v {
        Some((want, got)) => {
            s.collect_map([("expected", want.to_string()), ("engine", got.to_string())])
        }
        None => s.serialize_none(),
    }
}

impl Diff {
    pub fn is_empty(&self) -> bool {
        self.only_engine.is_empty()
            && self.only_reference.is_empty()
            && self.listed_twice.is_empty()
            && self.status.is_none()
            && self.refused.is_none()
    }
}
