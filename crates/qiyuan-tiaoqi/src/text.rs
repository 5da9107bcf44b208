//! Position and move text (T11, T13), and the errors that say what is wrong
//! and where.
//!
//! A position is written as the 17 rows from row 17 down to row 1, joined by
//! `/`, one character per hole (`.` or the letter of the piece's owner), then
//! a space, the letter to move, a space and the letters still in play in
//! play order: `d/dd/ddd/dddd/…/aaaa/aaa/aa/a a ad`. The text carries no
//! history, so a parsed position has no T7 repetitions yet.
//!
//! A move is `pass` or its holes `ROW.COL` joined by `-`; input may give the
//! whole chain or just `start-end`.

use std::fmt;

use crate::geometry::{Cell, ROW_LEN, Seat, Setup, cells};
use crate::position::{Move, Position};

/// A position text that does not parse, with the place it goes wrong.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    /// Not three fields separated by single spaces.
    #[error(
        "expected 3 fields separated by single spaces (rows, side to move, seats), found {found}"
    )]
    Fields {
        /// Fields found.
        found: usize,
    },
    /// Not 17 rows.
    #[error("expected 17 rows joined by '/', found {found}")]
    Rows {
        /// Rows found.
        found: usize,
    },
    /// A row of the wrong length.
    #[error("row {row} (field 1, part {part}) has {found} holes, expected {expected}")]
    RowLength {
        /// Board row, 1..=17.
        row: u8,
        /// Part of the first field, 1 = row 17.
        part: usize,
        /// Holes written.
        found: usize,
        /// Holes the row has.
        expected: usize,
    },
    /// A character that is neither `.` nor a camp letter.
    #[error("hole {row}.{col}: '{ch}' is not '.' or a letter a-f")]
    Char {
        /// Board row.
        row: u8,
        /// Column in the row.
        col: u8,
        /// What was written.
        ch: char,
    },
    /// A piece of a seat this seating does not have.
    #[error("hole {cell}: a piece of {seat}, who is not seated with {players} players")]
    NotSeated {
        /// Where.
        cell: Cell,
        /// Whose.
        seat: Seat,
        /// Players in the seating.
        players: u8,
    },
    /// A piece in a camp closed to its owner (T5).
    #[error("hole {cell}: a piece of {seat} in camp {camp}, which is closed to it (T5)")]
    ClosedCamp {
        /// Where.
        cell: Cell,
        /// Whose.
        seat: Seat,
        /// The camp.
        camp: Seat,
    },
    /// The side-to-move field is not one seated letter in play.
    #[error("field 2 '{text}': the side to move must be one letter of the seats in play")]
    ToMove {
        /// What was written.
        text: String,
    },
    /// The seat list is wrong.
    #[error("field 3 '{text}', character {index}: {why}")]
    Seats {
        /// What was written.
        text: String,
        /// 1-based character position in the field.
        index: usize,
        /// What is wrong.
        why: &'static str,
    },
    /// A seat with the wrong number of pieces.
    #[error("{seat} has {found} pieces; expected {expected}{}", if *.in_play { "" } else { " or none (out of play)" })]
    PieceCount {
        /// Whose.
        seat: Seat,
        /// Pieces counted.
        found: u32,
        /// The seating's count (T3).
        expected: u8,
        /// Whether the seat is in play.
        in_play: bool,
    },
}

