//! The grid: the cells of a topology that a mask leaves switched on, as flat vectors.
//!
//! Cells are numbered [`CellId`] 0..n in row-major order of the topology. Each cell has its
//! active neighbours in the topology's neighbour order ([`Grid::neighbours`]) and, for each, the
//! slot that points back ([`Grid::neighbour_and_back`]). Carvers see nothing else: ids and
//! neighbours.
//!
//! An unmasked grid stores no neighbour lists: a cell's id is its row-major index and its
//! neighbours and back slots are computed when asked, on a lattice (rect, hex, tri) from a byte a
//! cell (`LatticeSlots`), on a disc from its ring (`Polar::cell_slots`). A walk asks one slot
//! at a time through [`Grid::place`], so it pays for that slot alone. Masked grids keep a fixed
//! run of [`Tessellation::max_degree`] slots per cell
//! (`nbrs[c * stride..]`, the first `degree[c]` used) with a back slot beside each. The topology
//! fills them a row at a time, arithmetically, as row-major indices of the whole topology
//! ([`Tessellation::fill_row`]); a mask is then applied by a remap in place (ids for indices,
//! back slots counted past the neighbours that are switched off), never by asking for
//! neighbour lists again.
//!
//! [`Tessellation::max_degree`]: crate::topology::Tessellation::max_degree
//! [`Tessellation::fill_row`]: crate::topology::Tessellation::fill_row

use std::sync::Arc;

use crate::error::{Error, Result};
use crate::mask::{Mask, row_starts};
pub use crate::topology::{CellId, MAX_DEGREE, NEIGHBOURS_HELD};
use crate::topology::{
    Coord, Lattice, LatticeSlots, Point, Polar, RowSlots, Side, Tessellation, Topology,
};

const NONE: u32 = u32::MAX;

/// The active cells of a topology and who touches whom.
#[derive(Clone, Debug)]
pub struct Grid {
    topology: Topology,
    /// Each row's first row-major index, then the cell count (shared by the parts of a grid:
    /// [`Grid::part`]).
    row_start: Arc<[u32]>,
    /// The number of cells of every row when all rows have the same (rect, hex, tri), so a
    /// row-major index gives its row by one division.
    row_len: Option<u32>,
    /// Otherwise (polar), the row of every `ROW_BUCKET`-th row-major index, from which a
    /// cell's row is a short scan forward.
    bucket_row: Arc<[u32]>,
    /// Masked grids only (empty when every cell is on): the id of each row-major index of the
    /// topology (`NONE` when off), and the row-major index of each id. A part of a grid
    /// ([`Grid::part`]) keeps the second only, in increasing order: an index's id is found by
    /// a binary search, so the part costs its own cells, not the topology's.
    id_of: Vec<u32>,
    index_of: Vec<u32>,
    /// The number of active cells.
    len: usize,
    /// Who neighbours whom: stored, or computed from the topology.
    links: Links,
    /// Whether every active cell reaches every other (an unmasked grid does; otherwise computed
    /// on first use).
    connected: std::sync::OnceLock<bool>,
}

/// How a grid knows each cell's neighbours.
#[derive(Clone, Debug)]
enum Links {
    /// Stored (a masked grid): `stride` slots per cell, the first `degree[c]` used, and beside
    /// each slot (cell `a`'s slot `i`, neighbour `b`) the slot of `a` in `b`'s list, so opening
    /// a wall touches both cells without searching a list.
    Table {
        stride: usize,
        degree: Vec<u8>,
        nbrs: Vec<CellId>,
        back: Vec<u8>,
    },
    /// Computed when asked (an unmasked lattice: rect, hex, tri).
    Lattice(Box<LatticeSlots>),
    /// Computed when asked by [`Polar::cell_slots`] (an unmasked polar grid).
    Polar,
}

/// A cell's active neighbours, in the topology's order: [`Grid::neighbours`]. Read it as a
/// slice (`&*n`, `n.iter()`, `n[i]`, `n.len()`) or iterate it by value. A copy (a few bytes,
/// kept in registers), so grids that store no neighbour lists can hand out computed ones.
#[derive(Clone, Copy, Debug)]
pub struct Neighbours<'a> {
    ids: [CellId; NEIGHBOURS_HELD],
    len: u8,
    grid: std::marker::PhantomData<&'a Grid>,
}

impl std::ops::Deref for Neighbours<'_> {
    type Target = [CellId];
    #[inline]
    fn deref(&self) -> &[CellId] {
        &self.ids[..usize::from(self.len)]
    }
}

impl<'a> IntoIterator for Neighbours<'a> {
    type Item = CellId;
    type IntoIter = NeighboursIter<'a>;
    #[inline]
    fn into_iter(self) -> NeighboursIter<'a> {
        NeighboursIter { of: self, at: 0 }
    }
}

impl<'b> IntoIterator for &'b Neighbours<'_> {
    type Item = &'b CellId;
    type IntoIter = std::slice::Iter<'b, CellId>;
    #[inline]
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

