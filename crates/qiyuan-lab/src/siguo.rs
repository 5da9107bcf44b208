//! Team matches of the four-army Junqi AI (`qiyuan match --variant siguo
//! --engine1 A --engine2 B`): a team of two players A against a team of two
//! players B, in the hidden game (四暗, S9).
//!
//! Players: `random` (uniformly random legal moves), `greedy` (the attack
//! with the best expected clash under the sampled belief, else a random
//! move), `level1` … `level8` (the AI), `tuned:DRAWS,PLIES,NOISE,NODES` (the AI
//! with a candidate setting, measured before it replaces a level). Levels set up with the planned
//! set-ups, the baselines with random legal ones. Games come in pairs from
//! the same set-up seed: team A sits at s+n in even games and e+w in odd
//! ones. A game ends by the rules (a team's both enemy flags taken or armies
//! stuck, 120 quiet plies a draw) or at the ply cap, which counts as a draw.

use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use anyhow::{Result, bail};
use qiyuan_junqi::Side;
use qiyuan_junqi::setup::Setup;
use qiyuan_junqi::siguo::game::{Ending, Game, Mode};
use qiyuan_junqi::siguo::{Position, Rules, ai, four_armies, team_of};

use crate::cli::MatchArgs;

/// A seat's player.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Player {
    /// Uniformly random legal moves.
    Random,
    /// One ply by the expected clash.
    Greedy,
    /// The AI at a level 1-8.
    Level(u8),
    /// The AI with an explicit setting (`tuned:DRAWS,PLIES,NOISE,NODES`),
    /// to measure a candidate against the levels.
    Tuned(ai::Level),
}

impl Player {
    /// `random`, `greedy` or `level1` … `level8`.
    pub fn parse(s: &str) -> Result<Player> {
        Ok(match s {
            "random" => Player::Random,
            "greedy" => Player::Greedy,
            _ if s.starts_with("tuned:") => {
                let parts: Vec<u64> = s["tuned:".len()..]
                    .split(',')
                    .map(|x| x.parse::<u64>())
                    .collect::<Result<_, _>>()
                    .map_err(|e| anyhow::anyhow!("bad tuned player '{s}': {e}"))?;
                let [draws, plies, noise, budget] = parts[..] else {
                    bail!("tuned player needs DRAWS,PLIES,NOISE,NODES: '{s}'");
                };
                if !(1..=64).contains(&draws)
                    || plies > 12
                    || noise > 100_000
                    || budget > 10_000_000
                {
                    bail!("tuned player out of range: '{s}'");
                }
                Player::Tuned(ai::Level {
                    draws: draws as u32,
                    plies: plies as u32,
                    noise: noise as u32,
                    budget,
                })
            }
            _ => match s.strip_prefix("level").and_then(|n| n.parse::<u8>().ok()) {
                Some(l @ 1..=8) => Player::Level(l),
                _ => bail!("unknown siguo player '{s}' (random, greedy, level1 … level8)"),
            },
        })
    }

    fn name(self) -> String {
        match self {
            Player::Random => "random".into(),
            Player::Greedy => "greedy".into(),
            Player::Level(l) => format!("level{l}"),
            Player::Tuned(l) => format!("tuned:{},{},{},{}", l.draws, l.plies, l.noise, l.budget),
        }
    }
}

/// A small generator: xorshift, never seeded with zero.
fn rng(seed: u64) -> impl FnMut(u32) -> u32 {
    let mut s = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    move |n| {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        (s % u64::from(n.max(1))) as u32
    }
}

/// How one game went, from team A's side.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// 1 a win, 0.5 a draw, 0 a loss.
    pub score: f64,
    /// Plies played.
    pub plies: usize,
    /// `flag-taken`, `no-moves`, `quiet-limit` or `ply-cap` (how the last
    /// army went out, or why it was drawn).
    pub end: &'static str,
    /// Team A's moves and seconds spent on them, and the slowest.
    pub a_moves: usize,
    /// Seconds.
    pub a_secs: f64,
    /// Seconds.
    pub a_max: f64,
    /// The last position with every rank (S15).
    pub last: String,
}

/// Plays game `index` of a match from `seed`: team A is team 0 (s+n) in
/// even games and team 1 (e+w) in odd ones; both games of a pair start from
/// the same seat set-ups.
pub fn play(a: Player, b: Player, index: u64, seed: u64, max_plies: usize) -> Outcome {
    let a_team = (index % 2) as u8;
    let mut setups_draw = rng(seed ^ (index / 2).wrapping_mul(0x2545_f491_4f6c_dd1d));
    let player_of = |army: u8| if team_of(army) == a_team { a } else { b };
    let setups: Vec<Setup> = (0..4u8)
        .map(|army| {
            // Draw both kinds for every seat, so a pair's seats keep theirs.
            let planned = ai::setup(8, &mut setups_draw);
            let random = Setup::random(Side::Red, &mut setups_draw);
            match player_of(army) {
                Player::Level(_) | Player::Tuned(_) => planned,
                _ => random,
            }
        })
        .collect();
    let start = Position::from_setups(four_armies(), &setups)
        .unwrap_or_else(|| unreachable!("four set-ups"));
    let mut g = Game::new(start, Rules::default(), Mode::Dark);
    let mut draw = rng(seed ^ index.wrapping_mul(0x9e37_79b9) ^ 0x5eed);
    let (mut a_moves, mut a_secs, mut a_max) = (0, 0.0f64, 0.0f64);
    while g.ending().is_none() && g.plies() < max_plies {
        let me = g.position().turn();
        let player = player_of(me);
        let t = Instant::now();
        let m = match player {
            Player::Random => ai::random_move(&g, me, &mut draw),
            Player::Greedy => ai::greedy(&g, me, &mut draw),
            Player::Level(l) => ai::choose(&g, me, l, &mut draw),
            Player::Tuned(l) => ai::choose_with(&g, me, l, &mut draw),
        };
        if team_of(me) == a_team {
            let s = t.elapsed().as_secs_f64();
            a_moves += 1;
            a_secs += s;
            a_max = a_max.max(s);
        }
        let Some(m) = m else { break };
        if g.play(m).is_err() {
            break;
        }
    }
    let (score, end) = match g.ending() {
        Some(Ending::Won { team, why }) => (if team == a_team { 1.0 } else { 0.0 }, why.word()),
        Some(Ending::QuietLimit) => (0.5, "quiet-limit"),
        None => (0.5, "ply-cap"),
    };
    Outcome {
        score,
        plies: g.plies(),
        end,
        a_moves,
        a_secs,
        a_max,
        last: g.position().to_string(),
    }
}

