//! The bundled fonts and how text is set in them: the typefaces of a page ([`Typeface`]) are
//! Liberation Sans, Serif and Mono, regular and bold, and a character the chosen face lacks
//! (hearts, stars, smileys, arrows...) is taken glyph by glyph from DejaVu Sans (bold for bold
//! text). A character neither has is left off the page and named in a warning
//! ([`glyph_warnings`]); nothing is ever replaced by `?`.
//!
//! Liberation's advance widths match Helvetica's, Times' and Courier's (the fonts are
//! metric-compatible with Arial, Times New Roman and Courier New, which match those), so text
//! measured here takes the room those fonts would. Every back end draws the same glyphs from
//! the same files: the PDF embeds subsets of them ([`crate::export::pdf`]), the SVG and PNG
//! draw their outlines. [`place`] is the one place glyphs are chosen and positioned.
//!
//! The fonts are free: Liberation under the SIL Open Font License 1.1 (`assets/fonts/OFL.txt`),
//! DejaVu under the Bitstream Vera licence with public-domain changes
//! (`assets/fonts/DejaVu-LICENSE.txt`). They are embedded unmodified in the binary and parsed
//! with `ttf-parser`; nothing touches the disk.

use std::sync::OnceLock;

use super::model::{Anchor, Area, Drawing, Pos, Rotation, Text};
use super::shaping;
use crate::page::Typeface;

/// The advance of a Latin-1 character the font lacks (Helvetica's digit width; Liberation has
/// every Latin-1 glyph, so this only guards against a broken file).
const FALLBACK_EM: f64 = 0.556;

use crate::fonts::FILES;

/// [`FILES`]' index of DejaVu Sans (regular; bold is the next).
const DEJAVU: usize = 6;

/// A loaded face: its bytes, units per em, the advance of every Latin-1 character, and the
/// font that supplies the characters it lacks.
pub(crate) struct Font {
    id: usize,
    bytes: &'static [u8],
    face: Option<ttf_parser::Face<'static>>,
    units_per_em: f64,
    /// Advance of chars U+0000..=U+00FF in ems.
    advance: [f64; 256],
    /// This font's own glyph of chars U+0000..=U+00FF (the text on a page is mostly these:
    /// a table spares a cmap lookup for each character measured).
    latin1: [Option<u16>; 256],
    /// The [`FILES`] index of the fallback font, if any.
    fallback: Option<usize>,
}

impl Font {
    fn load(id: usize) -> Font {
        let bytes = FILES[id].1;
        let face = ttf_parser::Face::parse(bytes, 0).ok();
        let mut advance = [FALLBACK_EM; 256];
        let mut latin1 = [None; 256];
        let mut units_per_em = 1000.0;
        if let Some(face) = &face {
            units_per_em = f64::from(face.units_per_em().max(1));
            for (code, adv) in advance.iter_mut().enumerate() {
                let c = char::from(code as u8);
                let own = face.glyph_index(c);
                latin1[code] = own.map(|g| g.0);
                let glyph = own.or_else(|| face.glyph_index('?'));
                if let Some(g) = glyph
                    && let Some(a) = face.glyph_hor_advance(g)
                {
                    *adv = f64::from(a) / units_per_em;
                }
            }
        }
        let fallback = match id {
            DEJAVU.. => None,
            _ => Some(DEJAVU + id % 2),
        };
        Font {
            id,
            bytes,
            face,
            units_per_em,
            advance,
            latin1,
            fallback,
        }
    }

    /// The font's index among the bundled files (stable: the PDF names its fonts by it).
    pub(crate) fn id(&self) -> usize {
        self.id
    }

