//! The drawing model: a maze laid out on a page as a display list in millimetres.
//!
//! [`puzzle_page`] and [`key_page`] turn a [`Generated`] maze and a [`PageSetup`] into a
//! [`Drawing`]: a page size and a list of [`Item`]s (strokes, fills and text, each tagged with a
//! [`Layer`]), with the origin at the top-left corner of the page and y pointing down. This is the
//! only place where maze geometry meets print style; the SVG, PDF and PNG back ends (and the
//! editor's preview) draw the list as it is and derive no geometry of their own.
//!
//! What goes on a page, bottom to top:
//! - [`Layer::Page`]: the white page (bleed included).
//! - [`Layer::Walls`]: every closed cell side, joined into a few long trails (see `walls.rs`)
//!   with round caps and joins. Arcs (polar rings) are true arcs, as cubic Béziers.
//! - [`Layer::Crossings`]: for each weave tunnel, the tunnel's side walls through the crossed
//!   cell, then the over-corridor's floor as a white band covering them, then the over-corridor's
//!   walls on top.
//! - [`Layer::Markers`]: an arrow through the entrance and the exit openings, and the START and
//!   FINISH labels outside the shape, clear of it.
//! - [`Layer::Text`]: the title, the name line and the page number.
//! - [`Layer::Solution`] (answer key only): a smooth rounded line through the corridor centres
//!   from opening to opening, broken where it passes under a weave crossing, and an
//!   "ANSWER KEY" label. The key page is the puzzle page plus this layer and nothing else.
//!
//! Hex tile mazes ([`crate::tiles`]) are drawn into the same model by `tiles.rs`
//! ([`tile_pages`]): filled wall tiles instead of wall strokes, the same layout, markers and text.

mod book;
mod font;
pub mod overlay;
mod tiles;
mod walls;

use std::f64::consts::FRAC_PI_4;

use crate::error::{Error, Result};
use crate::grid::{CellId, Grid};
use crate::maze::Tunnel;
use crate::page::{PageSetup, Typeface};
use crate::pipeline::Generated;
use crate::topology::{Point, Side};

pub use book::{AnswerKey, KeyMaze, answers_page, title_page};
pub(crate) use font::{CAP_HEIGHT_EM, font};
pub use font::{font_bytes, printable};

pub use tiles::{TILE_WALL, tile_layout, tile_pages};
use walls::Piece;

/// A position on the page in millimetres, from the top-left corner, y down.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pos {
    /// Millimetres from the left edge.
    pub x: f64,
    /// Millimetres from the top edge.
    pub y: f64,
}

impl Pos {
    /// `Pos { x, y }`.
    pub const fn new(x: f64, y: f64) -> Self {
        Pos { x, y }
    }

    fn add(self, v: (f64, f64), k: f64) -> Pos {
        Pos::new(self.x + v.0 * k, self.y + v.1 * k)
    }
}

/// An sRGB colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Rgb(pub u8, pub u8, pub u8);

impl Rgb {
    /// Black: walls, markers and text.
    pub const BLACK: Rgb = Rgb(0, 0, 0);
    /// White: the paper.
    pub const WHITE: Rgb = Rgb(255, 255, 255);
    /// The answer key's line.
    pub const SOLUTION: Rgb = Rgb(220, 48, 32);

    /// `#rrggbb`.
    pub fn hex(self) -> String {
        format!("#{:02x}{:02x}{:02x}", self.0, self.1, self.2)
    }
}

/// One step of a [`Path`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Seg {
    /// Start a new subpath.
    MoveTo(Pos),
    /// A straight line to the point.
    LineTo(Pos),
    /// A cubic Bézier: two control points and the end point.
    CubicTo(Pos, Pos, Pos),
    /// Close the subpath back to its start.
    Close,
}

/// A path: one or more subpaths of lines and cubic curves, in millimetres.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Path {
    /// The steps; every subpath starts with [`Seg::MoveTo`].
    pub segs: Vec<Seg>,
}

impl Path {
    /// How many subpaths the path has.
    pub fn subpaths(&self) -> usize {
        self.segs
            .iter()
            .filter(|s| matches!(s, Seg::MoveTo(_)))
            .count()
    }

    /// A closed polygon through `points`.
    pub fn polygon(points: &[Pos]) -> Path {
        let mut segs = Vec::with_capacity(points.len() + 1);
        for (i, &p) in points.iter().enumerate() {
            segs.push(if i == 0 {
                Seg::MoveTo(p)
            } else {
                Seg::LineTo(p)
            });
        }
        segs.push(Seg::Close);
        Path { segs }
    }

    /// An open polyline through `points`.
    pub fn polyline(points: &[Pos]) -> Path {
        let mut b = PathBuilder::default();
        for (i, &p) in points.iter().enumerate() {
            if i == 0 {
                b.move_to(p);
            } else {
                b.line_to(p);
            }
        }
        b.finish()
    }
}

/// Builds a path, merging straight runs into single lines.
#[derive(Default)]
struct PathBuilder {
    segs: Vec<Seg>,
    /// The current point and the point before it (when the last step was a line).
    current: Option<Pos>,
    before: Option<Pos>,
}

impl PathBuilder {
    fn move_to(&mut self, p: Pos) {
        self.segs.push(Seg::MoveTo(p));
        self.current = Some(p);
        self.before = None;
    }

    fn line_to(&mut self, q: Pos) {
        if let (Some(p), Some(o), Some(Seg::LineTo(_))) =
            (self.current, self.before, self.segs.last())
        {
            let (ux, uy) = (p.x - o.x, p.y - o.y);
            let (vx, vy) = (q.x - p.x, q.y - p.y);
            let cross = ux * vy - uy * vx;
            let dot = ux * vx + uy * vy;
            if dot > 0.0 && cross.abs() <= 1e-9 * (ux.hypot(uy) * vx.hypot(vy)).max(1e-12) {
                *self.segs.last_mut().expect("checked") = Seg::LineTo(q);
                self.current = Some(q);
                return;
            }
        }
        if self.current.is_some_and(|p| p == q) {
            return;
        }
        self.segs.push(Seg::LineTo(q));
        self.before = self.current;
        self.current = Some(q);
    }

    fn cubic_to(&mut self, c1: Pos, c2: Pos, p: Pos) {
        self.segs.push(Seg::CubicTo(c1, c2, p));
        self.before = None;
        self.current = Some(p);
    }

    /// A quadratic Bézier, stored as the equivalent cubic.
    fn quad_to(&mut self, c: Pos, p: Pos) {
        let Some(p0) = self.current else {
            self.move_to(p);
            return;
        };
        let k = 2.0 / 3.0;
        let c1 = Pos::new(p0.x + k * (c.x - p0.x), p0.y + k * (c.y - p0.y));
        let c2 = Pos::new(p.x + k * (c.x - p.x), p.y + k * (c.y - p.y));
        self.cubic_to(c1, c2, p);
    }

    fn finish(self) -> Path {
        Path { segs: self.segs }
    }
}

/// Where a text's anchor point sits along the text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Anchor {
    /// The text starts at the anchor.
    Start,
    /// The text is centred on the anchor.
    Middle,
    /// The text ends at the anchor.
    End,
}

