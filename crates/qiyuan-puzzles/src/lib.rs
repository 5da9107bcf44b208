//! Puzzles for the Xiangqi family (issue 40), made by our own engine.
//!
//! - [`generate`]: candidate positions from engine self-play at varied
//!   levels and openings, in Xiangqi and each Jifen rule set, several games
//!   at once, reproducibly for a seed.
//! - [`verify`]: whether a position is a puzzle: exactly one winning move at
//!   every solver move, proven by the full-width [`solver`] for forced wins
//!   (mate, stalemate, a Jifen target) or by a deeper engine search for
//!   material and defence.
//! - [`themes`]: tags from the solution (mate length, the classic mating
//!   patterns by their geometry, material, defence, endgame, points).
//! - [`rating`]: the first rating from the puzzle's difficulty.
//!
//! Pure: the CLI reads and writes the CSV files; this crate only formats
//! and parses their lines.

pub mod generate;
pub mod rating;
pub mod recheck;
pub mod solver;
pub mod themes;
pub mod verify;

use qiyuan_engine::search::Searcher;
use qiyuan_engine::see::see;
use qiyuan_xiangqi::{Move, Position, Variant};

use crate::rating::{Difficulty, initial_rating};
use crate::verify::{Kind, Solution};

/// The CSV header of a puzzle file.
pub const CSV_HEADER: &str = "id,fen,moves,rating,themes";

/// One puzzle as stored: the position before the opponent's setting-up
/// move, that move and the solution (ICCS), the first rating and the themes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Puzzle {
    /// FEN before the opponent's setting-up move.
    pub fen: String,
    /// The setting-up move, then the solution (solver, reply, solver, ...).
    pub moves: Vec<String>,
    /// First rating (Glicko-2 scale).
    pub rating: i32,
    /// Theme tags (see [`themes::THEMES`]).
    pub themes: Vec<String>,
}

impl Puzzle {
    /// Builds the stored puzzle from the position before the setting-up
    /// move, that move and a verified solution: themes from the solution's
    /// final position, rating from its difficulty.
    pub fn from_solution(
        before: &Position,
        setup: Move,
        solution: &Solution,
        searcher: &mut Searcher,
        deep_depth: i32,
    ) -> Puzzle {
        let mut pos = before.clone();
        pos.make_move(setup);
        let start = pos.clone();
        let solver_side = pos.side_to_move();
        let mut last = pos.clone();
        for &m in &solution.line {
            last.make_move(m);
        }
        let solver_moves = solution.line.len().div_ceil(2) as u32;
        let mut themes: Vec<&'static str> = Vec::new();
        match solution.kind {
            Kind::Mate(n) => {
                themes.push(themes::mate_tag(n));
                themes.extend(themes::mate_patterns(&last, solver_side.flip()));
            }
            Kind::Points(_) => themes.push("points"),
            Kind::Material => themes.push("material"),
            Kind::Defence => themes.push("defence"),
        }
        if themes::is_endgame(&start) {
            themes.push("endgame");
        }
        let first = solution.line[0];
        let forcing = |m: Move| start.gives_check(m) || start.piece_at(m.to()).is_some();
        let plausible = start
            .legal_moves()
            .iter()
            .filter(|&&m| m != first && forcing(m))
            .count() as u32;
        let difficulty = Difficulty {
            solver_moves,
            plausible,
            found_depth: found_depth(searcher, &start, first, deep_depth),
            quiet: !forcing(first),
            sacrifice: see(&start, first) < 0,
            defence: solution.kind == Kind::Defence,
        };
        let mut moves = vec![setup.to_string()];
        moves.extend(solution.line.iter().map(|m| m.to_string()));
        Puzzle {
            fen: before.to_fen(),
            moves,
            rating: initial_rating(&difficulty),
            themes: themes.into_iter().map(String::from).collect(),
        }
    }
}

/// The iteration from which the engine, searching from scratch, chose
/// `solution` and kept it up to `depth` (`depth + 1` if it never did).
fn found_depth(searcher: &mut Searcher, pos: &Position, solution: Move, depth: i32) -> i32 {
    searcher.clear();
    let mut found = depth + 1;
    let limits = qiyuan_engine::SearchLimits {
        depth: Some(depth),
        ..Default::default()
    };
    searcher.search(pos, &[], &limits, &mut |info| {
        if info.pv.first() == Some(&solution) {
            found = found.min(info.depth);
        } else {
            found = depth + 1;
        }
    });
    found
}

