//! Where a maze's grid size is decided: the one rule the command line, the editor and books
//! follow.
//!
//! A design's grid is `width` x `height` cells (rings for polar, whose height is unused). It
//! comes from one of three places:
//! - **Given**: the design's own width and height (flags, a design file, a book page's
//!   `width`/`height`, the editor's knobs).
//! - **A shape's aspect ratio** ([`shape_grid`]): the width given, the height the one that keeps
//!   the silhouette's proportions ([`crate::shape::fitted_height`]). With a limit (a preset's
//!   grid, below) a shape taller than the limit gets fewer cells across instead, so the
//!   corridors keep their width. The command line fits the height when no height is given
//!   (and a design file's height is kept unless a width or shape is given too); the editor
//!   when the height is locked to the width; a book for a generator page without `height`.
//! - **A reader preset** ([`page_grid`]): the largest full grid whose corridors are the
//!   preset's width on the page, found by asking the page layout. With a shape
//!   ([`preset_grid`]) that grid is the limit for the shape's fitted grid, and a page of
//!   [`Orientation::Auto`] takes whichever of the portrait and the landscape page's grids
//!   holds more cells. The command line and the editor use it for `--difficulty` without
//!   `--width`; a book for a generator page with a `difficulty` and no size, on the book's
//!   page (the book turns a wide shape rather than the page).
//!
//! Nothing else sizes a grid: [`crate::make::prepare`] applies [`shape_grid`] for a
//! [`crate::make::Fit`], and the callers above pick the rule.

use std::sync::Arc;

use crate::design::Design;
use crate::design::{Kind, Walls};
use crate::difficulty::Preset;
use crate::draw;
use crate::endpoints::Endpoint;
use crate::error::{Error, ErrorKind, Result};
use crate::grid::Grid;
use crate::maze::Maze;
use crate::metrics::Metrics;
use crate::page::{Orientation, PageSetup};
use crate::pipeline::Generated;
use crate::shape::{Foreground, fitted_height};
use crate::topology::{Topology, TopologyKind};

/// How much wider than the preset's corridor the probe layouts must leave the corridors (see
/// [`page_grid`]).
const PROBE_MARGIN: f64 = 1.05;

/// The most cells (or rings) across or down a preset makes.
const MAX_CELLS: u32 = 2000;

/// The grid a shape `fg` gets at `width` cells across with its height fitted to its aspect
/// ratio ([`fitted_height`]), and, when that height exceeds `limit`'s, fewer cells across so it
/// fits (polar grids are left as they are).
pub fn shape_grid(
    kind: TopologyKind,
    width: u32,
    fg: &Foreground,
    limit: Option<(u32, u32)>,
) -> Result<(u32, u32)> {
    let height = fitted_height(kind, width, fg)?;
    if let Some((w, h)) = limit
        && height > h
        && kind.uses_height()
    {
        let narrower = ((u64::from(w) * u64::from(h) / u64::from(height)) as u32).max(2);
        return Ok((narrower, fitted_height(kind, narrower, fg)?));
    }
    Ok((width, height))
}

/// The largest grid of `kind` whose corridors are at least [`Preset::corridor_mm`] wide on the
/// page `setup` describes, as the page layout ([`draw::layout`]) places it: walls of
/// `setup.wall_mm`, the title, name line and page number the setup asks for, and room for the
/// START and FINISH labels (at the preset's marker size) wherever on the outline they land.
/// `(width, height)`; for kinds without a height ([`TopologyKind::uses_height`]: polar) the
/// width (rings) twice. A page of [`Orientation::Auto`] is sized portrait (a full grid fills
/// either way; the page turns later only for a maze that gains by it).
pub fn page_grid(preset: &Preset, kind: TopologyKind, setup: &PageSetup) -> (u32, u32) {
    let setup = &PageSetup {
        markers: preset.markers,
        ..setup.oriented(Orientation::Portrait)
    };
    let fits = |w: u32, h: u32| fits_page(preset, kind, w, h, setup);
    if !kind.uses_height() {
        // rings: the disc must fit both ways
        let w = largest(|w| fits(w, w));
        return (w, w);
    }
    // the cells across that fit a square grid (a strip of two rows can take more: its labels
    // fit beside it, where a taller grid's need the width), then the rows that fit below them
    let w = largest(|w| fits(w, square_rows(kind, w)));
    (w, largest(|h| fits(w, h)))
}

