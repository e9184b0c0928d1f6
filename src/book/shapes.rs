//! A book's shapes: each picture loaded once and cut once for each way its pages cut it
//! ([`load_shapes`], into the [`ShapeCache`] the puzzles share), and the design a puzzle is
//! made from: its page turned with its upright shape when the shape would print much smaller
//! on an upright page ([`PAGE_TURN_BELOW`]), its height fitted to the shape
//! ([`fitted_design`]).

use std::collections::BTreeSet;
use std::sync::Arc;

use super::ramp::Slope;
use super::{Book, PuzzleSpec, Settings};
use crate::design::{Design, Turn};
use crate::draw::{self, Area};
use crate::error::{Error, Result};
use crate::load::Loader;
use crate::make::{Cutting, Fit, ShapeCache, load_foreground};
use crate::page::PageSetup;
use crate::shape::{Foreground, ShapeSource};

/// `d`'s shape as the book cut it (its picture, cut, pick and turn), when it has one.
pub(super) fn cut_shape(shapes: &ShapeCache, d: &Design) -> Option<Arc<Foreground>> {
    shapes.get(d.shape.as_ref()?, &Cutting::of(d))
}

/// The share of the page-turned maze's measure ([`page_turned`]) under which a book turns a
/// page with its shape: an upright dog that keeps 70 % or more of what it gets on a turned
/// page stays on an upright page (smaller); under that, the whole page turns.
pub const PAGE_TURN_BELOW: f64 = 0.7;

/// `spec`'s design as the book makes it, and the size limit it is fitted within: with its page
/// turned or not ([`page_turned`]); a page the book turns with a preset's size gets the turned
/// page's grid ([`PuzzleSpec::turn_preset`]).
pub(super) fn settled(
    spec: &PuzzleSpec,
    settings: &Settings,
    shape: &dyn Fn() -> Result<Option<Arc<Foreground>>>,
) -> Result<(Design, Option<(u32, u32)>)> {
    let mut d = spec.design.clone();
    match page_turned(spec, settings, shape)? {
        None => Ok((d, spec.size_limit)),
        Some((width, limit)) => {
            d.turn = Turn::Page;
            d.width = width;
            Ok((d, limit))
        }
    }
}

/// The fewest cells across the grid a shape's aspect ratio is read on ([`page_turned`]).
const ASPECT_CELLS: u32 = 40;

/// A grid's width and the size limit it is fitted within.
type Sizing = (u32, Option<(u32, u32)>);

/// Whether `spec`'s page is turned with its shape ([`Turn::Page`]), and if so the width and
/// size limit its grid is fitted with: as its design says, or, for a generator page that
/// leaves it to the book ([`PuzzleSpec::auto_turn`]), when the upright shape on an upright page
/// measures under [`PAGE_TURN_BELOW`] of the upright shape on a turned page (the shape alone is
/// never turned but when asked). The measure: with a preset's size limit (the corridor width
/// fixed), the fitted grid's cells (upright, [`crate::sizing::shape_grid`] within the page's
/// limit; turned, the largest grid of the shape's aspect that keeps the preset's corridor on
/// the turned page, [`crate::sizing::aspect_grid`]); without, the maze's printed area (its
/// grid's box scaled to fit the room the layout leaves it, [`draw::maze_room`]: the cells are
/// the same, the corridors wider). `shape()` is the page's shape as cut.
fn page_turned(
    spec: &PuzzleSpec,
    settings: &Settings,
    shape: &dyn Fn() -> Result<Option<Arc<Foreground>>>,
) -> Result<Option<Sizing>> {
    let d = &spec.design;
    let kind = d.grid_topology();
    let given = (d.width, spec.size_limit);
    if !spec.auto_turn || !spec.fit_height || !kind.uses_height() {
        return Ok(d.turn.turns_page().then_some(given));
    }
    let Some(fg) = shape()? else {
        return Ok(None);
    };
    let setup = settings.page_setup(1, Some(settings.label_for(1)));
    let turned_setup = PageSetup {
        turned: true,
        ..setup.clone()
    };
    let turned = match &spec.turn_preset {
        Some(p) => {
            let limit = crate::sizing::aspect_grid(p, d.walls().topology, &turned_setup, &fg)?;
            (limit.0, Some(limit))
        }
        None => given,
    };
    // each way: the grid's width and limit, and the room the page leaves the maze
    let ways = [
        (given, draw::maze_room(&setup)),
        (turned, draw::maze_room(&turned_setup)),
    ];
    let grid =
        |((width, limit), _): &(Sizing, Area)| crate::sizing::shape_grid(kind, *width, &fg, *limit);
    let cells = |w: &(Sizing, Area)| -> Result<f64> {
        let (w, h) = grid(w)?;
        Ok(f64::from(w) * f64::from(h))
    };
    let area = |w: &(Sizing, Area)| -> Result<f64> {
        let (gw, gh) = grid(w)?;
        let (x0, y0, x1, y1) = crate::topology::Topology::new(kind, gw, gh)?
            .tess()
            .covered();
        let (bw, bh) = ((x1 - x0).max(1e-9), (y1 - y0).max(1e-9));
        let room = w.1;
        let scale = (room.w / bw).min(room.h / bh);
        Ok(scale * scale * bw * bh)
    };
    // with the corridor fixed, the grid with more cells; but a shape with too few cells for
    // the preset either way is grown to its fewest cells ([`crate::make::prepare`]), and then
    // the maze that prints larger
    let fewest = crate::sizing::cells_wanted(d);
    let by_cells = spec.size_limit.is_some() && cells(&ways[0])?.max(cells(&ways[1])?) >= fewest;
    let measure = |w| if by_cells { cells(w) } else { area(w) };
    // the shape's lie is read on a grid fine enough to show it (a dog 6 cells across rounds
    // to 6 x 5, as square as a cat): only a shape lying across its page turns it
    let (w, h) = crate::sizing::shape_grid(kind, d.width.max(ASPECT_CELLS), &fg, None)?;
    let (x0, y0, x1, y1) = crate::topology::Topology::new(kind, w, h)?.tess().covered();
    let (a, p) = ((x1 - x0) / (y1 - y0), ways[0].1.w / ways[0].1.h);
    let across = (a > 1.0 && p < 1.0) || (a < 1.0 && p > 1.0);
    let turn = across && measure(&ways[0])? < PAGE_TURN_BELOW * measure(&ways[1])?;
    Ok(turn.then_some(turned))
}

