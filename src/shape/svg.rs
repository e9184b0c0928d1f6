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

use resvg::{tiny_skia, usvg};

use crate::error::{Error, Result};

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

/// What compositing a layer costs per pixel, in plain fills (measured: 40 full-picture
/// layers at 50 % opacity take 12.8 s, 110 full-picture rectangles 1.3 s).
const COMPOSITE_COST: u64 = 25;

/// What building and applying a clip costs per layer pixel, in plain fills.
const CLIP_COST: u64 = 6;

/// What building and applying a mask costs per layer pixel, in plain fills.
const MASK_COST: u64 = 8;

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

/// The most steps matching the style sheets' selectors against the elements and resolving
/// `inherit` values may take, each step an element's name, attribute or parent looked at
/// (about 7 ns each here: 50 million take 0.4 s, and usvg takes as long again), every `<use>`
/// copy matched again.
pub const MAX_CSS_WORK: u64 = 50_000_000;

fn css_too_long() -> Error {
    too_complex(format!(
        "its styles take more than {} million steps to match and resolve (the limit is {} \
         million)",
        thousands(MAX_CSS_WORK / 1_000_000),
        thousands(MAX_CSS_WORK / 1_000_000)
    ))
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

/// What the style sheets cost and add, found by matching them as usvg will (the same parser
/// and matcher, on the same sheets in the same order) but under a budget. The matcher
/// backtracks: for each descendant combinator it tries every ancestor, so `x g g g g g g g g
/// g g rect` against 40 nested groups took over 30 s in a 475-byte file.
struct Css<'a, 'input> {
    /// The matching work of each element, by node index.
    work: Vec<u64>,
    /// The elements that matching declarations name with `url(#id)`, by element.
    refs: std::collections::HashMap<NodeId, Vec<XmlNode<'a, 'input>>>,
}

/// An element as the CSS matcher sees it, counting each step in `work` and, once the budget
/// is spent, matching nothing (so the matcher stops at once).
struct Counted<'a, 'input, 'w> {
    node: XmlNode<'a, 'input>,
    work: &'w std::cell::Cell<u64>,
}

impl Counted<'_, '_, '_> {
    fn spend(&self, steps: u64) -> bool {
        let work = self.work.get().saturating_add(steps);
        self.work.set(work);
        work <= MAX_CSS_WORK
    }
}

impl simplecss::Element for Counted<'_, '_, '_> {
    fn parent_element(&self) -> Option<Self> {
        if !self.spend(1) {
            return None;
        }
        self.node.parent_element().map(|node| Counted {
            node,
            work: self.work,
        })
    }

    fn prev_sibling_element(&self) -> Option<Self> {
        if !self.spend(1) {
            return None;
        }
        self.node.prev_sibling_element().map(|node| Counted {
            node,
            work: self.work,
        })
    }

    fn has_local_name(&self, local_name: &str) -> bool {
        self.spend(1) && self.node.tag_name().name() == local_name
    }

    fn attribute_matches(&self, local_name: &str, operator: simplecss::AttributeOperator) -> bool {
        // the element's attributes are searched, then the value read
        if !self.spend(1 + self.node.attributes().len() as u64 / 16) {
            return false;
        }
        match self.node.attribute(local_name) {
            Some(value) => self.spend(value.len() as u64 / 16) && operator.matches(value),
            None => false,
        }
    }

    fn pseudo_class_matches(&self, class: simplecss::PseudoClass) -> bool {
        self.spend(1)
            && match class {
                simplecss::PseudoClass::FirstChild => self.node.prev_sibling_element().is_none(),
                _ => false,
            }
    }
}

