//! Preflight: what a print service checks in a made document, reported as one short block.
//!
//! Pure: it reads the pages' [`Drawing`]s, the corridor width the layout measured, and the
//! document's bytes (a PDF is parsed in memory with lopdf to see whether its fonts are
//! embedded); it writes nothing. The checks, with Amazon KDP's numbers:
//! - **fonts**: every font of a PDF embedded (a `FontFile`, `FontFile2` or `FontFile3` in its
//!   descriptor); base-14 fonts referred to by name are not;
//! - **thinnest line**: every printed stroke at least 0.75 pt ([`MIN_LINE_MM`], 0.26 mm);
//! - **narrowest corridor**: at least the page setup's minimum (3 mm by default, a preset's
//!   corridor width with a preset), and every door a shape's outline cuts at least the crayon
//!   rule's width ([`crate::draw::Layout::min_door_mm`]), measured on the clipped geometry;
//! - **safe area**: everything printed at least 0.25 in ([`SAFE_MARGIN_MM`]) inside the trim on
//!   the top, bottom and outside edges (and on every edge of a loose page); the bleed
//!   (0.125 in) is for the paper colour only;
//! - **gutter** (books): everything at least KDP's inside margin for the page count
//!   ([`gutter_for_pages`]: 24-150 pages 0.375 in, 151-300 0.5 in, 301-500 0.625 in,
//!   501-700 0.75 in, 701-828 0.875 in) from the inside (binding) edge;
//! - **pages** (books): a page count KDP prints on the book's trim, paper and ink
//!   ([`KDP_PAGE_LIMITS`], e.g. at most 550 pages on 8.5 x 11 in cream paper);
//! - **cover** (books with one): `cover.pdf`'s fonts embedded, its page the full wrap's size
//!   (bleed + back + spine + front + bleed, the spine from the page count and paper), nothing
//!   in the barcode area, every text inside its panel's safe area (the spine's 0.0625 in from
//!   the folds), and spine text only where it can be set at 6 pt or more inside them; the
//!   cover's own artwork, logo and badge inside the safe areas, and its texts at WCAG's 4.5 to
//!   1 contrast or more against the ground;
//! - **warnings**: every warning the making gave (a label over the maze, a shape's cells
//!   dropped, a character no font prints) is a problem too.
//!
//! Every problem is a warning that says what to change; `--strict` (the CLI) turns them into
//! errors. [`Report::block`] is at most [`MAX_LINES`] lines.

use serde::Serialize;

use crate::draw::{
    Drawing, Layer, MIN_CONTRAST, Pages, Path, Pos, Rgb, SPINE_TEXT_MIN_PAGES, SPINE_TEXT_MIN_PT,
    Seg, Shape, Wrap, contrast, hex,
};
use crate::export::Format;
use crate::page::MM_PER_INCH;

mod cover;
pub use cover::MIN_ART_DPI;
use cover::cover_check;

/// KDP's thinnest printable line, 0.75 pt, in millimetres.
pub const MIN_LINE_MM: f64 = 0.75 * MM_PER_INCH / 72.0;

/// KDP's safe margin inside the trim, 0.25 in, in millimetres.
pub const SAFE_MARGIN_MM: f64 = 0.25 * MM_PER_INCH;

/// The most lines [`Report::block`] prints.
pub const MAX_LINES: usize = 9;

/// The paper and ink a KDP paperback's interior prints in (the rows of [`KDP_PAGE_LIMITS`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum PaperInk {
    /// Black ink on white paper.
    White,
    /// Black ink on cream paper.
    Cream,
    /// Standard colour (white paper).
    StandardColor,
    /// Premium colour (white paper).
    PremiumColor,
}

impl PaperInk {
    /// How a message names it: `white paper`, `cream paper`, `standard colour`, `premium colour`.
    pub fn name(self) -> &'static str {
        match self {
            PaperInk::White => "white paper",
            PaperInk::Cream => "cream paper",
            PaperInk::StandardColor => "standard colour",
            PaperInk::PremiumColor => "premium colour",
        }
    }
}

/// One row of [`KDP_PAGE_LIMITS`]: the trims it is for (width x height in inches; empty: every
/// trim no row before it names), the paper and ink, and the fewest and the most pages.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PageLimit {
    /// The trims, in inches (either way up); empty for every other trim.
    pub trims: &'static [(f64, f64)],
    /// The paper and ink.
    pub paper: PaperInk,
    /// The fewest pages KDP prints.
    pub min: usize,
    /// The most pages KDP prints.
    pub max: usize,
}

const SQUARE_AND_LETTER: &[(f64, f64)] = &[(8.5, 11.0), (8.5, 8.5)];
const WIDE_825: &[(f64, f64)] = &[(8.25, 6.0), (8.25, 8.25)];
const A4: &[(f64, f64)] = &[(8.27, 11.69)];
const BIG_COLOUR: &[(f64, f64)] = &[(8.5, 8.5), (8.5, 11.0), (8.27, 11.69)];

