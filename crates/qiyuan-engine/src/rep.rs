//! Repetition detection for the search, with the perpetual-check rule.
//!
//! A repeated position is judged from the moves of the cycle, as the rules
//! crate's rulings do (X3, J19), but cheaply: if one side gave check with
//! every move of the cycle and the other did not, the checker loses
//! (perpetual check); any other repetition scores as a draw. Chases are not
//! seen here (they need the full classification of
//! `qiyuan_xiangqi::repetition`, too costly per node). The search only talks to
//! [`RepetitionStack`], so the judgement stays in this file.
//!
//! Chases are caught at the root instead: [`losing_repetitions`] asks the
//! rules crate's full ruling which root moves would lose by repetition (a
//! perpetual chase or check) with that move or the opponent's reply, and
//! the search does not play them while it has another move.

use std::collections::HashSet;

use qiyuan_xiangqi::repetition::RepetitionHistory;
use qiyuan_xiangqi::{Color, Move, Position};

/// One earlier position of the game, with the move played from it: who
/// made it and whether it gave check. A perpetual check that began before
/// the search's root is judged like one inside the search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Earlier {
    /// The position's key.
    pub key: u64,
    /// Who moved from it.
    pub mover: Color,
    /// Whether that move gave check.
    pub gave_check: bool,
}

impl Earlier {
    /// Plays `m` (legal in `pos`) and returns the record of the position
    /// it left.
    pub fn play(pos: &mut Position, m: Move) -> Earlier {
        let key = pos.hash();
        let mover = pos.side_to_move();
        pos.make_move(m);
        // The first move of a Jifen double turn hands no move to the other
        // side: it is not the checking move of a cycle (as in the search).
        let gave_check = pos.side_to_move() != mover && pos.in_check();
        Earlier {
            key,
            mover,
            gave_check,
        }
    }
}

/// One position left on the way to the current one, and the move made from it.
#[derive(Clone, Copy, Debug)]
struct Entry {
    key: u64,
    /// Nothing before this position can equal a later one (capture, null move).
    boundary: bool,
    /// Who moved from here and whether the move gave check; `None` for game
    /// null moves, whose cycles are judged a plain draw.
    mover: Option<(Color, bool)>,
}

/// How a repetition ends for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// An ordinary repetition.
    Draw,
    /// The opponent checked perpetually: the side to move wins.
    Win,
    /// The side to move checked perpetually: it loses.
    Loss,
}

/// The keys of the positions before the current one (game history, then the
/// search path), each with whether it ended the reversible stretch.
#[derive(Clone, Debug, Default)]
pub struct RepetitionStack {
    entries: Vec<Entry>,
}

impl RepetitionStack {
    /// A stack from a game's history (oldest first). Only the last
    /// `reversible` positions can repeat (J20's counter: no capture and no
    /// score change since), so older ones are not kept.
    pub fn from_history(history: &[Earlier], reversible: usize) -> RepetitionStack {
        let start = history.len().saturating_sub(reversible);
        let mut entries: Vec<Entry> = history[start..]
            .iter()
            .map(|e| Entry {
                key: e.key,
                boundary: false,
                mover: Some((e.mover, e.gave_check)),
            })
            .collect();
        if let Some(first) = entries.first_mut() {
            first.boundary = true;
        }
        RepetitionStack { entries }
    }

    /// Records the position being left: its key and whether its halfmove
    /// clock was zero (nothing before it can equal a later position).
    #[inline]
    pub fn push(&mut self, key: u64, clock_zero: bool) {
        self.entries.push(Entry {
            key,
            boundary: clock_zero,
            mover: None,
        });
    }

    /// Notes who made the move from the last recorded position and whether
    /// it gave check (call after making the move).
    #[inline]
    pub fn mark_last(&mut self, mover: Color, gave_check: bool) {
        if let Some(e) = self.entries.last_mut() {
            e.mover = Some((mover, gave_check));
        }
    }

    /// Forgets the last recorded position (after unmaking the move).
    #[inline]
    pub fn pop(&mut self) {
        self.entries.pop();
    }

    /// Whether the position with `key` (whose halfmove clock is
    /// `clock`) already occurred since the last irreversible move.
    #[inline]
    pub fn is_repetition(&self, key: u64, clock: u32) -> bool {
        self.cycle_start(key, clock).is_some()
    }

    fn cycle_start(&self, key: u64, clock: u32) -> Option<usize> {
        if clock == 0 {
            return None;
        }
        for (i, e) in self.entries.iter().enumerate().rev() {
            if e.key == key {
                return Some(i);
            }
            if e.boundary {
                break;
            }
        }
        None
    }

    /// The verdict if the position with `key` repeats, for `to_move`.
    pub fn verdict(&self, key: u64, clock: u32, to_move: Color) -> Option<Verdict> {
        let start = self.cycle_start(key, clock)?;
        let mut moves = [0u32; 2];
        let mut checks = [0u32; 2];
        for e in &self.entries[start..] {
            let Some((mover, check)) = e.mover else {
                return Some(Verdict::Draw);
            };
            moves[mover.index()] += 1;
            checks[mover.index()] += u32::from(check);
        }
        let perpetual = |c: Color| moves[c.index()] > 0 && checks[c.index()] == moves[c.index()];
        let (us, them) = (perpetual(to_move), perpetual(to_move.flip()));
        Some(match (us, them) {
            (true, false) => Verdict::Loss,
            (false, true) => Verdict::Win,
            _ => Verdict::Draw,
        })
    }
}

