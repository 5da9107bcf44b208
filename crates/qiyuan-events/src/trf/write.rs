//! Writing a TRF file: player lines in the TRF-16 column layout, every other
//! line as read unless its value changed.

use super::{AsRead, Colour, HeaderKind, Line, PointSystem, Trf, TrfPlayer, TrfResult, tenths};
use std::collections::{BTreeMap, BTreeSet};

/// Pads `s` to `width` characters on the left (right-aligned), or on the
/// right (left-aligned).
/// Text longer than the field is cut to it; control characters become blanks.
fn pad(out: &mut String, s: &str, width: usize, right_align: bool) {
    let s: String = s
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .take(width)
        .collect();
    let s = s.as_str();
    let n = s.chars().count();
    if right_align {
        out.extend(std::iter::repeat_n(' ', width.saturating_sub(n)));
        out.push_str(s);
    } else {
        out.push_str(s);
        out.extend(std::iter::repeat_n(' ', width.saturating_sub(n)));
    }
}

/// A player's `001` line in the TRF-16 layout (no terminator, no trailing
/// blanks).
pub(crate) fn player_line(p: &TrfPlayer) -> String {
    let mut s = String::with_capacity(92 + 10 * p.rounds.len());
    s.push_str("001 ");
    pad(&mut s, &p.start.to_string(), 4, true);
    s.push(' ');
    s.push(p.sex.filter(|c| !c.is_control()).unwrap_or(' '));
    pad(&mut s, &p.title, 3, false);
    s.push(' ');
    pad(&mut s, &p.name, 33, false);
    s.push(' ');
    let rating = if p.rating == 0 {
        String::new()
    } else {
        p.rating.min(9999).to_string()
    };
    pad(&mut s, &rating, 4, true);
    s.push(' ');
    pad(&mut s, &p.federation, 3, false);
    s.push(' ');
    pad(&mut s, &p.fide_id, 11, true);
    s.push(' ');
    pad(&mut s, &p.birth, 10, false);
    s.push(' ');
    pad(&mut s, &points_field(p.points_tenths), 4, true);
    s.push(' ');
    let rank = if p.rank == 0 {
        String::new()
    } else {
        p.rank.to_string()
    };
    pad(&mut s, &rank, 4, true);
    for r in &p.rounds {
        s.push_str("  ");
        if r.result == TrfResult::Absent && r.opponent.is_none() && r.colour.is_none() {
            s.push_str("        ");
            continue;
        }
        match r.opponent {
            Some(o) => pad(&mut s, &o.to_string(), 4, true),
            None => s.push_str("0000"),
        }
        s.push(' ');
        s.push(match r.colour {
            Some(Colour::White) => 'w',
            Some(Colour::Black) => 'b',
            None => '-',
        });
        s.push(' ');
        s.push(r.result.code());
    }
    let trimmed = s.trim_end().len();
    s.truncate(trimmed);
    s
}

/// The canonical lines for one structured value.
fn header_lines(trf: &Trf, kind: HeaderKind) -> Vec<String> {
    match kind {
        HeaderKind::Rounds => trf
            .total_rounds
            .map(|n| format!("XXR {n}"))
            .into_iter()
            .collect(),
        HeaderKind::Colour => trf
            .initial_colour
            .map(|c| match c {
                Colour::White => "XXC white1".to_string(),
                Colour::Black => "XXC black1".to_string(),
            })
            .into_iter()
            .collect(),
        HeaderKind::Points => points_lines(&trf.points),
        HeaderKind::Accelerations => trf
            .accelerations
            .iter()
            .map(|(start, values)| {
                let mut s = format!("XXA {start:>4}");
                for v in values {
                    s.push(' ');
                    pad(&mut s, &tenths(*v), 4, true);
                }
                s
            })
            .collect(),
        HeaderKind::Forbidden => trf
            .forbidden
            .iter()
            .map(|set| {
                let mut s = String::from("XXP");
                for v in set {
                    s.push_str(&format!(" {v}"));
                }
                s
            })
            .collect(),
        HeaderKind::Byes => trf
            .announced_byes
            .iter()
            .map(|b| {
                let kind = if b.kind.is_control() { ' ' } else { b.kind };
                let mut s = format!("240 {kind} {:>3}", b.round);
                for p in &b.players {
                    s.push_str(&format!(" {p:>4}"));
                }
                s
            })
            .collect(),
    }
}

