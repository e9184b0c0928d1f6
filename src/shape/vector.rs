//! An SVG silhouette's own outline, from its vector paths rather than its pixels.
//!
//! [`outline`] walks usvg's path tree: every visible filled path (with its transforms and its
//! fill rule) and every stroke (outlined by tiny-skia's stroker) is flattened to a polyline
//! within [`FLATNESS`] of a pixel of the rasterised picture, resolved with its own fill rule and
//! the results united, by `i_overlay` (a maintained polygon boolean library: unions of
//! overlapping paths with mixed fill rules, self-intersections and holes are its job, not a few
//! lines of ours). The result is the shape's outer contours and holes in the picture's pixel
//! units, as [`super::decode`] rasterises it.
//!
//! Only what an outline can say is taken: a drawing with an image, a clip, a mask, a
//! non-plain paint or anything not fully opaque gives `None`, and the picture keeps its traced
//! contour. [`super::Foreground`] also checks the outline against the pixels it cut (area and
//! box) before it keeps it.

use i_overlay::core::fill_rule::FillRule;
use i_overlay::core::overlay_rule::OverlayRule;
use i_overlay::float::simplify::SimplifyShape;
use i_overlay::float::single::SingleFloatOverlay;
use resvg::{tiny_skia, usvg};

/// The largest distance between a curve and its flattening, in picture pixels.
pub const FLATNESS: f64 = 0.05;

/// The most polyline points an outline is made of; past them (a drawing of many thousands of
/// paths) the picture keeps its traced contour, in bounded time.
pub const MAX_POINTS: usize = 200_000;

/// A shape's outline in picture pixels: closed contours, outer ones clockwise on screen (positive
/// [`area`](VectorShape::area)), holes anticlockwise; the shape is inside them, even-odd.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct VectorShape {
    /// The contours; the last point joins the first.
    pub contours: Vec<Vec<[f64; 2]>>,
}

// never NaN: every point comes from a finite transformed path
impl Eq for VectorShape {}

impl VectorShape {
    /// The area inside the contours (holes subtracted), in square pixels.
    pub fn area(&self) -> f64 {
        self.contours.iter().map(|c| signed_area(c)).sum()
    }

    /// The contours' total length, in pixels.
    pub fn perimeter(&self) -> f64 {
        self.contours
            .iter()
            .map(|c| {
                (0..c.len())
                    .map(|i| {
                        let (a, b) = (c[i], c[(i + 1) % c.len()]);
                        (b[0] - a[0]).hypot(b[1] - a[1])
                    })
                    .sum::<f64>()
            })
            .sum()
    }

    /// The bounding box (x0, y0, x1, y1); `None` without contours.
    pub fn bounds(&self) -> Option<(f64, f64, f64, f64)> {
        let mut pts = self.contours.iter().flatten().peekable();
        pts.peek()?;
        Some(pts.fold(
            (f64::MAX, f64::MAX, f64::MIN, f64::MIN),
            |(a, b, c, d), p| (a.min(p[0]), b.min(p[1]), c.max(p[0]), d.max(p[1])),
        ))
    }

    /// The same outline moved by (`dx`, `dy`) pixels.
    /// The shape turned a quarter turn anticlockwise on the page (y down) within a box `width`
    /// wide starting at x = 0: point `(x, y)` goes to `(y, width - x)`.
    pub fn turned(&self, width: f64) -> VectorShape {
        VectorShape {
            contours: self
                .contours
                .iter()
                .map(|c| c.iter().map(|p| [p[1], width - p[0]]).collect())
                .collect(),
        }
    }

    /// The shape moved by `(dx, dy)`.
    pub fn shifted(&self, dx: f64, dy: f64) -> VectorShape {
        VectorShape {
            contours: self
                .contours
                .iter()
                .map(|c| c.iter().map(|p| [p[0] + dx, p[1] + dy]).collect())
                .collect(),
        }
    }
}

/// Signed area of a closed polygon, positive clockwise on screen (y down).
fn signed_area(c: &[[f64; 2]]) -> f64 {
    let n = c.len();
    (0..n)
        .map(|i| {
            let (a, b) = (c[i], c[(i + 1) % n]);
            a[0] * b[1] - b[0] * a[1]
        })
        .sum::<f64>()
        / 2.0
}

