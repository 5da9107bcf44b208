//! One's own games (issue 18): the games one sits in that are not over,
//! with how many wait for one's move, and the challenges addressed to one;
//! and the checks of a new challenge (a room whose open seat only the
//! named user may take, [`crate::domain::hall::Hall::join`] refuses anyone else).

use serde::Serialize;
use utoipa::ToSchema;

use crate::domain::command::GameCommand;
use crate::domain::hall::{Hall, HallError, HallResult, Live};
use crate::domain::state_view::GameClock;
use crate::error::ErrorCode;
use crate::store::{SeatRow, User};

/// Games listed at most, in play and challenges each.
pub const MAX_MY_GAMES: i64 = 50;
/// The longest challenge name read (bytes; usernames are at most 20 characters).
const MAX_CHALLENGE_NAME: usize = 80;

/// `GET /api/my/games`.
#[derive(Serialize, ToSchema)]
pub struct MyGames {
    /// How many of `games` wait for the caller's move.
    pub your_turn: usize,
    /// The caller's games that are not over (waiting or in play), latest
    /// change first; at most 50.
    pub games: Vec<MyGame>,
    /// Waiting games whose open seat is for the caller; at most 50.
    pub challenges: Vec<MyGame>,
}

/// One game in [`MyGames`].
#[derive(Serialize, ToSchema)]
pub struct MyGame {
    pub id: String,
    /// The variant.
    pub game: String,
    /// `waiting` or `playing`.
    pub status: String,
    pub seats: Vec<SeatRow>,
    /// The caller's seat (none in a challenge not yet taken).
    pub seat: Option<usize>,
    /// Whether the caller is to move.
    pub your_turn: bool,
    pub clock: GameClock,
    pub rated: bool,
    /// Moves played.
    pub plies: usize,
    /// The user a challenge is for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub challenge: Option<String>,
}

impl Hall {
    /// The user a new room challenges (its id and name), after the checks:
    /// an existing other user, an open seat, two seats, no guest in a rated game.
    pub(crate) async fn challenged(
        &self,
        user: &User,
        name: &str,
        opponent: &SeatRow,
        seats: usize,
        rated: bool,
    ) -> HallResult<(i64, String)> {
        if name.len() > MAX_CHALLENGE_NAME {
            return Err(HallError::range(
                format!("challenge: at most {MAX_CHALLENGE_NAME} bytes"),
                "challenge",
                1,
                MAX_CHALLENGE_NAME as i64,
            ));
        }
        if *opponent != SeatRow::Open || seats != 2 {
            return Err(HallError::bad(
                "a challenge is for a two-seat game with opponent \"open\"",
            )
            .with("why", "challenge_two_seats"));
        }
        let found = self
            .store
            .user_by_name(name)
            .await
            .map_err(HallError::internal)?;
        let Some(other) = found else {
            return Err(
                HallError::bad(format!("no user '{}'", crate::error::shown(name)))
                    .with_code(ErrorCode::NoSuchUser)
                    .with("name", crate::error::shown(name)),
            );
        };
        if other.id == user.id {
            return Err(
                HallError::bad("you cannot challenge yourself").with("why", "challenge_self")
            );
        }
        if rated && other.guest {
            return Err(HallError::forbidden(
                "guests may play only unrated games: challenge them to an unrated one",
            )
            .with("why", "opponent_guest")
            .with("name", other.username));
        }
        Ok((other.id, other.username))
    }

    /// `user`'s games that are not over, and the challenges to them.
    pub async fn my_games(&self, user: &User) -> HallResult<MyGames> {
        let ids = self
            .store
            .unfinished_games_of(user.id, MAX_MY_GAMES)
            .await
            .map_err(HallError::internal)?;
        let mut games = Vec::with_capacity(ids.len());
        for id in ids {
            if let Some(g) = self.my_game(&id, user).await {
                games.push(g);
            }
        }
        let ids = self
            .store
            .challenges_for(user.id, MAX_MY_GAMES)
            .await
            .map_err(HallError::internal)?;
        let mut challenges = Vec::with_capacity(ids.len());
        for id in ids {
            if let Some(g) = self.my_game(&id, user).await
                && g.status == "waiting"
            {
                challenges.push(g);
            }
        }
        Ok(MyGames {
            your_turn: games.iter().filter(|g| g.your_turn).count(),
            games,
            challenges,
        })
    }

    /// One game as [`MyGames`] lists it; none if it cannot be read or is over.
    async fn my_game(&self, id: &str, user: &User) -> Option<MyGame> {
        let user = user.clone();
        self.ask(id, |reply| GameCommand::Listing { user, reply })
            .await
            .ok()
            .flatten()
    }

    /// [`Hall::my_game`] on the game's task.
    pub(crate) async fn listing_in(&self, live: &mut Live, user: &User) -> Option<MyGame> {
        self.flag_check(live, std::time::Instant::now()).await;
        if live.row.status == "finished" {
            return None;
        }
        let seat = Hall::seat_of(live, user);
        let playing = live.row.status == "playing";
        Some(MyGame {
            id: live.row.id.clone(),
            game: live.row.rules.clone(),
            status: live.row.status.clone(),
            seats: live.row.seats.clone(),
            seat,
            your_turn: playing && seat.is_some_and(|s| live.table.seats_to_move().contains(&s)),
            clock: GameClock::of(&live.row),
            rated: live.row.rated,
            plies: live.table.plies(),
            challenge: live.challenge.as_ref().map(|(_, n)| n.clone()),
        })
    }
}
