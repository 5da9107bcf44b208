//! Tiaoqi (跳棋) on the analysis board: the crate's AI ([`qiyuan_tiaoqi::ai`])
//! ranks the moves of a position for the side to move.
//!
//! A request is `VARIANT\nPOSITION\nMOVE MOVE …\nDEPTH\nLINES[\nNODES]`: the
//! variant names the seating (`tiaoqi` two players, `tiaoqi-3`, `tiaoqi-4`,
//! `tiaoqi-6`), the position is the T13 text (10 or 15 pieces each, read from
//! it), the moves (T13 text, any path or `start-end`) are played from it
//! first, then the AI searches to DEPTH plies (its iterative deepening, at
//! most [`MAX_DEPTH`]) within NODES nodes (at most [`MAX_NODES`]) and gives its
//! LINES best moves (1-5). The page asks depth after depth until the user
//! stops it or the budget ends the deepening.
//!
//! The answer: `lines` (best first, each `move` as `start-end`, `path` the
//! hops of one shortest chain, `score` for the side to move in the AI's
//! points, 100 a row; `win` the plies to a forced finish, negative when an
//! opponent's comes first), `best`, `depth` (the deepest iteration
//! completed), `nodes`, `next` (the next depth worth asking: two-player
//! searches deepen by two), `turn` and `over`.

use qiyuan_tiaoqi::ai::{self, LevelSpec, Method};
use qiyuan_tiaoqi::{Game, Move, Position, Setup};

/// Deepest search a request may ask (the AI's level 8 goes to 12).
pub const MAX_DEPTH: u32 = 20;
/// Most nodes one request may spend (a few seconds in a browser).
pub const MAX_NODES: u64 = 20_000_000;
/// Nodes a request spends when it names none.
pub const DEFAULT_NODES: u64 = 2_000_000;
/// Moves searched below the root: the strongest level's width.
const WIDTH: usize = 14;

/// The seating of a variant name: players at the start.
pub fn players_of(variant: &str) -> Option<u8> {
    match variant {
        "tiaoqi" | "tiaoqi-2" => Some(2),
        "tiaoqi-3" => Some(3),
        "tiaoqi-4" => Some(4),
        "tiaoqi-6" => Some(6),
        _ => None,
    }
}

/// The game a position text starts for `players` (10 or 15 pieces each, as
/// the text has them).
pub fn game_of(players: u8, text: &str) -> Result<Game, String> {
    let rows = text.split(' ').next().unwrap_or("");
    let most = ('a'..='f')
        .map(|l| rows.chars().filter(|&c| c == l).count())
        .max()
        .unwrap_or(0);
    let pieces = if most > 10 { 15 } else { 10 };
    let setup = Setup::new(players, pieces).map_err(|e| e.to_string())?;
    Game::from_text(setup, text, true).map_err(|e| e.to_string())
}

/// Answers one Tiaoqi request (the lines after the variant's).
pub fn analyse(variant: &str, rest: &mut std::str::Lines<'_>) -> Result<serde_json::Value, String> {
    let players = players_of(variant).ok_or_else(|| format!("unknown variant '{variant}'"))?;
    let mut game = game_of(players, rest.next().unwrap_or("").trim())?;
    let moves = rest.next().unwrap_or("");
    let number = |text: Option<&str>, what: &str, default: u64, max: u64| -> Result<u64, String> {
        match text.map(str::trim) {
            None | Some("") => Ok(default),
            Some(n) => n
                .parse::<u64>()
                .ok()
                .filter(|n| (1..=max).contains(n))
                .ok_or_else(|| format!("the {what} is 1 to {max}")),
        }
    };
    let depth = number(rest.next(), "depth", 6, u64::from(MAX_DEPTH))? as u32;
    let lines = number(rest.next(), "lines", 1, crate::MAX_LINES as u64)? as usize;
    let nodes = number(rest.next(), "nodes", DEFAULT_NODES, MAX_NODES)?;
    for (i, text) in moves.split_whitespace().enumerate() {
        game.play_text(text)
            .map_err(|e| format!("move {}: {text}: {e}", i + 1))?;
    }
    let spec = LevelSpec {
        nodes,
        max_depth: depth,
        width: WIDTH,
        noise: 0,
    };
    let p = game.position();
    let turn = p.turn().to_string();
    let two = p.players_in_play() == 2;
    let Some(a) = ai::analyse(&game, spec, ai::DEFAULT_METHOD, lines) else {
        return Ok(serde_json::json!({
            "over": true, "turn": turn, "lines": [], "best": null, "depth": 0, "nodes": 0, "next": null,
        }));
    };
    let found: Vec<serde_json::Value> = a.lines.iter().map(|l| line_json(p, l)).collect();
    // A finished deepening (the depth asked reached, or a forced result
    // found) or a spent budget: asking deeper would repeat it.
    let next = a.depth + if two { 2 } else { 1 };
    Ok(serde_json::json!({
        "over": false,
        "turn": turn,
        "best": a.lines.first().map(|l| l.mv.to_string()),
        "lines": found,
        "depth": a.depth,
        "nodes": a.nodes,
        "next": next,
        "spent": a.nodes >= nodes,
        "method": if two { "alpha-beta" } else if ai::DEFAULT_METHOD == Method::Brs { "best-reply" } else { "paranoid" },
    }))
}

