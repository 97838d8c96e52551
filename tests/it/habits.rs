//! One habit for every command. The help of every subcommand is walked
//! (`ordo … -h`, as a reader sees it) and every flag two commands share must have the same
//! short letter, the same listed values and the same default, except where [`DIFFERENT`] says
//! why; every listed value is read in any case; the one thing a command judges is an argument;
//! a usage error names the command's own help. The tree itself keeps one habit too: it says
//! what the code does, never which tracker item asked for it.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

use crate::common::{ordo_cmd as ordo, stderr, stdout};

/// Flags that differ from the habit of the other commands on purpose: (flag, commands, why).
/// An entry that no longer differs fails the test, so the list cannot go stale.
const DIFFERENT: [(&str, &[&str], &str); 8] = [
    (
        "board",
        &[
            "ordo solve",
            "ordo tb build",
            "ordo tb verify",
            "ordo tb job",
            "ordo tb plan",
            "ordo problem compose",
            "ordo prove",
        ],
        "a table's board is any COLSxROWS, not one of the two standard starts (solve: a small one; \
         prove: any board, its standard start or a rowN one)",
    ),
    (
        "vectors",
        &["ordo conformance generate"],
        "it writes the vector files, so it needs a folder, not the built-in vectors",
    ),
    (
        "cases",
        &["ordo conformance fill-cases"],
        "it rewrites the case files in place, so it needs a folder, not the built-in suite",
    ),
    (
        "seed",
        &["ordo fuzz"],
        "a campaign tries new inputs on every run; a conformance check is the same every run",
    ),
    (
        "threads",
        &["ordo tb job"],
        "a cluster job takes the cores Slurm gives it",
    ),
    (
        "setup",
        &["ordo tb plan", "ordo prove"],
        "there it chooses to plan a game rather than a table set; prove takes any rowN and \
         defaults to the standard start of 10 x 8 and 8 x 8",
    ),
    (
        "position",
        &["ordo prove"],
        "without it prove starts from --board and --setup, not always the standard start",
    ),
    (
        "max-pieces",
        &["ordo tb plan"],
        "a plan names its material, or takes the game's with --setup",
    ),
];

/// What a flag looks like in one command's help: its short letter, listed values, default.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct Habit {
    short: Option<char>,
    values: Vec<String>,
    default: Option<String>,
}

/// The text between `open` and the next `]` or `)` in `line`.
fn bracketed<'a>(line: &'a str, open: &str) -> Option<&'a str> {
    let at = line.find(open)? + open.len();
    let rest = &line[at..];
    let end = rest.find([']', ')']).unwrap_or(rest.len());
    Some(rest[..end].trim())
}

/// One option line of a short help (`  -p, --position <POSITION>  … [default: 10x8]`): the
/// long name and its habit. The default is clap's `[default: …]`, or the `(default: …` the
/// text states, up to its first comma.
fn option(line: &str) -> Option<(String, Habit)> {
    let t = line.trim_start();
    if !t.starts_with('-') {
        return None;
    }
    let (spec, text) = t.split_once("  ").unwrap_or((t, ""));
    let short = spec
        .strip_prefix('-')
        .filter(|s| !s.starts_with('-'))
        .and_then(|s| s.chars().next());
    let long = spec
        .split("--")
        .nth(1)?
        .split([' ', '='])
        .next()?
        .to_string();
    let values = bracketed(text, "[possible values: ")
        .map(|v| v.split(", ").map(String::from).collect())
        .unwrap_or_default();
    let default = bracketed(text, "[default: ")
        .or_else(|| bracketed(text, "(default: ").map(|d| d.split([',', ';']).next().unwrap_or(d)))
        .map(String::from);
    let habit = Habit {
        short,
        values,
        default,
    };
    Some((long, habit))
}

/// The short help of `path` (`["tb", "build"]`): its subcommands and its options.
fn help(path: &[String]) -> (Vec<String>, Vec<(String, Habit)>) {
    let mut args = path.to_vec();
    args.push("-h".into());
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let o = ordo(&args);
    assert_eq!(o.status.code(), Some(0), "{args:?}: {}", stderr(&o));
    let text = stdout(&o);
    let (mut subs, mut opts, mut section) = (Vec::new(), Vec::new(), "");
    for line in text.lines() {
        if !line.starts_with(' ') {
            section = line;
            continue;
        }
        match section {
            "Commands:" => {
                let name = line.split_whitespace().next().unwrap_or("");
                if name != "help" {
                    subs.push(name.to_string());
                }
            }
            "Options:" => opts.extend(option(line).filter(|(l, _)| l != "help")),
            _ => {}
        }
    }
    (subs, opts)
}

