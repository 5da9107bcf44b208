//! Several nodes on one database: game leases, forwarding to the owner, the Redis bus.

pub(crate) mod forward;
pub mod lease;
pub mod redis_bus;
