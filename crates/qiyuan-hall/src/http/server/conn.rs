//! The hall's own accept loop on hyper, in place of `axum::serve`, so that
//! no client can hold a connection, memory or a descriptor for free:
//!
//! - **Caps.** Connections are counted per client address and in all (a
//!   [`ConnSlot`] inside the connection's IO, so a WebSocket keeps its place
//!   until the socket itself is dropped). Past [`Limits::connections_per_ip`]
//!   a new connection is answered 429 `too_many_connections`, past
//!   [`Limits::max_connections`] (fitted below the open-files limit, see
//!   [`open_files`]) 503 `busy`, and closed. Answering those refusals is
//!   itself bounded ([`REFUSING`] at a time; past that they are just closed).
//! - **Refusals close.** A 429 or 503 from the router (a cap, a full
//!   server) carries `Connection: close`, so a refused client does not keep
//!   a connection idle.
//! - **Timeouts.** hyper's header read timeout closes a connection whose
//!   request head has not arrived whole [`Limits::header_timeout`] after the
//!   connection became ready for one: a new connection, and a kept-alive one
//!   between requests (so idle keep-alive is bounded by the same time). A
//!   body must arrive within [`Limits::body_timeout`] (the `read_body`
//!   middleware, which reads [`BodyTimeout`] from the request).
//! - **Memory.** hyper buffers at most [`MAX_HEAD`] bytes of a connection
//!   (a longer head is a 431) and parses at most [`MAX_HEADERS`] headers.
//! - **Errors below the router are JSON.** hyper answers a request it cannot
//!   parse (a garbage request line, a negative or overflowing
//!   `Content-Length`, bad header syntax, too many or too long headers) by
//!   itself, with an empty-bodied 400, 414 or 431, and then closes the
//!   connection; it has no hook for that. [`JsonErrors`] is the IO under
//!   hyper that turns that one response into `{"error", "code"}`.
//!
//! Why rewrite hyper's answer instead of parsing request heads ourselves
//! before hyper does: a pre-parser would have to track every request's
//! framing on a kept-alive connection (`Content-Length`, chunked bodies,
//! pipelining, upgrades) to know where the next head starts, and would
//! disagree with hyper's own parser on some edge; the two views of one byte
//! stream drifting apart is a request-smuggling hazard. Rewriting needs only
//! facts that hold by construction: (1) hyper writes its automatic answer
//! only between responses and nothing after it but the close; (2) hyper
//! never flushes part of a buffered head, so the answer is the whole tail of
//! one write call; (3) every response of the router at 400 or more has a
//! `Content-Type` (the `json_errors` middleware), while hyper's own has
//! none and an empty body. So a write whose tail parses as a complete
//! response head with a status of 400 or more, no `Content-Type` and a zero
//! `Content-Length` is hyper's automatic answer: the bytes before it go out
//! unchanged, the head is replaced by a JSON answer with the same status
//! (`code_for_status`: `bad_request`, `uri_too_long`, `headers_too_large`)
//! and `Connection: close`, and the close lingers (reads and drops what the
//! client still sends, for at most [`LINGER`]) so that unread input does not
//! reset the connection before the client has read the answer. This covers
//! every request of a kept-alive connection alike, and is inert after a
//! `101 Switching Protocols` (WebSocket frames pass untouched).

use std::collections::HashMap;
use std::future::Future;
use std::io::IoSlice;
use std::net::IpAddr;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll, ready};
use std::time::Duration;

use axum::Router;
use axum::extract::ConnectInfo;
use hyper::body::Incoming;
use hyper::service::Service as _;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{Semaphore, watch};

use crate::error::ErrorCode;
use crate::error::HallError;
use crate::limits::{Limits, MAX_HEAD, MAX_HEADERS};

/// Refused connections answered at once; past that, a refused connection is
/// closed without an answer (so refusals cannot pile up descriptors).
pub const REFUSING: usize = 32;
/// How long a closing connection that was answered with an error keeps
/// reading (and dropping) what the client still sends, at most.
pub const LINGER: Duration = Duration::from_secs(1);
/// The most bytes read and dropped while lingering.
const LINGER_BYTES: usize = 64 * 1024;

/// The time a request's body has to arrive, set on every request for the
/// `read_body` middleware.
#[derive(Clone, Copy, Debug)]
pub struct BodyTimeout(pub Duration);

