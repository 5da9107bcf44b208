//! Takebacks in casual games (issue 18), shaped like draw offers: a player
//! asks (`offer`), the opponent accepts or declines; moving instead of
//! answering declines. An accepted takeback undoes the asker's last move,
//! and the opponent's reply after it when it is the asker's turn: the game
//! goes back to the ply before the asker's last move, which is then the
//! asker's to play again.
//!
//! Only unrated two-seat games that hide nothing and belong to no event
//! offer takebacks: a rated result must not be negotiable, and in a game
//! with a secret set-up (face-down pieces, hidden army set-ups) replaying
//! from an earlier ply would let a player retry with what a flip or a clash
//! revealed (see [`refusal`]). An AI opponent accepts at once: the
//! game is casual, and the AI loses nothing by replaying a ply.
//!
//! Durability: the taken-back moves leave the `moves` table for a
//! `takebacks` row in the same transaction as the game row
//! ([`crate::store::Storage::take_back`]), so a restart replays the game
//! without them, and the record of what was taken back stays. The clocks
//! keep what they read (the increments already added stay too): nobody gets
//! thinking time back.

use std::time::Instant;

use crate::clock::wall_ms;
use crate::domain::command::Answer;
use crate::domain::command::GameCommand;
use crate::domain::hall::{Hall, HallError, HallResult, Live, not_a_player};
use crate::domain::state_view::GameStateView;
use crate::error::ErrorCode;
use crate::store::{SeatRow, User};

/// A game's takeback requests and their answers.
#[derive(Clone, Debug, Default)]
pub struct Takeback {
    /// The seat whose request stands.
    pub offer: Option<usize>,
    /// The last declined request: the seat that declined it and the version
    /// of that change (its frames carry `takeback_declined`).
    pub declined: Option<(usize, u64)>,
    /// The last accepted request: the seat that asked and the version of
    /// the change that took the moves back (`takeback_accepted`).
    pub accepted: Option<(usize, u64)>,
    /// A declined asker and the game's plies then: it may ask again only
    /// once the game has moved on (no repeated asking).
    refused_at: Option<(usize, usize)>,
}

/// Whether `live` offers takebacks at all (what the page shows as the
/// button; the request also refuses event games).
pub(crate) fn offered(live: &Live) -> bool {
    !live.row.rated && live.row.seats.len() == 2 && !live.table.hides_information()
}

/// Whether `seat` could ask for a takeback in `live` now: the game offers
/// them, is in play, and the seat has a move to take back.
pub(crate) fn possible_for(live: &Live, seat: usize) -> bool {
    offered(live) && live.row.status == "playing" && live.move_seats.contains(&seat)
}

/// Why `live` offers no takebacks, if it offers none.
fn refusal(hall: &Hall, live: &Live) -> Option<HallError> {
    if live.row.rated {
        return Some(
            HallError::conflict("takebacks are for unrated games only")
                .with_code(ErrorCode::TakebackRated),
        );
    }
    if !offered(live) || hall.extensions.affiliated(&live.row.id) {
        return Some(
            HallError::conflict(
                "this game offers no takebacks (hidden information, more than two seats, or an event game)",
            )
            .with_code(ErrorCode::TakebackUnavailable),
        );
    }
    None
}

fn nothing_to_take_back() -> HallError {
    HallError::conflict("you have no move to take back").with_code(ErrorCode::NothingToTakeBack)
}

impl Hall {
    /// Asks for a takeback (`offer`), or accepts or declines the
    /// opponent's request.
    pub async fn takeback(
        &self,
        id: &str,
        user: &User,
        action: Answer,
    ) -> HallResult<GameStateView> {
        let user = user.clone();
        self.ask(id, |reply| GameCommand::Takeback {
            user,
            answer: action,
            reply,
        })
        .await?
    }

