//! FIDE's tournament report file: TRF-16 with the TRF-2026 extensions that
//! bbpPairings reads (issue 19).
//!
//! [`parse`] reads a file into a typed [`Trf`]; [`Trf::to_trf`] writes it
//! back. A file qiyuan or bbpPairings wrote comes back byte for byte (its
//! line ending kept): player lines are written from their fields in the
//! TRF-16 column layout, and every other line (012 name, 022 city, 092 …,
//! blank lines) is kept as read. A header line whose value the caller
//! changed (total rounds, initial colour, point values, accelerations,
//! forbidden pairs) is written afresh in its TRF-2026 form.
//!
//! Codes read (columns are 1-based characters, as TRF-16 counts them):
//!
//! | line | meaning |
//! | --- | --- |
//! | `001` | a player: start number 5-8, sex 10, title 11-13, name 15-47, rating 49-52, federation 54-56, FIDE id 58-68, birth 70-79, points 81-84, rank 86-89, then per round from 92 in steps of 10: opponent (4), colour (`w`, `b`, `-`), result |
//! | `XXR`, `142` | the total number of rounds |
//! | `XXC`, `152` | the first round's colour for the top player (`white1`/`black1`, `W`/`B`) |
//! | `BBW` `BBD` `BBL` `BBZ` `BBF` `BBU` | points (tenths) for a win, draw, loss, zero-point bye, forfeit loss, pairing-allocated bye |
//! | `162` | the TRF-16 point system line (`W`, `D`, `L`, `Z`, `P`; `A` forfeit loss) |
//! | `XXA` | a player's acceleration per round |
//! | `XXP` | a set of players who may never be paired together |
//! | `240` | players announced as not paired in a round (type at column 5, round 7-9, start numbers from 11 every 5 columns) |
//!
//! Everything else (including `250`, `260` and team lines `013`/`310`) is
//! kept verbatim and not interpreted.
//!
//! Results (the round's last character): `1` `=` `0` played, `W` `D` `L`
//! played unrated, `+` `-` forfeit won/lost, `H` half-point bye, `F`
//! full-point bye, `U` pairing-allocated bye, `Z` zero-point bye, blank:
//! absent.

mod export;
mod parse;
mod write;

pub use export::{event_to_trf, trf_standings};
pub use parse::parse;

use std::fmt;

/// The largest file [`parse`] reads, in bytes (9999 players × 99 rounds fit).
pub const MAX_FILE_BYTES: usize = 16 * 1024 * 1024;
/// The longest line [`parse`] reads, in characters.
pub const MAX_LINE_CHARS: usize = 4096;
/// The most players a file may hold (TRF start numbers have four digits).
pub const MAX_PLAYERS: u32 = 9999;
/// The most rounds a file may hold.
pub const MAX_ROUNDS: u32 = 99;

/// A colour. In qiyuan's exports red is white (red moves first).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Colour {
    /// White (`w`); red in Xiangqi.
    White,
    /// Black (`b`).
    Black,
}

impl Colour {
    /// The other colour.
    pub fn flip(self) -> Colour {
        match self {
            Colour::White => Colour::Black,
            Colour::Black => Colour::White,
        }
    }
}

/// One round's result code for one player.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum TrfResult {
    /// `1`: won over the board.
    Win,
    /// `=`: drawn over the board (with no opponent: a half-point bye).
    Draw,
    /// `0`: lost over the board.
    Loss,
    /// `+`: won by forfeit (with no opponent bbpPairings scores it as a
    /// pairing-allocated bye).
    ForfeitWin,
    /// `-`: lost by forfeit.
    ForfeitLoss,
    /// `W`: won, game not rated.
    UnratedWin,
    /// `D`: drawn, game not rated.
    UnratedDraw,
    /// `L`: lost, game not rated.
    UnratedLoss,
    /// `H`: half-point bye (requested).
    HalfBye,
    /// `F`: full-point bye (requested).
    FullBye,
    /// `U`: pairing-allocated bye.
    PairingBye,
    /// `Z`: zero-point bye.
    ZeroBye,
    /// Blank: not paired. It scores what a zero-point bye does (nothing by
    /// default), as bbpPairings counts it.
    Absent,
}

impl TrfResult {
    /// Whether a game was played over the board: `1 = 0 W D L`.
    pub fn played(self) -> bool {
        matches!(
            self,
            TrfResult::Win
                | TrfResult::Draw
                | TrfResult::Loss
                | TrfResult::UnratedWin
                | TrfResult::UnratedDraw
                | TrfResult::UnratedLoss
        )
    }

