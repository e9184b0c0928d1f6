//! The one placement step for everything printed around the maze: the title's lines, the name
//! line, the page number, the START and FINISH arrows and labels, and the answer key's
//! "ANSWER KEY" label. [`plan`] knows every box on the page (millimetres, page coordinates) and
//! what the maze covers (the layout's [`Occupancy`]), puts each item where it is clear of the
//! others and of the maze, and says so in [`Plan::warnings`] when it cannot. The painters
//! (`text.rs`, `markers.rs`, `solution.rs`) draw what the plan says and place nothing themselves.
//!
//! The order is fixed, so a page is placed the same way every time: the header and footer
//! first (they have their own bands: [`furniture`]), then the two arrows as they come out of
//! their openings, then the START and FINISH labels, each beside its arrow's outer end and
//! never more than [`LABEL_REACH_MAX`] from it (the layout's place beyond or beside the arrow
//! when that is clear, else the nearest clear place round the end, else the arrow grows or
//! turns out of a pocket of the outline and carries the label with it: see
//! [`place_markers`]), and last the ANSWER KEY label of a key page, which goes where it is clear
//! of the markers by [`KEY_CLEAR`] (the foot of the page on the right, else on the left, else
//! the top of the page). A weave maze's legend ("Passages can go under bridges") is placed
//! after the markers and before the ANSWER KEY label: the foot of the page on the left, else
//! on the right, else the top; it is left out (a hint, not part of the puzzle) when none of
//! these is clear. The markers are placed with the puzzle page's name line in the way on
//! the key page too, so the key's maze and markers are the puzzle's.

use super::font::{self, CAP_HEIGHT_EM, font};
use super::geometry::{Geometry, Role};
use super::layout::layout_with;
use super::layout::{
    FOOTER_SIZE, LABEL_GAP, LABEL_REACH_MAX, LabelSpot, Layout, Marks, NAME_SIZE, TUCK_PAD,
    furniture, label_offset, mark_size, tucked_offset, unit,
};
use super::model::{Area, Pos};
use crate::error::Result;
use crate::page::PageSetup;

/// The least gap, in millimetres, between two boxes the placement puts side by side.
pub(super) const GAP: f64 = 1.0;
/// How far the ANSWER KEY label keeps from the START and FINISH labels and arrows, in
/// millimetres: far enough that "FINISH" above "ANSWER KEY" does not read as one label.
pub(super) const KEY_CLEAR: f64 = 10.0;

/// An entrance or exit marker as placed: the arrow's two ends and the label's box.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Marker {
    /// START, FINISH or a "Which path?" entrance's letter.
    pub(super) label: String,
    /// What the marker says (the label, or the dot, flag or picture standing for it).
    pub(super) role: Role,
    /// Whether this is the entrance (the arrow points in) rather than the exit (it points out).
    pub(super) entrance: bool,
    /// The arrow's end just inside the opening.
    pub(super) inner: Pos,
    /// The arrow's end outside the maze.
    pub(super) outer: Pos,
    /// The arrow head's length, millimetres.
    pub(super) head_len: f64,
    /// The arrow head's width, millimetres.
    pub(super) head_w: f64,
    /// The arrow shaft's width, millimetres.
    pub(super) shaft: f64,
    /// The label's box: from its cap height down to its descenders.
    pub(super) label_box: Area,
}

impl Marker {
    /// The arrow's bounding box (shaft and head).
    pub(super) fn arrow_box(&self) -> Area {
        let (tail, tip) = self.tail_tip();
        arrow_box(tail, tip, (self.head_len, self.head_w, self.shaft))
    }

    /// The arrow's tail and tip: the entrance's points in, the exit's out.
    pub(super) fn tail_tip(&self) -> (Pos, Pos) {
        if self.entrance {
            (self.outer, self.inner)
        } else {
            (self.inner, self.outer)
        }
    }
}

/// Where everything around the maze goes on one page.
pub(super) struct Plan {
    /// The entrances' and the exit's markers, in that order.
    pub(super) markers: Vec<Marker>,
    /// Which of `markers` is the entrance joined to the exit on a "Which path?" puzzle.
    pub(super) winner: Option<usize>,
    /// The ANSWER KEY label's box (key pages only): from its cap height to its baseline.
    pub(super) answer_key: Option<Area>,
    /// The weave legend's box ([`WEAVE_LEGEND`], weave mazes with crossings): from its cap
    /// height to its baseline.
    pub(super) legend: Option<Area>,
    /// What could not be kept clear, one line each.
    pub(super) warnings: Vec<String>,
}

