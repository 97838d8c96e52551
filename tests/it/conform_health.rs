//! `ordo conform` tells a broken engine from a wrong one: a crash, a hang, garbage or a line
//! without end on any kind of request is a health incident of the engine, never a rules
//! finding, and the exit status says which: 0 pass, 1 rules differences of a healthy engine,
//! 3 an engine broken or unusable, 2 bad usage. The engines that fail on one kind of request
//! are the planted engine's `FAULT-on-REQUEST` (`ordo_testkit::failing`).

use std::process::Command;
use std::time::{Duration, Instant};

use ordo_testkit::failing::{Fault, REQUESTS};
use serde_json::Value;

use crate::conform::{conform_json, planted_engine};

const ORDO: &str = env!("CARGO_BIN_EXE_ordo");

/// `ordo conform --json` on the planted engine named `name`, waiting `timeout_ms` a reply.
fn failing(name: &str, timeout_ms: &str) -> (Option<i32>, Value) {
    let engine = format!("'{}' {name}", planted_engine().display());
    conform_json(&engine, &["--timeout-ms", timeout_ms])
}

/// The engine failed on `name`'s request kind and nothing else was reported: exit status 3, no
/// finding, every incident of `kind`.
fn assert_health_only(name: &str, timeout_ms: &str, kind: &str) -> Value {
    let (code, v) = failing(name, timeout_ms);
    assert_eq!(code, Some(3), "{name}: {v:#}");
    assert_eq!(v["exit_status"], 3, "{name}");
    let findings: Vec<&Value> = v["findings"].as_array().unwrap().iter().collect();
    assert!(findings.is_empty(), "{name}: rules findings {findings:#?}");
    let incidents = v["incidents"].as_array().unwrap();
    assert!(!incidents.is_empty(), "{name}: {v:#}");
    for i in incidents {
        assert_eq!(i["kind"], kind, "{name}: {i}");
    }
    v
}

#[test]
fn a_crash_on_any_request_is_the_engines_health_and_exit_status_3() {
    for request in REQUESTS {
        let name = format!("{}{request}", Fault::Crash.prefix());
        let v = assert_health_only(&name, "10000", "crash");
        assert!(v["health"]["crashes"].as_u64().unwrap() >= 1, "{name}");
    }
}

#[test]
fn a_hang_on_the_requests_that_play_is_the_engines_health() {
    for request in ["play", "game", "show", "moves"] {
        let name = format!("{}{request}", Fault::Hang.prefix());
        let v = assert_health_only(&name, "1500", "hang");
        assert!(v["health"]["hangs"].as_u64().unwrap() >= 1, "{name}");
    }
}

#[test]
fn garbage_on_the_requests_that_play_is_the_engines_health() {
    for request in ["play", "game", "show", "status"] {
        let name = format!("{}{request}", Fault::Garbage.prefix());
        assert_health_only(&name, "10000", "garbage");
    }
}

/// The exit statuses side by side: our engine passes (0); a planted rules defect differs (1);
/// an engine that ends at once (`true`), one that never answers, or one that fails on `play`
/// is broken (3); a bad argument is bad usage (2). `--help` says so.
#[test]
fn the_exit_status_tells_pass_rules_broken_and_usage_apart() {
    let run = |args: &[&str]| {
        let o = Command::new(ORDO)
            .arg("conform")
            .args(args)
            .output()
            .unwrap();
        o.status.code()
    };
    let quick = ["--playouts", "1", "--plies", "6", "--timeout-ms", "2000"];
    let ordo_engine = format!("'{ORDO}' engine");
    let planted = |name: &str| format!("'{}' {name}", planted_engine().display());
    for (engine, status) in [
        (ordo_engine.as_str(), 0),
        (&planted("own-row-wins"), 1),
        ("true", 3),
        ("sleep 30", 3),
        (&planted("crash-on-play"), 3),
    ] {
        let mut args = vec![engine];
        args.extend(quick);
        assert_eq!(run(&args), Some(status), "{engine}");
    }
    assert_eq!(run(&[&ordo_engine, "--only", "chess:1x1"]), Some(2));
    let help = Command::new(ORDO)
        .args(["conform", "--help"])
        .output()
        .unwrap();
    let help = String::from_utf8_lossy(&help.stdout);
    for words in [
        "0 the engine passed",
        "1 a healthy engine differs",
        "3 the engine is broken",
        "2 bad usage",
    ] {
        assert!(help.contains(words), "{help}");
    }
}

/// A reply that floods without a line ending is reported as a line without end, with the bytes
/// read, the engine killed at once: no wait for the timeout (10 s here), no rules finding.
#[test]
fn an_endless_line_is_reported_as_such_at_once() {
    let started = Instant::now();
    let v = assert_health_only("endless-line-on-moves", "10000", "endless-line");
    let took = started.elapsed();
    let detail = v["incidents"][0]["detail"].as_str().unwrap();
    assert!(detail.starts_with("a line without end: "), "{detail}");
    assert!(
        detail.contains("bytes, past the 8388608 a reply may have,"),
        "{detail}"
    );
    assert!(detail.contains("the engine was killed"), "{detail}");
    assert!(v["health"]["endless_lines"].as_u64().unwrap() >= 1, "{v:#}");
    assert_eq!(v["health"]["hangs"], 0, "{v:#}");
    // Nine engines flooded and killed, far within one timeout each.
    assert!(took < Duration::from_secs(60), "{took:?}");
}

/// A line that is still coming, slowly, when the timeout ends is a line without end too (with
/// the bytes it had sent), and the run stops once it has waited four timeouts in all, the
/// report saying how long it waited.
#[test]
fn a_slow_endless_line_ends_the_session_and_the_waiting_is_bounded() {
    let engine = "read x; echo 'ordo 1 ok name slow'; while read l; do \
                  while :; do printf x || exit; sleep 0.01; done; done";
    let started = Instant::now();
    let o = Command::new(ORDO)
        .args(["conform", engine, "--timeout-ms", "500", "--playouts", "0"])
        .output()
        .unwrap();
    let took = started.elapsed();
    let report = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(3), "{report}");
    assert!(
        report.contains("endless-line — a line without end: "),
        "{report}"
    );
    assert!(
        report.contains("bytes and no line ending after"),
        "{report}"
    );
    assert!(
        report.contains("waited for replies that never came:"),
        "{report}"
    );
    assert!(report.contains("STOPPED: waited"), "{report}");
    assert!(!report.contains("hang —"), "{report}");
    assert!(took < Duration::from_secs(20), "{took:?}");
}
