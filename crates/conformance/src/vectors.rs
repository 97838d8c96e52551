//! The conformance vectors of `spec/conformance/` (format: `spec/conformance/README.md`).
//!
//! Two files, JSON Lines, one position per line:
//! - `clauses.jsonl`: one vector per case of the case suite (`spec/cases/*.toml`,
//!   [`super::cases`]): at least one for every clause of `spec/clauses.toml` and for every
//!   situation a ruling decides, on small boards and on the standard 10 x 8 board;
//! - `playouts.jsonl`: positions reached by seeded random playouts ([`random_picks`]) from the
//!   standard start, the 8 x 8 start and small boards, in both games.
//!
//! Only the positions, the clauses they exercise and their notes come from the suite; the
//! moves, status and perft counts of a vector are computed by the reference engine
//! ([`build_vector`]), so `ordo conformance generate` rebuilds both files byte for byte.

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use super::cases::Case;
pub use super::cases::{perft_list, PERFT_LEAF_BUDGET, PERFT_MAX_DEPTH};
use crate::files::Limit;
use crate::notation::{
    format_move, format_position, parse_position, sorted_moves, sorted_notation, NotationError,
};
use crate::reference::{is_one_group, Reference};
use crate::rules::Rng;
use crate::rules::{setup, Color, Dims, Engine, Heading, Move, Position, Status, Step, Variant};
use crate::rules::{PositionError, Square, WinReason};

/// The file of vectors generated from the case suite (`spec/cases/`).
pub const CLAUSES_FILE: &str = "clauses.jsonl";
/// The file of random playout vectors.
pub const PLAYOUTS_FILE: &str = "playouts.jsonl";
/// The seed of the random playout vectors.
pub const PLAYOUT_SEED: u64 = 20_090_115;
/// How many random playout vectors are written.
pub const PLAYOUT_COUNT: usize = 100;

/// One test vector: a position and everything an engine must say about it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Vector {
    /// Unique name of the vector within the kit.
    pub id: String,
    /// `classic` or `x` (the same as the variant field of `position`).
    pub variant: String,
    /// The position in the canonical notation of spec/notation.md.
    pub position: String,
    /// Every legal move in canonical notation, sorted by byte order, each once.
    pub moves: Vec<String>,
    /// The game status.
    pub status: VectorStatus,
    /// The clauses the vector exercises.
    pub clauses: Vec<String>,
    /// `perft[i]` is perft(i + 1): the number of move sequences of length i + 1 (turns, not
    /// positions, ORDOX-5.1).
    pub perft: Vec<u64>,
    /// One line: what the vector shows.
    pub note: String,
}

/// The status of a vector's position.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "state", rename_all = "kebab-case")]
pub enum VectorStatus {
    /// The side to move has a legal move.
    Ongoing,
    /// The game is over.
    Won {
        /// `white` or `black`.
        winner: String,
        /// `home-row`, `no-pieces`, `cannot-reconnect` or `no-legal-move`.
        reason: String,
        /// The clause that decided it (`ORDO-10.1` .. `ORDO-10.4`).
        clause: String,
    },
}

impl VectorStatus {
    /// The vector form of a status.
    pub fn of(s: Status) -> VectorStatus {
        match s {
            Status::Ongoing => VectorStatus::Ongoing,
            Status::Won { winner, reason } => VectorStatus::Won {
                winner: winner.name().to_string(),
                reason: reason.name().to_string(),
                clause: reason.clause().to_string(),
            },
        }
    }

    /// Back to a status; `None` when a field holds an unknown name or the clause does not
    /// match the reason.
    pub fn to_status(&self) -> Option<Status> {
        match self {
            VectorStatus::Ongoing => Some(Status::Ongoing),
            VectorStatus::Won {
                winner,
                reason,
                clause,
            } => {
                let winner = Color::ALL.into_iter().find(|c| c.name() == winner)?;
                let reason = WinReason::from_name(reason)?;
                (reason.clause() == clause).then_some(Status::Won { winner, reason })
            }
        }
    }
}

