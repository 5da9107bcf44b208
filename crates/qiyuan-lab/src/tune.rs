//! Texel tuning: fits the evaluation weights to game results.
//!
//! 1. Self-play: the engine plays itself at a fixed depth from random
//!    openings; every quiet position (side to move not in check) is labelled
//!    with the game's result for red (1, 0.5, 0), adjudicated by the rules
//!    crate's [`Game`].
//! 2. Fit: because the evaluation is linear in its weights
//!    ([`qiyuan_engine::eval::evaluate_traced`]), the tuner minimises the mean squared
//!    error between the result and `sigmoid(K * eval / 400)` by gradient
//!    descent (Adam), with an L2 pull towards the starting weights so sparse
//!    piece-square entries do not wander on little data.
//! 3. The weights are written as the rule set's new `crates/qiyuan-engine/src/params/<rule set>.rs`.

use std::fmt::Write as _;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use anyhow::{Context, Result};
use qiyuan_core::GameRules;
use qiyuan_xiangqi::{Color, Game, Position, Variant};

use crate::cli::TuneArgs;
use crate::matchplay::random_openings;
use qiyuan_engine::cli::parse_variant;
use qiyuan_engine::eval::{
    JIFEN_EARNER, JIFEN_FREE_MOVER, MAT, NUM_PARAMS, POINT, PST, RACE, TEMPO, Trace,
    evaluate_traced,
};
use qiyuan_engine::params;
use qiyuan_engine::search::{SearchLimits, Searcher};

/// One labelled position: sparse features (red's view) and red's result.
#[derive(Clone, Debug)]
pub struct Sample {
    /// (weight index, coefficient) pairs.
    pub features: Vec<(u16, i16)>,
    /// Side to move is red (the tempo term's sign).
    pub red_to_move: bool,
    /// Red's result: 1 win, 0.5 draw, 0 loss.
    pub result: f64,
}

struct Collect(Vec<(u16, i16)>);

impl Trace for Collect {
    fn add(&mut self, idx: usize, coef: i32) {
        if coef != 0 {
            self.0.push((idx as u16, coef as i16));
        }
    }
}

/// The features of `pos` (red's view).
pub fn features(pos: &Position) -> Vec<(u16, i16)> {
    let mut c = Collect(Vec::new());
    evaluate_traced(pos, params::for_variant(pos.variant()), &mut c);
    c.0
}

