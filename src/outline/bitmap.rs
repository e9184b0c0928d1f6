//! Small bitmaps for measuring room: polygons filled by scanline and the exact Euclidean
//! distance transform (Felzenszwalb and Huttenlocher, "Distance Transforms of Sampled
//! Functions"). The necks of clipped cells ([`super::neck`]) and the crayon's way on the printed
//! page ([`crate::draw`]) are measured with them.

/// Far: more than any squared distance in a bitmap this crate makes.
pub(crate) const FAR: f64 = 1e12;

/// Sets `value` on the pixels of the `w`-wide bitmap `out` whose centres the rings cover
/// (non-zero winding; rings in pixel coordinates, closed implicitly).
pub(crate) fn fill_rings(rings: &[Vec<(f64, f64)>], w: usize, out: &mut [bool], value: bool) {
    let h = out.len() / w.max(1);
    let mut edges = Vec::new();
    for ring in rings {
        for i in 0..ring.len() {
            edges.push((ring[i], ring[(i + 1) % ring.len()]));
        }
    }
    let (lo, hi) = edges.iter().fold((f64::MAX, f64::MIN), |(lo, hi), (a, b)| {
        (lo.min(a.1).min(b.1), hi.max(a.1).max(b.1))
    });
    if lo > hi {
        return;
    }
    let mut cross: Vec<(f64, i32)> = Vec::new();
    let (y0, y1) = (
        lo.floor().max(0.0) as usize,
        (hi.ceil().max(0.0) as usize).min(h),
    );
    for y in y0..y1 {
        let cy = y as f64 + 0.5;
        cross.clear();
        for &(a, b) in &edges {
            if (a.1 <= cy) != (b.1 <= cy) {
                let x = a.0 + (cy - a.1) * (b.0 - a.0) / (b.1 - a.1);
                cross.push((x, if b.1 > a.1 { 1 } else { -1 }));
            }
        }
        cross.sort_by(|p, q| p.0.total_cmp(&q.0));
        let mut wind = 0;
        for k in 0..cross.len() {
            wind += cross[k].1;
            if wind != 0 && k + 1 < cross.len() {
                let from = (cross[k].0 - 0.5).ceil().max(0.0) as usize;
                let to = ((cross[k + 1].0 - 0.5).ceil().max(0.0) as usize).min(w);
                for x in from..to {
                    out[y * w + x] = value;
                }
            }
        }
    }
}

/// The distance from `p` to the segment `a`-`b`.
pub(crate) fn seg_dist(p: (f64, f64), a: (f64, f64), b: (f64, f64)) -> f64 {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let l2 = dx * dx + dy * dy;
    let t = if l2 > 0.0 {
        (((p.0 - a.0) * dx + (p.1 - a.1) * dy) / l2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    (p.0 - a.0 - t * dx).hypot(p.1 - a.1 - t * dy)
}

/// Sets `value` on the pixels of the `w`-wide bitmap `out` whose centres lie within `half`
/// pixels of the segment `a`-`b` (pixel coordinates).
pub(crate) fn stroke_segment(
    out: &mut [bool],
    w: usize,
    a: (f64, f64),
    b: (f64, f64),
    half: f64,
    value: bool,
) {
    let h = out.len() / w.max(1);
    let lo_x = (a.0.min(b.0) - half - 1.0).floor().max(0.0) as usize;
    let hi_x = ((a.0.max(b.0) + half + 1.0).ceil().max(0.0) as usize).min(w);
    let lo_y = (a.1.min(b.1) - half - 1.0).floor().max(0.0) as usize;
    let hi_y = ((a.1.max(b.1) + half + 1.0).ceil().max(0.0) as usize).min(h);
    for y in lo_y..hi_y {
        for x in lo_x..hi_x {
            if seg_dist((x as f64 + 0.5, y as f64 + 0.5), a, b) <= half {
                out[y * w + x] = value;
            }
        }
    }
}

/// The squared distance transform of one row or column: `f` in, the lower envelope of the
/// parabolas rooted at its samples out.
fn edt_1d(f: &[f64], d: &mut [f64], v: &mut [usize], z: &mut [f64]) {
    let n = f.len();
    let mut k = 0usize;
    v[0] = 0;
    z[0] = f64::NEG_INFINITY;
    z[1] = f64::INFINITY;
    let sq = |q: usize| (q * q) as f64;
    for q in 1..n {
        let mut s;
        loop {
            let p = v[k];
            s = ((f[q] + sq(q)) - (f[p] + sq(p))) / (2.0 * (q - p) as f64);
            // z[0] is minus infinity: the loop ends at k = 0 at the latest
            if s <= z[k] {
                k -= 1;
            } else {
                break;
            }
        }
        k += 1;
        v[k] = q;
        z[k] = s;
        z[k + 1] = f64::INFINITY;
    }
    k = 0;
    for (q, out) in d.iter_mut().enumerate().take(n) {
        while z[k + 1] < q as f64 {
            k += 1;
        }
        let p = v[k];
        let dq = q as f64 - p as f64;
        *out = dq * dq + f[p];
    }
}

/// Every pixel's squared distance, in pixels, to the nearest pixel set in `ink` (`w` x `h`;
/// [`FAR`] or more when none is).
pub(crate) fn distance_to(ink: &[bool], w: usize, h: usize) -> Vec<f64> {
    let mut grid: Vec<f64> = ink.iter().map(|&i| if i { 0.0 } else { FAR }).collect();
    let n = w.max(h);
    if n == 0 {
        return grid;
    }
    let (mut f, mut d) = (vec![0f64; n], vec![0f64; n]);
    let (mut v, mut z) = (vec![0usize; n], vec![0f64; n + 1]);
    for x in 0..w {
        for y in 0..h {
            f[y] = grid[y * w + x];
        }
        edt_1d(&f[..h], &mut d[..h], &mut v, &mut z);
        for y in 0..h {
            grid[y * w + x] = d[y];
        }
    }
    for y in 0..h {
        let row = &mut grid[y * w..(y + 1) * w];
        f[..w].copy_from_slice(row);
        edt_1d(&f[..w], &mut d[..w], &mut v, &mut z);
        row.copy_from_slice(&d[..w]);
    }
    grid
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The transform against brute force on a scatter of ink.
    #[test]
    fn the_distance_transform_is_exact() {
        let (w, h) = (23, 17);
        let mut ink = vec![false; w * h];
        for (k, i) in ink.iter_mut().enumerate() {
            *i = (k * 7919) % 13 == 0;
        }
        let d = distance_to(&ink, w, h);
        for y in 0..h {
            for x in 0..w {
                let mut best = FAR;
                for (k, &i) in ink.iter().enumerate() {
                    if i {
                        let (dx, dy) = (x as f64 - (k % w) as f64, y as f64 - (k / w) as f64);
                        best = best.min(dx * dx + dy * dy);
                    }
                }
                assert_eq!(d[y * w + x], best, "{x},{y}");
            }
        }
        // no ink at all: everything far
        assert!(distance_to(&[false; 6], 3, 2).iter().all(|&v| v >= FAR));
    }

    #[test]
    fn a_square_fills_its_pixels() {
        let mut out = vec![false; 10 * 10];
        fill_rings(
            &[vec![(2.0, 2.0), (6.0, 2.0), (6.0, 5.0), (2.0, 5.0)]],
            10,
            &mut out,
            true,
        );
        assert_eq!(out.iter().filter(|&&b| b).count(), 12);
        assert!(out[3 * 10 + 2] && !out[3 * 10 + 6] && !out[5 * 10 + 3]);
    }
}