/// The box of the arrow the markers draw from `tail` to `tip` (see `markers.rs`): a shaft
/// `shaft` wide with round caps, and a head `head_len` long and `head_w` wide at `tip`.
pub(super) fn arrow_box(tail: Pos, tip: Pos, (head_len, head_w, shaft): (f64, f64, f64)) -> Area {
    let d = unit(tip.x - tail.x, tip.y - tail.y);
    let p = (-d.1, d.0);
    let base = tip.add(d, -head_len);
    let shaft_end = base.add(d, head_len * 0.3);
    let r = shaft / 2.0;
    let mut pts = vec![tip, base.add(p, head_w / 2.0), base.add(p, -head_w / 2.0)];
    for c in [tail, shaft_end] {
        pts.extend([Pos::new(c.x - r, c.y - r), Pos::new(c.x + r, c.y + r)]);
    }
    let (mut x0, mut y0, mut x1, mut y1) = (f64::MAX, f64::MAX, f64::MIN, f64::MIN);
    for q in pts {
        (x0, y0, x1, y1) = (x0.min(q.x), y0.min(q.y), x1.max(q.x), y1.max(q.y));
    }
    Area {
        x: x0,
        y: y0,
        w: x1 - x0,
        h: y1 - y0,
    }
}

/// `b` grown by `d` on every side.
fn grown(b: &Area, d: f64) -> Area {
    Area {
        x: b.x - d,
        y: b.y - d,
        w: b.w + 2.0 * d,
        h: b.h + 2.0 * d,
    }
}

/// The box of a text of width `w` and em size `size` whose left end is `x` and baseline `base`:
/// from the cap height to the descenders.
fn text_box(x: f64, base: f64, w: f64, size: f64) -> Area {
    Area {
        x,
        y: base - CAP_HEIGHT_EM * size,
        w,
        h: (CAP_HEIGHT_EM + font::DESCENT_EM) * size,
    }
}

/// The boxes placed so far, with what each one is (for the warnings).
struct Boxes<'a> {
    lay: &'a Layout,
    geo: &'a Geometry,
    taken: Vec<(&'static str, Area)>,
}

impl Boxes<'_> {
    /// Whether `b` is clear of the maze (with `pad` millimetres round it).
    fn off_maze(&self, b: &Area, pad: f64) -> bool {
        let (s, o) = (self.lay.scale, self.lay.origin);
        let units = (
            (b.x - pad - o.x) / s,
            (b.y - pad - o.y) / s,
            (b.x + b.w + pad - o.x) / s,
            (b.y + b.h + pad - o.y) / s,
        );
        !self.geo.occ.any(units)
    }

    /// What `b` overlaps among the boxes taken (each grown by `gap`), if anything.
    fn hit(&self, b: &Area, gap: f64) -> Option<&'static str> {
        self.taken
            .iter()
            .find(|(_, t)| grown(t, gap).overlaps(b))
            .map(|(name, _)| *name)
    }
}

/// Whether `b` lies inside `area` (to a micrometre).
fn inside(b: &Area, area: &Area) -> bool {
    let e = 1e-6;
    b.x >= area.x - e
        && b.y >= area.y - e
        && b.x + b.w <= area.x + area.w + e
        && b.y + b.h <= area.y + area.h + e
}

