//! Tests of the position and move notation of spec/notation.md: the worked examples, the
//! canonical forms, a catalogue of malformed inputs with the error messages they must produce,
//! and property tests (proptest and quickcheck) for round trips and for parsers that never
//! panic.

use ordo_core::notation::{
    diagram, format_move, format_moves, format_position, parse_move, parse_moves, parse_position,
    parse_square, NotationError,
};
use ordo_core::rules::{setup, Color, Dims, Move, Position, Square, Step, Variant};

const START: &str = "2BB2BB2/BBBBBBBBBB/BB2BB2BB/10/10/WW2WW2WW/WWWWWWWWWW/2WW2WW2 w classic";

/// A square from its notation, for building expected values.
fn sq(s: &str) -> Square {
    parse_square(s).unwrap()
}

fn single(from: &str, to: &str) -> Step {
    Step::Single {
        from: sq(from),
        to: sq(to),
        capture: false,
        keep: None,
    }
}

fn capture(from: &str, to: &str, keep: Option<&str>) -> Step {
    Step::Single {
        from: sq(from),
        to: sq(to),
        capture: true,
        keep: keep.map(sq),
    }
}

fn ordo(first: &str, last: &str, to: &str) -> Step {
    Step::Ordo {
        first: sq(first),
        last: sq(last),
        to: sq(to),
    }
}

// ---------------------------------------------------------------------------------------------
// Position notation (spec/notation.md, "Position notation")
// ---------------------------------------------------------------------------------------------

/// spec/notation.md: the standard start position is a 10 x 8 board with 20 pieces a side, and
/// it formats back to the same string.
#[test]
fn standard_start_round_trips() {
    let p = parse_position(START).unwrap();
    assert_eq!(p.dims(), Dims::STANDARD);
    assert_eq!(p.count(Color::White), 20);
    assert_eq!(p.count(Color::Black), 20);
    assert_eq!(p.to_move, Color::White);
    assert_eq!(p.variant, Variant::Classic);
    assert_eq!(p, setup::standard(Variant::Classic));
    assert_eq!(format_position(&p), START);
    assert_eq!(p.to_string(), START);
    assert_eq!(START.parse::<Position>().unwrap(), p);
    // Row 1 is the last row written: c1 holds a white piece, a1 is empty, c8 a black piece.
    assert_eq!(p.get(sq("c1")), Some(Color::White));
    assert_eq!(p.get(sq("a1")), None);
    assert_eq!(p.get(sq("c8")), Some(Color::Black));
    assert_eq!(p.get(sq("j7")), Some(Color::Black));
}

/// spec/notation.md: the variant and the side to move are the last two fields.
#[test]
fn ordo_x_and_chess_board_starts() {
    let x = START.replace("classic", "x");
    assert_eq!(parse_position(&x).unwrap(), setup::standard(Variant::X));
    assert_eq!(format_position(&setup::standard(Variant::X)), x);
    let chess = "1BB2BB1/BBBBBBBB/B2BB2B/8/8/W2WW2W/WWWWWWWW/1WW2WW1 w classic";
    assert_eq!(
        format_position(&setup::chess_board(Variant::Classic)),
        chess
    );
    assert_eq!(
        parse_position(chess).unwrap(),
        setup::chess_board(Variant::Classic)
    );
}

/// spec/notation.md: fields may be separated by several spaces or tabs and surrounded by
/// whitespace; formatting gives the canonical single-space form.
#[test]
fn position_whitespace_is_tolerated_and_canonicalised() {
    let loose = format!("  \t{}\t \n", START.replace(' ', " \t  "));
    let p = parse_position(&loose).unwrap();
    assert_eq!(format_position(&p), START);
}

/// spec/notation.md: board sizes at the limits (2 x 2, 16 x 8, 8 x 16, 11 x 11 = 121 squares).
#[test]
fn board_sizes_at_the_limits() {
    let cases = [
        ("WB/2 b x", 2, 2),
        ("16/16/16/16/16/16/16/16 w classic", 16, 8),
        ("8/8/8/8/8/8/8/8/8/8/8/8/8/8/8/8 w x", 8, 16),
        ("11/11/11/11/11/11/11/11/11/11/11 w classic", 11, 11),
        ("W15/16/16/16/16/16/16/15B w classic", 16, 8),
        ("2W10W2/16 b classic", 16, 2),
    ];
    for (s, cols, rows) in cases {
        let p = parse_position(s).unwrap_or_else(|e| panic!("{s}: {e}"));
        assert_eq!((p.dims().cols, p.dims().rows), (cols, rows), "{s}");
        assert_eq!(format_position(&p), s);
    }
    let p = parse_position("WB/2 b x").unwrap();
    assert_eq!(p.get(sq("a2")), Some(Color::White));
    assert_eq!(p.get(sq("b2")), Some(Color::Black));
    assert_eq!(p.to_move, Color::Black);
    assert_eq!(p.variant, Variant::X);
}

