//! The hall's view of four-army Junqi (feature `table`): [`SiguoKind`]
//! (`siguo`, four seats, rated in its own `siguo` family, S13) and
//! [`SiguoTable`], the server as referee.
//!
//! Seat `i` plays army `i` (S1: south, east, north, west). The game starts
//! with the simultaneous, secret set-up phase (S7, Q4): every seat sends
//! its set-up in its own frame (or `random` / `planned`), and a seat whose
//! three minutes run out is given a set-up drawn from the game's secret
//! seed (S12; the hall plays a saved `on_timeout` set-up first). Then the
//! armies move in turn, 30 seconds a move; a fallen flag loses the turn
//! and the fifth puts the army out; an army may surrender from its 20th
//! move (S10). Each seat sees what S8/S9 allow, in every message: the view,
//! the record (set-ups, clashes, paths) and, after the game, everything.

use std::any::Any;
use std::time::Duration;

use qiyuan_core::Rules as _;
use qiyuan_core::{
    AiFor, Chance, ClockRule, DefaultClock, EndReason, FlagFall, GameAi, GameKind, HallPolicy,
    MoveError, MoveRecord, OptionSpec, Outcome, Progress, Resigned, SeatProgress, Settlement,
    StartSpec, TableGame, TypedAi, VariantSpec, Viewer, Views,
};

use super::game::{Ending, Event, Game, Mode, PlayError};
use super::position::{OutReason, Position, Rules};
use super::{four_armies, team_of};
use crate::board::Side;
use crate::setup::Setup;
use crate::table::{FLAG_CAPTURED, check_setup_text, parse_seed, seeded};

/// The rating family and kind id (S13).
pub const FAMILY: &str = "siguo";
/// What a seat sends to have the server draw its set-up.
pub const RANDOM: &str = "random";
/// What a seat sends for a set-up placed with a plan (the AI's, the page's
/// "suggest").
pub const PLANNED: &str = "planned";
/// The record's word for a turn lost on time (S12).
pub const TIMEOUT: &str = "timeout";
/// The record's word for a surrender (S10).
pub const SURRENDER: &str = "surrender";
/// How a set-up reads in the record for those who may not see it.
const HIDDEN_SETUP: &str = "setup";
/// The prefix of the stored secret: the seed of the set-ups drawn on time.
const SEED_PREFIX: &str = "seed:";
/// The set-up phase's time (S12).
pub const SETUP_MS: i64 = 180_000;
/// Seats (armies) of a game.
const SEATS: usize = 4;
/// Seat names, in army order (S1).
const SEAT_NAMES: [&str; SEATS] = ["south", "east", "north", "west"];
/// The armies' names in Chinese and English, for explanations.
const ARMY_WORDS: [(&str, &str); SEATS] = [
    ("南方", "South"),
    ("东方", "East"),
    ("北方", "North"),
    ("西方", "West"),
];

const MODE: OptionSpec = OptionSpec {
    name: "mode",
    min: 0,
    max: 2,
    about: "who sees which ranks (S9): 0 四暗 each only its own (default), 1 双明 allies see each other's, 2 全明 every rank once the set-up is over",
};
const CLOCKWISE: OptionSpec = OptionSpec {
    name: "clockwise",
    min: 0,
    max: 1,
    about: "1: turns go clockwise s w n e (S1; default 0, counterclockwise s e n w)",
};
const QUIET: OptionSpec = OptionSpec {
    name: "quiet",
    min: 0,
    max: 400,
    about: "plies in a row without a clash that draw (S11; default 120, 0: never)",
};
const MINES: OptionSpec = OptionSpec {
    name: "mine_trades",
    min: 0,
    max: 1,
    about: "1: a mine and its attacker (not an engineer) are both removed (Q8)",
};

static VARIANTS: [VariantSpec; 1] = [VariantSpec {
    name: "siguo",
    seats: &[SEATS],
    options: &[MODE, CLOCKWISE, QUIET, MINES],
}];

/// Four-army Junqi for the registry.
pub struct SiguoKind;

