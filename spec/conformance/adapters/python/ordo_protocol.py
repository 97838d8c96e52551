"""Helpers for writing an Ordo engine that speaks the ordo protocol (Python 3.11, stdlib only).

What this module gives you, so that your adapter is only the part that knows the rules:

- positions (spec/notation.md, "Position notation"): parse_position() reads every spelling the
  notation allows into a Position (cols, rows, pieces, side, game); format_position() and
  str(position) write the canonical text;
- moves (spec/notation.md, "Move notation"): parse_move() reads the notation into a Move (a
  tuple of Steps); parse_move_lenient() also reads the spellings of other programs that
  spec/game-record.md accepts (upper-case squares, X or the multiplication sign for a capture,
  en or em dash, trailing + # ! ?); format_move() and str(move) write it back;
  canonical_move(position, move) gives the canonical spelling relative to a position (ordo ends
  in order, the kept group named by its lowest square);
- the protocol loop of spec/protocol.md: serve(Engine(...)) answers the handshake,
  capabilities, variant, position, game, moves, play, status, show, perft and quit, with the
  error replies, blank lines, the 65,536-byte line limit and a flush after every reply.

You write three functions over these plain structures:

    moves(position)        -> list of moves (Move objects or strings in move notation)
    play(position, move)   -> the position after the move (Position or position text); `move`
                              is the very item of your moves() list that the request named
    status(position)       -> "ongoing" or (winner, reason), e.g. ("white", "home-row")

A `game <start> moves …` request is replayed through them: your play() of each move in turn.
An engine that keeps its own game state gives Engine a new_game(position) function as well;
each function then also gets that state as its last argument (see Engine).

Errors in your functions never end the engine: an exception in play() (or a play() that gives
back no position) answers `error illegal-move <move>` with the position unchanged; any other
(in moves(), status(), validate(), new_game(), or a list or status that does not read) answers
`error internal-error '<request>': <what failed>`, the state as before the request. The
traceback goes to standard error either way.
"""

from __future__ import annotations

import sys
import traceback
import unicodedata
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Iterable, Optional, Union

__all__ = [
    "NotationError", "Position", "Step", "Move", "parse_position", "format_position",
    "parse_square", "square_coords", "square_name", "parse_move", "parse_move_lenient",
    "format_move", "canonical_move", "setup_problem", "start_position", "Engine", "Session",
    "serve", "listed_moves", "perft", "replay", "error_reply", "status_of_winner",
    "make_position", "EngineError", "MAX_REQUEST", "MAX_GAME_MOVES",
]

MIN_SIDE = 2
MAX_SIDE = 16
MAX_SQUARES = 128
MAX_REQUEST = 65536
COLUMNS = "abcdefghijklmnop"
VERSION = 1
WINNERS = ("white", "black")
REASONS = ("home-row", "no-pieces", "cannot-reconnect", "no-legal-move")

# Unicode White_Space, the set Rust's char::is_whitespace uses (spec/notation.md trims it).
_WHITESPACE = set("\t\n\x0b\x0c\r \x85\xa0\u1680\u2028\u2029\u202f\u205f\u3000") | {
    chr(c) for c in range(0x2000, 0x200B)
}
_END = "end of input"


# --------------------------------------------------------------------------- errors


class NotationError(ValueError):
    """A text that is not notation: `<kind> '<input>' at character <n>: expected …, found …`
    (spec/notation.md, "Errors"). `column` counts characters from 1."""

    def __init__(self, kind: str, text: str, column: int, expected: str, found: str):
        self.kind, self.text, self.column = kind, text, column
        self.expected, self.found = expected, found
        super().__init__(
            f"{kind} '{_escape_controls(text)}' at character {column}: "
            f"expected {expected}, found {found}"
        )


def _escape_char(c: str) -> str:
    named = {"\t": "\\t", "\r": "\\r", "\n": "\\n", "\\": "\\\\", "'": "\\'", '"': '\\"',
             "\0": "\\0"}
    if c in named:
        return named[c]
    cat = unicodedata.category(c)
    if cat in ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp", "Mn", "Me") or (cat == "Zs" and c != " "):
        return "\\u{%x}" % ord(c)
    return c


def _escape_controls(s: str) -> str:
    return "".join(_escape_char(c) if unicodedata.category(c) == "Cc" else c for c in s)


def _quote(chars: str) -> str:
    return "'" + "".join(_escape_char(c) for c in chars) + "'"


class _Cursor:
    """Reads `text` character by character between its leading and trailing whitespace."""

    def __init__(self, kind: str, text: str):
        self.kind, self.text = kind, text
        end = len(text)
        while end > 0 and text[end - 1] in _WHITESPACE:
            end -= 1
        pos = 0
        while pos < end and text[pos] in _WHITESPACE:
            pos += 1
        self.pos, self.end = pos, end

    def peek(self) -> Optional[str]:
        return self.text[self.pos] if self.pos < self.end else None

    def found_at(self, pos: int) -> str:
        return _quote(self.text[pos]) if pos < self.end else _END

    def error_at(self, pos: int, expected: str, found: str) -> NotationError:
        return NotationError(self.kind, self.text, pos + 1, expected, found)

    def error_here(self, expected: str) -> NotationError:
        return self.error_at(self.pos, expected, self.found_at(self.pos))


# --------------------------------------------------------------------------- squares


def square_name(col: int, row: int) -> str:
    """The name of the square at 0-based column `col` and 0-based row `row`: (0, 0) is a1."""
    return f"{COLUMNS[col]}{row + 1}"


