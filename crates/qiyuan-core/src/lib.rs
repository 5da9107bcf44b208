//! Types shared by every Qiyuan game: how a game ends and the seat-agnostic
//! interface the command line and the hall use to drive any game by text.
//!
//! Rules crates stay pure (no I/O, no clock); they implement [`GameRules`]
//! so that callers never need to know which game they are driving.
pub mod kind;
mod outcome;
pub use kind::{
    AiFor, DefaultClock, GameAi, GameKind, ImportError, ImportPlace, ImportedGame, ImportedMove,
    OptionSpec, Options, PoolSpec, StartSpec, TypedAi, VariantSpec, viewer_of,
};
pub use outcome::{EndReason, Outcome};

/// A move that could not be played, with the reason a player can act on.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    /// The text is not a move in this game's notation.
    #[error("malformed move '{text}': {why}")]
    Malformed {
        /// What was received.
        text: String,
        /// What is wrong with it.
        why: String,
    },
    /// Well-formed, but not legal in the current position.
    #[error("illegal move '{text}': {why}")]
    Illegal {
        /// What was received.
        text: String,
        /// Why it is not legal here.
        why: String,
    },
    /// The game has already ended.
    #[error("the game is over")]
    GameOver,
}

/// Drives any game by text, the way the CLI and the hall do.
///
/// Implementations keep the whole game record (needed for repetition rulings),
/// so one value is one game in progress.
pub trait GameRules {
    /// Number of seats (players) in this game.
    fn seats(&self) -> usize;
    /// The seat whose move it is, or `None` once the game is over.
    fn to_move(&self) -> Option<usize>;
    /// The current position in the game's FEN dialect.
    fn fen(&self) -> String;
    /// Every legal move in the game's move notation.
    fn legal_moves(&self) -> Vec<String>;
    /// Plays one move given in the game's move notation.
    fn play(&mut self, mv: &str) -> Result<(), MoveError>;
    /// How the game ended, if it has.
    fn outcome(&self) -> Option<&Outcome>;
}

/// [`HallPolicy::seat_leaves`] for a two-seat game whose seats have the
/// Chinese and English names `names` (红/red, 黑/black): the other side wins,
/// or after a flag fall draws when it cannot win (`other_can_win` false, X6).
pub fn two_seat_leave(
    seat: usize,
    reason: EndReason,
    names: [(&str, &str); 2],
    other_can_win: bool,
) -> Outcome {
    let (zh, en) = names[seat.min(1)];
    let other = 1 - seat.min(1);
    match reason {
        EndReason::Timeout if other_can_win => Outcome {
            winner: Some(other),
            partners: Vec::new(),
            reason,
            explanation: format!("{zh}方超时判负 / {en} ran out of time and loses"),
        },
        EndReason::Timeout => Outcome {
            winner: None,
            partners: Vec::new(),
            reason,
            explanation: format!(
                "{zh}方超时, 对方无子可胜, 和棋 / {en} ran out of time but the opponent cannot mate: draw"
            ),
        },
        _ => Outcome {
            winner: Some(other),
            partners: Vec::new(),
            reason,
            explanation: format!("{zh}方认输 / {en} resigned"),
        },
    }
}

/// [`HallPolicy::seat_leaves`] by default: with two seats the other seat
/// wins, with more the others share first place; the leaver is named by its
/// number from 1 ("座位2认输 / seat 2 resigned").
pub fn numbered_seat_leave(seat: usize, seat_count: usize, reason: EndReason) -> Outcome {
    let others: Vec<usize> = (0..seat_count).filter(|&s| s != seat).collect();
    let n = seat + 1;
    let explanation = if reason == EndReason::Timeout {
        format!("座位{n}超时 / seat {n} ran out of time")
    } else {
        format!("座位{n}认输 / seat {n} resigned")
    };
    Outcome {
        winner: match others.as_slice() {
            [other] => Some(*other),
            _ => None,
        },
        partners: Vec::new(),
        reason,
        explanation,
    }
}

/// Randomness drawn by the server for games of chance (Banqi's hidden pieces,
/// Junqi's arbiter later). Games never own a random source: the hall supplies
/// one, so a replay from the database can feed back the same draws.
pub trait Chance {
    /// A uniformly drawn number in `0..bound` (`bound` > 0).
    fn draw(&mut self, bound: u32) -> u32;
}

