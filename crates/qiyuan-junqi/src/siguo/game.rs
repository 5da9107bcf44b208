//! A four-army game: moves, lost turns and surrenders (S10, S12), the end
//! (S11), and what each player may see (S8, S9).

use super::position::{Move, OutReason, Played, Position, Rules, Verdict};
use super::text::{MoveTextError, parse_move};
use super::{PostSet, Unit, team_of};
use crate::graph::PostId;
use crate::piece::{Clash, Rank};

/// Who sees which ranks once the set-up phase is over (S9).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Mode {
    /// 四暗 (the default): each player sees only its own ranks.
    Dark,
    /// 双明: allies also see each other's ranks.
    Allies,
    /// 全明: every rank is public.
    Open,
}

/// Lost turns on time that put an army out (S10, S12).
pub const TIMEOUTS_OUT: u8 = 5;
/// An army may surrender once it has made this many moves (S10: from its
/// own 20th move on, so at the turn of its 20th move too).
pub const SURRENDER_AFTER: u32 = 19;

/// How a game ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Ending {
    /// Both armies of the other team are out; the last went out for `why`.
    Won {
        /// The winning team (0: s+n, 1: e+w).
        team: u8,
        /// Why the last enemy army went out.
        why: OutReason,
    },
    /// The quiet-ply limit (S11).
    QuietLimit,
}

impl Ending {
    /// `result sn|ew|draw REASON` of S15, on a board whose armies are
    /// `letters` in order.
    pub fn line(self, letters: &[char]) -> String {
        match self {
            Ending::Won { team, why } => {
                let armies: String = letters
                    .iter()
                    .enumerate()
                    .filter(|(a, _)| team_of(*a as u8) == team)
                    .map(|(_, c)| *c)
                    .collect();
                format!("result {armies} {}", why.word())
            }
            Ending::QuietLimit => "result draw quiet-limit".into(),
        }
    }
}

/// One thing that happened in the game, in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// A move.
    Move(Played),
    /// `army` lost its turn on time; armies put out on the way.
    TurnLost {
        /// The army.
        army: u8,
        /// Armies put out (the army itself at its fifth, and any army
        /// passed that had no legal move).
        out: Vec<(u8, OutReason)>,
    },
    /// `army` surrendered; armies put out on the way.
    Surrendered {
        /// The army.
        army: u8,
        /// Armies put out (the army first).
        out: Vec<(u8, OutReason)>,
    },
}

/// Why an action is refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlayError {
    /// The game is over.
    #[error("the game is over")]
    GameOver,
    /// Not the army's turn.
    #[error("it is not this army's turn")]
    NotYourTurn,
    /// The army is out.
    #[error("this army is out")]
    Out,
    /// The move text is not two posts.
    #[error(transparent)]
    Text(#[from] MoveTextError),
    /// Not a legal move now.
    #[error("illegal move {0}")]
    Illegal(String),
    /// S10: surrender is open from the army's 20th move.
    #[error("an army may surrender from its own 20th move on ({made} made)")]
    TooEarly {
        /// Moves the army has made.
        made: u32,
    },
}

/// What one player learns of a move (S9): the army that moved, the posts
/// and the path, whose piece was attacked and the clash's outcome (which
/// piece is left on the board), and only the ranks it may see.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeenMove {
    /// The move.
    pub mv: Move,
    /// The posts the piece passed.
    pub path: Vec<PostId>,
    /// The army that moved.
    pub mover: u8,
    /// The mover's rank, if the player may see that army's ranks.
    pub mover_rank: Option<Rank>,
    /// The army of the piece attacked, if any.
    pub defender: Option<u8>,
    /// The defender's rank, if the player may see that army's ranks.
    pub defender_rank: Option<Rank>,
    /// The clash's outcome, if it attacked.
    pub clash: Option<Clash>,
    /// Whether the mover stands on `mv.to` afterwards (the board shows it:
    /// a bomb that takes a flag is gone).
    pub mover_stays: bool,
}

