//! The `moves` / `apply` commands as the binary calls them.

use qiyuan_banqi::Preset;
use qiyuan_banqi::cli::{apply, moves, perft};

#[test]
fn moves_lists_flips_and_moves_of_a_public_position() {
    let all = moves(Preset::Banqi, None, None).expect("start");
    assert_eq!(all.len(), 32);
    assert!(
        all.iter().all(|m| m[..2] == m[2..]),
        "only flips at the start"
    );
    let fen = "7?/8/8/Rn6 0 r 10 0 KAABBRNNCCPPPPPkaabbrrccppppp -- - -,- 0,0";
    let m = moves(Preset::Banqi, Some(fen), None).expect("public position");
    assert_eq!(m, ["h4h4", "a1a2", "a1b1"]);
    assert!(moves(Preset::Banqi, Some("9/8"), None).is_err());
    assert!(
        moves(Preset::Banqi, None, Some(30)).is_err(),
        "--target is Jifen only"
    );
}

#[test]
fn apply_tells_the_revealed_piece_and_prints_both_texts() {
    let fen = "7?/8/8/Rn6 0 r 10 0 KAABBRNNCCPPPPPkaabbrrccppppp -- - -,- 0,0 n";
    let out = apply(Preset::Banqi, Some(fen), None, &["h4h4".into()]).expect("flip");
    assert_eq!(out[0], "h4h4 revealed n");
    assert!(out[1].starts_with("fen 7n/8/8/Rn6 1 r 11 0 "), "{out:?}");
    assert!(out[2].starts_with("view 7n/8/8/Rn6 1 r 11 0 "), "{out:?}");
    // A public position cannot flip, and errors name the move.
    let public = fen.trim_end_matches(" n");
    let err = apply(Preset::Banqi, Some(public), None, &["h4h4".into()]).expect_err("public");
    assert!(err.to_string().starts_with("move 1 ('h4h4')"), "{err}");
    assert!(
        apply(Preset::Banqi, None, None, &[]).is_err(),
        "needs a full position"
    );
}

#[test]
fn apply_reports_the_result_and_the_game_points() {
    let out = apply(
        Preset::Banqi,
        Some("8/8/8/Rn6 0 r 59 0"),
        None,
        &["a1b1".into()],
    )
    .expect("capture");
    assert!(out.contains(&"a1b1 captured n".to_string()), "{out:?}");
    assert!(out.contains(&"result red checkmate".to_string()), "{out:?}");
    assert!(out.contains(&"points 1 -1".to_string()), "{out:?}");
}

#[test]
fn perft_is_refused_with_a_reason() {
    assert!(perft(Preset::Banqi).is_err());
}