    pub(crate) async fn takeback_in(
        &self,
        live: &mut Live,
        user: User,
        action: Answer,
    ) -> HallResult<GameStateView> {
        let seat = Hall::seat_of(live, &user).ok_or_else(not_a_player)?;
        if live.row.status == "playing" && self.flag_check(live, Instant::now()).await {
            return Err(HallError::conflict("the game is over: time ran out")
                .with_code(ErrorCode::GameOver));
        }
        match live.row.status.as_str() {
            "finished" => {
                return Err(HallError::conflict("the game is over").with_code(ErrorCode::GameOver));
            }
            "waiting" => return Err(HallError::conflict("the game has not started")),
            _ => {}
        }
        if let Some(e) = refusal(self, live) {
            return Err(e);
        }
        let plies = live.table.plies();
        let theirs = live.takeback.offer.filter(|&s| s != seat);
        match (action, theirs) {
            (Answer::Offer, Some(_)) => {
                return Err(HallError::conflict(
                    "your opponent's takeback request stands: accept or decline it first",
                )
                .with_code(ErrorCode::TakebackPending));
            }
            (Answer::Offer, None) => {
                if live.takeback.offer == Some(seat) {
                    return Err(HallError::conflict("your takeback request already stands")
                        .with_code(ErrorCode::TakebackPending));
                }
                if live.takeback.refused_at == Some((seat, plies)) {
                    return Err(HallError::conflict(
                        "your takeback request was declined: ask again after the next move",
                    )
                    .with_code(ErrorCode::TakebackDeclined));
                }
                self.cut_for(live, seat).await?;
                live.takeback.offer = Some(seat);
                self.announce(live);
                // An AI opponent accepts at once (see the module docs).
                let ai_opponent = live
                    .row
                    .seats
                    .iter()
                    .enumerate()
                    .any(|(i, s)| i != seat && matches!(s, SeatRow::Ai { .. }));
                if ai_opponent {
                    self.take_back(live, seat).await?;
                }
            }
            (Answer::Accept, Some(asker)) => self.take_back(live, asker).await?,
            (Answer::Decline, Some(asker)) => {
                live.takeback.offer = None;
                live.takeback.declined = Some((seat, live.version() + 1));
                live.takeback.refused_at = Some((asker, plies));
                self.announce(live);
            }
            _ => {
                return Err(
                    HallError::conflict("there is no takeback request to answer")
                        .with_code(ErrorCode::NoTakebackRequest),
                );
            }
        }
        Ok(Hall::state_view(live, Some(seat)))
    }

    /// The stored moves of `live` and the ply the game goes back to for
    /// `asker`'s takeback (the ply of its last move).
    async fn cut_for(
        &self,
        live: &Live,
        asker: usize,
    ) -> HallResult<(Vec<crate::store::MoveRow>, usize)> {
        let loaded = self
            .store
            .load_game(&live.row.id)
            .await
            .map_err(HallError::internal)?;
        let Some((_, moves)) = loaded else {
            return Err(HallError::internal("a live game is not stored"));
        };
        if moves.len() != live.table.plies() {
            return Err(HallError::internal(
                "the stored moves differ from the game in memory",
            ));
        }
        let cut = moves
            .iter()
            .rposition(|m| m.seat == asker as i64)
            .ok_or_else(nothing_to_take_back)?;
        Ok((moves, cut))
    }

    /// Takes `asker`'s last move back (and what followed it): the game is
    /// replayed from its set-up without those moves, stored, then announced.
    async fn take_back(&self, live: &mut Live, asker: usize) -> HallResult<()> {
        self.check_owner(live)?;
        let (moves, cut) = self.cut_for(live, asker).await?;
        let secret = self
            .store
            .game_setup(&live.row.id)
            .await
            .map_err(HallError::internal)?;
        let rebuilt = self
            .rebuild(live.row.clone(), &moves[..cut], secret)
            .map_err(HallError::internal)?;
        let before = (live.row.clone(), live.clocks.clone());
        let now = Instant::now();
        let table = std::mem::replace(&mut live.table, rebuilt.table);
        let move_clocks = std::mem::replace(&mut live.move_clocks, rebuilt.move_clocks);
        let move_seats = std::mem::replace(&mut live.move_seats, rebuilt.move_seats);
        live.clocks.stop(now);
        live.clocks.start(&live.table.seats_to_move(), now);
        self.hold_first_move(live, now);
        Hall::fresh_turn(live);
        live.row.clocks = live.clocks.remaining.clone();
        live.row.updated_ms = wall_ms();
        let fence = live.fence.clone();
        let stored = self
            .store
            .take_back(&live.row, cut as i64, asker, fence.as_ref())
            .await;
        if let Err(e) = stored {
            live.table = table;
            live.move_clocks = move_clocks;
            live.move_seats = move_seats;
            (live.row, live.clocks) = before;
            return Err(self.refused(live, e));
        }
        live.draw_offer = None;
        live.draw_agreed.clear();
        live.takeback.offer = None;
        live.takeback.refused_at = None;
        live.takeback.accepted = Some((asker, live.version() + 1));
        self.announce(live);
        Ok(())
    }
}
