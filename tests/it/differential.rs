//! Differential tests: the bitboard engine (`crates/bitboard/`) must agree with the reference
//! engine (`crates/reference/`) on everything the [`Engine`] trait exposes — whether a position
//! can be set up (ORDO-2.3), the legal moves as sets of canonical notation (one move = one
//! turn, ORDOX-5.1; canonical ordo ends and tie choices, spec/notation.md), the position after
//! every legal move, the status with winner and reason (ORDO-10.1 to ORDO-10.5), and perft.
//!
//! Positions come from random playouts of the reference engine (`crate::common::playout_starts()`:
//! the standard 10 x 8 start, the 8 x 8 variant and small boards, both games) and from random
//! set-up positions on boards of 2..=8 x 2..=8 in which each colour is one group or scattered,
//! either side moves, in both games. Both proptest and quickcheck drive the same checks.
//!
//! Perft is compared to depth 3 where the reference engine can afford it (small boards), to
//! depth 2 on the big boards, and to depth 1 (the move list) for the large Ordo X positions,
//! whose thousands of turns make the reference engine's deeper counts take minutes.

use crate::common::{playout, playout_starts, won};
use ordo_bitboard::Bitboard;
use ordo_conformance::diff::compare_position;
use ordo_core::notation::sorted_moves;
use ordo_core::notation::{format_move, format_position, parse_move};
use ordo_core::rules::Rng;
use ordo_core::rules::{setup, Color, Dims, Engine, Position, Variant, WinReason};
use ordo_reference::Reference;
use proptest::prelude::*;
use quickcheck::{Arbitrary, Gen, QuickCheck, TestResult};

// ------------------------------------------------------------------------------------------
// The comparison
// ------------------------------------------------------------------------------------------

/// How many nodes the reference engine may expand for one perft comparison.
const REFERENCE_NODE_BUDGET: u64 = 250;

/// The deepest perft (at most `max_depth`) whose reference computation expands at most
/// [`REFERENCE_NODE_BUDGET`] nodes, estimated with the bitboard engine's own counts (which are
/// then checked, so a wrong estimate only costs time). Bigger boards get a smaller budget.
fn affordable_depth(b: &Bitboard, max_depth: u32) -> u32 {
    let budget = if b.dims().len() > 40 {
        REFERENCE_NODE_BUDGET / 4
    } else {
        REFERENCE_NODE_BUDGET
    };
    let mut expanded = 0;
    let mut depth = 1;
    while depth < max_depth {
        expanded += b.perft(depth - 1);
        if expanded + b.perft(depth) > budget {
            break;
        }
        depth += 1;
    }
    depth
}