/// Why vectors cannot be built, written or read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum VectorError {
    /// The position of a case of the suite does not read.
    #[error("case {case}: position: {error}")]
    CasePosition {
        /// The id of the case.
        case: String,
        /// Why its position does not read.
        error: NotationError,
    },
    /// The reference engine refuses the position of an entry.
    #[error("vector {id}: {error}")]
    Position {
        /// The id of the entry.
        id: String,
        /// The rule of setting up a position that it breaks.
        error: PositionError,
    },
    /// A file or folder cannot be read, created or written.
    #[error("{path}: {reason}")]
    File {
        /// The file or folder.
        path: String,
        /// The system's error, as text.
        reason: String,
    },
    /// A line of a vector file is not one vector.
    #[error("{file} line {line}: {reason}")]
    Line {
        /// The vector file.
        file: String,
        /// The line number, from 1.
        line: usize,
        /// What is wrong with the line.
        reason: String,
    },
    /// The folder holds no vector file.
    #[error("{0}: no *.jsonl vector files")]
    NoFiles(String),
}

impl VectorError {
    fn file(path: &Path, reason: impl std::fmt::Display) -> VectorError {
        VectorError::File {
            path: path.display().to_string(),
            reason: reason.to_string(),
        }
    }
}

/// An entry of a vector file: the position, the clauses it exercises and what it shows.
/// Everything else in a vector is computed.
#[derive(Clone, Debug)]
pub struct HandPicked {
    /// The vector's id, unique in the set (a case's id for an entry made from the suite).
    pub id: String,
    /// The position the vector is about.
    pub position: Position,
    /// The ids of the clauses the position exercises.
    pub clauses: Vec<String>,
    /// What the position shows, in one line.
    pub note: String,
}

impl HandPicked {
    /// The entry of a case of the suite (`spec/cases/`).
    pub fn of_case(case: &Case) -> Result<HandPicked, VectorError> {
        let position =
            parse_position(&case.position).map_err(|error| VectorError::CasePosition {
                case: case.id.clone(),
                error,
            })?;
        Ok(HandPicked {
            id: case.id.clone(),
            position,
            clauses: case.clauses.clone(),
            note: case.note.clone(),
        })
    }
}

/// Start positions of the random playouts: the standard start and the 8 x 8 start, and small
/// boards with each side on its home row or its two nearest rows, in both games.
pub fn playout_starts() -> Vec<(String, Position)> {
    let mut v = Vec::new();
    for variant in Variant::ALL {
        v.push((
            format!("the 10x8 {variant} start"),
            setup::standard(variant),
        ));
        v.push((
            format!("the 8x8 {variant} start"),
            setup::chess_board(variant),
        ));
        for (cols, rows, depth) in [(4, 4, 1), (5, 5, 1), (5, 6, 2), (6, 6, 2), (3, 5, 1)] {
            let dims = Dims::new(cols, rows).expect("small board");
            if let Some(p) = setup::filled_rows(dims, depth, variant) {
                v.push((format!("a {dims} {variant} start, {depth} row(s) each"), p));
            }
        }
    }
    v
}

/// Play up to `plies` uniformly random moves (among the legal moves sorted by notation) from
/// `start` with engine `E`, stopping early at the end of the game. Returns every position
/// visited, the start included, with the move that led to it.
pub fn random_line<E: Engine>(
    start: &Position,
    plies: u32,
    rng: &mut Rng,
) -> Vec<(Option<Move>, Position)> {
    let Ok(mut cur) = E::from_position(start) else {
        return Vec::new();
    };
    let mut out = vec![(None, start.clone())];
    for _ in 0..plies {
        let mut moves = cur.legal_moves();
        if moves.is_empty() {
            break;
        }
        moves.sort_by_cached_key(format_move);
        let mv = moves[rng.below(moves.len() as u64) as usize];
        cur = cur.apply(&mv);
        out.push((Some(mv), cur.to_position()));
    }
    out
}

