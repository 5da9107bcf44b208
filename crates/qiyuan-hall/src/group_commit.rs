//! Group commit (issue 17): the moves of many games written in one
//! transaction. Every game's task sends its move (with the game's row) to
//! one writer task and waits; the writer takes whatever has queued up, up to
//! [`MAX_BATCH`], writes it all in one transaction, commits, and only then
//! tells each waiting game it may acknowledge its move. SQLite pays for a
//! commit, not for a row, so under load the cost of a commit is shared; with
//! one move waiting the batch is that one move and nothing waits longer than
//! before. A batch that fails (one bad row) is retried a move at a time, so
//! one game's failure is its own.

use std::sync::Arc;

use async_trait::async_trait;
use tokio::sync::{mpsc, oneshot};

use crate::store::{Fence, GameRow, MoveRow, StoreResult, write_game};

/// Most moves one transaction takes.
pub const MAX_BATCH: usize = 256;
/// Moves that may wait for the writer (a game waits for its slot beyond).
const QUEUE: usize = 4096;

/// One move to store: the move, its game's row after it, and the lease the
/// move is committed under (checked in the same transaction), if any.
#[derive(Clone, Debug)]
pub struct PendingMove {
    /// The game's row after the move.
    pub game: GameRow,
    /// The move.
    pub mv: MoveRow,
    /// The lease the writing node holds on the game.
    pub fence: Option<Fence>,
}

/// A store's way of writing a batch of moves: all of them in one
/// transaction, committed before it returns; an error writes none of them.
#[async_trait]
pub trait MoveWriter: Send + Sync + 'static {
    /// Writes `moves` (of different games) in one transaction and commits.
    async fn write_moves(&self, moves: &[PendingMove]) -> StoreResult<()>;
}

/// One move to store, and where to say it is stored.
type Done = oneshot::Sender<StoreResult<()>>;

/// The handle games write through.
#[derive(Clone)]
pub struct GroupCommit {
    jobs: mpsc::Sender<(PendingMove, Done)>,
}

impl GroupCommit {
    /// Starts the writer over `store` (on the current tokio runtime).
    pub fn start(store: Arc<dyn MoveWriter>) -> GroupCommit {
        let (jobs, rx) = mpsc::channel(QUEUE);
        tokio::spawn(writer(store, rx));
        GroupCommit { jobs }
    }

    /// Stores `mv` with `game`'s row under `fence`; returns once it is committed.
    pub async fn append(
        &self,
        game: &GameRow,
        mv: &MoveRow,
        fence: Option<&Fence>,
    ) -> StoreResult<()> {
        let (done, answer) = oneshot::channel();
        let job = PendingMove {
            game: game.clone(),
            mv: mv.clone(),
            fence: fence.cloned(),
        };
        self.jobs
            .send((job, done))
            .await
            .map_err(|_| anyhow::anyhow!("the move writer has stopped"))?;
        answer
            .await
            .map_err(|_| anyhow::anyhow!("the move writer has stopped"))?
    }
}

/// SQLite's writer: the moves one by one on one connection, one commit.
pub(crate) struct SqliteMoves(pub(crate) sqlx::SqlitePool);

/// Writes one move and its game row on `conn`, if its fence still holds.
async fn write_one(conn: &mut sqlx::SqliteConnection, p: &PendingMove) -> StoreResult<()> {
    let (game, mv) = (&p.game, &p.mv);
    crate::store_cluster::sqlite_fence(conn, &game.id, p.fence.as_ref()).await?;
    sqlx::query(
        "INSERT INTO moves (game_id, ply, seat, mv, clocks, at_ms, draws) VALUES (?, ?, ?, ?, ?, ?, ?)",
    )
    .bind(&game.id)
    .bind(mv.ply)
    .bind(mv.seat)
    .bind(&mv.mv)
    .bind(serde_json::to_string(&mv.clocks)?)
    .bind(mv.at_ms)
    .bind(
        (!mv.draws.is_empty())
            .then(|| serde_json::to_string(&mv.draws))
            .transpose()?,
    )
    .execute(&mut *conn)
    .await?;
    write_game(conn, game, false).await
}

#[async_trait]
impl MoveWriter for SqliteMoves {
    async fn write_moves(&self, moves: &[PendingMove]) -> StoreResult<()> {
        let mut tx = self.0.begin().await?;
        for p in moves {
            write_one(&mut tx, p).await?;
        }
        tx.commit().await?;
        Ok(())
    }
}