/// Compare the two engines on one position: acceptance (ORDO-2.3), status (ORDO-10.1 to
/// ORDO-10.5), move lists (each move listed once, in canonical form, and the same set), the
/// position after every legal move (also reloaded into a fresh bitboard, which checks the
/// incrementally kept split flags through status and move count), and perft up to
/// `max_depth`. Returns a description of the first disagreement.
fn agree(p: &Position, max_depth: u32) -> Result<(), String> {
    let here = format_position(p);
    // Acceptance, status, the move lists as notation and the position after every move: the
    // one engine-against-engine oracle (`ordo_conformance::diff`, also behind the fuzz targets and
    // `ordo fuzz`). What follows checks what that oracle does not.
    compare_position::<Reference, Bitboard>(p).map_err(|d| d.to_string())?;
    let (Ok(r), Ok(b)) = (Reference::from_position(p), Bitboard::from_position(p)) else {
        return Ok(());
    };
    if b.to_position() != *p {
        return Err(format!(
            "{here}: bitboard exports {}",
            format_position(&b.to_position())
        ));
    }
    solver_interface_agrees(&r, &b).map_err(|e| format!("{here}: {e}"))?;
    let dims = p.dims();
    for m in &b.legal_moves() {
        if m.canonical(dims) != *m {
            return Err(format!(
                "{here}: bitboard lists non-canonical {}",
                format_move(m)
            ));
        }
    }
    let mb = sorted_moves(&b);
    if mb.windows(2).any(|w| w[0] == w[1]) {
        return Err(format!("{here}: bitboard lists a move twice"));
    }
    if (b.perft(1) as usize) != mb.len() {
        return Err(format!(
            "{here}: bitboard perft(1) {} != {} moves",
            b.perft(1),
            mb.len()
        ));
    }
    for m in r.legal_moves() {
        let (cr, cb) = (r.apply(&m), b.apply(&m));
        let pb = cb.to_position();
        // The applied engine carries incremental state; a fresh load recomputes it.
        let fresh = Bitboard::from_position(&pb)
            .map_err(|e| format!("{here} after {}: {e}", format_move(&m)))?;
        if cb.status() != fresh.status() || cb.perft(1) != fresh.perft(1) {
            return Err(format!(
                "{here} after {}: applied bitboard says {} / {} moves, reloaded {} / {}",
                format_move(&m),
                cb.status(),
                cb.perft(1),
                fresh.status(),
                fresh.perft(1)
            ));
        }
        // A decided child costs the reference nothing to judge (ORDO-10.5).
        if cb.status().is_over() && cr.status() != cb.status() {
            return Err(format!(
                "{here} after {}: status reference {}, bitboard {}",
                format_move(&m),
                cr.status(),
                cb.status()
            ));
        }
    }
    for depth in 2..=affordable_depth(&b, max_depth) {
        let (nr, nb) = (r.perft(depth), b.perft(depth));
        if nr != nb {
            return Err(format!(
                "{here}: perft({depth}) reference {nr}, bitboard {nb}"
            ));
        }
    }
    Ok(())
}

/// The solver's entry points of the trait (crates/solve/src/): the occupancy masks, loading from
/// them (with the ORDO-2.3 checks), and the successor list in move-list order, which the
/// bitboard engine produces without building moves.
fn solver_interface_agrees(r: &Reference, b: &Bitboard) -> Result<(), String> {
    let occ = r.occupancy();
    if b.occupancy() != occ {
        return Err(format!("occupancy {:x?} vs {:x?}", occ, b.occupancy()));
    }
    let (dims, v, side) = (r.dims(), r.variant(), r.side_to_move());
    let (lr, lb) = (
        Reference::from_occupancy(dims, v, side, occ),
        Bitboard::from_occupancy(dims, v, side, occ),
    );
    match (&lr, &lb) {
        (Ok(x), Ok(y)) if x.to_position() == r.to_position() && *y == *b => {}
        _ => return Err(format!("from_occupancy: {lr:?} / {lb:?}")),
    }
    // The other side to move: both accept or both refuse it, for the same reason.
    let other = side.opponent();
    let (or, ob) = (
        Reference::from_occupancy(dims, v, other, occ).map(|e| e.to_position()),
        Bitboard::from_occupancy(dims, v, other, occ).map(|e| e.to_position()),
    );
    if or != ob {
        return Err(format!("from_occupancy, {other} to move: {or:?} / {ob:?}"));
    }
    for (name, succ, moves) in [
        ("reference", successor_positions(r), applied_positions(r)),
        ("bitboard", successor_positions(b), applied_positions(b)),
    ] {
        if succ != moves {
            return Err(format!(
                "{name}: successors differ from applying the move list"
            ));
        }
    }
    fast_paths_agree(b)
}

/// Successors without rebuilding a bitboard: the occupancies after each move
/// are those of the successors, and a position loaded with its split flags named is the
/// one loaded by flood fill.
fn fast_paths_agree(b: &Bitboard) -> Result<(), String> {
    let (mut succ, mut occs) = (Vec::new(), Vec::new());
    b.successors(&mut succ);
    b.successor_occupancies(&mut occs);
    if occs != succ.iter().map(Engine::occupancy).collect::<Vec<_>>() {
        return Err(format!("successor occupancies differ: {b:?}"));
    }
    let occ = b.occupancy();
    let (dims, v, side) = (b.dims(), b.variant(), b.side_to_move());
    let split = [0, 1].map(|c| !one_group(dims, occ[c]));
    let known = Bitboard::from_occupancy_split(dims, v, side, occ, split);
    match known {
        Ok(k) if k == *b && successor_positions(&k) == successor_positions(b) => Ok(()),
        k => Err(format!("from_occupancy_split: {k:?} / {b:?}")),
    }
}

