//! Planted deviations: wrong readings of the rules that the planted engine (the example
//! `planted-engine NAME [reference|bitboard]` of the workspace) follows on top of a correct
//! engine, so that the tests can show that `ordo conform` catches each one and names the
//! clause, and the known alternative reading where there is one. They live in the test
//! tooling, never in the product: the conformance kit's server takes them as any other
//! [`Rules`].
//!
//! Each plant changes the move list or the status of a correct engine in one way only:
//!
//! | plant | what the engine does | clause |
//! | --- | --- | --- |
//! | `ordo-captures` | also lists ordo steps whose only fault is landing on opponent pieces | ORDO-7.2 |
//! | `no-backward-when-split` | drops backward and diagonally backward steps of a split player | ORDO-9.2 |
//! | `victim-chooses` | lists a tie capture once, without `/keep` | ORDOX-4.2 |
//! | `no-loss-without-moves` | reports `ongoing` for a player without a legal move | ORDO-10.3, ORDO-10.4 |
//! | `maximal-runs-only` | drops ordo steps that move only part of a longer line | ORDO-5.2 |
//! | `classic-10x8-only` | plays only classic Ordo on 10 x 8, refuses everything else, declares nothing (correct where it plays) | — |
//! | `classic-10x8-declared` | the same, but declares `capabilities classic:10x8` and answers `error unsupported` | — |
//! | `refuses-play` | answers `play` of any move, even one it has just listed, with `error illegal-move` | — (the engine contradicts itself) |
//! | `no-backward-ordo-when-split` | drops only the backward moves of horizontal ordos of a split player | ORDO-9.2 |
//! | `removes-adjacent-only` | after an Ordo X capture removes only the groups touching the captured square | ORDOX-4.1 |
//! | `sideways-last-capture-continues` | a sideways step that captures the last piece still needs a forward step | ORDOX-3.4 |
//! | `no-pieces-first` | when a move both reaches the home row and takes the last piece, reports `no-pieces` | ORDO-10.5 |
//! | `play-ignored` | accepts `play` of a listed move but leaves the position as it was | — (the engine does not play) |
//! | `no-diagonal-captures` | drops singleton captures on a diagonal | ORDO-6.4 |
//! | `own-row-wins` | declares a win for the player who just moved when it has a piece on its own home row (too early) | ORDO-10.1 |
//! | `home-row-win-missed` | reports `ongoing` after a move reaches the opponent's home row (too late) | ORDO-10.1 |
//! | `threefold-draw` | reports `draw` when the position occurs for the third time in the game, the start counted | ORDO-3.3 |
//! | `threefold-draw-after-start` | the same, the start not counted (as one real program does) | ORDO-3.3 |
//! | `fourfold-draw`, `fourfold-draw-after-start` | the same at the fourth occurrence | ORDO-3.3 |
//! | `fivefold-draw`, `fivefold-draw-after-start` | the same at the fifth occurrence | ORDO-3.3 |
//! | `ordos-twice` | lists every one-step ordo move twice, from each end of its run, as one real engine does | — (spec/protocol.md: each move once) |

use std::collections::BTreeSet;

use crate::adjudicate::adjudicate;
use crate::notation::format_move;
use crate::rules::{Color, Dims, Direction, Engine, Heading, Move, Position, Square, Status, Step};
use crate::rules::{Variant, WinReason};
use ordo_conformance::protocol::{codes, error_reply, status_reply, GameBoard};
use ordo_conformance::server::{every_game, spend, EngineChoice, PerftBudget, Rules, State};
use ordo_conformance::vectors::is_sub_run;
use ordo_core::rules::PositionError;
use ordo_reference::{groups, is_one_group, Reference};