def square_coords(name: str) -> tuple[int, int]:
    """The 0-based (column, row) of a square name such as 'e4' (read with parse_square)."""
    name = parse_square(name)
    return COLUMNS.index(name[0]), int(name[1:]) - 1


def _read_square(cur: _Cursor) -> tuple[int, int]:
    c = cur.peek()
    if c is None or c not in COLUMNS:
        raise _fail(cur, "a column letter a..p")
    col = COLUMNS.index(c)
    cur.pos += 1
    start = cur.pos
    c = cur.peek()
    if c == "0":
        nxt = cur.text[cur.pos + 1] if cur.pos + 1 < len(cur.text) else ""
        why = ("row numbers have no leading zero" if nxt.isascii() and nxt.isdigit()
               else "rows are numbered from 1")
        raise _fail_because(cur, "a row number 1..16", why)
    if c is None or not ("1" <= c <= "9"):
        raise _fail(cur, "a row number 1..16")
    while (d := cur.peek()) is not None and "0" <= d <= "9":
        cur.pos += 1
    digits = cur.text[start:cur.pos]
    if len(digits) > 2 or int(digits) > MAX_SIDE:
        raise cur.error_at(start, "a row number 1..16", _quote(digits))
    return col, int(digits) - 1


def parse_square(text: str) -> str:
    """Read one square (`a1` .. `p16`, lower case, no leading zero); returns its name."""
    cur = _Cursor("square", text)
    col, row = _read_square(cur)
    if cur.pos < cur.end:
        raise _fail(cur, "end of input after the square")
    return square_name(col, row)


def _index(name: str, cols: int = MAX_SIDE) -> int:
    """Row-major index of a square (spec/notation.md): (row - 1) * columns + column."""
    return (int(name[1:]) - 1) * cols + COLUMNS.index(name[0])


def _coords(name: str) -> tuple[int, int]:
    """square_coords without the check, for names this module made."""
    return COLUMNS.index(name[0]), int(name[1:]) - 1


# --------------------------------------------------------------------------- positions


@dataclass
class Position:
    """A position: board size, pieces by square name ('e4': 'W' or 'B'), side to move ('w' or
    'b') and game ('classic' or 'x'). str(position) is its canonical text."""

    cols: int
    rows: int
    pieces: dict[str, str] = field(default_factory=dict)
    side: str = "w"
    game: str = "classic"

    def __str__(self) -> str:
        return format_position(self)

    def squares(self) -> list[str]:
        """Every square of the board, in row-major order (a1, b1, …)."""
        return [square_name(c, r) for r in range(self.rows) for c in range(self.cols)]

    def on_board(self, name: str) -> bool:
        col, row = COLUMNS.index(name[0]), int(name[1:]) - 1
        return col < self.cols and row < self.rows


def format_position(p: Position) -> str:
    """The canonical text: runs of empty squares as one number, fields joined by one space."""
    out = []
    for r in reversed(range(p.rows)):
        text, empty = "", 0
        for c in range(p.cols):
            piece = p.pieces.get(square_name(c, r))
            if piece is None:
                empty += 1
                continue
            text += (str(empty) if empty else "") + piece
            empty = 0
        out.append(text + (str(empty) if empty else ""))
    return f"{'/'.join(out)} {p.side} {p.game}"


def parse_position(text: str) -> Position:
    """Read a position in any spelling spec/notation.md allows; NotationError otherwise."""
    cur = _Cursor("position", text)
    fields, i = [], cur.pos
    while i < cur.end:
        if text[i] in " \t":
            i += 1
            continue
        start = i
        while i < cur.end and text[i] not in " \t":
            i += 1
        fields.append((start, i))
    if not fields:
        raise cur.error_at(cur.end, "a board: rows from the last row down to row 1, "
                           "separated by '/'", _END)
    cols, board = _read_board(cur, *fields[0])
    if len(fields) < 2:
        raise cur.error_at(cur.end, "the side to move 'w' or 'b' after the board", _END)
    side = text[fields[1][0]:fields[1][1]]
    if side not in ("w", "b"):
        raise cur.error_at(fields[1][0], "the side to move 'w' or 'b'", _quote(side))
    if len(fields) < 3:
        raise cur.error_at(cur.end, "the variant 'classic' or 'x' after the side to move", _END)
    game = text[fields[2][0]:fields[2][1]]
    if game not in ("classic", "x"):
        raise cur.error_at(fields[2][0], "the variant 'classic' or 'x'", _quote(game))
    if len(fields) > 3:
        start, stop = fields[3]
        raise cur.error_at(start, "end of input after the variant (a position has exactly "
                           "three fields)", _quote(text[start:stop]))
    rows = len(board)
    pieces = {square_name(c, rows - 1 - i): piece
              for i, row in enumerate(board) for c, piece in enumerate(row) if piece}
    return Position(cols, rows, pieces, side, game)


def _read_board(cur: _Cursor, start: int, end: int) -> tuple[int, list[list]]:
    text = cur.text
    n_rows = 1 + text.count("/", start, end)
    rows: list[list] = []
    width: Optional[int] = None
    i = start
    while True:
        label = n_rows - len(rows)
        if len(rows) == MAX_SIDE:
            raise cur.error_at(i, f"at most {MAX_SIDE} rows", f"{n_rows} rows")
        if width is not None and (len(rows) + 1) * width > MAX_SQUARES:
            raise cur.error_at(i, f"at most {MAX_SQUARES} squares (columns x rows)",
                               f"{width} columns x {n_rows} rows = {width * n_rows} squares")
        row, i, overflow_at = _read_row(cur, i, end, label, width or MAX_SIDE)
        _check_width(cur, row, i, overflow_at, label, width)
        width = len(row)
        rows.append(row)
        if i == end:
            break
        i += 1
    if len(rows) < MIN_SIDE:
        raise cur.error_at(end, f"at least {MIN_SIDE} rows separated by '/'", f"{len(rows)} row")
    return width, rows


