//! What one user hears wherever they are (every open page, a bot's event
//! stream): a game of theirs started or ended, a challenge to or from them
//! came, was declined or cancelled. Each event goes out once on the user's
//! own bus topic, so every node's sockets of that user receive it; the
//! lobby socket and `GET /api/stream/event` both relay it as it is.

use serde::Serialize;
use utoipa::ToSchema;

use crate::domain::hall::{Hall, HallResult, Live};
use crate::domain::state_view::GameClock;
use crate::store::{SeatRow, User};

/// The bus topic of user `id`'s events.
pub fn topic(id: i64) -> String {
    format!("user/{id}")
}

/// One event for a user (the lichess event stream's names and shape).
#[derive(Serialize, ToSchema, Clone, Debug)]
#[serde(tag = "type", rename_all = "camelCase")]
pub enum UserEvent {
    /// A game the user sits in started: go to it.
    GameStart {
        /// The game.
        game: GameRef,
    },
    /// A game the user sat in ended.
    GameFinish {
        /// The game.
        game: GameRef,
    },
    /// A challenge to the user, or from them.
    Challenge {
        /// The challenge.
        challenge: ChallengeRef,
    },
    /// The challenger withdrew the challenge.
    ChallengeCanceled {
        /// The challenge.
        challenge: ChallengeRef,
    },
    /// The challenged user declined.
    ChallengeDeclined {
        /// The challenge.
        challenge: ChallengeRef,
    },
}

/// A game in a [`UserEvent`].
#[derive(Serialize, ToSchema, Clone, Debug)]
pub struct GameRef {
    /// The game's id (`/api/games/{id}`, `#/game/{id}`).
    pub id: String,
    /// The variant.
    pub game: String,
    /// The user's seat.
    pub seat: usize,
    /// Everyone seated.
    pub seats: Vec<SeatRow>,
    pub rated: bool,
    pub clock: GameClock,
    /// How it ended (`gameFinish` only): the winner's name or `draw`, and the reason.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub result: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

/// A challenge in a [`UserEvent`]: the waiting room whose open seat is for
/// `dest`.
#[derive(Serialize, ToSchema, Clone, Debug)]
pub struct ChallengeRef {
    /// The room's id (accept by joining it).
    pub id: String,
    /// The variant.
    pub game: String,
    /// Who challenges.
    pub challenger: String,
    /// Who is challenged.
    pub dest: String,
    pub rated: bool,
    pub clock: GameClock,
}

impl Hall {
    /// What a new event stream starts with: `gameStart` for each game
    /// `user` plays now, `challenge` for each challenge to them.
    pub async fn pending_events(&self, user: &User) -> HallResult<Vec<UserEvent>> {
        let mine = self.my_games(user).await?;
        let mut out = Vec::new();
        for g in mine.games {
            if let (Some(seat), "playing") = (g.seat, g.status.as_str()) {
                out.push(UserEvent::GameStart {
                    game: GameRef {
                        id: g.id,
                        game: g.game,
                        seat,
                        seats: g.seats,
                        rated: g.rated,
                        clock: g.clock,
                        result: None,
                        reason: None,
                    },
                });
            }
        }
        for c in mine.challenges {
            let challenger = c.seats.iter().find_map(|s| match s {
                SeatRow::User { name, .. } => Some(name.clone()),
                _ => None,
            });
            out.push(UserEvent::Challenge {
                challenge: ChallengeRef {
                    id: c.id,
                    game: c.game,
                    challenger: challenger.unwrap_or_default(),
                    dest: user.username.clone(),
                    rated: c.rated,
                    clock: c.clock,
                },
            });
        }
        Ok(out)
    }

    /// Sends `event` to every page and stream of user `id`.
    pub fn tell_user(&self, id: i64, event: &UserEvent) {
        match serde_json::to_string(event) {
            Ok(text) => self.bus.publish(&topic(id), text.into()),
            Err(e) => tracing::warn!(error = %e, "cannot write a user event"),
        }
    }

    /// The people seated in `live`, with their seats.
    fn people(live: &Live) -> impl Iterator<Item = (usize, i64)> + '_ {
        live.row
            .seats
            .iter()
            .enumerate()
            .filter_map(|(i, s)| match s {
                SeatRow::User { id, .. } => Some((i, *id)),
                _ => None,
            })
    }

    fn game_ref(live: &Live, seat: usize, finished: bool) -> GameRef {
        let outcome = live.table.result().filter(|_| finished);
        GameRef {
            id: live.row.id.clone(),
            game: live.row.rules.clone(),
            seat,
            seats: live.row.seats.clone(),
            rated: live.row.rated,
            clock: GameClock::of(&live.row),
            result: outcome.map(|o| crate::domain::view::result_name(&live.seat_names, o)),
            reason: outcome.map(|o| o.reason.as_str().to_string()),
        }
    }

    /// Tells each person seated in `live` that it started.
    pub(crate) fn tell_game_start(&self, live: &Live) {
        for (seat, id) in Hall::people(live) {
            let game = Hall::game_ref(live, seat, false);
            self.tell_user(id, &UserEvent::GameStart { game });
        }
    }

    /// Tells each person seated in `live` that it ended.
    pub(crate) fn tell_game_finish(&self, live: &Live) {
        for (seat, id) in Hall::people(live) {
            let game = Hall::game_ref(live, seat, true);
            self.tell_user(id, &UserEvent::GameFinish { game });
        }
    }

    /// The challenge `live` is, if it is one (a waiting room whose open seat
    /// is for a named user), with that user's id.
    pub(crate) fn challenge_of(live: &Live) -> Option<(i64, ChallengeRef)> {
        let (dest_id, dest) = live.challenge.clone()?;
        let challenger = live.row.seats.iter().find_map(|s| match s {
            SeatRow::User { name, .. } => Some(name.clone()),
            _ => None,
        })?;
        Some((
            dest_id,
            ChallengeRef {
                id: live.row.id.clone(),
                game: live.row.rules.clone(),
                challenger,
                dest,
                rated: live.row.rated,
                clock: GameClock::of(&live.row),
            },
        ))
    }

    /// Tells both sides of the challenge `live` about it: `make` builds the
    /// event (new, cancelled or declined).
    pub(crate) fn tell_challenge(&self, live: &Live, make: fn(ChallengeRef) -> UserEvent) {
        let Some((dest, c)) = Hall::challenge_of(live) else {
            return;
        };
        let event = make(c);
        self.tell_user(dest, &event);
        for (_, id) in Hall::people(live) {
            self.tell_user(id, &event);
        }
    }
}
