//! The registry with a game no crate ships: three seats, a simultaneous
//! secret phase, then turns. Registered from this test, played through the
//! real server over HTTP and WebSocket: all three clocks run in the secret
//! phase, an AI seat acts in it, each seat sees only its own secret (checked
//! over every message it receives), a restart mid-game resumes it, and the
//! placings are stored and reloaded. (Moved from the binary's tests: the
//! kind is the test's own, beside the fake game.)
//!
//! The game ("secret words"): first every seat picks one of nine words at the
//! same time (`w:amber` …), unseen by the others; then seats 0, 1, 2 in turn
//! reveal theirs (`reveal`); then the game ends and the seats are ranked by
//! their words in alphabetical order (equal words share a place).

use crate::common;

use std::any::Any;
use std::sync::Arc;
use std::time::Duration;

use crate::common::{get, post, register, temp_db};
use futures_util::{SinkExt, StreamExt};
use qiyuan_core::{
    Chance, EndReason, GameAi, GameKind, HallPolicy, MoveError, MoveRecord, OptionSpec, Outcome,
    Rules, Settlement, StartSpec, TableGame, VariantSpec, Viewer, Views,
};
use qiyuan_hall::client::connect_ws;
use qiyuan_hall::limits::Limits;
use qiyuan_hall::server::{Config, Running};
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::Message;

const WORDS: [&str; 9] = [
    "amber", "basil", "cedar", "delta", "ember", "fjord", "gamma", "heron", "indigo",
];

#[derive(Clone, Default)]
struct SecretWords {
    picks: [Option<&'static str>; 3],
    revealed: usize,
    history: Vec<String>,
    movers: Vec<usize>,
    ended: Option<Outcome>,
}

impl SecretWords {
    fn secret_phase(&self) -> bool {
        self.picks.iter().any(Option::is_none)
    }
    fn ranking(&self) -> Vec<Vec<usize>> {
        let mut seats: Vec<usize> = (0..3).collect();
        seats.sort_by_key(|&s| self.picks[s]);
        let mut out: Vec<Vec<usize>> = Vec::new();
        for s in seats {
            match out.last_mut() {
                Some(g) if self.picks[g[0]] == self.picks[s] => g.push(s),
                _ => out.push(vec![s]),
            }
        }
        out
    }
    /// What `viewer` may know of `seat`'s word.
    fn shown(&self, seat: usize, viewer: Viewer) -> &'static str {
        let mine = viewer == Viewer::Seat(seat);
        match self.picks[seat] {
            None => "-",
            Some(w) if mine || seat < self.revealed => w,
            Some(_) => "?",
        }
    }
}

impl Rules for SecretWords {
    fn rules_name(&self) -> &str {
        "secret-words"
    }
    fn seat_count(&self) -> usize {
        3
    }
    fn seats_to_move(&self) -> Vec<usize> {
        if self.ended.is_some() {
            Vec::new()
        } else if self.secret_phase() {
            (0..3).filter(|&s| self.picks[s].is_none()).collect()
        } else {
            vec![self.revealed]
        }
    }
    fn legal_moves_for(&self, seat: usize) -> Vec<String> {
        if !self.seats_to_move().contains(&seat) {
            Vec::new()
        } else if self.secret_phase() {
            // A word of one's choice, or one of the last three drawn by chance.
            let mut m: Vec<String> = WORDS.iter().map(|w| format!("w:{w}")).collect();
            m.push("w:random".into());
            m
        } else {
            vec!["reveal".into()]
        }
    }
    fn play_for(&mut self, seat: usize, mv: &str, c: &mut dyn Chance) -> Result<(), MoveError> {
        if !self.legal_moves_for(seat).iter().any(|m| m == mv) {
            return Err(MoveError::Illegal {
                text: mv.into(),
                why: "not a move of this seat now".into(),
            });
        }
        if mv == "w:random" {
            self.picks[seat] = Some(WORDS[6 + c.draw(3) as usize]);
        } else if let Some(w) = mv.strip_prefix("w:") {
            self.picks[seat] = WORDS.iter().copied().find(|x| *x == w);
        } else {
            self.revealed += 1;
            if self.revealed == 3 {
                let ranking = self.ranking();
                self.ended = Some(Outcome {
                    winner: (ranking[0].len() == 1).then(|| ranking[0][0]),
                    partners: Vec::new(),
                    reason: EndReason::Points,
                    explanation: "ranked by word".into(),
                });
            }
        }
        self.history.push(mv.to_string());
        self.movers.push(seat);
        Ok(())
    }
    fn result(&self) -> Option<&Outcome> {
        self.ended.as_ref()
    }
    fn end(&mut self, outcome: Outcome) {
        self.ended.get_or_insert(outcome);
    }
    fn history(&self) -> Vec<String> {
        self.history.clone()
    }
}

