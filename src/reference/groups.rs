//! Groups and connection, through petgraph: one graph node per piece of a colour, an edge
//! between pieces on neighbouring squares, groups = connected components.

use petgraph::algo::kosaraju_scc;
use petgraph::graphmap::UnGraphMap;

use crate::rules::{Color, Position, Square};

/// ORDO-4.1: two squares are neighbours when they touch orthogonally or diagonally.
pub fn neighbours(a: Square, b: Square) -> bool {
    a != b && a.col.abs_diff(b.col) <= 1 && a.row.abs_diff(b.row) <= 1
}

/// ORDO-4.1, ORDO-4.2: the groups of colour `c`, each sorted in row-major order, largest
/// first (ties in row-major order of their lowest square). A lone piece is a group of one.
pub fn groups(pos: &Position, c: Color) -> Vec<Vec<Square>> {
    let pieces = pos.pieces(c);
    let mut graph: UnGraphMap<Square, ()> = UnGraphMap::new();
    for &p in &pieces {
        graph.add_node(p);
    }
    for (i, &a) in pieces.iter().enumerate() {
        for &b in &pieces[i + 1..] {
            if neighbours(a, b) {
                graph.add_edge(a, b, ());
            }
        }
    }
    let mut comps = kosaraju_scc(&graph);
    for comp in &mut comps {
        comp.sort_by_key(|s| (s.row, s.col));
    }
    comps.sort_by_key(|g| (std::cmp::Reverse(g.len()), g[0].row, g[0].col));
    comps
}

/// ORDO-4.1, ORDO-4.3: whether all pieces of colour `c` form one group (vacuously true with
/// no pieces; a single piece is a group, ORDO-4.2).
pub fn is_one_group(pos: &Position, c: Color) -> bool {
    groups(pos, c).len() <= 1
}
