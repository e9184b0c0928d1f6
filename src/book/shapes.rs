//! A book's shapes: each picture loaded once and cut once for each way its pages cut it
//! ([`load_shapes`], into the [`ShapeCache`] the puzzles share), and the design a puzzle is
//! made from: its page turned with its upright shape when the shape would print much smaller
//! on an upright page ([`PAGE_TURN_BELOW`]), its height fitted to the shape
//! ([`fitted_design`]).

use std::sync::Arc;

use super::{Book, PuzzleSpec, Settings};
use crate::design::{Design, Turn};
use crate::draw::{self, Area};
use crate::error::{Error, Result};
use crate::load::Loader;
use crate::make::{Cutting, ShapeCache, load_foreground};
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
