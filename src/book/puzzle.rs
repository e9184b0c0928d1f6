//! Making a book's puzzles: each maze made (searched for its targets) from its settled design
//! and its shape from the cache, in parallel ([`make_all`]), its openings moved to its top and
//! bottom when that covers more of the page ([`placed_above`]), and what its pages need until
//! they are written ([`Page`]); and one puzzle made again from its recorded design
//! ([`regenerate_puzzle`]).

use std::sync::Arc;

use rayon::prelude::*;

use super::plan::PageNumbers;
use super::ramp::star_counts;
use super::shapes::{foreground, made_from};
use super::{Answers, Book, PuzzleSpec, Settings};
use crate::design::{Design, Style};
use crate::design::{Kind, Walls};
use crate::difficulty::SearchOptions;
use crate::draw::{self, Drawing};
use crate::endpoints::Placement;
use crate::error::{Error, Result};
use crate::load::Loader;
use crate::make::ShapeCache;
use crate::make::{Fit, Made, prepare_with};
use crate::page::PageSetup;
use crate::pipeline::Generated;
use crate::preflight;
use crate::shape::Foreground;

/// How a puzzle's maze is made.
#[derive(Clone, Copy, Debug, Default)]
struct How {
    /// Fit the height to the shape's aspect ratio first, within a preset's size.
    fit: Fit,
    /// Search for a maze that meets the design's targets (when it has any).
    search: bool,
}

/// A puzzle made: a maze of cells and walls, or a hex tile maze ([`crate::make::Made`]).
pub type Product = Made;

/// Makes the maze of `design` with the shape `fg` (already cut), as `how` says.
fn make(design: &Design, fg: Option<&Arc<Foreground>>, how: How) -> Result<Product> {
    let prepared = prepare_with(design, fg.cloned(), how.fit)?;
    if how.search {
        prepared.make_or_search(&SearchOptions::default())
    } else {
        prepared.make()
    }
}

/// Makes the puzzle a manifest entry's design describes (its seed, size and shape as
/// recorded): the same maze as in the book, without searching again. File shapes are read from
/// the recorded paths, through `loader`.
pub fn regenerate_puzzle(design: &Design, loader: &dyn Loader) -> Result<Product> {
    let fg = foreground(design, loader)?;
    make(design, fg.as_ref(), How::default())
}

/// [`regenerate_puzzle`] for a maze of cells and walls (an error for a tile design).
pub fn regenerate(design: &Design, loader: &dyn Loader) -> Result<Generated> {
    match regenerate_puzzle(design, loader)? {
        Product::Walls(g) => Ok(g),
        Product::Tiles(_) => Err(Error::option(
            "a tile design: use book::regenerate_puzzle to make it again",
        )),
    }
}

/// What the book keeps of a puzzle's pages until their files are written.
pub(super) struct Page {
    /// The puzzle's page setup, and its key's (answers after each).
    pub(super) setup: (PageSetup, Option<PageSetup>),
    /// The puzzle page's text and its preflight facts (the drawing itself is made again when
    /// its files are written: [`super::sheets::Sheets`]).
    pub(super) puzzle: (Drawing, preflight::Page),
    /// The key page's, after each puzzle.
    pub(super) key: Option<(Drawing, preflight::Page)>,
    pub(super) warnings: Vec<String>,
    /// The corridors and doors as printed.
    pub(super) corridor: preflight::Corridors,
    /// How much of its page the maze covers, in percent ([`draw::Layout::coverage`]).
    pub(super) coverage: f64,
    /// The stars its page shows ([`super::ramp::star_counts`]).
    pub(super) stars: Option<usize>,
}

/// A small solved maze for the how-to page.
pub(super) fn example() -> Result<Product> {
    let mut d = Design {
        width: 6,
        height: 6,
        seed: Some(1),
        ..Design::default()
    };
    // START and FINISH as a child meets them on the puzzles
    d.page.markers = crate::page::MarkerSize::Large;
    make(&d, None, How::default())
}

