//! SVG export: one `<g>` per layer (`page`, `walls`, `crossings`, `markers`, `text`,
//! `solution`), sized in millimetres (`width`/`height` in mm, `viewBox` in mm). Coordinates are
//! written to 0.01 mm. The puzzle and the key differ only by the `<g id="solution">` group.
//!
//! Text is drawn as glyph outlines: each line of text is a `<g aria-label="...">` holding one
//! filled `<path>` of the glyphs the PDF embeds and the PNG draws (the bundled Liberation
//! fonts, DejaVu Sans for symbols they lack; see [`crate::draw::font`]), so any viewer shows
//! the same glyphs whether or not it has those fonts installed (`rsvg-convert` on a bare
//! machine included). Beside the outlines, the same text as an invisible `<text>` element
//! (`fill-opacity="0"`, in the metric-compatible families) keeps it selectable and
//! searchable; it paints nothing.

use std::fmt::Write as _;
use std::io::Write;

use svg::Document;
use svg::node::element::{Group, Path as SvgPath, Text as SvgText};

use crate::draw::{Anchor, Drawing, Layer, Path, Seg, Shape, Text, place};
use crate::page::Typeface;

/// Appends `v` rounded to 0.01 (no exponent, no trailing zeros).
pub(crate) fn num(out: &mut String, v: f64) {
    let h = (v * 100.0).round() as i64;
    if h < 0 {
        out.push('-');
    }
    let h = h.unsigned_abs();
    let (int, frac) = (h / 100, h % 100);
    let _ = write!(out, "{int}");
    if frac != 0 {
        if frac % 10 == 0 {
            let _ = write!(out, ".{}", frac / 10);
        } else {
            let _ = write!(out, ".{frac:02}");
        }
    }
}

fn num_s(v: f64) -> String {
    let mut s = String::new();
    num(&mut s, v);
    s
}

/// The path as SVG path data, in millimetres.
pub fn path_data(p: &Path) -> String {
    let mut d = String::with_capacity(p.len() * 12);
    let pt = |d: &mut String, x: f64, y: f64| {
        num(d, x);
        d.push(' ');
        num(d, y);
    };
    for s in p.segs() {
        match s {
            Seg::MoveTo(a) => {
                d.push('M');
                pt(&mut d, a.x, a.y);
            }
            Seg::LineTo(a) => {
                d.push('L');
                pt(&mut d, a.x, a.y);
            }
            Seg::CubicTo(a, b, c) => {
                d.push('C');
                pt(&mut d, a.x, a.y);
                d.push(' ');
                pt(&mut d, b.x, b.y);
                d.push(' ');
                pt(&mut d, c.x, c.y);
            }
            Seg::Close => d.push('Z'),
        }
    }
    d
}

fn group(layer: Layer, id: String) -> Group {
    let g = Group::new().set("id", id);
    match layer {
        Layer::Page => g,
        _ => g
            .set("stroke-linecap", "round")
            .set("stroke-linejoin", "round"),
    }
}

/// The opening tag of `e` as the svg crate writes it (attributes sorted and escaped):
/// `<name ...>`, taken from its childless form `<name .../>`.
fn open_tag(e: &impl std::fmt::Display) -> String {
    let mut t = e.to_string();
    debug_assert!(t.ends_with("/>"), "a childless element");
    t.truncate(t.len() - 2);
    t.push('>');
    t
}

/// Renders `d` as an SVG document ([`write_svg`] into memory).
pub fn svg(d: &Drawing) -> Vec<u8> {
    let mut out = Vec::new();
    // writing to memory only fails on allocation failure, which aborts anyway
    write_svg(d, &mut out).expect("writing an SVG to memory does not fail");
    out
}