/// A line of text in Helvetica.
#[derive(Clone, Debug, PartialEq)]
pub struct Text {
    /// The text, already reduced to Latin-1 (see [`printable`]).
    pub text: String,
    /// The anchor point on the baseline.
    pub at: Pos,
    /// The em size in millimetres.
    pub size: f64,
    /// How the text sits on its anchor.
    pub anchor: Anchor,
    /// The bold weight rather than the regular.
    pub bold: bool,
    /// The typeface.
    pub face: Typeface,
    /// The colour.
    pub color: Rgb,
}

impl Text {
    /// The text's width in millimetres (its typeface's metrics).
    pub fn width(&self) -> f64 {
        font(self.face, self.bold).width(&self.text, self.size)
    }

    /// The x of the text's left end.
    pub fn left(&self) -> f64 {
        match self.anchor {
            Anchor::Start => self.at.x,
            Anchor::Middle => self.at.x - self.width() / 2.0,
            Anchor::End => self.at.x - self.width(),
        }
    }
}

/// What an item draws.
#[derive(Clone, Debug, PartialEq)]
pub enum Shape {
    /// A stroked path with round caps and joins.
    Stroke {
        /// The path.
        path: Path,
        /// Line width in millimetres.
        width: f64,
        /// Colour.
        color: Rgb,
    },
    /// A filled path (non-zero winding).
    Fill {
        /// The path.
        path: Path,
        /// Colour.
        color: Rgb,
    },
    /// A line of text.
    Text(Text),
    /// A translucent fill (non-zero winding) that only the editor shows, on
    /// [`Layer::Overlay`].
    Tint {
        /// The path.
        path: Path,
        /// Colour.
        color: Rgb,
        /// Opacity, 0 (clear) to 255 (opaque).
        alpha: u8,
    },
}

/// The part of the page an item belongs to; back ends group items by layer (the SVG writes one
/// `<g id="...">` per layer).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Layer {
    /// The paper.
    Page,
    /// The maze walls.
    Walls,
    /// Weave crossings drawn over the walls.
    Crossings,
    /// Entrance and exit arrows and labels.
    Markers,
    /// Title, name line, page number.
    Text,
    /// The answer key's line and label.
    Solution,
    /// What the editor shows on the page but never prints (see [`overlay`]): the weave
    /// crossing tint, the mask and its necks, the trim line. Every exporter skips it.
    Overlay,
}

impl Layer {
    /// The layer's name (the SVG group id).
    pub fn name(self) -> &'static str {
        match self {
            Layer::Page => "page",
            Layer::Walls => "walls",
            Layer::Crossings => "crossings",
            Layer::Markers => "markers",
            Layer::Text => "text",
            Layer::Solution => "solution",
            Layer::Overlay => "overlay",
        }
    }

    /// Whether the layer is printed (every layer but [`Layer::Overlay`]).
    pub fn printed(self) -> bool {
        self != Layer::Overlay
    }
}

/// One entry of the display list.
#[derive(Clone, Debug, PartialEq)]
pub struct Item {
    /// Which layer it belongs to.
    pub layer: Layer,
    /// What it draws.
    pub shape: Shape,
}

impl Item {
    /// The item moved by (`dx`, `dy`) millimetres.
    pub fn translated(&self, dx: f64, dy: f64) -> Item {
        self.transformed(1.0, dx, dy)
    }

    /// The item scaled by `s` about the origin, then moved by (`dx`, `dy`) millimetres: line
    /// widths and text sizes scale with it.
    pub fn transformed(&self, s: f64, dx: f64, dy: f64) -> Item {
        let mv = |p: Pos| Pos::new(p.x * s + dx, p.y * s + dy);
        let path = |p: &Path| Path {
            segs: p
                .segs
                .iter()
                .map(|seg| match *seg {
                    Seg::MoveTo(a) => Seg::MoveTo(mv(a)),
                    Seg::LineTo(a) => Seg::LineTo(mv(a)),
                    Seg::CubicTo(a, b, c) => Seg::CubicTo(mv(a), mv(b), mv(c)),
                    Seg::Close => Seg::Close,
                })
                .collect(),
        };
        let shape = match &self.shape {
            Shape::Stroke {
                path: p,
                width,
                color,
            } => Shape::Stroke {
                path: path(p),
                width: width * s,
                color: *color,
            },
            Shape::Fill { path: p, color } => Shape::Fill {
                path: path(p),
                color: *color,
            },
            Shape::Text(t) => Shape::Text(Text {
                at: mv(t.at),
                size: t.size * s,
                ..t.clone()
            }),
            Shape::Tint {
                path: p,
                color,
                alpha,
            } => Shape::Tint {
                path: path(p),
                color: *color,
                alpha: *alpha,
            },
        };
        Item {
            layer: self.layer,
            shape,
        }
    }
}

/// An axis-aligned rectangle in millimetres.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Area {
    /// Left edge.
    pub x: f64,
    /// Top edge.
    pub y: f64,
    /// Width.
    pub w: f64,
    /// Height.
    pub h: f64,
}

impl Area {
    fn overlaps(&self, o: &Area) -> bool {
        self.x < o.x + o.w && o.x < self.x + self.w && self.y < o.y + o.h && o.y < self.y + self.h
    }
}

/// A page ready to render: its size and its display list.
#[derive(Clone, Debug, PartialEq)]
pub struct Drawing {
    /// Page width in millimetres (bleed included).
    pub width: f64,
    /// Page height in millimetres (bleed included).
    pub height: f64,
    /// The trimmed page inside the bleed.
    pub trim: Area,
    /// The items, bottom to top.
    pub items: Vec<Item>,
}

impl Drawing {
    /// The items of one layer.
    pub fn layer(&self, layer: Layer) -> impl Iterator<Item = &Item> {
        self.items.iter().filter(move |i| i.layer == layer)
    }

    /// How many subpaths the walls are drawn with.
    pub fn wall_strokes(&self) -> usize {
        self.layer(Layer::Walls)
            .map(|i| match &i.shape {
                Shape::Stroke { path, .. } => path.subpaths(),
                _ => 0,
            })
            .sum()
    }

    /// The items that print (every layer but [`Layer::Overlay`]), bottom to top: what every
    /// exporter draws.
    pub fn printed(&self) -> impl Iterator<Item = &Item> {
        self.items.iter().filter(|i| i.layer.printed())
    }

    /// Every text on the page.
    pub fn texts(&self) -> impl Iterator<Item = &Text> {
        self.items.iter().filter_map(|i| match &i.shape {
            Shape::Text(t) => Some(t),
            _ => None,
        })
    }
}

/// Where the maze sits on the page and how big it came out.
#[derive(Clone, Debug, PartialEq)]
pub struct Layout {
    /// Page width and height in millimetres (bleed included).
    pub page: (f64, f64),
    /// The trimmed page.
    pub trim: Area,
    /// The printable area inside the margins.
    pub printable: Area,
    /// The area left for the maze and its markers, between the header and the footer.
    pub maze_area: Area,
    /// Millimetres per maze unit (one maze unit is about one corridor).
    pub scale: f64,
    /// Where maze point (0, 0) lands on the page.
    pub origin: Pos,
    /// The maze's bounding box on the page.
    pub maze_box: Area,
    /// The wall thickness used, in millimetres (the setup's, thinned for small cells).
    pub wall_mm: f64,
    /// The clear corridor width between walls, in millimetres.
    pub corridor_mm: f64,
    /// The narrowest corridor accepted without a warning (from the setup).
    pub min_corridor_mm: f64,
    /// Whether the walls had to be thinner than the setup asked.
    pub walls_thinned: bool,
    /// The typeface of the page's text (from the setup).
    pub face: Typeface,
}