    /// The font's PostScript name, e.g. `LiberationSans-Bold`.
    pub(crate) fn name(&self) -> &'static str {
        FILES[self.id].0
    }

    /// The font file.
    pub(crate) fn bytes(&self) -> &'static [u8] {
        self.bytes
    }

    /// The parsed face, if the embedded font parses (it does; `None` only guards against a
    /// broken file, in which case its text is left out).
    pub(crate) fn face(&self) -> Option<&ttf_parser::Face<'static>> {
        self.face.as_ref()
    }

    /// Font units per em.
    pub(crate) fn units_per_em(&self) -> f64 {
        self.units_per_em
    }

    /// The glyph of `c` in this font alone.
    pub(crate) fn own_glyph(&self, c: char) -> Option<u16> {
        if let Some(&g) = self.latin1.get(c as usize) {
            return g;
        }
        let face = self.face.as_ref()?;
        face.glyph_index(c).map(|g| g.0)
    }

    /// The advance of glyph `gid` in ems.
    pub(crate) fn glyph_advance_em(&self, gid: u16) -> f64 {
        self.face
            .as_ref()
            .and_then(|f| f.glyph_hor_advance(ttf_parser::GlyphId(gid)))
            .map_or(FALLBACK_EM, |a| f64::from(a) / self.units_per_em)
    }

    /// The font and glyph that draw `c`: this font's own, else the fallback's; `None` when
    /// no bundled font has it.
    pub(crate) fn resolve(&'static self, c: char) -> Option<(&'static Font, u16)> {
        if let Some(g) = self.own_glyph(c) {
            return Some((self, g));
        }
        let fb = by_id(self.fallback?);
        fb.own_glyph(c).map(|g| (fb, g))
    }

    /// The advance of `c` in ems as it is set: this font's (Latin-1 from a table), the
    /// fallback's, or 0 for a character no bundled font has (it is left out).
    pub(crate) fn advance_em(&'static self, c: char) -> f64 {
        let code = c as u32;
        if code < 256 && (self.face.is_none() || self.own_glyph(c).is_some()) {
            return self.advance[code as usize];
        }
        match self.resolve(c) {
            Some((f, g)) => f.glyph_advance_em(g),
            None => 0.0,
        }
    }

    /// The width of `text` set at `size` (the em size, any unit; the result is in that unit):
    /// the width of its [`visible`](Font::visible) characters.
    pub(crate) fn width(&'static self, text: &str, size: f64) -> f64 {
        let shown = self.visible(text);
        if shaping::needs_shaping(&shown) {
            return shaped_line(self, &shown, size).1;
        }
        shown.chars().map(|c| self.advance_em(c)).sum::<f64>() * size
    }

    /// What of `text` is set: without the characters no bundled font has, and without the
    /// spaces their going would leave doubled or at an end (`"a 🎂 b"` is set as `"a b"`,
    /// `"cake 🎂"` as `"cake"`). `text` itself when every character has a glyph.
    pub(crate) fn visible<'a>(&'static self, text: &'a str) -> std::borrow::Cow<'a, str> {
        if text.chars().all(|c| self.resolve(c).is_some()) {
            return text.into();
        }
        let mut out = String::with_capacity(text.len());
        let mut after_drop = false;
        for c in text.chars() {
            if self.resolve(c).is_none() {
                after_drop = true;
                continue;
            }
            if c.is_whitespace() {
                if after_drop && out.chars().last().is_none_or(char::is_whitespace) {
                    continue;
                }
            } else {
                after_drop = false;
            }
            out.push(c);
        }
        if after_drop {
            out.truncate(out.trim_end().len());
        }
        out.into()
    }
}

/// The font with [`FILES`] index `id`.
fn by_id(id: usize) -> &'static Font {
    static FONTS: [OnceLock<Font>; 8] = [const { OnceLock::new() }; 8];
    FONTS[id].get_or_init(|| Font::load(id))
}

/// The embedded Liberation font file of `face`, regular or bold (metric-compatible with the
/// PDF base-14 font of the same family).
pub fn font_bytes(face: Typeface, bold: bool) -> &'static [u8] {
    font(face, bold).bytes
}

/// The font of `face`, regular or bold.
pub(crate) fn font(face: Typeface, bold: bool) -> &'static Font {
    let i = match face {
        Typeface::Sans => 0,
        Typeface::Serif => 2,
        Typeface::Mono => 4,
    } + usize::from(bold);
    by_id(i)
}

