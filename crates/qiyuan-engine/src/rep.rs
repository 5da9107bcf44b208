//! Repetition detection for the search, with the perpetual-check rule.
//!
//! A repeated position is judged from the moves of the cycle, as the rules
//! crate's rulings do (X3, J19), but cheaply: if one side gave check with
//! every move of the cycle and the other did not, the checker loses
//! (perpetual check); any other repetition scores as a draw, except in
//! Jifen when a score changed during the cycle (J19: scores are progress,
//! only perpetual check is judged). Positions can recur until the next
//! capture; a score change does not end the stretch, so a Jifen perpetual
//! check whose checks cost or earn points is still seen. Chases are not
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
    /// Whether that move captured: no earlier position can come back.
    pub capture: bool,
    /// Whether that move changed a Jifen score.
    pub score_changed: bool,
}

impl Earlier {
    /// Plays `m` (legal in `pos`) and returns the record of the position
    /// it left.
    pub fn play(pos: &mut Position, m: Move) -> Earlier {
        let key = pos.hash();
        let mover = pos.side_to_move();
        let capture = is_capture(pos, m);
        let scores = pos.scores();
        pos.make_move(m);
        // The first move of a Jifen double turn hands no move to the other
        // side: it is not the checking move of a cycle (as in the search).
        let gave_check = pos.side_to_move() != mover && pos.in_check();
        Earlier {
            key,
            mover,
            gave_check,
            capture,
            score_changed: pos.scores() != scores,
        }
    }
}

/// Whether `m` (legal in `pos`) captures, the one kind of move after which
/// no earlier position can recur.
#[inline]
pub fn is_capture(pos: &Position, m: Move) -> bool {
    !m.is_pass() && pos.piece_at(m.to()).is_some()
}

/// One position left on the way to the current one, and the move made from it.
#[derive(Clone, Copy, Debug)]
struct Entry {
    key: u64,
    /// The move from here is a capture or a null move: neither this
    /// position nor any before it can equal a later one.
    boundary: bool,
    /// Who moved from here and whether the move gave check; `None` for game
    /// null moves, whose cycles are judged a plain draw.
    mover: Option<(Color, bool)>,
    /// The move from here changed a Jifen score.
    score_changed: bool,
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
    /// A stack from a game's history (oldest first). Only the positions
    /// since the last capture can repeat, so older ones are not kept.
    pub fn from_history(history: &[Earlier]) -> RepetitionStack {
        let start = history.iter().rposition(|e| e.capture).map_or(0, |i| i + 1);
        let entries: Vec<Entry> = history[start..]
            .iter()
            .map(|e| Entry {
                key: e.key,
                boundary: false,
                mover: Some((e.mover, e.gave_check)),
                score_changed: e.score_changed,
            })
            .collect();
        RepetitionStack { entries }
    }

    /// Records the position being left: its key and whether the move made
    /// from it is a capture or a null move (nothing before it can equal a
    /// later position).
    #[inline]
    pub fn push(&mut self, key: u64, boundary: bool) {
        self.entries.push(Entry {
            key,
            boundary,
            mover: None,
            score_changed: false,
        });
    }

    /// Notes who made the move from the last recorded position, whether it
    /// gave check and whether it changed a score (call after making the move).
    #[inline]
    pub fn mark_last(&mut self, mover: Color, gave_check: bool, score_changed: bool) {
        if let Some(e) = self.entries.last_mut() {
            e.mover = Some((mover, gave_check));
            e.score_changed = score_changed;
        }
    }

    /// Forgets the last recorded position (after unmaking the move).
    #[inline]
    pub fn pop(&mut self) {
        self.entries.pop();
    }

    /// Whether the position with `key` already occurred since the last
    /// capture.
    #[inline]
    pub fn is_repetition(&self, key: u64) -> bool {
        self.cycle_start(key).is_some()
    }

    fn cycle_start(&self, key: u64) -> Option<usize> {
        for (i, e) in self.entries.iter().enumerate().rev() {
            // A capture or null move from here: neither this position nor
            // any before it can come back.
            if e.boundary {
                break;
            }
            if e.key == key {
                return Some(i);
            }
        }
        None
    }

