//! The optimized engine: the same rules as the reference engine (`ordo-reference`), on `u128` bitboards.
//!
//! What it owns:
//! - [`Bitboard`], an [`Engine`] for both games on every board of ORDO-1.5 (at most 128
//!   squares, one bit each, a1 = bit 0, index `row * cols + col`), with each colour's split
//!   flag (ORDO-4.1) kept up to date move by move;
//! - the per-board masks and tables (`geometry`): edge masks, per-direction and multi-step
//!   shifts, sliding rays and occluded fills, neighbour masks, the 3 x 3 local connectivity
//!   table and its bit-parallel form;
//! - the connection knowledge about one player's pieces (`conn`): which pieces can be lifted
//!   with the rest staying one group (a local test for all pieces at once), the landing mask
//!   of every piece, and the verdict for every ordo run, found without a flood fill per
//!   candidate move and cached by piece mask, since it does not depend on the opponent;
//! - move generation (`gen`) without heap allocation in the hot path: steps packed in a
//!   `u32`, turns in a `u64` (`encoding`), pushed onto one caller-provided stack or only
//!   counted (singletons of all pieces at once per direction);
//! - perft with bulk counting at the last ply, single-threaded ([`Engine::perft`]) and over the
//!   root moves on a rayon pool ([`Bitboard::perft_threads`], through [`perft`], the threaded
//!   perft for any engine);
//! - runtime dispatch ([`cpu`]): perft and the turn generator and counter compiled for any
//!   x86-64 and again for x86-64-v3 (BMI2, AVX2), the copy chosen once per process
//!   (`ORDO_CPU=baseline` forces the first); the macro [`v3_fn!`] and [`cpu::use_v3`] give
//!   another crate's loops (the solver's) a copy of their own on the same terms.
//!
//! It shares only the vocabulary of [`crate::rules`] with the reference engine, never its
//! code, so that `tests/it/differential.rs` compares two independent readings of the clauses.

use ordo_core::rules;

mod conn;
pub mod cpu;
mod encoding;
mod gen;
mod geometry;
pub mod perft;

use std::cell::RefCell;
use std::fmt;
use std::hash::{Hash, Hasher};

use crate::perft::{divide_parallel, PerftError, PerftOptions};
use crate::rules::{
    Color, Dims, Engine, Move, Position, PositionError, Status, Step, Variant, WinReason,
};

use conn::Cache;
use encoding::{CAPTURE, KEEP, ORDO, VERT};
use gen::{kept_after_capture, Phase, Push, Side};
use geometry::{bit, Geo};

/// What a search thread reuses: the move stack (one contiguous buffer shared by all plies,
/// so nothing is allocated once it has grown) and the connection-knowledge cache.
struct Work {
    stack: Vec<u64>,
    cache: Cache,
}

impl Work {
    fn new() -> Work {
        Work {
            stack: Vec::with_capacity(1 << 14),
            cache: Cache::new(8),
        }
    }
}

thread_local! {
    /// Each thread's [`Work`], kept between calls so that many short searches (a perft per
    /// first move, a status per position) do not each build a cache.
    static WORK: RefCell<Option<Work>> = const { RefCell::new(None) };
}

/// Run `f` with this thread's [`Work`] (a fresh one if it is already in use).
fn with_work<R>(f: impl FnOnce(&mut Work) -> R) -> R {
    WORK.with(|cell| match cell.try_borrow_mut() {
        Ok(mut slot) => f(slot.get_or_insert_with(Work::new)),
        Err(_) => f(&mut Work::new()),
    })
}

/// A position under the bitboard engine: one `u128` of pieces per colour, the side to move,
/// the game, and whether each colour is currently split (ORDO-4.1), kept up to date move by
/// move so that no node needs a flood fill to know it.
#[derive(Clone, Copy)]
pub struct Bitboard {
    geo: &'static Geo,
    pieces: [u128; 2],
    to_move: Color,
    variant: Variant,
    split: [bool; 2],
}

impl fmt::Debug for Bitboard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Bitboard")
            .field("dims", &self.geo.dims())
            .field("white", &format_args!("{:#x}", self.pieces[0]))
            .field("black", &format_args!("{:#x}", self.pieces[1]))
            .field("to_move", &self.to_move)
            .field("variant", &self.variant)
            .finish()
    }
}

