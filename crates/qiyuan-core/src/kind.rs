//! The registry's view of a game: a [`GameKind`] says which variants it
//! has, with their seat counts and options, starts a [`TableGame`] from
//! options and server randomness (or a stored set-up, for replay), and may
//! bring an AI and a points settlement. The hall knows games only through
//! this trait; the binary registers each kind in one line.

use std::any::Any;
use std::collections::BTreeMap;
use std::time::Duration;

use crate::{TableGame, Viewer};

/// An integer option a room may set (a Jifen target, a Banqi base), with
/// the bounds the hall checks before the game starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OptionSpec {
    /// The key in `"options"` of a create request.
    pub name: &'static str,
    /// Smallest value.
    pub min: i64,
    /// Largest value.
    pub max: i64,
    /// What it means, for people and the create form.
    pub about: &'static str,
}

/// One variant (rule set) of a kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VariantSpec {
    /// Stable name (`xiangqi`, `jifen-contest`, `banqi-icga`).
    pub name: &'static str,
    /// The seat counts it can be played with.
    pub seats: &'static [usize],
    /// Options a room may set.
    pub options: &'static [OptionSpec],
}

/// The option a kind with a settlement reads its room base (基数, the
/// multiplier of its points) from; rooms without it settle with base 1.
pub const BASE_OPTION: &str = "base";

/// Options chosen for a new game, by name (checked against the variant's
/// [`OptionSpec`]s by the hall).
pub type Options = BTreeMap<String, i64>;

/// What a game is started from.
#[derive(Clone, Debug)]
pub struct StartSpec<'a> {
    /// The variant's name.
    pub variant: &'a str,
    /// Seats (one of the variant's counts).
    pub seats: usize,
    /// The room's options.
    pub options: &'a Options,
    /// A set-up position, or the stored secret set-up of a game being
    /// replayed; `None` for the normal start.
    pub setup: Option<&'a str>,
    /// Randomness the kind may use to draw a hidden set-up (the hall fills
    /// it from a cryptographic generator seeded by the operating system).
    pub seed: [u8; 32],
}

/// A pairing pool a kind offers: one variant at one time control. Players
/// join it with one click and the hall pairs those who wait in it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PoolSpec {
    /// The variant played (its seat count is the variant's first).
    pub variant: &'static str,
    /// Base time per seat in seconds (the time per move, for kinds whose
    /// clock runs per move).
    pub initial_s: i64,
    /// Added after each turn, in seconds.
    pub increment_s: i64,
}

impl PoolSpec {
    /// `variant` at `initial_s` + `increment_s`.
    pub const fn new(variant: &'static str, initial_s: i64, increment_s: i64) -> PoolSpec {
        PoolSpec {
            variant,
            initial_s,
            increment_s,
        }
    }

    /// The pool's stable id: the variant and the clock as players say it,
    /// minutes when whole (`xiangqi-5+3`), else seconds (`banqi-30s+0`).
    pub fn id(&self) -> String {
        if self.initial_s % 60 == 0 {
            format!(
                "{}-{}+{}",
                self.variant,
                self.initial_s / 60,
                self.increment_s
            )
        } else {
            format!("{}-{}s+{}", self.variant, self.initial_s, self.increment_s)
        }
    }
}

/// How the clock of a new room runs unless the room says otherwise.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DefaultClock {
    /// Base time and increment per seat, in seconds.
    PerSeat {
        /// Base time.
        initial_s: i64,
        /// Added after each turn.
        increment_s: i64,
    },
    /// A fixed time for every move (no increment).
    PerMove {
        /// Seconds per move.
        seconds: i64,
    },
}

/// A computer player for a kind.
pub trait GameAi: Send + Sync {
    /// A move for `seat` at `level` (1-8) within `budget` (the level's own
    /// time when `None`). The AI must use only what `seat` may see: it reads
    /// the game through [`crate::Views::view`] or the kind's own typed access.
    fn choose(
        &self,
        game: &dyn TableGame,
        seat: usize,
        level: u8,
        budget: Option<Duration>,
    ) -> Option<String>;
    /// The fixed rating of a level (games against the AI are rated against it).
    fn rating(&self, level: u8) -> f64;
    /// Whether `seat`, played by this AI at `level`, accepts a draw the
    /// opponent offered now (the hall asks at once and answers the offer
    /// with it). Like [`GameAi::choose`] it may read only what `seat` may
    /// see, and it must answer quickly and deterministically (a bounded
    /// search, not the level's thinking time). By default the AI declines.
    fn accepts_draw(&self, game: &dyn TableGame, seat: usize, level: u8) -> bool {
        let _ = (game, seat, level);
        false
    }
}

