//! `qiyuan`: the one binary. Subcommands for the rules engine (perft, moves,
//! apply, notation); the hall server and the engine join later.

use std::io::Write;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{Context, Result, bail};
use clap::{Parser, Subcommand};
use qiyuan_core::GameRules;
use qiyuan_xiangqi::{Game, Position, START_FEN, Variant, perft};

mod puzzles_cli;
mod puzzles_from_games;

/// mimalloc rather than the system allocator: the hall allocates many small
/// short-lived objects per move (JSON frames, move texts), and under load
/// glibc's malloc was a fifth of the server's CPU (docs/deploy.md).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Prints a line to stdout; a closed pipe (`qiyuan moves | head`) ends the
/// program quietly instead of panicking.
macro_rules! say {
    ($($arg:tt)*) => {
        if writeln!(std::io::stdout().lock(), $($arg)*).is_err() {
            std::process::exit(0);
        }
    };
}

#[derive(Parser)]
#[command(
    name = "qiyuan",
    version,
    about = "棋苑 Qiyuan: a hall for Chinese board games"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Count the leaf nodes of the legal move tree (prints `nodes N` and `nps N`).
    Perft {
        #[command(flatten)]
        setup: SetupArgs,
        /// First print `MOVE COUNT` for every root move.
        #[arg(long)]
        divide: bool,
        depth: u32,
    },
    /// List the legal moves of a position in ICCS, one per line.
    Moves {
        #[command(flatten)]
        setup: SetupArgs,
    },
    /// Play moves from a position and print the resulting FEN, the scores (Jifen)
    /// and, once the game is over, the result.
    Apply {
        #[command(flatten)]
        setup: SetupArgs,
        /// Moves in ICCS (e.g. h2e2; Jifen: h2e2* with a class mark, 0000 to pass).
        moves: Vec<String>,
    },
    /// Print a move as ICCS, WXF and Chinese notation.
    Notation {
        #[command(flatten)]
        setup: SetupArgs,
        #[arg(name = "MOVE")]
        mv: String,
    },
    /// Junqi: check a set-up (prints `ok` or every reason it is illegal).
    Setup {
        /// The side whose half the set-up fills: red or blue (a four-army set-up, in its own
        /// frame, checks as red; s, e, n and w are accepted).
        #[arg(long)]
        side: String,
        /// The 30 posts of the half from its back rank forward, files a-e (Q13).
        text: String,
    },
    /// Run the engine over UCI/UCCI on stdin/stdout (for GUIs and matches).
    Engine(qiyuan_engine::cli::EngineArgs),
    /// Search fixed positions to a fixed depth (prints `nodes N` and `nps N`).
    Bench(qiyuan_engine::cli::BenchArgs),
    /// Play a match between two UCI engines (prints W/D/L, Elo and the SPRT verdict).
    /// The runner is `qiyuan-lab`'s, as are tuning and NNUE training.
    Match(qiyuan_lab::cli::MatchArgs),
    /// Pair the next round of a FIDE tournament file (TRF-16 / TRF-2026): prints
    /// the number of boards, then `WHITE BLACK` per board by start number (`0`
    /// for the bye), as bbpPairings' `-p` does.
    Pair {
        /// The pairing system; only `dutch` (FIDE C.04.3) is built.
        #[arg(long, default_value = "dutch")]
        system: String,
        /// The tournament file.
        file: std::path::PathBuf,
    },
    /// Read a Xiangqi game file (PGN, XQF, CBF, FEN or a move list; the format
    /// is told from the content) and print `fen START_FEN`, `moves M1 M2 …`
    /// (the main line in ICCS) and `variations N` (how many side lines it holds).
    Import {
        /// The file.
        file: std::path::PathBuf,
    },
    /// Puzzles: `generate` makes them from engine self-play into a CSV file;
    /// `merge`, `check` and `stats` keep the shipped files.
    #[command(subcommand)]
    Puzzles(puzzles_cli::PuzzlesCommand),
    /// Run the hall: web page, HTTP API and WebSocket play (embedded SQLite).
    Serve(qiyuan_hall::cli::ServeArgs),
    /// Drive N concurrent games over WebSocket against a running hall.
    Loadtest(qiyuan_hall::cli::LoadArgs),
}

