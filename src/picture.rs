//! Pictures for the page, such as a theme's start and finish pictures ([`crate::theme`]) or
//! your own: an SVG document read into solid fills and strokes, cropped to what it paints. The
//! drawing step (`draw::picture`) puts them into a box in millimetres, so every back end (SVG,
//! PDF, PNG, the preview) draws them as it draws the maze. Only solid colours are kept (a
//! gradient or pattern paints nothing), and the document is parsed under the same budget as a
//! silhouette ([`crate::shape::svg::parse`]).

use resvg::{tiny_skia, usvg};

use crate::error::{Error, Result};

/// A point of a picture, in its own units.
pub type Point = [f64; 2];

/// One step of a picture's path.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Step {
    /// Starts a subpath.
    Move(Point),
    /// A straight line.
    Line(Point),
    /// A cubic curve: two control points and the end.
    Cubic(Point, Point, Point),
    /// Closes the subpath.
    Close,
}

/// What a path is painted with: a solid fill, or a stroke of a width (picture units).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Paint {
    /// Filled (non-zero winding) in an RGB colour.
    Fill([u8; 3]),
    /// Stroked in an RGB colour, this wide.
    Stroke([u8; 3], f64),
}

/// A picture: its size and painted paths, in the picture's own units (SVG pixels), cropped to
/// what it paints (its top left corner is 0, 0).
#[derive(Clone, Debug, PartialEq)]
pub struct Picture {
    /// Width and height.
    pub size: (f64, f64),
    /// The paths in painting order.
    pub parts: Vec<(Vec<Step>, Paint)>,
}

impl Picture {
    /// Reads an SVG document.
    pub fn from_svg(bytes: &[u8]) -> Result<Picture> {
        let tree = crate::shape::svg::parse(bytes)?;
        let mut parts = Vec::new();
        group(tree.root(), &mut parts);
        // cropped to what it paints (strokes with their width), so a wide picture's box is
        // wide and it sits right against its arrow
        let (mut x0, mut y0, mut x1, mut y1) = (f64::MAX, f64::MAX, f64::MIN, f64::MIN);
        for (steps, paint) in &parts {
            let pad = match paint {
                Paint::Fill(_) => 0.0,
                Paint::Stroke(_, w) => w / 2.0,
            };
            let mut last = [0.0, 0.0];
            for s in steps {
                let pts = match *s {
                    Step::Move(p) | Step::Line(p) => vec![p],
                    Step::Cubic(a, b, c) => cubic_extremes([last, a, b, c]),
                    Step::Close => vec![],
                };
                if let Some(&p) = pts.last() {
                    last = p;
                }
                for p in pts {
                    (x0, y0) = (x0.min(p[0] - pad), y0.min(p[1] - pad));
                    (x1, y1) = (x1.max(p[0] + pad), y1.max(p[1] + pad));
                }
            }
        }
        if parts.is_empty() || !(x1 > x0 && y1 > y0) {
            return Err(Error::input("the picture draws nothing in a solid colour"));
        }
        let at = |p: Point| [p[0] - x0, p[1] - y0];
        for (steps, _) in &mut parts {
            for s in steps.iter_mut() {
                *s = match *s {
                    Step::Move(p) => Step::Move(at(p)),
                    Step::Line(p) => Step::Line(at(p)),
                    Step::Cubic(a, b, c) => Step::Cubic(at(a), at(b), at(c)),
                    Step::Close => Step::Close,
                };
            }
        }
        Ok(Picture {
            size: (x1 - x0, y1 - y0),
            parts,
        })
    }

    /// The size of the box the picture fills whose longer side is `side`.
    pub fn fitted(&self, side: f64) -> (f64, f64) {
        let s = side / self.size.0.max(self.size.1).max(1e-9);
        (self.size.0 * s, self.size.1 * s)
    }
}

/// A raster picture printed at its own resolution (a cover's artwork or logo given as PNG or
/// JPEG): straight 8-bit RGBA pixels, row by row, and a digest of them that names it in a
/// document (a PDF's image resource), so the same picture is the same bytes in every file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Raster {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// The pixels, RGBA row by row, not premultiplied.
    pub rgba: Vec<u8>,
    /// An MD5 digest of the size and pixels, as 32 hexadecimal digits.
    pub digest: String,
}

