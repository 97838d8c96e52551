#!/bin/sh
# Run the unit tests of the adapter helpers: Python (unittest) and JavaScript (node --test).
# Prints each runner's summary (its whole output when it fails); exit status 1 when either
# suite fails or its interpreter is missing. Needs only python3 (3.11+) and node (20+).
set -u
here=$(cd "$(dirname "$0")" && pwd)
log=$(mktemp)
trap 'rm -f "$log"' EXIT
status=0

if ! command -v python3 >/dev/null 2>&1; then
    echo "adapters: python3 not found: install Python 3.11 or newer" >&2
    status=1
elif PYTHONDONTWRITEBYTECODE=1 python3 -m unittest discover -s "$here/python" \
        -p 'test_*.py' >"$log" 2>&1; then
    echo "adapters, python: $(grep '^Ran ' "$log") $(tail -n 1 "$log")"
else
    cat "$log"
    echo "adapters, python: FAILED" >&2
    status=1
fi

if ! command -v node >/dev/null 2>&1; then
    echo "adapters: node not found: install Node.js 20 or newer" >&2
    status=1
elif node --test "$here/js/test_ordo_protocol.mjs" >"$log" 2>&1; then
    echo "adapters, js: $(grep -E '^# (tests|pass|fail) ' "$log" | tr '\n' ' ')"
else
    cat "$log"
    echo "adapters, js: FAILED" >&2
    status=1
fi

exit $status
