//! Every statement of the stores, written once: SQLite's spelling with
//! numbered parameters (`?1`), in the subset both databases read alike
//! (`ON CONFLICT … DO …` rather than `INSERT OR …`, `RETURNING`, integers
//! cast to `BIGINT` where PostgreSQL would answer a narrower type).
//! [`super::dialect::Dialect::sql`] gives a backend its spelling.

/// A game row's columns, in the order the statements below bind them.
macro_rules! game_columns {
    () => {
        "id, rules, options, start_fen, initial_ms, increment_ms, rated, seats, status, result, reason, explanation, clocks, created_ms, updated_ms, rematch_of, placings"
    };
}

/// The idle guests of the cutoff `?1`: never sat in a game, no challenge,
/// no preset (a statement's opening, completed below).
macro_rules! idle_guests {
    () => {
        "SELECT u.id FROM users u WHERE u.guest = 1 AND u.created_ms < ?1 \
         AND NOT EXISTS (SELECT 1 FROM game_players p WHERE p.user_id = u.id) \
         AND NOT EXISTS (SELECT 1 FROM challenges c WHERE c.user_id = u.id) \
         AND NOT EXISTS (SELECT 1 FROM presets r WHERE r.user_id = u.id)"
    };
}

// Accounts and sessions.

/// Creates a user unless the name (key) is taken (name, key, hash, guest, now).
/// Makes a registered user who never sat in a game a bot (user).
pub(crate) const USER_MAKE_BOT: &str = "UPDATE users SET bot = 1 WHERE id = ?1 AND guest = 0 \
     AND NOT EXISTS (SELECT 1 FROM game_players p WHERE p.user_id = ?1)";
pub(crate) const USER_INSERT: &str = "INSERT INTO users (username, name_key, password_hash, guest, created_ms) \
     VALUES (?1, ?2, ?3, ?4, ?5) ON CONFLICT DO NOTHING RETURNING id";
/// A user by name key, the exact name first (key, name).
pub(crate) const USER_BY_NAME: &str = "SELECT id, username, password_hash, guest, bot FROM users \
     WHERE name_key = ?1 OR username = ?2 ORDER BY username = ?2 DESC LIMIT 1";
/// Registered (not guest) user names starting with a prefix, case folded,
/// for the page's player pickers (a lower-cased LIKE pattern escaped with a
/// backslash, limit). SQLite folds ASCII only, PostgreSQL every letter.
pub(crate) const USERS_BY_PREFIX: &str = "SELECT username FROM users \
     WHERE guest = 0 AND lower(username) LIKE ?1 ESCAPE '\\' ORDER BY lower(username), username LIMIT ?2";
/// Users made before name keys existed (SQLite only: PostgreSQL stores began with keys).
pub(crate) const USERS_WITHOUT_KEY: &str = "SELECT id, username FROM users WHERE name_key IS NULL";
/// Gives an old user its key unless another has it (key, id; SQLite only).
pub(crate) const USER_KEY_FILL: &str = "UPDATE OR IGNORE users SET name_key = ?1 WHERE id = ?2";
/// A new session (token, user, now, public id, expires, agent).
pub(crate) const SESSION_INSERT: &str = "INSERT INTO sessions (token, user_id, created_ms, id, expires_ms, last_seen_ms, agent) \
     VALUES (?1, ?2, ?3, ?4, ?5, ?3, ?6)";
/// Drops a user's sessions beyond the newest few (user, keep).
pub(crate) const SESSIONS_TRIM: &str = "DELETE FROM sessions WHERE user_id = ?1 AND token NOT IN \
     (SELECT token FROM sessions WHERE user_id = ?1 ORDER BY last_seen_ms DESC, created_ms DESC, rowid DESC LIMIT ?2)";
/// The user of an unexpired session, with its expiry (token, now).
pub(crate) const SESSION_USER: &str = "SELECT u.id, u.username, u.password_hash, u.guest, u.bot, s.expires_ms \
     FROM sessions s JOIN users u ON u.id = s.user_id WHERE s.token = ?1 AND s.expires_ms > ?2";
/// Renews a session (expires, now, token).
pub(crate) const SESSION_RENEW: &str =
    "UPDATE sessions SET expires_ms = ?1, last_seen_ms = ?2 WHERE token = ?3";
