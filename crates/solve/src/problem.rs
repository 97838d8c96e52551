//! Problems: a position, a stipulation ("the side to move wins within N of its turns"), the
//! claimed key moves and whether they are the only ones; proved by the tables where they
//! cover the position, by exact depth-limited search otherwise. The file format is in
//! spec/problems.md.
//!
//! The tables are the compact solver's (`ctb-*.ordotb`), which store core positions only and
//! value a position whose side to move is split from its successors
//! ([`CompactTables::probe`]); a proof reads them through [`Tables`], which the test tooling
//! also implements for the retro solver's tables to cross-check the verdicts. A position
//! the tables cannot answer (its side that just moved is split, so it cannot arise after a
//! move, ORDO-4.3) is an error, never a guess.

use std::collections::{HashMap, HashSet};
use std::path::Path;
use std::time::Instant;

use super::compact::{self, CompactTables};
use super::value::{sort_best_first, Value};
use super::{on_disk, Material, SolveError};
use crate::notation::{format_move, format_position};
use crate::rules::{Color, Dims, Engine, Move, Position, Variant};

/// A problem file: a list of problems.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ProblemFile {
    /// The problems, in file order (the `[[problem]]` tables of the TOML file).
    #[serde(rename = "problem", default)]
    pub problems: Vec<Problem>,
}

/// One problem.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Problem {
    /// A short name.
    pub id: String,
    /// The position (in the notation of spec/notation.md in a file: board, side to move,
    /// game).
    #[serde(with = "crate::text")]
    pub position: Position,
    /// `win in N`: the side to move wins within N of its own turns (2N - 1 plies).
    pub stipulation: String,
    /// The claimed key moves (in a file, in any spelling the notation accepts; a key that
    /// leaves out what the position implies is resolved against the legal moves).
    #[serde(with = "crate::text::list")]
    pub keys: Vec<Move>,
    /// The claim that no other first move wins within the stipulation.
    #[serde(default)]
    pub only_keys: bool,
    /// Where the problem comes from.
    pub source: String,
}

/// How a claim about one move was decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Method {
    /// Probes of the endgame tables (`table` in JSON).
    Table,
    /// An exact depth-limited search of the game tree (`search` in JSON).
    Search,
    /// A proof-number search bounded by the stipulation, each key's win read out as a
    /// certificate (`prove` in JSON; the `ordo-prove` crate).
    Prove,
}

/// The verdict on one problem.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ProblemReport {
    /// The problem's name ([`Problem::id`]).
    pub id: String,
    /// Whether every claim holds.
    pub sound: bool,
    /// What failed, one line each.
    pub faults: Vec<String>,
    /// Every first move that wins within the stipulation.
    pub winning: Vec<String>,
    /// The quickest win in plies, where the tables say.
    pub shortest: Option<u16>,
    /// Whether the tables or a search decided the claims.
    pub method: Method,
    /// Nodes of the proof: positions searched, or table probes.
    pub proof_nodes: u64,
    /// Wall time of the check, seconds.
    pub seconds: f64,
    /// The certificate files written, one per key that wins (a proof search's).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub certificates: Vec<String>,
    /// Why the tables were not used, where they were asked for and search ran instead;
    /// serialized as the library's message, read back as none.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        serialize_with = "message",
        skip_deserializing
    )]
    pub fallback: Option<SolveError>,
}

fn message<S: serde::Serializer>(e: &Option<SolveError>, s: S) -> Result<S::Ok, S::Error> {
    match e {
        Some(e) => s.collect_str(e),
        None => s.serialize_none(),
    }
}

/// Loaded slices, as a table proof and a composition read them.
pub trait Tables {
    /// The game and board of the tables.
    fn game(&self) -> (Variant, Dims);

    /// The value of `e` for its side to move; an error if the tables cannot answer (a
    /// material not loaded, a position that has no place in them).
    fn value<E: Engine>(&self, e: &E) -> Result<Value, SolveError>;

    /// Every entry of slice `m` that holds a position, with its value (in index order).
    fn entries(&self, m: Material) -> Result<Vec<(usize, Value)>, SolveError>;

    /// The position of entry `i` of slice `m`; `None` for a gap of the index.
    fn position(&self, m: Material, i: usize) -> Option<([u128; 2], Color)>;

