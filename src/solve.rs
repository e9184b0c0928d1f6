//! Solving: breadth-first distances through passages, and the shortest path between two cells.
//!
//! Works unchanged on braided mazes (loops) and weave mazes (tunnels are passages like any other).

use std::collections::VecDeque;

use crate::grid::CellId;
use crate::maze::Maze;

/// Marks a cell the search did not reach.
pub const UNREACHED: u32 = u32::MAX;

/// Passage distance (in steps) from one or more start cells to every cell, [`UNREACHED`] where
/// no passage leads.
pub fn distances(maze: &Maze, starts: &[CellId]) -> Vec<u32> {
    let mut dist = vec![UNREACHED; maze.len()];
    let mut queue = VecDeque::with_capacity(1024);
    for &s in starts {
        if dist[s.index()] == UNREACHED {
            dist[s.index()] = 0;
            queue.push_back(s);
        }
    }
    while let Some(c) = queue.pop_front() {
        let d = dist[c.index()] + 1;
        for n in maze.passages(c) {
            if dist[n.index()] == UNREACHED {
                dist[n.index()] = d;
                queue.push_back(n);
            }
        }
    }
    dist
}

/// The farthest cell from `from` among `candidates` (ties: the first listed), with its distance.
pub fn farthest_of(dist: &[u32], candidates: &[CellId]) -> Option<(CellId, u32)> {
    candidates
        .iter()
        .filter(|c| dist[c.index()] != UNREACHED)
        .fold(None, |best: Option<(CellId, u32)>, &c| match best {
            Some((_, d)) if d >= dist[c.index()] => best,
            _ => Some((c, dist[c.index()])),
        })
}

/// A shortest path from `from` to `to` (both included), or `None` if `to` cannot be reached.
/// Among equally short paths, the one found by stepping back from `to` through the first
/// passage (in [`Maze::passages`] order) that leads one step closer.
pub fn shortest_path(maze: &Maze, from: CellId, to: CellId) -> Option<Vec<CellId>> {
    let dist = distances(maze, &[from]);
    path_from_distances(maze, &dist, to)
}

/// Walks back from `to` along decreasing distances to the start of `dist`.
pub fn path_from_distances(maze: &Maze, dist: &[u32], to: CellId) -> Option<Vec<CellId>> {
    let mut d = dist[to.index()];
    if d == UNREACHED {
        return None;
    }
    let mut path = Vec::with_capacity(d as usize + 1);
    let mut c = to;
    path.push(c);
    while d > 0 {
        c = maze.passages(c).find(|n| dist[n.index()] == d - 1)?;
        d -= 1;
        path.push(c);
    }
    path.reverse();
    Some(path)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Grid;
    use crate::topology::{Coord, Topology, TopologyKind};
    use std::sync::Arc;

    #[test]
    fn path_in_a_corridor_with_a_loop() {
        let g =
            Arc::new(Grid::new(Topology::new(TopologyKind::Rect, 3, 2).unwrap(), None).unwrap());
        let id = |r, c| g.id_at(Coord::new(r, c)).unwrap();
        let mut m = Maze::new(g.clone());
        // a ring around the 3x2 grid plus nothing else: two routes from (0,0) to (0,2)
        for (a, b) in [
            ((0, 0), (0, 1)),
            ((0, 1), (0, 2)),
            ((0, 2), (1, 2)),
            ((1, 2), (1, 1)),
            ((1, 1), (1, 0)),
            ((1, 0), (0, 0)),
        ] {
            m.link(id(a.0, a.1), id(b.0, b.1));
        }
        let p = shortest_path(&m, id(0, 0), id(0, 2)).unwrap();
        assert_eq!(p, vec![id(0, 0), id(0, 1), id(0, 2)]);
        let p = shortest_path(&m, id(0, 0), id(1, 1)).unwrap();
        assert_eq!(p.len(), 3);
        let m2 = Maze::new(g.clone());
        assert_eq!(shortest_path(&m2, id(0, 0), id(1, 1)), None);
        assert_eq!(shortest_path(&m2, id(0, 0), id(0, 0)), Some(vec![id(0, 0)]));
    }
}
