//! The bundled fonts a PDF uses, embedded as subsets of the glyphs it sets: a Type0 font with
//! Identity-H encoding over a CIDFontType2 whose CIDs are the subset's glyph ids (cut with
//! allsorts), its `/W` widths the font's own advances, and a `/ToUnicode` map; the subset tag
//! is a digest of the glyph set, so the fonts are deterministic.

use std::collections::BTreeMap;

use crate::draw::{Drawing, Shape, place};

/// The glyphs of one bundled font a document uses: the subset to embed.
pub(super) struct Subset {
    font: &'static crate::draw::Font,
    /// The font's glyph ids in subset order (the subset's glyph `i` is `ids[i]`; `.notdef`
    /// first, the rest sorted).
    ids: Vec<u16>,
    /// Each used glyph's character (the first seen; a lam-alef's presentation form), by font
    /// glyph id; none for another glyph that stands for several letters (they are
    /// [`hidden_letters`]) or for none.
    chars: BTreeMap<u16, Option<char>>,
}

impl Subset {
    /// The CID (the subset's glyph id) of the font's glyph `gid`.
    pub fn cid(&self, gid: u16) -> u16 {
        self.ids.binary_search(&gid).map_or(0, |i| i as u16)
    }
}

/// The subsets of every font used by `pages`, by font id.
pub(super) type Subsets = BTreeMap<usize, Subset>;

pub(super) fn subsets(pages: &[&Drawing]) -> Subsets {
    let mut out = Subsets::new();
    for d in pages {
        for item in d.printed() {
            let Shape::Text(t) = &item.shape else {
                continue;
            };
            for g in place(t) {
                let subset = out.entry(g.font.id()).or_insert_with(|| Subset {
                    font: g.font,
                    ids: Vec::new(),
                    chars: BTreeMap::new(),
                });
                let hidden = hidden_letters(&g);
                for &(gid, c) in &hidden {
                    subset.chars.entry(gid).or_insert(Some(c));
                }
                // a ligature's glyph: its presentation form, else no text of its own (its
                // letters are the hidden ones)
                let own = match presentation_form(&g.text) {
                    Some(c) => Some(c),
                    None => g.text.chars().next().filter(|_| hidden.is_empty()),
                };
                subset.chars.entry(g.gid).or_insert(own);
            }
        }
    }
    for s in out.values_mut() {
        // sorted with 0 first: binary_search finds a glyph's CID
        s.ids = std::iter::once(0)
            .chain(s.chars.keys().copied().filter(|&g| g != 0))
            .collect();
    }
    out
}

/// The Unicode presentation form of the lam-alef ligature whose letters are `text` (its
/// compatibility decomposition, NFKC, is `text`): what a ligature glyph maps to in the PDF's
/// text layer, one character, so that every reader takes it whole whatever its order rules.
pub(super) fn presentation_form(text: &str) -> Option<char> {
    Some(match text {
        "\u{644}\u{622}" => '\u{FEF5}',
        "\u{644}\u{623}" => '\u{FEF7}',
        "\u{644}\u{625}" => '\u{FEF9}',
        "\u{644}\u{627}" => '\u{FEFB}',
        _ => return None,
    })
}

/// The letters of any other glyph that draws several (a ligature without a presentation
/// form, [`presentation_form`]), each with its own glyph in the glyph's font, in the order
/// typed; none for a glyph of one letter. The PDF writes them invisible, side by side over the
/// ligature, and the ligature's own glyph maps to no text: text extraction reads each letter
/// where it is, in the order typed (readers disagree on the order of one right-to-left
/// glyph's several letters).
pub(super) fn hidden_letters(g: &crate::draw::Placed) -> Vec<(u16, char)> {
    if g.text.chars().nth(1).is_none() || presentation_form(&g.text).is_some() {
        return Vec::new();
    }
    g.text
        .chars()
        .filter_map(|c| Some((g.font.own_glyph(c)?, c)))
        .collect()
}

/// The page resource name of font `id`.
pub(super) fn resource_name(id: usize) -> String {
    format!("HF{id}")
}

