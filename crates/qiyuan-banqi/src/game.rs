//! A game in progress: the server's full position, the record, the outcome,
//! timeouts (B12), resignation and draws (B11), game points (B13-B17), and
//! the [`Rules`] / [`Views`] / [`GameRules`] faces its table and the CLI drive.
//!
//! The random layout is drawn once, at the start, by the caller
//! ([`Game::random`], [`Game::from_chance`]); after that a game is a pure
//! function of its start position and the move texts, so the hall can store
//! the full start position (secret until the game ends) and the moves, and
//! replay them.

use qiyuan_core::{
    Chance, EndReason, GameRules, MoveError, MoveRecord, Outcome, Rules, Viewer, Views,
};
use rand::Rng;

use crate::points::{PointsInput, game_points};
use crate::position::{Effect, FenError, Position};
use crate::types::{Kind, Move, Preset};

/// Plies before which neither resignation nor a draw offer is possible (B11).
pub const MIN_PLIES_TO_RESIGN: u32 = 40;
/// Timeout marks that lose the game (B12).
pub const TIMEOUT_MARKS_TO_LOSE: u8 = 3;
/// The record's text for a turn lost on time (B12); players cannot play it.
pub const LOST_TURN: &str = "0000";

/// Something a player asked for that the rules do not allow now.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GameError {
    /// B11: too early to resign or agree a draw.
    #[error("{what} is not possible before ply {MIN_PLIES_TO_RESIGN} (B11); {ply} plies played")]
    TooEarly {
        /// "resignation" or "a draw".
        what: &'static str,
        /// Plies played so far.
        ply: u32,
    },
    /// The game has already ended.
    #[error("the game is over")]
    GameOver,
}

/// One entry of the record.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Played {
    /// The seat that acted.
    pub seat: usize,
    /// The move, or `None` for a turn lost on time.
    pub mv: Option<Move>,
    /// What it did (the revealed or captured piece).
    pub effect: Effect,
}

/// A Banqi game.
#[derive(Clone, Debug)]
pub struct Game {
    start: Position,
    position: Position,
    record: Vec<Played>,
    /// Repetition keys since the last flip or capture (icga's threefold rule);
    /// earlier positions cannot come back.
    keys: Vec<[u8; 33]>,
    outcome: Option<Outcome>,
}

impl Game {
    /// A game from `start` (full for play, or public for listing moves; a
    /// public position refuses flips). It may already be over.
    pub fn new(start: Position) -> Game {
        let mut g = Game {
            keys: vec![start.repetition_key()],
            position: start.clone(),
            start,
            record: Vec::new(),
            outcome: None,
        };
        g.outcome = g.position.status();
        g
    }

    /// A new game with a random layout and first seat drawn from `rng` (B1, B2).
    pub fn random<R: Rng + ?Sized>(preset: Preset, rng: &mut R) -> Game {
        Game::new(Position::random(preset, rng))
    }

    /// A new game whose layout is drawn through the hall's chance source.
    pub fn from_chance(preset: Preset, chance: &mut dyn Chance) -> Game {
        Game::new(Position::from_chance(preset, chance))
    }

    /// A game from a position text (public or full).
    pub fn from_fen(preset: Preset, fen: &str) -> Result<Game, FenError> {
        Position::from_fen(preset, fen).map(Game::new)
    }

    /// Replays a stored game: the full start position and the record texts
    /// (moves, and [`LOST_TURN`] for turns lost on time).
    pub fn replay(start: Position, texts: &[String]) -> Result<Game, MoveError> {
        let mut g = Game::new(start);
        for t in texts {
            if t.trim() == LOST_TURN {
                g.timeout().map_err(|_| MoveError::GameOver)?;
            } else {
                g.play_text(t)?;
            }
        }
        Ok(g)
    }

    /// The start position (full: it holds the layout; keep it on the server).
    pub fn start(&self) -> &Position {
        &self.start
    }

    /// The current position (full on the server).
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The record so far.
    pub fn record(&self) -> &[Played] {
        &self.record
    }

    /// What everyone may see: the public position text, with `?` for every
    /// face-down piece. Players and spectators get the same view: nobody
    /// knows a face-down piece (B1).
    pub fn public_view(&self) -> String {
        self.position.public_fen()
    }

    /// The server's full record of the position, face-down identities included.
    pub fn full_fen(&self) -> String {
        self.position.fen()
    }

