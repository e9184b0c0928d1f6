//! A paperback's cover: one full-wrap page (back, spine, front, left to right) with a 0.125 in
//! bleed on every edge, as KDP takes it. [`Wrap`] is its geometry (the panels, their safe
//! areas, the spine's, the barcode area); [`cover`] draws it: a coloured ground over the whole
//! wrap, on the front the title, subtitle and author around a grid of cards, each holding one
//! of the book's own mazes (its walls, coloured), on the back the title, the back text
//! (wrapped) and a row of smaller cards, and on the spine (from [`SPINE_TEXT_MIN_PAGES`] pages,
//! when it can be set at [`SPINE_TEXT_MIN_PT`] or more) the title and author turned to read
//! from the top down. A book may give its own colours, artwork in place of the front's cards, a
//! badge and a logo ([`super::cover_art`]). Nothing is drawn in the barcode area
//! but the ground, and every text keeps to its panel's safe area (the spine's: 0.0625 in from
//! its folds).

use super::cover_art::{self, Palette, rounded};
use super::fit_text::{LEADING_EM, TITLE_MIN_SHARE, fit_lines};
use super::front::Paragraphs;
use super::layout::PT;
use super::picture::Art;
use super::*;
use crate::page::{BLEED_MM, MM_PER_INCH, Typeface};

/// The fewest interior pages whose spine carries text (KDP: thinner spines cannot hold it).
pub const SPINE_TEXT_MIN_PAGES: usize = 79;
/// The smallest spine text printed, in points: a spine whose width less 0.0625 in at each fold
/// ([`SPINE_MARGIN_MM`]) cannot hold letters this big carries none ([`Wrap::spine_text_size`]).
/// From 6 pt, 0.2019 in of spine: 90 pages on white paper, 81 on cream, 87 in colour.
pub const SPINE_TEXT_MIN_PT: f64 = 6.0;
/// How far the spine's text keeps from the spine's folds, in millimetres (0.0625 in).
pub const SPINE_MARGIN_MM: f64 = 0.0625 * MM_PER_INCH;
/// The safe margin inside each panel's trim, in millimetres (0.25 in).
pub const COVER_SAFE_MM: f64 = 0.25 * MM_PER_INCH;
/// The barcode area's width and height on the back cover, in millimetres (2 x 1.2 in).
pub const BARCODE_MM: (f64, f64) = (2.0 * MM_PER_INCH, 1.2 * MM_PER_INCH);

/// The most mazes on the front cover, and on the back.
pub const FRONT_CARDS: usize = 6;
/// The most mazes on the back cover.
pub const BACK_CARDS: usize = 3;

/// The walls' colour of the `k`-th card.
fn wall_ink(k: usize) -> Rgb {
    WALL_INKS[k % WALL_INKS.len()]
}

/// The cards' paper.
const CARD: Rgb = Rgb(255, 253, 246);
/// The walls of the cards' mazes, card by card.
const WALL_INKS: [Rgb; 6] = [
    Rgb(28, 60, 120),
    Rgb(150, 40, 60),
    Rgb(30, 100, 70),
    Rgb(120, 50, 140),
    Rgb(190, 80, 20),
    Rgb(20, 110, 130),
];

const TITLE_SIZE: f64 = 56.0 * PT;
const SUBTITLE_SIZE: f64 = 24.0 * PT;
const AUTHOR_SIZE: f64 = 20.0 * PT;
const BACK_TITLE_SIZE: f64 = 24.0 * PT;
const BACK_TEXT_SIZE: f64 = 14.0 * PT;
/// The spine's text at its largest (a thick book's).
const SPINE_SIZE: f64 = 14.0 * PT;

/// A full-wrap cover's geometry, in millimetres, origin at the top-left corner of the bleed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Wrap {
    /// One panel's trimmed width (the book's trim width).
    pub trim_w: f64,
    /// The trimmed height.
    pub trim_h: f64,
    /// The spine's width.
    pub spine: f64,
}

impl Wrap {
    /// The whole page, bleed included: bleed + back + spine + front + bleed wide, bleed +
    /// trim height + bleed high.
    pub fn size(&self) -> (f64, f64) {
        (
            2.0 * BLEED_MM + 2.0 * self.trim_w + self.spine,
            2.0 * BLEED_MM + self.trim_h,
        )
    }

    /// The trimmed wrap (back, spine and front).
    pub fn trim(&self) -> Area {
        Area {
            x: BLEED_MM,
            y: BLEED_MM,
            w: 2.0 * self.trim_w + self.spine,
            h: self.trim_h,
        }
    }

    fn panel(&self, x: f64, w: f64) -> Area {
        Area {
            x,
            y: BLEED_MM,
            w,
            h: self.trim_h,
        }
    }

    /// The back cover (on the left).
    pub fn back(&self) -> Area {
        self.panel(BLEED_MM, self.trim_w)
    }

    /// The spine.
    pub fn spine_area(&self) -> Area {
        self.panel(BLEED_MM + self.trim_w, self.spine)
    }

