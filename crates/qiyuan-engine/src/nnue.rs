//! NNUE evaluation for plain Xiangqi: a small network over king-relative
//! piece features, quantized to 16-bit integers and updated incrementally
//! as the search makes moves.
//!
//! **Features.** Each side sees the board from its own side (black's view is
//! mirrored top to bottom, so "my back rank" is always rank 0). A feature is
//! (own general's file in the palace: 3 buckets) x (piece is mine or the
//! opponent's) x (7 kinds) x (90 points): 3,780 per perspective, about 32
//! active.
//!
//! **Network.** `features -> HIDDEN` (one shared weight matrix, applied to
//! both perspectives: the accumulators), then the side to move's and the
//! other side's accumulators, clipped to `0..=QA` (clipped ReLU), are
//! concatenated into one output neuron. The output in units of `QA * QB` is a
//! logit; times [`SCALE`] it is centipawns, matching the trainer's
//! `sigmoid(score / 400)` targets.
//!
//! **Incremental updates.** A move changes at most three features per
//! perspective (the mover leaves a point, lands on one, a victim
//! disappears); only a general changing file refreshes its own side's
//! accumulator. The search keeps one accumulator pair per ply
//! ([`Accumulator::after_move`]); debug builds check updates against a
//! refresh.
//!
//! **File format** (little-endian): `QYNN`, version `u32`, feature count
//! `u32`, hidden size `u32`, then `i16` feature weights (feature-major), `i16`
//! feature biases, `i16` output weights (side to move's half first), `i32`
//! output bias.

use std::sync::OnceLock;

use qiyuan_xiangqi::{Color, Move, Piece, PieceKind, Position, Square};

/// Accumulator width.
pub const HIDDEN: usize = 32;
/// King buckets: the own general's file (d, e, f).
pub const KING_BUCKETS: usize = 3;
/// Features per perspective.
pub const FEATURES: usize = KING_BUCKETS * 2 * 7 * 90;
/// Quantization of the feature transformer (activations clip at `QA`).
pub const QA: i32 = 255;
/// Quantization of the output weights.
pub const QB: i32 = 64;
/// Centipawns per unit of the output logit.
pub const SCALE: i32 = 400;
/// File format version.
pub const VERSION: u32 = 1;
const MAGIC: &[u8; 4] = b"QYNN";

/// Bytes of a network file with the current shape.
pub const FILE_BYTES: usize = 16 + 2 * (FEATURES * HIDDEN + HIDDEN + 2 * HIDDEN) + 4;

/// The network shipped inside the binary (trained by `qiyuan-lab nnue-train`; see
/// `docs/engine.md`).
static EMBEDDED: &[u8] = include_bytes!("../nets/xiangqi-nnue.bin");

/// Why a network file was refused.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum NetError {
    /// Not a Qiyuan network, or another version of the format.
    #[error("not a Qiyuan NNUE file of version {VERSION}")]
    BadHeader,
    /// Built for other feature or hidden sizes.
    #[error("network shape {features}x{hidden}, this build needs {FEATURES}x{HIDDEN}")]
    Shape {
        /// Features in the file.
        features: u32,
        /// Hidden size in the file.
        hidden: u32,
    },
    /// The file is shorter or longer than its shape says.
    #[error("network file is {0} bytes, expected {FILE_BYTES}")]
    Length(usize),
}

/// A quantized network.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Network {
    /// `FEATURES x HIDDEN`, feature-major.
    ft_weights: Vec<i16>,
    ft_bias: [i16; HIDDEN],
    /// Side to move's half, then the other side's.
    out_weights: [i16; 2 * HIDDEN],
    out_bias: i32,
}

