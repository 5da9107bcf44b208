//! New games: rooms from the lobby (options checked against the kind),
//! rematches (seats swapped, the same options) and event games with every
//! seat taken.

use std::sync::Arc;

use qiyuan_core::ClockRule;

use crate::clock::wall_ms;
use crate::domain::command::GameCommand;
use crate::domain::hall::{Hall, HallError, HallResult, Live, new_game_id, not_a_player};
use crate::error::ErrorCode;
use crate::store::{GameRow, SeatRow, User};
use rand::{Rng, RngCore};
use serde::Deserialize;

/// The days per move a correspondence game may allow.
pub const CORRESPONDENCE_DAYS: [i64; 6] = [1, 2, 3, 5, 7, 14];

/// The clock settings of a new game.
#[derive(Deserialize, Debug, Clone, Copy, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ClockSpec {
    /// Base time per player in seconds.
    #[schema(minimum = 1, maximum = 10800)]
    pub initial_s: i64,
    /// Added after each turn, in seconds.
    #[serde(default)]
    #[schema(minimum = 0, maximum = 600, default = 0)]
    pub increment_s: i64,
}

impl ClockSpec {
    /// Checks the documented bounds: base 1 s to 3 h, increment 0 to 600 s.
    pub fn check(&self) -> HallResult<()> {
        use crate::limits::{MAX_CLOCK_INCREMENT_S, MAX_CLOCK_INITIAL_S, check_range};
        check_range("clock.initial_s", self.initial_s, 1, MAX_CLOCK_INITIAL_S)?;
        check_range(
            "clock.increment_s",
            self.increment_s,
            0,
            MAX_CLOCK_INCREMENT_S,
        )
    }
}

/// `POST /api/games`. (The served document lists the registered variants
/// for `game` and `seat`, and the options' bounds for `target` and `base`.)
#[derive(Deserialize, Debug, Clone, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewGame {
    /// Rule set name.
    pub game: String,
    /// Target score (same as `options.target`).
    #[serde(default)]
    pub target: Option<i32>,
    /// Clock; default 10 minutes, no increment.
    #[serde(default)]
    pub clock: Option<ClockSpec>,
    /// `open` (default) or `ai:N`.
    #[serde(default)]
    #[schema(pattern = r"^(open|ai:\+?0*[1-8])$", default = "open")]
    pub opponent: Option<String>,
    /// Whether the game counts for ratings.
    #[serde(default)]
    #[schema(default = false)]
    pub rated: bool,
    /// A set-up position (makes the game unrated); at most 256 bytes.
    #[serde(default)]
    #[schema(max_length = 256)]
    pub fen: Option<String>,
    /// The creator's seat: `red` (default), `black` or `random`.
    #[serde(default)]
    pub seat: Option<String>,
    /// The room's base (基数) for game points (B17; default 1); same as
    /// `options.base`.
    #[serde(default)]
    pub base: Option<i64>,
    /// The variant's options (`GET /api/kinds` lists them), e.g.
    /// `{"target": 30}` or `{"base": 2}`; at most 16.
    #[serde(default)]
    #[schema(schema_with = room_options_schema)]
    pub options: Option<qiyuan_core::Options>,
    /// A seek's rating range: only players rated `min` to `max` in the
    /// game's family may take the open seat (open rooms only).
    #[serde(default)]
    pub rating_range: Option<crate::domain::seeks::RatingRange>,
    /// Correspondence: days per move (1, 2, 3, 5, 7 or 14) instead of
    /// `clock`; each move gets the full time again.
    #[serde(default)]
    #[schema(minimum = 1, maximum = 14)]
    pub days: Option<i64>,
    /// A challenge: the username the open seat is for (with `opponent`
    /// `open`, two-seat games); nobody else may take it. The room is not
    /// listed among the lobby's open rooms.
    #[serde(default)]
    #[schema(max_length = 20)]
    pub challenge: Option<String>,
}

impl NewGame {
    /// The room's options: `options`, with the older top-level `target`
    /// and `base` folded in.
    pub fn options(&self) -> HallResult<qiyuan_core::Options> {
        let mut o = self.options.clone().unwrap_or_default();
        crate::limits::check_len("options", o.len(), 16)?;
        if let Some(t) = self.target {
            o.insert("target".into(), i64::from(t));
        }
        if let Some(b) = self.base {
            o.insert(qiyuan_core::kind::BASE_OPTION.into(), b);
        }
        Ok(o)
    }
}

