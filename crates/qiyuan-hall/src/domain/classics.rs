//! Classic composed endgames (排局, issue 40): well-known positions with
//! their names and their result with correct play, shipped by the binary
//! (`data/classics/<variant>.tsv`), checked through their game kind at
//! start and listed for the page, which starts a game against the engine
//! from one (a room's `fen` option).

use qiyuan_core::{Options, Viewer};
use serde::Serialize;
use utoipa::ToSchema;

use crate::domain::hall::Hall;
use crate::domain::registry::Registry;
use crate::error::{ErrorCode, HallError, HallResult};

/// The longest name or gloss of a classic.
pub const MAX_NAME_LEN: usize = 80;
/// The most classics one variant may ship.
pub const MAX_PER_VARIANT: usize = 200;

/// One shipped classic as the binary hands it over, before it is checked.
#[derive(Clone, Debug, PartialEq)]
pub struct ClassicRecord {
    /// The variant (rule set) it is played in.
    pub variant: String,
    /// Its id, unique in the variant.
    pub id: String,
    /// Its traditional (Chinese) name.
    pub name: String,
    /// An English gloss of the name.
    pub gloss: String,
    /// The position, in the game's FEN.
    pub fen: String,
    /// The result with correct play for the side to move: `win`, `draw`
    /// or `loss`.
    pub result: String,
}

impl ClassicRecord {
    /// The rows of a shipped TSV file (`id, name, gloss, fen, result`,
    /// tab-separated; `#` lines and the header are skipped) for `variant`.
    /// A row that does not read is left out with a warning.
    pub fn parse_tsv(variant: &str, text: &str) -> Vec<ClassicRecord> {
        let mut out = Vec::new();
        for (n, line) in text.lines().enumerate() {
            let line = line.trim_end_matches('\r');
            if line.trim().is_empty() || line.starts_with('#') || line.starts_with("id\t") {
                continue;
            }
            let f: Vec<&str> = line.split('\t').map(str::trim).collect();
            let [id, name, gloss, fen, result] = f[..] else {
                tracing::warn!(variant, line = n + 1, "classic skipped: not five fields");
                continue;
            };
            out.push(ClassicRecord {
                variant: variant.to_string(),
                id: id.to_string(),
                name: name.to_string(),
                gloss: gloss.to_string(),
                fen: fen.to_string(),
                result: result.to_string(),
            });
        }
        out
    }
}

/// A classic as the page lists it.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct ClassicView {
    /// Its id.
    pub id: String,
    /// The variant.
    pub variant: String,
    /// Its traditional (Chinese) name.
    pub name: String,
    /// An English gloss of the name.
    pub gloss: String,
    /// The position as shipped (the room's `fen` option takes it).
    pub fen: String,
    /// The position as a spectator sees it (for drawing the board).
    pub board: String,
    /// The seat to move.
    pub to_move: usize,
    /// That seat's name (a room's `seat` option takes it, so that the
    /// player moves first).
    pub seat: String,
    /// The result with correct play for the seat to move: `win`, `draw`
    /// or `loss`.
    pub result: String,
}

/// `GET /api/puzzles/classics`'s answer.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct ClassicList {
    /// The variant.
    pub variant: String,
    /// Its classics, in the shipped order.
    pub classics: Vec<ClassicView>,
}

/// An id: lower-case letters, digits and `-`.
fn id_ok(id: &str) -> bool {
    !id.is_empty()
        && id.len() <= 40
        && id
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
}

/// Checks a shipped classic: a known variant, a sane id, name and result,
/// a position the game accepts that is not over and has one seat to move.
pub fn check(games: &Registry, r: &ClassicRecord) -> Result<ClassicView, String> {
    if games.find(&r.variant).is_none() {
        return Err(format!("no variant {:?}", r.variant));
    }
    if !id_ok(&r.id) {
        return Err(format!(
            "the id {:?} is not 1 to 40 lower-case letters, digits or '-'",
            r.id
        ));
    }
    for (what, text) in [("name", &r.name), ("gloss", &r.gloss)] {
        if text.is_empty() || text.chars().count() > MAX_NAME_LEN {
            return Err(format!("the {what} is empty or longer than {MAX_NAME_LEN}"));
        }
    }
    if !matches!(r.result.as_str(), "win" | "draw" | "loss") {
        return Err(format!(
            "the result {:?} is not win, draw or loss",
            r.result
        ));
    }
    let table = games
        .new_table(&r.variant, &Options::new(), Some(&r.fen))
        .map_err(|e| e.message)?;
    if table.result().is_some() {
        return Err("the game is already over".into());
    }
    let [seat] = table.seats_to_move()[..] else {
        return Err("not one seat to move".into());
    };
    Ok(ClassicView {
        id: r.id.clone(),
        variant: r.variant.clone(),
        name: r.name.clone(),
        gloss: r.gloss.clone(),
        fen: r.fen.clone(),
        board: table.view(Viewer::Spectator),
        to_move: seat,
        seat: games
            .seat_names(&r.variant, table.seat_count())
            .get(seat)
            .cloned()
            .unwrap_or_default(),
        result: r.result.clone(),
    })
}

/// Every registered classic that passes [`check`], per variant in the
/// registry's order; a bad row is left out with a warning.
pub fn checked(games: &Registry) -> Vec<ClassicView> {
    let mut out: Vec<ClassicView> = Vec::new();
    for r in games.classics() {
        match check(games, r) {
            Ok(v) if out.iter().any(|c| c.variant == v.variant && c.id == v.id) => {
                tracing::warn!(id = %v.id, "classic skipped: its id is taken")
            }
            Ok(v) if out.iter().filter(|c| c.variant == v.variant).count() >= MAX_PER_VARIANT => {
                tracing::warn!(id = %v.id, "classic skipped: too many in its variant")
            }
            Ok(v) => out.push(v),
            Err(e) => tracing::warn!(id = %r.id, variant = %r.variant, "classic skipped: {e}"),
        }
    }
    out
}

impl Hall {
    /// `GET /api/puzzles/classics`: the classics of a variant (by default
    /// the first that has any). A variant the hall does not have is a 404
    /// `no_puzzle`; one it has without classics answers an empty list.
    pub fn classics(&self, variant: Option<&str>) -> HallResult<ClassicList> {
        let all = self
            .extensions
            .get_or_insert_with(|| Classics(checked(&self.games)))
            .0;
        let variant = match variant {
            Some(v) if self.games.find(v).is_some() => v.to_string(),
            Some(v) => {
                let shown = crate::error::shown(v);
                return Err(HallError::not_found(format!("no classics of '{shown}'"))
                    .with_code(ErrorCode::NoPuzzle)
                    .with("variant", shown));
            }
            None => match all.0.first() {
                Some(c) => c.variant.clone(),
                None => {
                    return Err(HallError::not_found("this hall has no classics")
                        .with_code(ErrorCode::NoPuzzle));
                }
            },
        };
        Ok(ClassicList {
            classics: all
                .0
                .iter()
                .filter(|c| c.variant == variant)
                .cloned()
                .collect(),
            variant,
        })
    }
}

/// The checked classics, computed once per hall.
#[derive(Default)]
struct Classics(Vec<ClassicView>);
