//! The contour's flattened segments filed in buckets on a square lattice (one maze unit per
//! bucket): which segments may meet a box, and whether a point is inside the contour.

use crate::shape::outline::Contour;
use crate::topology::Point;

/// Segments of the contour bucketed on a square lattice.
#[derive(Clone, Debug)]
pub(super) struct Index {
    x0: f64,
    y0: f64,
    /// Buckets across.
    pub nx: usize,
    ny: usize,
    /// Per bucket (row by row): the segments that may cross it.
    pub buckets: Vec<Vec<u32>>,
    /// Global segment id -> (ring, segment).
    pub segs: Vec<(u32, u32)>,
}

/// A bucket's side, in maze units.
const BUCKET: f64 = 1.0;

impl Index {
    /// Every flattened segment of `c`, filed in the buckets its box meets.
    pub fn new(c: &Contour) -> Index {
        let (mut x0, mut y0, mut x1, mut y1) = (f64::MAX, f64::MAX, f64::MIN, f64::MIN);
        let mut segs = Vec::new();
        for (r, ring) in c.rings.iter().enumerate() {
            for (i, p) in ring.flat.iter().enumerate() {
                x0 = x0.min(p.x);
                y0 = y0.min(p.y);
                x1 = x1.max(p.x);
                y1 = y1.max(p.y);
                segs.push((r as u32, i as u32));
            }
        }
        if segs.is_empty() {
            (x0, y0, x1, y1) = (0.0, 0.0, 1.0, 1.0);
        }
        let (x0, y0) = (x0 - BUCKET, y0 - BUCKET);
        let nx = ((x1 + BUCKET - x0) / BUCKET).ceil() as usize + 1;
        let ny = ((y1 + BUCKET - y0) / BUCKET).ceil() as usize + 1;
        let mut index = Index {
            x0,
            y0,
            nx,
            ny,
            buckets: vec![Vec::new(); nx * ny],
            segs,
        };
        for id in 0..index.segs.len() as u32 {
            let (a, b) = index.seg(c, id);
            let (bx0, by0) = index.cell(a.x.min(b.x), a.y.min(b.y));
            let (bx1, by1) = index.cell(a.x.max(b.x), a.y.max(b.y));
            for by in by0..=by1 {
                for bx in bx0..=bx1 {
                    index.buckets[by * nx + bx].push(id);
                }
            }
        }
        index
    }

    /// The bucket holding point (`x`, `y`), clamped to the lattice.
    pub fn cell(&self, x: f64, y: f64) -> (usize, usize) {
        let bx = ((x - self.x0) / BUCKET)
            .floor()
            .clamp(0.0, (self.nx - 1) as f64) as usize;
        let by = ((y - self.y0) / BUCKET)
            .floor()
            .clamp(0.0, (self.ny - 1) as f64) as usize;
        (bx, by)
    }

    /// The ends of segment `id` of `c`.
    pub fn seg(&self, c: &Contour, id: u32) -> (Point, Point) {
        let (r, i) = self.segs[id as usize];
        let flat = &c.rings[r as usize].flat;
        (flat[i as usize], flat[(i as usize + 1) % flat.len()])
    }

    /// The segments whose buckets meet the box, sorted, each once.
    pub fn query(&self, b: (f64, f64, f64, f64), out: &mut Vec<u32>) {
        out.clear();
        let (bx0, by0) = self.cell(b.0, b.1);
        let (bx1, by1) = self.cell(b.2, b.3);
        for by in by0..=by1 {
            for bx in bx0..=bx1 {
                out.extend_from_slice(&self.buckets[by * self.nx + bx]);
            }
        }
        out.sort_unstable();
        out.dedup();
    }

    /// Whether `p` is inside the contour (even-odd, a ray to the right).
    pub fn inside(&self, c: &Contour, p: Point) -> bool {
        let (bx0, by) = self.cell(p.x, p.y);
        if p.y < self.y0 || p.y >= self.y0 + self.ny as f64 * BUCKET {
            return false;
        }
        let mut odd = false;
        for bx in bx0..self.nx {
            for &id in &self.buckets[by * self.nx + bx] {
                let (a, b) = self.seg(c, id);
                if (a.y <= p.y) == (b.y <= p.y) {
                    continue;
                }
                // within the segment's own span (rounding can put it a hair outside, past the
                // buckets the segment is filed in: a crossing at the contour's leftmost point
                // was lost that way, and a side beside it counted as inside)
                let x = (a.x + (p.y - a.y) * (b.x - a.x) / (b.y - a.y))
                    .clamp(a.x.min(b.x), a.x.max(b.x));
                // each crossing is counted in the one bucket that holds its x
                let mine = self.cell(x, p.y).0 == bx;
                if mine && x > p.x {
                    odd = !odd;
                }
            }
        }
        odd
    }
}
