//! Hand work on a carved maze: walls locked open or closed, and regions carved again with a
//! seed of their own. A design of walls keeps them ([`crate::design::Walls::lock`] and
//! [`crate::design::Walls::recarve`]; in a file, `lock = { open = [[r1, c1, r2, c2]], closed =
//! [...] }` and `[[recarve]]` tables), the editor makes them with the mouse, and the pipeline
//! applies them after the carver and before the braid, so every maze stays perfect:
//!
//! - **Re-carving** a region ([`recarve`]) takes down every passage with a cell in it, carves
//!   each of its connected parts with the design's carver from the region's seed (each on a
//!   grid of its own cells, [`Grid::part`]), then joins the pieces with one passage each, drawn
//!   in a random order from that seed (Kruskal's join). Passages with no cell in the region
//!   stay as they were.
//! - **Locks** ([`lock`]) are applied together: every wall locked closed that the carver opened
//!   is closed and every passage locked open that it left closed is opened; a loop that opens
//!   is broken at its passage of least rank that is not itself locked open, and pieces that the
//!   closed walls cut apart are joined again through their walls of least rank that are not
//!   locked closed. A wall's rank is a hash of the design's seed and the wall's two cells, so a
//!   lock changes the maze only where it has to: one wall locked closed reopens the two halves
//!   it splits at a random wall along their border, one passage locked open breaks its loop at
//!   a random passage along it, and neither moves what other locks did elsewhere.
//!
//! The work is bounded by the grid and the hand work, however many parts a region has and
//! however many locks there are: a region costs a pass over the maze and its parts their own
//! cells, and all the locks together a few passes over the maze and a sort of its passages.
//!
//! Locks and regions on cells that are not in the maze (outside the shape) are left out, as the
//! editor's mask edits are: the shape may change under them.

use std::collections::HashSet;

use serde::{Deserialize, Serialize};

use crate::carve::{Algorithm, CarveOptions, carve};
use crate::error::{Error, Result};
use crate::grid::{CellId, Grid};
use crate::maze::Maze;
use crate::random::{MazeRng, Random};
use crate::topology::Coord;

/// The most locks (open and closed together) a design may hold (all of them are applied
/// together, in a few passes over the maze: [`lock`]).
pub const MAX_LOCKS: usize = 2000;
/// The most regions a design may carve again.
pub const MAX_RECARVES: usize = 64;

/// Walls locked by hand, each as the two cells either side: `[row1, col1, row2, col2]` (ring
/// and index in the ring for polar), as in the maze's JSON.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Locks {
    /// Passages kept open whatever the carver does.
    #[serde(
        skip_serializing_if = "Vec::is_empty",
        deserialize_with = "exact_arrays"
    )]
    pub open: Vec<[u32; 4]>,
    /// Walls kept standing whatever the carver does.
    #[serde(
        skip_serializing_if = "Vec::is_empty",
        deserialize_with = "exact_arrays"
    )]
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
    #[serde(deserialize_with = "exact_arrays")]
    pub cells: Vec<[u32; 2]>,
}

/// Reads a list of arrays of `N` numbers (a locked wall's four, a cell's two), refusing an
/// array of any other length in one line, as JSON readers do and TOML readers do not (they
/// cut a longer one short).
fn exact_arrays<'de, D, const N: usize>(d: D) -> std::result::Result<Vec<[u32; N]>, D::Error>
where
    D: serde::Deserializer<'de>,
{
    let list: Vec<Exact<N>> = Vec::deserialize(d)?;
    Ok(list.into_iter().map(|e| e.0).collect())
}

/// An array of exactly `N` numbers ([`exact_arrays`]).
struct Exact<const N: usize>([u32; N]);

/// What an array of `n` numbers is in a file, and how it is written.
fn array_of(n: usize) -> &'static str {
    if n == 4 {
        "a locked wall is four numbers [row1, col1, row2, col2]"
    } else {
        "a cell is two numbers [row, col]"
    }
}