/// Places everything around the maze of `lay` / `geo` on the page `setup` (settled to the
/// layout's orientation), with an ANSWER KEY label when `key`.
pub(super) fn plan(setup: &PageSetup, lay: &Layout, geo: &Geometry, key: bool) -> Plan {
    let pa = &lay.printable;
    let furn = furniture(setup, pa);
    let face = setup.font;
    let mut boxes = Boxes {
        lay,
        geo,
        taken: Vec::new(),
    };
    let mut warnings = Vec::new();
    // the header and the footer, in their own bands
    // the centred lines: the title (bold) and a theme's instruction
    for (what, block, bold) in [
        ("the title", &furn.title, true),
        ("the instruction", &furn.instruction, false),
    ] {
        let Some((fitted, bases)) = block else {
            continue;
        };
        for (line, &base) in fitted.lines.iter().zip(bases) {
            let w = font(face, bold).width(line, fitted.size);
            let x = pa.x + (pa.w - w) / 2.0;
            boxes.taken.push((what, text_box(x, base, w, fitted.size)));
        }
    }
    if let Some((base, w)) = furn.stars {
        // on the right, or on the left of a right-to-left page
        let x = if setup.right_to_left() {
            pa.x
        } else {
            pa.x + pa.w - w
        };
        boxes
            .taken
            .push(("the stars", text_box(x, base, w, super::layout::STAR_SIZE)));
    }
    if let Some(base) = furn.name_base {
        // the label and its rule (which sits above the descenders' depth), from the left edge
        // or, mirrored, to the right one
        let (x0, x1) = name_rule(setup, pa);
        let (from, to) = if setup.right_to_left() {
            (x0, pa.x + pa.w)
        } else {
            (pa.x, x1)
        };
        boxes
            .taken
            .push(("the name line", text_box(from, base, to - from, NAME_SIZE)));
    }
    if let Some(n) = setup.page_number {
        let w = font(face, false).width(&n.to_string(), FOOTER_SIZE);
        boxes.taken.push((
            "the page number",
            text_box(pa.x + (pa.w - w) / 2.0, furn.footer_base, w, FOOTER_SIZE),
        ));
    }
    let markers = place_markers(&mut boxes, &mut warnings);
    // the weave legend: at the foot of the page on the left, else on the right, else at the
    // top; left out (it is a hint, not part of the puzzle) where none of these is clear. A
    // right-to-left page mirrors it (right first), and the answer key's label (left first)
    let rtl = setup.right_to_left();
    let legend = geo.legend.then(|| {
        let w = font(face, false).width(lay.words.get("bridges"), FOOTER_SIZE);
        let candidates = corner_boxes(pa, furn.footer_base, w, !rtl);
        let clear =
            |b: &Area| inside(b, pa) && boxes.hit(b, GAP).is_none() && boxes.off_maze(b, GAP);
        let b = *candidates.iter().find(|b| clear(b))?;
        boxes.taken.push(("the weave legend", b));
        Some(b)
    });
    let legend = legend.flatten();
    let answer_key = key.then(|| {
        let w = font(face, true).width(lay.words.get("answer_key"), FOOTER_SIZE);
        let candidates = corner_boxes(pa, furn.footer_base, w, rtl);
        let clear = |b: &Area| {
            let near_marker = markers.iter().any(|m| {
                grown(&m.label_box, KEY_CLEAR).overlaps(b)
                    || grown(&m.arrow_box(), KEY_CLEAR).overlaps(b)
            });
            !near_marker && boxes.hit(b, GAP).is_none() && boxes.off_maze(b, GAP)
        };
        match candidates.iter().find(|b| clear(b)) {
            Some(b) => *b,
            None => {
                warnings.push(
                    "the ANSWER KEY label is close to the START or FINISH label: no clear \
                     place at the top or foot of the page; use wider margins"
                        .to_string(),
                );
                candidates[0]
            }
        }
    });
    Plan {
        markers,
        winner: geo.winner,
        answer_key,
        legend,
        warnings,
    }
}

/// The boxes of a footer-sized line `w` millimetres wide in the corners of the printable area
/// `pa`, in the order they are tried: at the foot (on the baseline `foot`), then at the top;
/// on the left first when `left_first`, else on the right first.
fn corner_boxes(pa: &Area, foot: f64, w: f64, left_first: bool) -> [Area; 4] {
    let at = |left: bool, base: f64| {
        let x = if left { pa.x } else { pa.x + pa.w - w };
        text_box(x, base, w, FOOTER_SIZE)
    };
    let head = pa.y + CAP_HEIGHT_EM * FOOTER_SIZE;
    let (first, second) = (left_first, !left_first);
    [
        at(first, foot),
        at(second, foot),
        at(first, head),
        at(second, head),
    ]
}

/// How much smaller each try of [`settle`] makes the maze, and how many it makes.
const SHRINK_STEP: f64 = 0.99;
const SHRINK_TRIES: i32 = 60;

