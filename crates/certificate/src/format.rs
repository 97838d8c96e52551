//! The certificate file (spec/certificate.md): what a proof claims and the graph that shows it,
//! written line by line as the search extracts it and read back whole by the checker.

use std::fmt;
use std::io::{self, Write};

use ordo_core::notation::{format_move, parse_move, parse_position};
use ordo_core::rules::{Color, Move, Position, Variant};
use ordo_solve::Value;

/// The first line of every certificate: the format's name and version.
pub const MAGIC: &str = "ordo-certificate 1";

/// What one part of a certificate claims about its position, for one side (the attacker).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Claim {
    /// The side can force a win: at its turns one move, at the other side's every move, every
    /// line ending in a win by the rules or by a table, and no line without end.
    Wins(Color),
    /// The side cannot force a win: at its turns every move, at the other side's one, and no
    /// line reaching a win of the side (a line may go round for ever: a draw, ORDO-3.3).
    CannotWin(Color),
}

impl Claim {
    /// The side the claim is about.
    pub fn side(self) -> Color {
        match self {
            Claim::Wins(c) | Claim::CannotWin(c) => c,
        }
    }

    /// Whether the claim is a win (a proof) rather than a cannot-win (a disproof).
    pub fn is_win(self) -> bool {
        matches!(self, Claim::Wins(_))
    }

    /// The side that picks one move at its turns: the attacker of a win, the defender of a
    /// cannot-win. The other side's nodes list every legal move.
    pub fn chooser(self) -> Color {
        match self {
            Claim::Wins(c) => c,
            Claim::CannotWin(c) => c.opponent(),
        }
    }

    pub(crate) fn parse_text(s: &str) -> Option<Claim> {
        let (side, what) = s.split_once(' ')?;
        let side = match side {
            "white" => Color::White,
            "black" => Color::Black,
            _ => return None,
        };
        match what {
            "wins" => Some(Claim::Wins(side)),
            "cannot-win" => Some(Claim::CannotWin(side)),
            _ => None,
        }
    }
}

impl fmt::Display for Claim {
    /// `white wins`, `black cannot-win`: the form of the `claim` line.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let side = if self.side() == Color::White {
            "white"
        } else {
            "black"
        };
        let what = if self.is_win() { "wins" } else { "cannot-win" };
        write!(f, "{side} {what}")
    }
}

/// How one node of a proof graph is justified.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    /// The game is over in this position (ORDO-10.1 to ORDO-10.4).
    End,
    /// The tables hold this position with this value for the side to move.
    Table(Value),
    /// The chooser's node: one move and the node it leads to.
    One(Move, u32),
    /// The other side's node: every legal move, each with the node it leads to.
    All(Vec<(Move, u32)>),
}

/// One node: its position and how it is justified.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Node {
    /// The position (its variant is the certificate's).
    pub position: Position,
    /// Its justification.
    pub step: Step,
}

/// A table file a table leaf relies on: its name in the tables' folder and its content
/// checksum (BLAKE3, as `ordo tb checksums` lists it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableFile {
    /// The file name.
    pub name: String,
    /// The content checksum, 64 lower-case hex digits.
    pub blake3: String,
}

/// Value as a certificate writes it: `win-N`, `loss-N` (plies) or `draw`.
pub fn format_value(v: Value) -> String {
    match v {
        Value::Win(d) => format!("win-{d}"),
        Value::Loss(d) => format!("loss-{d}"),
        Value::Draw => "draw".to_string(),
    }
}

/// Read a [`format_value`].
pub fn parse_value(s: &str) -> Option<Value> {
    if s == "draw" {
        return Some(Value::Draw);
    }
    let (kind, n) = s.split_once('-')?;
    let n: u16 = n.parse().ok()?;
    match kind {
        "win" if n % 2 == 1 => Some(Value::Win(n)),
        "loss" if n % 2 == 0 => Some(Value::Loss(n)),
        _ => None,
    }
}

/// The side letter and board of a position as a node line writes them.
fn board_and_side(p: &Position) -> (String, &'static str) {
    let text = p.to_string();
    let mut fields = text.split_whitespace();
    let board = fields.next().unwrap_or_default().to_string();
    let side = if p.to_move == Color::White { "w" } else { "b" };
    (board, side)
}

