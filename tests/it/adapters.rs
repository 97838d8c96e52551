//! The adapter helpers for implementers (spec/conformance/adapters/): the Python and the
//! JavaScript sample engines, built on the helper modules and delegating the rules to this
//! crate's `ordo` binary, pass `ordo conform`; and both modules resolve every other spelling of
//! a vector move to the move the reference engine resolves it to. The modules' own unit tests run under
//! spec/conformance/adapters/test.sh. Python 3.11 and Node 20 must be installed; a missing one
//! fails the test with what to install rather than skipping it.

use std::path::{Path, PathBuf};
use std::process::Command;

use ordo_conformance::protocol::GameBoard;
use ordo_conformance::vectors;
use ordo_core::notation::{format_move, parse_position};
use ordo_core::rules::{Dims, Engine, Move, Square, Step};
use ordo_reference::Reference;

const ORDO: &str = env!("CARGO_BIN_EXE_ordo");

fn adapters() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("spec/conformance/adapters")
}

/// Fail with what to install when `program` does not run.
fn require(program: &str, install: &str) {
    let ok = Command::new(program)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    assert!(
        ok,
        "`{program} --version` does not run: install {install} to test the adapter helpers"
    );
}

/// `ordo conform` on `engine` (a shell command) with a small budget: the exit status and the
/// report.
fn conform(engine: &str) -> (Option<i32>, String) {
    let vectors = Path::new(env!("CARGO_MANIFEST_DIR")).join("spec/conformance");
    let o = Command::new(ORDO)
        .args(["conform", "--engine", engine, "--vectors"])
        .arg(&vectors)
        .args(["--playouts", "3", "--plies", "20", "--timeout-ms", "60000"])
        .env("ORDO_BIN", ORDO)
        .env("PYTHONDONTWRITEBYTECODE", "1")
        .output()
        .expect("run ordo conform");
    let mut report = String::from_utf8_lossy(&o.stdout).into_owned();
    report.push_str(&String::from_utf8_lossy(&o.stderr));
    (o.status.code(), report)
}

/// `engine` passes `ordo conform`, the game cases of the suite on `boards` (game:board, or `*`
/// for every one) played through the protocol's `game` request.
fn assert_passes(engine: &str, boards: &[&str]) {
    let (code, report) = conform(engine);
    let games = ordo_conformance::cases::embedded()
        .expect("the built-in case suite")
        .iter()
        .filter(|c| !c.game.is_empty())
        .filter(|c| {
            let gb = GameBoard::of(&parse_position(&c.position).unwrap()).to_string();
            boards == ["*"] || boards.contains(&gb.as_str())
        })
        .count();
    assert!(games > 0, "no game case on {boards:?}");
    assert!(
        report.contains(&format!("game cases: {games} played through 'game'")),
        "{engine}: {games} game cases:\n{report}"
    );
    assert!(report.contains("verdict: PASS"), "{engine}:\n{report}");
    assert!(report.contains("findings: 0"), "{engine}:\n{report}");
    assert!(report.contains(" 0 failed, "), "{engine}:\n{report}");
    assert!(
        report.contains("0 crashes, 0 hangs, 0 garbage answers, 0 restarts"),
        "{engine}:\n{report}"
    );
    assert_eq!(code, Some(0), "{engine}:\n{report}");
}

fn python_sample(args: &str) -> String {
    require(
        "python3",
        "Python 3.11 or newer (for example `apt-get install python3`)",
    );
    let path = adapters().join("python/sample_engine.py");
    format!("python3 '{}' {args}", path.display())
}

fn node_sample(args: &str) -> String {
    require(
        "node",
        "Node.js 20 or newer (for example from https://nodejs.org)",
    );
    let path = adapters().join("js/sample_engine.mjs");
    format!("node '{}' {args}", path.display())
}

/// What the samples declare without `--all-boards`.
const TEN_BY_EIGHT: [&str; 2] = ["classic:10x8", "x:10x8"];

#[test]
fn python_sample_on_every_board_passes_conform() {
    assert_passes(&python_sample("--all-boards"), &["*"]);
}

#[test]
fn node_sample_on_every_board_passes_conform() {
    assert_passes(&node_sample("--all-boards"), &["*"]);
}

/// The sample declares `capabilities classic:10x8 x:10x8`: conform checks those alone.
#[test]
fn python_sample_on_10x8_passes_conform() {
    assert_passes(&python_sample(""), &TEN_BY_EIGHT);
}

/// The same for the JavaScript sample.
#[test]
fn node_sample_on_10x8_passes_conform() {
    assert_passes(&node_sample(""), &TEN_BY_EIGHT);
}

