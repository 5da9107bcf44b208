//! The hall's view of Tiaoqi (feature `table`): [`TiaoqiKind`] for the
//! registry (variants for 2, 3, 4 and 6 seats, 30 s a move as T14 says) and
//! [`TiaoqiTable`], a game in play. Seats are numbered in play order (T12)
//! and named by their camp letters.
//!
//! A fallen flag is a lost turn (recorded as `timeout`, played as a pass);
//! a seat's third lost turn makes it leave (T14: with three or more in play
//! its pieces leave the board and play goes on).

use std::any::Any;
use std::time::Duration;

use qiyuan_core::{
    AiFor, Chance, DefaultClock, EndReason, FlagFall, GameAi, GameKind, HallPolicy, MoveError,
    OptionSpec, Outcome, Progress, Resigned, Rules, SeatProgress, Settlement, StartSpec, TableGame,
    TypedAi, VariantSpec, Viewer, Views,
};

use crate::game::{EndKind, Game, GameResult};
use crate::geometry::{Seat, Setup};
use crate::position::{Move, Position};

/// The rating family and kind id.
pub const FAMILY: &str = "tiaoqi";
/// Seconds a move by default (T14).
pub const MOVE_SECONDS: i64 = 30;
/// Lost turns after which a seat is out (T14).
pub const TIMEOUTS_OUT: u8 = 3;
/// How a lost turn reads in the record.
const TIMEOUT: &str = "timeout";
/// How a resignation that takes a seat out (T14) reads in the record.
const RESIGN: &str = "resign";

const PIECES: OptionSpec = OptionSpec {
    name: "pieces",
    min: 10,
    max: 15,
    about: "pieces each: 10, or 15 in a two-player game (T3)",
};
const RANK: OptionSpec = OptionSpec {
    name: "rank",
    min: 0,
    max: 1,
    about: "1: play on to rank the rest after the first finishes (T10)",
};

static VARIANTS: [VariantSpec; 4] = [
    VariantSpec {
        name: "tiaoqi",
        seats: &[2],
        options: &[PIECES, RANK],
    },
    VariantSpec {
        name: "tiaoqi-3",
        seats: &[3],
        options: &[RANK],
    },
    VariantSpec {
        name: "tiaoqi-4",
        seats: &[4],
        options: &[RANK],
    },
    VariantSpec {
        name: "tiaoqi-6",
        seats: &[6],
        options: &[RANK],
    },
];

/// The seats of a seating, in play order.
fn seats_of(players: usize) -> Vec<Seat> {
    Setup::new(players as u8, 10)
        .map(|s| s.seats().collect())
        .unwrap_or_default()
}

/// Tiaoqi for the registry.
pub struct TiaoqiKind;

impl GameKind for TiaoqiKind {
    fn id(&self) -> &'static str {
        FAMILY
    }
    fn variants(&self) -> &'static [VariantSpec] {
        &VARIANTS
    }
    fn start(&self, spec: &StartSpec<'_>) -> Result<Box<dyn TableGame>, String> {
        let variant = VARIANTS
            .iter()
            .find(|v| v.name == spec.variant)
            .ok_or_else(|| format!("unknown game '{}'", spec.variant))?;
        let players = variant.seats[0];
        let pieces = spec.options.get(PIECES.name).copied().unwrap_or(10);
        let setup = Setup::new(players as u8, u8::try_from(pieces).unwrap_or(0))
            .map_err(|e| e.to_string())?;
        let rank = spec.options.get(RANK.name).copied().unwrap_or(0) == 1;
        let start = match spec.setup {
            Some(text) => Position::from_text(setup, text).map_err(|e| e.to_string())?,
            None => Position::start(setup),
        };
        Ok(Box::new(TiaoqiTable::new(
            spec.variant,
            Game::new(start, rank),
        )))
    }
    fn default_clock(&self) -> DefaultClock {
        DefaultClock::PerMove {
            seconds: MOVE_SECONDS,
        }
    }
    /// One per-move pool per table size: the hall fills all seats at once.
    fn pools(&self) -> Vec<qiyuan_core::PoolSpec> {
        ["tiaoqi", "tiaoqi-3", "tiaoqi-4", "tiaoqi-6"]
            .into_iter()
            .flat_map(|v| [15, MOVE_SECONDS].map(|s| qiyuan_core::PoolSpec::new(v, s, 0)))
            .collect()
    }
    fn ai(&self) -> Option<&dyn GameAi> {
        Some(&AiFor(TiaoqiAi))
    }
    fn seat_names(&self, seats: usize) -> Vec<String> {
        seats_of(seats)
            .into_iter()
            .map(|s| s.letter().to_string())
            .collect()
    }
    fn web_module(&self) -> &'static str {
        FAMILY
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// A Tiaoqi game in the hall.
#[derive(Clone)]
pub struct TiaoqiTable {
    rules: String,
    game: Game,
    seats: Vec<Seat>,
    history: Vec<String>,
    timeouts: Vec<u8>,
    outcome: Option<Outcome>,
}

