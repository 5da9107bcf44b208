use super::*;
use crate::{Event, EventSettings, Format, Fouls, GameResult, PairingRef, Player};
use proptest::prelude::*;

/// A round robin of three (a bye each round), 2/1/0, one rating set.
fn small_event() -> Event {
    let players = vec![
        Player::new("u:1", "Wang Tianyi"),
        Player::new("u:2", "Zhao Xinxin"),
        Player::new("ai:5", "AI level 5"),
    ];
    let format = Format::RoundRobin { cycles: 1 };
    let settings = EventSettings::defaults_for(&format);
    let mut e = Event::create(format, settings, players).unwrap();
    e.set_rating(&"u:1".into(), 2105);
    let results = [GameResult::RedWins, GameResult::Draw, GameResult::BlackWins];
    for result in results {
        let round = e.next_round().unwrap().number;
        e.record_result(PairingRef { round, board: 1 }, result, Fouls::NONE)
            .unwrap();
    }
    e
}

#[test]
fn a_small_event_exports_to_this_exact_text() {
    // Round 1: 2 (red) beats 3, 1 has the bye; round 2: 1 and 2 draw;
    // round 3: 1 (black) beats 3. 2/1/0, so BBW/BBD; round-robin byes score
    // nothing (BBU 0.0). Player 1 had the bye in round 1: no XXC.
    let text = event_to_trf(&small_event(), "Spring cup").to_trf();
    let expected = "012 Spring cup
001    1      Wang Tianyi                       2105                             3.0    1  0000 - U     2 w =     3 b 1
001    2      Zhao Xinxin                                                        3.0    2     3 w 1     1 b =  0000 - U
001    3      AI level 5                                                         0.0    3     2 b 0  0000 - U     1 w 0
XXR 3
BBW  2.0
BBD  1.0
BBU  0.0
";
    assert_eq!(text, expected);
    let back = parse(&text).unwrap();
    assert_eq!(back.to_trf(), text);
    assert!(back.score_mismatches().is_empty());
}

fn line(start: u32, rounds: &str) -> String {
    let p = TrfPlayer {
        start,
        name: format!("P{start}"),
        points_tenths: 0,
        rank: start,
        ..TrfPlayer::default()
    };
    format!("{}{rounds}", write::player_line(&p))
}

#[test]
fn malformed_files_are_refused_with_line_column_and_field() {
    let cases: Vec<(String, usize, usize, &str)> = vec![
        ("001    1      short".to_string(), 1, 20, "points"),
        (format!("012 x\n{}", line(0, "")), 2, 5, "start number"),
        (
            format!("{}\n{}", line(1, "     2 w 1"), line(2, "     1 w 0")),
            1,
            92,
            "round opponent",
        ),
        (line(1, "     2 x 1"), 1, 97, "round colour"),
        (line(1, "     2 w ?"), 1, 99, "round result"),
        (line(1, "     1 w 1"), 1, 92, "round opponent"),
        (line(1, "     7 w 1"), 1, 92, "round opponent"),
        (line(1, "     2 - U"), 1, 99, "round result"),
        (line(1, "  0000 w 1"), 1, 97, "round colour"),
        ("XXR 0".to_string(), 1, 4, "total rounds"),
        ("XXR 100".to_string(), 1, 4, "total rounds"),
        ("BBW x".to_string(), 1, 5, "points for a win"),
        ("162  Q 1.0".to_string(), 1, 6, "point system"),
        ("XXP 1 two".to_string(), 1, 4, "forbidden pair"),
        (
            format!("{}\n{}", line(1, ""), line(1, "")),
            2,
            5,
            "start number",
        ),
    ];
    for (text, l, c, field) in cases {
        let e = parse(&text).expect_err(&text);
        assert_eq!((e.line, e.column, e.field), (l, c, field), "{text:?}: {e}");
        assert!(
            e.to_string()
                .starts_with(&format!("line {l}, column {c} ({field}): "))
        );
    }
}

