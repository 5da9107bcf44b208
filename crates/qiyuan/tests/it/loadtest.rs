//! `qiyuan loadtest` against a hall on a database file (so its moves go
//! through the SQLite writer thread): every game is set up, then played to
//! its plies, and every move it reports was accepted by the hall.

use crate::common;

use std::process::Command;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn loadtest_plays_every_game_and_reports_warmup_apart() {
    let (hall, addr) = common::server("loadtest").await;
    let target = addr.clone();
    let out = tokio::task::spawn_blocking(move || {
        Command::new(env!("CARGO_BIN_EXE_qiyuan"))
            .args([
                "loadtest", "--addr", &target, "--games", "6", "--plies", "10",
            ])
            .args(["--warmup-plies", "3", "--game", "xiangqi"])
            .output()
            .expect("runs")
    })
    .await
    .expect("joined");
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(
        out.status.success(),
        "{text}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let field = |name: &str| -> f64 {
        text.split_whitespace()
            .skip_while(|w| *w != name)
            .nth(1)
            .and_then(|v| v.parse().ok())
            .unwrap_or_else(|| panic!("no {name} in {text}"))
    };
    assert_eq!(field("games"), 6.0, "{text}");
    assert_eq!(field("failed"), 0.0, "{text}");
    assert_eq!(field("moves"), 60.0, "{text}");
    assert!(field("setup_seconds") > 0.0);
    // Three plies a game apart: the rest are the steady figures.
    assert!(field("p99_ms") >= field("p50_ms"));
    assert!(field("warmup_p99_ms") >= field("warmup_p50_ms"));
    assert!(field("all_p99_ms") >= field("p99_ms").min(field("warmup_p99_ms")));
    let metrics = qiyuan_hall::client::get(&addr, "/metrics", None)
        .await
        .expect("metrics")
        .body;
    let accepted: f64 = metrics
        .lines()
        .find(|l| l.starts_with("qiyuan_moves_total"))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| panic!("no move counter in {metrics}"));
    assert_eq!(accepted, 60.0);
    drop(hall);
}

/// Runs `qiyuan loadtest ARGS` and returns what it printed.
fn run_loadtest(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_qiyuan"))
        .arg("loadtest")
        .args(args)
        .output()
        .expect("runs");
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(
        out.status.success(),
        "{text}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    text
}

/// The number after `name` in `text`.
fn figure(text: &str, name: &str) -> f64 {
    text.split_whitespace()
        .skip_while(|w| *w != name)
        .nth(1)
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| panic!("no {name} in {text}"))
}

#[test]
fn loadtest_pools_pairs_players_and_reports_waits_and_gaps() {
    let text = run_loadtest(&["--pools", "8", "--seconds", "4", "--plies", "2"]);
    assert!(figure(&text, "games_started") >= 4.0, "{text}");
    assert_eq!(figure(&text, "player_failures"), 0.0, "{text}");
    assert!(
        text.contains("wait_s median") && text.contains("rating_gap mean"),
        "{text}"
    );
}

#[test]
fn loadtest_pools_baseline_pairs_the_same_players_by_challenges() {
    let text = run_loadtest(&[
        "--pools",
        "6",
        "--no-pools",
        "--seconds",
        "3",
        "--plies",
        "2",
    ]);
    assert!(figure(&text, "games_started") >= 3.0, "{text}");
    assert_eq!(figure(&text, "player_failures"), 0.0, "{text}");
}

#[test]
fn loadtest_lobby_delivers_every_room_to_every_socket() {
    let text = run_loadtest(&[
        "--lobby", "20", "--rooms", "3", "--gap-ms", "50", "--listed", "5",
    ]);
    assert!(text.contains("lobby_sockets 20 of 20"), "{text}");
    // Every frame reached every socket.
    assert_eq!(figure(&text, "min"), 20.0, "{text}");
    assert!(text.contains("per_idle_socket_kb"), "{text}");
}
