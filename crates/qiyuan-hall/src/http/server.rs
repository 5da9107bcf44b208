//! Starting and stopping the hall: configuration, the router, per-client rate
//! limits, the body limit, graceful shutdown and the `serve` command. The
//! accept loop (connection caps, timeouts, JSON for hyper's own errors) is
//! in [`conn`].

pub mod conn;

use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use axum::Router;
use axum::extract::{ConnectInfo, DefaultBodyLimit, Request, State};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use tokio::net::TcpListener;
use tokio::sync::watch;

use crate::domain::bus::EventBus;
use crate::domain::hall::Hall;
use crate::domain::registry::Registry;
use crate::http::api::AppState;
use crate::http::openapi;
use crate::http::responses::TooManyRequests;
use crate::http::web;
use crate::http::ws;
use crate::store::Storage;

use crate::error::ErrorCode;
use crate::error::HallError;
use crate::limits::Limits;
pub use crate::limits::MAX_BODY;

/// How the hall is started.
#[derive(Clone, Debug)]
pub struct Config {
    /// Address to listen on.
    pub bind: IpAddr,
    /// Port; 0 picks a free one (tests).
    pub port: u16,
    /// `sqlite://file.db`, `sqlite::memory:` or `postgres://USER:PASSWORD@HOST/DB`.
    pub database: String,
    /// The event bus: `local` (in-process) or `redis://HOST:PORT/` (several nodes).
    pub bus: String,
    /// HTTP requests per second per client IP (burst: 4 s worth); 0 turns the limit off.
    pub rate_per_sec: u32,
    /// Sessions, sockets, logins, hashing and AI budgets.
    pub limits: Limits,
    /// A fixed AI budget per move (tests); `None`: each level's own.
    pub ai_budget: Option<std::time::Duration>,
    /// This node's id and lease time when several nodes share the database
    /// (`None`: one node, no leases).
    pub lease: Option<crate::cluster::lease::LeaseConfig>,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            bind: IpAddr::from([127, 0, 0, 1]),
            port: 8080,
            database: "sqlite://qiyuan.db".into(),
            bus: "local".into(),
            rate_per_sec: 50,
            limits: Limits::default(),
            ai_budget: None,
            lease: None,
        }
    }
}

/// Token buckets per client IP.
struct RateLimiter {
    rate: f64,
    burst: f64,
    buckets: Mutex<HashMap<IpAddr, (f64, Instant)>>,
}

impl RateLimiter {
    fn allow(&self, ip: IpAddr) -> bool {
        let now = Instant::now();
        let mut b = self.buckets.lock().unwrap_or_else(|e| e.into_inner());
        if b.len() > 100_000 {
            // Forget idle clients rather than grow without bound.
            b.retain(|_, (_, t)| now.duration_since(*t).as_secs() < 60);
        }
        let e = b.entry(ip).or_insert((self.burst, now));
        e.0 = (e.0 + now.duration_since(e.1).as_secs_f64() * self.rate).min(self.burst);
        e.1 = now;
        if e.0 >= 1.0 {
            e.0 -= 1.0;
            true
        } else {
            false
        }
    }
}

async fn rate_limit(
    State((hall, limiter)): State<(Arc<Hall>, Option<Arc<RateLimiter>>)>,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
    req: Request,
    next: Next,
) -> Response {
    if let Some(l) = limiter
        && !l.allow(addr.ip())
    {
        hall.metrics.rate_limited.inc();
        return HallError::new(ErrorCode::RateLimited, "too many requests: slow down")
            .into_response();
    }
    next.run(req).await
}

/// Past this much an oversize body is no longer read to its end: the
/// connection is closed instead.
const MAX_DRAIN: usize = 1024 * 1024;

/// How long a body may take when the connection did not say
/// ([`conn::BodyTimeout`]).
const BODY_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(10);

