//! TRF files (issue 19): the round trip on files bbpPairings generated
//! (tests/data/trf, made with `bbpPairings.exe --dutch -g CONFIG -o FILE -s
//! SEED`, varied: byes, forfeits, draws, retirements, 3-1-0 and other point
//! systems; the two `ext-*` files are generated ones with TRF-2026 lines
//! added by hand: XXR, XXC, BBW/BBD, XXA, XXP, 240, a 022 line, CRLF),
//! qiyuan's own export, and — where the reference program is on this
//! machine — that bbpPairings reads qiyuan's files and finds the pairings
//! right (`-c`).

use qiyuan_events::trf::{self, Colour, Trf, TrfResult};
use qiyuan_events::{Event, EventSettings, Format, GameResult, Player, TieBreak};
use std::path::{Path, PathBuf};

fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/trf")
}

fn fixtures() -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = std::fs::read_dir(data_dir())
        .expect("tests/data/trf exists")
        .filter_map(|e| {
            let path = e.ok()?.path();
            (path.extension()? == "trf").then(|| {
                (
                    path.file_name().unwrap().to_string_lossy().into_owned(),
                    std::fs::read_to_string(&path).expect("fixture is UTF-8"),
                )
            })
        })
        .collect();
    out.sort();
    out
}

#[test]
fn bbp_generated_files_round_trip_byte_for_byte() {
    let files = fixtures();
    assert!(files.len() >= 10, "expected the committed fixtures");
    for (name, text) in &files {
        let t = trf::parse(text).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(t.to_trf(), *text, "{name}: round trip");
        // Every player line is written from its fields, not kept as read.
        for p in &t.players {
            assert!(
                p.verbatim.is_none(),
                "{name}: player {} kept verbatim",
                p.start
            );
        }
        assert!(
            t.score_mismatches().is_empty(),
            "{name}: {:?}",
            t.score_mismatches()
        );
        // A second trip changes nothing either.
        assert_eq!(trf::parse(&t.to_trf()).unwrap(), t, "{name}");
    }
}

#[test]
fn line_endings_are_kept() {
    let (_, text) = &fixtures()[0];
    assert!(
        text.contains('\r') && !text.contains('\n'),
        "bbpPairings writes bare CR"
    );
    for eol in ["\n", "\r\n"] {
        let other = text.replace('\r', eol);
        let t = trf::parse(&other).unwrap();
        assert_eq!(t.to_trf(), other);
    }
}

#[test]
fn codes_read_from_the_fixtures() {
    let all: Vec<Trf> = fixtures()
        .iter()
        .map(|(_, t)| trf::parse(t).unwrap())
        .collect();
    let seen = |r: TrfResult| {
        all.iter()
            .flat_map(|t| &t.players)
            .flat_map(|p| &p.rounds)
            .any(|x| x.result == r)
    };
    for r in [
        TrfResult::Win,
        TrfResult::Draw,
        TrfResult::Loss,
        TrfResult::ForfeitWin,
        TrfResult::ForfeitLoss,
        TrfResult::HalfBye,
        TrfResult::PairingBye,
        TrfResult::ZeroBye,
    ] {
        assert!(seen(r), "no fixture has {r:?}");
    }
    let three = all
        .iter()
        .find(|t| t.points.win == 30)
        .expect("a 3-1-0 file");
    assert_eq!((three.points.draw, three.points.pairing_bye), (10, 30));
    let pab = all
        .iter()
        .find(|t| t.points.pairing_bye == 5)
        .expect("a ½-point PAB file");
    assert_eq!(pab.points.win, 10);
    // The two hand-extended files (bbpPairings files with TRF-2026 lines
    // added; bbpPairings still checks them clean).
    let ext = |name: &str| {
        let (_, text) = fixtures().into_iter().find(|(n, _)| n == name).unwrap();
        trf::parse(&text).unwrap()
    };
    let a = ext("ext-2026-lines-10x6.trf");
    assert_eq!(a.total_rounds, Some(6));
    assert_eq!(a.initial_colour, Some(Colour::White));
    assert_eq!(
        (a.points.win, a.points.draw, a.points.pairing_bye),
        (30, 10, 30)
    );
    let b = ext("ext-crlf-acc-21x9.trf");
    assert_eq!(b.line_ending, trf::LineEnding::CrLf);
    assert_eq!(b.total_rounds, Some(9));
    assert_eq!(b.accelerations, vec![(1, vec![0, 0]), (2, vec![0])]);
    assert_eq!(b.forbidden, vec![vec![1, 4], vec![1, 5]]);
    assert_eq!(b.announced_byes.len(), 1);
    assert_eq!(
        (b.announced_byes[0].round, &b.announced_byes[0].players),
        (9, &vec![21])
    );
}

