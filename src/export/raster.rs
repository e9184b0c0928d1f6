//! The one rasteriser: a [`Drawing`] (or any run of its items) into pixels with tiny-skia,
//! anti-aliased on white paper. The PNG export draws a whole page with it; the editor's preview
//! draws the part of the page on screen at the current zoom with it, so what the editor shows
//! is what the PNG holds, pixel for pixel. Text is drawn from the same font outlines the layout
//! measured with, so labels sit exactly where the PDF puts them.

use rayon::prelude::*;
use tiny_skia::{
    FillRule, LineCap, LineJoin, Paint, PathBuilder, Pixmap, PixmapMut, Stroke, Transform,
};

use crate::draw::{Drawing, Item, Path, Rgb, Seg, Shape, Text, place};
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

/// Bands a raster of at least [`BAND_MIN_ROWS`] rows is cut into, drawn in parallel. The
/// count is fixed (never the thread count), so the pixels are the same on every machine.
pub const BANDS: u32 = 4;
/// The fewest rows for which a raster is drawn in bands.
pub const BAND_MIN_ROWS: u32 = 256;
/// How far (in pixels) a curve may stray from the lines it is drawn with.
pub const FLATNESS: f32 = 0.1;

/// One item, ready to paint in page pixels: lines only (curves flattened to [`FLATNESS`],
/// thick strokes outlined), so cutting the page into bands or regions moves no edge.
enum Ready {
    /// Fill the path (non-zero).
    Fill(tiny_skia::Path, Paint<'static>),
    /// Stroke the path as a hairline (under a pixel wide), as tiny-skia draws thin strokes.
    Hairline(tiny_skia::Path, Paint<'static>, Stroke),
    /// Paint the picture (premultiplied) over the rectangle (page pixels), filtered.
    Image(Pixmap, tiny_skia::Rect),
}

/// How many lines draw a curve whose control polygon bends by `bend` pixels (the largest
/// second difference of its points), within [`FLATNESS`].
fn pieces(bend: f32, k: f32) -> u32 {
    ((k * bend / FLATNESS).sqrt().ceil() as u32).clamp(1, 256)
}

/// `p` with every curve replaced by lines.
fn flatten(p: &tiny_skia::Path) -> Option<tiny_skia::Path> {
    use tiny_skia::PathSegment as S;
    let mut b = PathBuilder::with_capacity(p.len(), p.len());
    let mut last = tiny_skia::Point::zero();
    let second = |a: tiny_skia::Point, m: tiny_skia::Point, c: tiny_skia::Point| {
        (a.x - 2.0 * m.x + c.x).hypot(a.y - 2.0 * m.y + c.y)
    };
    for seg in p.segments() {
        match seg {
            S::MoveTo(a) => {
                b.move_to(a.x, a.y);
                last = a;
            }
            S::LineTo(a) => {
                b.line_to(a.x, a.y);
                last = a;
            }
            S::QuadTo(c, a) => {
                let n = pieces(second(last, c, a), 0.25);
                for i in 1..=n {
                    let t = i as f32 / n as f32;
                    let u = 1.0 - t;
                    b.line_to(
                        u * u * last.x + 2.0 * u * t * c.x + t * t * a.x,
                        u * u * last.y + 2.0 * u * t * c.y + t * t * a.y,
                    );
                }
                last = a;
            }
            S::CubicTo(c1, c2, a) => {
                let bend = second(last, c1, c2).max(second(c1, c2, a));
                let n = pieces(bend, 0.75);
                for i in 1..=n {
                    let t = i as f32 / n as f32;
                    let u = 1.0 - t;
                    let w = [u * u * u, 3.0 * u * u * t, 3.0 * u * t * t, t * t * t];
                    b.line_to(
                        w[0] * last.x + w[1] * c1.x + w[2] * c2.x + w[3] * a.x,
                        w[0] * last.y + w[1] * c1.y + w[2] * c2.y + w[3] * a.y,
                    );
                }
                last = a;
            }
            S::Close => b.close(),
        }
    }
    b.finish()
}

/// `item` ready to paint at `k` pixels per millimetre (page pixels, the page's corner at 0, 0).
fn ready(item: &Item, k: f32) -> Option<Ready> {
    let scale = Transform::from_scale(k, k);
    let px = |p: Option<tiny_skia::Path>| p.and_then(|p| p.transform(scale));
    Some(match &item.shape {
        Shape::Stroke { path, width, color } => {
            let p = px(sk_path(path))?;
            let stroke = Stroke {
                width: *width as f32 * k,
                line_cap: LineCap::Round,
                line_join: LineJoin::Round,
                ..Stroke::default()
            };
            // tiny-skia draws strokes up to a pixel wide as modulated hairlines
            if stroke.width <= 1.0 {
                Ready::Hairline(flatten(&p)?, paint(*color, 255), stroke)
            } else {
                Ready::Fill(flatten(&p.stroke(&stroke, 1.0)?)?, paint(*color, 255))
            }
        }
        Shape::Fill { path, color } => {
            Ready::Fill(flatten(&px(sk_path(path))?)?, paint(*color, 255))
        }
        Shape::Tint { path, color, alpha } => {
            Ready::Fill(flatten(&px(sk_path(path))?)?, paint(*color, *alpha))
        }
        Shape::Text(t) => Ready::Fill(flatten(&px(text_path(t))?)?, paint(t.color, 255)),
        Shape::Image { area, image } => {
            let rect = tiny_skia::Rect::from_xywh(
                area.x as f32 * k,
                area.y as f32 * k,
                area.w as f32 * k,
                area.h as f32 * k,
            )?;
            let mut pix = Pixmap::new(image.width, image.height)?;
            for (to, p) in pix.pixels_mut().iter_mut().zip(image.rgba.chunks_exact(4)) {
                *to = tiny_skia::ColorU8::from_rgba(p[0], p[1], p[2], p[3]).premultiply();
            }
            Ready::Image(pix, rect)
        }
    })
}

/// Draws `items` (page millimetres) into the pixels of `region`, on white. Fails only when the
/// region is empty or over [`MAX_PIXELS`]. Curves are drawn as lines within [`FLATNESS`] of a
/// pixel, so any part of a page is drawn as the whole page draws it; tall rasters are drawn in
/// [`BANDS`] bands in parallel (the same pixels on any number of threads).
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
    let items: Vec<&Item> = items.into_iter().collect();
    let ready: Vec<Ready> = items.par_iter().filter_map(|i| ready(i, k)).collect();
    let rows = if h >= BAND_MIN_ROWS {
        h.div_ceil(BANDS)
    } else {
        h
    };
    let row_bytes = w as usize * 4;
    pix.data_mut()
        .par_chunks_mut(row_bytes * rows as usize)
        .enumerate()
        .for_each(|(band, bytes)| {
            let band_rows = (bytes.len() / row_bytes) as u32;
            let Some(mut band_pix) = PixmapMut::from_bytes(bytes, w, band_rows) else {
                return;
            };
            let top = region.y + i64::from(rows) * band as i64;
            let tf = Transform::from_translate(-region.x as f32, -top as f32);
            for r in &ready {
                match r {
                    Ready::Fill(p, paint) => {
                        band_pix.fill_path(p, paint, FillRule::Winding, tf, None);
                    }
                    Ready::Hairline(p, paint, stroke) => {
                        band_pix.stroke_path(p, paint, stroke, tf, None);
                    }
                    Ready::Image(pix, rect) => {
                        let to_rect = Transform::from_row(
                            rect.width() / pix.width() as f32,
                            0.0,
                            0.0,
                            rect.height() / pix.height() as f32,
                            rect.x(),
                            rect.y(),
                        );
                        let paint = Paint {
                            shader: tiny_skia::Pattern::new(
                                pix.as_ref(),
                                tiny_skia::SpreadMode::Pad,
                                tiny_skia::FilterQuality::Bicubic,
                                1.0,
                                to_rect,
                            ),
                            anti_alias: true,
                            ..Paint::default()
                        };
                        band_pix.fill_rect(*rect, &paint, tf, None);
                    }
                }
            }
        });
    Ok(pix)
}

fn sk_path(p: &Path) -> Option<tiny_skia::Path> {
    let mut b = PathBuilder::with_capacity(p.len(), p.len() * 3);
    for s in p.segs() {
        match s {
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
    // the glyphs the layout placed, each from its own font (the fallback's for symbols the
    // typeface lacks); spaces have no outline
    let mut b = PathBuilder::new();
    let left = t.left();
    for g in place(t) {
        let Some(face) = g.font.face() else { continue };
        let mut o = Outline {
            b: &mut b,
            x: left + g.x,
            y: t.at.y - g.y,
            k: t.size / g.font.units_per_em(),
        };
        face.outline_glyph(ttf_parser::GlyphId(g.gid), &mut o);
    }
    let path = b.finish()?;
    if t.rotated.is_turned() {
        // turned about the anchor (clockwise, y pointing down)
        path.transform(Transform::from_rotate_at(
            t.rotated.degrees() as f32,
            t.at.x as f32,
            t.at.y as f32,
        ))
    } else {
        Some(path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::design::Design;
    use crate::design::{Kind, Walls};
    use crate::pipeline::generate;

    fn key_page() -> Drawing {
        let d = Design {
            kind: Kind::Walls(Walls {
                weave: 0.4,
                ..Walls::DEFAULT
            }),
            width: 14,
            height: 14,
            seed: Some(3),
            ..Design::default()
        };
        let g = generate(&d, None).unwrap();
        crate::draw::key_page(&g, &d.page).unwrap()
    }

    #[test]
    fn turned_text_is_drawn_down_the_page() {
        use crate::draw::{Anchor, Pos, Rgb, Text};
        let t = |rotated| Text {
            text: "Animal Mazes".into(),
            at: Pos::new(50.0, 20.0),
            size: 5.0,
            anchor: Anchor::Start,
            bold: false,
            face: crate::page::Typeface::Sans,
            color: Rgb::BLACK,
            rotated,
        };
        use crate::draw::Rotation;
        let flat = text_path(&t(Rotation::Across)).unwrap().bounds();
        let turned = text_path(&t(Rotation::Down)).unwrap().bounds();
        assert!(flat.width() > 3.0 * flat.height());
        assert!(turned.height() > 3.0 * turned.width());
        // from the anchor down, the letters to its right (their tops point right)
        assert!(turned.top() >= 19.0 && turned.left() >= 49.0 && turned.left() < 51.0);
        assert!((turned.height() - flat.width()).abs() < 0.01);
        // a turned page's text reads up: from the anchor up, the letters to its left
        let up = text_path(&t(Rotation::Up)).unwrap().bounds();
        assert!(up.height() > 3.0 * up.width());
        assert!(up.bottom() <= 21.0 && up.right() <= 51.0 && up.right() > 49.0);
        assert!((up.height() - flat.width()).abs() < 0.01);
    }

    #[test]
    fn symbols_the_typeface_lacks_are_drawn_from_the_fallback() {
        use crate::draw::{Anchor, Area, Layer, Pos, Text};
        let ink = |s: &str| {
            let page = Drawing {
                width: 40.0,
                height: 20.0,
                trim: Area {
                    x: 0.0,
                    y: 0.0,
                    w: 40.0,
                    h: 20.0,
                },
                items: vec![Item {
                    layer: Layer::Text,
                    shape: Shape::Text(Text {
                        rotated: crate::draw::Rotation::Across,
                        text: s.into(),
                        at: Pos::new(5.0, 12.0),
                        size: 8.0,
                        anchor: Anchor::Start,
                        bold: false,
                        face: crate::page::Typeface::Serif,
                        color: Rgb::BLACK,
                    }),
                }],
            };
            let img = rasterise(&page.items, &Region::page(&page, 8.0)).unwrap();
            img.data().chunks(4).filter(|p| p[0] < 128).count()
        };
        // DejaVu's star; a character no font has draws nothing (never a '?')
        assert!(ink("★") > 200, "{}", ink("★"));
        assert_eq!(ink("🎂"), 0);
        assert_eq!(ink("A🎂"), ink("A"));
    }

    #[test]
    fn bands_give_the_same_pixels_on_any_number_of_threads() {
        let page = key_page();
        let region = Region::page(&page, 4.0);
        assert!(region.height >= BAND_MIN_ROWS);
        let many = rasterise(&page.items, &region).unwrap();
        let one = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .unwrap()
            .install(|| rasterise(&page.items, &region).unwrap());
        assert!(many.data() == one.data());
    }

    #[test]
    fn any_part_of_a_page_is_drawn_as_the_whole_page_draws_it() {
        // bands and regions cut lines only (curves are flattened first), so a cut moves no
        // edge by more than f32 rounding where the line is cut: a few edge pixels come out up
        // to 16 levels (6 %, under a sixteenth of a pixel of edge) lighter or darker
        let page = key_page();
        let k = 4.0;
        let whole = rasterise(&page.items, &Region::page(&page, k)).unwrap();
        let w = whole.width() as usize;
        for (x, y, width, height) in [(0, 0, 700, 600), (123, 301, 500, 400), (10, 250, 800, 300)] {
            let part = Region {
                scale: k,
                x,
                y,
                width,
                height,
            };
            let img = rasterise(&page.items, &part).unwrap();
            let (mut worst, mut off) = (0u8, 0usize);
            for row in 0..height as usize {
                let a = &img.data()[row * width as usize * 4..(row + 1) * width as usize * 4];
                let at = ((row + y as usize) * w + x as usize) * 4;
                let b = &whole.data()[at..at + width as usize * 4];
                for (p, q) in a.chunks(4).zip(b.chunks(4)) {
                    let d = p.iter().zip(q).map(|(u, v)| u.abs_diff(*v)).max().unwrap();
                    worst = worst.max(d);
                    off += usize::from(d > 1);
                }
            }
            let share = off as f64 / f64::from(width * height);
            eprintln!(
                "({x}, {y}): {worst} levels, {off} pixels ({:.4} %)",
                share * 100.0
            );
            assert!(worst <= 16, "({x}, {y}): {worst} levels off");
            assert!(share < 0.001, "({x}, {y}): {off} pixels off");
        }
    }

    #[test]
    fn curves_are_drawn_within_the_flatness() {
        // a quarter circle of radius 100 px as tiny-skia's cubic, flattened: every point of
        // the lines is within FLATNESS of the circle
        let mut b = PathBuilder::new();
        let c = 0.552_284_8 * 100.0;
        b.move_to(100.0, 0.0);
        b.cubic_to(100.0, c, c, 100.0, 0.0, 100.0);
        let lines = flatten(&b.finish().unwrap()).unwrap();
        let pts: Vec<_> = lines.points().to_vec();
        assert!(pts.len() > 8);
        for w in pts.windows(2) {
            let mid = tiny_skia::Point::from_xy((w[0].x + w[1].x) / 2.0, (w[0].y + w[1].y) / 2.0);
            for p in [w[0], w[1], mid] {
                // the cubic is within 0.03 % of the circle: 0.03 px at this radius
                let off = (p.x.hypot(p.y) - 100.0).abs();
                assert!(off < FLATNESS + 0.03, "{off}");
            }
        }
    }
}
