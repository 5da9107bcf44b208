//! The AI's belief (Q9): built from public information only, it never rules
//! out an enemy piece's true rank, and it tracks every enemy piece's post,
//! over whole games between AI levels from random set-ups.

use qiyuan_junqi::belief::Belief;
use qiyuan_junqi::{Game, Position, Rules, Setup, Side, Visibility, ai};

#[test]
fn the_belief_never_excludes_the_truth_and_follows_every_piece() {
    belief_holds_over(1, 50, 1_000);
}

#[test]
#[ignore = "slow tier"]
fn the_belief_never_excludes_the_truth_and_follows_every_piece_in_six_games() {
    belief_holds_over(6, 160, 10_000);
}

/// Over `games` AI games of at most `plies`, each side's belief puts a token on every enemy
/// piece and never rules out its true rank; more than `least` tokens checked.
fn belief_holds_over(games: u32, plies: usize, least: usize) {
    let mut state = 0x1234_5678_9abc_def1u64;
    let mut draw = move |n: u32| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % u64::from(n.max(1))) as u32
    };
    let mut checked = 0;
    for game in 0..games {
        let red = Setup::random(Side::Red, &mut draw);
        let blue = Setup::random(Side::Blue, &mut draw);
        let mut g = Game::new(
            Position::from_setups(&red, &blue),
            Rules::default(),
            Visibility::Hidden,
        );
        for ply in 0..plies {
            if g.result().is_some() {
                break;
            }
            for me in [Side::Red, Side::Blue] {
                let b = Belief::of(&g, me);
                let enemy = g.position().occupied_by(me.other());
                let tracked = b
                    .tokens
                    .iter()
                    .filter_map(|t| t.post)
                    .fold(0u64, |m, p| m | p.bit());
                assert_eq!(
                    tracked, enemy,
                    "game {game} ply {ply}: the tokens stand where the enemy does"
                );
                for t in &b.tokens {
                    if let Some(p) = t.post {
                        let truth = g.position().at(p).expect("a piece").rank;
                        assert!(
                            t.ranks & (1 << truth as u16) != 0,
                            "game {game} ply {ply}: {p} is {truth:?}"
                        );
                        checked += 1;
                    }
                }
            }
            let me = g.position().turn();
            let level = if ply % 2 == 0 { 5 } else { 2 };
            let m = ai::choose(&g, me, level).expect("a move");
            g.play(m).expect("the AI's move is legal");
        }
    }
    assert!(checked > least, "{checked}");
}
