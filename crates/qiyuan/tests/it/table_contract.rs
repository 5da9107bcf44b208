//! Every registered game keeps the `TableGame` shortcuts the hall calls on
//! each move (`plies`, `last_move`) equal to what its full `history` says.

use qiyuan_core::{Chance, Options};

/// Draws from a fixed sequence, so the games are the same on every run.
struct Fixed(u32);

impl Chance for Fixed {
    fn draw(&mut self, bound: u32) -> u32 {
        self.0 = self.0.wrapping_mul(1_103_515_245).wrapping_add(12_345);
        (self.0 >> 8) % bound
    }
}

#[test]
fn plies_and_last_move_agree_with_the_history_in_every_game() {
    let registry = qiyuan::games();
    let mut played = 0;
    for name in registry.variant_names() {
        let mut table = registry
            .new_table(name, &Options::default(), None)
            .expect("the variant starts");
        let mut chance = Fixed(7);
        for ply in 0..60 {
            let history = table.history();
            assert_eq!(table.plies(), history.len(), "{name} at ply {ply}");
            assert_eq!(
                table.last_move(),
                history.last().cloned(),
                "{name} at ply {ply}"
            );
            let Some(&seat) = table.seats_to_move().first() else {
                break;
            };
            let legal = table.legal_moves_for(seat);
            if legal.is_empty() || table.result().is_some() {
                break;
            }
            let mv = &legal[chance.draw(legal.len() as u32) as usize];
            table
                .play_for(seat, mv, &mut chance)
                .expect("a legal move plays");
            played += 1;
        }
    }
    assert!(played > 100, "moves were played ({played})");
}
