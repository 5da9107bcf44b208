//! A small HTTP/1.1 and WebSocket client for the load tool and the tests:
//! enough to talk to the hall without pulling in a full HTTP client crate.

use anyhow::{Context, Result, bail};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

/// A response: status, headers (lower-case names) and body.
#[derive(Debug, Clone)]
pub struct Reply {
    /// HTTP status.
    pub status: u16,
    /// Headers as (lower-case name, value).
    pub headers: Vec<(String, String)>,
    /// Body text.
    pub body: String,
}

impl Reply {
    /// The body as JSON (`Null` when it is not JSON).
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.body).unwrap_or(serde_json::Value::Null)
    }

    /// The first header called `name` (lower case).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }
}

fn decode_chunked(mut body: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    while let Some(pos) = body.windows(2).position(|w| w == b"\r\n") {
        let size_txt = String::from_utf8_lossy(&body[..pos]);
        let Ok(size) = usize::from_str_radix(size_txt.trim(), 16) else {
            break;
        };
        if size == 0 || body.len() < pos + 2 + size {
            break;
        }
        out.extend_from_slice(&body[pos + 2..pos + 2 + size]);
        body = &body[(pos + 4 + size).min(body.len())..];
    }
    out
}

/// Sends one request to `addr` (`host:port`) and reads the whole response.
/// `extra` are additional raw headers (e.g. a Cookie).
pub async fn request(
    addr: &str,
    method: &str,
    path: &str,
    token: Option<&str>,
    body: Option<&[u8]>,
    extra: &[(&str, &str)],
) -> Result<Reply> {
    let mut s = TcpStream::connect(addr)
        .await
        .with_context(|| format!("connecting to {addr}"))?;
    let mut head = format!("{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n");
    if let Some(t) = token {
        head.push_str(&format!("Authorization: Bearer {t}\r\n"));
    }
    for (k, v) in extra {
        head.push_str(&format!("{k}: {v}\r\n"));
    }
    let body = body.unwrap_or(b"");
    if !body.is_empty() || method == "POST" {
        head.push_str(&format!(
            "Content-Type: application/json\r\nContent-Length: {}\r\n",
            body.len()
        ));
    }
    head.push_str("\r\n");
    s.write_all(head.as_bytes()).await?;
    s.write_all(body).await?;
    let mut raw = Vec::new();
    s.read_to_end(&mut raw).await?;
    let Some(split) = raw.windows(4).position(|w| w == b"\r\n\r\n") else {
        bail!("no HTTP header in the response");
    };
    let head = String::from_utf8_lossy(&raw[..split]).to_string();
    let mut lines = head.lines();
    let status: u16 = lines
        .next()
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|c| c.parse().ok())
        .context("bad status line")?;
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    let rest = &raw[split + 4..];
    let chunked = headers
        .iter()
        .any(|(k, v)| k == "transfer-encoding" && v.contains("chunked"));
    let body = if chunked {
        decode_chunked(rest)
    } else {
        rest.to_vec()
    };
    Ok(Reply {
        status,
        headers,
        body: String::from_utf8_lossy(&body).to_string(),
    })
}

/// POSTs JSON.
pub async fn post(
    addr: &str,
    path: &str,
    token: Option<&str>,
    body: &serde_json::Value,
) -> Result<Reply> {
    let b = body.to_string();
    request(addr, "POST", path, token, Some(b.as_bytes()), &[]).await
}

/// Registers `username` with `password`; the new session's token.
pub async fn register(addr: &str, username: &str, password: &str) -> Result<String> {
    let body = serde_json::json!({"username": username, "password": password});
    let r = post(addr, "/api/register", None, &body).await?;
    anyhow::ensure!(
        r.status == 200,
        "register {username}: {} {}",
        r.status,
        r.body
    );
    r.json()["token"]
        .as_str()
        .map(str::to_string)
        .context("no token in the answer")
}

