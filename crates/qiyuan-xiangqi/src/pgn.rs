//! PGN import and export for Xiangqi game records.
//!
//! The format is chess PGN with the Xiangqi conventions of xqbase.com's
//! 中国象棋电脑应用规范 (PGN 文件格式): a `[Game "Chinese Chess"]` tag first,
//! `[Format "ICCS"]`, `"WXF"` or `"Chinese"` for the move notation, `[FEN "…"]`
//! for a game that does not start from the opening array, `[Result "1-0"]`
//! (`1-0` red won, `0-1` black won, `1/2-1/2` draw, `*` unknown).
//!
//! Reading: tags, then the moves; move numbers (`1.`, `1...`, `1.炮二平五`),
//! comments (`{…}` and `;` to the end of the line), variations (`(…)`, nested),
//! NAGs (`$1`) and `!`/`?` annotations are skipped. Moves are read in the
//! declared format; a move that does not parse there, and every move of a
//! record that declares none, is tried as ICCS, then WXF, then Chinese. ICCS
//! is accepted as `h2e2` or `H2-E2`. Only the first game of the text is read.
//!
//! Writing: ICCS moves are written the PGN way, `H2-E2` (with a Jifen class
//! mark after, `H2-E2*`); a record written and read back gives the same start
//! position, moves and result.

use std::fmt::Write;

use crate::fen::{FenError, START_FEN};
use crate::iccs::parse_iccs;
use crate::notation::{NotationError, parse_chinese_among, parse_wxf_among, to_chinese, to_wxf};
use crate::position::Position;
use crate::types::{Color, Move};

/// A game record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PgnGame {
    /// The tags in the order read (including `Game`, `Format`, `FEN`, `Result`).
    pub tags: Vec<(String, String)>,
    /// The position the moves start from.
    pub start: Position,
    /// The moves, each legal in turn.
    pub moves: Vec<Move>,
    /// The result (`1-0`, `0-1`, `1/2-1/2` or `*`), from the movetext's end or the tag.
    pub result: Option<String>,
}

impl PgnGame {
    /// An empty record starting from `start`.
    pub fn new(start: Position) -> PgnGame {
        PgnGame {
            tags: Vec::new(),
            start,
            moves: Vec::new(),
            result: None,
        }
    }

    /// The value of tag `name` (compared without regard to case), if present.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// The position after all the moves.
    pub fn end_position(&self) -> Position {
        let mut pos = self.start.clone();
        for &m in &self.moves {
            pos.make_move(m);
        }
        pos
    }
}

/// The move notation of a record's movetext.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Hash)]
pub enum MoveFormat {
    /// Coordinates: `H2-E2` (read also as `h2e2`).
    Iccs,
    /// WXF notation: `C2.5`.
    Wxf,
    /// Chinese notation: `炮二平五`.
    Chinese,
}

impl MoveFormat {
    /// The value of the `Format` tag for this notation.
    pub fn name(self) -> &'static str {
        match self {
            MoveFormat::Iccs => "ICCS",
            MoveFormat::Wxf => "WXF",
            MoveFormat::Chinese => "Chinese",
        }
    }

    /// Reads a `Format` tag value (case-insensitive; `AXF` is taken as WXF,
    /// 中文 as Chinese).
    pub fn from_name(name: &str) -> Option<MoveFormat> {
        let n = name.trim().to_ascii_lowercase();
        Some(match n.as_str() {
            "iccs" => MoveFormat::Iccs,
            "wxf" | "axf" => MoveFormat::Wxf,
            "chinese" | "中文" => MoveFormat::Chinese,
            _ => return None,
        })
    }

    /// The move `m` of `pos` written in this notation.
    pub fn write(self, pos: &Position, m: Move) -> String {
        match self {
            MoveFormat::Iccs => pgn_iccs(m),
            MoveFormat::Wxf => to_wxf(pos, m),
            MoveFormat::Chinese => to_chinese(pos, m),
        }
    }
}

