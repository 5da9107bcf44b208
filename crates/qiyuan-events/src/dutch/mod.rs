//! The FIDE Dutch system (C.04.3, the rules in force from 2026) by weighted
//! matching.
//!
//! Every absolute, completion and quality criterion of C.04.3 becomes a bit
//! field of one edge weight, most important first, so that a maximum-weight
//! matching of the whole field satisfies them in their order of priority.
//! Brackets are then fixed one at a time from the top score group down: which
//! moved-down players are paired, their opponents, the exchanges between the
//! halves S1 and S2 (fewest, then smallest differences of the exchanged
//! pairing numbers), and finally each S1 player's opponent, each decision
//! taken by nudging the low bits of the weights and asking the matching again.
//! This is how the FIDE-endorsed programs pair (bbpPairings works this way);
//! the tests check our pairings against its output round by round.
//!
//! The input is the field as it stands before the round ([`Field`]), built
//! from a tournament file or from an event; the output is the boards in
//! publication order ([`pair`]).

mod engine;
mod from_trf;
mod wide;

pub use from_trf::FieldError;

use thiserror::Error;

/// A piece colour (red plays white's part).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Colour {
    /// Moves first.
    White,
    /// Moves second.
    Black,
}

impl Colour {
    /// The other colour.
    pub fn flip(self) -> Colour {
        match self {
            Colour::White => Colour::Black,
            Colour::Black => Colour::White,
        }
    }
}

/// How a round ended for a player, as points are counted.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Lost, forfeited, absent or a zero-point bye.
    Loss,
    /// Drawn or a half-point bye.
    Draw,
    /// Won, won by forfeit, a full-point or pairing-allocated bye.
    Win,
}

/// One round of a player's record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Match {
    /// The opponent (index into [`Field::entrants`]); `None` for a bye or an
    /// absence.
    pub opponent: Option<usize>,
    /// The colour of a game played over the board.
    pub colour: Option<Colour>,
    /// The result.
    pub outcome: Outcome,
    /// Whether a game was played over the board (forfeits and byes were not).
    pub played: bool,
    /// Whether the pairing made this entry: a game, a forfeit or a
    /// pairing-allocated bye (a requested bye or an absence was not paired).
    pub paired: bool,
}

impl Match {
    /// A round the player was not paired in and scored nothing (absent).
    pub fn absent() -> Match {
        Match {
            opponent: None,
            colour: None,
            outcome: Outcome::Loss,
            played: false,
            paired: false,
        }
    }
}

/// A player in the field.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Entrant {
    /// Rounds so far, in order. A player who has an entry for the round being
    /// paired (a requested bye, a withdrawal) is left out of the pairing.
    pub matches: Vec<Match>,
    /// Acceleration points (tenths) per round, as C.04.3's accelerated
    /// rounds add them to the pairing score; empty for none.
    pub accelerations: Vec<u32>,
}

/// Points per result, in tenths of a point (TRF-2026's BBW … BBU).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Points {
    /// A win over the board or by forfeit.
    pub win: u32,
    /// A draw or a half-point bye.
    pub draw: u32,
    /// A loss over the board.
    pub loss: u32,
    /// A zero-point bye or an absence.
    pub zero_bye: u32,
    /// A forfeit loss.
    pub forfeit_loss: u32,
    /// The pairing-allocated bye.
    pub pairing_bye: u32,
}

impl Default for Points {
    fn default() -> Points {
        Points {
            win: 10,
            draw: 5,
            loss: 0,
            zero_bye: 0,
            forfeit_loss: 0,
            pairing_bye: 10,
        }
    }
}

/// The field before a round.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Field {
    /// Every player by pairing number minus one.
    pub entrants: Vec<Entrant>,
    /// Rounds already played (the round paired is `played_rounds + 1`).
    pub played_rounds: usize,
    /// Rounds in the event (the last-round top-scorer rule needs it).
    pub total_rounds: usize,
    /// The point system.
    pub points: Points,
    /// The colour of the top player in round 1 (odd boards).
    pub initial_colour: Colour,
    /// Groups of players who must not meet (beyond earlier opponents).
    pub forbidden: Vec<Vec<usize>>,
}

/// One board of a round.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Board {
    /// The player with white (red).
    pub white: usize,
    /// The player with black; `None` for the pairing-allocated bye.
    pub black: Option<usize>,
}

/// Why a round cannot be paired.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum DutchError {
    /// No pairing satisfies the absolute criteria (C1-C3).
    #[error(
        "no pairing satisfies the absolute criteria (no repeat games, one bye at most, colours)"
    )]
    NoPairing,
    /// A record names a player that does not exist or itself.
    #[error("player {player}, round {round}: the opponent is not a player of the field")]
    BadOpponent {
        /// Pairing number minus one.
        player: usize,
        /// Round (from 1).
        round: usize,
    },
    /// Too many players for one pairing.
    #[error("{0} players are more than the pairing engine takes (at most {MAX_ENTRANTS})")]
    TooLarge(usize),
}

/// The most players one pairing takes: beyond this the weights would need
/// more than 2048 bits.
pub const MAX_ENTRANTS: usize = 2000;

/// Baku acceleration (C.04.5.1) as the endorsed programs apply it: the top
/// half of the field by pairing number (rounded up) gets a win's points in
/// the first half of the accelerated rounds and a draw's in the rest; the
/// accelerated rounds are the first half of the event (rounded up).
/// Returns each player's virtual points per round, by pairing number.
pub fn baku_accelerations(players: usize, total_rounds: usize, points: &Points) -> Vec<Vec<u32>> {
    if players == 0 || total_rounds == 0 {
        return vec![Vec::new(); players];
    }
    let last_rank = (players - 1) / 2;
    let last_round = (total_rounds - 1) / 2;
    let last_full = last_round / 2;
    let top: Vec<u32> = (0..=last_round)
        .map(|r| {
            if r <= last_full {
                points.win
            } else {
                points.draw
            }
        })
        .collect();
    (0..players)
        .map(|rank| {
            if rank <= last_rank {
                top.clone()
            } else {
                Vec::new()
            }
        })
        .collect()
}

/// The boards as the pairing programs print them: the number of boards, then
/// `WHITE BLACK` by start number per board, `0` for the bye.
pub fn listing(boards: &[Board]) -> String {
    let mut out = format!("{}\n", boards.len());
    for b in boards {
        let black = b.black.map_or(0, |k| k + 1);
        out.push_str(&format!("{} {}\n", b.white + 1, black));
    }
    out
}

/// Pairs the next round. Boards come in publication order: by the higher
/// score on the board, then the lower, then the higher player's pairing
/// number; the bye last.
pub fn pair(field: &Field) -> Result<Vec<Board>, DutchError> {
    if field.entrants.len() > MAX_ENTRANTS {
        return Err(DutchError::TooLarge(field.entrants.len()));
    }
    for (i, e) in field.entrants.iter().enumerate() {
        for (r, m) in e.matches.iter().enumerate() {
            if let Some(o) = m.opponent
                && (o >= field.entrants.len() || o == i)
            {
                return Err(DutchError::BadOpponent {
                    player: i,
                    round: r + 1,
                });
            }
        }
    }
    engine::pair(field)
}