/// Logs a session out (token).
pub(crate) const SESSION_DELETE: &str = "DELETE FROM sessions WHERE token = ?1";
/// A user's unexpired sessions, `current` marking one token (token, user, now).
pub(crate) const SESSIONS_OF: &str = "SELECT id, created_ms, last_seen_ms, expires_ms, agent, \
     CAST(CASE WHEN token = ?1 THEN 1 ELSE 0 END AS BIGINT) AS current \
     FROM sessions WHERE user_id = ?2 AND expires_ms > ?3 ORDER BY last_seen_ms DESC";
/// Revokes a session by public id (user, id).
pub(crate) const SESSION_REVOKE: &str = "DELETE FROM sessions WHERE user_id = ?1 AND id = ?2";
/// Revokes a user's other sessions (user, token kept).
pub(crate) const SESSIONS_REVOKE_OTHERS: &str =
    "DELETE FROM sessions WHERE user_id = ?1 AND token <> ?2";
/// Deletes expired sessions (now).
pub(crate) const SESSIONS_EXPIRED: &str = "DELETE FROM sessions WHERE expires_ms <= ?1";
/// The sessions of idle guests not used since the cutoff (cutoff).
pub(crate) const IDLE_GUEST_SESSIONS: &str = concat!(
    "DELETE FROM sessions WHERE user_id IN (",
    idle_guests!(),
    " AND NOT EXISTS (SELECT 1 FROM sessions s WHERE s.user_id = u.id AND s.last_seen_ms >= ?1))"
);
/// Idle guests left without a session (cutoff).
pub(crate) const IDLE_GUEST_USERS: &str = concat!(
    "DELETE FROM users WHERE id IN (",
    idle_guests!(),
    " AND NOT EXISTS (SELECT 1 FROM sessions s WHERE s.user_id = u.id))"
);

// Presets.

/// A user's presets (user).
pub(crate) const PRESETS_OF: &str =
    "SELECT kind, name, text, on_timeout FROM presets WHERE user_id = ?1 ORDER BY kind, name";
/// Clears the timeout mark of a user's presets of a kind (user, kind).
pub(crate) const PRESETS_UNMARK: &str =
    "UPDATE presets SET on_timeout = 0 WHERE user_id = ?1 AND kind = ?2";
/// Saves a preset (user, kind, name, text, on timeout, now).
pub(crate) const PRESET_SAVE: &str = "INSERT INTO presets (user_id, kind, name, text, on_timeout, updated_ms) \
     VALUES (?1, ?2, ?3, ?4, ?5, ?6) ON CONFLICT (user_id, kind, name) DO UPDATE SET \
     text = excluded.text, on_timeout = excluded.on_timeout, updated_ms = excluded.updated_ms";
/// Deletes a preset (user, kind, name).
pub(crate) const PRESET_DELETE: &str =
    "DELETE FROM presets WHERE user_id = ?1 AND kind = ?2 AND name = ?3";
/// The text of the preset played on timeout (user, kind).
pub(crate) const PRESET_ON_TIMEOUT: &str =
    "SELECT text FROM presets WHERE user_id = ?1 AND kind = ?2 AND on_timeout = 1";

// Games and moves.

/// A game row's columns (the PostgreSQL batch writer names them).
pub(crate) const GAME_COLUMNS: &str = game_columns!();
/// Inserts a game row, columns in [`GAME_COLUMNS`] order.
pub(crate) const GAME_INSERT: &str = concat!(
    "INSERT INTO games (",
    game_columns!(),
    ") VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17)"
);
/// Writes every column of a game's row but the id (`?1`), in
/// [`GAME_COLUMNS`] order.
pub(crate) const GAME_UPDATE: &str = "UPDATE games SET rules = ?2, options = ?3, start_fen = ?4, initial_ms = ?5, \
     increment_ms = ?6, rated = ?7, seats = ?8, status = ?9, result = ?10, reason = ?11, explanation = ?12, \
     clocks = ?13, created_ms = ?14, updated_ms = ?15, rematch_of = ?16, placings = ?17 WHERE id = ?1";
/// Who played which game, for profiles (game, user).
pub(crate) const GAME_PLAYER: &str =
    "INSERT INTO game_players (game_id, user_id) VALUES (?1, ?2) ON CONFLICT DO NOTHING";
/// A game row (id).
pub(crate) const GAME_BY_ID: &str =
    concat!("SELECT ", game_columns!(), " FROM games WHERE id = ?1");
