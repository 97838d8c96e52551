#!/usr/bin/env bash
# Installed and packaged, tested as a user gets it: the `ordo` binary through
# `cargo install --path .`, the Python helper package through `pip install` into a fresh venv,
# the JavaScript one through `npm pack` and `npm install` of the tarball into a fresh project,
# each into a temporary folder; then, from an empty temporary folder with only the installed
# `ordo` put first on the PATH (no ORDO_BIN, nothing of the repository on any path):
# `ordo conform` on `ordo engine` and on both installed sample engines (PASS), `ordo explain`,
# `ordo tb build` of a small table set then `ordo tb probe` on it, and `ordo prove` with a
# certificate then `ordo prove --check` on it.
#
#   bash scripts/install-test.sh
#
# One line per step; on a failure, the step's one-line reason on stderr (and the end of its
# log) and exit status 1. Ends with 'N passed, N failed'. Every temporary folder is removed on
# exit. No network is used: pip takes the package from the repository path (--no-index; its
# build backend is in the package, standard library only), npm installs from the tarball
# (--offline) with a cache inside the temporary folder.
#
# cargo install builds in the workspace's target folder (CARGO_TARGET_DIR, default target/),
# with the release profile and the lock file, so it reuses a `cargo build --release --locked`
# done before (or leaves its build for the `cargo run --release` after it in .ci/run): it
# compiles nothing when that build is up to date.
set -uo pipefail
cd "$(dirname "$0")/.."
root=$PWD
clock=$SECONDS
passed=0
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ordo-install-test.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM
log="$tmp/step.log"

ok() {
    passed=$((passed + 1))
    echo "ok: $*"
}
die() {
    echo "install-test: FAILED: $*" >&2
    if [ -s "$log" ]; then tail -n 20 "$log" >&2; fi
    echo "$passed passed, 1 failed"
    exit 1
}

# 1. The binary, into $tmp/cargo/bin.
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$root/target}"
start=$SECONDS
cargo install --path . --locked --root "$tmp/cargo" >"$log" 2>&1 ||
    die "cargo install --path . --locked failed"
[ -x "$tmp/cargo/bin/ordo" ] || die "cargo install left no bin/ordo"
ok "cargo install --path . --locked: $("$tmp/cargo/bin/ordo" --version) ($((SECONDS - start)) s)"

# 2. The Python package, into a fresh venv.
python3 -m venv "$tmp/venv" >"$log" 2>&1 || die "python3 -m venv failed"
"$tmp/venv/bin/pip" install --no-index --no-cache-dir --disable-pip-version-check \
    "$root/spec/conformance/adapters/python" >"$log" 2>&1 ||
    die "pip install spec/conformance/adapters/python failed"
[ -x "$tmp/venv/bin/ordo-sample-python" ] || die "pip installed no ordo-sample-python command"
where=$(cd "$tmp" && "$tmp/venv/bin/python" -I -c 'import ordo_protocol; print(ordo_protocol.__file__)') ||
    die "the installed ordo_protocol does not import"
case "$where" in
    "$tmp/venv/"*) ;;
    *) die "ordo_protocol imported from $where, not from the venv" ;;
esac
ok "pip install spec/conformance/adapters/python: ordo_protocol in the venv, command ordo-sample-python"

# 3. The JavaScript package: npm pack, then npm install of the tarball into a fresh project.
export npm_config_cache="$tmp/npm-cache" npm_config_update_notifier=false \
    npm_config_fund=false npm_config_audit=false
mkdir -p "$tmp/pack" "$tmp/js"
tarball=$(npm pack "$root/spec/conformance/adapters/js" --pack-destination "$tmp/pack" \
    2>"$log" | tail -n 1) || die "npm pack spec/conformance/adapters/js failed"
[ -f "$tmp/pack/$tarball" ] || die "npm pack made no tarball (it printed '$tarball')"
printf '{ "name": "ordo-install-test", "version": "1.0.0", "private": true }\n' >"$tmp/js/package.json"
(cd "$tmp/js" && npm install --offline "$tmp/pack/$tarball") >"$log" 2>&1 ||
    die "npm install $tarball failed"
