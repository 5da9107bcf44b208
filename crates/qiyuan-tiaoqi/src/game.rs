//! A game in progress, judged after every move: the win (T8) with the
//! stayer exception, the dead game (T9), scores and the optional ranking of
//! the rest (T10), and players leaving (T14). T7 lives in the position,
//! because it decides which moves are legal.
//!
//! See the crate documentation for the choices made where the rules are
//! silent.

use std::fmt;

use crate::geometry::{Seat, Setup};
use crate::position::{Move, Position};
use crate::text::{ParseMoveError, PositionError};

/// Full rounds without progress before a dead game is declared (T9).
pub const DEAD_ROUNDS: u32 = 10;
/// Moves each player has, once a dead game is declared, to move its rearmost
/// piece forward (T9).
pub const DEAD_MOVES: u8 = 5;

/// A score in quarter points: 1, 0.75, 0.5, 0.25 or 0 (T9, T10).
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Score(u8);

impl Score {
    /// 1: a win.
    pub const WIN: Score = Score(4);
    /// 0.75: ahead in a dead game (优势死局).
    pub const AHEAD: Score = Score(3);
    /// 0.5: a draw, or level in a dead game.
    pub const DRAW: Score = Score(2);
    /// 0.25: behind in a dead game (劣势死局).
    pub const BEHIND: Score = Score(1);
    /// 0: a loss.
    pub const LOSS: Score = Score(0);

    /// The score in quarter points (0..=4).
    pub fn quarters(self) -> u8 {
        self.0
    }
}

impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(["0", "0.25", "0.5", "0.75", "1"][usize::from(self.0.min(4))])
    }
}

/// What ended the game.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum EndKind {
    /// A player filled its target (T8); with ranking on, all but one did.
    Finished,
    /// The dead-game rule (T9).
    DeadGame,
    /// Players left until one was left (T14).
    Left,
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameResult {
    /// Every seated player's score, in seat order (T9, T10).
    pub scores: Vec<(Seat, Score)>,
    /// Every seated player's place, 1 = first; players not told apart share a
    /// place.
    pub places: Vec<(Seat, u8)>,
    /// What ended it.
    pub kind: EndKind,
    /// A sentence in Chinese and English.
    pub explanation: String,
}

impl GameResult {
    /// The seat scoring 1, if any.
    pub fn winner(&self) -> Option<Seat> {
        self.scores
            .iter()
            .find(|(_, s)| *s == Score::WIN)
            .map(|(s, _)| *s)
    }

    /// `seat`'s score (0 for a seat not seated).
    pub fn score(&self, seat: Seat) -> Score {
        self.scores
            .iter()
            .find(|(s, _)| *s == seat)
            .map_or(Score::LOSS, |(_, sc)| *sc)
    }
}

/// Something the rules do not allow now.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlayError {
    /// The game has ended.
    #[error("the game is over")]
    GameOver,
    /// The move does not parse or is illegal here.
    #[error(transparent)]
    Move(#[from] ParseMoveError),
    /// A move the generator does not have.
    #[error("illegal move {0}")]
    Illegal(Move),
    /// The seat is not (or no longer) in play.
    #[error("{0} is not in play")]
    NotInPlay(Seat),
}

/// A player's state once a dead game is declared (T9).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Dead {
    /// Moves left to move the rearmost piece forward.
    Pending(u8),
    /// Did it.
    Done,
    /// Did not within five moves: lost.
    Failed,
}

/// One entry of the record.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Played {
    /// Who moved.
    pub seat: Seat,
    /// The move.
    pub mv: Move,
}

/// A Tiaoqi game.
#[derive(Clone, Debug)]
pub struct Game {
    start: Position,
    position: Position,
    record: Vec<Played>,
    rank_rest: bool,
    /// T10: players who filled their target, in order.
    finished: Vec<Seat>,
    /// T14: players who left, in order.
    left: Vec<Seat>,
    /// T9: each seat's lowest total distance so far.
    best: [u32; 6],
    /// T9: moves since any player reached a new lowest total.
    stall: u32,
    /// T9: once declared, each seat's state and who did it first.
    dead: Option<([Option<Dead>; 6], Option<Seat>)>,
    result: Option<GameResult>,
}

impl Game {
    /// A game from `start`; `rank_rest` keeps playing after the first finish
    /// to rank the rest (T10, a room option). It may already be over.
    pub fn new(start: Position, rank_rest: bool) -> Game {
        let mut best = [u32::MAX; 6];
        for s in start.in_play() {
            best[s.index()] = start.total_distance(s);
        }
        let mut g = Game {
            position: start.clone(),
            start,
            record: Vec::new(),
            rank_rest,
            finished: Vec::new(),
            left: Vec::new(),
            best,
            stall: 0,
            dead: None,
            result: None,
        };
        g.judge_finish(g.position.turn());
        if g.result.is_none() && g.position.players_in_play() <= 1 {
            g.end_left();
        }
        g
    }