/// Amazon KDP's paperback page counts by trim, paper and ink: the first row whose paper and
/// trims match a book is its limits ([`page_limits`]).
///
/// Source: KDP's print options for paperbacks ("Page count" in the KDP help's paperback
/// submission guidelines), as recorded in the project's notes on books (checked 2026-12):
/// black ink on white paper 24-828 pages, on cream 24-776, except 8.5 x 11 and 8.5 x 8.5 in
/// (white 590, cream 550), 8.25 x 6 and 8.25 x 8.25 in (800 / 750) and 8.27 x 11.69 in (A4,
/// 780 / 730); standard colour 72-600; premium colour 24-828 (590 for 8.5 x 8.5, 8.5 x 11 and
/// 8.27 x 11.69 in).
pub const KDP_PAGE_LIMITS: [PageLimit; 11] = {
    use PaperInk::*;
    const fn row(
        trims: &'static [(f64, f64)],
        paper: PaperInk,
        min: usize,
        max: usize,
    ) -> PageLimit {
        PageLimit {
            trims,
            paper,
            min,
            max,
        }
    }
    [
        row(SQUARE_AND_LETTER, White, 24, 590),
        row(SQUARE_AND_LETTER, Cream, 24, 550),
        row(WIDE_825, White, 24, 800),
        row(WIDE_825, Cream, 24, 750),
        row(A4, White, 24, 780),
        row(A4, Cream, 24, 730),
        row(&[], White, 24, 828),
        row(&[], Cream, 24, 776),
        row(&[], StandardColor, 72, 600),
        row(BIG_COLOUR, PremiumColor, 24, 590),
        row(&[], PremiumColor, 24, 828),
    ]
};

/// Whether a trim of `trim_mm` (width, height) is `inches` (either way up, to 0.01 in: A4's
/// 210 x 297 mm is 8.27 x 11.69 in).
fn is_trim(trim_mm: (f64, f64), inches: (f64, f64)) -> bool {
    let (w, h) = (trim_mm.0 / MM_PER_INCH, trim_mm.1 / MM_PER_INCH);
    let near = |a: f64, b: f64| (a - b).abs() < 0.01;
    (near(w, inches.0) && near(h, inches.1)) || (near(w, inches.1) && near(h, inches.0))
}

/// KDP's page-count limits ([`KDP_PAGE_LIMITS`]) for a book on `paper` with a trim of
/// `trim_mm` (width, height; `None`: a trim no row names).
pub fn page_limits(trim_mm: Option<(f64, f64)>, paper: PaperInk) -> PageLimit {
    KDP_PAGE_LIMITS
        .iter()
        .find(|r| {
            r.paper == paper
                && (r.trims.is_empty()
                    || trim_mm.is_some_and(|t| r.trims.iter().any(|&i| is_trim(t, i))))
        })
        .copied()
        .unwrap_or(PageLimit {
            trims: &[],
            paper,
            min: 24,
            max: 828,
        })
}

/// How a message names a trim: `8.5 x 11 in`, `8.27 x 11.69 in`.
fn trim_name((w, h): (f64, f64)) -> String {
    let n = |mm: f64| {
        let s = format!("{:.2}", mm / MM_PER_INCH);
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    };
    format!("{} x {} in", n(w), n(h))
}

/// What a book prints on, for [`KDP_PAGE_LIMITS`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Print {
    /// The trimmed page, width and height in millimetres.
    pub trim_mm: (f64, f64),
    /// The paper and ink (`None`: the book names none; white paper is assumed).
    pub paper: Option<PaperInk>,
}

/// Whether a book of `pages` pages is as long as KDP prints on its trim and paper (`print`;
/// `None`: any trim, white paper).
fn pages_check(pages: usize, print: Option<Print>) -> Check {
    let paper = print.and_then(|p| p.paper).unwrap_or(PaperInk::White);
    let trim = print.map(|p| p.trim_mm);
    let limit = page_limits(trim, paper);
    let on = format!(
        "{}{}{}",
        trim.map(|t| format!("{} ", trim_name(t)))
            .unwrap_or_default(),
        paper.name(),
        if print.is_some_and(|p| p.paper.is_none()) {
            " (the book names no paper: cover = { paper = ... })"
        } else {
            ""
        }
    );
    let bad = |text: String| Check {
        name: "pages",
        ok: false,
        text,
    };
    if pages > limit.max {
        bad(format!(
            "{pages} pages; KDP prints at most {} on {on}: split the book",
            limit.max
        ))
    } else if pages < limit.min {
        bad(format!(
            "{pages} pages; KDP prints at least {} on {on}: add puzzles or pages",
            limit.min
        ))
    } else {
        // premium colour prints what standard colour does not: said, not warned
        let standard = page_limits(trim, PaperInk::StandardColor);
        let note =
            if paper == PaperInk::PremiumColor && !(standard.min..=standard.max).contains(&pages) {
                format!(
                    " (standard colour prints {} to {}: choose premium)",
                    standard.min, standard.max
                )
            } else {
                String::new()
            };
        ok(
            "pages",
            format!(
                "{pages} pages; KDP prints {} to {} on {on}{note}",
                limit.min, limit.max
            ),
        )
    }
}

/// KDP's inside margin (millimetres) for a paperback of `pages` pages: 0.375 in up to 150
/// pages, 0.5 in to 300, 0.625 in to 500, 0.75 in to 700, 0.875 in beyond (KDP prints at most
/// 828).
pub fn gutter_for_pages(pages: usize) -> f64 {
    let inches = match pages {
        0..=150 => 0.375,
        151..=300 => 0.5,
        301..=500 => 0.625,
        501..=700 => 0.75,
        _ => 0.875,
    };
    inches * MM_PER_INCH
}

pub use crate::export::pdf_fonts::{Fonts, document_fonts, pdf_fonts};

/// Which edge of a page is bound.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Binding {
    /// A loose sheet: every edge is an outside edge.
    Loose,
    /// Bound on the left (a right-hand, odd page).
    Left,
    /// Bound on the right (a left-hand, even page).
    Right,
}

/// One page to check: what the checks read of its drawing ([`Page::new`]), so a book need not
/// hold its pages' drawings.
#[derive(Clone, Copy, Debug)]
pub struct Page {
    /// The box of everything printed on it but the paper, when anything is.
    pub content: Option<[f64; 4]>,
    /// Its thinnest stroke (white strokes aside), when it has one.
    pub thinnest: Option<f64>,
    /// The trimmed page.
    pub trim: crate::draw::Area,
    /// Its bound edge.
    pub binding: Binding,
}

