//! Overlays: what the editor shows on a page but never prints, placed by the same layout as
//! the printed items (maze units to page millimetres happen here and nowhere in the editor).
//!
//! Each overlay is a [`Shape::Tint`] on [`Layer::Overlay`]: the weave crossings (each crossed
//! cell), the maze's cells ("show mask"), its one-cell necks, the parts of the shape that keeping
//! its main part dropped (always shown), and the trim line of a page with bleed. Every exporter skips the layer; the editor's preview rasterises the page with the
//! overlays it shows ([`Overlays::shown`]) through the same rasteriser as the PNG export.

use super::{Drawing, Item, Layer, Layout, Path, Pos, Rgb, Shape};
use crate::grid::Grid;
use crate::locks::{Locks, Recarve};
use crate::maze::Tunnel;
use crate::tiles::puzzle::TileMaze;
use crate::tiles::{Tile, hexagon};
use crate::topology::{Coord, Point};

/// The crossing tint: warm brown, translucent.
pub const CROSSING_TINT: (Rgb, u8) = (Rgb(255, 140, 0), 110);
/// The mask tint: green, translucent.
pub const MASK_TINT: (Rgb, u8) = (Rgb(0, 255, 73), 70);
/// The neck tint: red.
pub const NECK_TINT: (Rgb, u8) = (Rgb(255, 0, 0), 150);
/// The tint of the shape's dropped parts: grey-violet, translucent.
pub const DROPPED_TINT: (Rgb, u8) = (Rgb(120, 90, 200), 90);
/// The trim line's colour (the edge the printer cuts along, inside a bleed).
pub const TRIM_LINE: (Rgb, u8) = (Rgb(0, 150, 220), 255);
/// A wall locked open by hand: green.
pub const LOCK_OPEN: Rgb = Rgb(0, 160, 70);
/// A wall locked closed by hand: red.
pub const LOCK_CLOSED: Rgb = Rgb(215, 30, 40);
/// The tint of the regions carved again by hand: blue, translucent.
pub const RECARVE_TINT: (Rgb, u8) = (Rgb(40, 120, 255), 60);
/// A neck is highlighted when losing it would cut off at least this many cells.
pub const NECK_PIECE: usize = 3;

/// Which overlays to show.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Show {
    /// Tint each weave crossing.
    pub crossings: bool,
    /// Tint every cell of the maze and its necks.
    pub mask: bool,
}

/// A page's overlays, made with its layout (one set serves the puzzle and the key page when
/// they share it, as SVG and PNG keys do).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Overlays {
    /// The crossed cell of each weave crossing, one item.
    pub crossings: Option<Item>,
    /// Every cell of the maze (or every tile of a tile maze), one item.
    pub mask: Option<Item>,
    /// The cells whose loss would split the shape, one item.
    pub necks: Option<Item>,
    /// The cells of the shape's parts that were dropped (not joined to its main part), one item.
    pub dropped: Option<Item>,
    /// The trim line, when the page has a bleed.
    pub trim: Option<Item>,
    /// The hand work on the maze (always shown): the walls locked open, those locked closed,
    /// the regions carved again ([`Overlays::with_hand_work`]).
    pub hand: Vec<Item>,
    /// How many crossings are tinted.
    pub crossing_count: usize,
    /// How many cells the mask tint covers.
    pub cell_count: usize,
    /// How many cells the dropped tint covers.
    pub dropped_count: usize,
}

fn tint(path: Path, (color, alpha): (Rgb, u8)) -> Option<Item> {
    (!path.is_empty()).then_some(Item {
        layer: Layer::Overlay,
        shape: Shape::Tint { path, color, alpha },
    })
}

/// The polygons `cells` (maze units) as one path of closed subpaths, in page millimetres.
fn polygons(lay: &Layout, cells: impl Iterator<Item = Vec<Point>>) -> Path {
    let mut segs = Vec::new();
    for pts in cells {
        let page: Vec<Pos> = pts.into_iter().map(|p| lay.to_page(p)).collect();
        segs.extend(Path::polygon(&page).segs());
    }
    Path::from(segs)
}

fn trim_line(page: &Drawing) -> Option<Item> {
    let t = page.trim;
    if t.x <= 0.0 && t.y <= 0.0 && t.w >= page.width && t.h >= page.height {
        return None;
    }
    let c = [
        Pos::new(t.x, t.y),
        Pos::new(t.x + t.w, t.y),
        Pos::new(t.x + t.w, t.y + t.h),
        Pos::new(t.x, t.y + t.h),
    ];
    Some(Item {
        layer: Layer::Overlay,
        shape: Shape::Stroke {
            path: Path::polygon(&c),
            width: 0.25,
            color: TRIM_LINE.0,
        },
    })
}

