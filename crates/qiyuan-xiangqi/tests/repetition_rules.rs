//! 棋例: a table of repetition cases (X2, X3, J19). Each case is a start
//! position, a move cycle played until the start position occurs for the third
//! time, and the expected ruling; the comment names the principle it tests:
//!
//! - P1: one-sided perpetual check is never allowed (mutual: draw);
//! - P2: both sides' moves allowed: draw;
//! - P3: both sides' moves forbidden (no perpetual check): draw;
//! - P4: one side forbidden, the other allowed: the forbidden side loses.
//!
//! Every Xiangqi case also runs mirrored (files a<->i) and with the colours
//! swapped (board turned round), which must give the mirrored ruling: the
//! rules have no favourite side or wing, and the code must not either.

use qiyuan_core::{EndReason, GameRules};
use qiyuan_xiangqi::{Game, Position, Variant};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Expect {
    RedLoses(EndReason),
    BlackLoses(EndReason),
    Draw,
    /// No ruling: the game goes on (Jifen: scores changed, J19).
    NoRuling,
}
use Expect::*;

struct Case {
    name: &'static str,
    variant: Variant,
    fen: &'static str,
    /// One cycle; it is played twice, so the start position occurs a third time.
    cycle: &'static str,
    expect: Expect,
}

const CHECK: EndReason = EndReason::PerpetualCheck;
const CHASE: EndReason = EndReason::PerpetualChase;