/// Adds every font of `fonts` to `lo`, embedded as a subset, and names them in the font
/// resource dictionary the pages share.
pub(super) fn embed_fonts(lo: &mut lopdf::Document, fonts: &Subsets) {
    let entries: Vec<(String, lopdf::ObjectId)> = fonts
        .iter()
        .map(|(&id, s)| (resource_name(id), embed_font(lo, s)))
        .collect();
    // printpdf gives every page the same /Resources /Font dictionary (by reference)
    let mut dicts: Vec<lopdf::ObjectId> = Vec::new();
    for (_, page) in lo.get_pages() {
        let font_dict = lo
            .get_dictionary(page)
            .and_then(|p| p.get(b"Resources"))
            .and_then(lopdf::Object::as_reference)
            .and_then(|r| lo.get_dictionary(r))
            .and_then(|r| r.get(b"Font"))
            .and_then(lopdf::Object::as_reference);
        if let Ok(f) = font_dict
            && !dicts.contains(&f)
        {
            dicts.push(f);
        }
    }
    for f in dicts {
        if let Ok(dict) = lo.get_dictionary_mut(f) {
            for (name, id) in &entries {
                dict.set(name.as_bytes(), lopdf::Object::Reference(*id));
            }
        }
    }
}

/// The subset's font program (allsorts' subset in `ids` order; the whole font if subsetting
/// fails, which it does not for the bundled fonts) and whether it is a subset.
///
/// The tables kept are allsorts' PDF profile without `name` (the PDF names the font itself;
/// PDF 32000-1 §9.9 does not ask for it, and DejaVu's, with its licence text, would be most
/// of a small subset).
fn font_program(s: &Subset) -> (Vec<u8>, bool) {
    use allsorts::binary::read::ReadScope;
    use allsorts::font_data::FontData;
    use allsorts::subset::{CmapTarget, SubsetProfile, subset};
    use allsorts::tag;
    let profile = SubsetProfile::Custom(vec![
        tag::CMAP,
        tag::HEAD,
        tag::CVT,
        tag::FPGM,
        tag::HHEA,
        tag::HMTX,
        tag::MAXP,
        tag::POST,
        tag::PREP,
    ]);
    let bytes = s.font.bytes();
    let sub = ReadScope::new(bytes)
        .read::<FontData<'_>>()
        .ok()
        .and_then(|data| data.table_provider(0).ok())
        .and_then(|p| subset(&p, &s.ids, &profile, CmapTarget::Unrestricted).ok());
    match sub {
        Some(sub) => (sub, true),
        None => (bytes.to_vec(), false),
    }
}

/// Six capital letters from a digest of the font and its glyph set: the subset tag.
fn subset_tag(s: &Subset) -> String {
    use md5::Digest as _;
    let mut h = md5::Md5::new();
    h.update(s.font.name().as_bytes());
    for id in &s.ids {
        h.update(id.to_le_bytes());
    }
    let digest: [u8; 16] = h.finalize().into();
    digest[..6]
        .iter()
        .map(|b| char::from(b'A' + b % 26))
        .collect()
}