/// What is wrong with a PGN text, and where.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PgnError {
    /// Malformed tags, comments or variations.
    #[error("PGN line {line}, character {column}: {message}")]
    Syntax {
        /// 1-based line.
        line: usize,
        /// 1-based character in the line.
        column: usize,
        /// What is wrong.
        message: String,
    },
    /// The `FEN` tag is not a valid position.
    #[error("PGN FEN tag: {0}")]
    Fen(#[from] FenError),
    /// A move that does not parse or is not legal.
    #[error("PGN move {number}{}{text}': {message}", if *.color == Color::Red { ". '" } else { "... '" })]
    Move {
        /// The move number (fullmove number of the position it is played in).
        number: u32,
        /// The side that was to make it.
        color: Color,
        /// The move text as written.
        text: String,
        /// Why it was refused.
        message: String,
    },
}

/// A move in the PGN flavour of ICCS: `H2-E2`, `H2-E2*`, `0000`.
fn pgn_iccs(m: Move) -> String {
    if m.is_pass() {
        return "0000".into();
    }
    let mut s = format!(
        "{}-{}",
        m.from().to_string().to_ascii_uppercase(),
        m.to().to_string().to_ascii_uppercase()
    );
    if let Some(c) = m.new_class() {
        s.push(c.mark());
    }
    s
}

/// Parses an ICCS move in either `h2e2` or `H2-E2` form (with an optional class
/// mark) and checks it against `legal` (ignoring the class change).
fn parse_pgn_iccs(pos: &Position, text: &str, legal: &[Move]) -> Result<Move, String> {
    let chars: Vec<char> = text.chars().collect();
    let plain: String = if chars.len() >= 5 && chars[2] == '-' {
        chars
            .iter()
            .enumerate()
            .filter(|&(i, _)| i != 2)
            .map(|(_, c)| c)
            .collect()
    } else {
        text.to_string()
    };
    let m = parse_iccs(&plain).map_err(|e| e.to_string())?;
    if m.is_pass() {
        return Err("a pass is not a Xiangqi move".into());
    }
    let base = m.without_class();
    if legal.iter().any(|l| l.without_class() == base) {
        Ok(m)
    } else {
        Err(match pos.parse_move(&base.to_string()) {
            Err(e) => e.to_string(),
            Ok(_) => format!("illegal move '{text}'"),
        })
    }
}

/// Parses one move in `format` (`None`: try ICCS, then WXF, then Chinese).
/// On failure the message is the declared format's, or, when trying all, the
/// one of the notation the text looks most like.
pub fn parse_move_text(
    pos: &Position,
    text: &str,
    format: Option<MoveFormat>,
) -> Result<Move, String> {
    let legal = pos.legal_moves();
    let try_one = |f: MoveFormat| -> Result<Move, String> {
        match f {
            MoveFormat::Iccs => parse_pgn_iccs(pos, text, &legal),
            MoveFormat::Wxf => {
                parse_wxf_among(pos, text, &legal).map_err(|e: NotationError| e.to_string())
            }
            MoveFormat::Chinese => {
                parse_chinese_among(pos, text, &legal).map_err(|e: NotationError| e.to_string())
            }
        }
    };
    let all = [MoveFormat::Iccs, MoveFormat::Wxf, MoveFormat::Chinese];
    let mut first_err = None;
    if let Some(f) = format {
        match try_one(f) {
            Ok(m) => return Ok(m),
            Err(e) => first_err = Some(e),
        }
    }
    let mut errs = Vec::new();
    for f in all {
        if Some(f) == format {
            continue;
        }
        match try_one(f) {
            Ok(m) => return Ok(m),
            Err(e) => errs.push((f, e)),
        }
    }
    if let Some(e) = first_err {
        return Err(e);
    }
    let guess = guess_format(text);
    Err(errs
        .into_iter()
        .find(|(f, _)| *f == guess)
        .map(|(_, e)| e)
        .unwrap_or_else(|| format!("'{text}' is not a move")))
}

