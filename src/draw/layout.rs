//! Fitting a maze onto the page: the [`Layout`] (scale, position, corridor width and its
//! warnings), the text and marker sizes, and the header and footer ("furniture") above and below
//! the maze. The maze-unit [`Geometry`] it fits is `geometry.rs`; the title's fitting to its
//! line ([`fit_lines`]) is `fit_text.rs`.

use super::font::{self, CAP_HEIGHT_EM, font};
use super::model::{Area, Pos};
use crate::error::{Error, Result};
use std::sync::Arc;

use super::picture::Picture;
use crate::page::{MarkerSize, Orientation, PageSetup, Typeface};
use crate::topology::Point;

use super::fit_text::Fitted;
// in their own files now; named from here by the files (pages, painters, mod.rs) that use them
pub use super::fit_text::TITLE_MIN_SHARE;
pub(super) use super::fit_text::{LEADING_EM, fit_lines};
pub(super) use super::geometry::{Geometry, Role, geometry, side_mid};

/// Where the maze sits on the page and how big it came out.
#[derive(Clone, Debug, PartialEq)]
pub struct Layout {
    /// Page width and height in millimetres (bleed included).
    pub page: (f64, f64),
    /// The orientation the page came out in (an [`Orientation::Auto`] setup settled).
    pub orientation: Orientation,
    /// The trimmed page.
    pub trim: Area,
    /// The printable area inside the margins.
    pub printable: Area,
    /// The area left for the maze and its markers, between the header and the footer.
    pub maze_area: Area,
    /// Millimetres per maze unit (one maze unit is about one corridor).
    pub scale: f64,
    /// Where maze point (0, 0) lands on the page.
    pub origin: Pos,
    /// The maze's bounding box on the page.
    pub maze_box: Area,
    /// The wall thickness used, in millimetres (the setup's, thinned for small cells).
    pub wall_mm: f64,
    /// The clear corridor width between walls, in millimetres: the narrowest passage of a whole
    /// cell (a square's width, a hexagon's side, a triangle's height, the narrowest door of a
    /// ring) less the wall, or the inset corridor's width for a maze drawn inset.
    pub corridor_mm: f64,
    /// The narrowest corridor accepted without a warning (from the setup).
    pub min_corridor_mm: f64,
    /// The clear width of the narrowest door the shape's outline cuts, in millimetres (the
    /// open part of the side less the wall; `None` when the outline cuts no door).
    pub door_mm: Option<f64>,
    /// Whether the walls had to be thinner than the setup asked.
    pub walls_thinned: bool,
    /// The widest line that gets from START to every cell, measured on the printed page
    /// ([`super::crayon`]); `None` until the page is drawn, or when its corridors are too
    /// small to measure.
    pub reach: Option<super::Reach>,
    /// The typeface of the page's text (from the setup).
    pub face: Typeface,
    /// How big the START and FINISH markers print (from the setup).
    pub markers: MarkerSize,
    /// Whether START and FINISH are a green dot and a chequered flag rather than words (from
    /// the setup).
    pub symbols: bool,
    /// The pictures that mark START and FINISH (the setup's own, or its theme's).
    pub pictures: Option<Arc<[Picture; 2]>>,
    /// Where each opening's label (the entrances', then FINISH) goes first: beyond its arrow,
    /// beside it, or tucked in beside it (chosen when it gives the maze more room).
    pub label_spot: Vec<LabelSpot>,
    /// What the label placement could not do (a label that had to overlap something), for
    /// [`Layout::warnings`].
    pub notes: Vec<String>,
    /// The page's words in its language (from the setup): START, FINISH, ANSWER KEY.
    pub words: Arc<crate::lang::Words>,
}

impl Layout {
    /// How much of its page the maze covers, in percent: the area of the maze's box (round the
    /// centre lines of its drawn walls, the shape's outline included: [`Layout::maze_box`]) over
    /// the printable area's (the page inside its margins and gutter: [`Layout::printable`]). A
    /// book records it per puzzle (`coverage` in `manifest.json`).
    pub fn coverage(&self) -> f64 {
        let area = |a: &Area| a.w.max(0.0) * a.h.max(0.0);
        100.0 * area(&self.maze_box) / area(&self.printable).max(1e-9)
    }

