//! Classic Ordo's cycles: a search for who wins that ends stuck, neither proved nor refuted
//! (a refutation resting on a cycle through its path misleads it: endless play is a draw only
//! on that path, ORDO-3.3), goes on bounded by growing ply counts, which have no cycles; the
//! win they prove is a certificate that holds on the reference engine.

use std::sync::atomic::AtomicBool;

use ordo_certificate::{check_file, Established};
use ordo_core::notation::parse_position;
use ordo_core::rules::Color;
use ordo_prove::{prove, Goal, Options, Outcome};

/// A classic 4 x 5 position from a random game of the two-row start, where the unbounded
/// search for White without the one-ply win check ends stuck (alone, it would settle only
/// that Black cannot force a win): White's win is proved within 19 plies, the first bound
/// that holds one, and its certificate checks (ORDO-10.1).
#[test]
fn a_search_stuck_on_cycles_is_settled_by_bounded_searches() {
    let pos = parse_position("1B1B/B1B1/BBWB/2WW/2W1 w classic").unwrap();
    let dir = std::env::temp_dir().join(format!("ordo-prove-cycles-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let cert = dir.join("stuck.cert");
    let opts = Options {
        table_bytes: 64 << 20,
        win_check: Some(false),
        ..Options::default()
    };
    let stop = AtomicBool::new(false);
    let r = prove(&pos, &opts, None, Some(&cert), &stop, &mut |_| {}).unwrap();
    assert_eq!(r.outcome, Outcome::Wins(Color::White));
    assert_eq!(r.bounded, Some(19));
    assert_eq!(r.parts[0].1.longest, Some(19));
    let checked = check_file(&cert, None).unwrap();
    assert_eq!(checked.established, Established::Wins(Color::White));
    assert_eq!(checked.longest, Some(19));
    // The bound is the quickest win: within 17 plies White cannot win.
    let within = Options {
        goal: Goal::WinWithin {
            side: Color::White,
            plies: 17,
        },
        ..opts
    };
    let r = prove(&pos, &within, None, None, &stop, &mut |_| {}).unwrap();
    assert_eq!(r.outcome, Outcome::CannotWin(Color::White));
    assert_eq!(r.bounded, None);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The same position with the one-ply win check (classic Ordo's default): a child whose side
/// to move wins at once is a leaf, the unbounded search is not stuck, and it proves White's
/// win with a tenth of the nodes; the certificate checks on the reference engine, every
/// such leaf expanded there to its winning move (ORDO-10.1).
#[test]
fn the_win_check_proves_it_without_bounds() {
    let pos = parse_position("1B1B/B1B1/BBWB/2WW/2W1 w classic").unwrap();
    let dir = std::env::temp_dir().join(format!("ordo-prove-check-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let cert = dir.join("checked.cert");
    let stop = AtomicBool::new(false);
    let run = |check: bool, cert: Option<&std::path::Path>| {
        let opts = Options {
            table_bytes: 64 << 20,
            win_check: Some(check),
            ..Options::default()
        };
        prove(&pos, &opts, None, cert, &stop, &mut |_| {}).unwrap()
    };
    let with = run(true, Some(&cert));
    let without = run(false, None);
    assert_eq!(with.outcome, Outcome::Wins(Color::White));
    assert_eq!(with.bounded, None);
    assert!(
        with.nodes * 5 < without.nodes,
        "{} against {}",
        with.nodes,
        without.nodes
    );
    let checked = check_file(&cert, None).unwrap();
    assert_eq!(checked.established, Established::Wins(Color::White));
    assert_eq!(checked.longest, with.parts[0].1.longest);
    std::fs::remove_dir_all(&dir).unwrap();
}
