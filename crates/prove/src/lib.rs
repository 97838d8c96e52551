//! Proof-number search for Ordo and Ordo X: who wins a position, proved, for boards and
//! positions far beyond what enumerating every position can reach.
//!
//! [`prove`] runs a depth-first proof-number search (df-pn) on the bitboard engine: first for
//! the side to move, then, if that side cannot win, for the other; both refuted is a draw
//! (neither side can force a win: endless play, ORDO-3.3). Its leaves are the rules' ends
//! (ORDO-10.1 to ORDO-10.4) and, given a folder of endgame tables, every position whose
//! material they hold. Its transposition table is as large as the memory allowed; the search
//! stops at a node or time budget or when asked, and its table can be saved and loaded to
//! resume.
//!
//! Every result is read out of the search as a certificate (`spec/certificate.md`,
//! `ordo-certificate`), node by node, whether or not it is written to a file: a result whose
//! certificate does not close is not reported. `ordo prove --check` judges a certificate on
//! the reference engine.
//!
//! ```
//! use std::sync::atomic::AtomicBool;
//! use ordo_core::rules::{setup, Color, Dims, Variant};
//! use ordo_prove::{prove, Options, Outcome};
//!
//! // Ordo X on 4 x 3 from the first-row setup: White wins.
//! let start = setup::filled_rows(Dims::new(4, 3).unwrap(), 1, Variant::X).unwrap();
//! let report = prove(&start, &Options::default(), None, None, &AtomicBool::new(false), &mut |_| {})
//!     .unwrap();
//! assert_eq!(report.outcome, Outcome::Wins(Color::White));
//! assert_eq!(report.parts[0].1.longest, Some(3));
//! ```

use std::io::{self, BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use ordo_bitboard::Bitboard;
use ordo_certificate::{Claim, TableFile, Writer};
use ordo_core::rules::{Color, Engine, Position};
use ordo_solve::{table_files_read, Material, Tablebase};

mod compose;
mod extract;
mod leaves;
mod problem;
mod search;
mod table;
mod threat;
mod win;

pub use compose::{compose_from_games, Composing};
pub use extract::PartSize;
pub use problem::verify_problem;
pub use search::Tick;
pub use table::{ENTRY_BYTES, INF};

use leaves::Leaves;
use search::{Budget, Search};
use table::Table;
use threat::WinCheck;

/// How a proof search may run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// Bytes for the transposition table.
    pub table_bytes: u64,
    /// The most nodes to expand (both searches together).
    pub nodes: Option<u64>,
    /// The longest time to search.
    pub time: Option<Duration>,
    /// Children start with δ = their own number of moves (df-pn+ mobility), so that moves
    /// leaving the other side few replies are tried first; off (the default), every child
    /// starts at 1, 1. Counting every child's moves costs more than the ordering saves on
    /// the boards measured (docs/guide.md, "Proving who wins").
    pub mobility: bool,
    /// Without mobility, children start with numbers from how far each side's most
    /// advanced piece is from the other's home row (on by default: fewer nodes and CPU
    /// seconds on the boards measured); off, at 1, 1.
    pub advance: bool,
    /// A new child whose side to move can end the game with its next move by the pieces
    /// is a leaf, won for that side, and is not expanded (the one-ply win check). `None`
    /// (the default) turns it on in classic Ordo, where the masks find most such wins, and
    /// off in Ordo X, where finding them means generating the child's turns, which costs
    /// more than the nodes it saves (docs/guide.md, "Proving who wins").
    pub win_check: Option<bool>,
    /// Weak proof numbers: a node's cost of refutation is the largest of its children's
    /// costs plus one for each other child not yet refuted, rather than their sum. Ordo's
    /// moves commute (two moves in either order reach one position), so a sum counts a
    /// shared position once for every path to it; the weak number does not, and in wide
    /// trees it keeps the search nearer the cheapest proof. Off by default: it searched 43 %
    /// to 75 % fewer nodes on the largest boards measured (Ordo X row2 5 x 5 and 4 x 5,
    /// classic row2 4 x 5) but 7 % to 26 % more on the smaller ones (docs/guide.md, "Proving
    /// who wins").
    pub weak: bool,
    /// A file to resume from (if it exists) and to save the table to when a search stops
    /// short of a result.
    pub checkpoint: Option<PathBuf>,
    /// What to prove: who wins (the default), or whether one side wins within a number of
    /// plies.
    pub goal: Goal,
}