    /// The page position (millimetres) of a maze point (maze units).
    pub fn to_page(&self, p: Point) -> Pos {
        Pos::new(
            self.origin.x + p.x * self.scale,
            self.origin.y + p.y * self.scale,
        )
    }

    /// The maze point (maze units) under a page position (millimetres).
    pub fn to_maze(&self, p: Pos) -> Point {
        Point::new(
            (p.x - self.origin.x) / self.scale,
            (p.y - self.origin.y) / self.scale,
        )
    }

    /// The narrowest door the outline may cut, in millimetres (the crayon rule): a door of
    /// [`MIN_PASSAGE`](crate::outline::MIN_PASSAGE) of a cell whose corridor is the narrowest
    /// accepted ([`Layout::min_corridor_mm`]), less the wall.
    pub fn min_door_mm(&self) -> f64 {
        (crate::outline::MIN_PASSAGE * (self.min_corridor_mm + self.wall_mm) - self.wall_mm)
            .max(0.0)
    }

    /// The narrowest printed passage accepted on the way from START to any cell, in
    /// millimetres: [`MIN_PASSAGE`](crate::outline::MIN_PASSAGE) of the narrowest corridor
    /// accepted (the crayon rule, on the page: [`Layout::reach`]).
    pub fn min_reach_mm(&self) -> f64 {
        crate::outline::MIN_PASSAGE * self.min_corridor_mm
    }

    /// Warnings for the person printing: corridors narrower than the setup's minimum (3 mm by
    /// default: hard to follow with a pencil) and walls thinned to keep corridors open.
    pub fn warnings(&self) -> Vec<String> {
        let mut w = Vec::new();
        if self.corridor_mm < self.min_corridor_mm - WIDTH_SLACK_MM {
            // (corridor + wall) is the cell less its insets: the share of the cells across
            // that gives the minimum corridor
            let fit = ((self.corridor_mm + self.wall_mm) / (self.min_corridor_mm + self.wall_mm))
                .max(0.0);
            let [have, least] = mm_under(self.corridor_mm, self.min_corridor_mm);
            w.push(format!(
                "corridors are {have} mm wide, under {least} mm: hard to solve with a pencil; use \
                 a larger page or about {:.0}% of the cells across",
                (fit * 100.0).floor().max(1.0)
            ));
        }
        if let Some(door) = self.door_mm
            && door < self.min_door_mm() - WIDTH_SLACK_MM
        {
            let [have, least] = mm_under(door, self.min_door_mm());
            w.push(format!(
                "a door the outline cuts is {have} mm wide, under {least} mm (0.6 of a {:.1} mm \
                 corridor): a crayon cannot pass; use fewer cells or a larger page",
                self.min_corridor_mm
            ));
        }
        if let Some(r) = self.reach
            && r.narrowest_mm < self.min_reach_mm() - WIDTH_SLACK_MM
        {
            let [have, least] = mm_under(r.narrowest_mm, self.min_reach_mm());
            w.push(format!(
                "the way to cell {},{} narrows to {have} mm on the page, under {least} mm (0.6 \
                 of a {:.1} mm corridor): a crayon cannot pass; use fewer cells or a larger page",
                r.cell.row, r.cell.col, self.min_corridor_mm
            ));
        }
        if self.walls_thinned {
            w.push(format!(
                "walls thinned to {:.2} mm so the corridors stay open",
                self.wall_mm
            ));
        }
        w.extend(self.notes.iter().cloned());
        w
    }
}

// ---- sizes (millimetres) ----

pub(super) const PT: f64 = 25.4 / 72.0;
pub(super) const TITLE_SIZE: f64 = 18.0 * PT;
pub(super) const NAME_SIZE: f64 = 11.0 * PT;
pub(super) const FOOTER_SIZE: f64 = 10.0 * PT;
/// The stars of a page's level ([`STARS`]).
pub(super) const STAR_SIZE: f64 = 18.0 * PT;
/// The five stars' width is the same whatever the level: filled ones, then empty ones.
pub(super) const STARS: usize = 5;
/// A theme's instruction line: large enough for a parent to read it out at arm's length.
pub(super) const INSTRUCTION_SIZE: f64 = 16.0 * PT;
pub(super) const LINE_GAP: f64 = 3.0;
/// Gap between an arrow's outer end and its label (the least: see `place.rs`).
pub(super) const LABEL_GAP: f64 = 1.5;
/// The farthest a START or FINISH label's box is from its arrow's outer end, in millimetres:
/// farther, a child does not see which arrow the word belongs to.
pub const LABEL_REACH_MAX: f64 = 4.0;
/// Cells smaller than this (mm) turn the answer line with straight chamfers instead of curves.
pub(super) const CURVE_MIN_SCALE: f64 = 2.5;
/// Half-width, in maze units, of a tunnel and of the corridor over it at a weave crossing.
pub(super) const CROSSING_HALF: f64 = 0.3;

