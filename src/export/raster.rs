//! The one rasteriser: a [`Drawing`] (or any run of its items) into pixels with tiny-skia,
//! anti-aliased on white paper. The PNG export draws a whole page with it; the editor's preview
//! draws the part of the page on screen at the current zoom with it, so what the editor shows
//! is what the PNG holds, pixel for pixel. Text is drawn from the same font outlines the layout
//! measured with, so labels sit exactly where the PDF puts them.

use tiny_skia::{FillRule, LineCap, LineJoin, Paint, PathBuilder, Pixmap, Stroke, Transform};

use crate::draw::{Drawing, Item, Path, Rgb, Seg, Shape, Text, font};
use crate::error::{Error, Result};

/// The most pixels one raster may have (about an A4 page at 1200 dpi).
pub const MAX_PIXELS: u64 = 150_000_000;

/// A window onto a page in pixels: `scale` pixels per millimetre, and the pixel rectangle
/// (`x`, `y`, `width`, `height`) of the page at that scale that is drawn (the page's top-left
/// corner is pixel (0, 0)).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Region {
    /// Pixels per millimetre.
    pub scale: f64,
    /// The left column drawn.
    pub x: i64,
    /// The top row drawn.
    pub y: i64,
    /// Columns drawn.
    pub width: u32,
    /// Rows drawn.
    pub height: u32,
}

impl Region {
    /// The whole page `d` at `scale` pixels per millimetre (its size rounded to whole pixels).
    pub fn page(d: &Drawing, scale: f64) -> Region {
        let (width, height) = page_pixels(d, scale);
        Region {
            scale,
            x: 0,
            y: 0,
            width,
            height,
        }
    }

    /// How many pixels the region has.
    pub fn pixels(&self) -> u64 {
        u64::from(self.width) * u64::from(self.height)
    }
}

/// The pixel size of the page `d` at `scale` pixels per millimetre.
pub fn page_pixels(d: &Drawing, scale: f64) -> (u32, u32) {
    (
        (d.width * scale).round().clamp(1.0, f64::from(u32::MAX)) as u32,
        (d.height * scale).round().clamp(1.0, f64::from(u32::MAX)) as u32,
    )
}

/// Draws `items` (page millimetres) into the pixels of `region`, on white. Fails only when the
/// region is empty or over [`MAX_PIXELS`].
pub fn rasterise<'a>(items: impl IntoIterator<Item = &'a Item>, region: &Region) -> Result<Pixmap> {
    let (w, h) = (region.width, region.height);
    if region.pixels() > MAX_PIXELS {
        return Err(Error::option(format!(
            "a {w} x {h} pixel image is too large; use a lower resolution"
        )));
    }
    let mut pix = Pixmap::new(w, h)
        .ok_or_else(|| Error::option(format!("cannot make a {w} x {h} pixel image")))?;
    pix.fill(tiny_skia::Color::WHITE);
    let k = region.scale as f32;
    let tf = Transform::from_row(k, 0.0, 0.0, k, -region.x as f32, -region.y as f32);
    for item in items {
        draw_item(&mut pix, item, tf);
    }
    Ok(pix)
}

fn draw_item(pix: &mut Pixmap, item: &Item, tf: Transform) {
    match &item.shape {
        Shape::Stroke { path, width, color } => {
            if let Some(p) = sk_path(path) {
                let stroke = Stroke {
                    width: *width as f32,
                    line_cap: LineCap::Round,
                    line_join: LineJoin::Round,
                    ..Stroke::default()
                };
                pix.stroke_path(&p, &paint(*color, 255), &stroke, tf, None);
            }
        }
        Shape::Fill { path, color } => {
            if let Some(p) = sk_path(path) {
                pix.fill_path(&p, &paint(*color, 255), FillRule::Winding, tf, None);
            }
        }
        Shape::Tint { path, color, alpha } => {
            if let Some(p) = sk_path(path) {
                pix.fill_path(&p, &paint(*color, *alpha), FillRule::Winding, tf, None);
            }
        }
        Shape::Text(t) => {
            if let Some(p) = text_path(t) {
                pix.fill_path(&p, &paint(t.color, 255), FillRule::Winding, tf, None);
            }
        }
    }
}

fn sk_path(p: &Path) -> Option<tiny_skia::Path> {
    let mut b = PathBuilder::with_capacity(p.segs.len(), p.segs.len() * 3);
    for s in &p.segs {
        match *s {
            Seg::MoveTo(a) => b.move_to(a.x as f32, a.y as f32),
            Seg::LineTo(a) => b.line_to(a.x as f32, a.y as f32),
            Seg::CubicTo(c1, c2, a) => b.cubic_to(
                c1.x as f32,
                c1.y as f32,
                c2.x as f32,
                c2.y as f32,
                a.x as f32,
                a.y as f32,
            ),
            Seg::Close => b.close(),
        }
    }
    b.finish()
}

fn paint(c: Rgb, alpha: u8) -> Paint<'static> {
    let mut p = Paint::default();
    p.set_color_rgba8(c.0, c.1, c.2, alpha);
    p.anti_alias = true;
    p
}

/// Glyph outlines into a tiny-skia path, in millimetres.
struct Outline<'a> {
    b: &'a mut PathBuilder,
    x: f64,
    y: f64,
    k: f64,
}

impl ttf_parser::OutlineBuilder for Outline<'_> {
    fn move_to(&mut self, x: f32, y: f32) {
        let (px, py) = self.map(x, y);
        self.b.move_to(px, py);
    }
    fn line_to(&mut self, x: f32, y: f32) {
        let (px, py) = self.map(x, y);
        self.b.line_to(px, py);
    }
    fn quad_to(&mut self, x1: f32, y1: f32, x: f32, y: f32) {
        let (ax, ay) = self.map(x1, y1);
        let (px, py) = self.map(x, y);
        self.b.quad_to(ax, ay, px, py);
    }
    fn curve_to(&mut self, x1: f32, y1: f32, x2: f32, y2: f32, x: f32, y: f32) {
        let (ax, ay) = self.map(x1, y1);
        let (bx, by) = self.map(x2, y2);
        let (px, py) = self.map(x, y);
        self.b.cubic_to(ax, ay, bx, by, px, py);
    }
    fn close(&mut self) {
        self.b.close();
    }
}

impl Outline<'_> {
    fn map(&self, x: f32, y: f32) -> (f32, f32) {
        (
            (self.x + f64::from(x) * self.k) as f32,
            (self.y - f64::from(y) * self.k) as f32,
        )
    }
}

fn text_path(t: &Text) -> Option<tiny_skia::Path> {
    let f = font(t.face, t.bold);
    let face = f.face()?;
    let k = t.size / f.units_per_em();
    let mut b = PathBuilder::new();
    let mut x = t.left();
    for c in t.text.chars() {
        // spaces have no outline; anything else missing shows as '?'
        let gid = if c.is_whitespace() {
            None
        } else {
            face.glyph_index(c).or_else(|| face.glyph_index('?'))
        };
        if let Some(gid) = gid {
            let mut o = Outline {
                b: &mut b,
                x,
                y: t.at.y,
                k,
            };
            face.outline_glyph(gid, &mut o);
        }
        x += f.advance_em(c) * t.size;
    }
    b.finish()
}
