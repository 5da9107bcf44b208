use super::*;
use qiyuan_core::Options;

struct Counter(u32);
impl Chance for Counter {
    fn draw(&mut self, bound: u32) -> u32 {
        self.0 = self.0.wrapping_mul(1_103_515_245).wrapping_add(12_345);
        (self.0 >> 8) % bound
    }
}

fn start_with(options: &[(&str, i64)], setup: Option<&str>) -> Box<dyn TableGame> {
    let options: Options = options.iter().map(|(k, v)| (k.to_string(), *v)).collect();
    SiguoKind
        .start(&StartSpec {
            variant: "siguo",
            seats: 4,
            options: &options,
            setup,
            seed: [7; 32],
        })
        .expect("start")
}

fn start() -> Box<dyn TableGame> {
    start_with(&[], None)
}

/// The piece tokens of a view.
fn tokens(view: &str) -> Vec<String> {
    let pieces = view.split(' ').next().unwrap_or("");
    if pieces == "-" {
        return Vec::new();
    }
    pieces.split(',').map(str::to_string).collect()
}

/// Every army placed (random set-ups).
fn placed(options: &[(&str, i64)]) -> Box<dyn TableGame> {
    let mut t = start_with(options, None);
    for seat in 0..4 {
        t.play_for(seat, RANDOM, &mut Counter(seat as u32 + 1))
            .expect("a drawn set-up");
    }
    t
}

#[test]
fn s7_the_set_up_phase_is_simultaneous_secret_and_in_the_own_frame() {
    let mut t = start();
    assert_eq!(t.seats_to_move(), vec![0, 1, 2, 3]);
    assert_eq!(t.turn_time_ms(30_000), SETUP_MS, "S12: three minutes");
    let text = Setup::standard(Side::Red).to_string();
    t.play_for(2, &text, &mut Counter(1))
        .expect("north's set-up");
    assert_eq!(t.seats_to_move(), vec![0, 1, 3]);
    // North sees its 25 pieces in its own block; nobody else sees any.
    let north = tokens(&t.view(Viewer::Seat(2)));
    assert_eq!(north.len(), 25);
    assert!(north.iter().all(|p| p.starts_with('n')), "{north:?}");
    assert!(
        north.contains(&"nFj17".to_string()),
        "own b1 is j17: {north:?}"
    );
    for viewer in [Viewer::Seat(0), Viewer::Seat(1), Viewer::Spectator] {
        assert!(tokens(&t.view(viewer)).is_empty(), "{viewer:?}");
        let (_, recs) = t.move_records_for(viewer, 0);
        assert_eq!(recs[0].text, HIDDEN_SETUP);
    }
    assert!(t.view(Viewer::Seat(2)).ends_with(" 0"), "move number 0");
    let bad = t.play_for(0, "nonsense", &mut Counter(1));
    assert!(matches!(bad, Err(MoveError::Malformed { .. })));
    for seat in [0, 1, 3] {
        t.play_for(seat, PLANNED, &mut Counter(seat as u32))
            .expect("a planned set-up");
    }
    assert_eq!(t.seats_to_move(), vec![0], "South moves first");
    assert_eq!(t.turn_time_ms(30_000), 30_000);
}

