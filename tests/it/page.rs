//! The page without a server, from the command line: `ordo site` writes
//! the static site, `ordo serve --public-url` writes links with the public address, and the
//! endgame values answer alike through the server and the static site's dispatcher. The
//! dispatcher against the router is tested in crates/serve/tests; the page itself, served both
//! ways, is driven in a browser by tests/browser/.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Command, Stdio};
use std::time::Duration;

use axum::body::Body;
use axum::http::Request;
use ordo_page::answer;
use ordo_page::api::encode_component as q;
use ordo_serve::Limits;
use tower::ServiceExt;

use crate::common::{assert_refused, ordo_cmd, scratch, stdout};

const START: &str = "2BB2BB2/BBBBBBBBBB/BB2BB2BB/10/10/WW2WW2WW/WWWWWWWWWW/2WW2WW2 w classic";

/// One GET through the router: status and body.
fn routed(target: &str) -> (u16, String) {
    routed_with(target, None)
}

/// One GET through the router with the endgame tables `tables`: status and body.
fn routed_with(target: &str, tables: Option<&std::path::Path>) -> (u16, String) {
    let tables =
        tables.map(|d| std::sync::Arc::new(ordo_solve::Tablebase::open(d).expect("tables")));
    let req = Request::builder()
        .uri(target)
        .body(Body::empty())
        .expect("request");
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    runtime.block_on(async move {
        let res = ordo_serve::router_with(&Limits::default(), tables)
            .oneshot(req)
            .await
            .expect("infallible");
        let status = res.status().as_u16();
        let bytes = axum::body::to_bytes(res.into_body(), 1 << 24)
            .await
            .expect("body");
        (status, String::from_utf8_lossy(&bytes).into_owned())
    })
}

