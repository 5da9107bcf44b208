//! The schema's migrations, one source for both stores.
//!
//! The SQL files in `migrations/` are written for SQLite and stay exactly as
//! they were applied (sqlx checks every applied migration's checksum, so an
//! existing SQLite file must see the same text). Another database runs the
//! same files in its own spelling ([`Dialect::schema`]), so a new migration
//! is written once, in the portable subset, and every store gets it.

use std::borrow::Cow;

use sqlx::migrate::{Migration, MigrationType, Migrator};

use super::dialect::Dialect;

/// Every migration: version, name, SQLite text.
const FILES: &[(i64, &str, &str)] = &[
    (1, "init", include_str!("../../migrations/0001_init.sql")),
    (
        2,
        "ratings_events",
        include_str!("../../migrations/0002_ratings_events.sql"),
    ),
    (
        3,
        "game_setups",
        include_str!("../../migrations/0003_game_setups.sql"),
    ),
    (
        4,
        "hardening",
        include_str!("../../migrations/0004_hardening.sql"),
    ),
    (
        5,
        "placings",
        include_str!("../../migrations/0005_placings.sql"),
    ),
    (
        6,
        "options_draws",
        include_str!("../../migrations/0006_options_draws.sql"),
    ),
    (
        7,
        "multi_ratings",
        include_str!("../../migrations/0007_multi_ratings.sql"),
    ),
    (
        8,
        "takebacks_challenges_chat",
        include_str!("../../migrations/0008_takebacks_challenges_chat.sql"),
    ),
    (
        9,
        "presets",
        include_str!("../../migrations/0009_presets.sql"),
    ),
    (
        10,
        "leases",
        include_str!("../../migrations/0010_leases.sql"),
    ),
    (11, "nodes", include_str!("../../migrations/0011_nodes.sql")),
    (12, "bots", include_str!("../../migrations/0012_bots.sql")),
    (
        13,
        "pool_entries",
        include_str!("../../migrations/0013_pool_entries.sql"),
    ),
    (
        14,
        "puzzles",
        include_str!("../../migrations/0014_puzzles.sql"),
    ),
];

fn migrator(files: impl Iterator<Item = (i64, &'static str, Cow<'static, str>)>) -> Migrator {
    // Built by hand (not with `sqlx::migrate!`) so that sqlx's macro crate
    // stays out of the build; the SQL files are still embedded at compile time.
    Migrator {
        migrations: Cow::Owned(
            files
                .map(|(v, name, sql)| {
                    Migration::new(v, Cow::Borrowed(name), MigrationType::Simple, sql, false)
                })
                .collect(),
        ),
        ignore_missing: false,
        locking: true,
        no_tx: false,
    }
}

/// The migrations as `dialect` runs them.
pub(crate) fn for_dialect(dialect: Dialect) -> Migrator {
    migrator(
        FILES
            .iter()
            .map(move |&(v, name, sql)| (v, name, dialect.schema(sql))),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_migration_translates_to_postgres_spelling() {
        for &(v, _, sql) in FILES {
            let pg = Dialect::Postgres.schema(sql);
            for bad in super::super::dialect::SQLITE_ONLY {
                assert!(!pg.contains(bad), "migration {v} keeps '{bad}':\n{pg}");
            }
            assert!(!pg.contains(" INTEGER"), "migration {v}:\n{pg}");
            assert_eq!(
                pg.matches("CREATE TABLE").count(),
                pg.matches("rowid BIGINT").count(),
                "migration {v}"
            );
        }
    }

    #[test]
    fn the_sqlite_text_is_unchanged() {
        // An applied migration's checksum must never change.
        let m = for_dialect(Dialect::Sqlite);
        assert_eq!(m.migrations.len(), FILES.len());
        assert_eq!(m.migrations[0].sql, FILES[0].2);
    }
}
