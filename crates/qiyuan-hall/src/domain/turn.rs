//! Turns and ends: the one commit sequence of a turn (a move or a lost
//! turn), the end of a game from outside its rules (resignation, a fallen
//! flag, agreement, a claim, an event's time cap) and what follows a game's
//! end. Order of every change: validate, apply in memory, **store**, then
//! announce; a failed store rolls the in-memory change back.

use std::time::Instant;

use qiyuan_core::{ClaimRefusal, ClaimVerdict, EndReason, FlagFall, Outcome, Resigned, TableGame};

use crate::clock::wall_ms;
use crate::domain::command::Answer;
use crate::domain::command::GameCommand;
use crate::domain::hall::{Hall, HallError, HallResult, Live, ServerChance, not_a_player};
use crate::domain::state_view::GameStateView;
use crate::domain::view::result_name;
use crate::error::ErrorCode;
use crate::store::{GameRow, MoveRow, SeatRow, User};

impl Hall {
    /// Plays a move for `user`; `lag_ms` is the network time credited
    /// (WebSocket only). With `reply`, returns the player's state after it
    /// (sockets get theirs from the event log instead).
    pub async fn play(
        &self,
        id: &str,
        user: &User,
        mv: &str,
        lag_ms: i64,
        reply: bool,
    ) -> HallResult<Option<GameStateView>> {
        self.ask(id, |r| GameCommand::Play {
            user: user.clone(),
            mv: mv.to_string(),
            lag_ms,
            with_state: reply,
            reply: r,
        })
        .await?
    }

    /// A player's move on the game's task.
    pub(crate) async fn play_in(
        &self,
        live: &mut Live,
        user: &User,
        mv: &str,
        lag_ms: i64,
        with_state: bool,
    ) -> HallResult<Option<GameStateView>> {
        let seat = Hall::seat_of(live, user).ok_or_else(not_a_player)?;
        self.play_locked(live, seat, mv, lag_ms).await?;
        Ok(with_state.then(|| Hall::state_view(live, Some(seat))))
    }

    pub(crate) async fn play_locked(
        &self,
        live: &mut Live,
        seat: usize,
        mv: &str,
        lag_ms: i64,
    ) -> HallResult<()> {
        let started = Instant::now();
        match live.row.status.as_str() {
            "waiting" => {
                return Err(HallError::conflict(
                    "the game has not started: a seat is still open",
                ));
            }
            "finished" => {
                return Err(HallError::conflict("the game is over").with_code(ErrorCode::GameOver));
            }
            _ => {}
        }
        if mv.len() > crate::limits::MAX_MOVE_LEN {
            return Err(HallError::bad("malformed move: too long")
                .with_code(ErrorCode::IllegalMove)
                .with("move", crate::error::shown(mv)));
        }
        let now = Instant::now();
        if self.flag_check(live, now).await {
            return Err(HallError::conflict("the game is over: time ran out"));
        }
        if !live.table.seats_to_move().contains(&seat) {
            return Err(HallError::conflict("not your turn").with_code(ErrorCode::NotYourTurn));
        }
        let mut after = live.table.boxed_clone();
        let mut chance = ServerChance::default();
        after.play_for(seat, mv, &mut chance).map_err(|e| {
            HallError::bad(e.to_string())
                .with_code(ErrorCode::IllegalMove)
                .with("move", crate::error::shown(mv))
        })?;
        // Moving instead of answering a draw offer declines it.
        let offer = live.draw_offer;
        let agreed = live.draw_agreed.clone();
        let declined = offer.filter(|&s| s != seat && !agreed.contains(&seat));
        if declined.is_some() {
            live.draw_offer = None;
            live.draw_agreed.clear();
        }
        // Any move ends a takeback request (the opponent's declines it).
        let takeback = live.takeback.offer.take();
        if let Err(e) = self
            .commit_turn(live, seat, after, chance.draws, now, lag_ms)
            .await
        {
            live.draw_offer = offer;
            live.draw_agreed = agreed;
            live.takeback.offer = takeback;
            return Err(e);
        }
        if let Some(offerer) = declined {
            self.fouls.declined(&live.row.id, offerer);
        }
        self.fouls.moved(&live.row.id, seat);
        self.metrics.moves.inc();
        self.metrics
            .move_latency
            .observe(started.elapsed().as_secs_f64());
        Ok(())
    }