/// [`Neighbours`] by value.
#[derive(Clone, Debug)]
pub struct NeighboursIter<'a> {
    of: Neighbours<'a>,
    at: u8,
}

impl Iterator for NeighboursIter<'_> {
    type Item = CellId;
    #[inline]
    fn next(&mut self) -> Option<CellId> {
        if self.at < self.of.len {
            self.at += 1;
            Some(self.of.ids[usize::from(self.at) - 1])
        } else {
            None
        }
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = usize::from(self.of.len - self.at);
        (left, Some(left))
    }
}

impl ExactSizeIterator for NeighboursIter<'_> {}

/// A cell of a grid, found once ([`Grid::place`]), asked about one slot at a time: on a grid
/// that computes its neighbours, each question costs only that slot.
#[derive(Clone, Copy, Debug)]
pub struct Place<'a> {
    grid: &'a Grid,
    id: CellId,
    /// Lattice: the cell's parity and class; polar: its ring and column; a table: unused.
    a: u32,
    b: u32,
}

impl Place<'_> {
    /// The cell.
    #[inline(always)]
    pub fn id(&self) -> CellId {
        self.id
    }

    /// How many active neighbours it has.
    #[inline(always)]
    pub fn degree(&self) -> usize {
        match &self.grid.links {
            Links::Table { degree, .. } => usize::from(degree[self.id.index()]),
            Links::Lattice(l) => l.degree_in(self.a as usize, self.b as usize),
            Links::Polar => self.grid.polar().cell_degree(self.a),
        }
    }

    /// Its neighbour in slot `slot`.
    #[inline(always)]
    pub fn neighbour(&self, slot: usize) -> CellId {
        debug_assert!(slot < self.degree());
        match &self.grid.links {
            Links::Table { stride, nbrs, .. } => nbrs[self.id.index() * stride + slot],
            Links::Lattice(l) => l.neighbour_in(self.id.0, self.a as usize, self.b as usize, slot),
            Links::Polar => {
                let g = self.grid;
                g.polar().cell_slot(&g.row_start, self.a, self.b, slot).0
            }
        }
    }

    /// Its neighbour in slot `slot`, found: a walk steps on without looking the cell up again
    /// (on a polar grid, its ring follows from the slot).
    #[inline(always)]
    pub fn step(&self, slot: usize) -> Self {
        debug_assert!(slot < self.degree());
        let g = self.grid;
        match &g.links {
            Links::Table { .. } | Links::Lattice(_) => g.place(self.neighbour(slot)),
            Links::Polar => {
                let (row, col) = g.polar().cell_step(self.a, self.b, slot);
                Place {
                    grid: g,
                    id: CellId(g.row_start[row as usize] + col),
                    a: row,
                    b: col,
                }
            }
        }
    }

    /// Its neighbour in slot `slot`, and its own slot in that neighbour's list.
    #[inline(always)]
    pub fn neighbour_and_back(&self, slot: usize) -> (CellId, usize) {
        debug_assert!(slot < self.degree());
        match &self.grid.links {
            Links::Table {
                stride, nbrs, back, ..
            } => {
                let i = self.id.index() * stride + slot;
                (nbrs[i], usize::from(back[i]))
            }
            Links::Lattice(l) => {
                l.neighbour_and_back_in(self.id.0, self.a as usize, self.b as usize, slot)
            }
            Links::Polar => {
                let g = self.grid;
                let (nb, back) = g.polar().cell_slot(&g.row_start, self.a, self.b, slot);
                (nb, usize::from(back))
            }
        }
    }
}

impl Grid {
    /// The grid of `topology`'s cells that `mask` switches on (all of them when `mask` is `None`).
    pub fn new(topology: Topology, mask: Option<&Mask>) -> Result<Grid> {
        let t = topology.tess();
        let row_start: Arc<[u32]> = row_starts(t)?.into();
        if let Some(m) = mask
            && !m.fits(&topology)
        {
            return Err(Error::input("the mask was made for a different grid size"));
        }
        let total = *row_start.last().unwrap_or(&0) as usize;
        let rows = t.rows() as usize;
        let row_len = (rows > 0 && row_start.windows(2).all(|w| w[1] - w[0] == row_start[1]))
            .then_some(row_start[1]);
        let bucket_row: Arc<[u32]> = match row_len {
            Some(_) => Arc::new([]),
            None => bucket_rows(&row_start).into(),
        };
        let connected = std::sync::OnceLock::new();
        let mask = mask.filter(|m| m.count() < total);
        if mask.is_none() && t.known_connected() {
            let _ = connected.set(true);
        }
        // an unmasked lattice stores nothing per cell: its neighbours are computed when asked
        if mask.is_none()
            && let Some(slots) = t.lattice().as_ref().and_then(LatticeSlots::new)
        {
            debug_assert_eq!(slots.len(), total);
            return Ok(Grid {
                topology,
                row_start,
                row_len,
                bucket_row,
                id_of: Vec::new(),
                index_of: Vec::new(),
                len: total,
                links: Links::Lattice(Box::new(slots)),
                connected,
            });
        }
        // and an unmasked disc computes them ring by ring
        if mask.is_none()
            && matches!(topology, Topology::Polar(_))
            && t.max_degree() <= NEIGHBOURS_HELD
        {
            return Ok(Grid {
                topology,
                row_start,
                row_len,
                bucket_row,
                id_of: Vec::new(),
                index_of: Vec::new(),
                len: total,
                links: Links::Polar,
                connected,
            });
        }
        let stride = t.max_degree();
        if stride > NEIGHBOURS_HELD {
            return Err(Error::input(format!(
                "a grid cell may have {stride} neighbours (at most {NEIGHBOURS_HELD})"
            )));
        }
        let (mut nbrs, mut back, mut degree) = full_tables(t, &row_start, stride);
        let (id_of, index_of) = match mask {
            None => (Vec::new(), Vec::new()),
            Some(m) => apply_mask(m, &mut nbrs, &mut back, &mut degree, stride),
        };
        Ok(Grid {
            topology,
            row_start,
            row_len,
            bucket_row,
            id_of,
            index_of,
            len: degree.len(),
            links: Links::Table {
                stride,
                degree,
                nbrs,
                back,
            },
            connected,
        })
    }