impl<'a, 'input> Css<'a, 'input> {
    /// Matches `user` (the sheet usvg is given) and the document's `<style>` sheets against
    /// every element, refusing the picture once the work passes [`MAX_CSS_WORK`].
    fn matched(
        xml: &'a usvg::roxmltree::Document<'input>,
        ids: &std::collections::HashMap<&'a str, XmlNode<'a, 'input>>,
        user: &'a str,
    ) -> Result<Self> {
        // as usvg reads them: the user sheet first, then each text/css or untyped <style>
        let mut sheet = simplecss::StyleSheet::new();
        sheet.parse_more(user);
        for node in xml.descendants().filter(|n| n.has_tag_name("style")) {
            if !matches!(node.attribute("type"), None | Some("text/css")) {
                continue;
            }
            if let Some(text) = node.text() {
                sheet.parse_more(text);
            }
        }
        let mut css = Css {
            work: vec![0; xml.descendants().count()],
            refs: std::collections::HashMap::new(),
        };
        let work = std::cell::Cell::new(0_u64);
        // what looking a property up through an element's ancestors costs (usvg resolves an
        // `inherit` so: each ancestor's attributes searched in turn), by node index
        let mut lookup = vec![0_u64; css.work.len()];
        for node in xml.descendants().filter(|n| n.is_element()) {
            let before = work.get();
            let element = Counted { node, work: &work };
            let mut inherits = node
                .attributes()
                .map(|a| a.value().matches("inherit").count() as u64)
                .sum::<u64>();
            for rule in &sheet.rules {
                if !element.spend(1) {
                    return Err(css_too_long());
                }
                if rule.selector.matches(&element) {
                    // each declaration is looked up among the element's attributes
                    element.spend(rule.declarations.len() as u64);
                    inherits += rule
                        .declarations
                        .iter()
                        .filter(|d| d.value.contains("inherit"))
                        .count() as u64;
                    let named = rule
                        .declarations
                        .iter()
                        .flat_map(|d| url_ids(d.value))
                        .filter_map(|id| ids.get(id).copied());
                    let named: Vec<_> = named.collect();
                    if !named.is_empty() {
                        css.refs.entry(node.id()).or_default().extend(named);
                    }
                }
            }
            let up = node.parent_element().map_or(0, |p| {
                lookup[p.id().get_usize()].saturating_add(1 + p.attributes().len() as u64)
            });
            lookup[node.id().get_usize()] = up;
            element.spend(inherits.saturating_mul(up));
            if work.get() > MAX_CSS_WORK {
                return Err(css_too_long());
            }
            if let Some(w) = css.work.get_mut(node.id().get_usize()) {
                *w = work.get() - before;
            }
        }
        Ok(css)
    }
}

/// The most steps usvg's search for self-referencing patterns, clips, masks and filters may
/// take (each step an element looked at, about 17 ns here: 20 million take 0.35 s).
pub const MAX_RECURSION_CHECK_WORK: u64 = 20_000_000;

