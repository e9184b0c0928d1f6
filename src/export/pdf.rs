//! PDF export with printpdf: one page per [`Drawing`], vector only, text in the base-14
//! Helvetica, Times or Courier (base-14 fonts, nothing embedded), page size exactly the drawing's (trim box set when there is
//! bleed).
//!
//! Determinism: printpdf's dates default to the Unix epoch, but the trailer `/ID` it sets comes
//! from a process-wide counter, so two saves in one process would differ there. The document is
//! built as an [`lopdf::Document`] (printpdf's `to_lopdf_document`) and, before it is written,
//! its trailer `/ID` is replaced by an MD5 digest of its objects (`content_id`, the digest
//! PDF 32000-1 §14.4 suggests): the same drawings always give the same bytes.

use printpdf::{
    BuiltinFont, Color, Line, LineCapStyle, LineJoinStyle, LinePoint, Mm, Op, PaintMode,
    PdfDocument, PdfFontHandle, PdfPage, PdfSaveOptions, Point, Polygon, PolygonRing, Pt, Rgb,
    TextItem, WindingOrder,
};

use rayon::prelude::*;

use crate::draw::{Drawing, Path, Pos, Rgb as Colour, Seg, Shape};
use crate::page::Typeface;

const PT_PER_MM: f64 = 72.0 / 25.4;

/// Page coordinates (mm, y down) to PDF points (y up), rounded to 0.01 pt.
struct Flip {
    height: f64,
}

impl Flip {
    fn pt(&self, p: Pos) -> Point {
        let r = |v: f64| Pt(((v * 100.0).round() / 100.0) as f32);
        Point {
            x: r(p.x * PT_PER_MM),
            y: r((self.height - p.y) * PT_PER_MM),
        }
    }

    /// The path's subpaths as printpdf point lists (control points flagged `bezier`).
    fn subpaths(&self, path: &Path) -> Vec<Vec<LinePoint>> {
        let mut out: Vec<Vec<LinePoint>> = Vec::new();
        let on = |p| LinePoint { p, bezier: false };
        let ctl = |p| LinePoint { p, bezier: true };
        for s in &path.segs {
            match *s {
                Seg::MoveTo(a) => out.push(vec![on(self.pt(a))]),
                Seg::LineTo(a) => {
                    if let Some(sp) = out.last_mut() {
                        sp.push(on(self.pt(a)));
                    }
                }
                Seg::CubicTo(a, b, c) => {
                    if let Some(sp) = out.last_mut() {
                        sp.extend([ctl(self.pt(a)), ctl(self.pt(b)), on(self.pt(c))]);
                    }
                }
                Seg::Close => {
                    if let Some(sp) = out.last_mut()
                        && let Some(first) = sp.first().cloned()
                    {
                        sp.push(first);
                    }
                }
            }
        }
        out.retain(|sp| sp.len() > 1);
        out
    }
}

fn color(c: Colour) -> Color {
    let f = |v: u8| f32::from(v) / 255.0;
    Color::Rgb(Rgb::new(f(c.0), f(c.1), f(c.2), None))
}

fn page_ops(d: &Drawing) -> Vec<Op> {
    let flip = Flip { height: d.height };
    let mut ops = vec![
        Op::SetLineCapStyle {
            cap: LineCapStyle::Round,
        },
        Op::SetLineJoinStyle {
            join: LineJoinStyle::Round,
        },
    ];
    let mut stroke_color: Option<Colour> = None;
    let mut fill_color: Option<Colour> = None;
    let mut width: Option<f64> = None;
    for item in d.printed() {
        match &item.shape {
            Shape::Stroke {
                path,
                width: w,
                color: c,
            } => {
                if stroke_color != Some(*c) {
                    ops.push(Op::SetOutlineColor { col: color(*c) });
                    stroke_color = Some(*c);
                }
                if width != Some(*w) {
                    ops.push(Op::SetOutlineThickness {
                        pt: Pt((w * PT_PER_MM) as f32),
                    });
                    width = Some(*w);
                }
                for points in flip.subpaths(path) {
                    ops.push(Op::DrawLine {
                        line: Line {
                            points,
                            is_closed: false,
                        },
                    });
                }
            }
            Shape::Fill { path, color: c } => {
                if fill_color != Some(*c) {
                    ops.push(Op::SetFillColor { col: color(*c) });
                    fill_color = Some(*c);
                }
                let rings: Vec<PolygonRing> = flip
                    .subpaths(path)
                    .into_iter()
                    .map(|points| PolygonRing { points })
                    .collect();
                if !rings.is_empty() {
                    ops.push(Op::DrawPolygon {
                        polygon: Polygon {
                            rings,
                            mode: PaintMode::Fill,
                            winding_order: WindingOrder::NonZero,
                        },
                    });
                }
            }
            Shape::Text(t) => {
                let font = match (t.face, t.bold) {
                    (Typeface::Sans, false) => BuiltinFont::Helvetica,
                    (Typeface::Sans, true) => BuiltinFont::HelveticaBold,
                    (Typeface::Serif, false) => BuiltinFont::TimesRoman,
                    (Typeface::Serif, true) => BuiltinFont::TimesBold,
                    (Typeface::Mono, false) => BuiltinFont::Courier,
                    (Typeface::Mono, true) => BuiltinFont::CourierBold,
                };
                ops.push(Op::StartTextSection);
                ops.push(Op::SetFillColor {
                    col: color(t.color),
                });
                fill_color = Some(t.color);
                ops.push(Op::SetTextCursor {
                    pos: flip.pt(Pos::new(t.left(), t.at.y)),
                });
                ops.push(Op::SetFont {
                    font: PdfFontHandle::Builtin(font),
                    size: Pt((t.size * PT_PER_MM) as f32),
                });
                ops.push(Op::ShowText {
                    items: vec![TextItem::Text(t.text.clone())],
                });
                ops.push(Op::EndTextSection);
            }
            Shape::Tint { .. } => {} // overlays are never printed
        }
    }
    ops
}

