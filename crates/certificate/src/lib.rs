//! Proof certificates of Ordo and Ordo X (spec/certificate.md): the file a proof search writes
//! and the checker anyone can run on it.
//!
//! A certificate is about one position and has one or two parts, each a claim about one side
//! and a graph that shows it:
//! - **`wins`**: at the side's turns one move, at the other side's every legal move, each line
//!   ending in a win of the side by the rules (ORDO-10.1 to ORDO-10.4) or by the endgame
//!   tables, and no cycle;
//! - **`cannot-win`**: at the side's turns every legal move, at the other's one, and no line
//!   reaching a win of the side; cycles are allowed, since endless play is a draw (ORDO-3.3).
//!
//! Two `cannot-win` parts, one per side, establish a draw.
//!
//! The checker ([`check_file`]) judges every node on the **reference engine** (`ordo-reference`):
//! the position valid, each move legal, each listed reply set complete, each child the
//! position the move leads to, each leaf over or in the tables (whose files must match the
//! content checksums listed); and the graph reached from the root, without cycle for a win.
//! It shares no code with the search that writes certificates (`ordo-prove`) nor with the
//! bitboard engine it searches on, so neither can vouch for itself.
//!
//! ```
//! use ordo_certificate::{check, read_from, Established};
//!
//! // White to move on a 3 x 3 board with a piece next to Black's home row: one move wins.
//! let text = "ordo-certificate 1\n\
//!             position 1B1/W2/3 w classic\n\
//!             claim white wins\n\
//!             0 1B1/W2/3 w one a2-a3 1\n\
//!             1 WB1/3/3 b end\n\
//!             nodes 2\n";
//! let hash = blake3::hash(text.as_bytes());
//! let file = format!("{text}blake3 {}\n", hash.to_hex());
//! let cert = read_from(file.as_bytes()).unwrap();
//! let checked = check(&cert, None).unwrap();
//! assert_eq!(checked.established, Established::Wins(ordo_core::rules::Color::White));
//! ```

use std::fmt;
use std::path::Path;

mod check;
mod format;
mod read;

pub use check::{check, Checked, Established};
pub use format::{
    format_value, node_line, parse_node, parse_value, Claim, Node, Step, TableFile, Writer, MAGIC,
};
pub use read::{read, read_from, Certificate, Part, MAX_LINE};

/// Read and judge the certificate at `path`, with the tables in `tables` for its table leaves.
pub fn check_file(path: &Path, tables: Option<&Path>) -> Result<Checked, CheckError> {
    let cert = read(path)?;
    check(&cert, tables)
}

/// Why a certificate is refused: where (line, part, node) and what is wrong there.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub struct CheckError {
    /// The line of the file, when the failure is in reading it.
    pub line: Option<u64>,
    /// The part (from 1) and its claim, when the failure is in a part.
    pub part: Option<(usize, Claim)>,
    /// The node, when the failure is at one.
    pub node: Option<u32>,
    /// What is wrong.
    pub reason: String,
    /// The file could not be opened or read at all (a failure of the system, not of the
    /// certificate).
    pub unreadable: bool,
}

impl CheckError {
    /// A failure of the file as a whole.
    pub fn file(reason: impl Into<String>) -> CheckError {
        CheckError {
            line: None,
            part: None,
            node: None,
            reason: reason.into(),
            unreadable: false,
        }
    }

    /// The file could not be opened or read.
    pub fn unreadable(reason: impl Into<String>) -> CheckError {
        CheckError {
            unreadable: true,
            ..CheckError::file(reason)
        }
    }

    /// A failure on `line` of the file.
    pub fn at_line(line: u64, reason: impl Into<String>) -> CheckError {
        CheckError {
            line: Some(line),
            ..CheckError::file(reason)
        }
    }

    /// A failure at `node` of a part.
    pub fn at_node(node: u32, reason: impl Into<String>) -> CheckError {
        CheckError {
            node: Some(node),
            ..CheckError::file(reason)
        }
    }

    fn in_part(self, part: usize, claim: Claim) -> CheckError {
        CheckError {
            part: Some((part, claim)),
            ..self
        }
    }
}

impl fmt::Display for CheckError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(line) = self.line {
            write!(f, "line {line}: ")?;
        }
        if let Some((i, claim)) = self.part {
            write!(f, "part {i} ({claim}): ")?;
        }
        if let Some(node) = self.node {
            write!(f, "node {node}: ")?;
        }
        f.write_str(&self.reason)
    }
}