    /// The verdict if the position with `key` repeats, for `to_move`;
    /// `None` when it does not, or when a Jifen score changed during the
    /// cycle and nobody checked perpetually (J19).
    pub fn verdict(&self, key: u64, to_move: Color) -> Option<Verdict> {
        let start = self.cycle_start(key)?;
        let mut moves = [0u32; 2];
        let mut checks = [0u32; 2];
        let mut score_changed = false;
        for e in &self.entries[start..] {
            let Some((mover, check)) = e.mover else {
                return Some(Verdict::Draw);
            };
            moves[mover.index()] += 1;
            checks[mover.index()] += u32::from(check);
            score_changed |= e.score_changed;
        }
        let perpetual = |c: Color| moves[c.index()] > 0 && checks[c.index()] == moves[c.index()];
        let (us, them) = (perpetual(to_move), perpetual(to_move.flip()));
        match (us, them) {
            (true, false) => Some(Verdict::Loss),
            (false, true) => Some(Verdict::Win),
            (false, false) if score_changed => None,
            _ => Some(Verdict::Draw),
        }
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
    // Only the stretch since the last capture can repeat (a Jifen score
    // change does not end it: J19 still judges perpetual check across one):
    // replay up to it quickly, then record (and classify) from there.
    let mut pos = start.clone();
    let mut from = 0;
    for (i, &m) in moves.iter().enumerate() {
        if is_capture(&pos, m) {
            from = i + 1;
        }
        pos.make_move(m);
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
        if is_capture(&pos, m) {
            continue;
        }
        let before = pos.clone();
        let mut after = pos.clone();
        after.make_move(m);
        history.push(&before, m, &after);
        // A ruling right after the move ends the game: no reply follows.
        let ruling = seen
            .contains(&after.hash())
            .then(|| history.ruling())
            .flatten();
        let mut lost = ruling.as_ref().is_some_and(|r| r.winner == Some(us.flip()));
        if ruling.is_none() {
            for r in after.legal_moves() {
                if is_capture(&after, r) {
                    continue;
                }
                let mut next = after.clone();
                next.make_move(r);
                if !seen.contains(&next.hash()) {
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
                capture: false,
                score_changed: false,
            })
            .collect()
    }

    /// Positions 1-4: red checks from 1 and 3, black steps away from 2
    /// and 4; each check changes a score when `checks_score`.
    fn checks_by_red(checks_score: bool) -> RepetitionStack {
        let mut s = RepetitionStack::default();
        for (key, mover, check) in [
            (1, Color::Red, true),
            (2, Color::Black, false),
            (3, Color::Red, true),
            (4, Color::Black, false),
        ] {
            s.push(key, false);
            s.mark_last(mover, check, check && checks_score);
        }
        s
    }

    #[test]
    fn finds_a_repeat_within_the_reversible_stretch_only() {
        let mut history = quiet(&[1, 2, 3, 4]);
        // The move from position 1 captured.
        history[0].capture = true;
        let mut s = RepetitionStack::from_history(&history);
        assert!(s.is_repetition(3));
        assert!(s.is_repetition(2));
        // Position 1 is before the irreversible move.
        assert!(!s.is_repetition(1));
        s.push(9, false);
        s.mark_last(Color::Red, false, false);
        assert!(s.is_repetition(9));
        s.push(10, true);
        assert!(!s.is_repetition(3), "a capture separates the history");
        assert!(!s.is_repetition(9), "so does it from the position it left");
        assert!(!s.is_repetition(10));
    }

    #[test]
    fn a_jifen_score_change_ends_no_stretch_and_only_perpetual_check_is_judged() {
        // J19: red checks with every move and each check changes a score
        // (simple rules: -1 for the checker). The cycle still loses for red.
        let s = checks_by_red(true);
        assert_eq!(s.verdict(1, Color::Red), Some(Verdict::Loss));
        // Without checks, a cycle in which a score changed is progress, not
        // a repetition; without the score change it is a draw.
        let mut s = RepetitionStack::default();
        for (key, mover, scored) in [(1, Color::Red, true), (2, Color::Black, false)] {
            s.push(key, false);
            s.mark_last(mover, false, scored);
        }
        assert_eq!(s.verdict(1, Color::Red), None);
        let s = RepetitionStack::from_history(&quiet(&[1, 2]));
        assert_eq!(s.verdict(1, Color::Red), Some(Verdict::Draw));
    }

    #[test]
    fn perpetual_check_loses_for_the_checker() {
        // Red checks with both of its moves, black only steps away: when the
        // first position comes back (red to move), red's perpetual check loses.
        let s = checks_by_red(false);
        assert_eq!(s.verdict(1, Color::Red), Some(Verdict::Loss));
        // From black's side, the position 2 repeated would be black's win.
        assert_eq!(s.verdict(2, Color::Black), Some(Verdict::Win));
    }

    #[test]
    fn mutual_checks_and_unknown_history_are_draws() {
        let mut s = RepetitionStack::default();
        for (key, mover) in [(1, Color::Red), (2, Color::Black)] {
            s.push(key, false);
            s.mark_last(mover, true, false);
        }
        assert_eq!(s.verdict(1, Color::Red), Some(Verdict::Draw));
        let s = RepetitionStack::from_history(&quiet(&[1, 2, 3]));
        assert_eq!(s.verdict(2, Color::Red), Some(Verdict::Draw));
        assert_eq!(s.verdict(7, Color::Red), None);
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
            capture: false,
            score_changed: false,
        })
        .collect();
        let s = RepetitionStack::from_history(&history);
        assert_eq!(s.verdict(1, Color::Red), Some(Verdict::Loss));
        assert_eq!(s.verdict(2, Color::Black), Some(Verdict::Win));
    }
}
