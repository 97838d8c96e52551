//! Judging a certificate's nodes on the reference engine, each on its own (in parallel), then
//! its graph as a whole (every node reached from the root; a win's graph without a cycle).

use std::collections::HashSet;
use std::path::Path;

use rayon::prelude::*;

use ordo_core::rules::{Color, Engine, Move, Position, Status};
use ordo_reference::Reference;
use ordo_solve::{table_files_read, Material, Tablebase, Value};

use crate::format::{format_value, Claim, Step};
use crate::read::{Certificate, Part};
use crate::CheckError;

/// What a checked certificate establishes about its position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Established {
    /// This side can force a win.
    Wins(Color),
    /// Neither side can force a win: the game is drawn with best play (ORDO-3.3).
    Draw,
    /// This side cannot force a win (the other may or may not).
    CannotWin(Color),
}

/// What checking a certificate found: what it establishes and how many nodes each part has.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Checked {
    /// The position the certificate is about.
    pub root: Position,
    /// What it establishes.
    pub established: Established,
    /// Each part's claim and node count.
    pub parts: Vec<(Claim, u32)>,
    /// The table leaves confirmed by a probe.
    pub table_leaves: u64,
    /// For a win: the longest line of its proof in plies, a table leaf counting the plies of
    /// its value. The win comes within this many plies whatever the loser does, which is
    /// what a problem's stipulation ("win in N", 2N - 1 plies) asks.
    pub longest: Option<u32>,
}

/// Judge `cert` on the reference engine, with the tables in `tables` for its table leaves.
pub fn check(cert: &Certificate, tables: Option<&Path>) -> Result<Checked, CheckError> {
    let mut parts = Vec::new();
    let mut table_leaves = 0;
    let mut longest = None;
    for (i, part) in cert.parts.iter().enumerate() {
        let fail = |e: CheckError| e.in_part(i + 1, part.claim);
        if part.nodes.first().map(|n| &n.position) != Some(&cert.root) {
            return Err(fail(CheckError::at_node(
                0,
                "its position is not the certificate's",
            )));
        }
        let probe = Probe::open(part, tables).map_err(fail)?;
        check_nodes(part, &probe).map_err(fail)?;
        check_graph(part).map_err(fail)?;
        if part.claim.is_win() {
            longest = Some(longest_line(part));
        }
        table_leaves += part
            .nodes
            .iter()
            .filter(|n| matches!(n.step, Step::Table(_)))
            .count();
        parts.push((part.claim, part.nodes.len() as u32));
    }
    let established = establish(&parts)?;
    Ok(Checked {
        root: cert.root.clone(),
        established,
        parts,
        table_leaves: table_leaves as u64,
        longest,
    })
}

/// What the parts together establish: a win, or a draw from two cannot-wins.
fn establish(parts: &[(Claim, u32)]) -> Result<Established, CheckError> {
    let claims: Vec<Claim> = parts.iter().map(|p| p.0).collect();
    let cannot = |c| claims.contains(&Claim::CannotWin(c));
    if let Some(w) = claims.iter().find(|c| c.is_win()) {
        if claims.len() > 1 {
            return Err(CheckError::file(
                "a win with other parts: a win stands alone",
            ));
        }
        return Ok(Established::Wins(w.side()));
    }
    match (cannot(Color::White), cannot(Color::Black), claims.len()) {
        (true, true, 2) => Ok(Established::Draw),
        (_, _, 1) => Ok(Established::CannotWin(claims[0].side())),
        _ => Err(CheckError::file("parts that repeat a claim")),
    }
}

/// The tables a part's leaves are probed in, once their listed files are confirmed.
struct Probe {
    tables: Option<Tablebase<Reference>>,
    listed: HashSet<String>,
}

impl Probe {
    fn open(part: &Part, dir: Option<&Path>) -> Result<Probe, CheckError> {
        let has_leaves = part.nodes.iter().any(|n| matches!(n.step, Step::Table(_)));
        let listed = part.tables.iter().map(|t| t.name.clone()).collect();
        let (true, Some(dir)) = (has_leaves, dir) else {
            if has_leaves {
                return Err(CheckError::file(
                    "it has table leaves: give the folder of tables it relies on",
                ));
            }
            return Ok(Probe {
                tables: None,
                listed,
            });
        };
        for t in &part.tables {
            confirm_file(dir, &t.name, &t.blake3)?;
        }
        let tables = Tablebase::<Reference>::open_on(dir)
            .map_err(|e| CheckError::file(format!("the tables: {e}")))?;
        Ok(Probe {
            tables: Some(tables),
            listed,
        })
    }