#[test]
fn truncated_keeps_earlier_rounds_and_recounts_points() {
    for (name, text) in fixtures() {
        let t = trf::parse(&text).unwrap();
        let n = t.played_rounds();
        assert_eq!(
            t.truncated(n)
                .players
                .iter()
                .map(|p| p.points_tenths)
                .collect::<Vec<_>>(),
            t.players
                .iter()
                .map(|p| p.points_tenths)
                .collect::<Vec<_>>(),
            "{name}"
        );
        let half = t.truncated(n / 2);
        assert!(half.played_rounds() <= n / 2, "{name}");
        let again = trf::parse(&half.to_trf()).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(again.score_mismatches().is_empty(), "{name}");
        assert_eq!(again.players, half.players, "{name}");
    }
}

#[test]
fn a_changed_header_value_is_written_afresh() {
    let (_, text) = &fixtures()[0];
    let mut t = trf::parse(text).unwrap();
    t.total_rounds = Some(11);
    t.initial_colour = Some(Colour::Black);
    t.points.win = 30;
    t.points.draw = 10;
    t.points.pairing_bye = 30;
    t.forbidden.push(vec![1, 2]);
    t.accelerations.push((3, vec![10, 5]));
    let out = trf::parse(&t.to_trf()).unwrap();
    assert_eq!(out.total_rounds, Some(11));
    assert_eq!(out.initial_colour, Some(Colour::Black));
    assert_eq!(
        (out.points.win, out.points.draw, out.points.pairing_bye),
        (30, 10, 30)
    );
    assert_eq!(out.forbidden, vec![vec![1, 2]]);
    assert_eq!(out.accelerations, vec![(3, vec![10, 5])]);
    let s = t.to_trf();
    assert!(
        s.contains("\rXXR 11\r")
            && s.contains("\rBBW  3.0\r")
            && s.contains("\rXXA    3  1.0  0.5"),
        "{s:?}"
    );
}

#[test]
fn standings_from_a_trf_match_its_points() {
    for (name, text) in fixtures() {
        let t = trf::parse(&text).unwrap();
        let s = trf::trf_standings(&t, &[TieBreak::BuchholzCut1, TieBreak::FideSonnebornBerger]);
        for p in &t.players {
            let row = s.row(&p.start.to_string().into()).unwrap();
            assert_eq!(
                (row.score * 10.0).round() as u32,
                p.points_tenths,
                "{name} {}",
                p.start
            );
            assert_eq!(row.fide.len(), 2);
        }
    }
}

/// A 12-player, 5-round Swiss of qiyuan's (its own pairing), every result
/// kind the model has: wins, losses, draws, a time-capped game, byes.
fn swiss_event() -> Event {
    let players: Vec<Player> = (1..=11)
        .map(|i| Player::new(format!("u:{i}"), format!("Player {i}")))
        .collect();
    let format = Format::Swiss {
        rounds: 5,
        accelerated: false,
    };
    let mut settings = EventSettings::defaults_for(&format);
    settings.scoring = qiyuan_events::ScoringSystem::OneHalfZero;
    let mut e = Event::create(format, settings, players).unwrap();
    for round in 1..=5u32 {
        let pairings: Vec<_> = e
            .next_round()
            .unwrap()
            .pairings
            .iter()
            .map(|p| p.board)
            .collect();
        for board in pairings {
            let result = match (round + board) % 5 {
                0 => GameResult::Draw,
                1 if round == 3 && board == 1 => GameResult::TimeCapExceeded,
                1 | 2 => GameResult::BlackWins,
                _ => GameResult::RedWins,
            };
            e.record_result(
                qiyuan_events::PairingRef { round, board },
                result,
                qiyuan_events::Fouls::NONE,
            )
            .unwrap();
        }
    }
    e
}

