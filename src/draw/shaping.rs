//! Arabic text shaped by harfrust (the Rust port of HarfBuzz): a run of Arabic letters takes
//! its joining forms (initial, medial, final, isolated), its lam-alef ligatures and its marks'
//! places from the font's OpenType tables, as a shaper sets them. Only runs with Arabic
//! letters go through the shaper: every other line is set character by character, as it
//! always was ([`super::font::place`]), so Latin and Hebrew pages keep their bytes.

use std::sync::OnceLock;

/// Whether `c` is a character of the Arabic script that a shaper must set in context (its
/// letters join, its marks sit on them): the Arabic blocks and their presentation forms.
pub(crate) fn is_arabic(c: char) -> bool {
    matches!(c,
        '\u{0600}'..='\u{06FF}'
        | '\u{0750}'..='\u{077F}'
        | '\u{0870}'..='\u{08FF}'
        | '\u{FB50}'..='\u{FDFF}'
        | '\u{FE70}'..='\u{FEFF}')
}

/// Whether `text` has a character to shape ([`is_arabic`]).
pub(crate) fn needs_shaping(text: &str) -> bool {
    text.chars().any(is_arabic)
}

/// One glyph as the shaper set it, in font units.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Shaped {
    /// The glyph id in the font.
    pub gid: u16,
    /// The byte index in the shaped text of the first character of the glyph's cluster.
    pub cluster: usize,
    /// How far the pen moves after the glyph.
    pub advance: i32,
    /// The glyph's offset from the pen, right and up.
    pub dx: i32,
    /// The glyph's offset up from the baseline.
    pub dy: i32,
}

/// harfrust's tables of the bundled font `id` (its file `bytes`), made once.
fn shaper_data(
    id: usize,
    bytes: &'static [u8],
) -> Option<&'static (harfrust::FontRef<'static>, harfrust::ShaperData)> {
    static DATA: [OnceLock<Option<(harfrust::FontRef<'static>, harfrust::ShaperData)>>; 8] =
        [const { OnceLock::new() }; 8];
    DATA.get(id)?
        .get_or_init(|| {
            let r = harfrust::FontRef::new(bytes).ok()?;
            let data = harfrust::ShaperData::new(&r);
            Some((r, data))
        })
        .as_ref()
}

/// The glyphs of `text` (one run of one direction, all in the bundled font `id`, whose file is
/// `bytes`) as harfrust shapes it, in the order they are seen left to right (a right-to-left
/// run's last letter first), in font units. Empty when the font does not parse for the shaper
/// (it does for the bundled fonts).
pub(crate) fn shape(
    id: usize,
    bytes: &'static [u8],
    text: &str,
    right_to_left: bool,
) -> Vec<Shaped> {
    let Some((r, data)) = shaper_data(id, bytes) else {
        return Vec::new();
    };
    let shaper = data.shaper(r).build();
    let mut buffer = harfrust::UnicodeBuffer::new();
    buffer.push_str(text);
    buffer.guess_segment_properties();
    buffer.set_direction(if right_to_left {
        harfrust::Direction::RightToLeft
    } else {
        harfrust::Direction::LeftToRight
    });
    let out = shaper.shape(buffer, harfrust::ShapeOptions::new());
    out.glyph_infos()
        .iter()
        .zip(out.glyph_positions())
        .map(|(i, p)| Shaped {
            gid: u16::try_from(i.glyph_id).unwrap_or(0),
            cluster: i.cluster as usize,
            advance: p.x_advance,
            dx: p.x_offset,
            dy: p.y_offset,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::page::Typeface;

    /// The font that draws Arabic: DejaVu Sans, the fallback of the Liberation faces.
    fn arabic_font(bold: bool) -> &'static crate::draw::Font {
        let (f, _) = crate::draw::font(Typeface::Sans, bold)
            .resolve('ب')
            .expect("a bundled font has Arabic");
        f
    }

    fn shape(f: &crate::draw::Font, text: &str, rtl: bool) -> Vec<Shaped> {
        super::shape(f.id(), f.bytes(), text, rtl)
    }

    #[test]
    fn arabic_letters_take_their_joining_forms() {
        for bold in [false, true] {
            let f = arabic_font(bold);
            let face = f.face().unwrap();
            let nominal = |c: char| face.glyph_index(c).unwrap().0;
            // three behs: final, medial, initial when seen left to right (logical order reversed)
            let g = shape(f, "ببب", true);
            let ids: Vec<u16> = g.iter().map(|s| s.gid).collect();
            assert_eq!(ids.len(), 3);
            assert!(ids.iter().all(|&i| i != nominal('ب')), "{ids:?}");
            assert_ne!(ids[0], ids[1]);
            assert_ne!(ids[1], ids[2]);
            assert_eq!(
                g.iter().map(|s| s.cluster).collect::<Vec<_>>(),
                [4, 2, 0],
                "seen left to right"
            );
            // a lone letter is its isolated (nominal) form
            assert_eq!(shape(f, "ب", true)[0].gid, nominal('ب'));
            // lam-alef: one ligature glyph for two letters
            let la = shape(f, "لا", true);
            assert_eq!(la.len(), 1, "{la:?}");
            assert_eq!(la[0].cluster, 0);
        }
    }
}
