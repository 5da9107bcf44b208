//! The games this binary offers: the one place that names the game crates
//! for the hall. A new game is a crate plus one line here.

use qiyuan_hall::registry::Registry;

/// Every game the hall serves.
pub fn games() -> Registry {
    Registry::new()
        .with(qiyuan_engine::kind::kinds())
        .with([std::sync::Arc::new(qiyuan_banqi::table::BanqiKind) as _])
        .with([std::sync::Arc::new(qiyuan_tiaoqi::table::TiaoqiKind) as _])
        .with([std::sync::Arc::new(qiyuan_junqi::table::JunqiKind) as _])
        .with([std::sync::Arc::new(qiyuan_junqi::siguo::table::SiguoKind) as _])
}
