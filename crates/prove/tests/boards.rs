//! The proof search against the retrograde solver: on every small board whose whole game the
//! solver has solved (`analysis/games/`, `analysis/compact/`), the search proves the same
//! start value, and its certificate passes the checker on the reference engine.

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

use ordo_certificate::{check_file, Established};
use ordo_core::rules::{setup, Color, Dims, Variant};
use ordo_prove::{prove, Options, Outcome};

/// One solved board: its game, board, setup rows and start value for White.
struct Solved {
    variant: Variant,
    dims: Dims,
    rows: u8,
    start: String,
    file: PathBuf,
}

fn solved_boards() -> Vec<Solved> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../analysis");
    let mut out = Vec::new();
    for dir in ["games", "compact"] {
        for entry in std::fs::read_dir(root.join(dir)).unwrap() {
            let file = entry.unwrap().path();
            if file.extension().and_then(|e| e.to_str()) != Some("json") {
                continue;
            }
            let v: serde_json::Value =
                serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
            let board: Vec<usize> = v["board"]
                .as_str()
                .unwrap()
                .split('x')
                .map(|n| n.parse().unwrap())
                .collect();
            out.push(Solved {
                variant: v["variant"].as_str().unwrap().parse().unwrap(),
                dims: Dims::new(board[0], board[1]).unwrap(),
                rows: v["setup"].as_str().unwrap()[3..].parse().unwrap(),
                start: v["start"].as_str().unwrap().to_string(),
                file,
            });
        }
    }
    out.sort_by_key(|s| s.dims.len());
    out
}

fn expected(start: &str) -> Outcome {
    match start {
        "win" => Outcome::Wins(Color::White),
        "loss" => Outcome::Wins(Color::Black),
        "draw" => Outcome::Draw,
        other => panic!("start value {other:?}"),
    }
}

fn established(o: Outcome) -> Established {
    match o {
        Outcome::Wins(c) => Established::Wins(c),
        Outcome::Draw => Established::Draw,
        other => panic!("{other:?} has no certificate"),
    }
}

/// Prove the start of `b` with a certificate and check it on the reference engine.
fn prove_and_check(b: &Solved, dir: &Path) {
    let start = setup::filled_rows(b.dims, b.rows, b.variant).unwrap();
    let cert = dir.join(format!(
        "{}-{}-row{}.cert",
        b.variant.name(),
        b.dims,
        b.rows
    ));
    let opts = Options::default();
    let stop = AtomicBool::new(false);
    let report = prove(&start, &opts, None, Some(&cert), &stop, &mut |_| {}).unwrap();
    let want = expected(&b.start);
    assert_eq!(report.outcome, want, "{}", b.file.display());
    let checked = check_file(&cert, None).unwrap();
    assert_eq!(
        checked.established,
        established(want),
        "{}",
        b.file.display()
    );
    eprintln!(
        "{} {} row{}: {:?} in {} nodes, certificate {:?}",
        b.variant.name(),
        b.dims,
        b.rows,
        report.outcome,
        report.nodes,
        report.parts.iter().map(|p| p.1.nodes).collect::<Vec<_>>()
    );
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ordo-prove-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The boards of up to 16 squares: each start proved as the solver solved it (ORDO-10.1 to
/// ORDO-10.4 as leaves, ORDO-3.3 for the draw of classic 3 x 4 row 2), each certificate
/// checked.
#[test]
fn small_boards_agree_with_the_solver_and_their_certificates_check() {
    let dir = scratch("small");
    let boards: Vec<Solved> = solved_boards()
        .into_iter()
        .filter(|b| b.dims.len() <= 16)
        .collect();
    assert!(boards.len() >= 14, "{} small boards", boards.len());
    for b in &boards {
        prove_and_check(b, &dir);
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Every other solved board (up to 36 squares), each start proved and its certificate
/// checked: the slow tier.
#[test]
#[ignore = "the larger solved boards take minutes: cargo test --release -- --ignored"]
fn larger_boards_agree_with_the_solver_and_their_certificates_check() {
    let dir = scratch("large");
    for b in solved_boards().into_iter().filter(|b| b.dims.len() > 16) {
        prove_and_check(&b, &dir);
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
