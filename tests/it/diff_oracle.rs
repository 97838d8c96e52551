//! The differential oracle of `src/diff/` catches a broken engine and shrinks the evidence: an
//! engine that forgets captures (ORDO-6.4) is caught on playouts and set-up positions, and the
//! reproduction is minimized to a handful of pieces. Two identical engines never diverge.

use ordo::diff::{
    check_apply_rebuild, check_notation, check_playout, compare_position, minimize,
    random_position, reachable_starts, Rng,
};
use ordo::reference::Reference;
use ordo::rules::{Color, Dims, Engine, Move, Position, PositionError, Status, Variant};

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
    use ordo::diff::campaign::{run_campaign, CampaignOptions};
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
