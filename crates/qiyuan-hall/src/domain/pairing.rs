//! Who plays whom in a pool's wave: pure, so it is tested alone. Closest
//! ratings first, within a window that widens with the time waited; never
//! the same two players twice in a row while others wait; tables of more
//! than two seats are filled all at once from players of close ratings.

use std::time::Duration;

/// The rating gap accepted at once.
pub const WINDOW_START: f64 = 100.0;
/// How fast the window widens per second waited.
pub const WINDOW_PER_SECOND: f64 = 40.0;
/// After this long anyone of the same class will do.
pub const WINDOW_OPEN_AFTER: Duration = Duration::from_secs(20);

/// A player waiting in a pool.
#[derive(Clone, Debug, PartialEq)]
pub struct Seeker {
    /// The user's id.
    pub user: i64,
    /// The user's rating in the pool's family.
    pub rating: f64,
    /// How long the user has waited.
    pub waited: Duration,
    /// Whom the user played last in this pool, if anyone.
    pub last_opponent: Option<i64>,
    /// Players pair only within their class (registered players play rated
    /// games among themselves; guests play casual ones).
    pub class: u8,
}

/// The rating gap `s` accepts now.
pub fn window(s: &Seeker) -> f64 {
    if s.waited >= WINDOW_OPEN_AFTER {
        return f64::INFINITY;
    }
    WINDOW_START + WINDOW_PER_SECOND * s.waited.as_secs_f64()
}

fn accept(a: &Seeker, b: &Seeker) -> bool {
    a.class == b.class && (a.rating - b.rating).abs() <= window(a).min(window(b))
}

/// The tables of one wave: groups of `seats` indices into `waiting`, each
/// player in at most one. Those left out wait for the next wave.
pub fn pair(waiting: &[Seeker], seats: usize) -> Vec<Vec<usize>> {
    if seats < 2 {
        return Vec::new();
    }
    if seats == 2 {
        return pair_two(waiting);
    }
    fill_tables(waiting, seats)
}

/// Two seats: every acceptable pair by gap, taken greedily (closest first).
fn pair_two(waiting: &[Seeker]) -> Vec<Vec<usize>> {
    let mut order: Vec<usize> = (0..waiting.len()).collect();
    order.sort_by(|&a, &b| waiting[a].rating.total_cmp(&waiting[b].rating));
    let in_class = |c: u8| waiting.iter().filter(|s| s.class == c).count();
    let mut pairs = Vec::new();
    for (k, &i) in order.iter().enumerate() {
        for &j in &order[k + 1..] {
            let (a, b) = (&waiting[i], &waiting[j]);
            // Sorted by rating: once the gap passes the widest possible
            // window of `a`, no later `b` is acceptable.
            if b.rating - a.rating > window(a) {
                break;
            }
            if !accept(a, b) {
                continue;
            }
            let rematch = a.last_opponent == Some(b.user) || b.last_opponent == Some(a.user);
            if rematch && in_class(a.class) > 2 {
                continue;
            }
            pairs.push((b.rating - a.rating, i, j));
        }
    }
    pairs.sort_by(|x, y| x.0.total_cmp(&y.0));
    let mut taken = vec![false; waiting.len()];
    let mut out = Vec::new();
    for (_, i, j) in pairs {
        if !taken[i] && !taken[j] {
            taken[i] = true;
            taken[j] = true;
            out.push(vec![i.min(j), i.max(j)]);
        }
    }
    out
}

/// More seats: within each class, by rating, the first run of `seats`
/// neighbours that all accept one another makes a table.
fn fill_tables(waiting: &[Seeker], seats: usize) -> Vec<Vec<usize>> {
    let mut order: Vec<usize> = (0..waiting.len()).collect();
    order.sort_by(|&a, &b| {
        (waiting[a].class, waiting[a].rating)
            .partial_cmp(&(waiting[b].class, waiting[b].rating))
            .unwrap_or(std::cmp::Ordering::Equal)
    });
    let mut out = Vec::new();
    let mut k = 0;
    while k + seats <= order.len() {
        let group = &order[k..k + seats];
        let ok = group.iter().all(|&i| {
            group
                .iter()
                .all(|&j| i == j || accept(&waiting[i], &waiting[j]))
        });
        if ok {
            out.push(group.to_vec());
            k += seats;
        } else {
            k += 1;
        }
    }
    out
}

