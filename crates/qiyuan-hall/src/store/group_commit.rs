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

use super::{Fence, GameRow, MoveRow, StoreError, StoreResult};

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
            .map_err(|_| StoreError::Stopped)?;
        answer.await.map_err(|_| StoreError::Stopped)?
    }
}

/// SQLite's writer. A database file has a writer thread of its own
/// ([`super::sqlite_writer`]); an in-memory database exists only on the
/// pool's one connection, so it is written there: a batch in two statements
/// (all its moves in one `INSERT`, all its game rows in one `UPDATE …
/// FROM`), one commit, because each statement is a round trip to the
/// connection's thread.
pub(crate) enum SqliteMoves {
    /// The pool's connection (an in-memory database).
    Pool(sqlx::SqlitePool),
    /// The writer thread's own connection (a database file).
    Thread(super::sqlite_writer::ThreadWriter),
}

/// The columns a move can change in its game's row (all but the id and the
/// players, which only a join writes).
const MOVE_GAME_COLUMNS: [&str; 16] = [
    "rules",
    "options",
    "start_fen",
    "initial_ms",
    "increment_ms",
    "rated",
    "seats",
    "status",
    "result",
    "reason",
    "explanation",
    "clocks",
    "created_ms",
    "updated_ms",
    "rematch_of",
    "placings",
];

/// The JSON columns of one pending move, serialized before binding.
pub(crate) struct Encoded {
    pub(crate) mv_clocks: String,
    pub(crate) mv_draws: Option<String>,
    pub(crate) options: String,
    pub(crate) seats: String,
    pub(crate) clocks: String,
    pub(crate) placings: Option<String>,
}

impl Encoded {
    pub(crate) fn of(p: &PendingMove) -> StoreResult<Encoded> {
        let (g, mv) = (&p.game, &p.mv);
        Ok(Encoded {
            mv_clocks: serde_json::to_string(&mv.clocks)?,
            mv_draws: (!mv.draws.is_empty())
                .then(|| serde_json::to_string(&mv.draws))
                .transpose()?,
            options: serde_json::to_string(&g.options)?,
            seats: serde_json::to_string(&g.seats)?,
            clocks: serde_json::to_string(&g.clocks)?,
            placings: g.placings.as_ref().map(serde_json::to_string).transpose()?,
        })
    }
}

/// Writes `moves` (each of a different game) and their game rows on
/// `conn`, if every fence still holds.
async fn write_batch(conn: &mut sqlx::SqliteConnection, moves: &[PendingMove]) -> StoreResult<()> {
    use sqlx::{QueryBuilder, Sqlite};
    for p in moves {
        super::SqliteStore::check_fence(conn, &p.game.id, p.fence.as_ref()).await?;
    }
    let encoded = moves
        .iter()
        .map(Encoded::of)
        .collect::<StoreResult<Vec<_>>>()?;
    let rows = moves.iter().zip(&encoded);
    let mut insert = QueryBuilder::<Sqlite>::new(
        "INSERT INTO moves (game_id, ply, seat, mv, clocks, at_ms, draws) ",
    );
    insert.push_values(rows.clone(), |mut b, (p, e)| {
        b.push_bind(&p.game.id)
            .push_bind(p.mv.ply)
            .push_bind(p.mv.seat)
            .push_bind(&p.mv.mv)
            .push_bind(&e.mv_clocks)
            .push_bind(p.mv.at_ms)
            .push_bind(&e.mv_draws);
    });
    insert.build().execute(&mut *conn).await?;
    let mut update =
        QueryBuilder::<Sqlite>::new(format!("WITH v(id, {}) AS (", MOVE_GAME_COLUMNS.join(", ")));
    update.push_values(rows, |mut b, (p, e)| {
        let g = &p.game;
        b.push_bind(&g.id)
            .push_bind(&g.rules)
            .push_bind(&e.options)
            .push_bind(&g.start_fen)
            .push_bind(g.initial_ms)
            .push_bind(g.increment_ms)
            .push_bind(i64::from(g.rated))
            .push_bind(&e.seats)
            .push_bind(&g.status)
            .push_bind(&g.result)
            .push_bind(&g.reason)
            .push_bind(&g.explanation)
            .push_bind(&e.clocks)
            .push_bind(g.created_ms)
            .push_bind(g.updated_ms)
            .push_bind(&g.rematch_of)
            .push_bind(&e.placings);
    });
    let set: Vec<String> = MOVE_GAME_COLUMNS
        .iter()
        .map(|c| format!("{c} = v.{c}"))
        .collect();
    update.push(format!(
        ") UPDATE games SET {} FROM v WHERE games.id = v.id",
        set.join(", ")
    ));
    update.build().execute(&mut *conn).await?;
    Ok(())
}

