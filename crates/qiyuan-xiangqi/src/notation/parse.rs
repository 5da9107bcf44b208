//! Parsing WXF and Chinese notation (see the parent module for the forms
//! accepted) into the legal move it names.

use super::{CN_NUMERALS, Dir, FW_DIGITS, NotationError, file_of_number, motion, on_file};
use crate::position::Position;
use crate::types::{Class, Move, PieceKind, Square};

/// Which of several same pieces on a file a designator names.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
enum Designator {
    /// WXF `+`: the front one of two or three, the second of four or five.
    Plus,
    /// WXF `-`: the rear one of two or three, the second last of four or five.
    Minus,
    /// WXF `++`: the foremost.
    PlusPlus,
    /// WXF `--`: the rearmost.
    MinusMinus,
    /// WXF file number repeated (`33.4`) or given where the file holds an odd
    /// number of pawns (`P3.4`): the middle one.
    WxfMiddle,
    /// 前: the front one.
    Front,
    /// 后: the rear one.
    Rear,
    /// 中: the middle one of three (or five).
    Middle,
    /// 一..五: the n-th from the front (1-based).
    Nth(u8),
}

impl Designator {
    /// The index (0 = front) this designator names among `count` pieces.
    fn index(self, count: usize) -> Option<usize> {
        if count < 2 {
            return None;
        }
        Some(match self {
            Designator::Plus if count >= 4 => 1,
            Designator::Plus | Designator::PlusPlus | Designator::Front => 0,
            Designator::Minus if count >= 4 => count - 2,
            Designator::Minus | Designator::MinusMinus | Designator::Rear => count - 1,
            Designator::WxfMiddle | Designator::Middle => {
                if count % 2 == 1 {
                    count / 2
                } else {
                    return None;
                }
            }
            Designator::Nth(n) => {
                let i = (n as usize).checked_sub(1)?;
                if i < count {
                    i
                } else {
                    return None;
                }
            }
        })
    }

    fn describe(self) -> String {
        match self {
            Designator::Plus => "'+'".into(),
            Designator::Minus => "'-'".into(),
            Designator::PlusPlus => "'++'".into(),
            Designator::MinusMinus => "'--'".into(),
            Designator::WxfMiddle | Designator::Middle => "the middle one".into(),
            Designator::Front => "前".into(),
            Designator::Rear => "后".into(),
            Designator::Nth(n) => format!("number {n} from the front"),
        }
    }
}

/// A parsed move description, before it is matched against the position.
#[derive(Debug)]
struct Spec {
    kind: PieceKind,
    /// File number (mover's numbering) the piece stands on.
    file: Option<u8>,
    designator: Option<Designator>,
    dir: Dir,
    arg: u8,
    class: Option<Class>,
    /// 0-based character columns (in the original text) for error messages.
    col_piece: usize,
    col_file: usize,
    col_dir: usize,
    col_arg: usize,
}

struct Ctx<'a> {
    notation: &'static str,
    text: &'a str,
}

impl Ctx<'_> {
    fn syntax(&self, column: usize, message: impl Into<String>) -> NotationError {
        NotationError::Syntax {
            notation: self.notation,
            text: self.text.to_string(),
            column: column + 1,
            message: message.into(),
        }
    }
    fn no_such(&self, column: usize, message: impl Into<String>) -> NotationError {
        NotationError::NoSuchMove {
            notation: self.notation,
            text: self.text.to_string(),
            column: column + 1,
            message: message.into(),
        }
    }
    fn ambiguous(&self, column: usize, message: impl Into<String>) -> NotationError {
        NotationError::Ambiguous {
            notation: self.notation,
            text: self.text.to_string(),
            column: column + 1,
            message: message.into(),
        }
    }
}

