//! Tie-breaks (H6), team tie-breaks (H7), unshareable places (H8) and the
//! standings columns and CSV (H9), on hand-made result tables. Scores are 2/1/0.

use qiyuan_events::scoring::GameResult::{BlackWins as L, Draw as D, RedWins as W};
use qiyuan_events::standings::{StandingsInput, compute};
use qiyuan_events::team::{self, TeamMatch, TeamTieBreak};
use qiyuan_events::{GameRecord, GameResult, Player, PlayerId, ScoringSystem, Standings, TieBreak};
use std::collections::BTreeMap;

fn players(names: &[&str]) -> Vec<Player> {
    names
        .iter()
        .map(|n| Player::new(*n, format!("Player {n}")))
        .collect()
}

fn g(red: &str, black: &str, r: GameResult) -> GameRecord {
    GameRecord::new(red, black, r)
}

fn table(
    names: &[&str],
    games: &[GameRecord],
    fouls: &[(&str, u32)],
    tbs: &[TieBreak],
) -> Standings {
    let ps = players(names);
    let fouls: BTreeMap<PlayerId, u32> = fouls
        .iter()
        .map(|(p, n)| (PlayerId::from(*p), *n))
        .collect();
    compute(&StandingsInput {
        players: &ps,
        games,
        byes: &[],
        ratings: &BTreeMap::new(),
        fouls: &fouls,
        scoring: ScoringSystem::TwoOneZero,
        tie_breaks: tbs,
        unshareable: &[1],
    })
}

fn order(s: &Standings) -> Vec<(String, u32)> {
    s.rows
        .iter()
        .map(|r| (r.player.0.clone(), r.rank))
        .collect()
}

fn ranks(list: &[(&str, u32)]) -> Vec<(String, u32)> {
    list.iter().map(|(p, r)| (p.to_string(), *r)).collect()
}

/// Five players. B and A tie on 5 points; B's wins came against stronger
/// opponents: SB(B) = A 5 + D 2 + ½·E 4 = 9, SB(A) = C 4 + D 2 + ½·E 4 = 8.
/// C and E tie on 4: SB(C) = B 5 + E 4 = 9, SB(E) = ½·5 + ½·5 + D 2 = 7.
/// D (2 points) beat C: SB(D) = 4.
#[test]
fn h6_sonneborn_berger_splits_equal_scores() {
    let games = [
        g("B", "A", W),
        g("A", "C", W),
        g("A", "D", W),
        g("A", "E", D),
        g("C", "B", W),
        g("B", "D", W),
        g("B", "E", D),
        g("D", "C", W),
        g("C", "E", W),
        g("E", "D", W),
    ];
    let s = table(
        &["A", "B", "C", "D", "E"],
        &games,
        &[],
        &TieBreak::round_robin_defaults(),
    );
    assert_eq!(
        order(&s),
        ranks(&[("B", 1), ("A", 2), ("C", 3), ("E", 4), ("D", 5)])
    );
    let sb: Vec<f64> = s.rows.iter().map(|r| r.sonneborn_berger).collect();
    assert_eq!(sb, vec![9.0, 8.0, 9.0, 7.0, 4.0]);
    let scores: Vec<f64> = s.rows.iter().map(|r| r.score).collect();
    assert_eq!(scores, vec![5.0, 5.0, 4.0, 4.0, 2.0]);
    // SB separated everyone, so direct encounter was never needed.
    assert!(s.rows.iter().all(|r| r.direct.is_none()));
    assert!(s.needs_playoff.is_empty());
}

