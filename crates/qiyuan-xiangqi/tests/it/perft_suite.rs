//! Perft against published node counts.
//!
//! Every position below comes with its source. Besides the published numbers,
//! depths 1-3 of every position were cross-checked against Fairy-Stockfish
//! (pyffish, variant `xiangqi`) with a small Python perft
//! (`tests/differential/pyffish_diff.py --perft-check 3`), which confirms that
//! the published counts are for standard Xiangqi rules.
//!
//! The fast tier counts up to about 12 million leaves a position (under a
//! second each). The deeper counts of the same positions are the slow tier
//! (`#[ignore = "slow tier"]`, about 220 million leaves), and the deepest ones
//! are `#[ignore]`d with their own reasons; run them all with
//! `cargo test --release -p qiyuan-xiangqi --test it -- --include-ignored perft_suite::`.

use qiyuan_xiangqi::{Position, perft::perft};

/// Asserts `perft(fen, depth) == nodes` for each `(depth, nodes)`.
fn check(fen: &str, cases: &[(u32, u64)]) {
    let mut pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    let before = pos.to_fen();
    for &(depth, nodes) in cases {
        let got = perft(&mut pos, depth);
        assert_eq!(got, nodes, "perft({depth}) of {fen}");
        // make/unmake must leave the position exactly as it was.
        assert_eq!(pos.to_fen(), before, "position changed by perft({depth})");
        assert_eq!(pos.hash(), pos.compute_hash(), "hash after perft({depth})");
    }
}

// --- The start position ------------------------------------------------------
// Published by many engines, e.g. the chessprogramming wiki's "Chinese Chess
// Perft Results" (as copied into PikaCat-OuO/ChineseChess test/perfttest.cpp,
// position 1), lwm3751/folium snake/protocol.py (with depth 6), and
// Fairy-Stockfish tests/perft.sh (depth 4).

const START: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

#[test]
fn start_position_depths_1_to_4() {
    check(START, &[(1, 44), (2, 1_920), (3, 79_666), (4, 3_290_240)]);
}

#[test]
#[ignore = "slow tier"]
fn start_position_depth_5() {
    check(START, &[(5, 133_312_995)]);
}

#[test]
#[ignore = "5.4 billion nodes: 30-60 s in release mode"]
fn start_position_depth_6() {
    // lwm3751/folium snake/protocol.py: perfts = [44, ..., 133312995, 5392831844].
    check(START, &[(6, 5_392_831_844)]);
}

// --- Fairy-Stockfish tests/perft.sh (fairy-stockfish/Fairy-Stockfish) --------
// `expect perft.exp xiangqi "fen ..." 4 N`. Depths 1-3 computed with pyffish.

#[test]
fn fairy_stockfish_middlegame() {
    check(
        "1rbaka2R/5r3/6n2/2p1p1p2/4P1bP1/PpC3Bc1/1nPR2P2/2N2AN2/1c2K1p2/2BAC4 w - - 0 1",
        &[(1, 49), (2, 2_265), (3, 100_326), (4, 4_485_547)],
    );
}

#[test]
fn fairy_stockfish_endgame() {
    check(
        "4kcP1N/8n/3rb4/9/9/9/9/3p1A3/4K4/5CB2 w - - 0 1",
        &[(1, 13), (2, 272), (3, 3_707), (4, 92_741)],
    );
}

// --- chessprogramming wiki, "Chinese Chess Perft Results" --------------------
// https://www.chessprogramming.org/Chinese_Chess_Perft_Results, as carried by
// PikaCat-OuO/ChineseChess test/perfttest.cpp (positions 2-11; its header cites
// the wiki page). Position 2 is also in lwm3751/folium snake/protocol.py.

#[test]
fn cpw_position_2() {
    check(
        "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
        &[(1, 38), (2, 1_128), (3, 43_929), (4, 1_339_047)],
    );
}

#[test]
#[ignore = "slow tier"]
fn cpw_position_2_depth_5() {
    check(
        "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
        &[(5, 53_112_976)],
    );
}

#[test]
fn cpw_position_3() {
    // Red is in check (the f5 cannon over the f4 horse) and has 7 replies.
    check(
        "1cbak4/9/n2a5/2p1p3p/5cp2/2n2N3/6PCP/3AB4/2C6/3A1K1N1 w - - 0 1",
        &[(1, 7), (2, 281), (3, 8_620), (4, 326_201), (5, 10_369_923)],
    );
}

