//! `ordo explain`: the adjudicator's verdict on one move.

use super::CliError;

/// Arguments of `ordo explain`.
#[derive(clap::Args, Debug)]
pub struct ExplainArgs {}

/// Run `ordo explain`.
pub fn run(_args: &ExplainArgs, _out: &mut String) -> Result<u8, CliError> {
    Err(CliError("`ordo explain` is being built".into()))
}
