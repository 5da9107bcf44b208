//! Reading a TRF file. Every input is bounded before anything is allocated
//! for it, and nothing here panics on any input (property-tested).

use super::{
    AnnouncedBye, AsRead, Colour, HeaderKind, Line, LineEnding, MAX_FILE_BYTES, MAX_LINE_CHARS,
    MAX_PLAYERS, MAX_ROUNDS, PointSystem, Trf, TrfError, TrfPlayer, TrfResult, TrfRound,
};
use std::collections::BTreeMap;

fn err(line: usize, column: usize, field: &'static str, message: impl Into<String>) -> TrfError {
    TrfError {
        line,
        column,
        field,
        message: message.into(),
    }
}

/// Splits `text` into lines at `\r\n`, `\n` or a bare `\r`. Returns the
/// lines, the first terminator seen, and whether the text ends with one.
fn split_lines(text: &str) -> (Vec<&str>, LineEnding, bool) {
    let bytes = text.as_bytes();
    let mut lines = Vec::new();
    let mut ending = None;
    let mut start = 0;
    let mut i = 0;
    while i < bytes.len() {
        let (len, kind) = match bytes[i] {
            b'\r' if bytes.get(i + 1) == Some(&b'\n') => (2, LineEnding::CrLf),
            b'\r' => (1, LineEnding::Cr),
            b'\n' => (1, LineEnding::Lf),
            _ => {
                i += 1;
                continue;
            }
        };
        ending.get_or_insert(kind);
        lines.push(&text[start..i]);
        i += len;
        start = i;
    }
    let final_newline = start == bytes.len() && !bytes.is_empty();
    if start < bytes.len() {
        lines.push(&text[start..]);
    }
    (lines, ending.unwrap_or_default(), final_newline)
}

/// Characters `from..to` (0-based, end exclusive) of a line, as a string;
/// shorter where the line is.
fn cols(chars: &[char], from: usize, to: usize) -> String {
    chars
        .get(from.min(chars.len())..to.min(chars.len()))
        .unwrap_or_default()
        .iter()
        .collect()
}

/// A number field that may be blank (→ `None`).
fn opt_number(
    s: &str,
    line: usize,
    column: usize,
    field: &'static str,
    max: u32,
) -> Result<Option<u32>, TrfError> {
    let t = s.trim();
    if t.is_empty() {
        return Ok(None);
    }
    if !t.bytes().all(|b| b.is_ascii_digit()) || t.len() > 9 {
        return Err(err(line, column, field, format!("{t:?} is not a number")));
    }
    let v: u32 = t
        .parse()
        .map_err(|_| err(line, column, field, format!("{t:?} is not a number")))?;
    if v > max {
        return Err(err(line, column, field, format!("{v} is over {max}")));
    }
    Ok(Some(v))
}

/// Points with at most one decimal (`9`, `9.5`, ` 10.0`) as tenths.
pub(crate) fn points(
    s: &str,
    line: usize,
    column: usize,
    field: &'static str,
) -> Result<u32, TrfError> {
    let t = s.trim();
    let bad = || {
        err(
            line,
            column,
            field,
            format!("{t:?} is not a score like 4.5"),
        )
    };
    let (whole, frac) = match t.split_once('.') {
        Some((w, f)) => (w, f),
        None => (t, ""),
    };
    if whole.is_empty()
        || whole.len() > 4
        || frac.len() > 1
        || !whole.bytes().all(|b| b.is_ascii_digit())
        || !frac.bytes().all(|b| b.is_ascii_digit())
        || (t.contains('.') && frac.is_empty())
    {
        return Err(bad());
    }
    let w: u32 = whole.parse().map_err(|_| bad())?;
    let f: u32 = if frac.is_empty() {
        0
    } else {
        frac.parse().map_err(|_| bad())?
    };
    Ok(w * 10 + f)
}

