//! Driving whole events the way the hall does: create, next_round,
//! record_result, standings, status (H3-H9).

use qiyuan_events::event::ByePoints;
use qiyuan_events::{
    Event, EventError, EventSettings, EventStatus, Format, Fouls, GameResult, PairingRef, Player,
    PlayerId, PlayoffKind, Seeding, ThreeStageSettings,
};
use std::collections::{BTreeMap, BTreeSet};

fn field(n: usize) -> Vec<Player> {
    (1..=n)
        .map(|i| Player::new(format!("p{i:02}"), format!("Player {i}")))
        .collect()
}

/// Seed number from an id like `p07`.
fn num(id: &PlayerId) -> usize {
    id.0[1..].parse().unwrap()
}

/// Plays every pending game with `result(red, black)` until the event stops
/// asking for rounds. Returns the number of rounds played.
fn play_out(event: &mut Event, result: impl Fn(usize, usize) -> GameResult) -> usize {
    let mut rounds = 0;
    loop {
        match event.next_round() {
            Ok(_) => rounds += 1,
            Err(EventError::Finished | EventError::PlayoffPending(_)) => return rounds,
            Err(e) => panic!("next_round: {e}"),
        }
        play_pending(event, &result);
    }
}

fn play_pending(event: &mut Event, result: &impl Fn(usize, usize) -> GameResult) {
    while let Some(&at) = event.pending().first() {
        let p = event.pairing(at).unwrap().clone();
        event
            .record_result(at, result(num(&p.red), num(&p.black)), Fouls::NONE)
            .unwrap();
    }
}

/// The lower seed number is stronger and always wins.
fn stronger_wins(red: usize, black: usize) -> GameResult {
    if red < black {
        GameResult::RedWins
    } else {
        GameResult::BlackWins
    }
}

/// A deterministic results function for the round-robin simulation, by seed
/// numbers (i < j): a draw when i + j is a multiple of 4, an upset (j wins)
/// when i * j % 5 == 1, otherwise i wins.
fn sim(i: usize, j: usize) -> f64 {
    let (lo, hi) = (i.min(j), i.max(j));
    let lo_pts = if (lo + hi) % 4 == 0 {
        1.0
    } else if lo * hi % 5 == 1 {
        0.0
    } else {
        2.0
    };
    if i == lo { lo_pts } else { 2.0 - lo_pts }
}

fn sim_result(red: usize, black: usize) -> GameResult {
    match sim(red, black) {
        2.0 => GameResult::RedWins,
        1.0 => GameResult::Draw,
        _ => GameResult::BlackWins,
    }
}

/// H4/H6: a single round robin of 6 run to the end with a deterministic
/// results function; scores, SB, wins and the order are checked against the
/// same function evaluated independently of the event.
#[test]
fn h4_h6_round_robin_of_six_simulated() {
    let format = Format::RoundRobin { cycles: 1 };
    let mut e = Event::create(
        format.clone(),
        EventSettings::defaults_for(&format),
        field(6),
    )
    .unwrap();
    assert_eq!(e.status(), EventStatus::NotStarted);
    assert_eq!(play_out(&mut e, sim_result), 5);
    assert_eq!(e.status(), EventStatus::Finished);
    assert_eq!(e.next_round().unwrap_err(), EventError::Finished);

    let mut met = BTreeSet::new();
    for r in e.rounds() {
        assert_eq!(r.pairings.len(), 3);
        for p in &r.pairings {
            assert!(met.insert((
                num(&p.red).min(num(&p.black)),
                num(&p.red).max(num(&p.black))
            )));
        }
    }
    assert_eq!(met.len(), 15);

    // Independent expectations.
    let score = |i: usize| -> f64 { (1..=6).filter(|&j| j != i).map(|j| sim(i, j)).sum() };
    let sb = |i: usize| -> f64 {
        (1..=6)
            .filter(|&j| j != i)
            .map(|j| match sim(i, j) {
                2.0 => score(j),
                1.0 => score(j) / 2.0,
                _ => 0.0,
            })
            .sum()
    };
    let s = e.standings();
    for row in &s.rows {
        let i = num(&row.player);
        assert_eq!(row.score, score(i), "{i}");
        assert_eq!(row.sonneborn_berger, sb(i), "{i}");
        assert_eq!(row.games, 5);
        assert_eq!(row.name, format!("Player {i}"));
    }
    for w in s.rows.windows(2) {
        let (a, b) = (&w[0], &w[1]);
        assert!(
            a.score > b.score || (a.score == b.score && a.sonneborn_berger >= b.sonneborn_berger)
        );
        assert!(a.rank <= b.rank);
    }
    // Worked out by hand from `sim`: p3 8, p1 7, p2 5, p4 4, p5 3, p6 3.
    // p5 beat p6, but SB comes first: p6 beat p1 (7) and drew p2 (½·5) = 9.5;
    // p5 beat p6 (3) and drew p3 (½·8) = 7.
    let got: Vec<(usize, f64)> = s.rows.iter().map(|r| (num(&r.player), r.score)).collect();
    assert_eq!(
        got,
        vec![(3, 8.0), (1, 7.0), (2, 5.0), (4, 4.0), (6, 3.0), (5, 3.0)]
    );
    assert_eq!(s.rows[4].sonneborn_berger, 9.5);
    assert_eq!(s.rows[5].sonneborn_berger, 7.0);
    assert_eq!(s.rows[0].rank, 1);
    assert!(!s.rows[0].shared);
}

