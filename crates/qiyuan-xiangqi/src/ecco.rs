//! ECCO opening classification (中国象棋开局编号, A00-E99): the code and the
//! Chinese name players use for the opening of a game.
//!
//! The classification is data (`ecco.tsv`, one definition a line; its header
//! says the format). A game from the standard start gets the code of the
//! longest definition it matches; the empty definition of A00 makes every game
//! with a move at least A00. As ECCO does, a game whose first move starts on
//! red's left half (files 6-9) is mirrored first, so 炮八平五 and 炮二平五 are
//! the same opening.
//!
//! Two kinds of definition: `pos` ones are order-independent (the position
//! reached after so many plies, so a transposition gets the same code), `seq`
//! ones are move sequences with `*` for any ply and `X|Y` for either.
//! Pure: no I/O; the table is parsed once.

use std::sync::OnceLock;

use crate::notation::{parse_wxf, to_wxf};
use crate::types::{Move, Square};
use crate::{Position, Variant};

/// The definitions, as data.
const DATA: &str = include_str!("ecco.tsv");

/// An ECCO code with its names.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// `A00` … `E48`.
    pub code: &'static str,
    /// The Chinese name, the variation after `——` where ECCO names one.
    pub name_zh: &'static str,
    /// Our own short English name.
    pub name_en: &'static str,
}

/// One ply of a `seq` definition.
#[derive(Debug)]
enum Ply {
    Any,
    OneOf(Vec<&'static str>),
}

#[derive(Debug)]
enum Kind {
    /// The position's hash after `len` plies.
    Pos(u64),
    Seq(Vec<Ply>),
}

#[derive(Debug)]
struct Def {
    opening: usize,
    len: usize,
    /// Plies that name a move (the tie-break: more named is more specific).
    named: usize,
    kind: Kind,
}

struct Table {
    openings: Vec<Opening>,
    defs: Vec<Def>,
    max_len: usize,
}

/// A line of the data that is not a definition we can use (a test fails on any).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DataError {
    /// 1-based line in `ecco.tsv`.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

fn parse_table() -> (Table, Vec<DataError>) {
    let mut openings: Vec<Opening> = Vec::new();
    let mut defs = Vec::new();
    let mut errors = Vec::new();
    for (i, line) in DATA.lines().enumerate() {
        let line_no = i + 1;
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let cols: Vec<&'static str> = line.split('\t').collect();
        let err = |message: String| DataError {
            line: line_no,
            message,
        };
        if cols.len() != 3 && cols.len() != 5 {
            errors.push(err(format!("{} columns, expected 3 or 5", cols.len())));
            continue;
        }
        let code = cols[0];
        let opening = match openings.iter().position(|o| o.code == code) {
            Some(k) => k,
            None => {
                if cols.len() != 5 || cols[3].is_empty() || cols[4].is_empty() {
                    errors.push(err(format!("the first line of {code} needs both names")));
                    continue;
                }
                openings.push(Opening {
                    code,
                    name_zh: cols[3],
                    name_en: cols[4],
                });
                openings.len() - 1
            }
        };
        let tokens: Vec<&'static str> = cols[2].split_whitespace().collect();
        let def = match cols[1] {
            "pos" => {
                let mut pos = Position::startpos();
                let mut ok = true;
                for t in &tokens {
                    match parse_wxf(&pos, t) {
                        Ok(m) => {
                            pos.make_move(m);
                        }
                        Err(e) => {
                            errors.push(err(format!("{code}: {e}")));
                            ok = false;
                            break;
                        }
                    }
                }
                if !ok {
                    continue;
                }
                Def {
                    opening,
                    len: tokens.len(),
                    named: tokens.len(),
                    kind: Kind::Pos(pos.hash()),
                }
            }
            "seq" => {
                let plies: Vec<Ply> = tokens
                    .iter()
                    .map(|t| {
                        if *t == "*" {
                            Ply::Any
                        } else {
                            Ply::OneOf(t.split('|').collect())
                        }
                    })
                    .collect();
                Def {
                    opening,
                    len: plies.len(),
                    named: plies.iter().filter(|p| matches!(p, Ply::OneOf(_))).count(),
                    kind: Kind::Seq(plies),
                }
            }
            other => {
                errors.push(err(format!("kind '{other}', expected pos or seq")));
                continue;
            }
        };
        defs.push(def);
    }
    let max_len = defs.iter().map(|d| d.len).max().unwrap_or(0);
    (
        Table {
            openings,
            defs,
            max_len,
        },
        errors,
    )
}

fn table() -> &'static Table {
    static TABLE: OnceLock<Table> = OnceLock::new();
    TABLE.get_or_init(|| parse_table().0)
}

/// Every code in the data, in its order.
pub fn openings() -> &'static [Opening] {
    &table().openings
}

/// The data's lines that could not be read (empty when the data is sound).
pub fn data_errors() -> Vec<DataError> {
    parse_table().1
}