/// The em size of the START and FINISH labels, in millimetres.
pub(super) fn label_em(m: MarkerSize) -> f64 {
    m.label_pt() * PT
}

/// Size of a label's box (width, height from the cap height down to the descenders) in
/// millimetres.
pub(super) fn label_size(text: &str, face: Typeface, m: MarkerSize) -> (f64, f64) {
    (
        font(face, true).width(text, label_em(m)),
        (CAP_HEIGHT_EM + font::DESCENT_EM) * label_em(m),
    )
}

/// The side of the square the START dot and the FINISH flag are drawn in, in millimetres
/// (three quarters of the label's size in points: 12 mm for huge markers).
pub(super) fn symbol_mm(m: MarkerSize) -> f64 {
    0.75 * m.label_pt()
}

/// The longer side of the box a start or finish picture is drawn in, in millimetres: a
/// picture a child knows at a glance (22 mm with huge markers, 16 mm with normal ones).
pub(super) fn picture_mm(m: MarkerSize) -> f64 {
    match m {
        MarkerSize::Normal => 16.0,
        MarkerSize::Large => 19.0,
        MarkerSize::Huge => 22.0,
    }
}

/// What stands for START and FINISH on a page: the words, a dot and a flag, or a theme's
/// pictures (the boxes they fill: [`picture_mm`] on their longer side).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Marks {
    Words,
    Symbols,
    Pictures([(f64, f64); 2]),
}

impl Marks {
    /// The marks of a page with `symbols` and `pictures` (pictures win), at the marker size
    /// `m`.
    pub(super) fn of(symbols: bool, pictures: Option<&[Picture; 2]>, m: MarkerSize) -> Marks {
        match (pictures, symbols) {
            (Some([a, b]), _) => {
                Marks::Pictures([a.fitted(picture_mm(m)), b.fitted(picture_mm(m))])
            }
            (None, true) => Marks::Symbols,
            (None, false) => Marks::Words,
        }
    }
}

/// The size of the label box of a marker that says `role`: the word's ([`label_size`]), the
/// square of its dot or flag ([`symbol_mm`]) or its picture's box; a letter is always its word.
pub(super) fn mark_size(
    role: Role,
    (face, m, marks, words): (Typeface, MarkerSize, Marks, &crate::lang::Words),
) -> (f64, f64) {
    let i = match role {
        Role::Start => 0,
        Role::Finish => 1,
        Role::Letter(_) => return label_size(role.word(words), face, m),
    };
    if let Marks::Pictures(boxes) = marks {
        return boxes[i];
    }
    if marks == Marks::Symbols {
        (symbol_mm(m), symbol_mm(m))
    } else {
        label_size(role.word(words), face, m)
    }
}

/// Distance from an opening to the centre of its label's box along the outward normal `n`,
/// before any nudging away from the shape.
fn label_reach(n: (f64, f64), (w, h): (f64, f64), m: MarkerSize) -> f64 {
    m.arrow_mm() + LABEL_GAP + n.0.abs() * w / 2.0 + n.1.abs() * h / 2.0
}

/// How far a label beside its arrow keeps from the maze's outline, in millimetres.
pub(super) const BESIDE_GAP: f64 = 2.0;

/// Where a START or FINISH label goes first, from its arrow ([`label_offset`], [`tucked_offset`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LabelSpot {
    /// Straight out, beyond the arrow's end (the usual look).
    Beyond,
    /// Alongside the arrow's outer end, [`BESIDE_GAP`] off the outline.
    Beside,
    /// Alongside the arrow, pulled in towards the outline as far as the shape leaves room
    /// (over the hollow beside a heart's lobe, say): on a page too narrow for a label beside a
    /// sideways arrow, the maze keeps the width.
    Tucked,
}

