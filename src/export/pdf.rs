//! PDF export with printpdf: one page per [`Drawing`], vector only, page size exactly the
//! drawing's (trim box set when there is bleed).
//!
//! Text is set in the bundled fonts ([`crate::draw::font`]: Liberation, and DejaVu Sans glyph
//! by glyph for what the Liberation face lacks), each embedded as a TrueType subset of the
//! glyphs the document uses (cut with allsorts, the subsetter printpdf itself uses): a Type0
//! font with Identity-H encoding over a CIDFontType2 whose CIDs are the subset's glyph ids, its
//! `/W` widths the font's own advances (so glyphs land where the layout measured them), and a
//! `/ToUnicode` map so the text can be searched and copied. printpdf writes the pages (glyph
//! ids through `Op::ShowText`); the font objects are added to the lopdf document it gives,
//! as one resource dictionary every page shares. Glyph ids are numbered in sorted order and
//! the subset tag (`ABCDEF+`) is a digest of the glyph set, so the fonts are deterministic too.
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

use std::collections::BTreeMap;

use printpdf::{
    Codepoint, Color, FontId, Mm, Op, PdfDocument, PdfFontHandle, PdfPage, PdfSaveOptions, Point,
    Pt, Rgb, TextItem, TextMatrix,
};

use rayon::prelude::*;

use crate::draw::{Drawing, Path, Pos, Rgb as Colour, Seg, Shape, place};

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
            ops.push(if t.rotated {
                // a quarter turn clockwise on the page: the text runs down (PDF's -y), the
                // letters' tops point right
                Op::SetTextMatrix {
                    matrix: TextMatrix::Raw([0.0, -1.0, 1.0, 0.0, start.x.0, start.y.0]),
                }
            } else {
                Op::SetTextCursor { pos: start }
            });
            // one run per font: the pen moves on by the fonts' /W advances, which are the
            // advances the layout placed the glyphs at
            for run in glyphs.chunk_by(|a, b| a.font.id() == b.font.id()) {
                let Some(subset) = fonts.get(&run[0].font.id()) else {
                    continue;
                };
                ops.push(Op::SetFont {
                    font: PdfFontHandle::External(FontId(resource_name(run[0].font.id()))),
                    size: Pt((t.size * PT_PER_MM) as f32),
                });
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
    /// `/ID` a digest of the objects as they are written ([`content_id`]). The bytes are
    /// lopdf's `save_to`'s (a cross-reference table, objects in number order).
    pub fn write(
        &self,
        page: &PageSource<'_>,
        out: &mut dyn std::io::Write,
    ) -> std::io::Result<()> {
        use lopdf::xref::{Xref, XrefEntry, XrefSection, XrefType};
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
            let separated = |o: &lopdf::Object| {
                use lopdf::Object as O;
                matches!(
                    o,
                    O::Null | O::Boolean(_) | O::Integer(_) | O::Real(_) | O::Reference(_)
                )
            };
            let end_separated = |o: &lopdf::Object| {
                separated(o) || matches!(o, lopdf::Object::Name(_) | lopdf::Object::Stream(_))
            };
            write!(
                out,
                "{id} {generation} obj\n{}",
                if separated(object) { " " } else { "" }
            )?;
            write_object(&mut out, object)?;
            writeln!(
                out,
                "{}\nendobj",
                if end_separated(object) { " " } else { "" }
            )?;
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
        // the cross-reference table, as lopdf writes it: runs of consecutive objects
        writeln!(out, "xref")?;
        let mut section = XrefSection::new(0);
        section.add_unusable_free_entry();
        for obj_id in 1..xref.size {
            if section.is_empty() {
                section = XrefSection::new(obj_id);
            }
            match xref.get(obj_id) {
                Some(&XrefEntry::Normal { offset, generation }) => {
                    section.add_entry(XrefEntry::Normal { offset, generation });
                }
                Some(_) => section.add_unusable_free_entry(),
                None => {
                    if !section.is_empty() {
                        section.write_xref_section(&mut out)?;
                        section = XrefSection::new(obj_id);
                    }
                }
            }
        }
        if !section.is_empty() {
            section.write_xref_section(&mut out)?;
        }
        trailer.set("Size", i64::from(lo.max_id + 1));
        out.write_all(b"trailer\n")?;
        write_object(&mut out, &lopdf::Object::Dictionary(trailer))?;
        write!(out, "\nstartxref\n{xref_start}\n%%EOF")?;
        Ok(())
    }
}

