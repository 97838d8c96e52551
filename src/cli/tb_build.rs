//! `ordo tb build|verify` on the compact solver's slice files (crates/solve/src/on_disk.rs),
//! and what the two share: the slices asked for, a slice's line, the verdict lines;
//! `tb probe` is in src/cli/tb.rs.

use std::fmt::Write as _;

use super::solve::{limit_error, parse_bytes, parse_material, solve_error, Bar};
use super::{CliError, EngineArg, VariantArg};
use crate::bitboard::Bitboard;
use crate::reference::Reference;
use crate::rules::{Dims, Variant};
use crate::solve::CompactSliceReport;
use crate::solve::VerifyScope;
use crate::solve::{plies, Progress, RunWork, Stage};
use crate::solve::{BuildOptions, Material, SolveError, Verification};
use std::path::PathBuf;

/// `ordo tb build`: every compact slice up to the bound, existing files reused.
pub fn build(s: &Slices, verify: VerifyScope, out: &mut String) -> Result<u8, CliError> {
    let clock = super::clock::Clock::start();
    let bar = Bar::new();
    let (dims, variant, max, opts) = prepare_build(s, verify, &bar, |d, v, m, l| {
        crate::solve::check_memory(d, v, m, l).map(|_| ())
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
        EngineArg::Bitboard => {
            crate::solve::build_slices::<Bitboard>(dims, variant, max, &s.dir, &opts, &mut each)
        }
        EngineArg::Reference => {
            crate::solve::build_slices::<Reference>(dims, variant, max, &s.dir, &opts, &mut each)
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
        slice_status(r.built, r.seconds, r.verified)
    )
}

/// `ordo tb verify`: build every compact slice in `--dir` again and compare it with the file
/// (every value checked by the retrograde equation in the sweep).
pub fn verify(s: &Slices, out: &mut String) -> Result<u8, CliError> {
    let (dims, variant, max) = parse_slices(s)?;
    let tables = crate::solve::open_slices(dims, variant, max, &s.dir).map_err(solve_error)?;
    let bar = Bar::new();
    let mut bad = 0;
    let (n, total) = (tables.slices.len(), tables.stored_positions());
    let mut before = 0;
    for (k, (&m, slice)) in tables.slices.iter().enumerate() {
        bar.begin(&Stage {
            what: format!("slice {m}"),
            number: k + 1,
            of: n,
            run: Some(RunWork { before, total }),
        });
        before += slice.values.len() as u64;
        let log =
            crate::solve::verify_log_path(&crate::solve::slice_path(&s.dir, variant, dims, m));
        let verdict = match s.engine {
            EngineArg::Bitboard => tables.verify_slice_logged::<Bitboard>(m, &bar, &log),
            EngineArg::Reference => tables.verify_slice_logged::<Reference>(m, &bar, &log),
        }
        .map_err(solve_error)?;
        bad += write_slice_verdict(&m.to_string(), "core positions", &verdict, out);
    }
    bar.finish();
    Ok(write_verify_summary(bad, out))
}

/// Which slices: game, board, material bound, folder.
#[derive(clap::Args, Debug)]
pub struct Slices {
    /// Game: classic or x.
    #[arg(long, value_enum, default_value = "classic")]
    pub variant: VariantArg,
    /// Board, COLSxROWS.
    #[arg(long, default_value = "10x8")]
    pub board: String,
    /// Largest material, WHITE,BLACK: every slice with 1..=WHITE White and 1..=BLACK Black
    /// pieces.
    #[arg(long, default_value = "2,2")]
    pub max_pieces: String,
    /// Folder of the slice files.
    #[arg(long, default_value = "tables")]
    pub dir: PathBuf,
    /// Engine that generates the moves.
    #[arg(long, value_enum, default_value = "bitboard")]
    pub engine: EngineArg,
    /// Print one JSON report per slice instead of the table.
    #[arg(long)]
    pub json: bool,
    /// Refuse up front a build that would need more memory than this: bytes, or with a
    /// suffix K, M, G, T. The cgroup limit, RLIMIT_AS and the memory available apply anyway.
    #[arg(long, value_name = "BYTES")]
    pub memory_limit: Option<String>,
}

pub(super) fn parse_slices(s: &Slices) -> Result<(Dims, Variant, Material), CliError> {
    let dims: Dims = s
        .board
        .parse()
        .map_err(|e| CliError(format!("--board: {e}")))?;
    Ok((
        dims,
        Variant::from(s.variant),
        parse_material(&s.max_pieces)?,
    ))
}

/// The start of `ordo tb build`: the bound and the memory limit read, the
/// job sized by `size` before the folder is made (an impossible bound leaves nothing behind),
/// and the build's options with `bar` for progress.
pub(super) fn prepare_build<'a>(
    s: &Slices,
    verify: VerifyScope,
    bar: &'a Bar,
    size: impl FnOnce(Dims, Variant, Material, Option<u64>) -> Result<(), SolveError>,
) -> Result<(Dims, Variant, Material, BuildOptions<'a>), CliError> {
    let (dims, variant, max) = parse_slices(s)?;
    let memory_limit = s.memory_limit.as_deref().map(parse_bytes).transpose()?;
    size(dims, variant, max, memory_limit)
        .map_err(|e| limit_error(e, s.memory_limit.as_deref()))?;
    std::fs::create_dir_all(&s.dir).map_err(|e| CliError(format!("{}: {e}", s.dir.display())))?;
    let opts = BuildOptions {
        verify,
        memory_limit,
        progress: bar,
    };
    Ok((dims, variant, max, opts))
}

/// One slice's line of `ordo tb verify` (`what`: what was recomputed); its mismatches.
pub(super) fn write_slice_verdict(m: &str, what: &str, v: &Verification, out: &mut String) -> u64 {
    let _ = writeln!(
        out,
        "{m}: {} {what} recomputed, {}{}",
        v.checked,
        crate::text::count(v.mismatches, "mismatch"),
        v.examples
            .first()
            .map(|e| format!(" (first: {e})"))
            .unwrap_or_default()
    );
    v.mismatches
}

/// The closing line of `ordo tb verify`; its exit status.
pub(super) fn write_verify_summary(bad: u64, out: &mut String) -> u8 {
    let _ = writeln!(
        out,
        "{}",
        if bad == 0 {
            "verified: every value matches its successors"
        } else {
            "VERIFICATION FAILED"
        }
    );
    u8::from(bad > 0)
}

/// How a slice line ends: built (and in what time) or loaded, and the verification verdict.
pub(super) fn slice_status(built: bool, seconds: Option<f64>, verified: Option<bool>) -> String {
    let how = match (built, seconds) {
        (true, Some(s)) => format!(", built in {s:.1} s wall"),
        (false, _) => ", loaded".to_string(),
        _ => String::new(),
    };
    let check = match verified {
        Some(true) => ", verified",
        Some(false) => ", VERIFICATION FAILED",
        None => "",
    };
    how + check
}
