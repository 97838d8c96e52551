"""Tests of ordo_protocol.py: notation round trips over every conformance vector (and the case
suite spec/cases/*.toml when it exists), other spellings, malformed input, and the protocol loop.

Run: python3 -m unittest discover -s spec/conformance/adapters/python -v
"""

import contextlib
import glob
import io
import json
import os
import re
import subprocess
import sys
import tempfile
import tomllib
import unittest

import ordo_protocol as o

SPEC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..")


def vectors():
    for path in sorted(glob.glob(os.path.join(SPEC, "conformance", "*.jsonl"))):
        with open(path, encoding="utf-8") as f:
            for line in f:
                yield json.loads(line)


def cases():
    """Every [[case]] of spec/cases/*.toml; none while the suite does not exist."""
    for path in sorted(glob.glob(os.path.join(SPEC, "cases", "*.toml"))):
        with open(path, "rb") as f:
            yield from tomllib.load(f).get("case", [])


TIE = "5/BB1BB/2B2/1WW2/5 w x"  # vector x-tie-choice: c2xc3 leaves Black {a4 b4} and {d4 e4}


class Vectors(unittest.TestCase):
    def test_make_position_builds_from_pieces_and_side(self):
        """make_position gives the position of its pieces and side, and names what is wrong."""
        p = o.make_position(["a1", "b1"], ["d4"], "w", "classic", "4x4")
        self.assertEqual(p, o.parse_position("3B/4/4/WW2 w classic"))
        self.assertEqual(o.make_position([], ["a8"], "b", "x"),
                         o.parse_position("B9/10/10/10/10/10/10/10 b x"))
        for args, word in [((["e1"], [], "w", "classic", "4x4"), "off the 4x4 board"),
                           ((["a1"], ["a1"]), "named twice"),
                           ((["a1"], [], "white"), "side"),
                           ((["a1"], [], "w", "chess"), "variant"),
                           ((["a1"], [], "w", "classic", "4by4"), "board"),
                           ((["a0"], []), "row")]:
            with self.assertRaises(ValueError) as e:
                o.make_position(*args)
            self.assertIn(word, str(e.exception), args)

    def test_status_of_winner_gives_every_vector_status(self):
        """ORDO-10.5: from the winner alone, status_of_winner gives the status of every vector
        (the case suite's copy clauses.jsonl included): the reason by precedence."""
        wins = 0
        for v in vectors():
            st = v["status"]
            winner = st.get("winner") if st["state"] == "won" else None
            want = (winner, st["reason"]) if winner else "ongoing"
            got = o.status_of_winner(o.parse_position(v["position"]), winner)
            self.assertEqual(got, want, v["id"])
            wins += winner is not None
        self.assertGreater(wins, 30)
        with self.assertRaises(ValueError):
            o.status_of_winner(o.start_position(), "red")

    def test_vectors_exist(self):
        self.assertGreaterEqual(len(list(vectors())), 178)

    def test_every_vector_position_round_trips(self):
        for v in vectors():
            p = o.parse_position(v["position"])
            self.assertEqual(str(p), v["position"], v["id"])
            self.assertEqual(o.parse_position(str(p)), p, v["id"])
            self.assertEqual(p.game, v["variant"], v["id"])

    def test_every_vector_move_round_trips_and_is_canonical(self):
        for v in vectors():
            p = o.parse_position(v["position"])
            for m in v["moves"]:
                mv = o.parse_move(m)
                self.assertEqual(o.format_move(mv), m, v["id"])
                self.assertEqual(str(o.canonical_move(p, mv)), m, v["id"])
            listed = o.listed_moves(p, reversed(v["moves"]))
            self.assertEqual(sorted(listed), v["moves"], v["id"])

    def test_ordo_ends_in_either_order_give_the_canonical_spelling(self):
        """spec/notation.md, Canonical spelling 1 (ORDO-7.1): swapped ends resolve back."""
        swapped = 0
        for v in vectors():
            p = o.parse_position(v["position"])
            for m in v["moves"]:
                steps = o.parse_move(m).steps
                for i, s in enumerate(steps):
                    if not s.is_ordo:
                        continue
                    (fc, fr), (lc, lr) = o.square_coords(s.from_), o.square_coords(s.last)
                    (tc, tr) = o.square_coords(s.to)
                    other = o.Step(s.last, o.square_name(lc + tc - fc, lr + tr - fr),
                                   last=s.from_)
                    alt = o.Move(steps[:i] + (other,) + steps[i + 1:])
                    self.assertNotEqual(str(alt), m)
                    self.assertEqual(str(o.canonical_move(p, alt)), m, v["id"])
                    swapped += 1
        self.assertGreater(swapped, 1000)


