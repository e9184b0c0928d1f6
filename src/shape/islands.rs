//! Separate parts of a mask and the narrow places that hold it together.
//!
//! [`bridge`] joins every part of a mask with corridors of cells: one breadth-first search from
//! all parts at once gives each switched-off cell its nearest part and the way back to it; two
//! touching cells claimed by different parts make a candidate corridor (its length is the sum of
//! their distances), and the cheapest candidates that join parts not yet joined (Kruskal's
//! algorithm) are switched on. Ties are broken by cell order, so the result is deterministic.
//!
//! [`main_part`] picks the part to keep: the one holding most of the picture's largest part
//! ([`crate::shape::parts`]), the same whatever the grid.
//!
//! [`necks`] lists the cells whose loss would split their part (articulation points), for the
//! editor to highlight; a size floor leaves out cells that would only cut off a stray cell or two.

use crate::grid::{CellId, Grid};
use crate::mask::Mask;
use crate::shape::fit::PixelMap;
use crate::shape::foreground::Foreground;
use crate::topology::{Coord, Topology};

const NONE: u32 = u32::MAX;

fn find(parent: &mut [u32], mut x: u32) -> u32 {
    while parent[x as usize] != x {
        let up = parent[parent[x as usize] as usize];
        parent[x as usize] = up;
        x = up;
    }
    x
}

/// Joins all parts of `mask` into one with the shortest corridors found, switching their cells
/// on. Returns how many cells were switched on (0 when the mask is already one part or empty).
pub fn bridge(mask: &mut Mask, topology: &Topology) -> usize {
    bridge_along(mask, topology, false)
}

/// How much more a step of a text's joining corridor costs for each row it runs above or below
/// the letters' baseline ([`bridge_along`]).
const OFF_BASELINE: f64 = 1.5;

/// [`bridge`], and with `baseline` the corridors run along the parts' baseline where they can
/// (the letters of a name, joined as handwriting joins them: "Mia" read "Mra" with a corridor at
/// the top of its letters). The baseline is the median of the parts' lowest cell centres (a
/// descender in one letter does not move it); a step costs [`OFF_BASELINE`] more for each row
/// it lies from it, and the cheapest corridors join the parts (Dijkstra from all parts at once).
pub fn bridge_along(mask: &mut Mask, topology: &Topology, baseline: bool) -> usize {
    let parts = mask.components(topology);
    if parts.len() < 2 {
        return 0;
    }
    // every cell of the topology; ids are row-major indices
    let Ok(all) = Grid::new(topology.clone(), None) else {
        return 0;
    };
    let n = all.len();
    let tess = topology.tess();
    // the step cost of each cell, in hundredths
    let step: Vec<u32> = if baseline {
        let mut lows: Vec<f64> = parts
            .iter()
            .map(|p| p.iter().map(|&c| tess.center(c).y).fold(f64::MIN, f64::max))
            .collect();
        lows.sort_by(f64::total_cmp);
        let base = lows[lows.len() / 2];
        let (_, h) = tess.extent();
        let row = (h / f64::from(tess.rows().max(1))).max(1e-9);
        (0..n)
            .map(|i| {
                let y = tess.center(all.coord(CellId(i as u32))).y;
                (100.0 * (1.0 + OFF_BASELINE * ((y - base).abs() / row))).round() as u32
            })
            .collect()
    } else {
        vec![100; n]
    };
    let mut owner = vec![NONE; n];
    let mut dist = vec![u32::MAX; n];
    let mut back = vec![NONE; n];
    let id = |c: Coord| all.id_at(c).map_or(NONE, |i| i.0);
    for (p, part) in parts.iter().enumerate() {
        for &c in part {
            let i = id(c) as usize;
            owner[i] = p as u32;
            dist[i] = 0;
        }
    }
    if baseline {
        // cheapest first (ties by cell id, so every run is the same)
        let mut heap: std::collections::BinaryHeap<_> = (0..n as u32)
            .filter(|&i| owner[i as usize] != NONE)
            .map(|i| std::cmp::Reverse((0u32, i)))
            .collect();
        while let Some(std::cmp::Reverse((d, i))) = heap.pop() {
            if d > dist[i as usize] {
                continue;
            }
            for nb in all.neighbours(CellId(i)) {
                let j = nb.index();
                let via = d.saturating_add(step[j]);
                if via < dist[j] {
                    dist[j] = via;
                    owner[j] = owner[i as usize];
                    back[j] = i;
                    heap.push(std::cmp::Reverse((via, nb.0)));
                }
            }
        }
    } else {
        // every step costs the same: breadth first
        let mut queue: std::collections::VecDeque<u32> = (0..n as u32)
            .filter(|&i| owner[i as usize] != NONE)
            .collect();
        while let Some(i) = queue.pop_front() {
            for nb in all.neighbours(CellId(i)) {
                let j = nb.index();
                if owner[j] == NONE {
                    owner[j] = owner[i as usize];
                    dist[j] = dist[i as usize] + step[j];
                    back[j] = i;
                    queue.push_back(nb.0);
                }
            }
        }
    }
    // candidate corridors: touching cells claimed by different parts
    let mut edges: Vec<(u32, u32, u32)> = Vec::new();
    for i in 0..n {
        for nb in all.neighbours(CellId(i as u32)) {
            let j = nb.index();
            if j > i && owner[i] != owner[j] && owner[i] != NONE && owner[j] != NONE {
                edges.push((dist[i].saturating_add(dist[j]), i as u32, j as u32));
            }
        }
    }
    edges.sort_unstable();
    let mut uf: Vec<u32> = (0..parts.len() as u32).collect();
    let mut joined = 1;
    let mut added = 0;
    for (_, i, j) in edges {
        let (a, b) = (
            find(&mut uf, owner[i as usize]),
            find(&mut uf, owner[j as usize]),
        );
        if a == b {
            continue;
        }
        uf[a as usize] = b;
        for start in [i, j] {
            let mut k = start;
            while k != NONE && dist[k as usize] > 0 {
                let c = all.coord(CellId(k));
                if !mask.get(c) {
                    mask.set(c, true);
                    added += 1;
                }
                k = back[k as usize];
            }
        }
        joined += 1;
        if joined == parts.len() {
            break;
        }
    }
    added
}