    /// The value the tables give `pos`, once every file its probe reads is one the part lists.
    fn value(&self, pos: &Position) -> Result<Value, String> {
        let tables = self.tables.as_ref().ok_or("no tables were given")?;
        for name in table_files_read(pos.variant, pos.dims(), Material::of(pos)) {
            if !self.listed.contains(&name) {
                return Err(format!(
                    "a probe reads {name}, which the part does not list"
                ));
            }
        }
        tables.value(pos).map_err(|e| format!("the tables: {e}"))
    }
}

/// The table file `name` in `dir` has the content checksum `want`.
fn confirm_file(dir: &Path, name: &str, want: &str) -> Result<(), CheckError> {
    if name.contains('/') || name.contains('\\') || name.starts_with('.') {
        return Err(CheckError::file(format!(
            "the table file name {name:?} is not a plain name"
        )));
    }
    let got = ordo_solve::content_checksum(&dir.join(name))
        .map_err(|e| CheckError::file(format!("the table file {name}: {e}")))?;
    if got.to_hex().as_str() != want {
        return Err(CheckError::file(format!(
            "the table file {name} has content checksum {}, the certificate lists {want}",
            got.to_hex()
        )));
    }
    Ok(())
}

/// Judge every node on its own; the first failure by id.
fn check_nodes(part: &Part, probe: &Probe) -> Result<(), CheckError> {
    let failure = (0..part.nodes.len())
        .into_par_iter()
        .filter_map(|id| check_node(part, probe, id).err().map(|e| (id, e)))
        .min_by_key(|(id, _)| *id);
    match failure {
        Some((id, e)) => Err(CheckError::at_node(id as u32, e)),
        None => Ok(()),
    }
}

/// Judge node `id`: its position playable, its justification true under the rules.
fn check_node(part: &Part, probe: &Probe, id: usize) -> Result<(), String> {
    let node = &part.nodes[id];
    let eng = Reference::from_position(&node.position)
        .map_err(|e| format!("the position cannot be played: {e}"))?;
    let claim = part.claim;
    let mover = node.position.to_move;
    match &node.step {
        Step::End => check_end(claim, eng.status()),
        Step::Table(v) => check_table(claim, mover, eng.status(), probe, &node.position, *v),
        Step::One(m, child) => {
            if mover != claim.chooser() {
                return Err(format!(
                    "{} node gives one move: it must list every move",
                    side(mover)
                ));
            }
            let mv = Legal::of(&eng).denoted(m)?;
            same_position(part, &eng, &mv, *child)
        }
        Step::All(edges) => check_all(part, &eng, claim, mover, edges),
    }
}

fn side(c: Color) -> &'static str {
    if c == Color::White {
        "a White"
    } else {
        "a Black"
    }
}

/// An `end` leaf: the game is over, won by the side the claim needs.
fn check_end(claim: Claim, status: Status) -> Result<(), String> {
    let Status::Won { winner, reason } = status else {
        return Err("`end`, but the game is not over".into());
    };
    let good = (winner == claim.side()) == claim.is_win();
    if good {
        Ok(())
    } else {
        Err(format!(
            "the game is over, won by {winner:?} ({}): against the claim",
            reason.clause()
        ))
    }
}

/// A `table` leaf: the tables give the value written, and it is one the claim needs.
fn check_table(
    claim: Claim,
    mover: Color,
    status: Status,
    probe: &Probe,
    pos: &Position,
    v: Value,
) -> Result<(), String> {
    if status != Status::Ongoing {
        return Err("a table leaf where the game is over: that is an `end` leaf".into());
    }
    let got = probe.value(pos)?;
    if got != v {
        let (w, g) = (format_value(v), format_value(got));
        return Err(format!("the tables give {g}, the certificate says {w}"));
    }
    let attacker_wins = match v {
        Value::Win(_) => mover == claim.side(),
        Value::Loss(_) => mover != claim.side(),
        Value::Draw => false,
    };
    if attacker_wins == claim.is_win() {
        Ok(())
    } else {
        Err(format!(
            "the table value {} is against the claim",
            format_value(v)
        ))
    }
}

/// The legal moves of a node's position, generated once: a node is judged against one list,
/// never one generation per move it names (an `all` node names every move).
struct Legal<'a> {
    eng: &'a Reference,
    moves: Vec<Move>,
}

impl<'a> Legal<'a> {
    fn of(eng: &'a Reference) -> Self {
        Legal {
            eng,
            moves: eng.legal_moves(),
        }
    }

