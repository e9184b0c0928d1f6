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
# . . # . . . . #
 # # # # # # # #
# . . # . . . . #
 . . . # . . . .
# # # . # # # # #
 . # # . . # # .
# . . # # # . . #
 # . . # . . # #
# # # . # # # . #
 # # # # . . # #
# . # . . . # . #
 . . . . # # . .
# # # # # # . # #
 . . # # . . # .
# # . . # . # . #
 # # . . # # . #
# . # # . . # # #
 . # # # # . # .
# # . . . # . # #
 . . . . . # # .
# . # # # . . # #
 # # # # # . . .
# . . . . # # . #
 . . . . . . # #
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
 . # # # # # # #
# # . . # . # # #
 . # . # # # # #
# # # # # . # # #
 # # . # . # # #
# # # # # # # # #
 # # . # . # # #
# . . . . # # # #
 . . # . # # # #
# # # # # # # # #
 # # # # # # # #
";
const M19X13_O0: &str = "
# # # # # # # # # #
 # # # # # # # # #
# . . . . # . . # #
 . . . . . # . . #
# # # # # . # # . #
 . # . # # . . # .
# # . # # # . # # #
 . . # . # # # # .
# # # . . # # . . #
 # . . # . . . . #
# . # # # . # # # #
 # # . . # # . # .
# . . # . . # . # #
 . . # # # # # . .
# # # # . # . # . #
 . # # # # # # # #
# # # # . . . # . #
 # . # . . . . # #
# . . . # # # . . #
 . # . # . # # # #
# # # # # . # # . #
 . . . # # . . # #
# # . . . # . . . #
 . # # . . # # . .
# # # # # # # # # #
 # # # # # # # # #
";
const M19X13_O1: &str = "
# # # # # # # # # #
 # # # # # # # # #
# # # # # # # # # #
 . # # # # # # # #
# # # # # # # . . #
 . # # # # # . . .
# . # # # # . # # #
 # . . . # # # # #
# # . . . # . # # #
 # # # # . . # # #
# # # # # . # # # #
 # # # # # # # # #
# # # # # . # # # #
 # # # # # # # # #
# # # # # . # # # #
 # # # # . # # # #
# # # # # # # # # #
 # # # # . # # # #
# # # # # # # # # #
 # # # # . # # # #
# # # # # # # # # #
 # # # # . # # # #
# # # # # # # # # #
 # # # # . # # # #
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
 . . .
# . # #
 # # .
# . # #
 . . .
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

// --- The Digger. ---

/// A grid with the 7 tiles within distance 1 of `centre` open (a room).
fn room(w: u32, h: u32, centre: Tile) -> TileGrid {
    let mut g = TileGrid::new(w, h).unwrap();
    g.set_open(centre, true).unwrap();
    for n in g.neighbours(centre) {
        g.set_open(n, true).unwrap();
    }
    g
}

fn dig(before: &TileGrid, entrance: Tile, order: u32, seed: u64, merge: bool) -> TileGrid {
    let mut g = before.clone();
    let mut rng = MazeRng::new(seed);
    if merge {
        Digger::maze(&mut g, entrance, order, &mut rng).unwrap();
    } else {
        Digger::corridor(&mut g, entrance, order, &mut rng).unwrap();
    }
    g
}