/// A computer player written for one table type: the hall's [`GameAi`] is
/// [`AiFor`] around it, which finds the typed table once, here, so that no
/// game crate downcasts.
pub trait TypedAi: Send + Sync {
    /// The table this AI plays (the one its kind starts).
    type Table: TableGame + 'static;
    /// As [`GameAi::choose`], on the kind's own table.
    fn choose(
        &self,
        table: &Self::Table,
        seat: usize,
        level: u8,
        budget: Option<Duration>,
    ) -> Option<String>;
    /// As [`GameAi::rating`].
    fn rating(&self, level: u8) -> f64;
    /// As [`GameAi::accepts_draw`], on the kind's own table; by default the
    /// AI declines.
    fn accepts_draw(&self, table: &Self::Table, seat: usize, level: u8) -> bool {
        let _ = (table, seat, level);
        false
    }
}

/// A [`TypedAi`] as the object-safe [`GameAi`] the hall calls: a game of
/// another table type gets no move (`None`) and no draw.
#[derive(Clone, Copy, Debug, Default)]
pub struct AiFor<A>(pub A);

impl<A: TypedAi> GameAi for AiFor<A> {
    fn choose(
        &self,
        game: &dyn TableGame,
        seat: usize,
        level: u8,
        budget: Option<Duration>,
    ) -> Option<String> {
        self.0
            .choose(crate::table_as::<A::Table>(game)?, seat, level, budget)
    }
    fn rating(&self, level: u8) -> f64 {
        self.0.rating(level)
    }
    fn accepts_draw(&self, game: &dyn TableGame, seat: usize, level: u8) -> bool {
        crate::table_as::<A::Table>(game).is_some_and(|t| self.0.accepts_draw(t, seat, level))
    }
}

/// Where in an imported file a problem lies.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ImportPlace {
    /// A text format: 1-based line and character column.
    Line {
        /// 1-based line.
        line: usize,
        /// 1-based character in the line.
        column: usize,
    },
    /// A binary format: the byte offset from the start of the file.
    Byte(usize),
}

/// Why a file could not be imported: a sentence and, when there is one,
/// the place (a bad file names where it went wrong).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct ImportError {
    /// What is wrong, as a sentence (it names the place too).
    pub message: String,
    /// A stable name of the kind of problem (`syntax`, `move`, `limit` …).
    pub kind: &'static str,
    /// Where, if the problem has a place.
    pub place: Option<ImportPlace>,
}

/// One move of an imported game's tree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ImportedMove {
    /// The move this one is played after (an index into
    /// [`ImportedGame::moves`], always smaller than this move's own);
    /// `None`: from the start position.
    pub parent: Option<usize>,
    /// The move in the game's own notation (what a move request takes).
    pub mv: String,
    /// What the file says about the move.
    pub comment: Option<String>,
}

/// A game or study read from a file by [`GameKind::import`]: the start
/// position, a tree of moves (siblings in the file's order, the main line
/// first) and the header tags.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ImportedGame {
    /// The format the file was read as (`pgn`, `xqf` …).
    pub format: String,
    /// The start position in the game's set-up text (a FEN).
    pub start: String,
    /// Header tags (name, value), in the file's order.
    pub tags: Vec<(String, String)>,
    /// The comment on the game as a whole.
    pub comment: Option<String>,
    /// Every move of every line, parents before children.
    pub moves: Vec<ImportedMove>,
}

