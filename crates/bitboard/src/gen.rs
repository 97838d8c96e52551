//! Step generation for one player: singleton steps by sliding rays (or, when only counting,
//! by occluded fills of all pieces at once), ordo steps by shifting run masks, and the
//! connection rule judged from the mover's cached connection knowledge ([`super::conn`]),
//! never by a flood fill per candidate.

use crate::rules::{Color, Variant};

use super::conn::{split_groups, Info};
use super::encoding;
use super::geometry::{bit, for_each_dir, headings, shl, shr, squares, Geo, E, N, POSITIVE, S, W};

/// Which directions a step may take (ORDO-8.1, ORDO-8.2, ORDO-9.2, ORDOX-1.2, ORDOX-2.1,
/// ORDOX-2.2, ORDOX-3.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Phase {
    /// A classic move; `split` when the mover starts the turn split (ORDO-9.2).
    Classic { split: bool },
    /// An Ordo X forward step: a one-step turn or the second step of a turn.
    XForward,
    /// An Ordo X sideways step opening a two-step turn.
    XSideways,
}

/// Direction masks of a phase: singletons, horizontal ordos, vertical ordos.
fn phase_dirs(phase: Phase, me: Color) -> (u8, u8, u8) {
    let h = headings(me);
    match phase {
        // ORDO-8.1 and ORDO-9.2 (singletons), ORDO-8.2 and ORDO-9.2 (ordos).
        Phase::Classic { split } => {
            let mut single = h.forward | h.diagonal_forward | h.sideways;
            let mut horizontal = h.forward;
            if split {
                single |= h.backward | h.diagonal_backward;
                horizontal |= h.backward;
            }
            (single, horizontal, h.sideways)
        }
        // ORDOX-2.1, ORDOX-2.2, ORDOX-1.2: forward or diagonally forward, any orientation.
        Phase::XForward => {
            let f = h.forward | h.diagonal_forward;
            (f, f, f)
        }
        // ORDOX-3.1: the sideways step of a two-step turn.
        Phase::XSideways => (h.sideways, h.sideways, h.sideways),
    }
}

/// Receives the legal steps of a walk.
pub(crate) trait Visit {
    /// Singleton steps from `from` to every square of `dests` (captures where `dests` meets
    /// the opponent).
    fn singles(&mut self, side: &Side, from: u32, dests: u128);
    /// One ordo step, if `legal`: the run of `len` pieces from `first` (lower end) lands
    /// `first` on `to`. (The verdict is passed in so that counting needs no branch on it.)
    fn ordo(&mut self, legal: bool, first: u32, len: u32, vertical: bool, to: u32);
}

/// Counts steps, tie choices included (ORDOX-4.2).
pub(crate) struct Count(pub u64);

impl Visit for Count {
    #[inline(always)]
    fn singles(&mut self, side: &Side, _from: u32, dests: u128) {
        self.0 += dests.count_ones() as u64;
        if side.variant == Variant::X {
            for t in squares(dests & side.opp) {
                self.0 += side.capture_choices(t) - 1;
            }
        }
    }
    #[inline(always)]
    fn ordo(&mut self, legal: bool, _first: u32, _len: u32, _vertical: bool, _to: u32) {
        self.0 += legal as u64;
    }
}

/// The masks a walk over the runs of one orientation shares between directions.
#[derive(Clone, Copy)]
struct Lines {
    empty: u128,
    /// Pieces whose next square up the line holds a piece of the mover.
    has_next: u128,
    /// Pieces whose next square down the line holds a piece of the mover.
    has_prev: u128,
}

/// Pushes turns: each step, prefixed by `first` when it is the second step of a turn.
pub(crate) struct Push<'v> {
    pub out: &'v mut Vec<u64>,
    pub first: u32,
}

impl Push<'_> {
    #[inline(always)]
    fn push(&mut self, step: u32) {
        self.out.push(if self.first == 0 {
            step as u64
        } else {
            encoding::turn(self.first, step)
        });
    }
}