/// Loads a design's shape picture through `loader` and cuts its foreground; errors name the file.
pub(super) fn foreground(design: &Design, loader: &dyn Loader) -> Result<Option<Arc<Foreground>>> {
    Ok(load_foreground(design, loader, None)?.map(|(fg, _)| Arc::new(fg)))
}

/// Loads every shape the book's puzzles use, once each; an error names the first page entry
/// that uses the shape (and, for a name that is no built-in shape and has no extension, says
/// that it is neither).
pub(super) fn load_shapes(book: &Book, loader: &dyn Loader) -> Result<ShapeCache> {
    // each shape and cut once, with the first page entry that asks for it
    let mut wanted: Vec<(ShapeSource, Cutting)> = Vec::new();
    let mut first: Vec<&PuzzleSpec> = Vec::new();
    for p in &book.puzzles {
        let Some(source) = &p.design.shape else {
            continue;
        };
        // a page whose turn the book decides keeps its shape upright, its page turned or not
        let how = Cutting::of(&p.design);
        if !wanted.iter().any(|(s, h)| s == source && *h == how) {
            wanted.push((source.clone(), how));
            first.push(p);
        }
    }
    let mut shapes = ShapeCache::default();
    for (cut, p) in shapes.cut_all(loader, &wanted).into_iter().zip(first) {
        cut.map_err(|e| named_entry(e, p))?;
    }
    Ok(shapes)
}

/// `e` (loading `p`'s shape) with `p`'s page entry before it.
fn named_entry(e: Error, p: &PuzzleSpec) -> Error {
    let hint = match &p.design.shape {
        Some(ShapeSource::File(path)) if path.extension().is_none() => format!(
            "'{}' is no built-in shape ({}) and ",
            path.file_name().unwrap_or_default().to_string_lossy(),
            crate::shape::builtin::list()
        ),
        _ => String::new(),
    };
    // the path stays last
    Error::new(e.kind, format!("{}: {hint}{}", p.source, e.message))
}

/// The design a puzzle of the book is made from, on its own: `spec.design` with, when
/// `spec.fit_height`, the height fitted to its shape as [`build`](fn@super::build) fits it (the
/// design the manifest records). File shapes are read from the recorded paths through `loader`.
pub fn fitted_design(
    spec: &PuzzleSpec,
    settings: &Settings,
    loader: &dyn Loader,
) -> Result<Design> {
    let shape = || foreground(&spec.design, loader);
    let (mut d, limit) = settled(spec, settings, &shape)?;
    if spec.fit_height
        && let Some(fg) = foreground(&d, loader)?
    {
        (d.width, d.height) = crate::sizing::shape_grid(d.grid_topology(), d.width, &fg, limit)?;
    }
    Ok(d)
}

