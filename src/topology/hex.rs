//! The hexagonal topology: flat-topped hexagons in "odd-q" columns.
//!
//! Columns run left to right and rows top to bottom; odd columns sit half a cell lower than even
//! ones. A cell is 1 unit across its flats (so its circumradius is R = 1/sqrt(3)); columns are
//! 1.5 R apart and rows 1 apart. Cell (row, col) has its centre at
//! x = R + 1.5 R col, y = 0.5 + row (+ 0.5 in odd columns).
//!
//! Every vertex lies on a lattice of x = k R/2 and y = m/2 for integers k and m, and is computed
//! from those integers, so a side shared by two cells has bit-identical end points in both.

use super::{
    Coord, Lattice, Point, RowSlots, Side, Tessellation, Topology, TopologyInfo, TopologyKind,
    fill_lattice,
};

/// The registry entry of the hex topology (see [`super::TOPOLOGIES`]).
pub const INFO: TopologyInfo = TopologyInfo {
    kind: TopologyKind::Hex,
    name: "hex",
    summary: "flat-topped hexagons, 6 neighbours",
    uses_height: true,
    width_label: "Width",
    size_label: super::width_by_height,
    estimated_cells: |w, h| u64::from(w) * u64::from(h),
    make: |w, h| Topology::Hex(Hex::new(w, h)),
};

/// The six directions, in neighbour and side order: N, NE, SE, S, SW, NW.
///
/// Each entry is (row step in even columns, row step in odd columns, column step).
const DIRS: [(i32, i32, i32); 6] = [
    (-1, -1, 0), // N
    (-1, 0, 1),  // NE
    (0, 1, 1),   // SE
    (1, 1, 0),   // S
    (0, 1, -1),  // SW
    (-1, 0, -1), // NW
];

/// Half the circumradius, R/2 = 1/(2 sqrt 3): the x step of the vertex lattice.
fn half_r() -> f64 {
    0.5 / libm::sqrt(3.0)
}

/// A grid of flat-topped hexagons, `width` columns by `height` rows, odd columns shifted down.
///
/// Neighbour order: N, NE, SE, S, SW, NW (those on the grid). Sides run clockwise starting with
/// the N side (the top flat edge): N, NE, SE, S, SW, NW, each with its neighbour or `None`.
#[derive(Clone, Debug, PartialEq)]
pub struct Hex {
    /// Columns.
    pub width: u32,
    /// Rows.
    pub height: u32,
}

impl Hex {
    /// A grid `width` columns wide and `height` rows high.
    pub fn new(width: u32, height: u32) -> Self {
        Hex { width, height }
    }

    /// The cell next to `c` in direction `dir` (0 = N, 1 = NE, ... 5 = NW), if it is on the grid.
    pub fn step(&self, c: Coord, dir: usize) -> Option<Coord> {
        let &(dr_even, dr_odd, dc) = DIRS.get(dir)?;
        let dr = if c.col.is_multiple_of(2) {
            dr_even
        } else {
            dr_odd
        };
        let r = i64::from(c.row) + i64::from(dr);
        let k = i64::from(c.col) + i64::from(dc);
        (r >= 0 && k >= 0 && r < i64::from(self.height) && k < i64::from(self.width))
            .then(|| Coord::new(r as u32, k as u32))
    }

    /// Whether `c` is a cell of this grid.
    fn contains(&self, c: Coord) -> bool {
        c.row < self.height && c.col < self.width
    }
}

impl Tessellation for Hex {
    /// A door is one side of the hexagon: 1/sqrt(3) of the cell's width across its flats.
    fn passage(&self) -> f64 {
        2.0 * half_r()
    }

    fn rows(&self) -> u32 {
        self.height
    }

    fn cols(&self, _row: u32) -> u32 {
        self.width
    }

    fn neighbours(&self, c: Coord, out: &mut Vec<Coord>) {
        if !self.contains(c) {
            return;
        }
        out.extend((0..6).filter_map(|dir| self.step(c, dir)));
    }

    fn max_degree(&self) -> usize {
        6
    }

    fn known_connected(&self) -> bool {
        true
    }

    fn lattice(&self) -> Option<Lattice> {
        let steps =
            |odd: bool| DIRS.map(|(even_dr, odd_dr, dc)| (if odd { odd_dr } else { even_dr }, dc));
        Some(Lattice {
            width: self.width,
            height: self.height,
            degree: 6,
            row_parity: false,
            steps: [steps(false), steps(true)],
        })
    }

    fn fill_row(&self, row: u32, out: RowSlots<'_>) -> bool {
        fill_lattice::<6>(&self.lattice().expect("hex is a lattice"), row, out)
    }

    fn sides(&self, c: Coord, out: &mut Vec<Side>) {
        if !self.contains(c) {
            return;
        }
        // Vertex lattice: x = k * R/2, y = m * 1/2.
        let hr = half_r();
        let k0 = 3.0 * f64::from(c.col);
        let m0 = 2 * i64::from(c.row) + i64::from(c.col % 2);
        let p = |dk: f64, dm: i64| Point::new((k0 + dk) * hr, (m0 + dm) as f64 * 0.5);
        // Clockwise from the top-left corner of the N side.
        let corners = [
            p(1.0, 0), // top left
            p(3.0, 0), // top right
            p(4.0, 1), // right
            p(3.0, 2), // bottom right
            p(1.0, 2), // bottom left
            p(0.0, 1), // left
        ];
        for dir in 0..6 {
            out.push(Side {
                a: corners[dir],
                b: corners[(dir + 1) % 6],
                arc: None,
                neighbour: self.step(c, dir),
            });
        }
    }

