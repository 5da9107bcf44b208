//! The integration tests of `qiyuan-lab`, one module per area, in one binary.

mod cli;
mod layers;
mod solo;
