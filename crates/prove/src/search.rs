//! Depth-first proof-number search (Nagai's df-pn) in its negamax form, for one attacker: at
//! every node φ is the cost of proving the goal of the side to move (the attacker's goal is a
//! win, the defender's that the attacker does not win) and δ the cost of refuting it;
//! φ(n) = min δ(child), δ(n) = Σ φ(child). A node is searched until its numbers reach the
//! thresholds its parent gave it, with Pawlewicz and Lew's 1 + ε trick for the second-best
//! child. Optionally δ is a weak proof number (the largest φ of the children plus one for
//! each other open child), which does not count a shared position once for every path to it.
//!
//! Ordo has no repetition rule, so a line that comes back to a position on the current path
//! is endless play, a draw (ORDO-3.3): it refutes the attacker there. That value depends on
//! the path (the graph-history interaction), so a refutation built on it may be wrong
//! elsewhere; a proof never is (no proof uses a cycle). The search keeps such refutations
//! like any other and leaves the judgement to extraction: every result is read out as a
//! graph whose every node is re-justified, and a refutation that does not close is reported
//! as not proved.

use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use ordo_core::rules::{Color, Engine, Status};
use ordo_solve::Value;

use crate::leaves::Leaves;
use crate::table::{Entry, Table, INF, TAINTED};
use crate::threat::WinCheck;

/// What stops a search short of a result.
#[derive(Clone, Copy, Debug, Default)]
pub struct Budget {
    /// The most nodes to expand.
    pub nodes: Option<u64>,
    /// The latest time to go on.
    pub deadline: Option<Instant>,
}

/// The state of a running search, what a progress report shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tick {
    /// Nodes expanded so far (both attackers).
    pub nodes: u64,
    /// Time since the search began.
    pub elapsed: Duration,
    /// The root's proof and disproof numbers for the current attacker, as last summed.
    pub root: (u32, u32),
    /// The attacker whose win is being proved or refuted.
    pub attacker: Color,
    /// The plies the attacker has at the root, in a bounded search (`--within`, or the
    /// bounded searches after a search stuck on cycles); `None` in an unbounded one.
    pub within: Option<u32>,
    /// Transposition table slots in use and in all.
    pub table: (usize, usize),
}

/// A child of an expanded node: the position, its key, and what is known of it.
pub(crate) struct Child<E> {
    pub e: E,
    pub key: u64,
    /// The plies left at the child.
    pub left: Left,
    /// A leaf's numbers and proof depth (the game over, or a table value).
    pub leaf: Option<(u32, u32)>,
    /// The numbers before any search of the child (the mobility heuristic or 1, 1).
    pub init: (u32, u32),
    /// The numbers the child's last search returned here, and whether they rest on a cycle
    /// through the path (a refutation not stored in the table).
    pub last: Option<(Entry, bool)>,
}

/// The numbers of an expanded node, summed over its children.
struct Sum {
    phi: u32,
    delta: u32,
    best: usize,
    /// δ of the best child and φ of it, and the second-smallest δ.
    best_delta: u32,
    best_phi: u32,
    second_delta: u32,
    depth: u32,
    /// The node is solved only through a value that rests on the current path.
    tainted: bool,
    /// Children not yet refuted (φ > 0).
    open: u32,
}

/// One proof search over one position tree, for one attacker at a time.
pub(crate) struct Search<'a, E> {
    pub table: Table,
    pub attacker: Color,
    path: HashSet<u64, BuildHasherDefault<KeyHasher>>,
    pub nodes: u64,
    budget: Budget,
    stop: &'a AtomicBool,
    pub stopped: bool,
    pub leaves: Leaves<'a, E>,
    mobility: bool,
    /// Initial numbers from the pieces' advance (see [`Search::advance_numbers`]).
    pub advance: bool,
    /// The one-ply win check at the frontier ([`crate::threat`]), if on.
    pub win_check: Option<WinCheck>,
    start: Instant,
    root: (u32, u32),
    /// The plies left at the root of the current search.
    bound: Left,
    progress: &'a mut dyn FnMut(&Tick),
    next_tick: u64,
    /// Store refutations that rest on a cycle through the path too (marked): fast, and
    /// right wherever the refutation holds on every path; the results are judged when read
    /// out, and a search whose results do not read out is run again without them.
    pub keep_tainted: bool,
    /// Weak proof numbers (Ueda, Hashimoto, Hashimoto and Iida, 2008): δ is the largest φ
    /// of the children plus one for every other child not yet refuted, not their sum, which
    /// counts a position reached by several moves once for each (see [`Options::weak`]).
    ///
    /// [`Options::weak`]: crate::Options::weak
    pub weak: bool,
}

