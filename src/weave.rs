//! Weave mazes: passages that cross over and under each other (rect and hex grids).
//!
//! # Construction
//!
//! A tunnel cannot be added to a finished maze: a perfect maze is a spanning tree, so any new edge
//! closes a loop. The tunnels are therefore carved *as part of* the tree, by a recursive
//! backtracker (randomised depth-first search with an explicit stack) that knows one extra move.
//! Standing at the cell `c` on top of the stack, looking in direction `d` (one of the four
//! compass directions on a rect grid, one of the six on a hex grid), the carver may **dive**
//! under the neighbour `u` to claim the cell `t` beyond it when
//!
//! - `u` and `t` exist and are active (so all three cells are in the mask), and `t` is
//!   unvisited;
//! - `u` is visited and is a **straight-through corridor across the dive**: its only passages
//!   are the two plain links to a pair of opposite neighbours on another axis than `d`'s (for a
//!   dive to the east on a rect grid, `u` is open exactly north and south; on a hex grid, along
//!   either of the two other axes, so passages cross at 60 degrees); it ends no tunnel and it is
//!   not crossed already;
//! - `u` is **not a border cell**: every one of its neighbours in the topology is active (on a
//!   rect grid this follows from the rest; on a hex grid it also keeps the crossing's two
//!   remaining sides inside the maze);
//! - **no neighbour of `u` is crossed**: two crossings never sit side by side.
//!
//! So a crossing never lies under or over a turn or a dead end: the crossed cell's passage runs
//! straight through it, and the tunnel runs straight under it, from side to opposite side.
//!
//! The dive records the tunnel `c -> t` under `u` ([`Maze::add_tunnel`]'s data) and pushes `t`.
//! Like an ordinary step it adds one new cell by one new edge, so the result has `cells - 1`
//! passages and reaches every cell: it is perfect at every density.
//!
//! A crossed cell is **sealed**: it must stay a bare corridor under its bridge, so it never gets
//! another passage or tunnel, and it is crossed only once. It is visited, so no ordinary step
//! leads into it and no dive lands on it; a crossed cell reaching the top of the stack is popped
//! without carving out of it; crossed cells and tunnel ends are never dived under. Sealing
//! strands nothing: the crossed cell's neighbours all exist (it is not a border cell), none of
//! them is crossed (no two crossings side by side), and they form a ring (on a rect grid the
//! four are all visited at the crossing: two are its corridor, two the tunnel's ends; on a hex
//! grid the six surround it, each next to the two beside it), so the search reaches every one of
//! them without passing through the crossed cell.
//!
//! # Density
//!
//! `density` (the design's `weave`, in [0, 1]) is the probability of taking a dive *when one is
//! possible*: at every step where at least one dive is available, the carver draws once and dives
//! (uniformly among the available dives) with probability `density`; otherwise it takes an
//! ordinary step to a random unvisited neighbour, or backs up when there is none. So 0 makes no
//! crossings (and is an ordinary backtracker maze), 1 dives at every opportunity. The count of
//! crossings is reported ([`crate::metrics::Metrics::crossings`], the summary line, the JSON).
//!
//! # Why the backtracker
//!
//! Its long winding corridors are what a dive needs: many straight-through cells to pass under,
//! with unvisited ground still beside them while the search runs. It is also the default carver,
//! so a weave maze reads like the plain maze it replaces, with crossings added. A growing tree
//! could take the same move at the cell it continues from; texture, not the rule, decided.
//!
//! # Why not polar and tri
//!
//! A crossing passes straight through a cell, from one side to the opposite one. A triangle has
//! no opposite sides; a polar cell can have two cells outside it and one inside, so no passage
//! runs straight through it along the radius. Both are refused with one line ([`check`]).
//!
//! Cost: 2 bytes per cell on top of the maze (the cell's state: its open directions, flags and
//! which directions hold an active cell); neighbours are read from the grid's own lists, and the
//! tunnels are added to the maze in one batch at the end ([`Maze::add_tunnels`]).