/// Whether a full `kind` grid `w` x `h` keeps `preset`'s corridor width on the page `setup`
/// (with the preset's markers). The probes put the labels at the outline's extreme sides;
/// openings between them can take a little more room (a label beside its arrow near a
/// corner): [`PROBE_MARGIN`] covers it.
fn fits_page(preset: &Preset, kind: TopologyKind, w: u32, h: u32, setup: &PageSetup) -> bool {
    corridor_on_page(kind, w, h, setup)
        .is_some_and(|c| c >= preset.corridor_mm * PROBE_MARGIN - 1e-9)
}

/// The grid a preset gives the shape `fg` on the page `setup` (an [`Orientation::Auto`] page
/// sized portrait): the [`page_grid`], except for a text (a name), a line of letters whose
/// page is the width of the line: the largest grid of `kind` with its aspect ratio
/// ([`fitted_height`]) whose corridors keep the preset's width, when that is wider than the
/// [`page_grid`]'s fit. The square probe of [`page_grid`] gives a name only as many cells
/// across as the page has rows: on a landscape Letter page at ages 3-5 "Oliver" got 10 cells
/// across, then 14 grown, where the page holds 16; on hex at ages 6-8 21 cells where it now
/// gets 38. (Built-in shapes near the page's proportions keep the square probe's grid, sized
/// with room to spare for the labels wherever the search puts the openings.)
fn shape_page_grid(
    preset: &Preset,
    kind: TopologyKind,
    setup: &PageSetup,
    fg: &Foreground,
) -> Result<(u32, u32)> {
    let square = page_grid(preset, kind, setup);
    if !kind.uses_height() || !fg.has_text() {
        return Ok(square);
    }
    let aspect = aspect_grid(preset, kind, setup, fg)?;
    let fitted = shape_grid(kind, square.0, fg, Some(square))?;
    Ok(if aspect.0 > fitted.0 { aspect } else { square })
}

/// The largest grid of `kind` with the shape `fg`'s aspect ratio ([`fitted_height`]) whose
/// corridors keep `preset`'s width on the page `setup` (an [`Orientation::Auto`] page sized
/// portrait), with the preset's markers: a name's line, or a wide animal on a page turned with
/// it ([`PageSetup::turned`]), takes the page's length.
pub fn aspect_grid(
    preset: &Preset,
    kind: TopologyKind,
    setup: &PageSetup,
    fg: &Foreground,
) -> Result<(u32, u32)> {
    let setup = &PageSetup {
        markers: preset.markers,
        ..setup.oriented(Orientation::Portrait)
    };
    let w =
        largest(|w| fitted_height(kind, w, fg).is_ok_and(|h| fits_page(preset, kind, w, h, setup)));
    Ok((w, fitted_height(kind, w, fg)?))
}

/// The grid a reader preset gives a design of `kind` on the page `setup`: [`page_grid`]
/// without a shape; with the silhouette `fg`, the preset's width with the height that keeps the
/// shape's aspect ratio, and fewer cells across when that height would not fit the page (so
/// the corridors keep their width: [`shape_grid`] within [`page_grid`]). Polar grids have no
/// aspect ratio: their rings are the page grid's. On a page of [`Orientation::Auto`] the grid
/// is the larger of the portrait and the landscape page's (a wide shape gets a landscape
/// page's cells, and the layout turns the page for it).
pub fn preset_grid(
    preset: &Preset,
    kind: TopologyKind,
    setup: &PageSetup,
    fg: Option<&Foreground>,
) -> Result<(u32, u32)> {
    let Some(fg) = fg else {
        return Ok(page_grid(preset, kind, setup));
    };
    let limit = preset_limit(preset, kind, setup, fg)?;
    shape_grid(kind, limit.0, fg, Some(limit))
}