/// spec/notation.md: the parser does not apply the rules' validity check, so a finished game
/// can still be written down and read back.
#[test]
fn parser_does_not_validate_rules() {
    let p = parse_position("2/2 w classic").unwrap();
    assert_eq!(p.count(Color::White) + p.count(Color::Black), 0);
    assert!(p.validate().is_err());
    let p = parse_position("W1/2 w classic").unwrap();
    assert!(p.validate().is_err());
}

/// spec/notation.md: runs of empty squares are merged into one number when formatting.
#[test]
fn empty_runs_are_merged() {
    let mut p = Position::empty(Dims::new(16, 2).unwrap(), Color::White, Variant::Classic);
    assert_eq!(format_position(&p), "16/16 w classic");
    p.set(sq("p1"), Some(Color::Black));
    p.set(sq("a2"), Some(Color::White));
    assert_eq!(format_position(&p), "W15/15B w classic");
}

// ---------------------------------------------------------------------------------------------
// Move notation (spec/notation.md, "Move notation")
// ---------------------------------------------------------------------------------------------

/// spec/notation.md: every example of the move grammar reads as the expected steps and writes
/// back to the same text.
#[test]
fn move_examples() {
    let cases = [
        ("e2-e4", Move::single(single("e2", "e4"))),
        ("e4xf5", Move::single(capture("e4", "f5", None))),
        ("a2:d2-a3", Move::single(ordo("a2", "d2", "a3"))),
        (
            "e3-f3,f3-f4",
            Move::double(single("e3", "f3"), single("f3", "f4")),
        ),
        ("e5xf6/g7", Move::single(capture("e5", "f6", Some("g7")))),
        (
            "e5xf5/g7,f5-f6",
            Move::double(capture("e5", "f5", Some("g7")), single("f5", "f6")),
        ),
        // Ordo ends are kept in the order written, never reordered by the parser.
        ("d2:a2-d3", Move::single(ordo("d2", "a2", "d3"))),
        ("c3:c1-d4", Move::single(ordo("c3", "c1", "d4"))),
        ("a1-p16", Move::single(single("a1", "p16"))),
        (
            "p10:p16-o10,o10xo9",
            Move::double(ordo("p10", "p16", "o10"), capture("o10", "o9", None)),
        ),
    ];
    for (text, want) in cases {
        let got = parse_move(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(got, want, "{text}");
        assert_eq!(format_move(&got), text);
        assert_eq!(got.to_string(), text);
        assert_eq!(text.parse::<Move>().unwrap(), want);
        // Surrounding whitespace is ignored.
        assert_eq!(parse_move(&format!(" \t{text}\n ")).unwrap(), want);
    }
    assert_eq!(ordo("a2", "d2", "a3").to_string(), "a2:d2-a3");
    assert_eq!(capture("e5", "f6", Some("g7")).to_string(), "e5xf6/g7");
}

/// spec/notation.md: squares are a column letter a..p and a row number 1..16.
#[test]
fn squares() {
    assert_eq!(parse_square("a1").unwrap(), Square::new(0, 0));
    assert_eq!(parse_square("j8").unwrap(), Square::new(9, 7));
    assert_eq!(parse_square(" p16 ").unwrap(), Square::new(15, 15));
    assert_eq!(parse_square("b10").unwrap(), Square::new(1, 9));
    for s in [
        "", "a", "a0", "a17", "q1", "A1", "a01", "a1b", "1a", "a 1", "ä1",
    ] {
        assert!(parse_square(s).is_err(), "{s}");
    }
}

/// spec/notation.md: a move list is moves separated by whitespace; canonical lists use single
/// spaces.
#[test]
fn move_lists() {
    let moves = parse_moves("  e2-e4\td7-d5\n\ne4xd5  a2:d2-a3,a3-a4 ").unwrap();
    assert_eq!(moves.len(), 4);
    assert_eq!(format_moves(&moves), "e2-e4 d7-d5 e4xd5 a2:d2-a3,a3-a4");
    assert_eq!(parse_moves("").unwrap(), Vec::<Move>::new());
    assert_eq!(parse_moves(" \n ").unwrap(), Vec::<Move>::new());
    let e = parse_moves("e2-e4 d7-d9x").unwrap_err();
    assert_eq!(e.column, 12, "{e}");
    let e = parse_moves("e2-e4 e4-e5/e6").unwrap_err();
    assert_eq!(e.column, 12, "{e}");
    assert!(e.to_string().contains("a space or end of input"), "{e}");
}

// ---------------------------------------------------------------------------------------------
// Errors (spec/notation.md, "Errors")
// ---------------------------------------------------------------------------------------------

/// spec/notation.md: the exact one-line message form.
#[test]
fn error_message_form() {
    let e = parse_move("e2-q4").unwrap_err();
    assert_eq!(
        e.to_string(),
        "move 'e2-q4' at character 4: expected a column letter a..p, found 'q'"
    );
    assert_eq!(
        e,
        NotationError {
            kind: "move",
            input: "e2-q4".into(),
            column: 4,
            expected: "a column letter a..p".into(),
            found: "'q'".into(),
        }
    );
    let e = parse_position("WB/2B w classic").unwrap_err();
    assert_eq!(
        e.to_string(),
        "position 'WB/2B w classic' at character 5: expected row 1 to have 2 squares like the rows above it, found 3"
    );
    let e = parse_square("a1b").unwrap_err();
    assert_eq!(
        e.to_string(),
        "square 'a1b' at character 3: expected end of input after the square, found 'b'"
    );
}

/// spec/notation.md: columns count characters, not bytes.
#[test]
fn error_columns_count_characters() {
    let e = parse_move("é2-e4").unwrap_err();
    assert_eq!((e.column, e.found.as_str()), (1, "'é'"));
    let e = parse_move("e2-e4é").unwrap_err();
    assert_eq!(e.column, 6);
    let e = parse_move("ééé e2-e4").unwrap_err();
    assert_eq!(e.column, 1);
    let e = parse_position("日本/WB w classic").unwrap_err();
    assert_eq!((e.column, e.found.as_str()), (1, "'日'"));
    let e = parse_position("WB/2 w clässic").unwrap_err();
    assert_eq!((e.column, e.found.as_str()), (8, "'clässic'"));
}

type Parser = fn(&str) -> Result<(), NotationError>;

fn mv(s: &str) -> Result<(), NotationError> {
    parse_move(s).map(drop)
}
fn pos(s: &str) -> Result<(), NotationError> {
    parse_position(s).map(drop)
}
fn square(s: &str) -> Result<(), NotationError> {
    parse_square(s).map(drop)
}

/// spec/notation.md: malformed inputs are rejected with a message naming the character column
/// and what the notation expected there.
#[test]
fn malformed_inputs() {
    let board_17_rows = format!("{}2 w classic", "2/".repeat(16));
    let cases: Vec<(Parser, String, usize, &[&str])> = vec![
        // Moves.
        (
            mv,
            "".into(),
            1,
            &["a move such as 'e2-e4'", "end of input"],
        ),
        (mv, "   ".into(), 1, &["a move such as", "end of input"]),
        (mv, "e2".into(), 3, &["'-'", "'x'", "':'", "end of input"]),
        (mv, "e2-".into(), 4, &["column letter a..p", "end of input"]),
        (mv, "e2-e".into(), 5, &["row number 1..16", "end of input"]),
        (mv, "q2-e4".into(), 1, &["column letter a..p", "found 'q'"]),
        (mv, "E2-E4".into(), 1, &["column letter a..p", "found 'E'"]),
        (mv, "e0-e4".into(), 2, &["row number 1..16", "found '0'"]),
        (mv, "e17-e4".into(), 2, &["row number 1..16", "found '17'"]),
        (mv, "e02-e4".into(), 2, &["leading zero", "found '0'"]),
        (
            mv,
            "e99999999999999999999999-e4".into(),
            2,
            &["row number 1..16"],
        ),
        (mv, "a2:b2xa3".into(), 6, &["never capture", "found 'x'"]),
        (mv, "a2:d2".into(), 6, &["'-'", "end of input"]),
        (
            mv,
            "a2:d2-a3/b4".into(),
            9,
            &["never captures", "found '/'"],
        ),
        (
            mv,
            "e2-e4/f5".into(),
            6,
            &["only a capture written with 'x'", "found '/'"],
        ),
        (
            mv,
            "e5xf6/g7/h8".into(),
            9,
            &["at most one kept group", "found '/'"],
        ),
        (
            mv,
            "e2xe4x".into(),
            6,
            &["'/'", "','", "end of input", "found 'x'"],
        ),
        (mv, "e2-e4,".into(), 7, &["column letter", "end of input"]),
        (mv, "e2-e4,,".into(), 7, &["column letter", "found ','"]),
        (mv, ",e2-e4".into(), 1, &["column letter", "found ','"]),
        (
            mv,
            "e2-e4,e4-e5,e5-e6".into(),
            12,
            &["at most two steps", "found ','"],
        ),
        (mv, "é2-e4".into(), 1, &["column letter", "found 'é'"]),
        (mv, "e2–e4".into(), 3, &["'-'", "found '–'"]),
        (mv, "e2 -e4".into(), 3, &["without spaces", "found ' '"]),
        (mv, "e2-e4 e4-e5".into(), 6, &["end of input", "found ' '"]),
        (
            mv,
            "e2-e4\ne4-e5".into(),
            6,
            &["end of input", "found '\\n'"],
        ),
        (mv, "e2=e4".into(), 3, &["'-'", "found '='"]),
        // Squares.
        (square, "".into(), 1, &["column letter", "end of input"]),
        (square, "e".into(), 2, &["row number", "end of input"]),
        (
            square,
            "e4-".into(),
            3,
            &["end of input after the square", "found '-'"],
        ),
        (square, "p17".into(), 2, &["row number 1..16", "found '17'"]),
        // Positions.
        (pos, "".into(), 1, &["a board", "end of input"]),
        (pos, " \t ".into(), 1, &["a board", "end of input"]),
        (
            pos,
            START.replace(" w classic", ""),
            62,
            &["side to move 'w' or 'b' after the board", "end of input"],
        ),
        (
            pos,
            START.replace(" classic", ""),
            64,
            &["variant 'classic' or 'x'", "end of input"],
        ),
        (
            pos,
            START.replace(" w ", " W "),
            63,
            &["side to move 'w' or 'b'", "found 'W'"],
        ),
        (
            pos,
            START.replace(" w ", " white "),
            63,
            &["side to move", "found 'white'"],
        ),
        (
            pos,
            START.replace("classic", "X"),
            65,
            &["variant 'classic' or 'x'", "found 'X'"],
        ),
        (
            pos,
            format!("{START} extra"),
            73,
            &["exactly three fields", "found 'extra'"],
        ),
        (
            pos,
            format!("{START} w"),
            73,
            &["exactly three fields", "found 'w'"],
        ),
        (
            pos,
            START.replace("BB2BB2BB/10/10", "BB2BB2BB/9/10"),
            30,
            &["row 5 to have 10 squares like the rows above it", "found 9"],
        ),
        (
            pos,
            START.replace("BB2BB2BB/", "BB2BB2BBW/"),
            28,
            &[
                "row 6 to have 10 squares like the rows above it",
                "found 11",
            ],
        ),
        (
            pos,
            "16W/17 w classic".into(),
            3,
            &["at most 16 columns", "found 17"],
        ),
        (
            pos,
            "17/17 w classic".into(),
            1,
            &["empty squares from 1 to 16", "found '17'"],
        ),
        (
            pos,
            "10 w classic".into(),
            3,
            &["at least 2 rows", "found 1 row"],
        ),
        (
            pos,
            "W/B w classic".into(),
            2,
            &["at least 2 columns", "found 1"],
        ),
        (
            pos,
            "12/12/12/12/12/12/12/12/12/12/12 w classic".into(),
            31,
            &["at most 128 squares", "12 columns x 11 rows = 132 squares"],
        ),
        (
            pos,
            "16/16/16/16/16/16/16/16/16 w classic".into(),
            25,
            &["at most 128 squares", "16 columns x 9 rows = 144 squares"],
        ),
        (
            pos,
            board_17_rows,
            33,
            &["at most 16 rows", "found 17 rows"],
        ),
        (pos, "W0B/2 w classic".into(), 2, &["no zero", "found '0'"]),
        (
            pos,
            "010/10 w classic".into(),
            1,
            &["no leading zero", "found '0'"],
        ),
        (
            pos,
            "99999999999999999999999/2 w classic".into(),
            1,
            &[
                "empty squares from 1 to 16",
                "found '99999999999999999999999'",
            ],
        ),
        (
            pos,
            "WB//WB w classic".into(),
            4,
            &["row 2: 'W', 'B' or a number", "found '/'"],
        ),
        (
            pos,
            "/WB/WB w classic".into(),
            1,
            &["row 3: 'W', 'B'", "found '/'"],
        ),
        (
            pos,
            "WB/WB/ w classic".into(),
            7,
            &["row 1: 'W', 'B'", "found ' '"],
        ),
        (
            pos,
            "wb/2 w classic".into(),
            1,
            &["'W', 'B', a number of empty squares or '/'", "found 'w'"],
        ),
        (pos, "WB/2é w classic".into(), 5, &["found 'é'"]),
        (pos, "WB/WB\nw classic".into(), 6, &["found '\\n'"]),
        (
            pos,
            "WB/WB w\u{a0}classic".into(),
            7,
            &["side to move", r"found 'w\u{a0}classic'"],
        ),
    ];
    assert!(cases.len() >= 25);
    for (parse, input, column, needles) in cases {
        let e = match parse(&input) {
            Ok(()) => panic!("{input:?} was accepted"),
            Err(e) => e,
        };
        let msg = e.to_string();
        assert_eq!(e.column, column, "{input:?}: {msg}");
        assert!(
            msg.contains(&format!("at character {column}: expected ")),
            "{input:?}: {msg}"
        );
        for needle in needles {
            assert!(msg.contains(needle), "{input:?}: {msg} lacks {needle:?}");
        }
        assert!(
            !msg.contains('\n'),
            "{input:?}: message is not one line: {msg}"
        );
        assert_eq!(e.input, input);
    }
}

// ---------------------------------------------------------------------------------------------
// Diagram (spec/notation.md, "Diagram")
// ---------------------------------------------------------------------------------------------

/// spec/notation.md: the diagram of the standard start.
#[test]
fn diagram_of_the_start() {
    let want = [
        " 8  . . B B . . B B . .  <- Black's home row",
        " 7  B B B B B B B B B B",
        " 6  B B . . B B . . B B",
        " 5  . . . . . . . . . .",
        " 4  . . . . . . . . . .",
        " 3  W W . . W W . . W W",
        " 2  W W W W W W W W W W",
        " 1  . . W W . . W W . .  <- White's home row",
        "    a b c d e f g h i j",
        "White to move, classic Ordo",
        "",
    ]
    .join("\n");
    assert_eq!(diagram(&setup::standard(Variant::Classic)), want);
}

/// spec/notation.md: the diagram of a tall Ordo X board with Black to move.
#[test]
fn diagram_of_a_small_board() {
    let p = parse_position("2/2/2/2/2/2/2/2/2/2/2/2/2/2/B1/1W b x").unwrap();
    let d = diagram(&p);
    let lines: Vec<&str> = d.lines().collect();
    assert_eq!(lines.len(), 18);
    assert_eq!(lines[0], "16  . .  <- Black's home row");
    assert_eq!(lines[1], "15  . .");
    assert_eq!(lines[14], " 2  B .");
    assert_eq!(lines[15], " 1  . W  <- White's home row");
    assert_eq!(lines[16], "    a b");
    assert_eq!(lines[17], "Black to move, Ordo X");
}

// ---------------------------------------------------------------------------------------------
// Property tests (spec/notation.md, "Canonical forms" and "Errors")
// ---------------------------------------------------------------------------------------------

mod props {
    use super::*;
    use proptest::prelude::*;

    fn arb_position() -> impl Strategy<Value = Position> {
        (2usize..=16)
            .prop_flat_map(|cols| (Just(cols), 2usize..=(128 / cols).min(16)))
            .prop_flat_map(|(cols, rows)| {
                (
                    Just(Dims::new(cols, rows).unwrap()),
                    proptest::collection::vec(0u8..3, cols * rows),
                    any::<bool>(),
                    any::<bool>(),
                )
            })
            .prop_map(|(dims, cells, black, x)| {
                let to_move = if black { Color::Black } else { Color::White };
                let variant = if x { Variant::X } else { Variant::Classic };
                let mut p = Position::empty(dims, to_move, variant);
                for (i, c) in cells.into_iter().enumerate() {
                    let piece = match c {
                        0 => None,
                        1 => Some(Color::White),
                        _ => Some(Color::Black),
                    };
                    p.set(dims.square(i), piece);
                }
                p
            })
    }

    fn arb_square() -> impl Strategy<Value = Square> {
        (0u8..16, 0u8..16).prop_map(|(c, r)| Square::new(c, r))
    }

    fn arb_step() -> impl Strategy<Value = Step> {
        prop_oneof![
            (arb_square(), arb_square()).prop_map(|(from, to)| Step::Single {
                from,
                to,
                capture: false,
                keep: None,
            }),
            (
                arb_square(),
                arb_square(),
                proptest::option::of(arb_square())
            )
                .prop_map(|(from, to, keep)| Step::Single {
                    from,
                    to,
                    capture: true,
                    keep,
                }),
            (arb_square(), arb_square(), arb_square()).prop_map(|(first, last, to)| Step::Ordo {
                first,
                last,
                to
            }),
        ]
    }

    fn arb_move() -> impl Strategy<Value = Move> {
        (arb_step(), proptest::option::of(arb_step()))
            .prop_map(|(first, second)| Move { first, second })
    }

    /// Strings that are valid notation with one character changed, inserted or removed.
    fn mutated(valid: impl Strategy<Value = String>) -> impl Strategy<Value = String> {
        (
            valid,
            any::<prop::sample::Index>(),
            0u8..3,
            prop::sample::select(vec![
                'W', 'B', '0', '1', '6', '9', '/', ':', ',', 'x', '-', ' ', 'a', 'p', 'q', 'é',
                '\t', '\n',
            ]),
        )
            .prop_map(|(s, at, op, c)| {
                let mut chars: Vec<char> = s.chars().collect();
                let i = at.index(chars.len() + 1);
                match op {
                    0 if i < chars.len() => chars[i] = c,
                    1 if i < chars.len() => {
                        chars.remove(i);
                    }
                    _ => chars.insert(i, c),
                }
                chars.into_iter().collect()
            })
    }

    /// Every parser must return, never panic; errors point inside the input or just past it.
    fn never_panics(s: &str) {
        let n = s.chars().count();
        let check = |r: Result<(), NotationError>| {
            if let Err(e) = r {
                assert!(e.column >= 1 && e.column <= n + 1, "{e}");
                assert!(!e.to_string().contains('\n'));
            }
        };
        check(parse_move(s).map(drop));
        check(parse_position(s).map(drop));
        check(parse_square(s).map(drop));
        check(parse_moves(s).map(drop));
        // Whatever parses, formats to a canonical text that parses to the same value.
        if let Ok(m) = parse_move(s) {
            assert_eq!(parse_move(&format_move(&m)).unwrap(), m);
        }
        if let Ok(p) = parse_position(s) {
            assert_eq!(parse_position(&format_position(&p)).unwrap(), p);
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(512))]

        /// spec/notation.md: parse(format(p)) == p for every position.
        #[test]
        fn position_round_trip(p in arb_position()) {
            let s = format_position(&p);
            prop_assert_eq!(parse_position(&s).unwrap(), p.clone());
            prop_assert_eq!(format_position(&parse_position(&s).unwrap()), s.clone());
            prop_assert_eq!(p.to_string(), s);
        }

        /// spec/notation.md: parse(format(m)) == m for every move.
        #[test]
        fn move_round_trip(m in arb_move()) {
            let s = format_move(&m);
            prop_assert_eq!(parse_move(&s).unwrap(), m);
            prop_assert_eq!(s.parse::<Move>().unwrap(), m);
        }

        /// spec/notation.md: a move list round-trips through its canonical spelling.
        #[test]
        fn move_list_round_trip(ms in proptest::collection::vec(arb_move(), 0..8)) {
            prop_assert_eq!(parse_moves(&format_moves(&ms)).unwrap(), ms);
        }

        /// spec/notation.md, "Errors": arbitrary printable text never makes a parser panic.
        #[test]
        fn arbitrary_text_never_panics(s in "\\PC*") {
            never_panics(&s);
        }

        /// spec/notation.md, "Errors": text over the notation's own alphabet never panics.
        #[test]
        fn notation_alphabet_never_panics(s in "[a-pWB0-9/:,x\\- \t]{0,48}") {
            never_panics(&s);
        }

        /// spec/notation.md, "Errors": near-misses of valid moves never panic.
        #[test]
        fn mutated_moves_never_panic(s in mutated(arb_move().prop_map(|m| format_move(&m)))) {
            never_panics(&s);
        }

        /// spec/notation.md, "Errors": near-misses of valid positions never panic.
        #[test]
        fn mutated_positions_never_panic(
            s in mutated(arb_position().prop_map(|p| format_position(&p)))
        ) {
            never_panics(&s);
        }

        /// spec/notation.md, "Errors": arbitrary bytes read as lossy UTF-8 never panic.
        #[test]
        fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..64)) {
            never_panics(&String::from_utf8_lossy(&bytes));
        }
    }
}

