//! "Picture revealed by the path" puzzles: a maze whose solution, shaded on the answer key,
//! draws a picture.
//!
//! [`carve`] takes the maze's grid and the picture's cells on it (the picture fitted to the
//! same grid exactly as a `shape` is: [`crate::make::Prepared::reveal_mask`]) and builds the
//! solution first: a simple path from an entrance in the outer wall near the picture to an
//! exit near it, first the cheapest way through the picture, then grown into it, a step at a
//! time replaced at random by a detour through one or two picture cells beside it, until no
//! step can take one (the path fills the picture as a space-filling curve would, and its ends
//! stay put). Several tries are made and the one whose cells best match the picture
//! (intersection over union) is kept.
//! The rest of the maze is then grown from the path as a spanning tree (a growing tree,
//! newest or random cell in turn), never joining two cells of the path by a new passage: the
//! maze stays perfect and its solution is exactly the path, with dead ends branching off it
//! everywhere, into the picture's area too. Everything is drawn from the maze's random
//! stream. Nothing here reads a file.

use std::collections::VecDeque;

use crate::endpoints::{Endpoint, outline_openings};
use crate::error::{Error, Result};
use crate::grid::{CellId, Grid};
use crate::mask::Mask;
use crate::maze::Maze;
use crate::random::{Random, shuffle};

/// The fewest cells the picture must cover on the maze's grid: fewer, and no picture shows.
pub const MIN_CELLS: usize = 12;

/// The largest share of the maze's cells the picture may cover: more, and the path through it
/// leaves too little maze around it to hide it.
pub const MAX_SHARE: f64 = 0.8;

/// How many walks are tried; the best match is kept.
const TRIES: usize = 12;

/// The chance a cell of the path starts a branch before the rest is grown ([`grow`]).
const BRANCH: f64 = 0.35;

/// The chance the growing tree around the path extends its newest cell rather than a random
/// one: long corridors like the path's, with dead ends of every length.
const NEWEST: f64 = 0.75;

/// The knobs a picture maze is checked against ([`check`]).
#[derive(Clone, Copy, Debug)]
pub struct Knobs {
    /// Whether the design weaves.
    pub weave: bool,
    /// Whether the design braids.
    pub braid: bool,
    /// How many entrances.
    pub starts: u32,
    /// Whether the entrance and exit are placed by the design (not `auto`).
    pub placed: bool,
    /// Whether the design has hand work (locked walls, regions carved again).
    pub hand: bool,
}

/// Checks the knobs beside `reveal`, one line each: the path is the maze's only way through,
/// so no loops (braid) and no bridges (weave); one entrance; the entrance and exit are where
/// the path needs them; no hand work, which would cut or join the path.
pub fn check(k: Knobs) -> Result<()> {
    let clash = if k.weave {
        "weave (a bridge over the path would hide the picture's cells): set weave to 0"
    } else if k.braid {
        "braid (a loop would give a way round the picture): set braid to 0"
    } else if k.starts > 1 {
        "a \"Which path?\" puzzle (starts above 1): the picture is one path's"
    } else if k.placed {
        "a chosen entrance or exit (the path through the picture places them): use auto"
    } else if k.hand {
        "locked walls or re-carved regions (they would cut or join the path)"
    } else {
        return Ok(());
    };
    Err(Error::option(format!("reveal does not work with {clash}")))
}

/// The picture's cells among the active cells of `grid` (`picture` is a mask of the grid's
/// topology), refused in one line when too few or too many for a picture maze.
pub fn cells(grid: &Grid, picture: &Mask) -> Result<Vec<bool>> {
    if !picture.fits(grid.topology()) {
        return Err(Error::input(
            "reveal: the picture was fitted to a different grid size",
        ));
    }
    let on: Vec<bool> = grid.cells().map(|c| picture.get(grid.coord(c))).collect();
    let n = on.iter().filter(|&&b| b).count();
    if n < MIN_CELLS {
        return Err(Error::empty(format!(
            "reveal: the picture covers {n} cell{} of the maze (at least {MIN_CELLS} are \
             needed to show it); use a larger width",
            if n == 1 { "" } else { "s" }
        )));
    }
    let share = n as f64 / grid.len().max(1) as f64;
    if share > MAX_SHARE {
        return Err(Error::option(format!(
            "reveal: the picture covers {:.0} % of the maze (at most {:.0} %: the maze \
             around the path must hide it); give the maze a shape larger than the picture",
            share * 100.0,
            MAX_SHARE * 100.0
        )));
    }
    Ok(on)
}

