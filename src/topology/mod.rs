//! Topologies: the shapes of grid a maze can live on, and their geometry.
//!
//! A topology knows its full set of cells (addressed by [`Coord`]: row and column; ring and index
//! for polar), which cells touch, and what each cell looks like: its centre and its sides, in maze
//! units with y pointing down. Every topology is calibrated so a corridor is about one unit wide
//! (a rect cell is 1x1, a hex cell is 1 across its flats, a polar ring is 1 thick, a triangle's
//! incircle has diameter 1), so the print stage can scale any of them the same way.
//!
//! Which cells exist is not the topology's business: that is the mask's (see [`crate::grid`]).
//! Adding a topology is one new file implementing [`Tessellation`] and giving its registry entry
//! (a [`TopologyInfo`]: names, how it is sized and labelled, how many cells it has, how to make
//! it), one line in [`TOPOLOGIES`], and a variant in [`TopologyKind`] and [`Topology`]. Code
//! outside this module asks the registry (e.g. [`TopologyKind::uses_height`],
//! [`TopologyKind::size_label`]) instead of testing for a particular topology.

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};

pub mod hex;
pub mod polar;
pub mod rect;
pub mod tri;

pub use hex::Hex;
pub use polar::Polar;
pub use rect::Rect;
pub use tri::Tri;

/// A cell's address in its topology: row and column (for polar: ring and index in the ring).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Coord {
    /// Row from the top (polar: ring, 0 = the centre cell).
    pub row: u32,
    /// Column from the left (polar: index clockwise from 12 o'clock).
    pub col: u32,
}

impl Coord {
    /// `Coord { row, col }`.
    pub const fn new(row: u32, col: u32) -> Self {
        Coord { row, col }
    }
}

/// A cell of a grid: an index into its flat vectors (the grid's cells in row-major order of the
/// topology, those a mask switches off left out; see [`crate::grid`]). Defined here, beside
/// [`Coord`], so the topology can fill the grid's neighbour slots without importing the grid.
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

/// A point in maze units, y down.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Point {
    /// x, growing to the right.
    pub x: f64,
    /// y, growing downwards.
    pub y: f64,
}

impl Point {
    /// `Point { x, y }`.
    pub const fn new(x: f64, y: f64) -> Self {
        Point { x, y }
    }
}

/// A circular arc from a side's `a` to its `b`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Arc {
    /// The circle's centre.
    pub center: Point,
    /// The circle's radius.
    pub radius: f64,
    /// Whether the arc runs clockwise on screen (y down) from `a` to `b`.
    pub clockwise: bool,
}

impl Arc {
    /// The signed angle the arc sweeps from `a` to `b` (positive = clockwise on screen): more
    /// than none and at most a full turn (a full turn when `a` and `b` are the same point).
    pub fn sweep(&self, a: Point, b: Point) -> f64 {
        use std::f64::consts::TAU;
        let a0 = (a.y - self.center.y).atan2(a.x - self.center.x);
        let a1 = (b.y - self.center.y).atan2(b.x - self.center.x);
        let mut d = a1 - a0;
        if self.clockwise {
            while d <= 0.0 {
                d += TAU;
            }
            while d > TAU {
                d -= TAU;
            }
        } else {
            while d >= 0.0 {
                d -= TAU;
            }
            while d < -TAU {
                d += TAU;
            }
        }
        d
    }
}

/// One side of a cell: a straight segment or an arc from `a` to `b`, and the cell across it.
///
/// Sides run clockwise around their cell (on screen). `neighbour` is the cell on the other side in
/// the full topology, or `None` on the topology's outer edge; whether that cell exists in a given
/// maze is the mask's business.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Side {
    /// Start point.
    pub a: Point,
    /// End point.
    pub b: Point,
    /// `Some` when the side is an arc rather than a straight segment.
    pub arc: Option<Arc>,
    /// The cell across this side.
    pub neighbour: Option<Coord>,
}

