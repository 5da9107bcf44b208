//! `qiyuan puzzles from-games`: puzzles from the hall's finished rated
//! games (issue 40 asks for them besides self-play). The games are read
//! through the hall's store, oldest first, a page at a time; each is
//! replayed and every position goes through the same scan and checks as
//! self-play ([`qiyuan_puzzles::generate::scan_game`]); the puzzles are
//! appended to the CSV file as `generate` appends them
//! ([`crate::puzzles_cli::append_new`]), after each page.
//!
//! Reproducible: a game's puzzles depend only on the game (the searcher is
//! cleared before each), and they are written in the games' order whatever
//! the thread count.

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use anyhow::{Context, Result, bail};
use qiyuan_engine::search::Searcher;
use qiyuan_hall::store::{GameRow, MoveRow, Storage};
use qiyuan_puzzles::Puzzle;
use qiyuan_puzzles::generate::{GenConfig, scan_game};
use qiyuan_xiangqi::{Position, START_FEN, Variant};

use crate::puzzles_cli::{append_new, print_stats, read_csv, variant_of};

/// Arguments of `qiyuan puzzles from-games`.
#[derive(clap::Args)]
pub struct FromGamesArgs {
    /// The hall's database, as `qiyuan serve --database` names it
    /// (`sqlite://FILE` or `postgres://…`).
    #[arg(long, default_value = "sqlite://qiyuan.db")]
    db: String,
    /// Rule set: xiangqi, jifen-simple, jifen-match or jifen-contest.
    #[arg(long, default_value = "xiangqi")]
    variant: String,
    /// Finished rated games read at most, oldest first (1..=1000000).
    #[arg(long, default_value_t = 10_000)]
    limit: usize,
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

/// The most games `--limit` may ask for.
const MAX_GAMES: usize = 1_000_000;
/// Games read from the store at once.
const PAGE: usize = 200;
/// Plies of a game replayed at most (longer games are cut there).
const MAX_PLIES: usize = 1000;

/// What a run read: games scanned and games left out, by why.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Games read from the store.
    pub read: usize,
    /// Games replayed and scanned.
    pub scanned: usize,
    /// Aborted games (no real play).
    pub aborted: usize,
    /// Jifen games to another target than the rule set's (a puzzle row
    /// has no target, so it would be played to the default one).
    pub other_target: usize,
    /// Games whose start position does not read.
    pub bad_start: usize,
}

