//! `ordo serve [--port N] [--bind ADDR] [--public-url URL] [--trusted-proxy ADDR]... [--tables DIR]`:
//! the web page for settling rule disputes (`crate::serve`). Prints the address it listens on, then serves until the process
//! ends. With `--public-url` the verdicts' links name that address (the one players reach the
//! server at, behind a proxy or a domain name) instead of the address the page was opened at.
//! With `--trusted-proxy ADDR` the per-address limits count the client address that proxy
//! forwards. With `--tables DIR` the page shows endgame values from the tables in DIR.

use std::io::Write as _;
use std::net::{IpAddr, SocketAddr};

use super::CliError;
use crate::serve::{self, Limits};

/// Arguments of `ordo serve`.
#[derive(clap::Args, Debug)]
pub struct ServeArgs {
    /// Port to listen on (0 picks a free one and prints it).
    #[arg(long, default_value_t = 8080)]
    pub port: u16,
    /// Address to listen on; the default serves this machine only.
    #[arg(long, default_value = "127.0.0.1")]
    pub bind: IpAddr,
    /// The address players reach the page at (e.g. https://ordo.example.org/): shareable links
    /// are written with it.
    #[arg(long, value_name = "URL")]
    pub public_url: Option<String>,
    /// A reverse proxy in front of the server (repeatable): from its address only, the
    /// client's address is read from `X-Forwarded-For` (else `Forwarded`), and the
    /// per-address limits count that address; from any other those headers are ignored.
    #[arg(long = "trusted-proxy", value_name = "ADDR")]
    pub trusted_proxies: Vec<IpAddr>,
    /// A folder of endgame tables (`ordo tb build --dir DIR`): the page shows each legal move's
    /// value for positions they cover (`GET /api/values`).
    #[arg(long, value_name = "DIR")]
    pub tables: Option<std::path::PathBuf>,
}

/// Run `ordo serve`.
pub fn run(args: &ServeArgs, _out: &mut String) -> Result<u8, CliError> {
    let addr = SocketAddr::new(args.bind, args.port);
    if let Some(url) = &args.public_url {
        crate::page::api::set_public_url(url)
            .map_err(|e| CliError(format!("--public-url: {}", e.message)))?;
    }
    let tables = match &args.tables {
        Some(dir) => Some(std::sync::Arc::new(
            crate::solve::Tablebase::open(dir)
                .map_err(|e| CliError(format!("--tables {}: {e}", dir.display())))?,
        )),
        None => None,
    };
    let limits = Limits {
        trusted_proxies: args.trusted_proxies.clone(),
        ..Limits::default()
    };
    serve::run_with(addr, limits, tables, |bound| {
        let mut stdout = std::io::stdout().lock();
        let _ = writeln!(stdout, "ordo serve: listening on http://{bound}/");
        let _ = stdout.flush();
    })
    .map_err(|e| CliError(e.to_string()))?;
    Ok(0)
}