    /// The TRF character.
    pub fn code(self) -> char {
        match self {
            TrfResult::Win => '1',
            TrfResult::Draw => '=',
            TrfResult::Loss => '0',
            TrfResult::ForfeitWin => '+',
            TrfResult::ForfeitLoss => '-',
            TrfResult::UnratedWin => 'W',
            TrfResult::UnratedDraw => 'D',
            TrfResult::UnratedLoss => 'L',
            TrfResult::HalfBye => 'H',
            TrfResult::FullBye => 'F',
            TrfResult::PairingBye => 'U',
            TrfResult::ZeroBye => 'Z',
            TrfResult::Absent => ' ',
        }
    }

    /// The result for a TRF character (upper case; bbpPairings also reads
    /// lower case, which [`parse`] accepts and keeps as read).
    pub fn from_code(c: char) -> Option<TrfResult> {
        Some(match c.to_ascii_uppercase() {
            '1' => TrfResult::Win,
            '=' => TrfResult::Draw,
            '0' => TrfResult::Loss,
            '+' => TrfResult::ForfeitWin,
            '-' => TrfResult::ForfeitLoss,
            'W' => TrfResult::UnratedWin,
            'D' => TrfResult::UnratedDraw,
            'L' => TrfResult::UnratedLoss,
            'H' => TrfResult::HalfBye,
            'F' => TrfResult::FullBye,
            'U' => TrfResult::PairingBye,
            'Z' => TrfResult::ZeroBye,
            ' ' => TrfResult::Absent,
            _ => return None,
        })
    }

    /// Whether the code is a win of some kind: `1 + W F U` (what each
    /// scores is the point system's: `U` scores the pairing-allocated bye).
    pub fn is_win(self) -> bool {
        matches!(
            self,
            TrfResult::Win
                | TrfResult::ForfeitWin
                | TrfResult::UnratedWin
                | TrfResult::FullBye
                | TrfResult::PairingBye
        )
    }
}

/// One player's entry for one round.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TrfRound {
    /// The opponent's start number; `None` for byes and absences.
    pub opponent: Option<u32>,
    /// The colour played; `None` where no game had colours.
    pub colour: Option<Colour>,
    /// The result code.
    pub result: TrfResult,
}

impl TrfRound {
    /// An entry with no opponent and no colour (a bye or an absence).
    pub fn bye(result: TrfResult) -> TrfRound {
        TrfRound {
            opponent: None,
            colour: None,
            result,
        }
    }

    /// Whether this entry is a game played over the board against an opponent.
    pub fn is_game(&self) -> bool {
        self.opponent.is_some() && self.result.played()
    }

    /// Whether the player took part in the pairing this round (bbpPairings'
    /// rule): an opponent, a pairing-allocated bye, or `+` without opponent.
    pub fn participated_in_pairing(&self) -> bool {
        self.opponent.is_some()
            || matches!(self.result, TrfResult::PairingBye | TrfResult::ForfeitWin)
    }
}

/// A `001` line.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TrfPlayer {
    /// The start (pairing) number, 1-9999.
    pub start: u32,
    /// Column 10: `m`, `w` or blank.
    pub sex: Option<char>,
    /// Columns 11-13: GM, IM, WGM … or empty.
    pub title: String,
    /// Columns 15-47, trimmed.
    pub name: String,
    /// Columns 49-52; 0 when blank.
    pub rating: u32,
    /// Columns 54-56, trimmed.
    pub federation: String,
    /// Columns 58-68, trimmed (kept as text: some files pad it oddly).
    pub fide_id: String,
    /// Columns 70-79, trimmed (`YYYY/MM/DD` by TRF-16).
    pub birth: String,
    /// Columns 81-84: the points, in tenths.
    pub points_tenths: u32,
    /// Columns 86-89: the rank; 0 when blank.
    pub rank: u32,
    /// One entry per round, in round order, as far as the line goes.
    pub rounds: Vec<TrfRound>,
    /// The line as read, where qiyuan's layout would write its fields
    /// differently (odd spacing, `9` for `9.0`, lower-case codes …):
    /// [`Trf::to_trf`] writes it as it is. Clear it after changing the
    /// fields (`truncated` does).
    pub verbatim: Option<String>,
}

