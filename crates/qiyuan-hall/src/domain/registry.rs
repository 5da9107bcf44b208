//! The games the hall offers, as the binary registered them: the hall knows
//! a game only through its [`GameKind`]. Looking a variant up, checking a
//! room's options against the variant's specs, starting a table with server
//! randomness, and the list of kinds the page and bots read
//! (`GET /api/kinds`).

use std::sync::Arc;

use qiyuan_core::{GameKind, Options, StartSpec, TableGame, VariantSpec};
use rand::RngCore;
use serde_json::{Value, json};

use crate::error::ErrorCode;
use crate::error::{HallError, HallResult};

/// The registered kinds.
#[derive(Clone, Default)]
pub struct Registry {
    kinds: Vec<Arc<dyn GameKind>>,
    /// The puzzles the binary ships, loaded into the store at start.
    puzzles: Arc<Vec<crate::domain::puzzles::PuzzleRecord>>,
    /// The classic composed endgames the binary ships.
    classics: Arc<Vec<crate::domain::classics::ClassicRecord>>,
}

impl std::fmt::Debug for Registry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list()
            .entries(self.kinds.iter().map(|k| k.id()))
            .finish()
    }
}

impl Registry {
    /// An empty registry.
    pub fn new() -> Registry {
        Registry::default()
    }

    /// Registers kinds (the binary: one line per game crate).
    pub fn with(mut self, kinds: impl IntoIterator<Item = Arc<dyn GameKind>>) -> Registry {
        self.kinds.extend(kinds);
        self
    }

    /// Adds shipped puzzles (the binary: parsed from its data files), which
    /// the hall checks and stores at start.
    pub fn with_puzzles(
        mut self,
        puzzles: impl IntoIterator<Item = crate::domain::puzzles::PuzzleRecord>,
    ) -> Registry {
        Arc::make_mut(&mut self.puzzles).extend(puzzles);
        self
    }

    /// The shipped puzzles, as registered.
    pub fn puzzles(&self) -> &[crate::domain::puzzles::PuzzleRecord] {
        &self.puzzles
    }

    /// Adds shipped classic endgames (the binary: parsed from its data
    /// files), which the hall checks before listing them.
    pub fn with_classics(
        mut self,
        classics: impl IntoIterator<Item = crate::domain::classics::ClassicRecord>,
    ) -> Registry {
        Arc::make_mut(&mut self.classics).extend(classics);
        self
    }

    /// The shipped classics, as registered.
    pub fn classics(&self) -> &[crate::domain::classics::ClassicRecord] {
        &self.classics
    }

    /// The kind and variant spec of a variant name.
    pub fn find(&self, variant: &str) -> Option<(&Arc<dyn GameKind>, &'static VariantSpec)> {
        self.kinds.iter().find_map(|k| {
            k.variants()
                .iter()
                .find(|v| v.name == variant)
                .map(|v| (k, v))
        })
    }

    /// The kind whose id (rating family) is `id`.
    pub fn kind(&self, id: &str) -> Option<&Arc<dyn GameKind>> {
        self.kinds.iter().find(|k| k.id() == id)
    }

    /// The kind of a variant, or a 400 `unknown_game` naming the known ones.
    pub fn kind_of(&self, variant: &str) -> HallResult<(&Arc<dyn GameKind>, &'static VariantSpec)> {
        self.find(variant).ok_or_else(|| {
            HallError::bad(format!(
                "unknown game '{}' (known: {})",
                crate::error::shown(variant),
                self.variant_names().join(", ")
            ))
            .with_code(ErrorCode::BadGame)
        })
    }

    /// The number of seats a table of `spec` is started with (its first
    /// seat count; what [`Registry::new_table`] uses).
    fn start_seats(spec: &VariantSpec) -> usize {
        spec.seats.first().copied().unwrap_or(2)
    }

