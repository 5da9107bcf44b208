//! Repetition detection for the search: a repeated position scores as a draw.
//!
//! This is a stand-in until the rules crate's repetition rulings (perpetual
//! check and chase, X2/X3, J19) offer a fast "would this move complete a
//! forbidden repetition" query; the search only talks to [`RepetitionStack`],
//! so swapping the implementation touches this file alone.

/// The keys of the positions before the current one (game history, then the
/// search path), each with whether it ended the reversible stretch.
#[derive(Clone, Debug, Default)]
pub struct RepetitionStack {
    entries: Vec<(u64, bool)>,
}

impl RepetitionStack {
    /// A stack from a game's history (oldest first). Only the last
    /// `reversible` positions can repeat (J20's counter: no capture and no
    /// score change since), so older ones are not kept.
    pub fn from_history(history: &[u64], reversible: usize) -> RepetitionStack {
        let start = history.len().saturating_sub(reversible);
        let mut entries: Vec<(u64, bool)> = history[start..].iter().map(|&h| (h, false)).collect();
        if let Some(first) = entries.first_mut() {
            first.1 = true;
        }
        RepetitionStack { entries }
    }

    /// Records the position being left: its key and whether its halfmove
    /// clock was zero (nothing before it can equal a later position).
    #[inline]
    pub fn push(&mut self, key: u64, clock_zero: bool) {
        self.entries.push((key, clock_zero));
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
        if clock == 0 {
            return false;
        }
        for &(k, boundary) in self.entries.iter().rev() {
            if k == key {
                return true;
            }
            if boundary {
                break;
            }
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_a_repeat_within_the_reversible_stretch_only() {
        let mut s = RepetitionStack::from_history(&[1, 2, 3, 4], 3);
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
}
