//! Picking the subject of a photo: a magic wand. The user points at the subject (and, if the
//! wand takes too much, at the background); the subject is the pixels whose colour is like the
//! colour under a subject point, and closer to it than to the colour under any background
//! point, joined to a subject point. [`select`] turns a picture and a [`Pick`] into the shape's
//! [`Foreground`], so the command line, a book and the editor cut the same shape from a saved
//! design.
//!
//! The steps, on the picture as decoded (at most [`super::decode::MAX_PICTURE_SIDE`] a side):
//!
//! 1. the colour of each point is the mean of the opaque pixels in a small square around it
//!    (1/100 of the picture's shorter side across), so a point on a noisy pixel still picks
//!    the colour of its surroundings;
//! 2. a pixel is *like* the subject when its RGB distance to the nearest subject colour (black
//!    to white is 1) is at most the tolerance, and smaller than its distance to every background
//!    colour; transparent pixels never are;
//! 3. a morphological closing (imageproc, radius 1/200 of the shorter side, 1 to 6 pixels) fills
//!    the specks that texture and JPEG noise leave in the subject;
//! 4. the connected parts (imageproc's connected components, 8-connected) that hold a subject
//!    point are kept;
//! 5. holes smaller than 2 % of the subject's area are filled (counters, and the gap between a
//!    cat's legs, stay holes).
//!
//! Points are given as shares of the picture's width and height (0 to 1, from the top left), so
//! a design keeps its pick whatever size the picture is decoded at.

use image::{GrayImage, Luma};
use imageproc::distance_transform::Norm;
use imageproc::region_labelling::{Connectivity, connected_components};
use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::shape::decode::Picture;
use crate::shape::foreground::Foreground;

/// The tolerance a pick starts with.
pub const DEFAULT_TOLERANCE: f64 = 0.2;
/// Holes in the subject smaller than this share of its area are filled.
pub const HOLE_SHARE: f64 = 0.02;
/// The most points a pick may hold (subject and background together).
pub const MAX_POINTS: usize = 64;

fn default_tolerance() -> f64 {
    DEFAULT_TOLERANCE
}

/// Where the user pointed: the design's `[pick]` table.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Pick {
    /// Points on the subject, `[x, y]` as shares of the picture's width and height (0 to 1,
    /// from the top left). At least one.
    pub subject: Vec<[f64; 2]>,
    /// Points on the background (may be none): colours like theirs are not the subject.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub background: Vec<[f64; 2]>,
    /// How far (RGB distance, black to white is 1) a colour may be from a subject point's
    /// colour and still be the subject, above 0 and at most 1.
    #[serde(default = "default_tolerance")]
    pub tolerance: f64,
}

impl Pick {
    /// A pick of one subject point with the default tolerance.
    pub fn at(x: f64, y: f64) -> Pick {
        Pick {
            subject: vec![[x, y]],
            background: Vec::new(),
            tolerance: DEFAULT_TOLERANCE,
        }
    }

    /// Checks the points and the tolerance (one line naming what is wrong).
    pub fn check(&self) -> Result<()> {
        if self.subject.is_empty() {
            return Err(Error::option(
                "pick: give at least one point on the subject (subject = [[x, y]])",
            ));
        }
        if self.subject.len() + self.background.len() > MAX_POINTS {
            return Err(Error::option(format!(
                "pick: at most {MAX_POINTS} points, got {}",
                self.subject.len() + self.background.len()
            )));
        }
        for p in self.subject.iter().chain(&self.background) {
            if !p.iter().all(|v| (0.0..=1.0).contains(v)) {
                return Err(Error::option(format!(
                    "pick: points are shares of the picture's width and height, 0 to 1; got \
                     [{}, {}]",
                    p[0], p[1]
                )));
            }
        }
        if !(self.tolerance > 0.0 && self.tolerance <= 1.0) {
            return Err(Error::option(format!(
                "pick: tolerance must be above 0 and at most 1, got {}",
                self.tolerance
            )));
        }
        Ok(())
    }
}

/// The pixel under the point `p` (shares of the width and height) of a `w` x `h` picture.
pub fn pixel_of(p: [f64; 2], w: u32, h: u32) -> (u32, u32) {
    let at = |v: f64, n: u32| ((v * f64::from(n)) as u32).min(n - 1);
    (at(p[0], w), at(p[1], h))
}

/// The mean colour of the opaque pixels within `r` of pixel (`x`, `y`); `None` when all are
/// transparent.
fn colour_at(picture: &Picture, (x, y): (u32, u32), r: u32) -> Option<[f64; 3]> {
    let (mut sum, mut n) = ([0.0; 3], 0u32);
    for yy in y.saturating_sub(r)..=(y + r).min(picture.height() - 1) {
        for xx in x.saturating_sub(r)..=(x + r).min(picture.width() - 1) {
            let c = picture.pixel(xx, yy);
            if c[3] >= 128 {
                for i in 0..3 {
                    sum[i] += f64::from(c[i]);
                }
                n += 1;
            }
        }
    }
    (n > 0).then(|| sum.map(|s| s / f64::from(n)))
}