/// The process's open-files limit (`None`: unlimited or unknown), after
/// raising the soft limit to the hard one where the hard one is higher.
/// Uses `rustix` (already in the dependency tree, a safe wrapper of the
/// system call; the `rlimit` crate would add a crate and `libc` calls need
/// `unsafe`).
#[cfg(unix)]
pub fn open_files() -> Option<u64> {
    use rustix::process::{Resource, Rlimit, getrlimit, setrlimit};
    let now = getrlimit(Resource::Nofile);
    let current = now.current?;
    // Past about a million the kernel refuses (nr_open); ask no more.
    let want = now.maximum.unwrap_or(u64::MAX).min(1 << 20);
    if want > current {
        let raised = Rlimit {
            current: Some(want),
            maximum: now.maximum,
        };
        match setrlimit(Resource::Nofile, raised) {
            Ok(()) => tracing::info!(from = current, to = want, "open-files limit raised"),
            Err(e) => tracing::warn!(error = %e, current, "cannot raise the open-files limit"),
        }
    }
    getrlimit(Resource::Nofile).current
}

/// The process's open-files limit: unknown here.
#[cfg(not(unix))]
pub fn open_files() -> Option<u64> {
    None
}

#[derive(Default)]
struct Counts {
    total: usize,
    by_ip: HashMap<IpAddr, usize>,
}

/// Open connections per address and in all.
#[derive(Clone, Default)]
pub struct ConnCounts {
    counts: Arc<Mutex<Counts>>,
}

/// One admitted connection; dropping it (with the connection's IO) frees
/// its place.
pub struct ConnSlot {
    counts: Arc<Mutex<Counts>>,
    ip: IpAddr,
}

impl ConnCounts {
    /// Admits a connection from `ip`, or the error to answer it with.
    pub fn admit(&self, ip: IpAddr, limits: &Limits) -> Result<ConnSlot, HallError> {
        let mut c = self.counts.lock().unwrap_or_else(|e| e.into_inner());
        if limits.max_connections > 0 && c.total >= limits.max_connections {
            return Err(HallError::busy(
                "the server has as many connections as it takes: try again later",
            ));
        }
        let mine = c.by_ip.get(&ip).copied().unwrap_or(0);
        if limits.connections_per_ip > 0 && mine >= limits.connections_per_ip {
            return Err(HallError::new(
                ErrorCode::TooManyConnections,
                format!(
                    "at most {} open connections per address: close one first",
                    limits.connections_per_ip
                ),
            ));
        }
        c.total += 1;
        *c.by_ip.entry(ip).or_default() += 1;
        Ok(ConnSlot {
            counts: self.counts.clone(),
            ip,
        })
    }

    /// Connections open now, in all.
    pub fn total(&self) -> usize {
        self.counts.lock().unwrap_or_else(|e| e.into_inner()).total
    }
}

impl Drop for ConnSlot {
    fn drop(&mut self) {
        let mut c = self.counts.lock().unwrap_or_else(|e| e.into_inner());
        c.total = c.total.saturating_sub(1);
        if let Some(n) = c.by_ip.get_mut(&self.ip) {
            *n -= 1;
            if *n == 0 {
                c.by_ip.remove(&self.ip);
            }
        }
    }
}

/// A complete `HTTP/1.1` response carrying `e` as JSON, closing the
/// connection.
pub fn error_response(e: &HallError) -> Vec<u8> {
    let body = e.body().to_string();
    let reason = axum::http::StatusCode::from_u16(e.status)
        .ok()
        .and_then(|s| s.canonical_reason())
        .unwrap_or("Error");
    format!(
        "HTTP/1.1 {} {reason}\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
        e.status,
        body.len()
    )
    .into_bytes()
}

/// The JSON error that replaces hyper's automatic answer with `status`.
fn parse_error(status: u16) -> HallError {
    let msg = match status {
        431 => "the request head is too large: at most 64 headers and 16 KiB in all",
        414 => "the request target is too long",
        400 => {
            "malformed request: the request line, a header or its framing (Content-Length, Transfer-Encoding) does not parse"
        }
        _ => "the request cannot be served",
    };
    HallError::of_status(status, msg)
}