    /// The grid of `cells` alone (ids of this grid in increasing order), as [`Grid::new`] makes
    /// it with a mask of just those cells: the same ids in the same order, each cell's
    /// neighbours among them in the same order, with their back slots. Made in time and memory
    /// proportional to the cells, not to the topology: the neighbour lists are read from this
    /// grid's, and nothing is made for the cells left out. A region carved again by hand
    /// carves each of its parts on one ([`crate::locks::recarve`]).
    ///
    /// On a rect grid the part's topology is its bounding box with one more row and column on
    /// each side where this grid's topology goes on (so a carver that reads rows, columns and
    /// the first and last of them sees what it would see on the whole topology, cells switched
    /// off all round), and its coordinates are relative to that box; on the other topologies it
    /// is this grid's own topology and coordinates (only carvers that read neighbour lists run
    /// on them). When the cells are the whole topology, the grid is the unmasked one, as
    /// [`Grid::new`] makes it.
    pub(crate) fn part(&self, cells: &[CellId]) -> Result<Grid> {
        debug_assert!(cells.windows(2).all(|w| w[0] < w[1]), "increasing ids");
        let total = *self.row_start.last().unwrap_or(&0) as usize;
        if cells.len() == total {
            return Grid::new(self.topology.clone(), None);
        }
        if cells.is_empty() {
            return Grid::new(self.topology.clone(), Some(&Mask::empty(&self.topology)?));
        }
        let t = self.topology.tess();
        let stride = t.max_degree();
        if stride > NEIGHBOURS_HELD {
            return Err(Error::input(format!(
                "a grid cell may have {stride} neighbours (at most {NEIGHBOURS_HELD})"
            )));
        }
        let (topology, row_start, row_len, bucket_row, index_of) = match &self.topology {
            Topology::Rect(_) => {
                let (mut r0, mut c0, mut r1, mut c1) = (u32::MAX, u32::MAX, 0, 0);
                for &c in cells {
                    let at = self.coord(c);
                    (r0, c0) = (r0.min(at.row), c0.min(at.col));
                    (r1, c1) = (r1.max(at.row), c1.max(at.col));
                }
                // a row and a column more on each side, where the topology has them
                let (r0, c0) = (r0.saturating_sub(1), c0.saturating_sub(1));
                let r1 = (r1 + 1).min(t.rows().saturating_sub(1));
                let c1 = (c1 + 1).min(t.cols(0).saturating_sub(1));
                let (w, h) = (c1 - c0 + 1, r1 - r0 + 1);
                let topology = Topology::new(crate::topology::TopologyKind::Rect, w, h)?;
                let row_start: Arc<[u32]> = (0..=h).map(|r| r * w).collect();
                let index_of = cells
                    .iter()
                    .map(|&c| {
                        let at = self.coord(c);
                        (at.row - r0) * w + (at.col - c0)
                    })
                    .collect();
                (topology, row_start, Some(w), Arc::from([]), index_of)
            }
            _ => (
                self.topology.clone(),
                self.row_start.clone(),
                self.row_len,
                self.bucket_row.clone(),
                cells.iter().map(|&c| self.index(c)).collect::<Vec<u32>>(),
            ),
        };
        let n = cells.len();
        let mut nbrs = vec![CellId(0); n * stride];
        let mut degree = vec![0u8; n];
        for (i, &c) in cells.iter().enumerate() {
            let mut d = 0;
            for m in self.neighbours(c) {
                if let Ok(j) = cells.binary_search(&m) {
                    nbrs[i * stride + d] = CellId(j as u32);
                    d += 1;
                }
            }
            degree[i] = d as u8;
        }
        let mut back = vec![0u8; n * stride];
        find_back_slots(&nbrs, &mut back, &degree, stride);
        Ok(Grid {
            topology,
            row_start,
            row_len,
            bucket_row,
            id_of: Vec::new(),
            index_of,
            len: n,
            links: Links::Table {
                stride,
                degree,
                nbrs,
                back,
            },
            connected: std::sync::OnceLock::new(),
        })
    }

