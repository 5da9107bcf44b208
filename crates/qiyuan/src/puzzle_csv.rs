//! A puzzle CSV file as the `qiyuan puzzles` commands that make puzzles
//! append to it (`generate`, `from-games`): read back once, new ids after
//! the largest in the file, and a puzzle whose position and setting-up
//! move the file already has left out.

use std::collections::HashSet;
use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use qiyuan_puzzles::{CSV_HEADER, Puzzle, format_id, id_prefix, next_id_number, parse_row};
use qiyuan_xiangqi::Variant;

use crate::puzzles_cli::MAX_CSV_BYTES;

/// A puzzle file opened for appending.
pub struct PuzzleFile {
    path: PathBuf,
    prefix: &'static str,
    /// The number of the next id.
    next: u64,
    /// (FEN, setting-up move) of every puzzle in the file.
    known: HashSet<(String, String)>,
    /// Whether the file is empty (the header goes first).
    empty: bool,
    /// Whether the file's last line lacks its newline.
    unterminated: bool,
}

impl PuzzleFile {
    /// Reads `path` (missing: a new file) for `variant`'s puzzles; new ids
    /// start at `start_id`, or after the largest in the file.
    pub fn open(path: &Path, variant: Variant, start_id: Option<u64>) -> Result<PuzzleFile> {
        let existing = match std::fs::metadata(path) {
            Ok(m) if m.len() > MAX_CSV_BYTES => bail!(
                "{}: {} bytes is more than a puzzle file may have",
                path.display(),
                m.len()
            ),
            Ok(_) => {
                std::fs::read_to_string(path).with_context(|| format!("{}", path.display()))?
            }
            Err(_) => String::new(),
        };
        let prefix = id_prefix(variant);
        Ok(PuzzleFile {
            path: path.to_path_buf(),
            prefix,
            next: start_id.unwrap_or_else(|| next_id_number(&existing, prefix)),
            known: existing
                .lines()
                .filter_map(parse_row)
                .filter_map(|(_, p)| Some((p.fen.clone(), p.moves.first()?.clone())))
                .collect(),
            empty: existing.trim().is_empty(),
            unterminated: !existing.is_empty() && !existing.ends_with('\n'),
        })
    }

    /// Appends the puzzles the file does not have yet (nor an earlier one
    /// of `puzzles`), numbered on; returns those written.
    pub fn append<'a>(&mut self, puzzles: &'a [Puzzle]) -> Result<Vec<&'a Puzzle>> {
        let mut text = String::new();
        if self.empty {
            text.push_str(CSV_HEADER);
            text.push('\n');
        } else if self.unterminated {
            text.push('\n');
        }
        let mut written = Vec::new();
        for p in puzzles {
            let Some(first) = p.moves.first() else {
                continue;
            };
            if !self.known.insert((p.fen.clone(), first.clone())) {
                continue;
            }
            text.push_str(&qiyuan_puzzles::format_row(
                &format_id(self.prefix, self.next),
                p,
            ));
            text.push('\n');
            self.next += 1;
            written.push(p);
        }
        let mut f = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&self.path)
            .with_context(|| format!("{}", self.path.display()))?;
        f.write_all(text.as_bytes())
            .with_context(|| format!("{}", self.path.display()))?;
        self.empty = false;
        self.unterminated = false;
        Ok(written)
    }
}
