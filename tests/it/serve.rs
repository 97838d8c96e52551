//! `ordo serve`: the JSON answers built without a socket (`ordo_page::api`), the router called
//! with tower's `oneshot` (routes, bad input, limits), a real server on a free loopback port
//! (a client too slow to send its request head is cut off), and `ordo explain --html`.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::process::Command;
use std::sync::mpsc;
use std::time::Duration;

use axum::body::Body;
use axum::http::Request;
use ordo_page::api::{self, ErrorKind};
use ordo_serve::{router, Limits};
use tower::ServiceExt;

const START: &str = "2BB2BB2/BBBBBBBBBB/BB2BB2BB/10/10/WW2WW2WW/WWWWWWWWWW/2WW2WW2 w classic";
const START_X: &str = "2BB2BB2/BBBBBBBBBB/BB2BB2BB/10/10/WW2WW2WW/WWWWWWWWWW/2WW2WW2 w x";

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime")
}

/// One request through the router: status, content type, body.
fn call(limits: &Limits, method: &str, uri: &str, body: Vec<u8>) -> (u16, String, String) {
    let app = router(limits);
    let mut req = Request::builder().method(method).uri(uri);
    if !body.is_empty() {
        req = req.header("content-length", body.len());
    }
    let req = req.body(Body::from(body)).expect("request");
    runtime().block_on(async move {
        let res = app.oneshot(req).await.expect("infallible");
        let status = res.status().as_u16();
        let ctype = res
            .headers()
            .get("content-type")
            .map(|v| v.to_str().unwrap_or("").to_string())
            .unwrap_or_default();
        let bytes = axum::body::to_bytes(res.into_body(), 1 << 24)
            .await
            .expect("body");
        (status, ctype, String::from_utf8_lossy(&bytes).into_owned())
    })
}

fn get(uri: &str) -> (u16, String, String) {
    call(&Limits::default(), "GET", uri, Vec::new())
}

fn q(s: &str) -> String {
    api::encode_component(s)
}

/// A 4xx answer whose body is one line of JSON with exactly `error` and `where`.
fn assert_json_error(answer: &(u16, String, String), status: u16, place: &str, fragment: &str) {
    let (code, ctype, body) = answer;
    assert_eq!(*code, status, "{body}");
    assert_eq!(ctype, "application/json");
    assert_eq!(body.lines().count(), 1, "not one line: {body}");
    let v: serde_json::Value = serde_json::from_str(body).expect("JSON");
    let obj = v.as_object().expect("an object");
    assert_eq!(obj.len(), 2, "{body}");
    assert_eq!(obj["where"], place, "{body}");
    let msg = obj["error"].as_str().expect("error is a string");
    assert!(msg.contains(fragment), "'{fragment}' not in {msg}");
}

/// ORDO-7.2, ORDO-4.3: the verdict on an illegal ordo move lists both clauses with their text,
/// sources and rules-page links, and no effects.
#[test]
fn explain_illegal_lists_every_clause() {
    let a = api::explain("4/1B2/WW2/2W1 w classic", "a2:b2-a3").unwrap();
    assert_eq!((a.verdict.word(), a.legal), ("illegal", false));
    let ids: Vec<&str> = a.violated.iter().map(|c| c.id.as_str()).collect();
    assert_eq!(ids, ["ORDO-7.2", "ORDO-4.3"]);
    let c = &a.violated[0];
    assert_eq!(c.title, "Ordo moves never capture");
    assert_eq!(c.url, "/rules#ORDO-7.2");
    assert!(c.text.contains("never captures") && !c.sources.is_empty());
    assert!(c.detail.as_deref().unwrap().contains("b3"));
    assert!(a.permitted_by.is_empty() && a.effects.is_none() && a.canonical.is_none());
    assert!(a.svg.contains("illegal: ORDO-7.2, ORDO-4.3"));
    assert_eq!(
        a.link,
        "/?position=4%2F1B2%2FWW2%2F2W1%20w%20classic&move=a2%3Ab2-a3"
    );
}

