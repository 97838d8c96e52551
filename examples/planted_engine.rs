//! The planted engine: an engine of the kit that follows one deliberately wrong reading of the
//! rules (`ordo_testkit::plant`), served over the protocol of `spec/protocol.md` on stdin and
//! stdout. The tests point `ordo conform` at it to prove that each deviation is caught and
//! named. Test tooling: it is an example of the workspace, never part of the `ordo` binary.
//!
//! Usage: `planted-engine PLANT [reference|bitboard]` (`cargo build --release --examples`), or
//! `planted-engine FAULT-on-REQUEST` for a correct engine that fails on one kind of request
//! (`ordo_testkit::failing`: `crash-on-play`, `hang-on-game`, `garbage-on-moves`,
//! `endless-line-on-status`, …).

use std::process::ExitCode;

use ordo_conformance::server::{serve, EngineChoice, Server};
use ordo_testkit::failing::{FailOn, Failing};
use ordo_testkit::plant::{Plant, Planted};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let Some(fail) = args.first().and_then(|name| FailOn::parse(name)) {
        let mut server = Server::new(EngineChoice::Reference);
        let input = Failing::new(std::io::stdin().lock(), fail);
        return ended(serve(&mut server, input, std::io::stdout().lock()));
    }
    let plant = args
        .first()
        .and_then(|name| Plant::ALL.into_iter().find(|p| p.name() == name));
    let choice = match args.get(1).map(String::as_str) {
        None | Some("reference") => Some(EngineChoice::Reference),
        Some("bitboard") => Some(EngineChoice::Bitboard),
        Some(_) => None,
    };
    let (Some(plant), Some(choice), true) = (plant, choice, args.len() <= 2) else {
        let names: Vec<&str> = Plant::ALL.map(Plant::name).to_vec();
        eprintln!(
            "usage: planted-engine PLANT [reference|bitboard], or FAULT-on-REQUEST; plants: {}",
            names.join(", ")
        );
        return ExitCode::from(2);
    };
    let mut server = Server::with_rules(Box::new(Planted { choice, plant }));
    ended(serve(
        &mut server,
        std::io::stdin().lock(),
        std::io::stdout().lock(),
    ))
}

/// The exit status of a session that ended with `result`.
fn ended(result: std::io::Result<()>) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("planted-engine: {e}");
            ExitCode::from(1)
        }
    }
}
