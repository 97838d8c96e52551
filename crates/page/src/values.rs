//! `/api/values`: a position's endgame value and each legal move's, probed through the one
//! probe entry of ordo-solve ([`Tablebase`]), which checks every table file it reads (its
//! size, checksum and header): the tables of `ordo serve --tables DIR` (a folder), or those a
//! static site ships, fetched by the page and given to the WebAssembly module
//! ([`Tablebase::in_memory`]). One probe for both, so both answer the same.

use crate::api::{self, ApiError, ErrorKind, Outcome, ValuesAnswer};
use ordo_core::rules::{Dims, Position, Variant};
use ordo_solve::{Material, SolveError, Tablebase, Value, IN_MEMORY};

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

/// The slices a probe lacks, in one line that names no server folder: `held` says whose
/// tables lack them.
fn missing(
    (variant, dims): (Variant, Dims),
    needed: Material,
    missing: &[Material],
    held: &str,
) -> ApiError {
    let first = missing.first().map(|m| m.to_string()).unwrap_or_default();
    let more = match missing.len() {
        0 | 1 => String::new(),
        n => format!(" and {} more", n - 1),
    };
    ApiError::new(
        ErrorKind::NotFound,
        "tables",
        format!(
            "no endgame table covers this position: the {} {dims} slice {first}{more} (up to {needed}) is not in {held}",
            variant.name()
        ),
    )
}

/// Probe `pos`: its value and every legal move's, best first.
pub fn probe(tables: &Tablebase, pos: &Position) -> Result<ValuesAnswer, ApiError> {
    let failed = |e: SolveError| match e {
        SolveError::MissingSlices {
            dir,
            variant,
            dims,
            needed,
            missing: m,
        } => {
            let held = match dir.as_str() {
                IN_MEMORY => "the site's tables",
                _ => "the server's tables",
            };
            missing((variant, dims), needed, &m, held)
        }
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

/// The names of the table files a probe of `pos` still needs (`/api/tables`): what the
/// static site's page fetches and gives to its module before asking `/api/values`.
#[derive(Clone, Debug, serde::Serialize)]
pub struct FilesAnswer {
    /// The file names, as the site ships them under `tables/` (empty: the probe can run).
    pub files: Vec<String>,
}

/// The table files `tables` lacks for probing `pos`.
pub fn files_needed(tables: &Tablebase, pos: &Position) -> FilesAnswer {
    FilesAnswer {
        files: tables.files_needed(pos),
    }
}