    /// A new game of `setup` from its start position.
    pub fn start_of(setup: Setup, rank_rest: bool) -> Game {
        Game::new(Position::start(setup), rank_rest)
    }

    /// A game from a position text (T13).
    pub fn from_text(setup: Setup, text: &str, rank_rest: bool) -> Result<Game, PositionError> {
        Position::from_text(setup, text).map(|p| Game::new(p, rank_rest))
    }

    /// The start position.
    pub fn start(&self) -> &Position {
        &self.start
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The record so far.
    pub fn record(&self) -> &[Played] {
        &self.record
    }

    /// The seat to move, or `None` once over.
    pub fn turn(&self) -> Option<Seat> {
        self.result.is_none().then(|| self.position.turn())
    }

    /// Legal moves of the seat to move (none once over).
    pub fn legal(&self) -> Vec<Move> {
        if self.result.is_some() {
            Vec::new()
        } else {
            self.position.legal_moves()
        }
    }

    /// Whether a dead game has been declared (T9).
    pub fn is_dead_game(&self) -> bool {
        self.dead.is_some()
    }

    /// T9: moves played since any player last reached a new lowest total
    /// distance.
    pub fn moves_without_progress(&self) -> u32 {
        self.stall
    }

    /// T9: full rounds without progress left before a dead game is
    /// declared (`None` once declared or over).
    pub fn quiet_rounds_left(&self) -> Option<u32> {
        if self.dead.is_some() || self.result.is_some() {
            return None;
        }
        let round = (self.position.players_in_play() as u32).max(1);
        Some(
            (DEAD_ROUNDS * round)
                .saturating_sub(self.stall)
                .div_ceil(round),
        )
    }

    /// T9: moves `seat` has left to move its rearmost piece forward, while a
    /// declared dead game waits for it.
    pub fn dead_countdown(&self, seat: Seat) -> Option<u8> {
        match self.dead.as_ref()?.0[seat.index()] {
            Some(Dead::Pending(n)) if self.result.is_none() => Some(n),
            _ => None,
        }
    }

    /// T10: the place `seat` already earned by filling its target while the
    /// others rank the rest (1 = first).
    pub fn place_earned(&self, seat: Seat) -> Option<u8> {
        self.finished
            .iter()
            .position(|&s| s == seat)
            .map(|i| i as u8 + 1)
    }

    /// T14: whether `seat` left the game.
    pub fn has_left(&self, seat: Seat) -> bool {
        self.left.contains(&seat)
    }

    /// How the game ended, if it has.
    pub fn result(&self) -> Option<&GameResult> {
        self.result.as_ref()
    }

    /// Plays a move text for the seat to move.
    pub fn play_text(&mut self, text: &str) -> Result<Move, PlayError> {
        if self.result.is_some() {
            return Err(PlayError::GameOver);
        }
        let m = self.position.parse_move(text)?;
        self.play(m)?;
        Ok(m)
    }

    /// Plays a move for the seat to move, then judges T8-T10.
    pub fn play(&mut self, m: Move) -> Result<(), PlayError> {
        if self.result.is_some() {
            return Err(PlayError::GameOver);
        }
        if !self.position.is_legal(m) {
            return Err(PlayError::Illegal(m));
        }
        let seat = self.position.turn();
        let forward = self.position.moves_rearmost_forward(m);
        self.position.make(m);
        self.record.push(Played { seat, mv: m });
        if self.judge_finish(seat) {
            return Ok(());
        }
        self.judge_dead(seat, forward);
        Ok(())
    }

    /// T14: `seat` resigns, is disconnected past the grace time or loses on
    /// time. With three or more in play its pieces leave the board and play
    /// goes on; with two the other wins.
    pub fn leave(&mut self, seat: Seat) -> Result<(), PlayError> {
        if self.result.is_some() {
            return Err(PlayError::GameOver);
        }
        if !self.position.is_in_play(seat) {
            return Err(PlayError::NotInPlay(seat));
        }
        self.left.push(seat);
        let remove = self.position.players_in_play() > 2;
        self.position.retire(seat, remove);
        if let Some((state, _)) = &mut self.dead {
            state[seat.index()] = None;
        }
        if self.position.players_in_play() <= 1 {
            self.end_left();
        } else {
            self.dead_over();
        }
        Ok(())
    }

    /// T8/T10: checks every seat in play, `mover` first (a move can only
    /// complete the mover's target, or, when a stayer steps back home, the
    /// target of the seat across). Returns whether the game ended.
    fn judge_finish(&mut self, mover: Seat) -> bool {
        let order: Vec<Seat> = std::iter::once(mover)
            .chain(self.position.in_play().filter(|s| *s != mover))
            .filter(|s| self.position.is_in_play(*s))
            .collect();
        for s in order {
            if !self.position.has_reached_target(s) {
                continue;
            }
            self.finished.push(s);
            if self.rank_rest && self.position.players_in_play() > 2 {
                self.position.retire(s, false);
                if let Some((state, _)) = &mut self.dead {
                    state[s.index()] = None;
                }
                continue;
            }
            if self.rank_rest && self.position.players_in_play() == 2 {
                self.position.retire(s, false);
            }
            self.end_finished();
            return true;
        }
        false
    }

    /// T9: counts moves without progress, declares the dead game, and
    /// follows each player's five moves once declared.
    fn judge_dead(&mut self, seat: Seat, forward: bool) {
        if self.dead.is_none() {
            let total = self.position.total_distance(seat);
            if total < self.best[seat.index()] {
                self.best[seat.index()] = total;
                self.stall = 0;
            } else {
                self.stall += 1;
            }
            let round = self.position.players_in_play() as u32;
            if self.stall >= DEAD_ROUNDS * round {
                let mut state = [None; 6];
                for s in self.position.in_play() {
                    state[s.index()] = Some(Dead::Pending(DEAD_MOVES));
                }
                self.dead = Some((state, None));
            }
            return;
        }
        if let Some((state, first)) = &mut self.dead
            && let Some(Dead::Pending(n)) = state[seat.index()]
        {
            state[seat.index()] = Some(if forward {
                first.get_or_insert(seat);
                Dead::Done
            } else if n <= 1 {
                Dead::Failed
            } else {
                Dead::Pending(n - 1)
            });
        }
        self.dead_over();
    }

    /// T9: ends the dead game once every player in it did its duty or used
    /// its five moves.
    fn dead_over(&mut self) {
        let Some((state, first)) = &self.dead else {
            return;
        };
        if state.iter().any(|d| matches!(d, Some(Dead::Pending(_)))) {
            return;
        }
        let done: Vec<Seat> = Seat::ALL
            .into_iter()
            .filter(|s| state[s.index()] == Some(Dead::Done))
            .collect();
        let failed: Vec<Seat> = Seat::ALL
            .into_iter()
            .filter(|s| state[s.index()] == Some(Dead::Failed))
            .collect();
        // Half rows, the first to move its rearmost piece forward credited.
        let adjusted = |s: Seat| {
            (2 * self.position.total_distance(s)).saturating_sub(u32::from(*first == Some(s)))
        };
        let mut ranked = done.clone();
        ranked.sort_by_key(|&s| adjusted(s));
        let lead = ranked.first().map(|&s| adjusted(s));
        let tied = ranked
            .iter()
            .filter(|&&s| Some(adjusted(s)) == lead)
            .count();
        let mut scores: Vec<(Seat, Score)> = Vec::new();
        if self.finished.is_empty() {
            for &s in &done {
                let sc = if done.len() == 1 {
                    Score::WIN
                } else if Some(adjusted(s)) == lead {
                    if tied == 1 { Score::AHEAD } else { Score::DRAW }
                } else {
                    Score::BEHIND
                };
                scores.push((s, sc));
            }
        }
        // Places: finishers, then those who did it by adjusted distance, then
        // those who failed, then those who left (last to leave highest).
        let mut groups: Vec<Vec<Seat>> = self.finished.iter().map(|&s| vec![s]).collect();
        let mut i = 0;
        while i < ranked.len() {
            let a = adjusted(ranked[i]);
            let g: Vec<Seat> = ranked[i..]
                .iter()
                .copied()
                .take_while(|&s| adjusted(s) == a)
                .collect();
            i += g.len();
            groups.push(g);
        }
        groups.push(failed.clone());
        let expl = format!(
            "死局 (T9): {} / dead game (T9): {}",
            describe(&done, &failed, *first),
            describe_en(&done, &failed, *first)
        );
        self.finish(scores, groups, EndKind::DeadGame, expl);
    }

    fn end_finished(&mut self) {
        let first = self.finished[0];
        let scores = vec![(first, Score::WIN)];
        let mut groups: Vec<Vec<Seat>> = self.finished.iter().map(|&s| vec![s]).collect();
        let rest: Vec<Seat> = self
            .position
            .in_play()
            .filter(|s| !self.finished.contains(s))
            .collect();
        groups.push(rest);
        let expl = format!(
            "{first}方先占满对面大营, 获胜 / {first} filled its target first and wins (T8)"
        );
        self.finish(scores, groups, EndKind::Finished, expl);
    }

    fn end_left(&mut self) {
        let rest: Vec<Seat> = self.position.in_play().collect();
        let mut scores = Vec::new();
        if self.finished.is_empty() {
            scores.extend(rest.iter().map(|&s| (s, Score::WIN)));
        }
        let mut groups: Vec<Vec<Seat>> = self.finished.iter().map(|&s| vec![s]).collect();
        groups.push(rest.clone());
        let who: String = rest.iter().map(|s| s.letter()).collect();
        let expl = if self.finished.is_empty() && !who.is_empty() {
            format!("其他棋手离局, {who}方获胜 / the others left: {who} wins (T14)")
        } else {
            "棋手离局, 对局结束 / players left: the game is over (T14)".into()
        };
        self.finish(scores, groups, EndKind::Left, expl);
    }

    /// Fills in every seated player's score (0 unless given) and place
    /// (`groups` best first, then those who left, last to leave highest).
    fn finish(
        &mut self,
        mut given: Vec<(Seat, Score)>,
        mut groups: Vec<Vec<Seat>>,
        kind: EndKind,
        explanation: String,
    ) {
        groups.extend(self.left.iter().rev().map(|&s| vec![s]));
        // T10: the first to finish keeps its win whatever ends the game later.
        if let Some(&w) = self.finished.first() {
            given.retain(|(s, _)| *s != w);
            given.push((w, Score::WIN));
        }
        let seats: Vec<Seat> = self.position.setup().seats().collect();
        let scores = seats
            .iter()
            .map(|&s| {
                let sc = given
                    .iter()
                    .find(|(g, _)| *g == s)
                    .map_or(Score::LOSS, |x| x.1);
                (s, sc)
            })
            .collect();
        let mut places = Vec::new();
        let mut place = 1u8;
        for g in groups.iter().filter(|g| !g.is_empty()) {
            for &s in g {
                if !places.iter().any(|(p, _)| *p == s) {
                    places.push((s, place));
                }
            }
            place += g.len() as u8;
        }
        places.sort();
        self.result = Some(GameResult {
            scores,
            places,
            kind,
            explanation,
        });
    }
}

fn letters(s: &[Seat]) -> String {
    s.iter().map(|s| s.letter()).collect()
}

/// What a declared dead game came to (T9), in Chinese: the same parts as
/// [`describe_en`], in the same order.
fn describe(done: &[Seat], failed: &[Seat], first: Option<Seat>) -> String {
    let mut parts = Vec::new();
    if !done.is_empty() {
        parts.push(format!("{}方已将最后一子前移", letters(done)));
    }
    if let Some(f) = first {
        parts.push(format!("{f}方最先前移, 少计半行"));
    }
    if !failed.is_empty() {
        parts.push(format!("{}方五步内未前移, 判负", letters(failed)));
    }
    if parts.is_empty() {
        parts.push("无人前移最后一子".into());
    }
    parts.join("; ")
}

fn describe_en(done: &[Seat], failed: &[Seat], first: Option<Seat>) -> String {
    let mut parts = Vec::new();
    if !done.is_empty() {
        parts.push(format!(
            "{} moved the rearmost piece forward",
            letters(done)
        ));
    }
    if let Some(f) = first {
        parts.push(format!("{f} did so first and is credited half a row"));
    }
    if !failed.is_empty() {
        parts.push(format!(
            "{} did not within five moves and lost",
            letters(failed)
        ));
    }
    if parts.is_empty() {
        parts.push("nobody moved the rearmost piece forward".into());
    }
    parts.join("; ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn t9_explanations_say_the_same_in_both_languages() {
        let (done, failed) = ([Seat::A, Seat::D], [Seat::B]);
        assert_eq!(
            describe(&done, &failed, Some(Seat::D)),
            "ad方已将最后一子前移; d方最先前移, 少计半行; b方五步内未前移, 判负"
        );
        assert_eq!(
            describe_en(&done, &failed, Some(Seat::D)),
            "ad moved the rearmost piece forward; d did so first and is credited half a row; \
             b did not within five moves and lost"
        );
        // Nothing to list: both halves still say so.
        assert_eq!(describe(&[], &[], None), "无人前移最后一子");
        assert_eq!(
            describe_en(&[], &[], None),
            "nobody moved the rearmost piece forward"
        );
    }
}
