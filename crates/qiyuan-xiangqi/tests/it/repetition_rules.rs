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
    /// Moves played once before the cycle.
    prefix: &'static str,
    /// One cycle; it is played twice, so the position it starts from occurs a third time.
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
            prefix: "",
            cycle: "a8a9 d9d8 a9a8 d8d9",
            expect: RedLoses(CHECK),
        },
        // P1: a horse checks from c8 and from e7 in turn.
        Case {
            name: "horse perpetual check",
            variant: x,
            fen: "4k4/9/4N4/9/9/9/9/9/9/5K3 w",
            prefix: "",
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
            prefix: "",
            cycle: "a8a9 d9d8 a9a8 d8d9",
            expect: RedLoses(CHECK),
        },
        // P2: both sides shuffle without threats: draw.
        Case {
            name: "idle against idle",
            variant: x,
            fen: "3k5/9/9/9/9/9/9/9/9/R3K4 w",
            prefix: "",
            cycle: "a0a1 d9d8 a1a0 d8d9",
            expect: Draw,
        },
        // P2: each chariot shuttles along its rank and keeps attacking the same
        // still horse (red f7/g7 -> a7, black i2/h2 -> a2): no move begins an
        // attack (D106), so both sides are idle: draw.
        Case {
            name: "both chariots keep attacking still horses",
            variant: x,
            fen: "3k5/9/n4R3/9/9/9/9/N7r/9/4K4 w",
            prefix: "",
            cycle: "f7g7 i2h2 g7f7 h2i2",
            expect: Draw,
        },
        // P2 (D106: an attack that neither begins nor is renewed is no chase):
        // the red chariot shuttles f7-g7 along rank 7 while the unprotected
        // black horse on a7 stays where it is, attacked before and after every
        // move. Fairy-Stockfish rules the same. Draw.
        Case {
            name: "a chariot that keeps attacking a still horse does not chase",
            variant: x,
            fen: "3k5/9/n4R3/9/9/9/9/9/9/4K4 w",
            prefix: "",
            cycle: "f7g7 d9d8 g7f7 d8d9",
            expect: Draw,
        },
        // P4: the unprotected black cannon shuttles a7-a6 and the red chariot
        // follows it (f6-f7-f6), each move attacking it anew: red loses.
        Case {
            name: "chariot chases an unprotected cannon",
            variant: x,
            fen: "3k5/9/c8/5R3/9/9/9/9/9/4K4 w",
            prefix: "",
            cycle: "f6f7 a7a6 f7f6 a6a7",
            expect: RedLoses(CHASE),
        },
        // P4: the black chariot shuttles a7-a6 (protected by the a9 chariot) and
        // the red cannon follows it over the e7 elephant and the e6 pawn: a
        // cannon after a protected chariot is a chase (the chariot is worth more).
        Case {
            name: "cannon chases a protected chariot",
            variant: x,
            fen: "r2k5/9/r3b4/4p1C2/9/9/9/9/9/4K4 w",
            prefix: "",
            cycle: "g6g7 a7a6 g7g6 a6a7",
            expect: RedLoses(CHASE),
        },
        // P2: a chariot after a horse protected by the a9 chariot is not a
        // chase (nor would it be if the attack were renewed). Draw.
        Case {
            name: "chariot after a protected horse is allowed",
            variant: x,
            fen: "r2k5/9/n4R3/9/9/9/9/9/9/4K4 w",
            prefix: "",
            cycle: "f7g7 d9d8 g7f7 d8d9",
            expect: Draw,
        },
        // P2: likewise a protected cannon.
        Case {
            name: "chariot after a protected cannon is allowed",
            variant: x,
            fen: "r2k5/9/c4R3/9/9/9/9/9/9/4K4 w",
            prefix: "",
            cycle: "f7g7 d9d8 g7f7 d8d9",
            expect: Draw,
        },
        // P4: the cannon shuttling a7-b7 "protected" by the d7 chariot is not
        // protected: that chariot is pinned against its general by the d0
        // chariot. The red chariot following it (b0-a0-b0) chases.
        Case {
            name: "a pinned defender does not protect",
            variant: x,
            fen: "3k5/9/c2r5/9/9/9/9/9/9/1R1RK4 w",
            prefix: "",
            cycle: "b0a0 a7b7 a0b0 b7a7",
            expect: RedLoses(CHASE),
        },
        // P2: the same without the pin: the cannon is protected, no chase. Draw.
        Case {
            name: "an unpinned defender protects",
            variant: x,
            fen: "3k5/9/c2r5/9/9/9/9/9/9/1R2K4 w",
            prefix: "",
            cycle: "b0a0 a7b7 a0b0 b7a7",
            expect: Draw,
        },
        // P4: the red horse hops b7-a5-b7, each time uncovering a different red
        // chariot's line onto the black horse on a7 (discovered chases).
        Case {
            name: "chase through discovered lines",
            variant: x,
            fen: "5k3/9/nN6R/9/9/9/9/9/9/R3K4 w",
            prefix: "",
            cycle: "b7a5 f9f8 a5b7 f8f9",
            expect: RedLoses(CHASE),
        },
        // P2: the red general attacks the black cannon every move (e1 hits d1,
        // e2 hits d2); threats by the general are idle. Draw.
        Case {
            name: "the general chasing is idle",
            variant: x,
            fen: "3k5/9/9/9/9/9/9/4K4/3c5/9 w",
            prefix: "",
            cycle: "e2e1 d1d2 e1e2 d2d1",
            expect: Draw,
        },
        // 棋例通则 4, P2: red, the weaker side (a chariot against chariot and
        // horse) with nothing across the river, holds its own river bank; its
        // chariot's attacks on the elephant shuttling c5-e7 are incidental to
        // that defence: idle. Draw.
        Case {
            name: "defending a key point: the attack on an elephant is idle",
            variant: x,
            fen: "n2k4r/9/9/9/2b6/4R4/9/9/9/3AKA3 w",
            prefix: "",
            cycle: "e4c4 c5e7 c4e4 e7c5",
            expect: Draw,
        },
        // P4: the same chariot hunting the lone elephant is no defence: red,
        // the stronger side, chases it and loses.
        Case {
            name: "the stronger side chasing an elephant is a chase",
            variant: x,
            fen: "3k5/9/9/9/2b6/4R4/9/9/9/3AKA3 w",
            prefix: "",
            cycle: "e4c4 c5e7 c4e4 e7c5",
            expect: RedLoses(CHASE),
        },
        // P4 (长将长捉): the chariot checks from f6, then from g6 attacks the
        // g9 horse anew (f6 did not attack it), in turn; checks plus chases of
        // one target are forbidden.
        Case {
            name: "alternating check and chase",
            variant: x,
            fen: "5kn2/9/9/6R2/9/9/9/9/9/3K5 w",
            prefix: "",
            cycle: "g6f6 f9e9 f6g6 e9f9",
            expect: RedLoses(CHASE),
        },
        // P2: a chase that stops: the chariot attacks the horse on one move and
        // not on the next (g7 then g6), so red's moves are not all chases. Draw.
        Case {
            name: "an intermittent chase is allowed",
            variant: x,
            fen: "3k5/9/n5R2/9/9/9/9/9/9/4K4 w",
            prefix: "",
            cycle: "g7g6 d9d8 g6g7 d8d9",
            expect: Draw,
        },
        // P4: a horse keeps attacking the unprotected black chariot from two
        // points while the chariot shuttles a8-a7 (the target moves).
        Case {
            name: "horse chases a moving chariot",
            variant: x,
            fen: "4k4/r8/9/9/1N7/9/9/9/9/2R2K3 w",
            prefix: "",
            cycle: "b5c7 a8a7 c7b5 a7a8",
            expect: RedLoses(CHASE),
        },
        // P2: pawns threatening are idle: the red pawn attacks the black chariot
        // from d5 and from e5 in turn as the chariot shuttles d6-e6. Draw.
        Case {
            name: "pawn chasing is idle",
            variant: x,
            fen: "3k5/9/9/3r5/4P4/9/9/9/5K3/9 w",
            prefix: "",
            cycle: "e5d5 d6e6 d5e5 e6d6",
            expect: Draw,
        },
    ]
}

