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
/// one too), trimmed, empty ones left out.
pub fn lines(text: &str) -> Vec<String> {
    text.replace("\\n", "\n")
        .lines()
        .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
        .filter(|l| !l.is_empty())
        .collect()
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
                let outline = data.stroke(&stroke, 4.0).ok_or_else(failed)?;
                // each resolved on its own (a stroke's inner edge winds against the glyph's),
                // into contours a non-zero union of them all unites
                let fill = super::vector::flatten(data).ok_or_else(failed)?;
                fills.extend(fill.simplify_shape(FillRule::NonZero).into_iter().flatten());
                let ring = super::vector::flatten(outline).ok_or_else(failed)?;
                strokes.extend(ring.simplify_shape(FillRule::NonZero).into_iter().flatten());
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
}