/// The body limit of a request to `path`: [`MAX_BODY`], but for the game
/// files of `POST /api/import` ([`crate::limits::MAX_IMPORT_BODY`]).
fn body_limit(path: &str) -> usize {
    if path == crate::http::api_import::IMPORT_PATH {
        crate::limits::MAX_IMPORT_BODY
    } else {
        MAX_BODY
    }
}

/// Reads every request body to its end (at most the route's
/// [`body_limit`] is kept) before the handler runs, so a handler that ignores its body never
/// leaves unread bytes on a kept-alive connection (hyper would then close
/// it, and the client's next request would be lost). A body over the limit
/// is a 413; up to [`MAX_DRAIN`] bytes of it are read and dropped first, so
/// the client still gets its answer and keeps its connection. A body that
/// has not arrived whole within the connection's [`conn::BodyTimeout`] is a
/// 408 `timeout`, and the connection is closed.
async fn read_body(req: Request, next: Next) -> Response {
    use futures_util::StreamExt;
    let deadline = tokio::time::Instant::now()
        + req
            .extensions()
            .get::<conn::BodyTimeout>()
            .map_or(BODY_TIMEOUT, |t| t.0);
    let (parts, body) = req.into_parts();
    let limit = body_limit(parts.uri.path());
    // Never less than the limit: a body just over it is still answered.
    let drain = MAX_DRAIN.max(limit + 1);
    let too_large = || {
        HallError::new(
            ErrorCode::BodyTooLarge,
            format!("the request body is larger than {limit} bytes"),
        )
        .with("max", limit)
        .into_response()
    };
    let declared = parts
        .headers
        .get(axum::http::header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<usize>().ok());
    if declared.is_some_and(|n| n > drain) {
        return too_large();
    }
    let mut kept = Vec::new();
    let mut seen = 0usize;
    let mut stream = body.into_data_stream();
    loop {
        let Ok(next_chunk) = tokio::time::timeout_at(deadline, stream.next()).await else {
            let mut r = HallError::new(
                ErrorCode::Timeout,
                "the request body did not arrive in time",
            )
            .into_response();
            r.headers_mut().insert(
                axum::http::header::CONNECTION,
                axum::http::HeaderValue::from_static("close"),
            );
            return r;
        };
        let Some(chunk) = next_chunk else {
            break;
        };
        let Ok(chunk) = chunk else {
            return HallError::bad("the request body broke off").into_response();
        };
        seen += chunk.len();
        if seen > drain {
            return too_large();
        }
        if seen <= limit {
            kept.extend_from_slice(&chunk);
        }
    }
    if seen > limit {
        return too_large();
    }
    next.run(Request::from_parts(parts, axum::body::Body::from(kept)))
        .await
}

/// Turns every error response that is not already JSON (framework
/// rejections such as a 405, a malformed path or a failed WebSocket
/// upgrade) into `{"error", "code"}`.
async fn json_errors(req: Request, next: Next) -> Response {
    let r = next.run(req).await;
    let status = r.status();
    let is_json = r
        .headers()
        .get(axum::http::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/json"));
    if status.as_u16() < 400 || is_json {
        return r;
    }
    let (mut parts, body) = r.into_parts();
    let text = axum::body::to_bytes(body, 4096)
        .await
        .ok()
        .and_then(|b| String::from_utf8(b.to_vec()).ok())
        .map(|t| t.trim().to_string())
        .filter(|t| !t.is_empty())
        .unwrap_or_else(|| status.canonical_reason().unwrap_or("error").to_lowercase());
    let body = HallError::of_status(status.as_u16(), text).body();
    parts.headers.remove(axum::http::header::CONTENT_LENGTH);
    parts.headers.insert(
        axum::http::header::CONTENT_TYPE,
        axum::http::HeaderValue::from_static("application/json"),
    );
    Response::from_parts(parts, axum::body::Body::from(body.to_string()))
}

/// `GET /healthz`.
#[utoipa::path(
    get, path = "/healthz", summary = "Liveness",
    responses(
        (status = 200, description = "ok", body = String, content_type = "text/plain"),
        (status = 429, response = TooManyRequests),
    )
)]
pub async fn healthz() -> &'static str {
    "ok"
}