/// One glyph of a text, placed: the font and glyph that draw it, the characters it stands for,
/// and its origin in millimetres from the text's left end on the baseline.
#[derive(Clone)]
pub(crate) struct Placed {
    /// The font the glyph comes from.
    pub font: &'static Font,
    /// The glyph in that font.
    pub gid: u16,
    /// The characters the glyph draws, as typed: one, or several for a ligature (lam-alef),
    /// or none for the second glyph of a character drawn with two.
    pub text: String,
    /// The glyph's origin, mm right of the text's left end.
    pub x: f64,
    /// The glyph's origin, mm above the baseline (a mark the shaper raised or lowered).
    pub y: f64,
}

/// The glyphs of `t` in the order they were typed (its [`Font::visible`] characters), each at
/// its place on the line, as [`Font::width`] measures it: left to right as typed, or, for a
/// line with right-to-left letters, where the Unicode bidi algorithm shows it ([`visual_order`]:
/// a Hebrew word's first letter rightmost). The width does not depend on the order. A line with
/// Arabic letters is shaped ([`shaped_line`]): its glyphs are the shaper's, joined.
pub(crate) fn place(t: &Text) -> Vec<Placed> {
    let f = font(t.face, t.bold);
    let shown = f.visible(&t.text);
    if shaping::needs_shaping(&shown) {
        return shaped_line(f, &shown, t.size).0;
    }
    let order = visual_order(&shown).unwrap_or_else(|| shown.char_indices().collect::<Vec<_>>());
    let mut x = 0.0;
    let mut out = Vec::with_capacity(order.len());
    for (i, c) in order {
        if let Some((font, gid)) = f.resolve(c) {
            let text = c.to_string();
            out.push((
                i,
                Placed {
                    font,
                    gid,
                    text,
                    x,
                    y: 0.0,
                },
            ));
        }
        x += f.advance_em(c) * t.size;
    }
    // typed order (a no-op for a line laid out as typed)
    out.sort_by_key(|&(i, _)| i);
    out.into_iter().map(|(_, g)| g).collect()
}

