//! One cell against the contour: the parts of its sides inside the shape, the runs of contour
//! inside it, the share of its area inside and that part's centroid ([`clip_cell`]), and the
//! largest piece when the contour cuts it in several ([`main_piece`]).

use super::geometry::{Green, hits, in_polygon, run_points, side_point, side_points};
use super::index::Index;
use super::{CellClip, Cut, EPS, MainPiece, POLYGON_TOLERANCE, Run};
use crate::shape::outline::Contour;
use crate::topology::{Coord, Point, Side, Tessellation};

/// How far the cell polygons that decide which pieces of contour are inside a cell stray from
/// their arcs, in maze units.
const CELL_TOLERANCE: f64 = 1e-5;

/// Buffers [`clip_cell`] reuses from cell to cell.
#[derive(Default)]
pub(super) struct Scratch {
    sides: Vec<Side>,
    cand: Vec<u32>,
    poly: Vec<Point>,
    hit: Vec<(f64, f64)>,
    us: Vec<f64>,
    pts: Vec<Point>,
}

/// What `contour` (filed in `index`) does to cell `c` of `t`.
pub(super) fn clip_cell(
    contour: &Contour,
    index: &Index,
    t: &dyn Tessellation,
    c: Coord,
    buf: &mut Scratch,
) -> CellClip {
    let Scratch {
        sides,
        cand,
        poly,
        hit,
        us,
        pts,
    } = buf;
    sides.clear();
    t.sides(c, sides);
    // the cell's box from its sides coarsely flattened (every chord lies within
    // the tolerance of its arc, so the box grown by it holds the cell)
    poly.clear();
    for s in sides.iter() {
        side_points(s, 0.0, 1.0, POLYGON_TOLERANCE, poly);
    }
    let bb = poly.iter().fold(
        (f64::MAX, f64::MAX, f64::MIN, f64::MIN),
        |(a, b, cc, d), p| (a.min(p.x), b.min(p.y), cc.max(p.x), d.max(p.y)),
    );
    let bb = (
        bb.0 - POLYGON_TOLERANCE,
        bb.1 - POLYGON_TOLERANCE,
        bb.2 + POLYGON_TOLERANCE,
        bb.3 + POLYGON_TOLERANCE,
    );
    index.query(bb, cand);
    if cand.is_empty() {
        let inside = index.inside(contour, t.center(c));
        return if inside { CellClip::In } else { CellClip::Out };
    }
    // arcs flattened finely: a piece of contour just inside an arc is inside
    poly.clear();
    for s in sides.iter() {
        poly.pop();
        side_points(s, 0.0, 1.0, CELL_TOLERANCE, poly);
    }
    poly.pop();
    let (side_parts, any_hit) = parts_inside(contour, index, sides, cand, us, hit);
    let mut runs = runs_inside(contour, index, sides, cand, poly, us, hit);
    join_seams(contour, &mut runs);
    if !any_hit && runs.is_empty() {
        let inside = index.inside(contour, t.center(c));
        return if inside { CellClip::In } else { CellClip::Out };
    }
    let o = t.center(c);
    let (mut whole, mut part) = (Green::at(o), Green::at(o));
    for (s, parts) in sides.iter().zip(&side_parts) {
        whole.add_side(s, 0.0, 1.0);
        for &(t0, t1) in parts {
            part.add_side(s, t0, t1);
        }
    }
    for r in &runs {
        run_points(&contour.rings[r.ring as usize], r, pts);
        for w in pts.windows(2) {
            part.add(w[0], w[1]);
        }
    }
    let share = if whole.a.abs() > 1e-12 {
        (part.a / whole.a).clamp(0.0, 1.0)
    } else {
        0.0
    };
    if share <= 1e-9 && runs.is_empty() {
        return CellClip::Out;
    }
    let main = main_piece(sides, &side_parts, &runs, contour, o, whole.a, pts);
    CellClip::Cut(Box::new(Cut {
        share,
        sides: side_parts,
        runs,
        centroid: part.centroid().unwrap_or_else(|| t.center(c)),
        main,
    }))
}