/// Reads a `001` line (its characters) at line number `ln`.
fn player(chars: &[char], ln: usize) -> Result<TrfPlayer, TrfError> {
    if chars.len() < 84 {
        return Err(err(
            ln,
            chars.len() + 1,
            "points",
            "a player line runs at least to column 84 (the points)",
        ));
    }
    let start = opt_number(&cols(chars, 4, 8), ln, 5, "start number", MAX_PLAYERS)?
        .filter(|&s| s > 0)
        .ok_or_else(|| err(ln, 5, "start number", "a start number from 1 to 9999"))?;
    let sex = match chars[9] {
        ' ' => None,
        c => Some(c),
    };
    let rating = opt_number(&cols(chars, 48, 52), ln, 49, "rating", 9999)?.unwrap_or(0);
    let points_tenths = points(&cols(chars, 80, 84), ln, 81, "points")?;
    let rank = opt_number(&cols(chars, 85, 89), ln, 86, "rank", MAX_PLAYERS)?.unwrap_or(0);
    let mut rounds = Vec::new();
    let mut at = 91usize;
    while at + 8 <= chars.len() {
        if rounds.len() as u32 >= MAX_ROUNDS {
            return Err(err(
                ln,
                at + 1,
                "rounds",
                format!("more than {MAX_ROUNDS} rounds"),
            ));
        }
        let n = rounds.len() + 1;
        let (f_opp, f_col, f_res) = ("round opponent", "round colour", "round result");
        let opp_text = cols(chars, at, at + 4);
        let opponent = if opp_text == "    " || opp_text == "0000" {
            None
        } else {
            match opt_number(&opp_text, ln, at + 1, f_opp, MAX_PLAYERS)? {
                Some(0) | None => {
                    return Err(err(ln, at + 1, f_opp, format!("round {n}: bad opponent")));
                }
                Some(o) if o == start => {
                    return Err(err(
                        ln,
                        at + 1,
                        f_opp,
                        format!("round {n}: a player cannot meet themself"),
                    ));
                }
                Some(o) => Some(o),
            }
        };
        let colour = match chars[at + 5] {
            'w' => Some(Colour::White),
            'b' => Some(Colour::Black),
            '-' | ' ' => None,
            c => {
                return Err(err(
                    ln,
                    at + 6,
                    f_col,
                    format!("round {n}: colour {c:?} is not w, b or -"),
                ));
            }
        };
        let rc = chars[at + 7];
        let result = TrfResult::from_code(rc).ok_or_else(|| {
            err(
                ln,
                at + 8,
                f_res,
                format!("round {n}: {rc:?} is not a TRF result code"),
            )
        })?;
        let no_opponent = matches!(
            result,
            TrfResult::HalfBye
                | TrfResult::FullBye
                | TrfResult::PairingBye
                | TrfResult::ZeroBye
                | TrfResult::Absent
        );
        if no_opponent && opponent.is_some() {
            return Err(err(
                ln,
                at + 8,
                f_res,
                format!("round {n}: result {rc:?} takes no opponent"),
            ));
        }
        if opponent.is_none() && colour.is_some() {
            return Err(err(
                ln,
                at + 6,
                f_col,
                format!("round {n}: a colour without an opponent"),
            ));
        }
        if result.played() && colour.is_none() && !(result == TrfResult::Draw && opponent.is_none())
        {
            return Err(err(
                ln,
                at + 8,
                f_res,
                format!("round {n}: a game played over the board needs an opponent and a colour"),
            ));
        }
        rounds.push(TrfRound {
            opponent,
            colour,
            result,
        });
        at += 10;
    }
    if let Some(i) = chars.iter().skip(at).position(|&c| c != ' ') {
        return Err(err(
            ln,
            at + i + 1,
            "rounds",
            "stray characters after the last round",
        ));
    }
    // Trailing blank entries carry nothing.
    while rounds.last().is_some_and(|r| {
        r.result == TrfResult::Absent && r.opponent.is_none() && r.colour.is_none()
    }) {
        rounds.pop();
    }
    let mut p = TrfPlayer {
        start,
        sex,
        title: cols(chars, 10, 13).trim().to_string(),
        name: cols(chars, 14, 47).trim().to_string(),
        rating,
        federation: cols(chars, 53, 56).trim().to_string(),
        fide_id: cols(chars, 57, 68).trim().to_string(),
        birth: cols(chars, 69, 79).trim().to_string(),
        points_tenths,
        rank,
        rounds,
        verbatim: None,
    };
    let text: String = chars.iter().collect();
    if super::write::player_line(&p) != text {
        p.verbatim = Some(text);
    }
    Ok(p)
}

/// Reads the value of a `BBx` line (columns 5-12).
fn bb_points(chars: &[char], ln: usize, field: &'static str) -> Result<u32, TrfError> {
    if chars.len() < 5 {
        return Err(err(ln, chars.len() + 1, field, "a score is missing"));
    }
    points(&cols(chars, 4, 12), ln, 5, field)
}

/// Reads a `162` line: `W`, `D`, `L`, `Z`, `P`, `A` each with a score, every
/// 9 columns from column 6.
fn point_system(
    chars: &[char],
    ln: usize,
    ps: &mut PointSystem,
    pab_set: &mut bool,
) -> Result<(), TrfError> {
    let mut at = 5usize;
    while at + 5 <= chars.len() {
        let v = points(&cols(chars, at + 1, at + 5), ln, at + 2, "point system")?;
        match chars[at] {
            'W' => ps.win = v,
            'D' => ps.draw = v,
            'L' => ps.loss = v,
            'Z' => {
                ps.zero_bye = v;
                ps.forfeit_loss = v;
            }
            'A' => ps.forfeit_loss = v,
            'P' => {
                ps.pairing_bye = v;
                *pab_set = true;
            }
            c => {
                return Err(err(
                    ln,
                    at + 1,
                    "point system",
                    format!("{c:?} is not one of W D L Z P A"),
                ));
            }
        }
        at += 9;
    }
    if let Some(i) = chars.iter().skip(at).position(|&c| c != ' ') {
        return Err(err(ln, at + i + 1, "point system", "stray characters"));
    }
    Ok(())
}

