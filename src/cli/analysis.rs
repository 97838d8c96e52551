//! `ordo analysis games DIR`: the Markdown table of analysis/games.md, built from the JSON
//! reports that the retro solver wrote (`ordo solve --solver retro --json` up to commit
//! 355d057; analysis/run.sh), and `ordo analysis tablebases` likewise for its slices.

use std::fmt::Write as _;
use std::path::PathBuf;

use super::CliError;
use crate::solve::{GameReport, Outcome, SliceReport, Wdl};

/// Arguments of `ordo analysis`.
#[derive(clap::Args, Debug)]
pub struct AnalysisArgs {
    #[command(subcommand)]
    pub what: AnalysisCommand,
}

#[derive(clap::Subcommand, Debug)]
pub enum AnalysisCommand {
    /// Tabulate the small-board solutions (JSON reports of `ordo solve --json`) in DIR.
    Games {
        /// Folder of the JSON reports.
        dir: PathBuf,
    },
    /// Tabulate endgame slices (JSON lines of `ordo tb build --json`) from FILES.
    Tablebases {
        /// Files of JSON lines, one slice a line.
        files: Vec<PathBuf>,
    },
}

/// Run `ordo analysis`.
pub fn run(args: &AnalysisArgs, out: &mut String) -> Result<u8, CliError> {
    match &args.what {
        AnalysisCommand::Games { dir } => games(dir, out).map(|()| 0),
        AnalysisCommand::Tablebases { files } => tablebases(files, out).map(|()| 0),
    }
}

/// The table of small-board solutions from the solve reports in `dir`.
fn games(dir: &std::path::Path, out: &mut String) -> Result<(), CliError> {
    let mut reports = read_game_reports(dir)?;
    reports.sort_by_key(|r| {
        let o = &r.outcome;
        (o.variant, o.setup, o.board.len(), o.board.to_string())
    });
    let _ = writeln!(
        out,
        "| game | board | setup | start (White moves first) | plies | winning first moves | positions | moves | draws | stalemates | longest | solve s | peak MB | verified | reproduce |"
    );
    let _ = writeln!(
        out,
        "|---|---|---|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---|---|"
    );
    for r in &reports {
        write_game_row(r, out);
    }
    let with_draws = reports.iter().filter(|r| r.counts.draws > 0).count();
    let stalemates: u64 = reports.iter().map(|r| r.counts.stalemates).sum();
    let _ = writeln!(
        out,
        "\n{} of {} have drawn positions (infinite play); {} in all.",
        with_draws,
        crate::text::count(reports.len(), "solved board"),
        crate::text::count(stalemates, "stalemate position")
    );
    let _ = writeln!(
        out,
        "\n{RETRO}`ordo` stands for `cargo run --release --`; the command of a row solves the board again with the compact solver (the start's value and winning first moves; its counts are of core positions)."
    );
    Ok(())
}

/// The largest report file read (a solve report, a list of slice reports): those of analysis/
/// are under 128 KiB.
const REPORT_FILE: crate::files::Limit = crate::files::Limit {
    bytes: 16 << 20,
    kind: "a report file",
};

/// The most the solve reports of one folder may hold together.
const REPORT_FOLDER: crate::files::Limit = crate::files::Limit {
    bytes: 256 << 20,
    kind: "a folder of reports",
};

/// Every solve report (`*.json`) in `dir`, in name order.
fn read_game_reports(dir: &std::path::Path) -> Result<Vec<GameReport>, CliError> {
    let files = crate::files::read_folder(dir, "json", REPORT_FILE, REPORT_FOLDER)?;
    let mut reports = Vec::new();
    for (path, text) in files {
        let r: GameReport = serde_json::from_str(&text)
            .map_err(|e| CliError(format!("{}: not a solve report: {e}", path.display())))?;
        reports.push(r);
    }
    Ok(reports)
}

