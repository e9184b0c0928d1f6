//! The display list: the types a page is drawn as, in millimetres with the origin at the
//! top-left corner and y pointing down. A [`Drawing`] is a page size and a list of [`Item`]s,
//! each a [`Shape`] (a stroked or filled [`Path`], a [`Text`], or an editor-only tint) tagged
//! with its [`Layer`]. [`PathBuilder`] builds paths, merging straight runs into single lines.

use std::sync::Arc;

use crate::page::Typeface;

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

    pub(super) fn add(self, v: (f64, f64), k: f64) -> Pos {
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
    /// The answer line in a black-and-white interior: a mid grey, apart from the black walls.
    pub const SOLUTION_GREY: Rgb = Rgb(128, 128, 128);
    /// A thin part of the shape drawn as picture, not maze
    /// ([`crate::outline::Outline::picture`]): light enough to colour over, dark enough to read
    /// as no way in.
    pub const PICTURE: Rgb = Rgb(215, 215, 215);

    /// Whether the colour is a grey (its three channels equal): printed in DeviceGray.
    pub fn is_grey(self) -> bool {
        self.0 == self.1 && self.1 == self.2
    }

    /// The grey of the same lightness (luma, ITU-R BT.601 weights, rounded).
    pub fn grey(self) -> Rgb {
        let y = (299 * u32::from(self.0) + 587 * u32::from(self.1) + 114 * u32::from(self.2) + 500)
            / 1000;
        let y = y.min(255) as u8;
        Rgb(y, y, y)
    }

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
///
/// Stored compactly, as one byte a step and single-precision points (a straight step is
/// 9 bytes, where a [`Seg`] is 56: a 3000 x 3000 hex maze's 18 million wall steps are 160 MB,
/// not 1 GB); single precision keeps a point on a 1.2 m page within 0.0001 mm, far inside the
/// 0.01 pt the PDF writes. The steps are shared, never copied, when an item is cloned: a
/// puzzle page and its answer key hold the maze's walls once. [`Path::segs`] gives the steps.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Path {
    verbs: Arc<[Verb]>,
    points: Arc<[[f32; 2]]>,
}

/// What a step of a [`Path`] is; its points follow in order (0, 1 or 3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Verb {
    Move,
    Line,
    Cubic,
    Close,
}

impl From<Vec<Seg>> for Path {
    fn from(segs: Vec<Seg>) -> Path {
        segs.into_iter().collect()
    }
}

impl FromIterator<Seg> for Path {
    fn from_iter<I: IntoIterator<Item = Seg>>(segs: I) -> Path {
        let f = |p: Pos| [p.x as f32, p.y as f32];
        let (mut verbs, mut points) = (Vec::new(), Vec::new());
        for s in segs {
            match s {
                Seg::MoveTo(a) => {
                    verbs.push(Verb::Move);
                    points.push(f(a));
                }
                Seg::LineTo(a) => {
                    verbs.push(Verb::Line);
                    points.push(f(a));
                }
                Seg::CubicTo(a, b, c) => {
                    verbs.push(Verb::Cubic);
                    points.extend([f(a), f(b), f(c)]);
                }
                Seg::Close => verbs.push(Verb::Close),
            }
        }
        Path {
            verbs: verbs.into(),
            points: points.into(),
        }
    }
}