impl Position {
    /// Parses a position text (T13) for `setup`. Seats of the seating that
    /// the text leaves out are out of play: with no pieces (they left, T14)
    /// or with all of them (they finished, T10).
    pub fn from_text(setup: Setup, text: &str) -> Result<Position, PositionError> {
        let fields: Vec<&str> = text.trim().split(' ').collect();
        if fields.len() != 3 {
            return Err(PositionError::Fields {
                found: fields.len(),
            });
        }
        let rows: Vec<&str> = fields[0].split('/').collect();
        if rows.len() != 17 {
            return Err(PositionError::Rows { found: rows.len() });
        }
        let mut pieces = [0u128; 6];
        for (part, row_text) in rows.iter().enumerate() {
            let row = 17 - part as u8;
            let expected = usize::from(ROW_LEN[usize::from(row) - 1]);
            let found = row_text.chars().count();
            if found != expected {
                return Err(PositionError::RowLength {
                    row,
                    part: part + 1,
                    found,
                    expected,
                });
            }
            for (i, ch) in row_text.chars().enumerate() {
                let col = i as u8 + 1;
                let cell = Cell::at(row, col).ok_or(PositionError::Char { row, col, ch })?;
                if ch == '.' {
                    continue;
                }
                let seat = Seat::from_letter(ch).ok_or(PositionError::Char { row, col, ch })?;
                if setup.seats_mask() >> seat.index() & 1 == 0 {
                    return Err(PositionError::NotSeated {
                        cell,
                        seat,
                        players: setup.players(),
                    });
                }
                if seat.allowed() & cell.bit() == 0 {
                    let camp = cell.camp().unwrap_or(seat);
                    return Err(PositionError::ClosedCamp { cell, seat, camp });
                }
                pieces[seat.index()] |= cell.bit();
            }
        }
        let in_play = parse_seats(setup, fields[2])?;
        let turn = {
            let mut it = fields[1].chars();
            match (it.next().and_then(Seat::from_letter), it.next()) {
                (Some(s), None) if in_play >> s.index() & 1 != 0 => s,
                _ => {
                    return Err(PositionError::ToMove {
                        text: fields[1].into(),
                    });
                }
            }
        };
        for seat in setup.seats() {
            let found = pieces[seat.index()].count_ones();
            let playing = in_play >> seat.index() & 1 != 0;
            let full = found == u32::from(setup.pieces());
            if !(full || found == 0 && !playing) {
                return Err(PositionError::PieceCount {
                    seat,
                    found,
                    expected: setup.pieces(),
                    in_play: playing,
                });
            }
        }
        let p = Position {
            setup,
            pieces,
            turn,
            in_play,
            last: [None; 6],
            reps: [0; 6],
        };
        p.debug_check();
        Ok(p)
    }

    /// The position text (T13).
    pub fn to_text(&self) -> String {
        self.to_string()
    }
}

fn parse_seats(setup: Setup, text: &str) -> Result<u8, PositionError> {
    let err = |index, why| PositionError::Seats {
        text: text.into(),
        index,
        why,
    };
    let mut mask = 0u8;
    let mut last: Option<Seat> = None;
    for (i, ch) in text.chars().enumerate() {
        let seat = Seat::from_letter(ch).ok_or_else(|| err(i + 1, "not a letter a-f"))?;
        if setup.seats_mask() >> seat.index() & 1 == 0 {
            return Err(err(i + 1, "a letter not seated in this seating (T12)"));
        }
        if last.is_some_and(|l| l >= seat) {
            return Err(err(
                i + 1,
                "letters must be in play order a-f, each once (T12)",
            ));
        }
        last = Some(seat);
        mask |= 1 << seat.index();
    }
    if mask == 0 {
        return Err(err(1, "no seat in play"));
    }
    Ok(mask)
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for row in (1..=17u8).rev() {
            for col in 1..=ROW_LEN[usize::from(row) - 1] {
                let ch = Cell::at(row, col)
                    .and_then(|c| self.piece_at(c))
                    .map_or('.', Seat::letter);
                write!(f, "{ch}")?;
            }
            if row > 1 {
                f.write_str("/")?;
            }
        }
        write!(f, " {} ", self.turn)?;
        for s in self.in_play() {
            write!(f, "{s}")?;
        }
        Ok(())
    }
}

