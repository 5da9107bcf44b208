//! The commands a game's task runs ([`GameCommand`]), one at a time: the
//! domain's own words, read from HTTP bodies and socket frames at the edge,
//! so no game logic matches on strings and no closure crosses the mailbox.

use std::sync::Arc;
use std::time::Instant;

use qiyuan_core::{Outcome, TableGame};
use serde::{Deserialize, Serialize};
use tokio::sync::oneshot;
use utoipa::ToSchema;

use crate::domain::chat::{ChatLine, ChatList};
use crate::domain::hall::{Hall, HallResult, Live};
use crate::domain::my_games::MyGame;
use crate::domain::state_view::GameStateView;
use crate::store::{ChatReport, GameRow, User};

/// What a player does with a proposal (a draw offer, a takeback request).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Answer {
    /// Propose it (for a draw: accepts the opponent's standing offer).
    #[default]
    Offer,
    /// Accept the opponent's proposal.
    Accept,
    /// Decline the opponent's proposal.
    Decline,
}

/// A command run on a game's task: each carries what it needs and the
/// channel its answer goes back on.
pub(crate) enum GameCommand {
    /// A player's move; with `with_state`, answers the state they see.
    Play {
        user: User,
        mv: String,
        lag_ms: i64,
        with_state: bool,
        reply: Reply<HallResult<Option<GameStateView>>>,
    },
    /// A player resigns.
    Resign {
        user: User,
        reply: Reply<HallResult<GameStateView>>,
    },
    /// A player offers, accepts or declines a draw.
    Draw {
        user: User,
        answer: Answer,
        reply: Reply<HallResult<GameStateView>>,
    },
    /// A player asks for, accepts or declines a takeback.
    Takeback {
        user: User,
        answer: Answer,
        reply: Reply<HallResult<GameStateView>>,
    },
    /// A player claims what the rules allow now.
    Claim {
        user: User,
        reply: Reply<HallResult<GameStateView>>,
    },
    /// A player offers or accepts a rematch; answers the new game's id.
    Rematch {
        user: User,
        reply: Reply<HallResult<Option<String>>>,
    },
    /// The creator cancels a waiting room, or the challenged user declines it.
    Withdraw {
        user: User,
        reply: Reply<HallResult<()>>,
    },
    /// A player aborts the game before both sides moved.
    Abort {
        user: User,
        reply: Reply<HallResult<GameStateView>>,
    },
    /// A player claims the win (or a draw) against an opponent who left.
    ClaimVictory {
        user: User,
        draw: bool,
        reply: Reply<HallResult<GameStateView>>,
    },
    /// A user takes the open seat; answers the seat.
    Join {
        user: User,
        reply: Reply<HallResult<usize>>,
    },
    /// A player's chat line (already checked).
    ChatSend {
        user: User,
        text: String,
        reply: Reply<HallResult<ChatLine>>,
    },
    /// The chat lines a player may read.
    ChatLines {
        user: User,
        reply: Reply<HallResult<ChatList>>,
    },
    /// A player mutes or unmutes the others.
    ChatMute {
        user: User,
        mute: bool,
        reply: Reply<HallResult<ChatList>>,
    },
    /// A player reports line `line`; answers the report to store, if new.
    ChatReport {
        user: User,
        line: u64,
        reply: Reply<HallResult<Option<ChatReport>>>,
    },
    /// The state as `user` (or a spectator) sees it.
    State {
        user: Option<User>,
        reply: Reply<GameStateView>,
    },
    /// The seat of `user`, if any.
    SeatOf {
        user: User,
        reply: Reply<Option<usize>>,
    },
    /// What a client that saw version `since` from `seat_before` needs.
    CatchUp {
        user: Option<User>,
        since: Option<u64>,
        seat_before: Option<usize>,
        reply: Reply<CatchUpFrames>,
    },
    /// Ends a game in play (an event's time cap); false if it was over.
    End {
        outcome: Outcome,
        reply: Reply<HallResult<bool>>,
    },
    /// The stored record as it stands.
    Row { reply: Reply<GameRow> },
    /// The record as PGN, in a notation the game offers (`None`: its
    /// default), with `site` (a link to the game) as its `Site`.
    Pgn {
        notation: Option<String>,
        site: Option<String>,
        reply: Reply<HallResult<String>>,
    },
    /// The game as `user`'s list of games shows it; none once it is over.
    Listing {
        user: User,
        reply: Reply<Option<MyGame>>,
    },
    /// A copy of the table for an AI seat to think on, if the game is
    /// still at `version`.
    AiProbe {
        seat: usize,
        version: u64,
        people: bool,
        reply: Reply<Option<Box<dyn TableGame>>>,
    },
    /// An AI seat's move, played if the game is still at `version`.
    AiMove {
        seat: usize,
        version: u64,
        mv: String,
        reply: Reply<HallResult<()>>,
    },
}