/// Refuses a picture whose links would make usvg's search for self-referencing links long,
/// before it starts. usvg searches every pattern, clip path, mask and filter (used or not)
/// for links inside it, and looks through everything each link names for a link back; it
/// starts over after each link back it finds and removes. A 250 KB file of unused clip paths
/// (3,000 shapes linking to a clip of 3,000 shapes, and 300 clips that name themselves) took
/// 46 s. The cost counted here: one search (every element inside those containers, and
/// everything each link in them names) times one more than the links back.
fn recursion_checks<'a, 'input>(
    xml: &'a usvg::roxmltree::Document<'input>,
    ids: &std::collections::HashMap<&'a str, XmlNode<'a, 'input>>,
    css: &Css<'a, 'input>,
) -> Result<()> {
    let nodes: Vec<XmlNode<'a, 'input>> = xml.descendants().collect();
    let index = |n: XmlNode| n.id().get_usize();
    // what each element links to by url(#id), from any attribute or a matching style rule
    let mut linked: Vec<Vec<XmlNode<'a, 'input>>> = vec![Vec::new(); nodes.len()];
    for n in nodes.iter().filter(|n| n.is_element()) {
        linked[index(*n)] = n
            .attributes()
            .flat_map(|a| url_ids(a.value()))
            .filter_map(|id| ids.get(id).copied())
            .chain(css.refs.get(&n.id()).into_iter().flatten().copied())
            .collect();
    }
    let links = |n: XmlNode| &linked[index(n)];
    // elements in each subtree, and what searching the links inside it costs, bottom up
    let mut size = vec![0_u64; nodes.len()];
    for n in nodes.iter().rev().filter(|n| n.is_element()) {
        size[index(*n)] = 1 + n.children().map(|c| size[index(c)]).sum::<u64>();
    }
    let mut link_cost = vec![0_u64; nodes.len()];
    for n in nodes.iter().rev().filter(|n| n.is_element()) {
        let own: u64 = links(*n).iter().map(|t| size[index(*t)]).sum();
        link_cost[index(*n)] = n
            .children()
            .map(|c| link_cost[index(c)])
            .fold(own, u64::saturating_add);
    }
    let containers: Vec<_> = nodes
        .iter()
        .filter(|n| {
            matches!(
                n.tag_name().name(),
                "pattern" | "clipPath" | "mask" | "filter"
            )
        })
        .collect();
    let search = containers
        .iter()
        .map(|e| size[index(**e)].saturating_add(link_cost[index(**e)]))
        .fold(0_u64, u64::saturating_add);
    let refuse = || {
        too_complex(format!(
            "checking its patterns, clips and masks for links back to themselves takes more \
             than {} million steps (the limit is {} million)",
            thousands(MAX_RECURSION_CHECK_WORK / 1_000_000),
            thousands(MAX_RECURSION_CHECK_WORK / 1_000_000)
        ))
    };
    if search > MAX_RECURSION_CHECK_WORK {
        return Err(refuse());
    }
    // the search is affordable: count the links back as usvg finds them (to the container
    // itself, or from inside what the link names to the container)
    let mut back: u64 = 0;
    for e in &containers {
        for d in e.descendants().filter(|d| d.is_element()) {
            for &t in links(d) {
                let loops = t == **e
                    || t.descendants()
                        .any(|n| n.is_element() && links(n).contains(e));
                back += u64::from(loops);
            }
        }
    }
    // patterns are searched twice (fill, then stroke)
    if search.saturating_mul(2).saturating_mul(back + 1) > MAX_RECURSION_CHECK_WORK {
        return Err(refuse());
    }
    Ok(())
}

/// Counts the elements of an XML document with every `<use>` standing for a copy of what it
/// names, and every pattern, clip path and mask (anything named by `url(#id)` in an attribute,
/// a `style` or a matching style rule) counted again where it is used (usvg's conversion and
/// resvg walk them once per use: ten patterns each filling ten shapes with the next, 6.5 KB,
/// ran for minutes). Each element is counted once, so a chain of uses costs its length, not
/// the product; `<defs>` and `<symbol>` count only where they are named.
struct Expansion<'a, 'input, 'c> {
    ids: std::collections::HashMap<&'a str, XmlNode<'a, 'input>>,
    css: &'c Css<'a, 'input>,
    memo: std::collections::HashMap<NodeId, [u64; 2]>,
    css_memo: std::collections::HashMap<NodeId, [u64; 2]>,
}

/// What the count found: the elements, the work of matching the style sheets against every
/// element usvg reads (definitions too), and the characters of text it lays out, `<use>`
/// copies matched and laid out again.
struct Expanded {
    elements: u64,
    /// Path points, every arc counted as the curves it is converted to.
    points: u64,
    css_work: u64,
    text_chars: u64,
}

impl<'a, 'input, 'c> Expansion<'a, 'input, 'c> {
    /// The expanded size of `xml` (capped a little past the limits).
    fn count(
        xml: &'a usvg::roxmltree::Document<'input>,
        ids: std::collections::HashMap<&'a str, XmlNode<'a, 'input>>,
        css: &'c Css<'a, 'input>,
    ) -> Result<Expanded> {
        let mut e = Expansion {
            ids,
            css,
            memo: std::collections::HashMap::new(),
            css_memo: std::collections::HashMap::new(),
        };
        let [elements, points] = e.node(xml.root_element(), 0)?;
        let [css_work, text_chars] = e.read(xml.root_element(), 0)?;
        Ok(Expanded {
            elements,
            points,
            css_work,
            text_chars,
        })
    }

    /// The element `use` names, if any.
    fn href(&self, node: XmlNode<'a, 'input>) -> Option<XmlNode<'a, 'input>> {
        node.attributes()
            .find(|a| a.name() == "href")
            .and_then(|a| a.value().strip_prefix('#'))
            .and_then(|id| self.ids.get(id).copied())
    }

