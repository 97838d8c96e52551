//! Groups and connection, through petgraph: one graph node per piece of a colour, an edge
//! between pieces on neighbouring squares, groups = connected components.

use petgraph::algo::{connected_components, kosaraju_scc};
use petgraph::graph::UnGraph;

use crate::rules::{Color, Position, Square};

/// ORDO-4.1: two squares are neighbours when they touch orthogonally or diagonally.
pub fn neighbours(a: Square, b: Square) -> bool {
    a != b && a.col.abs_diff(b.col) <= 1 && a.row.abs_diff(b.row) <= 1
}

/// ORDO-4.1, ORDO-4.2: the groups of colour `c`, each sorted in row-major order, largest
/// first (ties in row-major order of their lowest square). A lone piece is a group of one.
pub fn groups(pos: &Position, c: Color) -> Vec<Vec<Square>> {
    let graph = piece_graph(pos, c);
    let mut comps: Vec<Vec<Square>> = kosaraju_scc(&graph)
        .into_iter()
        .map(|comp| comp.into_iter().map(|n| graph[n]).collect())
        .collect();
    for comp in &mut comps {
        comp.sort_by_key(|s| (s.row, s.col));
    }
    comps.sort_by_key(|g| (std::cmp::Reverse(g.len()), g[0].row, g[0].col));
    comps
}

/// ORDO-4.1, ORDO-4.3: whether all pieces of colour `c` form one group (vacuously true with
/// no pieces; a single piece is a group, ORDO-4.2).
pub fn is_one_group(pos: &Position, c: Color) -> bool {
    connected_components(&piece_graph(pos, c)) <= 1
}

/// The graph of ORDO-4.1 for colour `c`: a node per piece (weighted with its square), an edge
/// between each two neighbouring pieces.
fn piece_graph(pos: &Position, c: Color) -> UnGraph<Square, ()> {
    let pieces = pos.pieces(c);
    let mut graph = UnGraph::with_capacity(pieces.len(), 4 * pieces.len());
    let nodes: Vec<_> = pieces.iter().map(|&p| graph.add_node(p)).collect();
    for (i, &a) in pieces.iter().enumerate() {
        for (j, &b) in pieces.iter().enumerate().skip(i + 1) {
            if neighbours(a, b) {
                graph.add_edge(nodes[i], nodes[j], ());
            }
        }
    }
    graph
}
