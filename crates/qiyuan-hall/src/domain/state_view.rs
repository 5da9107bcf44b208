//! The state of a game as one viewer sees it: the one type every game view
//! is serialised from (`GET /api/games/{id}`, the answers of moves and
//! offers, the `state` and `diff` frames of sockets and streams), and what
//! the OpenAPI document describes as `GameState`. Built in
//! [`crate::domain::view`].

use std::collections::BTreeMap;

use serde::Serialize;
use utoipa::ToSchema;

use crate::store::SeatRow;

/// A game's named opening (its code and names), from the game's own
/// classification.
#[derive(Serialize, ToSchema, Clone, Debug, PartialEq, Eq)]
pub struct OpeningView {
    /// The code, e.g. `C45`.
    pub code: String,
    /// The name players of the game use.
    pub name: String,
    /// A short English name.
    pub name_en: String,
}

/// A game's state as its viewer may see it.
#[derive(Serialize, ToSchema)]
#[schema(as = GameState)]
pub struct GameStateView {
    /// `state` (the whole game) or `diff` (records only from `from`).
    pub t: &'static str,
    pub id: String,
    /// The variant.
    pub game: String,
    /// `waiting`, `playing` or `finished`.
    pub status: String,
    /// The position as its viewer may see it.
    pub fen: String,
    /// The set-up position, once it may be shown.
    pub start_fen: Option<String>,
    /// The ply `records` and `moves` start at (0 in a `state`).
    pub from: usize,
    /// The moves from `from` on, in the game's notation.
    pub moves: Vec<String>,
    pub records: Vec<MoveRecordView>,
    /// How many moves the game has.
    pub plies: usize,
    /// Remaining ms per seat (never below 0).
    pub clocks: Vec<i64>,
    /// The first seat whose clock runs.
    pub running: Option<usize>,
    /// Every seat whose clock runs (several in a simultaneous phase).
    pub running_seats: Vec<usize>,
    pub clock: GameClock,
    pub rated: bool,
    pub seats: Vec<SeatRow>,
    /// The first seat to act, while the game is played.
    pub to_move: Option<usize>,
    /// Every seat to act.
    pub seats_to_move: Vec<usize>,
    /// The game's own turn state (2 = second move of a double turn).
    pub turn_state: u8,
    /// Squares to mark, e.g. a general in check.
    pub alerts: Vec<String>,
    /// The game's named opening so far, for games that classify openings.
    pub opening: Option<OpeningView>,
    /// The seat with a standing draw offer.
    pub draw_offer: Option<usize>,
    /// In a game whose draw needs every player, the seats that agreed so
    /// far (the offerer first); absent otherwise.
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub draw_agreed: Vec<usize>,
    /// The seat that declined a draw offer, in the frame (and the state)
    /// of the change that declined it only; an AI seat answers an offer at
    /// once.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub draw_declined: Option<usize>,
    /// A waiting game's challenge: the only user who may take the open seat.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub challenge: Option<String>,
    /// Whether the game offers takebacks (unrated, two seats, nothing
    /// hidden; event games refuse the request).
    pub takeback: bool,
    /// For a player in a game that offers takebacks: whether they have a
    /// move to take back now.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub takeback_possible: Option<bool>,
    /// The seat with a standing takeback request.
    pub takeback_offer: Option<usize>,
    /// The seat that declined a takeback request, in the frame of that
    /// change only.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub takeback_declined: Option<usize>,
    /// The seat whose takeback was accepted (its last move and what
    /// followed were taken back), in the frame of that change only.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub takeback_accepted: Option<usize>,
    /// Whether a player may abort the game now (in play, not both sides
    /// have moved, not an event game).
    pub abortable: bool,
    /// The time left for the seat to move to make its first move before
    /// the game is aborted, in ms (while that seat has not moved yet).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub first_move_ms: Option<i64>,
    /// For a player whose opponent has left during their turn: ms until
    /// the game may be claimed (`POST /api/games/{id}/claim-victory`; 0:
    /// now). Read with the state (`GET /api/games/{id}`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub claim_victory_in_ms: Option<i64>,
    /// For a player: whether a draw claim (`POST /api/games/{id}/claim`, or
    /// the socket's `claim`) would be granted now, by the game's own rules
    /// (say, a natural move limit reached). Absent when it would not: the
    /// page offers the claim only while this is true.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub claimable: bool,
    pub rematch_offer: Option<usize>,
    pub rematch_id: Option<String>,
    pub rematch_of: Option<String>,
    /// The number of the game's newest change.
    pub version: u64,
    /// Points per seat (games that count points).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub scores: Option<Vec<i32>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target: Option<i32>,
    /// The winning seat's name, or `draw` (once over).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub result: Option<String>,
    /// Seat groups, best first (once over).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub placings: Option<Vec<Vec<usize>>>,
    /// Why the game ended (once over), a stable word: `checkmate`,
    /// `stalemate`, `points`, `perpetual-check`, `perpetual-chase`,
    /// `repetition`, `move-limit`, `dead-position`, `resignation`,
    /// `timeout`, `agreement`, `aborted`, `abandoned`, or one a game adds
    /// (`flag-captured`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// The end in a sentence, "中文 / English" (once over).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub explanation: Option<String>,
    /// Each seat's standing in a race game, while it is played.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub progress: Option<ProgressView>,
    /// How many watch the game: the sockets (`/api/games/{id}/ws`) and
    /// streams (`/api/games/{id}/stream`) open on it on this server by
    /// anyone not seated in it (spectators, signed in or not); a player's
    /// own sockets, extra tabs included, do not count. Read when the view is
    /// made: it is not pushed on its own when someone comes or goes, but
    /// comes with the next change of the game (and with every state read).
    pub watchers: usize,
    /// The viewer's seat, if it plays.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seat: Option<usize>,
    /// The viewer's legal moves, while the game is played.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub legal: Option<Vec<String>>,
}