/// Every command of the tree (`ordo`, `ordo tb`, `ordo tb build`, …) with its options.
fn every_command() -> Vec<(String, Vec<(String, Habit)>)> {
    let mut out = Vec::new();
    let mut todo: Vec<Vec<String>> = vec![Vec::new()];
    while let Some(path) = todo.pop() {
        let (subs, opts) = help(&path);
        for s in subs {
            let mut p = path.clone();
            p.push(s);
            todo.push(p);
        }
        let name = std::iter::once("ordo".to_string())
            .chain(path.iter().cloned())
            .collect::<Vec<_>>()
            .join(" ");
        out.push((name, opts));
    }
    out
}

/// A flag shared by several commands has one short letter, one list of
/// values and one default in all of them (the habit: what most of them say), or its difference
/// is listed in [`DIFFERENT`] with the reason; `--engine` is the bitboard engine everywhere.
#[test]
fn shared_flags_have_one_name_one_set_of_values_and_one_default() {
    let commands = every_command();
    assert!(commands.len() >= 25, "{} commands found", commands.len());
    let mut by_flag: BTreeMap<String, Vec<(String, Habit)>> = BTreeMap::new();
    for (cmd, opts) in &commands {
        for (long, habit) in opts {
            by_flag
                .entry(long.clone())
                .or_default()
                .push((cmd.clone(), habit.clone()));
        }
    }
    let mut wrong = Vec::new();
    for (flag, uses) in by_flag.iter().filter(|(_, u)| u.len() > 1) {
        let excused = |cmd: &str| {
            DIFFERENT
                .iter()
                .any(|(f, cmds, _)| f == flag && cmds.contains(&cmd))
        };
        let mut tally: BTreeMap<&Habit, usize> = BTreeMap::new();
        for (cmd, h) in uses.iter().filter(|(c, _)| !excused(c)) {
            let _ = cmd;
            *tally.entry(h).or_default() += 1;
        }
        let habit = tally.iter().max_by_key(|(_, n)| **n).map(|(h, _)| *h);
        for (cmd, h) in uses {
            match (excused(cmd), Some(h) == habit) {
                (false, false) => wrong.push(format!("{cmd} --{flag}: {h:?}, not {habit:?}")),
                (true, true) => {
                    wrong.push(format!("{cmd} --{flag}: listed as different, but is not"))
                }
                _ => {}
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    let engine = &by_flag["engine"];
    assert!(engine.len() >= 9, "{engine:?}");
    for (cmd, h) in engine {
        assert_eq!(h.default.as_deref(), Some("bitboard"), "{cmd}");
        assert_eq!(h.values, ["reference", "bitboard"], "{cmd}");
    }
}

/// No flag that does nothing. `show`, `render` and `explain` run no engine
/// (the adjudicator and the diagram need none), so they take no `--engine`.
#[test]
fn commands_that_run_no_engine_take_no_engine_flag() {
    for cmd in ["show", "render", "explain"] {
        let o = ordo(&[cmd, "--engine", "reference", "e3-e4"]);
        assert_eq!(o.status.code(), Some(2), "{cmd}: {}", stdout(&o));
        assert!(stderr(&o).contains("'--engine'"), "{cmd}: {}", stderr(&o));
    }
}

/// Every listed value is read in any case (`--variant X`, `--engine
/// Reference`, `--format MAKE`), in every command that lists values.
#[test]
fn listed_values_are_read_in_any_case() {
    let mut checked = 0;
    for (cmd, opts) in every_command() {
        let words: Vec<String> = cmd.split(' ').skip(1).map(String::from).collect();
        for (long, habit) in opts.iter().filter(|(_, h)| !h.values.is_empty()) {
            let value = habit.values[habit.values.len() - 1].to_uppercase();
            let mut args = words.clone();
            args.extend([format!("--{long}"), value.clone(), "-h".into()]);
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            let o = ordo(&args);
            assert_eq!(o.status.code(), Some(0), "{args:?}: {}", stderr(&o));
            checked += 1;
        }
    }
    assert!(checked >= 20, "{checked}");
    let o = ordo(&["moves", "--variant", "X"]);
    assert_eq!(stdout(&o).lines().count(), 2062, "ORDOX-5.1 in capitals");
}

/// Clause ids are read in any case (`ordo rules ordo-4.3`).
#[test]
fn clause_ids_are_read_in_any_case() {
    let upper = ordo(&["rules", "ORDO-4.3"]);
    assert_eq!(upper.status.code(), Some(0), "{}", stderr(&upper));
    for id in ["ordo-4.3", "Ordo-4.3", " ordo-4.3 "] {
        let o = ordo(&["rules", id]);
        assert_eq!(o.status.code(), Some(0), "{id}: {}", stderr(&o));
        assert_eq!(stdout(&o), stdout(&upper), "{id}");
    }
    let x = ordo(&["rules", "ordox-4.2"]);
    assert!(stdout(&x).starts_with("ORDOX-4.2 "), "{}", stdout(&x));
    let o = ordo(&["rules", "ordo-99.1"]);
    assert_eq!(o.status.code(), Some(2));
}

/// The one move `explain` judges is an argument, as the moves of `play`
/// are (`ordo explain e3-e4`); `--move` still works, and gives the same verdict; `render`
/// draws its move the same way.
#[test]
fn the_judged_move_is_an_argument() {
    let arg = ordo(&["explain", "e3-e4"]);
    assert_eq!(arg.status.code(), Some(0), "{}", stderr(&arg));
    assert!(stdout(&arg).contains("verdict: legal"), "{}", stdout(&arg));
    let flag = ordo(&["explain", "--move", "e3-e4"]);
    assert_eq!(stdout(&arg), stdout(&flag));
    let illegal = ordo(&["explain", "b3-b4", "--position", "4/1B2/WW2/2W1 w classic"]);
    assert_eq!(illegal.status.code(), Some(1), "{}", stderr(&illegal));
    let both = ordo(&["explain", "e3-e4", "--move", "e3-e4"]);
    assert_eq!(both.status.code(), Some(2));
    let none = ordo(&["explain"]);
    assert_eq!(none.status.code(), Some(2));
    assert!(stderr(&none).contains("MOVE"), "{}", stderr(&none));
    let bad = ordo(&["explain", "e3-q4"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(
        stderr(&bad).starts_with("ordo: error: MOVE: "),
        "{}",
        stderr(&bad)
    );
    let drawn = ordo(&["render", "c2:d2-c4"]);
    assert_eq!(
        stdout(&drawn),
        stdout(&ordo(&["render", "--move", "c2:d2-c4"]))
    );
    assert!(
        stdout(&drawn).contains("move: c2:d2-c4\n"),
        "{}",
        stdout(&drawn)
    );
}

/// A usage error names the help of the command it is about, not only
/// `ordo --help`.
#[test]
fn usage_errors_name_the_commands_own_help() {
    for (args, help) in [
        (&["explain", "e3", "e4"][..], "(see ordo explain --help)"),
        (
            &["tb", "build", "--bogus"][..],
            "(see ordo tb build --help)",
        ),
        (&["solve", "--variant", "y"][..], "(see ordo solve --help)"),
        (
            &["conformance", "check", "--engine", "z"][..],
            "(see ordo conformance check --help)",
        ),
        (&["bogus"][..], "(see ordo --help)"),
    ] {
        let o = ordo(args);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.trim_end().ends_with(help), "{args:?}: {err}");
    }
}

/// `ordo conform` judges one engine, named by its argument like the move
/// of `explain`; `--engine COMMAND` (the older spelling) still works.
#[test]
fn conform_takes_the_engine_command_as_its_argument() {
    let engine = format!("{} engine", env!("CARGO_BIN_EXE_ordo"));
    for args in [
        vec![
            "conform",
            engine.as_str(),
            "--playouts",
            "1",
            "--only",
            "classic:8x8",
        ],
        vec![
            "conform",
            "--engine",
            engine.as_str(),
            "--playouts",
            "1",
            "--only",
            "classic:8x8",
        ],
    ] {
        let o = ordo(&args);
        assert_eq!(
            o.status.code(),
            Some(0),
            "{args:?}: {}{}",
            stdout(&o),
            stderr(&o)
        );
        assert!(stdout(&o).contains("verdict: PASS"), "{}", stdout(&o));
    }
}

/// Counts agree with their number in the diagram's piece count and in the
/// verdict's clause count ("White 1 piece", "1 clause violated").
#[test]
fn counts_agree_with_their_number() {
    let o = ordo(&["render", "--position", "4/1B2/4/W3 w classic"]);
    assert!(
        stdout(&o).contains("; White 1 piece, Black 1 piece\n"),
        "{}",
        stdout(&o)
    );
    let o = ordo(&["render"]);
    assert!(stdout(&o).contains("; White 20 pieces, Black 20 pieces\n"));
    let o = ordo(&[
        "explain",
        "--position",
        "4/4/1B2/W3/WW2 w classic",
        "a1:b1-a2",
    ]);
    assert!(
        stdout(&o).contains("\n1 clause violated:\n"),
        "{}",
        stdout(&o)
    );
}

/// Perft's time says which it is: wall clock and CPU.
#[test]
fn perft_prints_wall_and_cpu_time() {
    let o = ordo(&["perft", "3", "--threads", "1"]);
    let out = stdout(&o);
    assert!(
        out.starts_with("perft(3) = 190114  [bitboard engine, "),
        "{out}"
    );
    assert!(
        out.contains(" s wall, ") && out.contains(" s CPU, "),
        "{out}"
    );
}

/// The files of the repository a reader sees: `git ls-files` where the checkout has its
/// history, else every file below the root but `target/` and `.git/`. Paths relative to the
/// root, sorted.
fn tracked_files(root: &Path) -> Vec<String> {
    let git = Command::new("git")
        .args(["ls-files", "-z"])
        .current_dir(root)
        .output();
    if let Some(o) = git
        .ok()
        .filter(|o| o.status.success() && !o.stdout.is_empty())
    {
        let mut files: Vec<String> = String::from_utf8_lossy(&o.stdout)
            .split('\0')
            .filter(|p| !p.is_empty())
            .map(str::to_string)
            .collect();
        files.sort();
        return files;
    }
    let (mut files, mut dirs) = (Vec::new(), vec![root.to_path_buf()]);
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).unwrap().flatten() {
            let path = entry.path();
            let name = entry.file_name();
            if path.is_dir() {
                if name != "target" && name != ".git" && name != "node_modules" {
                    dirs.push(path);
                }
            } else if let Ok(rel) = path.strip_prefix(root) {
                files.push(rel.to_string_lossy().replace('\\', "/"));
            }
        }
    }
    files.sort();
    files
}

/// Whether `line` cites an item of an issue tracker by number, in any case: the word followed
/// by its number (`issue`, `issues` or `issue #`, then a digit, the word standing alone) or
/// glued to it (in a name, with or without an underscore). The tree says what the code does
/// and why; a reader has no tracker to follow such a number to.
fn cites_a_tracker_item(line: &str) -> bool {
    let lower = line.to_ascii_lowercase();
    let bytes = lower.as_bytes();
    let word = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let digit_at = |k: usize| bytes.get(k).is_some_and(u8::is_ascii_digit);
    lower.match_indices("issue").any(|(at, w)| {
        let after = at + w.len();
        if digit_at(after) || (bytes.get(after) == Some(&b'_') && digit_at(after + 1)) {
            return true;
        }
        if at > 0 && word(bytes[at - 1]) {
            return false;
        }
        let mut k = after + usize::from(bytes.get(after) == Some(&b's'));
        while bytes.get(k) == Some(&b' ') {
            k += 1;
        }
        k += usize::from(bytes.get(k) == Some(&b'#'));
        digit_at(k)
    })
}

/// No file of the repository cites a tracker item by number (a comment, a doc, a test name, a
/// message): each says what it covers instead, since a reader has no tracker to look it up in.
/// Each offending line is named by file and line.
#[test]
fn the_tree_names_behaviour_not_tracker_items() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let files = tracked_files(root);
    assert!(files.len() > 100, "only {} files found", files.len());
    let mut found = Vec::new();
    for rel in &files {
        let Ok(bytes) = std::fs::read(root.join(rel)) else {
            continue; // listed by git but gone from the work tree
        };
        let Ok(text) = String::from_utf8(bytes) else {
            continue; // not text: images, binary tables
        };
        for (i, line) in text.lines().enumerate() {
            if cites_a_tracker_item(line) {
                found.push(format!("{rel}:{}: {}", i + 1, line.trim()));
            }
        }
    }
    assert!(
        found.is_empty(),
        "say what the code does instead of citing a tracker item:\n{}",
        found.join("\n")
    );
}

/// The finder of [`the_tree_names_behaviour_not_tracker_items`] catches each spelling and
/// lets the word alone, or glued to another word, pass. The planted lines are put together at
/// run time, so that this file passes its own check.
#[test]
fn tracker_citations_are_found_in_every_spelling() {
    let word = "issue";
    for cited in [
        format!("({word} 22: both commands)"),
        format!("//! {} 26, point 1: one habit", word.to_uppercase()),
        format!("see {word}s 12 and 13"),
        format!("fixed in {word} #7"),
        format!("fn {word}25_forged_table_refused()"),
        format!("fn refused_{word}_24_point_2()"),
    ] {
        assert!(cites_a_tracker_item(&cited), "{cited}");
    }
    for clean in [
        format!("an {word} tracking system"),
        format!("the {word}'s claim, 3 times"),
        format!("a t{word} 5 cells thick"),
        "nothing to see here, 24 points".to_string(),
    ] {
        assert!(!cites_a_tracker_item(&clean), "{clean}");
    }
}