/// Which player sits in each seat of a team game so that the teams' summed
/// ratings are as close as they can be: `ratings[i]` is player `i`'s,
/// `teams` the seats of each team; the answer is, per seat, the player.
/// Tries every seating (a table has at most six seats); the first best wins,
/// so the caller's order (drawn at random) breaks ties.
pub fn balanced_teams(ratings: &[f64], teams: &[Vec<usize>]) -> Vec<usize> {
    let n = ratings.len();
    let identity: Vec<usize> = (0..n).collect();
    if n > 6 || teams.iter().flatten().any(|&s| s >= n) {
        return identity;
    }
    let spread = |seating: &[usize]| {
        let sums: Vec<f64> = teams
            .iter()
            .map(|t| t.iter().map(|&s| ratings[seating[s]]).sum())
            .collect();
        let max = sums.iter().copied().fold(f64::MIN, f64::max);
        let min = sums.iter().copied().fold(f64::MAX, f64::min);
        max - min
    };
    let mut best = (spread(&identity), identity.clone());
    let mut seating = identity;
    // Heap's algorithm over every seating.
    let mut c = vec![0usize; n];
    let mut i = 1;
    while i < n {
        if c[i] < i {
            let j = if i % 2 == 0 { 0 } else { c[i] };
            seating.swap(j, i);
            let s = spread(&seating);
            if s < best.0 - 1e-9 {
                best = (s, seating.clone());
            }
            c[i] += 1;
            i = 1;
        } else {
            c[i] = 0;
            i += 1;
        }
    }
    best.1
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn s(user: i64, rating: f64, waited_s: u64) -> Seeker {
        Seeker {
            user,
            rating,
            waited: Duration::from_secs(waited_s),
            last_opponent: None,
            class: 0,
        }
    }

    #[test]
    fn closest_ratings_are_paired_first() {
        let w = [
            s(1, 1500.0, 0),
            s(2, 1900.0, 0),
            s(3, 1520.0, 0),
            s(4, 1880.0, 0),
        ];
        let mut p = pair(&w, 2);
        p.sort();
        assert_eq!(p, vec![vec![0, 2], vec![1, 3]]);
    }

    #[test]
    fn the_window_widens_with_waiting() {
        let fresh = [s(1, 1500.0, 0), s(2, 1800.0, 0)];
        assert!(pair(&fresh, 2).is_empty(), "300 apart at once: no");
        let waited = [s(1, 1500.0, 6), s(2, 1800.0, 6)];
        assert_eq!(pair(&waited, 2).len(), 1, "100 + 6 x 40 = 340 covers 300");
        // Both must accept: one fresh player keeps the narrow window.
        let one = [s(1, 1500.0, 6), s(2, 1800.0, 0)];
        assert!(pair(&one, 2).is_empty());
        let long = [s(1, 900.0, 25), s(2, 2400.0, 25)];
        assert_eq!(pair(&long, 2).len(), 1, "after 20 s anyone will do");
    }

    #[test]
    fn no_rematch_in_a_row_while_others_wait() {
        let mut w = vec![s(1, 1500.0, 30), s(2, 1500.0, 30), s(3, 1700.0, 30)];
        w[0].last_opponent = Some(2);
        w[1].last_opponent = Some(1);
        let p = pair(&w, 2);
        assert_eq!(p.len(), 1);
        assert!(p[0].contains(&2), "the third player is paired: {p:?}");
        // Only the two of them: they may play again.
        assert_eq!(pair(&w[..2], 2), vec![vec![0, 1]]);
    }

    #[test]
    fn classes_never_mix() {
        let mut w = [s(1, 1500.0, 30), s(2, 1500.0, 30)];
        w[1].class = 1;
        assert!(pair(&w, 2).is_empty());
    }

    #[test]
    fn bigger_tables_fill_all_seats_at_once() {
        let w: Vec<Seeker> = (0..7).map(|i| s(i, 1500.0 + i as f64 * 10.0, 0)).collect();
        let t = pair(&w, 3);
        assert_eq!(t.len(), 2, "{t:?}");
        assert!(t.iter().all(|g| g.len() == 3));
        let far = [s(1, 1500.0, 0), s(2, 1510.0, 0), s(3, 2100.0, 0)];
        assert!(pair(&far, 3).is_empty(), "one too far: the table waits");
    }

    proptest! {
        /// Every table is the right size, nobody sits twice, every pairing
        /// is within both players' windows and the same class.
        #[test]
        fn tables_are_sound(
            players in proptest::collection::vec((800.0f64..2600.0, 0u64..30, 0u8..2), 0..60),
            seats in 2usize..7,
        ) {
            let w: Vec<Seeker> = players
                .iter()
                .enumerate()
                .map(|(i, &(r, t, c))| Seeker { class: c, ..s(i as i64, r, t) })
                .collect();
            let tables = pair(&w, seats);
            let mut seen = std::collections::HashSet::new();
            for t in &tables {
                prop_assert_eq!(t.len(), seats);
                for &i in t {
                    prop_assert!(seen.insert(i));
                    for &j in t {
                        prop_assert!(i == j || accept(&w[i], &w[j]));
                    }
                }
            }
        }

        /// Two players who accept each other, alone in the pool, are paired.
        #[test]
        fn a_lone_acceptable_pair_is_paired(a in 1000.0f64..2000.0, gap in 0.0f64..100.0) {
            let w = [s(1, a, 0), s(2, a + gap, 0)];
            prop_assert_eq!(pair(&w, 2).len(), 1);
        }
    }

    #[test]
    fn s1_teams_of_a_pool_table_are_balanced_by_rating() {
        let teams = vec![vec![0, 2], vec![1, 3]];
        let ratings = [2000.0, 1900.0, 1100.0, 1000.0];
        let seats = balanced_teams(&ratings, &teams);
        let sum = |t: &[usize]| t.iter().map(|&s| ratings[seats[s]]).sum::<f64>();
        // The best with the weakest: 3000 against 3000.
        assert_eq!(sum(&teams[0]), sum(&teams[1]));
        let mut all = seats.clone();
        all.sort_unstable();
        assert_eq!(all, vec![0, 1, 2, 3], "each player seated once");
        // Without teams to balance, or too many seats, the order stays.
        assert_eq!(
            balanced_teams(&[1.0; 7], &teams),
            (0..7).collect::<Vec<_>>()
        );
    }
}