/// The layout of the maze `geo` on `setup` ([`layout_with`], an auto orientation settled) with
/// room for everything the placement step puts round it: when a label cannot be kept clear (a
/// jagged outline in the way of a label at the edge of the maze area), the maze is made 1 %
/// smaller and placed again, up to 60 times (to about half its size); if that never clears, the
/// full-size layout is kept and its plan's warnings say what overlaps. Returns the layout and
/// the share of the full scale it uses (for the key page's layout).
pub(super) fn settle(setup: &PageSetup, geo: &Geometry) -> Result<(Layout, f64)> {
    let full = layout_with(setup, geo, 1.0)?;
    let settled = setup.oriented(full.orientation);
    if plan(&settled, &full, geo, true).warnings.is_empty() {
        return Ok((full, 1.0));
    }
    for k in 1..=SHRINK_TRIES {
        let shrink = SHRINK_STEP.powi(k);
        let Ok(lay) = layout_with(&settled, geo, shrink) else {
            break;
        };
        if plan(&settled, &lay, geo, true).warnings.is_empty() {
            return Ok((lay, shrink));
        }
    }
    Ok((full, 1.0))
}

/// The name line's rule, from x0 to x1 (x0 < x1) on the printable area `pa`: after the label
/// on the left, or, on a right-to-left page, before it on the right (mirrored).
pub(super) fn name_rule(setup: &PageSetup, pa: &Area) -> (f64, f64) {
    let x0 = pa.x
        + font(setup.font, false).width(&format!("{} ", setup.words().get("name")), NAME_SIZE)
        + 1.0;
    let x1 = (pa.x + pa.w * 0.6).max(x0 + 20.0).min(pa.x + pa.w);
    if setup.right_to_left() {
        (mirrored(pa, x1), mirrored(pa, x0))
    } else {
        (x0, x1)
    }
}

/// `x` mirrored across the middle of the printable area `pa` (a right-to-left page's layout).
pub(super) fn mirrored(pa: &Area, x: f64) -> f64 {
    2.0 * pa.x + pa.w - x
}

/// The least gap between a label and its own arrow, in millimetres (other boxes keep [`GAP`]).
const OWN_GAP: f64 = 0.5;

/// The turns (degrees from the opening's outward normal) an arrow takes, in the order tried,
/// when its label finds no clear place round its end: out of a pocket of the outline (between
/// a bird's leg and its belly) a turned arrow reaches open paper.
const TURNS: [f64; 7] = [0.0, 15.0, -15.0, 30.0, -30.0, 45.0, -45.0];

/// The longest an arrow grows to carry its label clear of the shape, in millimetres beyond its
/// normal length.
const MAX_EXTRA: f64 = 60.0;

/// How far the box `b` is from the point `p` (0 when `p` is inside it).
pub(super) fn box_distance(b: &Area, p: Pos) -> f64 {
    let dx = (b.x - p.x).max(p.x - (b.x + b.w)).max(0.0);
    let dy = (b.y - p.y).max(p.y - (b.y + b.h)).max(0.0);
    dx.hypot(dy)
}

/// The places tried for a label of size `(w, h)` round its arrow's outer end, as offsets from
/// that end to the box's top left corner, best first: boxes whose nearest point is
/// [`LABEL_GAP`] (then twice that) from the end, straight out along the outward normal `n`
/// first, then turning away from it 15 degrees at a time, either way, to 150 degrees (alongside
/// the arrow, back towards the maze). Every one is within [`LABEL_REACH_MAX`] of the end.
fn around(n: (f64, f64), (w, h): (f64, f64)) -> Vec<(f64, f64)> {
    let base = n.1.atan2(n.0);
    let mut out = Vec::new();
    for k in 0..21 {
        // 0, +15, -15, +30, ... degrees
        let turn = f64::from((k + 1) / 2) * if k % 2 == 1 { 1.0 } else { -1.0 };
        let a = base + turn * std::f64::consts::PI / 12.0;
        let u = (a.cos(), a.sin());
        for gap in [LABEL_GAP, 2.0 * LABEL_GAP] {
            // the centre along u at which the box's nearest point is `gap` from the end: the
            // distance grows with t, so halve the interval
            let dist = |t: f64| {
                let dx = ((u.0 * t).abs() - w / 2.0).max(0.0);
                let dy = ((u.1 * t).abs() - h / 2.0).max(0.0);
                dx.hypot(dy)
            };
            let (mut lo, mut hi) = (0.0, gap + w + h);
            for _ in 0..40 {
                let mid = (lo + hi) / 2.0;
                if dist(mid) < gap {
                    lo = mid;
                } else {
                    hi = mid;
                }
            }
            out.push((u.0 * hi - w / 2.0, u.1 * hi - h / 2.0));
        }
    }
    out
}