    /// The seat to move, or `None` once over.
    pub fn turn(&self) -> Option<usize> {
        self.outcome.is_none().then(|| self.position.turn())
    }

    /// Legal moves of the seat to move (none once over).
    pub fn legal(&self) -> Vec<Move> {
        if self.outcome.is_some() {
            Vec::new()
        } else {
            self.position.legal_moves()
        }
    }

    /// Plays a move for the seat to move.
    pub fn play_move(&mut self, m: Move) -> Result<Effect, MoveError> {
        if self.outcome.is_some() {
            return Err(MoveError::GameOver);
        }
        let seat = self.position.turn();
        let effect = self.position.play(m)?;
        self.record.push(Played {
            seat,
            mv: Some(m),
            effect,
        });
        if effect.revealed.is_some() || effect.captured.is_some() {
            self.keys.clear();
        }
        self.after_action();
        Ok(effect)
    }

    /// Plays a move given as text (`a1a2`, `a1a1` to flip).
    pub fn play_text(&mut self, text: &str) -> Result<Effect, MoveError> {
        if text.trim() == LOST_TURN {
            return Err(MoveError::Illegal {
                text: text.into(),
                why: "a turn cannot be passed; it is lost only on time (B12)".into(),
            });
        }
        let m = Move::parse(text).map_err(|why| MoveError::Malformed {
            text: text.into(),
            why,
        })?;
        self.play_move(m)
    }

    /// B12: the seat to move ran out of time. It loses the turn and gets a
    /// mark; the third mark loses the game. Returns that seat's marks.
    pub fn timeout(&mut self) -> Result<u8, GameError> {
        if self.outcome.is_some() {
            return Err(GameError::GameOver);
        }
        let seat = self.position.turn();
        let marks = self.position.pass_turn();
        self.record.push(Played {
            seat,
            mv: None,
            effect: Effect::default(),
        });
        self.after_action();
        Ok(marks)
    }

    /// B11: `seat` resigns; refused before ply 40.
    pub fn resign(&mut self, seat: usize) -> Result<(), GameError> {
        self.check_b11("resignation")?;
        self.outcome = Some(Outcome {
            winner: Some(1 - seat.min(1)),
            partners: Vec::new(),
            reason: EndReason::Resignation,
            explanation: format!("{}认输 / {} resigned", seat_zh(seat), seat_en(seat)),
        });
        Ok(())
    }

    /// B11: both players agree a draw; refused before ply 40.
    pub fn agree_draw(&mut self) -> Result<(), GameError> {
        self.check_b11("a draw")?;
        self.outcome = Some(Outcome {
            winner: None,
            partners: Vec::new(),
            reason: EndReason::Agreement,
            explanation: "双方同意和棋 / draw by agreement".into(),
        });
        Ok(())
    }

    /// Whether resignation and draw offers are open now (B11).
    pub fn may_resign(&self) -> bool {
        self.outcome.is_none() && self.position.ply() >= MIN_PLIES_TO_RESIGN
    }

    fn check_b11(&self, what: &'static str) -> Result<(), GameError> {
        if self.outcome.is_some() {
            return Err(GameError::GameOver);
        }
        let ply = self.position.ply();
        if ply < MIN_PLIES_TO_RESIGN {
            return Err(GameError::TooEarly { what, ply });
        }
        Ok(())
    }

    fn after_action(&mut self) {
        self.keys.push(self.position.repetition_key());
        self.outcome = self.position.status().or_else(|| self.repetition());
    }

    /// icga's threefold repetition (B10).
    fn repetition(&self) -> Option<Outcome> {
        if self.position.preset() != Preset::Icga {
            return None;
        }
        let now = self.keys.last()?;
        (self.keys.iter().filter(|k| *k == now).count() >= 3).then(|| Outcome {
            winner: None,
            partners: Vec::new(),
            reason: EndReason::Repetition,
            explanation: "同一局面第三次出现, 和棋 / the same position occurred a third time: draw"
                .into(),
        })
    }

    /// How the game ended, if it has.
    pub fn result(&self) -> Option<&Outcome> {
        self.outcome.as_ref()
    }