/// `BBx` lines for the values that differ from FIDE's defaults.
fn points_lines(ps: &PointSystem) -> Vec<String> {
    let d = PointSystem::default();
    let mut out = Vec::new();
    let mut line = |code: &str, v: u32, default: u32| {
        if v != default {
            out.push(format!("{code} {:>4}", tenths(v)));
        }
    };
    line("BBW", ps.win, d.win);
    line("BBD", ps.draw, d.draw);
    line("BBL", ps.loss, d.loss);
    line("BBZ", ps.zero_bye, d.zero_bye);
    line("BBF", ps.forfeit_loss, d.forfeit_loss);
    line("BBU", ps.pairing_bye, ps.win);
    out
}

/// Whether `kind`'s value is what was read.
fn unchanged(trf: &Trf, read: &AsRead, kind: HeaderKind) -> bool {
    match kind {
        HeaderKind::Rounds => trf.total_rounds == read.total_rounds,
        HeaderKind::Colour => trf.initial_colour == read.initial_colour,
        HeaderKind::Points => trf.points == read.points,
        HeaderKind::Accelerations => trf.accelerations == read.accelerations,
        HeaderKind::Forbidden => trf.forbidden == read.forbidden,
        HeaderKind::Byes => trf.announced_byes == read.announced_byes,
    }
}

const KINDS: [HeaderKind; 6] = [
    HeaderKind::Rounds,
    HeaderKind::Colour,
    HeaderKind::Points,
    HeaderKind::Accelerations,
    HeaderKind::Forbidden,
    HeaderKind::Byes,
];

impl Trf {
    /// The file's text. A parsed file comes back as read (line ending kept)
    /// unless its values were changed; a `Trf` built in code is written as
    /// its player lines, then `XXR`, `XXC`, `BBx`, `XXA`, `XXP` lines.
    pub fn to_trf(&self) -> String {
        let mut lines: Vec<String> = Vec::with_capacity(self.layout.len() + self.players.len());
        let mut written: BTreeSet<u32> = BTreeSet::new();
        let by_start: BTreeMap<u32, &TrfPlayer> =
            self.players.iter().rev().map(|p| (p.start, p)).collect();
        let mut kinds_done: Vec<HeaderKind> = Vec::new();
        let last_player = self
            .layout
            .iter()
            .rposition(|l| matches!(l, Line::Player(_)));
        let write_rest = |lines: &mut Vec<String>, written: &mut BTreeSet<u32>| {
            for p in &self.players {
                if written.insert(p.start) {
                    lines.push(player_text(p));
                }
            }
        };
        for (i, line) in self.layout.iter().enumerate() {
            match line {
                Line::Player(start) => {
                    if !written.contains(start)
                        && let Some(p) = by_start.get(start)
                    {
                        written.insert(*start);
                        lines.push(player_text(p));
                    }
                }
                Line::Other(text) => lines.push(text.clone()),
                Line::Header(kind, text) => {
                    if unchanged(self, &self.as_read, *kind) {
                        lines.push(text.clone());
                    } else if !kinds_done.contains(kind) {
                        lines.extend(header_lines(self, *kind));
                    }
                    if !kinds_done.contains(kind) {
                        kinds_done.push(*kind);
                    }
                }
            }
            if Some(i) == last_player {
                write_rest(&mut lines, &mut written);
            }
        }
        write_rest(&mut lines, &mut written);
        for kind in KINDS {
            if !kinds_done.contains(&kind) {
                lines.extend(header_lines(self, kind));
            }
        }
        let eol = self.line_ending.as_str();
        let mut out = lines.join(eol);
        if self.final_newline || (self.layout.is_empty() && !lines.is_empty()) {
            out.push_str(eol);
        }
        out
    }
}

/// The 4-character points field: `99.9` at most with a decimal, whole
/// scores up to `9999` without one.
fn points_field(v: u32) -> String {
    if v >= 1000 && v.is_multiple_of(10) {
        (v / 10).min(9999).to_string()
    } else {
        tenths(v.min(999))
    }
}

fn player_text(p: &TrfPlayer) -> String {
    p.verbatim.clone().unwrap_or_else(|| player_line(p))
}
