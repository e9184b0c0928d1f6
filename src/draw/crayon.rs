//! What a crayon meets: the widest line that gets from START to each cell of a maze, measured on
//! the puzzle page's printed walls, not on the cells.
//!
//! A child's line must get through the narrowest printed passage on its way: a door, a passage
//! the shape's outline cuts, the gap between a wall's end and the outline. [`measure`] draws the
//! page's walls (every stroke and fill of [`Layer::Walls`], [`Layer::Crossings`] and
//! [`Layer::Picture`]) into a
//! bitmap of about [`PX_PER_CORRIDOR`] pixels across a corridor, closes the entrances and the
//! exit with a line across each (so the paper round the maze is not a way in), and takes every
//! pixel's clearance (its distance to the nearest ink, an exact Euclidean distance transform).
//! The widest line from the entrances to a pixel is the largest clearance that a path from an
//! entrance to it keeps all the way (a widest-path search over the pixels, in clearance order).
//! A cell's width is the widest line that reaches any point of it; [`Reach::narrowest_mm`] is
//! the least over every cell, so a pinch anywhere a child can go shows, dead ends included.
//!
//! Widths are diameters in millimetres on the page, within about a pixel (a fifth of a corridor
//! at the coarsest). A weave maze's passages under bridges (closed in the bitmap by the bridge's
//! walls) are followed from the middle of the cell on one side to the middle of the cell on the
//! other; a cell still unreached is left out.

use super::{Drawing, Layer, Layout, Pos, Seg, Shape};
use crate::outline::bitmap::{FAR, distance_to, fill_rings, stroke_segment};
use crate::pipeline::Generated;
use crate::topology::Coord;

/// How many pixels across a corridor the bitmap aims for.
const PX_PER_CORRIDOR: f64 = 16.0;
/// The coarsest bitmap, pixels per millimetre.
const MIN_PX_PER_MM: f64 = 3.0;
/// The most pixels the bitmap may have (a bigger maze is measured more coarsely, or not at all).
const MAX_PIXELS: f64 = 4_000_000.0;
/// The fewest pixels across a corridor that still measure something.
const MIN_PX_ACROSS: f64 = 5.0;
/// Clearance levels per pixel in the widest-path search.
const LEVELS_PER_PX: f64 = 4.0;

/// What [`measure`] found.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Reach {
    /// The widest line, in millimetres, that gets from an entrance to every cell: the narrowest
    /// printed passage a child can meet.
    pub narrowest_mm: f64,
    /// The cell where the narrowest passage leads.
    pub cell: Coord,
    /// A point of that cell on the page, millimetres (where its widest line gets to).
    pub at: Pos,
    /// The widest line, in millimetres, that gets from an entrance to the exit.
    pub finish_mm: f64,
    /// How many cells were measured.
    pub cells: usize,
}

/// The bitmap: page millimetres to pixels.
struct Raster {
    x0: f64,
    y0: f64,
    ppm: f64,
    w: usize,
    h: usize,
}

impl Raster {
    fn px(&self, p: Pos) -> (f64, f64) {
        ((p.x - self.x0) * self.ppm, (p.y - self.y0) * self.ppm)
    }

    fn index(&self, (x, y): (f64, f64)) -> Option<usize> {
        (x >= 0.0 && y >= 0.0 && x < self.w as f64 && y < self.h as f64)
            .then(|| y as usize * self.w + x as usize)
    }
}