/// Whether the pieces of `set` are one group (ORDO-4.1: neighbours touch along a side or at
/// a corner), by flood fill.
fn one_group(dims: Dims, set: u128) -> bool {
    if set == 0 {
        return true;
    }
    let cols = i32::from(dims.cols);
    let mut reached = set & set.wrapping_neg();
    let mut todo = vec![reached.trailing_zeros() as i32];
    while let Some(i) = todo.pop() {
        for (dr, dc) in (-1..=1).flat_map(|r| (-1..=1).map(move |c| (r, c))) {
            let (r, c) = (i / cols + dr, i % cols + dc);
            let j = r * cols + c;
            let on = (0..cols).contains(&c) && (0..i32::from(dims.rows)).contains(&r);
            if on && set >> j & 1 == 1 && reached >> j & 1 == 0 {
                reached |= 1 << j;
                todo.push(j);
            }
        }
    }
    reached == set
}

fn successor_positions<E: Engine>(e: &E) -> Vec<Position> {
    let mut out = Vec::new();
    e.successors(&mut out);
    out.iter().map(Engine::to_position).collect()
}

fn applied_positions<E: Engine>(e: &E) -> Vec<Position> {
    e.legal_moves()
        .iter()
        .map(|m| e.apply(m).to_position())
        .collect()
}

fn max_depth_for(p: &Position) -> u32 {
    if p.dims().len() > 40 {
        2
    } else {
        3
    }
}

// ------------------------------------------------------------------------------------------
// Reachable positions: random playouts
// ------------------------------------------------------------------------------------------

/// Limit playout length on the big boards, where the reference engine is slow (an Ordo X
/// position there has about two thousand turns).
fn plies_for(p: &Position, n: usize) -> usize {
    match (p.dims().len() > 40, p.variant) {
        (true, Variant::X) => n.min(4),
        (true, Variant::Classic) => n.min(16),
        _ => n,
    }
}

/// Play the same choices with both engines (the moves at each ply are sorted by notation, so
/// agreeing engines take the same line); the lines must visit the same positions. The last
/// position is then compared in full.
fn agree_on_playout(start: usize, choices: &[u32]) -> Result<(), String> {
    let starts = playout_starts();
    let s = &starts[start % starts.len()];
    let n = plies_for(s, choices.len());
    let line_r = playout::<Reference>(s, &choices[..n]);
    let line_b = playout::<Bitboard>(s, &choices[..n]);
    if line_r.len() != line_b.len() {
        return Err(format!(
            "from {}: reference line has {} positions, bitboard {}",
            format_position(s),
            line_r.len(),
            line_b.len()
        ));
    }
    for (er, eb) in line_r.iter().zip(&line_b) {
        if er.to_position() != eb.to_position() {
            return Err(format!(
                "from {}: lines part at reference {} vs bitboard {}",
                format_position(s),
                format_position(&er.to_position()),
                format_position(&eb.to_position())
            ));
        }
    }
    let last = line_r.last().expect("the start").to_position();
    agree(&last, max_depth_for(&last))
}

// ------------------------------------------------------------------------------------------
// Arbitrary set-up positions (ORDO-2.3)
// ------------------------------------------------------------------------------------------

/// How one colour's pieces are laid out.
#[derive(Clone, Copy, Debug)]
enum Layout {
    /// One group grown square by square from a random seed square (ORDO-4.1).
    Connected,
    /// Scattered at random: usually several groups.
    Scattered,
    /// One group with a few scattered pieces added: split, but barely.
    Mostly,
}

