//! CBF, the XML records of 象棋桥 (XQBridge).
//!
//! The shape read (from public descriptions and files; written in our own
//! words): a `<ChineseChessRecord>` root with a `<Head>` of single-value
//! elements (`Name`, `Contest`, `Round`, `Date`, `Site`, `Red`, `Black`,
//! `ECCO`, `RecordResult` 0-4, `FEN` …) and a `<MoveList>` of `<Move>`
//! elements, each with `value="XY-XY"`: the origin and destination as a file
//! digit 0-8 (a-i) and a row digit counted from black's side (0 is ICCS rank
//! 9). The first move `00-00` stands for the start position; a move's text
//! or `comment` attribute is its comment (the start position's is the
//! game's); `end="1"` marks the last move of a line.
//!
//! Side lines (our reading of how a record holds more than one line): the
//! `<MoveList>` is a list of lines, each ended by `end="1"`; the first is
//! the main line, and each later one is written from the start position,
//! so the moves it shares with the lines before it come first. A line
//! follows the tree as long as its moves are there and parts from it at
//! its first new move, which becomes a side line of the move it replaces
//! (its comments are added once; a comment said again is not repeated).

use qiyuan_xiangqi::{Color, Position};
use quick_xml::events::{BytesStart, Event};

use crate::detect::{Format, decode_text};
use crate::error::{ImportError, Place};
use crate::tree::MoveTree;
use crate::{ImportedGame, MAX_TAGS};

/// Head elements under their PGN tag names.
const HEAD_NAMES: [(&str, &str); 6] = [
    ("Name", "Title"),
    ("Contest", "Event"),
    ("Commentator", "Annotator"),
    ("Creator", "Author"),
    ("RedTeam", "RedTeam"),
    ("BlackTeam", "BlackTeam"),
];

/// The most `<Move>` elements read (lines repeat the moves they share).
const MAX_MOVE_ELEMENTS: usize = 100_000;

/// Where the reader is in the document.
#[derive(PartialEq, Eq, Clone, Copy)]
enum Section {
    Outside,
    Head,
    MoveList,
}

/// One `<Move>` as read: its value, comment, place, and whether it ends a line.
struct RawMove {
    value: String,
    comment: String,
    place: Place,
    end: bool,
}

/// Reads a CBF file.
pub fn parse(bytes: &[u8]) -> Result<ImportedGame, ImportError> {
    let text = decode_text(bytes)?;
    let mut reader = quick_xml::Reader::from_str(&text);
    reader.config_mut().trim_text(true);
    let line_of = |pos: u64| -> Place {
        let pos = (pos as usize).min(text.len());
        let before = text.get(..pos).unwrap_or(&text);
        let line = before.matches('\n').count() + 1;
        let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
        Place::Line { line, column }
    };
    let mut seen_root = false;
    let mut section = Section::Outside;
    let mut head_field: Option<String> = None;
    let mut tags: Vec<(String, String)> = Vec::new();
    let mut fen: Option<(String, Place)> = None;
    let mut moves: Vec<RawMove> = Vec::new();
    let mut in_move = false;
    loop {
        let before = reader.buffer_position() as usize;
        let text_place = line_of(before as u64);
        // An element's place is its '<' (the reader stands after the last
        // event, before any whitespace it trims).
        let place = line_of(
            text.get(before..)
                .and_then(|t| t.find('<'))
                .map_or(before, |i| before + i) as u64,
        );
        let event = reader.read_event().map_err(|e| {
            ImportError::syntax(line_of(reader.error_position()), format!("bad XML: {e}"))
        })?;
        let (element, empty) = match &event {
            Event::Start(e) => (Some(e), false),
            Event::Empty(e) => (Some(e), true),
            _ => (None, false),
        };
        if let Some(e) = element {
            let name = String::from_utf8_lossy(e.local_name().as_ref()).into_owned();
            match (section, name.as_str()) {
                (Section::Outside, "ChineseChessRecord") => seen_root = true,
                (Section::Outside, "Head") if seen_root && !empty => section = Section::Head,
                (Section::Outside, "MoveList") if seen_root && !empty => {
                    section = Section::MoveList
                }
                (Section::Head, field) if !empty => head_field = Some(field.to_string()),
                (Section::MoveList, "Move") => {
                    // Bounded before it is kept (lines written again from
                    // the start repeat moves; the tree checks its own size).
                    if moves.len() >= MAX_MOVE_ELEMENTS {
                        return Err(ImportError::Limit {
                            place,
                            what: "move elements",
                            limit: MAX_MOVE_ELEMENTS,
                        });
                    }
                    moves.push(RawMove {
                        value: attr(e, "value").unwrap_or_default(),
                        comment: attr(e, "comment").unwrap_or_default(),
                        place,
                        end: attr(e, "end").is_some_and(|v| v.trim() == "1"),
                    });
                    in_move = !empty;
                }
                _ => {}
            }
            continue;
        }
        match event {
            Event::Eof => break,
            Event::Text(t) => {
                let value = t
                    .unescape()
                    .map_err(|e| ImportError::syntax(text_place, format!("bad XML text: {e}")))?;
                if let Some(field) = &head_field {
                    head_tag(&mut tags, &mut fen, field, value.trim(), text_place)?;
                } else if in_move && let Some(last) = moves.last_mut() {
                    if !last.comment.is_empty() {
                        last.comment.push('\n');
                    }
                    last.comment.push_str(value.trim());
                }
            }
            Event::CData(t) => {
                let value = String::from_utf8_lossy(&t).into_owned();
                if in_move && let Some(last) = moves.last_mut() {
                    last.comment.push_str(value.trim());
                }
            }
            Event::End(e) => {
                let name = e.local_name();
                match name.as_ref() {
                    b"Head" | b"MoveList" => section = Section::Outside,
                    b"Move" => in_move = false,
                    _ => {}
                }
                head_field = None;
            }
            _ => {}
        }
    }
    if !seen_root {
        return Err(ImportError::syntax(
            Place::Line { line: 1, column: 1 },
            "not a CBF record (no <ChineseChessRecord> element)",
        ));
    }
    let start = match &fen {
        Some((f, place)) if !f.is_empty() => {
            Position::from_fen(f).map_err(|e| ImportError::Position {
                place: *place,
                message: e.to_string(),
            })?
        }
        _ => Position::startpos(),
    };
    let tree = build_tree(&start, &moves)?;
    Ok(ImportedGame {
        format: Format::Cbf,
        start_fen: start.to_fen(),
        tags,
        tree,
    })
}