    /// The value of `e` and every legal move with the value it leaves the opponent, best
    /// first (quickest win, then draws, then slowest loss; ties by notation).
    fn value_and_moves<E: Engine>(&self, e: &E) -> Result<(Value, Vec<(Move, Value)>), SolveError> {
        let value = self.value(e)?;
        let mut moves = Vec::new();
        for m in e.legal_moves() {
            let v = self.value(&e.apply(&m))?;
            moves.push((m, v));
        }
        sort_best_first(&mut moves, format_move);
        Ok((value, moves))
    }
}

/// The compact solver's slices: core positions stored, the shell valued from its successors;
/// a material with fewer White than Black pieces is read from its colour twin.
impl Tables for CompactTables {
    fn game(&self) -> (Variant, Dims) {
        (self.variant, self.dims)
    }

    fn value<E: Engine>(&self, e: &E) -> Result<Value, SolveError> {
        CompactTables::probe(self, e)
    }

    fn entries(&self, m: Material) -> Result<Vec<(usize, Value)>, SolveError> {
        let slice = self
            .slices
            .get(&compact::stored_material(m))
            .ok_or_else(|| SolveError::Input(format!("slice {m} is not loaded")))?;
        Ok(slice
            .values
            .iter()
            .map(|&c| compact::decode(c))
            .enumerate()
            .collect())
    }

    fn position(&self, m: Material, i: usize) -> Option<([u128; 2], Color)> {
        let stored = compact::stored_material(m);
        let (occ, stm) = self.slices.get(&stored)?.index.position(i)?;
        Some(if stored == m {
            (occ, stm)
        } else {
            compact::colour_flip(self.dims, occ, stm)
        })
    }
}

/// Parse a problem file (TOML).
pub fn parse_file(text: &str) -> Result<ProblemFile, SolveError> {
    toml::from_str(text).map_err(|e| {
        let line = e
            .span()
            .map(|s| text[..s.start.min(text.len())].matches('\n').count() + 1);
        SolveError::Input(format!(
            "problem file{}: {}",
            line.map(|l| format!(", line {l}")).unwrap_or_default(),
            e.message().trim()
        ))
    })
}

/// The N of `win in N`.
pub fn turns(stipulation: &str) -> Result<u16, SolveError> {
    let bad = || {
        SolveError::Input(format!(
            "stipulation '{stipulation}': expected 'win in N' with N from 1 to 1000"
        ))
    };
    let n = stipulation
        .trim()
        .strip_prefix("win in ")
        .ok_or_else(bad)?
        .trim()
        .parse::<u16>()
        .map_err(|_| bad())?;
    if n == 0 || n > 1000 {
        return Err(bad());
    }
    Ok(n)
}

/// A position's identity on any board (a packed key of the retro solver held only boards of up to
/// 63 squares).
type Seen = ([u128; 2], Color);

fn seen_key<E: Engine>(e: &E) -> Seen {
    (e.occupancy(), e.side_to_move())
}

/// The search gave up: it expanded more positions than its budget allowed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OutOfBudget;

/// The default budget of [`verify`]'s search, in positions expanded: about a minute and a
/// gigabyte of transposition memo on the composed problems' boards.
pub const DEFAULT_SEARCH_NODES: u64 = 5_000_000;

/// Exact depth-limited search with a transposition memo: whether the side to move in `e`
/// loses within `plies` plies whatever it does. `nodes` counts positions expanded; past
/// `max_nodes` the search stops with [`OutOfBudget`].
pub fn lost_within<E: Engine>(
    e: &E,
    plies: u16,
    memo: &mut HashMap<(Seen, u16), bool>,
    nodes: &mut u64,
    max_nodes: u64,
) -> Result<bool, OutOfBudget> {
    let key = seen_key(e);
    if let Some(&known) = memo.get(&(key, plies)) {
        return Ok(known);
    }
    *nodes += 1;
    if *nodes > max_nodes {
        return Err(OutOfBudget);
    }
    let moves = e.legal_moves();
    let lost = if moves.is_empty() {
        true
    } else if plies < 2 {
        false
    } else {
        let mut all = true;
        for m in &moves {
            let after = e.apply(m);
            let mut refuted = false;
            for r in after.legal_moves() {
                if lost_within(&after.apply(&r), plies - 2, memo, nodes, max_nodes)? {
                    refuted = true;
                    break;
                }
            }
            if !refuted {
                all = false;
                break;
            }
        }
        all
    };
    memo.insert((key, plies), lost);
    Ok(lost)
}

