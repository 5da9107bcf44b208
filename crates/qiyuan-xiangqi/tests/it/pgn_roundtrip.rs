//! PGN: random games written in each notation and read back, a hand-written
//! record with tags, comments and variations, and the error messages.

use qiyuan_xiangqi::pgn::{MoveFormat, PgnError, PgnGame, parse_pgn, write_pgn};
use qiyuan_xiangqi::{Color, Position};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

const FORMATS: [MoveFormat; 3] = [MoveFormat::Iccs, MoveFormat::Wxf, MoveFormat::Chinese];

fn random_game(rng: &mut ChaCha8Rng, start: Position, plies: usize) -> PgnGame {
    let mut game = PgnGame::new(start.clone());
    let mut pos = start;
    for _ in 0..plies {
        let legal = pos.legal_moves();
        if legal.is_empty() {
            break;
        }
        let m = legal[rng.random_range(0..legal.len())];
        pos.make_move(m);
        game.moves.push(m);
    }
    game
}

#[test]
fn random_games_round_trip_in_every_format() {
    let mut rng = ChaCha8Rng::seed_from_u64(0x96_4e);
    let starts = [
        Position::startpos(),
        // Black to move, counters not at their defaults.
        Position::from_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1")
            .unwrap(),
        Position::from_fen("3k5/2P6/2P6/2P6/2P6/9/9/9/9/4K4 w - - 0 30").unwrap(),
    ];
    let mut games = 0;
    for i in 0..60 {
        let start = starts[i % starts.len()].clone();
        let plies = rng.random_range(0..120);
        let mut game = random_game(&mut rng, start, plies);
        game.tags.push(("Event".into(), format!("Random game {i}")));
        game.tags.push(("Red".into(), "Lin \"Tiger\" Wei".into()));
        game.result =
            [None, Some("1-0"), Some("0-1"), Some("1/2-1/2"), Some("*")][i % 5].map(String::from);
        for format in FORMATS {
            let text = write_pgn(&game, format);
            let back = parse_pgn(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
            assert_eq!(back.start, game.start, "{text}");
            assert_eq!(back.moves, game.moves, "{text}");
            assert_eq!(
                back.result.as_deref(),
                Some(game.result.as_deref().unwrap_or("*"))
            );
            assert_eq!(back.tag("Event"), game.tag("Event"));
            assert_eq!(back.tag("Red"), Some("Lin \"Tiger\" Wei"));
            assert_eq!(back.tag("Format"), Some(format.name()));
            // Writing what was read gives the same text.
            assert_eq!(write_pgn(&back, format), text);
            // The moves are read without the Format tag too (autodetection).
            let bare: String = text
                .lines()
                .filter(|l| !l.starts_with("[Format"))
                .collect::<Vec<_>>()
                .join("\n");
            let auto = parse_pgn(&bare).unwrap_or_else(|e| panic!("{e}\n{bare}"));
            assert_eq!(auto.moves, game.moves);
            games += 1;
        }
    }
    assert_eq!(games, 180);
}

#[test]
fn written_form() {
    let mut game = PgnGame::new(Position::startpos());
    for iccs in ["h2e2", "h9g7", "h0g2"] {
        let pos = game.end_position();
        game.moves.push(pos.parse_move(iccs).unwrap());
    }
    game.result = Some("*".into());
    assert_eq!(
        write_pgn(&game, MoveFormat::Chinese),
        "[Game \"Chinese Chess\"]\n[Format \"Chinese\"]\n[Result \"*\"]\n\n\
         1. 炮二平五 马８进７\n2. 马二进三 *\n"
    );
    assert_eq!(
        write_pgn(&game, MoveFormat::Wxf),
        "[Game \"Chinese Chess\"]\n[Format \"WXF\"]\n[Result \"*\"]\n\n\
         1. C2.5 H8+7\n2. H2+3 *\n"
    );
    assert_eq!(
        write_pgn(&game, MoveFormat::Iccs),
        "[Game \"Chinese Chess\"]\n[Format \"ICCS\"]\n[Result \"*\"]\n\n\
         1. H2-E2 H9-G7\n2. H0-G2 *\n"
    );
    // A game starting with black to move.
    let start =
        Position::from_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1")
            .unwrap();
    let mut game = PgnGame::new(start.clone());
    game.moves.push(start.parse_move("h9g7").unwrap());
    let text = write_pgn(&game, MoveFormat::Wxf);
    assert!(
        text.contains(
            "[FEN \"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1\"]"
        ),
        "{text}"
    );
    assert!(text.ends_with("\n1... H8+7 *\n"), "{text}");
}

#[test]
fn hand_written_record() {
    let text = r#"
[Game "Chinese Chess"]
[Event "第24届五羊杯"]
[Site "广州"]
[Date "2004.01.10"]
[Red "许银川"]
[Black "吕钦"]
[Result "1-0"]
[Format "Chinese"]
; a line comment
{开局} 1. 炮二平五 {中炮} 馬8進7 (1... 炮8平5 2. 马二进三) 2.马二进三 车9平8 $1
3. 车一平二! 马2进3?! (3... 卒7进1 (3... 炮2进4)) 4. 兵七进一 ...
 卒7进1
5.马八进七 1-0
"#;
    let game = parse_pgn(text).unwrap();
    assert_eq!(game.tag("Red"), Some("许银川"));
    assert_eq!(game.tag("event"), Some("第24届五羊杯"));
    assert_eq!(game.result.as_deref(), Some("1-0"));
    assert_eq!(game.start, Position::startpos());
    let iccs: Vec<String> = game.moves.iter().map(|m| m.to_string()).collect();
    assert_eq!(
        iccs,
        [
            "h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7", "c3c4", "g6g5", "b0c2"
        ]
    );
    // Written again in WXF and read back.
    let wxf = write_pgn(&game, MoveFormat::Wxf);
    assert!(wxf.contains("[Red \"许银川\"]"), "{wxf}");
    assert!(wxf.contains("1. C2.5 H8+7\n"), "{wxf}");
    assert_eq!(parse_pgn(&wxf).unwrap().moves, game.moves);
}

#[test]
fn iccs_records_with_either_spelling_and_a_fen() {
    let text = "[Game \"Chinese Chess\"]\n[FEN \"3k5/2P6/2P6/2P6/2P6/9/9/9/9/4K4 w - - 0 1\"]\n\
                1. C8-D8 d9d8 2. c7c8 0-1";
    let game = parse_pgn(text).unwrap();
    assert_eq!(game.moves.len(), 3);
    assert_eq!(game.result.as_deref(), Some("0-1"));
    // No Format tag and no result: the Result tag, moves in WXF by detection.
    let text = "[Result \"1/2-1/2\"]\n1. C2.5 H8+7 2. H2+3";
    let game = parse_pgn(text).unwrap();
    assert_eq!(game.moves.len(), 3);
    assert_eq!(game.result.as_deref(), Some("1/2-1/2"));
    // An empty text is an empty game from the start position.
    let game = parse_pgn("").unwrap();
    assert!(game.moves.is_empty() && game.tags.is_empty() && game.result.is_none());
}

#[test]
fn errors_name_the_move_and_the_place() {
    let e = parse_pgn("[Format \"WXF\"]\n1. C2.5 H8+7 2. C5+9 *").unwrap_err();
    match &e {
        PgnError::Move {
            number,
            color,
            text,
            message,
        } => {
            assert_eq!((*number, *color, text.as_str()), (2, Color::Red, "C5+9"));
            assert!(message.contains("cannot legally go forward"), "{message}");
        }
        other => panic!("{other}"),
    }
    assert!(e.to_string().starts_with("PGN move 2. 'C5+9': "), "{e}");
    let e = parse_pgn("1. h2e2 h9g7 2. h0g2 z9z9").unwrap_err();
    assert!(e.to_string().starts_with("PGN move 2... 'z9z9': "), "{e}");
    let e = parse_pgn("1. 炮二平五 马8进7 2. 马二进四").unwrap_err();
    assert!(
        e.to_string()
            .starts_with("PGN move 2. '马二进四': Chinese move"),
        "{e}"
    );
    let e = parse_pgn("1. h2e2 {never closed").unwrap_err();
    assert_eq!(
        e,
        PgnError::Syntax {
            line: 1,
            column: 9,
            message: "comment '{' is never closed".into()
        }
    );
    let e = parse_pgn("\n1. h2e2 (h2e3").unwrap_err();
    assert!(e.to_string().starts_with("PGN line 2, character 9:"), "{e}");
    let e = parse_pgn("[Event \"x]\n1. h2e2").unwrap_err();
    assert!(e.to_string().contains("never closed"), "{e}");
    let e = parse_pgn("[FEN \"rnbakabnr/9 w\"]").unwrap_err();
    assert!(matches!(e, PgnError::Fen(_)), "{e}");
    let e = parse_pgn("1. h2e2 )").unwrap_err();
    assert!(e.to_string().contains("')' without a variation"), "{e}");
}