/// Every game not finished.
pub(crate) const GAMES_UNFINISHED: &str = concat!(
    "SELECT ",
    game_columns!(),
    " FROM games WHERE status <> 'finished'"
);
/// Finished rated games of a variant, oldest first, after the game created
/// at `?2` with id `?3` (rules, created, id, limit).
pub(crate) const GAMES_FINISHED_RATED: &str = concat!(
    "SELECT ",
    game_columns!(),
    " FROM games WHERE rules = ?1 AND status = 'finished' AND rated <> 0 \
     AND (created_ms > ?2 OR (created_ms = ?2 AND id > ?3)) ORDER BY created_ms, id LIMIT ?4"
);
/// A user's games, newest first (user, limit).
pub(crate) const GAMES_OF_USER: &str = "SELECT g.id, g.rules, g.options, g.start_fen, g.initial_ms, g.increment_ms, \
     g.rated, g.seats, g.status, g.result, g.reason, g.explanation, g.clocks, g.created_ms, g.updated_ms, \
     g.rematch_of, g.placings FROM games g JOIN game_players p ON p.game_id = g.id \
     WHERE p.user_id = ?1 ORDER BY g.created_ms DESC LIMIT ?2";
/// Ids of a user's unfinished games, latest change first (user, limit).
pub(crate) const GAMES_UNFINISHED_OF: &str = "SELECT g.id FROM games g JOIN game_players p ON p.game_id = g.id \
     WHERE p.user_id = ?1 AND g.status <> 'finished' ORDER BY g.updated_ms DESC LIMIT ?2";
/// A user's unfinished games with an AI seat (user).
pub(crate) const AI_GAMES_IN_PLAY: &str = "SELECT COUNT(*) FROM games g JOIN game_players p ON p.game_id = g.id \
     WHERE p.user_id = ?1 AND g.status <> 'finished' AND g.seats LIKE '%\"kind\":\"ai\"%'";
/// A game's moves in order (game).
pub(crate) const MOVES_OF: &str =
    "SELECT ply, seat, mv, clocks, at_ms, draws FROM moves WHERE game_id = ?1 ORDER BY ply";
/// One move (game, ply, seat, move, clocks, at, draws).
pub(crate) const MOVE_INSERT: &str = "INSERT INTO moves (game_id, ply, seat, mv, clocks, at_ms, draws) \
     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)";
/// The moves a takeback removes (game, from ply).
pub(crate) const MOVES_TAKEN: &str =
    "SELECT ply, seat, mv FROM moves WHERE game_id = ?1 AND ply >= ?2 ORDER BY ply";
/// Records a takeback (game, from ply, by seat, moves, at).
pub(crate) const TAKEBACK_INSERT: &str = "INSERT INTO takebacks (game_id, from_ply, by_seat, moves, at_ms) \
     VALUES (?1, ?2, ?3, ?4, ?5)";
/// Removes the moves taken back (game, from ply).
pub(crate) const MOVES_DELETE_FROM: &str = "DELETE FROM moves WHERE game_id = ?1 AND ply >= ?2";
/// A game's takebacks (game).
pub(crate) const TAKEBACK_COUNT: &str = "SELECT COUNT(*) FROM takebacks WHERE game_id = ?1";
/// Saves a game's hidden set-up (game, set-up).
pub(crate) const SETUP_SAVE: &str = "INSERT INTO game_setups (game_id, setup) VALUES (?1, ?2) \
     ON CONFLICT (game_id) DO UPDATE SET setup = excluded.setup, base = 1";
/// A game's hidden set-up (game).
pub(crate) const SETUP_OF: &str = "SELECT setup FROM game_setups WHERE game_id = ?1";

// Rooms and challenges.

/// Whether a game is still a room waiting for players (game).
pub(crate) const ROOM_IS_WAITING: &str =
    "SELECT COUNT(*) FROM games WHERE id = ?1 AND status = 'waiting'";
/// What a room that never started holds besides its row, in delete order (game).
pub(crate) const ROOM_PARTS: [&str; 3] = [
    "DELETE FROM challenges WHERE game_id = ?1",
    "DELETE FROM game_setups WHERE game_id = ?1",
    "DELETE FROM game_players WHERE game_id = ?1",
];
/// The room's row (game).
pub(crate) const ROOM_ROW: &str = "DELETE FROM games WHERE id = ?1 AND status = 'waiting'";
/// Reserves a room's open seat (game, user, now).
pub(crate) const CHALLENGE_SAVE: &str = "INSERT INTO challenges (game_id, user_id, at_ms) VALUES (?1, ?2, ?3) \
     ON CONFLICT (game_id) DO UPDATE SET user_id = excluded.user_id, at_ms = excluded.at_ms";
/// Whom a room's seat is reserved for (game).
pub(crate) const CHALLENGE_OF: &str = "SELECT c.user_id, u.username FROM challenges c \
     JOIN users u ON u.id = c.user_id WHERE c.game_id = ?1";
