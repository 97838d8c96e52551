//! `ordo render`: Unicode and SVG diagrams.

use super::CliError;

/// Arguments of `ordo render`.
#[derive(clap::Args, Debug)]
pub struct RenderArgs {}

/// Run `ordo render`.
pub fn run(_args: &RenderArgs, _out: &mut String) -> Result<u8, CliError> {
    Err(CliError("`ordo render` is being built".into()))
}