/// The outline of `tree` drawn with `transform` (user units to picture pixels) on a `width` x
/// `height` picture (what lies outside it is cut off, as the pixels are), or `None` when the
/// drawing holds something an outline cannot say (see the module documentation).
pub fn outline(
    tree: &usvg::Tree,
    transform: tiny_skia::Transform,
    width: u32,
    height: u32,
) -> Option<VectorShape> {
    let mut acc = Parts::default();
    group(tree.root(), transform, &mut acc)?;
    let parts = acc.contours;
    if parts.is_empty() {
        return None;
    }
    let (w, h) = (f64::from(width), f64::from(height));
    let picture = [[0.0, 0.0], [w, 0.0], [w, h], [0.0, h]];
    let contours = wound(parts.overlay(&picture, OverlayRule::Intersect, FillRule::NonZero));
    (!contours.is_empty()).then_some(VectorShape { contours })
}

/// i_overlay's shapes as contours wound as [`VectorShape`]'s: outer ones clockwise on screen,
/// holes anticlockwise.
fn wound(shapes: Vec<Vec<Vec<[f64; 2]>>>) -> Vec<Vec<[f64; 2]>> {
    let mut contours = Vec::new();
    for shape in shapes {
        for (k, mut c) in shape.into_iter().enumerate() {
            // the first contour of a shape is its outer one, the others its holes
            if (signed_area(&c) > 0.0) != (k == 0) {
                c.reverse();
            }
            contours.push(c);
        }
    }
    contours
}

/// The union of closed polygons wound alike (holes the other way), as contours wound as
/// [`VectorShape`]'s (edges the polygons share vanish).
pub fn union(polygons: &[Vec<[f64; 2]>]) -> Vec<Vec<[f64; 2]>> {
    wound(polygons.simplify_shape(FillRule::NonZero))
}

/// The most self-crossings a path may be expected to have ([`crossings`]) for its outline to
/// be resolved from its vectors; past them the picture keeps its traced contour. Resolving
/// costs about 6 us a crossing: one path of 5,000 random points (about 2 million crossings)
/// took 12.6 s and 20,000 points ran out of memory at 5.3 GB.
pub const MAX_CROSSINGS: f64 = 50_000.0;

/// How many times `rings` may be expected to cross themselves: for segments of total length
/// `L` thrown in a box of area `A`, about `L^2 / (pi A)`. A silhouette's outline stays far
/// below (a circle 0.3, a 40-spike star a few hundred, a line of text some thousands); a
/// scribble of random points reaches millions.
fn crossings(rings: &[Vec<[f64; 2]>]) -> f64 {
    let (mut lo, mut hi) = ([f64::INFINITY; 2], [f64::NEG_INFINITY; 2]);
    let mut length = 0.0;
    for ring in rings {
        for (k, p) in ring.iter().enumerate() {
            let q = ring[(k + 1) % ring.len()];
            length += (q[0] - p[0]).hypot(q[1] - p[1]);
            for i in 0..2 {
                lo[i] = lo[i].min(p[i]);
                hi[i] = hi[i].max(p[i]);
            }
        }
    }
    let area = ((hi[0] - lo[0]) * (hi[1] - lo[1])).max(1.0);
    let c = length * length / (std::f64::consts::PI * area);
    if c.is_finite() { c } else { f64::INFINITY }
}

/// The contours found so far and their points.
#[derive(Default)]
struct Parts {
    contours: Vec<Vec<[f64; 2]>>,
    points: usize,
}

impl Parts {
    /// Adds `rings` resolved with `rule` into plain contours (outer and holes wound
    /// oppositely, so a non-zero union of them all is the union of the paths); `None` past
    /// [`MAX_POINTS`].
    fn add(&mut self, rings: &[Vec<[f64; 2]>], rule: FillRule) -> Option<()> {
        self.points += rings.iter().map(Vec::len).sum::<usize>();
        if self.points > MAX_POINTS || crossings(rings) > MAX_CROSSINGS {
            return None;
        }
        if !rings.is_empty() {
            self.contours
                .extend(rings.simplify_shape(rule).into_iter().flatten());
        }
        Some(())
    }
}

