//! SVG export: one `<g>` per layer (`page`, `walls`, `crossings`, `markers`, `text`,
//! `solution`), sized in millimetres (`width`/`height` in mm, `viewBox` in mm). Coordinates are
//! written to 0.01 mm. The puzzle and the key differ only by the `<g id="solution">` group.

use std::fmt::Write as _;

use svg::Document;
use svg::node::element::{Group, Path as SvgPath, Text as SvgText};

use crate::draw::{Anchor, Drawing, Layer, Path, Seg, Shape};
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
    let mut d = String::with_capacity(p.segs.len() * 12);
    let pt = |d: &mut String, x: f64, y: f64| {
        num(d, x);
        d.push(' ');
        num(d, y);
    };
    for s in p.segs.iter() {
        match *s {
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

/// Renders `d` as an SVG document.
pub fn svg(d: &Drawing) -> Vec<u8> {
    let mut doc = Document::new()
        .set("width", format!("{}mm", num_s(d.width)))
        .set("height", format!("{}mm", num_s(d.height)))
        .set(
            "viewBox",
            format!("0 0 {} {}", num_s(d.width), num_s(d.height)),
        );
    let mut seen: Vec<Layer> = Vec::new();
    let mut current: Option<(Layer, Group)> = None;
    for item in d.printed() {
        if current.as_ref().is_none_or(|(l, _)| *l != item.layer) {
            if let Some((_, g)) = current.take() {
                doc = doc.add(g);
            }
            let repeats = seen.iter().filter(|&&l| l == item.layer).count();
            seen.push(item.layer);
            let id = if repeats == 0 {
                item.layer.name().to_string()
            } else {
                format!("{}-{}", item.layer.name(), repeats + 1)
            };
            current = Some((item.layer, group(item.layer, id)));
        }
        let (_, g) = current.as_mut().expect("set above");
        let taken = std::mem::replace(g, Group::new());
        *g = match &item.shape {
            Shape::Stroke { path, width, color } => taken.add(
                SvgPath::new()
                    .set("d", path_data(path))
                    .set("fill", "none")
                    .set("stroke", color.hex())
                    .set("stroke-width", num_s(*width)),
            ),
            Shape::Fill { path, color } => taken.add(
                SvgPath::new()
                    .set("d", path_data(path))
                    .set("fill", color.hex()),
            ),
            Shape::Text(t) => {
                let mut e = SvgText::new(t.text.clone())
                    .set("x", num_s(t.at.x))
                    .set("y", num_s(t.at.y))
                    .set("font-family", font_family(t.face))
                    .set("font-size", num_s(t.size))
                    .set("fill", t.color.hex());
                if t.bold {
                    e = e.set("font-weight", "bold");
                }
                match t.anchor {
                    Anchor::Start => {}
                    Anchor::Middle => e = e.set("text-anchor", "middle"),
                    Anchor::End => e = e.set("text-anchor", "end"),
                }
                taken.add(e)
            }
            Shape::Tint { .. } => taken, // overlays are never printed
        };
    }
    if let Some((_, g)) = current {
        doc = doc.add(g);
    }
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    out.push_str(&doc.to_string());
    out.push('\n');
    out.into_bytes()
}

/// The CSS font list for `face`: the base-14 name, its common metric-compatible stand-ins, and
/// the generic family.
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
