//! Whatever the command line prints that came from outside (arguments, file names, the lines of
//! a checksum list, a record's headers, positions) goes through one routine
//! (`notation::echo`, `notation::one_line`): control characters, escape sequences and
//! bidirectional or invisible characters are shown as escapes, and every echoed input is cut
//! after 100 characters with its full length given. Tested over each command that echoes.

use std::path::Path;
use std::process::Command;

use super::common::scratch;

/// `ordo ARGS` run in `dir`: its exit status and its standard output and error together,
/// checked to hold no raw control character (but line feeds), no invisible or bidirectional
/// character, and at most `most` bytes of standard error.
fn echoed(dir: &Path, args: &[&str], most: usize) -> (Option<i32>, String) {
    let o = Command::new(env!("CARGO_BIN_EXE_ordo"))
        .current_dir(dir)
        .args(args)
        .output()
        .unwrap();
    let all = format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    let raw = all
        .chars()
        .find(|&c| c != '\n' && ordo_core::notation::needs_escape(c));
    assert_eq!(raw, None, "{args:?}: {all:?}");
    assert!(o.stderr.len() <= most, "{args:?}: {} bytes", o.stderr.len());
    (o.status.code(), all)
}

#[test]
fn a_huge_argument_is_cut_with_its_length() {
    let dir = scratch("echo-arg");
    let name = "x".repeat(10_000);
    let (code, all) = echoed(&dir, &["moves", "--engine", &name], 400);
    assert_eq!(code, Some(2));
    assert!(all.contains("… (10000 characters)' for"), "{all}");
    let (code, all) = echoed(
        &dir,
        &["tb", "job", "--material", "16,16", "--dir", "."],
        600,
    );
    assert_eq!(code, Some(2));
    assert!(all.contains("more ("), "{all}");
}

#[test]
fn bidirectional_and_invisible_characters_are_shown_escaped() {
    let dir = scratch("echo-bidi");
    let pos = "4/4\u{202e}\u{200b}/4 w classic";
    let (code, all) = echoed(&dir, &["moves", "--position", pos], 400);
    assert_eq!(code, Some(2));
    assert!(all.contains("\\u{202e}\\u{200b}"), "{all}");
    let (_, all) = echoed(&dir, &["play", "e2\u{1b}[31m-e4\u{7}"], 400);
    assert!(all.contains("\\u{1b}[31m"), "{all}");
}

#[test]
fn checksum_lists_and_table_folders_are_echoed_escaped() {
    let dir = scratch("echo-checksums");
    let list = dir.join("SUMS");
    let hex = "0".repeat(64);
    std::fs::write(&list, format!("{hex}  ctb-x\u{1b}[2J\u{202e}.ordotb\n")).unwrap();
    let (code, all) = echoed(
        &dir,
        &["tb", "checksums", "--dir", ".", "--check", "SUMS"],
        400,
    );
    assert_eq!(code, Some(1), "{all}");
    assert!(
        all.contains("ctb-x\\u{1b}[2J\\u{202e}.ordotb: MISSING"),
        "{all}"
    );
    std::fs::write(dir.join("x\u{1b}]0;title\u{7}.ordotb"), "junk").unwrap();
    let (code, all) = echoed(&dir, &["tb", "checksums", "--dir", "."], 400);
    assert_eq!(code, Some(2), "{all}");
    assert!(all.contains("x\\u{1b}]0;title\\u{7}.ordotb"), "{all}");
}

#[test]
fn check_game_echoes_its_argument_and_headers_escaped() {
    let dir = scratch("echo-record");
    let (code, all) = echoed(&dir, &["check-game", "no\u{1b}[2Jsuch.txt"], 400);
    assert_eq!(code, Some(2));
    assert!(all.contains("no\\u{1b}[2Jsuch.txt"), "{all}");
    let record = "[Event \"evil\u{1b}[2J\u{202e}name\"]\n\n1. e2-e3\n";
    std::fs::write(dir.join("game.txt"), record).unwrap();
    let (_, all) = echoed(&dir, &["check-game", "game.txt"], 400);
    assert!(all.contains("Event: evil\\u{1b}[2J\\u{202e}name"), "{all}");
}