class Cases(unittest.TestCase):
    def test_every_case_position_and_move_round_trips(self):
        """Uses spec/cases/*.toml when present (it is optional for this module)."""
        for c in cases():
            positions = [c["position"]] + [e["after"] for e in c.get("effect", [])]
            for text in positions:
                self.assertEqual(str(o.parse_position(text)), text, c["id"])
            p = o.parse_position(c["position"])
            for m in c.get("moves", []) + c.get("legal", []):
                self.assertEqual(str(o.canonical_move(p, o.parse_move(m))), m, c["id"])
            for m in [e["move"] for e in c.get("effect", []) + c.get("illegal", [])]:
                self.assertEqual(str(o.parse_move(m)), m, c["id"])


class OtherSpellings(unittest.TestCase):
    def test_position_whitespace_is_not_part_of_the_position(self):
        p = o.parse_position("\t 3B/4/B3/WW2 \t w   classic  \n")
        self.assertEqual(str(p), "3B/4/B3/WW2 w classic")
        self.assertEqual((p.cols, p.rows, p.side, p.game), (4, 4, "w", "classic"))
        self.assertEqual(p.pieces, {"a1": "W", "b1": "W", "a2": "B", "d4": "B"})

    def test_notation_examples(self):
        """The position and move examples of spec/notation.md read and write back."""
        for text in ["2BB2BB2/BBBBBBBBBB/BB2BB2BB/10/10/WW2WW2WW/WWWWWWWWWW/2WW2WW2 w classic",
                     "1BB2BB1/BBBBBBBB/B2BB2B/8/8/W2WW2W/WWWWWWWW/1WW2WW1 w classic",
                     "WB/2 b x", "16/16/16/16/16/16/16/16 w classic"]:
            self.assertEqual(str(o.parse_position(text)), text)
        self.assertEqual(str(o.start_position("x")), "2BB2BB2/BBBBBBBBBB/BB2BB2BB/10/10/"
                         "WW2WW2WW/WWWWWWWWWW/2WW2WW2 w x")
        for text in ["e2-e4", "e4xf5", "a2:d2-a3", "e3-f3,f3-f4", "e5xf6/g7", "e5xf5/g7,f5-f6",
                     "a1", "p16"][:6]:
            self.assertEqual(str(o.parse_move(f"  {text} ")), text)
        self.assertEqual(o.parse_move("e5xf5/g7,f5-f6").steps[0],
                         o.Step("e5", "f5", capture=True, keep="g7"))
        self.assertEqual(o.parse_move("a2:d2-a3").steps[0], o.Step("a2", "a3", last="d2"))
        self.assertEqual(o.square_coords("p16"), (15, 15))

    def test_notation_ordo_examples_resolve(self):
        """spec/notation.md: d2:a2-d3 is a2:d2-a3, c3:c1-d3 is c1:c3-d1 (ORDO-7.1)."""
        board = o.parse_position("8/8/8/8/8/8/8/8 w classic")
        self.assertEqual(str(o.parse_move("d2:a2-d3")), "d2:a2-d3")
        self.assertEqual(str(o.canonical_move(board, o.parse_move("d2:a2-d3"))), "a2:d2-a3")
        self.assertEqual(str(o.canonical_move(board, o.parse_move("c3:c1-d3"))), "c1:c3-d1")

    def test_any_square_of_the_kept_group_names_it(self):
        """ORDOX-4.2: the kept group may be named by any of its squares."""
        p = o.parse_position(TIE)
        for keep, canonical in [("a4", "a4"), ("b4", "a4"), ("d4", "d4"), ("e4", "d4")]:
            m = o.parse_move(f"b2:c2-c2,c2xc3/{keep}")
            self.assertEqual(str(o.canonical_move(p, m)), f"b2:c2-c2,c2xc3/{canonical}")
        m = o.parse_move("c2xc3/c2")  # names no opponent piece: left as written
        self.assertEqual(str(o.canonical_move(p, m)), "c2xc3/c2")

    def test_lenient_spellings_of_other_programs(self):
        """spec/game-record.md, Moves: upper case, X or ×, en/em dash, trailing marks."""
        for text, canonical in [("E2-E4", "e2-e4"), ("e4×f5", "e4xf5"), ("E4XF5+", "e4xf5"),
                                ("e2–e4", "e2-e4"), ("e2—e4!?", "e2-e4"),
                                ("A2:D2-A3#", "a2:d2-a3"), (" B2-A2,A2XA1 ", "b2-a2,a2xa1"),
                                ("c2×c3/A4", "c2xc3/a4")]:
            self.assertEqual(str(o.parse_move_lenient(text)), canonical, text)
        for text in ["E2-E4", "e4×f5", "e2–e4", "e2-e4+"]:
            self.assertRaises(o.NotationError, o.parse_move, text)


