//! The basic Junqi AI: one-ply judgement from one side's knowledge only.
//!
//! It sees what a client in its seat sees: its own ranks, the public moves
//! and clash outcomes, and a flag shown by Q9. For every unknown enemy
//! piece it keeps which ranks it may still be from the rules alone (Q4: a
//! mine only in the last two rows, the flag only in a headquarters, no bomb
//! on the front row; a piece that has moved is neither mine nor flag), and
//! scores each legal move by the expected material of an attack and the
//! progress towards the enemy headquarters. Levels below 8 add noise. The
//! issue's search over sampled armies is still to come.

use crate::board::{Post, PostKind, Posts, Side, posts};
use crate::game::Game;
use crate::piece::{Clash, Rank, clash};
use crate::position::Move;

/// Material values (the flag is the game).
fn value(r: Rank) -> i32 {
    match r {
        Rank::Commander => 90,
        Rank::General => 75,
        Rank::Division => 55,
        Rank::Brigade => 40,
        Rank::Regiment => 30,
        Rank::Battalion => 22,
        Rank::Company => 15,
        Rank::Platoon => 10,
        Rank::Engineer => 25,
        Rank::Mine => 20,
        Rank::Bomb => 50,
        Rank::Flag => 10_000,
    }
}

/// Posts of enemy pieces known to have moved, from the public record.
fn moved_enemies(g: &Game, me: Side) -> Posts {
    let mut moved: Posts = 0;
    for p in g.record() {
        if p.mv.from == p.mv.to {
            // A flip (Q10) moves nothing; the piece shows to everyone.
            continue;
        }
        let (from, to) = (p.mv.from.bit(), p.mv.to.bit());
        if p.mover.side == me {
            // Our attack removed the piece on `to` unless it survived.
            if matches!(p.clash, Some(Clash::AttackerWins | Clash::BothRemoved)) {
                moved &= !to;
            }
            continue;
        }
        moved &= !from;
        if matches!(p.clash, None | Some(Clash::AttackerWins)) {
            moved |= to;
        } else {
            moved &= !to;
        }
    }
    moved
}

/// The expected gain of `attacker` hitting an unknown enemy on `post`.
fn attack_value(attacker: Rank, post: Post, enemy: Side, moved: bool) -> i32 {
    let row = enemy.row_of(post);
    let mut total = 0i32;
    let mut weight = 0i32;
    for r in Rank::ALL {
        let possible = match r {
            Rank::Mine => row >= 5 && !moved,
            Rank::Flag => post.kind() == PostKind::Headquarters && !moved,
            Rank::Bomb => row != 1,
            _ => true,
        };
        if !possible {
            continue;
        }
        let n = i32::from(r.count());
        let gain = match clash(attacker, r, false) {
            Clash::AttackerWins => value(r),
            Clash::FlagTaken => value(Rank::Flag),
            Clash::BothRemoved => value(r) - value(attacker),
            Clash::DefenderWins => -value(attacker),
        };
        total += n * gain;
        weight += n;
    }
    total / weight.max(1)
}

/// The move for `me` at `level` (1-8), or `None` if it has none.
pub fn choose(g: &Game, me: Side, level: u8) -> Option<Move> {
    let (known, hidden) = g.known_position(me);
    if known.turn() != me {
        return None;
    }
    let moved = moved_enemies(g, me);
    let enemy = me.other();
    // The enemy headquarters: where its flag may be.
    let hq: Vec<Post> = posts(enemy.half())
        .filter(|p| p.kind() == PostKind::Headquarters)
        .collect();
    let distance = |p: Post| {
        hq.iter()
            .map(|h| {
                i32::from(p.rank().abs_diff(h.rank())) + i32::from(p.file().abs_diff(h.file()))
            })
            .min()
            .unwrap_or(0)
    };
    let noise = i32::from(8u8.saturating_sub(level.clamp(1, 8))) * 6;
    let mut seed = known.to_string().bytes().fold(0x811c_9dc5u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
    });
    let mut best: Option<(i32, Move)> = None;
    for m in known.legal_moves() {
        let mover = known.at(m.from)?.rank;
        let mut score = 2 * (distance(m.from) - distance(m.to));
        if m.from == m.to {
            // A flip (Q10): news, worth a little more than a quiet step.
            score = 3;
        } else if let Some(target) = known.at(m.to) {
            score += if hidden & m.to.bit() != 0 {
                attack_value(mover, m.to, enemy, moved & m.to.bit() != 0)
            } else {
                match clash(mover, target.rank, g.rules().mine_trades) {
                    Clash::FlagTaken => value(Rank::Flag),
                    Clash::AttackerWins => value(target.rank),
                    Clash::BothRemoved => value(target.rank) - value(mover),
                    Clash::DefenderWins => -value(mover),
                }
            };
        }
        // Keep the commander and bombs back until there is something to hit.
        if matches!(mover, Rank::Commander) && known.at(m.to).is_none() {
            score -= 3;
        }
        seed = seed
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        if noise > 0 {
            score += ((seed >> 33) % (noise as u64 + 1)) as i32;
        }
        if best.is_none_or(|(b, _)| score > b) {
            best = Some((score, m));
        }
    }
    best.map(|(_, m)| m)
}