    /// The front cover (on the right).
    pub fn front(&self) -> Area {
        self.panel(BLEED_MM + self.trim_w + self.spine, self.trim_w)
    }

    /// A cover's safe area: `panel` less 0.25 in on every side.
    pub fn safe(panel: &Area) -> Area {
        inset(panel, COVER_SAFE_MM, COVER_SAFE_MM)
    }

    /// Where the spine's text may go: 0.0625 in from the folds, 0.25 in from the trim.
    pub fn spine_safe(&self) -> Area {
        inset(&self.spine_area(), SPINE_MARGIN_MM, COVER_SAFE_MM)
    }

    /// The size of the spine's text, in millimetres: its letters (cap height and descent)
    /// fill the spine less 0.0625 in at each fold, at most 14 pt; `None` when that is under
    /// [`SPINE_TEXT_MIN_PT`] (the spine then carries no text).
    pub fn spine_text_size(&self) -> Option<f64> {
        let size = (self.spine_safe().w / (font::CAP_HEIGHT_EM + font::DESCENT_EM)).min(SPINE_SIZE);
        (size + 1e-9 >= SPINE_TEXT_MIN_PT * PT).then_some(size)
    }

    /// Whether the spine of a book of `pages` interior pages carries its title and author:
    /// from [`SPINE_TEXT_MIN_PAGES`] pages, and only when the text can be set at
    /// [`SPINE_TEXT_MIN_PT`] or more ([`Wrap::spine_text_size`]).
    pub fn spine_holds_text(&self, pages: usize) -> bool {
        pages >= SPINE_TEXT_MIN_PAGES && self.spine_text_size().is_some()
    }

    /// The barcode area: 2 x 1.2 in in the back cover's lower right corner, 0.25 in from the
    /// spine fold and the bottom trim.
    pub fn barcode(&self) -> Area {
        let b = self.back();
        let (w, h) = BARCODE_MM;
        Area {
            x: b.x + b.w - COVER_SAFE_MM - w,
            y: b.y + b.h - COVER_SAFE_MM - h,
            w,
            h,
        }
    }
}

fn inset(a: &Area, dx: f64, dy: f64) -> Area {
    Area {
        x: a.x + dx,
        y: a.y + dy,
        w: (a.w - 2.0 * dx).max(0.0),
        h: (a.h - 2.0 * dy).max(0.0),
    }
}

/// What a cover shows.
#[derive(Clone, Debug)]
pub struct Cover<'a> {
    /// The geometry.
    pub wrap: Wrap,
    /// The title (front, back and spine).
    pub title: &'a str,
    /// The line under the title on the front.
    pub subtitle: Option<&'a str>,
    /// The author (front and spine).
    pub author: Option<&'a str>,
    /// The back cover's text, wrapped (paragraphs split by a blank line).
    pub back_text: Option<&'a str>,
    /// The typeface.
    pub font: Typeface,
    /// Whether the spine carries the title and author ([`Wrap::spine_holds_text`]; a spine
    /// too thin for [`SPINE_TEXT_MIN_PT`] carries none even so).
    pub spine_text: bool,
    /// The front's mazes: puzzle pages, whose walls go on the cards (at most
    /// [`FRONT_CARDS`]).
    pub front_art: Vec<&'a Drawing>,
    /// The back's mazes (at most [`BACK_CARDS`]).
    pub back_art: Vec<&'a Drawing>,
    /// The ground's and the texts' colours.
    pub palette: Palette,
    /// The book's own artwork, on the front in place of the cards.
    pub front_picture: Option<&'a Art>,
    /// A short text in a round badge on the front ("Ages 4-8"), and again on the lower back.
    pub badge: Option<&'a str>,
    /// A logo on the lower back, left of the barcode area.
    pub logo: Option<&'a Art>,
}

pub(super) fn text(
    t: String,
    at: Pos,
    size: f64,
    anchor: Anchor,
    bold: bool,
    face: Typeface,
    c: Rgb,
) -> Item {
    Item {
        layer: Layer::Text,
        shape: Shape::Text(Text {
            text: t,
            at,
            size,
            anchor,
            bold,
            face,
            color: c,
            rotated: crate::draw::Rotation::Across,
        }),
    }
}

fn rect(a: &Area) -> Path {
    Path::polygon(&[
        Pos::new(a.x, a.y),
        Pos::new(a.x + a.w, a.y),
        Pos::new(a.x + a.w, a.y + a.h),
        Pos::new(a.x, a.y + a.h),
    ])
}

/// `body` wrapped to `w` millimetres at `size`, paragraph by paragraph (split by a blank
/// line), its paragraphs set as `paras`: `None` for the gap between two set apart.
fn paragraphs(
    body: &str,
    face: Typeface,
    size: f64,
    w: f64,
    paras: Paragraphs,
) -> Vec<Option<String>> {
    let mut out = Vec::new();
    for p in paras.split(body) {
        if !out.is_empty() && paras == Paragraphs::Apart {
            out.push(None);
        }
        out.extend(
            fit_lines(&printable(&p), face, false, size, size, w)
                .lines
                .into_iter()
                .map(Some),
        );
    }
    out
}