/// W and X tie on 4. W has more wins (2 v 1), X beat W and has the higher SB
/// (X: W 4 + ½·Y 1 + ½·Z 3 = 6; W: Y 1 + Z 3 = 4). The order of the
/// tie-break list decides (H6: the order is a setting).
#[test]
fn h6_wins_and_direct_encounter_in_the_configured_order() {
    let games = [
        g("W", "X", L),
        g("W", "Y", W),
        g("W", "Z", W),
        g("X", "Y", D),
        g("X", "Z", D),
        g("Y", "Z", L),
    ];
    let names = ["W", "X", "Y", "Z"];
    let by_default = table(&names, &games, &[], &TieBreak::round_robin_defaults());
    assert_eq!(by_default.rows[0].player.0, "X");
    assert_eq!(by_default.rows[0].sonneborn_berger, 6.0);
    assert_eq!(by_default.rows[1].sonneborn_berger, 4.0);

    let by_wins = table(
        &names,
        &games,
        &[],
        &[TieBreak::Wins, TieBreak::DirectEncounter],
    );
    assert_eq!(order(&by_wins)[..2], ranks(&[("W", 1), ("X", 2)]));
    assert_eq!((by_wins.rows[0].wins, by_wins.rows[1].wins), (2, 1));

    let by_direct = table(
        &names,
        &games,
        &[],
        &[TieBreak::DirectEncounter, TieBreak::Wins],
    );
    assert_eq!(order(&by_direct)[..2], ranks(&[("X", 1), ("W", 2)]));
    // The direct column shows the score in the game between the two.
    assert_eq!(by_direct.rows[0].direct, Some(2.0));
    assert_eq!(by_direct.rows[1].direct, Some(0.0));
}

/// A, B, C tie on 5. Among themselves A beat B, A-C and B-C were drawn:
/// A 3, C 2, B 1, so direct encounter orders them A, C, B (H6: for more than
/// two, the score in the games among them). D (3) and E (2) are not involved.
#[test]
fn h6_three_way_tie_resolved_by_games_among_the_tied() {
    let games = [
        g("A", "B", W),
        g("A", "C", D),
        g("B", "C", D),
        g("D", "A", W),
        g("B", "D", W),
        g("C", "D", D),
        g("A", "E", W),
        g("B", "E", W),
        g("C", "E", W),
        g("E", "D", W),
    ];
    let names = ["A", "B", "C", "D", "E"];
    let s = table(
        &names,
        &games,
        &[],
        &[TieBreak::DirectEncounter, TieBreak::Fouls],
    );
    assert_eq!(
        order(&s),
        ranks(&[("A", 1), ("C", 2), ("B", 3), ("D", 4), ("E", 5)])
    );
    let direct: Vec<Option<f64>> = s.rows.iter().take(3).map(|r| r.direct).collect();
    assert_eq!(direct, vec![Some(3.0), Some(2.0), Some(1.0)]);
    assert_eq!(s.rows[3].direct, None);
}

/// A cyclic three-way tie (A beat B, B beat C, C beat A) is not split by direct
/// encounter (2 each); fewer fouls then decides (X8), and without fouls to tell
/// them apart the place is shared.
#[test]
fn h6_cyclic_direct_encounter_falls_through_to_fouls_then_shared() {
    let games = [g("A", "B", W), g("B", "C", W), g("C", "A", W)];
    let names = ["A", "B", "C"];
    let tbs = TieBreak::round_robin_defaults();
    let s = table(&names, &games, &[("A", 2), ("C", 1)], &tbs);
    assert_eq!(order(&s), ranks(&[("B", 1), ("C", 2), ("A", 3)]));
    assert_eq!(
        s.rows.iter().map(|r| r.fouls).collect::<Vec<_>>(),
        vec![0, 1, 2]
    );
    assert!(s.rows.iter().all(|r| r.direct == Some(2.0)));

    let shared = table(&names, &games, &[("A", 1), ("B", 1), ("C", 1)], &tbs);
    assert!(shared.rows.iter().all(|r| r.rank == 1 && r.shared));
    // H8: the title may not be shared: all three must play off.
    assert_eq!(shared.needs_playoff.len(), 1);
    assert_eq!(shared.needs_playoff[0].place, 1);
    assert_eq!(shared.needs_playoff[0].players.len(), 3);
}

/// Fouls only break what everything before them left tied: two all-draw
/// players are separated by fouls alone.
#[test]
fn h6_fewer_fouls_ranks_higher() {
    let games = [g("A", "B", D), g("B", "A", D)];
    let s = table(
        &["A", "B"],
        &games,
        &[("A", 3), ("B", 1)],
        &TieBreak::round_robin_defaults(),
    );
    assert_eq!(order(&s), ranks(&[("B", 1), ("A", 2)]));
    assert!(s.needs_playoff.is_empty());
}