/// Where a command starts: rule set, target score and position.
#[derive(clap::Args)]
struct SetupArgs {
    /// Rule set: xiangqi, jifen-simple, jifen-match, jifen-contest, banqi, banqi-icga, tiaoqi
    /// junqi-open or siguo-open.
    #[arg(long, default_value = "xiangqi")]
    variant: String,
    /// Jifen target score (defaults: simple 30, match and contest 100).
    #[arg(long)]
    target: Option<i32>,
    /// Start from this FEN instead of the start position.
    #[arg(long)]
    fen: Option<String>,
    /// Tiaoqi: players (2, 3, 4 or 6; with --fen, by default the seats it names).
    #[arg(long)]
    players: Option<u8>,
    /// Tiaoqi: pieces each (10, or 15 for two players).
    #[arg(long, default_value_t = 10)]
    pieces: u8,
    /// Tiaoqi: rank the rest after the first finishes (T10).
    #[arg(long)]
    rank_rest: bool,
}

impl SetupArgs {
    /// Tiaoqi's seat count: `--players`, else the seats the FEN names, else 2.
    fn tiaoqi_players(&self) -> u8 {
        self.players.unwrap_or_else(|| {
            self.fen
                .as_deref()
                .and_then(|f| f.split_whitespace().nth(2))
                .map_or(2, |seats| seats.len().min(6) as u8)
        })
    }
}

/// Looks up a rule set by name; unknown names are refused with the list.
fn check_variant(name: &str) -> Result<Variant> {
    Variant::from_name(name).ok_or_else(|| {
        let mut known: Vec<&str> = Variant::ALL.iter().map(|v| v.name()).collect();
        known.extend(qiyuan_banqi::Preset::ALL.iter().map(|p| p.name()));
        known.push("tiaoqi");
        known.push("junqi-open");
        known.push("siguo-open");
        anyhow::anyhow!("unknown variant '{name}' (known: {})", known.join(", "))
    })
}

impl SetupArgs {
    /// The position to start from: the FEN or the start position, under the rule set.
    fn position(&self) -> Result<Position> {
        let variant = check_variant(&self.variant)?;
        if let Some(t) = self.target {
            if !variant.is_jifen() {
                bail!("--target applies only to the Jifen rule sets");
            }
            if t <= 0 {
                bail!("--target must be a positive number, not {t}");
            }
        }
        let fen = self.fen.as_deref().unwrap_or(START_FEN);
        Ok(Position::from_fen_variant(fen, variant, self.target)?)
    }
}

/// Prints perft's lines and `nps N` from the last line's `nodes N`.
fn print_with_nps(lines: Vec<String>, started: Instant) {
    let nodes: u64 = lines
        .last()
        .and_then(|l| l.strip_prefix("nodes "))
        .and_then(|n| n.parse().ok())
        .unwrap_or(0);
    for line in lines {
        say!("{line}");
    }
    let secs = started.elapsed().as_secs_f64().max(1e-9);
    say!("nps {:.0}", nodes as f64 / secs);
}

