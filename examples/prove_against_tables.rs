//! The proof search cross-checked against a folder of endgame tables
//! (`ordo_testkit::against_tables`): random positions the tables hold, each proved without
//! them, unbounded and bounded by the tables' distance. Prints the tally as one JSON line;
//! exit status 1 on any difference from the tables, 2 on bad arguments. Test tooling.
//!
//! Usage: `prove-against-tables DIR VARIANT BOARD WHITE,BLACK SAMPLES MIN-PLIES SEED NODES
//! [--win-check|--no-win-check]`: SAMPLES positions that are draws or wins of at least
//! MIN-PLIES plies, the one-ply win check as the game has it unless a flag says otherwise
//! (`cargo run --release --example prove-against-tables -- tables x 10x8 4,3 1000 5 1 200000`).

use std::process::ExitCode;

use ordo::Tablebase;
use ordo_prove::Options;
use ordo_solve::Material;
use ordo_testkit::against_tables::cross_check;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(e) => {
            eprintln!("prove-against-tables: {e}");
            ExitCode::from(2)
        }
    }
}

fn run(args: &[String]) -> Result<bool, String> {
    let (win_check, args) = match args.split_last() {
        Some((flag, rest)) if flag == "--win-check" => (Some(true), rest),
        Some((flag, rest)) if flag == "--no-win-check" => (Some(false), rest),
        _ => (None, args),
    };
    let [dir, variant, board, max, samples, min, seed, nodes] = args else {
        return Err(
            "usage: DIR VARIANT BOARD WHITE,BLACK SAMPLES MIN-PLIES SEED NODES [--win-check|--no-win-check]"
                .into(),
        );
    };
    let variant = match variant.as_str() {
        "classic" => ordo::Variant::Classic,
        "x" => ordo::Variant::X,
        v => return Err(format!("variant {v}: classic or x")),
    };
    let dims: ordo::Dims = board.parse().map_err(|e| format!("board {board}: {e}"))?;
    let (w, b) = max.split_once(',').ok_or(format!("material {max}"))?;
    let num = |s: &str| s.parse::<u64>().map_err(|e| format!("{s}: {e}"));
    let max = Material {
        white: num(w)? as u32,
        black: num(b)? as u32,
    };
    let tb = Tablebase::open(std::path::Path::new(dir)).map_err(|e| format!("{dir}: {e}"))?;
    let opts = Options {
        nodes: Some(num(nodes)?),
        win_check,
        ..Options::default()
    };
    let clock = std::time::Instant::now();
    let t = cross_check(
        &tb,
        (variant, dims, max),
        (num(samples)?, num(min)? as u32),
        num(seed)?,
        &opts,
    );
    let mut line = serde_json::to_value(&t).map_err(|e| e.to_string())?;
    line["variant"] = variant.name().into();
    line["board"] = board.as_str().into();
    line["win_check"] = win_check
        .unwrap_or(variant == ordo::Variant::Classic)
        .into();
    line["max"] = format!("{w}v{b}").into();
    line["seed"] = num(seed)?.into();
    line["min_plies"] = num(min)?.into();
    line["node_budget"] = num(nodes)?.into();
    line["seconds"] = clock.elapsed().as_secs_f64().into();
    println!("{line}");
    Ok(t.differences.is_empty())
}
