//! Groups and connection (ORDO-4.1, ORDO-4.2), by an 8-neighbour flood fill over the position's
//! grid. Written here, independently of the engines' own group code.

use crate::rules::{Color, Position, Square};

/// ORDO-4.1, ORDO-4.2: the groups of colour `c`, each in row-major order, largest first; groups
/// of equal size keep the row-major order of their lowest square. A lone piece is a group.
pub fn groups(pos: &Position, c: Color) -> Vec<Vec<Square>> {
    let dims = pos.dims();
    let mut seen = vec![false; dims.len()];
    let mut out: Vec<Vec<Square>> = Vec::new();
    for start in dims.squares() {
        let i = dims.index(start);
        if seen[i] || pos.get(start) != Some(c) {
            continue;
        }
        seen[i] = true;
        let mut group = vec![start];
        let mut todo = vec![start];
        while let Some(a) = todo.pop() {
            for dc in -1..=1i8 {
                for dr in -1..=1i8 {
                    if (dc, dr) == (0, 0) {
                        continue;
                    }
                    if let Some(b) = dims.offset(a, dc, dr) {
                        let j = dims.index(b);
                        if !seen[j] && pos.get(b) == Some(c) {
                            seen[j] = true;
                            group.push(b);
                            todo.push(b);
                        }
                    }
                }
            }
        }
        group.sort_by_key(|&s| dims.index(s));
        out.push(group);
    }
    // A stable sort: groups were found in the row-major order of their lowest square.
    out.sort_by_key(|g| std::cmp::Reverse(g.len()));
    out
}

/// ORDO-4.1, ORDO-4.3: whether all pieces of colour `c` form one group (true with no pieces).
pub fn is_one_group(pos: &Position, c: Color) -> bool {
    groups(pos, c).len() <= 1
}
