//! The page's answers built without a server (`ordo_page::api`): the verdict on a move with
//! its clauses and effects, the legal moves, one step of a turn and its ties, the diagram,
//! typed errors naming the parameter, and the boards a verdict shows (`ordo_page::show`).

use ordo_page::api::{self, ErrorKind};

const START: &str = "2BB2BB2/BBBBBBBBBB/BB2BB2BB/10/10/WW2WW2WW/WWWWWWWWWW/2WW2WW2 w classic";
const START_X: &str = "2BB2BB2/BBBBBBBBBB/BB2BB2BB/10/10/WW2WW2WW/WWWWWWWWWW/2WW2WW2 w x";

/// ORDO-7.2, ORDO-4.3: the verdict on an illegal ordo move lists both clauses with their text,
/// sources and rules-page links, and no effects.
#[test]
fn explain_illegal_lists_every_clause() {
    let a = api::explain("4/1B2/WW2/2W1 w classic", "a2:b2-a3").unwrap();
    assert_eq!((a.verdict.word(), a.legal), ("illegal", false));
    let ids: Vec<&str> = a.violated.iter().map(|c| c.id.as_str()).collect();
    assert_eq!(ids, ["ORDO-7.2", "ORDO-4.3"]);
    let c = &a.violated[0];
    assert_eq!(c.title, "Ordo moves never capture");
    assert_eq!(c.url, "/rules#ORDO-7.2");
    assert!(c.text.contains("never captures") && !c.sources.is_empty());
    assert!(c.detail.as_deref().unwrap().contains("b3"));
    assert!(a.permitted_by.is_empty() && a.effects.is_none() && a.canonical.is_none());
    assert!(a.svg.contains("illegal: ORDO-7.2, ORDO-4.3"));
    assert_eq!(
        a.link,
        "/?position=4%2F1B2%2FWW2%2F2W1%20w%20classic&move=a2%3Ab2-a3"
    );
}

/// ORDO-6.1, ORDO-10.1: a legal winning move gives its effects, the resulting position, the
/// status with its clause, and the permitting clauses.
#[test]
fn explain_legal_gives_effects_and_result() {
    let a = api::explain("1B2/4/W3/4 w classic", "a2-a4").unwrap();
    assert!(a.legal, "{:?}", a.violated);
    let e = a.effects.as_ref().unwrap();
    assert_eq!(e.moved, [["a2".to_string(), "a4".to_string()]]);
    assert_eq!(e.result, "WB2/4/4/4 b classic");
    assert_eq!(e.status_clause.as_deref(), Some("ORDO-10.1"));
    assert!(e.status.starts_with("White wins"));
    assert!(a.permitted_by.iter().any(|c| c.id == "ORDO-10.1"));
    assert!(a.violated.is_empty());
    assert_eq!(a.canonical.as_deref(), Some("a2-a4"));
}

/// ORDOX-3.1: the moves of the Ordo X start, and an Ordo X two-step turn judged legal.
#[test]
fn moves_and_two_step_turn() {
    let m = api::moves(START_X).unwrap();
    assert_eq!(
        (m.count, m.moves.len(), m.board.as_str()),
        (2062, 2062, "10x8")
    );
    assert!(m.moves.windows(2).all(|w| w[0] < w[1]), "sorted");
    assert!(m.moves.contains(&"b3-c3,c3-d4".to_string()));
    assert_eq!(m.status, "ongoing");
    let a = api::explain(START_X, "b3-c3,c3-d4").unwrap();
    assert!(a.legal && a.permitted_by.iter().any(|c| c.id == "ORDOX-3.1"));
}

/// ORDOX-4.2: a capture that leaves two equally large groups reports them for the choice, and
/// the position after a sideways step keeps the side to move.
#[test]
fn step_reports_ties_and_the_position_after() {
    let s = api::step("5/BBB2/1W3/5/5 w x", "b3xb4").unwrap();
    assert_eq!(
        s.tied_groups,
        [vec!["a4".to_string()], vec!["c4".to_string()]]
    );
    let a = api::explain("5/BBB2/1W3/5/5 w x", "b3xb4/c4").unwrap();
    assert!(a.legal && a.effects.unwrap().removed == ["a4"]);
    let s = api::step(START_X, "b3-c3").unwrap();
    assert!(s.tied_groups.is_empty());
    assert_eq!(
        s.after,
        "2BB2BB2/BBBBBBBBBB/BB2BB2BB/10/10/W1W1WW2WW/WWWWWWWWWW/2WW2WW2 w x"
    );
    // Classic Ordo removes nothing, so there is no tie to choose.
    assert!(api::step("5/BBB2/1W3/5/5 w classic", "b3xb4")
        .unwrap()
        .tied_groups
        .is_empty());
    let e = api::step(START_X, "b3-c3,c3-d4").unwrap_err();
    assert_eq!((e.place.as_str(), e.status()), ("step", 400));
    let e = api::step(START_X, "k3-k4").unwrap_err();
    assert!(e.message.contains("off the 10x8 board"), "{}", e.message);
}