/// A picture maze's solution as [`carve`] built it.
#[derive(Clone, Debug, PartialEq)]
pub struct Revealed {
    /// The entrance (the path's first cell) and its opening.
    pub entrance: Endpoint,
    /// The exit (the path's last cell) and its opening.
    pub exit: Endpoint,
    /// The path from entrance to exit: the maze's solution.
    pub path: Vec<CellId>,
    /// The path's cells against the picture's: intersection over union.
    pub iou: f64,
}

/// The name a picture maze's summary gives its carver.
pub const NAME: &str = "picture path";

/// How well a solution draws the picture.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Match {
    /// The picture's cells in the maze.
    pub picture_cells: usize,
    /// The solution's cells.
    pub path_cells: usize,
    /// The solution's cells on the picture.
    pub inside: usize,
    /// Intersection over union: `inside / (picture_cells + path_cells - inside)`.
    pub iou: f64,
}

impl Match {
    /// How `path` matches the picture's cells (`picture[c]`).
    pub fn of(path: &[CellId], picture: &[bool]) -> Match {
        Match {
            picture_cells: picture.iter().filter(|&&b| b).count(),
            path_cells: path.len(),
            inside: path.iter().filter(|c| picture[c.index()]).count(),
            iou: iou(path, picture),
        }
    }
}

/// Intersection over union of `path`'s cells and the picture's (`picture[c]`).
pub fn iou(path: &[CellId], picture: &[bool]) -> f64 {
    let inside = path.iter().filter(|c| picture[c.index()]).count();
    let total = picture.iter().filter(|&&b| b).count();
    let union = total + path.len() - inside;
    if union == 0 {
        0.0
    } else {
        inside as f64 / union as f64
    }
}

/// Carves `maze` (no passages yet) as a picture maze for `picture` (from [`cells`]): the path
/// through the picture, then the rest grown from it. Returns the path and its openings.
pub fn carve(maze: &mut Maze, picture: &[bool], rng: &mut dyn Random) -> Result<Revealed> {
    let grid = maze.grid_arc().clone();
    let doors = outline_openings(&grid);
    if doors.len() < 2 {
        return Err(Error::empty(
            "reveal: the maze has fewer than two cells on its outline for an entrance and exit",
        ));
    }
    let mut best: Option<Revealed> = None;
    for _ in 0..TRIES {
        let Some(r) = attempt(&grid, picture, &doors, rng) else {
            continue;
        };
        if best.as_ref().is_none_or(|b| r.iou > b.iou) {
            best = Some(r);
        }
    }
    let best = best.ok_or_else(|| {
        Error::empty("reveal: no path through the picture joins two openings of the maze")
    })?;
    for w in best.path.windows(2) {
        maze.link(w[0], w[1]);
    }
    grow(maze, &best.path, rng);
    Ok(best)
}

