//! `ordo serve`'s router called with tower's `oneshot` (the page, the API through ordo-page's
//! one dispatcher, bad input, limits, the move budget), the static site's dispatcher against
//! it, and a real server on a free loopback port (a client too slow to send its request head
//! is cut off).

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::sync::mpsc;
use std::time::Duration;

use axum::body::Body;
use axum::http::Request;
use ordo_page::answer;
use ordo_page::api::encode_component as q;
use ordo_serve::{router, Limits};
use tower::ServiceExt;

const START: &str = "2BB2BB2/BBBBBBBBBB/BB2BB2BB/10/10/WW2WW2WW/WWWWWWWWWW/2WW2WW2 w classic";
const START_X: &str = "2BB2BB2/BBBBBBBBBB/BB2BB2BB/10/10/WW2WW2WW/WWWWWWWWWW/2WW2WW2 w x";

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

/// One GET through the router: status and body.
fn routed(target: &str) -> (u16, String) {
    let (status, _, body) = get(target);
    (status, body)
}

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
    // Sources by author, title, date, section and address.
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
    // Each source linked to where it is published.
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
    assert_json_error(
        &unknown_param,
        400,
        "query",
        "unknown query parameter 'colour'",
    );
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

/// ORDO-4.3, ORDOX-4.2, ORDO-2.3: every route gives the same status and body through the
/// dispatcher of the static page as through the server (errors: the same status and place).
#[test]
fn the_static_page_gets_the_answers_of_the_server() {
    let x = "5/BBB2/1W3/5/5 w x";
    let same = [
        format!("/api/explain?position={}&move=e3-e5", q(START)),
        format!("/api/explain?position={}&move=b3xb4%2Fc4", q(x)),
        format!("/api/moves?position={}", q(x)),
        format!("/api/step?position={}&step=b3xb4", q(x)),
        format!("/api/board?position={}&move=e3-e4", q(START)),
        "/api/rules".to_string(),
        "/api/rules/ORDOX-4.2".to_string(),
        format!("/api/explain?position={}", q(START)),
        "/api/explain?position=4%2F4%2F4%2F4+w+classic&move=a1-a2".to_string(),
        "/api/moves?position=WW%2FBB+w+classic".to_string(),
        format!("/api/rules/ORDO-{}.1", 99),
    ];
    for target in &same {
        let (status, body) = routed(target);
        let a = answer(target);
        assert_eq!((a.status, &a.body), (status, &body), "{target}");
    }
    // Malformed queries: the same status and body (one reader of the query string).
    for target in [
        "/api/moves?position=a&colour=w",
        "/api/moves?position=a&position=b",
        "/api/step?position=%ZZ",
    ] {
        let (status, body) = routed(target);
        let a = answer(target);
        assert_eq!((a.status, &a.body), (status, &body), "{target}");
    }
    // Unknown routes: the same status and place, the server naming the method too.
    let (status, body) = routed("/api/nowhere");
    let a = answer("/api/nowhere");
    assert_eq!((a.status, status), (404, 404), "{body} / {}", a.body);
    let place = |b: &str| serde_json::from_str::<serde_json::Value>(b).unwrap()["where"].clone();
    assert_eq!(place(&a.body), place(&body));
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
    raw_bytes(addr, request.as_bytes())
}

