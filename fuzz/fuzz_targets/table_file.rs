//! Table-file target: the loader never panics, never allocates what the file's size does
//! not back, and never trusts a damaged file. Input is either raw bytes, loaded as a game
//! table and as an endgame slice, or a list of changes to a valid table file (the classic
//! 3 x 3 row1 game table): a changed file must be refused, the unchanged one loaded.
#![no_main]

use std::path::PathBuf;
use std::sync::OnceLock;

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use ordo::bitboard::Bitboard;
use ordo::rules::{Dims, Variant};
use ordo::solve::{load_raw, solve_game, Expect, GameOptions, Setup, Silent, Table};

#[derive(Arbitrary, Debug)]
enum Input {
    Raw(Vec<u8>),
    Change {
        flips: Vec<(u16, u8)>,
        cut: Option<u16>,
        append: Vec<u8>,
    },
}

fn dims() -> Dims {
    "3x3".parse().unwrap()
}

fn scratch() -> PathBuf {
    std::env::temp_dir().join(format!("ordo-fuzz-table-{}.ordotb", std::process::id()))
}

/// The bytes of a valid table file.
fn valid() -> &'static [u8] {
    static BYTES: OnceLock<Vec<u8>> = OnceLock::new();
    BYTES.get_or_init(|| {
        let opts = GameOptions {
            table: None,
            verify: false,
            memory_limit: None,
            progress: &Silent,
        };
        let (table, _) =
            solve_game::<Bitboard>(Variant::Classic, dims(), Setup::Row1, &opts).unwrap();
        let path = scratch();
        table.save(&path).unwrap();
        let bytes = std::fs::read(&path).unwrap();
        let _ = std::fs::remove_file(&path);
        bytes
    })
}

fn load_game(bytes: &[u8]) -> bool {
    let path = scratch();
    std::fs::write(&path, bytes).unwrap();
    Table::load(&path, Variant::Classic, dims(), "row1", true, None).is_ok()
}

fn load_slice(bytes: &[u8]) -> bool {
    let path = scratch();
    std::fs::write(&path, bytes).unwrap();
    let want = Expect {
        kind: "endgame",
        variant: Variant::Classic,
        dims: dims(),
        scope: "1v1".into(),
        solved: true,
        entries: Some(72),
        memory: None,
    };
    load_raw(&path, &want).is_ok()
}

fuzz_target!(|input: Input| {
    match input {
        Input::Raw(bytes) => {
            // Random bytes never make a valid file (the checksum), and never panic.
            assert!(!load_game(&bytes) || bytes == valid());
            let _ = load_slice(&bytes);
        }
        Input::Change { flips, cut, append } => {
            let mut bytes = valid().to_vec();
            for (at, x) in flips {
                let i = at as usize % bytes.len();
                bytes[i] ^= x;
            }
            if let Some(c) = cut {
                bytes.truncate(c as usize % (bytes.len() + 1));
            }
            bytes.extend_from_slice(&append);
            assert_eq!(load_game(&bytes), bytes == valid(), "a changed table was trusted");
        }
    }
});
