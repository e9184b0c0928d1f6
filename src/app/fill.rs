//! Filling any closed path for the preview, with the non-zero rule the exporters use: several
//! loops, holes, concave outlines. egui's tessellator fills convex polygons only, and a tile
//! maze's walls are one path of many loops (see [`crate::draw::tiles`]).
//!
//! The area is cut into horizontal slabs at every vertex's height. Inside a slab no edge starts
//! or ends, and edges of simple loops that do not cross each other do not cross there either, so
//! the filled spans of the slab are exact trapezoids: two triangles each.

use egui::{Color32, Mesh, Pos2, pos2};

/// Whether `pts` (a closed loop) is a convex polygon.
pub fn is_convex(pts: &[Pos2]) -> bool {
    let n = pts.len();
    if n < 4 {
        return true;
    }
    let mut sign = 0.0f32;
    for i in 0..n {
        let (a, b, c) = (pts[i], pts[(i + 1) % n], pts[(i + 2) % n]);
        let cross = (b - a).x * (c - b).y - (b - a).y * (c - b).x;
        if cross != 0.0 {
            if sign != 0.0 && cross.signum() != sign {
                return false;
            }
            sign = cross.signum();
        }
    }
    true
}

/// One edge, top end first, with +1 when the loop runs down along it and -1 when it runs up.
struct Edge {
    top: Pos2,
    bottom: Pos2,
    wind: i32,
}

impl Edge {
    fn x_at(&self, y: f32) -> f32 {
        let t = (y - self.top.y) / (self.bottom.y - self.top.y);
        self.top.x + (self.bottom.x - self.top.x) * t
    }
}