/// Runs the match and prints its figures.
pub fn match_main(args: &MatchArgs) -> Result<()> {
    let a = Player::parse(&args.engine1)?;
    let b = Player::parse(&args.engine2)?;
    let games = args.games;
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<(usize, Outcome)>> = Mutex::new(Vec::new());
    let started = Instant::now();
    std::thread::scope(|scope| {
        for _ in 0..args.concurrency.max(1) {
            scope.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= games {
                        break;
                    }
                    let o = play(a, b, i as u64, args.seed, args.max_plies);
                    eprintln!(
                        "game {i}: A {} as {} after {} plies ({})",
                        match o.score {
                            s if s > 0.75 => "won",
                            s if s < 0.25 => "lost",
                            _ => "drew",
                        },
                        if i.is_multiple_of(2) { "s+n" } else { "e+w" },
                        o.plies,
                        o.end
                    );
                    if o.score < 0.75 && std::env::var_os("SIGUO_MATCH_VERBOSE").is_some() {
                        eprintln!("game {i} ended at {}", o.last);
                    }
                    results
                        .lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .push((i, o));
                }
            });
        }
    });
    let results = results.into_inner().unwrap_or_else(|e| e.into_inner());
    for line in report(a, b, args, &results, started.elapsed().as_secs_f64()) {
        println!("{line}");
    }
    Ok(())
}

/// The figures of a match.
fn report(
    a: Player,
    b: Player,
    args: &MatchArgs,
    results: &[(usize, Outcome)],
    secs: f64,
) -> Vec<String> {
    let n = results.len();
    let count = |s: f64| results.iter().filter(|(_, o)| o.score == s).count();
    let (w, d, l) = (count(1.0), count(0.5), count(0.0));
    let score: f64 = results.iter().map(|(_, o)| o.score).sum();
    let plies: usize = results.iter().map(|(_, o)| o.plies).sum();
    let ends = |e: &str| results.iter().filter(|(_, o)| o.end == e).count();
    let moves: usize = results.iter().map(|(_, o)| o.a_moves).sum();
    let think: f64 = results.iter().map(|(_, o)| o.a_secs).sum();
    let slowest = results.iter().map(|(_, o)| o.a_max).fold(0.0, f64::max);
    vec![
        format!(
            "siguo: team A {} vs team B {} (seats rotated: A as s+n in even games, e+w in odd; seed {}; ply cap {} counted as a draw)",
            a.name(),
            b.name(),
            args.seed,
            args.max_plies
        ),
        format!("games {n}"),
        format!("team A: wins {w}, draws {d}, losses {l}"),
        format!("score {:.1} %", 100.0 * score / n.max(1) as f64),
        format!("average plies {:.0}", plies as f64 / n.max(1) as f64),
        format!(
            "ends: flag-taken {}, no-moves {}, surrender {}, timeout {}, quiet-limit {}, ply-cap {}",
            ends("flag-taken"),
            ends("no-moves"),
            ends("surrender"),
            ends("timeout"),
            ends("quiet-limit"),
            ends("ply-cap")
        ),
        format!(
            "team A time per move: mean {:.1} ms, slowest {:.0} ms; wall {:.0} s",
            1000.0 * think / moves.max(1) as f64,
            1000.0 * slowest,
            secs
        ),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn players_are_spelt_random_greedy_and_level1_to_8() {
        assert_eq!(Player::parse("random").ok(), Some(Player::Random));
        assert_eq!(Player::parse("greedy").ok(), Some(Player::Greedy));
        assert_eq!(Player::parse("level8").ok(), Some(Player::Level(8)));
        assert!(Player::parse("level9").is_err());
        assert!(Player::parse("8").is_err());
    }

    #[test]
    fn a_tuned_player_names_its_four_settings_within_bounds() {
        let tuned = Player::parse("tuned:16,5,0,320000").ok();
        let want = ai::Level {
            draws: 16,
            plies: 5,
            noise: 0,
            budget: 320_000,
        };
        assert_eq!(tuned, Some(Player::Tuned(want)));
        assert_eq!(
            tuned.map(Player::name).as_deref(),
            Some("tuned:16,5,0,320000")
        );
        for bad in [
            "tuned:16,5,0",
            "tuned:0,5,0,1000",
            "tuned:4,99,0,1000",
            "tuned:a,b,c,d",
        ] {
            assert!(Player::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_pair_of_games_rotates_the_seats_and_ends() {
        let first = play(Player::Greedy, Player::Random, 0, 3, 3000);
        let second = play(Player::Greedy, Player::Random, 1, 3, 3000);
        for o in [&first, &second] {
            assert!(o.plies > 0 && o.end != "ply-cap", "{o:?}");
        }
    }
}