impl Layout {
    /// The page position (millimetres) of a maze point (maze units).
    pub fn to_page(&self, p: Point) -> Pos {
        Pos::new(
            self.origin.x + p.x * self.scale,
            self.origin.y + p.y * self.scale,
        )
    }

    /// The maze point (maze units) under a page position (millimetres).
    pub fn to_maze(&self, p: Pos) -> Point {
        Point::new(
            (p.x - self.origin.x) / self.scale,
            (p.y - self.origin.y) / self.scale,
        )
    }

    /// Warnings for the person printing: corridors narrower than the setup's minimum (3 mm by
    /// default: hard to follow with a pencil) and walls thinned to keep corridors open.
    pub fn warnings(&self) -> Vec<String> {
        let mut w = Vec::new();
        if self.corridor_mm < self.min_corridor_mm {
            let fit = (self.scale / (self.min_corridor_mm + self.wall_mm)).max(0.0);
            w.push(format!(
                "corridors are {:.1} mm wide, under {:.1} mm: hard to solve with a pencil; use a \
                 larger page or about {:.0}% of the cells across",
                self.corridor_mm,
                self.min_corridor_mm,
                (fit * 100.0).floor().max(1.0)
            ));
        }
        if self.walls_thinned {
            w.push(format!(
                "walls thinned to {:.2} mm so the corridors stay open",
                self.wall_mm
            ));
        }
        w
    }
}

// ---- sizes (millimetres) ----

const PT: f64 = 25.4 / 72.0;
const TITLE_SIZE: f64 = 18.0 * PT;
const NAME_SIZE: f64 = 11.0 * PT;
const FOOTER_SIZE: f64 = 10.0 * PT;
const LABEL_SIZE: f64 = 9.0 * PT;
const LINE_GAP: f64 = 3.0;
/// How far an arrow reaches out of the maze's outline.
const ARROW_OUT: f64 = 6.0;
/// Gap between an arrow's outer end and its label.
const LABEL_GAP: f64 = 1.5;
const ARROW_WIDTH: f64 = 0.6;
/// Cells smaller than this (mm) turn the answer line with straight chamfers instead of curves.
const CURVE_MIN_SCALE: f64 = 2.5;
/// Half-width, in maze units, of a tunnel and of the corridor over it at a weave crossing.
const CROSSING_HALF: f64 = 0.3;

const START: &str = "START";
const FINISH: &str = "FINISH";
const ANSWER_KEY: &str = "ANSWER KEY";

/// The midpoint of a side (on the arc for arcs).
fn side_mid(s: &Side) -> Point {
    let m = Point::new((s.a.x + s.b.x) / 2.0, (s.a.y + s.b.y) / 2.0);
    match s.arc {
        Some(arc) => {
            let (dx, dy) = (m.x - arc.center.x, m.y - arc.center.y);
            let l = dx.hypot(dy);
            if l < 1e-12 {
                // a half circle: the midpoint is off the chord, perpendicular to it
                let p = walls::Piece {
                    a: s.a,
                    b: s.b,
                    arc: s.arc,
                };
                let a0 = (s.a.y - arc.center.y).atan2(s.a.x - arc.center.x);
                let t = a0 + walls::sweep(&p, arc) / 2.0;
                Point::new(
                    arc.center.x + arc.radius * t.cos(),
                    arc.center.y + arc.radius * t.sin(),
                )
            } else {
                Point::new(
                    arc.center.x + dx / l * arc.radius,
                    arc.center.y + dy / l * arc.radius,
                )
            }
        }
        None => m,
    }
}

/// The unit normal of a side pointing away from `center` (the cell's centre).
fn outward(s: &Side, center: Point) -> (f64, f64) {
    let (dx, dy) = (s.b.x - s.a.x, s.b.y - s.a.y);
    let l = dx.hypot(dy).max(1e-12);
    let (mut nx, mut ny) = (dy / l, -dx / l);
    let m = side_mid(s);
    if nx * (m.x - center.x) + ny * (m.y - center.y) < 0.0 {
        nx = -nx;
        ny = -ny;
    }
    (nx, ny)
}

/// Maze-unit geometry shared by layout and drawing.
struct Geometry {
    /// Bounding box of the active cells, maze units: (min x, min y, max x, max y).
    bbox: (f64, f64, f64, f64),
    /// Coarse occupancy grid over `bbox` for keeping labels off the shape.
    occ: Occupancy,
    /// (midpoint, outward unit normal) of the entrance and the exit openings.
    openings: [(Point, (f64, f64)); 2],
}

struct Occupancy {
    x0: f64,
    y0: f64,
    cell: f64,
    cols: usize,
    rows: usize,
    bits: Vec<bool>,
}

impl Occupancy {
    fn new(bbox: (f64, f64, f64, f64)) -> Occupancy {
        let (w, h) = (bbox.2 - bbox.0, bbox.3 - bbox.1);
        let cell = (w.max(h) / 512.0).max(0.5);
        let cols = ((w / cell).ceil() as usize).max(1);
        let rows = ((h / cell).ceil() as usize).max(1);
        Occupancy {
            x0: bbox.0,
            y0: bbox.1,
            cell,
            cols,
            rows,
            bits: vec![false; cols * rows],
        }
    }

    fn range(&self, lo: f64, hi: f64, origin: f64, n: usize) -> Option<(usize, usize)> {
        let a = ((lo - origin) / self.cell).floor();
        let b = ((hi - origin) / self.cell).floor();
        if b < 0.0 || a >= n as f64 {
            return None;
        }
        Some((a.max(0.0) as usize, (b as usize).min(n - 1)))
    }

    fn mark(&mut self, b: (f64, f64, f64, f64)) {
        if let (Some((c0, c1)), Some((r0, r1))) = (
            self.range(b.0, b.2, self.x0, self.cols),
            self.range(b.1, b.3, self.y0, self.rows),
        ) {
            for r in r0..=r1 {
                for c in c0..=c1 {
                    self.bits[r * self.cols + c] = true;
                }
            }
        }
    }

    fn any(&self, b: (f64, f64, f64, f64)) -> bool {
        match (
            self.range(b.0, b.2, self.x0, self.cols),
            self.range(b.1, b.3, self.y0, self.rows),
        ) {
            (Some((c0, c1)), Some((r0, r1))) => {
                (r0..=r1).any(|r| (c0..=c1).any(|c| self.bits[r * self.cols + c]))
            }
            _ => false,
        }
    }
}