/// Renders a whole book, `pages` in order, as one PDF document titled `title`: the multi-page
/// entry point of [`crate::book`]. Pages are converted and their streams compressed in
/// parallel; the bytes do not depend on the thread count.
pub fn book(pages: &[Drawing], title: &str) -> Vec<u8> {
    let refs: Vec<&Drawing> = pages.iter().collect();
    pdf(&refs, title)
}

/// Renders `pages` as one PDF document titled `title`.
pub fn pdf(pages: &[&Drawing], title: &str) -> Vec<u8> {
    let mut doc = PdfDocument::new(&crate::draw::printable(title));
    let pdf_pages: Vec<PdfPage> = pages
        .par_iter()
        .map(|d| {
            let mut p = PdfPage::new(Mm(d.width as f32), Mm(d.height as f32), page_ops(d));
            let t = d.trim;
            if (t.w - d.width).abs() > 1e-9 || (t.h - d.height).abs() > 1e-9 {
                // printpdf writes a Rect as [x y width height], but a PDF box is two corners
                // [llx lly urx ury]: hand it the upper-right corner as "width" and "height"
                let (llx, lly) = (t.x, d.height - t.y - t.h);
                p.trim_box = printpdf::Rect::from_xywh(
                    Pt((llx * PT_PER_MM) as f32),
                    Pt((lly * PT_PER_MM) as f32),
                    Pt(((llx + t.w) * PT_PER_MM) as f32),
                    Pt(((lly + t.h) * PT_PER_MM) as f32),
                );
            }
            p
        })
        .collect();
    // printpdf's own save deflates every stream at the slowest level (zlib 9): on a 200x200
    // maze that is most of the time spent. Build the document uncompressed and deflate the
    // streams at level 2 instead (measured: about 6x faster, 7% larger)
    let mut warnings = Vec::new();
    let opts = PdfSaveOptions {
        optimize: false,
        ..PdfSaveOptions::default()
    };
    let mut lo = doc
        .with_pages(pdf_pages)
        .to_lopdf_document(&opts, &mut warnings);
    // each stream on its own: the result is the same in any order
    lo.objects.par_iter_mut().for_each(|(_, object)| {
        if let lopdf::Object::Stream(stream) = object
            && stream.allows_compression
            && stream.dict.get(b"Filter").is_err()
        {
            deflate(stream);
        }
    });
    drop_empty_pdfx_marker(&mut lo);
    set_content_id(&mut lo);
    let mut bytes = Vec::new();
    // writing to memory only fails on allocation failure, which aborts anyway
    lo.save_to(&mut bytes)
        .expect("writing a PDF to memory does not fail");
    bytes
}

/// Removes the document information's `/GTS_PDFXVersion` when it is empty (printpdf always
/// writes one): an empty key makes preflight tools call the file PDF/X, which it is not.
fn drop_empty_pdfx_marker(lo: &mut lopdf::Document) {
    let Ok(info) = lo
        .trailer
        .get(b"Info")
        .and_then(lopdf::Object::as_reference)
    else {
        return;
    };
    if let Ok(dict) = lo.get_object_mut(info).and_then(lopdf::Object::as_dict_mut) {
        let empty = dict
            .get(b"GTS_PDFXVersion")
            .and_then(lopdf::Object::as_str)
            .is_ok_and(<[u8]>::is_empty);
        if empty {
            dict.remove(b"GTS_PDFXVersion");
        }
    }
}

/// Compresses a stream with zlib at level 2 (when that makes it smaller).
fn deflate(stream: &mut lopdf::Stream) {
    use std::io::Write as _;
    let mut enc = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::new(2));
    if enc.write_all(&stream.content).is_err() {
        return;
    }
    if let Ok(z) = enc.finish()
        && z.len() + 19 < stream.content.len()
    {
        stream.dict.set("Filter", "FlateDecode");
        stream.set_content(z);
    }
}