impl Raster {
    /// The picture of `width` x `height` pixels `rgba` (RGBA row by row).
    pub fn new(width: u32, height: u32, rgba: Vec<u8>) -> Result<Raster> {
        use md5::Digest as _;
        if width == 0 || height == 0 || rgba.len() != width as usize * height as usize * 4 {
            return Err(Error::input(format!(
                "{} bytes of pixels for a {width} x {height} RGBA picture",
                rgba.len()
            )));
        }
        let mut h = md5::Md5::new();
        h.update(width.to_le_bytes());
        h.update(height.to_le_bytes());
        h.update(&rgba);
        let digest = h.finalize().iter().map(|b| format!("{b:02x}")).collect();
        Ok(Raster {
            width,
            height,
            rgba,
            digest,
        })
    }

    /// Decodes a PNG, JPEG, GIF, BMP or WebP file at its own resolution
    /// ([`crate::shape::decode::decode_art`]).
    pub fn decode(bytes: &[u8]) -> Result<Raster> {
        let (w, h, rgba) = crate::shape::decode::decode_art(bytes)?;
        Raster::new(w, h, rgba)
    }

    /// Whether every pixel is opaque.
    pub fn opaque(&self) -> bool {
        self.rgba.chunks_exact(4).all(|p| p[3] == 255)
    }

    /// The picture as a PNG file (8-bit RGBA, or RGB when opaque; the same pixels always give
    /// the same bytes).
    pub fn png(&self) -> Vec<u8> {
        let opaque = self.opaque();
        let mut out = Vec::new();
        {
            let mut enc = png::Encoder::new(&mut out, self.width, self.height);
            enc.set_color(if opaque {
                png::ColorType::Rgb
            } else {
                png::ColorType::Rgba
            });
            enc.set_depth(png::BitDepth::Eight);
            let mut w = enc.write_header().expect("writing to memory");
            if opaque {
                let rgb: Vec<u8> = self
                    .rgba
                    .chunks_exact(4)
                    .flat_map(|p| [p[0], p[1], p[2]])
                    .collect();
                w.write_image_data(&rgb).expect("writing to memory");
            } else {
                w.write_image_data(&self.rgba).expect("writing to memory");
            }
        }
        out
    }
}

/// A picture a book's cover prints as given (its `front` artwork, its `logo`): vector paths
/// from an SVG file, sharp at any size, or a raster picture at its own resolution.
#[derive(Clone, Debug, PartialEq)]
pub enum Art {
    /// An SVG file's paths.
    Vector(Picture),
    /// A PNG, JPEG, GIF, BMP or WebP file's pixels.
    Raster(std::sync::Arc<Raster>),
}

impl Art {
    /// Its size, for its aspect: the picture's units (vector) or pixels (raster).
    pub fn size(&self) -> (f64, f64) {
        match self {
            Art::Vector(p) => p.size,
            Art::Raster(r) => (f64::from(r.width), f64::from(r.height)),
        }
    }

    /// The raster picture's resolution printed in a box `w_mm` wide (pixels an inch); `None`
    /// for vector art, sharp at any size.
    pub fn dpi(&self, w_mm: f64) -> Option<f64> {
        match self {
            Art::Vector(_) => None,
            Art::Raster(r) => Some(f64::from(r.width) / (w_mm / 25.4).max(1e-9)),
        }
    }
}

/// The paths of `g` and its descendants, in painting order.
fn group(g: &usvg::Group, out: &mut Vec<(Vec<Step>, Paint)>) {
    for node in g.children() {
        match node {
            usvg::Node::Group(g) => group(g, out),
            usvg::Node::Path(p) if p.is_visible() => path(p, out),
            _ => {}
        }
    }
}

fn color(paint: &usvg::Paint) -> Option<[u8; 3]> {
    match paint {
        usvg::Paint::Color(c) => Some([c.red, c.green, c.blue]),
        _ => None,
    }
}