    pub(crate) fn mark_finished(
        row: &mut GameRow,
        names: &[String],
        o: &Outcome,
        placings: Option<Vec<Vec<usize>>>,
    ) {
        row.status = "finished".into();
        row.result = Some(result_name(names, o));
        // A team win is a ranking of its own, kept for ratings and reloads.
        row.placings =
            placings.or_else(|| (!o.partners.is_empty()).then(|| o.placings(names.len())));
        row.reason = Some(o.reason.as_str().into());
        row.explanation = Some(o.explanation.clone());
    }

    /// Ends a live game from outside its rules, stores and announces it.
    pub(crate) async fn finish(&self, live: &mut Live, outcome: Outcome) -> HallResult<()> {
        if live.row.status == "finished" {
            return Err(HallError::conflict("the game is over"));
        }
        self.check_owner(live)?;
        let was_playing = live.row.status == "playing";
        let now = Instant::now();
        let before = (live.row.clone(), live.clocks.clone());
        live.clocks.stop(now);
        Hall::mark_finished(&mut live.row, &live.seat_names, &outcome, None);
        live.row.clocks = live.clocks.remaining.clone();
        live.row.updated_ms = wall_ms();
        let fence = live.fence.clone();
        if let Err(e) = self.store.update_game(&live.row, fence.as_ref()).await {
            (live.row, live.clocks) = before;
            return Err(self.refused(live, e));
        }
        live.table.end(outcome);
        live.draw_offer = None;
        live.draw_agreed.clear();
        live.takeback.offer = None;
        self.announce(live);
        self.game_ended(live, was_playing).await;
        Ok(())
    }

    /// Ends the game on time if the running flag has fallen; true if it did.
    pub(crate) async fn flag_check(&self, live: &mut Live, now: Instant) -> bool {
        // An AI-only game waiting for the AI slot is not on the clock.
        if live.row.status != "playing" || self.ai_pool.is_queued(&live.row.id) {
            return false;
        }
        if self.abort_on_time(live, now).await {
            return true;
        }
        let Some(seat) = live.clocks.flagged(now) else {
            return false;
        };
        // A saved preset marked for this (a set-up kept between games) acts first.
        if let Some(ended) = self.timeout_preset_turn(live, seat, now).await {
            return ended;
        }
        // What a fallen flag means is the game's to say.
        let mut probe = live.table.boxed_clone();
        let outcome = match probe.flag_falls(seat) {
            FlagFall::TurnLost => return self.lost_turn(live, seat, probe, now).await,
            FlagFall::Ends(outcome) => outcome,
        };
        if let Err(e) = self.finish(live, outcome).await {
            tracing::error!(game = %live.row.id, error = ?e, "cannot store a timeout");
            return false;
        }
        true
    }

    /// B12: `seat` ran out of time and lost its turn (`table` is the game
    /// after it). Stored like a move, then announced; true if that ended the
    /// game (the third mark).
    pub(crate) async fn lost_turn(
        &self,
        live: &mut Live,
        seat: usize,
        table: Box<dyn TableGame>,
        now: Instant,
    ) -> bool {
        match self
            .commit_turn(live, seat, table, Vec::new(), now, 0)
            .await
        {
            Err(e) => {
                tracing::error!(game = %live.row.id, error = ?e, "cannot store a lost turn");
                false
            }
            // The game's task lets an AI seat act next.
            Ok(outcome) => outcome.is_some(),
        }
    }

    /// `seat`'s preset, played for it when its flag fell (`table` is the
    /// game after it, `draws` what it drew): stored like a move; true if
    /// that ended the game.
    pub(crate) async fn preset_turn(
        &self,
        live: &mut Live,
        seat: usize,
        table: Box<dyn TableGame>,
        draws: Vec<u32>,
        now: Instant,
    ) -> bool {
        match self.commit_turn(live, seat, table, draws, now, 0).await {
            Err(e) => {
                tracing::error!(game = %live.row.id, error = ?e, "cannot store a preset played on time");
                false
            }
            Ok(outcome) => outcome.is_some(),
        }
    }