impl GameKind for SiguoKind {
    fn id(&self) -> &'static str {
        FAMILY
    }
    fn variants(&self) -> &'static [VariantSpec] {
        &VARIANTS
    }
    fn check_preset(&self, text: &str) -> Result<(), String> {
        // S7: one set-up text, in the army's own frame, serves every seat.
        check_setup_text(text)
    }
    fn start(&self, spec: &StartSpec<'_>) -> Result<Box<dyn TableGame>, String> {
        if spec.variant != "siguo" {
            return Err(format!("unknown game '{}'", spec.variant));
        }
        let option = |o: &OptionSpec, default: i64| {
            spec.options
                .get(o.name)
                .copied()
                .unwrap_or(default)
                .clamp(o.min, o.max)
        };
        let rules = Rules {
            mine_trades: option(&MINES, 0) == 1,
            quiet_limit: option(&QUIET, 120) as u32,
            clockwise: option(&CLOCKWISE, 0) == 1,
        };
        let mode = match option(&MODE, 0) {
            1 => Mode::Allies,
            2 => Mode::Open,
            _ => Mode::Dark,
        };
        let mut table = SiguoTable {
            rules,
            mode,
            seed: spec.seed,
            secret: true,
            setups: Default::default(),
            setup_texts: Vec::new(),
            game: None,
            history: Vec::new(),
            outcome: None,
        };
        match spec.setup {
            Some(text) if text.starts_with(SEED_PREFIX) => {
                table.seed = parse_seed(&text[SEED_PREFIX.len()..])
                    .ok_or_else(|| "a stored set-up seed is 64 hex digits".to_string())?;
            }
            // A full-information position (S15): no set-up phase.
            Some(text) => {
                let p = Position::from_text(four_armies(), text)
                    .map_err(|e| format!("bad position: {e}"))?;
                table.game = Some(Game::new(p, rules, mode));
                table.secret = false;
                table.judge();
            }
            None => {}
        }
        Ok(Box::new(table))
    }
    fn default_clock(&self) -> DefaultClock {
        DefaultClock::PerMove { seconds: 30 }
    }
    fn ai(&self) -> Option<&dyn GameAi> {
        Some(&AiFor(SiguoAi))
    }
    fn end_reasons(&self) -> &'static [EndReason] {
        &[FLAG_CAPTURED]
    }
    fn seat_names(&self, seats: usize) -> Vec<String> {
        qiyuan_core::kind::named_seats(&SEAT_NAMES, seats)
    }
    fn teams(&self, _variant: &str, seats: usize) -> Option<Vec<Vec<usize>>> {
        // S1: allies sit opposite.
        (seats == SEATS).then(|| vec![vec![0, 2], vec![1, 3]])
    }
    fn web_module(&self) -> &'static str {
        "siguo"
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// A four-army game as the hall drives it.
#[derive(Clone)]
pub struct SiguoTable {
    rules: Rules,
    mode: Mode,
    /// Draws the set-ups of seats whose time runs out (stored as the secret).
    seed: [u8; 32],
    /// Whether the game has a secret seed (it began with a set-up phase).
    secret: bool,
    setups: [Option<Setup>; SEATS],
    /// (seat, set-up text) in the order the set-ups came in.
    setup_texts: Vec<(usize, String)>,
    game: Option<Game>,
    /// What each seat sent, in order: set-ups (or `random`/`planned`,
    /// replayed from the stored draws), then moves, `timeout` and
    /// `surrender`; entry 4 + k is the game's event k.
    history: Vec<String>,
    outcome: Option<Outcome>,
}

impl SiguoTable {
    /// The rules' game once every set-up is in.
    pub fn game(&self) -> Option<&Game> {
        self.game.as_ref()
    }

    /// Who sees which ranks (S9).
    pub fn mode(&self) -> Mode {
        self.mode
    }

    fn setup_phase(&self) -> bool {
        self.game.is_none()
    }

    fn army_words(army: u8) -> (&'static str, &'static str) {
        ARMY_WORDS[army as usize % SEATS]
    }

    /// "南方、北方" / "South and North": a team's armies in words.
    fn team_words(team: u8) -> (String, String) {
        let armies: Vec<u8> = (0..SEATS as u8).filter(|&a| team_of(a) == team).collect();
        let zh: Vec<&str> = armies.iter().map(|&a| Self::army_words(a).0).collect();
        let en: Vec<&str> = armies.iter().map(|&a| Self::army_words(a).1).collect();
        (zh.join("、"), en.join(" and "))
    }

    fn judge(&mut self) {
        if self.outcome.is_some() {
            return;
        }
        let Some(ending) = self.game.as_ref().and_then(Game::ending) else {
            return;
        };
        self.outcome = Some(match ending {
            Ending::Won { team, why } => {
                let winners: Vec<usize> =
                    (0..SEATS).filter(|&s| team_of(s as u8) == team).collect();
                let (wz, we) = Self::team_words(team);
                let (lz, le) = Self::team_words(1 - team);
                let reason = match why {
                    OutReason::FlagTaken => FLAG_CAPTURED,
                    OutReason::NoMoves => EndReason::Stalemate,
                    OutReason::Surrender => EndReason::Resignation,
                    OutReason::Timeout => EndReason::Timeout,
                };
                Outcome::team_won(
                    &winners,
                    reason,
                    format!("{lz}均已出局，{wz}获胜 / {le} are out: {we} win"),
                )
            }
            Ending::QuietLimit => Outcome::team_won(
                &[],
                EndReason::MoveLimit,
                format!(
                    "连续{}步无交战，和棋 / {} plies without a clash: draw",
                    self.rules.quiet_limit, self.rules.quiet_limit
                ),
            ),
        });
    }