/// A planted deviation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Plant {
    /// Ordo steps may land on (and capture) opponent pieces: breaks ORDO-7.2.
    OrdoCaptures,
    /// A split player gets no backward directions: breaks ORDO-9.2.
    NoBackwardWhenSplit,
    /// A tie capture is one move without a kept group: breaks ORDOX-4.2.
    VictimChooses,
    /// A player without a legal move is not lost: breaks ORDO-10.3 and ORDO-10.4.
    NoLossWithoutMoves,
    /// Only maximal lines are ordos: breaks ORDO-5.2.
    MaximalRunsOnly,
    /// Plays only classic Ordo on 10 x 8 and declares nothing: correct where it plays.
    Classic10x8Only,
    /// Plays only classic Ordo on 10 x 8 and says so with `capabilities`.
    Classic10x8Declared,
    /// Refuses to play any move, listed or not.
    RefusesPlay,
    /// A split player's horizontal ordos get no backward move: breaks ORDO-9.2.
    NoBackwardOrdoWhenSplit,
    /// After a capture only the groups touching the captured square go: breaks ORDOX-4.1.
    RemovesAdjacentOnly,
    /// A sideways capture of the last piece still needs a forward step: breaks ORDOX-3.4.
    SidewaysLastCaptureContinues,
    /// Reports `no-pieces` where the home row and the last capture coincide: breaks ORDO-10.5.
    NoPiecesFirst,
    /// Accepts `play` of a listed move and leaves the position unchanged.
    PlayIgnored,
    /// Drops the singleton captures on a diagonal: breaks ORDO-6.4.
    NoDiagonalCaptures,
    /// Declares a win on the mover's own home row, too early: breaks ORDO-10.1.
    OwnRowWins,
    /// Misses the win on the opponent's home row, too late: breaks ORDO-10.1.
    HomeRowWinMissed,
    /// Declares a draw when a position occurs for the `n`th time in the game (3, 4 or 5), the
    /// start counted as an occurrence when the flag is set: breaks ORDO-3.3.
    RepetitionDraw(u8, bool),
    /// Lists every ordo move twice, from each end of its run, as one real engine does: breaks
    /// no rule, only the protocol's "each move once".
    OrdosTwice,
}