/// What a proof search sets out to prove.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Goal {
    /// Who wins, or that neither side can force a win. A side's search that ends stuck on
    /// classic Ordo's cycles goes on bounded by 1, 3, 5, … plies (no cycles), which proves
    /// its win if it has one ([`Report::bounded`]).
    #[default]
    Value,
    /// Whether `side` can force a win whose last move comes within `plies` plies (a
    /// problem's stipulation: "win in N" is 2N - 1 plies for the side to move, 2N - 2 after
    /// its first move). The outcome is [`Outcome::Wins`] (within the plies, with a
    /// certificate whose longest line is at most `plies`), [`Outcome::CannotWin`] (not
    /// within the plies; no certificate: the format has no bounded refutation) or
    /// [`Outcome::NotProved`]. A bounded search has no cycles: every move spends a ply.
    WinWithin {
        /// The side whose win is sought.
        side: Color,
        /// The plies it has.
        plies: u32,
    },
}

impl Goal {
    fn left(self) -> search::Left {
        match self {
            Goal::Value => None,
            Goal::WinWithin { plies, .. } => Some(plies),
        }
    }
}

impl Default for Options {
    /// 64 MiB of table, no budget, mobility off, advance on, the win check as the game has it,
    /// summed proof numbers, no checkpoint.
    fn default() -> Options {
        Options {
            table_bytes: 64 << 20,
            nodes: None,
            time: None,
            mobility: false,
            advance: true,
            win_check: None,
            weak: false,
            checkpoint: None,
            goal: Goal::Value,
        }
    }
}

/// What a proof search established about the side to move's position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// This side can force a win.
    Wins(Color),
    /// Neither side can force a win.
    Draw,
    /// This side cannot force a win; whether the other can is not proved.
    CannotWin(Color),
    /// Nothing was proved within the budget.
    NotProved,
}

/// A proof search's result and figures.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    /// The position.
    pub position: Position,
    /// What was proved.
    pub outcome: Outcome,
    /// Each certificate part: its claim and size.
    pub parts: Vec<(Claim, PartSize)>,
    /// Nodes expanded by the searches (and re-searches while reading out).
    pub nodes: u64,
    /// Each search's attacker and root proof and disproof numbers at its end.
    pub roots: Vec<(Color, u32, u32)>,
    /// The plies of the bounded search that proved the win when the search for who wins was
    /// stuck on cycles (see [`Goal::Value`]); `None` otherwise.
    pub bounded: Option<u32>,
    /// Why the search stopped short, if it did (`budget` or `interrupted`).
    pub stopped: Option<String>,
    /// Wall time.
    pub elapsed: Duration,
    /// Table probes that gave a value.
    pub table_probes: u64,
    /// Transposition table entries in use and in all.
    pub table: (usize, usize),
}

/// Why a proof search could not run or write its results.
#[derive(Debug, thiserror::Error)]
pub enum ProveError {
    /// The position is not a position of the rules (ORDO-2.3).
    #[error("the position cannot be played: {0}")]
    Position(String),
    /// The certificate or checkpoint could not be written or read.
    #[error("{path}: {reason}")]
    File {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        reason: String,
    },
}

fn file_error(path: &Path, reason: impl ToString) -> ProveError {
    ProveError::File {
        path: path.to_path_buf(),
        reason: reason.to_string(),
    }
}