    fn deep(depth: u32) -> Result<()> {
        if depth > MAX_DEPTH {
            return Err(too_complex(format!(
                "elements nested more than {MAX_DEPTH} deep"
            )));
        }
        Ok(())
    }

    /// The elements and path points of `node` expanded.
    fn node(&mut self, node: XmlNode<'a, 'input>, depth: u32) -> Result<[u64; 2]> {
        Self::deep(depth)?;
        if let Some(&n) = self.memo.get(&node.id()) {
            return Ok(n);
        }
        // a link that leads back here counts nothing (usvg drops it)
        self.memo.insert(node.id(), [0, 0]);
        let own_points = match node.attribute("d") {
            Some(d) if node.tag_name().name() == "path" => path_points(d),
            _ => 0,
        };
        let mut n = [1, own_points];
        // definitions are drawn only where a use names them
        let drawn =
            |c: &XmlNode| c.is_element() && !matches!(c.tag_name().name(), "defs" | "symbol");
        let name = node.tag_name().name();
        // a use's copy; patterns and gradients take their content from the one they name,
        // a text path its path
        let copied = matches!(
            name,
            "use" | "pattern" | "linearGradient" | "radialGradient" | "textPath"
        )
        .then(|| self.href(node))
        .flatten();
        let linked: Vec<XmlNode<'a, 'input>> = node
            .children()
            .filter(drawn)
            .chain(copied)
            .chain(
                node.attributes()
                    .flat_map(|a| url_ids(a.value()))
                    .filter_map(|id| self.ids.get(id).copied()),
            )
            .chain(self.css.refs.get(&node.id()).into_iter().flatten().copied())
            .collect();
        for target in linked {
            let c = self.node(target, depth + 1)?;
            n = [n[0].saturating_add(c[0]), n[1].saturating_add(c[1])];
            if n[0] > MAX_EXPANDED_ELEMENTS || n[1] > MAX_SVG_POINTS {
                break;
            }
        }
        self.memo.insert(node.id(), n);
        Ok(n)
    }

    /// The CSS work and the text characters of `node` and everything usvg reads inside it:
    /// every element child (definitions too) and, for a `<use>`, the copy (matched and laid
    /// out again).
    fn read(&mut self, node: XmlNode<'a, 'input>, depth: u32) -> Result<[u64; 2]> {
        Self::deep(depth)?;
        if let Some(&n) = self.css_memo.get(&node.id()) {
            return Ok(n);
        }
        self.css_memo.insert(node.id(), [0, 0]);
        let css = self
            .css
            .work
            .get(node.id().get_usize())
            .copied()
            .unwrap_or(0);
        let mut n = [css, text_chars(node)];
        let copied = (node.tag_name().name() == "use")
            .then(|| self.href(node))
            .flatten();
        for target in node.children().filter(|c| c.is_element()).chain(copied) {
            let c = self.read(target, depth + 1)?;
            n = [n[0].saturating_add(c[0]), n[1].saturating_add(c[1])];
            if n[0] > MAX_CSS_WORK || n[1] > MAX_TEXT_CHARS {
                break;
            }
        }
        self.css_memo.insert(node.id(), n);
        Ok(n)
    }
}

/// What rasterising a tree costs, counted before drawing it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Cost {
    /// Paths, groups and images.
    pub elements: u64,
    /// Path points.
    pub points: u64,
    /// Pixel operations, weighted by their cost (see [`MAX_SVG_PIXEL_WORK`]).
    pub pixel_work: u64,
    /// The most bytes of layers alive at once.
    pub peak_layer_bytes: u64,
}

