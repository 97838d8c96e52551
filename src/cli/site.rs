//! `ordo site DIR --wasm FILE`: write the static dispute page into the folder DIR, a site any
//! static host serves (`crate::serve::site`): the page, its assets, the WebAssembly module
//! FILE (`ordo_wasm.wasm`, built by `scripts/build-site.sh`, which then runs this command) and
//! the rules page. Each file is written atomically; the folder is created when missing.

use std::io::Write as _;
use std::path::PathBuf;

use super::CliError;
use crate::serve::site;

/// Arguments of `ordo site`.
#[derive(clap::Args, Debug)]
pub struct SiteArgs {
    /// The folder to write the site into (created when missing).
    pub dir: PathBuf,
    /// The WebAssembly module of crates/wasm (target/wasm32-unknown-unknown/release/ordo_wasm.wasm).
    #[arg(long, value_name = "FILE")]
    pub wasm: PathBuf,
}

/// Run `ordo site`.
pub fn run(args: &SiteArgs, out: &mut String) -> Result<u8, CliError> {
    let wasm = std::fs::read(&args.wasm)
        .map_err(|e| CliError(format!("--wasm: cannot read {}: {e}", args.wasm.display())))?;
    let files =
        site::files(&wasm).map_err(|e| CliError(format!("--wasm {}: {e}", args.wasm.display())))?;
    for f in &files {
        let path = args.dir.join(f.path);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)
                .map_err(|e| CliError(format!("cannot create {}: {e}", parent.display())))?;
        }
        crate::files::write_atomically_with(&path, |w| w.write_all(&f.bytes))
            .map_err(|e| CliError(format!("cannot write {e}")))?;
    }
    out.push_str(&format!(
        "wrote {} files into {}: serve the folder with any static web server\n",
        files.len(),
        args.dir.display()
    ));
    Ok(0)
}