impl<'de, const N: usize> Deserialize<'de> for Exact<N> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        struct Numbers<const N: usize>;
        impl<'de, const N: usize> serde::de::Visitor<'de> for Numbers<N> {
            type Value = Exact<N>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str(array_of(N))
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(
                self,
                mut seq: A,
            ) -> std::result::Result<Exact<N>, A::Error> {
                let mut out = [0u32; N];
                let mut got = 0;
                while got < N {
                    match seq.next_element::<u32>()? {
                        Some(v) => out[got] = v,
                        None => break,
                    }
                    got += 1;
                }
                while seq.next_element::<serde::de::IgnoredAny>()?.is_some() {
                    got += 1;
                }
                if got != N {
                    return Err(serde::de::Error::custom(format!(
                        "{}, got {got} number{}",
                        array_of(N),
                        if got == 1 { "" } else { "s" }
                    )));
                }
                Ok(Exact(out))
            }
        }
        d.deserialize_seq(Numbers::<N>)
    }
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
    work::tally(grid.len());
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
    carve_parts(maze, &cells, &mut inside, algorithm, opts, &mut rng)?;
    join(maze, &cells, closed, &mut rng)
}

/// The connected parts of `cells` (those marked in `inside`, which is cleared), each in
/// increasing id order, the largest first and parts of one size in the order of their first
/// cell: a mask's parts ([`crate::mask::Mask::components`]) as the maze's cells.
fn parts(grid: &Grid, cells: &[CellId], inside: &mut [bool]) -> Vec<Vec<CellId>> {
    let mut sorted = cells.to_vec();
    sorted.sort_unstable();
    let mut parts = Vec::new();
    let mut stack = Vec::new();
    for &first in &sorted {
        if !inside[first.index()] {
            continue;
        }
        inside[first.index()] = false;
        stack.push(first);
        let mut part = Vec::new();
        while let Some(c) = stack.pop() {
            part.push(c);
            for n in grid.neighbours(c) {
                if inside[n.index()] {
                    inside[n.index()] = false;
                    stack.push(n);
                }
            }
        }
        work::tally(part.len());
        part.sort_unstable();
        parts.push(part);
    }
    parts.sort_by_key(|p| std::cmp::Reverse(p.len()));
    parts
}