impl Path {
    /// The steps, in order; every subpath starts with [`Seg::MoveTo`].
    pub fn segs(&self) -> impl Iterator<Item = Seg> + '_ {
        let p = |i: usize| {
            let [x, y] = self.points[i];
            Pos::new(f64::from(x), f64::from(y))
        };
        let mut at = 0;
        self.verbs.iter().map(move |v| match v {
            Verb::Move => {
                at += 1;
                Seg::MoveTo(p(at - 1))
            }
            Verb::Line => {
                at += 1;
                Seg::LineTo(p(at - 1))
            }
            Verb::Cubic => {
                at += 3;
                Seg::CubicTo(p(at - 3), p(at - 2), p(at - 1))
            }
            Verb::Close => Seg::Close,
        })
    }

    /// How many steps the path has.
    pub fn len(&self) -> usize {
        self.verbs.len()
    }

    /// Whether the path has no steps.
    pub fn is_empty(&self) -> bool {
        self.verbs.is_empty()
    }

    /// How many subpaths the path has.
    pub fn subpaths(&self) -> usize {
        self.verbs.iter().filter(|&&v| v == Verb::Move).count()
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
        Path::from(segs)
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
pub(super) struct PathBuilder {
    pub(super) segs: Vec<Seg>,
    /// The current point and the point before it (when the last step was a line).
    pub(super) current: Option<Pos>,
    before: Option<Pos>,
}

impl PathBuilder {
    pub(super) fn move_to(&mut self, p: Pos) {
        self.segs.push(Seg::MoveTo(p));
        self.current = Some(p);
        self.before = None;
    }

    pub(super) fn line_to(&mut self, q: Pos) {
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

    pub(super) fn cubic_to(&mut self, c1: Pos, c2: Pos, p: Pos) {
        self.segs.push(Seg::CubicTo(c1, c2, p));
        self.before = None;
        self.current = Some(p);
    }

    /// A quadratic Bézier, stored as the equivalent cubic.
    pub(super) fn quad_to(&mut self, c: Pos, p: Pos) {
        let Some(p0) = self.current else {
            self.move_to(p);
            return;
        };
        let k = 2.0 / 3.0;
        let c1 = Pos::new(p0.x + k * (c.x - p0.x), p0.y + k * (c.y - p0.y));
        let c2 = Pos::new(p.x + k * (c.x - p.x), p.y + k * (c.y - p.y));
        self.cubic_to(c1, c2, p);
    }

    pub(super) fn finish(self) -> Path {
        Path::from(self.segs)
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

/// A line of text in one of the bundled typefaces (see [`super::font`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Text {
    /// The text, control characters removed (see [`printable`](super::printable)). A
    /// character no bundled font has stays here but is not drawn and takes no room (see
    /// [`glyph_warnings`](super::glyph_warnings)).
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
    /// Which way the text reads, turned about `at`: across (not turned), down (a book's
    /// spine, as it stands on a shelf) or up (a turned page's text: [`Drawing::turned`]).
    pub rotated: Rotation,
}

/// Which way a [`Text`] reads on the page: turned about its anchor by a number of quarter
/// turns.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Rotation {
    /// Not turned: left to right.
    #[default]
    Across,
    /// A quarter turn clockwise: from the top of the page down, the letters' tops to the
    /// right (a book's spine).
    Down,
    /// A half turn: right to left, upside down.
    UpsideDown,
    /// A quarter turn anticlockwise: from the bottom of the page up, the letters' tops to the
    /// left (a landscape page printed in a portrait book, read with the book turned).
    Up,
}

impl Rotation {
    /// Whether the text is turned at all.
    pub fn is_turned(self) -> bool {
        self != Rotation::Across
    }

    /// The turn in degrees, clockwise on the page (y down): 0, 90, 180 or 270.
    pub fn degrees(self) -> f64 {
        match self {
            Rotation::Across => 0.0,
            Rotation::Down => 90.0,
            Rotation::UpsideDown => 180.0,
            Rotation::Up => 270.0,
        }
    }

    /// The unit vector the text runs along, on the page (y down).
    pub fn along(self) -> (f64, f64) {
        match self {
            Rotation::Across => (1.0, 0.0),
            Rotation::Down => (0.0, 1.0),
            Rotation::UpsideDown => (-1.0, 0.0),
            Rotation::Up => (0.0, -1.0),
        }
    }

    /// This rotation turned a further quarter turn anticlockwise.
    fn anticlockwise(self) -> Rotation {
        match self {
            Rotation::Across => Rotation::Up,
            Rotation::Up => Rotation::UpsideDown,
            Rotation::UpsideDown => Rotation::Down,
            Rotation::Down => Rotation::Across,
        }
    }

    /// This rotation turned a further quarter turn clockwise.
    fn clockwise(self) -> Rotation {
        match self {
            Rotation::Across => Rotation::Down,
            Rotation::Down => Rotation::UpsideDown,
            Rotation::UpsideDown => Rotation::Up,
            Rotation::Up => Rotation::Across,
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
    /// A raster picture (a cover's own artwork or logo given as PNG or JPEG) stretched over
    /// the box `area`; back ends embed its pixels once per document.
    Image {
        /// Where it prints, millimetres.
        area: Area,
        /// The pixels.
        image: std::sync::Arc<crate::picture::Raster>,
    },
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
    /// The answer key's shading of a picture maze's path, under the walls (SVG group
    /// `reveal`; [`crate::reveal`]).
    Reveal,
    /// The maze walls.
    Walls,
    /// The shape's thin parts, drawn as picture beside the maze and closed off from it
    /// ([`crate::outline::Outline::picture`]; SVG group `picture`).
    Picture,
    /// Weave crossings drawn over the walls.
    Crossings,
    /// The pictures of a "collect the items" maze (SVG group `items`; [`crate::items`]).
    Items,
    /// Entrance and exit arrows and labels.
    Markers,
    /// A theme's picture at the entrance (SVG group `start-picture`).
    StartPicture,
    /// A theme's picture at the exit (SVG group `finish-picture`).
    FinishPicture,
    /// A theme's instruction line at the top of the page (SVG group `instruction`).
    Instruction,
    /// Title, name line, page number.
    Text,
    /// The answer key's line and label.
    Solution,
    /// What the editor shows on the page but never prints (see [`overlay`](super::overlay)): the weave
    /// crossing tint, the mask and its necks, the trim line. Every exporter skips it.
    Overlay,
}

impl Layer {
    /// The layer's name (the SVG group id).
    pub fn name(self) -> &'static str {
        match self {
            Layer::Page => "page",
            Layer::Reveal => "reveal",
            Layer::Walls => "walls",
            Layer::Picture => "picture",
            Layer::Crossings => "crossings",
            Layer::Items => "items",
            Layer::Markers => "markers",
            Layer::StartPicture => "start-picture",
            Layer::FinishPicture => "finish-picture",
            Layer::Instruction => "instruction",
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
        self.mapped(&|p: Pos| Pos::new(p.x * s + dx, p.y * s + dy), s, None)
    }

    /// The item with every point moved by `mv` (a similarity scaling lengths by `s`), and its
    /// text turned by `turn` when given.
    fn mapped(
        &self,
        mv: &dyn Fn(Pos) -> Pos,
        s: f64,
        turn: Option<fn(Rotation) -> Rotation>,
    ) -> Item {
        let path = |p: &Path| -> Path {
            p.segs()
                .map(|seg| match seg {
                    Seg::MoveTo(a) => Seg::MoveTo(mv(a)),
                    Seg::LineTo(a) => Seg::LineTo(mv(a)),
                    Seg::CubicTo(a, b, c) => Seg::CubicTo(mv(a), mv(b), mv(c)),
                    Seg::Close => Seg::Close,
                })
                .collect()
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
                rotated: turn.map_or(t.rotated, |f| f(t.rotated)),
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
            // the box's corners moved (a picture is never turned: it prints upright)
            Shape::Image { area, image } => {
                let (a, b) = (
                    mv(Pos::new(area.x, area.y)),
                    mv(Pos::new(area.x + area.w, area.y + area.h)),
                );
                Shape::Image {
                    area: Area {
                        x: a.x.min(b.x),
                        y: a.y.min(b.y),
                        w: (a.x - b.x).abs(),
                        h: (a.y - b.y).abs(),
                    },
                    image: image.clone(),
                }
            }
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
    pub(super) fn overlaps(&self, o: &Area) -> bool {
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
    /// The page with its text alone (its size, trim and text items, and its raster pictures,
    /// shared): all a PDF's fonts, text and image resources need
    /// ([`crate::export::pdf::prepare`]), a small part of a big maze's page.
    pub fn text_only(&self) -> Drawing {
        Drawing {
            width: self.width,
            height: self.height,
            trim: self.trim,
            items: self
                .items
                .iter()
                .filter(|i| matches!(i.shape, Shape::Text(_) | Shape::Image { .. }))
                .cloned()
                .collect(),
        }
    }

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

    /// The page in black and grey only (a black-and-white interior): every colour becomes the
    /// grey of its lightness, and the answer key's red line (and its ring round the winning
    /// start) [`Rgb::SOLUTION_GREY`], a mid grey that stands apart from the black walls. The
    /// editor's overlays are left as they are (they never print).
    pub fn to_grey(&mut self) {
        for item in &mut self.items {
            let solution = item.layer == Layer::Solution;
            let grey = |c: &mut Rgb| {
                *c = if solution && *c == Rgb::SOLUTION {
                    Rgb::SOLUTION_GREY
                } else {
                    c.grey()
                }
            };
            match &mut item.shape {
                Shape::Stroke { color, .. } | Shape::Fill { color, .. } => grey(color),
                Shape::Text(t) => grey(&mut t.color),
                Shape::Image { image, .. } => {
                    let mut rgba = image.rgba.clone();
                    for p in rgba.chunks_exact_mut(4) {
                        let Rgb(y, _, _) = Rgb(p[0], p[1], p[2]).grey();
                        p[..3].fill(y);
                    }
                    if let Ok(r) = crate::picture::Raster::new(image.width, image.height, rgba) {
                        *image = std::sync::Arc::new(r);
                    }
                }
                Shape::Tint { .. } => {}
            }
        }
    }

    /// The page turned a quarter turn anticlockwise: what was drawn across a landscape page
    /// now stands on a portrait one (or the other way round), its text reading from the
    /// bottom of the page up, as a landscape puzzle is printed in a portrait book
    /// ([`crate::page::PageSetup::turned`]). Point `(x, y)` goes to `(y, width - x)`; the page's
    /// width and height swap.
    pub fn turned(&self) -> Drawing {
        let w = self.width;
        let mv = move |p: Pos| Pos::new(p.y, w - p.x);
        let t = self.trim;
        Drawing {
            width: self.height,
            height: self.width,
            trim: Area {
                x: t.y,
                y: w - t.x - t.w,
                w: t.h,
                h: t.w,
            },
            items: self
                .items
                .iter()
                .map(|i| i.mapped(&mv, 1.0, Some(Rotation::anticlockwise)))
                .collect(),
        }
    }

    /// The page turned a quarter turn clockwise: [`Drawing::turned`] undone (a turned page's
    /// content as it was drawn, for a cover's card). Point `(x, y)` goes to
    /// `(height - y, x)`.
    pub fn turned_back(&self) -> Drawing {
        let h = self.height;
        let mv = move |p: Pos| Pos::new(h - p.y, p.x);
        let t = self.trim;
        Drawing {
            width: self.height,
            height: self.width,
            trim: Area {
                x: h - t.y - t.h,
                y: t.x,
                w: t.h,
                h: t.w,
            },
            items: self
                .items
                .iter()
                .map(|i| i.mapped(&mv, 1.0, Some(Rotation::clockwise)))
                .collect(),
        }
    }

    /// Every text on the page.
    pub fn texts(&self) -> impl Iterator<Item = &Text> {
        self.items.iter().filter_map(|i| match &i.shape {
            Shape::Text(t) => Some(t),
            _ => None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_page_turned_and_turned_back_is_the_page() {
        let d = Drawing {
            width: 200.0,
            height: 100.0,
            trim: Area {
                x: 3.0,
                y: 0.0,
                w: 194.0,
                h: 97.0,
            },
            items: vec![
                Item {
                    layer: Layer::Walls,
                    shape: Shape::Stroke {
                        path: Path::polyline(&[Pos::new(10.0, 20.0), Pos::new(150.0, 20.0)]),
                        width: 0.5,
                        color: Rgb::BLACK,
                    },
                },
                Item {
                    layer: Layer::Text,
                    shape: Shape::Text(Text {
                        text: "Puzzle 1".into(),
                        at: Pos::new(100.0, 10.0),
                        size: 6.0,
                        anchor: Anchor::Middle,
                        bold: true,
                        face: crate::page::Typeface::Sans,
                        color: Rgb::BLACK,
                        rotated: Rotation::Across,
                    }),
                },
            ],
        };
        let t = d.turned();
        assert_eq!((t.width, t.height), (100.0, 200.0));
        // the trim's top (no bleed) is the sheet's left edge; its left the sheet's foot
        assert_eq!(
            t.trim,
            Area {
                x: 0.0,
                y: 3.0,
                w: 97.0,
                h: 194.0
            }
        );
        // a line across the page runs up the sheet; the text reads up
        let Shape::Stroke { path, .. } = &t.items[0].shape else {
            panic!()
        };
        let pts: Vec<Seg> = path.segs().collect();
        assert_eq!(
            pts,
            [
                Seg::MoveTo(Pos::new(20.0, 190.0)),
                Seg::LineTo(Pos::new(20.0, 50.0))
            ]
        );
        let Shape::Text(text) = &t.items[1].shape else {
            panic!()
        };
        assert_eq!(
            (text.at, text.rotated),
            (Pos::new(10.0, 100.0), Rotation::Up)
        );
        assert_eq!(t.turned_back(), d);
        // four turns are no turn
        assert_eq!(t.turned().turned().turned(), d);
    }
}
