//! PDF export with printpdf: one page per [`Drawing`], vector only, text in the base-14
//! Helvetica, Times or Courier (base-14 fonts, nothing embedded), page size exactly the drawing's (trim box set when there is
//! bleed).
//!
//! Determinism: printpdf's dates default to the Unix epoch, but its trailer `/ID` comes from a
//! process-wide counter, so two saves in one process differ there. After saving, the two ID
//! strings are overwritten (same length, so the cross-reference offsets stay valid) with a digest
//! of everything before them: the same drawings always give the same bytes.

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
    let mut bytes = Vec::new();
    if lo.save_to(&mut bytes).is_err() {
        // writing to memory does not fail; should it, fall back to printpdf's own save
        bytes = doc_fallback(pages, title);
    }
    fix_document_id(bytes)
}

fn doc_fallback(pages: &[&Drawing], title: &str) -> Vec<u8> {
    let mut doc = PdfDocument::new(&crate::draw::printable(title));
    let pdf_pages = pages
        .iter()
        .map(|d| PdfPage::new(Mm(d.width as f32), Mm(d.height as f32), page_ops(d)))
        .collect();
    let mut warnings = Vec::new();
    doc.with_pages(pdf_pages)
        .save(&PdfSaveOptions::default(), &mut warnings)
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

/// 64-bit FNV-1a, seeded.
fn fnv(bytes: &[u8], seed: u64) -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325u64 ^ seed;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// Replaces the trailer's two `/ID` strings with a digest of the bytes before them, keeping
/// their lengths (so the xref table stays right).
fn fix_document_id(mut bytes: Vec<u8>) -> Vec<u8> {
    let Some(at) = bytes.windows(3).rposition(|w| w == b"/ID") else {
        return bytes;
    };
    let digest = {
        let head = &bytes[..at];
        let mut hex = String::new();
        for seed in 0..4u64 {
            hex.push_str(&format!("{:016x}", fnv(head, seed)));
        }
        hex.into_bytes()
    };
    let mut i = at + 3;
    for _ in 0..2 {
        // the next string: literal (...) or hex <...>
        let Some(open) = bytes[i..]
            .iter()
            .position(|&c| c == b'(' || c == b'<')
            .map(|p| p + i)
        else {
            return bytes;
        };
        let close_ch = if bytes[open] == b'(' { b')' } else { b'>' };
        let Some(close) = bytes[open + 1..]
            .iter()
            .position(|&c| c == close_ch)
            .map(|p| p + open + 1)
        else {
            return bytes;
        };
        let body = &mut bytes[open + 1..close];
        if body.iter().all(u8::is_ascii_alphanumeric) {
            for (k, b) in body.iter_mut().enumerate() {
                *b = digest[k % digest.len()];
            }
        }
        i = close + 1;
    }
    bytes
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn document_id_is_rewritten_in_place() {
        let src = b"%PDF-1.3 body trailer<</ID[(abcDEF123)(zzzzzzzzz)]>>".to_vec();
        let out = fix_document_id(src.clone());
        assert_eq!(out.len(), src.len());
        assert_ne!(out, src);
        assert_eq!(fix_document_id(src.clone()), out);
        let s = String::from_utf8(out).unwrap();
        assert!(s.starts_with("%PDF-1.3 body trailer<</ID[("));
    }
}