/// A path's fill and stroke, transformed into the picture's units.
fn path(p: &usvg::Path, out: &mut Vec<(Vec<Step>, Paint)>) {
    let ts = p.abs_transform();
    let Some(data) = p.data().clone().transform(ts) else {
        return;
    };
    let steps = steps(&data);
    if steps.is_empty() {
        return;
    }
    let fill = p
        .fill()
        .and_then(|f| color(f.paint()))
        .map(|c| (steps.clone(), Paint::Fill(c)));
    // the stroke widens with the transform's scale (its geometric mean for a stretch)
    let scale = f64::from(ts.sx * ts.sy - ts.kx * ts.ky).abs().sqrt();
    let stroke = p.stroke().and_then(|s| {
        let c = color(s.paint())?;
        Some((steps, Paint::Stroke(c, f64::from(s.width().get()) * scale)))
    });
    if p.paint_order() == usvg::PaintOrder::StrokeAndFill {
        out.extend(stroke);
        out.extend(fill);
    } else {
        out.extend(fill);
        out.extend(stroke);
    }
}

/// The points of the cubic `c` that bound it: its turning points in x and y, then its end.
pub(crate) fn cubic_extremes(c: [Point; 4]) -> Vec<Point> {
    let at = |t: f64| {
        let u = 1.0 - t;
        let w = [u * u * u, 3.0 * u * u * t, 3.0 * u * t * t, t * t * t];
        [
            w[0] * c[0][0] + w[1] * c[1][0] + w[2] * c[2][0] + w[3] * c[3][0],
            w[0] * c[0][1] + w[1] * c[1][1] + w[2] * c[2][1] + w[3] * c[3][1],
        ]
    };
    let mut out = Vec::new();
    let xs = [c[0][0], c[1][0], c[2][0], c[3][0]];
    let ys = [c[0][1], c[1][1], c[2][1], c[3][1]];
    for v in [xs, ys] {
        // the derivative's roots: a t^2 + b t + k = 0
        let a = -v[0] + 3.0 * v[1] - 3.0 * v[2] + v[3];
        let b = 2.0 * (v[0] - 2.0 * v[1] + v[2]);
        let k = v[1] - v[0];
        let roots = if a.abs() < 1e-12 {
            if b.abs() < 1e-12 {
                vec![]
            } else {
                vec![-k / b]
            }
        } else {
            let disc = b * b - 4.0 * a * k;
            if disc < 0.0 {
                vec![]
            } else {
                let r = disc.sqrt();
                vec![(-b + r) / (2.0 * a), (-b - r) / (2.0 * a)]
            }
        };
        out.extend(
            roots
                .into_iter()
                .filter(|t| (0.0..=1.0).contains(t))
                .map(at),
        );
    }
    out.push(c[3]);
    out
}

/// A tiny-skia path as steps, quadratic curves raised to cubics.
fn steps(path: &tiny_skia::Path) -> Vec<Step> {
    let pt = |p: tiny_skia::Point| [f64::from(p.x), f64::from(p.y)];
    let mut out = Vec::new();
    let mut last = [0.0, 0.0];
    for seg in path.segments() {
        match seg {
            tiny_skia::PathSegment::MoveTo(p) => {
                last = pt(p);
                out.push(Step::Move(last));
            }
            tiny_skia::PathSegment::LineTo(p) => {
                last = pt(p);
                out.push(Step::Line(last));
            }
            tiny_skia::PathSegment::QuadTo(c, p) => {
                let (c, p) = (pt(c), pt(p));
                let lerp = |a: Point, b: Point| {
                    [
                        a[0] + (b[0] - a[0]) * 2.0 / 3.0,
                        a[1] + (b[1] - a[1]) * 2.0 / 3.0,
                    ]
                };
                out.push(Step::Cubic(lerp(last, c), lerp(p, c), p));
                last = p;
            }
            tiny_skia::PathSegment::CubicTo(a, b, p) => {
                last = pt(p);
                out.push(Step::Cubic(pt(a), pt(b), last));
            }
            tiny_skia::PathSegment::Close => out.push(Step::Close),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_picture_without_solid_paint_is_refused() {
        let svg = br#"<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10" fill="none"/></svg>"#;
        assert!(Picture::from_svg(svg).is_err());
        assert!(Picture::from_svg(b"not a picture").is_err());
    }

    #[test]
    fn a_picture_is_cropped_to_what_it_paints() {
        let svg = br#"<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100"><circle cx="50" cy="60" r="20" fill="red"/></svg>"#;
        let p = Picture::from_svg(svg).unwrap();
        assert!(
            (p.size.0 - 40.0).abs() < 1e-3 && (p.size.1 - 40.0).abs() < 1e-3,
            "{:?}",
            p.size
        );
        assert_eq!(p.fitted(20.0), (20.0, 20.0));
    }
}