fn geometry(g: &Generated) -> Geometry {
    let grid = g.maze.grid();
    let mut sides = Vec::new();
    let mut boxes = Vec::with_capacity(grid.len());
    let mut bbox = (
        f64::INFINITY,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NEG_INFINITY,
    );
    for id in grid.cells() {
        sides.clear();
        grid.sides(id, &mut sides);
        let mut b = (
            f64::INFINITY,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::NEG_INFINITY,
        );
        for s in &sides {
            for p in [s.a, s.b, side_mid(s)] {
                b = (b.0.min(p.x), b.1.min(p.y), b.2.max(p.x), b.3.max(p.y));
            }
        }
        bbox = (
            bbox.0.min(b.0),
            bbox.1.min(b.1),
            bbox.2.max(b.2),
            bbox.3.max(b.3),
        );
        boxes.push(b);
    }
    if !bbox.0.is_finite() {
        bbox = (0.0, 0.0, 1.0, 1.0);
    }
    let mut occ = Occupancy::new(bbox);
    for b in boxes {
        occ.mark(b);
    }
    let mut opening = |e: crate::endpoints::Endpoint| {
        sides.clear();
        grid.sides(e.cell, &mut sides);
        let c = grid.center(e.cell);
        match sides.get(e.side) {
            Some(s) => (side_mid(s), outward(s, c)),
            None => (c, (0.0, -1.0)),
        }
    };
    let openings = [opening(g.entrance), opening(g.exit)];
    Geometry {
        bbox,
        occ,
        openings,
    }
}

/// Size of a label's box (width, cap height) in millimetres.
fn label_size(text: &str, face: Typeface) -> (f64, f64) {
    (
        font(face, true).width(text, LABEL_SIZE),
        CAP_HEIGHT_EM * LABEL_SIZE,
    )
}

/// Distance from an opening to the centre of its label's box along the outward normal `n`,
/// before any nudging away from the shape.
fn label_reach(n: (f64, f64), (w, h): (f64, f64)) -> f64 {
    ARROW_OUT + LABEL_GAP + n.0.abs() * w / 2.0 + n.1.abs() * h / 2.0
}

/// The header (title, name line) and footer heights, and where their baselines go.
struct Furniture {
    title_base: Option<f64>,
    name_base: Option<f64>,
    footer_base: f64,
    top: f64,
    bottom: f64,
}

fn furniture(setup: &PageSetup, printable: &Area) -> Furniture {
    let mut y = printable.y;
    let mut title_base = None;
    let mut name_base = None;
    if setup.title.as_deref().is_some_and(|t| !t.trim().is_empty()) {
        let base = y + CAP_HEIGHT_EM * TITLE_SIZE;
        title_base = Some(base);
        y = base + font::DESCENT_EM * TITLE_SIZE + LINE_GAP;
    }
    if setup.name_line {
        let base = y + CAP_HEIGHT_EM * NAME_SIZE;
        name_base = Some(base);
        y = base + font::DESCENT_EM * NAME_SIZE + LINE_GAP;
    }
    let footer_base = printable.y + printable.h - font::DESCENT_EM * FOOTER_SIZE;
    let bottom = footer_base - CAP_HEIGHT_EM * FOOTER_SIZE - LINE_GAP;
    Furniture {
        title_base,
        name_base,
        footer_base,
        top: y,
        bottom,
    }
}

fn printable_area(setup: &PageSetup) -> Area {
    let (tw, th) = setup.trim_mm();
    let (bx, by) = setup.trim_origin_mm();
    let m = setup.margin_mm;
    let (left, right) = if setup.inside_is_left() {
        (m + setup.gutter_mm, m)
    } else {
        (m, m + setup.gutter_mm)
    };
    Area {
        x: bx + left,
        y: by + m,
        w: tw - left - right,
        h: th - 2.0 * m,
    }
}

fn layout_with(setup: &PageSetup, geo: &Geometry) -> Result<Layout> {
    setup.validate()?;
    let (tw, th) = setup.trim_mm();
    let (bx, by) = setup.trim_origin_mm();
    let printable = printable_area(setup);
    let furn = furniture(setup, &printable);
    let maze_area = Area {
        x: printable.x,
        y: furn.top,
        w: printable.w,
        h: furn.bottom - furn.top,
    };
    // room for the markers: symmetric on each axis so the maze stays centred
    let (mut rx, mut ry) = (0.0f64, 0.0f64);
    for (i, &(_, n)) in geo.openings.iter().enumerate() {
        let size = label_size(if i == 0 { START } else { FINISH }, setup.font);
        let reach = label_reach(n, size);
        if n.0.abs() > 1e-6 {
            rx = rx.max(n.0.abs() * reach + size.0 / 2.0);
        }
        if n.1.abs() > 1e-6 {
            ry = ry.max(n.1.abs() * reach + size.1 / 2.0);
        }
    }
    let (bw, bh) = (
        (geo.bbox.2 - geo.bbox.0).max(1e-9),
        (geo.bbox.3 - geo.bbox.1).max(1e-9),
    );
    let aw = maze_area.w - 2.0 * rx;
    let ah = maze_area.h - 2.0 * ry;
    if aw < 10.0 || ah < 10.0 {
        return Err(Error::option(format!(
            "the page leaves no room for the maze ({:.0} x {:.0} mm after the title, labels and margins); use a larger page or smaller margins",
            aw.max(0.0),
            ah.max(0.0)
        )));
    }
    let scale = (aw / bw).min(ah / bh);
    let maze_w = bw * scale;
    let maze_h = bh * scale;
    let left = maze_area.x + (maze_area.w - maze_w) / 2.0;
    let top = maze_area.y + (maze_area.h - maze_h) / 2.0;
    let origin = Pos::new(left - geo.bbox.0 * scale, top - geo.bbox.1 * scale);
    let max_wall = 0.3 * scale;
    let walls_thinned = setup.wall_mm > max_wall;
    let wall_mm = setup.wall_mm.min(max_wall);
    Ok(Layout {
        page: setup.page_mm(),
        trim: Area {
            x: bx,
            y: by,
            w: tw,
            h: th,
        },
        printable,
        maze_area,
        scale,
        origin,
        maze_box: Area {
            x: left,
            y: top,
            w: maze_w,
            h: maze_h,
        },
        wall_mm,
        corridor_mm: scale - wall_mm,
        min_corridor_mm: setup.min_corridor_mm,
        walls_thinned,
        face: setup.font,
    })
}

/// Fits `g` onto the page `setup` describes: the scale, position, corridor width and warnings.
pub fn layout(g: &Generated, setup: &PageSetup) -> Result<Layout> {
    layout_with(setup, &geometry(g))
}

/// The puzzle page: walls, crossings, entrance and exit markers, title, name line, page number.
pub fn puzzle_page(g: &Generated, setup: &PageSetup) -> Result<Drawing> {
    build(g, setup, false)
}

/// The answer-key page: the puzzle page with the same layout plus the [`Layer::Solution`] items
/// (the solution line and an "ANSWER KEY" label) on top; nothing else differs.
pub fn key_page(g: &Generated, setup: &PageSetup) -> Result<Drawing> {
    build(g, setup, true)
}

fn build(g: &Generated, setup: &PageSetup, key: bool) -> Result<Drawing> {
    let geo = geometry(g);
    let lay = layout_with(setup, &geo)?;
    let tunnels = g.maze.tunnels();
    let maze = maze_items(g, &lay, &geo, &tunnels);
    Ok(assemble(g, setup, &lay, maze, key.then_some(&tunnels)))
}

/// The puzzle page, its answer key and the puzzle's layout, made together.
#[derive(Clone, Debug, PartialEq)]
pub struct Pages {
    /// The puzzle page.
    pub puzzle: Drawing,
    /// The answer-key page.
    pub key: Drawing,
    /// Where the maze sits on the puzzle page (see [`Layout::warnings`]).
    pub layout: Layout,
}