impl PartialEq for Bitboard {
    fn eq(&self, other: &Self) -> bool {
        self.geo.dims() == other.geo.dims()
            && self.pieces == other.pieces
            && self.to_move == other.to_move
            && self.variant == other.variant
    }
}

impl Eq for Bitboard {}

impl Hash for Bitboard {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.geo.dims().hash(state);
        self.pieces.hash(state);
        self.to_move.hash(state);
        self.variant.hash(state);
    }
}

impl Bitboard {
    /// The position of `occ` as [`Engine::from_occupancy`] reads it (bits beyond the board
    /// dropped, a square of both colours White's), not validated, neither side split.
    fn unchecked(dims: Dims, variant: Variant, to_move: Color, occ: [u128; 2]) -> Bitboard {
        let on_board = if dims.len() == 128 {
            u128::MAX
        } else {
            (1u128 << dims.len()) - 1
        };
        let white = occ[0] & on_board;
        Bitboard {
            geo: Geo::get(dims),
            pieces: [white, occ[1] & on_board & !white],
            to_move,
            variant,
            split: [false, false],
        }
    }

    /// The pieces of colour `c` as a mask (bit `row * cols + col`).
    pub fn pieces(&self, c: Color) -> u128 {
        self.pieces[c as usize]
    }

    #[inline(always)]
    fn side<'c>(&self, me: Color, cache: &'c mut Cache) -> Side<'static, 'c> {
        let o = me.opponent() as usize;
        let info = cache.get(self.geo, self.pieces[me as usize], self.split[me as usize]);
        Side::new(
            self.geo,
            self.variant,
            me,
            self.pieces[o],
            self.split[o],
            info,
        )
    }

    /// ORDO-10.1, ORDO-10.2, ORDO-10.5: the win of the player who has just moved, if any; the
    /// home row is reported first.
    #[inline(always)]
    fn decided(&self) -> Option<WinReason> {
        let me = self.to_move;
        let last = me.opponent();
        if self.pieces[last as usize] & self.geo.home[me as usize] != 0 {
            Some(WinReason::HomeRow)
        } else if self.pieces[me as usize] == 0 {
            Some(WinReason::NoPieces)
        } else {
            None
        }
    }

    /// Apply one legal step of `me` (no side change). Keeps the split flags exact: the mover
    /// is one group after a legal step (ORDO-4.3); the opponent changes only by a capture,
    /// after which Ordo X leaves it one group (ORDOX-4.1) and classic Ordo may leave it split
    /// (ORDO-9.3).
    #[inline(always)]
    fn apply_step(&mut self, me: Color, s: u32) {
        self.apply_step_as::<true>(me, s)
    }

    /// [`Bitboard::apply_step`]; without `FLAGS` a classic capture leaves the opponent's
    /// split flag as it was (no flood fill): for a caller that needs the pieces only.
    #[inline(always)]
    fn apply_step_as<const FLAGS: bool>(&mut self, me: Color, s: u32) {
        let g = self.geo;
        let (m, o) = (me as usize, me.opponent() as usize);
        let from = encoding::a(s);
        let to = encoding::b(s);
        if s & ORDO != 0 {
            let len = encoding::c(s);
            let run = if s & VERT != 0 {
                g.vrun[len as usize] << from
            } else {
                ((1u128 << len) - 1) << from
            };
            let moved = if to >= from {
                run << (to - from)
            } else {
                run >> (from - to)
            };
            self.pieces[m] = (self.pieces[m] & !run) | moved;
        } else {
            self.pieces[m] ^= bit(from) | bit(to);
            if s & CAPTURE != 0 {
                let before = self.pieces[o];
                let mut after = before & !bit(to);
                let maybe_split = after != 0 && (self.split[o] || !g.lift_is_local(before, to));
                match self.variant {
                    Variant::X => {
                        if maybe_split {
                            let keep = (s & KEEP != 0).then(|| encoding::c(s));
                            after = kept_after_capture(g, after, keep);
                        }
                        self.split[o] = false;
                    }
                    Variant::Classic if FLAGS => self.split[o] = maybe_split && !g.connected(after),
                    Variant::Classic => {}
                }
                self.pieces[o] = after;
            }
        }
        self.split[m] = false;
    }

    /// Apply a legal internal turn and pass the move to the opponent (ORDO-3.1).
    #[inline(always)]
    fn apply_turn(&self, t: u64) -> Bitboard {
        let mut next = *self;
        let me = self.to_move;
        next.apply_step(me, t as u32);
        let second = (t >> 32) as u32;
        if second != 0 {
            next.apply_step(me, second);
        }
        next.to_move = me.opponent();
        next
    }

    /// The pieces after the internal turn `t` (those of [`Bitboard::apply_turn`], without
    /// its split flags).
    #[inline(always)]
    fn turn_pieces(&self, t: u64) -> [u128; 2] {
        let mut next = *self;
        let me = self.to_move;
        next.apply_step_as::<false>(me, t as u32);
        let second = (t >> 32) as u32;
        if second != 0 {
            next.apply_step_as::<false>(me, second);
        }
        next.pieces
    }

    /// Every legal turn (ORDOX-5.1), pushed onto `out`. The game must not be decided.
    #[inline(always)]
    fn gen_turns(&self, out: &mut Vec<u64>, cache: &mut Cache) {
        let me = self.to_move;
        match self.variant {
            Variant::Classic => {
                let split = self.split[me as usize];
                self.side(me, cache)
                    .walk(Phase::Classic { split }, &mut Push { out, first: 0 })
            }
            Variant::X => {
                let mut side = self.side(me, cache);
                side.walk(Phase::XForward, &mut Push { out, first: 0 });
                let start = out.len();
                side.walk(Phase::XSideways, &mut Push { out, first: 0 });
                let end = out.len();
                for i in start..end {
                    let s = out[i] as u32;
                    let mut mid = *self;
                    mid.apply_step(me, s);
                    if mid.pieces[me.opponent() as usize] == 0 {
                        // ORDOX-3.4: the sideways step won; it is the whole turn.
                        out.push(s as u64);
                    } else {
                        // ORDOX-3.1, ORDOX-3.3: a forward step must follow.
                        mid.side(me, cache)
                            .walk(Phase::XForward, &mut Push { out, first: s });
                    }
                }
                out.drain(start..end);
            }
        }
    }

    /// The number of legal turns, counted without making them where possible. `scratch` is a
    /// stack for the sideways steps of Ordo X. The game must not be decided.
    #[inline(always)]
    fn count_turns(&self, scratch: &mut Vec<u64>, cache: &mut Cache) -> u64 {
        let me = self.to_move;
        match self.variant {
            Variant::Classic => {
                let split = self.split[me as usize];
                self.side(me, cache).count(Phase::Classic { split })
            }
            Variant::X => {
                let mut side = self.side(me, cache);
                let mut n = side.count(Phase::XForward);
                let start = scratch.len();
                side.walk(
                    Phase::XSideways,
                    &mut Push {
                        out: scratch,
                        first: 0,
                    },
                );
                for &s in &scratch[start..] {
                    let mut mid = *self;
                    mid.apply_step(me, s as u32);
                    n += if mid.pieces[me.opponent() as usize] == 0 {
                        1
                    } else {
                        mid.side(me, cache).count(Phase::XForward)
                    };
                }
                scratch.truncate(start);
                n
            }
        }
    }

    /// Replace `out` with `f` of each turn of the internal generator (none once decided),
    /// the turns generated and mapped by the copies for the processor ([`cpu`]).
    fn each_turn<T: FromTurn>(&self, out: &mut Vec<T>) {
        out.clear();
        if self.decided().is_some() {
            return;
        }
        let level = cpu::level();
        with_work(|work| {
            let start = work.stack.len();
            self.gen_turns_at(level, &mut work.stack, &mut work.cache);
            self.map_turns_at(level, &work.stack[start..], out);
            work.stack.truncate(start);
        });
    }

    /// Each of `turns` made and pushed onto `out`, by a loop of pushes rather than `extend`
    /// (whose out-of-line body would be compiled for the baseline whoever calls it).
    #[inline(always)]
    fn map_turns<T: FromTurn>(&self, turns: &[u64], out: &mut Vec<T>) {
        out.reserve(turns.len());
        for &t in turns {
            out.push(T::from_turn(self, t));
        }
    }

    /// [`Bitboard::gen_turns`] out of line: the one baseline copy of the generic code that
    /// `legal_moves`, `successors`, `status` and the portable perft share (the copies for
    /// newer processors are in [`cpu`]).
    #[inline(never)]
    fn gen_turns_shared(&self, out: &mut Vec<u64>, cache: &mut Cache) {
        self.gen_turns(out, cache)
    }

    /// [`Bitboard::count_turns`] out of line (see [`Bitboard::gen_turns_shared`]).
    #[inline(never)]
    fn count_turns_shared(&self, scratch: &mut Vec<u64>, cache: &mut Cache) -> u64 {
        self.count_turns(scratch, cache)
    }

    /// One perft node: nothing below a decided game (ORDO-10.5), bulk counting at the last
    /// ply, otherwise every turn made and `recurse`d into. `SHARED`: generate and count with
    /// the out-of-line copies instead of inlining them (a call per node costs nothing next
    /// to the node's work, and the crate compiles one copy fewer).
    #[inline(always)]
    fn perft_node<const SHARED: bool>(
        &self,
        depth: u32,
        work: &mut Work,
        recurse: impl Fn(&Bitboard, u32, &mut Work) -> u64,
    ) -> u64 {
        if self.decided().is_some() {
            return 0;
        }
        if depth == 1 {
            return if SHARED {
                self.count_turns_shared(&mut work.stack, &mut work.cache)
            } else {
                self.count_turns(&mut work.stack, &mut work.cache)
            };
        }
        let start = work.stack.len();
        if SHARED {
            self.gen_turns_shared(&mut work.stack, &mut work.cache);
        } else {
            self.gen_turns(&mut work.stack, &mut work.cache);
        }
        let end = work.stack.len();
        let mut n = 0;
        for i in start..end {
            let t = work.stack[i];
            n += recurse(&self.apply_turn(t), depth - 1, work);
        }
        work.stack.truncate(start);
        n
    }

    fn perft_plain(&self, depth: u32, work: &mut Work) -> u64 {
        self.perft_node::<true>(depth, work, |b, d, w| b.perft_plain(d, w))
    }

    /// Perft on `threads` threads (0 = one per core), split over the root moves: the crate's
    /// one parallel perft, [`perft::divide_parallel`], on this engine.
    pub fn perft_threads(&self, depth: u32, threads: usize) -> Result<u64, PerftError> {
        let opts = PerftOptions {
            threads,
            ..PerftOptions::default()
        };
        divide_parallel(self, depth, &opts).map(|d| d.total)
    }

    /// Recompute both split flags from scratch.
    fn refresh_split(&mut self) {
        for c in 0..2 {
            self.split[c] = !self.geo.connected(self.pieces[c]);
        }
    }

    /// The internal form of a vocabulary step for `me`, if it is well formed on this board:
    /// a singleton from one of `me`'s pieces to a square not holding one, or an ordo whose
    /// squares all hold `me`'s pieces and land on the board on empty squares or its own.
    fn encode_step(&self, me: Color, step: &Step) -> Option<u32> {
        let dims = self.geo.dims();
        if !step.named_squares().iter().all(|&q| dims.contains(q)) {
            return None;
        }
        let own = self.pieces[me as usize];
        let opp = self.pieces[me.opponent() as usize];
        let idx = |q| dims.index(q) as u32;
        match *step {
            Step::Single {
                from,
                to,
                capture,
                keep,
            } => {
                let (f, t) = (idx(from), idx(to));
                let is_capture = opp & bit(t) != 0;
                if own & bit(f) == 0 || own & bit(t) != 0 || is_capture != capture {
                    return None;
                }
                Some(encoding::single(f, t, capture, keep.map(idx)))
            }
            Step::Ordo { .. } => {
                let squares = step.canonical(dims).moved_squares()?;
                let (dc, dr) = step.displacement();
                if squares.len() < 2 || (dc, dr) == (0, 0) || squares.len() > 16 {
                    return None;
                }
                let mut run = 0u128;
                let mut moved = 0u128;
                for &q in &squares {
                    let t = dims.offset(q, dc as i8, dr as i8)?;
                    run |= bit(idx(q));
                    moved |= bit(idx(t));
                }
                if own & run != run || (own | opp) & !run & moved != 0 {
                    return None;
                }
                let first = idx(squares[0]);
                let vertical = squares[0].col == squares[1].col;
                let to = dims.offset(squares[0], dc as i8, dr as i8)?;
                Some(encoding::ordo(
                    first,
                    squares.len() as u32,
                    vertical,
                    idx(to),
                ))
            }
        }
    }

    /// The vocabulary semantics of applying a malformed step, mirroring the documented
    /// behaviour of [`Engine::apply`] (pieces are moved, nothing panics).
    fn apply_loose_step(&mut self, step: &Step) {
        let dims = self.geo.dims();
        let Some(moved) = step.moved_squares() else {
            return;
        };
        let (dc, dr) = step.displacement();
        let colour = moved.first().and_then(|&q| self.colour_at(q));
        for &q in &moved {
            self.set(q, None);
        }
        for &q in &moved {
            if let Some(t) = dims.offset(q, dc as i8, dr as i8) {
                self.set(t, colour);
            }
        }
        // The same case analysis as the reference engine's `apply_step`, written again on
        // purpose: the engines share no code but the rules (tests/it/independence.rs).
        if let (
            Step::Single {
                capture: true,
                keep,
                ..
            },
            Some(mover),
            Variant::X,
        ) = (*step, colour, self.variant)
        {
            let o = mover.opponent() as usize;
            let keep = keep.map(|k| dims.index(k) as u32);
            self.pieces[o] = kept_after_capture(self.geo, self.pieces[o], keep);
        }
    }

    fn colour_at(&self, q: crate::rules::Square) -> Option<Color> {
        let b = bit(self.geo.dims().index(q) as u32);
        Color::ALL
            .into_iter()
            .find(|&c| self.pieces[c as usize] & b != 0)
    }

    fn set(&mut self, q: crate::rules::Square, piece: Option<Color>) {
        let b = bit(self.geo.dims().index(q) as u32);
        self.pieces[0] &= !b;
        self.pieces[1] &= !b;
        if let Some(c) = piece {
            self.pieces[c as usize] |= b;
        }
    }
}

