//! The rectangular topology: unit squares, rows top to bottom, columns left to right.

use super::{
    Coord, Lattice, Point, RowSlots, Side, Tessellation, Topology, TopologyInfo, TopologyKind,
    fill_lattice,
};

/// The registry entry of the rect topology (see [`super::TOPOLOGIES`]).
pub const INFO: TopologyInfo = TopologyInfo {
    kind: TopologyKind::Rect,
    name: "rect",
    summary: "square cells, 4 neighbours",
    uses_height: true,
    width_label: "Width",
    size_label: super::width_by_height,
    estimated_cells: |w, h| u64::from(w) * u64::from(h),
    make: |w, h| Topology::Rect(Rect::new(w, h)),
};

/// A `width` x `height` grid of unit squares. Neighbour order: north, east, south, west.
#[derive(Clone, Debug, PartialEq)]
pub struct Rect {
    /// Columns.
    pub width: u32,
    /// Rows.
    pub height: u32,
}

impl Rect {
    /// A grid `width` columns wide and `height` rows high.
    pub fn new(width: u32, height: u32) -> Self {
        Rect { width, height }
    }

    /// The cell one step from `c` in direction (`dr`, `dc`), if it is on the grid.
    pub fn step(&self, c: Coord, dr: i32, dc: i32) -> Option<Coord> {
        let r = c.row as i64 + dr as i64;
        let k = c.col as i64 + dc as i64;
        (r >= 0 && k >= 0 && r < self.height as i64 && k < self.width as i64)
            .then(|| Coord::new(r as u32, k as u32))
    }
}

impl Tessellation for Rect {
    fn rows(&self) -> u32 {
        self.height
    }

    fn cols(&self, _row: u32) -> u32 {
        self.width
    }

    fn neighbours(&self, c: Coord, out: &mut Vec<Coord>) {
        for (dr, dc) in [(-1, 0), (0, 1), (1, 0), (0, -1)] {
            if let Some(n) = self.step(c, dr, dc) {
                out.push(n);
            }
        }
    }

    fn max_degree(&self) -> usize {
        4
    }

    fn known_connected(&self) -> bool {
        true
    }

    fn lattice(&self) -> Option<Lattice> {
        // north, east, south, west
        let steps = [(-1, 0), (0, 1), (1, 0), (0, -1), (0, 0), (0, 0)];
        Some(Lattice {
            width: self.width,
            height: self.height,
            degree: 4,
            row_parity: false,
            steps: [steps, steps],
        })
    }

    fn fill_row(&self, row: u32, out: RowSlots<'_>) -> bool {
        fill_lattice::<4>(&self.lattice().expect("rect is a lattice"), row, out)
    }

    fn sides(&self, c: Coord, out: &mut Vec<Side>) {
        let (x, y) = (c.col as f64, c.row as f64);
        let corners = [
            Point::new(x, y),
            Point::new(x + 1.0, y),
            Point::new(x + 1.0, y + 1.0),
            Point::new(x, y + 1.0),
        ];
        for (i, (dr, dc)) in [(-1, 0), (0, 1), (1, 0), (0, -1)].into_iter().enumerate() {
            out.push(Side {
                a: corners[i],
                b: corners[(i + 1) % 4],
                arc: None,
                neighbour: self.step(c, dr, dc),
            });
        }
    }

    fn center(&self, c: Coord) -> Point {
        Point::new(c.col as f64 + 0.5, c.row as f64 + 0.5)
    }

    fn extent(&self) -> (f64, f64) {
        (self.width as f64, self.height as f64)
    }

    fn on_edge(&self, c: Coord) -> bool {
        c.row == 0 || c.col == 0 || c.row + 1 == self.height || c.col + 1 == self.width
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn contract_holds() {
        for (w, h) in [(1, 1), (1, 5), (4, 4), (7, 3)] {
            crate::topology::tests::check_contract(&Rect::new(w, h));
            crate::topology::tests::check_covered(&Rect::new(w, h));
        }
    }

    #[test]
    fn corner_has_two_neighbours_middle_four() {
        let r = Rect::new(3, 3);
        let mut v = Vec::new();
        r.neighbours(Coord::new(0, 0), &mut v);
        assert_eq!(v, vec![Coord::new(0, 1), Coord::new(1, 0)]);
        v.clear();
        r.neighbours(Coord::new(1, 1), &mut v);
        assert_eq!(v.len(), 4);
    }
}
