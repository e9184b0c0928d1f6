//! Thin parts: where the silhouette itself is too thin to hold a crayon's line (a butterfly's
//! antennae, a bird's legs and feet, the tip of a tail), found on the shape, not on the cells.
//!
//! [`ThinMap`] draws the shape's contour into a bitmap of about [`PX_PER_DISC`] pixels across a
//! crayon's disc ([`super::neck::disc`]) and opens it with that disc: the shape's points no disc
//! inside the shape covers are thin. A cell merged into a maze cell ([`super::Outline::new`])
//! whose part inside the shape is mostly thin is drawn as picture, not as an empty tube a child
//! could enter. A thin strip the cells cut along a wide part of the shape is not thin here: the
//! shape is wide there.

use super::Clip;
use super::bitmap::{distance_to, fill_rings};
use crate::topology::{Coord, Point};

/// Pixels across the crayon's disc.
const PX_PER_DISC: f64 = 8.0;

/// The most pixels the bitmap may have (about a 100-cell-wide shape): a shape on a finer grid
/// (where the disc is a hairline beside the shape) is not searched for thin parts, so a big
/// maze's preview does not wait for two distance transforms of millions of pixels.
const MAX_PIXELS: f64 = 1_500_000.0;

/// The thin points of a clip's shape, as a bitmap in maze units.
pub(super) struct ThinMap {
    x0: f64,
    y0: f64,
    /// Pixels per maze unit.
    ppu: f64,
    w: usize,
    h: usize,
    inside: Vec<bool>,
    thin: Vec<bool>,
}

impl ThinMap {
    /// The thin points of `clip`'s shape for a disc of diameter `disc` (maze units); `None`
    /// when the bitmap would be too big or the shape is empty.
    pub(super) fn new(clip: &Clip, disc: f64) -> Option<ThinMap> {
        let rings = &clip.contour().rings;
        let (mut x0, mut y0, mut x1, mut y1) = (f64::MAX, f64::MAX, f64::MIN, f64::MIN);
        for p in rings.iter().flat_map(|r| r.flat.iter()) {
            (x0, y0, x1, y1) = (x0.min(p.x), y0.min(p.y), x1.max(p.x), y1.max(p.y));
        }
        if !(x1 > x0 && y1 > y0 && disc > 0.0) {
            return None;
        }
        let ppu = PX_PER_DISC / disc;
        // a pixel of paper all round
        let (x0, y0) = (x0 - 2.0 / ppu, y0 - 2.0 / ppu);
        let w = ((x1 - x0) * ppu).ceil() as usize + 3;
        let h = ((y1 - y0) * ppu).ceil() as usize + 3;
        if (w as f64) * (h as f64) > MAX_PIXELS {
            return None;
        }
        let px: Vec<Vec<(f64, f64)>> = rings
            .iter()
            .map(|r| {
                r.flat
                    .iter()
                    .map(|p| ((p.x - x0) * ppu, (p.y - y0) * ppu))
                    .collect()
            })
            .collect();
        let mut inside = vec![false; w * h];
        fill_rings(&px, w, &mut inside, true);
        // a disc of radius r fits at the points at least r from the paper; the points those
        // discs cover are the wide parts
        let outside: Vec<bool> = inside.iter().map(|&i| !i).collect();
        let to_paper = distance_to(&outside, w, h);
        let r = PX_PER_DISC / 2.0;
        let centres: Vec<bool> = to_paper.iter().map(|&d2| d2 >= r * r).collect();
        let to_centre = distance_to(&centres, w, h);
        let reach = (r + 0.5) * (r + 0.5);
        let thin = inside
            .iter()
            .zip(&to_centre)
            .map(|(&i, &d2)| i && d2 > reach)
            .collect();
        Some(ThinMap {
            x0,
            y0,
            ppu,
            w,
            h,
            inside,
            thin,
        })
    }

    /// Whether most of cell `c`'s part inside the shape is thin.
    pub(super) fn mostly_thin(&self, clip: &Clip, c: Coord) -> bool {
        let rings = clip.polygon(c);
        let (mut x0, mut y0, mut x1, mut y1) = (f64::MAX, f64::MAX, f64::MIN, f64::MIN);
        for p in rings.iter().flatten() {
            (x0, y0, x1, y1) = (x0.min(p.x), y0.min(p.y), x1.max(p.x), y1.max(p.y));
        }
        if !(x1 >= x0 && y1 >= y0) {
            return false;
        }
        let col = |x: f64| ((x - self.x0) * self.ppu).floor().clamp(0.0, self.w as f64) as usize;
        let row = |y: f64| ((y - self.y0) * self.ppu).floor().clamp(0.0, self.h as f64) as usize;
        let (mut thin, mut all) = (0usize, 0usize);
        for y in row(y0)..(row(y1) + 1).min(self.h) {
            for x in col(x0)..(col(x1) + 1).min(self.w) {
                let i = y * self.w + x;
                if !self.inside[i] {
                    continue;
                }
                let p = Point::new(
                    self.x0 + (x as f64 + 0.5) / self.ppu,
                    self.y0 + (y as f64 + 0.5) / self.ppu,
                );
                if !in_rings(&rings, p) {
                    continue;
                }
                all += 1;
                thin += usize::from(self.thin[i]);
            }
        }
        all > 0 && 2 * thin > all
    }
}

/// Whether `p` is inside `rings` (even-odd).
fn in_rings(rings: &[Vec<Point>], p: Point) -> bool {
    let mut inside = false;
    for ring in rings {
        let n = ring.len();
        for k in 0..n {
            let (a, b) = (ring[k], ring[(k + 1) % n]);
            if (a.y > p.y) != (b.y > p.y) && p.x < a.x + (p.y - a.y) / (b.y - a.y) * (b.x - a.x) {
                inside = !inside;
            }
        }
    }
    inside
}