/// The ECCO opening of a game from `start` with `moves`: `None` unless the game
/// is standard Xiangqi from the standard start with at least one move.
pub fn classify(start: &Position, moves: &[Move]) -> Option<Opening> {
    if moves.is_empty() || start.variant() != Variant::Xiangqi {
        return None;
    }
    let standard = Position::startpos();
    if start.hash() != standard.hash() || start.board_fen() != standard.board_fen() {
        return None;
    }
    let t = table();
    // ECCO mirrors a game whose first move leaves from red's files 6-9 (board
    // files a-d), so each opening is listed once.
    let mirror = moves[0].from().file() < 4;
    let flip = |s: Square| Square::new(8 - s.file(), s.rank()).unwrap_or(s);
    let mut pos = standard;
    let mut hashes = Vec::with_capacity(t.max_len);
    let mut wxf = Vec::with_capacity(t.max_len);
    for &m in moves.iter().take(t.max_len) {
        let m = if mirror {
            Move::new(flip(m.from()), flip(m.to()))
        } else {
            m
        };
        if m.is_pass() || !pos.legal_moves().contains(&m) {
            break;
        }
        wxf.push(to_wxf(&pos, m));
        pos.make_move(m);
        hashes.push(pos.hash());
    }
    let plies = hashes.len();
    let mut best: Option<&Def> = None;
    for d in &t.defs {
        if d.len > plies {
            continue;
        }
        let hit = match &d.kind {
            Kind::Pos(h) => d.len == 0 || hashes[d.len - 1] == *h,
            Kind::Seq(ps) => ps.iter().zip(&wxf).all(|(p, w)| match p {
                Ply::Any => true,
                Ply::OneOf(alts) => alts.iter().any(|a| a == w),
            }),
        };
        if hit && best.is_none_or(|b| (d.len, d.named) > (b.len, b.named)) {
            best = Some(d);
        }
    }
    best.map(|d| t.openings[d.opening])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::START_FEN;

    /// Plays WXF moves from the start (as written, no mirroring).
    fn game(text: &str) -> Vec<Move> {
        let mut pos = Position::startpos();
        text.split_whitespace()
            .map(|t| {
                let m = parse_wxf(&pos, t).unwrap_or_else(|e| panic!("{t}: {e}"));
                pos.make_move(m);
                m
            })
            .collect()
    }

    fn code(text: &str) -> &'static str {
        classify(&Position::startpos(), &game(text))
            .map(|o| o.code)
            .unwrap_or("none")
    }

    #[test]
    fn the_data_is_sound_and_every_named_ply_is_printed_as_written() {
        assert_eq!(data_errors(), vec![]);
        // Each definition can be played: a search fills its `*` plies with some
        // legal move, and every named ply must be how our printer writes that
        // move (the seq matcher compares printed moves).
        for (i, line) in DATA.lines().enumerate() {
            if line.trim().is_empty() || line.starts_with('#') {
                continue;
            }
            let cols: Vec<&str> = line.split('\t').collect();
            let tokens: Vec<&str> = cols[2].split_whitespace().collect();
            assert!(
                realize(&mut Position::startpos(), &tokens),
                "line {}: {} cannot be played",
                i + 1,
                cols[2]
            );
        }
        assert!(openings().len() >= 250, "{} codes", openings().len());
        let mut codes: Vec<&str> = openings().iter().map(|o| o.code).collect();
        codes.sort_unstable();
        codes.dedup();
        assert_eq!(codes.len(), openings().len());
        for family in [
            "A00", "A10", "A40", "A50", "A60", "B00", "C00", "D00", "D50", "E00",
        ] {
            assert!(codes.contains(&family), "{family}");
        }
    }

    fn realize(pos: &mut Position, tokens: &[&str]) -> bool {
        let Some((first, rest)) = tokens.split_first() else {
            return true;
        };
        for m in pos.legal_moves() {
            let w = to_wxf(pos, m);
            if *first != "*" && !first.split('|').any(|a| a == w) {
                continue;
            }
            let undo = pos.make_move(m);
            let ok = realize(pos, rest);
            pos.unmake_move(m, undo);
            if ok {
                return true;
            }
        }
        false
    }

    #[test]
    fn family_a_codes() {
        assert_eq!(code("E3+5"), "A10");
        assert_eq!(code("E7+5"), "A10"); // mirrored
        assert_eq!(code("E3+5 C8.5"), "A27");
        assert_eq!(code("E3+5 C8.5 H2+3 H8+7 H8+7"), "A28");
        assert_eq!(code("E3+5 C8.4 H2+3 H8+7 R1.2 P7+1 C2.1"), "A33");
        assert_eq!(code("H2+3 P7+1 C8.5"), "A44");
        assert_eq!(code("H8+7 P3+1 C2.5"), "A44"); // mirrored
        assert_eq!(code("C2.4 H8+7"), "A51");
        assert_eq!(code("C2.6 C8.5 H2+3 R9+1 R1.2 H8+7"), "A65");
        assert_eq!(code("P1+1"), "A08");
        assert_eq!(code("A4+5"), "A01");
    }

    #[test]
    fn family_b_codes() {
        assert_eq!(code("C2.5 P3+1"), "B00");
        assert_eq!(code("C2.5 H2+3 H2+3 P7+1 R1.2 A4+5"), "B02");
        assert_eq!(code("C2.5 H8+7 H2+3 C8.9"), "B20");
        assert_eq!(code("C2.5 H8+7 H2+3 C8.9 R1+1"), "B22");
        assert_eq!(code("C2.5 H2+3 P7+1 C8.6 H8+7"), "B32");
        assert_eq!(code("C2.5 H2+3 H2+3 C8.6 R1.2 H8+7 R2+6"), "B33");
        assert_eq!(code("C2.5 H2+3 H2+3 C8.6 R1.2 H8+7 C8.7 R9+1"), "B52");
    }

    #[test]
    fn family_c_codes() {
        assert_eq!(code("C2.5 H8+7 H2+3 H2+3"), "C00");
        assert_eq!(code("C2.5 H8+7 H2+3 R9.8 R1.2 H2+3 R2+4"), "C15");
        // The main line of 中炮过河车互进七兵对屏风马平炮兑车.
        let c45 = "C2.5 H8+7 H2+3 R9.8 R1.2 P7+1 R2+6 H2+3 P7+1 C8.9 R2.3 C9-1 H8+7 A4+5 C8.9";
        assert_eq!(code(c45), "C45");
        assert_eq!(code(&format!("{c45} R1.2")), "C46");
        assert_eq!(
            code("C2.5 H8+7 H2+3 R9.8 R1.2 P7+1 R2+6 H2+3 H8+7 P3+1"),
            "C20"
        );
        assert_eq!(
            code("C2.5 H8+7 H2+3 R9.8 R1.2 P7+1 H8+9 H2+3 C8.7 C2+2"),
            "C67"
        );
        assert_eq!(
            code("C2.5 H8+7 H2+3 R9.8 R1.2 H2+3 P3+1 P3+1 C8+4 P1+1 H8+9"),
            "C96"
        );
    }

    #[test]
    fn family_d_codes() {
        assert_eq!(code("C2.5 C8.5"), "D00");
        assert_eq!(code("C2.5 C8.5 H2+3 H8+7 R1.2 R9+1 R2+6"), "D24");
        assert_eq!(code("C2.5 C8.5 H2+3 H8+7 R1.2 R9.8"), "D13");
        assert_eq!(code("C2.5 C2.5"), "D50");
        assert_eq!(code("C2.5 H8+7 H2+3 R9.8 R1.2 C8+4 P3+1 C2.5 H8+9"), "D34");
    }

    #[test]
    fn family_e_codes() {
        assert_eq!(code("P3+1"), "E00");
        assert_eq!(code("P7+1"), "E00"); // mirrored
        assert_eq!(code("P3+1 C8.7 C8.5 E7+5 H8+7 R1+1"), "E23");
        assert_eq!(code("P3+1 P3+1 H2+3 H2+3 C2.1"), "E45");
        assert_eq!(code("P3+1 H2+3 H2+3 P3+1 C2.1"), "E45");
        assert_eq!(code("P7+1 C2.3 C2.5"), "E13"); // mirrored 仙人指路转左中炮
    }

    #[test]
    fn a_transposition_gets_the_same_code() {
        let main = "C2.5 H8+7 H2+3 R9.8 R1.2 P7+1 R2+6 H2+3 P7+1";
        let other = "C2.5 H8+7 H2+3 H2+3 P7+1 P7+1 R1.2 R9.8 R2+6";
        assert_eq!(code(main), "C30");
        assert_eq!(code(other), "C30");
        // 炮八平五 mirrors 炮二平五: the same code.
        assert_eq!(code("C8.5 H2+3 H8+7 R1.2 R9.8 P3+1 R8+6 H8+7 P3+1"), "C30");
    }

    #[test]
    fn a_game_that_leaves_every_definition_gets_the_general_code() {
        // 1. 炮二平五 马8进7 2. 马二进三 卒9进1: no line of the screen horses
        // or the others follows, so the family's general code.
        assert_eq!(code("C2.5 H8+7 H2+3 P9+1"), "B05");
        assert_eq!(code("C2.5 K5+1"), "B00");
        assert_eq!(code("K5+1"), "A00");
        assert_eq!(code("R1+1 R9+1 R1.2"), "A00");
    }

    #[test]
    fn no_code_without_moves_or_from_another_start() {
        assert_eq!(classify(&Position::startpos(), &[]), None);
        let other = Position::from_fen("4k4/9/9/9/9/9/9/9/4A4/4K4 w - - 0 1").expect("fen");
        assert_eq!(classify(&other, &[]), None);
        let m = other.legal_moves()[0];
        assert_eq!(classify(&other, &[m]), None);
        let jifen = Position::from_fen_variant(START_FEN, Variant::JifenSimple, None).expect("fen");
        let m = game("C2.5")[0];
        assert_eq!(classify(&jifen, &[m]), None);
    }
}
