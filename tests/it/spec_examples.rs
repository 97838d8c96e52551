//! Every example of `spec/*.md` is checked against the program: the example game record
//! replays, every position written in the text reads back as written, the error messages of
//! the notation are the parser's own, the diagram is the one drawn, the perft figures are
//! counted by the commands shown, and the problem file format example reads and is sound.
//! (`spec/protocol.md` and `spec/conformance/` are checked in `conformance.rs`.)

use std::path::Path;

use ordo_core::notation::{diagram, format_position, parse_move, parse_position, parse_square};
use ordo_core::rules::{setup, Variant};

use crate::common::{ordo_cmd, scratch};

fn spec(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("spec")
        .join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The fenced code blocks of a Markdown text: (info string, contents).
pub(super) fn code_blocks(text: &str) -> Vec<(String, String)> {
    let mut blocks = Vec::new();
    let mut open: Option<(String, String)> = None;
    for line in text.lines() {
        match (&mut open, line.strip_prefix("```")) {
            (None, Some(info)) => open = Some((info.trim().to_string(), String::new())),
            (Some(_), Some(_)) => blocks.extend(open.take()),
            (Some((_, body)), None) => {
                body.push_str(line);
                body.push('\n');
            }
            (None, None) => {}
        }
    }
    blocks
}

/// The spec files this module checks (everything but the protocol, checked elsewhere).
const SPEC_FILES: [&str; 5] = [
    "game-record.md",
    "notation.md",
    "perft.md",
    "problems.md",
    "rules.md",
];

/// ORDO-2.2, ORDO-3.1: the example game of spec/game-record.md replays move by move under
/// `ordo check-game`, every move legal.
#[test]
fn game_record_example_is_a_legal_game() {
    let text = spec("game-record.md");
    let (_, record) = code_blocks(&text)
        .into_iter()
        .find(|(info, body)| info == "text" && body.contains("[Variant"))
        .expect("an example record");
    let dir = scratch("spec-game-record");
    let file = dir.join("example.txt");
    std::fs::write(&file, &record).unwrap();
    let o = ordo_cmd(&["check-game", file.to_str().unwrap()]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{out}{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let moves = ordo_core::notation::parse_record(&record)
        .unwrap()
        .moves
        .len();
    assert!(moves >= 6, "{moves} moves");
    assert_eq!(out.matches(": legal").count(), moves, "{out}");
}

/// spec/notation.md: every position written in backquotes in the spec reads, and is written
/// back exactly as in the text (the spec uses canonical notation only).
#[test]
fn every_position_in_the_spec_reads_back_as_written() {
    let mut seen = 0;
    for name in SPEC_FILES {
        let text = spec(name);
        for span in text.split('`').skip(1).step_by(2) {
            let inner = span.trim_matches('"');
            let candidate = match inner.split_once("--position \"") {
                Some((_, rest)) => rest.split('"').next().unwrap_or(rest),
                None => inner,
            };
            let looks_like_one = candidate.contains('/')
                && (candidate.ends_with(" classic") || candidate.ends_with(" x"));
            if !looks_like_one {
                continue;
            }
            let pos =
                parse_position(candidate).unwrap_or_else(|e| panic!("{name}: `{candidate}`: {e}"));
            assert_eq!(format_position(&pos), candidate, "{name}");
            seen += 1;
        }
    }
    assert!(seen >= 10, "only {seen} positions found");
}

/// spec/notation.md, "Errors": each example message is the parser's message for its input,
/// word for word.
#[test]
fn notation_error_examples_are_the_parsers_messages() {
    let text = spec("notation.md");
    let (_, block) = code_blocks(&text)
        .into_iter()
        .find(|(_, body)| body.starts_with("move 'e2-q4'"))
        .expect("the block of example messages");
    let mut checked = 0;
    for line in block.lines() {
        let (kind, rest) = line.split_once(" '").expect("kind 'input'");
        let input = &rest[..rest.find("' at character").expect("a column")];
        let message = match kind {
            "move" => parse_move(input).map(|_| ()).unwrap_err().to_string(),
            "square" => parse_square(input).map(|_| ()).unwrap_err().to_string(),
            "position" => parse_position(input).map(|_| ()).unwrap_err().to_string(),
            other => panic!("unknown kind {other}"),
        };
        assert_eq!(message, line);
        checked += 1;
    }
    assert!(checked >= 10, "{checked}");
}

/// spec/notation.md, "Diagram": the example diagram is the standard start as drawn.
#[test]
fn notation_diagram_example_is_drawn() {
    let text = spec("notation.md");
    let (_, block) = code_blocks(&text)
        .into_iter()
        .find(|(_, body)| body.contains("<- Black's home row"))
        .expect("the example diagram");
    let drawn = diagram(&setup::standard(Variant::Classic));
    assert_eq!(drawn.trim_end(), block.trim_end());
}

/// The perft tables of spec/perft.md as (depth, figure, the command's arguments after
/// `cargo run --release --`).
fn perft_rows() -> Vec<(u64, Vec<String>)> {
    let mut rows = Vec::new();
    for line in spec("perft.md").lines().filter(|l| l.starts_with('|')) {
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        let Some(cmd) = cells
            .iter()
            .find_map(|c| c.strip_prefix("`cargo run --release -- "))
        else {
            continue;
        };
        let figure: u64 = cells[3].replace(',', "").parse().expect("a figure");
        rows.push((figure, shell_words(cmd.trim_end_matches('`'))));
    }
    rows
}

/// Split a command line at spaces, keeping double-quoted words together.
fn shell_words(cmd: &str) -> Vec<String> {
    let mut words = Vec::new();
    for (i, part) in cmd.split('"').enumerate() {
        if i % 2 == 1 {
            words.push(part.to_string());
        } else {
            words.extend(part.split_whitespace().map(String::from));
        }
    }
    words
}

/// ORDOX-5.1, ORDO-10.5: every command of spec/perft.md prints the figure of its row. Counts
/// the reference engine cannot reach in a test's time are run on the bitboard engine (the
/// engines are compared in differential.rs), and the two largest (over 100 million leaves)
/// are counted in perft.rs and differential.rs instead.
#[test]
fn perft_commands_print_the_published_figures() {
    let rows = perft_rows();
    assert!(rows.len() >= 14, "{} rows", rows.len());
    for (figure, mut args) in rows.into_iter().filter(|(f, _)| *f <= 100_000_000) {
        if figure > 200_000 {
            if let Some(i) = args.iter().position(|a| a == "reference") {
                args[i] = "bitboard".into();
            }
        }
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let o = ordo_cmd(&args);
        let out = String::from_utf8_lossy(&o.stdout);
        let want = format!("perft({}) = {figure} ", args[1]);
        assert!(out.starts_with(&want), "{args:?}: {out}");
    }
}

/// spec/problems.md: the example problem file reads, and its claims hold (proved by search).
#[test]
fn problem_file_example_is_sound() {
    let text = spec("problems.md");
    let (_, block) = code_blocks(&text)
        .into_iter()
        .find(|(info, _)| info == "toml")
        .expect("the example problem file");
    let file = ordo_solve::parse_problems(&block).unwrap();
    assert_eq!(file.problems.len(), 1);
    let dir = scratch("spec-problem");
    let path = dir.join("example.toml");
    std::fs::write(&path, &block).unwrap();
    let o = ordo_cmd(&[
        "problem",
        "verify",
        path.to_str().unwrap(),
        "--method",
        "search",
    ]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(0), "{out}");
    assert!(out.contains(": sound"), "{out}");
}
