//! SVG pictures: parsed by usvg under a budget, then rasterised by resvg, in bounded time and
//! memory.
//!
//! A silhouette needs the shapes' outlines, not their effects, so:
//!
//! - filter effects (`<filter>`: blurs, shadows, morphology, turbulence, ...) and markers
//!   (arrowheads and the like) are ignored: a user style sheet sets `filter: none !important;
//!   marker: none !important` on the elements that set them (on every element when the file
//!   has a style sheet) before usvg sees the document. A filter's cost
//!   grows with radii, octaves and result counts a few bytes can set, and markers are copied
//!   onto every vertex while the document is converted, before anything can count them (a
//!   150 KB file made 2 million paths, 1 GB);
//! - images inside the SVG are ignored (resvg here decodes no raster images, and a nested SVG
//!   could be re-parsed once per `<use>`); no file is ever read;
//! - the XML may have at most [`MAX_XML_NODES`] nodes, the text [`MAX_SVG_BYTES`], and the
//!   elements, counted with every `<use>` standing for a copy of what it names,
//!   [`MAX_EXPANDED_ELEMENTS`] (usvg copies them while converting, before anything else can
//!   count them);
//! - after parsing (when usvg has expanded `<use>`) the drawing is measured before it is
//!   rasterised: at most [`MAX_SVG_ELEMENTS`] elements, [`MAX_SVG_POINTS`] path points,
//!   [`MAX_SVG_PIXEL_WORK`] pixel operations (every path, layer, clip, mask and pattern tile
//!   counted at the size it is drawn, weighted by its cost per pixel) and
//!   [`MAX_SVG_LAYER_BYTES`] of layers alive at once.
//!
//! Past any of these the picture is refused with one line ("the SVG is too complex to
//! rasterise: 120,000 elements (the limit is 50,000)") before a pixel is drawn.
//!
//! This file reads the XML and checks each element; the style sheets are matched under their
//! budget in `css.rs`, what links (`<use>`, `url(#id)`) make usvg do is counted in `links.rs`,
//! and the parsed drawing is measured in `cost.rs`.

mod cost;
mod css;
mod links;

use resvg::{tiny_skia, usvg};

use crate::error::{Error, Result};
pub use cost::{Cost, measure};
pub use css::MAX_CSS_WORK;
use css::{Css, css_too_long};
pub use links::MAX_RECURSION_CHECK_WORK;
use links::{Expansion, recursion_checks};

/// The largest SVG text read, in bytes.
pub const MAX_SVG_BYTES: usize = 32 * 1024 * 1024;

/// The most XML nodes (elements, text, comments) an SVG may have.
pub const MAX_XML_NODES: u32 = 250_000;

/// The most XML elements once every `<use>` is replaced by what it names, counted on the XML
/// before usvg converts it (converting takes about 30 us an element here).
pub const MAX_EXPANDED_ELEMENTS: u64 = 3 * MAX_SVG_ELEMENTS;

/// The deepest nesting of elements (usvg's own limit is about the same).
const MAX_DEPTH: u32 = 1024;

/// The most elements (paths, groups, images) after `<use>` and markers are expanded.
pub const MAX_SVG_ELEMENTS: u64 = 50_000;

/// The most path points (every segment's end and control points) after expansion.
pub const MAX_SVG_POINTS: u64 = 4_000_000;

/// The most pixel operations the rasteriser may do, summed over every path, layer, clip, mask
/// and pattern tile, each weighted by its cost per pixel relative to a plain fill: about 280
/// plain fills of a 2048 x 2048 picture, or 11 layers of that size at half opacity; about 4 s.
pub const MAX_SVG_PIXEL_WORK: u64 = 1_200_000_000;

/// The most bytes of layers (group opacity, clips, masks, pattern tiles) alive at once.
pub const MAX_SVG_LAYER_BYTES: u64 = 256 * 1024 * 1024;

/// Every element's filter and markers are switched off (see the module comment).
const NO_EFFECTS: &str = "* { filter: none !important; marker: none !important; }";