/// Who is looking at a game: one seat (sees that seat's hidden information)
/// or a spectator (sees only what is public).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Viewer {
    /// The player in this seat.
    Seat(usize),
    /// Anyone not playing.
    Spectator,
}

/// How the hall runs a game's clocks, as the game's own rules ask.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub enum ClockRule {
    /// One clock per seat; the clock of the seat(s) to move runs; the increment
    /// is added when a seat's turn ends (not after every move of a multi-move turn).
    #[default]
    PerSeat,
    /// No clock (e.g. a set-up phase without time pressure).
    Untimed,
    /// A fixed time for every turn (the room's base time; Banqi's 30 s, B12),
    /// fresh at the start of each turn, no increment. When it runs out the
    /// hall calls [`HallPolicy::flag_falls`], and the game says whether the
    /// seat lost its turn or the game.
    PerMove,
}

/// What a fallen flag does to a game: the game decides.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FlagFall {
    /// The seat lost its turn and play goes on (Banqi B12); the game
    /// recorded it in its history and may have ended by it.
    TurnLost,
    /// The game is over.
    Ends(Outcome),
}

/// What a resignation does to a game: the game decides.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Resigned {
    /// The seat is out and the others play on (Tiaoqi T14 with three or
    /// more in play); the game recorded it in its history and may have
    /// ended by it.
    Out,
    /// The game is over.
    Ends(Outcome),
    /// Nothing changed: the seat cannot resign (it is already out).
    Refused(String),
}

/// One seat's standing in a race game, for the page.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SeatProgress {
    /// What is still to go (Tiaoqi: rows, summed over the pieces).
    pub to_go: Option<u32>,
    /// Moves left to meet a countdown's duty (a declared Tiaoqi dead game,
    /// T9), while one runs for this seat.
    pub countdown: Option<u32>,
    /// The place already earned while the others play on (1 = first).
    pub place: Option<u32>,
    /// Out of the game: left, resigned or timed out.
    pub out: bool,
}

/// The standings of a race game while it is played, for the page.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Progress {
    /// One entry per seat.
    pub seats: Vec<SeatProgress>,
    /// A dead game has been declared (Tiaoqi T9).
    pub dead_game: bool,
    /// Full rounds without progress left before a dead game is declared.
    pub quiet_left: Option<u32>,
}

/// A draw claim the game itself judges (X4: the natural move limit).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ClaimVerdict {
    /// The claim holds; the game ends with this outcome.
    Granted(Outcome),
    /// The claim is not true now; the refusal says why (a technical foul, X8).
    Refused(ClaimRefusal),
}

/// Why a claim does not hold, as values rather than a sentence, so that a
/// client can say it in its own language (the hall passes the fields on).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ClaimRefusal {
    /// Too early: `plies` plies since the last capture, `needed` before a
    /// claim holds, by the numbered decision `rule`.
    TooEarly {
        /// Plies played since the last capture.
        plies: u32,
        /// Plies without a capture the claim needs.
        needed: u32,
        /// The numbered rule decision (e.g. `X4`).
        rule: &'static str,
    },
    /// These rules have no claim; `rule` is the decision that says so, if any.
    NoClaim {
        /// The numbered rule decision, if one says so.
        rule: Option<&'static str>,
    },
    /// The game is already over.
    GameOver,
}

impl ClaimRefusal {
    /// A stable word for the kind of refusal (`too_early`, `no_claim`,
    /// `game_over`), the `why` a client switches on.
    pub fn why(&self) -> &'static str {
        match self {
            ClaimRefusal::TooEarly { .. } => "too_early",
            ClaimRefusal::NoClaim { .. } => "no_claim",
            ClaimRefusal::GameOver => "game_over",
        }
    }

    /// The numbered rule decision the refusal rests on, if any.
    pub fn rule(&self) -> Option<&'static str> {
        match self {
            ClaimRefusal::TooEarly { rule, .. } => Some(rule),
            ClaimRefusal::NoClaim { rule } => *rule,
            ClaimRefusal::GameOver => None,
        }
    }
}

