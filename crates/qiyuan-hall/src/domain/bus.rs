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
    /// `Lagged` and should re-read the full state. Dropping the
    /// subscription unsubscribes.
    fn subscribe(&self, topic: &str) -> Subscription;
    /// Topics with at least one subscriber (for tests and metrics).
    fn topic_count(&self) -> usize;
}

type Topics = Arc<Mutex<HashMap<String, broadcast::Sender<Arc<str>>>>>;

/// A subscription to one topic: a broadcast receiver that, when dropped as
/// the topic's last one, removes the topic, so topics never outlive their
/// subscribers.
pub struct Subscription {
    rx: broadcast::Receiver<Arc<str>>,
    topic: String,
    topics: Topics,
}

impl std::ops::Deref for Subscription {
    type Target = broadcast::Receiver<Arc<str>>;
    fn deref(&self) -> &Self::Target {
        &self.rx
    }
}

impl std::ops::DerefMut for Subscription {
    fn deref_mut(&mut self) -> &mut Self::Target {
        &mut self.rx
    }
}

impl Drop for Subscription {
    fn drop(&mut self) {
        let mut topics = self.topics.lock().unwrap_or_else(|e| e.into_inner());
        // Under the lock no one can subscribe meanwhile; 1 is this receiver.
        if topics
            .get(&self.topic)
            .is_some_and(|tx| tx.receiver_count() <= 1)
        {
            topics.remove(&self.topic);
        }
    }
}

/// In-process fan-out: one broadcast channel per topic, made on first use and
/// dropped when its last subscriber leaves.
#[derive(Default)]
pub struct LocalBus {
    topics: Topics,
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

    fn subscribe(&self, topic: &str) -> Subscription {
        let mut topics = self.topics.lock().unwrap_or_else(|e| e.into_inner());
        let rx = topics
            .entry(topic.to_string())
            .or_insert_with(|| broadcast::channel(CAPACITY).0)
            .subscribe();
        Subscription {
            rx,
            topic: topic.to_string(),
            topics: self.topics.clone(),
        }
    }

    fn topic_count(&self) -> usize {
        self.topics.lock().unwrap_or_else(|e| e.into_inner()).len()
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

    #[tokio::test]
    async fn a_topic_goes_with_its_last_subscriber() {
        let bus = LocalBus::default();
        let a = bus.subscribe("g1");
        let mut b = bus.subscribe("g1");
        let _c = bus.subscribe("g2");
        assert_eq!(bus.topic_count(), 2);
        drop(a);
        assert_eq!(bus.topic_count(), 2);
        bus.publish("g1", Arc::from("still here"));
        assert_eq!(&*b.recv().await.expect("event"), "still here");
        drop(b);
        assert_eq!(bus.topic_count(), 1);
    }
}