/// The behaviour every topology provides. Cells are enumerated row by row, `cols(row)` per row.
pub trait Tessellation {
    /// Number of rows (polar: rings including the centre cell).
    fn rows(&self) -> u32;
    /// Number of cells in `row`.
    fn cols(&self, row: u32) -> u32;
    /// The cells that share a side with `c`, in a fixed order, appended to `out`.
    fn neighbours(&self, c: Coord, out: &mut Vec<Coord>);
    /// The sides of `c`, clockwise, appended to `out`. Their `neighbour`s are exactly
    /// [`Tessellation::neighbours`] (in any order), each once, plus `None` for outer-edge sides.
    fn sides(&self, c: Coord, out: &mut Vec<Side>);
    /// The centre of `c` (where a solution line passes).
    fn center(&self, c: Coord) -> Point;
    /// Width and height of the whole topology's bounding box; its top-left corner is (0, 0).
    fn extent(&self) -> (f64, f64);

    /// The rectangle (`x0`, `y0`, `x1`, `y1`) inside the extent that the whole topology's cells
    /// cover: every point of it lies in a cell (a single column of triangles, which covers no
    /// rectangle, keeps its extent). A shape is placed inside it (see
    /// [`crate::shape::fit::PixelMap`]), so the silhouette never runs where no cell is. The
    /// default is the whole extent; topologies whose cells leave a ragged margin along the box
    /// (hex: the zigzag of the outer columns and the half-cell step of alternate columns; tri:
    /// the half-triangles at the rows' ends; polar: the square inscribed in its disc) say less.
    fn covered(&self) -> (f64, f64, f64, f64) {
        let (w, h) = self.extent();
        (0.0, 0.0, w, h)
    }

    /// The most neighbours any cell has: how many neighbour slots the grid keeps per cell.
    /// The default is the grid's limit ([`MAX_DEGREE`]); topologies say less.
    fn max_degree(&self) -> usize {
        MAX_DEGREE
    }

    /// Writes the neighbours of every cell of `row` into `out` (see [`RowSlots`]) and returns
    /// whether it wrote their back slots too. The default asks [`Tessellation::neighbours`] cell
    /// by cell and leaves the back slots to the grid (which then finds them by search);
    /// topologies override it to compute both arithmetically, in one pass.
    fn fill_row(&self, row: u32, out: RowSlots<'_>) -> bool {
        fill_from_neighbours(self, row, out)
    }

    /// Whether every cell of the whole topology reaches every other through neighbours, known
    /// without a search (`false`: not known, the grid searches).
    fn known_connected(&self) -> bool {
        false
    }

    /// The topology's [`Lattice`], if its cells form one (rect, hex, tri; not polar).
    fn lattice(&self) -> Option<Lattice> {
        None
    }

    /// The narrowest passage a line through the cells meets, in maze units: the least of a
    /// door's width (a side shared by two cells, end to end) and a cell's own width where a
    /// corridor runs through it. This is what a crayon must get through, so page sizes for a
    /// corridor width are reckoned with it. The default is a unit square's: 1.
    fn passage(&self) -> f64 {
        1.0
    }

    /// Whether `c` lies on the topology's outer edge (one of its sides has no cell across).
    /// Topologies may override this with something cheaper than building the sides.
    fn on_edge(&self, c: Coord) -> bool {
        let mut sides = Vec::new();
        self.sides(c, &mut sides);
        sides.iter().any(|s| s.neighbour.is_none())
    }
}

/// The most neighbours a cell may have (so a cell's links fit in a `u16`).
pub const MAX_DEGREE: usize = 16;

/// The most neighbours a grid hands out for one cell (hex's and the polar centre's six, with
/// room to spare): what [`crate::grid::Neighbours`] holds, so a topology's
/// [`Tessellation::max_degree`] may not be above it.
pub const NEIGHBOURS_HELD: usize = 8;

/// Where [`Tessellation::fill_row`] writes the neighbours of one row's cells.
///
/// For the row's cell `col`, its neighbours in [`Tessellation::neighbours`] order go to
/// `nbrs[col * stride..]` as row-major indices into the whole topology (`row_start[row] + col`),
/// the slot this cell has in each neighbour's own list to the same places of `back`, and how many
/// there are to `degree[col]`.
pub struct RowSlots<'a> {
    /// Offsets of each row's first cell in row-major order (see [`crate::mask::row_starts`]).
    pub row_start: &'a [u32],
    /// Slots per cell ([`Tessellation::max_degree`]).
    pub stride: usize,
    /// The row's neighbour slots, `stride` per cell.
    pub nbrs: &'a mut [CellId],
    /// The back slots, beside `nbrs`.
    pub back: &'a mut [u8],
    /// The number of neighbours of each cell of the row.
    pub degree: &'a mut [u8],
}