/// Writes one object as lopdf's writer does (its `Writer::write_object`, which lopdf does not
/// export): the same bytes as `Document::save_to`.
fn write_object(out: &mut dyn std::io::Write, object: &lopdf::Object) -> std::io::Result<()> {
    use lopdf::Object as O;
    let separated = |o: &O| {
        matches!(
            o,
            O::Null | O::Boolean(_) | O::Integer(_) | O::Real(_) | O::Reference(_)
        )
    };
    match object {
        O::Null => out.write_all(b"null"),
        O::Boolean(v) => out.write_all(if *v { b"true" } else { b"false" }),
        O::Integer(v) => write!(out, "{v}"),
        O::Real(v) => write!(out, "{v}"),
        O::Name(name) => write_name(out, name),
        O::String(text, lopdf::StringFormat::Literal) => {
            // backslashes, carriage returns and unbalanced parentheses escaped
            let mut escape = Vec::new();
            let mut open = Vec::new();
            for (i, &b) in text.iter().enumerate() {
                match b {
                    b'(' => open.push(i),
                    b')' if open.pop().is_none() => escape.push(i),
                    b'\\' | b'\r' => escape.push(i),
                    _ => {}
                }
            }
            escape.append(&mut open);
            out.write_all(b"(")?;
            for (i, &b) in text.iter().enumerate() {
                if escape.contains(&i) {
                    out.write_all(&[b'\\', if b == b'\r' { b'r' } else { b }])?;
                } else {
                    out.write_all(&[b])?;
                }
            }
            out.write_all(b")")
        }
        O::String(text, lopdf::StringFormat::Hexadecimal) => {
            out.write_all(b"<")?;
            for b in text {
                write!(out, "{b:02X}")?;
            }
            out.write_all(b">")
        }
        O::Array(items) => {
            out.write_all(b"[")?;
            for (k, item) in items.iter().enumerate() {
                if k > 0 && separated(item) {
                    out.write_all(b" ")?;
                }
                write_object(out, item)?;
            }
            out.write_all(b"]")
        }
        O::Dictionary(dict) => write_dict(out, dict),
        O::Stream(stream) => {
            write_dict(out, &stream.dict)?;
            out.write_all(b"stream\n")?;
            out.write_all(&stream.content)?;
            out.write_all(b"\nendstream")
        }
        O::Reference((num, generation)) => write!(out, "{num} {generation} R"),
    }
}

fn write_dict(out: &mut dyn std::io::Write, dict: &lopdf::Dictionary) -> std::io::Result<()> {
    use lopdf::Object as O;
    out.write_all(b"<<")?;
    for (key, value) in dict.iter() {
        write_name(out, key)?;
        if matches!(
            value,
            O::Null | O::Boolean(_) | O::Integer(_) | O::Real(_) | O::Reference(_)
        ) {
            out.write_all(b" ")?;
        }
        write_object(out, value)?;
    }
    out.write_all(b">>")
}

/// A name: white space, delimiters and bytes outside `!` to `~` as `#XX`.
fn write_name(out: &mut dyn std::io::Write, name: &[u8]) -> std::io::Result<()> {
    out.write_all(b"/")?;
    for &b in name {
        if b" \t\n\r\x0C()<>[]{}/%#".contains(&b) || !(33..=126).contains(&b) {
            write!(out, "#{b:02X}")?;
        } else {
            out.write_all(&[b])?;
        }
    }
    Ok(())
}

/// A writer that counts the bytes it passes on: the objects' offsets.
struct Counting<'a> {
    inner: &'a mut dyn std::io::Write,
    written: usize,
}

impl std::io::Write for Counting<'_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.written += n;
        Ok(n)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

/// The glyphs of one bundled font a document uses: the subset to embed.
struct Subset {
    font: &'static crate::draw::Font,
    /// The font's glyph ids in subset order (the subset's glyph `i` is `ids[i]`; `.notdef`
    /// first, the rest sorted).
    ids: Vec<u16>,
    /// Each used glyph's character (the first one seen), by font glyph id.
    chars: BTreeMap<u16, char>,
}

impl Subset {
    /// The CID (the subset's glyph id) of the font's glyph `gid`.
    fn cid(&self, gid: u16) -> u16 {
        self.ids.binary_search(&gid).map_or(0, |i| i as u16)
    }
}

/// The subsets of every font used by `pages`, by font id.
type Subsets = BTreeMap<usize, Subset>;

fn subsets(pages: &[&Drawing]) -> Subsets {
    let mut out = Subsets::new();
    for d in pages {
        for item in d.printed() {
            let Shape::Text(t) = &item.shape else {
                continue;
            };
            for g in place(t) {
                out.entry(g.font.id())
                    .or_insert_with(|| Subset {
                        font: g.font,
                        ids: Vec::new(),
                        chars: BTreeMap::new(),
                    })
                    .chars
                    .entry(g.gid)
                    .or_insert(g.c);
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

/// The page resource name of font `id`.
fn resource_name(id: usize) -> String {
    format!("HF{id}")
}

/// Adds every font of `fonts` to `lo`, embedded as a subset, and names them in the font
/// resource dictionary the pages share.
fn embed_fonts(lo: &mut lopdf::Document, fonts: &Subsets) {
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

/// The `/ToUnicode` CMap of a subset: each CID to its character (UTF-16BE).
fn to_unicode_cmap(s: &Subset) -> String {
    use std::fmt::Write as _;
    let pairs: Vec<(u16, char)> = s
        .ids
        .iter()
        .enumerate()
        .filter_map(|(cid, g)| s.chars.get(g).map(|&c| (cid as u16, c)))
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
/// Sets the trailer's `/ID` to two copies of [`content_id`] (a new document's permanent and
/// changing identifiers are the same), as hex strings.
fn set_content_id(lo: &mut lopdf::Document) {
    let id = lopdf::Object::String(content_id(lo).to_vec(), lopdf::StringFormat::Hexadecimal);
    lo.trailer.set("ID", vec![id.clone(), id]);
}

#[cfg(test)]
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

    fn titled(title: &str) -> Drawing {
        let mut d = page();
        d.items.push(crate::draw::Item {
            layer: crate::draw::Layer::Text,
            shape: Shape::Text(crate::draw::Text {
                rotated: false,
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
