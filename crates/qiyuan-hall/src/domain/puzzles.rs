//! Puzzles (issue 40): the shipped sets, checked through their game kind
//! and stored at start; the next puzzle near a player's rating, the daily
//! puzzle, a puzzle with the legal moves along its solution, rated results
//! (Glicko-2, [`qiyuan_events::puzzle`]) and each player's history.
//!
//! A puzzle is a position, the opponent's move that sets it up, then the
//! solution: the solver's moves with the opponent's replies between them.
//! Whose move each one is comes from the game (`seats_to_move` after each
//! move), so a game with double turns needs nothing special. Guests play
//! unrated: nothing is stored for them, only the puzzles they were shown
//! lately, in memory, so that `next` does not repeat itself.

use std::collections::{HashMap, VecDeque};
use std::sync::Mutex;

use qiyuan_core::{Chance, Options, TableGame, Viewer};
use qiyuan_events::puzzle::{Glicko, START_RATING, rate_attempt};
use rand::Rng;
use serde::Serialize;
use utoipa::ToSchema;

use crate::domain::hall::Hall;
use crate::domain::registry::Registry;
use crate::error::{ErrorCode, HallError, HallResult};
use crate::store::{
    PUZZLE_HISTORY_MAX, PuzzleAttempt, PuzzleRating, PuzzleResult, PuzzleRow, User,
};

/// The longest puzzle id.
pub const MAX_ID_LEN: usize = 40;
/// The most moves a puzzle may have (the setting-up move included).
pub const MAX_MOVES: usize = 40;
/// The most themes a puzzle may carry.
pub const MAX_THEMES: usize = 12;
/// The longest theme name.
pub const MAX_THEME_LEN: usize = 24;
/// The most themes a `next` request may ask for (all of them must match).
pub const MAX_ASKED_THEMES: usize = 3;
/// How many puzzles near the rating `next` draws from.
const NEAREST: i64 = 12;
/// How many puzzles shown lately are kept per user (memory only).
const RECENT: usize = 50;
/// How many users' recent puzzles are kept; the oldest user goes first.
const RECENT_USERS: usize = 20_000;
/// The rating `next` aims at may be asked for within these bounds.
pub const TARGET_MIN: i64 = 400;
/// See [`TARGET_MIN`].
pub const TARGET_MAX: i64 = 3200;

/// One shipped puzzle as the binary hands it over, before it is checked.
#[derive(Clone, Debug, PartialEq)]
pub struct PuzzleRecord {
    /// The variant (rule set) it is played in.
    pub variant: String,
    /// Its id, unique over every set.
    pub id: String,
    /// The position before the opponent's setting-up move.
    pub fen: String,
    /// The opponent's move then the solution, space-separated.
    pub moves: String,
    /// The rating its generator gave it.
    pub rating: f64,
    /// Its themes, space-separated.
    pub themes: String,
}

impl PuzzleRecord {
    /// The rows of a shipped CSV file (`id,fen,moves,rating,themes`, a
    /// header line first) for `variant`. A row that does not read is left
    /// out with a warning; no field holds a comma, so none is quoted.
    pub fn parse_csv(variant: &str, text: &str) -> Vec<PuzzleRecord> {
        let mut out = Vec::new();
        for (n, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') || (n == 0 && line.starts_with("id,")) {
                continue;
            }
            let f: Vec<&str> = line.split(',').map(str::trim).collect();
            let [id, fen, moves, rating, themes] = f[..] else {
                tracing::warn!(variant, line = n + 1, "puzzle row skipped: not five fields");
                continue;
            };
            let Ok(rating) = rating.parse::<f64>() else {
                tracing::warn!(
                    variant,
                    line = n + 1,
                    "puzzle row skipped: the rating is not a number"
                );
                continue;
            };
            out.push(PuzzleRecord {
                variant: variant.to_string(),
                id: id.to_string(),
                fen: fen.to_string(),
                moves: moves.to_string(),
                rating,
                themes: themes.to_string(),
            });
        }
        out
    }
}

/// No chance in a puzzle: a move that draws one makes the puzzle unusable.
struct NoChance(bool);

impl Chance for NoChance {
    fn draw(&mut self, _bound: u32) -> u32 {
        self.0 = true;
        0
    }
}

/// A theme's name: lower-case letters, digits and `-`.
fn theme_ok(t: &str) -> bool {
    !t.is_empty()
        && t.len() <= MAX_THEME_LEN
        && t.bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
}