class Malformed(unittest.TestCase):
    def test_the_error_examples_of_the_notation(self):
        """spec/notation.md, Errors: the same one-line messages."""
        examples = [
            (o.parse_move, "move 'e2-q4' at character 4: expected a column letter a..p, found 'q'"),
            (o.parse_move, "move 'e17-e4' at character 2: expected a row number 1..16, found '17'"),
            (o.parse_move, "move 'e02-e4' at character 2: expected a row number 1..16, found '0' (row numbers have no leading zero)"),
            (o.parse_move, "move 'a2:b2xa3' at character 6: expected '-', found 'x' (ordo moves are written with '-' and never capture)"),
            (o.parse_move, "move 'e2-e4/f5' at character 6: expected ',' (a second step) or end of input, found '/' (a kept group follows only a capture written with 'x')"),
            (o.parse_move, "move 'e2-e4,e4-e5,e5-e6' at character 12: expected end of input, found ',' (a move has at most two steps)"),
            (o.parse_move, "move 'e2 -e4' at character 3: expected '-' (a move), 'x' (a capture) or ':' (the other end of an ordo run), found ' ' (a move is written without spaces)"),
            (o.parse_square, "square 'a1b' at character 3: expected end of input after the square, found 'b'"),
            (o.parse_position, "position 'WB/2B w classic' at character 5: expected row 1 to have 2 squares like the rows above it, found 3"),
            (o.parse_position, "position '10 w classic' at character 3: expected at least 2 rows separated by '/', found 1 row"),
            (o.parse_position, "position '12/12/12/12/12/12/12/12/12/12/12 w classic' at character 31: expected at most 128 squares (columns x rows), found 12 columns x 11 rows = 132 squares"),
            (o.parse_position, "position 'WB/WB b Classic' at character 9: expected the variant 'classic' or 'x', found 'Classic'"),
        ]
        for parse, message in examples:
            text = message.split("'")[1]
            with self.assertRaises(o.NotationError) as err:
                parse(text)
            self.assertEqual(str(err.exception), message)

    def test_malformed_moves_are_refused(self):
        for text in ["", "  ", "e2", "e2-", "e2e4", "A1-a2", "a0-a1", "a1-a17", "q1-a1",
                     "a1-a1234567890123456789", "a1:b1", "a1:b1xa2", "a1:b1-a2/b3", "a1xb2/c3/d4",
                     "a1-b2,", "a1-b2,b2-b3,b3-b4", "e2-e4 e4-e5", "e2\n-e4", "é2-e4", "e2-e4\0",
                     "a1-b2;", "a1-b2/c3"]:
            with self.assertRaises(o.NotationError, msg=repr(text)) as err:
                o.parse_move(text)
            self.assertNotIn("\n", str(err.exception))
            self.assertTrue(str(err.exception).startswith("move '"), text)

    def test_malformed_positions_are_refused(self):
        for text in ["", " ", "WB/WB", "WB/WB w", "WB/WB w classic extra", "WB/WB W classic",
                     "WB/WB w X", "W/W w x", "WB/W1B w x", "0WB/WB w x", "W01/WB w x",
                     "WB/WC w x", "WB//WB w x", "/WB/WB w x", "17/17 w x", "99999999999999999/2 w x",
                     "/".join(["2"] * 17) + " w x", "WB/WB\nw x", "WB/WB w x\0", "wb/wb w x"]:
            with self.assertRaises(o.NotationError, msg=repr(text)) as err:
                o.parse_position(text)
            self.assertNotIn("\n", str(err.exception))

    def test_setup_problems_of_ordo_2_3(self):
        """ORDO-2.3: the last mover has a piece; the side to move is not on the far home row."""
        self.assertIsNotNone(o.setup_problem(o.parse_position("2/W1 w classic")))
        self.assertIsNotNone(o.setup_problem(o.parse_position("W1/1B w classic")))
        self.assertIsNotNone(o.setup_problem(o.parse_position("W1/1B b classic")))
        self.assertIsNone(o.setup_problem(o.parse_position("2/WB w classic")))  # Black won
        self.assertIsNone(o.setup_problem(o.start_position()))