impl Plant {
    /// The name used on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Plant::OrdoCaptures => "ordo-captures",
            Plant::NoBackwardWhenSplit => "no-backward-when-split",
            Plant::VictimChooses => "victim-chooses",
            Plant::NoLossWithoutMoves => "no-loss-without-moves",
            Plant::MaximalRunsOnly => "maximal-runs-only",
            Plant::Classic10x8Only => "classic-10x8-only",
            Plant::Classic10x8Declared => "classic-10x8-declared",
            Plant::RefusesPlay => "refuses-play",
            Plant::NoBackwardOrdoWhenSplit => "no-backward-ordo-when-split",
            Plant::RemovesAdjacentOnly => "removes-adjacent-only",
            Plant::SidewaysLastCaptureContinues => "sideways-last-capture-continues",
            Plant::NoPiecesFirst => "no-pieces-first",
            Plant::PlayIgnored => "play-ignored",
            Plant::NoDiagonalCaptures => "no-diagonal-captures",
            Plant::OwnRowWins => "own-row-wins",
            Plant::HomeRowWinMissed => "home-row-win-missed",
            Plant::RepetitionDraw(n, start) => repetition_name(n, start),
            Plant::OrdosTwice => "ordos-twice",
        }
    }

    /// The clause the plant breaks (empty for the plants that break none).
    pub fn clause(self) -> &'static str {
        match self {
            Plant::OrdoCaptures => "ORDO-7.2",
            Plant::NoBackwardWhenSplit => "ORDO-9.2",
            Plant::VictimChooses => "ORDOX-4.2",
            Plant::NoLossWithoutMoves => "ORDO-10.3",
            Plant::MaximalRunsOnly => "ORDO-5.2",
            Plant::Classic10x8Only | Plant::Classic10x8Declared => "",
            Plant::RefusesPlay => "",
            Plant::NoBackwardOrdoWhenSplit => "ORDO-9.2",
            Plant::RemovesAdjacentOnly => "ORDOX-4.1",
            Plant::SidewaysLastCaptureContinues => "ORDOX-3.4",
            Plant::NoPiecesFirst => "ORDO-10.5",
            Plant::PlayIgnored | Plant::OrdosTwice => "",
            Plant::NoDiagonalCaptures => "ORDO-6.4",
            Plant::OwnRowWins | Plant::HomeRowWinMissed => "ORDO-10.1",
            Plant::RepetitionDraw(..) => "ORDO-3.3",
        }
    }

    /// Every plant.
    pub const ALL: [Plant; 23] = [
        Plant::OrdoCaptures,
        Plant::NoBackwardWhenSplit,
        Plant::VictimChooses,
        Plant::NoLossWithoutMoves,
        Plant::MaximalRunsOnly,
        Plant::Classic10x8Only,
        Plant::Classic10x8Declared,
        Plant::RefusesPlay,
        Plant::NoBackwardOrdoWhenSplit,
        Plant::RemovesAdjacentOnly,
        Plant::SidewaysLastCaptureContinues,
        Plant::NoPiecesFirst,
        Plant::PlayIgnored,
        Plant::NoDiagonalCaptures,
        Plant::OwnRowWins,
        Plant::HomeRowWinMissed,
        Plant::OrdosTwice,
        Plant::RepetitionDraw(3, true),
        Plant::RepetitionDraw(3, false),
        Plant::RepetitionDraw(4, true),
        Plant::RepetitionDraw(4, false),
        Plant::RepetitionDraw(5, true),
        Plant::RepetitionDraw(5, false),
    ];

    /// Whether this plant declares a draw on the position `history` ends with: the plants of
    /// repetition count its occurrences in the game (the start only when they count it).
    pub fn draws_by_repetition(self, history: &[Position]) -> bool {
        let (Plant::RepetitionDraw(n, start), Some(now)) = (self, history.last()) else {
            return false;
        };
        let counted = if start { history } else { &history[1..] };
        counted.iter().filter(|p| *p == now).count() >= usize::from(n)
    }

    /// Whether the planted engine plays the game and board of `pos`.
    pub fn supports(self, pos: &Position) -> bool {
        match self {
            Plant::Classic10x8Only | Plant::Classic10x8Declared => {
                pos.variant == Variant::Classic && pos.dims() == Dims::STANDARD
            }
            _ => true,
        }
    }

    /// What the planted engine answers to `capabilities`: `None` when it does not know the
    /// request.
    pub fn capabilities(self) -> Option<Vec<GameBoard>> {
        match self {
            Plant::Classic10x8Only => None,
            Plant::Classic10x8Declared => Some(vec![GameBoard {
                variant: Variant::Classic,
                dims: Some(Dims::STANDARD),
            }]),
            _ => Some(every_game()),
        }
    }

    /// The planted move list, from the correct engine `e`.
    pub fn moves<E: Engine>(self, e: &E) -> Vec<Move> {
        let pos = e.to_position();
        let base = e.legal_moves();
        match self {
            Plant::OrdoCaptures => {
                let mut out = base;
                if e.status() == Status::Ongoing {
                    out.extend(ordo_captures(&pos));
                }
                out
            }
            Plant::NoBackwardWhenSplit => {
                if is_one_group(&pos, pos.to_move) {
                    return base;
                }
                base.into_iter()
                    .filter(|m| {
                        !m.steps().any(|s| {
                            s.direction().is_some_and(|(d, _)| {
                                matches!(
                                    d.heading(pos.to_move),
                                    Heading::Backward | Heading::DiagonalBackward
                                )
                            })
                        })
                    })
                    .collect()
            }
            Plant::VictimChooses => {
                let mut seen = BTreeSet::new();
                let mut out = Vec::new();
                for m in base {
                    let s = m.without_keeps();
                    if seen.insert(format_move(&s)) {
                        out.push(s);
                    }
                }
                out
            }
            Plant::MaximalRunsOnly => base
                .into_iter()
                .filter(|m| !moves_a_sub_run(e, m))
                .collect(),
            Plant::NoBackwardOrdoWhenSplit => base
                .into_iter()
                .filter(|m| !m.steps().any(|s| is_backward_ordo(&pos, s)))
                .collect(),
            Plant::NoDiagonalCaptures => base
                .into_iter()
                .filter(|m| !is_diagonal_capture(&pos, m))
                .collect(),
            Plant::OwnRowWins if own_row_claim(e) => Vec::new(),
            Plant::OrdosTwice => base
                .into_iter()
                .flat_map(|m| [Some(m), from_the_other_end(&m)])
                .flatten()
                .collect(),
            Plant::SidewaysLastCaptureContinues => base
                .into_iter()
                .flat_map(|m| match last_capture_sideways(&pos, &m) {
                    Some(step) => continuations(e, step),
                    None => vec![m],
                })
                .collect(),
            _ => base,
        }
    }

    /// The planted status, from the correct engine `e`.
    pub fn status<E: Engine>(self, e: &E) -> Status {
        let base = e.status();
        // Only the plants that drop moves can leave a player with none.
        let planted_none = || {
            matches!(
                self,
                Plant::NoBackwardWhenSplit
                    | Plant::MaximalRunsOnly
                    | Plant::NoBackwardOrdoWhenSplit
            ) && self.moves(e).is_empty()
        };
        match (self, base) {
            (
                Plant::NoLossWithoutMoves,
                Status::Won {
                    reason: WinReason::CannotReconnect | WinReason::NoLegalMove,
                    ..
                },
            ) => Status::Ongoing,
            (
                Plant::NoPiecesFirst,
                Status::Won {
                    winner,
                    reason: WinReason::HomeRow,
                },
            ) if e.to_position().pieces(winner.opponent()).is_empty() => Status::Won {
                winner,
                reason: WinReason::NoPieces,
            },
            (Plant::OwnRowWins, Status::Ongoing) if own_row_claim(e) => Status::Won {
                winner: e.to_position().to_move.opponent(),
                reason: WinReason::HomeRow,
            },
            (
                Plant::HomeRowWinMissed,
                Status::Won {
                    reason: WinReason::HomeRow,
                    ..
                },
            ) => Status::Ongoing,
            (_, Status::Ongoing) if planted_none() => {
                let pos = e.to_position();
                let me = pos.to_move;
                Status::Won {
                    winner: me.opponent(),
                    reason: if is_one_group(&pos, me) {
                        WinReason::NoLegalMove
                    } else {
                        WinReason::CannotReconnect
                    },
                }
            }
            _ => base,
        }
    }

    /// The position after the planted engine plays `mv` (any accepted spelling), or `None` when
    /// the planted engine does not consider it legal.
    pub fn play<E: Engine>(self, e: &E, mv: &Move) -> Option<Position> {
        match self {
            Plant::RefusesPlay => return None,
            Plant::PlayIgnored => {
                let m = e.resolve(mv)?;
                return self.moves(e).contains(&m).then(|| e.to_position());
            }
            Plant::RemovesAdjacentOnly => {
                let m = e.resolve(mv)?;
                let after = e.apply(&m).to_position();
                return Some(restore_far_groups(&e.to_position(), &m, after));
            }
            Plant::SidewaysLastCaptureContinues if mv.second.is_some() => {
                let pos = e.to_position();
                if let Some(step) = last_capture_sideways(&pos, &Move::single(mv.first)) {
                    let listed = continuations(e, step).contains(&mv.canonical(e.dims()));
                    return listed.then(|| play_continuation(e, mv));
                }
            }
            _ => {}
        }
        let planted = self.moves(e);
        let listed = |m: &Move| planted.iter().any(|p| p == m);
        if let Some(m) = e.resolve(mv) {
            let shown = if self == Plant::VictimChooses {
                m.without_keeps()
            } else {
                m
            };
            return listed(&shown).then(|| e.apply(&m).to_position());
        }
        let want = mv.canonical(e.dims());
        if !listed(&want) {
            return None;
        }
        match self {
            Plant::VictimChooses => {
                let m = e
                    .legal_moves()
                    .into_iter()
                    .find(|m| m.without_keeps() == want)?;
                Some(e.apply(&m).to_position())
            }
            Plant::OrdoCaptures => Some(apply_ordo_capture(&e.to_position(), &want.first)),
            _ => None,
        }
    }
}

