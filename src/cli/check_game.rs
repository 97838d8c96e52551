//! `ordo check-game`: replay and judge a game record.

use super::CliError;

/// Arguments of `ordo check-game`.
#[derive(clap::Args, Debug)]
pub struct CheckGameArgs {}

/// Run `ordo check-game`.
pub fn run(_args: &CheckGameArgs, _out: &mut String) -> Result<u8, CliError> {
    Err(CliError("`ordo check-game` is being built".into()))
}
