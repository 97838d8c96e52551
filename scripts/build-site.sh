#!/usr/bin/env bash
# Build the dispute page as a static site into DIR (default: target/site): the WebAssembly
# module of crates/wasm (the adjudicator, the reference engine and the notation, judging in the
# browser), then `ordo site DIR --wasm …` for the page, its assets and the rules page. Any
# static host serves the folder (GitHub Pages, a web server, `python3 -m http.server`); nobody
# runs `ordo serve` for it. Installs the wasm32-unknown-unknown target through rustup when it is
# missing. With ORDO_SITE_TABLES=TDIR (a folder of `ordo tb build`) the site ships those endgame
# tables and the page shows endgame values from them.
#
# DIR and TDIR are taken relative to the folder the script is run from (the default DIR,
# target/site, is in the repository). It builds the module and then the release `ordo` (a full native release
# build of the workspace's command line, most of the time on a fresh clone), and says at the
# end which endgame tables the site ships.
set -euo pipefail
case "${1:-}" in
    "") dir="" ;;
    /*) dir=$1 ;;
    *) dir="$PWD/$1" ;;
esac
case "${ORDO_SITE_TABLES:-}" in
    "" | /*) ;;
    *) ORDO_SITE_TABLES="$PWD/$ORDO_SITE_TABLES" ;;
esac
cd "$(dirname "$0")/.."
dir="${dir:-$PWD/target/site}"

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
if [ -n "${ORDO_SITE_TABLES:-}" ]; then
    echo "build-site.sh: the site ships the endgame tables of $ORDO_SITE_TABLES:" \
        "$(cd "$dir/tables" && ls ctb-*.ordotb 2>/dev/null | tr '\n' ' ')"
else
    echo "build-site.sh: the site ships no endgame tables (ORDO_SITE_TABLES=TDIR adds those of TDIR)"
fi
