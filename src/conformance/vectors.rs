//! The conformance vectors of `spec/conformance/` (format: `spec/conformance/README.md`).
//!
//! Two files, JSON Lines, one position per line:
//! - `clauses.jsonl`: the hand-picked positions of [`hand_picked`], at least one for every
//!   clause of `spec/clauses.toml` and for every situation a ruling decides;
//! - `playouts.jsonl`: positions reached by seeded random playouts ([`random_picks`]) from the
//!   standard start, the 8 x 8 start and small boards, in both games.
//!
//! Only the positions, the clauses they exercise and their notes are written by hand; the
//! expected moves, status and perft counts are computed by the reference engine
//! ([`build_vector`]), so `ordo conformance generate` rebuilds both files byte for byte.

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use super::Rng;
use crate::notation::{format_move, format_position, parse_position, parse_square};
use crate::reference::{is_one_group, Reference};
use crate::rules::{setup, Color, Dims, Engine, Heading, Move, Position, Status, Step, Variant};
use crate::rules::{Square, WinReason};

/// The file of hand-picked vectors.
pub const CLAUSES_FILE: &str = "clauses.jsonl";
/// The file of random playout vectors.
pub const PLAYOUTS_FILE: &str = "playouts.jsonl";
/// The seed of the random playout vectors.
pub const PLAYOUT_SEED: u64 = 20_090_115;
/// How many random playout vectors are written.
pub const PLAYOUT_COUNT: usize = 100;
/// Perft is listed one level deeper while the next count is estimated at most this (see
/// [`perft_list`]).
pub const PERFT_LEAF_BUDGET: u64 = 6_000;
/// The deepest perft level listed.
pub const PERFT_MAX_DEPTH: u32 = 3;

/// One test vector: a position and everything an engine must say about it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Vector {
    /// Unique name of the vector within the kit.
    pub id: String,
    /// `classic` or `x` (the same as the variant field of `position`).
    pub variant: String,
    /// The position in the canonical notation of spec/notation.md.
    pub position: String,
    /// Every legal move in canonical notation, sorted by byte order, each once.
    pub moves: Vec<String>,
    /// The game status.
    pub status: VectorStatus,
    /// The clauses the vector exercises.
    pub clauses: Vec<String>,
    /// `perft[i]` is perft(i + 1): the number of move sequences of length i + 1 (turns, not
    /// positions, ORDOX-5.1).
    pub perft: Vec<u64>,
    /// One line: what the vector shows.
    pub note: String,
}

/// The status of a vector's position.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "state", rename_all = "kebab-case")]
pub enum VectorStatus {
    /// The side to move has a legal move.
    Ongoing,
    /// The game is over.
    Won {
        /// `white` or `black`.
        winner: String,
        /// `home-row`, `no-pieces`, `cannot-reconnect` or `no-legal-move`.
        reason: String,
        /// The clause that decided it (`ORDO-10.1` .. `ORDO-10.4`).
        clause: String,
    },
}

impl VectorStatus {
    /// The vector form of a status.
    pub fn of(s: Status) -> VectorStatus {
        match s {
            Status::Ongoing => VectorStatus::Ongoing,
            Status::Won { winner, reason } => VectorStatus::Won {
                winner: winner.name().to_string(),
                reason: reason.name().to_string(),
                clause: reason.clause().to_string(),
            },
        }
    }

    /// Back to a status; `None` when a field holds an unknown name or the clause does not
    /// match the reason.
    pub fn to_status(&self) -> Option<Status> {
        match self {
            VectorStatus::Ongoing => Some(Status::Ongoing),
            VectorStatus::Won {
                winner,
                reason,
                clause,
            } => {
                let winner = Color::ALL.into_iter().find(|c| c.name() == winner)?;
                let reason = WinReason::from_name(reason)?;
                (reason.clause() == clause).then_some(Status::Won { winner, reason })
            }
        }
    }
}

/// A hand-written entry: the position, the clauses it exercises and what it shows. Everything
/// else in a vector is computed.
#[derive(Clone, Debug)]
pub struct HandPicked {
    pub id: String,
    pub position: Position,
    pub clauses: Vec<&'static str>,
    pub note: String,
}

/// A position from square lists, e.g. `squares(Variant::Classic, 5, 5, Color::White, "c1 c2",
/// "d4")`. Panics on a malformed list: the lists are constants of this file, checked by its
/// tests.
pub fn squares(
    variant: Variant,
    cols: usize,
    rows: usize,
    to_move: Color,
    white: &str,
    black: &str,
) -> Position {
    let dims = Dims::new(cols, rows).expect("vector board within limits");
    let mut p = Position::empty(dims, to_move, variant);
    for (list, c) in [(white, Color::White), (black, Color::Black)] {
        for s in list.split_whitespace() {
            let sq = parse_square(s).expect("vector square");
            assert!(dims.contains(sq), "{s} is off the vector's board");
            p.set(sq, Some(c));
        }
    }
    p
}

/// The position after playing `line` (canonical or any accepted spelling) from `start` with the
/// reference engine. Panics if a move is illegal: the lines are constants of this file.
fn after(start: Position, line: &[&str]) -> Position {
    let mut e = Reference::from_position(&start).expect("vector start position");
    for m in line {
        let mv = crate::notation::parse_move(m).expect("vector move");
        e = e
            .play(&mv)
            .unwrap_or_else(|_| panic!("vector move {m} is illegal"));
    }
    e.to_position()
}