mod quick {
    use super::*;
    use quickcheck::{Arbitrary, Gen, QuickCheck};

    fn pick(g: &mut Gen, n: usize) -> usize {
        usize::arbitrary(g) % n
    }

    #[derive(Clone, Debug)]
    struct ArbPosition(Position);

    impl Arbitrary for ArbPosition {
        fn arbitrary(g: &mut Gen) -> Self {
            let cols = 2 + pick(g, 15);
            let max_rows = (128 / cols).min(16);
            let rows = 2 + pick(g, max_rows - 1);
            let dims = Dims::new(cols, rows).unwrap();
            let to_move = if bool::arbitrary(g) {
                Color::White
            } else {
                Color::Black
            };
            let variant = if bool::arbitrary(g) {
                Variant::Classic
            } else {
                Variant::X
            };
            let mut p = Position::empty(dims, to_move, variant);
            for s in dims.squares() {
                let piece = *g
                    .choose(&[None, Some(Color::White), Some(Color::Black)])
                    .unwrap();
                p.set(s, piece);
            }
            ArbPosition(p)
        }
    }

    #[derive(Clone, Debug)]
    struct ArbMove(Move);

    fn arb_square(g: &mut Gen) -> Square {
        Square::new(pick(g, 16) as u8, pick(g, 16) as u8)
    }