/// Counts the cost of drawing `tree` on a `width` x `height` pixmap with `transform`,
/// stopping with the "too complex" error as soon as a limit is passed.
pub fn measure(
    tree: &usvg::Tree,
    transform: tiny_skia::Transform,
    width: u32,
    height: u32,
) -> Result<Cost> {
    let mut m = Meter {
        cost: Cost::default(),
        canvas: u64::from(width) * u64::from(height),
        width: width as f32,
        height: height as f32,
        transform,
    };
    m.group(tree.root(), true, m.canvas, 0)?;
    let mut c = m.cost;
    c.elements -= 1; // the root
    if c.elements > MAX_SVG_ELEMENTS {
        return Err(too_complex(format!(
            "{} elements (the limit is {})",
            thousands(c.elements),
            thousands(MAX_SVG_ELEMENTS)
        )));
    }
    if c.points > MAX_SVG_POINTS {
        return Err(too_complex(format!(
            "{} path points (the limit is {})",
            thousands(c.points),
            thousands(MAX_SVG_POINTS)
        )));
    }
    if c.pixel_work > MAX_SVG_PIXEL_WORK {
        return Err(too_complex(format!(
            "{} million pixel operations (the limit is {} million)",
            thousands(c.pixel_work / 1_000_000),
            thousands(MAX_SVG_PIXEL_WORK / 1_000_000)
        )));
    }
    if c.peak_layer_bytes > MAX_SVG_LAYER_BYTES {
        return Err(too_complex(format!(
            "{} MB of layers at once (the limit is {} MB)",
            thousands(c.peak_layer_bytes >> 20),
            MAX_SVG_LAYER_BYTES >> 20
        )));
    }
    Ok(c)
}

/// Where counting stops: far past every limit.
const WALK_LIMIT: u64 = 20 * MAX_SVG_ELEMENTS;

struct Meter {
    cost: Cost,
    /// Pixels of the picture.
    canvas: u64,
    width: f32,
    height: f32,
    /// Canvas units to pixels.
    transform: tiny_skia::Transform,
}

impl Meter {
    /// The pixels of `rect` (canvas units) once drawn, within the picture (`layer` false) or
    /// within `-2..3` times the picture (`layer` true: the area resvg clamps layers to); `None`
    /// when the box is not known.
    fn pixels(&self, rect: tiny_skia::Rect, layer: bool) -> Option<u64> {
        let r = rect.transform(self.transform)?;
        let (w, h) = (self.width, self.height);
        let (lo, hi) = if layer { (-2.0, 3.0) } else { (0.0, 1.0) };
        let left = r.left().max(lo * w);
        let top = r.top().max(lo * h);
        let right = r.right().min(hi * w);
        let bottom = r.bottom().min(hi * h);
        if !(right.is_finite() && bottom.is_finite() && left.is_finite() && top.is_finite()) {
            return None;
        }
        let area =
            f64::from((right - left).max(0.0) + 4.0) * f64::from((bottom - top).max(0.0) + 4.0);
        Some(area as u64)
    }

    /// Stops the walk once it is far past the element limit (so a pattern nested in itself
    /// through many paths cannot make the count itself long).
    fn check(&mut self) -> Result<()> {
        if self.cost.elements > WALK_LIMIT {
            return Err(too_complex(format!(
                "more than {} elements (the limit is {})",
                thousands(WALK_LIMIT),
                thousands(MAX_SVG_ELEMENTS)
            )));
        }
        Ok(())
    }

    fn work(&mut self, pixels: u64) {
        self.cost.pixel_work = self.cost.pixel_work.saturating_add(pixels);
    }

    /// Adds `bytes` of layers on top of `live`, returning the new total.
    fn hold(&mut self, live: u64, bytes: u64) -> Result<u64> {
        let live = live.saturating_add(bytes);
        self.cost.peak_layer_bytes = self.cost.peak_layer_bytes.max(live);
        self.check()?;
        Ok(live)
    }