    /// The row-major index in the topology of the active cell `id`.
    #[inline]
    fn index(&self, id: CellId) -> u32 {
        if self.index_of.is_empty() {
            id.0
        } else {
            self.index_of[id.index()]
        }
    }

    /// The topology's [`Lattice`] when no cell is switched off (ids are then the lattice's
    /// row-major indices and neighbour slots follow the lattice's directions): for carvers that
    /// walk the grid by arithmetic. `None` on a masked grid or a topology that is no lattice.
    pub fn lattice(&self) -> Option<Lattice> {
        if self.id_of.is_empty() && self.index_of.is_empty() {
            self.topology.tess().lattice()
        } else {
            None
        }
    }

    /// The topology this grid is cut from.
    pub fn topology(&self) -> &Topology {
        &self.topology
    }

    /// Number of active cells.
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether no cell is active.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// All cell ids, in order.
    pub fn cells(&self) -> impl ExactSizeIterator<Item = CellId> + use<> {
        (0..self.len() as u32).map(CellId)
    }

    /// The address of `id` in the topology.
    #[inline]
    pub fn coord(&self, id: CellId) -> Coord {
        let i = self.index(id);
        let row = match self.row_len {
            Some(len) => i / len,
            None => {
                let mut row = self.bucket_row[(i / ROW_BUCKET) as usize] as usize;
                while self.row_start[row + 1] <= i {
                    row += 1;
                }
                row as u32
            }
        };
        Coord::new(row, i - self.row_start[row as usize])
    }

    /// The active cell at `c`, if any.
    #[inline]
    pub fn id_at(&self, c: Coord) -> Option<CellId> {
        let start = *self.row_start.get(c.row as usize)?;
        let end = *self.row_start.get(c.row as usize + 1)?;
        let i = start.checked_add(c.col).filter(|&i| i < end)?;
        if self.id_of.is_empty() {
            if self.index_of.is_empty() {
                return Some(CellId(i));
            }
            // a part of a grid: its indices in increasing order
            return self
                .index_of
                .binary_search(&i)
                .ok()
                .map(|k| CellId(k as u32));
        }
        let id = self.id_of[i as usize];
        (id != NONE).then_some(CellId(id))
    }

    /// The active neighbours of `id`, in the topology's order.
    #[inline(always)]
    pub fn neighbours(&self, id: CellId) -> Neighbours<'_> {
        let mut ids = [CellId(0); NEIGHBOURS_HELD];
        let len = match &self.links {
            Links::Lattice(l) => l.fill(id.0, &mut ids),
            Links::Polar => {
                let mut back = [0u8; NEIGHBOURS_HELD];
                self.polar_slots(id, &mut ids, &mut back)
            }
            Links::Table {
                stride,
                degree,
                nbrs,
                ..
            } => {
                let (base, d) = (id.index() * stride, usize::from(degree[id.index()]));
                ids[..d].copy_from_slice(&nbrs[base..base + d]);
                d
            }
        };
        Neighbours {
            ids,
            len: len as u8,
            grid: std::marker::PhantomData,
        }
    }

    /// How many active neighbours `id` has.
    #[inline(always)]
    pub fn degree(&self, id: CellId) -> usize {
        self.place(id).degree()
    }

    /// The neighbour in slot `slot` of `id`.
    #[inline(always)]
    pub fn neighbour(&self, id: CellId, slot: usize) -> CellId {
        self.place(id).neighbour(slot)
    }

    /// The neighbour in slot `slot` of `id`, and the slot of `id` in that neighbour's list.
    #[inline(always)]
    pub fn neighbour_and_back(&self, id: CellId, slot: usize) -> (CellId, usize) {
        self.place(id).neighbour_and_back(slot)
    }

    /// Cell `id`, found once to be asked about its slots one at a time: what a random walk
    /// wants at each step (a degree, then one neighbour), without computing its whole list.
    #[inline(always)]
    pub fn place(&self, id: CellId) -> Place<'_> {
        let (a, b) = match &self.links {
            Links::Table { .. } => (0, 0),
            Links::Lattice(l) => {
                let (p, class) = l.of(id.0);
                (p as u32, class as u32)
            }
            Links::Polar => {
                let c = self.coord(id);
                (c.row, c.col)
            }
        };
        Place {
            grid: self,
            id,
            a,
            b,
        }
    }

    /// The polar topology of a grid with polar links.
    #[inline(always)]
    fn polar(&self) -> &Polar {
        match &self.topology {
            Topology::Polar(p) => p,
            _ => unreachable!("polar links on a polar grid"),
        }
    }

    /// Cell `id`'s neighbours and back slots on an unmasked polar grid; returns how many.
    #[inline(always)]
    fn polar_slots(
        &self,
        id: CellId,
        ids: &mut [CellId; NEIGHBOURS_HELD],
        back: &mut [u8; NEIGHBOURS_HELD],
    ) -> usize {
        let c = self.coord(id);
        self.polar()
            .cell_slots(&self.row_start, c.row, c.col, ids, back)
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
        *self.connected.get_or_init(|| self.reaches_all())
    }

    /// Whether a search from cell 0 through neighbours reaches every cell.
    fn reaches_all(&self) -> bool {
        reaches_all(self.len(), |c| self.neighbours(c))
    }

    /// Bytes the grid holds per cell (its tables, not the topology's), for the memory figures.
    pub fn bytes_per_cell(&self) -> f64 {
        let links = match &self.links {
            Links::Table {
                degree, nbrs, back, ..
            } => degree.len() + nbrs.len() * std::mem::size_of::<CellId>() + back.len(),
            Links::Lattice(l) => l.bytes(),
            Links::Polar => 0,
        };
        let bytes = (self.row_start.len() + self.bucket_row.len()) * 4
            + (self.id_of.len() + self.index_of.len()) * 4
            + links;
        bytes as f64 / self.len().max(1) as f64
    }
}

