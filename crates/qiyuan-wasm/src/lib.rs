//! The engine in the browser (issue 18, "analysis after a game"): the page
//! loads this crate built for `wasm32-unknown-unknown` (`web/engine.wasm`,
//! `scripts/build-wasm.sh`) in a Web Worker and asks it to search each
//! position of a finished game, as lichess runs Stockfish in the browser.
//!
//! The interface is three plain exports, no generated glue: the page asks
//! for an input buffer (`qy_input`), writes the request into it as UTF-8,
//! calls `qy_analyse`, and reads `qy_output_len` bytes of JSON at
//! `qy_output`. A request is `VARIANT\nFEN\nMOVE MOVE …\nDEPTH[\nLINES]`:
//! the game's start, the moves played so far (ICCS), how deep to search the
//! position they lead to, and how many best lines to give (MultiPV, 1-5;
//! the analysis board asks depth after depth, the searcher's table kept
//! between requests, until the user stops it). Natively the same code is [`analyse`], which the
//! tests call. A Tiaoqi variant's request is answered by its own AI: see
//! [`tiaoqi`].

use std::cell::RefCell;

pub mod tiaoqi;

use qiyuan_engine::rep::Earlier;
use qiyuan_engine::search::{MATE, MATE_BOUND};
use qiyuan_engine::{SearchLimits, Searcher};
use qiyuan_xiangqi::{Color, Position, Variant};

/// Deepest search a request may ask (the browser's patience, not a limit of
/// the engine: the analysis board stops asking when the user says so).
pub const MAX_DEPTH: i32 = 24;
/// Most best lines one request may ask.
pub const MAX_LINES: usize = 5;
/// Longest request, in bytes (a long game's moves fit many times over).
pub const MAX_REQUEST: usize = 64 * 1024;

thread_local! {
    static INPUT: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
    static OUTPUT: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
    static SEARCHER: RefCell<Option<Searcher>> = const { RefCell::new(None) };
}

/// One searched position, from red's point of view: the best line's
/// fields, and `lines`, the `lines` best lines (each searched with the ones
/// before it excluded at the root), best first.
fn verdict(pos: &Position, history: &[Earlier], depth: i32, lines: usize) -> serde_json::Value {
    let red = if pos.side_to_move() == Color::Red {
        1
    } else {
        -1
    };
    let legal = pos.clone().legal_moves().len();
    let mut found: Vec<serde_json::Value> = Vec::new();
    let mut excluded = Vec::new();
    let mut first = None;
    for _ in 0..lines.clamp(1, MAX_LINES) {
        if !found.is_empty() && excluded.len() >= legal {
            break;
        }
        let limits = SearchLimits {
            depth: Some(depth),
            excluded: excluded.clone(),
            ..SearchLimits::default()
        };
        let r = SEARCHER.with(|s| {
            let mut s = s.borrow_mut();
            let searcher = s.get_or_insert_with(|| Searcher::new(16));
            searcher.search(pos, history, &limits, &mut |_| {})
        });
        // A mate score says how many plies; the page shows it as "mate in N".
        let mate = (r.score.abs() >= MATE_BOUND).then(|| {
            let plies = MATE - r.score.abs();
            red * r.score.signum() * plies.max(1)
        });
        let line = serde_json::json!({
            "score": r.score * red,
            "mate": mate,
            "depth": r.depth,
            "best": r.best.map(|m| m.to_string()),
            "pv": r.pv.iter().map(ToString::to_string).collect::<Vec<_>>(),
        });
        let Some(best) = r.best else {
            first.get_or_insert(line);
            break;
        };
        // The search keeps an excluded move only when nothing else is
        // legal: a repeated best move means no other line is left.
        if excluded.contains(&best) {
            break;
        }
        excluded.push(best);
        first.get_or_insert(line.clone());
        found.push(line);
    }
    let mut v = first.unwrap_or_else(
        || serde_json::json!({"score": 0, "mate": null, "depth": 0, "best": null, "pv": []}),
    );
    v["over"] = serde_json::json!(found.is_empty());
    v["lines"] = serde_json::Value::Array(found);
    v
}

