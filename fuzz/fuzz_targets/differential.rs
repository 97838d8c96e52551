//! Differential target: a board and start position (a reachable start or raw cells) and a
//! sequence of move choices; the reference and the bitboard engine are compared on moves,
//! successors and status at every ply (`ordo::diff::check_line`).
#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use ordo::bitboard::Bitboard;
use ordo::diff::{check_line, position_from_bytes, reachable_starts};
use ordo::reference::Reference;

#[derive(Arbitrary, Debug)]
enum Start {
    Reachable(u8),
    Cells { cols: u8, rows: u8, cells: Vec<u8>, black: bool, x: bool },
}

#[derive(Arbitrary, Debug)]
struct Input {
    start: Start,
    choices: Vec<u16>,
}

fuzz_target!(|input: Input| {
    let start = match input.start {
        Start::Reachable(i) => {
            let all = reachable_starts();
            all[i as usize % all.len()].clone()
        }
        Start::Cells { cols, rows, cells, black, x } => {
            match position_from_bytes(cols, rows, &cells, black, x) {
                Some(p) => p,
                None => return,
            }
        }
    };
    // Ordo X on the big boards costs the reference engine dearly: keep such lines short.
    let plies = if start.dims().len() > 40 { 4 } else { 32 };
    let choices = &input.choices[..input.choices.len().min(plies)];
    if let Err(d) = check_line::<Reference, Bitboard>(&start, choices) {
        panic!("divergence: {d}");
    }
});