/// Page `n` as printed (in grey for a black and white interior) and what preflight reads of it.
pub(super) fn printed(mut d: Drawing, s: &Settings, n: u32) -> (Drawing, preflight::Page) {
    s.interior.print(&mut d);
    let f = preflight::Page::new(&d, s.binding(n));
    (d, f)
}

/// Makes every puzzle of `book` in parallel, calling `tick` as each is made: the mazes (kept to
/// draw each page again when its files are written), then the stars each shows
/// ([`super::ramp::star_counts`]: a level's, or the measured ones kept from falling along a
/// ramp), then what their pages need. Every result is kept, so the error reported is the first
/// puzzle's whatever the threads; it names the puzzle (`pages[2] #5 (Puzzle 7): ...`).
pub(super) fn make_all(
    book: &Book,
    numbers: &PageNumbers,
    shapes: &ShapeCache,
    tick: &(dyn Fn() + Sync),
) -> Result<(Vec<Product>, Vec<Page>)> {
    let s = &book.settings;
    let named = |i: usize, e: Error| {
        Error::new(
            e.kind,
            format!(
                "{} ({}): {}",
                book.puzzles[i].source,
                s.label_for(i + 1),
                e.message
            ),
        )
    };
    let pages_of = |i: usize| (numbers.puzzle[i], numbers.key[i]);
    let made: Vec<Result<Product>> = book
        .puzzles
        .par_iter()
        .enumerate()
        .map(|(i, spec)| {
            let r = make_one(book, spec, i, pages_of(i), shapes);
            tick();
            r.map_err(|e| named(i, e))
        })
        .collect();
    let products = made.into_iter().collect::<Result<Vec<_>>>()?;
    let stars = book_stars(book, &products);
    let pages: Vec<Result<Page>> = products
        .par_iter()
        .enumerate()
        .map(|(i, product)| {
            // the design as made: its page turned with its shape when the book turned it
            let setup = s.puzzle_setup(product.design(), i + 1, pages_of(i), stars[i]);
            lay_out(s, product, i + 1, setup, pages_of(i)).map_err(|e| named(i, e))
        })
        .collect();
    Ok((products, pages.into_iter().collect::<Result<Vec<_>>>()?))
}

/// The stars each puzzle of `book` (made: `products`) shows, in book order
/// ([`super::ramp::star_counts`]).
fn book_stars(book: &Book, products: &[Product]) -> Vec<Option<usize>> {
    let levels: Vec<Option<usize>> = book.puzzles.iter().map(|p| p.level).collect();
    let measured: Vec<Option<usize>> = products
        .iter()
        .map(|m| m.metrics().and_then(|x| x.standing).map(|x| x.stars()))
        .collect();
    let slopes: Vec<_> = book.puzzles.iter().map(|p| p.slope).collect();
    // a generator's pages are named "pages[2] #5": the entry is the run
    let runs: Vec<&str> = book
        .puzzles
        .iter()
        .map(|p| p.source.split(" #").next().unwrap_or(&p.source))
        .collect();
    star_counts(&levels, &measured, &slopes, &runs)
}

/// Puzzle `n`'s pages as `product` prints them on `setup` (on page `page`, its key on
/// `key_page`): what the book keeps of them until their files are written.
fn lay_out(
    s: &Settings,
    product: &Product,
    n: usize,
    setup: PageSetup,
    (page, key_page): (u32, u32),
) -> Result<Page> {
    let key_setup = (s.answers == Answers::AfterEach).then(|| PageSetup {
        title: Some(s.key_label_for(n, page)),
        ..setup.next_page()
    });
    let (puzzle, key, layout) = match &key_setup {
        Some(key_setup) => {
            let p = product.pages(&setup, key_setup)?;
            (p.puzzle, Some(p.key), p.layout)
        }
        None => {
            let (puzzle, layout) = product.puzzle_page(&setup)?;
            (puzzle, None, layout)
        }
    };
    // what the book needs of the pages until they are written: their text and preflight facts
    let facts = |d: Drawing, n: u32| {
        let (d, f) = printed(d, s, n);
        (d.text_only(), f)
    };
    Ok(Page {
        warnings: warnings(product, &layout),
        corridor: preflight::Corridors::of(&layout),
        coverage: layout.coverage(),
        stars: setup.star_count,
        puzzle: facts(puzzle, page),
        key: key.map(|k| facts(k, key_page)),
        setup: (setup, key_setup),
    })
}