fn run(cli: Cli) -> Result<()> {
    // Banqi has its own rules crate; it prints the lines it returns.
    let banqi = |setup: &SetupArgs| qiyuan_banqi::Preset::from_name(&setup.variant);
    let tiaoqi = |setup: &SetupArgs| setup.variant == "tiaoqi";
    let junqi = |setup: &SetupArgs| setup.variant == "junqi-open";
    let siguo = |setup: &SetupArgs| setup.variant == "siguo-open";
    match cli.command {
        Command::Setup { side, text } => {
            // S7: a four-army set-up is written in its own frame, like a
            // red half, whichever army it is for.
            let side = match side.as_str() {
                "red" | "s" | "e" | "n" | "w" => qiyuan_junqi::Side::Red,
                "blue" => qiyuan_junqi::Side::Blue,
                other => bail!("--side must be red or blue (or s, e, n, w), not '{other}'"),
            };
            let lines = qiyuan_junqi::cli::setup(side, &text);
            let ok = lines == ["ok"];
            for line in lines {
                say!("{line}");
            }
            if !ok {
                std::process::exit(1);
            }
        }
        Command::Perft { setup, depth, .. } if siguo(&setup) => {
            let started = Instant::now();
            let lines = qiyuan_junqi::siguo::cli::perft(setup.fen.as_deref(), depth)?;
            print_with_nps(lines, started);
        }
        Command::Moves { setup } if siguo(&setup) => {
            for line in qiyuan_junqi::siguo::cli::moves(setup.fen.as_deref())? {
                say!("{line}");
            }
        }
        Command::Apply { setup, moves } if siguo(&setup) => {
            for line in qiyuan_junqi::siguo::cli::apply(setup.fen.as_deref(), &moves)? {
                say!("{line}");
            }
        }
        Command::Notation { setup, .. } if siguo(&setup) => {
            bail!("notation covers the Xiangqi family; Junqi moves are already post pairs (g2g16)");
        }
        Command::Perft { setup, depth, .. } if junqi(&setup) => {
            let started = Instant::now();
            let lines = qiyuan_junqi::cli::perft(setup.fen.as_deref(), depth)?;
            print_with_nps(lines, started);
        }
        Command::Moves { setup } if junqi(&setup) => {
            for line in qiyuan_junqi::cli::moves(setup.fen.as_deref())? {
                say!("{line}");
            }
        }
        Command::Apply { setup, moves } if junqi(&setup) => {
            for line in qiyuan_junqi::cli::apply(setup.fen.as_deref(), &moves)? {
                say!("{line}");
            }
        }
        Command::Notation { setup, .. } if junqi(&setup) => {
            bail!("notation covers the Xiangqi family; Junqi moves are already post pairs (c4c6)");
        }
        Command::Perft {
            setup,
            divide,
            depth,
        } if tiaoqi(&setup) => {
            let started = Instant::now();
            let lines = qiyuan_tiaoqi::cli::perft(
                setup.tiaoqi_players(),
                setup.pieces,
                setup.fen.as_deref(),
                depth,
                divide,
            )?;
            print_with_nps(lines, started);
        }
        Command::Moves { setup } if tiaoqi(&setup) => {
            for line in qiyuan_tiaoqi::cli::moves(
                setup.tiaoqi_players(),
                setup.pieces,
                setup.fen.as_deref(),
            )? {
                say!("{line}");
            }
        }
        Command::Apply { setup, moves } if tiaoqi(&setup) => {
            for line in qiyuan_tiaoqi::cli::apply(
                setup.tiaoqi_players(),
                setup.pieces,
                setup.fen.as_deref(),
                setup.rank_rest,
                &moves,
            )? {
                say!("{line}");
            }
        }
        Command::Notation { setup, .. } if tiaoqi(&setup) => {
            bail!(
                "notation covers the Xiangqi family; Tiaoqi moves are already cell paths (4.2-5.6)"
            );
        }
        Command::Perft { setup, .. } if banqi(&setup).is_some() => {
            qiyuan_banqi::cli::perft(banqi(&setup).unwrap_or(qiyuan_banqi::Preset::Banqi))?;
        }
        Command::Moves { setup } if banqi(&setup).is_some() => {
            let preset = banqi(&setup).unwrap_or(qiyuan_banqi::Preset::Banqi);
            for line in qiyuan_banqi::cli::moves(preset, setup.fen.as_deref(), setup.target)? {
                say!("{line}");
            }
        }
        Command::Notation { setup, .. } if banqi(&setup).is_some() => {
            bail!("notation covers the Xiangqi family; Banqi moves are already a1a2 / a1a1");
        }
        Command::Apply { setup, moves } if banqi(&setup).is_some() => {
            let preset = banqi(&setup).unwrap_or(qiyuan_banqi::Preset::Banqi);
            let lines =
                qiyuan_banqi::cli::apply(preset, setup.fen.as_deref(), setup.target, &moves)?;
            for line in lines {
                say!("{line}");
            }
        }
        Command::Perft {
            setup,
            divide,
            depth,
        } => {
            let mut pos = setup.position()?;
            let start = Instant::now();
            let nodes = if divide {
                let split = perft::divide(&mut pos, depth.max(1));
                for (m, n) in &split {
                    say!("{m} {n}");
                }
                if depth == 0 {
                    1
                } else {
                    split.iter().map(|(_, n)| n).sum()
                }
            } else {
                perft::perft(&mut pos, depth)
            };
            let secs = start.elapsed().as_secs_f64();
            say!("nodes {nodes}");
            say!("nps {}", (nodes as f64 / secs.max(1e-9)) as u64);
        }
        Command::Moves { setup } => {
            let pos = setup.position()?;
            for m in pos.legal_moves() {
                say!("{m}");
            }
        }
        Command::Apply { setup, moves } => {
            let mut game = Game::new(setup.position()?);
            for (i, m) in moves.iter().enumerate() {
                game.play(m)
                    .with_context(|| format!("move {} ('{m}')", i + 1))?;
            }
            say!("fen {}", game.fen());
            let pos = game.position();
            if pos.variant().is_jifen() {
                let [red, black] = pos.scores();
                say!("score {red} {black}");
            }
            if let Some(o) = game.outcome() {
                let who = match o.winner {
                    Some(0) => "red",
                    Some(_) => "black",
                    None => "draw",
                };
                say!("result {who} {}", o.reason);
                say!("{}", o.explanation);
            }
        }
        Command::Notation { setup, mv } => {
            let pos = setup.position()?;
            // The move may be given in ICCS, WXF or Chinese notation.
            let m = qiyuan_xiangqi::pgn::parse_any_move(&pos, &mv).map_err(anyhow::Error::msg)?;
            say!("iccs {m}");
            say!("wxf {}", qiyuan_xiangqi::notation::to_wxf(&pos, m));
            say!("chinese {}", qiyuan_xiangqi::notation::to_chinese(&pos, m));
        }
        Command::Engine(args) => qiyuan_engine::cli::engine_main(args)?,
        Command::Bench(args) => qiyuan_engine::cli::bench_main(args)?,
        Command::Match(args) => qiyuan_lab::cli::match_main(args)?,
        Command::Pair { system, file } => {
            if system != "dutch" {
                bail!("--system {system}: only dutch (FIDE C.04.3) is built");
            }
            let text = read_bounded(&file, qiyuan_events::trf::MAX_FILE_BYTES)?;
            let trf = qiyuan_events::trf::parse(&text)
                .map_err(|e| anyhow::anyhow!("{}: {e}", file.display()))?;
            let field = qiyuan_events::dutch::Field::from_trf(&trf)
                .map_err(|e| anyhow::anyhow!("{}: {e}", file.display()))?;
            let boards = qiyuan_events::dutch::pair(&field)
                .map_err(|e| anyhow::anyhow!("{}: {e}", file.display()))?;
            print!("{}", qiyuan_events::dutch::listing(&boards));
        }
        Command::Import { file } => {
            let bytes = read_bytes_bounded(&file, qiyuan_import::MAX_FILE_BYTES)?;
            let game = qiyuan_import::import(&bytes)
                .map_err(|e| anyhow::anyhow!("{}: {e}", file.display()))?;
            say!("fen {}", game.start_fen);
            let line = game.main_line();
            if line.is_empty() {
                say!("moves");
            } else {
                say!("moves {}", line.join(" "));
            }
            say!("variations {}", game.variation_count());
        }
        Command::Puzzles(cmd) => puzzles_cli::puzzles_main(cmd)?,
        Command::Serve(args) => qiyuan_hall::cli::serve_main(args, qiyuan::games())?,
        Command::Loadtest(args) => qiyuan_hall::cli::loadtest_main(args, qiyuan::games())?,
    }
    Ok(())
}

