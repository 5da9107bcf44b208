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
