fn main() {
    let a: Vec<String> = std::env::args().skip(1).collect();
    let p = |s: &str| qiyuan_lab::siguo::Player::parse(s).unwrap();
    let o = qiyuan_lab::siguo::play(
        p(&a[0]),
        p(&a[1]),
        a[2].parse().unwrap(),
        a[3].parse().unwrap(),
        2000,
    );
    println!("{o:?}");
}
