//! `qiyuan puzzles generate|merge|check|stats`: runs qiyuan-puzzles'
//! generator and appends its puzzles to a CSV file, merges generated files
//! into a shipped one, re-checks and describes puzzle files (the file I/O
//! and the printing live here; the generator is pure).

use std::collections::{BTreeMap, HashSet};
use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

use anyhow::{Context, Result, bail};
use qiyuan_puzzles::generate::{GenConfig, Progress, generate};
use qiyuan_puzzles::{
    CSV_HEADER, Puzzle, format_id, format_row, id_prefix, next_id_number, parse_row, recheck,
};
use qiyuan_xiangqi::Variant;

/// `qiyuan puzzles …`.
#[derive(clap::Subcommand)]
pub enum PuzzlesCommand {
    /// Make puzzles from engine self-play and append them to a CSV file
    /// (`id,fen,moves,rating,themes`); the same seed and count give the same puzzles.
    Generate(GenerateArgs),
    /// Append the puzzles of generated files to a puzzle file, in the order
    /// given, skipping those it already has (same position and first move),
    /// with ids continuing the file's.
    Merge(MergeArgs),
    /// Re-check puzzles from scratch: each still has exactly the stored
    /// solution; prints `fail ID WHY` for each that does not, exits 1 if any.
    Check(CheckArgs),
    /// Print count, themes and rating spread of puzzle files.
    Stats(StatsArgs),
    /// Make puzzles from the hall's finished rated games (the same checks as
    /// `generate`) and append them to a CSV file.
    FromGames(crate::puzzles_from_games::FromGamesArgs),
}

/// Arguments of `qiyuan puzzles merge`.
#[derive(clap::Args)]
pub struct MergeArgs {
    /// Rule set of every file: xiangqi, jifen-simple, jifen-match or jifen-contest.
    #[arg(long, default_value = "xiangqi")]
    variant: String,
    /// The file appended to (created with its header).
    #[arg(long)]
    out: PathBuf,
    /// Generated files, in order.
    files: Vec<PathBuf>,
}

/// Arguments of `qiyuan puzzles check`.
#[derive(clap::Args)]
pub struct CheckArgs {
    /// Rule set of the file.
    #[arg(long, default_value = "xiangqi")]
    variant: String,
    /// Re-check this many puzzles drawn at random (default: all).
    #[arg(long)]
    sample: Option<usize>,
    /// Seed of the sample.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Rewrite the file without the puzzles that failed (and exit 0).
    #[arg(long)]
    drop: bool,
    /// The puzzle file.
    file: PathBuf,
}

/// Arguments of `qiyuan puzzles stats`.
#[derive(clap::Args)]
pub struct StatsArgs {
    /// Puzzle files.
    files: Vec<PathBuf>,
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
const MAX_CSV_BYTES: u64 = 512 * 1024 * 1024;

/// Runs a `qiyuan puzzles` command.
pub fn puzzles_main(cmd: PuzzlesCommand) -> Result<()> {
    match cmd {
        PuzzlesCommand::Generate(args) => generate_main(args),
        PuzzlesCommand::Merge(args) => merge_main(args),
        PuzzlesCommand::Check(args) => check_main(args),
        PuzzlesCommand::Stats(args) => {
            for f in &args.files {
                let rows = read_rows(f)?;
                println!("file {} puzzles {}", f.display(), rows.len());
                print_stats(rows.iter().map(|(_, p)| p));
            }
            Ok(())
        }
        PuzzlesCommand::FromGames(args) => crate::puzzles_from_games::from_games_main(args),
    }
}

pub(crate) fn variant_of(name: &str) -> Result<Variant> {
    Variant::from_name(name).with_context(|| {
        format!(
            "unknown variant '{name}' (known: xiangqi, jifen-simple, jifen-match, jifen-contest)"
        )
    })
}

/// A puzzle file's text ("" when it does not exist), bounded.
pub(crate) fn read_csv(path: &PathBuf) -> Result<String> {
    match std::fs::metadata(path) {
        Ok(m) if m.len() > MAX_CSV_BYTES => bail!(
            "{}: {} bytes is more than a puzzle file may have",
            path.display(),
            m.len()
        ),
        Ok(_) => std::fs::read_to_string(path).with_context(|| format!("{}", path.display())),
        Err(_) => Ok(String::new()),
    }
}

fn read_rows(path: &PathBuf) -> Result<Vec<(String, Puzzle)>> {
    Ok(read_csv(path)?.lines().filter_map(parse_row).collect())
}

/// Appends the puzzles `out` does not have yet (same position and first
/// move), with ids after its largest (or from `start_id`); returns those
/// written.
pub(crate) fn append_new<'a>(
    out: &PathBuf,
    variant: Variant,
    puzzles: impl IntoIterator<Item = &'a Puzzle>,
    start_id: Option<u64>,
) -> Result<Vec<&'a Puzzle>> {
    let existing = read_csv(out)?;
    let prefix = id_prefix(variant);
    let mut next = start_id.unwrap_or_else(|| next_id_number(&existing, prefix));
    let mut known: HashSet<(String, String)> = existing
        .lines()
        .filter_map(parse_row)
        .filter_map(|(_, p)| Some((p.fen.clone(), p.moves.first()?.clone())))
        .collect();
    let mut text = String::new();
    if existing.trim().is_empty() {
        text.push_str(CSV_HEADER);
        text.push('\n');
    } else if !existing.ends_with('\n') {
        text.push('\n');
    }
    let mut written = Vec::new();
    for p in puzzles {
        let Some(first) = p.moves.first() else {
            continue;
        };
        if !known.insert((p.fen.clone(), first.clone())) {
            continue;
        }
        text.push_str(&format_row(&format_id(prefix, next), p));
        text.push('\n');
        next += 1;
        written.push(p);
    }
    let mut f = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(out)
        .with_context(|| format!("{}", out.display()))?;
    f.write_all(text.as_bytes())
        .with_context(|| format!("{}", out.display()))?;
    Ok(written)
}

