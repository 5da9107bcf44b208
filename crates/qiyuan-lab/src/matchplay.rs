//! `qiyuan-lab match` (and `qiyuan match`): plays two UCI engines against each other with alternating
//! colours, adjudicates every game with the rules crate's [`Game`], and
//! reports wins/draws/losses, the Elo difference with its 95% error margin
//! and, optionally, a sequential probability ratio test (SPRT).

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use qiyuan_core::GameRules;
use qiyuan_xiangqi::pgn::{MoveFormat, PgnGame, write_pgn};
use qiyuan_xiangqi::{Game, Position, START_FEN, Variant};

use qiyuan_engine::rng::Rng;

/// A time control: base time plus increment per move.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct TimeControl {
    /// Starting time per player.
    pub base: Duration,
    /// Added after each move.
    pub increment: Duration,
}

impl TimeControl {
    /// Parses `10+0.1` (seconds) or `10` (no increment).
    pub fn parse(text: &str) -> Result<TimeControl> {
        let (b, i) = text.split_once('+').unwrap_or((text, "0"));
        let secs = |s: &str| -> Result<Duration> {
            let v: f64 = s
                .trim()
                .parse()
                .with_context(|| format!("bad time '{s}'"))?;
            if !(0.0..=86400.0).contains(&v) {
                bail!("time '{s}' out of range");
            }
            Ok(Duration::from_secs_f64(v))
        };
        Ok(TimeControl {
            base: secs(b)?,
            increment: secs(i)?,
        })
    }
}

/// A fixed search limit for every move of one engine, instead of the clock:
/// for calibrating against budgets that do not depend on the machine's load.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum FixedGo {
    /// `go nodes N`.
    Nodes(u64),
    /// `go depth N`.
    Depth(u32),
    /// `go movetime N` (milliseconds).
    Movetime(u64),
}

impl FixedGo {
    /// Parses `nodes 20000`, `depth 6` or `movetime 500`.
    pub fn parse(text: &str) -> Result<FixedGo> {
        let mut words = text.split_whitespace();
        let (Some(kind), Some(value), None) = (words.next(), words.next(), words.next()) else {
            bail!("fixed go '{text}': want 'nodes N', 'depth N' or 'movetime N'");
        };
        let n: u64 = value
            .parse()
            .with_context(|| format!("fixed go '{text}': bad number"))?;
        let go = match kind {
            "nodes" if (1..=1_000_000_000).contains(&n) => FixedGo::Nodes(n),
            "depth" if (1..=60).contains(&n) => FixedGo::Depth(n as u32),
            "movetime" if (1..=600_000).contains(&n) => FixedGo::Movetime(n),
            _ => bail!("fixed go '{text}': want nodes 1-1e9, depth 1-60 or movetime 1-600000"),
        };
        Ok(go)
    }

    /// The `go` command.
    pub fn command(self) -> String {
        match self {
            FixedGo::Nodes(n) => format!("go nodes {n}"),
            FixedGo::Depth(d) => format!("go depth {d}"),
            FixedGo::Movetime(ms) => format!("go movetime {ms}"),
        }
    }

    /// How long to wait for the answer before counting the move as lost on
    /// time: a movetime plus a second of grace; node and depth limits get a
    /// minute, since they only stop a hung engine.
    pub fn patience(self) -> Duration {
        match self {
            FixedGo::Movetime(ms) => Duration::from_millis(ms) + Duration::from_secs(1),
            FixedGo::Nodes(_) | FixedGo::Depth(_) => Duration::from_secs(60),
        }
    }
}

/// Splits an engine option `Name=Value`; refuses line breaks, which would
/// smuggle further commands to the engine.
pub fn parse_option(option: &str) -> Result<(&str, &str)> {
    let (name, value) = option
        .split_once('=')
        .with_context(|| format!("option '{option}': want Name=Value"))?;
    let (name, value) = (name.trim(), value.trim());
    if name.is_empty() || option.contains(['\n', '\r']) {
        bail!("option '{option}': want Name=Value on one line");
    }
    Ok((name, value))
}