/// Waiting rooms reserved for a user, newest first (user, limit).
pub(crate) const CHALLENGES_FOR: &str = "SELECT c.game_id FROM challenges c JOIN games g ON g.id = c.game_id \
     WHERE c.user_id = ?1 AND g.status = 'waiting' ORDER BY c.at_ms DESC LIMIT ?2";

// Conduct.

/// Adds a foul (game, seat).
pub(crate) const FOUL_ADD: &str = "INSERT INTO game_fouls (game_id, seat, fouls) VALUES (?1, ?2, 1) \
     ON CONFLICT (game_id, seat) DO UPDATE SET fouls = game_fouls.fouls + 1";
/// A game's fouls by seat (game).
pub(crate) const FOULS_OF: &str =
    "SELECT seat, fouls FROM game_fouls WHERE game_id = ?1 ORDER BY seat";
/// Stores a reported message (game, reporter, author, text, sent, now).
pub(crate) const CHAT_REPORT_INSERT: &str = "INSERT INTO chat_reports (game_id, reporter_id, author_id, text, sent_ms, at_ms) \
     VALUES (?1, ?2, ?3, ?4, ?5, ?6)";
/// A game's reported messages (game).
pub(crate) const CHAT_REPORTS_OF: &str = "SELECT game_id, reporter_id, author_id, text, sent_ms \
     FROM chat_reports WHERE game_id = ?1 ORDER BY id";

// Ratings.

/// A user's rating in a family (user, family).
pub(crate) const RATING: &str =
    "SELECT value, rated_games, reached_top FROM ratings WHERE user_id = ?1 AND family = ?2";
/// A user's multi-player rating in a family (user, family).
pub(crate) const MULTI_RATING: &str =
    "SELECT value, deviation, rated_games FROM ratings WHERE user_id = ?1 AND family = ?2";
/// Every rating of a user (user).
pub(crate) const RATINGS_OF: &str = "SELECT family, value, rated_games, reached_top FROM ratings \
     WHERE user_id = ?1 ORDER BY family";
/// Whether a game was rated before (game).
pub(crate) const RATED_BEFORE: &str = "SELECT COUNT(*) FROM rating_history WHERE game_id = ?1";
/// Sets a rating (user, family, value, games, reached top, now, deviation).
pub(crate) const RATING_SAVE: &str = "INSERT INTO ratings (user_id, family, value, rated_games, reached_top, updated_ms, deviation) \
     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7) ON CONFLICT (user_id, family) DO UPDATE SET \
     value = ?3, rated_games = ?4, reached_top = ?5, updated_ms = ?6, deviation = ?7";
/// A rating's history row (user, family, game, before, after, now).
pub(crate) const RATING_HISTORY_INSERT: &str = "INSERT INTO rating_history (user_id, family, game_id, before, after, at_ms) \
     VALUES (?1, ?2, ?3, ?4, ?5, ?6)";
/// The best-rated registered players of a family (family, limit).
pub(crate) const LEADERBOARD: &str = "SELECT u.username, r.value, r.rated_games, r.reached_top \
     FROM ratings r JOIN users u ON u.id = r.user_id \
     WHERE r.family = ?1 AND u.guest = 0 ORDER BY r.value DESC, u.username LIMIT ?2";
/// A user's rating chart (user).
pub(crate) const RATING_HISTORY: &str = "SELECT family, game_id, after, at_ms FROM rating_history \
     WHERE user_id = ?1 ORDER BY at_ms, rowid";
/// The rating changes of one game (game).
pub(crate) const GAME_RATING_CHANGES: &str = "SELECT h.user_id, u.username, h.family, h.before, h.after \
     FROM rating_history h JOIN users u ON u.id = h.user_id WHERE h.game_id = ?1 ORDER BY h.rowid";

// Points ledgers.

/// Whether a game's points were settled (game).
pub(crate) const POINTS_SETTLED: &str = "SELECT COUNT(*) FROM game_points WHERE game_id = ?1";
/// One user's points from a game (game, user, family, delta, now).
pub(crate) const POINTS_INSERT: &str = "INSERT INTO game_points (game_id, user_id, family, delta, at_ms) \
     VALUES (?1, ?2, ?3, ?4, ?5)";
/// A user's balance (user, family).
pub(crate) const POINTS_BALANCE: &str = "SELECT CAST(SUM(delta) AS BIGINT) FROM game_points \
     WHERE user_id = ?1 AND family = ?2";