/// Which start each random playout vector begins from: indexes into [`playout_starts`]. The
/// large Ordo X boards, whose move lists run to thousands of turns, are used sparingly; small
/// boards, where games end within the playout and splits and ties are common, most.
fn playout_schedule(starts: &[(String, Position)]) -> Vec<usize> {
    let mut big_x = Vec::new();
    let mut big_classic = Vec::new();
    let mut small = Vec::new();
    for (i, (_, p)) in starts.iter().enumerate() {
        let big = p.dims().len() >= 64;
        match (big, p.variant) {
            (true, Variant::X) => big_x.push(i),
            (true, Variant::Classic) => big_classic.push(i),
            (false, _) => small.push(i),
        }
    }
    let mut out = Vec::with_capacity(PLAYOUT_COUNT);
    let mut k = 0;
    while out.len() < PLAYOUT_COUNT {
        // In every 25: 2 large Ordo X, 5 large classic, 18 small boards.
        let slot = out.len() % 25;
        let pool = if slot < 2 {
            &big_x
        } else if slot < 7 {
            &big_classic
        } else {
            &small
        };
        out.push(pool[k % pool.len()]);
        k += 1;
    }
    out
}

/// The random playout entries: [`PLAYOUT_COUNT`] positions, each reached by a seeded random
/// playout from one of [`playout_starts`], with the clauses it exercises worked out from what
/// the position contains.
pub fn random_picks() -> Vec<HandPicked> {
    let starts = playout_starts();
    let schedule = playout_schedule(&starts);
    schedule
        .par_iter()
        .enumerate()
        .map(|(i, &si)| {
            // Each playout has a generator of its own, so they can run in parallel and each
            // stays the same when others change.
            let mut rng = Rng::new(PLAYOUT_SEED.wrapping_add(i as u64));
            let (name, start) = &starts[si];
            let big_x = start.variant == Variant::X && start.dims().len() >= 64;
            let plies = if big_x {
                1 + rng.below(6) as u32
            } else {
                2 + rng.below(38) as u32
            };
            let line = random_line::<Reference>(start, plies, &mut rng);
            let reached = line.len().saturating_sub(1);
            let pos = line
                .last()
                .map(|(_, p)| p.clone())
                .unwrap_or_else(|| start.clone());
            HandPicked {
                id: format!("playout-{:03}", i + 1),
                clauses: Vec::new(),
                position: pos,
                note: format!("{reached} random plies from {name} (seed {PLAYOUT_SEED} + {i})"),
            }
        })
        .collect()
}

/// The clauses a position exercises, worked out from what it contains: the game's direction
/// rules, a split mover, captures, ordo moves, two-step turns, tie choices, the status.
pub fn features(pos: &Position, moves: &[Move], status: Status) -> Vec<&'static str> {
    let mut c: BTreeSet<&'static str> = BTreeSet::new();
    position_features(pos, &mut c);
    for m in moves {
        move_features(pos, m, &mut c);
    }
    if let Some(clause) = status.clause() {
        c.insert(clause);
        c.insert("ORDO-10.5");
    }
    c.into_iter().collect()
}

/// The clauses the position itself exercises: its board, its game, a split side.
fn position_features(pos: &Position, c: &mut BTreeSet<&'static str>) {
    c.insert("ORDO-4.3");
    if pos.dims() == Dims::STANDARD {
        c.insert("ORDO-1.1");
    } else {
        c.insert("ORDO-1.5");
    }
    let me = pos.to_move;
    let split = !is_one_group(pos, me);
    match pos.variant {
        Variant::Classic => {
            c.insert("ORDO-8.1");
            if split {
                c.insert("ORDO-9.1");
                c.insert("ORDO-9.2");
            }
        }
        Variant::X => {
            c.insert("ORDOX-2.1");
            c.insert("ORDOX-3.1");
            c.insert("ORDOX-5.1");
            if split {
                c.insert("ORDOX-3.5");
            }
        }
    }
    if !is_one_group(pos, me.opponent()) && pos.variant == Variant::Classic {
        c.insert("ORDO-9.3");
    }
}