/// [`Tessellation::fill_row`] through [`Tessellation::neighbours`], cell by cell, without back
/// slots (returns `false`).
pub(crate) fn fill_from_neighbours<T: Tessellation + ?Sized>(
    t: &T,
    row: u32,
    out: RowSlots<'_>,
) -> bool {
    let mut buf = Vec::with_capacity(MAX_DEGREE);
    for col in 0..t.cols(row) {
        buf.clear();
        t.neighbours(Coord::new(row, col), &mut buf);
        let base = col as usize * out.stride;
        for (s, n) in buf.iter().enumerate() {
            out.nbrs[base + s] = CellId(out.row_start[n.row as usize] + n.col);
        }
        out.degree[col as usize] = buf.len() as u8;
    }
    false
}

/// The most directions a [`Lattice`] cell has (hex's six).
pub const LATTICE_DEGREE: usize = 6;

/// The shape of a topology whose cells form a lattice (rect, hex, tri): `height` rows of `width`
/// cells, numbered row-major, where cell (r, c)'s neighbour in direction `d` is (r + dr, c + dc)
/// for the step (dr, dc) = `steps[parity][d]` of the cell's parity, whenever that cell is on the
/// grid. Neighbours are listed in direction order with the missing ones left out, so a
/// neighbour's slot for direction `d` is the number of its directions below `d`: back slots
/// need no search.
///
/// A cell's parity is that of its column (hex: odd columns sit lower) or of its row + column
/// (tri: up and down triangles); rect's two parities are alike. Steps move at most one column.
/// So two cells of a row two columns apart, both clear of the first and last two columns, have
/// the same neighbourhood shifted by two columns: the grid fills a row by computing the first
/// and last cells and repeating the pattern in between ([`fill_lattice`]), and the carvers walk
/// a padded board with one step table per parity instead of reading neighbour lists.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Lattice {
    /// Cells per row.
    pub width: u32,
    /// Rows.
    pub height: u32,
    /// Directions per cell (the grid's slots per cell).
    pub degree: usize,
    /// Whether a cell's parity is that of row + column (tri) rather than of the column.
    pub row_parity: bool,
    /// For each parity, the (row, column) step of each direction, in neighbour order.
    pub steps: [[(i32, i32); LATTICE_DEGREE]; 2],
}

impl Lattice {
    /// The parity of cell (`r`, `c`): which of [`Lattice::steps`] it takes.
    #[inline]
    pub fn parity(&self, r: u32, c: u32) -> usize {
        let r = if self.row_parity { r } else { 0 };
        ((r ^ c) & 1) as usize
    }

    /// Bit `d` set when cell (`r`, `c`) has a neighbour in direction `d`.
    #[inline]
    pub fn exists(&self, r: u32, c: u32) -> u16 {
        let steps = &self.steps[self.parity(r, c)];
        let mut bits = 0;
        for (d, &(dr, dc)) in steps.iter().enumerate().take(self.degree) {
            let (r2, c2) = (i64::from(r) + i64::from(dr), i64::from(c) + i64::from(dc));
            if r2 >= 0 && c2 >= 0 && r2 < i64::from(self.height) && c2 < i64::from(self.width) {
                bits |= 1 << d;
            }
        }
        bits
    }

    /// The direction from the neighbour in direction `d` of a cell of parity `parity` back to
    /// that cell.
    pub fn opposite(&self, parity: usize, d: usize) -> usize {
        let (dr, dc) = self.steps[parity][d];
        let other = parity ^ (dc & 1) as usize ^ usize::from(self.row_parity && dr & 1 != 0);
        (0..self.degree)
            .find(|&e| self.steps[other][e] == (-dr, -dc))
            .expect("lattice steps come in opposite pairs")
    }
}