/// Why the tables do not prove a key move: a probe failed, or the table contradicts itself.
#[derive(Debug, thiserror::Error)]
enum TableProofError {
    #[error(transparent)]
    Probe(#[from] SolveError),
    #[error("{0} is said lost at once but has moves")]
    LostWithMoves(String),
    #[error("after {mv} in {position} the table gives {value:?}, not a win")]
    NotAWin {
        mv: String,
        position: String,
        value: Value,
    },
    #[error("a defence lasts {lasts} plies, not under {under}")]
    LongDefence { lasts: u16, under: u16 },
    #[error("no move of {0} reaches the promised loss")]
    NoReply(String),
    /// The proof tree of a key move fails.
    #[error("key {key}: {error}")]
    Key {
        key: String,
        error: Box<TableProofError>,
    },
}

/// Walk the proof tree below a position the table says is lost in `d` plies: every move
/// must lead to a win in fewer plies, each of whose positions has a move to a loss in one
/// ply less, down to positions where the game is over. Checks each claim on the way (so a
/// damaged table cannot prove a false key) and collects the distinct positions in `seen`.
fn losing_tree<E: Engine, T: Tables>(
    tables: &T,
    e: &E,
    d: u16,
    seen: &mut HashSet<Seen>,
) -> Result<(), TableProofError> {
    if !seen.insert(seen_key(e)) {
        return Ok(());
    }
    let moves = e.legal_moves();
    if d == 0 {
        return if moves.is_empty() {
            Ok(())
        } else {
            Err(TableProofError::LostWithMoves(format_position(
                &e.to_position(),
            )))
        };
    }
    for m in &moves {
        let after = e.apply(m);
        let v = tables.value(&after)?;
        let Value::Win(w) = v else {
            return Err(TableProofError::NotAWin {
                mv: format_move(m),
                position: format_position(&e.to_position()),
                value: v,
            });
        };
        if w >= d {
            return Err(TableProofError::LongDefence { lasts: w, under: d });
        }
        if !seen.insert(seen_key(&after)) {
            continue;
        }
        // The winner's move: one that leaves a loss in w - 1.
        let reply = after.legal_moves().into_iter().find_map(|r| {
            let next = after.apply(&r);
            match tables.value(&next) {
                Ok(Value::Loss(l)) if l + 1 == w => Some(next),
                _ => None,
            }
        });
        let Some(next) = reply else {
            return Err(TableProofError::NoReply(format_position(
                &after.to_position(),
            )));
        };
        losing_tree(tables, &next, w - 1, seen)?;
    }
    Ok(())
}

/// Verify one problem: by the compact tables in the folder `tables` if they hold its
/// material, else by search of at most `max_nodes` positions. Why the tables were not used
/// is in the report.
pub fn verify<E: Engine>(
    p: &Problem,
    tables: Option<&Path>,
    max_nodes: u64,
) -> Result<ProblemReport, SolveError> {
    let open = tables.map(|dir| move |pos: &Position| tables_of(pos, dir));
    verify_with::<E, CompactTables>(p, open, max_nodes)
}

/// [`verify`] with the tables that `open` loads for the problem's position (any
/// [`Tables`]; `None`: search only).
pub fn verify_with<E: Engine, T: Tables>(
    p: &Problem,
    open: Option<impl FnOnce(&Position) -> Result<T, SolveError>>,
    max_nodes: u64,
) -> Result<ProblemReport, SolveError> {
    let clock = Instant::now();
    let where_ = |e: String| SolveError::Input(format!("problem {}: {e}", p.id));
    let pos = &p.position;
    let n = turns(&p.stipulation).map_err(|e| where_(e.to_string()))?;
    let e = E::from_position(pos).map_err(|e| where_(e.to_string()))?;
    let mut keys = Vec::new();
    for k in &p.keys {
        let legal = e
            .resolve(k)
            .ok_or_else(|| where_(format!("key {k} is not a legal move")))?;
        keys.push(format_move(&legal));
    }
    if keys.is_empty() {
        return Err(where_("no key move given".into()));
    }
    let (loaded, fallback) = match open.map(|open| open(pos)) {
        None => (None, None),
        Some(Ok(t)) => (Some(t), None),
        Some(Err(err)) => (None, Some(err)),
    };
    let proof = match &loaded {
        Some(t) => by_table(t, &e, 2 * n - 1, &keys).map_err(|e| where_(e.to_string()))?,
        None => {
            by_search(&e, 2 * n - 1, max_nodes).map_err(|OutOfBudget| SolveError::SearchGaveUp {
                problem: p.id.clone(),
                max_nodes,
                turns: n,
                refused: fallback.clone().map(Box::new),
            })?
        }
    };
    let mut report = judge(p, &keys, n, proof);
    report.fallback = fallback;
    report.seconds = clock.elapsed().as_secs_f64();
    Ok(report)
}

/// The compact slices in `dir` that hold the material of `pos` and every smaller one.
fn tables_of(pos: &Position, dir: &Path) -> Result<CompactTables, SolveError> {
    on_disk::open(pos.dims(), pos.variant, Material::of(pos), dir)
}

/// What a proof found: for each first move whether it wins within the stipulation, the
/// quickest win where known, the method and its node count.
struct Proof {
    results: Vec<(String, bool)>,
    shortest: Option<u16>,
    method: Method,
    nodes: u64,
}

fn by_table<E: Engine, T: Tables>(
    tables: &T,
    e: &E,
    plies: u16,
    keys: &[String],
) -> Result<Proof, TableProofError> {
    let (value, moves) = tables.value_and_moves(e)?;
    let shortest = match value {
        Value::Win(d) => Some(d),
        _ => None,
    };
    let mut seen = HashSet::new();
    let mut results = Vec::new();
    for (m, v) in moves {
        let wins = matches!(v, Value::Loss(d) if d < plies);
        let name = format_move(&m);
        if let (true, true, Value::Loss(d)) = (wins, keys.contains(&name), v) {
            // The key's proof tree, walked through the table.
            losing_tree(tables, &e.apply(&m), d, &mut seen).map_err(|error| {
                TableProofError::Key {
                    key: name.clone(),
                    error: Box::new(error),
                }
            })?;
        }
        results.push((name, wins));
    }
    Ok(Proof {
        results,
        shortest,
        method: Method::Table,
        nodes: seen.len() as u64 + 1,
    })
}

fn by_search<E: Engine>(e: &E, plies: u16, max_nodes: u64) -> Result<Proof, OutOfBudget> {
    let mut memo = HashMap::new();
    let mut nodes = 0;
    let mut results = Vec::new();
    for m in e.legal_moves() {
        let wins = lost_within(&e.apply(&m), plies - 1, &mut memo, &mut nodes, max_nodes)?;
        results.push((format_move(&m), wins));
    }
    Ok(Proof {
        results,
        shortest: None,
        method: Method::Search,
        nodes,
    })
}

/// The claims of `p` against what the proof found.
fn judge(p: &Problem, keys: &[String], n: u16, proof: Proof) -> ProblemReport {
    let winning: Vec<String> = proof
        .results
        .iter()
        .filter(|(_, w)| *w)
        .map(|(m, _)| m.clone())
        .collect();
    let mut faults = Vec::new();
    for k in keys {
        if !winning.contains(k) {
            faults.push(format!("the key {k} does not win within {n} turns"));
        }
    }
    if p.only_keys {
        for w in &winning {
            if !keys.contains(w) {
                faults.push(format!("{w} also wins within {n} turns (a cook)"));
            }
        }
    }
    ProblemReport {
        id: p.id.clone(),
        sound: faults.is_empty(),
        faults,
        winning,
        shortest: proof.shortest,
        method: proof.method,
        proof_nodes: proof.nodes,
        seconds: 0.0,
        certificates: Vec::new(),
        fallback: None,
    }
}

/// Compose problems from the built slice `m`: positions whose side to move wins and has
/// exactly one winning first move (at any distance, so "only one move wins" holds without
/// qualification), longest wins first, at most `count`, no two that are mirror images.
/// From the compact solver's tables the positions drawn from are the core ones (both sides
/// one group; with equal material White to move, the colour twins being the same problems):
/// the shell's values are not stored, and valuing every shell position from its successors
/// would cost more than the whole build.
pub fn compose<E: Engine>(
    tables: &impl Tables,
    m: Material,
    count: usize,
) -> Result<Vec<Problem>, SolveError> {
    let (variant, dims) = tables.game();
    let mut candidates = candidates(tables, m)?;
    candidates.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    let mut out: Vec<Problem> = Vec::new();
    let mut taken: Vec<Position> = Vec::new();
    for (d, i) in candidates {
        if out.len() >= count {
            break;
        }
        let Some((occ, stm)) = tables.position(m, i) else {
            continue;
        };
        let Ok(e) = E::from_occupancy(dims, variant, stm, occ) else {
            continue;
        };
        let Some(key) = only_winning_move(tables, &e)? else {
            continue;
        };
        let pos = e.to_position();
        let after = e.apply(&key).to_position();
        if is_seen_before(&taken, &pos, &after) {
            continue;
        }
        taken.push(pos.clone());
        taken.push(after);
        let id = format!("{}-{}-{}-{}", variant.name(), dims, m, out.len() + 1);
        out.push(composed_problem((variant, dims), m, id, &pos, &key, d));
    }
    Ok(out)
}

/// The entries of slice `m` whose side to move wins in at least 3 plies, with the distance.
fn candidates<T: Tables>(tables: &T, m: Material) -> Result<Vec<(u16, usize)>, SolveError> {
    Ok(tables
        .entries(m)?
        .into_iter()
        .filter_map(|(i, v)| match v {
            Value::Win(d) if d >= 3 => Some((d, i)),
            _ => None,
        })
        .collect())
}

/// The one first move that wins in `e`, if exactly one does.
fn only_winning_move<E: Engine, T: Tables>(tables: &T, e: &E) -> Result<Option<Move>, SolveError> {
    let (_, moves) = tables.value_and_moves(e)?;
    let mut winners = moves.iter().filter(|(_, v)| matches!(v, Value::Loss(_)));
    match (winners.next(), winners.next()) {
        (Some((mv, _)), None) => Ok(Some(*mv)),
        _ => Ok(None),
    }
}

/// Whether a problem already `taken` (its position, then the position after its key) is
/// `pos` (whose key leads to `after`) seen in a mirror, from the other chair, or met after
/// the key.
fn is_seen_before(taken: &[Position], pos: &Position, after: &Position) -> bool {
    let flipped = pos.colour_flipped();
    taken.iter().any(|t| {
        [
            &pos.mirrored(),
            after,
            &after.mirrored(),
            &flipped,
            &flipped.mirrored(),
        ]
        .contains(&t)
    })
}

/// The problem of `pos` from slice `m`, whose only winning first move `key` wins in `d`
/// plies.
fn composed_problem(
    (variant, dims): (Variant, Dims),
    m: Material,
    id: String,
    pos: &Position,
    key: &Move,
    d: u16,
) -> Problem {
    let n = d.div_ceil(2);
    Problem {
        id,
        position: pos.clone(),
        stipulation: format!("win in {n}"),
        keys: vec![*key],
        only_keys: true,
        source: format!(
            "composed by `ordo problem compose` from the {} {} {m} table: {} to move wins in {d} plies, and only this first move wins at all",
            variant.name(),
            dims,
            pos.to_move
        ),
    }
}

/// The problems as a TOML file.
pub fn write_file(problems: &[Problem]) -> Result<String, SolveError> {
    let file = ProblemFile {
        problems: problems.to_vec(),
    };
    toml::to_string(&file).map_err(|e| SolveError::Input(e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A problem's position and keys are typed, written in a file as their notation and
    /// read back; a key in another spelling reads as the same move, and a position that does
    /// not read is an error naming the file's line.
    #[test]
    fn a_problem_file_keeps_its_notation() {
        let text = "[[problem]]\nid = \"p\"\nposition = \"BB2/1W2/W3 w classic\"\nstipulation = \"win in 1\"\nkeys = [\"a1xa3\"]\nonly_keys = true\nsource = \"t\"\n";
        let file = parse_file(text).unwrap();
        let p = &file.problems[0];
        assert_eq!(p.position.to_string(), "BB2/1W2/W3 w classic");
        assert_eq!(p.keys[0].to_string(), "a1xa3");
        assert_eq!(write_file(&file.problems).unwrap(), text);
        let bad = text.replace("W3 w", "W9 w");
        let err = parse_file(&bad).unwrap_err().to_string();
        assert!(err.starts_with("problem file, line 3: "), "{err}");
    }
}
