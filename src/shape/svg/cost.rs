//! What drawing a parsed picture costs, counted before a pixel is drawn ([`measure`]): its
//! elements and path points, the pixel operations of every path, layer, clip, mask and
//! pattern tile at the size it is drawn (weighted by its cost per pixel), and the bytes of
//! layers alive at once.

use resvg::{tiny_skia, usvg};

use super::{
    MAX_SVG_ELEMENTS, MAX_SVG_LAYER_BYTES, MAX_SVG_PIXEL_WORK, MAX_SVG_POINTS, thousands,
    too_complex,
};
use crate::error::{Error, Result};

/// What compositing a layer costs per pixel, in plain fills (measured: 40 full-picture
/// layers at 50 % opacity take 12.8 s, 110 full-picture rectangles 1.3 s).
const COMPOSITE_COST: u64 = 25;

/// What building and applying a clip costs per layer pixel, in plain fills.
const CLIP_COST: u64 = 6;

/// What building and applying a mask costs per layer pixel, in plain fills.
const MASK_COST: u64 = 8;

/// What rasterising a tree costs, counted before drawing it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Cost {
    /// Paths, groups and images.
    pub elements: u64,
    /// Path points.
    pub points: u64,
    /// Pixel operations, weighted by their cost (see [`MAX_SVG_PIXEL_WORK`]).
    pub pixel_work: u64,
    /// The most bytes of layers alive at once.
    pub peak_layer_bytes: u64,
}

/// Counts the cost of drawing `tree` on a `width` x `height` pixmap with `transform`,
/// stopping with the "too complex" error as soon as a limit is passed.
pub fn measure(
    tree: &usvg::Tree,
    transform: tiny_skia::Transform,
    width: u32,
    height: u32,
) -> Result<Cost> {
    let mut m = Meter {
        cost: Cost::default(),
        canvas: u64::from(width) * u64::from(height),
        width: width as f32,
        height: height as f32,
        transform,
    };
    m.group(tree.root(), true, m.canvas, 0)?;
    let mut c = m.cost;
    c.elements -= 1; // the root
    if c.elements > MAX_SVG_ELEMENTS {
        return Err(too_complex(format!(
            "{} elements (the limit is {})",
            thousands(c.elements),
            thousands(MAX_SVG_ELEMENTS)
        )));
    }
    if c.points > MAX_SVG_POINTS {
        return Err(too_complex(format!(
            "{} path points (the limit is {})",
            thousands(c.points),
            thousands(MAX_SVG_POINTS)
        )));
    }
    if c.pixel_work > MAX_SVG_PIXEL_WORK {
        return Err(too_complex(format!(
            "{} million pixel operations (the limit is {} million)",
            thousands(c.pixel_work / 1_000_000),
            thousands(MAX_SVG_PIXEL_WORK / 1_000_000)
        )));
    }
    if c.peak_layer_bytes > MAX_SVG_LAYER_BYTES {
        return Err(too_complex(format!(
            "{} MB of layers at once (the limit is {} MB)",
            thousands(c.peak_layer_bytes >> 20),
            MAX_SVG_LAYER_BYTES >> 20
        )));
    }
    Ok(c)
}

/// Where counting stops: far past every limit.
const WALK_LIMIT: u64 = 20 * MAX_SVG_ELEMENTS;

struct Meter {
    cost: Cost,
    /// Pixels of the picture.
    canvas: u64,
    width: f32,
    height: f32,
    /// Canvas units to pixels.
    transform: tiny_skia::Transform,
}

impl Meter {
    /// The pixels of `rect` (canvas units) once drawn, within the picture (`layer` false) or
    /// within `-2..3` times the picture (`layer` true: the area resvg clamps layers to); `None`
    /// when the box is not known.
    fn pixels(&self, rect: tiny_skia::Rect, layer: bool) -> Option<u64> {
        let r = rect.transform(self.transform)?;
        let (w, h) = (self.width, self.height);
        let (lo, hi) = if layer { (-2.0, 3.0) } else { (0.0, 1.0) };
        let left = r.left().max(lo * w);
        let top = r.top().max(lo * h);
        let right = r.right().min(hi * w);
        let bottom = r.bottom().min(hi * h);
        if !(right.is_finite() && bottom.is_finite() && left.is_finite() && top.is_finite()) {
            return None;
        }
        let area =
            f64::from((right - left).max(0.0) + 4.0) * f64::from((bottom - top).max(0.0) + 4.0);
        Some(area as u64)
    }

    /// Stops the walk once it is far past the element limit (so a pattern nested in itself
    /// through many paths cannot make the count itself long).
    fn check(&mut self) -> Result<()> {
        if self.cost.elements > WALK_LIMIT {
            return Err(too_complex(format!(
                "more than {} elements (the limit is {})",
                thousands(WALK_LIMIT),
                thousands(MAX_SVG_ELEMENTS)
            )));
        }
        Ok(())
    }