/// One try: an entrance near the picture and an exit near it far from the entrance, the
/// cheapest way between them through the picture, then that way grown into the picture's
/// cells left beside it ([`fill`]).
fn attempt(
    grid: &Grid,
    picture: &[bool],
    doors: &[Endpoint],
    rng: &mut dyn Random,
) -> Option<Revealed> {
    let pic: Vec<CellId> = grid.cells().filter(|c| picture[c.index()]).collect();
    let near = distances_from(grid, &pic);
    // the entrance: one of the few openings nearest the picture, at random
    let mut order: Vec<usize> = (0..doors.len()).collect();
    shuffle(rng, &mut order);
    order.sort_by_key(|&i| near[doors[i].cell.index()]);
    let entrance = doors[order[rng.below(order.len().min(4))]];
    // the exit: of the openings about as near the picture, one of the few farthest from the
    // entrance
    let from = distances_from(grid, &[entrance.cell]);
    let closest = near[doors[order[0]].cell.index()];
    let mut exits: Vec<usize> = order
        .iter()
        .copied()
        .filter(|&i| doors[i].cell != entrance.cell && near[doors[i].cell.index()] <= closest + 2)
        .collect();
    exits.sort_by_key(|&i| std::cmp::Reverse(from[doors[i].cell.index()]));
    let exit = doors[*exits.get(rng.below(exits.len().clamp(1, 3)))?];
    // each cell's step costs a little more or less at random: a way that wanders, so the
    // detours grown on it run every way, not in long rows beside a straight line
    let weight: Vec<u32> = grid
        .cells()
        .map(|c| {
            let w = 2 + rng.below(5) as u32;
            if picture[c.index()] {
                w
            } else {
                OFF_PICTURE * w
            }
        })
        .collect();
    let way = cheapest(grid, &weight, entrance.cell, exit.cell)?;
    let path = pockets(grid, fill(grid, picture, way, rng), rng);
    Some(Revealed {
        entrance,
        exit,
        iou: iou(&path, picture),
        path,
    })
}

/// The chance a detour of the grown path that could be pulled back out is ([`pockets`]).
const POCKETS: f64 = 0.12;

/// `path` with some of its detours pulled back out at random: where it runs `a, c, b` or
/// `a, c, d, b` with `a` beside `b`, the step `a, b` instead (each [`POCKETS`] of the time,
/// never beside a pocket already made). The cells left out are pockets of the picture off
/// the path, which become dead ends inside it, so the picture is not one long corridor on
/// the puzzle page.
fn pockets(grid: &Grid, path: Vec<CellId>, rng: &mut dyn Random) -> Vec<CellId> {
    let mut out = vec![false; grid.len()];
    let mut keep = vec![true; path.len()];
    let beside_pocket =
        |c: CellId, out: &[bool]| grid.neighbours(c).into_iter().any(|n| out[n.index()]);
    let mut i = 0;
    while i + 2 < path.len() {
        let span = if i + 3 < path.len() && grid.slot_of(path[i], path[i + 3]).is_some() {
            3
        } else if grid.slot_of(path[i], path[i + 2]).is_some() {
            2
        } else {
            0
        };
        let loose = &path[i + 1..i + span.max(1)];
        if span == 0 || loose.iter().any(|&c| beside_pocket(c, &out)) || !rng.chance(POCKETS) {
            i += 1;
            continue;
        }
        for k in i + 1..i + span {
            keep[k] = false;
            out[path[k].index()] = true;
        }
        i += span;
    }
    path.into_iter()
        .zip(keep)
        .filter_map(|(c, k)| k.then_some(c))
        .collect()
}

/// Every detour from `a` to `b` (`ends`) through up to `longest` cells that `free` allows,
/// found depth first from `a` (`way` the cells so far), into `out`: each the cells between.
fn detour(
    grid: &Grid,
    ends: (CellId, CellId),
    free: &dyn Fn(CellId) -> bool,
    longest: usize,
    way: &mut Vec<CellId>,
    out: &mut Vec<Vec<CellId>>,
) {
    let (a, b) = ends;
    let at = way.last().copied().unwrap_or(a);
    for c in grid.neighbours(at) {
        if !free(c) || way.contains(&c) {
            continue;
        }
        way.push(c);
        if grid.slot_of(c, b).is_some() {
            out.push(way.clone());
        }
        if way.len() < longest {
            detour(grid, ends, free, longest, way, out);
        }
        way.pop();
    }
}

/// How much more a step onto a cell off the picture costs than one onto the picture.
const OFF_PICTURE: u32 = 8;