/// Every other spelling of a vector move that `play` must resolve (ORDO-7.1 ordo ends in either
/// order, ORDOX-4.2 a kept group named by any square of the board): per position, the legal
/// moves and each spelling with the move it denotes (null: none). Swapped ends denote the move
/// itself (spec/notation.md, Canonical spelling 1); for a kept group the reference engine says.
fn spellings_file(tag: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("spec/conformance");
    let mut out = String::new();
    for v in vectors::read_dir(&dir).expect("read the vectors") {
        let pos = parse_position(&v.vector.position).expect("a vector position");
        let Ok(engine) = Reference::from_position(&pos) else {
            continue;
        };
        let mut spellings: Vec<(String, Option<String>)> = Vec::new();
        for m in engine.legal_moves() {
            let (ordo_ends, keeps) = respellings(&m, pos.dims());
            for alt in ordo_ends {
                spellings.push((format_move(&alt), Some(format_move(&m))));
            }
            for alt in keeps {
                let resolved = engine.resolve(&alt).map(|r| format_move(&r));
                spellings.push((format_move(&alt), resolved));
            }
        }
        let line = serde_json::json!({
            "position": v.vector.position, "legal": v.vector.moves, "spellings": spellings,
        });
        out.push_str(&format!("{line}\n"));
    }
    let path = crate::common::shared_scratch("adapters").join(format!("{tag}.jsonl"));
    std::fs::write(&path, out).expect("write the spellings");
    path
}

/// The other spellings of `m`: its ordo steps with swapped ends, and its kept groups named by
/// each square of the board.
fn respellings(m: &Move, dims: Dims) -> (Vec<Move>, Vec<Move>) {
    let steps: Vec<Step> = m.steps().copied().collect();
    let with = |i: usize, alt: Step| {
        let mut v = steps.clone();
        v[i] = alt;
        match v.as_slice() {
            [a, b] => Move::double(*a, *b),
            _ => Move::single(v[0]),
        }
    };
    let (mut ordo_ends, mut keeps) = (Vec::new(), Vec::new());
    for (i, step) in steps.iter().enumerate() {
        match *step {
            Step::Ordo { first, last, to } => {
                let col = last.col + to.col - first.col;
                let row = last.row + to.row - first.row;
                let to = Square::new(col, row);
                ordo_ends.push(with(
                    i,
                    Step::Ordo {
                        first: last,
                        last: first,
                        to,
                    },
                ));
            }
            Step::Single {
                from,
                to,
                capture,
                keep: Some(_),
            } => {
                for sq in dims.squares() {
                    let keep = Some(sq);
                    keeps.push(with(
                        i,
                        Step::Single {
                            from,
                            to,
                            capture,
                            keep,
                        },
                    ));
                }
            }
            Step::Single { .. } => {}
        }
    }
    (ordo_ends, keeps)
}

const PY_RESOLVE: &str = r#"
import json, sys
sys.path.insert(0, sys.argv[1])
import ordo_protocol as o
n = bad = 0
for line in open(sys.argv[2], encoding="utf-8"):
    v = json.loads(line)
    p = o.parse_position(v["position"])
    for spelled, want in v["spellings"]:
        got = str(o.canonical_move(p, o.parse_move(spelled)))
        got = got if got in v["legal"] else None
        n += 1
        if got != want:
            bad += 1
            print(f"{v['position']}: {spelled} resolves to {got}, not {want}")
print(f"{n} spellings, {bad} resolved differently")
"#;

const JS_RESOLVE: &str = r#"
const [dir, file] = process.argv.slice(1);
const o = await import(`${dir}/ordo_protocol.mjs`);
const { readFileSync } = await import("node:fs");
let n = 0, bad = 0;
for (const line of readFileSync(file, "utf8").split("\n").filter(Boolean)) {
  const v = JSON.parse(line);
  const p = o.parsePosition(v.position);
  for (const [spelled, want] of v.spellings) {
    let got = o.formatMove(o.canonicalMove(p, o.parseMove(spelled)));
    got = v.legal.includes(got) ? got : null;
    n++;
    if (got !== want) { bad++; console.log(`${v.position}: ${spelled} resolves to ${got}, not ${want}`); }
  }
}
console.log(`${n} spellings, ${bad} resolved differently`);
"#;

/// Run a resolution script; its last line must say that nothing resolved differently.
fn assert_resolves_like_the_reference(program: &str, args: &[&str], dir: &str) {
    let file = spellings_file(program);
    let o = Command::new(program)
        .args(args)
        .arg(dir)
        .arg(&file)
        .env("PYTHONDONTWRITEBYTECODE", "1")
        .output()
        .expect("run the resolution script");
    let _ = std::fs::remove_file(&file);
    let out = String::from_utf8_lossy(&o.stdout);
    let err = String::from_utf8_lossy(&o.stderr);
    let last = out.lines().last().unwrap_or_default();
    assert!(o.status.success(), "{program}: {out}{err}");
    assert!(
        last.ends_with(" 0 resolved differently"),
        "{program}: {out}{err}"
    );
    let n: usize = last.split(' ').next().unwrap_or("0").parse().unwrap_or(0);
    assert!(n > 2000, "only {n} spellings checked");
}

#[test]
fn python_module_resolves_spellings_like_the_reference_engine() {
    require(
        "python3",
        "Python 3.11 or newer (for example `apt-get install python3`)",
    );
    let dir = adapters().join("python");
    assert_resolves_like_the_reference("python3", &["-c", PY_RESOLVE], dir.to_str().unwrap());
}

