//! XQF, the binary records of 象棋演播室 / XQStudio.
//!
//! Layout as this reader understands it (learnt from public descriptions of
//! the format; written here in our own words):
//!
//! - A 1024-byte header. Bytes 0-1 are `XQ`, byte 2 the version (10 and below
//!   plain; 11 and above encrypted), byte 3 a key mask, bytes 8-11 four
//!   "key or" bytes, bytes 12-15 four key seeds (sum, pieces, move origin,
//!   move destination). Bytes 16-47 place the 32 pieces, red's rook, horse,
//!   elephant, advisor, king, advisor, elephant, horse, rook, two cannons and
//!   five pawns, then black's in the same order: each byte is `file * 10 +
//!   rank` counted from red's lower left (a0 is 0), 90 and above meaning the
//!   piece is not on the board. Byte 50 says who moves first (1: black),
//!   byte 51 the result (1 red won, 2 black won, 3 or 4 a draw). Strings are
//!   a length byte then GBK text: title at 0x50, event 0xD0, date 0x110,
//!   site 0x120, red 0x130, black 0x140, opening 0x150, commentator 0x1D0,
//!   author 0x1E0.
//! - From byte 1024, the move tree in pre-order: each record is four bytes
//!   (origin, destination, flags, unused), the origin stored plus 0x18 and
//!   the destination plus 0x20; then, for version 10 and below always and
//!   later only when flag 0x20 is set, a four-byte little-endian comment
//!   length and the comment. The first record stands for the start position
//!   (its comment is the game's). Flag 0x80 (old files: any of 0xF0) says the
//!   next record is the move after this one; 0x40 (old files: any of 0x0F)
//!   says that, once this move's subtree has been read, a record follows that
//!   is an alternative to this move.
//! - Encryption (version 11 and later): each key seed `k` gives a derived key
//!   `(54k² + 221)·k` (mod 256), chained: the pieces key from its seed alone,
//!   the origin key times the pieces key, the destination key times the origin
//!   key. Piece bytes are shifted down by the pieces key (and, from version 12,
//!   rotated by it), move squares by the origin and destination keys, comment
//!   lengths by `(sum·256 + pieces seed) mod 32000 + 767`. Every byte from 1024
//!   on is shifted by a 32-byte stream key: the text
//!   `[(C) Copyright Mr. Dong Shiwei.]` masked, byte by byte, with four key bytes
//!   `(seed & mask) | key-or` taken in turn.

use qiyuan_xiangqi::{Color, Position, Square};

use crate::detect::{Format, decode_gbk};
use crate::error::{ImportError, Place};
use crate::tree::MoveTree;
use crate::{ImportedGame, MAX_MOVES};

/// The size of the header; the move records start here.
pub const HEADER_LEN: usize = 0x400;

/// The text the stream key is made from.
const STREAM_TEXT: &[u8; 32] = b"[(C) Copyright Mr. Dong Shiwei.]";

/// The FEN letters of the 32 piece bytes, in header order.
const PIECE_LETTERS: &[u8; 32] = b"RNBAKABNRCCPPPPPrnbakabnrccppppp";

/// Header strings: offset, field size, PGN tag name.
const STRINGS: [(usize, usize, &str); 9] = [
    (0x50, 64, "Title"),
    (0xD0, 64, "Event"),
    (0x110, 16, "Date"),
    (0x120, 16, "Site"),
    (0x130, 16, "Red"),
    (0x140, 16, "Black"),
    (0x150, 64, "Opening"),
    (0x1D0, 16, "Annotator"),
    (0x1E0, 16, "Author"),
];

/// The keys of one file (all zero for the plain versions).
#[derive(Clone, Debug, PartialEq, Eq)]
struct Keys {
    pieces: u8,
    origin: u8,
    destination: u8,
    comment: i64,
    stream: [u8; 32],
}

/// A derived key from its seed: `(54k² + 221)·k` mod 256.
fn derive(seed: u8) -> u8 {
    let k = u32::from(seed);
    ((54 * k * k + 221) * k) as u8
}

fn keys(header: &[u8]) -> Keys {
    let version = header[2];
    if version <= 10 {
        return Keys {
            pieces: 0,
            origin: 0,
            destination: 0,
            comment: 0,
            stream: [0; 32],
        };
    }
    let mask = header[3];
    let (sum, xy, xyf, xyt) = (header[12], header[13], header[14], header[15]);
    let pieces = derive(xy);
    let origin = derive(xyf).wrapping_mul(pieces);
    let destination = derive(xyt).wrapping_mul(origin);
    let comment = i64::from((u32::from(sum) * 256 + u32::from(xy)) % 32000 + 767);
    let key_bytes = [
        (sum & mask) | header[8],
        (xy & mask) | header[9],
        (xyf & mask) | header[10],
        (xyt & mask) | header[11],
    ];
    let mut stream = [0u8; 32];
    for (i, s) in stream.iter_mut().enumerate() {
        *s = STREAM_TEXT[i] & key_bytes[i % 4];
    }
    Keys {
        pieces,
        origin,
        destination,
        comment,
        stream,
    }
}

