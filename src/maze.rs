//! The maze: a grid plus the passages carved through it.
//!
//! Passages between neighbours are one bit per neighbour slot (`links[c]` bit `i` means `c` is
//! open to `grid.neighbours(c)[i]`). Tunnels (weave crossings) are extra passages between cells
//! that are not neighbours, recorded with the cell they pass under. [`Maze::passages`] yields both
//! kinds, so the solver and the metrics need no special case for tunnels.

use std::sync::Arc;

use serde::Serialize;

use crate::grid::{CellId, Grid};

/// A passage that runs under another cell: `from` and `to` are joined beneath `under`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct Tunnel {
    /// One end (the smaller id).
    pub from: CellId,
    /// The other end.
    pub to: CellId,
    /// The cell the tunnel passes under.
    pub under: CellId,
}

/// A grid with passages.
#[derive(Clone, Debug)]
pub struct Maze {
    grid: Arc<Grid>,
    links: Vec<u16>,
    tunnels: Vec<Tunnel>,
    /// Both directions of every tunnel, sorted, for lookup by cell.
    tunnel_ends: Vec<(CellId, CellId)>,
    passages: usize,
}

impl Maze {
    /// A maze on `grid` with every wall standing.
    pub fn new(grid: Arc<Grid>) -> Self {
        let n = grid.len();
        Maze {
            grid,
            links: vec![0; n],
            tunnels: Vec::new(),
            tunnel_ends: Vec::new(),
            passages: 0,
        }
    }

    /// The grid under the maze.
    #[inline]
    pub fn grid(&self) -> &Grid {
        &self.grid
    }

    /// A shared handle to the grid.
    pub fn grid_arc(&self) -> &Arc<Grid> {
        &self.grid
    }

    /// Number of cells.
    #[inline]
    pub fn len(&self) -> usize {
        self.grid.len()
    }

    /// Whether the maze has no cells.
    pub fn is_empty(&self) -> bool {
        self.grid.is_empty()
    }

    /// Opens the wall between `a` and its neighbour in slot `slot` of `a`'s neighbour list.
    /// Returns `false` (and changes nothing) if it was open already.
    #[inline]
    pub fn link_slot(&mut self, a: CellId, slot: usize) -> bool {
        let bit = 1u16 << slot;
        if self.links[a.index()] & bit != 0 {
            return false;
        }
        let (b, back) = self.grid.neighbour_and_back(a, slot);
        self.links[a.index()] |= bit;
        self.links[b.index()] |= 1 << back;
        self.passages += 1;
        true
    }

    /// Opens the wall between `a` and `b` given both slots (`b` is `a`'s neighbour in `slot_a`,
    /// `a` is `b`'s in `slot_b`), without looking at the grid's neighbour lists: for carvers that
    /// keep their own direction tables. Returns `false` if it was open already.
    #[inline]
    pub(crate) fn link_slots(
        &mut self,
        a: CellId,
        slot_a: usize,
        b: CellId,
        slot_b: usize,
    ) -> bool {
        debug_assert_eq!(self.grid.neighbours(a)[slot_a], b);
        debug_assert_eq!(self.grid.neighbours(b)[slot_b], a);
        let bit = 1u16 << slot_a;
        if self.links[a.index()] & bit != 0 {
            return false;
        }
        self.links[a.index()] |= bit;
        self.links[b.index()] |= 1 << slot_b;
        self.passages += 1;
        true
    }

    /// Opens the wall between neighbours `a` and `b`. Returns `false` if it was open already.
    ///
    /// # Panics
    /// If `a` and `b` are not neighbours (a bug in the caller, never user input).
    #[inline]
    pub fn link(&mut self, a: CellId, b: CellId) -> bool {
        let slot = self
            .grid
            .slot_of(a, b)
            .expect("link() needs two neighbouring cells");
        self.link_slot(a, slot)
    }

    /// Closes the wall between neighbours `a` and `b` (hand work on a carved maze:
    /// [`crate::locks`]). Returns `false` if it was closed already or they are not neighbours.
    pub fn unlink(&mut self, a: CellId, b: CellId) -> bool {
        let (Some(sa), Some(sb)) = (self.grid.slot_of(a, b), self.grid.slot_of(b, a)) else {
            return false;
        };
        if self.links[a.index()] & (1 << sa) == 0 {
            return false;
        }
        self.links[a.index()] &= !(1 << sa);
        self.links[b.index()] &= !(1 << sb);
        self.passages -= 1;
        true
    }

    /// Whether `a` and `b` are joined by a passage (a tunnel counts).
    pub fn linked(&self, a: CellId, b: CellId) -> bool {
        match self.grid.slot_of(a, b) {
            Some(s) => self.links[a.index()] & (1 << s) != 0,
            None => self.tunnel_partners(a).any(|t| t == b),
        }
    }

    /// Whether `a` is open towards neighbour slot `slot`.
    #[inline]
    pub fn linked_slot(&self, a: CellId, slot: usize) -> bool {
        self.links[a.index()] & (1 << slot) != 0
    }

    /// Adds a tunnel from `from` to `to` under `under`.
    pub fn add_tunnel(&mut self, from: CellId, to: CellId, under: CellId) {
        let (from, to) = if from <= to { (from, to) } else { (to, from) };
        self.tunnels.push(Tunnel { from, to, under });
        for pair in [(from, to), (to, from)] {
            let at = self.tunnel_ends.partition_point(|&p| p < pair);
            self.tunnel_ends.insert(at, pair);
        }
        self.passages += 1;
    }

