//! `/api/values`: a position's endgame value and each legal move's, probed through the one
//! probe entry of ordo-solve ([`Tablebase`]), which checks every table file it reads (a regular
//! file, bounded in size, its checksum and header).

use ordo_core::rules::{Dims, Position, Variant};
use ordo_page::api::{self, ApiError, ErrorKind, Outcome, ValuesAnswer};
use ordo_solve::{Material, SolveError, Tablebase, Value};

/// The value of `v` for the side it belongs to.
fn outcome(v: Value) -> Outcome {
    match v {
        Value::Win(d) => Outcome::Win(d.into()),
        Value::Loss(d) => Outcome::Loss(d.into()),
        Value::Draw => Outcome::Draw,
    }
}

/// A move's outcome for the mover, from the value it leaves the opponent.
fn for_mover(v: Value) -> Outcome {
    match v {
        Value::Loss(d) => Outcome::Win(u32::from(d) + 1),
        Value::Win(d) => Outcome::Loss(u32::from(d) + 1),
        Value::Draw => Outcome::Draw,
    }
}

/// The slices a probe lacks, in one line that names no server folder.
fn missing(variant: Variant, dims: Dims, needed: Material, missing: &[Material]) -> ApiError {
    let first = missing.first().map(|m| m.to_string()).unwrap_or_default();
    let more = match missing.len() {
        0 | 1 => String::new(),
        n => format!(" and {} more", n - 1),
    };
    ApiError::new(
        ErrorKind::NotFound,
        "tables",
        format!(
            "no endgame table covers this position: the {} {dims} slice {first}{more} (up to {needed}) is not in the server's tables",
            variant.name()
        ),
    )
}

/// Probe `pos`: its value and every legal move's, best first.
pub fn probe(tables: &Tablebase, pos: &Position) -> Result<ValuesAnswer, ApiError> {
    let failed = |e: SolveError| match e {
        SolveError::MissingSlices {
            variant,
            dims,
            needed,
            missing: m,
            ..
        } => missing(variant, dims, needed, &m),
        SolveError::Input(msg) => ApiError::bad("position", msg),
        e => ApiError::new(
            ErrorKind::Internal,
            "tables",
            format!("the tables cannot be read: {e}"),
        ),
    };
    let value = tables.value(pos).map_err(failed)?;
    let moves = tables.moves(pos).map_err(failed)?;
    let moves: Vec<_> = moves.into_iter().map(|(m, v)| (m, for_mover(v))).collect();
    Ok(api::values_answer(pos, outcome(value), &moves))
}
