//! Chat between the players of a game (issue 18). Off in games with an AI
//! seat; spectators neither read nor write it (left out for now). A message
//! is at most [`MAX_CHAT_CHARS`] characters (its bytes are bounded before
//! anything else is read), a seat sends at most [`CHAT_BURST`] messages in
//! [`CHAT_WINDOW`], and a game keeps its last [`CHAT_KEPT`] messages in
//! memory (chat is not stored: it is gone after a restart or once a
//! finished game leaves memory). A player may mute the opponent (the
//! server then stops sending them the opponent's messages) and report a
//! message, which is stored with its text for a moderator.
//!
//! Messages reach the players' sockets as `{"t":"chat","id","seat","text",
//! "at_ms"}` frames on a chat topic per seat ([`chat_topic`]), apart from
//! the versioned event log, so the NDJSON stream and the long poll never
//! see them.

use std::collections::VecDeque;
use std::time::{Duration, Instant};

use serde::Serialize;
use utoipa::ToSchema;

use crate::clock::wall_ms;
use crate::domain::command::GameCommand;
use crate::domain::hall::{Hall, HallError, HallResult, Live, not_a_player};
use crate::error::ErrorCode;
use crate::store::ChatReport;
use crate::store::{SeatRow, User};

/// The bus topic of the chat messages for seat `seat` of game `id`.
pub(crate) fn chat_topic(id: &str, seat: usize) -> String {
    format!("{id}/chat/{seat}")
}

/// The longest message, in characters.
pub const MAX_CHAT_CHARS: usize = 200;
/// The most bytes a message may have before it is looked at.
const MAX_CHAT_BYTES: usize = 4 * MAX_CHAT_CHARS;
/// Messages a game keeps.
pub const CHAT_KEPT: usize = 50;
/// Messages a seat may send in [`CHAT_WINDOW`].
pub const CHAT_BURST: usize = 5;
/// The window of [`CHAT_BURST`].
pub const CHAT_WINDOW: Duration = Duration::from_secs(10);

/// One message.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct ChatLine {
    /// Its number (for reports); unique in the game while it is in memory.
    pub id: u64,
    /// The seat that sent it.
    pub seat: usize,
    pub text: String,
    /// When it was sent, ms since the epoch.
    pub at_ms: i64,
    #[serde(skip)]
    author_id: i64,
}

/// `GET /api/games/{id}/chat` and the answer of a mute.
#[derive(Serialize, ToSchema)]
pub struct ChatList {
    /// The messages the caller may read, oldest first.
    pub lines: Vec<ChatLine>,
    /// Whether the caller has muted the opponent.
    pub muted: bool,
}

/// A game's chat.
#[derive(Debug, Default)]
pub struct Chat {
    lines: VecDeque<ChatLine>,
    next_id: u64,
    /// Seats that muted the other players.
    muted: Vec<usize>,
    /// When each seat sent its recent messages.
    sent: Vec<(usize, VecDeque<Instant>)>,
    /// The messages each seat reported (seat, message number): a report is
    /// stored once, however often it is sent.
    reported: VecDeque<(usize, u64)>,
}

/// The seat of `user` in `live` if chat is on there for them.
fn chat_seat(live: &Live, user: &User) -> HallResult<usize> {
    let seat = Hall::seat_of(live, user).ok_or_else(not_a_player)?;
    if live
        .row
        .seats
        .iter()
        .any(|s| matches!(s, SeatRow::Ai { .. }))
    {
        return Err(
            HallError::conflict("there is no chat in games against the AI")
                .with_code(ErrorCode::ChatUnavailable),
        );
    }
    Ok(seat)
}

/// Characters that reorder or break the text around them (bidirectional
/// marks, overrides and isolates; line and paragraph separators): a message
/// with one would show the opponent something other than what it says.
fn is_layout_control(c: char) -> bool {
    matches!(
        c,
        '\u{061C}'
            | '\u{0085}'
            | '\u{200E}'
            | '\u{200F}'
            | '\u{202A}'..='\u{202E}'
            | '\u{2028}'
            | '\u{2029}'
            | '\u{2066}'..='\u{2069}'
    )
}

