//! The one-ply win check at the frontier: a position whose side to move can end the game
//! with its next move by the pieces (a piece on the other's home row, ORDO-10.1, or the
//! other's last piece taken, ORDO-10.2) is won for that side and need not be expanded.
//!
//! Generating every move of every new child would cost as much as expanding it, so the
//! moves are generated only where a cheap test on the masks allows a win: in classic Ordo,
//! a piece reaches the goal row only along a forward or diagonally forward ray through empty
//! squares (singletons, ORDO-6.3; an ordo's leading piece, ORDO-7.3), and lands beside a
//! piece of its own on the row before (ORDO-4.3). In Ordo X a sideways step may come first
//! (ORDOX-3.1) and may open a ray by a capture; the test there lets own pieces and the first
//! step's row shift count as passable. The test can miss a win (an ordo's, or one opened by
//! a capture), which is only a node expanded as before: the check never claims a win the
//! moves do not give.

use ordo_core::rules::{Color, Dims, Engine, Variant};

/// The check with a cache of its answers: a position is checked once, not at every
/// expansion of its parent (a parent is expanded again each time the search comes back to
/// it). One word a slot: the position's key with its lowest bit replaced by the answer.
pub(crate) struct WinCheck {
    cache: Vec<u64>,
    buf: Vec<[u128; 2]>,
    /// The masks of the board searched, made on the first check (one board a search).
    shape: Option<Shape>,
}

impl WinCheck {
    /// A check whose cache takes at most `bytes` (at least 1,024 slots).
    pub fn with_bytes(bytes: u64) -> WinCheck {
        let slots = (bytes / 8).clamp(1 << 10, 1 << 30);
        let slots = 1usize << (63 - slots.leading_zeros());
        WinCheck {
            cache: vec![0; slots],
            buf: Vec::new(),
            shape: None,
        }
    }

    /// Whether the side to move of `e` wins in one by the pieces, as [`wins_in_one`] says;
    /// only a position whose moves must be generated is looked up, by its key.
    pub fn wins<E: Engine>(&mut self, e: &E, key: impl FnOnce(&E) -> u64) -> bool {
        let dims = e.dims();
        if self.shape.as_ref().is_some_and(|sh| sh.dims != dims) {
            self.shape = None;
        }
        let shape = self.shape.get_or_insert_with(|| Shape::of(dims));
        let v = View::of(e, shape);
        match needs_moves(e.variant(), &v) {
            Some(false) => return false,
            None => return true,
            Some(true) => {}
        }
        let key = key(e);
        let tag = key | 1;
        let at = (key >> 1) as usize & (self.cache.len() - 1);
        let slot = self.cache[at];
        if slot | 1 == tag {
            return slot & 1 == 1;
        }
        let won = ends_by_a_move(e, v.goal, &mut self.buf);
        self.cache[at] = (key & !1) | u64::from(won);
        won
    }
}

/// The masks of a board: every square, the columns a diagonal step may land in, and each
/// side's goal row (the other's home row, ORDO-1.3) and the row before it.
struct Shape {
    dims: Dims,
    cols: u32,
    len: u32,
    board: u128,
    not_first_col: u128,
    not_last_col: u128,
    /// White's goal, the top row, and Black's, the bottom row.
    goal: [u128; 2],
    /// The row before each side's goal.
    before: [u128; 2],
}

impl Shape {
    fn of(dims: Dims) -> Shape {
        let (cols, len) = (dims.cols as u32, dims.len() as u32);
        let board = if len == 128 {
            u128::MAX
        } else {
            (1u128 << len) - 1
        };
        let row = (1u128 << cols) - 1;
        let (mut first, mut last) = (0u128, 0u128);
        for r in 0..len / cols {
            first |= 1 << (r * cols);
            last |= 1 << (r * cols + cols - 1);
        }
        Shape {
            dims,
            cols,
            len,
            board,
            not_first_col: board & !first,
            not_last_col: board & !last,
            goal: [row << (len - cols), row],
            before: [row << (len - 2 * cols), row << cols],
        }
    }
}