/// The hand-picked vectors, in file order: at least one per clause, and one per situation that a
/// ruling of spec/rules.md decides.
pub fn hand_picked() -> Vec<HandPicked> {
    use Color::{Black as B, White as W};
    const C: Variant = Variant::Classic;
    const X: Variant = Variant::X;
    let mut v: Vec<HandPicked> = Vec::new();
    let mut add = |id: &str, position: Position, clauses: &[&'static str], note: &str| {
        v.push(HandPicked {
            id: id.to_string(),
            position,
            clauses: clauses.to_vec(),
            note: note.to_string(),
        })
    };

    // ---- Starts, boards, coordinates (ORDO-1, ORDO-2, ORDO-3.1) ----
    add(
        "start-10x8-classic",
        setup::standard(C),
        &[
            "ORDO-1.1", "ORDO-1.2", "ORDO-1.3", "ORDO-2.1", "ORDO-2.2", "ORDO-3.1", "ORDO-3.2",
            "ORDO-4.3", "ORDO-5.1", "ORDO-6.1", "ORDO-6.2", "ORDO-7.1", "ORDO-8.1", "ORDO-8.2",
        ],
        "the standard classic start (10 x 8, 20 pieces each, White to move): 56 moves",
    );
    add(
        "start-10x8-x",
        setup::standard(X),
        &[
            "ORDO-1.1",
            "ORDO-2.2",
            "ORDO-3.1",
            "ORDOX-1.1",
            "ORDOX-2.1",
            "ORDOX-2.2",
            "ORDOX-3.1",
            "ORDOX-3.2",
            "ORDOX-5.1",
        ],
        "the standard Ordo X start: same setup as classic, 2062 turns (a turn is one move)",
    );
    add(
        "start-8x8-classic",
        setup::chess_board(C),
        &["ORDO-1.5", "ORDO-1.6", "ORDO-2.1", "ORDO-3.1"],
        "the 8 x 8 start: the standard setup without columns a and j, 16 pieces each",
    );
    add(
        "start-8x8-x",
        setup::chess_board(X),
        &["ORDO-1.5", "ORDO-1.6", "ORDOX-1.1"],
        "the 8 x 8 start in Ordo X",
    );
    add(
        "start-10x8-black-to-move",
        after(setup::standard(C), &["e3-e4"]),
        &["ORDO-1.3", "ORDO-1.4", "ORDO-3.1", "ORDO-8.1", "ORDO-8.2"],
        "after 1. e3-e4 Black moves, and forward for Black is down the rows",
    );
    add(
        "start-10x8-x-black-to-move",
        after(setup::standard(X), &["c2:d2-c3"]),
        &["ORDO-1.4", "ORDO-3.1", "ORDOX-2.2", "ORDOX-3.1"],
        "Ordo X after a horizontal ordo step: Black's forward steps go down the rows",
    );
    add(
        "board-2x2",
        squares(C, 2, 2, W, "a1", "b2"),
        &["ORDO-1.5", "ORDO-1.3", "ORDO-6.4"],
        "the smallest board: a1-a2 reaches Black's home row, a1xb2 captures, no backward move",
    );
    add(
        "board-2x2-x",
        squares(X, 2, 2, B, "a1", "b2"),
        &["ORDO-1.5", "ORDOX-2.1", "ORDOX-3.1"],
        "the smallest board in Ordo X, Black to move: b2-a2 alone is no turn, b2-a2,a2xa1 is",
    );
    add(
        "board-16x8",
        squares(C, 16, 8, W, "n1 o1 p2", "a8 b8"),
        &["ORDO-1.2", "ORDO-1.5", "ORDO-4.3"],
        "the widest board (16 x 8, columns a..p): White's pieces on the right edge",
    );
    add(
        "board-8x16",
        squares(C, 8, 16, B, "h1", "a16 a15 b15"),
        &["ORDO-1.2", "ORDO-1.5", "ORDO-1.3"],
        "the tallest board (8 x 16, rows 1..16), Black to move towards row 1",
    );
    add(
        "board-4x4-home-rows-classic",
        setup::filled_rows(Dims::new(4, 4).expect("4x4"), 1, C).expect("4x4 start"),
        &["ORDO-1.5", "ORDO-8.2"],
        "a 4 x 4 board with each side on its home row (perft 4 is 10,286 in spec/perft.md)",
    );
    add(
        "board-4x4-home-rows-x",
        setup::filled_rows(Dims::new(4, 4).expect("4x4"), 1, X).expect("4x4 start"),
        &["ORDO-1.5", "ORDOX-2.2", "ORDOX-2.3"],
        "the 4 x 4 start in Ordo X (perft 4 is 240,206 in spec/perft.md)",
    );
    add(
        "directions-lone-white",
        squares(C, 5, 5, W, "c2", "a5"),
        &["ORDO-1.4", "ORDO-4.2", "ORDO-6.1", "ORDO-8.1"],
        "a lone white piece: 11 moves forward, diagonally forward and sideways, any distance",
    );
    add(
        "directions-lone-black",
        squares(C, 5, 5, B, "e1", "c4"),
        &["ORDO-1.2", "ORDO-1.3", "ORDO-1.4", "ORDO-8.1"],
        "a lone black piece moves down the board: c4-c3 is forward for Black, c4-c5 is not",
    );
    add(
        "edge-left-column",
        squares(C, 5, 5, W, "a1 a2", "e5"),
        &["ORDO-1.4", "ORDO-8.2", "ORDO-6.3"],
        "pieces on the left edge: nothing leaves the board; the vertical ordo moves only right",
    );
    add(
        "edge-right-column-black",
        squares(C, 5, 5, B, "a1", "e5 e4"),
        &["ORDO-1.4", "ORDO-8.2"],
        "a black vertical ordo on the right edge moves only left; singles stay on the board",
    );
    add(
        "edge-corner-far",
        squares(C, 4, 4, W, "c3 d3", "a4"),
        &["ORDO-1.3", "ORDO-10.1", "ORDO-8.2"],
        "next to Black's home row in the corner: every forward move wins at once",
    );

    // ---- Set-up positions (ORDO-2.3) ----
    add(
        "setup-both-split",
        squares(C, 5, 5, W, "a1 b1 d1", "a5 e5"),
        &["ORDO-2.3", "ORDO-9.1", "ORDO-9.2"],
        "a set-up position with both colours split and unequal numbers; White must reconnect",
    );
    add(
        "setup-mover-without-pieces",
        squares(C, 4, 4, W, "", "d4"),
        &["ORDO-2.3", "ORDO-10.2", "ORDO-10.5"],
        "the side to move has no piece: Black has already won, and there are no moves",
    );
    add(
        "setup-last-mover-on-home-row",
        squares(C, 4, 4, B, "a4", "d4"),
        &["ORDO-2.3", "ORDO-10.1", "ORDO-10.5"],
        "White (who moved last) stands on Black's home row: White has won, no moves",
    );
    add(
        "setup-last-mover-on-home-row-x",
        squares(X, 4, 4, W, "b2", "c1 d2"),
        &["ORDO-2.3", "ORDO-10.1", "ORDO-10.5", "ORDOX-1.1"],
        "Ordo X: Black (who moved last) stands on White's home row: Black has won",
    );
    add(
        "setup-unequal-numbers",
        squares(C, 5, 5, B, "b2", "a4 b4 c4 d4 e4 c5"),
        &["ORDO-2.3", "ORDO-5.1", "ORDO-5.2", "ORDO-8.2"],
        "six black pieces against one white: numbers need not be equal",
    );

    // ---- Turns (ORDO-3) ----
    add(
        "repetition-is-no-end",
        squares(C, 4, 4, W, "a1", "d4"),
        &["ORDO-3.3", "ORDO-3.2"],
        "reached again after a1-b1 d4-c4 b1-a1 c4-d4: the moves depend on the position alone",
    );
    add(
        "capture-optional",
        squares(C, 5, 5, W, "c2", "c3 c4"),
        &["ORDO-3.4", "ORDO-6.3", "ORDO-6.4"],
        "c2xc3 is available but every non-capturing move stays legal",
    );
    add(
        "capture-optional-x",
        squares(X, 5, 5, W, "c2", "c3 d3 d4"),
        &["ORDO-3.4", "ORDOX-2.1", "ORDOX-3.1"],
        "Ordo X: captures are available and optional, also as the forward step of a turn",
    );

    // ---- Groups and ordos (ORDO-4, ORDO-5) ----
    add(
        "diagonal-neighbours",
        squares(C, 5, 5, W, "a1 b2", "e5"),
        &["ORDO-4.1", "ORDO-4.3", "ORDO-5.1"],
        "a1 and b2 touch at a corner: one group, but no ordo; only 5 moves keep them together",
    );
    add(
        "single-piece-is-a-group",
        squares(C, 5, 5, W, "c2", "a5 b5 c5"),
        &["ORDO-4.2", "ORDO-6.1"],
        "a player's last piece is one group and moves freely",
    );
    add(
        "connection-rule-split-opponent",
        squares(C, 5, 5, W, "b2 c2", "b4 c3 d4"),
        &["ORDO-4.3", "ORDO-6.4", "ORDO-9.3"],
        "c2xc3 splits Black, which is allowed: the connection rule binds only the mover",
    );
    add(
        "sub-runs-classic",
        squares(C, 4, 4, W, "a1 b1 c1", "d4"),
        &["ORDO-5.1", "ORDO-5.2", "ORDO-6.2", "ORDO-4.3", "ORDO-7.1"],
        "every run of two or three in a1 b1 c1 is an ordo (a1:b1, b1:c1, a1:c1); b1 moves alone",
    );
    add(
        "sub-runs-vertical-classic",
        squares(C, 5, 5, B, "e1", "b5 b4 b3"),
        &["ORDO-5.2", "ORDO-8.2"],
        "a black column of three: b5:b4, b4:b3 and the whole line move sideways as ordos",
    );
    add(
        "sub-runs-x",
        squares(X, 5, 5, W, "a1 b1 c1", "e5"),
        &["ORDO-5.2", "ORDOX-2.2", "ORDOX-2.3"],
        "Ordo X: sub-runs of a1 b1 c1 move side by side, diagonally and in single file",
    );

    // ---- Singletons (ORDO-6) ----
    add(
        "singleton-path",
        squares(C, 5, 5, W, "b1 c1", "c2 c4"),
        &["ORDO-6.2", "ORDO-6.3", "ORDO-6.4"],
        "c1 captures c2 but may not jump it to c3 or c4; b1 may not pass over c1",
    );
    add(
        "capture-result",
        after(squares(C, 5, 5, W, "b1 c1", "c2 c4"), &["c1xc2"]),
        &["ORDO-6.4"],
        "after c1xc2 the captured piece is gone; Black to move with one piece",
    );

    // ---- Ordos (ORDO-7) ----
    add(
        "ordo-same-distance",
        squares(C, 5, 5, W, "a1 b1 c1", "e5"),
        &["ORDO-7.1", "ORDO-5.2"],
        "a1:c1 moves one to four rows up, every piece by the same distance",
    );
    add(
        "ordo-never-captures",
        squares(C, 4, 4, W, "a1 b1", "a2 d4"),
        &["ORDO-7.2", "ORDO-6.4"],
        "a1:b1-a2 would land on Black's a2: not a move; the single a1xa2 captures",
    );
    add(
        "ordo-never-captures-x",
        squares(X, 5, 5, W, "a1 b1", "a2 e5"),
        &["ORDO-7.2", "ORDOX-2.2"],
        "Ordo X: no ordo step may land on a2, neither forward nor diagonally",
    );
    add(
        "ordo-never-captures-vertical",
        squares(C, 5, 5, W, "a2 a3", "b2 e5"),
        &["ORDO-7.2", "ORDO-8.2"],
        "the vertical ordo a2:a3 may not move right onto b2; a2xb2 as a single may",
    );
    add(
        "ordo-path",
        squares(C, 4, 5, W, "a1 b1", "b3 d5"),
        &["ORDO-7.3"],
        "a1:b1 may go to row 2 but not past or onto b3",
    );

    // ---- Classic directions (ORDO-8) ----
    add(
        "classic-horizontal-ordo",
        squares(C, 4, 4, W, "a1 b1", "d4"),
        &["ORDO-8.2", "ORDO-7.1"],
        "a horizontal ordo moves only forward: no single file, no diagonal",
    );
    add(
        "classic-vertical-ordo",
        squares(C, 4, 4, W, "a1 a2", "d4"),
        &["ORDO-8.2"],
        "a vertical ordo moves only sideways: no single file forward, no diagonal",
    );
    add(
        "classic-no-backward-when-connected",
        squares(C, 5, 7, W, "b4 b5 c4", "e7"),
        &["ORDO-8.1", "ORDO-9.2"],
        "a connected player has no backward or diagonally backward move",
    );

    // ---- Split group (ORDO-9) ----
    add(
        "split-backward-moves",
        squares(C, 5, 7, W, "a5 b5 c3", "e7"),
        &["ORDO-9.1", "ORDO-9.2", "ORDO-4.3"],
        "White is split: a5:b5-a4 (horizontal ordo backward) and b5-b4 reconnect",
    );
    add(
        "split-vertical-ordo-not-backward",
        squares(C, 5, 7, W, "b5 b6 a3", "e7"),
        &["ORDO-9.2", "ORDO-8.2"],
        "split, but a vertical ordo still moves only sideways: b5:b6-b4 is not a move",
    );
    add(
        "split-diagonal-backward",
        squares(C, 6, 6, B, "f1", "b5 e2"),
        &["ORDO-9.1", "ORDO-9.2", "ORDO-1.4"],
        "Black is split: e2-c4, diagonally backward (up the board), reconnects",
    );
    add(
        "reconnect-through-capture",
        squares(C, 4, 6, W, "b2 b4", "a3 b3 c3"),
        &["ORDO-9.1", "ORDO-6.4", "ORDO-9.2"],
        "White is split by the black wall; every reconnecting move is a capture",
    );
    add(
        "classic-split-removes-nothing",
        after(squares(C, 5, 5, W, "b2 c2", "b4 c3 d4"), &["c2xc3"]),
        &["ORDO-9.3", "ORDO-9.1", "ORDO-9.2"],
        "after c2xc3 Black keeps b4 and d4 in two groups and must reconnect",
    );

    // ---- End of the game (ORDO-10) ----
    add(
        "home-row-win-available",
        squares(C, 5, 5, W, "c3", "a5"),
        &["ORDO-10.1"],
        "c3-c5 and c3-e5 reach Black's home row; c3xa5 also takes Black's last piece",
    );
    add(
        "home-row-reached",
        squares(C, 5, 5, B, "c5", "a5"),
        &["ORDO-10.1", "ORDO-10.5"],
        "White stands on Black's home row: White has won and Black has no move",
    );
    add(
        "home-row-black-wins",
        squares(C, 5, 5, W, "e4", "c1"),
        &["ORDO-10.1", "ORDO-1.3"],
        "Black reached row 1, White's home row: Black has won",
    );
    add(
        "no-pieces-left",
        squares(C, 5, 5, B, "c3", ""),
        &["ORDO-10.2", "ORDO-10.5"],
        "Black's last piece was captured: White has won",
    );
    add(
        "last-piece-sideways-classic",
        squares(C, 5, 5, W, "b2", "c2"),
        &["ORDO-10.2", "ORDO-6.4", "ORDO-8.1"],
        "b2xc2 captures Black's last piece with a sideways step",
    );
    add(
        "home-row-and-last-piece",
        squares(C, 5, 5, B, "c5", ""),
        &["ORDO-10.5", "ORDO-10.1", "ORDO-10.2"],
        "both wins at once: the reason reported is the home row",
    );
    add(
        "cannot-reconnect",
        parse_position("4/W1BW/W3 w classic").expect("vector"),
        &["ORDO-10.3", "ORDO-9.1", "ORDO-9.2", "ORDO-3.2"],
        "White is split and no move reconnects, backward ones included: Black wins",
    );
    add(
        "cannot-reconnect-black",
        parse_position("4/W1BW/W3 w classic")
            .expect("vector")
            .colour_flipped(),
        &["ORDO-10.3", "ORDO-9.1"],
        "Black is split, to move, and nothing reconnects: White wins",
    );
    add(
        "no-legal-move-unreachable",
        squares(C, 3, 4, W, "a1 b1 c1 a2 c2", "b4"),
        &["ORDO-10.4", "ORDO-4.3"],
        "ORDO-10.4 has no reachable example (see its observation): a packed connected player still has a forward step",
    );

    // ---- Ordo X: directions and steps (ORDOX-1, ORDOX-2) ----
    add(
        "x-lone-singleton",
        squares(X, 5, 5, W, "c2", "e5"),
        &["ORDOX-2.1", "ORDOX-3.1", "ORDOX-5.1", "ORDOX-1.2"],
        "a lone piece: 7 forward steps and 26 sideways-then-forward turns, 33 moves",
    );
    add(
        "x-turns-not-positions",
        squares(X, 4, 4, B, "a1", "b3"),
        &["ORDOX-5.1", "ORDOX-3.1"],
        "b3-b2 and b3-c3,c3-b2 reach the same position and are two moves",
    );
    add(
        "x-horizontal-ordo",
        squares(X, 5, 5, W, "a1 b1", "e5"),
        &["ORDOX-2.2", "ORDOX-2.3", "ORDOX-3.1"],
        "a horizontal ordo: forward, diagonally forward, single file sideways then forward",
    );
    add(
        "x-vertical-ordo",
        squares(X, 5, 5, W, "a1 a2", "e5"),
        &["ORDOX-2.2", "ORDOX-2.3"],
        "a vertical ordo: single file forward, diagonally, side by side sideways then forward",
    );
    add(
        "x-single-file-vacated",
        squares(X, 5, 5, W, "a1 a2", "a4 e5"),
        &["ORDOX-2.3", "ORDO-7.3"],
        "a1:a2-a2 enters the square its own ordo vacates; a1:a2-a3 would land on a4",
    );
    add(
        "x-single-file-sideways-long",
        squares(X, 6, 5, B, "f1", "a4 b4 c4"),
        &["ORDOX-2.3", "ORDOX-2.2", "ORDO-5.2"],
        "a black row of three slides sideways in single file, then steps forward",
    );
    add(
        "x-connection-each-step",
        squares(X, 5, 5, W, "b1 c2", "e5"),
        &["ORDOX-3.2", "ORDO-4.3"],
        "b1-a1,a1-b2 is not a turn: a1 is apart from c2 after the first step",
    );
    add(
        "x-second-step-other-piece",
        squares(X, 5, 5, W, "a1 b1 b2", "e5"),
        &["ORDOX-3.1"],
        "the forward step may be made by another piece: b1-c1,a1-a2",
    );
    add(
        "x-sideways-capture-then-forward",
        squares(X, 5, 5, W, "b1 b2", "c2 e5"),
        &["ORDOX-3.2", "ORDO-6.4", "ORDOX-3.1"],
        "a sideways step may capture (b2xc2) and is followed by a forward step",
    );
    add(
        "x-sideways-no-follow-up-unreachable",
        squares(X, 3, 4, W, "a1 b1 c1 a2", "c4"),
        &["ORDOX-3.3", "ORDO-10.4"],
        "ORDOX-3.3 has no reachable example (see its observation): every sideways step here has a forward follow-up",
    );
    add(
        "x-sideways-capture-last-piece",
        squares(X, 5, 5, W, "b2", "c2"),
        &["ORDOX-3.4", "ORDO-10.2"],
        "b2xc2 takes Black's last piece: the turn is that sideways step alone",
    );
    add(
        "x-sideways-capture-last-piece-after",
        squares(X, 5, 5, B, "c2", ""),
        &["ORDOX-3.4", "ORDO-10.2"],
        "after b2xc2 Black has no piece: White has won",
    );
    add(
        "x-home-row-second-step",
        squares(X, 4, 4, W, "b3", "d2"),
        &["ORDO-10.1", "ORDOX-3.1"],
        "b3-a3,a3-a4 reaches Black's home row with the forward step of the turn",
    );
    add(
        "x-split-never-backward",
        squares(X, 5, 7, W, "a5 b5 c3", "e7"),
        &["ORDOX-1.2", "ORDOX-3.5"],
        "Ordo X, White split: no backward move, the first step must reconnect",
    );
    add(
        "x-split-cannot-reconnect",
        parse_position("4/WBBW/4 w x").expect("vector"),
        &["ORDOX-3.5", "ORDO-10.3"],
        "Ordo X, White split and no first step reconnects: Black wins",
    );

    // ---- Ordo X: removal and ties (ORDOX-4) ----
    add(
        "x-removal-smaller-groups",
        squares(X, 5, 5, W, "b2 c2", "a4 b4 c3 d4"),
        &["ORDOX-4.1", "ORDO-6.4"],
        "c2xc3 splits Black into a4 b4 and d4: d4 is removed in the same step",
    );
    add(
        "x-removal-result",
        after(squares(X, 5, 5, W, "b2 c2", "a4 b4 c3 d4"), &["c2xc3"]),
        &["ORDOX-4.1", "ORDO-9.3"],
        "after c2xc3 only the largest black group a4 b4 is left",
    );
    add(
        "x-removal-001",
        squares(X, 6, 6, W, "c3 d3", "a5 b5 c5 d4 e5 f5"),
        &["ORDOX-4.1"],
        "001's example: d3xd4 removes the captured piece and the smaller subgroup e5 f5",
    );
    add(
        "x-removal-004-one-two-five",
        squares(X, 7, 7, W, "c3 d3", "a5 b5 c5 a6 b6 d4 e5 f5 e3"),
        &["ORDOX-4.1"],
        "004's example: d3xd4 leaves groups of one, two and five; only the five stay",
    );
    add(
        "x-tie-choice",
        squares(X, 5, 5, W, "b2 c2", "a4 b4 c3 d4 e4"),
        &["ORDOX-4.2", "ORDOX-4.1"],
        "c2xc3 leaves two groups of two: c2xc3/a4 and c2xc3/d4 are two moves, c2xc3 is none",
    );
    add(
        "x-tie-004-five-five",
        squares(X, 7, 7, W, "c3 d3", "a5 b5 c5 a6 b6 d4 e5 f5 g5 f6 g6"),
        &["ORDOX-4.2", "ORDOX-4.1"],
        "004's example: d3xd4 leaves two groups of five; the capturer keeps either",
    );
    add(
        "x-tie-on-sideways-step",
        squares(X, 7, 7, W, "e4 e5", "f5 g6 g7 g4 g3"),
        &["ORDOX-4.2", "ORDOX-4.1", "ORDOX-3.2"],
        "the sideways capture e5xf5 leaves a tie: the kept group is named, then a forward step",
    );
    add(
        "x-removal-opponent-already-split",
        squares(X, 5, 5, W, "b2", "a5 b5 c3 e5"),
        &["ORDOX-4.1", "ORDO-2.3"],
        "Black is split in the set-up; after b2xc3 only its largest group a5 b5 stays",
    );
    v
}

