//! What table files share on disk: the checksum lines and reading a header line without
//! trusting its length.
//!
//! The compact solver's tables (`compact::store`, format 4 on) and checkpoints (format 2 on)
//! carry BLAKE3 (a cryptographic hash: no edit of the header or the payload can be given
//! the same checksum, as FNV-1a's could be by solving for a few bytes). A checksum in the
//! file itself catches damage, not a forger who recomputes it: that needs a list of the
//! tables' checksums published apart from them ([`crate::compact::content_checksum`], `ordo tb
//! checksums`, `analysis/checksums/`). FNV-1a 64 stays for the retro solver's files of the test
//! tooling and the verification log.

use std::io::{BufRead, Read};

/// The start of a compact file's checksum line; 64 lower-case hex digits (BLAKE3) and a
/// newline follow.
pub const BLAKE3_PREFIX: &str = "checksum blake3 ";
/// The length of a BLAKE3 checksum line, newline included.
pub const BLAKE3_LINE: usize = BLAKE3_PREFIX.len() + 65;

/// The BLAKE3 checksum line of `hash`, without its newline.
pub fn blake3_line(hash: &blake3::Hash) -> String {
    format!("{BLAKE3_PREFIX}{}", hash.to_hex())
}

/// The hash a BLAKE3 checksum line holds (64 lower-case hex digits after the prefix).
pub fn parse_blake3_line(line: Option<&[u8]>) -> Option<blake3::Hash> {
    line.and_then(|l| std::str::from_utf8(l).ok())
        .and_then(|l| l.trim_end().strip_prefix(BLAKE3_PREFIX))
        .filter(|h| h.len() == 64 && h.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f')))
        .and_then(|h| blake3::Hash::from_hex(h).ok())
}

/// The start of an FNV-1a file's checksum line; 16 lower-case hex digits and a newline follow.
pub const CHECKSUM_PREFIX: &str = "checksum fnv1a64 ";
/// The length of a checksum line, newline included.
pub const CHECKSUM_LINE: usize = CHECKSUM_PREFIX.len() + 17;

/// FNV-1a, 64 bits, fed in pieces.
#[derive(Clone, Copy, Debug)]
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