/// The puzzle page laid out with `setup` and the answer key laid out with `key_setup` (the same
/// setup for an SVG or PNG key, [`PageSetup::next_page`] for page 2 of a PDF). The maze is
/// drawn once: when both layouts put it at the same size, the key reuses the puzzle's walls,
/// crossings and markers, moved to the key page's position.
pub fn pages(g: &Generated, setup: &PageSetup, key_setup: &PageSetup) -> Result<Pages> {
    let geo = geometry(g);
    let lay = layout_with(setup, &geo)?;
    let key_lay = layout_with(key_setup, &geo)?;
    let tunnels = g.maze.tunnels();
    let maze = maze_items(g, &lay, &geo, &tunnels);
    let same_size = lay.scale == key_lay.scale
        && lay.wall_mm == key_lay.wall_mm
        && lay.printable.w == key_lay.printable.w
        && lay.printable.h == key_lay.printable.h;
    let key_maze = if same_size {
        let (dx, dy) = (
            key_lay.origin.x - lay.origin.x,
            key_lay.origin.y - lay.origin.y,
        );
        if dx == 0.0 && dy == 0.0 {
            maze.clone()
        } else {
            maze.iter().map(|i| i.translated(dx, dy)).collect()
        }
    } else {
        maze_items(g, &key_lay, &geo, &tunnels)
    };
    let key = assemble(g, key_setup, &key_lay, key_maze, Some(&tunnels));
    let puzzle = assemble(g, setup, &lay, maze, None);
    Ok(Pages {
        puzzle,
        key,
        layout: lay,
    })
}

/// Walls, crossings and markers for the maze at `lay`.
fn maze_items(g: &Generated, lay: &Layout, geo: &Geometry, tunnels: &[Tunnel]) -> Vec<Item> {
    let mut items = Vec::new();
    draw_walls(g, lay, tunnels, &mut items);
    draw_crossings(g, lay, tunnels, &mut items);
    draw_markers(lay, geo, &mut items);
    items
}

/// The page: paper, the maze items, the text, and the solution when `solution` has the tunnels.
fn assemble(
    g: &Generated,
    setup: &PageSetup,
    lay: &Layout,
    maze: Vec<Item>,
    solution: Option<&Vec<Tunnel>>,
) -> Drawing {
    let (pw, ph) = lay.page;
    let mut items = Vec::with_capacity(maze.len() + 8);
    items.push(paper(lay.page));
    items.extend(maze);
    draw_text(setup, &lay.printable, &mut items);
    if let Some(tunnels) = solution {
        draw_solution(g, lay, tunnels, &mut items);
    }
    Drawing {
        width: pw,
        height: ph,
        trim: lay.trim,
        items,
    }
}

/// The side of `a` facing its neighbour `b`, if they are neighbours.
fn shared_side(grid: &Grid, a: CellId, b: CellId, buf: &mut Vec<Side>) -> Option<Side> {
    let cb = grid.coord(b);
    buf.clear();
    grid.sides(a, buf);
    buf.iter().copied().find(|s| s.neighbour == Some(cb))
}

/// Tunnel mouths: the shared wall between a crossed cell and a tunnel end, per unordered pair.
fn mouths(tunnels: &[Tunnel]) -> Vec<(CellId, CellId)> {
    let mut v: Vec<(CellId, CellId)> = tunnels
        .iter()
        .flat_map(|t| [(t.under, t.from), (t.under, t.to)])
        .map(|(a, b)| (a.min(b), a.max(b)))
        .collect();
    v.sort();
    v.dedup();
    v
}

fn draw_walls(g: &Generated, lay: &Layout, tunnels: &[Tunnel], items: &mut Vec<Item>) {
    let maze = &g.maze;
    let grid = maze.grid();
    let mouths = mouths(tunnels);
    let mut sides = Vec::new();
    let mut pieces = Vec::with_capacity(grid.len() * 2);
    for id in grid.cells() {
        sides.clear();
        grid.sides(id, &mut sides);
        for (i, s) in sides.iter().enumerate() {
            if (id == g.entrance.cell && i == g.entrance.side)
                || (id == g.exit.cell && i == g.exit.side)
            {
                continue;
            }
            let other = s.neighbour.and_then(|c| grid.id_at(c));
            if let Some(n) = other {
                if n < id {
                    continue; // drawn from the other side
                }
                if grid
                    .slot_of(id, n)
                    .is_some_and(|slot| maze.linked_slot(id, slot))
                {
                    continue;
                }
                if s.arc.is_none() && mouths.binary_search(&(id, n)).is_ok() {
                    // a tunnel passes through this wall: leave its mouth open
                    let m = side_mid(s);
                    let (dx, dy) = (s.b.x - s.a.x, s.b.y - s.a.y);
                    let l = dx.hypot(dy);
                    let k = (CROSSING_HALF / l.max(1e-12)).min(0.5);
                    let p1 = Point::new(m.x - dx * k, m.y - dy * k);
                    let p2 = Point::new(m.x + dx * k, m.y + dy * k);
                    pieces.push(Piece::line(s.a, p1));
                    pieces.push(Piece::line(p2, s.b));
                    continue;
                }
            }
            pieces.push(Piece {
                a: s.a,
                b: s.b,
                arc: s.arc,
            });
        }
    }
    for trail in walls::trails(&pieces) {
        let piece = |s: &walls::Step| {
            let p = pieces[s.piece as usize];
            if s.reversed { p.reversed() } else { p }
        };
        let mut b = PathBuilder::default();
        b.move_to(lay.to_page(piece(&trail[0]).a));
        for s in &trail {
            piece_to(&mut b, &piece(s), lay);
        }
        items.push(Item {
            layer: Layer::Walls,
            shape: Shape::Stroke {
                path: b.finish(),
                width: lay.wall_mm,
                color: Rgb::BLACK,
            },
        });
    }
}

/// Appends `p` (which starts at the builder's current point) in page units.
fn piece_to(b: &mut PathBuilder, p: &Piece, lay: &Layout) {
    match p.arc {
        None => b.line_to(lay.to_page(p.b)),
        Some(arc) => {
            let total = walls::sweep(p, arc);
            let n = ((total.abs() / FRAC_PI_4).ceil() as usize).max(1);
            let step = total / n as f64;
            let a0 = (p.a.y - arc.center.y).atan2(p.a.x - arc.center.x);
            let r = arc.radius;
            let k = 4.0 / 3.0 * (step / 4.0).tan() * r;
            let at = |t: f64| Point::new(arc.center.x + r * t.cos(), arc.center.y + r * t.sin());
            for i in 0..n {
                let t0 = a0 + step * i as f64;
                let t1 = t0 + step;
                let p0 = at(t0);
                let p3 = if i + 1 == n { p.b } else { at(t1) };
                let c1 = Point::new(p0.x - k * t0.sin(), p0.y + k * t0.cos());
                let c2 = Point::new(p3.x + k * t1.sin(), p3.y - k * t1.cos());
                b.cubic_to(lay.to_page(c1), lay.to_page(c2), lay.to_page(p3));
            }
        }
    }
}

fn unit(x: f64, y: f64) -> (f64, f64) {
    let l = x.hypot(y);
    if l < 1e-15 {
        (0.0, 0.0)
    } else {
        (x / l, y / l)
    }
}

