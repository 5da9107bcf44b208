//! The Dutch pairing (C.04.3) against a FIDE-endorsed program: every round of
//! every tournament in `tests/data/dutch/` was paired by bbpPairings (its
//! random tournament generator pairs each round with its own Dutch engine);
//! ours must pair each round identically, colours included, from the same
//! history. How the files were made: `tests/data/dutch/README.md`.

use qiyuan_events::dutch::{self, Board, Colour, Entrant, Field, Match, Outcome, Points};
use std::collections::BTreeSet;

/// One tournament file as the checker of a pairing program reads it.
struct Tournament {
    players: Vec<Vec<Match>>,
    rounds: usize,
    points: Points,
}

fn tenths(s: &str) -> u32 {
    let s = s.trim();
    let (a, b) = s.split_once('.').unwrap_or((s, "0"));
    a.parse::<u32>().unwrap_or(0) * 10 + b.parse::<u32>().unwrap_or(0)
}

fn read(text: &str) -> Tournament {
    let mut players: Vec<(usize, Vec<Match>)> = Vec::new();
    let mut points = Points::default();
    for line in text.split(['\r', '\n']) {
        if let Some(rest) = line.strip_prefix("162") {
            let chars: Vec<char> = rest.chars().collect();
            let mut i = 2;
            while i + 4 < chars.len() + 1 && i < chars.len() {
                let code = chars[i];
                let value: String = chars[i + 1..(i + 5).min(chars.len())].iter().collect();
                let v = tenths(&value);
                match code {
                    'W' => {
                        points.win = v;
                        points.pairing_bye = v;
                    }
                    'D' => points.draw = v,
                    'L' => points.loss = v,
                    'Z' => {
                        points.zero_bye = v;
                        points.forfeit_loss = v;
                    }
                    'P' => points.pairing_bye = v,
                    _ => {}
                }
                i += 9;
            }
            continue;
        }
        if !line.starts_with("001") {
            continue;
        }
        let id: usize = line[4..8].trim().parse().expect("start number");
        let mut matches = Vec::new();
        let mut at = 91;
        while at + 8 <= line.len() {
            let opp = &line[at..at + 4];
            let colour = match &line[at + 5..at + 6] {
                "w" => Some(Colour::White),
                "b" => Some(Colour::Black),
                _ => None,
            };
            let code = line[at + 7..at + 8].to_ascii_uppercase();
            let opponent = match opp.trim() {
                "" | "0000" => None,
                o => Some(o.parse::<usize>().expect("opponent") - 1),
            };
            let outcome = match code.as_str() {
                "1" | "+" | "W" | "F" | "U" => Outcome::Win,
                "=" | "D" | "H" => Outcome::Draw,
                _ => Outcome::Loss,
            };
            let played =
                opponent.is_some() && matches!(code.as_str(), "1" | "0" | "=" | "W" | "D" | "L");
            let paired = opponent.is_some() || code == "U" || code == "+";
            matches.push(Match {
                opponent,
                colour,
                outcome,
                played,
                paired,
            });
            at += 10;
        }
        players.push((id, matches));
    }
    players.sort_by_key(|p| p.0);
    let rounds = players.iter().map(|p| p.1.len()).max().unwrap_or(0);
    let players = players
        .into_iter()
        .map(|(_, mut m)| {
            m.resize(rounds, Match::absent());
            m
        })
        .collect();
    Tournament {
        players,
        rounds,
        points,
    }
}

/// The colour of the top player in the first round with colours.
fn initial_colour(t: &Tournament) -> Colour {
    let first = (0..t.rounds)
        .find(|&r| t.players.iter().any(|m| m[r].colour.is_some()))
        .unwrap_or(0);
    let mut rank = 0;
    for m in &t.players {
        if m[..=first].iter().any(|x| x.paired) {
            if let Some(c) = m[first].colour {
                return if rank % 2 == 1 { c.flip() } else { c };
            }
            rank += 1;
        }
    }
    Colour::White
}

/// The field before round `r` (from 0), as the checker rebuilds it.
fn field_before(t: &Tournament, r: usize) -> Field {
    let entrants = t
        .players
        .iter()
        .map(|m| {
            let mut matches = m[..r].to_vec();
            if !m[r].paired {
                matches.push(m[r].clone());
            }
            Entrant {
                matches,
                accelerations: Vec::new(),
            }
        })
        .collect();
    Field {
        entrants,
        played_rounds: r,
        total_rounds: t.rounds,
        points: t.points,
        initial_colour: initial_colour(t),
        forbidden: Vec::new(),
    }
}

fn expected(t: &Tournament, r: usize) -> BTreeSet<(usize, Option<usize>)> {
    let mut out = BTreeSet::new();
    for (i, m) in t.players.iter().enumerate() {
        let x = &m[r];
        if !x.paired {
            continue;
        }
        match (x.opponent, x.colour) {
            (None, _) => {
                out.insert((i, None));
            }
            (Some(o), Some(Colour::White)) => {
                out.insert((i, Some(o)));
            }
            (Some(o), None) if i < o => {
                out.insert((i, Some(o)));
            }
            _ => {}
        }
    }
    out
}

fn got(boards: &[Board]) -> BTreeSet<(usize, Option<usize>)> {
    boards.iter().map(|b| (b.white, b.black)).collect()
}

#[test]
fn every_round_of_every_twelfth_tournament_pairs_as_bbp_pairings_does() {
    rounds_pair_as_bbp_pairings_does(12);
}

#[test]
#[ignore = "slow tier"]
fn every_round_pairs_as_bbp_pairings_does() {
    rounds_pair_as_bbp_pairings_does(1);
}

