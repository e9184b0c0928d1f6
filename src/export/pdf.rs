//! PDF export with printpdf: one page per [`Drawing`], vector only, page size exactly the
//! drawing's (trim box set when there is bleed).
//!
//! Text is set in the bundled fonts ([`crate::draw::font`]: Liberation, and DejaVu Sans glyph by
//! glyph for what the Liberation face lacks), each embedded as a TrueType subset of the glyphs the
//! document uses (`pdf_subsets.rs`; cut with allsorts, the subsetter printpdf itself uses): a Type0
//! font with Identity-H encoding over a CIDFontType2 whose CIDs are the subset's glyph ids, its
//! `/W` widths the font's own advances (so glyphs land where the layout measured them), and a
//! `/ToUnicode` map so the text can be searched and copied. printpdf writes the pages (glyph ids
//! through `Op::ShowText`); the font objects are added to the lopdf document it gives, as one
//! resource dictionary every page shares. Glyph ids are numbered in sorted order and the subset tag
//! (`ABCDEF+`) is a digest of the glyph set, so the fonts are deterministic too.
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
    Codepoint, Color, FontId, Mm, Op, PdfDocument, PdfFontHandle, PdfPage, PdfSaveOptions, Point,
    Pt, Rgb, TextItem, TextMatrix,
};

use rayon::prelude::*;

use super::pdf_objects::{Counting, feed, write_indirect, write_object, write_xref};
use super::pdf_subsets::{Subsets, embed_fonts, hidden_letters, resource_name, subsets};
use crate::draw::{Drawing, Path, Placed, Pos, Rgb as Colour, Rotation, Seg, Shape, Text, place};

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

/// `c` as printpdf's colour: a grey (DeviceGray, the `g` operator) when its three channels
/// are equal, else RGB.
fn color(c: Colour) -> Color {
    let f = |v: u8| f32::from(v) / 255.0;
    if c.is_grey() {
        Color::Greyscale(printpdf::Greyscale::new(f(c.0), None))
    } else {
        Color::Rgb(Rgb::new(f(c.0), f(c.1), f(c.2), None))
    }
}

/// The page's text as printpdf operations (glyph ids of the embedded subsets); every other
/// printed item is in [`graphics`]'s stream, drawn before the text.
fn text_ops(d: &Drawing, fonts: &Subsets) -> Vec<Op> {
    let flip = Flip { height: d.height };
    let mut ops = Vec::new();
    for item in d.printed() {
        if let Shape::Text(t) = &item.shape {
            let glyphs = place(t);
            if glyphs.is_empty() {
                continue;
            }
            ops.push(Op::StartTextSection);
            ops.push(Op::SetFillColor {
                col: color(t.color),
            });
            let start = flip.pt(t.start());
            // turned on the page: down (PDF's -y), the letters' tops right; up (a turned
            // page's), the tops left; upside down
            let turn = |m: [f32; 4]| Op::SetTextMatrix {
                matrix: TextMatrix::Raw([m[0], m[1], m[2], m[3], start.x.0, start.y.0]),
            };
            ops.push(match t.rotated {
                Rotation::Across => Op::SetTextCursor { pos: start },
                r => turn(text_turn(r)),
            });
            // a line with right-to-left letters: its glyphs in the order typed (what text
            // extraction reads), each set at its place in the bidi order by its own text
            // matrix (poppler reads such a line as typed; TJ offsets it takes for spaces); a
            // shaped line's too (its advances and marks' offsets are the shaper's, not /W's)
            if glyphs.windows(2).any(|w| w[1].x < w[0].x) || glyphs.iter().any(|g| g.y != 0.0) {
                set_each_glyph(t, &glyphs, fonts, &flip, &mut ops);
                ops.push(Op::EndTextSection);
                continue;
            }
            // one run per font: the pen moves on by the fonts' /W advances, which are the
            // advances the layout placed the glyphs at
            for run in glyphs.chunk_by(|a, b| a.font.id() == b.font.id()) {
                let Some(subset) = fonts.get(&run[0].font.id()) else {
                    continue;
                };
                ops.push(set_font(run[0].font.id(), t.size));
                let cids = run
                    .iter()
                    .map(|g| Codepoint::new(subset.cid(g.gid), 0.0))
                    .collect();
                ops.push(Op::ShowText {
                    items: vec![TextItem::GlyphIds(cids)],
                });
            }
            ops.push(Op::EndTextSection);
        }
    }
    ops
}