/// The tree of the record's lines: each line from the start, following the
/// moves already there and branching at its first new one.
fn build_tree(start: &Position, moves: &[RawMove]) -> Result<MoveTree, ImportError> {
    let mut tree = MoveTree::new();
    let mut pos = start.clone();
    let mut node = 0;
    // A comment said again (a line written again from the start says its
    // shared moves' comments again) is kept once.
    let say = |tree: &mut MoveTree, at: usize, text: &str| {
        let said = tree
            .node(at)
            .and_then(|n| n.comment.as_deref())
            .is_some_and(|c| c.contains(text.trim()));
        if !said {
            tree.comment(at, text);
        }
    };
    for m in moves {
        // `00-00` stands for the start position (before a line's first move).
        if node == 0 && m.value.trim() == "00-00" {
            say(&mut tree, 0, &m.comment);
            continue;
        }
        let move_error = |text: &str, message: String| ImportError::Move {
            place: m.place,
            number: pos.fullmove_number(),
            red: pos.side_to_move() == Color::Red,
            text: text.to_string(),
            message,
        };
        let iccs = cbf_to_iccs(m.value.trim())
            .ok_or_else(|| move_error(&m.value, "expected a value like 77-47".into()))?;
        let mv = pos
            .parse_move(&iccs)
            .map_err(|e| move_error(&iccs, e.to_string()))?;
        let there = tree.node(node).and_then(|n| {
            n.children
                .iter()
                .copied()
                .find(|&c| tree.node(c).is_some_and(|c| c.mv == iccs))
        });
        node = match there {
            Some(c) => c,
            None => tree.add(node, iccs, m.place)?,
        };
        say(&mut tree, node, &m.comment);
        pos.make_move(mv);
        if m.end {
            node = 0;
            pos = start.clone();
        }
    }
    Ok(tree)
}

/// An attribute's value, unescaped.
fn attr(e: &BytesStart<'_>, name: &str) -> Option<String> {
    e.attributes()
        .flatten()
        .find(|a| a.key.local_name().as_ref() == name.as_bytes())
        .and_then(|a| a.unescape_value().ok().map(|v| v.into_owned()))
}

/// Records one `<Head>` element as a tag.
fn head_tag(
    tags: &mut Vec<(String, String)>,
    fen: &mut Option<(String, Place)>,
    field: &str,
    value: &str,
    place: Place,
) -> Result<(), ImportError> {
    if value.is_empty() {
        return Ok(());
    }
    if tags.len() >= MAX_TAGS {
        return Err(ImportError::Limit {
            place,
            what: "tags",
            limit: MAX_TAGS,
        });
    }
    match field {
        "FEN" => *fen = Some((value.to_string(), place)),
        "RecordResult" => {
            let result = match value {
                "1" => "1-0",
                "2" => "0-1",
                "3" | "4" => "1/2-1/2",
                _ => return Ok(()),
            };
            tags.push(("Result".into(), result.into()));
        }
        _ => {
            let name = HEAD_NAMES
                .iter()
                .find(|(cbf, _)| *cbf == field)
                .map_or(field, |(_, pgn)| pgn);
            tags.push((name.to_string(), value.to_string()));
        }
    }
    Ok(())
}

/// `XY-XY` (file 0-8, row 0-9 from black's side) as ICCS.
fn cbf_to_iccs(value: &str) -> Option<String> {
    let b = value.as_bytes();
    if b.len() != 5 || b[2] != b'-' {
        return None;
    }
    let square = |x: u8, y: u8| -> Option<String> {
        if !(b'0'..=b'8').contains(&x) || !y.is_ascii_digit() {
            return None;
        }
        Some(format!(
            "{}{}",
            char::from(b'a' + (x - b'0')),
            9 - (y - b'0')
        ))
    };
    Some(format!("{}{}", square(b[0], b[1])?, square(b[3], b[4])?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn coordinates_by_hand() {
        // 炮二平五: h2e2 is written 77-47 (row 7 from black's side is rank 2).
        assert_eq!(cbf_to_iccs("77-47").as_deref(), Some("h2e2"));
        assert_eq!(cbf_to_iccs("70-62").as_deref(), Some("h9g7"));
        assert_eq!(cbf_to_iccs("97-47"), None);
        assert_eq!(cbf_to_iccs("7747"), None);
    }
}