/// H5: a three-stage event with 16 players: 4 groups drawn by lot, knockout
/// inside each group until 2 are left, a round robin of the 8, then a
/// 4-player bracket seeded by the round robin (1 v 4, 2 v 3).
#[test]
fn h5_three_stage_event_of_sixteen() {
    let format = Format::ThreeStage(ThreeStageSettings {
        groups: 4,
        advance_per_group: 2,
        final_bracket_size: 4,
    });
    let mut settings = EventSettings::defaults_for(&format);
    settings.draw_seed = 2024;
    let mut e = Event::create(format, settings, field(16)).unwrap();

    // Stage 1: one knockout round, two games in each group.
    let r1 = e.next_round().unwrap().clone();
    assert_eq!((r1.stage, r1.pairings.len()), (1, 8));
    let mut groups: BTreeMap<u32, Vec<usize>> = BTreeMap::new();
    for p in &r1.pairings {
        groups
            .entry(p.group.unwrap())
            .or_default()
            .extend([num(&p.red), num(&p.black)]);
    }
    assert_eq!(groups.len(), 4);
    assert!(groups.values().all(|g| g.len() == 4));
    let all: BTreeSet<usize> = groups.values().flatten().copied().collect();
    assert_eq!(all.len(), 16, "every player drawn into exactly one group");
    // The draw is by lot, not by seed: the groups are not simply 1-4, 5-8, ...
    assert!(
        groups
            .values()
            .any(|g| g.iter().max().unwrap() - g.iter().min().unwrap() > 3)
    );
    let stage1_winners: BTreeSet<usize> = r1
        .pairings
        .iter()
        .map(|p| num(&p.red).min(num(&p.black)))
        .collect();
    play_pending(&mut e, &stronger_wins);
    assert_eq!(e.status(), EventStatus::RoundComplete);

    // Stage 2: a round robin of the eight winners.
    let r2 = e.next_round().unwrap().clone();
    assert_eq!((r2.stage, r2.pairings.len()), (2, 4));
    let stage2: BTreeSet<usize> = e.stage_field(2).unwrap().iter().map(num).collect();
    assert_eq!(stage2, stage1_winners);
    play_pending(&mut e, &stronger_wins);
    for _ in 1..7 {
        let r = e.next_round().unwrap();
        assert_eq!(r.stage, 2);
        play_pending(&mut e, &stronger_wins);
    }
    let s2 = e.stage_standings(2);
    let order: Vec<usize> = s2.rows.iter().map(|r| num(&r.player)).collect();
    let mut sorted: Vec<usize> = stage2.iter().copied().collect();
    sorted.sort();
    assert_eq!(
        order, sorted,
        "stronger always wins, so stage 2 ranks by strength"
    );
    assert_eq!(s2.rows[0].score, 14.0);

    // Stage 3: the top four, 1st v 4th and 2nd v 3rd.
    let r3 = e.next_round().unwrap().clone();
    assert_eq!(r3.stage, 3);
    // Colours: the player who has had red less often gets it.
    let pairs: Vec<(usize, usize)> = r3
        .pairings
        .iter()
        .map(|p| {
            (
                num(&p.red).min(num(&p.black)),
                num(&p.red).max(num(&p.black)),
            )
        })
        .collect();
    assert_eq!(pairs, vec![(sorted[0], sorted[3]), (sorted[1], sorted[2])]);
    play_pending(&mut e, &stronger_wins);
    let fin = e.next_round().unwrap().clone();
    assert_eq!(fin.pairings.len(), 1);
    play_pending(&mut e, &stronger_wins);
    assert_eq!(e.status(), EventStatus::Finished);
    let s3 = e.standings();
    assert_eq!(num(&s3.rows[0].player), sorted[0]);
    assert_eq!(num(&s3.rows[0].player), 1, "seed 1 never loses");
    assert_eq!(s3.rows[0].rank, 1);
    assert_eq!(s3.rows[1].rank, 2);
    assert!(s3.rows[2].shared && s3.rows[3].shared && s3.rows[2].rank == 3);
    assert_eq!(e.rounds().len(), 1 + 7 + 2);
}

