//! The lab's engine subcommands (`match`, `tune`): argument definitions and
//! entry points; `nnue-data` and `nnue-train` are in [`crate::nnue_train`].

use anyhow::Result;

use qiyuan_engine::cli::parse_variant;

/// `qiyuan-lab match` (and `qiyuan match`): two UCI engines against each other;
/// with `--variant siguo`, two teams of the four-army AI (`--engine1`/`--engine2`
/// name the players: `random`, `greedy`, `level1` … `level8`).
#[derive(clap::Args, Debug)]
pub struct MatchArgs {
    /// First engine's command, e.g. "qiyuan engine --level 3" (siguo: team A's player).
    #[arg(long)]
    pub engine1: String,
    /// Second engine's command (siguo: team B's player).
    #[arg(long)]
    pub engine2: String,
    /// Rule set.
    #[arg(long, default_value = "xiangqi")]
    pub variant: String,
    /// Jifen target score (default: the rule set's).
    #[arg(long)]
    pub target: Option<i32>,
    /// Number of games (rounded up to an even number: each opening twice).
    #[arg(long, default_value_t = 10)]
    pub games: usize,
    /// Time control `base+increment` in seconds.
    #[arg(long, default_value = "10+0.1")]
    pub tc: String,
    /// Engine 1 searches every move with this fixed limit instead of the
    /// clock: `nodes N`, `depth N` or `movetime MS`.
    #[arg(long)]
    pub go1: Option<String>,
    /// The same for engine 2.
    #[arg(long)]
    pub go2: Option<String>,
    /// A UCI option `Name=Value` for engine 1 (repeatable).
    #[arg(long)]
    pub option1: Vec<String>,
    /// A UCI option `Name=Value` for engine 2 (repeatable).
    #[arg(long)]
    pub option2: Vec<String>,
    /// Openings file (FEN or move list per line); default random 4-ply openings.
    #[arg(long)]
    pub openings: Option<std::path::PathBuf>,
    /// Random plies for generated openings.
    #[arg(long, default_value_t = 4)]
    pub random_plies: usize,
    /// Seed for generated openings.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Write all games to this PGN file (each one as it ends).
    #[arg(long)]
    pub pgn: Option<std::path::PathBuf>,
    /// SPRT hypotheses `elo0,elo1`: stop once decided.
    #[arg(long)]
    pub sprt: Option<String>,
    /// Games played at once.
    #[arg(long, default_value_t = 1)]
    pub concurrency: usize,
    /// `--variant siguo`: plies after which a game stops and counts as a
    /// draw (the rules end most games first: a flag, no moves, 120 quiet plies).
    #[arg(long, default_value_t = 2000)]
    pub max_plies: usize,
}

/// Runs `qiyuan-lab match` and `qiyuan match`.
pub fn match_main(args: MatchArgs) -> Result<()> {
    use crate::matchplay::*;
    if args.variant == "siguo" {
        return crate::siguo::match_main(&args);
    }
    let variant = parse_variant(&args.variant)?;
    let tc = TimeControl::parse(&args.tc)?;
    let sprt = match &args.sprt {
        None => None,
        Some(s) => {
            let (a, b) = s
                .split_once(',')
                .ok_or_else(|| anyhow::anyhow!("--sprt wants elo0,elo1"))?;
            Some((a.trim().parse::<f64>()?, b.trim().parse::<f64>()?))
        }
    };
    let openings = match &args.openings {
        Some(path) => read_openings(&std::fs::read_to_string(path)?),
        None => random_openings(
            variant,
            args.target,
            args.games.div_ceil(2),
            args.random_plies,
            args.seed,
        ),
    };
    let cfg = MatchConfig {
        engines: [args.engine1, args.engine2],
        variant,
        target: args.target,
        games: args.games,
        tc,
        fixed_go: [
            args.go1.as_deref().map(FixedGo::parse).transpose()?,
            args.go2.as_deref().map(FixedGo::parse).transpose()?,
        ],
        options: [args.option1.clone(), args.option2.clone()],
        openings,
        concurrency: args.concurrency,
        sprt,
        pgn: args.pgn.clone(),
    };
    if let Some(path) = &args.pgn {
        std::fs::write(path, "")?;
    }
    let summary = run_match(&cfg, &|line| eprintln!("{line}"))?;
    for line in report(&cfg, &summary) {
        println!("{line}");
    }
    Ok(())
}

/// `qiyuan-lab tune`: Texel tuning of the evaluation weights.
#[derive(clap::Args, Debug)]
pub struct TuneArgs {
    /// Self-play games to generate (ignored with --data).
    #[arg(long, default_value_t = 200)]
    pub games: usize,
    /// Search depth of the self-play games.
    #[arg(long, default_value_t = 3)]
    pub depth: i32,
    /// Rule set of the self-play games.
    #[arg(long, default_value = "xiangqi")]
    pub variant: String,
    /// Gradient-descent epochs.
    #[arg(long, default_value_t = 300)]
    pub epochs: usize,
    /// Read labelled positions from this file instead of playing (one `RESULT FEN` a line).
    #[arg(long)]
    pub data: Option<std::path::PathBuf>,
    /// Save the generated labelled positions here.
    #[arg(long)]
    pub save_data: Option<std::path::PathBuf>,
    /// Write the tuned weights as Rust source (a new `params/<rule set>.rs`) here.
    #[arg(long)]
    pub out: Option<std::path::PathBuf>,
    /// Worker threads for self-play.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Random seed.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Which weights to fit (the rest keep the rule set's current values).
    #[arg(long, value_enum, default_value_t = crate::tune::Terms::All)]
    pub terms: crate::tune::Terms,
}

/// Runs `qiyuan-lab tune`.
pub fn tune_main(args: TuneArgs) -> Result<()> {
    crate::tune::tune_main(args)
}
