//! Text shapes: words set in a bundled font become the picture a maze fills.
//!
//! [`svg`] sets the words as an SVG `<text>` (one line per line of the text, centred) and usvg
//! turns it into glyph outlines with the fonts of [`crate::fonts::fontdb`], which holds the bundled fonts
//! only, so a shape never depends on the fonts of the machine it is made on (the same database
//! draws the text of SVG pictures). The letters are then thickened outward, their counters cut
//! back out at the font's size (i_overlay does the union and the difference), and written as
//! one filled path, which the SVG path of [`super::decode`] draws and outlines.
//!
//! The default face is Comic Neue Bold (bold, rounded, easy for children to read; SIL Open Font
//! License 1.1, `assets/fonts/ComicNeue-LICENSE.txt`); the bold Liberation faces and DejaVu Sans
//! Bold are the alternatives ([`TextFont`]). The letters of a word are separate parts of the
//! shape: the pipeline joins them with corridors ([`super::islands::bridge`]) whatever the
//! design's islands policy says (see [`crate::design::Design::islands_policy`]).

use i_overlay::core::fill_rule::FillRule;
use i_overlay::core::overlay_rule::OverlayRule;
use i_overlay::float::simplify::SimplifyShape;
use i_overlay::float::single::SingleFloatOverlay;
use resvg::{tiny_skia, usvg};
use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};

/// The most characters a text shape may have (letters, spaces and line breaks).
pub const MAX_TEXT_CHARS: usize = 200;
/// The most lines a text shape may have.
pub const MAX_TEXT_LINES: usize = 12;

/// The face a text shape is set in. Its names (files, command line) are the kebab-case variant
/// names.
#[derive(
    Clone,
    Copy,
    Debug,
    Default,
    PartialEq,
    Eq,
    Hash,
    Serialize,
    Deserialize,
    strum::Display,
    strum::EnumString,
    strum::IntoStaticStr,
    strum::VariantArray,
)]
#[serde(rename_all = "kebab-case")]
#[strum(
    serialize_all = "kebab-case",
    parse_err_ty = Error,
    parse_err_fn = unknown_font
)]
pub enum TextFont {
    /// Comic Neue Bold: bold and rounded, for children.
    #[default]
    Rounded,
    /// Liberation Sans Bold (Arial's and Helvetica's metrics).
    Sans,
    /// Liberation Serif Bold (Times' metrics).
    Serif,
    /// Liberation Mono Bold (Courier's metrics).
    Mono,
    /// DejaVu Sans Bold: the most characters (Greek, Cyrillic, symbols).
    Dejavu,
}

fn unknown_font(s: &str) -> Error {
    use strum::VariantArray as _;
    let names: Vec<&str> = TextFont::VARIANTS.iter().map(|k| k.name()).collect();
    Error::option(format!(
        "unknown text font '{s}' (use {})",
        names.join(", ")
    ))
}

impl TextFont {
    /// The name used in files and on the command line.
    pub fn name(self) -> &'static str {
        self.into()
    }

    /// Whether this is the default face.
    pub fn is_default(&self) -> bool {
        *self == TextFont::Rounded
    }

    /// The font's family name (as SVG's `font-family` names it) and full name.
    pub fn family(self) -> &'static str {
        match self {
            TextFont::Rounded => "Comic Neue",
            TextFont::Sans => "Liberation Sans",
            TextFont::Serif => "Liberation Serif",
            TextFont::Mono => "Liberation Mono",
            TextFont::Dejavu => "DejaVu Sans",
        }
    }

    /// The bytes of the bold font file.
    fn bytes(self) -> &'static [u8] {
        use crate::fonts::FILES;
        match self {
            TextFont::Rounded => crate::fonts::COMIC_NEUE_BOLD,
            TextFont::Sans => FILES[1].1,
            TextFont::Serif => FILES[3].1,
            TextFont::Mono => FILES[5].1,
            TextFont::Dejavu => FILES[7].1,
        }
    }

    fn face(self) -> ttf_parser::Face<'static> {
        ttf_parser::Face::parse(self.bytes(), 0).expect("the bundled fonts parse")
    }
}

