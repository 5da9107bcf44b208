//! `qiyuan-lab`: the engine's research tools, kept out of the `qiyuan`
//! binary (`qiyuan match` remains there as a front to the same runner).

use std::process::ExitCode;

use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(
    name = "qiyuan-lab",
    version,
    about = "棋苑 Qiyuan lab: engine matches, Texel tuning, NNUE training"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Play a match between two UCI engines (prints W/D/L, Elo and the SPRT verdict).
    Match(qiyuan_lab::cli::MatchArgs),
    /// Texel-tune the evaluation weights on self-play games.
    Tune(qiyuan_lab::cli::TuneArgs),
    /// Self-play positions (result, score, FEN) for NNUE training.
    NnueData(qiyuan_lab::nnue_train::DataArgs),
    /// Train the NNUE network on `nnue-data` files; writes the quantized net.
    NnueTrain(qiyuan_lab::nnue_train::TrainArgs),
    /// Run the engine over UCI/UCCI (so `match --engine1 "qiyuan-lab engine"`
    /// needs no other binary).
    Engine(qiyuan_engine::cli::EngineArgs),
}

fn main() -> ExitCode {
    let result = match Cli::parse().command {
        Command::Match(a) => qiyuan_lab::cli::match_main(a),
        Command::Tune(a) => qiyuan_lab::cli::tune_main(a),
        Command::NnueData(a) => qiyuan_lab::nnue_train::data_main(a),
        Command::NnueTrain(a) => qiyuan_lab::nnue_train::train_main(a),
        Command::Engine(a) => qiyuan_engine::cli::engine_main(a),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}
