//! Making a book: shapes loaded once each, puzzles made and drawn in parallel (rayon), answer
//! pages composed, then the PDF, one SVG per page and the manifest, all in memory. Nothing is
//! written here: the caller hands [`Built::files`] to [`crate::io::write_files_atomic`], so a
//! book that fails anywhere writes nothing.
//!
//! Determinism: every page is a pure function of its design and its page number, results are
//! collected in book order whatever the thread count, and the PDF writer is deterministic, so
//! the bytes are the same with one thread or many.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};

use rayon::prelude::*;
use serde::Serialize;

use super::{Answers, Book, PuzzleSpec, Settings, shape_key};
use crate::design::Design;
use crate::design::Style;
use crate::difficulty::{self, SearchOptions};
use crate::draw::{self, AnswerKey, Drawing, KeyMaze};
use crate::error::{Error, Result};
use crate::export::{pdf, svg};
use crate::metrics::Metrics;
use crate::pipeline::{
    Generated, GeneratedTiles, generate, generate_shaped, generate_tiles, shape_mask,
};
use crate::shape::{Cut, Foreground, ShapeSource, fitted_height};
use crate::topology::TopologyKind;

/// What a page of the book holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum PageKind {
    /// The title page.
    Title,
    /// A puzzle.
    Puzzle,
    /// One answer key, right after its puzzle.
    Key,
    /// An answer page at the back with several keys.
    Answers,
}

/// One output file: a path relative to the output folder, and its bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OutputFile {
    /// Where it goes, relative to the output folder.
    pub path: PathBuf,
    /// The content.
    pub bytes: Vec<u8>,
}

/// A book made in memory.
#[derive(Clone, Debug)]
pub struct Built {
    /// `book.pdf`, `manifest.json` and `pages/page-NNN.svg`, in that order.
    pub files: Vec<OutputFile>,
    /// Pages in the PDF.
    pub pages: usize,
    /// Puzzles in the book.
    pub puzzles: usize,
    /// Warnings for the person printing, each naming its puzzle.
    pub warnings: Vec<String>,
}

/// The book's page plan: what each PDF page is and its number.
#[derive(Clone, Debug)]
struct Planned {
    number: u32,
    kind: PageKind,
    /// Puzzle indices (from 0) on the page.
    puzzles: Vec<usize>,
}

fn plan(book: &Book) -> Vec<Planned> {
    let s = &book.settings;
    let mut out = Vec::new();
    let mut number = s.first_page_number;
    let mut push = |kind, puzzles| {
        out.push(Planned {
            number,
            kind,
            puzzles,
        });
        number += 1;
    };
    if s.title_page {
        push(PageKind::Title, vec![]);
    }
    for i in 0..book.puzzles.len() {
        push(PageKind::Puzzle, vec![i]);
        if s.answers == Answers::AfterEach {
            push(PageKind::Key, vec![i]);
        }
    }
    if s.answers == Answers::AtBack {
        let all: Vec<usize> = (0..book.puzzles.len()).collect();
        for chunk in all.chunks(s.keys_per_page as usize) {
            push(PageKind::Answers, chunk.to_vec());
        }
    }
    out
}

type ShapeCache = BTreeMap<(String, Option<u8>, bool), Foreground>;

fn cache_key(d: &Design) -> Option<(String, Option<u8>, bool)> {
    d.shape
        .as_ref()
        .map(|_| (shape_key(d), d.threshold, d.invert))
}

/// Loads a design's shape picture and cuts its foreground; errors name the file.
pub(crate) fn foreground(design: &Design) -> Result<Option<Foreground>> {
    let Some(source) = &design.shape else {
        return Ok(None);
    };
    let loaded = crate::io::load_shape(source, None)?;
    let cut = Cut {
        threshold: design.threshold,
        invert: design.invert,
    };
    Foreground::from_picture(&loaded.picture, cut)
        .map(Some)
        .map_err(|e| match source {
            ShapeSource::File(p) => Error::new(e.kind, format!("{}: {}", e.message, p.display())),
            ShapeSource::Builtin(_) => e,
        })
}

fn load_shapes(book: &Book) -> Result<ShapeCache> {
    let mut wanted: BTreeMap<(String, Option<u8>, bool), &Design> = BTreeMap::new();
    for p in &book.puzzles {
        if let Some(k) = cache_key(&p.design) {
            wanted.entry(k).or_insert(&p.design);
        }
    }
    let loaded: Vec<_> = wanted
        .into_par_iter()
        .map(|(k, d)| foreground(d).map(|fg| (k, fg)))
        .collect::<Result<_>>()?;
    Ok(loaded
        .into_iter()
        .filter_map(|(k, fg)| fg.map(|fg| (k, fg)))
        .collect())
}