/// An id: letters, digits, `-` and `_`.
fn id_ok(id: &str) -> bool {
    !id.is_empty()
        && id.len() <= MAX_ID_LEN
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

/// One move of a puzzle's line and the position after it.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct PuzzleStep {
    /// The move, in the game's notation.
    #[serde(rename = "move")]
    pub mv: String,
    /// The seat that plays it.
    pub seat: usize,
    /// Whether it is the solver's move (else the opponent's).
    pub solver: bool,
    /// The position after it, as a spectator sees it (the game's FEN).
    pub fen: String,
    /// Squares the board marks after it (a general in check).
    pub alerts: Vec<String>,
    /// When the solver is to move next: every legal move of theirs (the
    /// page lets them play any and judges it against the next step);
    /// empty otherwise.
    pub legal: Vec<String>,
}

/// A puzzle as the page plays it.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct PuzzleView {
    /// Its id.
    pub id: String,
    /// The variant.
    pub variant: String,
    /// Its rating, rounded.
    pub rating: i64,
    /// Rated attempts so far.
    pub plays: i64,
    /// Its themes.
    pub themes: Vec<String>,
    /// The position before the opponent's setting-up move (spectator's view).
    pub fen: String,
    /// The seat that solves it (the seat to move after the first move).
    pub solver: usize,
    /// The setting-up move, then the solution with the opponent's replies.
    pub steps: Vec<PuzzleStep>,
}

/// `GET /api/puzzles/next`'s answer.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct NextPuzzle {
    /// The puzzle.
    pub puzzle: PuzzleView,
    /// The caller's puzzle rating in its variant (1500 for guests and
    /// before a first attempt), rounded.
    pub rating: i64,
    /// Whether the caller's results are rated (false for guests).
    pub rated: bool,
}

/// `GET /api/puzzles/daily`'s answer.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct DailyPuzzle {
    /// The UTC day, `YYYY-MM-DD`.
    pub day: String,
    /// The puzzle of the day.
    pub puzzle: PuzzleView,
}

/// `POST /api/puzzles/{id}/result`'s answer.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct PuzzleOutcome {
    /// Whether this attempt was rated: false for guests and for a puzzle
    /// the caller attempted before (only the first attempt counts).
    pub rated: bool,
    /// The caller's puzzle rating in the variant after it, rounded.
    pub rating: i64,
    /// How much it moved.
    pub change: i64,
    /// Its deviation (uncertainty), rounded.
    pub deviation: i64,
    /// Rated attempts in the variant so far.
    pub plays: i64,
    /// The puzzle's rating after it, rounded.
    pub puzzle_rating: i64,
}

/// `GET /api/puzzles/history`'s answer.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct PuzzleHistory {
    /// The variant (all variants' attempts when none was asked for).
    pub variant: Option<String>,
    /// The caller's puzzle rating in it, rounded (1500 before any attempt).
    pub rating: i64,
    /// Rated attempts in it.
    pub plays: i64,
    /// Whether the caller's results are rated (false for guests).
    pub rated: bool,
    /// The latest attempts, newest first (at most 100).
    pub attempts: Vec<PuzzleAttempt>,
    /// The variants that have puzzles, with their themes (for choosing).
    pub sets: Vec<PuzzleSet>,
}

/// A variant's shipped puzzles: its name and every theme they carry.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct PuzzleSet {
    /// The variant.
    pub variant: String,
    /// How many puzzles were shipped for it.
    pub count: usize,
    /// Their themes, in the order first met.
    pub themes: Vec<String>,
}

/// The shipped sets, by variant in the registry's order.
fn sets(games: &Registry) -> Vec<PuzzleSet> {
    let mut out: Vec<PuzzleSet> = Vec::new();
    for r in games.puzzles() {
        let i = match out.iter().position(|s| s.variant == r.variant) {
            Some(i) => i,
            None => {
                out.push(PuzzleSet {
                    variant: r.variant.clone(),
                    count: 0,
                    themes: Vec::new(),
                });
                out.len() - 1
            }
        };
        let set = &mut out[i];
        set.count += 1;
        for t in r.themes.split_whitespace() {
            if theme_ok(t) && !set.themes.iter().any(|x| x == t) {
                set.themes.push(t.to_string());
            }
        }
    }
    out
}