/// The points (in tenths) each result scores (`BBW` … `BBU`, or `162`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct PointSystem {
    /// A win (`1 + W F`), default 10.
    pub win: u32,
    /// A draw (`= D H`), default 5.
    pub draw: u32,
    /// A loss (`0 L`), default 0.
    pub loss: u32,
    /// A zero-point bye (`Z`, absence), default 0.
    pub zero_bye: u32,
    /// A forfeit loss (`-`), default 0.
    pub forfeit_loss: u32,
    /// A pairing-allocated bye (`U`), default a win's points.
    pub pairing_bye: u32,
}

impl Default for PointSystem {
    /// FIDE's 1 / ½ / 0, the bye scoring a win.
    fn default() -> Self {
        PointSystem {
            win: 10,
            draw: 5,
            loss: 0,
            zero_bye: 0,
            forfeit_loss: 0,
            pairing_bye: 10,
        }
    }
}

impl PointSystem {
    /// The points (tenths) `round` scores, as bbpPairings counts them.
    pub fn points(&self, round: &TrfRound) -> u32 {
        use TrfResult::*;
        match round.result {
            Win | UnratedWin | FullBye => self.win,
            ForfeitWin if round.opponent.is_some() => self.win,
            ForfeitWin | PairingBye => self.pairing_bye,
            Draw | UnratedDraw | HalfBye => self.draw,
            Loss | UnratedLoss => self.loss,
            ForfeitLoss if round.opponent.is_some() => self.forfeit_loss,
            ForfeitLoss | ZeroBye | Absent => self.zero_bye,
        }
    }
}

/// The file's line terminator (kept for the round trip).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum LineEnding {
    /// `\n` (what qiyuan writes).
    #[default]
    Lf,
    /// `\r\n`.
    CrLf,
    /// A bare `\r` (what bbpPairings writes).
    Cr,
}

impl LineEnding {
    /// The terminator's text.
    pub fn as_str(self) -> &'static str {
        match self {
            LineEnding::Lf => "\n",
            LineEnding::CrLf => "\r\n",
            LineEnding::Cr => "\r",
        }
    }
}

/// Which structured header value a kept line carries.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum HeaderKind {
    Rounds,
    Colour,
    Points,
    Accelerations,
    Forbidden,
    Byes,
}

/// One line of the file as read, in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Line {
    /// The `001` line of this start number.
    Player(u32),
    /// A line carrying a structured value, kept as read.
    Header(HeaderKind, String),
    /// Any other line, kept as read.
    Other(String),
}

/// The structured values as they were read, to tell a changed value from
/// an unchanged one when writing.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct AsRead {
    pub total_rounds: Option<u32>,
    pub initial_colour: Option<Colour>,
    pub points: PointSystem,
    pub accelerations: Vec<(u32, Vec<u32>)>,
    pub forbidden: Vec<Vec<u32>>,
    pub announced_byes: Vec<AnnouncedBye>,
}

/// A `240` line: players who will not be paired in a round (a bye they
/// asked for, or an absence), as bbpPairings reads them for the round it
/// pairs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AnnouncedBye {
    /// Column 5 as written (`F`, `H`, `Z`, or blank); bbpPairings ignores it.
    pub kind: char,
    /// The round, from 1.
    pub round: u32,
    /// Start numbers.
    pub players: Vec<u32>,
}

/// A tournament report file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Trf {
    /// The `001` lines, in file order.
    pub players: Vec<TrfPlayer>,
    /// `XXR` (or `142`): the total number of rounds.
    pub total_rounds: Option<u32>,
    /// `XXC` (or `152`): the top player's colour in round 1.
    pub initial_colour: Option<Colour>,
    /// `BBW` … `BBU` (or `162`).
    pub points: PointSystem,
    /// `XXA`: per player (start number), the points (tenths) added per round.
    pub accelerations: Vec<(u32, Vec<u32>)>,
    /// `XXP`: sets of start numbers that may never be paired together.
    pub forbidden: Vec<Vec<u32>>,
    /// `240`: players announced as not paired in a round.
    pub announced_byes: Vec<AnnouncedBye>,
    /// The line terminator read (qiyuan writes `\n`).
    pub line_ending: LineEnding,
    /// Whether the last line ends with a terminator.
    pub final_newline: bool,
    /// The file's lines in order, for an exact round trip; empty for a file
    /// built in code.
    pub(crate) layout: Vec<Line>,
    /// The structured values as read.
    pub(crate) as_read: AsRead,
}

