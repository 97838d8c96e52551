//! Diagrams: a Unicode board for the terminal and SVG files, with coordinates, home rows, the
//! move drawn as arrows, and captured and removed pieces marked.

use std::path::Path;

use crate::rules::{Move, Position, Square};

/// What to mark besides the pieces.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Annotations {
    /// Squares whose piece the move captures (drawn on the position before the move).
    pub captured: Vec<Square>,
    /// Squares whose piece is removed with a smaller or unchosen group (ORDOX-4.1).
    pub removed: Vec<Square>,
    /// A caption, e.g. the verdict.
    pub title: Option<String>,
}

/// An SVG document of `pos` (the position before `mv`, if a move is given).
pub fn svg(_pos: &Position, _mv: Option<&Move>, _notes: &Annotations) -> String {
    String::new()
}

/// A Unicode board of `pos` for the terminal.
pub fn unicode(_pos: &Position, _mv: Option<&Move>, _notes: &Annotations) -> String {
    String::new()
}

/// Write `text` to `path` atomically: a temporary file beside it, then a rename.
pub fn write_atomically(path: &Path, text: &str) -> std::io::Result<()> {
    let tmp = path.with_extension("tmp-ordo");
    std::fs::write(&tmp, text)?;
    std::fs::rename(&tmp, path)
}