/// Everything a dig from `entrance` into `before` must satisfy.
#[track_caller]
fn check_digger(before: &TileGrid, after: &TileGrid, entrance: Tile, merge: bool) {
    let new: Vec<Tile> = after
        .open_tiles()
        .into_iter()
        .filter(|&t| !before.is_open(t) && t != entrance)
        .collect();
    assert!(before.open_tiles().iter().all(|&t| after.is_open(t)));
    assert!(after.is_open(entrance));
    assert!(
        new.iter().all(|&t| after.is_interior(t)),
        "dug the ring:\n{after}"
    );
    // The dug tiles hang together with the entrance.
    let reach = after.flood(entrance);
    assert!(new.iter().all(|t| reach.contains(t)), "cut off:\n{after}");
    // A corridor stops at the first dug tile that touches the open area.
    let touching = new
        .iter()
        .filter(|&&t| {
            before
                .neighbours(t)
                .iter()
                .any(|&n| before.is_open(n) && n != entrance)
        })
        .count();
    if !merge {
        assert!(
            touching <= 1,
            "{touching} tiles touch the open area:\n{after}"
        );
    }
    // The dig reached the open area (stepped onto it or touched it), and then a connected area
    // stays connected; or it reached nothing, and the entrance's part holds no old tile.
    let stepped = after
        .neighbours(entrance)
        .iter()
        .any(|&n| before.is_interior(n) && before.is_open(n));
    if stepped || touching > 0 {
        if before.is_connected() {
            assert!(after.is_connected(), "reached but not connected:\n{after}");
        }
    } else {
        assert!(reach.iter().all(|&t| !before.is_open(t) || t == entrance));
    }
}

/// The exact digs: name, ground, entrance, order, maze (else corridor); all on seed 9.
fn exact_digs() -> Vec<(&'static str, TileGrid, Tile, u32, bool)> {
    let room = room(17, 14, (8, 7));
    let empty = TileGrid::new(7, 7).unwrap();
    vec![
        ("D17X14_CORRIDOR_O0", room.clone(), (0, 6), 0, false),
        ("D17X14_CORRIDOR_O1", room.clone(), (0, 6), 1, false),
        ("D17X14_MAZE_O0", room, (8, 0), 0, true),
        ("D7X7_MAZE_O0", empty.clone(), (3, 6), 0, true),
        ("D7X7_MAZE_O1", empty, (0, 3), 1, true),
    ]
}

// A room of 7 tiles around (8, 7). Order 0 from the left: the corridor winds in (with one dead
// end) and stops at (8, 9), the first tile that touches the room.
const D17X14_CORRIDOR_O0: &str = "
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
 # # # # # # # #
. . # # . # # # #
 . . # . . # # #
# # # # . # # # #
 # . # . . # # #
# . # # . # # # #
 # # # # # # # #
# . # # . # # # #
 # # # . # # # #
# . . . # # # # #
 # . . # # # # #
# # # # # # # # #
 # . # # # # # #
# # # # # # # # #
 # . # # # # # #
# # # # # # # # #
 # # # # # # # #
";
// Order 1 from the same tile: the digger's own tree cannot grow any more before it comes near
// the room, so it stops with nothing reached (the maze would be the same).
const D17X14_CORRIDOR_O1: &str = "
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
 # # # # # # # #
. . # # . # # # #
 . . # . . # # #
# # . # . # # # #
 # # # . . # # #
# # . # . # # # #
 # # . # # # # #
# # # # # # # # #
 # # . # # # # #
# # # . # # # # #
 # # # # # # # #
# # # . # # # # #
 # # # # # # # #
# # # . # # # # #
 # # . . # # # #
# # # # # # # # #
 # # # # # # # #
";
// Order 0 from the top: touches the room, merges, and fills the rest of the grid.
const D17X14_MAZE_O0: &str = "
# # # # . # # # #
 # # # # # # # #
# . . . . . . . #
 . . . # # . . .
# # # # . # # # #
 . # . # . # . .
# # . # # # . # #
 . . # . . . # .
# # # . . . # # #
 # . . # # # . .
# . # # # # # # #
 # # . # # . . .
# . . # . # . . #
 . . # . . # # #
# # # # . # . # #
 . # . . . . . .
# . # . . # # # #
 # . # # # . . .
# # . . # . # # #
 . # . . # # # .
# . # # # . . # #
 # # . . # # . .
# . . # # . # . #
 . . # . . . # #
# # # # # # . . #
 . . # . . # . .
# # # # # # # # #
 # # # # # # # #
