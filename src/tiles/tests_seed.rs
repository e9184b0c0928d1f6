//! The seed's test list: exact grids on fixed seeds, invariants over many seeds, the Digger on
//! every edge tile, and the errors. The invariants are checked from [`distance`] and the grid's
//! own queries, never from the masks.

use super::*;
use crate::random::MazeRng;

/// Compares a grid with a picture that starts with a newline.
#[track_caller]
fn assert_picture(g: &TileGrid, want: &str) {
    let got = format!("\n{g}");
    assert!(got == want, "got:{got}\nwant:{want}");
}

/// Whether `n` may be opened next to the open tile `t` under the rule of `order` (definition).
fn rule_allows(g: &TileGrid, order: u32, t: Tile, n: Tile) -> bool {
    if g.is_open(n) || g.open_neighbours(n) != vec![t] {
        return false;
    }
    order == 0 || within(g, n, 2).all(|x| distance(x, n) != 2 || distance(x, t) == 1)
}

/// The open tiles of `g` within `radius` of `t` (boxes are small, so a scan is fine).
fn within(g: &TileGrid, t: Tile, radius: u32) -> impl Iterator<Item = Tile> + '_ {
    let (c0, r0) = (t.0.saturating_sub(radius), t.1.saturating_sub(radius));
    (c0..=t.0 + radius)
        .flat_map(move |c| (r0..=t.1 + radius).map(move |r| (c, r)))
        .filter(move |&x| g.is_open(x) && distance(x, t) <= radius)
}

/// Everything a Mazer grid of `order` must satisfy.
#[track_caller]
fn check_mazer_invariants(g: &TileGrid, order: u32) {
    let open = g.open_tiles();
    assert!(!open.is_empty());
    assert!(open.iter().all(|&t| g.is_interior(t)), "not interior:\n{g}");
    assert!(g.is_connected(), "not connected:\n{g}");
    assert_eq!(g.adjacent_open_pairs(), open.len() - 1, "not a tree:\n{g}");
    for &t in &open {
        if order == 1 {
            // Two open tiles at distance 2 share an open neighbour.
            for x in within(g, t, 2).filter(|&x| distance(x, t) == 2) {
                let shared = g
                    .open_neighbours(t)
                    .into_iter()
                    .any(|m| distance(m, x) == 1);
                assert!(shared, "{t:?} and {x:?} at distance 2 share nothing:\n{g}");
            }
        }
        // Maximal: no closed interior tile could still be opened next to an open one.
        for n in g.neighbours(t) {
            assert!(
                !(g.is_interior(n) && rule_allows(g, order, t, n)),
                "{n:?} could still be opened from {t:?}:\n{g}"
            );
        }
    }
}

fn mazer(w: u32, h: u32, order: u32, seed: u64) -> TileGrid {
    Mazer::new(w, h)
        .unwrap()
        .generate(order, &mut MazeRng::new(seed))
        .unwrap()
}

// --- Exact grids (seed 9). Checked by eye: one-tile corridors, a tree, nothing on the ring. ---

const M17X14_O0: &str = "
# # # # # # # # #
 # # # # # # # #
# # # # . . . . #
 # # . # . # . .
# # . . # # # # #
 # . # . . . # .
# . # # . . . # #
 . # . # # # # .
# # . . . . . # #
 . . # . # # . .
# # # # # . # . #
 # # # . . # # #
# . . # # # . # #
 . . . . # . . #
# # # # . . # # #
 . . # # . # . #
# # . . # # # # #
 . # . . # # . #
# # # # . . # # #
 # . # # # . . #
# . . # . # . . #
 . # # . . # # .
# # . . # . . # #
 . . . # # . . .
# # # # # # # # #
 . . . # # . . .
# # # # # # # # #
 # # # # # # # #
";
const M17X14_O1: &str = "
# # # # # # # # #
 # # # # # # # #
# # # # # # # # #
 # # # # # # # #
# # # # # # # # #
 # # # # # # # #
# # # # # # # # #
 # # # # # # # #
# # # # # # # # #
 # # # # # # # #
# # # # # # # # #
 # . . . # # # #
# . . . . # # # #
 . # # # . # # #
# # # # # # # # #
 . # # # . # # #
# # # # # . # # #
 # # # # # # # #
# # # # # . # # #
 # # # # # # # #
# . # # # . # # #
 . . # # . # # #
# # . # # # # # #
 # # . # . # # #
# # # . . # # # #
 # # # . # # # #
# # # # # # # # #
 # # # # # # # #
";
const M19X13_O0: &str = "
# # # # # # # # # #
 # # # # # # # # #
# . # . . . . # . #
 . . # . . . . # .
# # . # # # # . # #
 . # # . . # # # .
# # . # # # . . # #
 . . # . . # . . .
# # # # # # # # # #
 . . . . # . # . .
# # # . . . . . . #
 . . # # # # # # #
# # # . # . . # # #
 . . . . # # . . #
# # # # . # # . . #
 . . . # # . # # .
# # . . # . . # # #
 . # # # . # . . .
