//! The notation of `ordo-core`, one test binary: positions and moves (spec/notation.md) and
//! game records (spec/game-record.md).

mod game_record;
mod notation;
