//! The polar topology: concentric rings of cells around a single centre cell.
//!
//! Ring 0 is one round centre cell (radius 0 to 1); ring r >= 1 spans radius r to r + 1, so every
//! ring is one corridor wide. Ring sizes follow *Mazes for Programmers*: ring 0 has 1 cell, and
//! ring r >= 1 has `counts[r - 1] * ratio` cells with
//! `ratio = max(1, floor(2 pi r / counts[r - 1]))`: a ring splits its cells only where the
//! halves are still at least a corridor wide, so no door between rings is narrower than a
//! ring is wide (cells are 1 to 2 units along their ring): 1, 6, 12, 12, 24, 24, 24, 24, 48, ...
//! (*Mazes for Programmers* rounds, which splits a ring of 1.5-unit cells into 0.75-unit ones:
//! doors three quarters of a corridor wide, the narrowest passage a crayon met on a polar page.)
//!
//! A cell's address is (ring, index): `Coord::row` is the ring and `Coord::col` the index. Cell
//! (r, c) of a ring of n cells covers the angles 2 pi c / n to 2 pi (c + 1) / n, measured
//! clockwise from 12 o'clock on screen: the point at radius rho and angle theta is
//! (cx + rho sin theta, cy - rho cos theta), with the disc centre (cx, cy) = (rings, rings).
//!
//! Every boundary angle is computed from the same (index, ring size) pair wherever it is used, so
//! a side shared by two cells has bit-identical end points in both.

use super::CellId;
use std::f64::consts::PI;

use super::{
    Arc, Coord, Point, RowSlots, Side, Tessellation, Topology, TopologyInfo, TopologyKind,
    fill_from_neighbours,
};

/// The registry entry of the polar topology (see [`super::TOPOLOGIES`]).
pub const INFO: TopologyInfo = TopologyInfo {
    kind: TopologyKind::Polar,
    name: "polar",
    summary: "concentric rings around a centre cell",
    uses_height: false,
    width_label: "Rings",
    size_label: rings_label,
    estimated_cells: // rings double their cell count as they grow: about 2 pi r cells in ring r
    |w, _| 4 * u64::from(w) * u64::from(w),
    make: |w, _| Topology::Polar(Polar::new(w)),
};

/// The size label of a polar grid: "12 rings" (the height is ignored).
fn rings_label(rings: u32, _height: u32) -> String {
    format!("{rings} ring{}", if rings == 1 { "" } else { "s" })
}

/// Concentric rings around a centre cell; see the module documentation for the layout.
///
/// Neighbour order for a ring cell (r, c), r >= 1: inward (r - 1, c / ratio), clockwise
/// (r, c + 1), counter-clockwise (r, c - 1) (indices wrap), then the outward cells in clockwise
/// order (none on the last ring). The centre cell's neighbours are the ring-1 cells in order.
///
/// Sides run clockwise starting with the inner side: the inner arc (from the cell's clockwise
/// edge back to its counter-clockwise edge), the counter-clockwise radial segment (outwards), one
/// outer arc per outward neighbour in clockwise order (a single outer arc with neighbour `None` on
/// the last ring), then the clockwise radial segment (inwards). The centre cell's outline is one
/// arc per ring-1 cell; with a single ring it is two half circles with neighbour `None`.
#[derive(Clone, Debug, PartialEq)]
pub struct Polar {
    rings: u32,
    counts: Vec<u32>,
    /// [`Polar::ratio`] of each ring and of the ring outside the disc (0), so that looking it up
    /// takes no division.
    ratios: Vec<u32>,
}

impl Polar {
    /// A disc of `rings` rings, the centre cell counting as the first.
    pub fn new(rings: u32) -> Self {
        let mut counts: Vec<u32> = Vec::with_capacity(rings as usize);
        for r in 0..rings {
            let n = match counts.last() {
                None => 1,
                Some(&prev) => {
                    let width = 2.0 * PI * f64::from(r) / f64::from(prev);
                    // A ring is 1 unit thick: split only into cells at least 1 unit wide.
                    let ratio = libm::floor(width).max(1.0) as u32;
                    prev.saturating_mul(ratio)
                }
            };
            counts.push(n);
        }
        Self::from_counts(counts)
    }

