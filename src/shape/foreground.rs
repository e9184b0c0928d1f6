//! Which pixels of a picture are the shape.
//!
//! Every pixel gets a *difference* from the background, 0 to 255, and the shape is the pixels
//! whose difference is above a threshold:
//!
//! - when the picture has real transparency (at least 1 % of its pixels under half opacity), the
//!   background is "transparent" and the difference is the pixel's opacity; the colour under
//!   transparent pixels is never looked at;
//! - otherwise the background colour is guessed from the picture's border (the median of each
//!   channel over the border pixels), and the difference is the distance in RGB from that colour
//!   (black to white is 255). So black on white, white on black and a brown cat on pink all work
//!   without being told which is which.
//!
//! The threshold is automatic (Otsu's method on the histogram of differences; 127 for opacity)
//! unless given. `invert` swaps shape and background. The result is trimmed to the shape's
//! bounding box.

use std::sync::{Arc, Mutex, OnceLock};

use crate::error::{Error, Result};
use crate::shape::decode::Picture;
use crate::shape::vector::VectorShape;

/// The least difference between the most different pixel and the background for a picture to
/// count as having a shape at all (JPEG noise on a blank page stays below it).
pub const MIN_CONTRAST: u8 = 24;

/// How to cut a picture into shape and background.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Cut {
    /// Pixels whose difference from the background is above this are shape; `None` picks it
    /// automatically.
    pub threshold: Option<u8>,
    /// Swap shape and background.
    pub invert: bool,
}

/// What the background was taken to be.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Background {
    /// Transparent pixels (the shape is the opaque ones).
    Transparent,
    /// This colour, guessed from the border.
    Colour([u8; 3]),
}

/// A two-colour picture of the shape, trimmed to its bounding box (every edge row and column
/// has at least one shape pixel).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Foreground {
    width: u32,
    height: u32,
    bits: Vec<bool>,
    count: usize,
    background: Background,
    threshold: u8,
    /// Per tile of TILE x TILE pixels: TILE_EMPTY, TILE_FULL or TILE_MIXED.
    tiles: Vec<u8>,
    tile_cols: usize,
    /// The picture pixel of the trimmed box's top left corner.
    origin: (u32, u32),
    /// The pixels of the largest part, made when first asked for ([`Foreground::main_part`]).
    main: Lazy,
    /// The shape's outline from an SVG's vector paths, in these pixels, when it agrees with
    /// them ([`Foreground::vector`]).
    vector: Option<Arc<VectorShape>>,
    /// Whether the picture draws text ([`Picture::has_text`]), whose letters the design's
    /// islands policy joins by default ([`crate::design::Design::islands_policy`]).
    text: bool,
}

/// The main parts made so far, by opening radius: a cache that every comparison ignores and a
/// clone starts empty (it is made from the rest of the value).
#[derive(Debug, Default)]
struct Lazy(Mutex<Vec<(u8, Arc<[bool]>)>>);

impl Clone for Lazy {
    fn clone(&self) -> Lazy {
        Lazy::default()
    }
}

impl PartialEq for Lazy {
    fn eq(&self, _: &Lazy) -> bool {
        true
    }
}

impl Eq for Lazy {}

/// RGB distance (squared, 0..=3 * 255^2) -> difference 0..=255.
fn distance_table() -> &'static [u8] {
    static TABLE: OnceLock<Vec<u8>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let max = 3 * 255 * 255;
        let full = libm::sqrt(f64::from(max));
        (0..=max)
            .map(|d2| {
                let d = libm::sqrt(f64::from(d2)) * 255.0 / full;
                libm::round(d).min(255.0) as u8
            })
            .collect()
    })
}