/// How a puzzle's maze is made.
#[derive(Clone, Copy, Debug, Default)]
struct How {
    /// Fit the height to the shape's aspect ratio first.
    fit_height: bool,
    /// Keep the fitted grid within this size (a preset's corridor width): a tall shape gets
    /// fewer cells across.
    size_limit: Option<(u32, u32)>,
    /// Search for a maze that meets the design's targets (when it has any).
    search: bool,
}

/// A puzzle made: a maze of cells and walls, or a hex tile maze.
#[derive(Clone, Debug)]
pub enum Product {
    /// Cells and walls.
    Walls(Generated),
    /// Hex tiles.
    Tiles(GeneratedTiles),
}

impl Product {
    /// The design as made (seed, fitted height and anything the search chose filled in).
    pub fn design(&self) -> &Design {
        match self {
            Product::Walls(g) => &g.design,
            Product::Tiles(t) => &t.design,
        }
    }

    /// The seed used.
    pub fn seed(&self) -> u64 {
        match self {
            Product::Walls(g) => g.seed,
            Product::Tiles(t) => t.seed,
        }
    }

    fn key_maze(&self) -> KeyMaze<'_> {
        match self {
            Product::Walls(g) => KeyMaze::Walls(g),
            Product::Tiles(t) => KeyMaze::Tiles(&t.maze),
        }
    }
}

/// Makes the maze of `design` with the shape `fg` (already cut), as `how` says.
fn make(design: &Design, fg: Option<&Foreground>, how: How) -> Result<Product> {
    let mut d = design.clone();
    let kind = d.grid_topology();
    let shaped = match fg {
        Some(fg) => {
            if how.fit_height {
                d.height = fitted_height(kind, d.width, fg)?;
                if let Some((w, h)) = how.size_limit
                    && d.height > h
                    && kind != TopologyKind::Polar
                {
                    d.width = ((u64::from(w) * u64::from(h) / u64::from(d.height)) as u32).max(2);
                    d.height = fitted_height(kind, d.width, fg)?;
                }
            }
            Some(shape_mask(&d, fg)?)
        }
        None => None,
    };
    if d.style == Style::Tiles {
        return generate_tiles(&d, shaped.as_ref().map(|s| &s.mask)).map(Product::Tiles);
    }
    if how.search && !d.targets.is_empty() {
        let options = SearchOptions::default();
        let found = difficulty::search(&d, shaped.as_ref().map(|s| &s.mask), &options)?;
        let mut g = found.generated;
        g.added_cells += shaped.as_ref().map_or(0, |s| s.added_cells);
        return Ok(Product::Walls(g));
    }
    match &shaped {
        Some(s) => generate_shaped(&d, s),
        None => generate(&d, None),
    }
    .map(Product::Walls)
}

/// The design a puzzle of the book is made from, on its own: `spec.design` with, when
/// `spec.fit_height`, the height fitted to its shape as [`build`] fits it (the design the
/// manifest records). File shapes are read from the recorded paths.
pub fn fitted_design(spec: &PuzzleSpec) -> Result<Design> {
    let mut d = spec.design.clone();
    if spec.fit_height
        && let Some(fg) = foreground(&d)?
    {
        d.height = fitted_height(d.grid_topology(), d.width, &fg)?;
    }
    Ok(d)
}

/// Makes the puzzle a manifest entry's design describes (its seed, size and shape as
/// recorded): the same maze as in the book, without searching again. File shapes are read from
/// the recorded paths.
pub fn regenerate_puzzle(design: &Design) -> Result<Product> {
    let fg = foreground(design)?;
    make(design, fg.as_ref(), How::default())
}

/// [`regenerate_puzzle`] for a maze of cells and walls (an error for a tile design).
pub fn regenerate(design: &Design) -> Result<Generated> {
    match regenerate_puzzle(design)? {
        Product::Walls(g) => Ok(g),
        Product::Tiles(_) => Err(Error::option(
            "a tile design: use book::regenerate_puzzle to make it again",
        )),
    }
}

struct Made {
    product: Product,
    puzzle: Drawing,
    key: Option<Drawing>,
    warnings: Vec<String>,
}

#[derive(Serialize)]
struct ManifestPage {
    page: u32,
    kind: PageKind,
    svg: String,
    /// Puzzle numbers (from 1) on the page.
    puzzles: Vec<usize>,
}

