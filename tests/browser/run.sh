#!/usr/bin/env bash
# End-to-end test of the dispute page in a real headless browser (Debian's chromium driven by
# playwright-core), twice: under `ordo serve` (answers from the JSON API), and as the static
# site of scripts/build-site.sh served by a plain static file server (`python3 -m http.server`,
# answers from the WebAssembly module, no ordo process), and a third time as the site of
# `ordo site DIR --api URL`, whose page asks the `ordo serve` of the first run across origins. Installs what is missing, builds the
# release binary and the site, starts both servers on free loopback ports, runs e2e.mjs against
# each, and stops them on exit. Screenshots go to target/browser/. Exit status: non-zero on any
# failure.
set -euo pipefail
cd "$(dirname "$0")/../.."

if [ ! -x /usr/bin/chromium ]; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get update && apt-get install -y chromium
fi
if [ ! -d tests/browser/node_modules/playwright-core ]; then
    (cd tests/browser && { npm ci --no-audit --no-fund || npm install --no-audit --no-fund; })
fi
cargo build --release --locked

# Endgame values: a small table set for `ordo serve --tables` and for the
# static site, which ships it (`ordo site DIR --tables TDIR`).
rm -rf target/browser/tb
./target/release/ordo tb build --board 4x4 --max-pieces 2,2 --dir target/browser/tb
rm -rf target/browser/site
ORDO_SITE_TABLES=target/browser/tb bash scripts/build-site.sh target/browser/site

mkdir -p target/browser
pids=()
trap 'for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; wait "$p" 2>/dev/null || true; done' EXIT

# Start a server (the command after the log file's name), wait for the address it prints.
start() {
    local log=$1
    shift
    "$@" >"$log" 2>&1 &
    pids+=($!)
    url=""
    for _ in $(seq 1 100); do
        url=$(grep -o 'http://[^ )]*' "$log" | head -n 1 || true)
        [ -n "$url" ] && return 0
        kill -0 "${pids[-1]}" 2>/dev/null || break
        sleep 0.1
    done
    echo "run.sh: $* did not start:" >&2
    cat "$log" >&2
    exit 1
}

start target/browser/serve.log ./target/release/ordo serve --bind 127.0.0.1 --port 0 --tables target/browser/tb
server_url=$url
echo "run.sh: ordo serve at $url"
ORDO_URL="${url%/}" ORDO_KIND=server ORDO_TABLES=yes ORDO_ARTIFACTS=target/browser node tests/browser/e2e.mjs

start target/browser/static.log python3 -u -m http.server --bind 127.0.0.1 --directory target/browser/site 0
echo "run.sh: the static site at $url"
ORDO_URL="${url%/}" ORDO_KIND=static ORDO_TABLES=yes ORDO_SERVER_URL="${server_url%/}" ORDO_SITE_DIR=target/browser/site ORDO_ARTIFACTS=target/browser node tests/browser/e2e.mjs

# The site an installed ordo writes without the module (`ordo site DIR --api URL`): its page,
# on another origin, asks the `ordo serve` above for every answer.
rm -rf target/browser/remote-site
./target/release/ordo site target/browser/remote-site --api "$server_url"
start target/browser/remote.log python3 -u -m http.server --bind 127.0.0.1 --directory target/browser/remote-site 0
echo "run.sh: the --api site at $url, asking $server_url"
ORDO_URL="${url%/}" ORDO_KIND=remote ORDO_TABLES=yes ORDO_ARTIFACTS=target/browser node tests/browser/e2e.mjs