/// H8: a shared place other than the title is reported only when configured.
#[test]
fn h8_only_unshareable_places_need_a_playoff() {
    let ps = players(&["A", "B", "C"]);
    let games = [g("A", "B", W), g("A", "C", W), g("B", "C", D)];
    let fouls = BTreeMap::new();
    let mk = |unshareable: &[u32]| {
        compute(&StandingsInput {
            players: &ps,
            games: &games,
            byes: &[],
            ratings: &BTreeMap::new(),
            fouls: &fouls,
            scoring: ScoringSystem::TwoOneZero,
            tie_breaks: &TieBreak::round_robin_defaults(),
            unshareable,
        })
    };
    let s = mk(&[1]);
    assert_eq!(s.rows[1].rank, 2);
    assert!(s.rows[1].shared && s.rows[2].shared);
    assert!(s.needs_playoff.is_empty());
    let s = mk(&[1, 3]);
    assert_eq!(s.needs_playoff.len(), 1);
    assert_eq!(s.needs_playoff[0].place, 3);
}

/// Swiss: Buchholz (对手分) first. After two rounds A and C have 3 points;
/// A's opponents (B 2, C 3) total 5, C's (D 0, A 3) total 3. Direct encounter
/// does not apply between players who never met.
#[test]
fn h6_buchholz_first_in_swiss() {
    let games = [
        g("A", "B", W),
        g("C", "D", W),
        g("A", "C", D),
        g("B", "D", W),
    ];
    let s = table(
        &["A", "B", "C", "D"],
        &games,
        &[],
        &TieBreak::swiss_defaults(),
    );
    assert_eq!(order(&s), ranks(&[("A", 1), ("C", 2), ("B", 3), ("D", 4)]));
    assert_eq!(s.rows[0].buchholz, 5.0);
    assert_eq!(s.rows[1].buchholz, 3.0);
    assert_eq!(s.tie_breaks[0].chinese(), "对手分");
    assert_eq!(s.tie_breaks[0].fide(), "Buchholz");
}

/// X6 in standings: a time-capped game scores 0 for both and is no win.
#[test]
fn x6_time_capped_game_scores_nothing_in_standings() {
    let s = table(
        &["A", "B"],
        &[g("A", "B", GameResult::TimeCapExceeded)],
        &[],
        &[],
    );
    assert!(
        s.rows
            .iter()
            .all(|r| r.score == 0.0 && r.wins == 0 && r.games == 1)
    );
}

/// H9: every tie-break column is in the CSV with a header row; names are quoted.
/// Scored 1/½/0: u:2 drew then won (1.5; SB = 0.5 + ½·0.5 = 0.75; Buchholz 0.5 + 0.5),
/// u:1 has 0.5 (SB ½·1.5 = 0.75; Buchholz 1.5 + 1.5).
#[test]
fn h9_csv_has_a_header_and_every_column() {
    let ps = vec![
        Player::new("u:1", "Li, Lai"),
        Player::new("u:2", "Wang \"Tiger\""),
    ];
    let fouls = BTreeMap::from([(PlayerId::from("u:2"), 1)]);
    let s = compute(&StandingsInput {
        players: &ps,
        games: &[g("u:1", "u:2", D), g("u:2", "u:1", W)],
        byes: &[],
        ratings: &BTreeMap::new(),
        fouls: &fouls,
        scoring: ScoringSystem::OneHalfZero,
        tie_breaks: &TieBreak::round_robin_defaults(),
        unshareable: &[1],
    });
    let csv = s.to_csv();
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(
        lines[0],
        "rank,shared,player,name,score,sonneborn_berger,buchholz,wins,direct,fouls,games"
    );
    assert_eq!(
        lines[1],
        "1,false,u:2,\"Wang \"\"Tiger\"\"\",1.5,0.75,1,1,,1,2"
    );
    assert_eq!(lines[2], "2,false,u:1,\"Li, Lai\",0.5,0.75,3,0,,0,2");
    assert_eq!(lines.len(), 3);
}

