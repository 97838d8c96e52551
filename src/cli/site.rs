//! `ordo site DIR --wasm FILE`: write the static dispute page into the folder DIR, a site any
//! static host serves (`crate::page::site`): the page, its assets, the WebAssembly module
//! FILE (`ordo_wasm.wasm`, built by `scripts/build-site.sh`, which then runs this command) and
//! the rules page. `ordo site DIR --api URL` (what an installed `ordo`, which carries no
//! module, can write) gives a page that asks the `ordo serve` at URL instead. `--tables TDIR`
//! ships the endgame table files of TDIR (`ordo tb build --dir TDIR`) under `tables/`: the page
//! shows endgame values, fetching only the files a position needs. Each file is written
//! atomically; the folder is created when missing.

use std::io::Write as _;
use std::path::PathBuf;

use super::CliError;
use crate::page::site;

/// Arguments of `ordo site`.
#[derive(clap::Args, Debug)]
pub struct SiteArgs {
    /// The folder to write the site into (created when missing).
    pub dir: PathBuf,
    /// The WebAssembly module of crates/wasm (target/wasm32-unknown-unknown/release/ordo_wasm.wasm):
    /// the page judges in the browser.
    #[arg(long, value_name = "FILE", conflicts_with = "api")]
    pub wasm: Option<PathBuf>,
    /// Without a module: the address of an `ordo serve` the page asks for its answers (e.g.
    /// https://ordo.example.org/).
    #[arg(long, value_name = "URL")]
    pub api: Option<String>,
    /// A folder of endgame tables (`ordo tb build --dir TDIR`) to ship with the page, which then
    /// shows each legal move's value for positions they hold (every ctb-*.ordotb file is copied).
    #[arg(long, value_name = "TDIR")]
    pub tables: Option<PathBuf>,
}

/// The endgame table files of `dir` (`ctb-*.ordotb`), by name.
fn table_files(dir: &std::path::Path) -> Result<Vec<(String, Vec<u8>)>, CliError> {
    let bad = |e: std::io::Error| CliError(format!("--tables {}: {e}", dir.display()));
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).map_err(bad)? {
        let entry = entry.map_err(bad)?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if site::is_table_name(&name) && entry.file_type().map_err(bad)?.is_file() {
            out.push((name, std::fs::read(entry.path()).map_err(bad)?));
        }
    }
    if out.is_empty() {
        return Err(CliError(format!(
            "--tables {}: no endgame table files (ctb-*.ordotb) in it: build them with `ordo tb build --dir {}`",
            dir.display(),
            dir.display()
        )));
    }
    out.sort();
    Ok(out)
}

/// The site's files: with the module of `--wasm`, or asking the server of `--api`.
fn site_files(args: &SiteArgs) -> Result<Vec<site::File>, CliError> {
    match (&args.wasm, &args.api) {
        (Some(wasm), _) => {
            let limit = crate::files::Limit {
                bytes: 64 << 20,
                kind: "a WebAssembly module",
            };
            let bytes = crate::files::read_bytes_within(wasm, limit, crate::files::WAIT)
                .map_err(|e| CliError(format!("--wasm: cannot read {e}")))?;
            let tables = match &args.tables {
                Some(dir) => table_files(dir)?,
                None => Vec::new(),
            };
            site::files(&bytes, &tables)
                .map_err(|e| CliError(format!("--wasm {}: {e}", wasm.display())))
        }
        (None, Some(_)) if args.tables.is_some() => Err(CliError(
            "--tables ships tables with the module of --wasm; a page that asks a server (--api) gets its values from that server's `ordo serve --tables DIR`".into(),
        )),
        (None, Some(api)) => site::files_for_api(api).map_err(|e| CliError(format!("--api: {e}"))),
        (None, None) => Err(CliError(
            "ordo site needs --wasm FILE (the module scripts/build-site.sh builds: an installed ordo carries none) or --api URL (an ordo serve the page asks, e.g. --api https://ordo.example.org/)".into(),
        )),
    }
}

/// Run `ordo site`.
pub fn run(args: &SiteArgs, out: &mut String) -> Result<u8, CliError> {
    let files = site_files(args)?;
    for f in &files {
        let path = args.dir.join(&f.path);
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