def _read_row(cur: _Cursor, i: int, end: int, label: int, limit: int):
    text, row, overflow_at = cur.text, [], None
    if i == end or text[i] == "/":
        raise cur.error_at(i, f"row {label}: 'W', 'B' or a number of empty squares",
                           cur.found_at(i))
    while i < end and text[i] != "/":
        token, c = i, text[i]
        if c in "WB":
            row.append(c)
            i += 1
        elif "1" <= c <= "9":
            while i < end and "0" <= text[i] <= "9":
                i += 1
            digits = text[token:i]
            if len(digits) > 2 or int(digits) > MAX_SIDE:
                raise cur.error_at(token, f"a number of empty squares from 1 to {MAX_SIDE}",
                                   _quote(digits))
            row.extend([None] * int(digits))
        elif c == "0":
            raise cur.error_at(token, f"a number of empty squares from 1 to {MAX_SIDE} "
                               "(no zero, no leading zero)", cur.found_at(token))
        else:
            raise cur.error_at(token, f"row {label}: 'W', 'B', a number of empty squares or '/'",
                               cur.found_at(token))
        if len(row) > limit and overflow_at is None:
            overflow_at = token
    return row, i, overflow_at


def _check_width(cur, row, i, overflow_at, label, width):
    if width is None:
        if overflow_at is not None:
            raise cur.error_at(overflow_at, f"at most {MAX_SIDE} columns in row {label}",
                               str(len(row)))
        if len(row) < MIN_SIDE:
            raise cur.error_at(i, f"at least {MIN_SIDE} columns in row {label}", str(len(row)))
    elif len(row) != width:
        at = overflow_at if overflow_at is not None else i
        raise cur.error_at(at, f"row {label} to have {width} squares like the rows above it",
                           str(len(row)))


_STARTS = {
    "10x8": "2BB2BB2/BBBBBBBBBB/BB2BB2BB/10/10/WW2WW2WW/WWWWWWWWWW/2WW2WW2",
    "8x8": "1BB2BB1/BBBBBBBB/B2BB2B/8/8/W2WW2W/WWWWWWWW/1WW2WW1",
}


def start_position(game: str = "classic", board: str = "10x8") -> Position:
    """The standard start (ORDO-2.2) on 10x8, or the chess-board start (ORDO-1.6) on 8x8."""
    return parse_position(f"{_STARTS[board]} w {game}")


def make_position(white: Iterable[str], black: Iterable[str], side: str = "w",
                  game: str = "classic", board: str = "10x8") -> Position:
    """A position from its pieces and side to move, for an engine whose own state is not text:
    the squares of the white and of the black pieces, 'w' or 'b', the game and the board
    '<cols>x<rows>'. A square that does not read, lies off the board or is named twice, a bad
    side, game or board raises ValueError (NotationError for notation) naming it."""
    dims = board.split("x")
    if len(dims) != 2 or not all(d.isascii() and d.isdigit() for d in dims):
        raise ValueError(f"board {board!r}: expected <cols>x<rows> such as '10x8'")
    p = Position(int(dims[0]), int(dims[1]), {}, side, game)
    for colour, squares in (("W", white), ("B", black)):
        for square in squares:
            name = parse_square(square)
            if not p.on_board(name):
                raise ValueError(f"square {name} is off the {board} board")
            if name in p.pieces:
                raise ValueError(f"square {name} is named twice")
            p.pieces[name] = colour
    return parse_position(format_position(p))  # checks the side, the game and the board size


def setup_problem(p: Position) -> Optional[str]:
    """Why `p` cannot be set up under ORDO-2.3, or None when it can: the player who moved last
    must have a piece, and the side to move may not stand on its opponent's home row."""
    mover, last = ("W", "B") if p.side == "w" else ("B", "W")
    if last not in p.pieces.values():
        name = "Black" if last == "B" else "White"
        return f"{name} is not to move but has no piece (ORDO-2.3)"
    home = 1 if mover == "B" else p.rows
    if any(v == mover and int(sq[1:]) == home for sq, v in p.pieces.items()):
        return f"the side to move already stands on its opponent's home row {home} (ORDO-2.3)"
    return None


# --------------------------------------------------------------------------- moves


@dataclass(frozen=True)
class Step:
    """One step. A singleton step: `from_` to `to`, `capture` when written with x, `keep` the
    square naming the kept group (ORDOX-4.2) or None. An ordo step: `last` is the run's other
    end (not None), `from_` the end whose landing square is `to`."""

    from_: str
    to: str
    capture: bool = False
    keep: Optional[str] = None
    last: Optional[str] = None

    @property
    def is_ordo(self) -> bool:
        return self.last is not None

    def squares(self) -> list[str]:
        return [s for s in (self.from_, self.last, self.to, self.keep) if s is not None]

    def __str__(self) -> str:
        if self.last is not None:
            return f"{self.from_}:{self.last}-{self.to}"
        keep = f"/{self.keep}" if self.keep else ""
        return f"{self.from_}{'x' if self.capture else '-'}{self.to}{keep}"


