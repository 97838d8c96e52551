//! The HTTP side of `ordo serve`: routes, limits, JSON errors, the accept loop.

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;

use axum::extract::{DefaultBodyLimit, Request, State};
use axum::http::{header, HeaderValue, Method, StatusCode, Uri};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Extension;
use axum::Router;
use tokio::net::TcpListener;

use crate::forwarded;
use crate::head::{JsonErrors, MAX_HEAD};
use crate::work::{Admission, Lane, Peer, Pool, Tally};
use ordo_core::notation::echo;
use ordo_page::api::{ApiError, ErrorKind};
use ordo_page::assets::{APP_CSS, APP_JS, ICON_SVG, INDEX_HTML};
use ordo_page::{pages, Answer, Route};
use ordo_solve::Tablebase;

/// How much a client may send and how long it may take.
#[derive(Clone, Debug)]
pub struct Limits {
    /// Longest request target (path and query string), in bytes; longer gets 414.
    pub max_target: usize,
    /// Largest request body, in bytes; larger gets 413 (no route reads a body).
    pub max_body: usize,
    /// Longest time to answer one request; longer gets 408.
    pub request_timeout: Duration,
    /// Longest time a client may take to send a request head; then the connection is closed.
    pub header_timeout: Duration,
    /// Longest life of one connection (keep-alive included); then it is closed.
    pub connection_lifetime: Duration,
    /// Most connections served at once; further ones wait to be accepted.
    pub max_connections: usize,
    /// Most connections open at once from one address; further ones are answered 503 and
    /// closed at once.
    pub max_connections_per_address: usize,
    /// Threads doing the API's light CPU work at once; one more does the heavy work (move
    /// lists and verdicts on positions with over 500 legal moves), so that it never holds
    /// up the light.
    pub workers: usize,
    /// Most light API requests waiting for a worker or working, in all; further ones get 503.
    pub max_queued: usize,
    /// Most heavy API requests waiting for the heavy worker, in all (admitted apart from the
    /// light ones, and served address by address in turn); further ones get 503.
    pub max_queued_heavy: usize,
    /// Most API requests of each kind (light, heavy) waiting or working from one address;
    /// further ones get 429.
    pub max_queued_per_address: usize,
    /// Most legal moves a position may have for `/api/moves` and `/api/explain`; more gets
    /// 422 at once (the count is the bitboard engine's, a few milliseconds).
    pub max_moves: usize,
    /// Reverse proxies whose forwarded client address (`X-Forwarded-For`, else `Forwarded`)
    /// is the one the per-address limits count (`ordo serve --trusted-proxy`); from any other
    /// address those headers are ignored. A trusted proxy's own connections are bounded by
    /// `max_connections` only, as they carry many clients.
    pub trusted_proxies: Vec<IpAddr>,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_target: 4096,
            max_body: 16 * 1024,
            request_timeout: Duration::from_secs(10),
            header_timeout: Duration::from_secs(10),
            connection_lifetime: Duration::from_secs(300),
            max_connections: 256,
            max_connections_per_address: 32,
            workers: 2,
            max_queued: 64,
            max_queued_heavy: 64,
            max_queued_per_address: 2,
            max_moves: 20_000,
            trusted_proxies: Vec::new(),
        }
    }
}

/// Why the server could not start or stopped.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// The tokio runtime could not be built (threads or the system's event queue refused).
    #[error("cannot start the async runtime: {0}")]
    Runtime(std::io::Error),
    /// The listening socket could not be opened (the port is taken, or needs privileges).
    #[error("cannot listen on {addr}: {source}")]
    Bind {
        /// The address and port asked for.
        addr: SocketAddr,
        /// The system's error.
        source: std::io::Error,
    },
    /// The listening socket failed while accepting connections; the server stopped.
    #[error("cannot accept connections: {0}")]
    Accept(std::io::Error),
}

/// The answer to a failed request: its status and one line of JSON.
fn error_response(e: &ApiError) -> Response {
    let status = StatusCode::from_u16(e.status()).unwrap_or(StatusCode::BAD_REQUEST);
    let mut response = (
        status,
        [(header::CONTENT_TYPE, "application/json")],
        e.to_json(),
    )
        .into_response();
    if matches!(e.kind, ErrorKind::Busy | ErrorKind::TooManyRequests) {
        let retry = HeaderValue::from_static("1");
        response.headers_mut().insert(header::RETRY_AFTER, retry);
    }
    response
}