/// The parts of each of `sides` inside the shape (parameter intervals), cut where the contour's
/// segments `cand` cross them, and whether any segment crosses any side.
fn parts_inside(
    contour: &Contour,
    index: &Index,
    sides: &[Side],
    cand: &[u32],
    us: &mut Vec<f64>,
    hit: &mut Vec<(f64, f64)>,
) -> (Vec<Vec<(f64, f64)>>, bool) {
    let mut side_parts = Vec::with_capacity(sides.len());
    let mut any_hit = false;
    for s in sides {
        us.clear();
        us.push(0.0);
        us.push(1.0);
        for &id in cand {
            let (p, q) = index.seg(contour, id);
            hit.clear();
            hits(p, q, s, hit);
            us.extend(hit.iter().map(|h| h.1));
        }
        us.sort_by(f64::total_cmp);
        any_hit |= us.len() > 2;
        let mut parts: Vec<(f64, f64)> = Vec::new();
        for w in us.windows(2) {
            if w[1] - w[0] < EPS {
                continue;
            }
            let m = side_point(s, (w[0] + w[1]) / 2.0);
            if index.inside(contour, m) {
                match parts.last_mut() {
                    Some(last) if (last.1 - w[0]).abs() < EPS => last.1 = w[1],
                    _ => parts.push((w[0], w[1])),
                }
            }
        }
        side_parts.push(parts);
    }
    (side_parts, any_hit)
}

/// The runs of the contour's segments `cand` inside the cell with sides `sides` (and polygon
/// `poly`), in segment order, a run carried on from one segment to the next.
fn runs_inside(
    contour: &Contour,
    index: &Index,
    sides: &[Side],
    cand: &[u32],
    poly: &[Point],
    us: &mut Vec<f64>,
    hit: &mut Vec<(f64, f64)>,
) -> Vec<Run> {
    let mut runs: Vec<Run> = Vec::new();
    for &id in cand {
        let (p, q) = index.seg(contour, id);
        us.clear();
        us.push(0.0);
        us.push(1.0);
        for s in sides {
            hit.clear();
            hits(p, q, s, hit);
            us.extend(hit.iter().map(|h| h.0));
        }
        us.sort_by(f64::total_cmp);
        let (ring, seg) = index.segs[id as usize];
        for w in us.windows(2) {
            if w[1] - w[0] < EPS {
                continue;
            }
            let u = (w[0] + w[1]) / 2.0;
            let m = Point::new(p.x + (q.x - p.x) * u, p.y + (q.y - p.y) * u);
            if !in_polygon(poly, m) {
                continue;
            }
            let at = |u: f64| Point::new(p.x + (q.x - p.x) * u, p.y + (q.y - p.y) * u);
            let n = contour.rings[ring as usize].flat.len() as u32;
            match runs.last_mut() {
                Some(last)
                    if last.ring == ring
                        && ((last.s1 == seg && (last.u1 - w[0]).abs() < EPS)
                            || ((last.s1 + 1) % n == seg && last.u1 > 1.0 - EPS && w[0] < EPS)) =>
                {
                    last.s1 = seg;
                    last.u1 = w[1];
                    last.b = at(w[1]);
                }
                _ => runs.push(Run {
                    ring,
                    s0: seg,
                    u0: w[0],
                    s1: seg,
                    u1: w[1],
                    a: at(w[0]),
                    b: at(w[1]),
                }),
            }
        }
    }
    runs
}

/// Joins each run that ends at its ring's end to the run that starts at the ring's start (a
/// run through the ring's seam).
fn join_seams(contour: &Contour, runs: &mut Vec<Run>) {
    let mut k = 0;
    while k < runs.len() {
        let r = runs[k];
        let n = contour.rings[r.ring as usize].flat.len() as u32;
        let head = runs
            .iter()
            .position(|h| h.ring == r.ring && h.s0 == 0 && h.u0 < EPS);
        match head {
            Some(h) if h != k && r.s1 + 1 == n && r.u1 > 1.0 - EPS => {
                let hr = runs.remove(h);
                let k = if h < k { k - 1 } else { k };
                runs[k].s1 = hr.s1;
                runs[k].u1 = hr.u1;
                runs[k].b = hr.b;
            }
            _ => k += 1,
        }
    }
}

/// Points closer than this (maze units) are where a run of the contour meets a side part.
const MEET: f64 = 1e-6;