/// `GET /metrics`.
#[utoipa::path(
    get, path = "/metrics", summary = "Prometheus metrics",
    responses(
        (status = 200, description = "text format", body = String, content_type = "text/plain"),
        (status = 429, response = TooManyRequests),
    )
)]
pub async fn metrics(State(hall): State<AppState>) -> String {
    hall.metrics.render()
}

/// The router of the whole hall. Every route under `/api` is documented
/// ([`openapi::api_routes`]) but [`openapi::UNDOCUMENTED`].
pub fn router(hall: Arc<Hall>, rate_per_sec: u32) -> Router {
    let limiter = (rate_per_sec > 0).then(|| {
        Arc::new(RateLimiter {
            rate: f64::from(rate_per_sec),
            burst: f64::from(rate_per_sec) * 4.0,
            buckets: Mutex::new(HashMap::new()),
        })
    });
    // The document is built once per router: it lists this hall's games.
    let (api, doc) = openapi::api_routes().split_for_parts();
    let doc = openapi::render(doc, &hall.games);
    Router::new()
        .route("/", get(web::index))
        .route("/static/{*path}", get(web::asset))
        .route("/favicon.ico", get(web::favicon))
        .route(
            openapi::DOCUMENT_PATH,
            get(move || std::future::ready(openapi::serve(doc.clone()))),
        )
        .route(openapi::LOBBY_SOCKET_PATH, get(ws::lobby_socket))
        .route(openapi::GAME_SOCKET_PATH, get(ws::game_socket))
        .merge(api)
        .fallback(|| async {
            HallError::not_found("no such endpoint").with_code(ErrorCode::NoSuchEndpoint)
        })
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .layer(middleware::from_fn_with_state(
            hall.clone(),
            crate::cluster::forward::to_owner,
        ))
        .layer(middleware::from_fn_with_state(
            (hall.clone(), limiter),
            rate_limit,
        ))
        .layer(middleware::from_fn(read_body))
        .layer(middleware::from_fn(crate::http::same_site::guard))
        .layer(middleware::from_fn(json_errors))
        .layer(tower_http::trace::TraceLayer::new_for_http())
        .with_state(hall)
}

/// A started hall.
pub struct Running {
    /// Where it listens.
    pub addr: SocketAddr,
    /// The hall (for tests that look inside).
    pub hall: Arc<Hall>,
    stop: watch::Sender<bool>,
    task: tokio::task::JoinHandle<()>,
}

impl Running {
    /// Stops accepting, closes sockets, waits for requests in flight, closes
    /// the database.
    pub async fn shutdown(self) {
        let _ = self.stop.send(true);
        let _ = self.task.await;
        self.hall.leave_cluster().await;
        self.hall.store.close().await;
    }
}

/// Connections the kernel queues before the hall accepts them. The default
/// (1024) reset a few connections when 1000 games connected at once.
const ACCEPT_BACKLOG: u32 = 4096;

/// A listening socket on `addr` with [`ACCEPT_BACKLOG`].
fn listen(addr: std::net::SocketAddr) -> std::io::Result<TcpListener> {
    let socket = if addr.is_ipv4() {
        tokio::net::TcpSocket::new_v4()?
    } else {
        tokio::net::TcpSocket::new_v6()?
    };
    // As std's bind does: a restart may reuse the port at once.
    socket.set_reuseaddr(true)?;
    socket.bind(addr)?;
    socket.listen(ACCEPT_BACKLOG)
}