    fn work(&mut self, pixels: u64) {
        self.cost.pixel_work = self.cost.pixel_work.saturating_add(pixels);
    }

    /// Adds `bytes` of layers on top of `live`, returning the new total.
    fn hold(&mut self, live: u64, bytes: u64) -> Result<u64> {
        let live = live.saturating_add(bytes);
        self.cost.peak_layer_bytes = self.cost.peak_layer_bytes.max(live);
        self.check()?;
        Ok(live)
    }

    /// Counts `group` and what it holds. `main` is false inside clips, masks and pattern tiles,
    /// whose boxes are in their own units: there every path counts as filling `target` pixels
    /// (the size of what it is drawn on). `live` is the bytes of layers already held.
    ///
    /// An isolated group (opacity, clip, mask, blend mode) is drawn on a layer of its own,
    /// cleared, then composited onto the picture through a bilinear pattern, which costs about
    /// [`COMPOSITE_COST`] times a plain fill per pixel (measured); a clip or mask is a second
    /// layer of the same size, built and applied.
    fn group(&mut self, group: &usvg::Group, main: bool, target: u64, live: u64) -> Result<()> {
        self.cost.elements += 1;
        let mut live = live;
        let mut target = target;
        if group.should_isolate() {
            let bbox = group.abs_layer_bounding_box().to_rect();
            let (layer, shown) = if main {
                let layer = self.pixels(bbox, true).unwrap_or(self.canvas * 25);
                // composited onto the picture, or onto the layer of an enclosing group
                let shown = if target > self.canvas {
                    layer.min(target)
                } else {
                    self.pixels(bbox, false).unwrap_or(self.canvas)
                };
                (layer, shown)
            } else {
                (target, target)
            };
            self.work(layer);
            self.work(shown.saturating_mul(COMPOSITE_COST));
            live = self.hold(live, layer.saturating_mul(4))?;
            if let Some(clip) = group.clip_path() {
                self.clip(clip, layer, live)?;
            }
            if let Some(mask) = group.mask() {
                self.mask(mask, layer, live)?;
            }
            target = layer;
        }
        for node in group.children() {
            match node {
                usvg::Node::Group(g) => self.group(g, main, target, live)?,
                usvg::Node::Path(p) => self.path(p, main, target, live)?,
                usvg::Node::Image(_) => self.cost.elements += 1,
                usvg::Node::Text(t) => self.group(t.flattened(), main, target, live)?,
            }
        }
        self.check()
    }

    /// A clip path on a `layer`-pixel layer: a second layer, its content, and the clip's own
    /// clip.
    fn clip(&mut self, clip: &usvg::ClipPath, layer: u64, live: u64) -> Result<()> {
        self.work(layer.saturating_mul(CLIP_COST));
        let live = self.hold(live, layer.saturating_mul(4))?;
        self.group(clip.root(), false, layer, live)?;
        if let Some(inner) = clip.clip_path() {
            self.clip(inner, layer, live)?;
        }
        Ok(())
    }

    /// A mask on a `layer`-pixel layer: a second layer and an alpha mask, its content, and the
    /// mask's own mask.
    fn mask(&mut self, mask: &usvg::Mask, layer: u64, live: u64) -> Result<()> {
        self.work(layer.saturating_mul(MASK_COST));
        let live = self.hold(live, layer.saturating_mul(5))?;
        self.group(mask.root(), false, layer, live)?;
        if let Some(inner) = mask.mask() {
            self.mask(inner, layer, live)?;
        }
        Ok(())
    }

    fn path(&mut self, path: &usvg::Path, main: bool, target: u64, live: u64) -> Result<()> {
        self.cost.elements += 1;
        self.cost.points += path.data().len() as u64;
        self.crowded_rows(path);
        if let Some(dashes) = path.stroke().and_then(|s| dash_count(path, s)) {
            self.cost.points = self
                .cost
                .points
                .saturating_add(dashes.saturating_mul(DASH_POINTS));
            // every dash is a piece of one path, and the anti-aliased scan converter pays for
            // each piece a row crosses once per piece crossing it: rows x crossings squared
            if let Some(r) = path.abs_stroke_bounding_box().transform(self.transform) {
                let (w, h) = (f64::from(r.width()), f64::from(r.height()));
                if w.is_finite() && h.is_finite() && w + h > 0.0 {
                    let crossings = dashes as f64 * w / (w + h);
                    let rows = h.min(f64::from(self.height)) + 1.0;
                    let work = crossings * crossings * rows * DASH_ROW_COST;
                    self.work(if work.is_finite() {
                        work.min(u64::MAX as f64 / 16.0) as u64
                    } else {
                        u64::MAX / 16
                    });
                }
            }
        }
        // the rasteriser's fixed-point edges overflow (and it panics) on geometry this far out
        let far = path
            .abs_stroke_bounding_box()
            .transform(self.transform)
            .is_none_or(|r| {
                [r.left(), r.top(), r.right(), r.bottom()]
                    .iter()
                    .any(|v| !v.is_finite() || v.abs() > FAR_PX)
            });
        if far {
            return Err(Error::input(format!(
                "the SVG image draws shapes far outside its picture (more than {} pixels \
                 out): remove them or redraw the picture",
                thousands(FAR_PX as u64)
            )));
        }
        let area = if main {
            self.pixels(path.abs_stroke_bounding_box(), target > self.canvas)
                .unwrap_or(target)
                .min(target)
        } else {
            target
        };
        let paints = [
            path.fill().map(usvg::Fill::paint),
            path.stroke().map(usvg::Stroke::paint),
        ];
        for paint in paints.into_iter().flatten() {
            self.work(area);
            if let usvg::Paint::Pattern(pattern) = paint {
                self.pattern(pattern, path, live)?;
            }
        }
        self.check()
    }