/// Start positions of the random playouts: the standard start and the 8 x 8 start, and small
/// boards with each side on its home row or its two nearest rows, in both games.
pub fn playout_starts() -> Vec<(String, Position)> {
    let mut v = Vec::new();
    for variant in Variant::ALL {
        v.push((
            format!("the 10x8 {variant} start"),
            setup::standard(variant),
        ));
        v.push((
            format!("the 8x8 {variant} start"),
            setup::chess_board(variant),
        ));
        for (cols, rows, depth) in [(4, 4, 1), (5, 5, 1), (5, 6, 2), (6, 6, 2), (3, 5, 1)] {
            let dims = Dims::new(cols, rows).expect("small board");
            if let Some(p) = setup::filled_rows(dims, depth, variant) {
                v.push((format!("a {dims} {variant} start, {depth} row(s) each"), p));
            }
        }
    }
    v
}

/// Play up to `plies` uniformly random moves (among the legal moves sorted by notation) from
/// `start` with engine `E`, stopping early at the end of the game. Returns every position
/// visited, the start included, with the move that led to it.
pub fn random_line<E: Engine>(
    start: &Position,
    plies: u32,
    rng: &mut Rng,
) -> Vec<(Option<Move>, Position)> {
    let Ok(mut cur) = E::from_position(start) else {
        return Vec::new();
    };
    let mut out = vec![(None, start.clone())];
    for _ in 0..plies {
        let mut moves = cur.legal_moves();
        if moves.is_empty() {
            break;
        }
        moves.sort_by_cached_key(format_move);
        let mv = moves[rng.below(moves.len() as u64) as usize];
        cur = cur.apply(&mv);
        out.push((Some(mv), cur.to_position()));
    }
    out
}