impl Hall {
    /// Creates a game; returns its id and the creator's seat.
    pub async fn create(
        self: &Arc<Self>,
        user: &User,
        req: NewGame,
    ) -> HallResult<(String, usize)> {
        if req
            .fen
            .as_ref()
            .is_some_and(|f| f.len() > crate::limits::MAX_FEN_LEN)
        {
            return Err(HallError::range(
                format!("fen: at most {} bytes", crate::limits::MAX_FEN_LEN),
                "fen",
                1,
                crate::limits::MAX_FEN_LEN as i64,
            ));
        }
        if let Some(c) = &req.clock {
            c.check()?;
        }
        let correspondence = match req.days {
            None => None,
            Some(d) if CORRESPONDENCE_DAYS.contains(&d) => Some(d),
            Some(d) => {
                return Err(HallError::new(
                    ErrorCode::OutOfRange,
                    format!("days: 1, 2, 3, 5, 7 or 14, not {d}"),
                )
                .with("field", "days")
                .with("why", "one_of")
                .with("allowed", "1, 2, 3, 5, 7, 14"));
            }
        };
        if correspondence.is_some() && req.clock.is_some() {
            return Err(HallError::bad("give either clock or days, not both"));
        }
        let options = req.options()?;
        let (kind, _) = self.games.kind_of(&req.game)?;
        let kind = kind.clone();
        let table = self
            .games
            .new_table(&req.game, &options, req.fen.as_deref())?;
        if table.result().is_some() {
            return Err(HallError::bad("the set-up position is already over"));
        }
        let per_move = table.clock_rule() == ClockRule::PerMove;
        if correspondence.is_some() && table.seat_count() != 2 {
            return Err(HallError::bad("correspondence is for two-seat games"));
        }
        let clock = match correspondence {
            Some(days) => Some(ClockSpec {
                initial_s: days * 86_400,
                increment_s: 0,
            }),
            None => req.clock,
        };
        let clock = clock.unwrap_or(match kind.default_clock() {
            qiyuan_core::DefaultClock::PerSeat {
                initial_s,
                increment_s,
            } => ClockSpec {
                initial_s,
                increment_s,
            },
            qiyuan_core::DefaultClock::PerMove { seconds } => ClockSpec {
                initial_s: seconds,
                increment_s: 0,
            },
        });
        if per_move && clock.increment_s != 0 {
            return Err(HallError::bad(
                "this game has a fixed time per move (clock.initial_s) and no increment",
            ));
        }
        let base = options.get(qiyuan_core::kind::BASE_OPTION).copied();
        if base.is_some() && req.fen.is_some() {
            // A set-up settles no game points, so a base would mean nothing.
            return Err(HallError::bad(
                "a room from a set-up position settles no game points: leave out base",
            ));
        }
        if req.rated && req.fen.is_some() {
            return Err(
                HallError::bad("a game from a set-up position cannot be rated")
                    .with("why", "setup_unrated"),
            );
        }
        if req.rated && user.guest {
            return Err(HallError::forbidden(
                "guests may play only unrated games; register to play rated",
            )
            .with("why", "guest_unrated"));
        }
        let opponent = match req.opponent.as_deref().unwrap_or("open") {
            "open" => SeatRow::Open,
            s => match s.strip_prefix("ai:").and_then(|n| n.parse::<u8>().ok()) {
                Some(level) if (1..=8).contains(&level) && kind.ai().is_some() => {
                    SeatRow::Ai { level }
                }
                Some(_) if kind.ai().is_none() => {
                    return Err(HallError::bad(format!("{} has no AI", req.game)));
                }
                _ => {
                    return Err(HallError::bad(format!(
                        "opponent must be \"open\" or \"ai:1\" .. \"ai:8\", not '{s}'"
                    )));
                }
            },
        };
        if matches!(opponent, SeatRow::Ai { .. }) {
            self.check_ai_budget(user).await?;
        }
        let max_rooms = self.limits.open_rooms_per_user;
        if matches!(opponent, SeatRow::Open) && self.open_rooms_of(user.id) >= max_rooms {
            return Err(HallError::new(
                ErrorCode::TooManyRooms,
                format!(
                    "you already have {max_rooms} rooms waiting for players: play or wait in one of them"
                ),
            )
            .with("max", max_rooms));
        }
        let me = SeatRow::user(user);
        let names = self.games.seat_names(&req.game, table.seat_count());
        let seat = match req.seat.as_deref() {
            None => 0,
            Some("random") => rand::rng().random_range(0..names.len().max(1)),
            Some(s) => names.iter().position(|n| n == s).ok_or_else(|| {
                HallError::bad(format!(
                    "seat must be {} or random, not '{}'",
                    names.join(", "),
                    crate::error::shown(s)
                ))
            })?,
        };
        let challenge = match &req.challenge {
            None => None,
            Some(name) => Some(
                self.challenged(user, name, &opponent, table.seat_count(), req.rated)
                    .await?,
            ),
        };
        // An open room is a seek: one that matches an open seek of someone
        // else takes its seat instead of adding a duplicate.
        if let Some(r) = &req.rating_range {
            r.check()?;
        }
        let seeking = matches!(opponent, SeatRow::Open) && challenge.is_none() && req.fen.is_none();
        let seek = if seeking {
            let rating = self.rating_for(user, &req.game).await?;
            let wanted = crate::domain::seeks::Wanted {
                user,
                rating,
                rules: &req.game,
                options: &options,
                initial_ms: clock.initial_s * 1000,
                increment_ms: clock.increment_s * 1000,
                rated: req.rated,
                seat: match req.seat.as_deref() {
                    None | Some("random") => None,
                    Some(_) => Some(seat),
                },
                range: req.rating_range,
            };
            if let Some(id) = self.seeks.matching(&wanted)
                && let Ok(taken) = self.join(&id, user).await
            {
                tracing::info!(game = %id, user = %user.username, "seek matched an open one");
                return Ok((id, taken));
            }
            Some(crate::domain::seeks::SeekTerms {
                creator_rating: rating,
                range: req.rating_range,
                any_seat: matches!(req.seat.as_deref(), None | Some("random")),
            })
        } else {
            if req.rating_range.is_some() {
                return Err(HallError::bad(
                    "rating_range is for open rooms (no challenge, no AI, no set-up)",
                ));
            }
            None
        };
        let mut seats = vec![opponent.clone(); table.seat_count()];
        seats[seat] = me;
        let playing = !matches!(opponent, SeatRow::Open);
        let initial_ms = clock.initial_s * 1000;
        let now_ms = wall_ms();
        let row = GameRow {
            id: new_game_id(),
            rules: req.game.clone(),
            options,
            start_fen: req.fen.clone(),
            initial_ms,
            increment_ms: clock.increment_s * 1000,
            rated: req.rated,
            seats,
            status: if playing { "playing" } else { "waiting" }.into(),
            result: None,
            reason: None,
            explanation: None,
            clocks: vec![Hall::turn_time(table.as_ref(), initial_ms); table.seat_count()],
            created_ms: now_ms,
            updated_ms: now_ms,
            rematch_of: None,
            placings: None,
        };
        let id = self
            .install_game(row, table, playing, challenge, true, seek)
            .await?;
        tracing::info!(game = %id, rules = %req.game, user = %user.username, "game created");
        Ok((id, seat))
    }

