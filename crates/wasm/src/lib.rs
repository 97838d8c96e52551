//! The dispute page's answers as a WebAssembly module (`ordo_wasm.wasm`, built for
//! `wasm32-unknown-unknown` by `scripts/build-site.sh`): the static site's page judges in the
//! browser through it, with no server.
//!
//! The interface is plain `extern "C"` functions and bytes in linear memory, so the page needs
//! no generated glue (no wasm-bindgen and its matching command-line tool):
//!
//! 1. `ordo_alloc(n)` reserves `n` bytes; the script writes the request there, UTF-8: the path
//!    and query string of an API request, e.g. `/api/explain?position=…&move=…`;
//! 2. `ordo_request(ptr, n)` answers it ([`ordo_page::answer`], the routes and errors of the
//!    server's API), frees the request and returns the HTTP status (200, 400, 404);
//! 3. `ordo_reply_ptr()` and `ordo_reply_len()` locate the reply body (JSON, or the SVG of
//!    `/api/board`), valid until the next request.
//!
//! Endgame values (`/api/values`) come from the table files the site ships (`ordo site DIR
//! --tables TDIR`): `/api/tables?position=…` names the files a position still needs, the
//! script fetches them and gives each to `ordo_add_table(name_ptr, name_len, ptr, len)` (both
//! buffers from `ordo_alloc`); each file's header and checksum are checked before its values
//! are used ([`ordo_solve::Tablebase::in_memory`], the probe `ordo serve --tables` runs).
//!
//! ```
//! let (status, body) = ordo_wasm::request("/api/explain?position=4%2F1B2%2FWW2%2F2W1+w+classic&move=a2:b2-a3");
//! assert_eq!(status, 200);
//! assert!(body.contains(r#""verdict":"illegal""#));
//! ```

use std::cell::RefCell;

use ordo_solve::Tablebase;

thread_local! {
    /// The body of the last reply.
    static REPLY: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
    /// The table files given so far, loaded as probes need them.
    static TABLES: Tablebase = Tablebase::in_memory();
}

/// Answer `target` (a request's path and query string): its status and body.
pub fn request(target: &str) -> (u16, String) {
    let a = TABLES.with(|t| ordo_page::answer_with(target, Some(t)));
    (a.status, a.body)
}

/// Give the bytes of the table file `name` to the module's tables.
pub fn add_table(name: &str, bytes: Vec<u8>) {
    TABLES.with(|t| t.add_file(name, bytes));
}

/// Give the module the table file whose name (UTF-8, `name_len` bytes at `name_ptr`) and
/// contents (`len` bytes at `ptr`) the script wrote into two buffers of `ordo_alloc`, and
/// free both; 0, or 400 when the name is not UTF-8. The file is checked when a probe first
/// needs it.
///
/// # Safety
///
/// Each buffer must come from `ordo_alloc` with the length given, be filled, and not be
/// used again.
// Unsafe to call (it takes ownership of raw buffers: the Safety section above); its
// `no_mangle` is sound as for `ordo_alloc`.
#[allow(unsafe_code)]
#[no_mangle]
pub unsafe extern "C" fn ordo_add_table(
    name_ptr: *mut u8,
    name_len: usize,
    ptr: *mut u8,
    len: usize,
) -> u32 {
    // SAFETY: the caller passes two buffers of `ordo_alloc` that it filled and gives up.
    let (name, bytes) = unsafe {
        (
            Vec::from_raw_parts(name_ptr, name_len, name_len.max(1)),
            Vec::from_raw_parts(ptr, len, len.max(1)),
        )
    };
    match String::from_utf8(name) {
        Ok(name) => {
            add_table(&name, bytes);
            0
        }
        Err(_) => 400,
    }
}

/// Reserve `len` bytes of linear memory for a request; `ordo_request` frees them.
// `no_mangle` is unsafe code only because two exports of one name would clash: the
// module's exports all carry the `ordo_` prefix, and nothing else in it exports.
#[allow(unsafe_code)]
#[no_mangle]
pub extern "C" fn ordo_alloc(len: usize) -> *mut u8 {
    let mut buf = Vec::<u8>::with_capacity(len.max(1));
    let ptr = buf.as_mut_ptr();
    std::mem::forget(buf);
    ptr
}

/// Answer the request of `len` bytes at `ptr`, free them, keep the reply for
/// [`ordo_reply_ptr`] and [`ordo_reply_len`], and return its HTTP status.
///
/// # Safety
///
/// `ptr` must come from `ordo_alloc(len)` with the same `len`, hold `len` initialised bytes,
/// and not be used again.
// Unsafe to call (it takes ownership of raw buffers: the Safety section above); its
// `no_mangle` is sound as for `ordo_alloc`.
#[allow(unsafe_code)]
#[no_mangle]
pub unsafe extern "C" fn ordo_request(ptr: *mut u8, len: usize) -> u32 {
    // SAFETY: the caller passes a buffer of `ordo_alloc(len)` that it filled and gives up.
    let bytes = unsafe { Vec::from_raw_parts(ptr, len, len.max(1)) };
    let (status, body) = match std::str::from_utf8(&bytes) {
        Ok(target) => request(target),
        Err(_) => (
            400,
            r#"{"error":"the request is not UTF-8","where":"request"}"#.to_string(),
        ),
    };
    REPLY.with(|r| *r.borrow_mut() = body.into_bytes());
    u32::from(status)
}

/// Where the last reply's body starts.
// `no_mangle` is unsafe code only because two exports of one name would clash: the
// module's exports all carry the `ordo_` prefix, and nothing else in it exports.
#[allow(unsafe_code)]
#[no_mangle]
pub extern "C" fn ordo_reply_ptr() -> *const u8 {
    REPLY.with(|r| r.borrow().as_ptr())
}

/// How many bytes the last reply's body has.
// `no_mangle` is unsafe code only because two exports of one name would clash: the
// module's exports all carry the `ordo_` prefix, and nothing else in it exports.
#[allow(unsafe_code)]
#[no_mangle]
pub extern "C" fn ordo_reply_len() -> usize {
    REPLY.with(|r| r.borrow().len())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The page without a server: the exports answer as the server's API does, bad bytes
    /// included.
    #[allow(unsafe_code)]
    fn call(bytes: &[u8]) -> (u32, String) {
        let ptr = ordo_alloc(bytes.len());
        // SAFETY: `ptr` has room for `bytes.len()` bytes, and is given up to `ordo_request`.
        let status = unsafe {
            std::ptr::copy_nonoverlapping(bytes.as_ptr(), ptr, bytes.len());
            ordo_request(ptr, bytes.len())
        };
        // SAFETY: the reply lives until the next request.
        let body =
            unsafe { std::slice::from_raw_parts(ordo_reply_ptr(), ordo_reply_len()) }.to_vec();
        (status, String::from_utf8(body).unwrap())
    }

    #[test]
    fn the_exports_answer_requests_as_the_api_does() {
        let target = "/api/explain?position=4%2F1B2%2FWW2%2F2W1+w+classic&move=a2:b2-a3";
        let (status, body) = call(target.as_bytes());
        assert_eq!(
            (status, body.clone()),
            (200, ordo_page::answer(target).body)
        );
        assert!(body.contains("ORDO-7.2"), "{body}");
        assert_eq!(call(b"/api/moves?position=4%2F4").0, 400);
        assert_eq!(call(b"").0, 404);
        assert_eq!(call(b"/api/\xff").0, 400);
    }
}