/// Adds one subset font (Type0 over CIDFontType2, Identity-H, with its program, widths and
/// ToUnicode map) to `lo`; returns the Type0 font's id.
fn embed_font(lo: &mut lopdf::Document, s: &Subset) -> lopdf::ObjectId {
    use lopdf::{Dictionary, Object, Stream, StringFormat};
    let (program, is_subset) = font_program(s);
    let base = if is_subset {
        format!("{}+{}", subset_tag(s), s.font.name())
    } else {
        s.font.name().to_string()
    };
    let k = 1000.0 / s.font.units_per_em();
    // font units to thousandths of an em, as the integer they usually are
    let em = |v: f64| -> Object {
        let v = (v * k * 1000.0).round() / 1000.0;
        if v.fract() == 0.0 {
            Object::Integer(v as i64)
        } else {
            Object::Real(v as f32)
        }
    };
    let program_len = program.len() as i64;
    let file = lo.add_object(Stream::new(
        Dictionary::from_iter([("Length1", Object::Integer(program_len))]),
        program,
    ));
    let face = s.font.face();
    let bbox = face.map(|f| f.global_bounding_box());
    let bbox = bbox.map_or(vec![0.into(), 0.into(), 1000.into(), 1000.into()], |b| {
        vec![
            em(f64::from(b.x_min)),
            em(f64::from(b.y_min)),
            em(f64::from(b.x_max)),
            em(f64::from(b.y_max)),
        ]
    });
    let metric = |f: fn(&ttf_parser::Face<'_>) -> i16, default: f64| {
        face.map_or(Object::Real(default as f32), |face| em(f64::from(f(face))))
    };
    let bold = face.is_some_and(|f| f.is_bold());
    let descriptor = lo.add_object(Dictionary::from_iter([
        ("Type", Object::Name(b"FontDescriptor".to_vec())),
        ("FontName", Object::Name(base.clone().into_bytes())),
        // symbolic: glyphs are reached by glyph id, not through a standard encoding
        ("Flags", Object::Integer(4)),
        ("FontBBox", Object::Array(bbox)),
        ("ItalicAngle", Object::Integer(0)),
        ("Ascent", metric(|f| f.ascender(), 800.0)),
        ("Descent", metric(|f| f.descender(), -200.0)),
        (
            "CapHeight",
            metric(|f| f.capital_height().unwrap_or(f.ascender()), 700.0),
        ),
        ("StemV", Object::Integer(if bold { 120 } else { 80 })),
        ("FontFile2", Object::Reference(file)),
    ]));
    let widths: Vec<Object> = s
        .ids
        .iter()
        .map(|&g| em(s.font.glyph_advance_em(g) * s.font.units_per_em()))
        .collect();
    let registry = Dictionary::from_iter([
        (
            "Registry",
            Object::String(b"Adobe".to_vec(), StringFormat::Literal),
        ),
        (
            "Ordering",
            Object::String(b"Identity".to_vec(), StringFormat::Literal),
        ),
        ("Supplement", Object::Integer(0)),
    ]);
    let cid_font = lo.add_object(Dictionary::from_iter([
        ("Type", Object::Name(b"Font".to_vec())),
        ("Subtype", Object::Name(b"CIDFontType2".to_vec())),
        ("BaseFont", Object::Name(base.clone().into_bytes())),
        ("CIDSystemInfo", Object::Dictionary(registry)),
        ("FontDescriptor", Object::Reference(descriptor)),
        (
            "W",
            Object::Array(vec![Object::Integer(0), Object::Array(widths)]),
        ),
        ("CIDToGIDMap", Object::Name(b"Identity".to_vec())),
    ]));
    let to_unicode = lo.add_object(Stream::new(
        Dictionary::new(),
        to_unicode_cmap(s).into_bytes(),
    ));
    lo.add_object(Dictionary::from_iter([
        ("Type", Object::Name(b"Font".to_vec())),
        ("Subtype", Object::Name(b"Type0".to_vec())),
        ("BaseFont", Object::Name(base.into_bytes())),
        ("Encoding", Object::Name(b"Identity-H".to_vec())),
        (
            "DescendantFonts",
            Object::Array(vec![Object::Reference(cid_font)]),
        ),
        ("ToUnicode", Object::Reference(to_unicode)),
    ]))
}

