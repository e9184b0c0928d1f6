//! The typefaces of a page ([`Typeface`]): Helvetica, Times or Courier, regular and bold, the
//! PDF base-14 fonts.
//!
//! PDF pages name the base-14 font and let the viewer supply it; SVG pages ask for it and its
//! usual stand-ins (Arial, Times New Roman, Courier New). To measure text (so labels can be
//! centred and kept off the maze) and to draw it into PNGs, this module uses Liberation Sans,
//! Serif and Mono, whose advance widths match Helvetica's, Times' and Courier's (they are
//! metric-compatible with Arial, Times New Roman and Courier New, which match those), so text
//! measured here sits where the PDF's font puts it. The fonts are free (SIL Open Font License
//! 1.1, `assets/fonts/OFL.txt`), embedded unmodified in the binary and parsed with
//! `ttf-parser`; nothing touches the disk.

use std::sync::OnceLock;

use crate::page::Typeface;

/// The advance of a character the font lacks (Helvetica's digit width; Liberation Sans has
/// every Latin-1 glyph, so this only guards against a broken file).
const FALLBACK_EM: f64 = 0.556;

/// A loaded face: its bytes, units per em and the advance of every Latin-1 character.
pub(crate) struct Font {
    bytes: &'static [u8],
    units_per_em: f64,
    /// Advance of chars U+0000..=U+00FF in ems.
    advance: [f64; 256],
}

impl Font {
    fn load(bytes: &'static [u8]) -> Font {
        let mut advance = [FALLBACK_EM; 256];
        let mut units_per_em = 1000.0;
        if let Ok(face) = ttf_parser::Face::parse(bytes, 0) {
            units_per_em = f64::from(face.units_per_em().max(1));
            for (code, adv) in advance.iter_mut().enumerate() {
                let c = char::from(code as u8);
                let glyph = face.glyph_index(c).or_else(|| face.glyph_index('?'));
                if let Some(g) = glyph
                    && let Some(a) = face.glyph_hor_advance(g)
                {
                    *adv = f64::from(a) / units_per_em;
                }
            }
        }
        Font {
            bytes,
            units_per_em,
            advance,
        }
    }

    /// The parsed face, if the embedded font parses (it does; `None` only guards against a
    /// broken file, in which case text is left out of PNGs).
    pub(crate) fn face(&self) -> Option<ttf_parser::Face<'_>> {
        ttf_parser::Face::parse(self.bytes, 0).ok()
    }

    /// Font units per em.
    pub(crate) fn units_per_em(&self) -> f64 {
        self.units_per_em
    }

    /// The advance of `c` in ems (text is Latin-1 after [`printable`]).
    pub(crate) fn advance_em(&self, c: char) -> f64 {
        let code = c as u32;
        if code < 256 {
            self.advance[code as usize]
        } else {
            self.advance[usize::from(b'?')]
        }
    }

    /// The width of `text` set at `size` (the em size, any unit; the result is in that unit).
    pub(crate) fn width(&self, text: &str, size: f64) -> f64 {
        text.chars().map(|c| self.advance_em(c)).sum::<f64>() * size
    }
}

/// The embedded font file (Liberation, metric-compatible with the PDF font) of `face`, regular
/// or bold: what PNGs are drawn with and what the editor's preview sets text in.
pub fn font_bytes(face: Typeface, bold: bool) -> &'static [u8] {
    match (face, bold) {
        (Typeface::Sans, false) => include_bytes!("../../assets/fonts/LiberationSans-Regular.ttf"),
        (Typeface::Sans, true) => include_bytes!("../../assets/fonts/LiberationSans-Bold.ttf"),
        (Typeface::Serif, false) => {
            include_bytes!("../../assets/fonts/LiberationSerif-Regular.ttf")
        }
        (Typeface::Serif, true) => include_bytes!("../../assets/fonts/LiberationSerif-Bold.ttf"),
        (Typeface::Mono, false) => include_bytes!("../../assets/fonts/LiberationMono-Regular.ttf"),
        (Typeface::Mono, true) => include_bytes!("../../assets/fonts/LiberationMono-Bold.ttf"),
    }
}

/// The font of `face`, regular or bold.
pub(crate) fn font(face: Typeface, bold: bool) -> &'static Font {
    static FONTS: [OnceLock<Font>; 6] = [const { OnceLock::new() }; 6];
    let i = match face {
        Typeface::Sans => 0,
        Typeface::Serif => 2,
        Typeface::Mono => 4,
    } + usize::from(bold);
    FONTS[i].get_or_init(|| Font::load(font_bytes(face, bold)))
}

/// Helvetica's cap height in ems (how far capitals rise above the baseline).
pub(crate) const CAP_HEIGHT_EM: f64 = 0.718;

/// Helvetica's descender depth in ems.
pub(crate) const DESCENT_EM: f64 = 0.207;

/// `s` reduced to what the base-14 fonts can show (WinAnsi, here: printable Latin-1): typographic
/// quotes and dashes become their ASCII forms, control characters go, anything else becomes `?`.
pub fn printable(s: &str) -> String {
    s.chars()
        .filter(|c| !c.is_control())
        .map(|c| match c {
            ' '..='~' | '\u{A0}'..='\u{FF}' => c,
            '\u{2018}' | '\u{2019}' | '\u{201A}' => '\'',
            '\u{201C}' | '\u{201D}' | '\u{201E}' => '"',
            '\u{2013}' | '\u{2014}' | '\u{2212}' => '-',
            _ => '?',
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn printable_keeps_latin1_only() {
        assert_eq!(printable("Zoë’s maze — ✓\n"), "Zoë's maze - ?");
    }
}