/// Row-major indices per entry of [`Grid::coord`]'s row table (polar).
const ROW_BUCKET: u32 = 1024;

/// The row of every [`ROW_BUCKET`]-th row-major index, given each row's first index.
fn bucket_rows(row_start: &[u32]) -> Vec<u32> {
    let total = *row_start.last().unwrap_or(&0);
    let mut row = 0usize;
    (0..total.div_ceil(ROW_BUCKET))
        .map(|k| {
            while row_start[row + 1] <= k * ROW_BUCKET {
                row += 1;
            }
            row as u32
        })
        .collect()
}

/// Whether a depth-first search from cell 0 of `n` cells, stepping to `next(c)`, reaches all of
/// them (true when there are none): the grid's connectivity through neighbours, a maze's
/// through passages.
pub(crate) fn reaches_all<I: IntoIterator<Item = CellId>>(
    n: usize,
    next: impl Fn(CellId) -> I,
) -> bool {
    if n == 0 {
        return true;
    }
    let mut seen = vec![false; n];
    let mut stack = vec![CellId(0)];
    seen[0] = true;
    let mut count = 1;
    while let Some(c) = stack.pop() {
        for m in next(c) {
            if !seen[m.index()] {
                seen[m.index()] = true;
                count += 1;
                stack.push(m);
            }
        }
    }
    count == n
}

/// The neighbour tables of every cell of `t` (whose rows start at `row_start`), `stride` slots
/// a cell: the neighbours, the back slots (each cell's slot in its neighbour's list) and the
/// degrees.
fn full_tables(
    t: &dyn Tessellation,
    row_start: &[u32],
    stride: usize,
) -> (Vec<CellId>, Vec<u8>, Vec<u8>) {
    let total = *row_start.last().unwrap_or(&0) as usize;
    let rows = t.rows() as usize;
    // the tables grow a row at a time, each row cleared just before it is filled (while it
    // is in cache): memory is written once, not cleared whole and then written again
    let mut nbrs = Vec::with_capacity(total * stride);
    let mut back = Vec::with_capacity(total * stride);
    let mut degree = Vec::with_capacity(total);
    let mut backs_filled = true;
    for row in 0..rows {
        let (a, b) = (row_start[row] as usize, row_start[row + 1] as usize);
        nbrs.resize(b * stride, CellId(0));
        back.resize(b * stride, 0u8);
        degree.resize(b, 0u8);
        backs_filled &= t.fill_row(
            row as u32,
            RowSlots {
                row_start,
                stride,
                nbrs: &mut nbrs[a * stride..],
                back: &mut back[a * stride..],
                degree: &mut degree[a..],
            },
        );
    }
    if !backs_filled {
        find_back_slots(&nbrs, &mut back, &degree, stride);
    }
    (nbrs, back, degree)
}

/// Applies `mask` to the tables of the whole topology ([`remap`]) and cuts them to the cells
/// that are on. Returns the id of each row-major index and the index of each id.
fn apply_mask(
    mask: &Mask,
    nbrs: &mut Vec<CellId>,
    back: &mut Vec<u8>,
    degree: &mut Vec<u8>,
    stride: usize,
) -> (Vec<u32>, Vec<u32>) {
    let (id_of, index_of) = remap(mask, nbrs, back, degree, stride);
    let n = index_of.len();
    nbrs.truncate(n * stride);
    nbrs.shrink_to_fit();
    back.truncate(n * stride);
    back.shrink_to_fit();
    degree.truncate(n);
    degree.shrink_to_fit();
    (id_of, index_of)
}

