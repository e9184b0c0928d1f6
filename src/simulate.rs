//! Simulated solvers, to check the difficulty model ([`crate::metrics`]) against something that
//! solves: a pencil solver and a wall follower. Both count steps (moves from a cell to the next,
//! steps back included) from the entrance cell to the exit cell.
//!
//! - [`pencil`]: walks depth-first, marking where it has been; at each cell it takes one of the
//!   passages it has not walked at random, except a side branch it can see at a glance to end
//!   within `look` cells (every cell beyond the passage within `look` steps, none of them the exit,
//!   none leading on); with no way left it steps back. [`pencil_effort`] averages many runs.
//! - [`wall_follower`]: keeps one hand on the wall (turns the sharpest way to one side first).
//!
//! Both are deterministic: the pencil solver draws from a [`MazeRng`] seeded by the caller.

use crate::grid::CellId;
use crate::maze::Maze;
use crate::random::{MazeRng, Random};

/// Whether the part of the maze reached from `c` through `n` (not back through `c`, nor through
/// cells already walked) ends within `look` steps of `c` without reaching `exit`.
fn dismissed(maze: &Maze, c: CellId, n: CellId, exit: CellId, look: u32, walked: &[bool]) -> bool {
    if look == 0 {
        return false;
    }
    // depth-first within the look-ahead; (cell, came from, depth from c)
    let mut stack = vec![(n, c, 1u32)];
    while let Some((x, from, d)) = stack.pop() {
        if x == exit {
            return false;
        }
        for y in maze.passages(x) {
            if y == from || y == c || walked[y.index()] {
                continue;
            }
            if d >= look {
                return false; // the way goes on past the look-ahead
            }
            stack.push((y, x, d + 1));
        }
        if stack.len() > 64 {
            return false; // too much to take in at a glance
        }
    }
    true
}

/// One run of the pencil solver from `entrance` to `exit`: the steps it walks (see the module
/// documentation). Stops (with the steps so far) if the exit cannot be reached.
pub fn pencil(maze: &Maze, entrance: CellId, exit: CellId, look: u32, rng: &mut dyn Random) -> u64 {
    let mut walked = vec![false; maze.len()];
    let mut stack = vec![entrance];
    walked[entrance.index()] = true;
    let mut steps = 0u64;
    let mut options: Vec<CellId> = Vec::new();
    while let Some(&c) = stack.last() {
        if c == exit {
            break;
        }
        options.clear();
        options.extend(maze.passages(c).filter(|n| !walked[n.index()]));
        options.retain(|&n| !dismissed(maze, c, n, exit, look, &walked));
        if options.is_empty() {
            stack.pop();
            if !stack.is_empty() {
                steps += 1;
            }
            continue;
        }
        let n = options[rng.below(options.len())];
        walked[n.index()] = true;
        stack.push(n);
        steps += 1;
    }
    steps
}

/// The pencil solver's mean steps over `runs` runs (look-ahead `look`), the runs' generator
/// seeded with `seed`.
pub fn pencil_effort(
    maze: &Maze,
    entrance: CellId,
    exit: CellId,
    look: u32,
    runs: u32,
    seed: u64,
) -> f64 {
    let mut rng = MazeRng::new(seed);
    let total: u64 = (0..runs.max(1))
        .map(|_| pencil(maze, entrance, exit, look, &mut rng))
        .sum();
    total as f64 / f64::from(runs.max(1))
}

/// The steps a wall follower walks from `entrance` to `exit`, keeping a hand on the wall: at
/// each cell it takes the passage turning most sharply to one side from the way it came (a dead
/// end turns it round). It starts at the entrance facing the grid's middle. `None` if it walks
/// more than four times round every passage without reaching the exit.
pub fn wall_follower(maze: &Maze, entrance: CellId, exit: CellId) -> Option<u64> {
    let g = maze.grid();
    if maze.is_empty() {
        return None;
    }
    // the direction into the maze at the entrance: from the entrance towards the middle
    let (mut mx, mut my) = (0.0, 0.0);
    for c in g.cells() {
        let p = g.center(c);
        mx += p.x;
        my += p.y;
    }
    let k = g.len() as f64;
    let e = g.center(entrance);
    let (mut hx, mut hy) = (mx / k - e.x, my / k - e.y);
    if hx == 0.0 && hy == 0.0 {
        hx = 1.0;
    }
    let limit = 4 * (maze.passage_count() as u64 + 1) + 4;
    let (mut c, mut steps) = (entrance, 0u64);
    while c != exit {
        if steps > limit {
            return None;
        }
        let here = g.center(c);
        // the passage with the largest clockwise turn from the heading (y grows downwards, so
        // a positive cross product turns right on the page); straight back comes last
        let next = maze.passages(c).max_by(|&a, &b| {
            let turn = |n: CellId| {
                let p = g.center(n);
                let (dx, dy) = (p.x - here.x, p.y - here.y);
                let ang = (hx * dy - hy * dx).atan2(hx * dx + hy * dy);
                // straight back (pi or -pi) is the last choice
                if ang.abs() >= std::f64::consts::PI - 1e-6 {
                    -std::f64::consts::PI - 1.0
                } else {
                    ang
                }
            };
            turn(a).total_cmp(&turn(b))
        })?;
        let p = g.center(next);
        (hx, hy) = (p.x - here.x, p.y - here.y);
        c = next;
        steps += 1;
    }
    Some(steps)
}