    /// Takes `setup` for `seat`; starts play once all four are in.
    fn place(&mut self, seat: usize, setup: Setup, text: String) {
        self.setup_texts.push((seat, setup.to_string()));
        self.setups[seat] = Some(setup);
        self.history.push(text);
        if self.setups.iter().all(Option::is_some) {
            let setups: Vec<Setup> = self.setups.iter().flatten().cloned().collect();
            if let Some(p) = Position::from_setups(four_armies(), &setups) {
                self.game = Some(Game::new(p, self.rules, self.mode));
                self.judge();
            }
        }
    }

    /// A set-up drawn from the secret seed for `seat` (its time ran out).
    fn drawn_setup(&self, seat: usize) -> Setup {
        Setup::random(Side::Red, &mut seeded(&self.seed, seat as u64))
    }

    /// Whether `viewer` may read the set-up `owner` sent (S9: secret during
    /// the phase; then as the mode shows ranks; everything after the game).
    fn setup_shown(&self, viewer: Viewer, owner: usize) -> bool {
        let started = self.game.is_some();
        self.outcome.is_some()
            || viewer == Viewer::Seat(owner)
            || (started && self.mode == Mode::Open)
            || (started
                && self.mode == Mode::Allies
                && matches!(viewer, Viewer::Seat(s) if team_of(s as u8) == team_of(owner as u8)))
    }

    /// The record entries `viewer` may see, from `from` on (S9): set-ups as
    /// [`SiguoTable::setup_shown`] says; for each move its army, the
    /// clash's outcome, the path and the armies put out (`out`: `e:flag-taken
    /// n:no-moves`); never a rank.
    fn records(&self, viewer: Viewer, from: usize) -> Vec<MoveRecord> {
        let setups = self.setup_texts.len();
        let events = self.game.as_ref().map_or(&[][..], |g| g.events());
        let letter = |army: u8| four_armies().army_letter(army).unwrap_or('?').to_string();
        // One `out` entry (the page's notations are a map): `e:flag-taken
        // n:no-moves`, in the order the armies went out.
        let outs = |out: &[(u8, OutReason)]| {
            let words: Vec<String> = out
                .iter()
                .map(|(a, why)| format!("{}:{}", letter(*a), why.word()))
                .collect();
            (!words.is_empty()).then(|| ("out".to_string(), words.join(" ")))
        };
        (from..self.history.len())
            .map(|i| {
                if i < setups {
                    let (owner, text) = &self.setup_texts[i];
                    return MoveRecord {
                        text: if self.setup_shown(viewer, *owner) {
                            text.clone()
                        } else {
                            HIDDEN_SETUP.into()
                        },
                        notations: vec![("army".into(), letter(*owner as u8))],
                        scores: None,
                    };
                }
                let mut notations = Vec::new();
                match events.get(i - setups) {
                    Some(Event::Move(p)) => {
                        notations.push(("army".into(), letter(p.mover.army)));
                        if let Some(c) = p.clash {
                            notations.push(("clash".into(), c.word().into()));
                        }
                        let path: Vec<&str> =
                            p.path.iter().map(|&q| four_armies().name(q)).collect();
                        notations.push(("path".into(), path.join(" ")));
                        notations.extend(outs(&p.out));
                    }
                    Some(Event::TurnLost { army, out } | Event::Surrendered { army, out }) => {
                        notations.push(("army".into(), letter(*army)));
                        notations.extend(outs(out));
                    }
                    None => {}
                }
                MoveRecord {
                    text: self.history[i].clone(),
                    notations,
                    scores: None,
                }
            })
            .collect()
    }

    /// The position during the set-up phase as `viewer` may see it: its own
    /// set-up if sent, nothing of the others'; move number 0. Once the game
    /// is over (ended in the set-up), every set-up sent.
    fn setup_view(&self, viewer: Viewer) -> String {
        let mut p = Position::empty(four_armies());
        for (seat, setup) in self.setups.iter().enumerate() {
            let Some(setup) = setup else { continue };
            if !self.setup_shown(viewer, seat) {
                continue;
            }
            for (post, rank) in setup.pieces() {
                if let Some(own) = four_armies().own_post(seat as u8, post.file(), post.rank()) {
                    p.put(
                        own,
                        Some(super::Unit {
                            army: seat as u8,
                            rank,
                        }),
                    );
                }
            }
        }
        let text = p.to_string();
        // Move number 0 marks the phase (the text's last field).
        match text.rsplit_once(' ') {
            Some((head, _)) => format!("{head} 0"),
            None => text,
        }
    }

