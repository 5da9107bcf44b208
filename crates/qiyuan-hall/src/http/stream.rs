//! The one NDJSON stream helper: the current state as the first line, then
//! each event of a bus subscription (a subscriber that fell behind gets a
//! fresh full line from its resync, where the events are diffs), a keep-alive empty line every
//! [`KEEP_ALIVE`] (so a client that went away is noticed and its
//! subscription dropped even when nothing happens), and the end of the
//! stream (and of its connection) once the watched thing is over or the
//! server shuts down. A stream holds a [`SocketSlot`] (see `sockets.rs`)
//! until it ends, so streams are capped per address, per user and in all
//! together with WebSockets and long polls.

use std::sync::Arc;
use std::time::Duration;

use axum::body::Body;
use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Response};
use futures_util::StreamExt;
use futures_util::future::BoxFuture;
use serde_json::Value;
use tokio::sync::broadcast::error::RecvError;
use tokio::sync::watch;

use crate::domain::bus::Subscription;
use crate::domain::sockets::SocketSlot;

/// How often an idle stream sends an empty line.
pub const KEEP_ALIVE: Duration = Duration::from_secs(15);

/// Whether a line is the last one of its stream (a finished game or event).
pub type IsFinal = fn(&Value) -> bool;

/// The full current line for a subscriber that missed events.
pub type Resync = Arc<dyn Fn() -> BoxFuture<'static, Option<String>> + Send + Sync>;

/// An NDJSON response: the `first` lines, then the subscription's events until
/// `is_final` says one was the last. Without `resync`, missed events are
/// skipped (each event is the whole thing). `slot` (from
/// `hall.sockets.admit`) is given back when the stream ends or its client
/// goes, and so is `held` (whatever else lasts as long as the stream: a
/// game's [`crate::domain::watchers::Watching`]).
pub fn ndjson(
    first: Vec<Value>,
    rx: Subscription,
    shutdown: watch::Receiver<bool>,
    is_final: IsFinal,
    resync: Option<Resync>,
    slot: SocketSlot,
    held: impl Send + 'static,
) -> Response {
    let over = first.iter().any(is_final);
    let head = futures_util::stream::iter(
        first
            .into_iter()
            .map(|line| Ok::<_, std::convert::Infallible>(format!("{line}\n"))),
    );
    let state = (rx, shutdown, over, tokio::time::interval(KEEP_ALIVE));
    let rest = futures_util::stream::unfold(
        state,
        move |(mut rx, mut shutdown, over, mut tick)| {
            let resync = resync.clone();
            async move {
                if over {
                    return None;
                }
                tick.reset();
                loop {
                    tokio::select! {
                        ev = rx.recv() => match ev {
                            Ok(e) => {
                                let last = serde_json::from_str::<Value>(&e).is_ok_and(|v| is_final(&v));
                                return Some((Ok(format!("{e}\n")), (rx, shutdown, last, tick)));
                            }
                            Err(RecvError::Lagged(_)) => match &resync {
                                Some(full) => {
                                    let line = full().await?;
                                    let last = serde_json::from_str::<Value>(&line).is_ok_and(|v| is_final(&v));
                                    return Some((Ok(format!("{line}\n")), (rx, shutdown, last, tick)));
                                }
                                None => continue,
                            },
                            Err(RecvError::Closed) => return None,
                        },
                        _ = tick.tick() => return Some((Ok("\n".to_string()), (rx, shutdown, false, tick))),
                        _ = shutdown.changed() => return None,
                    }
                }
            }
        },
    );
    // The body owns the slot: dropping the body (the end of the stream, or
    // of its connection) frees the place.
    let lines = head.chain(rest).map(move |line| {
        let _held = (&slot, &held);
        line
    });
    let mut r = Body::from_stream(lines).into_response();
    r.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/x-ndjson"),
    );
    // A stream is the connection's last answer: once it ends the server
    // closes the connection, so a client that reads to the end of the
    // connection (not only of the chunked body) sees the end too.
    r.headers_mut()
        .insert(header::CONNECTION, HeaderValue::from_static("close"));
    r
}
