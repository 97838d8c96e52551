#!/usr/bin/env bash
# Build the dispute page as a static site into DIR (default: target/site): the WebAssembly
# module of crates/wasm (the adjudicator, the reference engine and the notation, judging in the
# browser), then `ordo site DIR --wasm …` for the page, its assets and the rules page. Any
# static host serves the folder (GitHub Pages, a web server, `python3 -m http.server`); nobody
# runs `ordo serve` for it. Installs the wasm32-unknown-unknown target through rustup when it is
# missing. With ORDO_SITE_TABLES=TDIR (a folder of `ordo tb build`) the site ships those endgame
# tables and the page shows endgame values from them.
set -euo pipefail
cd "$(dirname "$0")/.."
dir="${1:-target/site}"

target=wasm32-unknown-unknown
if ! rustc --print sysroot >/dev/null 2>&1 || [ ! -d "$(rustc --print sysroot)/lib/rustlib/$target" ]; then
    rustup target add "$target"
fi
# The module ships to browsers: no debug information, symbols stripped (about 1.1 MB with the
# endgame probe).
CARGO_PROFILE_RELEASE_DEBUG=0 CARGO_PROFILE_RELEASE_STRIP=true \
    cargo build --release --locked --target "$target" -p ordo-wasm
cargo build --release --locked
./target/release/ordo site "$dir" --wasm "target/$target/release/ordo_wasm.wasm" \
    ${ORDO_SITE_TABLES:+--tables "$ORDO_SITE_TABLES"}