fn draw_crossings(g: &Generated, lay: &Layout, tunnels: &[Tunnel], items: &mut Vec<Item>) {
    let maze = &g.maze;
    let grid = maze.grid();
    let mut buf = Vec::new();
    let stroke = |pts: &[Point]| Item {
        layer: Layer::Crossings,
        shape: Shape::Stroke {
            path: Path::polyline(&pts.iter().map(|&p| lay.to_page(p)).collect::<Vec<_>>()),
            width: lay.wall_mm,
            color: Rgb::BLACK,
        },
    };
    let h = CROSSING_HALF;
    for t in tunnels {
        let u = t.under;
        let (Some(sf), Some(st)) = (
            shared_side(grid, u, t.from, &mut buf),
            shared_side(grid, u, t.to, &mut buf),
        ) else {
            continue; // not a crossing we can draw (the tunnel ends do not touch `under`)
        };
        let (mf, mt) = (side_mid(&sf), side_mid(&st));
        let d = unit(mt.x - mf.x, mt.y - mf.y);
        let p = (-d.1, d.0);
        // 1. the tunnel's side walls through the cell
        for sgn in [1.0, -1.0] {
            items.push(stroke(&[
                Point::new(mf.x + p.0 * h * sgn, mf.y + p.1 * h * sgn),
                Point::new(mt.x + p.0 * h * sgn, mt.y + p.1 * h * sgn),
            ]));
        }
        // 2. the over-corridor's floor, 3. its walls
        let center = grid.center(u);
        let over: Vec<Point> = grid
            .neighbours(u)
            .iter()
            .enumerate()
            .filter(|&(slot, _)| maze.linked_slot(u, slot))
            .filter_map(|(_, &n)| shared_side(grid, u, n, &mut buf).map(|s| side_mid(&s)))
            .collect();
        let spans: Vec<(Point, Point)> = if over.len() == 2 {
            vec![(over[0], over[1])]
        } else {
            over.iter().map(|&m| (center, m)).collect()
        };
        for &(a, b) in &spans {
            let v = unit(b.x - a.x, b.y - a.y);
            let q = (-v.1 * h, v.0 * h);
            let corners = [
                Point::new(a.x + q.0, a.y + q.1),
                Point::new(b.x + q.0, b.y + q.1),
                Point::new(b.x - q.0, b.y - q.1),
                Point::new(a.x - q.0, a.y - q.1),
            ];
            items.push(Item {
                layer: Layer::Crossings,
                shape: Shape::Fill {
                    path: Path::polygon(&corners.map(|c| lay.to_page(c))),
                    color: Rgb::WHITE,
                },
            });
        }
        if over.len() == 2 {
            // a straight crossing: the bridge's railings run only where the tunnel passes, so
            // the over-corridor keeps its full width elsewhere (no pockets beside the bridge)
            let v = unit(over[1].x - over[0].x, over[1].y - over[0].y);
            let q = (-v.1, v.0);
            // how far the tunnel's walls reach along the over-corridor, from the centre
            let reach = (0..2)
                .map(|i| {
                    let sgn = if i == 0 { 1.0 } else { -1.0 };
                    let w = Point::new(mf.x + p.0 * h * sgn, mf.y + p.1 * h * sgn);
                    (w.x - center.x) * v.0 + (w.y - center.y) * v.1
                })
                .fold(0.0f64, |m, r| m.max(r.abs()));
            for sgn in [1.0, -1.0] {
                let side = Point::new(center.x + q.0 * h * sgn, center.y + q.1 * h * sgn);
                items.push(stroke(&[
                    Point::new(side.x - v.0 * reach, side.y - v.1 * reach),
                    Point::new(side.x + v.0 * reach, side.y + v.1 * reach),
                ]));
            }
        } else {
            for &(a, b) in &spans {
                let v = unit(b.x - a.x, b.y - a.y);
                let q = (-v.1 * h, v.0 * h);
                for sgn in [1.0, -1.0] {
                    items.push(stroke(&[
                        Point::new(a.x + q.0 * sgn, a.y + q.1 * sgn),
                        Point::new(b.x + q.0 * sgn, b.y + q.1 * sgn),
                    ]));
                }
            }
        }
    }
}

/// Arrow from `tail` to `tip` with a filled head.
fn arrow(tail: Pos, tip: Pos, head_len: f64, head_w: f64, items: &mut Vec<Item>) {
    let d = unit(tip.x - tail.x, tip.y - tail.y);
    let p = (-d.1, d.0);
    let base = tip.add(d, -head_len);
    items.push(Item {
        layer: Layer::Markers,
        shape: Shape::Stroke {
            path: Path::polyline(&[tail, base.add(d, head_len * 0.3)]),
            width: ARROW_WIDTH,
            color: Rgb::BLACK,
        },
    });
    items.push(Item {
        layer: Layer::Markers,
        shape: Shape::Fill {
            path: Path::polygon(&[tip, base.add(p, head_w / 2.0), base.add(p, -head_w / 2.0)]),
            color: Rgb::BLACK,
        },
    });
}

fn draw_markers(lay: &Layout, geo: &Geometry, items: &mut Vec<Item>) {
    let s = lay.scale;
    let corridor = lay.corridor_mm.max(0.1);
    let head_w = (0.8 * corridor).clamp(1.6, 3.0);
    let head_len = head_w * 1.1;
    let mut placed: Vec<Area> = Vec::new();
    for (i, &(m_units, n)) in geo.openings.iter().enumerate() {
        let label = if i == 0 { START } else { FINISH };
        let m = lay.to_page(m_units);
        let (w, h) = label_size(label, lay.face);
        let pad = lay.wall_mm / 2.0 + 0.8;
        // whether a label box at `bx` is clear of the shape and of the other label
        let clear_box = |bx: &Area| {
            let units = (
                (bx.x - pad - lay.origin.x) / s,
                (bx.y - pad - lay.origin.y) / s,
                (bx.x + bx.w + pad - lay.origin.x) / s,
                (bx.y + bx.h + pad - lay.origin.y) / s,
            );
            !geo.occ.any(units) && !placed.iter().any(|o| o.overlaps(bx))
        };
        // whether the page point `p` is clear of the shape
        let clear_at = |p: Pos| {
            let r = lay.wall_mm / 2.0 + 0.3;
            let (x, y) = ((p.x - lay.origin.x) / s, (p.y - lay.origin.y) / s);
            !geo.occ.any((x - r / s, y - r / s, x + r / s, y + r / s))
        };
        // a box of the label's size centred on `c`, slid onto the printable area
        let boxed = |c: Pos| Area {
            x: (c.x - w / 2.0).clamp(lay.printable.x, lay.printable.x + lay.printable.w - w),
            y: (c.y - h / 2.0).clamp(lay.printable.y, lay.printable.y + lay.printable.h - h),
            w,
            h,
        };
        // push the label (and the arrow with it) straight out until it clears the shape, as long
        // as the longer arrow would not run back over the shape (a concave outline)
        let mut extra = 0.0;
        let mut bx = boxed(m.add(n, label_reach(n, (w, h))));
        let mut found = clear_box(&bx);
        while !found && extra < 400.0 {
            let tail = m.add(n, ARROW_OUT + extra);
            if !(1..=4).all(|k| clear_at(tail.add(n, 0.25 * f64::from(k)))) {
                break;
            }
            extra += 1.0;
            bx = boxed(m.add(n, label_reach(n, (w, h)) + extra));
            found = clear_box(&bx);
        }
        if !found {
            // the way straight out is blocked: keep the arrow short and put the label in the
            // nearest clear place around its tail, leaning outwards
            extra = 0.0;
            let tail = m.add(n, ARROW_OUT);
            let base = n.1.atan2(n.0);
            let reach = LABEL_GAP + w.hypot(h) / 2.0;
            'search: for step in 0..300 {
                let r = reach + 0.5 * f64::from(step);
                for k in 0..24 {
                    // 0, +15, -15, +30, ... degrees from the outward normal
                    let turn = f64::from((k + 1) / 2) * if k % 2 == 1 { 1.0 } else { -1.0 };
                    let a = base + turn * std::f64::consts::PI / 12.0;
                    let candidate = boxed(tail.add((a.cos(), a.sin()), r));
                    if clear_box(&candidate) {
                        bx = candidate;
                        break 'search;
                    }
                }
            }
        }
        placed.push(bx);
        // the arrow: from just inside the opening to its outer end, head towards travel
        let inside = if head_w <= 0.7 * corridor {
            0.3 * s
        } else {
            -(lay.wall_mm / 2.0 + 0.3)
        };
        let inner = m.add(n, -inside);
        let outer = m.add(n, ARROW_OUT + extra);
        if i == 0 {
            arrow(outer, inner, head_len, head_w, items);
        } else {
            arrow(inner, outer, head_len, head_w, items);
        }
        items.push(Item {
            layer: Layer::Markers,
            shape: Shape::Text(Text {
                text: label.into(),
                at: Pos::new(bx.x + w / 2.0, bx.y + h),
                size: LABEL_SIZE,
                anchor: Anchor::Middle,
                bold: true,
                face: lay.face,
                color: Rgb::BLACK,
            }),
        });
    }
}

