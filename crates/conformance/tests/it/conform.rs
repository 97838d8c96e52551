//! `ordo conform`'s library: what it refuses before it starts the engine.

use std::time::Duration;

use ordo_conformance::conform::{run, ConformError, Options};

/// A `--svg-dir` that names a file is refused with a message saying so, not the system's
/// "File exists".
#[test]
fn an_svg_folder_that_is_a_file_is_refused_in_words() {
    let dir = crate::scratch("svg-dir-file");
    let file = dir.join("report.svg");
    std::fs::write(&file, "keep").unwrap();
    let opts = Options {
        command: "true".into(),
        vectors: None,
        cases: None,
        playouts: 0,
        plies: 0,
        seed: 1,
        timeout: Duration::from_secs(1),
        svg_dir: Some(file.clone()),
        only: None,
    };
    let e = run(&opts).unwrap_err();
    assert!(matches!(e, ConformError::SvgDir { .. }), "{e}");
    let msg = e.to_string();
    assert!(
        msg.contains("report.svg: it is a file, not a folder"),
        "{msg}"
    );
    assert!(!msg.contains("os error"), "{msg}");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "keep");
    let _ = std::fs::remove_dir_all(&dir);
}