fn cases() -> Vec<Case> {
    let x = Variant::Xiangqi;
    vec![
        // P1: the chariot checks on rank 9 and rank 8 in turn; the general steps
        // d9-d8-d9 (idle). Red checks with every move: red loses.
        Case {
            name: "chariot perpetual check",
            variant: x,
            fen: "3k5/R8/9/9/9/9/9/9/9/4K4 w",
            cycle: "a8a9 d9d8 a9a8 d8d9",
            expect: RedLoses(CHECK),
        },
        // P1: a horse checks from c8 and from e7 in turn.
        Case {
            name: "horse perpetual check",
            variant: x,
            fen: "4k4/9/4N4/9/9/9/9/9/9/5K3 w",
            cycle: "e7c8 e9d9 c8e7 d9e9",
            expect: RedLoses(CHECK),
        },
        // P1 over P3: red checks every move; each black general move uncovers a
        // black chariot's threat on the unprotected red chariot (a chase every
        // move). Perpetual check is excluded from "both forbidden": the checker loses.
        Case {
            name: "check against chase: the checker loses",
            variant: x,
            fen: "3k1r3/R4r3/9/9/9/9/9/9/9/4K4 w",
            cycle: "a8a9 d9d8 a9a8 d8d9",
            expect: RedLoses(CHECK),
        },
        // P2: both sides shuffle without threats: draw.
        Case {
            name: "idle against idle",
            variant: x,
            fen: "3k5/9/9/9/9/9/9/9/9/R3K4 w",
            cycle: "a0a1 d9d8 a1a0 d8d9",
            expect: Draw,
        },
        // P3: each chariot keeps attacking an unprotected horse from a new
        // point every move (red f7/g7 -> a7, black i2/h2 -> a2): both chase: draw.
        Case {
            name: "mutual perpetual chase",
            variant: x,
            fen: "3k5/9/n4R3/9/9/9/9/N7r/9/4K4 w",
            cycle: "f7g7 i2h2 g7f7 h2i2",
            expect: Draw,
        },
        // P4: the red chariot moves along rank 7 and keeps attacking the
        // unprotected black horse on a7 (a piece that moves and keeps chasing).
        Case {
            name: "chariot chases an unprotected horse",
            variant: x,
            fen: "3k5/9/n4R3/9/9/9/9/9/9/4K4 w",
            cycle: "f7g7 d9d8 g7f7 d8d9",
            expect: RedLoses(CHASE),
        },
        // P4: the same against an unprotected cannon.
        Case {
            name: "chariot chases an unprotected cannon",
            variant: x,
            fen: "3k5/9/c4R3/9/9/9/9/9/9/4K4 w",
            cycle: "f7g7 d9d8 g7f7 d8d9",
            expect: RedLoses(CHASE),
        },
        // P4: a cannon keeps attacking (over the c7 horse) a chariot protected by
        // the b9 horse: a cannon after a protected chariot is a chase (the
        // chariot is worth more).
        Case {
            name: "cannon chases a protected chariot",
            variant: x,
            fen: "1n1k5/9/r1n3C2/9/9/9/9/9/9/4K4 w",
            cycle: "g7h7 d9d8 h7g7 d8d9",
            expect: RedLoses(CHASE),
        },
        // P2: a chariot keeps attacking a horse protected by the a9 chariot:
        // a chariot after a protected horse is not a chase. Draw.
        Case {
            name: "chariot after a protected horse is allowed",
            variant: x,
            fen: "r2k5/9/n4R3/9/9/9/9/9/9/4K4 w",
            cycle: "f7g7 d9d8 g7f7 d8d9",
            expect: Draw,
        },
        // P2: likewise a protected cannon.
        Case {
            name: "chariot after a protected cannon is allowed",
            variant: x,
            fen: "r2k5/9/c4R3/9/9/9/9/9/9/4K4 w",
            cycle: "f7g7 d9d8 g7f7 d8d9",
            expect: Draw,
        },
        // P4: the horse on a7 "protected" by the d7 chariot is not protected:
        // that chariot is pinned against its general by the d0 chariot. The a0/a1
        // chariot's threat is a chase.
        Case {
            name: "a pinned defender does not protect",
            variant: x,
            fen: "3k5/9/n2r5/9/9/9/9/9/9/R2RK4 w",
            cycle: "a0a1 d9d8 a1a0 d8d9",
            expect: RedLoses(CHASE),
        },
        // P2: the same without the pin: the horse is protected, no chase. Draw.
        Case {
            name: "an unpinned defender protects",
            variant: x,
            fen: "3k5/9/n2r5/9/9/9/9/9/9/R3K4 w",
            cycle: "a0a1 d9d8 a1a0 d8d9",
            expect: Draw,
        },
        // P4: the red horse hops b7-a5-b7, each time uncovering a different red
        // chariot's line onto the black horse on a7 (discovered chases).
        Case {
            name: "chase through discovered lines",
            variant: x,
            fen: "5k3/9/nN6R/9/9/9/9/9/9/R3K4 w",
            cycle: "b7a5 f9f8 a5b7 f8f9",
            expect: RedLoses(CHASE),
        },
        // P2: the red general attacks the black cannon every move (e1 hits d1,
        // e2 hits d2); threats by the general are idle. Draw.
        Case {
            name: "the general chasing is idle",
            variant: x,
            fen: "3k5/9/9/9/9/9/9/4K4/3c5/9 w",
            cycle: "e2e1 d1d2 e1e2 d2d1",
            expect: Draw,
        },
        // P4 (长将长捉): the chariot checks from f7 and chases the a7 horse from
        // g7, in turn; checks plus chases of one target are forbidden.
        Case {
            name: "alternating check and chase",
            variant: x,
            fen: "5k3/9/n5R2/9/9/9/9/9/9/3K5 w",
            cycle: "g7f7 f9e9 f7g7 e9f9",
            expect: RedLoses(CHASE),
        },
        // P2: a chase that stops: the chariot attacks the horse on one move and
        // not on the next (g7 then g6), so red's moves are not all chases. Draw.
        Case {
            name: "an intermittent chase is allowed",
            variant: x,
            fen: "3k5/9/n5R2/9/9/9/9/9/9/4K4 w",
            cycle: "g7g6 d9d8 g6g7 d8d9",
            expect: Draw,
        },
        // P4: a horse keeps attacking the unprotected black chariot from two
        // points while the chariot shuttles a8-a7 (the target moves).
        Case {
            name: "horse chases a moving chariot",
            variant: x,
            fen: "4k4/r8/9/9/1N7/9/9/9/9/2R2K3 w",
            cycle: "b5c7 a8a7 c7b5 a7a8",
            expect: RedLoses(CHASE),
        },
        // P2: pawns threatening are idle: the red pawn attacks the black chariot
        // from d5 and from e5 in turn as the chariot shuttles d6-e6. Draw.
        Case {
            name: "pawn chasing is idle",
            variant: x,
            fen: "3k5/9/9/3r5/4P4/9/9/9/5K3/9 w",
            cycle: "e5d5 d6e6 d5e5 e6d6",
            expect: Draw,
        },
    ]
}