    /// A disc of rings of `counts` cells, the centre first (each a multiple of the one inside).
    fn from_counts(counts: Vec<u32>) -> Self {
        let ratios = (0..=counts.len())
            .map(|r| match r {
                0 => 0,
                _ => counts.get(r).copied().unwrap_or(0) / counts[r - 1].max(1),
            })
            .collect();
        Polar {
            rings: counts.len() as u32,
            counts,
            ratios,
        }
    }

    /// Number of rings, the centre cell counting as the first.
    pub fn rings(&self) -> u32 {
        self.rings
    }

    /// Number of cells in each ring, the centre first.
    pub fn counts(&self) -> &[u32] {
        &self.counts
    }

    /// Cells in ring `r` (0 outside the disc).
    fn count(&self, r: u32) -> u32 {
        self.counts.get(r as usize).copied().unwrap_or(0)
    }

    /// How many cells of ring `r` sit outside each cell of ring `r - 1` (0 outside the disc).
    fn ratio(&self, r: u32) -> u32 {
        self.ratios.get(r as usize).copied().unwrap_or(0)
    }

    /// Whether `c` is a cell of this disc.
    fn contains(&self, c: Coord) -> bool {
        c.col < self.count(c.row)
    }

    /// The angle of the edge between cells `i - 1` and `i` of a ring of `n` cells.
    fn angle(i: u32, n: u32) -> f64 {
        let i = if n == 0 { 0 } else { i % n };
        2.0 * PI * f64::from(i) / f64::from(n.max(1))
    }

    /// The annular sector cell `c` covers: inner and outer radius, and the angle (clockwise from
    /// 12 o'clock) where it starts and how far it turns. The centre cell is the whole disc of
    /// radius 1 (inner radius 0, a full turn).
    pub fn sector(&self, c: Coord) -> (f64, f64, f64, f64) {
        if c.row == 0 {
            return (0.0, 1.0, 0.0, 2.0 * PI);
        }
        let n = self.count(c.row).max(1);
        let step = 2.0 * PI / f64::from(n);
        (
            f64::from(c.row),
            f64::from(c.row) + 1.0,
            Self::angle(c.col, n),
            step,
        )
    }

    /// The disc centre: the point at radius `rho` and angle `theta` is
    /// (`x + rho sin theta`, `y - rho cos theta`).
    pub fn origin(&self) -> Point {
        let r = f64::from(self.rings);
        Point::new(r, r)
    }

    /// The point at radius `rho` and angle `theta` (clockwise from 12 o'clock).
    fn at(&self, rho: f64, theta: f64) -> Point {
        let o = self.origin();
        Point::new(o.x + rho * libm::sin(theta), o.y - rho * libm::cos(theta))
    }

    /// An arc of radius `rho` around the disc centre from angle `from` to angle `to`.
    fn arc(&self, rho: f64, from: f64, to: f64, clockwise: bool, n: Option<Coord>) -> Side {
        Side {
            a: self.at(rho, from),
            b: self.at(rho, to),
            arc: Some(Arc {
                center: self.origin(),
                radius: rho,
                clockwise,
            }),
            neighbour: n,
        }
    }