impl std::fmt::Display for ClaimRefusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ClaimRefusal::TooEarly {
                plies,
                needed,
                rule,
            } => write!(
                f,
                "{plies} of the {needed} plies without a capture a draw claim needs have been played ({rule})"
            ),
            ClaimRefusal::NoClaim { rule: Some(rule) } => {
                write!(f, "these rules have no draw claim ({rule})")
            }
            ClaimRefusal::NoClaim { rule: None } => f.write_str("this game has no claims"),
            ClaimRefusal::GameOver => f.write_str("the game is over"),
        }
    }
}

/// The rules of a table game: seats, who moves, legal moves, play, the
/// result and the record. Replayable from the start, each move's text and
/// the chance draws, which is all the hall stores.
pub trait Rules: Send + Sync {
    /// The stable rule-set name (`xiangqi`, `jifen-contest`, ...).
    fn rules_name(&self) -> &str;
    /// Number of seats, 2 to 6.
    fn seat_count(&self) -> usize;
    /// The seats that may move now: one in turn-based play, several during a
    /// simultaneous phase, none once the game is over.
    fn seats_to_move(&self) -> Vec<usize>;
    /// The legal moves of `seat` now, in the game's move notation (empty when
    /// it is not that seat's move).
    fn legal_moves_for(&self, seat: usize) -> Vec<String>;
    /// Plays `mv` for `seat`, drawing any chance it needs from `chance`.
    fn play_for(&mut self, seat: usize, mv: &str, chance: &mut dyn Chance)
    -> Result<(), MoveError>;
    /// How the game ended, if it has (by its own rules or by [`Rules::end`]).
    fn result(&self) -> Option<&Outcome>;
    /// Ends the game from outside its rules: resignation, timeout, agreement.
    fn end(&mut self, outcome: Outcome);
    /// Moves played so far, in notation, in order.
    fn history(&self) -> Vec<String>;
    /// How many moves have been played (`history().len()`, without writing
    /// every move out: the hall asks on every move).
    fn plies(&self) -> usize {
        self.history().len()
    }
    /// The last move played, in notation (`history().last()`).
    fn last_move(&self) -> Option<String> {
        self.history().pop()
    }
}

/// A game's named opening: a code of the game's classification and its
/// names, e.g. `C45` with its Chinese name and an English one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpeningName {
    /// The code, e.g. `C45`.
    pub code: String,
    /// The name players of the game use (Chinese for the Xiangqi family).
    pub name: String,
    /// A short English name.
    pub name_en: String,
}

/// What each viewer may see of a game: positions, move records, alerts,
/// the exported record, and what must stay secret while it is played.
pub trait Views: Rules {
    /// The position as `viewer` may see it, in the game's FEN dialect (hidden
    /// pieces masked for those who may not see them).
    fn view(&self, viewer: Viewer) -> String;
    /// The hidden set-up this game drew at its start (Banqi's layout), which
    /// the hall must store server-side to replay the game and must never send
    /// to a client while the game is in play. `None` for games that hide nothing.
    fn secret_setup(&self) -> Option<String> {
        None
    }
    /// Whether some viewer may not see all of the game (face-down pieces,
    /// hidden ranks), from a drawn layout or from a set-up position alike.
    /// Such a game never publishes its start position while in play and
    /// offers no takebacks (a retried ply would reuse what a flip or a clash
    /// revealed). By default: a game that drew a secret set-up.
    fn hides_information(&self) -> bool {
        self.secret_setup().is_some()
    }
    /// The move records `viewer` may see, from ply `from` on (a client
    /// that has the earlier ones gets only the new), with the ply the list
    /// starts at. By default everyone sees every record; a game with secret
    /// moves masks them for the other seats, and starts the list earlier
    /// than `from` when a reveal changed records the viewer already has.
    fn move_records_for(&self, viewer: Viewer, from: usize) -> (usize, Vec<MoveRecord>) {
        let _ = viewer;
        (from, self.move_records(from))
    }
    /// Squares (or cells) the board should mark as in danger now, e.g. a
    /// general in check, in the game's square notation.
    fn alerts(&self) -> Vec<String> {
        Vec::new()
    }
    /// The named opening of the game so far (for Xiangqi its ECCO code and
    /// name); the page shows it beside the move list and the record carries
    /// it. `None` (the default) for games without a classification.
    fn opening(&self) -> Option<OpeningName> {
        None
    }
    /// The moves played from ply `from` on, with their other notations and
    /// the scores after each, for the move list (the default gives the bare
    /// move text).
    fn move_records(&self, from: usize) -> Vec<MoveRecord> {
        self.history()
            .into_iter()
            .skip(from)
            .map(|text| MoveRecord {
                text,
                notations: Vec::new(),
                scores: None,
            })
            .collect()
    }
    /// The game record in the game's usual file format (PGN for Xiangqi),
    /// with these tags and result (`1-0`, `0-1`, `1/2-1/2`, `*`).
    fn export_record(&self, tags: &[(String, String)], result: &str) -> Option<String> {
        let _ = (tags, result);
        None
    }
    /// The move notations [`Views::export_record_in`] can write, default
    /// first (for Xiangqi `iccs`, `wxf`, `chinese`). The names are the
    /// game's own: the hall passes the one a client asks for through
    /// without reading it. Empty (the default): the record has one notation.
    fn export_notations(&self) -> Vec<&'static str> {
        Vec::new()
    }
    /// [`Views::export_record`] with the moves in `notation`, one of
    /// [`Views::export_notations`] (the hall checks it first). By default
    /// the notation is ignored.
    fn export_record_in(
        &self,
        tags: &[(String, String)],
        result: &str,
        notation: &str,
    ) -> Option<String> {
        let _ = notation;
        self.export_record(tags, result)
    }
}