/// Which start each random playout vector begins from: indexes into [`playout_starts`]. The
/// large Ordo X boards, whose move lists run to thousands of turns, are used sparingly; small
/// boards, where games end within the playout and splits and ties are common, most.
fn playout_schedule(starts: &[(String, Position)]) -> Vec<usize> {
    let mut big_x = Vec::new();
    let mut big_classic = Vec::new();
    let mut small = Vec::new();
    for (i, (_, p)) in starts.iter().enumerate() {
        let big = p.dims().len() >= 64;
        match (big, p.variant) {
            (true, Variant::X) => big_x.push(i),
            (true, Variant::Classic) => big_classic.push(i),
            (false, _) => small.push(i),
        }
    }
    let mut out = Vec::with_capacity(PLAYOUT_COUNT);
    let mut k = 0;
    while out.len() < PLAYOUT_COUNT {
        // In every 25: 2 large Ordo X, 5 large classic, 18 small boards.
        let slot = out.len() % 25;
        let pool = if slot < 2 {
            &big_x
        } else if slot < 7 {
            &big_classic
        } else {
            &small
        };
        out.push(pool[k % pool.len()]);
        k += 1;
    }
    out
}

/// The random playout entries: [`PLAYOUT_COUNT`] positions, each reached by a seeded random
/// playout from one of [`playout_starts`], with the clauses it exercises worked out from what
/// the position contains.
pub fn random_picks() -> Vec<HandPicked> {
    let starts = playout_starts();
    let schedule = playout_schedule(&starts);
    schedule
        .par_iter()
        .enumerate()
        .map(|(i, &si)| {
            // Each playout has a generator of its own, so they can run in parallel and each
            // stays the same when others change.
            let mut rng = Rng::new(PLAYOUT_SEED.wrapping_add(i as u64));
            let (name, start) = &starts[si];
            let big_x = start.variant == Variant::X && start.dims().len() >= 64;
            let plies = if big_x {
                1 + rng.below(6) as u32
            } else {
                2 + rng.below(38) as u32
            };
            let line = random_line::<Reference>(start, plies, &mut rng);
            let reached = line.len().saturating_sub(1);
            let pos = line
                .last()
                .map(|(_, p)| p.clone())
                .unwrap_or_else(|| start.clone());
            HandPicked {
                id: format!("playout-{:03}", i + 1),
                clauses: Vec::new(),
                position: pos,
                note: format!("{reached} random plies from {name} (seed {PLAYOUT_SEED} + {i})"),
            }
        })
        .collect()
}