/// The highest balances of a family (family, limit).
pub(crate) const POINTS_LEADERBOARD: &str = "SELECT u.username AS username, CAST(SUM(p.delta) AS BIGINT) AS points \
     FROM game_points p JOIN users u ON u.id = p.user_id WHERE p.family = ?1 \
     GROUP BY u.id, u.username ORDER BY points DESC, u.username LIMIT ?2";

// Events.

/// Saves an event's state (id, status, data, now).
pub(crate) const EVENT_SAVE: &str = "INSERT INTO events (id, status, data, created_ms, updated_ms) \
     VALUES (?1, ?2, ?3, ?4, ?4) ON CONFLICT (id) DO UPDATE SET status = ?2, data = ?3, updated_ms = ?4";
/// Every event, oldest first (ties by id, so pages neither repeat nor skip one).
pub(crate) const EVENTS: &str = "SELECT id, data FROM events ORDER BY created_ms, id";

// Leases and nodes (issue 17; see `cluster::lease` for what they are for).

/// Takes or renews a lease (game, owner, now, ttl); returns the token when
/// granted.
pub(crate) const LEASE: &str = "INSERT INTO leases (game_id, owner, token, expires_ms) VALUES (?1, ?2, 1, ?3 + ?4) \
     ON CONFLICT (game_id) DO UPDATE SET \
     token = CASE WHEN leases.owner = excluded.owner THEN leases.token ELSE leases.token + 1 END, \
     owner = excluded.owner, expires_ms = excluded.expires_ms \
     WHERE leases.owner = excluded.owner OR leases.expires_ms <= ?3 \
     RETURNING token";
/// Ends a lease now (game, owner).
pub(crate) const RELEASE: &str =
    "UPDATE leases SET expires_ms = 0 WHERE game_id = ?1 AND owner = ?2";
/// Whether a lease still carries `owner` and `token` (game, owner, token).
pub(crate) const LEASE_HELD: &str =
    "SELECT 1 FROM leases WHERE game_id = ?1 AND owner = ?2 AND token = ?3";
/// The holder of an unexpired lease (game, now).
pub(crate) const HOLDER: &str = "SELECT l.owner, n.addr FROM leases l JOIN nodes n ON n.id = l.owner \
     WHERE l.game_id = ?1 AND l.expires_ms > ?2";
/// Unfinished games with no running lease (now, limit).
pub(crate) const ORPHANS: &str = "SELECT g.id FROM games g LEFT JOIN leases l ON l.game_id = g.id \
     WHERE g.status <> 'finished' AND (l.game_id IS NULL OR l.expires_ms <= ?1) \
     ORDER BY g.updated_ms LIMIT ?2";
/// Records a node (id, addr, now).
pub(crate) const NODE: &str = "INSERT INTO nodes (id, addr, seen_ms) VALUES (?1, ?2, ?3) \
     ON CONFLICT (id) DO UPDATE SET addr = excluded.addr, seen_ms = excluded.seen_ms";
/// Claims node `id` at `addr` (id, addr, now, stale before): granted when
/// the id is new or its registration was last seen before `?4`.
pub(crate) const NODE_CLAIM: &str = "INSERT INTO nodes (id, addr, seen_ms) VALUES (?1, ?2, ?3) \
     ON CONFLICT (id) DO UPDATE SET addr = excluded.addr, seen_ms = excluded.seen_ms \
     WHERE nodes.seen_ms < ?4 \
     RETURNING seen_ms";
/// A player waits in a pool (user, pool, name, guest, rating, node, now):
/// one row per user, so joining another pool moves them.
pub(crate) const POOL_JOIN: &str = "INSERT INTO pool_entries \
     (user_id, pool, username, guest, rating, node, since_ms, seen_ms) \
     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?7) ON CONFLICT (user_id) DO UPDATE SET \
     pool = excluded.pool, username = excluded.username, guest = excluded.guest, \
     rating = excluded.rating, node = excluded.node, since_ms = CASE WHEN pool_entries.pool = excluded.pool \
     THEN pool_entries.since_ms ELSE excluded.since_ms END, seen_ms = excluded.seen_ms";
/// A player leaves the pools (user).
pub(crate) const POOL_LEAVE: &str = "DELETE FROM pool_entries WHERE user_id = ?1";
/// A player is still here (user, now).
pub(crate) const POOL_SEEN: &str = "UPDATE pool_entries SET seen_ms = ?2 WHERE user_id = ?1";
/// Players gone for the grace leave (stale before).
pub(crate) const POOL_PURGE: &str = "DELETE FROM pool_entries WHERE seen_ms < ?1";
/// Everyone waiting, oldest first.
pub(crate) const POOL_ENTRIES: &str = "SELECT user_id, pool, username, guest, rating, node, since_ms \
     FROM pool_entries ORDER BY since_ms, user_id";
