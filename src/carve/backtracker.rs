//! Recursive backtracker: randomised depth-first search, run with an explicit stack.
//!
//! Start at a random cell; repeatedly step from the cell on top of the stack to a random unvisited
//! neighbour (linking them and pushing it), and pop when the top has none. The stack lives on the
//! heap, so a 3000x3000 grid cannot overflow the call stack. Texture: long winding corridors,
//! about 10 % dead ends on a square grid (Walter Pullen's table in *Think Labyrinth*).

use crate::carve::CarveOptions;
use crate::carve::scratch::CellSet;
use crate::grid::{CellId, MAX_DEGREE};
use crate::maze::Maze;
use crate::random::Random;

/// Carves `maze` with the recursive backtracker.
pub fn carve(maze: &mut Maze, rng: &mut dyn Random, _opts: &CarveOptions) {
    let n = maze.len();
    let mut visited = CellSet::new(n);
    let start = CellId(rng.below(n) as u32);
    visited.insert(start);
    let mut stack = vec![start];
    let mut open = [0usize; MAX_DEGREE];
    while let Some(&top) = stack.last() {
        let mut count = 0;
        for (slot, &nb) in maze.grid().neighbours(top).iter().enumerate() {
            if !visited.contains(nb) {
                open[count] = slot;
                count += 1;
            }
        }
        if count == 0 {
            stack.pop();
            continue;
        }
        let slot = open[if count == 1 { 0 } else { rng.below(count) }];
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

#[cfg(test)]
mod tests {
    use crate::carve::Algorithm;
    use crate::carve::tests::{carved, dead_end_share};
    use crate::topology::TopologyKind;

    #[test]
    fn texture_on_100x100() {
        let m = carved(TopologyKind::Rect, 100, 100, Algorithm::Backtracker, 11);
        assert!(m.is_perfect());
        let d = dead_end_share(&m);
        assert!((0.08..0.125).contains(&d), "dead-end share {d}");
    }
}