use std::sync::Arc;

use crate::error::{Error, Result};
use crate::grid::{CellId, Grid};
use crate::maze::{Maze, Tunnel};
use crate::random::Random;
use crate::topology::{Coord, Topology, TopologyKind};

/// The name reported as the algorithm of a weave maze (`Generated::algorithm_used`, JSON
/// `algorithm`).
pub const NAME: &str = "weave";

/// No cell in that direction.
const NONE: u32 = u32::MAX;
/// State bits 0..6: plain links open in each direction (rect: N, E, S, W; hex: N, NE, SE, S,
/// SW, NW).
const OPEN: u16 = 0b11_1111;
/// State bit: the carver has reached the cell.
const VISITED: u16 = 1 << 6;
/// State bit: a tunnel passes under the cell (it is sealed).
const CROSSED: u16 = 1 << 7;
/// State bit: a tunnel starts or ends at the cell.
const TUNNEL_END: u16 = 1 << 8;
/// State bits 9..15: which directions hold an active cell.
const ACTIVE_SHIFT: u32 = 9;
/// The most directions a cell has (hex).
const MAX_DIRS: usize = 6;

/// The cell next to `c` in direction `d` of the topology's neighbour order, if on the grid.
fn step(topology: &Topology, c: Coord, d: usize) -> Option<Coord> {
    match topology {
        Topology::Rect(_) => {
            let (r, k) = (i64::from(c.row), i64::from(c.col));
            let (r, k) = match d {
                0 => (r - 1, k),
                1 => (r, k + 1),
                2 => (r + 1, k),
                _ => (r, k - 1),
            };
            (r >= 0 && k >= 0).then(|| Coord::new(r as u32, k as u32))
        }
        Topology::Hex(h) => h.step(c, d),
        _ => None,
    }
}

/// The carver's view of the grid: each cell's state, and the grid for its neighbour lists.
///
/// Directions are numbered in the topology's neighbour order (rect N, E, S, W; hex N, NE, SE, S,
/// SW, NW), so the opposite of `d` is `d + dirs / 2` and the grid's neighbour list of a cell
/// holds its active neighbours in direction order: the one in direction `d` sits at the slot
/// counting the active directions below `d`.
struct Weaver {
    grid: Arc<Grid>,
    /// Directions per cell: 4 (rect) or 6 (hex).
    dirs: usize,
    /// Per cell: open links, flags, and which directions hold an active cell.
    state: Vec<u16>,
}

impl Weaver {
    /// The state of `grid` (a rect or hex grid): every cell unvisited with no links.
    fn new(grid: &Arc<Grid>) -> Self {
        let topology = grid.topology();
        let dirs = if topology.kind() == TopologyKind::Hex {
            6
        } else {
            4
        };
        let state = grid
            .cells()
            .map(|c| {
                let at = grid.coord(c);
                let mut active = 0u16;
                for d in 0..dirs {
                    if step(topology, at, d).and_then(|n| grid.id_at(n)).is_some() {
                        active |= 1 << d;
                    }
                }
                debug_assert_eq!(active.count_ones() as usize, grid.neighbours(c).len());
                active << ACTIVE_SHIFT
            })
            .collect();
        Weaver {
            grid: grid.clone(),
            dirs,
            state,
        }
    }

    /// The direction opposite `d`.
    #[inline]
    fn back(&self, d: usize) -> usize {
        (d + self.dirs / 2) % self.dirs
    }

    /// The active cell next to `c` in direction `d`, or `NONE`.
    #[inline]
    fn at(&self, c: u32, d: usize) -> u32 {
        if self.state[c as usize] >> ACTIVE_SHIFT & (1 << d) == 0 {
            return NONE;
        }
        self.grid.neighbours(CellId(c))[self.slot(c, d)].0
    }

