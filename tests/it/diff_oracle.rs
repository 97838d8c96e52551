//! The differential oracle of `crates/conformance/src/diff/` catches a broken engine and shrinks the evidence: an
//! engine that forgets captures (ORDO-6.4) is caught on playouts and set-up positions, and the
//! reproduction is minimized to a handful of pieces. Two identical engines never diverge.

use ordo_conformance::diff::{
    check_apply_rebuild, check_notation, check_playout, compare_position, minimize,
    random_position, reachable_starts,
};
use ordo_core::rules::{Color, Dims, Engine, Move, Position, PositionError, Rng, Status, Variant};
use ordo_reference::Reference;

/// The reference engine with captures removed from its move list: a planted bug.
#[derive(Clone)]
struct ForgetsCaptures(Reference);

impl Engine for ForgetsCaptures {
    const NAME: &'static str = "forgets-captures";
    fn from_position(pos: &Position) -> Result<Self, PositionError> {
        Reference::from_position(pos).map(ForgetsCaptures)
    }
    fn to_position(&self) -> Position {
        self.0.to_position()
    }
    fn dims(&self) -> Dims {
        self.0.dims()
    }
    fn side_to_move(&self) -> Color {
        self.0.side_to_move()
    }
    fn variant(&self) -> Variant {
        self.0.variant()
    }
    fn legal_moves(&self) -> Vec<Move> {
        self.0
            .legal_moves()
            .into_iter()
            .filter(|m| !m.is_capture())
            .collect()
    }
    fn apply(&self, mv: &Move) -> Self {
        ForgetsCaptures(self.0.apply(mv))
    }
    fn status(&self) -> Status {
        self.0.status()
    }
}

#[test]
fn identical_engines_never_diverge() {
    let mut rng = Rng::new(7);
    let starts = reachable_starts();
    for i in 0..40 {
        let start = &starts[i % starts.len()];
        let plies = if start.dims().len() > 40 && start.variant == Variant::X {
            2
        } else {
            15
        };
        assert!(check_playout::<Reference, Reference>(start, &mut rng, plies).unwrap() >= 1);
        let p = random_position(&mut rng, 6);
        compare_position::<Reference, Reference>(&p).unwrap();
        check_apply_rebuild::<Reference>(&p).unwrap();
    }
}

/// ORDO-6.4: the planted bug is found and the reproduction is small.
#[test]
fn a_planted_bug_is_caught_and_minimized() {
    let mut rng = Rng::new(11);
    let mut caught = None;
    for _ in 0..500 {
        let p = random_position(&mut rng, 6);
        if let Err(d) = compare_position::<Reference, ForgetsCaptures>(&p) {
            caught = Some(d);
            break;
        }
    }
    let d = caught.expect("a capture position within 500 random positions");
    assert!(d.what.contains("legal moves differ"), "{d}");
    let small = minimize(&d, |p| {
        compare_position::<Reference, ForgetsCaptures>(p).err()
    });
    let pieces = small.position.count(Color::White) + small.position.count(Color::Black);
    assert!(pieces <= 3, "not minimized: {small}");
    assert!(compare_position::<Reference, ForgetsCaptures>(&small.position).is_err());
}

#[test]
fn notation_oracle_accepts_anything_without_panicking() {
    for text in [
        "",
        "e2-e4",
        "a2:d2-a3",
        "2BB2BB2/BBBBBBBBBB/BB2BB2BB/10/10/WW2WW2WW/WWWWWWWWWW/2WW2WW2 w classic",
        "\u{1F600}",
        "[Variant \"x\"]\n1. a3-a4",
    ] {
        check_notation(text).unwrap();
    }
}

/// The stable campaign (`ordo fuzz`'s library side): a duration the clock cannot reach does not
/// overflow, a stop flag ends it as interrupted, and a short run checks positions without
/// divergence between two copies of the same engine.
#[test]
fn campaign_stops_and_reports() {
    use ordo_conformance::diff::campaign::{run_campaign, CampaignOptions};
    use std::sync::atomic::AtomicBool;
    use std::time::Duration;
    let stopped = AtomicBool::new(true);
    let opts = CampaignOptions {
        seed: 5,
        threads: 1,
        duration: Duration::MAX,
        stop: Some(&stopped),
        progress: None,
    };
    let r = run_campaign::<Reference, Reference>(&opts).unwrap();
    assert!(r.interrupted);
    assert_eq!((r.seed, r.threads, r.checked), (5, 1, 0));
    let opts = CampaignOptions {
        duration: Duration::from_millis(300),
        stop: None,
        ..opts
    };
    let r = run_campaign::<Reference, Reference>(&opts).unwrap();
    assert!(!r.interrupted);
    assert!(r.checked > 0);
    assert_eq!(r.divergence, None);
}

/// Fuzz-like inputs: `n` byte strings of 0..200 bytes drawn from `seed`.
fn fuzz_inputs(seed: u64, n: usize) -> Vec<Vec<u8>> {
    let mut rng = Rng::new(seed);
    (0..n)
        .map(|_| {
            let len = rng.below(200) as usize;
            (0..len).map(|_| rng.next_u64() as u8).collect()
        })
        .collect()
}

