//! `ordo serve` and `ordo explain --html` from the command line: a taken port, the verdict
//! file, and the guide's console snippets. The router and the answers themselves are tested
//! beside their crates (crates/serve/tests, crates/page/tests).

use std::process::Command;

use axum::body::Body;
use axum::http::Request;
use ordo_serve::{router, Limits};
use tower::ServiceExt;

const START: &str = "2BB2BB2/BBBBBBBBBB/BB2BB2BB/10/10/WW2WW2WW/WWWWWWWWWW/2WW2WW2 w classic";

/// One GET through the router: status, content type, body.
fn get(uri: &str) -> (u16, String, String) {
    let req = Request::builder()
        .uri(uri)
        .body(Body::empty())
        .expect("request");
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    runtime.block_on(async move {
        let res = router(&Limits::default())
            .oneshot(req)
            .await
            .expect("infallible");
        let status = res.status().as_u16();
        let ctype = res.headers().get("content-type");
        let ctype = ctype.map(|v| v.to_str().unwrap_or("").to_string());
        let bytes = axum::body::to_bytes(res.into_body(), 1 << 24)
            .await
            .expect("body");
        let body = String::from_utf8_lossy(&bytes).into_owned();
        (status, ctype.unwrap_or_default(), body)
    })
}

/// `ordo serve` on a port already taken fails at once with one line and exit status 2.
#[test]
fn serve_command_reports_a_taken_port() {
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = taken.local_addr().unwrap().port().to_string();
    let o = Command::new(env!("CARGO_BIN_EXE_ordo"))
        .args(["serve", "--port", &port])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert_eq!(err.lines().count(), 1);
    assert!(
        err.contains(&format!("cannot listen on 127.0.0.1:{port}")),
        "{err}"
    );
    let o = Command::new(env!("CARGO_BIN_EXE_ordo"))
        .args(["serve", "--bind", "localhost:80"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
}

/// `ordo explain --html`: one self-contained file with the verdict, the inline diagram and the
/// cited clauses quoted in full, nothing fetched from the network.
#[test]
fn explain_html_is_self_contained() {
    let dir = crate::common::scratch("explain-html");
    let file = dir.join("verdict.html");
    let o = Command::new(env!("CARGO_BIN_EXE_ordo"))
        .args(["explain", "--position", START, "--move", "e3-e5", "--html"])
        .arg(&file)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1), "illegal move");
    assert!(String::from_utf8_lossy(&o.stdout).contains(&format!("wrote {}", file.display())));
    let html = std::fs::read_to_string(&file).unwrap();
    assert!(html.contains("<span class=\"verdict illegal\">illegal</span>"));
    assert!(html.contains("<section class=\"clause\" id=\"clause-ORDO-4.3\">"));
    assert!(html.contains("<a href=\"#clause-ORDO-4.3\">ORDO-4.3</a>"));
    assert!(html.contains("<svg xmlns=\"http://www.w3.org/2000/svg\""));
    assert!(
        !html.contains("<?xml"),
        "the SVG is inlined without its XML declaration"
    );
    // Nothing is loaded from elsewhere; the sources link to where they are published
    // (by author, title, date, section and address), which a reader may follow, and nothing
    // else leaves the file.
    for forbidden in ["<script", " src=", "<link", "href=\"/"] {
        assert!(!html.contains(forbidden), "{forbidden} in the file");
    }
    let outside = html.matches("href=\"http").count();
    assert_eq!(outside, html.matches("href=\"https://").count());
    assert!(html.contains("<a href=\"https://spielstein.com/games/ordo\">"));
    // Written atomically: nothing but the file is left in the directory.
    let names: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names, [std::ffi::OsString::from("verdict.html")]);
    let o = Command::new(env!("CARGO_BIN_EXE_ordo"))
        .args([
            "explain",
            "--move",
            "e3-e4",
            "--html",
            "/nonexistent-dir/v.html",
        ])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("cannot write /nonexistent-dir/v.html"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// The guide's section on `ordo serve` (docs/guide.md):
/// every console snippet holds. `curl` lines go through the router (output ending in `...` is
/// a prefix of the answer), `cargo run` lines run the binary (output lines appear in order,
/// `...` stands for any lines), and the screenshot it shows exists.
#[test]
fn readme_section_snippets_hold() {
    let root = env!("CARGO_MANIFEST_DIR");
    let heading = "### Settling a dispute in the browser";
    let readme = std::fs::read_to_string(format!("{root}/docs/guide.md")).unwrap();
    let at = readme
        .find(heading)
        .expect("docs/guide.md has the ordo serve section");
    let text = readme[at..].to_string();
    let rest = &text[heading.len()..];
    let end = [rest.find("\n## "), rest.find("\n### ")]
        .into_iter()
        .flatten()
        .min()
        .map_or(text.len(), |i| i + heading.len());
    let section = &text[..end];
    assert!(std::path::Path::new(&format!("{root}/docs/serve-verdict.png")).exists());
    let mut checked = 0;
    for block in section.split("```console\n").skip(1) {
        let block = &block[..block.find("```").unwrap()];
        let mut lines = block.lines().peekable();
        while let Some(cmd) = lines.next() {
            let cmd = cmd
                .strip_prefix("$ ")
                .expect("a block starts with a command");
            let mut expected = Vec::new();
            while let Some(l) = lines.next_if(|l| !l.starts_with("$ ")) {
                expected.push(l);
            }
            check_snippet(cmd, &expected);
            checked += 1;
        }
    }
    assert_eq!(checked, 6, "snippets checked");
}

fn check_snippet(cmd: &str, expected: &[&str]) {
    if let Some(url) = cmd.strip_prefix("curl -s 'http://127.0.0.1:8080") {
        let (_, _, body) = get(url.trim_end_matches('\''));
        let want = expected.join("\n");
        match want.strip_suffix("...") {
            Some(prefix) => assert!(body.starts_with(prefix), "{cmd}\n{body}"),
            None => assert_eq!(body, want, "{cmd}"),
        }
    } else if cmd == "cargo run --release -- serve"
        || cmd == "cargo run --release -- serve --tables tables"
    {
        assert_eq!(
            expected,
            ["ordo serve: listening on http://127.0.0.1:8080/"]
        );
        let help = Command::new(env!("CARGO_BIN_EXE_ordo"))
            .args(["serve", "--help"])
            .output()
            .unwrap();
        let help = String::from_utf8_lossy(&help.stdout);
        assert!(help.contains("[default: 8080]") && help.contains("[default: 127.0.0.1]"));
        assert!(help.contains("--tables <DIR>"), "{help}");
        assert!(help.contains("--trusted-proxy <ADDR>"), "{help}");
    } else {
        let args = cmd.strip_prefix("cargo run --release -- ").expect(cmd);
        let dir = crate::common::shared_scratch("serve-readme");
        let o = Command::new(env!("CARGO_BIN_EXE_ordo"))
            .args(args.split_whitespace())
            .current_dir(&dir)
            .output()
            .unwrap();
        let out = String::from_utf8_lossy(&o.stdout);
        let mut rest = out.lines();
        for want in expected.iter().filter(|l| **l != "...") {
            assert!(
                rest.any(|l| l == *want),
                "{cmd}: '{want}' not in order in\n{out}"
            );
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}
