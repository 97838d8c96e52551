//! Reading a result out of the search as a certificate part. A win is read depth first
//! (`win.rs`); a cannot-win, which may go round (endless play is a draw), breadth first
//! from the root: at the chooser's nodes one move whose child the table shows solved its way,
//! a child already read first, at the other side's every move; a node the table no longer
//! holds is searched again. Every node is justified afresh, so a refutation that rested on a
//! path-dependent cycle value and does not close is found here and the part is given up.

use std::collections::{HashMap, VecDeque};
use std::io::Write;

use ordo_certificate::{Claim, Node, Step, Writer};
use ordo_core::rules::{Engine, Move, Status};
use ordo_solve::{Material, Value};

use crate::leaves::Leaves;
use crate::search::{key, Left, Search};
use crate::table::INF;

/// What one extracted part holds.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PartSize {
    /// Its nodes.
    pub nodes: u32,
    /// Its table leaves.
    pub table_leaves: u64,
    /// For a win: the plies of the proof's longest line, a bound on the shortest win.
    pub longest: Option<u32>,
    /// The materials of its table leaves.
    pub materials: Vec<Material>,
}

/// The graph being extracted: ids by key, and the queue (each node with its plies left).
struct Graph<E> {
    ids: HashMap<u64, u32>,
    queue: VecDeque<(E, Left)>,
}

impl<E: Engine> Graph<E> {
    fn id(&mut self, e: &E, k: u64, left: Left) -> u32 {
        let next = self.ids.len() as u32;
        *self.ids.entry(k).or_insert_with(|| {
            self.queue.push_back((e.clone(), left));
            next
        })
    }
}

/// Extract the part of `claim` (a cannot-win) about `root` (with `left` plies for the win)
/// into `w`; why not, if it does not close.
pub(crate) fn extract<E: Engine, W: Write>(
    s: &mut Search<'_, E>,
    root: &E,
    left: Left,
    claim: Claim,
    w: &mut Writer<W>,
) -> Result<PartSize, String> {
    s.attacker = claim.side();
    let mut g = Graph {
        ids: HashMap::new(),
        queue: VecDeque::new(),
    };
    g.id(root, key(root, claim.side(), left), left);
    let mut size = PartSize::default();
    let mut materials = std::collections::BTreeSet::new();
    let mut id = 0u32;
    while let Some((e, left)) = g.queue.pop_front() {
        let step = justify(s, &mut g, &e, left, claim)?;
        if let Step::Table(_) = step {
            size.table_leaves += 1;
            materials.insert(Leaves::<E>::material(&e));
        }
        let node = Node {
            position: e.to_position(),
            step,
        };
        w.node(id, &node)
            .map_err(|e| format!("cannot write the certificate: {e}"))?;
        id += 1;
    }
    size.nodes = id;
    size.materials = materials.into_iter().collect();
    Ok(size)
}

/// How the node `e` (with `left` plies left) is justified under `claim`, its children given
/// ids.
fn justify<E: Engine>(
    s: &mut Search<'_, E>,
    g: &mut Graph<E>,
    e: &E,
    left: Left,
    claim: Claim,
) -> Result<Step, String> {
    if let Some(step) = leaf_step(s, e, left, claim) {
        return step;
    }
    let at = || e.to_position().to_string();
    let moves = e.legal_moves();
    let kids: Vec<E> = moves.iter().map(|m| e.apply(m)).collect();
    let left = left.map(|l| l - 1);
    let picked = if e.side_to_move() == claim.chooser() {
        let i = choose(s, g, &kids, left, claim);
        vec![i.ok_or_else(|| format!("no move keeps it at {}", at()))?]
    } else {
        for c in &kids {
            if !answered(s, g, c, left, claim) {
                return Err(format!("a reply is not answered at {}", at()));
            }
        }
        (0..kids.len()).collect()
    };
    let mut out: Vec<(Move, u32)> = Vec::new();
    for i in picked {
        let cid = g.id(&kids[i], key(&kids[i], claim.side(), left), left);
        out.push((moves[i], cid));
    }
    Ok(match (e.side_to_move() == claim.chooser(), out.pop()) {
        (true, Some((m, c))) => Step::One(m, c),
        (_, last) => Step::All(out.into_iter().chain(last).collect()),
    })
}

/// A leaf's step under `claim`: the game over, or a table value (an error where it is
/// against the claim), or no plies left (an error); `None` if `e` is not a leaf.
pub(crate) fn leaf_step<E: Engine>(
    s: &mut Search<'_, E>,
    e: &E,
    left: Left,
    claim: Claim,
) -> Option<Result<Step, String>> {
    let at = || e.to_position().to_string();
    if let Status::Won { winner, .. } = e.status() {
        return Some(if (winner == claim.side()) == claim.is_win() {
            Ok(Step::End)
        } else {
            Err(format!("the game is over against the claim at {}", at()))
        });
    }
    if let Some(v) = s.leaves.probe(e) {
        return Some(
            table_step(claim, e, v, left)
                .ok_or_else(|| format!("a table value against it at {}", at())),
        );
    }
    (left == Some(0)).then(|| Err(format!("no plies left at {}", at())))
}