fn opaque(o: usvg::Opacity) -> bool {
    o.get() >= 1.0
}

/// Adds the contours of `g`'s paths, each resolved with its fill rule, to `out`.
fn group(g: &usvg::Group, ts: tiny_skia::Transform, out: &mut Parts) -> Option<()> {
    if !opaque(g.opacity()) || g.clip_path().is_some() || g.mask().is_some() {
        return None;
    }
    if !g.filters().is_empty() {
        return None;
    }
    for node in g.children() {
        match node {
            usvg::Node::Group(c) => group(c, ts, out)?,
            usvg::Node::Text(t) => group(t.flattened(), ts, out)?,
            usvg::Node::Image(_) => return None,
            usvg::Node::Path(p) => path(p, ts, out)?,
        }
    }
    Some(())
}

fn path(p: &usvg::Path, ts: tiny_skia::Transform, out: &mut Parts) -> Option<()> {
    if !p.is_visible() {
        return Some(());
    }
    let full = ts.pre_concat(p.abs_transform());
    let (sx, sy) = full.get_scale();
    let res = sx.max(sy).max(1e-3);
    if let Some(fill) = p.fill() {
        if !opaque(fill.opacity()) || !matches!(fill.paint(), usvg::Paint::Color(_)) {
            return None;
        }
        let rule = match fill.rule() {
            usvg::FillRule::NonZero => FillRule::NonZero,
            usvg::FillRule::EvenOdd => FillRule::EvenOdd,
        };
        let rings = flatten(p.data().clone().transform(full)?)?;
        out.add(&rings, rule)?;
    }
    if let Some(stroke) = p.stroke() {
        if !opaque(stroke.opacity()) || !matches!(stroke.paint(), usvg::Paint::Color(_)) {
            return None;
        }
        let outline = p.data().stroke(&stroke.to_tiny_skia(), res)?;
        let rings = flatten(outline.transform(full)?)?;
        out.add(&rings, FillRule::NonZero)?;
    }
    Some(())
}

/// A path's subpaths as closed polylines, curves cut into chords within [`FLATNESS`]; `None`
/// past [`MAX_POINTS`].
pub(super) fn flatten(path: tiny_skia::Path) -> Option<Vec<Vec<[f64; 2]>>> {
    let mut rings = Vec::new();
    let mut cur: Vec<[f64; 2]> = Vec::new();
    let pt = |p: tiny_skia::Point| [f64::from(p.x), f64::from(p.y)];
    let mut finish = |cur: &mut Vec<[f64; 2]>| {
        if cur.len() >= 3 {
            rings.push(std::mem::take(cur));
        } else {
            cur.clear();
        }
    };
    for seg in path.segments() {
        match seg {
            tiny_skia::PathSegment::MoveTo(p) => {
                finish(&mut cur);
                cur.push(pt(p));
            }
            tiny_skia::PathSegment::LineTo(p) => cur.push(pt(p)),
            tiny_skia::PathSegment::QuadTo(c, p) => {
                let a = *cur.last()?;
                let (c, p) = (pt(c), pt(p));
                // the quadratic as a cubic
                let c1 = [
                    a[0] + (c[0] - a[0]) * 2.0 / 3.0,
                    a[1] + (c[1] - a[1]) * 2.0 / 3.0,
                ];
                let c2 = [
                    p[0] + (c[0] - p[0]) * 2.0 / 3.0,
                    p[1] + (c[1] - p[1]) * 2.0 / 3.0,
                ];
                cubic(&mut cur, [a, c1, c2, p]);
            }
            tiny_skia::PathSegment::CubicTo(c1, c2, p) => {
                let a = *cur.last()?;
                cubic(&mut cur, [a, pt(c1), pt(c2), pt(p)]);
            }
            tiny_skia::PathSegment::Close => finish(&mut cur),
        }
        if cur.len() > MAX_POINTS {
            return None;
        }
    }
    finish(&mut cur);
    Some(rings)
}

