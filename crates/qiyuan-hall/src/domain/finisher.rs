//! The finisher: when a game's end is stored, the hall tells whoever
//! listens, in the order they registered (the server registers the points
//! ledgers, then ratings and events). The hall calls no ledger, rating or
//! event code itself; it only publishes.

use std::sync::{Arc, RwLock};

use async_trait::async_trait;

use crate::domain::hall::{Hall, Live};

/// Something that reacts to finished games.
#[async_trait]
pub trait FinishListener: Send + Sync {
    /// Game `live` has ended and its end is stored.
    async fn finished(&self, hall: &Hall, live: &Live);
}

/// The listeners of finished games.
#[derive(Default)]
pub struct Finisher {
    listeners: RwLock<Vec<Arc<dyn FinishListener>>>,
}

impl Finisher {
    /// Adds a listener (at start, before any game can end).
    pub fn listen(&self, l: Arc<dyn FinishListener>) {
        self.listeners
            .write()
            .unwrap_or_else(|e| e.into_inner())
            .push(l);
    }

    /// Tells every listener that `live` ended.
    pub async fn publish(&self, hall: &Hall, live: &Live) {
        let all: Vec<Arc<dyn FinishListener>> = self
            .listeners
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .clone();
        for l in all {
            l.finished(hall, live).await;
        }
    }
}
