//! What table files (the compact solver's `compact::store`, and the retro solver's of the test
//! tooling) share on disk: the FNV-1a 64 checksum, the checksum line that carries it, and reading a
//! header line without trusting its length.

use std::io::{BufRead, Read};

/// The start of a file's checksum line; 16 lower-case hex digits and a newline follow.
pub const CHECKSUM_PREFIX: &str = "checksum fnv1a64 ";
/// The length of a checksum line, newline included.
pub const CHECKSUM_LINE: usize = CHECKSUM_PREFIX.len() + 17;

/// FNV-1a, 64 bits, fed in pieces.
pub struct Fnv(pub u64);

impl Default for Fnv {
    fn default() -> Fnv {
        Fnv::new()
    }
}

impl Fnv {
    /// The hash of no bytes (the FNV-1a 64 offset basis).
    pub fn new() -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325)
    }

    /// Feed `bytes`.
    pub fn update(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= u64::from(b);
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
}

/// Read one line of at most `max` bytes (newline included); `None` if no newline came.
pub fn read_line_limited(r: &mut impl BufRead, max: usize) -> std::io::Result<Option<Vec<u8>>> {
    let mut line = Vec::new();
    r.take(max as u64).read_until(b'\n', &mut line)?;
    Ok((line.last() == Some(&b'\n')).then_some(line))
}

/// The checksum a checksum line holds (16 lower-case hex digits after the prefix).
pub fn parse_checksum_line(line: Option<&[u8]>) -> Option<u64> {
    line.and_then(|l| std::str::from_utf8(l).ok())
        .and_then(|l| l.trim_end().strip_prefix(CHECKSUM_PREFIX))
        .filter(|h| h.len() == 16 && h.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f')))
        .and_then(|h| u64::from_str_radix(h, 16).ok())
}