/// What the checks read of a position: the board's shape, the side to move, its pieces and
/// the other side's, and its goal row.
struct View<'a> {
    m: &'a Shape,
    mover: Color,
    mine: u128,
    theirs: u128,
    goal: u128,
}

impl<'a> View<'a> {
    fn of<E: Engine>(e: &E, m: &'a Shape) -> View<'a> {
        let [w, b] = e.occupancy();
        let mover = e.side_to_move();
        let (mine, theirs) = match mover {
            Color::White => (w, b),
            Color::Black => (b, w),
        };
        View {
            m,
            mover,
            mine,
            theirs,
            goal: m.goal[mover as usize],
        }
    }
}

/// The squares of `from` moved one step forward for `mover` (White up, Black down), straight
/// or diagonally by `dc` columns (-1, 0, 1), dropped where they would leave the board.
fn step(from: u128, mover: Color, dc: i32, m: &Shape) -> u128 {
    let land = match dc {
        1 => m.not_first_col,
        -1 => m.not_last_col,
        _ => m.board,
    };
    let shifted = match mover {
        Color::White => from << (m.cols as i32 + dc) as u32,
        Color::Black => from >> (m.cols as i32 - dc) as u32,
    };
    shifted & land
}

/// Whether a piece of the side to move could reach the other's home row in one move, as far
/// as the masks tell (see the module's doc), or the other side has one piece left.
///
/// The mover's pieces are one group after its move (ORDO-4.3), so a piece that lands on the
/// goal row has a neighbour of its own on the row before it; that neighbour stood there
/// before the move unless it came with the same ordo (a vertical ordo's second piece, or a
/// whole group that is one horizontal line). Those ordo moves are left to the search.
fn may_win_in_one(variant: Variant, v: &View) -> bool {
    let View {
        m,
        mover,
        mine,
        theirs,
        goal,
    } = *v;
    if theirs.count_ones() == 1 {
        return true;
    }
    let before = m.before[mover as usize];
    // A lone piece needs no neighbour: it is the whole group.
    let neighbours = if mine.count_ones() == 1 {
        mine | before
    } else {
        mine & before
    };
    // The leading piece of a vertical ordo brings its neighbour along.
    let front = match mover {
        Color::White => mine & (mine << m.cols),
        Color::Black => mine & (mine >> m.cols),
    };
    let flood = |start, passable, landing| reaches(start, passable, landing, mover, m);
    let open_goal = goal & !mine;
    match variant {
        Variant::Classic => {
            let beside = neighbours | ((neighbours << 1) & m.not_first_col);
            let beside = beside | ((neighbours >> 1) & m.not_last_col);
            let above = match mover {
                Color::White => beside << m.cols,
                Color::Black => beside >> m.cols,
            };
            let empty = m.board & !(mine | theirs);
            flood(mine, empty, above & open_goal) || flood(front, empty, open_goal)
        }
        _ => {
            let start = if neighbours != 0 { mine } else { front };
            flood(rows_of(start, m), m.board & !theirs, open_goal)
        }
    }
}

/// Whether a forward or diagonally forward ray from a square of `start`, through squares of
/// `passable`, lands on a square of `landing` (squares of the goal row).
fn reaches(start: u128, passable: u128, landing: u128, mover: Color, m: &Shape) -> bool {
    (-1..=1).any(|dc| ray_ends(start, passable, mover, dc, m) & landing != 0)
}

/// Every square of each row that holds a square of `mask`.
fn rows_of(mask: u128, m: &Shape) -> u128 {
    let row = (1u128 << m.cols) - 1;
    (0..m.len / m.cols)
        .map(|r| row << (r * m.cols))
        .filter(|&r| mask & r != 0)
        .fold(0, |acc, r| acc | r)
}

/// Whether the side to move of `e` can end the game by the pieces with one move (ORDO-10.1,
/// ORDO-10.2), the moves generated into `buf` only where [`needs_moves`] asks for them.
#[cfg(test)]
pub(crate) fn wins_in_one<E: Engine>(e: &E, buf: &mut Vec<[u128; 2]>) -> bool {
    let shape = Shape::of(e.dims());
    let v = View::of(e, &shape);
    match needs_moves(e.variant(), &v) {
        Some(generate) => generate && ends_by_a_move(e, v.goal, buf),
        None => true,
    }
}

/// What the masks tell of a win in one: `None` if there is one; else whether the moves must
/// be generated to tell. In classic Ordo a singleton's win is found on the masks, and the
/// moves are needed only where an ordo could win or one piece is left to take; in Ordo X
/// wherever [`may_win_in_one`] allows a win.
fn needs_moves(variant: Variant, v: &View) -> Option<bool> {
    if variant == Variant::Classic {
        classic_singleton_wins(v)
    } else {
        Some(may_win_in_one(variant, v))
    }
}

/// Whether one of the legal moves of `e` (generated into `buf`) puts a piece of its mover on
/// `goal` or takes the other side's last piece.
fn ends_by_a_move<E: Engine>(e: &E, goal: u128, buf: &mut Vec<[u128; 2]>) -> bool {
    let me = e.side_to_move() as usize;
    e.successor_occupancies(buf);
    buf.iter().any(|o| o[me] & goal != 0 || o[1 - me] == 0)
}

/// Classic Ordo: `None` if a singleton of the side to move reaches the other's home row
/// along a forward or diagonally forward ray through empty squares (ORDO-8.1, ORDO-6.3) and
/// leaves its side one group (ORDO-4.3, ORDO-9.1), which wins (ORDO-10.1); else whether
/// another move could still win, so that the moves must be generated: the other side has
/// one piece left (ORDO-10.2), or two side-by-side goal squares are reached by clear forward
/// rays (a horizontal ordo, ORDO-8.2, ORDO-7.3).
///
/// With many pieces, the rays of all of them are walked together, one direction at a time,
/// and only the pieces whose ray ends on the goal row (found by walking back from where the
/// rays end there) are taken one by one, to test the group each would leave; with few, each
/// piece's rays are walked on their own, which is quicker where there are few to walk.
fn classic_singleton_wins(v: &View) -> Option<bool> {
    let View {
        m,
        mover,
        mine,
        theirs,
        goal,
    } = *v;
    let empty = m.board & !(mine | theirs);
    let mut straight = 0u128;
    let few = mine.count_ones() <= FEW_PIECES;
    for dc in -1..=1 {
        let mut from = if few {
            mine
        } else {
            let ends = ray_ends(mine, empty, mover, dc, m) & goal & !mine;
            ray_ends(ends, empty, mover.opponent(), -dc, m) & mine
        };
        while from != 0 {
            let p = from & from.wrapping_neg();
            from ^= p;
            let g = ray_ends(p, empty, mover, dc, m);
            if g & goal & !mine == 0 {
                continue;
            }
            if one_group((mine ^ p) | g, m) {
                return None;
            }
            if dc == 0 && g & empty != 0 {
                straight |= g;
            }
        }
    }
    let side_by_side = straight & (straight << 1) & m.not_first_col;
    Some(theirs.count_ones() == 1 || side_by_side != 0)
}

/// The most pieces whose rays [`classic_singleton_wins`] walks one piece at a time: on the
/// 10 x 8 board, the search of the standard start (20 pieces a side) took half the CPU
/// seconds with the rays walked together, and positions of 5 pieces a side about 7 % more
/// (three alternated runs each).
const FEW_PIECES: u32 = 8;

/// Where the rays from the squares of `from`, one step at a time in direction `dc` for
/// `mover` through the squares of `empty`, end: on the first square that is not empty, or
/// on the last row (a ray that leaves the board ends nowhere). All the rays are walked
/// together, so a walk takes at most as many steps as the board has rows.
fn ray_ends(from: u128, empty: u128, mover: Color, dc: i32, m: &Shape) -> u128 {
    let last = m.goal[mover as usize];
    let (mut g, mut ends) = (step(from, mover, dc, m), 0u128);
    while g != 0 {
        ends |= g & (!empty | last);
        g = step(g & empty & !last, mover, dc, m);
    }
    ends
}

/// Whether the squares of `set` form one group of neighbours (ORDO-4.1).
fn one_group(set: u128, m: &Shape) -> bool {
    let mut g = set & set.wrapping_neg();
    loop {
        let h = g | ((g << 1) & m.not_first_col) | ((g >> 1) & m.not_last_col);
        let next = (h | (h << m.cols) | (h >> m.cols)) & set;
        if next == g {
            return g == set;
        }
        g = next;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ordo_bitboard::Bitboard;
    use ordo_core::rules::{setup, Dims, Rng};

    /// Whether the side that just moved ended the game by the pieces (ORDO-10.1, ORDO-10.2).
    fn ended(c: &Bitboard) -> bool {
        let [w, b] = c.occupancy();
        let d = c.dims();
        let (cols, len) = (d.cols as u32, d.len() as u32);
        let row = (1u128 << cols) - 1;
        match c.side_to_move() {
            Color::Black => w & (row << (len - cols)) != 0 || b == 0,
            Color::White => b & row != 0 || w == 0,
        }
    }

    /// The winning moves in one of `e`: whether there is one, and whether one is a singleton
    /// move of one step (which the check must find).
    fn wins(e: &Bitboard) -> (bool, bool) {
        let (mut any, mut single) = (false, false);
        for m in e.legal_moves() {
            if ended(&e.apply(&m)) {
                any = true;
                single |= m.second.is_none() && !m.first.is_ordo();
            }
        }
        (any, single)
    }

    /// Over every position of random games of `v` on `boards` (columns, rows, seed): the check
    /// never claims a win the moves do not give, finds every singleton's win if
    /// `singles_found`, and finds at least nine in ten of the wins in one.
    fn check_playouts(v: Variant, boards: &[(usize, usize, u64)], singles_found: bool) {
        let mut buf = Vec::new();
        let (mut seen, mut found) = (0, 0);
        for &(cols, rows, seed) in boards {
            for e in playouts(v, cols, rows, seed) {
                let (any, single) = wins(&e);
                let claimed = wins_in_one(&e, &mut buf);
                assert!(!claimed || any, "a false win at {}", e.to_position());
                let missed = singles_found && single && !claimed;
                assert!(!missed, "a win missed at {}", e.to_position());
                seen += usize::from(any);
                found += usize::from(claimed);
            }
        }
        assert!(
            seen > 50 && found * 10 >= seen * 9,
            "found {found} of {seen}"
        );
    }

    /// In classic Ordo the check finds every win in one by a singleton (ORDO-10.1, ORDO-10.2)
    /// and claims no other: over every position of random games on five boards.
    #[test]
    fn classic_check_finds_every_singleton_win_in_one_ordo_10_1() {
        let boards = [(4, 4, 1), (5, 4, 2), (5, 5, 3), (6, 5, 4), (10, 8, 5)];
        check_playouts(Variant::Classic, &boards, true);
    }

    /// In Ordo X the check claims no win the moves do not give, and finds most (ORDOX-3.1:
    /// a sideways step may come first).
    #[test]
    fn ordo_x_check_claims_only_real_wins_ordox_3_1() {
        check_playouts(Variant::X, &[(4, 4, 6), (5, 5, 7), (10, 8, 8)], false);
    }

    /// Every position of 40 random games from the row2 start of a board (seeded, so the
    /// positions are the same on every run).
    fn playouts(v: Variant, cols: usize, rows: usize, seed: u64) -> Vec<Bitboard> {
        let dims = Dims::new(cols, rows).unwrap();
        let start = setup::filled_rows(dims, 2, v).unwrap();
        let mut rng = Rng::new(seed);
        let mut out = Vec::new();
        for _ in 0..40 {
            let mut e = Bitboard::from_position(&start).unwrap();
            let mut next = Vec::new();
            loop {
                e.successors(&mut next);
                if next.is_empty() {
                    break;
                }
                out.push(e);
                e = next.swap_remove(rng.below(next.len() as u64) as usize);
            }
        }
        out
    }
}
