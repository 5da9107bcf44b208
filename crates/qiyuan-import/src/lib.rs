//! Reads the files Xiangqi players keep their games in into one typed result:
//! the start position (FEN), a move tree (the main line and its variations,
//! every move in ICCS, comments on moves and on the game) and the header tags.
//!
//! Formats ([`Format`], told apart from the content by [`detect`]):
//! - PGN as Chinese sites write it ([`pgn_tree`]): moves in Chinese (炮二平五),
//!   WXF (`C2.5`) or ICCS (`h2e2`, `H2-E2`), nested variations, `{}` comments,
//!   a `FEN` tag; GBK files as well as UTF-8.
//! - XQF ([`xqf`]), the binary records of 象棋演播室 / XQStudio, every version,
//!   the encrypted ones (version 11 and later) included.
//! - CBF ([`cbf`]), 象棋桥's XML records.
//! - A bare FEN, and plain move lists (any notation, move numbers optional).
//!
//! Pure: no I/O, no clock, no async. Every input is bounded before anything
//! is allocated for it ([`MAX_FILE_BYTES`], [`MAX_MOVES`], [`MAX_PLIES`],
//! [`MAX_NESTING`]); a bad file is an [`ImportError`] naming the place (line
//! and column for text, byte offset for XQF), never a panic.

pub mod cbf;
pub mod detect;
mod error;
pub mod pgn_tree;
mod tree;
pub mod xqf;

pub use detect::{Format, detect};
pub use error::{ImportError, Place};
pub use tree::{MoveTree, Node};

/// The largest file an import reads (1 MiB; a long commented game with many
/// variations is a few tens of KiB).
pub const MAX_FILE_BYTES: usize = 1 << 20;
/// The most moves a file may hold, main line and variations together.
pub const MAX_MOVES: usize = 20_000;
/// The longest line (plies from the start position to a move).
pub const MAX_PLIES: usize = 2_000;
/// The deepest nesting of variations inside variations (PGN parentheses).
pub const MAX_NESTING: usize = 64;
/// The most header tags a file may carry.
pub const MAX_TAGS: usize = 256;

/// A game or study read from a file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ImportedGame {
    /// The format it was read as.
    pub format: Format,
    /// The position the moves start from.
    pub start_fen: String,
    /// Header tags in PGN names (`Event`, `Red`, `Black`, `Date`, `Result` …),
    /// in the order read.
    pub tags: Vec<(String, String)>,
    /// The moves: the root is the start position (its comment is the game's).
    pub tree: MoveTree,
}

impl ImportedGame {
    /// The value of tag `name` (compared without regard to case).
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// The main line in ICCS (`h2e2`), the first child at every step.
    pub fn main_line(&self) -> Vec<&str> {
        self.tree.main_line()
    }

    /// How many side lines the tree holds (every child after the first).
    pub fn variation_count(&self) -> usize {
        self.tree.variation_count()
    }

    /// The comment on the game as a whole (before the first move).
    pub fn comment(&self) -> Option<&str> {
        self.tree.root().comment.as_deref()
    }
}

/// Reads a file of any supported format, found from its content.
pub fn import(bytes: &[u8]) -> Result<ImportedGame, ImportError> {
    check_size(bytes)?;
    import_as(bytes, detect(bytes))
}

/// Reads a file as `format`.
pub fn import_as(bytes: &[u8], format: Format) -> Result<ImportedGame, ImportError> {
    check_size(bytes)?;
    match format {
        Format::Xqf => xqf::parse(bytes),
        Format::Cbf => cbf::parse(bytes),
        Format::Pgn | Format::Fen | Format::MoveList => {
            let text = detect::decode_text(bytes)?;
            pgn_tree::parse_text(&text, format)
        }
    }
}

/// Refuses empty and oversized input before any work is done on it.
fn check_size(bytes: &[u8]) -> Result<(), ImportError> {
    if bytes.len() > MAX_FILE_BYTES {
        return Err(ImportError::TooLarge {
            size: bytes.len(),
            limit: MAX_FILE_BYTES,
        });
    }
    if bytes.iter().all(|b| b.is_ascii_whitespace()) {
        return Err(ImportError::Empty);
    }
    Ok(())
}
