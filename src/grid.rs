//! The grid: the cells of a topology that a mask leaves switched on, as flat vectors.
//!
//! Cells are numbered [`CellId`] 0..n in row-major order of the topology. Neighbour lists are one
//! flat array (CSR: `nbr_start[c]..nbr_start[c + 1]`) in the topology's neighbour order, keeping
//! only active neighbours. Carvers see nothing else: ids and neighbours.

use serde::Serialize;

use crate::error::{Error, Result};
use crate::mask::{Mask, row_starts};
use crate::topology::{Coord, Point, Side, Topology};

/// A cell of a grid: an index into its flat vectors.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(transparent)]
pub struct CellId(pub u32);

impl CellId {
    /// The id as an index into per-cell vectors.
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// The most neighbours a cell may have (so a cell's links fit in a `u16`).
pub const MAX_DEGREE: usize = 16;

const NONE: u32 = u32::MAX;

/// The active cells of a topology and who touches whom.
#[derive(Clone, Debug)]
pub struct Grid {
    topology: Topology,
    row_start: Vec<u32>,
    id_of: Vec<u32>,
    coords: Vec<Coord>,
    nbr_start: Vec<u32>,
    nbrs: Vec<CellId>,
    /// For each entry of `nbrs` (cell `a`'s slot `i`, neighbour `b`): the slot of `a` in `b`'s
    /// list, so opening a wall touches both cells without searching a list.
    back: Vec<u8>,
    /// Whether every active cell reaches every other (computed on first use).
    connected: std::sync::OnceLock<bool>,
}

impl Grid {
    /// The grid of `topology`'s cells that `mask` switches on (all of them when `mask` is `None`).
    pub fn new(topology: Topology, mask: Option<&Mask>) -> Result<Grid> {
        let t = topology.tess();
        let row_start = row_starts(t)?;
        if let Some(m) = mask
            && !m.fits(&topology)
        {
            return Err(Error::input("the mask was made for a different grid size"));
        }
        let total = *row_start.last().unwrap_or(&0) as usize;
        let mut id_of = vec![NONE; total];
        let mut coords = Vec::with_capacity(mask.map_or(total, Mask::count));
        let mut dense = 0usize;
        for row in 0..t.rows() {
            for col in 0..t.cols(row) {
                let c = Coord::new(row, col);
                if mask.is_none_or(|m| m.get(c)) {
                    id_of[dense] = coords.len() as u32;
                    coords.push(c);
                }
                dense += 1;
            }
        }
        let mut nbr_start = Vec::with_capacity(coords.len() + 1);
        let mut nbrs = Vec::with_capacity(coords.len() * 4);
        let mut buf = Vec::with_capacity(MAX_DEGREE);
        for &c in &coords {
            nbr_start.push(nbrs.len() as u32);
            buf.clear();
            t.neighbours(c, &mut buf);
            for &n in &buf {
                let id = id_of[(row_start[n.row as usize] + n.col) as usize];
                if id != NONE {
                    nbrs.push(CellId(id));
                }
            }
            debug_assert!(nbrs.len() - *nbr_start.last().unwrap() as usize <= MAX_DEGREE);
        }
        nbr_start.push(nbrs.len() as u32);
        let mut back = vec![0u8; nbrs.len()];
        for a in 0..coords.len() {
            for i in nbr_start[a] as usize..nbr_start[a + 1] as usize {
                let b = nbrs[i].index();
                let list = &nbrs[nbr_start[b] as usize..nbr_start[b + 1] as usize];
                let slot = list.iter().position(|n| n.index() == a);
                back[i] = slot.expect("neighbour lists are symmetric") as u8;
            }
        }
        Ok(Grid {
            topology,
            row_start,
            id_of,
            coords,
            nbr_start,
            nbrs,
            back,
            connected: std::sync::OnceLock::new(),
        })
    }

    /// The topology this grid is cut from.
    pub fn topology(&self) -> &Topology {
        &self.topology
    }

    /// Number of active cells.
    #[inline]
    pub fn len(&self) -> usize {
        self.coords.len()
    }