/// A kind of game: a rating family with its variants.
pub trait GameKind: Send + Sync {
    /// The kind's id, which is its rating family (`xiangqi`, `banqi`).
    fn id(&self) -> &'static str;
    /// Its variants.
    fn variants(&self) -> &'static [VariantSpec];
    /// Starts a game, or says why not (a sentence for a 400).
    fn start(&self, spec: &StartSpec<'_>) -> Result<Box<dyn TableGame>, String>;
    /// The clock of a room that names none.
    fn default_clock(&self) -> DefaultClock {
        DefaultClock::PerSeat {
            initial_s: 600,
            increment_s: 0,
        }
    }
    /// The pairing pools the kind offers. By default one: its first
    /// variant at its default clock.
    fn pools(&self) -> Vec<PoolSpec> {
        let Some(v) = self.variants().first() else {
            return Vec::new();
        };
        vec![match self.default_clock() {
            DefaultClock::PerSeat {
                initial_s,
                increment_s,
            } => PoolSpec::new(v.name, initial_s, increment_s),
            DefaultClock::PerMove { seconds } => PoolSpec::new(v.name, seconds, 0),
        }]
    }
    /// The AI, if the kind has one.
    fn ai(&self) -> Option<&dyn GameAi> {
        None
    }
    /// The points ledger a finished game settles into (`Settlement::game_points`
    /// with the room's [`BASE_OPTION`]), if the kind has one; its name is the
    /// ledger's family.
    fn settlement(&self) -> Option<&'static str> {
        None
    }
    /// The names of the seats of a game with `seats` seats, as results and
    /// create requests speak them (`red`, `black`); unique per game.
    fn seat_names(&self, seats: usize) -> Vec<String> {
        (1..=seats).map(|n| format!("seat{n}")).collect()
    }
    /// Checks a preset a player wants to save for this kind: an opening
    /// action kept between games, such as a Junqi set-up, which the hall
    /// also plays for the player whose time runs out before it acted. `Err`
    /// says why the text cannot be used; kinds without presets refuse all.
    fn check_preset(&self, text: &str) -> Result<(), String> {
        let _ = text;
        Err("this game has no saved set-ups".into())
    }
    /// The set-up a rematch of a hidden-information room started from
    /// `setup` plays from. The finished game has published that set-up, so
    /// its secret part must be drawn again from `seed` (Banqi: the same
    /// public position, the face-down pieces shuffled anew); `None`: the
    /// rematch starts as an ordinary game of the variant. By default `None`.
    /// (Rooms that hide nothing reuse their set-up without asking.)
    fn rematch_setup(&self, variant: &str, setup: &str, seed: [u8; 32]) -> Option<String> {
        let _ = (variant, setup, seed);
        None
    }
    /// The end reasons this kind adds to [`crate::EndReason::ALL`], so a
    /// stored game that ended by one reads back
    /// ([`crate::EndReason::from_name_among`]). By default none.
    fn end_reasons(&self) -> &'static [crate::EndReason] {
        &[]
    }
    /// The teams of a game of `variant` with `seats` seats: seats that win
    /// or lose together and never attack each other, each team a list of
    /// seats; `None` (the default) when every seat plays for itself.
    /// Ratings rate a team's result for each of its players (H1).
    fn teams(&self, variant: &str, seats: usize) -> Option<Vec<Vec<usize>>> {
        let _ = (variant, seats);
        None
    }
    /// Reads a game file (`bytes`, at most the hall's import limit) into a
    /// start position and a move tree. `None` (the default): the kind reads
    /// no files. A kind that reads files answers `Some` for every input,
    /// empty included, so `import(b"")` tells whether it does.
    fn import(&self, bytes: &[u8]) -> Option<Result<ImportedGame, ImportError>> {
        let _ = bytes;
        None
    }
    /// The page's module for this kind (`web/games/<name>.js`).
    fn web_module(&self) -> &'static str;
    /// The kind as `Any`, for tests that look inside.
    fn as_any(&self) -> &dyn Any;
}

/// Seat names for a game of `seats` seats taken from `names` in order
/// (`["red", "black"]` for the two-seat Chinese games).
pub fn named_seats(names: &[&str], seats: usize) -> Vec<String> {
    names.iter().take(seats).map(|s| s.to_string()).collect()
}

impl VariantSpec {
    /// The option spec called `name`.
    pub fn option(&self, name: &str) -> Option<&OptionSpec> {
        self.options.iter().find(|o| o.name == name)
    }
}

/// What every viewer-dependent text of a game is built from: kept here so
/// that kinds and the hall agree on who sees what.
pub fn viewer_of(seat: Option<usize>) -> Viewer {
    seat.map_or(Viewer::Spectator, Viewer::Seat)
}
