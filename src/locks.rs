//! Hand work on a carved maze: walls locked open or closed, and regions carved again with a
//! seed of their own. A design of walls keeps them ([`crate::design::Walls::lock`] and
//! [`crate::design::Walls::recarve`]; in a file, `lock = { open = [[r1, c1, r2, c2]], closed =
//! [...] }` and `[[recarve]]` tables), the editor makes them with the mouse, and the pipeline
//! applies them after the carver and before the braid, so every maze stays perfect:
//!
//! - **Re-carving** a region ([`recarve`]) takes down every passage with a cell in it, carves
//!   each of its connected parts with the design's carver from the region's seed, then joins
//!   the pieces with one passage each, drawn in a random order from that seed (Kruskal's
//!   join). Passages with no cell in the region stay as they were.
//! - **A wall locked closed** that the carver opened is closed, and the two halves it splits
//!   the maze into are joined again by another wall, picked at random along their border.
//! - **A passage locked open** that the carver left closed is opened, and the loop it makes is
//!   broken at a random wall along it that is not itself locked open.
//!
//! Locks and regions on cells that are not in the maze (outside the shape) are left out, as the
//! editor's mask edits are: the shape may change under them.

use std::collections::{HashSet, VecDeque};

use serde::{Deserialize, Serialize};

use crate::carve::{Algorithm, CarveOptions, carve};
use crate::error::{Error, Result};
use crate::grid::{CellId, Grid};
use crate::mask::Mask;
use crate::maze::Maze;
use crate::random::{MazeRng, Random};
use crate::topology::Coord;

/// The most locks (open and closed together) a design may hold; each costs one walk over the
/// maze when it is applied.
pub const MAX_LOCKS: usize = 2000;
/// The most regions a design may carve again.
pub const MAX_RECARVES: usize = 64;

/// Walls locked by hand, each as the two cells either side: `[row1, col1, row2, col2]` (ring
/// and index in the ring for polar), as in the maze's JSON.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Locks {
    /// Passages kept open whatever the carver does.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub open: Vec<[u32; 4]>,
    /// Walls kept standing whatever the carver does.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub closed: Vec<[u32; 4]>,
}

impl Locks {
    /// No locks (what a design starts with; left out of the file).
    pub const NONE: Locks = Locks {
        open: Vec::new(),
        closed: Vec::new(),
    };

    /// Whether there are no locks.
    pub fn is_empty(&self) -> bool {
        self.open.is_empty() && self.closed.is_empty()
    }

    /// The lock on the wall between `a` and `b`, if any: `Some(true)` open, `Some(false)`
    /// closed.
    pub fn get(&self, a: Coord, b: Coord) -> Option<bool> {
        let is = |w: &[u32; 4]| same_wall(w, a, b);
        if self.open.iter().any(is) {
            Some(true)
        } else if self.closed.iter().any(is) {
            Some(false)
        } else {
            None
        }
    }

    /// Sets the lock on the wall between `a` and `b`: open, closed, or none.
    pub fn set(&mut self, a: Coord, b: Coord, lock: Option<bool>) {
        self.open.retain(|w| !same_wall(w, a, b));
        self.closed.retain(|w| !same_wall(w, a, b));
        let wall = [a.row, a.col, b.row, b.col];
        match lock {
            Some(true) => self.open.push(wall),
            Some(false) => self.closed.push(wall),
            None => {}
        }
    }

    /// Checks the counts and that no wall is locked both ways.
    pub fn check(&self) -> Result<()> {
        if self.open.len() + self.closed.len() > MAX_LOCKS {
            return Err(Error::option(format!(
                "lock: at most {MAX_LOCKS} locked walls, got {}",
                self.open.len() + self.closed.len()
            )));
        }
        for w in self.open.iter().chain(&self.closed) {
            let (a, b) = ends(w);
            if a == b {
                return Err(Error::option(format!(
                    "lock: a wall needs two different cells, got {} twice",
                    cell_name(a)
                )));
            }
        }
        for w in &self.open {
            let (a, b) = ends(w);
            if self.closed.iter().any(|c| same_wall(c, a, b)) {
                return Err(Error::option(format!(
                    "lock: the wall between {} and {} is locked both open and closed",
                    cell_name(a),
                    cell_name(b)
                )));
            }
        }
        Ok(())
    }
}

