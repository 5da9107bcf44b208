//! The UCI and UCCI protocols over stdin/stdout.
//!
//! UCI as Fairy-Stockfish speaks it for Xiangqi (`uci`, `setoption name
//! UCI_Variant value jifen-contest`, `position startpos|fen FEN moves ...`,
//! `go wtime .. btime ..`), and UCCI as ElephantEye speaks it (`ucci`,
//! `setoption hashsize 64`, `go time T increment I`, `nobestmove`). The
//! protocol is chosen by the handshake. Malformed input never stops the
//! engine: it is answered with an `info string` and ignored.

use std::io::{BufRead, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::Duration;

use qiyuan_xiangqi::{Color, Move, Position, START_FEN, Variant};

use crate::levels::{self, Level};
use crate::rng;
use crate::search::{Features, SearchInfo, SearchLimits, Searcher, mate_in_plies};
use crate::time::Clock;

/// Which handshake the GUI used.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Protocol {
    Uci,
    Ucci,
}

/// Engine settings fixed at start-up (`qiyuan engine --level 3 ...`).
#[derive(Clone, Debug)]
pub struct EngineConfig {
    /// Playing level (8 = full strength).
    pub level: Level,
    /// Rule set until the GUI sets `UCI_Variant`.
    pub variant: Variant,
    /// Jifen target score, `None` for the rule set's default.
    pub target: Option<i32>,
    /// Transposition table size in MiB.
    pub hash_mb: usize,
    /// UCI options (name, value) applied before the first command.
    pub options: Vec<(String, String)>,
}

impl Default for EngineConfig {
    fn default() -> Self {
        EngineConfig {
            level: Level::MAX,
            variant: Variant::Xiangqi,
            target: None,
            hash_mb: 32,
            options: Vec::new(),
        }
    }
}

/// Writes one protocol line and flushes; a closed pipe is ignored (the
/// GUI has gone and `quit` or end of input will follow).
fn send(line: &str) {
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{line}");
    let _ = out.flush();
}

/// The engine's protocol state.
struct Engine {
    config: EngineConfig,
    protocol: Protocol,
    position: Position,
    history: Vec<crate::rep::Earlier>,
    /// The game as set by `position`: its start and its moves (for the
    /// rules' repetition ruling at the root).
    game_start: Position,
    game_moves: Vec<Move>,
    searcher: Option<Searcher>,
    stop: Arc<AtomicBool>,
    worker: Option<JoinHandle<Searcher>>,
}

/// Runs the protocol loop on stdin/stdout until `quit` or end of input.
pub fn run(config: EngineConfig) {
    let searcher = Searcher::new(config.hash_mb);
    let mut engine = Engine {
        position: start_position(config.variant, config.target),
        game_start: start_position(config.variant, config.target),
        game_moves: Vec::new(),
        config,
        protocol: Protocol::Uci,
        history: Vec::new(),
        stop: searcher.stop_flag(),
        searcher: Some(searcher),
        worker: None,
    };
    for (name, value) in engine.config.options.clone() {
        engine.command(&format!("setoption name {name} value {value}"));
    }
    let stdin = std::io::stdin();
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        if !engine.command(line.trim()) {
            break;
        }
    }
    engine.finish_search();
}

/// The start position of a rule set (the start FEN is always valid).
fn start_position(variant: Variant, target: Option<i32>) -> Position {
    Position::from_fen_variant(START_FEN, variant, target).unwrap_or_else(|_| Position::startpos())
}

impl Engine {
    /// Handles one command; false on `quit`.
    fn command(&mut self, line: &str) -> bool {
        let tokens: Vec<&str> = line.split_whitespace().collect();
        let Some(&cmd) = tokens.first() else {
            return true;
        };
        match cmd {
            "uci" => {
                self.protocol = Protocol::Uci;
                self.identify();
                send("uciok");
            }
            "ucci" => {
                self.protocol = Protocol::Ucci;
                self.identify();
                send("ucciok");
            }
            "isready" => send("readyok"),
            "setoption" => self.setoption(&tokens[1..]),
            "ucinewgame" => {
                self.finish_search();
                if let Some(s) = self.searcher.as_mut() {
                    s.clear();
                }
            }
            "position" => {
                self.finish_search();
                self.set_position(&tokens[1..]);
            }
            "go" => self.go(&tokens[1..]),
            "stop" => self.finish_search(),
            "ponderhit" => {}
            "quit" => return false,
            "d" | "fen" => send(&format!("info string fen {}", self.position.to_fen())),
            "banmoves" | "probe" => send(&format!("info string '{cmd}' is not supported")),
            _ => send(&format!("info string unknown command '{cmd}'")),
        }
        true
    }