@dataclass(frozen=True)
class Move:
    """One turn: one step, or two in Ordo X (ORDOX-3.1). str(move) is its notation."""

    steps: tuple[Step, ...]

    def __str__(self) -> str:
        return ",".join(str(s) for s in self.steps)


def format_move(m: Move) -> str:
    """The notation of a move, the steps joined by ','."""
    return str(m)


def parse_move(text: str) -> Move:
    """Read a move in the notation of spec/notation.md (ordo ends kept in the order written)."""
    cur = _Cursor("move", text)
    if cur.pos >= cur.end:
        raise cur.error_here("a move such as 'e2-e4'")
    first = _read_step(cur)
    _check_after_step(cur, first, second=False)
    if cur.peek() != ",":
        return Move((first,))
    cur.pos += 1
    second = _read_step(cur)
    _check_after_step(cur, second, second=True)
    return Move((first, second))


_LENIENT = str.maketrans({"X": "x", "\u00d7": "x", "\u2013": "-", "\u2014": "-",
                          **{c.upper(): c for c in COLUMNS}})


def parse_move_lenient(text: str) -> Move:
    """Read a move also in the spellings of other programs (spec/game-record.md, "Moves"):
    upper-case squares, X or × for a capture, an en or em dash for '-', trailing + # ! ?."""
    core = text.strip().rstrip("+#!?")
    try:
        return parse_move(core.translate(_LENIENT))
    except NotationError as e:
        raise NotationError("move", text, e.column + (len(text) - len(text.lstrip())),
                            e.expected, e.found) from None


def _fail(cur: _Cursor, expected: str) -> NotationError:
    c = cur.peek()
    if c is not None and c in _WHITESPACE:
        return _fail_because(cur, expected, "a move is written without spaces")
    return cur.error_here(expected)


def _fail_because(cur: _Cursor, expected: str, why: str) -> NotationError:
    return cur.error_at(cur.pos, expected, f"{cur.found_at(cur.pos)} ({why})")


def _check_after_step(cur: _Cursor, step: Step, second: bool) -> None:
    c = cur.peek()
    if c is None or (not second and c == ","):
        return
    open_capture = step.capture and step.keep is None and not step.is_ordo
    allowed = (["'/' (a kept group)"] if open_capture else []) + \
        ([] if second else ["',' (a second step)"]) + ["end of input"]
    expected = allowed[0] if len(allowed) == 1 else \
        f"{', '.join(allowed[:-1])} or {allowed[-1]}"
    if c == "/" and step.is_ordo:
        why = "an ordo move never captures, so it keeps no group"
    elif c == "/" and not open_capture:
        why = ("a kept group follows only a capture written with 'x'" if not step.capture
               else "a capture names at most one kept group")
    elif c == "," and second:
        why = "a move has at most two steps"
    else:
        raise _fail(cur, expected)
    raise _fail_because(cur, expected, why)


def _read_step(cur: _Cursor) -> Step:
    frm = square_name(*_read_square(cur))
    c = cur.peek()
    if c in ("-", "x"):
        cur.pos += 1
        to = square_name(*_read_square(cur))
        keep = None
        if c == "x" and cur.peek() == "/":
            cur.pos += 1
            keep = square_name(*_read_square(cur))
        return Step(frm, to, capture=(c == "x"), keep=keep)
    if c == ":":
        cur.pos += 1
        last = square_name(*_read_square(cur))
        if cur.peek() == "x":
            raise _fail_because(cur, "'-'", "ordo moves are written with '-' and never capture")
        if cur.peek() != "-":
            raise _fail(cur, "'-' and the square where the run's first end lands")
        cur.pos += 1
        return Step(frm, square_name(*_read_square(cur)), last=last)
    raise _fail(cur, "'-' (a move), 'x' (a capture) or ':' (the other end of an ordo run)")


# --------------------------------------------------------------------------- canonical spelling


def canonical_move(p: Position, m: Move) -> Move:
    """The canonical spelling of `m` in position `p` (spec/notation.md, "Canonical spelling"):
    each ordo written from its end with the lower row-major index, each kept group named by its
    square with the lowest row-major index. Only geometry is used (which pieces a step moves,
    captures and, in Ordo X, removes, ORDOX-4.1); whether the move is legal is your engine's
    business. What cannot be read off the board (a keep square that holds no opponent piece
    after the capture, a run that is not straight) is left as written."""
    board: Optional[dict] = dict(p.pieces)
    mover = "W" if p.side == "w" else "B"
    steps = []
    for i, step in enumerate(m.steps):
        step = _ordered_ends(step)
        if board is not None and step.keep is not None:
            after = _moved(board, step)
            enemy = "B" if mover == "W" else "W"
            if after is not None and after.get(step.keep) == enemy:
                group = _group_of(after, step.keep)
                step = replace(step, keep=min(group, key=_index))
        steps.append(step)
        if board is not None and any(s.keep for s in m.steps[i + 1:]):
            board = _after_step(board, step, mover, p.game)
    return Move(tuple(steps))


def _ordered_ends(step: Step) -> Step:
    if step.last is None or _index(step.from_) < _index(step.last):
        return step
    (fc, fr), (lc, lr), (tc, tr) = (_coords(s) for s in (step.from_, step.last, step.to))
    col, row = lc + tc - fc, lr + tr - fr
    if not (0 <= col < MAX_SIDE and 0 <= row < MAX_SIDE):
        return step
    return Step(step.last, square_name(col, row), last=step.from_)


