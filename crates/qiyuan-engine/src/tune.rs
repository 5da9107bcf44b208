//! Texel tuning (filled in below).

/// Runs the tuner.
pub fn tune_main(_args: crate::cli::TuneArgs) -> anyhow::Result<()> {
    anyhow::bail!("not yet")
}