/// Characters that show nothing by themselves: spaces, zero-width ones,
/// fillers, variation selectors and tags (which joined emoji use, so they
/// are allowed beside something visible).
fn is_invisible(c: char) -> bool {
    c.is_whitespace()
        || matches!(
            c,
            '\u{00AD}'
                | '\u{034F}'
                | '\u{115F}'
                | '\u{1160}'
                | '\u{180E}'
                | '\u{200B}'..='\u{200D}'
                | '\u{2060}'..='\u{2064}'
                | '\u{3164}'
                | '\u{FE00}'..='\u{FE0F}'
                | '\u{FEFF}'
                | '\u{FFA0}'
                | '\u{E0000}'..='\u{E007F}'
                | '\u{E0100}'..='\u{E01EF}'
        )
}

/// The most combining marks in a row (after composition): enough for any
/// script's stacked diacritics, too few to draw over the page.
pub const MAX_COMBINING_RUN: usize = 4;

/// A message's text, checked and normalised: bounded, composed (NFC),
/// trimmed, one line, nothing that reorders the text, something visible,
/// no towers of combining marks.
fn checked_text(text: &str) -> HallResult<String> {
    use unicode_normalization::UnicodeNormalization;
    use unicode_normalization::char::is_combining_mark;
    if text.len() > MAX_CHAT_BYTES || text.chars().count() > MAX_CHAT_CHARS {
        return Err(HallError::range(
            format!("text: at most {MAX_CHAT_CHARS} characters"),
            "text",
            1,
            MAX_CHAT_CHARS as i64,
        ));
    }
    let composed: String = text.nfc().collect();
    let text = composed.trim_matches(is_invisible);
    if text.is_empty() {
        return Err(HallError::bad("the message is empty").with_code(ErrorCode::EmptyMessage));
    }
    if text.chars().any(|c| c.is_control() || is_layout_control(c)) {
        return Err(HallError::bad(
            "a message is one line of text, without control or text-direction characters",
        ));
    }
    let mut run = 0;
    for c in text.chars() {
        run = if is_combining_mark(c) { run + 1 } else { 0 };
        if run > MAX_COMBINING_RUN {
            return Err(HallError::bad(format!(
                "at most {MAX_COMBINING_RUN} combining marks on one letter"
            )));
        }
    }
    Ok(text.to_string())
}

impl Chat {
    /// Notes that `seat` reports message `line`; false if it already did.
    /// Bounded like the messages themselves: reports of messages no longer
    /// kept are forgotten (those can no longer be reported).
    fn first_report(&mut self, seat: usize, line: u64) -> bool {
        if self.reported.contains(&(seat, line)) {
            return false;
        }
        let lines = &self.lines;
        self.reported
            .retain(|(_, l)| *l == line || lines.iter().any(|x| x.id == *l));
        self.reported.push_back((seat, line));
        true
    }

    fn visible_to(&self, seat: usize) -> Vec<ChatLine> {
        let muted = self.muted.contains(&seat);
        self.lines
            .iter()
            .filter(|l| !muted || l.seat == seat)
            .cloned()
            .collect()
    }

    /// Takes one message from `seat`'s allowance at `now`; false when spent.
    fn allow(&mut self, seat: usize, now: Instant) -> bool {
        let i = match self.sent.iter().position(|(s, _)| *s == seat) {
            Some(i) => i,
            None => {
                self.sent.push((seat, VecDeque::new()));
                self.sent.len() - 1
            }
        };
        let times = &mut self.sent[i].1;
        while times
            .front()
            .is_some_and(|&t| now.duration_since(t) >= CHAT_WINDOW)
        {
            times.pop_front();
        }
        if times.len() >= CHAT_BURST {
            return false;
        }
        times.push_back(now);
        true
    }
}