/// The threshold that best splits `hist` in two (Otsu): values <= t on one side.
fn otsu(hist: &[u64; 256]) -> u8 {
    let total: u64 = hist.iter().sum();
    let sum_all: f64 = hist
        .iter()
        .enumerate()
        .map(|(v, &n)| v as f64 * n as f64)
        .sum();
    let (mut w0, mut sum0) = (0u64, 0f64);
    let mut best = (0u8, -1.0f64);
    for (t, &n) in hist.iter().enumerate().take(255) {
        w0 += n;
        sum0 += t as f64 * n as f64;
        let w1 = total - w0;
        if w0 == 0 || w1 == 0 {
            continue;
        }
        let m0 = sum0 / w0 as f64;
        let m1 = (sum_all - sum0) / w1 as f64;
        let between = w0 as f64 * w1 as f64 * (m0 - m1) * (m0 - m1);
        if between > best.1 {
            best = (t as u8, between);
        }
    }
    best.0
}

/// The median of each channel over the border pixels of `p` (opaque ones, if any).
fn border_colour(p: &Picture) -> [u8; 3] {
    let (w, h) = (p.width(), p.height());
    let mut hist = [[0u32; 256]; 3];
    let mut add = |x: u32, y: u32| {
        let px = p.pixel(x, y);
        if px[3] >= 128 {
            for c in 0..3 {
                hist[c][px[c] as usize] += 1;
            }
        }
    };
    for x in 0..w {
        add(x, 0);
        if h > 1 {
            add(x, h - 1);
        }
    }
    for y in 1..h.saturating_sub(1) {
        add(0, y);
        if w > 1 {
            add(w - 1, y);
        }
    }
    let mut out = [255u8; 3];
    for c in 0..3 {
        let n: u32 = hist[c].iter().sum();
        if n == 0 {
            continue;
        }
        let mut seen = 0;
        for (v, &k) in hist[c].iter().enumerate() {
            seen += k;
            if 2 * seen >= n {
                out[c] = v as u8;
                break;
            }
        }
    }
    out
}

/// How far an SVG's vector outline's box may be from the pixels' box: this many pixels plus
/// [`AGREE_BOX_SHARE`] of the picture's longer side (a sharp tip, anti-aliased, loses a few
/// pixels under the threshold).
const AGREE_BOX: f64 = 2.0;

/// See [`AGREE_BOX`].
const AGREE_BOX_SHARE: f64 = 0.005;

/// Side of the square tiles [`Foreground::region`] summarises, in pixels.
const TILE: usize = 8;

/// What a rectangle of the picture holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Region {
    /// No shape pixel.
    Empty,
    /// Only shape pixels.
    Full,
    /// Some of each (or not known without looking at every pixel).
    Mixed,
}

const TILE_EMPTY: u8 = 0;
const TILE_FULL: u8 = 1;
const TILE_MIXED: u8 = 2;

impl Foreground {
    /// Cuts `picture` into shape and background (see the module documentation).
    pub fn from_picture(picture: &Picture, cut: Cut) -> Result<Foreground> {
        let rgba = picture.rgba();
        let n = rgba.len() / 4;
        let row_bytes = picture.width() as usize * 4;
        // real transparency, judged on at most about 512 evenly spread rows
        let step = (picture.height() as usize / 512).max(1);
        let (mut seen, mut transparent) = (0usize, 0usize);
        for row in rgba.chunks_exact(row_bytes.max(4)).step_by(step) {
            seen += row.len() / 4;
            transparent += row.chunks_exact(4).filter(|p| p[3] < 128).count();
        }
        let alpha_mode = transparent * 100 >= seen;
        let mut diff = vec![0u8; n];
        // four interleaved histograms, summed: no store-to-load stall on runs of equal values
        let mut hists = [[0u32; 256]; 4];
        let background = if alpha_mode {
            for (i, (d, p)) in diff.iter_mut().zip(rgba.chunks_exact(4)).enumerate() {
                *d = p[3];
                hists[i & 3][p[3] as usize] += 1;
            }
            Background::Transparent
        } else {
            let bg = border_colour(picture);
            let table = distance_table();
            let sq = |v: u8, b: u8| {
                let x = i32::from(v) - i32::from(b);
                (x * x) as usize
            };
            for (i, (d, p)) in diff.iter_mut().zip(rgba.chunks_exact(4)).enumerate() {
                if p[3] >= 128 {
                    let d2 = sq(p[0], bg[0]) + sq(p[1], bg[1]) + sq(p[2], bg[2]);
                    *d = table.get(d2).copied().unwrap_or(255);
                }
                hists[i & 3][*d as usize] += 1;
            }
            Background::Colour(bg)
        };
        let mut hist = [0u64; 256];
        for (v, total) in hist.iter_mut().enumerate() {
            *total = hists.iter().map(|h| u64::from(h[v])).sum();
        }
        let max = hist.iter().rposition(|&k| k > 0).unwrap_or(0) as u8;
        if cut.threshold.is_none() && max < MIN_CONTRAST {
            return Err(Error::empty(match background {
                Background::Transparent => {
                    "no shape found: the picture is (nearly) all transparent".to_string()
                }
                Background::Colour(_) => {
                    "no shape found: the picture is all one colour".to_string()
                }
            }));
        }
        let threshold = cut
            .threshold
            .unwrap_or_else(|| if alpha_mode { 127 } else { otsu(&hist) });
        let invert = cut.invert;
        let mut fg = Self::trimmed(
            picture.width(),
            picture.height(),
            &diff,
            |d: u8| (d > threshold) != invert,
            background,
            threshold,
        )?;
        fg.text = picture.has_text();
        // the vector outline is the shape's when the shape is the drawing's opaque part
        if alpha_mode && !invert {
            let (dx, dy) = (-f64::from(fg.origin.0), -f64::from(fg.origin.1));
            fg.vector = picture
                .vector()
                .map(|v| v.shifted(dx, dy))
                .filter(|v| fg.agrees(v))
                .map(Arc::new);
        }
        Ok(fg)
    }