/// The same for documents without style sheets, where only elements with a `filter` or marker
/// attribute or a `style` can have them (markers are inherited, so switching them off where
/// they are set is enough); a rule on every element costs four attributes per element.
const NO_EFFECTS_SET: &str = "[filter], [style] { filter: none !important; } \
    [marker-start], [marker-mid], [marker-end], [style] { marker: none !important; }";

/// The rule that switches effects off in `text`: the short one unless the document has a
/// style sheet (a `<style>` element, perhaps with a namespace prefix).
fn no_effects(text: &str) -> &'static str {
    if text.contains("<style") || text.contains(":style") {
        NO_EFFECTS
    } else {
        NO_EFFECTS_SET
    }
}

/// `n` with thousands separators: 120000 -> "120,000".
fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

fn too_complex(what: impl std::fmt::Display) -> Error {
    Error::input(format!("the SVG is too complex to rasterise: {what}"))
}

/// One line of a parser's message.
fn first_line(e: impl std::fmt::Display) -> String {
    let text = e.to_string();
    text.lines()
        .next()
        .unwrap_or("")
        .trim()
        .trim_end_matches('.')
        .to_string()
}

/// Parses `bytes` as SVG under the budget (see the module comment).
pub fn parse(bytes: &[u8]) -> Result<usvg::Tree> {
    if bytes.len() > MAX_SVG_BYTES {
        return Err(too_complex(format!(
            "{} MB of text (the limit is {} MB)",
            bytes.len().div_ceil(1 << 20),
            MAX_SVG_BYTES >> 20
        )));
    }
    let text =
        std::str::from_utf8(bytes).map_err(|_| Error::input("the SVG image is not UTF-8 text"))?;
    // the XML parser checks each attribute against the element's others: count them first
    if let Some(n) = most_attributes(text).filter(|&n| n > MAX_ATTRIBUTES) {
        return Err(too_complex(format!(
            "an element with {} attributes (the limit is {})",
            thousands(n as u64),
            thousands(MAX_ATTRIBUTES as u64)
        )));
    }
    let xml_options = usvg::roxmltree::ParsingOptions {
        allow_dtd: true,
        nodes_limit: MAX_XML_NODES,
        ..Default::default()
    };
    let xml =
        usvg::roxmltree::Document::parse_with_options(text, xml_options).map_err(|e| match e {
            usvg::roxmltree::Error::NodesLimitReached => too_complex(format!(
                "more than {} XML nodes",
                thousands(u64::from(MAX_XML_NODES))
            )),
            e => Error::input(format!("the SVG image is corrupt ({})", first_line(e))),
        })?;
    xml_budget(&xml)?;
    let ids = element_ids(&xml);
    let css = Css::matched(&xml, &ids, no_effects(text))?;
    recursion_checks(&xml, &ids, &css)?;
    let expanded = Expansion::count(&xml, ids, &css)?;
    if expanded.elements > MAX_EXPANDED_ELEMENTS {
        return Err(too_complex(format!(
            "more than {} elements once <use>, patterns, clips and masks are expanded",
            thousands(MAX_EXPANDED_ELEMENTS)
        )));
    }
    if expanded.points > MAX_SVG_POINTS {
        return Err(too_complex(format!(
            "more than {} path points once arcs are converted to curves and <use>, patterns, \
             clips and masks are expanded (the limit is {})",
            thousands(MAX_SVG_POINTS),
            thousands(MAX_SVG_POINTS)
        )));
    }
    if expanded.css_work > MAX_CSS_WORK {
        return Err(css_too_long());
    }
    if expanded.text_chars > MAX_TEXT_CHARS {
        return Err(too_complex(format!(
            "more than {} characters of text once <use> is expanded (the limit is {})",
            thousands(MAX_TEXT_CHARS),
            thousands(MAX_TEXT_CHARS)
        )));
    }
    // no file is ever read, and no image decoded: no resources folder, links resolve to nothing
    let options = usvg::Options {
        resources_dir: None,
        image_href_resolver: usvg::ImageHrefResolver {
            resolve_data: Box::new(|_, _, _| None),
            resolve_string: Box::new(|_, _| None),
        },
        style_sheet: Some(no_effects(text).to_string()),
        // text is drawn with the bundled fonts only: the same shape on every machine
        font_family: "Liberation Serif".into(),
        fontdb: crate::fonts::fontdb(),
        ..usvg::Options::default()
    };
    usvg::Tree::from_xmltree(&xml, &options).map_err(|e| match e {
        usvg::Error::NotAnUtf8Str => Error::input("the SVG image is not UTF-8 text"),
        usvg::Error::InvalidSize => Error::input("the SVG image has no valid size"),
        usvg::Error::ElementsLimitReached => {
            too_complex("more than 1,000,000 elements once <use> is expanded")
        }
        usvg::Error::ParsingFailed(usvg::roxmltree::Error::NodesLimitReached) => {
            too_complex("more than 1,000,000 elements once <use> is expanded, or nested too deep")
        }
        e => Error::input(format!("the SVG image is corrupt ({})", first_line(e))),
    })
}

