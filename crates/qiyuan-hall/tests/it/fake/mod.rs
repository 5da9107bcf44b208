//! A small fake game for the hall's own behaviour tests: two seats (three in
//! `count-3`) take turns adding 1 or 2 to a shared count (moves `+1`, `+2`);
//! whoever brings it to ten or more wins. Nothing hidden, no chance: the hall's rooms,
//! turns, clocks, takebacks, draws, chat and results are tested without any
//! real game crate, so a change in the hall rebuilds only the hall.
//!
//! A room may set `target` (the count that wins, 3 to 100; ten by default)
//! and `base` (1 to 100, read by the hall only), so that the hall's option
//! bounds are tested too. The AI thinks for its whole budget, as a real
//! one does, so that the hall's AI scheduling is tested with searches that
//! take time; it takes a draw offer when it is lost with best play. Every
//! draw claim is refused as too early ([`CLAIM_PLIES`], "rule C1").

use std::any::Any;

use qiyuan_core::{
    AiFor, Chance, ClaimRefusal, ClaimVerdict, EndReason, GameAi, GameKind, HallPolicy, MoveError,
    OptionSpec, Outcome, Rules, Settlement, StartSpec, TableGame, TypedAi, VariantSpec, Viewer,
    Views,
};

/// The count that wins unless the room sets `target`.
pub const GOAL: u32 = 10;

/// Plies a draw claim needs (never reached: every claim is too early), so
/// the hall's refusal of a claim, with its values, is tested.
pub const CLAIM_PLIES: u32 = 500;

/// The room options of `count`.
const OPTIONS: &[OptionSpec] = &[
    OptionSpec {
        name: "target",
        min: 3,
        max: 100,
        about: "the count that wins",
    },
    OptionSpec {
        name: "base",
        min: 1,
        max: 100,
        about: "a base the hall reads (the fake game has no points)",
    },
];

/// The fake kind, registered as `count`.
pub struct CountKind;

/// `count` for two seats; `count-3` for three, in turn (for the hall's
/// rules on seat counts: a challenge, say, is for two-seat games).
const VARIANTS: &[VariantSpec] = &[
    VariantSpec {
        name: "count",
        seats: &[2],
        options: OPTIONS,
    },
    VariantSpec {
        name: "count-3",
        seats: &[3],
        options: OPTIONS,
    },
];

impl GameKind for CountKind {
    fn id(&self) -> &'static str {
        "count"
    }
    fn variants(&self) -> &'static [VariantSpec] {
        VARIANTS
    }
    fn start(&self, spec: &StartSpec<'_>) -> Result<Box<dyn TableGame>, String> {
        let goal = match spec.options.get("target") {
            None => GOAL,
            Some(&t) => u32::try_from(t).map_err(|_| "a target is positive".to_string())?,
        };
        let count = match spec.setup {
            None => 0,
            Some(s) => s
                .trim()
                .parse::<u32>()
                .ok()
                .filter(|&c| c < goal)
                .ok_or_else(|| format!("a count set-up is a number below {goal}"))?,
        };
        Ok(Box::new(CountTable {
            seats: spec.seats.max(2),
            start: count,
            count,
            goal,
            history: Vec::new(),
            result: None,
        }))
    }
    fn ai(&self) -> Option<&dyn GameAi> {
        Some(&AiFor(CountAi))
    }
    fn web_module(&self) -> &'static str {
        "count"
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// The fake game's AI: at level `n` it plays the best move (leaving the
/// other a distance to the target that is a multiple of three) with
/// chance `n`/8, else a random one; so games between AIs vary, as with a
/// real AI, and events of AIs end (a deterministic AI ties its matches
/// for ever), while level 8 always plays best.
pub struct CountAi;

