//! The engine's subcommands without the hall: a small binary that builds in
//! a fraction of the full `qiyuan` build, for search/evaluation work and
//! SPRT matches (`cargo build --release -p qiyuan-engine --example qyengine`).
//! The same commands are `qiyuan engine|bench|match|tune|nnue-data|nnue-train`.

use clap::{Parser, Subcommand};
use qiyuan_engine::cli;

#[derive(Parser)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Speak UCI/UCCI on stdin/stdout.
    Engine(cli::EngineArgs),
    /// Fixed-depth benchmark.
    Bench(cli::BenchArgs),
    /// A match between two engines.
    Match(cli::MatchArgs),
    /// Texel tuning.
    Tune(cli::TuneArgs),
    /// Self-play positions for NNUE training.
    NnueData(qiyuan_engine::nnue_train::DataArgs),
    /// Trains the NNUE network.
    NnueTrain(qiyuan_engine::nnue_train::TrainArgs),
}

fn main() -> anyhow::Result<()> {
    match Cli::parse().command {
        Command::Engine(a) => cli::engine_main(a),
        Command::Bench(a) => cli::bench_main(a),
        Command::Match(a) => cli::match_main(a),
        Command::Tune(a) => cli::tune_main(a),
        Command::NnueData(a) => qiyuan_engine::nnue_train::data_main(a),
        Command::NnueTrain(a) => qiyuan_engine::nnue_train::train_main(a),
    }
}