/// The most attributes one element may have (usvg looks each property up along them).
pub const MAX_ATTRIBUTES: usize = 1_000;

/// The most stops one gradient may have (each pixel it paints searches them).
pub const MAX_GRADIENT_STOPS: usize = 1_000;

/// The most text runs (`<text>`, `<tspan>`, `<textPath>`) a picture may have.
pub const MAX_TEXT_RUNS: usize = 2_000;

/// The most characters one text element (`<text>` with its `<tspan>`s) may have: laying a
/// text out takes time that grows with the square of its length (20,000 characters 0.3 s,
/// 40,000 1.2 s, a million several minutes).
pub const MAX_TEXT_ELEMENT_CHARS: u64 = 10_000;

/// The most characters of text a picture may have, `<use>` copies included (about 2 us each).
pub const MAX_TEXT_CHARS: u64 = 200_000;

/// The points of path data `d` once usvg has converted it, every elliptical arc counted as
/// the cubic curves it becomes (three points each). usvg (through kurbo) cuts an arc into
/// more curves the larger its radius: one of radius 7e49 in a 880-byte file asked for
/// hundreds of millions of curves and ran out of memory past 8 GB. Read as usvg reads it, up
/// to the first error.
fn path_points(d: &str) -> u64 {
    use svgtypes::PathSegment as S;
    let (mut x, mut y, mut start_x, mut start_y) = (0.0_f64, 0.0_f64, 0.0_f64, 0.0_f64);
    let mut points = 0.0_f64;
    for segment in svgtypes::PathParser::from(d) {
        let Ok(segment) = segment else { break };
        let to = |abs: bool, dx: f64, dy: f64| if abs { (dx, dy) } else { (x + dx, y + dy) };
        let ((nx, ny), n) = match segment {
            S::MoveTo { abs, x: px, y: py } => {
                let p = to(abs, px, py);
                (start_x, start_y) = p;
                (p, 1.0)
            }
            S::LineTo { abs, x: px, y: py } | S::SmoothQuadratic { abs, x: px, y: py } => {
                (to(abs, px, py), 1.0)
            }
            S::HorizontalLineTo { abs, x: px } => ((if abs { px } else { x + px }, y), 1.0),
            S::VerticalLineTo { abs, y: py } => ((x, if abs { py } else { y + py }), 1.0),
            S::CurveTo {
                abs, x: px, y: py, ..
            }
            | S::SmoothCurveTo {
                abs, x: px, y: py, ..
            }
            | S::Quadratic {
                abs, x: px, y: py, ..
            } => (to(abs, px, py), 3.0),
            S::EllipticalArc {
                abs,
                rx,
                ry,
                x_axis_rotation,
                x: px,
                y: py,
                ..
            } => {
                let p = to(abs, px, py);
                let curves = arc_curves((x, y), p, rx, ry, x_axis_rotation);
                (p, if curves == 0.0 { 1.0 } else { 3.0 * curves })
            }
            S::ClosePath { .. } => ((start_x, start_y), 1.0),
        };
        (x, y) = (nx, ny);
        points += n;
        if !points.is_finite() || points > MAX_SVG_POINTS as f64 * 2.0 {
            return u64::MAX / 4;
        }
    }
    points as u64
}

