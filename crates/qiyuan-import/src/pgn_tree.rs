//! PGN as Chinese sites write it, plain move lists and bare FENs, read into a
//! move tree.
//!
//! The movetext follows PGN (and xqbase.com's 中国象棋电脑应用规范 for
//! Xiangqi): move numbers (`1.`, `1...`, also `1、` and full-width digits)
//! are skipped, `{…}` and `;` comments are kept on the move before them (before
//! the first move: on the game; at the start of a variation: on its first
//! move), `(…)` variations (nested) replace the move before them, NAGs (`$1`)
//! and `!`/`?` marks are dropped, and a result (`1-0`, `0-1`, `1/2-1/2`, `*`)
//! ends the game. Each move is read with the rules crate's parsers in the
//! notation the `Format` tag declares, else as ICCS (`h2e2`, `H2-E2`), WXF
//! (`C2.5`) or Chinese (`炮二平五`), whichever fits. Only the first game of a
//! file is read.

use qiyuan_xiangqi::Position;
use qiyuan_xiangqi::pgn::{MoveFormat, parse_move_text};

use crate::detect::{Format, looks_like_fen};
use crate::error::{ImportError, Place};
use crate::tree::MoveTree;
use crate::{ImportedGame, MAX_NESTING, MAX_TAGS};

/// Reads `text` as `format` (PGN, a FEN alone, or a move list).
pub fn parse_text(text: &str, format: Format) -> Result<ImportedGame, ImportError> {
    let mut cur = Cursor::new(text);
    let mut tags = Vec::new();
    let mut start = Position::startpos();
    match format {
        Format::Fen => {
            let fen = text.trim().trim_start_matches('\u{feff}').trim();
            start = read_fen(fen, Place::Line { line: 1, column: 1 })?;
            return Ok(ImportedGame {
                format,
                start_fen: start.to_fen(),
                tags,
                tree: MoveTree::new(),
            });
        }
        Format::Pgn => loop {
            cur.skip_space();
            if cur.peek() != Some('[') {
                break;
            }
            if tags.len() >= MAX_TAGS {
                return Err(ImportError::Limit {
                    place: cur.place(),
                    what: "tags",
                    limit: MAX_TAGS,
                });
            }
            let place = cur.place();
            let (name, value) = cur.tag()?;
            if name.eq_ignore_ascii_case("FEN") && !value.trim().is_empty() {
                start = read_fen(value.trim(), place)?;
            }
            tags.push((name, value));
        },
        _ => {
            // A move list may open with the position it starts from.
            cur.skip_space();
            let rest: &str = cur.rest_of_line();
            if looks_like_fen(rest.trim()) {
                start = read_fen(rest.trim(), cur.place())?;
                cur.skip_line();
            }
        }
    }
    let notation = tags
        .iter()
        .find(|(k, _)| k.eq_ignore_ascii_case("Format"))
        .and_then(|(_, v)| MoveFormat::from_name(v));
    let (tree, result) = movetext(&mut cur, &start, notation)?;
    let has_result_tag = tags
        .iter()
        .any(|(k, v)| k.eq_ignore_ascii_case("Result") && !v.trim().is_empty());
    if let Some(r) = result
        && !has_result_tag
    {
        tags.push(("Result".to_string(), r));
    }
    Ok(ImportedGame {
        format,
        start_fen: start.to_fen(),
        tags,
        tree,
    })
}

fn read_fen(fen: &str, place: Place) -> Result<Position, ImportError> {
    Position::from_fen(fen).map_err(|e| ImportError::Position {
        place,
        message: e.to_string(),
    })
}

/// A line being read: where it has got to in the tree and on the board.
#[derive(Clone)]
struct Line {
    /// The node of the last move read (the variation's parent before any).
    node: usize,
    /// The position after it.
    pos: Position,
    /// The node and position before the last move: where a variation starts.
    before_last: Option<(usize, Position)>,
    /// A comment written before the line's first move.
    pending: Option<String>,
    /// Where the line's `(` is (for the error when it is never closed).
    opened: Place,
}

const RESULTS: [&str; 5] = ["1-0", "0-1", "1/2-1/2", "1/2", "*"];

