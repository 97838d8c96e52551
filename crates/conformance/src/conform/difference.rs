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
    /// The clause the engine reads otherwise.
    pub clause: ClauseId,
    /// The other reading in one sentence, as a report shows it.
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
    /// The moves the engine listed, in its notation and order, repeats kept.
    pub moves: Vec<String>,
    /// The status the engine reported.
    pub status: ReportedStatus,
}

/// What the rules (the reference engine, or a case) expect.
#[derive(Clone, Debug)]
pub struct Expected {
    /// The legal moves in canonical notation.
    pub moves: BTreeSet<String>,
    /// The status the rules give the position.
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
    /// The move as the engine (or the reference) wrote it.
    pub text: String,
    /// The clauses that make the move legal or illegal, as far as attribution can tell.
    pub clauses: Vec<ClauseId>,
    /// A short explanation for the report (e.g. `listed 2 times`).
    pub detail: String,
}

/// The comparison of one position.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Diff {
    /// Moves the engine lists that the rules do not allow.
    pub only_engine: Vec<MoveNote>,
    /// Legal moves the engine does not list.
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
    /// The clauses behind the status difference (empty when the statuses agree).
    pub status_clauses: Vec<ClauseId>,
    /// The clause of the status the engine claims and the rules do not give (or, when the
    /// engine misses a win, of the win the rules give); `None` when the status agrees, or when
    /// the engine's claim only follows from moves it omits (a no-move win with no moves
    /// listed: the omitted moves are the cause).
    pub status_cause: Option<ClauseId>,
    /// The known alternative readings the engine's answers fit.
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
    /// Whether the engine agrees with the rules on this position: no move, status or refusal
    /// differs.
    pub fn is_empty(&self) -> bool {
        self.only_engine.is_empty()
            && self.only_reference.is_empty()
            && self.listed_twice.is_empty()
            && self.status.is_none()
            && self.refused.is_none()
    }
}