    /// What the game-point rules need, once the game is over.
    pub fn points_input(&self) -> Option<PointsInput> {
        let o = self.outcome.as_ref()?;
        let (winner_pieces, general_first) = match o.winner {
            Some(w) => (
                self.position
                    .colour_of(w)
                    .map_or(0, |c| self.position.pieces_left(c)),
                self.position
                    .first_capture(w)
                    .is_some_and(|p| p.kind == Kind::General),
            ),
            None => (0, false),
        };
        Some(PointsInput {
            winner: o.winner,
            plies: self.position.ply(),
            winner_pieces,
            general_first,
        })
    }

    /// Each seat's game points (B13-B17) in a room with `base`, once over.
    pub fn game_points(&self, base: i64) -> Option<[i64; 2]> {
        self.points_input().map(|i| game_points(&i, base))
    }

    fn record_texts(&self) -> Vec<String> {
        self.record
            .iter()
            .map(|p| {
                p.mv.map_or_else(|| LOST_TURN.to_string(), |m| m.to_string())
            })
            .collect()
    }
}

/// A seat as explanations name it, counted from 1 in both languages.
fn seat_zh(seat: usize) -> String {
    format!("座位{}", seat + 1)
}

fn seat_en(seat: usize) -> String {
    format!("seat {}", seat + 1)
}

impl GameRules for Game {
    fn seats(&self) -> usize {
        2
    }
    fn to_move(&self) -> Option<usize> {
        self.turn()
    }
    /// The public view: safe to show anyone. The server's record is
    /// [`Game::full_fen`].
    fn fen(&self) -> String {
        self.public_view()
    }
    fn legal_moves(&self) -> Vec<String> {
        self.legal().iter().map(Move::to_string).collect()
    }
    fn play(&mut self, mv: &str) -> Result<(), MoveError> {
        self.play_text(mv).map(|_| ())
    }
    fn outcome(&self) -> Option<&Outcome> {
        self.result()
    }
}

/// The rules face that `table::BanqiTable` (the one Banqi table
/// game) delegates to; the hall's own policy lives there. Notes:
/// - create the game with [`Game::random`] / [`Game::from_chance`] and store
///   [`Game::start`]'s full text (it holds the layout) where clients cannot
///   read it; [`Views::view`] is the only text to send;
/// - a flag fall is a lost turn and a mark (B12): call [`Game::timeout`],
///   not [`Rules::end`]; store it as [`LOST_TURN`] so a replay repeats it;
/// - check [`Game::may_resign`] before resignations and draw offers (B11);
/// - settle points with [`Game::game_points`].
impl Rules for Game {
    fn rules_name(&self) -> &str {
        self.position.preset().name()
    }
    fn seat_count(&self) -> usize {
        2
    }
    fn seats_to_move(&self) -> Vec<usize> {
        self.turn().into_iter().collect()
    }
    fn legal_moves_for(&self, seat: usize) -> Vec<String> {
        if self.turn() == Some(seat) {
            GameRules::legal_moves(self)
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
        match self.turn() {
            None => Err(MoveError::GameOver),
            Some(t) if t != seat => Err(MoveError::Illegal {
                text: mv.into(),
                why: format!("it is seat {t}'s turn, not seat {seat}'s"),
            }),
            // The layout was drawn at the start, so a flip needs no new chance.
            Some(_) => self.play_text(mv).map(|_| ()),
        }
    }
    fn result(&self) -> Option<&Outcome> {
        Game::result(self)
    }
    fn end(&mut self, outcome: Outcome) {
        if self.outcome.is_none() {
            self.outcome = Some(outcome);
        }
    }
    fn history(&self) -> Vec<String> {
        self.record_texts()
    }
    fn plies(&self) -> usize {
        self.record.len()
    }
}

impl Views for Game {
    fn view(&self, _viewer: Viewer) -> String {
        // Every viewer, players included, sees only the public position.
        self.public_view()
    }
    fn move_records(&self, from: usize) -> Vec<MoveRecord> {
        self.record
            .iter()
            .skip(from)
            .map(|p| {
                let mut notations = Vec::new();
                if let Some(r) = p.effect.revealed {
                    notations.push(("revealed".to_string(), r.to_string()));
                }
                if let Some(c) = p.effect.captured {
                    notations.push(("captured".to_string(), c.to_string()));
                }
                MoveRecord {
                    text: p
                        .mv
                        .map_or_else(|| LOST_TURN.to_string(), |m| m.to_string()),
                    notations,
                    scores: None,
                }
            })
            .collect()
    }
}