/// Whether `m` is one singleton step on a diagonal that captures (what `no-diagonal-captures`
/// drops).
fn is_diagonal_capture(pos: &Position, m: &Move) -> bool {
    m.second.is_none()
        && matches!(m.first, Step::Single { capture: true, .. })
        && m.first.direction().is_some_and(|(d, _)| {
            matches!(
                d.heading(pos.to_move),
                Heading::DiagonalForward | Heading::DiagonalBackward
            )
        })
}

/// Whether `own-row-wins` claims a win: the player who has just moved has a piece on its own
/// home row.
fn own_row_claim<E: Engine>(e: &E) -> bool {
    let pos = e.to_position();
    let mover = pos.to_move.opponent();
    let row = mover.home_row(pos.dims());
    pos.pieces(mover).iter().any(|sq| sq.row == row)
}

/// Whether some ordo step of `m` moves only part of a longer line, judged on the position the
/// step is made from.
/// A one-step ordo move written from the other end of its run (`b1:a1-b2` for `a1:b1-a2`);
/// `None` for any other move.
fn from_the_other_end(m: &Move) -> Option<Move> {
    let (None, Step::Ordo { first, last, to }) = (m.second, m.first) else {
        return None;
    };
    let shift = |a: u8, b: u8, c: u8| (i16::from(a) + i16::from(b) - i16::from(c)) as u8;
    let landing = Square::new(
        shift(last.col, to.col, first.col),
        shift(last.row, to.row, first.row),
    );
    Some(Move::single(Step::Ordo {
        first: last,
        last: first,
        to: landing,
    }))
}

