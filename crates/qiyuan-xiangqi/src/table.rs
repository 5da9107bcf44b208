//! Xiangqi and the Jifen rule sets as a hall table (feature `table`): two
//! seats (0 red, 1 black), full information, no chance; notation records,
//! PGN export, the X4 claim and the X5/X6 "can still win" test.

use qiyuan_core::{
    Chance, ClaimRefusal, ClaimVerdict, GameRules, HallPolicy, MoveError, MoveRecord, OpeningName,
    Outcome, Rules, Settlement, TableGame, Viewer, Views,
};

use crate::game::can_mate;
use crate::pgn::{MoveFormat, PgnGame, write_pgn};
use crate::{Color, Game, Position, START_FEN, Variant};

/// The largest Jifen target a game may set.
pub const MAX_TARGET: i32 = 10_000;

/// Xiangqi and the three Jifen rule sets as a table game: two seats (0 red,
/// 1 black), full information, no chance.
pub struct XiangqiTable {
    game: Game,
    /// An end from outside the rules (resignation, timeout, agreement, claim).
    ended: Option<Outcome>,
}

impl XiangqiTable {
    /// Starts `variant` from `fen` (or the start position) with the Jifen
    /// `target`. Errors are sentences for the API's 4xx answers.
    pub fn start(
        variant: Variant,
        fen: Option<&str>,
        target: Option<i32>,
    ) -> Result<XiangqiTable, String> {
        if let Some(t) = target {
            if !variant.is_jifen() {
                return Err("a target score applies only to the Jifen rule sets".into());
            }
            if !(1..=MAX_TARGET).contains(&t) {
                return Err(format!(
                    "target must be between 1 and {MAX_TARGET}, not {t}"
                ));
            }
        }
        let pos = Position::from_fen_variant(fen.unwrap_or(START_FEN), variant, target)
            .map_err(|e| format!("bad fen: {e}"))?;
        Ok(XiangqiTable {
            game: Game::new(pos),
            ended: None,
        })
    }

    /// The game (the AI searches its position and history).
    pub fn game(&self) -> &Game {
        &self.game
    }

    fn position(&self) -> &Position {
        self.game.position()
    }
}

impl Rules for XiangqiTable {
    fn rules_name(&self) -> &str {
        self.position().variant().name()
    }

    fn seat_count(&self) -> usize {
        2
    }

    fn seats_to_move(&self) -> Vec<usize> {
        if self.result().is_some() {
            return Vec::new();
        }
        self.game.to_move().into_iter().collect()
    }

    fn legal_moves_for(&self, seat: usize) -> Vec<String> {
        if self.seats_to_move() != [seat] {
            return Vec::new();
        }
        self.game.legal_moves()
    }

    fn play_for(
        &mut self,
        seat: usize,
        mv: &str,
        _chance: &mut dyn Chance,
    ) -> Result<(), MoveError> {
        if self.result().is_some() {
            return Err(MoveError::GameOver);
        }
        if self.game.to_move() != Some(seat) {
            return Err(MoveError::Illegal {
                text: mv.to_string(),
                why: "not your turn".into(),
            });
        }
        self.game.play(mv)
    }

    fn result(&self) -> Option<&Outcome> {
        self.ended.as_ref().or_else(|| self.game.outcome())
    }

    fn end(&mut self, outcome: Outcome) {
        if self.result().is_none() {
            self.ended = Some(outcome);
        }
    }

    fn history(&self) -> Vec<String> {
        self.game.moves().iter().map(|m| m.to_string()).collect()
    }
    fn plies(&self) -> usize {
        self.game.moves().len()
    }
    fn last_move(&self) -> Option<String> {
        self.game.moves().last().map(|m| m.to_string())
    }
}

impl Views for XiangqiTable {
    fn view(&self, _viewer: Viewer) -> String {
        // Xiangqi hides nothing: every viewer sees the same position.
        self.game.fen()
    }