/// Appends a cubic's flattening (after its start point) to `out`: `n` equal steps, enough that
/// the chords stay within [`FLATNESS`] (the second differences bound the error by
/// `3/4 * max |d| / n^2`).
fn cubic(out: &mut Vec<[f64; 2]>, b: [[f64; 2]; 4]) {
    let dd = |i: usize, k: usize| b[i][k] - 2.0 * b[i + 1][k] + b[i + 2][k];
    let d = (dd(0, 0).hypot(dd(0, 1))).max(dd(1, 0).hypot(dd(1, 1)));
    let n = ((0.75 * d / FLATNESS).sqrt().ceil() as usize).clamp(1, 1024);
    for j in 1..=n {
        let t = j as f64 / n as f64;
        let u = 1.0 - t;
        let (w0, w1, w2, w3) = (u * u * u, 3.0 * u * u * t, 3.0 * u * t * t, t * t * t);
        out.push([
            w0 * b[0][0] + w1 * b[1][0] + w2 * b[2][0] + w3 * b[3][0],
            w0 * b[0][1] + w1 * b[1][1] + w2 * b[2][1] + w3 * b[3][1],
        ]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shape_of(svg: &str) -> Option<VectorShape> {
        let tree = crate::shape::svg::parse(svg.as_bytes()).unwrap();
        outline(&tree, tiny_skia::Transform::from_scale(2.0, 2.0), 200, 200)
    }

    #[test]
    fn a_circle_is_one_clockwise_contour_on_the_circle() {
        let s = shape_of(
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100"><circle cx="50" cy="50" r="40"/></svg>"#,
        )
        .unwrap();
        assert_eq!(s.contours.len(), 1);
        assert!(s.area() > 0.0);
        let worst = s.contours[0]
            .iter()
            .map(|p| ((p[0] - 100.0).hypot(p[1] - 100.0) - 80.0).abs())
            .fold(0.0, f64::max);
        assert!(worst < FLATNESS + 0.01, "{worst}");
        let disc = std::f64::consts::PI * 80.0 * 80.0;
        assert!((s.area() - disc).abs() / disc < 1e-3, "{}", s.area());
    }

    #[test]
    fn overlapping_paths_unite_and_even_odd_makes_holes() {
        // a square with an even-odd hole, and a second square over its right edge
        let s = shape_of(
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100">
            <path fill-rule="evenodd" d="M10 10H50V50H10ZM20 20H40V40H20Z"/>
            <rect x="40" y="10" width="20" height="20"/></svg>"#,
        )
        .unwrap();
        assert_eq!(s.contours.len(), 2, "{:?}", s.contours);
        // (40 x 40 - 20 x 20 + 10 x 20) user units, 4 pixels each
        assert!((s.area() - 4.0 * 1400.0).abs() < 1e-6, "{}", s.area());
        assert_eq!(
            s.contours.iter().filter(|c| signed_area(c) < 0.0).count(),
            1
        );
    }

    #[test]
    fn strokes_and_transforms_count() {
        let s = shape_of(
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100">
            <g transform="translate(10 20)"><path d="M0 0H50" stroke="black" stroke-width="10"/></g></svg>"#,
        )
        .unwrap();
        let (x0, y0, x1, y1) = s.bounds().unwrap();
        assert!(
            (x0 - 20.0).abs() < 1e-6 && (x1 - 120.0).abs() < 1e-6,
            "{x0} {x1}"
        );
        assert!(
            (y0 - 30.0).abs() < 1e-6 && (y1 - 50.0).abs() < 1e-6,
            "{y0} {y1}"
        );
    }

    #[test]
    fn what_an_outline_cannot_say_gives_none() {
        for svg in [
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="5" height="5" opacity="0.5"/></svg>"#,
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><defs><linearGradient id="g"><stop offset="0" stop-color="red"/><stop offset="1" stop-opacity="0"/></linearGradient></defs><rect width="5" height="5" fill="url(#g)"/></svg>"#,
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"></svg>"#,
        ] {
            assert!(shape_of(svg).is_none(), "{svg}");
        }
    }
}
