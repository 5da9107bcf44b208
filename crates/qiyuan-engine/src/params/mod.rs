//! Evaluation weights, one generated table per rule set (`qiyuan tune
//! --variant V --out src/params/V.rs`). The Jifen rule sets share the
//! Xiangqi layout; their tables differ where Jifen self-play tuned them.

use qiyuan_xiangqi::Variant;

use crate::eval::NUM_PARAMS;

mod jifen_contest;
mod jifen_match;
mod jifen_simple;
mod xiangqi;

/// The Xiangqi weights.
pub use xiangqi::PARAMS;

/// The weights the evaluation uses for `variant`.
pub fn for_variant(variant: Variant) -> &'static [i32; NUM_PARAMS] {
    match variant {
        Variant::Xiangqi => &xiangqi::PARAMS,
        Variant::JifenSimple => &jifen_simple::PARAMS,
        Variant::JifenMatch => &jifen_match::PARAMS,
        Variant::JifenContest => &jifen_contest::PARAMS,
    }
}