/// The channel a command's answer goes back on.
pub(crate) type Reply<T> = oneshot::Sender<T>;

/// Frames a client missed (or the full state), the version and its seat.
pub(crate) type CatchUpFrames = (Vec<Arc<str>>, u64, Option<usize>);

impl Hall {
    /// Runs `command` on the game's state (on the game's task). A caller
    /// that stopped waiting loses nothing: the answer is dropped.
    pub(crate) async fn run_command(&self, live: &mut Live, command: GameCommand) {
        use GameCommand as C;
        live.watchers = self.watchers.of(&live.row.id);
        match command {
            C::Play {
                user,
                mv,
                lag_ms,
                with_state,
                reply,
            } => {
                let _ = reply.send(self.play_in(live, &user, &mv, lag_ms, with_state).await);
            }
            C::Resign { user, reply } => {
                let _ = reply.send(self.resign_in(live, user).await);
            }
            C::Draw {
                user,
                answer,
                reply,
            } => {
                let _ = reply.send(self.draw_in(live, user, answer).await);
            }
            C::Takeback {
                user,
                answer,
                reply,
            } => {
                let _ = reply.send(self.takeback_in(live, user, answer).await);
            }
            C::Claim { user, reply } => {
                let _ = reply.send(self.claim_in(live, user).await);
            }
            C::Rematch { user, reply } => {
                let _ = reply.send(self.rematch_in(live, user).await);
            }
            C::Withdraw { user, reply } => {
                let _ = reply.send(self.withdraw_in(live, user).await);
            }
            C::Abort { user, reply } => {
                let _ = reply.send(self.abort_in(live, user).await);
            }
            C::ClaimVictory { user, draw, reply } => {
                let _ = reply.send(self.claim_victory_in(live, user, draw).await);
            }
            C::Join { user, reply } => {
                let _ = reply.send(self.join_game(live, user).await);
            }
            C::ChatSend { user, text, reply } => {
                let _ = reply.send(self.chat_send_in(live, &user, text));
            }
            C::ChatLines { user, reply } => {
                let _ = reply.send(Hall::chat_lines_in(live, &user));
            }
            C::ChatMute { user, mute, reply } => {
                let _ = reply.send(Hall::chat_mute_in(live, &user, mute));
            }
            C::ChatReport { user, line, reply } => {
                let _ = reply.send(Hall::chat_report_in(live, &user, line));
            }
            C::State { user, reply } => {
                let _ = reply.send(self.state_in(live, user.as_ref()).await);
            }
            C::SeatOf { user, reply } => {
                let _ = reply.send(Hall::seat_of(live, &user));
            }
            C::CatchUp {
                user,
                since,
                seat_before,
                reply,
            } => {
                let _ = reply.send(Hall::catch_up_in(live, user.as_ref(), since, seat_before));
            }
            C::End { outcome, reply } => {
                let _ = reply.send(self.end_in(live, outcome).await);
            }
            C::Row { reply } => {
                self.flag_check(live, Instant::now()).await;
                let _ = reply.send(live.row.clone());
            }
            C::Pgn {
                notation,
                site,
                reply,
            } => {
                let _ = reply.send(Hall::pgn_of(live, notation.as_deref(), site));
            }
            C::Listing { user, reply } => {
                let _ = reply.send(self.listing_in(live, &user).await);
            }
            C::AiProbe {
                seat,
                version,
                people,
                reply,
            } => {
                let _ = reply.send(Hall::ai_probe_in(live, seat, version, people));
            }
            C::AiMove {
                seat,
                version,
                mv,
                reply,
            } => {
                // Something happened meanwhile (a move, an offer, a
                // resignation, a timeout): the task thinks again.
                let played = if live.version() == version {
                    self.play_locked(live, seat, &mv, 0).await
                } else {
                    Ok(())
                };
                let _ = reply.send(played);
            }
        }
    }
}