/// The pieces a cell's inside falls into, when more than one: the side parts of the largest
/// (by area) and its share of the cell (area `whole`, Green's sums taken about `o`); `None`
/// when the side parts all bound one piece. Side parts meeting at a corner are one piece, and
/// a run of the contour joins the parts at its two ends (the inside lies along one side of
/// it). Runs that close inside the cell (a ring wholly in it) are left out of the areas.
fn main_piece(
    sides: &[Side],
    side_parts: &[Vec<(f64, f64)>],
    runs: &[Run],
    contour: &Contour,
    o: Point,
    whole: f64,
    pts: &mut Vec<Point>,
) -> Option<Box<MainPiece>> {
    // every side part, flattened: (side, part)
    let parts: Vec<(usize, usize)> = side_parts
        .iter()
        .enumerate()
        .flat_map(|(i, v)| (0..v.len()).map(move |j| (i, j)))
        .collect();
    if parts.len() < 2 {
        return None;
    }
    let mut up: Vec<usize> = (0..parts.len()).collect();
    fn root(up: &mut [usize], mut x: usize) -> usize {
        while up[x] != x {
            up[x] = up[up[x]];
            x = up[x];
        }
        x
    }
    let join = |up: &mut Vec<usize>, a: usize, b: usize| {
        let (ra, rb) = (root(up, a), root(up, b));
        if ra != rb {
            up[ra.max(rb)] = ra.min(rb);
        }
    };
    let ends: Vec<(Point, Point)> = parts
        .iter()
        .map(|&(i, j)| {
            let (t0, t1) = side_parts[i][j];
            (side_point(&sides[i], t0), side_point(&sides[i], t1))
        })
        .collect();
    let close = |p: Point, q: Point| (p.x - q.x).hypot(p.y - q.y) < MEET;
    // parts meeting at a corner (or anywhere: one point is one piece)
    for a in 0..parts.len() {
        for b in a + 1..parts.len() {
            let ((a0, a1), (b0, b1)) = (ends[a], ends[b]);
            if close(a1, b0) || close(b1, a0) || close(a0, b0) || close(a1, b1) {
                join(&mut up, a, b);
            }
        }
    }
    // each run joins the parts at its two ends; it bounds that piece
    let touching = |p: Point| {
        ends.iter()
            .position(|&(e0, e1)| close(p, e0) || close(p, e1))
    };
    let mut run_piece = vec![None; runs.len()];
    for (r, run) in runs.iter().enumerate() {
        if let (Some(x), Some(y)) = (touching(run.a), touching(run.b)) {
            join(&mut up, x, y);
            run_piece[r] = Some(x);
        }
    }
    let roots: Vec<usize> = (0..parts.len()).map(|k| root(&mut up, k)).collect();
    let mut labels = roots.clone();
    labels.sort_unstable();
    labels.dedup();
    if labels.len() < 2 {
        return None;
    }
    // each piece's area, from its side parts and runs
    let mut areas = vec![Green::at(o); labels.len()];
    let label = |k: usize| labels.binary_search(&roots[k]).expect("a root is a label");
    for (k, &(i, j)) in parts.iter().enumerate() {
        let (t0, t1) = side_parts[i][j];
        areas[label(k)].add_side(&sides[i], t0, t1);
    }
    for (r, run) in runs.iter().enumerate() {
        if let Some(k) = run_piece[r] {
            run_points(&contour.rings[run.ring as usize], run, pts);
            let g = &mut areas[label(k)];
            for w in pts.windows(2) {
                g.add(w[0], w[1]);
            }
        }
    }
    let best = (0..labels.len())
        .max_by(|&x, &y| areas[x].a.total_cmp(&areas[y].a).then(y.cmp(&x)))
        .expect("two labels");
    let mut main: Vec<Vec<(f64, f64)>> = vec![Vec::new(); side_parts.len()];
    for (k, &(i, j)) in parts.iter().enumerate() {
        if label(k) == best {
            main[i].push(side_parts[i][j]);
        }
    }
    let share = if whole.abs() > 1e-12 {
        (areas[best].a / whole).clamp(0.0, 1.0)
    } else {
        0.0
    };
    Some(Box::new(MainPiece { sides: main, share }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::outline::Clip;
    use crate::shape::Foreground;
    use crate::shape::fit::PixelMap;
    use crate::shape::outline::Ring;
    use crate::shape::outline::trace;
    use crate::topology::Topology;
    use crate::topology::TopologyKind;
    use std::sync::Arc;

    /// The clip of an n x n `kind` grid by the traced outline of `fg`.
    fn clip_of(fg: &Foreground, kind: TopologyKind, n: u32) -> Clip {
        let topo = Topology::new(kind, n, n).unwrap();
        let place = PixelMap::new(fg, &topo);
        Clip::new(Arc::new(trace(fg, &place)), topo)
    }

    fn disc_clip(kind: TopologyKind, n: u32) -> Clip {
        let size = 400u32;
        let c = f64::from(size) / 2.0;
        let bits: Vec<bool> = (0..size * size)
            .map(|i| {
                let (x, y) = (f64::from(i % size) + 0.5, f64::from(i / size) + 0.5);
                (x - c).hypot(y - c) <= 190.0
            })
            .collect();
        clip_of(&Foreground::from_bits(size, size, &bits).unwrap(), kind, n)
    }

    #[test]
    fn a_cell_cut_in_two_is_its_larger_piece() {
        // a square with a slanting slot (under half a cell wide) from its top to near its
        // bottom: cells the slot crosses near a corner are cut in two pieces
        let size = 400u32;
        let bits: Vec<bool> = (0..size * size)
            .map(|i| {
                let (x, y) = (f64::from(i % size), f64::from(i / size));
                let slot = (x - 100.0 - (y - 20.0) * 0.7).abs() < 7.0 && y < 300.0;
                (20.0..380.0).contains(&y) && (20.0..380.0).contains(&x) && !slot
            })
            .collect();
        let fg = Foreground::from_bits(size, size, &bits).unwrap();
        for kind in [TopologyKind::Rect, TopologyKind::Hex] {
            let clip = clip_of(&fg, kind, 10);
            let t = clip.topology().tess();
            let mut sides = Vec::new();
            let mut split = 0;
            for row in 0..t.rows() {
                for col in 0..t.cols(row) {
                    let c = Coord::new(row, col);
                    let CellClip::Cut(cut) = clip.cell(c) else {
                        continue;
                    };
                    let Some(main) = &cut.main else { continue };
                    split += 1;
                    assert!(
                        main.share < cut.share && main.share > 0.0,
                        "{c:?}: {}",
                        main.share
                    );
                    sides.clear();
                    t.sides(c, &mut sides);
                    // every part off the main piece is across the slot from every part on it:
                    // the straight way between their middles leaves the shape
                    for (i, s) in sides.iter().enumerate() {
                        for &(a0, a1) in clip.side_parts(c, i) {
                            let on = main.sides[i].contains(&(a0, a1));
                            assert_eq!(clip.main_parts(c, i).contains(&(a0, a1)), on);
                            if on {
                                continue;
                            }
                            let p = side_point(s, (a0 + a1) / 2.0);
                            for (j, r) in sides.iter().enumerate() {
                                for &(b0, b1) in &main.sides[j] {
                                    let q = side_point(r, (b0 + b1) / 2.0);
                                    let leaves = (1..40).any(|k| {
                                        let f = f64::from(k) / 40.0;
                                        let m = Point::new(
                                            p.x + (q.x - p.x) * f,
                                            p.y + (q.y - p.y) * f,
                                        );
                                        !clip.inside(m)
                                    });
                                    assert!(leaves, "{kind:?} {c:?}: sides {i} and {j}");
                                }
                            }
                        }
                    }
                }
            }
            assert!(split >= 3, "{kind:?}: {split} cells cut in two");
        }
    }

    #[test]
    fn shares_add_up_to_the_shape_area() {
        for kind in [
            TopologyKind::Rect,
            TopologyKind::Hex,
            TopologyKind::Polar,
            TopologyKind::Tri,
        ] {
            let clip = disc_clip(kind, 12);
            let t = clip.topology().tess();
            let mut sides = Vec::new();
            let mut total = 0.0;
            for row in 0..t.rows() {
                for col in 0..t.cols(row) {
                    let c = Coord::new(row, col);
                    sides.clear();
                    t.sides(c, &mut sides);
                    let mut g = Green::at(Point::new(0.0, 0.0));
                    for s in &sides {
                        g.add_side(s, 0.0, 1.0);
                    }
                    total += g.a * clip.share(c);
                }
            }
            let shape: f64 = clip.contour().rings.iter().map(Ring::area).sum();
            // a tri grid's rows end in half-triangles: the disc touching its box pokes out
            let slack = if kind == TopologyKind::Tri {
                0.04
            } else {
                0.01
            };
            assert!(
                total <= shape * 1.001 && (total - shape).abs() / shape < slack,
                "{kind:?}: cells {total} shape {shape}"
            );
        }
    }
}