/// The START and FINISH markers: arrows through the openings, and each label beside its
/// arrow's outer end (never more than [`LABEL_REACH_MAX`] from it), clear of the shape, of each
/// other and of everything taken, inside the maze area. The layout's place for the label is
/// tried first (beyond the arrow, or beside it); then every place round the arrow's end
/// ([`around`]); then the arrow grows outwards a millimetre at a time, as long as it stays
/// clear of the shape and of the rest, and the places round its new end are tried.
fn place_markers(boxes: &mut Boxes<'_>, warnings: &mut Vec<String>) -> Vec<Marker> {
    let lay = boxes.lay;
    let geo = boxes.geo;
    let arrows = Arrows::new(lay, geo);
    let (head_len, head_w, shaft) = arrows.arrow;
    // every arrow is in the way of every label
    let first_arrow = boxes.taken.len();
    for (i, role) in geo.roles.iter().enumerate() {
        boxes
            .taken
            .push((arrow_name(*role), arrows.boxed(i, geo.openings[i].1, 0.0)));
    }
    let marks = lay.markers;
    let mut markers = Vec::with_capacity(geo.openings.len());
    for (i, &(_, n)) in geo.openings.iter().enumerate() {
        let role = geo.roles[i];
        let label = role.label();
        let size = mark_size(
            role,
            (
                lay.face,
                marks,
                Marks::of(lay.symbols, lay.pictures.as_deref(), marks),
                &lay.words,
            ),
        );
        let pad = lay.wall_mm / 2.0 + 0.8;
        let own = first_arrow + i;
        let mark = Label { i, own, size, pad };
        let (bx, d, extra) = match place_label(boxes, &arrows, &mark) {
            Some(f) => f,
            None => {
                let straight = mark.layout_box(&arrows, false, false);
                let what = boxes
                    .hit(&straight, GAP)
                    .filter(|_| boxes.off_maze(&straight, pad))
                    .unwrap_or("the maze");
                warnings.push(format!(
                    "the {label} label overlaps {what}: no clear place for it near its arrow; \
                     use a larger page or smaller margins"
                ));
                (straight, n, 0.0)
            }
        };
        let (inner, outer) = arrows.ends(i, d, extra);
        boxes.taken[own] = (boxes.taken[own].0, arrows.boxed(i, d, extra));
        boxes.taken.push((label, bx));
        markers.push(Marker {
            label: role.word(&lay.words).to_string(),
            role,
            entrance: role.entrance(),
            inner,
            outer,
            head_len,
            head_w,
            shaft,
            label_box: bx,
        });
    }
    markers
}

/// What an arrow is called in the warnings.
fn arrow_name(role: Role) -> &'static str {
    match role {
        Role::Start => "the START arrow",
        Role::Finish => "the FINISH arrow",
        Role::Letter(k) => ["the A arrow", "the B arrow", "the C arrow", "the D arrow"]
            .get(k)
            .copied()
            .unwrap_or("an arrow"),
    }
}

/// The arrows through a page's openings, as [`place_markers`] sizes them.
struct Arrows<'a> {
    lay: &'a Layout,
    geo: &'a Geometry,
    /// How far an arrow reaches into its opening, millimetres (less than 0: it stops short).
    inside_by: f64,
    /// How far an arrow reaches out of its opening before it grows, millimetres.
    out: f64,
    /// The head's length, the head's width and the shaft's width, millimetres.
    arrow: (f64, f64, f64),
}