    fn identify(&self) {
        send("id name Qiyuan 0.1");
        send("id author the Qiyuan authors");
        let variants: Vec<String> = Variant::ALL
            .iter()
            .map(|v| format!("var {}", v.name()))
            .collect();
        if self.protocol == Protocol::Uci {
            send(&format!(
                "option name UCI_Variant type combo default {} {}",
                self.config.variant.name(),
                variants.join(" ")
            ));
            send("option name JifenTarget type spin default 0 min 0 max 100000");
            send(&format!(
                "option name Level type spin default {} min 1 max 8",
                self.config.level.number()
            ));
            send(&format!(
                "option name Hash type spin default {} min 1 max 4096",
                self.config.hash_mb
            ));
            for f in FEATURES {
                let mut defaults = Features::default();
                let on = feature_switch(&mut defaults, &f.to_ascii_lowercase()).is_some_and(|b| *b);
                send(&format!("option name {f} type check default {on}"));
            }
        } else {
            send(&format!(
                "option variant type combo default {} {}",
                self.config.variant.name(),
                variants.join(" ")
            ));
            send("option jifentarget type spin default 0 min 0 max 100000");
            send(&format!(
                "option level type spin default {} min 1 max 8",
                self.config.level.number()
            ));
            send(&format!(
                "option hashsize type spin default {} min 1 max 4096",
                self.config.hash_mb
            ));
        }
    }

    /// `setoption name N value V` (UCI) or `setoption N V` (UCCI).
    fn setoption(&mut self, args: &[&str]) {
        let (name, value) = if args.first() == Some(&"name") {
            let vpos = args.iter().position(|&t| t == "value");
            let name = args[1..vpos.unwrap_or(args.len())].join(" ");
            let value = vpos.map(|p| args[p + 1..].join(" ")).unwrap_or_default();
            (name, value)
        } else {
            let name = args.first().map(|s| s.to_string()).unwrap_or_default();
            (name, args.get(1..).map(|v| v.join(" ")).unwrap_or_default())
        };
        self.finish_search();
        let lname = name.to_ascii_lowercase();
        match lname.as_str() {
            "uci_variant" | "variant" => match Variant::from_name(value.trim()) {
                Some(v) => {
                    self.config.variant = v;
                    self.set_start(start_position(v, self.config.target));
                }
                None => send(&format!("info string unknown variant '{value}'")),
            },
            "jifentarget" => match value.trim().parse::<i32>() {
                Ok(t) if t >= 0 => {
                    self.config.target = (t > 0).then_some(t);
                    self.set_start(start_position(self.config.variant, self.config.target));
                }
                _ => send(&format!("info string bad JifenTarget '{value}'")),
            },
            "level" => match value.trim().parse::<u8>() {
                Ok(n) if (1..=8).contains(&n) => self.config.level = Level::new(n),
                _ => send(&format!("info string bad Level '{value}' (1-8)")),
            },
            "hash" | "hashsize" => match value.trim().parse::<usize>() {
                Ok(mb) if (1..=4096).contains(&mb) => {
                    self.config.hash_mb = mb;
                    let features = self.searcher.as_ref().map(|s| s.features);
                    let mut s = Searcher::new(mb);
                    if let Some(f) = features {
                        s.features = f;
                    }
                    self.stop = s.stop_flag();
                    self.searcher = Some(s);
                }
                _ => send(&format!("info string bad Hash '{value}'")),
            },
            _ => {
                let flag = match value.trim() {
                    "true" | "on" => Some(true),
                    "false" | "off" => Some(false),
                    _ => None,
                };
                let Some(s) = self.searcher.as_mut() else {
                    return;
                };
                let slot = feature_switch(&mut s.features, &lname);
                match (slot, flag) {
                    (Some(slot), Some(b)) => *slot = b,
                    (Some(_), None) => send(&format!("info string bad value '{value}' for {name}")),
                    // UCCI GUIs send options we do not have (usebook, ...): harmless.
                    (None, _) => send(&format!("info string unknown option '{name}'")),
                }
            }
        }
    }