/// The clauses a position exercises, worked out from what it contains: the game's direction
/// rules, a split mover, captures, ordo moves, two-step turns, tie choices, the status.
pub fn features(pos: &Position, moves: &[Move], status: Status) -> Vec<&'static str> {
    let mut c: BTreeSet<&'static str> = BTreeSet::new();
    c.insert("ORDO-4.3");
    let dims = pos.dims();
    if dims == Dims::STANDARD {
        c.insert("ORDO-1.1");
    } else {
        c.insert("ORDO-1.5");
    }
    let me = pos.to_move;
    let split = !is_one_group(pos, me);
    match pos.variant {
        Variant::Classic => {
            c.insert("ORDO-8.1");
            if split {
                c.insert("ORDO-9.1");
                c.insert("ORDO-9.2");
            }
        }
        Variant::X => {
            c.insert("ORDOX-2.1");
            c.insert("ORDOX-3.1");
            c.insert("ORDOX-5.1");
            if split {
                c.insert("ORDOX-3.5");
            }
        }
    }
    if !is_one_group(pos, me.opponent()) && pos.variant == Variant::Classic {
        c.insert("ORDO-9.3");
    }
    for m in moves {
        for s in m.steps() {
            match s {
                Step::Single { capture: true, .. } => {
                    c.insert("ORDO-6.4");
                    if pos.variant == Variant::X {
                        c.insert("ORDOX-4.1");
                    }
                }
                Step::Single { .. } => {
                    c.insert("ORDO-6.1");
                }
                Step::Ordo { .. } => {
                    c.insert(match pos.variant {
                        Variant::Classic => "ORDO-8.2",
                        Variant::X => "ORDOX-2.2",
                    });
                    c.insert("ORDO-7.1");
                }
            }
            if let Step::Single { keep: Some(_), .. } = s {
                c.insert("ORDOX-4.2");
            }
        }
        if m.second.is_some() {
            c.insert("ORDOX-3.2");
        }
        if let Some((d, _)) = m.first.direction() {
            if matches!(d.heading(me), Heading::Backward | Heading::DiagonalBackward) {
                c.insert("ORDO-9.2");
            }
        }
    }
    if let Some(clause) = status.clause() {
        c.insert(clause);
        c.insert("ORDO-10.5");
    }
    c.into_iter().collect()
}