/// Reads a FIDE TRF(-2026) file. See the [module](super) for the codes read.
pub fn parse(text: &str) -> Result<Trf, TrfError> {
    if text.len() > MAX_FILE_BYTES {
        return Err(err(
            0,
            0,
            "file",
            format!("{} bytes, over the {MAX_FILE_BYTES}-byte limit", text.len()),
        ));
    }
    let (lines, line_ending, final_newline) = split_lines(text);
    let mut trf = Trf {
        line_ending,
        final_newline,
        ..Trf::default()
    };
    let mut pab_set = false;
    let mut seen: BTreeMap<u32, usize> = BTreeMap::new();
    for (i, line) in lines.iter().enumerate() {
        let ln = i + 1;
        if line.len() > MAX_LINE_CHARS * 4 || line.chars().count() > MAX_LINE_CHARS {
            return Err(err(
                ln,
                MAX_LINE_CHARS + 1,
                "line",
                format!("longer than {MAX_LINE_CHARS} characters"),
            ));
        }
        let chars: Vec<char> = line.chars().collect();
        let code: String = chars.iter().take(3).collect();
        let header = |kind| Line::Header(kind, line.to_string());
        match code.as_str() {
            "001" => {
                let p = player(&chars, ln)?;
                if seen.insert(p.start, ln).is_some() {
                    return Err(err(
                        ln,
                        5,
                        "start number",
                        format!("start number {} appears twice", p.start),
                    ));
                }
                if trf.players.len() as u32 >= MAX_PLAYERS {
                    return Err(err(ln, 1, "players", "more than 9999 players"));
                }
                trf.layout.push(Line::Player(p.start));
                trf.players.push(p);
            }
            "XXR" | "142" => {
                let v = opt_number(
                    &cols(&chars, 3, chars.len()),
                    ln,
                    4,
                    "total rounds",
                    MAX_ROUNDS,
                )?
                .filter(|&v| v > 0)
                .ok_or_else(|| err(ln, 4, "total rounds", "a number of rounds from 1 to 99"))?;
                trf.total_rounds = Some(v);
                trf.layout.push(header(HeaderKind::Rounds));
            }
            "XXC" => {
                for token in cols(&chars, 3, chars.len()).split_whitespace() {
                    match token {
                        "white1" => trf.initial_colour = Some(Colour::White),
                        "black1" => trf.initial_colour = Some(Colour::Black),
                        _ => {}
                    }
                }
                trf.layout.push(header(HeaderKind::Colour));
            }
            "152" => {
                trf.initial_colour = match cols(&chars, 4, chars.len()).as_str() {
                    "W" => Some(Colour::White),
                    "B" => Some(Colour::Black),
                    _ => return Err(err(ln, 5, "initial colour", "W or B")),
                };
                trf.layout.push(header(HeaderKind::Colour));
            }
            "BBW" => {
                trf.points.win = bb_points(&chars, ln, "points for a win")?;
                if !pab_set {
                    trf.points.pairing_bye = trf.points.win;
                }
                trf.layout.push(header(HeaderKind::Points));
            }
            "BBD" => {
                trf.points.draw = bb_points(&chars, ln, "points for a draw")?;
                trf.layout.push(header(HeaderKind::Points));
            }
            "BBL" => {
                trf.points.loss = bb_points(&chars, ln, "points for a loss")?;
                trf.layout.push(header(HeaderKind::Points));
            }
            "BBZ" => {
                trf.points.zero_bye = bb_points(&chars, ln, "points for a zero-point bye")?;
                trf.layout.push(header(HeaderKind::Points));
            }
            "BBF" => {
                trf.points.forfeit_loss = bb_points(&chars, ln, "points for a forfeit loss")?;
                trf.layout.push(header(HeaderKind::Points));
            }
            "BBU" => {
                trf.points.pairing_bye =
                    bb_points(&chars, ln, "points for a pairing-allocated bye")?;
                pab_set = true;
                trf.layout.push(header(HeaderKind::Points));
            }
            "162" => {
                let mut ps = trf.points;
                point_system(&chars, ln, &mut ps, &mut pab_set)?;
                if !pab_set {
                    ps.pairing_bye = ps.win;
                }
                trf.points = ps;
                trf.layout.push(header(HeaderKind::Points));
            }
            "XXA" => {
                let start = opt_number(
                    &cols(&chars, 4, 8),
                    ln,
                    5,
                    "acceleration player",
                    MAX_PLAYERS,
                )?
                .filter(|&s| s > 0)
                .ok_or_else(|| err(ln, 5, "acceleration player", "a start number"))?;
                let mut values = Vec::new();
                let mut at = 9usize;
                while at + 4 <= chars.len() {
                    if values.len() as u32 >= MAX_ROUNDS {
                        return Err(err(ln, at + 1, "acceleration", "more than 99 rounds"));
                    }
                    let field = cols(&chars, at, at + 4);
                    values.push(if field.trim().is_empty() {
                        0
                    } else {
                        points(&field, ln, at + 1, "acceleration")?
                    });
                    at += 5;
                }
                if let Some(i) = chars.iter().skip(at).position(|&c| c != ' ') {
                    return Err(err(ln, at + i + 1, "acceleration", "stray characters"));
                }
                trf.accelerations.push((start, values));
                trf.layout.push(header(HeaderKind::Accelerations));
            }
            "XXP" => {
                let mut set = Vec::new();
                let rest = cols(&chars, 3, chars.len());
                for token in rest.split_whitespace() {
                    let v = opt_number(token, ln, 4, "forbidden pair", MAX_PLAYERS)?
                        .filter(|&v| v > 0)
                        .ok_or_else(|| err(ln, 4, "forbidden pair", "a start number"))?;
                    set.push(v);
                }
                trf.forbidden.push(set);
                trf.layout.push(header(HeaderKind::Forbidden));
            }
            "240" => {
                if chars.len() < 11 {
                    return Err(err(
                        ln,
                        chars.len() + 1,
                        "bye round",
                        "round and players missing",
                    ));
                }
                let round = opt_number(&cols(&chars, 6, 9), ln, 7, "bye round", MAX_ROUNDS)?
                    .filter(|&v| v > 0)
                    .ok_or_else(|| err(ln, 7, "bye round", "a round from 1 to 99"))?;
                let mut players = Vec::new();
                let mut at = 10usize;
                while at + 4 <= chars.len() {
                    let p = opt_number(
                        &cols(&chars, at, at + 4),
                        ln,
                        at + 1,
                        "bye player",
                        MAX_PLAYERS,
                    )?
                    .filter(|&v| v > 0)
                    .ok_or_else(|| err(ln, at + 1, "bye player", "a start number"))?;
                    players.push(p);
                    at += 5;
                }
                if let Some(i) = chars.iter().skip(at).position(|&c| c != ' ') {
                    return Err(err(ln, at + i + 1, "bye player", "stray characters"));
                }
                trf.announced_byes.push(AnnouncedBye {
                    kind: chars[4],
                    round,
                    players,
                });
                trf.layout.push(header(HeaderKind::Byes));
            }
            _ => trf.layout.push(Line::Other(line.to_string())),
        }
    }
    check_pairs(&trf, &seen)?;
    trf.as_read = AsRead {
        total_rounds: trf.total_rounds,
        initial_colour: trf.initial_colour,
        points: trf.points,
        accelerations: trf.accelerations.clone(),
        forbidden: trf.forbidden.clone(),
        announced_byes: trf.announced_byes.clone(),
    };
    Ok(trf)
}