/// Prove who wins `pos` on the bitboard engine (see the crate's documentation), with the
/// tables in `tables` as leaves, writing the certificate to `certificate` if given. `stop`
/// ends the search early when set (Ctrl-C); `progress` sees the search now and then.
pub fn prove(
    pos: &Position,
    opts: &Options,
    tables: Option<&Tablebase>,
    certificate: Option<&Path>,
    stop: &AtomicBool,
    progress: &mut dyn FnMut(&Tick),
) -> Result<Report, ProveError> {
    prove_on::<Bitboard>(pos, opts, tables, certificate, stop, progress)
}

/// Whether `side` wins `pos` within `plies` plies: [`prove`] with that goal (and never a
/// checkpoint: a bounded search is one of many short ones), the other options as `opts`.
pub(crate) fn prove_within(
    pos: &Position,
    (side, plies): (Color, u32),
    opts: &Options,
    tables: Option<&Tablebase>,
    certificate: Option<&Path>,
    stop: &AtomicBool,
) -> Result<Report, ProveError> {
    let opts = Options {
        goal: Goal::WinWithin { side, plies },
        checkpoint: None,
        ..opts.clone()
    };
    prove(pos, &opts, tables, certificate, stop, &mut |_| {})
}

/// [`prove`] on the engine `E`.
pub fn prove_on<E: Engine>(
    pos: &Position,
    opts: &Options,
    tables: Option<&Tablebase>,
    certificate: Option<&Path>,
    stop: &AtomicBool,
    progress: &mut dyn FnMut(&Tick),
) -> Result<Report, ProveError> {
    let root = E::from_position(pos).map_err(|e| ProveError::Position(e.to_string()))?;
    let start = Instant::now();
    let win_check = opts
        .win_check
        .unwrap_or(pos.variant == ordo_core::rules::Variant::Classic);
    // The win check's cache takes a 32nd of the memory, the table the rest.
    let check_bytes = if win_check { opts.table_bytes / 32 } else { 0 };
    let mut table = Table::with_bytes(opts.table_bytes - check_bytes);
    if let Some(path) = opts.checkpoint.as_deref().filter(|p| p.exists()) {
        load_checkpoint(path, pos, &mut table)?;
    }
    let budget = Budget {
        nodes: opts.nodes,
        deadline: opts.time.map(|t| start + t),
    };
    let leaves = Leaves::new(tables);
    let mut s = Search::new(table, leaves, opts.mobility, budget, stop, progress);
    s.advance = opts.advance;
    s.weak = opts.weak;
    s.win_check = win_check.then(|| WinCheck::with_bytes(check_bytes));
    let (mut outcome, roots, mut parts, left) =
        search_and_read(&mut s, &root, opts.goal, certificate, tables)?;
    let stopped = s.stopped.then(|| stop_reason(stop));
    if stopped.is_some() {
        outcome = Outcome::NotProved;
        parts.clear();
        if let Some(path) = opts.checkpoint.as_deref() {
            save_checkpoint(path, pos, &s.table)?;
        }
    }
    let won = matches!(outcome, Outcome::Wins(_));
    let bounded = left.filter(|_| opts.goal == Goal::Value && won);
    Ok(Report {
        position: pos.clone(),
        outcome,
        parts,
        nodes: s.nodes,
        roots,
        bounded,
        stopped,
        elapsed: start.elapsed(),
        table_probes: s.leaves.probes,
        table: {
            let (slots, used) = s.table.fill();
            (used, slots)
        },
    })
}