/// The offset from opening `i`'s midpoint to the centre of its label of `size` when
/// [`LabelSpot::Tucked`], at `scale` (mm per maze unit): beside the arrow (on the side that lets
/// it in further), with its outer edge as far in as level with the arrow's end, moved out half
/// a millimetre at a time until the label is `pad` clear of the shape; as [`LabelSpot::Beside`]
/// puts it when nothing nearer is clear.
pub(super) fn tucked_offset(
    geo: &Geometry,
    i: usize,
    size: (f64, f64),
    m: MarkerSize,
    scale: f64,
    pad: f64,
) -> (f64, f64) {
    let (mid, n) = geo.openings[i];
    let half_out = n.0.abs() * size.0 / 2.0 + n.1.abs() * size.1 / 2.0;
    let near = m.arrow_mm() - half_out;
    let scale = scale.max(1e-9);
    // on either side of the arrow: the one that lets the label in further
    let tuck = |flip: bool| {
        let beside = label_offset(n, size, m, true, flip);
        let far = beside.0 * n.0 + beside.1 * n.1;
        let across = (beside.0 - n.0 * far, beside.1 - n.1 * far);
        let clear = |along: f64| {
            let (cx, cy) = (n.0 * along + across.0, n.1 * along + across.1);
            let (hw, hh) = (size.0 / 2.0 + pad, size.1 / 2.0 + pad);
            let (x, y) = (mid.x + cx / scale, mid.y + cy / scale);
            !geo.occ.any((
                x - hw / scale,
                y - hh / scale,
                x + hw / scale,
                y + hh / scale,
            ))
        };
        let mut along = near;
        while along < far && !clear(along) {
            along += 0.5;
        }
        let along = along.min(far);
        (along, (n.0 * along + across.0, n.1 * along + across.1))
    };
    let (a, b) = (tuck(false), tuck(true));
    if b.0 < a.0 { b.1 } else { a.1 }
}

/// How far a tucked label keeps from the shape, in millimetres: more than the placement step
/// asks (half a wall and 0.8 mm), so that the place the layout made room for is taken.
pub(super) const TUCK_PAD: f64 = 1.6;

/// Where a label of `size` (width, cap height) goes, from its opening (outward normal `n`) to
/// its box's centre, in millimetres: straight out beyond the arrow, or when `beside`, alongside
/// the arrow's outer end (at least [`BESIDE_GAP`] off the outline), above a sideways arrow or
/// right of an upright one, or on the other side when `flip`. Beside the arrow a label takes
/// less room outwards: the layout puts it there when that gives the maze more room.
pub(super) fn label_offset(
    n: (f64, f64),
    (w, h): (f64, f64),
    m: MarkerSize,
    beside: bool,
    flip: bool,
) -> (f64, f64) {
    if !beside {
        let r = label_reach(n, (w, h), m);
        return (n.0 * r, n.1 * r);
    }
    let p0 = (-n.1, n.0);
    let first = if n.0.abs() >= n.1.abs() {
        p0.1 <= 0.0
    } else {
        p0.0 >= 0.0
    };
    let p = if first != flip { p0 } else { (-p0.0, -p0.1) };
    // the label's outer edge level with the arrow's end, unless that brings it nearer the
    // outline than BESIDE_GAP: a label level with the arrow's end reads as the arrow's
    let half_out = n.0.abs() * w / 2.0 + n.1.abs() * h / 2.0;
    let along = (BESIDE_GAP + half_out).max(m.arrow_mm() - half_out);
    let across = p.0.abs() * w / 2.0 + p.1.abs() * h / 2.0 + m.head_max_mm() / 2.0 + 1.0;
    (n.0 * along + p.0 * across, n.1 * along + p.1 * across)
}

/// The header (the title, fitted to the line, and the name line) and the footer, their heights
/// and where their baselines go.
pub(super) struct Furniture {
    /// The title as fitted to the printable width, and the baseline of each of its lines.
    pub(super) title: Option<(Fitted, Vec<f64>)>,
    /// The instruction line (a theme's) as fitted, and the baseline of each of its lines.
    pub(super) instruction: Option<(Fitted, Vec<f64>)>,
    /// The baseline and width of the level's stars (right-aligned on the title's first line,
    /// or on a line of their own).
    pub(super) stars: Option<(f64, f64)>,
    pub(super) name_base: Option<f64>,
    pub(super) footer_base: f64,
    pub(super) top: f64,
    pub(super) bottom: f64,
}