    /// Adds many tunnels at once: the same result as [`Maze::add_tunnel`] for each, with one sort
    /// instead of one sorted insertion per tunnel (a weave carver adds ~10^5 on a large grid).
    pub fn add_tunnels(&mut self, tunnels: impl IntoIterator<Item = Tunnel>) {
        let before = self.tunnels.len();
        self.tunnels.extend(tunnels.into_iter().map(|t| {
            let (from, to) = if t.from <= t.to {
                (t.from, t.to)
            } else {
                (t.to, t.from)
            };
            Tunnel {
                from,
                to,
                under: t.under,
            }
        }));
        let added = &self.tunnels[before..];
        self.tunnel_ends.reserve(2 * added.len());
        for t in added {
            self.tunnel_ends.push((t.from, t.to));
            self.tunnel_ends.push((t.to, t.from));
        }
        self.tunnel_ends.sort_unstable();
        self.passages += added.len();
    }

    /// The tunnels, sorted.
    pub fn tunnels(&self) -> Vec<Tunnel> {
        let mut t = self.tunnels.clone();
        t.sort();
        t
    }

    fn tunnel_partners(&self, a: CellId) -> impl Iterator<Item = CellId> + '_ {
        let start = if self.tunnel_ends.is_empty() {
            0
        } else {
            self.tunnel_ends.partition_point(|&(x, _)| x < a)
        };
        self.tunnel_ends[start..]
            .iter()
            .take_while(move |&&(x, _)| x == a)
            .map(|&(_, y)| y)
    }

    /// Every cell `a` has a passage to: open neighbours first (in neighbour order), then tunnels.
    #[inline]
    pub fn passages(&self, a: CellId) -> impl Iterator<Item = CellId> + '_ {
        let bits = self.links[a.index()];
        self.grid
            .neighbours(a)
            .into_iter()
            .enumerate()
            .filter(move |&(i, _)| bits & (1 << i) != 0)
            .map(|(_, n)| n)
            .chain(self.tunnel_partners(a))
    }

    /// How many passages leave `a`.
    #[inline]
    pub fn degree(&self, a: CellId) -> usize {
        let d = self.links[a.index()].count_ones() as usize;
        if self.tunnel_ends.is_empty() {
            d
        } else {
            d + self.tunnel_partners(a).count()
        }
    }

    /// Total number of passages (each counted once; tunnels included).
    pub fn passage_count(&self) -> usize {
        self.passages
    }

    /// Every passage once as the two cells' coordinates, the smaller first, sorted: what
    /// stays comparable between mazes on different grids (a shape's mask, a region carved
    /// again by hand, [`crate::locks`]).
    pub fn passage_coords(&self) -> Vec<(crate::topology::Coord, crate::topology::Coord)> {
        let mut out: Vec<_> = self
            .passage_list()
            .into_iter()
            .map(|(a, b)| {
                let (x, y) = (self.grid.coord(a), self.grid.coord(b));
                (x.min(y), x.max(y))
            })
            .collect();
        out.sort();
        out
    }

    /// Every passage once as `(a, b)` with `a < b`, sorted.
    pub fn passage_list(&self) -> Vec<(CellId, CellId)> {
        let mut out = Vec::with_capacity(self.passages);
        for a in self.grid.cells() {
            out.extend(self.passages(a).filter(|&b| a < b).map(|b| (a, b)));
        }
        out.sort();
        out
    }

    /// Whether every cell is reachable from every other through passages.
    pub fn is_connected(&self) -> bool {
        crate::grid::reaches_all(self.len(), |c| self.passages(c))
    }

    /// Whether the maze is perfect: connected, with exactly one path between any two cells.
    pub fn is_perfect(&self) -> bool {
        self.passages + 1 == self.len() && self.is_connected()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::topology::{Coord, Topology, TopologyKind};

    fn grid(w: u32, h: u32) -> Arc<Grid> {
        Arc::new(Grid::new(Topology::new(TopologyKind::Rect, w, h).unwrap(), None).unwrap())
    }

    #[test]
    fn link_is_symmetric_and_counted_once() {
        let g = grid(2, 2);
        let mut m = Maze::new(g.clone());
        let a = g.id_at(Coord::new(0, 0)).unwrap();
        let b = g.id_at(Coord::new(0, 1)).unwrap();
        assert!(m.link(a, b));
        assert!(!m.link(b, a));
        assert!(m.linked(b, a));
        assert_eq!(m.passage_count(), 1);
        assert_eq!(m.passages(b).collect::<Vec<_>>(), vec![a]);
    }

    #[test]
    fn tunnels_are_passages() {
        let g = grid(3, 1);
        let mut m = Maze::new(g);
        m.add_tunnel(CellId(2), CellId(0), CellId(1));
        assert!(m.linked(CellId(0), CellId(2)));
        assert_eq!(m.degree(CellId(2)), 1);
        assert_eq!(m.passage_list(), vec![(CellId(0), CellId(2))]);
        assert_eq!(m.tunnels()[0].under, CellId(1));
        m.link(CellId(0), CellId(1));
        assert!(m.is_perfect());
    }

    #[test]
    fn add_tunnels_matches_add_tunnel() {
        let g = grid(5, 1);
        let list = [
            Tunnel {
                from: CellId(4),
                to: CellId(2),
                under: CellId(3),
            },
            Tunnel {
                from: CellId(0),
                to: CellId(2),
                under: CellId(1),
            },
        ];
        let mut one = Maze::new(g.clone());
        for t in list {
            one.add_tunnel(t.from, t.to, t.under);
        }
        let mut batch = Maze::new(g);
        batch.add_tunnels(list);
        assert_eq!(one.tunnels(), batch.tunnels());
        assert_eq!(one.passage_list(), batch.passage_list());
        assert_eq!(batch.passage_count(), 2);
        assert_eq!(batch.degree(CellId(2)), 2);
        assert_eq!(batch.tunnels()[0].from, CellId(0));
        assert_eq!(batch.tunnels()[1].from, CellId(2));
    }
}