/// The lines of `text` (split at line breaks; a literal `\n`, as typed on a command line, is
/// one too), trimmed, empty ones left out. Invisible format characters (a zero-width joiner or
/// space, a soft hyphen, a byte order mark, direction marks: Unicode's category Cf) are left
/// out: they draw nothing, and no font of a text shape needs them.
pub fn lines(text: &str) -> Vec<String> {
    text.replace("\\n", "\n")
        .lines()
        .map(|l| {
            let visible: String = l.chars().filter(|&c| !is_format(c)).collect();
            visible.split_whitespace().collect::<Vec<_>>().join(" ")
        })
        .filter(|l| !l.is_empty())
        .collect()
}

/// Whether `c` is an invisible format character (category Cf), left out of a text shape.
fn is_format(c: char) -> bool {
    use unicode_properties::{GeneralCategory, UnicodeGeneralCategory as _};
    c.general_category() == GeneralCategory::Format
}

/// Whether `c` is a mark set over or under a letter (category M: a combining accent), which
/// draws no letter alone.
fn is_mark(c: char) -> bool {
    use unicode_properties::{GeneralCategoryGroup, UnicodeGeneralCategory as _};
    c.general_category_group() == GeneralCategoryGroup::Mark
}

/// Checks that `text` can be a shape in `font`: not empty, within [`MAX_TEXT_CHARS`] and
/// [`MAX_TEXT_LINES`], and every character in the font (one line naming those that are not,
/// and a face that has them when there is one).
pub fn check(text: &str, font: TextFont) -> Result<()> {
    let lines = lines(text);
    if lines.is_empty() {
        return Err(Error::option("the text of a text shape is empty"));
    }
    let chars: usize = lines.iter().map(|l| l.chars().count()).sum();
    if chars > MAX_TEXT_CHARS || lines.len() > MAX_TEXT_LINES {
        return Err(Error::option(format!(
            "the text of a text shape is too long ({chars} characters on {} lines; at most \
             {MAX_TEXT_CHARS} characters on {MAX_TEXT_LINES} lines)",
            lines.len()
        )));
    }
    // control characters and Unicode's noncharacters (U+FFFF, U+FDD0...) are no letters: no
    // font draws them and XML cannot carry them
    let mut unprintable: Vec<char> = Vec::new();
    for c in lines.iter().flat_map(|l| l.chars()) {
        let u = u32::from(c);
        let no_letter = c.is_control() || (0xFDD0..=0xFDEF).contains(&u) || (u & 0xFFFE) == 0xFFFE;
        if no_letter && !unprintable.contains(&c) {
            unprintable.push(c);
        }
    }
    if !unprintable.is_empty() {
        let names: Vec<String> = unprintable
            .iter()
            .map(|c| format!("U+{:04X}", u32::from(*c)))
            .collect();
        return Err(Error::option(format!(
            "the text of a text shape has characters that are no letters: {}; leave them out",
            names.join(", ")
        )));
    }
    // marks alone (a combining accent with no letter under it) draw no letter
    if lines
        .iter()
        .flat_map(|l| l.chars())
        .all(|c| c == ' ' || is_mark(c))
    {
        let mut names: Vec<String> = Vec::new();
        for c in lines.iter().flat_map(|l| l.chars()).filter(|&c| c != ' ') {
            let name = format!("U+{:04X}", u32::from(c));
            if !names.contains(&name) {
                names.push(name);
            }
        }
        return Err(Error::option(format!(
            "the text of a text shape has no printable letters, only marks that go with a \
             letter ({}); add the letters",
            names.join(", ")
        )));
    }
    let lacks = |f: TextFont| -> Vec<char> {
        let face = f.face();
        let mut out: Vec<char> = Vec::new();
        for c in lines.iter().flat_map(|l| l.chars()) {
            if c != ' ' && face.glyph_index(c).is_none() && !out.contains(&c) {
                out.push(c);
            }
        }
        out
    };
    let missing = lacks(font);
    if missing.is_empty() {
        return Ok(());
    }
    use strum::VariantArray as _;
    let other = TextFont::VARIANTS
        .iter()
        .find(|f| **f != font && lacks(**f).is_empty());
    let names: Vec<String> = missing
        .iter()
        .map(|c| format!("{c} (U+{:04X})", u32::from(*c)))
        .collect();
    Err(Error::option(format!(
        "the text font {} ({}) has no letter for {}; {}",
        font.name(),
        font.family(),
        names.join(", "),
        match other {
            Some(f) => format!("--text-font {} has them", f.name()),
            None => "no bundled font has them: leave them out".into(),
        }
    )))
}