/// The glyphs of the line `shown` (without characters no font has) set at `size` with its
/// runs of Arabic letters shaped, in the order typed, and the line's width. The line's runs are
/// put in order by the bidi algorithm; a run with Arabic letters is shaped by harfrust
/// ([`shaping::shape`]) in the font that has them (every character of the run that font has
/// comes from it, so its spaces and punctuation match its letters), and every other run is set
/// character by character as [`place`] sets a line without Arabic.
pub(crate) fn shaped_line(f: &'static Font, shown: &str, size: f64) -> (Vec<Placed>, f64) {
    let arabic = f.resolve('\u{0628}').map(|(a, _)| a);
    let info = unicode_bidi::BidiInfo::new(shown, None);
    // (the glyph's first character's byte index, its order among that cluster's glyphs, it)
    let mut out: Vec<(usize, usize, Placed)> = Vec::with_capacity(shown.len());
    let mut x = 0.0;
    for para in &info.paragraphs {
        let (levels, runs) = info.visual_runs(para, para.range.clone());
        for run in runs {
            let rtl = levels[run.start].is_rtl();
            let s = &shown[run.clone()];
            if !shaping::needs_shaping(s) {
                let chars: Vec<(usize, char)> = s.char_indices().collect();
                let seen: Box<dyn Iterator<Item = &(usize, char)>> = if rtl {
                    Box::new(chars.iter().rev())
                } else {
                    Box::new(chars.iter())
                };
                for &(i, c) in seen {
                    let c = if rtl { mirror(c) } else { c };
                    if let Some((font, gid)) = f.resolve(c) {
                        let text = s[i..].chars().next().map(String::from).unwrap_or_default();
                        out.push((
                            run.start + i,
                            0,
                            Placed {
                                font,
                                gid,
                                text,
                                x,
                                y: 0.0,
                            },
                        ));
                    }
                    x += f.advance_em(c) * size;
                }
                continue;
            }
            // the run cut where its font changes, in the order typed
            let font_of = |c: char| match arabic {
                Some(a) if a.own_glyph(c).is_some() => Some(a),
                _ => f.resolve(c).map(|(g, _)| g),
            };
            let mut pieces: Vec<(usize, usize, &'static Font)> = Vec::new();
            for (i, c) in s.char_indices() {
                let Some(font) = font_of(c) else { continue };
                match pieces.last_mut() {
                    Some(p) if p.1 == i && p.2.id() == font.id() => p.1 = i + c.len_utf8(),
                    _ => pieces.push((i, i + c.len_utf8(), font)),
                }
            }
            if rtl {
                pieces.reverse();
            }
            for (a, b, font) in pieces {
                let piece = &s[a..b];
                let k = size / font.units_per_em();
                let glyphs = shaping::shape(font.id(), font.bytes(), piece, rtl);
                let n = glyphs.len();
                // the glyphs of each cluster, in the order typed (a right-to-left run's are
                // seen in reverse)
                let typed = |j: usize| if rtl { n - 1 - j } else { j };
                for (j, g) in glyphs.iter().enumerate() {
                    let text = cluster_text(piece, &glyphs, j, &typed);
                    let placed = Placed {
                        font,
                        gid: g.gid,
                        text,
                        x: x + f64::from(g.dx) * k,
                        y: f64::from(g.dy) * k,
                    };
                    out.push((run.start + a + g.cluster, typed(j), placed));
                    x += f64::from(g.advance) * k;
                }
            }
        }
    }
    out.sort_by_key(|&(i, j, _)| (i, j));
    (out.into_iter().map(|(_, _, g)| g).collect(), x)
}

/// The characters of `piece` that glyph `j` of `glyphs` (its shaping) stands for: its
/// cluster's characters when it is the cluster's only glyph, one each when the cluster has as
/// many glyphs as characters, else all of them on its first glyph (in the order typed) and
/// none on the others.
fn cluster_text(
    piece: &str,
    glyphs: &[shaping::Shaped],
    j: usize,
    typed: &dyn Fn(usize) -> usize,
) -> String {
    let start = glyphs[j].cluster;
    let end = glyphs
        .iter()
        .map(|g| g.cluster)
        .filter(|&c| c > start)
        .min()
        .unwrap_or(piece.len());
    let chars = piece.get(start..end).unwrap_or_default();
    let mut siblings: Vec<usize> = (0..glyphs.len())
        .filter(|&i| glyphs[i].cluster == start)
        .collect();
    if siblings.len() == 1 {
        return chars.to_string();
    }
    siblings.sort_by_key(|&i| typed(i));
    let rank = siblings.iter().position(|&i| i == j).unwrap_or(0);
    if siblings.len() == chars.chars().count() {
        return chars
            .chars()
            .nth(rank)
            .map(String::from)
            .unwrap_or_default();
    }
    if rank == 0 {
        chars.to_string()
    } else {
        String::new()
    }
}

/// Whether `text` has a character of a right-to-left script (Hebrew, Arabic...): only then
/// does its order on the page differ from its order as typed.
pub(crate) fn has_right_to_left(text: &str) -> bool {
    use unicode_bidi::BidiClass::{AL, AN, R};
    text.chars()
        .any(|c| matches!(unicode_bidi::bidi_class(c), R | AL | AN))
}

/// Whether the line `text` reads right to left as a whole: its first strong letter is of a
/// right-to-left script (the Unicode bidi algorithm's rule P2, as a line of its own).
pub fn reads_right_to_left(text: &str) -> bool {
    has_right_to_left(text)
        && unicode_bidi::BidiInfo::new(text, None)
            .paragraphs
            .first()
            .is_some_and(|p| p.level.is_rtl())
}

/// The characters of the line `text` (typed in logical order) in the order they are seen left
/// to right, each with its byte index in `text`, by the Unicode bidi algorithm (UAX #9; the
/// line's direction from its first strong letter): a Hebrew word's letters reversed, a number
/// or a Latin word inside it kept as they read, and a bracket in a right-to-left run mirrored.
/// `None` when `text` has no right-to-left letter (it is seen as typed).
pub(crate) fn visual_order(text: &str) -> Option<Vec<(usize, char)>> {
    if !has_right_to_left(text) {
        return None;
    }
    let info = unicode_bidi::BidiInfo::new(text, None);
    let mut out = Vec::with_capacity(text.len());
    for para in &info.paragraphs {
        let (levels, runs) = info.visual_runs(para, para.range.clone());
        for run in runs {
            let chars = text[run.clone()]
                .char_indices()
                .map(|(i, c)| (run.start + i, c));
            if levels[run.start].is_rtl() {
                out.extend(chars.rev().map(|(i, c)| (i, mirror(c))));
            } else {
                out.extend(chars);
            }
        }
    }
    Some(out)
}

/// The line `text` as it is seen left to right ([`visual_order`]).
#[cfg(test)]
fn visual(text: &str) -> String {
    visual_order(text).map_or_else(
        || text.to_string(),
        |o| o.into_iter().map(|(_, c)| c).collect(),
    )
}

/// The mirror image of a paired punctuation mark, as a right-to-left run shows it (Unicode's
/// Bidi_Mirroring_Glyph for the marks page text uses).
fn mirror(c: char) -> char {
    match c {
        '(' => ')',
        ')' => '(',
        '[' => ']',
        ']' => '[',
        '{' => '}',
        '}' => '{',
        '<' => '>',
        '>' => '<',
        '«' => '»',
        '»' => '«',
        '‹' => '›',
        '›' => '‹',
        _ => c,
    }
}

/// The characters of `text` that no bundled font has in `face` (the face's own font or the
/// fallback), each once, in order of appearance.
pub fn missing(text: &str, face: Typeface, bold: bool) -> Vec<char> {
    let f = font(face, bold);
    let mut out: Vec<char> = Vec::new();
    for c in text.chars() {
        if f.resolve(c).is_none() && !out.contains(&c) {
            out.push(c);
        }
    }
    out
}

/// One warning line for the characters of `pages`' texts that no bundled font has (they are
/// left off the page), or none when every character has a glyph:
/// `no bundled font has 🎂 (U+1F382) and 猫 (U+732B); they are left out of "Zoë 🎂 猫"`.
pub fn glyph_warnings<'a>(pages: impl IntoIterator<Item = &'a Drawing>) -> Vec<String> {
    let mut chars: Vec<char> = Vec::new();
    let mut texts: Vec<&str> = Vec::new();
    for page in pages {
        for t in page.texts() {
            let m = missing(&t.text, t.face, t.bold);
            if m.is_empty() {
                continue;
            }
            if !texts.contains(&t.text.as_str()) {
                texts.push(&t.text);
            }
            for c in m {
                if !chars.contains(&c) {
                    chars.push(c);
                }
            }
        }
    }
    let Some(first) = texts.first() else {
        return Vec::new();
    };
    let named: Vec<String> = chars
        .iter()
        .map(|&c| format!("{c} (U+{:04X})", c as u32))
        .collect();
    let list = match named.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        _ => named.join(""),
    };
    let pronoun = if chars.len() == 1 {
        "it is"
    } else {
        "they are"
    };
    let others = match texts.len() {
        1 => String::new(),
        2 => " and 1 other text".to_string(),
        n => format!(" and {} other texts", n - 1),
    };
    vec![format!(
        "no bundled font has {list}; {pronoun} left out of \"{first}\"{others}"
    )]
}