    /// The one commit sequence of a turn (a move, or a lost turn): `after` is
    /// the game after it, `draws` the chance it drew (stored with it). Charges `seat`'s clock (less `lag_ms`), stores the
    /// turn with the game row in one transaction, and only then announces it;
    /// a failed store leaves the game as it was. The outcome, if the turn
    /// ended the game.
    async fn commit_turn(
        &self,
        live: &mut Live,
        seat: usize,
        after: Box<dyn TableGame>,
        draws: Vec<u32>,
        now: Instant,
        lag_ms: i64,
    ) -> HallResult<Option<Outcome>> {
        self.check_owner(live)?;
        let before = (live.row.clone(), live.clocks.clone());
        let snapshot = std::mem::replace(&mut live.table, after);
        let next = live.table.seats_to_move();
        // The turn goes on only in the middle of a multi-move turn: a seat
        // that ends one turn and acts in the next (a secret set-up, sent or
        // given on time, and then the first move) earns its increment as
        // the other seat does.
        let turn_ends = !(next.contains(&seat) && live.table.turn_phase() > 1);
        live.clocks.charge_turn(seat, now, lag_ms, &next, turn_ends);
        live.move_seats.push(seat);
        self.hold_first_move(live, now);
        live.move_seats.pop();
        Hall::fresh_turn(live);
        let outcome = live.table.result().cloned();
        if let Some(o) = &outcome {
            live.clocks.stop(now);
            let placings = live.table.placings();
            Hall::mark_finished(&mut live.row, &live.seat_names, o, placings);
        }
        live.row.clocks = live.clocks.remaining.clone();
        live.row.updated_ms = wall_ms();
        let mrow = MoveRow {
            ply: live.table.plies() as i64 - 1,
            seat: seat as i64,
            mv: live.table.last_move().unwrap_or_default(),
            clocks: live.clocks.remaining.clone(),
            at_ms: live.row.updated_ms,
            draws,
        };
        let fence = live.fence.clone();
        if let Err(e) = self
            .store
            .append_move(&live.row, &mrow, fence.as_ref())
            .await
        {
            live.table = snapshot;
            (live.row, live.clocks) = before;
            return Err(self.refused(live, e));
        }
        live.move_clocks.push(mrow.clocks);
        live.move_seats.push(seat);
        self.announce(live);
        if outcome.is_some() {
            self.game_ended(live, true).await;
        }
        Ok(outcome)
    }

    /// What follows a stored end: counters, the lobby, and the finisher's
    /// listeners (ledgers, ratings, events).
    async fn game_ended(&self, live: &Live, was_playing: bool) {
        if was_playing {
            self.metrics.games_in_play.dec();
        }
        self.update_lobby(live);
        self.tell_game_finish(live);
        self.pools.finished(&live.row.id);
        self.finisher.publish(self, live).await;
    }

    /// Resigns for `user`.
    pub async fn resign(&self, id: &str, user: &User) -> HallResult<GameStateView> {
        let user = user.clone();
        self.ask(id, |reply| GameCommand::Resign { user, reply })
            .await?
    }

    pub(crate) async fn resign_in(&self, live: &mut Live, user: User) -> HallResult<GameStateView> {
        let seat = Hall::seat_of(live, &user).ok_or_else(not_a_player)?;
        if live.row.status != "playing" {
            return Err(HallError::conflict(if live.row.status == "finished" {
                "the game is over"
            } else {
                "the game has not started"
            }));
        }
        if let Some(why) = live.table.concession_refused() {
            return Err(HallError::conflict(why));
        }
        let mut probe = live.table.boxed_clone();
        match probe.resigns(seat) {
            // T14: out of a game that goes on, stored like a move.
            Resigned::Out => {
                self.commit_turn(live, seat, probe, Vec::new(), Instant::now(), 0)
                    .await?;
            }
            Resigned::Ends(outcome) => self.finish(live, outcome).await?,
            Resigned::Refused(why) => return Err(HallError::conflict(why)),
        }
        Ok(Hall::state_view(live, Some(seat)))
    }

    /// Offers, accepts (`accept`, or `offer` while the opponent's offer
    /// stands) or declines a draw.
    pub async fn draw(&self, id: &str, user: &User, action: Answer) -> HallResult<GameStateView> {
        let user = user.clone();
        self.ask(id, |reply| GameCommand::Draw {
            user,
            answer: action,
            reply,
        })
        .await?
    }