fn jifen_cases() -> Vec<Case> {
    vec![
        // J19 + P1: perpetual check is forbidden in simple rules even though
        // every check scores -1 for red.
        Case {
            name: "simple: perpetual check while scores change",
            variant: Variant::JifenSimple,
            fen: "3k5/R8/9/9/9/9/9/9/9/4K4 w - - 0 1 0 0 1 -",
            cycle: "a8a9 d9d8 a9a8 d8d9",
            expect: RedLoses(CHECK),
        },
        // J19 + P1: match rules, each check gives black +2; still forbidden.
        Case {
            name: "match: perpetual check while scores change",
            variant: Variant::JifenMatch,
            fen: "3k5/R8/9/9/9/9/9/9/9/4K4 w - - 0 1 0 0 1 -",
            cycle: "a8a9 d9d8 a9a8 d8d9",
            expect: RedLoses(CHECK),
        },
        // J19 + P1: contest rules, a Small chariot checks (it may capture a
        // Normal general); the general's moves give red +1 each.
        Case {
            name: "contest: perpetual check with a Small chariot",
            variant: Variant::JifenContest,
            fen: "3k5/R-8/9/9/9/9/9/9/9/4K4 w - - 0 9 0 0 1 x",
            cycle: "a8a9 d9d8 a9a8 d8d9",
            expect: RedLoses(CHECK),
        },
        // J19 + P2: simple rules, Normal pieces score nothing: no score change
        // in the cycle, so the repetition is a draw.
        Case {
            name: "simple: idle repetition without score change",
            variant: Variant::JifenSimple,
            fen: "3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1 0 0 1 -",
            cycle: "a0a1 d9d8 a1a0 d8d9",
            expect: Draw,
        },
        // J19: simple rules, Idle pieces score +1 a move: scores are progress,
        // so the same repetition is not ruled and the game goes on.
        Case {
            name: "simple: idle repetition with score change",
            variant: Variant::JifenSimple,
            fen: "3k*5/9/9/9/9/9/9/9/9/R*3K4 w - - 0 1 0 0 1 -",
            cycle: "a0a1 d9d8 a1a0 d8d9",
            expect: NoRuling,
        },
        // J19 + P4: simple rules, a Normal chariot chases an unprotected horse,
        // nobody scores: red loses as in Xiangqi.
        Case {
            name: "simple: perpetual chase without score change",
            variant: Variant::JifenSimple,
            fen: "3k5/9/n4R3/9/9/9/9/9/9/4K4 w - - 0 1 0 0 1 -",
            cycle: "f7g7 d9d8 g7f7 d8d9",
            expect: RedLoses(CHASE),
        },
        // J19: match rules, the same chase scores a point a move: no ruling.
        Case {
            name: "match: perpetual chase with score change",
            variant: Variant::JifenMatch,
            fen: "3k5/9/n4R3/9/9/9/9/9/9/4K4 w - - 0 1 0 0 1 -",
            cycle: "f7g7 d9d8 g7f7 d8d9",
            expect: NoRuling,
        },
        // J19 + P1: contest double-move phase: black's second moves are passes
        // (0000), red checks; the position includes the turn state.
        Case {
            name: "contest: perpetual check in the double-move phase",
            variant: Variant::JifenContest,
            fen: "3k5/R-8/9/9/9/9/9/9/9/4K4 w - - 0 5 0 0 1 -",
            cycle: "a8a9 d9d8 0000 a9a8 d8d9 0000",
            expect: RedLoses(CHECK),
        },
    ]
}

/// Turns a square (ICCS) by `f`.
fn map_square(s: &str, f: &dyn Fn(u8, u8) -> (u8, u8)) -> String {
    let b = s.as_bytes();
    let (file, rank) = f(b[0] - b'a', b[1] - b'0');
    format!("{}{}", (b'a' + file) as char, rank)
}