def _run(step: Step) -> Optional[list[str]]:
    """The squares of an ordo step's run, from `from_` to `last`; None when not straight."""
    (fc, fr), (lc, lr) = _coords(step.from_), _coords(step.last)
    if fc != lc and fr != lr:
        return None
    n = max(abs(lc - fc), abs(lr - fr))
    dc, dr = (lc > fc) - (lc < fc), (lr > fr) - (lr < fr)
    return [square_name(fc + k * dc, fr + k * dr) for k in range(n + 1)]


def _moved(board: dict, step: Step) -> Optional[dict]:
    """The board after the pieces of `step` move (captured pieces overwritten), no removal."""
    b = dict(board)
    if step.last is None:
        piece = b.pop(step.from_, None)
        if piece is None:
            return None
        b[step.to] = piece
        return b
    run = _run(step)
    if run is None or any(sq not in b for sq in run):
        return None
    (fc, fr), (tc, tr) = _coords(step.from_), _coords(step.to)
    moved = {}
    for sq in run:
        c, r = _coords(sq)
        if not (0 <= c + tc - fc < MAX_SIDE and 0 <= r + tr - fr < MAX_SIDE):
            return None
        moved[square_name(c + tc - fc, r + tr - fr)] = b.pop(sq)
    b.update(moved)
    return b


def _group_of(board: dict, square: str) -> set[str]:
    """The squares of the group (ORDO-4.1: neighbours along a side or at a corner) holding
    `square`; empty when `square` is empty."""
    colour = board.get(square)
    if colour is None:
        return set()
    group, todo = {square}, [square]
    while todo:
        c, r = _coords(todo.pop())
        for dc in (-1, 0, 1):
            for dr in (-1, 0, 1):
                if 0 <= c + dc < MAX_SIDE and 0 <= r + dr < MAX_SIDE:
                    n = square_name(c + dc, r + dr)
                    if n not in group and board.get(n) == colour:
                        group.add(n)
                        todo.append(n)
    return group


def _after_step(board: dict, step: Step, mover: str, game: str) -> Optional[dict]:
    """The board after one step, with the Ordo X removal of ORDOX-4.1/4.2; None if unknown."""
    b = _moved(board, step)
    if b is None or not step.capture or game != "x":
        return b
    enemy = "B" if mover == "W" else "W"
    groups, seen = [], set()
    for sq in sorted((s for s, v in b.items() if v == enemy), key=_index):
        if sq not in seen:
            groups.append(_group_of(b, sq))
            seen |= groups[-1]
    if len(groups) <= 1:
        return b
    biggest = max(len(g) for g in groups)
    largest = [g for g in groups if len(g) == biggest]
    keep = [g for g in largest if step.keep in g] if step.keep else largest
    if len(keep) != 1:
        return None
    return {s: v for s, v in b.items() if v == mover or s in keep[0]}


# --------------------------------------------------------------------------- the protocol


MoveLike = Union[Move, str]
StatusLike = Union[str, tuple]


@dataclass
class Engine:
    """Your engine: a name and the three functions over plain structures (see the module doc).

    capabilities: the games and boards you support, tokens `<game>:<board>` with game `classic`
    or `x` and board `<cols>x<rows>` or `*` (every board ORDO-1.5 allows), e.g.
    "classic:10x8 x:10x8". validate(position) returns why a position cannot be set up, or None;
    the default applies ORDO-2.3 (setup_problem).

    new_game(position): optional, for an engine that keeps its own game state (a history for
    repetitions, a win recorded when a move is played, an object of your program). When given,
    the module calls it whenever a game starts (`position`, `variant`, `game`, and the standard
    start after the handshake) and passes what it returned along as a last argument:
    moves(position, state), status(position, state), play(position, move, state). play() then
    returns the position after the move, as before, with the state changed in place, or the
    pair (position, new state). A `game` request replays its moves through your play(), so
    your state sees the whole game."""

    name: str
    moves: Callable[..., Iterable[MoveLike]]
    play: Callable[..., Union[Position, str, tuple]]
    status: Callable[..., StatusLike]
    capabilities: Union[str, Iterable[str]] = "classic:* x:*"
    validate: Callable[[Position], Optional[str]] = setup_problem
    new_game: Optional[Callable[[Position], Any]] = None


class EngineError(Exception):
    """One of your functions raised, or returned something that is not an answer: the request
    is answered `error internal-error '<request>': <what failed>` and the session goes on."""


def _call(engine: Engine, name: str, *args):
    """Call your function `name` (moves, play, status, validate) with `args`; an exception in
    it becomes an EngineError naming it."""
    fn = getattr(engine, name)
    try:
        return fn(*args)
    except Exception as e:
        traceback.print_exc(file=sys.stderr)
        raise EngineError(f"your {name}() raised {type(e).__name__}: {e}") from e


def _stateful(engine: Engine) -> bool:
    return engine.new_game is not None


def _moves_of(engine: Engine, p: Position, state) -> Iterable[MoveLike]:
    return _call(engine, "moves", p, state) if _stateful(engine) else _call(engine, "moves", p)


def _status_of(engine: Engine, p: Position, state) -> StatusLike:
    return _call(engine, "status", p, state) if _stateful(engine) else _call(engine, "status", p)