    /// Whether `v` (in these pixels) is the outline of these pixels: its box within
    /// [`AGREE_BOX`] of the trimmed box, and its area within half a pixel along its length
    /// plus 1 % of the shape's pixels.
    fn agrees(&self, v: &VectorShape) -> bool {
        let Some((x0, y0, x1, y1)) = v.bounds() else {
            return false;
        };
        let (w, h) = (f64::from(self.width), f64::from(self.height));
        let slack = AGREE_BOX + AGREE_BOX_SHARE * w.max(h);
        let boxed = x0.abs() <= slack
            && y0.abs() <= slack
            && (x1 - w).abs() <= slack
            && (y1 - h).abs() <= slack;
        let count = self.count as f64;
        boxed && (v.area() - count).abs() <= 0.5 * v.perimeter() + 0.01 * count
    }

    /// The shape's outline from an SVG picture's vector paths, in this foreground's pixels
    /// (pixel `(x, y)` covers `x..x + 1`, `y..y + 1`): kept when the picture is an SVG whose
    /// shape is its opaque part (not inverted) and the outline agrees with the pixels cut (box
    /// and area); `None` otherwise, and for every raster picture.
    pub fn vector(&self) -> Option<&Arc<VectorShape>> {
        self.vector.as_ref()
    }

    /// Whether the shape was cut from a picture that draws text (an SVG with text in it,
    /// [`Picture::has_text`]): its parts are most likely letters, joined by default.
    pub fn has_text(&self) -> bool {
        self.text
    }

    /// The foreground, marked as cut from a picture that draws text or not.
    pub(super) fn drawing_text(mut self, text: bool) -> Foreground {
        self.text = text;
        self
    }

    /// The shape turned a quarter turn anticlockwise (a dog facing right stands on its hind
    /// legs, nose up): `width` and `height` swap, pixel `(x, y)` of the turned shape is pixel
    /// `(width - 1 - y, x)` of this one, the vector outline turns with it, and the
    /// [`Foreground::origin`] is `(0, 0)` (the turned shape is no longer placed in its picture).
    /// A design's `turn` asks for it ([`crate::design::Design::turn`]).
    pub fn turned(&self) -> Foreground {
        let (w, h) = (self.width as usize, self.height as usize);
        let mut bits = Vec::with_capacity(w * h);
        for y in 0..w {
            let x0 = w - 1 - y;
            bits.extend((0..h).map(|x| self.bits[x * w + x0]));
        }
        let mut fg = Self::trimmed(
            self.height,
            self.width,
            &bits,
            |b| b,
            self.background,
            self.threshold,
        )
        .expect("a foreground has shape pixels, turned or not");
        fg.text = self.text;
        fg.vector = self
            .vector
            .as_ref()
            .map(|v| Arc::new(v.turned(f64::from(self.width))));
        fg
    }