#[derive(Serialize)]
struct ManifestPuzzle<'a> {
    number: usize,
    label: String,
    source: &'a str,
    page: u32,
    key_page: u32,
    seed: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    seed_bumped_from: Option<u64>,
    algorithm_used: &'static str,
    dropped_cells: usize,
    design: &'a Design,
    /// The measured metrics (mazes of cells and walls).
    #[serde(skip_serializing_if = "Option::is_none")]
    metrics: Option<&'a Metrics>,
    /// What a tile maze has (tile mazes).
    #[serde(skip_serializing_if = "Option::is_none")]
    tiles: Option<TileCounts>,
    warnings: &'a [String],
}

/// A tile maze's counts, for the manifest.
#[derive(Serialize)]
struct TileCounts {
    open: usize,
    solution_length: usize,
}

#[derive(Serialize)]
struct Manifest<'a> {
    format: &'static str,
    version: u32,
    hedge: &'static str,
    pdf: &'static str,
    page_count: usize,
    page_size_mm: [f64; 2],
    settings: &'a Settings,
    pages: Vec<ManifestPage>,
    puzzles: Vec<ManifestPuzzle<'a>>,
}

/// The manifest's `format` field.
pub const MANIFEST_FORMAT: &str = "hedge-book";

fn svg_name(index: usize) -> String {
    format!("pages/page-{:03}.svg", index + 1)
}

/// Makes every page of `book` and renders the PDF, the SVGs and the manifest, in memory.
/// `progress(done, total)` is called from worker threads as steps finish (puzzles, answer
/// pages, then the PDF). Errors name the puzzle (`pages[2] #5 (Puzzle 7): ...`).
pub fn build(book: &Book, progress: &(dyn Fn(usize, usize) + Sync)) -> Result<Built> {
    let s = &book.settings;
    let shapes = load_shapes(book)?;
    let planned = plan(book);
    let answer_pages = planned
        .iter()
        .filter(|p| p.kind == PageKind::Answers)
        .count();
    let total = book.puzzles.len() + answer_pages + 1;
    let done = AtomicUsize::new(0);
    let tick = || progress(done.fetch_add(1, Ordering::Relaxed) + 1, total);
    progress(0, total);

    // puzzle i's page number (and its key's, after each)
    let mut page_of = vec![0u32; book.puzzles.len()];
    let mut key_page_of = vec![0u32; book.puzzles.len()];
    for p in &planned {
        for &i in &p.puzzles {
            match p.kind {
                PageKind::Puzzle => page_of[i] = p.number,
                PageKind::Key | PageKind::Answers => key_page_of[i] = p.number,
                PageKind::Title => {}
            }
        }
    }

    // every result kept, so the error reported is the first puzzle's whatever the threads
    let made: Vec<Result<Made>> = book
        .puzzles
        .par_iter()
        .enumerate()
        .map(|(i, spec)| {
            let r = make_one(book, spec, i, page_of[i], &shapes);
            tick();
            r.map_err(|e| {
                Error::new(
                    e.kind,
                    format!("{} ({}): {}", spec.source, s.label_for(i + 1), e.message),
                )
            })
        })
        .collect();
    let made: Vec<Made> = made.into_iter().collect::<Result<_>>()?;

    let labels: Vec<String> = (1..=book.puzzles.len()).map(|n| s.label_for(n)).collect();
    let drawings: Vec<Drawing> = planned
        .par_iter()
        .map(|p| -> Result<Drawing> {
            Ok(match p.kind {
                PageKind::Title => {
                    let setup = s.page_setup(p.number, None);
                    draw::title_page(
                        &setup,
                        s.title.as_deref().unwrap_or(""),
                        s.subtitle.as_deref(),
                    )?
                }
                PageKind::Puzzle => made[p.puzzles[0]].puzzle.clone(),
                PageKind::Key => made[p.puzzles[0]]
                    .key
                    .clone()
                    .expect("after-each puzzles have their key"),
                PageKind::Answers => {
                    let setup = s.page_setup(p.number, Some(s.answers_heading.clone()));
                    let keys: Vec<AnswerKey<'_>> = p
                        .puzzles
                        .iter()
                        .map(|&i| AnswerKey {
                            maze: made[i].product.key_maze(),
                            label: &labels[i],
                        })
                        .collect();
                    let d = draw::answers_page(&setup, &keys, s.keys_per_page as usize)
                        .map_err(|e| Error::new(e.kind, format!("answer pages: {}", e.message)))?;
                    tick();
                    d
                }
            })
        })
        .collect::<Result<_>>()?;

    let title = s.title.as_deref().unwrap_or("Mazes");
    let pdf_bytes = pdf::book(&drawings, title);
    let svgs: Vec<Vec<u8>> = drawings.par_iter().map(svg::svg).collect();
    tick();

    let (pw, ph) = s.page_setup(1, None).page_mm();
    let manifest = Manifest {
        format: MANIFEST_FORMAT,
        version: 1,
        hedge: env!("CARGO_PKG_VERSION"),
        pdf: "book.pdf",
        page_count: planned.len(),
        page_size_mm: [pw, ph],
        settings: s,
        pages: planned
            .iter()
            .enumerate()
            .map(|(k, p)| ManifestPage {
                page: p.number,
                kind: p.kind,
                svg: svg_name(k),
                puzzles: p.puzzles.iter().map(|i| i + 1).collect(),
            })
            .collect(),
        puzzles: made
            .iter()
            .zip(&book.puzzles)
            .enumerate()
            .map(|(i, (m, spec))| ManifestPuzzle {
                number: i + 1,
                label: labels[i].clone(),
                source: &spec.source,
                page: page_of[i],
                key_page: key_page_of[i],
                seed: m.product.seed(),
                seed_bumped_from: spec.seed_bumped_from,
                algorithm_used: match &m.product {
                    Product::Walls(g) => g.algorithm_used,
                    Product::Tiles(_) => "tiles",
                },
                dropped_cells: match &m.product {
                    Product::Walls(g) => g.dropped_cells,
                    Product::Tiles(_) => 0,
                },
                design: m.product.design(),
                metrics: match &m.product {
                    Product::Walls(g) => Some(&g.metrics),
                    Product::Tiles(_) => None,
                },
                tiles: match &m.product {
                    Product::Walls(_) => None,
                    Product::Tiles(t) => Some(TileCounts {
                        open: t.maze.grid.open_count(),
                        solution_length: t.maze.solution.len(),
                    }),
                },
                warnings: &m.warnings,
            })
            .collect(),
    };
    let mut json = serde_json::to_vec_pretty(&manifest)
        .map_err(|e| Error::input(format!("cannot write the manifest: {e}")))?;
    json.push(b'\n');

    let mut files = vec![
        OutputFile {
            path: "book.pdf".into(),
            bytes: pdf_bytes,
        },
        OutputFile {
            path: "manifest.json".into(),
            bytes: json,
        },
    ];
    files.extend(svgs.into_iter().enumerate().map(|(k, bytes)| OutputFile {
        path: svg_name(k).into(),
        bytes,
    }));
    let labels = &labels;
    let warnings = made
        .iter()
        .enumerate()
        .flat_map(|(i, m)| {
            m.warnings
                .iter()
                .map(move |w| format!("{}: {w}", labels[i]))
        })
        .collect();
    Ok(Built {
        files,
        pages: planned.len(),
        puzzles: book.puzzles.len(),
        warnings,
    })
}