impl Overlays {
    /// The overlays of a cell maze on `grid` with `tunnels`, laid out as `lay` on `page`;
    /// `dropped` are the shape's cells left out of the grid (its parts not joined to the main
    /// one).
    pub fn cells(
        grid: &Grid,
        tunnels: &[Tunnel],
        dropped: &[Coord],
        lay: &Layout,
        page: &Drawing,
    ) -> Overlays {
        let mut sides = Vec::new();
        let mut polygon = |c: crate::topology::Coord| {
            sides.clear();
            grid.topology().tess().sides(c, &mut sides);
            sides.iter().map(|s| s.a).collect::<Vec<_>>()
        };
        let crossings = polygons(lay, tunnels.iter().map(|t| polygon(grid.coord(t.under))));
        let mask = polygons(lay, grid.cells().map(|id| polygon(grid.coord(id))));
        let necks = crate::shape::necks_in(grid, NECK_PIECE);
        let necks = polygons(lay, necks.into_iter().map(&mut polygon));
        let dropped_cells = polygons(lay, dropped.iter().map(|&c| polygon(c)));
        Overlays {
            crossings: tint(crossings, CROSSING_TINT),
            mask: tint(mask, MASK_TINT),
            necks: tint(necks, NECK_TINT),
            dropped: tint(dropped_cells, DROPPED_TINT),
            trim: trim_line(page),
            hand: Vec::new(),
            crossing_count: tunnels.len(),
            cell_count: grid.len(),
            dropped_count: dropped.len(),
        }
    }

    /// These overlays with the hand work on `grid`'s maze: a green bar across each passage
    /// `locks` keeps open (from one cell towards the other, so it reads as a way through), a red
    /// bar along each wall it keeps closed, and a tint over the cells of the `regions` carved
    /// again.
    pub fn with_hand_work(
        mut self,
        grid: &Grid,
        locks: &Locks,
        regions: &[Recarve],
        lay: &Layout,
    ) -> Overlays {
        let tess = grid.topology().tess();
        let mut sides = Vec::new();
        let cells: Vec<Vec<Point>> = regions
            .iter()
            .flat_map(|r| r.cells.iter())
            .map(|&[r, c]| Coord::new(r, c))
            .filter(|&c| grid.id_at(c).is_some())
            .map(|c| {
                sides.clear();
                tess.sides(c, &mut sides);
                sides.iter().map(|s| s.a).collect()
            })
            .collect();
        self.hand
            .extend(tint(polygons(lay, cells.into_iter()), RECARVE_TINT));
        let width = (lay.wall_mm * 2.5).max(0.8);
        for (walls, color, open) in [
            (&locks.open, LOCK_OPEN, true),
            (&locks.closed, LOCK_CLOSED, false),
        ] {
            let mut segs = Vec::new();
            for w in walls {
                let (a, b) = (Coord::new(w[0], w[1]), Coord::new(w[2], w[3]));
                if grid.id_at(a).is_none() || grid.id_at(b).is_none() {
                    continue;
                }
                sides.clear();
                tess.sides(a, &mut sides);
                for s in sides.iter().filter(|s| s.neighbour == Some(b)) {
                    let (p, q) = if open {
                        // across the side, two thirds of the way to each cell's centre
                        let (ca, cb) = (tess.center(a), tess.center(b));
                        let m = Point::new((s.a.x + s.b.x) / 2.0, (s.a.y + s.b.y) / 2.0);
                        let towards =
                            |c: Point| Point::new(m.x + (c.x - m.x) / 1.5, m.y + (c.y - m.y) / 1.5);
                        (towards(ca), towards(cb))
                    } else {
                        (s.a, s.b)
                    };
                    segs.extend(Path::polyline(&[lay.to_page(p), lay.to_page(q)]).segs());
                }
            }
            if !segs.is_empty() {
                self.hand.push(Item {
                    layer: Layer::Overlay,
                    shape: Shape::Stroke {
                        path: Path::from(segs),
                        width,
                        color,
                    },
                });
            }
        }
        self
    }

    /// The overlays of a tile maze: its tiles (the shape's, or the whole grid) for the mask.
    pub fn tiles(m: &TileMaze, lay: &Layout, page: &Drawing) -> Overlays {
        let tiles: Vec<Tile> = match &m.region {
            Some(r) => r.open_tiles(),
            None => {
                let (w, h) = (m.grid.width(), m.grid.height());
                (0..h).flat_map(|r| (0..w).map(move |c| (c, r))).collect()
            }
        };
        let hexes = tiles.iter().map(|&t| {
            hexagon(t)
                .iter()
                .map(|&(x, y)| Point::new(x, y))
                .collect::<Vec<_>>()
        });
        Overlays {
            mask: tint(polygons(lay, hexes), MASK_TINT),
            trim: trim_line(page),
            cell_count: tiles.len(),
            ..Overlays::default()
        }
    }

    /// The items of `page` with the overlays `show` asks for, bottom to top: the crossing tint
    /// over the crossings and under the markers, text and solution; the mask, its necks, the
    /// dropped parts (always) and the trim line on top of everything.
    pub fn shown<'a>(&'a self, page: &'a Drawing, show: Show) -> impl Iterator<Item = &'a Item> {
        let crossings = self.crossings.as_ref().filter(|_| show.crossings);
        let split = if crossings.is_some() {
            page.items
                .iter()
                .position(|i| matches!(i.layer, Layer::Markers | Layer::Text | Layer::Solution))
                .unwrap_or(page.items.len())
        } else {
            page.items.len()
        };
        let (below, above) = page.items.split_at(split);
        let mask = [&self.mask, &self.necks]
            .into_iter()
            .filter_map(move |o| o.as_ref().filter(|_| show.mask));
        below
            .iter()
            .chain(crossings)
            .chain(above)
            .chain(mask)
            .chain(self.dropped.as_ref())
            .chain(&self.hand)
            .chain(self.trim.as_ref())
    }
}
