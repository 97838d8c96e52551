//! The dispute page without a server: everything `ordo serve` answers, as plain functions of
//! text, and the page itself. No server, async or system-call dependency, so the crate also
//! builds for WebAssembly (`crates/wasm`), where the static site judges in the browser.
//!
//! What this room owns:
//! - [`api`]: the JSON answers (the verdict on a move, the legal moves, a clause, a diagram, the
//!   position after one step) and [`api::ApiError`], the typed error every answer can fail with
//!   (a 4xx status and a one-line JSON body `{"error": "...", "where": "..."}`);
//! - the API's routes, parameters and answers, defined once: [`Route`] (a path), [`Request`]
//!   (its query string read) and [`Answer`] (status, content type, body); [`answer`] answers a
//!   target (`/api/explain?position=…&move=…`) through them. `ordo serve` maps HTTP onto the
//!   same three, and the WebAssembly module calls [`answer`] when there is no server;
//! - [`pages`]: HTML rendered here: the rules page (one anchor per clause) and the
//!   self-contained verdict file of `ordo explain --html` ([`pages::verdict_page`]);
//! - [`assets`]: the page's HTML, CSS, JavaScript and icon, embedded (no build step);
//! - [`site`]: the files of the static site (`ordo site DIR`), which any static host serves;
//! - [`values`]: endgame values from the tables (`/api/values`), for the server and the module.
//!
//! It judges nothing itself: verdicts come from [`crate::adjudicate`], legal moves from the
//! reference engine, diagrams from `ordo-render`, clause texts from the registry.
//!
//! ```
//! let answer = ordo_page::api::explain("4/1B2/WW2/2W1 w classic", "a2:b2-a3").unwrap();
//! assert_eq!(answer.verdict, ordo_page::api::Legality::Illegal);
//! assert_eq!(answer.violated[0].id, "ORDO-7.2");
//! let err = ordo_page::api::explain("4/1B2", "a2-a3").unwrap_err();
//! assert_eq!((err.status(), err.place.as_str()), (400, "position"));
//! let reply = ordo_page::answer("/api/rules/ORDO-7.2");
//! assert_eq!((reply.status, reply.content_type), (200, "application/json"));
//! ```

use ordo_adjudicate as adjudicate;
use ordo_core::{notation, rules};
use ordo_reference as reference;
use ordo_render as render;

pub mod api;
pub mod assets;
mod dispatch;
pub mod pages;
pub mod show;
pub mod site;
pub mod values;

pub use dispatch::{answer, answer_with, Answer, Request, Route};
