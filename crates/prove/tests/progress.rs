//! What a running search shows: every progress report of a bounded search names its bound,
//! and those of an unbounded one none.

use std::sync::atomic::AtomicBool;

use ordo_core::rules::{setup, Color, Dims, Variant};
use ordo_prove::{prove, Goal, Options, Outcome};

/// Ordo X 4 x 4 from the two-row setup, a White win in 13 plies (ORDO-10.1): proved within 13
/// with reports every 16,384 nodes, each saying the bound; the unbounded search's say none.
#[test]
fn progress_reports_name_the_bound_of_a_bounded_search() {
    let start = setup::filled_rows(Dims::new(4, 4).unwrap(), 2, Variant::X).unwrap();
    let stop = AtomicBool::new(false);
    for (goal, want) in [
        (
            Goal::WinWithin {
                side: Color::White,
                plies: 13,
            },
            Some(13),
        ),
        (Goal::Value, None),
    ] {
        let opts = Options {
            table_bytes: 64 << 20,
            goal,
            ..Options::default()
        };
        let mut seen = Vec::new();
        let r = prove(&start, &opts, None, None, &stop, &mut |t| {
            seen.push(t.within)
        })
        .unwrap();
        assert_eq!(r.outcome, Outcome::Wins(Color::White));
        assert!(seen.len() >= 2, "{goal:?}: {} reports", seen.len());
        assert!(seen.iter().all(|w| *w == want), "{goal:?}: {seen:?}");
    }
}
