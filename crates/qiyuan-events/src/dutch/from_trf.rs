//! The field before the next round, read from a tournament file, as the
//! FIDE-endorsed pairing programs read it: the round to pair is the one after
//! the last paired entry; an entry already present for that round (a
//! requested bye, a withdrawal) keeps the player out of it.

use super::{Colour, Entrant, Field, Match, Outcome, Points};
use crate::trf::{self, Line, Trf, TrfResult};

/// Why a file cannot be paired.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum FieldError {
    /// Start numbers must run 1, 2, … without a gap.
    #[error("start number {0} is missing (start numbers must run from 1 without a gap)")]
    MissingStart(u32),
    /// A player's points do not add up from the results.
    #[error("player {start}: the file gives {given} points, the results give {computed}")]
    Points {
        /// Start number.
        start: u32,
        /// The points column, as written.
        given: String,
        /// From the results and the point system.
        computed: String,
    },
    /// Every round is already paired.
    #[error("all {0} rounds are paired (XXR); there is no next round")]
    Finished(usize),
    /// Baku acceleration adds a win's and a draw's points; it needs a point
    /// system where a draw is half a win and a loss nothing.
    #[error("Baku acceleration needs a draw worth half a win and a loss worth nothing")]
    BakuPoints,
    /// An opponent's entry does not name the player back.
    #[error("round {round}: player {start} meets {opponent}, whose entry does not say so")]
    Inconsistent {
        /// Round, from 1.
        round: usize,
        /// Start number.
        start: u32,
        /// The opponent named.
        opponent: u32,
    },
}

fn tenths(v: u32) -> String {
    format!("{}.{}", v / 10, v % 10)
}

fn entry(r: &trf::TrfRound) -> Match {
    use TrfResult as R;
    let outcome = match r.result {
        R::Win | R::ForfeitWin | R::UnratedWin | R::FullBye | R::PairingBye => Outcome::Win,
        R::Draw | R::UnratedDraw | R::HalfBye => Outcome::Draw,
        _ => Outcome::Loss,
    };
    let opponent = r.opponent.map(|o| (o as usize).wrapping_sub(1));
    Match {
        opponent,
        colour: r.colour.map(|c| match c {
            trf::Colour::White => Colour::White,
            trf::Colour::Black => Colour::Black,
        }),
        outcome,
        played: opponent.is_some() && r.result.played(),
        paired: opponent.is_some() || matches!(r.result, R::PairingBye | R::ForfeitWin),
    }
}