impl Views for SecretWords {
    fn view(&self, viewer: Viewer) -> String {
        (0..3)
            .map(|s| self.shown(s, viewer))
            .collect::<Vec<_>>()
            .join(",")
    }
    fn move_records_for(&self, viewer: Viewer, _from: usize) -> (usize, Vec<MoveRecord>) {
        // A pick reads "pick" for everyone but its own seat until revealed,
        // so a reveal changes earlier records: always the whole list.
        let all = self
            .history
            .iter()
            .zip(&self.movers)
            .map(|(m, &s)| MoveRecord {
                text: if m.starts_with("w:") && viewer != Viewer::Seat(s) && s >= self.revealed {
                    "pick".into()
                } else {
                    m.clone()
                },
                notations: Vec::new(),
                scores: None,
            })
            .collect();
        (0, all)
    }
}

impl HallPolicy for SecretWords {}

impl Settlement for SecretWords {
    fn placings(&self) -> Option<Vec<Vec<usize>>> {
        (self.revealed == 3).then(|| self.ranking())
    }
}

impl TableGame for SecretWords {
    fn boxed_clone(&self) -> Box<dyn TableGame> {
        Box::new(self.clone())
    }
}

struct SecretKind;
struct SecretAi;

const VARIANTS: &[VariantSpec] = &[VariantSpec {
    name: "secret-words",
    seats: &[3],
    options: &[] as &[OptionSpec],
}];

impl GameKind for SecretKind {
    fn id(&self) -> &'static str {
        "secret-words"
    }
    fn variants(&self) -> &'static [VariantSpec] {
        VARIANTS
    }
    fn start(&self, spec: &StartSpec<'_>) -> Result<Box<dyn TableGame>, String> {
        if spec.setup.is_some() {
            return Err("no set-ups".into());
        }
        Ok(Box::new(SecretWords::default()))
    }
    fn ai(&self) -> Option<&dyn GameAi> {
        Some(&SecretAi)
    }
    fn web_module(&self) -> &'static str {
        "secret-words"
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}

impl GameAi for SecretAi {
    fn choose(
        &self,
        game: &dyn TableGame,
        seat: usize,
        _level: u8,
        _b: Option<Duration>,
    ) -> Option<String> {
        // The AI sees what its seat sees: it picks by its own seat number.
        let legal = game.legal_moves_for(seat);
        legal.get(seat.min(legal.len().saturating_sub(1))).cloned()
    }
    fn rating(&self, _level: u8) -> f64 {
        1000.0
    }
}

async fn server_on(db: &std::path::Path) -> (Running, String) {
    let r = qiyuan_hall::server::start(
        &Config {
            port: 0,
            database: format!("sqlite://{}", db.display()),
            rate_per_sec: 0,
            limits: Limits::default(),
            ai_budget: Some(Duration::from_millis(2)),
            ..Config::default()
        },
        common::games().with([Arc::new(SecretKind) as Arc<dyn GameKind>]),
    )
    .await
    .expect("the hall starts");
    let addr = r.addr.to_string();
    (r, addr)
}