/// Search for the goal and read the result out (into the certificate file, if one is
/// asked for): the outcome, the roots' numbers and the parts read out.
fn search_and_read<E: Engine>(
    s: &mut Search<'_, E>,
    root: &E,
    goal: Goal,
    certificate: Option<&Path>,
    tables: Option<&Tablebase>,
) -> Result<(Outcome, Roots, Parts, search::Left), ProveError> {
    let (mut outcome, mut roots, mut left) = match goal {
        Goal::Value => search_both(s, root),
        Goal::WinWithin { side, plies } => {
            let (o, r) = search_within(s, root, side, plies);
            (o, r, goal.left())
        }
    };
    let mut parts = Vec::new();
    if s.stopped {
        return Ok((outcome, roots, parts, left));
    }
    (outcome, parts) = read_out(s, root, left, outcome, certificate, tables)?;
    let settled = matches!(outcome, Outcome::Wins(_) | Outcome::Draw) || left.is_some();
    if !settled && !s.stopped {
        // Stored refutations resting on cycles misled the search: again without them.
        s.keep_tainted = false;
        s.table.drop_tainted();
        (outcome, roots, left) = search_both(s, root);
        if !s.stopped {
            (outcome, parts) = read_out(s, root, left, outcome, certificate, tables)?;
        }
    }
    Ok((outcome, roots, parts, left))
}

fn stop_reason(stop: &AtomicBool) -> String {
    if stop.load(std::sync::atomic::Ordering::Relaxed) {
        "interrupted".into()
    } else {
        "budget".into()
    }
}

/// Search for the side to move, then, unless it wins, for the other: a win of either settles
/// it, two refutations are a draw, one refutation that the side refuted cannot win. A search
/// stuck on cycles is followed by bounded ones ([`settle`]); the plies of the bounded search
/// that proved a win, if one did.
fn search_both<E: Engine>(s: &mut Search<'_, E>, root: &E) -> (Outcome, Roots, search::Left) {
    let mover = root.side_to_move();
    let (p, d, left) = settle(s, root, mover);
    let mut roots = vec![(mover, p, d)];
    if p == 0 || s.stopped {
        let outcome = if p == 0 {
            Outcome::Wins(mover)
        } else {
            Outcome::NotProved
        };
        return (outcome, roots, left);
    }
    let other = mover.opponent();
    let (p2, d2, left) = settle(s, root, other);
    roots.push((other, p2, d2));
    let outcome = match (d, p2, d2) {
        (_, 0, _) => Outcome::Wins(other),
        (0, _, 0) => Outcome::Draw,
        (0, _, _) => Outcome::CannotWin(mover),
        (_, _, 0) => Outcome::CannotWin(other),
        _ => Outcome::NotProved,
    };
    (outcome, roots, left)
}

/// The longest bound [`settle`] tries.
const DEEPEST: u32 = 1_000;

/// Search whether `attacker` wins `root`. If the search ends stuck, neither proved nor
/// refuted (a refutation resting on a cycle through the path misleads it: the graph-history
/// interaction of classic Ordo's endless lines), search again bounded by 1, 3, 5, … plies
/// (2, 4, … when the other side moves first) until a bound proves the win, the budget
/// ends, or the bound passes [`DEEPEST`]: a bounded search has no cycles, since every move
/// spends a ply, and a win within a bound is a win. Its numbers and, for a win so proved,
/// its bound. A bounded refutation says nothing of longer lines, so a stuck search that the
/// bounds do not turn into a win stays unsettled.
fn settle<E: Engine>(s: &mut Search<'_, E>, root: &E, attacker: Color) -> (u32, u32, search::Left) {
    let (p, d) = s.run(root, attacker, None);
    if p == 0 || d == 0 || s.stopped {
        return (p, d, None);
    }
    let mut bound = if attacker == root.side_to_move() {
        1
    } else {
        2
    };
    while bound <= DEEPEST {
        let (bp, bd) = s.run(root, attacker, Some(bound));
        if bp == 0 {
            return (bp, bd, Some(bound));
        }
        if s.stopped {
            break;
        }
        bound += 2;
    }
    (p, d, None)
}

/// Search whether `side` wins `root` within `plies` plies.
fn search_within<E: Engine>(
    s: &mut Search<'_, E>,
    root: &E,
    side: Color,
    plies: u32,
) -> (Outcome, Vec<(Color, u32, u32)>) {
    let (p, d) = s.run(root, side, Some(plies));
    let outcome = match (p, d) {
        _ if s.stopped => Outcome::NotProved,
        (0, _) => Outcome::Wins(side),
        (_, 0) => Outcome::CannotWin(side),
        _ => Outcome::NotProved,
    };
    (outcome, vec![(side, p, d)])
}

