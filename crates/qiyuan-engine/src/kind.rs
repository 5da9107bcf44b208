//! The Xiangqi family for the hall's registry (feature `table`): one
//! [`XiangqiKind`] per rule set (each is its own rating family, H1), the
//! table from `qiyuan_xiangqi::table`, and this engine as its AI. The AI
//! searches the game's own typed position and history; it never re-parses
//! text.

use std::any::Any;
use std::sync::Arc;
use std::time::Duration;

use qiyuan_core::{
    AiFor, GameAi, GameKind, GameRules, OptionSpec, PoolSpec, StartSpec, TableGame, TypedAi,
    VariantSpec,
};
use qiyuan_xiangqi::table::{MAX_TARGET, XiangqiTable};
use qiyuan_xiangqi::{Position, Variant};

use crate::rep::Earlier;
use crate::{Level, SearchLimits, Searcher};

const TARGET: &[OptionSpec] = &[OptionSpec {
    name: "target",
    min: 1,
    max: MAX_TARGET as i64,
    about: "the score that wins at once (Jifen)",
}];

const XIANGQI: &[VariantSpec] = &[VariantSpec {
    name: "xiangqi",
    seats: &[2],
    options: &[],
}];
const JIFEN_SIMPLE: &[VariantSpec] = &[VariantSpec {
    name: "jifen-simple",
    seats: &[2],
    options: TARGET,
}];
const JIFEN_MATCH: &[VariantSpec] = &[VariantSpec {
    name: "jifen-match",
    seats: &[2],
    options: TARGET,
}];
const JIFEN_CONTEST: &[VariantSpec] = &[VariantSpec {
    name: "jifen-contest",
    seats: &[2],
    options: TARGET,
}];

/// One rule set of the Xiangqi family.
pub struct XiangqiKind {
    variant: Variant,
}

/// The four kinds of the family, for the registry.
pub fn kinds() -> Vec<Arc<dyn GameKind>> {
    Variant::ALL
        .into_iter()
        .map(|variant| Arc::new(XiangqiKind { variant }) as Arc<dyn GameKind>)
        .collect()
}

/// Xiangqi's pools: the time controls its players use most, bullet to
/// classical (minutes + seconds).
const XIANGQI_POOLS: [(i64, i64); 11] = [
    (1, 0),
    (2, 1),
    (3, 0),
    (3, 2),
    (5, 0),
    (5, 3),
    (10, 0),
    (10, 5),
    (15, 10),
    (30, 0),
    (30, 20),
];

/// The points variants' pools: a game to a target takes longer, so fewer
/// and slower ones.
const JIFEN_POOLS: [(i64, i64); 3] = [(5, 3), (10, 5), (15, 10)];