    pub(crate) async fn draw_in(
        &self,
        live: &mut Live,
        user: User,
        action: Answer,
    ) -> HallResult<GameStateView> {
        let seat = Hall::seat_of(live, &user).ok_or_else(not_a_player)?;
        if live.row.status != "playing" {
            return Err(HallError::conflict("the game is not being played"));
        }
        if let Some(why) = live.table.concession_refused() {
            return Err(HallError::conflict(why));
        }
        if let Some(voters) = live.table.draw_voters() {
            self.draw_by_all(live, seat, action, &voters).await?;
            return Ok(Hall::state_view(live, Some(seat)));
        }
        let theirs = live.draw_offer.filter(|&s| s != seat);
        match (action, theirs) {
            (Answer::Offer | Answer::Accept, Some(_)) => self.finish(live, agreement()).await?,
            (Answer::Accept, None) => {
                return Err(HallError::conflict("there is no draw offer to accept"));
            }
            (Answer::Offer, None) => {
                if live.draw_offer == Some(seat) {
                    return Err(HallError::conflict("your draw offer already stands"));
                }
                if self.fouls.offered(&live.row.id, seat) {
                    // X8: offered again before the opponent made two moves since the refusal.
                    self.record_foul(&live.row.id, seat).await;
                }
                live.draw_offer = Some(seat);
                self.announce(live);
                // AI opponents answer at once, by their evaluation.
                match self.ai_answer_draw(live, seat).await {
                    AiAnswer::Accepted => self.finish(live, agreement()).await?,
                    AiAnswer::Declined(by) => self.decline_draw(live, seat, by),
                    AiAnswer::Open => {}
                }
            }
            (Answer::Decline, Some(offerer)) => self.decline_draw(live, offerer, seat),
            (Answer::Decline, None) => {
                return Err(HallError::conflict("there is no draw offer to decline"));
            }
        }
        Ok(Hall::state_view(live, Some(seat)))
    }

    /// A draw offer in a game whose draw needs every seat in `voters`
    /// (a team game): each offer or acceptance adds the seat's agreement,
    /// AI voters answer at once, and the game is drawn when all agree; one
    /// refusal declines it.
    async fn draw_by_all(
        &self,
        live: &mut Live,
        seat: usize,
        action: Answer,
        voters: &[usize],
    ) -> HallResult<()> {
        if !voters.contains(&seat) {
            return Err(HallError::conflict(
                "only players still in the game vote on a draw",
            ));
        }
        match (action, live.draw_offer) {
            (Answer::Decline, Some(offerer)) => {
                self.decline_draw(live, offerer, seat);
                return Ok(());
            }
            (Answer::Decline | Answer::Accept, None) => {
                return Err(HallError::conflict("there is no draw offer to answer"));
            }
            (Answer::Offer | Answer::Accept, _) => {}
        }
        if live.draw_agreed.contains(&seat) {
            return Err(HallError::conflict("your draw offer already stands"));
        }
        if live.draw_offer.is_none() {
            live.draw_offer = Some(seat);
        }
        live.draw_agreed.push(seat);
        // AI voters answer now, by their evaluation.
        let ais: Vec<(usize, u8)> = voters
            .iter()
            .filter(|s| !live.draw_agreed.contains(s))
            .filter_map(|&s| match live.row.seats.get(s) {
                Some(SeatRow::Ai { level }) => Some((s, *level)),
                _ => None,
            })
            .collect();
        if !ais.is_empty()
            && let Some((kind, _)) = self.games.find(live.table.rules_name())
        {
            for (ai_seat, level) in ais {
                let (kind, probe) = (kind.clone(), live.table.boxed_clone());
                let accepts = tokio::task::spawn_blocking(move || {
                    kind.ai()
                        .is_some_and(|ai| ai.accepts_draw(probe.as_ref(), ai_seat, level))
                })
                .await
                .unwrap_or(false);
                if !accepts {
                    let offerer = live.draw_offer.unwrap_or(seat);
                    self.decline_draw(live, offerer, ai_seat);
                    return Ok(());
                }
                live.draw_agreed.push(ai_seat);
            }
        }
        if voters.iter().all(|s| live.draw_agreed.contains(s)) {
            let mut o = agreement();
            o.explanation = "全体同意和棋 / draw agreed by every player".into();
            return self.finish(live, o).await;
        }
        self.announce(live);
        Ok(())
    }

    /// `offerer`'s draw offer is declined by `by`: the offer is cleared and
    /// the change's frames say who declined (`draw_declined`).
    fn decline_draw(&self, live: &mut Live, offerer: usize, by: usize) {
        live.draw_offer = None;
        live.draw_agreed.clear();
        live.draw_declined = Some((by, live.version() + 1));
        self.fouls.declined(&live.row.id, offerer);
        self.announce(live);
    }