/// Write the line of node `id` (without the newline).
pub fn node_line(id: u32, node: &Node) -> String {
    let (board, side) = board_and_side(&node.position);
    let mut line = format!("{id} {board} {side} ");
    match &node.step {
        Step::End => line.push_str("end"),
        Step::Table(v) => line.push_str(&format!("table {}", format_value(*v))),
        Step::One(m, c) => line.push_str(&format!("one {} {c}", format_move(m))),
        Step::All(edges) => {
            line.push_str("all");
            for (m, c) in edges {
                line.push_str(&format!(" {} {c}", format_move(m)));
            }
        }
    }
    line
}

/// Read a node line of a certificate whose variant is `variant`: the id and the node.
pub fn parse_node(line: &str, variant: Variant) -> Result<(u32, Node), String> {
    let mut it = line.split(' ');
    let mut field = |what: &str| it.next().ok_or_else(|| format!("no {what}"));
    let id: u32 = field("node id")?
        .parse()
        .map_err(|_| "the node id is not a number".to_string())?;
    let board = field("board")?;
    let side = field("side to move")?;
    let position = parse_position(&format!("{board} {side} {}", variant.name()))
        .map_err(|e| format!("the position: {e}"))?;
    let kind = field("justification (end, table, one or all)")?;
    let rest: Vec<&str> = it.collect();
    let step = parse_step(kind, &rest)?;
    Ok((id, Node { position, step }))
}

fn parse_step(kind: &str, rest: &[&str]) -> Result<Step, String> {
    let edge = |m: &str, c: &str| -> Result<(Move, u32), String> {
        let mv = parse_move(m).map_err(|e| format!("the move {m:?}: {e}"))?;
        let c = c.parse().map_err(|_| format!("the node id {c:?}"))?;
        Ok((mv, c))
    };
    match (kind, rest) {
        ("end", []) => Ok(Step::End),
        ("table", [v]) => parse_value(v)
            .map(Step::Table)
            .ok_or_else(|| format!("the value {v:?} (win-N odd, loss-N even, or draw)")),
        ("one", [m, c]) => edge(m, c).map(|(m, c)| Step::One(m, c)),
        ("all", pairs) if pairs.len() % 2 == 0 => pairs
            .chunks(2)
            .map(|p| edge(p[0], p[1]))
            .collect::<Result<_, _>>()
            .map(Step::All),
        _ => Err(format!(
            "{kind:?} with {} fields: expected `end`, `table VALUE`, `one MOVE NODE` or `all` \
             with MOVE NODE pairs",
            rest.len()
        )),
    }
}

/// Writes a certificate as its parts are extracted, hashing every byte for the closing
/// `blake3` line.
pub struct Writer<W: Write> {
    out: W,
    hasher: blake3::Hasher,
    nodes: u64,
}

impl<W: Write> fmt::Debug for Writer<W> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Writer")
            .field("nodes", &self.nodes)
            .finish()
    }
}

impl<W: Write> Writer<W> {
    /// Start a certificate about `root`: the format line and the position.
    pub fn new(out: W, root: &Position) -> io::Result<Writer<W>> {
        let mut w = Writer {
            out,
            hasher: blake3::Hasher::new(),
            nodes: 0,
        };
        w.line(MAGIC)?;
        w.line(&format!("position {root}"))?;
        Ok(w)
    }

    fn line(&mut self, text: &str) -> io::Result<()> {
        self.hasher.update(text.as_bytes());
        self.hasher.update(b"\n");
        self.out.write_all(text.as_bytes())?;
        self.out.write_all(b"\n")
    }

    /// Open a part: its claim. Node ids of a part start at 0, its root.
    pub fn claim(&mut self, claim: Claim) -> io::Result<()> {
        self.line(&format!("claim {claim}"))
    }

    /// Write node `id` of the current part.
    pub fn node(&mut self, id: u32, node: &Node) -> io::Result<()> {
        self.nodes += 1;
        self.line(&node_line(id, node))
    }

    /// Close the current part: the table files its table leaves rely on and its node count.
    pub fn end_claim(&mut self, nodes: u32, tables: &[TableFile]) -> io::Result<()> {
        for t in tables {
            self.line(&format!("table-file {} {}", t.name, t.blake3))?;
        }
        self.line(&format!("nodes {nodes}"))
    }

    /// Close the certificate with the BLAKE3 of every byte before the closing line; the inner
    /// writer back.
    pub fn finish(mut self) -> io::Result<W> {
        let hash = self.hasher.finalize();
        writeln!(self.out, "blake3 {}", hash.to_hex())?;
        self.out.flush()?;
        Ok(self.out)
    }
}
