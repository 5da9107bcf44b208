//! The games this binary offers: the one place that names the game crates
//! for the hall. A new game is a crate plus one line here.

use qiyuan_hall::domain::classics::ClassicRecord;
use qiyuan_hall::domain::puzzles::PuzzleRecord;
use qiyuan_hall::registry::Registry;

/// Every game the hall serves, with the shipped puzzles.
pub fn games() -> Registry {
    let games = kinds();
    let puzzles = puzzles(&games);
    let classics = classics(&games);
    games.with_puzzles(puzzles).with_classics(classics)
}

/// The shipped classic endgames, `data/classics/<variant>.tsv`, embedded
/// at build time: a file's name is its variant.
#[derive(rust_embed::RustEmbed)]
#[folder = "../../data/classics/"]
struct ClassicFiles;

/// The rows of every shipped classics file, unchecked (the hall checks each
/// through its game), in the order of the registry's variants.
pub fn classics(games: &Registry) -> Vec<ClassicRecord> {
    let mut out = Vec::new();
    for variant in games.variant_names() {
        let Some(file) = ClassicFiles::get(&format!("{variant}.tsv")) else {
            continue;
        };
        match std::str::from_utf8(&file.data) {
            Ok(text) => out.extend(ClassicRecord::parse_tsv(variant, text)),
            Err(_) => eprintln!("warning: data/classics/{variant}.tsv is not UTF-8; skipped"),
        }
    }
    out
}

/// The shipped puzzle sets, `data/puzzles/<variant>.csv`, embedded at
/// build time: a file's name is its variant.
#[derive(rust_embed::RustEmbed)]
#[folder = "../../data/puzzles/"]
struct PuzzleFiles;

/// The rows of every shipped puzzle file, unchecked (the hall checks each
/// through its game at start), in the order of the registry's variants.
pub fn puzzles(games: &Registry) -> Vec<PuzzleRecord> {
    let order = games.variant_names();
    let mut files: Vec<(usize, String)> = PuzzleFiles::iter()
        .filter_map(|name| {
            let variant = name.strip_suffix(".csv")?.to_string();
            let place = order
                .iter()
                .position(|v| *v == variant)
                .unwrap_or(usize::MAX);
            Some((place, variant))
        })
        .collect();
    files.sort();
    let mut out = Vec::new();
    for (_, variant) in files {
        let Some(file) = PuzzleFiles::get(&format!("{variant}.csv")) else {
            continue;
        };
        match std::str::from_utf8(&file.data) {
            Ok(text) => out.extend(PuzzleRecord::parse_csv(&variant, text)),
            Err(_) => eprintln!("warning: data/puzzles/{variant}.csv is not UTF-8; skipped"),
        }
    }
    out
}

/// The registered kinds.
fn kinds() -> Registry {
    Registry::new()
        .with(qiyuan_engine::kind::kinds())
        .with([std::sync::Arc::new(qiyuan_banqi::table::BanqiKind) as _])
        .with([std::sync::Arc::new(qiyuan_tiaoqi::table::TiaoqiKind) as _])
        .with([std::sync::Arc::new(qiyuan_junqi::table::JunqiKind) as _])
        .with([std::sync::Arc::new(qiyuan_junqi::siguo::table::SiguoKind) as _])
}
