//! The `ordo` command line: outputs on the standard start, and bad input of every kind ending
//! with one line on stderr and exit status 2, never a panic.

use std::process::{Command, Output};

fn ordo(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ordo"))
        .args(args)
        .output()
        .expect("run ordo")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Exit status 2 with exactly one line on stderr that contains every expected fragment.
fn assert_bad_input(args: &[&str], fragments: &[&str]) {
    let o = ordo(args);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
    assert_eq!(err.lines().count(), 1, "{args:?}: not one line: {err}");
    assert!(err.starts_with("ordo: error: "), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    for f in fragments {
        assert!(err.contains(f), "{args:?}: '{f}' not in: {err}");
    }
}

/// ORDO-2.2, ORDO-8.1: 56 legal moves from the standard start, sorted, one per line.
#[test]
fn moves_lists_the_standard_start() {
    let o = ordo(&["moves"]);
    assert!(o.status.success());
    let lines: Vec<String> = stdout(&o).lines().map(String::from).collect();
    assert_eq!(lines.len(), 56);
    let mut sorted = lines.clone();
    sorted.sort();
    assert_eq!(lines, sorted);
    assert!(lines.contains(&"a3-a4".to_string()));
    assert!(lines.contains(&"c2:d2-c4".to_string()));
    assert!(
        !lines.contains(&"a3:b3-a4".to_string()),
        "ORDO-4.3: leaves a2 apart"
    );
}

/// ORDOX-5.1: the Ordo X start has 2062 turns.
#[test]
fn moves_in_ordo_x() {
    let o = ordo(&["moves", "--variant", "x"]);
    assert_eq!(stdout(&o).lines().count(), 2062);
}

#[test]
fn perft_and_divide() {
    let o = ordo(&["perft", "2"]);
    assert!(stdout(&o).starts_with("perft(2) = 3136 "), "{}", stdout(&o));
    let o = ordo(&["perft", "2", "--divide", "--threads", "1", "--board", "8x8"]);
    let out = stdout(&o);
    assert_eq!(out.lines().count(), 47);
    assert!(out.lines().any(|l| l == "a3-b3 46"), "{out}");
    assert!(out.contains("perft(2) = 2116 "));
}

/// ORDO-3.1: play alternates sides and reports the position and status; ORDO-10.1 ends it.
#[test]
fn play_prints_position_and_status() {
    let o = ordo(&["play", "a3-a4", "c7-c6"]);
    assert_eq!(
        stdout(&o),
        "position: 2BB2BB2/BB1BBBBBBB/BBB1BB2BB/10/10/W9/1W2WW2WW/WWWWWWWWWW/2WW2WW2 w classic\nstatus: ongoing\n"
            .replace("/10/10/W9/", "/10/W9/")
    );
    let o = ordo(&["play", "--position", "3B/4/W3/4 w classic", "a2-a4"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("status: White wins (home-row, ORDO-10.1)"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn show_draws_the_board() {
    let o = ordo(&["show", "--board", "8x8", "--variant", "x"]);
    let out = stdout(&o);
    assert!(out.contains("Black's home row"));
    assert!(out.contains("position: 1BB2BB1/BBBBBBBB/B2BB2B/8/8/W2WW2W/WWWWWWWW/1WW2WW1 w x"));
    assert!(out.contains("status: ongoing"));
}

/// The rules command quotes a clause with its kind and sources.
#[test]
fn rules_quotes_a_clause() {
    let o = ordo(&["rules", "ORDO-7.2"]);
    let out = stdout(&o);
    assert!(out.starts_with("ORDO-7.2 "), "{out}");
    assert!(out.contains("[source]"));
    assert!(out.contains("source: 000_5c3916039aac7192.txt"));
    let all = stdout(&ordo(&["rules"]));
    assert_eq!(
        all.lines().count(),
        ordo::rules::clauses::registry().clauses.len()
    );
}

#[test]
fn bad_positions() {
    assert_bad_input(
        &["moves", "--position", "4/4/4"],
        &["--position", "character"],
    );
    assert_bad_input(
        &["moves", "--position", "3B/4/4/W4 w classic"],
        &["character 9", "row 1"],
    );
    assert_bad_input(
        &["moves", "--position", "4/4/4/W3 w classic"],
        &["ORDO-2.3"],
    );
    assert_bad_input(
        &["moves", "--position", "W3/4/4/B3 w classic"],
        &["ORDO-2.3", "a4"],
    );
    assert_bad_input(&["moves", "--position", "17/17 w x"], &["character"]);
    assert_bad_input(
        &[
            "moves",
            "--position",
            "B3/4/4/W3 w classic",
            "--variant",
            "x",
        ],
        &["contradicts"],
    );
}

#[test]
fn bad_moves() {
    assert_bad_input(
        &["play", "a3-a4", "c7-q6"],
        &["move 2", "character 4", "column"],
    );
    assert_bad_input(&["play", "a3-a9"], &["move 1", "a9", "off the 10x8 board"]);
    assert_bad_input(&["play", "a3-a5"], &["move 1 'a3-a5' is not legal"]);
    assert_bad_input(&["play", "a3:b3xa4"], &["move 1", "never capture"]);
    assert_bad_input(
        &[
            "play",
            "--position",
            "3B/4/W3/4 w classic",
            "a2-a4",
            "d4-d3",
        ],
        &["move 2", "already over"],
    );
}

#[test]
fn bad_arguments() {
    assert_bad_input(&["perft"], &["<DEPTH>"]);
    assert_bad_input(&["perft", "two"], &["two"]);
    assert_bad_input(&["frob"], &["frob"]);
    assert_bad_input(&["moves", "--variant", "y"], &["classic, x"]);
    // An id of the right form that the registry lacks (built so that the traceability test does
    // not read it as a citation).
    let unknown = format!("ORDO-{}.1", 99);
    assert_bad_input(&["rules", &unknown], &[&unknown]);
}