/// A key that orders moves as their ICCS text does (`0000` first, then
/// squares, then a class mark after none), without formatting them: ties in
/// the checks are broken by move text so that runs are reproducible, and
/// formatting in the solver's inner loop cost a fifth of the generation time.
pub fn text_order(m: Move) -> (bool, u8, u8, u8, u8, Option<char>) {
    if m.is_pass() {
        return (false, 0, 0, 0, 0, None);
    }
    let (from, to) = (m.from(), m.to());
    (
        true,
        from.file(),
        from.rank(),
        to.file(),
        to.rank(),
        m.new_class().map(|c| c.mark()),
    )
}

/// The id prefix of a rule set's puzzles: `x`, `js`, `jm`, `jc`.
pub fn id_prefix(variant: Variant) -> &'static str {
    match variant {
        Variant::Xiangqi => "x",
        Variant::JifenSimple => "js",
        Variant::JifenMatch => "jm",
        Variant::JifenContest => "jc",
    }
}

/// The id of the `n`th puzzle with `prefix` (`x00001`).
pub fn format_id(prefix: &str, n: u64) -> String {
    format!("{prefix}{n:05}")
}

/// One CSV line (no newline).
pub fn format_row(id: &str, p: &Puzzle) -> String {
    format!(
        "{id},{},{},{},{}",
        p.fen,
        p.moves.join(" "),
        p.rating,
        p.themes.join(" ")
    )
}

/// A CSV line read back: the id and the puzzle. `None` for the header, a
/// blank line or a line that is not five fields.
pub fn parse_row(line: &str) -> Option<(String, Puzzle)> {
    let line = line.trim_end_matches(['\r', '\n']);
    if line.is_empty() || line == CSV_HEADER {
        return None;
    }
    let f: Vec<&str> = line.split(',').collect();
    if f.len() != 5 {
        return None;
    }
    Some((
        f[0].to_string(),
        Puzzle {
            fen: f[1].to_string(),
            moves: f[2].split_whitespace().map(String::from).collect(),
            rating: f[3].parse().ok()?,
            themes: f[4].split_whitespace().map(String::from).collect(),
        },
    ))
}

/// The number after the largest id with `prefix` in a CSV text (1 when none).
pub fn next_id_number(csv: &str, prefix: &str) -> u64 {
    csv.lines()
        .filter_map(parse_row)
        .filter_map(|(id, _)| id.strip_prefix(prefix)?.parse::<u64>().ok())
        .max()
        .map_or(1, |n| n + 1)
}

/// Whether `moves` (ICCS) are legal one after another from `fen`.
pub fn replays(fen: &str, variant: Variant, moves: &[String]) -> bool {
    let Ok(mut pos) = Position::from_fen_variant(fen, variant, None) else {
        return false;
    };
    for m in moves {
        match pos.parse_move(m) {
            Ok(mv) => {
                pos.make_move(mv);
            }
            Err(_) => return false,
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use qiyuan_xiangqi::START_FEN as START_FEN_X;

    #[test]
    fn text_order_sorts_moves_as_their_text_does() {
        let fens = [
            (START_FEN_X, Variant::Xiangqi),
            (START_FEN_X, Variant::JifenContest),
            (
                "rnba1ab2/4k4/1R*1c2n1r/p3C1p1p/2p1p4/9/P1P1P1P1P/2N1C4/9/2BAKABNR b - - 0 7 0 0 1 x",
                Variant::JifenSimple,
            ),
        ];
        let mut class_changes = 0;
        for (fen, variant) in fens {
            let pos = Position::from_fen_variant(fen, variant, None).unwrap();
            let mut moves = pos.legal_moves().to_vec();
            moves.push(Move::PASS);
            let mut by_text = moves.clone();
            by_text.sort_by_key(|m| m.to_string());
            moves.sort_by_key(|&m| text_order(m));
            assert_eq!(moves, by_text, "{fen}");
            class_changes += moves.iter().filter(|m| m.new_class().is_some()).count();
        }
        // The Jifen positions put marks in the text, which must sort too.
        assert!(class_changes > 0);
    }

    #[test]
    fn rows_round_trip_and_ids_continue() {
        let p = Puzzle {
            fen: "3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1".into(),
            moves: vec!["e1d1".into()],
            rating: 900,
            themes: vec!["mate1".into(), "endgame".into()],
        };
        let row = format_row("x00007", &p);
        assert_eq!(
            row,
            "x00007,3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1,e1d1,900,mate1 endgame"
        );
        assert_eq!(parse_row(&row), Some(("x00007".into(), p)));
        let csv = format!("{CSV_HEADER}\n{row}\n");
        assert_eq!(next_id_number(&csv, "x"), 8);
        assert_eq!(next_id_number(&csv, "js"), 1);
        assert_eq!(parse_row(CSV_HEADER), None);
    }
}