/// A region carved again: its cells and the seed they are carved from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Recarve {
    /// The seed of the region's carving and joining.
    pub seed: u64,
    /// The region's cells, `[row, col]` each.
    pub cells: Vec<[u32; 2]>,
}

/// Checks the regions: how many, and each with a cell and a seed of at most `max_seed`.
pub fn check_recarves(regions: &[Recarve], max_seed: u64) -> Result<()> {
    if regions.len() > MAX_RECARVES {
        return Err(Error::option(format!(
            "recarve: at most {MAX_RECARVES} regions, got {}",
            regions.len()
        )));
    }
    for r in regions {
        if r.cells.is_empty() {
            return Err(Error::option("recarve: a region needs at least one cell"));
        }
        if r.seed > max_seed {
            return Err(Error::option(format!(
                "recarve: a region's seed must be at most {max_seed}, got {}",
                r.seed
            )));
        }
    }
    Ok(())
}

fn ends(w: &[u32; 4]) -> (Coord, Coord) {
    (Coord::new(w[0], w[1]), Coord::new(w[2], w[3]))
}

fn same_wall(w: &[u32; 4], a: Coord, b: Coord) -> bool {
    let (x, y) = ends(w);
    (x, y) == (a, b) || (x, y) == (b, a)
}

fn cell_name(c: Coord) -> String {
    format!("row {}, column {}", c.row, c.col)
}

/// The maze's two cells of a locked wall; `None` when either is not in the maze, an error when
/// they are not neighbours.
fn wall_cells(grid: &Grid, w: &[u32; 4]) -> Result<Option<(CellId, CellId)>> {
    let (a, b) = ends(w);
    let (Some(x), Some(y)) = (grid.id_at(a), grid.id_at(b)) else {
        return Ok(None);
    };
    if grid.slot_of(x, y).is_none() {
        return Err(Error::option(format!(
            "lock: the cells at {} and {} are not neighbours",
            cell_name(a),
            cell_name(b)
        )));
    }
    Ok(Some((x, y)))
}

/// Carves `region` of `maze` again (see the module documentation) with `algorithm`; the maze
/// stays perfect. Walls in `closed` are never opened to join the pieces.
pub fn recarve(
    maze: &mut Maze,
    region: &Recarve,
    algorithm: Algorithm,
    opts: &CarveOptions,
    closed: &HashSet<(CellId, CellId)>,
) -> Result<()> {
    let grid = maze.grid_arc().clone();
    let mut inside = vec![false; grid.len()];
    let mut cells = Vec::new();
    for &[r, c] in &region.cells {
        if let Some(id) = grid.id_at(Coord::new(r, c))
            && !inside[id.index()]
        {
            inside[id.index()] = true;
            cells.push(id);
        }
    }
    if cells.is_empty() {
        return Ok(());
    }
    // down with every passage that has a cell in the region
    for &c in &cells {
        let open: Vec<CellId> = maze.passages(c).collect();
        for n in open {
            maze.unlink(c, n);
        }
    }
    let mut rng = MazeRng::new(region.seed);
    carve_parts(maze, &cells, algorithm, opts, &mut rng)?;
    join(maze, &cells, closed, &mut rng)
}