/// The back slots of neighbour lists filled without them: for each slot of cell `a` holding
/// `b`, where `a` sits in `b`'s list.
fn find_back_slots(nbrs: &[CellId], back: &mut [u8], degree: &[u8], stride: usize) {
    for (a, &deg) in degree.iter().enumerate() {
        for i in a * stride..a * stride + usize::from(deg) {
            let b = nbrs[i].index();
            let list = &nbrs[b * stride..b * stride + usize::from(degree[b])];
            let slot = list.iter().position(|&n| n.index() == a);
            back[i] = slot.expect("neighbour lists are symmetric") as u8;
        }
    }
}

/// Applies `mask` to slots filled for the whole topology, in place: the cells that are on get
/// ids in row-major order, each keeps its neighbours that are on (as ids, in order), and a back
/// slot drops by the number of the neighbour's own neighbours before it that are off. Returns
/// the id of each row-major index (`NONE` when off) and the index of each id; the slots of the
/// first `ids` cells are then the grid's.
fn remap(
    mask: &Mask,
    nbrs: &mut [CellId],
    back: &mut [u8],
    degree: &mut [u8],
    stride: usize,
) -> (Vec<u32>, Vec<u32>) {
    let on = mask.flags();
    let mut id_of = vec![NONE; on.len()];
    let mut index_of = Vec::with_capacity(mask.count());
    // which of each cell's neighbours are on, one bit per slot
    let mut kept = vec![0u16; on.len()];
    for (i, &is_on) in on.iter().enumerate() {
        if is_on {
            id_of[i] = index_of.len() as u32;
            index_of.push(i as u32);
            let base = i * stride;
            let mut bits = 0u16;
            for s in 0..usize::from(degree[i]) {
                bits |= u16::from(on[nbrs[base + s].index()]) << s;
            }
            kept[i] = bits;
        }
    }
    // an id is never above its index, so cell `id`'s slots are written at or before where cell
    // `index`'s are read
    for (id, &i) in index_of.iter().enumerate() {
        let (from, to) = (i as usize * stride, id * stride);
        let mut k = 0;
        for s in 0..usize::from(degree[i as usize]) {
            let b = nbrs[from + s].index();
            if on[b] {
                let full = back[from + s];
                nbrs[to + k] = CellId(id_of[b]);
                back[to + k] = (kept[b] & ((1 << full) - 1)).count_ones() as u8;
                k += 1;
            }
        }
        degree[id] = k as u8;
    }
    (id_of, index_of)
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
        assert_eq!(*g.neighbours(a), [g.id_at(Coord::new(1, 0)).unwrap()]);
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

    /// Topologies of many shapes: thin, odd and even sides, every ring count up to a few.
    fn topologies() -> Vec<Topology> {
        let mut out = Vec::new();
        for kind in [TopologyKind::Rect, TopologyKind::Hex, TopologyKind::Tri] {
            for (w, h) in [(1, 1), (1, 4), (4, 1), (2, 2), (3, 5), (6, 4), (9, 7)] {
                out.push(Topology::new(kind, w, h).unwrap());
            }
        }
        for rings in 1..10 {
            out.push(Topology::new(TopologyKind::Polar, rings, 0).unwrap());
        }
        out
    }

    /// The grid's tables rebuilt the slow way, from [`Tessellation::neighbours`], and compared.
    fn check_against_the_topology(g: &Grid, mask: Option<&Mask>) {
        let t = g.topology().tess();
        let on = |c: Coord| mask.is_none_or(|m| m.get(c));
        let mut ids = Vec::new();
        for row in 0..t.rows() {
            for col in 0..t.cols(row) {
                let c = Coord::new(row, col);
                assert_eq!(g.id_at(c).is_some(), on(c), "{c:?}");
                if on(c) {
                    ids.push(c);
                }
            }
        }
        assert_eq!(g.len(), ids.len());
        let mut buf = Vec::new();
        for (i, &c) in ids.iter().enumerate() {
            let id = CellId(i as u32);
            assert_eq!(g.coord(id), c);
            assert_eq!(g.id_at(c), Some(id));
            buf.clear();
            t.neighbours(c, &mut buf);
            let want: Vec<CellId> = buf.iter().filter_map(|&n| g.id_at(n)).collect();
            assert_eq!(*g.neighbours(id), want[..], "{c:?}");
            // and one slot at a time, as a walk asks
            let here = g.place(id);
            assert_eq!((here.id(), here.degree()), (id, want.len()), "{c:?}");
            assert_eq!(g.degree(id), want.len(), "{c:?}");
            for (slot, &w) in want.iter().enumerate() {
                let (b, back) = g.neighbour_and_back(id, slot);
                assert_eq!(b, w, "{c:?} slot {slot}");
                assert_eq!(g.neighbours(b)[back], id, "{c:?} slot {slot}");
                assert_eq!(
                    here.neighbour_and_back(slot),
                    (b, back),
                    "{c:?} slot {slot}"
                );
                assert_eq!(here.neighbour(slot), b, "{c:?} slot {slot}");
                assert_eq!(g.neighbour(id, slot), b, "{c:?} slot {slot}");
            }
        }
    }

    #[test]
    fn slots_are_the_topology_neighbours_with_their_back_slots() {
        for t in topologies() {
            let g = Grid::new(t.clone(), None).unwrap();
            check_against_the_topology(&g, None);
            // a topology that says it is in one piece is
            assert!(!t.tess().known_connected() || g.reaches_all(), "{t:?}");
            assert_eq!(g.is_connected(), g.reaches_all(), "{t:?}");
            // masks applied by the remap: random ones, and every cell but one
            let tess = t.tess();
            let n = Mask::full(&t).unwrap().len();
            for seed in 0..4u64 {
                let mut m = Mask::full(&t).unwrap();
                let mut k = 0u64;
                for row in 0..tess.rows() {
                    for col in 0..tess.cols(row) {
                        k += 1;
                        let hash = (k ^ seed).wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 60;
                        m.set(Coord::new(row, col), !hash.is_multiple_of(3));
                    }
                }
                if seed == 3 {
                    m = Mask::full(&t).unwrap();
                    m.set(Coord::new(tess.rows() - 1, 0), false);
                }
                let g = Grid::new(t.clone(), Some(&m)).unwrap();
                check_against_the_topology(&g, Some(&m));
                assert_eq!(g.is_connected(), g.reaches_all());
            }
            assert!(n > 0);
        }
    }

    /// A part of a grid ([`Grid::part`]) is the grid a mask of its cells makes: the same
    /// neighbours and back slots, coordinates and lookups (on rect, moved to the part's box),
    /// made from the grid's lists; the whole topology is the unmasked grid.
    #[test]
    fn a_part_of_a_grid_is_the_grid_of_its_mask() {
        for t in topologies() {
            let tess = t.tess();
            let full = Mask::full(&t).unwrap();
            for (seed, keep) in [(1u64, 2u64), (2, 3), (3, 9), (4, 1)] {
                // a grid (shaped: some cells off), and cells of it
                let mut shape = full.clone();
                let mut cells_of = full.clone();
                for (k, c) in full.cells().enumerate() {
                    let hash = |s: u64| ((k as u64) ^ s).wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 60;
                    shape.set(c, seed == 4 || !hash(seed).is_multiple_of(5));
                    cells_of.set(c, hash(seed + 7) % keep == 0);
                }
                let grid = Grid::new(t.clone(), Some(&shape)).unwrap();
                let cells: Vec<CellId> = grid
                    .cells()
                    .filter(|&c| cells_of.get(grid.coord(c)))
                    .collect();
                let mut mask = Mask::empty(&t).unwrap();
                for &c in &cells {
                    mask.set(grid.coord(c), true);
                }
                let want = Grid::new(t.clone(), Some(&mask)).unwrap();
                let part = grid.part(&cells).unwrap();
                assert_eq!(part.len(), want.len(), "{t:?}");
                assert_eq!(part.lattice().is_some(), want.lattice().is_some(), "{t:?}");
                // on rect the part's box: where its first cell went says how far it moved
                let moved = |c: Coord| -> Coord {
                    match (&t, cells.first()) {
                        (Topology::Rect(_), Some(_)) => {
                            let (a, b) = (want.coord(CellId(0)), part.coord(CellId(0)));
                            let by = |x: u32, from: u32, to: u32| {
                                (i64::from(x) + i64::from(to) - i64::from(from)) as u32
                            };
                            Coord::new(by(c.row, a.row, b.row), by(c.col, a.col, b.col))
                        }
                        _ => c,
                    }
                };
                for id in want.cells() {
                    let at = want.coord(id);
                    assert_eq!(part.coord(id), moved(at), "{t:?} {at:?}");
                    assert_eq!(part.id_at(moved(at)), Some(id), "{t:?} {at:?}");
                    assert_eq!(*part.neighbours(id), *want.neighbours(id), "{t:?} {at:?}");
                    for slot in 0..want.degree(id) {
                        assert_eq!(
                            part.neighbour_and_back(id, slot),
                            want.neighbour_and_back(id, slot),
                            "{t:?} {at:?}"
                        );
                    }
                }
                if let Topology::Rect(_) = t
                    && !cells.is_empty()
                    && cells.len() < full.len()
                {
                    // the box has a row and a column of cells switched off wherever the grid
                    // went on, and none where it stopped
                    let pt = part.topology().tess();
                    let (first, last) = (
                        want.coord(CellId(0)),
                        want.coord(want.cells().last().unwrap()),
                    );
                    let top = moved(Coord::new(first.row, 0)).row;
                    assert_eq!(top, u32::from(first.row > 0), "{t:?}");
                    assert_eq!(
                        pt.rows() - 1 - moved(last).row,
                        u32::from(last.row + 1 < tess.rows()),
                        "{t:?}"
                    );
                }
            }
            // the whole topology: the unmasked grid
            let grid = Grid::new(t.clone(), None).unwrap();
            let all: Vec<CellId> = grid.cells().collect();
            let whole = grid.part(&all).unwrap();
            assert_eq!(whole.lattice().is_some(), grid.lattice().is_some(), "{t:?}");
            check_against_the_topology(&whole, None);
        }
    }

    #[test]
    fn arithmetic_slots_match_the_ones_found_by_search() {
        // each topology's `fill_row` against the default one (neighbours cell by cell, back slots
        // found by searching lists), which a new topology gets until it writes its own
        for t in topologies() {
            let tess = t.tess();
            let starts = row_starts(tess).unwrap();
            let total = *starts.last().unwrap() as usize;
            let stride = tess.max_degree();
            let fill = |generic: bool| {
                let (mut nbrs, mut back) =
                    (vec![CellId(0); total * stride], vec![0u8; total * stride]);
                let mut degree = vec![0u8; total];
                let mut filled = true;
                for row in 0..tess.rows() as usize {
                    let (a, b) = (starts[row] as usize, starts[row + 1] as usize);
                    let out = RowSlots {
                        row_start: &starts,
                        stride,
                        nbrs: &mut nbrs[a * stride..b * stride],
                        back: &mut back[a * stride..b * stride],
                        degree: &mut degree[a..b],
                    };
                    filled &= if generic {
                        crate::topology::fill_from_neighbours(tess, row as u32, out)
                    } else {
                        tess.fill_row(row as u32, out)
                    };
                }
                if !filled {
                    find_back_slots(&nbrs, &mut back, &degree, stride);
                }
                (filled, nbrs, back, degree)
            };
            let (arith, nbrs, back, degree) = fill(false);
            let (searched, nbrs2, back2, degree2) = fill(true);
            assert!(arith && !searched, "{t:?}");
            assert_eq!(degree, degree2, "{t:?}");
            for (c, &deg) in degree.iter().enumerate() {
                let used = c * stride..c * stride + usize::from(deg);
                assert_eq!(nbrs[used.clone()], nbrs2[used.clone()], "{t:?} cell {c}");
                assert_eq!(back[used.clone()], back2[used], "{t:?} cell {c}");
            }
        }
    }

    #[test]
    fn lattice_rows_repeated_two_columns_on_match_the_topology() {
        // an unmasked lattice grid computes each cell's slots; a masked one stores the rows
        // `fill_lattice` wrote (the first four and last two cells of a row computed, the pattern
        // repeated between them) and remaps them: both checked at every width from none
        // repeated to many, on every row kind
        for kind in [TopologyKind::Rect, TopologyKind::Hex, TopologyKind::Tri] {
            for w in 1..=13 {
                for h in [1, 2, 3, 6] {
                    let t = Topology::new(kind, w, h).unwrap();
                    let g = Grid::new(t.clone(), None).unwrap();
                    check_against_the_topology(&g, None);
                    let l = g.lattice().expect("rect, hex and tri are lattices");
                    for c in g.cells() {
                        let at = g.coord(c);
                        let exists = l.exists(at.row, at.col);
                        assert_eq!(exists.count_ones() as usize, g.neighbours(c).len());
                        assert_eq!(g.degree(c), g.neighbours(c).len());
                    }
                    if w * h > 1 {
                        let mut m = Mask::full(&t).unwrap();
                        m.set(Coord::new(h - 1, w - 1), false);
                        let masked = Grid::new(t, Some(&m)).unwrap();
                        check_against_the_topology(&masked, Some(&m));
                    }
                }
            }
        }
        let polar = Grid::new(Topology::new(TopologyKind::Polar, 5, 0).unwrap(), None).unwrap();
        assert!(polar.lattice().is_none());
        let t = t_rect(3, 2);
        let m = Mask::from_ascii(&t, "#.#\n###").unwrap();
        assert!(Grid::new(t, Some(&m)).unwrap().lattice().is_none());
    }

    #[test]
    fn an_unmasked_lattice_stores_no_slots_and_a_masked_grid_its_tables() {
        // issue #21: grid + maze under 24 bytes a cell; the maze adds 2. An unmasked grid (rect,
        // hex, tri, polar) computes its neighbours (a lattice from a byte a cell: its parity and
        // the edges it touches); a masked rect grid keeps 4 neighbour slots of 4
        // bytes, their 4 back slots, a degree byte and 8 bytes of id remap
        for kind in TopologyKind::ALL {
            let g = Grid::new(Topology::new(kind, 300, 200).unwrap(), None).unwrap();
            let want = if kind == TopologyKind::Polar {
                0.0
            } else {
                1.0
            };
            assert!(
                (g.bytes_per_cell() - want).abs() < 0.05,
                "{kind}: {}",
                g.bytes_per_cell()
            );
        }
        let t = t_rect(300, 200);
        let mut m = Mask::full(&t).unwrap();
        m.set(Coord::new(0, 0), false);
        let g = Grid::new(t, Some(&m)).unwrap();
        assert!(
            (g.bytes_per_cell() - 29.0).abs() < 0.05,
            "{}",
            g.bytes_per_cell()
        );
    }

    fn t_rect(w: u32, h: u32) -> Topology {
        Topology::new(TopologyKind::Rect, w, h).unwrap()
    }
}