    fn alerts(&self) -> Vec<String> {
        let pos = self.position();
        // A general in check while the game is played, and the mated one
        // after checkmate (the board rings it then too).
        let mated = self
            .result()
            .is_some_and(|o| o.reason == qiyuan_core::EndReason::Checkmate);
        if (self.result().is_none() || mated) && pos.in_check() {
            vec![pos.king_square(pos.side_to_move()).to_string()]
        } else {
            Vec::new()
        }
    }

    fn opening(&self) -> Option<OpeningName> {
        crate::ecco::classify(self.game.start(), self.game.moves()).map(|o| OpeningName {
            code: o.code.to_string(),
            name: o.name_zh.to_string(),
            name_en: o.name_en.to_string(),
        })
    }

    fn move_records(&self, from: usize) -> Vec<MoveRecord> {
        let mut pos = self.game.start().clone();
        let jifen = pos.variant().is_jifen();
        let moves = self.game.moves();
        let from = from.min(moves.len());
        // Only replay the plies before `from`: their notations are not asked for.
        for &m in &moves[..from] {
            pos.make_move(m);
        }
        let mut out = Vec::with_capacity(moves.len() - from);
        for &m in &moves[from..] {
            let notations = if m.is_pass() {
                vec![
                    ("wxf".to_string(), "pass".to_string()),
                    ("chinese".to_string(), "停着".to_string()),
                ]
            } else {
                vec![
                    ("wxf".to_string(), crate::notation::to_wxf(&pos, m)),
                    ("chinese".to_string(), crate::notation::to_chinese(&pos, m)),
                ]
            };
            pos.make_move(m);
            // The position after the move, for replaying a finished game.
            let mut notations = notations;
            notations.push(("fen".to_string(), pos.to_fen()));
            out.push(MoveRecord {
                text: m.to_string(),
                notations,
                scores: jifen.then(|| pos.scores().to_vec()),
            });
        }
        out
    }

    fn export_record(&self, tags: &[(String, String)], result: &str) -> Option<String> {
        self.export_record_in(tags, result, "iccs")
    }

    fn export_notations(&self) -> Vec<&'static str> {
        vec!["iccs", "wxf", "chinese"]
    }

    fn export_record_in(
        &self,
        tags: &[(String, String)],
        result: &str,
        notation: &str,
    ) -> Option<String> {
        let format = MoveFormat::from_name(notation).unwrap_or(MoveFormat::Iccs);
        let mut rec = PgnGame::new(self.game.start().clone());
        rec.tags = tags.to_vec();
        let variant = self.position().variant();
        if variant.is_jifen() {
            rec.tags.push(("Variant".into(), variant.name().into()));
        }
        // The ECCO code and name, as Chinese databases tag their games.
        if let Some(o) = self.opening() {
            rec.tags.retain(|(k, _)| k != "ECCO" && k != "Opening");
            rec.tags.push(("ECCO".into(), o.code));
            rec.tags.push(("Opening".into(), o.name));
        }
        rec.moves = self.game.moves().to_vec();
        rec.result = Some(result.to_string());
        Some(write_pgn(&rec, format))
    }
}

impl HallPolicy for XiangqiTable {
    fn turn_phase(&self) -> u8 {
        self.position().turn_state()
    }

    fn claimable(&self, _seat: usize) -> bool {
        self.ended.is_none() && self.game.move_limit_claimable()
    }

    fn claim(&mut self, _seat: usize) -> ClaimVerdict {
        if self.result().is_some() {
            return ClaimVerdict::Refused(ClaimRefusal::GameOver);
        }
        // The rules crate judges the claim (X4; none in Jifen, J20).
        match self.game.claim_move_limit() {
            Ok(()) => match self.game.outcome() {
                Some(o) => ClaimVerdict::Granted(o.clone()),
                None => ClaimVerdict::Refused(ClaimRefusal::GameOver),
            },
            Err(why) => ClaimVerdict::Refused(why),
        }
    }

