//! What a maze covers on a fine grid, for keeping the START and FINISH labels and arrows off
//! it: [`Occupancy`], filled from the cells' areas ([`Filling`]) and remembered for the last
//! few mazes of the same cells (the puzzles of a book, and the editor's redraws, mostly share
//! their grid: a 30 x 30 maze's cells take about a millisecond to fill).

use crate::topology::Point;
use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

/// The areas of a maze's cells as they are drawn: each cell's closed rings (a ring inside
/// another of the same cell is a hole), in one list of points.
#[derive(Default)]
struct Areas {
    points: Vec<Point>,
    /// Where each ring ends in `points`.
    ring_ends: Vec<usize>,
    /// Where each cell's rings end in `ring_ends`.
    cell_ends: Vec<usize>,
}

impl Areas {
    /// Adds a cell of these rings.
    fn push(&mut self, rings: &[Vec<Point>]) {
        for ring in rings {
            self.points.extend_from_slice(ring);
            self.ring_ends.push(self.points.len());
        }
        self.cell_ends.push(self.ring_ends.len());
    }

    /// The rings of each cell.
    fn cells(&self) -> impl Iterator<Item = impl Iterator<Item = &[Point]> + Clone> {
        (0..self.cell_ends.len()).map(move |k| {
            let rings = if k == 0 { 0 } else { self.cell_ends[k - 1] }..self.cell_ends[k];
            rings.map(move |r| {
                let from = if r == 0 { 0 } else { self.ring_ends[r - 1] };
                &self.points[from..self.ring_ends[r]]
            })
        })
    }

    /// Whether `self` and `other` are the same cells, point for point (bit for bit: the fill
    /// of one is the fill of the other).
    fn same(&self, other: &Areas) -> bool {
        self.ring_ends == other.ring_ends
            && self.cell_ends == other.cell_ends
            && self.points.len() == other.points.len()
            && self
                .points
                .iter()
                .zip(&other.points)
                .all(|(a, b)| a.x.to_bits() == b.x.to_bits() && a.y.to_bits() == b.y.to_bits())
    }
}

/// How many mazes' occupancies are remembered.
const REMEMBERED: usize = 4;

/// The most points of the cells of a maze whose occupancy is remembered (a 180 x 180 square
/// maze; its cells are held beside it to recognise them, 4 MB).
const REMEMBERED_POINTS: usize = 1 << 18;

/// A remembered occupancy: the box and the cells it was filled from.
struct Remembered {
    bbox: [u64; 4],
    areas: Areas,
    occ: Arc<Occupancy>,
}

static MEMORY: Mutex<VecDeque<Remembered>> = Mutex::new(VecDeque::new());

fn bits(b: (f64, f64, f64, f64)) -> [u64; 4] {
    [b.0.to_bits(), b.1.to_bits(), b.2.to_bits(), b.3.to_bits()]
}

/// An [`Occupancy`] being filled with the cells' areas: they are kept to recognise a maze of
/// the same cells, unless there are more points than [`REMEMBERED_POINTS`] (then each is
/// filled as it comes, and forgotten).
pub(super) struct Filling {
    bbox: (f64, f64, f64, f64),
    areas: Areas,
    occ: Option<Occupancy>,
}

impl Filling {
    /// An occupancy over the box `bbox`.
    pub(super) fn new(bbox: (f64, f64, f64, f64)) -> Filling {
        Filling {
            bbox,
            areas: Areas::default(),
            occ: None,
        }
    }

    /// Fills a cell of these closed rings (a ring inside another is a hole) and every square
    /// its edges pass through.
    pub(super) fn push(&mut self, rings: &[Vec<Point>]) {
        if let Some(occ) = &mut self.occ {
            occ.fill(rings.iter().map(Vec::as_slice));
            return;
        }
        self.areas.push(rings);
        if self.areas.points.len() > REMEMBERED_POINTS {
            let mut occ = Occupancy::new(self.bbox);
            for cell in self.areas.cells() {
                occ.fill(cell);
            }
            self.areas = Areas::default();
            self.occ = Some(occ);
        }
    }

    /// The occupancy: the one remembered for the same cells over the same box, else the cells
    /// filled (and remembered, if they are few enough).
    pub(super) fn finish(self) -> Arc<Occupancy> {
        self.finish_in(&MEMORY)
    }