/// The standings of a race game (see `qiyuan_core::Progress`).
#[derive(Serialize, ToSchema)]
#[schema(as = Progress)]
pub struct ProgressView {
    /// One entry per seat.
    pub seats: Vec<SeatProgressView>,
    /// A dead game has been declared (a race that stalled).
    pub dead_game: bool,
    /// Full rounds without progress left before a dead game is declared.
    pub quiet_left: Option<u32>,
}

/// One seat's standing in a race game.
#[derive(Serialize, ToSchema)]
#[schema(as = SeatProgress)]
pub struct SeatProgressView {
    /// What is still to go (e.g. rows summed over the pieces).
    pub to_go: Option<u32>,
    /// Moves left to meet a declared dead game's duty.
    pub countdown: Option<u32>,
    /// The place already earned while the others play on.
    pub place: Option<u32>,
    /// Out of the game: left, resigned or timed out.
    pub out: bool,
}

impl From<qiyuan_core::Progress> for ProgressView {
    fn from(p: qiyuan_core::Progress) -> ProgressView {
        ProgressView {
            seats: p
                .seats
                .into_iter()
                .map(|s| SeatProgressView {
                    to_go: s.to_go,
                    countdown: s.countdown,
                    place: s.place,
                    out: s.out,
                })
                .collect(),
            dead_game: p.dead_game,
            quiet_left: p.quiet_left,
        }
    }
}

/// The clock settings of a game.
#[derive(Serialize, ToSchema, Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameClock {
    pub initial_s: i64,
    pub increment_s: i64,
    /// Correspondence games: days per move (`initial_s` is the same time).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub days: Option<i64>,
}

impl GameClock {
    /// The clock of a stored game.
    pub fn of(row: &crate::store::GameRow) -> GameClock {
        GameClock {
            initial_s: row.initial_ms / 1000,
            increment_s: row.increment_ms / 1000,
            days: crate::domain::opening::correspondence_days(row),
        }
    }
}

/// One move of a game's record, in every notation its game has.
#[derive(Serialize, ToSchema)]
#[schema(as = MoveRecord)]
pub struct MoveRecordView {
    /// The move in the game's own notation.
    pub iccs: String,
    /// Other notations by name (`wxf`, `chinese`, `fen`, …).
    #[serde(flatten)]
    pub notations: BTreeMap<String, String>,
    /// Scores after the move (games with scores).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub scores: Option<Vec<i32>>,
    /// Remaining ms per seat after the move.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub clocks: Option<Vec<i64>>,
}