/// Writes `d` as an SVG document to `out`.
///
/// The document is written element by element as the drawing is walked (each element
/// formatted by the svg crate, exactly as it would format the whole tree), so memory holds the
/// drawing and one element's text, never the document: a 3000x3000 hex maze's walls are
/// hundreds of megabytes of path data, written a band of walls at a time.
pub fn write_svg(d: &Drawing, out: &mut dyn Write) -> std::io::Result<()> {
    let doc = document(d);
    out.write_all(b"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")?;
    if d.printed().next().is_none() {
        // a document without children is written in its childless form
        return writeln!(out, "{doc}");
    }
    out.write_all(open_tag(&doc).as_bytes())?;
    let mut seen: Vec<Layer> = Vec::new();
    // the layer of the group being written, its childless form, and whether it has a child yet
    let mut current: Option<(Layer, Group, bool)> = None;
    let close = |out: &mut dyn Write, g: Option<(Layer, Group, bool)>| match g {
        Some((_, _, true)) => out.write_all(b"\n</g>"),
        Some((_, g, false)) => write!(out, "\n{g}"),
        None => Ok(()),
    };
    for item in d.printed() {
        if current.as_ref().is_none_or(|(l, _, _)| *l != item.layer) {
            close(out, current.take())?;
            current = Some((item.layer, next_group(item.layer, &mut seen), false));
        }
        let Some(child) = element(&item.shape) else {
            continue; // overlays are never printed
        };
        let (_, g, written) = current.as_mut().expect("set above");
        if !*written {
            write!(out, "\n{}", open_tag(g))?;
            *written = true;
        }
        write!(out, "\n{child}")?;
    }
    close(out, current.take())?;
    out.write_all(b"\n</svg>\n")
}

/// The `<svg>` element: the page's size in millimetres and a viewBox in millimetres.
fn document(d: &Drawing) -> Document {
    Document::new()
        .set("width", format!("{}mm", num_s(d.width)))
        .set("height", format!("{}mm", num_s(d.height)))
        .set(
            "viewBox",
            format!("0 0 {} {}", num_s(d.width), num_s(d.height)),
        )
}

/// The group of the next run of items on `layer`: its id is the layer's name, then
/// `name-2`, `name-3`... when the layer comes back after another (`seen` counts the runs).
fn next_group(layer: Layer, seen: &mut Vec<Layer>) -> Group {
    let repeats = seen.iter().filter(|&&l| l == layer).count();
    seen.push(layer);
    let id = if repeats == 0 {
        layer.name().to_string()
    } else {
        format!("{}-{}", layer.name(), repeats + 1)
    };
    group(layer, id)
}

/// One printed item as an SVG element; none for an overlay (never printed).
fn element(shape: &Shape) -> Option<Box<dyn svg::Node>> {
    Some(match shape {
        Shape::Stroke { path, width, color } => Box::new(
            SvgPath::new()
                .set("d", path_data(path))
                .set("fill", "none")
                .set("stroke", color.hex())
                .set("stroke-width", num_s(*width)),
        ),
        Shape::Fill { path, color } => Box::new(
            SvgPath::new()
                .set("d", path_data(path))
                .set("fill", color.hex()),
        ),
        Shape::Text(t) => Box::new(text(t)),
        Shape::Image { area, image } => {
            use base64::Engine as _;
            let data = base64::engine::general_purpose::STANDARD.encode(image.png());
            Box::new(
                svg::node::element::Image::new()
                    .set("x", num_s(area.x))
                    .set("y", num_s(area.y))
                    .set("width", num_s(area.w))
                    .set("height", num_s(area.h))
                    .set("preserveAspectRatio", "none")
                    .set("href", format!("data:image/png;base64,{data}")),
            )
        }
        Shape::Tint { .. } => return None,
    })
}

/// A line of text: its glyph outlines, and the same text invisible (for search and copy).
fn text(t: &Text) -> Group {
    let mut e = SvgText::new(t.text.clone())
        .set("x", num_s(t.at.x))
        .set("y", num_s(t.at.y))
        .set("font-family", font_family(t.face))
        .set("font-size", num_s(t.size))
        .set("fill-opacity", "0");
    if t.bold {
        e = e.set("font-weight", "bold");
    }
    // a line reading right to left: its start is its right end, so the anchor's side swaps
    let rtl = crate::draw::reads_right_to_left(&t.text);
    if rtl {
        e = e.set("direction", "rtl");
    }
    match (t.anchor, rtl) {
        (Anchor::Start, false) | (Anchor::End, true) => {}
        (Anchor::Middle, _) => e = e.set("text-anchor", "middle"),
        (Anchor::End, false) | (Anchor::Start, true) => e = e.set("text-anchor", "end"),
    }
    let mut g = Group::new()
        .set("aria-label", t.text.clone())
        .set("fill", t.color.hex());
    if t.rotated.is_turned() {
        // turned about the anchor: clockwise, as SVG's y points down (a turned page's text,
        // reading up, is -90)
        let deg = match t.rotated.degrees() {
            d if d > 180.0 => d - 360.0,
            d => d,
        };
        g = g.set(
            "transform",
            format!("rotate({deg} {} {})", num_s(t.at.x), num_s(t.at.y)),
        );
    }
    let d = outline_data(t);
    if !d.is_empty() {
        g = g.add(SvgPath::new().set("d", d));
    }
    g.add(e)
}