/// The certificate parts an outcome needs (`left`: the plies of a bounded search, which
/// certifies only wins).
fn claims(outcome: Outcome, left: search::Left) -> Vec<Claim> {
    match outcome {
        Outcome::CannotWin(_) if left.is_some() => Vec::new(),
        Outcome::Wins(c) => vec![Claim::Wins(c)],
        Outcome::Draw => vec![
            Claim::CannotWin(Color::White),
            Claim::CannotWin(Color::Black),
        ],
        Outcome::CannotWin(c) => vec![Claim::CannotWin(c)],
        Outcome::NotProved => Vec::new(),
    }
}

/// What remains of an outcome once a part failed to read out.
fn without(outcome: Outcome, failed: Claim) -> Outcome {
    match (outcome, failed) {
        (Outcome::Draw, Claim::CannotWin(c)) => Outcome::CannotWin(c.opponent()),
        _ => Outcome::NotProved,
    }
}

type Parts = Vec<(Claim, PartSize)>;

/// Each search's attacker and root proof and disproof numbers.
type Roots = Vec<(Color, u32, u32)>;

/// Read the outcome's parts out of the search, into the certificate file if one is asked for;
/// a part that does not close weakens the outcome, and the rest are read again.
fn read_out<E: Engine>(
    s: &mut Search<'_, E>,
    root: &E,
    left: search::Left,
    mut outcome: Outcome,
    certificate: Option<&Path>,
    tables: Option<&Tablebase>,
) -> Result<(Outcome, Parts), ProveError> {
    loop {
        let wanted = claims(outcome, left);
        if wanted.is_empty() {
            return Ok((outcome, Vec::new()));
        }
        let pos = root.to_position();
        let read = Reading {
            root,
            left,
            pos: &pos,
            wanted: &wanted,
            tables,
        };
        let attempt = match certificate {
            Some(path) => write_file(s, &read, path)?,
            None => write_parts(s, &read, io::sink())
                .map_err(|e| file_error(Path::new("(no file)"), e))?,
        };
        match attempt {
            Ok(parts) => return Ok((outcome, parts)),
            Err(failed) => outcome = without(outcome, failed),
        }
    }
}

/// What a certificate is read out of: the root, its plies left, its position, the claims
/// wanted and the tables of its leaves.
struct Reading<'a, E> {
    root: &'a E,
    left: search::Left,
    pos: &'a Position,
    wanted: &'a [Claim],
    tables: Option<&'a Tablebase>,
}

fn write_file<E: Engine>(
    s: &mut Search<'_, E>,
    read: &Reading<'_, E>,
    path: &Path,
) -> Result<Result<Parts, Claim>, ProveError> {
    let mut result = None;
    let written = ordo_system::files::write_atomically_with(path, |w| {
        let r = write_parts(s, read, w)?;
        let failed = r.is_err();
        result = Some(r);
        if failed {
            return Err(io::Error::other("a part did not close"));
        }
        Ok(())
    });
    match (written, result) {
        (_, Some(Err(claim))) => Ok(Err(claim)),
        (Ok(()), Some(parts)) => Ok(parts),
        (Err(e), _) => Err(file_error(path, e)),
        (Ok(()), None) => Err(file_error(path, "nothing was written")),
    }
}