/// Escapes `s` for XML text.
fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            c => out.push(c),
        }
    }
    out
}

/// The font size of the SVG, in its units.
const SIZE: f64 = 100.0;
/// How much every letter is thickened, outward only (and the extra space between letters):
/// the width of a stroke round the letter's outline, of which the half outside counts. It
/// makes the strokes thicker, so a name a few cells high still has corridors in every stroke,
/// and rounds the corners; the counters (the holes of A, B, e, O) keep the font's own size, so
/// the thickening never closes them.
const STROKE: f64 = 10.0;

/// `text` as an SVG picture in `font` (black on transparent, each line centred), after
/// [`check`]: one filled path, the letters' outlines grown by half of [`STROKE`] with their
/// counters cut back out at the font's size.
pub fn svg(text: &str, font: TextFont) -> Result<String> {
    let set = set(text, font)?;
    let tree = super::svg::parse(set.as_bytes())?;
    let (width, height) = (tree.size().width(), tree.size().height());
    let mut fills = Vec::new();
    let mut strokes = Vec::new();
    glyphs(tree.root(), &mut fills, &mut strokes)?;
    // the letters as the font draws them: their counters are the holes of the union
    let letters = fills.simplify_shape(FillRule::NonZero);
    let counters: Vec<Vec<[f64; 2]>> = letters
        .iter()
        .flat_map(|shape| shape.iter().skip(1).cloned())
        .collect();
    lift_marks(&letters, &mut fills, &mut strokes)?;
    fills.extend(strokes);
    let grown = fills.simplify_shape(FillRule::NonZero);
    let cut = if counters.is_empty() {
        grown
    } else {
        grown.overlay(&counters, OverlayRule::Difference, FillRule::NonZero)
    };
    let mut d = String::new();
    for contour in cut.iter().flatten() {
        for (i, p) in contour.iter().enumerate() {
            let op = if i == 0 { 'M' } else { 'L' };
            d.push_str(&format!("{op}{:.3} {:.3}", p[0], p[1]));
        }
        d.push('Z');
    }
    Ok(format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width:.1}\" height=\"{height:.1}\">\n\
         <path fill=\"black\" d=\"{d}\"/>\n</svg>\n"
    ))
}

/// A mark is a part of the letters with no hole above a part at least this many times its
/// area: the dot of i and j, the dots of ä, ö and ü (not a full stop, with nothing above it,
/// nor the dots of a colon, of one size).
const MARK_UNDER: f64 = 3.0;

/// How much a mark is thickened (the width of a stroke round it, as [`STROKE`] for the
/// letters): less than a letter, so the two dots of ë, set closer than [`STROKE`], stay two.
const MARK_STROKE: f64 = 3.0;

/// The least gap, in the SVG's units, between a mark and the letter below it once both are
/// thickened: the font sets the dots of ë closer to the e than [`STROKE`], so thickening would
/// join them into one blob.
const MARK_GAP: f64 = 3.0;

/// The furthest a mark is lifted to keep [`MARK_GAP`] (a fifth of the font size).
const MAX_LIFT: f64 = 20.0;

/// A mark found in the letters: its contours in `fills`, the stroke contours round it in
/// `strokes`, its box, and its own thinner stroke.
struct Mark {
    fill_at: Vec<usize>,
    stroke_at: Vec<usize>,
    bounds: (f64, f64, f64, f64),
    own: Vec<Vec<[f64; 2]>>,
}