/// Reads movetext up to its end, the result or the next game's tags; returns
/// the tree and the result if one was written.
fn movetext(
    cur: &mut Cursor<'_>,
    start: &Position,
    notation: Option<MoveFormat>,
) -> Result<(MoveTree, Option<String>), ImportError> {
    let mut tree = MoveTree::new();
    let mut stack: Vec<Line> = Vec::new();
    let mut line = Line {
        node: 0,
        pos: start.clone(),
        before_last: None,
        pending: None,
        opened: cur.place(),
    };
    let mut result = None;
    loop {
        cur.skip_space();
        let place = cur.place();
        let Some(c) = cur.peek() else { break };
        match c {
            '{' | ';' => {
                let text = if c == '{' {
                    cur.brace()?
                } else {
                    cur.line_comment()
                };
                if stack.is_empty() && line.node == 0 {
                    tree.comment(0, &text);
                } else if line.before_last.is_none() {
                    let p = line.pending.get_or_insert_with(String::new);
                    if !p.is_empty() {
                        p.push('\n');
                    }
                    p.push_str(text.trim());
                } else {
                    tree.comment(line.node, &text);
                }
            }
            '(' => {
                cur.next();
                let Some((node, pos)) = line.before_last.clone() else {
                    return Err(ImportError::syntax(
                        place,
                        "a variation '(' must follow the move it replaces",
                    ));
                };
                if stack.len() >= MAX_NESTING {
                    return Err(ImportError::Limit {
                        place,
                        what: "variations nested in each other",
                        limit: MAX_NESTING,
                    });
                }
                stack.push(line);
                line = Line {
                    node,
                    pos,
                    before_last: None,
                    pending: None,
                    opened: place,
                };
            }
            ')' => {
                cur.next();
                let Some(outer) = stack.pop() else {
                    return Err(ImportError::syntax(
                        place,
                        "')' without a variation to close",
                    ));
                };
                if let Some(p) = line.pending.take() {
                    tree.comment(line.node, &p);
                }
                line = outer;
            }
            '[' if stack.is_empty() => break,
            '[' | '}' | ']' => return Err(ImportError::syntax(place, format!("unexpected '{c}'"))),
            '$' => {
                cur.next();
                while cur.peek().is_some_and(|c| c.is_ascii_digit()) {
                    cur.next();
                }
            }
            _ => {
                let raw = cur.token();
                if raw.is_empty() {
                    // A lone separator such as '，'.
                    cur.next();
                    continue;
                }
                if RESULTS.contains(&raw.as_str()) {
                    if stack.is_empty() {
                        result = Some(if raw == "1/2" { "1/2-1/2".into() } else { raw });
                        // Comments may follow the result.
                        loop {
                            cur.skip_space();
                            if cur.peek() != Some('{') {
                                break;
                            }
                            let text = cur.brace()?;
                            tree.comment(line.node, &text);
                        }
                        break;
                    }
                    continue;
                }
                let t = strip_move_number(&raw).trim_end_matches(['!', '?']);
                if t.is_empty() || t.chars().all(|c| matches!(c, '.' | '…' | '．')) {
                    continue;
                }
                let number = line.pos.fullmove_number();
                let red = line.pos.side_to_move() == qiyuan_xiangqi::Color::Red;
                let m = parse_move_text(&line.pos, t, notation).map_err(|message| {
                    ImportError::Move {
                        place,
                        number,
                        red,
                        text: t.to_string(),
                        message,
                    }
                })?;
                let node = tree.add(line.node, m.without_class().to_string(), place)?;
                if let Some(p) = line.pending.take() {
                    tree.comment(node, &p);
                }
                line.before_last = Some((line.node, line.pos.clone()));
                line.pos.make_move(m);
                line.node = node;
            }
        }
    }
    if !stack.is_empty() {
        // The innermost unclosed variation is `line`: report its '('.
        return Err(ImportError::syntax(
            line.opened,
            "variation '(' is never closed",
        ));
    }
    Ok((tree, result))
}

/// Whether `t` is a WXF move for pawns doubled on two files (`33.4`), which
/// a move number must not swallow.
fn is_doubled_file_wxf(t: &str) -> bool {
    let b = t.as_bytes();
    (b.len() == 4 || b.len() == 5)
        && b[0].is_ascii_digit()
        && b[1] == b[0]
        && (b[2] == b'.' || b[2] == b'=')
        && b[3].is_ascii_digit()
        && (b.len() == 4 || b"=-+*".contains(&b[4]))
}