/// The text matrix's turn (a, b, c, d) of a text turned `r` on the page: down (PDF's -y), the
/// letters' tops right; up (a turned page's), the tops left; upside down.
fn text_turn(r: Rotation) -> [f32; 4] {
    match r {
        Rotation::Across => [1.0, 0.0, 0.0, 1.0],
        Rotation::Down => [0.0, -1.0, 1.0, 0.0],
        Rotation::UpsideDown => [-1.0, 0.0, 0.0, -1.0],
        Rotation::Up => [0.0, 1.0, -1.0, 0.0],
    }
}

/// `Tf`: font `id` at `size` mm.
fn set_font(id: usize, size: f64) -> Op {
    Op::SetFont {
        font: PdfFontHandle::External(FontId(resource_name(id))),
        size: Pt((size * PT_PER_MM) as f32),
    }
}

/// Appends `t`'s `glyphs` (in the order typed) to `ops`, each at its own place on the line.
fn set_each_glyph(t: &Text, glyphs: &[Placed], fonts: &Subsets, flip: &Flip, ops: &mut Vec<Op>) {
    let m = text_turn(t.rotated);
    let (dx, dy) = t.rotated.along();
    let s0 = t.start();
    let mut font_now = None;
    for g in glyphs {
        let Some(subset) = fonts.get(&g.font.id()) else {
            continue;
        };
        if font_now != Some(g.font.id()) {
            font_now = Some(g.font.id());
            ops.push(set_font(g.font.id(), t.size));
        }
        // along the line by x, and up from it (turned with it) by y
        let at = flip.pt(Pos::new(
            s0.x + dx * g.x + dy * g.y,
            s0.y + dy * g.x - dx * g.y,
        ));
        ops.push(Op::SetTextMatrix {
            matrix: TextMatrix::Raw([m[0], m[1], m[2], m[3], at.x.0, at.y.0]),
        });
        ops.push(show_glyph(subset.cid(g.gid)));
        // a ligature's letters, invisible, each squeezed into its share of the ligature's
        // width, in reading order (the first letter typed rightmost in a right-to-left line)
        let hidden = hidden_letters(g);
        if hidden.is_empty() {
            continue;
        }
        let width = g.font.glyph_advance_em(g.gid) * t.size;
        let share = width / hidden.len() as f64;
        let rtl = crate::draw::reads_right_to_left(&g.text);
        ops.push(Op::SetTextRenderingMode {
            mode: printpdf::TextRenderingMode::Invisible,
        });
        for (k, &(gid, _)) in hidden.iter().enumerate() {
            let x = if rtl {
                g.x + width - (k as f64 + 1.0) * share
            } else {
                g.x + k as f64 * share
            };
            let own = g.font.glyph_advance_em(gid) * t.size;
            let sx = if own > 0.0 { (share / own) as f32 } else { 1.0 };
            let at = flip.pt(Pos::new(s0.x + dx * x + dy * g.y, s0.y + dy * x - dx * g.y));
            ops.push(Op::SetTextMatrix {
                matrix: TextMatrix::Raw([m[0] * sx, m[1] * sx, m[2], m[3], at.x.0, at.y.0]),
            });
            ops.push(show_glyph(subset.cid(gid)));
        }
        ops.push(Op::SetTextRenderingMode {
            mode: printpdf::TextRenderingMode::Fill,
        });
    }
}

/// `Tj` of one glyph (its CID).
fn show_glyph(cid: u16) -> Op {
    Op::ShowText {
        items: vec![TextItem::GlyphIds(vec![Codepoint::new(cid, 0.0)])],
    }
}

/// The page's strokes and fills (every printed item but text, bottom to top) as one PDF content
/// stream, written straight into a zlib encoder: a maze of millions of wall segments costs
/// its compressed bytes, never an operation object per point (printpdf's and lopdf's
/// operation lists take over 100 bytes a point). Wrapped in `q ... Q`, so the text drawn
/// after it starts from the default graphics state.
fn graphics(d: &Drawing) -> lopdf::Stream {
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
            Shape::Image { area, image } => {
                // the unit square to the box: x, y its lower left corner in points
                let corner = flip.pt(Pos::new(area.x, area.y + area.h));
                out.raw(b"q\n");
                out.num(Pt((area.w * PT_PER_MM) as f32));
                out.raw(b"0 0 ");
                out.num(Pt((area.h * PT_PER_MM) as f32));
                out.point(corner);
                out.raw(b"cm\n/");
                out.raw(image_name(image).as_bytes());
                out.raw(b" Do\nQ\n");
            }
            Shape::Text(_) | Shape::Tint { .. } => {} // text: text_ops; overlays never print
        }
    }
    out.raw(b"Q\n");
    let z = out.finish();
    let mut dict = lopdf::Dictionary::new();
    dict.set("Filter", "FlateDecode");
    lopdf::Stream::new(dict, z)
}