/// H7: T1, T2, T3 all have 4 match points. By total game points T1 16, T3 14,
/// T2 12. By game wins T1 7, T2 5, T3 4. Direct encounter among the three is
/// cyclic (each won one match), so it does not split them and fewer team fouls
/// decides: T2 0, T3 1, T1 2.
#[test]
fn h7_team_tie_breaks() {
    let teams = vec![
        Player::new("T1", "Team 1"),
        Player::new("T2", "Team 2"),
        Player::new("T3", "Team 3"),
        Player::new("T4", "Team 4"),
    ];
    let m = |home: &str, away: &str, boards: &[GameResult]| TeamMatch {
        home: home.into(),
        away: away.into(),
        boards: boards.to_vec(),
    };
    let matches = [
        m("T1", "T2", &[W, W, W, L]),
        m("T3", "T4", &[W, D, D, D]),
        m("T1", "T3", &[L, L, D, D]),
        m("T2", "T4", &[W, W, D, L]),
        m("T1", "T4", &[W, W, W, W]),
        m("T2", "T3", &[W, W, D, L]),
    ];
    let fouls = BTreeMap::from([(PlayerId::from("T1"), 2), (PlayerId::from("T3"), 1)]);
    let run = |tbs: &[TeamTieBreak]| {
        let s = team::compute(
            &teams,
            &matches,
            &fouls,
            ScoringSystem::TwoOneZero,
            ScoringSystem::TwoOneZero,
            tbs,
            &[1],
        );
        s.rows.iter().map(|r| r.team.0.clone()).collect::<Vec<_>>()
    };
    let s = team::compute(
        &teams,
        &matches,
        &fouls,
        ScoringSystem::TwoOneZero,
        ScoringSystem::TwoOneZero,
        &TeamTieBreak::defaults(),
        &[1],
    );
    let mp: Vec<f64> = s.rows.iter().map(|r| r.match_points).collect();
    assert_eq!(mp, vec![4.0, 4.0, 4.0, 0.0]);
    let gp: Vec<f64> = s.rows.iter().map(|r| r.game_points).collect();
    assert_eq!(gp, vec![16.0, 14.0, 12.0, 6.0]);
    assert_eq!(run(&TeamTieBreak::defaults()), ["T1", "T3", "T2", "T4"]);
    assert_eq!(run(&[TeamTieBreak::GameWins]), ["T1", "T2", "T3", "T4"]);
    assert_eq!(
        run(&[TeamTieBreak::DirectEncounter, TeamTieBreak::Fouls]),
        ["T2", "T3", "T1", "T4"]
    );
    // Without fouls the three share first place, which needs a play-off (H8).
    let s = team::compute(
        &teams,
        &matches,
        &BTreeMap::new(),
        ScoringSystem::TwoOneZero,
        ScoringSystem::TwoOneZero,
        &[TeamTieBreak::DirectEncounter, TeamTieBreak::Fouls],
        &[1],
    );
    assert!(
        s.rows[..3]
            .iter()
            .all(|r| r.rank == 1 && r.shared && r.direct == Some(2.0))
    );
    assert_eq!(s.needs_playoff[0].players.len(), 3);
    assert!(
        s.to_csv()
            .starts_with("rank,shared,team,name,match_points,game_points,game_wins,direct,fouls\n")
    );
}