/// S9 in 四暗 and 双明, and S8: what every seat and a spectator may read,
/// over a whole game of random moves.
#[test]
fn s9_no_view_or_record_shows_a_rank_its_viewer_may_not_see() {
    for (mode, allies) in [(0, false), (1, true)] {
        let mut t = placed(&[("mode", mode)]);
        let mut ply = 0u32;
        while t.result().is_none() && ply < 3000 {
            for viewer in [
                Viewer::Seat(0),
                Viewer::Seat(1),
                Viewer::Seat(2),
                Viewer::Seat(3),
                Viewer::Spectator,
            ] {
                let game = qiyuan_core::table_as::<SiguoTable>(t.as_ref())
                    .and_then(SiguoTable::game)
                    .expect("a game");
                for token in tokens(&t.view(viewer)) {
                    let army = token.chars().next().unwrap_or('?');
                    let rank = token.chars().nth(1).unwrap_or('?');
                    let a = "senw".find(army).expect("an army") as u8;
                    let mine = viewer == Viewer::Seat(a as usize);
                    let ally = matches!(viewer, Viewer::Seat(s) if s as u8 != a && team_of(s as u8) == team_of(a));
                    let flag_public = rank == 'F' && game.flag_shown(a);
                    if !(mine || (allies && ally) || flag_public) {
                        assert_eq!(rank, 'X', "mode {mode} {viewer:?} sees {token}");
                    }
                }
                // The record never names a rank: set-ups are hidden to those
                // who may not see them, moves carry posts and outcomes only.
                let (_, recs) = t.move_records_for(viewer, 0);
                for (i, r) in recs.iter().enumerate().take(4) {
                    let owner = "senw".find(r.notations[0].1.as_str()).expect("army");
                    let may = viewer == Viewer::Seat(owner)
                        || (allies
                            && matches!(viewer, Viewer::Seat(s) if team_of(s as u8) == team_of(owner as u8)));
                    assert_eq!(r.text.len() == 30, may, "mode {mode} {viewer:?} set-up {i}");
                }
            }
            let seat = t.seats_to_move()[0];
            let moves = t.legal_moves_for(seat);
            let m = moves[(ply as usize * 7919) % moves.len()].clone();
            t.play_for(seat, &m, &mut Counter(ply)).expect("legal");
            ply += 1;
        }
        assert!(
            t.result().is_some(),
            "random games end (S11's quiet limit at worst)"
        );
        // After the game every rank shows to everyone, and every set-up.
        for viewer in [Viewer::Seat(1), Viewer::Spectator] {
            assert!(tokens(&t.view(viewer)).iter().all(|p| !p.contains('X')));
            let (from, recs) = t.move_records_for(viewer, 10);
            assert_eq!(from, 0);
            assert!(recs[..4].iter().all(|r| r.text.len() == 30));
        }
    }
}

#[test]
fn s9_open_mode_shows_every_rank_once_play_starts() {
    let t = placed(&[("mode", 2)]);
    for viewer in [Viewer::Seat(1), Viewer::Spectator] {
        let all = tokens(&t.view(viewer));
        assert_eq!(all.len(), 100);
        assert!(all.iter().all(|p| !p.contains('X')));
    }
}

#[test]
fn s12_a_fallen_flag_passes_the_turn_and_the_fifth_puts_the_army_out() {
    let mut t = placed(&[]);
    assert_eq!(t.flag_falls(0), FlagFall::TurnLost);
    assert_eq!(t.history().last().map(String::as_str), Some(TIMEOUT));
    assert_eq!(t.seats_to_move(), vec![1]);
    let (_, recs) = t.move_records_for(Viewer::Spectator, 4);
    assert_eq!(
        recs[0].notations,
        vec![("army".to_string(), "s".to_string())]
    );
    // Three more rounds of South's lost turns, the others lose theirs too.
    for _ in 0..3 {
        for seat in [1, 2, 3, 0] {
            assert_eq!(t.flag_falls(seat), FlagFall::TurnLost);
        }
    }
    assert_eq!(t.progress().map(|p| p.seats[0].out), Some(false));
    for seat in [1, 2, 3] {
        let m = t.legal_moves_for(seat)[0].clone();
        t.play_for(seat, &m, &mut Counter(1)).expect("legal");
    }
    assert_eq!(t.flag_falls(0), FlagFall::TurnLost);
    assert_eq!(
        t.progress().map(|p| p.seats[0].out),
        Some(true),
        "the fifth"
    );
    assert!(
        tokens(&t.view(Viewer::Spectator))
            .iter()
            .all(|p| !p.starts_with('s'))
    );
    assert!(t.result().is_none(), "North plays on");
    assert_eq!(t.seats_to_move(), vec![1]);
}

#[test]
fn s12_a_set_up_drawn_on_time_replays_from_the_stored_seed() {
    let mut t = start();
    assert_eq!(t.flag_falls(3), FlagFall::TurnLost);
    let drawn = t.history()[0].clone();
    assert!(Setup::parse(Side::Red, &drawn).is_ok(), "{drawn}");
    let secret = t.secret_setup().expect("a seed");
    let mut again = SiguoKind
        .start(&StartSpec {
            variant: "siguo",
            seats: 4,
            options: &Options::new(),
            setup: Some(&secret),
            seed: [9; 32],
        })
        .expect("start");
    assert_eq!(again.flag_falls(3), FlagFall::TurnLost);
    assert_eq!(again.history()[0], drawn);
}