/// What [`Bitboard::each_turn`] makes of a turn: a trait rather than a closure, so that the
/// making is inlined into the copy of the loop compiled for the processor ([`cpu`]).
trait FromTurn: Sized {
    /// The result of the internal turn `t` from `b`.
    fn from_turn(b: &Bitboard, t: u64) -> Self;
}

/// The pieces after the turn ([`Bitboard::turn_pieces`]).
impl FromTurn for [u128; 2] {
    #[inline(always)]
    fn from_turn(b: &Bitboard, t: u64) -> Self {
        b.turn_pieces(t)
    }
}

/// The position after the turn ([`Bitboard::apply_turn`]).
impl FromTurn for Bitboard {
    #[inline(always)]
    fn from_turn(b: &Bitboard, t: u64) -> Self {
        b.apply_turn(t)
    }
}

impl Engine for Bitboard {
    const NAME: &'static str = "bitboard";

    fn from_position(pos: &Position) -> Result<Self, PositionError> {
        pos.validate()?;
        let dims = pos.dims();
        let mut b = Bitboard {
            geo: Geo::get(dims),
            pieces: [0, 0],
            to_move: pos.to_move,
            variant: pos.variant,
            split: [false, false],
        };
        for (i, sq) in dims.squares().enumerate() {
            if let Some(c) = pos.get(sq) {
                b.pieces[c as usize] |= bit(i as u32);
            }
        }
        b.refresh_split();
        Ok(b)
    }