/// A [`Lattice`]'s neighbour slots computed for one cell at a time, for grids that store none
/// (an unmasked lattice grid, see [`crate::grid::Grid`]): a cell's id is its row-major index,
/// its neighbours those of [`fill_lattice`], in the same order with the same back slots.
///
/// Every step moves at most one row and one column, so which directions a cell has depends
/// only on its parity and on which of the four edges it touches (its class): for each parity
/// and class, the id offsets of its neighbours in slot order, so a cell's list is its id plus a
/// row of that table, with no branch per neighbour. A cell's parity and class are kept in a byte
/// a cell, so a look-up needs neither its row nor its column; a back slot counts the directions
/// the neighbour (by its own byte) has before the one pointing back.
#[derive(Clone, Debug)]
pub(crate) struct LatticeSlots {
    width: u32,
    height: u32,
    row_parity: bool,
    /// Per parity and class: each slot's id offset (a negative step wraps), the number of
    /// slots, and each slot's direction.
    offsets: [[[u32; NEIGHBOURS_HELD]; 16]; 2],
    degree: [[u8; 16]; 2],
    direction: [[[u8; NEIGHBOURS_HELD]; 16]; 2],
    /// The directions a cell has, per parity and class.
    dirs: [[u16; 16]; 2],
    /// The direction back from the neighbour in each direction, per parity.
    opposite: [[u8; LATTICE_DEGREE]; 2],
    /// Each cell's parity (bit 0) and class (bits 1..5), one byte a cell: a look-up instead of
    /// finding its row and column, for the carvers that ask for neighbours at every step.
    cells: Vec<u8>,
}

impl LatticeSlots {
    /// The slots of `l`, or `None` when a step moves more than one row or column (no
    /// topology's does).
    #[allow(clippy::needless_range_loop)] // parities, classes and directions index five tables
    pub(crate) fn new(l: &Lattice) -> Option<Self> {
        let steps = l.steps;
        if steps
            .iter()
            .flatten()
            .any(|&(dr, dc)| dr.abs() > 1 || dc.abs() > 1)
            || l.degree > NEIGHBOURS_HELD
        {
            return None;
        }
        let mut s = LatticeSlots {
            width: l.width,
            height: l.height,
            row_parity: l.row_parity,
            offsets: [[[0; NEIGHBOURS_HELD]; 16]; 2],
            degree: [[0; 16]; 2],
            direction: [[[0; NEIGHBOURS_HELD]; 16]; 2],
            dirs: [[0; 16]; 2],
            opposite: [[0; LATTICE_DEGREE]; 2],
            cells: Vec::new(),
        };
        for p in 0..2 {
            for d in 0..l.degree {
                s.opposite[p][d] = l.opposite(p, d) as u8;
            }
            for class in 0..16 {
                let mut k = 0;
                for d in 0..l.degree {
                    let (dr, dc) = steps[p][d];
                    let off = (dr < 0 && class & 1 != 0)
                        || (dr > 0 && class & 2 != 0)
                        || (dc < 0 && class & 4 != 0)
                        || (dc > 0 && class & 8 != 0);
                    if !off {
                        s.dirs[p][class] |= 1 << d;
                        s.offsets[p][class][k] =
                            dr.wrapping_mul(l.width as i32).wrapping_add(dc) as u32;
                        s.direction[p][class][k] = d as u8;
                        k += 1;
                    }
                }
                s.degree[p][class] = k as u8;
            }
        }
        // a row's cells repeat two columns on, away from its first and last column, and the
        // rows repeat two rows on, away from the first and last row (copied whole, at memory
        // speed)
        let (w, h) = (l.width as usize, l.height as usize);
        s.cells = Vec::with_capacity(w * h);
        for r in 0..l.height {
            let start = s.cells.len();
            if r >= 3 && r + 1 < l.height {
                s.cells.extend_from_within(start - 2 * w..start - w);
                continue;
            }
            for c in 0..l.width {
                let byte = if c >= 3 && c + 1 < l.width {
                    s.cells[start + c as usize - 2]
                } else {
                    let (p, class) = s.at(r, c);
                    (p | class << 1) as u8
                };
                s.cells.push(byte);
            }
        }
        Some(s)
    }

    /// The parity and class of cell `id`.
    #[inline(always)]
    pub(crate) fn of(&self, id: u32) -> (usize, usize) {
        let k = usize::from(self.cells[id as usize]);
        (k & 1, k >> 1)
    }

    /// The number of cells.
    pub(crate) fn len(&self) -> usize {
        self.width as usize * self.height as usize
    }

    /// The bytes it holds: its tables and a byte a cell.
    pub(crate) fn bytes(&self) -> usize {
        std::mem::size_of::<Self>() + self.cells.len()
    }