impl Page {
    /// Measures `drawing`, bound on `binding`.
    pub fn new(drawing: &Drawing, binding: Binding) -> Page {
        let (content, thinnest) = content(drawing);
        Page {
            content,
            thinnest,
            trim: drawing.trim,
            binding,
        }
    }
}

/// A made document, as preflight sees it.
#[derive(Clone, Debug)]
pub struct Subject<'a> {
    /// The pages, in order.
    pub pages: Vec<Page>,
    /// The fonts' state ([`pdf_fonts`] for a PDF).
    pub fonts: Fonts,
    /// The corridors and doors, measured on the page.
    pub corridor: Option<Corridors>,
    /// For a book, its page count (the gutter table's row, and KDP's page-count limits).
    pub book_pages: Option<usize>,
    /// For a book, its trim and paper (KDP's page-count limits, [`KDP_PAGE_LIMITS`]).
    pub print: Option<Print>,
    /// The warnings the making gave (a label over the maze, cells of a shape dropped, ...):
    /// each one is a problem (`warnings`), so `--strict` refuses the document.
    pub warnings: &'a [String],
    /// A book's full-wrap cover.
    pub cover: Option<CoverSubject<'a>>,
}

/// A book's cover, as preflight sees it.
#[derive(Clone, Copy, Debug)]
pub struct CoverSubject<'a> {
    /// The cover as drawn.
    pub drawing: &'a Drawing,
    /// The wrap it should be, for the interior's page count and paper.
    pub wrap: Wrap,
    /// The interior's page count (the spine carries text from [`SPINE_TEXT_MIN_PAGES`], when
    /// it can be set at [`SPINE_TEXT_MIN_PT`] or more).
    pub pages: usize,
    /// `cover.pdf`'s bytes (its fonts and its page size are read from them).
    pub pdf: &'a [u8],
}

/// The page sizes (`/MediaBox` width and height, in millimetres) of PDF `bytes`, in page order;
/// empty when they do not parse.
pub fn pdf_page_sizes(bytes: &[u8]) -> Vec<(f64, f64)> {
    use lopdf::{Document, Object};
    let Ok(doc) = Document::load_mem(bytes) else {
        return Vec::new();
    };
    let num = |o: &Object| -> Option<f64> {
        match o {
            Object::Integer(i) => Some(*i as f64),
            Object::Real(r) => Some(f64::from(*r)),
            _ => None,
        }
    };
    doc.get_pages()
        .values()
        .filter_map(|&id| {
            let page = doc.get_dictionary(id).ok()?;
            let b = page.get(b"MediaBox").ok()?.as_array().ok()?;
            let v: Vec<f64> = b.iter().filter_map(num).collect();
            (v.len() == 4).then(|| {
                let mm = MM_PER_INCH / 72.0;
                ((v[2] - v[0]) * mm, (v[3] - v[1]) * mm)
            })
        })
        .collect()
}

/// A maze's corridors as printed, in millimetres (from its [`Layout`](crate::draw::Layout)).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Corridors {
    /// The clear width of a cell's corridor.
    pub corridor: f64,
    /// The narrowest corridor the setup accepts.
    pub min: f64,
    /// The clear width of the narrowest door the shape's outline cuts (`None`: it cuts none).
    pub door: Option<f64>,
    /// The narrowest such door accepted (the crayon rule, [`crate::draw::Layout::min_door_mm`]).
    pub min_door: f64,
    /// The widest line that gets from START to every cell on the printed page, and the cell
    /// where it is narrowest (`None`: not measured, [`crate::draw::Layout::reach`]).
    pub reach: Option<(f64, crate::topology::Coord)>,
    /// The narrowest such way accepted ([`crate::draw::Layout::min_reach_mm`]).
    pub min_reach: f64,
}

impl Corridors {
    /// What `layout` measured.
    pub fn of(layout: &crate::draw::Layout) -> Corridors {
        Corridors {
            corridor: layout.corridor_mm,
            min: layout.min_corridor_mm,
            door: layout.door_mm,
            min_door: layout.min_door_mm(),
            reach: layout.reach.map(|r| (r.narrowest_mm, r.cell)),
            min_reach: layout.min_reach_mm(),
        }
    }

    /// How far the corridors and doors are above their minimums, in millimetres (under zero:
    /// below one of them).
    pub fn slack(&self) -> f64 {
        let door = self.door.map_or(f64::INFINITY, |d| d - self.min_door);
        let reach = self
            .reach
            .map_or(f64::INFINITY, |(r, _)| r - self.min_reach);
        (self.corridor - self.min).min(door).min(reach)
    }
}

/// One check's outcome.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Check {
    /// The check's name: `fonts`, `lines`, `corridors`, `safe area`, `pages`, `gutter`,
    /// `cover`, `warnings`.
    pub name: &'static str,
    /// Whether it passed.
    pub ok: bool,
    /// What was found, and for a problem, what to change.
    pub text: String,
}

/// Every check's outcome.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Report {
    /// The checks, in a fixed order.
    pub checks: Vec<Check>,
}

impl Report {
    /// The checks that failed.
    pub fn problems(&self) -> impl Iterator<Item = &Check> {
        self.checks.iter().filter(|c| !c.ok)
    }

    /// Whether every check passed.
    pub fn is_clean(&self) -> bool {
        self.problems().next().is_none()
    }