/// Every round of every `step`-th tournament file (sorted by name) pairs as
/// bbpPairings paired it.
fn rounds_pair_as_bbp_pairings_does(step: usize) {
    // DUTCH_FIXTURES points at another directory of files (a larger run).
    let dir = std::env::var("DUTCH_FIXTURES")
        .unwrap_or_else(|_| concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/dutch").to_string());
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .expect("fixtures")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "trf"))
        .collect();
    files.sort();
    assert!(files.len() >= 20, "fixtures missing");
    let (mut rounds, mut wrong) = (0, Vec::new());
    for path in files.iter().step_by(step) {
        let t = read(&std::fs::read_to_string(path).expect("read"));
        for r in 0..t.rounds {
            rounds += 1;
            let field = field_before(&t, r);
            let want = expected(&t, r);
            match dutch::pair(&field) {
                Ok(boards) if got(&boards) == want => {}
                Ok(boards) => wrong.push(format!(
                    "{} round {}: want {:?}\n  got {:?}",
                    path.display(),
                    r + 1,
                    want,
                    got(&boards)
                )),
                Err(e) => wrong.push(format!("{} round {}: {e}", path.display(), r + 1)),
            }
        }
    }
    println!(
        "{} tournaments, {rounds} rounds, {} differ",
        files.len().div_ceil(step),
        wrong.len()
    );
    assert!(
        wrong.is_empty(),
        "{} of {rounds} rounds differ:\n{}",
        wrong.len(),
        wrong.iter().take(5).cloned().collect::<Vec<_>>().join("\n")
    );
}

/// `qiyuan pair`'s listing, byte for byte, against `bbpPairings --dutch FILE
/// -p` on tournament files cut before a round (`tests/data/dutch/pair/`):
/// the history as read from TRF-2026 (XXR, XXC, 162 point systems, requested
/// byes), plain and with Baku acceleration (`192 FIDE_DUTCH_2025_BAKU`).
#[test]
fn tournament_files_pair_as_bbp_pairings_prints_them() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/dutch/pair");
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .expect("fixtures")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "trf"))
        .collect();
    files.sort();
    let baku = files
        .iter()
        .filter(|p| p.to_string_lossy().ends_with("-baku.trf"))
        .count();
    assert!(files.len() >= 100 && baku >= 40, "fixtures missing");
    let mut wrong = Vec::new();
    for path in &files {
        let text = std::fs::read_to_string(path).expect("read");
        let want = std::fs::read_to_string(path.with_extension("out")).expect("expected listing");
        let trf = qiyuan_events::trf::parse(&text).expect("parses");
        let field = Field::from_trf(&trf).expect("a field");
        let got = dutch::listing(&dutch::pair(&field).expect("pairs"));
        if got != want {
            wrong.push(format!("{}:\nwant {want:?}\n got {got:?}", path.display()));
        }
    }
    println!(
        "{} files ({baku} accelerated), {} differ",
        files.len(),
        wrong.len()
    );
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// Baku acceleration (C.04.5.1 as the endorsed programs apply it) on a field
/// of ten over nine rounds: the top five get a win's points in rounds 1-3
/// and a draw's in rounds 4-5, nobody else anything.
#[test]
fn baku_virtual_points() {
    let acc = dutch::baku_accelerations(10, 9, &Points::default());
    assert_eq!(acc[0], vec![10, 10, 10, 5, 5]);
    assert_eq!(acc[4], vec![10, 10, 10, 5, 5]);
    assert!(acc[5].is_empty() && acc[9].is_empty());
}

mod arbitrary {
    use super::*;
    use proptest::prelude::*;

    fn any_match(n: usize) -> impl Strategy<Value = Match> {
        (
            proptest::option::of(0..n + 2),
            proptest::option::of(prop_oneof![Just(Colour::White), Just(Colour::Black)]),
            prop_oneof![Just(Outcome::Win), Just(Outcome::Draw), Just(Outcome::Loss)],
            any::<bool>(),
            any::<bool>(),
        )
            .prop_map(|(opponent, colour, outcome, played, paired)| Match {
                opponent,
                colour,
                outcome,
                played,
                paired,
            })
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 200, .. ProptestConfig::default() })]

        /// Any field, however inconsistent its histories, pairs or is refused
        /// with an error: the engine never panics.
        #[test]
        fn any_field_pairs_or_is_refused(
            n in 0usize..14,
            rounds in 0usize..5,
            seed in proptest::collection::vec(any_match(14), 0..80),
            accel in proptest::collection::vec(0u32..30, 0..6),
            total in 0usize..8,
        ) {
            let mut it = seed.into_iter().cycle();
            let entrants = (0..n)
                .map(|i| Entrant {
                    // Mostly real opponents (another player), now and then none.
                    matches: (0..(rounds + i % 2))
                        .filter_map(|_| it.next())
                        .map(|mut m| {
                            m.opponent = m.opponent.map(|o| (i + 1 + o % n.max(2).saturating_sub(1)) % n.max(1));
                            m
                        })
                        .collect(),
                    accelerations: if i % 3 == 0 { accel.clone() } else { Vec::new() },
                })
                .collect();
            let field = Field {
                entrants,
                played_rounds: rounds,
                total_rounds: total,
                points: Points::default(),
                initial_colour: Colour::White,
                forbidden: vec![vec![0, 1, 20]],
            };
            if let Ok(boards) = dutch::pair(&field) {
                let mut seen = std::collections::BTreeSet::new();
                for b in &boards {
                    prop_assert!(seen.insert(b.white));
                    if let Some(k) = b.black {
                        prop_assert!(seen.insert(k));
                    }
                }
            }
        }
    }
}