    /// The parity and class of cell (`r`, `c`).
    #[inline]
    fn at(&self, r: u32, c: u32) -> (usize, usize) {
        let p = (((if self.row_parity { r } else { 0 }) ^ c) & 1) as usize;
        let class = usize::from(r == 0)
            | usize::from(r + 1 == self.height) << 1
            | usize::from(c == 0) << 2
            | usize::from(c + 1 == self.width) << 3;
        (p, class)
    }

    /// Cell `id`'s neighbours, written to the start of `out` (the rest is garbage); returns how
    /// many.
    #[inline(always)]
    pub(crate) fn fill(&self, id: u32, out: &mut [CellId; NEIGHBOURS_HELD]) -> usize {
        let (p, class) = self.of(id);
        for (o, &off) in out.iter_mut().zip(&self.offsets[p][class]) {
            *o = CellId(id.wrapping_add(off));
        }
        usize::from(self.degree[p][class])
    }

    /// How many neighbours a cell of parity `p` and class `class` has (see [`LatticeSlots::of`]).
    #[inline(always)]
    pub(crate) fn degree_in(&self, p: usize, class: usize) -> usize {
        usize::from(self.degree[p][class])
    }

    /// The neighbour in slot `slot` of cell `id`, of parity `p` and class `class`.
    #[inline(always)]
    pub(crate) fn neighbour_in(&self, id: u32, p: usize, class: usize, slot: usize) -> CellId {
        debug_assert!(
            slot < self.degree_in(p, class),
            "cell {id} has no slot {slot}"
        );
        CellId(id.wrapping_add(self.offsets[p][class][slot]))
    }

    /// The neighbour in slot `slot` of cell `id`, of parity `p` and class `class`, and the slot
    /// of `id` in that neighbour's list (from the neighbour's byte: its parity and class).
    #[inline(always)]
    pub(crate) fn neighbour_and_back_in(
        &self,
        id: u32,
        p: usize,
        class: usize,
        slot: usize,
    ) -> (CellId, usize) {
        let nb = self.neighbour_in(id, p, class, slot);
        let d = usize::from(self.direction[p][class][slot]);
        let (p2, class2) = self.of(nb.0);
        let o = self.opposite[p][d];
        let back = (self.dirs[p2][class2] & ((1 << o) - 1)).count_ones() as usize;
        (nb, back)
    }
}

/// [`Tessellation::fill_row`] for a [`Lattice`] of `D` directions (always returns `true`: the
/// back slots are written).
///
/// The first four and the last two cells of the row are computed direction by direction; every
/// cell between them repeats the cell two columns to its left, shifted by two (see [`Lattice`]):
/// a few stores a cell.
#[allow(clippy::needless_range_loop)] // the two pattern cells index three arrays
pub(crate) fn fill_lattice<const D: usize>(l: &Lattice, row: u32, out: RowSlots<'_>) -> bool {
    debug_assert!(out.stride == D && l.degree == D && D <= LATTICE_DEGREE);
    debug_assert!(l.steps.iter().flatten().all(|&(_, dc)| dc.abs() <= 1));
    let w = l.width;
    let here = row * w;
    let mut opposite = [[0u8; D]; 2];
    for (parity, o) in opposite.iter_mut().enumerate() {
        for (d, o) in o.iter_mut().enumerate() {
            *o = l.opposite(parity, d) as u8;
        }
    }
    let mut one = |col: u32| {
        let base = col as usize * D;
        let steps = &l.steps[l.parity(row, col)];
        let mut dirs = l.exists(row, col);
        let mut s = 0;
        while dirs != 0 {
            let d = dirs.trailing_zeros() as usize;
            dirs &= dirs - 1;
            let (r, c) = (
                row.wrapping_add_signed(steps[d].0),
                col.wrapping_add_signed(steps[d].1),
            );
            let o = opposite[l.parity(row, col)][d];
            out.nbrs[base + s] = CellId(r * w + c);
            out.back[base + s] = (l.exists(r, c) & ((1 << o) - 1)).count_ones() as u8;
            s += 1;
        }
        out.degree[col as usize] = s as u8;
    };
    // cells 4..w - 2 repeat the pattern of cells 2 and 3
    let (lo, hi) = (4.min(w), w.saturating_sub(2).max(4.min(w)));
    (0..lo).for_each(&mut one);
    (hi..w).for_each(&mut one);
    if lo == hi {
        return true;
    }
    let mut offset = [[0u32; D]; 2];
    let mut back = [[0u8; D]; 2];
    let mut degree = [0u8; 2];
    for k in 0..2 {
        let col = 2 + k;
        let cell = &out.nbrs[col * D..col * D + D];
        for (o, n) in offset[k].iter_mut().zip(cell) {
            *o = n.0.wrapping_sub(here + col as u32);
        }
        back[k].copy_from_slice(&out.back[col * D..col * D + D]);
        degree[k] = out.degree[col];
    }
    let (lo, hi) = (lo as usize, hi as usize);
    let cells = out.nbrs[lo * D..hi * D]
        .chunks_exact_mut(D)
        .zip(out.back[lo * D..hi * D].chunks_exact_mut(D))
        .zip(&mut out.degree[lo..hi]);
    for (col, ((nbrs, backs), deg)) in (lo..hi).zip(cells) {
        let (k, own) = (col & 1, here + col as u32);
        for (n, &o) in nbrs.iter_mut().zip(&offset[k]) {
            *n = CellId(own.wrapping_add(o));
        }
        backs.copy_from_slice(&back[k]);
        *deg = degree[k];
    }
    true
}