/// Plays one self-play game; returns its quiet positions (FEN and the
/// search's score for the side to move) and red's result.
pub fn self_play_game(
    variant: Variant,
    opening: &[String],
    depth: i32,
    searcher: &mut Searcher,
) -> Option<(Vec<(String, i32)>, f64)> {
    let start = Position::from_fen_variant(qiyuan_xiangqi::START_FEN, variant, None).ok()?;
    let mut game = Game::new(start);
    for m in opening {
        game.play(m).ok()?;
    }
    searcher.clear();
    let mut fens = Vec::new();
    let mut history = Vec::new();
    while game.outcome().is_none() && game.moves().len() < 400 {
        let pos = game.position().clone();
        let limits = SearchLimits {
            depth: Some(depth),
            ..SearchLimits::default()
        };
        let r = searcher.search(&pos, &history, &limits, &mut |_| {});
        let m = r.best?;
        // Quiet positions only: not in check, no capture about to be
        // played, and no forced win or loss in sight.
        if !pos.in_check()
            && (m.is_pass() || pos.piece_at(m.to()).is_none())
            && qiyuan_engine::search::mate_in_plies(r.score).is_none()
        {
            fens.push((pos.to_fen(), r.score));
        }
        history.push(qiyuan_engine::rep::Earlier::play(&mut pos.clone(), m));
        game.play_move(m).ok()?;
    }
    let result = match game.outcome().and_then(|o| o.winner) {
        Some(0) => 1.0,
        Some(_) => 0.0,
        None => 0.5,
    };
    Some((fens, result))
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// The red-view evaluation of a sample under weights `w` (tempo included).
fn predict(s: &Sample, w: &[f64]) -> f64 {
    let mut v: f64 = s
        .features
        .iter()
        .map(|&(i, c)| w[i as usize] * c as f64)
        .sum();
    v += if s.red_to_move { w[TEMPO] } else { -w[TEMPO] };
    v
}

/// Mean squared error of the samples under weights `w` and scale `k`.
pub fn error(samples: &[Sample], w: &[f64], k: f64) -> f64 {
    let sum: f64 = samples
        .iter()
        .map(|s| (s.result - sigmoid(k * predict(s, w) / 400.0)).powi(2))
        .sum();
    sum / samples.len().max(1) as f64
}

/// Which weights a fit may change.
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Terms {
    /// Every weight.
    All,
    /// The terms Jifen changes: material by class, the points race, the
    /// earner and free-mover terms, and the tempo. Piece-square tables,
    /// mobility and king safety keep their Xiangqi values.
    Jifen,
    /// The Jifen terms without material: the points race, the earner and
    /// free-mover terms, and the tempo. (Class material fitted on self-play
    /// is exploitable: a class is the mover's choice, so a class that merely
    /// goes with winning positions becomes one the search chases.)
    Points,
}

impl Terms {
    /// Whether weight `i` is fitted.
    pub fn includes(self, i: usize) -> bool {
        match self {
            Terms::All => true,
            Terms::Jifen => (MAT..PST).contains(&i) || Terms::Points.includes(i),
            Terms::Points => {
                (POINT..RACE + 8).contains(&i)
                    || [TEMPO, JIFEN_EARNER, JIFEN_FREE_MOVER].contains(&i)
            }
        }
    }
}

/// Fits the weights `start` by Adam, changing only `terms`; returns the new
/// weights and (error before, after).
pub fn fit(
    samples: &[Sample],
    start: &[i32],
    terms: Terms,
    epochs: usize,
    mut log: impl FnMut(&str),
) -> (Vec<i32>, f64, f64) {
    let w0: Vec<f64> = start.iter().map(|&p| p as f64).collect();
    // The scale K that best fits the current weights.
    let mut k = 1.0;
    let mut best = error(samples, &w0, k);
    for step in [0.5, 0.1, 0.02] {
        loop {
            let up = error(samples, &w0, k + step);
            let down = error(samples, &w0, (k - step).max(0.01));
            if up < best {
                k += step;
                best = up;
            } else if down < best {
                k = (k - step).max(0.01);
                best = down;
            } else {
                break;
            }
        }
    }
    let before = best;
    log(&format!(
        "K {k:.2} error {before:.5} on {} positions",
        samples.len()
    ));
    let mut w = w0.clone();
    let (mut m, mut v) = (vec![0.0; NUM_PARAMS], vec![0.0; NUM_PARAMS]);
    let (lr, b1, b2, lambda) = (1.0, 0.9, 0.999, 1e-7);
    let n = samples.len().max(1) as f64;
    for epoch in 1..=epochs {
        let mut g = vec![0.0; NUM_PARAMS];
        for s in samples {
            let p = sigmoid(k * predict(s, &w) / 400.0);
            // d/dw of (r - p)^2 = -2 (r - p) p (1 - p) k / 400 * feature
            let d = -2.0 * (s.result - p) * p * (1.0 - p) * k / 400.0 / n;
            for &(i, c) in &s.features {
                g[i as usize] += d * c as f64;
            }
            g[TEMPO] += if s.red_to_move { d } else { -d };
        }
        for i in (0..NUM_PARAMS).filter(|&i| terms.includes(i)) {
            g[i] += 2.0 * lambda * (w[i] - w0[i]);
            m[i] = b1 * m[i] + (1.0 - b1) * g[i];
            v[i] = b2 * v[i] + (1.0 - b2) * g[i] * g[i];
            let mh = m[i] / (1.0 - b1.powi(epoch as i32));
            let vh = v[i] / (1.0 - b2.powi(epoch as i32));
            w[i] -= lr * mh / (vh.sqrt() + 1e-8);
        }
        if epoch % 50 == 0 || epoch == epochs {
            log(&format!("epoch {epoch} error {:.5}", error(samples, &w, k)));
        }
    }
    let after = error(samples, &w, k);
    // K only maps evaluation units to win probability; the weights keep
    // their centipawn scale, which the search's margins are written in.
    let out: Vec<i32> = w.iter().map(|x| x.round() as i32).collect();
    (out, before, after)
}

/// Renders weights as the source of the engine's `src/params/<rule set>.rs`.
pub fn params_source(w: &[i32], note: &str) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "//! Evaluation weights: the layout is described in `crate::eval` (MAT, PST,\n\
         //! MOB, ...). Generated by the tuner (`qiyuan-lab tune`); edit the tuner, not this file.\n\
         //! {note}\n\n\
         /// The weights the search evaluates with.\n\
         #[rustfmt::skip]\n\
         pub const PARAMS: [i32; qiyuan_engine::eval::NUM_PARAMS] = ["
    );
    for chunk in w.chunks(10) {
        let row: Vec<String> = chunk.iter().map(|x| x.to_string()).collect();
        let _ = writeln!(s, "    {},", row.join(", "));
    }
    s.push_str("];\n");
    s
}

