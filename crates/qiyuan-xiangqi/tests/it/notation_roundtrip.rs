//! Round trips of every legal move through WXF, Chinese and ICCS, and of each
//! position through FEN, over positions from random play and random set-ups
//! rich in doubled pieces (several pawns on a file, two chariots, cannons or
//! horses on a file, pawns doubled on two files).

use qiyuan_xiangqi::iccs::parse_iccs;
use qiyuan_xiangqi::notation::{parse_chinese, parse_wxf, to_chinese, to_wxf};
use qiyuan_xiangqi::{Class, Color, Move, PieceKind, Position, Square};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Checks every legal move of `pos`; returns how many were checked.
fn check_position(pos: &Position) -> usize {
    check_position_forms(pos, &mut Vec::new())
}

/// [`check_position`], also collecting the printed (WXF, Chinese) pairs.
fn check_position_forms(pos: &Position, printed: &mut Vec<(String, String)>) -> usize {
    let fen = pos.to_fen();
    let back = Position::from_fen(&fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    assert_eq!(&back, pos, "FEN round trip of {fen}");
    assert_eq!(back.to_fen(), fen);
    let legal = pos.legal_moves();
    let mut wxf_seen = Vec::new();
    for &m in &legal {
        let iccs = m.to_string();
        assert_eq!(parse_iccs(&iccs), Ok(m), "{fen}: ICCS {iccs}");
        assert_eq!(pos.parse_move(&iccs), Ok(m), "{fen}: ICCS {iccs}");
        let w = to_wxf(pos, m);
        assert_eq!(
            parse_wxf(pos, &w),
            Ok(m),
            "{fen}: move {iccs} printed as WXF {w}"
        );
        let c = to_chinese(pos, m);
        assert_eq!(
            parse_chinese(pos, &c),
            Ok(m),
            "{fen}: move {iccs} printed as Chinese {c}"
        );
        assert!(!wxf_seen.contains(&w), "{fen}: two moves print as {w}");
        wxf_seen.push(w.clone());
        printed.push((w, c));
    }
    legal.len()
}

/// Class-change suffixes (J22) on a few moves of a position.
fn check_class_suffixes(pos: &Position) {
    for &m in pos.legal_moves().iter().take(4) {
        for class in Class::ALL {
            let mc = m.with_class(class);
            let w = to_wxf(pos, mc);
            assert!(w.ends_with(class.mark()), "{w}");
            assert_eq!(parse_wxf(pos, &w), Ok(mc), "{w}");
            let c = to_chinese(pos, mc);
            assert!(c.ends_with(class.chinese()), "{c}");
            assert_eq!(parse_chinese(pos, &c), Ok(mc), "{c}");
        }
    }
}

#[test]
fn every_move_of_random_games_round_trips() {
    let mut rng = ChaCha8Rng::seed_from_u64(0x51_7a_4e);
    let mut positions = 0;
    let mut moves = 0;
    for game in 0..300 {
        let mut pos = Position::startpos();
        let plies = rng.random_range(0..150);
        for _ in 0..plies {
            let legal = pos.legal_moves();
            if legal.is_empty() {
                break;
            }
            let m = legal[rng.random_range(0..legal.len())];
            pos.make_move(m);
        }
        moves += check_position(&pos);
        if game % 10 == 0 {
            check_class_suffixes(&pos);
        }
        positions += 1;
    }
    assert_eq!(positions, 300);
    assert!(moves > 5000, "only {moves} moves checked");
}

/// The points a piece of `kind` and `color` may stand on.
fn home_points(color: Color, kind: PieceKind) -> Vec<Square> {
    Square::all()
        .filter(|s| {
            let (f, r) = (s.file(), s.rank());
            let own = color.own_half(r);
            let palace = (3..=5).contains(&f)
                && match color {
                    Color::Red => r <= 2,
                    Color::Black => r >= 7,
                };
            match kind {
                PieceKind::King | PieceKind::Advisor => palace,
                PieceKind::Elephant => own,
                PieceKind::Pawn => match color {
                    Color::Red => r >= 3,
                    Color::Black => r <= 6,
                },
                _ => true,
            }
        })
        .collect()
}

/// A random set-up that crowds pieces onto few files: pawns on one or two
/// files, chariots, cannons and horses often sharing a file.
fn random_setup(rng: &mut ChaCha8Rng) -> Option<Position> {
    let mut board: [[char; 9]; 10] = [['.'; 9]; 10];
    for color in [Color::Red, Color::Black] {
        let files: Vec<u8> = (0..3).map(|_| rng.random_range(0..9u8)).collect();
        // Pawns crowd onto one or two of those files.
        let pawn_files = files[..rng.random_range(1..=2)].to_vec();
        for kind in PieceKind::ALL {
            let files = if kind == PieceKind::Pawn {
                &pawn_files
            } else {
                &files
            };
            let count = match kind {
                PieceKind::King => 1,
                _ => rng.random_range(0..=kind.max_count()),
            };
            let homes = home_points(color, kind);
            for _ in 0..count {
                for _attempt in 0..20 {
                    // Mostly on the chosen files, so that pieces share them.
                    let sq = if kind != PieceKind::King && rng.random_bool(0.8) {
                        let on: Vec<&Square> =
                            homes.iter().filter(|s| files.contains(&s.file())).collect();
                        if on.is_empty() {
                            homes[rng.random_range(0..homes.len())]
                        } else {
                            *on[rng.random_range(0..on.len())]
                        }
                    } else {
                        homes[rng.random_range(0..homes.len())]
                    };
                    let cell = &mut board[sq.rank() as usize][sq.file() as usize];
                    if *cell == '.' {
                        let letter = kind.letter();
                        *cell = match color {
                            Color::Red => letter,
                            Color::Black => letter.to_ascii_lowercase(),
                        };
                        break;
                    }
                }
            }
        }
    }
    let mut fen = String::new();
    for rank in (0..10).rev() {
        let mut empty = 0;
        for &c in &board[rank] {
            if c == '.' {
                empty += 1;
            } else {
                if empty > 0 {
                    fen.push_str(&empty.to_string());
                    empty = 0;
                }
                fen.push(c);
            }
        }
        if empty > 0 {
            fen.push_str(&empty.to_string());
        }
        if rank > 0 {
            fen.push('/');
        }
    }
    fen.push_str(if rng.random_bool(0.5) { " w" } else { " b" });
    Position::from_fen(&fen).ok()
}

/// Whether some file holds `n` or more of one side's pieces of `kind`.
fn has_stack(pos: &Position, kind: PieceKind, n: usize) -> bool {
    [Color::Red, Color::Black].iter().any(|&c| {
        (0..9).any(|f| {
            (0..10)
                .filter_map(|r| Square::new(f, r))
                .filter(|&s| {
                    pos.piece_at(s)
                        .is_some_and(|p| p.color() == c && p.kind() == kind)
                })
                .count()
                >= n
        })
    })
}

fn pawn_stacked_files(pos: &Position, c: Color) -> usize {
    (0..9)
        .filter(|&f| {
            (0..10)
                .filter_map(|r| Square::new(f, r))
                .filter(|&s| {
                    pos.piece_at(s)
                        .is_some_and(|p| p.color() == c && p.kind() == PieceKind::Pawn)
                })
                .count()
                >= 2
        })
        .count()
}

#[test]
fn every_move_of_crowded_setups_round_trips() {
    let mut rng = ChaCha8Rng::seed_from_u64(0xd0_0b1e);
    let mut positions = 0;
    let mut tripled = 0;
    let mut four_plus = 0;
    let mut two_files = 0;
    let mut doubled_pieces = 0;
    let mut attempts = 0;
    let mut printed = Vec::new();
    while positions < 400 && attempts < 20_000 {
        attempts += 1;
        let Some(mut pos) = random_setup(&mut rng) else {
            continue;
        };
        // A few random moves, to mix in positions the set-up alone does not make.
        for _ in 0..rng.random_range(0..4) {
            let legal = pos.legal_moves();
            if legal.is_empty() {
                break;
            }
            let m: Move = legal[rng.random_range(0..legal.len())];
            pos.make_move(m);
        }
        check_position_forms(&pos, &mut printed);
        if positions % 20 == 0 {
            check_class_suffixes(&pos);
        }
        positions += 1;
        tripled += has_stack(&pos, PieceKind::Pawn, 3) as usize;
        four_plus += has_stack(&pos, PieceKind::Pawn, 4) as usize;
        two_files += [Color::Red, Color::Black]
            .iter()
            .any(|&c| pawn_stacked_files(&pos, c) >= 2) as usize;
        doubled_pieces += [PieceKind::Rook, PieceKind::Cannon, PieceKind::Horse]
            .iter()
            .any(|&k| has_stack(&pos, k, 2)) as usize;
    }
    eprintln!(
        "setups: {positions} ({attempts} tries), tripled {tripled}, 4+ {four_plus}, two files {two_files}, doubled pieces {doubled_pieces}"
    );
    assert_eq!(positions, 400, "too few valid set-ups");
    // Every tandem form was printed (and read back) somewhere.
    let wxf_form = |f: &dyn Fn(&[char]) -> bool| {
        printed
            .iter()
            .any(|(w, _)| f(&w.chars().collect::<Vec<_>>()))
    };
    let cn_form = |f: &dyn Fn(&[char]) -> bool| {
        printed
            .iter()
            .any(|(_, c)| f(&c.chars().collect::<Vec<_>>()))
    };
    assert!(wxf_form(&|w| w[0] == '+' && w[1] == '+'), "no ++ form");
    assert!(wxf_form(&|w| w[0] == '-' && w[1] == '-'), "no -- form");
    assert!(wxf_form(&|w| w[0] == 'P' && w[1] == '+'), "no P+ form");
    assert!(wxf_form(&|w| w[0] == 'P' && w[1] == '-'), "no P- form");
    assert!(
        wxf_form(&|w| "RHC".contains(w[0]) && "+-".contains(w[1])),
        "no R/H/C tandem"
    );
    assert!(
        wxf_form(&|w| w[0].is_ascii_digit() && "+-".contains(w[1])),
        "no 3+ form"
    );
    assert!(
        wxf_form(&|w| w[0].is_ascii_digit() && w[1] == w[0]),
        "no 33 form"
    );
    for d in ['前', '中', '后', '一', '二', '三', '四', '五'] {
        assert!(cn_form(&|c| c[0] == d), "no {d} form");
    }
    assert!(
        cn_form(&|c| c[0] == '中' && c[1] != '兵' && c[1] != '卒'),
        "no 中三 form"
    );
    // The set-ups must really exercise the tandem rules.
    assert!(tripled >= 40, "tripled pawns in only {tripled} positions");
    assert!(four_plus >= 10, "four or five pawns in only {four_plus}");
    assert!(
        two_files >= 40,
        "pawns doubled on two files in only {two_files}"
    );
    assert!(
        doubled_pieces >= 100,
        "doubled pieces in only {doubled_pieces}"
    );
}