    /// A foreground from shape flags, row by row (`true` = shape), trimmed.
    pub fn from_bits(width: u32, height: u32, bits: &[bool]) -> Result<Foreground> {
        if bits.len() != width as usize * height as usize {
            return Err(Error::input(format!(
                "{} flags for a {width} x {height} picture",
                bits.len()
            )));
        }
        Self::trimmed(width, height, bits, |b| b, Background::Transparent, 0)
    }

    /// Keeps the bounding box of the pixels `is_shape` accepts, as flags, and summarises it in
    /// tiles.
    fn trimmed<T: Copy>(
        width: u32,
        height: u32,
        pixels: &[T],
        is_shape: impl Fn(T) -> bool,
        background: Background,
        threshold: u8,
    ) -> Result<Foreground> {
        let (w, h) = (width as usize, height as usize);
        let (mut x0, mut y0, mut x1, mut y1) = (usize::MAX, usize::MAX, 0, 0);
        for (y, row) in pixels.chunks_exact(w.max(1)).enumerate().take(h) {
            let Some(first) = row.iter().position(|&p| is_shape(p)) else {
                continue;
            };
            let last = row.iter().rposition(|&p| is_shape(p)).unwrap_or(first);
            x0 = x0.min(first);
            x1 = x1.max(last);
            y0 = y0.min(y);
            y1 = y;
        }
        if x0 == usize::MAX {
            return Err(Error::empty(
                "no shape found: no pixel is different enough from the background",
            ));
        }
        let (tw, th) = (x1 - x0 + 1, y1 - y0 + 1);
        let mut bits = Vec::with_capacity(tw * th);
        for y in y0..=y1 {
            bits.extend(pixels[y * w + x0..=y * w + x1].iter().map(|&p| is_shape(p)));
        }
        let (cols, rows) = (tw.div_ceil(TILE), th.div_ceil(TILE));
        let mut counts = vec![0u16; cols * rows];
        for (y, row) in bits.chunks_exact(tw).enumerate() {
            let base = (y / TILE) * cols;
            for (t, chunk) in row.chunks(TILE).enumerate() {
                counts[base + t] += chunk.iter().map(|&b| u16::from(b)).sum::<u16>();
            }
        }
        let count = counts.iter().map(|&k| k as usize).sum();
        let tiles = counts
            .iter()
            .enumerate()
            .map(|(i, &k)| {
                let tile_w = TILE.min(tw - (i % cols) * TILE);
                let tile_h = TILE.min(th - (i / cols) * TILE);
                match k as usize {
                    0 => TILE_EMPTY,
                    k if k == tile_w * tile_h => TILE_FULL,
                    _ => TILE_MIXED,
                }
            })
            .collect();
        Ok(Foreground {
            width: tw as u32,
            height: th as u32,
            bits,
            count,
            background,
            threshold,
            tiles,
            tile_cols: cols,
            origin: (x0 as u32, y0 as u32),
            main: Lazy::default(),
            vector: None,
            text: false,
        })
    }

    /// What the pixels `x0 <= x < x1`, `y0 <= y < y1` hold (pixels outside the picture are
    /// background). Looks at whole tiles, so a rectangle that only partly covers tiles with both
    /// kinds of pixel may be called [`Region::Mixed`] when it is not.
    pub fn region(&self, x0: i64, y0: i64, x1: i64, y1: i64) -> Region {
        let (w, h) = (i64::from(self.width), i64::from(self.height));
        let outside = x0 < 0 || y0 < 0 || x1 > w || y1 > h;
        let (cx0, cy0, cx1, cy1) = (x0.max(0), y0.max(0), x1.min(w), y1.min(h));
        if cx0 >= cx1 || cy0 >= cy1 {
            return Region::Empty;
        }
        let t = TILE as i64;
        let (mut empty, mut full) = (true, !outside);
        for ty in cy0 / t..=(cy1 - 1) / t {
            let row = ty as usize * self.tile_cols;
            for tx in cx0 / t..=(cx1 - 1) / t {
                match self.tiles[row + tx as usize] {
                    TILE_EMPTY => full = false,
                    TILE_FULL => empty = false,
                    _ => return Region::Mixed,
                }
                if !empty && !full {
                    return Region::Mixed;
                }
            }
        }
        match (empty, full) {
            (true, _) => Region::Empty,
            (false, true) => Region::Full,
            _ => Region::Mixed,
        }
    }