/// A running UCI engine process.
pub struct EngineProcess {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    /// The command line it was started with.
    pub name: String,
    /// The engine writes ranks 1-10 (Fairy-Stockfish's Xiangqi), not ICCS's
    /// 0-9: moves are shifted on the way in and out.
    pub ranks_from_one: bool,
    /// Searches every move with this limit instead of the game clock.
    pub fixed_go: Option<FixedGo>,
}

/// Whether an engine's `id name` line names Fairy-Stockfish, whose Xiangqi
/// moves count ranks from 1 (`h3e3` for ICCS `h2e2`).
pub fn counts_ranks_from_one(id_name: &str) -> bool {
    id_name.to_ascii_lowercase().contains("fairy-stockfish")
}

/// A move's text with every rank shifted by `delta` (+1: ICCS to
/// Fairy-Stockfish, -1: back); `None` if it is no `<file><rank><file><rank>`
/// move or a rank leaves 0-9.
pub fn shift_ranks(mv: &str, delta: i32) -> Option<String> {
    let b = mv.as_bytes();
    let mut out = String::with_capacity(mv.len() + 2);
    let mut i = 0;
    for _ in 0..2 {
        let file = *b.get(i)?;
        if !(b'a'..=b'i').contains(&file) {
            return None;
        }
        i += 1;
        let start = i;
        while i < b.len() && b[i].is_ascii_digit() && i - start < 2 {
            i += 1;
        }
        let rank: i32 = mv.get(start..i)?.parse().ok()?;
        let shifted = rank + delta;
        let low = if delta > 0 { 1 } else { 0 };
        if !(low..=low + 9).contains(&shifted) {
            return None;
        }
        out.push(file as char);
        out.push_str(&shifted.to_string());
    }
    out.push_str(mv.get(i..)?);
    Some(out)
}

impl EngineProcess {
    /// Starts `cmd` (split on spaces; a leading `qiyuan` or `qiyuan-lab`
    /// means this very binary, `qiyuan` or `qiyuan-lab`, both of which have
    /// `engine`, so matches need no installed copy) and does the UCI handshake.
    pub fn start(cmd: &str, variant: Variant, target: Option<i32>) -> Result<EngineProcess> {
        let mut parts = cmd.split_whitespace();
        let prog = parts.next().context("empty engine command")?;
        let program = if prog == "qiyuan" || prog == "qiyuan-lab" {
            std::env::current_exe().context("locate this binary")?
        } else {
            prog.into()
        };
        let mut child = Command::new(&program)
            .args(parts)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .with_context(|| format!("start engine '{cmd}'"))?;
        let stdin = child.stdin.take().context("engine stdin")?;
        let stdout = child.stdout.take().context("engine stdout")?;
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut e = EngineProcess {
            child,
            stdin,
            lines: rx,
            name: cmd.to_string(),
            ranks_from_one: false,
            fixed_go: None,
        };
        e.send("uci")?;
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match e.lines.recv_timeout(left) {
                Ok(line) if line.starts_with("uciok") => break,
                Ok(line) if line.starts_with("id name") => {
                    e.ranks_from_one = counts_ranks_from_one(&line);
                }
                Ok(_) => {}
                Err(RecvTimeoutError::Timeout) => bail!("engine '{cmd}' sent no uciok"),
                Err(RecvTimeoutError::Disconnected) => bail!("engine '{cmd}' exited"),
            }
        }
        // Always name the variant: Fairy-Stockfish starts in chess.
        e.send(&format!(
            "setoption name UCI_Variant value {}",
            variant.name()
        ))?;
        if let Some(t) = target {
            e.send(&format!("setoption name JifenTarget value {t}"))?;
        }
        e.ready()?;
        Ok(e)
    }

    /// Sends one line.
    pub fn send(&mut self, line: &str) -> Result<()> {
        writeln!(self.stdin, "{line}").context("write to engine")?;
        self.stdin.flush().context("write to engine")?;
        Ok(())
    }

    /// Sends `setoption name N value V` for an option given as `N=V`.
    pub fn set_option(&mut self, option: &str) -> Result<()> {
        let (name, value) = parse_option(option)?;
        self.send(&format!("setoption name {name} value {value}"))
    }

    /// Waits for `isready`'s answer.
    pub fn ready(&mut self) -> Result<()> {
        self.send("isready")?;
        self.wait_for("readyok", Duration::from_secs(10))?;
        Ok(())
    }

    /// Reads lines until one starts with `prefix`; `None` on timeout.
    fn wait_for(&mut self, prefix: &str, timeout: Duration) -> Result<Option<String>> {
        let deadline = Instant::now() + timeout;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) if line.starts_with(prefix) => return Ok(Some(line)),
                Ok(_) => {}
                Err(RecvTimeoutError::Timeout) => return Ok(None),
                Err(RecvTimeoutError::Disconnected) => bail!("engine '{}' exited", self.name),
            }
        }
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        let _ = self.send("quit");
        let deadline = Instant::now() + Duration::from_millis(500);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// How one game ended, from red's point of view.