/// How many cubic curves kurbo cuts an SVG arc from `from` to `to` into, at most (none: it
/// is drawn as a line; usvg asks for a tolerance of 0.1): radii too small to reach are scaled
/// up first, then a whole ellipse takes (1.1163 x radius / tolerance)^(1/6) curves, at least
/// four.
fn arc_curves(from: (f64, f64), to: (f64, f64), rx: f64, ry: f64, rotation: f64) -> f64 {
    let (rx, ry) = (rx.abs(), ry.abs());
    if rx <= 1e-5 || ry <= 1e-5 || from == to {
        return 0.0; // a line
    }
    let (sin, cos) = (rotation.to_radians() % std::f64::consts::TAU).sin_cos();
    let (hx, hy) = ((from.0 - to.0) * 0.5, (from.1 - to.1) * 0.5);
    let (px, py) = (cos * hx + sin * hy, -sin * hx + cos * hy);
    let fit = px * px / (rx * rx) + py * py / (ry * ry);
    let radius = rx.max(ry) * if fit > 1.0 { fit.sqrt() } else { 1.0 };
    let curves = (1.1163 * radius / 0.1)
        .powf(1.0 / 6.0)
        .max(3.999_999)
        .ceil()
        + 1.0;
    if curves.is_finite() {
        curves
    } else {
        f64::INFINITY
    }
}

/// The characters of text `node` holds itself (not in its child elements), if it is a text
/// element.
fn text_chars(node: XmlNode) -> u64 {
    if !matches!(
        node.tag_name().name(),
        "text" | "tspan" | "textPath" | "tref" | "a"
    ) {
        return 0;
    }
    node.children()
        .filter(|c| c.is_text())
        .filter_map(|c| c.text())
        .map(|t| t.chars().count() as u64)
        .sum()
}

/// The most CSS declarations (`name: value`) in style sheets and `style` attributes together.
pub const MAX_CSS_DECLARATIONS: usize = 20_000;

/// The most attributes (`=` signs outside quotes) any tag of `text` has, read without parsing
/// it (comments and declarations, `<!...>`, are skipped); `None` for no tags.
fn most_attributes(text: &str) -> Option<usize> {
    let (mut most, mut count) = (None, 0);
    let (mut in_tag, mut quote, mut skip) = (false, None, false);
    for b in text.bytes() {
        match (in_tag, quote, b) {
            (false, _, b'<') => {
                (in_tag, count, skip) = (true, 0, false);
            }
            (true, None, b'!') if count == 0 => skip = true,
            (true, None, b'>') => {
                in_tag = false;
                if !skip {
                    most = Some(most.map_or(count, |m: usize| m.max(count)));
                }
            }
            (true, None, b'"' | b'\'') if !skip => quote = Some(b),
            (true, Some(q), b) if b == q => quote = None,
            (true, None, b'=') => count += 1,
            _ => {}
        }
    }
    most
}

