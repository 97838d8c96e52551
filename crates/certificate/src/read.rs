//! Reading a certificate file whole: its lines in order, its closing checksum, its parts.

use std::io::{BufRead, BufReader, Read};
use std::path::Path;

use ordo_core::notation::parse_position;
use ordo_core::rules::Position;

use crate::format::{parse_node, Claim, Node, TableFile, MAGIC};
use crate::CheckError;

/// The longest line a certificate may have: a node of the 10 x 8 board with hundreds of moves
/// fits many times over.
pub const MAX_LINE: usize = 1 << 20;

/// The most nodes one part may have (ids are `u32`).
pub const MAX_NODES: usize = u32::MAX as usize;

/// One part of a certificate: a claim and the graph that shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Part {
    /// What the part claims about the root.
    pub claim: Claim,
    /// The nodes in id order; node 0 is the root.
    pub nodes: Vec<Node>,
    /// The table files its table leaves rely on.
    pub tables: Vec<TableFile>,
}

/// A certificate as read: the position it is about and its parts (one for a win or a single
/// cannot-win, two cannot-wins for a draw).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Certificate {
    /// The position.
    pub root: Position,
    /// The parts in file order.
    pub parts: Vec<Part>,
}

/// Reads lines, counting them and hashing each one into the checksum.
struct Lines<R> {
    r: R,
    line: u64,
    hasher: blake3::Hasher,
    buf: Vec<u8>,
}

impl<R: BufRead> Lines<R> {
    /// The next line without its newline; `None` at the end of the file. The closing
    /// `blake3` line is returned without being hashed.
    fn next(&mut self) -> Result<Option<String>, CheckError> {
        self.buf.clear();
        let n = (&mut self.r)
            .take(MAX_LINE as u64 + 1)
            .read_until(b'\n', &mut self.buf)
            .map_err(|e| CheckError::unreadable(format!("cannot read it: {e}")))?;
        if n == 0 {
            return Ok(None);
        }
        self.line += 1;
        if self.buf.last() != Some(&b'\n') {
            let what = if n > MAX_LINE {
                format!("longer than {MAX_LINE} bytes")
            } else {
                "cut off (no newline at the end)".to_string()
            };
            return Err(CheckError::at_line(
                self.line,
                format!("the line is {what}"),
            ));
        }
        if !self.buf.starts_with(b"blake3 ") {
            self.hasher.update(&self.buf);
        }
        self.buf.pop();
        String::from_utf8(self.buf.clone())
            .map(Some)
            .map_err(|_| CheckError::at_line(self.line, "the line is not UTF-8"))
    }

    fn expect(&mut self, what: &str) -> Result<String, CheckError> {
        self.next()?.ok_or_else(|| {
            CheckError::at_line(
                self.line + 1,
                format!("the file ends where {what} should be"),
            )
        })
    }
}

/// Read the certificate at `path`: every line, its parts and its closing checksum (a file whose
/// BLAKE3 does not match is refused before any node is judged).
pub fn read(path: &Path) -> Result<Certificate, CheckError> {
    let f = ordo_system::files::open_regular(path)
        .map_err(|e| CheckError::unreadable(format!("cannot open it: {e}")))?;
    read_from(BufReader::new(f))
}

/// [`read`] from any reader.
pub fn read_from(r: impl BufRead) -> Result<Certificate, CheckError> {
    let mut lines = Lines {
        r,
        line: 0,
        hasher: blake3::Hasher::new(),
        buf: Vec::new(),
    };
    let first = lines.expect("the format line")?;
    if first != MAGIC {
        return Err(CheckError::at_line(
            1,
            format!("not a certificate: expected {MAGIC:?}"),
        ));
    }
    let pos_line = lines.expect("the position line")?;
    let root = pos_line
        .strip_prefix("position ")
        .ok_or_else(|| CheckError::at_line(2, "expected `position` and the position"))
        .and_then(|p| parse_position(p).map_err(|e| CheckError::at_line(2, e.to_string())))?;
    let mut parts = Vec::new();
    loop {
        let line = lines.expect("a `claim` line or the closing `blake3` line")?;
        if let Some(hex) = line.strip_prefix("blake3 ") {
            close(&mut lines, hex)?;
            break;
        }
        parts.push(read_part(&mut lines, &root, &line)?);
    }
    if parts.is_empty() {
        return Err(CheckError::at_line(
            lines.line,
            "the certificate claims nothing",
        ));
    }
    Ok(Certificate { root, parts })
}

/// Check the closing checksum and that nothing follows it.
fn close<R: BufRead>(lines: &mut Lines<R>, hex: &str) -> Result<(), CheckError> {
    let at = lines.line;
    let want = lines.hasher.finalize();
    if hex != want.to_hex().as_str() {
        return Err(CheckError::at_line(
            at,
            "the BLAKE3 checksum does not match the file's content (damaged or edited)",
        ));
    }
    if lines.next()?.is_some() {
        return Err(CheckError::at_line(
            lines.line,
            "text after the closing checksum",
        ));
    }
    Ok(())
}

/// Read one part, from its `claim` line (already read) to its `nodes` line.
fn read_part<R: BufRead>(
    lines: &mut Lines<R>,
    root: &Position,
    claim_line: &str,
) -> Result<Part, CheckError> {
    let claim = claim_line
        .strip_prefix("claim ")
        .and_then(Claim::parse_text)
        .ok_or_else(|| {
            CheckError::at_line(
                lines.line,
                "expected `claim white|black wins|cannot-win` or the closing `blake3` line",
            )
        })?;
    let mut part = Part {
        claim,
        nodes: Vec::new(),
        tables: Vec::new(),
    };
    loop {
        let line = lines.expect("a node, `table-file` or `nodes` line")?;
        if let Some(n) = line.strip_prefix("nodes ") {
            if n.parse::<usize>().ok() != Some(part.nodes.len()) {
                let msg = format!("`nodes {n}`, but the part has {} nodes", part.nodes.len());
                return Err(CheckError::at_line(lines.line, msg));
            }
            return Ok(part);
        }
        if let Some(t) = line.strip_prefix("table-file ") {
            part.tables.push(table_file(t, lines.line)?);
            continue;
        }
        read_node(&mut part, root, &line, lines.line)?;
    }
}

fn read_node(part: &mut Part, root: &Position, line: &str, at: u64) -> Result<(), CheckError> {
    let (id, node) = parse_node(line, root.variant).map_err(|e| CheckError::at_line(at, e))?;
    if id as usize != part.nodes.len() || part.nodes.len() >= MAX_NODES {
        let msg = format!("node {id} where node {} should be", part.nodes.len());
        return Err(CheckError::at_line(at, msg));
    }
    part.nodes.push(node);
    Ok(())
}

fn table_file(t: &str, at: u64) -> Result<TableFile, CheckError> {
    let (name, hex) = t
        .split_once(' ')
        .filter(|(n, h)| !n.is_empty() && h.len() == 64 && h.bytes().all(|b| b.is_ascii_hexdigit()))
        .ok_or_else(|| {
            CheckError::at_line(at, "expected `table-file NAME BLAKE3` (64 hex digits)")
        })?;
    Ok(TableFile {
        name: name.to_string(),
        blake3: hex.to_ascii_lowercase(),
    })
}