#[test]
fn inputs_are_bounded() {
    let big = " ".repeat(MAX_FILE_BYTES + 1);
    assert_eq!(parse(&big).unwrap_err().field, "file");
    let long = format!("012 {}", "x".repeat(MAX_LINE_CHARS));
    assert_eq!(parse(&long).unwrap_err().field, "line");
    let rounds = "  0000 - Z".repeat(100);
    let e = parse(&line(1, &rounds)).unwrap_err();
    assert_eq!(e.field, "rounds");
    assert!(parse(&line(1, &"  0000 - Z".repeat(99))).is_ok());
    assert_eq!(parse("001 10000").unwrap_err().field, "points");
}

#[test]
fn a_file_at_the_limits_reads_and_writes() {
    // 9999 players, 99 rounds: every entry a zero-point bye.
    let rounds = "  0000 - Z".repeat(99);
    let mut text = String::new();
    for s in 1..=MAX_PLAYERS {
        text.push_str(&line(s, &rounds));
        text.push('\n');
    }
    assert!(text.len() < MAX_FILE_BYTES);
    let t = parse(&text).unwrap();
    assert_eq!(t.players.len(), 9999);
    assert_eq!(t.played_rounds(), 99);
    assert_eq!(t.to_trf(), text);
    let mut over = text.clone();
    over.push_str(&line(1, ""));
    assert_eq!(parse(&over).unwrap_err().field, "start number");
}

#[test]
fn points_follow_the_point_system() {
    let text = format!(
        "{}\n{}\nBBW  3.0\nBBD  1.0\nBBU  2.0\nBBZ  0.5\n",
        line(1, "     2 w 1  0000 - U  0000 - Z  0000 - H     2 b +"),
        line(2, "     1 b 0  0000 - F  0000 -    0000 - =     1 w -"),
    );
    let t = parse(&text).unwrap();
    let p = t.points;
    assert_eq!(
        (p.win, p.draw, p.loss, p.zero_bye, p.pairing_bye),
        (30, 10, 0, 5, 20)
    );
    assert_eq!(t.points_after(&t.players[0], 5), 30 + 20 + 5 + 10 + 30);
    assert_eq!(t.points_after(&t.players[1], 5), 30 + 5 + 10); // loss, F, blank, =, forfeit loss
    let half = t.truncated(1);
    assert_eq!(half.players[0].points_tenths, 30);
    assert_eq!(half.players[0].rank, 1);
    assert_eq!(half.played_rounds(), 1);
    // The header lines are kept as read.
    assert!(
        half.to_trf()
            .ends_with("BBW  3.0\nBBD  1.0\nBBU  2.0\nBBZ  0.5\n")
    );
}

#[test]
fn paired_rounds_leave_out_a_column_of_requested_byes() {
    let text = format!(
        "{}\n{}\n{}\n",
        line(1, "     2 w 1  0000 - H"),
        line(2, "     1 b 0"),
        line(3, "  0000 - U  0000 - Z"),
    );
    let t = parse(&text).unwrap();
    assert_eq!(t.played_rounds(), 2);
    assert_eq!(t.paired_rounds(), 1);
    let t = parse(&format!(
        "{}\n{}\n",
        line(1, "     2 w 1"),
        line(2, "     1 b 0  0000 - U")
    ))
    .unwrap();
    assert_eq!(t.paired_rounds(), 2);
}

#[test]
fn announced_byes_are_read_and_written() {
    let text = format!("{}\n{}\n240 H   2    1    2\n", line(1, ""), line(2, ""));
    let mut t = parse(&text).unwrap();
    assert_eq!(
        t.announced_byes,
        vec![AnnouncedBye {
            kind: 'H',
            round: 2,
            players: vec![1, 2]
        }]
    );
    assert_eq!(t.to_trf(), text);
    t.announced_byes[0].players.pop();
    assert!(t.to_trf().ends_with("\n240 H   2    1\n"));
    assert_eq!(parse("240 H   0    1").unwrap_err().field, "bye round");
    assert_eq!(parse("240 H   1   x1").unwrap_err().field, "bye player");
}

