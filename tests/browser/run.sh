#!/usr/bin/env bash
# End-to-end test of `ordo serve` in a real headless browser (Debian's chromium driven by
# playwright-core). Installs what is missing, builds the release binary, starts the server on a
# free loopback port, runs e2e.mjs, and stops the server on exit. Screenshots go to
# target/browser/. Exit status: non-zero on any failure.
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

mkdir -p target/browser
log=target/browser/serve.log
./target/release/ordo serve --bind 127.0.0.1 --port 0 >"$log" 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true' EXIT

url=""
for _ in $(seq 1 100); do
    url=$(grep -o 'http://[^ ]*' "$log" || true)
    [ -n "$url" ] && break
    kill -0 "$server" 2>/dev/null || break
    sleep 0.1
done
if [ -z "$url" ]; then
    echo "run.sh: ordo serve did not start:" >&2
    cat "$log" >&2
    exit 1
fi
echo "run.sh: ordo serve at $url"
ORDO_URL="${url%/}" ORDO_ARTIFACTS=target/browser node tests/browser/e2e.mjs
