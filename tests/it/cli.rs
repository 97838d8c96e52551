//! The `ordo` command line: outputs on the standard start, and bad input of every kind ending
//! with one line on stderr and exit status 2, never a panic.

use std::process::Command;

use crate::common::{ordo_cmd as ordo, stderr, stdout};

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
    // The source by author, title, date, section and address.
    assert!(
        out.contains("source: Dieter Stein, Ordo (rules, English), January 15, 2009, section "),
        "{out}"
    );
    assert!(
        out.contains(", https://spielstein.com/games/ordo\n"),
        "{out}"
    );
    assert!(!out.contains(".txt"), "{out}");
    let all = stdout(&ordo(&["rules"]));
    assert_eq!(
        all.lines().count(),
        ordo_core::rules::clauses::registry().clauses.len()
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

/// `ordo`, and each command made of subcommands, given alone prints its help (exit status 2),
/// not an error.
#[test]
fn bare_commands_print_the_help() {
    for args in [&[][..], &["tb"], &["problem"], &["conformance"]] {
        let o = ordo(args);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains("Usage: ordo"), "{args:?}: {err}");
        assert!(err.contains("Commands:"), "{args:?}: {err}");
        assert!(!err.contains("error"), "{args:?}: {err}");
    }
}

/// The entries of one section (`Arguments:`, `Options:`, `Commands:`) of a short help text
/// whose description is empty or only a bracketed note such as `[default: x]`.
fn undescribed(help: &str) -> Vec<String> {
    let mut missing = Vec::new();
    let lines: Vec<&str> = help.lines().collect();
    for (i, line) in lines.iter().enumerate() {
        let is_entry =
            line.starts_with("  ") && !line.starts_with("   ") || line.starts_with("      --");
        if !is_entry {
            continue;
        }
        let body = line.trim_start();
        let mut text = match body.find("  ") {
            Some(j) => body[j..].trim().to_string(),
            None => String::new(),
        };
        for next in &lines[i + 1..] {
            if !next.starts_with("          ") {
                break;
            }
            text.push(' ');
            text.push_str(next.trim());
        }
        while let (Some(a), Some(b)) = (text.find('['), text.find(']')) {
            if b < a {
                break;
            }
            text.replace_range(a..=b, "");
        }
        if text.trim().is_empty() {
            missing.push(body.to_string());
        }
    }
    missing
}

/// The subcommands a short help text lists.
fn subcommands(help: &str) -> Vec<String> {
    help.split("Commands:")
        .nth(1)
        .map(|rest| {
            rest.lines()
                .skip(1)
                .take_while(|l| l.starts_with("  "))
                .filter_map(|l| l.split_whitespace().next())
                .filter(|name| *name != "help")
                .map(String::from)
                .collect()
        })
        .unwrap_or_default()
}

/// Every command, subcommand, argument and option has a help text (`ordo … -h`).
#[test]
fn every_help_text_is_filled() {
    let mut todo: Vec<Vec<String>> = vec![vec![]];
    let mut missing = Vec::new();
    let mut seen = 0;
    while let Some(path) = todo.pop() {
        let mut args: Vec<&str> = path.iter().map(String::as_str).collect();
        args.push("-h");
        let o = ordo(&args);
        assert!(o.status.success(), "{args:?}: {}", stderr(&o));
        let help = stdout(&o);
        for entry in undescribed(&help) {
            missing.push(format!("ordo {}: {entry}", path.join(" ")));
        }
        for sub in subcommands(&help) {
            let mut next = path.clone();
            next.push(sub);
            todo.push(next);
        }
        seen += 1;
    }
    assert!(seen >= 20, "only {seen} commands");
    assert!(missing.is_empty(), "no help text:\n{}", missing.join("\n"));
}

/// `ordo perft` runs the bitboard engine unless told otherwise; both give the same count.
#[test]
fn perft_defaults_to_the_bitboard_engine() {
    let o = ordo(&["perft", "3"]);
    assert!(
        stdout(&o).starts_with("perft(3) = 190114  [bitboard engine"),
        "{}",
        stdout(&o)
    );
    let o = ordo(&["perft", "2", "--engine", "reference"]);
    assert!(
        stdout(&o).starts_with("perft(2) = 3136  [reference engine"),
        "{}",
        stdout(&o)
    );
    // Not a terminal: no progress and no warning on stderr.
    assert_eq!(stderr(&o), "");
}

