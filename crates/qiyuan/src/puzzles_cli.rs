//! `qiyuan puzzles generate`: runs qiyuan-puzzles' generator and appends its
//! puzzles to a CSV file (the file I/O and the printing live here; the
//! generator is pure).

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::Instant;

use anyhow::{Context, Result, bail};
use qiyuan_puzzles::generate::{GenConfig, Progress, generate};
use qiyuan_xiangqi::Variant;

use crate::puzzle_csv::PuzzleFile;

/// `qiyuan puzzles …`.
#[derive(clap::Subcommand)]
pub enum PuzzlesCommand {
    /// Make puzzles from engine self-play and append them to a CSV file
    /// (`id,fen,moves,rating,themes`); the same seed and count give the same puzzles.
    Generate(GenerateArgs),
    /// Make puzzles from the hall's finished rated games (the same checks as
    /// `generate`) and append them to a CSV file.
    FromGames(crate::puzzles_from_games::FromGamesArgs),
}

/// Arguments of `qiyuan puzzles generate`.
#[derive(clap::Args)]
pub struct GenerateArgs {
    /// Rule set: xiangqi, jifen-simple, jifen-match or jifen-contest.
    #[arg(long, default_value = "xiangqi")]
    variant: String,
    /// Puzzles to make (1..=1000000).
    #[arg(long)]
    count: usize,
    /// The run's seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Worker threads (1..=256); the output does not depend on it.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// The number of the first new id (default: after the largest in the file).
    #[arg(long)]
    start_id: Option<u64>,
    /// The CSV file; created with its header, or appended to.
    #[arg(long)]
    out: PathBuf,
}

/// The largest puzzle file read back before appending.
pub(crate) const MAX_CSV_BYTES: u64 = 512 * 1024 * 1024;

/// Runs a `qiyuan puzzles` command.
pub fn puzzles_main(cmd: PuzzlesCommand) -> Result<()> {
    match cmd {
        PuzzlesCommand::Generate(args) => generate_main(args),
        PuzzlesCommand::FromGames(args) => crate::puzzles_from_games::from_games_main(args),
    }
}

fn generate_main(args: GenerateArgs) -> Result<()> {
    let variant = Variant::from_name(&args.variant).with_context(|| {
        format!(
            "unknown variant '{}' (known: xiangqi, jifen-simple, jifen-match, jifen-contest)",
            args.variant
        )
    })?;
    if !(1..=1_000_000).contains(&args.count) {
        bail!("--count must be 1..=1000000, not {}", args.count);
    }
    if !(1..=256).contains(&args.threads) {
        bail!("--threads must be 1..=256, not {}", args.threads);
    }
    let mut file = PuzzleFile::open(&args.out, variant, args.start_id)?;

    let mut cfg = GenConfig::new(variant, args.count, args.seed);
    cfg.threads = args.threads;
    let started = Instant::now();
    let report = |p: Progress| {
        println!(
            "progress games {} puzzles {} seconds {:.0}",
            p.games,
            p.puzzles,
            started.elapsed().as_secs_f64()
        );
    };
    let puzzles = generate(&cfg, &report);
    let secs = started.elapsed().as_secs_f64();

    let written = file.append(&puzzles)?;

    println!("puzzles {}", written.len());
    if written.len() < puzzles.len() {
        println!("already in the file {}", puzzles.len() - written.len());
    }
    println!("seconds {secs:.1}");
    println!(
        "seconds per 100 puzzles {:.1}",
        secs * 100.0 / puzzles.len().max(1) as f64
    );
    let mut themes: BTreeMap<&str, usize> = BTreeMap::new();
    for p in &written {
        for t in &p.themes {
            *themes.entry(t.as_str()).or_default() += 1;
        }
    }
    for (tag, _, _) in qiyuan_puzzles::themes::THEMES {
        if let Some(n) = themes.get(tag) {
            println!("theme {tag} {n}");
        }
    }
    let mut ratings: Vec<i32> = written.iter().map(|p| p.rating).collect();
    ratings.sort_unstable();
    if let (Some(lo), Some(hi)) = (ratings.first(), ratings.last()) {
        let q = |f: f64| ratings[((ratings.len() - 1) as f64 * f) as usize];
        println!(
            "rating min {lo} p25 {} median {} p75 {} max {hi}",
            q(0.25),
            q(0.5),
            q(0.75)
        );
        for band in (800..2600).step_by(200) {
            let n = ratings
                .iter()
                .filter(|&&r| r >= band && (r < band + 200 || band == 2400))
                .count();
            println!("rating {band}-{} {n}", band + 200);
        }
    }
    Ok(())
}
