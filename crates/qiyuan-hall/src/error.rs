//! The one error type of the API: an HTTP status, a stable machine-readable
//! code that bots can switch on, and a sentence for people. Every error the
//! hall sends, over HTTP or WebSocket, is `{"error": sentence, "code": code}`,
//! with `details` when the sentence carries values (a name, bounds, a
//! reason): a client writes its own sentence, in its own language, from
//! `code` and `details` (the page never shows the English sentence).

/// Declares [`ErrorCode`]: each code once, with its text and its status.
macro_rules! error_codes {
    ($($(#[doc = $doc:literal])* $name:ident = ($text:literal, $status:literal),)*) => {
        /// Every code the hall answers with: the one list that gives each
        /// code its text, its HTTP status and its OpenAPI entry (the `code`
        /// field of the Error schema is this enum). Bots switch on the text.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
        pub enum ErrorCode {
            $($(#[doc = $doc])* #[serde(rename = $text)] $name,)*
        }

        impl ErrorCode {
            /// Every code, in the order declared.
            pub const ALL: &'static [ErrorCode] = &[$(ErrorCode::$name,)*];

            /// The code as bots read it (`snake_case`).
            pub fn as_str(self) -> &'static str {
                match self { $(ErrorCode::$name => $text,)* }
            }

            /// The HTTP status an error with this code gets.
            pub fn status(self) -> u16 {
                match self { $(ErrorCode::$name => $status,)* }
            }

            /// The code written `text`, if there is one.
            pub fn parse(text: &str) -> Option<ErrorCode> {
                match text { $($text => Some(ErrorCode::$name),)* _ => None }
            }
        }
    };
}

error_codes! {
    /// A request the hall cannot read or act on.
    BadRequest = ("bad_request", 400),
    /// A size-like field outside its documented bounds.
    OutOfRange = ("out_of_range", 400),
    /// A body that is not JSON.
    MalformedJson = ("malformed_json", 400),
    /// A JSON body with the wrong fields or values.
    InvalidBody = ("invalid_body", 400),
    /// A query string with the wrong fields or values.
    BadQuery = ("bad_query", 400),
    /// A socket frame the hall cannot read.
    BadFrame = ("bad_frame", 400),
    /// A game that cannot be set up as asked (start position, seats).
    BadGame = ("bad_game", 400),
    /// A room option the game does not have or does not allow.
    BadOption = ("bad_option", 400),
    /// A preset the hall cannot use.
    BadPreset = ("bad_preset", 400),
    /// A preset name that is empty, too long or unprintable.
    BadPresetName = ("bad_preset_name", 400),
    /// More presets than one account may keep.
    TooManyPresets = ("too_many_presets", 400),
    /// A study that cannot be saved (details: `why`: `name`, `tree` or `size`).
    BadStudy = ("bad_study", 400),
    /// More studies than one account may keep (details: `max`).
    TooManyStudies = ("too_many_studies", 409),
    /// A two-seat event asked for a game with another number of seats.
    NotTwoSeats = ("not_two_seats", 400),
    /// A game kind the registry does not have.
    UnknownGame = ("unknown_game", 400),
    /// A move the rules do not allow here.
    IllegalMove = ("illegal_move", 400),
    /// A user name that breaks the naming rules.
    InvalidUsername = ("invalid_username", 400),
    /// A password that breaks the password rules.
    InvalidPassword = ("invalid_password", 400),
    /// A user name nobody has.
    NoSuchUser = ("no_such_user", 400),
    /// A chat line with nothing in it.
    EmptyMessage = ("empty_message", 400),
    /// A game file that cannot be read (details: `why`, and `place`:
    /// `{line, column}` or `{byte}` where the file has one).
    ImportInvalid = ("import_invalid", 400),
    /// No, unknown or expired session.
    Unauthorized = ("unauthorized", 401),
    /// Wrong user name or password.
    WrongCredentials = ("wrong_credentials", 401),
    /// Allowed for others, not for this user.
    Forbidden = ("forbidden", 403),
    /// Guests keep no studies: register to save one.
    StudyGuest = ("study_guest", 403),
    /// Only the game's players may do this.
    NotAPlayer = ("not_a_player", 403),
    /// A seat reserved for someone else.
    NotChallenged = ("not_challenged", 403),
    /// More AI work than this user may ask for: 429 for games in play
    /// against the AI, 403 for an event's AI entrants.
    AiBudget = ("ai_budget", 429),
    /// A cookie request from another site.
    CrossOrigin = ("cross_origin", 403),
    /// Nothing with this id.
    NotFound = ("not_found", 404),
    /// No endpoint at this path.
    NoSuchEndpoint = ("no_such_endpoint", 404),
    /// No chat line with this id.
    NoSuchMessage = ("no_such_message", 404),
    /// No puzzle of the variant has the themes asked for (or the variant has none).
    NoPuzzle = ("no_puzzle", 404),
    /// The path exists, not with this method.
    MethodNotAllowed = ("method_not_allowed", 405),
    /// The request (its head or body) did not arrive in time.
    Timeout = ("timeout", 408),
    /// Right request, wrong moment.
    Conflict = ("conflict", 409),
    /// Another seat is to move.
    NotYourTurn = ("not_your_turn", 409),
    /// The game is over.
    GameOver = ("game_over", 409),
    /// A claim the rules refuse (a foul for the claimant).
    ClaimRefused = ("claim_refused", 409),
    /// Rated games have no takebacks.
    TakebackRated = ("takeback_rated", 409),
    /// This game offers no takebacks (hidden information, the AI's turn).
    TakebackUnavailable = ("takeback_unavailable", 409),
    /// No move of this player to take back.
    NothingToTakeBack = ("nothing_to_take_back", 409),
    /// A takeback request is already pending.
    TakebackPending = ("takeback_pending", 409),
    /// The opponent declined the last takeback request.
    TakebackDeclined = ("takeback_declined", 409),
    /// No takeback request to answer.
    NoTakebackRequest = ("no_takeback_request", 409),
    /// Only an account that has never played may become a bot.
    HasPlayed = ("has_played", 409),
    /// The room is no longer waiting for players (it started or closed).
    NotWaiting = ("not_waiting", 409),
    /// Too late to abort: both sides have moved, or an event game.
    CannotAbort = ("cannot_abort", 409),
    /// The opponent has not left (or not for long enough) to claim the game.
    OpponentPresent = ("opponent_present", 409),
    /// Chat is closed for this game or this user.
    ChatUnavailable = ("chat_unavailable", 409),
    /// The user name is taken or looks like one that is.
    NameTaken = ("name_taken", 409),
    /// An event cannot start while invitations are pending.
    InvitationsPending = ("invitations_pending", 409),
    /// The user was not invited.
    NotInvited = ("not_invited", 409),
    /// Pools are for people: bots play through challenges.
    BotsNotInPools = ("bots_not_in_pools", 403),
    /// A seek's rating range leaves the player out.
    RatingOutOfRange = ("rating_out_of_range", 403),
    /// A body needs a length.
    LengthRequired = ("length_required", 411),
    /// A body over the size limit.
    BodyTooLarge = ("body_too_large", 413),
    /// A path and query over the size limit.
    UriTooLong = ("uri_too_long", 414),
    /// A cookie request whose body is not JSON.
    JsonRequired = ("json_required", 415),
    /// A body type the endpoint does not take.
    UnsupportedMediaType = ("unsupported_media_type", 415),
    /// Too many requests or frames: slow down.
    RateLimited = ("rate_limited", 429),
    /// Too many failed logins.
    LoginThrottled = ("login_throttled", 429),
    /// Too many open sockets for this user or address.
    TooManySockets = ("too_many_sockets", 429),
    /// Too many open rooms for this user.
    TooManyRooms = ("too_many_rooms", 429),
    /// Too many new guests from this address.
    GuestRateLimited = ("guest_rate_limited", 429),
    /// Too many connections from this address.
    TooManyConnections = ("too_many_connections", 429),
    /// Too many chat lines in a short time.
    ChatRateLimited = ("chat_rate_limited", 429),
    /// Request headers over the size limit.
    HeadersTooLarge = ("headers_too_large", 431),
    /// Our fault; the detail is in the log.
    Internal = ("internal", 500),
    /// The server is busy right now; try again shortly.
    Busy = ("busy", 503),
}

// Written by hand: utoipa's derive does not read a `rename` given through
// a macro, and the schema must list the texts bots see.
impl utoipa::PartialSchema for ErrorCode {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        utoipa::openapi::schema::ObjectBuilder::new()
            .schema_type(utoipa::openapi::schema::Type::String)
            .description(Some(
                "A stable machine-readable code; each has one HTTP status.",
            ))
            .enum_values(Some(ErrorCode::ALL.iter().map(|c| c.as_str())))
            .into()
    }
}

impl utoipa::ToSchema for ErrorCode {}

impl std::fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl PartialEq<&str> for ErrorCode {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

/// The JSON body of every error.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, utoipa::ToSchema)]
#[schema(as = Error)]
pub struct ErrorBody {
    /// What went wrong, as a sentence.
    pub error: String,
    /// A stable machine-readable code (see docs/security.md).
    pub code: ErrorCode,
    /// The values the sentence carries, by name (`name`, `field`, `min`,
    /// `max`, `why` …; docs/security.md lists them per code), so a client
    /// can say it in its own words. Absent when there are none.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Object, required = false)]
    pub details: Option<Details>,
}

/// The machine-readable values of an error (see [`ErrorBody::details`]).
pub type Details = serde_json::Map<String, serde_json::Value>;

/// An error for the API.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HallError {
    /// HTTP status code (4xx for the client's mistakes, 500 for ours);
    /// the code's own status except for framework rejections.
    pub status: u16,
    /// Stable code, documented in the OpenAPI document.
    pub code: ErrorCode,
    /// What went wrong, for the client.
    pub message: String,
    /// The values the message carries, by name (empty: none).
    pub details: Details,
}

/// Result of a hall operation.
pub type HallResult<T> = Result<T, HallError>;

impl HallError {
    /// An error with this code (and the code's status) and message.
    pub fn new(code: ErrorCode, msg: impl Into<String>) -> HallError {
        HallError {
            status: code.status(),
            code,
            message: msg.into(),
            details: Details::new(),
        }
    }
    /// An error with a bare status (framework rejections, parse errors):
    /// the code is the status's own.
    pub fn of_status(status: u16, msg: impl Into<String>) -> HallError {
        HallError {
            status,
            code: code_for_status(status),
            message: msg.into(),
            details: Details::new(),
        }
    }
    /// A 400 for a body serde could not read: `malformed_json` when it is
    /// not JSON, `invalid_body` when its fields or values are wrong.
    pub fn of_json(e: &serde_json::Error) -> HallError {
        let code = if e.is_data() {
            ErrorCode::InvalidBody
        } else {
            ErrorCode::MalformedJson
        };
        HallError::new(code, format!("malformed JSON: {e}"))
    }
    /// A 400 Bad Request (`bad_request`).
    pub fn bad(msg: impl Into<String>) -> HallError {
        HallError::new(ErrorCode::BadRequest, msg)
    }
    /// A 400 for a size-like field outside its documented bounds
    /// (`out_of_range`); the message names the field and the bounds, and
    /// so do the details (`field`, `min`, `max`).
    pub fn out_of_range(field: &str, min: i64, max: i64) -> HallError {
        HallError::range(format!("{field} must be {min} to {max}"), field, min, max)
    }
    /// An `out_of_range` error with its own sentence, and the details
    /// `field`, `min` and `max` (a length is a range from 0 or 1).
    pub fn range(msg: impl Into<String>, field: &str, min: i64, max: i64) -> HallError {
        HallError::new(ErrorCode::OutOfRange, msg)
            .with("field", field)
            .with("min", min)
            .with("max", max)
    }
    /// The same error with one more detail (`key`: `value`), for clients
    /// that write their own sentence from the code and the details.
    pub fn with(mut self, key: &str, value: impl Into<serde_json::Value>) -> HallError {
        self.details.insert(key.to_string(), value.into());
        self
    }
    /// A 401: no, unknown or expired session (`unauthorized`).
    pub fn unauthorized() -> HallError {
        HallError::new(
            ErrorCode::Unauthorized,
            "log in first (Authorization: Bearer TOKEN or the session cookie)",
        )
    }
    /// A 403: allowed for others, not for you (`forbidden`).
    pub fn forbidden(msg: impl Into<String>) -> HallError {
        HallError::new(ErrorCode::Forbidden, msg)
    }
    /// A 404 (`not_found`).
    pub fn not_found(msg: impl Into<String>) -> HallError {
        HallError::new(ErrorCode::NotFound, msg)
    }
    /// A 409: right request, wrong moment (`conflict`).
    pub fn conflict(msg: impl Into<String>) -> HallError {
        HallError::new(ErrorCode::Conflict, msg)
    }
    /// A 503: the server is busy right now; try again shortly (`busy`).
    pub fn busy(msg: impl Into<String>) -> HallError {
        HallError::new(ErrorCode::Busy, msg)
    }
    /// A 500; the detail goes to the log, not to the client (`internal`).
    pub fn internal(err: impl std::fmt::Display) -> HallError {
        tracing::error!(error = %err, "internal error");
        HallError::new(ErrorCode::Internal, "internal error")
    }
    /// The same message with a more specific code (and that code's status).
    pub fn with_code(self, code: ErrorCode) -> HallError {
        HallError {
            status: code.status(),
            code,
            message: self.message,
            details: self.details,
        }
    }
    /// The same error with another status: only for a code answered with
    /// two statuses (`ai_budget`).
    pub fn with_status(mut self, status: u16) -> HallError {
        self.status = status;
        self
    }
    /// The error another node answered (`status`, `code`, `message`), passed
    /// on as it is; a code this node does not know becomes the status's.
    pub fn relayed(status: u16, code: Option<&str>, msg: impl Into<String>) -> HallError {
        HallError {
            status,
            code: code
                .and_then(ErrorCode::parse)
                .unwrap_or_else(|| code_for_status(status)),
            message: msg.into(),
            details: Details::new(),
        }
    }
    /// The error another node answered as JSON (`{error, code, details?}`
    /// with `status`), passed on as it is, details included.
    pub fn relayed_body(status: u16, answer: &serde_json::Value) -> HallError {
        let msg = answer["error"].as_str().unwrap_or("refused");
        let mut e = HallError::relayed(status, answer["code"].as_str(), msg);
        if let Some(d) = answer.get("details").and_then(|d| d.as_object()) {
            e.details = d.clone();
        }
        e
    }
    /// The JSON body of this error.
    pub fn body(&self) -> serde_json::Value {
        serde_json::json!(ErrorBody {
            error: self.message.clone(),
            code: self.code,
            details: (!self.details.is_empty()).then(|| self.details.clone()),
        })
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
pub fn code_for_status(status: u16) -> ErrorCode {
    match status {
        401 => ErrorCode::Unauthorized,
        403 => ErrorCode::Forbidden,
        404 => ErrorCode::NotFound,
        405 => ErrorCode::MethodNotAllowed,
        408 => ErrorCode::Timeout,
        409 => ErrorCode::Conflict,
        411 => ErrorCode::LengthRequired,
        413 => ErrorCode::BodyTooLarge,
        414 => ErrorCode::UriTooLong,
        415 => ErrorCode::UnsupportedMediaType,
        429 => ErrorCode::RateLimited,
        431 => ErrorCode::HeadersTooLarge,
        503 => ErrorCode::Busy,
        s if s >= 500 => ErrorCode::Internal,
        _ => ErrorCode::BadRequest,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_code_has_one_text_that_parses_back_and_an_error_status() {
        let mut seen = std::collections::HashSet::new();
        for &c in ErrorCode::ALL {
            assert!(seen.insert(c.as_str()), "{c} twice");
            assert_eq!(ErrorCode::parse(c.as_str()), Some(c));
            assert!((400..600).contains(&c.status()), "{c}");
            assert!(
                c.as_str()
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b == b'_')
            );
            // serde writes the same text the list gives.
            assert_eq!(
                serde_json::to_value(c).ok(),
                Some(serde_json::json!(c.as_str()))
            );
        }
    }

    #[test]
    fn a_bare_status_gets_a_code_of_that_status() {
        for s in [
            400, 401, 403, 404, 405, 408, 409, 411, 413, 414, 415, 429, 431, 500, 503,
        ] {
            assert_eq!(code_for_status(s).status(), s, "{s}");
        }
        assert_eq!(
            HallError::relayed(409, Some("game_over"), "x").code,
            ErrorCode::GameOver
        );
        assert_eq!(
            HallError::relayed(409, Some("made_up"), "x").code,
            ErrorCode::Conflict
        );
    }
}
