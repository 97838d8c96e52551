//! `ordo tb build|verify|probe` on the compact solver's slice files (src/solve/ctb.rs), the
//! default; `--solver retro` goes to src/cli/tb.rs.

use std::path::Path;

use super::solve::{solve_error, Bar};
use super::tb::{parse_slices, prepare_build, write_probe, Slices};
use super::{start_position, CliError, EngineArg, PositionArgs};
use crate::bitboard::Bitboard;
use crate::reference::Reference;
use crate::rules::{Engine, Position};
use crate::solve::compact::CompactTables;
use crate::solve::ctb::{self, CompactSliceReport};
use crate::solve::{plies, Progress, Value};

/// `ordo tb build`: every compact slice up to the bound, existing files reused.
pub fn build(s: &Slices, verify: bool, out: &mut String) -> Result<u8, CliError> {
    let bar = Bar::new();
    let (dims, variant, max, opts) = prepare_build(s, verify, &bar, |d, v, m, l| {
        ctb::check_memory(d, v, m, l).map(|_| ())
    })?;
    let mut lines = Vec::new();
    let total = crate::solve::compact::stored_up_to(max).len();
    let mut each = |r: &CompactSliceReport| {
        lines.push(r.clone());
        bar.begin(&format!("{} of {total} slices done", lines.len()));
    };
    let result = match s.engine {
        EngineArg::Bitboard => ctb::build::<Bitboard>(dims, variant, max, &s.dir, &opts, &mut each),
        EngineArg::Reference => {
            ctb::build::<Reference>(dims, variant, max, &s.dir, &opts, &mut each)
        }
    };
    bar.finish();
    // The slices done before a failure are reported too.
    super::tb::write_slices(&lines, s.json, slice_line, out)?;
    result.map_err(solve_error)?;
    Ok(u8::from(lines.iter().any(|r| r.verified == Some(false))))
}

/// One slice as `ordo tb build` prints it.
pub fn slice_line(r: &CompactSliceReport) -> String {
    let st = &r.stats;
    // A slice of unequal material also answers for its colour twin (the counts swapped).
    let twin = match st.material.split_once('v') {
        Some((w, b)) if w != b => format!(" and {b}v{w}"),
        _ => String::new(),
    };
    format!(
        "{} {} {}{twin}: {} core positions ({} bytes): {} won, {} lost, {} drawn, longest {}{}",
        r.variant,
        r.board,
        st.material,
        st.positions,
        st.entries,
        st.wins,
        st.losses,
        st.draws,
        plies(st.longest),
        super::tb::slice_status(r.built, r.seconds, r.verified)
    )
}

/// `ordo tb verify`: recompute every core value of the compact slices in `--dir`.
pub fn verify(s: &Slices, out: &mut String) -> Result<u8, CliError> {
    let (dims, variant, max) = parse_slices(s)?;
    let tables = ctb::open(dims, variant, max, &s.dir).map_err(solve_error)?;
    let bar = Bar::new();
    let mut bad = 0;
    for &m in tables.slices.keys() {
        bar.begin(&format!("slice {m}"));
        let verdict = match s.engine {
            EngineArg::Bitboard => tables.verify_slice::<Bitboard>(m, &bar),
            EngineArg::Reference => tables.verify_slice::<Reference>(m, &bar),
        }
        .map_err(solve_error)?;
        bad += super::tb::write_slice_verdict(&m.to_string(), "core positions", &verdict, out);
    }
    bar.finish();
    Ok(super::tb::write_verify_summary(bad, out))
}

/// `ordo tb probe`: the value and every move's outcome, from the compact slices in `dir`
/// (a position whose side to move is split is valued from its successors).
pub fn probe(at: &PositionArgs, dir: &Path, out: &mut String) -> Result<u8, CliError> {
    let pos = start_position(at)?;
    let m = super::tb::probed_material(&pos)?;
    let tables = ctb::open(pos.dims(), pos.variant, m, dir).map_err(solve_error)?;
    let (value, moves) = match at.engine {
        EngineArg::Bitboard => probe_with::<Bitboard>(&tables, &pos)?,
        EngineArg::Reference => probe_with::<Reference>(&tables, &pos)?,
    };
    write_probe(pos.to_move, value, &moves, out);
    Ok(0)
}

fn probe_with<E: Engine>(
    tables: &CompactTables,
    pos: &Position,
) -> Result<(Value, Vec<(String, Value)>), CliError> {
    let e = E::from_position(pos).map_err(|e| CliError(format!("--position: {e}")))?;
    let at = |e: crate::solve::SolveError| CliError(format!("--position: {e}"));
    Ok((
        tables.probe(&e).map_err(at)?,
        tables.rank_moves(&e).map_err(at)?,
    ))
}