/// Checks what usvg's conversion pays for per item before it converts anything: 200,000
/// attributes on one element took 41 s, a 30,000-stop gradient 24 s, 10,000 `<tspan>` 23 s
/// and 100,000 CSS declarations 25 s, each in a file of a few hundred KB.
fn xml_budget(xml: &usvg::roxmltree::Document) -> Result<()> {
    let (mut runs, mut declarations) = (0, 0);
    for node in xml.descendants().filter(|n| n.is_element()) {
        let attributes = node.attributes().len();
        if attributes > MAX_ATTRIBUTES {
            return Err(too_complex(format!(
                "an element with {} attributes (the limit is {})",
                thousands(attributes as u64),
                thousands(MAX_ATTRIBUTES as u64)
            )));
        }
        let name = node.tag_name().name();
        if name.ends_with("Gradient") {
            let stops = node
                .children()
                .filter(|c| c.tag_name().name() == "stop")
                .count();
            if stops > MAX_GRADIENT_STOPS {
                return Err(too_complex(format!(
                    "a gradient with {} stops (the limit is {})",
                    thousands(stops as u64),
                    thousands(MAX_GRADIENT_STOPS as u64)
                )));
            }
        }
        if matches!(name, "text" | "tspan" | "textPath") {
            runs += 1;
        }
        if name == "text" {
            let chars: u64 = node.descendants().map(text_chars).sum();
            if chars > MAX_TEXT_ELEMENT_CHARS {
                return Err(too_complex(format!(
                    "a text of {} characters (the limit is {})",
                    thousands(chars),
                    thousands(MAX_TEXT_ELEMENT_CHARS)
                )));
            }
        }
        if let Some(style) = node.attribute("style") {
            declarations += style.matches(':').count();
        }
        if name == "style" {
            declarations += node
                .children()
                .filter_map(|c| c.text())
                .map(|t| t.matches(':').count())
                .sum::<usize>();
        }
    }
    if runs > MAX_TEXT_RUNS {
        return Err(too_complex(format!(
            "{} text runs (the limit is {})",
            thousands(runs as u64),
            thousands(MAX_TEXT_RUNS as u64)
        )));
    }
    if declarations > MAX_CSS_DECLARATIONS {
        return Err(too_complex(format!(
            "{} style declarations (the limit is {})",
            thousands(declarations as u64),
            thousands(MAX_CSS_DECLARATIONS as u64)
        )));
    }
    Ok(())
}

/// Whether `tree` draws text: a text element (anywhere in the drawing, groups and `<use>`
/// copies included; not in clips, masks or patterns) that the bundled fonts set as at least
/// one glyph. A picture of words is made of letters, separate parts that are joined by default
/// ([`crate::design::Design::islands_policy`]).
pub fn draws_text(tree: &usvg::Tree) -> bool {
    fn group(g: &usvg::Group) -> bool {
        g.children().iter().any(|node| match node {
            usvg::Node::Group(g) => group(g),
            usvg::Node::Text(t) => !t.flattened().children().is_empty(),
            usvg::Node::Path(_) | usvg::Node::Image(_) => false,
        })
    }
    group(tree.root())
}

type XmlNode<'a, 'input> = usvg::roxmltree::Node<'a, 'input>;
type NodeId = usvg::roxmltree::NodeId;

/// The first element of each `id`, as usvg resolves links.
fn element_ids<'a, 'input>(
    xml: &'a usvg::roxmltree::Document<'input>,
) -> std::collections::HashMap<&'a str, XmlNode<'a, 'input>> {
    let mut ids = std::collections::HashMap::new();
    for node in xml.descendants() {
        if let Some(id) = node.attribute("id") {
            ids.entry(id).or_insert(node);
        }
    }
    ids
}

/// The ids named by `url(#id)` in `value` (a paint, a clip, a mask, a style declaration).
fn url_ids(value: &str) -> impl Iterator<Item = &str> {
    value.match_indices("url(").filter_map(move |(i, _)| {
        let rest = value[i + 4..].trim_start();
        let rest = rest.strip_prefix(['"', '\'']).unwrap_or(rest).trim_start();
        let id = rest.strip_prefix('#')?;
        let end = id
            .find(|c: char| matches!(c, ')' | '"' | '\'') || c.is_whitespace())
            .unwrap_or(id.len());
        Some(&id[..end])
    })
}

