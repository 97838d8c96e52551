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

/// A probe of a position the tables do not hold, in a player's words (no file, slice or
/// folder named): the game, the board and the pieces of the endgame they lack; `held` says
/// whose tables lack it.
fn beyond((variant, dims): (Variant, Dims), needed: Material, held: &str) -> ApiError {
    let pieces = |n: u32, side: &str| format!("{n} {side} piece{}", if n == 1 { "" } else { "s" });
    ApiError::new(
        ErrorKind::NotFound,
        "tables",
        format!(
            "this position is beyond the tables: {held} hold no {} endgame of {} against {} on \
             the {} x {} board",
            variant.game_name(),
            pieces(needed.white, "White"),
            pieces(needed.black, "Black"),
            dims.cols,
            dims.rows
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
            ..
        } => {
            let held = match dir.as_str() {
                IN_MEMORY => "the site's tables",
                _ => "the server's tables",
            };
            beyond((variant, dims), needed, held)
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The panel's words for a position the tables lack name the game, the board and the
    /// pieces, "beyond the tables", and never a command, a file or a slice.
    #[test]
    fn a_position_beyond_the_tables_is_said_in_a_player_s_words() {
        let dims = Dims::new(10, 8).unwrap();
        let needed = Material {
            white: 20,
            black: 1,
        };
        let e = beyond((Variant::Classic, dims), needed, "the site's tables");
        assert_eq!(
            e.message,
            "this position is beyond the tables: the site's tables hold no classic Ordo endgame \
             of 20 White pieces against 1 Black piece on the 10 x 8 board"
        );
        assert_eq!((e.status(), e.place.as_str()), (404, "tables"));
        let no = api::no_tables().message;
        assert!(!no.contains('`') && !no.contains("ordo "), "{no}");
    }
}
