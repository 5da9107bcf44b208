//! The position format: reading and writing positions as text.
//!
//!
//! Space-separated fields; a *public* position has the first ten, the
//! server's *full* position adds an eleventh. Trailing public fields may be
//! left out when typing a position by hand (defaults in brackets).
//!
//! 1. board: rows from the top (row 4) to row 1, separated by `/`, files a to h
//!    within a row; Xiangqi letters `K A B R N C P` (red upper case, black lower
//!    case; `E`/`H` are read as `B`/`N`), `?` a face-down piece, a digit a run of
//!    empty squares.
//! 2. seat to move, `0` or `1` [`0`].
//! 3. colour of seat 0, `r` or `b`, `-` before the first flip (B2)
//!    [`r` if any piece is face up or captured, else `-`].
//! 4. plies played (flips, moves, captures of both players) [`0`].
//! 5. plies since the last capture or flip (icga's 180-ply rule) [`0`].
//! 6. captured (removed) pieces as letters, `-` for none; `*` (input only)
//!    for every piece not on the board, when none is face down [none when the face-up
//!    and face-down pieces make 32; everything not on the board when nothing is
//!    face down].
//! 7. the first enemy piece each seat captured (B16): two characters, seat 0
//!    then seat 1, a letter or `-` [`--`].
//! 8. the last move if it was a move or capture (`a1a2`), `-` after a flip or a
//!    lost turn (B7 needs it) [`-`].
//! 9. each seat's running chase (B7), `-` or `PT:n` (the chasing piece on `P`
//!    has made `n` consecutive chase steps on the piece on `T`), seat 0 then
//!    seat 1 joined by `,` [`-,-`].
//! 10. timeout marks of seat 0 and seat 1 (B12), e.g. `0,1` [`0,0`].
//! 11. (full position only) the identities of the face-down pieces, as letters
//!     in the order their `?` appear in field 1.
//!
//! Which pieces can still be face down is public (all 32 minus those face up
//! minus those captured), so a public position carries everything a player or
//! the AI may know; only field 11 is secret.

use std::fmt::Write as _;

use super::{CHASE_LIMIT, Cell, Chase, Position};
use crate::types::{Colour, Move, Piece, Preset, Square, full_set};

/// A position that could not be read, naming the field and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FenError {
    /// A field is malformed.
    #[error("position field {field} ({name}): {why}")]
    Field {
        /// 1-based field number.
        field: usize,
        /// The field's name.
        name: &'static str,
        /// What is wrong.
        why: String,
    },
    /// The fields are well-formed but do not fit together.
    #[error("inconsistent position: {0}")]
    Inconsistent(String),
}

const FIELD_NAMES: [&str; 11] = [
    "board",
    "seat to move",
    "colour of seat 0",
    "plies",
    "quiet plies",
    "captured",
    "first captures",
    "last move",
    "chases",
    "timeout marks",
    "face-down identities",
];

fn field_err(field: usize, why: impl Into<String>) -> FenError {
    FenError::Field {
        field,
        name: FIELD_NAMES[field - 1],
        why: why.into(),
    }
}

impl Position {
    /// The public position text (ten fields, `?` for face-down pieces). It is
    /// built from public information only, whatever this position knows.
    pub fn public_fen(&self) -> String {
        let mut s = String::new();
        for row in (0..4u8).rev() {
            let mut empty = 0;
            for file in 0..8u8 {
                let ch = match self.cells[Square::new(file, row).index()] {
                    Cell::Empty => {
                        empty += 1;
                        continue;
                    }
                    Cell::Up(p) => p.letter(),
                    Cell::Down(_) => '?',
                };
                if empty > 0 {
                    let _ = write!(s, "{empty}");
                    empty = 0;
                }
                s.push(ch);
            }
            if empty > 0 {
                let _ = write!(s, "{empty}");
            }
            if row > 0 {
                s.push('/');
            }
        }
        let colours = self.seat0.map_or('-', Colour::letter);
        let _ = write!(s, " {} {colours} {} {} ", self.turn, self.ply, self.quiet);
        let mut any = false;
        for (i, &n) in self.captured.iter().enumerate() {
            for _ in 0..n {
                s.push(Piece::from_index(i).letter());
                any = true;
            }
        }
        if !any {
            s.push('-');
        }
        s.push(' ');
        for f in self.first_capture {
            s.push(f.map_or('-', Piece::letter));
        }
        match self.last_step {
            Some((a, b)) => {
                let _ = write!(s, " {a}{b} ");
            }
            None => s.push_str(" - "),
        }
        for (seat, c) in self.chase.iter().enumerate() {
            if seat == 1 {
                s.push(',');
            }
            match c {
                Some(c) => {
                    let _ = write!(s, "{}{}:{}", c.piece, c.target, c.steps);
                }
                None => s.push('-'),
            }
        }
        let _ = write!(s, " {},{}", self.marks[0], self.marks[1]);
        s
    }