/// Replays a puzzle from its position through its moves: the steps, the
/// solver's seat, or why the puzzle is not playable.
pub fn replay(
    games: &Registry,
    variant: &str,
    fen: &str,
    moves: &[String],
) -> Result<(String, usize, Vec<PuzzleStep>), String> {
    if moves.len() < 2 || moves.len() > MAX_MOVES {
        return Err(format!(
            "{} moves: a puzzle has the setting-up move and 1 to {} more",
            moves.len(),
            MAX_MOVES - 1
        ));
    }
    let mut table: Box<dyn TableGame> = games
        .new_table(variant, &Options::new(), Some(fen))
        .map_err(|e| e.message)?;
    let start = table.view(Viewer::Spectator);
    let mut solver = None;
    let mut steps = Vec::with_capacity(moves.len());
    for (i, mv) in moves.iter().enumerate() {
        if table.result().is_some() {
            return Err(format!("the game is over before move {}", i + 1));
        }
        let [seat] = table.seats_to_move()[..] else {
            return Err(format!("not one seat to move before move {}", i + 1));
        };
        if !table.legal_moves_for(seat).contains(mv) {
            return Err(format!("move {} ({mv}) is not legal", i + 1));
        }
        let mut chance = NoChance(false);
        table
            .play_for(seat, mv, &mut chance)
            .map_err(|e| format!("move {} ({mv}): {e}", i + 1))?;
        if chance.0 {
            return Err(format!("move {} ({mv}) depends on chance", i + 1));
        }
        // The seat to move after the setting-up move solves the puzzle.
        let next = table.seats_to_move();
        if i == 0 {
            let [s] = next[..] else {
                return Err("not one seat to move after the setting-up move".into());
            };
            if s == seat {
                return Err("the setting-up move leaves the same seat to move".into());
            }
            solver = Some(s);
        }
        let solver_next = table.result().is_none() && next.len() == 1 && Some(next[0]) == solver;
        steps.push(PuzzleStep {
            mv: mv.clone(),
            seat,
            solver: i > 0 && Some(seat) == solver,
            fen: table.view(Viewer::Spectator),
            alerts: table.alerts(),
            legal: if solver_next && i + 1 < moves.len() {
                table.legal_moves_for(next[0])
            } else {
                Vec::new()
            },
        });
    }
    if !steps.last().is_some_and(|s| s.solver) {
        return Err("the solution does not end with the solver's move".into());
    }
    Ok((start, solver.unwrap_or(0), steps))
}

/// Checks a shipped puzzle: a known variant, a sane id, rating and themes,
/// and moves the game accepts from the position.
pub fn check(games: &Registry, r: &PuzzleRecord) -> Result<PuzzleRow, String> {
    if games.find(&r.variant).is_none() {
        return Err(format!("no variant {:?}", r.variant));
    }
    if !id_ok(&r.id) {
        return Err(format!(
            "the id {:?} is not 1 to {MAX_ID_LEN} letters, digits, '-' or '_'",
            r.id
        ));
    }
    if !r.rating.is_finite() {
        return Err("the rating is not a number".into());
    }
    let themes: Vec<String> = r.themes.split_whitespace().map(str::to_string).collect();
    if themes.len() > MAX_THEMES || !themes.iter().all(|t| theme_ok(t)) {
        return Err(format!("bad themes {:?}", r.themes));
    }
    let moves: Vec<String> = r.moves.split_whitespace().map(str::to_string).collect();
    replay(games, &r.variant, &r.fen, &moves)?;
    Ok(PuzzleRow {
        id: r.id.clone(),
        variant: r.variant.clone(),
        fen: r.fen.clone(),
        moves,
        themes,
        rating: Glicko::new_puzzle(r.rating),
        plays: 0,
    })
}

/// The puzzles each user was shown lately (memory only; guests have no
/// other record), so that `next` does not serve them again at once.
#[derive(Default)]
struct Recent {
    inner: Mutex<RecentInner>,
}

/// Each user's recent puzzle ids, and the users in the order first met
/// (the oldest is forgotten first).
type RecentInner = (HashMap<i64, VecDeque<String>>, VecDeque<i64>);

impl Recent {
    fn of(&self, user: i64) -> Vec<String> {
        let g = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        g.0.get(&user)
            .map(|q| q.iter().cloned().collect())
            .unwrap_or_default()
    }

