//! Tile mazes on the page: the same [`Drawing`] model as cell mazes, for a [`TileMaze`].
//!
//! A tile maze has no walls between cells: each hexagonal tile is open (floor) or closed (wall).
//! The page shows it as what it is:
//! - [`Layer::Walls`]: the closed tiles of the maze (the whole grid, or the shape's region)
//!   filled in [`TILE_WALL`], as **one** path: the outline of their union, hexagon sides shared
//!   by two closed tiles left out, so a rasteriser leaves no hairline seams between tiles. The
//!   outlines run clockwise on screen around the closed areas and anticlockwise around the open
//!   areas inside them (non-zero fill). Open tiles and everything outside the maze stay paper.
//! - [`Layer::Markers`]: the START and FINISH arrows and labels, at the side of the entrance and
//!   exit tiles that faces out of the maze (as cell mazes have them at their openings).
//! - [`Layer::Text`]: title, name line and page number, as for cell mazes.
//! - [`Layer::Solution`] (answer key only): a smooth line through the centres of the solution's
//!   tiles, from the entrance's outer side to the exit's, turning on quadratic curves whose
//!   control points are the tile centres (straight chamfers on small tiles), and the
//!   "ANSWER KEY" label.
//!
//! The fit on the page is the cell mazes' ([`Layout`]): the tiles' bounding box scaled to the
//! maze area left by the header, footer and labels, centred. One maze unit is one tile across its
//! flats, so the corridor width is the scale.

use super::layout::{CURVE_MIN_SCALE, Geometry, Layout, Role, layout_with};
use super::markers::draw_markers;
use super::model::{Area, Drawing, Item, Layer, PathBuilder, Pos, Rgb, Seg, Shape};
use super::occupancy::Occupancy;
use super::place::{self, Plan};
use super::solution::push_solution;
use super::text::{PageRole, draw_text};
use super::{Pages, paper};
use crate::error::Result;
use crate::page::PageSetup;
use crate::tiles::puzzle::TileMaze;
use crate::tiles::{CIRCUMRADIUS, Direction, Tile, centre, hexagon, neighbour};
use crate::topology::Point;

/// The colour of closed tiles: a dark grey, so large wall areas print evenly without soaking
/// the paper, still far darker than the red answer line.
pub const TILE_WALL: Rgb = Rgb(64, 64, 64);

/// Fits the tile maze `m` onto the page `setup` describes (warnings of the label placement
/// included).
pub fn tile_layout(m: &TileMaze, setup: &PageSetup) -> Result<Layout> {
    let geo = geometry(m);
    let (mut lay, _) = lay_out(setup, &geo)?;
    lay.notes = place::plan(&setup.oriented(lay.orientation), &lay, &geo, true).warnings;
    Ok(lay)
}

/// The puzzle page of `m` laid out with `setup` and its answer key with `key_setup` (the same
/// setup for SVG and PNG, [`PageSetup::next_page`] for page 2 of a PDF).
pub fn tile_pages(m: &TileMaze, setup: &PageSetup, key_setup: &PageSetup) -> Result<Pages> {
    let geo = geometry(m);
    let (mut lay, shrink) = lay_out(setup, &geo)?;
    let setup = &setup.oriented(lay.orientation);
    let key_setup = &key_setup.oriented(lay.orientation);
    let key_lay = tile_corridors(layout_with(key_setup, &geo, shrink)?);
    let plan = place::plan(setup, &lay, &geo, false);
    let key_plan = place::plan(key_setup, &key_lay, &geo, true);
    let puzzle = page(m, setup, &lay, &geo, &plan, false);
    let key = page(m, key_setup, &key_lay, &geo, &key_plan, true);
    lay.notes = super::notes([&plan, &key_plan]);
    Ok(Pages {
        puzzle: super::on_sheet(puzzle, setup),
        key: super::on_sheet(key, key_setup),
        layout: lay,
    })
}

/// The cell mazes' layout (settled with room for the labels, and how much it was shrunk for
/// them), with the corridor width of a tile maze.
fn lay_out(setup: &PageSetup, geo: &Geometry) -> Result<(Layout, f64)> {
    let (lay, shrink) = place::settle(setup, geo)?;
    Ok((tile_corridors(lay), shrink))
}

/// `lay` with the corridor width of a tile maze: a whole tile (nothing is taken by walls, which
/// are tiles themselves).
fn tile_corridors(mut lay: Layout) -> Layout {
    lay.corridor_mm = lay.scale;
    lay.walls_thinned = false;
    lay
}