/// One ranked move as JSON.
fn line_json(p: &Position, l: &ai::Line) -> serde_json::Value {
    let win = ai::weights::WIN;
    let plies = |s: i32| (win - s.abs()).max(1);
    let forced = (l.score.abs() >= win - 1000).then(|| l.score.signum() * plies(l.score));
    serde_json::json!({
        "move": l.mv.to_string(),
        "path": if l.mv == Move::Pass { "pass".to_string() } else { p.move_text(l.mv) },
        "score": if forced.is_some() { l.score.signum() * 100_000 } else { l.score },
        "win": forced,
        "depth": l.depth,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use qiyuan_tiaoqi::ai::level_spec;

    fn ask(request: &str) -> serde_json::Value {
        serde_json::from_str(&crate::analyse(request)).expect("JSON")
    }

    fn variant(players: u8) -> &'static str {
        match players {
            2 => "tiaoqi",
            3 => "tiaoqi-3",
            4 => "tiaoqi-4",
            _ => "tiaoqi-6",
        }
    }

    /// Start positions and positions some moves in (level 3 playing every
    /// seat), for each seating.
    fn positions() -> Vec<(u8, Game)> {
        let mut out = Vec::new();
        for players in [2u8, 3, 4, 6] {
            let mut g = Game::start_of(Setup::new(players, 10).expect("setup"), true);
            for ply in 0..40u64 {
                if ply % 13 == 0 {
                    out.push((players, g.clone()));
                }
                let Some(m) = ai::choose(&g, 3, ply) else {
                    break;
                };
                g.play(m).expect("legal");
            }
        }
        out
    }

    #[test]
    fn every_line_is_a_legal_move_of_the_side_to_move_best_first() {
        for (players, g) in positions() {
            let p = g.position();
            let text = p.to_text();
            let v = ask(&format!("{}\n{text}\n\n4\n3\n20000", variant(players)));
            let lines = v["lines"].as_array().expect("lines");
            assert_eq!(lines.len(), 3, "{text}: {v}");
            assert_eq!(v["turn"], p.turn().to_string(), "{v}");
            let mut seen = Vec::new();
            for l in lines {
                let mv = l["move"].as_str().unwrap_or("");
                let m = p.parse_move(mv).expect("legal");
                assert!(p.is_legal(m), "{text}: {mv}");
                // The path is a legal chain to the same hole.
                assert_eq!(p.parse_move(l["path"].as_str().unwrap_or("")), Ok(m), "{v}");
                assert!(!seen.contains(&m), "{mv} twice: {v}");
                seen.push(m);
            }
            let scores: Vec<i64> = lines.iter().filter_map(|l| l["score"].as_i64()).collect();
            assert!(scores.windows(2).all(|w| w[0] >= w[1]), "{v}");
            assert_eq!(v["best"], lines[0]["move"], "{v}");
        }
    }

    #[test]
    fn the_best_line_is_the_ais_own_choice_at_the_same_budget() {
        // Levels 7 and 8 search as wide as the analysis (14 moves) with no noise.
        for (players, g) in positions() {
            let text = g.position().to_text();
            for level in [7u8, 8] {
                let spec = level_spec(level);
                let fresh = game_of(players, &text).expect("text");
                let chosen = ai::choose(&fresh, level, 1).expect("a move");
                let v = ask(&format!(
                    "{}\n{text}\n\n{}\n1\n{}",
                    variant(players),
                    spec.max_depth,
                    spec.nodes
                ));
                assert_eq!(
                    v["best"],
                    chosen.to_string(),
                    "{players} players, level {level}, {text}: {v}"
                );
            }
        }
    }

    #[test]
    fn moves_are_played_first_and_a_finished_game_has_no_lines() {
        let start = Position::start(Setup::new(2, 10).expect("setup")).to_text();
        let v = ask(&format!("tiaoqi\n{start}\n3.1-5.5 14.1-13.5\n3\n2\n5000"));
        assert_eq!(v["turn"], "a", "{v}");
        let mut g = game_of(2, &start).expect("start");
        g.play_text("3.1-5.5").expect("legal");
        g.play_text("14.1-13.5").expect("legal");
        let best = v["best"].as_str().unwrap_or("");
        assert!(g.position().parse_move(best).is_ok(), "{v}");
        let v = ask(&format!("tiaoqi\n{start}\n3.1-5.5 3.1-5.5\n3\n2"));
        assert!(v["error"].as_str().unwrap_or("").contains("move 2"), "{v}");
        // Red has filled d's camp (green's pieces in rows 5 and 6): over (T8).
        let done = format!(
            "a/aa/aaa/aaaa/{}/{}/{}/{}/{}/{}/{}/...ddddd..../....ddddd..../..../.../../. d ad",
            ".".repeat(13),
            ".".repeat(12),
            ".".repeat(11),
            ".".repeat(10),
            ".".repeat(9),
            ".".repeat(10),
            ".".repeat(11)
        );
        assert!(game_of(2, &done).expect("text").turn().is_none());
        let v = ask(&format!("tiaoqi\n{done}\n\n3\n2"));
        assert_eq!(v["over"], true, "{v}");
        assert_eq!(v["lines"].as_array().map(Vec::len), Some(0), "{v}");
    }

    #[test]
    fn a_two_player_search_deepens_by_two_and_three_players_by_one() {
        let two = Position::start(Setup::new(2, 10).expect("setup")).to_text();
        let v = ask(&format!("tiaoqi\n{two}\n\n3\n1"));
        assert_eq!(
            (v["depth"].as_u64(), v["next"].as_u64()),
            (Some(3), Some(5)),
            "{v}"
        );
        let three = Position::start(Setup::new(3, 10).expect("setup")).to_text();
        let v = ask(&format!("tiaoqi-3\n{three}\n\n3\n1"));
        assert_eq!(
            (v["depth"].as_u64(), v["next"].as_u64()),
            (Some(3), Some(4)),
            "{v}"
        );
        // Fifteen pieces each (T3): read from the text.
        let fifteen = Position::start(Setup::new(2, 15).expect("setup")).to_text();
        assert!(ask(&format!("tiaoqi\n{fifteen}\n\n1\n1"))["best"].is_string());
    }

    #[test]
    fn bad_tiaoqi_requests_are_refused_with_a_reason() {
        let start = Position::start(Setup::new(3, 10).expect("setup")).to_text();
        for (req, what) in [
            ("tiaoqi-5\nx\n\n2".to_string(), "variant"),
            ("tiaoqi-3\nnot a position\n\n2".to_string(), "17 rows"),
            (format!("tiaoqi\n{start}\n\n2"), "not seated"),
            (format!("tiaoqi-3\n{start}\n\n99"), "depth"),
            (format!("tiaoqi-3\n{start}\n\n2\n9"), "lines"),
            (format!("tiaoqi-3\n{start}\n\n2\n1\n999999999"), "nodes"),
        ] {
            let v = ask(&req);
            let e = v["error"].as_str().unwrap_or("");
            assert!(e.contains(what), "{req:?}: {v}");
        }
    }
}
