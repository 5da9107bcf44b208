//! A game's numbered event log. Every change of a game gets the next
//! version number and one frame per audience: the spectators' frame (what
//! anyone may see) and one for each seated person (their own view, their
//! legal moves). A frame is a *diff*: the whole small state (board, clocks,
//! turn, scores, offers, result) but only the move records the audience
//! does not have yet, so a move costs a socket the same few hundred bytes
//! at ply 5 and at ply 500. A client that reconnects names the last version
//! it saw and gets the frames it missed, or the full state when the log no
//! longer holds them (a long absence, a restart).
//!
//! Version numbers start at the wall clock in ms when a game is loaded, so
//! numbers from before a restart are never mistaken for later ones.

use std::collections::VecDeque;
use std::sync::Arc;

/// Versions kept per game for clients catching up.
pub const KEEP_VERSIONS: usize = 16;

/// Who a frame is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Audience {
    /// Anyone: spectators, streams, the bus.
    Spectators,
    /// The person in this seat.
    Seat(usize),
}

struct Entry {
    version: u64,
    frames: Vec<(Audience, Arc<str>)>,
}

/// The last [`KEEP_VERSIONS`] versions of a game, with their frames.
pub struct EventLog {
    entries: VecDeque<Entry>,
    /// How many move records each audience has been sent.
    sent: Vec<(Audience, usize)>,
}

/// What a client that saw `since` needs.
pub enum CatchUp {
    /// Nothing: it is up to date.
    Nothing,
    /// These frames, oldest first.
    Frames(Vec<Arc<str>>),
    /// More than the log holds (or a version it never had): the full state.
    Full,
}

impl EventLog {
    /// An empty log for a game at `version`.
    pub fn new(version: u64) -> EventLog {
        EventLog {
            entries: VecDeque::from([Entry {
                version,
                frames: Vec::new(),
            }]),
            sent: Vec::new(),
        }
    }

    /// The newest version.
    pub fn version(&self) -> u64 {
        self.entries.back().map_or(0, |e| e.version)
    }

    /// How many move records `audience` has been sent (the `from` of its
    /// next frame). An audience that never had a frame has none.
    pub fn records_sent(&self, audience: Audience) -> usize {
        self.sent
            .iter()
            .find(|(a, _)| *a == audience)
            .map_or(0, |&(_, n)| n)
    }

    /// Adds the next version with its frames; `records` is the number of
    /// move records each audience now has.
    pub fn push(&mut self, frames: Vec<(Audience, Arc<str>)>, records: Vec<(Audience, usize)>) {
        let version = self.version() + 1;
        self.entries.push_back(Entry { version, frames });
        while self.entries.len() > KEEP_VERSIONS + 1 {
            self.entries.pop_front();
        }
        self.sent = records;
    }

    /// The frames `audience` missed after version `since`.
    pub fn since(&self, since: u64, audience: Audience) -> CatchUp {
        let newest = self.version();
        if since == newest {
            return CatchUp::Nothing;
        }
        let oldest = self.entries.front().map_or(newest, |e| e.version);
        if since < oldest || since > newest {
            return CatchUp::Full;
        }
        let mut out = Vec::new();
        for e in self.entries.iter().filter(|e| e.version > since) {
            match e.frames.iter().find(|(a, _)| *a == audience) {
                Some((_, f)) => out.push(f.clone()),
                // The audience had no frame then (a seat taken since).
                None => return CatchUp::Full,
            }
        }
        CatchUp::Frames(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frames(tag: &str) -> Vec<(Audience, Arc<str>)> {
        vec![
            (Audience::Spectators, Arc::from(format!("{tag}-all"))),
            (Audience::Seat(0), Arc::from(format!("{tag}-0"))),
        ]
    }

    #[test]
    fn catches_up_from_any_kept_version_and_falls_back_to_full() {
        let mut log = EventLog::new(1000);
        assert!(matches!(
            log.since(1000, Audience::Spectators),
            CatchUp::Nothing
        ));
        for i in 0..3 {
            log.push(frames(&i.to_string()), vec![(Audience::Seat(0), i + 1)]);
        }
        assert_eq!(log.version(), 1003);
        assert_eq!(log.records_sent(Audience::Seat(0)), 3);
        assert_eq!(log.records_sent(Audience::Seat(1)), 0);
        match log.since(1001, Audience::Seat(0)) {
            CatchUp::Frames(f) => assert_eq!(
                f.iter().map(|s| s.to_string()).collect::<Vec<_>>(),
                vec!["1-0", "2-0"]
            ),
            _ => panic!("expected frames"),
        }
        // Unknown audience, future and ancient versions: the full state.
        assert!(matches!(log.since(1001, Audience::Seat(1)), CatchUp::Full));
        assert!(matches!(log.since(2000, Audience::Seat(0)), CatchUp::Full));
        for i in 3..40 {
            log.push(frames(&i.to_string()), Vec::new());
        }
        assert!(matches!(
            log.since(1003, Audience::Spectators),
            CatchUp::Full
        ));
        let newest = log.version();
        match log.since(newest - KEEP_VERSIONS as u64, Audience::Spectators) {
            CatchUp::Frames(f) => assert_eq!(f.len(), KEEP_VERSIONS),
            _ => panic!("the log keeps {KEEP_VERSIONS} versions"),
        }
    }
}