#[test]
fn s10_surrender_is_refused_before_the_twentieth_move_and_a_leaver_s_team_loses() {
    let mut t = placed(&[]);
    assert!(matches!(t.resigns(0), Resigned::Refused(why) if why.contains("20th")));
    assert!(t.result().is_none());
    assert_eq!(t.history().len(), 4, "nothing stored");
    // A seat that leaves outright (abandoned, or in the set-up phase) loses
    // for its whole team.
    let o = t.seat_leaves(1, EndReason::Resignation);
    assert_eq!(o.winners(), vec![0, 2]);
    assert!(o.explanation.contains("东方认输"), "{}", o.explanation);
    let mut t = start();
    assert!(matches!(t.resigns(3), Resigned::Ends(o) if o.winners() == vec![0, 2]));
}

#[test]
fn s10_a_surrender_from_a_set_up_position_is_stored_and_replays() {
    // A position where South has made its moves: a game from a position
    // counts moves from there, so play 19 South moves against passive
    // opponents that shuffle back and forth.
    let fen = "sSi9,sFh1,sPi1,eFq8,ePq9,eGp7,nFj17,nPi17,nGk16,wFa10,wPa9,wGb7 s - 0 1";
    let mut t = start_with(&[("quiet", 0)], Some(fen));
    let rounds = [
        ["i9i7", "q9p9", "i17i16", "a9b9"],
        ["i7i9", "p9q9", "i16i17", "b9a9"],
    ];
    for i in 0..19 {
        for (seat, m) in rounds[i % 2].iter().enumerate() {
            t.play_for(seat, m, &mut Counter(1)).expect("legal");
        }
    }
    assert_eq!(t.resigns(0), Resigned::Out);
    assert_eq!(t.history().last().map(String::as_str), Some(SURRENDER));
    assert_eq!(t.progress().map(|p| p.seats[0].out), Some(true));
    assert!(t.result().is_none(), "North plays on");
    assert_eq!(t.seats_to_move(), vec![1]);
    let (_, recs) = t.move_records_for(Viewer::Spectator, t.plies() - 1);
    assert_eq!(
        recs[0].notations,
        vec![
            ("army".to_string(), "s".to_string()),
            ("out".to_string(), "s:surrender".to_string())
        ]
    );
    assert_eq!(
        t.draw_voters(),
        Some(vec![1, 2, 3]),
        "S11: those still in play"
    );
}

#[test]
fn s11_the_team_wins_when_both_enemy_armies_are_out() {
    // East's flag next to South's engineer; West has only its flag.
    let fen = "sGq7,sFh1,nFj17,nPi17,eFq8,ePq9,wFa10 s - 0 1";
    let mut t = start_with(&[], Some(fen));
    t.play_for(0, "q7q8", &mut Counter(1))
        .expect("takes the flag");
    // East out at once; North moves; West has no move and is out: over.
    assert!(t.result().is_none());
    t.play_for(2, "i17i16", &mut Counter(1)).expect("north");
    let o = t.result().expect("over");
    assert_eq!(o.winners(), vec![0, 2]);
    assert_eq!(o.reason, EndReason::Stalemate);
    assert!(
        o.explanation.contains("南方、北方获胜"),
        "{}",
        o.explanation
    );
    assert_eq!(t.placings(), None, "the hall ranks by the outcome");
    assert_eq!(o.placings(4), vec![vec![0, 2], vec![1, 3]]);
    let (_, recs) = t.move_records_for(Viewer::Spectator, 0);
    assert_eq!(
        recs[0].notations,
        vec![
            ("army".to_string(), "s".to_string()),
            ("clash".to_string(), "flag-taken".to_string()),
            ("path".to_string(), "q7 q8".to_string()),
            ("out".to_string(), "e:flag-taken".to_string())
        ]
    );
}

#[test]
fn ai_seats_play_whole_games_from_their_own_view() {
    let mut t = start_with(&[("quiet", 60)], None);
    for ply in 0..3000u32 {
        let Some(&seat) = t.seats_to_move().first() else {
            break;
        };
        let m = AiFor(SiguoAi)
            .choose(
                t.as_ref(),
                seat,
                1 + (ply % 8) as u8,
                Some(Duration::from_millis(2)),
            )
            .expect("a move");
        t.play_for(seat, &m, &mut Counter(ply))
            .expect("the AI's move is legal");
    }
    assert!(t.result().is_some(), "over within 3000 plies");
    assert!(
        tokens(&t.view(Viewer::Spectator))
            .iter()
            .all(|p| !p.contains('X'))
    );
}