    fn to_position(&self) -> Position {
        let dims = self.geo.dims();
        let mut pos = Position::empty(dims, self.to_move, self.variant);
        for (i, sq) in dims.squares().enumerate() {
            for c in Color::ALL {
                if self.pieces[c as usize] & bit(i as u32) != 0 {
                    pos.set(sq, Some(c));
                }
            }
        }
        pos
    }

    fn dims(&self) -> Dims {
        self.geo.dims()
    }

    fn side_to_move(&self) -> Color {
        self.to_move
    }

    fn variant(&self) -> Variant {
        self.variant
    }

    /// ORDO-10.5: nothing once the game is decided; otherwise every turn, converted to the
    /// vocabulary at the boundary.
    fn legal_moves(&self) -> Vec<Move> {
        if self.decided().is_some() {
            return Vec::new();
        }
        let mut turns = Vec::new();
        with_work(|work| self.gen_turns_at(cpu::level(), &mut turns, &mut work.cache));
        let dims = self.geo.dims();
        turns
            .into_iter()
            .map(|t| encoding::to_move(dims, t))
            .collect()
    }

    /// Well-formed steps (every legal move) go through the internal fast path; anything else
    /// moves pieces as the vocabulary describes. The split flags are then recomputed, so the
    /// result is a consistent position either way.
    fn apply(&self, mv: &Move) -> Self {
        let dims = self.geo.dims();
        let me = self.to_move;
        let mut next = *self;
        let on_board = mv
            .steps()
            .all(|s| s.named_squares().iter().all(|&q| dims.contains(q)));
        if on_board {
            for step in mv.steps() {
                match next.encode_step(me, step) {
                    Some(s) => next.apply_step(me, s),
                    None => next.apply_loose_step(step),
                }
                next.refresh_split();
            }
        }
        next.to_move = me.opponent();
        next.refresh_split();
        next
    }