/// The answer of ordo-page, as HTTP.
fn response(answer: Answer) -> Response {
    let status = StatusCode::from_u16(answer.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    (
        status,
        [(header::CONTENT_TYPE, answer.content_type)],
        answer.body,
    )
        .into_response()
}

/// What every handler shares: the limits, the work pool and the endgame tables, if any.
struct App {
    limits: Limits,
    pool: Pool,
    tables: Option<Arc<Tablebase>>,
}

type Shared = State<Arc<App>>;

/// The address of the request's client, when it came through [`serve`].
type Client = Option<Extension<Peer>>;

/// Every request no page route takes: the API's routes (ordo-page reads and answers them;
/// this adds the move budget and runs the engines' and the tables' work on the pool's
/// workers, in the client's share of the queue), else a 404.
async fn api(State(app): Shared, peer: Client, method: Method, uri: Uri) -> Response {
    // `/api/tables` is the static site's: its page fetches the table files a server reads.
    let route = Route::of(uri.path()).filter(|r| *r != Route::Tables);
    let Some(route) = route else {
        return not_found(method, uri).await;
    };
    if method != Method::GET && method != Method::HEAD {
        return wrong_method(method, uri).await;
    }
    let request = match route.request(uri.query().unwrap_or_default()) {
        Ok(request) => request,
        Err(e) => return error_response(&e),
    };
    let tables = app.tables.clone();
    if !request.works(tables.is_some()) {
        return response(request.answer(tables.as_deref()));
    }
    let lane = match request.budgeted().map(|p| app.pool.check_budget(p)) {
        None => Lane::Light,
        Some(Ok(lane)) => lane,
        Some(Err(e)) => return error_response(&e),
    };
    let peer = peer.map(|Extension(p)| p);
    let work = move || Ok(request.answer(tables.as_deref()));
    match app.pool.run(peer, lane, work).await {
        Ok(answer) => response(answer),
        Err(e) => error_response(&e),
    }
}

fn static_text(content_type: &'static str, body: &'static str) -> Response {
    ([(header::CONTENT_TYPE, content_type)], body).into_response()
}

async fn not_found(method: Method, uri: Uri) -> Response {
    error_response(&ApiError::new(
        ErrorKind::NotFound,
        "path",
        format!(
            "no such route: {method} {} (the page is at /, the API under /api/)",
            echo(uri.path())
        ),
    ))
}

async fn wrong_method(method: Method, uri: Uri) -> Response {
    error_response(&ApiError::new(
        ErrorKind::MethodNotAllowed,
        "request",
        format!("{} answers GET only, not {method}", echo(uri.path())),
    ))
}

/// Size and time limits for every request, and headers for every answer.
async fn guard(State(app): Shared, req: Request, next: Next) -> Response {
    let limits = &app.limits;
    let target = req.uri().path_and_query().map_or(0, |pq| pq.as_str().len());
    if target > limits.max_target {
        return error_response(&ApiError::new(
            ErrorKind::UriTooLong,
            "request",
            format!(
                "the request target is {target} bytes long, over the limit of {} bytes",
                limits.max_target
            ),
        ));
    }
    let body_len = req
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok()?.parse::<u64>().ok());
    if let Some(n) = body_len.filter(|&n| n > limits.max_body as u64) {
        return error_response(&ApiError::new(
            ErrorKind::TooLarge,
            "request",
            format!(
                "the request body is {n} bytes, over the limit of {} bytes",
                limits.max_body
            ),
        ));
    }
    let api = req.uri().path().starts_with("/api/");
    let mut response = match tokio::time::timeout(limits.request_timeout, next.run(req)).await {
        Ok(r) => r,
        Err(_) => error_response(&ApiError::new(
            ErrorKind::Timeout,
            "request",
            format!(
                "no answer within {} s; try a smaller position",
                limits.request_timeout.as_secs_f64()
            ),
        )),
    };
    secure(response.headers_mut(), api);
    response
}

/// The headers of every answer: the page's content security policy, no type sniffing, no
/// caching; on the API's answers, which are public and take no credentials, any origin may
/// read them (a page written by `ordo site DIR --api URL` asks from another origin).
fn secure(headers: &mut axum::http::HeaderMap, api: bool) {
    headers.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(
            "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'",
        ),
    );
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    if api {
        headers.insert(
            header::ACCESS_CONTROL_ALLOW_ORIGIN,
            HeaderValue::from_static("*"),
        );
    }
}

/// The whole application: the page, the rules page, the API, JSON errors for anything else,
/// every request bounded by `limits`. Callable without a socket (tower's `oneshot`).
pub fn router(limits: &Limits) -> Router {
    router_with(limits, None)
}

/// [`router`] with the endgame tables of `tables` behind `/api/values` (`ordo serve --tables`).
pub fn router_with(limits: &Limits, tables: Option<Arc<Tablebase>>) -> Router {
    let app = Arc::new(App {
        tables,
        limits: limits.clone(),
        pool: Pool::new(Admission {
            workers: limits.workers,
            max_queued: limits.max_queued,
            max_queued_heavy: limits.max_queued_heavy,
            per_address: limits.max_queued_per_address,
            max_moves: limits.max_moves,
        }),
    });
    Router::new()
        .route(
            "/",
            get(|| async { static_text("text/html; charset=utf-8", INDEX_HTML) }),
        )
        .route(
            "/assets/app.js",
            get(|| async { static_text("text/javascript; charset=utf-8", APP_JS) }),
        )
        .route(
            "/assets/app.css",
            get(|| async { static_text("text/css; charset=utf-8", APP_CSS) }),
        )
        .route(
            "/assets/icon.svg",
            get(|| async { static_text("image/svg+xml", ICON_SVG) }),
        )
        .route(
            "/rules",
            get(|| async {
                (
                    [(header::CONTENT_TYPE, "text/html; charset=utf-8")],
                    pages::rules_page(),
                )
                    .into_response()
            }),
        )
        .fallback(api)
        .method_not_allowed_fallback(wrong_method)
        .layer(DefaultBodyLimit::max(limits.max_body))
        .layer(middleware::from_fn_with_state(app.clone(), guard))
        .with_state(app)
}

