//! SQLite's move writer on a thread of its own (issue 17). Through sqlx,
//! every statement of a batch (`BEGIN`, the rows, `COMMIT`) was a round
//! trip between a tokio worker and the pool connection's thread, and the
//! batches went round the pool's connections, each re-reading what the
//! others had written: a third of the hall's CPU under load went there.
//! This writer owns one connection on one thread: a batch is handed over
//! once and answered once, its statements are prepared once and its page
//! cache stays warm. The other pool connections keep doing everything
//! else; SQLite's write lock and busy timeout order the two. The writer
//! never checkpoints the WAL in a batch's way: a checkpointer thread with a
//! connection of its own does, and a checkpoint does not block writes.

use std::path::Path;
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::{Arc, mpsc};
use std::time::Duration;

use rusqlite::{Connection, OptionalExtension, TransactionBehavior, params};
use tokio::sync::oneshot;

use super::group_commit::{Encoded, PendingMove};
use super::{StoreError, StoreResult, sql};

/// A batch for the thread, and where to answer.
type Job = (Vec<PendingMove>, oneshot::Sender<StoreResult<()>>);

/// The handle of the writer thread; the thread ends (and closes its
/// connection) when the handle is dropped.
pub(crate) struct ThreadWriter {
    jobs: mpsc::Sender<Job>,
}

impl ThreadWriter {
    /// Opens a connection to the database file at `path` (already created
    /// and migrated, in WAL mode) and starts the thread, with a checkpointer
    /// thread beside it.
    pub(crate) fn open(path: &Path) -> StoreResult<ThreadWriter> {
        let conn = connect(path)?;
        // Checkpoints (copying the WAL back into the file, with an fsync)
        // are the checkpointer's, off the path of any move; see `run`.
        conn.pragma_update(None, "wal_autocheckpoint", 0)?;
        let checkpoints = connect(path)?;
        let backlog = Arc::new(AtomicI64::new(0));
        let (asks, asked) = mpsc::sync_channel::<()>(1);
        let pending = backlog.clone();
        std::thread::Builder::new()
            .name("qiyuan-checkpoint".into())
            .spawn(move || checkpointer(checkpoints, asked, pending))?;
        let (jobs, rx) = mpsc::channel::<Job>();
        std::thread::Builder::new()
            .name("qiyuan-moves".into())
            .spawn(move || run(conn, rx, asks, backlog))?;
        Ok(ThreadWriter { jobs })
    }

    /// Writes `moves` in one transaction on the thread; returns once it is
    /// committed (or refused: then none of them is written).
    pub(crate) async fn write(&self, moves: &[PendingMove]) -> StoreResult<()> {
        let (done, answer) = oneshot::channel();
        self.jobs
            .send((moves.to_vec(), done))
            .map_err(|_| StoreError::Stopped)?;
        answer.await.map_err(|_| StoreError::Stopped)?
    }
}

/// A connection as the pool's: WAL (a property of the file, checked here),
/// a commit survives a crash of the process, foreign keys on.
fn connect(path: &Path) -> StoreResult<Connection> {
    let conn = Connection::open(path)?;
    conn.busy_timeout(Duration::from_secs(5))?;
    let mode: String = conn.query_row("PRAGMA journal_mode", [], |r| r.get(0))?;
    if !mode.eq_ignore_ascii_case("wal") {
        return Err(StoreError::Open(format!(
            "the database is not in WAL mode ({mode})"
        )));
    }
    conn.pragma_update(None, "synchronous", "NORMAL")?;
    conn.pragma_update(None, "foreign_keys", "ON")?;
    Ok(conn)
}

/// Batches between two checkpoints the writer asks for.
const CHECKPOINT_EVERY: u32 = 64;
/// WAL frames left uncopied past which the writer checkpoints itself (the
/// checkpointer cannot finish while batches keep coming; the WAL would grow
/// without bound): about 80 MB of 4 KB pages.
const MOST_UNCOPIED: i64 = 20_000;

fn run(
    mut conn: Connection,
    jobs: mpsc::Receiver<Job>,
    asks: mpsc::SyncSender<()>,
    backlog: Arc<AtomicI64>,
) {
    let mut batches = 0u32;
    while let Ok((moves, done)) = jobs.recv() {
        let _ = done.send(write_batch(&mut conn, &moves));
        batches += 1;
        if batches.is_multiple_of(CHECKPOINT_EVERY) {
            // One ask at a time: a full channel means one is pending.
            let _ = asks.try_send(());
        }
        if backlog.load(Ordering::Relaxed) > MOST_UNCOPIED {
            // Rare: under nonstop writes. No batch is committing now, so
            // this copies the whole WAL, which the next batch then restarts.
            match checkpoint(&conn) {
                Ok(left) => backlog.store(left, Ordering::Relaxed),
                Err(e) => tracing::warn!(error = %e, "WAL checkpoint failed"),
            }
        }
    }
}