/// The cheapest way from `a` to `b` (both included), a step onto cell `c` costing
/// `weight[c]`.
fn cheapest(grid: &Grid, weight: &[u32], a: CellId, b: CellId) -> Option<Vec<CellId>> {
    use std::cmp::Reverse;
    use std::collections::BinaryHeap;
    let mut cost = vec![u32::MAX; grid.len()];
    let mut prev = vec![u32::MAX; grid.len()];
    let mut heap = BinaryHeap::new();
    cost[a.index()] = 0;
    heap.push(Reverse((0u32, a.0)));
    while let Some(Reverse((k, c))) = heap.pop() {
        let c = CellId(c);
        if k > cost[c.index()] {
            continue;
        }
        if c == b {
            break;
        }
        for n in grid.neighbours(c) {
            let step = weight[n.index()];
            if k + step < cost[n.index()] {
                cost[n.index()] = k + step;
                prev[n.index()] = c.0;
                heap.push(Reverse((k + step, n.0)));
            }
        }
    }
    if cost[b.index()] == u32::MAX {
        return None;
    }
    let mut way = vec![b];
    let mut at = b;
    while at != a {
        at = CellId(prev[at.index()]);
        way.push(at);
    }
    way.reverse();
    Some(way)
}

/// `way` grown into the picture: a step from `a` to `b` is replaced, at random, by a detour
/// `a, c, b` (a cell of the picture off the path beside both) or `a, c, d, b` (two side by
/// side, beside `a` and `b`), until no step can take one. The ends stay; the path stays
/// simple, and gains cells of the picture only.
fn fill(grid: &Grid, picture: &[bool], way: Vec<CellId>, rng: &mut dyn Random) -> Vec<CellId> {
    const NONE: u32 = u32::MAX;
    let mut next = vec![NONE; grid.len()];
    let mut on = vec![false; grid.len()];
    for w in way.windows(2) {
        next[w[0].index()] = w[1].0;
    }
    for &c in &way {
        on[c.index()] = true;
    }
    let free = |c: CellId, on: &[bool]| picture[c.index()] && !on[c.index()];
    // the steps still to try, each once: a step that cannot take a detour never can again
    // (cells only join the path)
    let mut steps: Vec<CellId> = way[..way.len() - 1].to_vec();
    // a detour of one or two cells closes a triangle (hex) or a square (rect, polar); a tri
    // grid's shortest round is six cells, a detour of four
    let longest = if grid.topology().kind() == crate::topology::TopologyKind::Tri {
        4
    } else {
        2
    };
    while !steps.is_empty() {
        let a = steps.swap_remove(rng.below(steps.len()));
        let b = CellId(next[a.index()]);
        let mut detours: Vec<Vec<CellId>> = Vec::new();
        let mut trail = Vec::new();
        detour(
            grid,
            (a, b),
            &|c| free(c, &on),
            longest,
            &mut trail,
            &mut detours,
        );
        if detours.is_empty() {
            continue;
        }
        let cells = &detours[rng.below(detours.len())];
        let mut at = a;
        for &c in cells {
            next[at.index()] = c.0;
            on[c.index()] = true;
            steps.push(at);
            at = c;
        }
        next[at.index()] = b.0;
        steps.push(at);
    }
    let mut path = vec![way[0]];
    let end = *way.last().expect("a way has cells");
    while *path.last().expect("the path has cells") != end {
        path.push(CellId(
            next[path.last().expect("the path has cells").index()],
        ));
    }
    path
}

/// Breadth-first steps from `from` to every cell of `grid` (`u32::MAX` where none leads).
fn distances_from(grid: &Grid, from: &[CellId]) -> Vec<u32> {
    distances_through(grid, from, &vec![false; grid.len()])
}

/// Breadth-first steps from `from` to every cell of `grid` not `blocked`.
fn distances_through(grid: &Grid, from: &[CellId], blocked: &[bool]) -> Vec<u32> {
    let mut dist = vec![u32::MAX; grid.len()];
    let mut queue = VecDeque::new();
    for &f in from {
        if !blocked[f.index()] && dist[f.index()] == u32::MAX {
            dist[f.index()] = 0;
            queue.push_back(f);
        }
    }
    while let Some(c) = queue.pop_front() {
        for n in grid.neighbours(c) {
            if !blocked[n.index()] && dist[n.index()] == u32::MAX {
                dist[n.index()] = dist[c.index()] + 1;
                queue.push_back(n);
            }
        }
    }
    dist
}

