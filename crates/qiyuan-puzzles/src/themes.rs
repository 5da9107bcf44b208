//! Puzzle themes: the length of a forced win, the kind of win, and the
//! classic mating patterns (杀法) recognised by their geometry in the final
//! position (the defender to move, with no legal move).
//!
//! Tags are ASCII and fixed; [`THEMES`] maps each to its Chinese and English
//! names so the page can show them in either language.

use qiyuan_xiangqi::{Class, Color, PieceKind, Position, Square};

/// Every theme tag with its Chinese and English names, in display order.
pub const THEMES: &[(&str, &str, &str)] = &[
    ("mate1", "一步杀", "Mate in 1"),
    ("mate2", "两步杀", "Mate in 2"),
    ("mate3", "三步杀", "Mate in 3"),
    ("mate4plus", "四步及以上杀", "Mate in 4 or more"),
    ("double-cannon", "重炮杀", "Double cannon"),
    ("smothered", "闷宫", "Smothered palace"),
    ("horse-corner", "卧槽马", "Horse at the corner"),
    ("horse-cannon", "马后炮", "Cannon behind horse"),
    ("iron-bolt", "铁门栓", "Iron bolt"),
    ("facing-generals", "白脸将", "Facing generals"),
    ("stalemate", "困毙", "Stalemate"),
    ("material", "得子", "Win material"),
    ("defence", "解杀还击", "Only defence"),
    ("endgame", "残局", "Endgame"),
    ("points", "积分抢先", "Points race"),
];

/// The mate-length tag for a forced mate in `n` moves.
pub fn mate_tag(n: u32) -> &'static str {
    match n {
        0 | 1 => "mate1",
        2 => "mate2",
        3 => "mate3",
        _ => "mate4plus",
    }
}

/// Whether a piece of this class can give check (an Idle piece captures nothing, J4).
fn can_attack(class: Class) -> bool {
    class != Class::Idle
}

/// The pieces of `by` that attack `sq`, with their kinds.
fn checkers(pos: &Position, sq: Square, by: Color) -> Vec<(Square, PieceKind)> {
    pos.attacking_pieces(sq, by)
        .filter(|(_, p)| can_attack(p.class()))
        .map(|(s, p)| (s, p.kind()))
        .collect()
}

/// The four orthogonal steps.
const DIRS: [(i8, i8); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];

fn step(sq: Square, d: (i8, i8), n: i8) -> Option<Square> {
    let f = sq.file() as i8 + d.0 * n;
    let r = sq.rank() as i8 + d.1 * n;
    if (0..9).contains(&f) && (0..10).contains(&r) {
        Square::new(f as u8, r as u8)
    } else {
        None
    }
}

/// The occupied squares along a line from `from` (excluded), nearest first.
fn ray(pos: &Position, from: Square, d: (i8, i8)) -> Vec<Square> {
    (1..10)
        .map_while(|n| step(from, d, n))
        .filter(|&s| pos.piece_at(s).is_some())
        .collect()
}

fn in_palace(sq: Square, color: Color) -> bool {
    (3..=5).contains(&sq.file())
        && match color {
            Color::Red => sq.rank() <= 2,
            Color::Black => sq.rank() >= 7,
        }
}

fn is(pos: &Position, sq: Square, color: Color, kind: PieceKind) -> bool {
    pos.piece_at(sq)
        .is_some_and(|p| p.color() == color && p.kind() == kind && can_attack(p.class()))
}

/// The direction from `a` to `b` along a file or rank, if they share one.
fn line_dir(a: Square, b: Square) -> Option<(i8, i8)> {
    if a == b {
        None
    } else if a.file() == b.file() {
        Some((0, (b.rank() as i8 - a.rank() as i8).signum()))
    } else if a.rank() == b.rank() {
        Some(((b.file() as i8 - a.file() as i8).signum(), 0))
    } else {
        None
    }
}

/// 重炮: two cannons on one line with the defender's general, the nearer
/// one the screen through which the farther one checks.
pub fn double_cannon(pos: &Position, defender: Color) -> bool {
    let k = pos.king_square(defender);
    let att = defender.flip();
    DIRS.iter().any(|&d| {
        let r = ray(pos, k, d);
        r.len() >= 2
            && is(pos, r[0], att, PieceKind::Cannon)
            && is(pos, r[1], att, PieceKind::Cannon)
    })
}