/// Finds the one move among `legal` that `spec` describes.
fn resolve(pos: &Position, legal: &[Move], spec: &Spec, ctx: &Ctx) -> Result<Move, NotationError> {
    let color = pos.side_to_move();
    let name = spec.kind.english();
    let side = color.english();
    // The pieces the text can mean.
    let mut from: Vec<Square> = Vec::new();
    match spec.file {
        Some(number) => {
            let file = file_of_number(color, number);
            let same = on_file(pos, color, spec.kind, file);
            if same.is_empty() {
                return Err(ctx.no_such(
                    spec.col_file,
                    format!("{side} has no {name} on file {number}"),
                ));
            }
            match spec.designator {
                Some(d) => match d.index(same.len()) {
                    Some(i) => from.push(same[i]),
                    None => {
                        return Err(ctx.no_such(
                            spec.col_piece.min(spec.col_file),
                            format!(
                                "{} names none of the {} {side} {name}(s) on file {number}",
                                d.describe(),
                                same.len()
                            ),
                        ));
                    }
                },
                None => from.extend(same),
            }
        }
        None => {
            let d = spec.designator.unwrap_or(Designator::Front);
            let mut doubled = 0;
            for file in 0..9 {
                let same = on_file(pos, color, spec.kind, file);
                if same.len() >= 2 {
                    doubled += 1;
                    if let Some(i) = d.index(same.len()) {
                        from.push(same[i]);
                    }
                }
            }
            if from.is_empty() {
                return Err(ctx.no_such(
                    spec.col_piece.min(spec.col_file),
                    if doubled == 0 {
                        format!("no two {side} {name}s stand on one file")
                    } else {
                        format!("{} names no {side} {name}", d.describe())
                    },
                ));
            }
        }
    }
    let mut found: Vec<Move> = Vec::new();
    for &m in legal {
        let m = m.without_class();
        if m.is_pass() || !from.contains(&m.from()) || found.contains(&m) {
            continue;
        }
        if motion(color, m.from(), m.to()) == (spec.dir, spec.arg) {
            found.push(m);
        }
    }
    match found.len() {
        1 => Ok(match spec.class {
            Some(c) => found[0].with_class(c),
            None => found[0],
        }),
        0 => {
            let what = match spec.dir {
                Dir::Traverse => format!("traverse to file {}", spec.arg),
                Dir::Forward | Dir::Backward => {
                    let way = if spec.dir == Dir::Forward {
                        "forward"
                    } else {
                        "back"
                    };
                    let straight = matches!(
                        spec.kind,
                        PieceKind::King | PieceKind::Rook | PieceKind::Cannon | PieceKind::Pawn
                    );
                    if straight {
                        format!(
                            "go {way} {} step(s) or {way} to file {}",
                            spec.arg, spec.arg
                        )
                    } else {
                        format!("go {way} to file {}", spec.arg)
                    }
                }
            };
            let column = if spec.dir == Dir::Traverse {
                spec.col_arg
            } else {
                spec.col_dir
            };
            Err(ctx.no_such(
                column,
                format!("the {side} {name} named here cannot legally {what}"),
            ))
        }
        _ => {
            let list: Vec<String> = found.iter().map(|m| m.to_string()).collect();
            Err(ctx.ambiguous(
                spec.col_piece.min(spec.col_file),
                format!(
                    "{} {side} {name}s can make this move ({}); say which (front/rear)",
                    found.len(),
                    list.join(", ")
                ),
            ))
        }
    }
}

/// Splits off leading whitespace (returning its length in characters) and
/// trailing whitespace.
fn trimmed(text: &str) -> (usize, Vec<char>) {
    let lead = text.chars().take_while(|c| c.is_whitespace()).count();
    let chars: Vec<char> = text.trim().chars().collect();
    (lead, chars)
}

/// A class suffix: mark or word.
fn class_suffix(c: char) -> Option<Class> {
    Class::from_mark(c).or(match c {
        '普' => Some(Class::Normal),
        '小' => Some(Class::Small),
        '王' => Some(Class::Royal),
        '闲' | '閑' | '閒' => Some(Class::Idle),
        _ => None,
    })
}