/// A content stream being written: operands as decimal numbers of at most two places. The
/// text is compressed as it is written ([`Ops::CHUNK`] bytes at a time), so a page costs its
/// compressed size in memory, not its text's.
struct Ops {
    bytes: Vec<u8>,
    zip: flate2::write::ZlibEncoder<Vec<u8>>,
}

impl Ops {
    /// How much text is gathered before it goes to the compressor.
    const CHUNK: usize = 1 << 16;

    fn new() -> Ops {
        Ops {
            bytes: Vec::with_capacity(Self::CHUNK + 256),
            zip: flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::new(2)),
        }
    }

    fn raw(&mut self, b: &[u8]) {
        self.bytes.extend_from_slice(b);
        if self.bytes.len() >= Self::CHUNK {
            self.spill();
        }
    }

    /// Hands the gathered text to the compressor.
    fn spill(&mut self) {
        use std::io::Write as _;
        // writing to memory only fails on allocation failure, which aborts anyway
        self.zip
            .write_all(&self.bytes)
            .expect("compressing to memory does not fail");
        self.bytes.clear();
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

    /// Sets the colour with `op` (`RG` or `rg`); a grey is set with `G` or `g` (DeviceGray).
    fn color(&mut self, c: Colour, op: &[u8]) {
        use std::io::Write as _;
        let rgb = [c.0, c.1, c.2];
        let (channels, op): (&[u8], &[u8]) = match (c.is_grey(), op) {
            (true, b"RG") => (&rgb[..1], &b"G"[..]),
            (true, _) => (&rgb[..1], &b"g"[..]),
            (false, _) => (&rgb[..], op),
        };
        for &v in channels {
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
        for s in path.segs() {
            match s {
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

    /// The compressed stream.
    fn finish(mut self) -> Vec<u8> {
        self.spill();
        self.zip
            .finish()
            .expect("compressing to memory does not fail")
    }
}

/// The document information of a PDF: what `pdfinfo` shows. The producer is always
/// [`PRODUCER`]; the dates are the caller's (the library reads no clock), left out when `None`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Info<'a> {
    /// `/Title`.
    pub title: &'a str,
    /// `/Author`, when given.
    pub author: Option<&'a str>,
    /// `/Subject` (a book's subtitle), when given.
    pub subject: Option<&'a str>,
    /// `/CreationDate` and `/ModDate`, in seconds since 1970-01-01 UTC, when given.
    pub date: Option<i64>,
}

/// Every PDF's `/Producer` (and `/Creator`): `Hedge` and its version.
pub const PRODUCER: &str = concat!("Hedge ", env!("CARGO_PKG_VERSION"));

/// Renders a whole book, `pages` in order, as one PDF document with the information `info`:
/// the multi-page entry point of [`crate::book`]. Pages are converted and their streams
/// compressed in parallel; the bytes do not depend on the thread count.
pub fn book(pages: &[Drawing], info: &Info<'_>) -> Vec<u8> {
    let refs: Vec<&Drawing> = pages.iter().collect();
    pdf_with(&refs, info)
}

/// Renders `pages` as one PDF document titled `title` (no author, subject or dates).
pub fn pdf(pages: &[&Drawing], title: &str) -> Vec<u8> {
    pdf_with(
        pages,
        &Info {
            title,
            ..Info::default()
        },
    )
}

/// Renders `pages` as one PDF document with the information `info`.
pub fn pdf_with(pages: &[&Drawing], info: &Info<'_>) -> Vec<u8> {
    let doc = prepare(pages, info);
    let mut bytes = Vec::new();
    // writing to memory only fails on allocation failure, which aborts anyway
    doc.write(&|i| Ok(std::borrow::Cow::Borrowed(pages[i])), &mut bytes)
        .expect("writing a PDF to memory does not fail");
    bytes
}

/// Draws page `i` of a document (a book's page drawn again from its maze when it is written).
pub type PageSource<'a> =
    dyn Fn(usize) -> crate::error::Result<std::borrow::Cow<'a, Drawing>> + Sync + 'a;

/// A PDF document made but for its pages' strokes and fills, which [`Prepared::write`] draws
/// and compresses page by page as it writes them: the memory it takes is its text and fonts,
/// whatever the number of pages. Its bytes are the bytes [`pdf_with`] gives for the same pages.
#[derive(Debug)]
pub struct Prepared {
    /// Every object but the pages' graphics streams (`Null` in their place).
    lo: lopdf::Document,
    /// Each page's graphics stream's object, in page order (ascending).
    graphics: Vec<lopdf::ObjectId>,
}

/// Lays out the document of `pages` with the information `info`: the page sizes, the text and
/// the font subsets are read from `pages` (the text is all it needs of them: a page's text
/// alone, [`Drawing::text_only`], gives the same document); the strokes and fills are drawn
/// when it is written.
pub fn prepare(pages: &[&Drawing], info: &Info<'_>) -> Prepared {
    let mut doc = PdfDocument::new(&crate::draw::printable(info.title));
    let fonts = subsets(pages);
    let pdf_pages: Vec<PdfPage> = pages
        .par_iter()
        .map(|d| {
            let mut p = PdfPage::new(Mm(d.width as f32), Mm(d.height as f32), text_ops(d, &fonts));
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
    let graphics = put_graphics_first(&mut lo);
    embed_fonts(&mut lo, &fonts);
    embed_images(&mut lo, pages);
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
    set_info(&mut lo, info);
    Prepared { lo, graphics }
}

impl Prepared {
    /// The fonts' state, as [`super::pdf_fonts::pdf_fonts`] reads it from the written file.
    pub fn fonts(&self) -> super::pdf_fonts::Fonts {
        super::pdf_fonts::document_fonts(&self.lo)
    }

    /// Writes the document to `out`, drawing page `i`'s strokes and fills with `page(i)` as its
    /// turn comes (a few pages at a time, one a thread, compressed in parallel), and its
    /// `/ID` a digest of the objects as they are written (`content_id` in `pdf_objects.rs`).
    /// The bytes are lopdf's `save_to`'s (a cross-reference table, objects in number order).
    pub fn write(
        &self,
        page: &PageSource<'_>,
        out: &mut dyn std::io::Write,
    ) -> std::io::Result<()> {
        use lopdf::xref::{Xref, XrefEntry, XrefType};
        use md5::Digest as _;
        use std::io::Write as _;
        let lo = &self.lo;
        let mut out = Counting {
            inner: out,
            written: 0,
        };
        let mut xref = Xref::new(lo.max_id + 1, XrefType::CrossReferenceTable);
        writeln!(out, "%PDF-{}", lo.version)?;
        out.write_all(b"%")?;
        out.write_all(&lo.binary_mark)?;
        out.write_all(b"\n")?;
        let mut h = md5::Md5::new();
        // the pages' graphics streams, drawn a batch at a time ahead of their turn
        let batch = rayon::current_num_threads().max(1) * 2;
        let mut ready: std::collections::VecDeque<lopdf::Object> = Default::default();
        let mut next_page = 0;
        for (&(id, generation), object) in &lo.objects {
            let drawn;
            let object = if next_page < self.graphics.len()
                && self.graphics[next_page] == (id, generation)
            {
                if ready.is_empty() {
                    let end = (next_page + batch).min(self.graphics.len());
                    let streams: Vec<crate::error::Result<lopdf::Object>> = (next_page..end)
                        .into_par_iter()
                        .map(|i| Ok(lopdf::Object::Stream(graphics(&*page(i)?))))
                        .collect();
                    for s in streams {
                        ready.push_back(s.map_err(std::io::Error::other)?);
                    }
                }
                next_page += 1;
                drawn = ready.pop_front().expect("drawn ahead");
                &drawn
            } else {
                object
            };
            h.update(id.to_le_bytes());
            h.update(generation.to_le_bytes());
            feed(&mut h, object);
            xref.insert(
                id,
                XrefEntry::Normal {
                    offset: out.written as u32,
                    generation,
                },
            );
            write_indirect(&mut out, id, generation, object)?;
        }
        let mut trailer = lo.trailer.clone();
        for (key, value) in trailer.iter().filter(|(k, _)| k.as_slice() != b"ID") {
            h.update(key);
            feed(&mut h, value);
        }
        let digest: [u8; 16] = h.finalize().into();
        let id = lopdf::Object::String(digest.to_vec(), lopdf::StringFormat::Hexadecimal);
        trailer.set("ID", vec![id.clone(), id]);
        let xref_start = out.written;
        write_xref(&mut out, &xref)?;
        trailer.set("Size", i64::from(lo.max_id + 1));
        out.write_all(b"trailer\n")?;
        write_object(&mut out, &lopdf::Object::Dictionary(trailer))?;
        write!(out, "\nstartxref\n{xref_start}\n%%EOF")?;
        Ok(())
    }
}

/// The resource name of a raster picture: `Im` and its digest's first 16 digits (the same
/// picture, the same name, in every document).
fn image_name(image: &crate::picture::Raster) -> String {
    format!("Im{}", &image.digest[..16])
}

/// Adds every raster picture of `pages` (their [`Shape::Image`] items) to `lo` once, as an
/// image XObject (8-bit DeviceRGB, or DeviceGray for a grey picture; its alpha as a DeviceGray
/// soft mask when it has one; the
/// streams are deflated with the others), and names them in every page's `/Resources
/// /XObject`. In digest order, so the same pages give the same objects.
fn embed_images(lo: &mut lopdf::Document, pages: &[&Drawing]) {
    use lopdf::{Dictionary, Object, Stream};
    let mut images: std::collections::BTreeMap<String, &crate::picture::Raster> =
        Default::default();
    for d in pages {
        for item in d.printed() {
            if let Shape::Image { image, .. } = &item.shape {
                images.insert(image_name(image), image);
            }
        }
    }
    if images.is_empty() {
        return;
    }
    let mut names = Dictionary::new();
    for (name, image) in images {
        let image_dict = |space: &str, bytes: Vec<u8>| {
            let mut dict = Dictionary::new();
            dict.set("Type", "XObject");
            dict.set("Subtype", "Image");
            dict.set("Width", i64::from(image.width));
            dict.set("Height", i64::from(image.height));
            dict.set("ColorSpace", space);
            dict.set("BitsPerComponent", 8);
            Stream::new(dict, bytes)
        };
        // a grey picture (every picture of a black-and-white book) in DeviceGray: no RGB
        let grey = image
            .rgba
            .chunks_exact(4)
            .all(|p| p[0] == p[1] && p[1] == p[2]);
        let mut stream = if grey {
            image_dict(
                "DeviceGray",
                image.rgba.chunks_exact(4).map(|p| p[0]).collect(),
            )
        } else {
            let rgb = image.rgba.chunks_exact(4).flat_map(|p| [p[0], p[1], p[2]]);
            image_dict("DeviceRGB", rgb.collect())
        };
        if !image.opaque() {
            let alpha: Vec<u8> = image.rgba.chunks_exact(4).map(|p| p[3]).collect();
            let mask = lo.add_object(image_dict("DeviceGray", alpha));
            stream.dict.set("SMask", Object::Reference(mask));
        }
        let id = lo.add_object(stream);
        names.set(name.as_bytes(), Object::Reference(id));
    }
    let resources: Vec<lopdf::ObjectId> = lo
        .get_pages()
        .into_values()
        .filter_map(|page| {
            lo.get_dictionary(page)
                .and_then(|p| p.get(b"Resources"))
                .and_then(Object::as_reference)
                .ok()
        })
        .collect();
    // printpdf gives the pages' resources an /XObject dictionary by reference: the names go
    // into it (or into a dictionary of their own where there is none)
    let mut targets: Vec<lopdf::ObjectId> = Vec::new();
    for r in resources {
        let Ok(dict) = lo.get_dictionary_mut(r) else {
            continue;
        };
        match dict.get_mut(b"XObject") {
            Ok(Object::Reference(t)) => {
                if !targets.contains(t) {
                    targets.push(*t);
                }
            }
            Ok(Object::Dictionary(d)) => d.extend(&names),
            _ => dict.set("XObject", Object::Dictionary(names.clone())),
        }
    }
    for t in targets {
        if let Ok(d) = lo.get_dictionary_mut(t) {
            d.extend(&names);
        }
    }
}

/// Makes a graphics stream (in page order) the first of each page's `/Contents`, before
/// printpdf's text stream: a `Null` object in its place until [`Prepared::write`] draws it.
/// Returns their objects, in page order.
fn put_graphics_first(lo: &mut lopdf::Document) -> Vec<lopdf::ObjectId> {
    let pages: Vec<lopdf::ObjectId> = lo.get_pages().into_values().collect();
    let mut out = Vec::with_capacity(pages.len());
    for page in pages {
        let gfx = lo.add_object(lopdf::Object::Null);
        out.push(gfx);
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
    out
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

/// Writes `info` into the document information dictionary: the title, author and subject
/// (as PDF text strings), the producer, and the dates when given; empty entries printpdf
/// writes (keywords, identifier, an unknown author) and its 1970 dates are removed.
fn set_info(lo: &mut lopdf::Document, info: &Info<'_>) {
    let Ok(id) = lo
        .trailer
        .get(b"Info")
        .and_then(lopdf::Object::as_reference)
    else {
        return;
    };
    let Ok(dict) = lo.get_object_mut(id).and_then(lopdf::Object::as_dict_mut) else {
        return;
    };
    for key in [
        "Author",
        "Subject",
        "Keywords",
        "Identifier",
        "CreationDate",
        "ModDate",
    ] {
        dict.remove(key.as_bytes());
    }
    let text = |t: &str| lopdf::Object::string_literal(pdf_text(&crate::draw::printable(t)));
    dict.set("Title", text(info.title));
    if let Some(a) = info.author.filter(|a| !a.trim().is_empty()) {
        dict.set("Author", text(a));
    }
    if let Some(s) = info.subject.filter(|s| !s.trim().is_empty()) {
        dict.set("Subject", text(s));
    }
    dict.set("Producer", text(PRODUCER));
    dict.set("Creator", text(PRODUCER));
    if let Some(t) = info.date {
        let d = lopdf::Object::string_literal(pdf_date(t));
        dict.set("CreationDate", d.clone());
        dict.set("ModDate", d);
    }
}

/// A PDF text string's bytes: PDFDocEncoding for ASCII, else UTF-16BE with its byte order
/// mark (PDF 32000-1 §7.9.2.2).
fn pdf_text(t: &str) -> Vec<u8> {
    if t.is_ascii() {
        t.as_bytes().to_vec()
    } else {
        let mut b = vec![0xFE, 0xFF];
        b.extend(t.encode_utf16().flat_map(u16::to_be_bytes));
        b
    }
}

/// A PDF date (`D:YYYYMMDDHHmmSSZ`, UTC) for `t` seconds since 1970-01-01 UTC.
pub fn pdf_date(t: i64) -> String {
    let (days, secs) = (t.div_euclid(86_400), t.rem_euclid(86_400));
    // Howard Hinnant's civil-from-days
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "D:{year:04}{month:02}{day:02}{:02}{:02}{:02}Z",
        secs / 3600,
        secs % 3600 / 60,
        secs % 60
    )
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::draw::{Area, Drawing};
    use crate::export::pdf_objects::set_content_id;

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

    fn titled(title: &str) -> Drawing {
        let mut d = page();
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
                color: Colour::BLACK,
            }),
        });
        d
    }

    /// The document written page by page is lopdf's `save_to` of the whole document, its `/ID`
    /// the digest of every object.
    #[test]
    fn the_streamed_document_is_lopdfs_save() {
        let pages = [titled("Zoë (a) \\ ♥"), page(), titled("AB)")];
        let refs: Vec<&Drawing> = pages.iter().collect();
        let info = Info {
            title: "t (x",
            author: Some("Ann"),
            subject: None,
            date: Some(1_772_366_400),
        };
        let streamed = pdf_with(&refs, &info);
        let prepared = prepare(&refs, &info);
        let mut lo = prepared.lo.clone();
        for (id, d) in prepared.graphics.iter().zip(&pages) {
            lo.objects.insert(*id, lopdf::Object::Stream(graphics(d)));
        }
        set_content_id(&mut lo);
        let mut whole = Vec::new();
        lo.save_to(&mut whole).unwrap();
        assert!(streamed == whole, "the streamed bytes differ from lopdf's");
    }

    #[test]
    fn pdf_dates_are_utc_calendar_dates() {
        assert_eq!(pdf_date(0), "D:19700101000000Z");
        assert_eq!(pdf_date(951_782_400), "D:20000229000000Z");
        assert_eq!(pdf_date(1_772_366_400 + 3_723), "D:20260301130203Z");
        assert_eq!(pdf_date(-1), "D:19691231235959Z");
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