/// One move record, before its move is checked.
struct Record {
    /// The record this one is played after (0: the start position).
    parent: usize,
    from: u8,
    to: u8,
    comment: Option<String>,
    /// Its file offset.
    offset: usize,
}

/// Reads an XQF file.
pub fn parse(bytes: &[u8]) -> Result<ImportedGame, ImportError> {
    if bytes.len() < HEADER_LEN {
        return Err(ImportError::syntax(
            Place::Byte(bytes.len()),
            format!("the file ends inside the {HEADER_LEN}-byte XQF header"),
        ));
    }
    if !bytes.starts_with(b"XQ") {
        return Err(ImportError::syntax(
            Place::Byte(0),
            "not an XQF file (no 'XQ' mark)",
        ));
    }
    let header = &bytes[..HEADER_LEN];
    let version = header[2];
    let keys = keys(header);
    let mut tags = Vec::new();
    for (offset, size, name) in STRINGS {
        let len = usize::from(header[offset]).min(size - 1);
        let text = decode_gbk(&header[offset + 1..offset + 1 + len]);
        let text = text.trim_matches(|c: char| c == '\0' || c.is_whitespace());
        if !text.is_empty() {
            tags.push((name.to_string(), text.to_string()));
        }
    }
    match header[0x33] {
        1 => tags.push(("Result".into(), "1-0".into())),
        2 => tags.push(("Result".into(), "0-1".into())),
        3 | 4 => tags.push(("Result".into(), "1/2-1/2".into())),
        _ => {}
    }

    // The board: 90 points, each with the header byte that put a piece there.
    let mut board: [Option<(u8, usize)>; 90] = [None; 90];
    for (i, &letter) in PIECE_LETTERS.iter().enumerate() {
        // From version 12 the bytes are rotated by the pieces key.
        let source = if version >= 12 {
            (i + 256 - usize::from(keys.pieces) - 1) & 31
        } else {
            i
        };
        let code = header[0x10 + source].wrapping_sub(keys.pieces);
        let Some(sq) = square_of(code) else { continue };
        let at = sq.index90();
        if board[at].is_some() {
            return Err(ImportError::Position {
                place: Place::Byte(0x10 + source),
                message: format!("two pieces on {sq}"),
            });
        }
        board[at] = Some((letter, 0x10 + source));
    }

    let mut stream = bytes[HEADER_LEN..].to_vec();
    for (i, b) in stream.iter_mut().enumerate() {
        *b = b.wrapping_sub(keys.stream[(HEADER_LEN + i) % 32]);
    }
    let mut reader = Reader {
        data: &stream,
        at: 0,
        plain: version <= 10,
        keys: &keys,
    };
    let (root, records) = reader.tree()?;

    // Who moves first: the piece of the first move, else byte 50.
    let mut side = if header[0x32] == 1 {
        Color::Black
    } else {
        Color::Red
    };
    if let Some(first) = records.iter().find(|r| r.parent == 0)
        && let Some(sq) = square_of(first.from.wrapping_sub(0x18).wrapping_sub(keys.origin))
        && let Some((letter, _)) = board[sq.index90()]
    {
        side = if letter.is_ascii_uppercase() {
            Color::Red
        } else {
            Color::Black
        };
    }
    let fen = board_fen(&board, side);
    let start = Position::from_fen(&fen).map_err(|e| ImportError::Position {
        place: Place::Byte(0x10),
        message: e.to_string(),
    })?;

    let mut tree = MoveTree::new();
    if let Some(c) = root {
        tree.comment(0, &c);
    }
    // The path from the root to the last record read: (record, node, position).
    let mut path: Vec<(usize, usize, Position)> = vec![(0, 0, start.clone())];
    for (i, r) in records.iter().enumerate() {
        let place = Place::Byte(r.offset);
        while path.len() > 1 && path.last().is_some_and(|p| p.0 != r.parent) {
            path.pop();
        }
        let Some((_, parent_node, pos)) = path.last() else {
            break;
        };
        let from = square_of(r.from.wrapping_sub(0x18).wrapping_sub(keys.origin));
        let to = square_of(r.to.wrapping_sub(0x20).wrapping_sub(keys.destination));
        let move_error = |text: String, message: String| ImportError::Move {
            place,
            number: pos.fullmove_number(),
            red: pos.side_to_move() == Color::Red,
            text,
            message,
        };
        let (Some(from), Some(to)) = (from, to) else {
            return Err(move_error(
                format!("{:02x}{:02x}", r.from, r.to),
                "a square code is off the board".into(),
            ));
        };
        let text = format!("{from}{to}");
        let m = pos
            .parse_move(&text)
            .map_err(|e| move_error(text.clone(), e.to_string()))?;
        let node = tree.add(*parent_node, text, place)?;
        if let Some(c) = &r.comment {
            tree.comment(node, c);
        }
        let mut next = pos.clone();
        next.make_move(m);
        path.push((i + 1, node, next));
    }
    Ok(ImportedGame {
        format: Format::Xqf,
        start_fen: start.to_fen(),
        tags,
        tree,
    })
}

