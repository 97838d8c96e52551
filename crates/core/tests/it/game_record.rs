//! Game records (spec/game-record.md): headers, move numbers, comments, results, other
//! programs' spellings, and located errors.

use ordo_core::notation::{format_move, parse_move_lenient, parse_record};
use ordo_core::rules::{setup, Dims, Variant};

#[test]
fn reads_headers_moves_comments_and_result() {
    let text = "[Event \"Club night\"]\n[Variant \"x\"]\n[White \"Anna \\\"A\\\"\"]\n\n1. a3-a4 { a comment\n spanning lines } c7-c6 ; rest of line\n2... e3-f3,f3-f4\n0-1\n";
    let rec = parse_record(text).unwrap();
    assert_eq!(rec.header("event"), Some("Club night"));
    assert_eq!(rec.header("White"), Some("Anna \"A\""));
    assert_eq!(rec.start, setup::standard(Variant::X));
    let moves: Vec<String> = rec.moves.iter().map(|m| format_move(&m.mv)).collect();
    assert_eq!(moves, ["a3-a4", "c7-c6", "e3-f3,f3-f4"]);
    assert_eq!((rec.moves[1].line, rec.moves[1].column), (6, 19));
    assert_eq!(rec.result.as_deref(), Some("0-1"));
}

/// ORDO-1.6: the Board header selects the 8 x 8 start; other sizes need a Start header.
#[test]
fn board_and_start_headers() {
    let rec = parse_record("[Board \"8x8\"]\n").unwrap();
    assert_eq!(rec.start.dims(), Dims::CHESS);
    let err = parse_record("[Board \"5x5\"]\n").unwrap_err();
    assert_eq!(err.line, 1);
    assert!(err.to_string().contains("Start header"), "{err}");
    let rec = parse_record("[Start \"BBBB/4/4/WWWW w x\"]\n1. a1-a2").unwrap();
    assert_eq!(rec.start.dims(), Dims::new(4, 4).unwrap());
    let err = parse_record("[Variant \"classic\"]\n[Start \"BBBB/4/4/WWWW w x\"]\n").unwrap_err();
    assert!(err.to_string().contains("Variant says classic"), "{err}");
}

#[test]
fn other_programs_spellings() {
    for (written, canonical) in [
        ("E2-E4", "e2-e4"),
        ("C2XC3", "c2xc3"),
        ("c2×c3/A4", "c2xc3/a4"),
        ("a2–a3", "a2-a3"),
        ("A2:D2-A3+", "a2:d2-a3"),
        ("e3-f3,F3-F4!", "e3-f3,f3-f4"),
    ] {
        let m = parse_move_lenient(written).unwrap_or_else(|e| panic!("{written}: {e}"));
        assert_eq!(format_move(&m), canonical);
    }
    assert!(parse_move_lenient("Q2-E4").is_err());
}

#[test]
fn errors_name_line_and_column() {
    let err = parse_record("[Variant \"x\"]\n1. a3-a4 c7-q6\n").unwrap_err();
    assert_eq!((err.line, err.column), (2, 13));
    assert!(err.to_string().contains("column letter"), "{err}");
    let err = parse_record("[Variant \"y\"]\n").unwrap_err();
    assert!(err.to_string().contains("unknown variant"), "{err}");
    let err = parse_record("1. a3-a4 {never closed\n").unwrap_err();
    assert!(err.to_string().contains("never closed"), "{err}");
    let err = parse_record("1. a3-a4 * c7-c6\n").unwrap_err();
    assert!(err.to_string().contains("last token"), "{err}");
    let err = parse_record("[Event Club]\n").unwrap_err();
    assert!(err.to_string().contains("double quotes"), "{err}");
    let err = parse_record("1. a3-a4\n[Event \"late\"]\n").unwrap_err();
    assert!(err.to_string().contains("before the first move"), "{err}");
}
