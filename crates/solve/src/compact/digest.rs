//! The checksums published beside results, so that a forged table is caught, as Syzygy publishes
//! the checksums of its tables: a table's checksum in the file itself catches damage, not a forger
//! who recomputes it; a list kept apart from the files (`analysis/checksums/`) does.
//!
//! A compact file records what the run that built it cost (`solve_ms`, `peak_memory`), so two
//! builds of the same table differ in those bytes. The checksum published is therefore the
//! table's *content checksum*: BLAKE3 of the first line, the header line without those two
//! fields, and the payload (every value). It covers everything the answers depend on (game,
//! board, kind, scope, index scheme, rules version, each slice's counts, every value), and a
//! rebuild anywhere gives the same one (the solver is deterministic: the values are the
//! unique solution, the counts are sums).

use std::io::{BufReader, Read};
use std::path::Path;

use super::store::{
    check_file_size, file_error, parse_header, read_checksum, read_head, Foreign, MAGIC,
};
use crate::checksum::BLAKE3_LINE;
use crate::fault::TableFault;
use crate::SolveError;

/// The content checksum of the compact table file at `path` (see the module
/// documentation), after checking the file against its own checksum on the way: a damaged
/// or edited file, or one of another format, is an error naming it.
pub fn content_checksum(path: &Path) -> Result<blake3::Hash, SolveError> {
    let f = crate::files::open_regular(path).map_err(|e| file_error(path, e))?;
    let len = f.metadata().map_err(|e| file_error(path, e))?.len();
    let io = |e: std::io::Error| file_error(path, e);
    let mut r = BufReader::new(f);
    let line = read_head(&mut r, path)?;
    let header = parse_header(&line).map_err(|f| match f {
        Foreign::Retro(_) => file_error(path, "a retro solver's table (format 2), not checksummed"),
        Foreign::Bad(msg) => file_error(path, msg),
    })?;
    let stored = read_checksum(&mut r)
        .map_err(io)?
        .ok_or_else(|| file_error(path, "no checksum line after the header"))?;
    let payload: u64 = header.slices.iter().map(|s| s.entries).sum();
    let head_len = (MAGIC.len() + 1 + line.len() + BLAKE3_LINE) as u64;
    check_file_size(len, head_len, payload).map_err(|f| file_error(path, f))?;
    let mut file = blake3::Hasher::new();
    file.update(format!("{MAGIC}\n").as_bytes());
    file.update(&line);
    let run_free = super::CompactHeader {
        solve_ms: None,
        peak_memory: None,
        ..header
    };
    let text = serde_json::to_string(&run_free).map_err(|e| file_error(path, e))?;
    let mut content = blake3::Hasher::new();
    content.update(format!("{MAGIC}\n{text}\n").as_bytes());
    let mut buf = vec![0u8; 1 << 20];
    loop {
        let n = r.read(&mut buf).map_err(io)?;
        if n == 0 {
            break;
        }
        file.update(&buf[..n]);
        content.update(&buf[..n]);
    }
    let got = file.finalize();
    if got != stored {
        return Err(file_error(
            path,
            TableFault::Checksum {
                stored: stored.to_hex().to_string(),
                got: got.to_hex().to_string(),
            },
        ));
    }
    Ok(content.finalize())
}

/// One line of a published checksum list: `<64 hex digits>  <file name>` (the layout of
/// `b3sum`), the name relative to the list's folder of tables.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Listed {
    /// The BLAKE3 hash of the file's bytes.
    pub checksum: blake3::Hash,
    /// The file's name, relative to the list's folder.
    pub name: String,
}

/// The entries of a checksum list; blank lines and lines starting with `#` are comments.
/// A malformed line is an error naming its number.
pub fn parse_list(text: &str) -> Result<Vec<Listed>, String> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim_end();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let parsed = line.split_once("  ").and_then(|(hex, name)| {
            let ok = hex.len() == 64 && hex.bytes().all(|b| b.is_ascii_hexdigit());
            let name = name.trim();
            let plain = !name.is_empty() && !name.contains('/') && !name.contains('\\');
            let checksum = blake3::Hash::from_hex(hex).ok().filter(|_| ok && plain)?;
            Some(Listed {
                checksum,
                name: name.to_string(),
            })
        });
        match parsed {
            Some(l) => out.push(l),
            None => {
                return Err(format!(
                    "line {}: expected '<64 hex digits>  <file name>' (a name without folders)",
                    i + 1
                ))
            }
        }
    }
    Ok(out)
}