/// Replays `moves` from `start`: the position reached and its history.
pub fn replay(start: &Position, moves: &[Move]) -> (Position, Vec<Earlier>) {
    let mut pos = start.clone();
    let history = moves.iter().map(|&m| Earlier::play(&mut pos, m)).collect();
    (pos, history)
}

/// The legal moves of the game's current position after which the rules
/// (X3, J19: the full ruling of `qiyuan_xiangqi::repetition`, chases
/// included) would rule a repetition lost by the mover, either at once or
/// after some reply of the opponent. `start` and `moves` are the game so
/// far. Only positions that already occurred since the last irreversible
/// move can complete a repetition, so only replies reaching one of those
/// are judged.
pub fn losing_repetitions(start: &Position, moves: &[Move]) -> Vec<Move> {
    // Only the stretch since the last capture or score change can repeat:
    // replay up to it quickly, then record (and classify) from there.
    let mut pos = start.clone();
    let mut from = 0;
    for (i, &m) in moves.iter().enumerate() {
        pos.make_move(m);
        if pos.halfmove_clock() == 0 {
            from = i + 1;
        }
    }
    let mut pos = start.clone();
    for &m in &moves[..from] {
        pos.make_move(m);
    }
    let mut history = RepetitionHistory::new(&pos);
    let mut keys: Vec<u64> = vec![pos.hash()];
    for &m in &moves[from..] {
        let before = pos.clone();
        pos.make_move(m);
        history.push(&before, m, &pos);
        keys.push(pos.hash());
    }
    let seen: HashSet<u64> = keys.into_iter().collect();
    let us = pos.side_to_move();
    let loses = |h: &RepetitionHistory| h.ruling().is_some_and(|r| r.winner == Some(us.flip()));
    let mut out = Vec::new();
    for m in pos.legal_moves() {
        let before = pos.clone();
        let mut after = pos.clone();
        after.make_move(m);
        if after.halfmove_clock() == 0 {
            continue;
        }
        history.push(&before, m, &after);
        // A ruling right after the move ends the game: no reply follows.
        let ruling = seen
            .contains(&after.hash())
            .then(|| history.ruling())
            .flatten();
        let mut lost = ruling.as_ref().is_some_and(|r| r.winner == Some(us.flip()));
        if ruling.is_none() {
            for r in after.legal_moves() {
                let mut next = after.clone();
                next.make_move(r);
                if next.halfmove_clock() == 0 || !seen.contains(&next.hash()) {
                    continue;
                }
                history.push(&after, r, &next);
                lost = loses(&history);
                history.pop();
                if lost {
                    break;
                }
            }
        }
        history.pop();
        if lost {
            out.push(m);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// History entries with keys only (red and black in turn, no checks).
    fn quiet(keys: &[u64]) -> Vec<Earlier> {
        keys.iter()
            .enumerate()
            .map(|(i, &key)| Earlier {
                key,
                mover: if i % 2 == 0 { Color::Red } else { Color::Black },
                gave_check: false,
            })
            .collect()
    }

    #[test]
    fn finds_a_repeat_within_the_reversible_stretch_only() {
        let mut s = RepetitionStack::from_history(&quiet(&[1, 2, 3, 4]), 3);
        assert!(s.is_repetition(3, 5));
        assert!(s.is_repetition(2, 5));
        // Position 1 is before the irreversible move.
        assert!(!s.is_repetition(1, 5));
        s.push(9, true);
        assert!(!s.is_repetition(3, 5), "a capture separates the history");
        assert!(s.is_repetition(9, 5));
        assert!(
            !s.is_repetition(9, 0),
            "a position right after a capture is new"
        );
    }

    #[test]
    fn perpetual_check_loses_for_the_checker() {
        let mut s = RepetitionStack::default();
        // Red checks with both of its moves, black only steps away: when the
        // first position comes back (red to move), red's perpetual check loses.
        for (key, mover, check) in [
            (1, Color::Red, true),
            (2, Color::Black, false),
            (3, Color::Red, true),
            (4, Color::Black, false),
        ] {
            s.push(key, false);
            s.mark_last(mover, check);
        }
        assert_eq!(s.verdict(1, 9, Color::Red), Some(Verdict::Loss));
        // From black's side, the position 2 repeated would be black's win.
        assert_eq!(s.verdict(2, 9, Color::Black), Some(Verdict::Win));
    }

    #[test]
    fn mutual_checks_and_unknown_history_are_draws() {
        let mut s = RepetitionStack::default();
        for (key, mover) in [(1, Color::Red), (2, Color::Black)] {
            s.push(key, false);
            s.mark_last(mover, true);
        }
        assert_eq!(s.verdict(1, 9, Color::Red), Some(Verdict::Draw));
        let s = RepetitionStack::from_history(&quiet(&[1, 2, 3]), 3);
        assert_eq!(s.verdict(2, 9, Color::Red), Some(Verdict::Draw));
        assert_eq!(s.verdict(7, 9, Color::Red), None);
    }

    #[test]
    fn a_perpetual_check_begun_before_the_root_still_loses() {
        // The game so far: red checked with each of its moves. Before the
        // fix the game's history carried no check flags and this cycle was
        // judged a draw, so the engine walked into its own perpetual check.
        let history: Vec<Earlier> = [
            (1, Color::Red, true),
            (2, Color::Black, false),
            (3, Color::Red, true),
            (4, Color::Black, false),
        ]
        .iter()
        .map(|&(key, mover, gave_check)| Earlier {
            key,
            mover,
            gave_check,
        })
        .collect();
        let s = RepetitionStack::from_history(&history, 10);
        assert_eq!(s.verdict(1, 9, Color::Red), Some(Verdict::Loss));
        assert_eq!(s.verdict(2, 9, Color::Black), Some(Verdict::Win));
    }
}