impl Visit for Push<'_> {
    #[inline(always)]
    fn singles(&mut self, side: &Side, from: u32, dests: u128) {
        for t in squares(dests) {
            if side.opp & bit(t) == 0 {
                self.push(encoding::single(from, t, false, None));
            } else if side.variant == Variant::Classic {
                self.push(encoding::single(from, t, true, None));
            } else {
                side.for_each_keep(t, |k| self.push(encoding::single(from, t, true, k)));
            }
        }
    }
    #[inline(always)]
    fn ordo(&mut self, legal: bool, first: u32, len: u32, vertical: bool, to: u32) {
        if legal {
            self.push(encoding::ordo(first, len, vertical, to));
        }
    }
}

/// One player's view of a position: the pieces, and the connection knowledge about the
/// mover's pieces.
pub(crate) struct Side<'g, 'c> {
    pub g: &'g Geo,
    pub variant: Variant,
    pub me: Color,
    pub own: u128,
    pub opp: u128,
    occ: u128,
    opp_split: bool,
    info: &'c mut Info,
}

impl<'g, 'c> Side<'g, 'c> {
    #[inline(always)]
    pub fn new(
        g: &'g Geo,
        variant: Variant,
        me: Color,
        opp: u128,
        opp_split: bool,
        info: &'c mut Info,
    ) -> Side<'g, 'c> {
        let own = info.own;
        Side {
            g,
            variant,
            me,
            own,
            opp,
            occ: own | opp,
            opp_split,
            info,
        }
    }

    /// ORDOX-4.1, ORDOX-4.2: how many moves a capture on `t` gives in Ordo X: one per tied
    /// largest group the opponent is left with, otherwise one.
    #[inline]
    pub fn capture_choices(&self, t: u32) -> u64 {
        let mut n = 0;
        self.for_each_keep(t, |_| n += 1);
        n
    }

    /// Calls `f` with each tie choice of an Ordo X capture on `t` (the lowest square of the
    /// group kept), or once with `None` when there is no choice to make (ORDOX-4.2).
    pub fn for_each_keep(&self, t: u32, mut f: impl FnMut(Option<u32>)) {
        let g = self.g;
        let after = self.opp & !bit(t);
        if self.variant == Variant::Classic
            || after == 0
            || (!self.opp_split && g.lift_is_local(self.opp, t))
        {
            f(None);
            return;
        }
        let mut groups = [0u128; 64];
        let n = split_groups(g, after, &mut groups);
        let largest = groups[..n]
            .iter()
            .map(|x| x.count_ones())
            .max()
            .unwrap_or(0);
        let tied = groups[..n]
            .iter()
            .filter(|x| x.count_ones() == largest)
            .count();
        if tied <= 1 {
            f(None);
        } else {
            for grp in groups[..n].iter().filter(|x| x.count_ones() == largest) {
                f(Some(grp.trailing_zeros()));
            }
        }
    }

    /// The number of legal steps of the phase, tie choices included (ORDOX-4.2).
    ///
    /// Singletons are counted per direction for all liftable pieces at once: in one
    /// direction every destination has exactly one piece behind it, a landing next to that
    /// piece must touch two of the mover's pieces (`E2`; one of them is the piece itself) and
    /// a landing further away one (`E1`). When the entry knows the landings of every other
    /// piece too ([`Info::bulk_singles`]), all pieces slide together and each destination
    /// is judged by the masks of its piece's zone; otherwise the others are counted one by
    /// one.
    #[inline(always)]
    pub fn count(&mut self, phase: Phase) -> u64 {
        let g = self.g;
        let (single_dirs, h_dirs, v_dirs) = phase_dirs(phase, self.me);
        let mut c = Count(0);
        let fast = self.info.liftable;
        let bulk = self.info.bulk_singles;
        let movers = if bulk { self.own } else { fast };
        let (e1, e2) = (self.info.e1, self.info.e2);
        let empty = g.board & !self.occ;
        for_each_dir!(single_dirs, D => {
            let (reach, near) = (g.slide_all::<D>(movers, empty), g.step::<D>(fast));
            let (reach, near) = (reach & !self.own, near & !self.own);
            let (far, slow) = if bulk {
                (self.info.zone_e1[D], self.info.slow_land[D])
            } else {
                (e1, 0)
            };
            let legal = (near & e2) | (reach & !near & far) | (reach & slow);
            c.0 += legal.count_ones() as u64;
            if self.variant == Variant::X {
                for t in squares(legal & self.opp) {
                    c.0 += self.capture_choices(t) - 1;
                }
            }
        });
        if !bulk {
            self.walk_singles(self.own & !fast, single_dirs, &mut c);
        }
        if h_dirs != 0 {
            self.count_runs::<false>(h_dirs, &mut c);
        }
        if v_dirs != 0 {
            self.count_runs::<true>(v_dirs, &mut c);
        }
        c.0
    }