/// Write the certificate of the claims wanted to `out`; the claim that failed to close, if
/// one did.
fn write_parts<E: Engine, W: Write>(
    s: &mut Search<'_, E>,
    read: &Reading<'_, E>,
    out: W,
) -> io::Result<Result<Parts, Claim>> {
    let mut w = Writer::new(out, read.pos)?;
    let mut parts = Vec::new();
    for &claim in read.wanted {
        w.claim(claim)?;
        let read_out = if claim.is_win() {
            win::extract_win(s, read.root, read.left, claim, &mut w)
        } else {
            extract::extract(s, read.root, read.left, claim, &mut w)
        };
        let size = match read_out {
            Ok(size) => size,
            Err(_) => return Ok(Err(claim)),
        };
        let files = table_files(read.pos, &size.materials, read.tables)?;
        w.end_claim(size.nodes, &files)?;
        parts.push((claim, size));
    }
    w.finish()?;
    Ok(Ok(parts))
}

/// The table files the leaves of these materials are read from, with their checksums.
fn table_files(
    pos: &Position,
    materials: &[Material],
    tables: Option<&Tablebase>,
) -> io::Result<Vec<TableFile>> {
    let Some(dir) = tables.and_then(|t| t.folder()) else {
        return Ok(Vec::new());
    };
    let mut names: Vec<String> = materials
        .iter()
        .flat_map(|&m| table_files_read(pos.variant, pos.dims(), m))
        .collect();
    names.sort();
    names.dedup();
    names
        .into_iter()
        .map(|name| {
            let hash = ordo_solve::content_checksum(&dir.join(&name))
                .map_err(|e| io::Error::other(e.to_string()))?;
            Ok(TableFile {
                name,
                blake3: hash.to_hex().to_string(),
            })
        })
        .collect()
}

const CHECKPOINT_MAGIC: &str = "ordo-prove-table 1";

/// Save the transposition table to `path` (atomically): a header naming the position, the
/// entries, and the BLAKE3 of everything before it.
fn save_checkpoint(path: &Path, pos: &Position, table: &Table) -> Result<(), ProveError> {
    ordo_system::files::write_atomically_with(path, |w| {
        let mut body = Vec::new();
        let n = table.save(&mut body)?;
        let head = format!("{CHECKPOINT_MAGIC}\n{pos}\n{n}\n");
        let mut h = blake3::Hasher::new();
        h.update(head.as_bytes());
        h.update(&body);
        w.write_all(head.as_bytes())?;
        w.write_all(&body)?;
        w.write_all(h.finalize().as_bytes())
    })
    .map_err(|e| file_error(path, e))
}

/// Load a checkpoint of the same position into `table`.
fn load_checkpoint(path: &Path, pos: &Position, table: &mut Table) -> Result<(), ProveError> {
    let fail = |r: &str| file_error(path, format!("not a checkpoint of this search: {r}"));
    let f = ordo_system::files::open_regular(path).map_err(|e| file_error(path, e))?;
    let len = f.metadata().map_err(|e| file_error(path, e))?.len();
    let mut r = BufReader::new(f);
    let mut head = String::new();
    for _ in 0..3 {
        (&mut r)
            .take(4096)
            .read_line(&mut head)
            .map_err(|e| file_error(path, e))?;
    }
    let lines: Vec<&str> = head.lines().collect();
    let [magic, p, n] = lines[..] else {
        return Err(fail("its header is cut"));
    };
    if magic != CHECKPOINT_MAGIC || p != pos.to_string() {
        return Err(fail("another format or another position"));
    }
    let n: u64 = n.parse().map_err(|_| fail("its entry count"))?;
    if Some(len)
        != n.checked_mul(24)
            .and_then(|b| b.checked_add(head.len() as u64 + 32))
    {
        return Err(fail("its length does not match its entry count"));
    }
    let mut body = Vec::new();
    r.read_to_end(&mut body).map_err(|e| file_error(path, e))?;
    let (entries, hash) = body.split_at(body.len() - 32);
    let mut h = blake3::Hasher::new();
    h.update(head.as_bytes());
    h.update(entries);
    if h.finalize().as_bytes() != hash {
        return Err(fail("its checksum does not match (damaged)"));
    }
    table
        .load(&mut &entries[..], n)
        .map_err(|e| file_error(path, e))
}