/// Rasterises `tree` on a `width` x `height` pixmap scaled by `transform`, after measuring it
/// (nothing is drawn when it is over budget).
pub fn render(
    tree: &usvg::Tree,
    transform: tiny_skia::Transform,
    width: u32,
    height: u32,
) -> Result<tiny_skia::Pixmap> {
    measure(tree, transform, width, height)?;
    let mut pixmap = tiny_skia::Pixmap::new(width, height)
        .ok_or_else(|| Error::input("the SVG image has no valid size"))?;
    resvg::render(tree, transform, &mut pixmap.as_mut());
    Ok(pixmap)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn attributes_are_counted_per_tag_outside_quotes() {
        assert_eq!(most_attributes("no tags"), None);
        assert_eq!(
            most_attributes(r#"<svg a="1" b='x=y'><rect c="=" d=""/></svg>"#),
            Some(2)
        );
        assert_eq!(
            most_attributes(r#"<!-- a=1 b=2 c=3 --><svg x="1"/>"#),
            Some(1)
        );
    }

    #[test]
    fn url_links_are_found_in_any_value() {
        let ids = |v| url_ids(v).collect::<Vec<_>>();
        assert_eq!(ids("url(#a)"), ["a"]);
        assert_eq!(ids("fill: url( '#b' ) ; stroke:url(\"#c\")"), ["b", "c"]);
        assert_eq!(ids("url(#d) red, url(other.svg#e)"), ["d"]);
        assert!(ids("none").is_empty());
    }

    #[test]
    fn path_points_count_arcs_as_their_curves() {
        assert_eq!(path_points("M0 0 L10 0 H20 V5 C1 1 2 2 3 3 Z"), 8);
        // a quarter circle of radius 40: a whole one takes 4 curves, counted as 5 at most
        assert_eq!(path_points("M0 0 A40 40 0 0 1 40 40"), 1 + 15);
        // too small to reach: scaled up; flat: a line
        assert_eq!(path_points("M0 0 A1 1 0 0 1 100 0"), 1 + 15);
        assert_eq!(path_points("M0 0 A0 1 0 0 1 100 0"), 2);
        // relative moves after a close start from the subpath's start
        assert_eq!(
            path_points("m10 10 a5 5 0 1 1 10 0 z a5 5 0 1 1 10 0"),
            1 + 15 + 1 + 15
        );
        assert!(path_points("M0 0 A1e30 1e30 0 1 1 10 0") > 3 * 100_000);
        assert!(path_points("M0 0 A1 1 0 1 1 1e300 0") > MAX_SVG_POINTS);
        // read up to the first error, as usvg reads it
        assert_eq!(path_points("M0 0 L1 1 X A1e30 1e30 0 1 1 10 0"), 2);
    }

    #[test]
    fn thousands_are_separated() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1000), "1,000");
        assert_eq!(thousands(120_000), "120,000");
        assert_eq!(thousands(1_234_567), "1,234,567");
    }

    #[test]
    fn text_is_found_wherever_it_is_drawn() {
        let svg = |body: &str| {
            format!(
                r#"<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="200" height="100">{body}</svg>"#
            )
        };
        let draws = |body: &str| draws_text(&parse(svg(body).as_bytes()).unwrap());
        assert!(draws(r#"<text x="10" y="80" font-size="60">Hi</text>"#));
        // in a group, and through a use of a definition
        assert!(draws(
            r#"<g transform="scale(2)"><text x="5" y="40" font-size="30">A</text></g>"#
        ));
        assert!(draws(
            r##"<defs><text id="t" x="5" y="40" font-size="30">A</text></defs><use xlink:href="#t"/>"##
        ));
        // shapes only, text never drawn, and text with nothing to set
        assert!(!draws(r#"<circle cx="50" cy="50" r="40"/>"#));
        assert!(!draws(
            r#"<defs><text id="t" x="5" y="40" font-size="30">A</text></defs><rect width="9" height="9"/>"#
        ));
        assert!(!draws(
            r#"<text x="10" y="80" font-size="60"> </text><rect width="9" height="9"/>"#
        ));
    }
}