/// The point a code `file * 10 + rank` names, if it is on the board.
fn square_of(code: u8) -> Option<Square> {
    if code >= 90 {
        return None;
    }
    Square::new(code / 10, code % 10)
}

fn board_fen(board: &[Option<(u8, usize)>; 90], side: Color) -> String {
    let mut fen = String::new();
    for rank in (0..10).rev() {
        let mut empty = 0;
        for file in 0..9 {
            match board[rank * 9 + file] {
                Some((letter, _)) => {
                    if empty > 0 {
                        fen.push(char::from(b'0' + empty));
                        empty = 0;
                    }
                    fen.push(char::from(letter));
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            fen.push(char::from(b'0' + empty));
        }
        if rank > 0 {
            fen.push('/');
        }
    }
    fen.push_str(if side == Color::Red { " w" } else { " b" });
    fen.push_str(" - - 0 1");
    fen
}

/// Reads the decrypted record stream.
struct Reader<'a> {
    data: &'a [u8],
    at: usize,
    plain: bool,
    keys: &'a Keys,
}

impl Reader<'_> {
    fn offset(&self) -> usize {
        HEADER_LEN + self.at
    }

    /// One record: origin, destination, has-next, has-alternative, comment.
    #[allow(clippy::type_complexity)]
    fn record(&mut self) -> Result<(u8, u8, bool, bool, Option<String>), ImportError> {
        let start = self.offset();
        let Some(head) = self.data.get(self.at..self.at + 4) else {
            return Err(ImportError::syntax(
                Place::Byte(start),
                "the file ends where the record tree says a move follows",
            ));
        };
        let (from, to, flags) = (head[0], head[1], head[2]);
        self.at += 4;
        let (next, alternative, has_comment) = if self.plain {
            (flags & 0xF0 != 0, flags & 0x0F != 0, true)
        } else {
            (flags & 0x80 != 0, flags & 0x40 != 0, flags & 0x20 != 0)
        };
        let mut comment = None;
        if has_comment {
            let len_at = self.offset();
            let Some(len) = self.data.get(self.at..self.at + 4) else {
                return Err(ImportError::syntax(
                    Place::Byte(len_at),
                    "the file ends inside a comment length",
                ));
            };
            let raw = u32::from_le_bytes([len[0], len[1], len[2], len[3]]);
            let len = if self.plain {
                i64::from(raw as i32)
            } else {
                i64::from(raw) - self.keys.comment
            };
            self.at += 4;
            if len > 0 {
                let len = len as usize;
                let Some(text) = self.data.get(self.at..self.at.saturating_add(len)) else {
                    return Err(ImportError::syntax(
                        Place::Byte(len_at),
                        format!("a comment of {len} bytes runs past the end of the file"),
                    ));
                };
                self.at += len;
                let text = decode_gbk(text);
                let text = text.trim_matches(|c: char| c == '\0' || c.is_whitespace());
                if !text.is_empty() {
                    comment = Some(text.to_string());
                }
            }
        }
        Ok((from, to, next, alternative, comment))
    }

    /// The whole tree: the start position's comment and the move records in
    /// file order (a parent always before its children).
    fn tree(&mut self) -> Result<(Option<String>, Vec<Record>), ImportError> {
        let mut records: Vec<Record> = Vec::new();
        if self.data.is_empty() {
            return Ok((None, records));
        }
        let (_, _, next, alternative, root) = self.record()?;
        // Records whose alternatives are still to come, innermost last.
        let mut waiting: Vec<usize> = Vec::new();
        if alternative {
            waiting.push(0);
        }
        let mut expect = next.then_some(0);
        while let Some(parent) = expect.take().or_else(|| waiting.pop()) {
            if records.len() >= MAX_MOVES {
                return Err(ImportError::Limit {
                    place: Place::Byte(self.offset()),
                    what: "moves",
                    limit: MAX_MOVES,
                });
            }
            let offset = self.offset();
            let (from, to, next, alternative, comment) = self.record()?;
            records.push(Record {
                parent,
                from,
                to,
                comment,
                offset,
            });
            let me = records.len();
            if alternative {
                waiting.push(parent);
            }
            if next {
                expect = Some(me);
            }
        }
        Ok((root, records))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn derived_keys_by_hand() {
        // (54·1 + 221)·1 = 275 = 0x113 → 0x13; (54·4 + 221)·2 = 874 → 0x6a.
        assert_eq!(derive(1), 0x13);
        assert_eq!(derive(2), 0x6a);
        assert_eq!(derive(0), 0);
    }

    #[test]
    fn plain_versions_have_no_keys() {
        let mut h = [0u8; 16];
        h[2] = 10;
        h[13] = 7;
        let k = keys(&h);
        assert_eq!((k.pieces, k.origin, k.destination, k.comment), (0, 0, 0, 0));
        assert_eq!(k.stream, [0; 32]);
    }
}