impl Hall {
    /// Sends a message from `user` to the other players of game `id`.
    pub async fn chat_send(&self, id: &str, user: &User, text: &str) -> HallResult<ChatLine> {
        let text = checked_text(text)?;
        let user = user.clone();
        self.ask(id, |reply| GameCommand::ChatSend { user, text, reply })
            .await?
    }

    /// [`Hall::chat_send`] on the game's task.
    pub(crate) fn chat_send_in(
        &self,
        live: &mut Live,
        user: &User,
        text: String,
    ) -> HallResult<ChatLine> {
        let seat = chat_seat(live, user)?;
        if !live.chat.allow(seat, Instant::now()) {
            return Err(HallError::new(
                ErrorCode::ChatRateLimited,
                format!(
                    "at most {CHAT_BURST} messages in {} s: slow down",
                    CHAT_WINDOW.as_secs()
                ),
            )
            .with("max", CHAT_BURST)
            .with("seconds", CHAT_WINDOW.as_secs()));
        }
        if live.chat.next_id == 0 {
            // Numbers from before a reload are never reused.
            live.chat.next_id = wall_ms().max(1) as u64;
        }
        let line = ChatLine {
            id: live.chat.next_id,
            seat,
            text,
            at_ms: wall_ms(),
            author_id: user.id,
        };
        live.chat.next_id += 1;
        live.chat.lines.push_back(line.clone());
        while live.chat.lines.len() > CHAT_KEPT {
            live.chat.lines.pop_front();
        }
        let mut frame = serde_json::to_value(&line).unwrap_or_default();
        frame["t"] = "chat".into();
        let frame: std::sync::Arc<str> = frame.to_string().into();
        for (i, s) in live.row.seats.iter().enumerate() {
            let muted = i != seat && live.chat.muted.contains(&i);
            if matches!(s, SeatRow::User { .. }) && !muted {
                self.bus
                    .publish(&chat_topic(&live.row.id, i), frame.clone());
            }
        }
        Ok(line)
    }

    /// The messages `user` may read in game `id`.
    pub async fn chat_lines(&self, id: &str, user: &User) -> HallResult<ChatList> {
        let user = user.clone();
        self.ask(id, |reply| GameCommand::ChatLines { user, reply })
            .await?
    }

    /// [`Hall::chat_lines`] on the game's task.
    pub(crate) fn chat_lines_in(live: &Live, user: &User) -> HallResult<ChatList> {
        let seat = chat_seat(live, user)?;
        Ok(ChatList {
            lines: live.chat.visible_to(seat),
            muted: live.chat.muted.contains(&seat),
        })
    }

    /// Mutes (or unmutes) the other players of game `id` for `user`.
    pub async fn chat_mute(&self, id: &str, user: &User, mute: bool) -> HallResult<ChatList> {
        let user = user.clone();
        self.ask(id, |reply| GameCommand::ChatMute { user, mute, reply })
            .await?
    }

    /// [`Hall::chat_mute`] on the game's task.
    pub(crate) fn chat_mute_in(live: &mut Live, user: &User, mute: bool) -> HallResult<ChatList> {
        let seat = chat_seat(live, user)?;
        live.chat.muted.retain(|&s| s != seat);
        if mute {
            live.chat.muted.push(seat);
        }
        Ok(ChatList {
            lines: live.chat.visible_to(seat),
            muted: mute,
        })
    }

    /// Reports message `line` of game `id` (another player's): it is stored
    /// with its text.
    pub async fn chat_report(&self, id: &str, user: &User, line: u64) -> HallResult<()> {
        let user = user.clone();
        let report = self
            .ask(id, |reply| GameCommand::ChatReport { user, line, reply })
            .await??;
        match report {
            Some(report) => self
                .store
                .add_chat_report(&report)
                .await
                .map_err(HallError::internal),
            None => Ok(()),
        }
    }