/// Thickens each mark of `letters` (the letters as the font draws them, their parts from the
/// union of `fills`) by [`MARK_STROKE`] rather than [`STROKE`] (its stroke contours in
/// `strokes` replaced), and lifts the marks thickening would join to a letter until they
/// stand [`MARK_GAP`] clear of it; the marks of one letter (side by side, as on ë) move
/// together. A mark that would have to move more than [`MAX_LIFT`] stays where it is.
fn lift_marks(
    letters: &[Vec<Vec<[f64; 2]>>],
    fills: &mut [Vec<[f64; 2]>],
    strokes: &mut Vec<Vec<[f64; 2]>>,
) -> Result<()> {
    let marks = find_marks(letters, fills, strokes)?;
    if marks.is_empty() {
        return Ok(());
    }
    let in_mark = |i: usize, of: fn(&Mark) -> &Vec<usize>| marks.iter().any(|m| of(m).contains(&i));
    let body: Vec<Vec<[f64; 2]>> = (0..fills.len())
        .filter(|&i| !in_mark(i, |m| &m.fill_at))
        .map(|i| fills[i].clone())
        .chain(
            (0..strokes.len())
                .filter(|&i| !in_mark(i, |m| &m.stroke_at))
                .map(|i| strokes[i].clone()),
        )
        .collect();
    let lifts: Vec<f64> = marks.iter().map(|m| lift_of(m, fills, &body)).collect();
    // the marks of one letter: side by side (their heights overlap, a stroke or less apart)
    let together = |a: &Mark, b: &Mark| {
        let (a, b) = (a.bounds, b.bounds);
        a.1 <= b.3 && b.1 <= a.3 && (b.0 - a.2).max(a.0 - b.2) <= STROKE
    };
    let mut dropped = Vec::new();
    let mut added = Vec::new();
    for (k, m) in marks.iter().enumerate() {
        let lift = (0..marks.len())
            .filter(|&j| together(m, &marks[j]))
            .map(|j| lifts[j])
            .fold(lifts[k], f64::max);
        for &i in &m.fill_at {
            fills[i].iter_mut().for_each(|p| p[1] -= lift);
        }
        dropped.extend_from_slice(&m.stroke_at);
        added.extend(moved(&m.own, -lift));
    }
    let mut i = 0;
    strokes.retain(|_| {
        i += 1;
        !dropped.contains(&(i - 1))
    });
    strokes.extend(added);
    Ok(())
}

/// The marks of `letters` (see [`MARK_UNDER`]): the parts with no hole over a part at least
/// [`MARK_UNDER`] times their area, with their contours in `fills` and `strokes` and their
/// own [`MARK_STROKE`]-wide stroke.
fn find_marks(
    letters: &[Vec<Vec<[f64; 2]>>],
    fills: &[Vec<[f64; 2]>],
    strokes: &[Vec<[f64; 2]>],
) -> Result<Vec<Mark>> {
    let outers: Vec<(f64, (f64, f64, f64, f64))> = letters
        .iter()
        .filter_map(|s| s.first())
        .map(|c| (area(c), bounds(c)))
        .collect();
    // a part under `b` (across the same columns, its top below `b`'s middle) of `a` times
    // `area` at least
    let over_a_letter = |b: (f64, f64, f64, f64), area: f64| {
        outers.iter().any(|&(a, o)| {
            o.0 < b.2 && b.0 < o.2 && o.1 >= (b.1 + b.3) / 2.0 && a >= MARK_UNDER * area
        })
    };
    let within = |c: &[[f64; 2]], b: (f64, f64, f64, f64), grow: f64| {
        let (a0, b0, a1, b1) = bounds(c);
        a0 >= b.0 - grow && b0 >= b.1 - grow && a1 <= b.2 + grow && b1 <= b.3 + grow
    };
    let mut marks = Vec::new();
    for shape in letters {
        let [outer] = shape.as_slice() else { continue };
        let b = bounds(outer);
        if !over_a_letter(b, area(outer)) {
            continue;
        }
        let fill_at: Vec<usize> = (0..fills.len())
            .filter(|&i| within(&fills[i], b, 0.5))
            .collect();
        let stroke_at: Vec<usize> = (0..strokes.len())
            .filter(|&i| within(&strokes[i], b, STROKE / 2.0 + 1.0))
            .collect();
        let own = thin_stroke(
            &fill_at
                .iter()
                .map(|&i| fills[i].clone())
                .collect::<Vec<_>>(),
        )?;
        marks.push(Mark {
            fill_at,
            stroke_at,
            bounds: b,
            own,
        });
    }
    Ok(marks)
}