    /// [`Filling::finish`] with this memory of occupancies.
    fn finish_in(self, memory: &Mutex<VecDeque<Remembered>>) -> Arc<Occupancy> {
        if let Some(mut occ) = self.occ {
            occ.sum();
            return Arc::new(occ);
        }
        let key = bits(self.bbox);
        let memory = || memory.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(r) = memory()
            .iter()
            .find(|r| r.bbox == key && r.areas.same(&self.areas))
        {
            return r.occ.clone();
        }
        let mut occ = Occupancy::new(self.bbox);
        for cell in self.areas.cells() {
            occ.fill(cell);
        }
        occ.sum();
        let occ = Arc::new(occ);
        let mut memory = memory();
        if memory.len() == REMEMBERED {
            memory.pop_front();
        }
        memory.push_back(Remembered {
            bbox: key,
            areas: self.areas,
            occ: occ.clone(),
        });
        occ
    }
}

/// A fine grid (512 squares across the longer side) of what the maze covers, in maze units, for
/// keeping the START and FINISH labels and arrows off the shape: the cells' own areas (clipped
/// to the shape's outline when the maze is drawn with one), or the tiles' boxes.
pub(super) struct Occupancy {
    x0: f64,
    y0: f64,
    cell: f64,
    cols: usize,
    rows: usize,
    /// The marked squares, row by row, while the occupancy is made.
    bits: Vec<bool>,
    /// How many squares are marked above and left of each corner of the squares (`cols + 1`
    /// corners a row, `rows + 1` rows): a box's squares are counted in four reads.
    sums: Vec<u32>,
}

impl Occupancy {
    /// The occupancy of these boxes over the box `bbox`.
    pub(super) fn of_boxes(
        bbox: (f64, f64, f64, f64),
        boxes: impl IntoIterator<Item = (f64, f64, f64, f64)>,
    ) -> Occupancy {
        let mut occ = Occupancy::new(bbox);
        for b in boxes {
            occ.mark(b);
        }
        occ.sum();
        occ
    }

    /// Counts the marked squares above and left of each corner.
    fn sum(&mut self) {
        let w = self.cols + 1;
        let mut sums = vec![0u32; w * (self.rows + 1)];
        for r in 0..self.rows {
            let mut row = 0;
            for c in 0..self.cols {
                row += u32::from(self.bits[r * self.cols + c]);
                sums[(r + 1) * w + c + 1] = sums[r * w + c + 1] + row;
            }
        }
        self.sums = sums;
        // the counts say all the squares do
        self.bits = Vec::new();
    }

    fn new(bbox: (f64, f64, f64, f64)) -> Occupancy {
        let (w, h) = (bbox.2 - bbox.0, bbox.3 - bbox.1);
        let cell = (w.max(h) / 512.0).max(0.05);
        let cols = ((w / cell).ceil() as usize).max(1);
        let rows = ((h / cell).ceil() as usize).max(1);
        Occupancy {
            x0: bbox.0,
            y0: bbox.1,
            cell,
            cols,
            rows,
            bits: vec![false; cols * rows],
            sums: Vec::new(),
        }
    }

    fn range(&self, lo: f64, hi: f64, origin: f64, n: usize) -> Option<(usize, usize)> {
        let a = ((lo - origin) / self.cell).floor();
        let b = ((hi - origin) / self.cell).floor();
        if b < 0.0 || a >= n as f64 {
            return None;
        }
        Some((a.max(0.0) as usize, (b as usize).min(n - 1)))
    }

    fn mark(&mut self, b: (f64, f64, f64, f64)) {
        if let (Some((c0, c1)), Some((r0, r1))) = (
            self.range(b.0, b.2, self.x0, self.cols),
            self.range(b.1, b.3, self.y0, self.rows),
        ) {
            for r in r0..=r1 {
                for c in c0..=c1 {
                    self.bits[r * self.cols + c] = true;
                }
            }
        }
    }

