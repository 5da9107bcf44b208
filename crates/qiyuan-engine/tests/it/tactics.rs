//! The tactics regression suite: every position of `data/tactics.txt` is a
//! forced win in N moves, re-proved here by the exhaustive solver; the
//! engine must find a winning first move within a fixed node budget and
//! report the win as a mate score.

use qiyuan_engine::search::{SearchLimits, Searcher, mate_in_plies};
use qiyuan_engine::tactics::{forces_win, winning_moves};
use qiyuan_xiangqi::Position;

/// Nodes the engine may spend per position.
const NODE_BUDGET: u64 = 200_000;

#[test]
fn tactics_suite_is_solved_within_the_node_budget() {
    let text = include_str!("../data/tactics.txt");
    let mut failures = Vec::new();
    let mut count = 0;
    let mut total_nodes = 0;
    let mut searcher = Searcher::new(8);
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let parts: Vec<&str> = line.split(';').map(str::trim).collect();
        let fen = parts[0];
        let n: u32 = parts[1].trim_start_matches("win ").parse().unwrap();
        let listed: Vec<&str> = parts[2].split_whitespace().collect();
        let mut pos = Position::from_fen(fen).unwrap();
        // The position is what it claims: a win in n, not in fewer.
        assert!(forces_win(&mut pos, n), "{fen}: no forced win in {n}");
        assert!(
            n == 1 || !forces_win(&mut pos, n - 1),
            "{fen}: wins faster than {n}"
        );
        let sols: Vec<String> = winning_moves(&mut pos, n)
            .iter()
            .map(|m| m.to_string())
            .collect();
        assert_eq!(sols, listed, "{fen}: solution list");
        searcher.clear();
        let limits = SearchLimits {
            nodes: Some(NODE_BUDGET),
            ..SearchLimits::default()
        };
        let r = searcher.search(&pos, &[], &limits, &mut |_| {});
        total_nodes += r.nodes;
        count += 1;
        let best = r.best.map(|m| m.to_string()).unwrap_or_default();
        let mate = mate_in_plies(r.score);
        if !sols.contains(&best) || mate.is_none_or(|p| p <= 0 || p > 2 * n as i32 - 1) {
            failures.push(format!(
                "{fen}: played {best} (score {}, wanted {sols:?})",
                r.score
            ));
        }
    }
    assert!(
        count >= 50,
        "the suite needs at least 50 positions, has {count}"
    );
    assert!(
        failures.is_empty(),
        "{} of {count} failed (nodes {total_nodes}):\n{}",
        failures.len(),
        failures.join("\n")
    );
}