/// Lines of `t` fitted to `w` (shrunk to [`TITLE_MIN_SHARE`], then wrapped), centred on `cx`,
/// the first baseline at `*y`; `*y` ends on the last baseline.
#[allow(clippy::too_many_arguments)]
fn block(
    t: &str,
    cx: f64,
    y: &mut f64,
    size: f64,
    bold: bool,
    face: Typeface,
    w: f64,
    ink: Rgb,
    items: &mut Vec<Item>,
) {
    let fitted = fit_lines(
        &printable(t.trim()),
        face,
        bold,
        size,
        size * TITLE_MIN_SHARE,
        w,
    );
    for (i, line) in fitted.lines.into_iter().enumerate() {
        if i > 0 {
            *y += LEADING_EM * fitted.size;
        }
        items.push(text(
            line,
            Pos::new(cx, *y),
            fitted.size,
            Anchor::Middle,
            bold,
            face,
            ink,
        ));
    }
}

/// The height [`block`] takes from its first baseline to its last.
fn block_height(t: &str, size: f64, bold: bool, face: Typeface, w: f64) -> (f64, f64) {
    let f = fit_lines(
        &printable(t.trim()),
        face,
        bold,
        size,
        size * TITLE_MIN_SHARE,
        w,
    );
    ((f.lines.len() as f64 - 1.0) * LEADING_EM * f.size, f.size)
}

/// The box of a maze's walls and crossings on its page: left, top, right, bottom.
fn art_box(items: &[&Item]) -> Option<[f64; 4]> {
    let mut b: Option<[f64; 4]> = None;
    for it in items {
        let (Shape::Stroke { path, .. } | Shape::Fill { path, .. }) = &it.shape else {
            continue;
        };
        for s in path.segs() {
            let p = match s {
                Seg::MoveTo(a) | Seg::LineTo(a) | Seg::CubicTo(_, _, a) => a,
                Seg::Close => continue,
            };
            b = Some(match b {
                None => [p.x, p.y, p.x, p.y],
                Some(o) => [o[0].min(p.x), o[1].min(p.y), o[2].max(p.x), o[3].max(p.y)],
            });
        }
    }
    b
}

/// A card: a rounded, shadowed square `slot` holding the walls of `page`'s maze in `ink`,
/// scaled to fill it less a margin.
fn card(page: &Drawing, slot: &Area, ink: Rgb, shadow: Rgb, items: &mut Vec<Item>) {
    let r = slot.w.min(slot.h) * 0.06;
    let drop = slot.w.min(slot.h) * 0.025;
    items.push(Item {
        layer: Layer::Walls,
        shape: Shape::Fill {
            path: rounded(
                &Area {
                    x: slot.x + drop,
                    y: slot.y + drop,
                    ..*slot
                },
                r,
            ),
            color: shadow,
        },
    });
    items.push(Item {
        layer: Layer::Walls,
        shape: Shape::Fill {
            path: rounded(slot, r),
            color: CARD,
        },
    });
    let maze: Vec<&Item> = page
        .items
        .iter()
        .filter(|i| matches!(i.layer, Layer::Walls | Layer::Crossings | Layer::Picture))
        .collect();
    let Some([x0, y0, x1, y1]) = art_box(&maze) else {
        return;
    };
    let room = inset(slot, slot.w * 0.09, slot.h * 0.09);
    let (w, h) = ((x1 - x0).max(1e-6), (y1 - y0).max(1e-6));
    let s = (room.w / w).min(room.h / h);
    let dx = room.x + (room.w - w * s) / 2.0 - x0 * s;
    let dy = room.y + (room.h - h * s) / 2.0 - y0 * s;
    for it in maze {
        let mut t = it.transformed(s, dx, dy);
        match &mut t.shape {
            Shape::Stroke { width, color, .. } => {
                // a wall drawn small stays a line that prints
                *width = width.max(0.3);
                if *color != Rgb::WHITE {
                    *color = ink;
                }
            }
            Shape::Fill { color, .. } => {
                *color = if *color == Rgb::WHITE { CARD } else { ink };
            }
            _ => {}
        }
        items.push(t);
    }
}