    fn add(&self, user: i64, id: &str) {
        let mut g = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        let (map, order) = &mut *g;
        if !map.contains_key(&user) {
            if order.len() >= RECENT_USERS
                && let Some(old) = order.pop_front()
            {
                map.remove(&old);
            }
            order.push_back(user);
        }
        let q = map.entry(user).or_default();
        q.retain(|x| x != id);
        q.push_back(id.to_string());
        while q.len() > RECENT {
            q.pop_front();
        }
    }
}

/// The themes of a `next` request (comma- or space-separated), checked.
pub fn parse_themes(text: Option<&str>) -> HallResult<Vec<String>> {
    let themes: Vec<String> = text
        .unwrap_or("")
        .split([',', ' '])
        .filter(|t| !t.is_empty())
        .map(str::to_string)
        .collect();
    if themes.len() > MAX_ASKED_THEMES || !themes.iter().all(|t| theme_ok(t)) {
        return Err(HallError::bad(format!(
            "themes: at most {MAX_ASKED_THEMES} names of lower-case letters, digits and '-'"
        ))
        .with_code(ErrorCode::BadQuery));
    }
    Ok(themes)
}

/// A `YYYY-MM-DD` UTC day from days since the epoch (the civil calendar).
fn civil_day(days: i64) -> String {
    // Howard Hinnant's days-to-civil.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}-{m:02}-{d:02}")
}

/// The place of the day's puzzle among `count`: a fixed mix of the day and
/// the variant's name (SplitMix64), the same on every node and restart.
fn daily_index(day: i64, variant: &str, count: i64) -> i64 {
    let mut x = day as u64 ^ 0x9E37_79B9_7F4A_7C15;
    for b in variant.bytes() {
        x = x.rotate_left(5) ^ u64::from(b);
    }
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^= x >> 31;
    (x % count.max(1) as u64) as i64
}

fn rounded(x: f64) -> i64 {
    x.round() as i64
}

impl Hall {
    /// Checks the registered puzzles and stores them (at start): a bad row
    /// is left out with a warning; loading again changes no rating.
    /// Returns how many were stored.
    pub async fn load_puzzles(&self) -> anyhow::Result<usize> {
        let mut rows = Vec::new();
        let mut seen = std::collections::HashSet::new();
        for r in self.games.puzzles() {
            match check(&self.games, r) {
                Ok(row) if seen.insert(row.id.clone()) => rows.push(row),
                Ok(row) => tracing::warn!(id = %row.id, "puzzle skipped: its id is taken"),
                Err(e) => tracing::warn!(id = %r.id, variant = %r.variant, "puzzle skipped: {e}"),
            }
        }
        for chunk in rows.chunks(500) {
            self.store.upsert_puzzles(chunk).await?;
        }
        Ok(rows.len())
    }

    /// A 404 `no_puzzle` for a variant the hall does not have: it has no
    /// puzzles either (a well-formed name is not a bad request).
    fn puzzle_kind_known(&self, variant: &str) -> HallResult<()> {
        if self.games.find(variant).is_some() {
            return Ok(());
        }
        let shown = crate::error::shown(variant);
        Err(HallError::not_found(format!("no puzzles of '{shown}'"))
            .with_code(ErrorCode::NoPuzzle)
            .with("variant", shown))
    }

    /// The variant a request names, or the first one with shipped puzzles.
    fn puzzle_variant(&self, variant: Option<&str>) -> HallResult<String> {
        match variant {
            Some(v) => {
                self.puzzle_kind_known(v)?;
                Ok(v.to_string())
            }
            None => self
                .games
                .puzzles()
                .first()
                .map(|r| r.variant.clone())
                .ok_or_else(|| {
                    HallError::not_found("this hall has no puzzles").with_code(ErrorCode::NoPuzzle)
                }),
        }
    }

    /// A stored puzzle as the page plays it.
    fn puzzle_view(&self, p: &PuzzleRow) -> HallResult<PuzzleView> {
        let (fen, solver, steps) =
            replay(&self.games, &p.variant, &p.fen, &p.moves).map_err(HallError::internal)?;
        Ok(PuzzleView {
            id: p.id.clone(),
            variant: p.variant.clone(),
            rating: rounded(p.rating.rating),
            plays: p.plays,
            themes: p.themes.clone(),
            fen,
            solver,
            steps,
        })
    }