    /// Every legal step of the phase, to `v`.
    #[inline(always)]
    pub fn walk<V: Visit>(&mut self, phase: Phase, v: &mut V) {
        let (single_dirs, h_dirs, v_dirs) = phase_dirs(phase, self.me);
        self.walk_singles(self.own, single_dirs, v);
        self.walk_all_runs(h_dirs, v_dirs, v);
    }

    /// ORDO-6.1, ORDO-6.2, ORDO-6.3: the pieces of `pieces` slide over empty squares and may
    /// stop on an opponent's piece (ORDO-6.4).
    #[inline(always)]
    fn walk_singles<V: Visit>(&mut self, pieces: u128, single_dirs: u8, v: &mut V) {
        let g = self.g;
        let lifts = self.info.liftable;
        // How many of the pieces walked so far are not in `lifts`.
        let mut nth = 0;
        for s in squares(pieces) {
            let mut reach = 0;
            for_each_dir!(single_dirs, D => reach |= g.slide_dir::<D>(s, self.occ));
            reach &= !self.own;
            let fast = lifts & bit(s) != 0;
            if reach != 0 {
                let ok = if fast {
                    self.info.single_ok(g, s)
                } else {
                    self.info.single_ok_nth(g, nth, s)
                };
                if reach & ok != 0 {
                    v.singles(self, s, reach & ok);
                }
            }
            nth += !fast as usize;
        }
    }

    /// ORDO-5.1, ORDO-5.2: every run of two or more along a row or a column, sub-runs
    /// included, in the directions its orientation allows.
    #[inline(always)]
    fn walk_all_runs<V: Visit>(&mut self, h_dirs: u8, v_dirs: u8, v: &mut V) {
        if h_dirs != 0 {
            self.walk_runs::<false, V>(h_dirs, v);
        }
        if v_dirs != 0 {
            self.walk_runs::<true, V>(v_dirs, v);
        }
    }

    /// ORDO-7.1, ORDO-7.2, ORDO-7.3, ORDOX-2.3: the ordo steps of one orientation in the
    /// directions `dirs`, distance by distance. A run moving `k` squares in a direction across
    /// its line (perpendicular or diagonal) needs the `k` squares ahead of each of its pieces
    /// empty, so the runs are the sub-runs of the pieces that have them; along its line
    /// (single file, Ordo X only) it needs them ahead of its leading end only, the rest of the
    /// way being squares it vacates itself. Ordos never capture, so an opponent's piece blocks.
    #[inline(always)]
    fn walk_runs<const VERTICAL: bool, V: Visit>(&mut self, dirs: u8, v: &mut V) {
        let lines = self.lines::<VERTICAL>();
        for_each_dir!(dirs, D => self.runs_dir::<VERTICAL, D, V>(&lines, v));
    }

    /// The masks the run walks of one orientation share.
    #[inline(always)]
    fn lines<const VERTICAL: bool>(&self) -> Lines {
        let g = self.g;
        let own = self.own;
        let empty = g.board & !self.occ;
        // Pieces whose next piece along the line is the mover's too (same row when horizontal).
        let line_next = |x: u128| {
            if VERTICAL {
                x & shr(x, g.cols)
            } else {
                x & ((x & g.not_first) >> 1)
            }
        };
        let has_next = line_next(own);
        let has_prev = if VERTICAL {
            own & shl(own, g.cols) & g.board
        } else {
            own & ((own & g.not_last) << 1)
        };
        Lines {
            empty,
            has_next,
            has_prev,
        }
    }

