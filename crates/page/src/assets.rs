//! The page's files, embedded in the binary (no build step): served by `ordo serve` and
//! written into the static site by [`crate::site`].

/// The page (`/`). Its `<meta name="ordo-backend">` says where answers come from: `server`
/// (the JSON API of `ordo serve`) or `wasm` (the WebAssembly module of the static site).
pub const INDEX_HTML: &str = include_str!("assets/index.html");
/// The page's script: the board, the verdict, the links, and both backends.
pub const APP_JS: &str = include_str!("assets/app.js");
/// The page's style sheet.
pub const APP_CSS: &str = include_str!("assets/app.css");
/// The page's icon (the favicon).
pub const ICON_SVG: &str = include_str!("assets/icon.svg");