/// The clauses move `m` of `pos` exercises: its steps' kinds, two steps, a tie, backward.
fn move_features(pos: &Position, m: &Move, c: &mut BTreeSet<&'static str>) {
    for s in m.steps() {
        match s {
            Step::Single { capture: true, .. } => {
                c.insert("ORDO-6.4");
                if pos.variant == Variant::X {
                    c.insert("ORDOX-4.1");
                }
            }
            Step::Single { .. } => {
                c.insert("ORDO-6.1");
            }
            Step::Ordo { .. } => {
                c.insert(match pos.variant {
                    Variant::Classic => "ORDO-8.2",
                    Variant::X => "ORDOX-2.2",
                });
                c.insert("ORDO-7.1");
            }
        }
        if let Step::Single { keep: Some(_), .. } = s {
            c.insert("ORDOX-4.2");
        }
    }
    if m.second.is_some() {
        c.insert("ORDOX-3.2");
    }
    if let Some((d, _)) = m.first.direction() {
        if matches!(
            d.heading(pos.to_move),
            Heading::Backward | Heading::DiagonalBackward
        ) {
            c.insert("ORDO-9.2");
        }
    }
}

/// The full vector of an entry, computed with the reference engine. When the entry names no
/// clauses (the random playouts), they are worked out by [`features`].
pub fn build_vector(entry: &HandPicked) -> Result<Vector, VectorError> {
    let e = Reference::from_position(&entry.position).map_err(|error| VectorError::Position {
        id: entry.id.clone(),
        error,
    })?;
    let legal = e.legal_moves();
    // A game that is over has no moves (ORDO-10.5), so a position with moves is ongoing.
    let status = if legal.is_empty() {
        e.status()
    } else {
        Status::Ongoing
    };
    let mut clauses: Vec<String> = if entry.clauses.is_empty() {
        features(&entry.position, &legal, status)
            .into_iter()
            .map(String::from)
            .collect()
    } else {
        entry.clauses.clone()
    };
    clauses.sort_by_key(|c| clause_order(c));
    clauses.dedup();
    let moves = sorted_notation(&legal);
    Ok(Vector {
        id: entry.id.clone(),
        variant: entry.position.variant.name().to_string(),
        position: format_position(&entry.position),
        perft: perft_list(&e, legal.len() as u64),
        moves,
        status: VectorStatus::of(status),
        clauses,
        note: entry.note.clone(),
    })
}

/// Sort key of a clause id: `ORDO` before `ORDOX`, then numerically.
fn clause_order(id: &str) -> (u8, u32, u32) {
    let (family, rest) = match id.strip_prefix("ORDOX-") {
        Some(r) => (1, r),
        None => (0, id.strip_prefix("ORDO-").unwrap_or(id)),
    };
    let (a, b) = rest.split_once('.').unwrap_or((rest, "0"));
    (family, a.parse().unwrap_or(0), b.parse().unwrap_or(0))
}

/// A vector file's text: one JSON object per line, in order.
pub fn render_file(vectors: &[Vector]) -> String {
    let mut s = String::new();
    for v in vectors {
        let line = serde_json::to_string(v).expect("a vector always serializes");
        let _ = writeln!(s, "{line}");
    }
    s
}

/// Both files' names and texts, computed from the reference engine: `clauses.jsonl` from the
/// case suite `cases` (one vector per case, in suite order), `playouts.jsonl` from
/// [`random_picks`].
pub fn generate_texts(cases: &[Case]) -> Result<Vec<(&'static str, String)>, VectorError> {
    let entries: Vec<HandPicked> = cases
        .iter()
        .map(HandPicked::of_case)
        .collect::<Result<_, _>>()?;
    let hand: Result<Vec<Vector>, _> = entries.par_iter().map(build_vector).collect();
    let random: Result<Vec<Vector>, _> = random_picks().par_iter().map(build_vector).collect();
    Ok(vec![
        (CLAUSES_FILE, render_file(&hand?)),
        (PLAYOUTS_FILE, render_file(&random?)),
    ])
}

/// Rebuild both files in `dir` (created if missing), each written atomically (a temporary file
/// beside it, then a rename). Returns the paths written with their vector counts.
pub fn generate(dir: &Path, cases: &[Case]) -> Result<Vec<(PathBuf, usize)>, VectorError> {
    std::fs::create_dir_all(dir).map_err(|e| VectorError::file(dir, e))?;
    let mut written = Vec::new();
    for (name, text) in generate_texts(cases)? {
        let path = dir.join(name);
        crate::files::write_atomically(&path, &text)
            .map_err(|e| VectorError::file(&path, e.reason))?;
        written.push((path, text.lines().count()));
    }
    Ok(written)
}