/// A depth beyond the cap, and a thread count of 0 or over 256, are refused in one line (never
/// a stack overflow or a silent 1), by every command that takes `--threads`, and a job whose
/// `$SLURM_CPUS_PER_TASK` is no count is refused naming it.
#[test]
fn perft_and_fuzz_limits() {
    assert_bad_input(&["perft", "10000"], &["10000", "<DEPTH>", "0..=30"]);
    assert_bad_input(&["perft", "31"], &["31", "<DEPTH>"]);
    let job = [
        "tb",
        "job",
        "--board",
        "3x3",
        "--material",
        "1,1",
        "--dir",
        "/nonexistent",
    ];
    for cmd in [
        &["perft", "2"][..],
        &["fuzz", "--seconds", "1"],
        &["solve", "--board", "3x3", "--no-save"],
        &job,
    ] {
        for n in ["0", "257"] {
            let mut args = cmd.to_vec();
            args.extend(["--threads", n]);
            assert_bad_input(&args, &["--threads", n, "1..=256"]);
        }
    }
    for n in ["0", "two"] {
        let o = std::process::Command::new(env!("CARGO_BIN_EXE_ordo"))
            .args(job)
            .env("SLURM_CPUS_PER_TASK", n)
            .output()
            .unwrap();
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{err}");
        assert!(
            err.contains(&format!("SLURM_CPUS_PER_TASK is \"{n}\"")),
            "{err}"
        );
    }
}

/// Start `ordo args`, wait for its first line on stderr, press Ctrl-C (SIGINT), and return its
/// output with that first line put back in front of the rest of stderr.
#[cfg(unix)]
fn interrupt_after_first_line(args: &[&str]) -> (Option<i32>, String, String) {
    use std::io::{BufRead, BufReader, Read};
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_ordo"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run ordo");
    let mut err = BufReader::new(child.stderr.take().unwrap());
    let mut first = String::new();
    err.read_line(&mut first).unwrap();
    std::thread::sleep(std::time::Duration::from_millis(500));
    crate::common::press_ctrl_c(&child);
    let mut rest = String::new();
    err.read_to_string(&mut rest).unwrap();
    let mut out = String::new();
    child
        .stdout
        .take()
        .unwrap()
        .read_to_string(&mut out)
        .unwrap();
    let status = child.wait().unwrap();
    (status.code(), out, first + &rest)
}

/// A command that does not catch Ctrl-C itself (here the protocol engine, mid-session) ends
/// on it with one line on stderr and exit status 130, never silently.
#[cfg(unix)]
#[test]
fn ctrl_c_on_any_command_says_so() {
    use std::io::{BufRead, BufReader, Write};
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_ordo"))
        .arg("engine")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run ordo engine");
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(b"ordo 1\nstatus\n").unwrap();
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut lines = String::new();
    for _ in 0..2 {
        out.read_line(&mut lines).unwrap();
    }
    assert!(lines.ends_with("status ongoing\n"), "{lines}");
    crate::common::press_ctrl_c(&child);
    let o = child.wait_with_output().unwrap();
    drop(stdin);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(130), "{err}");
    assert_eq!(
        err,
        "ordo: interrupted before the command finished; nothing more was written\n"
    );
}

/// A perft expected to take long is announced; Ctrl-C stops it with a line saying how far it
/// got, and exit status 130.
#[cfg(unix)]
#[test]
fn perft_warns_and_stops_on_ctrl_c() {
    let (code, out, err) = interrupt_after_first_line(&["perft", "7", "--threads", "1"]);
    assert!(
        err.starts_with("ordo: warning: perft(7) on the bitboard engine may take"),
        "{err}"
    );
    assert_eq!(code, Some(130), "{err}");
    assert!(
        err.contains("ordo: interrupted: perft(7) stopped after ")
            && err.contains(" of 56 first moves"),
        "{err}"
    );
    assert_eq!(out, "");
    let o = ordo(&[
        "perft",
        "6",
        "--quiet",
        "--position",
        "BBBB/4/4/WWWW w classic",
    ]);
    assert_eq!((stderr(&o).as_str(), o.status.code()), ("", Some(0)));
}

