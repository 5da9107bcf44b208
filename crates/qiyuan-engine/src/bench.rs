//! `qiyuan bench`: a fixed set of positions searched to a fixed depth with a
//! fresh table each, so the node count is the same on every machine and
//! every run — a signature of the search — while nps measures speed.

use std::time::Instant;

use qiyuan_xiangqi::{Position, START_FEN, Variant};

use crate::search::{SearchLimits, Searcher};

/// Bench positions: rule set, FEN, and moves played from it.
pub const POSITIONS: [(Variant, &str, &str); 8] = [
    (Variant::Xiangqi, START_FEN, ""),
    // 中炮对屏风马 (central cannon against screen horses).
    (
        Variant::Xiangqi,
        START_FEN,
        "h2e2 h9g7 h0g2 i9h9 i0h0 b9c7 c3c4 c6c5 b0c2 b7b6",
    ),
    // 仙人指路 (pawn opening) into a middlegame.
    (
        Variant::Xiangqi,
        START_FEN,
        "c3c4 b9c7 b0c2 h9g7 h0g2 c6c5 h2h6 a9b9 i0h0 g6g5",
    ),
    // An endgame: chariot and pawns against horse, cannon and defenders.
    (
        Variant::Xiangqi,
        "3akab2/9/4b1n2/p5p2/6c2/2P3R2/P7P/4B4/4A4/3AK4 w - - 0 30",
        "",
    ),
    (Variant::JifenSimple, START_FEN, "h2e2 h9g7"),
    (Variant::JifenMatch, START_FEN, "h2e2 h9g7 h0g2"),
    (Variant::JifenContest, START_FEN, "h2e2"),
    (
        Variant::JifenMatch,
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 95 97 1 -",
        "",
    ),
];

/// The default bench depth: deep enough that the pruning near the leaves
/// and the ordering tables shape the count (depth 7 took a few thousand
/// nodes per Xiangqi position once leaf pruning came in).
pub const DEFAULT_DEPTH: i32 = 10;

/// A bench position with its history.
pub fn position(i: usize) -> (Position, Vec<crate::rep::Earlier>) {
    let (variant, fen, moves) = POSITIONS[i];
    let mut pos = Position::from_fen_variant(fen, variant, None).expect("bench FEN is valid");
    let mut history = Vec::new();
    for text in moves.split_whitespace() {
        let m = pos.parse_move(text).expect("bench move is legal");
        history.push(crate::rep::Earlier::play(&mut pos, m));
    }
    (pos, history)
}

/// Searches every bench position to `depth`; returns (total nodes, nodes per second).
pub fn run(depth: i32, mut report: impl FnMut(usize, &str)) -> (u64, u64) {
    let mut searcher = Searcher::new(16);
    let mut total = 0;
    let start = Instant::now();
    for (i, entry) in POSITIONS.iter().enumerate() {
        let (pos, history) = position(i);
        searcher.clear();
        let limits = SearchLimits {
            depth: Some(depth),
            ..SearchLimits::default()
        };
        let r = searcher.search(&pos, &history, &limits, &mut |_| {});
        total += r.nodes;
        let best = r
            .best
            .map(|m| m.to_string())
            .unwrap_or_else(|| "none".into());
        report(
            i,
            &format!(
                "position {} {} best {best} score {} nodes {}",
                i + 1,
                entry.0.name(),
                r.score,
                r.nodes
            ),
        );
    }
    let secs = start.elapsed().as_secs_f64().max(1e-9);
    (total, (total as f64 / secs) as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bench_positions_are_valid_and_counts_repeat() {
        for i in 0..POSITIONS.len() {
            position(i);
        }
        let (a, _) = run(3, |_, _| {});
        let (b, _) = run(3, |_, _| {});
        assert_eq!(a, b, "bench node count must be deterministic");
        assert!(a > 0);
    }
}