/// How far `m` must be lifted to stand [`MARK_GAP`] clear of the letters' contours `body`
/// (0 when it would have to move more than [`MAX_LIFT`]).
fn lift_of(m: &Mark, fills: &[Vec<[f64; 2]>], body: &[Vec<[f64; 2]>]) -> f64 {
    // the letters' contours it could meet on its way up (the overlays stay small on a long
    // text)
    let (x0, y0, x1, y1) = m.bounds;
    let reach = STROKE + MARK_GAP + MAX_LIFT;
    let near: Vec<Vec<[f64; 2]>> = body
        .iter()
        .filter(|c| {
            let b = bounds(c);
            b.0 < x1 + STROKE && x0 - STROKE < b.2 && b.1 < y1 + reach && y0 - reach < b.3
        })
        .cloned()
        .collect();
    let set: Vec<Vec<[f64; 2]>> = m
        .fill_at
        .iter()
        .map(|&i| fills[i].clone())
        .chain(m.own.iter().cloned())
        .collect();
    let touches = |dy: f64| {
        !moved(&set, dy)
            .overlay(&near, OverlayRule::Intersect, FillRule::NonZero)
            .is_empty()
    };
    // clear when even MARK_GAP lower it would not touch
    (0..=MAX_LIFT as u32)
        .map(f64::from)
        .find(|&t| !touches(MARK_GAP - t))
        .unwrap_or(0.0)
}

/// `contours` moved down by `dy`.
fn moved(contours: &[Vec<[f64; 2]>], dy: f64) -> Vec<Vec<[f64; 2]>> {
    contours
        .iter()
        .map(|c| c.iter().map(|p| [p[0], p[1] + dy]).collect())
        .collect()
}

/// The contours of a [`MARK_STROKE`]-wide round stroke along `contours`.
fn thin_stroke(contours: &[Vec<[f64; 2]>]) -> Result<Vec<Vec<[f64; 2]>>> {
    let mut b = tiny_skia::PathBuilder::new();
    for c in contours {
        let Some((first, rest)) = c.split_first() else {
            continue;
        };
        b.move_to(first[0] as f32, first[1] as f32);
        for p in rest {
            b.line_to(p[0] as f32, p[1] as f32);
        }
        b.close();
    }
    let Some(path) = b.finish() else {
        return Ok(Vec::new());
    };
    let stroke = tiny_skia::Stroke {
        width: MARK_STROKE as f32,
        line_join: tiny_skia::LineJoin::Round,
        line_cap: tiny_skia::LineCap::Round,
        ..Default::default()
    };
    let failed = || Error::option("the dots of this text could not be outlined");
    let outline = path.stroke(&stroke, 4.0).ok_or_else(failed)?;
    let ring = super::vector::flatten(outline).ok_or_else(failed)?;
    Ok(ring
        .simplify_shape(FillRule::NonZero)
        .into_iter()
        .flatten()
        .collect())
}

/// The area of a closed contour.
fn area(c: &[[f64; 2]]) -> f64 {
    let n = c.len();
    ((0..n)
        .map(|i| c[i][0] * c[(i + 1) % n][1] - c[(i + 1) % n][0] * c[i][1])
        .sum::<f64>()
        / 2.0)
        .abs()
}

/// `path`'s subpaths, each a path of its own.
fn subpaths(path: &tiny_skia::Path) -> Vec<tiny_skia::Path> {
    let mut out = Vec::new();
    let mut b = tiny_skia::PathBuilder::new();
    for seg in path.segments() {
        match seg {
            tiny_skia::PathSegment::MoveTo(p) => {
                if let Some(done) = std::mem::take(&mut b).finish() {
                    out.push(done);
                }
                b.move_to(p.x, p.y);
            }
            tiny_skia::PathSegment::LineTo(p) => b.line_to(p.x, p.y),
            tiny_skia::PathSegment::QuadTo(c, p) => b.quad_to(c.x, c.y, p.x, p.y),
            tiny_skia::PathSegment::CubicTo(c1, c2, p) => {
                b.cubic_to(c1.x, c1.y, c2.x, c2.y, p.x, p.y)
            }
            tiny_skia::PathSegment::Close => b.close(),
        }
    }
    if let Some(done) = b.finish() {
        out.push(done);
    }
    out
}

/// The box of a contour: least x and y, greatest x and y.
fn bounds(c: &[[f64; 2]]) -> (f64, f64, f64, f64) {
    c.iter().fold(
        (f64::MAX, f64::MAX, f64::MIN, f64::MIN),
        |(a, b, c, d), p| (a.min(p[0]), b.min(p[1]), c.max(p[0]), d.max(p[1])),
    )
}