/// A vector as read from a file, with where it came from.
#[derive(Clone, Debug)]
pub struct Located {
    /// The file name (without directory).
    pub file: String,
    /// The line number, from 1.
    pub line: usize,
    /// The vector on that line.
    pub vector: Vector,
}

/// Read a vector file's text. Blank lines are skipped; anything else must be one vector.
pub fn parse_file(name: &str, text: &str) -> Result<Vec<Located>, VectorError> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let vector: Vector = serde_json::from_str(line).map_err(|e| VectorError::Line {
            file: name.to_string(),
            line: i + 1,
            reason: e.to_string(),
        })?;
        out.push(Located {
            file: name.to_string(),
            line: i + 1,
            vector,
        });
    }
    Ok(out)
}

/// The vector files built into the program (`spec/conformance/*.jsonl` when it was built), in
/// name order: what `ordo conform` and `ordo conformance check` read unless given a folder.
pub const BUILT_IN: [(&str, &str); 2] = [
    (CLAUSES_FILE, include_str!("../data/vectors/clauses.jsonl")),
    (
        PLAYOUTS_FILE,
        include_str!("../data/vectors/playouts.jsonl"),
    ),
];

/// The built-in vectors ([`BUILT_IN`]), read as [`read_dir`] reads a folder.
pub fn built_in() -> Result<Vec<Located>, VectorError> {
    let mut out = Vec::new();
    for (name, text) in BUILT_IN {
        out.extend(parse_file(name, text)?);
    }
    Ok(out)
}

/// The vectors of `dir` ([`read_dir`]), or the built-in ones ([`built_in`]) for `None`.
pub fn read(dir: Option<&Path>) -> Result<Vec<Located>, VectorError> {
    match dir {
        Some(dir) => read_dir(dir),
        None => built_in(),
    }
}

/// The largest vector file read, in bytes (the largest built in is under 512 KiB): a larger
/// file is refused before it is parsed.
pub const VECTOR_FILE: Limit = Limit {
    bytes: 16 << 20,
    kind: "a vector file",
};

/// The most the vector files of one folder may hold together.
pub const VECTOR_FOLDER: Limit = Limit {
    bytes: 64 << 20,
    kind: "a folder of vector files",
};

/// Every `*.jsonl` file of `dir`, in name order, each within [`VECTOR_FILE`] and all within
/// [`VECTOR_FOLDER`].
pub fn read_dir(dir: &Path) -> Result<Vec<Located>, VectorError> {
    let files = crate::files::read_folder(dir, "jsonl", VECTOR_FILE, VECTOR_FOLDER)
        .map_err(|e| VectorError::file(&e.path, e.reason))?;
    if files.is_empty() {
        return Err(VectorError::NoFiles(dir.display().to_string()));
    }
    let mut out = Vec::new();
    for (path, text) in files {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        out.extend(parse_file(&name, &text)?);
    }
    Ok(out)
}

/// Structural problems of a vector: a position that does not read or is not canonical, a
/// variant that contradicts it, a move list that is unsorted or repeats a move, a status that
/// does not read. Empty when the vector is well formed.
pub fn lint(v: &Vector) -> Vec<String> {
    let mut out = Vec::new();
    match parse_position(&v.position) {
        Ok(p) => {
            if format_position(&p) != v.position {
                out.push("position is not in canonical notation".into());
            }
            if p.variant.name() != v.variant {
                out.push(format!(
                    "variant '{}' contradicts the position's '{}'",
                    v.variant, p.variant
                ));
            }
            if let Err(e) = p.validate() {
                out.push(format!("position cannot be set up: {e}"));
            }
        }
        Err(e) => out.push(format!("position: {e}")),
    }
    if v.moves.windows(2).any(|w| w[0] >= w[1]) {
        out.push("moves are not sorted or repeat a move".into());
    }
    if v.status.to_status().is_none() {
        out.push(format!("status {:?} does not read", v.status));
    }
    if v.perft.first().is_some_and(|&n| n != v.moves.len() as u64) {
        out.push("perft(1) differs from the number of moves".into());
    }
    if v.note.contains('\n') {
        out.push("note is not one line".into());
    }
    out
}