impl TiaoqiTable {
    fn new(rules: &str, game: Game) -> TiaoqiTable {
        let seats: Vec<Seat> = game.position().setup().seats().collect();
        TiaoqiTable {
            rules: rules.to_string(),
            timeouts: vec![0; seats.len()],
            seats,
            game,
            history: Vec::new(),
            outcome: None,
        }
    }

    /// The game of rules.
    pub fn game(&self) -> &Game {
        &self.game
    }

    fn index_of(&self, seat: Seat) -> Option<usize> {
        self.seats.iter().position(|&s| s == seat)
    }

    /// The hall's outcome of the rules' result.
    fn judge(&mut self) {
        if self.outcome.is_some() {
            return;
        }
        if let Some(r) = self.game.result().cloned() {
            self.outcome = Some(self.outcome_of(&r));
        }
    }

    fn outcome_of(&self, r: &GameResult) -> Outcome {
        Outcome {
            winner: r.winner().and_then(|s| self.index_of(s)),
            partners: Vec::new(),
            reason: match r.kind {
                EndKind::Finished => EndReason::Points,
                EndKind::DeadGame => EndReason::DeadPosition,
                EndKind::Left => EndReason::Resignation,
            },
            explanation: r.explanation.clone(),
        }
    }
}

impl Rules for TiaoqiTable {
    fn rules_name(&self) -> &str {
        &self.rules
    }
    fn seat_count(&self) -> usize {
        self.seats.len()
    }
    fn seats_to_move(&self) -> Vec<usize> {
        if self.outcome.is_some() {
            return Vec::new();
        }
        self.game
            .turn()
            .and_then(|s| self.index_of(s))
            .into_iter()
            .collect()
    }
    fn legal_moves_for(&self, seat: usize) -> Vec<String> {
        if self.seats_to_move() != [seat] {
            return Vec::new();
        }
        let p = self.game.position();
        self.game
            .legal()
            .into_iter()
            .map(|m| p.move_text(m))
            .collect()
    }
    fn play_for(
        &mut self,
        seat: usize,
        mv: &str,
        _chance: &mut dyn Chance,
    ) -> Result<(), MoveError> {
        if self.seats_to_move() != [seat] {
            return Err(MoveError::Illegal {
                text: mv.chars().take(40).collect(),
                why: "not this seat's turn".into(),
            });
        }
        let before = self.game.position().clone();
        let m = self.game.play_text(mv).map_err(|e| MoveError::Illegal {
            text: mv.chars().take(40).collect(),
            why: e.to_string(),
        })?;
        // The record keeps one full path, whatever form the player sent.
        self.history.push(before.move_text(m));
        self.judge();
        Ok(())
    }
    fn result(&self) -> Option<&Outcome> {
        self.outcome.as_ref()
    }
    fn end(&mut self, outcome: Outcome) {
        self.outcome.get_or_insert(outcome);
    }
    fn history(&self) -> Vec<String> {
        self.history.clone()
    }
    fn plies(&self) -> usize {
        self.history.len()
    }
    fn last_move(&self) -> Option<String> {
        self.history.last().cloned()
    }
}