/// The glyph outlines of `t` as SVG path data in millimetres.
fn outline_data(t: &Text) -> String {
    let mut o = Outline {
        d: String::new(),
        x: 0.0,
        y: t.at.y,
        k: 0.0,
    };
    let left = t.left();
    for g in place(t) {
        let Some(face) = g.font.face() else { continue };
        o.x = left + g.x;
        o.y = t.at.y - g.y;
        o.k = t.size / g.font.units_per_em();
        face.outline_glyph(ttf_parser::GlyphId(g.gid), &mut o);
    }
    o.d
}

/// Glyph outlines (font units, y up) into SVG path data (mm, y down) at `x`, `y`, scaled by `k`.
struct Outline {
    d: String,
    x: f64,
    y: f64,
    k: f64,
}

impl Outline {
    fn pt(&mut self, x: f32, y: f32) {
        num(&mut self.d, self.x + f64::from(x) * self.k);
        self.d.push(' ');
        num(&mut self.d, self.y - f64::from(y) * self.k);
    }
}

impl ttf_parser::OutlineBuilder for Outline {
    fn move_to(&mut self, x: f32, y: f32) {
        self.d.push('M');
        self.pt(x, y);
    }
    fn line_to(&mut self, x: f32, y: f32) {
        self.d.push('L');
        self.pt(x, y);
    }
    fn quad_to(&mut self, x1: f32, y1: f32, x: f32, y: f32) {
        self.d.push('Q');
        self.pt(x1, y1);
        self.d.push(' ');
        self.pt(x, y);
    }
    fn curve_to(&mut self, x1: f32, y1: f32, x2: f32, y2: f32, x: f32, y: f32) {
        self.d.push('C');
        self.pt(x1, y1);
        self.d.push(' ');
        self.pt(x2, y2);
        self.d.push(' ');
        self.pt(x, y);
    }
    fn close(&mut self) {
        self.d.push('Z');
    }
}