#[derive(Clone, Debug)]
pub struct GameResult {
    /// 0 red won, 1 black won, `None` draw.
    pub winner: Option<usize>,
    /// Why (the rules crate's reason, or `time`, `illegal`, `repetition`).
    pub reason: String,
    /// The record.
    pub record: PgnGame,
    /// Whether a side lost on time.
    pub time_loss: bool,
    /// Whether a side sent an illegal move (or none).
    pub illegal: bool,
}

/// An opening: a start position and moves played from it.
#[derive(Clone, Debug)]
pub struct Opening {
    /// Start FEN.
    pub fen: String,
    /// ICCS moves from it.
    pub moves: Vec<String>,
}

/// Reads an openings file: one opening a line, either a FEN (optionally
/// followed by `moves ...`) or a list of ICCS moves from the start position.
/// Blank lines and `#` comments are skipped.
pub fn read_openings(text: &str) -> Vec<Opening> {
    let mut out = Vec::new();
    for line in text.lines() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (setup, moves) = match line.split_once(" moves ") {
            Some((s, m)) => (s.trim(), m),
            None if line.contains('/') => (line, ""),
            None => ("", line),
        };
        out.push(Opening {
            fen: if setup.is_empty() {
                START_FEN.to_string()
            } else {
                setup.to_string()
            },
            moves: moves.split_whitespace().map(String::from).collect(),
        });
    }
    out
}

/// `count` openings of `plies` random legal moves from the start position,
/// avoiding captures so that none starts materially lopsided.
pub fn random_openings(
    variant: Variant,
    target: Option<i32>,
    count: usize,
    plies: usize,
    seed: u64,
) -> Vec<Opening> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::new();
    while out.len() < count {
        let Ok(mut pos) = Position::from_fen_variant(START_FEN, variant, target) else {
            break;
        };
        let mut moves = Vec::new();
        for _ in 0..plies {
            let legal: Vec<_> = pos
                .legal_moves()
                .into_iter()
                .filter(|m| m.is_pass() || pos.piece_at(m.to()).is_none())
                .filter(|m| m.new_class().is_none())
                .collect();
            if legal.is_empty() {
                break;
            }
            let m = legal[rng.below(legal.len() as u64) as usize];
            moves.push(m.to_string());
            pos.make_move(m);
        }
        out.push(Opening {
            fen: START_FEN.to_string(),
            moves,
        });
    }
    out
}