/// `qiyuan-lab tune`.
pub fn tune_main(args: TuneArgs) -> Result<()> {
    let variant = parse_variant(&args.variant)?;
    let lines: Vec<(String, f64)> = match &args.data {
        Some(path) => {
            let text = std::fs::read_to_string(path).context("read --data")?;
            text.lines()
                .filter_map(|l| {
                    let (r, fen) = l.split_once(' ')?;
                    Some((fen.to_string(), r.parse().ok()?))
                })
                .collect()
        }
        None => {
            let openings = random_openings(variant, None, args.games, 8, args.seed);
            let next = AtomicUsize::new(0);
            let out = Mutex::new(Vec::new());
            std::thread::scope(|scope| {
                for _ in 0..args.threads.max(1) {
                    scope.spawn(|| {
                        let mut searcher = Searcher::new(16);
                        loop {
                            let i = next.fetch_add(1, Ordering::Relaxed);
                            if i >= openings.len() {
                                break;
                            }
                            if let Some((fens, r)) = self_play_game(
                                variant,
                                &openings[i].moves,
                                args.depth,
                                &mut searcher,
                            ) {
                                eprintln!("game {} result {r} positions {}", i + 1, fens.len());
                                if let Ok(mut o) = out.lock() {
                                    o.extend(fens.into_iter().map(|(f, _)| (f, r)));
                                }
                            }
                        }
                    });
                }
            });
            out.into_inner().unwrap_or_default()
        }
    };
    if let Some(path) = &args.save_data {
        let text: String = lines.iter().map(|(f, r)| format!("{r} {f}\n")).collect();
        std::fs::write(path, text)?;
    }
    let samples: Vec<Sample> = lines
        .iter()
        .filter_map(|(fen, r)| {
            let pos = Position::from_fen_variant(fen, variant, None).ok()?;
            Some(Sample {
                features: features(&pos),
                red_to_move: pos.side_to_move() == Color::Red,
                result: *r,
            })
        })
        .collect();
    let start = params::for_variant(variant);
    let (w, before, after) = fit(&samples, start, args.terms, args.epochs, |l| {
        eprintln!("{l}")
    });
    println!("positions {}", samples.len());
    println!("error before {before:.5} after {after:.5}");
    if let Some(path) = &args.out {
        let source = match &args.data {
            Some(path) => format!("read from {}", path.display()),
            None => format!("of {} self-play games at depth {}", args.games, args.depth),
        };
        let note = format!(
            "Texel-tuned ({:?} terms) on {} quiet positions {source} ({}): MSE {before:.5} -> {after:.5}.",
            args.terms,
            samples.len(),
            variant.name()
        );
        std::fs::write(path, params_source(&w, &note))?;
    }
    Ok(())
}

/// Two positions for the fitting tests: red up a chariot (red should win)
/// and black up a chariot (red should lose), red to move in both.
#[cfg(test)]
pub(crate) fn chariot_up_and_down() -> (Position, Position) {
    let up = Position::from_fen("3aka3/9/9/9/9/9/9/9/R8/3K5 w - - 0 1").expect("valid FEN");
    let down = Position::from_fen("r2aka3/9/9/9/9/9/9/9/9/3K5 w - - 0 1").expect("valid FEN");
    (up, down)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fitting_reduces_the_error_on_a_simple_signal() {
        // Red up a chariot wins, black up a chariot loses: the fit must not get worse.
        let (up, down) = chariot_up_and_down();
        let samples: Vec<Sample> = [(up, 1.0), (down, 0.0)]
            .into_iter()
            .map(|(p, r)| Sample {
                features: features(&p),
                red_to_move: true,
                result: r,
            })
            .collect();
        let (_, before, after) = fit(&samples, &params::PARAMS, Terms::All, 20, |_| {});
        assert!(after <= before + 1e-9, "{before} -> {after}");
    }

    #[test]
    fn a_jifen_fit_changes_only_the_jifen_terms() {
        // Match rules: a Normal chariot up wins, an Idle one (which can
        // never capture) only draws; the Idle chariot's weight must move.
        let v = Variant::JifenMatch;
        let samples: Vec<Sample> = [
            ("3aka3/9/9/9/9/9/9/9/R8/3K5 w - - 0 1", 1.0),
            ("r2aka3/9/9/9/9/9/9/9/9/3K5 w - - 0 1", 0.0),
            ("3aka3/9/9/9/9/9/9/9/R*8/3K5 w - - 0 1", 0.5),
            ("r*2aka3/9/9/9/9/9/9/9/9/3K5 w - - 0 1", 0.5),
        ]
        .into_iter()
        .map(|(fen, r)| {
            let p = Position::from_fen_variant(fen, v, None).expect("valid FEN");
            Sample {
                features: features(&p),
                red_to_move: true,
                result: r,
            }
        })
        .collect();
        let start = params::for_variant(v);
        let (w, before, after) = fit(&samples, start, Terms::Jifen, 50, |_| {});
        assert!(after < before, "{before} -> {after}");
        for (i, (&new, &old)) in w.iter().zip(start.iter()).enumerate() {
            if !Terms::Jifen.includes(i) {
                assert_eq!(new, old, "weight {i} is not a Jifen term");
            }
        }
        // The Idle chariot's material weight is one that moved.
        use qiyuan_xiangqi::{Class, PieceKind};
        let idle_rook = MAT + Class::Idle as usize * 7 + PieceKind::Rook as usize - 1;
        assert!(Terms::Jifen.includes(idle_rook));
        assert_ne!(w[idle_rook], start[idle_rook]);
    }

    #[test]
    fn params_source_has_every_weight() {
        let s = params_source(&params::PARAMS, "test");
        let array = s.split("= [").nth(1).unwrap();
        assert_eq!(array.matches(',').count(), NUM_PARAMS);
    }
}