/// Spearman's rank correlation of `a` and `b` (ties share their mean rank); 0 for fewer than two
/// pairs or a constant side.
pub fn spearman(a: &[f64], b: &[f64]) -> f64 {
    fn ranks(v: &[f64]) -> Vec<f64> {
        let mut idx: Vec<usize> = (0..v.len()).collect();
        idx.sort_by(|&i, &j| v[i].total_cmp(&v[j]));
        let mut r = vec![0.0; v.len()];
        let mut i = 0;
        while i < idx.len() {
            let mut j = i;
            while j + 1 < idx.len() && v[idx[j + 1]] == v[idx[i]] {
                j += 1;
            }
            let mean = (i + j) as f64 / 2.0 + 1.0;
            for &k in &idx[i..=j] {
                r[k] = mean;
            }
            i = j + 1;
        }
        r
    }
    let n = a.len().min(b.len());
    if n < 2 {
        return 0.0;
    }
    let (ra, rb) = (ranks(&a[..n]), ranks(&b[..n]));
    let mean = (n as f64 + 1.0) / 2.0;
    let (mut sab, mut saa, mut sbb) = (0.0, 0.0, 0.0);
    for i in 0..n {
        let (x, y) = (ra[i] - mean, rb[i] - mean);
        sab += x * y;
        saa += x * x;
        sbb += y * y;
    }
    if saa == 0.0 || sbb == 0.0 {
        0.0
    } else {
        sab / (saa * sbb).sqrt()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Grid;
    use crate::topology::{Coord, Topology, TopologyKind};
    use std::sync::Arc;

    /// The 3x3 maze of the metrics test: path along the top row, one long branch from (0,0).
    fn maze() -> (Maze, impl Fn(u32, u32) -> CellId) {
        let g =
            Arc::new(Grid::new(Topology::new(TopologyKind::Rect, 3, 3).unwrap(), None).unwrap());
        let g2 = g.clone();
        let id = move |r, c| g2.id_at(Coord::new(r, c)).unwrap();
        let mut m = Maze::new(g);
        for (a, b) in [
            ((0, 0), (0, 1)),
            ((0, 1), (0, 2)),
            ((0, 0), (1, 0)),
            ((1, 0), (2, 0)),
            ((2, 0), (2, 1)),
            ((2, 1), (2, 2)),
            ((2, 1), (1, 1)),
            ((1, 1), (1, 2)),
        ] {
            m.link(id(a.0, a.1), id(b.0, b.1));
        }
        (m, id)
    }

    #[test]
    fn the_pencil_solver_dismisses_short_branches_and_averages_to_the_model() {
        let (m, id) = maze();
        let (s, e) = (id(0, 0), id(0, 2));
        // with the look-ahead the branch costs 4 steps when taken; taken half the time
        let mean = pencil_effort(&m, s, e, 3, 4000, 1);
        assert!((mean - 4.0).abs() < 0.15, "{mean}");
        // without it, the whole branch (6 cells, 12 steps) half the time
        let blind = pencil_effort(&m, s, e, 0, 4000, 1);
        assert!((blind - 8.0).abs() < 0.3, "{blind}");
        // the same seed, the same walk
        assert_eq!(
            pencil_effort(&m, s, e, 3, 10, 9),
            pencil_effort(&m, s, e, 3, 10, 9)
        );
    }

    #[test]
    fn the_wall_follower_reaches_the_exit() {
        let (m, id) = maze();
        let steps = wall_follower(&m, id(0, 0), id(0, 2)).unwrap();
        // either straight along the top (2) or round the whole branch first (2 + 12)
        assert!(steps == 2 || steps == 14, "{steps}");
        assert_eq!(wall_follower(&m, id(0, 0), id(0, 0)), Some(0));
    }

    #[test]
    fn spearman_ranks() {
        assert!((spearman(&[1.0, 2.0, 3.0], &[10.0, 20.0, 30.0]) - 1.0).abs() < 1e-12);
        assert!((spearman(&[1.0, 2.0, 3.0], &[3.0, 2.0, 1.0]) + 1.0).abs() < 1e-12);
        assert!((spearman(&[1.0, 2.0, 3.0, 4.0], &[1.0, 4.0, 9.0, 100.0]) - 1.0).abs() < 1e-12);
        assert_eq!(spearman(&[1.0, 1.0], &[1.0, 2.0]), 0.0);
    }
}