    /// The legal move `m` denotes. A position without a legal move is one where the game is
    /// over (the engine's status is `Ongoing` exactly when there is one, ORDO-10.3, ORDO-10.4).
    /// A move in canonical spelling is found in the list; any other spelling (a kept group
    /// named by another square, ORDOX-4.2) is resolved by the engine.
    fn denoted(&self, m: &Move) -> Result<Move, String> {
        if self.moves.is_empty() {
            return Err("a move where the game is over".into());
        }
        let want = m.canonical(self.eng.dims());
        if self.moves.contains(&want) {
            return Ok(want);
        }
        self.eng
            .resolve(m)
            .ok_or_else(|| format!("{m} is not a legal move here"))
    }
}

/// The position after `mv` is the one of node `child`.
fn same_position(part: &Part, eng: &Reference, mv: &Move, child: u32) -> Result<(), String> {
    let node = part
        .nodes
        .get(child as usize)
        .ok_or_else(|| format!("{mv} leads to node {child}, which the part does not have"))?;
    if eng.apply(mv).to_position() != node.position {
        return Err(format!(
            "{mv} does not lead to the position of node {child}"
        ));
    }
    Ok(())
}

/// An `all` node: every legal move listed once, each leading to its node.
fn check_all(
    part: &Part,
    eng: &Reference,
    claim: Claim,
    mover: Color,
    edges: &[(Move, u32)],
) -> Result<(), String> {
    if mover == claim.chooser() {
        return Err(format!(
            "{} node lists moves: it must give one",
            side(mover)
        ));
    }
    let legal = Legal::of(eng);
    let mut seen = HashSet::new();
    for (m, child) in edges {
        let mv = legal.denoted(m)?;
        if !seen.insert(mv) {
            return Err(format!("{m} is listed twice"));
        }
        same_position(part, eng, &mv, *child)?;
    }
    match legal.moves.iter().find(|m| !seen.contains(*m)) {
        Some(missing) => Err(format!(
            "the legal move {missing} is not listed ({} of {} listed)",
            seen.len(),
            legal.moves.len()
        )),
        None => Ok(()),
    }
}

/// The graph of a part: every node reached from the root, and for a win no cycle (a line
/// that goes round for ever never ends the game, ORDO-3.3).
fn check_graph(part: &Part) -> Result<(), CheckError> {
    let children = |id: usize| children(&part.nodes[id].step);
    let n = part.nodes.len();
    // 0 = not reached, 1 = on the walk's stack, 2 = done.
    let mut state = vec![0u8; n];
    let mut stack: Vec<(usize, Vec<u32>)> = vec![(0, children(0))];
    state[0] = 1;
    while let Some((id, rest)) = stack.last_mut() {
        let Some(c) = rest.pop() else {
            state[*id] = 2;
            stack.pop();
            continue;
        };
        let c = c as usize;
        match state[c] {
            0 => {
                state[c] = 1;
                stack.push((c, children(c)));
            }
            1 if part.claim.is_win() => {
                return Err(CheckError::at_node(
                    c as u32,
                    "a cycle through this node: endless play is no win (ORDO-3.3)",
                ))
            }
            _ => {}
        }
    }
    match state.iter().position(|s| *s == 0) {
        Some(id) => Err(CheckError::at_node(
            id as u32,
            "no line from the root reaches it",
        )),
        None => Ok(()),
    }
}

/// The longest line from node 0 of a part whose graph has no cycle (checked before), in plies:
/// each move one ply, a table leaf the plies of its value.
fn longest_line(part: &Part) -> u32 {
    let n = part.nodes.len();
    let mut depth: Vec<Option<u32>> = vec![None; n];
    let mut stack = vec![0usize];
    while let Some(&id) = stack.last() {
        let kids = children(&part.nodes[id].step);
        let pending: Vec<usize> = kids
            .iter()
            .map(|&c| c as usize)
            .filter(|&c| depth[c].is_none())
            .collect();
        if !pending.is_empty() {
            stack.extend(pending);
            continue;
        }
        stack.pop();
        let own = match part.nodes[id].step {
            Step::Table(Value::Win(p) | Value::Loss(p)) => u32::from(p),
            _ => 0,
        };
        let below = kids.iter().filter_map(|&c| depth[c as usize]).max();
        depth[id] = Some(below.map_or(own, |d| d + 1));
    }
    depth[0].unwrap_or(0)
}

/// The nodes a step leads to.
fn children(step: &Step) -> Vec<u32> {
    match step {
        Step::One(_, c) => vec![*c],
        Step::All(e) => e.iter().map(|(_, c)| *c).collect(),
        _ => Vec::new(),
    }
}