/// Carves each connected part of `cells` on a grid of its own and copies its passages in.
fn carve_parts(
    maze: &mut Maze,
    cells: &[CellId],
    algorithm: Algorithm,
    opts: &CarveOptions,
    rng: &mut dyn Random,
) -> Result<()> {
    let grid = maze.grid_arc().clone();
    let topology = grid.topology().clone();
    let mut mask = Mask::empty(&topology)?;
    for &c in cells {
        mask.set(grid.coord(c), true);
    }
    for part in mask.components(&topology) {
        if part.len() < 2 {
            continue;
        }
        let mut one = Mask::empty(&topology)?;
        for &c in &part {
            one.set(c, true);
        }
        let sub = std::sync::Arc::new(Grid::new(topology.clone(), Some(&one))?);
        let mut piece = Maze::new(sub.clone());
        carve(&mut piece, algorithm, rng, opts)?;
        for (a, b) in piece.passage_list() {
            let (Some(x), Some(y)) = (grid.id_at(sub.coord(a)), grid.id_at(sub.coord(b))) else {
                continue;
            };
            maze.link(x, y);
        }
    }
    Ok(())
}

/// Joins the pieces the region left (its carved parts and the rest of the maze, cut where it
/// met the region) with one passage each, from the walls with a cell in the region in a random
/// order: the maze is one tree again.
fn join(
    maze: &mut Maze,
    cells: &[CellId],
    closed: &HashSet<(CellId, CellId)>,
    rng: &mut dyn Random,
) -> Result<()> {
    let grid = maze.grid_arc().clone();
    let mut sets = Sets::new(grid.len());
    for c in grid.cells() {
        for n in maze.passages(c) {
            sets.union(c.index(), n.index());
        }
    }
    let mut walls = Vec::new();
    let mut seen = HashSet::new();
    for &c in cells {
        for &n in grid.neighbours(c).iter() {
            let key = (c.min(n), c.max(n));
            if !maze.linked(c, n) && !closed.contains(&key) && seen.insert(key) {
                walls.push(key);
            }
        }
    }
    crate::random::shuffle(rng, &mut walls);
    for (a, b) in walls {
        if sets.union(a.index(), b.index()) {
            maze.link(a, b);
        }
    }
    if !maze.is_connected() {
        return Err(Error::option(
            "recarve: the region cannot be joined to the rest of the maze (locked walls close it off)",
        ));
    }
    Ok(())
}

/// The locked walls of `locks` as pairs of the maze's cells (smaller id first), closed then
/// open; locks on cells not in the maze are left out.
pub fn locked_walls(grid: &Grid, locks: &Locks) -> Result<[HashSet<(CellId, CellId)>; 2]> {
    let mut out = [HashSet::new(), HashSet::new()];
    for (k, list) in [&locks.closed, &locks.open].into_iter().enumerate() {
        for w in list {
            if let Some((a, b)) = wall_cells(grid, w)? {
                out[k].insert((a.min(b), a.max(b)));
            }
        }
    }
    Ok(out)
}

/// Applies the locks to a perfect `maze`: every wall in `closed` stands and every passage in
/// `open` is open, and the maze is still perfect. An error when they cannot all hold: closed
/// walls that cut the maze in two, or open passages that make a loop.
pub fn lock(
    maze: &mut Maze,
    [closed, open]: &[HashSet<(CellId, CellId)>; 2],
    rng: &mut dyn Random,
) -> Result<()> {
    let mut closed_list: Vec<_> = closed.iter().copied().collect();
    closed_list.sort_unstable();
    for (a, b) in closed_list {
        if !maze.linked(a, b) {
            continue;
        }
        maze.unlink(a, b);
        let side = reach(maze, a);
        let grid = maze.grid_arc().clone();
        let mut border: Vec<(CellId, CellId)> = Vec::new();
        for c in grid.cells().filter(|c| side[c.index()]) {
            for &n in grid.neighbours(c).iter() {
                let key = (c.min(n), c.max(n));
                if !side[n.index()] && !closed.contains(&key) {
                    border.push(key);
                }
            }
        }
        if border.is_empty() {
            return Err(Error::option(format!(
                "lock: the walls locked closed cut the maze in two at {}",
                cell_name(grid.coord(a))
            )));
        }
        border.sort_unstable();
        let (x, y) = border[rng.below(border.len())];
        maze.link(x, y);
    }
    let mut open_list: Vec<_> = open.iter().copied().collect();
    open_list.sort_unstable();
    for (a, b) in open_list {
        if maze.linked(a, b) {
            continue;
        }
        let path = path_between(maze, a, b);
        let breakable: Vec<(CellId, CellId)> = path
            .windows(2)
            .map(|w| (w[0].min(w[1]), w[0].max(w[1])))
            .filter(|k| !open.contains(k))
            .collect();
        if breakable.is_empty() {
            return Err(Error::option(format!(
                "lock: the passages locked open make a loop at {}",
                cell_name(maze.grid().coord(a))
            )));
        }
        let (x, y) = breakable[rng.below(breakable.len())];
        maze.unlink(x, y);
        maze.link(a, b);
    }
    Ok(())
}