/// Plays one game: `red` and `black` are the engines, adjudicated by [`Game`].
pub fn play_game(
    red: &mut EngineProcess,
    black: &mut EngineProcess,
    opening: &Opening,
    variant: Variant,
    target: Option<i32>,
    tc: TimeControl,
) -> Result<GameResult> {
    let start = Position::from_fen_variant(&opening.fen, variant, target)
        .map_err(|e| anyhow::anyhow!("opening FEN: {e}"))?;
    let start_fen = start.to_fen();
    let mut game = Game::new(start.clone());
    for m in &opening.moves {
        game.play(m)
            .map_err(|e| anyhow::anyhow!("opening move {m}: {e}"))?;
    }
    for e in [&mut *red, &mut *black] {
        e.send("ucinewgame")?;
        e.ready()?;
    }
    let mut clocks = [tc.base, tc.base];
    let mut seen: HashMap<u64, u32> = HashMap::new();
    let finish = |game: &Game, winner: Option<usize>, reason: &str, time_loss, illegal| {
        let mut record = PgnGame::new(game.start().clone());
        record.moves = game.moves().to_vec();
        record.result = Some(
            match winner {
                Some(0) => "1-0",
                Some(_) => "0-1",
                None => "1/2-1/2",
            }
            .to_string(),
        );
        GameResult {
            winner,
            reason: reason.to_string(),
            record,
            time_loss,
            illegal,
        }
    };
    loop {
        if let Some(o) = game.outcome() {
            return Ok(finish(&game, o.winner, o.reason.as_str(), false, false));
        }
        let pos = game.position().clone();
        let stm = pos.side_to_move().index();
        // Stand-in until the rules crate rules on repetitions: a position
        // (with both scores) occurring a third time is a draw.
        let key = qiyuan_engine::tt::key(&pos) ^ pos.turn_state() as u64;
        let n = seen.entry(key).or_insert(0);
        *n += 1;
        if *n >= 3 {
            return Ok(finish(&game, None, "repetition", false, false));
        }
        let engine = if stm == 0 { &mut *red } else { &mut *black };
        let moves: Vec<String> = game
            .moves()
            .iter()
            .map(|m| {
                let text = m.to_string();
                if engine.ranks_from_one {
                    shift_ranks(&text, 1).unwrap_or(text)
                } else {
                    text
                }
            })
            .collect();
        let position = if moves.is_empty() {
            format!("position fen {start_fen}")
        } else {
            format!("position fen {start_fen} moves {}", moves.join(" "))
        };
        engine.send(&position)?;
        let fixed = engine.fixed_go;
        match fixed {
            Some(go) => engine.send(&go.command())?,
            None => engine.send(&format!(
                "go wtime {} btime {} winc {} binc {}",
                clocks[0].as_millis(),
                clocks[1].as_millis(),
                tc.increment.as_millis(),
                tc.increment.as_millis()
            ))?,
        }
        let t0 = Instant::now();
        // Wait past the flag a little, so a late answer is told apart from none.
        let patience = fixed.map_or(clocks[stm] + Duration::from_secs(1), FixedGo::patience);
        let reply = engine.wait_for("bestmove", patience)?;
        let used = t0.elapsed();
        let Some(reply) = reply else {
            return Ok(finish(&game, Some(1 - stm), "time", true, false));
        };
        if fixed.is_none() {
            if used > clocks[stm] {
                return Ok(finish(&game, Some(1 - stm), "time", true, false));
            }
            clocks[stm] = clocks[stm] - used + tc.increment;
        }
        let sent = reply.split_whitespace().nth(1).unwrap_or("");
        let text = if engine.ranks_from_one {
            shift_ranks(sent, -1).unwrap_or_default()
        } else {
            sent.to_string()
        };
        if game.play(&text).is_err() {
            return Ok(finish(&game, Some(1 - stm), "illegal", false, true));
        }
    }
}

/// Elo difference for a score fraction (clamped away from 0 and 1).
pub fn elo_of_score(p: f64) -> f64 {
    let p = p.clamp(1e-6, 1.0 - 1e-6);
    -400.0 * (1.0 / p - 1.0).log10()
}

/// Elo difference and its 95% error margin from wins, draws and losses.
pub fn elo(w: u32, d: u32, l: u32) -> (f64, f64) {
    let n = (w + d + l) as f64;
    if n == 0.0 {
        return (0.0, 0.0);
    }
    let p = (w as f64 + d as f64 / 2.0) / n;
    let var = (w as f64 * (1.0 - p).powi(2) + d as f64 * (0.5 - p).powi(2) + l as f64 * p * p) / n;
    let sd = (var / n).sqrt();
    let lo = elo_of_score(p - 1.96 * sd);
    let hi = elo_of_score(p + 1.96 * sd);
    (elo_of_score(p), (hi - lo) / 2.0)
}