/// The Asian Xiangqi Federation rule book's illustrated cases, in the form
/// Fairy-Stockfish's own test list gives them (its `test.py`; the book's case
/// number where that list names one). The book's ruling is the expectation;
/// the reason (check or chase) is the principle the book's diagram shows.
/// Left out: the list's second run of the first case, which only asks the
/// same ruling with the chasing side to move (our judge rules at the third
/// occurrence, whoever is to move, X3), and one exact duplicate.
fn axf_cases() -> Vec<Case> {
    let x = Variant::Xiangqi;
    let case = |name, fen, prefix, cycle, expect| Case {
        name,
        variant: x,
        fen,
        prefix,
        cycle,
        expect,
    };
    vec![
        // P4: the red cannon follows the black chariot a7-b7-a7 over the a4/b4
        // pawns; an unprotected chariot chased by a cannon.
        case(
            "AXF: direct chase by cannon",
            "2bakabnr/9/r1n1c4/2p1p1p1p/PP7/9/4P1P1P/2C3NC1/9/1NBAKAB1R w",
            "c2a2",
            "a7b7 a2b2 b7a7 b2a2",
            RedLoses(CHASE),
        ),
        // P4: the a-pawn's moves uncover the a0 cannon's line onto the chariot
        // (and the cycle begins with a pawn capture).
        case(
            "AXF: discovered chase by cannon",
            "2bakabr1/9/9/r1p1p1p2/p7R/P8/9/9/9/CC1AKA3 w",
            "a4a5",
            "a6b6 a5b5 b6a6 b5a5",
            RedLoses(CHASE),
        ),
        // P2 (通则 3): without the a0 cannon only the pawn threatens: idle. Draw.
        case(
            "AXF: the same chase by a soldier alone is idle",
            "2bakabr1/9/9/r1p1p1p2/p7R/P8/9/9/9/1C1AKA3 w",
            "a4a5",
            "a6b6 a5b5 b6a6 b5a5",
            Draw,
        ),
        // P4: the two red cannons take turns as screen and chaser.
        case(
            "AXF: discovered and anti-discovered chase by cannon",
            "5k3/9/9/5C3/5c3/5C3/9/9/5p3/4K4 w",
            "",
            "f4d4 f5d5 d4f4 d5f5",
            RedLoses(CHASE),
        ),
        // P3: horse and chariot chase each other round a square: both forbidden.
        case(
            "AXF: mutual chase of horse and chariot",
            "4k4/7n1/9/4pR3/9/9/4P4/9/9/4K4 w",
            "f6h6",
            "h8f7 h6h7 f7g5 h7g7 g5i6 g7g6 i6h8 g6h6",
            Draw,
        ),
        // P1: black checks three moves of four, red only some: black loses.
        case(
            "AXF: perpetual check against intermittent checks",
            "9/3kc4/3a5/3P5/9/4p4/9/4K4/9/3C5 w",
            "",
            "d6e6 e4d4 e6d6 d4e4",
            BlackLoses(CHECK),
        ),
        // P1: checks by a soldier are checks like any other.
        case(
            "AXF: perpetual check by soldier",
            "3k5/9/9/9/9/5p3/9/5p3/5K3/5C3 w",
            "",
            "f1e1 f2e2 e1f1 e2f2",
            BlackLoses(CHECK),
        ),
        // P4: the elephant's moves change the black cannon's screens, and each
        // time the cannon attacks the unprotected crossed pawn on e8 anew.
        case(
            "AXF: cannon chases a crossed pawn through changing screens",
            "3k5/4P4/4b4/3C5/4c4/9/9/9/9/5K3 w",
            "",
            "d6e6 e7g5 e6d6 g5e7",
            BlackLoses(CHASE),
        ),
        // P4 (长将长捉): the black chariot checks from b3 and the cannon's
        // screen chases the d-file cannon; check and chase in turn.
        case(
            "AXF: check and chase in turn",
            "3k5/9/9/9/9/9/9/9/cr1CAK3/9 w",
            "",
            "d1d3 b1b3 d3d1 b3b1",
            BlackLoses(CHASE),
        ),
        // P4: the horse uncovers the c6 cannon's line and then attacks the
        // chariot itself: the same chariot chased every move.
        case(
            "AXF: horse and cannon chase a chariot in turn",
            "4k4/9/4b4/2c2nR2/9/9/9/9/9/3K5 w",
            "",
            "g6g5 f6g8 g5g6 g8f6",
            BlackLoses(CHASE),
        ),
        // P4: the general's steps uncover the horses' legs onto the crossed pawn.
        case(
            "AXF: the general uncovers horse chases of a pawn",
            "3P5/3k5/3nn4/9/9/9/9/9/9/5K3 w",
            "",
            "d9e9 d8e8 e9d9 e8d8",
            BlackLoses(CHASE),
        ),
        // P4: the red chariot may not leave the e-file (the e9 cannon would
        // check over e1), so the black chariot chases it along the ranks.
        case(
            "AXF: chariot chases a chariot that may not leave its file",
            "4ck3/9/9/9/9/2r1R4/9/9/4A4/3AK4 w",
            "",
            "e4e3 c4c3 e3e4 c3c4",
            BlackLoses(CHASE),
        ),
        // P4: the black chariot chases the red cannon; the red cannon's own
        // attack on the c6 cannon is an offer of exchange (兑), not a chase.
        case(
            "AXF: chariot chases a cannon that offers an exchange",
            "4k4/9/9/c1c6/9/r8/9/9/C8/3K5 w",
            "",
            "a1c1 a4c4 c1a1 c4a4",
            BlackLoses(CHASE),
        ),
        // P1: both sides check with every move: draw.
        case(
            "AXF: mutual perpetual check",
            "9/4c4/3k5/3r5/9/9/4C4/9/4K4/3R5 w",
            "",
            "e3d3 d6e6 d3e3 e6d6",
            Draw,
        ),
        // P3 (通则 3): the cannon chases the crossed pawn, and the pawn attacks
        // the cannon back: in a mutual attack the pawn counts as chasing too.
        case(
            "AXF: a soldier in a mutual chase with a cannon",
            "3k5/6c2/9/7P1/6c2/6P2/9/9/9/5K3 w",
            "",
            "h6g6 g5h5 g6h6 h5g5",
            Draw,
        ),
        // P2: the red chariot is protected by the horses: no chase. Draw.
        case(
            "AXF: a protected chariot is not chased by a chariot",
            "4ck3/9/9/9/9/2r1R1N2/6N2/9/4A4/3AK4 w",
            "",
            "e4e3 c4c3 e3e4 c3c4",
            Draw,
        ),
        // P2: two cannons attack each other over the pawns on every move: an
        // offer of exchange (兑) on both sides, not a chase. Draw.
        case(
            "AXF: cannons attacking each other offer an exchange",
            "5k3/9/9/c8/9/P1P6/9/2C6/9/3K5 w",
            "",
            "c2a2 a6c6 a2c2 c6a6",
            Draw,
        ),
        // P2: chariots and a cannon behind a wall of pawns: nothing is chased.
        case(
            "AXF: a long cycle behind a wall of pawns",
            "4k4/9/r1r6/9/PPPP5/9/9/9/1C7/5K3 w",
            "b1a1",
            "a7b7 a1c1 c7d7 c1b1 b7a7 b1d1 d7c7 d1a1",
            Draw,
        ),
        // D106, P2: the chariot goes h0-h1-h0 and the cannon h4-h3-h4, always
        // on one file: the chariot attacked the cannon before every one of its
        // moves, so the attack neither begins nor is renewed: no chase. Draw.
        case(
            "AXF D106: an attack that does not change is no chase",
            "3k2b2/4P4/4b4/9/8p/6Bc1/6P1P/3AB4/4pp3/1p1K3R1 w",
            "",
            "h0h1 h4h3 h1h0 h3h4",
            Draw,
        ),
        // D39, P4: the black f8 chariot is pinned by the g8 horse (it is the
        // horse's leg): it chases nothing, not even the horse that pins it.
        // Only red chases (the f8 chariot, by the b8 chariot and the a8 cannon
        // in turn): red loses.
        case(
            "AXF D39: a chariot pinned by a horse does not chase",
            "2baka1r1/C4rN2/9/1Rp1p4/9/9/4P4/9/4A4/4KA3 w",
            "b6b8",
            "f9e8 b8b9 e8f9 b9b8",
            RedLoses(CHASE),
        ),
        // D39, P4: the same with colours reversed in spirit: the red d1 chariot
        // is the c1 horse's leg, so only black chases.
        case(
            "AXF D39: a chariot pinned by a horse does not chase (2)",
            "5k3/9/9/9/9/9/7r1/9/2nRA3c/4K4 w",
            "",
            "e1f0 h3h1 f0e1 h1h3",
            BlackLoses(CHASE),
        ),
        // P4: the horse's moves pin the red horse, so the red chariot it
        // protected is unprotected: a chase by taking away the protection.
        case(
            "AXF: creating a pin to take away a protection",
            "4k4/4c4/9/4p4/9/9/3rn4/3NR4/4K4/9 b",
            "",
            "e3g4 e1f1 g4e3 f1e1",
            BlackLoses(CHASE),
        ),
        // P4: a discovered check threat by the chariot.
        case(
            "AXF: discovered check threat by chariot",
            "5k3/9/9/9/9/1N2P1C2/9/4BC3/9/cr1RK4 w",
            "",
            "b4c2 b0c0 c2b4 c0b0",
            BlackLoses(CHASE),
        ),
        // P4: the cannon's moves pin a protector of the f2 advisor.
        case(
            "AXF: creating a pin to take away a protection, horse",
            "5k3/9/9/9/9/4c4/3n5/3NBA3/4A4/4K4 w",
            "",
            "e0d0 e4d4 d0e0 d4e4",
            BlackLoses(CHASE),
        ),
        // P4: the same with a chariot on d3.
        case(
            "AXF: creating a pin to take away a protection, chariot",
            "5k3/9/9/9/9/4c4/3r5/3NB4/4A4/4K4 w",
            "",
            "e0d0 e4d4 d0e0 d4e4",
            BlackLoses(CHASE),
        ),
        // P4: protection through an x-ray does not count once the line opens.
        case(
            "AXF: x-ray protected discovered check",
            "5k3/9/9/9/9/9/9/9/9/3NK1cr1 w",
            "",
            "d0c2 h0h2 c2d0 h2h0",
            BlackLoses(CHASE),
        ),
        // P2: the d6 horse protects the d3 chariot's targets... the general
        // alone cannot overprotect: here the horse is chased only once. Draw.
        case(
            "AXF: no overprotection by the general",
            "3k5/9/9/3n5/9/9/3r5/9/9/3NK4 w",
            "",
            "d0c2 d3c3 c2d0 c3d3",
            Draw,
        ),
        // P4: the red horse, protected only by its general when on d0, is
        // chased on c2 and on d0 alike.
        case(
            "AXF: overprotection by the general",
            "3k5/9/9/9/9/9/3r5/9/9/3NK4 w",
            "",
            "d0c2 d3c3 c2d0 c3d3",
            BlackLoses(CHASE),
        ),
        // P4: the red horse's moves pin the black horse against the facing
        // generals and free it again; the black general's steps pin the red
        // horse in turn, taking away the red cannon's only protection, so
        // black chases the f3 cannon with every move. Fairy-Stockfish's list
        // leaves this ruling open; this is ours by X2.
        case(
            "AXF: mutual pins by the facing generals",
            "4k4/9/9/9/4n4/9/5C3/9/4N4/4K4 w",
            "",
            "e1g0 e9f9 g0e1 f9e9",
            BlackLoses(CHASE),
        ),
        // P4: a cannon's screen is no protector: the black chariot chases the
        // b4 cannon, "protected" only by the other cannon through it.
        case(
            "AXF: fake protection by cannon",
            "5k3/9/9/9/9/1C7/1r7/9/1C7/4K4 w",
            "",
            "b4c4 b3c3 c4b4 c3b3",
            BlackLoses(CHASE),
        ),
        // P3: the same fake protection, but both sides chase: draw.
        case(
            "AXF: fake protection by cannon, mutual chase",
            "4ka3/c2R1R2c/4b4/9/9/9/9/9/9/4K4 w",
            "",
            "f8f6 f9e8 f6f8 e8f9",
            Draw,
        ),
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
            prefix: "",
            cycle: "a8a9 d9d8 a9a8 d8d9",
            expect: RedLoses(CHECK),
        },
        // J19 + P1: match rules, each check gives black +2; still forbidden.
        Case {
            name: "match: perpetual check while scores change",
            variant: Variant::JifenMatch,
            fen: "3k5/R8/9/9/9/9/9/9/9/4K4 w - - 0 1 0 0 1 -",
            prefix: "",
            cycle: "a8a9 d9d8 a9a8 d8d9",
            expect: RedLoses(CHECK),
        },
        // J19 + P1: contest rules, a Small chariot checks (it may capture a
        // Normal general); the general's moves give red +1 each.
        Case {
            name: "contest: perpetual check with a Small chariot",
            variant: Variant::JifenContest,
            fen: "3k5/R-8/9/9/9/9/9/9/9/4K4 w - - 0 9 0 0 1 x",
            prefix: "",
            cycle: "a8a9 d9d8 a9a8 d8d9",
            expect: RedLoses(CHECK),
        },
        // J19 + P2: simple rules, Normal pieces score nothing: no score change
        // in the cycle, so the repetition is a draw.
        Case {
            name: "simple: idle repetition without score change",
            variant: Variant::JifenSimple,
            fen: "3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1 0 0 1 -",
            prefix: "",
            cycle: "a0a1 d9d8 a1a0 d8d9",
            expect: Draw,
        },
        // J19: simple rules, Idle pieces score +1 a move: scores are progress,
        // so the same repetition is not ruled and the game goes on.
        Case {
            name: "simple: idle repetition with score change",
            variant: Variant::JifenSimple,
            fen: "3k*5/9/9/9/9/9/9/9/9/R*3K4 w - - 0 1 0 0 1 -",
            prefix: "",
            cycle: "a0a1 d9d8 a1a0 d8d9",
            expect: NoRuling,
        },
        // J19 + P4: simple rules, a Normal chariot chases an unprotected cannon
        // shuttling a7-a6, nobody scores: red loses as in Xiangqi.
        Case {
            name: "simple: perpetual chase without score change",
            variant: Variant::JifenSimple,
            fen: "3k5/9/c8/5R3/9/9/9/9/9/4K4 w - - 0 1 0 0 1 -",
            prefix: "",
            cycle: "f6f7 a7a6 f7f6 a6a7",
            expect: RedLoses(CHASE),
        },
        // J19: match rules, the same chase scores a point a move: no ruling.
        Case {
            name: "match: perpetual chase with score change",
            variant: Variant::JifenMatch,
            fen: "3k5/9/c8/5R3/9/9/9/9/9/4K4 w - - 0 1 0 0 1 -",
            prefix: "",
            cycle: "f6f7 a7a6 f7f6 a6a7",
            expect: NoRuling,
        },
        // J19 + P1: contest double-move phase: black's second moves are passes
        // (0000), red checks; the position includes the turn state.
        Case {
            name: "contest: perpetual check in the double-move phase",
            variant: Variant::JifenContest,
            fen: "3k5/R-8/9/9/9/9/9/9/9/4K4 w - - 0 5 0 0 1 -",
            prefix: "",
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
fn mirror(case: &Case) -> (String, String, String, Expect) {
    let mut parts: Vec<String> = case.fen.split_whitespace().map(String::from).collect();
    let mut g = grid(&parts[0]);
    for row in &mut g {
        row.reverse();
    }
    parts[0] = board_string(&g);
    (
        parts.join(" "),
        map_moves(case.prefix, &|f, r| (8 - f, r)),
        map_moves(case.cycle, &|f, r| (8 - f, r)),
        case.expect,
    )
}

/// The board turned round with the colours swapped: black plays red's part.
fn swap_colours(case: &Case) -> (String, String, String, Expect) {
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
        map_moves(case.prefix, &|f, r| (8 - f, 9 - r)),
        map_moves(case.cycle, &|f, r| (8 - f, 9 - r)),
        expect,
    )
}

/// Plays the cycle twice and checks the ruling arrives exactly at the end.
fn run(
    name: &str,
    variant: Variant,
    fen: &str,
    prefix: &str,
    cycle: &str,
    expect: Expect,
) -> Result<(), String> {
    let start = Position::from_fen_variant(fen, variant, None)
        .map_err(|e| format!("{name}: {fen}: {e}"))?;
    let mut g = Game::new(start);
    let cycle_moves: Vec<&str> = cycle.split_whitespace().collect();
    let moves = prefix.split_whitespace().chain(
        cycle_moves
            .iter()
            .cycle()
            .take(cycle_moves.len() * 2)
            .copied(),
    );
    for (i, m) in moves.enumerate() {
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
    for case in cases().into_iter().chain(axf_cases()) {
        let variants = [
            (
                case.fen.to_string(),
                case.prefix.to_string(),
                case.cycle.to_string(),
                case.expect,
                "as given",
            ),
            {
                let (f, p, c, e) = mirror(&case);
                (f, p, c, e, "mirrored")
            },
            {
                let (f, p, c, e) = swap_colours(&case);
                (f, p, c, e, "colours swapped")
            },
        ];
        for (fen, prefix, cycle, expect, how) in variants {
            count += 1;
            if let Err(e) = run(
                &format!("{} ({how})", case.name),
                case.variant,
                &fen,
                &prefix,
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
        if let Err(e) = run(
            case.name,
            case.variant,
            case.fen,
            case.prefix,
            case.cycle,
            case.expect,
        ) {
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