    /// Marks the area of the closed rings `rings` (even-odd: a ring inside another is a hole)
    /// and every square their edges pass through.
    fn fill<'a, I>(&mut self, rings: I)
    where
        I: IntoIterator<Item = &'a [Point]> + Clone,
    {
        let pts = rings.clone().into_iter().flatten();
        let (mut x0, mut y0, mut x1, mut y1) = (f64::MAX, f64::MAX, f64::MIN, f64::MIN);
        for p in pts {
            (x0, y0, x1, y1) = (x0.min(p.x), y0.min(p.y), x1.max(p.x), y1.max(p.y));
        }
        let (Some((c0, c1)), Some((r0, r1))) = (
            self.range(x0, x1, self.x0, self.cols),
            self.range(y0, y1, self.y0, self.rows),
        ) else {
            return;
        };
        // a scan line through each row of squares' centres: the squares whose centres lie
        // between a pair of crossings of the rings' edges are inside
        let edges: Vec<(Point, Point)> = rings
            .into_iter()
            .flat_map(|ring| ring.iter().zip(ring.iter().cycle().skip(1)))
            .map(|(a, b)| (*a, *b))
            .collect();
        let mut xs = Vec::new();
        for r in r0..=r1 {
            let y = self.y0 + (r as f64 + 0.5) * self.cell;
            xs.clear();
            for (a, b) in &edges {
                if (a.y <= y) != (b.y <= y) {
                    xs.push(a.x + (y - a.y) * (b.x - a.x) / (b.y - a.y));
                }
            }
            xs.sort_by(f64::total_cmp);
            for pair in xs.chunks_exact(2) {
                // the squares whose centres x0 + (c + 0.5) cell lie in [pair[0], pair[1]]
                let from = ((pair[0] - self.x0) / self.cell - 0.5)
                    .ceil()
                    .max(c0 as f64);
                let to = ((pair[1] - self.x0) / self.cell - 0.5)
                    .floor()
                    .min(c1 as f64);
                if from <= to {
                    self.bits[r * self.cols + from as usize..=r * self.cols + to as usize]
                        .fill(true);
                }
            }
        }
        // the edges, a half square at a time: a sliver thinner than a square still counts
        for (a, b) in edges {
            self.mark_edge(a, b);
        }
    }

    /// Marks the squares under the points of the edge `a`-`b` a half square apart (from `a`,
    /// `steps` equal steps to `b`). An edge along a row or a column of squares is marked as the
    /// run of squares its end points span, which is what the points mark: the points' squares
    /// are monotone along the edge and each step is under a square, so none is skipped.
    fn mark_edge(&mut self, a: Point, b: Point) {
        let steps = ((a.x - b.x).hypot(a.y - b.y) / (self.cell / 2.0)).ceil() as usize;
        // the square under the point (truncation is floor for the points on the grid; points
        // off it are skipped)
        let at = |t: f64| {
            (
                (a.x + (b.x - a.x) * t - self.x0) / self.cell,
                (a.y + (b.y - a.y) * t - self.y0) / self.cell,
            )
        };
        let run = |from: f64, to: f64, n: usize| {
            let (lo, hi) = (from.min(to), from.max(to));
            (hi >= 0.0 && lo < n as f64).then(|| (lo.max(0.0) as usize, (hi as usize).min(n - 1)))
        };
        if steps <= 1 << 16 && (a.x == b.x || a.y == b.y) {
            let ((c0, r0), (c1, r1)) = (at(0.0), at(1.0));
            if let (Some((c0, c1)), Some((r0, r1))) =
                (run(c0, c1, self.cols), run(r0, r1, self.rows))
            {
                for r in r0..=r1 {
                    self.bits[r * self.cols + c0..=r * self.cols + c1].fill(true);
                }
            }
            return;
        }
        self.mark_points(a, b);
    }

    /// Marks the squares under the points of the edge `a`-`b` a half square apart, point by
    /// point (at most 65,537 points).
    fn mark_points(&mut self, a: Point, b: Point) {
        let steps = ((a.x - b.x).hypot(a.y - b.y) / (self.cell / 2.0)).ceil() as usize;
        for j in 0..=steps.min(1 << 16) {
            let t = j as f64 / steps.max(1) as f64;
            let c = (a.x + (b.x - a.x) * t - self.x0) / self.cell;
            let r = (a.y + (b.y - a.y) * t - self.y0) / self.cell;
            if c >= 0.0 && r >= 0.0 && (c as usize) < self.cols && (r as usize) < self.rows {
                self.bits[r as usize * self.cols + c as usize] = true;
            }
        }
    }

