//! Braiding: a post-carve stage that melts dead ends into loops.
//!
//! With `share` in [0, 1], that share of the maze's dead ends (cells with exactly one passage) is
//! removed: dead ends are visited in random order, and each one still a dead end gets a wall
//! opened to a neighbour it is not joined to, preferring a neighbour that is itself a dead end (one
//! opening then removes two). 0 leaves a perfect maze; 1 removes every dead end the grid allows
//! (a cell whose only neighbour is the one it is joined to cannot be helped).

use crate::grid::{CellId, MAX_DEGREE};
use crate::maze::Maze;
use crate::random::{Random, shuffle};

/// Removes `share` of the dead ends of `maze`; returns how many dead ends were removed.
pub fn braid(maze: &mut Maze, share: f64, rng: &mut dyn Random) -> usize {
    braid_keeping(maze, share, rng, &|_, _| false)
}

/// [`braid`], never opening a wall between two cells `keep` says stay apart (the walls
/// locked closed by hand, [`crate::locks`]).
pub fn braid_keeping(
    maze: &mut Maze,
    share: f64,
    rng: &mut dyn Random,
    keep: &dyn Fn(CellId, CellId) -> bool,
) -> usize {
    let share = share.clamp(0.0, 1.0);
    if share <= 0.0 {
        return 0;
    }
    let mut ends: Vec<CellId> = maze
        .grid()
        .cells()
        .filter(|&c| maze.degree(c) == 1)
        .collect();
    let initial = ends.len();
    let target = (share * initial as f64).round() as usize;
    shuffle(rng, &mut ends);
    let mut removed = 0;
    let mut closed = [0usize; MAX_DEGREE];
    let mut preferred = [0usize; MAX_DEGREE];
    for c in ends {
        if removed >= target {
            break;
        }
        if maze.degree(c) != 1 {
            continue;
        }
        let (mut n_closed, mut n_pref) = (0, 0);
        for (slot, &nb) in maze.grid().neighbours(c).iter().enumerate() {
            if !maze.linked_slot(c, slot) && !keep(c, nb) {
                closed[n_closed] = slot;
                n_closed += 1;
                if maze.degree(nb) == 1 {
                    preferred[n_pref] = slot;
                    n_pref += 1;
                }
            }
        }
        let slot = match (n_pref, n_closed) {
            (0, 0) => continue,
            (0, k) => closed[rng.below(k)],
            (k, _) => preferred[rng.below(k)],
        };
        let nb = maze.grid().neighbours(c)[slot];
        let nb_was_end = maze.degree(nb) == 1;
        maze.link_slot(c, slot);
        removed += 1 + usize::from(nb_was_end);
    }
    removed.min(initial)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::carve::Algorithm;
    use crate::carve::tests::carved;
    use crate::random::MazeRng;
    use crate::topology::TopologyKind;

    fn dead_ends(m: &Maze) -> usize {
        m.grid().cells().filter(|&c| m.degree(c) == 1).count()
    }

    #[test]
    fn braid_removes_the_requested_share() {
        let base = carved(TopologyKind::Rect, 30, 30, Algorithm::Backtracker, 3);
        let d0 = dead_ends(&base);
        for (share, lo, hi) in [(0.0, 1.0, 1.0), (0.5, 0.40, 0.60), (1.0, 0.0, 0.0)] {
            let mut m = base.clone();
            braid(&mut m, share, &mut MazeRng::new(1));
            let left = dead_ends(&m) as f64 / d0 as f64;
            assert!(
                left >= lo - 1e-9 && left <= hi + 1e-9,
                "share {share}: {left} left"
            );
            assert!(m.is_connected());
        }
    }
}