def table_engine(log):
    """A stand-in engine that knows only the vectors: their moves and statuses."""
    table = {v["position"]: v for v in vectors()}

    def moves(p):
        listed = table[str(p)]["moves"]
        return [o.parse_move(m) if i % 2 else m for i, m in enumerate(reversed(listed))]

    def status(p):
        s = table[str(p)]["status"]
        return "ongoing" if s["state"] == "ongoing" else (s["winner"], s["reason"])

    def play(p, move):
        log.append(move)
        return "3B/4/B3/WW2 w classic"

    return o.Engine("table", moves, play, status, capabilities="classic:* x:5x5")


def session(requests: bytes, log=None):
    out = io.BytesIO()
    o.serve(table_engine([] if log is None else log), io.BytesIO(requests), out)
    return out.getvalue().decode("utf-8").split("\n")[:-1]


class Protocol(unittest.TestCase):
    def test_an_exception_in_play_answers_illegal_move(self):
        """An exception in your play() answers `error illegal-move <move>`, the position
        unchanged and the session going on; the traceback goes to standard error."""
        def play(p, m):
            raise RuntimeError("my engine broke")

        eng = o.Engine("fails", lambda p: ["a1-a2"], play, lambda p: "ongoing",
                       capabilities="classic:*")
        out, err = io.BytesIO(), io.StringIO()
        with contextlib.redirect_stderr(err):
            o.serve(eng, io.BytesIO(b"ordo 1\nposition 3B/4/4/WW2 w classic\nplay a1-a2\n"
                                    b"show\nstatus\n"), out)
        r = out.getvalue().decode("utf-8").split("\n")[:-1]
        self.assertEqual(r[2:], ["error illegal-move a1-a2", "position 3B/4/4/WW2 w classic",
                                 "status ongoing"])
        self.assertIn("my engine broke", err.getvalue())

    def test_a_move_listed_twice_is_repeated_not_merged(self):
        """A move moves() lists twice (in two spellings) is repeated in the `moves` reply, so
        that ordo conform reports it, and `play` gets the first item listed."""
        log = []

        def play(p, m):
            log.append(m)
            return p

        eng = o.Engine("twice", lambda p: ["a1:b1-a2", "b1:a1-b2", "a1-a2"], play,
                       lambda p: "ongoing", capabilities="classic:*")
        out = io.BytesIO()
        o.serve(eng, io.BytesIO(b"ordo 1\nposition 3B/4/4/WW2 w classic\nmoves\nplay b1:a1-b2\n"),
                out)
        r = out.getvalue().decode("utf-8").split("\n")[:-1]
        self.assertEqual(r[2], "moves a1-a2 a1:b1-a2 a1:b1-a2")
        self.assertEqual(log, ["a1:b1-a2"])

    def test_the_session_of_the_protocol(self):
        """spec/protocol.md, Session, with the ordo-never-captures vector (ORDO-7.2)."""
        r = session(b"ordo 1\nposition 3B/4/B3/WW2 w classic\nmoves\nplay a1xa2\nstatus\n"
                    b"quit\nmoves\n")
        self.assertEqual(r, ["ordo 1 ok name table", "ok", "moves a1-b2 a1xa2 b1-b2 b1xa2",
                             "ok", "status ongoing", "bye"])

    def test_handshake_errors_and_blank_lines(self):
        r = session(b"moves\n\n  \t\nordo 2\nordo\nordo one\nordo 1\nordo 1\nfrobnicate\n"
                    b"moves please\ncapabilities\nvariant chess\nvariant x 9x9\nvariant x 8x8\n"
                    b"show\nstatus\n__init__\nvariant x __class__\nvariant get\n")
        self.assertTrue(r[0].startswith("error no-handshake "))
        self.assertTrue(r[1].startswith("error unsupported-version "))
        self.assertTrue(r[2].startswith("error bad-arguments "))
        self.assertTrue(r[3].startswith("error bad-arguments "))
        self.assertEqual(r[4:6], ["ordo 1 ok name table"] * 2)
        self.assertTrue(r[6].startswith("error unknown-command 'frobnicate' "))
        self.assertEqual(r[7], "error bad-arguments 'moves' takes no arguments")
        self.assertEqual(r[8], "capabilities classic:* x:5x5")
        self.assertTrue(r[9].startswith("error bad-arguments unknown variant 'chess'"))
        self.assertTrue(r[10].startswith("error bad-arguments unknown board '9x9'"))
        self.assertTrue(r[11].startswith("error unsupported "), r[11])
        self.assertEqual(r[12], "position 2BB2BB2/BBBBBBBBBB/BB2BB2BB/10/10/WW2WW2WW/"
                         "WWWWWWWWWW/2WW2WW2 w classic")
        self.assertTrue(r[14].startswith("error unknown-command '__init__' "), r[14])
        self.assertTrue(r[15].startswith("error bad-arguments unknown board '__class__'"))
        self.assertTrue(r[16].startswith("error bad-arguments unknown variant 'get'"))
        self.assertEqual(len(r), 17)

    def test_position_replies(self):
        r = session(b"ordo 1\nposition\nposition 3\nposition 2/W1 w classic\n"
                    b"position 5/BB1BB/2B2/1WW2/5 w classic\nposition 4/4/4/4/4 w x\n"
                    b"show\nposition \t5/BB1BB/2B2/1WW2/5  w x \r\nshow\n")
        self.assertTrue(r[1].startswith("error bad-arguments"))
        self.assertEqual(r[2], "error bad-position position '3' at character 2: expected at "
                         "least 2 rows separated by '/', found 1 row")
        self.assertTrue(r[3].startswith("error invalid-position "), r[3])
        self.assertEqual(r[4], "ok")
        self.assertTrue(r[5].startswith("error unsupported "), r[5])
        self.assertEqual(r[6], "position 5/BB1BB/2B2/1WW2/5 w classic")
        self.assertEqual(r[7:], ["ok", f"position {TIE}"])

    def test_play_resolves_other_spellings_to_your_item(self):
        """ORDOX-4.2 keep square and ORDO-7.1 ordo ends: play finds your own list item."""
        log = []
        r = session(f"ordo 1\nposition {TIE}\nplay c2:b2-d2,c2xc3/e4\nposition {TIE}\n"
                    f"play b2:c2-c2,c2xc3/a4\nposition {TIE}\nplay b2-b3\n".encode(), log)
        self.assertEqual(r[1:], ["ok"] * 6)
        self.assertEqual([str(m) for m in log], ["b2:c2-c2,c2xc3/d4", "b2:c2-c2,c2xc3/a4",
                                                 "b2-b3"])
        self.assertEqual({type(m) for m in log}, {o.Move, str})  # as moves() listed them

    def test_play_errors_leave_the_position(self):
        r = session(f"ordo 1\nposition {TIE}\nplay\nplay b2-b3 b2-b4\nplay e2e4\nplay b2-b4\n"
                    f"play c2xc3/c2\nplay q1-a1\nplay b2-b9\nplay c2xc3\nplay B2-B3\nshow\n"
                    .encode())
        self.assertTrue(r[2].startswith("error bad-arguments"))
        self.assertTrue(r[3].startswith("error bad-arguments"))
        self.assertTrue(r[4].startswith("error bad-move move 'e2e4' at character 3"), r[4])
        self.assertEqual(r[5:8], ["error illegal-move b2-b4", "error illegal-move c2xc3/c2",
                                  r[7]])
        self.assertTrue(r[7].startswith("error bad-move"))
        self.assertEqual(r[8:10], ["error illegal-move b2-b9", "error illegal-move c2xc3"])
        self.assertTrue(r[10].startswith("error bad-move"))
        self.assertEqual(r[11], f"position {TIE}")

    def test_status_replies(self):
        r = session(b"ordo 1\nposition 4/W1BW/W3 w classic\nstatus\nmoves\n")
        self.assertEqual(r[2:], ["status won black cannot-reconnect", "moves"])

    def test_perft_through_your_functions(self):
        r = session(b"ordo 1\nposition 4/W1BW/W3 w classic\nperft 0\nperft 1\nperft 9\n")
        self.assertEqual(r[2:4], ["perft 0 1", "perft 1 0"])
        self.assertTrue(r[4].startswith("error bad-arguments"))

    def test_line_limit_counts_no_line_end(self):
        """spec/protocol.md: 65,536 bytes at most, the line end not counted."""
        fits = b"show" + b" " * (o.MAX_REQUEST - 4)
        r = session(b"ordo 1\n" + fits + b"\r\n" + fits + b" \nshow\n" + b"x" * 200000
                    + b"\n\xff\xfe\nstatus\n")
        self.assertEqual(r[1], r[3])
        self.assertTrue(r[1].startswith("position "))
        self.assertTrue(r[2].startswith("error line-too-long"), r[2])
        self.assertTrue(r[4].startswith("error line-too-long"))
        self.assertTrue(r[5].startswith("error bad-encoding"))
        self.assertEqual(r[6], "status ongoing")
        self.assertEqual(len(r), 7)

    def test_end_of_input_ends_the_session(self):
        self.assertEqual(session(b"ordo 1\nshow"), ["ordo 1 ok name table", r_start()])
        self.assertEqual(session(b""), [])

    def test_bad_capabilities_are_refused_up_front(self):
        for caps in ["", "chess:10x8", "x:1x8", "x:17x2", "x:16x16", "classic", "x:10x8x"]:
            with self.assertRaises(ValueError, msg=caps):
                o.Session(o.Engine("e", list, lambda p, m: p, lambda p: "ongoing", caps))

    def test_errors_in_your_functions_are_answered_naming_the_request(self):
        """An exception in moves(), status(), validate() or new_game(), a
        list or a status that does not read, answers `error internal-error '<request>': …`;
        the session goes on with the state as before, the traceback on standard error."""
        def broken(*_):
            raise RuntimeError("my engine broke")

        engines = [
            (o.Engine("e", lambda p: ["e2e4"], lambda p, m: p, lambda p: "ongoing"), "moves",
             "'moves': moves() listed 'e2e4', which is not move notation"),
            (o.Engine("e", list, lambda p, m: p, lambda p: "draw"), "status",
             "'status': status() returned 'draw'"),
            (o.Engine("e", broken, lambda p, m: p, lambda p: "ongoing"), "moves",
             "'moves': your moves() raised RuntimeError: my engine broke"),
            (o.Engine("e", list, lambda p, m: p, broken), "status",
             "'status': your status() raised RuntimeError: my engine broke"),
            (o.Engine("e", list, lambda p, m: p, lambda p: "ongoing", validate=broken),
             "position 3B/4/4/WW2 w classic",
             "'position': your validate() raised RuntimeError: my engine broke"),
            (o.Engine("e", list, lambda p, m: p, lambda p: "ongoing", new_game=broken),
             "game start", "'game': your new_game() raised RuntimeError: my engine broke"),
            (o.Engine("e", lambda p, s: [], lambda p, m, s: p, broken, new_game=lambda p: 0),
             "status", "'status': your status() raised RuntimeError: my engine broke"),
        ]
        for engine, request, message in engines:
            out, err = io.BytesIO(), io.StringIO()
            with contextlib.redirect_stderr(err):
                o.serve(engine, io.BytesIO(f"ordo 1\n{request}\nshow\n".encode()), out)
            r = out.getvalue().decode("utf-8").split("\n")[:-1]
            self.assertTrue(r[1].startswith(f"error internal-error {message}"), r[1])
            self.assertEqual(r[2], r_start(), request)  # the session goes on, nothing changed
            self.assertIn("Traceback", err.getvalue(), request)

