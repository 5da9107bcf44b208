//! The NNUE trainer: self-play data, then a float network fitted by Adam and
//! quantized into the format [`qiyuan_engine::nnue`] reads.
//!
//! `qiyuan-lab nnue-data` plays the engine against itself at a fixed depth from
//! random openings and writes one line per quiet position: red's result
//! (1, 0.5, 0), the search's score for the side to move, and the FEN.
//! `qiyuan-lab nnue-train` fits the network to `lambda * sigmoid(score / 400) +
//! (1 - lambda) * result` (the side to move's view), holding out every 20th
//! block of 2,000 lines (whole games, mostly: positions of one game are too
//! alike to validate each other) to report the validation loss next to the
//! linear evaluation's on the same targets, and writes the quantized net.
//! It runs on a CPU in a minute or two at this size; no test or start-up
//! needs it.

use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use anyhow::{Context, Result, bail};
use qiyuan_xiangqi::{Color, Position, Variant};

use crate::matchplay::random_openings;
use crate::tune::self_play_game;
use qiyuan_engine::nnue::{Accumulator, FEATURES, HIDDEN, KING_BUCKETS, Network, QA, QB, feature};
use qiyuan_engine::rng::Rng;
use qiyuan_engine::search::Searcher;

/// Arguments of `qiyuan-lab nnue-data`.
#[derive(clap::Args, Debug)]
pub struct DataArgs {
    /// Self-play games.
    #[arg(long, default_value_t = 1000)]
    pub games: usize,
    /// Search depth of every move.
    #[arg(long, default_value_t = 6)]
    pub depth: i32,
    /// Worker threads.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Seed of the random openings.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Output file (`RESULT SCORE FEN` lines).
    #[arg(long)]
    pub out: std::path::PathBuf,
}

/// Arguments of `qiyuan-lab nnue-train`.
#[derive(clap::Args, Debug)]
pub struct TrainArgs {
    /// Data files from `nnue-data` (repeatable).
    #[arg(long, required = true)]
    pub data: Vec<std::path::PathBuf>,
    /// Passes over the data.
    #[arg(long, default_value_t = 30)]
    pub epochs: usize,
    /// Weight of the search score in the target (the rest is the result).
    #[arg(long, default_value_t = 0.75)]
    pub lambda: f32,
    /// Adam learning rate.
    #[arg(long, default_value_t = 0.002)]
    pub lr: f32,
    /// Seed of the initial weights and the shuffles.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Where to write the quantized network.
    #[arg(long)]
    pub out: std::path::PathBuf,
}

/// One training position: active features from the side to move's view and
/// the other side's, and the target in 0..1 (side to move's view).
#[derive(Clone, Debug)]
pub struct Sample {
    us: Vec<u16>,
    them: Vec<u16>,
    target: f32,
    /// The linear evaluation's win probability, for comparison.
    linear: f32,
}

/// The active features of `pos` as seen by `perspective`.
fn active(pos: &Position, perspective: Color) -> Vec<u16> {
    let king = pos.king_square(perspective);
    let kb = (king.file() as usize).saturating_sub(3).min(2);
    [Color::Red, Color::Black]
        .into_iter()
        .flat_map(|c| pos.pieces(c))
        .map(|(sq, p)| feature(perspective, kb, sq, p) as u16)
        .collect()
}