    /// ORDO-10.1 and ORDO-10.2 for the player who just moved (ORDO-10.5), then ORDO-10.3 (split
    /// and no move; also ORDOX-3.5) or ORDO-10.4 (one group and no move) for the side to move.
    fn status(&self) -> Status {
        let me = self.to_move;
        if let Some(reason) = self.decided() {
            return Status::Won {
                winner: me.opponent(),
                reason,
            };
        }
        let level = cpu::level();
        if with_work(|work| self.count_turns_at(level, &mut work.stack, &mut work.cache)) > 0 {
            return Status::Ongoing;
        }
        let reason = if self.split[me as usize] {
            WinReason::CannotReconnect
        } else {
            WinReason::NoLegalMove
        };
        Status::Won {
            winner: me.opponent(),
            reason,
        }
    }

    fn occupancy(&self) -> [u128; 2] {
        self.pieces
    }

    fn from_occupancy(
        dims: Dims,
        variant: Variant,
        to_move: Color,
        occ: [u128; 2],
    ) -> Result<Self, PositionError> {
        let mut b = Self::unchecked(dims, variant, to_move, occ);
        let geo = b.geo;
        // ORDO-2.3, as `Position::validate` states it.
        let last = to_move.opponent();
        if b.pieces[last as usize] == 0 {
            return Err(PositionError::LastMoverHasNoPieces(last));
        }
        let reached = b.pieces[to_move as usize] & geo.home[last as usize];
        if reached != 0 {
            return Err(PositionError::SideToMoveOnHomeRow {
                color: to_move,
                square: dims.square(reached.trailing_zeros() as usize),
            });
        }
        b.refresh_split();
        Ok(b)
    }

    /// The flags are taken as given: no flood fill (see the trait).
    fn from_occupancy_split(
        dims: Dims,
        variant: Variant,
        to_move: Color,
        occ: [u128; 2],
        split: [bool; 2],
    ) -> Result<Self, PositionError> {
        let mut b = Self::unchecked(dims, variant, to_move, occ);
        b.split = split;
        Ok(b)
    }

    /// The turns' pieces straight from the internal generator.
    fn successor_occupancies(&self, out: &mut Vec<[u128; 2]>) {
        self.each_turn(out);
    }

    /// The turns straight from the internal generator, without the vocabulary's move list.
    fn successors(&self, out: &mut Vec<Self>) {
        self.each_turn(out);
    }

    /// Bulk-counting perft on one thread.
    fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        with_work(|work| self.perft_at(cpu::level(), depth, work))
    }
}