fn wxf_kind(c: char) -> Option<PieceKind> {
    Some(match c.to_ascii_uppercase() {
        'K' => PieceKind::King,
        'A' => PieceKind::Advisor,
        'E' | 'B' => PieceKind::Elephant,
        'H' | 'N' => PieceKind::Horse,
        'R' => PieceKind::Rook,
        'C' => PieceKind::Cannon,
        'P' => PieceKind::Pawn,
        _ => return None,
    })
}

fn wxf_digit(c: char) -> Option<u8> {
    match c {
        '1'..='9' => Some(c as u8 - b'0'),
        _ => None,
    }
}

fn wxf_dir(c: char) -> Option<Dir> {
    match c {
        '+' => Some(Dir::Forward),
        '-' => Some(Dir::Backward),
        '.' | '=' => Some(Dir::Traverse),
        _ => None,
    }
}

fn wxf_sign(c: char) -> Option<Designator> {
    match c {
        '+' => Some(Designator::Plus),
        '-' => Some(Designator::Minus),
        _ => None,
    }
}

/// Parses WXF notation (`C2.5`, `H8+7`, `C+.5`, `+C.5`, `++.4`, `3-.4`,
/// `C2.5*`) and returns the legal move of `pos` it names.
pub fn parse_wxf(pos: &Position, text: &str) -> Result<Move, NotationError> {
    parse_wxf_among(pos, text, &pos.legal_moves())
}

/// [`parse_wxf`] against a given list of legal moves (for rule sets whose
/// legal moves the plain [`Position::legal_moves`] does not give).
pub fn parse_wxf_among(pos: &Position, text: &str, legal: &[Move]) -> Result<Move, NotationError> {
    let ctx = Ctx {
        notation: "WXF",
        text,
    };
    let (lead, mut chars) = trimmed(text);
    if chars.is_empty() {
        return Err(ctx.syntax(0, "empty move (expected e.g. C2.5)"));
    }
    let mut class = None;
    if let Some(&last) = chars.last()
        && !last.is_ascii_digit()
        && chars.len() > 1
    {
        match class_suffix(last) {
            Some(c) => {
                class = Some(c);
                chars.pop();
            }
            None => {
                return Err(ctx.syntax(
                    lead + chars.len() - 1,
                    format!("'{last}' is neither a number 1-9 nor a class mark (= - + *)"),
                ));
            }
        }
    }
    let col = |i: usize| lead + i;
    let n = chars.len();
    let bad = |i: usize, what: &str| {
        let c = chars.get(i).copied().unwrap_or(' ');
        ctx.syntax(col(i), format!("'{c}' {what}"))
    };
    // The last two characters: direction and number (a three-character
    // `C25` has no direction and means a traverse).
    let (head, dir, col_dir) = if n == 3 {
        (&chars[..2], Dir::Traverse, col(2))
    } else if n == 4 || n == 5 {
        let d = wxf_dir(chars[n - 2])
            .ok_or_else(|| bad(n - 2, "is not a direction (+ forward, - back, . traverse)"))?;
        (&chars[..n - 2], d, col(n - 2))
    } else {
        return Err(ctx.syntax(
            col(n.min(5)),
            format!(
                "a WXF move has 4 characters (like C2.5), this one is too {}",
                if n > 5 { "long" } else { "short" }
            ),
        ));
    };
    let arg = wxf_digit(chars[n - 1]).ok_or_else(|| bad(n - 1, "is not a number 1-9"))?;
    let mut spec = Spec {
        kind: PieceKind::Pawn,
        file: None,
        designator: None,
        dir,
        arg,
        class,
        col_piece: col(0),
        col_file: col(1),
        col_dir,
        col_arg: col(n - 1),
    };
    match *head {
        [a, b] => {
            if let Some(k) = wxf_kind(a) {
                spec.kind = k;
                if let Some(f) = wxf_digit(b) {
                    spec.file = Some(f);
                } else if let Some(d) = wxf_sign(b) {
                    spec.designator = Some(d);
                } else {
                    return Err(bad(1, "is neither a file number 1-9 nor + / -"));
                }
            } else if let Some(d) = wxf_sign(a) {
                spec.col_file = col(0);
                if let Some(k) = wxf_kind(b) {
                    spec.kind = k;
                    spec.col_piece = col(1);
                    spec.designator = Some(d);
                } else if b == a {
                    spec.designator = Some(if d == Designator::Plus {
                        Designator::PlusPlus
                    } else {
                        Designator::MinusMinus
                    });
                } else {
                    return Err(bad(1, "should be a piece letter or a repeated sign"));
                }
            } else if let Some(f) = wxf_digit(a) {
                // Pawns doubled on two files: file then + / - / the file again.
                spec.col_file = col(0);
                spec.file = Some(f);
                if let Some(d) = wxf_sign(b) {
                    spec.designator = Some(d);
                } else if wxf_digit(b) == Some(f) {
                    spec.designator = Some(Designator::WxfMiddle);
                } else {
                    return Err(bad(1, "should be +, - or the file number repeated"));
                }
            } else {
                return Err(bad(0, "is not a piece letter (K A E H R C P)"));
            }
            if n == 3 && (spec.file.is_none() || spec.designator.is_some()) {
                return Err(ctx.syntax(col(2), "expected a direction (+ - .)"));
            }
        }
        [a, b, c] => {
            // `P3+.4`: letter, file, then + / - / the file again.
            spec.kind = wxf_kind(a).ok_or_else(|| bad(0, "is not a piece letter"))?;
            let f = wxf_digit(b).ok_or_else(|| bad(1, "is not a file number 1-9"))?;
            spec.file = Some(f);
            if let Some(d) = wxf_sign(c) {
                spec.designator = Some(d);
            } else if wxf_digit(c) == Some(f) {
                spec.designator = Some(Designator::WxfMiddle);
            } else {
                return Err(bad(2, "should be +, - or the file number repeated"));
            }
        }
        _ => return Err(ctx.syntax(col(0), "malformed move")),
    }
    // A bare file number for three or five pawns on it names the middle one.
    if spec.designator.is_none()
        && spec.kind == PieceKind::Pawn
        && let Some(f) = spec.file
    {
        let count = on_file(
            pos,
            pos.side_to_move(),
            PieceKind::Pawn,
            file_of_number(pos.side_to_move(), f),
        )
        .len();
        if count == 3 || count == 5 {
            spec.designator = Some(Designator::WxfMiddle);
        }
    }
    resolve(pos, legal, &spec, &ctx)
}

