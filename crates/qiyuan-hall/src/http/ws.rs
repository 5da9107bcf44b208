//! WebSocket play: `/api/games/{id}/ws` (players and spectators) and
//! `/api/lobby/ws` (live lobby).
//!
//! Client frames (JSON text): `{"t":"move","move":"h2e2"}`, `{"t":"resign"}`,
//! `{"t":"draw","action":"offer"|"accept"|"decline"}`,
//! `{"t":"takeback","action":"offer"|"accept"|"decline"}`,
//! `{"t":"chat","text":"..."}` (players; see [`crate::domain::chat`]), `{"t":"claim"}`,
//! `{"t":"rematch"}`, `{"t":"ping","id":N}`, `{"t":"pong","id":N}`.
//! The lobby socket sends the whole lobby first (`{"t":"lobby",...}`; a
//! large one split: its oldest entries, then a `lobby_change` per newer
//! entry, see [`Hall::lobby_frames`]), then each change.
//! Server frames: `{"t":"state",...}`, the whole game as this client may see
//! it (with `seat` and `legal` for a player); then one `{"t":"diff",...}` per
//! change, the same fields but only the move records from ply `from` on
//! (see [`crate::domain::game_log`]); `{"t":"error","error","code","details"?}`,
//! `{"t":"rematch","id":...}`, `{"t":"ping","id":N}`, `{"t":"pong","id":N}`,
//! and for players `{"t":"chat","id","seat","text","at_ms"}` (no version).
//! A client that reconnects with `?since=V` (the last `version` it saw) gets
//! only the diffs it missed, or a `state` if they are no longer kept. The
//! server pings every few seconds and uses the round trips to credit
//! network time on moves (see [`crate::clock`]).
//!
//! Bounds: frames and messages of at most [`MAX_FRAME`] bytes, small
//! read/write buffers (an idle socket costs a few KB), a cap on open sockets
//! per address and per user ([`crate::domain::sockets`]), and a socket that sends
//! nothing at all (not even the automatic reply to a protocol ping) for
//! [`crate::limits::Limits::socket_idle`] is closed.

use std::collections::VecDeque;
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{ConnectInfo, Path, State};
use axum::http::HeaderMap;
use axum::response::Response;
use futures_util::{SinkExt, StreamExt};
use serde::Deserialize;
use serde_json::{Value, json};
use tokio::sync::broadcast::error::RecvError;

use crate::domain::bus::LOBBY;
use crate::domain::chat::chat_topic;
use crate::domain::game_log::Audience;
use crate::domain::hall::{Hall, HallError};
use crate::domain::view::topic;
use crate::http::api::{AppState, QueryArgs, current_user};
use crate::http::auth::MaybeSignedIn;
use crate::store::User;

use crate::domain::command::Answer;
use crate::domain::sockets::SocketSlot;
use crate::error::ErrorCode;
use crate::http::frames::{ClientFrame, FRAME_TYPES};
pub use crate::limits::MAX_FRAME;

/// Read buffer of a socket (the library's default is 128 KiB a socket).
const READ_BUFFER: usize = 4 * 1024;
/// Write buffer of a socket, and the most it may hold before sends wait.
const WRITE_BUFFER: usize = 8 * 1024;
const MAX_WRITE_BUFFER: usize = 256 * 1024;
/// A lobby socket's read buffer: its client sends only pongs and a close.
const LOBBY_READ_BUFFER: usize = 512;
/// The most a lobby socket's first frame holds (a larger lobby follows as
/// changes: see [`Hall::lobby_frames`]), and so about the most its write
/// buffer ever holds.
const LOBBY_FRAME_BUDGET: usize = 4 * 1024;
/// Frames per second a socket may send (burst 20).
const FRAME_RATE: f64 = 10.0;
/// Interval of server pings.
const PING_EVERY: Duration = Duration::from_secs(3);

/// The query of a game socket.
#[derive(Deserialize)]
pub struct SocketQuery {
    /// The last version the client saw (a reconnect).
    #[serde(default)]
    since: Option<u64>,
}

/// `GET /api/games/{id}/ws`.
pub async fn game_socket(
    State(hall): State<AppState>,
    Path(id): Path<String>,
    QueryArgs(query): QueryArgs<SocketQuery>,
    ConnectInfo(peer): ConnectInfo<std::net::SocketAddr>,
    headers: HeaderMap,
    ws: WebSocketUpgrade,
) -> Result<Response, HallError> {
    let user = current_user(&hall, &headers).await?;
    // 404 before upgrading for an unknown game.
    hall.state(&id, None).await?;
    let slot = admit(&hall, peer, user.as_ref())?;
    // With several nodes, a move may have to be sent on with these.
    let creds = crate::cluster::forward::Credentials::of(&headers);
    Ok(bounded(ws).on_upgrade(move |socket| async move {
        hall.metrics.sockets.inc();
        let user_id = user.as_ref().map(|u| u.id);
        run_game_socket(hall.clone(), id, user, query.since, socket, creds).await;
        hall.metrics.sockets.dec();
        if let Some(u) = user_id {
            hall.presence.seen(u);
        }
        drop(slot);
    }))
}