/// GETs a path.
pub async fn get(addr: &str, path: &str, token: Option<&str>) -> Result<Reply> {
    request(addr, "GET", path, token, None, &[]).await
}

/// A WebSocket stream to the hall.
pub type Socket = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<TcpStream>>;

/// Opens a WebSocket to `path` on `addr`, authenticated by `token` if given.
pub async fn connect_ws(addr: &str, path: &str, token: Option<&str>) -> Result<Socket> {
    let mut req = format!("ws://{addr}{path}").into_client_request()?;
    if let Some(t) = token {
        req.headers_mut()
            .insert("authorization", format!("Bearer {t}").parse()?);
    }
    let (ws, _) = tokio_tungstenite::connect_async(req).await?;
    Ok(ws)
}

/// A client's copy of a game, kept from its socket's frames: a `state`
/// frame replaces it; a `diff` frame replaces everything but the move
/// records before its `from` (see the hall's `domain::game_log`).
#[derive(Default, Clone, Debug)]
pub struct GameCopy {
    state: serde_json::Value,
}

impl GameCopy {
    /// Folds in `frame`; the whole game after it, or `None` for a frame
    /// that is not a game frame (ping, error, rematch).
    pub fn apply(&mut self, frame: &serde_json::Value) -> Option<&serde_json::Value> {
        match frame["t"].as_str() {
            Some("state") => self.state = frame.clone(),
            Some("diff") => {
                // In place: the records and moves before `from` are kept
                // as they are (a copy of each would make a game quadratic).
                let from = frame["from"].as_u64().unwrap_or(0) as usize;
                let mut taken =
                    |key: &str| match self.state.get_mut(key).map(serde_json::Value::take) {
                        Some(serde_json::Value::Array(mut a)) => {
                            a.truncate(from);
                            a
                        }
                        _ => Vec::new(),
                    };
                let (mut records, mut moves) = (taken("records"), taken("moves"));
                for r in frame["records"].as_array().into_iter().flatten() {
                    moves.push(r["iccs"].clone());
                    records.push(r.clone());
                }
                let mut next = serde_json::Map::new();
                if let Some(fields) = frame.as_object() {
                    for (k, v) in fields {
                        if k != "records" && k != "moves" {
                            next.insert(k.clone(), v.clone());
                        }
                    }
                }
                next.insert("moves".into(), moves.into());
                next.insert("records".into(), records.into());
                next.insert("from".into(), 0.into());
                next.insert("t".into(), "state".into());
                self.state = serde_json::Value::Object(next);
            }
            _ => return None,
        }
        Some(&self.state)
    }

    /// The game as last folded (`null` before the first frame).
    pub fn state(&self) -> &serde_json::Value {
        &self.state
    }
}

/// A game socket with the client's copy of the game: what a page or bot
/// keeps. Derefs to the socket for sending.
pub struct GameSocket {
    /// The socket.
    pub ws: Socket,
    /// The game as folded from the frames read so far.
    pub game: GameCopy,
    /// Bytes of game frames read so far.
    pub game_bytes: usize,
}

impl GameSocket {
    /// Opens `/api/games/{id}/ws` (with `query`, e.g. `?since=V`).
    pub async fn connect(addr: &str, path: &str, token: Option<&str>) -> Result<GameSocket> {
        Ok(GameSocket {
            ws: connect_ws(addr, path, token).await?,
            game: GameCopy::default(),
            game_bytes: 0,
        })
    }

    /// The next text frame, folded into [`GameSocket::game`] if it is a game
    /// frame (pings are answered); `None` when the socket closed.
    pub async fn next_frame(&mut self) -> Option<serde_json::Value> {
        use futures_util::{SinkExt, StreamExt};
        use tokio_tungstenite::tungstenite::Message;
        loop {
            let msg = self.ws.next().await?.ok()?;
            let Message::Text(t) = msg else { continue };
            let v: serde_json::Value = serde_json::from_str(t.as_str()).ok()?;
            if v["t"] == "ping" {
                let pong = serde_json::json!({"t": "pong", "id": v["id"]});
                let _ = self.ws.send(Message::Text(pong.to_string().into())).await;
            }
            if self.game.apply(&v).is_some() {
                self.game_bytes += t.len();
            }
            return Some(v);
        }
    }

