//! What makes a cover the book's own (see [`super::cover`]): its colours ([`Palette`], with the
//! contrast its texts need), an age badge on the front ([`front_badge`]), and the lower back
//! beside the barcode area: a logo and the badge again ([`lower_back`]). The book's own artwork
//! on the front is drawn by the cover itself, in place of the cards.

use super::fit_text::{LEADING_EM, fit_lines};
use super::font;
use super::model::{Anchor, Area, Item, Layer, Path, PathBuilder, Pos, Rgb, Seg, Shape, Text};
use super::picture::{self, Art};
use crate::page::{MM_PER_INCH, Typeface};

/// The colour of the cover's ground, when the book gives none (`background`).
const GROUND: Rgb = Rgb(28, 92, 70);
/// The cards' shadows on that ground: the ground, darker.
const SHADOW: Rgb = Rgb(17, 62, 47);
/// The title's colour, when the book gives none (`text_colour`).
const TITLE_INK: Rgb = Rgb(255, 214, 92);
/// The other lines' colour, when the book gives none.
const TEXT_INK: Rgb = Rgb(255, 255, 255);
/// A rectangle with corners rounded to radius `r`.
pub(super) fn rounded(a: &Area, r: f64) -> Path {
    let r = r.min(a.w / 2.0).min(a.h / 2.0);
    // the circle's Bézier handle
    let k = r * 0.552_284_75;
    let (x0, y0, x1, y1) = (a.x, a.y, a.x + a.w, a.y + a.h);
    let mut b = PathBuilder::default();
    b.move_to(Pos::new(x0 + r, y0));
    b.line_to(Pos::new(x1 - r, y0));
    b.cubic_to(
        Pos::new(x1 - r + k, y0),
        Pos::new(x1, y0 + r - k),
        Pos::new(x1, y0 + r),
    );
    b.line_to(Pos::new(x1, y1 - r));
    b.cubic_to(
        Pos::new(x1, y1 - r + k),
        Pos::new(x1 - r + k, y1),
        Pos::new(x1 - r, y1),
    );
    b.line_to(Pos::new(x0 + r, y1));
    b.cubic_to(
        Pos::new(x0 + r - k, y1),
        Pos::new(x0, y1 - r + k),
        Pos::new(x0, y1 - r),
    );
    b.line_to(Pos::new(x0, y0 + r));
    b.cubic_to(
        Pos::new(x0, y0 + r - k),
        Pos::new(x0 + r - k, y0),
        Pos::new(x0 + r, y0),
    );
    b.segs.push(Seg::Close);
    b.finish()
}

/// The least contrast between a cover's text and its ground (WCAG 2's ratio for normal text).
pub const MIN_CONTRAST: f64 = 4.5;

/// The most characters of a badge's text.
pub const BADGE_MAX_CHARS: usize = 20;

/// The badge on the front at its largest, across, in millimetres (1.5 in).
const BADGE_MM: f64 = 1.5 * MM_PER_INCH;
/// The badge's text at its largest.
const BADGE_TEXT_MM: f64 = 26.0 * super::layout::PT;

/// A cover's colours: its ground, its title, its other texts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Palette {
    /// The ground over the whole wrap, bleed included.
    pub ground: Rgb,
    /// The title's colour (front, back and the badge's disc).
    pub title: Rgb,
    /// The other texts' colour.
    pub text: Rgb,
}

impl Palette {
    /// The cover's colours when the book gives none: a dark green ground, a yellow title, white
    /// lines.
    pub const DEFAULT: Palette = Palette {
        ground: GROUND,
        title: TITLE_INK,
        text: TEXT_INK,
    };

    /// The book's `background` and `text_colour` (every text in it), each in place of the
    /// default's.
    pub fn new(background: Option<Rgb>, text: Option<Rgb>) -> Palette {
        let d = Palette::DEFAULT;
        Palette {
            ground: background.unwrap_or(d.ground),
            title: text.unwrap_or(d.title),
            text: text.unwrap_or(d.text),
        }
    }

    /// The cards' shadows: the ground, darker (by a third).
    pub fn shadow(&self) -> Rgb {
        if self.ground == GROUND {
            return SHADOW;
        }
        let d = |c: u8| (u16::from(c) * 2 / 3) as u8;
        Rgb(d(self.ground.0), d(self.ground.1), d(self.ground.2))
    }