impl Views for TiaoqiTable {
    fn view(&self, _viewer: Viewer) -> String {
        // Nothing is hidden in Tiaoqi.
        self.game.position().to_string()
    }
}

impl HallPolicy for TiaoqiTable {
    fn clock_rule(&self) -> qiyuan_core::ClockRule {
        qiyuan_core::ClockRule::PerMove
    }
    fn flag_falls(&mut self, seat: usize) -> FlagFall {
        let Some(&who) = self.seats.get(seat) else {
            return FlagFall::Ends(self.seat_leaves(seat, EndReason::Timeout));
        };
        if self.seats_to_move() != [seat] {
            return FlagFall::Ends(self.seat_leaves(seat, EndReason::Timeout));
        }
        self.timeouts[seat] += 1;
        let done = if self.timeouts[seat] >= TIMEOUTS_OUT {
            self.game.leave(who)
        } else {
            self.game.play(Move::Pass)
        };
        if done.is_err() {
            return FlagFall::Ends(self.seat_leaves(seat, EndReason::Timeout));
        }
        self.history.push(TIMEOUT.into());
        self.judge();
        FlagFall::TurnLost
    }
    fn resigns(&mut self, seat: usize) -> Resigned {
        // T14: with three or more seats the seat is out and the rest play
        // on (or, with one left, the game ends with the places earned).
        match self.seats.get(seat).copied() {
            Some(who) if self.seats.len() > 2 => match self.game.leave(who) {
                Ok(()) => {
                    self.history.push(RESIGN.into());
                    self.judge();
                    Resigned::Out
                }
                Err(e) => Resigned::Refused(e.to_string()),
            },
            _ => Resigned::Ends(self.seat_leaves(seat, EndReason::Resignation)),
        }
    }
    fn progress(&self) -> Option<Progress> {
        let p = self.game.position();
        let seats = self
            .seats
            .iter()
            .map(|&s| SeatProgress {
                to_go: (!self.game.has_left(s)).then(|| p.total_distance(s)),
                countdown: self.game.dead_countdown(s).map(u32::from),
                place: self.game.place_earned(s).map(u32::from),
                out: self.game.has_left(s),
            })
            .collect();
        Some(Progress {
            seats,
            dead_game: self.game.is_dead_game(),
            quiet_left: self.game.quiet_rounds_left(),
        })
    }
}

impl Settlement for TiaoqiTable {
    fn placings(&self) -> Option<Vec<Vec<usize>>> {
        let r = self.game.result()?;
        let mut groups: Vec<(u8, Vec<usize>)> = Vec::new();
        for &(seat, place) in &r.places {
            let Some(i) = self.index_of(seat) else {
                continue;
            };
            match groups.iter_mut().find(|(p, _)| *p == place) {
                Some((_, g)) => g.push(i),
                None => groups.push((place, vec![i])),
            }
        }
        groups.sort_by_key(|(p, _)| *p);
        Some(groups.into_iter().map(|(_, g)| g).collect())
    }
}

impl TableGame for TiaoqiTable {
    fn boxed_clone(&self) -> Box<dyn TableGame> {
        Box::new(self.clone())
    }
}

/// The Tiaoqi AI: [`crate::ai::choose`] at the level asked (1 greedy with
/// noise … 8 the deepest search), seeded from the position's hash.
pub struct TiaoqiAi;

