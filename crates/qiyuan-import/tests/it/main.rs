//! qiyuan-import's integration tests, one module per format, linked into one
//! test binary.

mod cbf;
mod fuzz;
mod pgn;
mod xqf;
mod xqf_writer;