fn merge_main(args: MergeArgs) -> Result<()> {
    let variant = variant_of(&args.variant)?;
    let mut all = Vec::new();
    for f in &args.files {
        let rows = read_rows(f)?;
        for (id, p) in rows {
            if !qiyuan_puzzles::replays(&p.fen, variant, &p.moves) {
                bail!("{}: {id} does not replay as {}", f.display(), args.variant);
            }
            all.push(p);
        }
    }
    let written = append_new(&args.out, variant, &all, None)?;
    println!("read {} added {}", all.len(), written.len());
    print_stats(written.into_iter());
    Ok(())
}

fn check_main(args: CheckArgs) -> Result<()> {
    let variant = variant_of(&args.variant)?;
    let rows = read_rows(&args.file)?;
    let picked: Vec<&(String, Puzzle)> = match args.sample {
        Some(n) if n < rows.len() => {
            let mut rng = qiyuan_engine::rng::Rng::new(args.seed);
            let mut idx: Vec<usize> = (0..rows.len()).collect();
            for i in 0..n {
                let j = i + rng.below((rows.len() - i) as u64) as usize;
                idx.swap(i, j);
            }
            idx[..n].sort_unstable();
            idx[..n].iter().map(|&i| &rows[i]).collect()
        }
        _ => rows.iter().collect(),
    };
    let cfg = recheck::check_config(variant);
    let started = Instant::now();
    let mut failed = HashSet::new();
    for (id, p) in &picked {
        if let Err(why) = recheck::recheck(variant, p, &cfg) {
            println!("fail {id} {why}");
            failed.insert(id.as_str());
        }
    }
    println!(
        "checked {} failed {} seconds {:.1}",
        picked.len(),
        failed.len(),
        started.elapsed().as_secs_f64()
    );
    if args.drop {
        let mut text = format!("{CSV_HEADER}\n");
        for (id, p) in rows.iter().filter(|(id, _)| !failed.contains(id.as_str())) {
            text.push_str(&format_row(id, p));
            text.push('\n');
        }
        std::fs::write(&args.file, text).with_context(|| format!("{}", args.file.display()))?;
        println!("dropped {}", failed.len());
    } else if !failed.is_empty() {
        bail!("{} puzzles failed their re-check", failed.len());
    }
    Ok(())
}

/// Prints themes and rating spread of `puzzles`.
pub(crate) fn print_stats<'a>(puzzles: impl Iterator<Item = &'a Puzzle>) {
    let mut themes: BTreeMap<&str, usize> = BTreeMap::new();
    let mut ratings: Vec<i32> = Vec::new();
    for p in puzzles {
        ratings.push(p.rating);
        for t in &p.themes {
            *themes.entry(t.as_str()).or_default() += 1;
        }
    }
    for (tag, _, _) in qiyuan_puzzles::themes::THEMES {
        if let Some(n) = themes.get(tag) {
            println!("theme {tag} {n}");
        }
    }
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
}

fn generate_main(args: GenerateArgs) -> Result<()> {
    let variant = variant_of(&args.variant)?;
    if !(1..=1_000_000).contains(&args.count) {
        bail!("--count must be 1..=1000000, not {}", args.count);
    }
    if !(1..=256).contains(&args.threads) {
        bail!("--threads must be 1..=256, not {}", args.threads);
    }
    // Read (and bound) the file before the long run, not after it.
    read_csv(&args.out)?;
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
    let written = append_new(&args.out, variant, &puzzles, args.start_id)?;

    println!("puzzles {}", written.len());
    if written.len() < puzzles.len() {
        println!("already in the file {}", puzzles.len() - written.len());
    }
    println!("seconds {secs:.1}");
    println!(
        "seconds per 100 puzzles {:.1}",
        secs * 100.0 / puzzles.len().max(1) as f64
    );
    print_stats(written.into_iter());
    Ok(())
}