/// Adds the outline of every glyph under `g` to `fills` (closed polylines in the SVG's units)
/// and the outline of a [`STROKE`]-wide round-joined stroke along it to `strokes`.
fn glyphs(
    g: &usvg::Group,
    fills: &mut Vec<Vec<[f64; 2]>>,
    strokes: &mut Vec<Vec<[f64; 2]>>,
) -> Result<()> {
    let failed =
        || Error::option("the letters of this text could not be outlined: try another --text-font");
    for node in g.children() {
        match node {
            usvg::Node::Group(c) => glyphs(c, fills, strokes)?,
            usvg::Node::Text(t) => glyphs(t.flattened(), fills, strokes)?,
            usvg::Node::Image(_) => {}
            usvg::Node::Path(p) => {
                let data = p
                    .data()
                    .clone()
                    .transform(p.abs_transform())
                    .ok_or_else(failed)?;
                let stroke = tiny_skia::Stroke {
                    width: STROKE as f32,
                    line_join: tiny_skia::LineJoin::Round,
                    line_cap: tiny_skia::LineCap::Round,
                    ..Default::default()
                };
                // each resolved on its own (a stroke's inner edge winds against the glyph's),
                // into contours a non-zero union of them all unites; each subpath's stroke on
                // its own, so a mark's stroke stays apart from its letter's ([`lift_marks`])
                for sub in subpaths(&data) {
                    let outline = sub.stroke(&stroke, 4.0).ok_or_else(failed)?;
                    let ring = super::vector::flatten(outline).ok_or_else(failed)?;
                    strokes.extend(ring.simplify_shape(FillRule::NonZero).into_iter().flatten());
                }
                let fill = super::vector::flatten(data).ok_or_else(failed)?;
                fills.extend(fill.simplify_shape(FillRule::NonZero).into_iter().flatten());
            }
        }
    }
    Ok(())
}