/// The level's stars as printed: `filled` filled stars, then empty ones, [`STARS`] in all.
pub(super) fn stars_text(filled: usize) -> String {
    let filled = filled.min(STARS);
    "\u{2605}".repeat(filled) + &"\u{2606}".repeat(STARS - filled)
}

/// The baselines of `fitted`'s lines stacked down from `y`, which moves below them (and the
/// gap to the next line of the header).
fn stack(fitted: &Fitted, y: &mut f64) -> Vec<f64> {
    let size = fitted.size;
    let mut bases = Vec::with_capacity(fitted.lines.len());
    let mut base = *y + CAP_HEIGHT_EM * size;
    for _ in &fitted.lines {
        bases.push(base);
        base += LEADING_EM * size;
    }
    *y = bases.last().copied().unwrap_or(*y) + font::DESCENT_EM * size + LINE_GAP;
    bases
}

pub(super) fn furniture(setup: &PageSetup, printable: &Area) -> Furniture {
    let mut y = printable.y;
    let mut title = None;
    let mut name_base = None;
    let stars_w = font(setup.font, false).width(&stars_text(0), STAR_SIZE);
    // a centred title keeps clear of the stars on both sides
    let title_w = if setup.stars {
        (printable.w - 2.0 * (stars_w + 2.0)).max(printable.w / 3.0)
    } else {
        printable.w
    };
    let mut stars = None;
    if let Some(t) = setup.title.as_deref().filter(|t| !t.trim().is_empty()) {
        let fitted = fit_lines(
            &font::printable(t.trim()),
            setup.font,
            true,
            TITLE_SIZE,
            TITLE_SIZE * TITLE_MIN_SHARE,
            title_w,
        );
        let bases = stack(&fitted, &mut y);
        if setup.stars {
            stars = Some((bases[0], stars_w));
        }
        title = Some((fitted, bases));
    }
    if setup.stars && stars.is_none() {
        let base = y + CAP_HEIGHT_EM * STAR_SIZE;
        stars = Some((base, stars_w));
        y = base + font::DESCENT_EM * STAR_SIZE + LINE_GAP;
    }
    let mut instruction = None;
    if let Some(t) = setup.instruction_line() {
        let fitted = fit_lines(
            &font::printable(t.trim()),
            setup.font,
            false,
            INSTRUCTION_SIZE,
            INSTRUCTION_SIZE * TITLE_MIN_SHARE,
            printable.w,
        );
        let bases = stack(&fitted, &mut y);
        instruction = Some((fitted, bases));
    }
    if setup.name_line {
        let base = y + CAP_HEIGHT_EM * NAME_SIZE;
        name_base = Some(base);
        y = base + font::DESCENT_EM * NAME_SIZE + LINE_GAP;
    }
    let footer_base = printable.y + printable.h - font::DESCENT_EM * FOOTER_SIZE;
    let bottom = footer_base - CAP_HEIGHT_EM * FOOTER_SIZE - LINE_GAP;
    Furniture {
        title,
        instruction,
        stars,
        name_base,
        footer_base,
        top: y,
        bottom,
    }
}

pub(super) fn printable_area(setup: &PageSetup) -> Area {
    let (tw, th) = setup.trim_mm();
    let (bx, by) = setup.trim_origin_mm();
    let [left, top, right, bottom] = setup.margins_mm();
    Area {
        x: bx + left,
        y: by + top,
        w: tw - left - right,
        h: th - top - bottom,
    }
}

/// The part of the printable area `pa` between the header (title, name line) and the footer
/// (page number): where the maze, or an answer page's keys, go.
pub(super) fn content_area(setup: &PageSetup, pa: &Area) -> Area {
    let furn = furniture(setup, pa);
    Area {
        x: pa.x,
        y: furn.top,
        w: pa.w,
        h: furn.bottom - furn.top,
    }
}