    /// A new game from `start`, no moves played.
    fn set_start(&mut self, start: Position) {
        self.position = start.clone();
        self.game_start = start;
        self.game_moves.clear();
        self.history.clear();
    }

    /// `position startpos|fen FEN [moves M...]`.
    fn set_position(&mut self, args: &[&str]) {
        let moves_at = args.iter().position(|&t| t == "moves");
        let setup = &args[..moves_at.unwrap_or(args.len())];
        let fen = match setup.first() {
            Some(&"startpos") => START_FEN.to_string(),
            Some(&"fen") if setup.len() > 1 => setup[1..].join(" "),
            _ => {
                send("info string position needs 'startpos' or 'fen FEN'");
                return;
            }
        };
        let mut pos =
            match Position::from_fen_variant(&fen, self.config.variant, self.config.target) {
                Ok(p) => p,
                Err(e) => {
                    send(&format!("info string bad FEN: {e}"));
                    return;
                }
            };
        let start = pos.clone();
        let mut history = Vec::new();
        let mut moves = Vec::new();
        for text in moves_at.map(|i| &args[i + 1..]).unwrap_or(&[]) {
            match pos.parse_move(text) {
                Ok(m) => {
                    moves.push(m);
                    history.push(crate::rep::Earlier::play(&mut pos, m));
                }
                Err(e) => {
                    send(&format!("info string move '{text}' ignored: {e}"));
                    break;
                }
            }
        }
        self.position = pos;
        self.history = history;
        self.game_start = start;
        self.game_moves = moves;
    }

    /// Parses `go` parameters into search limits.
    fn limits(&self, args: &[&str]) -> SearchLimits {
        let mut limits = SearchLimits::default();
        let red = self.position.side_to_move() == Color::Red;
        let (mut time, mut inc, mut mtg) = (None, 0u64, None);
        let mut i = 0;
        while i < args.len() {
            let num = args.get(i + 1).and_then(|v| v.parse::<i64>().ok());
            let wants_number = matches!(
                args[i],
                "depth"
                    | "nodes"
                    | "movetime"
                    | "wtime"
                    | "btime"
                    | "winc"
                    | "binc"
                    | "time"
                    | "increment"
                    | "movestogo"
            );
            if wants_number && num.is_none() {
                send(&format!("info string go: '{}' needs a number", args[i]));
            }
            let ms = num.map(|n| n.max(0) as u64);
            let mut used = true;
            match args[i] {
                "depth" => limits.depth = num.map(|n| n.clamp(1, 60) as i32),
                "nodes" => limits.nodes = ms,
                "movetime" => limits.movetime = ms.map(Duration::from_millis),
                "wtime" if red => time = ms,
                "btime" if !red => time = ms,
                "winc" if red => inc = ms.unwrap_or(0),
                "binc" if !red => inc = ms.unwrap_or(0),
                // UCCI: our own clock and increment.
                "time" => time = ms,
                "increment" => inc = ms.unwrap_or(0),
                "movestogo" => mtg = num.map(|n| n.clamp(1, 1000) as u32),
                "wtime" | "btime" | "winc" | "binc" | "opptime" | "oppmovestogo"
                | "oppincrement" => {}
                _ => used = false,
            }
            i += if used { 2 } else { 1 };
        }
        if let Some(t) = time {
            limits.clock = Some(Clock {
                remaining: Duration::from_millis(t),
                increment: Duration::from_millis(inc),
                moves_to_go: mtg,
            });
        }
        limits
    }