/// The cells joined to `from` by passages.
fn reach(maze: &Maze, from: CellId) -> Vec<bool> {
    let mut seen = vec![false; maze.len()];
    seen[from.index()] = true;
    let mut queue = VecDeque::from([from]);
    while let Some(c) = queue.pop_front() {
        for n in maze.passages(c) {
            if !seen[n.index()] {
                seen[n.index()] = true;
                queue.push_back(n);
            }
        }
    }
    seen
}

/// The cells along the passages from `a` to `b` (both included; the maze is a tree).
fn path_between(maze: &Maze, a: CellId, b: CellId) -> Vec<CellId> {
    let mut parent: Vec<Option<CellId>> = vec![None; maze.len()];
    let mut seen = vec![false; maze.len()];
    seen[a.index()] = true;
    let mut queue = VecDeque::from([a]);
    while let Some(c) = queue.pop_front() {
        if c == b {
            break;
        }
        for n in maze.passages(c) {
            if !seen[n.index()] {
                seen[n.index()] = true;
                parent[n.index()] = Some(c);
                queue.push_back(n);
            }
        }
    }
    let mut path = vec![b];
    let mut at = b;
    while let Some(p) = parent[at.index()] {
        path.push(p);
        at = p;
    }
    path
}

/// Disjoint sets over cell indices (union by size, path halving).
struct Sets {
    parent: Vec<usize>,
    size: Vec<usize>,
}

impl Sets {
    fn new(n: usize) -> Sets {
        Sets {
            parent: (0..n).collect(),
            size: vec![1; n],
        }
    }

    fn find(&mut self, mut x: usize) -> usize {
        while self.parent[x] != x {
            self.parent[x] = self.parent[self.parent[x]];
            x = self.parent[x];
        }
        x
    }

