//! `ordo tb build|verify` on the compact solver's slice files (crates/solve/src/ctb.rs);
//! `tb probe` is in src/cli/tb.rs.

use std::fmt::Write as _;

use super::solve::{limit_error, solve_error, Bar};
use super::tb::{parse_slices, prepare_build, Slices};
use super::{CliError, EngineArg};
use crate::bitboard::Bitboard;
use crate::reference::Reference;
use crate::solve::compact;
use crate::solve::ctb::{self, CompactSliceReport};
use crate::solve::VerifyScope;
use crate::solve::{plies, Progress, RunWork, Step};

/// `ordo tb build`: every compact slice up to the bound, existing files reused.
pub fn build(s: &Slices, verify: VerifyScope, out: &mut String) -> Result<u8, CliError> {
    let clock = super::clock::Clock::start();
    let bar = Bar::new();
    let (dims, variant, max, opts) = prepare_build(s, verify, &bar, |d, v, m, l| {
        ctb::check_memory(d, v, m, l).map(|_| ())
    })?;
    let flag = super::interrupt::catch()?;
    let progress = super::interrupt::Stoppable { inner: &bar, flag };
    let opts = crate::solve::BuildOptions {
        progress: &progress,
        ..opts
    };
    let mut shown = Shown::default();
    let mut each = |r: &CompactSliceReport| shown.slice(r, s.json, &bar);
    let result = match s.engine {
        EngineArg::Bitboard => ctb::build::<Bitboard>(dims, variant, max, &s.dir, &opts, &mut each),
        EngineArg::Reference => {
            ctb::build::<Reference>(dims, variant, max, &s.dir, &opts, &mut each)
        }
    };
    bar.finish();
    if let Err(e) = result {
        let typed = s.memory_limit.as_deref();
        return super::interrupt::stopped(
            e,
            "the same command",
            |e| limit_error(e, typed),
            |t| bar.say_after(t),
        );
    }
    if let Some(code) = shown.failed {
        return Ok(code);
    }
    if !s.json {
        let _ = writeln!(out, "this run: {}", clock.text(2));
    }
    Ok(u8::from(shown.refuted))
}

/// The slices of a build as they end: each one's line is on stdout the moment its slice is
/// done (a run of days, killed outright, still leaves the lines of what it finished).
#[derive(Default)]
struct Shown {
    /// A slice failed its verification.
    refuted: bool,
    /// Standard output could not be written (the error is said): the exit status.
    failed: Option<u8>,
}

impl Shown {
    fn slice(&mut self, r: &CompactSliceReport, json: bool, bar: &Bar) {
        self.refuted |= r.verified == Some(false);
        if self.failed.is_some() {
            return;
        }
        let text = if json {
            serde_json::to_string(r).unwrap_or_default()
        } else {
            slice_line(r)
        };
        self.failed = bar.above(|| super::out::stdout(&format!("{text}\n")));
    }
}

/// One slice as `ordo tb build` prints it.
pub fn slice_line(r: &CompactSliceReport) -> String {
    let st = &r.stats;
    // A slice of unequal material also answers for its colour twin (the counts swapped).
    let m = st.material;
    let twin = if m.white != m.black {
        format!(" and {}v{}", m.black, m.white)
    } else {
        String::new()
    };
    format!(
        "{} {} {}{twin}: {} ({}): {} won, {} lost, {} drawn, longest {}{}",
        r.variant,
        r.board,
        st.material,
        crate::text::count(st.positions, "core position"),
        crate::text::count(st.entries, "byte"),
        st.wins,
        st.losses,
        st.draws,
        plies(st.longest),
        super::tb::slice_status(r.built, r.seconds, r.verified)
    )
}

/// `ordo tb verify`: build every compact slice in `--dir` again and compare it with the file
/// (every value checked by the retrograde equation in the sweep).
pub fn verify(s: &Slices, out: &mut String) -> Result<u8, CliError> {
    let (dims, variant, max) = parse_slices(s)?;
    let tables = ctb::open(dims, variant, max, &s.dir).map_err(solve_error)?;
    let bar = Bar::new();
    let mut bad = 0;
    let (n, total) = (tables.slices.len(), tables.stored_positions());
    let mut before = 0;
    for (k, (&m, slice)) in tables.slices.iter().enumerate() {
        bar.begin(&Step {
            what: format!("slice {m}"),
            number: k + 1,
            of: n,
            run: Some(RunWork { before, total }),
        });
        before += slice.values.len() as u64;
        let log = compact::verify_log_path(&ctb::path(&s.dir, variant, dims, m));
        let verdict = match s.engine {
            EngineArg::Bitboard => tables.verify_slice_logged::<Bitboard>(m, &bar, &log),
            EngineArg::Reference => tables.verify_slice_logged::<Reference>(m, &bar, &log),
        }
        .map_err(solve_error)?;
        bad += super::tb::write_slice_verdict(&m.to_string(), "core positions", &verdict, out);
    }
    bar.finish();
    Ok(super::tb::write_verify_summary(bad, out))
}