    /// The lower of the title's and the other texts' contrast with the ground.
    pub fn contrast(&self) -> f64 {
        contrast(self.title, self.ground).min(contrast(self.text, self.ground))
    }
}

/// A colour written `#RRGGBB` (six hex digits, either case); `None` for anything else.
pub fn parse_hex(s: &str) -> Option<Rgb> {
    let hex = s.strip_prefix('#')?;
    if hex.len() != 6 || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    let at = |i: usize| u8::from_str_radix(&hex[i..i + 2], 16).ok();
    Some(Rgb(at(0)?, at(2)?, at(4)?))
}

/// The colour as `#rrggbb`.
pub fn hex(c: Rgb) -> String {
    format!("#{:02x}{:02x}{:02x}", c.0, c.1, c.2)
}

/// WCAG 2's relative luminance of an sRGB colour, 0 (black) to 1 (white).
fn luminance(c: Rgb) -> f64 {
    let lin = |v: u8| {
        let v = f64::from(v) / 255.0;
        if v <= 0.04045 {
            v / 12.92
        } else {
            ((v + 0.055) / 1.055).powf(2.4)
        }
    };
    0.2126 * lin(c.0) + 0.7152 * lin(c.1) + 0.0722 * lin(c.2)
}

/// WCAG 2's contrast ratio of two colours: 1 (the same) to 21 (black on white).
pub fn contrast(a: Rgb, b: Rgb) -> f64 {
    let (la, lb) = (luminance(a), luminance(b));
    (la.max(lb) + 0.05) / (la.min(lb) + 0.05)
}

/// A round badge `d` across centred on `centre`: a disc in the title's colour, a ring of the
/// ground inside its edge, and `label` in the ground's colour, bold, fitted inside the ring
/// (on as many lines as it takes, smaller until they fit). On [`Layer::Markers`], text and all.
fn badge(label: &str, centre: Pos, d: f64, p: &Palette, face: Typeface, items: &mut Vec<Item>) {
    let r = d / 2.0;
    let square = |r: f64| Area {
        x: centre.x - r,
        y: centre.y - r,
        w: 2.0 * r,
        h: 2.0 * r,
    };
    items.push(Item {
        layer: Layer::Markers,
        shape: Shape::Fill {
            path: rounded(&square(r), r),
            color: p.title,
        },
    });
    items.push(Item {
        layer: Layer::Markers,
        shape: Shape::Stroke {
            path: rounded(&square(r * 0.88), r * 0.88),
            width: d * 0.02,
            color: p.ground,
        },
    });
    // the lines within the square inside the ring: 0.6 of the disc across and high
    let room = d * 0.6;
    let label = super::printable(label.trim());
    let mut max = BADGE_TEXT_MM.min(d * 0.3);
    let (lines, size) = loop {
        let f = fit_lines(&label, face, true, max, max * 0.75, room);
        let high = (f.lines.len() as f64 - 1.0) * LEADING_EM * f.size
            + (font::CAP_HEIGHT_EM + font::DESCENT_EM) * f.size;
        let wide = f
            .lines
            .iter()
            .map(|l| font::font(face, true).width(l, f.size))
            .fold(0.0, f64::max);
        if (high <= room && wide <= room) || max < 0.5 {
            break (f.lines, f.size);
        }
        max *= 0.9;
    };
    let n = lines.len() as f64;
    // the first baseline: the block of lines (cap height to the last descent) centred
    let mut y = centre.y
        - ((n - 1.0) * LEADING_EM * size + (font::DESCENT_EM - font::CAP_HEIGHT_EM) * size) / 2.0;
    for line in lines {
        items.push(Item {
            layer: Layer::Markers,
            shape: Shape::Text(Text {
                text: line,
                at: Pos::new(centre.x, y),
                size,
                anchor: Anchor::Middle,
                bold: true,
                face,
                color: p.ground,
                rotated: crate::draw::Rotation::Across,
            }),
        });
        y += LEADING_EM * size;
    }
}

/// The badge on the front: at the top right of the area `art` (the artwork's or the cards'),
/// over its corner as a sticker is, inside the front's safe area `safe`.
pub(super) fn front_badge(
    label: &str,
    p: &Palette,
    face: Typeface,
    safe: &Area,
    art: &Area,
    items: &mut Vec<Item>,
) {
    let d = (safe.w * 0.28).min(BADGE_MM).min(safe.h * 0.2);
    let y = art.y.clamp(safe.y, safe.y + safe.h - d);
    let centre = Pos::new(safe.x + safe.w - d / 2.0, y + d / 2.0);
    badge(label, centre, d, p, face, items);
}