/// FIDE C.07 tie-breaks on a hand-worked 6-player, 4-round Swiss at
/// 1/½/0 with every kind of unplayed round (ratings 2000 … 1500 for 1 … 6):
///
/// ```text
///     R1        R2        R3        R4        score
/// 1   W 4 w     W 6 b     D 2 w     W 4 b     3.5
/// 2   D 5 w     W 3 w     D 1 b     L 6 w     2
/// 3   L 6 w     L 2 b     W 5 w     absent    1
/// 4   L 1 b     PAB (1)   +  6      L 1 w     2
/// 5   D 2 b     H (½)     L 3 b     Z (0)     1
/// 6   W 3 b     L 1 w     -  4      W 2 b     2
/// ```
///
/// Unplayed rounds count the player's own score (the dummy opponent), and
/// cuts remove voluntarily unplayed rounds (H, Z, forfeit loss, absence)
/// first: BH(6) = 1 + 3.5 + 2 (own, forfeit loss) + 2 = 8.5, its Cut-1
/// drops the forfeit loss (2), not the lowest opponent (1): 6.5.
fn fide_crosstable(tbs: &[TieBreak]) -> Standings {
    use qiyuan_events::ByeRecord;
    use qiyuan_events::standings::Unplayed;
    let ps = players(&["1", "2", "3", "4", "5", "6"]);
    let games = [
        g("1", "4", W).in_round(1),
        g("2", "5", D).in_round(1),
        g("3", "6", L).in_round(1),
        g("6", "1", L).in_round(2),
        g("2", "3", W).in_round(2),
        g("1", "2", D).in_round(3),
        g("3", "5", W).in_round(3),
        g("4", "1", L).in_round(4),
        g("2", "6", L).in_round(4),
    ];
    let byes = [
        ByeRecord::new("4", 1.0).in_round(2, Unplayed::PairingBye),
        ByeRecord::new("5", 0.5).in_round(2, Unplayed::HalfBye),
        ByeRecord::new("4", 1.0).in_round(3, Unplayed::ForfeitWin),
        ByeRecord::new("6", 0.0).in_round(3, Unplayed::ForfeitLoss),
        ByeRecord::new("5", 0.0).in_round(4, Unplayed::ZeroBye),
    ];
    let ratings: BTreeMap<PlayerId, u32> = (1..=6u32)
        .map(|i| (PlayerId(i.to_string()), 2100 - 100 * i))
        .collect();
    compute(&StandingsInput {
        players: &ps,
        games: &games,
        byes: &byes,
        ratings: &ratings,
        fouls: &BTreeMap::new(),
        scoring: ScoringSystem::OneHalfZero,
        tie_breaks: tbs,
        unshareable: &[],
    })
}

fn fide_column(s: &Standings, tb: TieBreak) -> Vec<f64> {
    (1..=6)
        .map(|i| {
            let row = s.row(&PlayerId(i.to_string())).unwrap();
            row.fide.iter().find(|v| v.tie_break == tb).unwrap().value
        })
        .collect()
}

#[test]
fn c07_tie_breaks_by_hand() {
    let all = [
        TieBreak::FideBuchholz,
        TieBreak::BuchholzCut1,
        TieBreak::BuchholzCut2,
        TieBreak::BuchholzMedian1,
        TieBreak::FideSonnebornBerger,
        TieBreak::FideWins,
        TieBreak::GamesWon,
        TieBreak::GamesWithBlack,
        TieBreak::AverageRatingOfOpponents,
        TieBreak::ProgressiveScore,
    ];
    let s = fide_crosstable(&all);
    let scores: Vec<f64> = (1..=6)
        .map(|i| s.row(&PlayerId(i.to_string())).unwrap().score)
        .collect();
    assert_eq!(scores, [3.5, 2.0, 1.0, 2.0, 1.0, 2.0]);
    let col = |tb| fide_column(&s, tb);
    assert_eq!(col(TieBreak::FideBuchholz), [8.0, 7.5, 6.0, 11.0, 5.0, 8.5]);
    assert_eq!(col(TieBreak::BuchholzCut1), [6.0, 6.5, 5.0, 9.0, 4.0, 6.5]);
    assert_eq!(col(TieBreak::BuchholzCut2), [4.0, 5.5, 4.0, 7.0, 3.0, 5.5]);
    assert_eq!(
        col(TieBreak::BuchholzMedian1),
        [4.0, 3.0, 3.0, 5.5, 2.0, 3.0]
    );
    assert_eq!(
        col(TieBreak::FideSonnebornBerger),
        [7.0, 3.25, 1.0, 4.0, 1.5, 3.0]
    );
    assert_eq!(col(TieBreak::FideWins), [3.0, 1.0, 1.0, 2.0, 0.0, 2.0]);
    assert_eq!(col(TieBreak::GamesWon), [3.0, 1.0, 1.0, 0.0, 0.0, 2.0]);
    assert_eq!(
        col(TieBreak::GamesWithBlack),
        [2.0, 1.0, 1.0, 1.0, 2.0, 2.0]
    );
    assert_eq!(
        col(TieBreak::AverageRatingOfOpponents),
        [1700.0, 1725.0, 1667.0, 2000.0, 1850.0, 1900.0]
    );
    assert_eq!(
        col(TieBreak::ProgressiveScore),
        [9.0, 6.0, 2.0, 5.0, 3.5, 5.0]
    );
    // The CSV carries one column per selected FIDE tie-break.
    let csv = s.to_csv();
    assert!(csv.lines().next().unwrap().ends_with(",games,fide_buchholz,buchholz_cut1,buchholz_cut2,buchholz_median1,fide_sonneborn_berger,fide_wins,games_won,games_with_black,average_rating_of_opponents,progressive_score"));
}