impl GameKind for XiangqiKind {
    fn id(&self) -> &'static str {
        self.variant.name()
    }
    fn pools(&self) -> Vec<PoolSpec> {
        let clocks: &[(i64, i64)] = match self.variant {
            Variant::Xiangqi => &XIANGQI_POOLS,
            _ => &JIFEN_POOLS,
        };
        clocks
            .iter()
            .map(|&(m, inc)| PoolSpec::new(self.variant.name(), m * 60, inc))
            .collect()
    }
    fn variants(&self) -> &'static [VariantSpec] {
        match self.variant {
            Variant::Xiangqi => XIANGQI,
            Variant::JifenSimple => JIFEN_SIMPLE,
            Variant::JifenMatch => JIFEN_MATCH,
            Variant::JifenContest => JIFEN_CONTEST,
        }
    }
    fn start(&self, spec: &StartSpec<'_>) -> Result<Box<dyn TableGame>, String> {
        if spec.seats != 2 {
            return Err("Xiangqi has two seats".into());
        }
        let target = match spec.options.get("target") {
            Some(&t) => Some(i32::try_from(t).map_err(|_| format!("target {t} is out of range"))?),
            None => None,
        };
        Ok(Box::new(XiangqiTable::start(
            self.variant,
            spec.setup,
            target,
        )?))
    }
    fn ai(&self) -> Option<&dyn GameAi> {
        Some(&AiFor(EngineAi))
    }
    fn seat_names(&self, seats: usize) -> Vec<String> {
        qiyuan_core::kind::named_seats(&["red", "black"], seats)
    }
    /// Xiangqi reads the files its players keep games in (PGN, XQF, CBF,
    /// FEN, move lists) through `qiyuan-import`; the Jifen rule sets read
    /// none (their positions carry classes and scores no such file has).
    fn import(
        &self,
        bytes: &[u8],
    ) -> Option<Result<qiyuan_core::ImportedGame, qiyuan_core::ImportError>> {
        (self.variant == Variant::Xiangqi).then(|| import_file(bytes))
    }
    fn web_module(&self) -> &'static str {
        "xiangqi"
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// A Xiangqi file as the core's game-neutral import: the tree flattened
/// (the import crate's nodes are already parents first; its root, the start
/// position, is dropped, so every index moves down by one).
fn import_file(bytes: &[u8]) -> Result<qiyuan_core::ImportedGame, qiyuan_core::ImportError> {
    use qiyuan_core::{ImportError, ImportPlace, ImportedGame, ImportedMove};
    let game = qiyuan_import::import(bytes).map_err(|e| ImportError {
        message: e.to_string(),
        kind: e.kind(),
        place: e.place().map(|p| match p {
            qiyuan_import::Place::Line { line, column } => ImportPlace::Line { line, column },
            qiyuan_import::Place::Byte(b) => ImportPlace::Byte(b),
        }),
    })?;
    let nodes = game.tree.nodes();
    let mut moves = Vec::with_capacity(nodes.len().saturating_sub(1));
    // Children in their order under each parent: walk the parents' child
    // lists (depth first) so siblings keep the main line first and every
    // parent comes before its children.
    let mut index = vec![None; nodes.len()];
    let mut stack: Vec<usize> = game.tree.root().children.iter().rev().copied().collect();
    while let Some(i) = stack.pop() {
        let Some(n) = nodes.get(i) else { continue };
        let parent = n.parent.and_then(|p| index.get(p).copied().flatten());
        index[i] = Some(moves.len());
        moves.push(ImportedMove {
            parent,
            mv: n.mv.clone(),
            comment: n.comment.clone(),
        });
        stack.extend(n.children.iter().rev().copied());
    }
    Ok(ImportedGame {
        format: game.format.name().to_string(),
        start: game.start_fen.clone(),
        comment: game.comment().map(str::to_string),
        tags: game.tags,
        moves,
    })
}

/// This engine at levels 1-8. Thinking time grows with the level (100 ms at
/// level 1 to 1.5 s at level 8) unless the hall sets a budget.
pub struct EngineAi;

impl TypedAi for EngineAi {
    type Table = XiangqiTable;
    fn choose(
        &self,
        table: &XiangqiTable,
        seat: usize,
        level: u8,
        budget: Option<Duration>,
    ) -> Option<String> {
        let g = table.game();
        if g.to_move() != Some(seat) {
            return None;
        }
        let budget = budget.unwrap_or_else(|| {
            Duration::from_millis(100 + 200 * u64::from(level.saturating_sub(1)))
        });
        crate::best_move(g, Level::new(level), budget)
            .map(|m| m.to_string())
            .or_else(|| g.legal_moves().into_iter().next())
    }
    fn rating(&self, level: u8) -> f64 {
        f64::from(Level::new(level.clamp(1, 8)).rating())
    }
    fn accepts_draw(&self, table: &XiangqiTable, seat: usize, level: u8) -> bool {
        let _ = level;
        let g = table.game();
        let Some(to_move) = g.to_move() else {
            return false;
        };
        let (_, history) = crate::rep::replay(g.start(), g.moves());
        match draw_score(g.position(), &history) {
            // The score is the side to move's; the AI wants it for its seat.
            Some(score) => {
                let mine = if to_move == seat { score } else { -score };
                mine <= DRAW_MARGIN
            }
            None => false,
        }
    }
}

/// The most (in centipawns, for the AI's side) at which the AI still
/// accepts a draw: it takes one only when it is not better.
pub const DRAW_MARGIN: i32 = 30;

/// The bounded search that judges a draw offer: a fixed depth and node
/// count, so the answer is quick and the same for the same game.
const DRAW_SEARCH: SearchLimits = SearchLimits {
    depth: Some(6),
    nodes: Some(200_000),
    movetime: None,
    clock: None,
    excluded: Vec::new(),
};

/// The score of `pos` for its side to move by [`DRAW_SEARCH`], if it has a move.
fn draw_score(pos: &Position, history: &[Earlier]) -> Option<i32> {
    let mut searcher = Searcher::new(4);
    let r = searcher.search(pos, history, &DRAW_SEARCH, &mut |_| {});
    r.best.map(|_| r.score)
}

#[cfg(test)]
mod tests {
    use super::*;
    use qiyuan_core::Options;

