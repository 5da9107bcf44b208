use qiyuan_junqi::setup::Setup;
use qiyuan_junqi::siguo::game::{Event, Game, Mode};
use qiyuan_junqi::siguo::{Position, Rules, ai, four_armies, team_of};
use qiyuan_junqi::Side;
fn rng(seed: u64) -> impl FnMut(u32) -> u32 {
    let mut s = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    move |n| { s ^= s << 13; s ^= s >> 7; s ^= s << 17; (s % u64::from(n.max(1))) as u32 }
}
fn main() {
    let a: Vec<String> = std::env::args().skip(1).collect();
    let index: u64 = a[0].parse().unwrap();
    let seed: u64 = a[1].parse().unwrap();
    let a_team = (index % 2) as u8;
    let mut sd = rng(seed ^ (index / 2).wrapping_mul(0x2545_f491_4f6c_dd1d));
    let setups: Vec<Setup> = (0..4u8).map(|army| { let p = ai::setup(8, &mut sd); let r = Setup::random(Side::Red, &mut sd); if team_of(army) == a_team { p } else { r } }).collect();
    let mut g = Game::new(Position::from_setups(four_armies(), &setups).unwrap(), Rules::default(), Mode::Dark);
    let mut draw = rng(seed ^ index.wrapping_mul(0x9e37_79b9) ^ 0x5eed);
    while g.ending().is_none() && g.plies() < 2000 {
        let me = g.position().turn();
        let m = if team_of(me) == a_team { ai::choose(&g, me, 8, &mut draw) } else { ai::random_move(&g, me, &mut draw) }.unwrap();
        g.play(m).unwrap();
        if let Some(Event::Move(p)) = g.events().last() {
            if p.clash.is_some() {
                let g4 = four_armies();
                println!("ply {} {}{}: {}{:?} x {}{:?} -> {:?} out {:?}", g.plies(), g4.name(p.mv.from), g4.name(p.mv.to), p.mover.army, p.mover.rank, p.defender.unwrap().army, p.defender.unwrap().rank, p.clash.unwrap(), p.out);
            }
        }
    }
    println!("{:?} {}", g.ending(), g.position());
}