/// 闷宫: a cannon checks and the general is walled in by its own pieces:
/// every palace point beside it holds one of its own pieces or lies on the
/// checking line, and at least two are its own pieces.
pub fn smothered(pos: &Position, defender: Color) -> bool {
    let k = pos.king_square(defender);
    let att = defender.flip();
    checkers(pos, k, att)
        .iter()
        .filter(|&&(_, kind)| kind == PieceKind::Cannon)
        .any(|&(c, _)| {
            let Some(check_dir) = line_dir(k, c) else {
                return false;
            };
            let mut own = 0;
            for d in DIRS {
                let Some(n) = step(k, d, 1).filter(|&s| in_palace(s, defender)) else {
                    continue;
                };
                if pos.piece_at(n).is_some_and(|p| p.color() == defender) {
                    own += 1;
                } else if d != check_dir {
                    return false;
                }
            }
            own >= 2
        })
}

/// 卧槽马: a horse checks from the defender's "trough": the third or
/// seventh file, on the rank in front of the defender's back rank.
pub fn horse_corner(pos: &Position, defender: Color) -> bool {
    let k = pos.king_square(defender);
    let second_rank = match defender {
        Color::Red => 1,
        Color::Black => 8,
    };
    checkers(pos, k, defender.flip()).iter().any(|&(s, kind)| {
        kind == PieceKind::Horse && matches!(s.file(), 2 | 6) && s.rank() == second_rank
    })
}

/// 马后炮: a cannon checks with the attacker's own horse as its screen, the
/// horse standing two points from the general on that line (it guards the
/// points beside the general).
pub fn horse_cannon(pos: &Position, defender: Color) -> bool {
    let k = pos.king_square(defender);
    let att = defender.flip();
    DIRS.iter().any(|&d| {
        let r = ray(pos, k, d);
        r.len() >= 2
            && is(pos, r[0], att, PieceKind::Horse)
            && step(k, d, 2) == Some(r[0])
            && is(pos, r[1], att, PieceKind::Cannon)
    })
}

/// 铁门栓: a chariot checks a general standing beside the central file,
/// while a cannon on the central file bears (through one screen) on the
/// central point of the general's rank, its way out.
pub fn iron_bolt(pos: &Position, defender: Color) -> bool {
    let k = pos.king_square(defender);
    let att = defender.flip();
    if k.file() == 4 {
        return false;
    }
    let rook_checks = checkers(pos, k, att)
        .iter()
        .any(|&(_, kind)| kind == PieceKind::Rook);
    let Some(centre) = Square::new(4, k.rank()) else {
        return false;
    };
    rook_checks
        && [(0, 1), (0, -1)].iter().any(|&d| {
            // From the centre point outwards along the file: a screen, then the cannon.
            let r = ray(pos, centre, d);
            r.len() >= 2 && is(pos, r[1], att, PieceKind::Cannon)
        })
}

/// 白脸将: the attacker's general, alone on its file up to a point beside the
/// defender's general, takes that point away (generals may not face each other).
pub fn facing_generals(pos: &Position, defender: Color) -> bool {
    let k = pos.king_square(defender);
    let ak = pos.king_square(defender.flip());
    if ak.file() == k.file() {
        return false;
    }
    [(1, 0), (-1, 0)].iter().any(|&d| {
        let Some(n) = step(k, d, 1).filter(|&s| in_palace(s, defender)) else {
            return false;
        };
        if n.file() != ak.file() || pos.piece_at(n).is_some_and(|p| p.color() == defender) {
            return false;
        }
        // Nothing between the attacker's general and that point.
        let dir = (0, (n.rank() as i8 - ak.rank() as i8).signum());
        (1..)
            .map_while(|i| step(ak, dir, i))
            .take_while(|&s| s != n)
            .all(|s| pos.piece_at(s).is_none())
    })
}

/// A mating-pattern test: the final position and the mated side.
type Pattern = fn(&Position, Color) -> bool;

/// The mating-pattern tags that apply to `pos`, a final position in which
/// `defender` (to move) has no legal move.
pub fn mate_patterns(pos: &Position, defender: Color) -> Vec<&'static str> {
    let mut out = Vec::new();
    if !pos.royal_attacked(defender) {
        out.push("stalemate");
        return out;
    }
    let checks: [(&str, Pattern); 6] = [
        ("double-cannon", double_cannon),
        ("smothered", smothered),
        ("horse-corner", horse_corner),
        ("horse-cannon", horse_cannon),
        ("iron-bolt", iron_bolt),
        ("facing-generals", facing_generals),
    ];
    for (tag, f) in checks {
        if f(pos, defender) {
            out.push(tag);
        }
    }
    out
}

