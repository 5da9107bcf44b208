//! Fan-out of game and lobby events behind a small trait.
//!
//! Events are self-contained JSON strings (the public state of a game, or a
//! lobby change), so a Redis pub/sub implementation can carry them unchanged.
//! [`LocalBus`] is the in-process implementation over tokio broadcast channels.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use tokio::sync::broadcast;

/// The topic of the lobby (rooms opened, filled, finished).
pub const LOBBY: &str = "lobby";

/// Publishes events to topics and hands out subscriptions.
pub trait EventBus: Send + Sync {
    /// Sends `event` to every current subscriber of `topic` (none is fine).
    fn publish(&self, topic: &str, event: Arc<str>);
    /// Subscribes to `topic`. A slow subscriber that falls behind sees
    /// `Lagged` and should re-read the full state.
    fn subscribe(&self, topic: &str) -> broadcast::Receiver<Arc<str>>;
}

/// In-process fan-out: one broadcast channel per topic, made on first use and
/// dropped when its last subscriber leaves.
#[derive(Default)]
pub struct LocalBus {
    topics: Mutex<HashMap<String, broadcast::Sender<Arc<str>>>>,
}

/// Events a subscriber may fall behind before it is told it lagged.
const CAPACITY: usize = 64;

impl EventBus for LocalBus {
    fn publish(&self, topic: &str, event: Arc<str>) {
        let mut topics = self.topics.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(tx) = topics.get(topic)
            && tx.send(event).is_err()
        {
            // No receiver left: forget the topic so the map does not grow.
            topics.remove(topic);
        }
    }

    fn subscribe(&self, topic: &str) -> broadcast::Receiver<Arc<str>> {
        let mut topics = self.topics.lock().unwrap_or_else(|e| e.into_inner());
        topics
            .entry(topic.to_string())
            .or_insert_with(|| broadcast::channel(CAPACITY).0)
            .subscribe()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn subscribers_get_events_of_their_topic_only() {
        let bus = LocalBus::default();
        let mut a = bus.subscribe("g1");
        let mut b = bus.subscribe("g2");
        bus.publish("g1", Arc::from("hello"));
        assert_eq!(&*a.recv().await.expect("event"), "hello");
        assert!(b.try_recv().is_err());
        // Publishing with no subscriber is not an error.
        bus.publish("nobody", Arc::from("x"));
    }
}
