//! The Junqi AI, from one side's knowledge only.
//!
//! Levels 3-8 use determinized search: armies for the enemy are drawn from
//! the side's [`Belief`] (the rules' limits, pieces that moved, what each
//! clash proved), each drawn army is searched with alpha-beta to a fixed
//! depth, and the root move with the best total over the draws is played
//! (level 2: 2 armies, 1 ply; 3-4: 6 armies, 1 ply; 5: 10 armies, 2
//! plies; 6: the same and two plies of attacks after them (quiescence);
//! 7: 8 armies, 3 plies and two of attacks; 8: 12 armies, the same). Each
//! level beats the one below (`docs/junqi.md`). Determinization, not information-set MCTS: the belief already
//! carries what the rules prove, the branching is modest, and a fixed
//! search per draw is deterministic and cheap; its known weakness (it
//! assumes it will learn what it cannot) matters little at this depth.
//! Level 1 and the flip game use the one-ply judgement below.
//!
//! It sees what a client in its seat sees: its own ranks, the public moves
//! and clash outcomes, and a flag shown by Q9. For every unknown enemy
//! piece it keeps which ranks it may still be from the rules alone (Q4: a
//! mine only in the last two rows, the flag only in a headquarters, no bomb
//! on the front row; a piece that has moved is neither mine nor flag), and
//! scores each legal move by the expected material of an attack and the
//! progress towards the enemy headquarters. Levels below 8 add noise. The
//! issue's search over sampled armies is still to come.

use crate::belief::Belief;
use crate::board::{Post, PostKind, Posts, Side, posts};
use crate::game::Game;
use crate::piece::{Clash, Rank, clash};
use crate::position::{Move, Position, Rules};

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

const WIN: i32 = 100_000;

/// Rows a piece of `side` on `post` still has to go to reach the enemy's
/// back row (0 there, 11 on its own back row).
fn rows_to_go(side: Side, post: crate::board::Post) -> i32 {
    match side {
        Side::Red => 12 - i32::from(post.rank()),
        Side::Blue => i32::from(post.rank()) - 1,
    }
}

/// Material of `side` less the enemy's, plus a little for each movable
/// piece's advance towards the enemy's headquarters (so that a side ahead
/// goes for the flag instead of shuffling), scaled towards a draw as the
/// quiet-ply count nears the rules' limit (Q11: the limit is a draw, so a
/// lead that no clash renews is worth less and less).
fn evaluate(p: &Position, side: Side, rules: Rules) -> i32 {
    let mut score = 0;
    let mut movable = [0i32; 2];
    for post in crate::board::Post::all() {
        if let Some(x) = p.at(post) {
            let mut v = if x.rank == Rank::Flag {
                0
            } else {
                value(x.rank)
            };
            if x.rank.can_move() {
                v += 11 - rows_to_go(x.side, post);
                movable[x.side.index()] += 1;
            }
            score += if x.side == side { v } else { -v };
        }
    }
    // A side left with no piece that moves loses (Q11): the last few
    // movable pieces are worth far more than their rank.
    let short = |n: i32| (5 - n).max(0) * 60;
    score += short(movable[side.other().index()]) - short(movable[side.index()]);
    let limit = i32::try_from(rules.quiet_limit).unwrap_or(0);
    if limit > 0 {
        let left = (limit - i32::try_from(p.quiet_plies()).unwrap_or(limit)).max(0);
        score = score * (left + limit) / (2 * limit);
    }
    score
}

/// Negamax with alpha-beta on a full-information (drawn) position.
fn negamax(p: &Position, depth: u32, mut alpha: i32, beta: i32, rules: Rules, quiet: u32) -> i32 {
    let mut moves = p.legal_moves();
    // Attacks first: they settle most cut-offs.
    moves.sort_by_key(|m| p.at(m.to).is_none() || m.from == m.to);
    if moves.is_empty() {
        return -WIN;
    }
    if depth == 0 {
        return if quiet > 0 {
            quiesce(p, alpha, beta, rules, quiet)
        } else {
            evaluate(p, p.turn(), rules)
        };
    }
    for m in moves {
        let mut q = p.clone();
        let v = if q.make(m, rules).clash == Some(Clash::FlagTaken) {
            WIN
        } else {
            -negamax(&q, depth - 1, -beta, -alpha, rules, quiet)
        };
        if v > alpha {
            alpha = v;
            if alpha >= beta {
                break;
            }
        }
    }
    alpha
}

/// Attacks only, up to `plies` deep, with the side to move free to stop
/// (stand pat): the search's horizon does not end in the middle of an
/// exchange of pieces.
fn quiesce(p: &Position, mut alpha: i32, beta: i32, rules: Rules, plies: u32) -> i32 {
    let stand = evaluate(p, p.turn(), rules);
    if stand >= beta || plies == 0 {
        return stand;
    }
    alpha = alpha.max(stand);
    for m in p.legal_moves() {
        if m.from == m.to || p.at(m.to).is_none() {
            continue;
        }
        let mut q = p.clone();
        let v = if q.make(m, rules).clash == Some(Clash::FlagTaken) {
            WIN
        } else {
            -quiesce(&q, -beta, -alpha, rules, plies - 1)
        };
        if v > alpha {
            alpha = v;
            if alpha >= beta {
                break;
            }
        }
    }
    alpha
}