    /// A user's puzzle rating in a variant (a new player's when none);
    /// guests always have a new player's.
    async fn my_puzzle_rating(
        &self,
        user: Option<&User>,
        variant: &str,
    ) -> HallResult<PuzzleRating> {
        let fresh = PuzzleRating {
            rating: Glicko::new_player(),
            plays: 0,
        };
        match user {
            Some(u) if !u.guest => Ok(self
                .store
                .puzzle_rating(u.id, variant)
                .await?
                .unwrap_or(fresh)),
            _ => Ok(fresh),
        }
    }

    /// `GET /api/puzzles/{id}`.
    pub async fn puzzle_by_id(&self, id: &str) -> HallResult<PuzzleView> {
        let p = if id_ok(id) {
            self.store.puzzle(id).await?
        } else {
            None
        };
        let p = p.ok_or_else(|| HallError::not_found(format!("no puzzle {id:?}")))?;
        self.puzzle_view(&p)
    }

    /// `GET /api/puzzles/next`: a puzzle near the caller's rating (or
    /// `target`), with every one of `themes`, that the caller neither
    /// attempted nor was shown lately, drawn from the closest few.
    pub async fn next_puzzle(
        &self,
        user: Option<&User>,
        variant: Option<&str>,
        themes: &[String],
        target: Option<i64>,
    ) -> HallResult<NextPuzzle> {
        let variant = self.puzzle_variant(variant)?;
        let mine = self.my_puzzle_rating(user, &variant).await?;
        let aim = target.map_or(mine.rating.rating, |t| t as f64);
        let themes: Vec<&str> = themes.iter().map(String::as_str).collect();
        let rated_user = user.filter(|u| !u.guest).map(|u| u.id);
        let mut near = self
            .store
            .puzzles_near(&variant, aim, &themes, rated_user, NEAREST * 2)
            .await?;
        if near.is_empty() && rated_user.is_some() {
            // Every one attempted: serve them again.
            near = self
                .store
                .puzzles_near(&variant, aim, &themes, None, NEAREST * 2)
                .await?;
        }
        let recents = self.extensions.get_or_insert_with(Recent::default).0;
        let seen = user.map(|u| recents.of(u.id)).unwrap_or_default();
        let fresh: Vec<&PuzzleRow> = near.iter().filter(|p| !seen.contains(&p.id)).collect();
        let pool: Vec<&PuzzleRow> = if fresh.is_empty() {
            near.iter().collect()
        } else {
            fresh
        };
        let pool = &pool[..pool.len().min(NEAREST as usize)];
        if pool.is_empty() {
            return Err(HallError::not_found(format!(
                "no puzzle of {variant} with the themes {themes:?}"
            ))
            .with_code(ErrorCode::NoPuzzle)
            .with("variant", variant.as_str()));
        }
        let pick = pool[rand::rng().random_range(0..pool.len())];
        if let Some(u) = user {
            recents.add(u.id, &pick.id);
        }
        Ok(NextPuzzle {
            puzzle: self.puzzle_view(pick)?,
            rating: rounded(mine.rating.rating),
            rated: rated_user.is_some(),
        })
    }

    /// `GET /api/puzzles/daily`: the same puzzle for everyone on a UTC day.
    pub async fn daily_puzzle(&self, variant: Option<&str>) -> HallResult<DailyPuzzle> {
        let variant = self.puzzle_variant(variant)?;
        let day = crate::clock::wall_ms().div_euclid(86_400_000);
        let count = self.store.puzzle_count(&variant).await?;
        let p = if count > 0 {
            self.store
                .puzzle_at(&variant, daily_index(day, &variant, count))
                .await?
        } else {
            None
        };
        let p = p.ok_or_else(|| {
            HallError::not_found(format!("no puzzle of {variant}"))
                .with_code(ErrorCode::NoPuzzle)
                .with("variant", variant.as_str())
        })?;
        Ok(DailyPuzzle {
            day: civil_day(day),
            puzzle: self.puzzle_view(&p)?,
        })
    }