/// Where node `id` is and when it was seen (id).
pub(crate) const NODE_SEEN: &str = "SELECT addr, seen_ms FROM nodes WHERE id = ?1";
/// A heartbeat (id, last, now): only if the row is still the one written.
pub(crate) const NODE_BEAT: &str = "UPDATE nodes SET seen_ms = ?3 WHERE id = ?1 AND seen_ms = ?2";
/// Ends the leases of node `id` and moves their tokens on (id): whatever
/// an earlier process with this id still holds no longer commits.
pub(crate) const NODE_FENCE_OFF: &str =
    "UPDATE leases SET token = token + 1, expires_ms = 0 WHERE owner = ?1";
/// Forgets nodes not seen since `?1` that hold no running lease (before, now).
pub(crate) const NODES_PURGE: &str = "DELETE FROM nodes WHERE seen_ms < ?1 \
     AND id NOT IN (SELECT owner FROM leases WHERE expires_ms > ?2)";

// Puzzles (issue 40).

/// A puzzle's columns, as the statements below read them.
macro_rules! puzzle_columns {
    () => {
        "id, variant, fen, moves, themes, rating, deviation, volatility, plays"
    };
}

/// Loads a shipped puzzle, or rewrites its position, moves and themes while
/// keeping its rating and plays (id, variant, fen, moves, themes, rating,
/// deviation, volatility).
pub(crate) const PUZZLE_UPSERT: &str = "INSERT INTO puzzles (id, variant, fen, moves, themes, rating, deviation, volatility, plays) \
     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, 0) ON CONFLICT (id) DO UPDATE SET \
     variant = excluded.variant, fen = excluded.fen, moves = excluded.moves, themes = excluded.themes";
/// One puzzle (id).
pub(crate) const PUZZLE_BY_ID: &str =
    concat!("SELECT ", puzzle_columns!(), " FROM puzzles WHERE id = ?1");
/// The puzzles of a variant closest to a rating with three themes (each a
/// LIKE pattern, `%` for none), leaving out those the user attempted
/// (variant, rating, user or 0, theme, theme, theme, limit).
pub(crate) const PUZZLES_NEAR: &str = concat!(
    "SELECT ",
    puzzle_columns!(),
    " FROM puzzles p WHERE p.variant = ?1 AND p.themes LIKE ?4 AND p.themes LIKE ?5 AND p.themes LIKE ?6 \
     AND NOT EXISTS (SELECT 1 FROM puzzle_attempts a WHERE a.user_id = ?3 AND a.puzzle_id = p.id) \
     ORDER BY abs(p.rating - ?2), p.id LIMIT ?7"
);
/// How many puzzles a variant has (variant).
pub(crate) const PUZZLE_COUNT: &str =
    "SELECT CAST(COUNT(*) AS BIGINT) FROM puzzles WHERE variant = ?1";
/// The puzzle at a place in a variant's list by id (variant, offset).
pub(crate) const PUZZLE_AT: &str = concat!(
    "SELECT ",
    puzzle_columns!(),
    " FROM puzzles WHERE variant = ?1 ORDER BY id LIMIT 1 OFFSET ?2"
);
/// A user's puzzle rating in a variant (user, variant).
pub(crate) const PUZZLE_RATING: &str = "SELECT rating, deviation, volatility, plays FROM puzzle_ratings \
     WHERE user_id = ?1 AND variant = ?2";
/// Whether a user attempted a puzzle (user, puzzle).
pub(crate) const PUZZLE_ATTEMPTED: &str =
    "SELECT CAST(COUNT(*) AS BIGINT) FROM puzzle_attempts WHERE user_id = ?1 AND puzzle_id = ?2";
/// Records an attempt once (user, puzzle, variant, win, rating after, now).
pub(crate) const PUZZLE_ATTEMPT_INSERT: &str = "INSERT INTO puzzle_attempts (user_id, puzzle_id, variant, win, rating_after, at_ms) \
     VALUES (?1, ?2, ?3, ?4, ?5, ?6) ON CONFLICT DO NOTHING";