/// Log-likelihood ratio of H1 (Elo = `elo1`) against H0 (Elo = `elo0`), by the
/// normal approximation of the trinomial game outcome (as fishtest's
/// simplified SPRT does).
pub fn sprt_llr(w: u32, d: u32, l: u32, elo0: f64, elo1: f64) -> f64 {
    let n = (w + d + l) as f64;
    if n == 0.0 {
        return 0.0;
    }
    let p = (w as f64 + d as f64 / 2.0) / n;
    let var = (w as f64 * (1.0 - p).powi(2) + d as f64 * (0.5 - p).powi(2) + l as f64 * p * p) / n;
    // Floor the variance: after a handful of one-sided results the sample
    // variance is near zero and would make the ratio explode.
    let var = var.max(0.02);
    let s = |e: f64| 1.0 / (1.0 + 10f64.powf(-e / 400.0));
    let (s0, s1) = (s(elo0), s(elo1));
    n * (s1 - s0) * (2.0 * p - s0 - s1) / (2.0 * var)
}

/// Games an SPRT plays before it may stop at a bound.
pub const MIN_SPRT_GAMES: u32 = 20;

/// SPRT bounds for error rates alpha = beta = 0.05: (lower, upper).
pub fn sprt_bounds() -> (f64, f64) {
    let (a, b) = (0.05f64, 0.05f64);
    ((b / (1.0 - a)).ln(), ((1.0 - b) / a).ln())
}

/// Match settings.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// Engine commands.
    pub engines: [String; 2],
    /// Rule set.
    pub variant: Variant,
    /// Jifen target, if not the default.
    pub target: Option<i32>,
    /// Number of games (rounded up to pairs).
    pub games: usize,
    /// Time control.
    pub tc: TimeControl,
    /// Per engine: a fixed limit for every move instead of the clock.
    pub fixed_go: [Option<FixedGo>; 2],
    /// Per engine: UCI options (`Name=Value`) set after the handshake.
    pub options: [Vec<String>; 2],
    /// Openings, each played twice with colours swapped.
    pub openings: Vec<Opening>,
    /// Games played at once.
    pub concurrency: usize,
    /// SPRT hypotheses (elo0, elo1); the match stops at a bound.
    pub sprt: Option<(f64, f64)>,
    /// A PGN file each finished game is appended to at once, so a match
    /// stopped early keeps its games.
    pub pgn: Option<std::path::PathBuf>,
}

/// The totals of a match, from engine 1's point of view.
#[derive(Clone, Debug, Default)]
pub struct MatchSummary {
    /// Engine 1 wins.
    pub wins: u32,
    /// Draws.
    pub draws: u32,
    /// Engine 1 losses.
    pub losses: u32,
    /// Games lost on time (either engine).
    pub time_losses: u32,
    /// Games lost by an illegal move (either engine).
    pub illegal: u32,
    /// Game records with tags, in the order finished.
    pub records: Vec<PgnGame>,
}

