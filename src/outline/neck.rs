//! Necks: where a crayon cannot pass inside a cell the shape's contour cuts.
//!
//! The sliver rules see areas and lengths: a cell with a third of its area inside, a door open
//! over 0.6 of its side. A passage can still be pinched where the contour runs close to a
//! corner of the cell (where walls end), and a cell's part inside the shape can be too thin to
//! hold a line at all (an antenna, a leg, the tip of a tail). [`room`] draws one cut cell's part
//! inside the shape, with its neighbours' parts just beyond each of its doors, into a small
//! bitmap in maze units, the cell's corners as dots of wall, and asks whether a disc of a given
//! diameter fits in it (the cell's room) and gets from there through each door.

use super::bitmap::{distance_to, fill_rings, stroke_segment};
use super::geometry::side_points;
use super::{Clip, MIN_PASSAGE};
use crate::topology::{Coord, Point, Side};

/// Pixels across the disc's diameter.
const PX_PER_DISC: f64 = 12.0;

/// The radius of a wall's end at a cell's corner, maze units.
const CORNER: f64 = 0.03;

/// What a disc finds in a cut cell ([`room`]).
#[derive(Clone, Debug, Default, PartialEq)]
pub(super) struct Room {
    /// Whether the disc fits anywhere in the cell's part inside the shape.
    pub(super) fits: bool,
    /// The doors (side indices) the disc cannot get through from the cell's room.
    pub(super) pinched: Vec<usize>,
}

/// The diameter of the disc a crayon's line needs in a cell of `clip`'s topology, maze units:
/// [`MIN_PASSAGE`] of the narrowest passage of a whole cell, and [`INK`] more for the printed
/// walls' ink on either side (the page's crayon rule is 0.6 of the corridor between the inks).
pub(super) fn disc(clip: &Clip) -> f64 {
    (MIN_PASSAGE + INK) * clip.topology.tess().passage()
}

/// The share of a whole cell's passage the walls' ink takes from a neck ([`disc`]): a 0.5 mm
/// wall on a 10 mm corridor, on both sides of a passage narrowed to 0.6 of it.
const INK: f64 = 0.1;

/// A disc of diameter `d` in cell `c` of `clip`: whether it fits in the cell's part inside the
/// shape, and which of `doors` (side indices whose neighbours are cells of the maze) it cannot
/// get through from the cell's room (the part of the cell where most of the disc's places are).
pub(super) fn room(clip: &Clip, c: Coord, doors: &[usize], d: f64) -> Room {
    let t = clip.topology.tess();
    let mut sides: Vec<Side> = Vec::new();
    t.sides(c, &mut sides);
    let own = clip.polygon(c);
    if own.is_empty() {
        return Room {
            fits: false,
            pinched: doors.to_vec(),
        };
    }
    // the bitmap: the cell's box and a disc round it
    let (mut x0, mut y0, mut x1, mut y1) = (f64::MAX, f64::MAX, f64::MIN, f64::MIN);
    for p in sides
        .iter()
        .flat_map(|s| [s.a, s.b])
        .chain(own.iter().flatten().copied())
    {
        (x0, y0, x1, y1) = (x0.min(p.x), y0.min(p.y), x1.max(p.x), y1.max(p.y));
    }
    let ppu = PX_PER_DISC / d.max(1e-6);
    let (x0, y0) = (x0 - d, y0 - d);
    let (w, h) = (
        ((x1 + d - x0) * ppu).ceil() as usize + 1,
        ((y1 + d - y0) * ppu).ceil() as usize + 1,
    );
    if w * h > 4_000_000 {
        // a cell far too big for its disc: nothing to measure at this scale
        return Room {
            fits: true,
            pinched: Vec::new(),
        };
    }
    let px = |p: Point| ((p.x - x0) * ppu, (p.y - y0) * ppu);
    let rings = |rs: &[Vec<Point>]| -> Vec<Vec<(f64, f64)>> {
        rs.iter()
            .map(|r| r.iter().map(|&p| px(p)).collect())
            .collect()
    };
    let mut inside = vec![false; w * h];
    fill_rings(&rings(&own), w, &mut inside, true);
    let mut free = inside.clone();
    // beyond each door: the neighbour's part inside the shape, up to a disc from the door
    let mut portals: Vec<Vec<bool>> = Vec::with_capacity(doors.len());
    let mut line = Vec::new();
    for &k in doors {
        let mut portal = vec![false; w * h];
        let Some(n) = sides.get(k).and_then(|s| s.neighbour) else {
            portals.push(portal);
            continue;
        };
        let mut near = vec![false; w * h];
        for &(a, b) in clip.main_parts(c, k) {
            line.clear();
            side_points(&sides[k], a, b, 0.01, &mut line);
            for pair in line.windows(2) {
                stroke_segment(&mut near, w, px(pair[0]), px(pair[1]), d * ppu, true);
            }
        }
        let mut theirs = vec![false; w * h];
        fill_rings(&rings(&clip.polygon(n)), w, &mut theirs, true);
        for i in 0..w * h {
            if near[i] && theirs[i] && !inside[i] {
                portal[i] = true;
                free[i] = true;
            }
        }
        portals.push(portal);
    }
    // the corners, where walls end
    for s in &sides {
        let p = px(s.a);
        stroke_segment(&mut free, w, p, p, CORNER * ppu, false);
    }
    let blocked: Vec<bool> = free.iter().map(|&f| !f).collect();
    let d2 = distance_to(&blocked, w, h);
    let r2 = {
        let r = (d / 2.0 * ppu - 0.5).max(0.0);
        r * r
    };
    let fat: Vec<bool> = (0..w * h).map(|i| free[i] && d2[i] >= r2).collect();
    // the fat places, in 4-connected pieces; the room is the piece with most of the cell's
    let mut piece = vec![u32::MAX; w * h];
    let mut counts: Vec<usize> = Vec::new();
    let mut stack = Vec::new();
    for start in 0..w * h {
        if !fat[start] || piece[start] != u32::MAX {
            continue;
        }
        let id = counts.len() as u32;
        counts.push(0);
        piece[start] = id;
        stack.push(start);
        while let Some(i) = stack.pop() {
            if inside[i] {
                counts[id as usize] += 1;
            }
            let (x, y) = (i % w, i / w);
            let mut go = |j: usize| {
                if fat[j] && piece[j] == u32::MAX {
                    piece[j] = id;
                    stack.push(j);
                }
            };
            if x > 0 {
                go(i - 1);
            }
            if x + 1 < w {
                go(i + 1);
            }
            if y > 0 {
                go(i - w);
            }
            if y + 1 < h {
                go(i + w);
            }
        }
    }
    let room = (0..counts.len())
        .filter(|&k| counts[k] > 0)
        .max_by_key(|&k| (counts[k], std::cmp::Reverse(k)));
    let Some(room) = room else {
        return Room {
            fits: false,
            pinched: doors.to_vec(),
        };
    };
    let pinched = doors
        .iter()
        .zip(&portals)
        .filter(|(_, portal)| !(0..w * h).any(|i| portal[i] && piece[i] == room as u32))
        .map(|(&k, _)| k)
        .collect();
    Room {
        fits: true,
        pinched,
    }
}