impl Field {
    /// The field before the next round of the tournament in `trf`.
    pub fn from_trf(trf: &Trf) -> Result<Field, FieldError> {
        let mut players: Vec<&trf::TrfPlayer> = trf.players.iter().collect();
        players.sort_by_key(|p| p.start);
        for (i, p) in players.iter().enumerate() {
            if p.start as usize != i + 1 {
                return Err(FieldError::MissingStart(i as u32 + 1));
            }
        }
        let n = players.len();
        // The round to pair follows the last paired entry of anyone; a last
        // unpaired entry (a bye asked for in advance) belongs to that round.
        let mut played = 0;
        for p in &players {
            for (k, r) in p.rounds.iter().enumerate() {
                played = played.max(k);
                if entry(r).paired {
                    played = played.max(k + 1);
                }
            }
        }
        let mut entrants: Vec<Entrant> = players
            .iter()
            .map(|p| Entrant {
                matches: p.rounds.iter().map(entry).collect(),
                accelerations: Vec::new(),
            })
            .collect();
        for (i, e) in entrants.iter().enumerate() {
            for (k, m) in e.matches.iter().enumerate().take(played) {
                let Some(o) = m.opponent else { continue };
                let back = entrants
                    .get(o)
                    .and_then(|x| x.matches.get(k))
                    .and_then(|x| x.opponent);
                if back != Some(i) {
                    return Err(FieldError::Inconsistent {
                        round: k + 1,
                        start: i as u32 + 1,
                        opponent: o as u32 + 1,
                    });
                }
            }
        }
        // `240` lines: players announced as not paired in the next round.
        for bye in trf
            .announced_byes
            .iter()
            .filter(|b| b.round as usize == played + 1)
        {
            for &start in &bye.players {
                if let Some(e) = entrants.get_mut((start as usize).wrapping_sub(1))
                    && e.matches.len() <= played
                {
                    e.matches.resize(played, Match::absent());
                    e.matches.push(Match::absent());
                }
            }
        }
        let total = trf.total_rounds.map_or(played + 1, |t| t as usize);
        if played >= total {
            return Err(FieldError::Finished(total));
        }
        let points = Points {
            win: trf.points.win,
            draw: trf.points.draw,
            loss: trf.points.loss,
            zero_bye: trf.points.zero_bye,
            forfeit_loss: trf.points.forfeit_loss,
            pairing_bye: trf.points.pairing_bye,
        };
        let baku = trf.layout.iter().any(|l| {
            matches!(l, Line::Other(text) if text.starts_with("192")
                && text[3..].trim().ends_with("_BAKU"))
        });
        if !trf.accelerations.is_empty() {
            for (start, per_round) in &trf.accelerations {
                if let Some(e) = (*start as usize)
                    .checked_sub(1)
                    .and_then(|i| entrants.get_mut(i))
                {
                    e.accelerations = per_round.clone();
                }
            }
        } else if baku {
            if points.loss != 0 || points.draw * 2 != points.win {
                return Err(FieldError::BakuPoints);
            }
            for (e, a) in entrants
                .iter_mut()
                .zip(super::baku_accelerations(n, total, &points))
            {
                e.accelerations = a;
            }
        }
        // The points column may count the next round's entry and the
        // acceleration too (as the pairing programs accept).
        for (p, e) in players.iter().zip(&entrants) {
            let computed: u32 = e
                .matches
                .iter()
                .take(played)
                .map(|m| points_of(&trf.points, m))
                .sum();
            let next = e
                .matches
                .get(played)
                .map_or(0, |m| points_of(&trf.points, m));
            let acc = e.accelerations.get(played).copied().unwrap_or(0);
            let given = p.points_tenths;
            if ![
                computed,
                computed + next,
                computed + acc,
                computed + next + acc,
            ]
            .contains(&given)
            {
                return Err(FieldError::Points {
                    start: p.start,
                    given: tenths(given),
                    computed: tenths(computed),
                });
            }
        }
        let initial_colour = match trf.initial_colour {
            Some(trf::Colour::White) => Colour::White,
            Some(trf::Colour::Black) => Colour::Black,
            None => inferred_colour(&entrants),
        };
        let forbidden = trf
            .forbidden
            .iter()
            .map(|g| {
                g.iter()
                    .filter(|&&s| s >= 1 && (s as usize) <= n)
                    .map(|&s| s as usize - 1)
                    .collect()
            })
            .collect();
        Ok(Field {
            entrants,
            played_rounds: played,
            total_rounds: total,
            points,
            initial_colour,
            forbidden,
        })
    }
}

fn points_of(p: &trf::PointSystem, m: &Match) -> u32 {
    match m.outcome {
        Outcome::Loss if m.paired && m.played => p.loss,
        Outcome::Loss if m.paired => p.forfeit_loss,
        Outcome::Loss => p.zero_bye,
        Outcome::Win if m.opponent.is_none() && m.paired => p.pairing_bye,
        Outcome::Win => p.win,
        Outcome::Draw => p.draw,
    }
}

/// With no `XXC`, the colour the top player had in the first round with
/// colours (alternating down the ranks when the top player had none); white
/// before any round.
fn inferred_colour(entrants: &[Entrant]) -> Colour {
    let Some(first) = (0..entrants.iter().map(|e| e.matches.len()).max().unwrap_or(0)).find(|&r| {
        entrants
            .iter()
            .any(|e| e.matches.get(r).is_some_and(|m| m.colour.is_some()))
    }) else {
        return Colour::White;
    };
    let mut rank = 0;
    for e in entrants {
        if e.matches.iter().take(first + 1).any(|m| m.paired) {
            if let Some(c) = e.matches.get(first).and_then(|m| m.colour) {
                return if rank % 2 == 1 { c.flip() } else { c };
            }
            rank += 1;
        }
    }
    Colour::White
}