#[test]
fn c07_tie_breaks_rank_in_the_order_chosen() {
    // 2, 4 and 6 tie on 2 points: Cut-1 puts 4 (9) ahead, 2 and 6 tie on
    // 6.5 and progressive score splits them (6 v 5). 3 and 5 tie on 1:
    // Cut-1 5 v 4.
    let s = fide_crosstable(&[TieBreak::BuchholzCut1, TieBreak::ProgressiveScore]);
    assert_eq!(
        order(&s),
        ranks(&[("1", 1), ("4", 2), ("2", 3), ("6", 4), ("3", 5), ("5", 6)])
    );
    // By games won over the board instead: 6 (2) ahead of 2 (1) and 4 (0);
    // 3 (1) ahead of 5 (0).
    let s = fide_crosstable(&[TieBreak::GamesWon]);
    assert_eq!(
        order(&s),
        ranks(&[("1", 1), ("6", 2), ("2", 3), ("4", 4), ("3", 5), ("5", 6)])
    );
    // The published names.
    assert_eq!(TieBreak::BuchholzCut1.fide(), "Buchholz Cut-1");
    assert_eq!(TieBreak::BuchholzMedian1.abbreviation(), Some("BH-M1"));
    assert_eq!(
        TieBreak::AverageRatingOfOpponents.fide(),
        "Average rating of opponents"
    );
    // Stored names: the old ones unchanged.
    let json = serde_json::to_string(&[TieBreak::Buchholz, TieBreak::BuchholzCut2]).unwrap();
    assert_eq!(json, r#"["buchholz","buchholz_cut2"]"#);
    for tb in TieBreak::all() {
        assert_eq!(
            serde_json::to_string(&tb).unwrap(),
            format!("\"{}\"", tb.key())
        );
    }
}

/// The same crosstable as a TRF file gives the same FIDE values.
#[test]
fn c07_tie_breaks_from_a_trf_file() {
    let rows = [
        (1, 2000, "     4 w 1     6 b 1     2 w =     4 b 1"),
        (2, 1900, "     5 w =     3 w 1     1 b =     6 w 0"),
        (3, 1800, "     6 w 0     2 b 0     5 w 1"),
        (4, 1700, "     1 b 0  0000 - U     6 w +     1 w 0"),
        (5, 1600, "     2 b =  0000 - H     3 b 0  0000 - Z"),
        (6, 1500, "     3 b 1     1 w 0     4 b -     2 b 1"),
    ];
    let mut text = String::new();
    for (start, rating, rounds) in rows {
        let mut p = qiyuan_events::trf::TrfPlayer {
            start,
            name: format!("P{start}"),
            rating,
            rank: start,
            ..Default::default()
        };
        p.points_tenths = 0;
        let t = qiyuan_events::trf::Trf::from_players(vec![p]);
        let line = t.to_trf();
        text.push_str(line.trim_end());
        text.push_str(rounds);
        text.push('\n');
    }
    let mut t = qiyuan_events::trf::parse(&text).unwrap();
    for i in 0..t.players.len() {
        let pts = t.points_after(&t.players[i], 4);
        t.players[i].points_tenths = pts;
    }
    let all = [
        TieBreak::FideBuchholz,
        TieBreak::BuchholzCut1,
        TieBreak::FideSonnebornBerger,
        TieBreak::AverageRatingOfOpponents,
        TieBreak::ProgressiveScore,
    ];
    let from_trf = qiyuan_events::trf::trf_standings(&t, &all);
    let direct = fide_crosstable(&all);
    for tb in all {
        assert_eq!(
            fide_column(&from_trf, tb),
            fide_column(&direct, tb),
            "{tb:?}"
        );
    }
}
