//! Telling the formats apart from the content, and reading text in the
//! encodings Chinese programs save it in.

use crate::error::{ImportError, Place};

/// The file formats an import reads.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// XQF, the binary records of 象棋演播室 / XQStudio (magic `XQ`).
    Xqf,
    /// CBF, 象棋桥's XML records (`<ChineseChessRecord>`).
    Cbf,
    /// PGN with `[Tag "value"]` headers.
    Pgn,
    /// A FEN alone.
    Fen,
    /// Moves in any notation, with or without move numbers (an optional FEN
    /// line first).
    MoveList,
}

impl Format {
    /// The format's short name (`xqf`, `cbf`, `pgn`, `fen`, `moves`).
    pub fn name(self) -> &'static str {
        match self {
            Format::Xqf => "xqf",
            Format::Cbf => "cbf",
            Format::Pgn => "pgn",
            Format::Fen => "fen",
            Format::MoveList => "moves",
        }
    }

    /// The format named `name` (as [`Format::name`] writes it; case-insensitive).
    pub fn from_name(name: &str) -> Option<Format> {
        let n = name.trim().to_ascii_lowercase();
        Some(match n.as_str() {
            "xqf" => Format::Xqf,
            "cbf" => Format::Cbf,
            "pgn" => Format::Pgn,
            "fen" => Format::Fen,
            "moves" | "movelist" => Format::MoveList,
            _ => return None,
        })
    }
}

/// Which format `bytes` hold: `XQ` magic for XQF, an XML declaration or a
/// `<ChineseChessRecord` element for CBF, a `[` tag for PGN, one FEN alone for
/// FEN; anything else is read as a move list.
pub fn detect(bytes: &[u8]) -> Format {
    if bytes.starts_with(b"XQ") {
        return Format::Xqf;
    }
    // Only the head is looked at: detection stays cheap on large input.
    let head = &bytes[..bytes.len().min(4096)];
    let text = decode_lossy(head);
    let t = text.trim_start_matches('\u{feff}').trim_start();
    if t.starts_with("<?xml") || t.starts_with('<') && text.contains("<ChineseChessRecord") {
        return Format::Cbf;
    }
    if t.starts_with('[') {
        return Format::Pgn;
    }
    if bytes.len() <= head.len() && looks_like_fen(t.trim()) && t.trim().lines().count() == 1 {
        return Format::Fen;
    }
    Format::MoveList
}

/// Whether `line` has the shape of a FEN: a board of ten ranks of piece
/// letters and digits, then at most five more short fields.
pub(crate) fn looks_like_fen(line: &str) -> bool {
    let mut fields = line.split_whitespace();
    let Some(board) = fields.next() else {
        return false;
    };
    let ranks = board.split('/').count();
    ranks == 10
        && board
            .chars()
            .all(|c| c == '/' || c.is_ascii_digit() || "rnbakcpRNBAKCPehEH".contains(c))
        && fields.count() <= 5
}

/// Text for the text formats: UTF-8 (a byte-order mark is dropped), UTF-16
/// with its byte-order mark, or else GBK/GB18030, which Chinese Windows
/// programs write.
pub fn decode_text(bytes: &[u8]) -> Result<String, ImportError> {
    if let Some(rest) = bytes.strip_prefix(b"\xef\xbb\xbf") {
        return std::str::from_utf8(rest)
            .map(str::to_string)
            .map_err(|e| not_text(3 + e.valid_up_to()));
    }
    for (bom, enc) in [
        (&b"\xff\xfe"[..], encoding_rs::UTF_16LE),
        (&b"\xfe\xff"[..], encoding_rs::UTF_16BE),
    ] {
        if let Some(rest) = bytes.strip_prefix(bom) {
            let (text, bad) = enc.decode_without_bom_handling(rest);
            if bad {
                return Err(not_text(bom.len()));
            }
            return Ok(text.into_owned());
        }
    }
    match std::str::from_utf8(bytes) {
        Ok(s) => Ok(s.to_string()),
        Err(e) => {
            let (text, bad) = encoding_rs::GB18030.decode_without_bom_handling(bytes);
            if bad {
                Err(not_text(e.valid_up_to()))
            } else {
                Ok(text.into_owned())
            }
        }
    }
}

fn not_text(offset: usize) -> ImportError {
    ImportError::syntax(
        Place::Byte(offset),
        "not text in UTF-8, UTF-16 or GBK (nor an XQF record)",
    )
}

/// `bytes` as text for a look at its shape only (bad bytes replaced).
fn decode_lossy(bytes: &[u8]) -> String {
    if let Some((enc, bom)) = encoding_rs::Encoding::for_bom(bytes) {
        return enc
            .decode_without_bom_handling(&bytes[bom..])
            .0
            .into_owned();
    }
    match std::str::from_utf8(bytes) {
        Ok(s) => s.to_string(),
        Err(_) => encoding_rs::GB18030
            .decode_without_bom_handling(bytes)
            .0
            .into_owned(),
    }
}

/// GBK/GB18030 bytes as text (bad bytes replaced): the strings of XQF records.
pub(crate) fn decode_gbk(bytes: &[u8]) -> String {
    encoding_rs::GB18030
        .decode_without_bom_handling(bytes)
        .0
        .into_owned()
}
