//! `ordo render` from the command line: an SVG file written and parseable, the Unicode board
//! printed, removed pieces marked, bad input refused. The diagrams themselves are tested
//! beside their crate (crates/render/tests).

use std::collections::BTreeSet;

use crate::common::{assert_ok, ordo_cmd as ordo};

/// Parse an SVG document, failing the test with the text when it is not well-formed.
fn parse(text: &str) -> roxmltree::Document<'_> {
    roxmltree::Document::parse(text).unwrap_or_else(|e| panic!("not well-formed: {e}\n{text}"))
}

/// Elements whose `class` attribute contains every word of `class`.
fn with_class<'a, 'i>(
    doc: &'a roxmltree::Document<'i>,
    class: &str,
) -> Vec<roxmltree::Node<'a, 'i>> {
    doc.descendants()
        .filter(|n| n.is_element())
        .filter(|n| {
            let have: Vec<&str> = n.attribute("class").unwrap_or("").split(' ').collect();
            class.split(' ').all(|w| have.contains(&w))
        })
        .collect()
}

/// The `data-square` values of the elements with `class`.
fn squares_of(doc: &roxmltree::Document<'_>, class: &str) -> BTreeSet<String> {
    with_class(doc, class)
        .iter()
        .map(|n| n.attribute("data-square").expect("data-square").to_string())
        .collect()
}

/// The (step, from, to) of every arrow, in document order.
fn arrows(doc: &roxmltree::Document<'_>) -> Vec<(String, String, String)> {
    with_class(doc, "arrow")
        .iter()
        .map(|n| {
            (
                n.attribute("data-step").unwrap().to_string(),
                n.attribute("data-from").unwrap().to_string(),
                n.attribute("data-to").unwrap().to_string(),
            )
        })
        .collect()
}

/// Board lines of a Unicode diagram: those between the frame's top and bottom.
fn board_lines(text: &str) -> Vec<&str> {
    text.lines()
        .skip_while(|l| !l.contains('┌'))
        .skip(1)
        .take_while(|l| !l.contains('└'))
        .collect()
}

fn tmp_path(name: &str) -> std::path::PathBuf {
    crate::common::shared_scratch("render").join(name)
}

/// `ordo render --svg FILE` writes a parseable file, says where, and exits 0; a capture step is
/// marked on the square it takes.
#[test]
fn cli_writes_svg() {
    let path = tmp_path("start.svg");
    let p = path.to_str().unwrap();
    let o = ordo(&[
        "render", "--move", "c2:d2-c4", "--svg", p, "--title", "A & B",
    ]);
    assert_ok(&o);
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(out.lines().count(), 1, "{out}");
    assert!(out.contains(p), "{out}");
    let text = std::fs::read_to_string(&path).unwrap();
    let doc = parse(&text);
    assert_eq!(with_class(&doc, "piece white").len(), 20);
    assert_eq!(arrows(&doc).len(), 2);
    assert_eq!(with_class(&doc, "title")[0].text(), Some("A & B"));
    // No temporary file is left beside it.
    let left: Vec<_> = std::fs::read_dir(path.parent().unwrap())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains("tmp-ordo"))
        .collect();
    assert!(left.is_empty(), "{left:?}");

    // ORDO-6.3: a capture, legal or not, marks the captured square.
    let path = tmp_path("capture.svg");
    let o = ordo(&[
        "render",
        "--position",
        "4/1B2/W3/4 w classic",
        "--move",
        "a2xb3",
        "--svg",
        path.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0));
    let text = std::fs::read_to_string(&path).unwrap();
    let doc = parse(&text);
    assert_eq!(
        squares_of(&doc, "captured"),
        BTreeSet::from(["b3".to_string()])
    );
    let _ = std::fs::remove_dir_all(path.parent().unwrap());
}

/// Without `--svg`, the Unicode board goes to stdout; an illegal move is drawn anyway.
#[test]
fn cli_prints_unicode() {
    let o = ordo(&[
        "render",
        "--variant",
        "x",
        "--board",
        "8x8",
        "--move",
        "a3-a7",
    ]);
    assert_eq!(o.status.code(), Some(0));
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(board_lines(&out).len(), 8);
    assert!(out.contains("move: a3-a7"), "{out}");
    assert!(out.contains("Ordo X"), "{out}");
}

/// ORDOX-4.1: for a legal Ordo X capture the CLI marks the pieces removed with their group.
#[test]
fn cli_marks_removed_pieces() {
    // The example of crates/clause-tests/src/x.rs: c2xc3 leaves Black a4-b4 and d4; d4 goes.
    let args = [
        "render",
        "--position",
        "5/BB1B1/2B2/1WW2/5 w x",
        "--move",
        "c2xc3",
    ];
    let o = ordo(&args);
    assert_ok(&o);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("captured: c3\n"), "{out}");
    assert!(out.contains("removed: d4\n"), "{out}");
    // The same capture in classic Ordo removes nothing (ORDO-9.3).
    let o = ordo(&[
        "render",
        "--position",
        "5/BB1B1/2B2/1WW2/5 w classic",
        "--move",
        "c2xc3",
    ]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("captured: c3\n"), "{out}");
    assert!(!out.contains("removed:"), "{out}");
}

/// Bad input: exit status 2 and one line on stderr naming the problem.
#[test]
fn cli_bad_input() {
    for (args, fragment) in [
        (vec!["render", "--move", "e2-q4"], "--move"),
        (
            vec!["render", "--move", "k1-k2"],
            "k1 is off the 10x8 board",
        ),
        (
            vec!["render", "--svg", "/nonexistent-dir-ordo/x.svg"],
            "/nonexistent-dir-ordo/x.svg",
        ),
        (vec!["render", "--position", "WB w classic"], "--position"),
    ] {
        let o = ordo(&args);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.starts_with("ordo: error: "), "{err}");
        assert!(err.contains(fragment), "{args:?}: {err}");
    }
}