/// Answers one request (see the crate's doc): a JSON object with the
/// position's score for red (centipawns), `mate` (plies, signed for red)
/// when the search sees one, the best move and line; or `{"error": …}`.
pub fn analyse(request: &str) -> String {
    let answer = (|| -> Result<serde_json::Value, String> {
        if request.len() > MAX_REQUEST {
            return Err(format!("a request is at most {MAX_REQUEST} bytes"));
        }
        let mut lines = request.lines();
        let variant = lines.next().unwrap_or("xiangqi").trim();
        if variant.starts_with("tiaoqi") {
            return tiaoqi::analyse(variant, &mut lines);
        }
        let variant =
            Variant::from_name(variant).ok_or_else(|| format!("unknown variant '{variant}'"))?;
        let fen = lines.next().unwrap_or("").trim();
        let mut pos = Position::from_fen_variant(fen, variant, None).map_err(|e| e.to_string())?;
        let moves = lines.next().unwrap_or("");
        let depth: i32 = lines
            .next()
            .unwrap_or("6")
            .trim()
            .parse()
            .map_err(|_| "the depth is a number".to_string())?;
        if !(1..=MAX_DEPTH).contains(&depth) {
            return Err(format!("the depth is 1 to {MAX_DEPTH}"));
        }
        let lines: usize = match lines.next().map(str::trim) {
            None | Some("") => 1,
            Some(n) => n
                .parse()
                .ok()
                .filter(|n| (1..=MAX_LINES).contains(n))
                .ok_or_else(|| format!("the lines are 1 to {MAX_LINES}"))?,
        };
        let mut history = Vec::new();
        for (i, text) in moves.split_whitespace().enumerate() {
            let m = pos
                .parse_move(text)
                .map_err(|e| format!("move {}: {text}: {e}", i + 1))?;
            history.push(Earlier::play(&mut pos, m));
        }
        Ok(verdict(&pos, &history, depth, lines))
    })();
    match answer {
        Ok(v) => v.to_string(),
        Err(e) => serde_json::json!({ "error": e }).to_string(),
    }
}

/// A buffer of `len` bytes for the next request; its address.
#[unsafe(no_mangle)]
// SAFETY: the three exported names are unique to this crate and have no
// other definition in the module, which is all `no_mangle` requires.
pub extern "C" fn qy_input(len: usize) -> *mut u8 {
    INPUT.with(|b| {
        let mut b = b.borrow_mut();
        b.clear();
        b.resize(len.min(MAX_REQUEST + 1), 0);
        b.as_mut_ptr()
    })
}

/// Answers the request in the input buffer; the answer's length in bytes.
#[unsafe(no_mangle)]
pub extern "C" fn qy_analyse() -> usize {
    let request = INPUT.with(|b| String::from_utf8_lossy(&b.borrow()).into_owned());
    let answer = analyse(&request).into_bytes();
    OUTPUT.with(|o| {
        let mut o = o.borrow_mut();
        *o = answer;
        o.len()
    })
}