/// A sample from a position, its score for the side to move and red's result.
pub fn sample(pos: &Position, score: i32, red_result: f32, lambda: f32) -> Sample {
    let stm = pos.side_to_move();
    let result = if stm == Color::Red {
        red_result
    } else {
        1.0 - red_result
    };
    let target = lambda * sigmoid(score as f32 / 400.0) + (1.0 - lambda) * result;
    Sample {
        us: active(pos, stm),
        them: active(pos, stm.flip()),
        target,
        linear: sigmoid(qiyuan_engine::eval::evaluate(pos) as f32 / 400.0),
    }
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// Features without the king bucket: (mine or theirs) x kind x point.
const FACTORS: usize = FEATURES / KING_BUCKETS;

/// A float network with the shape of [`Network`]; activations clip at 1.
/// While training, every feature also activates its bucket-free "factor"
/// (the same piece on the same point whatever the general's file), so what
/// the buckets share is learnt from all positions at once; the factors are
/// folded into every bucket's weights when quantizing.
#[derive(Clone)]
pub struct FloatNet {
    ft_w: Vec<f32>,
    ft_b: Vec<f32>,
    out_w: Vec<f32>,
    out_b: f32,
}

impl FloatNet {
    /// Small random weights.
    pub fn random(seed: u64) -> FloatNet {
        let mut rng = Rng::new(seed);
        let mut uniform = |r: f32| (rng.below(1 << 24) as f32 / (1 << 24) as f32 * 2.0 - 1.0) * r;
        FloatNet {
            ft_w: (0..(FEATURES + FACTORS) * HIDDEN)
                .map(|_| uniform(0.05))
                .collect(),
            ft_b: (0..HIDDEN).map(|_| 0.2).collect(),
            out_w: (0..2 * HIDDEN).map(|_| uniform(0.3)).collect(),
            out_b: 0.0,
        }
    }

    fn hidden(&self, feats: &[u16]) -> [f32; HIDDEN] {
        let mut h: [f32; HIDDEN] = std::array::from_fn(|i| self.ft_b[i]);
        for &f in feats {
            for r in [f as usize, FEATURES + f as usize % FACTORS] {
                let row = &self.ft_w[r * HIDDEN..(r + 1) * HIDDEN];
                for (a, w) in h.iter_mut().zip(row) {
                    *a += w;
                }
            }
        }
        h
    }

    /// The output logit for a sample.
    pub fn forward(&self, s: &Sample) -> f32 {
        let (hu, ht) = (self.hidden(&s.us), self.hidden(&s.them));
        let mut o = self.out_b;
        for i in 0..HIDDEN {
            o += self.out_w[i] * hu[i].clamp(0.0, 1.0)
                + self.out_w[HIDDEN + i] * ht[i].clamp(0.0, 1.0);
        }
        o
    }

    /// Mean squared error of `sigmoid(output)` against the targets.
    pub fn loss(&self, samples: &[Sample]) -> f32 {
        let sum: f32 = samples
            .iter()
            .map(|s| (sigmoid(self.forward(s)) - s.target).powi(2))
            .sum();
        sum / samples.len().max(1) as f32
    }

    /// Adds the loss gradient of one sample to `g` (same layout as `self`).
    fn backward(&self, s: &Sample, g: &mut FloatNet) {
        let (hu, ht) = (self.hidden(&s.us), self.hidden(&s.them));
        let mut o = self.out_b;
        for i in 0..HIDDEN {
            o += self.out_w[i] * hu[i].clamp(0.0, 1.0)
                + self.out_w[HIDDEN + i] * ht[i].clamp(0.0, 1.0);
        }
        let p = sigmoid(o);
        let d = 2.0 * (p - s.target) * p * (1.0 - p);
        g.out_b += d;
        for (half, h, feats) in [(0, &hu, &s.us), (HIDDEN, &ht, &s.them)] {
            let mut dh = [0f32; HIDDEN];
            for i in 0..HIDDEN {
                g.out_w[half + i] += d * h[i].clamp(0.0, 1.0);
                if h[i] > 0.0 && h[i] < 1.0 {
                    dh[i] = d * self.out_w[half + i];
                }
            }
            for (b, d) in g.ft_b.iter_mut().zip(&dh) {
                *b += d;
            }
            for &f in feats.iter() {
                for r in [f as usize, FEATURES + f as usize % FACTORS] {
                    let row = &mut g.ft_w[r * HIDDEN..(r + 1) * HIDDEN];
                    for (w, d) in row.iter_mut().zip(&dh) {
                        *w += d;
                    }
                }
            }
        }
    }

    fn params_mut(&mut self) -> impl Iterator<Item = &mut f32> {
        self.ft_w
            .iter_mut()
            .chain(self.ft_b.iter_mut())
            .chain(self.out_w.iter_mut())
            .chain(std::iter::once(&mut self.out_b))
    }

    fn zeroed(&self) -> FloatNet {
        FloatNet {
            ft_w: vec![0.0; self.ft_w.len()],
            ft_b: vec![0.0; self.ft_b.len()],
            out_w: vec![0.0; self.out_w.len()],
            out_b: 0.0,
        }
    }

    /// Rounds to the integer network: feature weights (each with its
    /// factor's added) times `QA`, output weights times `QB`, the output bias
    /// times both.
    pub fn quantize(&self) -> Network {
        let q = |v: f32, scale: i32| (v * scale as f32).round().clamp(-32767.0, 32767.0) as i16;
        let folded = (0..FEATURES * HIDDEN).map(|i| {
            let (f, h) = (i / HIDDEN, i % HIDDEN);
            self.ft_w[i] + self.ft_w[(FEATURES + f % FACTORS) * HIDDEN + h]
        });
        Network::from_parts(
            folded.map(|w| q(w, QA)).collect(),
            std::array::from_fn(|i| q(self.ft_b[i], QA)),
            std::array::from_fn(|i| q(self.out_w[i], QB)),
            (self.out_b * (QA * QB) as f32).round() as i32,
        )
        .expect("shape is fixed")
    }
}

/// Fits `net` to `train` by minibatch Adam (the step decaying linearly to a
/// tenth); logs the validation loss per epoch.
pub fn fit(
    net: &mut FloatNet,
    train: &mut [Sample],
    valid: &[Sample],
    epochs: usize,
    lr: f32,
    seed: u64,
    mut log: impl FnMut(&str),
) {
    const BATCH: usize = 1024;
    let (b1, b2, eps) = (0.9f32, 0.999f32, 1e-8f32);
    let mut m = net.zeroed();
    let mut v = net.zeroed();
    let mut rng = Rng::new(seed);
    let mut t = 0i32;
    for epoch in 1..=epochs {
        // The step shrinks linearly to a tenth over the run.
        let lr = lr * (1.0 - 0.9 * (epoch - 1) as f32 / epochs.max(1) as f32);
        // Fisher-Yates shuffle.
        for i in (1..train.len()).rev() {
            let j = rng.below(i as u64 + 1) as usize;
            train.swap(i, j);
        }
        for batch in train.chunks(BATCH) {
            let mut g = net.zeroed();
            for s in batch {
                net.backward(s, &mut g);
            }
            t += 1;
            let scale = 1.0 / batch.len() as f32;
            let (c1, c2) = (1.0 - b1.powi(t), 1.0 - b2.powi(t));
            for (((w, g), m), v) in net
                .params_mut()
                .zip(g.params_mut())
                .zip(m.params_mut())
                .zip(v.params_mut())
            {
                let g = *g * scale;
                *m = b1 * *m + (1.0 - b1) * g;
                *v = b2 * *v + (1.0 - b2) * g * g;
                *w -= lr * (*m / c1) / ((*v / c2).sqrt() + eps);
            }
            // Keep every weight representable after quantization.
            for w in net.ft_w.iter_mut().chain(net.ft_b.iter_mut()) {
                *w = w.clamp(-63.0, 63.0);
            }
            for w in net.out_w.iter_mut() {
                *w = w.clamp(-511.0, 511.0);
            }
        }
        log(&format!(
            "epoch {epoch} train {:.5} valid {:.5}",
            net.loss(&train[..train.len().min(20_000)]),
            net.loss(valid)
        ));
    }
}

/// Runs `qiyuan-lab nnue-data`.
pub fn data_main(args: DataArgs) -> Result<()> {
    if args.games == 0 || args.games > 1_000_000 || !(1..=20).contains(&args.depth) {
        bail!("want 1..=1000000 games at depth 1..=20");
    }
    let openings = random_openings(Variant::Xiangqi, None, args.games, 8, args.seed);
    let next = AtomicUsize::new(0);
    let out = Mutex::new(String::new());
    std::thread::scope(|scope| {
        for _ in 0..args.threads.clamp(1, 64) {
            scope.spawn(|| {
                let mut searcher = Searcher::new(16);
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= openings.len() {
                        break;
                    }
                    let Some((positions, r)) = self_play_game(
                        Variant::Xiangqi,
                        &openings[i].moves,
                        args.depth,
                        &mut searcher,
                    ) else {
                        continue;
                    };
                    eprintln!("game {} result {r} positions {}", i + 1, positions.len());
                    let lines: String = positions
                        .iter()
                        .map(|(fen, score)| format!("{r} {score} {fen}\n"))
                        .collect();
                    if let Ok(mut o) = out.lock() {
                        o.push_str(&lines);
                    }
                }
            });
        }
    });
    let text = out.into_inner().unwrap_or_default();
    std::fs::write(&args.out, text).context("write --out")?;
    Ok(())
}