/// A move text that does not parse (T13).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveTextError {
    /// Nothing given.
    #[error("empty move: write 'pass' or holes ROW.COL joined by '-'")]
    Empty,
    /// One hole only.
    #[error("'{text}': a move needs at least two holes joined by '-' (or 'pass')")]
    OneCell {
        /// What was given.
        text: String,
    },
    /// More holes than a chain can visit.
    #[error("{found} holes: a chain visits at most 121")]
    TooLong {
        /// Holes given.
        found: usize,
    },
    /// A hole that is not `ROW.COL` on the board.
    #[error("hole {index} '{text}': {why}")]
    Cell {
        /// 1-based position in the move.
        index: usize,
        /// What was written.
        text: String,
        /// What is wrong.
        why: String,
    },
}

/// A move as written: `pass`, or the holes it names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveInput {
    /// `pass` (T6).
    Pass,
    /// Two or more holes: start, landing holes, end.
    Cells(Vec<Cell>),
}

/// Parses one hole, `ROW.COL`.
pub fn parse_cell(text: &str) -> Result<Cell, String> {
    let (r, c) = text
        .split_once('.')
        .ok_or_else(|| "expected ROW.COL, e.g. 5.7".to_string())?;
    let digits = |s: &str| !s.is_empty() && s.len() <= 3 && s.bytes().all(|b| b.is_ascii_digit());
    if !digits(r) || !digits(c) {
        return Err("ROW and COL must be numbers, e.g. 5.7".into());
    }
    let (row, col): (u16, u16) = (r.parse().unwrap_or(0), c.parse().unwrap_or(0));
    if !(1..=17).contains(&row) {
        return Err(format!("row {row} is not 1-17"));
    }
    let n = u16::from(ROW_LEN[usize::from(row) - 1]);
    if !(1..=n).contains(&col) {
        return Err(format!("row {row} has columns 1-{n}, not {col}"));
    }
    Cell::at(row as u8, col as u8).ok_or_else(|| "no such hole".into())
}

impl MoveInput {
    /// Parses a move text (surrounding blanks ignored).
    pub fn parse(text: &str) -> Result<MoveInput, MoveTextError> {
        let t = text.trim();
        if t.is_empty() {
            return Err(MoveTextError::Empty);
        }
        if t == "pass" {
            return Ok(MoveInput::Pass);
        }
        let parts: Vec<&str> = t.split('-').collect();
        if parts.len() > 121 {
            return Err(MoveTextError::TooLong { found: parts.len() });
        }
        let mut out = Vec::with_capacity(parts.len());
        for (i, p) in parts.iter().enumerate() {
            out.push(parse_cell(p).map_err(|why| MoveTextError::Cell {
                index: i + 1,
                text: (*p).into(),
                why,
            })?);
        }
        if out.len() < 2 {
            return Err(MoveTextError::OneCell { text: t.into() });
        }
        Ok(MoveInput::Cells(out))
    }
}

impl fmt::Display for MoveInput {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveInput::Pass => f.write_str("pass"),
            MoveInput::Cells(c) => {
                let s: Vec<String> = c.iter().map(Cell::to_string).collect();
                f.write_str(&s.join("-"))
            }
        }
    }
}

/// A well-formed move that is not legal here, and why.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum IllegalMove {
    /// The start hole holds no piece of the side to move.
    #[error("{cell} holds no piece of {seat}, who is to move")]
    NotOwnPiece {
        /// The start hole.
        cell: Cell,
        /// The side to move.
        seat: Seat,
    },
    /// A hop of a written chain is not a jump over one adjacent piece into an
    /// empty, open hole.
    #[error("hop {index} {from}-{to}: {why}")]
    BadHop {
        /// 1-based hop number.
        index: usize,
        /// Where the hop starts.
        from: Cell,
        /// Where it lands.
        to: Cell,
        /// What is wrong.
        why: &'static str,
    },
    /// The start and end are not a legal step or chain.
    #[error("{from}-{to}: {why}")]
    NoSuchMove {
        /// Start.
        from: Cell,
        /// End.
        to: Cell,
        /// Why.
        why: &'static str,
    },
    /// Nobody is in play.
    #[error("no seat is in play")]
    NoneInPlay,
}