    /// One line: `preflight: ok (...)` or `preflight: 2 problems (fonts, lines)`.
    pub fn status(&self) -> String {
        let bad: Vec<&str> = self.problems().map(|c| c.name).collect();
        if bad.is_empty() {
            let passed: Vec<&str> = self.checks.iter().map(|c| c.name).collect();
            format!("preflight: ok ({})", passed.join(", "))
        } else {
            format!(
                "preflight: {} problem{} ({})",
                bad.len(),
                if bad.len() == 1 { "" } else { "s" },
                bad.join(", ")
            )
        }
    }

    /// The problems on one line, each as its check's name and what was found:
    /// `corridors: ...; safe area: ...` (empty when every check passed).
    pub fn problems_line(&self) -> String {
        let parts: Vec<String> = self
            .problems()
            .map(|c| format!("{}: {}", c.name, c.text))
            .collect();
        parts.join("; ")
    }

    /// The block for a person: the status line, then one line per check (at most
    /// [`MAX_LINES`] lines in all: when there are more checks, the last passed ones are left
    /// out, never a problem).
    pub fn block(&self) -> String {
        let mut lines = vec![self.status()];
        let mut drop = self.checks.len().saturating_sub(MAX_LINES - 1);
        let mut shown = vec![true; self.checks.len()];
        for (k, c) in self.checks.iter().enumerate().rev() {
            if drop > 0 && c.ok {
                shown[k] = false;
                drop -= 1;
            }
        }
        let shown = self.checks.iter().zip(shown).filter(|(_, s)| *s);
        for c in shown.map(|(c, _)| c).take(MAX_LINES - 1) {
            lines.push(format!(
                "  {} {:<10} {}",
                if c.ok { "ok  " } else { "WARN" },
                c.name,
                c.text
            ));
        }
        lines.join("\n")
    }
}

/// An axis-aligned box: left, top, right, bottom (mm).
type Box4 = [f64; 4];

fn grow(b: &mut Option<Box4>, x0: f64, y0: f64, x1: f64, y1: f64) {
    let n = match *b {
        None => [x0, y0, x1, y1],
        Some(o) => [o[0].min(x0), o[1].min(y0), o[2].max(x1), o[3].max(y1)],
    };
    *b = Some(n);
}

fn path_box(p: &Path, half: f64, b: &mut Option<Box4>) {
    for s in p.segs() {
        let (pts, n): ([Pos; 3], usize) = match s {
            Seg::MoveTo(a) | Seg::LineTo(a) => ([a, a, a], 1),
            Seg::CubicTo(a, c, d) => ([a, c, d], 3),
            Seg::Close => continue,
        };
        let pts = &pts[..n];
        for q in pts {
            grow(b, q.x - half, q.y - half, q.x + half, q.y + half);
        }
    }
}

/// The box of what path `p` paints, `half` wider on every side, into `b`: its curves' own
/// extremes, not their control points' (a picture's circle reaches its box's edge, its control
/// points beyond it).
fn curve_box(p: &Path, half: f64, b: &mut Option<Box4>) {
    let mut last = [0.0, 0.0];
    for s in p.segs() {
        let pts = match s {
            Seg::MoveTo(a) | Seg::LineTo(a) => vec![[a.x, a.y]],
            Seg::CubicTo(a, c, d) => {
                crate::picture::cubic_extremes([last, [a.x, a.y], [c.x, c.y], [d.x, d.y]])
            }
            Seg::Close => continue,
        };
        if let Some(&q) = pts.last() {
            last = q;
        }
        for q in pts {
            grow(b, q[0] - half, q[1] - half, q[0] + half, q[1] + half);
        }
    }
}

/// The box of everything printed on `d` except the paper, and its thinnest stroke.
fn content(d: &Drawing) -> (Option<Box4>, Option<f64>) {
    let mut b = None;
    let mut thinnest: Option<f64> = None;
    for item in d.printed() {
        if item.layer == Layer::Page {
            continue;
        }
        match &item.shape {
            Shape::Stroke { path, width, color } => {
                path_box(path, width / 2.0, &mut b);
                if *color != Rgb::WHITE {
                    thinnest = Some(thinnest.map_or(*width, |t| t.min(*width)));
                }
            }
            Shape::Fill { path, color } if *color != Rgb::WHITE => path_box(path, 0.0, &mut b),
            Shape::Text(t) if !t.text.trim().is_empty() => {
                // cap height to descent (0.207 em, as the layout reserves), turned with the
                // text
                let a = t.bounds();
                grow(&mut b, a.x, a.y, a.x + a.w, a.y + a.h);
            }
            _ => {}
        }
    }
    (b, thinnest)
}

fn inch(mm: f64) -> String {
    format!("{:.3} in", mm / MM_PER_INCH)
}

/// Runs every check on `s`.
pub fn check(s: &Subject) -> Report {
    let mut checks = vec![fonts_check(&s.fonts)];
    let measured: Vec<(Option<Box4>, Option<f64>)> =
        s.pages.iter().map(|p| (p.content, p.thinnest)).collect();
    // thinnest line
    if let Some(thin) = measured.iter().filter_map(|m| m.1).reduce(f64::min) {
        checks.push(lines_check(thin));
    }
    if let Some(c) = s.corridor {
        checks.push(corridors_check(c));
    }
    // safe area: top, bottom, outside (every edge of a loose page); gutter: the inside edge
    let (worst, inside) = closest_edges(s, &measured);
    if let Some((gap, k, edge)) = worst {
        checks.push(safe_area_check(gap, k, edge));
    }
    if let Some(pages) = s.book_pages {
        checks.push(pages_check(pages, s.print));
    }
    if let (Some(pages), Some((gap, k))) = (s.book_pages, inside) {
        checks.push(gutter_check(pages, gap, k));
    }
    if let Some(c) = &s.cover {
        checks.push(cover_check(c));
    }
    if let Some(first) = s.warnings.first() {
        let n = s.warnings.len();
        checks.push(Check {
            name: "warnings",
            ok: false,
            text: if n == 1 {
                format!("1 warning: {first}")
            } else {
                format!("{n} warnings: {first} (and {} more)", n - 1)
            },
        });
    }
    Report { checks }
}

