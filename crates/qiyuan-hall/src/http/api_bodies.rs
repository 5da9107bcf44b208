//! The JSON bodies the account and game handlers of [`crate::http::api`] answer
//! with: one type each, serialised as sent, so that the OpenAPI document
//! describes exactly what goes out.

use serde::Serialize;
use utoipa::ToSchema;

use crate::store::SessionRow;

/// A new session: the token for `Authorization: Bearer` (also set as the
/// session cookie).
#[derive(Serialize, ToSchema)]
#[schema(as = Session)]
pub struct SessionBody {
    pub(crate) token: String,
    pub(crate) username: String,
    pub(crate) guest: bool,
    /// The session lives this long after its last use.
    pub(crate) expires_in_s: u64,
}

/// `{"ok": true}`.
#[derive(Serialize, ToSchema)]
pub struct Done {
    pub(crate) ok: bool,
}

/// The caller's sessions.
#[derive(Serialize, ToSchema)]
pub struct SessionList {
    pub(crate) sessions: Vec<SessionRow>,
}

/// How many sessions were revoked.
#[derive(Serialize, ToSchema)]
pub struct Revoked {
    pub(crate) revoked: u64,
}

/// Who a token belongs to.
#[derive(Serialize, ToSchema)]
pub struct Me {
    pub(crate) username: String,
    pub(crate) guest: bool,
    /// A bot account (`POST /api/account/bot`).
    pub(crate) bot: bool,
}

/// A created game and the creator's seat.
#[derive(Serialize, ToSchema)]
pub struct Created {
    pub(crate) id: String,
    /// The creator's seat (0: the first to move).
    pub(crate) seat: usize,
}

/// The seat taken.
#[derive(Serialize, ToSchema)]
#[schema(as = Seat)]
pub struct SeatBody {
    pub(crate) seat: usize,
}

/// The rematch's game id once both agreed; null while the offer stands.
#[derive(Serialize, ToSchema)]
#[schema(as = Rematch)]
pub struct RematchBody {
    pub(crate) rematch_id: Option<String>,
}

/// `GET /api/games/{id}/wait`: the caller's state once it is their turn or
/// the game is over, or when the wait timed out.
#[derive(Serialize, ToSchema)]
#[schema(as = Wait)]
pub struct WaitBody {
    /// It is the caller's turn now.
    pub(crate) your_turn: bool,
    /// The game is over.
    pub(crate) game_over: bool,
    /// Neither happened within `timeout_s`.
    pub(crate) timed_out: bool,
    /// The game as the caller sees it (with `seat` and `legal`).
    pub(crate) state: crate::domain::state_view::GameStateView,
}