fn moves_a_sub_run<E: Engine>(e: &E, m: &Move) -> bool {
    let pos = e.to_position();
    if is_sub_run(&pos, &m.first) {
        return true;
    }
    match m.second {
        Some(second) => {
            let mut mid = e.apply(&Move::single(m.first)).to_position();
            mid.to_move = pos.to_move;
            is_sub_run(&mid, &second)
        }
        None => false,
    }
}

/// Every canonical one-step ordo move of the side to move that lands at least one piece on an
/// opponent piece and would be legal if those opponent pieces were not there.
fn ordo_captures(pos: &Position) -> Vec<Move> {
    let me = pos.to_move;
    let dims = pos.dims();
    let mut out = Vec::new();
    for first in pos.pieces(me) {
        for (dc, dr) in [(1i8, 0i8), (0, 1)] {
            let mut last = first;
            while let Some(next) = dims.offset(last, dc, dr) {
                if pos.get(next) != Some(me) {
                    break;
                }
                last = next;
                for d in Direction::ALL {
                    // Go further while every square the run lands on is empty or its own;
                    // stop at the first distance where it lands on a piece of either colour
                    // (any further, it would pass over that piece, ORDO-7.3).
                    for dist in 1..=dims.cols.max(dims.rows) as i8 {
                        let Some(to) = dims.offset(first, d.dc * dist, d.dr * dist) else {
                            break;
                        };
                        let step = Step::Ordo { first, last, to };
                        match landing(pos, &step) {
                            Landing::Free => continue,
                            Landing::Blocked => break,
                            Landing::Opponent => {
                                if let Some(m) = ordo_capture(pos, step) {
                                    out.push(m);
                                }
                                break;
                            }
                        }
                    }
                }
            }
        }
    }
    out
}

/// Where an ordo step lands.
enum Landing {
    /// Every landing square is empty or vacated by the run itself.
    Free,
    /// Some landing square holds an opponent piece (and none another own piece).
    Opponent,
    /// Some landing square holds another own piece, or lies off the board.
    Blocked,
}

fn landing(pos: &Position, step: &Step) -> Landing {
    let me = pos.to_move;
    let dims = pos.dims();
    let (dc, dr) = step.displacement();
    let Some(moved) = step.moved_squares() else {
        return Landing::Blocked;
    };
    let (Ok(dc), Ok(dr)) = (i8::try_from(dc), i8::try_from(dr)) else {
        return Landing::Blocked;
    };
    let mut opponent = false;
    for sq in &moved {
        let Some(to) = dims.offset(*sq, dc, dr) else {
            return Landing::Blocked;
        };
        match pos.get(to) {
            None => {}
            Some(c) if c == me && !moved.contains(&to) => return Landing::Blocked,
            Some(c) if c == me => {}
            Some(_) => opponent = true,
        }
    }
    if opponent {
        Landing::Opponent
    } else {
        Landing::Free
    }
}