    /// `POST /api/puzzles/{id}/result`: rates the caller's first attempt at
    /// a puzzle (Glicko-2 for both); a guest's or a repeated attempt
    /// changes nothing.
    pub async fn puzzle_result(
        &self,
        user: Option<&User>,
        id: &str,
        win: bool,
    ) -> HallResult<PuzzleOutcome> {
        let p = if id_ok(id) {
            self.store.puzzle(id).await?
        } else {
            None
        };
        let p = p.ok_or_else(|| HallError::not_found(format!("no puzzle {id:?}")))?;
        let mine = self.my_puzzle_rating(user, &p.variant).await?;
        let unrated = PuzzleOutcome {
            rated: false,
            rating: rounded(mine.rating.rating),
            change: 0,
            deviation: rounded(mine.rating.deviation),
            plays: mine.plays,
            puzzle_rating: rounded(p.rating.rating),
        };
        let Some(u) = user.filter(|u| !u.guest) else {
            return Ok(unrated);
        };
        let (player, puzzle) = rate_attempt(mine.rating, p.rating, win);
        let result = PuzzleResult {
            user_id: u.id,
            puzzle_id: p.id.clone(),
            variant: p.variant.clone(),
            win,
            player: PuzzleRating {
                rating: player,
                plays: mine.plays + 1,
            },
            puzzle,
        };
        if !self.store.record_puzzle_result(&result).await? {
            return Ok(unrated);
        }
        Ok(PuzzleOutcome {
            rated: true,
            rating: rounded(player.rating),
            change: rounded(player.rating) - rounded(mine.rating.rating),
            deviation: rounded(player.deviation),
            plays: mine.plays + 1,
            puzzle_rating: rounded(puzzle.rating),
        })
    }

    /// `GET /api/puzzles/history`: the caller's latest attempts.
    pub async fn puzzle_history(
        &self,
        user: Option<&User>,
        variant: Option<&str>,
    ) -> HallResult<PuzzleHistory> {
        if let Some(v) = variant {
            self.puzzle_kind_known(v)?;
        }
        let Some(u) = user.filter(|u| !u.guest) else {
            return Ok(PuzzleHistory {
                variant: variant.map(str::to_string),
                rating: rounded(START_RATING),
                plays: 0,
                rated: false,
                attempts: Vec::new(),
                sets: sets(&self.games),
            });
        };
        let attempts = self
            .store
            .puzzle_history(u.id, variant, PUZZLE_HISTORY_MAX)
            .await?;
        let mine = match variant {
            Some(v) => self.my_puzzle_rating(user, v).await?,
            None => PuzzleRating {
                rating: Glicko::new_player(),
                plays: 0,
            },
        };
        Ok(PuzzleHistory {
            variant: variant.map(str::to_string),
            rating: rounded(mine.rating.rating),
            plays: mine.plays,
            rated: true,
            attempts,
            sets: sets(&self.games),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_rows_that_do_not_read_are_left_out() {
        let text = "id,fen,moves,rating,themes\n\
                    a1,F E N,m1 m2,1200,mate1\n\
                    a2,too,few\n\
                    a3,F,m1 m2,high,mate1\n\
                    \n\
                    a4, F , m1 m2 m3 m4 , 1500.5 , mate2 endgame\n";
        let rows = PuzzleRecord::parse_csv("v", text);
        assert_eq!(
            rows.iter().map(|r| r.id.as_str()).collect::<Vec<_>>(),
            ["a1", "a4"]
        );
        assert_eq!(rows[1].moves, "m1 m2 m3 m4");
        assert_eq!(rows[1].rating, 1500.5);
        assert_eq!(rows[1].variant, "v");
    }

    #[test]
    fn themes_and_ids_are_checked_words() {
        assert_eq!(
            parse_themes(Some("mate1,double-cannon")).expect("ok"),
            ["mate1", "double-cannon"]
        );
        assert!(parse_themes(Some("a,b,c,d")).is_err());
        assert!(parse_themes(Some("50%")).is_err());
        assert!(parse_themes(Some("Mate")).is_err());
        assert!(parse_themes(None).expect("none").is_empty());
        assert!(id_ok("x00012") && id_ok("j-s_1") && !id_ok("") && !id_ok("a/b"));
    }

    #[test]
    fn the_daily_puzzle_is_fixed_per_day_and_varies() {
        assert_eq!(civil_day(0), "1970-01-01");
        assert_eq!(civil_day(20_089), "2025-01-01");
        assert_eq!(civil_day(19_782), "2024-02-29");
        let a: Vec<i64> = (0..30)
            .map(|d| daily_index(20_000 + d, "v", 1000))
            .collect();
        let b: Vec<i64> = (0..30)
            .map(|d| daily_index(20_000 + d, "v", 1000))
            .collect();
        assert_eq!(a, b);
        assert!(a.iter().all(|&i| (0..1000).contains(&i)));
        let distinct: std::collections::HashSet<_> = a.iter().collect();
        assert!(distinct.len() > 20, "{a:?}");
    }
}