/// `ordo site DIR --wasm FILE` writes the page (answers from the module), its assets, the
/// module and the rules page; a file that is not WebAssembly is refused in one line.
#[test]
fn ordo_site_writes_a_static_site() {
    let dir = scratch("site");
    let wasm = dir.join("module.wasm");
    std::fs::write(&wasm, b"\0asm\x01\0\0\0").unwrap();
    let site = dir.join("site");
    let (site_arg, wasm_arg) = (site.to_str().unwrap(), wasm.to_str().unwrap());
    let o = ordo_cmd(&["site", site_arg, "--wasm", wasm_arg]);
    assert!(
        stdout(&o).starts_with("wrote 8 files into"),
        "{}",
        stdout(&o)
    );
    for file in [
        "index.html",
        "assets/app.js",
        "assets/app.css",
        "assets/icon.svg",
        "rules/index.html",
    ] {
        assert!(site.join(file).is_file(), "{file}");
    }
    assert_eq!(
        std::fs::read(site.join("assets/ordo.wasm")).unwrap(),
        b"\0asm\x01\0\0\0"
    );
    let index = std::fs::read_to_string(site.join("index.html")).unwrap();
    assert!(index.contains(r#"<meta name="ordo-backend" content="wasm">"#));
    assert!(
        index.contains(r#"<link rel="icon" href="assets/icon.svg""#),
        "a favicon"
    );
    let err = assert_refused(&ordo_cmd(&["site", site_arg, "--wasm", "Cargo.toml"]));
    assert!(err.contains("not WebAssembly"), "{err}");
    // No tables given: the list of shipped tables is there and empty (the page says so).
    let index = std::fs::read_to_string(site.join("tables/index.json")).unwrap();
    assert_eq!(index, r#"{"files":[]}"#);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Endgame values on the static site: `ordo site DIR --wasm FILE --tables TDIR` ships the
/// table files of TDIR and lists them; the module's dispatcher, given the files `/api/tables`
/// names, answers `/api/values` exactly as `ordo serve --tables TDIR` does; `--tables` without
/// a module, or a folder with no table file, is refused in one line.
#[test]
fn the_static_site_ships_tables_and_answers_the_servers_values() {
    let dir = scratch("site-tables");
    let tb = dir.join("tb");
    crate::table_trust::build_22(&tb);
    let wasm = dir.join("module.wasm");
    std::fs::write(&wasm, b"\0asm\x01\0\0\0").unwrap();
    let site = dir.join("site");
    let args = |t: &str| {
        [
            "site",
            site.to_str().unwrap(),
            "--wasm",
            wasm.to_str().unwrap(),
            "--tables",
            t,
        ]
        .map(String::from)
    };
    let o = ordo_cmd(&args(tb.to_str().unwrap()).each_ref().map(String::as_str));
    assert!(o.status.success(), "{}", crate::common::stderr(&o));
    let index: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(site.join("tables/index.json")).unwrap())
            .unwrap();
    let shipped: Vec<&str> = index["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f.as_str().unwrap())
        .collect();
    assert!(
        shipped.contains(&"ctb-classic-4x4-2v2.ordotb"),
        "{shipped:?}"
    );
    let tables = ordo_solve::Tablebase::in_memory();
    let position = q("BB2/4/4/WW2 w classic");
    let with = |target: &str| {
        let a = ordo_page::answer_with(target, Some(&tables));
        (a.status, a.body)
    };
    let (status, need) = with(&format!("/api/tables?position={position}"));
    assert_eq!(status, 200, "{need}");
    let need: serde_json::Value = serde_json::from_str(&need).unwrap();
    for name in need["files"].as_array().unwrap() {
        let name = name.as_str().unwrap();
        assert!(shipped.contains(&name), "{name} is shipped");
        tables.add_file(name, std::fs::read(site.join("tables").join(name)).unwrap());
    }
    let target = format!("/api/values?position={position}");
    let (status, body) = with(&target);
    assert_eq!((status, body), routed_with(&target, Some(&tb)));
    let err = assert_refused(&ordo_cmd(&[
        "site",
        site.to_str().unwrap(),
        "--api",
        "https://x.org",
        "--tables",
        tb.to_str().unwrap(),
    ]));
    assert!(err.contains("--wasm"), "{err}");
    let empty = dir.join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    let err = assert_refused(&ordo_cmd(
        &args(empty.to_str().unwrap()).each_ref().map(String::as_str),
    ));
    assert!(err.contains("no endgame table files"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `ordo serve --public-url URL`: the verdicts' links and clause URLs (ORDO-4.3) name the public
/// address; an address that is not http(s) is refused before serving.
#[test]
fn serve_writes_links_with_the_public_url() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_ordo"))
        .args([
            "serve",
            "--port",
            "0",
            "--public-url",
            "https://ordo.example.org/judge",
        ])
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let addr = line
        .trim()
        .trim_start_matches("ordo serve: listening on http://")
        .trim_end_matches('/')
        .to_string();
    let mut s = TcpStream::connect(&addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    let request = format!(
        "GET /api/explain?position={}&move=e3-e5 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
        q(START)
    );
    s.write_all(request.as_bytes()).unwrap();
    let mut reply = String::new();
    let _ = s.read_to_string(&mut reply);
    let _ = child.kill();
    let _ = child.wait();
    let link = format!(
        r#""link":"https://ordo.example.org/judge/?position={}&move=e3-e5""#,
        q(START)
    );
    assert!(reply.contains(&link), "{reply}");
    let clause = r#""url":"https://ordo.example.org/judge/rules#ORDO-4.3""#;
    assert!(reply.contains(clause), "{reply}");
    let err = assert_refused(&ordo_cmd(&[
        "serve",
        "--port",
        "0",
        "--public-url",
        "ordo.example.org",
    ]));
    assert!(err.contains("--public-url"), "{err}");
}

/// The deciding clause first. ORDOX-4.2 settles a tie choice; ORDO-10.1 a
/// move that reaches the home row; the API, `explain --html` and `ordo explain` agree.
#[test]
fn the_deciding_clause_comes_first() {
    let tie = ordo_page::api::explain("5/BBB2/1W3/5/5 w x", "b3xb4/c4").unwrap();
    let ids: Vec<&str> = tie.permitted_by.iter().map(|c| c.id.as_str()).collect();
    assert_eq!(ids[0], "ORDOX-4.2", "{ids:?}");
    assert_eq!(ids[1], "ORDOX-4.1", "{ids:?}");
    let html = ordo_page::pages::verdict_page(&tie);
    let first = |text: &str, a: &str, b: &str| text.find(a).unwrap() < text.find(b).unwrap();
    assert!(first(&html, "ORDOX-4.2</a>", "ORDO-4.3</a>"));
    let o = ordo_cmd(&["explain", "--position", "5/BBB2/1W3/5/5 w x", "b3xb4/c4"]);
    let text = stdout(&o);
    let permits = text.split("permitted by:\n").nth(1).unwrap();
    assert!(
        permits.starts_with("  ORDOX-4.2 Ties for largest"),
        "{text}"
    );
    let win = ordo_page::api::explain("3/W2/2B/3 w classic", "a3-a4").unwrap();
    assert_eq!(win.permitted_by[0].id, "ORDO-10.1");
}

/// Endgame values: `/api/values` under `ordo serve --tables DIR` gives the position's value
/// and each legal move's for the mover, best first, with the position after it (the values of
/// `ordo tb probe`, ORDO-10 ends); without tables (the server without `--tables`, the static
/// page's dispatcher) or with none covering the position, a 404 naming `tables`; a bad
/// position a 400 naming `position`.
#[test]
fn endgame_values_answer_per_move() {
    let dir = scratch("values");
    let tb = dir.join("tb");
    crate::table_trust::build_22(&tb);
    let target = format!("/api/values?position={}", q("BB2/4/4/WW2 w classic"));
    let (status, body) = routed_with(&target, Some(&tb));
    assert_eq!(status, 200, "{body}");
    let v: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert_eq!(v["text"], "White to move wins in 3 plies");
    assert_eq!(
        (v["outcome"].as_str(), v["plies"].as_u64()),
        (Some("win"), Some(3))
    );
    let first = &v["moves"][0];
    assert_eq!(first["move"], "a1:b1-a3");
    assert_eq!(first["text"], "wins in 3 plies");
    assert_eq!(first["after"], "BB2/WW2/4/4 b classic");
    let moves = v["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 6);
    assert!(moves
        .iter()
        .any(|m| m["outcome"] == "draw" && m["plies"].is_null()));
    // The same values as `ordo tb probe --moves`, line by line.
    let probe = ordo_cmd(&[
        "tb",
        "probe",
        "--moves",
        "--dir",
        tb.to_str().unwrap(),
        "--position",
        "BB2/4/4/WW2 w classic",
    ]);
    let lines: Vec<String> = moves
        .iter()
        .map(|m| {
            format!(
                "{}\t{}",
                m["move"].as_str().unwrap(),
                m["text"].as_str().unwrap()
            )
        })
        .collect();
    assert_eq!(stdout(&probe), lines.join("\n") + "\n");
    // A position beyond the tables: 404 in a player's words (the game, the board, the
    // pieces), no server folder named.
    let (status, body) = routed_with(&format!("/api/values?position={}", q(START)), Some(&tb));
    assert_eq!(status, 404, "{body}");
    assert!(
        body.contains("beyond the tables: the server's tables hold no classic Ordo endgame of 20 White pieces against 20 Black pieces on the 10 x 8 board"),
        "{body}"
    );
    assert!(
        body.contains(r#""where":"tables""#) && !body.contains(tb.to_str().unwrap()),
        "{body}"
    );
    let (status, body) = routed_with("/api/values?position=bad", Some(&tb));
    assert_eq!(
        (status, body.contains(r#""where":"position""#)),
        (400, true),
        "{body}"
    );
    // No tables: the server without --tables and the static page answer alike.
    for (status, body) in [routed(&target), {
        let a = answer(&target);
        (a.status, a.body)
    }] {
        assert_eq!(status, 404, "{body}");
        assert!(
            body.contains("no endgame tables here") && body.contains(r#""where":"tables""#),
            "{body}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The page from an installed `ordo`, which has no WebAssembly module: `ordo site DIR`
/// without `--wasm` either writes a page that asks an `ordo serve` (`--api URL`, which the
/// server allows across origins) or is refused in one line naming both options.
#[test]
fn ordo_site_without_a_module_asks_a_server() {
    let dir = scratch("site-api");
    let site = dir.join("site");
    let site_arg = site.to_str().unwrap();
    let err = assert_refused(&ordo_cmd(&["site", site_arg]));
    assert!(
        err.contains("--wasm FILE") && err.contains("--api URL"),
        "{err}"
    );
    let err = assert_refused(&ordo_cmd(&["site", site_arg, "--api", "ordo.example.org"]));
    assert!(err.contains("--api:"), "{err}");
    let o = ordo_cmd(&["site", site_arg, "--api", "https://ordo.example.org"]);
    assert!(
        stdout(&o).starts_with("wrote 6 files into"),
        "{}",
        stdout(&o)
    );
    let index = std::fs::read_to_string(site.join("index.html")).unwrap();
    assert!(index.contains(r#"<meta name="ordo-backend" content="remote">"#));
    assert!(index.contains(r#"<meta name="ordo-api" content="https://ordo.example.org/">"#));
    assert!(!site.join("assets/ordo.wasm").exists());
    // The server lets such a page, on another origin, read the API's answers (only those).
    let allowed = |target: &str| {
        let req = Request::builder()
            .uri(target)
            .body(Body::empty())
            .expect("request");
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("runtime");
        let res = runtime.block_on(ordo_serve::router(&Limits::default()).oneshot(req));
        let res = res.expect("infallible");
        res.headers()
            .get("access-control-allow-origin")
            .map(|v| v.to_str().unwrap_or("").to_string())
    };
    assert_eq!(allowed("/api/rules/ORDO-4.3").as_deref(), Some("*"));
    assert_eq!(allowed("/"), None);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The `sh` block of the guide's section on the static site, one command a line, the comments
/// dropped.
fn guide_site_commands() -> Vec<String> {
    let root = env!("CARGO_MANIFEST_DIR");
    let guide = std::fs::read_to_string(format!("{root}/docs/guide.md")).unwrap();
    let at = guide
        .find("#### The page without a server")
        .expect("the guide's site section");
    let block = &guide[at..];
    let block = &block[block.find("```sh\n").expect("its sh block") + 6..];
    let block = &block[..block.find("```").unwrap()];
    block
        .lines()
        .map(|l| l.split(" # ").next().unwrap_or(l).trim().to_string())
        .filter(|l| !l.is_empty())
        .collect()
}

/// The guide's site section, every command run as written from the repository: the script
/// builds the site into the folder it is given (relative to where it runs: run again from
/// another folder it writes there) and says which endgame tables the site ships; the static
/// server, told `--bind 127.0.0.1`, serves the page on loopback only (on a free port here,
/// the guide's 8000 replaced by 0).
#[test]
#[ignore = "builds the WebAssembly module and the release ordo (minutes on a fresh clone)"]
fn the_guide_site_section_commands_run() {
    let root = env!("CARGO_MANIFEST_DIR");
    let commands = guide_site_commands();
    assert_eq!(commands.len(), 2, "{commands:?}");
    let build = Command::new("bash")
        .args(["-c", &commands[0]])
        .current_dir(root)
        .output()
        .unwrap();
    assert!(
        build.status.success(),
        "{}",
        String::from_utf8_lossy(&build.stderr)
    );
    assert!(stdout(&build).contains("the site ships no endgame tables"));
    let dir = format!("{root}/target/site");
    assert!(std::path::Path::new(&format!("{dir}/assets/ordo.wasm")).exists());
    let elsewhere = scratch("site-elsewhere");
    let again = Command::new("bash")
        .args([&format!("{root}/scripts/build-site.sh"), "here"])
        .current_dir(&elsewhere)
        .output()
        .unwrap();
    assert!(
        again.status.success(),
        "{}",
        String::from_utf8_lossy(&again.stderr)
    );
    assert!(
        elsewhere.join("here/index.html").exists(),
        "not written where it ran"
    );
    let serve = commands[1].replace(" 8000", " 0");
    assert_ne!(serve, commands[1], "the guide names the port");
    let mut child = Command::new("bash")
        .args(["-c", &format!("exec {serve}")])
        .current_dir(root)
        .env("PYTHONUNBUFFERED", "1")
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let port = line
        .split("port ")
        .nth(1)
        .and_then(|p| p.split_whitespace().next())
        .map(str::to_string);
    let reply = port.map(|p| {
        let mut s = TcpStream::connect(format!("127.0.0.1:{p}")).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
        s.write_all(b"GET / HTTP/1.0\r\n\r\n").unwrap();
        let mut out = String::new();
        let _ = s.read_to_string(&mut out);
        out
    });
    let _ = child.kill();
    let _ = child.wait();
    let _ = std::fs::remove_dir_all(&elsewhere);
    assert!(line.starts_with("Serving HTTP on 127.0.0.1 port"), "{line}");
    let reply = reply.unwrap_or_default();
    assert!(
        reply.starts_with("HTTP/1.0 200") && reply.contains("id=\"board\""),
        "{reply}"
    );
}
