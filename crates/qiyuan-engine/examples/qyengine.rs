//! The engine's subcommands without the hall: a small binary that builds in
//! a fraction of the full `qiyuan` build, for search/evaluation work
//! (`cargo build --release -p qiyuan-engine --example qyengine`).
//! The same commands are `qiyuan engine|bench`; matches, tuning and NNUE
//! training are the `qiyuan-lab` binary's.

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
}

fn main() -> anyhow::Result<()> {
    match Cli::parse().command {
        Command::Engine(a) => cli::engine_main(a),
        Command::Bench(a) => cli::bench_main(a),
    }
}
