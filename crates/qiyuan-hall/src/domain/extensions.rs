//! What the layers above the domain attach to the hall without the domain
//! knowing them: the events' state lives here, keyed by its type (the
//! pattern of `http::Extensions`), and the one question the domain asks of
//! it, whether a game belongs to something that forbids takebacks, goes
//! through [`GameAffiliations`]. This keeps the domain below the
//! tournaments: it names no type of theirs.

use std::any::{Any, TypeId};
use std::collections::HashMap;
use std::sync::{Arc, OnceLock, RwLock};

/// Something games can belong to (an event) that changes how the domain
/// treats them.
pub trait GameAffiliations: Send + Sync {
    /// Whether game `id` belongs to it (takebacks are then refused).
    fn holds(&self, id: &str) -> bool;
}

/// Values keyed by type, one of each, made on first use.
#[derive(Default)]
pub struct Extensions {
    values: RwLock<HashMap<TypeId, Arc<dyn Any + Send + Sync>>>,
    affiliations: OnceLock<Arc<dyn GameAffiliations>>,
}

impl Extensions {
    /// The hall's `T`, made by `make` the first time; the bool says whether
    /// this call made it.
    pub fn get_or_insert_with<T: Any + Send + Sync>(
        &self,
        make: impl FnOnce() -> T,
    ) -> (Arc<T>, bool) {
        let key = TypeId::of::<T>();
        if let Some(v) = self.read(key) {
            return (v, false);
        }
        let mut values = self.values.write().unwrap_or_else(|e| e.into_inner());
        if let Some(v) = values
            .get(&key)
            .cloned()
            .and_then(|v| v.downcast::<T>().ok())
        {
            return (v, false);
        }
        let v = Arc::new(make());
        values.insert(key, v.clone());
        (v, true)
    }

    fn read<T: Any + Send + Sync>(&self, key: TypeId) -> Option<Arc<T>> {
        self.values
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .get(&key)
            .cloned()
            .and_then(|v| v.downcast::<T>().ok())
    }

    /// Sets what games belong to (once; later calls are ignored).
    pub fn set_affiliations(&self, a: Arc<dyn GameAffiliations>) {
        let _ = self.affiliations.set(a);
    }

    /// Whether game `id` belongs to an event or the like.
    pub fn affiliated(&self, id: &str) -> bool {
        self.affiliations.get().is_some_and(|a| a.holds(id))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Default)]
    struct Counter(std::sync::atomic::AtomicU32);

    struct Odd;
    impl GameAffiliations for Odd {
        fn holds(&self, id: &str) -> bool {
            id.len() % 2 == 1
        }
    }

    #[test]
    fn one_value_per_type_made_once() {
        let ext = Extensions::default();
        let (a, made) = ext.get_or_insert_with(Counter::default);
        assert!(made);
        a.0.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let (b, made) = ext.get_or_insert_with(Counter::default);
        assert!(!made);
        assert_eq!(b.0.load(std::sync::atomic::Ordering::Relaxed), 1);
        let (s, made) = ext.get_or_insert_with(|| String::from("x"));
        assert!(made);
        assert_eq!(*s, "x");
    }

    #[test]
    fn no_affiliations_means_no_game_belongs() {
        let ext = Extensions::default();
        assert!(!ext.affiliated("abc"));
        ext.set_affiliations(Arc::new(Odd));
        assert!(ext.affiliated("abc"));
        assert!(!ext.affiliated("ab"));
    }
}
