//! Recursive backtracker: randomised depth-first search, run with an explicit stack.
//!
//! Start at a random cell; repeatedly step from the cell on top of the stack to a random unvisited
//! neighbour (linking them and pushing it), and pop when the top has none. The stack lives on the
//! heap, so a 3000x3000 grid cannot overflow the call stack. Texture: long winding corridors,
//! about 10 % dead ends on a square grid (Walter Pullen's table in *Think Labyrinth*).

use crate::carve::CarveOptions;
use crate::carve::scratch::{CellSet, LatticeBoard};
use crate::grid::{CellId, MAX_DEGREE};
use crate::maze::Maze;
use crate::random::Random;
use crate::topology::Lattice;

/// Carves `maze` with the recursive backtracker: on an unmasked rect, hex or tri grid by
/// [`carve_lattice`] (the editor's and the printed page's usual grid), on any other grid by
/// [`carve_any`]. Both make the same maze from the same draws.
pub fn carve(maze: &mut Maze, rng: &mut dyn Random, _opts: &CarveOptions) {
    match maze.grid().lattice() {
        Some(l) if l.degree == 3 => carve_lattice::<3>(maze, rng, &l),
        Some(l) if l.degree == 4 => carve_lattice::<4>(maze, rng, &l),
        Some(l) if l.degree == 6 => carve_lattice::<6>(maze, rng, &l),
        _ => carve_any(maze, rng),
    }
}

/// The backtracker on any grid, through its neighbour lists.
fn carve_any(maze: &mut Maze, rng: &mut dyn Random) {
    let n = maze.len();
    let mut visited = CellSet::new(n);
    let start = CellId(rng.below(n) as u32);
    visited.insert(start);
    let mut stack = vec![start];
    while let Some(&top) = stack.last() {
        let Some((slot, count)) = pick_unvisited(&maze.grid().neighbours(top), &visited, rng)
        else {
            stack.pop();
            continue;
        };
        let (next, back) = maze.grid().neighbour_and_back(top, slot);
        maze.link_slots(top, slot, next, back);
        visited.insert(next);
        if count == 1 {
            // `top` has no unvisited neighbour left, and never will again: coming back to it
            // would only pop it. Replace it instead of pushing (same maze, same random draws,
            // one neighbour scan fewer).
            *stack.last_mut().expect("the stack holds top") = next;
        } else {
            stack.push(next);
        }
    }
}

/// A uniformly drawn slot of `nbrs` whose cell is not yet visited, and how many were free
/// (no draw when only one is); `None` when none is. Every slot is written and only the free ones
/// counted: no branch on the visits.
fn pick_unvisited(
    nbrs: &[CellId],
    visited: &CellSet,
    rng: &mut dyn Random,
) -> Option<(usize, usize)> {
    let mut open = [0usize; MAX_DEGREE];
    let mut count = 0;
    for (slot, &nb) in nbrs.iter().enumerate() {
        open[count] = slot;
        count += usize::from(!visited.contains(nb));
    }
    match count {
        0 => None,
        1 => Some((open[0], 1)),
        _ => Some((open[rng.below(count)], count)),
    }
}

/// The state of a cell of the padded board [`carve_lattice`] walks, in its low two bits: not
/// yet visited, visited, or off the grid (the one-cell border around it). The bits above say
/// which neighbours exist (bit 2 + d for direction d).
const FREE: u8 = 0;
const SEEN: u8 = 1;
const OFF: u8 = 2;
const STATE: u8 = 3;

/// The backtracker on an unmasked lattice grid (rect, hex, tri) of `D` directions: the same
/// walk, the same random draws and so the same maze as [`carve_any`], with the neighbours found
/// by arithmetic on a board padded by one off-grid cell all round (so the walk needs no edge
/// tests) instead of read from the grid's lists, and the slots to link looked up from which
/// neighbours exist (see [`LatticeBoard`]).
fn carve_lattice<const D: usize>(maze: &mut Maze, rng: &mut dyn Random, l: &Lattice) {
    let n = maze.len();
    let mut b = LatticeBoard::<D>::new(l, |exists| FREE | exists << 2, OFF);
    let start = rng.below(n);
    let at = b.padded(start);
    b.board[at] |= SEEN;
    // (padded index, cell id) of each cell on the path, 8 bytes an entry (a side is at most
    // MAX_SIDE = 20,000 cells, so a padded index fits in 32 bits)
    let mut stack: Vec<(u32, u32)> = vec![(at as u32, start as u32)];
    let mut open = [0usize; D];
    while let Some(&(p, id)) = stack.last() {
        let (p, id) = (p as usize, id as usize);
        let parity = b.parity(p);
        let step = &b.step[parity];
        let mut count = 0;
        for (d, &s) in step.iter().enumerate() {
            if b.board[p.wrapping_add(s)] & STATE == FREE {
                open[count] = d;
                count += 1;
            }
        }
        if count == 0 {
            stack.pop();
            continue;
        }
        let d = open[if count == 1 { 0 } else { rng.below(count) }];
        let (q, next) = (
            p.wrapping_add(step[d]),
            id.wrapping_add(b.id_step[parity][d]),
        );
        let slot = b.slot(b.board[p] >> 2, d);
        let back = b.slot(b.board[q] >> 2, usize::from(b.opposite[parity][d]));
        maze.link_slots(CellId(id as u32), slot, CellId(next as u32), back);
        b.board[q] |= SEEN;
        let entry = (q as u32, next as u32);
        if count == 1 {
            *stack.last_mut().expect("the stack holds top") = entry;
        } else {
            stack.push(entry);
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::carve::Algorithm;
    use crate::carve::tests::{carved, dead_end_share};
    use crate::topology::TopologyKind;

    #[test]
    fn the_lattice_walk_makes_the_generic_maze() {
        use crate::grid::Grid;
        use crate::maze::Maze;
        use crate::random::MazeRng;
        use crate::topology::Topology;
        use std::sync::Arc;
        for kind in [TopologyKind::Rect, TopologyKind::Hex, TopologyKind::Tri] {
            for (w, h) in [(1, 2), (2, 1), (3, 3), (4, 7), (17, 5), (40, 31)] {
                let g = Arc::new(Grid::new(Topology::new(kind, w, h).unwrap(), None).unwrap());
                let l = g.lattice().expect("an unmasked lattice");
                for seed in 0..5 {
                    let mut a = Maze::new(g.clone());
                    super::carve_any(&mut a, &mut MazeRng::new(seed));
                    let mut b = Maze::new(g.clone());
                    match l.degree {
                        3 => super::carve_lattice::<3>(&mut b, &mut MazeRng::new(seed), &l),
                        4 => super::carve_lattice::<4>(&mut b, &mut MazeRng::new(seed), &l),
                        _ => super::carve_lattice::<6>(&mut b, &mut MazeRng::new(seed), &l),
                    }
                    let what = format!("{kind} {w}x{h} seed {seed}");
                    assert_eq!(a.passage_list(), b.passage_list(), "{what}");
                    assert!(b.is_perfect() || !g.is_connected(), "{what}");
                }
            }
        }
    }

    #[test]
    fn texture_on_100x100() {
        let m = carved(TopologyKind::Rect, 100, 100, Algorithm::Backtracker, 11);
        assert!(m.is_perfect());
        let d = dead_end_share(&m);
        assert!((0.08..0.125).contains(&d), "dead-end share {d}");
    }
}