/// The integer corner key of corner `i` (see [`hexagon`]) of `tile`: x in units of half the
/// circumradius, y in half tiles. Shared corners get the same key from every tile.
fn corner_key((c, r): Tile, i: usize) -> (i64, i64) {
    const DX: [i64; 6] = [2, 1, -1, -2, -1, 1];
    const DY: [i64; 6] = [0, 1, 1, 0, -1, -1];
    let (c, r) = (i64::from(c), i64::from(r));
    (3 * c + DX[i], 2 * r + (c & 1) + DY[i])
}

fn key_point((kx, ky): (i64, i64)) -> Point {
    Point::new(kx as f64 * CIRCUMRADIUS / 2.0, ky as f64 / 2.0)
}

/// The side of `tile` facing `dir`: the index of its first corner in [`hexagon`].
fn side_of(dir: Direction) -> usize {
    (dir.index() + 4) % 6
}

/// The side of a door tile that faces out of the maze: among the directions leading off the
/// grid or out of the region, the one nearest to straight away from the door's open neighbour.
fn door_side(m: &TileMaze, door: Tile) -> Direction {
    let away = m
        .grid
        .open_neighbours(door)
        .first()
        .and_then(|&n| {
            Direction::ALL
                .into_iter()
                .find(|&d| neighbour(door, d) == Some(n))
        })
        .map_or(Direction::N, Direction::opposite);
    let out = |d: Direction| neighbour(door, d).is_none_or(|n| !m.contains(n));
    [0, 1, 5, 2, 4, 3]
        .into_iter()
        .map(|k| Direction::from_index(away.index() + k))
        .find(|&d| out(d))
        .unwrap_or(away)
}

/// The midpoint of `door`'s outer side and the outward unit normal there.
fn opening(m: &TileMaze, door: Tile) -> (Point, (f64, f64)) {
    let d = door_side(m, door);
    let hex = hexagon(door);
    let s = side_of(d);
    let (a, b) = (hex[s], hex[(s + 1) % 6]);
    let mid = Point::new((a.0 + b.0) / 2.0, (a.1 + b.1) / 2.0);
    let (cx, cy) = centre(door);
    let (nx, ny) = (mid.x - cx, mid.y - cy);
    let l = nx.hypot(ny);
    (mid, (nx / l, ny / l))
}

/// The tiles' bounding box, the occupancy the labels keep clear of, and the openings.
fn geometry(m: &TileMaze) -> Geometry {
    let (w, h) = (m.grid.width(), m.grid.height());
    let r = CIRCUMRADIUS;
    let tiles: Vec<Tile> = match &m.region {
        Some(region) => region.open_tiles(),
        None => (0..h).flat_map(|r| (0..w).map(move |c| (c, r))).collect(),
    };
    let tile_box = |t: Tile| {
        let (x, y) = centre(t);
        (x - r, y - 0.5, x + r, y + 0.5)
    };
    let mut bbox = tiles.iter().fold(
        (
            f64::INFINITY,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::NEG_INFINITY,
        ),
        |b, &t| {
            let (x0, y0, x1, y1) = tile_box(t);
            (b.0.min(x0), b.1.min(y0), b.2.max(x1), b.3.max(y1))
        },
    );
    if !bbox.0.is_finite() {
        bbox = (0.0, 0.0, 1.0, 1.0);
    }
    let occ = Occupancy::of_boxes(bbox, tiles.iter().map(|&t| tile_box(t)));
    Geometry {
        bbox,
        occ: std::sync::Arc::new(occ),
        openings: vec![opening(m, m.entrance), opening(m, m.exit)],
        roles: vec![Role::Start, Role::Finish],
        winner: None,
        on_contour: false,
        legend: false,
        inset: 0.0,
        side: 1.0,
        passage: 1.0,
        cut_door: None,
    }
}

/// The outline of the closed tiles of the maze, as loops of corner keys (see the module
/// documentation). Each corner has at most one outgoing outline side (three tiles meet there),
/// so the loops are found by following sides; they start at the smallest unvisited side, so the
/// output does not depend on anything but the tiles.
fn wall_loops(m: &TileMaze) -> Vec<Vec<(i64, i64)>> {
    let wall = |t: Tile| m.contains(t) && !m.grid.is_open(t);
    let mut sides: Vec<((i64, i64), (i64, i64))> = Vec::new();
    for r in 0..m.grid.height() {
        for c in 0..m.grid.width() {
            let t = (c, r);
            if !wall(t) {
                continue;
            }
            for d in Direction::ALL {
                if neighbour(t, d).is_some_and(wall) {
                    continue;
                }
                let s = side_of(d);
                sides.push((corner_key(t, s), corner_key(t, (s + 1) % 6)));
            }
        }
    }
    sides.sort_unstable();
    let mut used = vec![false; sides.len()];
    let mut loops = Vec::new();
    for first in 0..sides.len() {
        if used[first] {
            continue;
        }
        let start = sides[first].0;
        let mut points = vec![start];
        let mut i = first;
        loop {
            used[i] = true;
            let to = sides[i].1;
            if to == start {
                break;
            }
            points.push(to);
            match sides.binary_search_by(|s| s.0.cmp(&to)) {
                Ok(j) if !used[j] => i = j,
                _ => break, // cannot happen on hexagons; end the loop rather than spin
            }
        }
        loops.push(points);
    }
    loops
}