    fn center(&self, c: Coord) -> Point {
        let x = (3.0 * f64::from(c.col) + 2.0) * half_r();
        let y = 0.5 + f64::from(c.row) + if c.col % 2 == 1 { 0.5 } else { 0.0 };
        Point::new(x, y)
    }

    fn extent(&self) -> (f64, f64) {
        // 1.5 R (width - 1) + 2 R = (3 width + 1) R/2.
        let w = (3.0 * f64::from(self.width) + 1.0) * half_r();
        let h = f64::from(self.height) + if self.width > 1 { 0.5 } else { 0.0 };
        (w, h)
    }

    fn covered(&self) -> (f64, f64, f64, f64) {
        // the outer columns zigzag R/2 into the box; with more than one column, odd columns
        // start half a unit below the top and even ones end half a unit above the bottom
        let (w, h) = self.extent();
        let hr = half_r();
        let step = if self.width > 1 { 0.5 } else { 0.0 };
        (hr, step, w - hr, h - step)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Grid;
    use crate::mask::Mask;
    use crate::topology::{Topology, TopologyKind};

    fn close(a: Point, x: f64, y: f64) -> bool {
        (a.x - x).abs() < 1e-12 && (a.y - y).abs() < 1e-12
    }

    #[test]
    fn contract_holds() {
        for (w, h) in [(1, 1), (1, 5), (5, 1), (2, 1), (4, 4), (7, 3), (6, 5)] {
            crate::topology::tests::check_contract(&Hex::new(w, h));
            crate::topology::tests::check_covered(&Hex::new(w, h));
        }
    }

    #[test]
    fn interior_cells_have_six_neighbours_in_order() {
        let t = Hex::new(5, 5);
        let mut v = Vec::new();
        // even column
        t.neighbours(Coord::new(2, 2), &mut v);
        let c = |r, k| Coord::new(r, k);
        assert_eq!(
            v,
            vec![c(1, 2), c(1, 3), c(2, 3), c(3, 2), c(2, 1), c(1, 1)]
        );
        // odd column
        v.clear();
        t.neighbours(Coord::new(2, 1), &mut v);
        assert_eq!(
            v,
            vec![c(1, 1), c(2, 2), c(3, 2), c(3, 1), c(3, 0), c(2, 0)]
        );
        // corner
        v.clear();
        t.neighbours(Coord::new(0, 0), &mut v);
        assert_eq!(v, vec![c(0, 1), c(1, 0)]);
    }

    #[test]
    fn geometry_matches_the_spec() {
        let t = Hex::new(3, 2);
        let r = 1.0 / 3f64.sqrt();
        assert!(close(t.center(Coord::new(0, 0)), r, 0.5));
        assert!(close(t.center(Coord::new(1, 1)), r + 1.5 * r, 2.0));
        let (w, h) = t.extent();
        assert!((w - (1.5 * r * 2.0 + 2.0 * r)).abs() < 1e-12);
        assert_eq!(h, 2.5);
        assert_eq!(Hex::new(1, 3).extent().1, 3.0);
        // the covered box: in by R/2 at the zigzag sides, half a unit at the stepped top and
        // bottom (one column has no step)
        let (x0, y0, x1, y1) = t.covered();
        assert!((x0 - r / 2.0).abs() < 1e-12 && (x1 - (w - r / 2.0)).abs() < 1e-12);
        assert_eq!((y0, y1), (0.5, 2.0));
        assert_eq!(Hex::new(1, 3).covered().1, 0.0);
        assert_eq!(Hex::new(1, 3).covered().3, 3.0);
        let mut s = Vec::new();
        t.sides(Coord::new(0, 1), &mut s);
        assert_eq!(s.len(), 6);
        // N side is the top flat edge, 1 unit above the centre's row band
        let ctr = t.center(Coord::new(0, 1));
        assert!(close(s[0].a, ctr.x - r / 2.0, ctr.y - 0.5));
        assert!(close(s[0].b, ctr.x + r / 2.0, ctr.y - 0.5));
        assert!(close(s[2].a, ctr.x + r, ctr.y));
        assert_eq!(s[0].neighbour, None);
        assert_eq!(s[2].neighbour, Some(Coord::new(1, 2)));
        assert_eq!(s[3].neighbour, Some(Coord::new(1, 1)));
    }

    #[test]
    fn registered_grid_is_connected_and_masks_read() {
        let t = Topology::new(TopologyKind::Hex, 7, 4).unwrap();
        assert_eq!(t.kind(), TopologyKind::Hex);
        let g = Grid::new(t.clone(), None).unwrap();
        assert_eq!(g.len(), 28);
        assert!(g.is_connected());
        let m = Mask::from_ascii(&t, "#######\n#.....#\n#.....#\n#######").unwrap();
        assert_eq!(m.count(), 18);
        assert!(!m.get(Coord::new(1, 1)));
        assert!(m.get(Coord::new(1, 6)));
        assert_eq!(m.components(&t).len(), 1);
        assert!(Grid::new(t, Some(&m)).unwrap().is_connected());
    }
}