    /// The slot of direction `d` in `c`'s neighbour list (switched-off cells are left out).
    #[inline]
    fn slot(&self, c: u32, d: usize) -> usize {
        (self.state[c as usize] >> ACTIVE_SHIFT & ((1 << d) - 1)).count_ones() as usize
    }

    /// Whether the open links `open` are a straight corridor across a dive in direction `d`:
    /// exactly two opposite directions, on another axis than `d`'s.
    #[inline]
    fn across(&self, open: u16, d: usize) -> bool {
        let axes = self.dirs / 2;
        (0..axes)
            .filter(|&e| e != d % axes)
            .any(|e| open == (1 << e | 1 << (e + axes)))
    }

    /// The cell to dive under and the cell claimed beyond it, if `c` can dive in direction `d`
    /// (the rules of the module documentation).
    #[inline]
    fn dive(&self, c: u32, d: usize) -> Option<(u32, u32)> {
        let u = self.at(c, d);
        if u == NONE {
            return None;
        }
        let su = self.state[u as usize];
        if su & (VISITED | CROSSED | TUNNEL_END) != VISITED || !self.across(su & OPEN, d) {
            return None;
        }
        let t = self.at(u, d);
        if t == NONE || self.state[t as usize] & VISITED != 0 {
            return None;
        }
        // not a border cell: every direction holds an active cell
        let all = (1u16 << self.dirs) - 1;
        if su >> ACTIVE_SHIFT & all != all {
            return None;
        }
        // no crossing next to it
        if (0..self.dirs).any(|e| self.state[self.at(u, e) as usize] & CROSSED != 0) {
            return None;
        }
        Some((u, t))
    }
}

/// A uniform index below `n` (no draw when there is one choice).
#[inline]
fn pick(rng: &mut dyn Random, n: usize) -> usize {
    if n == 1 { 0 } else { rng.below(n) }
}

/// Whether weave (and the inset drawing made for it) works on `kind`: rect and hex grids.
pub fn weaves(kind: TopologyKind) -> bool {
    matches!(kind, TopologyKind::Rect | TopologyKind::Hex)
}

/// Checks that weave can run on `kind`: rect and hex grids. The refusal is one line saying why.
pub fn check(kind: TopologyKind) -> Result<()> {
    let why = match kind {
        TopologyKind::Rect | TopologyKind::Hex => return Ok(()),
        TopologyKind::Tri => "a triangle has no opposite sides for a passage to cross through",
        TopologyKind::Polar => {
            "a ring cell can have two cells outside it, so no passage crosses it straight"
        }
    };
    Err(Error::option(format!(
        "weave works on rect and hex grids only, not {kind}: {why}"
    )))
}

/// Carves `maze` (every wall standing, on a connected grid) into a perfect weave maze whose
/// dives are taken with probability `density` (see the module documentation). Returns the number
/// of crossings. An empty maze is left alone; a grid that is not connected is carved only in the
/// part holding the start cell, as with every carver.
///
/// # Errors
/// When the maze is not on a rect or hex grid.
pub fn carve(maze: &mut Maze, density: f64, rng: &mut dyn Random) -> Result<usize> {
    carve_counted(maze, density, rng).map(|(crossings, _)| crossings)
}