START_10X8 = "2BB2BB2/BBBBBBBBBB/BB2BB2BB/10/10/WW2WW2WW/WWWWWWWWWW/2WW2WW2 w classic"
AFTER_A3_A4 = "2BB2BB2/BBBBBBBBBB/BB2BB2BB/10/W9/1W2WW2WW/WWWWWWWWWW/2WW2WW2 b classic"
MY_ORDO = f"""
# A stand-in for "your engine" of the quick start: it knows one position and one move.
def legal_moves(text):
    assert text == {START_10X8!r}, text
    return ["a3-a4", "j3-j4", "a2:a3-a4"]
def make_move(text, move):
    assert (text, move) == ({START_10X8!r}, "a3-a4"), (text, move)
    return {AFTER_A3_A4!r}
def result(text):
    return None if text == {AFTER_A3_A4!r} else ("white", "home-row")
"""


def forward_engine(log=None, fail_on=None):
    """A stand-in engine that keeps its own game state (new_game): its singletons step one or
    two squares straight forward, and it records a home-row win only when a move reaches the
    far row, as one real engine does: a position given as text has no winner for it."""
    def new_game(p):
        state = {"history": [str(p)], "winner": None}
        if log is not None:
            log.append(state)
        return state

    def moves(p, state):
        if state["winner"]:
            return []
        me, ahead = ("W", 1) if p.side == "w" else ("B", -1)
        out = []
        for sq, piece in sorted(p.pieces.items()):
            c, r = o.square_coords(sq)
            for k in (1, 2):
                to = r + ahead * k
                if piece != me or not 0 <= to < p.rows or o.square_name(c, to) in p.pieces:
                    break
                out.append(f"{sq}-{o.square_name(c, to)}")
        return out

    def play(p, move, state):
        step = o.parse_move(str(move)).steps[0]
        pieces = dict(p.pieces)
        pieces[step.to] = pieces.pop(step.from_)
        after = o.Position(p.cols, p.rows, pieces, "b" if p.side == "w" else "w", p.game)
        state["history"].append(str(after))
        if str(move) == fail_on:
            raise RuntimeError("my engine broke half way")
        if int(step.to[1:]) == (p.rows if p.side == "w" else 1):
            state["winner"] = "white" if p.side == "w" else "black"
        return after

    def status(p, state):
        return (state["winner"], "home-row") if state["winner"] else "ongoing"

    return o.Engine("forward", moves, play, status, capabilities="classic:*", new_game=new_game)