/// The limit [`preset_grid`] fits the shape `fg` within: the [`page_grid`] of `setup`, or on a
/// page of [`Orientation::Auto`] of whichever orientation gives the shape more cells.
pub fn preset_limit(
    preset: &Preset,
    kind: TopologyKind,
    setup: &PageSetup,
    fg: &Foreground,
) -> Result<(u32, u32)> {
    if setup.orientation != Orientation::Auto {
        return shape_page_grid(preset, kind, setup, fg);
    }
    let cells = |limit: (u32, u32)| -> Result<u64> {
        let (w, h) = shape_grid(kind, limit.0, fg, Some(limit))?;
        Ok(u64::from(w) * u64::from(h))
    };
    let p = shape_page_grid(preset, kind, &setup.oriented(Orientation::Portrait), fg)?;
    let l = shape_page_grid(preset, kind, &setup.oriented(Orientation::Landscape), fg)?;
    Ok(if cells(l)? > cells(p)? { l } else { p })
}

/// The rows that make a `kind` grid `w` across about as tall as it is wide (at least 2).
fn square_rows(kind: TopologyKind, w: u32) -> u32 {
    let extent = |h: u32| Topology::new(kind, w, h).map(|t| t.tess().extent());
    let (Ok((w1, h1)), Ok((_, h2))) = (extent(1), extent(2)) else {
        return 2;
    };
    // the extent's height is a + b * rows for every topology
    let b = (h2 - h1).max(1e-9);
    let rows = ((w1 - (h1 - b)) / b).round();
    rows.clamp(2.0, f64::from(MAX_CELLS)) as u32
}

/// The largest `n` in `2..=MAX_CELLS` for which `fits(n)` holds, or 2 when none does, for a
/// `fits` that holds up to some size and not beyond: doubling steps, then halving the gap.
fn largest(fits: impl Fn(u32) -> bool) -> u32 {
    let (mut lo, mut step) = (2u32, 1u32);
    let mut hi = loop {
        let next = lo + step;
        if next > MAX_CELLS || !fits(next) {
            break next.min(MAX_CELLS + 1);
        }
        lo = next;
        step *= 2;
    };
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if fits(mid) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    lo
}

/// The clear corridor width, in millimetres, the page layout gives a full `kind` grid `w` x `h`
/// on `setup` with its entrance and exit where their labels need the most room (the search
/// may move them anywhere on the outline): on opposite outer sides, facing most nearly left and
/// right (both labels beside the maze), up and down (above and below it), or towards opposite
/// corners, the narrowest of these. `None` when the grid cannot be made or the page leaves it
/// no room.
fn corridor_on_page(kind: TopologyKind, w: u32, h: u32, setup: &PageSetup) -> Option<f64> {
    let grid = Arc::new(Grid::new(Topology::new(kind, w, h).ok()?, None).ok()?);
    let sides = label_sides(&grid)?;
    let mut probe = Generated {
        design: Design {
            kind: Kind::Walls(Walls {
                topology: kind,
                ..Walls::DEFAULT
            }),
            width: w,
            height: h,
            ..Design::default()
        },
        seed: 0,
        maze: Maze::new(grid),
        entrance: sides[0],
        exit: sides[1],
        starts: Vec::new(),
        solution: Vec::new(),
        metrics: Metrics::default(),
        algorithm_used: "",
        braid_skipped: false,
        dropped_cells: 0,
        added_cells: 0,
        outline: None,
        items: Vec::new(),
        reveal: None,
    };
    let mut narrowest = f64::INFINITY;
    for pair in sides.chunks(2) {
        (probe.entrance, probe.exit) = (pair[0], pair[1]);
        narrowest = narrowest.min(draw::layout(&probe, setup).ok()?.corridor_mm);
    }
    Some(narrowest)
}

