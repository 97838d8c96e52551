//! `ordo serve`: a web page for settling rule disputes, and shareable verdicts, over HTTP.
//!
//! What this room owns: the HTTP side, around the answers of `ordo-page`. The [`router`] serves
//! the page, its assets and the rules page, and hands every other request to `ordo-page`'s one
//! dispatcher of the API ([`ordo_page::Route`], [`ordo_page::Request`]), adding what one client
//! may cost the server: limits on request size and time, a pool of workers with light and
//! heavy work admitted apart, each behind a bounded queue (the heavy one served address by
//! address in turn), a share per address (behind a trusted proxy, the address it forwards), a
//! budget of legal moves per request (counted by the bitboard engine), and a JSON body for
//! every error status, those hyper gives before routing included. The accept loop ([`run`],
//! [`serve`]) bounds the time a client may take to send its request head and the connections
//! open at once, in all and per address. With endgame tables ([`router_with`], [`run_with`]),
//! `/api/values` answers from them. The same answers reach the static site's page through
//! WebAssembly, without a server (`crates/wasm`).
//!
//! ```
//! let app = ordo_serve::router(&ordo_serve::Limits::default());
//! # drop(app);
//! ```

mod forwarded;
mod head;
mod server;
mod work;

pub use server::{router, router_with, run, run_with, serve, serve_with, Limits, ServeError};