/// The maze's and its markers' extent across one axis at `scale`, in millimetres from maze
/// point 0: (low, high). The markers are the arrows and the START and FINISH labels where they go
/// first (straight out of each opening, or beside the arrow where `beside` says; the placement
/// step moves a label only when the shape is in its way).
fn extent(
    geo: &Geometry,
    looks: (Typeface, MarkerSize, Marks, &crate::lang::Words),
    scale: f64,
    axis: usize,
    spots: &[LabelSpot],
) -> (f64, f64) {
    let pick = |b: (f64, f64, f64, f64)| if axis == 0 { (b.0, b.2) } else { (b.1, b.3) };
    let (lo, hi) = pick(geo.bbox);
    let (mut lo, mut hi) = (lo * scale, hi * scale);
    for (i, &(m, n)) in geo.openings.iter().enumerate() {
        let size = mark_size(geo.roles[i], looks);
        let marks = looks.1;
        let off = match spots[i] {
            LabelSpot::Tucked => tucked_offset(geo, i, size, marks, scale, TUCK_PAD),
            spot => label_offset(n, size, marks, spot == LabelSpot::Beside, false),
        };
        let (out, head) = (marks.arrow_mm(), marks.head_max_mm());
        let (c, half, arrow_end) = if axis == 0 {
            (m.x * scale + off.0, size.0 / 2.0, m.x * scale + n.0 * out)
        } else {
            (m.y * scale + off.1, size.1 / 2.0, m.y * scale + n.1 * out)
        };
        lo = lo.min(c - half).min(arrow_end - head / 2.0);
        hi = hi.max(c + half).max(arrow_end + head / 2.0);
    }
    (lo, hi)
}

/// Fits the maze (`geo`) onto the page of `setup`, whose orientation is settled: the largest
/// scale at which the maze and its markers fit the content area, times `shrink` (1, or less
/// when the placement step needs more room round the maze), the maze centred in it (moved off
/// the centre only as far as its markers need).
fn fit(setup: &PageSetup, geo: &Geometry, shrink: f64) -> Result<Layout> {
    let pictures = super::picture::page_pictures(setup);
    let words = setup.shared_words();
    let (tw, th) = setup.trim_mm();
    let (bx, by) = setup.trim_origin_mm();
    let printable = printable_area(setup);
    let maze_area = content_area(setup, &printable);
    // the walls' centre lines fit half a wall inside the area, so their ink stays inside it
    let half_wall = (setup.wall_mm / 2.0).max(0.0);
    let fitting = Fitting {
        geo,
        // what the markers look like, for their room on the page: read once, not per scale
        // tried
        looks: (
            setup.font,
            setup.markers,
            Marks::of(setup.symbols, pictures.as_deref(), setup.markers),
            &words,
        ),
        room: Area {
            x: maze_area.x + half_wall,
            y: maze_area.y + half_wall,
            w: (maze_area.w - 2.0 * half_wall).max(0.0),
            h: (maze_area.h - 2.0 * half_wall).max(0.0),
        },
        size: (
            (geo.bbox.2 - geo.bbox.0).max(1e-9),
            (geo.bbox.3 - geo.bbox.1).max(1e-9),
        ),
    };
    let (bw, bh) = fitting.size;
    let (mut scale, spots) = fitting.best();
    scale *= shrink;
    let maze_w = bw * scale;
    let maze_h = bh * scale;
    if maze_w.max(maze_h) < 10.0 || maze_w.min(maze_h) < 1.0 {
        return Err(Error::option(format!(
            "the page leaves no room for the maze ({:.0} x {:.0} mm after the title, labels and margins); use a larger page or smaller margins",
            maze_w.max(0.0),
            maze_h.max(0.0)
        )));
    }
    // centre the maze, then move it in as far as its markers need to stay on the area
    let left = fitting.place(scale, &spots, 0, maze_w);
    let top = fitting.place(scale, &spots, 1, maze_h);
    let origin = Pos::new(left - geo.bbox.0 * scale, top - geo.bbox.1 * scale);
    let max_wall = 0.3 * scale;
    let walls_thinned = setup.wall_mm > max_wall;
    let wall_mm = setup.wall_mm.min(max_wall);
    Ok(Layout {
        page: setup.page_mm(),
        orientation: setup.orientation,
        trim: Area {
            x: bx,
            y: by,
            w: tw,
            h: th,
        },
        printable,
        maze_area,
        scale,
        origin,
        maze_box: Area {
            x: left,
            y: top,
            w: maze_w,
            h: maze_h,
        },
        wall_mm,
        corridor_mm: if geo.inset > 0.0 {
            scale * (1.0 - 2.0 * geo.inset) * geo.side - wall_mm
        } else {
            scale * geo.passage - wall_mm
        },
        min_corridor_mm: setup.min_corridor_mm,
        door_mm: geo.cut_door.map(|d| d * scale - wall_mm),
        walls_thinned,
        reach: None,
        face: setup.font,
        markers: setup.markers,
        symbols: setup.symbols,
        pictures,
        label_spot: spots,
        notes: Vec::new(),
        words,
    })
}