def replies(engine, requests: str) -> list[str]:
    session = o.Session(engine)
    return [r for r in map(session.handle, requests.split("\n")) if r is not None]


class Games(unittest.TestCase):
    """spec/protocol.md, `game`: the request replayed through your functions, and the state of
    an engine that keeps its own."""

    def test_a_game_is_replayed_through_your_play_and_your_state_sees_it(self):
        """ORDO-10.1: the engine records the win when c3-c5 is played; the same position set
        with `position` has no winner for it. The moves are asked again after every game."""
        log = []
        r = replies(forward_engine(log), "ordo 1\nposition B1W2/5/5/5/5 b classic\nstatus\n"
                    "moves\ngame B4/5/2W2/5/5 w classic moves c3-c5\nstatus\nmoves\nshow\n"
                    "game start moves a3-a4 i6-i5 a4-a5\nshow")
        self.assertEqual(r[1:], ["ok", "status ongoing", "moves a5-a3 a5-a4", "ok",
                                 "status won white home-row", "moves",
                                 "position B1W2/5/5/5/5 b classic", "ok",
                                 "position 2BB2BB2/BBBBBBBBBB/BB2BB3B/W7B1/10/1W2WW2WW/WWWWWWWWWW/"
                                 "2WW2WW2 b classic"])
        # one state per game start, each seeing every position of its game
        self.assertEqual([len(s["history"]) for s in log], [1, 2, 4])
        self.assertEqual(log[1]["history"], ["B4/5/2W2/5/5 w classic", "B1W2/5/5/5/5 b classic"])

    def test_game_errors_leave_the_previous_game(self):
        """Every error reply of spec/protocol.md's `game` table; after each the position and
        the game stay as they were."""
        before = "B4/5/2W2/5/5 w classic"
        too_long = "game start moves" + " a3-a4" * (o.MAX_GAME_MOVES + 1)
        r = replies(forward_engine(), f"ordo 1\ngame {before}\ngame moves c3-c4\n"
                    "game start chess\ngame start x 9x9\ngame 3\ngame 2/W1 w classic\n"
                    "game 4/4/4/4/4 w x\ngame B4/5/2W2/5/5 w classic moves zz\n"
                    "game B4/5/2W2/5/5 w classic moves c3-c4 c3-c2\n"
                    f"game B4/5/2W2/5/5 w classic moves c3-c5 a5-a4\n{too_long}\nshow\nstatus")
        self.assertEqual(r[1], "ok")
        for reply, code in zip(r[2:12], ["bad-arguments", "bad-arguments", "bad-arguments",
                                         "bad-position", "invalid-position", "unsupported",
                                         "bad-move", "illegal-move", "illegal-move",
                                         "bad-arguments"]):
            self.assertTrue(reply.startswith(f"error {code} "), (reply, code))
        self.assertTrue(r[8].startswith("error bad-move move 1 of the game: move 'zz'"), r[8])
        self.assertEqual(r[9], "error illegal-move c3-c2 (move 2 of the game)")
        self.assertEqual(r[10], "error illegal-move a5-a4 (move 2 of the game)")  # game over
        self.assertEqual(r[12:], [f"position {before}", "status ongoing"])

    def test_a_failing_play_rebuilds_your_state_from_the_game(self):
        """An exception in play() answers illegal-move; the state play() changed half way is
        rebuilt by replaying the game so far, and a game whose move fails is not taken."""
        log = []
        session = o.Session(forward_engine(log, fail_on="c3-c4"))
        err = io.StringIO()
        with contextlib.redirect_stderr(err):
            got = [session.handle(line) for line in [
                "ordo 1", "game B4/5/2W2/5/5 w classic", "play c3-c4", "status",
                "game B4/5/2W2/5/5 w classic moves c3-c4"]]
        self.assertEqual(got[1:], ["ok", "error illegal-move c3-c4", "status ongoing",
                                   "error illegal-move c3-c4 (move 1 of the game)"])
        self.assertEqual(session.state["history"], ["B4/5/2W2/5/5 w classic"])
        self.assertIn("my engine broke half way", err.getvalue())

    def test_perft_replays_the_game_for_an_engine_with_state(self):
        """spec/perft.md through your functions: below c3-c5 the engine has recorded a win and
        lists no move, which only a replay of the game shows (2, not 4)."""
        r = replies(forward_engine(), "ordo 1\ngame B4/5/2W2/5/5 w classic\nperft 1\nperft 2")
        self.assertEqual(r[2:], ["perft 1 2", "perft 2 2"])


