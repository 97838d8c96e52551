//! `ordo check-game` on game records (spec/game-record.md): exit statuses, the first illegal
//! move with its clauses, the recorded result (the parser's own tests are in
//! `crates/core/tests/`).

fn check_game(text: &str) -> std::process::Output {
    let dir = crate::common::shared_scratch("check-game");
    let path = dir.join(format!("g{}.txt", text.len()));
    std::fs::write(&path, text).unwrap();
    std::process::Command::new(env!("CARGO_BIN_EXE_ordo"))
        .arg("check-game")
        .arg(&path)
        .output()
        .unwrap()
}

/// `ordo check-game`: a legal game exits 0 with its final status; other spellings are shown
/// with their canonical form.
#[test]
fn check_game_accepts_a_legal_game() {
    let o = check_game("[White \"Anna\"]\n1. A3-A4 c7-c6 2. c2:d2-c3\n*\n");
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(0), "{out}");
    assert!(out.contains("White: Anna"));
    assert!(out.contains("1. White A3-A4 (= a3-a4): legal"), "{out}");
    assert!(out.contains("result: all 3 moves legal"), "{out}");
}

/// ORDO-7.2, ORDO-4.3: the first illegal move is reported with every clause it violates, and
/// the check stops there with exit status 1.
#[test]
fn check_game_reports_the_first_illegal_move_with_its_clauses() {
    let o = check_game("1. a3-a4 c7-c6\n2. a3-a5 b7-b6\n");
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(
        out.contains("move 3 (White, line 2, column 4) 'a3-a5': illegal"),
        "{out}"
    );
    assert!(out.contains("violates ORDO-6.1"), "{out}");
    assert!(out.contains("result: move 3 of 4 is illegal"), "{out}");
    assert!(!out.contains("b7-b6: legal"));
}

/// ORDO-10.1 and the recorded result: a result that contradicts the final status is reported.
#[test]
fn check_game_compares_the_recorded_result() {
    let won = "[Start \"3B/4/W3/4 w classic\"]\n1. a2-a4 1-0\n";
    assert_eq!(check_game(won).status.code(), Some(0));
    let wrong = "[Start \"3B/4/W3/4 w classic\"]\n1. a2-a4 0-1\n";
    let o = check_game(wrong);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stdout).contains("the record says 0-1"));
}

/// Unreadable records exit 2 with one line naming the file, line and column.
#[test]
fn check_game_bad_input_exits_2() {
    let o = check_game("1. a3-a4 c7-q6\n");
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("line 1, column 13"), "{err}");
}
