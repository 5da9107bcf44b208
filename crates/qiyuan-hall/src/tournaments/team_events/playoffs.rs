//! Play-offs for team places that may not be shared (H8).
//!
//! When the round robin leaves teams tied on such a place (the title by
//! default), the tied teams play each other again, every board an armageddon
//! game fixed in advance (red 5 minutes, black 4, a draw counts as black's
//! win), so every board has a winner. A play-off match goes to the team with
//! more board wins, or, when the boards split evenly, to the team that won
//! the lowest-numbered board. The tied teams are then ordered by play-off
//! matches won, then boards won; if that still ties, they play another cycle
//! with home and away reversed.

use serde::{Deserialize, Serialize};

use super::{Board, Match, Round};
use qiyuan_events::{GameResult, PlayoffSettings};

/// The play-off clock: armageddon as the individual events default to it.
pub(super) fn clock() -> PlayoffSettings {
    PlayoffSettings::default()
}

/// A play-off among the teams tied for `place`.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(super) struct Playoff {
    /// The place decided.
    pub place: u32,
    /// The tied teams (indices), in table order.
    pub teams: Vec<usize>,
    /// Every play-off round so far.
    pub rounds: Vec<Round>,
    /// The decided order, best first, once decided.
    pub order: Option<Vec<usize>>,
}

/// Armageddon: a drawn board (or one past the time cap) is black's win.
pub(super) fn armageddon(result: GameResult) -> GameResult {
    match result {
        GameResult::Draw | GameResult::TimeCapExceeded => GameResult::BlackWins,
        r => r,
    }
}

fn cycle(teams: &[usize], boards: usize, reversed: bool) -> Vec<Round> {
    qiyuan_events::berger::single(teams.len())
        .into_iter()
        .map(|br| Round {
            matches: br
                .pairs
                .iter()
                .map(|&(h, a)| {
                    let (home, away) = if reversed {
                        (teams[a], teams[h])
                    } else {
                        (teams[h], teams[a])
                    };
                    Match {
                        home,
                        away,
                        boards: (0..boards)
                            .map(|k| Board {
                                home_red: k % 2 == 0,
                                game_id: None,
                                result: None,
                                fouls: (0, 0),
                            })
                            .collect(),
                    }
                })
                .collect(),
            bye: br.bye.map(|b| teams[b]),
        })
        .collect()
}

/// Whether the home team won a board (armageddon counted).
fn home_won(b: &Board) -> Option<bool> {
    let r = armageddon(b.result?);
    Some((r == GameResult::RedWins) == b.home_red)
}

/// The team that won a finished play-off match.
fn winner(m: &Match) -> Option<usize> {
    let wins: Vec<bool> = m.boards.iter().map(home_won).collect::<Option<_>>()?;
    let home = wins.iter().filter(|&&w| w).count();
    let away = wins.len() - home;
    let home_wins = if home != away { home > away } else { wins[0] };
    Some(if home_wins { m.home } else { m.away })
}

impl Playoff {
    /// A play-off among `teams` (each with `boards` players) for `place`.
    pub fn new(place: u32, teams: Vec<usize>, boards: usize) -> Playoff {
        let rounds = cycle(&teams, boards, false);
        Playoff {
            place,
            teams,
            rounds,
            order: None,
        }
    }

    /// Whether every board of every play-off round has a result.
    pub fn complete(&self) -> bool {
        self.rounds.iter().all(|r| {
            r.matches
                .iter()
                .all(|m| m.boards.iter().all(|b| b.result.is_some()))
        })
    }

    /// Once complete: orders the teams, or adds another cycle (home and away
    /// reversed) when the order is not yet strict.
    pub fn decide(&mut self, boards: usize) {
        if !self.complete() || self.order.is_some() {
            return;
        }
        let score = |team: usize| {
            let mut matches = 0;
            let mut won_boards = 0;
            for m in self.rounds.iter().flat_map(|r| &r.matches) {
                if winner(m) == Some(team) {
                    matches += 1;
                }
                for b in &m.boards {
                    if home_won(b) == Some(m.home == team) && (m.home == team || m.away == team) {
                        won_boards += 1;
                    }
                }
            }
            (matches, won_boards)
        };
        let mut order = self.teams.clone();
        order.sort_by_key(|&t| std::cmp::Reverse(score(t)));
        let strict = order.windows(2).all(|w| score(w[0]) != score(w[1]));
        if strict {
            self.order = Some(order);
        } else {
            let per_cycle = qiyuan_events::berger::single(self.teams.len()).len().max(1);
            let reversed = (self.rounds.len() / per_cycle) % 2 == 1;
            let more = cycle(&self.teams, boards, reversed);
            self.rounds.extend(more);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn played(p: &mut Playoff, results: &[GameResult]) {
        let mut it = results.iter();
        for b in p
            .rounds
            .iter_mut()
            .flat_map(|r| &mut r.matches)
            .flat_map(|m| &mut m.boards)
            .filter(|b| b.result.is_none())
        {
            b.result = it.next().copied();
        }
    }

    /// H8: two teams of two; board 1 drawn (black's win under armageddon:
    /// board 1 has the home team on red, so the away team wins it), board 2
    /// won by red (the away team): the away team takes the place.
    #[test]
    fn h8_team_playoff_armageddon_boards() {
        let mut p = Playoff::new(1, vec![0, 1], 2);
        assert_eq!(p.rounds.len(), 1);
        played(&mut p, &[GameResult::Draw, GameResult::RedWins]);
        p.decide(2);
        let m = &p.rounds[0].matches[0];
        assert_eq!(p.order, Some(vec![m.away, m.home]));
    }

    /// H8: boards split 1-1: the team that won board 1 takes the match.
    #[test]
    fn h8_team_playoff_split_boards_go_to_board_one() {
        let mut p = Playoff::new(1, vec![0, 1], 2);
        // Board 1: home has red and wins; board 2: home has black and loses.
        played(&mut p, &[GameResult::RedWins, GameResult::RedWins]);
        p.decide(2);
        let m = &p.rounds[0].matches[0];
        assert_eq!(p.order, Some(vec![m.home, m.away]));
    }

    /// H8: three teams each winning one play-off match with the same boards
    /// tie again, so another cycle is added with home and away reversed.
    #[test]
    fn h8_team_playoff_cycle_repeats_until_strict() {
        let mut p = Playoff::new(1, vec![0, 1, 2], 1);
        assert_eq!(p.rounds.len(), 3);
        // One board per match; make each team win exactly once.
        let mut wins = std::collections::BTreeMap::new();
        for r in &mut p.rounds {
            for m in &mut r.matches {
                let home_wins = *wins.get(&m.home).unwrap_or(&0) == 0;
                let team = if home_wins { m.home } else { m.away };
                *wins.entry(team).or_insert(0) += 1;
                m.boards[0].result = Some(if home_wins == m.boards[0].home_red {
                    GameResult::RedWins
                } else {
                    GameResult::BlackWins
                });
            }
        }
        assert!(wins.values().all(|&w| w == 1), "{wins:?}");
        p.decide(1);
        assert_eq!(p.order, None);
        assert_eq!(p.rounds.len(), 6);
        let first = &p.rounds[0].matches[0];
        let again = &p.rounds[3].matches[0];
        assert_eq!((first.home, first.away), (again.away, again.home));
    }
}
