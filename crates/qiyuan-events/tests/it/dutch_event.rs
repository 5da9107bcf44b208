//! A 100-player, 9-round Swiss event paired by the Dutch engine with random
//! results (wins, losses, draws, a game past the time cap): every round is
//! complete and repeat-free, the exported tournament file re-pairs to the
//! same boards and colours round by round, and — where the reference program
//! is on this machine — bbpPairings' checker (`-c`) finds no discrepancy.

use qiyuan_events::dutch::{self, Entrant, Field, Match};
use qiyuan_events::trf::{self, Trf};
use qiyuan_events::{
    Event, EventSettings, Format, Fouls, GameResult, PairingRef, Player, ScoringSystem,
};
use std::collections::BTreeSet;

fn play(players: usize, rounds: u32, seed: u64) -> Event {
    let field: Vec<Player> = (1..=players)
        .map(|i| Player::new(format!("u:{i}"), format!("Player {i}")))
        .collect();
    let format = Format::Swiss {
        rounds,
        accelerated: false,
    };
    let mut settings = EventSettings::defaults_for(&format);
    settings.scoring = ScoringSystem::OneHalfZero;
    let mut e = Event::create(format, settings, field).expect("event");
    let mut rng = seed;
    let mut met = BTreeSet::new();
    for round in 1..=rounds {
        let r = e.next_round().expect("a pairing");
        assert_eq!(r.pairings.len(), players / 2, "round {round}");
        assert_eq!(r.byes.len(), players % 2);
        let boards: Vec<(u32, String, String)> = r
            .pairings
            .iter()
            .map(|p| (p.board, p.red.0.clone(), p.black.0.clone()))
            .collect();
        for (board, red, black) in boards {
            assert!(
                met.insert((red.clone().min(black.clone()), red.max(black))),
                "a repeat"
            );
            rng = rng
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let result = match (rng >> 33) % 100 {
                0 => GameResult::TimeCapExceeded,
                1..=30 => GameResult::Draw,
                31..=68 => GameResult::RedWins,
                _ => GameResult::BlackWins,
            };
            e.record_result(PairingRef { round, board }, result, Fouls::NONE)
                .expect("result");
        }
    }
    e
}

/// The field before round `r` as the checker of a pairing program rebuilds
/// it from the file: earlier rounds, plus that round's unpaired entries.
fn before(t: &Trf, full: &Field, r: usize) -> Field {
    let mut f = full.clone();
    for e in &mut f.entrants {
        let kept: Vec<Match> = e.matches[..r].to_vec();
        let unpaired = e.matches.get(r).filter(|m| !m.paired).cloned();
        *e = Entrant {
            matches: kept.into_iter().chain(unpaired).collect(),
            accelerations: e.accelerations.clone(),
        };
    }
    f.played_rounds = r;
    f.total_rounds = t.total_rounds.unwrap_or(0) as usize;
    f
}

#[test]
fn thirty_players_over_five_rounds() {
    exported_event_pairs_again(30, 5);
}

#[test]
#[ignore = "slow tier"]
fn a_hundred_players_over_nine_rounds() {
    exported_event_pairs_again(100, 9);
}

/// A Swiss event of `players` over `rounds`, exported to TRF and read back:
/// each round pairs again as it was paired (and bbpPairings' checker, when
/// `BBP_PAIRINGS` names it, finds no discrepancy).
fn exported_event_pairs_again(players: usize, rounds: u32) {
    let e = play(players, rounds, 19);
    let text = trf::event_to_trf(&e, "Hundred").to_trf();
    let t = trf::parse(&text).expect("the export parses");
    // The whole file read as a field: every round's entries.
    let mut full = t.clone();
    full.total_rounds = Some(rounds + 1);
    let full = Field::from_trf(&full).expect("field");
    for r in 0..rounds as usize {
        let boards = dutch::pair(&before(&t, &full, r)).expect("pairs");
        for b in &boards {
            let m = &full.entrants[b.white].matches[r];
            assert_eq!(m.opponent, b.black, "round {}: board {b:?}", r + 1);
            if b.black.is_some() {
                assert_eq!(m.colour, Some(dutch::Colour::White), "round {}", r + 1);
            }
        }
    }
    if let Some(bbp) = bbp() {
        let file = std::env::temp_dir().join(format!("qiyuan-swiss-{}.trf", std::process::id()));
        std::fs::write(&file, &text).expect("write");
        let out = std::process::Command::new(bbp)
            .arg("--dutch")
            .arg(&file)
            .arg("-c")
            .output()
            .expect("bbpPairings runs");
        let _ = std::fs::remove_file(&file);
        let log = String::from_utf8_lossy(&out.stdout).into_owned()
            + &String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{log}");
        assert!(
            !log.contains("Checker pairings") && !log.contains("No valid pairing"),
            "{log}"
        );
        println!("bbpPairings -c: no discrepancy in {rounds} rounds");
    }
}

fn bbp() -> Option<std::path::PathBuf> {
    let path = std::env::var_os("BBP_PAIRINGS")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| "/work/scratch/bbp/bbpPairings.exe".into());
    path.exists().then_some(path).or_else(|| {
        println!("note: bbpPairings not found (set BBP_PAIRINGS); its check is skipped");
        None
    })
}