/// perft(1), perft(2), …, given perft(1): one level deeper while the estimate of the next
/// count (the last count times the average branching so far) is at most
/// [`PERFT_LEAF_BUDGET`], up to [`PERFT_MAX_DEPTH`].
pub fn perft_list<E: Engine>(e: &E, perft1: u64) -> Vec<u64> {
    let mut out = vec![perft1];
    loop {
        let d = out.len();
        if d >= PERFT_MAX_DEPTH as usize {
            break;
        }
        let last = out[d - 1];
        let before = if d >= 2 { out[d - 2] } else { 1 };
        let branching = last.div_ceil(before.max(1));
        if last.saturating_mul(branching) > PERFT_LEAF_BUDGET {
            break;
        }
        out.push(e.perft(d as u32 + 1));
    }
    out
}

/// The sorted canonical move list of an engine.
pub fn sorted_moves<E: Engine>(e: &E) -> Vec<String> {
    let mut v: Vec<String> = e.legal_moves().iter().map(format_move).collect();
    v.sort();
    v
}

/// The full vector of an entry, computed with the reference engine. When the entry names no
/// clauses (the random playouts), they are worked out by [`features`].
pub fn build_vector(entry: &HandPicked) -> Result<Vector, String> {
    let e = Reference::from_position(&entry.position)
        .map_err(|err| format!("vector {}: {err}", entry.id))?;
    let legal = e.legal_moves();
    // A game that is over has no moves (ORDO-10.5), so a position with moves is ongoing.
    let status = if legal.is_empty() {
        e.status()
    } else {
        Status::Ongoing
    };
    let mut clauses: Vec<String> = if entry.clauses.is_empty() {
        features(&entry.position, &legal, status)
            .into_iter()
            .map(String::from)
            .collect()
    } else {
        entry.clauses.iter().map(|c| c.to_string()).collect()
    };
    clauses.sort_by_key(|c| clause_order(c));
    clauses.dedup();
    let mut moves: Vec<String> = legal.iter().map(format_move).collect();
    moves.sort();
    Ok(Vector {
        id: entry.id.clone(),
        variant: entry.position.variant.name().to_string(),
        position: format_position(&entry.position),
        perft: perft_list(&e, legal.len() as u64),
        moves,
        status: VectorStatus::of(status),
        clauses,
        note: entry.note.clone(),
    })
}