/// A set-up position described by its parameters; [`Setup::build`] makes it.
#[derive(Clone, Debug)]
struct Setup {
    cols: usize,
    rows: usize,
    white_to_move: bool,
    x: bool,
    layouts: [Layout; 2],
    counts: [usize; 2],
    seed: u64,
}

impl Setup {
    fn from_rng(rng: &mut Rng) -> Setup {
        let cols = 2 + rng.below(7) as usize;
        let rows = 2 + rng.below(7) as usize;
        let n = cols * rows;
        let layout = |rng: &mut Rng| match rng.below(5) {
            0 | 1 => Layout::Connected,
            2 => Layout::Mostly,
            _ => Layout::Scattered,
        };
        let la = layout(rng);
        let lb = layout(rng);
        let ca = rng.below(n as u64 / 2 + 1) as usize;
        let cb = rng.below(n as u64 / 2 + 1) as usize;
        Setup {
            cols,
            rows,
            white_to_move: rng.below(2) == 0,
            x: rng.below(2) == 0,
            layouts: [la, lb],
            counts: [ca, cb],
            seed: rng.next_u64(),
        }
    }

    fn build(&self) -> Position {
        let dims = Dims::new(self.cols, self.rows).expect("2..=8 x 2..=8");
        let to_move = if self.white_to_move {
            Color::White
        } else {
            Color::Black
        };
        let variant = if self.x { Variant::X } else { Variant::Classic };
        let mut p = Position::empty(dims, to_move, variant);
        let mut rng = Rng::new(self.seed);
        let all: Vec<_> = dims.squares().collect();
        for (i, c) in Color::ALL.into_iter().enumerate() {
            let want = self.counts[i];
            let mut placed = 0;
            let mut tries = 0;
            let put = |p: &mut Position, sq, placed: &mut usize| {
                if p.get(sq).is_none() {
                    p.set(sq, Some(c));
                    *placed += 1;
                }
            };
            match self.layouts[i] {
                Layout::Scattered => {
                    while placed < want && tries < 400 {
                        tries += 1;
                        let sq = all[rng.below(all.len() as u64) as usize];
                        put(&mut p, sq, &mut placed);
                    }
                }
                Layout::Connected | Layout::Mostly => {
                    let grow = match self.layouts[i] {
                        Layout::Mostly => want.saturating_sub(1 + rng.below(3) as usize),
                        _ => want,
                    };
                    let mut group: Vec<_> = Vec::new();
                    while placed < grow && tries < 400 {
                        tries += 1;
                        let sq = if group.is_empty() {
                            all[rng.below(all.len() as u64) as usize]
                        } else {
                            let from = group[rng.below(group.len() as u64) as usize];
                            let dc = rng.below(3) as i8 - 1;
                            let dr = rng.below(3) as i8 - 1;
                            match dims.offset(from, dc, dr) {
                                Some(sq) => sq,
                                None => continue,
                            }
                        };
                        if p.get(sq).is_none() {
                            put(&mut p, sq, &mut placed);
                            group.push(sq);
                        }
                    }
                    while placed < want && tries < 800 {
                        tries += 1;
                        let sq = all[rng.below(all.len() as u64) as usize];
                        put(&mut p, sq, &mut placed);
                    }
                }
            }
        }
        // Most of the time, clear the side to move off its target row so that the position
        // can be set up (ORDO-2.3); the rest stays as drawn and may be refused by both.
        if rng.below(8) != 0 {
            let target = to_move.opponent().home_row(dims);
            for sq in dims.squares() {
                if sq.row == target && p.get(sq) == Some(to_move) {
                    p.set(sq, None);
                }
            }
        }
        p
    }
}

fn agree_on_setup(s: &Setup) -> Result<(), String> {
    let p = s.build();
    agree(&p, max_depth_for(&p))
}

// ------------------------------------------------------------------------------------------
// proptest
// ------------------------------------------------------------------------------------------