fn cn_kind(c: char) -> Option<PieceKind> {
    Some(match c {
        '帅' | '帥' | '将' | '將' => PieceKind::King,
        '仕' | '士' => PieceKind::Advisor,
        '相' | '象' => PieceKind::Elephant,
        '马' | '馬' | '傌' => PieceKind::Horse,
        '车' | '車' | '俥' => PieceKind::Rook,
        '炮' | '砲' | '包' => PieceKind::Cannon,
        '兵' | '卒' => PieceKind::Pawn,
        _ => return None,
    })
}

/// A number 1..=9 written as a Chinese numeral, a full-width or an ASCII digit.
fn cn_number(c: char) -> Option<u8> {
    if let Some(i) = CN_NUMERALS.iter().position(|&x| x == c) {
        return Some(i as u8 + 1);
    }
    if let Some(i) = FW_DIGITS.iter().position(|&x| x == c) {
        return Some(i as u8 + 1);
    }
    wxf_digit(c)
}

fn cn_dir(c: char) -> Option<Dir> {
    match c {
        '进' | '進' => Some(Dir::Forward),
        '退' => Some(Dir::Backward),
        '平' => Some(Dir::Traverse),
        _ => None,
    }
}

fn cn_designator(c: char) -> Option<Designator> {
    match c {
        '前' => Some(Designator::Front),
        '后' | '後' => Some(Designator::Rear),
        '中' => Some(Designator::Middle),
        _ => match cn_number(c) {
            Some(n @ 1..=5) => Some(Designator::Nth(n)),
            _ => None,
        },
    }
}