/// ORDO-2.3, ORDO-1.5: every case the coverage-guided targets build from bytes is on a board of
/// at most 128 squares and a position that can be set up, but for some set-ups left invalid
/// on purpose (the engines must refuse them alike); the kinds are all reached (small
/// set-up and playout, big playouts from the 10 x 8 and the 8 x 8 start, sparse big set-ups,
/// both variants), big set-ups stay sparse, and the same bytes give the same case.
#[test]
fn fuzz_cases_are_valid_bounded_and_varied_ordo_2_3() {
    use ordo_bitboard::Bitboard;
    use ordo_testkit::input::{Case, Origin, BIG_PIECES, PICKS, SMALL_SQUARES};
    let mut kinds = std::collections::BTreeSet::new();
    let mut invalid = 0;
    for bytes in fuzz_inputs(3, 3000) {
        let Some(case) = Case::from_bytes::<Bitboard>(&bytes) else {
            continue;
        };
        let p = &case.position;
        if p.validate().is_err() {
            assert_eq!(case.origin, Origin::SetUp, "only a set-up may be invalid");
            invalid += 1;
            continue;
        }
        assert!(p.dims().len() <= 128);
        assert_eq!(case.picks.len(), PICKS);
        assert_eq!(case.is_small(), p.dims().len() <= SMALL_SQUARES);
        let pieces = p.count(Color::White) + p.count(Color::Black);
        if !case.is_small() && case.origin == Origin::SetUp {
            assert!(pieces <= 2 * (BIG_PIECES + 1), "{pieces} pieces");
        }
        let playout = matches!(case.origin, Origin::Playout(n) if n > 0);
        kinds.insert((
            p.dims().len(),
            case.origin == Origin::SetUp,
            playout,
            p.variant,
        ));
        assert_eq!(Case::from_bytes::<Bitboard>(&bytes), Some(case));
    }
    for (squares, setup, variant) in [
        (80, false, Variant::X),
        (80, false, Variant::Classic),
        (64, false, Variant::Classic),
        (25, true, Variant::X),
        (30, false, Variant::Classic),
    ] {
        assert!(
            kinds
                .iter()
                .any(|k| k.0 == squares && k.1 == setup && k.3 == variant),
            "no case of {squares} squares, set-up {setup}, {variant:?}"
        );
    }
    assert!(
        kinds.iter().any(|k| k.0 > SMALL_SQUARES && k.1),
        "no big set-up"
    );
    assert!(
        kinds.iter().any(|k| k.0 == 80 && k.2),
        "no playout on the 10 x 8 board"
    );
    assert!(invalid > 10, "only {invalid} invalid set-ups");
}

/// The targets' oracles pass on the correct engines, each over cases of every kind.
#[test]
fn fuzz_oracles_pass_on_correct_engines() {
    use ordo_bitboard::Bitboard;
    use ordo_testkit::input::Case;
    use ordo_testkit::oracles::{check_adjudicate_case, check_apply_case, check_case};
    let mut compared = 0;
    for bytes in fuzz_inputs(4, 300) {
        let Some(case) = Case::from_bytes::<Bitboard>(&bytes) else {
            continue;
        };
        compared += check_case::<Reference, Bitboard>(&case).unwrap();
        check_apply_case::<Bitboard>(&case, 4).unwrap();
        if case.is_small() && case.is_cheap() {
            check_apply_case::<Reference>(&case, 1).unwrap();
        }
        check_adjudicate_case::<Reference, Bitboard>(&case).unwrap();
    }
    assert!(compared > 1000, "only {compared} moves compared");
}

/// ORDO-6.4: an engine that forgets captures is caught by the differential and the
/// adjudicator oracles of the targets, on small boards and (sampled) on big ones.
#[test]
fn fuzz_oracles_catch_forgotten_captures_ordo_6_4() {
    use ordo_testkit::input::Case;
    use ordo_testkit::oracles::{check_adjudicate_case, check_case};
    let (mut small, mut big, mut judged) = (0, 0, 0);
    for bytes in fuzz_inputs(5, 2000) {
        let Some(case) = Case::from_bytes::<Reference>(&bytes) else {
            continue;
        };
        if case.position.variant == Variant::X && !case.is_small() {
            continue; // the reference's Ordo X move list on a big board is slow in a test
        }
        if check_case::<Reference, ForgetsCaptures>(&case).is_err() {
            *if case.is_small() {
                &mut small
            } else {
                &mut big
            } += 1;
        }
        if check_adjudicate_case::<Reference, ForgetsCaptures>(&case).is_err() {
            judged += 1;
        }
    }
    assert!(
        small > 0 && big > 0 && judged > 0,
        "caught {small} small, {big} big, {judged} judged"
    );
}

/// spec/game-record.md: records of legal games, as the record target writes them (every
/// spelling, comments, move numbers, results), are read and replayed to the end; mutated and
/// raw records never make the oracle fail on correct engines.
#[test]
fn fuzz_records_replay_in_full() {
    use ordo_bitboard::Bitboard;
    use ordo_testkit::input::Draws;
    use ordo_testkit::record::{check_record, game_record, record_from_bytes};
    let mut moves = 0;
    for bytes in fuzz_inputs(6, 400) {
        let text = record_from_bytes::<Bitboard>(&bytes);
        check_record::<Reference, Bitboard>(&text).unwrap();
        let (clean, n) = game_record::<Bitboard>(&mut Draws::new(&bytes));
        let replayed = check_record::<Reference, Bitboard>(&clean).unwrap();
        assert_eq!(replayed, n, "not replayed in full:\n{clean}");
        moves += n;
    }
    assert!(moves > 1000, "only {moves} moves");
}