    /// Refuses a new game against the AI for `user` when it already plays
    /// as many as its budget allows (new rooms and rematches alike).
    async fn check_ai_budget(&self, user: &User) -> HallResult<()> {
        let in_play = self
            .store
            .ai_games_in_play(user.id)
            .await
            .map_err(HallError::internal)?;
        let max = self.limits.ai_games_per_user;
        if in_play >= max as i64 {
            return Err(HallError::new(
                ErrorCode::AiBudget,
                format!("you already play {in_play} games against the AI; at most {max} at once"),
            )
            .with("why", "games")
            .with("max", max));
        }
        Ok(())
    }

    /// Offers or accepts a rematch (seats swapped, same settings). Returns the
    /// new game's id once both agreed (at once against the AI).
    pub async fn rematch(&self, id: &str, user: &User) -> HallResult<Option<String>> {
        let user = user.clone();
        self.ask(id, |reply| GameCommand::Rematch { user, reply })
            .await?
    }

    pub(crate) async fn rematch_in(
        &self,
        live: &mut Live,
        user: User,
    ) -> HallResult<Option<String>> {
        let seat = Hall::seat_of(live, &user).ok_or_else(not_a_player)?;
        if live.row.status != "finished" {
            return Err(HallError::conflict("a rematch needs a finished game"));
        }
        if let Some(r) = &live.rematch_id {
            return Ok(Some(r.clone()));
        }
        let vs_ai = live
            .row
            .seats
            .iter()
            .any(|s| matches!(s, SeatRow::Ai { .. }));
        let agreed = vs_ai || live.rematch_offer.is_some_and(|s| s != seat);
        if !agreed {
            live.rematch_offer = Some(seat);
            self.announce(live);
            return Ok(None);
        }
        if vs_ai {
            self.check_ai_budget(&user).await?;
        }
        let mut seats = live.row.seats.clone();
        seats.reverse();
        // A fresh layout for a rematch of a hidden game, in a room with the
        // same options. A hidden game's set-up position was published when
        // it ended: its secret part is drawn again (or the rematch starts
        // as an ordinary game), never reused.
        let start_fen = match live.row.start_fen.as_deref() {
            Some(setup) if live.table.hides_information() => {
                let (kind, _) = self.games.kind_of(&live.row.rules)?;
                let mut seed = [0u8; 32];
                rand::rng().fill_bytes(&mut seed);
                kind.rematch_setup(&live.row.rules, setup, seed)
            }
            other => other.map(str::to_string),
        };
        let table =
            self.games
                .new_table(&live.row.rules, &live.row.options, start_fen.as_deref())?;
        let now_ms = wall_ms();
        let row = GameRow {
            id: new_game_id(),
            start_fen,
            seats,
            status: "playing".into(),
            result: None,
            reason: None,
            explanation: None,
            clocks: vec![Hall::turn_time(table.as_ref(), live.row.initial_ms); table.seat_count()],
            created_ms: now_ms,
            updated_ms: now_ms,
            rematch_of: Some(live.row.id.clone()),
            placings: None,
            ..live.row.clone()
        };
        let new_id = self
            .install_game(row, table, true, None, true, None)
            .await?;
        live.rematch_id = Some(new_id.clone());
        self.announce(live);
        Ok(Some(new_id))
    }