fn admit(
    hall: &Hall,
    peer: std::net::SocketAddr,
    user: Option<&User>,
) -> Result<SocketSlot, HallError> {
    hall.sockets
        .admit(peer.ip(), user.map(|u| u.id), &hall.limits)
        .inspect_err(|_| {
            hall.metrics.sockets_refused.inc();
        })
}

/// The frame, message and buffer bounds of every socket.
fn bounded(ws: WebSocketUpgrade) -> WebSocketUpgrade {
    ws.max_message_size(MAX_FRAME)
        .max_frame_size(MAX_FRAME)
        .read_buffer_size(READ_BUFFER)
        .write_buffer_size(WRITE_BUFFER)
        .max_write_buffer_size(MAX_WRITE_BUFFER)
}

/// How often a socket is pinged: often enough that a client that answers
/// is never taken for idle.
fn ping_every(hall: &Hall) -> Duration {
    PING_EVERY
        .min(hall.limits.socket_idle / 3)
        .max(Duration::from_millis(100))
}

/// When a socket that has been silent since `last_heard` is closed.
fn idle_deadline(hall: &Hall, last_heard: Instant) -> tokio::time::Instant {
    tokio::time::Instant::from_std(last_heard + hall.limits.socket_idle)
}

/// A token bucket for one socket's frames.
struct Bucket {
    tokens: f64,
    last: Instant,
}