impl Network {
    /// Parses a network file, checking its header, shape and length before
    /// reading anything.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetError> {
        if bytes.len() < 16 || &bytes[..4] != MAGIC {
            return Err(NetError::BadHeader);
        }
        let word =
            |i: usize| u32::from_le_bytes([bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3]]);
        if word(4) != VERSION {
            return Err(NetError::BadHeader);
        }
        let (features, hidden) = (word(8), word(12));
        if features as usize != FEATURES || hidden as usize != HIDDEN {
            return Err(NetError::Shape { features, hidden });
        }
        if bytes.len() != FILE_BYTES {
            return Err(NetError::Length(bytes.len()));
        }
        let mut at = 16;
        let mut next = || {
            let v = i16::from_le_bytes([bytes[at], bytes[at + 1]]);
            at += 2;
            v
        };
        let ft_weights = (0..FEATURES * HIDDEN).map(|_| next()).collect();
        let ft_bias = std::array::from_fn(|_| next());
        let out_weights = std::array::from_fn(|_| next());
        let out_bias = i32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]]);
        Ok(Network {
            ft_weights,
            ft_bias,
            out_weights,
            out_bias,
        })
    }

    /// A network from quantized parts (the trainer's output).
    pub fn from_parts(
        ft_weights: Vec<i16>,
        ft_bias: [i16; HIDDEN],
        out_weights: [i16; 2 * HIDDEN],
        out_bias: i32,
    ) -> Option<Network> {
        (ft_weights.len() == FEATURES * HIDDEN).then_some(Network {
            ft_weights,
            ft_bias,
            out_weights,
            out_bias,
        })
    }

    /// The file bytes of this network.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(FILE_BYTES);
        out.extend_from_slice(MAGIC);
        for w in [VERSION, FEATURES as u32, HIDDEN as u32] {
            out.extend_from_slice(&w.to_le_bytes());
        }
        let weights = self
            .ft_weights
            .iter()
            .chain(&self.ft_bias)
            .chain(&self.out_weights);
        for w in weights {
            out.extend_from_slice(&w.to_le_bytes());
        }
        out.extend_from_slice(&self.out_bias.to_le_bytes());
        out
    }

    /// The network built into the binary.
    pub fn embedded() -> &'static Network {
        static NET: OnceLock<Network> = OnceLock::new();
        // The embedded bytes are checked by a test; a broken file is a build
        // defect, not an input.
        NET.get_or_init(|| Network::from_bytes(EMBEDDED).expect("embedded NNUE file is valid"))
    }

    #[inline]
    fn row(&self, feature: usize) -> &[i16] {
        &self.ft_weights[feature * HIDDEN..(feature + 1) * HIDDEN]
    }

    /// The evaluation in centipawns for the side to move of an accumulator pair.
    #[inline]
    pub fn evaluate(&self, acc: &Accumulator, side_to_move: Color) -> i32 {
        let us = &acc.values[side_to_move.index()];
        let them = &acc.values[side_to_move.flip().index()];
        let (w_us, w_them) = self.out_weights.split_at(HIDDEN);
        let mut sum = self.out_bias;
        for i in 0..HIDDEN {
            sum += (us[i] as i32).clamp(0, QA) * w_us[i] as i32;
            sum += (them[i] as i32).clamp(0, QA) * w_them[i] as i32;
        }
        sum * SCALE / (QA * QB)
    }

    /// Evaluates a position from scratch (tests, and positions outside a search).
    pub fn evaluate_position(&self, pos: &Position) -> i32 {
        self.evaluate(&Accumulator::new(self, pos), pos.side_to_move())
    }
}

/// The point a perspective sees: black's view is mirrored top to bottom.
#[inline]
fn view(perspective: Color, sq: Square) -> usize {
    match perspective {
        Color::Red => sq.index90(),
        Color::Black => (9 - sq.rank() as usize) * 9 + sq.file() as usize,
    }
}

/// A perspective's king bucket: its general's file within the palace.
#[inline]
fn bucket(king: Square) -> usize {
    (king.file() as usize)
        .saturating_sub(3)
        .min(KING_BUCKETS - 1)
}

/// The feature index of `piece` on `sq` seen by `perspective` whose general
/// stands in `king_bucket`.
#[inline]
pub fn feature(perspective: Color, king_bucket: usize, sq: Square, piece: Piece) -> usize {
    let theirs = (piece.color() != perspective) as usize;
    let kind = piece.kind() as usize - 1;
    ((king_bucket * 2 + theirs) * 7 + kind) * 90 + view(perspective, sq)
}

/// The hidden layer before activation, for both perspectives (`[red, black]`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Accumulator {
    values: [[i16; HIDDEN]; 2],
}

impl Accumulator {
    /// Both perspectives computed from scratch.
    pub fn new(net: &Network, pos: &Position) -> Accumulator {
        let mut acc = Accumulator {
            values: [net.ft_bias; 2],
        };
        acc.refresh(net, pos, Color::Red);
        acc.refresh(net, pos, Color::Black);
        acc
    }

    /// Recomputes one perspective from scratch.
    fn refresh(&mut self, net: &Network, pos: &Position, perspective: Color) {
        let kb = bucket(pos.king_square(perspective));
        let v = &mut self.values[perspective.index()];
        *v = net.ft_bias;
        for color in [Color::Red, Color::Black] {
            for (sq, piece) in pos.pieces(color) {
                add(v, net.row(feature(perspective, kb, sq, piece)));
            }
        }
    }