def _play_of(engine: Engine, p: Position, item: MoveLike, state) -> tuple[Position, Any]:
    """The position (and state) after your play() of `item`; EngineError when it raised or
    returned no position."""
    if not _stateful(engine):
        return _as_position(_call(engine, "play", p, item), "play()"), None
    after = _call(engine, "play", p, item, state)
    if isinstance(after, tuple) and len(after) == 2:
        after, state = after
    return _as_position(after, "play()"), state


def _new_game(engine: Engine, p: Position):
    if not _stateful(engine):
        return None
    try:
        return engine.new_game(p)
    except Exception as e:
        traceback.print_exc(file=sys.stderr)
        raise EngineError(f"your new_game() raised {type(e).__name__}: {e}") from e


def replay(engine: Engine, start: Position, items: Iterable[MoveLike]) -> tuple[Position, Any]:
    """The position and your state after playing `items` (items of your moves() lists) in
    order from `start` through your functions: new_game(start), then play() of each."""
    p, state = start, _new_game(engine, start)
    for item in items:
        p, state = _play_of(engine, p, item, state)
    return p, state


def _capability_tokens(caps: Union[str, Iterable[str]]) -> list[str]:
    tokens = caps.split() if isinstance(caps, str) else [str(c) for c in caps]
    for t in tokens:
        game, _, board = t.partition(":")
        cols, _, rows = board.partition("x")
        ok = game in ("classic", "x") and (board == "*" or (
            cols.isdigit() and rows.isdigit() and MIN_SIDE <= int(cols) <= MAX_SIDE
            and MIN_SIDE <= int(rows) <= MAX_SIDE and int(cols) * int(rows) <= MAX_SQUARES))
        if not ok:
            raise ValueError(f"capability '{t}': expected <classic|x>:<cols>x<rows> or "
                             "<classic|x>:* with a board ORDO-1.5 allows")
    if not tokens:
        raise ValueError("capabilities: name at least one game and board, e.g. 'classic:10x8'")
    return tokens


def status_of_winner(p: Position, winner: Optional[str]) -> StatusLike:
    """The protocol status of `p` for an engine that knows only who has won (`None` or
    'ongoing' while the game goes on): the reason by the precedence of ORDO-10.5. The home row
    (ORDO-10.1) comes before no pieces (ORDO-10.2), both judged for the winner, who has just
    moved; else the side to move has lost for want of a legal move, split (cannot-reconnect,
    ORDO-10.3) or in one group (no-legal-move, ORDO-10.4)."""
    if winner is None or winner == "ongoing":
        return "ongoing"
    if winner not in WINNERS:
        raise ValueError(f"winner {winner!r}: expected one of {WINNERS}, None or 'ongoing'")
    me = "W" if winner == "white" else "B"
    goal = p.rows if me == "W" else 1
    if any(c == me and int(sq[1:]) == goal for sq, c in p.pieces.items()):
        return (winner, "home-row")
    theirs = [sq for sq, c in p.pieces.items() if c != me]
    if not theirs:
        return (winner, "no-pieces")
    split = len(_group_of(p.pieces, theirs[0])) < len(theirs)
    return (winner, "cannot-reconnect" if split else "no-legal-move")


def error_reply(code: str, message: str) -> str:
    """`error <code> <message>`, the message flattened to one line."""
    flat = "".join(" " if unicodedata.category(c) == "Cc" else c for c in message).strip()
    return f"error {code} {flat}" if flat else f"error {code}"


def _status_reply(s: StatusLike) -> str:
    if s == "ongoing":
        return "status ongoing"
    if isinstance(s, (tuple, list)) and len(s) == 2 and s[0] in WINNERS and s[1] in REASONS:
        return f"status won {s[0]} {s[1]}"
    raise ValueError(f"status() returned {s!r}: expected 'ongoing' or (winner, reason) with "
                     f"winner in {WINNERS} and reason in {REASONS}")


_REQUESTS = ("ordo, capabilities, variant, position, game, moves, play, status, show, perft, "
             "quit")
MAX_GAME_MOVES = 1024