/// [`carve`], also returning how many times a dive was possible (the carver drew whether to
/// take one): the crossings are about `density` of those.
fn carve_counted(maze: &mut Maze, density: f64, rng: &mut dyn Random) -> Result<(usize, usize)> {
    check(maze.grid().topology().kind())?;
    let n = maze.len();
    if n == 0 {
        return Ok((0, 0));
    }
    let mut chances = 0;
    let mut w = Weaver::new(maze.grid_arc());
    let start = rng.below(n) as u32;
    w.state[start as usize] |= VISITED;
    let mut stack = vec![start];
    let mut tunnels = Vec::new();
    let mut plain = [(0usize, 0u32); MAX_DIRS];
    let mut dives = [(0u32, 0u32); MAX_DIRS];
    while let Some(&top) = stack.last() {
        if w.state[top as usize] & CROSSED != 0 {
            stack.pop();
            continue;
        }
        let (mut np, mut nd) = (0, 0);
        for d in 0..w.dirs {
            let v = w.at(top, d);
            if v == NONE {
                continue;
            }
            if w.state[v as usize] & VISITED == 0 {
                plain[np] = (d, v);
                np += 1;
            } else if let Some((u, t)) = w.dive(top, d) {
                dives[nd] = (u, t);
                nd += 1;
            }
        }
        chances += usize::from(nd > 0);
        if nd > 0 && rng.chance(density) {
            let (u, t) = dives[pick(rng, nd)];
            w.state[u as usize] |= CROSSED;
            w.state[top as usize] |= TUNNEL_END;
            w.state[t as usize] |= VISITED | TUNNEL_END;
            tunnels.push(Tunnel {
                from: CellId(top.min(t)),
                to: CellId(top.max(t)),
                under: CellId(u),
            });
            stack.push(t);
        } else if np > 0 {
            let (d, v) = plain[pick(rng, np)];
            let b = w.back(d);
            maze.link_slots(CellId(top), w.slot(top, d), CellId(v), w.slot(v, b));
            w.state[top as usize] |= 1 << d;
            w.state[v as usize] |= VISITED | 1 << b;
            stack.push(v);
        } else {
            stack.pop();
        }
    }
    let count = tunnels.len();
    maze.add_tunnels(tunnels);
    Ok((count, chances))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mask::Mask;
    use crate::random::MazeRng;
    use crate::topology::{Coord, Topology};
    use std::sync::Arc;

    fn rect(w: u32, h: u32, mask: Option<&str>) -> Arc<Grid> {
        let t = Topology::new(TopologyKind::Rect, w, h).unwrap();
        let m = mask.map(|p| Mask::from_ascii(&t, p).unwrap());
        Arc::new(Grid::new(t, m.as_ref()).unwrap())
    }

    fn woven(grid: &Arc<Grid>, density: f64, seed: u64) -> (Maze, usize) {
        let mut m = Maze::new(grid.clone());
        let k = carve(&mut m, density, &mut MazeRng::new(seed)).unwrap();
        (m, k)
    }

    /// The invariants of every crossing: see the module documentation.
    fn check_crossings(m: &Maze) {
        let g = m.grid();
        let mut crossed = vec![0; m.len()];
        for t in m.tunnels() {
            crossed[t.under.index()] += 1;
            let (a, u, b) = (g.coord(t.from), g.coord(t.under), g.coord(t.to));
            let horizontal =
                a.row == b.row && a.col + 2 == b.col && u == Coord::new(a.row, a.col + 1);
            let vertical =
                a.col == b.col && a.row + 2 == b.row && u == Coord::new(a.row + 1, a.col);
            assert!(horizontal || vertical, "{t:?} is not a straight hop");
            let mut over: Vec<Coord> = m.passages(t.under).map(|c| g.coord(c)).collect();
            over.sort();
            let expected = if horizontal {
                vec![Coord::new(u.row - 1, u.col), Coord::new(u.row + 1, u.col)]
            } else {
                vec![Coord::new(u.row, u.col - 1), Coord::new(u.row, u.col + 1)]
            };
            assert_eq!(
                over, expected,
                "the cell under {t:?} is not a perpendicular corridor"
            );
        }
        assert!(crossed.iter().all(|&k| k <= 1), "a cell is crossed twice");
    }

    fn hex(w: u32, h: u32, mask: Option<&str>) -> Arc<Grid> {
        let t = Topology::new(TopologyKind::Hex, w, h).unwrap();
        let m = mask.map(|p| Mask::from_ascii(&t, p).unwrap());
        Arc::new(Grid::new(t, m.as_ref()).unwrap())
    }

    /// Every rule of the module documentation, on rect and hex grids: a straight hop under a
    /// cell that is not on the border, whose only passages run straight through it on another
    /// axis, crossed once, with no crossed neighbour.
    fn check_rules(m: &Maze) {
        let g = m.grid();
        let topo = g.topology();
        let dirs = if topo.kind() == TopologyKind::Hex {
            6
        } else {
            4
        };
        let axes = dirs / 2;
        let mut crossed = vec![0; m.len()];
        for t in m.tunnels() {
            crossed[t.under.index()] += 1;
        }
        assert!(crossed.iter().all(|&k| k <= 1), "a cell is crossed twice");
        let at = |c: CellId, d: usize| step(topo, g.coord(c), d).and_then(|n| g.id_at(n));
        for t in m.tunnels() {
            let u = t.under;
            let d = (0..dirs)
                .find(|&d| at(t.from, d) == Some(u) && at(u, d) == Some(t.to))
                .unwrap_or_else(|| panic!("{t:?} is not a straight hop"));
            assert_eq!(g.neighbours(u).len(), dirs, "{t:?}: under a border cell");
            let mut over: Vec<CellId> = m.passages(u).collect();
            over.sort();
            let straight = (0..axes).filter(|&e| e != d % axes).any(|e| {
                let mut x = [at(u, e), at(u, e + axes)];
                x.sort();
                x.iter().copied().collect::<Option<Vec<_>>>() == Some(over.clone())
            });
            assert!(straight, "{t:?}: the bridge is not straight across");
            for n in g.neighbours(u) {
                assert_eq!(crossed[n.index()], 0, "{t:?}: a crossing next to it");
            }
            assert_eq!(m.degree(u), 2);
        }
    }

    #[test]
    fn hex_perfect_at_every_density_and_readable() {
        let g = hex(16, 13, None);
        let mut totals = Vec::new();
        for density in [0.0, 0.25, 0.5, 1.0] {
            let mut total = 0;
            for seed in 0..20 {
                let (m, k) = woven(&g, density, seed);
                assert!(m.is_perfect(), "density {density} seed {seed}");
                assert_eq!(k, m.tunnels().len());
                check_rules(&m);
                total += k;
            }
            totals.push(total);
        }
        assert_eq!(totals[0], 0);
        assert!(
            totals.windows(2).all(|w| w[0] < w[1]),
            "more density, more crossings: {totals:?}"
        );
        // both other axes are used for the bridge over a crossing
        let m = woven(&g, 1.0, 3).0;
        let horizontal_bridges = m
            .tunnels()
            .iter()
            .filter(|t| g.coord(t.from).col == g.coord(t.to).col)
            .count();
        assert!(horizontal_bridges > 0 && horizontal_bridges < m.tunnels().len());
    }

    /// The hex dive rule on a 5x5 grid, diving south-east from (1,1) under (2,2) to (2,3).
    #[test]
    fn hex_dive_rule() {
        let g = hex(5, 5, None);
        let id = |r, c| g.id_at(Coord::new(r, c)).unwrap().0;
        let (c, u, t) = (id(1, 1), id(2, 2), id(2, 3));
        let set = |w: &mut Weaver, cell: u32, bits: u16| {
            let s = &mut w.state[cell as usize];
            *s = (*s & !((1 << ACTIVE_SHIFT) - 1)) | bits;
        };
        let with = |open: u16| {
            let mut w = Weaver::new(&g);
            set(&mut w, c, VISITED);
            set(&mut w, u, VISITED | open);
            w
        };
        assert_eq!(w_at(&with(0), c, 2), u);
        assert_eq!(w_at(&with(0), u, 2), t);
        // straight through on the N-S axis or the NE-SW axis: a crossing
        assert_eq!(with(0b00_1001).dive(c, 2), Some((u, t)));
        assert_eq!(with(0b01_0010).dive(c, 2), Some((u, t)));
        // along the dive (SE-NW), a bend, a T, a dead end: none
        for open in [0b10_0100, 0b00_0011, 0b00_1011, 0b00_0001] {
            assert_eq!(with(open).dive(c, 2), None, "{open:06b}");
        }
        // a crossed neighbour: none
        let mut w = with(0b00_1001);
        w.state[id(3, 2) as usize] |= CROSSED;
        assert_eq!(w.dive(c, 2), None);
        // a border cell: the same crossing with (1,3), north-east of `u`, switched off
        let g2 = hex(5, 5, Some("#####\n###.#\n#####\n#####\n#####"));
        let id2 = |r, c| g2.id_at(Coord::new(r, c)).unwrap().0;
        let mut w = Weaver::new(&g2);
        set(&mut w, id2(1, 1), VISITED);
        // (every other rule holds: it is a straight corridor across, with the cell beyond free)
        set(&mut w, id2(2, 2), VISITED | 0b00_1001);
        assert_eq!(w.at(id2(2, 2), 1), NONE);
        assert_eq!(w.dive(id2(1, 1), 2), None);
    }

    fn w_at(w: &Weaver, c: u32, d: usize) -> u32 {
        w.at(c, d)
    }

    #[test]
    fn hex_masked_grids_are_perfect() {
        let g = hex(
            9,
            6,
            Some(".#######.\n####.####\n##.###.##\n#########\n.###.###.\n..#####.."),
        );
        let mut total = 0;
        for seed in 0..40 {
            let (m, k) = woven(&g, 1.0, seed);
            assert_eq!(m.is_perfect(), g.is_connected(), "seed {seed}");
            assert!(m.is_connected() || !g.is_connected());
            check_rules(&m);
            total += k;
        }
        assert!(total > 0);
    }

    #[test]
    fn rect_rules_hold_at_every_density() {
        for (g, name) in [
            (rect(20, 20, None), "plain"),
            (
                rect(
                    9,
                    6,
                    Some(".#######.\n####.####\n##.###.##\n#########\n.###.###.\n..#####.."),
                ),
                "masked",
            ),
        ] {
            for density in [0.1, 0.5, 1.0] {
                for seed in 0..20 {
                    let (m, _) = woven(&g, density, seed);
                    assert!(m.is_perfect(), "{name} {density} {seed}");
                    check_rules(&m);
                }
            }
        }
    }

    /// The density is the share of the possible dives taken: on four 60x60 grids of each kind,
    /// the share of the draws that dived is within 0.04 of the density asked for (measured: at
    /// most 0.028 off, hex at 0.5).
    #[test]
    fn density_is_the_share_of_possible_crossings_taken() {
        for g in [rect(60, 60, None), hex(60, 60, None)] {
            for density in [0.1, 0.25, 0.5, 0.75, 1.0] {
                let (mut taken, mut chances) = (0, 0);
                for seed in 0..4 {
                    let mut m = Maze::new(g.clone());
                    let (k, c) = carve_counted(&mut m, density, &mut MazeRng::new(seed)).unwrap();
                    taken += k;
                    chances += c;
                }
                let share = taken as f64 / chances as f64;
                assert!(
                    (share - density).abs() < 0.04,
                    "{:?} {density}: {taken} of {chances}",
                    g.topology().kind()
                );
            }
        }
    }

    #[test]
    fn perfect_at_every_density() {
        let g = rect(14, 11, None);
        for density in [0.0, 0.1, 0.5, 1.0] {
            for seed in 0..20 {
                let (m, k) = woven(&g, density, seed);
                assert!(m.is_perfect(), "density {density} seed {seed}");
                assert_eq!(k, m.tunnels().len());
                check_crossings(&m);
                if density == 0.0 {
                    assert_eq!(k, 0);
                }
            }
        }
        let total: usize = (0..20).map(|s| woven(&g, 1.0, s).1).sum();
        assert!(
            total > 20,
            "only {total} crossings in 20 mazes at density 1"
        );
    }

    #[test]
    fn masked_grids_are_perfect() {
        let g = rect(
            9,
            6,
            Some(".#######.\n####.####\n##.###.##\n#########\n.###.###.\n..#####.."),
        );
        assert!(g.is_connected());
        let mut total = 0;
        for seed in 0..40 {
            let (m, k) = woven(&g, 1.0, seed);
            assert!(m.is_perfect(), "seed {seed}");
            check_crossings(&m);
            total += k;
        }
        assert!(total > 0);
    }

    #[test]
    fn same_seed_same_maze() {
        let g = rect(30, 20, None);
        let (a, _) = woven(&g, 0.5, 9);
        let (b, _) = woven(&g, 0.5, 9);
        assert_eq!(a.passage_list(), b.passage_list());
        assert_eq!(a.tunnels(), b.tunnels());
    }

    #[test]
    fn polar_and_tri_are_refused() {
        for kind in [TopologyKind::Polar, TopologyKind::Tri] {
            let t = Topology::new(kind, 5, 5).unwrap();
            let mut m = Maze::new(Arc::new(Grid::new(t, None).unwrap()));
            let e = carve(&mut m, 0.5, &mut MazeRng::new(1)).unwrap_err();
            assert_eq!(e.message.lines().count(), 1);
            assert!(e.message.contains("rect and hex grids only"), "{e}");
            assert_eq!(m.passage_count(), 0);
        }
    }

    /// The dive rule on a 3x3 grid, diving east from (1,0) under (1,1) to (1,2).
    #[test]
    fn dive_rule() {
        let g = rect(3, 3, None);
        let id = |r, c| g.id_at(Coord::new(r, c)).unwrap().0;
        let (c, u, t) = (id(1, 0), id(1, 1), id(1, 2));
        // sets the low (link and flag) bits of a cell, keeping its active-direction bits
        let set = |w: &mut Weaver, cell: u32, bits: u16| {
            let s = &mut w.state[cell as usize];
            *s = (*s & !((1 << ACTIVE_SHIFT) - 1)) | bits;
        };
        let fresh = || {
            let mut w = Weaver::new(&g);
            set(&mut w, c, VISITED);
            set(&mut w, u, VISITED | 0b0101); // open north and south
            w
        };
        assert_eq!(fresh().dive(c, 1), Some((u, t)));
        // other directions: nothing beyond, or not a visited corridor
        assert_eq!(fresh().dive(c, 0), None);
        assert_eq!(fresh().dive(c, 3), None);
        let mut w = fresh();
        set(&mut w, u, VISITED | 0b1010); // parallel to the dive
        assert_eq!(w.dive(c, 1), None);
        let mut w = fresh();
        set(&mut w, u, VISITED | 0b0111); // a T junction
        assert_eq!(w.dive(c, 1), None);
        let mut w = fresh();
        set(&mut w, u, VISITED | 0b0011); // a bend
        assert_eq!(w.dive(c, 1), None);
        let mut w = fresh();
        w.state[u as usize] |= CROSSED;
        assert_eq!(w.dive(c, 1), None);
        let mut w = fresh();
        w.state[u as usize] |= TUNNEL_END;
        assert_eq!(w.dive(c, 1), None);
        let mut w = fresh();
        set(&mut w, t, VISITED);
        assert_eq!(w.dive(c, 1), None);
        // a crossed cell next to it (north of `u`): no crossing side by side
        let mut w = fresh();
        w.state[id(0, 1) as usize] |= CROSSED;
        assert_eq!(w.dive(c, 1), None);
        // a crossed cell only diagonally next to it does not count
        let mut w = fresh();
        w.state[id(0, 0) as usize] |= CROSSED;
        assert_eq!(w.dive(c, 1), Some((u, t)));
        // the cell beyond switched off
        let g = rect(3, 3, Some("###\n##.\n###"));
        let id = |r, c| g.id_at(Coord::new(r, c)).unwrap().0;
        let w = Weaver::new(&g);
        assert_eq!(w.at(id(1, 1), 1), NONE);
        assert_eq!(w.at(id(1, 1), 0), id(0, 1));
        assert_eq!(w.at(id(1, 1), 2), id(2, 1));
        assert_eq!(w.at(id(1, 1), 3), id(1, 0));
        assert_eq!(w.at(id(0, 2), 2), NONE);
        assert_eq!(w.at(id(0, 2), 3), id(0, 1));
        assert_eq!(w.at(id(2, 0), 0), id(1, 0));
        assert_eq!(w.at(id(2, 1), 1), id(2, 2));
        assert_eq!(w.slot(id(1, 1), 2), 1);
        assert_eq!(w.slot(id(1, 1), 3), 2);
        // a north neighbour whose id is one less (everything between is switched off)
        let g = rect(3, 2, Some("#..\n#.."));
        let w = Weaver::new(&g);
        assert_eq!(w.at(1, 0), 0);
        assert_eq!(w.at(1, 3), NONE);
        assert_eq!(w.at(0, 2), 1);
        assert_eq!(w.at(0, 1), NONE);
    }

    /// A scripted source: `below` answers from a list; `next_u32` always gives `coin`.
    struct Script {
        below: Vec<usize>,
        coin: u32,
    }
    impl Random for Script {
        fn next_u32(&mut self) -> u32 {
            self.coin
        }
        fn below(&mut self, n: usize) -> usize {
            let v = self.below.remove(0);
            assert!(v < n);
            v
        }
    }

    /// A hand-run on 3x3. Start (0,1); step S to (1,1), S to (2,1), W to (2,0), N to (1,0)
    /// (the only choice). Now (1,1) is a north-south corridor with (1,2) unvisited beyond it:
    /// at density 1 the carver dives east under it. From (1,2) it goes N to (0,2), backs up, S to
    /// (2,2), backs up to (1,0) and finishes with N to (0,0).
    #[test]
    fn hand_run_dives_under_a_corridor() {
        let g = rect(3, 3, None);
        let at = |r, c| g.id_at(Coord::new(r, c)).unwrap();
        let mut m = Maze::new(g.clone());
        let mut rng = Script {
            below: vec![1, 1, 1, 1, 0],
            coin: 0,
        };
        assert_eq!(carve(&mut m, 1.0, &mut rng).unwrap(), 1);
        assert!(rng.below.is_empty());
        assert_eq!(
            m.tunnels(),
            vec![Tunnel {
                from: at(1, 0),
                to: at(1, 2),
                under: at(1, 1)
            }]
        );
        assert!(m.is_perfect());
        check_crossings(&m);
        for (a, b) in [((0, 0), (1, 0)), ((0, 2), (1, 2)), ((1, 2), (2, 2))] {
            assert!(m.linked(at(a.0, a.1), at(b.0, b.1)));
        }
        // The same run with every chance lost: no dive; (1,0) steps N to (0,0), then backs up
        // past the dive (drawing again, and losing again), and the right column is reached from
        // (2,1) through (2,2), (1,2), (0,2).
        let mut m = Maze::new(g.clone());
        let mut rng = Script {
            below: vec![1, 1, 1, 1],
            coin: u32::MAX,
        };
        assert_eq!(carve(&mut m, 0.5, &mut rng).unwrap(), 0);
        assert!(m.is_perfect());
        for (a, b) in [((2, 1), (2, 2)), ((2, 2), (1, 2)), ((1, 2), (0, 2))] {
            assert!(m.linked(at(a.0, a.1), at(b.0, b.1)));
        }
    }

    #[test]
    fn crossed_cells_stay_sealed() {
        // Many crossed cells are still on the stack when they are crossed; when the carver comes
        // back to them it must not carve out of them: they keep exactly their two passages.
        let g = rect(25, 25, None);
        for seed in 0..30 {
            let (m, _) = woven(&g, 1.0, seed);
            check_crossings(&m);
            for t in m.tunnels() {
                assert_eq!(m.degree(t.under), 2);
            }
        }
    }
}