/// Reads a text file of at most `limit` bytes (checked before reading).
fn read_bounded(path: &std::path::Path, limit: usize) -> Result<String> {
    let len = std::fs::metadata(path)
        .with_context(|| format!("{}", path.display()))?
        .len();
    if len > limit as u64 {
        bail!(
            "{}: {len} bytes is more than the {limit} a tournament file may have",
            path.display()
        );
    }
    std::fs::read_to_string(path).with_context(|| format!("{}", path.display()))
}

/// Reads a file of at most `limit` bytes (checked before reading, and again
/// while reading, in case it grows).
fn read_bytes_bounded(path: &std::path::Path, limit: usize) -> Result<Vec<u8>> {
    use std::io::Read;
    let file = std::fs::File::open(path).with_context(|| format!("{}", path.display()))?;
    let len = file
        .metadata()
        .with_context(|| format!("{}", path.display()))?
        .len();
    if len > limit as u64 {
        bail!(
            "{}: {len} bytes is more than the {limit} an import may have",
            path.display()
        );
    }
    let mut bytes = Vec::with_capacity(len as usize);
    file.take(limit as u64 + 1)
        .read_to_end(&mut bytes)
        .with_context(|| format!("{}", path.display()))?;
    if bytes.len() > limit {
        bail!(
            "{}: more than the {limit} bytes an import may have",
            path.display()
        );
    }
    Ok(bytes)
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    if !matches!(cli.command, Command::Serve(_)) {
        exit_quietly_on_broken_pipe();
    }
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}

/// A command whose reader goes away (`qiyuan puzzles stats … | head -1`)
/// stops as a tool killed by SIGPIPE does: quietly, with status 141. Rust
/// ignores SIGPIPE, so `println!` panics on the closed pipe instead. Not for
/// `serve`, which no panic may end.
fn exit_quietly_on_broken_pipe() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let payload = info.payload();
        let message = payload
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| payload.downcast_ref::<&str>().copied())
            .unwrap_or("");
        if message.starts_with("failed printing to stdout") && message.contains("Broken pipe") {
            std::process::exit(141);
        }
        default(info);
    }));
}
