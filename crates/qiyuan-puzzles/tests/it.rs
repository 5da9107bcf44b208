//! Issue 40: the uniqueness checker on hand-written positions, and a tiny
//! generation run checked move by move.

use qiyuan_engine::Searcher;
use qiyuan_puzzles::generate::{GenConfig, generate};
use qiyuan_puzzles::verify::{
    CheckConfig, Kind, Reject, check_defence, check_mate_in, check_material,
};
use qiyuan_puzzles::{format_id, format_row, id_prefix, parse_row, replays};
use qiyuan_xiangqi::{Position, Variant};

fn pos(fen: &str) -> Position {
    Position::from_fen(fen).unwrap()
}

fn line(s: &[qiyuan_xiangqi::Move]) -> Vec<String> {
    s.iter().map(|m| m.to_string()).collect()
}

#[test]
fn two_mating_moves_are_rejected() {
    // a0a9 mates and b8f8 stalemates (a win too, X1): two solutions.
    let p = pos("4k4/1R7/9/9/9/9/9/9/9/R2K5 w - - 0 1");
    let r = check_mate_in(&p, 1, &CheckConfig::default(), &mut Searcher::new(1));
    match r {
        Err(Reject::TwoSolutions { ply: 0, moves }) => assert_eq!(line(&moves), ["a0a9", "b8f8"]),
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_shorter_mate_is_rejected() {
    // Mate in 1 (e1d1) presented as a mate in 2.
    let p = pos("3k5/9/9/9/9/9/8p/9/4R4/4K4 w - - 0 1");
    let r = check_mate_in(&p, 2, &CheckConfig::default(), &mut Searcher::new(1));
    assert_eq!(r.err(), Some(Reject::ShorterMate(1)));
    // Mate in 2 presented as a mate in 3.
    let p = pos("5k3/9/9/9/9/9/8p/9/1R7/3K5 w - - 0 1");
    let r = check_mate_in(&p, 3, &CheckConfig::default(), &mut Searcher::new(1));
    assert_eq!(r.err(), Some(Reject::ShorterMate(2)));
}

#[test]
fn a_hand_written_mate_in_one_is_accepted() {
    // The rook closes the d-file; the red general holds the e-file.
    let p = pos("3k5/9/9/9/9/9/8p/9/4R4/4K4 w - - 0 1");
    let s = check_mate_in(&p, 1, &CheckConfig::default(), &mut Searcher::new(1)).unwrap();
    assert_eq!(line(&s.line), ["e1d1"]);
    assert_eq!(s.kind, Kind::Mate(1));
}

#[test]
fn a_hand_written_mate_in_two_is_accepted() {
    // The quiet d0e0 takes the e-file from the black general on f9; whatever
    // black does, the rook mates on the next move.
    let p = pos("5k3/9/9/9/9/9/8p/9/1R7/3K5 w - - 0 1");
    let s = check_mate_in(&p, 2, &CheckConfig::default(), &mut Searcher::new(1)).unwrap();
    assert_eq!(s.kind, Kind::Mate(2));
    assert_eq!(s.line.len(), 3);
    assert_eq!(s.line[0].to_string(), "d0e0");
    let mut end = p.clone();
    for &m in &s.line {
        assert!(end.is_legal(m));
        end.make_move(m);
    }
    assert!(end.legal_moves().is_empty());
}

#[test]
fn a_hand_written_mate_in_three_is_exact() {
    // b1e1 first (every other first move needs longer), checked exhaustively.
    let p = pos("4k4/9/9/9/9/9/8p/9/1R7/3K5 w - - 0 1");
    let s = check_mate_in(&p, 3, &CheckConfig::default(), &mut Searcher::new(1)).unwrap();
    assert_eq!(s.kind, Kind::Mate(3));
    assert_eq!(s.line[0].to_string(), "b1e1");
    assert_eq!(s.line.len(), 5);
}

/// Re-checks a generated row: its moves replay from the fen, and the
/// checker finds the same first solver move as the only one.
fn recheck(variant: Variant, row: &str, cfg: &GenConfig) {
    let (id, p) = parse_row(row).expect("a well-formed row");
    assert!(id.starts_with(id_prefix(variant)));
    assert!(p.moves.len() >= 2 && p.moves.len() % 2 == 0, "{row}");
    assert!(replays(&p.fen, variant, &p.moves), "{row}");
    assert!((800..=2600).contains(&p.rating));
    let mut pos = Position::from_fen_variant(&p.fen, variant, None).unwrap();
    pos.make_move(pos.parse_move(&p.moves[0]).unwrap());
    let mut searcher = Searcher::new(16);
    let themes: Vec<&str> = p.themes.iter().map(String::as_str).collect();
    let mate = themes.iter().find_map(|t| match *t {
        "mate1" => Some(1),
        "mate2" => Some(2),
        "mate3" => Some(3),
        "mate4plus" => Some((p.moves.len() / 2) as u32),
        _ => None,
    });
    let solution = if let Some(n) = mate.or_else(|| {
        themes
            .contains(&"points")
            .then_some((p.moves.len() / 2) as u32)
    }) {
        check_mate_in(&pos, n, &cfg.check, &mut searcher)
    } else if themes.contains(&"material") {
        check_material(&pos, &cfg.check, &mut searcher)
    } else if themes.contains(&"defence") {
        check_defence(&pos, &cfg.check, &mut searcher)
    } else {
        panic!("no kind theme in {row}");
    };
    let s = solution.unwrap_or_else(|e| panic!("{row}: {e:?}"));
    assert_eq!(s.line[0].to_string(), p.moves[1], "{row}");
}

#[test]
fn a_tiny_generation_run_gives_valid_unique_reproducible_rows() {
    let cfg = GenConfig::new(Variant::Xiangqi, 3, 7);
    let puzzles = generate(&cfg, &|_| {});
    assert_eq!(puzzles.len(), 3);
    let rows: Vec<String> = puzzles
        .iter()
        .enumerate()
        .map(|(i, p)| format_row(&format_id("x", i as u64 + 1), p))
        .collect();
    for row in &rows {
        recheck(Variant::Xiangqi, row, &cfg);
    }
    // The same seed gives the same rows, with any number of threads.
    let mut again = cfg.clone();
    again.threads = 2;
    assert_eq!(generate(&again, &|_| {}), puzzles);
}

/// Issue 40: a random sample of every shipped set is re-checked from
/// scratch (`qiyuan_puzzles::recheck`): mates and Jifen targets proven
/// again along the stored line by the exact solver (no shorter win, one
/// winning move at every solver move, replies that hold out longest),
/// material and defence by the deep search of a new searcher. The
/// whole files pass `qiyuan puzzles check` (docs/puzzles.md).
#[test]
fn a_sample_of_every_shipped_set_passes_its_recheck() {
    let sets = [
        (
            include_str!("../../../data/puzzles/xiangqi.csv"),
            Variant::Xiangqi,
            150,
        ),
        (
            include_str!("../../../data/puzzles/jifen-simple.csv"),
            Variant::JifenSimple,
            30,
        ),
        (
            include_str!("../../../data/puzzles/jifen-match.csv"),
            Variant::JifenMatch,
            8,
        ),
    ];
    let mut rng = qiyuan_engine::rng::Rng::new(40);
    for (csv, variant, n) in sets {
        let rows: Vec<(String, qiyuan_puzzles::Puzzle)> =
            csv.lines().filter_map(parse_row).collect();
        assert!(rows.len() >= n, "{variant:?}: {} rows", rows.len());
        let cfg = qiyuan_puzzles::recheck::check_config(variant);
        let mut bad = Vec::new();
        let mut kinds = std::collections::BTreeSet::new();
        for _ in 0..n {
            let (id, p) = &rows[rng.below(rows.len() as u64) as usize];
            kinds.extend(
                p.themes
                    .iter()
                    .filter(|t| ["mate1", "mate2", "material", "defence"].contains(&t.as_str())),
            );
            if let Err(why) = qiyuan_puzzles::recheck::recheck(variant, p, &cfg) {
                bad.push(format!("{id}: {why}"));
            }
        }
        assert!(bad.is_empty(), "{variant:?}: {bad:?}");
        if variant == Variant::Xiangqi {
            // The sample reaches every kind of check.
            assert_eq!(kinds.len(), 4, "{kinds:?}");
        }
    }
}

#[test]
fn a_finished_games_scan_finds_its_blunder_and_stops_at_a_bad_move() {
    use qiyuan_puzzles::generate::scan_game;
    // Black's last move f8d8 shuts its general in: b6e6 mates, the only mate.
    let moves: Vec<String> = [
        "b2b6", "h7d7", "c0a2", "d7d1", "h2h4", "a6a5", "i0i1", "b7b8", "h4h7", "b8f8", "h7e7",
        "f8d8",
    ]
    .iter()
    .map(|m| m.to_string())
    .collect();
    let start = Position::from_fen_variant(qiyuan_xiangqi::START_FEN, Variant::Xiangqi, None)
        .expect("start");
    let cfg = GenConfig::new(Variant::Xiangqi, 1, 0);
    let mut searcher = Searcher::new(16);
    let found = scan_game(&cfg, &mut searcher, start.clone(), &moves);
    let last = found.last().expect("a puzzle");
    assert_eq!(last.moves, ["f8d8", "b6e6"]);
    assert!(last.themes.contains(&"mate1".to_string()), "{last:?}");
    let mut before = start.clone();
    for m in &moves[..11] {
        let mv = before.parse_move(m).expect("legal");
        before.make_move(mv);
    }
    assert_eq!(last.fen, before.to_fen());
    // The same game read again gives the same puzzles.
    assert_eq!(scan_game(&cfg, &mut searcher, start.clone(), &moves), found);
    // A move that does not parse ends the game before the blunder.
    let mut cut = moves.clone();
    cut[11] = "z9z9".into();
    let early = scan_game(&cfg, &mut searcher, start, &cut);
    assert!(early.iter().all(|p| p.moves[0] != "f8d8"), "{early:?}");
}