/// The white sheet under everything else, `page` = (width, height) in millimetres.
pub(crate) fn paper(page: (f64, f64)) -> Item {
    let (pw, ph) = page;
    Item {
        layer: Layer::Page,
        shape: Shape::Fill {
            path: Path::polygon(&[
                Pos::new(0.0, 0.0),
                Pos::new(pw, 0.0),
                Pos::new(pw, ph),
                Pos::new(0.0, ph),
            ]),
            color: Rgb::WHITE,
        },
    }
}

fn draw_text(setup: &PageSetup, pa: &Area, items: &mut Vec<Item>) {
    let furn = furniture(setup, pa);
    let face = setup.font;
    let text = |text: String, at: Pos, size: f64, anchor: Anchor, bold: bool| Item {
        layer: Layer::Text,
        shape: Shape::Text(Text {
            text,
            at,
            size,
            anchor,
            bold,
            face,
            color: Rgb::BLACK,
        }),
    };
    if let (Some(base), Some(title)) = (furn.title_base, setup.title.as_deref()) {
        let mut t = printable(title.trim());
        // shorten a title too long for the line
        while t.chars().count() > 1 && font(face, true).width(&t, TITLE_SIZE) > pa.w {
            t.pop();
        }
        items.push(text(
            t,
            Pos::new(pa.x + pa.w / 2.0, base),
            TITLE_SIZE,
            Anchor::Middle,
            true,
        ));
    }
    if let Some(base) = furn.name_base {
        let label = "Name:";
        items.push(text(
            label.into(),
            Pos::new(pa.x, base),
            NAME_SIZE,
            Anchor::Start,
            false,
        ));
        let x0 = pa.x + font(face, false).width("Name: ", NAME_SIZE) + 1.0;
        let x1 = (pa.x + pa.w * 0.6).max(x0 + 20.0).min(pa.x + pa.w);
        items.push(Item {
            layer: Layer::Text,
            shape: Shape::Stroke {
                path: Path::polyline(&[Pos::new(x0, base + 0.6), Pos::new(x1, base + 0.6)]),
                width: 0.25,
                color: Rgb::BLACK,
            },
        });
    }
    if let Some(n) = setup.page_number {
        items.push(text(
            n.to_string(),
            Pos::new(pa.x + pa.w / 2.0, furn.footer_base),
            FOOTER_SIZE,
            Anchor::Middle,
            false,
        ));
    }
}

/// A point of the solution line: on the curve, a curve's control point (a cell centre), or the
/// centre of a crossing the line passes under.
#[derive(Clone, Copy)]
enum Via {
    On(Point),
    Control(Point),
    Under(Point),
}

fn draw_solution(g: &Generated, lay: &Layout, tunnels: &[Tunnel], items: &mut Vec<Item>) {
    let grid = g.maze.grid();
    let sol = &g.solution;
    let mut buf = Vec::new();
    let width = (0.15 * lay.scale)
        .clamp(0.25, 1.2)
        .min(0.5 * lay.corridor_mm.max(0.2));
    // below this cell size a curve and a straight chamfer look the same; chamfers are smaller
    let curves = lay.scale >= CURVE_MIN_SCALE;
    let mut vias = Vec::with_capacity(sol.len() * 2 + 2);
    let opening = |e: crate::endpoints::Endpoint, buf: &mut Vec<Side>| {
        buf.clear();
        grid.sides(e.cell, buf);
        buf.get(e.side).map(side_mid)
    };
    if let Some(p) = opening(g.entrance, &mut buf) {
        vias.push(Via::On(p));
    }
    for (i, &c) in sol.iter().enumerate() {
        vias.push(Via::Control(grid.center(c)));
        let Some(&next) = sol.get(i + 1) else { break };
        if let Some(s) = shared_side(grid, c, next, &mut buf) {
            vias.push(Via::On(side_mid(&s)));
            continue;
        }
        let (lo, hi) = (c.min(next), c.max(next));
        let tunnel = tunnels.iter().find(|t| t.from == lo && t.to == hi);
        match tunnel.and_then(|t| {
            let a = shared_side(grid, c, t.under, &mut buf)?;
            let b = shared_side(grid, t.under, next, &mut buf)?;
            Some((side_mid(&a), grid.center(t.under), side_mid(&b)))
        }) {
            Some((a, u, b)) => {
                vias.push(Via::On(a));
                vias.push(Via::Under(u));
                vias.push(Via::On(b));
            }
            None => {
                // no geometry for this step: go straight between the centres
                let (p, q) = (grid.center(c), grid.center(next));
                vias.push(Via::On(Point::new((p.x + q.x) / 2.0, (p.y + q.y) / 2.0)));
            }
        }
    }
    if let Some(p) = opening(g.exit, &mut buf) {
        vias.push(Via::On(p));
    }
    // curves: each control point turns the line smoothly from one side midpoint to the next
    let mut b = PathBuilder::default();
    let cut = CROSSING_HALF * lay.scale + lay.wall_mm / 2.0 + width / 2.0 + 0.6;
    let mut prev: Option<Point> = None;
    let mut pending: Option<Via> = None;
    for v in vias {
        match v {
            Via::On(p) => {
                match (prev, pending.take()) {
                    (None, _) => b.move_to(lay.to_page(p)),
                    (Some(_), None) => b.line_to(lay.to_page(p)),
                    (Some(a), Some(Via::Control(c))) => {
                        let (ax, ay) = (c.x - a.x, c.y - a.y);
                        let (bx, by) = (p.x - c.x, p.y - c.y);
                        if !curves
                            || (ax * by - ay * bx).abs() <= 1e-9 * (ax.hypot(ay) * bx.hypot(by))
                        {
                            b.line_to(lay.to_page(p));
                        } else {
                            b.quad_to(lay.to_page(c), lay.to_page(p));
                        }
                    }
                    (Some(a), Some(Via::Under(u))) => {
                        let (pa, pu, pp) = (lay.to_page(a), lay.to_page(u), lay.to_page(p));
                        let d = unit(pp.x - pa.x, pp.y - pa.y);
                        b.line_to(pu.add(d, -cut));
                        b.move_to(pu.add(d, cut));
                        b.line_to(pp);
                    }
                    (Some(_), Some(Via::On(_))) => unreachable!("never pending"),
                }
                prev = Some(p);
            }
            other => pending = Some(other),
        }
    }
    push_solution(items, b.finish(), width, lay);
}

