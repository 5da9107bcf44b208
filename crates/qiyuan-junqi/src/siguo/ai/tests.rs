//! The four-army AI: legal moves over whole games, knowledge limited to the
//! seat (S9), the flag taken and defended, and a team's strength.

use super::*;
use crate::siguo::four_armies;
use crate::siguo::game::Mode;

fn rng(seed: u64) -> impl FnMut(u32) -> u32 {
    let mut s = seed.max(1);
    move |n| {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        (s % u64::from(n.max(1))) as u32
    }
}

#[test]
fn smoke() {
    let mut draw = rng(7);
    let setups: Vec<Setup> = (0..4).map(|l| setup(l, &mut draw)).collect();
    let start = Position::from_setups(four_armies(), &setups).expect("four");
    let mut g = Game::new(start, Rules::default(), Mode::Dark);
    let t = std::time::Instant::now();
    for _ in 0..40 {
        let me = g.position().turn();
        let m = choose(&g, me, 8, &mut draw).expect("a move");
        g.play(m).expect("legal");
    }
    eprintln!("40 plies in {:?}", t.elapsed());
}