/// Whether the fonts are embedded.
fn fonts_check(fonts: &Fonts) -> Check {
    match fonts {
        Fonts::NotEmbedded(names) => Check {
            name: "fonts",
            ok: false,
            text: format!(
                "not embedded ({}): print services want every font embedded; use a build \
                 that embeds them, or export PNG",
                names.join(", ")
            ),
        },
        Fonts::Embedded => ok("fonts", "embedded".into()),
        Fonts::NoText => ok("fonts", "no text".into()),
        Fonts::NotChecked => ok("fonts", "not checked (not a PDF)".into()),
    }
}

/// Whether the thinnest line, `thin` millimetres, is thick enough to print.
fn lines_check(thin: f64) -> Check {
    let pt = thin * 72.0 / MM_PER_INCH;
    if thin + 1e-9 >= MIN_LINE_MM {
        ok("lines", format!("thinnest {thin:.2} mm ({pt:.2} pt)"))
    } else {
        Check {
            name: "lines",
            ok: false,
            text: format!(
                "thinnest {thin:.2} mm ({pt:.2} pt), under the 0.75 pt print services \
                 accept: use walls of {:.2} mm or more (--wall-mm), and fewer cells if \
                 the walls were thinned",
                (MIN_LINE_MM * 100.0).ceil() / 100.0
            ),
        }
    }
}

/// Whether the corridors, and the doors the outline cuts, are wide enough.
fn corridors_check(c: Corridors) -> Check {
    let door = c
        .door
        .map(|d| format!(", doors the outline cuts {d:.1} mm"))
        .unwrap_or_default();
    if c.corridor + crate::draw::WIDTH_SLACK_MM < c.min {
        Check {
            name: "corridors",
            ok: false,
            text: {
                let [have, least] = crate::draw::mm_under(c.corridor, c.min);
                format!("narrowest {have} mm, under {least} mm: use fewer cells or a larger page")
            },
        }
    } else if let Some(d) = c.door
        && d + crate::draw::WIDTH_SLACK_MM < c.min_door
    {
        Check {
            name: "corridors",
            ok: false,
            text: {
                let [have, least] = crate::draw::mm_under(d, c.min_door);
                format!(
                    "a door the outline cuts is {have} mm, under {least} mm (0.6 of a {:.1} \
                     mm corridor): use fewer cells or a larger page",
                    c.min
                )
            },
        }
    } else if let Some((r, cell)) = c.reach
        && r + crate::draw::WIDTH_SLACK_MM < c.min_reach
    {
        Check {
            name: "corridors",
            ok: false,
            text: {
                let [have, least] = crate::draw::mm_under(r, c.min_reach);
                format!(
                    "the way to cell {},{} narrows to {have} mm, under {least} mm (0.6 of a {:.1} \
                     mm corridor): use fewer cells or a larger page",
                    cell.row, cell.col, c.min
                )
            },
        }
    } else {
        let reach = c
            .reach
            .map(|(r, _)| format!(", a crayon's way {r:.1} mm"))
            .unwrap_or_default();
        ok(
            "corridors",
            format!("narrowest {:.1} mm{door}{reach}", c.corridor),
        )
    }
}