impl<'a> Arrows<'a> {
    /// The arrows of the page laid out as `lay`: heads sized to the corridor.
    fn new(lay: &'a Layout, geo: &'a Geometry) -> Arrows<'a> {
        let s = lay.scale;
        let marks = lay.markers;
        let (arrow_out, shaft) = (marks.arrow_mm(), marks.shaft_mm());
        let corridor = lay.corridor_mm.max(0.1);
        let head_w = (0.8 * corridor).clamp(1.6, marks.head_max_mm());
        let head_len = head_w * 1.1;
        // the arrow: from just inside the opening to its outer end; at a gap in a shape's own
        // outline it stops outside the gap, so no part of it lies over the shape (the contour's
        // cells can be narrow, as at the tip of an ear)
        let inside_by = if geo.on_contour {
            -(lay.wall_mm / 2.0 + 0.3)
        } else if head_w <= 0.7 * corridor {
            0.3 * s
        } else {
            -(lay.wall_mm / 2.0 + 0.3)
        };
        Arrows {
            lay,
            geo,
            inside_by,
            out: arrow_out,
            arrow: (head_len, head_w, shaft),
        }
    }

    /// Arrow `i`'s ends when it leaves the opening in the direction `d` (the outward normal, or
    /// turned from it) and reaches `extra` beyond its normal length.
    fn ends(&self, i: usize, d: (f64, f64), extra: f64) -> (Pos, Pos) {
        let (m_units, n) = self.geo.openings[i];
        let m = self.lay.to_page(m_units);
        (m.add(n, -self.inside_by), m.add(d, self.out + extra))
    }

    /// Arrow `i`'s box (as [`Arrows::ends`] puts it): an entrance's points in, the exit's out.
    fn boxed(&self, i: usize, d: (f64, f64), extra: f64) -> Area {
        let (inner, outer) = self.ends(i, d, extra);
        if self.geo.roles[i].entrance() {
            arrow_box(outer, inner, self.arrow)
        } else {
            arrow_box(inner, outer, self.arrow)
        }
    }

    /// Whether the page point `p` is clear of the shape.
    fn clear_at(&self, p: Pos) -> bool {
        let (lay, s) = (self.lay, self.lay.scale);
        let r = lay.wall_mm / 2.0 + 0.3;
        let (x, y) = ((p.x - lay.origin.x) / s, (p.y - lay.origin.y) / s);
        !self
            .geo
            .occ
            .any((x - r / s, y - r / s, x + r / s, y + r / s))
    }
}

/// The label of opening `i` as [`place_markers`] places it.
struct Label {
    /// The opening.
    i: usize,
    /// Its arrow's place among the boxes taken.
    own: usize,
    /// The label box's width and height, millimetres.
    size: (f64, f64),
    /// How far the box keeps off the shape, millimetres.
    pad: f64,
}

impl Label {
    /// Whether the box `bx` is inside the maze area and clear of the shape, of the other boxes
    /// and of its own arrow (`own_box`, as long as it is drawn).
    fn clear(&self, bx: &Area, own_box: &Area, boxes: &Boxes<'_>) -> bool {
        inside(bx, &boxes.lay.maze_area)
            && boxes.off_maze(bx, self.pad)
            && !grown(own_box, OWN_GAP).overlaps(bx)
            && !boxes
                .taken
                .iter()
                .enumerate()
                .any(|(k, (_, t))| k != self.own && grown(t, GAP).overlaps(bx))
    }

    /// The label's box centred `(dx, dy)` from the page point `m`.
    fn boxed_at(&self, m: Pos, (dx, dy): (f64, f64)) -> Area {
        let (w, h) = self.size;
        let c = Pos::new(m.x + dx, m.y + dy);
        Area {
            x: c.x - w / 2.0,
            y: c.y - h / 2.0,
            w,
            h,
        }
    }

    /// The label's box beyond its arrow, or beside it when `beside` ([`label_offset`]).
    fn layout_box(&self, arrows: &Arrows<'_>, beside: bool, flip: bool) -> Area {
        let (m_units, n) = arrows.geo.openings[self.i];
        let m = arrows.lay.to_page(m_units);
        self.boxed_at(
            m,
            label_offset(n, self.size, arrows.lay.markers, beside, flip),
        )
    }

