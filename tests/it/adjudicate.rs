//! The adjudicator (`ordo_adjudicate`) against the engines and through the command line (its
//! hand-written clause tests are in `crates/adjudicate/tests/`).
//!
//! - `ordo explain`: exit status 0 for a legal move, 1 for an illegal one, 2 for notation that
//!   cannot be read; `--svg` writes a file.
//! - Property tests (proptest and quickcheck): on random reachable positions, for every move of
//!   a broad candidate space (`candidate_moves_limited`), the adjudicator's verdict equals
//!   membership in the engines' legal move lists (reference and bitboard), and for legal moves
//!   its result position and status equal the engines'.

use std::collections::BTreeSet;
use std::time::Instant;

use crate::common::{ordo_cmd as ordo, stdout};
use crate::common::{playout, playout_starts};
use ordo_adjudicate::{
    adjudicate, candidate_moves, candidate_moves_limited, canonical_spelling, groups_after_capture,
    Verdict,
};
use ordo_bitboard::Bitboard;
use ordo_core::notation::{format_move, format_position, parse_move};
use ordo_core::rules::{
    clauses, setup, Color, Dims, Engine, Move, Position, Square, Step, Variant,
};
use ordo_reference::Reference;
use proptest::prelude::*;
use quickcheck::{QuickCheck, TestResult};

const C: Variant = Variant::Classic;
const X: Variant = Variant::X;

// ------------------------------------------------------------------------------------------
// `ordo explain`
// ------------------------------------------------------------------------------------------