/// A maze whose automatic placement leaves it covering `before` % of its page, under
/// [`PLACE_BELOW`] (a heart on a 6 x 9 page, its openings on its sides, where each arrow and
/// its START or FINISH take a label's width off the maze's), made again from `design` as `how`
/// says (searched again for its targets) with its openings at its top and bottom
/// ([`Placement::TopBottom`]), when that covers [`PLACE_GAIN`] more of the page and misses no
/// more difficulty targets; `None` to keep it.
fn placed_above(
    product: &Product,
    before: f64,
    setup: &PageSetup,
    (design, fg, how): (&Design, Option<&Arc<Foreground>>, How),
) -> Result<Option<Product>> {
    if before >= PLACE_BELOW
        || design.walls().placement != Placement::Auto
        || design.walls().starts > 1
        || design.style() != Style::Walls
    {
        return Ok(None);
    }
    let other = Design {
        kind: Kind::Walls(Walls {
            placement: Placement::TopBottom,
            ..design.walls().clone()
        }),
        ..design.clone()
    };
    // a shape with no cell facing up or down keeps its placement
    let Ok(again) = make(&other, fg, how) else {
        return Ok(None);
    };
    let missed = |p: &Product| p.report().map_or(0, |r| r.missed().count());
    if missed(&again) > missed(product) {
        return Ok(None);
    }
    let after = again.layout(setup)?.coverage();
    Ok((after > before * PLACE_GAIN).then_some(again))
}

/// The coverage (percent of the page) under which a book tries a maze's openings at its top
/// and bottom ([`placed_above`]).
const PLACE_BELOW: f64 = 45.0;

/// How much more of its page a maze must cover with its openings at its top and bottom
/// before a book puts them there ([`placed_above`]).
const PLACE_GAIN: f64 = 1.1;

/// Makes puzzle `i` of `book` (`spec`), printed on page `page` with its key on `key_page`:
/// its maze, its openings moved to its top and bottom when that covers more of its page
/// ([`placed_above`]; the stars it will show take no room of their own).
fn make_one(
    book: &Book,
    spec: &PuzzleSpec,
    i: usize,
    pages: (u32, u32),
    shapes: &ShapeCache,
) -> Result<Product> {
    let s = &book.settings;
    let (design, cut, fit) = made_from(spec, s, shapes)?;
    let fg = cut.as_ref();
    let how = How { fit, search: true };
    let setup = s.puzzle_setup(&design, i + 1, pages, None);
    let product = make(&design, fg, how)?;
    let coverage = product.layout(&setup)?.coverage();
    Ok(placed_above(&product, coverage, &setup, (&design, fg, how))?.unwrap_or(product))
}

/// A puzzle's warnings: its layout's, the difficulty targets it missed, the cells of its shape
/// it dropped.
fn warnings(product: &Product, layout: &draw::Layout) -> Vec<String> {
    let mut warnings = layout.warnings();
    if let Some(report) = product.report() {
        let missed: Vec<&str> = report.missed().map(|r| r.metric.name()).collect();
        if !missed.is_empty() {
            warnings.push(format!(
                "difficulty targets missed ({}) after {}; the closest maze is printed",
                missed.join(", "),
                crate::difficulty::default_budget(product.metrics().map_or(0, |m| m.cells))
            ));
        }
    }
    // with the shape's outline they print as picture: the page is whole
    match product.lost_cells() {
        0 => {}
        1 => warnings.push("1 cell of the shape dropped (not connected)".into()),
        n => warnings.push(format!("{n} cells of the shape dropped (not connected)")),
    }
    warnings
}
