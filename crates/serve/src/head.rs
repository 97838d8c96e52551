//! The answers hyper gives before any route sees the request, in the API's words: a request
//! head hyper cannot read (a byte outside those HTTP allows, a malformed request line) gets
//! 400, a head over the connection's buffer 431 (414 when its request line alone is: the target
//! is too long). Hyper writes
//! those answers itself, with no body; [`JsonErrors`], around the connection's socket, puts
//! the same status with a one-line JSON body in their place, as every other error has.

use std::io;
use std::pin::Pin;
use std::task::{ready, Context, Poll};

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

use ordo_page::api::{ApiError, ErrorKind};

/// Most bytes of a request head (request line and headers) a connection buffers; a longer
/// head gets 431.
pub const MAX_HEAD: usize = 64 * 1024;

/// A connection's socket whose hyper-written error answers are replaced by JSON ones.
pub struct JsonErrors<S> {
    inner: S,
    /// Longest request target the router takes, named in the answers.
    max_target: usize,
    /// Whether the request line being read has not ended yet (no line end read since the last
    /// answer was written): a head too large for the buffer is then a target too long.
    in_first_line: bool,
    /// The answer written instead of hyper's, and how much of it is written.
    swap: Option<(Vec<u8>, usize)>,
}

impl<S> JsonErrors<S> {
    /// `inner`, its error answers naming a limit of `max_target` bytes for the target.
    pub fn new(inner: S, max_target: usize) -> JsonErrors<S> {
        JsonErrors {
            inner,
            max_target,
            in_first_line: true,
            swap: None,
        }
    }
}

/// The answer of hyper's that `bytes` begins, when it is one of its bodiless error answers:
/// its status.
fn hyper_error(bytes: &[u8]) -> Option<u16> {
    let head_end = bytes.windows(4).position(|w| w == b"\r\n\r\n")? + 4;
    if head_end != bytes.len() {
        return None;
    }
    let head = std::str::from_utf8(bytes).ok()?.to_ascii_lowercase();
    let status: u16 = head.strip_prefix("http/1.")?.get(2..5)?.parse().ok()?;
    let bodiless = head.contains("\r\ncontent-length: 0\r\n");
    (bodiless && matches!(status, 400 | 414 | 431)).then_some(status)
}

/// The JSON answer for a request hyper refused with `status`, as bytes on the wire; the
/// connection closes after it.
pub fn answer(status: u16, max_target: usize) -> Vec<u8> {
    let (kind, reason, message) = match status {
        414 => (
            ErrorKind::UriTooLong,
            "URI Too Long",
            format!(
                "the request target is over {MAX_HEAD} bytes long, over the limit of \
                 {max_target} bytes"
            ),
        ),
        431 => (
            ErrorKind::HeadTooLarge,
            "Request Header Fields Too Large",
            format!(
                "the request head (its target and headers) is over the limit of {MAX_HEAD} \
                 bytes; the target may have at most {max_target}"
            ),
        ),
        _ => (
            ErrorKind::BadInput,
            "Bad Request",
            "the request is not HTTP/1.1 the server can read: a malformed request line or \
             header, or a byte HTTP does not allow there (percent-encode bytes outside \
             printable ASCII, e.g. %FF)"
                .to_string(),
        ),
    };
    let body = ApiError::new(kind, "request", message).to_json();
    format!(
        "HTTP/1.1 {status} {reason}\r\ncontent-type: application/json\r\n\
         x-content-type-options: nosniff\r\ncache-control: no-cache\r\n\
         access-control-allow-origin: *\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
        body.len()
    )
    .into_bytes()
}

impl<S: AsyncWrite + Unpin> JsonErrors<S> {
    /// Write what is left of the answer in place of hyper's.
    fn drain(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        if let Some((bytes, at)) = &mut self.swap {
            while *at < bytes.len() {
                let n = ready!(Pin::new(&mut self.inner).poll_write(cx, &bytes[*at..]))?;
                if n == 0 {
                    return Poll::Ready(Err(io::ErrorKind::WriteZero.into()));
                }
                *at += n;
            }
        }
        Poll::Ready(Ok(()))
    }
}

impl<S: AsyncRead + Unpin> AsyncRead for JsonErrors<S> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let before = buf.filled().len();
        ready!(Pin::new(&mut self.inner).poll_read(cx, buf))?;
        if buf.filled()[before..].contains(&b'\n') {
            self.in_first_line = false;
        }
        Poll::Ready(Ok(()))
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for JsonErrors<S> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = &mut *self;
        if this.swap.is_none() {
            match hyper_error(buf) {
                Some(431) if this.in_first_line => {
                    this.swap = Some((answer(414, this.max_target), 0));
                }
                Some(status) => this.swap = Some((answer(status, this.max_target), 0)),
                None => {
                    this.in_first_line = true;
                    return Pin::new(&mut this.inner).poll_write(cx, buf);
                }
            }
        }
        // Hyper closes the connection after its error answer: whatever it writes is taken as
        // written, once the JSON answer is.
        ready!(this.drain(cx))?;
        Poll::Ready(Ok(buf.len()))
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        ready!(self.drain(cx))?;
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        ready!(self.drain(cx))?;
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Only hyper's bodiless 400, 414 and 431 are taken for its own; an answer of the router,
    /// which always has a body, never is.
    #[test]
    fn only_hyper_bodiless_errors_are_replaced() {
        let hyper = "HTTP/1.1 431 Request Header Fields Too Large\r\ncontent-length: 0\r\n\
                     date: Sat, 28 Nov 2026 17:00:00 GMT\r\n\r\n";
        assert_eq!(hyper_error(hyper.as_bytes()), Some(431));
        let bad = hyper.replace("431 Request Header Fields Too Large", "400 Bad Request");
        assert_eq!(hyper_error(bad.as_bytes()), Some(400));
        let ours = "HTTP/1.1 400 Bad Request\r\ncontent-length: 30\r\n\r\n";
        assert_eq!(hyper_error(ours.as_bytes()), None);
        let with_body = format!("{hyper}{{}}");
        assert_eq!(hyper_error(with_body.as_bytes()), None);
        let ok = hyper.replace("431 Request Header Fields Too Large", "200 OK");
        assert_eq!(hyper_error(ok.as_bytes()), None);
        let text = String::from_utf8(answer(431, 4096)).unwrap();
        let (head, body) = text.split_once("\r\n\r\n").unwrap();
        assert!(head.starts_with("HTTP/1.1 431 "), "{head}");
        assert!(head.contains(&format!("content-length: {}\r\n", body.len())));
        let v: serde_json::Value = serde_json::from_str(body).unwrap();
        assert_eq!(v["where"], "request");
    }
}