/// The outer sides of `grid` facing most nearly left and right, up and down, up-left and
/// down-right, up-right and down-left (by the direction from the cell's centre to the side's
/// midpoint), in opposite pairs.
fn label_sides(grid: &Grid) -> Option<[Endpoint; 8]> {
    const D: f64 = std::f64::consts::FRAC_1_SQRT_2;
    const TOWARDS: [(f64, f64); 8] = [
        (-1.0, 0.0),
        (1.0, 0.0),
        (0.0, -1.0),
        (0.0, 1.0),
        (-D, -D),
        (D, D),
        (D, -D),
        (-D, D),
    ];
    let mut sides = Vec::new();
    let mut best: [Option<(f64, Endpoint)>; 8] = [None; 8];
    for cell in grid.cells() {
        sides.clear();
        grid.sides(cell, &mut sides);
        let c = grid.center(cell);
        for (side, s) in sides.iter().enumerate() {
            if s.neighbour.is_some() {
                continue;
            }
            let (dx, dy) = ((s.a.x + s.b.x) / 2.0 - c.x, (s.a.y + s.b.y) / 2.0 - c.y);
            let len = dx.hypot(dy);
            if len <= 0.0 {
                continue;
            }
            let e = Endpoint { cell, side };
            let (x, y) = (dx / len, dy / len);
            for (k, (tx, ty)) in TOWARDS.into_iter().enumerate() {
                let v = x * tx + y * ty;
                if best[k].is_none_or(|(b, _)| v > b + 1e-9) {
                    best[k] = Some((v, e));
                }
            }
        }
    }
    let mut out = [best[0]?.1; 8];
    for (o, b) in out.iter_mut().zip(best) {
        *o = b?.1;
    }
    Some(out)
}

/// A shape grown to the preset's limit ([`crate::make::prepare`]) that still leaves too few cells
/// (`e`, from the mask): the hint to try a larger width is wrong there (the corridors would go
/// under the age's width), so the error says what can change instead.
pub(crate) fn at_the_limit(
    e: Error,
    kind: TopologyKind,
    (width, most): (u32, u32),
    text: bool,
) -> Error {
    if e.kind != ErrorKind::EmptyMask {
        return e;
    }
    let what = if text {
        "a shorter text"
    } else {
        "another shape"
    };
    let cut = e.message.split("; try").next().unwrap_or(&e.message);
    Error::new(
        e.kind,
        format!(
            "{cut}: the page holds at most {} {} across at the preset's corridor width; use \
             larger paper, {what} or the preset for older children",
            width.max(most),
            if kind.uses_height() { "cells" } else { "rings" }
        ),
    )
}

/// The fewest cells a preset-sized shape of `design` grows to ([`crate::make::prepare`]): the fewest cells
/// its targets ask for, or [`CELLS_PER_DECISION`] for each decision point they ask for (in
/// each entrance's part of a "Which path?" puzzle: the real way crosses only its own),
/// whichever is more.
pub fn cells_wanted(design: &Design) -> f64 {
    let targets = &design.targets;
    let cells = targets.cells.and_then(|r| r.min).unwrap_or(0.0);
    let decisions = targets.decisions.and_then(|r| r.min).unwrap_or(0.0);
    let parts = match &design.kind {
        Kind::Walls(w) => f64::from(w.starts.max(1)),
        Kind::Tiles(_) => 1.0,
    };
    cells.max(decisions * CELLS_PER_DECISION * parts)
}

/// The cells a shaped maze needs for each decision point its targets ask for on the way
/// through ([`crate::targets::Targets::decisions`]), for [`crate::make::prepare`]'s growth: a name
/// or a thin animal is mostly one corridor, and a search finds the decision points an age
/// needs once the shape holds about this many cells for each ("Emma" at ages 6-8, whose 4
/// decision points and level band a search met: at 48 cells for no seed, at 69 cells for 3
/// seeds of 8, at 74 cells for 5 of 5).
pub const CELLS_PER_DECISION: f64 = 18.0;