/// Serve `router(limits)` on `listener` until accepting fails for good. Each connection must
/// send its request head within `limits.header_timeout` and is closed after
/// `limits.connection_lifetime`; at most `limits.max_connections` are served at once, and at
/// most `limits.max_connections_per_address` from one address (further ones get a 503 and
/// are closed, so that one client cannot take every connection).
pub async fn serve(listener: TcpListener, limits: Limits) -> Result<(), ServeError> {
    serve_with(listener, limits, None).await
}

/// [`serve`] with the endgame tables of `tables` behind `/api/values`.
pub async fn serve_with(
    listener: TcpListener,
    limits: Limits,
    tables: Option<Arc<Tablebase>>,
) -> Result<(), ServeError> {
    let app = router_with(&limits, tables);
    let slots = Arc::new(tokio::sync::Semaphore::new(limits.max_connections.max(1)));
    let per_address = Arc::new(Tally::default());
    let mut failures = 0u32;
    loop {
        let Ok(slot) = slots.clone().acquire_owned().await else {
            return Ok(());
        };
        let (stream, addr) = match listener.accept().await {
            Ok(accepted) => accepted,
            // Out of file descriptors and the like: wait, then try again; give up only when
            // accepting keeps failing.
            Err(_) if failures < 100 => {
                failures += 1;
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
            Err(e) => return Err(ServeError::Accept(e)),
        };
        failures = 0;
        let cap = limits.max_connections_per_address;
        let proxy = limits.trusted_proxies.contains(&addr.ip());
        let held = Tally::take(
            &per_address,
            addr.ip(),
            if proxy { usize::MAX } else { cap },
        );
        let Some(held) = held else {
            tokio::spawn(refuse(stream, cap));
            continue;
        };
        let app = app.clone();
        let limits = limits.clone();
        tokio::spawn(async move {
            connection(stream, Peer(addr.ip()), app, &limits).await;
            drop((slot, held));
        });
    }
}

/// Serve one connection, each of its requests marked with the client's address (the one a
/// trusted proxy forwards, [`forwarded::client`]).
async fn connection(stream: tokio::net::TcpStream, peer: Peer, app: Router, limits: &Limits) {
    use hyper_util::rt::{TokioIo, TokioTimer};
    let trusted: Arc<[IpAddr]> = limits.trusted_proxies.clone().into();
    let service = hyper::service::service_fn(move |mut req: Request<hyper::body::Incoming>| {
        let client = forwarded::client(peer.0, req.headers(), &trusted);
        req.extensions_mut().insert(Peer(client));
        tower_service::Service::call(&mut app.clone(), req)
    });
    let mut builder = hyper::server::conn::http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(limits.header_timeout)
        .max_buf_size(MAX_HEAD);
    let stream = JsonErrors::new(stream, limits.max_target);
    let conn = builder.serve_connection(TokioIo::new(stream), service);
    let _ = tokio::time::timeout(limits.connection_lifetime, conn).await;
}

/// Answer a connection over its address's cap with a 503 and close it, without reading it
/// (a second at most).
async fn refuse(stream: tokio::net::TcpStream, cap: usize) {
    let e = ApiError::new(
        ErrorKind::Busy,
        "request",
        format!("this address already has {cap} connections open; close some first"),
    );
    let body = e.to_json();
    let answer = format!(
        "HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\n\
         content-length: {}\r\nretry-after: 1\r\nconnection: close\r\n\r\n{body}",
        body.len()
    );
    let write = async {
        let mut at = 0;
        while at < answer.len() {
            stream.writable().await?;
            match stream.try_write(&answer.as_bytes()[at..]) {
                Ok(n) => at += n,
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {}
                Err(e) => return Err(e),
            }
        }
        Ok(())
    };
    let _ = tokio::time::timeout(Duration::from_secs(1), write).await;
}

/// Bind `addr`, call `ready` with the address bound (port 0 picks a free port), then serve
/// until the process ends. Builds its own runtime.
pub fn run(
    addr: SocketAddr,
    limits: Limits,
    ready: impl FnOnce(SocketAddr),
) -> Result<(), ServeError> {
    run_with(addr, limits, None, ready)
}

/// [`run`] with the endgame tables of `tables` behind `/api/values` (`ordo serve --tables`).
pub fn run_with(
    addr: SocketAddr,
    limits: Limits,
    tables: Option<Arc<Tablebase>>,
    ready: impl FnOnce(SocketAddr),
) -> Result<(), ServeError> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(ServeError::Runtime)?;
    runtime.block_on(async move {
        let listener = TcpListener::bind(addr)
            .await
            .map_err(|source| ServeError::Bind { addr, source })?;
        let bound = listener.local_addr().map_err(ServeError::Accept)?;
        ready(bound);
        serve_with(listener, limits, tables).await
    })
}
