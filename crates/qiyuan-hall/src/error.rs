//! The one error type of the API: an HTTP status, a stable machine-readable
//! code that bots can switch on, and a sentence for people. Every error the
//! hall sends, over HTTP or WebSocket, is `{"error": sentence, "code": code}`.

/// The JSON body of every error.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, utoipa::ToSchema)]
#[schema(as = Error)]
pub struct ErrorBody {
    /// What went wrong, as a sentence.
    pub error: String,
    /// A stable machine-readable code (see docs/security.md): bad_request,
    /// out_of_range, malformed_json, invalid_body, bad_query, bad_game,
    /// unknown_game, illegal_move, invalid_username, invalid_password,
    /// no_such_user, unauthorized, wrong_credentials, forbidden,
    /// not_a_player, ai_budget, not_found, no_such_endpoint,
    /// method_not_allowed, conflict, not_your_turn, game_over, claim_refused,
    /// takeback_rated, takeback_unavailable, nothing_to_take_back,
    /// takeback_pending, takeback_declined, no_takeback_request,
    /// not_challenged, chat_unavailable, chat_rate_limited, empty_message,
    /// no_such_message, name_taken,
    /// invitations_pending, not_invited, cross_origin, json_required,
    /// body_too_large, rate_limited, login_throttled, too_many_sockets,
    /// too_many_rooms, guest_rate_limited, too_many_connections, timeout,
    /// uri_too_long, headers_too_large, busy, internal.
    pub code: String,
}

/// An error for the API.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HallError {
    /// HTTP status code (4xx for the client's mistakes, 500 for ours).
    pub status: u16,
    /// Stable code (`snake_case`), documented in the OpenAPI document
    /// (owned only when it came from another node's answer).
    pub code: std::borrow::Cow<'static, str>,
    /// What went wrong, for the client.
    pub message: String,
}

/// Result of a hall operation.
pub type HallResult<T> = Result<T, HallError>;

impl HallError {
    /// An error with this status, code and message.
    pub fn new(status: u16, code: &'static str, msg: impl Into<String>) -> HallError {
        HallError {
            status,
            code: code.into(),
            message: msg.into(),
        }
    }
    /// A 400 Bad Request (`bad_request`).
    pub fn bad(msg: impl Into<String>) -> HallError {
        HallError::new(400, "bad_request", msg)
    }
    /// A 400 for a size-like field outside its documented bounds
    /// (`out_of_range`); the message names the field and the bounds.
    pub fn out_of_range(field: &str, min: i64, max: i64) -> HallError {
        HallError::new(
            400,
            "out_of_range",
            format!("{field} must be {min} to {max}"),
        )
    }
    /// A 401: no, unknown or expired session (`unauthorized`).
    pub fn unauthorized() -> HallError {
        HallError::new(
            401,
            "unauthorized",
            "log in first (Authorization: Bearer TOKEN or the session cookie)",
        )
    }
    /// A 403: allowed for others, not for you (`forbidden`).
    pub fn forbidden(msg: impl Into<String>) -> HallError {
        HallError::new(403, "forbidden", msg)
    }
    /// A 404 (`not_found`).
    pub fn not_found(msg: impl Into<String>) -> HallError {
        HallError::new(404, "not_found", msg)
    }
    /// A 409: right request, wrong moment (`conflict`).
    pub fn conflict(msg: impl Into<String>) -> HallError {
        HallError::new(409, "conflict", msg)
    }
    /// A 429: slow down (`code` says which limit).
    pub fn too_many(code: &'static str, msg: impl Into<String>) -> HallError {
        HallError::new(429, code, msg)
    }
    /// A 503: the server is busy right now; try again shortly (`busy`).
    pub fn busy(msg: impl Into<String>) -> HallError {
        HallError::new(503, "busy", msg)
    }
    /// A 500; the detail goes to the log, not to the client (`internal`).
    pub fn internal(err: impl std::fmt::Display) -> HallError {
        tracing::error!(error = %err, "internal error");
        HallError::new(500, "internal", "internal error")
    }
    /// The same error with a more specific code.
    pub fn with_code(mut self, code: &'static str) -> HallError {
        self.code = code.into();
        self
    }
    /// The error another node answered (`status`, `code`, `message`), passed
    /// on as it is; a code that is not `snake_case` becomes the status's.
    pub fn relayed(status: u16, code: Option<&str>, msg: impl Into<String>) -> HallError {
        let fallback = HallError::new(status, code_for_status(status), msg);
        match code {
            Some(c)
                if !c.is_empty()
                    && c.len() <= 40
                    && c.bytes().all(|b| b.is_ascii_lowercase() || b == b'_') =>
            {
                HallError {
                    code: c.to_string().into(),
                    ..fallback
                }
            }
            _ => fallback,
        }
    }
    /// The JSON body of this error.
    pub fn body(&self) -> serde_json::Value {
        serde_json::json!(ErrorBody {
            error: self.message.clone(),
            code: self.code.to_string(),
        })
    }
}

/// A storage failure as the API reports it: a stale lease (another node
/// took the game over) is a 503 the client retries; anything else is a 500
/// whose detail goes to the log.
impl From<crate::store::StoreError> for HallError {
    fn from(e: crate::store::StoreError) -> HallError {
        match e {
            crate::store::StoreError::StaleLease(_) => {
                HallError::busy("this game is played on another node just now; try again")
            }
            other => HallError::internal(other),
        }
    }
}

/// Client input as an error message quotes it: at most 40 characters, so an
/// error never echoes a huge input back.
pub fn shown(input: &str) -> String {
    if input.chars().count() <= 40 {
        input.to_string()
    } else {
        let mut s: String = input.chars().take(40).collect();
        s.push('…');
        s
    }
}

/// The code a bare status gets when no handler chose one (framework
/// rejections, 405s, 413s).
pub fn code_for_status(status: u16) -> &'static str {
    match status {
        400 => "bad_request",
        401 => "unauthorized",
        403 => "forbidden",
        404 => "not_found",
        405 => "method_not_allowed",
        408 => "timeout",
        409 => "conflict",
        411 => "length_required",
        413 => "body_too_large",
        414 => "uri_too_long",
        415 => "unsupported_media_type",
        422 => "bad_request",
        429 => "rate_limited",
        431 => "headers_too_large",
        503 => "busy",
        s if s >= 500 => "internal",
        _ => "bad_request",
    }
}