impl TypedAi for TiaoqiAi {
    type Table = TiaoqiTable;
    fn choose(
        &self,
        t: &TiaoqiTable,
        seat: usize,
        level: u8,
        _budget: Option<Duration>,
    ) -> Option<String> {
        if t.seats_to_move() != [seat] {
            return None;
        }
        let p = t.game.position();
        let best = crate::ai::choose(&t.game, level, crate::ai::hash(p))?;
        Some(p.move_text(best))
    }
    fn rating(&self, level: u8) -> f64 {
        850.0 + 150.0 * f64::from(level.clamp(1, 8))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use qiyuan_core::Options;

    struct NoChance;
    impl Chance for NoChance {
        fn draw(&mut self, _bound: u32) -> u32 {
            0
        }
    }

    fn start(variant: &str) -> Box<dyn TableGame> {
        TiaoqiKind
            .start(&StartSpec {
                variant,
                seats: 0,
                options: &Options::new(),
                setup: None,
                seed: [0; 32],
            })
            .expect("start")
    }

    #[test]
    fn six_greedy_seats_play_a_game_to_its_end() {
        let mut t = start("tiaoqi-6");
        assert_eq!(TiaoqiKind.seat_names(6), ["a", "b", "c", "d", "e", "f"]);
        for _ in 0..3000 {
            let Some(&seat) = t.seats_to_move().first() else {
                break;
            };
            let mv = AiFor(TiaoqiAi)
                .choose(t.as_ref(), seat, 1, None)
                .expect("a move");
            t.play_for(seat, &mv, &mut NoChance)
                .expect("the AI's move is legal");
        }
        let o = t.result().expect("the game ended");
        let placings = t.placings().expect("placings");
        assert_eq!(placings.iter().map(Vec::len).sum::<usize>(), 6);
        assert_eq!(placings[0], vec![o.winner.expect("a winner")]);
    }

    #[test]
    fn t14_a_resignation_with_three_seats_takes_the_seat_out_and_play_goes_on() {
        let mut t = start("tiaoqi-3");
        let before = t.progress().expect("a race");
        assert_eq!(before.seats.len(), 3);
        assert!(
            before
                .seats
                .iter()
                .all(|s| s.to_go == Some(before.seats[0].to_go.unwrap_or(0)))
        );
        assert_eq!(before.quiet_left, Some(crate::game::DEAD_ROUNDS));
        assert_eq!(t.resigns(1), Resigned::Out);
        assert_eq!(t.history().last().map(String::as_str), Some(RESIGN));
        assert!(t.result().is_none(), "two seats play on");
        let after = t.progress().expect("a race");
        assert!(after.seats[1].out && after.seats[1].to_go.is_none());
        assert!(matches!(t.resigns(1), Resigned::Refused(_)), "already out");
        // The last two: one resigns, the other wins; the leavers rank last.
        assert_eq!(t.resigns(0), Resigned::Out);
        let o = t.result().expect("over");
        assert_eq!(o.winner, Some(2));
        assert_eq!(t.placings(), Some(vec![vec![2], vec![0], vec![1]]));
        // Two seats: a resignation ends the game for the other.
        let mut two = start("tiaoqi");
        assert!(matches!(two.resigns(0), Resigned::Ends(o) if o.winner == Some(1)));
    }

    #[test]
    fn t14_three_lost_turns_take_a_seat_out_and_play_goes_on() {
        let mut t = start("tiaoqi-3");
        let mut lost = 0;
        while lost < TIMEOUTS_OUT {
            let seat = t.seats_to_move()[0];
            if seat == 0 {
                assert_eq!(t.flag_falls(0), FlagFall::TurnLost);
                lost += 1;
            } else {
                t.play_for(seat, "pass", &mut NoChance).expect("pass");
            }
        }
        assert!(t.result().is_none(), "two seats still play");
        let view = t.view(Viewer::Spectator);
        let board = view.split(' ').next().unwrap_or_default();
        assert!(
            !board.contains('a'),
            "seat a's pieces left the board: {view}"
        );
        for _ in 0..6 {
            let seat = t.seats_to_move()[0];
            assert_ne!(seat, 0, "seat a is out");
            t.play_for(seat, "pass", &mut NoChance).expect("pass");
        }
        assert_eq!(t.history().iter().filter(|m| *m == TIMEOUT).count(), 3);
    }
}