    fn seat_of_turn(&self) -> Option<usize> {
        let g = self.game.as_ref()?;
        (g.ending().is_none()).then_some(g.position().turn() as usize)
    }
}

impl qiyuan_core::Rules for SiguoTable {
    fn rules_name(&self) -> &str {
        "siguo"
    }
    fn seat_count(&self) -> usize {
        SEATS
    }
    fn seats_to_move(&self) -> Vec<usize> {
        if self.outcome.is_some() {
            return Vec::new();
        }
        match &self.game {
            None => (0..SEATS).filter(|&s| self.setups[s].is_none()).collect(),
            Some(_) => self.seat_of_turn().into_iter().collect(),
        }
    }
    fn legal_moves_for(&self, seat: usize) -> Vec<String> {
        if !self.seats_to_move().contains(&seat) {
            return Vec::new();
        }
        match &self.game {
            None => vec![RANDOM.into(), PLANNED.into()],
            Some(g) => {
                let p = g.position();
                g.legal().into_iter().map(|m| p.move_text(m)).collect()
            }
        }
    }
    fn play_for(
        &mut self,
        seat: usize,
        mv: &str,
        chance: &mut dyn Chance,
    ) -> Result<(), MoveError> {
        let shown: String = mv.chars().take(40).collect();
        if !self.seats_to_move().contains(&seat) {
            return Err(MoveError::Illegal {
                text: shown,
                why: "not this seat's turn".into(),
            });
        }
        if self.setup_phase() {
            let setup = if mv == RANDOM {
                Setup::random(Side::Red, &mut |n| chance.draw(n.max(1)))
            } else if mv == PLANNED {
                crate::plan::designed(Side::Red, &mut |n| chance.draw(n.max(1)))
            } else {
                Setup::parse(Side::Red, mv).map_err(|errors| MoveError::Malformed {
                    text: shown,
                    why: errors
                        .iter()
                        .map(ToString::to_string)
                        .collect::<Vec<_>>()
                        .join("; "),
                })?
            };
            self.place(seat, setup, mv.to_string());
            return Ok(());
        }
        let game = self.game.as_mut().ok_or_else(|| MoveError::Illegal {
            text: shown.clone(),
            why: "the game has not started".into(),
        })?;
        game.play_text(mv).map_err(|e| match e {
            PlayError::Text(_) => MoveError::Malformed {
                text: shown.clone(),
                why: e.to_string(),
            },
            _ => MoveError::Illegal {
                text: shown.clone(),
                why: e.to_string(),
            },
        })?;
        self.history.push(mv.to_string());
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

impl Views for SiguoTable {
    fn view(&self, viewer: Viewer) -> String {
        let army = match viewer {
            Viewer::Seat(s) => Some(s as u8),
            Viewer::Spectator => None,
        };
        match &self.game {
            None => self.setup_view(viewer),
            // Ended from outside the rules (agreement, a leaver): every
            // rank is published all the same.
            Some(g) if self.outcome.is_some() => g.position().to_string(),
            Some(g) => g.view(army),
        }
    }
    fn hides_information(&self) -> bool {
        self.secret || self.mode != Mode::Open
    }
    fn secret_setup(&self) -> Option<String> {
        self.secret.then(|| {
            let hex: String = self.seed.iter().map(|b| format!("{b:02x}")).collect();
            format!("{SEED_PREFIX}{hex}")
        })
    }
    fn move_records(&self, from: usize) -> Vec<MoveRecord> {
        self.records(Viewer::Spectator, from)
    }
    fn move_records_for(&self, viewer: Viewer, from: usize) -> (usize, Vec<MoveRecord>) {
        // Set-ups become readable when play starts (双明, 全明) or the game
        // ends: the viewer then gets the list again from the start.
        let revealing = self.mode != Mode::Dark && self.game.is_some();
        let from = if self.outcome.is_some() || (revealing && from <= self.setup_texts.len()) {
            0
        } else {
            from
        };
        (from, self.records(viewer, from))
    }
}

impl HallPolicy for SiguoTable {
    fn clock_rule(&self) -> ClockRule {
        ClockRule::PerMove
    }
    fn turn_time_ms(&self, room_ms: i64) -> i64 {
        if self.setup_phase() {
            SETUP_MS
        } else {
            room_ms
        }
    }
    fn flag_falls(&mut self, seat: usize) -> FlagFall {
        if self.setup_phase() {
            if self.setups.get(seat).is_some_and(Option::is_none) {
                // S12: a set-up drawn from the secret seed.
                let setup = self.drawn_setup(seat);
                let text = setup.to_string();
                self.place(seat, setup, text);
                return FlagFall::TurnLost;
            }
            return FlagFall::Ends(self.seat_leaves(seat, EndReason::Timeout));
        }
        if self.seat_of_turn() != Some(seat) {
            return FlagFall::Ends(self.seat_leaves(seat, EndReason::Timeout));
        }
        let Some(game) = self.game.as_mut() else {
            return FlagFall::Ends(self.seat_leaves(seat, EndReason::Timeout));
        };
        if game.lose_turn().is_err() {
            return FlagFall::Ends(self.seat_leaves(seat, EndReason::Timeout));
        }
        self.history.push(TIMEOUT.into());
        self.judge();
        FlagFall::TurnLost
    }
    fn resigns(&mut self, seat: usize) -> Resigned {
        let Some(game) = self.game.as_mut() else {
            // During the set-up phase a resignation ends the game for the
            // leaver's team.
            return Resigned::Ends(self.seat_leaves(seat, EndReason::Resignation));
        };
        match game.surrender(seat as u8) {
            Ok(_) => {
                self.history.push(SURRENDER.into());
                self.judge();
                Resigned::Out
            }
            Err(PlayError::TooEarly { made }) => Resigned::Refused(format!(
                "an army may surrender from its own 20th move on ({made} made)"
            )),
            Err(e) => Resigned::Refused(e.to_string()),
        }
    }
    fn progress(&self) -> Option<Progress> {
        let g = self.game.as_ref()?;
        Some(Progress {
            seats: (0..SEATS as u8)
                .map(|a| SeatProgress {
                    out: g.position().is_out(a),
                    ..SeatProgress::default()
                })
                .collect(),
            dead_game: false,
            quiet_left: None,
        })
    }
    fn seat_leaves(&self, seat: usize, reason: EndReason) -> Outcome {
        // A team game: the leaver's team loses.
        let team = team_of(seat as u8);
        let winners: Vec<usize> = (0..SEATS).filter(|&s| team_of(s as u8) != team).collect();
        let (zh, en) = Self::army_words(seat as u8);
        let (wz, we) = Self::team_words(1 - team);
        let explanation = if reason == EndReason::Timeout {
            format!("{zh}超时，{wz}获胜 / {en} ran out of time: {we} win")
        } else {
            format!("{zh}认输，{wz}获胜 / {en} resigned: {we} win")
        };
        Outcome::team_won(&winners, reason, explanation)
    }
    fn draw_voters(&self) -> Option<Vec<usize>> {
        // S11: a draw needs every player still in the game.
        let g = self.game.as_ref();
        Some(
            (0..SEATS)
                .filter(|&s| !g.is_some_and(|g| g.position().is_out(s as u8)))
                .collect(),
        )
    }
}

impl Settlement for SiguoTable {}

impl TableGame for SiguoTable {
    fn boxed_clone(&self) -> Box<dyn TableGame> {
        Box::new(self.clone())
    }
}

/// The four-army AI: a planned set-up, then [`super::ai::choose`] from its
/// own seat's knowledge only, with draws seeded from the game's seed and
/// the ply so that it is repeatable.
pub struct SiguoAi;

impl TypedAi for SiguoAi {
    type Table = SiguoTable;
    fn choose(
        &self,
        t: &SiguoTable,
        seat: usize,
        level: u8,
        budget: Option<Duration>,
    ) -> Option<String> {
        if !t.seats_to_move().contains(&seat) {
            return None;
        }
        let Some(g) = t.game() else {
            return Some(PLANNED.into());
        };
        // A short budget (tests, AI-only games) plays at most level 2.
        let level = if budget.is_some_and(|b| b < Duration::from_millis(100)) {
            level.min(2)
        } else {
            level
        };
        let mut draw = seeded(&t.seed, 1000 + t.history.len() as u64);
        super::ai::choose(g, seat as u8, level, &mut draw).map(|m| g.position().move_text(m))
    }
    fn rating(&self, level: u8) -> f64 {
        // Not calibrated: the two-player scale until matches measure it.
        700.0 + 100.0 * f64::from(level.clamp(1, 8))
    }
}

#[cfg(test)]
mod tests;
