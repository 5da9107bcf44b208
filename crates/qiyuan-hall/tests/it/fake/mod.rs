//! A small fake game for the hall's own behaviour tests: two seats take
//! turns adding 1 or 2 to a shared count (moves `+1`, `+2`); whoever brings
//! it to ten or more wins. Nothing hidden, no chance: the hall's rooms,
//! turns, clocks, takebacks, draws, chat and results are tested without any
//! real game crate, so a change in the hall rebuilds only the hall.

use std::any::Any;

use qiyuan_core::{
    AiFor, Chance, EndReason, GameAi, GameKind, HallPolicy, MoveError, Outcome, Rules, Settlement,
    StartSpec, TableGame, TypedAi, VariantSpec, Viewer, Views,
};

/// The count that wins.
pub const GOAL: u32 = 10;

/// The fake kind, registered as `count`.
pub struct CountKind;

const VARIANTS: &[VariantSpec] = &[VariantSpec {
    name: "count",
    seats: &[2],
    options: &[],
}];

impl GameKind for CountKind {
    fn id(&self) -> &'static str {
        "count"
    }
    fn variants(&self) -> &'static [VariantSpec] {
        VARIANTS
    }
    fn start(&self, spec: &StartSpec<'_>) -> Result<Box<dyn TableGame>, String> {
        let count = match spec.setup {
            None => 0,
            Some(s) => s
                .trim()
                .parse::<u32>()
                .ok()
                .filter(|&c| c < GOAL)
                .ok_or_else(|| format!("a count set-up is a number below {GOAL}"))?,
        };
        Ok(Box::new(CountTable {
            start: count,
            count,
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

/// The fake game's AI: always adds one.
pub struct CountAi;

impl TypedAi for CountAi {
    type Table = CountTable;
    fn choose(
        &self,
        table: &CountTable,
        seat: usize,
        _level: u8,
        _budget: Option<std::time::Duration>,
    ) -> Option<String> {
        table.legal_moves_for(seat).into_iter().next()
    }
    fn rating(&self, level: u8) -> f64 {
        800.0 + 100.0 * f64::from(level)
    }
}

/// A game of count in progress.
#[derive(Clone)]
pub struct CountTable {
    start: u32,
    count: u32,
    history: Vec<String>,
    result: Option<Outcome>,
}

impl CountTable {
    fn to_move(&self) -> usize {
        (self.start as usize + self.history.len()) % 2
    }
}

impl Rules for CountTable {
    fn rules_name(&self) -> &str {
        "count"
    }
    fn seat_count(&self) -> usize {
        2
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
        if self.count >= GOAL {
            self.result = Some(Outcome {
                winner: Some(seat),
                reason: EndReason::Points,
                explanation: format!("数到{GOAL} / reached {GOAL}"),
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

impl HallPolicy for CountTable {}

impl Settlement for CountTable {}

impl TableGame for CountTable {
    fn boxed_clone(&self) -> Box<dyn TableGame> {
        Box::new(self.clone())
    }
}