#[async_trait]
impl MoveWriter for SqliteMoves {
    async fn write_moves(&self, moves: &[PendingMove]) -> StoreResult<()> {
        let pool = match self {
            SqliteMoves::Thread(thread) => return thread.write(moves).await,
            SqliteMoves::Pool(pool) => pool,
        };
        let mut tx = pool.begin().await?;
        // One statement per batch needs one row per game: a batch that
        // held a game twice would leave its row to chance.
        let mut ids: Vec<&str> = moves.iter().map(|p| p.game.id.as_str()).collect();
        ids.sort_unstable();
        if ids.windows(2).any(|w| w[0] == w[1]) {
            for p in moves {
                write_batch(&mut tx, std::slice::from_ref(p)).await?;
            }
        } else if !moves.is_empty() {
            write_batch(&mut tx, moves).await?;
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

    use crate::store::{GameStore, SqliteStore};

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

    #[tokio::test]
    async fn one_batch_writes_each_games_row_and_a_game_twice_keeps_its_last() {
        // The writer thread of a database file, and the pool's connection
        // (an in-memory database's way) on another file: the same rows.
        for on_thread in [true, false] {
            // (Four games on the thread: the file is named by the count.)
            let (store, games, path) = store_with_games(3 + usize::from(on_thread)).await;
            let writer = if on_thread {
                SqliteMoves::Thread(
                    super::super::sqlite_writer::ThreadWriter::open(&path).expect("writer thread"),
                )
            } else {
                SqliteMoves::Pool(store.pool.clone())
            };
            batch_rows(&store, &games, &writer).await;
            let _ = std::fs::remove_file(&path);
        }
    }

    async fn batch_rows(store: &SqliteStore, games: &[GameRow], writer: &SqliteMoves) {
        let pending = |g: &GameRow, ply: i64, clock: i64, status: &str| {
            let mut game = g.clone();
            game.clocks = vec![clock, clock + 1];
            game.status = status.into();
            game.result = (status == "finished").then(|| "1-0".to_string());
            game.placings = (status == "finished").then(|| vec![vec![0], vec![1]]);
            game.updated_ms = 1000 + ply;
            PendingMove {
                game,
                mv: mv(ply),
                fence: None,
            }
        };
        // Three games in one batch: each row is its own.
        let batch: Vec<PendingMove> = games
            .iter()
            .take(3)
            .enumerate()
            .map(|(i, g)| {
                pending(
                    g,
                    0,
                    500 + i as i64,
                    if i == 2 { "finished" } else { "playing" },
                )
            })
            .collect();
        writer.write_moves(&batch).await.expect("batch");
        for (i, g) in games.iter().take(3).enumerate() {
            let (row, moves) = store.load_game(&g.id).await.expect("load").expect("game");
            assert_eq!(row, batch[i].game, "{}", g.id);
            assert_eq!(moves.len(), 1);
            assert_eq!(moves[0].clocks, mv(0).clocks);
        }
        // One game twice in a batch: both moves stored, the row is the last.
        let twice = [
            pending(&games[0], 1, 400, "playing"),
            pending(&games[0], 2, 300, "finished"),
        ];
        writer.write_moves(&twice).await.expect("batch");
        let (row, moves) = store
            .load_game(&games[0].id)
            .await
            .expect("load")
            .expect("game");
        assert_eq!(row, twice[1].game);
        assert_eq!(moves.iter().map(|m| m.ply).collect::<Vec<_>>(), [0, 1, 2]);
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