/// `step` as a planted ordo capture, if the adjudicator finds no fault with it but landing on
/// an opponent piece (ORDO-7.2).
fn ordo_capture(pos: &Position, step: Step) -> Option<Move> {
    let mv = Move::single(step);
    let verdict = adjudicate(pos, &mv);
    let only_7_2 =
        !verdict.is_legal() && verdict.violations().iter().all(|v| v.clause == "ORDO-7.2");
    only_7_2.then_some(mv)
}

/// Play a planted ordo capture: the ordo moves and the opponent pieces it lands on are taken.
fn apply_ordo_capture(pos: &Position, step: &Step) -> Position {
    let mut out = pos.clone();
    let me = pos.to_move;
    let (dc, dr) = step.displacement();
    let moved = step.moved_squares().unwrap_or_default();
    for sq in &moved {
        out.set(*sq, None);
    }
    for sq in &moved {
        if let Some(to) = pos.dims().offset(*sq, dc as i8, dr as i8) {
            out.set(to, Some(me));
        }
    }
    out.to_move = me.opponent();
    out
}

/// Whether `s` moves a horizontal ordo backward (only a split classic player may, ORDO-9.2).
fn is_backward_ordo(pos: &Position, s: &Step) -> bool {
    s.is_ordo()
        && s.direction()
            .is_some_and(|(d, _)| d.heading(pos.to_move) == Heading::Backward)
}

/// The step of `m` when `m` is an Ordo X turn of one sideways single step that captures the
/// opponent's last piece (the turn ends there, ORDOX-3.4).
fn last_capture_sideways(pos: &Position, m: &Move) -> Option<Step> {
    let step = m.first;
    let sideways = step
        .direction()
        .is_some_and(|(d, _)| d.heading(pos.to_move) == Heading::Sideways);
    let last = pos.pieces(pos.to_move.opponent()).len() == 1;
    let capture = matches!(step, Step::Single { capture: true, .. });
    (pos.variant == Variant::X && m.second.is_none() && sideways && last && capture).then_some(step)
}

/// The planted turns that go on after `step`: `step` then one square straight forward with any
/// piece of the mover that has an empty square there.
fn continuations<E: Engine>(e: &E, step: Step) -> Vec<Move> {
    let pos = e.to_position();
    let me = pos.to_move;
    let mid = e.apply(&Move::single(step)).to_position();
    let dims = pos.dims();
    let mut out = Vec::new();
    for from in mid.pieces(me) {
        let Some(to) = dims.offset(from, 0, me.forward()) else {
            continue;
        };
        if mid.get(to).is_none() {
            let second = Step::Single {
                from,
                to,
                capture: false,
                keep: None,
            };
            out.push(Move::double(step, second));
        }
    }
    out
}

/// The position after a planted continuation: the first step as the rules play it, then the
/// forward step moved by hand.
fn play_continuation<E: Engine>(e: &E, mv: &Move) -> Position {
    let mut p = e.apply(&Move::single(mv.first)).to_position();
    if let Some(Step::Single { from, to, .. }) = mv.second {
        p.set(from, None);
        p.set(to, Some(e.to_position().to_move));
    }
    p
}

/// `after` with every removed group of the victim put back unless it touches a square the move
/// captured on: the planted reading of ORDOX-4.1 that removes only adjacent groups.
fn restore_far_groups(before: &Position, m: &Move, mut after: Position) -> Position {
    let me = before.to_move;
    let victim: Color = me.opponent();
    let captured: Vec<_> = m
        .steps()
        .filter(|s| matches!(s, Step::Single { capture: true, .. }))
        .map(|s| s.target())
        .collect();
    if captured.is_empty() {
        return after;
    }
    let mut left = before.clone();
    for &sq in &captured {
        left.set(sq, None);
    }
    for group in groups(&left, victim) {
        let removed = group.iter().all(|&sq| after.get(sq).is_none());
        let touches = group
            .iter()
            .any(|&sq| captured.iter().any(|&c| ordo_reference::neighbours(sq, c)));
        if removed && !touches {
            for &sq in &group {
                after.set(sq, Some(victim));
            }
        }
    }
    after
}