    /// Starts a game with every seat already taken (event games: users and
    /// AI levels, AI against AI included). `clocks` is the base time per seat
    /// in ms (armageddon play-offs give the seats different times). The
    /// clock runs at once and AI seats move by themselves. Not abortable
    /// (an event's pairing waits for its result).
    pub async fn start_seated_game(
        self: &Arc<Self>,
        rules: &str,
        target: Option<i32>,
        clocks: Vec<i64>,
        increment_ms: i64,
        seats: Vec<SeatRow>,
        rated: bool,
    ) -> HallResult<String> {
        self.start_full_game(rules, target, clocks, increment_ms, seats, rated, false)
            .await
    }

    /// [`Hall::start_seated_game`], saying whether the game is `abortable`
    /// (pool games are: each clock starts with its side's first move).
    #[allow(clippy::too_many_arguments)]
    pub(crate) async fn start_full_game(
        self: &Arc<Self>,
        rules: &str,
        target: Option<i32>,
        clocks: Vec<i64>,
        increment_ms: i64,
        seats: Vec<SeatRow>,
        rated: bool,
        abortable: bool,
    ) -> HallResult<String> {
        let mut options = qiyuan_core::Options::new();
        if let Some(t) = target {
            options.insert("target".into(), i64::from(t));
        }
        let table = self.games.new_table(rules, &options, None)?;
        if seats.len() != table.seat_count() || clocks.len() != seats.len() {
            return Err(HallError::bad("one seat and one clock per seat"));
        }
        if seats.contains(&SeatRow::Open) {
            return Err(HallError::bad("every seat must be taken"));
        }
        let now_ms = wall_ms();
        let row = GameRow {
            id: new_game_id(),
            rules: rules.to_string(),
            options,
            start_fen: None,
            initial_ms: clocks.iter().copied().max().unwrap_or(0),
            increment_ms,
            rated,
            seats,
            status: "playing".into(),
            result: None,
            reason: None,
            explanation: None,
            clocks: clocks
                .iter()
                .map(|&c| Hall::turn_time(table.as_ref(), c))
                .collect(),
            created_ms: now_ms,
            updated_ms: now_ms,
            rematch_of: None,
            placings: None,
        };
        self.install_game(row, table, true, None, abortable, None)
            .await
    }
}

/// The schema of `options` in `POST /api/games`: option name -> value, at
/// most 16 (the options themselves are listed at `GET /api/kinds`).
fn room_options_schema() -> impl Into<utoipa::openapi::RefOr<utoipa::openapi::schema::Schema>> {
    utoipa::openapi::schema::ObjectBuilder::new()
        .schema_type(utoipa::openapi::schema::SchemaType::from_iter([utoipa::openapi::schema::Type::Object, utoipa::openapi::schema::Type::Null]))
        .description(Some(
            "the variant's options (GET /api/kinds), e.g. {\"target\": 30} or {\"base\": 2}; top-level target and base are older spellings of the same",
        ))
        .additional_properties(Some(utoipa::openapi::schema::ObjectBuilder::new().schema_type(utoipa::openapi::schema::Type::Integer)))
        .max_properties(Some(16))
        .build()
}