    /// [`Hall::chat_report`] on the game's task: the report to store, if
    /// this player had not reported the line yet.
    pub(crate) fn chat_report_in(
        live: &mut Live,
        user: &User,
        line: u64,
    ) -> HallResult<Option<ChatReport>> {
        let seat = chat_seat(live, user)?;
        let found = live.chat.lines.iter().find(|l| l.id == line);
        let Some(l) = found else {
            return Err(HallError::not_found("no such message (it may be too old)")
                .with_code(ErrorCode::NoSuchMessage));
        };
        if l.seat == seat {
            return Err(HallError::bad("you cannot report your own message"));
        }
        let report = ChatReport {
            game_id: live.row.id.clone(),
            reporter_id: user.id,
            author_id: l.author_id,
            text: l.text.clone(),
            sent_ms: l.at_ms,
        };
        // Reported again: already stored, nothing to add.
        Ok(live.chat.first_report(seat, line).then_some(report))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn texts_are_bounded_trimmed_and_one_line() {
        assert_eq!(checked_text("  gg  ").ok().as_deref(), Some("gg"));
        assert_eq!(
            checked_text(&"好".repeat(200))
                .map(|t| t.chars().count())
                .ok(),
            Some(200)
        );
        assert_eq!(
            checked_text(&"好".repeat(201)).map_err(|e| e.code.to_string()),
            Err("out_of_range".to_string())
        );
        assert_eq!(
            checked_text(&"x".repeat(100_000)).map_err(|e| e.code.to_string()),
            Err("out_of_range".to_string())
        );
        assert_eq!(
            checked_text("   ").map_err(|e| e.code.to_string()),
            Err("empty_message".to_string())
        );
        assert_eq!(
            checked_text("a\nb").map_err(|e| e.code.to_string()),
            Err("bad_request".to_string())
        );
    }

    #[test]
    fn texts_that_hide_reorder_or_tower_are_refused_and_others_composed() {
        let code = |t: &str| checked_text(t).map_err(|e| e.code.to_string());
        // Issue 34: separators, a right-to-left override, zero-width only,
        // 199 combining marks on one letter.
        for bad in [
            "gg\u{2028}wp",
            "gg\u{2029}wp",
            "\u{202E}pg gg",
            "a\u{2066}b",
            "\u{200F}x",
        ] {
            assert_eq!(code(bad), Err("bad_request".to_string()), "{bad:?}");
        }
        for empty in ["\u{200B}\u{200C}\u{200D}", "\u{FEFF} \u{2060}", "\u{3164}"] {
            assert_eq!(code(empty), Err("empty_message".to_string()), "{empty:?}");
        }
        let tower = format!("a{}", "\u{0301}".repeat(199));
        assert_eq!(code(&tower), Err("bad_request".to_string()));
        // Composed: e + combining acute is one letter; Vietnamese stacks are fine.
        assert_eq!(code("cafe\u{0301}"), Ok("caf\u{e9}".to_string()));
        assert_eq!(code("Vi\u{1EC7}t"), Ok("Vi\u{1EC7}t".to_string()));
        // A joined emoji (zero-width joiners between visible parts) is kept.
        let family = "\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}";
        assert_eq!(code(family), Ok(family.to_string()));
        assert_eq!(code("\u{200B}好棋\u{200B}"), Ok("好棋".to_string()));
    }

    #[test]
    fn a_message_is_reported_once_by_each_player() {
        let mut chat = Chat::default();
        assert!(chat.first_report(0, 7));
        assert!(!chat.first_report(0, 7));
        assert!(chat.first_report(1, 7));
        assert!(chat.first_report(0, 8));
    }

    #[test]
    fn a_seat_sends_a_burst_then_waits() {
        let mut chat = Chat::default();
        let t0 = Instant::now();
        for _ in 0..CHAT_BURST {
            assert!(chat.allow(0, t0));
        }
        assert!(!chat.allow(0, t0), "the burst is spent");
        assert!(chat.allow(1, t0), "the other seat has its own");
        assert!(chat.allow(0, t0 + CHAT_WINDOW), "the window passed");
    }
}