    /// The position text: the full (eleven-field) form when the face-down
    /// identities are known, else the public form.
    pub fn fen(&self) -> String {
        let mut s = self.public_fen();
        if self.is_full() && self.cells.iter().any(|c| matches!(c, Cell::Down(_))) {
            s.push(' ');
            for row in (0..4u8).rev() {
                for file in 0..8u8 {
                    if let Cell::Down(Some(p)) = self.cells[Square::new(file, row).index()] {
                        s.push(p.letter());
                    }
                }
            }
        }
        s
    }

    /// Reads a position (public or full) under `preset`; see the module docs.
    pub fn from_fen(preset: Preset, text: &str) -> Result<Position, FenError> {
        let fields: Vec<&str> = text.split_whitespace().collect();
        if fields.is_empty() {
            return Err(field_err(1, "the position is empty"));
        }
        if fields.len() > 11 {
            return Err(FenError::Inconsistent(format!(
                "{} fields; a position has at most 11",
                fields.len()
            )));
        }
        let mut cells = [Cell::Empty; 32];
        let rows: Vec<&str> = fields[0].split('/').collect();
        if rows.len() != 4 {
            return Err(field_err(
                1,
                format!("{} rows; the board has 4 (row 4 first)", rows.len()),
            ));
        }
        let mut downs = 0usize;
        let mut up_count = [0u8; 14];
        for (i, row_text) in rows.iter().enumerate() {
            let row = 3 - i as u8;
            let mut file = 0u8;
            for ch in row_text.chars() {
                if file >= 8 {
                    return Err(field_err(
                        1,
                        format!("row {} has more than 8 squares", row + 1),
                    ));
                }
                if let Some(d) = ch.to_digit(10) {
                    if d == 0 || file as u32 + d > 8 {
                        return Err(field_err(
                            1,
                            format!("'{ch}' in row {} does not fit the 8 files", row + 1),
                        ));
                    }
                    file += d as u8;
                    continue;
                }
                let sq = Square::new(file, row);
                cells[sq.index()] = if ch == '?' {
                    downs += 1;
                    Cell::Down(None)
                } else {
                    let p = Piece::from_letter(ch).ok_or_else(|| {
                        field_err(1, format!("'{ch}' on {sq} is not a piece letter or '?'"))
                    })?;
                    up_count[p.index()] += 1;
                    Cell::Up(p)
                };
                file += 1;
            }
            if file != 8 {
                return Err(field_err(
                    1,
                    format!("row {} has {file} squares, not 8", row + 1),
                ));
            }
        }
        let full = full_set();
        for (i, &n) in up_count.iter().enumerate() {
            if n > full[i] {
                let p = Piece::from_index(i);
                return Err(field_err(
                    1,
                    format!("{n} face-up '{p}' but a colour has only {}", full[i]),
                ));
            }
        }
        let get = |i: usize| fields.get(i - 1).copied();

        let turn = match get(2) {
            None | Some("0") => 0,
            Some("1") => 1,
            Some(t) => return Err(field_err(2, format!("'{t}' is not 0 or 1"))),
        };
        let ups: usize = up_count.iter().map(|&n| n as usize).sum();
        let everything_else = || {
            let mut c = [0u8; 14];
            for i in 0..14 {
                c[i] = full[i].saturating_sub(up_count[i]);
            }
            c
        };
        let captured = match get(6) {
            Some("-") => [0; 14],
            Some("*") => everything_else(),
            Some(t) => {
                let mut c = [0u8; 14];
                for ch in t.chars() {
                    let p = Piece::from_letter(ch)
                        .ok_or_else(|| field_err(6, format!("'{ch}' is not a piece letter")))?;
                    c[p.index()] += 1;
                }
                c
            }
            None if ups + downs == 32 => [0; 14],
            None if downs == 0 => everything_else(),
            None => {
                return Err(field_err(
                    6,
                    format!(
                        "missing: with {downs} face-down and {ups} face-up pieces, \
                         say which pieces were captured"
                    ),
                ));
            }
        };
        for i in 0..14 {
            if up_count[i] + captured[i] > full[i] {
                let p = Piece::from_index(i);
                return Err(field_err(
                    6,
                    format!(
                        "'{p}' is {} times face up and {} times captured; there are only {}",
                        up_count[i], captured[i], full[i]
                    ),
                ));
            }
        }
        let pool_size: usize = (0..14)
            .map(|i| (full[i] - up_count[i] - captured[i]) as usize)
            .sum();
        if pool_size != downs {
            return Err(FenError::Inconsistent(format!(
                "{downs} face-down pieces, but the 32 pieces minus those face up and \
                 captured leave {pool_size}"
            )));
        }
        let anything_known = ups > 0 || captured.iter().any(|&n| n > 0);
        let seat0 = match get(3) {
            Some("r") => Some(Colour::Red),
            Some("b") => Some(Colour::Black),
            Some("-") if anything_known => {
                return Err(field_err(
                    3,
                    "'-' (undecided) but pieces are already face up or captured",
                ));
            }
            Some("-") => None,
            None if anything_known => Some(Colour::Red),
            None => None,
            Some(t) => return Err(field_err(3, format!("'{t}' is not r, b or -"))),
        };
        let number = |i: usize| -> Result<u32, FenError> {
            match get(i) {
                None => Ok(0),
                Some(t) => t
                    .parse::<u32>()
                    .ok()
                    .filter(|&n| n <= 100_000)
                    .ok_or_else(|| field_err(i, format!("'{t}' is not a count"))),
            }
        };
        let ply = number(4)?;
        let quiet = number(5)?;
        if quiet > ply {
            return Err(FenError::Inconsistent(format!(
                "{quiet} quiet plies but only {ply} plies played"
            )));
        }
        let mut first_capture = [None; 2];
        if let Some(t) = get(7) {
            let chars: Vec<char> = t.chars().collect();
            if chars.len() != 2 {
                return Err(field_err(
                    7,
                    format!("'{t}' is not two characters like -k or --"),
                ));
            }
            for (seat, &ch) in chars.iter().enumerate() {
                if ch != '-' {
                    let p = Piece::from_letter(ch).ok_or_else(|| {
                        field_err(7, format!("'{ch}' is not a piece letter or -"))
                    })?;
                    first_capture[seat] = Some(p);
                }
            }
        }
        let last_step = match get(8) {
            None | Some("-") => None,
            Some(t) => match Move::parse(t) {
                Ok(Move::Step { from, to }) => Some((from, to)),
                _ => return Err(field_err(8, format!("'{t}' is not a move like a1a2 or -"))),
            },
        };
        let mut chase = [None; 2];
        if let Some(t) = get(9) {
            let parts: Vec<&str> = t.split(',').collect();
            if parts.len() != 2 {
                return Err(field_err(
                    9,
                    format!("'{t}' is not two entries joined by ','"),
                ));
            }
            for (seat, part) in parts.iter().enumerate() {
                if *part == "-" {
                    continue;
                }
                let parsed = part.split_once(':').and_then(|(sq, n)| {
                    let m = Move::parse(sq).ok()?;
                    let steps = n
                        .parse::<u8>()
                        .ok()
                        .filter(|s| (1..=CHASE_LIMIT).contains(s))?;
                    match m {
                        Move::Step { from, to } => Some(Chase {
                            piece: from,
                            target: to,
                            steps,
                        }),
                        Move::Flip(_) => None,
                    }
                });
                chase[seat] = Some(parsed.ok_or_else(|| {
                    field_err(
                        9,
                        format!(
                            "'{part}' is not - or like c2c3:4 (two squares, 1-{CHASE_LIMIT} steps)"
                        ),
                    )
                })?);
            }
        }
        let mut marks = [0u8; 2];
        if let Some(t) = get(10) {
            let parts: Vec<&str> = t.split(',').collect();
            let ok = parts.len() == 2
                && parts
                    .iter()
                    .enumerate()
                    .all(|(i, p)| match p.parse::<u8>() {
                        Ok(n) if n <= 3 => {
                            marks[i] = n;
                            true
                        }
                        _ => false,
                    });
            if !ok {
                return Err(field_err(
                    10,
                    format!("'{t}' is not two marks 0-3 like 0,1"),
                ));
            }
        }
        if let Some(t) = get(11) {
            let mut ids = Vec::with_capacity(downs);
            for ch in t.chars() {
                ids.push(
                    Piece::from_letter(ch)
                        .ok_or_else(|| field_err(11, format!("'{ch}' is not a piece letter")))?,
                );
            }
            if ids.len() != downs {
                return Err(field_err(
                    11,
                    format!("{} identities for {downs} face-down pieces", ids.len()),
                ));
            }
            let mut count = [0u8; 14];
            for p in &ids {
                count[p.index()] += 1;
            }
            for i in 0..14 {
                if count[i] != full[i] - up_count[i] - captured[i] {
                    return Err(field_err(
                        11,
                        format!(
                            "{} face-down '{}', but {} are neither face up nor captured",
                            count[i],
                            Piece::from_index(i),
                            full[i] - up_count[i] - captured[i]
                        ),
                    ));
                }
            }
            let mut it = ids.into_iter();
            for row in (0..4u8).rev() {
                for file in 0..8u8 {
                    let c = &mut cells[Square::new(file, row).index()];
                    if *c == Cell::Down(None) {
                        *c = Cell::Down(it.next());
                    }
                }
            }
        }
        Ok(Position {
            preset,
            cells,
            turn,
            seat0,
            ply,
            quiet,
            captured,
            first_capture,
            last_step,
            chase,
            marks,
        })
    }
}