/// Where hyper's automatic error answer starts in `tail`, if `tail` ends
/// with one: a complete response head, status 400 or more, no
/// `Content-Type`, no `Transfer-Encoding`, `Content-Length` 0 or absent.
/// Returns the offset and the status.
fn automatic_answer(tail: &[u8]) -> Option<(usize, u16)> {
    // hyper's answer is about 100 bytes; look no further back than this.
    let from = tail.len().saturating_sub(512);
    let mut at = from;
    while let Some(i) = find(&tail[at..], b"HTTP/1.1 ") {
        let start = at + i;
        let mut headers = [httparse::EMPTY_HEADER; 16];
        let mut resp = httparse::Response::new(&mut headers);
        if let Ok(httparse::Status::Complete(len)) = resp.parse(&tail[start..])
            && start + len == tail.len()
            && let Some(code) = resp.code
            && code >= 400
        {
            let mut plain = true;
            for h in resp.headers.iter() {
                if h.name.eq_ignore_ascii_case("content-type")
                    || h.name.eq_ignore_ascii_case("transfer-encoding")
                    || (h.name.eq_ignore_ascii_case("content-length") && h.value != b"0")
                {
                    plain = false;
                }
            }
            if plain {
                return Some((start, code));
            }
        }
        at = start + 1;
    }
    None
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

/// The IO under hyper: passes bytes through, holds the connection's
/// [`ConnSlot`], and replaces hyper's automatic error answer with a JSON one
/// (see the module documentation).
pub struct JsonErrors<T> {
    io: T,
    /// The JSON answer still to write, and how much of it is written.
    pending: Vec<u8>,
    written: usize,
    /// hyper's answer was replaced: nothing more goes out, and the close
    /// lingers.
    replaced: bool,
    /// A `101 Switching Protocols` went out: from here on, not HTTP.
    upgraded: bool,
    linger: Option<(Pin<Box<tokio::time::Sleep>>, usize)>,
    _slot: Option<ConnSlot>,
}

impl<T> JsonErrors<T> {
    /// Wraps `io`, holding `slot` until the connection (or the WebSocket it
    /// became) is dropped.
    pub fn new(io: T, slot: Option<ConnSlot>) -> Self {
        JsonErrors {
            io,
            pending: Vec::new(),
            written: 0,
            replaced: false,
            upgraded: false,
            linger: None,
            _slot: slot,
        }
    }
}

impl<T: AsyncWrite + Unpin> JsonErrors<T> {
    /// Writes what is left of the JSON answer.
    fn poll_pending(&mut self, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        while self.written < self.pending.len() {
            let n = ready!(Pin::new(&mut self.io).poll_write(cx, &self.pending[self.written..]))?;
            if n == 0 {
                return Poll::Ready(Err(std::io::ErrorKind::WriteZero.into()));
            }
            self.written += n;
        }
        Poll::Ready(Ok(()))
    }
}

impl<T: AsyncRead + Unpin> AsyncRead for JsonErrors<T> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.io).poll_read(cx, buf)
    }
}

impl<T: AsyncRead + AsyncWrite + Unpin> AsyncWrite for JsonErrors<T> {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        self.poll_write_vectored(cx, &[IoSlice::new(buf)])
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[IoSlice<'_>],
    ) -> Poll<std::io::Result<usize>> {
        let this = &mut *self;
        let total: usize = bufs.iter().map(|b| b.len()).sum();
        if this.replaced {
            ready!(this.poll_pending(cx))?;
            return Poll::Ready(Ok(total));
        }
        if this.upgraded {
            return Pin::new(&mut this.io).poll_write_vectored(cx, bufs);
        }
        if let Some(first) = bufs.iter().find(|b| !b.is_empty())
            && first.starts_with(b"HTTP/1.1 101 ")
        {
            this.upgraded = true;
            return Pin::new(&mut this.io).poll_write_vectored(cx, bufs);
        }
        let Some(last) = bufs.iter().rposition(|b| !b.is_empty()) else {
            return Pin::new(&mut this.io).poll_write_vectored(cx, bufs);
        };
        let Some((start, status)) = automatic_answer(&bufs[last]) else {
            return Pin::new(&mut this.io).poll_write_vectored(cx, bufs);
        };
        let before = total - (bufs[last].len() - start);
        if before > 0 {
            // First what precedes hyper's answer, unchanged; hyper calls
            // again with the rest, which still ends with its answer.
            let mut head: Vec<IoSlice<'_>> = bufs[..last].to_vec();
            head.push(IoSlice::new(&bufs[last][..start]));
            return Pin::new(&mut this.io).poll_write_vectored(cx, &head);
        }
        tracing::debug!(status, "a request hyper could not parse: answered in JSON");
        this.pending = error_response(&parse_error(status));
        this.written = 0;
        this.replaced = true;
        ready!(this.poll_pending(cx))?;
        Poll::Ready(Ok(total))
    }

