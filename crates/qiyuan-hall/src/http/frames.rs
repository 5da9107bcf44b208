//! What a client sends on a game socket, tagged by `t`: read at the edge
//! into the domain's commands, so nothing matches frames on strings.

use serde::Deserialize;

use crate::domain::command::Answer;

/// A frame a client sends on a game socket, tagged by `t`. Fields a
/// command needs are optional here so that a frame lacking one gets a
/// sentence naming it, not a parser's message.
#[derive(Debug, Deserialize)]
#[serde(tag = "t", rename_all = "snake_case")]
pub enum ClientFrame {
    /// A ping the server answers with a pong of the same id.
    Ping {
        #[serde(default)]
        id: Option<u64>,
    },
    /// The answer to the server's ping `id` (for the lag estimate).
    Pong {
        #[serde(default)]
        id: Option<u64>,
    },
    /// A move in the game's notation.
    Move {
        #[serde(default, rename = "move")]
        mv: Option<String>,
    },
    /// Resign the game.
    Resign {},
    /// Offer, accept or decline a draw (`offer` without an action).
    Draw {
        #[serde(default)]
        action: Option<Answer>,
    },
    /// Ask for, accept or decline a takeback (`offer` without an action).
    Takeback {
        #[serde(default)]
        action: Option<Answer>,
    },
    /// A chat line.
    Chat {
        #[serde(default)]
        text: Option<String>,
    },
    /// Claim what the rules allow now (a draw by the move limit, a win).
    Claim {},
    /// Offer or accept a rematch.
    Rematch {},
    /// Any other `t`.
    #[serde(other)]
    Unknown,
}

/// The `t` values [`ClientFrame`] reads, for the error an unknown one gets.
pub const FRAME_TYPES: &str = "ping, pong, move, resign, draw, takeback, chat, claim, rematch";

#[cfg(test)]
mod tests {
    use super::*;

    fn frame(s: &str) -> Result<ClientFrame, serde_json::Error> {
        serde_json::from_str(s)
    }

    #[test]
    fn frames_are_read_by_their_tag_and_ignore_extra_fields() {
        assert!(
            matches!(frame(r#"{"t":"move","move":"h2e2"}"#), Ok(ClientFrame::Move { mv: Some(m) }) if m == "h2e2")
        );
        assert!(matches!(
            frame(r#"{"t":"move"}"#),
            Ok(ClientFrame::Move { mv: None })
        ));
        assert!(matches!(
            frame(r#"{"t":"resign","id":3}"#),
            Ok(ClientFrame::Resign {})
        ));
        assert!(matches!(
            frame(r#"{"t":"draw","action":"decline"}"#),
            Ok(ClientFrame::Draw {
                action: Some(Answer::Decline)
            })
        ));
        assert!(matches!(
            frame(r#"{"t":"takeback"}"#),
            Ok(ClientFrame::Takeback { action: None })
        ));
        assert!(matches!(
            frame(r#"{"t":"dance"}"#),
            Ok(ClientFrame::Unknown)
        ));
        // A wrong action or no tag is not a frame.
        assert!(frame(r#"{"t":"draw","action":"maybe"}"#).is_err());
        assert!(frame(r#"{"move":"h2e2"}"#).is_err());
        assert!(frame("[1]").is_err());
    }
}