/// The address of the last answer.
#[unsafe(no_mangle)]
pub extern "C" fn qy_output() -> *const u8 {
    OUTPUT.with(|o| o.borrow().as_ptr())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ask(request: &str) -> serde_json::Value {
        serde_json::from_str(&analyse(request)).expect("JSON")
    }

    #[test]
    fn a_mate_in_one_is_seen_for_red() {
        // The b8 chariot holds rank 8 and the facing generals hold e9:
        // a0a9 mates, and so does any waiting move (no legal move loses, X1).
        let v = ask("xiangqi\n3k5/1R7/9/9/9/9/9/9/9/R3K4 w\n\n3");
        let mut after = Position::from_fen("3k5/1R7/9/9/9/9/9/9/9/R3K4 w").expect("FEN");
        let best = after
            .parse_move(v["best"].as_str().unwrap_or(""))
            .expect("a move");
        after.make_move(best);
        assert!(after.legal_moves().is_empty(), "{v}");
        assert_eq!(v["mate"], 1, "{v}");
        assert!(v["score"].as_i64().unwrap_or(0) > 30000, "{v}");
    }

    #[test]
    fn scores_are_from_reds_side_whoever_moves() {
        // The same material edge (red a chariot up), black to move.
        let v = ask("xiangqi\n3k5/9/9/9/9/9/9/9/9/R3K4 b\n\n2");
        assert!(v["score"].as_i64().unwrap_or(0) > 500, "{v}");
        let v = ask("xiangqi\n3k5/9/9/9/9/9/9/9/9/r3K4 w\n\n2");
        assert!(v["score"].as_i64().unwrap_or(0) < -500, "{v}");
    }

    #[test]
    fn moves_are_played_from_the_start() {
        let start = qiyuan_xiangqi::START_FEN;
        let v = ask(&format!("xiangqi\n{start}\nh2e2 h9g7\n2"));
        assert!(v["best"].is_string(), "{v}");
        let v = ask(&format!("xiangqi\n{start}\nh2e2 h2e2\n2"));
        assert!(v["error"].as_str().unwrap_or("").contains("move 2"), "{v}");
    }

    #[test]
    fn bad_requests_are_refused_with_a_reason() {
        for (req, what) in [
            ("chess\nx\n\n2", "variant"),
            ("xiangqi\nnot a fen\n\n2", ""),
            ("xiangqi\n3k5/9/9/9/9/9/9/9/9/R3K4 w\n\n99", "depth"),
            ("xiangqi\n3k5/9/9/9/9/9/9/9/9/R3K4 w\n\nx", "depth"),
        ] {
            let v = ask(req);
            let e = v["error"].as_str().unwrap_or("");
            assert!(!e.is_empty() && e.contains(what), "{req:?}: {v}");
        }
        let long = "a".repeat(MAX_REQUEST + 1);
        assert!(ask(&long)["error"].is_string());
    }

    #[test]
    fn several_lines_are_different_moves_best_first() {
        let start = qiyuan_xiangqi::START_FEN;
        let v = ask(&format!("xiangqi\n{start}\n\n3\n3"));
        let lines = v["lines"].as_array().expect("lines");
        assert_eq!(lines.len(), 3, "{v}");
        let firsts: Vec<&str> = lines.iter().filter_map(|l| l["best"].as_str()).collect();
        assert_eq!(firsts.len(), 3, "{v}");
        assert!(
            firsts[0] != firsts[1] && firsts[1] != firsts[2] && firsts[0] != firsts[2],
            "{v}"
        );
        assert_eq!(v["best"], lines[0]["best"], "{v}");
        // Red to move: best first, for red.
        let scores: Vec<i64> = lines.iter().filter_map(|l| l["score"].as_i64()).collect();
        assert!(scores.windows(2).all(|w| w[0] >= w[1]), "{v}");
        // Fewer legal moves than lines asked: as many lines as moves.
        let v = ask("xiangqi\n3k5/9/9/9/9/9/9/9/4A4/3AK4 b\n\n2\n5");
        let n = Position::from_fen("3k5/9/9/9/9/9/9/9/4A4/3AK4 b")
            .expect("FEN")
            .legal_moves()
            .len();
        assert_eq!(v["lines"].as_array().map(Vec::len), Some(n.min(5)), "{v}");
        assert!(ask("xiangqi\n3k5/9/9/9/9/9/9/9/9/R3K4 w\n\n2\n9")["error"].is_string());
    }

    #[test]
    fn the_exports_round_trip_a_request() {
        let req = b"xiangqi\n3k5/1R7/9/9/9/9/9/9/9/R3K4 w\n\n2";
        let p = qy_input(req.len());
        INPUT.with(|b| b.borrow_mut().copy_from_slice(req));
        assert!(!p.is_null());
        let n = qy_analyse();
        let out = OUTPUT.with(|o| o.borrow().clone());
        assert_eq!(out.len(), n);
        assert!(!qy_output().is_null());
        let v: serde_json::Value = serde_json::from_slice(&out).expect("JSON");
        assert_eq!(v["mate"], 1, "{v}");
    }
}