/// Parses Chinese notation (`炮二平五`, `马8进7`, `马８进７`, `前炮退二`, `二兵平六`,
/// `前三平二`, `炮二平五闲`) and returns the legal move of `pos` it names.
pub fn parse_chinese(pos: &Position, text: &str) -> Result<Move, NotationError> {
    parse_chinese_among(pos, text, &pos.legal_moves())
}

/// [`parse_chinese`] against a given list of legal moves (for rule sets whose
/// legal moves the plain [`Position::legal_moves`] does not give).
pub fn parse_chinese_among(
    pos: &Position,
    text: &str,
    legal: &[Move],
) -> Result<Move, NotationError> {
    let ctx = Ctx {
        notation: "Chinese",
        text,
    };
    let (lead, mut chars) = trimmed(text);
    if chars.is_empty() {
        return Err(ctx.syntax(0, "empty move (expected e.g. 炮二平五)"));
    }
    let mut class = None;
    if let Some(&last) = chars.last()
        && cn_number(last).is_none()
        && chars.len() > 1
    {
        match class_suffix(last) {
            Some(c) => {
                class = Some(c);
                chars.pop();
            }
            None => {
                return Err(ctx.syntax(
                    lead + chars.len() - 1,
                    format!("'{last}' is neither a number 1-9 nor a class word (普 小 王 闲)"),
                ));
            }
        }
    }
    let col = |i: usize| lead + i;
    let n = chars.len();
    let bad = |i: usize, what: &str| {
        let c = chars.get(i).copied().unwrap_or(' ');
        ctx.syntax(col(i), format!("'{c}' {what}"))
    };
    if n != 4 && n != 5 {
        return Err(ctx.syntax(
            col(n.min(5)),
            format!(
                "a Chinese move has 4 characters (like 炮二平五), this one is too {}",
                if n > 5 { "long" } else { "short" }
            ),
        ));
    }
    let dir = cn_dir(chars[n - 2]).ok_or_else(|| bad(n - 2, "is not 进, 退 or 平"))?;
    let arg = cn_number(chars[n - 1]).ok_or_else(|| bad(n - 1, "is not a number 1-9"))?;
    let mut spec = Spec {
        kind: PieceKind::Pawn,
        file: None,
        designator: None,
        dir,
        arg,
        class,
        col_piece: col(0),
        col_file: col(1),
        col_dir: col(n - 2),
        col_arg: col(n - 1),
    };
    if n == 4 {
        let (a, b) = (chars[0], chars[1]);
        if let Some(k) = cn_kind(a) {
            // 炮二平五, or 车前平三 (designator after the piece).
            spec.kind = k;
            if let Some(f) = cn_number(b) {
                spec.file = Some(f);
            } else if let Some(d) = cn_designator(b) {
                spec.designator = Some(d);
            } else {
                return Err(bad(1, "is neither a file number nor 前/中/后"));
            }
        } else if let Some(d) = cn_designator(a) {
            spec.designator = Some(d);
            spec.col_file = col(0);
            if let Some(k) = cn_kind(b) {
                // 前炮平五, 二兵进一
                spec.kind = k;
                spec.col_piece = col(1);
            } else if let Some(f) = cn_number(b) {
                // 前三进一: pawns doubled on two files.
                spec.file = Some(f);
                spec.col_file = col(1);
            } else {
                return Err(bad(1, "is neither a piece nor a file number"));
            }
        } else {
            return Err(bad(0, "is not a piece (车 马 炮 兵 …) nor 前/中/后"));
        }
    } else {
        // 前兵三进一
        spec.designator = Some(cn_designator(chars[0]).ok_or_else(|| bad(0, "is not 前/中/后"))?);
        spec.kind = cn_kind(chars[1]).ok_or_else(|| bad(1, "is not a piece"))?;
        spec.col_piece = col(1);
        spec.file = Some(cn_number(chars[2]).ok_or_else(|| bad(2, "is not a file number"))?);
        spec.col_file = col(2);
    }
    resolve(pos, legal, &spec, &ctx)
}