    /// Joins the sets of `a` and `b`; whether they were apart.
    fn union(&mut self, a: usize, b: usize) -> bool {
        let (mut x, mut y) = (self.find(a), self.find(b));
        if x == y {
            return false;
        }
        if self.size[x] < self.size[y] {
            std::mem::swap(&mut x, &mut y);
        }
        self.parent[y] = x;
        self.size[x] += self.size[y];
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::carve::CARVERS;
    use crate::design::{Design, Kind, Walls};
    use crate::pipeline::generate;
    use crate::topology::TopologyKind;

    fn design(kind: TopologyKind, algorithm: Algorithm, seed: u64) -> Design {
        Design {
            kind: Kind::Walls(Walls {
                topology: kind,
                algorithm,
                ..Walls::DEFAULT
            }),
            width: if kind == TopologyKind::Polar { 6 } else { 10 },
            height: 10,
            seed: Some(seed),
            ..Design::default()
        }
    }

    fn with(mut d: Design, f: impl FnOnce(&mut Walls)) -> Design {
        f(d.walls_mut().unwrap());
        d
    }

    fn passages(g: &crate::pipeline::Generated) -> Vec<(Coord, Coord)> {
        g.maze.passage_coords()
    }

    #[test]
    fn a_region_carved_again_changes_inside_only_and_the_maze_stays_perfect() {
        let region: Vec<[u32; 2]> = (2..5).flat_map(|r| (3..6).map(move |c| [r, c])).collect();
        let inside = |c: Coord| region.contains(&[c.row, c.col]);
        let mut changed = 0;
        let mut count = 0;
        for kind in TopologyKind::ALL {
            for carver in CARVERS.iter().filter(|c| c.topologies.contains(&kind)) {
                for seed in 1..4 {
                    let d = design(kind, carver.algorithm, seed);
                    let before = generate(&d, None).unwrap();
                    let again = with(d.clone(), |w| {
                        w.recarve = vec![Recarve {
                            seed: 77 + seed,
                            cells: region.clone(),
                        }]
                    });
                    let after = generate(&again, None).unwrap();
                    assert!(after.maze.is_perfect(), "{kind:?} {}", carver.name);
                    let outside = |p: &Vec<(Coord, Coord)>| -> Vec<(Coord, Coord)> {
                        p.iter()
                            .copied()
                            .filter(|(a, b)| !inside(*a) && !inside(*b))
                            .collect()
                    };
                    let (p, q) = (passages(&before), passages(&after));
                    assert_eq!(outside(&p), outside(&q), "{kind:?} {}", carver.name);
                    changed += usize::from(p != q);
                    count += 1;
                    // the same design makes the same maze
                    assert_eq!(passages(&generate(&again, None).unwrap()), q);
                }
            }
        }
        // a 3x3 region carved from another seed comes out differently nearly always
        assert!(changed * 10 >= count * 8, "{changed} of {count} changed");
    }

    #[test]
    fn locked_walls_hold_and_the_maze_stays_perfect_with_braid() {
        for kind in TopologyKind::ALL {
            for seed in 1..6 {
                let d = design(kind, Algorithm::Backtracker, seed);
                let g = generate(&d, None).unwrap();
                let grid = g.maze.grid();
                // lock closed a passage the carver made, lock open a wall it left
                let (a, b) = g.maze.passage_list()[seed as usize * 3];
                let (c, e) = grid
                    .cells()
                    .flat_map(|c| {
                        grid.neighbours(c)
                            .iter()
                            .map(move |&n| (c, n))
                            .collect::<Vec<_>>()
                    })
                    .filter(|&(c, n)| !g.maze.linked(c, n))
                    .nth(seed as usize * 5)
                    .unwrap();
                let (ca, cb, cc, ce) = (grid.coord(a), grid.coord(b), grid.coord(c), grid.coord(e));
                let mut locks = Locks::default();
                locks.set(ca, cb, Some(false));
                locks.set(cc, ce, Some(true));
                assert_eq!(locks.get(cb, ca), Some(false));
                assert_eq!(locks.get(ce, cc), Some(true));
                for braid in [0.0, 1.0] {
                    let locked = with(d.clone(), |w| {
                        w.lock = locks.clone();
                        w.braid = braid;
                    });
                    let h = generate(&locked, None).unwrap();
                    let id = |x: Coord| h.maze.grid().id_at(x).unwrap();
                    assert!(!h.maze.linked(id(ca), id(cb)), "{kind:?} {seed}");
                    assert!(h.maze.linked(id(cc), id(ce)), "{kind:?} {seed}");
                    if braid == 0.0 {
                        assert!(h.maze.is_perfect(), "{kind:?} {seed}");
                    } else {
                        assert!(h.maze.is_connected());
                    }
                }
            }
        }
    }

    #[test]
    fn locks_that_cannot_hold_say_why_in_one_line() {
        let d = design(TopologyKind::Rect, Algorithm::Kruskal, 3);
        // every wall of the corner cell locked closed: it is cut off
        let mut corner = Locks::default();
        corner.set(Coord::new(0, 0), Coord::new(0, 1), Some(false));
        corner.set(Coord::new(0, 0), Coord::new(1, 0), Some(false));
        let e = generate(&with(d.clone(), |w| w.lock = corner), None).unwrap_err();
        assert!(e.message.contains("cut the maze in two"), "{e}");
        // the four walls round a point locked open: a loop
        let mut ring = Locks::default();
        let c = |r, k| Coord::new(r, k);
        ring.set(c(0, 0), c(0, 1), Some(true));
        ring.set(c(0, 1), c(1, 1), Some(true));
        ring.set(c(1, 1), c(1, 0), Some(true));
        ring.set(c(1, 0), c(0, 0), Some(true));
        let e = generate(&with(d.clone(), |w| w.lock = ring), None).unwrap_err();
        assert!(e.message.contains("make a loop"), "{e}");
        // cells that are not neighbours, a wall locked both ways, weave
        let far = Locks {
            open: vec![[0, 0, 5, 5]],
            ..Locks::default()
        };
        let e = generate(&with(d.clone(), |w| w.lock = far), None).unwrap_err();
        assert!(e.message.contains("not neighbours"), "{e}");
        let both = Locks {
            open: vec![[0, 0, 0, 1]],
            closed: vec![[0, 1, 0, 0]],
        };
        let e = with(d.clone(), |w| w.lock = both).validate().unwrap_err();
        assert!(e.message.contains("both open and closed"), "{e}");
        let woven = with(d.clone(), |w| {
            w.weave = 0.5;
            w.recarve = vec![Recarve {
                seed: 1,
                cells: vec![[0, 0]],
            }];
        });
        assert!(woven.validate().unwrap_err().message.contains("weave"));
        assert!(!e.message.contains('\n'), "{e}");
    }

    #[test]
    fn locks_and_regions_round_trip_through_the_design_file() {
        let text = "width = 8\nheight = 8\nseed = 4\n\
                    lock = { open = [[1, 1, 1, 2]], closed = [[3, 3, 4, 3]] }\n\
                    [[recarve]]\nseed = 9\ncells = [[0, 0], [0, 1], [1, 0]]\n";
        let d = crate::io::parse_design(text).unwrap();
        assert_eq!(d.walls().lock.open, vec![[1, 1, 1, 2]]);
        assert_eq!(d.walls().lock.closed, vec![[3, 3, 4, 3]]);
        assert_eq!(d.walls().recarve[0].cells.len(), 3);
        let saved = crate::io::design_to_toml(&d);
        assert_eq!(crate::io::parse_design(&saved).unwrap(), d);
        // none: nothing in the file
        let plain = crate::io::design_to_toml(&Design::default());
        assert!(
            !plain.contains("lock") && !plain.contains("recarve"),
            "{plain}"
        );
        // the maze's JSON holds them too, so `--design maze.json` makes the same maze
        let g = generate(&d, None).unwrap();
        let json = String::from_utf8(crate::json::to_vec(&g)).unwrap();
        assert!(
            json.contains("\"lock\"") && json.contains("\"recarve\""),
            "{json}"
        );
    }

    #[test]
    fn locks_on_cells_outside_the_shape_are_left_out() {
        let d = design(TopologyKind::Rect, Algorithm::Backtracker, 2);
        let topology = crate::topology::Topology::new(TopologyKind::Rect, 10, 10).unwrap();
        let mut mask = Mask::full(&topology).unwrap();
        mask.set(Coord::new(0, 0), false);
        let mut locks = Locks::default();
        locks.set(Coord::new(0, 0), Coord::new(0, 1), Some(true));
        let locked = with(d, |w| {
            w.lock = locks;
            w.recarve = vec![Recarve {
                seed: 5,
                cells: vec![[0, 0]],
            }];
        });
        let g = generate(&locked, Some(&mask)).unwrap();
        assert!(g.maze.is_perfect());
    }
}