/// H5 with the group winners only (K = 1): groups of 4 play two knockout
/// rounds, so each group's strongest player advances.
#[test]
fn h5_group_winners_advance() {
    let format = Format::ThreeStage(ThreeStageSettings {
        groups: 4,
        advance_per_group: 1,
        final_bracket_size: 2,
    });
    let mut e = Event::create(
        format.clone(),
        EventSettings::defaults_for(&format),
        field(16),
    )
    .unwrap();
    let r1 = e.next_round().unwrap().clone();
    let mut groups: BTreeMap<u32, Vec<usize>> = BTreeMap::new();
    for p in &r1.pairings {
        groups
            .entry(p.group.unwrap())
            .or_default()
            .extend([num(&p.red), num(&p.black)]);
    }
    play_pending(&mut e, &stronger_wins);
    play_out(&mut e, stronger_wins);
    let best: BTreeSet<usize> = groups.values().map(|g| *g.iter().min().unwrap()).collect();
    let stage2: BTreeSet<usize> = e.stage_field(2).unwrap().iter().map(num).collect();
    assert_eq!(stage2, best);
    assert_eq!(e.stage_field(3).unwrap().len(), 2);
    assert_eq!(num(&e.standings().rows[0].player), 1);
}

/// H4: five seeded players: byes to seeds 1-3, seed 4 v seed 5 in round 1.
/// A drawn knockout game adds an armageddon play-off with colours reversed;
/// a drawn armageddon goes to black.
#[test]
fn h4_knockout_byes_and_armageddon_playoff() {
    let format = Format::Knockout {
        seeding: Seeding::Seeded,
    };
    let mut e = Event::create(
        format.clone(),
        EventSettings::defaults_for(&format),
        field(5),
    )
    .unwrap();
    let r1 = e.next_round().unwrap().clone();
    assert_eq!(r1.pairings.len(), 1);
    assert_eq!(
        (num(&r1.pairings[0].red), num(&r1.pairings[0].black)),
        (4, 5)
    );
    let byes: Vec<usize> = r1.byes.iter().map(num).collect();
    assert_eq!(byes, vec![1, 2, 3]);

    let at = PairingRef { round: 1, board: 1 };
    e.set_game_id(at, "g-1").unwrap();
    e.record_game("g-1", GameResult::Draw, Fouls { red: 1, black: 0 })
        .unwrap();
    assert_eq!(e.status(), EventStatus::NeedsPlayoff);
    let needs = e.playoffs_needed();
    assert_eq!(needs.len(), 1);
    assert_eq!(needs[0].settings.kind, PlayoffKind::Armageddon);
    let po = needs[0].pairing.unwrap();
    let p = e.pairing(po).unwrap();
    assert_eq!((num(&p.red), num(&p.black), p.playoff_of), (5, 4, Some(1)));
    assert!(matches!(
        e.next_round(),
        Err(EventError::RoundInProgress(1))
    ));
    // Armageddon drawn: black (seed 4) goes through.
    e.record_result(po, GameResult::Draw, Fouls::NONE).unwrap();
    assert_eq!(e.status(), EventStatus::RoundComplete);
    assert_eq!(e.fouls().get(&PlayerId::from("p04")), Some(&1));

    let r2 = e.next_round().unwrap().clone();
    let pairs: Vec<(usize, usize)> = r2
        .pairings
        .iter()
        .map(|p| (num(&p.red), num(&p.black)))
        .collect();
    assert_eq!(pairs, vec![(1, 4), (2, 3)]);
    play_pending(&mut e, &stronger_wins);
    e.next_round().unwrap();
    play_pending(&mut e, &stronger_wins);
    assert_eq!(e.status(), EventStatus::Finished);
    let s = e.standings();
    let top: Vec<(usize, u32)> = s.rows.iter().map(|r| (num(&r.player), r.rank)).collect();
    assert_eq!(top, vec![(1, 1), (2, 2), (3, 3), (4, 3), (5, 5)]);
    // The play-off game does not count as a game point.
    assert_eq!(s.row(&"p05".into()).unwrap().score, 1.0);
}