impl TypedAi for CountAi {
    type Table = CountTable;
    fn choose(
        &self,
        table: &CountTable,
        seat: usize,
        level: u8,
        budget: Option<std::time::Duration>,
    ) -> Option<String> {
        // A real AI searches for its budget (tests give it a few ms).
        if let Some(b) = budget {
            std::thread::sleep(b.min(std::time::Duration::from_millis(50)));
        }
        let legal = table.legal_moves_for(seat);
        if legal.is_empty() {
            return None;
        }
        let best = [1u32, 2].into_iter().find(|step| {
            let after = table.count + step;
            after >= table.goal || (table.goal - after).is_multiple_of(3)
        });
        let pick = match best {
            Some(step) if rand::random_range(0..8u8) < level => step,
            _ => rand::random_range(1..=2u32),
        };
        Some(format!("+{pick}"))
    }
    fn rating(&self, level: u8) -> f64 {
        800.0 + 100.0 * f64::from(level)
    }
    /// Takes a draw when it is lost with best play (the side to move wins
    /// unless the distance to the target is a multiple of three).
    fn accepts_draw(&self, table: &CountTable, seat: usize, _level: u8) -> bool {
        let mover_wins = !table.goal.saturating_sub(table.count).is_multiple_of(3);
        let to_move = table.to_move() == seat;
        to_move != mover_wins
    }
}

/// A game of count in progress.
#[derive(Clone)]
pub struct CountTable {
    seats: usize,
    start: u32,
    count: u32,
    goal: u32,
    history: Vec<String>,
    result: Option<Outcome>,
}

impl CountTable {
    fn to_move(&self) -> usize {
        (self.start as usize + self.history.len()) % self.seats
    }
}

impl Rules for CountTable {
    fn rules_name(&self) -> &str {
        "count"
    }
    fn seat_count(&self) -> usize {
        self.seats
    }
    fn seats_to_move(&self) -> Vec<usize> {
        if self.result.is_some() {
            Vec::new()
        } else {
            vec![self.to_move()]
        }
    }
    fn legal_moves_for(&self, seat: usize) -> Vec<String> {
        if self.seats_to_move() == [seat] {
            vec!["+1".into(), "+2".into()]
        } else {
            Vec::new()
        }
    }
    fn play_for(
        &mut self,
        seat: usize,
        mv: &str,
        _chance: &mut dyn Chance,
    ) -> Result<(), MoveError> {
        if self.result.is_some() {
            return Err(MoveError::GameOver);
        }
        let step = match mv {
            "+1" => 1,
            "+2" => 2,
            _ => {
                return Err(MoveError::Malformed {
                    text: mv.into(),
                    why: "a move is +1 or +2".into(),
                });
            }
        };
        if seat != self.to_move() {
            return Err(MoveError::Illegal {
                text: mv.into(),
                why: "not this seat's turn".into(),
            });
        }
        self.count += step;
        self.history.push(mv.into());
        if self.count >= self.goal {
            let goal = self.goal;
            self.result = Some(Outcome {
                winner: Some(seat),
                reason: EndReason::Points,
                explanation: format!("数到{goal} / reached {goal}"),
                partners: Vec::new(),
            });
        }
        Ok(())
    }
    fn result(&self) -> Option<&Outcome> {
        self.result.as_ref()
    }
    fn end(&mut self, outcome: Outcome) {
        self.result.get_or_insert(outcome);
    }
    fn history(&self) -> Vec<String> {
        self.history.clone()
    }
}

impl Views for CountTable {
    fn view(&self, _viewer: Viewer) -> String {
        self.count.to_string()
    }
}

impl HallPolicy for CountTable {
    fn claim(&mut self, _seat: usize) -> ClaimVerdict {
        if self.result.is_some() {
            return ClaimVerdict::Refused(ClaimRefusal::GameOver);
        }
        ClaimVerdict::Refused(ClaimRefusal::TooEarly {
            plies: self.history.len() as u32,
            needed: CLAIM_PLIES,
            rule: "C1",
        })
    }
}

impl Settlement for CountTable {}

impl TableGame for CountTable {
    fn boxed_clone(&self) -> Box<dyn TableGame> {
        Box::new(self.clone())
    }
}