/// One row of the games table.
fn write_game_row(r: &GameReport, out: &mut String) {
    let o = &r.outcome;
    let game = crate::solve::report_name(o.variant);
    let start = match o.start {
        Wdl::Win => "White wins",
        Wdl::Loss => "Black wins",
        Wdl::Draw => "draw",
    };
    let plies = o.optimal_length.map_or("–".to_string(), |n| n.to_string());
    let winning = winning_first_moves(o);
    let c = &r.counts;
    let _ = writeln!(
        out,
        "| {game} | {} | {} | {start} | {plies} | {winning} | {} | {} | {} | {} | {} | {} | `ordo solve --variant {} --board {} --setup {} --verify` |",
        o.board,
        o.setup,
        c.positions,
        c.edges,
        c.draws,
        c.stalemates,
        c.longest,
        cost_cells(r.seconds, r.peak_memory, r.verified),
        o.variant,
        o.board,
        o.setup
    );
}

/// How many first moves win, of how many, and the first four of them with their lengths.
fn winning_first_moves(r: &Outcome) -> String {
    let shown: Vec<String> = r
        .winning_first_moves
        .iter()
        .take(4)
        .map(|m| format!("`{}` ({})", m.mv, m.plies))
        .collect();
    let more = r.winning_first_moves.len().saturating_sub(4);
    format!(
        "{} of {}{}{}{}",
        r.winning_first_moves.len(),
        r.first_moves,
        if shown.is_empty() { "" } else { ": " },
        shown.join(", "),
        if more > 0 {
            format!(", +{more}")
        } else {
            String::new()
        }
    )
}

fn tablebases(files: &[PathBuf], out: &mut String) -> Result<(), CliError> {
    let mut rows: Vec<SliceReport> = Vec::new();
    for path in files {
        let text = crate::files::read_text(path, REPORT_FILE)?;
        for (n, line) in text.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            let r: SliceReport = serde_json::from_str(line).map_err(|e| {
                CliError(format!(
                    "{} line {}: not a slice report: {e}",
                    path.display(),
                    n + 1
                ))
            })?;
            rows.push(r);
        }
    }
    let _ = writeln!(
        out,
        "| game | board | material | positions | won | lost | drawn | stalemates | cannot reconnect | longest (plies) | build s | peak MB | verified | reproduce |"
    );
    let _ = writeln!(
        out,
        "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|"
    );
    for r in &rows {
        let c = &r.counts;
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | `ordo tb build --variant {} --board {} --max-pieces {},{} --verify` |",
            crate::solve::report_name(r.variant),
            r.board,
            r.material,
            c.positions,
            c.wins,
            c.losses,
            c.draws,
            c.stalemates,
            c.cannot_reconnect,
            c.longest,
            cost_cells(r.seconds, r.peak_memory, r.verified),
            r.variant,
            r.board,
            r.material.white,
            r.material.black
        );
    }
    let _ = writeln!(
        out,
        "\n{RETRO}`ordo` stands for `cargo run --release --`; the command of a row builds the slices again with the compact solver (its counts are of core positions), every smaller slice first (or loads it from `tables/`)."
    );
    Ok(())
}

/// Where the counts of both tables come from.
const RETRO: &str = "These reports were produced by the retro solver (every reachable position, with how each game ends), which the product shipped up to commit 355d057 (`--solver retro`) and the test tooling keeps as an oracle (ordo-testkit); they stay as the published record. ";

/// The cells both reports end with: seconds, peak megabytes, and whether it was verified.
fn cost_cells(s: Option<f64>, peak: Option<u64>, v: Option<bool>) -> String {
    format!("{} | {} | {}", seconds(s), megabytes(peak), verified(v))
}

fn seconds(s: Option<f64>) -> String {
    s.map_or("–".into(), |s| format!("{s:.1}"))
}

fn megabytes(b: Option<u64>) -> String {
    b.map_or("–".into(), |b| format!("{:.0}", b as f64 / 1e6))
}

fn verified(v: Option<bool>) -> &'static str {
    match v {
        Some(true) => "yes",
        Some(false) => "FAILED",
        None => "not run",
    }
}