/// H4: a blitz play-off that is drawn is followed by another, colours reversed;
/// a time-capped game (X6) is undecided too.
#[test]
fn h4_blitz_playoffs_repeat_until_decided() {
    let format = Format::Knockout {
        seeding: Seeding::Drawn,
    };
    let mut settings = EventSettings::defaults_for(&format);
    settings.playoff.kind = PlayoffKind::Blitz;
    let mut e = Event::create(format, settings, field(2)).unwrap();
    e.next_round().unwrap();
    e.record_result(
        PairingRef { round: 1, board: 1 },
        GameResult::TimeCapExceeded,
        Fouls::NONE,
    )
    .unwrap();
    e.record_result(
        PairingRef { round: 1, board: 2 },
        GameResult::Draw,
        Fouls::NONE,
    )
    .unwrap();
    assert_eq!(e.status(), EventStatus::NeedsPlayoff);
    let third = e
        .pairing(PairingRef { round: 1, board: 3 })
        .unwrap()
        .clone();
    let second = e
        .pairing(PairingRef { round: 1, board: 2 })
        .unwrap()
        .clone();
    assert_eq!(
        (third.red.clone(), third.black.clone()),
        (second.black, second.red)
    );
    e.record_result(
        PairingRef { round: 1, board: 3 },
        GameResult::BlackWins,
        Fouls::NONE,
    )
    .unwrap();
    assert_eq!(e.status(), EventStatus::Finished);
    assert_eq!(e.standings().rows[0].player, third.black);
    assert!(
        e.record_result(
            PairingRef { round: 1, board: 3 },
            GameResult::Draw,
            Fouls::NONE
        )
        .is_err()
    );
}

/// H8: a round robin whose title is tied after all games waits for the
/// play-off; the organiser records its outcome and the place is no longer shared.
#[test]
fn h8_tied_title_needs_a_playoff() {
    let format = Format::RoundRobin { cycles: 2 };
    let mut e = Event::create(
        format.clone(),
        EventSettings::defaults_for(&format),
        field(3),
    )
    .unwrap();
    assert_eq!(play_out(&mut e, |_, _| GameResult::Draw), 6);
    assert_eq!(e.status(), EventStatus::NeedsPlayoff);
    assert_eq!(e.next_round().unwrap_err(), EventError::PlayoffPending(1));
    let need = &e.playoffs_needed()[0];
    assert_eq!(need.place, Some(1));
    assert_eq!(need.players.len(), 3);
    assert_eq!(
        e.resolve_tie(vec!["p01".into(), "p02".into()]),
        Err(EventError::NotATie)
    );
    e.resolve_tie(vec!["p03".into(), "p01".into(), "p02".into()])
        .unwrap();
    assert_eq!(e.status(), EventStatus::Finished);
    let s = e.standings();
    let got: Vec<(usize, u32, bool)> = s
        .rows
        .iter()
        .map(|r| (num(&r.player), r.rank, r.shared))
        .collect();
    assert_eq!(got, vec![(3, 1, false), (1, 2, false), (2, 3, false)]);
    assert!(s.needs_playoff.is_empty());
}

/// Double round robin: every pair meets twice, once with each colour; byes
/// in an odd field score nothing.
#[test]
fn h4_double_round_robin_colours() {
    let format = Format::RoundRobin { cycles: 2 };
    let mut e = Event::create(
        format.clone(),
        EventSettings::defaults_for(&format),
        field(5),
    )
    .unwrap();
    assert_eq!(play_out(&mut e, stronger_wins), 10);
    let mut seen = BTreeSet::new();
    for p in e.rounds().iter().flat_map(|r| &r.pairings) {
        assert!(seen.insert((num(&p.red), num(&p.black))));
    }
    assert_eq!(seen.len(), 20);
    assert_eq!(e.standings().rows[0].score, 16.0);
    assert_eq!(e.standings().rows[4].score, 0.0);
}