/// One difference between an engine and a vector.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mismatch {
    /// The id of the vector the engine disagrees with.
    pub id: String,
    /// The vector file it is in.
    pub file: String,
    /// Its line in that file, from 1.
    pub line: usize,
    /// What differs (the move list, the status, a perft count), expected and got, in one line.
    pub what: String,
}

/// Check engine `E` against vectors: exact move list, status and perft counts.
pub fn check<E: Engine>(vectors: &[Located]) -> Vec<Mismatch> {
    let per_vector: Vec<Vec<Mismatch>> = vectors.par_iter().map(check_one::<E>).collect();
    per_vector.into_iter().flatten().collect()
}

fn check_one<E: Engine>(lv: &Located) -> Vec<Mismatch> {
    let mut out = Vec::new();
    let v = &lv.vector;
    let mut report = |what: String| {
        out.push(Mismatch {
            id: v.id.clone(),
            file: lv.file.clone(),
            line: lv.line,
            what,
        })
    };
    for problem in lint(v) {
        report(problem);
    }
    let Ok(pos) = parse_position(&v.position) else {
        return out;
    };
    let e = match E::from_position(&pos) {
        Ok(e) => e,
        Err(err) => {
            report(format!("{} refuses the position: {err}", E::NAME));
            return out;
        }
    };
    let got = sorted_moves(&e);
    if got != v.moves {
        let want: BTreeSet<&String> = v.moves.iter().collect();
        let have: BTreeSet<&String> = got.iter().collect();
        let extra: Vec<&str> = have.difference(&want).map(|s| s.as_str()).collect();
        let missing: Vec<&str> = want.difference(&have).map(|s| s.as_str()).collect();
        report(format!(
            "moves differ: only in {} [{}], only in the vector [{}]",
            E::NAME,
            preview(&extra),
            preview(&missing)
        ));
    }
    let status = VectorStatus::of(e.status());
    if status != v.status {
        report(format!(
            "status differs: {} says {}, the vector {}",
            E::NAME,
            status_text(&status),
            status_text(&v.status)
        ));
    }
    let perft: Vec<u64> = (1..=v.perft.len() as u32).map(|d| e.perft(d)).collect();
    if perft != v.perft {
        report(format!(
            "perft differs: {} {:?}, the vector {:?}",
            E::NAME,
            perft,
            v.perft
        ));
    }
    out
}

/// A status in the words of the protocol: `ongoing` or `won white home-row`.
pub fn status_text(s: &VectorStatus) -> String {
    match s {
        VectorStatus::Ongoing => "ongoing".into(),
        VectorStatus::Won { winner, reason, .. } => format!("won {winner} {reason}"),
    }
}

/// At most ten items, then a count of the rest.
fn preview(items: &[&str]) -> String {
    let mut s = items.iter().take(10).copied().collect::<Vec<_>>().join(" ");
    if items.len() > 10 {
        let _ = write!(s, " … ({} more)", items.len() - 10);
    }
    s
}

/// Every clause id the vectors name.
pub fn exercised_clauses(vectors: &[Vector]) -> BTreeSet<String> {
    vectors.iter().flat_map(|v| v.clauses.clone()).collect()
}

/// Whether the ordo step `step`, made by the side to move of `pos`, moves only part of a longer
/// line of that side's pieces (ORDO-5.2): a piece of the same colour continues the run beyond
/// either end.
pub fn is_sub_run(pos: &Position, step: &Step) -> bool {
    let Step::Ordo { first, last, .. } = *step else {
        return false;
    };
    let dims = pos.dims();
    let Some(me) = dims.contains(first).then(|| pos.get(first)).flatten() else {
        return false;
    };
    let (dc, dr): (i8, i8) = if first.row == last.row {
        (1, 0)
    } else if first.col == last.col {
        (0, 1)
    } else {
        return false;
    };
    let (lo, hi) = if dims.index(first) <= dims.index(last) {
        (first, last)
    } else {
        (last, first)
    };
    let own = |sq: Option<Square>| sq.is_some_and(|s| pos.get(s) == Some(me));
    own(dims.offset(lo, -dc, -dr)) || own(dims.offset(hi, dc, dr))
}