/// The kinds of topology, as named in designs and on the command line.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
#[serde(rename_all = "kebab-case")]
pub enum TopologyKind {
    /// Square cells, 4 neighbours.
    #[default]
    Rect,
    /// Flat-topped hexagons, 6 neighbours.
    Hex,
    /// Concentric rings around a centre cell.
    Polar,
    /// Alternating up and down triangles, 3 neighbours.
    Tri,
}

/// A registry entry: a topology kind and what is special about it. See [`TOPOLOGIES`].
pub struct TopologyInfo {
    /// The kind.
    pub kind: TopologyKind,
    /// The name in files and on the command line (as serde writes the kind).
    pub name: &'static str,
    /// One line for menus and help.
    pub summary: &'static str,
    /// Whether the grid has a height of its own. Polar grids do not: their width is the number
    /// of rings and the height is ignored.
    pub uses_height: bool,
    /// What the width knob is called for people ("Width", or "Rings" for polar).
    pub width_label: &'static str,
    /// The grid's size for messages and lists (e.g. "20 x 15", or "12 rings" for polar).
    pub size_label: fn(u32, u32) -> String,
    /// Roughly how many cells a `width` x `height` grid has (without building it).
    pub estimated_cells: fn(u32, u32) -> u64,
    /// The topology `width` x `height` (sizes already checked).
    pub make: fn(u32, u32) -> Topology,
}

/// The size label of a grid with a width and a height: "20 x 15".
pub fn width_by_height(width: u32, height: u32) -> String {
    format!("{width} x {height}")
}

/// Every topology, in menu order ([`TopologyKind::ALL`]'s).
pub const TOPOLOGIES: &[TopologyInfo] = &[rect::INFO, hex::INFO, polar::INFO, tri::INFO];

impl TopologyKind {
    /// All kinds, in menu order.
    pub const ALL: [TopologyKind; 4] = [
        TopologyKind::Rect,
        TopologyKind::Hex,
        TopologyKind::Polar,
        TopologyKind::Tri,
    ];

    /// The registry entry for this kind.
    pub fn info(self) -> &'static TopologyInfo {
        TOPOLOGIES
            .iter()
            .find(|t| t.kind == self)
            .expect("every topology is registered")
    }

    /// The name used in files and on the command line.
    pub fn name(self) -> &'static str {
        self.info().name
    }

    /// Whether the grid has a height of its own (not polar: its width is the rings).
    pub fn uses_height(self) -> bool {
        self.info().uses_height
    }

    /// The grid's size for messages and lists: "20 x 15", or "12 rings" for polar.
    pub fn size_label(self, width: u32, height: u32) -> String {
        (self.info().size_label)(width, height)
    }

    /// Roughly how many cells a `width` x `height` grid of this kind has.
    pub fn estimated_cells(self, width: u32, height: u32) -> u64 {
        (self.info().estimated_cells)(width, height)
    }
}