/// The index in `parts` (the mask's parts on `topology`, largest first) of the main part: the
/// one with most cell centres on the picture's largest part. That part is found with strokes
/// under about half a cell wide at `width` cells across left out (the same on every topology),
/// so a wire too thin for a corridor does not join two parts on the picture. A tie goes to the
/// part with more cells (the earlier one).
pub fn main_part(parts: &[Vec<Coord>], fg: &Foreground, topology: &Topology, width: u32) -> usize {
    let long = f64::from(fg.width().max(fg.height()));
    let radius = (0.25 * long / f64::from(width.max(1))).round().min(255.0) as u8;
    let main = fg.main_part(radius);
    let place = PixelMap::new(fg, topology);
    let (w, h) = (i64::from(fg.width()), i64::from(fg.height()));
    let on_main = |c: Coord| {
        let p = topology.tess().center(c);
        let (x, y) = place.pixel(p.x, p.y);
        x >= 0 && y >= 0 && x < w && y < h && main[(y * w + x) as usize]
    };
    let mut best = (0, 0usize);
    for (i, part) in parts.iter().enumerate() {
        let score = part.iter().filter(|&&c| on_main(c)).count();
        if score > best.1 {
            best = (i, score);
        }
    }
    best.0
}

/// Which of `parts` (the mask's parts on `topology`, `width` cells across) the picture itself
/// joins to part `main`: a part with a point on the picture's largest piece, strokes under
/// [`JOINING_STROKE`] of a cell wide left out, when the main part has one too (each cell's
/// centre and the points halfway from it to its sides' middles are looked at). At a child's
/// size a cat's tail, a tree's trunk or a dog's snout is cut off from the body by cells too
/// thin to keep, though the picture joins them; a speck beside the picture, a part hung on
/// a hair-thin stroke (a butterfly's antennae) or a part of fewer than [`MIN_JOINED`] cells
/// is not joined.
pub fn joined_parts(
    parts: &[Vec<Coord>],
    main: usize,
    fg: &Foreground,
    topology: &Topology,
    width: u32,
) -> Vec<bool> {
    let long = f64::from(fg.width().max(fg.height()));
    let radius = (JOINING_STROKE / 2.0 * long / f64::from(width.max(1)))
        .round()
        .min(255.0) as u8;
    let largest = fg.main_part(radius);
    let place = PixelMap::new(fg, topology);
    let (w, h) = (i64::from(fg.width()), i64::from(fg.height()));
    let t = topology.tess();
    let mut sides = Vec::new();
    let mut on_largest = |c: Coord| {
        let o = t.center(c);
        sides.clear();
        t.sides(c, &mut sides);
        std::iter::once(o)
            .chain(sides.iter().map(|s| {
                let m = crate::topology::Point::new((s.a.x + s.b.x) / 2.0, (s.a.y + s.b.y) / 2.0);
                crate::topology::Point::new((o.x + m.x) / 2.0, (o.y + m.y) / 2.0)
            }))
            .any(|p| {
                let (x, y) = place.pixel(p.x, p.y);
                x >= 0 && y >= 0 && x < w && y < h && largest[(y * w + x) as usize]
            })
    };
    let on: Vec<bool> = parts
        .iter()
        .map(|part| part.iter().any(|&c| on_largest(c)))
        .collect();
    if !on.get(main).copied().unwrap_or(false) {
        return vec![false; parts.len()];
    }
    on.iter()
        .zip(parts)
        .enumerate()
        .map(|(i, (&o, part))| i != main && o && part.len() >= MIN_JOINED)
        .collect()
}