/// Adds the area inside the closed loops `loops` (non-zero rule) to `mesh` in `color`, without
/// anti-aliasing (the caller strokes the outline for a smooth edge).
pub fn fill_nonzero(loops: &[Vec<Pos2>], color: Color32, mesh: &mut Mesh) {
    let mut edges = Vec::new();
    let mut ys = Vec::new();
    for lp in loops.iter().filter(|l| l.len() >= 3) {
        for (i, &a) in lp.iter().enumerate() {
            let b = lp[(i + 1) % lp.len()];
            ys.push(a.y);
            if a.y < b.y {
                edges.push(Edge {
                    top: a,
                    bottom: b,
                    wind: 1,
                });
            } else if a.y > b.y {
                edges.push(Edge {
                    top: b,
                    bottom: a,
                    wind: -1,
                });
            }
        }
    }
    ys.sort_by(f32::total_cmp);
    ys.dedup();
    edges.sort_by(|a, b| a.top.y.total_cmp(&b.top.y));
    let mut next = 0;
    let mut active: Vec<usize> = Vec::new();
    // (x at the slab's middle, x at its top, x at its bottom, winding step)
    let mut crossings: Vec<(f32, f32, f32, i32)> = Vec::new();
    for slab in ys.windows(2) {
        let (y0, y1) = (slab[0], slab[1]);
        while next < edges.len() && edges[next].top.y <= y0 {
            active.push(next);
            next += 1;
        }
        // every edge end is a slab boundary: an edge still active spans the whole slab
        active.retain(|&e| edges[e].bottom.y > y0);
        let mid = 0.5 * (y0 + y1);
        crossings.clear();
        crossings.extend(active.iter().map(|&e| {
            let e = &edges[e];
            (e.x_at(mid), e.x_at(y0), e.x_at(y1), e.wind)
        }));
        crossings.sort_by(|a, b| a.0.total_cmp(&b.0));
        let mut winding = 0;
        let mut left = None;
        for &(_, top, bottom, wind) in &crossings {
            let before = winding;
            winding += wind;
            if before == 0 && winding != 0 {
                left = Some((top, bottom));
            } else if before != 0
                && winding == 0
                && let Some((l_top, l_bottom)) = left.take()
            {
                let i = mesh.vertices.len() as u32;
                mesh.colored_vertex(pos2(l_top, y0), color);
                mesh.colored_vertex(pos2(top, y0), color);
                mesh.colored_vertex(pos2(bottom, y1), color);
                mesh.colored_vertex(pos2(l_bottom, y1), color);
                mesh.add_triangle(i, i + 1, i + 2);
                mesh.add_triangle(i, i + 2, i + 3);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The area the triangles of `mesh` cover.
    fn area(mesh: &Mesh) -> f32 {
        mesh.indices
            .chunks(3)
            .map(|t| {
                let [a, b, c] = [0, 1, 2].map(|k| mesh.vertices[t[k] as usize].pos);
                0.5 * ((b - a).x * (c - a).y - (b - a).y * (c - a).x).abs()
            })
            .sum()
    }

    fn square(x: f32, y: f32, s: f32, clockwise: bool) -> Vec<Pos2> {
        let mut v = vec![
            pos2(x, y),
            pos2(x + s, y),
            pos2(x + s, y + s),
            pos2(x, y + s),
        ];
        if !clockwise {
            v.reverse();
        }
        v
    }

    #[test]
    fn holes_and_concave_outlines_are_filled_exactly() {
        // a 10x10 square with a 4x4 hole the other way round: 84
        let mut mesh = Mesh::default();
        fill_nonzero(
            &[square(0.0, 0.0, 10.0, true), square(3.0, 3.0, 4.0, false)],
            Color32::BLACK,
            &mut mesh,
        );
        assert!(mesh.is_valid());
        assert!((area(&mesh) - 84.0).abs() < 1e-3, "{}", area(&mesh));
        // an L (concave): 3 of the 4 unit squares of a 2x2 block
        let l = vec![
            pos2(0.0, 0.0),
            pos2(1.0, 0.0),
            pos2(1.0, 1.0),
            pos2(2.0, 1.0),
            pos2(2.0, 2.0),
            pos2(0.0, 2.0),
        ];
        assert!(!is_convex(&l));
        assert!(is_convex(&square(0.0, 0.0, 1.0, false)));
        let mut mesh = Mesh::default();
        fill_nonzero(&[l], Color32::BLACK, &mut mesh);
        assert!((area(&mesh) - 3.0).abs() < 1e-4, "{}", area(&mesh));
        // two separate squares, and a loop too small to fill
        let mut mesh = Mesh::default();
        fill_nonzero(
            &[
                square(0.0, 0.0, 1.0, true),
                square(5.0, 0.5, 2.0, false),
                vec![pos2(0.0, 0.0), pos2(1.0, 1.0)],
            ],
            Color32::BLACK,
            &mut mesh,
        );
        assert!((area(&mesh) - 5.0).abs() < 1e-4, "{}", area(&mesh));
    }

    #[test]
    fn a_tile_mazes_wall_fill_covers_its_closed_tiles() {
        use crate::random::MazeRng;
        let m = crate::tiles::puzzle::make(12, 9, 0, &mut MazeRng::new(3)).unwrap();
        let setup = crate::page::PageSetup::default();
        let pages = crate::draw::tile_pages(&m, &setup, &setup).unwrap();
        let path = pages
            .puzzle
            .layer(crate::draw::Layer::Walls)
            .find_map(|i| match &i.shape {
                crate::draw::Shape::Fill { path, .. } => Some(path),
                _ => None,
            })
            .unwrap();
        let loops: Vec<Vec<Pos2>> = crate::app::preview::flatten(path, 1.0)
            .into_iter()
            .map(|(pts, _)| pts)
            .collect();
        assert!(loops.len() > 1, "outline and holes");
        let mut mesh = Mesh::default();
        fill_nonzero(&loops, Color32::BLACK, &mut mesh);
        let s = pages.layout.scale as f32;
        let hexagon = 3f32.sqrt() / 2.0 * s * s;
        let closed = (12 * 9 - m.grid.open_count()) as f32;
        assert!(
            (area(&mesh) / hexagon - closed).abs() < 0.01 * closed,
            "{} tiles' area, {closed} closed",
            area(&mesh) / hexagon
        );
    }
}