async fn writer(store: Arc<dyn MoveWriter>, mut rx: mpsc::Receiver<(PendingMove, Done)>) {
    let mut batch: Vec<PendingMove> = Vec::with_capacity(MAX_BATCH);
    let mut dones: Vec<Done> = Vec::with_capacity(MAX_BATCH);
    while let Some((first, done)) = rx.recv().await {
        batch.push(first);
        dones.push(done);
        while batch.len() < MAX_BATCH {
            match rx.try_recv() {
                Ok((j, d)) => {
                    batch.push(j);
                    dones.push(d);
                }
                Err(_) => break,
            }
        }
        match store.write_moves(&batch).await {
            Ok(()) => {
                for d in dones.drain(..) {
                    let _ = d.send(Ok(()));
                }
            }
            Err(e) if batch.len() == 1 => {
                if let Some(d) = dones.pop() {
                    let _ = d.send(Err(e));
                }
            }
            Err(_) => {
                // One bad move fails alone: the rest are written one by one.
                for (p, d) in batch.iter().zip(dones.drain(..)) {
                    let _ = d.send(store.write_moves(std::slice::from_ref(p)).await);
                }
            }
        }
        batch.clear();
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use crate::store::{SqliteStore, Storage};

    use super::*;

    async fn store_with_games(n: usize) -> (Arc<SqliteStore>, Vec<GameRow>, std::path::PathBuf) {
        let path =
            std::env::temp_dir().join(format!("qiyuan-group-{}-{}.db", std::process::id(), n));
        let _ = std::fs::remove_file(&path);
        let store = SqliteStore::open(&format!("sqlite://{}", path.display()))
            .await
            .expect("store");
        let mut games = Vec::new();
        for i in 0..n {
            sqlx::query(
                "INSERT INTO games (id, rules, initial_ms, increment_ms, rated, seats, status, clocks, created_ms, updated_ms) VALUES (?, 'kind-a', 1000, 0, 0, '[]', 'playing', '[1000,1000]', 1, 1)",
            )
            .bind(format!("g{i}"))
            .execute(&store.pool)
            .await
            .expect("game");
            let (g, _) = store
                .load_game(&format!("g{i}"))
                .await
                .expect("load")
                .expect("game");
            games.push(g);
        }
        (Arc::new(store), games, path)
    }

    fn mv(ply: i64) -> MoveRow {
        MoveRow {
            ply,
            seat: ply % 2,
            mv: format!("m{ply}"),
            clocks: vec![1000, 1000],
            at_ms: 1,
            draws: Vec::new(),
        }
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn moves_of_many_games_are_all_committed_and_a_bad_one_fails_alone() {
        let (store, games, path) = store_with_games(50).await;
        // Fifty games write ten moves each at once: every acknowledged move is stored.
        let mut tasks = Vec::new();
        for g in games.clone() {
            let s = store.clone();
            tasks.push(tokio::spawn(async move {
                for ply in 0..10 {
                    s.append_move(&g, &mv(ply), None).await.expect("stored");
                }
            }));
        }
        for t in tasks {
            t.await.expect("task");
        }
        for g in &games {
            let (_, moves) = store.load_game(&g.id).await.expect("load").expect("game");
            assert_eq!(moves.len(), 10, "{}", g.id);
            assert_eq!(moves[9].mv, "m9");
        }
        // A move that breaks a constraint (ply 3 again) is refused, and the
        // good moves queued beside it are stored all the same.
        let mut tasks = Vec::new();
        for (i, g) in games.iter().cloned().enumerate() {
            let s = store.clone();
            let ply = if i == 7 { 3 } else { 10 };
            tasks.push(tokio::spawn(async move {
                (i, s.append_move(&g, &mv(ply), None).await)
            }));
        }
        for t in tasks {
            let (i, r) = t.await.expect("task");
            assert_eq!(r.is_err(), i == 7, "game {i}: {r:?}");
        }
        for (i, g) in games.iter().enumerate() {
            let (_, moves) = store.load_game(&g.id).await.expect("load").expect("game");
            assert_eq!(moves.len(), if i == 7 { 10 } else { 11 }, "{}", g.id);
        }
        let _ = std::fs::remove_file(&path);
    }
}