    /// The neighbours of cell (`row`, `col`) and their back slots, as [`Tessellation::fill_row`]
    /// writes them for that cell (with the back slots the grid finds by search for the rows it
    /// leaves them out of): the same order, the same slots, the same degree, which it returns.
    /// Ids are row-major indices, `row_start[row] + col` (`row_start` as from
    /// [`crate::mask::row_starts`]). Arithmetic only: no allocation and, on the rings
    /// [`Polar::new`] makes, one division (by the ring's ratio).
    #[inline(always)] // a walk's hot loop (a plain hint left it a call there)
    pub(crate) fn cell_slots(
        &self,
        row_start: &[u32],
        row: u32,
        col: u32,
        nbrs: &mut [CellId],
        back: &mut [u8],
    ) -> usize {
        if row == 0 {
            // the centre lists ring 1 in order, and is each one's inward neighbour (slot 0)
            let n1 = self.count(1) as usize;
            let first = row_start.get(1).copied().unwrap_or(0);
            for (j, (nb, b)) in nbrs[..n1].iter_mut().zip(&mut back[..n1]).enumerate() {
                *nb = CellId(first + j as u32);
                *b = 0;
            }
            return n1;
        }
        let (n, inner_n) = (self.count(row), self.count(row - 1));
        let ratio = self.ratio(row).max(1);
        // ratios are 1 or 2 beyond ring 1 (whose inward cell is the centre): no division
        let parent = if ratio.is_power_of_two() {
            col >> ratio.trailing_zeros()
        } else {
            col / ratio
        };
        nbrs[0] = CellId(row_start[row as usize - 1] + parent);
        // where this cell sits in its inward cell's list: the centre lists ring 1 in order; a
        // ring cell lists inward, clockwise and counter-clockwise (as far as they are distinct
        // cells: one of them on a ring of two, none on a ring of one), then its outward cells
        back[0] = if row == 1 {
            col
        } else {
            inner_n.min(3) + col - parent * ratio
        } as u8;
        let here = row_start[row as usize];
        let mut degree = 1;
        if n >= 2 {
            nbrs[1] = CellId(here + if col + 1 == n { 0 } else { col + 1 });
            back[1] = if n == 2 { 1 } else { 2 };
            degree = 2;
        }
        if n >= 3 {
            nbrs[2] = CellId(here + if col == 0 { n - 1 } else { col - 1 });
            back[2] = 1;
            degree = 3;
        }
        let k = self.ratio(row + 1) as usize;
        let first = row_start.get(row as usize + 1).copied().unwrap_or(0) + col * k as u32;
        let outs = degree..degree + k;
        for (j, (nb, b)) in nbrs[outs.clone()]
            .iter_mut()
            .zip(&mut back[outs])
            .enumerate()
        {
            *nb = CellId(first + j as u32);
            *b = 0;
        }
        degree + k
    }

    /// How many neighbours a cell of ring `row` has: what [`Polar::cell_slots`] returns for it.
    #[inline(always)]
    pub(crate) fn cell_degree(&self, row: u32) -> usize {
        if row == 0 {
            return self.count(1) as usize;
        }
        1 + self.count(row).saturating_sub(1).min(2) as usize + self.ratio(row + 1) as usize
    }

    /// The ring and column of the neighbour in slot `slot` of cell (`row`, `col`) (the cell of
    /// [`Polar::cell_slot`], as a coordinate). Every candidate is computed and one is selected,
    /// without a branch on the slot: a random walk's slots are unpredictable.
    #[inline(always)]
    pub(crate) fn cell_step(&self, row: u32, col: u32, slot: usize) -> (u32, u32) {
        let slot = slot as u32;
        if row == 0 {
            return (1, slot);
        }
        let n = self.count(row);
        let sideways = n.saturating_sub(1).min(2);
        let ratio = self.ratio(row).max(1);
        let parent = if ratio.is_power_of_two() {
            col >> ratio.trailing_zeros()
        } else {
            col / ratio
        };
        let clockwise = if col + 1 == n { 0 } else { col + 1 };
        let counter = if col == 0 { n.wrapping_sub(1) } else { col - 1 };
        let outward = (col * self.ratio(row + 1)).wrapping_add(slot.wrapping_sub(1 + sideways));
        let (inward, out) = (slot == 0, slot > sideways);
        let side = if slot == 1 { clockwise } else { counter };
        let c2 = if inward {
            parent
        } else if out {
            outward
        } else {
            side
        };
        (row + u32::from(out) - u32::from(inward), c2)
    }

    /// Slot `slot` of cell (`row`, `col`) as [`Polar::cell_slots`] writes it: the neighbour and
    /// its back slot, computed for that slot alone (`slot` below [`Polar::cell_degree`]).
    #[inline(always)]
    pub(crate) fn cell_slot(
        &self,
        row_start: &[u32],
        row: u32,
        col: u32,
        slot: usize,
    ) -> (CellId, u8) {
        let (r2, c2) = self.cell_step(row, col, slot);
        // as in `cell_slots`: outward cells (and the centre's) list this one first; an inward
        // cell lists it after its own inward and sideways slots; clockwise lists it second
        // (first on a ring of two), counter-clockwise third
        let back = if row == 0 || r2 > row {
            0
        } else if r2 < row {
            if row == 1 {
                col
            } else {
                self.count(row - 1).min(3) + col - c2 * self.ratio(row).max(1)
            }
        } else if slot == 2 || self.count(row) == 2 {
            1
        } else {
            2
        };
        (CellId(row_start[r2 as usize] + c2), back as u8)
    }