/// Sets a user's puzzle rating (user, variant, rating, deviation, volatility, plays, now).
pub(crate) const PUZZLE_RATING_SAVE: &str = "INSERT INTO puzzle_ratings (user_id, variant, rating, deviation, volatility, plays, updated_ms) \
     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7) ON CONFLICT (user_id, variant) DO UPDATE SET \
     rating = excluded.rating, deviation = excluded.deviation, volatility = excluded.volatility, \
     plays = excluded.plays, updated_ms = excluded.updated_ms";
/// A puzzle's new rating after an attempt (id, rating, deviation, volatility).
pub(crate) const PUZZLE_RATE: &str = "UPDATE puzzles SET rating = ?2, deviation = ?3, volatility = ?4, \
     plays = plays + 1 WHERE id = ?1";
/// A user's latest attempts, newest first (user, variant or empty for all, limit).
pub(crate) const PUZZLE_HISTORY: &str = "SELECT puzzle_id, variant, win, rating_after, at_ms FROM puzzle_attempts \
     WHERE user_id = ?1 AND (?2 = '' OR variant = ?2) ORDER BY at_ms DESC, rowid DESC LIMIT ?3";

// Studies, the opening explorer and games' openings (issue 39).

/// Saves a new study (id, user, name, variant, tree, now).
pub(crate) const STUDY_INSERT: &str = "INSERT INTO studies (id, user_id, name, variant, tree, created_ms, updated_ms) \
     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?6)";
/// How many studies a user keeps (user).
pub(crate) const STUDY_COUNT: &str = "SELECT COUNT(*) AS n FROM studies WHERE user_id = ?1";
/// A user's studies without their trees, latest change first (user, limit).
pub(crate) const STUDIES_OF: &str = "SELECT s.id, s.user_id, u.username, s.name, s.variant, s.created_ms, s.updated_ms \
     FROM studies s JOIN users u ON u.id = s.user_id WHERE s.user_id = ?1 \
     ORDER BY s.updated_ms DESC, s.id LIMIT ?2";
/// One study with its tree (id).
pub(crate) const STUDY_BY_ID: &str = "SELECT s.id, s.user_id, u.username, s.name, s.variant, s.tree, s.created_ms, s.updated_ms \
     FROM studies s JOIN users u ON u.id = s.user_id WHERE s.id = ?1";
/// Renames and/or rewrites the owner's study (id, user, name or null, tree or null, now).
pub(crate) const STUDY_UPDATE: &str = "UPDATE studies SET name = COALESCE(?3, name), tree = COALESCE(?4, tree), \
     updated_ms = ?5 WHERE id = ?1 AND user_id = ?2";
/// Deletes the owner's study (id, user).
pub(crate) const STUDY_DELETE: &str = "DELETE FROM studies WHERE id = ?1 AND user_id = ?2";
/// Marks a finished game as read for the explorer (game); no row if it was.
pub(crate) const GAME_INDEXED: &str =
    "INSERT INTO games_indexed (game_id) VALUES (?1) ON CONFLICT DO NOTHING";
/// One move of a finished game (variant, position, move, game, score, rating).
pub(crate) const EXPLORER_INSERT: &str = "INSERT INTO explorer_moves (variant, position, mv, game_id, score, rating) \
     VALUES (?1, ?2, ?3, ?4, ?5, ?6)";
/// The named opening a finished game reached (game, code, name, English name).
pub(crate) const OPENING_INSERT: &str = "INSERT INTO game_openings (game_id, code, name, name_en) \
     VALUES (?1, ?2, ?3, ?4) ON CONFLICT DO NOTHING";
/// The moves played from a position, most played first (variant, position, limit).
pub(crate) const EXPLORER_MOVES: &str = "SELECT mv, COUNT(*) AS games, \
     SUM(CASE WHEN score = 2 THEN 1 ELSE 0 END) AS wins, \
     SUM(CASE WHEN score = 1 THEN 1 ELSE 0 END) AS draws, \
     SUM(CASE WHEN score = 0 THEN 1 ELSE 0 END) AS losses, AVG(rating) AS rating \
     FROM explorer_moves WHERE variant = ?1 AND position = ?2 \
     GROUP BY mv ORDER BY COUNT(*) DESC, mv LIMIT ?3";
/// Finished games not read yet, latest first (limit).
pub(crate) const GAMES_UNINDEXED: &str = "SELECT g.id FROM games g WHERE g.status = 'finished' \
     AND NOT EXISTS (SELECT 1 FROM games_indexed i WHERE i.game_id = g.id) \
     ORDER BY g.updated_ms DESC LIMIT ?1";
