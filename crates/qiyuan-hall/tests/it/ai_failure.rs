//! An AI that fails (its thread panics) does not stall its game: the hall
//! logs it and plays the seat's first legal move instead. The failing AI is
//! a test kind wrapping the fake game's rules. (Moved from the binary's
//! tests, where it wrapped a real game.)

use std::any::Any;
use std::sync::Arc;
use std::time::Duration;

use crate::common::{post, register, temp_db};
use crate::fake::CountKind;
use qiyuan_core::{
    Chance, GameAi, GameKind, HallPolicy, MoveError, OptionSpec, Outcome, Rules, Settlement,
    StartSpec, TableGame, VariantSpec, Viewer, Views,
};
use qiyuan_hall::registry::Registry;
use qiyuan_hall::server::{Config, start};
use serde_json::json;

/// The fake game's table under another name, so the hall asks this kind's AI.
struct Wrapped(Box<dyn TableGame>);

impl Rules for Wrapped {
    fn rules_name(&self) -> &str {
        "panicky"
    }
    fn seat_count(&self) -> usize {
        self.0.seat_count()
    }
    fn seats_to_move(&self) -> Vec<usize> {
        self.0.seats_to_move()
    }
    fn legal_moves_for(&self, seat: usize) -> Vec<String> {
        self.0.legal_moves_for(seat)
    }
    fn play_for(
        &mut self,
        seat: usize,
        mv: &str,
        chance: &mut dyn Chance,
    ) -> Result<(), MoveError> {
        self.0.play_for(seat, mv, chance)
    }
    fn result(&self) -> Option<&Outcome> {
        self.0.result()
    }
    fn end(&mut self, outcome: Outcome) {
        self.0.end(outcome)
    }
    fn history(&self) -> Vec<String> {
        self.0.history()
    }
}

impl Views for Wrapped {
    fn view(&self, viewer: Viewer) -> String {
        self.0.view(viewer)
    }
}

impl HallPolicy for Wrapped {}

impl Settlement for Wrapped {}

impl TableGame for Wrapped {
    fn boxed_clone(&self) -> Box<dyn TableGame> {
        Box::new(Wrapped(self.0.boxed_clone()))
    }
}

struct PanickyKind;
struct PanickyAi;

const VARIANTS: &[VariantSpec] = &[VariantSpec {
    name: "panicky",
    seats: &[2],
    options: &[] as &[OptionSpec],
}];

impl GameKind for PanickyKind {
    fn id(&self) -> &'static str {
        "panicky"
    }
    fn variants(&self) -> &'static [VariantSpec] {
        VARIANTS
    }
    fn start(&self, spec: &StartSpec<'_>) -> Result<Box<dyn TableGame>, String> {
        let inner = CountKind.start(&StartSpec {
            variant: "count",
            ..spec.clone()
        })?;
        Ok(Box::new(Wrapped(inner)))
    }
    fn ai(&self) -> Option<&dyn GameAi> {
        Some(&PanickyAi)
    }
    fn web_module(&self) -> &'static str {
        "count"
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}

impl GameAi for PanickyAi {
    fn choose(
        &self,
        _game: &dyn TableGame,
        _seat: usize,
        _level: u8,
        _b: Option<Duration>,
    ) -> Option<String> {
        panic!("a failing AI, on purpose");
    }
    fn rating(&self, _level: u8) -> f64 {
        1000.0
    }
}

#[tokio::test]
async fn a_panicking_ai_plays_its_first_legal_move_instead_of_stalling() {
    let db = temp_db("ai-failure");
    let srv = start(
        &Config {
            port: 0,
            database: format!("sqlite://{}", db.display()),
            rate_per_sec: 0,
            ..Config::default()
        },
        Registry::new().with([
            Arc::new(CountKind) as Arc<dyn GameKind>,
            Arc::new(PanickyKind) as Arc<dyn GameKind>,
        ]),
    )
    .await
    .expect("the hall starts");
    let addr = srv.addr.to_string();
    let tok = register(&addr, "patient").await;
    let (st, g) = post(
        &addr,
        "/api/games",
        &tok,
        json!({"game": "panicky", "opponent": "ai:3"}),
    )
    .await;
    assert_eq!(st, 201, "{g}");
    let id = g["id"].as_str().expect("id").to_string();
    let (st, s) = post(
        &addr,
        &format!("/api/games/{id}/moves"),
        &tok,
        json!({"move": "+1"}),
    )
    .await;
    assert_eq!(st, 200, "{s}");
    // The AI's thread panics; the hall plays the seat's first legal move.
    let mut plies = 0;
    for _ in 0..100 {
        let r = qiyuan_hall::client::get(&addr, &format!("/api/games/{id}"), Some(&tok))
            .await
            .expect("get");
        plies = r.json()["plies"].as_u64().unwrap_or(0);
        if plies >= 2 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(plies, 2, "the AI seat moved");
    srv.shutdown().await;
}