    /// [`Side::walk_runs`], counting: the steps across the line (perpendicular to it) of all
    /// runs at once where [`Side::count_across`] can, the others run by run.
    #[inline(always)]
    fn count_runs<const VERTICAL: bool>(&mut self, dirs: u8, c: &mut Count) {
        let g = self.g;
        // A run of every piece of the mover leaves no rest: judged run by run.
        let segments = self.own & !line_next::<VERTICAL, true>(g, self.own);
        let bulk = segments.count_ones() > 1;
        for_each_dir!(dirs, D => {
            let perpendicular = if VERTICAL { D == E || D == W } else { D == N || D == S };
            if perpendicular && bulk {
                self.count_across::<VERTICAL, D>(c);
            } else {
                let lines = self.lines::<VERTICAL>();
                self.runs_dir::<VERTICAL, D, Count>(&lines, c);
            }
        });
    }

    /// Counts the ordo steps in direction `D`, perpendicular to the line, of every run that
    /// lifts locally (see [`Info::run_lifts_locally`]) at once; the others go through
    /// [`Side::run_steps`] one by one. A run `R` moves `k` squares iff each of its pieces has
    /// `k` empty squares ahead; the landing `T` is judged as in [`Side::run_steps`]: from two
    /// squares on, `T` must meet `E1`, that is `R` must meet `E1` moved back `k` squares; at
    /// one square, `T` must touch the rest, which it does iff a piece of `R` has one of the
    /// mover's pieces on the three squares beyond its landing, or the square next to an end
    /// of `R` along the line, or the square ahead of that one, holds one. Runs are counted by
    /// their lower end (see [`sub_runs`]), minus those failing the test.
    #[inline(always)]
    fn count_across<const VERTICAL: bool, const D: usize>(&mut self, c: &mut Count) {
        let g = self.g;
        let own = self.own;
        let up = |x: u128| line_next::<VERTICAL, true>(g, x);
        let down = |x: u128| line_next::<VERTICAL, false>(g, x);
        let empty = g.board & !self.occ;
        // The squares with `k` empty squares ahead, `k` = 1 for now.
        let mut ahead = g.step_back::<D>(empty);
        let free = own & ahead;
        let pairs = free & down(free);
        if pairs == 0 {
            return;
        }
        let lift = self.info.liftable;
        let after = if VERTICAL {
            self.info.local_s
        } else {
            self.info.local_w
        };
        self.count_unlifted::<VERTICAL, D>(free, pairs, lift, after, c);
        let beside = own | g.step_back::<D>(own);
        let (end_lo, end_hi) = (up(beside), down(beside));
        let far = g.step_back::<D>(g.step_back::<D>(own | up(own) | down(own)));
        let lone = free & !far;
        let mut n = sub_runs(
            [lift & free, after & free, !0],
            [lift & lone & !end_lo, after & lone, !end_hi],
            up,
        );
        let mut touch = g.step_back::<D>(self.info.e1);
        let mut fk = free;
        loop {
            ahead = g.step_back::<D>(ahead & empty);
            touch = g.step_back::<D>(touch);
            fk &= ahead;
            if fk & down(fk) == 0 {
                break;
            }
            let lone = fk & !touch;
            n += sub_runs(
                [lift & fk, after & fk, !0],
                [lift & lone, after & lone, !0],
                up,
            );
        }
        c.0 += n;
    }

    /// The runs of [`Side::count_across`] that do not lift locally, one by one: those whose
    /// lower end is not in `lift` or that reach a piece not in `after` (the runs within
    /// `free` start on `pairs`).
    #[inline(always)]
    fn count_unlifted<const VERTICAL: bool, const D: usize>(
        &mut self,
        free: u128,
        pairs: u128,
        lift: u128,
        after: u128,
        c: &mut Count,
    ) {
        let g = self.g;
        // The starts below a piece not in `after`, found going down the line from it.
        let mut below = line_next::<VERTICAL, true>(g, pairs) & !after;
        let mut leads = pairs & !lift;
        while below != 0 {
            below = line_next::<VERTICAL, false>(g, below) & free;
            leads |= below;
        }
        for lead in squares(leads) {
            let mut cur = bit(lead);
            let mut run = cur;
            let mut len = 1;
            let mut lifts = lift & cur != 0;
            while pairs & cur != 0 {
                cur = line_up::<VERTICAL>(g, cur);
                run |= cur;
                len += 1;
                lifts &= after & cur != 0;
                if !lifts {
                    self.count_unlifted_run::<D>(run, lead, len, VERTICAL, c);
                }
            }
        }
    }