/// A legal move: exit status 0, its effects, permits, result and status.
#[test]
fn explain_legal_move_exits_0() {
    let o = ordo(&["explain", "--move", "e3-e4"]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{out}");
    assert!(out.contains("verdict: legal"), "{out}");
    assert!(out.contains("ORDO-6.1 Singleton moves"), "{out}");
    assert!(out.contains("e3->e4"), "{out}");
    assert!(
        out.contains(
            "result: 2BB2BB2/BBBBBBBBBB/BB2BB2BB/10/4W5/WW3W2WW/WWWWWWWWWW/2WW2WW2 b classic"
        ),
        "{out}"
    );
    assert!(out.contains("status: ongoing"), "{out}");
}

/// ORDOX-4.2 through the command line: removal, tie, canonical spelling.
#[test]
fn explain_ordo_x_removal() {
    let o = ordo(&["explain", "-p", "5/BBBBB/1WW2/5/5 w x", "-m", "c3xc4/b4"]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{out}");
    assert!(out.contains("removes: d4 e4"), "{out}");
    assert!(out.contains("splits Black: yes"), "{out}");
    assert!(out.contains("canonical spelling: c3xc4/a4"), "{out}");
    assert!(out.contains("ORDOX-4.2 Ties for largest"), "{out}");
}

/// An illegal move: exit status 1, every clause with its detail, text and sources.
#[test]
fn explain_illegal_move_exits_1() {
    let o = ordo(&[
        "explain",
        "-p",
        "5/5/1WW2/BWW2/5 w classic",
        "-m",
        "b3:c3-b2",
    ]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(out.contains("verdict: illegal"), "{out}");
    for c in ["ORDO-8.2", "ORDO-9.2", "ORDO-7.3"] {
        let clause = clauses::get(c).unwrap();
        // Each heading once, with the clause's kind.
        let heading = format!("{} {} [{}]", clause.id, clause.title, clause.kind.name());
        assert_eq!(out.matches(&heading).count(), 1, "{c}: {out}");
        assert_eq!(
            out.matches(&format!("{} {}", clause.id, clause.title))
                .count(),
            1
        );
        assert!(
            out.contains(&clause.citations()[0].to_string()),
            "{c}: {out}"
        );
    }
    // Squares off the board are a rule violation (ORDO-1.5), not a notation error.
    let o = ordo(&["explain", "-m", "e2-e9"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stdout(&o).contains("ORDO-1.5"));
}

/// ORDO-10.5 through the command line: a finished game is a position that can be given, and
/// every move in it is illegal (exit status 1).
#[test]
fn explain_finished_game_exits_1() {
    let o = ordo(&["explain", "-p", "2/WW b classic", "-m", "a1-a2"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stdout(&o).contains("ORDO-10.5"), "{}", stdout(&o));
}

/// Notation errors (position or move) exit with status 2 and one line on stderr.
#[test]
fn explain_notation_errors_exit_2() {
    for args in [
        vec!["explain", "-m", "e2-q4"],
        vec!["explain", "-m", "a2:b2xa3"],
        vec!["explain", "-m", ""],
        vec!["explain", "-p", "WB/2B w classic", "-m", "a2-a3"],
        vec!["explain", "-p", "WB/2 b Classic", "-m", "a2-a3"],
        vec!["explain"],
        // ORDO-2.3: a position that cannot be set up is bad input too.
        vec!["explain", "-p", "2/WW w classic", "-m", "a1-a2"],
    ] {
        let o = ordo(&args);
        let err = String::from_utf8_lossy(&o.stderr).into_owned();
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{err}");
    }
}

/// `--svg` writes the diagram file.
#[test]
fn explain_writes_svg() {
    let dir = crate::common::scratch("explain-svg");
    for (m, code) in [("e3-e4", 0), ("e3-e5", 1)] {
        let path = dir.join(format!("{m}.svg"));
        let o = ordo(&["explain", "-m", m, "--svg", path.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(code), "{}", stdout(&o));
        assert!(path.exists(), "{} not written", path.display());
        let text = std::fs::read_to_string(&path).unwrap();
        if !text.is_empty() {
            assert!(text.contains("<svg"), "{text}");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

// ------------------------------------------------------------------------------------------
// Properties: the adjudicator against the engines
// ------------------------------------------------------------------------------------------

/// How much to check in one position.
#[derive(Clone, Copy, Debug)]
struct Budget {
    /// Two-step candidates (Ordo X); the full space if it is no larger.
    max_two_step: usize,
    /// Legal moves whose effects and status are compared with the engine.
    effects: usize,
}

/// The budget for engine `E` in `p`: the whole candidate space on boards up to 16 squares;
/// bounded two-step samples beyond. The reference engine's status after a move costs a full
/// move generation (about 0.2 s on the 10 x 8 Ordo X board), so it compares fewer effects there
/// than the bitboard engine.
fn budget_for<E: Engine>(p: &Position) -> Budget {
    let n = p.dims().len();
    let slow = E::NAME == "reference" && p.variant == X;
    if n <= 16 {
        Budget {
            max_two_step: usize::MAX,
            effects: usize::MAX,
        }
    } else if n <= 36 {
        Budget {
            max_two_step: 2000,
            effects: if slow { 12 } else { 60 },
        }
    } else {
        Budget {
            max_two_step: 1500,
            effects: if slow { 2 } else { 40 },
        }
    }
}

fn has_keep(m: &Move) -> bool {
    m.steps()
        .any(|s| matches!(s, Step::Single { keep: Some(_), .. }))
}

/// The same one-step capture naming another square as the kept group.
fn with_keep(m: &Move, k: Square) -> Move {
    match m.first {
        Step::Single {
            from, to, capture, ..
        } => Move::single(Step::Single {
            from,
            to,
            capture,
            keep: Some(k),
        }),
        _ => *m,
    }
}

/// Counts from one position.
#[derive(Default, Debug, Clone, Copy)]
struct Tally {
    candidates: usize,
    legal: usize,
}

/// For every candidate move in `p` (bounded), the adjudicator's verdict equals membership in
/// `E`'s legal moves; legal verdicts carry `E`'s result position and status (a sample of them
/// on large boards); every engine move is found legal by the adjudicator.
fn agree<E: Engine>(p: &Position, budget: Budget) -> Result<Tally, String> {
    let e = E::from_position(p).map_err(|err| err.to_string())?;
    let fen = format_position(p);
    let legal_moves = e.legal_moves();
    let legal: BTreeSet<String> = legal_moves.iter().map(format_move).collect();
    let opponent = p.to_move.opponent();
    // `Engine::resolve` on the list computed once: a kept group (ORDOX-4.2) may be named by
    // any of its squares, and only by one of them.
    let resolve = |m: &Move| -> Option<Move> {
        let want = m.canonical(p.dims());
        if legal.contains(&format_move(&want)) {
            return Some(want);
        }
        if !has_keep(&want) || want.second.is_some() {
            return None;
        }
        let Step::Single { keep: Some(k), .. } = want.first else {
            return None;
        };
        legal_moves
            .iter()
            .find(|l| {
                l.second.is_none()
                    && has_keep(l)
                    && with_keep(l, k) == want
                    && p.dims().contains(k)
                    && e.apply(l).to_position().get(k) == Some(opponent)
            })
            .copied()
    };
    let cands = candidate_moves_limited(p, budget.max_two_step);
    let mut tally = Tally::default();
    let mut found: BTreeSet<String> = BTreeSet::new();
    let mut effects_left = budget.effects;
    let stride = (legal.len() / budget.effects.max(1)).max(1);
    let mut legal_index = 0usize;
    let mut check =
        |m: &Move, tally: &mut Tally, found: &mut BTreeSet<String>| {
            tally.candidates += 1;
            let verdict = adjudicate(p, m);
            let resolved = resolve(m);
            if verdict.is_legal() != resolved.is_some() {
                return Err(format!(
                "{} engine: position '{fen}' move '{}': engine says {}, adjudicator {verdict:#?}",
                E::NAME,
                format_move(m),
                if resolved.is_some() { "legal" } else { "illegal" },
            ));
            }
            match (&verdict, resolved) {
                (Verdict::Illegal { violations }, _) => {
                    for v in violations {
                        if clauses::get(&v.clause.to_string()).is_none() {
                            return Err(format!(
                                "unknown clause {} for {}",
                                v.clause,
                                format_move(m)
                            ));
                        }
                    }
                }
                (Verdict::Legal { effects, .. }, Some(r)) => {
                    tally.legal += 1;
                    found.insert(format_move(&r));
                    let canon = canonical_spelling(p, m);
                    if canon != Some(r) {
                        return Err(format!(
                            "position '{fen}' move '{}': canonical spelling {canon:?}, engine {}",
                            format_move(m),
                            format_move(&r)
                        ));
                    }
                    legal_index += 1;
                    if effects_left > 0 && legal_index % stride == 0 {
                        effects_left -= 1;
                        let after = e.apply(&r);
                        if effects.result != after.to_position() {
                            return Err(format!(
                                "{} engine: position '{fen}' move '{}': result '{}', engine '{}'",
                                E::NAME,
                                format_move(m),
                                format_position(&effects.result),
                                format_position(&after.to_position())
                            ));
                        }
                        if effects.status != after.status() {
                            return Err(format!(
                                "{} engine: position '{fen}' move '{}': status {}, engine {}",
                                E::NAME,
                                format_move(m),
                                effects.status,
                                after.status()
                            ));
                        }
                    }
                }
                (Verdict::Legal { .. }, None) => unreachable!(),
            }
            Ok(())
        };
    for m in &cands {
        check(m, &mut tally, &mut found)?;
        // ORDOX-4.2: a kept group may be named by any of its squares, and only by one of them.
        if has_keep(m) && m.second.is_none() {
            if let Some(gs) = groups_after_capture(p, &m.first) {
                for g in &gs {
                    for &k in g.iter().skip(1) {
                        check(&with_keep(m, k), &mut tally, &mut found)?;
                    }
                }
                check(&with_keep(m, m.first.origin()), &mut tally, &mut found)?;
            }
        }
    }
    // The candidate space is complete unless the two-step moves were sampled.
    let full = budget.max_two_step == usize::MAX || p.variant == C;
    for m in &legal {
        if !found.contains(m) {
            if full {
                return Err(format!(
                    "position '{fen}': engine move '{m}' is not in the candidate space"
                ));
            }
            // Outside the sampled two-step candidates: judge it directly.
            let mm = parse_move(m).unwrap();
            if !adjudicate(p, &mm).is_legal() {
                return Err(format!(
                    "{} engine: position '{fen}' move '{m}' is legal, adjudicator says {:#?}",
                    E::NAME,
                    adjudicate(p, &mm)
                ));
            }
        }
    }
    Ok(tally)
}

/// Both engines.
fn agree_both(p: &Position) -> Result<Tally, String> {
    let t = agree::<Reference>(p, budget_for::<Reference>(p))?;
    agree::<Bitboard>(p, budget_for::<Bitboard>(p))?;
    // ADJ_TALLY=1 (with --nocapture) prints the counts of every position checked.
    if std::env::var_os("ADJ_TALLY").is_some() {
        eprintln!("TALLY {} {} {}", t.candidates, t.legal, p.dims().len());
    }
    Ok(t)
}

/// The last position of a playout from start `start % n` of `starts` with these choices. On the
/// small boards the playout runs on the reference engine. On the 8 x 8 and 10 x 8 boards it
/// runs on the bitboard engine, which picks the same moves (both list the same legal moves,
/// sorted by notation, as tests/differential.rs checks), because a reference move generation
/// there takes up to 0.2 s per ply; the position is then checked against both engines anyway.
fn playout_end(starts: &[Position], start: usize, choices: &[u32]) -> Position {
    let s = &starts[start % starts.len()];
    if s.dims().len() <= 36 {
        playout::<Reference>(s, choices)
            .last()
            .unwrap()
            .to_position()
    } else {
        playout::<Bitboard>(s, choices)
            .last()
            .unwrap()
            .to_position()
    }
}

fn small_starts() -> Vec<Position> {
    playout_starts()
        .into_iter()
        .filter(|p| p.dims().len() <= 36)
        .collect()
}

fn large_starts() -> Vec<Position> {
    playout_starts()
        .into_iter()
        .filter(|p| p.dims().len() > 36)
        .collect()
}

/// Every playout start (the standard 10 x 8 start, 8 x 8, 3 x 3 .. 6 x 6 in both variants),
/// two-step candidates bounded on the large boards.
#[test]
fn every_playout_start_agrees_with_the_engines() {
    let t0 = Instant::now();
    let mut total = Tally::default();
    for p in playout_starts() {
        let t = agree_both(&p).unwrap_or_else(|e| panic!("{e}"));
        total.candidates += t.candidates;
        total.legal += t.legal;
    }
    eprintln!("playout starts: {total:?} in {:.2?}", t0.elapsed());
}

/// The full candidate space, two-step moves included, on small Ordo X boards, and its size.
#[test]
fn small_boards_full_candidate_space() {
    let t0 = Instant::now();
    let mut n = 0;
    for (cols, rows) in [(3, 3), (3, 4), (4, 3), (4, 4)] {
        let dims = Dims::new(cols, rows).unwrap();
        for v in [C, X] {
            let p = setup::filled_rows(dims, 1, v).unwrap();
            let all = candidate_moves(&p);
            n += all.len();
            agree_both(&p).unwrap_or_else(|e| panic!("{e}"));
        }
    }
    eprintln!("small boards: {n} candidates in {:.2?}", t0.elapsed());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Random reachable positions on the small boards 3 x 3 .. 6 x 6, both games, where games
    /// end often, so that won positions (ORDO-10.5), splits and removals are covered.
    #[test]
    fn proptest_small_boards(
        start in 0usize..1000,
        choices in prop::collection::vec(any::<u32>(), 0..60),
    ) {
        let p = playout_end(&small_starts(), start, &choices);
        let r = agree_both(&p);
        prop_assert!(r.is_ok(), "{}", r.unwrap_err());
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Random reachable positions on the 10 x 8 and 8 x 8 boards, both games, two-step
    /// candidates bounded.
    #[test]
    fn proptest_large_boards(
        start in 0usize..1000,
        choices in prop::collection::vec(any::<u32>(), 0..60),
    ) {
        let p = playout_end(&large_starts(), start, &choices);
        let r = agree_both(&p);
        prop_assert!(r.is_ok(), "{}", r.unwrap_err());
    }
}

/// A set-up position (ORDO-2.3) on a board of up to 6 x 6 from a list of cell codes: 0 and 1 a
/// white piece, 2 and 3 a black one, anything else empty. Made valid: the side to move loses
/// its pieces on its opponent's home row, and a last mover without pieces gets one on the first
/// empty square.
fn set_up(cols: usize, rows: usize, cells: &[u8], black: bool, x: bool) -> Position {
    let dims = Dims::new(cols, rows).unwrap();
    let side = if black { Color::Black } else { Color::White };
    let mut p = Position::empty(dims, side, if x { X } else { C });
    for (s, &c) in dims.squares().zip(cells) {
        match c {
            0 | 1 => p.set(s, Some(Color::White)),
            2 | 3 => p.set(s, Some(Color::Black)),
            _ => {}
        }
    }
    let target = side.opponent().home_row(dims);
    for s in dims.squares().filter(|s| s.row == target) {
        if p.get(s) == Some(side) {
            p.set(s, None);
        }
    }
    if p.count(side.opponent()) == 0 {
        let free = dims.squares().find(|&s| p.get(s).is_none()).unwrap();
        p.set(free, Some(side.opponent()));
    }
    p
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(600))]

    /// Random set-up positions (ORDO-2.3) on boards up to 6 x 6, both games: either side may be
    /// split at the start of its turn (ORDO-9.1, ORDO-9.2, ORDOX-3.5), the opponent may be split
    /// before a capture (ORDOX-4.1), and games may already be decided (ORDO-10.5).
    #[test]
    fn proptest_set_up_positions(
        cols in 2usize..=6,
        rows in 2usize..=6,
        cells in prop::collection::vec(0u8..10, 36),
        black in any::<bool>(),
        x in any::<bool>(),
    ) {
        let p = set_up(cols, rows, &cells, black, x);
        prop_assert!(p.validate().is_ok(), "{}", format_position(&p));
        let r = agree_both(&p);
        prop_assert!(r.is_ok(), "{}", r.unwrap_err());
    }
}

use crate::common::Playout;

/// The same property driven by quickcheck, on the 10 x 8 and 8 x 8 starts' playouts and the
/// small boards alike.
#[test]
fn quickcheck_reachable_positions() {
    fn prop(p: Playout) -> TestResult {
        let pos = playout_end(&playout_starts(), p.start, &p.choices);
        match agree_both(&pos) {
            Ok(_) => TestResult::passed(),
            Err(e) => TestResult::error(e),
        }
    }
    QuickCheck::new()
        .tests(48)
        .quickcheck(prop as fn(Playout) -> TestResult);
}