/// `n` cards as large as fit in `area` with `gap` between, in the grid that makes them
/// largest, centred: square, or up to a quarter taller than wide where there is room.
fn grid(area: &Area, n: usize, gap: f64) -> Vec<Area> {
    if n == 0 {
        return Vec::new();
    }
    let (cols, rows, side) = (1..=n)
        .map(|cols| {
            let rows = n.div_ceil(cols);
            let side = ((area.w - (cols - 1) as f64 * gap) / cols as f64)
                .min((area.h - (rows - 1) as f64 * gap) / rows as f64);
            (cols, rows, side)
        })
        .max_by(|a, b| a.2.total_cmp(&b.2))
        .expect("n > 0");
    let side = side.max(0.0);
    // a card up to a quarter taller than wide where the height allows (the page is taller
    // than it is wide; so are most shapes)
    let tall = ((area.h - (rows - 1) as f64 * gap) / rows as f64).clamp(side, side * 1.25);
    let height = rows as f64 * tall + (rows - 1) as f64 * gap;
    let mut out = Vec::with_capacity(n);
    for r in 0..rows {
        // the last row's cards centred under the others
        let in_row = (n - r * cols).min(cols);
        let width = in_row as f64 * side + (in_row - 1) as f64 * gap;
        let x = area.x + (area.w - width) / 2.0;
        let y = area.y + (area.h - height) / 2.0 + r as f64 * (tall + gap);
        for c in 0..in_row {
            out.push(Area {
                x: x + c as f64 * (side + gap),
                y,
                w: side,
                h: tall,
            });
        }
    }
    out
}

/// The spine's title and author, turned to read from the top down, centred across the spine
/// and sized to fit between its margins.
fn spine(c: &Cover<'_>, items: &mut Vec<Item>) {
    let safe = c.wrap.spine_safe();
    let cap = font::CAP_HEIGHT_EM;
    let descent = font::DESCENT_EM;
    // the letters (cap height and descent) fill at most the spine's safe width, and are 6 pt
    // or more
    let Some(size) = c.wrap.spine_text_size() else {
        return;
    };
    // the baseline: the letters' box centred across the spine (their tops point right)
    let x = safe.x + safe.w / 2.0 - (cap - descent) / 2.0 * size;
    let f = |bold: bool| font(c.font, bold);
    let gap = 4.0 * size;
    let author = c.author.map(|a| printable(a.trim())).unwrap_or_default();
    let author_w = if author.is_empty() {
        0.0
    } else {
        f(false).width(&author, size)
    };
    // the title from the top, the author at the foot; the title shortened to leave room
    let room = safe.h - if author_w > 0.0 { author_w + gap } else { 0.0 };
    let mut title = printable(c.title.trim());
    while title.chars().count() > 1 && f(true).width(&title, size) > room {
        title.pop();
    }
    let turned = |t: String, y: f64, anchor: Anchor, bold: bool| Item {
        layer: Layer::Text,
        shape: Shape::Text(Text {
            text: t,
            at: Pos::new(x, y),
            size,
            anchor,
            bold,
            face: c.font,
            color: c.palette.text,
            rotated: crate::draw::Rotation::Down,
        }),
    };
    if !title.is_empty() && room > 0.0 {
        items.push(turned(title, safe.y, Anchor::Start, true));
    }
    if author_w > 0.0 && author_w <= safe.h {
        items.push(turned(author, safe.y + safe.h, Anchor::End, false));
    }
}

/// The full-wrap cover of `c` (see the module's notes): its page is the wrap with bleed, its
/// trim the wrap without.
pub fn cover(c: &Cover<'_>) -> Result<Drawing> {
    let (w, h) = c.wrap.size();
    if !(w.is_finite() && h.is_finite() && c.wrap.trim_w > 2.0 * COVER_SAFE_MM)
        || c.wrap.trim_h <= 2.0 * COVER_SAFE_MM
        || c.wrap.spine < 0.0
    {
        return Err(crate::error::Error::option(
            "the cover's trim is too small for its safe area",
        ));
    }
    let mut items = vec![Item {
        layer: Layer::Page,
        shape: Shape::Fill {
            path: rect(&Area {
                x: 0.0,
                y: 0.0,
                w,
                h,
            }),
            color: c.palette.ground,
        },
    }];
    front_side(c, &mut items)?;
    back_side(c, &mut items)?;
    cover_art::lower_back(
        &Wrap::safe(&c.wrap.back()),
        &c.wrap.barcode(),
        c.logo,
        c.badge,
        &c.palette,
        c.font,
        &mut items,
    );
    if c.spine_text {
        spine(c, &mut items);
    }
    Ok(Drawing {
        width: w,
        height: h,
        trim: c.wrap.trim(),
        items,
    })
}

/// How small the front cover's title, subtitle and author may be set, as a share of their
/// sizes, to leave one another room: past it the cover is refused.
const FRONT_MIN_SCALE: f64 = 0.4;

/// The smallest the back cover's text is set, before a text too long for it is refused.
pub const BACK_TEXT_MIN_SIZE: f64 = 8.0 * PT;

/// The field of the book file that gives a cover's text, for an error.
fn field_of(what: &str) -> &'static str {
    match what {
        "subtitle" => "book.subtitle",
        "author" => "book.author",
        "back_text" => "book.cover.back_text",
        _ => "book.title",
    }
}