/// The closed tiles as one filled path.
fn draw_walls(m: &TileMaze, lay: &Layout, items: &mut Vec<Item>) {
    let mut b = PathBuilder::default();
    for lp in wall_loops(m) {
        b.move_to(lay.to_page(key_point(lp[0])));
        for &k in &lp[1..] {
            b.line_to(lay.to_page(key_point(k)));
        }
        b.segs.push(Seg::Close);
    }
    let path = b.finish();
    if !path.is_empty() {
        items.push(Item {
            layer: Layer::Walls,
            shape: Shape::Fill {
                path,
                color: TILE_WALL,
            },
        });
    }
}

/// The answer line through the solution's tile centres, and the label.
fn draw_solution(m: &TileMaze, lay: &Layout, geo: &Geometry, key_box: Area, items: &mut Vec<Item>) {
    let width = (0.15 * lay.scale).clamp(0.25, 1.2).min(0.5 * lay.scale);
    let curves = lay.scale >= CURVE_MIN_SCALE;
    let at = |t: Tile| {
        let (x, y) = centre(t);
        lay.to_page(Point::new(x, y))
    };
    let mut b = PathBuilder::default();
    b.move_to(lay.to_page(geo.openings[0].0));
    let sol = &m.solution;
    for (i, &t) in sol.iter().enumerate() {
        let c = at(t);
        let next = match sol.get(i + 1) {
            Some(&n) => {
                let q = at(n);
                Pos::new((c.x + q.x) / 2.0, (c.y + q.y) / 2.0)
            }
            None => lay.to_page(geo.openings[1].0),
        };
        let prev = b.current.unwrap_or(c);
        let (ax, ay) = (c.x - prev.x, c.y - prev.y);
        let (bx, by) = (next.x - c.x, next.y - c.y);
        let straight = (ax * by - ay * bx).abs() <= 1e-9 * (ax.hypot(ay) * bx.hypot(by));
        if curves && !straight {
            b.quad_to(c, next);
        } else {
            // straight on, or on small tiles a straight chamfer across the turn
            b.line_to(next);
        }
    }
    push_solution(items, b.finish(), width, lay, key_box);
}