/// ORDO-6.1, ORDO-10.1: a legal winning move gives its effects, the resulting position, the
/// status with its clause, and the permitting clauses.
#[test]
fn explain_legal_gives_effects_and_result() {
    let a = api::explain("1B2/4/W3/4 w classic", "a2-a4").unwrap();
    assert!(a.legal, "{:?}", a.violated);
    let e = a.effects.as_ref().unwrap();
    assert_eq!(e.moved, [["a2".to_string(), "a4".to_string()]]);
    assert_eq!(e.result, "WB2/4/4/4 b classic");
    assert_eq!(e.status_clause.as_deref(), Some("ORDO-10.1"));
    assert!(e.status.starts_with("White wins"));
    assert!(a.permitted_by.iter().any(|c| c.id == "ORDO-10.1"));
    assert!(a.violated.is_empty());
    assert_eq!(a.canonical.as_deref(), Some("a2-a4"));
}

/// ORDOX-3.1: the moves of the Ordo X start, and an Ordo X two-step turn judged legal.
#[test]
fn moves_and_two_step_turn() {
    let m = api::moves(START_X).unwrap();
    assert_eq!(
        (m.count, m.moves.len(), m.board.as_str()),
        (2062, 2062, "10x8")
    );
    assert!(m.moves.windows(2).all(|w| w[0] < w[1]), "sorted");
    assert!(m.moves.contains(&"b3-c3,c3-d4".to_string()));
    assert_eq!(m.status, "ongoing");
    let a = api::explain(START_X, "b3-c3,c3-d4").unwrap();
    assert!(a.legal && a.permitted_by.iter().any(|c| c.id == "ORDOX-3.1"));
}

/// ORDOX-4.2: a capture that leaves two equally large groups reports them for the choice, and
/// the position after a sideways step keeps the side to move.
#[test]
fn step_reports_ties_and_the_position_after() {
    let s = api::step("5/BBB2/1W3/5/5 w x", "b3xb4").unwrap();
    assert_eq!(
        s.tied_groups,
        [vec!["a4".to_string()], vec!["c4".to_string()]]
    );
    let a = api::explain("5/BBB2/1W3/5/5 w x", "b3xb4/c4").unwrap();
    assert!(a.legal && a.effects.unwrap().removed == ["a4"]);
    let s = api::step(START_X, "b3-c3").unwrap();
    assert!(s.tied_groups.is_empty());
    assert_eq!(
        s.after,
        "2BB2BB2/BBBBBBBBBB/BB2BB2BB/10/10/W1W1WW2WW/WWWWWWWWWW/2WW2WW2 w x"
    );
    // Classic Ordo removes nothing, so there is no tie to choose.
    assert!(api::step("5/BBB2/1W3/5/5 w classic", "b3xb4")
        .unwrap()
        .tied_groups
        .is_empty());
    let e = api::step(START_X, "b3-c3,c3-d4").unwrap_err();
    assert_eq!((e.place.as_str(), e.status()), ("step", 400));
    let e = api::step(START_X, "k3-k4").unwrap_err();
    assert!(e.message.contains("off the 10x8 board"), "{}", e.message);
}

/// ORDO-2.3, ORDO-1.5: unreadable or impossible positions and unreadable moves are 400s that
/// name the parameter; unknown clauses are 404s.
#[test]
fn library_errors_name_the_parameter() {
    let e = api::explain("WB/2B w classic", "a1-a2").unwrap_err();
    assert_eq!(
        (e.kind, e.place.as_str()),
        (ErrorKind::BadInput, "position")
    );
    assert!(e.message.contains("at character 5"), "{}", e.message);
    let e = api::explain("W1/1B w classic", "a1-a2").unwrap_err();
    assert!(e.message.contains("ORDO-2.3"), "{}", e.message);
    let e = api::explain(START, "e2-q4").unwrap_err();
    assert_eq!(e.place, "move");
    // A well-formed id that names no clause (built here so that traceability does not read it as
    // a citation).
    let unknown = format!("ORDO-{}.1", 99);
    let e = api::rule(&unknown).unwrap_err();
    assert_eq!((e.status(), e.place.as_str()), (404, "id"));
    let e = api::rule("chess").unwrap_err();
    assert!(e.message.contains("not a clause id"));
    let c = api::rule("ORDOX-4.2").unwrap();
    assert_eq!(
        (c.section.as_str(), c.url.as_str()),
        ("ORDOX-4", "/rules#ORDOX-4.2")
    );
    assert_eq!(
        api::all_rules().len(),
        ordo_core::rules::clauses::registry().clauses.len()
    );
}

