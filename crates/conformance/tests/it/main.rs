//! The library of `ordo-conformance`, one test binary: the case suite (`cases`) and the
//! committed vectors (`vectors`). What runs the `ordo` binary is tested in the workspace's `tests/it/`.

mod cases;
mod conform;
mod vectors;

/// The workspace's root folder, two levels above this crate's.
pub fn workspace() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// A fresh, empty folder for one test (`tag` keeps tests apart) in the temporary folder,
/// named for this process.
pub fn scratch(tag: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("ordo-conformance-{}-{tag}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create a scratch folder");
    dir
}