/// The lower back (whose safe area is `back`), left of the `barcode` area and as high as it:
/// the logo at the lower left (at most half the room across), then the badge. Nothing when the
/// book gives neither.
pub(super) fn lower_back(
    back: &Area,
    barcode: &Area,
    logo: Option<&Art>,
    badge_label: Option<&str>,
    p: &Palette,
    face: Typeface,
    items: &mut Vec<Item>,
) {
    let gap = 0.25 * MM_PER_INCH;
    let strip = Area {
        x: back.x,
        y: barcode.y,
        w: (barcode.x - gap - back.x).max(0.0),
        h: barcode.h,
    };
    let mut x = strip.x;
    if let Some(logo) = logo {
        let (pw, ph) = (logo.size().0.max(1e-9), logo.size().1.max(1e-9));
        let s = (strip.h / ph).min(strip.w * 0.5 / pw);
        let (w, h) = (pw * s, ph * s);
        let at = Area {
            x,
            y: strip.y + strip.h - h,
            w,
            h,
        };
        picture::draw_art(logo, &at, Layer::Picture, items);
        x += w + gap;
    }
    if let Some(label) = badge_label {
        let d = (strip.h * 0.9).min(strip.x + strip.w - x);
        if d >= 0.5 * MM_PER_INCH {
            let centre = Pos::new(x + d / 2.0, strip.y + strip.h - d / 2.0);
            badge(label, centre, d, p, face, items);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colours_parse_strictly_and_contrast_is_wcag_s() {
        assert_eq!(parse_hex("#1c5C46"), Some(Rgb(28, 92, 70)));
        for bad in [
            "1c5c46", "#1c5c4", "#1c5c467", "#1c5c4g", "# 1c5c4", "", "#", "#ééé",
        ] {
            assert_eq!(parse_hex(bad), None, "{bad:?}");
        }
        assert_eq!(hex(Rgb(255, 214, 92)), "#ffd65c");
        assert!((contrast(Rgb::BLACK, Rgb::WHITE) - 21.0).abs() < 1e-9);
        assert!((contrast(Rgb(9, 9, 9), Rgb(9, 9, 9)) - 1.0).abs() < 1e-9);
        // the default cover's yellow title on its green: 5.6 to 1
        let d = Palette::DEFAULT;
        assert!((contrast(d.title, d.ground) - 5.63).abs() < 0.01);
        assert!(d.contrast() >= MIN_CONTRAST);
        assert_eq!(Palette::new(None, None), d);
        assert_eq!(d.shadow(), SHADOW);
        let light = Palette::new(Some(Rgb(255, 243, 196)), None);
        assert!(light.contrast() < MIN_CONTRAST);
        let fixed = Palette::new(Some(Rgb(255, 243, 196)), Some(Rgb(27, 42, 73)));
        assert!(fixed.contrast() > 10.0);
        assert_eq!(fixed.shadow(), Rgb(170, 162, 130));
    }

    #[test]
    fn a_badge_s_text_stays_inside_its_disc() {
        for label in ["Ages 4-8", "For ages 4 to 8 only", "WWWWWWWWWWWWWWWWWWWW"] {
            let mut items = Vec::new();
            let centre = Pos::new(50.0, 50.0);
            badge(
                label,
                centre,
                30.0,
                &Palette::DEFAULT,
                Typeface::Sans,
                &mut items,
            );
            let texts: Vec<_> = items
                .iter()
                .filter_map(|i| match &i.shape {
                    Shape::Text(t) => Some(t),
                    _ => None,
                })
                .collect();
            assert!(!texts.is_empty());
            let words: String = texts.iter().map(|t| t.text.as_str()).collect();
            assert_eq!(words.replace(' ', ""), label.replace(' ', ""));
            for t in texts {
                let b = t.bounds();
                // every corner of the text's box inside the ring (radius 0.88 of 15 mm)
                for (x, y) in [
                    (b.x, b.y),
                    (b.x + b.w, b.y),
                    (b.x, b.y + b.h),
                    (b.x + b.w, b.y + b.h),
                ] {
                    let r = ((x - 50.0).powi(2) + (y - 50.0).powi(2)).sqrt();
                    assert!(r < 15.0 * 0.88, "{label:?}: {:?} at {r}", t.text);
                }
                assert_eq!(t.color, Palette::DEFAULT.ground);
            }
        }
    }
}