    /// Width of the trimmed shape, in pixels.
    pub fn width(&self) -> u32 {
        self.width
    }

    /// Height of the trimmed shape, in pixels.
    pub fn height(&self) -> u32 {
        self.height
    }

    /// Whether pixel (`x`, `y`) is shape (pixels outside are not).
    #[inline]
    pub fn get(&self, x: i64, y: i64) -> bool {
        x >= 0
            && y >= 0
            && x < i64::from(self.width)
            && y < i64::from(self.height)
            && self.bits[y as usize * self.width as usize + x as usize]
    }

    /// The shape's flags, row by row.
    pub fn bits(&self) -> &[bool] {
        &self.bits
    }

    /// Where the trimmed box's top left corner was in the picture, in pixels.
    pub fn origin(&self) -> (u32, u32) {
        self.origin
    }

    /// The flags of the shape's largest part by area, strokes thinner than `2 * radius + 1`
    /// pixels left out ([`crate::shape::parts::largest`]), row by row; made once per radius.
    pub fn main_part(&self, radius: u8) -> Arc<[bool]> {
        let mut cache = self.main.0.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((_, m)) = cache.iter().find(|(r, _)| *r == radius) {
            return m.clone();
        }
        let m: Arc<[bool]> =
            crate::shape::parts::largest(&self.bits, self.width, self.height, radius).into();
        cache.push((radius, m.clone()));
        m
    }

    /// Number of shape pixels.
    pub fn count(&self) -> usize {
        self.count
    }

    /// Share of the bounding box the shape covers, 0 to 1.
    pub fn fill(&self) -> f64 {
        self.count as f64 / (self.width as f64 * self.height as f64)
    }

    /// What was taken as the background.
    pub fn background(&self) -> Background {
        self.background
    }