/// Why [`parse`] refused a file.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}, column {column} ({field}): {message}")]
pub struct TrfError {
    /// The line, from 1 (0 for the file as a whole).
    pub line: usize,
    /// The column (character), from 1.
    pub column: usize,
    /// The field, e.g. `"rating"` or `"round 3 result"`.
    pub field: &'static str,
    /// What is wrong.
    pub message: String,
}

impl Trf {
    /// A file of these players and nothing else (FIDE's point system, no
    /// header lines); set the other public fields as needed. (Inside this
    /// crate `Trf { players, ..Trf::default() }` does the same.)
    pub fn from_players(players: Vec<TrfPlayer>) -> Trf {
        Trf {
            players,
            ..Trf::default()
        }
    }

    /// The player with `start`.
    pub fn player(&self, start: u32) -> Option<&TrfPlayer> {
        self.players.iter().find(|p| p.start == start)
    }

    /// The number of rounds with any entry (a blank trailing entry does not
    /// count, as in bbpPairings).
    pub fn played_rounds(&self) -> usize {
        self.players
            .iter()
            .map(|p| {
                p.rounds
                    .iter()
                    .rposition(|r| r.result != TrfResult::Absent || r.opponent.is_some())
                    .map_or(0, |i| i + 1)
            })
            .max()
            .unwrap_or(0)
    }

    /// The rounds already paired, as bbpPairings counts them when asked to
    /// pair the next round: a trailing column that holds only entries
    /// outside the pairing (requested byes `H` `F` `Z`, `-` without
    /// opponent, absences) is the round about to be paired, not a played
    /// one. Per player: the last entry in the pairing (an opponent, `U`, or
    /// `+` without opponent) counts its round, any later entry only the
    /// rounds before it.
    pub fn paired_rounds(&self) -> usize {
        self.players
            .iter()
            .map(|p| {
                let participated = p
                    .rounds
                    .iter()
                    .rposition(TrfRound::participated_in_pairing)
                    .map_or(0, |i| i + 1);
                let any = p
                    .rounds
                    .iter()
                    .rposition(|r| r.result != TrfResult::Absent || r.opponent.is_some())
                    .unwrap_or(0);
                participated.max(any)
            })
            .max()
            .unwrap_or(0)
    }

    /// The points (tenths) `player` scored in its first `rounds` rounds by
    /// the point system (accelerations not included).
    pub fn points_after(&self, player: &TrfPlayer, rounds: usize) -> u32 {
        player
            .rounds
            .iter()
            .take(rounds)
            .map(|r| self.points.points(r))
            .sum()
    }

    /// The tournament as it stood before round `rounds + 1`: later rounds
    /// dropped, points recomputed from the point system, ranks recomputed by
    /// points (then start number), every other line kept.
    pub fn truncated(&self, rounds: usize) -> Trf {
        let mut out = self.clone();
        for p in &mut out.players {
            p.rounds.truncate(rounds);
            p.verbatim = None;
        }
        let points: Vec<u32> = out
            .players
            .iter()
            .map(|p| self.points_after(p, rounds))
            .collect();
        for (i, p) in out.players.iter_mut().enumerate() {
            p.points_tenths = points[i];
        }
        let mut order: Vec<usize> = (0..out.players.len()).collect();
        order.sort_by_key(|&i| (std::cmp::Reverse(points[i]), out.players[i].start));
        for (rank, i) in order.into_iter().enumerate() {
            out.players[i].rank = rank as u32 + 1;
        }
        out
    }

    /// Players whose points field differs from their results by the point
    /// system (accelerations aside): `(start, in the file, by the results)`.
    pub fn score_mismatches(&self) -> Vec<(u32, u32, u32)> {
        self.players
            .iter()
            .filter_map(|p| {
                let by_results = self.points_after(p, p.rounds.len());
                (by_results != p.points_tenths).then_some((p.start, p.points_tenths, by_results))
            })
            .collect()
    }
}

/// Formats tenths as TRF does: `9.0`, `10.5`.
pub(crate) fn tenths(v: u32) -> String {
    format!("{}.{}", v / 10, v % 10)
}

impl fmt::Display for Colour {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Colour::White => "w",
            Colour::Black => "b",
        })
    }
}

#[cfg(test)]
mod tests;