    /// The scan converter's extra work on a path whose edges crowd its rows: it pays for each
    /// edge a row crosses once per other edge on that row, so a scribble of 20,000 random
    /// points (10,000 edges on every row) costs far more than its pixels. Counted as rows x
    /// (edges per row) squared.
    fn crowded_rows(&mut self, path: &usvg::Path) {
        let ts = self.transform.pre_concat(path.abs_transform());
        let y = |p: tiny_skia::Point| f64::from(ts.ky * p.x + ts.sy * p.y + ts.ty);
        let drop: f64 = path
            .data()
            .points()
            .windows(2)
            .map(|w| (y(w[1]) - y(w[0])).abs())
            .filter(|d| d.is_finite())
            .sum();
        let Some(r) = path.abs_bounding_box().transform(self.transform) else {
            return;
        };
        let rows = f64::from(r.height()).clamp(1.0, f64::from(self.height).max(1.0));
        let per_row = drop / rows;
        let work = per_row * per_row * rows * DASH_ROW_COST;
        self.work(if work.is_finite() {
            work.min(u64::MAX as f64 / 16.0) as u64
        } else {
            u64::MAX / 16
        });
    }

    /// A pattern: a tile drawn once per path that uses it, at the path's scale.
    fn pattern(&mut self, pattern: &usvg::Pattern, path: &usvg::Path, live: u64) -> Result<()> {
        let (sx, sy) = self
            .transform
            .pre_concat(path.abs_transform())
            .pre_concat(pattern.transform())
            .get_scale();
        let rect = pattern.rect();
        let tile = f64::from(rect.width() * sx).round() * f64::from(rect.height() * sy).round();
        let tile = if tile.is_finite() {
            tile as u64
        } else {
            u64::MAX / 8
        };
        self.work(tile);
        let live = self.hold(live, tile.saturating_mul(4))?;
        self.group(pattern.root(), false, tile, live)
    }
}

/// How far outside the picture (pixels) a path may reach: a million, far past any picture
/// Hedge draws and far short of where tiny-skia's edges overflow (a circle of radius 1e10
/// panicked in its scan converter).
const FAR_PX: f32 = 1.0e6;

/// What one dash of a dashed stroke counts as, in path points: the stroker makes each dash a
/// closed piece of its own (two ends and two sides, more with round caps).
const DASH_POINTS: u64 = 8;

/// What one dash crossing a row costs per other dash on that row, in plain fills (measured:
/// five 100-unit lines of 5,000 dashes each, 100 pixels thick, took 35 s in a debug build).
const DASH_ROW_COST: f64 = 1.5;

/// How many dashes `stroke` cuts `path` into: the path's length (along its control polygon, at
/// least the curves' length) over the dash pattern's period, times the dashes in a period;
/// `None` without a dash pattern. Counted before anything is stroked: a 530-byte file of five
/// lines with `stroke-dasharray="0.0001"` asks for five million dashes.
fn dash_count(path: &usvg::Path, stroke: &usvg::Stroke) -> Option<u64> {
    let pattern = stroke.dasharray()?;
    let period: f64 = pattern.iter().map(|&d| f64::from(d)).sum();
    if !(period.is_finite() && period > 0.0) {
        return None;
    }
    let length: f64 = path
        .data()
        .points()
        .windows(2)
        .map(|w| f64::from(w[0].distance(w[1])))
        .filter(|d| d.is_finite())
        .sum();
    let dashes = (length / period).ceil() * (pattern.len() as f64 / 2.0).ceil();
    Some(if dashes.is_finite() {
        dashes.min(u64::MAX as f64 / 16.0) as u64
    } else {
        u64::MAX / 16
    })
}
