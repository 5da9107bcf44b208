//! A game: moves judged by Q8, what each side may know (Q9, Q10) and the
//! end (Q11).

use crate::board::{Post, Side};
use crate::piece::{Clash, Piece, Rank};
use crate::position::{Move, Played, Position, Rules};
use crate::text::{MoveError, parse_move};

/// Who may see what (Q9, Q10).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Visibility {
    /// 暗棋: each side sees only its own ranks (the default).
    Hidden,
    /// 明棋: every rank is shown.
    Open,
}

/// Why a game ended (Q11).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum EndReason {
    /// The winner took the flag.
    FlagTaken,
    /// The loser had no movable piece on its turn.
    NoMoves,
    /// Plies in a row without a clash reached the room's limit: a draw.
    QuietLimit,
}

/// How a game ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct GameResult {
    /// The winner; `None` for a draw.
    pub winner: Option<Side>,
    /// Why.
    pub reason: EndReason,
}

impl GameResult {
    /// The explanation shown to the players, Chinese then English.
    pub fn explanation(&self) -> String {
        let name = |s: Side| match s {
            Side::Red => ("红方", "red"),
            Side::Blue => ("蓝方", "blue"),
        };
        match (self.reason, self.winner) {
            (EndReason::FlagTaken, Some(w)) => {
                let (zh, en) = name(w);
                format!("{zh}夺得军旗, 获胜 / {en} took the flag and wins")
            }
            (EndReason::NoMoves, Some(w)) => {
                let (zh, en) = name(w.other());
                let (wz, we) = name(w);
                format!("{zh}无子可走, {wz}胜 / {en} has no piece to move, {we} wins")
            }
            _ => "连续无交战步数已满, 和棋 / no clash for the move limit: draw".into(),
        }
    }
}

/// Why a move cannot be played.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlayError {
    /// The game is over.
    #[error("the game is over")]
    GameOver,
    /// The text is not a move.
    #[error(transparent)]
    Text(#[from] MoveError),
    /// Not a legal move now.
    #[error("illegal move {0}")]
    Illegal(Move),
}

/// What both players learn from a move (Q9): the move, and after a clash
/// only who survived.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Report {
    /// The move.
    pub mv: Move,
    /// The side that moved.
    pub side: Side,
    /// The clash's outcome, if it attacked.
    pub clash: Option<Clash>,
}

/// A Junqi game.
#[derive(Clone, Debug)]
pub struct Game {
    start: Position,
    position: Position,
    rules: Rules,
    visibility: Visibility,
    record: Vec<Played>,
    /// Q9: a side whose 司令 was removed shows its flag to everyone (the
    /// opponent and spectators).
    flag_shown: [bool; 2],
    result: Option<GameResult>,
}

impl Game {
    /// A game from `start`.
    pub fn new(start: Position, rules: Rules, visibility: Visibility) -> Game {
        let mut g = Game {
            position: start.clone(),
            start,
            rules,
            visibility,
            record: Vec::new(),
            flag_shown: [false; 2],
            result: None,
        };
        g.judge(None);
        g
    }

    /// The start position.
    pub fn start(&self) -> &Position {
        &self.start
    }

    /// The position (full information: the referee's).
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The record.
    pub fn record(&self) -> &[Played] {
        &self.record
    }

    /// How the game ended, if it has.
    pub fn result(&self) -> Option<&GameResult> {
        self.result.as_ref()
    }

    /// Legal moves of the side to move (none once over).
    pub fn legal(&self) -> Vec<Move> {
        if self.result.is_some() {
            Vec::new()
        } else {
            self.position.legal_moves()
        }
    }

    /// Plays a move text for the side to move.
    pub fn play_text(&mut self, text: &str) -> Result<Played, PlayError> {
        if self.result.is_some() {
            return Err(PlayError::GameOver);
        }
        let m = parse_move(text)?;
        self.play(m)
    }

    /// Plays a move for the side to move.
    pub fn play(&mut self, m: Move) -> Result<Played, PlayError> {
        if self.result.is_some() {
            return Err(PlayError::GameOver);
        }
        if !self.position.is_legal(m) {
            return Err(PlayError::Illegal(m));
        }
        let played = self.position.make(m, self.rules);
        for removed in removed_pieces(&played) {
            if removed.rank == Rank::Commander {
                self.flag_shown[removed.side.index()] = true;
            }
        }
        self.record.push(played);
        self.judge(Some(played));
        Ok(played)
    }

    /// Q11 after a move: the flag taken, no movable piece, the quiet limit.
    fn judge(&mut self, last: Option<Played>) {
        if let Some(p) = last
            && p.clash == Some(Clash::FlagTaken)
        {
            self.result = Some(GameResult {
                winner: Some(p.mover.side),
                reason: EndReason::FlagTaken,
            });
            return;
        }
        let turn = self.position.turn();
        if self.position.legal_moves().is_empty() {
            self.result = Some(GameResult {
                winner: Some(turn.other()),
                reason: EndReason::NoMoves,
            });
        } else if self.rules.quiet_limit > 0
            && self.position.quiet_plies() >= self.rules.quiet_limit
        {
            self.result = Some(GameResult {
                winner: None,
                reason: EndReason::QuietLimit,
            });
        }
    }

    /// Whether `viewer` (a side, or `None` for a spectator) may see the rank
    /// of `piece` on `post` now (Q9, Q10). Once the game is over everything
    /// is shown.
    pub fn shows(&self, viewer: Option<Side>, post: Post, piece: Piece) -> bool {
        let _ = post;
        if self.visibility == Visibility::Open || self.result.is_some() {
            return true;
        }
        viewer == Some(piece.side)
            || (piece.rank == Rank::Flag && self.flag_shown[piece.side.index()])
    }

    /// The position text as `viewer` may see it.
    pub fn view(&self, viewer: Option<Side>) -> String {
        if self.result.is_some() {
            // The game is over: every rank is published, face-down pieces too.
            return self.position.revealed().to_string();
        }
        self.position
            .text_for(|post, piece| self.shows(viewer, post, piece))
    }

    /// The position as `side` knows it, unknown enemy pieces as platoon
    /// leaders, and the posts of those unknown pieces.
    pub fn known_position(&self, side: Side) -> (Position, crate::board::Posts) {
        self.position.masked(
            |post, piece| self.shows(Some(side), post, piece),
            Rank::Platoon,
        )
    }

    /// The rules settings.
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// Hidden or open.
    pub fn visibility(&self) -> Visibility {
        self.visibility
    }

    /// What every player learns of move `i` of the record (Q9).
    pub fn report(&self, i: usize) -> Option<Report> {
        self.record.get(i).map(|p| Report {
            mv: p.mv,
            side: p.mover.side,
            clash: p.clash,
        })
    }
}

/// The pieces a move removed.
pub fn removed_pieces(p: &Played) -> Vec<Piece> {
    match (p.clash, p.defender) {
        (Some(Clash::AttackerWins | Clash::FlagTaken), Some(d)) => vec![d],
        (Some(Clash::DefenderWins), _) => vec![p.mover],
        (Some(Clash::BothRemoved), Some(d)) => vec![p.mover, d],
        _ => Vec::new(),
    }
}
