#!/usr/bin/env python3
"""A sample Ordo engine built on ordo_protocol.py.

THE RULES HERE ARE NOT OURS TO WRITE: this sample's three functions are a stand-in for "your
program", and they delegate to the `ordo` binary of this project (`ordo moves`, `ordo play`,
`ordo show`). Replace them with calls into your own engine. What the sample does exercise for
real is the module: every position and move crosses it through parse_position, format_position,
parse_move and format_move, and the protocol loop (handshake, capabilities, position, moves,
play, status, show, errors) is the module's.

Usage:
    python3 sample_engine.py               declares capabilities classic:10x8 x:10x8
    python3 sample_engine.py --all-boards  declares classic:* x:* (every board of ORDO-1.5)
The `ordo` binary is $ORDO_BIN, else `ordo` on the PATH, else the one `cargo build --release`
left in this checkout (target/release/ordo).

    ordo conform "python3 spec/conformance/adapters/python/sample_engine.py"
"""

import os
import re
import shutil
import subprocess
import sys

sys.dont_write_bytecode = True  # leave no __pycache__ next to the module
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ordo_protocol as op  # noqa: E402

def find_ordo():
    """$ORDO_BIN, else `ordo` on the PATH, else this checkout's target/release or target/debug."""
    if os.environ.get("ORDO_BIN"):
        return os.environ["ORDO_BIN"]
    if shutil.which("ordo"):
        return shutil.which("ordo")
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), *[os.pardir] * 4)
    for profile in ("release", "debug"):
        built = os.path.normpath(os.path.join(root, "target", profile, "ordo"))
        if os.path.isfile(built) and os.access(built, os.X_OK):
            return built
    return None


ORDO = find_ordo()
_shown: dict[str, tuple[int, str, str]] = {}


def ordo(*args: str) -> tuple[int, str, str]:
    """Run the ordo binary: (exit status, standard output, standard error)."""
    r = subprocess.run([ORDO, *args], capture_output=True, text=True)
    return r.returncode, r.stdout, r.stderr


def show(p: op.Position) -> tuple[int, str, str]:
    text = op.format_position(p)
    if text not in _shown:
        _shown[text] = ordo("show", "--position", text)
    return _shown[text]


def validate(p: op.Position):
    """Why the position cannot be set up (ORDO-2.3), as `ordo show` says, or None."""
    code, _, err = show(p)
    return err.strip().removeprefix("ordo: error: --position: ") if code else None


def moves(p: op.Position) -> list[op.Move]:
    code, out, err = ordo("moves", "--position", op.format_position(p))
    if code:
        raise RuntimeError(f"ordo moves failed: {err.strip()}")
    return [op.parse_move(line) for line in out.split()]


def play(p: op.Position, move: op.Move) -> op.Position:
    code, out, err = ordo("play", "--position", op.format_position(p), op.format_move(move))
    found = re.search(r"^position: (.*)$", out, re.M)
    if code or not found:
        raise RuntimeError(f"ordo play failed: {err.strip()}")
    return op.parse_position(found.group(1))


def status(p: op.Position):
    _, out, _ = show(p)
    if re.search(r"^status: ongoing$", out, re.M):
        return "ongoing"
    won = re.search(r"^status: (White|Black) wins \(([a-z-]+),", out, re.M)
    if not won:
        raise RuntimeError(f"no status in the output of ordo show: {out!r}")
    return won.group(1).lower(), won.group(2)


def main() -> int:
    if not ORDO:
        print("sample_engine.py: no ordo binary: not in $ORDO_BIN, not on the PATH, and no "
              "target/release/ordo in this checkout; install ordo or set ORDO_BIN",
              file=sys.stderr)
        return 2
    caps = "classic:* x:*" if "--all-boards" in sys.argv[1:] else "classic:10x8 x:10x8"
    engine = op.Engine("python sample (delegates to ordo)", moves, play, status,
                       capabilities=caps, validate=validate)
    op.serve(engine)
    return 0


if __name__ == "__main__":
    sys.exit(main())