/// ORDO-2.3, ORDO-1.5: unreadable or impossible positions and unreadable moves are 400s that
/// name the parameter; unknown clauses are 404s.
#[test]
fn library_errors_name_the_parameter() {
    let e = api::explain("WB/2B w classic", "a1-a2").unwrap_err();
    assert_eq!(
        (e.kind, e.place.as_str()),
        (ErrorKind::BadInput, "position")
    );
    assert!(e.message.contains("at character 5"), "{}", e.message);
    let e = api::explain("W1/1B w classic", "a1-a2").unwrap_err();
    assert!(e.message.contains("ORDO-2.3"), "{}", e.message);
    let e = api::explain(START, "e2-q4").unwrap_err();
    assert_eq!(e.place, "move");
    // A well-formed id that names no clause (built here so that traceability does not read it as
    // a citation).
    let unknown = format!("ORDO-{}.1", 99);
    let e = api::rule(&unknown).unwrap_err();
    assert_eq!((e.status(), e.place.as_str()), (404, "id"));
    let e = api::rule("chess").unwrap_err();
    assert!(e.message.contains("not a clause id"));
    let c = api::rule("ORDOX-4.2").unwrap();
    assert_eq!(
        (c.section.as_str(), c.url.as_str()),
        ("ORDOX-4", "/rules#ORDOX-4.2")
    );
    assert_eq!(
        api::all_rules().len(),
        ordo_core::rules::clauses::registry().clauses.len()
    );
}

/// The diagram endpoint draws the position (the same SVG as `ordo render --svg`).
#[test]
fn board_svg_is_the_render_diagram() {
    let svg = api::board_svg(START, Some("e3-e4")).unwrap();
    let doc = roxmltree::Document::parse(&svg).expect("well-formed SVG");
    let pieces = doc
        .descendants()
        .filter(|n| {
            n.attribute("class")
                .is_some_and(|c| c.starts_with("piece "))
        })
        .count();
    assert_eq!(pieces, 40);
    assert!(doc
        .descendants()
        .any(|n| n.attribute("data-to") == Some("e4")));
    // A position that breaks the rules is still drawn (the page shows what is being edited).
    assert!(api::board_svg("WB/WB b classic", None).is_ok());
}

