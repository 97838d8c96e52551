//! The case suite through the command line: `ordo conformance` runs it, and the console
//! block of spec/conformance/README.md is what the command prints (the suite itself is tested
//! in `crates/conformance/tests/`).

use std::path::Path;
use std::process::Command;

use super::spec_examples::code_blocks;

const ORDO: &str = env!("CARGO_BIN_EXE_ordo");

fn readme() -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("spec/conformance/README.md");
    std::fs::read_to_string(path).unwrap()
}

#[test]
fn conformance_commands_run_the_suite() {
    let o = Command::new(ORDO)
        .args(["conformance", "check-adjudicator"])
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(0), "{out}");
    assert!(out.contains("adjudicator: case suite:"), "{out}");
    let o = Command::new(ORDO)
        .args([
            "conformance",
            "check-adjudicator",
            "--cases",
            "/nonexistent/cases",
        ])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("--cases: /nonexistent/cases"), "{err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
}

#[test]
fn readme_command_output_is_real() {
    // The case suite's own block (the conform examples are checked by tests/it/docs.rs).
    let console: Vec<String> = code_blocks(&readme())
        .into_iter()
        .filter(|(info, b)| info == "console" && b.starts_with("$ ordo conformance"))
        .map(|(_, b)| b)
        .collect();
    assert_eq!(console.len(), 1);
    let mut lines = console[0].lines().peekable();
    while let Some(cmd) = lines.next() {
        let args: Vec<&str> = cmd.strip_prefix("$ ordo ").unwrap().split(' ').collect();
        let o = Command::new(ORDO).args(&args).output().unwrap();
        let got = String::from_utf8_lossy(&o.stdout).into_owned();
        let mut want = String::new();
        while let Some(l) = lines.next_if(|l| !l.starts_with('$')) {
            want.push_str(l);
            want.push('\n');
        }
        assert_eq!(got, want, "{cmd}");
    }
}