/// `ordo fuzz --seconds` with the largest value runs until Ctrl-C (no duration overflow), and
/// Ctrl-C ends it with its seed and counts.
#[cfg(unix)]
#[test]
fn fuzz_runs_until_ctrl_c_and_reports_its_seed() {
    let max = u64::MAX.to_string();
    let args = ["fuzz", "--seconds", &max, "--seed", "7", "--threads", "1"];
    let (code, out, err) = interrupt_after_first_line(&args);
    assert!(err.starts_with("ordo fuzz: seed 7,"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    assert_eq!(code, Some(130), "{out}{err}");
    assert!(out.starts_with("fuzz: seed 7, 1 thread, "), "{out}");
    assert!(out.contains(" positions checked "), "{out}");
    assert!(out.contains("interrupted (Ctrl-C)"), "{out}");
}

/// A short campaign: the seed and counts, no divergence, nothing on stderr with `--quiet`.
#[test]
fn fuzz_short_campaign() {
    let o = ordo(&[
        "fuzz",
        "--seconds",
        "1",
        "--seed",
        "3",
        "--threads",
        "1",
        "-q",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stderr(&o), "");
    let out = stdout(&o);
    // "1 thread", not "1 threads"; the time is wall clock and CPU.
    assert!(out.starts_with("fuzz: seed 3, 1 thread, "), "{out}");
    assert!(
        out.contains(" s wall, ") && out.contains(" s CPU: "),
        "{out}"
    );
    assert!(out.ends_with("no divergence\n"), "{out}");
}

/// ORDO-4.3: `ordo play` says why it rejects a move (the first clause the adjudicator finds
/// broken) and how to see them all.
#[test]
fn play_says_why_a_move_is_illegal() {
    assert_bad_input(
        &["play", "a3-a4", "c7-c6", "b3-b4"],
        &[
            "move 3 'b3-b4' is not legal in 2BB2BB2/BB1BBBBBBB/BBB1BB2BB/10/W9/1W2WW2WW/WWWWWWWWWW/2WW2WW2 w classic: ORDO-4.3 (",
            "ordo explain --position \"2BB2BB2/BB1BBBBBBB/BBB1BB2BB/10/W9/1W2WW2WW/WWWWWWWWWW/2WW2WW2 w classic\" 'b3-b4'",
        ],
    );
}

/// `ordo play` reads the spellings game records accept (spec/game-record.md): upper-case
/// squares, `X` or `×` for a capture, dashes.
#[test]
fn play_accepts_game_record_spellings() {
    let plain = stdout(&ordo(&["play", "a3-a4", "c7-c6"]));
    assert!(plain.starts_with("position: "), "{plain}");
    let o = ordo(&["play", "A3-A4", "C7–C6"]);
    assert_eq!(stdout(&o), plain, "{}", stderr(&o));
    let at = ["--position", "4/1B2/WW2/4 w classic"];
    let plain = stdout(&ordo(&[&["play", "a2xb3"][..], &at].concat()));
    assert!(plain.contains("status:"), "{plain}");
    for spelling in ["A2XB3", "a2×b3", "a2xb3!"] {
        let o = ordo(&[&["play", spelling][..], &at].concat());
        assert_eq!(stdout(&o), plain, "{spelling}: {}", stderr(&o));
    }
}

/// On a terminal (a pseudo-terminal from util-linux `script`), a running perft shows its
/// progress on stderr: first moves done, leaves per second, time left.
#[cfg(target_os = "linux")]
#[test]
fn perft_shows_progress_on_a_terminal() {
    let line = format!("{} perft 5 --threads 2", env!("CARGO_BIN_EXE_ordo"));
    let o = Command::new("script")
        .args(["-qec", &line, "/dev/null"])
        .output()
        .expect("run script (util-linux)");
    let text = stdout(&o);
    assert!(o.status.success(), "{text}");
    assert!(text.contains("perft(5) = 724821826 "), "{text}");
    assert!(
        text.contains("/56 first moves, ") && text.contains(" leaves/s ["),
        "{text}"
    );
}