class QuickStart(unittest.TestCase):
    def test_the_python_quick_start_of_the_readme_serves(self):
        with open(os.path.join(os.path.dirname(__file__), "..", "README.md"), encoding="utf-8") as f:
            snippet = re.search(r"```python\n(.*?)```", f.read(), re.S).group(1)
        with tempfile.TemporaryDirectory() as tmp:
            for name, text in [("my_adapter.py", snippet), ("my_ordo.py", MY_ORDO)]:
                with open(os.path.join(tmp, name), "w", encoding="utf-8") as f:
                    f.write(text)
            env = dict(os.environ, PYTHONPATH=os.path.dirname(os.path.abspath(__file__)),
                       PYTHONDONTWRITEBYTECODE="1")
            run = subprocess.run([sys.executable, "my_adapter.py"], cwd=tmp, env=env, text=True,
                                 capture_output=True, timeout=60,
                                 input="ordo 1\ncapabilities\nmoves\nplay a3-a5\nplay a3-a4\n"
                                 "show\nstatus\nposition 3B/4/B3/WW2 w classic\nquit\n")
        self.assertEqual(run.stderr, "")
        r = run.stdout.splitlines()
        self.assertEqual(r[:7], ["ordo 1 ok name my engine 1.0",
                                 "capabilities classic:10x8 x:10x8",
                                 "moves a2:a3-a4 a3-a4 j3-j4", "error illegal-move a3-a5", "ok",
                                 f"position {AFTER_A3_A4}", "status ongoing"])
        self.assertTrue(r[7].startswith("error unsupported "), r[7])
        self.assertEqual(r[8:], ["bye"])