/// A move text that cannot be played here.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseMoveError {
    /// It does not parse.
    #[error(transparent)]
    Text(#[from] MoveTextError),
    /// It is not legal.
    #[error(transparent)]
    Illegal(#[from] IllegalMove),
}

impl Position {
    /// Reads a move for the side to move: `pass`, `start-end`, or a full
    /// chain whose every hop is checked (T4, T5, T7).
    pub fn parse_move(&self, text: &str) -> Result<Move, ParseMoveError> {
        let input = MoveInput::parse(text)?;
        Ok(self.check_input(&input)?)
    }

    /// Checks a parsed move against this position.
    pub fn check_input(&self, input: &MoveInput) -> Result<Move, IllegalMove> {
        if self.in_play == 0 {
            return Err(IllegalMove::NoneInPlay);
        }
        let path = match input {
            MoveInput::Pass => return Ok(Move::Pass),
            MoveInput::Cells(c) => c,
        };
        let (from, to) = (path[0], path[path.len() - 1]);
        let seat = self.turn;
        if self.pieces(seat) & from.bit() == 0 {
            return Err(IllegalMove::NotOwnPiece { cell: from, seat });
        }
        if path.len() > 2 {
            self.check_chain(path)?;
        }
        let m = Move::Go { from, to };
        if self.is_legal(m) {
            return Ok(m);
        }
        let why = if from == to {
            "a move may not end where it started (T4)"
        } else if self.occupied() & to.bit() != 0 {
            "the end hole is occupied"
        } else if seat.allowed() & to.bit() == 0 {
            "the end hole is in a camp closed to this player (T5)"
        } else if self.is_repetition(from, to) {
            "T7: three repetitions are used up; this piece may not return to the hole it left last move"
        } else {
            "no step or jump chain leads there (T4, T5)"
        };
        Err(IllegalMove::NoSuchMove { from, to, why })
    }

    /// Checks every hop of a written chain (T4, T5): over exactly one
    /// adjacent piece in a straight line, into an empty open hole, never a
    /// hole visited before.
    fn check_chain(&self, path: &[Cell]) -> Result<(), IllegalMove> {
        let from = path[0];
        let allowed = self.turn.allowed();
        let occ = self.occupied() & !from.bit();
        let mut visited = from.bit();
        for (i, w) in path.windows(2).enumerate() {
            let (a, b) = (w[0], w[1]);
            let bad = |why| IllegalMove::BadHop {
                index: i + 1,
                from: a,
                to: b,
                why,
            };
            let dir = (0..6).find(|&d| a.beyond(d) == Some(b));
            let Some(d) = dir else {
                return Err(bad(
                    "not a jump: the holes must be two apart in a straight line",
                ));
            };
            let over = a.neighbour(d).ok_or_else(|| bad("not a jump"))?;
            if occ & over.bit() == 0 {
                return Err(bad("no piece to jump over"));
            }
            if allowed & over.bit() == 0 {
                return Err(bad("it passes over a closed camp (T5)"));
            }
            if visited & b.bit() != 0 {
                return Err(bad("it visits a hole a second time (T4)"));
            }
            if occ & b.bit() != 0 {
                return Err(bad("the landing hole is occupied"));
            }
            if allowed & b.bit() == 0 {
                return Err(bad("it lands in a closed camp (T5)"));
            }
            visited |= b.bit();
        }
        Ok(())
    }

    /// The move texts of every legal move (T13), each (start, end) pair once
    /// with one shortest path, `pass` last.
    pub fn legal_move_texts(&self) -> Vec<String> {
        self.legal_moves()
            .into_iter()
            .map(|m| self.move_text(m))
            .collect()
    }
}

/// All holes of a set written as `ROW.COL`, for messages and tests.
pub fn cell_list(bits: crate::geometry::Bits) -> String {
    cells(bits)
        .map(|c| c.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}