    /// Starts a search on a worker thread; it prints `bestmove` when done.
    fn go(&mut self, args: &[&str]) {
        self.finish_search();
        let Some(mut searcher) = self.searcher.take() else {
            send("info string engine busy");
            return;
        };
        let mut limits = self.limits(args);
        limits.excluded = crate::rep::losing_repetitions(&self.game_start, &self.game_moves);
        self.stop.store(false, Ordering::Relaxed);
        let pos = self.position.clone();
        let history = self.history.clone();
        let protocol = self.protocol;
        let level = self.config.level;
        self.worker = Some(std::thread::spawn(move || {
            let result = if level < Level::MAX {
                // Weaker levels: their own depth cap and noise, within the clock.
                let budget = match (limits.movetime, limits.clock) {
                    (Some(t), _) => crate::time::fixed(t).0,
                    (None, Some(c)) => crate::time::allocate(c).0,
                    _ => Duration::from_secs(5),
                };
                let seed = pos.hash() ^ rng::time_seed();
                let excluded = &limits.excluded;
                levels::play_with(&mut searcher, &pos, &history, excluded, level, budget, seed)
            } else {
                searcher.search(&pos, &history, &limits, &mut |i| {
                    send(&info_line(protocol, i))
                })
            };
            match (result.best, protocol) {
                (Some(m), _) => send(&format!("bestmove {m}")),
                (None, Protocol::Uci) => send("bestmove (none)"),
                (None, Protocol::Ucci) => send("nobestmove"),
            }
            searcher
        }));
    }

    /// Stops a running search and takes the searcher back.
    fn finish_search(&mut self) {
        if let Some(worker) = self.worker.take() {
            self.stop.store(true, Ordering::Relaxed);
            match worker.join() {
                Ok(s) => self.searcher = Some(s),
                Err(_) => {
                    send("info string search thread failed; starting afresh");
                    let s = Searcher::new(self.config.hash_mb);
                    self.stop = s.stop_flag();
                    self.searcher = Some(s);
                }
            }
        }
    }
}

/// Search features that UCI options can switch off (for SPRT tests).
/// The switch of a search feature by its lower-case option name.
fn feature_switch<'a>(f: &'a mut Features, lname: &str) -> Option<&'a mut bool> {
    match lname {
        "nullmove" => Some(&mut f.null_move),
        "lmr" => Some(&mut f.lmr),
        "aspiration" => Some(&mut f.aspiration),
        "checkextension" => Some(&mut f.check_extension),
        "history" => Some(&mut f.history),
        "staticpruning" => Some(&mut f.static_pruning),
        "movepruning" => Some(&mut f.move_pruning),
        "qsearchpruning" => Some(&mut f.qsearch_pruning),
        "qsearchtt" => Some(&mut f.qsearch_tt),
        "capturepruning" => Some(&mut f.capture_pruning),
        "singularextension" => Some(&mut f.singular_extension),
        "nnue" => Some(&mut f.nnue),
        _ => None,
    }
}

const FEATURES: [&str; 12] = [
    "NullMove",
    "LMR",
    "Aspiration",
    "CheckExtension",
    "History",
    "StaticPruning",
    "MovePruning",
    "QsearchPruning",
    "QsearchTT",
    "CapturePruning",
    "SingularExtension",
    "NNUE",
];

/// An `info` line for one finished iteration.
fn info_line(protocol: Protocol, i: &SearchInfo) -> String {
    let ms = i.elapsed.as_millis().max(1) as u64;
    let nps = i.nodes * 1000 / ms;
    let score = match (mate_in_plies(i.score), protocol) {
        (Some(p), Protocol::Uci) => format!("mate {}", if p > 0 { (p + 1) / 2 } else { p / 2 }),
        (None, Protocol::Uci) => format!("cp {}", i.score),
        (_, Protocol::Ucci) => i.score.to_string(),
    };
    let pv: Vec<String> = i.pv.iter().map(|m| m.to_string()).collect();
    format!(
        "info depth {} seldepth {} score {score} nodes {} nps {nps} time {ms} pv {}",
        i.depth,
        i.seldepth,
        i.nodes,
        pv.join(" ")
    )
}