#[test]
fn odd_layouts_are_kept_verbatim() {
    // `9` for `9.0` and a lower-case code: read, kept as read.
    let mut l = line(1, "  0000 - u");
    l.replace_range(80..84, "   0");
    let t = parse(&l).unwrap();
    assert!(t.players[0].verbatim.is_some());
    assert_eq!(t.players[0].rounds[0].result, TrfResult::PairingBye);
    assert_eq!(t.to_trf(), l);
}

fn arb_round(n: u32) -> impl Strategy<Value = TrfRound> {
    prop_oneof![
        (1..=n, any::<bool>(), 0..6u8).prop_map(|(o, w, r)| TrfRound {
            opponent: Some(o),
            colour: Some(if w { Colour::White } else { Colour::Black }),
            result: [
                TrfResult::Win,
                TrfResult::Draw,
                TrfResult::Loss,
                TrfResult::UnratedWin,
                TrfResult::UnratedDraw,
                TrfResult::UnratedLoss
            ][r as usize],
        }),
        (0..6u8).prop_map(|r| TrfRound::bye(
            [
                TrfResult::HalfBye,
                TrfResult::FullBye,
                TrfResult::PairingBye,
                TrfResult::ZeroBye,
                TrfResult::ForfeitWin,
                TrfResult::ForfeitLoss
            ][r as usize]
        )),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn no_input_panics(text in "\\PC{0,300}") {
        let _ = parse(&text);
    }

    #[test]
    fn no_player_line_panics(tail in "[0-9 wb=+\\-UZHFWDLx.]{0,140}") {
        let _ = parse(&format!("001    1      A{tail}"));
        let _ = parse(&format!("{}{tail}", line(1, "")));
    }

    #[test]
    fn mutated_fixture_lines_do_not_panic(at in 0usize..200, c in any::<char>()) {
        let text = line(1, "     2 w 1  0000 - U") + "\n" + &line(2, "     1 b 0  0000 - H");
        let mut chars: Vec<char> = text.chars().collect();
        let at = at % chars.len();
        chars[at] = c;
        let s: String = chars.into_iter().collect();
        if let Ok(t) = parse(&s) {
            let _ = t.to_trf();
            let _ = t.truncated(1);
        }
    }

    /// Whatever qiyuan writes it reads back the same (opponents need not be
    /// consistent for byes, so only byes and forfeits against player 2).
    #[test]
    fn written_files_read_back(
        names in proptest::collection::vec("[A-Za-z ]{0,33}", 1..6),
        ratings in proptest::collection::vec(0u32..=9999, 6),
        rounds in proptest::collection::vec(proptest::collection::vec(arb_round(6), 0..8), 6),
        total in proptest::option::of(1u32..=99),
    ) {
        let mut t = Trf { total_rounds: total, ..Trf::default() };
        for (i, name) in names.iter().enumerate() {
            let rs: Vec<TrfRound> = rounds[i]
                .iter()
                .filter(|r| !r.result.played())
                .cloned()
                .collect();
            let mut p = TrfPlayer {
                start: i as u32 + 1,
                name: name.trim().to_string(),
                rating: ratings[i],
                rounds: rs,
                ..TrfPlayer::default()
            };
            p.points_tenths = t.points_after(&p, p.rounds.len());
            t.players.push(p);
        }
        let text = t.to_trf();
        let back = parse(&text).unwrap();
        prop_assert_eq!(back.to_trf(), text);
        prop_assert_eq!(back.players.len(), t.players.len());
        for (a, b) in back.players.iter().zip(&t.players) {
            prop_assert!(a.verbatim.is_none());
            prop_assert_eq!(&a.rounds, &b.rounds);
            prop_assert_eq!(&a.name, &b.name);
        }
        prop_assert_eq!(back.total_rounds, total);
    }
}