class Session:
    """The protocol state of one session: handle(line) gives the reply to one request line
    (without its line end), or None for a blank line.

    The game so far is `start` (where the last `position`, `variant` or `game` began) and
    `played` (your items of the moves played since), `position` the current position and
    `state` what your new_game() and play() made of it (None without new_game)."""

    def __init__(self, engine: Engine):
        self.engine = engine
        self.capabilities = _capability_tokens(engine.capabilities)
        self.position = start_position()
        self.start = self.position
        self.played: list[MoveLike] = []
        self._state: Any = None
        self._state_ready = not _stateful(engine)
        self.handshaken = False
        self.done = False
        self._version = 0  # changes with every new position, so moves() is asked again
        self._listed: Optional[tuple[int, dict]] = None
        # Moves your moves() listed more than once: the `moves` reply repeats them, so that
        # `ordo conform` reports the repetition instead of it being merged silently.
        self._repeated: list[str] = []

    @property
    def state(self):
        """Your state of the current game (new_game() called on first use)."""
        if not self._state_ready:
            self._state = _new_game(self.engine, self.position)
            self._state_ready = True
        return self._state

    def handle(self, line: str) -> Optional[str]:
        line = line[:-1] if line.endswith("\r") else line
        words = line.split()
        if not words:
            return None
        word, args = words[0], words[1:]
        if word == "quit":
            self.done = True
            return "bye"
        if word == "ordo":
            return self._handshake(args)
        if not self.handshaken:
            return error_reply("no-handshake", f"send 'ordo {VERSION}' first")
        try:
            return self._request(word, args, line.strip()[len(word):].strip())
        except Exception as e:  # your code failed: answer, never crash (the state as before)
            if not isinstance(e, EngineError):
                traceback.print_exc(file=sys.stderr)
            return error_reply("internal-error", f"{_quote(word)}: {e}")

    def _request(self, word: str, args: list[str], rest: str) -> str:
        simple = {"capabilities": lambda: "capabilities " + " ".join(self.capabilities),
                  "moves": lambda: " ".join(["moves", *sorted([*self._moves(), *self._repeated])]),
                  "status": lambda: _status_reply(_status_of(self.engine, self.position,
                                                             self.state)),
                  "show": lambda: f"position {format_position(self.position)}"}
        if word in simple:
            return error_reply("bad-arguments", f"'{word}' takes no arguments") if args \
                else simple[word]()
        handlers = {"variant": self._variant, "position": lambda _: self._set_text(rest),
                    "game": self._game, "play": self._play, "perft": self._perft}
        if word in handlers:
            return handlers[word](args)
        return error_reply("unknown-command",
                           f"{_quote(word)} is not a request ({_REQUESTS})")

    def _handshake(self, args: list[str]) -> str:
        if args == [str(VERSION)]:
            self.handshaken = True
            return f"ordo {VERSION} ok name {self.engine.name}"
        if len(args) == 1 and args[0].isascii() and args[0].isdigit():
            return error_reply("unsupported-version", f"this engine speaks ordo {VERSION}")
        return error_reply("bad-arguments", f"expected 'ordo {VERSION}' (the protocol version)")

    def supports(self, game: str, cols: int, rows: int) -> bool:
        """Whether the capabilities cover `game` on a `cols` x `rows` board."""
        return any(t in (f"{game}:*", f"{game}:{cols}x{rows}") for t in self.capabilities)

    def _unsupported(self, p: Position) -> Optional[str]:
        if self.supports(p.game, p.cols, p.rows):
            return None
        return error_reply("unsupported", f"this engine plays {' '.join(self.capabilities)}, "
                           f"not {p.game}:{p.cols}x{p.rows}")

    @staticmethod
    def _standard(args: list[str], usage: str) -> Union[Position, str]:
        """The start of `classic|x [10x8|8x8]`, or the error reply."""
        if len(args) not in (1, 2):
            return error_reply("bad-arguments", f"expected '{usage}'")
        game, board = args[0], (args[1] if len(args) == 2 else "10x8")
        if game not in ("classic", "x"):
            return error_reply("bad-arguments", f"unknown variant {_quote(game)}: "
                               "expected classic or x")
        if board not in _STARTS:
            return error_reply("bad-arguments", f"unknown board {_quote(board)}: "
                               "expected 10x8 or 8x8")
        return start_position(game, board)

    def _variant(self, args: list[str]) -> str:
        p = self._standard(args, "variant classic|x [10x8|8x8]")
        return p if isinstance(p, str) else self._set(p)

    def _set_text(self, text: str) -> str:
        if not text:
            return error_reply("bad-arguments", "expected 'position <notation>'")
        try:
            p = parse_position(text)
        except NotationError as e:
            return error_reply("bad-position", str(e))
        return self._set(p)

    def _refusal(self, p: Position) -> Optional[str]:
        """Why `p` cannot start a game here (the error reply), or None."""
        refusal = self._unsupported(p)
        if refusal:
            return refusal
        problem = _call(self.engine, "validate", p)
        return error_reply("invalid-position", problem) if problem else None

    def _set(self, p: Position) -> str:
        refusal = self._refusal(p)
        if refusal:
            return refusal
        self._commit(p, p, [], _new_game(self.engine, p))
        return "ok"

    def _commit(self, start: Position, p: Position, played: list, state) -> None:
        self.start, self.position, self.played = start, p, played
        self._state, self._state_ready = state, True
        self._version += 1

    def _moves(self) -> dict:
        """Your moves of the current position by canonical spelling (asked once each)."""
        if self._listed is None or self._listed[0] != self._version:
            repeated: list[str] = []
            items = _moves_of(self.engine, self.position, self.state)
            listed = listed_moves(self.position, items, repeated)
            self._listed, self._repeated = (self._version, listed), repeated
        return self._listed[1]

    def _play(self, args: list[str]) -> str:
        if len(args) != 1:
            return error_reply("bad-arguments", "expected 'play <move>' (one move)")
        try:
            m = parse_move(args[0])
        except NotationError as e:
            return error_reply("bad-move", str(e))
        item = self._item(self.position, self._moves(), m)
        if item is None:
            return error_reply("illegal-move", args[0])
        try:
            p, state = _play_of(self.engine, self.position, item, self.state)
        except (EngineError, ValueError) as e:  # your play() failed on a listed move: answer
            if not isinstance(e, EngineError):
                traceback.print_exc(file=sys.stderr)
            self._restore()
            return error_reply("illegal-move", args[0])
        self._commit(self.start, p, [*self.played, item], state)
        return "ok"

    def _restore(self) -> None:
        """After your play() failed: your state rebuilt by replaying the game so far, since
        play() may have changed it part way (nothing to do without new_game)."""
        if _stateful(self.engine):
            self._state = None
            self._state = replay(self.engine, self.start, self.played)[1]

    @staticmethod
    def _item(p: Position, listed: dict, m: Move) -> Optional[MoveLike]:
        """Your item for the move `m` in `p`, or None when you do not list it."""
        if not all(p.on_board(s) for st in m.steps for s in st.squares()):
            return None
        return listed.get(str(canonical_move(p, m)))

    def _game(self, args: list[str]) -> str:
        """`game <start> [moves <move> …]`: the start set, then each move played through your
        functions; on any error the previous position, game and state stay."""
        at = args.index("moves") if "moves" in args else len(args)
        if at == 0:
            return error_reply("bad-arguments", "expected 'game <start> [moves <move> …]': no "
                               "start before the moves")
        texts = args[at + 1:]
        if len(texts) > MAX_GAME_MOVES:
            return error_reply("bad-arguments", f"a game line has at most {MAX_GAME_MOVES} "
                               f"moves; this one has {len(texts)}")
        if args[0] == "start":
            start = start_position() if at == 1 else self._standard(
                args[1:at], "game start [classic|x [10x8|8x8]] [moves <move> …]")
            if isinstance(start, str):
                return start
        else:
            try:
                start = parse_position(" ".join(args[:at]))
            except NotationError as e:
                return error_reply("bad-position", str(e))
        refusal = self._refusal(start)
        if refusal:
            return refusal
        p, state, played = start, _new_game(self.engine, start), []
        for n, text in enumerate(texts, 1):
            try:
                m = parse_move(text)
            except NotationError as e:
                return error_reply("bad-move", f"move {n} of the game: {e}")
            listed = listed_moves(p, _moves_of(self.engine, p, state))
            item = self._item(p, listed, m)
            try:
                if item is None:
                    raise ValueError("not listed")
                p, state = _play_of(self.engine, p, item, state)
            except (EngineError, ValueError):  # not your move, or your play() failed on it
                return error_reply("illegal-move", f"{text} (move {n} of the game)")
            played.append(item)
        self._commit(start, p, played, state)
        return "ok"

    def _perft(self, args: list[str]) -> str:
        if len(args) != 1 or not (args[0].isascii() and args[0].isdigit()) or int(args[0]) > 8:
            return error_reply("bad-arguments", "expected 'perft <depth>' with a depth from 0 "
                               "to 8")
        depth = int(args[0])
        count = perft(self.engine, self.position, depth, self.start, self.played)
        return f"perft {depth} {count}"