/// Runs `qiyuan puzzles from-games`.
pub fn from_games_main(args: FromGamesArgs) -> Result<()> {
    let variant = variant_of(&args.variant)?;
    if !(1..=MAX_GAMES).contains(&args.limit) {
        bail!("--limit must be 1..={MAX_GAMES}, not {}", args.limit);
    }
    if !(1..=256).contains(&args.threads) {
        bail!("--threads must be 1..=256, not {}", args.threads);
    }
    // Reading must not make an empty database where the hall's is missing.
    if let Some(rest) = args.db.strip_prefix("sqlite://") {
        let file = rest.split('?').next().unwrap_or(rest);
        if !Path::new(file).exists() {
            bail!("{file}: no such database");
        }
    }
    // Read (and bound) the file before the long run, not after it.
    read_csv(&args.out)?;
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("cannot start the runtime")?;
    let store = rt
        .block_on(qiyuan_hall::store::open(&args.db))
        .with_context(|| format!("cannot open the database {}", args.db))?;

    let cfg = GenConfig::new(variant, 1, 0);
    let mut searchers: Vec<Searcher> = (0..args.threads)
        .map(|_| Searcher::new(cfg.hash_mb))
        .collect();
    let started = Instant::now();
    let mut counts = Counts::default();
    let mut found = 0;
    let mut written: Vec<Puzzle> = Vec::new();
    let mut start_id = args.start_id;
    let mut after: (i64, String) = (i64::MIN, String::new());
    while counts.read < args.limit {
        let want = PAGE.min(args.limit - counts.read);
        let page = rt
            .block_on(read_page(store.as_ref(), variant, &after, want))
            .context("cannot read the games")?;
        let Some((last, _)) = page.last() else {
            break;
        };
        after = (last.created_ms, last.id.clone());
        counts.read += page.len();
        let games: Vec<(Position, Vec<String>)> = page
            .iter()
            .filter_map(|(row, moves)| replayable(variant, row, moves, &mut counts))
            .collect();
        counts.scanned += games.len();
        let puzzles = scan_all(&cfg, &mut searchers, &games);
        found += puzzles.len();
        let added = append_new(&args.out, variant, &puzzles, start_id)?;
        // `--start-id` numbers the first puzzles written; later ones continue the file's.
        if !added.is_empty() {
            start_id = None;
        }
        written.extend(added.into_iter().cloned());
        println!(
            "progress games {} puzzles {} seconds {:.0}",
            counts.read,
            written.len(),
            started.elapsed().as_secs_f64()
        );
        if page.len() < want {
            break;
        }
    }
    rt.block_on(store.close());
    let secs = started.elapsed().as_secs_f64();
    println!("games {}", counts.read);
    println!("games scanned {}", counts.scanned);
    if counts.aborted > 0 {
        println!("games aborted {}", counts.aborted);
    }
    if counts.other_target > 0 {
        println!("games to another target {}", counts.other_target);
    }
    if counts.bad_start > 0 {
        println!("games with an unreadable start {}", counts.bad_start);
    }
    println!("puzzles {}", written.len());
    if written.len() < found {
        println!("already in the file {}", found - written.len());
    }
    println!("seconds {secs:.1}");
    println!(
        "seconds per 100 games {:.1}",
        secs * 100.0 / counts.scanned.max(1) as f64
    );
    print_stats(written.iter());
    Ok(())
}

/// The next page of finished rated games of `variant` after `after`.
async fn read_page(
    store: &dyn Storage,
    variant: Variant,
    after: &(i64, String),
    limit: usize,
) -> Result<Vec<(GameRow, Vec<MoveRow>)>> {
    let limit = i64::try_from(limit).unwrap_or(i64::MAX);
    Ok(store
        .finished_rated_games(variant.name(), (after.0, &after.1), limit)
        .await?)
}

/// A game's start position and moves, or `None` (counted) for a game that
/// is not scanned.
fn replayable(
    variant: Variant,
    row: &GameRow,
    moves: &[MoveRow],
    counts: &mut Counts,
) -> Option<(Position, Vec<String>)> {
    if row.reason.as_deref() == Some(qiyuan_core::EndReason::Aborted.as_str()) {
        counts.aborted += 1;
        return None;
    }
    let target = row.options.get("target").copied();
    if target.is_some_and(|t| t != i64::from(variant.default_target())) {
        counts.other_target += 1;
        return None;
    }
    let Ok(start) =
        Position::from_fen_variant(row.start_fen.as_deref().unwrap_or(START_FEN), variant, None)
    else {
        counts.bad_start += 1;
        return None;
    };
    let moves = moves.iter().take(MAX_PLIES).map(|m| m.mv.clone()).collect();
    Some((start, moves))
}

/// The puzzles of `games`, scanned by one thread per searcher, in the
/// games' order.
fn scan_all(
    cfg: &GenConfig,
    searchers: &mut [Searcher],
    games: &[(Position, Vec<String>)],
) -> Vec<Puzzle> {
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<(usize, Vec<Puzzle>)>> = Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for searcher in searchers.iter_mut() {
            let (next, results) = (&next, &results);
            s.spawn(move || {
                loop {
                    let i = next.fetch_add(1, Ordering::SeqCst);
                    let Some((start, moves)) = games.get(i) else {
                        break;
                    };
                    let found = scan_game(cfg, searcher, start.clone(), moves);
                    results
                        .lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .push((i, found));
                }
            });
        }
    });
    let mut results = results.into_inner().unwrap_or_else(|e| e.into_inner());
    results.sort_by_key(|(i, _)| *i);
    results.into_iter().flat_map(|(_, ps)| ps).collect()
}