# . . # . # # # . #
 # # # . # . . # #
# . # . # # # . . #
 . . # # # . # # #
# # . . . . . . . #
 . # . . . # # . .
# # # # # # # # # #
 # # # # # # # # #
";
const M19X13_O1: &str = "
# # # # # # # # # #
 # # # # # # # # #
# # # . # # # # # #
 # # # # # # # # #
# # # . # # # # # #
 # # # . # # # # #
# # # # # # # # # #
 # # # . # # # # #
# # . # . # . . . #
 # # # # . . . . .
# # . # # . # # # #
 # . . # # # # # #
# . # . # . # # # #
 . # # . # # # # #
# # # # # . # # # #
 . # # # # # # # #
# # # # # . # # # #
 . # # # . # # # #
# # # # # # # # # #
 . # # # . # # # #
# # # # . # # # # #
 . # # . # # # # #
# . . . # # # # # #
 # . . # # # # # #
# # # # # # # # # #
 # # # # # # # # #
";
const M7X7_O0: &str = "
# # # #
 # # #
# # . #
 . # #
# . . #
 # . .
# # # #
 # . .
# # # #
 # # .
# . . #
 . . #
# # # #
 # # #
";
const M7X7_O1: &str = "
# # # #
 # # #
# # # #
 . # .
# . . #
 # . #
# # # #
 # . #
# # # #
 # . #
# . . #
 . # .
# # # #
 # # #
";
const M3X3: &str = "
# #
 #
# #
 .
# #
 #
";

#[test]
fn exact_grids_on_seed_9() {
    for (w, h, order, want) in [
        (17, 14, 0, M17X14_O0),
        (17, 14, 1, M17X14_O1),
        (19, 13, 0, M19X13_O0),
        (19, 13, 1, M19X13_O1),
        (7, 7, 0, M7X7_O0),
        (7, 7, 1, M7X7_O1),
        (3, 3, 0, M3X3),
        (3, 3, 1, M3X3),
    ] {
        let g = mazer(w, h, order, 9);
        check_mazer_invariants(&g, order);
        assert_picture(&g, want);
    }
}

#[test]
fn invariants_over_many_seeds() {
    for (w, h) in [(17, 14), (19, 13), (7, 7), (3, 3), (4, 4), (5, 9), (30, 20)] {
        for order in 0..2 {
            for seed in 0..40 {
                let g = mazer(w, h, order, seed);
                check_mazer_invariants(&g, order);
                // Deterministic, and both strategies agree.
                assert_eq!(g, mazer(w, h, order, seed));
                let per_tile = Mazer::new(w, h)
                    .unwrap()
                    .with_strategy(Strategy::PerTile)
                    .generate(order, &mut MazeRng::new(seed))
                    .unwrap();
                assert_eq!(g, per_tile, "{w}x{h} order {order} seed {seed}");
            }
        }
    }
}

#[test]
fn thin_extremes_open_the_whole_interior_line() {
    // 83x3: the interior is row 1, a zigzag path of 81 tiles; 3x83: column 1, straight down.
    for (w, h) in [(83, 3), (3, 83)] {
        for order in 0..2 {
            for seed in 0..10 {
                let g = mazer(w, h, order, seed);
                check_mazer_invariants(&g, order);
                assert_eq!(g.open_count(), 81, "{w}x{h} order {order}");
            }
        }
    }
}

#[test]
fn seeds_make_different_mazes() {
    assert_ne!(mazer(17, 14, 0, 1), mazer(17, 14, 0, 2));
    assert_ne!(mazer(17, 14, 1, 1), mazer(17, 14, 1, 2));
}

#[test]
fn mazer_errors() {
    let e = Mazer::new(17, 14)
        .unwrap()
        .generate(2, &mut MazeRng::new(1))
        .unwrap_err();
    assert_eq!(e.kind, crate::ErrorKind::InvalidOption);
    assert_eq!(e.message, "order > 1 not supported (got order 2)");
    let e = Mazer::new(2, 14).unwrap_err();
    assert_eq!(e.message, "tile grid width must be at least 3 (got 2x14)");
    let e = Mazer::new(14, 1).unwrap_err();
    assert_eq!(e.message, "tile grid height must be at least 3 (got 14x1)");
    assert!(Mazer::new(MAX_SIDE + 1, 14).is_err());
}

/// Prints the exact grids in the form above (`cargo test --lib print_pictures -- --ignored
/// --nocapture`), for when the generator changes on purpose.
#[test]
#[ignore]
fn print_pictures() {
    for (name, w, h, order) in [
        ("M17X14_O0", 17, 14, 0),
        ("M17X14_O1", 17, 14, 1),
        ("M19X13_O0", 19, 13, 0),
        ("M19X13_O1", 19, 13, 1),
        ("M7X7_O0", 7, 7, 0),
        ("M7X7_O1", 7, 7, 1),
        ("M3X3", 3, 3, 0),
    ] {
        println!("const {name}: &str = \"\n{}\";", mazer(w, h, order, 9));
    }
}
