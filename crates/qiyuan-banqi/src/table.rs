//! Banqi as the hall drives it (feature `table`): the table wrapper around
//! [`Game`] with per-move clocks and lost turns (B12), B11, the secret
//! set-up, game points and a record export, and the [`BanqiKind`] the hall
//! registers (both presets, its AI, the points ledger).
//!
//! Hidden information: the layout is drawn once, at the start, from a
//! ChaCha20 generator the hall seeds from the operating system (B1), and
//! lives only in the server's memory and its set-up store. Every text a
//! client can receive is built from [`Views::view`], which for Banqi is
//! the public position (`?` for every face-down piece) whoever asks; the full
//! start position is exported only once the game is over.

use std::any::Any;
use std::time::Duration;

use qiyuan_core::{
    AiFor, Chance, DefaultClock, GameAi, GameKind, HallPolicy, MoveError, MoveRecord, OptionSpec,
    Outcome, Rules, Settlement, StartSpec, TableGame, TypedAi, VariantSpec, Viewer, Views,
};
use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;

use crate::{Game, Position, Preset};

/// The family of the Banqi rating and points ledger (both presets share it).
pub const FAMILY: &str = "banqi";
/// The seconds per move a Banqi room gets unless it says otherwise (B12).
pub const DEFAULT_MOVE_S: i64 = 30;
/// The largest room base (基数) a room may set (B17).
pub const MAX_BASE: i64 = 100;

const OPTIONS: &[OptionSpec] = &[OptionSpec {
    name: "base",
    min: 1,
    max: MAX_BASE,
    about: "the room's base (基数): game points are multiplied by it (B17)",
}];

const VARIANTS: &[VariantSpec] = &[
    VariantSpec {
        name: "banqi",
        seats: &[2],
        options: OPTIONS,
    },
    VariantSpec {
        name: "banqi-icga",
        seats: &[2],
        options: OPTIONS,
    },
];

/// Banqi for the hall's registry.
pub struct BanqiKind;