class Package(unittest.TestCase):
    """The package of pyproject.toml, as `pip install` builds it with _build/ordo_build.py."""

    def test_the_wheel_holds_the_modules_their_metadata_and_the_sample_command(self):
        import importlib.util
        import zipfile
        here = os.path.dirname(os.path.abspath(__file__))
        spec = importlib.util.spec_from_file_location(
            "ordo_build", os.path.join(here, "_build", "ordo_build.py"))
        backend = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(backend)
        with tempfile.TemporaryDirectory() as tmp:
            wheel = os.path.join(tmp, backend.build_wheel(tmp))
            with zipfile.ZipFile(wheel) as z:
                names = z.namelist()
                self.assertEqual(z.read("ordo_protocol.py"),
                                 open(o.__file__, "rb").read())
                entry_points = z.read("ordo_protocol-0.1.0.dist-info/entry_points.txt").decode()
                metadata = z.read("ordo_protocol-0.1.0.dist-info/METADATA").decode()
            self.assertEqual(sorted(n for n in names if "/" not in n),
                             ["ordo_protocol.py", "sample_engine.py"])
            self.assertIn("ordo-sample-python = sample_engine:main", entry_points)
            self.assertIn("Name: ordo-protocol\n", metadata)
            self.assertIn("License: MIT OR Apache-2.0\n", metadata)
            # The module imports from the wheel alone (a wheel of pure modules is importable
            # as a zip), without this folder on the path.
            run = subprocess.run([sys.executable, "-I", "-c",
                                  "import sys; sys.path.insert(0, sys.argv[1]); "
                                  "import ordo_protocol as o; print(o.__file__); "
                                  "print(o.format_position(o.start_position()))", wheel],
                                 cwd=tmp, capture_output=True, text=True, timeout=60)
            self.assertEqual(run.stderr, "")
            lines = run.stdout.splitlines()
            self.assertTrue(lines[0].startswith(wheel), lines[0])
            self.assertEqual(lines[1], str(o.start_position()))


def r_start():
    return "position " + str(o.start_position())


if __name__ == "__main__":
    unittest.main()