/// The fewest cells of a part that [`joined_parts`] joins: a one-cell part (an owl's ear tip
/// at 6 cells across) joined by a corridor is a square stuck on the shape, not worth its
/// corridor; it is dropped as before.
pub const MIN_JOINED: usize = 2;

/// The thinnest stroke of a picture that joins two of its parts ([`joined_parts`]), as a share
/// of a cell's width.
pub const JOINING_STROKE: f64 = 0.25;

/// The cells of `mask` whose loss would split their part into two or more pieces of at least
/// `min_piece` cells each (articulation points of the graph of switched-on cells, ignoring
/// those that would only cut off a few cells), in row-major order. With `min_piece` 1 every
/// articulation point is listed.
pub fn necks(mask: &Mask, topology: &Topology, min_piece: usize) -> Vec<Coord> {
    match Grid::new(topology.clone(), Some(mask)) {
        Ok(grid) => necks_in(&grid, min_piece),
        Err(_) => Vec::new(),
    }
}

/// [`necks`] of the cells of a grid already built (a maze's).
pub fn necks_in(grid: &Grid, min_piece: usize) -> Vec<Coord> {
    let min_piece = min_piece.max(1);
    let n = grid.len();
    let mut disc = vec![0u32; n];
    let mut low = vec![0u32; n];
    let mut parent = vec![NONE; n];
    let mut size = vec![1usize; n];
    // per cell: total size of the pieces its loss cuts off below it, and how many are big
    let mut cut_off = vec![0usize; n];
    let mut big = vec![0usize; n];
    let mut time = 0u32;
    let mut stack: Vec<(u32, usize)> = Vec::new();
    let mut members = Vec::new();
    let mut out = vec![false; n];
    for root in 0..n {
        if disc[root] != 0 {
            continue;
        }
        time += 1;
        disc[root] = time;
        low[root] = time;
        stack.push((root as u32, 0));
        members.clear();
        members.push(root);
        while let Some(&mut (v, ref mut next)) = stack.last_mut() {
            let nbrs = grid.neighbours(CellId(v));
            if *next < nbrs.len() {
                let w = nbrs[*next].0;
                *next += 1;
                if disc[w as usize] == 0 {
                    parent[w as usize] = v;
                    time += 1;
                    disc[w as usize] = time;
                    low[w as usize] = time;
                    stack.push((w, 0));
                    members.push(w as usize);
                } else if w != parent[v as usize] {
                    low[v as usize] = low[v as usize].min(disc[w as usize]);
                }
            } else {
                stack.pop();
                if let Some(&(u, _)) = stack.last() {
                    let (u, v) = (u as usize, v as usize);
                    low[u] = low[u].min(low[v]);
                    size[u] += size[v];
                    if low[v] >= disc[u] {
                        cut_off[u] += size[v];
                        big[u] += usize::from(size[v] >= min_piece);
                    }
                }
            }
        }
        let part = members.len();
        for &v in &members {
            let rest = part - 1 - cut_off[v];
            let pieces = big[v] + usize::from(rest >= min_piece);
            out[v] = pieces >= 2;
        }
    }
    (0..n)
        .filter(|&i| out[i])
        .map(|i| grid.coord(CellId(i as u32)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 200 x 120 picture: a disc (radius 50) with a tail 12 pixels thick and 60 long to
    /// its right, a speck apart at the bottom left, and a second disc joined to the first by a
    /// wire 1 pixel thick at the top right.
    fn picture() -> Foreground {
        let (w, h) = (200u32, 120u32);
        let bits: Vec<bool> = (0..w * h)
            .map(|i| {
                let (x, y) = (f64::from(i % w) + 0.5, f64::from(i / w) + 0.5);
                let disc = (x - 60.0).hypot(y - 60.0) <= 50.0;
                let tail = (100.0..170.0).contains(&x) && (y - 80.0).abs() <= 6.0;
                let speck = (x - 5.0).hypot(y - 115.0) <= 4.0;
                let other = (x - 180.0).hypot(y - 20.0) <= 15.0;
                let wire = (95.0..170.0).contains(&x) && (y - 20.5).abs() < 0.5;
                disc || tail || speck || other || wire
            })
            .collect();
        Foreground::from_bits(w, h, &bits).unwrap()
    }

    #[test]
    fn the_parts_a_picture_joins_are_joined_and_specks_and_wires_are_not() {
        let fg = picture();
        let topology = Topology::new(TopologyKind::Rect, 20, 12).unwrap();
        let place = PixelMap::new(&fg, &topology);
        let part = |x0: f64, x1: f64, y0: f64, y1: f64| -> Vec<Coord> {
            // the cells whose centres fall in the picture's box
            let mut out = Vec::new();
            for row in 0..12 {
                for col in 0..20 {
                    let c = Coord::new(row, col);
                    let p = topology.tess().center(c);
                    let (x, y) = place.pixel(p.x, p.y);
                    let (x, y) = (x as f64, y as f64);
                    if (x0..x1).contains(&x) && (y0..y1).contains(&y) {
                        out.push(c);
                    }
                }
            }
            out
        };
        let parts = vec![
            part(15.0, 100.0, 15.0, 105.0),
            part(120.0, 165.0, 70.0, 90.0),
            part(0.0, 10.0, 108.0, 120.0),
            part(168.0, 195.0, 8.0, 35.0),
        ];
        assert!(parts.iter().all(|p| !p.is_empty()), "{parts:?}");
        assert_eq!(
            joined_parts(&parts, 0, &fg, &topology, 20),
            [false, true, false, false]
        );
        // a part of one cell is not worth a corridor
        let one = vec![parts[0].clone(), vec![parts[1][0]]];
        assert_eq!(joined_parts(&one, 0, &fg, &topology, 20), [false, false]);
    }
    use crate::topology::TopologyKind;

    fn rect(w: u32, h: u32) -> Topology {
        Topology::new(TopologyKind::Rect, w, h).unwrap()
    }

    #[test]
    fn bridge_joins_parts_with_the_shortest_corridors() {
        let t = rect(9, 3);
        let mut m = Mask::from_ascii(&t, "##.....##\n##.....##\n......#..").unwrap();
        assert_eq!(m.components(&t).len(), 3);
        let added = bridge(&mut m, &t);
        assert_eq!(m.components(&t).len(), 1);
        // the lone cell at (2, 6) is one step from the right block: 1 cell; the two blocks are
        // 5 apart: 5 cells
        assert_eq!(added, 6, "\n{m:?}");
        let mut again = m.clone();
        assert_eq!(bridge(&mut again, &t), 0);
        assert_eq!(again, m);
    }

    #[test]
    fn a_texts_parts_are_joined_along_their_baseline() {
        // two letters whose tops are closest: the plain bridge joins them at the top row, the
        // baseline bridge along their bottom row
        let t = rect(7, 4);
        let art = "##...##\n#.....#\n#.....#\n#.....#";
        let mut top = Mask::from_ascii(&t, art).unwrap();
        assert_eq!(bridge(&mut top, &t), 3);
        assert!((2..5).all(|c| top.get(Coord::new(0, c))), "\n{top:?}");
        let mut low = Mask::from_ascii(&t, art).unwrap();
        assert_eq!(bridge_along(&mut low, &t, true), 5);
        assert!((1..6).all(|c| low.get(Coord::new(3, c))), "\n{low:?}");
        assert!((2..5).all(|c| !low.get(Coord::new(0, c))), "\n{low:?}");
    }

    #[test]
    fn necks_are_articulation_points() {
        let t = rect(7, 3);
        let m = Mask::from_ascii(&t, "##...##\n#######\n##...##").unwrap();
        let n = necks(&m, &t, 1);
        assert_eq!(
            n,
            vec![
                Coord::new(1, 1),
                Coord::new(1, 2),
                Coord::new(1, 3),
                Coord::new(1, 4),
                Coord::new(1, 5)
            ]
        );
        // only (1, 2) to (1, 4) leave two pieces of 6 cells or more
        let n = necks(&m, &t, 6);
        assert_eq!(
            n,
            vec![Coord::new(1, 2), Coord::new(1, 3), Coord::new(1, 4)]
        );
        assert_eq!(necks(&m, &t, 7), vec![Coord::new(1, 3)]);
        assert!(necks(&m, &t, 8).is_empty());
        let full = Mask::full(&t).unwrap();
        assert!(necks(&full, &t, 1).is_empty());
    }
}