/// Helvetica's cap height in ems (how far capitals rise above the baseline).
pub(crate) const CAP_HEIGHT_EM: f64 = 0.718;

/// Helvetica's descender depth in ems.
pub(crate) const DESCENT_EM: f64 = 0.207;

/// Whether `c` is an invisible formatting character (zero-width spaces and joiners, direction
/// marks, variation selectors, the byte-order mark): removed, never warned about.
fn invisible(c: char) -> bool {
    matches!(c,
        '\u{200B}'..='\u{200F}'
        | '\u{202A}'..='\u{202E}'
        | '\u{2060}'..='\u{2064}'
        | '\u{FE00}'..='\u{FE0F}'
        | '\u{FEFF}'
        | '\u{E0100}'..='\u{E01EF}')
}

/// `s` without control characters and invisible formatting characters (zero-width joiners,
/// variation selectors): what a line of page text holds. Every other character is kept;
/// one no bundled font has is left off the page when drawn and named by [`glyph_warnings`].
pub fn printable(s: &str) -> String {
    s.chars()
        .filter(|&c| !c.is_control() && !invisible(c))
        .collect()
}

/// A text's measures: its bundled typeface's metrics.
impl Text {
    /// The text's width in millimetres (its typeface's metrics, the fallback's for the
    /// characters the typeface lacks).
    pub fn width(&self) -> f64 {
        font(self.face, self.bold).width(&self.text, self.size)
    }