def listed_moves(p: Position, items: Iterable[MoveLike], repeated: Optional[list] = None) -> dict:
    """Your move list as {canonical spelling: your item}, the first item of each move kept; a
    malformed item raises ValueError. A move listed again (in any spelling) is never merged
    silently: its canonical spelling is appended to `repeated` once per repetition."""
    out = {}
    for item in items:
        try:
            m = item if isinstance(item, Move) else parse_move(str(item))
        except NotationError as e:
            raise ValueError(f"moves() listed {item!r}, which is not move notation: {e}") from None
        key = str(canonical_move(p, m))
        if key in out:
            if repeated is not None:
                repeated.append(key)
        else:
            out[key] = item
    return out


def perft(engine: Engine, p: Position, depth: int, start: Optional[Position] = None,
          played: Iterable[MoveLike] = ()) -> int:
    """The number of move sequences of `depth` turns from `p` (spec/perft.md, ORDOX-5.1). For
    an engine with new_game, each position's state is rebuilt by replaying the game from
    `start` (default: `p`) through `played` (your items that lead from `start` to `p`) and the
    moves of the sequence, so that rules that look at the game are counted."""
    if not _stateful(engine):
        if depth == 0:
            return 1
        items = list(listed_moves(p, _call(engine, "moves", p)).values())
        if depth == 1:
            return len(items)
        return sum(perft(engine, _play_of(engine, p, m, None)[0], depth - 1) for m in items)
    return _perft_replayed(engine, p if start is None else start, list(played), depth)


def _perft_replayed(engine: Engine, start: Position, path: list, depth: int) -> int:
    if depth == 0:
        return 1
    p, state = replay(engine, start, path)
    items = list(listed_moves(p, _call(engine, "moves", p, state)).values())
    if depth == 1:
        return len(items)
    return sum(_perft_replayed(engine, start, [*path, m], depth - 1) for m in items)


def _as_position(value: Union[Position, str], what: str) -> Position:
    if isinstance(value, Position):
        return value
    try:
        return parse_position(str(value))
    except NotationError as e:
        raise ValueError(f"{what} returned {value!r}, which is not a position: {e}") from None


def serve(engine: Engine, input=None, output=None) -> None:
    """Run the protocol on `input` and `output` (binary streams; standard input and output by
    default) until `quit` or the end of input. One reply line per request, flushed at once."""
    inp = input if input is not None else sys.stdin.buffer
    out = output if output is not None else sys.stdout.buffer
    session = Session(engine)
    while not session.done:
        raw = inp.readline(MAX_REQUEST + 2)
        if not raw:
            return
        if raw.endswith(b"\n"):
            raw = raw[:-1]
        elif len(raw) == MAX_REQUEST + 2:
            while (more := inp.readline(MAX_REQUEST)) and not more.endswith(b"\n"):
                pass
        raw = raw[:-1] if raw.endswith(b"\r") else raw
        if len(raw) > MAX_REQUEST:
            reply = error_reply("line-too-long", f"a request line has at most {MAX_REQUEST} "
                                "bytes")
        else:
            try:
                reply = session.handle(raw.decode("utf-8"))
            except UnicodeDecodeError:
                reply = error_reply("bad-encoding", "the request line is not UTF-8")
        if reply is not None:
            out.write(reply.encode("utf-8") + b"\n")
            out.flush()