    /// The threshold that was used (given or automatic).
    pub fn threshold(&self) -> u8 {
        self.threshold
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn picture(w: u32, h: u32, f: impl Fn(u32, u32) -> [u8; 4]) -> Picture {
        let rgba: Vec<u8> = (0..h)
            .flat_map(|y| (0..w).map(move |x| (x, y)))
            .flat_map(|(x, y)| f(x, y))
            .collect();
        Picture::from_rgba(w, h, &rgba).unwrap()
    }

    fn square(x: u32, y: u32) -> bool {
        (10..30).contains(&x) && (5..15).contains(&y)
    }

    #[test]
    fn dark_on_light_light_on_dark_and_colour_on_colour() {
        for (fg, bg) in [
            ([0, 0, 0], [255, 255, 255]),
            ([255, 255, 255], [0, 0, 0]),
            ([120, 70, 30], [255, 192, 203]),
        ] {
            let p = picture(40, 20, |x, y| {
                let c = if square(x, y) { fg } else { bg };
                [c[0], c[1], c[2], 255]
            });
            let f = Foreground::from_picture(&p, Cut::default()).unwrap();
            assert_eq!((f.width(), f.height(), f.count()), (20, 10, 200));
            assert_eq!(f.background(), Background::Colour(bg));
            // inverted: the frame around the square, with the square as a hole
            let f = Foreground::from_picture(
                &p,
                Cut {
                    invert: true,
                    ..Cut::default()
                },
            )
            .unwrap();
            assert_eq!((f.width(), f.height(), f.count()), (40, 20, 600));
            assert!(!f.get(15, 10));
        }
    }

    #[test]
    fn alpha_wins_and_ignores_colour_under_transparency() {
        let p = picture(40, 20, |x, y| {
            if square(x, y) {
                [255, 255, 255, 255]
            } else {
                [(x * 7) as u8, (y * 13) as u8, 0, 0]
            }
        });
        let f = Foreground::from_picture(&p, Cut::default()).unwrap();
        assert_eq!(f.background(), Background::Transparent);
        assert_eq!((f.width(), f.height(), f.count()), (20, 10, 200));
    }

    #[test]
    fn blank_pictures_have_no_shape() {
        let white = picture(10, 10, |_, _| [250, 250, 250, 255]);
        let e = Foreground::from_picture(&white, Cut::default()).unwrap_err();
        assert!(e.message.contains("all one colour"), "{e}");
        let clear = picture(10, 10, |_, y| [0, 0, 0, if y == 5 { 10 } else { 0 }]);
        let e = Foreground::from_picture(&clear, Cut::default()).unwrap_err();
        assert!(e.message.contains("transparent"), "{e}");
        let e = Foreground::from_bits(2, 2, &[false; 4]).unwrap_err();
        assert!(e.message.contains("no shape"), "{e}");
    }

    #[test]
    fn manual_threshold_moves_the_cut() {
        // a grey square (difference about 128) on white
        let p = picture(40, 20, |x, y| {
            let v = if square(x, y) { 128 } else { 255 };
            [v, v, v, 255]
        });
        let auto = Foreground::from_picture(&p, Cut::default()).unwrap();
        assert_eq!(auto.count(), 200);
        let strict = Foreground::from_picture(
            &p,
            Cut {
                threshold: Some(200),
                invert: false,
            },
        );
        assert!(strict.is_err());
    }

    #[test]
    fn regions_are_summarised_by_tiles() {
        // a 40 x 20 block with the left half shape
        let bits: Vec<bool> = (0..800).map(|i| i % 40 < 20 || i == 39).collect();
        let f = Foreground::from_bits(40, 20, &bits).unwrap();
        assert_eq!(f.region(0, 0, 16, 16), Region::Full);
        assert_eq!(f.region(24, 8, 32, 16), Region::Empty);
        assert_eq!(f.region(16, 0, 24, 8), Region::Mixed);
        assert_eq!(f.region(-4, 0, 8, 8), Region::Mixed, "partly outside");
        assert_eq!(f.region(-9, 0, -1, 8), Region::Empty);
        assert_eq!(
            f.region(32, 0, 40, 8),
            Region::Mixed,
            "one shape pixel in the tile"
        );
        assert_eq!(f.region(32, 8, 40, 20), Region::Empty);
    }

    #[test]
    fn otsu_splits_two_peaks() {
        let mut h = [0u64; 256];
        h[10] = 100;
        h[200] = 50;
        let t = otsu(&h);
        assert!((10..200).contains(&t), "{t}");
    }

    #[test]
    fn a_quarter_turn_swaps_the_sides_and_keeps_the_pixels() {
        // an L: a column 2 wide and 6 tall with a foot 5 wide at the bottom
        let (w, h) = (5u32, 6u32);
        let bits: Vec<bool> = (0..h)
            .flat_map(|y| (0..w).map(move |x| x < 2 || y == h - 1))
            .collect();
        let f = Foreground::from_bits(w, h, &bits).unwrap();
        let t = f.turned();
        assert_eq!((t.width(), t.height(), t.count()), (6, 5, f.count()));
        for y in 0..i64::from(t.height()) {
            for x in 0..i64::from(t.width()) {
                assert_eq!(t.get(x, y), f.get(i64::from(w) - 1 - y, x), "{x}, {y}");
            }
        }
        // anticlockwise: the foot (bottom) goes to the right, the column (left) to the bottom
        assert!((0..5).all(|y| t.get(5, y)));
        assert!((0..6).all(|x| t.get(x, 4) && t.get(x, 3)));
        // four turns are no turn
        assert_eq!(t.turned().turned().turned().bits(), f.bits());
        // the tiles are the turned shape's: the box holds both kinds, beyond it nothing
        assert!(matches!(t.region(0, 0, 6, 5), Region::Mixed));
        assert!(matches!(t.region(6, 0, 9, 5), Region::Empty));
    }
}
