//! `ordo serve`: a web page for settling rule disputes, and shareable verdicts.
//!
//! What this room owns:
//! - [`api`]: the JSON answers (the verdict on a move, the legal moves, a clause, a diagram, the
//!   position after one step), built from text input and testable without a socket, and
//!   [`api::ApiError`], the typed error every answer can fail with (a 4xx status and a one-line
//!   JSON body `{"error": "...", "where": "..."}`);
//! - [`pages`]: HTML rendered here: the rules page (`/rules`, one anchor per clause) and the
//!   self-contained verdict file of `ordo explain --html` ([`pages::verdict_page`]);
//! - `server`: the HTTP side: the [`router`] (routes, limits on request size and time, JSON
//!   errors for unknown routes and methods) and the accept loop ([`run`]), which bounds the time
//!   a client may take to send its request head and the number of open connections;
//! - `assets/`: the page's HTML, CSS and JavaScript, embedded in the binary (no build step).
//!
//! It judges nothing itself: verdicts come from [`crate::adjudicate`], legal moves from the
//! reference engine, diagrams from [`crate::render`], clause texts from the registry.
//!
//! ```
//! let answer = ordo_serve::api::explain("4/1B2/WW2/2W1 w classic", "a2:b2-a3").unwrap();
//! assert_eq!(answer.verdict, "illegal");
//! assert_eq!(answer.violated[0].id, "ORDO-7.2");
//! let err = ordo_serve::api::explain("4/1B2", "a2-a3").unwrap_err();
//! assert_eq!((err.status(), err.place.as_str()), (400, "position"));
//! ```

use ordo::render;
use ordo_adjudicate as adjudicate;
use ordo_core::{notation, rules};
use ordo_reference as reference;

pub mod api;
pub mod pages;
mod server;
mod work;

pub use server::{router, run, serve, Limits, ServeError};
