//! Drives `qiyuan engine` through stdin/stdout as a GUI would: the UCI and
//! UCCI handshakes, a `go` in every rule set (each answer checked legal with
//! the rules crate), Jifen 10-field FENs and double turns, `stop`, and
//! malformed input that must be answered, not crash the engine.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::Duration;

use qiyuan_xiangqi::{Position, START_FEN, Variant};

struct Engine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Engine {
    fn start(args: &[&str]) -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_qiyuan"))
            .arg("engine")
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("start qiyuan engine");
        let stdin = child.stdin.take().unwrap();
        let stdout: ChildStdout = child.stdout.take().unwrap();
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Engine {
            child,
            stdin,
            lines: rx,
        }
    }

    fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").unwrap();
        self.stdin.flush().unwrap();
    }

    /// All lines up to and including the first starting with `prefix`.
    fn until(&mut self, prefix: &str) -> Vec<String> {
        let mut seen = Vec::new();
        loop {
            let line = self
                .lines
                .recv_timeout(Duration::from_secs(20))
                .unwrap_or_else(|_| panic!("no '{prefix}' line; got {seen:?}"));
            let done = line.starts_with(prefix);
            seen.push(line);
            if done {
                return seen;
            }
        }
    }

    fn bestmove(&mut self) -> String {
        let lines = self.until("bestmove");
        let last = lines.last().unwrap();
        last.split_whitespace().nth(1).unwrap().to_string()
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit");
        let _ = self.stdin.flush();
        let _ = self.child.wait();
    }
}

/// The position after `moves` from the start position of `variant`.
fn position_after(variant: Variant, fen: &str, moves: &[&str]) -> Position {
    let mut pos = Position::from_fen_variant(fen, variant, None).unwrap();
    for m in moves {
        let mv = pos.parse_move(m).unwrap();
        pos.make_move(mv);
    }
    pos
}

#[test]
fn uci_handshake_and_a_legal_move_in_every_variant() {
    let mut e = Engine::start(&[]);
    e.send("uci");
    let id = e.until("uciok");
    assert!(id.iter().any(|l| l.starts_with("id name Qiyuan")));
    assert!(
        id.iter()
            .any(|l| l.starts_with("option name UCI_Variant") && l.contains("var jifen-contest"))
    );
    assert!(id.iter().any(|l| l.starts_with("option name JifenTarget")));
    e.send("isready");
    e.until("readyok");
    let lines: [&[&str]; 4] = [
        &["h2e2", "h9g7"],
        &["h2e2"],
        &["h2e2", "h9g7", "h0g2"],
        // Contest: red's single first move, then black's first move of a double turn.
        &["h2e2", "h9g7"],
    ];
    for (variant, moves) in Variant::ALL.into_iter().zip(lines) {
        e.send(&format!(
            "setoption name UCI_Variant value {}",
            variant.name()
        ));
        e.send("ucinewgame");
        e.send(&format!("position startpos moves {}", moves.join(" ")));
        e.send("go depth 3");
        let best = e.bestmove();
        let pos = position_after(variant, START_FEN, moves);
        assert!(
            pos.parse_move(&best).is_ok(),
            "{}: illegal bestmove {best}",
            variant.name()
        );
    }
}

#[test]
fn jifen_ten_field_fen_target_and_points_win() {
    let mut e = Engine::start(&[]);
    e.send("uci");
    e.until("uciok");
    e.send("setoption name UCI_Variant value jifen-simple");
    e.send("setoption name JifenTarget value 10");
    // Red has an Idle chariot on a0 and 9 points of 10: moving it (without
    // check) scores the tenth point and wins at once (J17).
    let fen = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/R*NBAKABNR w - - 0 1 9 0 1 -";
    e.send(&format!("position fen {fen}"));
    e.send("go depth 2");
    let lines = e.until("bestmove");
    let best = lines.last().unwrap().split_whitespace().nth(1).unwrap();
    let pos = Position::from_fen_variant(fen, Variant::JifenSimple, Some(10)).unwrap();
    let m = pos.parse_move(best).expect("legal");
    assert_eq!(
        m.from().to_string(),
        "a0",
        "the Idle chariot must move: {best}"
    );
    assert!(
        lines.iter().any(|l| l.contains("score mate 1")),
        "a points win is reported as mate in 1: {lines:?}"
    );
}

#[test]
fn ucci_handshake_clock_and_nobestmove() {
    let mut e = Engine::start(&[]);
    e.send("ucci");
    let id = e.until("ucciok");
    assert!(id.iter().any(|l| l.starts_with("id name")));
    e.send("setoption hashsize 8");
    e.send("isready");
    e.until("readyok");
    e.send("position startpos moves h2e2");
    e.send("go time 2000 increment 0");
    let best = e.bestmove();
    let pos = position_after(Variant::Xiangqi, START_FEN, &["h2e2"]);
    assert!(pos.parse_move(&best).is_ok(), "illegal {best}");
    // Checkmated side: no move to send.
    e.send("position fen R3k4/1R7/9/9/9/9/9/9/9/3K5 b - - 0 1");
    e.send("go depth 3");
    let lines = e.until("nobestmove");
    assert_eq!(lines.last().unwrap(), "nobestmove");
}

#[test]
fn malformed_input_is_answered_not_fatal() {
    let mut e = Engine::start(&["--level", "3"]);
    e.send("uci");
    e.until("uciok");
    for bad in [
        "position fen garbage",
        "position",
        "position startpos moves z9z9",
        "setoption name UCI_Variant value chess",
        "setoption name Level value 99",
        "setoption name",
        "flip the board",
    ] {
        e.send(bad);
        let reply = e.until("info string");
        assert!(!reply.is_empty());
    }
    // Still alive and playing from the start position (the bad move was dropped).
    e.send("position startpos moves h2e2 z9z9");
    e.until("info string");
    e.send("isready");
    e.until("readyok");
    e.send("go movetime 200");
    let best = e.bestmove();
    let pos = position_after(Variant::Xiangqi, START_FEN, &["h2e2"]);
    assert!(pos.parse_move(&best).is_ok(), "illegal {best}");
}

#[test]
fn stop_ends_an_infinite_search() {
    let mut e = Engine::start(&[]);
    e.send("uci");
    e.until("uciok");
    e.send("position startpos");
    e.send("go infinite");
    // The search is under way once it reports a depth.
    e.until("info depth");
    e.send("stop");
    let best = e.bestmove();
    assert!(Position::startpos().parse_move(&best).is_ok());
}