    /// Whether any square under the box `b` is marked.
    pub(super) fn any(&self, b: (f64, f64, f64, f64)) -> bool {
        match (
            self.range(b.0, b.2, self.x0, self.cols),
            self.range(b.1, b.3, self.y0, self.rows),
        ) {
            (Some((c0, c1)), Some((r0, r1))) => {
                let w = self.cols + 1;
                let s = |r: usize, c: usize| self.sums[r * w + c];
                s(r1 + 1, c1 + 1) + s(r0, c0) > s(r0, c1 + 1) + s(r1 + 1, c0)
            }
            _ => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(x: f64, y: f64) -> Point {
        Point { x, y }
    }

    /// A small generator of test numbers (the same every run).
    fn numbers(seed: u64) -> impl FnMut() -> f64 {
        let mut s = seed;
        move || {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (s >> 11) as f64 / (1u64 << 53) as f64
        }
    }

    #[test]
    fn an_edge_along_a_row_or_column_marks_what_its_points_mark() {
        let mut next = numbers(7);
        for k in 0..2000 {
            // edges inside, across and outside the box, on and off the squares' lines
            let bbox = (-1.3, 0.7, 9.1 + next(), 4.2);
            let (x, y) = (next() * 14.0 - 2.5, next() * 7.0 - 1.5);
            let len = next() * 12.0 - 6.0;
            let (a, b) = if k % 2 == 0 {
                (p(x, y), p(x + len, y))
            } else {
                (p(x, y), p(x, y + len))
            };
            let (mut fast, mut slow) = (Occupancy::new(bbox), Occupancy::new(bbox));
            fast.mark_edge(a, b);
            slow.mark_points(a, b);
            assert!(fast.bits == slow.bits, "edge {a:?} {b:?}");
        }
    }

    #[test]
    fn any_is_whether_a_square_of_the_box_is_marked() {
        let mut next = numbers(11);
        let bbox = (0.0, 0.0, 30.0, 20.0);
        let mut occ = Occupancy::new(bbox);
        for _ in 0..40 {
            let (x, y) = (next() * 30.0, next() * 20.0);
            let (w, h) = (next() * 3.0, next() * 3.0);
            occ.fill([&[p(x, y), p(x + w, y), p(x + w / 2.0, y + h)][..]]);
        }
        let bits = occ.bits.clone();
        assert!(bits.iter().any(|&b| b) && !bits.iter().all(|&b| b));
        occ.sum();
        for _ in 0..5000 {
            let (x, y) = (next() * 34.0 - 2.0, next() * 24.0 - 2.0);
            let b = (x, y, x + next() * 4.0, y + next() * 4.0);
            let brute = match (
                occ.range(b.0, b.2, occ.x0, occ.cols),
                occ.range(b.1, b.3, occ.y0, occ.rows),
            ) {
                (Some((c0, c1)), Some((r0, r1))) => {
                    (r0..=r1).any(|r| (c0..=c1).any(|c| bits[r * occ.cols + c]))
                }
                _ => false,
            };
            assert_eq!(occ.any(b), brute, "{b:?}");
        }
    }

    fn grid(n: usize, dx: f64) -> Filling {
        let mut f = Filling::new((0.0, 0.0, n as f64 + dx, n as f64));
        for r in 0..n {
            for c in 0..n {
                let (x, y) = (c as f64 + dx, r as f64);
                f.push(&[vec![
                    p(x, y),
                    p(x + 0.5, y),
                    p(x + 1.0, y),
                    p(x + 1.0, y + 1.0),
                    p(x, y + 1.0),
                ]]);
            }
        }
        f
    }

    #[test]
    fn the_same_cells_are_filled_once_and_other_cells_anew() {
        // a memory of its own: other tests' mazes would take turns in the shared one
        let memory = Mutex::new(VecDeque::new());
        let first = grid(12, 0.25).finish_in(&memory);
        let again = grid(12, 0.25).finish_in(&memory);
        assert!(Arc::ptr_eq(&first, &again));
        let other = grid(12, 0.5).finish_in(&memory);
        assert!(!Arc::ptr_eq(&first, &other));
        assert!(first.sums != other.sums);
        // what is remembered is what would be filled
        let mut fresh = Occupancy::new((0.0, 0.0, 12.25, 12.0));
        for cell in grid(12, 0.25).areas.cells() {
            fresh.fill(cell);
        }
        fresh.sum();
        assert!(fresh.sums == first.sums);
    }

    #[test]
    fn many_cells_are_filled_as_they_come_and_not_remembered() {
        let n = 240; // 57,600 cells of 5 points: over REMEMBERED_POINTS
        let mut f = grid(n, 0.0);
        assert!(f.occ.is_some() && f.areas.points.len() < REMEMBERED_POINTS);
        f.push(&[]);
        let memory = Mutex::new(VecDeque::new());
        let big = f.finish_in(&memory);
        assert!(memory.lock().unwrap().is_empty());
        assert!(!Arc::ptr_eq(&big, &grid(n, 0.0).finish_in(&memory)));
        // every square of the grid's box is under a cell
        assert!(big.any((0.0, 0.0, 0.1, 0.1)) && big.any((239.0, 239.0, 239.9, 239.9)));
    }
}