    /// The outward neighbours of ring cell `c`: the cells of ring `c.row + 1` it touches.
    fn outward(&self, c: Coord) -> impl Iterator<Item = Coord> + use<> {
        let k = self.ratio(c.row + 1);
        let row = c.row + 1;
        let first = c.col.saturating_mul(k);
        (0..k).map(move |j| Coord::new(row, first + j))
    }
}

/// One ring r >= 1 of at least 3 cells, under a ring (or the centre) of at least 3, as
/// [`Tessellation::fill_row`] fills it: the whole ring in one pass, by counters rather than
/// divisions (cell `c` sits under inward cell `c / ratio`, as the `c % ratio`th of its outward
/// cells).
struct Ring {
    /// Cells in the ring.
    n: u32,
    /// Cells of this ring outside each cell of the ring inside.
    ratio: u32,
    /// Whether the ring inside is the centre cell.
    first_ring: bool,
    /// Row-major index of the first cell of the ring inside, of this ring, of the ring outside.
    inner: u32,
    here: u32,
    next: u32,
}

impl Ring {
    /// Writes the ring's slots when each cell has `K` outward neighbours.
    fn fill<const K: usize>(&self, out: RowSlots<'_>) {
        let stride = out.stride;
        assert!(stride >= 3 + K, "a ring cell has 3 + {K} neighbours");
        let n = self.n;
        let (mut parent, mut j) = (0u32, 0u32);
        let cells = out
            .nbrs
            .chunks_exact_mut(stride)
            .zip(out.back.chunks_exact_mut(stride));
        for (c, (nbrs, back)) in (0..n).zip(cells) {
            let (nbrs, back) = (&mut nbrs[..3 + K], &mut back[..3 + K]);
            nbrs[0] = CellId(self.inner + parent);
            nbrs[1] = CellId(self.here + if c + 1 == n { 0 } else { c + 1 });
            nbrs[2] = CellId(self.here + if c == 0 { n - 1 } else { c - 1 });
            // in the inward cell's list: the centre lists ring 1 in order; a ring cell lists
            // inward, clockwise, counter-clockwise, then its outward cells
            back[0] = if self.first_ring {
                c as u8
            } else {
                3 + j as u8
            };
            back[1] = 2;
            back[2] = 1;
            let first = self.next + c * K as u32;
            for s in 0..K {
                nbrs[3 + s] = CellId(first + s as u32);
                back[3 + s] = 0;
            }
            j += 1;
            if j == self.ratio {
                (parent, j) = (parent + 1, 0);
            }
        }
        out.degree[..n as usize].fill(3 + K as u8);
    }

    /// [`Ring::fill`] for any number of outward neighbours (not made by [`Polar::new`]).
    fn fill_any(&self, outward: u32, out: RowSlots<'_>) {
        let (n, stride) = (self.n, out.stride);
        for c in 0..n {
            let base = c as usize * stride;
            let parent = c / self.ratio;
            let back_in = if self.first_ring {
                c
            } else {
                3 + c - parent * self.ratio
            };
            out.nbrs[base] = CellId(self.inner + parent);
            out.back[base] = back_in as u8;
            out.nbrs[base + 1] = CellId(self.here + (c + 1) % n);
            out.back[base + 1] = 2;
            out.nbrs[base + 2] = CellId(self.here + (c + n - 1) % n);
            out.back[base + 2] = 1;
            for j in 0..outward {
                out.nbrs[base + 3 + j as usize] = CellId(self.next + c * outward + j);
                out.back[base + 3 + j as usize] = 0;
            }
            out.degree[c as usize] = (3 + outward) as u8;
        }
    }
}