    fn start(
        kind: &dyn GameKind,
        fen: Option<&str>,
        options: &Options,
    ) -> Result<Box<dyn TableGame>, String> {
        kind.start(&StartSpec {
            variant: kind.variants()[0].name,
            seats: 2,
            options,
            setup: fen,
            seed: [0; 32],
        })
    }

    #[test]
    fn the_engine_takes_a_free_chariot() {
        let kinds = kinds();
        let t = start(
            kinds[0].as_ref(),
            Some("r3k4/9/9/9/9/9/9/9/9/R2K5 w"),
            &Options::new(),
        )
        .expect("fen");
        let ai = kinds[0].ai().expect("an AI");
        let m = ai.choose(t.as_ref(), 0, 4, Some(Duration::from_millis(50)));
        assert_eq!(m.as_deref(), Some("a0a9"));
        // Not its seat: no move.
        assert_eq!(
            ai.choose(t.as_ref(), 1, 4, Some(Duration::from_millis(50))),
            None
        );
    }

    #[test]
    fn the_engine_accepts_a_draw_only_when_it_is_not_better() {
        let kinds = kinds();
        let ai = kinds[0].ai().expect("an AI");
        // Red has two chariots against a bare king: red is winning.
        for to_move in ["w", "b"] {
            let fen = format!("3k5/9/9/9/9/9/9/9/R8/1R2K4 {to_move} - - 0 1");
            let t = start(kinds[0].as_ref(), Some(&fen), &Options::new()).expect("fen");
            assert!(
                !ai.accepts_draw(t.as_ref(), 0, 4),
                "red declines ({to_move})"
            );
            assert!(
                ai.accepts_draw(t.as_ref(), 1, 4),
                "black accepts ({to_move})"
            );
        }
        // The same answer every time (a bounded, node-limited search).
        let t = start(kinds[0].as_ref(), None, &Options::new()).expect("start");
        let first = ai.accepts_draw(t.as_ref(), 1, 4);
        assert_eq!(ai.accepts_draw(t.as_ref(), 1, 4), first);
    }

    #[test]
    fn targets_only_for_jifen_and_in_range() {
        let kinds = kinds();
        let mut o = Options::new();
        o.insert("target".into(), 30);
        assert!(
            start(kinds[0].as_ref(), None, &o).is_err(),
            "xiangqi has no target"
        );
        assert!(start(kinds[1].as_ref(), None, &o).is_ok());
        o.insert("target".into(), 1 << 40);
        assert!(start(kinds[1].as_ref(), None, &o).is_err());
        assert_eq!(
            kinds.iter().map(|k| k.id()).collect::<Vec<_>>(),
            ["xiangqi", "jifen-simple", "jifen-match", "jifen-contest"]
        );
    }

    #[test]
    fn xiangqi_imports_a_tree_with_parents_first_and_jifen_none() {
        let kinds = kinds();
        let pgn = "[Red \"甲\"]\n{开局}\n1. 炮二平五 {中炮} 马８进７ (1... 炮８平５ {顺炮} 2. 马二进三) 2. 马二进三 1-0\n";
        let g = kinds[0]
            .import(pgn.as_bytes())
            .expect("xiangqi imports")
            .expect("a good file");
        assert_eq!(g.format, "pgn");
        assert!(g.start.starts_with("rnbakabnr/9/1c5c1/"), "{}", g.start);
        assert_eq!(g.tags[0], ("Red".to_string(), "甲".to_string()));
        assert_eq!(g.comment.as_deref(), Some("开局"));
        let flat: Vec<(Option<usize>, &str)> =
            g.moves.iter().map(|m| (m.parent, m.mv.as_str())).collect();
        // Depth first, the main continuation before each side line.
        assert_eq!(
            flat,
            [
                (None, "h2e2"),
                (Some(0), "h9g7"),
                (Some(1), "h0g2"),
                (Some(0), "h7e7"),
                (Some(3), "h0g2"),
            ]
        );
        assert_eq!(g.moves[0].comment.as_deref(), Some("中炮"));
        assert_eq!(g.moves[3].comment.as_deref(), Some("顺炮"));
        let e = kinds[0]
            .import(b"1. h2e2 h9g7\n2. h2h9\n")
            .expect("xiangqi imports")
            .expect_err("an illegal move");
        assert_eq!(e.kind, "move");
        assert_eq!(
            e.place,
            Some(qiyuan_core::ImportPlace::Line { line: 2, column: 4 })
        );
        assert!(kinds[0].import(b"").is_some_and(|r| r.is_err()));
        assert!(kinds[1].import(pgn.as_bytes()).is_none());
    }
}
