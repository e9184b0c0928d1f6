//! Does a picture look like a silhouette or like a photo? A silhouette (clip art, a logo, a
//! drawing) stands on a plain background: the pixels around its border are nearly all one
//! colour, or transparent. A photo's border is the scene: grass, carpet, sky with clouds. The
//! test is on the border only, so it is cheap and does not depend on the threshold.

use crate::shape::decode::Picture;

/// How far (RGB distance, 0 to 255) a border pixel may be from the border's median colour and
/// still count as background.
pub const PLAIN_DISTANCE: u32 = 24;
/// The largest share of border pixels that may differ from the median colour for the
/// background to count as plain.
pub const PLAIN_SHARE: f64 = 0.2;

/// The share of `p`'s opaque border pixels (a band 1/50 of the picture deep) further than
/// [`PLAIN_DISTANCE`] from the border's median colour; or, when those pixels are themselves
/// plain (at most [`PLAIN_SHARE`] of them far from their own median: a silhouette that runs off
/// the edge of its picture puts its own flat colour in the border), the share far from both
/// colours. 0 when the border is mostly transparent.
pub fn border_variation(p: &Picture) -> f64 {
    let (w, h) = (p.width(), p.height());
    let band = (w.min(h) / 50).max(1);
    let mut px = Vec::new();
    let mut transparent = 0usize;
    for y in 0..h {
        for x in 0..w {
            if x >= band && x + band < w && y >= band && y + band < h {
                continue;
            }
            let c = p.pixel(x, y);
            if c[3] < 128 {
                transparent += 1;
            } else {
                px.push([c[0], c[1], c[2]]);
            }
        }
    }
    if px.is_empty() || transparent >= px.len() {
        return 0.0;
    }
    let first = median(&px);
    let far: Vec<[u8; 3]> = px.iter().copied().filter(|c| apart(c, &first)).collect();
    if far.is_empty() {
        return 0.0;
    }
    let second = median(&far);
    let rest = far.iter().filter(|c| apart(c, &second)).count();
    // the second colour counts only when it is itself plain (by the background's own rule)
    let share = |n: usize| n as f64 / px.len() as f64;
    if rest as f64 <= PLAIN_SHARE * far.len() as f64 {
        share(rest)
    } else {
        share(far.len())
    }
}

/// The median of each channel of `px` (not empty).
fn median(px: &[[u8; 3]]) -> [u8; 3] {
    let mut m = [0u8; 3];
    for (ch, m) in m.iter_mut().enumerate() {
        let mut v: Vec<u8> = px.iter().map(|c| c[ch]).collect();
        v.sort_unstable();
        *m = v[v.len() / 2];
    }
    m
}

/// Whether `a` and `b` are further apart than [`PLAIN_DISTANCE`] (the distance scaled so that
/// black to white is 255 is sqrt(d2 / 3)).
fn apart(a: &[u8; 3], b: &[u8; 3]) -> bool {
    let d2: u32 = (0..3)
        .map(|i| (u32::from(a[i]).abs_diff(u32::from(b[i]))).pow(2))
        .sum();
    d2 > 3 * PLAIN_DISTANCE * PLAIN_DISTANCE
}

/// Whether `p` looks like a photo rather than a silhouette on a plain background.
pub fn looks_like_photo(p: &Picture) -> bool {
    border_variation(p) > PLAIN_SHARE
}

/// The one line a photo gets.
pub const PHOTO_MESSAGE: &str = "this looks like a photo (its background is not plain): use a \
     picture with a plain background, or pick its subject (the editor's Pick the subject window; \
     on the command line, --force cuts it anyway)";

#[cfg(test)]
mod tests {
    use super::*;

    fn picture(w: u32, h: u32, f: impl Fn(u32, u32) -> [u8; 4]) -> Picture {
        let mut rgba = Vec::new();
        for y in 0..h {
            for x in 0..w {
                rgba.extend_from_slice(&f(x, y));
            }
        }
        Picture::from_rgba(w, h, &rgba).unwrap()
    }

    /// A cheap deterministic noise, 0..=255.
    fn noise(x: u32, y: u32) -> u8 {
        let v = x.wrapping_mul(374_761_393) ^ y.wrapping_mul(668_265_263);
        (v.wrapping_mul(1_274_126_177) >> 24) as u8
    }

    #[test]
    fn a_textured_background_is_a_photo_and_a_plain_one_is_not() {
        let disc = |x: u32, y: u32| {
            let (dx, dy) = (f64::from(x) - 100.0, f64::from(y) - 80.0);
            dx * dx + dy * dy < 60.0 * 60.0
        };
        // a brown cat on a grassy, noisy background
        let photo = picture(200, 160, |x, y| {
            if disc(x, y) {
                [120, 80, 40, 255]
            } else {
                let n = noise(x, y);
                [40 + n / 3, 100 + n / 2, 30 + n / 4, 255]
            }
        });
        assert!(looks_like_photo(&photo), "{}", border_variation(&photo));
        // the same on white with JPEG-like noise of a few levels
        let clip = picture(200, 160, |x, y| {
            if disc(x, y) {
                [120, 80, 40, 255]
            } else {
                let n = noise(x, y) / 40;
                [250 - n, 250 - n, 252 - n, 255]
            }
        });
        assert!(!looks_like_photo(&clip), "{}", border_variation(&clip));
        // a dark silhouette running off the left and right edges of a white picture: its own
        // flat colour is a third of the border, still plain
        let wide = picture(200, 160, |_, y| {
            if (50..110).contains(&y) {
                [46, 52, 54, 255]
            } else {
                [255, 255, 255, 255]
            }
        });
        assert!(!looks_like_photo(&wide), "{}", border_variation(&wide));
        // transparency: never a photo
        let cut_out = picture(
            200,
            160,
            |x, y| if disc(x, y) { [1, 2, 3, 255] } else { [0; 4] },
        );
        assert_eq!(border_variation(&cut_out), 0.0);
    }
}