/// The path's subpaths as polylines in pixels, curves flattened to about a pixel.
fn polylines(r: &Raster, path: &super::Path) -> Vec<(Vec<(f64, f64)>, bool)> {
    let mut out: Vec<(Vec<(f64, f64)>, bool)> = Vec::new();
    for seg in path.segs() {
        match seg {
            Seg::MoveTo(p) => out.push((vec![r.px(p)], false)),
            Seg::LineTo(p) => {
                if let Some((line, _)) = out.last_mut() {
                    line.push(r.px(p));
                }
            }
            Seg::CubicTo(c1, c2, p) => {
                if let Some((line, _)) = out.last_mut() {
                    let a = *line.last().unwrap_or(&r.px(c1));
                    let (b, c, d) = (r.px(c1), r.px(c2), r.px(p));
                    let span = (b.0 - a.0).hypot(b.1 - a.1)
                        + (c.0 - b.0).hypot(c.1 - b.1)
                        + (d.0 - c.0).hypot(d.1 - c.1);
                    let n = (span / 2.0).ceil().clamp(2.0, 256.0) as usize;
                    for k in 1..=n {
                        let t = k as f64 / n as f64;
                        let u = 1.0 - t;
                        let (w0, w1, w2, w3) =
                            (u * u * u, 3.0 * u * u * t, 3.0 * u * t * t, t * t * t);
                        line.push((
                            w0 * a.0 + w1 * b.0 + w2 * c.0 + w3 * d.0,
                            w0 * a.1 + w1 * b.1 + w2 * c.1 + w3 * d.1,
                        ));
                    }
                }
            }
            Seg::Close => {
                if let Some((_, closed)) = out.last_mut() {
                    *closed = true;
                }
            }
        }
    }
    out
}

