//! Diagrams (`ordo_render`): the SVG document is parsed with `roxmltree` and
//! checked for what it shows — pieces on their squares, coordinates (ORDO-1.2), home rows
//! (ORDO-1.3), moves as arrows (ORDO-6.1 singletons, ORDO-7.1 ordo runs, ORDOX-3.1 two-step
//! turns), captured and removed pieces (ORDO-6.3, ORDOX-4.1), every board size (ORDO-1.5) — and
//! the Unicode board is checked for labels, piece counts and a snapshot.

use std::collections::BTreeSet;

use ordo_clause_tests::helpers::pos;
use ordo_core::notation::{parse_move, parse_position, parse_square};
use ordo_core::rules::{setup, Color, Dims, Position, Variant};
use ordo_render::{self as render, Annotations};

fn sq(s: &str) -> ordo_core::rules::Square {
    parse_square(s).unwrap()
}

fn svg_of(pos: &Position, mv: Option<&str>, notes: &Annotations) -> String {
    let mv = mv.map(|m| parse_move(m).unwrap());
    render::svg(pos, mv.as_ref(), notes)
}

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

fn names(pos: &Position, c: Color) -> BTreeSet<String> {
    pos.pieces(c).iter().map(|s| s.to_string()).collect()
}

/// ORDO-2.2: the standard start shows 20 white and 20 black pieces on exactly their squares.
#[test]
fn svg_standard_start_pieces() {
    let pos = setup::standard(Variant::Classic);
    let text = svg_of(&pos, None, &Annotations::default());
    let doc = parse(&text);
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "svg");
    assert_eq!(
        root.tag_name().namespace(),
        Some("http://www.w3.org/2000/svg")
    );
    assert!(root.attribute("viewBox").is_some());
    let white = with_class(&doc, "piece white");
    let black = with_class(&doc, "piece black");
    assert_eq!(white.len(), 20);
    assert_eq!(black.len(), 20);
    assert!(white
        .iter()
        .chain(&black)
        .all(|n| n.tag_name().name() == "circle"));
    assert_eq!(squares_of(&doc, "piece white"), names(&pos, Color::White));
    assert_eq!(squares_of(&doc, "piece black"), names(&pos, Color::Black));
    assert!(squares_of(&doc, "piece white").contains("c1"));
    assert!(squares_of(&doc, "piece black").contains("c8"));
    // 80 squares, a1 dark (and the piece on c1 drawn inside its square).
    assert_eq!(with_class(&doc, "square").len(), 80);
    assert_eq!(with_class(&doc, "square dark").len(), 40);
    assert!(squares_of(&doc, "square dark").contains("a1"));
    assert!(arrows(&doc).is_empty());
    assert!(with_class(&doc, "title").is_empty());
}