/// A table leaf's step, if its value is one the claim needs (a win within the plies left).
fn table_step<E: Engine>(claim: Claim, e: &E, v: Value, left: Left) -> Option<Step> {
    let in_time = |n: u16| left.is_none_or(|l| u32::from(n) <= l);
    let attacker_wins = match v {
        Value::Win(n) => e.side_to_move() == claim.side() && in_time(n),
        Value::Loss(n) => e.side_to_move() != claim.side() && in_time(n),
        Value::Draw => false,
    };
    (attacker_wins == claim.is_win()).then_some(Step::Table(v))
}

/// What the search knows of `c` (with `left` plies left): its numbers and proof depth, a
/// leaf's or the table's.
pub(crate) fn known<E: Engine>(
    s: &mut Search<'_, E>,
    c: &E,
    left: Left,
) -> Option<(u32, u32, u32)> {
    if let Some((p, d)) = s.leaf(c, left) {
        return Some((p, d, 0));
    }
    s.table
        .get(key(c, s.attacker, left))
        .map(|t| (t.phi, t.delta, t.depth))
}

/// What the search knows of `c` if that solves it (φ or δ zero).
pub(crate) fn solved<E: Engine>(
    s: &mut Search<'_, E>,
    c: &E,
    left: Left,
) -> Option<(u32, u32, u32)> {
    known(s, c, left).filter(|k| k.0 == 0 || k.1 == 0)
}

/// Search `c` (with `left` plies left) to the end with `path` as the search's path, so that
/// what it proves never passes through those positions (a return to one is endless play,
/// ORDO-3.3); its numbers and proof depth.
pub(crate) fn search_avoiding<E: Engine>(
    s: &mut Search<'_, E>,
    c: &E,
    left: Left,
    path: &[u64],
) -> (u32, u32, u32) {
    s.set_path(path);
    let k = key(c, s.attacker, left);
    let (t, _) = s.mid(c, k, left, (INF, INF), false);
    s.clear_path();
    (t.phi, t.delta, t.depth)
}

/// What `c` is worth, searched to the end on an empty path if the search does not know.
fn research<E: Engine>(s: &mut Search<'_, E>, c: &E, left: Left) -> (u32, u32, u32) {
    solved(s, c, left).unwrap_or_else(|| search_avoiding(s, c, left, &[]))
}

/// The chooser's move: a child already in the graph (a cannot-win may go round), else the
/// child solved against its mover, the shortest first, else the first child that a new
/// search solves so.
fn choose<E: Engine>(
    s: &mut Search<'_, E>,
    g: &Graph<E>,
    kids: &[E],
    left: Left,
    claim: Claim,
) -> Option<usize> {
    if let Some(i) = kids
        .iter()
        .position(|c| g.ids.contains_key(&key(c, claim.side(), left)))
    {
        return Some(i);
    }
    let best = kids
        .iter()
        .enumerate()
        .filter_map(|(i, c)| known(s, c, left).filter(|k| k.1 == 0).map(|k| (k.2, i)))
        .min();
    if let Some((_, i)) = best {
        return Some(i);
    }
    // Refutations resting on a cycle are not kept: search the children again, one by one.
    (0..kids.len()).find(|&i| research(s, &kids[i], left).1 == 0)
}

/// Whether the chooser reaches its goal at `c` (the other side's reply): in the graph
/// already, else solved so, searching it again if the table lost it.
fn answered<E: Engine>(
    s: &mut Search<'_, E>,
    g: &Graph<E>,
    c: &E,
    left: Left,
    claim: Claim,
) -> bool {
    if g.ids.contains_key(&key(c, claim.side(), left)) {
        return true;
    }
    match known(s, c, left) {
        Some((0, _, _)) => true,
        Some((_, 0, _)) => false,
        _ => research(s, c, left).0 == 0,
    }
}

/// The longest line of an acyclic graph from node 0, in plies, a table leaf counting the
/// plies of its value; an error on a cycle.
pub(crate) fn longest_line(edges: &[Vec<u32>], leaf_plies: &[u32]) -> Result<u32, String> {
    let n = edges.len();
    let mut depth = vec![u32::MAX; n];
    let mut on_stack = vec![false; n];
    let mut stack = vec![(0usize, 0usize)];
    on_stack[0] = true;
    while let Some(&mut (v, ref mut next)) = stack.last_mut() {
        if let Some(&c) = edges[v].get(*next) {
            *next += 1;
            let c = c as usize;
            if on_stack[c] {
                return Err("the proof read out has a cycle".into());
            }
            if depth[c] == u32::MAX {
                on_stack[c] = true;
                stack.push((c, 0));
            }
            continue;
        }
        depth[v] = edges[v]
            .iter()
            .map(|&c| depth[c as usize] + 1)
            .max()
            .unwrap_or(leaf_plies[v]);
        on_stack[v] = false;
        stack.pop();
    }
    Ok(depth[0])
}