/// Send `request` on a new connection and read the answer until the server closes it.
fn raw_bytes(addr: SocketAddr, request: &[u8]) -> String {
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    // The server may answer and close before reading all of a request over its limits.
    let _ = s.write_all(request);
    let mut out = Vec::new();
    let _ = s.read_to_end(&mut out);
    String::from_utf8_lossy(&out).into_owned()
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

/// The status and the body of a raw answer, checked to be one line of JSON naming `place`
/// with `fragment` in its message.
fn assert_raw_json(reply: &str, status: u16, place: &str, fragment: &str) {
    let (head, body) = reply.split_once("\r\n\r\n").unwrap_or((reply, ""));
    let code = head.get(9..12).and_then(|s| s.parse().ok()).unwrap_or(0);
    let ctype = head
        .lines()
        .find_map(|l| {
            l.to_ascii_lowercase()
                .strip_prefix("content-type: ")
                .map(str::to_string)
        })
        .unwrap_or_default();
    assert_json_error(&(code, ctype, body.to_string()), status, place, fragment);
}

/// Every error status comes with a one-line JSON body in the API's words, on the wire: those
/// of the routes (400, 404, 405, 413, 414, 422), those hyper gives before any route sees the
/// request (414 for a 100 KB target, 431 for large headers, 400 for bytes HTTP does not allow,
/// 400 for a parameter given twice), and 503 for an address over its connections.
#[test]
fn every_error_status_has_a_json_body() {
    let addr = start_server(Limits {
        max_moves: 2000,
        ..Limits::default()
    });
    let send = |target: &str, extra: &str| {
        raw(
            addr,
            &format!("GET {target} HTTP/1.1\r\nHost: x\r\n{extra}Connection: close\r\n\r\n"),
        )
    };
    assert_raw_json(&send("/api/moves?position=x", ""), 400, "position", "");
    let twice = send("/api/moves?position=a&position=b", "");
    assert_raw_json(&twice, 400, "query", "'position' is given twice");
    assert_raw_json(&send("/nowhere", ""), 404, "path", "no such route");
    let post = raw(
        addr,
        "POST /api/moves HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
    );
    assert_raw_json(&post, 405, "request", "GET only");
    let big = raw(
        addr,
        "POST /api/moves HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\nConnection: close\r\n\r\n",
    );
    assert_raw_json(&big, 413, "request", "100000 bytes");
    let long = format!("/api/moves?position={}", "1".repeat(5000));
    assert_raw_json(&send(&long, ""), 414, "request", "limit of 4096 bytes");
    let huge = format!("/api/moves?position={}", "1".repeat(100_000));
    assert_raw_json(&send(&huge, ""), 414, "request", "limit of 4096 bytes");
    let header = format!("X-Big: {}\r\n", "a".repeat(300_000));
    assert_raw_json(&send("/api/rules", &header), 431, "request", "65536 bytes");
    let reply = raw_bytes(
        addr,
        b"GET /api/moves?position=\xFF HTTP/1.1\r\nHost: x\r\n\r\n",
    );
    assert_raw_json(&reply, 400, "request", "percent-encode");
    let reply = raw_bytes(addr, b"GET /api/rules HTTP/1.1\r\nBad\xFFName: 1\r\n\r\n");
    assert_raw_json(&reply, 400, "request", "malformed request line or header");
    let over = send(&format!("/api/moves?position={}", q(START_X)), "");
    assert_raw_json(&over, 422, "position", "2062 legal moves");
    // One connection held open: the address's second gets 503.
    let one = start_server(Limits {
        max_connections_per_address: 1,
        ..Limits::default()
    });
    let _held = TcpStream::connect(one).unwrap();
    std::thread::sleep(Duration::from_millis(200));
    let refused = raw(one, "GET /api/rules HTTP/1.1\r\nHost: x\r\n\r\n");
    assert_raw_json(&refused, 503, "request", "connections open");
}

/// An Ordo X position with 3,111 legal moves: heavy work, within the default budget.
const HEAVY: &str =
    "B15/16/W1W1W1W1W1W1W1W1/1W1W1W1W1W1W1W1W/W1W1W1W1W1W1W1W1/1W1W1W1W1W1W1W1W/16/16 w x";

/// The statuses of `headers.len()` heavy requests sent at once from `from`, each with its
/// own extra header lines.
fn heavy_at_once(addr: SocketAddr, from: &str, headers: &[String]) -> Vec<u16> {
    let from: SocketAddr = format!("{from}:0").parse().unwrap();
    let start = std::sync::Arc::new(std::sync::Barrier::new(headers.len()));
    let threads: Vec<_> = headers
        .iter()
        .cloned()
        .map(|extra| {
            let start = start.clone();
            std::thread::spawn(move || {
                let rt = tokio::runtime::Builder::new_current_thread()
                    .enable_io()
                    .build()
                    .unwrap();
                let stream = rt
                    .block_on(async {
                        let socket = tokio::net::TcpSocket::new_v4()?;
                        socket.bind(from)?;
                        socket.connect(addr).await
                    })
                    .unwrap();
                let mut s = stream.into_std().unwrap();
                s.set_nonblocking(false).unwrap();
                s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
                let request = format!(
                    "GET /api/moves?position={} HTTP/1.1\r\nHost: x\r\n{extra}Connection: close\r\n\r\n",
                    q(HEAVY)
                );
                start.wait();
                s.write_all(request.as_bytes()).unwrap();
                let mut out = String::new();
                let _ = s.read_to_string(&mut out);
                out.get(9..12).and_then(|c| c.parse().ok()).unwrap_or(0)
            })
        })
        .collect();
    threads.into_iter().map(|t| t.join().unwrap()).collect()
}

/// `--trusted-proxy`: from a trusted proxy, the forwarded address is the one the per-address
/// limits count (requests forwarded for eight clients each have their share; for one client,
/// that client is over its share of one and gets 429); from any other address a forged header
/// changes nothing (eight requests claiming eight addresses share their real one).
#[test]
fn limits_count_the_address_a_trusted_proxy_forwards() {
    let addr = start_server(Limits {
        max_queued_per_address: 1,
        trusted_proxies: vec!["127.0.0.1".parse().unwrap()],
        ..Limits::default()
    });
    let clients: Vec<String> = (1..=8)
        .map(|i| format!("X-Forwarded-For: 203.0.113.{i}\r\n"))
        .collect();
    let each = heavy_at_once(addr, "127.0.0.1", &clients);
    assert!(each.iter().all(|&s| s == 200), "{each:?}");
    let one = vec!["Forwarded: for=203.0.113.9\r\n".to_string(); 8];
    let shared = heavy_at_once(addr, "127.0.0.1", &one);
    assert!(shared.contains(&429) && shared.contains(&200), "{shared:?}");
    let forged = heavy_at_once(addr, "127.0.0.2", &clients);
    assert!(forged.contains(&429) && forged.contains(&200), "{forged:?}");
}