    /// The layout's places for the label, in the order tried: where the layout made room for
    /// it first (beyond the arrow, beside it or tucked in), then the others.
    fn layout_tries(&self, arrows: &Arrows<'_>) -> Vec<Area> {
        let at = |beside: bool, flip: bool| self.layout_box(arrows, beside, flip);
        let straight = at(false, false);
        match arrows.lay.label_spot[self.i] {
            LabelSpot::Beyond => vec![straight, at(true, false), at(true, true)],
            LabelSpot::Beside => vec![at(true, false), at(true, true), straight],
            LabelSpot::Tucked => {
                let (lay, geo) = (arrows.lay, arrows.geo);
                let m = lay.to_page(geo.openings[self.i].0);
                let off = tucked_offset(geo, self.i, self.size, lay.markers, lay.scale, TUCK_PAD);
                let tucked = self.boxed_at(m, off);
                vec![tucked, at(true, false), at(true, true), straight]
            }
        }
    }
}

/// Where `label` goes ([`place_markers`]): its box, the direction its arrow leaves the opening
/// in and how far the arrow grows. The layout's places first (within [`LABEL_REACH_MAX`] of
/// the arrow's end), then round the arrow's end, the arrow growing straight out, then turned;
/// `None` when nothing is clear.
fn place_label(
    boxes: &Boxes<'_>,
    arrows: &Arrows<'_>,
    label: &Label,
) -> Option<(Area, (f64, f64), f64)> {
    let (i, n) = (label.i, arrows.geo.openings[label.i].1);
    let short = arrows.boxed(i, n, 0.0);
    let outer = arrows.ends(i, n, 0.0).1;
    let found = label
        .layout_tries(arrows)
        .into_iter()
        .find(|t| box_distance(t, outer) <= LABEL_REACH_MAX && label.clear(t, &short, boxes))
        .map(|b| (b, n, 0.0));
    if found.is_some() {
        return found;
    }
    TURNS
        .into_iter()
        .find_map(|turn| round_the_end(boxes, arrows, label, turn))
}

/// A clear place for `label` round the end of its arrow turned `turn` degrees from the
/// opening's normal ([`around`]), the arrow growing a millimetre at a time (up to
/// [`MAX_EXTRA`]) as long as it stays clear of the shape, of the other boxes and inside the
/// maze area: the box, the arrow's direction and how far it grew.
fn round_the_end(
    boxes: &Boxes<'_>,
    arrows: &Arrows<'_>,
    label: &Label,
    turn: f64,
) -> Option<(Area, (f64, f64), f64)> {
    let i = label.i;
    let (m_units, n) = arrows.geo.openings[i];
    let m = arrows.lay.to_page(m_units);
    let (w, h) = label.size;
    let arrow_out = arrows.out;
    let (sin, cos) = turn.to_radians().sin_cos();
    let d = (n.0 * cos - n.1 * sin, n.0 * sin + n.1 * cos);
    // a turned arrow must be clear of the shape beyond the opening's own cells
    let clear_from = |t0: f64, t1: f64| {
        let steps = ((t1 - t0) / 0.25).ceil().max(1.0) as u32;
        (0..=steps)
            .all(|k| arrows.clear_at(m.add(d, t0 + (t1 - t0) * f64::from(k) / f64::from(steps))))
    };
    if turn != 0.0 && !clear_from(0.3 * arrow_out, arrow_out) {
        return None;
    }
    let ring = around(d, (w, h));
    let mut extra = 0.0;
    loop {
        let own_box = arrows.boxed(i, d, extra);
        let end = arrows.ends(i, d, extra).1;
        if let Some(b) = ring
            .iter()
            .map(|&(dx, dy)| Area {
                x: end.x + dx,
                y: end.y + dy,
                w,
                h,
            })
            .find(|b| label.clear(b, &own_box, boxes))
        {
            return Some((b, d, extra));
        }
        // grow the arrow by a millimetre, if its new stretch is clear of the shape
        // (a concave outline) and the longer arrow of the rest and the maze area
        let reach = arrow_out + extra;
        if extra >= MAX_EXTRA || !clear_from(reach, reach + 1.0) {
            return None;
        }
        let longer = arrows.boxed(i, d, extra + 1.0);
        let others_clear = boxes
            .taken
            .iter()
            .enumerate()
            .all(|(k, (_, t))| k == label.own || !grown(t, GAP).overlaps(&longer));
        if !inside(&longer, &boxes.lay.maze_area) || !others_clear {
            return None;
        }
        extra += 1.0;
    }
}