/// A user's latest finished games with a named opening (user, limit).
pub(crate) const OPENINGS_OF_USER: &str = "SELECT g.id, g.rules, g.options, g.start_fen, g.initial_ms, g.increment_ms, \
     g.rated, g.seats, g.status, g.result, g.reason, g.explanation, g.clocks, g.created_ms, g.updated_ms, \
     g.rematch_of, g.placings, o.code AS opening_code, o.name AS opening_name, o.name_en AS opening_name_en \
     FROM games g JOIN game_players p ON p.game_id = g.id JOIN game_openings o ON o.game_id = g.id \
     WHERE p.user_id = ?1 AND g.status = 'finished' ORDER BY g.updated_ms DESC LIMIT ?2";

#[cfg(test)]
mod tests {
    use super::*;

    /// PostgreSQL reads a statement after `?N` becomes `$N`: a bare `?`
    /// (or one inside a literal) would break only there.
    #[test]
    fn every_statement_numbers_its_parameters() {
        let all = [
            USER_INSERT,
            USER_MAKE_BOT,
            USER_BY_NAME,
            USERS_BY_PREFIX,
            USERS_WITHOUT_KEY,
            USER_KEY_FILL,
            SESSION_INSERT,
            SESSIONS_TRIM,
            SESSION_USER,
            SESSION_RENEW,
            SESSION_DELETE,
            SESSIONS_OF,
            SESSION_REVOKE,
            SESSIONS_REVOKE_OTHERS,
            SESSIONS_EXPIRED,
            IDLE_GUEST_SESSIONS,
            IDLE_GUEST_USERS,
            PRESETS_OF,
            PRESETS_UNMARK,
            PRESET_SAVE,
            PRESET_DELETE,
            PRESET_ON_TIMEOUT,
            GAME_INSERT,
            GAME_UPDATE,
            GAME_PLAYER,
            GAME_BY_ID,
            GAMES_UNFINISHED,
            GAMES_FINISHED_RATED,
            GAMES_OF_USER,
            GAMES_UNFINISHED_OF,
            AI_GAMES_IN_PLAY,
            MOVES_OF,
            MOVE_INSERT,
            MOVES_TAKEN,
            TAKEBACK_INSERT,
            MOVES_DELETE_FROM,
            TAKEBACK_COUNT,
            SETUP_SAVE,
            SETUP_OF,
            ROOM_IS_WAITING,
            ROOM_ROW,
            CHALLENGE_SAVE,
            CHALLENGE_OF,
            CHALLENGES_FOR,
            FOUL_ADD,
            FOULS_OF,
            CHAT_REPORT_INSERT,
            CHAT_REPORTS_OF,
            RATING,
            MULTI_RATING,
            RATINGS_OF,
            RATED_BEFORE,
            RATING_SAVE,
            RATING_HISTORY_INSERT,
            LEADERBOARD,
            RATING_HISTORY,
            GAME_RATING_CHANGES,
            POINTS_SETTLED,
            POINTS_INSERT,
            POINTS_BALANCE,
            POINTS_LEADERBOARD,
            EVENT_SAVE,
            EVENTS,
            LEASE,
            RELEASE,
            LEASE_HELD,
            HOLDER,
            ORPHANS,
            NODE,
            NODE_CLAIM,
            NODE_SEEN,
            POOL_JOIN,
            POOL_LEAVE,
            POOL_SEEN,
            POOL_PURGE,
            POOL_ENTRIES,
            NODE_BEAT,
            NODE_FENCE_OFF,
            NODES_PURGE,
            PUZZLE_UPSERT,
            PUZZLE_BY_ID,
            PUZZLES_NEAR,
            PUZZLE_COUNT,
            PUZZLE_AT,
            PUZZLE_RATING,
            PUZZLE_ATTEMPTED,
            PUZZLE_ATTEMPT_INSERT,
            PUZZLE_RATING_SAVE,
            PUZZLE_RATE,
            PUZZLE_HISTORY,
            STUDY_INSERT,
            STUDY_COUNT,
            STUDIES_OF,
            STUDY_BY_ID,
            STUDY_UPDATE,
            STUDY_DELETE,
            GAME_INDEXED,
            EXPLORER_INSERT,
            OPENING_INSERT,
            EXPLORER_MOVES,
            GAMES_UNINDEXED,
            OPENINGS_OF_USER,
        ]
        .into_iter()
        .chain(ROOM_PARTS);
        for sql in all {
            let mut rest = sql;
            while let Some(at) = rest.find('?') {
                rest = &rest[at + 1..];
                assert!(rest.starts_with(|c: char| c.is_ascii_digit()), "{sql}");
            }
            assert!(!sql.contains('$'), "{sql}");
        }
    }
}
