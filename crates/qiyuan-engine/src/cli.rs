//! The engine's subcommands of the `qiyuan` binary (`engine`, `bench`):
//! argument definitions and entry points, so the binary itself only
//! dispatches. The match runner and the tuners are in `qiyuan-lab`.

use anyhow::{Result, bail};

use qiyuan_xiangqi::Variant;

use crate::levels::Level;
use crate::uci::{self, EngineConfig};

/// Looks up a rule set by name.
pub fn parse_variant(name: &str) -> Result<Variant> {
    match Variant::from_name(name) {
        Some(v) => Ok(v),
        None => {
            let known: Vec<&str> = Variant::ALL.iter().map(|v| v.name()).collect();
            bail!("unknown variant '{name}' (known: {})", known.join(", "))
        }
    }
}

/// `qiyuan engine`: speak UCI/UCCI on stdin/stdout.
#[derive(clap::Args, Debug)]
pub struct EngineArgs {
    /// Playing level 1 (beginner) to 8 (full strength).
    #[arg(long, default_value_t = 8)]
    pub level: u8,
    /// Rule set until the GUI sets UCI_Variant.
    #[arg(long, default_value = "xiangqi")]
    pub variant: String,
    /// Jifen target score (default: the rule set's).
    #[arg(long)]
    pub target: Option<i32>,
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = 32)]
    pub hash: usize,
    /// A UCI option set at start-up, `NAME=VALUE` (repeatable), e.g.
    /// `--option NullMove=false` for a feature's SPRT test.
    #[arg(long = "option")]
    pub options: Vec<String>,
}

/// Runs `qiyuan engine`.
pub fn engine_main(args: EngineArgs) -> Result<()> {
    if !(1..=8).contains(&args.level) {
        bail!("--level must be 1..8, not {}", args.level);
    }
    if args.target.is_some_and(|t| t <= 0) {
        bail!("--target must be positive");
    }
    uci::run(EngineConfig {
        level: Level::new(args.level),
        variant: parse_variant(&args.variant)?,
        target: args.target,
        hash_mb: args.hash.clamp(1, 4096),
        options: args
            .options
            .iter()
            .map(|o| match o.split_once('=') {
                Some((n, v)) => (n.to_string(), v.to_string()),
                None => (o.clone(), String::new()),
            })
            .collect(),
    });
    Ok(())
}

/// `qiyuan bench`: fixed positions to a fixed depth; prints `nodes N` and `nps N`.
#[derive(clap::Args, Debug)]
pub struct BenchArgs {
    /// Search depth per position.
    #[arg(long, default_value_t = crate::bench::DEFAULT_DEPTH)]
    pub depth: i32,
}

/// Runs `qiyuan bench`.
pub fn bench_main(args: BenchArgs) -> Result<()> {
    if !(1..=30).contains(&args.depth) {
        bail!("--depth must be 1..30");
    }
    let (nodes, nps) = crate::bench::run(args.depth, |_, line| eprintln!("{line}"));
    println!("nodes {nodes}");
    println!("nps {nps}");
    Ok(())
}