/// Opens the database, resumes unfinished games and starts listening, with
/// the games of `games`. `QIYUAN_AI_MOVE_MS` (or `config.ai_budget`) gives
/// the AI a fixed budget per move instead of its level's (fast engine events
/// and tests).
pub async fn start(config: &Config, games: Registry) -> anyhow::Result<Running> {
    let from_env = std::env::var("QIYUAN_AI_MOVE_MS")
        .ok()
        .and_then(|v| v.parse::<u64>().ok())
        .map(std::time::Duration::from_millis);
    let ai_budget = config.ai_budget.or(from_env);
    let store: Arc<dyn Storage> = crate::store::open(&config.database).await?;
    let bus: Arc<dyn EventBus> = crate::cluster::redis_bus::open(&config.bus).await?;
    let (stop, stop_rx) = watch::channel(false);
    // Connections and long-lived ones are capped below the open-files
    // limit (raised to the hard limit first), keeping descriptors for the
    // database and for short requests.
    let limits = config.limits.clone().fit_to_descriptors(conn::open_files());
    tracing::info!(
        max_connections = limits.max_connections,
        max_long_lived = limits.max_long_lived,
        "connection caps"
    );
    let hall = Hall::new(store, bus, games, ai_budget, stop_rx.clone(), limits);
    let listener = listen(std::net::SocketAddr::new(config.bind, config.port))?;
    let addr = listener.local_addr()?;
    // A shared store never runs without leases: no id given, one is made.
    let lease = config.lease.clone().or_else(|| {
        crate::cluster::lease::LeaseConfig::shared(
            None,
            crate::cluster::lease::DEFAULT_TTL,
            None,
            &config.database,
            &config.bus,
        )
    });
    if let Some(lease) = &lease {
        hall.use_leases(lease.clone());
        let reached = lease.advertise.clone().unwrap_or_else(|| addr.to_string());
        hall.join_cluster(lease, &reached).await?;
        tokio::spawn(hall.clone().adopt_orphans());
    }
    hall.finisher
        .listen(Arc::new(crate::domain::points::Ledgers));
    hall.finisher
        .listen(Arc::new(crate::tournaments::events::EventsListener));
    tokio::spawn(purge_sessions(hall.clone()));
    let resumed = hall.resume().await?;
    tracing::info!(resumed, "games resumed");
    let puzzles = hall.load_puzzles().await?;
    tracing::info!(puzzles, "puzzles loaded");
    tokio::spawn(crate::tournaments::events::run(hall.clone()));
    tokio::spawn(crate::domain::pools::run(hall.clone()));
    let events = crate::tournaments::events::resume(&hall).await?;
    tracing::info!(events, "events loaded");
    let app = router(hall.clone(), config.rate_per_sec);
    let task = tokio::spawn(conn::serve(listener, app, hall.limits.clone(), stop_rx));
    Ok(Running {
        addr,
        hall,
        stop,
        task,
    })
}

/// Deletes expired sessions and idle guests now and every hour until shutdown.
async fn purge_sessions(hall: Arc<Hall>) {
    let mut shutdown = hall.shutdown.clone();
    let mut tick = tokio::time::interval(std::time::Duration::from_secs(3600));
    loop {
        tokio::select! {
            _ = tick.tick() => {}
            _ = shutdown.changed() => return,
        }
        match hall.store.purge_expired_sessions().await {
            Ok(0) => {}
            Ok(n) => tracing::info!(sessions = n, "expired sessions deleted"),
            Err(e) => tracing::warn!(error = %e, "cannot delete expired sessions"),
        }
        match hall.purge_idle_guests().await {
            Ok(0) => {}
            Ok(n) => tracing::info!(guests = n, "idle guests deleted"),
            Err(e) => tracing::warn!(error = %e.message, "cannot delete idle guests"),
        }
    }
}

async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        _ = ctrl_c => {}
        _ = term => {}
    }
}

/// `qiyuan serve`: runs until Ctrl-C or SIGTERM, then shuts down gracefully.
pub fn serve(config: Config, games: Registry) -> anyhow::Result<()> {
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info")),
        )
        .init();
    let rt = tokio::runtime::Runtime::new()?;
    rt.block_on(async {
        let running = start(&config, games).await?;
        tracing::info!("listening on http://{}", running.addr);
        println!("listening on http://{}", running.addr);
        shutdown_signal().await;
        tracing::info!("shutting down");
        running.shutdown().await;
        Ok(())
    })
}