fn map_moves(cycle: &str, f: &dyn Fn(u8, u8) -> (u8, u8)) -> String {
    cycle
        .split_whitespace()
        .map(|m| {
            if m == "0000" {
                m.to_string()
            } else {
                format!(
                    "{}{}{}",
                    map_square(&m[0..2], f),
                    map_square(&m[2..4], f),
                    &m[4..]
                )
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The board as a 10x9 grid of FEN tokens (a letter with its class mark).
fn grid(board: &str) -> Vec<Vec<Option<String>>> {
    board
        .split('/')
        .map(|row| {
            let mut out = Vec::new();
            let mut chars = row.chars().peekable();
            while let Some(c) = chars.next() {
                if let Some(d) = c.to_digit(10) {
                    out.extend(std::iter::repeat_n(None, d as usize));
                } else {
                    let mut t = c.to_string();
                    if let Some(&m) = chars.peek()
                        && "-+*".contains(m)
                    {
                        t.push(m);
                        chars.next();
                    }
                    out.push(Some(t));
                }
            }
            out
        })
        .collect()
}

fn board_string(g: &[Vec<Option<String>>]) -> String {
    g.iter()
        .map(|row| {
            let mut s = String::new();
            let mut empty = 0;
            for cell in row {
                match cell {
                    None => empty += 1,
                    Some(t) => {
                        if empty > 0 {
                            s += &empty.to_string();
                            empty = 0;
                        }
                        s += t;
                    }
                }
            }
            if empty > 0 {
                s += &empty.to_string();
            }
            s
        })
        .collect::<Vec<_>>()
        .join("/")
}

/// Files a<->i.
fn mirror(case: &Case) -> (String, String, Expect) {
    let mut parts: Vec<String> = case.fen.split_whitespace().map(String::from).collect();
    let mut g = grid(&parts[0]);
    for row in &mut g {
        row.reverse();
    }
    parts[0] = board_string(&g);
    (
        parts.join(" "),
        map_moves(case.cycle, &|f, r| (8 - f, r)),
        case.expect,
    )
}

/// The board turned round with the colours swapped: black plays red's part.
fn swap_colours(case: &Case) -> (String, String, Expect) {
    let mut parts: Vec<String> = case.fen.split_whitespace().map(String::from).collect();
    let mut g = grid(&parts[0]);
    g.reverse();
    for row in &mut g {
        row.reverse();
        for cell in row.iter_mut().flatten() {
            let swapped: String = cell
                .chars()
                .map(|c| {
                    if c.is_ascii_uppercase() {
                        c.to_ascii_lowercase()
                    } else {
                        c.to_ascii_uppercase()
                    }
                })
                .collect();
            *cell = swapped;
        }
    }
    parts[0] = board_string(&g);
    parts[1] = if parts[1] == "w" {
        "b".into()
    } else {
        "w".into()
    };
    let expect = match case.expect {
        RedLoses(r) => BlackLoses(r),
        BlackLoses(r) => RedLoses(r),
        e => e,
    };
    (
        parts.join(" "),
        map_moves(case.cycle, &|f, r| (8 - f, 9 - r)),
        expect,
    )
}

/// Plays the cycle twice and checks the ruling arrives exactly at the end.
fn run(name: &str, variant: Variant, fen: &str, cycle: &str, expect: Expect) -> Result<(), String> {
    let start = Position::from_fen_variant(fen, variant, None)
        .map_err(|e| format!("{name}: {fen}: {e}"))?;
    let mut g = Game::new(start);
    let moves: Vec<&str> = cycle.split_whitespace().collect();
    let total = moves.len() * 2;
    for (i, m) in moves.iter().cycle().take(total).enumerate() {
        if let Some(o) = g.outcome() {
            return Err(format!("{name}: game ended early after {i} moves: {o:?}"));
        }
        g.play(m)
            .map_err(|e| format!("{name}: move {} {m}: {e} ({})", i + 1, g.fen()))?;
    }
    let got = g.outcome().map(|o| match o.winner {
        Some(0) => BlackLoses(o.reason),
        Some(_) => RedLoses(o.reason),
        None => {
            assert_eq!(o.reason, EndReason::Repetition, "{name}: {o:?}");
            Draw
        }
    });
    let got = got.unwrap_or(NoRuling);
    if got != expect {
        return Err(format!(
            "{name}: expected {expect:?}, got {got:?} ({:?}) [{fen} | {cycle}]",
            g.outcome().map(|o| o.explanation.clone())
        ));
    }
    if let Some(o) = g.outcome() {
        assert!(
            o.explanation.contains(" / "),
            "bilingual explanation: {}",
            o.explanation
        );
    }
    Ok(())
}

#[test]
fn xiangqi_repetition_table() {
    let mut failures = Vec::new();
    let mut count = 0;
    for case in cases() {
        let variants = [
            (
                case.fen.to_string(),
                case.cycle.to_string(),
                case.expect,
                "as given",
            ),
            {
                let (f, c, e) = mirror(&case);
                (f, c, e, "mirrored")
            },
            {
                let (f, c, e) = swap_colours(&case);
                (f, c, e, "colours swapped")
            },
        ];
        for (fen, cycle, expect, how) in variants {
            count += 1;
            if let Err(e) = run(
                &format!("{} ({how})", case.name),
                case.variant,
                &fen,
                &cycle,
                expect,
            ) {
                failures.push(e);
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {count} failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(count >= 40, "{count} cases");
}

#[test]
fn jifen_repetition_table() {
    let mut failures = Vec::new();
    for case in jifen_cases() {
        if let Err(e) = run(case.name, case.variant, case.fen, case.cycle, case.expect) {
            failures.push(e);
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn rulings_state_their_reason() {
    let mut g = Game::new(Position::from_fen("3k5/R8/9/9/9/9/9/9/9/4K4 w").unwrap());
    for m in "a8a9 d9d8 a9a8 d8d9 a8a9 d9d8 a9a8 d8d9".split_whitespace() {
        g.play(m).unwrap();
    }
    let o = g.outcome().unwrap();
    assert_eq!(
        o.explanation,
        "红方长将, 判负 / red perpetual check: red loses"
    );
}

#[test]
fn the_second_occurrence_is_not_yet_judged() {
    let mut g = Game::new(Position::from_fen("3k5/R8/9/9/9/9/9/9/9/4K4 w").unwrap());
    for m in "a8a9 d9d8 a9a8 d8d9".split_whitespace() {
        g.play(m).unwrap();
    }
    assert!(g.outcome().is_none());
    assert_eq!(g.history().occurrences(), 2);
}