    fn is_write_vectored(&self) -> bool {
        self.io.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        ready!(self.poll_pending(cx))?;
        Pin::new(&mut self.io).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        let this = &mut *self;
        ready!(this.poll_pending(cx))?;
        if !this.replaced {
            return Pin::new(&mut this.io).poll_shutdown(cx);
        }
        if this.linger.is_none() {
            ready!(Pin::new(&mut this.io).poll_flush(cx))?;
            ready!(Pin::new(&mut this.io).poll_shutdown(cx))?;
            this.linger = Some((Box::pin(tokio::time::sleep(LINGER)), 0));
        }
        // Read and drop what the client still sends until it closes, the
        // time is up or enough was dropped: closing with unread input would
        // reset the connection and could lose the answer.
        let Some((sleep, dropped)) = this.linger.as_mut() else {
            return Poll::Ready(Ok(()));
        };
        let mut scratch = [0u8; 2048];
        loop {
            if *dropped >= LINGER_BYTES || sleep.as_mut().poll(cx).is_ready() {
                return Poll::Ready(Ok(()));
            }
            let mut rb = ReadBuf::new(&mut scratch);
            match Pin::new(&mut this.io).poll_read(cx, &mut rb) {
                Poll::Ready(Ok(())) if rb.filled().is_empty() => return Poll::Ready(Ok(())),
                Poll::Ready(Ok(())) => *dropped += rb.filled().len(),
                Poll::Ready(Err(_)) => return Poll::Ready(Ok(())),
                Poll::Pending => return Poll::Pending,
            }
        }
    }
}

/// Answers a refused connection with `e` and closes it, in the background
/// and bounded by `refusing`; when too many are being answered, closes it
/// at once.
fn refuse(tcp: TcpStream, e: HallError, refusing: &Arc<Semaphore>) {
    let Ok(permit) = refusing.clone().try_acquire_owned() else {
        return;
    };
    tokio::spawn(async move {
        let _permit = permit;
        let mut tcp = tcp;
        let answer = error_response(&e);
        let _ = tokio::time::timeout(LINGER, async {
            tcp.write_all(&answer).await?;
            tcp.shutdown().await?;
            let mut scratch = [0u8; 2048];
            let mut dropped = 0;
            while dropped < LINGER_BYTES {
                let n = tcp.read(&mut scratch).await?;
                if n == 0 {
                    break;
                }
                dropped += n;
            }
            Ok::<_, std::io::Error>(())
        })
        .await;
    });
}

/// Accept errors that concern one connection only (the loop goes on at
/// once); others (out of descriptors) pause accepting briefly.
fn is_connection_error(e: &std::io::Error) -> bool {
    matches!(
        e.kind(),
        std::io::ErrorKind::ConnectionRefused
            | std::io::ErrorKind::ConnectionAborted
            | std::io::ErrorKind::ConnectionReset
    )
}

/// Resolves once `stop` is true or its sender is gone.
async fn stopped(stop: &mut watch::Receiver<bool>) {
    let _ = stop.wait_for(|s| *s).await;
}