    /// Reads frames until a game frame; the whole game after it.
    pub async fn next_state(&mut self) -> Result<serde_json::Value> {
        Ok(self.next_state_ref().await?.clone())
    }

    /// The same, borrowed from [`GameSocket::game`] (no copy of the game).
    pub async fn next_state_ref(&mut self) -> Result<&serde_json::Value> {
        loop {
            let v = self.next_frame().await.context("socket closed")?;
            match v["t"].as_str() {
                Some("state" | "diff") => return Ok(self.game.state()),
                Some("error") => anyhow::bail!("server error: {}", v["error"]),
                _ => {}
            }
        }
    }
}

impl std::ops::Deref for GameSocket {
    type Target = Socket;
    fn deref(&self) -> &Socket {
        &self.ws
    }
}

impl std::ops::DerefMut for GameSocket {
    fn deref_mut(&mut self) -> &mut Socket {
        &mut self.ws
    }
}

/// An NDJSON stream read line by line over a raw connection (HTTP/1.1,
/// chunked): what a bot reading `GET /api/stream/event` sees.
pub struct NdjsonLines {
    lines: tokio::io::Lines<tokio::io::BufReader<TcpStream>>,
}

impl NdjsonLines {
    /// The next JSON object line (headers, chunk sizes and keep-alive empty
    /// lines are skipped); `None` when the stream ended.
    pub async fn next_json(&mut self) -> Option<serde_json::Value> {
        while let Ok(Some(line)) = self.lines.next_line().await {
            if let Ok(v @ serde_json::Value::Object(_)) = serde_json::from_str(line.trim()) {
                return Some(v);
            }
        }
        None
    }
}

/// Opens the NDJSON stream at `path` with `token`.
pub async fn stream_lines(addr: &str, path: &str, token: Option<&str>) -> Result<NdjsonLines> {
    use tokio::io::{AsyncBufReadExt, AsyncWriteExt};
    let mut conn = TcpStream::connect(addr).await?;
    let auth = token.map_or(String::new(), |t| format!("Authorization: Bearer {t}\r\n"));
    conn.write_all(format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\n{auth}\r\n").as_bytes())
        .await?;
    Ok(NdjsonLines {
        lines: tokio::io::BufReader::new(conn).lines(),
    })
}

#[cfg(test)]
mod tests {
    use super::GameCopy;
    use serde_json::json;

    #[test]
    fn diffs_fold_into_the_whole_game() {
        let mut g = GameCopy::default();
        g.apply(&json!({"t": "state", "version": 1, "from": 0,
            "records": [{"iccs": "a"}, {"iccs": "b"}], "moves": ["a", "b"], "legal": ["x"]}));
        let s = g
            .apply(&json!({"t": "diff", "version": 2, "from": 2, "records": [{"iccs": "c"}], "moves": ["c"]}))
            .expect("a game frame")
            .clone();
        assert_eq!(s["moves"], json!(["a", "b", "c"]));
        assert_eq!(s["version"], 2);
        // Keys the diff no longer has (legal moves) are gone.
        assert!(s.get("legal").is_none());
        // A diff from an earlier ply replaces the records from there.
        let s = g
            .apply(&json!({"t": "diff", "version": 3, "from": 1, "records": [{"iccs": "B"}, {"iccs": "c"}]}))
            .expect("a game frame");
        assert_eq!(s["moves"], json!(["a", "B", "c"]));
        assert!(g.apply(&json!({"t": "ping", "id": 1})).is_none());
    }
}
