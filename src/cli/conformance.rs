//! `ordo conformance`, `ordo engine`, `ordo conform`: the conformance kit's commands.

use super::CliError;

/// Arguments of `ordo conformance`.
#[derive(clap::Args, Debug)]
pub struct ConformanceArgs {}

/// Arguments of `ordo engine`.
#[derive(clap::Args, Debug)]
pub struct EngineArgs {}

/// Arguments of `ordo conform`.
#[derive(clap::Args, Debug)]
pub struct ConformArgs {}

/// Run `ordo conformance`.
pub fn run_conformance(_args: &ConformanceArgs, _out: &mut String) -> Result<u8, CliError> {
    Err(CliError("`ordo conformance` is being built".into()))
}

/// Run `ordo engine` (it talks on stdin/stdout itself).
pub fn run_engine(_args: &EngineArgs, _out: &mut String) -> Result<u8, CliError> {
    Err(CliError("`ordo engine` is being built".into()))
}

/// Run `ordo conform`.
pub fn run_conform(_args: &ConformArgs, _out: &mut String) -> Result<u8, CliError> {
    Err(CliError("`ordo conform` is being built".into()))
}