/// How the hall runs a game by its own rules: clocks, flag falls,
/// resignations, concessions, claims, seats leaving, turn phases and race
/// progress. Every method has the common default.
pub trait HallPolicy: Rules {
    /// Whether the seat to move is in the middle of a multi-move turn (the
    /// second move of a Jifen contest double turn), for display.
    fn turn_phase(&self) -> u8 {
        1
    }
    /// How the hall runs the clocks for this game.
    fn clock_rule(&self) -> ClockRule {
        ClockRule::PerSeat
    }
    /// The time of the turn that starts now, for [`ClockRule::PerMove`]
    /// games, given the room's time per move: a game with a longer phase
    /// (a secret set-up) says so. By default the room's time.
    fn turn_time_ms(&self, room_ms: i64) -> i64 {
        room_ms
    }
    /// The seats whose agreement a draw needs (the offerer counts as
    /// agreeing): `None` for the common rule, where one other seat's
    /// acceptance draws the game; a team game names every seat still in
    /// play, so that nobody is drawn without consent.
    fn draw_voters(&self) -> Option<Vec<usize>> {
        None
    }
    /// `seat`'s flag fell: it loses its turn (recorded in
    /// [`Rules::history`], as B12), is eliminated or loses the game, or
    /// the game is drawn; the game decides. By default it leaves the game
    /// ([`HallPolicy::seat_leaves`] on time). A lost turn is replayed from
    /// storage through this too, so it must be deterministic.
    fn flag_falls(&mut self, seat: usize) -> FlagFall {
        FlagFall::Ends(self.seat_leaves(seat, EndReason::Timeout))
    }
    /// `seat` resigns: by default the game ends as
    /// [`HallPolicy::seat_leaves`] says; a game whose others play on takes
    /// the seat out ([`Resigned::Out`], recorded in its history so that a
    /// replay from storage repeats it; it must be deterministic).
    fn resigns(&mut self, seat: usize) -> Resigned {
        Resigned::Ends(self.seat_leaves(seat, EndReason::Resignation))
    }
    /// Each seat's standing in a race (distance left, countdowns, places
    /// earned), for games that have one.
    fn progress(&self) -> Option<Progress> {
        None
    }
    /// Why resignation and draw offers are closed now, if they are (Banqi
    /// B11: not before ply 40). `None`: they are open.
    fn concession_refused(&self) -> Option<String> {
        None
    }
    /// Whether a draw claim by `seat` would be granted now ([`HallPolicy::claim`]):
    /// the page offers the claim only then. By default never.
    fn claimable(&self, seat: usize) -> bool {
        let _ = seat;
        false
    }
    /// Judges a draw claim by `seat` (e.g. the natural move limit).
    fn claim(&mut self, seat: usize) -> ClaimVerdict {
        let _ = seat;
        ClaimVerdict::Refused(ClaimRefusal::NoClaim { rule: None })
    }
    /// The outcome when `seat` resigns or its flag falls (`reason` is
    /// [`EndReason::Resignation`] or [`EndReason::Timeout`]). By default, in a
    /// two-seat game the other seat wins; with more seats the others share
    /// first place and the leaver is last. A game with other rules (a draw
    /// when the other side cannot win, X6) overrides it.
    fn seat_leaves(&self, seat: usize, reason: EndReason) -> Outcome {
        numbered_seat_leave(seat, self.seat_count(), reason)
    }
}