/// Squared RGB distance, scaled so black to white is 1.
fn distance2(c: &[u8], r: &[f64; 3]) -> f64 {
    let d: f64 = (0..3).map(|i| (f64::from(c[i]) - r[i]).powi(2)).sum();
    d / (3.0 * 255.0 * 255.0)
}

/// The subject `pick` selects in `picture` (see the module documentation), trimmed as every
/// shape is. An error when a subject point is on a transparent pixel or nothing is selected.
pub fn select(picture: &Picture, pick: &Pick) -> Result<Foreground> {
    let bits = selection(picture, pick)?;
    Ok(
        Foreground::from_bits(picture.width(), picture.height(), &bits)?
            .drawing_text(picture.has_text()),
    )
}

/// [`select`]'s pixels, row by row over the whole picture (not trimmed).
pub fn selection(picture: &Picture, pick: &Pick) -> Result<Vec<bool>> {
    pick.check()?;
    let (w, h) = (picture.width(), picture.height());
    let short = w.min(h);
    let r = (short / 200).max(1);
    let colours = |points: &[[f64; 2]]| -> Vec<([f64; 3], (u32, u32))> {
        points
            .iter()
            .filter_map(|&p| {
                let at = pixel_of(p, w, h);
                colour_at(picture, at, r).map(|c| (c, at))
            })
            .collect()
    };
    let subject = colours(&pick.subject);
    if subject.is_empty() {
        return Err(Error::input(
            "pick: the subject points are on transparent pixels; point at the subject",
        ));
    }
    let background = colours(&pick.background);
    let tol2 = pick.tolerance * pick.tolerance;
    let like = GrayImage::from_fn(w, h, |x, y| {
        let c = picture.pixel(x, y);
        if c[3] < 128 {
            return Luma([0]);
        }
        let near = |cs: &[([f64; 3], (u32, u32))]| {
            cs.iter()
                .map(|(r, _)| distance2(&c, r))
                .fold(f64::INFINITY, f64::min)
        };
        let d = near(&subject);
        Luma([if d <= tol2 && d < near(&background) {
            255
        } else {
            0
        }])
    });
    let radius = (short / 200).clamp(1, 6) as u8;
    let closed = imageproc::morphology::close(&like, Norm::LInf, radius);
    let labels = connected_components(&closed, Connectivity::Eight, Luma([0u8]));
    let mut keep: Vec<u32> = subject
        .iter()
        .map(|&(_, (x, y))| labels.get_pixel(x, y).0[0])
        .filter(|&l| l != 0)
        .collect();
    keep.sort_unstable();
    keep.dedup();
    if keep.is_empty() {
        return Err(Error::input(format!(
            "pick: nothing is selected at tolerance {}; point at the middle of the subject or \
             raise the tolerance",
            pick.tolerance
        )));
    }
    let mut bits: Vec<bool> = labels
        .pixels()
        .map(|l| keep.binary_search(&l.0[0]).is_ok())
        .collect();
    fill_small_holes(&mut bits, w, h);
    Ok(bits)
}

