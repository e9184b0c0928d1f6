//! The triangular topology: rows of alternating up- and down-pointing triangles.
//!
//! Cell (row, col) points up when `row + col` is even and down otherwise. Triangles are
//! equilateral with side s = sqrt(3) and height h = 1.5, so the incircle has diameter 1; cell
//! (row, col) spans x from `col * s/2` to `col * s/2 + s` and y from `row * h` to `(row + 1) * h`.
//! Its centre is the centroid (the incircle centre).
//!
//! Every vertex lies on a lattice of x = k s/2 and y = 1.5 m for integers k and m, and is
//! computed from those integers, so a side shared by two cells has bit-identical end points.
//!
//! Neighbour and side order (the same, clockwise, starting with the west side):
//! - up triangle: W (col - 1), E (col + 1), S (row + 1);
//! - down triangle: W (col - 1), N (row - 1), E (col + 1).

use super::{
    Coord, Lattice, Point, RowSlots, Side, Tessellation, Topology, TopologyInfo, TopologyKind,
    fill_lattice,
};

/// The registry entry of the tri topology (see [`super::TOPOLOGIES`]).
pub const INFO: TopologyInfo = TopologyInfo {
    kind: TopologyKind::Tri,
    name: "tri",
    summary: "alternating up and down triangles, 3 neighbours",
    uses_height: true,
    width_label: "Width",
    size_label: super::width_by_height,
    estimated_cells: |w, h| 2 * u64::from(w) * u64::from(h),
    make: |w, h| Topology::Tri(Tri::new(w, h)),
};

/// Triangle height, in maze units.
const H: f64 = 1.5;

/// Half the side length, s/2 = sqrt(3)/2: the x step of the vertex lattice.
fn half_s() -> f64 {
    libm::sqrt(3.0) / 2.0
}

/// A grid of alternating triangles, `width` per row and `height` rows.
///
/// Neighbours and sides run clockwise from the west side: up triangles W, E, S; down triangles
/// W, N, E (sides on the grid's edge have neighbour `None` and are left out of the neighbours).
#[derive(Clone, Debug, PartialEq)]
pub struct Tri {
    /// Triangles per row.
    pub width: u32,
    /// Rows.
    pub height: u32,
}

impl Tri {
    /// A grid of `width` triangles per row and `height` rows.
    pub fn new(width: u32, height: u32) -> Self {
        Tri { width, height }
    }

    /// Whether cell `c` points up (its base at the bottom).
    pub fn points_up(c: Coord) -> bool {
        // The parity of row + col, without overflowing on huge coordinates.
        (c.row ^ c.col).is_multiple_of(2)
    }

    /// The cell at (`row` + `dr`, `col` + `dc`) from `c`, if it is on the grid.
    fn step(&self, c: Coord, dr: i32, dc: i32) -> Option<Coord> {
        let r = i64::from(c.row) + i64::from(dr);
        let k = i64::from(c.col) + i64::from(dc);
        (r >= 0 && k >= 0 && r < i64::from(self.height) && k < i64::from(self.width))
            .then(|| Coord::new(r as u32, k as u32))
    }

    /// Whether `c` is a cell of this grid.
    fn contains(&self, c: Coord) -> bool {
        c.row < self.height && c.col < self.width
    }

    /// The (row, col) steps to the neighbours, in neighbour and side order.
    fn dirs(c: Coord) -> [(i32, i32); 3] {
        if Self::points_up(c) {
            [(0, -1), (0, 1), (1, 0)] // W, E, S
        } else {
            [(0, -1), (-1, 0), (0, 1)] // W, N, E
        }
    }
}

impl Tessellation for Tri {
    /// A line through a triangle enters by one side and leaves by another: it passes between
    /// the corner those sides share and the wall across from it, the triangle's height (1.5;
    /// a door, one side, is wider: sqrt 3).
    fn passage(&self) -> f64 {
        H
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
        out.extend(
            Self::dirs(c)
                .into_iter()
                .filter_map(|(dr, dc)| self.step(c, dr, dc)),
        );
    }

    fn max_degree(&self) -> usize {
        3
    }

    fn known_connected(&self) -> bool {
        // one column of triangles falls apart into pairs
        self.width > 1 || self.height < 3
    }

    fn lattice(&self) -> Option<Lattice> {
        // parity 0 points up (row + col even): west, east, south; parity 1 down: west, north,
        // east
        Some(Lattice {
            width: self.width,
            height: self.height,
            degree: 3,
            row_parity: true,
            steps: [
                [(0, -1), (0, 1), (1, 0), (0, 0), (0, 0), (0, 0)],
                [(0, -1), (-1, 0), (0, 1), (0, 0), (0, 0), (0, 0)],
            ],
        })
    }

    fn fill_row(&self, row: u32, out: RowSlots<'_>) -> bool {
        fill_lattice::<3>(&self.lattice().expect("tri is a lattice"), row, out)
    }

    fn sides(&self, c: Coord, out: &mut Vec<Side>) {
        if !self.contains(c) {
            return;
        }
        let hs = half_s();
        let k = f64::from(c.col);
        let m = f64::from(c.row);
        let p = |dk: f64, dm: f64| Point::new((k + dk) * hs, (m + dm) * H);
        // Clockwise, starting with the start of the west side.
        let corners = if Self::points_up(c) {
            [p(0.0, 1.0), p(1.0, 0.0), p(2.0, 1.0)] // bottom left, apex, bottom right
        } else {
            [p(1.0, 1.0), p(0.0, 0.0), p(2.0, 0.0)] // bottom vertex, top left, top right
        };
        for (i, (dr, dc)) in Self::dirs(c).into_iter().enumerate() {
            out.push(Side {
                a: corners[i],
                b: corners[(i + 1) % 3],
                arc: None,
                neighbour: self.step(c, dr, dc),
            });
        }
    }