/// Whether `pos` is an endgame (残局): at most seven chariots, horses,
/// cannons and soldiers left on the board, both sides together.
pub fn is_endgame(pos: &Position) -> bool {
    let strong = |c: Color| {
        pos.pieces(c)
            .filter(|(_, p)| {
                matches!(
                    p.kind(),
                    PieceKind::Rook | PieceKind::Horse | PieceKind::Cannon | PieceKind::Pawn
                )
            })
            .count()
    };
    strong(Color::Red) + strong(Color::Black) <= 7
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(fen: &str) -> Position {
        Position::from_fen(fen).unwrap()
    }

    fn mated(fen: &str) -> Position {
        let p = pos(fen);
        assert_eq!(p.legal_moves().len(), 0, "not a final position: {fen}");
        p
    }

    #[test]
    fn double_cannon_is_two_cannons_on_the_generals_file() {
        // Black general e9, advisors d9 f9; red cannons e7 and e5; red general d0.
        let p = mated("3aka3/9/4C4/9/4C4/9/9/9/9/3K5 b - - 0 1");
        assert!(double_cannon(&p, Color::Black));
        assert!(mate_patterns(&p, Color::Black).contains(&"double-cannon"));
        // One cannon and a rook as the screen is not 重炮.
        let p = pos("3aka3/9/4R4/9/4C4/9/9/9/9/3K5 b - - 0 1");
        assert!(!double_cannon(&p, Color::Black));
    }

    #[test]
    fn smothered_is_a_cannon_check_with_the_palace_full() {
        // Black general e9 walled in by its advisors d9 e8 and its horse f9;
        // the red cannon a9 checks along the back rank through the d9 advisor.
        let p = mated("C2akn3/4a4/9/9/9/9/9/9/9/3K5 b - - 0 1");
        assert!(smothered(&p, Color::Black));
        assert!(mate_patterns(&p, Color::Black).contains(&"smothered"));
        // Without the horse f9 is a way out: not 闷宫.
        let p = pos("C2ak4/4a4/9/9/9/9/9/9/9/3K5 b - - 0 1");
        assert!(!smothered(&p, Color::Black));
    }

    #[test]
    fn horse_corner_is_a_horse_check_from_c8_or_g8() {
        // Black general e9, advisors d9 f9 hem it in; red horse g8 checks (leg f8
        // free); the red soldier e7 holds e8.
        let p = mated("3aka3/6N2/4P4/9/9/9/9/9/9/5K3 b - - 0 1");
        assert!(horse_corner(&p, Color::Black));
        assert!(mate_patterns(&p, Color::Black).contains(&"horse-corner"));
        // A horse checking from f7 is not 卧槽.
        let p = pos("3aka3/9/5N3/9/9/9/9/9/9/3K5 b - - 0 1");
        assert!(!horse_corner(&p, Color::Black));
    }

    #[test]
    fn horse_cannon_is_a_cannon_screened_by_its_horse_two_points_away() {
        // Black general e9; red horse e7, red cannon e5 checks through it.
        let p = pos("4k4/9/4N4/9/4C4/9/9/9/9/3K5 b - - 0 1");
        assert!(horse_cannon(&p, Color::Black));
        // The horse right next to the general is not 马后炮.
        let p = pos("4k4/4N4/9/9/4C4/9/9/9/9/3K5 b - - 0 1");
        assert!(!horse_cannon(&p, Color::Black));
    }

    #[test]
    fn iron_bolt_is_a_rook_check_with_a_central_cannon() {
        // Black general d9; the red rook d5 checks along the d-file; the red
        // cannon e5 bears on e9 through black's elephant e7.
        let p = pos("3k5/9/4b4/9/3RC4/9/9/9/9/5K3 b - - 0 1");
        assert!(iron_bolt(&p, Color::Black));
        // Without the screen the cannon does not bear on e9.
        let p = pos("3k5/9/9/9/3RC4/9/9/9/9/5K3 b - - 0 1");
        assert!(!iron_bolt(&p, Color::Black));
    }

    #[test]
    fn facing_generals_is_the_attacking_general_taking_a_point() {
        // Black general e9; red general d0 on the open d-file takes d9; the
        // red rook e2 checks along the e-file.
        let p = pos("4k4/9/9/9/9/9/9/4R4/9/3K5 b - - 0 1");
        assert!(facing_generals(&p, Color::Black));
        // A piece on the d-file between them: the general no longer covers d9.
        let p = pos("4k4/9/9/3p5/9/9/9/4R4/9/3K5 b - - 0 1");
        assert!(!facing_generals(&p, Color::Black));
    }

    #[test]
    fn stalemate_is_tagged_apart() {
        // Black general d9 not in check; the red rook c8 covers rank 8 and
        // the red general e0 the e-file: no move.
        let p = mated("3k5/2R6/9/9/9/9/9/9/9/4K4 b - - 0 1");
        assert_eq!(mate_patterns(&p, Color::Black), ["stalemate"]);
    }

    #[test]
    fn endgame_counts_the_fighting_pieces() {
        assert!(!is_endgame(&Position::startpos()));
        assert!(is_endgame(&pos("3k5/2R6/9/9/9/9/9/9/9/4K4 b - - 0 1")));
    }
}