/// Plays a match. `progress` gets a line per finished game.
pub fn run_match(cfg: &MatchConfig, progress: &(dyn Fn(&str) + Sync)) -> Result<MatchSummary> {
    if cfg.openings.is_empty() {
        bail!("no openings");
    }
    let total = cfg.games.div_ceil(2) * 2;
    let next = AtomicUsize::new(0);
    let summary = Mutex::new(MatchSummary::default());
    let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let error: Mutex<Option<anyhow::Error>> = Mutex::new(None);
    std::thread::scope(|scope| {
        for _ in 0..cfg.concurrency.max(1) {
            scope.spawn(|| {
                let run = || -> Result<()> {
                    let mut e1 = EngineProcess::start(&cfg.engines[0], cfg.variant, cfg.target)?;
                    let mut e2 = EngineProcess::start(&cfg.engines[1], cfg.variant, cfg.target)?;
                    for (e, side) in [(&mut e1, 0), (&mut e2, 1)] {
                        e.fixed_go = cfg.fixed_go[side];
                        for option in &cfg.options[side] {
                            e.set_option(option)?;
                        }
                        e.ready()?;
                    }
                    loop {
                        if stop.load(Ordering::Relaxed) {
                            return Ok(());
                        }
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        if i >= total {
                            return Ok(());
                        }
                        let opening = &cfg.openings[(i / 2) % cfg.openings.len()];
                        let e1_red = i.is_multiple_of(2);
                        let (red, black) = if e1_red {
                            (&mut e1, &mut e2)
                        } else {
                            (&mut e2, &mut e1)
                        };
                        let mut g =
                            play_game(red, black, opening, cfg.variant, cfg.target, cfg.tc)?;
                        let e1_color = if e1_red { 0 } else { 1 };
                        let mut s = summary.lock().map_err(|_| anyhow::anyhow!("poisoned"))?;
                        let verdict = match g.winner {
                            None => {
                                s.draws += 1;
                                "draw"
                            }
                            Some(c) if c == e1_color => {
                                s.wins += 1;
                                "engine1 wins"
                            }
                            Some(_) => {
                                s.losses += 1;
                                "engine2 wins"
                            }
                        };
                        s.time_losses += g.time_loss as u32;
                        s.illegal += g.illegal as u32;
                        let names = if e1_red {
                            [&cfg.engines[0], &cfg.engines[1]]
                        } else {
                            [&cfg.engines[1], &cfg.engines[0]]
                        };
                        g.record.tags = vec![
                            ("Event".into(), "qiyuan match".into()),
                            ("Round".into(), (i + 1).to_string()),
                            ("Red".into(), names[0].to_string()),
                            ("Black".into(), names[1].to_string()),
                            ("Variant".into(), cfg.variant.name().into()),
                            ("Termination".into(), g.reason.clone()),
                        ];
                        if let Some(path) = &cfg.pgn {
                            use std::io::Write as _;
                            let mut f = std::fs::OpenOptions::new()
                                .create(true)
                                .append(true)
                                .open(path)?;
                            writeln!(f, "{}", write_pgn(&g.record, MoveFormat::Iccs))?;
                        }
                        s.records.push(g.record);
                        let (w, d, l) = (s.wins, s.draws, s.losses);
                        let mut line = format!(
                            "game {} {verdict} ({}, {} plies): +{w} ={d} -{l}",
                            i + 1,
                            g.reason,
                            s.records.last().map_or(0, |r| r.moves.len())
                        );
                        if let Some((e0, e1v)) = cfg.sprt {
                            let llr = sprt_llr(w, d, l, e0, e1v);
                            let (lo, hi) = sprt_bounds();
                            line += &format!(" llr {llr:.2}");
                            // Decide only on a minimum of games.
                            if w + d + l >= MIN_SPRT_GAMES && (llr <= lo || llr >= hi) {
                                stop.store(true, Ordering::Relaxed);
                            }
                        }
                        drop(s);
                        progress(&line);
                    }
                };
                if let Err(e) = run() {
                    stop.store(true, Ordering::Relaxed);
                    if let Ok(mut slot) = error.lock() {
                        slot.get_or_insert(e);
                    }
                }
            });
        }
    });
    if let Some(e) = error.into_inner().ok().flatten() {
        return Err(e);
    }
    summary
        .into_inner()
        .map_err(|_| anyhow::anyhow!("match state poisoned"))
}

/// ` (go nodes N)` after an engine's name in reports, if it plays a fixed limit.
fn limit_note(go: Option<FixedGo>) -> String {
    go.map(|g| format!(" ({})", g.command()))
        .unwrap_or_default()
}