/// The widest line from START to every cell of `g` on its printed puzzle page `page` laid out
/// as `lay` ([`Reach`]). `None` when the page's corridors are too small to measure in a bitmap
/// of bounded size, or the maze has no cells.
pub fn measure(g: &Generated, page: &Drawing, lay: &Layout) -> Option<Reach> {
    let grid = g.maze.grid();
    if grid.is_empty() {
        return None;
    }
    let openings = super::geometry(g).openings;
    // the bitmap: the maze's box and a cell round it
    let pad = 2.0 * lay.scale + lay.wall_mm;
    let (x0, y0) = (lay.maze_box.x - pad, lay.maze_box.y - pad);
    let (bw, bh) = (lay.maze_box.w + 2.0 * pad, lay.maze_box.h + 2.0 * pad);
    let corridor = lay.corridor_mm.max(1e-6);
    let mut ppm = (PX_PER_CORRIDOR / corridor).max(MIN_PX_PER_MM);
    if bw * bh * ppm * ppm > MAX_PIXELS {
        ppm = (MAX_PIXELS / (bw * bh)).sqrt();
    }
    if corridor * ppm < MIN_PX_ACROSS || !ppm.is_finite() {
        return None;
    }
    let r = Raster {
        x0,
        y0,
        ppm,
        w: (bw * ppm).ceil() as usize,
        h: (bh * ppm).ceil() as usize,
    };
    let n = r.w * r.h;
    let mut ink = vec![false; n];
    for item in page.items.iter() {
        if !matches!(item.layer, Layer::Walls | Layer::Crossings | Layer::Picture) {
            continue;
        }
        match &item.shape {
            Shape::Stroke { path, width, color } if *color != super::Rgb::WHITE => {
                // every pixel the stroke touches: a line of ink with no gap a 4-connected
                // walk slips through
                let half = width / 2.0 * ppm + 0.5;
                for (line, closed) in polylines(&r, path) {
                    for k in 1..line.len() {
                        stroke_segment(&mut ink, r.w, line[k - 1], line[k], half, true);
                    }
                    if closed && line.len() > 1 {
                        stroke_segment(&mut ink, r.w, line[line.len() - 1], line[0], half, true);
                    }
                    if line.len() == 1 {
                        stroke_segment(&mut ink, r.w, line[0], line[0], half, true);
                    }
                }
            }
            Shape::Fill { path, color } if *color != super::Rgb::WHITE => {
                let rings: Vec<Vec<(f64, f64)>> =
                    polylines(&r, path).into_iter().map(|(l, _)| l).collect();
                fill_rings(&rings, r.w, &mut ink, true);
            }
            _ => {}
        }
    }
    // the paper round the maze: reached from the bitmap's edge without crossing ink or the
    // discs that plug the openings (a disc wider than the gap, on its middle)
    let mut sealed = ink.clone();
    let mut sources = Vec::new();
    let mut sides = Vec::new();
    for (k, (&(p, (nx, ny)), e)) in openings.iter().zip(g.openings()).enumerate() {
        sides.clear();
        grid.sides(e.cell, &mut sides);
        let side = sides
            .get(e.side)
            .map_or(1.0, crate::outline::side_length)
            .max(1.0);
        let c = r.px(lay.to_page(p));
        stroke_segment(&mut sealed, r.w, c, c, 0.75 * side * lay.scale * ppm, true);
        sources.push((k, c, (nx, ny)));
    }
    let mut outside = vec![false; n];
    let mut stack: Vec<usize> = Vec::new();
    for x in 0..r.w {
        stack.push(x);
        stack.push((r.h - 1) * r.w + x);
    }
    for y in 0..r.h {
        stack.push(y * r.w);
        stack.push(y * r.w + r.w - 1);
    }
    while let Some(i) = stack.pop() {
        if outside[i] || sealed[i] {
            continue;
        }
        outside[i] = true;
        let (x, y) = (i % r.w, i / r.w);
        if x > 0 {
            stack.push(i - 1);
        }
        if x + 1 < r.w {
            stack.push(i + 1);
        }
        if y > 0 {
            stack.push(i - r.w);
        }
        if y + 1 < r.h {
            stack.push(i + r.w);
        }
    }
    drop(sealed);
    let d2 = distance_to(&ink, r.w, r.h);
    // a pixel's clearance, in levels: its distance to the nearest ink pixel (ink is drawn
    // half a pixel wider than the stroke, which the widths in millimetres add back)
    let level = |i: usize| -> i32 {
        if d2[i] >= FAR {
            return i32::MAX / 2;
        }
        (d2[i].sqrt() * LEVELS_PER_PX) as i32
    };
    let allowed = |i: usize| !ink[i] && !outside[i];
    // an opening's pixel: its middle, or the first free pixel inwards from it
    let start_pixel = |c: (f64, f64), (nx, ny): (f64, f64)| -> Option<usize> {
        let steps = (0.6 * lay.scale * ppm).ceil() as usize;
        (0..=steps).find_map(|s| {
            let t = s as f64;
            r.index((c.0 - nx * t, c.1 - ny * t))
                .filter(|&i| allowed(i))
        })
    };
    let exit = openings.len() - 1;
    let mut best = vec![-1i32; n];
    let top = sources
        .iter()
        .filter(|s| s.0 != exit)
        .filter_map(|&(_, c, nrm)| start_pixel(c, nrm))
        .map(&level)
        .max()?;
    let mut buckets: Vec<Vec<u32>> = vec![Vec::new(); top.max(0) as usize + 1];
    for &(k, c, nrm) in &sources {
        if k == exit {
            continue;
        }
        if let Some(i) = start_pixel(c, nrm) {
            let l = level(i);
            best[i] = l;
            buckets[l as usize].push(i as u32);
        }
    }
    // a weave's passages under its bridges: the middle of the cell on one side of a bridge
    // joined to the middle of the cell on the other (the bridge's walls close the way in the
    // bitmap; a child's line goes under them, as wide as the corridor)
    let mut portals: Vec<(u32, u32)> = Vec::new();
    for t in g.maze.tunnels() {
        let mid = |id| {
            r.index(r.px(lay.to_page(grid.center(id))))
                .filter(|&i| allowed(i))
        };
        if let (Some(a), Some(b)) = (mid(t.from), mid(t.to)) {
            portals.push((a as u32, b as u32));
            portals.push((b as u32, a as u32));
        }
    }
    portals.sort_unstable();
    for l in (0..buckets.len()).rev() {
        while let Some(i) = buckets[l].pop() {
            let i = i as usize;
            if best[i] != l as i32 {
                continue;
            }
            let (x, y) = (i % r.w, i / r.w);
            let mut visit = |j: usize| {
                if allowed(j) {
                    let v = level(j).min(l as i32);
                    if v > best[j] {
                        best[j] = v;
                        buckets[v as usize].push(j as u32);
                    }
                }
            };
            let from = portals.partition_point(|p| p.0 < i as u32);
            for &(_, j) in portals[from..].iter().take_while(|p| p.0 == i as u32) {
                visit(j as usize);
            }
            if x > 0 {
                visit(i - 1);
            }
            if x + 1 < r.w {
                visit(i + 1);
            }
            if y > 0 {
                visit(i - r.w);
            }
            if y + 1 < r.h {
                visit(i + r.w);
            }
        }
    }
    let mm = |l: i32| 2.0 * (f64::from(l) / LEVELS_PER_PX + 0.25) / ppm;
    let weave = !g.maze.tunnels().is_empty();
    let mut narrowest: Option<(f64, Coord, Pos)> = None;
    let mut cells = 0;
    let mut ring: Vec<(f64, f64)> = Vec::new();
    for id in grid.cells() {
        sides.clear();
        grid.sides(id, &mut sides);
        ring.clear();
        for s in &sides {
            let steps = if s.arc.is_some() { 8 } else { 1 };
            for k in 0..steps {
                let p = crate::outline::side_point(s, k as f64 / steps as f64);
                ring.push(r.px(lay.to_page(p)));
            }
        }
        let (lo, hi) = ring.iter().fold(
            ((f64::MAX, f64::MAX), (f64::MIN, f64::MIN)),
            |(lo, hi), p| {
                (
                    (lo.0.min(p.0), lo.1.min(p.1)),
                    (hi.0.max(p.0), hi.1.max(p.1)),
                )
            },
        );
        let (mut widest, mut free, mut at) = (-1i32, false, (0usize, 0usize));
        for y in (lo.1.floor().max(0.0) as usize)..(hi.1.ceil().max(0.0) as usize).min(r.h) {
            for x in (lo.0.floor().max(0.0) as usize)..(hi.0.ceil().max(0.0) as usize).min(r.w) {
                let i = y * r.w + x;
                if !allowed(i) || !inside(&ring, (x as f64 + 0.5, y as f64 + 0.5)) {
                    continue;
                }
                free = true;
                if best[i] > widest {
                    (widest, at) = (best[i], (x, y));
                }
            }
        }
        if !free || (widest < 0 && weave) {
            continue;
        }
        cells += 1;
        let width = if widest < 0 { 0.0 } else { mm(widest) };
        if narrowest.is_none_or(|(w, _, _)| width < w) {
            let p = Pos::new(
                r.x0 + (at.0 as f64 + 0.5) / ppm,
                r.y0 + (at.1 as f64 + 0.5) / ppm,
            );
            narrowest = Some((width, grid.coord(id), p));
        }
    }
    let (narrowest_mm, cell, at) = narrowest?;
    let finish_mm = sources
        .iter()
        .find(|s| s.0 == exit)
        .and_then(|&(_, c, nrm)| start_pixel(c, nrm))
        .map_or(0.0, |i| if best[i] < 0 { 0.0 } else { mm(best[i]) });
    Some(Reach {
        narrowest_mm,
        cell,
        at,
        finish_mm,
        cells,
    })
}

/// Whether the point `p` is inside the polygon `ring` (even-odd).
fn inside(ring: &[(f64, f64)], p: (f64, f64)) -> bool {
    let mut odd = false;
    for i in 0..ring.len() {
        let (a, b) = (ring[i], ring[(i + 1) % ring.len()]);
        if (a.1 <= p.1) != (b.1 <= p.1) && a.0 + (p.1 - a.1) * (b.0 - a.0) / (b.1 - a.1) > p.0 {
            odd = !odd;
        }
    }
    odd
}
