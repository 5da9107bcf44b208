//! The hall knows games only through the registry: its manifest names no
//! game crate, and its sources and tests name no registered game (kind or
//! variant).

use std::path::Path;

#[test]
fn the_hall_depends_on_no_game_crate_and_names_no_game() {
    let hall = Path::new(env!("CARGO_MANIFEST_DIR")).join("../qiyuan-hall");
    let manifest = std::fs::read_to_string(hall.join("Cargo.toml")).expect("manifest");
    for krate in [
        "qiyuan-xiangqi",
        "qiyuan-banqi",
        "qiyuan-engine",
        "qiyuan-import",
    ] {
        assert!(!manifest.contains(krate), "qiyuan-hall depends on {krate}");
    }
    let games = qiyuan::games();
    let mut names: Vec<String> = games
        .variant_names()
        .iter()
        .map(|n| n.to_lowercase())
        .collect();
    names.extend(games.kinds().iter().map(|k| k.id().to_lowercase()));
    // The family prefix of variants (`jifen-simple` → `jifen`) counts too.
    let prefixes: Vec<String> = names
        .iter()
        .filter_map(|n| n.split('-').next().map(str::to_string))
        .collect();
    names.extend(prefixes);
    let mut checked = 0;
    // Every source, subfolders (events/, server/, …) included, and the
    // hall's own tests, which play its fake game.
    let mut dirs = vec![hall.join("src"), hall.join("tests")];
    let mut sources = Vec::new();
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).expect("src") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                dirs.push(path);
            } else {
                sources.push(path);
            }
        }
    }
    for path in sources {
        if path.extension().is_some_and(|e| e == "rs") {
            let text = std::fs::read_to_string(&path)
                .expect("source")
                .to_lowercase();
            for n in &names {
                assert!(
                    !text.contains(n.as_str()),
                    "{} names the game '{n}'",
                    path.display()
                );
            }
            checked += 1;
        }
    }
    assert!(checked > 50, "only {checked} sources read");
}