/// Sets the trailer's `/ID` to two copies of [`content_id`] (a new document's permanent and
/// changing identifiers are the same), as hex strings.
fn set_content_id(lo: &mut lopdf::Document) {
    let id = lopdf::Object::String(content_id(lo).to_vec(), lopdf::StringFormat::Hexadecimal);
    lo.trailer.set("ID", vec![id.clone(), id]);
}

/// An MD5 digest of a document's objects (numbers, generations and contents, in object order)
/// and of its trailer's other entries: it depends only on what the file will contain, never on
/// the process or the time.
fn content_id(lo: &lopdf::Document) -> [u8; 16] {
    use md5::Digest as _;
    let mut h = md5::Md5::new();
    for (&(num, generation), object) in &lo.objects {
        h.update(num.to_le_bytes());
        h.update(generation.to_le_bytes());
        feed(&mut h, object);
    }
    for (key, value) in lo.trailer.iter().filter(|(k, _)| k.as_slice() != b"ID") {
        h.update(key);
        feed(&mut h, value);
    }
    h.finalize().into()
}

/// Feeds one object into the digest, tagging each kind and length so that different objects
/// never feed the same bytes.
fn feed(h: &mut md5::Md5, object: &lopdf::Object) {
    use lopdf::Object as O;
    use md5::Digest as _;
    let bytes = |h: &mut md5::Md5, b: &[u8]| {
        h.update((b.len() as u64).to_le_bytes());
        h.update(b);
    };
    match object {
        O::Null => h.update(b"n"),
        O::Boolean(v) => h.update([b'b', u8::from(*v)]),
        O::Integer(v) => {
            h.update(b"i");
            h.update(v.to_le_bytes());
        }
        O::Real(v) => {
            h.update(b"r");
            h.update(v.to_le_bytes());
        }
        O::Name(v) => {
            h.update(b"N");
            bytes(h, v);
        }
        O::String(v, format) => {
            h.update(match format {
                lopdf::StringFormat::Literal => b"s",
                lopdf::StringFormat::Hexadecimal => b"x",
            });
            bytes(h, v);
        }
        O::Array(items) => {
            h.update(b"a");
            h.update((items.len() as u64).to_le_bytes());
            for item in items {
                feed(h, item);
            }
        }
        O::Dictionary(dict) => feed_dict(h, dict),
        O::Stream(stream) => {
            h.update(b"S");
            feed_dict(h, &stream.dict);
            bytes(h, &stream.content);
        }
        O::Reference((num, generation)) => {
            h.update(b"R");
            h.update(num.to_le_bytes());
            h.update(generation.to_le_bytes());
        }
    }
}

/// Feeds a dictionary, entries in their (deterministic, insertion) order.
fn feed_dict(h: &mut md5::Md5, dict: &lopdf::Dictionary) {
    use md5::Digest as _;
    h.update(b"d");
    h.update((dict.len() as u64).to_le_bytes());
    for (key, value) in dict.iter() {
        h.update((key.len() as u64).to_le_bytes());
        h.update(key);
        feed(h, value);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::draw::{Area, Drawing};

    fn page() -> Drawing {
        let trim = Area {
            x: 0.0,
            y: 0.0,
            w: 100.0,
            h: 50.0,
        };
        Drawing {
            width: 100.0,
            height: 50.0,
            trim,
            items: Vec::new(),
        }
    }

    #[test]
    fn document_id_is_a_digest_of_the_content() {
        let a = pdf(&[&page()], "one");
        assert_eq!(pdf(&[&page()], "one"), a, "same drawings, same bytes");
        let lo = lopdf::Document::load_mem(&a).unwrap();
        let id = lo.trailer.get(b"ID").unwrap().as_array().unwrap();
        assert_eq!(id.len(), 2);
        let digest = id[0].as_str().unwrap().to_vec();
        assert_eq!(digest.len(), 16);
        assert_eq!(id[1].as_str().unwrap(), digest.as_slice());
        let b = lopdf::Document::load_mem(&pdf(&[&page()], "two")).unwrap();
        let other = b.trailer.get(b"ID").unwrap().as_array().unwrap()[0]
            .as_str()
            .unwrap();
        assert_ne!(other, digest.as_slice(), "another title, another ID");
    }

    #[test]
    fn no_empty_pdfx_marker() {
        let lo = lopdf::Document::load_mem(&pdf(&[&page()], "one")).unwrap();
        let info = lo.trailer.get(b"Info").unwrap().as_reference().unwrap();
        let dict = lo.get_object(info).unwrap().as_dict().unwrap();
        assert!(dict.get(b"GTS_PDFXVersion").is_err(), "{dict:?}");
        assert!(
            dict.get(b"Title").is_ok(),
            "the rest of the information stays"
        );
    }
}