/// Sort key of a clause id: `ORDO` before `ORDOX`, then numerically.
fn clause_order(id: &str) -> (u8, u32, u32) {
    let (family, rest) = match id.strip_prefix("ORDOX-") {
        Some(r) => (1, r),
        None => (0, id.strip_prefix("ORDO-").unwrap_or(id)),
    };
    let (a, b) = rest.split_once('.').unwrap_or((rest, "0"));
    (family, a.parse().unwrap_or(0), b.parse().unwrap_or(0))
}

/// A vector file's text: one JSON object per line, in order.
pub fn render_file(vectors: &[Vector]) -> String {
    let mut s = String::new();
    for v in vectors {
        let line = serde_json::to_string(v).expect("a vector always serializes");
        let _ = writeln!(s, "{line}");
    }
    s
}

/// Both files' names and texts, computed from the reference engine.
pub fn generate_texts() -> Result<Vec<(&'static str, String)>, String> {
    let hand: Result<Vec<Vector>, String> = hand_picked().par_iter().map(build_vector).collect();
    let random: Result<Vec<Vector>, String> = random_picks().par_iter().map(build_vector).collect();
    Ok(vec![
        (CLAUSES_FILE, render_file(&hand?)),
        (PLAYOUTS_FILE, render_file(&random?)),
    ])
}

/// Rebuild both files in `dir` (created if missing), each written atomically (a temporary file
/// beside it, then a rename). Returns the paths written with their vector counts.
pub fn generate(dir: &Path) -> Result<Vec<(PathBuf, usize)>, String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let mut written = Vec::new();
    for (name, text) in generate_texts()? {
        let path = dir.join(name);
        crate::render::write_atomically(&path, &text)
            .map_err(|e| format!("{}: {e}", path.display()))?;
        written.push((path, text.lines().count()));
    }
    Ok(written)
}

/// A vector as read from a file, with where it came from.
#[derive(Clone, Debug)]
pub struct Located {
    /// The file name (without directory).
    pub file: String,
    /// The line number, from 1.
    pub line: usize,
    pub vector: Vector,
}

/// Read a vector file's text. Blank lines are skipped; anything else must be one vector.
pub fn parse_file(name: &str, text: &str) -> Result<Vec<Located>, String> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let vector: Vector =
            serde_json::from_str(line).map_err(|e| format!("{name} line {}: {e}", i + 1))?;
        out.push(Located {
            file: name.to_string(),
            line: i + 1,
            vector,
        });
    }
    Ok(out)
}