fn setup_strategy() -> impl Strategy<Value = Setup> {
    any::<u64>().prop_map(|seed| Setup::from_rng(&mut Rng::new(seed)))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Reachable positions: a random playout from any start, then everything compared.
    #[test]
    fn proptest_reachable(start in 0usize..1000, choices in prop::collection::vec(any::<u32>(), 0..40)) {
        let r = agree_on_playout(start, &choices);
        prop_assert!(r.is_ok(), "{}", r.unwrap_err());
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    /// Set-up positions (ORDO-2.3): either colour split or not (ORDO-9.1, ORDOX-3.5), any
    /// counts, either side to move, both games.
    #[test]
    fn proptest_setup(s in setup_strategy()) {
        let r = agree_on_setup(&s);
        prop_assert!(r.is_ok(), "{:?}: {}", s, r.unwrap_err());
    }
}

// ------------------------------------------------------------------------------------------
// quickcheck
// ------------------------------------------------------------------------------------------

use crate::common::Playout;

impl Arbitrary for Setup {
    fn arbitrary(g: &mut Gen) -> Self {
        Setup::from_rng(&mut Rng::new(u64::arbitrary(g)))
    }
    fn shrink(&self) -> Box<dyn Iterator<Item = Self>> {
        // Fewer pieces first, then smaller boards.
        let mut v = Vec::new();
        for i in 0..2 {
            if self.counts[i] > 0 {
                let mut s = self.clone();
                s.counts[i] -= 1;
                v.push(s);
            }
        }
        if self.cols > 2 {
            v.push(Setup {
                cols: self.cols - 1,
                ..self.clone()
            });
        }
        if self.rows > 2 {
            v.push(Setup {
                rows: self.rows - 1,
                ..self.clone()
            });
        }
        Box::new(v.into_iter())
    }
}

fn to_result(r: Result<(), String>) -> TestResult {
    match r {
        Ok(()) => TestResult::passed(),
        Err(e) => TestResult::error(e),
    }
}

/// Reachable positions, driven by quickcheck.
#[test]
fn quickcheck_reachable() {
    fn prop(p: Playout) -> TestResult {
        to_result(agree_on_playout(p.start, &p.choices))
    }
    QuickCheck::new()
        .tests(64)
        .quickcheck(prop as fn(Playout) -> TestResult);
}

/// Set-up positions, driven by quickcheck.
#[test]
fn quickcheck_setup() {
    fn prop(s: Setup) -> TestResult {
        to_result(agree_on_setup(&s))
    }
    QuickCheck::new()
        .tests(600)
        .quickcheck(prop as fn(Setup) -> TestResult);
}

// ------------------------------------------------------------------------------------------
// Fixed positions
// ------------------------------------------------------------------------------------------

fn check(p: &Position, depth: u32) {
    if let Err(e) = agree(p, depth) {
        panic!("{e}");
    }
}

/// ORDO-1.1, ORDO-1.6, ORDO-2.2: every start position the playouts use, compared in full.
#[test]
fn every_playout_start() {
    for p in playout_starts() {
        let depth = match (p.dims().len() > 40, p.variant) {
            (true, Variant::X) => 1,
            (true, Variant::Classic) => 2,
            (false, _) => 3,
        };
        check(&p, depth);
    }
}

/// Perft from the standard starts against the published figures (spec/perft.md), on one
/// thread and on two. ORDOX-5.1: Ordo X counts turns.
#[test]
fn published_perft() {
    let c = Bitboard::from_position(&setup::standard(Variant::Classic)).unwrap();
    for (d, n) in [(1, 56), (2, 3_136), (3, 190_114), (4, 11_501_158)] {
        assert_eq!(c.perft(d), n, "classic perft({d})");
    }
    assert_eq!(c.perft_threads(4, 2).unwrap(), 11_501_158);
    let x = Bitboard::from_position(&setup::standard(Variant::X)).unwrap();
    assert_eq!(x.perft(1), 2_062);
    assert_eq!(x.perft(2), 4_207_548);
    assert_eq!(x.perft_threads(2, 2).unwrap(), 4_207_548);
    let c8 = Bitboard::from_position(&setup::chess_board(Variant::Classic)).unwrap();
    assert_eq!(c8.perft(3), 103_376);
    let x8 = Bitboard::from_position(&setup::chess_board(Variant::X)).unwrap();
    assert_eq!(x8.perft(2), 1_687_230);
    let small = crate::common::fen("BBBB/4/4/WWWW w x");
    assert_eq!(Bitboard::from_position(&small).unwrap().perft(4), 240_206);
    let small = crate::common::fen("BBBB/4/4/WWWW w classic");
    assert_eq!(Bitboard::from_position(&small).unwrap().perft(4), 10_286);
}

/// ORDOX-4.1, ORDOX-4.2 tie choices: a capture that leaves two equal groups gives one move per
/// group kept, each named by the group's lowest square, with the other group removed; an
/// unequal split removes the smaller group without a choice.
#[test]
fn x_tie_choices_and_removal() {
    // b3xb4 splits a4 | c4: a tie.
    let tie = crate::common::pos(Variant::X, 3, 5, 'w', "b3", "a4 b4 c4");
    check(&tie, 3);
    let b = Bitboard::from_position(&tie).unwrap();
    let moves = crate::common::move_set(&b);
    assert!(
        moves.contains("b3xb4/a4") && moves.contains("b3xb4/c4"),
        "{moves:?}"
    );
    assert!(!moves.contains("b3xb4"));
    let kept_a = b.apply(&parse_move("b3xb4/a4").unwrap()).to_position();
    assert_eq!(kept_a.pieces(Color::Black).len(), 1);
    assert_eq!(kept_a.pieces(Color::Black)[0].to_string(), "a4");
    // c3xc4 splits a4 b4 | d4: the smaller group goes, no choice.
    let unequal = crate::common::pos(Variant::X, 4, 5, 'w', "c3", "a4 b4 c4 d4");
    check(&unequal, 3);
    let b = Bitboard::from_position(&unequal).unwrap();
    let after = b.apply(&parse_move("c3xc4").unwrap()).to_position();
    let black: Vec<String> = after
        .pieces(Color::Black)
        .iter()
        .map(|s| s.to_string())
        .collect();
    assert_eq!(black, ["a4", "b4"]);
}

/// ORDOX-3.1, ORDOX-3.3, ORDOX-3.4: two-step turns, and a sideways capture of the last piece
/// that ends the game as a one-step turn.
#[test]
fn x_sideways_turns() {
    let p = crate::common::pos(Variant::X, 4, 4, 'w', "a2", "b2");
    check(&p, 3);
    let b = Bitboard::from_position(&p).unwrap();
    let moves = crate::common::move_set(&b);
    assert!(moves.contains("a2xb2"), "{moves:?}");
    let after = b.apply(&parse_move("a2xb2").unwrap());
    assert_eq!(after.status(), won(Color::White, WinReason::NoPieces));
}

/// ORDO-9.1, ORDO-9.2, ORDO-10.3: a split classic player reconnects, backward moves included,
/// or loses when it cannot.
#[test]
fn classic_split_players() {
    check(&crate::common::fen("4/W1BW/W3 w classic"), 3);
    check(
        &crate::common::pos(Variant::Classic, 5, 5, 'w', "a3 c3 e3", "c5"),
        3,
    );
    check(
        &crate::common::pos(Variant::Classic, 5, 5, 'b', "a1 e1", "a4 b4 d4 e4"),
        3,
    );
}

/// Many random playouts on the small boards, every position of every line compared in full
/// (a deterministic sweep alongside the random properties).
#[test]
fn small_board_sweep() {
    let starts: Vec<Position> = playout_starts()
        .into_iter()
        .filter(|p| p.dims().len() <= 25)
        .collect();
    let mut rng = Rng::new(2024);
    for round in 0..2 {
        for s in &starts {
            let choices: Vec<u32> = (0..4 + 6 * round).map(|_| rng.next_u64() as u32).collect();
            for e in playout::<Reference>(s, &choices) {
                check(&e.to_position(), 2);
            }
        }
    }
}