/// The move for `me` at `level` (1-8), or `None` if it has none.
pub fn choose(g: &Game, me: Side, level: u8) -> Option<Move> {
    choose_with(g, me, level, false)
}

/// As [`choose`]; `quick` caps the search at level 6's (two plies and the
/// attacks after them, tens of milliseconds) for a hall that gives its AI
/// only a few milliseconds a move.
pub fn choose_with(g: &Game, me: Side, level: u8, quick: bool) -> Option<Move> {
    let level = if quick { level.min(6) } else { level };
    let flip = g.start().face_down() != 0;
    if level <= 1 || flip {
        return one_ply(g, me, level);
    }
    let (known, _) = g.known_position(me);
    if known.turn() != me {
        return None;
    }
    let roots = known.legal_moves();
    if roots.len() <= 1 {
        return roots.first().copied();
    }
    // (armies drawn, plies, attack plies after them)
    let (draws, depth, quiet) = match level {
        2 => (2, 1, 0),
        3 | 4 => (6, 1, 0),
        5 => (10, 2, 0),
        6 => (10, 2, 2),
        7 => (8, 3, 2),
        _ => (12, 3, 2),
    };
    let belief = Belief::of(g, me);
    let mut state = known.to_string().bytes().fold(
        0xcbf2_9ce4_8422_2325u64 ^ g.record().len() as u64,
        |h, b| (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3),
    );
    let mut draw = |n: u32| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % u64::from(n.max(1))) as u32
    };
    let rules = g.rules();
    let mut totals = vec![0i64; roots.len()];
    for _ in 0..draws {
        let ranks = belief.sample(&mut draw);
        let p = belief.position(g, me, &ranks);
        for (i, &m) in roots.iter().enumerate() {
            let mut q = p.clone();
            let v = if q.make(m, rules).clash == Some(Clash::FlagTaken) {
                WIN
            } else {
                -negamax(&q, depth - 1, -WIN - 1, WIN + 1, rules, quiet)
            };
            totals[i] += i64::from(v);
        }
    }
    let noise = i64::from(8u8.saturating_sub(level)) * 4 * draws;
    let best = (0..roots.len()).max_by_key(|&i| totals[i] + i64::from(draw(noise as u32 + 1)))?;
    Some(roots[best])
}

/// The one-ply judgement (level 1, the flip game).
fn one_ply(g: &Game, me: Side, level: u8) -> Option<Move> {
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
    // Level 1 plays loosely (its noise outweighs most material), level 2
    // mostly by the judgement; the flip game's higher levels nearly exactly.
    let noise = match level {
        0 | 1 => 90,
        2 => 24,
        l => i32::from(8u8.saturating_sub(l.min(8))) * 4,
    };
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

/// The baseline of the figures: a player that attacks whenever its
/// piece is likely stronger (the attack's expected material gain, from the
/// rules' limits on the unknown piece, is positive; a known piece it
/// beats), and otherwise plays a random legal move that attacks nothing.
pub fn greedy(g: &Game, me: Side, draw: &mut dyn FnMut(u32) -> u32) -> Option<Move> {
    let (known, hidden) = g.known_position(me);
    if known.turn() != me {
        return None;
    }
    let moved = moved_enemies(g, me);
    let enemy = me.other();
    let moves = known.legal_moves();
    let mut best: Option<(i32, Move)> = None;
    let mut quiet = Vec::new();
    for &m in &moves {
        let Some(mover) = known.at(m.from) else {
            continue;
        };
        match known.at(m.to) {
            Some(target) if m.from != m.to => {
                let gain = if hidden & m.to.bit() != 0 {
                    attack_value(mover.rank, m.to, enemy, moved & m.to.bit() != 0)
                } else {
                    match clash(mover.rank, target.rank, g.rules().mine_trades) {
                        Clash::FlagTaken => value(Rank::Flag),
                        Clash::AttackerWins => value(target.rank),
                        Clash::BothRemoved => value(target.rank) - value(mover.rank),
                        Clash::DefenderWins => -value(mover.rank),
                    }
                };
                if gain > 0 && best.is_none_or(|(b, _)| gain > b) {
                    best = Some((gain, m));
                }
            }
            _ => quiet.push(m),
        }
    }
    if let Some((_, m)) = best {
        return Some(m);
    }
    let pool = if quiet.is_empty() { &moves } else { &quiet };
    pool.get(draw(pool.len() as u32) as usize % pool.len().max(1))
        .copied()
}

/// A uniformly random legal move (the weakest baseline).
pub fn random_move(g: &Game, me: Side, draw: &mut dyn FnMut(u32) -> u32) -> Option<Move> {
    let (known, _) = g.known_position(me);
    if known.turn() != me {
        return None;
    }
    let moves = known.legal_moves();
    moves
        .get(draw(moves.len() as u32) as usize % moves.len().max(1))
        .copied()
}