    fn center(&self, c: Coord) -> Point {
        let x = (f64::from(c.col) + 1.0) * half_s();
        let down = if Self::points_up(c) { 2.0 } else { 1.0 } / 3.0;
        Point::new(x, (f64::from(c.row) + down) * H)
    }

    fn extent(&self) -> (f64, f64) {
        (
            (f64::from(self.width) + 1.0) * half_s(),
            f64::from(self.height) * H,
        )
    }

    fn covered(&self) -> (f64, f64, f64, f64) {
        // each row ends in a half-triangle on either side, s/2 wide; one column of triangles
        // covers no rectangle, so it keeps the whole box
        let (w, h) = self.extent();
        if self.width < 2 {
            return (0.0, 0.0, w, h);
        }
        (half_s(), 0.0, w - half_s(), h)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Grid;
    use crate::mask::Mask;
    use crate::topology::{Topology, TopologyKind};

    #[test]
    fn contract_holds() {
        for (w, h) in [(1, 1), (1, 5), (5, 1), (2, 2), (4, 4), (7, 3), (6, 5)] {
            crate::topology::tests::check_contract(&Tri::new(w, h));
            // one column of triangles covers no rectangle: it keeps its box
            if w > 1 {
                crate::topology::tests::check_covered(&Tri::new(w, h));
            }
        }
    }

    #[test]
    fn up_and_down_neighbour_rules() {
        let t = Tri::new(5, 4);
        let c = |r, k| Coord::new(r, k);
        let mut v = Vec::new();
        // (1, 1): up; W, E, S
        assert!(Tri::points_up(c(1, 1)));
        t.neighbours(c(1, 1), &mut v);
        assert_eq!(v, vec![c(1, 0), c(1, 2), c(2, 1)]);
        // (1, 2): down; W, N, E
        v.clear();
        assert!(!Tri::points_up(c(1, 2)));
        t.neighbours(c(1, 2), &mut v);
        assert_eq!(v, vec![c(1, 1), c(0, 2), c(1, 3)]);
        // top-left corner is up: no N ever
        v.clear();
        t.neighbours(c(0, 0), &mut v);
        assert_eq!(v, vec![c(0, 1), c(1, 0)]);
        // bottom row, up cell on the bottom edge loses S
        v.clear();
        t.neighbours(c(3, 1), &mut v);
        assert_eq!(v, vec![c(3, 0), c(3, 2)]);
    }

    #[test]
    fn geometry_matches_the_spec() {
        let t = Tri::new(3, 2);
        let s = 3f64.sqrt();
        let mut sides = Vec::new();
        t.sides(Coord::new(0, 0), &mut sides);
        // up: apex (s/2, 0), base (0, 1.5)-(s, 1.5); S side is the base, right to left
        assert_eq!(sides[1].b, Point::new(s / 2.0 * 2.0, 1.5));
        assert!((sides[0].b.x - s / 2.0).abs() < 1e-12 && sides[0].b.y == 0.0);
        assert_eq!(sides[2].neighbour, Some(Coord::new(1, 0)));
        assert_eq!(sides[2].a.y, 1.5);
        assert_eq!(sides[2].b.y, 1.5);
        let ctr = t.center(Coord::new(0, 0));
        assert!((ctr.x - s / 2.0).abs() < 1e-12 && (ctr.y - 1.0).abs() < 1e-12);
        // down (0, 1): top edge (s/2, 0)-(3s/2, 0), bottom vertex (s, 1.5); incircle centre 0.5 down
        sides.clear();
        t.sides(Coord::new(0, 1), &mut sides);
        assert!((sides[1].a.x - s / 2.0).abs() < 1e-12 && sides[1].a.y == 0.0);
        assert!((sides[1].b.x - 1.5 * s).abs() < 1e-12 && sides[1].b.y == 0.0);
        assert_eq!(sides[1].neighbour, None);
        let ctr = t.center(Coord::new(0, 1));
        assert!((ctr.x - s).abs() < 1e-12 && (ctr.y - 0.5).abs() < 1e-12);
        let (w, h) = t.extent();
        assert!((w - 2.0 * s).abs() < 1e-12);
        assert_eq!(h, 3.0);
        // the covered box leaves out the half-triangles at the rows' ends
        let (x0, y0, x1, y1) = t.covered();
        assert!((x0 - s / 2.0).abs() < 1e-12 && (x1 - 1.5 * s).abs() < 1e-12);
        assert_eq!((y0, y1), (0.0, 3.0));
        assert_eq!(Tri::new(1, 4).covered(), (0.0, 0.0, s, 6.0));
    }

    #[test]
    fn registered_grid_is_connected_and_masks_read() {
        let t = Topology::new(TopologyKind::Tri, 6, 3).unwrap();
        assert_eq!(t.kind(), TopologyKind::Tri);
        let g = Grid::new(t.clone(), None).unwrap();
        assert_eq!(g.len(), 18);
        assert!(g.is_connected());
        let m = Mask::from_ascii(&t, "######\n##..##\n######").unwrap();
        assert_eq!(m.count(), 16);
        assert!(!m.get(Coord::new(1, 2)));
        assert_eq!(m.components(&t).len(), 1);
        let m = Mask::from_ascii(&t, "###...\n......\n...###").unwrap();
        assert_eq!(m.components(&t).len(), 2);
    }
}
