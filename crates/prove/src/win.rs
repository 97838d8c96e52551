//! Reading a win out of the search depth first, so that the proof is acyclic by construction.
//!
//! The table keeps, for a proved node, the depth of the proof it was proved with, and the
//! read-out follows the child with the smallest. That proof can be gone: a child's entry is
//! replaced, the child is proved again later through the node itself (a transposition), and
//! the choices the table records then go round in a circle, though every node on it is won.
//! So the read-out keeps the line from the root to the node it is at: a child on the line is
//! never chosen; a node that cannot be read out from where it stands has its entry dropped
//! (it claimed more than the read-out could show), and the chooser above it searches its
//! other children again, with the line as the search's path, so that what the search proves
//! avoids the line. Nodes are numbered breadth first from the root once the graph is read.

use std::collections::{HashMap, VecDeque};
use std::io::Write;

use ordo_certificate::{Claim, Node, Step, Writer};
use ordo_core::rules::Engine;
use ordo_solve::Value;

use crate::extract::{known, leaf_step, longest_line, search_avoiding, solved, PartSize};
use crate::leaves::Leaves;
use crate::search::{key, Left, Search};
use crate::table::INF;

/// How many times a read-out may search a node again before it gives up: a bound on the
/// work of a table whose proofs have gone missing.
const SEARCHES_AGAIN: u32 = 10_000;

/// A win being read out: every node read so far (its position and step, children by index),
/// where each key stands, the line from the root, and the searches left.
struct Win<E> {
    nodes: Vec<(E, Step)>,
    marks: HashMap<u64, Mark>,
    line: Vec<u64>,
    searches_left: u32,
}

#[derive(Clone, Copy)]
enum Mark {
    OnLine,
    Read(u32),
}

/// Read the win of `claim` at `root` (with `left` plies) into `w`; why not, if it does not
/// close.
pub(crate) fn extract_win<E: Engine, W: Write>(
    s: &mut Search<'_, E>,
    root: &E,
    left: Left,
    claim: Claim,
    w: &mut Writer<W>,
) -> Result<PartSize, String> {
    s.attacker = claim.side();
    let mut win = Win {
        nodes: Vec::new(),
        marks: HashMap::new(),
        line: Vec::new(),
        searches_left: SEARCHES_AGAIN,
    };
    let top = read(s, &mut win, root, left, claim)?;
    write(&win.nodes, top, w)
}

/// Number the graph breadth first from `top` and write it; its size.
fn write<E: Engine, W: Write>(
    nodes: &[(E, Step)],
    top: u32,
    w: &mut Writer<W>,
) -> Result<PartSize, String> {
    let mut ids: HashMap<u32, u32> = HashMap::from([(top, 0)]);
    let mut order = vec![top];
    let mut queue = VecDeque::from([top]);
    while let Some(i) = queue.pop_front() {
        for c in children(&nodes[i as usize].1) {
            let next = ids.len() as u32;
            ids.entry(c).or_insert_with(|| {
                order.push(c);
                queue.push_back(c);
                next
            });
        }
    }
    let mut size = PartSize::default();
    let mut materials = std::collections::BTreeSet::new();
    let (mut edges, mut plies) = (Vec::new(), Vec::new());
    for (id, &i) in order.iter().enumerate() {
        let (e, step) = &nodes[i as usize];
        let step = renumber(step, &ids);
        edges.push(children(&step));
        plies.push(match step {
            Step::Table(Value::Win(n) | Value::Loss(n)) => u32::from(n),
            _ => 0,
        });
        if let Step::Table(_) = step {
            size.table_leaves += 1;
            materials.insert(Leaves::<E>::material(e));
        }
        let node = Node {
            position: e.to_position(),
            step,
        };
        w.node(id as u32, &node)
            .map_err(|e| format!("cannot write the certificate: {e}"))?;
    }
    size.nodes = order.len() as u32;
    size.materials = materials.into_iter().collect();
    size.longest = Some(longest_line(&edges, &plies)?);
    Ok(size)
}

fn children(step: &Step) -> Vec<u32> {
    match step {
        Step::One(_, c) => vec![*c],
        Step::All(v) => v.iter().map(|&(_, c)| c).collect(),
        Step::End | Step::Table(_) => Vec::new(),
    }
}