#[test]
fn an_exported_event_round_trips_and_agrees_with_the_standings() {
    let e = swiss_event();
    let t = trf::event_to_trf(&e, "Test Swiss");
    let text = t.to_trf();
    let back = trf::parse(&text).unwrap();
    assert_eq!(back.to_trf(), text);
    assert!(back.players.iter().all(|p| p.verbatim.is_none()));
    assert!(back.score_mismatches().is_empty());
    assert_eq!(back.total_rounds, Some(5));
    assert_eq!(back.played_rounds(), 5);
    let table = e.standings();
    for row in &table.rows {
        let start = e.players().iter().position(|p| p.id == row.player).unwrap() as u32 + 1;
        let p = back.player(start).unwrap();
        assert_eq!(p.points_tenths, (row.score * 10.0).round() as u32);
    }
    // 11 players: a pairing-allocated bye every round.
    let byes = back
        .players
        .iter()
        .flat_map(|p| &p.rounds)
        .filter(|r| r.result == TrfResult::PairingBye)
        .count();
    assert_eq!(byes, 5);
}

/// The reference program, where this machine has it.
fn bbp() -> Option<PathBuf> {
    let path = std::env::var_os("BBP_PAIRINGS")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("/work/scratch/bbp/bbpPairings.exe"));
    if path.exists() {
        Some(path)
    } else {
        println!("note: bbpPairings not found (set BBP_PAIRINGS); skipping the check");
        None
    }
}