/// A maze being fitted onto a page ([`fit`]): its geometry, how its markers look, the room it
/// and its markers have on the page, and its width and height in maze units.
struct Fitting<'a> {
    geo: &'a Geometry,
    looks: (Typeface, MarkerSize, Marks, &'a crate::lang::Words),
    room: Area,
    size: (f64, f64),
}

impl Fitting<'_> {
    /// The largest scale at which the maze and its markers fit the room with each label where
    /// `spots` says (beyond, beside or tucked beside its arrow): the spans grow with the scale.
    fn largest(&self, spots: &[LabelSpot]) -> f64 {
        let (geo, looks, room) = (self.geo, self.looks, &self.room);
        let (bw, bh) = self.size;
        let span = |s: f64, axis: usize| {
            let (lo, hi) = extent(geo, looks, s, axis, spots);
            hi - lo
        };
        let fits = |s: f64| span(s, 0) <= room.w && span(s, 1) <= room.h;
        let (mut lo, mut hi) = (0.0f64, (room.w / bw).min(room.h / bh).max(0.0));
        if fits(hi) {
            return hi;
        }
        for _ in 0..60 {
            let mid = (lo + hi) / 2.0;
            if fits(mid) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        lo
    }

    /// The largest scale the maze fits at and where its labels go for it: every label beyond
    /// its arrow (the usual look) unless another spot gives the maze more room; tried after it,
    /// one label beside its arrow, each in turn; then all; then the same tucked in.
    fn best(&self) -> (f64, Vec<LabelSpot>) {
        let (room, (bw, bh)) = (&self.room, self.size);
        let k = self.geo.openings.len();
        let mut spots = vec![LabelSpot::Beyond; k];
        let mut scale = self.largest(&spots);
        let options = [LabelSpot::Beside, LabelSpot::Tucked]
            .into_iter()
            .flat_map(|spot| {
                (0..k)
                    .map(move |j| {
                        (0..k)
                            .map(|i| if i == j { spot } else { LabelSpot::Beyond })
                            .collect::<Vec<_>>()
                    })
                    .chain([vec![spot; k]])
            });
        // no spot can do better than the maze with no markers at all: once a spot reaches that,
        // the rest (tucked ones search the shape at each scale tried) are not tried
        let free = (room.w / bw).min(room.h / bh).max(0.0);
        for option in options {
            if scale >= free {
                break;
            }
            let s = self.largest(&option);
            if s > scale * (1.0 + 1e-6) {
                (scale, spots) = (s, option);
            }
        }
        (scale, spots)
    }

    /// Where the maze's low edge goes across `axis` at `scale` (the maze `size` mm across it,
    /// its labels at `spots`): centred in the room, then moved in as far as its markers need
    /// to stay in it.
    fn place(&self, scale: f64, spots: &[LabelSpot], axis: usize, size: f64) -> f64 {
        let (start, room, low) = if axis == 0 {
            (self.room.x, self.room.w, self.geo.bbox.0)
        } else {
            (self.room.y, self.room.h, self.geo.bbox.1)
        };
        let (elo, ehi) = extent(self.geo, self.looks, scale, axis, spots);
        let mut at = start + (room - size) / 2.0; // the maze's low edge
        let (from, to) = (at - low * scale + elo, at - low * scale + ehi);
        if from < start {
            at += start - from;
        } else if to > start + room {
            at -= to - (start + room);
        }
        at
    }
}