/// The diagram endpoint draws the position (the same SVG as `ordo render --svg`).
#[test]
fn board_svg_is_the_render_diagram() {
    let svg = api::board_svg(START, Some("e3-e4")).unwrap();
    let doc = roxmltree::Document::parse(&svg).expect("well-formed SVG");
    let pieces = doc
        .descendants()
        .filter(|n| {
            n.attribute("class")
                .is_some_and(|c| c.starts_with("piece "))
        })
        .count();
    assert_eq!(pieces, 40);
    assert!(doc
        .descendants()
        .any(|n| n.attribute("data-to") == Some("e4")));
    // A position that breaks the rules is still drawn (the page shows what is being edited).
    assert!(api::board_svg("WB/WB b classic", None).is_ok());
}

#[test]
fn router_serves_the_api() {
    let uri = format!("/api/explain?position={}&move=e3-e5", q(START));
    let (code, ctype, body) = get(&uri);
    assert_eq!((code, ctype.as_str()), (200, "application/json"));
    let v: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert_eq!(v["verdict"], "illegal");
    assert_eq!(v["violated"][0]["id"], "ORDO-4.3");
    assert_eq!(v["link"], format!("/?position={}&move=e3-e5", q(START)));
    let (code, _, body) = get(&format!("/api/moves?position={}", q(START)));
    assert_eq!(code, 200);
    let v: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert_eq!(v["count"], 56);
    let (code, _, body) = get("/api/rules/ORDO-6.3");
    assert_eq!(code, 200);
    assert!(body.contains("\"title\":\"Path and landing square\""));
    // Issue 24, point 5: sources by author, title, date, section and address.
    assert!(
        body.contains("\"Dieter Stein, Ordo (rules, English), January 15, 2009, section "),
        "{body}"
    );
    assert!(!body.contains(".txt"), "{body}");
    let (code, ctype, _) = get(&format!("/api/board?position={}", q(START)));
    assert_eq!((code, ctype.as_str()), (200, "image/svg+xml"));
    let (code, _, body) = get(&format!("/api/step?position={}&step=b3-c3", q(START_X)));
    assert!(code == 200 && body.contains("\"after\""), "{body}");
}

#[test]
fn router_serves_the_page_and_the_rules() {
    let (code, ctype, body) = get("/");
    assert_eq!((code, ctype.as_str()), (200, "text/html; charset=utf-8"));
    assert!(body.contains("\"assets/app.js\"") && body.contains("id=\"board\""));
    for (path, ctype) in [
        ("/assets/app.js", "text/javascript; charset=utf-8"),
        ("/assets/app.css", "text/css; charset=utf-8"),
        ("/assets/icon.svg", "image/svg+xml"),
    ] {
        let (code, got, body) = get(path);
        assert_eq!((code, got.as_str()), (200, ctype), "{path}");
        assert!(!body.is_empty());
    }
    let (code, _, rules) = get("/rules");
    assert_eq!(code, 200);
    // Issue 24, point 5: each source linked to where it is published.
    assert!(
        rules.contains("<a href=\"https://spielstein.com/games/ordo-x\">"),
        "{rules}"
    );
    for c in &ordo_core::rules::clauses::registry().clauses {
        assert!(
            rules.contains(&format!("<section class=\"clause\" id=\"{}\">", c.id)),
            "no anchor for {}",
            c.id
        );
    }
    // Clause references in the texts link to their anchors.
    assert!(rules.contains("<a href=\"#ORDO-9.1\">ORDO-9.1</a>"));
}