/// A correct engine of the kit with `plant` on top: what the planted engine serves.
#[derive(Debug)]
pub struct Planted {
    pub choice: EngineChoice,
    pub plant: Plant,
}

/// A position loaded into engine `E`, answered under a plant.
struct Loaded<E: Engine> {
    e: E,
    plant: Plant,
}

impl<E: Engine> State for Loaded<E> {
    fn position(&self) -> Position {
        self.e.to_position()
    }
    fn moves(&self) -> Vec<Move> {
        self.plant.moves(&self.e)
    }
    fn status(&self) -> Status {
        self.plant.status(&self.e)
    }
    fn play(&self, mv: &Move) -> Option<Position> {
        self.plant.play(&self.e, mv)
    }
    fn perft(&self, depth: u32, budget: &mut PerftBudget) -> Option<u64> {
        planted_perft(self, depth, budget)
    }
}

/// Perft over the planted move list and the planted moves' positions.
fn planted_perft<E: Engine>(s: &Loaded<E>, depth: u32, budget: &mut PerftBudget) -> Option<u64> {
    if depth == 0 {
        return spend(budget, 1);
    }
    let moves = s.moves();
    if depth == 1 {
        return spend(budget, moves.len() as u64);
    }
    let mut total = 0;
    for p in moves.iter().filter_map(|m| s.play(m)) {
        if let Ok(e) = E::from_position(&p) {
            let next = Loaded { e, plant: s.plant };
            total += planted_perft(&next, depth - 1, budget)?;
        }
    }
    Some(total)
}

impl Rules for Planted {
    fn name(&self) -> String {
        format!(
            "{} (planted deviation: {})",
            Rules::name(&self.choice),
            self.plant.name()
        )
    }
    fn capabilities(&self) -> Option<Vec<GameBoard>> {
        self.plant.capabilities()
    }
    fn refuse(&self, pos: &Position) -> Option<String> {
        if self.plant.supports(pos) {
            return None;
        }
        let what = format!(
            "this engine plays only classic Ordo on 10x8, not {}",
            GameBoard::of(pos)
        );
        // A planted engine that declares nothing refuses the way a plain program would.
        Some(match self.plant.capabilities() {
            Some(_) => error_reply(codes::UNSUPPORTED, &what),
            None => error_reply(codes::INVALID_POSITION, &what),
        })
    }
    fn load(&self, pos: &Position) -> Result<Box<dyn State>, PositionError> {
        let plant = self.plant;
        Ok(match self.choice {
            EngineChoice::Reference => Box::new(Loaded {
                e: Reference::from_position(pos)?,
                plant,
            }),
            EngineChoice::Bitboard => Box::new(Loaded {
                e: crate::bitboard::Bitboard::from_position(pos)?,
                plant,
            }),
        })
    }
    fn perft_budget(&self) -> u64 {
        ordo_conformance::server::PERFT_BUDGET_REFERENCE
    }
    fn knows_game(&self) -> bool {
        // An engine that declares nothing predates `game` as well.
        self.plant != Plant::Classic10x8Only
    }
    fn status_in_game(&self, state: &dyn State, history: &[Position]) -> String {
        if self.plant.draws_by_repetition(history) {
            return "status draw".into();
        }
        status_reply(state.status())
    }
}

/// The command-line name of the repetition plant drawing at occurrence `n`, the start counted
/// or not.
fn repetition_name(n: u8, start: bool) -> &'static str {
    match (n, start) {
        (3, true) => "threefold-draw",
        (3, false) => "threefold-draw-after-start",
        (4, true) => "fourfold-draw",
        (4, false) => "fourfold-draw-after-start",
        (5, true) => "fivefold-draw",
        (5, false) => "fivefold-draw-after-start",
        _ => "repetition-draw",
    }
}