    /// The x of the text's left end.
    pub fn left(&self) -> f64 {
        match self.anchor {
            Anchor::Start => self.at.x,
            Anchor::Middle => self.at.x - self.width() / 2.0,
            Anchor::End => self.at.x - self.width(),
        }
    }

    /// Where the pen starts on the page: the text's left end on its baseline (for a
    /// [`rotated`](Self::rotated) text, that end turned with it: its top end reading down, its
    /// bottom end reading up).
    pub fn start(&self) -> Pos {
        let along = self.left() - self.at.x;
        let (dx, dy) = self.rotated.along();
        Pos::new(self.at.x + dx * along, self.at.y + dy * along)
    }

    /// The text's box on the page: its width, from the cap height above the baseline down to
    /// the descenders below it (turned with the text when it is [`rotated`](Self::rotated)).
    pub fn bounds(&self) -> Area {
        let (cap, descent) = (CAP_HEIGHT_EM * self.size, DESCENT_EM * self.size);
        let start = self.start();
        match self.rotated {
            // the letters' tops point right: the baseline is a vertical line at x
            Rotation::Down => Area {
                x: self.at.x - descent,
                y: start.y,
                w: cap + descent,
                h: self.width(),
            },
            // the letters' tops point left, the text runs up from its start
            Rotation::Up => Area {
                x: self.at.x - cap,
                y: start.y - self.width(),
                w: cap + descent,
                h: self.width(),
            },
            Rotation::UpsideDown => Area {
                x: start.x - self.width(),
                y: self.at.y - descent,
                w: self.width(),
                h: cap + descent,
            },
            Rotation::Across => Area {
                x: self.left(),
                y: self.at.y - cap,
                w: self.width(),
                h: cap + descent,
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::draw::{Anchor, Pos, Rgb};

    #[test]
    fn helvetica_metrics_match_the_afm() {
        let helvetica = |bold| font(Typeface::Sans, bold);
        let f = helvetica(false);
        assert!(f.face().is_some(), "embedded Liberation Sans parses");
        // Helvetica AFM: space 278, A 667, W 944, 0 556
        for (c, w) in [(' ', 0.278), ('A', 0.667), ('W', 0.944), ('0', 0.556)] {
            assert!(
                (f.advance_em(c) - w).abs() < 0.002,
                "{c}: {}",
                f.advance_em(c)
            );
        }
        let b = helvetica(true);
        // Helvetica-Bold AFM: S 667, T 611
        assert!((b.advance_em('S') - 0.667).abs() < 0.002);
        assert!((b.width("ST", 10.0) - 12.78).abs() < 0.05);
    }

    #[test]
    fn times_and_courier_metrics_match_their_afms() {
        // Times-Roman AFM: space 250, A 722, W 944, 0 500; Times-Bold: S 556, T 667
        let t = font(Typeface::Serif, false);
        assert!(t.face().is_some(), "embedded Liberation Serif parses");
        for (c, w) in [(' ', 0.25), ('A', 0.722), ('W', 0.944), ('0', 0.5)] {
            assert!(
                (t.advance_em(c) - w).abs() < 0.002,
                "{c}: {}",
                t.advance_em(c)
            );
        }
        let tb = font(Typeface::Serif, true);
        assert!((tb.advance_em('S') - 0.556).abs() < 0.002);
        assert!((tb.advance_em('T') - 0.667).abs() < 0.002);
        // Courier: every character 600
        for bold in [false, true] {
            let c = font(Typeface::Mono, bold);
            assert!(c.face().is_some(), "embedded Liberation Mono parses");
            for ch in [' ', 'i', 'W', '0', 'é'] {
                assert!((c.advance_em(ch) - 0.6).abs() < 0.002, "{ch}");
            }
        }
    }

    #[test]
    fn printable_keeps_every_visible_character() {
        // control and invisible characters go; quotes, dashes and symbols stay (no '?')
        assert_eq!(
            printable("Zoë’s maze — ✓\n\u{200B}❤\u{FE0F}"),
            "Zoë’s maze — ✓❤"
        );
        assert_eq!(printable("🎂 猫"), "🎂 猫");
    }

    #[test]
    fn latin1_widths_are_the_table_widths() {
        // text in Latin-1 measures exactly as before the fallback existed
        for face in [Typeface::Sans, Typeface::Serif, Typeface::Mono] {
            for bold in [false, true] {
                let f = font(face, bold);
                for code in 0x20u8..=0xFF {
                    let c = char::from(code);
                    if c.is_control() {
                        continue;
                    }
                    assert_eq!(f.advance_em(c), f.advance[usize::from(code)], "{c}");
                    assert_eq!(f.resolve(c).map(|(g, _)| g.id()), Some(f.id()), "{c}");
                }
            }
        }
    }

    #[test]
    fn symbols_come_from_dejavu_glyph_by_glyph() {
        let sans = font(Typeface::Sans, false);
        let (f, _) = sans.resolve('★').expect("DejaVu has the star");
        assert_eq!(f.name(), "DejaVuSans");
        let (f, _) = font(Typeface::Serif, true).resolve('★').unwrap();
        assert_eq!(f.name(), "DejaVuSans-Bold");
        assert_eq!(sans.resolve('Z').unwrap().0.name(), "LiberationSans");
        // the fallback's advance counts in the width
        assert!(sans.advance_em('★') > 0.5);
        assert!(sans.width("A★", 10.0) > sans.width("A", 10.0) + 5.0);
        // a character no bundled font has takes no room
        assert_eq!(sans.advance_em('🎂'), 0.0);
        assert_eq!(sans.width("A🎂", 10.0), sans.width("A", 10.0));
        assert_eq!(
            missing("Zoë ♥ ★ → ☺ 🎂 猫 🎂", Typeface::Sans, true),
            ['🎂', '猫']
        );
    }

    #[test]
    fn dropped_characters_leave_no_double_spaces() {
        let f = font(Typeface::Sans, true);
        for (text, set) in [
            ("Zoë ★", "Zoë ★"),
            ("a 🎂 b", "a b"),
            ("a 🎂 猫 b", "a b"),
            ("🎂 cake", "cake"),
            ("cake 🎂", "cake"),
            ("cake🎂 x", "cake x"),
            ("a🎂b", "ab"),
            ("🎂", ""),
            ("kept  spaces ", "kept  spaces "),
        ] {
            assert_eq!(f.visible(text), set, "{text}");
            assert_eq!(f.width(text, 1.0), f.width(set, 1.0), "{text}");
        }
    }

    fn text(s: &str) -> Text {
        Text {
            rotated: crate::draw::Rotation::Across,
            text: s.into(),
            at: Pos::new(10.0, 20.0),
            size: 5.0,
            anchor: Anchor::Start,
            bold: true,
            face: Typeface::Sans,
            color: Rgb::BLACK,
        }
    }

    #[test]
    fn placed_glyphs_advance_by_the_measured_widths() {
        let t = text("A★🎂B");
        let p = place(&t);
        let chars: Vec<&str> = p.iter().map(|g| g.text.as_str()).collect();
        assert_eq!(chars, ["A", "★", "B"]);
        let last = p.last().unwrap();
        let f = font(Typeface::Sans, true);
        assert!((last.x - f.width("A★", 5.0)).abs() < 1e-9);
        assert!((t.width() - f.width("A★B", 5.0)).abs() < 1e-9);
    }

    #[test]
    fn right_to_left_lines_are_seen_in_bidi_order() {
        // a Latin line is as typed, and costs no bidi pass
        assert!(visual_order("Puzzle 3 (Zoë)").is_none());
        assert_eq!(visual("Puzzle 3"), "Puzzle 3");
        // a Hebrew word's letters reversed; a number keeps its digits' order
        assert_eq!(visual("שלום"), "םולש");
        assert_eq!(visual("מבוך 12"), "12 ךובמ");
        // a Latin word inside a Hebrew line reads left to right, where the line puts it
        assert_eq!(visual("בעזרת Hedge"), "Hedge תרזעב");
        // brackets in a right-to-left run are mirrored, a trailing stop goes to the left end
        assert_eq!(visual("(או) קו."), ".וק (וא)");
        // a Latin line with a Hebrew word stays left to right around it
        assert_eq!(visual("Hello שלום!"), "Hello םולש!");
        assert!(reads_right_to_left("שלום Hedge"));
        assert!(!reads_right_to_left("Hedge שלום"));
        assert!(!reads_right_to_left("Hedge"));
    }

    #[test]
    fn right_to_left_glyphs_are_placed_in_bidi_order_and_kept_in_typed_order() {
        let t = text("שלום 7");
        let placed = place(&t);
        // in the order typed
        let typed: String = placed.iter().map(|g| g.text.as_str()).collect();
        assert_eq!(typed, "שלום 7");
        // placed from the right: the first letter rightmost, the number at the left end
        let x = |c: char| placed.iter().find(|g| g.text == c.to_string()).unwrap().x;
        assert!(x('ש') > x('ל') && x('ל') > x('ו') && x('ו') > x('ם'));
        assert!(x('7') < x('ם'));
        assert_eq!(x('7'), 0.0);
        // the width is the typed line's
        let last = placed
            .iter()
            .map(|g| g.x + g.font.glyph_advance_em(g.gid) * t.size);
        let right = last.fold(0.0, f64::max);
        assert!((right - t.width()).abs() < 1e-9, "{right} {}", t.width());
        // Liberation Sans has the Hebrew letters
        assert!(
            placed
                .iter()
                .all(|g| g.font.name() == "LiberationSans-Bold")
        );
    }

    #[test]
    fn one_warning_names_every_missing_character() {
        let page = |texts: &[&str]| Drawing {
            width: 100.0,
            height: 100.0,
            trim: crate::draw::Area {
                x: 0.0,
                y: 0.0,
                w: 100.0,
                h: 100.0,
            },
            items: texts
                .iter()
                .map(|s| crate::draw::Item {
                    layer: crate::draw::Layer::Text,
                    shape: crate::draw::Shape::Text(text(s)),
                })
                .collect(),
        };
        assert!(glyph_warnings([&page(&["Zoë ♥ ★ → ☺", "START"])]).is_empty());
        let a = page(&["Zoë ♥ 🎂 猫", "START"]);
        assert_eq!(
            glyph_warnings([&a, &a]),
            [
                "no bundled font has 🎂 (U+1F382) and 猫 (U+732B); they are left out of \
              \"Zoë ♥ 🎂 猫\""
            ]
        );
        let b = page(&["🎂 one", "🎂 two"]);
        assert_eq!(
            glyph_warnings([&b]),
            ["no bundled font has 🎂 (U+1F382); it is left out of \"🎂 one\" and 1 other text"]
        );
    }
}