/// Copies what it can of the WAL into the database file without blocking
/// the writer (SQLite's passive checkpoint); returns the frames left.
fn checkpoint(conn: &Connection) -> StoreResult<i64> {
    let (log, copied): (i64, i64) = conn.query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |r| {
        Ok((r.get(1)?, r.get(2)?))
    })?;
    Ok(log - copied)
}

fn checkpointer(conn: Connection, asked: mpsc::Receiver<()>, backlog: Arc<AtomicI64>) {
    while asked.recv().is_ok() {
        match checkpoint(&conn) {
            Ok(left) => backlog.store(left, Ordering::Relaxed),
            Err(e) => tracing::warn!(error = %e, "WAL checkpoint failed"),
        }
    }
}

/// Each move and its game's row, in order (a game twice in a batch ends
/// with its later row), if every fence still holds; all or nothing.
fn write_batch(conn: &mut Connection, moves: &[PendingMove]) -> StoreResult<()> {
    // IMMEDIATE: the write lock is taken at the start, so the fence read
    // never has to be upgraded to a write (which SQLite may refuse at once).
    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
    {
        let mut held = tx.prepare_cached(sql::LEASE_HELD)?;
        let mut insert = tx.prepare_cached(sql::MOVE_INSERT)?;
        let mut update = tx.prepare_cached(sql::GAME_UPDATE)?;
        for p in moves {
            let (g, mv) = (&p.game, &p.mv);
            if let Some(f) = &p.fence {
                let row: Option<i64> = held
                    .query_row(params![g.id, f.owner, f.token], |r| r.get(0))
                    .optional()?;
                if row.is_none() {
                    return Err(StoreError::StaleLease(g.id.clone()));
                }
            }
            let e = Encoded::of(p)?;
            insert.execute(params![
                g.id,
                mv.ply,
                mv.seat,
                mv.mv,
                e.mv_clocks,
                mv.at_ms,
                e.mv_draws
            ])?;
            update.execute(params![
                g.id,
                g.rules,
                e.options,
                g.start_fen,
                g.initial_ms,
                g.increment_ms,
                i64::from(g.rated),
                e.seats,
                g.status,
                g.result,
                g.reason,
                g.explanation,
                e.clocks,
                g.created_ms,
                g.updated_ms,
                g.rematch_of,
                e.placings
            ])?;
        }
    }
    tx.commit()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::store::{GameStore, MoveRow, SqliteStore};

    use super::*;

    #[tokio::test]
    async fn moves_reach_the_database_file_through_the_checkpointer() {
        let path = std::env::temp_dir().join(format!("qiyuan-ckpt-{}.db", std::process::id()));
        let _ = std::fs::remove_file(&path);
        let store = SqliteStore::open(&format!("sqlite://{}", path.display()))
            .await
            .expect("store");
        sqlx::query(
            "INSERT INTO games (id, rules, initial_ms, increment_ms, rated, seats, status, clocks, created_ms, updated_ms) VALUES ('g', 'kind-a', 1000, 0, 0, '[]', 'playing', '[1000,1000]', 1, 1)",
        )
        .execute(&store.pool)
        .await
        .expect("game");
        let (game, _) = store.load_game("g").await.expect("load").expect("game");
        let file_size = || std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
        let before = file_size();
        // The writer itself never checkpoints: what reaches the file past
        // the WAL was copied by the checkpointer thread.
        let writer = ThreadWriter::open(&path).expect("writer");
        let batches = 3 * CHECKPOINT_EVERY as i64;
        for ply in 0..batches {
            let mv = MoveRow {
                ply,
                seat: ply % 2,
                mv: format!("a very long move text to fill pages {ply:0>200}"),
                clocks: vec![1000, 1000],
                at_ms: 1,
                draws: Vec::new(),
            };
            let p = PendingMove {
                game: game.clone(),
                mv,
                fence: None,
            };
            writer.write(std::slice::from_ref(&p)).await.expect("batch");
        }
        let mut grew = false;
        for _ in 0..100 {
            if file_size() > before + 20_000 {
                grew = true;
                break;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        assert!(grew, "file {} bytes, was {before}", file_size());
        let (_, moves) = store.load_game("g").await.expect("load").expect("game");
        assert_eq!(moves.len() as i64, batches);
        drop(writer);
        let _ = std::fs::remove_file(&path);
    }
}