/// Swiss through the event: 7 players, 4 rounds: one bye a round, never the
/// same player twice, byes score a win (configurable).
#[test]
fn h4_swiss_event_with_byes() {
    let format = Format::Swiss {
        rounds: 4,
        accelerated: false,
    };
    let mut settings = EventSettings::defaults_for(&format);
    settings.bye_points = ByePoints::Win;
    let mut e = Event::create(format, settings, field(7)).unwrap();
    assert_eq!(play_out(&mut e, stronger_wins), 4);
    let byes: Vec<&PlayerId> = e.rounds().iter().flat_map(|r| &r.byes).collect();
    assert_eq!(byes.len(), 4);
    assert_eq!(byes.iter().collect::<BTreeSet<_>>().len(), 4);
    let s = e.standings();
    assert_eq!(s.tie_breaks[0].chinese(), "对手分");
    assert_eq!(num(&s.rows[0].player), 1);
    let total: f64 = s.rows.iter().map(|r| r.score).sum();
    assert_eq!(
        total,
        4.0 * 3.0 * 2.0 + 4.0 * 2.0,
        "3 games and one bye a round"
    );
}

/// The API shape: status, rounds with pairings {red, black, game_id, result},
/// standings rows with rank, name, score, sonneborn_berger, wins, direct,
/// fouls; and an event survives a JSON round trip mid-way.
#[test]
fn events_serialise_to_the_api_shape() {
    let format = Format::RoundRobin { cycles: 1 };
    let mut e = Event::create(
        format.clone(),
        EventSettings::defaults_for(&format),
        field(4),
    )
    .unwrap();
    e.next_round().unwrap();
    e.set_game_id(PairingRef { round: 1, board: 1 }, "g1")
        .unwrap();
    e.record_result(
        PairingRef { round: 1, board: 1 },
        GameResult::RedWins,
        Fouls::NONE,
    )
    .unwrap();
    let v = serde_json::to_value(&e).unwrap();
    assert_eq!(v["status"], "in_progress");
    let p = &v["rounds"][0]["pairings"][0];
    assert_eq!(p["red"], "p01");
    assert_eq!(p["black"], "p04");
    assert_eq!(p["game_id"], "g1");
    assert_eq!(p["result"], "1-0");
    assert!(v["rounds"][0]["pairings"][1]["result"].is_null());
    assert_eq!(v["format"]["kind"], "round_robin");

    let back: Event = serde_json::from_value(v).unwrap();
    assert_eq!(back, e);
    let mut back = back;
    back.record_result(
        PairingRef { round: 1, board: 2 },
        GameResult::Draw,
        Fouls::NONE,
    )
    .unwrap();
    assert_eq!(back.status(), EventStatus::RoundComplete);

    let s = serde_json::to_value(back.standings()).unwrap();
    let row = &s["rows"][0];
    for key in [
        "rank",
        "name",
        "score",
        "sonneborn_berger",
        "wins",
        "direct",
        "fouls",
    ] {
        assert!(row.get(key).is_some(), "{key}");
    }
    assert_eq!(row["rank"], 1);
    assert_eq!(row["player"], "p01");
}

/// Bad set-ups are refused with a reason.
#[test]
fn invalid_events_are_refused() {
    let rr = Format::RoundRobin { cycles: 3 };
    assert!(matches!(
        Event::create(rr.clone(), EventSettings::defaults_for(&rr), field(4)),
        Err(EventError::InvalidSettings(_))
    ));
    let mut dup = field(3);
    dup[2].id = "p01".into();
    let rr = Format::RoundRobin { cycles: 1 };
    assert_eq!(
        Event::create(rr.clone(), EventSettings::defaults_for(&rr), dup).unwrap_err(),
        EventError::DuplicatePlayer("p01".into())
    );
    let ts = Format::ThreeStage(ThreeStageSettings {
        groups: 4,
        advance_per_group: 3,
        final_bracket_size: 4,
    });
    assert!(Event::create(ts.clone(), EventSettings::defaults_for(&ts), field(16)).is_err());
    let ts = Format::ThreeStage(ThreeStageSettings {
        groups: 4,
        advance_per_group: 2,
        final_bracket_size: 16,
    });
    assert!(Event::create(ts.clone(), EventSettings::defaults_for(&ts), field(16)).is_err());
}