    /// Counts `group` and what it holds. `main` is false inside clips, masks and pattern tiles,
    /// whose boxes are in their own units: there every path counts as filling `target` pixels
    /// (the size of what it is drawn on). `live` is the bytes of layers already held.
    ///
    /// An isolated group (opacity, clip, mask, blend mode) is drawn on a layer of its own,
    /// cleared, then composited onto the picture through a bilinear pattern, which costs about
    /// [`COMPOSITE_COST`] times a plain fill per pixel (measured); a clip or mask is a second
    /// layer of the same size, built and applied.
    fn group(&mut self, group: &usvg::Group, main: bool, target: u64, live: u64) -> Result<()> {
        self.cost.elements += 1;
        let mut live = live;
        let mut target = target;
        if group.should_isolate() {
            let bbox = group.abs_layer_bounding_box().to_rect();
            let (layer, shown) = if main {
                let layer = self.pixels(bbox, true).unwrap_or(self.canvas * 25);
                // composited onto the picture, or onto the layer of an enclosing group
                let shown = if target > self.canvas {
                    layer.min(target)
                } else {
                    self.pixels(bbox, false).unwrap_or(self.canvas)
                };
                (layer, shown)
            } else {
                (target, target)
            };
            self.work(layer);
            self.work(shown.saturating_mul(COMPOSITE_COST));
            live = self.hold(live, layer.saturating_mul(4))?;
            if let Some(clip) = group.clip_path() {
                self.clip(clip, layer, live)?;
            }
            if let Some(mask) = group.mask() {
                self.mask(mask, layer, live)?;
            }
            target = layer;
        }
        for node in group.children() {
            match node {
                usvg::Node::Group(g) => self.group(g, main, target, live)?,
                usvg::Node::Path(p) => self.path(p, main, target, live)?,
                usvg::Node::Image(_) => self.cost.elements += 1,
                usvg::Node::Text(t) => self.group(t.flattened(), main, target, live)?,
            }
        }
        self.check()
    }

    /// A clip path on a `layer`-pixel layer: a second layer, its content, and the clip's own
    /// clip.
    fn clip(&mut self, clip: &usvg::ClipPath, layer: u64, live: u64) -> Result<()> {
        self.work(layer.saturating_mul(CLIP_COST));
        let live = self.hold(live, layer.saturating_mul(4))?;
        self.group(clip.root(), false, layer, live)?;
        if let Some(inner) = clip.clip_path() {
            self.clip(inner, layer, live)?;
        }
        Ok(())
    }

    /// A mask on a `layer`-pixel layer: a second layer and an alpha mask, its content, and the
    /// mask's own mask.
    fn mask(&mut self, mask: &usvg::Mask, layer: u64, live: u64) -> Result<()> {
        self.work(layer.saturating_mul(MASK_COST));
        let live = self.hold(live, layer.saturating_mul(5))?;
        self.group(mask.root(), false, layer, live)?;
        if let Some(inner) = mask.mask() {
            self.mask(inner, layer, live)?;
        }
        Ok(())
    }

    fn path(&mut self, path: &usvg::Path, main: bool, target: u64, live: u64) -> Result<()> {
        self.cost.elements += 1;
        self.cost.points += path.data().len() as u64;
        self.crowded_rows(path);
        if let Some(dashes) = path.stroke().and_then(|s| dash_count(path, s)) {
            self.cost.points = self
                .cost
                .points
                .saturating_add(dashes.saturating_mul(DASH_POINTS));
            // every dash is a piece of one path, and the anti-aliased scan converter pays for
            // each piece a row crosses once per piece crossing it: rows x crossings squared
            if let Some(r) = path.abs_stroke_bounding_box().transform(self.transform) {
                let (w, h) = (f64::from(r.width()), f64::from(r.height()));
                if w.is_finite() && h.is_finite() && w + h > 0.0 {
                    let crossings = dashes as f64 * w / (w + h);
                    let rows = h.min(f64::from(self.height)) + 1.0;
                    let work = crossings * crossings * rows * DASH_ROW_COST;
                    self.work(if work.is_finite() {
                        work.min(u64::MAX as f64 / 16.0) as u64
                    } else {
                        u64::MAX / 16
                    });
                }
            }
        }
        // the rasteriser's fixed-point edges overflow (and it panics) on geometry this far out
        let far = path
            .abs_stroke_bounding_box()
            .transform(self.transform)
            .is_none_or(|r| {
                [r.left(), r.top(), r.right(), r.bottom()]
                    .iter()
                    .any(|v| !v.is_finite() || v.abs() > FAR_PX)
            });
        if far {
            return Err(Error::input(format!(
                "the SVG image draws shapes far outside its picture (more than {} pixels \
                 out): remove them or redraw the picture",
                thousands(FAR_PX as u64)
            )));
        }
        let area = if main {
            self.pixels(path.abs_stroke_bounding_box(), target > self.canvas)
                .unwrap_or(target)
                .min(target)
        } else {
            target
        };
        let paints = [
            path.fill().map(usvg::Fill::paint),
            path.stroke().map(usvg::Stroke::paint),
        ];
        for paint in paints.into_iter().flatten() {
            self.work(area);
            if let usvg::Paint::Pattern(pattern) = paint {
                self.pattern(pattern, path, live)?;
            }
        }
        self.check()
    }