impl std::fmt::Display for TopologyKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for TopologyKind {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self> {
        TOPOLOGIES
            .iter()
            .find(|t| t.name == s)
            .map(|t| t.kind)
            .ok_or_else(|| {
                let names: Vec<&str> = TOPOLOGIES.iter().map(|t| t.name).collect();
                let (last, rest) = names.split_last().expect("topologies are registered");
                Error::option(format!(
                    "unknown topology '{s}' (use {} or {last})",
                    rest.join(", ")
                ))
            })
    }
}

/// The largest width or height accepted (cells, or rings for polar).
pub const MAX_SIDE: u32 = 20_000;

/// A concrete topology with its size.
#[derive(Clone, Debug, PartialEq)]
pub enum Topology {
    /// See [`Rect`].
    Rect(Rect),
    /// See [`Hex`].
    Hex(Hex),
    /// See [`Polar`].
    Polar(Polar),
    /// See [`Tri`].
    Tri(Tri),
}

impl Topology {
    /// A `kind` topology `width` cells across and `height` down. For kinds without a height
    /// ([`TopologyKind::uses_height`]: polar, whose `width` is the number of rings, the centre
    /// cell counting as the first) `height` is ignored.
    pub fn new(kind: TopologyKind, width: u32, height: u32) -> Result<Self> {
        let check = |name: &str, v: u32| {
            if v == 0 || v > MAX_SIDE {
                Err(Error::option(format!(
                    "{name} must be between 1 and {MAX_SIDE}, got {v}"
                )))
            } else {
                Ok(())
            }
        };
        check("width", width)?;
        let info = kind.info();
        if info.uses_height {
            check("height", height)?;
        }
        Ok((info.make)(width, height))
    }

    /// The kind of this topology.
    pub fn kind(&self) -> TopologyKind {
        match self {
            Topology::Rect(_) => TopologyKind::Rect,
            Topology::Hex(_) => TopologyKind::Hex,
            Topology::Polar(_) => TopologyKind::Polar,
            Topology::Tri(_) => TopologyKind::Tri,
        }
    }