/// Carves each connected part of `cells` (marked in `inside`, which is cleared) on a grid of its
/// own cells ([`Grid::part`]) and copies its passages in: the part costs its own cells, not the
/// maze's.
fn carve_parts(
    maze: &mut Maze,
    cells: &[CellId],
    inside: &mut [bool],
    algorithm: Algorithm,
    opts: &CarveOptions,
    rng: &mut dyn Random,
) -> Result<()> {
    let grid = maze.grid_arc().clone();
    for part in parts(&grid, cells, inside) {
        if part.len() < 2 {
            continue;
        }
        let sub = std::sync::Arc::new(grid.part(&part)?);
        work::tally(part.len() + sub.topology().tess().rows() as usize);
        let mut piece = Maze::new(sub);
        carve(&mut piece, algorithm, rng, opts)?;
        for (a, b) in piece.passage_list() {
            maze.link(part[a.index()], part[b.index()]);
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
    work::tally(2 * grid.len());
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

/// Applies the locks to a perfect `maze` (see the module documentation): every wall in `closed`
/// stands and every passage in `open` is open, and the maze is still perfect. The walls' ranks
/// come from `seed`. An error when they cannot all hold: closed walls that cut the maze in two,
/// or open passages that make a loop.
///
/// In Kruskal's terms: the passages locked open are taken first (a loop among them is the
/// error), then the maze's other passages, highest rank first (one that would close a loop is
/// the passage a lock breaks), then the walls not locked closed, lowest rank first (one that
/// joins two pieces is opened); the maze must be one piece at the end.
pub fn lock(
    maze: &mut Maze,
    [closed, open]: &[HashSet<(CellId, CellId)>; 2],
    seed: u64,
) -> Result<()> {
    let sorted = |set: &HashSet<(CellId, CellId)>| {
        let mut list: Vec<(CellId, CellId)> = set.iter().copied().collect();
        list.sort_unstable();
        list
    };
    let (closed_list, open_list) = (sorted(closed), sorted(open));
    let to_close: Vec<_> = closed_list
        .iter()
        .copied()
        .filter(|&(a, b)| maze.linked(a, b))
        .collect();
    let opens = open_list.iter().any(|&(a, b)| !maze.linked(a, b));
    if to_close.is_empty() && !opens {
        return Ok(());
    }
    let grid = maze.grid_arc().clone();
    let rank = |(a, b): (CellId, CellId)| wall_rank(seed, grid.coord(a), grid.coord(b));
    for &(a, b) in &to_close {
        maze.unlink(a, b);
    }
    let mut sets = Sets::new(grid.len());
    let mut pieces = grid.len();
    // the passages locked open, which must all hold
    for &(a, b) in &open_list {
        if !sets.union(a.index(), b.index()) {
            return Err(Error::option(format!(
                "lock: the passages locked open make a loop at {}",
                cell_name(grid.coord(a))
            )));
        }
        pieces -= 1;
        maze.link(a, b);
    }
    // the carver's passages, the highest rank first when a loop is to be broken
    work::tally(grid.len());
    let mut kept: Vec<(CellId, CellId)> = maze
        .passage_list()
        .into_iter()
        .filter(|w| !open.contains(w))
        .collect();
    if opens {
        work::tally(kept.len());
        let mut ranked: Vec<(u64, (CellId, CellId))> = kept.iter().map(|&w| (rank(w), w)).collect();
        ranked.sort_unstable_by(|x, y| y.cmp(x));
        kept = ranked.into_iter().map(|(_, w)| w).collect();
    }
    for (a, b) in kept {
        if sets.union(a.index(), b.index()) {
            pieces -= 1;
        } else {
            maze.unlink(a, b);
        }
    }
    if pieces > 1 {
        // the pieces joined again through the walls between them, the lowest rank first
        work::tally(grid.len());
        let mut walls: Vec<(u64, (CellId, CellId))> = Vec::new();
        for a in grid.cells() {
            for b in grid.neighbours(a) {
                let w = (a, b);
                if a < b && !closed.contains(&w) && sets.find(a.index()) != sets.find(b.index()) {
                    walls.push((rank(w), w));
                }
            }
        }
        work::tally(walls.len());
        walls.sort_unstable();
        for (_, (a, b)) in walls {
            if sets.union(a.index(), b.index()) {
                pieces -= 1;
                maze.link(a, b);
            }
        }
    }
    if pieces > 1 {
        let cut = closed_list
            .iter()
            .find(|&&(a, b)| sets.find(a.index()) != sets.find(b.index()))
            .or(closed_list.first())
            .map_or(CellId(0), |w| w.0);
        return Err(Error::option(format!(
            "lock: the walls locked closed cut the maze in two at {}",
            cell_name(grid.coord(cut))
        )));
    }
    Ok(())
}

/// The rank of the wall between `a` and `b` for the locks of a maze made from `seed`: a hash of
/// the three (splitmix64's mixer), the same whichever cell comes first.
fn wall_rank(seed: u64, a: Coord, b: Coord) -> u64 {
    let (a, b) = (a.min(b), a.max(b));
    let mix = |mut z: u64| {
        z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    };
    let first = u64::from(a.row) << 32 | u64::from(a.col);
    let second = u64::from(b.row) << 32 | u64::from(b.col);
    mix(mix(mix(seed) ^ first) ^ second)
}

/// A count of the cells and walls the hand work visits, for the tests that check it is bounded
/// by the grid and the hand work (whatever the number of parts or locks); nothing outside the
/// tests.
mod work {
    #[cfg(test)]
    thread_local! {
        static VISITED: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
    }

    /// Counts `n` cells or walls visited.
    #[inline]
    pub(super) fn tally(n: usize) {
        #[cfg(test)]
        VISITED.with(|v| v.set(v.get() + n));
        #[cfg(not(test))]
        let _ = n;
    }

    /// The count so far on this thread, and starts it again.
    #[cfg(test)]
    pub(super) fn take() -> usize {
        VISITED.with(|v| v.replace(0))
    }
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
        let mut mask = crate::mask::Mask::full(&topology).unwrap();
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

    /// The parts of a region carved as before [`Grid::part`]: a mask of the whole topology and a
    /// grid of it for each part (what made a region of many parts cost the grid once a part).
    fn carve_parts_on_masks(
        maze: &mut Maze,
        cells: &[CellId],
        algorithm: Algorithm,
        opts: &CarveOptions,
        rng: &mut dyn Random,
    ) {
        use crate::mask::Mask;
        let grid = maze.grid_arc().clone();
        let topology = grid.topology().clone();
        let mut mask = Mask::empty(&topology).unwrap();
        for &c in cells {
            mask.set(grid.coord(c), true);
        }
        for part in mask.components(&topology) {
            if part.len() < 2 {
                continue;
            }
            let mut one = Mask::empty(&topology).unwrap();
            for &c in &part {
                one.set(c, true);
            }
            let sub = std::sync::Arc::new(Grid::new(topology.clone(), Some(&one)).unwrap());
            let mut piece = Maze::new(sub.clone());
            carve(&mut piece, algorithm, rng, opts).unwrap();
            for (a, b) in piece.passage_list() {
                let (x, y) = (sub.coord(a), sub.coord(b));
                maze.link(grid.id_at(x).unwrap(), grid.id_at(y).unwrap());
            }
        }
    }

    /// Random cells of `grid`, about `share` of them (parts of every size, some touching the
    /// grid's edges, some not), in a random order.
    fn scattered(grid: &Grid, share: f64, rng: &mut MazeRng) -> Vec<CellId> {
        let mut cells: Vec<CellId> = grid.cells().filter(|_| rng.chance(share)).collect();
        crate::random::shuffle(rng, &mut cells);
        cells
    }

    #[test]
    fn parts_carved_on_grids_of_their_own_are_the_parts_carved_on_masks() {
        use crate::topology::Topology;
        let opts = CarveOptions::default();
        let mut compared = 0;
        for kind in TopologyKind::ALL {
            for carver in CARVERS.iter().filter(|c| c.topologies.contains(&kind)) {
                for (seed, (w, h)) in [(1, (9, 7)), (2, (12, 12)), (3, (5, 16)), (4, (1, 9))] {
                    let w = if kind == TopologyKind::Polar {
                        w.min(7)
                    } else {
                        w
                    };
                    let topology = Topology::new(kind, w, h).unwrap();
                    // a shaped grid (a cell in five switched off) and an unmasked one
                    for shaped in [false, true] {
                        let mut pick = MazeRng::new(seed * 31 + u64::from(shaped));
                        let grid = if shaped {
                            let full = crate::mask::Mask::full(&topology).unwrap();
                            let mut mask = full.clone();
                            for c in full.cells() {
                                if pick.below(5) == 0 {
                                    mask.set(c, false);
                                }
                            }
                            mask.keep_largest_component(&topology);
                            Grid::new(topology.clone(), Some(&mask)).unwrap()
                        } else {
                            Grid::new(topology.clone(), None).unwrap()
                        };
                        let grid = std::sync::Arc::new(grid);
                        for share in [0.3, 0.6, 0.9, 1.0] {
                            let cells = scattered(&grid, share, &mut pick);
                            let (mut old, mut new) =
                                (Maze::new(grid.clone()), Maze::new(grid.clone()));
                            let (mut r1, mut r2) = (MazeRng::new(seed), MazeRng::new(seed));
                            carve_parts_on_masks(
                                &mut old,
                                &cells,
                                carver.algorithm,
                                &opts,
                                &mut r1,
                            );
                            let mut inside = vec![false; grid.len()];
                            for &c in &cells {
                                inside[c.index()] = true;
                            }
                            carve_parts(
                                &mut new,
                                &cells,
                                &mut inside,
                                carver.algorithm,
                                &opts,
                                &mut r2,
                            )
                            .unwrap();
                            let what = format!("{kind:?} {} {w}x{h} {share}", carver.name);
                            assert_eq!(old.passage_list(), new.passage_list(), "{what}");
                            assert_eq!(r1.next_u32(), r2.next_u32(), "{what}: the same draws");
                            compared += 1;
                        }
                    }
                }
            }
        }
        assert!(compared > 200, "{compared}");
    }

    /// The walls of `g`'s maze the carver left standing and the passages it opened, as locks.
    fn walls_and_passages(g: &crate::pipeline::Generated) -> (Vec<[u32; 4]>, Vec<[u32; 4]>) {
        let grid = g.maze.grid();
        let as_lock = |a: CellId, b: CellId| {
            let (x, y) = (grid.coord(a), grid.coord(b));
            [x.row, x.col, y.row, y.col]
        };
        let mut walls = Vec::new();
        let mut passages = Vec::new();
        for a in grid.cells() {
            for b in grid.neighbours(a) {
                if a < b {
                    if g.maze.linked(a, b) {
                        passages.push(as_lock(a, b));
                    } else {
                        walls.push(as_lock(a, b));
                    }
                }
            }
        }
        (walls, passages)
    }

    #[test]
    fn a_lock_changes_the_maze_only_where_it_must() {
        let d = design(TopologyKind::Rect, Algorithm::Backtracker, 8);
        let d = Design {
            width: 30,
            height: 30,
            ..d
        };
        let g = generate(&d, None).unwrap();
        let (walls, passages) = walls_and_passages(&g);
        let base = passages_of(&g);
        // the passages a design's locks take away and add
        let changes = |locks: Locks| -> HashSet<(Coord, Coord)> {
            let h = generate(&with(d.clone(), |w| w.lock = locks), None).unwrap();
            assert!(h.maze.is_perfect());
            passages_of(&h)
                .symmetric_difference(&base)
                .copied()
                .collect()
        };
        let gone_and_new = |c: &HashSet<(Coord, Coord)>| {
            let gone = c.iter().filter(|p| base.contains(p)).count();
            (gone, c.len() - gone)
        };
        let mut apart = 0;
        for k in 0..10 {
            // one passage locked closed: it goes, one wall along the two halves' border opens
            let closed = Locks {
                closed: vec![passages[80 + 60 * k]],
                ..Locks::default()
            };
            let closed_alone = changes(closed.clone());
            assert_eq!(gone_and_new(&closed_alone), (1, 1));
            // one wall locked open: it opens, one passage along its loop goes
            let open = Locks {
                open: vec![walls[790 - 70 * k]],
                ..Locks::default()
            };
            let open_alone = changes(open.clone());
            assert_eq!(gone_and_new(&open_alone), (1, 1));
            // both: where neither touches the other's walls, each does what it did alone (a
            // lock does not move what another did; the random stream of the rest is not
            // shifted either)
            let together = changes(Locks {
                open: open.open,
                closed: closed.closed,
            });
            if closed_alone.is_disjoint(&open_alone) && gone_and_new(&together) == (2, 2) {
                let alone: HashSet<_> = closed_alone.union(&open_alone).copied().collect();
                assert_eq!(together, alone, "{k}");
                apart += 1;
            }
        }
        assert!(apart >= 8, "{apart} of 10 pairs of locks apart");
    }

    fn passages_of(g: &crate::pipeline::Generated) -> HashSet<(Coord, Coord)> {
        g.maze.passage_coords().into_iter().collect()
    }

    /// Hand work costs the grid and the hand work, whatever the number of parts or locks: the
    /// cells and walls visited are counted (the code before made a mask of the whole grid for
    /// each part of a region and walked the whole maze for each lock: 2,000 locks on 1000 x 1000
    /// took 39 s, a region of many parts minutes).
    #[test]
    fn hand_work_visits_a_bounded_number_of_cells_whatever_the_parts_and_locks() {
        let d = design(TopologyKind::Rect, Algorithm::Backtracker, 5);
        let (w, h) = (200u32, 400u32);
        let d = Design {
            width: w,
            height: h,
            ..d
        };
        let cells = (w * h) as usize;
        let g = generate(&d, None).unwrap();
        let (walls, passages) = walls_and_passages(&g);
        // 1,000 passages locked closed and 1,000 walls locked open, spread over the maze
        let step = |n: usize, of: usize| (0..n).map(move |i| i * of / n);
        let locks = Locks {
            closed: step(1000, passages.len()).map(|i| passages[i]).collect(),
            open: step(1000, walls.len()).map(|i| walls[i]).collect(),
        };
        // a region of 10,000 parts: pairs of cells side by side, a cell apart
        let mut region = Vec::new();
        for r in (0..h).step_by(2) {
            for c in (0..w - 1).step_by(4) {
                region.push([r, c]);
                region.push([r, c + 1]);
            }
        }
        let parts = region.len() / 2;
        assert_eq!(parts, 10_000);
        let shaped = with(d.clone(), |wk| {
            wk.lock = Locks::default();
            wk.recarve = vec![Recarve {
                seed: 3,
                cells: region.clone(),
            }];
        });
        work::take();
        let made = generate(&shaped, None).unwrap();
        assert!(made.maze.is_perfect());
        let region_work = work::take();
        // the locks alone
        let locked = with(d.clone(), |wk| wk.lock = locks.clone());
        let locked_made = generate(&locked, None).unwrap();
        let lock_work = work::take();
        assert!(locked_made.maze.is_perfect());
        // a region: a few passes over the maze, and each part its own cells (and rows)
        assert!(
            region_work <= 4 * cells + 8 * region.len(),
            "{region_work} cells visited for a region of {parts} parts on {cells} cells"
        );
        // the locks: a few passes over the maze and its passages, not one a lock
        assert!(
            lock_work <= 6 * cells,
            "{lock_work} cells visited for 2,000 locks on {cells} cells"
        );
    }
}