/// Fills the holes of `bits` (parts of the rest not touching the picture's edge, 4-connected)
/// smaller than [`HOLE_SHARE`] of the selected area.
fn fill_small_holes(bits: &mut [bool], w: u32, h: u32) {
    let area = bits.iter().filter(|&&b| b).count();
    let rest = GrayImage::from_fn(w, h, |x, y| {
        Luma([if bits[(y * w + x) as usize] { 0 } else { 255 }])
    });
    let labels = connected_components(&rest, Connectivity::Four, Luma([0u8]));
    let n = labels.pixels().map(|l| l.0[0]).max().unwrap_or(0) as usize;
    let mut size = vec![0usize; n + 1];
    let mut edge = vec![false; n + 1];
    for (x, y, l) in labels.enumerate_pixels() {
        let l = l.0[0] as usize;
        size[l] += 1;
        edge[l] |= x == 0 || y == 0 || x + 1 == w || y + 1 == h;
    }
    let small = (HOLE_SHARE * area as f64) as usize;
    for (b, l) in bits.iter_mut().zip(labels.pixels()) {
        let l = l.0[0] as usize;
        if l != 0 && !edge[l] && size[l] < small {
            *b = true;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A cheap deterministic noise, 0..=255.
    fn noise(x: u32, y: u32) -> u8 {
        let v = x.wrapping_mul(374_761_393) ^ y.wrapping_mul(668_265_263);
        (v.wrapping_mul(1_274_126_177) >> 24) as u8
    }

    /// A photo-like picture: a plain orange ring (a disc with a hole) on grass-like noise,
    /// with a few grey specks in the subject.
    fn photo() -> Picture {
        let (w, h) = (240u32, 180u32);
        let mut rgba = Vec::new();
        for y in 0..h {
            for x in 0..w {
                let (dx, dy) = (f64::from(x) - 120.0, f64::from(y) - 90.0);
                let r = dx.hypot(dy);
                let n = noise(x, y);
                let c = if (20.0..70.0).contains(&r) {
                    if n > 250 {
                        [90, 90, 90]
                    } else {
                        [230, 130, 40]
                    }
                } else {
                    [40 + n / 3, 110 + n / 3, 30 + n / 4]
                };
                rgba.extend_from_slice(&[c[0], c[1], c[2], 255]);
            }
        }
        Picture::from_rgba(w, h, &rgba).unwrap()
    }

    #[test]
    fn the_wand_selects_the_plain_subject_on_a_textured_background() {
        let p = photo();
        assert!(crate::shape::photo::looks_like_photo(&p));
        // a point on the ring, left of the hole
        let pick = Pick::at(75.0 / 240.0, 0.5);
        let bits = selection(&p, &pick).unwrap();
        let (mut right, mut wrong) = (0, 0);
        for y in 0..180u32 {
            for x in 0..240u32 {
                let r = (f64::from(x) - 120.0).hypot(f64::from(y) - 90.0);
                let ring = (21.0..69.0).contains(&r);
                let grass = !(19.0..71.0).contains(&r);
                let on = bits[(y * 240 + x) as usize];
                right += usize::from(ring && on);
                wrong += usize::from((grass && on) || (ring && !on));
            }
        }
        assert!(right > 12_000, "{right}");
        assert_eq!(wrong, 0, "pixels wrongly picked or missed");
        // the hole stays a hole, the specks are filled
        assert!(!bits[(90 * 240 + 120) as usize]);
        let fg = select(&p, &pick).unwrap();
        assert_eq!((fg.width(), fg.height()), (139, 139));
        assert_eq!(fg.origin(), (51, 21));

        // the same pick on a picture decoded at another size selects the same share
        let mut big = Vec::new();
        for y in 0..360u32 {
            for x in 0..480u32 {
                big.extend_from_slice(&p.pixel(x / 2, y / 2));
            }
        }
        let big = Picture::from_rgba(480, 360, &big).unwrap();
        let fg2 = select(&big, &pick).unwrap();
        assert!(
            (f64::from(fg2.width()) / 2.0 - 139.0).abs() <= 2.0,
            "{}",
            fg2.width()
        );
    }

    #[test]
    fn a_subject_picked_in_a_picture_of_text_is_text() {
        // two words in an SVG: a subject picked in it keeps the picture's text flag, so its
        // parts are joined by default as they are when the picture is cut whole
        let svg = r#"<svg xmlns="http://www.w3.org/2000/svg" width="300" height="100">
            <rect width="300" height="100" fill="white"/>
            <text x="20" y="70" font-size="60" font-weight="bold">HI YO</text></svg>"#;
        let p = Picture::decode(svg.as_bytes()).unwrap();
        assert!(p.has_text());
        // a point on the H's left stem: find it on the picture's middle row
        let y = p.height() / 2;
        let x = (0..p.width()).find(|&x| p.pixel(x, y)[0] < 64).unwrap();
        let pick = Pick::at(
            (f64::from(x) + 2.0) / f64::from(p.width()),
            f64::from(y) / f64::from(p.height()),
        );
        let fg = select(&p, &pick).unwrap();
        assert!(fg.has_text());
        // the wand keeps what is connected to the point: the H alone
        assert!(fg.width() < p.width() / 4, "{}", fg.width());
        // and a photo's subject is not
        assert!(
            !select(&photo(), &Pick::at(75.0 / 240.0, 0.5))
                .unwrap()
                .has_text()
        );
    }

    #[test]
    fn background_points_and_tolerance_change_the_selection() {
        let p = photo();
        // a tolerance so wide the grass is like the ring: everything
        let mut pick = Pick::at(75.0 / 240.0, 0.5);
        pick.tolerance = 0.9;
        let all = selection(&p, &pick).unwrap();
        assert!(all.iter().all(|&b| b));
        // a point on the grass: grass colours are not the subject any more
        pick.background = vec![[0.02, 0.02]];
        let some = selection(&p, &pick).unwrap();
        let n = some.iter().filter(|&&b| b).count();
        assert!(n > 12_000 && n < 20_000, "{n}");
        // bad picks are one line each
        let e = selection(&p, &Pick::at(1.5, 0.5)).unwrap_err();
        assert!(e.message.contains("0 to 1"), "{e}");
        pick.tolerance = 0.0;
        assert!(
            selection(&p, &pick)
                .unwrap_err()
                .message
                .contains("tolerance")
        );
        let none = Pick {
            subject: Vec::new(),
            ..Pick::at(0.0, 0.0)
        };
        assert!(none.check().is_err());
    }
}