/// What a finished game settles: scores, the target, game points and
/// placings. Every method has a default for games without them.
pub trait Settlement: Rules {
    /// The game-specific scores per seat (Jifen points), if the game has them.
    fn scores(&self) -> Option<Vec<i32>> {
        None
    }
    /// The target score that wins, if the game has one.
    fn target(&self) -> Option<i32> {
        None
    }
    /// Each seat's change of the game's points balance once the game is over
    /// (Banqi's game points, B13-B17), in a room with `base`; `None` for games
    /// without such points or while the game is in play.
    fn game_points(&self, base: i64) -> Option<Vec<i64>> {
        let _ = base;
        None
    }
    /// The final ranking, seat groups best first, for a game that ranks
    /// more than a winner and the rest (`None`: derived from the outcome's
    /// winner, everyone else shares second place; a draw is one group).
    fn placings(&self) -> Option<Vec<Vec<usize>>> {
        None
    }
}

/// What the hall drives: any game with 2 to 6 seats, possibly hidden
/// information, chance, multi-move turns and simultaneous phases.
///
/// Unlike [`GameRules`] (one side to move, full information), a table game
/// says which seats may act now (several during a simultaneous phase, the same
/// seat again during a multi-move turn), renders a view per viewer, and takes
/// the server's random draws. The hall stores only the start set-up, each
/// move's text and the chance draws, so a game must be replayable from those.
///
/// It is its parts ([`Rules`], [`Views`], [`HallPolicy`], [`Settlement`]):
/// a game implements each (an empty `impl` where the defaults serve). On a
/// `dyn TableGame` every part's methods are callable without importing the
/// parts; code holding a concrete table imports the parts it calls.
pub trait TableGame: Rules + Views + HallPolicy + Settlement + any_table::AsAny {
    /// A copy of the game, so the hall can roll a move back when storing it fails.
    fn boxed_clone(&self) -> Box<dyn TableGame>;
}

/// The concrete table behind `game`, if it is a `T`: how a kind's own code
/// (its [`TypedAi`] through [`AiFor`], its tests) reaches the typed position
/// instead of re-parsing text. The only downcast of a table.
pub fn table_as<T: TableGame + 'static>(game: &dyn TableGame) -> Option<&T> {
    any_table::AsAny::as_any(game).downcast_ref::<T>()
}

/// Gives every table its `Any` without each game writing it. The module is
/// private so that [`table_as`] stays the one way to downcast.
mod any_table {
    use std::any::Any;

    /// A value seen as `Any` (implemented for every `'static` type).
    pub trait AsAny: Any {
        /// `self` as `Any`.
        fn as_any(&self) -> &dyn Any;
    }

    impl<T: Any> AsAny for T {
        fn as_any(&self) -> &dyn Any {
            self
        }
    }
}