/// The cover's front: the title and subtitle at the top, the author at the foot, the cards
/// between. Texts that would meet are set smaller together (to [`FRONT_MIN_SCALE`] of their
/// sizes); an error names the longest when even that is not enough.
fn front_side(c: &Cover<'_>, items: &mut Vec<Item>) -> Result<()> {
    let safe = Wrap::safe(&c.wrap.front());
    let mut k = 0;
    loop {
        let scale = 1.0 - 0.1 * f64::from(k);
        let mut texts = Vec::new();
        match front_texts(c, &safe, scale, &mut texts) {
            Some(art) => {
                items.extend(texts);
                if let Some(picture) = c.front_picture {
                    // the book's own artwork in place of the cards
                    super::picture::draw_art(picture, &art, Layer::Picture, items);
                } else {
                    let n = c.front_art.len().min(FRONT_CARDS);
                    let gap = safe.w * 0.045;
                    for (k, (slot, page)) in grid(&art, n, gap).iter().zip(&c.front_art).enumerate()
                    {
                        if slot.w > 10.0 {
                            card(page, slot, wall_ink(k), c.palette.shadow(), items);
                        }
                    }
                }
                if let Some(badge) = c.badge {
                    cover_art::front_badge(badge, &c.palette, c.font, &safe, &art, items);
                }
                return Ok(());
            }
            None if scale > FRONT_MIN_SCALE + 1e-9 => k += 1,
            None => {
                let face = c.font;
                let lines = |t: Option<&str>, size: f64, bold: bool| {
                    t.map_or(0, |t| {
                        let size = size * FRONT_MIN_SCALE;
                        let fitted = fit_lines(
                            &printable(t.trim()),
                            face,
                            bold,
                            size,
                            size * TITLE_MIN_SHARE,
                            safe.w,
                        );
                        fitted.lines.len()
                    })
                };
                let counts = [
                    ("title", lines(Some(c.title), TITLE_SIZE, true)),
                    ("subtitle", lines(c.subtitle, SUBTITLE_SIZE, false)),
                    ("author", lines(c.author, AUTHOR_SIZE, false)),
                ];
                let (what, _) = counts
                    .iter()
                    .max_by_key(|(_, n)| *n)
                    .copied()
                    .unwrap_or(("title", 0));
                return Err(crate::error::Error::option(format!(
                    "{}: too long for the front cover even at {:.0} % of its size; shorten it",
                    field_of(what),
                    FRONT_MIN_SCALE * 100.0
                )));
            }
        }
    }
}

/// The front's title, subtitle and author at `scale` of their sizes, into `items`; the area
/// left between them for the cards, or `None` when the texts meet.
fn front_texts(c: &Cover<'_>, safe: &Area, scale: f64, items: &mut Vec<Item>) -> Option<Area> {
    let face = c.font;
    let cx = safe.x + safe.w / 2.0;
    let text_w = safe.w;
    let (title_max, sub_max, author_max) = (
        TITLE_SIZE * scale,
        SUBTITLE_SIZE * scale,
        AUTHOR_SIZE * scale,
    );
    let (_, title_size) = block_height(c.title, title_max, true, face, text_w);
    let mut y = safe.y + font::CAP_HEIGHT_EM * title_size + safe.h * 0.02;
    block(
        c.title,
        cx,
        &mut y,
        title_max,
        true,
        face,
        text_w,
        c.palette.title,
        items,
    );
    let mut last_size = title_size;
    if let Some(sub) = c.subtitle.filter(|s| !s.trim().is_empty()) {
        let (_, sub_size) = block_height(sub, sub_max, false, face, text_w);
        y += LEADING_EM * title_size * 0.5 + LEADING_EM * sub_size;
        block(
            sub,
            cx,
            &mut y,
            sub_max,
            false,
            face,
            text_w,
            c.palette.text,
            items,
        );
        last_size = sub_size;
    }
    let top_bottom = y + font::DESCENT_EM * last_size;
    let art_top = y + font::DESCENT_EM * title_size + safe.h * 0.05;
    let mut art_bottom = safe.y + safe.h;
    let mut floor = safe.y + safe.h;
    if let Some(author) = c.author.filter(|a| !a.trim().is_empty()) {
        let (extra, size) = block_height(author, author_max, false, face, text_w);
        let mut y = safe.y + safe.h - font::DESCENT_EM * size - extra;
        floor = y - font::CAP_HEIGHT_EM * size - safe.h * 0.02;
        art_bottom = y - font::CAP_HEIGHT_EM * size - safe.h * 0.04;
        block(
            author,
            cx,
            &mut y,
            author_max,
            false,
            face,
            text_w,
            c.palette.text,
            items,
        );
    }
    if top_bottom > floor {
        return None;
    }
    Some(Area {
        x: safe.x,
        y: art_top,
        w: safe.w,
        h: (art_bottom - art_top).max(0.0),
    })
}