#[test]
fn js_module_resolves_spellings_like_the_reference_engine() {
    require(
        "node",
        "Node.js 20 or newer (for example from https://nodejs.org)",
    );
    let dir = adapters().join("js");
    let args = ["--input-type=module", "-e", JS_RESOLVE, "--"];
    assert_resolves_like_the_reference("node", &args, dir.to_str().unwrap());
}

/// The first line a sample engine answers to `ordo 1`, run with `path` as its PATH and no
/// `ORDO_BIN`.
fn handshake(sample: &str, path: &std::ffi::OsStr) -> String {
    let o = Command::new("sh")
        .args(["-c", &format!("printf 'ordo 1\\nquit\\n' | {sample}")])
        .env_remove("ORDO_BIN")
        .env("PATH", path)
        .env("PYTHONDONTWRITEBYTECODE", "1")
        .output()
        .expect("run the sample engine");
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    format!("{out}{}", String::from_utf8_lossy(&o.stderr))
}

/// The sample engines find `ordo` without `ORDO_BIN`, both an
/// installed one on the PATH and, when none is installed, the one `cargo build --release` left
/// in this checkout.
#[test]
fn sample_engines_find_ordo_without_ordo_bin() {
    let system = std::env::var_os("PATH").unwrap_or_default();
    let bin = crate::common::scratch("sample-path");
    std::os::unix::fs::symlink(ORDO, bin.join("ordo")).unwrap();
    let mut with_ordo = bin.clone().into_os_string();
    with_ordo.push(":");
    with_ordo.push(&system);
    let built = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/release/ordo");
    for sample in [python_sample(""), node_sample("")] {
        let out = handshake(&sample, &with_ordo);
        assert!(
            out.starts_with("ordo 1 ok name "),
            "{sample} on the PATH: {out}"
        );
        if built.is_file() {
            let out = handshake(&sample, &system);
            assert!(
                out.starts_with("ordo 1 ok name "),
                "{sample} in the checkout: {out}"
            );
        }
    }
    let _ = std::fs::remove_dir_all(&bin);
}

/// An adapter on the Python helper whose `moves` lists every ordo move in both spellings, as
/// one real engine does (the sample's rules otherwise).
const PY_ORDOS_TWICE: &str = r#"
import sys
sys.path.insert(0, sys.argv[1])
import ordo_protocol as op
import sample_engine as s

def flipped(m):
    st = m.steps[0]
    if len(m.steps) != 1 or st.last is None:
        return []
    (fc, fr), (lc, lr), (tc, tr) = (op.square_coords(q) for q in (st.from_, st.last, st.to))
    to = op.square_name(lc + tc - fc, lr + tr - fr)
    return [op.Move((op.Step(st.last, to, last=st.from_),))]

def moves(p):
    listed = s.moves(p)
    return listed + [f for m in listed for f in flipped(m)]

op.serve(op.Engine("ordos twice", moves, s.play, s.status, capabilities="classic:10x8",
                   validate=s.validate))
"#;

/// spec/protocol.md, `moves`, each move once: an engine on the helper
/// module that lists a move twice is not merged silently: the helper repeats the move in its
/// reply and `ordo conform` fails it with findings of one kind of their own, "a move is
/// listed twice", and no other.
#[test]
fn a_move_listed_twice_through_the_helper_is_a_finding() {
    require(
        "python3",
        "Python 3.11 or newer (for example `apt-get install python3`)",
    );
    let dir = crate::common::scratch("ordos-twice");
    let script = dir.join("ordos_twice.py");
    std::fs::write(&script, PY_ORDOS_TWICE).unwrap();
    let engine = format!(
        "python3 '{}' '{}'",
        script.display(),
        adapters().join("python").display()
    );
    let o = Command::new(ORDO)
        .args(["conform", &engine, "--json", "--only", "classic:10x8"])
        .args(["--playouts", "1", "--plies", "6", "--timeout-ms", "60000"])
        .env("ORDO_BIN", ORDO)
        .env("PYTHONDONTWRITEBYTECODE", "1")
        .output()
        .expect("run ordo conform");
    let text = String::from_utf8_lossy(&o.stdout);
    let v: serde_json::Value = serde_json::from_str(&text)
        .unwrap_or_else(|e| panic!("{e}: {text}{}", String::from_utf8_lossy(&o.stderr)));
    assert_eq!(o.status.code(), Some(1), "{text}");
    let by_kind = v["summary"]["by_kind"].as_object().unwrap();
    assert_eq!(
        by_kind.keys().collect::<Vec<_>>(),
        ["repeated"],
        "{by_kind:?}"
    );
    assert!(by_kind["repeated"].as_u64().unwrap() > 3, "{by_kind:?}");
    let first = &v["findings"][0];
    let twice = first["diff"]["listed_twice"][0].clone();
    assert_eq!(twice["detail"], "listed 2 times", "{first}");
    assert!(
        twice["text"].as_str().unwrap().contains(':'),
        "an ordo: {first}"
    );
    assert_eq!(
        v["summary"]["by_clause"]["none"], by_kind["repeated"],
        "{v}"
    );
}