    /// The accumulators after `m`, given these from before it; `pos` is the
    /// position after the move and `captured` what it took.
    pub fn after_move(
        &self,
        net: &Network,
        pos: &Position,
        m: Move,
        captured: Option<Piece>,
    ) -> Accumulator {
        let mut next = self.clone();
        let Some(moved) = pos.piece_at(m.to()) else {
            return next;
        };
        for perspective in [Color::Red, Color::Black] {
            if moved.kind() == PieceKind::King
                && moved.color() == perspective
                && bucket(m.from()) != bucket(m.to())
            {
                next.refresh(net, pos, perspective);
                continue;
            }
            let kb = bucket(pos.king_square(perspective));
            let v = &mut next.values[perspective.index()];
            sub(v, net.row(feature(perspective, kb, m.from(), moved)));
            add(v, net.row(feature(perspective, kb, m.to(), moved)));
            if let Some(victim) = captured {
                sub(v, net.row(feature(perspective, kb, m.to(), victim)));
            }
        }
        // Debug builds check one update in 16 against a refresh (all of them
        // would double the cost of every node in the debug test suite).
        debug_assert!(
            pos.hash() & 15 != 0 || next == Accumulator::new(net, pos),
            "incremental NNUE update after {m}"
        );
        next
    }
}

#[inline]
fn add(v: &mut [i16; HIDDEN], row: &[i16]) {
    for (a, w) in v.iter_mut().zip(row) {
        *a = a.wrapping_add(*w);
    }
}

#[inline]
fn sub(v: &mut [i16; HIDDEN], row: &[i16]) {
    for (a, w) in v.iter_mut().zip(row) {
        *a = a.wrapping_sub(*w);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;
    use qiyuan_xiangqi::MoveList;

    #[test]
    fn embedded_net_loads_and_scores_the_start_position() {
        let net = Network::embedded();
        assert_eq!(Network::from_bytes(&net.to_bytes()).as_ref(), Ok(net));
        let v = net.evaluate_position(&Position::startpos());
        // The value the shipped net gives (see docs/engine.md): a small
        // first-move edge, as every Xiangqi evaluation has.
        assert_eq!(v, EMBEDDED_START_VALUE, "start position");
        assert!((-100..=150).contains(&v), "{v}");
    }

    /// What the embedded network says of the start position (red to move),
    /// as `qiyuan-lab nnue-train` printed it when it wrote the file.
    const EMBEDDED_START_VALUE: i32 = 29;

    #[test]
    fn bad_files_are_refused_before_reading() {
        let good = Network::embedded().to_bytes();
        assert_eq!(Network::from_bytes(&good[..10]), Err(NetError::BadHeader));
        let mut other = good.clone();
        other[0] = b'X';
        assert_eq!(Network::from_bytes(&other), Err(NetError::BadHeader));
        let mut shape = good.clone();
        shape[12] = 64;
        assert!(matches!(
            Network::from_bytes(&shape),
            Err(NetError::Shape { .. })
        ));
        assert_eq!(
            Network::from_bytes(&good[..good.len() - 1]),
            Err(NetError::Length(FILE_BYTES - 1))
        );
    }

    #[test]
    fn incremental_updates_match_a_refresh_along_random_games() {
        let net = Network::embedded();
        let mut rng = Rng::new(7);
        for _ in 0..20 {
            let mut pos = Position::startpos();
            let mut acc = Accumulator::new(net, &pos);
            for _ in 0..150 {
                let mut moves = MoveList::new();
                pos.legal_moves_into(&mut moves);
                if moves.is_empty() {
                    break;
                }
                let m = moves[rng.below(moves.len() as u64) as usize];
                let undo = pos.make_move(m);
                acc = acc.after_move(net, &pos, m, undo.captured());
                assert_eq!(acc, Accumulator::new(net, &pos));
            }
        }
    }

    #[test]
    fn black_sees_the_mirrored_board() {
        // The same material on mirrored points gives the same feature for
        // the side it belongs to.
        let red_rook = Piece::new(Color::Red, PieceKind::Rook);
        let black_rook = Piece::new(Color::Black, PieceKind::Rook);
        let a0 = Square::from_index90(0);
        let a9 = Square::from_index90(81);
        assert_eq!(
            feature(Color::Red, 1, a0, red_rook),
            feature(Color::Black, 1, a9, black_rook)
        );
        assert_ne!(
            feature(Color::Red, 1, a0, red_rook),
            feature(Color::Red, 1, a0, black_rook)
        );
        assert_eq!(bucket(Square::from_index90(3)), 0);
        assert_eq!(bucket(Square::from_index90(4)), 1);
        assert_eq!(bucket(Square::from_index90(86)), 2);
    }
}