#[test]
fn cpw_position_4() {
    check(
        "5a3/3k5/3aR4/9/5r3/5n3/9/3A1A3/5K3/2BC2B2 w - - 0 1",
        &[(1, 25), (2, 424), (3, 9_850), (4, 202_884), (5, 4_739_553)],
    );
}

#[test]
fn cpw_position_5() {
    check(
        "CRN1k1b2/3ca4/4ba3/9/2nr5/9/9/4B4/4A4/4KA3 w - - 0 1",
        &[
            (1, 28),
            (2, 516),
            (3, 14_808),
            (4, 395_483),
            (5, 11_842_230),
        ],
    );
}

#[test]
fn cpw_position_6() {
    check(
        "R1N1k1b2/9/3aba3/9/2nr5/2B6/9/4B4/4A4/4KA3 w - - 0 1",
        &[(1, 21), (2, 364), (3, 7_626), (4, 162_837), (5, 3_500_505)],
    );
}

#[test]
fn cpw_position_7() {
    check(
        "C1nNk4/9/9/9/9/9/n1pp5/B3C4/9/3A1K3 w - - 0 1",
        &[(1, 28), (2, 222), (3, 6_241), (4, 64_971), (5, 1_914_306)],
    );
}

#[test]
#[ignore = "slow tier"]
fn cpw_position_7_depth_6() {
    check(
        "C1nNk4/9/9/9/9/9/n1pp5/B3C4/9/3A1K3 w - - 0 1",
        &[(6, 23_496_493)],
    );
}

#[test]
fn cpw_position_8() {
    check(
        "4ka3/4a4/9/9/4N4/p8/9/4C3c/7n1/2BK5 w - - 0 1",
        &[(1, 23), (2, 345), (3, 8_124), (4, 149_272), (5, 3_513_104)],
    );
}

#[test]
fn cpw_position_9() {
    check(
        "2b1ka3/9/b3N4/4n4/9/9/9/4C4/2p6/2BK5 w - - 0 1",
        &[
            (1, 21),
            (2, 195),
            (3, 3_883),
            (4, 48_060),
            (5, 933_096),
            (6, 12_250_386),
        ],
    );
}

#[test]
fn cpw_position_10() {
    check(
        "1C2ka3/9/C1Nab1n2/p3p3p/6p2/9/P3P3P/3AB4/3p2c2/c1BAK4 w - - 0 1",
        &[(1, 30), (2, 830), (3, 22_787), (4, 649_866)],
    );
}

#[test]
#[ignore = "slow tier"]
fn cpw_position_10_depth_5() {
    check(
        "1C2ka3/9/C1Nab1n2/p3p3p/6p2/9/P3P3P/3AB4/3p2c2/c1BAK4 w - - 0 1",
        &[(5, 17_920_736)],
    );
}

#[test]
fn cpw_position_11() {
    check(
        "CnN1k1b2/c3a4/4ba3/9/2nr5/9/9/4C4/4A4/4KA3 w - - 0 1",
        &[(1, 19), (2, 583), (3, 11_714), (4, 376_467), (5, 8_148_177)],
    );
}

// --- lwm3751/folium snake/protocol.py (the folium engine's perft command) -----

#[test]
fn folium_middlegame() {
    check(
        "r2akab1r/3n5/4b3n/p1p1pRp1p/9/2P3P2/P3P3c/N2C3C1/4A4/1RBAK1B2 w - - 0 1",
        &[(1, 58), (2, 1_651), (3, 90_744), (4, 2_605_437)],
    );
}

// --- Deep counts from the same sources, 70-140 million nodes each ------------

#[test]
#[ignore = "deep perft, about 400 million nodes in all"]
fn deep_published_counts() {
    // chessprogramming wiki via PikaCat-OuO/ChineseChess test/perfttest.cpp.
    check(
        "5a3/3k5/3aR4/9/5r3/5n3/9/3A1A3/5K3/2BC2B2 w - - 0 1",
        &[(6, 100_055_401)],
    );
    check(
        "R1N1k1b2/9/3aba3/9/2nr5/2B6/9/4B4/4A4/4KA3 w - - 0 1",
        &[(6, 81_195_154)],
    );
    check(
        "4ka3/4a4/9/9/4N4/p8/9/4C3c/7n1/2BK5 w - - 0 1",
        &[(6, 71_287_903)],
    );
    // lwm3751/folium snake/protocol.py.
    check(
        "r2akab1r/3n5/4b3n/p1p1pRp1p/9/2P3P2/P3P3c/N2C3C1/4A4/1RBAK1B2 w - - 0 1",
        &[(5, 140_822_416)],
    );
}
