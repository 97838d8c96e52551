//! The rules vocabulary shared by every engine, the adjudicator and the notation: colours,
//! squares, board dimensions, moves, positions, status, the [`Engine`] trait, the start
//! positions and the clause registry that `spec/clauses.toml` defines.
//!
//! Nothing here decides whether a move is legal; that is each engine's own business, so that
//! the engines check one another instead of sharing their mistakes.

mod clause_id;
pub mod clauses;
mod engine;
mod moves;
mod position;
mod rng;
pub mod setup;
mod status;
mod types;

pub use clause_id::{ClauseId, ClauseIdError};
pub use engine::{Engine, IllegalMove};
pub use moves::{Move, Step};
pub use position::{mirror_square, rotate_square, Position, PositionError};
pub use rng::Rng;
pub use status::{Status, WinReason};
pub use types::{
    Color, Dims, DimsError, Direction, Heading, ParseDimsError, Square, UnknownVariant, Variant,
    MAX_SIDE, MAX_SQUARES, MIN_SIDE,
};