impl Bucket {
    fn take(&mut self) -> bool {
        let now = Instant::now();
        self.tokens =
            (self.tokens + now.duration_since(self.last).as_secs_f64() * FRAME_RATE).min(20.0);
        self.last = now;
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

/// `{"t": "error", "error", "code", "details"?}`: the HTTP error body, framed.
fn error_frame(e: &HallError) -> Message {
    let mut frame = e.body();
    if let Some(o) = frame.as_object_mut() {
        o.insert("t".into(), json!("error"));
    }
    Message::Text(frame.to_string().into())
}

/// Sends `frames` in order; false once the socket is gone.
async fn send_all<S>(tx: &mut S, frames: Vec<Arc<str>>) -> bool
where
    S: SinkExt<Message> + Unpin,
{
    for f in frames {
        if tx.send(Message::Text(f.as_ref().into())).await.is_err() {
            return false;
        }
    }
    true
}

/// The version in a frame (every frame of the event log has one).
fn version_of(frame: &str) -> Option<u64> {
    #[derive(Deserialize)]
    struct Versioned {
        version: u64,
    }
    serde_json::from_str::<Versioned>(frame)
        .ok()
        .map(|v| v.version)
}

async fn run_game_socket(
    hall: Arc<Hall>,
    id: String,
    user: Option<User>,
    since: Option<u64>,
    socket: WebSocket,
    creds: crate::cluster::forward::Credentials,
) {
    let (mut tx, mut rx) = socket.split();
    let mut shutdown = hall.shutdown.clone();
    // Subscribe to this client's audience before catching up, so no frame
    // falls between the two.
    let seat_now = match &user {
        Some(u) => hall.seat_in(&id, u).await.ok().flatten(),
        None => None,
    };
    let audience = |seat: Option<usize>| seat.map_or(Audience::Spectators, Audience::Seat);
    // Counted among the game's watchers while not seated (before its
    // first frame is made, so that frame counts this socket too).
    let mut watching = seat_now.is_none().then(|| hall.watchers.watch(&id));
    let mut events = hall.bus.subscribe(&topic(&id, audience(seat_now)));
    let Ok((frames, mut version, mut seat)) =
        hall.catch_up(&id, user.as_ref(), since, seat_now).await
    else {
        return;
    };
    if seat != seat_now {
        // Seated a moment ago: frames from now on come on the seat's topic.
        events = hall.bus.subscribe(&topic(&id, audience(seat)));
    }
    if seat.is_some() {
        drop(watching.take());
    }
    if !send_all(&mut tx, frames).await {
        return;
    }
    // A player's chat messages come on a topic of their own.
    let mut chat = seat.map(|s| hall.bus.subscribe(&chat_topic(&id, s)));
    let mut bucket = Bucket {
        tokens: 20.0,
        last: Instant::now(),
    };
    let mut rtts: VecDeque<i64> = VecDeque::with_capacity(8);
    let mut pings: VecDeque<(u64, Instant)> = VecDeque::new();
    let mut ping_id = 0u64;
    let mut ping_timer = tokio::time::interval(ping_every(&hall));
    let mut last_heard = Instant::now();
    loop {
        tokio::select! {
            _ = shutdown.changed() => {
                let _ = tx.send(Message::Close(None)).await;
                return;
            }
            _ = tokio::time::sleep_until(idle_deadline(&hall, last_heard)) => {
                hall.metrics.sockets_idle_closed.inc();
                let _ = tx.send(Message::Close(None)).await;
                return;
            }
            _ = ping_timer.tick() => {
                ping_id += 1;
                pings.push_back((ping_id, Instant::now()));
                if pings.len() > 8 { pings.pop_front(); }
                if tx.send(Message::Text(json!({"t":"ping","id":ping_id}).to_string().into())).await.is_err() {
                    return;
                }
                // A protocol ping too: clients answer it by themselves.
                if tx.send(Message::Ping(Default::default())).await.is_err() {
                    return;
                }
            }
            ev = events.recv() => {
                let frames = match ev {
                    // The next frame of this socket's audience: send it as is.
                    Ok(f) if version_of(&f) == Some(version + 1) && (seat.is_some() || user.is_none()) => {
                        version += 1;
                        vec![f]
                    }
                    Err(RecvError::Closed) => return,
                    // Fell behind, a person watching who may have taken a
                    // seat, or a frame out of order: catch up from the log.
                    _ => {
                        let before = seat;
                        let Ok((frames, v, s)) = hall.catch_up(&id, user.as_ref(), Some(version), seat).await else {
                            return;
                        };
                        (version, seat) = (v, s);
                        if seat != before && let Some(s) = seat {
                            events = hall.bus.subscribe(&topic(&id, Audience::Seat(s)));
                            chat = Some(hall.bus.subscribe(&chat_topic(&id, s)));
                            // A seat's socket no longer watches.
                            drop(watching.take());
                        }
                        frames
                    }
                };
                if !send_all(&mut tx, frames).await {
                    return;
                }
            }
            line = next_chat(&mut chat) => match line {
                Ok(f) => {
                    if tx.send(Message::Text(f.as_ref().into())).await.is_err() {
                        return;
                    }
                }
                // Missed messages are read again with GET .../chat.
                Err(RecvError::Lagged(_)) => {}
                Err(RecvError::Closed) => chat = None,
            },
            msg = rx.next() => {
                last_heard = Instant::now();
                let text = match msg {
                    None | Some(Err(_)) | Some(Ok(Message::Close(_))) => return,
                    Some(Ok(Message::Text(t))) => t,
                    Some(Ok(Message::Binary(_))) => {
                        if tx.send(error_frame(&HallError::bad("binary frames are not accepted; send JSON text").with_code(ErrorCode::BadFrame))).await.is_err() { return; }
                        continue;
                    }
                    Some(Ok(_)) => continue,
                };
                if !bucket.take() {
                    if tx.send(error_frame(&HallError::new(ErrorCode::RateLimited, "too many frames: slow down"))).await.is_err() { return; }
                    continue;
                }
                let frame: ClientFrame = match serde_json::from_str(text.as_str()) {
                    Ok(f) => f,
                    Err(e) => {
                        if tx.send(error_frame(&HallError::bad(format!("malformed frame: {e}")).with_code(ErrorCode::BadFrame))).await.is_err() { return; }
                        continue;
                    }
                };
                let lag = median(&rtts);
                let reply = handle_frame(&hall, &id, user.as_ref(), seat, &frame, lag, &mut pings, &mut rtts, &creds).await;
                if let Some(m) = reply
                    && tx.send(m).await.is_err() {
                        return;
                    }
            }
        }
    }
}

/// The next chat message of a player's socket (never, for a spectator's).
async fn next_chat(
    chat: &mut Option<crate::domain::bus::Subscription>,
) -> Result<Arc<str>, RecvError> {
    match chat {
        Some(rx) => rx.recv().await,
        None => std::future::pending().await,
    }
}

fn median(v: &VecDeque<i64>) -> i64 {
    if v.is_empty() {
        return 0;
    }
    let mut s: Vec<i64> = v.iter().copied().collect();
    s.sort_unstable();
    s[s.len() / 2]
}

#[allow(clippy::too_many_arguments)]
async fn handle_frame(
    hall: &Arc<Hall>,
    id: &str,
    user: Option<&User>,
    seat: Option<usize>,
    f: &ClientFrame,
    lag: i64,
    pings: &mut VecDeque<(u64, Instant)>,
    rtts: &mut VecDeque<i64>,
    creds: &crate::cluster::forward::Credentials,
) -> Option<Message> {
    let need_player = || -> Result<&User, HallError> {
        match (user, seat) {
            (Some(u), Some(_)) => Ok(u),
            (None, _) => Err(HallError::unauthorized()),
            _ => Err(HallError::forbidden("you are not a player in this game")),
        }
    };
    // A player's action on a game another node plays goes to that node, as
    // its HTTP request; the change comes back through the bus.
    if need_player().is_ok()
        && let Some((action, body)) = as_post(f)
        && let Some(addr) = crate::cluster::forward::owner_elsewhere(hall, id).await
    {
        let res = crate::cluster::forward::action_to(&addr, id, creds, action, body).await;
        return match res {
            Ok(answer) if matches!(f, ClientFrame::Rematch {}) => Some(Message::Text(
                json!({"t":"rematch","id":answer["rematch_id"]})
                    .to_string()
                    .into(),
            )),
            Ok(_) => None,
            Err(e) => Some(error_frame(&e)),
        };
    }
    let res: Result<Option<Value>, HallError> = match f {
        ClientFrame::Ping { id } => {
            return Some(Message::Text(
                json!({"t":"pong","id":id}).to_string().into(),
            ));
        }
        ClientFrame::Pong { id } => {
            if let Some(pid) = id
                && let Some(pos) = pings.iter().position(|(p, _)| p == pid)
                && let Some((_, at)) = pings.remove(pos)
            {
                rtts.push_back(at.elapsed().as_millis() as i64);
                if rtts.len() > 5 {
                    rtts.pop_front();
                }
            }
            return None;
        }
        ClientFrame::Move { mv } => match (need_player(), mv.as_deref()) {
            (Err(e), _) => Err(e),
            (Ok(_), None) => Err(HallError::bad("a move frame needs \"move\"")),
            // The state reaches the player through the event bus.
            (Ok(u), Some(mv)) => hall.play(id, u, mv, lag, false).await.map(|_| None),
        },
        ClientFrame::Resign {} => match need_player() {
            Ok(u) => hall.resign(id, u).await.map(|_| None),
            Err(e) => Err(e),
        },
        ClientFrame::Draw { action } => match need_player() {
            Ok(u) => hall
                .draw(id, u, action.unwrap_or_default())
                .await
                .map(|_| None),
            Err(e) => Err(e),
        },
        ClientFrame::Takeback { action } => match need_player() {
            Ok(u) => hall
                .takeback(id, u, action.unwrap_or_default())
                .await
                .map(|_| None),
            Err(e) => Err(e),
        },
        ClientFrame::Chat { text } => match (need_player(), text.as_deref()) {
            (Err(e), _) => Err(e),
            (Ok(_), None) => Err(HallError::bad("a chat frame needs \"text\"")),
            // The message reaches the players (this one too) through the bus.
            (Ok(u), Some(text)) => hall.chat_send(id, u, text).await.map(|_| None),
        },
        ClientFrame::Claim {} => match need_player() {
            Ok(u) => hall.claim(id, u).await.map(|_| None),
            Err(e) => Err(e),
        },
        ClientFrame::Rematch {} => match need_player() {
            Ok(u) => hall
                .rematch(id, u)
                .await
                .map(|r| r.map(|rid| json!({"t":"rematch","id":rid}))),
            Err(e) => Err(e),
        },
        ClientFrame::Unknown => Err(HallError::bad(format!(
            "unknown frame type: t must be one of {FRAME_TYPES}"
        ))
        .with_code(ErrorCode::BadFrame)),
    };
    match res {
        Ok(Some(v)) => Some(Message::Text(v.to_string().into())),
        Ok(None) => None,
        Err(e) => Some(error_frame(&e)),
    }
}

/// The HTTP form of a player's frame: the action under
/// `/api/games/{id}/` and its body (`None` for a frame that is not an
/// action, or lacks what it needs: that is refused where it arrived).
fn as_post(f: &ClientFrame) -> Option<(&'static str, Option<Value>)> {
    let answer = |a: &Option<Answer>| json!({"action": a.unwrap_or_default()});
    Some(match f {
        ClientFrame::Move { mv } => ("moves", Some(json!({"move": mv.as_deref()?}))),
        ClientFrame::Resign {} => ("resign", None),
        ClientFrame::Draw { action } => ("draw", Some(answer(action))),
        ClientFrame::Takeback { action } => ("takeback", Some(answer(action))),
        ClientFrame::Chat { text } => ("chat", Some(json!({"text": text.as_deref()?}))),
        ClientFrame::Claim {} => ("claim", None),
        ClientFrame::Rematch {} => ("rematch", None),
        ClientFrame::Ping { .. } | ClientFrame::Pong { .. } | ClientFrame::Unknown => return None,
    })
}

/// `GET /api/lobby/ws`: the lobby, then each change.
pub async fn lobby_socket(
    State(hall): State<AppState>,
    ConnectInfo(peer): ConnectInfo<std::net::SocketAddr>,
    MaybeSignedIn(user): MaybeSignedIn,
    ws: WebSocketUpgrade,
) -> Result<Response, HallError> {
    let slot = admit(&hall, peer, user.as_ref())?;
    let ws = bounded(ws)
        .read_buffer_size(LOBBY_READ_BUFFER)
        .write_buffer_size(LOBBY_FRAME_BUDGET);
    Ok(ws.on_upgrade(move |socket| async move {
        hall.metrics.sockets.inc();
        run_lobby_socket(hall.clone(), socket, user.as_ref().map(|u| u.id)).await;
        hall.metrics.sockets.dec();
        drop(slot);
        // Here until the socket ended (an open socket counts as here).
        if let Some(u) = &user {
            hall.presence.seen(u.id);
            // Closing the last lobby leaves the pools (the page is gone).
            if hall.sockets.of_user(u.id) == 0 {
                hall.leave_pools(u.id);
            }
        }
    }))
}

/// Sends the whole lobby in frames of at most about [`LOBBY_FRAME_BUDGET`]
/// bytes, written together; false once the socket is gone.
async fn send_lobby(hall: &Hall, socket: &mut WebSocket) -> bool {
    for f in hall.lobby_frames(LOBBY_FRAME_BUDGET) {
        if socket.feed(Message::Text(f.as_ref().into())).await.is_err() {
            return false;
        }
    }
    socket.flush().await.is_ok()
}

/// The lobby's changes, and for a signed-in user their own events
/// (`gameStart`, challenges: see [`crate::domain::user_events`]).
async fn run_lobby_socket(hall: Arc<Hall>, mut socket: WebSocket, user: Option<i64>) {
    let mut events = hall.bus.subscribe(LOBBY);
    let mut mine = user.map(|id| hall.bus.subscribe(&crate::domain::user_events::topic(id)));
    let mut shutdown = hall.shutdown.clone();
    if !send_lobby(&hall, &mut socket).await {
        return;
    }
    let mut ping_timer = tokio::time::interval(ping_every(&hall));
    // One timer for the whole socket, moved on when the client is heard
    // from (a timer made afresh at every wake-up cost each push to every
    // lobby socket a timer registration and removal).
    let idle = tokio::time::sleep_until(idle_deadline(&hall, Instant::now()));
    tokio::pin!(idle);
    loop {
        tokio::select! {
            _ = shutdown.changed() => return,
            _ = &mut idle => {
                hall.metrics.sockets_idle_closed.inc();
                let _ = socket.send(Message::Close(None)).await;
                return;
            }
            _ = ping_timer.tick() => {
                if socket.send(Message::Ping(Default::default())).await.is_err() {
                    return;
                }
            }
            ev = events.recv() => {
                // Each change alone (a room listed, changed or gone); a
                // socket that fell behind gets the whole lobby again.
                let text: Arc<str> = match ev {
                    Ok(change) => change,
                    Err(RecvError::Lagged(_)) => {
                        if !send_lobby(&hall, &mut socket).await {
                            return;
                        }
                        continue;
                    }
                    Err(RecvError::Closed) => return,
                };
                if socket.send(Message::Text(text.as_ref().into())).await.is_err() {
                    return;
                }
            }
            ev = async { match mine.as_mut() { Some(rx) => rx.recv().await, None => std::future::pending().await } } => {
                // A user's events are few and each stands alone: one
                // missed (lagged) is skipped.
                match ev {
                    Ok(text) => {
                        if socket.send(Message::Text(text.as_ref().into())).await.is_err() {
                            return;
                        }
                    }
                    Err(RecvError::Lagged(_)) => {}
                    Err(RecvError::Closed) => return,
                }
            }
            msg = socket.recv() => {
                idle.as_mut().reset(idle_deadline(&hall, Instant::now()));
                match msg {
                    None | Some(Err(_)) | Some(Ok(Message::Close(_))) => return,
                    _ => {}
                }
            }
        }
    }
}
