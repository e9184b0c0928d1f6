//! A book's shapes: each picture loaded once and cut once for each way its pages cut it
//! ([`load_shapes`], into the [`ShapeCache`] the puzzles share), and the design a puzzle is
//! made from: its shape turned a quarter turn when that covers more of the page, its height
//! fitted to the shape ([`fitted_design`]).

use std::collections::BTreeSet;
use std::sync::Arc;

use super::ramp::Slope;
use super::{Book, PuzzleSpec, Settings};
use crate::design::Design;
use crate::draw;
use crate::error::{Error, Result};
use crate::load::Loader;
use crate::make::{Cutting, Fit, ShapeCache, load_foreground};
use crate::shape::{Foreground, ShapeSource};

/// `d`'s shape as the book cut it (its picture, cut, pick and turn), when it has one.
pub(super) fn cut_shape(shapes: &ShapeCache, d: &Design) -> Option<Arc<Foreground>> {
    shapes.get(d.shape.as_ref()?, &Cutting::of(d))
}

/// How much more of the page a turned shape's maze must cover (by its grid's cells, or its
/// share of the maze's room) before a book turns it: a shape about as wide as tall stays as
/// drawn.
const TURN_GAIN: f64 = 1.1;

/// How much wider than tall (on a portrait page; taller than wide on a landscape one) a shape
/// must be before a book may turn it.
const CROSSWISE: f64 = 1.2;

/// `spec`'s design as the book makes it: turned for its page or not ([`turned`]).
pub(super) fn settled(
    spec: &PuzzleSpec,
    settings: &Settings,
    shape: &dyn Fn(bool) -> Result<Option<Arc<Foreground>>>,
) -> Result<Design> {
    Ok(Design {
        turn: turned(spec, settings, shape)?,
        ..spec.design.clone()
    })
}

/// The fewest cells across the grid a shape's aspect ratio is read on ([`turned`]).
const ASPECT_CELLS: u32 = 40;

/// Whether `spec`'s shape is turned: for a generator page that leaves the turn to the book
/// ([`PuzzleSpec::auto_turn`]), when the shape turned a quarter turn covers more of the page.
/// With a preset's size limit (the corridor width fixed) the measure is the fitted grid's cells
/// ([`crate::sizing::shape_grid`]); without, the share of the room the layout leaves the maze
/// ([`draw::maze_room`]) that the fitted grid's box, scaled to fit it, covers. `shape(turn)` is
/// the page's shape cut (and turned, or not).
fn turned(
    spec: &PuzzleSpec,
    settings: &Settings,
    shape: &dyn Fn(bool) -> Result<Option<Arc<Foreground>>>,
) -> Result<bool> {
    let d = &spec.design;
    let kind = d.grid_topology();
    if !spec.auto_turn || !spec.fit_height || !kind.uses_height() {
        return Ok(d.turn);
    }
    let (Some(plain), Some(turned)) = (shape(false)?, shape(true)?) else {
        return Ok(d.turn);
    };
    let room = draw::maze_room(&settings.page_setup(1, Some(settings.label_for(1))));
    // the share of the room the fitted grid's box covers, scaled to fit it
    let coverage = |fg: &Foreground| -> Result<f64> {
        let (w, h) = crate::sizing::shape_grid(kind, d.width, fg, spec.size_limit)?;
        let (x0, y0, x1, y1) = crate::topology::Topology::new(kind, w, h)?.tess().covered();
        let (a, p) = ((x1 - x0) / (y1 - y0), room.w / room.h);
        Ok((a / p).min(p / a))
    };
    let cells = |fg: &Foreground| -> Result<f64> {
        let (w, h) = crate::sizing::shape_grid(kind, d.width, fg, spec.size_limit)?;
        Ok(f64::from(w) * f64::from(h))
    };
    // with the corridor fixed, the grid with more cells; but a shape with too few cells for
    // the preset either way is grown to its fewest cells ([`crate::make::prepare`]), and then
    // the box that covers more of the page prints larger
    let fewest = crate::sizing::cells_wanted(d);
    let by_cells = spec.size_limit.is_some() && cells(&plain)?.max(cells(&turned)?) >= fewest;
    let measure = |fg: &Foreground| if by_cells { cells(fg) } else { coverage(fg) };
    // only a shape lying across the page turns: a heart or a cat about as wide as tall stays
    // upright whatever a grid's rounding gains; the shape's lie is read on a grid fine
    // enough to show it (a dog 6 cells across rounds to 6 x 5, as square as a cat)
    let (w, h) = crate::sizing::shape_grid(kind, d.width.max(ASPECT_CELLS), &plain, None)?;
    let (x0, y0, x1, y1) = crate::topology::Topology::new(kind, w, h)?.tess().covered();
    let (a, p) = ((x1 - x0) / (y1 - y0), room.w / room.h);
    let across = (a > CROSSWISE && p < 1.0) || (a < 1.0 / CROSSWISE && p > 1.0);
    Ok(across && measure(&turned)? > measure(&plain)? * TURN_GAIN)
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
        // a page whose turn the book decides needs its shape both ways
        let turns: &[bool] = if p.auto_turn {
            &[false, true]
        } else {
            &[p.design.turn]
        };
        for &turn in turns {
            let how = Cutting {
                turn,
                ..Cutting::of(&p.design)
            };
            if !wanted.iter().any(|(s, h)| s == source && *h == how) {
                wanted.push((source.clone(), how));
                first.push(p);
            }
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
    let shape = |turn: bool| {
        foreground(
            &Design {
                turn,
                ..spec.design.clone()
            },
            loader,
        )
    };
    let mut d = settled(spec, settings, &shape)?;
    if spec.fit_height
        && let Some(fg) = foreground(&d, loader)?
    {
        (d.width, d.height) =
            crate::sizing::shape_grid(d.grid_topology(), d.width, &fg, spec.size_limit)?;
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
    let shape = |turn: bool| -> Result<Option<Arc<Foreground>>> {
        let d = Design {
            turn,
            ..spec.design.clone()
        };
        Ok(cut_shape(shapes, &d))
    };
    let design = settled(spec, settings, &shape)?;
    let cut = cut_shape(shapes, &design);
    let fit = Fit {
        height: spec.fit_height,
        size_limit: spec.size_limit,
    };
    Ok((design, cut, fit))
}

/// What two puzzles must not share: the shape (as [`super::shape_key`] names it), its turn,
/// and the grid it is made on.
type Grid = (String, bool, u32, u32);

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
