//! `qiyuan`: the one binary. Subcommands for the rules engine (perft, moves,
//! apply, notation); the hall server and the engine join later.

use std::process::ExitCode;
use std::time::Instant;

use anyhow::{Context, Result, bail};
use clap::{Parser, Subcommand};
use qiyuan_core::GameRules;
use qiyuan_xiangqi::{Game, Position, START_FEN, perft};

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
        #[arg(long, default_value = "xiangqi")]
        variant: String,
        /// Start from this FEN instead of the start position.
        #[arg(long)]
        fen: Option<String>,
        /// First print `MOVE COUNT` for every root move.
        #[arg(long)]
        divide: bool,
        depth: u32,
    },
    /// List the legal moves of a position in ICCS, one per line.
    Moves {
        #[arg(long, default_value = "xiangqi")]
        variant: String,
        #[arg(long)]
        fen: Option<String>,
    },
    /// Play moves from a position and print the resulting FEN and, if over, the result.
    Apply {
        #[arg(long, default_value = "xiangqi")]
        variant: String,
        #[arg(long)]
        fen: Option<String>,
        /// Moves in ICCS (e.g. h2e2).
        moves: Vec<String>,
    },
    /// Print a move as ICCS, WXF and Chinese notation.
    Notation {
        #[arg(long, default_value = "xiangqi")]
        variant: String,
        #[arg(long)]
        fen: Option<String>,
        #[arg(name = "MOVE")]
        mv: String,
    },
}

/// The rule sets the binary knows. Unknown names are refused with the list.
const VARIANTS: &[&str] = &["xiangqi"];

fn check_variant(name: &str) -> Result<()> {
    if VARIANTS.contains(&name) {
        Ok(())
    } else {
        bail!("unknown variant '{name}' (known: {})", VARIANTS.join(", "))
    }
}

fn position(fen: Option<&str>) -> Result<Position> {
    Ok(Position::from_fen(fen.unwrap_or(START_FEN))?)
}

fn run(cli: Cli) -> Result<()> {
    match cli.command {
        Command::Perft {
            variant,
            fen,
            divide,
            depth,
        } => {
            check_variant(&variant)?;
            let mut pos = position(fen.as_deref())?;
            let start = Instant::now();
            let nodes = if divide {
                let split = perft::divide(&mut pos, depth.max(1));
                for (m, n) in &split {
                    println!("{m} {n}");
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
            println!("nodes {nodes}");
            println!("nps {}", (nodes as f64 / secs.max(1e-9)) as u64);
        }
        Command::Moves { variant, fen } => {
            check_variant(&variant)?;
            let pos = position(fen.as_deref())?;
            for m in pos.legal_moves() {
                println!("{m}");
            }
        }
        Command::Apply {
            variant,
            fen,
            moves,
        } => {
            check_variant(&variant)?;
            let mut game = Game::new(position(fen.as_deref())?);
            for (i, m) in moves.iter().enumerate() {
                game.play(m)
                    .with_context(|| format!("move {} ('{m}')", i + 1))?;
            }
            println!("fen {}", game.fen());
            if let Some(o) = game.outcome() {
                let who = match o.winner {
                    Some(0) => "red",
                    Some(_) => "black",
                    None => "draw",
                };
                println!("result {who} {}", o.reason);
                println!("{}", o.explanation);
            }
        }
        Command::Notation { variant, fen, mv } => {
            check_variant(&variant)?;
            let pos = position(fen.as_deref())?;
            // The move may be given in ICCS, WXF or Chinese notation.
            let m = qiyuan_xiangqi::pgn::parse_any_move(&pos, &mv).map_err(anyhow::Error::msg)?;
            println!("iccs {m}");
            println!("wxf {}", qiyuan_xiangqi::notation::to_wxf(&pos, m));
            println!("chinese {}", qiyuan_xiangqi::notation::to_chinese(&pos, m));
        }
    }
    Ok(())
}

fn main() -> ExitCode {
    match run(Cli::parse()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}