[ -x "$tmp/js/node_modules/.bin/ordo-sample-js" ] || die "npm installed no ordo-sample-js command"
exports=$(cd "$tmp/js" && node -e '
    const cjs = require("ordo-protocol");
    import("ordo-protocol").then((esm) => {
        const a = Object.keys(cjs).sort().join(" "), b = Object.keys(esm).sort().join(" ");
        if (a !== b || cjs.formatPosition(esm.startPosition()) !== esm.formatPosition(cjs.startPosition())) {
            console.error(`require gives [${a}], import gives [${b}]`);
            process.exit(1);
        }
        console.log(Object.keys(cjs).length);
    });' 2>"$log") || die "the installed ordo-protocol: require and import differ"
ok "npm pack + npm install $tarball: require and import give the same $exports exports, command ordo-sample-js"

# 4. From an empty folder, with the installed ordo first on the PATH.
mkdir "$tmp/empty"
cd "$tmp/empty" || die "cd $tmp/empty"
export PATH="$tmp/cargo/bin:$PATH"
unset ORDO_BIN
[ "$(command -v ordo)" = "$tmp/cargo/bin/ordo" ] || die "ordo on the PATH is $(command -v ordo)"

conform() { # conform LABEL ENGINE: ordo conform on ENGINE must exit 0 with a PASS verdict,
    # the game cases played through the protocol's 'game' request.
    local start=$SECONDS verdict games
    ordo conform "$2" >"$log" 2>&1 || die "ordo conform \"$2\" exited $?"
    verdict=$(grep -m 1 '^verdict: ' "$log")
    games=$(grep -m 1 '^  game cases: ' "$log" | sed 's/^  game cases: \([0-9]*\) played through .*/\1/')
    case "$games" in
        '' | *[!0-9]*) die "ordo conform \"$2\": the game cases were not played" ;;
    esac
    case "$verdict" in
        "verdict: PASS"*) ok "ordo conform $1: ${verdict#verdict: }; game cases played through 'game': $games ($((SECONDS - start)) s)" ;;
        *) die "ordo conform \"$2\": no PASS verdict" ;;
    esac
}
conform '"ordo engine"' "ordo engine"
conform "ordo-sample-python (pip)" "$tmp/venv/bin/ordo-sample-python"
conform "ordo-sample-js (npm)" "$tmp/js/node_modules/.bin/ordo-sample-js"
left=$(ls -A)
[ -z "$left" ] || die "ordo conform left files in the working folder: $left"

# ORDO-7.2 and ORDO-4.3: README.md's dispute example; exit status 1 for an illegal move.
ordo explain --position "4/1B2/WW2/2W1 w classic" "a2:b2-a3" >"$log" 2>&1
code=$?
[ "$code" -eq 1 ] || die "ordo explain exited $code, not 1 (illegal)"
grep -q '^verdict: illegal$' "$log" && grep -q '^ORDO-7.2 ' "$log" && grep -q '^ORDO-4.3 ' "$log" ||
    die "ordo explain did not name ORDO-7.2 and ORDO-4.3"
ok "ordo explain --position \"4/1B2/WW2/2W1 w classic\" a2:b2-a3: illegal, ORDO-7.2 and ORDO-4.3"

# The 1v1, 2v1, 1v2 and 2v2 slices of the 10 x 8 board (a fraction of a second), then
# README.md's probe: Black to move wins in 17 plies.
ordo tb build --board 10x8 --max-pieces 2,2 --dir tables >"$log" 2>&1 || die "ordo tb build exited $?"
slices=$(find tables -name '*.ordotb' | wc -l)
[ "$slices" -eq 3 ] || die "ordo tb build wrote $slices table files, not 3"
ok "ordo tb build --board 10x8 --max-pieces 2,2: $slices slice files in ./tables"
ordo tb probe --position "10/10/10/B9/B9/10/10/WW8 b classic" --dir tables >"$log" 2>&1 ||
    die "ordo tb probe exited $?"
first=$(head -n 1 "$log")
[ "$first" = "Black to move wins in 17 plies" ] || die "ordo tb probe said '$first'"
ok "ordo tb probe --position \"10/10/10/B9/B9/10/10/WW8 b classic\": $first"

# A proof with its certificate, judged on the reference engine, from the same folder.
ordo prove -q --variant x --board 3x4 --setup row2 --certificate x-3x4-row2.cert >"$log" 2>&1 ||
    die "ordo prove exited $?"
grep -q "^result: Black wins" "$log" || die "ordo prove said '$(head -2 "$log" | tail -1)'"
ordo prove --check x-3x4-row2.cert >"$log" 2>&1 || die "ordo prove --check exited $?"
grep -q "holds on the reference engine" "$log" || die "ordo prove --check: $(head -1 "$log")"
ok "ordo prove --variant x --board 3x4 --setup row2: Black wins, certificate holds"

echo "install-test: $((SECONDS - clock)) s in all"
echo "$passed passed, 0 failed"
