//! Which fonts a PDF uses, and whether each carries its font program: what `pdffonts` shows,
//! read with lopdf. The book builder reports it for the PDFs it writes; the preflight checks it.

use serde::Serialize;

/// Whether a document's fonts are embedded.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Fonts {
    /// Every font is embedded.
    Embedded,
    /// These fonts are used by name only (the printer substitutes its own).
    NotEmbedded(Vec<String>),
    /// The document has no text.
    NoText,
    /// Not a question for this format (PNG pixels, SVG).
    NotChecked,
}

/// The font state of PDF `bytes`: every font dictionary, and whether its descriptor (or its
/// descendant's, for composite fonts) carries the font program. Bytes that do not parse count
/// as not embedded.
pub fn pdf_fonts(bytes: &[u8]) -> Fonts {
    use lopdf::{Document, Object};
    // the fonts are in the dictionaries: every stream's data (a big maze's page is hundreds of
    // megabytes) is dropped as it is read, but for object streams, which hold dictionaries
    let options = lopdf::LoadOptions::with_filter(|_, object| {
        if let Object::Stream(s) = object
            && !s.dict.has_type(b"ObjStm")
        {
            s.content = Vec::new();
        }
        Some(((0, 0), Object::Null))
    });
    let Ok(doc) = Document::load_mem_with_options(bytes, options) else {
        return Fonts::NotEmbedded(vec!["(the PDF does not parse)".into()]);
    };
    document_fonts(&doc)
}

/// [`pdf_fonts`] of a document in memory.
pub fn document_fonts(doc: &lopdf::Document) -> Fonts {
    use lopdf::{Dictionary, Object};
    let deref = |o: &Object| -> Option<Dictionary> {
        match doc.dereference(o).ok()?.1 {
            Object::Dictionary(d) => Some(d.clone()),
            _ => None,
        }
    };
    let has_program = |font: &Dictionary| -> bool {
        let embedded = |f: &Dictionary| {
            f.get(b"FontDescriptor")
                .ok()
                .and_then(deref)
                .is_some_and(|fd| {
                    [&b"FontFile"[..], b"FontFile2", b"FontFile3"]
                        .iter()
                        .any(|k| fd.has(k))
                })
        };
        let subtype = font.get(b"Subtype").and_then(Object::as_name).ok();
        match subtype {
            Some(b"Type3") => true,
            Some(b"Type0") => font
                .get(b"DescendantFonts")
                .ok()
                .and_then(|o| doc.dereference(o).ok())
                .and_then(|(_, o)| o.as_array().ok())
                .is_some_and(|a| a.iter().filter_map(deref).all(|d| embedded(&d))),
            _ => embedded(font),
        }
    };
    let mut fonts = 0;
    let mut missing: Vec<String> = Vec::new();
    for obj in doc.objects.values() {
        let Ok(d) = obj.as_dict() else { continue };
        let is_font = d.get(b"Type").and_then(Object::as_name).ok() == Some(b"Font");
        let top_level = d.get(b"Subtype").and_then(Object::as_name).ok() != Some(b"CIDFontType2")
            && d.get(b"Subtype").and_then(Object::as_name).ok() != Some(b"CIDFontType0");
        if !is_font || !top_level {
            continue;
        }
        fonts += 1;
        if !has_program(d) {
            let name = d
                .get(b"BaseFont")
                .and_then(Object::as_name)
                .map(|n| String::from_utf8_lossy(n).into_owned())
                .unwrap_or_else(|_| "unnamed".into());
            missing.push(name);
        }
    }
    missing.sort();
    missing.dedup();
    match (fonts, missing.is_empty()) {
        (0, _) => Fonts::NoText,
        (_, true) => Fonts::Embedded,
        (_, false) => Fonts::NotEmbedded(missing),
    }
}