/// One page: paper, closed tiles, markers, text, and the solution on the key.
fn page(
    m: &TileMaze,
    setup: &PageSetup,
    lay: &Layout,
    geo: &Geometry,
    plan: &Plan,
    key: bool,
) -> Drawing {
    let (pw, ph) = lay.page;
    let mut items = vec![paper(lay.page)];
    draw_walls(m, lay, &mut items);
    draw_markers(lay, &plan.markers, &mut items);
    let role = if key {
        PageRole::Answers
    } else {
        PageRole::Puzzle
    };
    draw_text(setup, &lay.printable, role, None, &mut items);
    if let (true, Some(key_box)) = (key, plan.answer_key) {
        draw_solution(m, lay, geo, key_box, &mut items);
    }
    Drawing {
        width: pw,
        height: ph,
        trim: lay.trim,
        items,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::draw::Path;
    use crate::random::MazeRng;
    use crate::tiles::puzzle::make;

    fn fill_path(d: &Drawing) -> &Path {
        d.layer(Layer::Walls)
            .find_map(|i| match &i.shape {
                Shape::Fill { path, .. } => Some(path),
                _ => None,
            })
            .expect("a wall fill")
    }

    /// Signed area (y down: clockwise on screen is positive) of every subpath.
    fn areas(p: &Path) -> Vec<f64> {
        let mut out = Vec::new();
        let mut pts: Vec<Pos> = Vec::new();
        let mut flush = |pts: &mut Vec<Pos>| {
            if pts.len() > 2 {
                let a: f64 = (0..pts.len())
                    .map(|i| {
                        let (p, q) = (pts[i], pts[(i + 1) % pts.len()]);
                        p.x * q.y - q.x * p.y
                    })
                    .sum();
                out.push(a / 2.0);
            }
            pts.clear();
        };
        for s in p.segs() {
            match s {
                Seg::MoveTo(a) => {
                    flush(&mut pts);
                    pts.push(a);
                }
                Seg::LineTo(a) => pts.push(a),
                Seg::CubicTo(_, _, c) => pts.push(c),
                Seg::Close => {}
            }
        }
        flush(&mut pts);
        out
    }

    #[test]
    fn the_wall_fill_covers_exactly_the_closed_tiles() {
        for (w, h, order, seed) in [(17, 14, 0, 9), (12, 9, 1, 3), (3, 3, 0, 1)] {
            let m = make(w, h, order, &mut MazeRng::new(seed)).unwrap();
            let setup = PageSetup::default();
            let both = tile_pages(&m, &setup, &setup).unwrap();
            let lay = &both.layout;
            let area: f64 = areas(fill_path(&both.puzzle)).iter().sum();
            let hex = 3f64.sqrt() / 2.0 * lay.scale * lay.scale; // a hexagon 1 unit across
            let closed = (w * h) as usize - m.grid.open_count();
            // single-precision path points: the area is exact to about 1e-5 of a tile
            assert!(
                (area / hex - closed as f64).abs() < 1e-3,
                "{w}x{h}: {} tiles' area, {closed} closed",
                area / hex
            );
        }
    }

    #[test]
    fn key_is_puzzle_plus_a_solution_through_the_tiles() {
        let m = make(17, 14, 0, &mut MazeRng::new(9)).unwrap();
        let setup = PageSetup {
            title: Some("Tiles".into()),
            page_number: Some(2),
            ..PageSetup::default()
        };
        let both = tile_pages(&m, &setup, &setup).unwrap();
        let rest: Vec<&Item> = both
            .key
            .items
            .iter()
            .filter(|i| i.layer != Layer::Solution)
            .collect();
        assert_eq!(rest, both.puzzle.items.iter().collect::<Vec<_>>());
        let texts: Vec<&str> = both.puzzle.texts().map(|t| t.text.as_str()).collect();
        for want in ["Tiles", "2", "START", "FINISH"] {
            assert!(texts.contains(&want), "{want} missing from {texts:?}");
        }
        // the solution line passes every solution tile's centre (a curve's control point, or
        // on a straight run) and starts and ends on the doors' outer sides
        let lay = &both.layout;
        let line = both
            .key
            .layer(Layer::Solution)
            .find_map(|i| match &i.shape {
                Shape::Stroke { path, .. } => Some(path),
                _ => None,
            })
            .unwrap();
        let mut pts = Vec::new();
        for s in line.segs() {
            match s {
                Seg::MoveTo(a) | Seg::LineTo(a) => pts.push(a),
                Seg::CubicTo(c1, _, c) => {
                    // the quadratic's control point: 3/2 of the way to the first cubic one
                    let p0 = *pts.last().unwrap();
                    pts.push(Pos::new(
                        p0.x + 1.5 * (c1.x - p0.x),
                        p0.y + 1.5 * (c1.y - p0.y),
                    ));
                    pts.push(c);
                }
                Seg::Close => {}
            }
        }
        let geo = geometry(&m);
        // single-precision path points: within 1e-4 mm
        let near = |p: Pos, q: Pos| (p.x - q.x).hypot(p.y - q.y) < 1e-4;
        assert!(near(pts[0], lay.to_page(geo.openings[0].0)));
        assert!(near(*pts.last().unwrap(), lay.to_page(geo.openings[1].0)));
        // distance from `c` to the control polygon
        let off = |c: Pos| {
            pts.windows(2)
                .map(|w| {
                    let (a, b) = (w[0], w[1]);
                    let (dx, dy) = (b.x - a.x, b.y - a.y);
                    let t = (((c.x - a.x) * dx + (c.y - a.y) * dy) / (dx * dx + dy * dy))
                        .clamp(0.0, 1.0);
                    (a.x + t * dx - c.x).hypot(a.y + t * dy - c.y)
                })
                .fold(f64::INFINITY, f64::min)
        };
        for &t in &m.solution {
            let (x, y) = centre(t);
            let c = lay.to_page(Point::new(x, y));
            assert!(off(c) < 1e-4, "{t:?} missed by {}", off(c));
        }
        assert!(lay.maze_box.w > 100.0, "fills the page: {:?}", lay.maze_box);
    }

    #[test]
    fn doors_open_to_the_outside() {
        for seed in 0..20 {
            let m = make(11, 8, seed as u32 % 2, &mut MazeRng::new(seed)).unwrap();
            for door in [m.entrance, m.exit] {
                let d = door_side(&m, door);
                assert!(neighbour(door, d).is_none_or(|n| !m.grid.contains(n)));
            }
        }
    }
}
