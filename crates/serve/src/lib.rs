//! `ordo serve`: a web page for settling rule disputes, and shareable verdicts, over HTTP.
//!
//! What this room owns:
//! - `server`: the HTTP side: the [`router`] (routes, limits on request size and time, JSON
//!   errors for unknown routes and methods) and the accept loop ([`run`]), which bounds the time
//!   a client may take to send its request head and the number of open connections, and
//!   `/api/values` from the tables of `ordo serve --tables DIR` ([`router_with`], [`run_with`])
//!   through `ordo_page::values`, the probe the static site's module runs too.
//!
//! What it serves comes from `ordo-page`, re-exported here: [`api`] (the JSON answers, built
//! from text input and testable without a socket, and [`api::ApiError`], the typed error every
//! answer can fail with: a 4xx status and a one-line JSON body `{"error": "...", "where":
//! "..."}`), [`pages`] (the rules page and the verdict file of `ordo explain --html`) and
//! [`assets`] (the page's HTML, CSS and JavaScript). The same answers reach the static site's
//! page through WebAssembly, without a server (`crates/wasm`).
//!
//! ```
//! let answer = ordo_serve::api::explain("4/1B2/WW2/2W1 w classic", "a2:b2-a3").unwrap();
//! assert_eq!(answer.verdict, "illegal");
//! assert_eq!(answer.violated[0].id, "ORDO-7.2");
//! let err = ordo_serve::api::explain("4/1B2", "a2-a3").unwrap_err();
//! assert_eq!((err.status(), err.place.as_str()), (400, "position"));
//! ```

pub use ordo_page::{answer, answer_with, api, assets, pages, show, site, Answer};

mod server;
mod work;

pub use ordo_solve::Tablebase;
pub use server::{router, router_with, run, run_with, serve, serve_with, Limits, ServeError};