/// The hasher of the path's set. A key is already a mix of every bit of its position
/// ([`key`]), so it serves as its own hash. The standard hasher (SipHash) took a quarter to
/// a third of the search's CPU time, because every child of every expanded node is looked up
/// in the path.
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }

    fn write_u64(&mut self, k: u64) {
        self.0 = k;
    }
}

/// The plies the attacker has left to win in, in a search bounded by a ply count (a problem's
/// stipulation); `None` in an unbounded search.
pub(crate) type Left = Option<u32>;

/// The key of a position for one attacker: the pieces, the side to move, the attacker and
/// the plies left (in a bounded search, the same position with fewer plies left is another
/// node) mixed into 64 bits (never 0, the empty slot).
pub(crate) fn key<E: Engine>(e: &E, attacker: Color, left: Left) -> u64 {
    let [w, b] = e.occupancy();
    let bound = left.map_or(0, |l| u64::from(l) + 1);
    let tag = bound << 2 | (e.side_to_move() as u64) << 1 | attacker as u64;
    let mut h = 0x9e37_79b9_7f4a_7c15u64;
    // Each word mixed in on its own step, so that no two inputs can cancel.
    for word in [tag, w as u64, (w >> 64) as u64, b as u64, (b >> 64) as u64] {
        h = mix(h ^ word);
    }
    h.max(1)
}

