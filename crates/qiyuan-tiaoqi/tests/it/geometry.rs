//! The board of T1, T11 and the seatings of T2, T3, T12.

use qiyuan_tiaoqi::geometry::{BOARD, HEXAGON, ROW_LEN, cells};
use qiyuan_tiaoqi::{CELLS, Cell, Seat, Setup};

#[test]
fn t1_board_has_121_holes_a_hexagon_of_61_and_six_camps_of_10() {
    assert_eq!(
        ROW_LEN.iter().map(|&n| usize::from(n)).sum::<usize>(),
        CELLS
    );
    assert_eq!(BOARD.count_ones(), 121);
    assert_eq!(HEXAGON.count_ones(), 61);
    let mut all = HEXAGON;
    for s in Seat::ALL {
        assert_eq!(s.camp().count_ones(), 10, "camp {s}");
        assert_eq!(all & s.camp(), 0, "camps overlap");
        all |= s.camp();
    }
    assert_eq!(all, BOARD);
}

#[test]
fn t11_cell_names_coordinates_and_camps() {
    for c in Cell::all() {
        let name = c.to_string();
        assert_eq!(qiyuan_tiaoqi::text::parse_cell(&name), Ok(c));
        assert_eq!(Cell::from_xy(c.x(), c.y()), Some(c));
        assert_eq!(Cell::at(c.row(), c.col()), Some(c));
    }
    // The south tip, the north tip, the centre.
    assert_eq!(Cell::at(1, 1).map(|c| (c.x(), c.y())), Some((0, 1)));
    assert_eq!(Cell::at(17, 1).map(|c| c.index()), Some(120));
    assert_eq!(Cell::at(9, 5).map(|c| (c.x(), c.camp())), Some((0, None)));
    // Row 5: b b b b . . . . . f f f f; row 13: c c c c . . . . . e e e e.
    let row = |r: u8| -> String {
        (1..=ROW_LEN[usize::from(r) - 1])
            .map(|k| {
                Cell::at(r, k)
                    .and_then(|c| c.camp())
                    .map_or('.', Seat::letter)
            })
            .collect()
    };
    assert_eq!(row(5), "bbbb.....ffff");
    assert_eq!(row(8), "b........f");
    assert_eq!(row(9), ".........");
    assert_eq!(row(10), "c........e");
    assert_eq!(row(13), "cccc.....eeee");
    assert_eq!(row(1), "a");
    assert_eq!(row(14), "dddd");
    // Opposites a↔d, b↔e, c↔f; a camp and its opposite are point mirrors.
    for s in Seat::ALL {
        assert_eq!(s.opposite().opposite(), s);
        for c in cells(s.camp()) {
            let m = Cell::from_xy(-c.x(), 18 - c.y()).map(|m| m.camp());
            assert_eq!(m, Some(Some(s.opposite())), "{c} of {s}");
        }
    }
    assert_eq!(Seat::B.opposite(), Seat::E);
    assert_eq!(Seat::C.opposite(), Seat::F);
}

#[test]
fn neighbours_are_symmetric_and_the_hexagon_has_six_but_at_its_corners() {
    let mut five = Vec::new();
    for c in Cell::all() {
        for d in 0..6 {
            if let Some(n) = c.neighbour(d) {
                assert_eq!(n.neighbour((d + 3) % 6), Some(c));
                assert_eq!(c.beyond(d), n.neighbour(d));
            } else {
                assert_eq!(c.beyond(d), None);
            }
        }
        let n = (0..6).filter(|&d| c.neighbour(d).is_some()).count();
        if HEXAGON & c.bit() != 0 && n != 6 {
            assert_eq!(n, 5, "{c}");
            five.push(c.to_string());
        }
    }
    // The hexagon's six corners touch two camps each and miss one hole.
    assert_eq!(five, ["5.5", "5.9", "9.1", "9.9", "13.5", "13.9"]);
    // The tips have two neighbours.
    let tip = Cell::at(1, 1).expect("tip");
    assert_eq!((0..6).filter(|&d| tip.neighbour(d).is_some()).count(), 2);
}

#[test]
fn t2_t12_seatings() {
    let letters = |p: u8| -> String {
        Setup::new(p, 10)
            .expect("seating")
            .seats()
            .map(Seat::letter)
            .collect()
    };
    assert_eq!(letters(2), "ad");
    assert_eq!(letters(3), "ace");
    assert_eq!(letters(4), "acdf");
    assert_eq!(letters(6), "abcdef");
    // Three players: none opposite another.
    let three: Vec<Seat> = Setup::new(3, 10).expect("3").seats().collect();
    assert!(three.iter().all(|s| !three.contains(&s.opposite())));
    for p in [0, 1, 5, 7] {
        assert!(Setup::new(p, 10).is_err(), "{p} players");
    }
}

#[test]
fn t3_ten_or_fifteen_pieces() {
    assert!(Setup::new(2, 15).is_ok());
    for p in [3, 4, 6] {
        assert!(Setup::new(p, 15).is_err(), "15 pieces need 2 players");
    }
    assert!(Setup::new(2, 12).is_err());
    let a15 = Seat::A.start(15);
    assert_eq!(a15.count_ones(), 15);
    let extra: Vec<String> = cells(a15 & HEXAGON).map(|c| c.to_string()).collect();
    assert_eq!(extra, ["5.5", "5.6", "5.7", "5.8", "5.9"]);
    let d_extra: Vec<String> = cells(Seat::D.start(15) & HEXAGON)
        .map(|c| c.to_string())
        .collect();
    assert_eq!(d_extra, ["13.5", "13.6", "13.7", "13.8", "13.9"]);
    assert_eq!(Seat::A.target(15), Seat::D.start(15));
}

#[test]
fn t9_rows_to_go_run_from_16_at_home_to_0_at_the_far_tip() {
    for s in Seat::ALL {
        let home: u32 = cells(s.camp()).map(|c| s.rows_to_go(c)).sum();
        let there: u32 = cells(s.opposite().camp()).map(|c| s.rows_to_go(c)).sum();
        assert_eq!((home, there), (16 + 2 * 15 + 3 * 14 + 4 * 13, 20), "{s}");
        // One step forward in the seat's direction is one row less.
        for c in cells(HEXAGON) {
            let d = s.rows_to_go(c);
            assert!((1..=15).contains(&d), "{s} {c} {d}");
        }
    }
}