/// The answer line `path` (`width` mm, the solution colour) and the "ANSWER KEY" line at the
/// foot of the key page, on the right.
pub(crate) fn push_solution(items: &mut Vec<Item>, path: Path, width: f64, lay: &Layout) {
    items.push(Item {
        layer: Layer::Solution,
        shape: Shape::Stroke {
            path,
            width,
            color: Rgb::SOLUTION,
        },
    });
    let pa = &lay.printable;
    items.push(Item {
        layer: Layer::Solution,
        shape: Shape::Text(Text {
            text: ANSWER_KEY.into(),
            at: Pos::new(pa.x + pa.w, pa.y + pa.h - font::DESCENT_EM * FOOTER_SIZE),
            size: FOOTER_SIZE,
            anchor: Anchor::End,
            bold: true,
            face: lay.face,
            color: Rgb::SOLUTION,
        }),
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::design::Design;
    use crate::pipeline::generate;

    fn maze(w: u32, h: u32, seed: u64) -> Generated {
        generate(
            &Design {
                width: w,
                height: h,
                seed: Some(seed),
                ..Design::default()
            },
            None,
        )
        .unwrap()
    }

    #[test]
    fn a_perfect_rect_maze_has_few_wall_strokes() {
        let g = maze(50, 50, 7);
        let d = puzzle_page(&g, &PageSetup::default()).unwrap();
        let n = d.wall_strokes();
        assert!(n < 100, "{n} wall strokes");
    }

    #[test]
    fn key_is_puzzle_plus_solution() {
        let g = maze(12, 9, 3);
        let s = PageSetup {
            title: Some("Test".into()),
            name_line: true,
            page_number: Some(5),
            ..PageSetup::default()
        };
        let p = puzzle_page(&g, &s).unwrap();
        let k = key_page(&g, &s).unwrap();
        let rest: Vec<&Item> = k
            .items
            .iter()
            .filter(|i| i.layer != Layer::Solution)
            .collect();
        assert_eq!(rest, p.items.iter().collect::<Vec<_>>());
        assert!(k.layer(Layer::Solution).count() >= 2);
        let texts: Vec<&str> = p.texts().map(|t| t.text.as_str()).collect();
        for want in ["Test", "Name:", "5", "START", "FINISH"] {
            assert!(texts.contains(&want), "{want} missing from {texts:?}");
        }
    }

    #[test]
    fn the_maze_is_centred_and_fits() {
        let g = maze(30, 20, 1);
        let s = PageSetup::default();
        let l = layout(&g, &s).unwrap();
        let mb = l.maze_box;
        let ma = l.maze_area;
        assert!(mb.x >= ma.x - 1e-9 && mb.x + mb.w <= ma.x + ma.w + 1e-9);
        assert!(mb.y >= ma.y - 1e-9 && mb.y + mb.h <= ma.y + ma.h + 1e-9);
        let (cx, cy) = (mb.x + mb.w / 2.0, mb.y + mb.h / 2.0);
        assert!((cx - (ma.x + ma.w / 2.0)).abs() < 1e-6);
        assert!((cy - (ma.y + ma.h / 2.0)).abs() < 1e-6);
        assert!(l.warnings().is_empty(), "{:?}", l.warnings());
    }

    #[test]
    fn narrow_corridors_warn() {
        let g = maze(150, 150, 1);
        let l = layout(&g, &PageSetup::default()).unwrap();
        let w = l.warnings();
        assert!(w.iter().any(|m| m.contains("under 3.0 mm")), "{w:?}");
    }

    #[test]
    fn labels_stay_off_the_maze() {
        for seed in 0..6 {
            let g = maze(15, 10, seed);
            let d = puzzle_page(&g, &PageSetup::default()).unwrap();
            let l = layout(&g, &PageSetup::default()).unwrap();
            for t in d.layer(Layer::Markers).filter_map(|i| match &i.shape {
                Shape::Text(t) => Some(t),
                _ => None,
            }) {
                let bx = Area {
                    x: t.left(),
                    y: t.at.y - CAP_HEIGHT_EM * t.size,
                    w: t.width(),
                    h: CAP_HEIGHT_EM * t.size,
                };
                assert!(!bx.overlaps(&l.maze_box), "{} overlaps the maze", t.text);
            }
        }
    }

    #[test]
    fn pages_match_the_pages_made_one_by_one() {
        let g = maze(14, 11, 8);
        let s = PageSetup {
            gutter_mm: 12.0,
            page_number: Some(3),
            title: Some("T".into()),
            ..PageSetup::default()
        };
        let both = pages(&g, &s, &s.next_page()).unwrap();
        assert_eq!(both.puzzle, puzzle_page(&g, &s).unwrap());
        let key = key_page(&g, &s.next_page()).unwrap();
        assert_eq!(both.key.items.len(), key.items.len());
        let coords = |i: &Item| -> Vec<f64> {
            match &i.shape {
                Shape::Stroke { path, .. }
                | Shape::Fill { path, .. }
                | Shape::Tint { path, .. } => path
                    .segs
                    .iter()
                    .flat_map(|s| match *s {
                        Seg::MoveTo(a) | Seg::LineTo(a) => vec![a.x, a.y],
                        Seg::CubicTo(a, b, c) => vec![a.x, a.y, b.x, b.y, c.x, c.y],
                        Seg::Close => vec![],
                    })
                    .collect(),
                Shape::Text(t) => vec![t.at.x, t.at.y],
            }
        };
        for (a, b) in both.key.items.iter().zip(&key.items) {
            // moved rather than redrawn: equal up to rounding
            assert_eq!(a.layer, b.layer);
            let (ca, cb) = (coords(a), coords(b));
            assert_eq!(ca.len(), cb.len());
            assert!(ca.iter().zip(&cb).all(|(x, y)| (x - y).abs() < 1e-9));
        }
    }

    #[test]
    fn gutter_moves_with_the_page() {
        let g = maze(10, 10, 2);
        let s = PageSetup {
            gutter_mm: 20.0,
            page_number: Some(1),
            ..PageSetup::default()
        };
        let odd = layout(&g, &s).unwrap();
        let even = layout(&g, &s.next_page()).unwrap();
        assert!(odd.printable.x > even.printable.x + 19.0);
    }
}