/// A four-army (or any N-army) game.
#[derive(Clone, Debug)]
pub struct Game {
    start: Position,
    position: Position,
    rules: Rules,
    mode: Mode,
    events: Vec<Event>,
    timeouts: Vec<u8>,
    moves_made: Vec<u32>,
    ending: Option<Ending>,
}

impl Game {
    /// A game from `start` under `rules`, ranks shown by `mode`.
    pub fn new(start: Position, rules: Rules, mode: Mode) -> Game {
        let armies = start.graph().armies();
        let mut g = Game {
            position: start.clone(),
            start,
            rules,
            mode,
            events: Vec::new(),
            timeouts: vec![0; armies],
            moves_made: vec![0; armies],
            ending: None,
        };
        g.settle(None);
        g
    }

    /// The start position.
    pub fn start(&self) -> &Position {
        &self.start
    }

    /// The position now.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The rules.
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// The mode.
    pub fn mode(&self) -> Mode {
        self.mode
    }

    /// Everything that happened, in order.
    pub fn events(&self) -> &[Event] {
        &self.events
    }

    /// How the game ended, if it has.
    pub fn ending(&self) -> Option<Ending> {
        self.ending
    }

    /// Turns `army` has lost on time.
    pub fn timeouts(&self, army: u8) -> u8 {
        self.timeouts.get(army as usize).copied().unwrap_or(0)
    }

    /// Moves `army` has made.
    pub fn moves_made(&self, army: u8) -> u32 {
        self.moves_made.get(army as usize).copied().unwrap_or(0)
    }

    /// Plies made (S11: moves only).
    pub fn plies(&self) -> usize {
        self.events
            .iter()
            .filter(|e| matches!(e, Event::Move(_)))
            .count()
    }

    /// The legal moves of the army to move (none once over).
    pub fn legal(&self) -> Vec<Move> {
        if self.ending.is_some() {
            return Vec::new();
        }
        self.position.legal_moves()
    }

    /// Plays the move written `text` (S14) for the army to move.
    pub fn play_text(&mut self, text: &str) -> Result<&Played, PlayError> {
        let m = parse_move(self.position.graph(), text)?;
        self.play(m)
    }

    /// Plays `m` for the army to move.
    pub fn play(&mut self, m: Move) -> Result<&Played, PlayError> {
        if self.ending.is_some() {
            return Err(PlayError::GameOver);
        }
        if !self.position.is_legal(m) {
            return Err(PlayError::Illegal(self.position.move_text(m)));
        }
        let army = self.position.turn();
        let played = self.position.make(m, self.rules);
        self.moves_made[army as usize] += 1;
        let last_out = played.out.last().map(|o| o.1);
        self.events.push(Event::Move(played));
        self.settle(last_out);
        match self.events.last() {
            Some(Event::Move(p)) => Ok(p),
            _ => unreachable!("just pushed"),
        }
    }

    /// The army to move lost its turn on time (S12): the fifth puts it out.
    pub fn lose_turn(&mut self) -> Result<&Event, PlayError> {
        if self.ending.is_some() {
            return Err(PlayError::GameOver);
        }
        let army = self.position.turn();
        self.timeouts[army as usize] += 1;
        let out = if self.timeouts[army as usize] >= TIMEOUTS_OUT {
            self.position.put_out(army, OutReason::Timeout, self.rules)
        } else {
            self.position.lose_turn(self.rules)
        };
        let last_out = out.last().map(|o| o.1);
        self.events.push(Event::TurnLost { army, out });
        self.settle(last_out);
        Ok(self.events.last().unwrap_or_else(|| unreachable!()))
    }

    /// `army` surrenders (S10, from its 20th move on).
    pub fn surrender(&mut self, army: u8) -> Result<&Event, PlayError> {
        if self.ending.is_some() {
            return Err(PlayError::GameOver);
        }
        if self.position.is_out(army) {
            return Err(PlayError::Out);
        }
        let made = self.moves_made(army);
        if made < SURRENDER_AFTER {
            return Err(PlayError::TooEarly { made });
        }
        let out = self
            .position
            .put_out(army, OutReason::Surrender, self.rules);
        let last_out = out.last().map(|o| o.1);
        self.events.push(Event::Surrendered { army, out });
        self.settle(last_out);
        Ok(self.events.last().unwrap_or_else(|| unreachable!()))
    }