#[test]
fn router_rejects_bad_input_with_json() {
    let bad_pos = get(&format!(
        "/api/explain?position={}&move=e3-e4",
        q("WB/2B w classic")
    ));
    assert_json_error(&bad_pos, 400, "position", "at character 5");
    let bad_move = get(&format!("/api/explain?position={}&move=e2-q4", q(START)));
    assert_json_error(&bad_move, 400, "move", "column letter");
    let missing = get(&format!("/api/explain?position={}", q(START)));
    assert_json_error(&missing, 400, "move", "missing");
    let unknown_param = get("/api/moves?position=x&colour=white");
    assert_json_error(&unknown_param, 400, "query", "unknown field `colour`");
    let bad_escape = get("/api/moves?position=%FF%FE");
    assert_eq!(bad_escape.0, 400, "{}", bad_escape.2);
    assert_json_error(
        &get("/api/nothing"),
        404,
        "path",
        "no such route: GET /api/nothing",
    );
    assert_json_error(
        &get(&format!("/api/rules/ORDO-{}.1", 99)),
        404,
        "id",
        &format!("no clause 'ORDO-{}.1'", 99),
    );
    let post = call(&Limits::default(), "POST", "/api/explain", b"{}".to_vec());
    assert_json_error(&post, 405, "request", "GET only");
}

#[test]
fn router_bounds_request_size_and_time() {
    let long = format!("/api/moves?position={}", "1".repeat(5000));
    assert_json_error(&get(&long), 414, "request", "over the limit of 4096 bytes");
    let big = call(
        &Limits::default(),
        "POST",
        "/api/explain",
        vec![b'x'; 100_000],
    );
    assert_json_error(&big, 413, "request", "100000 bytes");
    let hasty = Limits {
        request_timeout: Duration::ZERO,
        ..Limits::default()
    };
    let slow = call(
        &hasty,
        "GET",
        &format!("/api/moves?position={}", q(START_X)),
        Vec::new(),
    );
    assert_json_error(&slow, 408, "request", "no answer within");
}

/// The move budget holds on the routes that list legal moves (a verdict, a move list), and
/// only there: the standard Ordo X start (2,062 legal moves) is over a budget of 2,000.
#[test]
fn router_refuses_verdicts_and_move_lists_over_the_move_budget() {
    let tight = Limits {
        max_moves: 2000,
        ..Limits::default()
    };
    for uri in [
        format!("/api/moves?position={}", q(START_X)),
        format!("/api/explain?position={}&move=b3-b4", q(START_X)),
    ] {
        let answer = call(&tight, "GET", &uri, Vec::new());
        assert_json_error(&answer, 422, "position", "2062 legal moves");
    }
    let step = format!("/api/step?position={}&step=b3-c3", q(START_X));
    assert_eq!(call(&tight, "GET", &step, Vec::new()).0, 200);
    let moves = format!("/api/moves?position={}", q(START_X));
    assert_eq!(get(&moves).0, 200);
}

/// Start a real server on a free loopback port with `limits`; its address.
fn start_server(limits: Limits) -> SocketAddr {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let addr = "127.0.0.1:0".parse().unwrap();
        let _ = ordo_serve::run(addr, limits, move |a| {
            let _ = tx.send(a);
        });
    });
    rx.recv_timeout(Duration::from_secs(10))
        .expect("server started")
}

fn raw(addr: SocketAddr, request: &str) -> String {
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    s.write_all(request.as_bytes()).unwrap();
    let mut out = String::new();
    let _ = s.read_to_string(&mut out);
    out
}

#[test]
fn socket_server_answers_and_cuts_off_slow_clients() {
    let limits = Limits {
        header_timeout: Duration::from_millis(500),
        ..Limits::default()
    };
    let addr = start_server(limits);
    let ok = raw(
        addr,
        "GET /api/rules/ORDO-4.3 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
    );
    assert!(ok.starts_with("HTTP/1.1 200"), "{ok}");
    assert!(ok.contains("\"id\":\"ORDO-4.3\""));
    let missing = raw(
        addr,
        "GET /nope HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
    );
    assert!(missing.starts_with("HTTP/1.1 404"), "{missing}");
    assert!(missing.ends_with("\"where\":\"path\"}"), "{missing}");
    // A client that never finishes its request head is disconnected.
    let mut slow = TcpStream::connect(addr).unwrap();
    slow.set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    slow.write_all(b"GET / HTTP/1.1\r\nHost: x\r\n").unwrap();
    // The server closes the connection (end of stream) before the client's own 10-second
    // read timeout would end the read with an error.
    let mut buf = Vec::new();
    let read = slow.read_to_end(&mut buf);
    assert!(read.is_ok(), "not disconnected by the server: {read:?}");
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
    // (issue 24, point 5), which a reader may follow, and nothing else leaves the file.
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