/// Runs `bbpPairings --dutch FILE -c`; returns (success, stdout + stderr).
fn bbp_check(bbp: &Path, text: &str, name: &str) -> (bool, String) {
    let dir = std::env::temp_dir().join(format!("qiyuan-trf-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join(format!("{name}.trf"));
    std::fs::write(&file, text).unwrap();
    let out = std::process::Command::new(bbp)
        .arg("--dutch")
        .arg(&file)
        .arg("-c")
        .output()
        .expect("bbpPairings runs");
    let log = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.success(), log)
}

/// What `-c` prints when a round's pairings differ from its own.
fn discrepancy(log: &str) -> bool {
    log.contains("Checker pairings") || log.contains("No valid pairing")
}

#[test]
fn bbp_reads_files_qiyuan_writes() {
    let Some(bbp) = bbp() else { return };
    // A fixture re-written by qiyuan after a change of header values (a
    // file bbpPairings paired, so its pairings check clean).
    for (name, text) in fixtures() {
        let mut t = trf::parse(&text).unwrap();
        t.total_rounds = Some(t.played_rounds() as u32 + 2);
        let mut t = t.truncated(t.played_rounds());
        t.line_ending = trf::LineEnding::Lf;
        let (ok, log) = bbp_check(&bbp, &t.to_trf(), &name);
        assert!(ok && !discrepancy(&log), "{name}: {log}");
        // Earlier rounds only: still clean.
        let (ok, log) = bbp_check(&bbp, &t.truncated(2).to_trf(), &format!("{name}-2"));
        assert!(ok && !discrepancy(&log), "{name} after 2 rounds: {log}");
    }
    // qiyuan's own Swiss event (paired by its Dutch engine, a time-capped
    // game and a bye every round included): bbpPairings reads it, the
    // scores agree, and its pairings are bbpPairings' own (`-c` clean).
    let t = trf::event_to_trf(&swiss_event(), "Test Swiss");
    let (ok, log) = bbp_check(&bbp, &t.to_trf(), "qiyuan-swiss");
    assert!(ok && !log.contains("Error") && !discrepancy(&log), "{log}");
}

/// Knockout and three-stage events export too: players out of the bracket
/// are absent (blank) afterwards, byes are `U` worth nothing, play-off
/// games are left out.
#[test]
fn other_formats_export_and_read_back() {
    use qiyuan_events::{EventStatus, Fouls, Seeding, ThreeStageSettings};
    let formats = [
        Format::Knockout {
            seeding: Seeding::Seeded,
        },
        Format::RoundRobin { cycles: 2 },
        Format::ThreeStage(ThreeStageSettings {
            groups: 2,
            advance_per_group: 2,
            final_bracket_size: 2,
        }),
    ];
    for format in formats {
        let players: Vec<Player> = (1..=7)
            .map(|i| Player::new(format!("u:{i}"), format!("P{i}")))
            .collect();
        let settings = EventSettings::defaults_for(&format);
        let mut e = Event::create(format.clone(), settings, players).unwrap();
        let mut k = 0u32;
        while e.status() != EventStatus::Finished {
            if matches!(
                e.status(),
                EventStatus::NotStarted | EventStatus::RoundComplete
            ) {
                e.next_round().unwrap();
            }
            let pending = e.pending();
            if pending.is_empty() {
                // An unshareable tie: settle it in seeding order.
                let need = e.playoffs_needed();
                let tie = need.iter().find(|n| n.place.is_some()).expect("a tie");
                e.resolve_tie(tie.players.clone()).unwrap();
                continue;
            }
            for at in pending {
                k += 1;
                let result = if k.is_multiple_of(3) {
                    GameResult::BlackWins
                } else {
                    GameResult::RedWins
                };
                e.record_result(at, result, Fouls::NONE).unwrap();
            }
        }
        let text = trf::event_to_trf(&e, "Cup").to_trf();
        let back = trf::parse(&text).unwrap_or_else(|err| panic!("{format:?}: {err}\n{text}"));
        assert_eq!(back.to_trf(), text, "{format:?}");
        assert!(back.score_mismatches().is_empty(), "{format:?}");
        assert_eq!(back.played_rounds(), e.rounds().len(), "{format:?}");
        if let Some(bbp) = bbp() {
            let (_, log) = bbp_check(&bbp, &text, "qiyuan-other");
            assert!(!log.contains("Error"), "{format:?}: {log}");
        }
    }
}

/// A bbpPairings tournament replayed as a qiyuan event (its pairings put in
/// the event's stored form), then exported: the export has the same rounds
/// and points as the original, and bbpPairings checks it clean. This is the
/// check a Dutch-paired qiyuan event will pass once the engine pairs events.
#[test]
fn a_dutch_paired_event_exports_a_file_that_checks_clean() {
    let mut replayed = 0;
    for (name, text) in fixtures() {
        let t = trf::parse(&text).unwrap();
        let simple = t.points == trf::PointSystem::default()
            && t.players.iter().flat_map(|p| &p.rounds).all(|r| {
                matches!(
                    r.result,
                    TrfResult::Win | TrfResult::Draw | TrfResult::Loss | TrfResult::PairingBye
                )
            });
        if !simple {
            continue;
        }
        let n = t.played_rounds();
        let players: Vec<Player> = t
            .players
            .iter()
            .map(|p| Player::new(format!("p{}", p.start), p.name.clone()))
            .collect();
        let format = Format::Swiss {
            rounds: n as u32,
            accelerated: false,
        };
        let mut settings = EventSettings::defaults_for(&format);
        settings.scoring = qiyuan_events::ScoringSystem::OneHalfZero;
        let e = Event::create(format, settings, players).unwrap();
        let mut json = serde_json::to_value(&e).unwrap();
        let rounds: Vec<serde_json::Value> = (0..n)
            .map(|k| {
                let mut pairings = Vec::new();
                let mut byes = Vec::new();
                for p in &t.players {
                    let r = &p.rounds[k];
                    match (r.opponent, r.colour) {
                        (Some(o), Some(Colour::White)) => {
                            let result = match r.result {
                                TrfResult::Win => "1-0",
                                TrfResult::Loss => "0-1",
                                _ => "1/2-1/2",
                            };
                            pairings.push(serde_json::json!({
                                "board": pairings.len() + 1,
                                "red": format!("p{}", p.start), "black": format!("p{o}"),
                                "game_id": null, "result": result,
                                "fouls": {"red": 0, "black": 0}, "group": null, "playoff_of": null,
                            }));
                        }
                        (None, _) => byes.push(format!("p{}", p.start)),
                        _ => {}
                    }
                }
                serde_json::json!({"number": k + 1, "stage": 1, "kind": "swiss",
                    "pairings": pairings, "byes": byes})
            })
            .collect();
        json["rounds"] = rounds.into();
        json["plan"] = serde_json::json!({"kind": "swiss", "total": n, "played": n});
        json["status"] = "finished".into();
        let e: Event = serde_json::from_value(json).unwrap();
        let out = trf::event_to_trf(&e, &name);
        for (a, b) in out.players.iter().zip(&t.players) {
            assert_eq!(a.rounds, b.rounds, "{name}: player {}", a.start);
            assert_eq!(
                a.points_tenths, b.points_tenths,
                "{name}: player {}",
                a.start
            );
        }
        if let Some(bbp) = bbp() {
            let (ok, log) = bbp_check(&bbp, &out.to_trf(), &format!("replayed-{name}"));
            assert!(ok && !discrepancy(&log), "{name}: {log}");
        }
        replayed += 1;
    }
    assert!(replayed >= 5, "only {replayed} fixtures replayed");
}