async fn state(addr: &str, id: &str, token: &str) -> Value {
    let r = qiyuan_hall::client::get(addr, &format!("/api/games/{id}"), Some(token))
        .await
        .expect("request");
    assert_eq!(r.status, 200, "{}", r.body);
    r.json()
}

/// Reads a socket's messages until `quiet` passes without one.
async fn drain(ws: &mut qiyuan_hall::client::Socket, seen: &mut Vec<String>, quiet: Duration) {
    while let Ok(Some(Ok(m))) = tokio::time::timeout(quiet, ws.next()).await {
        if let Message::Text(t) = m {
            // A seat's own legal moves list every word: they are its choices,
            // not anyone's secret.
            let mut v: Value = serde_json::from_str(t.as_str()).unwrap_or(Value::Null);
            if let Some(o) = v.as_object_mut() {
                o.remove("legal");
            }
            seen.push(v.to_string());
        }
    }
}

#[tokio::test]
async fn a_three_seat_game_with_a_secret_phase_plays_through_the_real_server() {
    let db = temp_db("many-seats");
    let (srv, addr) = server_on(&db).await;
    let (st, kinds) = get(&addr, "/api/kinds").await;
    assert_eq!(st, 200);
    assert!(kinds.to_string().contains("\"secret-words\""), "{kinds}");
    let toks = [
        register(&addr, "ann3").await,
        register(&addr, "bob3").await,
        register(&addr, "cat3").await,
    ];
    let (st, g) = post(
        &addr,
        "/api/games",
        &toks[0],
        json!({"game": "secret-words"}),
    )
    .await;
    assert_eq!(st, 201, "{g}");
    let id = g["id"].as_str().expect("id").to_string();
    for t in &toks[1..] {
        let (st, j) = post(&addr, &format!("/api/games/{id}/join"), t, json!({})).await;
        assert_eq!(st, 200, "{j}");
    }
    // The secret phase: everyone acts, every clock runs.
    let s = state(&addr, &id, &toks[0]).await;
    assert_eq!(s["status"], "playing", "{s}");
    assert_eq!(s["seats_to_move"], json!([0, 1, 2]), "{s}");
    assert_eq!(s["running_seats"], json!([0, 1, 2]), "{s}");
    common::eventually("every clock runs", || async {
        let later = state(&addr, &id, &toks[0]).await;
        (0..3)
            .all(|seat| later["clocks"][seat].as_i64() < s["clocks"][seat].as_i64())
            .then_some(())
    })
    .await;
    // Each seat watches over its own socket and picks a word.
    let mut sockets = Vec::new();
    for t in &toks {
        sockets.push(
            connect_ws(&addr, &format!("/api/games/{id}/ws"), Some(t))
                .await
                .expect("ws"),
        );
    }
    // Seat 2 lets chance pick its word (one of the last three).
    let picks = ["w:cedar", "w:amber", "w:random"];
    let mut seen: Vec<Vec<String>> = vec![Vec::new(); 3];
    for (seat, ws) in sockets.iter_mut().enumerate() {
        ws.send(Message::Text(
            json!({"t": "move", "move": picks[seat]}).to_string().into(),
        ))
        .await
        .expect("send");
    }
    for (seat, ws) in sockets.iter_mut().enumerate() {
        drain(ws, &mut seen[seat], Duration::from_millis(300)).await;
    }
    let s = state(&addr, &id, &toks[1]).await;
    assert_eq!(s["seats_to_move"], json!([0]), "{s}");
    assert_eq!(s["running_seats"], json!([0]), "{s}");
    assert_eq!(s["fen"], "?,amber,?", "seat 1 sees only its own word: {s}");
    let own = state(&addr, &id, &toks[2]).await;
    let drawn = own["fen"]
        .as_str()
        .and_then(|f| f.strip_prefix("?,?,"))
        .expect("seat 2 sees its drawn word")
        .to_string();
    assert!(WORDS[6..].contains(&drawn.as_str()), "{own}");
    let words = ["cedar", "amber", drawn.as_str()];
    // Nobody saw another seat's word, in any message.
    for (seat, msgs) in seen.iter().enumerate() {
        assert!(!msgs.is_empty());
        for (other, w) in words.iter().enumerate() {
            if other != seat {
                assert!(!msgs.iter().any(|m| m.contains(w)), "seat {seat} saw {w}");
            }
        }
    }
    // A spectator sees no word at all.
    let (_, spec) = get(&addr, &format!("/api/games/{id}")).await;
    for w in words {
        assert!(!spec.to_string().contains(w), "{spec}");
    }
    drop(sockets);

    // A restart mid-game resumes it, secrets still kept.
    srv.shutdown().await;
    let (srv, addr) = server_on(&db).await;
    let s = state(&addr, &id, &toks[2]).await;
    // The chance draw is replayed, not drawn again.
    assert_eq!(s["fen"], format!("?,?,{drawn}"), "{s}");
    assert_eq!(s["seats_to_move"], json!([0]), "{s}");
    // Reveals in turn; each word becomes public when its seat reveals it.
    for (seat, t) in toks.iter().enumerate() {
        let (st, m) = post(
            &addr,
            &format!("/api/games/{id}/moves"),
            t,
            json!({"move": "reveal"}),
        )
        .await;
        assert_eq!(st, 200, "{m}");
        let (_, spec) = get(&addr, &format!("/api/games/{id}")).await;
        assert!(spec.to_string().contains(words[seat]), "{spec}");
        if seat < 2 {
            assert!(!spec.to_string().contains(words[seat + 1]), "{spec}");
        }
    }
    // Ranked by word: amber (seat 1), cedar (0), the drawn one (2); stored and reloaded.
    let (_, done) = get(&addr, &format!("/api/games/{id}")).await;
    assert_eq!(done["status"], "finished", "{done}");
    assert_eq!(done["placings"], json!([[1], [0], [2]]), "{done}");
    assert_eq!(done["result"], "seat2", "{done}");
    srv.shutdown().await;
    let (srv, addr) = server_on(&db).await;
    let (_, again) = get(&addr, &format!("/api/games/{id}")).await;
    assert_eq!(again["placings"], json!([[1], [0], [2]]), "{again}");
    assert_eq!(again["result"], "seat2", "{again}");

    // AI seats act in the secret phase too, and play the game out.
    let (st, g) = post(
        &addr,
        "/api/games",
        &toks[0],
        json!({"game": "secret-words", "opponent": "ai:1"}),
    )
    .await;
    assert_eq!(st, 201, "{g}");
    let id2 = g["id"].as_str().expect("id").to_string();
    let (st, m) = post(
        &addr,
        &format!("/api/games/{id2}/moves"),
        &toks[0],
        json!({"move": "w:gamma"}),
    )
    .await;
    assert_eq!(st, 200, "{m}");
    let mut s = Value::Null;
    for _ in 0..100 {
        s = state(&addr, &id2, &toks[0]).await;
        if s["seats_to_move"] == json!([0]) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(s["seats_to_move"], json!([0]), "the AI seats picked: {s}");
    assert_eq!(s["fen"], "gamma,?,?", "{s}");
    let (st, m) = post(
        &addr,
        &format!("/api/games/{id2}/moves"),
        &toks[0],
        json!({"move": "reveal"}),
    )
    .await;
    assert_eq!(st, 200, "{m}");
    for _ in 0..100 {
        s = state(&addr, &id2, &toks[0]).await;
        if s["status"] == "finished" {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(s["status"], "finished", "{s}");
    // The AI seats picked basil (seat 1) and cedar (seat 2); seat 0 gamma.
    assert_eq!(s["placings"], json!([[1], [2], [0]]), "{s}");
    srv.shutdown().await;
}