    fn settle(&mut self, last_out: Option<OutReason>) {
        self.ending = match self.position.verdict(self.rules) {
            Verdict::Playing => None,
            Verdict::Won { team } => Some(Ending::Won {
                team,
                why: last_out.unwrap_or(OutReason::NoMoves),
            }),
            Verdict::Drawn => Some(Ending::QuietLimit),
        };
    }

    /// S8: the flag of an army whose 司令 is gone is shown to everyone.
    pub fn flag_shown(&self, army: u8) -> bool {
        !self.position.is_out(army)
            && !self.position.graph().posts().any(|p| {
                self.position.at(p)
                    == Some(Unit {
                        army,
                        rank: Rank::Commander,
                    })
            })
    }

    /// Whether `viewer` (an army, or `None` for a spectator) sees the rank
    /// of `unit` (S8, S9). After the game, everyone sees everything.
    pub fn shows(&self, viewer: Option<u8>, unit: Unit) -> bool {
        self.ending.is_some()
            || self.mode == Mode::Open
            || viewer == Some(unit.army)
            || (self.mode == Mode::Allies
                && viewer.is_some_and(|v| v != unit.army && team_of(v) == team_of(unit.army)))
            || (unit.rank == Rank::Flag && self.flag_shown(unit.army))
    }

    /// Whether `viewer` sees the ranks of `army` by the room's mode (S9),
    /// whatever happened on the board.
    pub fn mode_shows(&self, viewer: Option<u8>, army: u8) -> bool {
        self.mode == Mode::Open
            || viewer == Some(army)
            || (self.mode == Mode::Allies && viewer.is_some_and(|v| team_of(v) == team_of(army)))
    }

    /// The moves so far as `viewer` learnt them (S9): never a rank it may
    /// not see.
    pub fn seen_moves(&self, viewer: Option<u8>) -> Vec<SeenMove> {
        let rank_of = |u: Unit| self.mode_shows(viewer, u.army).then_some(u.rank);
        self.events
            .iter()
            .filter_map(|e| match e {
                Event::Move(p) => Some(SeenMove {
                    mv: p.mv,
                    path: p.path.clone(),
                    mover: p.mover.army,
                    mover_rank: rank_of(p.mover),
                    defender: p.defender.map(|d| d.army),
                    defender_rank: p.defender.and_then(rank_of),
                    clash: p.clash,
                    mover_stays: match p.clash {
                        None | Some(Clash::AttackerWins) => true,
                        Some(Clash::FlagTaken) => p.mover.rank != Rank::Bomb,
                        Some(_) => false,
                    },
                }),
                _ => None,
            })
            .collect()
    }

    /// The position as `viewer` knows it: every piece where it stands, a
    /// rank the viewer may not see (S8, S9) replaced by `placeholder`; and
    /// the posts of those pieces.
    pub fn known_position(&self, viewer: Option<u8>, placeholder: Rank) -> (Position, PostSet) {
        let mut p = self.position.clone();
        let mut hidden = PostSet::EMPTY;
        for post in self.position.graph().posts() {
            if let Some(u) = self.position.at(post)
                && !self.shows(viewer, u)
            {
                hidden.insert(post);
                p.put(
                    post,
                    Some(Unit {
                        army: u.army,
                        rank: placeholder,
                    }),
                );
            }
        }
        (p, hidden)
    }

    /// The S15 text of the position as `viewer` may see it.
    pub fn view(&self, viewer: Option<u8>) -> String {
        self.position.text_for(|_, u| self.shows(viewer, u))
    }

    /// The posts of the last move's path, for display.
    pub fn last_path(&self) -> Option<&[PostId]> {
        self.events.iter().rev().find_map(|e| match e {
            Event::Move(p) => Some(&p.path[..]),
            _ => None,
        })
    }
}