fn make_one(
    book: &Book,
    spec: &PuzzleSpec,
    i: usize,
    page: u32,
    shapes: &ShapeCache,
) -> Result<Made> {
    let s = &book.settings;
    let fg = cache_key(&spec.design).and_then(|k| shapes.get(&k));
    let how = How {
        fit_height: spec.fit_height,
        size_limit: spec.size_limit,
        search: true,
    };
    let product = make(&spec.design, fg, how)?;
    let setup = s.page_setup(page, Some(s.label_for(i + 1)));
    let after_each = s.answers == Answers::AfterEach;
    let g = match &product {
        Product::Walls(g) => g,
        Product::Tiles(t) => {
            // a tile page and its key come together
            let p = draw::tile_pages(&t.maze, &setup, &setup.next_page())?;
            return Ok(Made {
                warnings: p.layout.warnings(),
                puzzle: p.puzzle,
                key: after_each.then_some(p.key),
                product,
            });
        }
    };
    let (puzzle, key, layout) = if after_each {
        let p = draw::pages(g, &setup, &setup.next_page())?;
        (p.puzzle, Some(p.key), p.layout)
    } else {
        let layout = draw::layout(g, &setup)?;
        (draw::puzzle_page(g, &setup)?, None, layout)
    };
    let mut warnings = layout.warnings();
    let targets = &g.design.targets;
    if !targets.is_empty() {
        let report = difficulty::Report::new(targets, &g.metrics);
        let missed: Vec<&str> = report.missed().map(|r| r.metric.name()).collect();
        if !missed.is_empty() {
            warnings.push(format!(
                "difficulty targets missed ({}) after {}; the closest maze is printed",
                missed.join(", "),
                SearchOptions::default().budget
            ));
        }
    }
    if g.dropped_cells > 0 {
        warnings.push(format!(
            "{} cells of the shape dropped (not connected)",
            g.dropped_cells
        ));
    }
    Ok(Made {
        product,
        puzzle,
        key,
        warnings,
    })
}
