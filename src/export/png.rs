//! PNG export: the drawing rasterised with tiny-skia at a chosen resolution (anti-aliased, white
//! paper). Text is drawn from the same Helvetica outlines the layout measured with, so labels sit
//! exactly where the PDF puts them, whatever fonts the machine has.

use tiny_skia::{FillRule, LineCap, LineJoin, Paint, PathBuilder, Pixmap, Stroke, Transform};

use crate::draw::{Drawing, Path, Rgb, Seg, Shape, Text, font};
use crate::error::{Error, Result};

/// The most pixels a PNG may have (about an A4 page at 1200 dpi).
pub const MAX_PIXELS: u64 = 150_000_000;

/// The pixel size of `d` at `dpi`.
pub fn pixel_size(d: &Drawing, dpi: u32) -> (u32, u32) {
    let k = f64::from(dpi) / 25.4;
    (
        (d.width * k).round().max(1.0) as u32,
        (d.height * k).round().max(1.0) as u32,
    )
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

fn paint(c: Rgb) -> Paint<'static> {
    let mut p = Paint::default();
    p.set_color_rgba8(c.0, c.1, c.2, 255);
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

/// Rasterises `d` at `dpi` (30 to 1200) into PNG bytes.
pub fn png(d: &Drawing, dpi: u32) -> Result<Vec<u8>> {
    super::check_dpi(dpi)?;
    let (w, h) = pixel_size(d, dpi);
    if u64::from(w) * u64::from(h) > MAX_PIXELS {
        return Err(Error::option(format!(
            "a {w} x {h} pixel image is too large; use a lower resolution"
        )));
    }
    let mut pix = Pixmap::new(w, h)
        .ok_or_else(|| Error::option(format!("cannot make a {w} x {h} pixel image")))?;
    pix.fill(tiny_skia::Color::WHITE);
    let k = f64::from(dpi) / 25.4;
    let tf = Transform::from_scale(k as f32, k as f32);
    for item in &d.items {
        match &item.shape {
            Shape::Stroke { path, width, color } => {
                if let Some(p) = sk_path(path) {
                    let stroke = Stroke {
                        width: *width as f32,
                        line_cap: LineCap::Round,
                        line_join: LineJoin::Round,
                        ..Stroke::default()
                    };
                    pix.stroke_path(&p, &paint(*color), &stroke, tf, None);
                }
            }
            Shape::Fill { path, color } => {
                if let Some(p) = sk_path(path) {
                    pix.fill_path(&p, &paint(*color), FillRule::Winding, tf, None);
                }
            }
            Shape::Text(t) => {
                if let Some(p) = text_path(t) {
                    pix.fill_path(&p, &paint(t.color), FillRule::Winding, tf, None);
                }
            }
        }
    }
    encode(&pix)
}

/// Encodes the (opaque) pixmap as an 8-bit RGB PNG.
fn encode(pix: &Pixmap) -> Result<Vec<u8>> {
    let rgb: Vec<u8> = pix
        .data()
        .chunks_exact(4)
        .flat_map(|p| [p[0], p[1], p[2]])
        .collect();
    let mut out = Vec::new();
    {
        let mut enc = ::png::Encoder::new(&mut out, pix.width(), pix.height());
        enc.set_color(::png::ColorType::Rgb);
        enc.set_depth(::png::BitDepth::Eight);
        enc.set_compression(::png::Compression::Fast);
        let mut writer = enc
            .write_header()
            .map_err(|e| Error::option(format!("cannot encode the PNG: {e}")))?;
        writer
            .write_image_data(&rgb)
            .map_err(|e| Error::option(format!("cannot encode the PNG: {e}")))?;
    }
    Ok(out)
}