/// `text` as an SVG `<text>` in `font`, one `<text>` a line, centred, [`STROKE`] apart
/// between letters, after [`check`].
fn set(text: &str, font: TextFont) -> Result<String> {
    check(text, font)?;
    let lines = lines(text);
    let face = font.face();
    let em = f64::from(face.units_per_em());
    let advance = |c: char| {
        face.glyph_index(c)
            .and_then(|g| face.glyph_hor_advance(g))
            .map_or(0.5, |a| f64::from(a) / em)
    };
    let widest = lines
        .iter()
        .map(|l| l.chars().map(advance).sum::<f64>() * SIZE + STROKE * l.chars().count() as f64)
        .fold(0.0, f64::max);
    let ascent = f64::from(face.ascender()) / em * SIZE;
    let descent = -f64::from(face.descender()) / em * SIZE;
    // lines a little closer than the font's own spacing: the letters of two lines stay apart
    // and the corridors joining the lines stay short
    let step = (ascent + descent) * 1.05;
    let margin = SIZE * 0.5;
    let width = widest + 2.0 * margin;
    let height = step * lines.len() as f64 + 2.0 * margin;
    let mut out = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width:.1}\" height=\"{height:.1}\">\n"
    );
    for (i, line) in lines.iter().enumerate() {
        out.push_str(&format!(
            "<text x=\"{:.1}\" y=\"{:.1}\" font-family=\"{}\" font-weight=\"bold\" \
             font-size=\"{SIZE}\" text-anchor=\"middle\" xml:space=\"preserve\" \
             letter-spacing=\"{STROKE}\">{}</text>\n",
            width / 2.0,
            margin + ascent + step * i as f64,
            font.family(),
            escape(line)
        ));
    }
    out.push_str("</svg>\n");
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shape::{Cut, Foreground, Picture};

    #[test]
    fn every_text_font_is_in_the_database() {
        let db = crate::fonts::fontdb();
        use strum::VariantArray as _;
        for f in TextFont::VARIANTS {
            let q = usvg::fontdb::Query {
                families: &[usvg::fontdb::Family::Name(f.family())],
                weight: usvg::fontdb::Weight::BOLD,
                ..Default::default()
            };
            let id = db.query(&q).unwrap_or_else(|| panic!("{f}"));
            let face = db.face(id).unwrap();
            assert!(face.weight.0 >= 700, "{f}: {:?}", face.weight);
        }
        assert_eq!("dejavu".parse::<TextFont>().unwrap(), TextFont::Dejavu);
        let e = "comic".parse::<TextFont>().unwrap_err();
        assert!(
            e.message.contains("rounded, sans, serif, mono, dejavu"),
            "{e}"
        );
    }

    #[test]
    fn lines_split_at_breaks_typed_or_escaped() {
        assert_eq!(lines("EMMA"), vec!["EMMA"]);
        assert_eq!(lines(" Emma\\nand  Leo \n\n"), vec!["Emma", "and Leo"]);
        assert!(lines(" \n ").is_empty());
    }

    #[test]
    fn missing_letters_are_named_in_one_line() {
        let e = check("Hi Жук", TextFont::Rounded).unwrap_err();
        assert!(
            e.message.contains("Ж (U+0416), у (U+0443), к (U+043A)"),
            "{e}"
        );
        assert!(e.message.contains("--text-font sans has them"), "{e}");
        assert!(!e.message.contains('\n'));
        let e = check("cake 🎂", TextFont::Rounded).unwrap_err();
        assert!(e.message.contains("no bundled font has them"), "{e}");
        assert!(check("Zoë", TextFont::Rounded).is_ok());
        assert!(check("", TextFont::Rounded).is_err());
        assert!(check(&"A".repeat(MAX_TEXT_CHARS + 1), TextFont::Rounded).is_err());
    }

    #[test]
    fn a_word_draws_as_separate_letters_with_holes() {
        let svg = svg("OO", TextFont::Rounded).unwrap();
        let p = Picture::decode(svg.as_bytes()).unwrap();
        let fg = Foreground::from_picture(&p, Cut::default()).unwrap();
        // wider than tall, and the middle of each O is a hole: the middle row crosses the shape
        // four times
        assert!(fg.width() > fg.height(), "{}x{}", fg.width(), fg.height());
        let y = fg.height() / 2;
        let mut runs = 0;
        let mut inside = false;
        for x in 0..fg.width() {
            let on = fg.get(i64::from(x), i64::from(y));
            if on && !inside {
                runs += 1;
            }
            inside = on;
        }
        assert_eq!(runs, 4);
    }

    /// The parts (outer contours with their holes) of a text shape's path.
    fn parts(svg: &str) -> Vec<Vec<Vec<[f64; 2]>>> {
        let d = svg.split("d=\"").nth(1).unwrap().split('"').next().unwrap();
        let mut contours: Vec<Vec<[f64; 2]>> = Vec::new();
        for c in d.split('Z').filter(|c| !c.is_empty()) {
            let points = c
                .split(['M', 'L'])
                .filter(|p| !p.is_empty())
                .map(|p| {
                    let mut xy = p.split(' ').map(|v| v.parse::<f64>().unwrap());
                    [xy.next().unwrap(), xy.next().unwrap()]
                })
                .collect();
            contours.push(points);
        }
        contours.simplify_shape(FillRule::NonZero)
    }

    #[test]
    fn the_dots_over_letters_stay_apart_from_them_and_from_each_other() {
        // the font sets the dots of ë closer to the e, and to each other, than the letters
        // are thickened: before, ë was one part and i one part
        for (text, n) in [("ë", 3), ("i", 2), ("ö", 3), ("Zoë", 5), ("Emma", 4)] {
            let found = parts(&svg(text, TextFont::Rounded).unwrap());
            assert_eq!(found.len(), n, "{text}");
        }
        // the two dots of ë level, and clear of the e by MARK_GAP at least
        let found = parts(&svg("ë", TextFont::Rounded).unwrap());
        let mut boxes: Vec<_> = found.iter().map(|p| bounds(&p[0])).collect();
        boxes.sort_by(|a, b| (a.3 - a.1).total_cmp(&(b.3 - b.1)));
        let (d1, d2, e) = (boxes[0], boxes[1], boxes[2]);
        assert!((d1.3 - d2.3).abs() < 0.5, "level: {d1:?} {d2:?}");
        assert!(d1.3 + MARK_GAP <= e.1 + 0.25, "clear: {d1:?} over {e:?}");
        // thinner than a letter's stroke: each dot narrower than the e's thickening
        assert!(d1.2 - d1.0 < e.2 - e.0);
    }
}