/// The cover's back: the title, the text, and a row of cards above the barcode area. The text
/// is set smaller when it would reach the barcode area (down to [`BACK_TEXT_MIN_SIZE`]); an
/// error names `book.cover.back_text` when even that is not enough.
fn back_side(c: &Cover<'_>, items: &mut Vec<Item>) -> Result<()> {
    let face = c.font;
    let back = Wrap::safe(&c.wrap.back());
    let bx = back.x + back.w / 2.0;
    let (_, bsize) = block_height(c.title, BACK_TITLE_SIZE, true, face, back.w);
    let mut y = back.y + font::CAP_HEIGHT_EM * bsize + back.h * 0.03;
    block(
        c.title,
        bx,
        &mut y,
        BACK_TITLE_SIZE,
        true,
        face,
        back.w,
        c.palette.title,
        items,
    );
    y += LEADING_EM * bsize * 0.6;
    let barcode = c.wrap.barcode();
    let mut text_size = BACK_TEXT_SIZE;
    if let Some(body) = c.back_text {
        let measure = back.w * 0.86;
        let left = back.x + (back.w - measure) / 2.0;
        // from 14 pt down by half points, each way of setting the paragraphs in turn: the
        // first at which the text stops above the barcode area, a line short of it
        let steps = ((BACK_TEXT_SIZE - BACK_TEXT_MIN_SIZE) / (0.5 * PT)).round() as usize;
        let mut set = None;
        let mut takes = 0;
        'fit: for paras in Paragraphs::ALL {
            for k in 0..=steps {
                let size = BACK_TEXT_SIZE - k as f64 * 0.5 * PT;
                let step = LEADING_EM * size;
                let lines = paragraphs(body, face, size, measure, paras);
                let advance: f64 = lines
                    .iter()
                    .map(|l| if l.is_some() { step } else { step * 0.5 })
                    .sum();
                if y + advance + font::DESCENT_EM * size <= barcode.y - step {
                    set = Some((size, lines));
                    break 'fit;
                }
                takes = lines.iter().flatten().count();
            }
        }
        let Some((size, lines)) = set else {
            let step = LEADING_EM * BACK_TEXT_MIN_SIZE;
            let holds = ((barcode.y - step - y) / step).floor().max(0.0) as usize;
            return Err(crate::error::Error::option(format!(
                "{}: too long for the back cover even at 8 pt: it takes {takes} lines, the back \
                 holds {holds} above the barcode area; shorten it",
                field_of("back_text")
            )));
        };
        text_size = size;
        let step = LEADING_EM * size;
        for line in lines {
            y += match line {
                Some(_) => step,
                None => step * 0.5,
            };
            if let Some(l) = line {
                items.push(text(
                    l,
                    Pos::new(left, y),
                    size,
                    Anchor::Start,
                    false,
                    face,
                    c.palette.text,
                ));
            }
        }
    }
    let row_top = y + font::DESCENT_EM * text_size + back.h * 0.05;
    let room = barcode.y - back.h * 0.05 - row_top;
    let row_h = room.min(back.w * 0.3);
    let row = Area {
        x: back.x,
        // the row in the middle of the room between the text and the barcode area
        y: row_top + (room - row_h).max(0.0) / 2.0,
        w: back.w,
        h: row_h,
    };
    if row.h > 20.0 {
        let n = c.back_art.len().min(BACK_CARDS);
        let slots: Vec<Area> = (0..n)
            .map(|k| {
                let gap = back.w * 0.05;
                let side = ((row.w - (n - 1) as f64 * gap) / n as f64).min(row.h);
                let width = n as f64 * side + (n - 1) as f64 * gap;
                Area {
                    x: row.x + (row.w - width) / 2.0 + k as f64 * (side + gap),
                    y: row.y,
                    w: side,
                    h: side,
                }
            })
            .collect();
        for (k, (slot, page)) in slots.iter().zip(&c.back_art).enumerate() {
            card(page, slot, wall_ink(k + 3), c.palette.shadow(), items);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::draw::tests::maze;

    fn inside(a: &Area, b: &Area) -> bool {
        a.x >= b.x - 1e-6
            && a.y >= b.y - 1e-6
            && a.x + a.w <= b.x + b.w + 1e-6
            && a.y + a.h <= b.y + b.h + 1e-6
    }

    /// The box of every printed item on `layer` in `d`.
    fn boxes(d: &crate::draw::Drawing, layer: Layer) -> Vec<Area> {
        d.items
            .iter()
            .filter(|i| i.layer == layer)
            .map(|i| match &i.shape {
                Shape::Text(t) => t.bounds(),
                Shape::Fill { path, .. } | Shape::Stroke { path, .. } => {
                    let (mut x0, mut y0, mut x1, mut y1) = (f64::MAX, f64::MAX, f64::MIN, f64::MIN);
                    for s in path.segs() {
                        if let crate::draw::Seg::MoveTo(p)
                        | crate::draw::Seg::LineTo(p)
                        | crate::draw::Seg::CubicTo(_, _, p) = s
                        {
                            (x0, y0, x1, y1) = (x0.min(p.x), y0.min(p.y), x1.max(p.x), y1.max(p.y));
                        }
                    }
                    Area {
                        x: x0,
                        y: y0,
                        w: x1 - x0,
                        h: y1 - y0,
                    }
                }
                Shape::Image { area, .. } => *area,
                Shape::Tint { .. } => unreachable!("a cover draws no overlay"),
            })
            .collect()
    }

    fn within(a: &Area, b: &Area) -> bool {
        // paths hold single-precision points
        let e = 1e-3;
        a.x >= b.x - e && a.y >= b.y - e && a.x + a.w <= b.x + b.w + e && a.y + a.h <= b.y + b.h + e
    }

    #[test]
    fn the_artwork_badge_and_logo_keep_to_the_safe_areas_and_off_the_barcode_area() {
        let g = crate::draw::tests::maze(6, 6, 1);
        let page = crate::draw::puzzle_page(&g, &crate::page::PageSetup::default()).unwrap();
        let svg = |w: u32, h: u32, fill: &str| {
            format!(
                "<svg xmlns='http://www.w3.org/2000/svg' width='{w}' height='{h}'>\
                 <rect width='{w}' height='{h}' fill='{fill}'/></svg>"
            )
        };
        for (trim_w, trim_h) in [(6.0, 9.0), (8.5, 11.0), (8.5, 8.5), (5.0, 8.0)] {
            for (aw, ah) in [(400, 300), (100, 900), (900, 100)] {
                let art = Art::Vector(
                    crate::picture::Picture::from_svg(svg(aw, ah, "#e4572e").as_bytes()).unwrap(),
                );
                let logo = Art::Vector(
                    crate::picture::Picture::from_svg(svg(300, 100, "#6a4c93").as_bytes()).unwrap(),
                );
                let wrap = Wrap {
                    trim_w: trim_w * MM_PER_INCH,
                    trim_h: trim_h * MM_PER_INCH,
                    spine: 0.2 * MM_PER_INCH,
                };
                let c = Cover {
                    wrap,
                    title: "Animal Mazes",
                    subtitle: Some("For ages 4 to 8"),
                    author: Some("Ada Lovelace"),
                    back_text: Some("Fifty mazes shaped like animals."),
                    font: Typeface::Sans,
                    spine_text: true,
                    front_art: vec![&page; 6],
                    back_art: vec![&page; 3],
                    palette: Palette::new(Some(Rgb(255, 243, 196)), Some(Rgb(27, 42, 73))),
                    front_picture: Some(&art),
                    badge: Some("Ages 4-8"),
                    logo: Some(&logo),
                };
                let d = super::super::cover(&c).unwrap();
                let (front, back) = (Wrap::safe(&wrap.front()), Wrap::safe(&wrap.back()));
                let bc = wrap.barcode();
                let pictures = boxes(&d, Layer::Picture);
                // the artwork (one rectangle) on the front, the logo on the back left of the
                // barcode area, at its foot
                assert_eq!(pictures.len(), 2);
                let (a, l) = (&pictures[0], &pictures[1]);
                assert!(within(a, &front), "{a:?} {front:?}");
                assert!(
                    ((a.w / a.h) / (f64::from(aw) / f64::from(ah)) - 1.0).abs() < 1e-4,
                    "{a:?}"
                );
                assert!(a.w > front.w * 0.99 || a.h > front.h * 0.3, "{a:?} small");
                assert!(within(l, &back) && l.x + l.w < bc.x, "{l:?}");
                assert!((l.y + l.h - (bc.y + bc.h)).abs() < 1e-3, "{l:?}");
                // the badges: one on the front, one on the lower back beside the logo
                let badges = boxes(&d, Layer::Markers);
                assert!(badges.iter().all(|b| within(b, &front) || within(b, &back)));
                assert!(badges.iter().any(|b| within(b, &front)));
                assert!(
                    badges
                        .iter()
                        .any(|b| within(b, &back) && b.x > l.x + l.w && b.x + b.w < bc.x)
                );
                // no maze cards on the front, three on the back
                let walls = boxes(&d, Layer::Walls);
                assert!(
                    walls
                        .iter()
                        .all(|b| b.x + b.w <= wrap.back().x + wrap.back().w)
                );
                // every text in the text colour but the badges' (in the ground's)
                for it in &d.items {
                    if let Shape::Text(t) = &it.shape {
                        let want = if it.layer == Layer::Markers {
                            c.palette.ground
                        } else {
                            c.palette.text
                        };
                        assert_eq!(t.color, want, "{:?}", t.text);
                    }
                }
            }
        }
    }

    #[test]
    fn long_cover_texts_are_set_smaller_to_keep_to_the_safe_areas_or_refused() {
        let g = maze(8, 8, 2);
        let page = crate::draw::puzzle_page(&g, &crate::page::PageSetup::default()).unwrap();
        let inch = MM_PER_INCH;
        let wrap = Wrap {
            trim_w: 6.0 * inch,
            trim_h: 9.0 * inch,
            spine: 0.3 * inch,
        };
        let long = "W".repeat(200);
        let back = "Forty mazes shaped like animals, for ages four to eight. ".repeat(35);
        let back: String = back.chars().take(2000).collect();
        let c = Cover {
            wrap,
            title: &long,
            subtitle: Some(&long),
            author: Some(&long),
            back_text: Some(&back),
            font: Typeface::Sans,
            spine_text: true,
            front_art: vec![&page; 6],
            back_art: vec![&page; 3],
            palette: Palette::DEFAULT,
            front_picture: None,
            badge: None,
            logo: None,
        };
        let d = cover(&c).unwrap();
        let bc = wrap.barcode();
        for t in d.texts().filter(|t| !t.rotated.is_turned()) {
            let b = t.bounds();
            let front = inside(&b, &Wrap::safe(&wrap.front()));
            let back_side = inside(&b, &Wrap::safe(&wrap.back()));
            assert!(front || back_side, "{:?} at {b:?}", t.text);
            if back_side {
                assert!(b.y + b.h < bc.y, "{:?} reaches the barcode area", t.text);
            }
        }
        // the whole back text is printed, smaller than 14 pt
        let printed: String = d
            .texts()
            .filter(|t| t.size < BACK_TEXT_SIZE && !t.bold)
            .map(|t| t.text.clone())
            .collect::<Vec<_>>()
            .join(" ");
        let words = |t: &str| t.split_whitespace().map(str::to_string).collect::<Vec<_>>();
        assert!(printed.contains(&words(&back).join(" ")), "text dropped");
        // the front's texts do not overlap
        let front: Vec<Area> = d
            .texts()
            .map(|t| t.bounds())
            .filter(|b| inside(b, &Wrap::safe(&wrap.front())))
            .collect();
        for (i, a) in front.iter().enumerate() {
            for b in &front[i + 1..] {
                let apart = a.y + a.h <= b.y + 1e-6 || b.y + b.h <= a.y + 1e-6;
                assert!(apart, "{a:?} and {b:?} overlap");
            }
        }
        // many short paragraphs: run on
        let many = "word\n\n".repeat(333);
        let d = cover(&Cover {
            back_text: Some(&many),
            ..c.clone()
        })
        .unwrap();
        let words: usize = d.texts().map(|t| t.text.matches("word").count()).sum();
        assert_eq!(words, 333);
        // a back text no size fits: one line naming the field
        let e = cover(&Cover {
            back_text: Some(&"W".repeat(2000)),
            ..c.clone()
        })
        .unwrap_err()
        .message;
        assert!(
            e.starts_with("book.cover.back_text: too long for the back cover even at 8 pt"),
            "{e}"
        );
    }

    #[test]
    fn the_wrap_is_bleed_back_spine_front_bleed_and_its_text_keeps_to_the_safe_areas() {
        let g = maze(8, 8, 2);
        let page = crate::draw::puzzle_page(&g, &crate::page::PageSetup::default()).unwrap();
        let inch = MM_PER_INCH;
        for (pages, spine_text) in [(26usize, false), (100, true)] {
            let wrap = Wrap {
                trim_w: 8.5 * inch,
                trim_h: 11.0 * inch,
                spine: pages as f64 * 0.002252 * inch,
            };
            let back = "Forty mazes shaped like animals. ".repeat(12);
            let c = Cover {
                wrap,
                title: "Animal Mazes",
                subtitle: Some("40 puzzles for ages 4 to 8"),
                author: Some("Ada Lovelace"),
                back_text: Some(back.trim()),
                font: Typeface::Sans,
                spine_text,
                front_art: vec![&page; 6],
                back_art: vec![&page; 3],
                palette: Palette::DEFAULT,
                front_picture: None,
                badge: None,
                logo: None,
            };
            let d = cover(&c).unwrap();
            let (w, h) = wrap.size();
            assert!((w - (0.25 + 17.0 + pages as f64 * 0.002252) * inch).abs() < 1e-9);
            assert!((h - 11.25 * inch).abs() < 1e-9);
            assert_eq!((d.width, d.height), (w, h));
            let spine_texts: Vec<&Text> = d.texts().filter(|t| t.rotated.is_turned()).collect();
            assert_eq!(spine_texts.len(), if spine_text { 2 } else { 0 });
            for t in d.texts() {
                let b = t.bounds();
                let ok = if t.rotated.is_turned() {
                    inside(&b, &wrap.spine_safe())
                } else {
                    inside(&b, &Wrap::safe(&wrap.front())) || inside(&b, &Wrap::safe(&wrap.back()))
                };
                assert!(ok, "{:?} at {b:?}", t.text);
            }
            // nothing but the ground in the barcode area
            let bc = wrap.barcode();
            for it in d.items.iter().filter(|i| i.layer != Layer::Page) {
                if let Shape::Stroke { path, .. } | Shape::Fill { path, .. } = &it.shape {
                    for s in path.segs() {
                        if let Seg::MoveTo(p) | Seg::LineTo(p) = s {
                            assert!(
                                !(p.x > bc.x
                                    && p.x < bc.x + bc.w
                                    && p.y > bc.y
                                    && p.y < bc.y + bc.h),
                                "{p:?} in the barcode area"
                            );
                        }
                    }
                }
            }
            assert!(d.texts().any(|t| t.text == "Animal Mazes"));
            assert!(d.layer(Layer::Walls).count() > 9 * 2);
        }
    }
}