    /// The scan converter's extra work on a path whose edges crowd its rows: it pays for each
    /// edge a row crosses once per other edge on that row, so a scribble of 20,000 random
    /// points (10,000 edges on every row) costs far more than its pixels. Counted as rows x
    /// (edges per row) squared.
    fn crowded_rows(&mut self, path: &usvg::Path) {
        let ts = self.transform.pre_concat(path.abs_transform());
        let y = |p: tiny_skia::Point| f64::from(ts.ky * p.x + ts.sy * p.y + ts.ty);
        let drop: f64 = path
            .data()
            .points()
            .windows(2)
            .map(|w| (y(w[1]) - y(w[0])).abs())
            .filter(|d| d.is_finite())
            .sum();
        let Some(r) = path.abs_bounding_box().transform(self.transform) else {
            return;
        };
        let rows = f64::from(r.height()).clamp(1.0, f64::from(self.height).max(1.0));
        let per_row = drop / rows;
        let work = per_row * per_row * rows * DASH_ROW_COST;
        self.work(if work.is_finite() {
            work.min(u64::MAX as f64 / 16.0) as u64
        } else {
            u64::MAX / 16
        });
    }

    /// A pattern: a tile drawn once per path that uses it, at the path's scale.
    fn pattern(&mut self, pattern: &usvg::Pattern, path: &usvg::Path, live: u64) -> Result<()> {
        let (sx, sy) = self
            .transform
            .pre_concat(path.abs_transform())
            .pre_concat(pattern.transform())
            .get_scale();
        let rect = pattern.rect();
        let tile = f64::from(rect.width() * sx).round() * f64::from(rect.height() * sy).round();
        let tile = if tile.is_finite() {
            tile as u64
        } else {
            u64::MAX / 8
        };
        self.work(tile);
        let live = self.hold(live, tile.saturating_mul(4))?;
        self.group(pattern.root(), false, tile, live)
    }
}

/// How far outside the picture (pixels) a path may reach: a million, far past any picture
/// Hedge draws and far short of where tiny-skia's edges overflow (a circle of radius 1e10
/// panicked in its scan converter).
const FAR_PX: f32 = 1.0e6;

/// What one dash of a dashed stroke counts as, in path points: the stroker makes each dash a
/// closed piece of its own (two ends and two sides, more with round caps).
const DASH_POINTS: u64 = 8;

/// What one dash crossing a row costs per other dash on that row, in plain fills (measured:
/// five 100-unit lines of 5,000 dashes each, 100 pixels thick, took 35 s in a debug build).
const DASH_ROW_COST: f64 = 1.5;

/// How many dashes `stroke` cuts `path` into: the path's length (along its control polygon, at
/// least the curves' length) over the dash pattern's period, times the dashes in a period;
/// `None` without a dash pattern. Counted before anything is stroked: a 530-byte file of five
/// lines with `stroke-dasharray="0.0001"` asks for five million dashes.
fn dash_count(path: &usvg::Path, stroke: &usvg::Stroke) -> Option<u64> {
    let pattern = stroke.dasharray()?;
    let period: f64 = pattern.iter().map(|&d| f64::from(d)).sum();
    if !(period.is_finite() && period > 0.0) {
        return None;
    }
    let length: f64 = path
        .data()
        .points()
        .windows(2)
        .map(|w| f64::from(w[0].distance(w[1])))
        .filter(|d| d.is_finite())
        .sum();
    let dashes = (length / period).ceil() * (pattern.len() as f64 / 2.0).ceil();
    Some(if dashes.is_finite() {
        dashes.min(u64::MAX as f64 / 16.0) as u64
    } else {
        u64::MAX / 16
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
