//! Where the AI thinks. The AI itself is the game kind's ([`qiyuan_core::GameAi`]);
//! the hall calls it on a blocking thread, never on the async runtime, and
//! schedules those threads here.

/// Where AI moves are thought: games with a person in them get up to one
/// search per core, games between AIs (event games) share a single search
/// slot, so however many AI-only games run, people's games and the async
/// workers keep the other cores. An AI-only game waiting for the slot is
/// marked queued: its clock is not charged for the wait (its turn restarts
/// when the slot is granted) and its flag is not checked meanwhile.
pub struct AiPool {
    people: tokio::sync::Semaphore,
    background: tokio::sync::Semaphore,
    queued: std::sync::Mutex<std::collections::HashSet<String>>,
    background_running: std::sync::atomic::AtomicUsize,
    background_peak: std::sync::atomic::AtomicUsize,
}

impl Default for AiPool {
    fn default() -> Self {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        AiPool {
            people: tokio::sync::Semaphore::new(cores.max(1)),
            background: tokio::sync::Semaphore::new(1),
            queued: Default::default(),
            background_running: Default::default(),
            background_peak: Default::default(),
        }
    }
}

/// A granted thinking slot; dropping it frees the slot.
pub struct AiSlot<'a> {
    _permit: tokio::sync::SemaphorePermit<'a>,
    background: Option<&'a std::sync::atomic::AtomicUsize>,
}

impl Drop for AiSlot<'_> {
    fn drop(&mut self) {
        if let Some(n) = self.background {
            n.fetch_sub(1, std::sync::atomic::Ordering::AcqRel);
        }
    }
}

impl AiPool {
    /// Waits for a slot: a people's slot if `for_people`, else the single
    /// background slot (game `id` counts as queued while it waits).
    pub async fn slot(&self, for_people: bool, id: &str) -> Option<AiSlot<'_>> {
        use std::sync::atomic::Ordering;
        if for_people {
            let permit = self.people.acquire().await.ok()?;
            return Some(AiSlot {
                _permit: permit,
                background: None,
            });
        }
        self.queued
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(id.to_string());
        let permit = self.background.acquire().await;
        self.queued
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(id);
        let permit = permit.ok()?;
        let now = self.background_running.fetch_add(1, Ordering::AcqRel) + 1;
        self.background_peak.fetch_max(now, Ordering::AcqRel);
        Some(AiSlot {
            _permit: permit,
            background: Some(&self.background_running),
        })
    }

    /// Whether AI-only game `id` is waiting for the background slot.
    pub fn is_queued(&self, id: &str) -> bool {
        self.queued
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .contains(id)
    }

    /// The most AI-only searches that ever ran at once.
    pub fn background_peak(&self) -> usize {
        self.background_peak
            .load(std::sync::atomic::Ordering::Acquire)
    }
}