    /// [`Side::run_steps`], counting, for a run that does not lift locally and moves across
    /// its line (so its landings never overlap its squares), each of its pieces with an
    /// empty square ahead, when the mover has other pieces: one verdict lookup, then a
    /// landing per distance until the edge or a piece.
    #[inline(always)]
    fn count_unlifted_run<const D: usize>(
        &mut self,
        run: u128,
        first: u32,
        len: u32,
        vertical: bool,
        c: &mut Count,
    ) {
        let g = self.g;
        let meet = self.info.run_conn(g, run, first, len, vertical);
        let mut t = g.step::<D>(run);
        loop {
            c.0 += if meet[0] == 0 {
                g.connected((self.own & !run) | t)
            } else {
                (t & meet[0] != 0) & (t & meet[1] != 0)
            } as u64;
            if t & !g.src[D] != 0 {
                return;
            }
            t = g.step::<D>(t);
            if t & self.occ != 0 {
                return;
            }
        }
    }

    /// The ordo steps of one orientation in direction `D`.
    #[inline(always)]
    fn runs_dir<const VERTICAL: bool, const D: usize, V: Visit>(
        &mut self,
        lines: &Lines,
        v: &mut V,
    ) {
        let g = self.g;
        let along = if VERTICAL {
            D == N || D == S
        } else {
            D == E || D == W
        };
        // The pieces whose next square in direction `D` is empty.
        let free = self.own & g.step_back::<D>(lines.empty);
        if !along {
            // Across the line every piece of the run must be free: walk up from the lower end.
            let starts = if VERTICAL {
                free & shr(free, g.cols)
            } else {
                free & ((free & g.not_first) >> 1)
            };
            self.runs_from::<VERTICAL, D, false, V>(starts, starts, true, v);
        } else if POSITIVE[D] {
            let has_prev = lines.has_prev;
            self.runs_from::<VERTICAL, D, true, V>(free & has_prev, has_prev, false, v);
        } else {
            let has_next = lines.has_next;
            self.runs_from::<VERTICAL, D, false, V>(free & has_next, has_next, false, v);
        }
    }

    /// The ordo steps of the runs that start at a square of `leads` and extend, one square at
    /// a time, while the square reached is in `behind`: down the line when `DOWN` (the lead is
    /// the upper end), up it otherwise. `across`: the run moves across its line.
    #[inline(always)]
    fn runs_from<const VERTICAL: bool, const D: usize, const DOWN: bool, V: Visit>(
        &mut self,
        leads: u128,
        behind: u128,
        across: bool,
        v: &mut V,
    ) {
        let g = self.g;
        for lead in squares(leads) {
            let mut cur = bit(lead);
            let mut run = cur;
            let mut len = 1;
            while behind & cur != 0 {
                cur = if DOWN {
                    line_down::<VERTICAL>(g, cur)
                } else {
                    line_up::<VERTICAL>(g, cur)
                };
                run |= cur;
                len += 1;
                let first = if DOWN { cur.trailing_zeros() } else { lead };
                self.run_steps::<D, V>(run, first, len, VERTICAL, across, v);
            }
        }
    }