impl Tessellation for Polar {
    /// The narrowest door: a ring cell's inner arc, end to end (where a ring splits its cells,
    /// about 0.78 of a ring's width), or a ring's width (a door between two cells of a ring).
    fn passage(&self) -> f64 {
        (1..self.rings)
            .map(|r| {
                let n = f64::from(self.count(r).max(1));
                2.0 * f64::from(r) * libm::sin(PI / n)
            })
            .fold(1.0, f64::min)
    }

    fn rows(&self) -> u32 {
        self.rings
    }

    fn cols(&self, row: u32) -> u32 {
        self.count(row)
    }

    fn neighbours(&self, c: Coord, out: &mut Vec<Coord>) {
        if !self.contains(c) {
            return;
        }
        if c.row == 0 {
            out.extend((0..self.count(1)).map(|i| Coord::new(1, i)));
            return;
        }
        let n = self.count(c.row);
        out.push(Coord::new(c.row - 1, c.col / self.ratio(c.row).max(1)));
        let cw = Coord::new(c.row, (c.col + 1) % n);
        let ccw = Coord::new(c.row, (c.col + n - 1) % n);
        // A ring of one or two cells would make these coincide with c or each other; the ring
        // sizes rule that out (ring 1 has 6 cells), but stay safe for any counts.
        if cw != c {
            out.push(cw);
        }
        if ccw != c && ccw != cw {
            out.push(ccw);
        }
        out.extend(self.outward(c));
    }

    fn max_degree(&self) -> usize {
        let centre = if self.rings > 1 { self.count(1) } else { 0 };
        let ring = (1..self.rings).map(|r| 3 + self.ratio(r + 1)).max();
        centre.max(ring.unwrap_or(0)) as usize
    }

    fn known_connected(&self) -> bool {
        true
    }

    fn fill_row(&self, row: u32, out: RowSlots<'_>) -> bool {
        let n = self.count(row);
        let rs = out.row_start;
        if row == 0 {
            let n1 = self.count(1);
            for j in 0..n1 as usize {
                out.nbrs[j] = CellId(rs.get(1).map_or(0, |&s| s + j as u32));
                out.back[j] = 0;
            }
            out.degree[0] = n1 as u8;
            return true;
        }
        if n < 3 || (row > 1 && self.count(row - 1) < 3) {
            // neighbours that coincide (rings of one or two cells): not made by `Polar::new`
            return fill_from_neighbours(self, row, out);
        }
        let (ratio, outward) = (self.ratio(row).max(1), self.ratio(row + 1));
        let (inner, here) = (rs[row as usize - 1], rs[row as usize]);
        let next = rs.get(row as usize + 1).copied().unwrap_or(0);
        let ring = Ring {
            n,
            ratio,
            first_ring: row == 1,
            inner,
            here,
            next,
        };
        match outward {
            0 => ring.fill::<0>(out),
            1 => ring.fill::<1>(out),
            2 => ring.fill::<2>(out),
            _ => ring.fill_any(outward, out),
        }
        true
    }

    fn sides(&self, c: Coord, out: &mut Vec<Side>) {
        if !self.contains(c) {
            return;
        }
        if c.row == 0 {
            let n1 = self.count(1);
            if n1 == 0 {
                out.push(self.arc(1.0, 0.0, PI, true, None));
                out.push(self.arc(1.0, PI, 0.0, true, None));
            } else {
                for i in 0..n1 {
                    let (from, to) = (Self::angle(i, n1), Self::angle(i + 1, n1));
                    out.push(self.arc(1.0, from, to, true, Some(Coord::new(1, i))));
                }
            }
            return;
        }
        let n = self.count(c.row);
        let (t0, t1) = (Self::angle(c.col, n), Self::angle(c.col + 1, n));
        let (inner, outer) = (f64::from(c.row), f64::from(c.row) + 1.0);
        let inward = Coord::new(c.row - 1, c.col / self.ratio(c.row).max(1));
        out.push(self.arc(inner, t1, t0, false, Some(inward)));
        let ccw = Coord::new(c.row, (c.col + n - 1) % n);
        out.push(Side {
            a: self.at(inner, t0),
            b: self.at(outer, t0),
            arc: None,
            neighbour: (ccw != c).then_some(ccw),
        });
        let next = self.count(c.row + 1);
        let mut any_out = false;
        for o in self.outward(c) {
            let (from, to) = (Self::angle(o.col, next), Self::angle(o.col + 1, next));
            out.push(self.arc(outer, from, to, true, Some(o)));
            any_out = true;
        }
        if !any_out {
            out.push(self.arc(outer, t0, t1, true, None));
        }
        let cw = Coord::new(c.row, (c.col + 1) % n);
        out.push(Side {
            a: self.at(outer, t1),
            b: self.at(inner, t1),
            arc: None,
            neighbour: (cw != c && cw != ccw).then_some(cw),
        });
    }