/// The design `spec` is made from in `settings`' book, its shape as the book cut it (from
/// `shapes`), and how its size is fitted to the shape: what [`super::puzzle`] makes, and what
/// [`varied`] sizes.
pub(super) fn made_from(
    spec: &PuzzleSpec,
    settings: &Settings,
    shapes: &ShapeCache,
) -> Result<(Design, Option<Arc<Foreground>>, Fit)> {
    let shape = || -> Result<Option<Arc<Foreground>>> { Ok(cut_shape(shapes, &spec.design)) };
    let (design, size_limit) = settled(spec, settings, &shape)?;
    let cut = cut_shape(shapes, &design);
    let fit = Fit {
        height: spec.fit_height,
        size_limit,
    };
    Ok((design, cut, fit))
}

/// What two puzzles must not share: the shape (as [`super::shape_key`] names it), its turn,
/// and the grid it is made on.
type Grid = (String, Turn, u32, u32);

/// The grid `spec`'s maze is made on in `settings`' book (its size fitted to its shape, as
/// [`crate::make::prepare_with`] fits it), with its shape; `None` without a shape, or when it
/// cannot be made (the making says why).
fn grid_of(spec: &PuzzleSpec, settings: &Settings, shapes: &ShapeCache) -> Option<Grid> {
    spec.design.shape.as_ref()?;
    let (design, fg, fit) = made_from(spec, settings, shapes).ok()?;
    let prepared = crate::make::prepare_with(&design, fg, fit).ok()?;
    let d = prepared.design();
    Some((super::shape_key(d), d.turn, d.width, d.height))
}

/// The most cells across a book moves a generator's page to keep its shape from repeating at
/// one grid size ([`varied`]).
const VARY_CELLS: i64 = 6;

/// `spec` made `delta` cells wider (its height, and a preset's size limit, in proportion); `None`
/// when that is not a size a design may have.
fn resized(spec: &PuzzleSpec, delta: i64) -> Option<PuzzleSpec> {
    let w0 = i64::from(spec.design.width);
    let w = w0 + delta;
    if !(2..=1000).contains(&w) {
        return None;
    }
    let scaled = |n: u32| ((f64::from(n) * w as f64 / w0 as f64).round() as u32).clamp(2, 1000);
    let mut p = spec.clone();
    p.design.width = w as u32;
    if !p.fit_height {
        p.design.height = scaled(p.design.height);
    }
    p.size_limit = spec.size_limit.map(|(lw, lh)| {
        let lw2 = (i64::from(lw) + delta).clamp(2, 1000) as u32;
        let lh2 = ((f64::from(lh) * f64::from(lw2) / f64::from(lw)).round() as u32).clamp(2, 1000);
        (lw2, lh2)
    });
    Some(p)
}

/// `book`'s puzzles, a generator's pages resized where they would repeat a shape at a grid
/// size another puzzle of the book has (the same outline at the same size: a generator taking
/// three shapes in turn over a preset's pages, or a ramp that grows slower than the shapes
/// come round): each such page is made the nearest number of cells across, up to
/// [`VARY_CELLS`], that gives a grid no puzzle before it has, larger first along a ramp that
/// gets harder, smaller first along one that gets easier ([`Slope`]). A single page (a design
/// the book file gives) is never changed, and keeps its size.
pub(super) fn varied(book: &Book, shapes: &ShapeCache) -> Vec<PuzzleSpec> {
    use rayon::prelude::*;
    let s = &book.settings;
    let grids: Vec<Option<Grid>> = book
        .puzzles
        .par_iter()
        .map(|p| grid_of(p, s, shapes))
        .collect();
    let generated = |p: &PuzzleSpec| p.source.contains('#');
    let mut taken: BTreeSet<Grid> = book
        .puzzles
        .iter()
        .zip(&grids)
        .filter(|(p, _)| !generated(p))
        .filter_map(|(_, g)| g.clone())
        .collect();
    let mut out = book.puzzles.clone();
    for (i, p) in book.puzzles.iter().enumerate() {
        let Some(grid) = grids[i].clone().filter(|_| generated(p)) else {
            continue;
        };
        if taken.insert(grid) {
            continue;
        }
        let first = if p.slope == Some(Slope::Easier) {
            -1
        } else {
            1
        };
        let steps = (1..=VARY_CELLS).flat_map(|k| [first * k, -first * k]);
        for q in steps.filter_map(|delta| resized(p, delta)) {
            if let Some(g) = grid_of(&q, s, shapes)
                && taken.insert(g)
            {
                out[i] = q;
                break;
            }
        }
    }
    out
}