    fn seat_leaves(&self, seat: usize, reason: qiyuan_core::EndReason) -> Outcome {
        // X6: after a flag fall the other side wins only if it can still mate
        // (Jifen: points can still be scored with any piece).
        let other = if seat == 0 { Color::Black } else { Color::Red };
        let pos = self.position();
        let can_win = pos.variant().is_jifen() || can_mate(pos, other);
        qiyuan_core::two_seat_leave(seat, reason, [("红", "red"), ("黑", "black")], can_win)
    }
}

impl Settlement for XiangqiTable {
    fn scores(&self) -> Option<Vec<i32>> {
        let pos = self.position();
        pos.variant().is_jifen().then(|| pos.scores().to_vec())
    }

    fn target(&self) -> Option<i32> {
        let pos = self.position();
        pos.variant().is_jifen().then(|| pos.target())
    }
}

impl TableGame for XiangqiTable {
    fn boxed_clone(&self) -> Box<dyn TableGame> {
        Box::new(XiangqiTable {
            game: self.game.clone(),
            ended: self.ended.clone(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use qiyuan_core::EndReason;

    fn new_table(
        rules: &str,
        fen: Option<&str>,
        target: Option<i32>,
    ) -> Result<Box<dyn TableGame>, String> {
        let v = Variant::from_name(rules).ok_or_else(|| format!("unknown game '{rules}'"))?;
        Ok(Box::new(XiangqiTable::start(v, fen, target)?))
    }

    struct NoChance;
    impl Chance for NoChance {
        fn draw(&mut self, _bound: u32) -> u32 {
            0
        }
    }

    #[test]
    fn plays_by_seat_and_refuses_the_wrong_seat() {
        let mut t = new_table("xiangqi", None, None).expect("start position");
        assert_eq!(t.seats_to_move(), vec![0]);
        assert!(t.play_for(1, "h9g7", &mut NoChance).is_err());
        t.play_for(0, "h2e2", &mut NoChance).expect("legal");
        assert_eq!(t.seats_to_move(), vec![1]);
        assert_eq!(t.history(), vec!["h2e2"]);
        let rec = t.move_records(0);
        assert_eq!(rec[0].notations[1].1, "炮二平五");
        t.play_for(1, "h9g7", &mut NoChance).expect("legal");
        t.play_for(0, "b2b9", &mut NoChance).expect("legal");
        // Records from a later ply are the tail of the whole list.
        let all = t.move_records(0);
        assert_eq!(all.len(), 3);
        assert_eq!(t.move_records(1), all[1..].to_vec());
        assert_eq!(t.move_records(3), Vec::new());
        assert_eq!(all[2].notations[1].1, "炮八进七");
    }

    #[test]
    fn unknown_games_and_bad_targets_are_refused() {
        assert!(new_table("chess", None, None).is_err());
        assert!(new_table("xiangqi", None, Some(10)).is_err());
        assert!(new_table("jifen-simple", None, Some(0)).is_err());
        assert!(new_table("jifen-simple", Some("not a fen"), None).is_err());
    }

    #[test]
    fn claim_needs_120_quiet_plies() {
        let mut t = new_table("xiangqi", None, None).expect("start");
        assert!(!t.claimable(0), "X4: not at the start");
        match t.claim(0) {
            ClaimVerdict::Refused(why) => assert_eq!(
                why,
                ClaimRefusal::TooEarly {
                    plies: 0,
                    needed: 120,
                    rule: "X4"
                }
            ),
            v => panic!("granted at the start: {v:?}"),
        }
        let mut t = new_table(
            "xiangqi",
            Some("4k4/9/9/9/9/9/9/9/R8/3K5 w - - 121 80"),
            None,
        )
        .expect("fen");
        assert!(t.claimable(0) && t.claimable(1), "X4: 121 quiet plies");
        assert!(matches!(t.claim(0), ClaimVerdict::Granted(_)));
        assert!(!t.claimable(0), "over");
        assert_eq!(t.result().map(|o| o.reason), Some(EndReason::MoveLimit));
    }

    #[test]
    fn x4_claimable_only_at_120_quiet_plies_and_never_in_jifen() {
        let at = |plies: u32, rules: &str| {
            let fen = format!("4k4/9/9/9/9/9/9/9/R8/3K5 w - - {plies} 80");
            new_table(rules, Some(&fen), None)
                .expect("fen")
                .claimable(0)
        };
        assert!(!at(119, "xiangqi"));
        assert!(at(120, "xiangqi"));
        assert!(!at(200, "jifen-simple"), "J20: Jifen has no claim");
    }

    #[test]
    fn the_mated_general_is_rung_after_checkmate() {
        // Two chariots: one holds rank 8, the other checks along rank 9.
        let mut t = new_table(
            "xiangqi",
            Some("4k4/1R7/9/9/9/9/9/9/R8/3K5 w - - 0 1"),
            None,
        )
        .expect("fen");
        assert!(t.alerts().is_empty());
        t.play_for(0, "a1a9", &mut NoChance).expect("legal");
        assert_eq!(
            t.result().map(|o| o.reason),
            Some(EndReason::Checkmate),
            "{:?}",
            t.result()
        );
        assert_eq!(t.alerts(), vec!["e9".to_string()]);
        // A resignation leaves no ring.
        let mut t = new_table("xiangqi", None, None).expect("start");
        t.end(qiyuan_core::two_seat_leave(
            0,
            EndReason::Resignation,
            [("红", "red"), ("黑", "black")],
            true,
        ));
        assert!(t.alerts().is_empty());
    }

    #[test]
    fn the_record_exports_in_each_notation() {
        let mut t = new_table("xiangqi", None, None).expect("start");
        t.play_for(0, "h2e2", &mut NoChance).expect("legal");
        t.play_for(1, "h9g7", &mut NoChance).expect("legal");
        assert_eq!(t.export_notations(), vec!["iccs", "wxf", "chinese"]);
        let tags = [("Event".to_string(), "x".to_string())];
        let iccs = t.export_record(&tags, "*").expect("pgn");
        assert!(
            iccs.contains("[Format \"ICCS\"]") && iccs.contains("1. H2-E2 H9-G7"),
            "{iccs}"
        );
        let wxf = t.export_record_in(&tags, "*", "wxf").expect("pgn");
        assert!(
            wxf.contains("[Format \"WXF\"]") && wxf.contains("1. C2.5 H8+7"),
            "{wxf}"
        );
        let zh = t.export_record_in(&tags, "*", "chinese").expect("pgn");
        assert!(
            zh.contains("[Format \"Chinese\"]") && zh.contains("1. 炮二平五 马８进７"),
            "{zh}"
        );
        // The Chinese record reads back as the same game.
        let back = crate::pgn::parse_pgn(&zh).expect("reads");
        assert_eq!(back.moves.len(), 2);
        // 炮二平五 马８进７: ECCO B05, tagged as Chinese databases do.
        for pgn in [&iccs, &wxf, &zh] {
            assert!(
                pgn.contains("[ECCO \"B05\"]") && pgn.contains("[Opening \"中炮对进左马\"]"),
                "{pgn}"
            );
        }
        let o = t.opening().expect("classified");
        assert_eq!(
            (o.code.as_str(), o.name_en.as_str()),
            ("B05", "Central cannon vs left horse")
        );
    }

    #[test]
    fn no_opening_before_a_move_or_from_a_set_up_position() {
        let t = new_table("xiangqi", None, None).expect("start");
        assert_eq!(t.opening(), None);
        let fen = "3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1";
        let mut t = new_table("xiangqi", Some(fen), None).expect("start");
        t.play_for(0, "a0a1", &mut NoChance).expect("legal");
        assert_eq!(t.opening(), None);
        let pgn = t.export_record(&[], "*").expect("pgn");
        assert!(!pgn.contains("[ECCO"), "{pgn}");
    }
}