";
// Empty grids: the dug tiles are a maze of their own, entrance included.
const D7X7_MAZE_O0: &str = "
# # # #
 # # #
# . . #
 . . .
# # # #
 . # .
# . # #
 # . #
# # . #
 . # #
# . . #
 # . .
# # # #
 # . #
";
const D7X7_MAZE_O1: &str = "
# # # #
 # # #
# # # #
 # # #
# # # #
 # # #
. . # #
 . . #
# # . #
 # # #
# # . #
 # # .
# # # #
 # # #
";

#[test]
fn exact_digs_on_seed_9() {
    let pictures = [
        D17X14_CORRIDOR_O0,
        D17X14_CORRIDOR_O1,
        D17X14_MAZE_O0,
        D7X7_MAZE_O0,
        D7X7_MAZE_O1,
    ];
    for ((_, before, entrance, order, merge), want) in exact_digs().into_iter().zip(pictures) {
        let g = dig(&before, entrance, order, 9, merge);
        check_digger(&before, &g, entrance, merge);
        assert_picture(&g, want);
    }
    // The stuck corridor reached nothing: the maze is the same.
    assert_eq!(
        TileGrid::from_ascii(D17X14_CORRIDOR_O1).unwrap(),
        dig(&room(17, 14, (8, 7)), (0, 6), 1, 9, true)
    );
}

/// The non-corner tiles of the outer ring.
fn entrances(g: &TileGrid) -> Vec<Tile> {
    let (w, h) = (g.width(), g.height());
    (0..w)
        .flat_map(|c| (0..h).map(move |r| (c, r)))
        .filter(|&t| g.is_edge(t) && !g.is_corner(t))
        .collect()
}

#[test]
fn digger_from_every_edge_tile() {
    for (w, h) in [(7, 7), (3, 3)] {
        let empty = TileGrid::new(w, h).unwrap();
        let grounds = [
            empty.clone(),
            mazer(w, h, 0, 5),
            mazer(w, h, 1, 5),
            room(w, h, (w / 2, h / 2)),
        ];
        let list = entrances(&empty);
        assert_eq!(list.len() as u32, 2 * (w - 2) + 2 * (h - 2));
        for entrance in list {
            for order in 0..2 {
                for (i, before) in grounds.iter().enumerate() {
                    for seed in 0..8 {
                        let corridor = dig(before, entrance, order, seed, false);
                        let maze = dig(before, entrance, order, seed, true);
                        check_digger(before, &corridor, entrance, false);
                        check_digger(before, &maze, entrance, true);
                        // Same draws until the corridor stops: it is part of the maze.
                        let c = corridor.open_tiles();
                        assert!(c.iter().all(|&t| maze.is_open(t)), "ground {i}");
                        let reach = corridor.flood(entrance);
                        if !reach.iter().any(|&t| before.is_open(t) && t != entrance) {
                            assert_eq!(corridor, maze, "nothing reached, ground {i}");
                        }
                        if (w, h) == (3, 3) {
                            // The entrance and the one interior tile, nothing else.
                            let mut want = before.clone();
                            want.set_open(entrance, true).unwrap();
                            want.set_open((1, 1), true).unwrap();
                            assert_eq!(corridor, want);
                            assert_eq!(maze, want);
                        }
                        if i == 0 {
                            // On an empty grid the dug tiles are a tree the rule cannot grow.
                            assert_eq!(maze.adjacent_open_pairs(), maze.open_count() - 1);
                            assert!(maze.is_connected());
                        }
                    }
                }
            }
        }
    }
}

