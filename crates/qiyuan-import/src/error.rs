//! What is wrong with an imported file, and where.

use std::fmt;

/// Where in a file a problem lies.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Place {
    /// A text format: 1-based line and character column.
    Line {
        /// 1-based line.
        line: usize,
        /// 1-based character in the line.
        column: usize,
    },
    /// A binary format: the byte offset from the start of the file.
    Byte(usize),
}

impl fmt::Display for Place {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Place::Line { line, column } => write!(f, "line {line}, column {column}"),
            Place::Byte(offset) => write!(f, "byte {offset} (0x{offset:x})"),
        }
    }
}

/// Why a file could not be imported.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ImportError {
    /// The file is larger than [`crate::MAX_FILE_BYTES`].
    #[error("the file is {size} bytes, more than the {limit} an import may have")]
    TooLarge {
        /// Its size.
        size: usize,
        /// The limit.
        limit: usize,
    },
    /// Nothing but whitespace.
    #[error("the file is empty")]
    Empty,
    /// Malformed content (tags, comments, brackets, records, XML).
    #[error("{place}: {message}")]
    Syntax {
        /// Where.
        place: Place,
        /// What is wrong.
        message: String,
    },
    /// The start position is not a valid Xiangqi position.
    #[error("{place}: bad start position: {message}")]
    Position {
        /// Where the position is written.
        place: Place,
        /// Why it is refused.
        message: String,
    },
    /// A move that does not parse or is not legal where it is played.
    #[error("{place}: move {number}{} '{text}': {message}", if *.red { "." } else { "..." })]
    Move {
        /// Where the move is written.
        place: Place,
        /// The move number (the fullmove number of the position it is played in).
        number: u32,
        /// Whether red was to make it.
        red: bool,
        /// The move as written (ICCS for binary formats).
        text: String,
        /// Why it was refused.
        message: String,
    },
    /// More moves, plies, variations or tags than an import accepts.
    #[error("{place}: more than {limit} {what}")]
    Limit {
        /// Where the limit was passed.
        place: Place,
        /// What was counted.
        what: &'static str,
        /// The limit.
        limit: usize,
    },
}

impl ImportError {
    /// Where the problem lies, when it has a place.
    pub fn place(&self) -> Option<Place> {
        match self {
            ImportError::TooLarge { .. } | ImportError::Empty => None,
            ImportError::Syntax { place, .. }
            | ImportError::Position { place, .. }
            | ImportError::Move { place, .. }
            | ImportError::Limit { place, .. } => Some(*place),
        }
    }

    /// A stable name of the kind of problem, for programs (`too_large`,
    /// `empty`, `syntax`, `position`, `move`, `limit`).
    pub fn kind(&self) -> &'static str {
        match self {
            ImportError::TooLarge { .. } => "too_large",
            ImportError::Empty => "empty",
            ImportError::Syntax { .. } => "syntax",
            ImportError::Position { .. } => "position",
            ImportError::Move { .. } => "move",
            ImportError::Limit { .. } => "limit",
        }
    }

    pub(crate) fn syntax(place: Place, message: impl Into<String>) -> ImportError {
        ImportError::Syntax {
            place,
            message: message.into(),
        }
    }
}