    /// The topology as a trait object, for code that works on any of them.
    pub fn tess(&self) -> &dyn Tessellation {
        match self {
            Topology::Rect(t) => t,
            Topology::Hex(t) => t,
            Topology::Polar(t) => t,
            Topology::Tri(t) => t,
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    #[test]
    fn the_registry_has_every_kind_once_in_menu_order() {
        let kinds: Vec<TopologyKind> = TOPOLOGIES.iter().map(|t| t.kind).collect();
        assert_eq!(kinds, TopologyKind::ALL);
        for kind in TopologyKind::ALL {
            assert_eq!(kind.name().parse::<TopologyKind>().unwrap(), kind);
            // the name is the one serde writes
            assert_eq!(
                serde_json::to_string(&kind).unwrap(),
                format!("\"{}\"", kind.name())
            );
            let t = Topology::new(kind, 5, 4).unwrap();
            assert_eq!(t.kind(), kind);
        }
        let e = "square".parse::<TopologyKind>().unwrap_err();
        assert!(
            e.message.contains("use rect, hex, polar or tri"),
            "{}",
            e.message
        );
        assert_eq!(TopologyKind::Polar.size_label(12, 3), "12 rings");
        assert_eq!(TopologyKind::Hex.size_label(20, 15), "20 x 15");
        assert!(!TopologyKind::Polar.uses_height());
        assert!(TopologyKind::Tri.uses_height());
        assert_eq!(TopologyKind::Polar.info().width_label, "Rings");
        assert_eq!(TopologyKind::Polar.estimated_cells(10, 99), 400);
        assert_eq!(TopologyKind::Tri.estimated_cells(10, 5), 100);
    }

    /// Checks the [`Tessellation`] contract on every cell: neighbours in range and symmetric,
    /// sides clockwise and consistent with neighbours, shared sides have the same end points.
    pub fn check_contract(t: &dyn Tessellation) {
        let mut nb = Vec::new();
        let mut nb2 = Vec::new();
        let mut sides = Vec::new();
        let (w, h) = t.extent();
        for row in 0..t.rows() {
            for col in 0..t.cols(row) {
                let c = Coord::new(row, col);
                nb.clear();
                t.neighbours(c, &mut nb);
                assert!(nb.len() <= 16, "{c:?} has {} neighbours", nb.len());
                let mut sorted = nb.clone();
                sorted.sort();
                sorted.dedup();
                assert_eq!(sorted.len(), nb.len(), "duplicate neighbour of {c:?}");
                for &n in &nb {
                    assert!(
                        n.row < t.rows() && n.col < t.cols(n.row),
                        "{n:?} out of range"
                    );
                    nb2.clear();
                    t.neighbours(n, &mut nb2);
                    assert!(nb2.contains(&c), "{n:?} does not list {c:?} back");
                }
                sides.clear();
                t.sides(c, &mut sides);
                let mut from_sides: Vec<Coord> = sides.iter().filter_map(|s| s.neighbour).collect();
                from_sides.sort();
                assert_eq!(
                    from_sides, sorted,
                    "sides of {c:?} disagree with neighbours"
                );
                // closed outline
                for i in 0..sides.len() {
                    let next = sides[(i + 1) % sides.len()];
                    let d = (sides[i].b.x - next.a.x).hypot(sides[i].b.y - next.a.y);
                    assert!(d < 1e-9, "outline of {c:?} is not closed at side {i}");
                }
                let ctr = t.center(c);
                assert!(ctr.x >= 0.0 && ctr.x <= w && ctr.y >= 0.0 && ctr.y <= h);
                for s in &sides {
                    for p in [s.a, s.b] {
                        assert!(p.x >= -1e-9 && p.x <= w + 1e-9 && p.y >= -1e-9 && p.y <= h + 1e-9);
                    }
                    // a shared side appears reversed in the neighbour's outline
                    if let Some(n) = s.neighbour {
                        let mut ns = Vec::new();
                        t.sides(n, &mut ns);
                        let back = ns.iter().find(|o| {
                            o.neighbour == Some(c)
                                && (o.a.x - s.b.x).hypot(o.a.y - s.b.y) < 1e-9
                                && (o.b.x - s.a.x).hypot(o.b.y - s.a.y) < 1e-9
                        });
                        assert!(
                            back.is_some(),
                            "side {c:?}->{n:?} has no matching reverse side"
                        );
                    }
                }
            }
        }
    }

    /// Checks [`Tessellation::covered`]: a rectangle of some area inside the extent, every point
    /// of which (a 17 x 17 lattice, edges included) lies in a cell or on its outline (arcs
    /// flattened within 0.01 unit).
    pub fn check_covered(t: &dyn Tessellation) {
        let (w, h) = t.extent();
        let (x0, y0, x1, y1) = t.covered();
        assert!(
            x0 >= -1e-9 && y0 >= -1e-9 && x1 <= w + 1e-9 && y1 <= h + 1e-9 && x1 > x0 && y1 > y0,
            "covered box {:?} in extent {:?}",
            (x0, y0, x1, y1),
            (w, h)
        );
        let mut polys = Vec::new();
        let mut sides = Vec::new();
        for row in 0..t.rows() {
            for col in 0..t.cols(row) {
                sides.clear();
                t.sides(Coord::new(row, col), &mut sides);
                let mut poly = Vec::new();
                crate::shape::fit::flatten(&sides, &mut poly);
                polys.push(poly);
            }
        }
        let n = 16;
        for i in 0..=n {
            for j in 0..=n {
                let q = Point::new(
                    x0 + (x1 - x0) * f64::from(j) / f64::from(n),
                    y0 + (y1 - y0) * f64::from(i) / f64::from(n),
                );
                let inside = polys.iter().any(|poly| {
                    let mut odd = false;
                    let mut near = false;
                    for k in 0..poly.len() {
                        let (a, b) = (poly[k], poly[(k + 1) % poly.len()]);
                        if (a.y <= q.y) != (b.y <= q.y)
                            && a.x + (q.y - a.y) * (b.x - a.x) / (b.y - a.y) > q.x
                        {
                            odd = !odd;
                        }
                        let (dx, dy) = (b.x - a.x, b.y - a.y);
                        let l2 = (dx * dx + dy * dy).max(1e-18);
                        let u = (((q.x - a.x) * dx + (q.y - a.y) * dy) / l2).clamp(0.0, 1.0);
                        near |= (q.x - a.x - dx * u).hypot(q.y - a.y - dy * u) < 0.011;
                    }
                    odd || near
                });
                assert!(inside, "{q:?} of the covered box is in no cell");
            }
        }
    }
}
