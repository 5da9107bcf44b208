//! Prints the lower bound along a solution line given as arguments.
use qiyuan_lab::solo::Race;
use qiyuan_tiaoqi::text::parse_cell;
fn main() {
    let race = Race::new(true);
    let mut p = race.start();
    print!("{}", race.bound(p));
    for m in std::env::args().skip(1) {
        let from = parse_cell(m.split('-').next().unwrap()).unwrap();
        let to = parse_cell(m.rsplit('-').next().unwrap()).unwrap();
        p ^= from.bit() ^ to.bit();
        print!(" {}", race.bound(p));
    }
    println!();
}