/// [`fit`], with an [`Orientation::Auto`] page settled: turned to landscape when the maze gets
/// wider corridors that way, portrait otherwise.
pub(super) fn layout_with(setup: &PageSetup, geo: &Geometry, shrink: f64) -> Result<Layout> {
    setup.validate()?;
    if setup.turned {
        // a turned page's sheet is the book's way up: an unsettled one, portrait
        return fit(&setup.oriented(Orientation::Portrait), geo, shrink);
    }
    if setup.orientation != Orientation::Auto {
        return fit(setup, geo, shrink);
    }
    let portrait = fit(&setup.oriented(Orientation::Portrait), geo, shrink);
    let landscape = fit(&setup.oriented(Orientation::Landscape), geo, shrink);
    match (portrait, landscape) {
        (Ok(p), Ok(l)) => Ok(if l.scale > p.scale * (1.0 + 1e-6) {
            l
        } else {
            p
        }),
        (Ok(p), Err(_)) => Ok(p),
        (Err(_), Ok(l)) => Ok(l),
        (Err(e), Err(_)) => Err(e),
    }
}

/// The unit vector along (`x`, `y`), or zero for a zero vector.
pub(super) fn unit(x: f64, y: f64) -> (f64, f64) {
    let l = x.hypot(y);
    if l < 1e-15 {
        (0.0, 0.0)
    } else {
        (x / l, y / l)
    }
}

/// How far under its least a corridor or a door may be and still pass, in millimetres: the
/// warnings and the preflight state widths to 0.01 mm, and no printer draws finer.
pub const WIDTH_SLACK_MM: f64 = 0.005;

/// A width in mm and the least it should be, printed so that they read apart: to 0.1 mm, or to
/// 0.01 mm when both round to the same tenth ("1.58 mm, under 1.60 mm", never "1.6 mm, under
/// 1.6 mm").
pub fn mm_under(have: f64, least: f64) -> [String; 2] {
    let tenths = [format!("{have:.1}"), format!("{least:.1}")];
    if tenths[0] != tenths[1] {
        return tenths;
    }
    [format!("{have:.2}"), format!("{least:.2}")]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::draw::geometry::{FINISH, START};
    use crate::draw::layout;
    use crate::draw::tests::maze;

    #[test]
    fn a_width_under_its_least_never_reads_as_equal() {
        assert_eq!(mm_under(1.2, 1.8), ["1.2", "1.8"]);
        assert_eq!(mm_under(1.58, 1.6), ["1.58", "1.60"]);
        assert_eq!(mm_under(2.96, 3.0), ["2.96", "3.00"]);
    }

    #[test]
    fn the_maze_is_centred_and_fits() {
        let g = maze(30, 20, 1);
        let s = PageSetup::default();
        let l = layout(&g, &s).unwrap();
        let mb = l.maze_box;
        let ma = l.maze_area;
        assert!(mb.x >= ma.x - 1e-9 && mb.x + mb.w <= ma.x + ma.w + 1e-9);
        assert!(mb.y >= ma.y - 1e-9 && mb.y + mb.h <= ma.y + ma.h + 1e-9);
        // centred, or moved off the centre only as far as a label beside it needs
        let (cx, cy) = (mb.x + mb.w / 2.0, mb.y + mb.h / 2.0);
        let wide = label_size(FINISH, l.face, l.markers)
            .0
            .max(label_size(START, l.face, l.markers).0);
        let most = l.markers.arrow_mm() + LABEL_GAP + wide;
        assert!((cx - (ma.x + ma.w / 2.0)).abs() < most / 2.0);
        assert!((cy - (ma.y + ma.h / 2.0)).abs() < most / 2.0);
        // and it fills the area across or down, but for its labels
        let fills = |got: f64, room: f64| got >= room - 2.0 * most - 1e-6;
        assert!(fills(mb.w, ma.w) || fills(mb.h, ma.h), "{mb:?} in {ma:?}");
        assert!(l.warnings().is_empty(), "{:?}", l.warnings());
    }

    #[test]
    fn narrow_corridors_warn() {
        let g = maze(150, 150, 1);
        let l = layout(&g, &PageSetup::default()).unwrap();
        let w = l.warnings();
        assert!(w.iter().any(|m| m.contains("under 3.0 mm")), "{w:?}");
    }

    #[test]
    fn gutter_moves_with_the_page() {
        let g = maze(10, 10, 2);
        let s = PageSetup {
            gutter_mm: 20.0,
            page_number: Some(1),
            ..PageSetup::default()
        };
        let odd = layout(&g, &s).unwrap();
        let even = layout(&g, &s.next_page()).unwrap();
        assert!(odd.printable.x > even.printable.x + 19.0);
    }
}