/// A game played over the board must be on both players' lines, with
/// opposite colours (bbpPairings refuses such a file too).
fn check_pairs(trf: &Trf, lines: &BTreeMap<u32, usize>) -> Result<(), TrfError> {
    let by_start: BTreeMap<u32, &TrfPlayer> = trf.players.iter().map(|p| (p.start, p)).collect();
    for p in &trf.players {
        let ln = lines.get(&p.start).copied().unwrap_or(0);
        for (i, r) in p.rounds.iter().enumerate() {
            let Some(o) = r.opponent else { continue };
            let column = 92 + 10 * i;
            let Some(opp) = by_start.get(&o) else {
                return Err(err(
                    ln,
                    column,
                    "round opponent",
                    format!("round {}: there is no player {o}", i + 1),
                ));
            };
            if !r.result.played() {
                continue;
            }
            let theirs = opp.rounds.get(i);
            let ok = theirs.is_some_and(|t| {
                t.opponent == Some(p.start)
                    && t.result.played()
                    && t.colour.is_some()
                    && t.colour != r.colour
            });
            if !ok {
                return Err(err(
                    ln,
                    column,
                    "round opponent",
                    format!(
                        "round {}: player {o}'s line does not show this game with the other colour",
                        i + 1
                    ),
                ));
            }
        }
    }
    Ok(())
}