    /// Whether no cell is active.
    pub fn is_empty(&self) -> bool {
        self.coords.is_empty()
    }

    /// All cell ids, in order.
    pub fn cells(&self) -> impl ExactSizeIterator<Item = CellId> + use<> {
        (0..self.coords.len() as u32).map(CellId)
    }

    /// The address of `id` in the topology.
    #[inline]
    pub fn coord(&self, id: CellId) -> Coord {
        self.coords[id.index()]
    }

    /// The active cell at `c`, if any.
    #[inline]
    pub fn id_at(&self, c: Coord) -> Option<CellId> {
        let start = *self.row_start.get(c.row as usize)?;
        let end = *self.row_start.get(c.row as usize + 1)?;
        let i = start.checked_add(c.col).filter(|&i| i < end)?;
        let id = self.id_of[i as usize];
        (id != NONE).then_some(CellId(id))
    }

    /// The active neighbours of `id`, in the topology's order.
    #[inline]
    pub fn neighbours(&self, id: CellId) -> &[CellId] {
        let i = id.index();
        &self.nbrs[self.nbr_start[i] as usize..self.nbr_start[i + 1] as usize]
    }

    /// The neighbour in slot `slot` of `id`, and the slot of `id` in that neighbour's list.
    #[inline]
    pub fn neighbour_and_back(&self, id: CellId, slot: usize) -> (CellId, usize) {
        let i = self.nbr_start[id.index()] as usize + slot;
        (self.nbrs[i], usize::from(self.back[i]))
    }

    /// Where `other` sits in `id`'s neighbour list.
    #[inline]
    pub fn slot_of(&self, id: CellId, other: CellId) -> Option<usize> {
        self.neighbours(id).iter().position(|&n| n == other)
    }

    /// The centre of `id`, in maze units.
    pub fn center(&self, id: CellId) -> Point {
        self.topology.tess().center(self.coord(id))
    }

    /// The sides of `id` (see [`Side`]), appended to `out`.
    pub fn sides(&self, id: CellId, out: &mut Vec<Side>) {
        self.topology.tess().sides(self.coord(id), out)
    }

    /// Whether every active cell can reach every other through neighbours (computed once).
    pub fn is_connected(&self) -> bool {
        *self.connected.get_or_init(|| {
            if self.is_empty() {
                return true;
            }
            let mut seen = vec![false; self.len()];
            let mut stack = vec![CellId(0)];
            seen[0] = true;
            let mut count = 1;
            while let Some(c) = stack.pop() {
                for &n in self.neighbours(c) {
                    if !seen[n.index()] {
                        seen[n.index()] = true;
                        count += 1;
                        stack.push(n);
                    }
                }
            }
            count == self.len()
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::topology::TopologyKind;

    #[test]
    fn masked_grid_skips_off_cells() {
        let t = Topology::new(TopologyKind::Rect, 3, 2).unwrap();
        let m = Mask::from_ascii(&t, "#.#\n###").unwrap();
        let g = Grid::new(t.clone(), Some(&m)).unwrap();
        assert_eq!(g.len(), 5);
        assert_eq!(g.id_at(Coord::new(0, 1)), None);
        let a = g.id_at(Coord::new(0, 0)).unwrap();
        assert_eq!(g.neighbours(a), &[g.id_at(Coord::new(1, 0)).unwrap()]);
        assert!(g.is_connected());
        let m = Mask::from_ascii(&t, "#.#\n...").unwrap();
        assert!(!Grid::new(t_rect(3, 2), Some(&m)).unwrap().is_connected());
    }

    #[test]
    fn id_at_past_the_last_row_is_none() {
        let g = Grid::new(t_rect(3, 2), None).unwrap();
        assert_eq!(g.id_at(Coord::new(2, 0)), None);
        assert_eq!(g.id_at(Coord::new(1, 3)), None);
        assert_eq!(g.id_at(Coord::new(1, 2)), Some(CellId(5)));
    }

    fn t_rect(w: u32, h: u32) -> Topology {
        Topology::new(TopologyKind::Rect, w, h).unwrap()
    }
}