/// Grows the rest of the maze from `path` (its cells already joined in order) as a growing
/// tree: every other cell joins by one passage to a cell already in, so the maze is perfect
/// and no new passage joins two cells of the path.
fn grow(maze: &mut Maze, path: &[CellId], rng: &mut dyn Random) {
    let grid = maze.grid_arc().clone();
    let mut inside = vec![false; grid.len()];
    let mut active: Vec<CellId> = path.to_vec();
    for &c in path {
        inside[c.index()] = true;
    }
    shuffle(rng, &mut active);
    // a branch started off many of the path's cells first: the way has choices all along it
    for k in 0..active.len() {
        let c = active[k];
        if !rng.chance(BRANCH) {
            continue;
        }
        let out: Vec<CellId> = grid
            .neighbours(c)
            .into_iter()
            .filter(|n| !inside[n.index()])
            .collect();
        if let Some(&n) = out.get(rng.below(out.len().max(1))) {
            maze.link(c, n);
            inside[n.index()] = true;
            active.push(n);
        }
    }
    while !active.is_empty() {
        let i = if rng.chance(NEWEST) {
            active.len() - 1
        } else {
            rng.below(active.len())
        };
        let c = active[i];
        let out: Vec<CellId> = grid
            .neighbours(c)
            .into_iter()
            .filter(|n| !inside[n.index()])
            .collect();
        if out.is_empty() {
            active.swap_remove(i);
            continue;
        }
        let n = out[rng.below(out.len())];
        maze.link(c, n);
        inside[n.index()] = true;
        active.push(n);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::random::MazeRng;
    use crate::topology::{Topology, TopologyKind};
    use std::sync::Arc;

    /// A disc of radius `r` cells in the middle of a `size` x `size` rect grid.
    fn disc(size: u32, r: f64) -> (Arc<Grid>, Vec<bool>) {
        let t = Topology::new(TopologyKind::Rect, size, size).unwrap();
        let grid = Arc::new(Grid::new(t.clone(), None).unwrap());
        let mut m = Mask::empty(&t).unwrap();
        let mid = f64::from(size) / 2.0 - 0.5;
        for c in grid.cells() {
            let k = grid.coord(c);
            if (f64::from(k.row) - mid).hypot(f64::from(k.col) - mid) <= r {
                m.set(k, true);
            }
        }
        let on = cells(&grid, &m).unwrap();
        (grid, on)
    }

    #[test]
    fn the_path_fills_a_disc_and_the_maze_is_perfect_with_it_as_solution() {
        let (grid, on) = disc(30, 10.0);
        for seed in 0..4 {
            let mut maze = Maze::new(grid.clone());
            let r = carve(&mut maze, &on, &mut MazeRng::new(seed)).unwrap();
            assert!(maze.is_perfect(), "seed {seed}");
            assert_eq!(maze.passage_count(), grid.len() - 1);
            let solution =
                crate::solve::shortest_path(&maze, r.entrance.cell, r.exit.cell).unwrap();
            assert_eq!(solution, r.path, "seed {seed}");
            assert!(r.iou >= 0.6, "seed {seed}: iou {}", r.iou);
            assert!((iou(&r.path, &on) - r.iou).abs() < 1e-12);
        }
    }

    #[test]
    fn too_few_or_too_many_picture_cells_are_refused_in_one_line() {
        let t = Topology::new(TopologyKind::Rect, 10, 10).unwrap();
        let grid = Grid::new(t.clone(), None).unwrap();
        let mut m = Mask::empty(&t).unwrap();
        m.set(crate::topology::Coord::new(2, 2), true);
        let e = cells(&grid, &m).unwrap_err();
        assert!(e.message.contains("covers 1 cell of the maze"), "{e}");
        let e = cells(&grid, &Mask::full(&t).unwrap()).unwrap_err();
        assert!(e.message.contains("covers 100 % of the maze"), "{e}");
        assert!(!e.message.contains('\n'));
    }
}