impl GameKind for BanqiKind {
    fn id(&self) -> &'static str {
        FAMILY
    }
    fn variants(&self) -> &'static [VariantSpec] {
        VARIANTS
    }
    fn start(&self, spec: &StartSpec<'_>) -> Result<Box<dyn TableGame>, String> {
        if spec.seats != 2 {
            return Err("Banqi has two seats".into());
        }
        new_banqi_table(spec.variant, spec.setup, spec.seed)
    }
    fn default_clock(&self) -> DefaultClock {
        DefaultClock::PerMove {
            seconds: DEFAULT_MOVE_S,
        }
    }
    /// Per-move clocks (B12): quick and standard, in both rule sets.
    fn pools(&self) -> Vec<qiyuan_core::PoolSpec> {
        ["banqi", "banqi-icga"]
            .into_iter()
            .flat_map(|v| [15, DEFAULT_MOVE_S].map(|s| qiyuan_core::PoolSpec::new(v, s, 0)))
            .collect()
    }
    fn ai(&self) -> Option<&dyn GameAi> {
        Some(&AiFor(BanqiAi))
    }
    fn settlement(&self) -> Option<&'static str> {
        Some(FAMILY)
    }
    fn rematch_setup(&self, variant: &str, setup: &str, seed: [u8; 32]) -> Option<String> {
        let preset = Preset::from_name(variant)?;
        let pos = Position::from_fen(preset, setup).ok()?;
        Some(pos.reshuffled(&mut ChaCha20Rng::from_seed(seed)).fen())
    }
    fn web_module(&self) -> &'static str {
        "banqi"
    }
    fn seat_names(&self, seats: usize) -> Vec<String> {
        qiyuan_core::kind::named_seats(&["red", "black"], seats)
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// The Banqi AI behind the registry (levels 1-8, public view only).
struct BanqiAi;

impl TypedAi for BanqiAi {
    type Table = BanqiTable;
    fn choose(
        &self,
        table: &BanqiTable,
        seat: usize,
        level: u8,
        _budget: Option<Duration>,
    ) -> Option<String> {
        ai_move(table, seat, level)
    }
    fn rating(&self, level: u8) -> f64 {
        // Not calibrated on its own yet: the Xiangqi engine's measured level
        // ratings (docs/engine.md) stand in, as they did before the registry.
        const RATINGS: [f64; 8] = [
            800.0, 1200.0, 1600.0, 1888.0, 1999.0, 2314.0, 2500.0, 2725.0,
        ];
        RATINGS[usize::from(level.clamp(1, 8) - 1)]
    }
}

/// Starts a Banqi game: a fresh random layout, or a set-up `fen` in the full
/// (eleven-field) form, since a game must know what it flips.
pub fn new_banqi_table(
    rules: &str,
    fen: Option<&str>,
    seed: [u8; 32],
) -> Result<Box<dyn TableGame>, String> {
    let preset = Preset::from_name(rules).ok_or_else(|| format!("unknown game '{rules}'"))?;
    let game = match fen {
        None => {
            // B1: a CSPRNG for every layout, seeded by the hall from the OS.
            let mut rng = ChaCha20Rng::from_seed(seed);
            Game::random(preset, &mut rng)
        }
        Some(text) => {
            let pos = Position::from_fen(preset, text).map_err(|e| format!("bad fen: {e}"))?;
            if !pos.is_full() {
                return Err(
                    "a Banqi set-up needs the full position (the eleventh field \
                            names the face-down pieces)"
                        .into(),
                );
            }
            Game::new(pos)
        }
    };
    Ok(Box::new(BanqiTable { game }))
}

/// A Banqi game as the hall drives it. Delegates the rules to
/// `qiyuan_banqi::Game` and adds the hall's faces: per-move clocks with lost
/// turns (B12), B11, the secret set-up, game points and a record export.
pub struct BanqiTable {
    game: Game,
}

impl Rules for BanqiTable {
    fn rules_name(&self) -> &str {
        self.game.rules_name()
    }
    fn seat_count(&self) -> usize {
        2
    }
    fn seats_to_move(&self) -> Vec<usize> {
        self.game.seats_to_move()
    }
    fn legal_moves_for(&self, seat: usize) -> Vec<String> {
        self.game.legal_moves_for(seat)
    }
    fn play_for(
        &mut self,
        seat: usize,
        mv: &str,
        chance: &mut dyn Chance,
    ) -> Result<(), MoveError> {
        self.game.play_for(seat, mv, chance)
    }
    fn result(&self) -> Option<&Outcome> {
        Rules::result(&self.game)
    }
    fn end(&mut self, outcome: Outcome) {
        self.game.end(outcome)
    }
    fn history(&self) -> Vec<String> {
        self.game.history()
    }
    fn plies(&self) -> usize {
        Rules::plies(&self.game)
    }
}

impl Views for BanqiTable {
    fn view(&self, viewer: Viewer) -> String {
        // Public for everyone, players included: nobody knows a face-down piece.
        self.game.view(viewer)
    }
    fn secret_setup(&self) -> Option<String> {
        Some(self.game.start().fen())
    }
    fn move_records(&self, from: usize) -> Vec<MoveRecord> {
        // Revealed and captured pieces are face up by then: public.
        self.game.move_records(from)
    }
    fn export_record(&self, tags: &[(String, String)], result: &str) -> Option<String> {
        let mut out = String::new();
        for (k, v) in tags {
            out.push_str(&format!("[{k} \"{}\"]\n", v.replace('"', "'")));
        }
        out.push_str(&format!("[Variant \"{}\"]\n", self.rules_name()));
        out.push_str(&format!("[Result \"{result}\"]\n"));
        if self.game.result().is_some() {
            // B1: the layout may be published with a finished game's record.
            out.push_str(&format!("[FEN \"{}\"]\n", self.game.start().fen()));
        } else {
            out.push_str(&format!("[FEN \"{}\"]\n", self.game.start().public_fen()));
        }
        out.push('\n');
        for (i, r) in self.game.move_records(0).iter().enumerate() {
            if i % 2 == 0 {
                out.push_str(&format!("{}. ", i / 2 + 1));
            }
            out.push_str(&r.text);
            for (_, piece) in &r.notations {
                out.push_str(&format!("{{{piece}}}"));
            }
            out.push(' ');
        }
        out.push_str(result);
        out.push('\n');
        Some(out)
    }
}

impl HallPolicy for BanqiTable {
    fn clock_rule(&self) -> qiyuan_core::ClockRule {
        qiyuan_core::ClockRule::PerMove
    }
    fn flag_falls(&mut self, seat: usize) -> qiyuan_core::FlagFall {
        // B12: only the seat to move can run out of time; a mark, not a loss
        // (the game itself ends on the third mark).
        if self.game.turn() == Some(seat) && self.game.timeout().is_ok() {
            qiyuan_core::FlagFall::TurnLost
        } else {
            qiyuan_core::FlagFall::Ends(self.seat_leaves(seat, qiyuan_core::EndReason::Timeout))
        }
    }
    fn concession_refused(&self) -> Option<String> {
        (!self.game.may_resign() && self.game.result().is_none()).then(|| {
            format!(
                "resignation and draw offers open at ply {} (B11); {} plies played",
                crate::game::MIN_PLIES_TO_RESIGN,
                self.game.position().ply()
            )
        })
    }
    fn seat_leaves(&self, seat: usize, reason: qiyuan_core::EndReason) -> Outcome {
        // The first flip decides who is red (B2): until then a seat is named
        // by its number, not by a colour it may not play.
        match self.game.position().colour_of(0) {
            Some(c) => {
                let (a, b) = (c.names(), c.flip().names());
                qiyuan_core::two_seat_leave(seat, reason, [a, b], true)
            }
            None => qiyuan_core::numbered_seat_leave(seat, 2, reason),
        }
    }
}

impl Settlement for BanqiTable {
    fn game_points(&self, base: i64) -> Option<Vec<i64>> {
        Game::game_points(&self.game, base).map(|p| p.to_vec())
    }
}

impl TableGame for BanqiTable {
    fn boxed_clone(&self) -> Box<dyn TableGame> {
        Box::new(BanqiTable {
            game: self.game.clone(),
        })
    }
}

/// The Banqi AI (`qiyuan_banqi::ai`, levels 1-8) for `seat`, or `None` when
/// it is not that seat's turn. It reads only the public view, like a player.
pub fn ai_move(game: &BanqiTable, seat: usize, level: u8) -> Option<String> {
    let preset = Preset::from_name(game.rules_name())?;
    if game.seats_to_move() != [seat] {
        return None;
    }
    let pos = Position::from_fen(preset, &game.view(Viewer::Seat(seat))).ok()?;
    let mut rng = rand::rng();
    crate::ai::choose(&pos, level.clamp(1, 8), &mut rng).map(|m| m.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seed() -> [u8; 32] {
        use rand::RngCore;
        let mut s = [0u8; 32];
        rand::rng().fill_bytes(&mut s);
        s
    }

    struct NoChance;
    impl Chance for NoChance {
        fn draw(&mut self, _bound: u32) -> u32 {
            0
        }
    }

    #[test]
    fn layouts_differ_and_views_hide_them() {
        let a = new_banqi_table("banqi", None, seed()).expect("banqi");
        let b = new_banqi_table("banqi", None, seed()).expect("banqi");
        let (sa, sb) = (
            a.secret_setup().expect("setup"),
            b.secret_setup().expect("setup"),
        );
        // Two OS-seeded layouts agree with probability 1/(32!/...) ≈ 0.
        assert_ne!(sa, sb);
        let layout = sa.split(' ').nth(10).expect("eleventh field");
        assert_eq!(layout.len(), 32);
        for v in [Viewer::Seat(0), Viewer::Seat(1), Viewer::Spectator] {
            let view = a.view(v);
            assert!(view.starts_with("????????/????????/????????/????????"));
            assert!(!view.contains(layout));
        }
        assert!(
            new_banqi_table(
                "banqi",
                Some("????????/????????/????????/???????? 0 - 0 0 - -- - -,- 0,0"),
                seed(),
            )
            .is_err()
        );
    }

    #[test]
    fn a_leaver_is_named_by_colour_once_the_first_flip_decides_it() {
        let mut t = new_banqi_table("banqi", None, seed()).expect("banqi");
        let o = t.seat_leaves(1, qiyuan_core::EndReason::Resignation);
        assert_eq!(o.winner, Some(0));
        assert_eq!(o.explanation, "座位2认输 / seat 2 resigned");
        let first = t.seats_to_move()[0];
        let flip = t.legal_moves_for(first)[0].clone();
        t.play_for(first, &flip, &mut NoChance).expect("a flip");
        let o = t.seat_leaves(first, qiyuan_core::EndReason::Resignation);
        assert_eq!(o.winner, Some(1 - first));
        assert!(
            o.explanation == "红方认输 / red resigned"
                || o.explanation == "黑方认输 / black resigned",
            "{}",
            o.explanation
        );
        // The third mark names the seat from 1 in both languages.
        let mut t = new_banqi_table("banqi", None, seed()).expect("banqi");
        let loser = t.seats_to_move()[0];
        for _ in 0..5 {
            let s = t.seats_to_move()[0];
            t.flag_falls(s);
        }
        let n = loser + 1;
        assert_eq!(
            t.result().map(|o| o.explanation.as_str()),
            Some(
                format!(
                    "座位{n}第三次超时, 判负 / seat {n} ran out of time a third time and loses"
                )
                .as_str()
            )
        );
    }

    #[test]
    fn lost_turns_replay_and_the_third_mark_loses() {
        let mut t = new_banqi_table("banqi", None, seed()).expect("banqi");
        let first = t.seats_to_move()[0];
        assert!(
            t.flag_falls(1 - first) != qiyuan_core::FlagFall::TurnLost,
            "only the seat to move can lose its turn"
        );
        for _ in 0..5 {
            let s = t.seats_to_move()[0];
            assert_eq!(t.flag_falls(s), qiyuan_core::FlagFall::TurnLost);
        }
        let o = t.result().expect("over on the third mark");
        assert_eq!(o.winner, Some(1 - first));
        assert_eq!(t.history(), vec!["0000"; 5]);
        assert!(t.play_for(first, "0000", &mut NoChance).is_err());
        // B13 with base 3: winner 0, loser -30.
        let pts = t.game_points(3).expect("over");
        assert_eq!(pts[first], -30);
        assert_eq!(pts[1 - first], 0);
    }

    #[test]
    fn b11_refuses_concessions_early() {
        let t = new_banqi_table("banqi-icga", None, seed()).expect("icga");
        assert!(t.concession_refused().is_some_and(|m| m.contains("B11")));
    }
}