/// The finalizer of SplitMix64: every input bit reaches every output bit.
fn mix(mut x: u64) -> u64 {
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

/// Whether the side that just moved has a piece on the other's home row (ORDO-10.1) or the
/// side to move has no piece (ORDO-10.2): the game is over, lost for the side to move.
fn ended_by_pieces<E: Engine>(e: &E) -> bool {
    let d = e.dims();
    let [w, b] = e.occupancy();
    let row = (1u128 << d.cols) - 1;
    let (white_home, black_home) = (row, row << (d.len() - d.cols as usize));
    let (mine, theirs, my_home) = match e.side_to_move() {
        Color::White => (w, b, white_home),
        Color::Black => (b, w, black_home),
    };
    mine == 0 || theirs & my_home != 0
}

/// The numbers of a node where the side to move has lost (the game is over).
pub(crate) const LOST: (u32, u32) = (INF, 0);
/// The numbers of a node where the side to move has reached its goal.
pub(crate) const REACHED: (u32, u32) = (0, INF);

impl<'a, E: Engine> Search<'a, E> {
    pub fn new(
        table: Table,
        leaves: Leaves<'a, E>,
        mobility: bool,
        budget: Budget,
        stop: &'a AtomicBool,
        progress: &'a mut dyn FnMut(&Tick),
    ) -> Search<'a, E> {
        Search {
            table,
            attacker: Color::White,
            path: HashSet::default(),
            nodes: 0,
            budget,
            stop,
            stopped: false,
            leaves,
            mobility,
            advance: true,
            win_check: None,
            start: Instant::now(),
            root: (1, 1),
            bound: None,
            progress,
            next_tick: 1 << 14,
            keep_tainted: true,
            weak: false,
        }
    }

    /// The numbers of a node where the game is drawn (a cycle, a table draw): the attacker's
    /// goal fails, the defender's is reached.
    pub fn drawn(&self, mover: Color) -> (u32, u32) {
        if mover == self.attacker {
            LOST
        } else {
            REACHED
        }
    }

    /// The numbers of a leaf: the game over, a position the tables hold, or (in a bounded
    /// search) a position with no plies left.
    pub fn leaf(&mut self, e: &E, left: Left) -> Option<(u32, u32)> {
        self.leaf_and_moves(e, left).0
    }

    /// The numbers of a position with no plies left, not over by its pieces: the attacker to
    /// move has not won in time; the defender to move has lost only if it has no move
    /// (ORDO-10.3, ORDO-10.4: the attacker's last move won), else it has held out.
    fn horizon(&self, e: &E) -> (u32, u32) {
        if e.side_to_move() == self.attacker || e.perft(1) == 0 {
            LOST
        } else {
            REACHED
        }
    }

    /// [`Search::leaf`] and the number of legal moves (0 when the game is over): one move
    /// count answers both, the status is asked only of a finished game.
    ///
    /// Without the mobility heuristic no count is needed: a game ended by ORDO-10.1 or
    /// ORDO-10.2 shows in the pieces, and one ended by ORDO-10.3 or ORDO-10.4 (no move) shows
    /// when the node is expanded and has no child (its numbers sum to a loss of the mover).
    pub fn leaf_and_moves(&mut self, e: &E, left: Left) -> (Option<(u32, u32)>, u64) {
        if ended_by_pieces(e) {
            return (Some(LOST), 0);
        }
        if left == Some(0) {
            return (Some(self.horizon(e)), 0);
        }
        let moves = if self.mobility { e.perft(1) } else { 1 };
        if moves == 0 {
            if let Status::Won { winner, .. } = e.status() {
                let l = if winner == e.side_to_move() {
                    REACHED
                } else {
                    LOST
                };
                return (Some(l), 0);
            }
        }
        if let Some(t) = self.table_leaf(e, left) {
            return (Some(t), moves);
        }
        // With a ply left, a win in one reaches the mover's goal either way: the attacker
        // wins in time, the defender does not lose.
        if let Some(w) = self.win_check.as_mut() {
            if w.wins(e, |e| key(e, Color::White, None)) {
                return (Some(REACHED), moves);
            }
        }
        (None, moves)
    }

    /// A table value as numbers: the attacker's win counts only if it comes within the
    /// plies left.
    fn table_leaf(&mut self, e: &E, left: Left) -> Option<(u32, u32)> {
        let v = self.leaves.probe(e)?;
        let attacker_moves = e.side_to_move() == self.attacker;
        let in_time = |plies: u16| left.is_none_or(|l| u32::from(plies) <= l);
        let attacker_wins = match v {
            Value::Win(n) => attacker_moves && in_time(n),
            Value::Loss(n) => !attacker_moves && in_time(n),
            Value::Draw => false,
        };
        Some(if attacker_wins == attacker_moves {
            REACHED
        } else {
            LOST
        })
    }

    /// Numbers from the mover's view (φ, δ) as the attacker's proof and disproof numbers.
    pub fn attacker_view(&self, mover: Color, (phi, delta): (u32, u32)) -> (u32, u32) {
        if mover == self.attacker {
            (phi, delta)
        } else {
            (delta, phi)
        }
    }

    /// Search `root` for `attacker` until it is solved or the budget ends; the root's proof
    /// and disproof numbers for the attacker.
    pub fn run(&mut self, root: &E, attacker: Color, left: Left) -> (u32, u32) {
        self.attacker = attacker;
        self.bound = left;
        self.path.clear();
        if let Some(l) = self.leaf(root, left) {
            return self.attacker_view(root.side_to_move(), l);
        }
        let k = key(root, attacker, left);
        let (e, _) = self.mid(root, k, left, (INF, INF), true);
        self.attacker_view(root.side_to_move(), (e.phi, e.delta))
    }

    /// Forget the current path (a fresh search of a node out of its context).
    pub fn clear_path(&mut self) {
        self.path.clear();
    }

    /// Make `keys` the current path: a search from here counts a return to any of them as
    /// endless play (a draw), so a proof it finds avoids them.
    pub fn set_path(&mut self, keys: &[u64]) {
        self.path.clear();
        self.path.extend(keys.iter().copied());
    }

    fn out_of_budget(&mut self) -> bool {
        if self.stopped {
            return true;
        }
        let over_nodes = self.budget.nodes.is_some_and(|n| self.nodes >= n);
        let over_time = self.budget.deadline.is_some_and(|d| Instant::now() >= d);
        if over_nodes || over_time || self.stop.load(Ordering::Relaxed) {
            self.stopped = true;
        }
        self.stopped
    }

    fn tick(&mut self) {
        if self.nodes < self.next_tick {
            return;
        }
        self.next_tick = self.nodes + (1 << 14);
        let (slots, used) = self.table.fill();
        let t = Tick {
            nodes: self.nodes,
            elapsed: self.start.elapsed(),
            root: self.root,
            attacker: self.attacker,
            within: self.bound,
            table: (used, slots),
        };
        (self.progress)(&t);
    }

    /// Initial numbers from how far each side's most advanced piece is from the other's
    /// home row (ORDO-10.1): the nearer the attacker, the smaller its proof number; the
    /// nearer the defender, the smaller the disproof number.
    fn advance_numbers(&self, c: &E) -> (u32, u32) {
        let d = c.dims();
        let [w, b] = c.occupancy();
        let cols = d.cols as u32;
        let rows = d.rows as u32;
        let white = match w {
            0 => rows,
            w => rows - 1 - (127 - w.leading_zeros()) / cols,
        };
        let black = match b {
            0 => rows,
            b => b.trailing_zeros() / cols,
        };
        let (att, def) = match self.attacker {
            Color::White => (white, black),
            Color::Black => (black, white),
        };
        let (pn, dn) = (att.max(1), def.max(1));
        if c.side_to_move() == self.attacker {
            (pn, dn)
        } else {
            (dn, pn)
        }
    }

    /// The children of `e` (which is not over, with `left` plies left), each with its leaf
    /// value if it is one; only the first child where the game is over, if a move ends it.
    pub fn expand(&mut self, e: &E, left: Left) -> Vec<Child<E>> {
        let mut next = Vec::new();
        e.successors(&mut next);
        // A move that ends the game by its pieces wins here (ORDO-10.1, ORDO-10.2): that
        // child alone decides the node, so the others are not valued (at a bounded search's
        // horizon, valuing one costs a count of its moves).
        if let Some(w) = next.iter().position(ended_by_pieces) {
            next.swap(0, w);
            next.truncate(1);
        }
        let left = left.map(|l| l - 1);
        next.into_iter()
            .map(|c| {
                let (leaf, moves) = self.leaf_and_moves(&c, left);
                let init = match (leaf, self.mobility) {
                    (None, true) => (1, (moves.min(u64::from(INF - 1)) as u32).max(1)),
                    (None, false) if self.advance => self.advance_numbers(&c),
                    _ => (1, 1),
                };
                Child {
                    key: key(&c, self.attacker, left),
                    left,
                    e: c,
                    leaf,
                    init,
                    last: None,
                }
            })
            .collect()
    }

    /// What is known of a child: a leaf, on the path (a cycle), the table, its last search
    /// here, or its initial numbers; with its proof depth and whether it rests on the path.
    pub fn child_numbers(&self, c: &Child<E>) -> (u32, u32, u32, bool) {
        if let Some((p, d)) = c.leaf {
            return (p, d, 0, false);
        }
        if self.path.contains(&c.key) {
            let (p, d) = self.drawn(c.e.side_to_move());
            return (p, d, 0, true);
        }
        // A refutation resting on the path that the table did not keep is the newest word.
        if let Some((t, true)) = c.last.filter(|_| !self.keep_tainted) {
            return (t.phi, t.delta, t.depth, true);
        }
        if let Some(t) = self.table.get(c.key) {
            return (t.phi, t.delta, t.depth, t.tainted());
        }
        match c.last {
            Some((t, tainted)) => (t.phi, t.delta, t.depth, tainted),
            None => (c.init.0, c.init.1, 0, false),
        }
    }

    /// The numbers of a node with a child where the game is over, lost for that child's
    /// mover: the node's goal is reached in one ply, whatever its other children are, so
    /// none of them is looked up in the path or the table (in a wide node, most of its cost).
    fn won_at(kids: &[Child<E>]) -> Option<Sum> {
        let i = kids.iter().position(|c| c.leaf == Some(LOST))?;
        Some(Sum {
            phi: 0,
            delta: INF,
            best: i,
            best_delta: 0,
            best_phi: INF,
            second_delta: INF,
            depth: 1,
            tainted: false,
            open: 0,
        })
    }

    fn sum(&self, kids: &[Child<E>]) -> Sum {
        let mut s = Sum {
            phi: INF,
            delta: 0,
            best: 0,
            best_delta: INF,
            best_phi: 0,
            second_delta: INF,
            depth: 0,
            tainted: false,
            open: 0,
        };
        let (mut all_depth, mut win_depth) = (0, u32::MAX);
        // Taint of a refutation (every child reached) and of a goal reached (all children
        // refuted that are, tainted).
        let (mut any_taint, mut clean_win) = (false, false);
        let (mut most, mut open) = (0u32, 0u32);
        for (i, c) in kids.iter().enumerate() {
            let (p, d, depth, tainted) = self.child_numbers(c);
            s.delta = (s.delta + p).min(INF);
            most = most.max(p);
            open += u32::from(p != 0);
            all_depth = all_depth.max(depth + 1);
            any_taint |= tainted;
            if d == 0 {
                win_depth = win_depth.min(depth + 1);
                clean_win |= !tainted;
            }
            if d < s.best_delta {
                s.second_delta = s.best_delta;
                (s.best_delta, s.best_phi, s.best) = (d, p, i);
            } else if d < s.second_delta {
                s.second_delta = d;
            }
        }
        s.phi = s.best_delta;
        if self.weak && s.delta != 0 && s.delta != INF && most != INF {
            s.delta = (most + open - 1).min(INF);
        }
        s.open = open;
        s.depth = if s.phi == 0 { win_depth } else { all_depth };
        s.tainted = (s.phi == 0 && !clean_win) || (s.delta == 0 && any_taint);
        s
    }

    /// The thresholds for the best child of a node summed as `s` whose own are `th`: its φ
    /// may grow until the node's δ would reach `th.1`, its δ until it passes the second-best
    /// child's by a quarter (the 1 + ε trick) or reaches the node's φ threshold.
    fn child_thresholds(&self, s: &Sum, (th_phi, th_delta): (u32, u32)) -> (u32, u32) {
        // What the other children add to the node's δ: their sum, or with weak numbers one
        // each (the largest φ is then the child's own, once it passes the rest).
        let others = if self.weak {
            s.open.saturating_sub(1)
        } else {
            s.delta - s.best_phi
        };
        let wide = s
            .second_delta
            .saturating_add(s.second_delta / 4)
            .saturating_add(1);
        (
            th_delta.saturating_sub(others).min(INF),
            th_phi.min(wide).min(INF),
        )
    }

    /// Search the node `e` (not a leaf; key `k`, `left` plies left) until φ ≥ `th_phi` or
    /// δ ≥ `th_delta`. Its entry and whether it rests on a cycle through the path; stored
    /// in the table (if the table keeps it) unless it does.
    pub fn mid(
        &mut self,
        e: &E,
        k: u64,
        left: Left,
        (th_phi, th_delta): (u32, u32),
        root: bool,
    ) -> (Entry, bool) {
        let mut kids = self.expand(e, left);
        self.nodes += 1;
        self.tick();
        let before = self.nodes;
        self.path.insert(k);
        let mut s = Self::won_at(&kids).unwrap_or_else(|| self.sum(&kids));
        while s.phi < th_phi && s.delta < th_delta && !self.out_of_budget() {
            if root {
                self.root = self.attacker_view(e.side_to_move(), (s.phi, s.delta));
            }
            let (child_th_phi, child_th_delta) = self.child_thresholds(&s, (th_phi, th_delta));
            let c = &kids[s.best];
            let (e2, k2, left2) = (c.e.clone(), c.key, c.left);
            let before_child = self.child_numbers(&kids[s.best]);
            let got = self.mid(&e2, k2, left2, (child_th_phi, child_th_delta), false);
            kids[s.best].last = Some(got);
            if !root && self.child_numbers(&kids[s.best]) == before_child {
                // No progress below (the child's view differs from ours through a cycle):
                // give the choice back to the parent rather than spin.
                s = self.sum(&kids);
                break;
            }
            s = self.sum(&kids);
        }
        if root {
            self.root = self.attacker_view(e.side_to_move(), (s.phi, s.delta));
        }
        self.path.remove(&k);
        let work = (self.nodes - before + 1).min(u64::from(TAINTED - 1)) as u32;
        let entry = Entry {
            key: k,
            phi: s.phi,
            delta: s.delta,
            work: work | if s.tainted { TAINTED } else { 0 },
            depth: if s.phi == 0 || s.delta == 0 {
                s.depth
            } else {
                0
            },
        };
        if !s.tainted || self.keep_tainted {
            self.table.put(entry);
        }
        (entry, s.tainted)
    }
}