/// A gap between a page's content and an edge of its trim: (millimetres, page index, edge).
type EdgeGap = (f64, usize, &'static str);

/// The content's smallest gap to the trim over every page: at the top, bottom and outside
/// edges (every edge of a loose page) as (gap, page index, edge), and at the inside edge of a
/// book's page as (gap, page index).
fn closest_edges(
    s: &Subject,
    measured: &[(Option<Box4>, Option<f64>)],
) -> (Option<EdgeGap>, Option<(f64, usize)>) {
    let mut worst: Option<EdgeGap> = None;
    let mut inside: Option<(f64, usize)> = None;
    for (k, (p, (b, _))) in s.pages.iter().zip(measured).enumerate() {
        let Some(b) = b else { continue };
        let t = p.trim;
        let gaps = [
            ("left", b[0] - t.x),
            ("top", b[1] - t.y),
            ("right", t.x + t.w - b[2]),
            ("bottom", t.y + t.h - b[3]),
        ];
        for (edge, gap) in gaps {
            let bound = matches!(
                (p.binding, edge),
                (Binding::Left, "left") | (Binding::Right, "right")
            );
            if bound && s.book_pages.is_some() {
                if inside.is_none_or(|(g, _)| gap < g) {
                    inside = Some((gap, k));
                }
            } else if worst.is_none_or(|(g, _, _)| gap < g) {
                worst = Some((gap, k, edge));
            }
        }
    }
    (worst, inside)
}

/// Whether the content of page `k` is inside the safe margin: `gap` millimetres from its
/// `edge` of the trim, the smallest over every page.
fn safe_area_check(gap: f64, k: usize, edge: &str) -> Check {
    if gap + EDGE_TOLERANCE_MM >= SAFE_MARGIN_MM {
        ok(
            "safe area",
            format!("content {gap:.1} mm or more inside the trim"),
        )
    } else {
        Check {
            name: "safe area",
            ok: false,
            text: format!(
                "page {}: content {gap:.1} mm from the {edge} trim edge, under {} \
                 ({SAFE_MARGIN_MM:.1} mm): use margins of {:.1} mm or more",
                k + 1,
                inch(SAFE_MARGIN_MM),
                (SAFE_MARGIN_MM * 10.0).ceil() / 10.0
            ),
        }
    }
}

/// How far content may seem to reach past a margin and still be inside it, millimetres: a
/// drawing's paths hold single-precision points (about 1.5e-5 mm at 200 mm from the corner), so
/// a key scaled into its slot of a 150-puzzle book's answer page measured 12.69999 mm against
/// a 12.7 mm gutter. A thousandth of a millimetre is far inside any printer's care.
const EDGE_TOLERANCE_MM: f64 = 1e-3;

/// Whether a book of `pages` pages has the inside margin KDP asks: `gap` millimetres on page
/// `k`, the smallest over every page.
fn gutter_check(pages: usize, gap: f64, k: usize) -> Check {
    let need = gutter_for_pages(pages);
    if gap + EDGE_TOLERANCE_MM >= need {
        ok(
            "gutter",
            format!(
                "inside margin {gap:.1} mm for {pages} pages (KDP: {})",
                inch(need)
            ),
        )
    } else {
        Check {
            name: "gutter",
            ok: false,
            text: format!(
                "page {}: inside margin {gap:.1} mm, KDP asks {} ({need:.1} mm) for {pages} \
                 pages: raise gutter_mm by {:.1}",
                k + 1,
                inch(need),
                ((need - gap) * 10.0).ceil() / 10.0
            ),
        }
    }
}

/// Checks one maze's pages rendered in `format` as `bytes` (the puzzle's file: for a PDF, the
/// whole document, both pages): loose sheets, the layout's corridor width. `None` for the
/// plotter formats, which are not for a print service.
pub fn check_pages(pages: &Pages, format: Format, bytes: &[u8]) -> Option<Report> {
    let fonts = match format {
        Format::Pdf => pdf_fonts(bytes),
        Format::Svg | Format::Png { .. } => Fonts::NotChecked,
        Format::Plotter | Format::Centreline => return None,
    };
    let page = |drawing| Page::new(drawing, Binding::Loose);
    Some(check(&Subject {
        pages: vec![page(&pages.puzzle), page(&pages.key)],
        fonts,
        corridor: Some(Corridors::of(&pages.layout)),
        book_pages: None,
        print: None,
        cover: None,
        warnings: &[],
    }))
}

/// [`check_pages`] for a printed maze ([`crate::export::Printed`]): its pages, and for a PDF
/// the fonts of its bytes. `None` for a centre-line drawing too (it has no pages).
pub fn check_printed(printed: &crate::export::Printed, format: Format) -> Option<Report> {
    let bytes = printed.puzzle.bytes().unwrap_or_default();
    check_pages(printed.pages.as_ref()?, format, bytes)
}

fn ok(name: &'static str, text: String) -> Check {
    Check {
        name,
        ok: true,
        text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_door_the_outline_pinches_fails_the_corridors_check() {
        let blank = Drawing {
            width: 215.9,
            height: 279.4,
            trim: crate::draw::Area {
                x: 0.0,
                y: 0.0,
                w: 215.9,
                h: 279.4,
            },
            items: Vec::new(),
        };
        let report = |door: Option<f64>| {
            check(&Subject {
                pages: vec![Page::new(&blank, Binding::Loose)],
                fonts: Fonts::NotChecked,
                corridor: Some(Corridors {
                    corridor: 9.4,
                    min: 9.0,
                    door,
                    min_door: 5.2,
                    reach: None,
                    min_reach: 5.4,
                }),
                book_pages: None,
                print: None,
                cover: None,
                warnings: &[],
            })
        };
        let corridors = |r: &Report| {
            r.checks
                .iter()
                .find(|c| c.name == "corridors")
                .cloned()
                .unwrap()
        };
        let c = corridors(&report(Some(2.1)));
        assert!(!c.ok);
        assert!(
            c.text
                .contains("a door the outline cuts is 2.1 mm, under 5.2 mm"),
            "{}",
            c.text
        );
        let c = corridors(&report(Some(5.9)));
        assert!(c.ok);
        assert_eq!(c.text, "narrowest 9.4 mm, doors the outline cuts 5.9 mm");
        let c = corridors(&report(None));
        assert_eq!(c.text, "narrowest 9.4 mm");
    }

    #[test]
    fn the_cover_check_finds_the_barcode_area_used_spine_text_too_soon_and_a_wrong_size() {
        use crate::draw::{Area, Item, Text};
        let inch = MM_PER_INCH;
        let wrap = Wrap {
            trim_w: 6.0 * inch,
            trim_h: 9.0 * inch,
            spine: 26.0 * 0.002252 * inch,
        };
        let cover = crate::draw::Cover {
            wrap,
            title: "Mazes",
            subtitle: None,
            author: Some("Ada"),
            back_text: None,
            font: crate::page::Typeface::Sans,
            spine_text: false,
            front_art: vec![],
            back_art: vec![],
            palette: crate::draw::Palette::DEFAULT,
            front_picture: None,
            badge: None,
            logo: None,
        };
        let d = crate::draw::cover(&cover).unwrap();
        let pdf = crate::export::pdf::pdf(&[&d], "Mazes");
        let run = |d: &Drawing, wrap: Wrap, pages: usize| {
            cover_check(&CoverSubject {
                drawing: d,
                wrap,
                pages,
                pdf: &pdf,
            })
        };
        let good = run(&d, wrap, 26);
        assert!(good.ok, "{}", good.text);
        // the wrap for 100 pages is wider than this PDF
        let wide = Wrap {
            spine: 100.0 * 0.002252 * inch,
            ..wrap
        };
        let c = run(&d, wide, 100);
        assert!(!c.ok && c.text.contains("100 pages"), "{}", c.text);
        // a mark in the barcode area
        let bc = wrap.barcode();
        let mut marked = d.clone();
        marked.items.push(Item {
            layer: Layer::Walls,
            shape: Shape::Fill {
                path: Path::polygon(&[
                    Pos::new(bc.x + 5.0, bc.y + 5.0),
                    Pos::new(bc.x + 6.0, bc.y + 5.0),
                    Pos::new(bc.x + 6.0, bc.y + 6.0),
                ]),
                color: Rgb::BLACK,
            },
        });
        let c = run(&marked, wrap, 26);
        assert!(!c.ok && c.text.contains("barcode"), "{}", c.text);
        // spine text on a 26-page book, and text off the safe area
        let s = wrap.spine_safe();
        let mut spined = d.clone();
        let text = |at: Pos, rotated| Item {
            layer: Layer::Text,
            shape: Shape::Text(Text {
                text: "Mazes".into(),
                at,
                size: 1.0,
                anchor: crate::draw::Anchor::Start,
                bold: false,
                face: crate::page::Typeface::Sans,
                color: Rgb::BLACK,
                rotated: if rotated {
                    crate::draw::Rotation::Down
                } else {
                    crate::draw::Rotation::Across
                },
            }),
        };
        spined
            .items
            .push(text(Pos::new(s.x + s.w / 2.0, s.y + 2.0), true));
        let c = run(&spined, wrap, 26);
        assert!(!c.ok && c.text.contains("79"), "{}", c.text);
        // 79 pages on white paper: a 0.178 in spine holds 4 pt at most, so no text, and the
        // passed check says why; 90 pages hold 6 pt
        let thin = Wrap {
            spine: 79.0 * 0.002252 * inch,
            ..wrap
        };
        assert!(thin.spine_text_size().is_none() && !thin.spine_holds_text(79));
        let held = Wrap {
            spine: 90.0 * 0.002252 * inch,
            ..wrap
        };
        let size = held.spine_text_size().unwrap() * 72.0 / inch;
        assert!((6.0..6.3).contains(&size), "{size}");
        assert!(held.spine_holds_text(90));
        assert!(
            !Wrap {
                spine: 89.0 * 0.002252 * inch,
                ..wrap
            }
            .spine_holds_text(89)
        );
        let d79 = crate::draw::cover(&crate::draw::Cover {
            wrap: thin,
            spine_text: true,
            ..cover.clone()
        })
        .unwrap();
        let pdf79 = crate::export::pdf::pdf(&[&d79], "Mazes");
        let check = cover_check(&CoverSubject {
            drawing: &d79,
            wrap: thin,
            pages: 79,
            pdf: &pdf79,
        });
        assert!(
            check.ok && check.text.contains("no text: under 6 pt"),
            "{}",
            check.text
        );
        // spine text under 6 pt is refused
        let mut small = d79.clone();
        let st = thin.spine_safe();
        small.items.push(text(Pos::new(st.x, st.y + 2.0), true));
        let check = cover_check(&CoverSubject {
            drawing: &small,
            wrap: thin,
            pages: 79,
            pdf: &pdf79,
        });
        assert!(
            !check.ok && check.text.contains("under 6 pt"),
            "{}",
            check.text
        );
        let f: Area = wrap.front();
        let mut off = d.clone();
        off.items.push(text(Pos::new(f.x + 1.0, f.y + 20.0), false));
        let c = run(&off, wrap, 26);
        assert!(!c.ok && c.text.contains("safe area"), "{}", c.text);
    }

    #[test]
    fn kdps_page_limits_by_trim_paper_and_ink() {
        use PaperInk::*;
        let inch = |w: f64, h: f64| Some((w * MM_PER_INCH, h * MM_PER_INCH));
        let range = |trim, paper| {
            let l = page_limits(trim, paper);
            (l.min, l.max)
        };
        // black ink: 828 / 776 on most trims, less on the big and the wide ones
        assert_eq!(range(inch(6.0, 9.0), White), (24, 828));
        assert_eq!(range(inch(6.0, 9.0), Cream), (24, 776));
        assert_eq!(range(None, Cream), (24, 776));
        assert_eq!(range(inch(8.5, 11.0), White), (24, 590));
        assert_eq!(range(inch(8.5, 11.0), Cream), (24, 550));
        assert_eq!(range(inch(8.5, 8.5), Cream), (24, 550));
        // a landscape 11 x 8.5 book is held to the 8.5 x 11 row
        assert_eq!(range(inch(11.0, 8.5), White), (24, 590));
        assert_eq!(range(inch(8.25, 6.0), White), (24, 800));
        assert_eq!(range(inch(8.25, 8.25), Cream), (24, 750));
        // A4 as the book's trim names it (210 x 297 mm)
        assert_eq!(range(Some((210.0, 297.0)), White), (24, 780));
        assert_eq!(range(Some((210.0, 297.0)), Cream), (24, 730));
        // colour
        assert_eq!(range(inch(6.0, 9.0), StandardColor), (72, 600));
        assert_eq!(range(inch(8.5, 11.0), StandardColor), (72, 600));
        assert_eq!(range(inch(6.0, 9.0), PremiumColor), (24, 828));
        assert_eq!(range(inch(8.5, 11.0), PremiumColor), (24, 590));
        assert_eq!(range(Some((210.0, 297.0)), PremiumColor), (24, 590));
        // every paper has a row for every trim
        for paper in [White, Cream, StandardColor, PremiumColor] {
            assert!(
                KDP_PAGE_LIMITS
                    .iter()
                    .any(|r| r.paper == paper && r.trims.is_empty())
            );
        }
        // the check: a WARN naming the limit, the trim and the paper
        let print = |w, h, paper| {
            Some(Print {
                trim_mm: (w * MM_PER_INCH, h * MM_PER_INCH),
                paper,
            })
        };
        let c = pages_check(800, print(8.5, 11.0, Some(Cream)));
        assert!(!c.ok);
        assert_eq!(
            c.text,
            "800 pages; KDP prints at most 550 on 8.5 x 11 in cream paper: split the book"
        );
        let c = pages_check(560, print(8.5, 11.0, Some(White)));
        assert!(c.ok, "{}", c.text);
        let c = pages_check(20, print(6.0, 9.0, Some(White)));
        assert!(
            !c.ok && c.text.contains("at least 24 on 6 x 9 in white paper"),
            "{}",
            c.text
        );
        // premium colour prints 50 pages, standard colour does not: said, not warned
        let c = pages_check(50, print(6.0, 9.0, Some(PremiumColor)));
        assert!(
            c.ok && c.text.contains("standard colour prints 72 to 600"),
            "{}",
            c.text
        );
        let c = pages_check(600, print(8.5, 11.0, Some(PremiumColor)));
        assert!(!c.ok && c.text.contains("at most 590"), "{}", c.text);
        // no paper named: white, and said
        let c = pages_check(800, print(6.0, 9.0, None));
        assert!(c.ok && c.text.contains("names no paper"), "{}", c.text);
    }

    #[test]
    fn every_warning_is_a_problem_and_the_block_keeps_every_problem() {
        let blank = Drawing {
            width: 100.0,
            height: 100.0,
            trim: crate::draw::Area {
                x: 0.0,
                y: 0.0,
                w: 100.0,
                h: 100.0,
            },
            items: Vec::new(),
        };
        let warnings = [
            "Puzzle 126: the START label overlaps the maze".to_string(),
            "Puzzle 3: 1 cells of the shape dropped".to_string(),
        ];
        let run = |warnings: &[String], fonts: Fonts| {
            check(&Subject {
                pages: vec![Page::new(&blank, Binding::Loose)],
                fonts,
                corridor: None,
                book_pages: Some(30),
                print: None,
                cover: None,
                warnings,
            })
        };
        let clean = run(&[], Fonts::Embedded);
        assert!(clean.is_clean(), "{}", clean.block());
        assert!(clean.status().starts_with("preflight: ok"));
        let r = run(&warnings[..1], Fonts::Embedded);
        assert!(!r.is_clean());
        assert_eq!(r.status(), "preflight: 1 problem (warnings)");
        assert_eq!(
            r.problems_line(),
            "warnings: 1 warning: Puzzle 126: the START label overlaps the maze"
        );
        let r = run(&warnings, Fonts::NotEmbedded(vec!["Helvetica".into()]));
        assert!(
            r.problems_line().contains("2 warnings: Puzzle 126")
                && r.problems_line().contains("(and 1 more)")
        );
        // more checks than the block has lines: passed ones are left out, problems never
        let mut many = r.clone();
        for _ in 0..10 {
            many.checks.insert(1, ok("lines", "fine".into()));
        }
        let block = many.block();
        assert_eq!(block.lines().count(), MAX_LINES, "{block}");
        assert!(
            block.contains("WARN fonts") && block.contains("WARN warnings"),
            "{block}"
        );
    }

    #[test]
    fn the_gutter_table() {
        let inch = |mm: f64| mm / MM_PER_INCH;
        assert!((inch(gutter_for_pages(24)) - 0.375).abs() < 1e-12);
        assert!((inch(gutter_for_pages(150)) - 0.375).abs() < 1e-12);
        assert!((inch(gutter_for_pages(151)) - 0.5).abs() < 1e-12);
        assert!((inch(gutter_for_pages(500)) - 0.625).abs() < 1e-12);
        assert!((inch(gutter_for_pages(700)) - 0.75).abs() < 1e-12);
        assert!((inch(gutter_for_pages(828)) - 0.875).abs() < 1e-12);
        assert!((MIN_LINE_MM - 0.2646).abs() < 1e-4);
    }

    /// Content exactly at the margin passes, whatever single-precision points make of it (a
    /// 150-puzzle book's answer page measured 12.69999 mm against 0.5 in and was told to
    /// "raise gutter_mm by 0.1"); a hundredth of a millimetre short still fails.
    #[test]
    fn a_margin_met_to_single_precision_passes() {
        let half_inch = 0.5 * MM_PER_INCH;
        let f32_gap = f64::from((half_inch as f32) - 1.5e-5);
        assert!(f32_gap < half_inch);
        assert!(gutter_check(188, f32_gap, 169).ok);
        assert!(!gutter_check(188, half_inch - 0.01, 169).ok);
        assert!(safe_area_check(SAFE_MARGIN_MM - 1e-5, 3, "outer").ok);
        assert!(!safe_area_check(SAFE_MARGIN_MM - 0.01, 3, "outer").ok);
    }

    #[test]
    fn base_14_fonts_are_not_embedded_and_font_files_are() {
        use lopdf::{Document, Object, Stream, dictionary};
        let make = |embed: bool| {
            let mut doc = Document::with_version("1.5");
            let mut font = dictionary! {
                "Type" => "Font", "Subtype" => "TrueType", "BaseFont" => "Helvetica",
            };
            if embed {
                let file = doc.add_object(Stream::new(dictionary! {}, vec![0u8; 4]));
                let fd = doc.add_object(dictionary! {
                    "Type" => "FontDescriptor", "FontFile2" => Object::Reference(file),
                });
                font.set("FontDescriptor", Object::Reference(fd));
            }
            doc.add_object(font);
            let mut bytes = Vec::new();
            doc.save_to(&mut bytes).unwrap();
            bytes
        };
        assert_eq!(
            pdf_fonts(&make(false)),
            Fonts::NotEmbedded(vec!["Helvetica".into()])
        );
        assert_eq!(pdf_fonts(&make(true)), Fonts::Embedded);
    }
}