/// Show, don't list, ORDO-4.3: the verdict on a disconnecting move draws the
/// mover's groups on the board as written (a `split` frame), instead of only listing squares.
#[test]
fn a_disconnecting_move_draws_the_split_groups() {
    let a = ordo_page::api::explain(START, "e3-e5").expect("answer");
    assert_eq!(a.violated[0].id, "ORDO-4.3");
    assert_eq!(a.frames.len(), 1, "{:?}", a.frames);
    let f = &a.frames[0];
    assert_eq!(f.kind, "as-written");
    assert_eq!(f.groups.len(), 2);
    assert!(f.groups.iter().all(|g| g.role == "split"));
    assert!(
        f.groups.iter().any(|g| g.squares == ["e5"]),
        "{:?}",
        f.groups
    );
    assert_eq!(f.groups.iter().map(|g| g.squares.len()).sum::<usize>(), 20);
    assert!(f.svg.contains(r#"data-square="e5""#));
    // A legal move that splits nothing has one board after it and no groups.
    let a = ordo_page::api::explain(START, "e3-e4").expect("answer");
    assert_eq!(a.frames.len(), 1);
    assert_eq!((a.frames[0].kind, a.frames[0].groups.len()), ("after", 0));
    assert!(a.frames[0]
        .position
        .starts_with("2BB2BB2/BBBBBBBBBB/BB2BB2BB/10/4W5/"));
}

/// The groups a board draws, each as its role and its squares (`left a4`).
fn roles(f: &ordo_page::show::Frame) -> Vec<String> {
    f.groups
        .iter()
        .map(|g| format!("{} {}", g.role, g.squares.join(" ")))
        .collect()
}

/// The groups left after a disconnecting capture, ORDO-9.3: a classic
/// capture that splits the opponent is shown on the board right after it with each of the
/// opponent's groups as `left` (nothing removed, unlike Ordo X), then the board after it with
/// the same groups; a classic capture that splits nothing draws no group.
#[test]
fn a_classic_disconnecting_capture_draws_the_groups_left() {
    let a = ordo_page::api::explain("5/BBB2/1W3/5/5 w classic", "b3xb4").expect("answer");
    assert_eq!(a.verdict.word(), "legal", "{:?}", a.violated);
    let kinds: Vec<&str> = a.frames.iter().map(|f| f.kind).collect();
    assert_eq!(kinds, ["after"], "{:?}", a.frames);
    let after = &a.frames[0];
    assert!(
        after.position.starts_with("5/BWB2/5/"),
        "{}",
        after.position
    );
    assert!(after.removed.is_empty());
    assert_eq!(roles(after), ["left a4", "left c4"]);
    // A capture that leaves the opponent in one group draws none.
    let one = ordo_page::api::explain("5/BB3/1W3/5/5 w classic", "b3xb4").expect("answer");
    assert_eq!(one.verdict.word(), "legal", "{:?}", one.violated);
    assert_eq!(one.frames.len(), 1);
    assert!(
        one.frames[0].groups.is_empty(),
        "{:?}",
        one.frames[0].groups
    );
}

/// ORDOX-4.1/ORDOX-4.2 and ORDOX-3.1, shown rather than listed: an Ordo X capture is shown in two
/// boards (the capture with the pieces to remove marked and the groups by role, then the
/// removal); a two-step turn has a board after each step.
#[test]
fn ordo_x_turns_are_shown_step_by_step() {
    let a = ordo_page::api::explain("5/BBB2/1W3/5/5 w x", "b3xb4/c4").expect("answer");
    let kinds: Vec<&str> = a.frames.iter().map(|f| f.kind).collect();
    assert_eq!(kinds, ["capture", "after"]);
    let capture = &a.frames[0];
    assert_eq!(capture.removed, ["a4"]);
    assert!(
        capture.position.starts_with("5/BWB2/5/"),
        "{}",
        capture.position
    );
    assert_eq!(roles(capture), ["removed a4", "kept c4"]);
    assert!(capture.svg.contains(r#"class="removed""#));
    assert_eq!(
        a.frames[1].position,
        a.effects.as_ref().unwrap().result.replace(" b ", " w ")
    );
    let start = "2BB2BB2/BBBBBBBBBB/BB2BB2BB/10/10/WW2WW2WW/WWWWWWWWWW/2WW2WW2 w x";
    let two = ordo_page::api::explain(start, "b3-c3,c3-d4").expect("answer");
    let labels: Vec<&str> = two.frames.iter().map(|f| f.label.as_str()).collect();
    assert_eq!(labels, ["After step 1: b3-c3", "After step 2: c3-d4"]);
    assert!(
        two.frames[0].position.contains("/10/10/W1W1WW2WW/"),
        "{}",
        two.frames[0].position
    );
    assert!(
        two.frames[1].position.contains("/10/3W6/W3WW2WW/"),
        "{}",
        two.frames[1].position
    );
}

/// ORDOX-4.2: the step answer previews the board after each choice of a tie
/// before the user picks, each named by its kept group.
#[test]
fn a_tie_previews_each_choice() {
    let s = ordo_page::api::step("5/BBB2/1W3/5/5 w x", "b3xb4").expect("answer");
    let steps: Vec<&str> = s.tie_choices.iter().map(|c| c.step.as_str()).collect();
    assert_eq!(steps, ["b3xb4/a4", "b3xb4/c4"]);
    assert_eq!(s.tie_choices[0].after, "5/BW3/5/5/5 w x");
    assert_eq!(s.tie_choices[1].after, "5/1WB2/5/5/5 w x");
    assert!(s
        .tie_choices
        .iter()
        .all(|c| c.svg.starts_with("<svg") || c.svg.starts_with("<?xml")));
    let none = ordo_page::api::step("5/BBB2/1W3/5/5 w x", "b3-a3").expect("answer");
    assert!(none.tie_choices.is_empty());
}

/// The first permitting clause of the verdict on `mv` in `position` (which must be legal).
fn deciding(position: &str, mv: &str) -> String {
    let a = api::explain(position, mv).unwrap();
    assert!(a.legal, "{mv}: {:?}", a.violated);
    a.permitted_by[0].id.clone()
}

/// For a legal move the move's own clause comes first, before the connection rule (ORDO-4.3)
/// it also keeps: a step ORDO-6.1, an ordo ORDO-7.1, a capture ORDO-6.4, in either game; an
/// Ordo X turn of two steps ORDOX-3.1, a single step's turn its step.
#[test]
fn the_move_s_own_clause_permits_it_first() {
    for (position, mv, first) in [
        ("4/1B2/WW2/2W1 w classic", "a2-a3", "ORDO-6.1"),
        ("B3/4/WW2/4 w classic", "a2:b2-a3", "ORDO-7.1"),
        ("B3/1B2/WW2/4 w classic", "a2xb3", "ORDO-6.4"),
        ("5/1B3/WW3/5/5 w x", "a3-a4", "ORDO-6.1"),
        ("B4/5/5/WW3/5 w x", "a2:b2-a3", "ORDO-7.1"),
        ("B4/1B3/WW3/5/5 w x", "a3xb4", "ORDO-6.4"),
        (START_X, "b3-c3,c3-d4", "ORDOX-3.1"),
    ] {
        assert_eq!(deciding(position, mv), first, "{position} {mv}");
    }
    // An illegal move keeps the clause it breaks first.
    let a = api::explain("4/1B2/WW2/2W1 w classic", "a2:b2-a3").unwrap();
    assert_eq!(a.violated[0].id, "ORDO-7.2");
}

/// The boards after a legal move mark it as the board before does, its origin and landing
/// squares drawn, the caption saying what the board comes after (ORDO-6.1, a step); an Ordo X
/// turn (ORDOX-3.1) marks each step on the board after it.
#[test]
fn the_boards_after_a_move_mark_the_moved_pieces() {
    let a = api::explain("4/1B2/WW2/2W1 w classic", "a2-a3").unwrap();
    let result = &a.effects.as_ref().unwrap().result_svg;
    for svg in [result, &a.frames.last().unwrap().svg] {
        assert!(
            svg.contains(r#"<rect class="origin" data-square="a2""#),
            "{svg}"
        );
        assert!(svg.contains(r#"<rect class="landing" data-square="a3""#));
        assert!(svg.contains("; after a2-a3") && !svg.contains("; move "));
    }
    let turn = api::explain(START_X, "b3-c3,c3-d4").unwrap();
    let after: Vec<_> = turn.frames.iter().filter(|f| f.kind == "after").collect();
    assert_eq!(after.len(), 2);
    assert!(after[0]
        .svg
        .contains(r#"<rect class="landing" data-square="c3""#));
    assert!(!after[0]
        .svg
        .contains(r#"<rect class="landing" data-square="d4""#));
    assert!(after[1]
        .svg
        .contains(r#"<rect class="origin" data-square="c3""#));
    assert!(after[1]
        .svg
        .contains(r#"<rect class="landing" data-square="d4""#));
}

/// `#rrggbb` of `svg`'s first element with `marker` in it, from its `fill` attribute, and its
/// `fill-opacity` (1 when absent).
fn fill_of(svg: &str, marker: &str) -> ([f64; 3], f64) {
    let at = svg.find(marker).unwrap_or_else(|| panic!("no {marker}"));
    let element = &svg[at..at + svg[at..].find('>').unwrap()];
    let attr = |name: &str| {
        let start = element.find(&format!(" {name}=\""))? + name.len() + 3;
        Some(element[start..].split('"').next()?.to_string())
    };
    let hex = attr("fill").unwrap();
    let rgb = [1, 3, 5].map(|i| f64::from(u8::from_str_radix(&hex[i..i + 2], 16).unwrap()));
    (
        rgb,
        attr("fill-opacity").map_or(1.0, |o| o.parse().unwrap()),
    )
}

/// ORDO-1.3: the legend names each home row's band by the colour the board draws it, and its
/// swatches are that colour: the band's tint over a light and over a dark square.
#[test]
fn the_legend_shows_the_home_row_bands_as_drawn() {
    let svg = api::board_svg(START_X, None).unwrap();
    let light = fill_of(&svg, "class=\"square light\"").0;
    let dark = fill_of(&svg, "class=\"square dark\"").0;
    let css = ordo_page::assets::APP_CSS;
    let html = ordo_page::assets::INDEX_HTML;
    for (side, class, words) in [
        ("white", "home-white", "Grey-green band: White's home row"),
        ("black", "home-black", "rose band: Black's home row"),
    ] {
        let (tint, alpha) = fill_of(&svg, &format!("class=\"home-row {side}\""));
        let over = |square: [f64; 3]| {
            let c = [0, 1, 2].map(|i| (alpha * tint[i] + (1.0 - alpha) * square[i]).round() as u8);
            format!("#{:02x}{:02x}{:02x}", c[0], c[1], c[2])
        };
        let swatch = format!(
            ".swatch.{class} {{ background: linear-gradient(90deg, {} 50%, {} 50%); }}",
            over(light),
            over(dark)
        );
        assert!(css.contains(&swatch), "{swatch}");
        let legend: String = html.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(legend.contains(words), "{words}");
        assert!(legend.contains(&format!("class=\"swatch {class}\"")));
    }
}