/// Every `*.jsonl` file of `dir`, in name order.
pub fn read_dir(dir: &Path) -> Result<Vec<Located>, String> {
    let entries = std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let mut files: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "jsonl"))
        .collect();
    files.sort();
    if files.is_empty() {
        return Err(format!("{}: no *.jsonl vector files", dir.display()));
    }
    let mut out = Vec::new();
    for path in files {
        let text =
            std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        out.extend(parse_file(&name, &text)?);
    }
    Ok(out)
}

/// Structural problems of a vector: a position that does not read or is not canonical, a
/// variant that contradicts it, a move list that is unsorted or repeats a move, a status that
/// does not read. Empty when the vector is well formed.
pub fn lint(v: &Vector) -> Vec<String> {
    let mut out = Vec::new();
    match parse_position(&v.position) {
        Ok(p) => {
            if format_position(&p) != v.position {
                out.push("position is not in canonical notation".into());
            }
            if p.variant.name() != v.variant {
                out.push(format!(
                    "variant '{}' contradicts the position's '{}'",
                    v.variant, p.variant
                ));
            }
            if let Err(e) = p.validate() {
                out.push(format!("position cannot be set up: {e}"));
            }
        }
        Err(e) => out.push(format!("position: {e}")),
    }
    if v.moves.windows(2).any(|w| w[0] >= w[1]) {
        out.push("moves are not sorted or repeat a move".into());
    }
    if v.status.to_status().is_none() {
        out.push(format!("status {:?} does not read", v.status));
    }
    if v.perft.first().is_some_and(|&n| n != v.moves.len() as u64) {
        out.push("perft(1) differs from the number of moves".into());
    }
    if v.note.contains('\n') {
        out.push("note is not one line".into());
    }
    out
}

/// One difference between an engine and a vector.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mismatch {
    pub id: String,
    pub file: String,
    pub line: usize,
    pub what: String,
}

/// Check engine `E` against vectors: exact move list, status and perft counts.
pub fn check<E: Engine>(vectors: &[Located]) -> Vec<Mismatch> {
    let per_vector: Vec<Vec<Mismatch>> = vectors.par_iter().map(check_one::<E>).collect();
    per_vector.into_iter().flatten().collect()
}

fn check_one<E: Engine>(lv: &Located) -> Vec<Mismatch> {
    let mut out = Vec::new();
    let v = &lv.vector;
    let mut report = |what: String| {
        out.push(Mismatch {
            id: v.id.clone(),
            file: lv.file.clone(),
            line: lv.line,
            what,
        })
    };
    for problem in lint(v) {
        report(problem);
    }
    let Ok(pos) = parse_position(&v.position) else {
        return out;
    };
    let e = match E::from_position(&pos) {
        Ok(e) => e,
        Err(err) => {
            report(format!("{} refuses the position: {err}", E::NAME));
            return out;
        }
    };
    let got = sorted_moves(&e);
    if got != v.moves {
        let want: BTreeSet<&String> = v.moves.iter().collect();
        let have: BTreeSet<&String> = got.iter().collect();
        let extra: Vec<&str> = have.difference(&want).map(|s| s.as_str()).collect();
        let missing: Vec<&str> = want.difference(&have).map(|s| s.as_str()).collect();
        report(format!(
            "moves differ: only in {} [{}], only in the vector [{}]",
            E::NAME,
            preview(&extra),
            preview(&missing)
        ));
    }
    let status = VectorStatus::of(e.status());
    if status != v.status {
        report(format!(
            "status differs: {} says {}, the vector {}",
            E::NAME,
            status_text(&status),
            status_text(&v.status)
        ));
    }
    let perft: Vec<u64> = (1..=v.perft.len() as u32).map(|d| e.perft(d)).collect();
    if perft != v.perft {
        report(format!(
            "perft differs: {} {:?}, the vector {:?}",
            E::NAME,
            perft,
            v.perft
        ));
    }
    out
}

/// A status in the words of the protocol: `ongoing` or `won white home-row`.
pub fn status_text(s: &VectorStatus) -> String {
    match s {
        VectorStatus::Ongoing => "ongoing".into(),
        VectorStatus::Won { winner, reason, .. } => format!("won {winner} {reason}"),
    }
}

/// At most ten items, then a count of the rest.
fn preview(items: &[&str]) -> String {
    let mut s = items.iter().take(10).copied().collect::<Vec<_>>().join(" ");
    if items.len() > 10 {
        let _ = write!(s, " … ({} more)", items.len() - 10);
    }
    s
}

/// Every clause id the vectors name.
pub fn exercised_clauses(vectors: &[Vector]) -> BTreeSet<String> {
    vectors.iter().flat_map(|v| v.clauses.clone()).collect()
}

/// Whether the ordo step `step`, made by the side to move of `pos`, moves only part of a longer
/// line of that side's pieces (ORDO-5.2): a piece of the same colour continues the run beyond
/// either end.
pub fn is_sub_run(pos: &Position, step: &Step) -> bool {
    let Step::Ordo { first, last, .. } = *step else {
        return false;
    };
    let dims = pos.dims();
    let Some(me) = dims.contains(first).then(|| pos.get(first)).flatten() else {
        return false;
    };
    let (dc, dr): (i8, i8) = if first.row == last.row {
        (1, 0)
    } else if first.col == last.col {
        (0, 1)
    } else {
        return false;
    };
    let (lo, hi) = if dims.index(first) <= dims.index(last) {
        (first, last)
    } else {
        (last, first)
    };
    let own = |sq: Option<Square>| sq.is_some_and(|s| pos.get(s) == Some(me));
    own(dims.offset(lo, -dc, -dr)) || own(dims.offset(hi, dc, dr))
}