/// One played move as the move list shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveRecord {
    /// The move in the game's move notation (ICCS for Xiangqi).
    pub text: String,
    /// Other notations, as (name, text): e.g. ("wxf", "C2.5"), ("chinese", "炮二平五").
    pub notations: Vec<(String, String)>,
    /// The scores after the move, where the game has scores.
    pub scores: Option<Vec<i32>>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_numbered_leave_names_the_seat_from_1_in_both_languages() {
        let o = numbered_seat_leave(0, 2, EndReason::Resignation);
        assert_eq!(o.winner, Some(1));
        assert_eq!(o.explanation, "座位1认输 / seat 1 resigned");
        let o = numbered_seat_leave(2, 3, EndReason::Timeout);
        assert_eq!(o.winner, None);
        assert_eq!(o.explanation, "座位3超时 / seat 3 ran out of time");
    }

    /// A one-seat-to-move table with a fixed history, for the adapter tests.
    #[derive(Clone)]
    struct Stub(usize);

    impl Rules for Stub {
        fn rules_name(&self) -> &str {
            "stub"
        }
        fn seat_count(&self) -> usize {
            2
        }
        fn seats_to_move(&self) -> Vec<usize> {
            vec![self.0]
        }
        fn legal_moves_for(&self, _seat: usize) -> Vec<String> {
            vec!["go".into()]
        }
        fn play_for(&mut self, _: usize, _: &str, _: &mut dyn Chance) -> Result<(), MoveError> {
            Err(MoveError::GameOver)
        }
        fn result(&self) -> Option<&Outcome> {
            None
        }
        fn end(&mut self, _outcome: Outcome) {}
        fn history(&self) -> Vec<String> {
            Vec::new()
        }
    }

    impl Views for Stub {
        fn view(&self, _viewer: Viewer) -> String {
            String::new()
        }
    }

    impl HallPolicy for Stub {}

    impl Settlement for Stub {}

    impl TableGame for Stub {
        fn boxed_clone(&self) -> Box<dyn TableGame> {
            Box::new(self.clone())
        }
    }

    /// Another table type, which the stub's AI must not play.
    #[derive(Clone)]
    struct Other(Stub);

    impl Rules for Other {
        fn rules_name(&self) -> &str {
            "other"
        }
        fn seat_count(&self) -> usize {
            2
        }
        fn seats_to_move(&self) -> Vec<usize> {
            self.0.seats_to_move()
        }
        fn legal_moves_for(&self, seat: usize) -> Vec<String> {
            self.0.legal_moves_for(seat)
        }
        fn play_for(&mut self, s: usize, m: &str, c: &mut dyn Chance) -> Result<(), MoveError> {
            self.0.play_for(s, m, c)
        }
        fn result(&self) -> Option<&Outcome> {
            None
        }
        fn end(&mut self, _outcome: Outcome) {}
        fn history(&self) -> Vec<String> {
            Vec::new()
        }
    }

    impl Views for Other {
        fn view(&self, viewer: Viewer) -> String {
            self.0.view(viewer)
        }
    }

    impl HallPolicy for Other {}

    impl Settlement for Other {}

    impl TableGame for Other {
        fn boxed_clone(&self) -> Box<dyn TableGame> {
            Box::new(self.clone())
        }
    }

    struct StubAi;

    impl TypedAi for StubAi {
        type Table = Stub;
        fn choose(
            &self,
            t: &Stub,
            seat: usize,
            _: u8,
            _: Option<std::time::Duration>,
        ) -> Option<String> {
            (t.0 == seat).then(|| "go".to_string())
        }
        fn rating(&self, level: u8) -> f64 {
            f64::from(level) * 100.0
        }
        fn accepts_draw(&self, t: &Stub, seat: usize, _: u8) -> bool {
            t.0 != seat
        }
    }

    #[test]
    fn the_typed_ai_gets_its_own_table_and_nothing_else() {
        let ai: &dyn GameAi = &AiFor(StubAi);
        let mine: Box<dyn TableGame> = Box::new(Stub(1));
        assert_eq!(ai.choose(mine.as_ref(), 1, 3, None).as_deref(), Some("go"));
        assert_eq!(ai.choose(mine.as_ref(), 0, 3, None), None);
        assert!(ai.accepts_draw(mine.as_ref(), 0, 3));
        assert_eq!(ai.rating(3), 300.0);
        let other: Box<dyn TableGame> = Box::new(Other(Stub(1)));
        assert_eq!(ai.choose(other.as_ref(), 1, 3, None), None);
        assert!(!ai.accepts_draw(other.as_ref(), 0, 3));
        assert!(table_as::<Stub>(mine.as_ref()).is_some());
        assert!(table_as::<Stub>(other.as_ref()).is_none());
    }
}