    /// The variants an event or a team event can play: those whose games
    /// have two seats (a red and a black player, as the events' pairings,
    /// colours and results assume), in registration order.
    pub fn two_seat_variants(&self) -> Vec<&'static str> {
        self.kinds
            .iter()
            .flat_map(|k| k.variants().iter())
            .filter(|v| Registry::start_seats(v) == 2)
            .map(|v| v.name)
            .collect()
    }

    /// Checks that `variant` is a game an event can play (decided from the
    /// variant's seat counts): a 400 `bad_game` for an unknown name, a 400
    /// `not_two_seats` for a variant played by more or fewer than two
    /// seats, each naming the variants that fit.
    pub fn event_variant(&self, variant: &str) -> HallResult<&'static VariantSpec> {
        let (_, spec) = self.kind_of(variant)?;
        let seats = Registry::start_seats(spec);
        if seats != 2 {
            return Err(HallError::bad(format!(
                "{} is played by {seats} seats; an event's games have two seats (games that fit: {})",
                spec.name,
                self.two_seat_variants().join(", ")
            ))
            .with_code(ErrorCode::NotTwoSeats));
        }
        Ok(spec)
    }

    /// The rating family of a variant (its kind's id).
    pub fn family_of(&self, variant: &str) -> Option<&'static str> {
        self.find(variant).map(|(k, _)| k.id())
    }

    /// The seat names of a game of `rules` with `seats` seats.
    pub fn seat_names(&self, rules: &str, seats: usize) -> Vec<String> {
        match self.find(rules) {
            Some((k, _)) => k.seat_names(seats),
            None => (1..=seats).map(|n| format!("seat{n}")).collect(),
        }
    }

    /// The winning seat of a stored result (`Some(None)`: a draw; `None`:
    /// no result yet).
    pub fn winner_of(
        &self,
        rules: &str,
        seats: usize,
        result: Option<&str>,
    ) -> Option<Option<usize>> {
        let result = result?;
        Some(
            self.seat_names(rules, seats)
                .iter()
                .position(|n| n == result),
        )
    }

    /// Every variant name, in registration order.
    pub fn variant_names(&self) -> Vec<&'static str> {
        self.kinds
            .iter()
            .flat_map(|k| k.variants().iter().map(|v| v.name))
            .collect()
    }

    /// Every kind.
    pub fn kinds(&self) -> &[Arc<dyn GameKind>] {
        &self.kinds
    }

    /// Checks a room's options against the variant's specs: known names,
    /// values within bounds (400 `out_of_range` naming the option).
    pub fn check_options(spec: &VariantSpec, options: &Options) -> HallResult<()> {
        for (name, &value) in options {
            let Some(o) = spec.option(name) else {
                let known: Vec<&str> = spec.options.iter().map(|o| o.name).collect();
                return Err(HallError::bad(format!(
                    "{} has no option '{}' (options: {})",
                    spec.name,
                    crate::error::shown(name),
                    if known.is_empty() {
                        "none".to_string()
                    } else {
                        known.join(", ")
                    }
                ))
                .with_code(ErrorCode::BadOption));
            };
            crate::limits::check_range(&format!("options.{name}"), value, o.min, o.max)?;
        }
        Ok(())
    }

    /// Starts `variant` with `options` from `setup` (a set-up position, or a
    /// stored secret set-up on replay). Options are checked first; the seed
    /// comes from the thread's generator (a CSPRNG seeded by the OS).
    pub fn new_table(
        &self,
        variant: &str,
        options: &Options,
        setup: Option<&str>,
    ) -> HallResult<Box<dyn TableGame>> {
        let (kind, spec) = self.kind_of(variant)?;
        Registry::check_options(spec, options)?;
        let mut seed = [0u8; 32];
        rand::rng().fill_bytes(&mut seed);
        let seats = Registry::start_seats(spec);
        kind.start(&StartSpec {
            variant,
            seats,
            options,
            setup,
            seed,
        })
        .map_err(|e| HallError::bad(e).with_code(ErrorCode::BadGame))
    }

    /// The ids of the kinds that read game files ([`GameKind::import`]).
    pub fn importing_kinds(&self) -> Vec<&'static str> {
        self.kinds
            .iter()
            .filter(|k| k.import(b"").is_some())
            .map(|k| k.id())
            .collect()
    }

    /// Reads game file `bytes` as kind `id` does: a 404 `not_found` for a
    /// kind the hall lacks or one that reads no files, a 400
    /// `import_invalid` for a file it cannot read, with the kind of problem
    /// (`why`) and its `place` (`{line, column}` or `{byte}`) in the
    /// details. CPU-bound (up to the import limit's bytes): call it off the
    /// async workers.
    pub fn import(&self, id: &str, bytes: &[u8]) -> HallResult<qiyuan_core::ImportedGame> {
        let result = self.kind(id).and_then(|k| k.import(bytes)).ok_or_else(|| {
            HallError::not_found(format!(
                "no game '{}' that reads files; these do: {}",
                crate::error::shown(id),
                self.importing_kinds().join(", ")
            ))
        })?;
        result.map_err(|e| {
            let mut err = HallError::new(ErrorCode::ImportInvalid, e.message).with("why", e.kind);
            match e.place {
                Some(qiyuan_core::ImportPlace::Line { line, column }) => {
                    err = err.with("place", json!({"line": line, "column": column}));
                }
                Some(qiyuan_core::ImportPlace::Byte(byte)) => {
                    err = err.with("place", json!({ "byte": byte }));
                }
                None => {}
            }
            err
        })
    }

    /// `GET /api/kinds`: every kind with its variants, seat counts, options,
    /// default clock, whether it has an AI and its web module.
    pub fn to_json(&self) -> Value {
        let kinds: Vec<Value> = self
            .kinds
            .iter()
            .map(|k| {
                let clock = match k.default_clock() {
                    qiyuan_core::DefaultClock::PerSeat {
                        initial_s,
                        increment_s,
                    } => json!({"kind": "per_seat", "initial_s": initial_s, "increment_s": increment_s}),
                    qiyuan_core::DefaultClock::PerMove { seconds } => {
                        json!({"kind": "per_move", "seconds": seconds})
                    }
                };
                json!({
                    "id": k.id(),
                    "web_module": k.web_module(),
                    "ai": k.ai().is_some(),
                    "imports": k.import(b"").is_some(),
                    "settlement": k.settlement(),
                    "clock": clock,
                    "variants": k.variants().iter().map(|v| json!({
                        "name": v.name,
                        "seats": v.seats,
                        "teams": v.seats.first().and_then(|&n| k.teams(v.name, n)),
                        "options": v.options.iter().map(|o| json!({
                            "name": o.name, "min": o.min, "max": o.max, "about": o.about,
                        })).collect::<Vec<_>>(),
                    })).collect::<Vec<_>>(),
                })
            })
            .collect();
        json!({"kinds": kinds})
    }
}