    fn arb_step(g: &mut Gen) -> Step {
        match pick(g, 3) {
            0 => Step::Single {
                from: arb_square(g),
                to: arb_square(g),
                capture: false,
                keep: None,
            },
            1 => Step::Single {
                from: arb_square(g),
                to: arb_square(g),
                capture: true,
                keep: if bool::arbitrary(g) {
                    Some(arb_square(g))
                } else {
                    None
                },
            },
            _ => Step::Ordo {
                first: arb_square(g),
                last: arb_square(g),
                to: arb_square(g),
            },
        }
    }

    impl Arbitrary for ArbMove {
        fn arbitrary(g: &mut Gen) -> Self {
            let first = arb_step(g);
            let second = if bool::arbitrary(g) {
                Some(arb_step(g))
            } else {
                None
            };
            ArbMove(Move { first, second })
        }
    }

    /// spec/notation.md: parse(format(p)) == p, checked with quickcheck.
    #[test]
    fn quickcheck_position_round_trip() {
        fn prop(p: ArbPosition) -> bool {
            parse_position(&format_position(&p.0)).as_ref() == Ok(&p.0)
        }
        QuickCheck::new()
            .tests(500)
            .quickcheck(prop as fn(ArbPosition) -> bool);
    }

    /// spec/notation.md: parse(format(m)) == m, checked with quickcheck.
    #[test]
    fn quickcheck_move_round_trip() {
        fn prop(m: ArbMove) -> bool {
            parse_move(&format_move(&m.0)) == Ok(m.0)
        }
        QuickCheck::new()
            .tests(1000)
            .quickcheck(prop as fn(ArbMove) -> bool);
    }

    /// spec/notation.md, "Errors": arbitrary strings never make a parser panic (quickcheck).
    #[test]
    fn quickcheck_strings_never_panic() {
        fn prop(s: String) -> bool {
            let _ = parse_move(&s);
            let _ = parse_position(&s);
            let _ = parse_square(&s);
            let _ = parse_moves(&s);
            true
        }
        QuickCheck::new()
            .tests(2000)
            .quickcheck(prop as fn(String) -> bool);
    }
}
