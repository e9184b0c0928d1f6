//! PDF export with printpdf: one page per [`Drawing`], vector only, text in the base-14
//! Helvetica, Times or Courier (base-14 fonts, nothing embedded), page size exactly the drawing's (trim box set when there is
//! bleed).
//!
//! The strokes and fills of a page are written by this module as one compressed content stream
//! ([`graphics`], decimal operands of two places, about 16 bytes a point before compression),
//! put first in the page's `/Contents`; printpdf writes the text after it. So the memory a page
//! takes is its compressed stream, whatever the maze's size.
//!
//! Determinism: printpdf's dates default to the Unix epoch, but the trailer `/ID` it sets comes
//! from a process-wide counter, so two saves in one process would differ there. The document is
//! built as an [`lopdf::Document`] (printpdf's `to_lopdf_document`) and, before it is written,
//! its trailer `/ID` is replaced by an MD5 digest of its objects (`content_id`, the digest
//! PDF 32000-1 §14.4 suggests): the same drawings always give the same bytes.

use printpdf::{
    BuiltinFont, Color, Mm, Op, PdfDocument, PdfFontHandle, PdfPage, PdfSaveOptions, Point, Pt,
    Rgb, TextItem,
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
}

fn color(c: Colour) -> Color {
    let f = |v: u8| f32::from(v) / 255.0;
    Color::Rgb(Rgb::new(f(c.0), f(c.1), f(c.2), None))
}

/// The page's text as printpdf operations (the fonts and their encoding are printpdf's); every
/// other printed item is in [`graphics`]'s stream, drawn before the text.
fn text_ops(d: &Drawing) -> Vec<Op> {
    let flip = Flip { height: d.height };
    let mut ops = Vec::new();
    for item in d.printed() {
        if let Shape::Text(t) = &item.shape {
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
    }
    ops
}

/// The page's strokes and fills (every printed item but text, bottom to top) as one PDF content
/// stream, written straight into a zlib encoder: a maze of millions of wall segments costs
/// its compressed bytes, never an operation object per point (printpdf's and lopdf's
/// operation lists take over 100 bytes a point). Wrapped in `q ... Q`, so the text drawn
/// after it starts from the default graphics state.
fn graphics(d: &Drawing) -> lopdf::Stream {
    use std::io::Write as _;
    let flip = Flip { height: d.height };
    let mut out = Ops::new();
    out.raw(b"q\n1 J\n1 j\n");
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
                    out.color(*c, b"RG");
                    stroke_color = Some(*c);
                }
                if width != Some(*w) {
                    out.num(Pt((w * PT_PER_MM) as f32));
                    out.raw(b"w\n");
                    width = Some(*w);
                }
                if out.path(&flip, path) {
                    out.raw(b"S\n");
                }
            }
            Shape::Fill { path, color: c } => {
                if fill_color != Some(*c) {
                    out.color(*c, b"rg");
                    fill_color = Some(*c);
                }
                if out.path(&flip, path) {
                    out.raw(b"f\n");
                }
            }
            Shape::Text(_) | Shape::Tint { .. } => {} // text: text_ops; overlays never print
        }
    }
    out.raw(b"Q\n");
    let mut enc = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::new(2));
    // writing to memory only fails on allocation failure, which aborts anyway
    enc.write_all(&out.finish())
        .expect("compressing to memory does not fail");
    let z = enc.finish().expect("compressing to memory does not fail");
    let mut dict = lopdf::Dictionary::new();
    dict.set("Filter", "FlateDecode");
    lopdf::Stream::new(dict, z)
}

/// A content stream being written: operands as decimal numbers of at most two places.
struct Ops {
    bytes: Vec<u8>,
}

impl Ops {
    fn new() -> Ops {
        Ops { bytes: Vec::new() }
    }

    fn raw(&mut self, b: &[u8]) {
        self.bytes.extend_from_slice(b);
    }

    /// `v` (already rounded to 0.01 pt by [`Flip::pt`]) and a space.
    fn num(&mut self, v: Pt) {
        use std::io::Write as _;
        let hundredths = (f64::from(v.0) * 100.0).round() as i64;
        let (sign, a) = if hundredths < 0 {
            ("-", -hundredths)
        } else {
            ("", hundredths)
        };
        let (int, frac) = (a / 100, a % 100);
        // writing to a Vec never fails
        let _ = match frac {
            0 => write!(self.bytes, "{sign}{int} "),
            f if f % 10 == 0 => write!(self.bytes, "{sign}{int}.{} ", f / 10),
            f => write!(self.bytes, "{sign}{int}.{f:02} "),
        };
    }

    fn point(&mut self, p: Point) {
        self.num(p.x);
        self.num(p.y);
    }

    fn color(&mut self, c: Colour, op: &[u8]) {
        use std::io::Write as _;
        for v in [c.0, c.1, c.2] {
            // three decimals: 255 levels are 0.0039 apart
            let _ = write!(
                self.bytes,
                "{} ",
                (f64::from(v) / 255.0 * 1000.0).round() / 1000.0
            );
        }
        self.raw(op);
        self.raw(b"\n");
    }

    /// Writes `path`'s subpaths (m, l, c, h); false when it has nothing to paint.
    fn path(&mut self, flip: &Flip, path: &Path) -> bool {
        let mut painted = false;
        let mut open = false;
        for s in path.segs.iter() {
            match *s {
                Seg::MoveTo(a) => {
                    self.point(flip.pt(a));
                    self.raw(b"m\n");
                    open = true;
                }
                Seg::LineTo(a) if open => {
                    self.point(flip.pt(a));
                    self.raw(b"l\n");
                    painted = true;
                }
                Seg::CubicTo(a, b, c) if open => {
                    self.point(flip.pt(a));
                    self.point(flip.pt(b));
                    self.point(flip.pt(c));
                    self.raw(b"c\n");
                    painted = true;
                }
                Seg::Close if open => self.raw(b"h\n"),
                _ => {}
            }
        }
        painted
    }

    fn finish(self) -> Vec<u8> {
        self.bytes
    }
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
            let mut p = PdfPage::new(Mm(d.width as f32), Mm(d.height as f32), text_ops(d));
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
    let streams: Vec<lopdf::Stream> = pages.par_iter().map(|d| graphics(d)).collect();
    let mut lo = doc
        .with_pages(pdf_pages)
        .to_lopdf_document(&opts, &mut warnings);
    put_graphics_first(&mut lo, streams);
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

/// Makes each page's graphics stream (in page order) the first of its `/Contents`, before
/// printpdf's text stream.
fn put_graphics_first(lo: &mut lopdf::Document, streams: Vec<lopdf::Stream>) {
    let pages: Vec<lopdf::ObjectId> = lo.get_pages().into_values().collect();
    for (page, stream) in pages.into_iter().zip(streams) {
        let gfx = lo.add_object(stream);
        let Ok(dict) = lo.get_object_mut(page).and_then(lopdf::Object::as_dict_mut) else {
            continue;
        };
        let mut contents = vec![lopdf::Object::Reference(gfx)];
        match dict.get(b"Contents") {
            Ok(lopdf::Object::Array(a)) => contents.extend(a.iter().cloned()),
            Ok(other) => contents.push(other.clone()),
            Err(_) => {}
        }
        dict.set("Contents", contents);
    }
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
