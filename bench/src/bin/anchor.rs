//! The move generator beside its anchor, the yardstick of its speed: bitboard classic perft(5) from
//! the standard start on one thread against shakmaty's chess perft(6) from the initial position,
//! both with bulk counting at the last ply, run interleaved (ordo, chess, ordo, chess, …) so that
//! both sides of a pair see the same machine load. Each run is timed in CPU seconds of this thread
//! (`CLOCK_THREAD_CPUTIME_ID`), not wall time. Prints each run, each pair's ratio of leaf rates
//! (ordo / chess) and the median and range of the ratios.
//!
//! Run: `cargo run --release -p ordo-bench --bin anchor -- --pairs 5`
//! (`--ordo-depth N` and `--chess-depth N` change the depths, 5 and 6 by default).

use std::process::ExitCode;

use ordo_bitboard::Bitboard;
use ordo_core::rules::{setup, Engine, Variant};
use shakmaty::{perft, Chess};

/// The CPU time this thread has used, in seconds.
#[allow(unsafe_code)] // clock_gettime(2): see the SAFETY comment below
fn thread_cpu() -> f64 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid timespec for the call to write into.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    assert_eq!(rc, 0, "clock_gettime(CLOCK_THREAD_CPUTIME_ID)");
    ts.tv_sec as f64 + ts.tv_nsec as f64 * 1e-9
}

/// Run `f` once: its result (the leaves) and the CPU seconds it took on this thread.
fn timed(f: impl FnOnce() -> u64) -> (u64, f64) {
    let t0 = thread_cpu();
    let leaves = f();
    (leaves, thread_cpu() - t0)
}

/// The command line: `--pairs N`, `--ordo-depth N`, `--chess-depth N`.
struct Args {
    pairs: usize,
    ordo_depth: u32,
    chess_depth: u32,
}

fn parse_args() -> Result<Args, String> {
    let mut args = Args {
        pairs: 5,
        ordo_depth: 5,
        chess_depth: 6,
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let value = it.next().ok_or(format!("{flag} needs a value"))?;
        let bad = |_| format!("{flag}: not a number: {value}");
        match flag.as_str() {
            "--pairs" => args.pairs = value.parse().map_err(bad)?,
            "--ordo-depth" => args.ordo_depth = value.parse().map_err(bad)?,
            "--chess-depth" => args.chess_depth = value.parse().map_err(bad)?,
            _ => return Err(format!("unknown argument {flag}")),
        }
    }
    if args.pairs == 0 {
        return Err("--pairs must be at least 1".into());
    }
    Ok(args)
}

fn main() -> ExitCode {
    let args = match parse_args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("anchor: {e}");
            eprintln!("usage: anchor [--pairs N] [--ordo-depth N] [--chess-depth N]");
            return ExitCode::from(2);
        }
    };
    let ordo = Bitboard::from_position(&setup::standard(Variant::Classic)).expect("the start");
    let chess = Chess::default();
    let (od, cd) = (args.ordo_depth, args.chess_depth);
    println!("pair  ordo perft({od}) leaves  CPU s  leaves/CPU s  |  chess perft({cd}) leaves  CPU s  leaves/CPU s  |  ratio");
    let mut ratios = Vec::with_capacity(args.pairs);
    for pair in 1..=args.pairs {
        let (ol, os) = timed(|| ordo.perft(od));
        let (cl, cs) = timed(|| perft(&chess, cd));
        let (orate, crate_) = (ol as f64 / os, cl as f64 / cs);
        let ratio = orate / crate_;
        ratios.push(ratio);
        println!(
            "{pair:>4}  {ol:>20} {os:>6.3} {orate:>13.0}  |  {cl:>21} {cs:>6.3} {crate_:>13.0}  |  {ratio:.3}"
        );
    }
    ratios.sort_by(f64::total_cmp);
    let n = ratios.len();
    let median = if n % 2 == 1 {
        ratios[n / 2]
    } else {
        (ratios[n / 2 - 1] + ratios[n / 2]) / 2.0
    };
    println!(
        "ratio of leaf rates (ordo / chess) over {n} pairs: median {median:.3}, range {:.3}-{:.3}",
        ratios[0],
        ratios[n - 1]
    );
    ExitCode::SUCCESS
}