/// Parses `RESULT SCORE FEN` lines into samples (bad lines are skipped).
pub fn read_samples(text: &str, lambda: f32) -> Vec<Sample> {
    text.lines()
        .filter_map(|line| {
            let mut parts = line.splitn(3, ' ');
            let result: f32 = parts.next()?.parse().ok()?;
            let score: i32 = parts.next()?.parse().ok()?;
            let pos = Position::from_fen(parts.next()?).ok()?;
            (0.0..=1.0)
                .contains(&result)
                .then(|| sample(&pos, score.clamp(-3000, 3000), result, lambda))
        })
        .collect()
}

/// Runs `qiyuan-lab nnue-train`.
pub fn train_main(args: TrainArgs) -> Result<()> {
    if !(0.0..=1.0).contains(&args.lambda) || args.epochs > 10_000 {
        bail!("lambda must be within 0..=1 and epochs at most 10000");
    }
    let mut all = Vec::new();
    for path in &args.data {
        let text =
            std::fs::read_to_string(path).with_context(|| format!("read {}", path.display()))?;
        all.extend(read_samples(&text, args.lambda));
    }
    if all.len() < 40_000 {
        bail!("only {} positions: too few to train on", all.len());
    }
    let held_out = |i: usize| (i / 2000) % 20 == 19;
    let valid: Vec<Sample> = (0..all.len())
        .filter(|&i| held_out(i))
        .map(|i| all[i].clone())
        .collect();
    let mut train: Vec<Sample> = all
        .into_iter()
        .enumerate()
        .filter(|&(i, _)| !held_out(i))
        .map(|(_, s)| s)
        .collect();
    if valid.is_empty() {
        bail!("too few positions to hold any out for validation");
    }
    let linear: f32 = valid
        .iter()
        .map(|s| (s.linear - s.target).powi(2))
        .sum::<f32>()
        / valid.len() as f32;
    println!("linear evaluation's valid loss {linear:.5}");
    println!("positions {} (validation {})", train.len(), valid.len());
    let mut net = FloatNet::random(args.seed);
    println!("valid loss before {:.5}", net.loss(&valid));
    fit(
        &mut net,
        &mut train,
        &valid,
        args.epochs,
        args.lr,
        args.seed,
        |l| eprintln!("{l}"),
    );
    println!("valid loss after {:.5}", net.loss(&valid));
    let q = net.quantize();
    std::fs::write(&args.out, q.to_bytes()).context("write --out")?;
    let start = Position::startpos();
    let acc = Accumulator::new(&q, &start);
    println!("start position {}", q.evaluate(&acc, start.side_to_move()));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn training_fits_a_material_signal_and_quantizes_faithfully() {
        // Red up a chariot should win, black up a chariot should lose: after
        // training the net agrees, and the integer net orders them alike.
        let (up, down) = crate::tune::chariot_up_and_down();
        let mut train = vec![sample(&up, 900, 1.0, 0.5), sample(&down, -900, 0.0, 0.5)];
        let valid = train.clone();
        let mut net = FloatNet::random(3);
        let before = net.loss(&valid);
        fit(&mut net, &mut train, &valid, 200, 0.01, 3, |_| {});
        let after = net.loss(&valid);
        assert!(after < before / 4.0, "{before} -> {after}");
        let q = net.quantize();
        assert!(
            q.evaluate_position(&up) > 100,
            "{}",
            q.evaluate_position(&up)
        );
        assert!(
            q.evaluate_position(&down) < -100,
            "{}",
            q.evaluate_position(&down)
        );
        let float_cp = net.forward(&sample(&up, 0, 1.0, 0.5)) * 400.0;
        let int_cp = q.evaluate_position(&up) as f32;
        assert!(
            (float_cp - int_cp).abs() < 0.05 * float_cp.abs() + 10.0,
            "{float_cp} vs {int_cp}"
        );
    }

    #[test]
    fn data_lines_parse_and_bad_lines_are_skipped() {
        let text = "1 35 rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1\n\
                    x 1 nonsense\n0.5 zz rnbakabnr/9/9/9/9/9/9/9/9/RNBAKABNR w - - 0 1\n";
        let s = read_samples(text, 1.0);
        assert_eq!(s.len(), 1);
        assert!((s[0].target - sigmoid(35.0 / 400.0)).abs() < 1e-6);
        assert_eq!(s[0].us.len(), 32);
    }
}