/// Removes a leading move number (`12.`, `12...`, `12、`, `１２．`) from a
/// token; a token of digits alone is a number with nothing after it.
fn strip_move_number(t: &str) -> &str {
    if is_doubled_file_wxf(t) {
        return t;
    }
    let digits: usize = t
        .chars()
        .take_while(|c| c.is_ascii_digit() || ('０'..='９').contains(c))
        .map(char::len_utf8)
        .sum();
    if digits == 0 {
        return t;
    }
    let rest = &t[digits..];
    if rest.is_empty() {
        return rest;
    }
    let dots: usize = rest
        .chars()
        .take_while(|c| matches!(c, '.' | '．' | '、' | '…'))
        .map(char::len_utf8)
        .sum();
    if dots == 0 {
        return t;
    }
    &rest[dots..]
}

/// A character cursor that knows its line and column.
struct Cursor<'a> {
    text: &'a str,
    at: usize,
    line: usize,
    column: usize,
}

impl<'a> Cursor<'a> {
    fn new(text: &'a str) -> Cursor<'a> {
        Cursor {
            text,
            at: 0,
            line: 1,
            column: 1,
        }
    }
    fn place(&self) -> Place {
        Place::Line {
            line: self.line,
            column: self.column,
        }
    }
    fn peek(&self) -> Option<char> {
        self.text[self.at..].chars().next()
    }
    fn next(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.at += c.len_utf8();
        if c == '\n' {
            self.line += 1;
            self.column = 1;
        } else {
            self.column += 1;
        }
        Some(c)
    }
    /// The text from here to the end of the line (not consumed).
    fn rest_of_line(&self) -> &'a str {
        let rest = &self.text[self.at..];
        rest.split('\n').next().unwrap_or("")
    }
    fn skip_space(&mut self) {
        while self
            .peek()
            .is_some_and(|c| c.is_whitespace() || c == '\u{feff}')
        {
            self.next();
        }
    }
    fn skip_line(&mut self) {
        while let Some(c) = self.next() {
            if c == '\n' {
                break;
            }
        }
    }
    /// A `;` comment to the end of the line.
    fn line_comment(&mut self) -> String {
        self.next();
        let text = self.rest_of_line().to_string();
        self.skip_line();
        text
    }
    /// A `{…}` comment; the cursor is on the `{`.
    fn brace(&mut self) -> Result<String, ImportError> {
        let open = self.place();
        self.next();
        let from = self.at;
        loop {
            match self.next() {
                Some('}') => return Ok(self.text[from..self.at - 1].to_string()),
                Some(_) => {}
                None => return Err(ImportError::syntax(open, "comment '{' is never closed")),
            }
        }
    }
    /// A movetext token: up to whitespace, a PGN delimiter or a list separator.
    fn token(&mut self) -> String {
        let from = self.at;
        while let Some(c) = self.peek() {
            if c.is_whitespace() || "{}();[]$,，。".contains(c) {
                break;
            }
            self.next();
        }
        self.text[from..self.at].to_string()
    }
    /// A tag `[Name "value"]`; the cursor is on the `[`.
    fn tag(&mut self) -> Result<(String, String), ImportError> {
        let open = self.place();
        self.next();
        self.skip_blanks();
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
            return Err(ImportError::syntax(
                self.place(),
                "expected a tag name after '['",
            ));
        }
        self.skip_blanks();
        if self.peek() != Some('"') {
            return Err(ImportError::syntax(
                self.place(),
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
                    self.skip_blanks();
                    if self.peek() == Some(']') {
                        self.next();
                        return Ok((name, value));
                    }
                    return Err(ImportError::syntax(
                        self.place(),
                        format!("tag {name}: expected ']' after the value"),
                    ));
                }
                Some('\n') | None => break,
                Some(c) => value.push(c),
            }
        }
        Err(ImportError::syntax(
            open,
            format!("tag {name}: the value is never closed"),
        ))
    }
    fn skip_blanks(&mut self) {
        while self.peek().is_some_and(|c| c.is_whitespace() && c != '\n') {
            self.next();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_numbers_in_every_spelling() {
        assert_eq!(strip_move_number("12."), "");
        assert_eq!(strip_move_number("12...C2.5"), "C2.5");
        assert_eq!(strip_move_number("1.炮二平五"), "炮二平五");
        assert_eq!(strip_move_number("１．炮二平五"), "炮二平五");
        assert_eq!(strip_move_number("3、h2e2"), "h2e2");
        assert_eq!(strip_move_number("33.4"), "33.4");
        assert_eq!(strip_move_number("7"), "");
        assert_eq!(strip_move_number("h2e2"), "h2e2");
    }
}
