//! Reading lines with a bound on what is kept: both ends of the protocol (`ordo engine`'s
//! requests, `ordo conform`'s replies and its engine's standard error) read through here, so
//! that a line without an end (a flood of bytes, a 1 GB line) costs at most the limit in memory
//! however long it is.

use std::io::{self, BufRead};

/// One line as read by [`read_line`].
#[derive(Debug, PartialEq, Eq)]
pub enum Line {
    /// The input ended before any byte of a new line.
    End,
    /// A line of at most the limit, without its line ending (`\n` or `\r\n`), in the buffer.
    Kept,
    /// A line longer than the limit: the buffer holds its first `limit` bytes, the rest was read
    /// and thrown away. `bytes` is its whole length (without the line ending).
    TooLong {
        /// Length of the whole line.
        bytes: u64,
    },
}

/// Read one line from `r` into `buf` (cleared first), keeping at most `limit` bytes of it; the
/// line ending does not count towards the limit. A last line without a line ending counts as a
/// line. The rest of an overlong line is read up to its end and discarded, chunk by chunk.
pub fn read_line<R: BufRead + ?Sized>(
    r: &mut R,
    limit: usize,
    buf: &mut Vec<u8>,
) -> io::Result<Line> {
    buf.clear();
    // Keep one byte beyond the limit: it may be the `\r` of a `\r\n`.
    let keep = limit.saturating_add(1);
    let mut total: u64 = 0;
    let mut seen_any = false;
    let mut ended = false;
    let mut last = None;
    while !ended {
        let chunk = match r.fill_buf() {
            Ok(c) => c,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if chunk.is_empty() {
            break;
        }
        seen_any = true;
        let (part, used) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => {
                ended = true;
                (&chunk[..i], i + 1)
            }
            None => (chunk, chunk.len()),
        };
        total += part.len() as u64;
        if let Some(&b) = part.last() {
            last = Some(b);
        }
        let room = keep.saturating_sub(buf.len());
        buf.extend_from_slice(&part[..part.len().min(room)]);
        r.consume(used);
    }
    if !seen_any {
        return Ok(Line::End);
    }
    if ended && last == Some(b'\r') {
        total -= 1;
        if buf.len() as u64 > total {
            buf.pop();
        }
    }
    if total > limit as u64 {
        buf.truncate(limit);
        return Ok(Line::TooLong { bytes: total });
    }
    Ok(Line::Kept)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(input: &[u8], limit: usize) -> Vec<(Line, Vec<u8>)> {
        let mut r = io::BufReader::with_capacity(7, input);
        let mut out = Vec::new();
        let mut buf = Vec::new();
        loop {
            let l = read_line(&mut r, limit, &mut buf).unwrap();
            if l == Line::End {
                return out;
            }
            out.push((l, buf.clone()));
        }
    }

    #[test]
    fn the_limit_counts_the_line_without_its_ending() {
        let got = lines(b"abcd\nabcd\r\nabcde\nab\r\r\nabc", 4);
        assert_eq!(got[0], (Line::Kept, b"abcd".to_vec()));
        assert_eq!(got[1], (Line::Kept, b"abcd".to_vec()));
        assert_eq!(got[2], (Line::TooLong { bytes: 5 }, b"abcd".to_vec()));
        assert_eq!(got[3], (Line::Kept, b"ab\r".to_vec()));
        assert_eq!(got[4], (Line::Kept, b"abc".to_vec()));
        assert_eq!(got.len(), 5);
    }

    #[test]
    fn an_overlong_line_keeps_only_the_limit() {
        let mut input = vec![b'z'; 100_000];
        input.extend(b"\r\nok\n");
        let got = lines(&input, 10);
        assert_eq!(got[0], (Line::TooLong { bytes: 100_000 }, vec![b'z'; 10]));
        assert_eq!(got[1], (Line::Kept, b"ok".to_vec()));
    }
}