    fn center(&self, c: Coord) -> Point {
        if c.row == 0 {
            return self.origin();
        }
        let n = self.count(c.row).max(1);
        let mid = PI * (2.0 * f64::from(c.col) + 1.0) / f64::from(n);
        self.at(f64::from(c.row) + 0.5, mid)
    }

    fn extent(&self) -> (f64, f64) {
        let d = 2.0 * f64::from(self.rings);
        (d, d)
    }

    fn covered(&self) -> (f64, f64, f64, f64) {
        // the square inscribed in the disc (a shape is placed by its enclosing circle instead)
        let r = f64::from(self.rings);
        let half = r * std::f64::consts::FRAC_1_SQRT_2;
        (r - half, r - half, r + half, r + half)
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::grid::Grid;
    use crate::mask::Mask;
    use crate::topology::{Topology, TopologyKind};

    /// Twice the signed area of every cell's outline (arcs approximated by their mid points),
    /// asserted positive: with y down, a positive shoelace sum means clockwise on screen.
    pub(crate) fn check_clockwise(t: &dyn Tessellation) {
        let mut sides = Vec::new();
        for row in 0..t.rows() {
            for col in 0..t.cols(row) {
                let c = Coord::new(row, col);
                sides.clear();
                t.sides(c, &mut sides);
                let mut pts = Vec::new();
                for s in &sides {
                    pts.push(s.a);
                    if let Some(arc) = s.arc {
                        let (o, r) = (arc.center, arc.radius);
                        let fa = (s.a.y - o.y).atan2(s.a.x - o.x);
                        let fb = (s.b.y - o.y).atan2(s.b.x - o.x);
                        let tau = 2.0 * PI;
                        let sweep = if arc.clockwise {
                            (fb - fa).rem_euclid(tau)
                        } else {
                            -(fa - fb).rem_euclid(tau)
                        };
                        assert!(sweep.abs() > 1e-9, "empty arc on {c:?}");
                        let m = fa + sweep / 2.0;
                        pts.push(Point::new(o.x + r * m.cos(), o.y + r * m.sin()));
                        let d = |p: Point| (p.x - o.x).hypot(p.y - o.y) - r;
                        assert!(d(s.a).abs() < 1e-9 && d(s.b).abs() < 1e-9, "arc off circle");
                    }
                }
                let area: f64 = (0..pts.len())
                    .map(|i| {
                        let (p, q) = (pts[i], pts[(i + 1) % pts.len()]);
                        p.x * q.y - q.x * p.y
                    })
                    .sum();
                assert!(area > 1e-6, "outline of {c:?} is not clockwise ({area})");
            }
        }
    }

    #[test]
    fn outlines_run_clockwise() {
        for rings in [1, 2, 3, 8] {
            check_clockwise(&Polar::new(rings));
        }
        check_clockwise(&crate::topology::Rect::new(3, 2));
        check_clockwise(&crate::topology::Hex::new(4, 3));
        check_clockwise(&crate::topology::Tri::new(5, 3));
    }

    #[test]
    fn contract_holds() {
        for rings in [1, 2, 3, 4, 8, 13] {
            crate::topology::tests::check_contract(&Polar::new(rings));
            crate::topology::tests::check_covered(&Polar::new(rings));
        }
    }

    #[test]
    fn ring_counts_follow_the_formula() {
        // By hand: ratios floor(2 pi r / prev) = 6.28->6, 2.09->2, 1.57->1, 2.09->2, 1.31->1,
        // 1.57->1, 1.83->1, 2.09->2.
        assert_eq!(Polar::new(9).counts(), &[1, 6, 12, 12, 24, 24, 24, 24, 48]);
        // so no door is narrower than a ring is wide (within the chord of a 1-unit arc)
        for rings in 1..60 {
            assert!(Polar::new(rings).passage() > 0.99, "{rings}");
        }
        assert_eq!(Polar::new(1).counts(), &[1]);
        assert_eq!(Polar::new(0).counts(), &[] as &[u32]);
    }

    #[test]
    fn neighbours_in_order() {
        let p = Polar::new(4);
        let c = |r, k| Coord::new(r, k);
        let mut v = Vec::new();
        p.neighbours(c(0, 0), &mut v);
        assert_eq!(v, (0..6).map(|i| c(1, i)).collect::<Vec<_>>());
        // ring 1 -> ring 2 doubles: two outward neighbours
        v.clear();
        p.neighbours(c(1, 5), &mut v);
        assert_eq!(v, vec![c(0, 0), c(1, 0), c(1, 4), c(2, 10), c(2, 11)]);
        // ring 2 -> ring 3 keeps the count: one outward neighbour
        v.clear();
        p.neighbours(c(2, 3), &mut v);
        assert_eq!(v, vec![c(1, 1), c(2, 4), c(2, 2), c(3, 3)]);
        // last ring: no outward neighbours
        v.clear();
        p.neighbours(c(3, 0), &mut v);
        assert_eq!(v, vec![c(2, 0), c(3, 1), c(3, 11)]);
        // ring 3 -> ring 4 doubles again
        let p = Polar::new(6);
        v.clear();
        p.neighbours(c(3, 7), &mut v);
        assert_eq!(v, vec![c(2, 7), c(3, 8), c(3, 6), c(4, 14), c(4, 15)]);
    }

    /// Every cell's [`Polar::cell_slots`] against what [`Tessellation::fill_row`] writes for its
    /// row (with the back slots found by searching the lists where it leaves them out, as the
    /// grid does).
    fn check_cell_slots(p: &Polar) {
        let starts = crate::mask::row_starts(p).unwrap();
        let total = *starts.last().unwrap() as usize;
        let stride = p.max_degree().max(1);
        let (mut nbrs, mut back) = (vec![CellId(0); total * stride], vec![0u8; total * stride]);
        let mut degree = vec![0u8; total];
        let mut filled = vec![false; p.rows() as usize];
        for row in 0..p.rows() as usize {
            let (a, b) = (starts[row] as usize, starts[row + 1] as usize);
            filled[row] = p.fill_row(
                row as u32,
                RowSlots {
                    row_start: &starts,
                    stride,
                    nbrs: &mut nbrs[a * stride..b * stride],
                    back: &mut back[a * stride..b * stride],
                    degree: &mut degree[a..b],
                },
            );
        }
        let list = |c: usize| &nbrs[c * stride..c * stride + usize::from(degree[c])];
        let (mut got, mut got_back) = (
            [CellId(0); crate::topology::MAX_DEGREE],
            [0u8; crate::topology::MAX_DEGREE],
        );
        for row in 0..p.rows() {
            for col in 0..p.count(row) {
                let c = (starts[row as usize] + col) as usize;
                let what = format!("{:?}: ({row}, {col})", p.counts());
                let d = p.cell_slots(&starts, row, col, &mut got, &mut got_back);
                assert_eq!(d, usize::from(degree[c]), "{what}");
                assert_eq!(p.cell_degree(row), d, "{what}");
                for s in 0..d {
                    let one = p.cell_slot(&starts, row, col, s);
                    assert_eq!(one, (got[s], got_back[s]), "{what} slot {s} alone");
                    let (r2, c2) = p.cell_step(row, col, s);
                    assert_eq!(starts[r2 as usize] + c2, got[s].0, "{what} slot {s} step");
                    assert!(c2 < p.count(r2), "{what} slot {s} step");
                }
                assert_eq!(got[..d], *list(c), "{what}");
                for (s, &nb) in list(c).iter().enumerate() {
                    let expected = if filled[row as usize] {
                        back[c * stride + s]
                    } else {
                        let found = list(nb.index()).iter().position(|n| n.index() == c);
                        found.expect("symmetric lists") as u8
                    };
                    assert_eq!(got_back[s], expected, "{what} slot {s}");
                }
            }
        }
    }

    #[test]
    fn cell_slots_are_the_filled_rows() {
        for rings in 0..=40 {
            check_cell_slots(&Polar::new(rings));
        }
        // rings of one or two cells, and rings under them (filled from `neighbours`)
        for counts in [
            vec![1, 1],
            vec![1, 1, 1, 1],
            vec![1, 2, 2, 4, 4],
            vec![1, 1, 2, 4, 8, 8],
            vec![1, 2, 4, 4, 12],
            vec![1, 3, 3, 6, 6, 18],
            vec![1, 6, 6, 12, 36],
        ] {
            check_cell_slots(&Polar::from_counts(counts));
        }
    }

    #[test]
    fn sides_are_arcs_and_radials() {
        let p = Polar::new(3);
        let mut s = Vec::new();
        p.sides(Coord::new(2, 0), &mut s);
        assert_eq!(s.len(), 4);
        let inner = s[0].arc.expect("inner side is an arc");
        assert_eq!(inner.radius, 2.0);
        assert!(!inner.clockwise);
        assert_eq!(s[0].neighbour, Some(Coord::new(1, 0)));
        assert!(s[1].arc.is_none() && s[3].arc.is_none());
        let outer = s[2].arc.expect("outer side is an arc");
        assert_eq!(outer.radius, 3.0);
        assert!(outer.clockwise);
        assert_eq!(s[2].neighbour, None);
        // 12 o'clock is straight up from the disc centre
        assert_eq!(s[1].b, Point::new(3.0, 0.0));
        // ring 1 cell with two outward neighbours
        s.clear();
        p.sides(Coord::new(1, 0), &mut s);
        let outs: Vec<_> = s
            .iter()
            .filter(|x| x.arc.is_some_and(|a| a.radius == 2.0))
            .collect();
        assert_eq!(outs.len(), 2);
        assert_eq!(outs[0].neighbour, Some(Coord::new(2, 0)));
        assert_eq!(outs[1].neighbour, Some(Coord::new(2, 1)));
        // the centre alone is two half circles
        s.clear();
        Polar::new(1).sides(Coord::new(0, 0), &mut s);
        assert_eq!(s.len(), 2);
        assert!(s.iter().all(|x| x.neighbour.is_none() && x.arc.is_some()));
    }

    #[test]
    fn centres() {
        let p = Polar::new(3);
        assert_eq!(p.center(Coord::new(0, 0)), Point::new(3.0, 3.0));
        // ring 1 cell 1 (of 6): middle angle 90 degrees, radius 1.5 -> right of the centre
        let c = p.center(Coord::new(1, 1));
        assert!((c.x - (3.0 + 1.5 * (PI / 2.0).sin())).abs() < 1e-12);
        let c = p.center(Coord::new(2, 0));
        let a = PI / 12.0;
        assert!((c.x - (3.0 + 2.5 * a.sin())).abs() < 1e-12);
        assert!((c.y - (3.0 - 2.5 * a.cos())).abs() < 1e-12);
        assert_eq!(p.extent(), (6.0, 6.0));
    }

    #[test]
    fn registered_grid_is_connected_and_masks_read() {
        for rings in [1, 2, 3, 8] {
            let t = Topology::new(TopologyKind::Polar, rings, 0).unwrap();
            assert_eq!(t.kind(), TopologyKind::Polar);
            let g = Grid::new(t, None).unwrap();
            assert!(g.is_connected(), "{rings} rings");
        }
        let t = Topology::new(TopologyKind::Polar, 3, 99).unwrap();
        let m = Mask::from_ascii(&t, "#\n######\n##########..").unwrap();
        assert_eq!(m.count(), 17);
        assert!(!m.get(Coord::new(2, 10)));
        assert!(m.get(Coord::new(2, 9)));
        assert_eq!(m.components(&t).len(), 1);
        // a short line pads with off cells; the centre line comes first
        let m = Mask::from_ascii(&t, ".\n###\n").unwrap_err();
        assert!(m.message.contains("2 rows"), "{m}");
        let m = Mask::from_ascii(&t, ".\n###\n#").unwrap();
        assert_eq!(m.count(), 4);
        assert!(!m.get(Coord::new(0, 0)));
        assert_eq!(m.components(&t).len(), 1);
    }
}