    /// The steps of one run (lower end `first`) in direction `D`, whose first square is known
    /// to be free: one square further each time while the squares it enters are empty (or,
    /// in single file, vacated by the run itself). Each landing is legal if the mover stays
    /// one group (ORDO-4.3); how that is judged is worked out once for the run. `across`: the
    /// direction is not along the run's line, so from two squares on the landing cannot touch
    /// the run's own squares, and touching the rest is touching any of the mover's pieces.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn run_steps<const D: usize, V: Visit>(
        &mut self,
        run: u128,
        first: u32,
        len: u32,
        vertical: bool,
        across: bool,
        v: &mut V,
    ) {
        let g = self.g;
        let rest = self.own & !run;
        let blockers = self.occ & !run;
        let lifts = rest != 0 && self.info.run_lifts_locally(run, first, vertical);
        // A landing is legal iff it meets both masks (see [`super::conn::Meet`]), or when
        // `many` (three or more groups left, rare) iff the flood fill says so.
        let mut meet = if rest == 0 {
            [g.board; 2]
        } else if lifts {
            // The rest is one group: the landing must touch it.
            [g.expand(rest), g.board]
        } else {
            self.info.run_conn(g, run, first, len, vertical)
        };
        let many = meet[0] == 0;
        let mut t = g.step::<D>(run);
        let mut k = 1;
        loop {
            let legal = if many {
                g.connected(rest | t)
            } else {
                (t & meet[0] != 0) & (t & meet[1] != 0)
            };
            if lifts && across {
                // From two squares on the landing cannot touch the run's own squares.
                meet[0] = self.info.e1;
            }
            let to = (first as i32 + k * g.delta[D]) as u32;
            v.ordo(legal, first, len, vertical, to);
            if t & !g.src[D] != 0 {
                break;
            }
            t = g.step::<D>(t);
            if t & blockers != 0 {
                break;
            }
            k += 1;
        }
    }
}

/// One square up the line (`VERTICAL`: up a column, otherwise along a row).
#[inline(always)]
fn line_up<const VERTICAL: bool>(g: &Geo, x: u128) -> u128 {
    if VERTICAL {
        shl(x, g.cols)
    } else {
        x << 1
    }
}

/// One square down the line (see [`line_up`]).
#[inline(always)]
fn line_down<const VERTICAL: bool>(g: &Geo, x: u128) -> u128 {
    if VERTICAL {
        shr(x, g.cols)
    } else {
        x >> 1
    }
}

/// The neighbours along the line of the squares of `x`, on the same line: one square up it
/// (`UP`; east along a row, north up a column) or down it.
#[inline(always)]
fn line_next<const VERTICAL: bool, const UP: bool>(g: &Geo, x: u128) -> u128 {
    match (VERTICAL, UP) {
        (true, true) => shl(x, g.cols) & g.board,
        (true, false) => shr(x, g.cols),
        (false, true) => (x & g.not_last) << 1,
        (false, false) => (x & g.not_first) >> 1,
    }
}

/// The runs of two or more squares along the line described by `all`, less those described
/// by `fail`, each `[starts, within, ends]`: runs whose lower end is on a square of `starts`,
/// whose other squares are in `within` and whose upper end is on a square of `ends`; the
/// starts and squares of `fail` must be among those of `all`. Moving every start up the line
/// one square at a time while it lands in `within`, the runs of length `m` end where the
/// starts are after `m - 1` moves; a move is one-to-one, so no run is lost. The two walks go
/// in step (two independent chains in one loop).
#[inline(always)]
fn sub_runs(all: [u128; 3], fail: [u128; 3], up: impl Fn(u128) -> u128) -> u64 {
    let (mut u, mut v) = (all[0], fail[0]);
    let mut n = 0;
    loop {
        u = up(u) & all[1];
        if u == 0 {
            return n;
        }
        v = up(v) & fail[1];
        n += (u & all[2]).count_ones() as u64 - (v & fail[2]).count_ones() as u64;
    }
}

/// ORDOX-4.1, ORDOX-4.2: what stays of the opponent's pieces `x` after a capture: the group
/// containing `keep` if that is a largest group, else the largest group with the lowest
/// square; everything when `x` is one group.
pub(crate) fn kept_after_capture(g: &Geo, x: u128, keep: Option<u32>) -> u128 {
    let mut groups = [0u128; 64];
    let n = split_groups(g, x, &mut groups);
    if n <= 1 {
        return x;
    }
    let largest = groups[..n]
        .iter()
        .map(|x| x.count_ones())
        .max()
        .unwrap_or(0);
    if let Some(k) = keep {
        if let Some(grp) = groups[..n]
            .iter()
            .find(|grp| *grp & bit(k) != 0 && grp.count_ones() == largest)
        {
            return *grp;
        }
    }
    *groups[..n]
        .iter()
        .find(|grp| grp.count_ones() == largest)
        .expect("a largest group")
}