#[test]
fn corridor_equals_maze_when_nothing_is_reachable() {
    for (w, h) in [(7, 7), (17, 14), (3, 3)] {
        // Nothing open, or only the top-left corner (no interior neighbour).
        let empty = TileGrid::new(w, h).unwrap();
        let mut corner = empty.clone();
        corner.set_open((0, 0), true).unwrap();
        for before in [empty, corner] {
            for entrance in entrances(&before) {
                for order in 0..2 {
                    for seed in 0..4 {
                        let c = dig(&before, entrance, order, seed, false);
                        assert_eq!(c, dig(&before, entrance, order, seed, true));
                        assert_eq!(c.is_open((0, 0)), before.is_open((0, 0)));
                    }
                }
            }
        }
    }
}

#[test]
fn maze_merges_and_keeps_growing() {
    // From the same draws, the maze goes on where the corridor stops.
    let before = room(17, 14, (8, 7));
    for seed in 0..10 {
        let c = dig(&before, (0, 6), 0, seed, false);
        let m = dig(&before, (0, 6), 0, seed, true);
        assert!(c.solve((0, 6), (8, 7)).is_some(), "seed {seed}:\n{c}");
        assert!(m.open_count() > c.open_count() + 20, "seed {seed}:\n{m}");
        assert!(m.is_connected() && c.is_connected());
    }
}

#[test]
fn digger_errors_leave_the_grid_alone() {
    let before = mazer(7, 7, 0, 1);
    let mut g = before.clone();
    let mut rng = MazeRng::new(1);
    for (entrance, order, msg) in [
        (
            (0, 0),
            0,
            "entrance (0, 0) is a corner of the 7x7 grid; use another edge tile",
        ),
        (
            (6, 6),
            1,
            "entrance (6, 6) is a corner of the 7x7 grid; use another edge tile",
        ),
        (
            (6, 0),
            0,
            "entrance (6, 0) is a corner of the 7x7 grid; use another edge tile",
        ),
        (
            (0, 6),
            0,
            "entrance (0, 6) is a corner of the 7x7 grid; use another edge tile",
        ),
        (
            (3, 3),
            0,
            "entrance (3, 3) is not on the edge of the 7x7 grid",
        ),
        ((7, 2), 0, "entrance (7, 2) is outside the 7x7 grid"),
        ((0, 3), 2, "order > 1 not supported (got order 2)"),
    ] {
        for merge in [false, true] {
            let e = if merge {
                Digger::maze(&mut g, entrance, order, &mut rng)
            } else {
                Digger::corridor(&mut g, entrance, order, &mut rng)
            }
            .unwrap_err();
            assert_eq!(e.kind, crate::ErrorKind::InvalidOption);
            assert_eq!(e.message, msg);
            assert_eq!(g, before);
        }
    }
}

#[test]
fn solve_walks_the_maze() {
    for order in 0..2 {
        let g = mazer(19, 13, order, 4);
        let open = g.open_tiles();
        let (a, b) = (open[0], open[open.len() - 1]);
        let path = g.solve(a, b).unwrap();
        assert_eq!((path[0], path[path.len() - 1]), (a, b));
        assert!(path.iter().all(|&t| g.is_open(t)));
        assert!(path.windows(2).all(|w| distance(w[0], w[1]) == 1));
        // In a tree the path is the only one: it never comes back to a tile.
        let mut seen = path.clone();
        seen.sort();
        seen.dedup();
        assert_eq!(seen.len(), path.len());
        assert!(g.render_path(&path).contains('o'));
    }
}

#[test]
fn digger_strategies_agree() {
    let before = room(17, 14, (8, 7));
    for order in 0..2 {
        for merge in [false, true] {
            for seed in 0..10 {
                let a = dig(&before, (0, 6), order, seed, merge);
                let mut b = before.clone();
                Digger::new(Strategy::PerTile)
                    .dig(&mut b, (0, 6), order, &mut MazeRng::new(seed), merge)
                    .unwrap();
                assert_eq!(a, b);
            }
        }
    }
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
    for (name, before, entrance, order, merge) in exact_digs() {
        let g = dig(&before, entrance, order, 9, merge);
        println!("const {name}: &str = \"\n{g}\";");
    }
}