/// Serves `app` on `listener` until `stop` turns true (or its sender goes):
/// then stops accepting, lets requests in flight finish and closes idle
/// connections, and returns once every connection has ended. `limits` are
/// the hall's, already fitted to the descriptors.
pub async fn serve(
    listener: TcpListener,
    app: Router,
    limits: Limits,
    mut stop: watch::Receiver<bool>,
) {
    let counts = ConnCounts::default();
    let refusing = Arc::new(Semaphore::new(REFUSING));
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(limits.header_timeout)
        .max_buf_size(MAX_HEAD)
        .max_headers(MAX_HEADERS)
        .keep_alive(true);
    let body_timeout = BodyTimeout(limits.body_timeout);
    // Every connection task holds a receiver; shutdown waits until all are
    // dropped.
    let (live_tx, live_rx) = watch::channel(());
    loop {
        let (tcp, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(a) => a,
                Err(e) if is_connection_error(&e) => continue,
                Err(e) => {
                    tracing::warn!(error = %e, "accept failed");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            () = stopped(&mut stop) => break,
        };
        let slot = match counts.admit(peer.ip(), &limits) {
            Ok(s) => s,
            Err(e) => {
                tracing::debug!(%peer, code = %e.code, "connection refused");
                refuse(tcp, e, &refusing);
                continue;
            }
        };
        let _ = tcp.set_nodelay(true);
        let io = TokioIo::new(JsonErrors::new(tcp, Some(slot)));
        let router = TowerToHyperService::new(app.clone());
        let service = hyper::service::service_fn(move |mut req: hyper::Request<Incoming>| {
            req.extensions_mut().insert(ConnectInfo(peer));
            req.extensions_mut().insert(body_timeout);
            let answer = router.call(req);
            async move {
                let mut r = answer.await?;
                // A client refused for a cap (429) or a full server (503)
                // gives its connection back at once instead of holding it
                // idle until the header timeout.
                if matches!(r.status().as_u16(), 429 | 503) {
                    r.headers_mut().insert(
                        axum::http::header::CONNECTION,
                        axum::http::HeaderValue::from_static("close"),
                    );
                }
                Ok::<_, std::convert::Infallible>(r)
            }
        });
        let conn = http.serve_connection(io, service).with_upgrades();
        let mut stop = stop.clone();
        let live = live_rx.clone();
        tokio::spawn(async move {
            let _live = live;
            tokio::pin!(conn);
            tokio::select! {
                served = conn.as_mut() => {
                    if let Err(e) = served {
                        tracing::debug!(%peer, error = %e, "connection ended");
                    }
                    return;
                }
                () = stopped(&mut stop) => {}
            }
            conn.as_mut().graceful_shutdown();
            let _ = conn.await;
        });
    }
    drop(listener);
    drop(live_rx);
    live_tx.closed().await;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_hypers_answer_only() {
        let hyper_own = b"HTTP/1.1 431 Request Header Fields Too Large\r\nconnection: close\r\ncontent-length: 0\r\ndate: Sun, 06 Nov 1994 08:49:37 GMT\r\n\r\n";
        assert_eq!(automatic_answer(hyper_own), Some((0, 431)));
        let mut after = b"0\r\n\r\n".to_vec();
        after.extend_from_slice(hyper_own);
        assert_eq!(automatic_answer(&after), Some((5, 431)));
        // The router's errors are JSON with a Content-Type.
        let ours = b"HTTP/1.1 404 Not Found\r\ncontent-type: application/json\r\ncontent-length: 0\r\n\r\n";
        assert_eq!(automatic_answer(ours), None);
        // Successes, bodies after the head, and incomplete heads are left.
        assert_eq!(
            automatic_answer(b"HTTP/1.1 204 No Content\r\ncontent-length: 0\r\n\r\n"),
            None
        );
        assert_eq!(
            automatic_answer(b"HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\n\r\nx"),
            None
        );
        assert_eq!(
            automatic_answer(b"HTTP/1.1 400 Bad Request\r\ncontent-length: 2\r\n\r\n"),
            None
        );
        assert_eq!(automatic_answer(b"HTTP/1.1 400 Bad Request\r\n"), None);
    }

    #[test]
    fn caps_connections_per_address_and_in_all() {
        let limits = Limits {
            connections_per_ip: 2,
            max_connections: 3,
            ..Limits::default()
        };
        let c = ConnCounts::default();
        let a: IpAddr = [10, 0, 0, 1].into();
        let s1 = c.admit(a, &limits).expect("1");
        let _s2 = c.admit(a, &limits).expect("2");
        let e = c.admit(a, &limits).err().map(|e| e.code.to_string());
        assert_eq!(e.as_deref(), Some("too_many_connections"));
        let _s3 = c.admit([10, 0, 0, 2].into(), &limits).expect("3");
        let e = c.admit([10, 0, 0, 3].into(), &limits).err();
        assert_eq!(e.map(|e| e.status), Some(503));
        drop(s1);
        assert_eq!(c.total(), 2);
        assert!(c.admit(a, &limits).is_ok());
    }

    #[test]
    fn error_responses_are_complete_json() {
        let r = error_response(&parse_error(400));
        let mut headers = [httparse::EMPTY_HEADER; 8];
        let mut resp = httparse::Response::new(&mut headers);
        let Ok(httparse::Status::Complete(len)) = resp.parse(&r) else {
            panic!("incomplete")
        };
        assert_eq!(resp.code, Some(400));
        let body: serde_json::Value = serde_json::from_slice(&r[len..]).expect("json");
        assert_eq!(body["code"], "bad_request");
    }
}