/// The report lines of a finished match.
pub fn report(cfg: &MatchConfig, s: &MatchSummary) -> Vec<String> {
    let (w, d, l) = (s.wins, s.draws, s.losses);
    let n = w + d + l;
    let (e, margin) = elo(w, d, l);
    let mut out = vec![
        format!("engine1 {}{}", cfg.engines[0], limit_note(cfg.fixed_go[0])),
        format!("engine2 {}{}", cfg.engines[1], limit_note(cfg.fixed_go[1])),
        format!("games {n}"),
        format!("wins {w} draws {d} losses {l}"),
        format!(
            "score {:.1}%",
            if n == 0 {
                0.0
            } else {
                100.0 * (w as f64 + d as f64 / 2.0) / n as f64
            }
        ),
        format!("elo {e:.1} +- {margin:.1}"),
        format!("time-losses {} illegal-moves {}", s.time_losses, s.illegal),
    ];
    if let Some((e0, e1)) = cfg.sprt {
        let llr = sprt_llr(w, d, l, e0, e1);
        let (lo, hi) = sprt_bounds();
        let verdict = if n < MIN_SPRT_GAMES {
            "inconclusive"
        } else if llr >= hi {
            "H1 accepted"
        } else if llr <= lo {
            "H0 accepted"
        } else {
            "inconclusive"
        };
        out.push(format!(
            "sprt elo0 {e0} elo1 {e1} llr {llr:.2} bounds [{lo:.2}, {hi:.2}] {verdict}"
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fairy_stockfish_ranks_are_shifted_both_ways() {
        assert!(counts_ranks_from_one("id name Fairy-Stockfish 14 LB"));
        assert!(!counts_ranks_from_one("id name Qiyuan 0.1"));
        assert_eq!(shift_ranks("h2e2", 1).as_deref(), Some("h3e3"));
        assert_eq!(shift_ranks("a9a8", 1).as_deref(), Some("a10a9"));
        assert_eq!(shift_ranks("a10a9", -1).as_deref(), Some("a9a8"));
        assert_eq!(shift_ranks("b0c2", 1).as_deref(), Some("b1c3"));
        assert_eq!(shift_ranks("h3e3", -1).as_deref(), Some("h2e2"));
        // Out of range or not a move.
        assert_eq!(shift_ranks("a0a1", -1), None);
        assert_eq!(shift_ranks("a11a9", -1), None);
        assert_eq!(shift_ranks("(none)", -1), None);
        assert_eq!(shift_ranks("", 1), None);
    }

    #[test]
    fn fixed_limits_parse_and_reject_nonsense() {
        assert_eq!(
            FixedGo::parse("nodes 20000").unwrap(),
            FixedGo::Nodes(20000)
        );
        assert_eq!(FixedGo::parse(" depth  6 ").unwrap(), FixedGo::Depth(6));
        assert_eq!(
            FixedGo::parse("movetime 500").unwrap().command(),
            "go movetime 500"
        );
        for bad in [
            "",
            "nodes",
            "nodes 0",
            "nodes x",
            "depth 99",
            "infinite 1",
            "nodes 5 6",
        ] {
            assert!(FixedGo::parse(bad).is_err(), "{bad}");
        }
        assert!(FixedGo::Movetime(500).patience() > Duration::from_millis(500));
        assert_eq!(
            parse_option("Skill Level = -5").unwrap(),
            ("Skill Level", "-5")
        );
        assert!(parse_option("Hash").is_err());
        assert!(parse_option("=1").is_err());
        assert!(parse_option("Hash=1\nquit").is_err());
    }

    #[test]
    fn elo_of_even_score_is_zero() {
        let (e, m) = elo(10, 10, 10);
        assert!(e.abs() < 1e-9);
        assert!(m > 0.0);
        let (e, _) = elo(75, 0, 25);
        assert!((e - 190.8).abs() < 0.5, "{e}");
    }

    #[test]
    fn sprt_favours_the_true_hypothesis() {
        // A 75% score is far above elo1 = 10: strongly H1.
        assert!(sprt_llr(150, 0, 50, 0.0, 10.0) > sprt_bounds().1);
        // An even score with many games favours H0 (elo 0).
        assert!(sprt_llr(500, 1000, 500, 0.0, 10.0) < 0.0);
    }

    #[test]
    fn parses_time_controls_and_openings() {
        let tc = TimeControl::parse("10+0.1").unwrap();
        assert_eq!(tc.base, Duration::from_secs(10));
        assert_eq!(tc.increment, Duration::from_millis(100));
        assert!(TimeControl::parse("x+1").is_err());
        let o = read_openings("# comment\nh2e2 h9g7\n\n4k4/9/9/9/9/9/9/9/4R4/4K4 w moves e1e2\n");
        assert_eq!(o.len(), 2);
        assert_eq!(o[0].moves, vec!["h2e2", "h9g7"]);
        assert_eq!(o[1].moves, vec!["e1e2"]);
        let r = random_openings(Variant::Xiangqi, None, 3, 4, 1);
        assert_eq!(r.len(), 3);
        assert!(r.iter().all(|o| o.moves.len() == 4));
    }
}