    /// What the AI seats other than `offerer` say to its draw offer: each
    /// is asked through its kind's [`qiyuan_core::GameAi::accepts_draw`]
    /// (a bounded search on a blocking thread). One acceptance ends the
    /// game, as a person's would; the offer is declined only when every
    /// other seat is an AI and none accepts (people may still answer).
    async fn ai_answer_draw(&self, live: &Live, offerer: usize) -> AiAnswer {
        let others: Vec<(usize, &SeatRow)> = live
            .row
            .seats
            .iter()
            .enumerate()
            .filter(|&(i, _)| i != offerer)
            .collect();
        let ais: Vec<(usize, u8)> = others
            .iter()
            .filter_map(|&(i, s)| match s {
                SeatRow::Ai { level } => Some((i, *level)),
                _ => None,
            })
            .collect();
        let Some(&(first_ai, _)) = ais.first() else {
            return AiAnswer::Open;
        };
        let Some((kind, _)) = self.games.find(live.table.rules_name()) else {
            return AiAnswer::Open;
        };
        for (seat, level) in ais.iter().copied() {
            let (kind, probe) = (kind.clone(), live.table.boxed_clone());
            let accepts = tokio::task::spawn_blocking(move || {
                kind.ai()
                    .is_some_and(|ai| ai.accepts_draw(probe.as_ref(), seat, level))
            })
            .await
            .unwrap_or(false);
            if accepts {
                return AiAnswer::Accepted;
            }
        }
        if ais.len() == others.len() {
            AiAnswer::Declined(first_ai)
        } else {
            AiAnswer::Open
        }
    }

    /// Claims a draw by the natural move limit (X4); the game judges it.
    pub async fn claim(&self, id: &str, user: &User) -> HallResult<GameStateView> {
        let user = user.clone();
        self.ask(id, |reply| GameCommand::Claim { user, reply })
            .await?
    }

    pub(crate) async fn claim_in(&self, live: &mut Live, user: User) -> HallResult<GameStateView> {
        let seat = Hall::seat_of(live, &user).ok_or_else(not_a_player)?;
        if live.row.status != "playing" {
            return Err(HallError::conflict("the game is not being played"));
        }
        let mut probe = live.table.boxed_clone();
        match probe.claim(seat) {
            ClaimVerdict::Granted(outcome) => {
                self.finish(live, outcome).await?;
                Ok(Hall::state_view(live, Some(seat)))
            }
            ClaimVerdict::Refused(refusal) => {
                // X8: an untrue claim of the natural move limit is a foul.
                self.record_foul(&live.row.id, seat).await;
                Err(claim_refused(&refusal))
            }
        }
    }

    /// Stores a technical foul (X8); a storage failure is logged, not fatal:
    /// the move or offer that caused it stands either way.
    pub(crate) async fn record_foul(&self, id: &str, seat: usize) {
        if let Err(e) = self.store.add_foul(id, seat).await {
            tracing::error!(game = %id, error = %e, "cannot store a foul");
        }
    }
}

/// The 409 `claim_refused` for `refusal`: the sentence for bots, and its
/// values as details (`why`, `rule`, and for `too_early` `plies` and
/// `needed`), so the page can say it in the reader's language.
fn claim_refused(refusal: &ClaimRefusal) -> HallError {
    let mut e = HallError::new(
        ErrorCode::ClaimRefused,
        format!("claim refused (a technical foul, X8): {refusal}"),
    )
    .with("why", refusal.why())
    .with("foul", true);
    if let Some(rule) = refusal.rule() {
        e = e.with("rule", rule);
    }
    if let ClaimRefusal::TooEarly { plies, needed, .. } = refusal {
        e = e.with("plies", *plies).with("needed", *needed);
    }
    e
}

/// The AI seats' answer to a draw offer.
enum AiAnswer {
    /// An AI seat accepted: the game is drawn.
    Accepted,
    /// Every other seat is an AI and none accepted; the first declined.
    Declined(usize),
    /// Nothing to do: no AI seat to ask, or people still to answer.
    Open,
}

/// A draw by agreement.
fn agreement() -> Outcome {
    Outcome {
        winner: None,
        partners: Vec::new(),
        reason: EndReason::Agreement,
        explanation: "双方同意和棋 / draw by agreement".into(),
    }
}