/// The `/ToUnicode` CMap of a subset: each CID to its character (UTF-16BE; a lam-alef glyph
/// to its [`presentation_form`], another ligature's to none: its letters are
/// [`hidden_letters`]).
fn to_unicode_cmap(s: &Subset) -> String {
    use std::fmt::Write as _;
    let pairs: Vec<(u16, char)> = s
        .ids
        .iter()
        .enumerate()
        .filter_map(|(cid, g)| Some((cid as u16, (*s.chars.get(g)?)?)))
        .collect();
    let mut out = String::from(
        "/CIDInit /ProcSet findresource begin\n12 dict begin\nbegincmap\n\
         /CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def\n\
         /CMapName /Adobe-Identity-UCS def\n/CMapType 2 def\n\
         1 begincodespacerange\n<0000> <FFFF>\nendcodespacerange\n",
    );
    for chunk in pairs.chunks(100) {
        let _ = writeln!(out, "{} beginbfchar", chunk.len());
        for &(cid, c) in chunk {
            let _ = write!(out, "<{cid:04X}> <");
            let mut buf = [0u16; 2];
            for unit in c.encode_utf16(&mut buf) {
                let _ = write!(out, "{unit:04X}");
            }
            out.push_str(">\n");
        }
        out.push_str("endbfchar\n");
    }
    out.push_str("endcmap\nCMapName currentdict /CMap defineresource pop\nend\nend\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::draw::{Area, Pos, Rgb};
    use crate::export::pdf::pdf;

    /// A page with `title` set in bold sans.
    fn titled(title: &str) -> Drawing {
        let trim = Area {
            x: 0.0,
            y: 0.0,
            w: 100.0,
            h: 50.0,
        };
        let mut d = Drawing {
            width: 100.0,
            height: 50.0,
            trim,
            items: Vec::new(),
        };
        d.items.push(crate::draw::Item {
            layer: crate::draw::Layer::Text,
            shape: Shape::Text(crate::draw::Text {
                rotated: crate::draw::Rotation::Across,
                text: title.into(),
                at: Pos::new(10.0, 20.0),
                size: 5.0,
                anchor: crate::draw::Anchor::Start,
                bold: true,
                face: crate::page::Typeface::Sans,
                color: Rgb::BLACK,
            }),
        });
        d
    }

    #[test]
    fn fonts_are_embedded_subsets_the_same_on_every_save() {
        let a = pdf(&[&titled("Zoë ♥ ★ → ☺"), &titled("AB")], "t");
        assert_eq!(pdf(&[&titled("Zoë ♥ ★ → ☺"), &titled("AB")], "t"), a);
        let lo = lopdf::Document::load_mem(&a).unwrap();
        let mut names = Vec::new();
        for object in lo.objects.values() {
            let Ok(d) = object.as_dict() else { continue };
            if d.get(b"Subtype").and_then(|o| o.as_name()).ok() != Some(b"Type0") {
                continue;
            }
            let name = String::from_utf8(d.get(b"BaseFont").unwrap().as_name().unwrap().to_vec());
            names.push(name.unwrap());
            let cid = d.get(b"DescendantFonts").unwrap().as_array().unwrap()[0]
                .as_reference()
                .unwrap();
            let cid = lo.get_dictionary(cid).unwrap();
            let desc = cid.get(b"FontDescriptor").unwrap().as_reference().unwrap();
            let file = lo
                .get_dictionary(desc)
                .unwrap()
                .get(b"FontFile2")
                .unwrap()
                .as_reference()
                .unwrap();
            let program = lo.get_object(file).unwrap().as_stream().unwrap();
            let program = program.decompressed_content().unwrap();
            // a real font, and far smaller than the whole file
            let face = ttf_parser::Face::parse(&program, 0).unwrap();
            assert!(face.number_of_glyphs() < 40, "{}", face.number_of_glyphs());
        }
        names.sort_by_key(|n| n.split_once('+').map(|(_, bare)| bare.to_string()));
        assert_eq!(names.len(), 2, "{names:?}");
        assert!(names[0].ends_with("+DejaVuSans-Bold"), "{names:?}");
        assert!(names[1].ends_with("+LiberationSans-Bold"), "{names:?}");
        let text = lo.extract_text(&[1]).unwrap();
        assert!(text.contains("Zoë ♥") && text.contains('★'), "{text}");
        // another glyph set, another subset tag
        let b = pdf(&[&titled("Zoë")], "t");
        let lo = lopdf::Document::load_mem(&b).unwrap();
        assert!(!lo.objects.values().any(|o| {
            o.as_dict()
                .and_then(|d| d.get(b"BaseFont"))
                .and_then(|n| n.as_name())
                .is_ok_and(|n| n.ends_with(b"DejaVuSans-Bold"))
        }));
    }

    #[test]
    fn arabic_glyphs_drawn_are_the_shapers_and_read_as_typed() {
        // a lam-alef ligature (السلام) and a space between words
        let title = "السلام عليكم";
        let d = titled(title);
        let bytes = pdf(&[&d], "t");
        let subsets = subsets(&[&d]);
        let lo = lopdf::Document::load_mem(&bytes).unwrap();
        let page = *lo.get_pages().get(&1).unwrap();
        let content = lopdf::content::Content::decode(&lo.get_page_content(page)).unwrap();
        // the glyphs drawn (render mode 0) and hidden (mode 3), as font glyph ids
        let (mut drawn, mut hidden) = (Vec::new(), Vec::new());
        let (mut font, mut mode) = (0usize, 0i64);
        for op in &content.operations {
            match op.operator.as_str() {
                "Tf" => {
                    let name = op.operands[0].as_name().unwrap();
                    font = std::str::from_utf8(&name[2..]).unwrap().parse().unwrap();
                }
                "Tr" => mode = op.operands[0].as_i64().unwrap(),
                "TJ" | "Tj" => {
                    let arr = match &op.operands[0] {
                        lopdf::Object::Array(a) => a.clone(),
                        o => vec![o.clone()],
                    };
                    for o in arr {
                        if let Ok(b) = o.as_str() {
                            for cid in b.chunks(2) {
                                let cid = u16::from_be_bytes([cid[0], cid[1]]);
                                let gid = subsets[&font].ids[usize::from(cid)];
                                if mode == 3 { &mut hidden } else { &mut drawn }.push(gid);
                            }
                        }
                    }
                }
                _ => {}
            }
        }
        // what harfrust gives for the line, in the order typed (it gives them seen left to right)
        let f = crate::draw::font(crate::page::Typeface::Sans, true)
            .resolve('ب')
            .unwrap()
            .0;
        let shaped: Vec<u16> = crate::draw::shape(f.id(), f.bytes(), title, true)
            .iter()
            .rev()
            .map(|g| g.gid)
            .collect();
        assert_eq!(drawn, shaped);
        // joined: no letter in its isolated (cmap) form
        let face = f.face().unwrap();
        let nominal = |c: char| face.glyph_index(c).unwrap().0;
        assert!(!drawn.contains(&nominal('ل')) && !drawn.contains(&nominal('س')));
        assert_eq!(
            drawn.len(),
            title.chars().count() - 1,
            "lam-alef is one glyph"
        );
        assert!(hidden.is_empty());
        // the text layer is the line as typed, the ligature its presentation form (whose
        // compatibility decomposition is its two letters)
        let text = lo.extract_text(&[1]).unwrap();
        let squeeze = |s: &str| s.chars().filter(|c| !c.is_whitespace()).collect::<String>();
        assert_eq!(
            squeeze(&text),
            squeeze(title).replace("\u{644}\u{627}", "\u{FEFB}"),
            "{text}"
        );
    }

    #[test]
    fn glyph_ids_are_numbered_in_subset_order() {
        let d = titled("BAB");
        let s = subsets(&[&d]);
        let subset = s.values().next().unwrap();
        assert_eq!(subset.ids[0], 0, ".notdef first");
        assert!(subset.ids.windows(2).all(|w| w[0] < w[1]));
        assert_eq!(subset.ids.len(), 3);
        let f = crate::draw::font(crate::page::Typeface::Sans, true);
        let (_, a) = f.resolve('A').unwrap();
        let (_, b) = f.resolve('B').unwrap();
        assert_eq!(subset.cid(a), 1);
        assert_eq!(subset.cid(b), 2);
        let cmap = to_unicode_cmap(subset);
        assert!(
            cmap.contains("<0001> <0041>") && cmap.contains("<0002> <0042>"),
            "{cmap}"
        );
    }
}