/// Which notation a move text looks like (for error messages).
fn guess_format(text: &str) -> MoveFormat {
    if !text.is_ascii() {
        return MoveFormat::Chinese;
    }
    let b = text.as_bytes();
    let looks_iccs = b.len() >= 4
        && b[0].to_ascii_lowercase().is_ascii_lowercase()
        && (b'a'..=b'i').contains(&b[0].to_ascii_lowercase())
        && b[1].is_ascii_digit()
        && (b[2].is_ascii_alphabetic() || b[2] == b'-');
    if looks_iccs {
        MoveFormat::Iccs
    } else {
        MoveFormat::Wxf
    }
}

/// Parses any move notation the crate knows (ICCS, WXF, Chinese) in `pos`.
pub fn parse_any_move(pos: &Position, text: &str) -> Result<Move, String> {
    parse_move_text(pos, text.trim(), None)
}

/// A character cursor over the PGN text that knows its line and column.
struct Cursor<'a> {
    chars: std::iter::Peekable<std::str::Chars<'a>>,
    line: usize,
    column: usize,
}

impl<'a> Cursor<'a> {
    fn new(text: &'a str) -> Cursor<'a> {
        Cursor {
            chars: text.chars().peekable(),
            line: 1,
            column: 1,
        }
    }
    fn peek(&mut self) -> Option<char> {
        self.chars.peek().copied()
    }
    fn next(&mut self) -> Option<char> {
        let c = self.chars.next()?;
        if c == '\n' {
            self.line += 1;
            self.column = 1;
        } else {
            self.column += 1;
        }
        Some(c)
    }
    fn error(&self, line: usize, column: usize, message: impl Into<String>) -> PgnError {
        PgnError::Syntax {
            line,
            column,
            message: message.into(),
        }
    }
    /// Skips whitespace, comments, `%` escape lines, NAGs and variations.
    fn skip_noise(&mut self) -> Result<(), PgnError> {
        loop {
            match self.peek() {
                Some(c) if c.is_whitespace() || c == '\u{feff}' => {
                    self.next();
                }
                Some('%') if self.column == 1 => self.skip_line(),
                Some(';') => self.skip_line(),
                Some('{') => self.skip_brace()?,
                Some('(') => self.skip_variation()?,
                Some('$') => {
                    self.next();
                    while self.peek().is_some_and(|c| c.is_ascii_digit()) {
                        self.next();
                    }
                }
                _ => return Ok(()),
            }
        }
    }
    fn skip_line(&mut self) {
        while let Some(c) = self.next() {
            if c == '\n' {
                break;
            }
        }
    }
    fn skip_brace(&mut self) -> Result<(), PgnError> {
        let (line, column) = (self.line, self.column);
        self.next();
        loop {
            match self.next() {
                Some('}') => return Ok(()),
                Some(_) => {}
                None => return Err(self.error(line, column, "comment '{' is never closed")),
            }
        }
    }
    fn skip_variation(&mut self) -> Result<(), PgnError> {
        let (line, column) = (self.line, self.column);
        self.next();
        let mut depth = 1;
        while depth > 0 {
            match self.peek() {
                None => return Err(self.error(line, column, "variation '(' is never closed")),
                Some('{') => self.skip_brace()?,
                Some(';') => self.skip_line(),
                Some('(') => {
                    depth += 1;
                    self.next();
                }
                Some(')') => {
                    depth -= 1;
                    self.next();
                }
                Some(_) => {
                    self.next();
                }
            }
        }
        Ok(())
    }
    /// Reads a tag `[Name "value"]`; the cursor is on the `[`.
    fn tag(&mut self) -> Result<(String, String), PgnError> {
        let (line, column) = (self.line, self.column);
        self.next();
        while self.peek().is_some_and(|c| c.is_whitespace() && c != '\n') {
            self.next();
        }
        let mut name = String::new();
        while let Some(c) = self.peek() {
            if c.is_alphanumeric() || c == '_' {
                name.push(c);
                self.next();
            } else {
                break;
            }
        }
        if name.is_empty() {
            return Err(self.error(self.line, self.column, "expected a tag name after '['"));
        }
        while self.peek().is_some_and(|c| c.is_whitespace() && c != '\n') {
            self.next();
        }
        if self.peek() != Some('"') {
            return Err(self.error(
                self.line,
                self.column,
                format!("tag {name}: expected '\"' before the value"),
            ));
        }
        self.next();
        let mut value = String::new();
        loop {
            match self.next() {
                Some('\\') => match self.next() {
                    Some(c) => value.push(c),
                    None => break,
                },
                Some('"') => {
                    while self.peek().is_some_and(|c| c.is_whitespace() && c != '\n') {
                        self.next();
                    }
                    if self.peek() == Some(']') {
                        self.next();
                        return Ok((name, value));
                    }
                    return Err(self.error(
                        self.line,
                        self.column,
                        format!("tag {name}: expected ']' after the value"),
                    ));
                }
                Some('\n') | None => break,
                Some(c) => value.push(c),
            }
        }
        Err(self.error(
            line,
            column,
            format!("tag {name}: the value is never closed"),
        ))
    }
    /// Reads a movetext token (up to whitespace or a PGN delimiter).
    fn token(&mut self) -> String {
        let mut s = String::new();
        while let Some(c) = self.peek() {
            if c.is_whitespace() || "{}();[]$".contains(c) {
                break;
            }
            s.push(c);
            self.next();
        }
        s
    }
}

const RESULTS: [&str; 4] = ["1-0", "0-1", "1/2-1/2", "*"];

/// Whether `t` is a WXF move for pawns doubled on two files (`33.4`, `33.4*`),
/// which a move number must not swallow.
fn is_doubled_file_wxf(t: &str) -> bool {
    let b = t.as_bytes();
    (b.len() == 4 || b.len() == 5)
        && b[0].is_ascii_digit()
        && b[1] == b[0]
        && (b[2] == b'.' || b[2] == b'=')
        && b[3].is_ascii_digit()
        && (b.len() == 4 || b"=-+*".contains(&b[4]))
}

/// Removes a leading move number (`12.`, `12...`) from a token.
fn strip_move_number(t: &str) -> &str {
    if is_doubled_file_wxf(t) {
        return t;
    }
    let digits = t.bytes().take_while(|b| b.is_ascii_digit()).count();
    if digits == 0 {
        return t;
    }
    let rest = &t[digits..];
    let dots = rest.bytes().take_while(|&b| b == b'.').count();
    if dots == 0 {
        return t;
    }
    &rest[dots..]
}

/// Parses the first game of a PGN text.
pub fn parse_pgn(text: &str) -> Result<PgnGame, PgnError> {
    let mut cur = Cursor::new(text);
    let mut tags = Vec::new();
    loop {
        cur.skip_noise()?;
        if cur.peek() == Some('[') {
            tags.push(cur.tag()?);
        } else {
            break;
        }
    }
    let tag = |name: &str| {
        tags.iter()
            .find(|(k, _): &&(String, String)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.clone())
    };
    let start = match tag("FEN") {
        Some(f) if !f.trim().is_empty() => Position::from_fen(&f)?,
        _ => Position::startpos(),
    };
    let format = tag("Format").and_then(|f| MoveFormat::from_name(&f));
    let mut pos = start.clone();
    let mut moves = Vec::new();
    let mut result = None;
    loop {
        cur.skip_noise()?;
        let (line, column) = (cur.line, cur.column);
        match cur.peek() {
            None | Some('[') => break,
            Some(')') => return Err(cur.error(line, column, "')' without a variation to close")),
            Some(c @ ('}' | ']')) => {
                return Err(cur.error(line, column, format!("unexpected '{c}'")));
            }
            _ => {}
        }
        let raw = cur.token();
        if RESULTS.contains(&raw.as_str()) {
            result = Some(raw);
            break;
        }
        let t = strip_move_number(&raw).trim_end_matches(['!', '?']);
        if t.is_empty() || t.chars().all(|c| c == '.' || c == '…') {
            continue;
        }
        let number = pos.fullmove_number();
        let color = pos.side_to_move();
        let m = parse_move_text(&pos, t, format).map_err(|message| PgnError::Move {
            number,
            color,
            text: t.to_string(),
            message,
        })?;
        pos.make_move(m);
        moves.push(m);
    }
    if result.is_none() {
        result = tag("Result").filter(|r| !r.trim().is_empty());
    }
    Ok(PgnGame {
        tags,
        start,
        moves,
        result,
    })
}

fn write_tag(s: &mut String, name: &str, value: &str) {
    let escaped = value.replace('\\', "\\\\").replace('"', "\\\"");
    let _ = writeln!(s, "[{name} \"{escaped}\"]");
}

/// Writes `game` as PGN with its moves in `format`.
///
/// Tags: `Game` first (`Chinese Chess` unless the record has one), then the
/// record's other tags in order, then `Format`, `FEN` (only when the start is
/// not the opening array) and `Result`, which are written from the record's
/// data, not copied from its tags.
pub fn write_pgn(game: &PgnGame, format: MoveFormat) -> String {
    let mut s = String::new();
    write_tag(&mut s, "Game", game.tag("Game").unwrap_or("Chinese Chess"));
    for (k, v) in &game.tags {
        if ["Game", "Format", "FEN", "Result"]
            .iter()
            .any(|t| t.eq_ignore_ascii_case(k))
        {
            continue;
        }
        write_tag(&mut s, k, v);
    }
    write_tag(&mut s, "Format", format.name());
    let fen = game.start.to_fen();
    if fen != START_FEN {
        write_tag(&mut s, "FEN", &fen);
    }
    let result = game.result.as_deref().unwrap_or("*");
    write_tag(&mut s, "Result", result);
    s.push('\n');
    let mut pos = game.start.clone();
    let mut line = String::new();
    for (i, &m) in game.moves.iter().enumerate() {
        if pos.side_to_move() == Color::Red {
            if !line.is_empty() {
                s.push_str(line.trim_end());
                s.push('\n');
                line.clear();
            }
            let _ = write!(line, "{}. ", pos.fullmove_number());
        } else if i == 0 {
            let _ = write!(line, "{}... ", pos.fullmove_number());
        }
        line.push_str(&format.write(&pos, m));
        line.push(' ');
        pos.make_move(m);
    }
    line.push_str(result);
    s.push_str(&line);
    s.push('\n');
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_numbers_do_not_swallow_doubled_pawn_moves() {
        assert_eq!(strip_move_number("33.4"), "33.4");
        assert_eq!(strip_move_number("1.33.4"), "33.4");
        assert_eq!(strip_move_number("12."), "");
        assert_eq!(strip_move_number("12...C2.5"), "C2.5");
        assert_eq!(strip_move_number("1.炮二平五"), "炮二平五");
        assert_eq!(strip_move_number("h2e2"), "h2e2");
    }

    #[test]
    fn iccs_both_spellings() {
        let p = Position::startpos();
        let legal = p.legal_moves();
        let m = parse_pgn_iccs(&p, "H2-E2", &legal).unwrap();
        assert_eq!(m.to_string(), "h2e2");
        assert_eq!(parse_pgn_iccs(&p, "h2e2", &legal), Ok(m));
        assert_eq!(pgn_iccs(m), "H2-E2");
        assert!(parse_pgn_iccs(&p, "H2-E3", &legal).is_err());
    }
}