/// ORDO-1.2: column letters a..j and row numbers 1..8 on the edges, row 8 drawn above row 1 and
/// column a left of column j.
#[test]
fn svg_coordinates() {
    let pos = setup::standard(Variant::Classic);
    let text = svg_of(&pos, None, &Annotations::default());
    let doc = parse(&text);
    let cols: Vec<&str> = with_class(&doc, "coord col")
        .iter()
        .map(|n| n.text().unwrap())
        .collect();
    let rows: Vec<&str> = with_class(&doc, "coord row")
        .iter()
        .map(|n| n.text().unwrap())
        .collect();
    assert_eq!(cols, ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j"]);
    assert_eq!(rows, ["1", "2", "3", "4", "5", "6", "7", "8"]);
    let square = |name: &str| {
        let n = with_class(&doc, "square")
            .into_iter()
            .find(|n| n.attribute("data-square") == Some(name))
            .unwrap();
        let x: f64 = n.attribute("x").unwrap().parse().unwrap();
        let y: f64 = n.attribute("y").unwrap().parse().unwrap();
        (x, y)
    };
    assert!(square("a8").1 < square("a1").1, "last row at the top");
    assert!(square("a1").0 < square("j1").0, "column a at the left");
}

/// ORDO-1.3: both home rows are marked, by a band and a label.
#[test]
fn svg_home_rows() {
    let pos = setup::standard(Variant::Classic);
    let text = svg_of(&pos, None, &Annotations::default());
    let doc = parse(&text);
    let band = |c: &str| {
        let v = with_class(&doc, &format!("home-row {c}"));
        assert_eq!(v.len(), 1, "{c}");
        v[0].attribute("data-row").unwrap().to_string()
    };
    assert_eq!(band("white"), "1");
    assert_eq!(band("black"), "8");
    let labels: Vec<&str> = with_class(&doc, "home-row-label")
        .iter()
        .map(|n| n.text().unwrap())
        .collect();
    assert!(labels.contains(&"White's home row"), "{labels:?}");
    assert!(labels.contains(&"Black's home row"), "{labels:?}");
}

/// ORDO-6.1: a singleton step is one arrow, origin to landing.
#[test]
fn svg_singleton_arrow() {
    let pos = setup::standard(Variant::Classic);
    let doc_text = svg_of(&pos, Some("a3-a4"), &Annotations::default());
    let doc = parse(&doc_text);
    assert_eq!(arrows(&doc), [("1".into(), "a3".into(), "a4".into())]);
    let arrow = with_class(&doc, "arrow")[0];
    assert!(arrow.attribute("marker-end").unwrap().contains("url(#"));
    assert_eq!(doc.root_element().attribute("data-move"), Some("a3-a4"));
    assert_eq!(
        squares_of(&doc, "origin"),
        BTreeSet::from(["a3".to_string()])
    );
    assert_eq!(
        squares_of(&doc, "landing"),
        BTreeSet::from(["a4".to_string()])
    );
    // The marker the arrow names exists.
    let id = arrow
        .attribute("marker-end")
        .unwrap()
        .trim_start_matches("url(#")
        .trim_end_matches(')');
    assert!(doc.descendants().any(|n| n.attribute("id") == Some(id)));
}

/// ORDO-7.1: an ordo moves every piece of the run, one arrow each.
#[test]
fn svg_ordo_arrows() {
    let pos = setup::standard(Variant::Classic);
    let doc_text = svg_of(&pos, Some("c2:d2-c4"), &Annotations::default());
    let doc = parse(&doc_text);
    assert_eq!(
        arrows(&doc),
        [
            ("1".into(), "c2".into(), "c4".into()),
            ("1".into(), "d2".into(), "d4".into())
        ]
    );
}

/// ORDOX-3.1: both steps of a two-step turn are drawn, the second dashed.
#[test]
fn svg_two_step_turn() {
    let pos = setup::standard(Variant::X);
    let doc_text = svg_of(&pos, Some("e3-g3,f2:f3-f4"), &Annotations::default());
    let doc = parse(&doc_text);
    assert_eq!(
        arrows(&doc),
        [
            ("1".into(), "e3".into(), "g3".into()),
            ("2".into(), "f2".into(), "f4".into()),
            ("2".into(), "f3".into(), "f5".into())
        ]
    );
    let a = with_class(&doc, "arrow");
    assert!(a[0].attribute("stroke-dasharray").is_none());
    assert!(a[1].attribute("stroke-dasharray").is_some());
    assert_ne!(a[0].attribute("stroke"), a[1].attribute("stroke"));
    assert_ne!(a[0].attribute("marker-end"), a[1].attribute("marker-end"));
}

/// ORDO-6.3, ORDOX-4.1: captured and removed pieces are marked on the given squares.
#[test]
fn svg_captured_and_removed() {
    let pos = pos(Variant::X, 6, 6, 'w', "c3 a1", "d4 f6 e6");
    let notes = Annotations {
        captured: vec![sq("d4")],
        removed: vec![sq("f6"), sq("e6")],
        title: Some("c3xd4 removes e6 f6".into()),
    };
    let doc_text = svg_of(&pos, Some("c3xd4"), &notes);
    let doc = parse(&doc_text);
    assert_eq!(
        squares_of(&doc, "captured"),
        BTreeSet::from(["d4".to_string()])
    );
    assert_eq!(
        squares_of(&doc, "removed"),
        BTreeSet::from(["e6".to_string(), "f6".to_string()])
    );
    assert_eq!(arrows(&doc), [("1".into(), "c3".into(), "d4".into())]);
    let title = with_class(&doc, "title");
    assert_eq!(title.len(), 1);
    assert_eq!(title[0].text(), Some("c3xd4 removes e6 f6"));
}

/// ORDO-1.5: every board shape from 2 x 2 to 16 x 8 and 8 x 16 gives a well-formed document with
/// one square, one coordinate and one piece per square as expected.
#[test]
fn svg_every_board_size() {
    for cols in 2..=16usize {
        for rows in 2..=16usize {
            let Ok(dims) = Dims::new(cols, rows) else {
                continue;
            };
            let pos = setup::filled_rows(dims, 1, Variant::Classic).unwrap();
            let text = svg_of(&pos, None, &Annotations::default());
            let doc = parse(&text);
            assert_eq!(with_class(&doc, "square").len(), dims.len(), "{dims}");
            assert_eq!(with_class(&doc, "coord col").len(), cols, "{dims}");
            assert_eq!(with_class(&doc, "coord row").len(), rows, "{dims}");
            assert_eq!(with_class(&doc, "piece white").len(), cols, "{dims}");
            assert_eq!(with_class(&doc, "piece black").len(), cols, "{dims}");
            assert_eq!(with_class(&doc, "home-row").len(), 2, "{dims}");
        }
    }
    // The corner cases by name, with a move from corner to corner.
    for (text, mv, last) in [
        ("WB/2 b x", "b2-a1", "b2"),
        ("16/16/16/16/16/16/16/W15 w classic", "a1-p8", "p8"),
        (
            "8/8/8/8/8/8/8/8/8/8/8/8/8/8/8/W7 w classic",
            "a1-h16",
            "h16",
        ),
    ] {
        let pos = parse_position(text).unwrap();
        let svg = svg_of(&pos, Some(mv), &Annotations::default());
        let doc = parse(&svg);
        assert_eq!(arrows(&doc).len(), 1, "{text}");
        assert!(with_class(&doc, "square")
            .iter()
            .any(|n| n.attribute("data-square") == Some(last)));
    }
}

/// Text is escaped for XML: a title with `<&>"'` parses and reads back unchanged; control
/// characters do not break the document.
#[test]
fn svg_escapes_text() {
    let pos = setup::standard(Variant::Classic);
    let title = r#"a<b & c>"d" 'e' </svg>"#;
    let notes = Annotations {
        title: Some(title.into()),
        ..Annotations::default()
    };
    let text = svg_of(&pos, None, &notes);
    let doc = parse(&text);
    assert_eq!(with_class(&doc, "title")[0].text(), Some(title));
    let notes = Annotations {
        title: Some("bell\u{7} nul\u{0} line\nbreak".into()),
        ..Annotations::default()
    };
    let text = svg_of(&pos, None, &notes);
    parse(&text);
}

/// A move whose pieces would leave the board is still drawn; its arrow stops at the edge.
#[test]
fn svg_off_board_landing() {
    let pos = pos(Variant::Classic, 3, 3, 'w', "a1 a2 a3", "c3");
    let doc_text = svg_of(&pos, Some("a1:a3-a2"), &Annotations::default());
    let doc = parse(&doc_text);
    assert_eq!(
        arrows(&doc),
        [
            ("1".into(), "a1".into(), "a2".into()),
            ("1".into(), "a2".into(), "a3".into()),
            ("1".into(), "a3".into(), "off-board".into())
        ]
    );
    // Squares off the board in the annotations and the move are left out, without a panic.
    let notes = Annotations {
        captured: vec![sq("p16")],
        removed: vec![sq("d1")],
        title: None,
    };
    let doc_text = svg_of(&pos, Some("k1-k2"), &notes);
    let doc = parse(&doc_text);
    assert!(with_class(&doc, "captured").is_empty());
    assert!(with_class(&doc, "removed").is_empty());
    assert_eq!(arrows(&doc).len(), 1);
    let _ = render::unicode(&pos, Some(&parse_move("k1-k2").unwrap()), &notes);
}

/// Board lines of a Unicode diagram: those between the frame's top and bottom.
fn board_lines(text: &str) -> Vec<&str> {
    text.lines()
        .skip_while(|l| !l.contains('┌'))
        .skip(1)
        .take_while(|l| !l.contains('└'))
        .collect()
}

/// ORDO-1.2, ORDO-1.3: the Unicode board of the standard start has the labels, the home rows and
/// 20 pieces a side.
#[test]
fn unicode_standard_start() {
    let pos = setup::standard(Variant::Classic);
    let text = render::unicode(&pos, None, &Annotations::default());
    let rows = board_lines(&text);
    assert_eq!(rows.len(), 8);
    for (i, line) in rows.iter().enumerate() {
        let n = 8 - i;
        assert!(line.trim_start().starts_with(&format!("{n} │")), "{line}");
    }
    assert!(rows[0].ends_with("← Black's home row"));
    assert!(rows[7].ends_with("← White's home row"));
    let letters = text
        .lines()
        .find(|l| l.trim_start().starts_with("a "))
        .unwrap();
    assert_eq!(
        letters.split_whitespace().collect::<Vec<_>>(),
        ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j"]
    );
    let count = |c: char| rows.iter().map(|l| l.matches(c).count()).sum::<usize>();
    assert_eq!(count('○'), 20);
    assert_eq!(count('●'), 20);
    assert_eq!(count('·'), 40);
    assert!(text.contains("White to move, classic Ordo"));
    assert!(text.lines().all(|l| l == l.trim_end()));
    assert_eq!(text, render::unicode(&pos, None, &Annotations::default()));
}

/// A snapshot of a small position with a two-step Ordo X turn, a capture and a removal.
#[test]
fn unicode_snapshot() {
    let pos = pos(Variant::X, 4, 4, 'w', "a1 b2", "c2 c4 d4");
    let mv = parse_move("b2-c2,c2-c3").unwrap();
    let notes = Annotations {
        captured: vec![sq("c2")],
        removed: vec![sq("d4")],
        title: Some("A\ttest".into()),
    };
    let text = render::unicode(&pos, Some(&mv), &notes);
    let want = "\
A test
     a  b  c  d
   ┌────────────┐
 4 │ ·  ·  ● ~●~│ 4  ← Black's home row
 3 │ ·  · (·) · │ 3
 2 │ · [○]×●× · │ 2
 1 │ ○  ·  ·  · │ 1  ← White's home row
   └────────────┘
     a  b  c  d
White to move, Ordo X; White 2 pieces, Black 3 pieces
move: b2-c2,c2-c3
  step 1: b2 → c2
  step 2: c2 → c3
captured: c2
removed: d4
marks: [ ] leaves, ( ) reaches, × × captured, ~ ~ removed
";
    assert_eq!(text, want, "\n{text}");
}

/// An ordo whose run overlaps its landing squares: the shared square is marked `{ }`.
#[test]
fn unicode_ordo_marks() {
    let pos = setup::standard(Variant::Classic);
    let text = render::unicode(
        &pos,
        Some(&parse_move("a2:a3-a3").unwrap()),
        &Annotations::default(),
    );
    let rows = board_lines(&text);
    assert!(rows[4].contains("(·)"), "a4: {}", rows[4]);
    assert!(rows[5].contains("{○}"), "a3: {}", rows[5]);
    assert!(rows[6].contains("[○]"), "a2: {}", rows[6]);
    assert!(text.contains("step 1: a2 → a3, a3 → a4"));
}
