//! The Redis bus (issue 17): [`EventBus`] over Redis pub/sub, so that the
//! sockets of every node hear the events of games played on any node.
//!
//! Events are the same JSON strings as on [`LocalBus`]; topic `t` is the
//! Redis channel `qiyuan:t`. A node publishes through one task that sends
//! whatever has queued up as one pipeline (in order: one connection), and
//! hears every channel of the prefix on one pattern subscription
//! (`PSUBSCRIBE qiyuan:*`), handing each message to its own [`LocalBus`],
//! whose subscribers are the node's sockets and streams. Its own events come
//! back the same way, so every subscriber anywhere sees one order per topic.
//! Every node receives every event (the simple choice up to a few nodes; a
//! subscription per topic would cut that). While Redis is unreachable
//! events are dropped (with a warning) and both connections are retried;
//! clients catch up by version when they reconnect, as after any gap.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use anyhow::Context;
use futures_util::StreamExt;
use tokio::sync::mpsc;

use crate::domain::bus::{EventBus, LocalBus, Subscription};

/// The channel prefix of the hall's topics.
pub const PREFIX: &str = "qiyuan:";
/// Events that may wait for the publisher before new ones are dropped.
const QUEUE: usize = 65_536;
/// Most events one pipeline carries.
const PIPELINE: usize = 512;

/// Pub/sub over Redis, delivered locally through a [`LocalBus`].
pub struct RedisBus {
    local: Arc<LocalBus>,
    out: mpsc::Sender<(String, Arc<str>)>,
    dropped: Arc<AtomicU64>,
}

impl RedisBus {
    /// Connects to Redis at `url` (`redis://HOST:PORT/`), subscribes to the
    /// hall's channels and starts the publisher; fails at once if Redis
    /// cannot be reached.
    pub async fn connect(url: &str) -> anyhow::Result<RedisBus> {
        let client = redis::Client::open(url).with_context(|| format!("bad Redis URL {url:?}"))?;
        let publisher = client
            .get_multiplexed_async_connection()
            .await
            .with_context(|| format!("cannot connect to Redis at {url}"))?;
        let mut pubsub = client
            .get_async_pubsub()
            .await
            .with_context(|| format!("cannot subscribe on Redis at {url}"))?;
        pubsub
            .psubscribe(format!("{PREFIX}*"))
            .await
            .context("cannot subscribe to the hall's channels")?;
        let local = Arc::new(LocalBus::default());
        let (out, rx) = mpsc::channel(QUEUE);
        tokio::spawn(publish_task(client.clone(), publisher, rx));
        tokio::spawn(listen_task(client, pubsub, local.clone()));
        Ok(RedisBus {
            local,
            out,
            dropped: Arc::new(AtomicU64::new(0)),
        })
    }

    /// Events dropped because the publisher's queue was full.
    pub fn dropped(&self) -> u64 {
        self.dropped.load(Ordering::Relaxed)
    }
}

impl EventBus for RedisBus {
    fn publish(&self, topic: &str, event: Arc<str>) {
        if self.out.try_send((topic.to_string(), event)).is_err() {
            let n = self.dropped.fetch_add(1, Ordering::Relaxed);
            if n.is_power_of_two() {
                tracing::warn!(
                    dropped = n + 1,
                    "the Redis publisher is behind: events dropped"
                );
            }
        }
    }

    fn subscribe(&self, topic: &str) -> Subscription {
        self.local.subscribe(topic)
    }

    fn topic_count(&self) -> usize {
        self.local.topic_count()
    }
}

/// Sends queued events, as many as are waiting in one pipeline.
async fn publish_task(
    client: redis::Client,
    mut conn: redis::aio::MultiplexedConnection,
    mut rx: mpsc::Receiver<(String, Arc<str>)>,
) {
    let mut batch = Vec::with_capacity(PIPELINE);
    while rx.recv_many(&mut batch, PIPELINE).await > 0 {
        let mut pipe = redis::pipe();
        for (topic, event) in &batch {
            pipe.cmd("PUBLISH")
                .arg(format!("{PREFIX}{topic}"))
                .arg(event.as_bytes())
                .ignore();
        }
        if let Err(e) = pipe.query_async::<()>(&mut conn).await {
            tracing::warn!(error = %e, events = batch.len(), "cannot publish to Redis; reconnecting");
            match client.get_multiplexed_async_connection().await {
                Ok(c) => conn = c,
                Err(e) => {
                    tracing::warn!(error = %e, "Redis is unreachable");
                    tokio::time::sleep(Duration::from_millis(500)).await;
                }
            }
        }
        batch.clear();
    }
}

/// Hands every message of the hall's channels to the local subscribers,
/// subscribing again after a lost connection.
async fn listen_task(client: redis::Client, pubsub: redis::aio::PubSub, local: Arc<LocalBus>) {
    let mut pubsub = Some(pubsub);
    let mut backoff = Duration::from_millis(100);
    loop {
        if let Some(ps) = pubsub.take() {
            let mut stream = ps.into_on_message();
            while let Some(msg) = stream.next().await {
                backoff = Duration::from_millis(100);
                let Some(topic) = msg.get_channel_name().strip_prefix(PREFIX) else {
                    continue;
                };
                match msg.get_payload::<String>() {
                    Ok(text) => local.publish(topic, Arc::from(text)),
                    Err(e) => tracing::warn!(error = %e, "a Redis message that is not text"),
                }
            }
            tracing::warn!("the Redis subscription ended; subscribing again");
        }
        tokio::time::sleep(backoff).await;
        backoff = (backoff * 2).min(Duration::from_secs(5));
        match client.get_async_pubsub().await {
            Ok(mut ps) => match ps.psubscribe(format!("{PREFIX}*")).await {
                Ok(()) => pubsub = Some(ps),
                Err(e) => tracing::warn!(error = %e, "cannot subscribe on Redis"),
            },
            Err(e) => tracing::warn!(error = %e, "Redis is unreachable"),
        }
    }
}

/// The bus a `--bus` value names: `local` (in-process, one node) or
/// `redis://HOST:PORT/`.
pub async fn open(spec: &str) -> anyhow::Result<Arc<dyn EventBus>> {
    if spec == "local" {
        Ok(Arc::new(LocalBus::default()))
    } else if spec.starts_with("redis://") || spec.starts_with("rediss://") {
        Ok(Arc::new(RedisBus::connect(spec).await?))
    } else {
        anyhow::bail!("unknown bus {spec:?}: use local (the default) or redis://HOST:PORT/")
    }
}