/// The CSS font list for `face` (of the invisible text: the outlines are what shows): the
/// base-14 name, its common metric-compatible stand-ins, and the generic family.
fn font_family(face: Typeface) -> &'static str {
    match face {
        Typeface::Sans => "Helvetica, Arial, 'Liberation Sans', sans-serif",
        Typeface::Serif => "Times, 'Times New Roman', 'Liberation Serif', serif",
        Typeface::Mono => "Courier, 'Courier New', 'Liberation Mono', monospace",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::design::{Kind, Walls};

    #[test]
    fn turned_text_is_rotated_about_its_anchor() {
        use crate::draw::{Pos, Rgb};
        let t = Text {
            text: "Spine".into(),
            at: Pos::new(10.0, 20.0),
            size: 5.0,
            anchor: Anchor::Start,
            bold: true,
            face: Typeface::Sans,
            color: Rgb::BLACK,
            rotated: crate::draw::Rotation::Down,
        };
        let svg = text(&t).to_string();
        assert!(svg.contains("transform=\"rotate(90 10 20)\""), "{svg}");
        // its box runs down the page from the anchor, the letters' tops to the right
        let b = t.bounds();
        assert!((b.y - 20.0).abs() < 1e-9 && b.h > b.w && b.x < 10.0 && b.x + b.w > 10.0);
        // reading up (a turned page's): -90, its box up the page from the anchor
        let up = Text {
            rotated: crate::draw::Rotation::Up,
            ..t
        };
        let svg = text(&up).to_string();
        assert!(svg.contains("transform=\"rotate(-90 10 20)\""), "{svg}");
        let b = up.bounds();
        assert!((b.y + b.h - 20.0).abs() < 1e-9 && b.h > b.w && b.x < 10.0 && b.x + b.w > 10.0);
    }

    #[test]
    fn text_is_drawn_as_outlines_with_its_words_kept() {
        use crate::draw::{Pos, Rgb};
        let t = Text {
            rotated: crate::draw::Rotation::Across,
            text: "A★🎂".into(),
            at: Pos::new(10.0, 20.0),
            size: 5.0,
            anchor: Anchor::Middle,
            bold: false,
            face: Typeface::Sans,
            color: Rgb::BLACK,
        };
        let d = outline_data(&t);
        // A has two contours, the star one; the cake has no glyph
        assert_eq!(d.matches('M').count(), 3, "{d}");
        let g = text(&t).to_string();
        assert!(g.contains("aria-label=\"A★🎂\""), "{g}");
        assert!(g.contains("fill-opacity=\"0\""), "{g}");
    }

    /// The document as the svg crate writes a whole tree: what [`svg`] wrote before it
    /// streamed, kept as the reference its output must equal byte for byte.
    fn as_tree(d: &Drawing) -> Vec<u8> {
        let mut doc = document(d);
        let mut seen: Vec<Layer> = Vec::new();
        let mut current: Option<(Layer, Group)> = None;
        for item in d.printed() {
            if current.as_ref().is_none_or(|(l, _)| *l != item.layer) {
                if let Some((_, g)) = current.take() {
                    doc = doc.add(g);
                }
                current = Some((item.layer, next_group(item.layer, &mut seen)));
            }
            let (_, g) = current.as_mut().unwrap();
            if let Some(e) = element(&item.shape) {
                let taken = std::mem::replace(g, Group::new());
                *g = taken.add(e);
            }
        }
        if let Some((_, g)) = current {
            doc = doc.add(g);
        }
        format!("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n{doc}\n").into_bytes()
    }

    #[test]
    fn streamed_document_equals_the_whole_tree() {
        use crate::design::Design;
        use crate::page::PageSetup;
        let weave = Design {
            kind: Kind::Walls(Walls {
                weave: 0.5,
                ..Walls::DEFAULT
            }),
            width: 12,
            height: 9,
            seed: Some(3),
            ..Design::default()
        };
        let plain = Design {
            width: 7,
            height: 5,
            seed: Some(1),
            ..Design::default()
        };
        let titled = PageSetup {
            title: Some("Zo\u{eb} & <friends>".into()),
            ..PageSetup::default()
        };
        let mut checked = 0;
        for (design, setup) in [(&weave, &titled), (&plain, &PageSetup::default())] {
            let g = crate::pipeline::generate(design, None).unwrap();
            let pages = crate::draw::pages(&g, setup, setup).unwrap();
            for d in [&pages.puzzle, &pages.key] {
                assert_eq!(
                    String::from_utf8(svg(d)).unwrap(),
                    String::from_utf8(as_tree(d)).unwrap()
                );
                checked += 1;
            }
        }
        let empty = Drawing {
            items: Vec::new(),
            ..pages_of(&plain).puzzle
        };
        assert_eq!(svg(&empty), as_tree(&empty));
        assert!(String::from_utf8(svg(&empty)).unwrap().contains("<svg"));
        assert_eq!(checked, 4);
    }

    fn pages_of(design: &crate::design::Design) -> crate::draw::Pages {
        let g = crate::pipeline::generate(design, None).unwrap();
        let setup = crate::page::PageSetup::default();
        crate::draw::pages(&g, &setup, &setup).unwrap()
    }

    #[test]
    fn numbers_are_short() {
        let f = |v| num_s(v);
        assert_eq!(f(1.0), "1");
        assert_eq!(f(1.5), "1.5");
        assert_eq!(f(-0.125), "-0.13");
        assert_eq!(f(12.34567), "12.35");
        assert_eq!(f(0.004), "0");
        assert_eq!(f(-0.004), "0");
    }
}