fn renumber(step: &Step, ids: &HashMap<u32, u32>) -> Step {
    match step {
        Step::One(m, c) => Step::One(*m, ids[c]),
        Step::All(v) => Step::All(v.iter().map(|&(m, c)| (m, ids[&c])).collect()),
        other => other.clone(),
    }
}

/// Read the node `e` (with `left` plies left) off the line; its index, or why not.
fn read<E: Engine>(
    s: &mut Search<'_, E>,
    win: &mut Win<E>,
    e: &E,
    left: Left,
    claim: Claim,
) -> Result<u32, String> {
    let k = key(e, claim.side(), left);
    match win.marks.get(&k) {
        Some(Mark::Read(i)) => return Ok(*i),
        Some(Mark::OnLine) => return Err(format!("a cycle at {}", e.to_position())),
        None => {}
    }
    let step = match leaf_step(s, e, left, claim) {
        Some(step) => step?,
        None => {
            win.marks.insert(k, Mark::OnLine);
            win.line.push(k);
            let step = if e.side_to_move() == claim.chooser() {
                choose(s, win, e, left, claim)
            } else {
                replies(s, win, e, left, claim)
            };
            win.line.pop();
            win.marks.remove(&k);
            if step.is_err() {
                // It claimed a proof that cannot be read from here: let it be searched again.
                s.table.forget(k);
            }
            step?
        }
    };
    let i = win.nodes.len() as u32;
    win.nodes.push((e.clone(), step));
    win.marks.insert(k, Mark::Read(i));
    Ok(i)
}

/// The chooser's move: the proved children, shortest proof first, then each child searched
/// again with the line as the path; the first that reads out.
fn choose<E: Engine>(
    s: &mut Search<'_, E>,
    win: &mut Win<E>,
    e: &E,
    left: Left,
    claim: Claim,
) -> Result<Step, String> {
    let moves = e.legal_moves();
    let kids: Vec<E> = moves.iter().map(|m| e.apply(m)).collect();
    let left = left.map(|l| l - 1);
    let mut proved: Vec<(u32, usize)> = kids
        .iter()
        .enumerate()
        .filter_map(|(i, c)| known(s, c, left).filter(|k| k.1 == 0).map(|k| (k.2, i)))
        .collect();
    proved.sort_unstable();
    for &(_, i) in &proved {
        if let Ok(c) = read(s, win, &kids[i], left, claim) {
            return Ok(Step::One(moves[i], c));
        }
    }
    for i in 0..kids.len() {
        if again(s, win, &kids[i], left, claim)?.1 == 0 {
            if let Ok(c) = read(s, win, &kids[i], left, claim) {
                return Ok(Step::One(moves[i], c));
            }
        }
    }
    Err(format!("no move keeps it at {}", e.to_position()))
}

/// Every reply of the other side, each read out (searched again first if it is not proved).
fn replies<E: Engine>(
    s: &mut Search<'_, E>,
    win: &mut Win<E>,
    e: &E,
    left: Left,
    claim: Claim,
) -> Result<Step, String> {
    let moves = e.legal_moves();
    let left = left.map(|l| l - 1);
    let mut out = Vec::with_capacity(moves.len());
    for m in moves {
        let c = e.apply(&m);
        let proved = known(s, &c, left).is_some_and(|k| k.0 == 0);
        if !proved && again(s, win, &c, left, claim)?.0 != 0 {
            return Err(format!("a reply is not answered at {}", e.to_position()));
        }
        out.push((m, read(s, win, &c, left, claim)?));
    }
    Ok(Step::All(out))
}

/// Search `c` (not on the line) to the end with the line as the search's path; its numbers.
fn again<E: Engine>(
    s: &mut Search<'_, E>,
    win: &mut Win<E>,
    c: &E,
    left: Left,
    claim: Claim,
) -> Result<(u32, u32, u32), String> {
    let k = key(c, claim.side(), left);
    if matches!(win.marks.get(&k), Some(Mark::OnLine)) {
        // Neither side's goal can be shown through a node on the line.
        return Ok((INF, INF, 0));
    }
    if let Some(n) = solved(s, c, left) {
        return Ok(n);
    }
    if win.searches_left == 0 {
        return Err("the read-out searched again too often".into());
    }
    win.searches_left -= 1;
    Ok(search_avoiding(s, c, left, &win.line))
}
