//! Making a book: shapes loaded once each (through the caller's [`Loader`]), puzzles made with
//! [`crate::make`] and drawn in parallel (rayon), answer pages composed, then the PDF and the
//! manifest in memory, and one SVG per page made as it is written ([`Body::Svg`]: a big page's
//! SVG is never held whole). Nothing is read or written here: the caller passes the loader and
//! hands [`Built::files`] to [`crate::io::write_book`], so a book that fails anywhere writes
//! nothing.
//!
//! The PDFs carry the book's information ([`pdf::Info`]: title, author, the subtitle as
//! subject, `Hedge <version>` as producer) and [`Book::date`] as their creation and
//! modification date; `interior = "bw"` turns every page grey ([`Drawing::to_grey`]) before
//! anything is rendered. The puzzles' warnings are grouped one line per kind
//! ([`group_warnings`]); the manifest keeps each puzzle's own.
//!
//! Determinism: every page is a pure function of its design and its page number, results are
//! collected in book order whatever the thread count, and the PDF writer is deterministic, so
//! the bytes are the same with one thread or many.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use rayon::prelude::*;
use serde::Serialize;

use super::{
    Answers, Book, DEFAULT_RIGHTS, Front, Interior, KDP_MIN_PAGES, PageCount, PuzzleSpec,
    PuzzlesStart, Settings, shape_key,
};
use crate::design::{Design, Style};
use crate::difficulty::SearchOptions;
use crate::draw::{self, AnswerKey, Drawing};
use crate::endpoints::Placement;
use crate::error::{Error, Result};
use crate::export::{Body, Later, pdf};
use crate::load::Loader;
use crate::make::{Fit, Made, load_foreground, prepare_with};
use crate::metrics::Metrics;
use crate::page::PageSetup;
use crate::pipeline::Generated;
use crate::preflight;
use crate::shape::{Foreground, ShapeSource};

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
    /// The copyright page.
    Copyright,
    /// "This book belongs to".
    BelongsTo,
    /// How to solve a maze.
    HowTo,
    /// The contents.
    Contents,
    /// A blank page: before puzzle 1 to put it on a right-hand page, or at the end to pad the
    /// page count.
    Blank,
}

impl From<Front> for PageKind {
    fn from(f: Front) -> PageKind {
        match f {
            Front::Title => PageKind::Title,
            Front::Copyright => PageKind::Copyright,
            Front::BelongsTo => PageKind::BelongsTo,
            Front::HowTo => PageKind::HowTo,
            Front::Contents => PageKind::Contents,
        }
    }
}

/// One output file: a path relative to the output folder, and its contents (the PDFs and the
/// manifest as bytes, each page's SVG written from its drawing as the file is written).
#[derive(Clone, Debug, PartialEq)]
pub struct OutputFile {
    /// Where it goes, relative to the output folder.
    pub path: PathBuf,
    /// The content.
    pub body: Body,
}

/// A book made in memory.
#[derive(Clone, Debug)]
pub struct Built {
    /// `book.pdf`, `answers.pdf` (answers = "separate"), `cover.pdf` (a cover), `manifest.json`, and
    /// `pages/page-NNN.svg` (then `pages/answers-NNN.svg`), in that order.
    pub files: Vec<OutputFile>,
    /// Pages in the PDFs (`book.pdf`, and `answers.pdf` when the answers are separate).
    pub pages: usize,
    /// Puzzles in the book.
    pub puzzles: usize,
    /// Warnings for the person printing, each naming its puzzle.
    pub warnings: Vec<String>,
    /// What a print service would check (also in the manifest's `preflight`).
    pub preflight: preflight::Report,
    /// The full-wrap cover (`cover.pdf`), when the book asks for one.
    pub cover: Option<Drawing>,
}

/// The book's page plan: what each page is, its number, and its file.
#[derive(Clone, Debug)]
struct Planned {
    number: u32,
    kind: PageKind,
    /// Puzzle indices (from 0) on the page.
    puzzles: Vec<usize>,
    /// Whether the page is in `answers.pdf` (answers = "separate") rather than `book.pdf`.
    in_answers_file: bool,
}

/// The separate answers file's name (answers = "separate").
pub const ANSWERS_PDF: &str = "answers.pdf";

fn plan(book: &Book) -> Vec<Planned> {
    let s = &book.settings;
    let mut out = Vec::new();
    let mut number = s.first_page_number;
    let mut push = |kind, puzzles, in_answers_file, number: &mut u32| {
        out.push(Planned {
            number: *number,
            kind,
            puzzles,
            in_answers_file,
        });
        *number += 1;
    };
    for f in s.front_pages() {
        push(f.into(), vec![], false, &mut number);
    }
    if s.puzzles_start == PuzzlesStart::Right && number.is_multiple_of(2) {
        push(PageKind::Blank, vec![], false, &mut number);
    }
    for i in 0..book.puzzles.len() {
        push(PageKind::Puzzle, vec![i], false, &mut number);
        if s.answers == Answers::AfterEach {
            push(PageKind::Key, vec![i], false, &mut number);
        }
    }
    // blank pages at the end of book.pdf up to the page count asked for
    let pad = |out: &mut Vec<Planned>, number: &mut u32| {
        let pages = out.iter().filter(|p| !p.in_answers_file).count();
        for _ in pages..s.page_count.padded(pages) {
            out.push(Planned {
                number: *number,
                kind: PageKind::Blank,
                puzzles: vec![],
                in_answers_file: false,
            });
            *number += 1;
        }
    };
    let separate = s.answers == Answers::Separate;
    if separate {
        pad(&mut out, &mut number);
    }
    if s.answers.on_answer_pages() {
        if separate {
            // a document of its own, numbered from 1
            number = 1;
        }
        let all: Vec<usize> = (0..book.puzzles.len()).collect();
        for chunk in all.chunks(s.keys_per_page as usize) {
            out.push(Planned {
                number,
                kind: PageKind::Answers,
                puzzles: chunk.to_vec(),
                in_answers_file: separate,
            });
            number += 1;
        }
    }
    if !separate {
        pad(&mut out, &mut number);
    }
    out
}

/// The page number of each puzzle of `book` (in puzzle order), as [`build`] prints it.
pub fn puzzle_pages(book: &Book) -> Vec<u32> {
    let mut pages = vec![0; book.puzzles.len()];
    for p in plan(book).iter().filter(|p| p.kind == PageKind::Puzzle) {
        pages[p.puzzles[0]] = p.number;
    }
    pages
}

/// The steps of the how-to page, for where the book puts its answers (`first_answers`: the
/// first answer page's number when they are at the back) and whether it has "Which path?"
/// puzzles.
fn how_to_steps(s: &Settings, first_answers: Option<u32>, which_path: bool) -> Vec<String> {
    let mut steps = vec![
        "Put your pencil or crayon at START, where the arrow points into the maze (or on the \
         picture at the start)."
            .to_string(),
        "Find a way through to FINISH without crossing a line.".to_string(),
        "Come to a dead end? Go back to the last place where you had a choice and try another \
         way."
            .to_string(),
    ];
    if which_path {
        steps.push(
            "On a \"Which path?\" page, only one of the lettered starts leads to FINISH: find \
             which one."
                .to_string(),
        );
    }
    steps.push(match (s.answers, first_answers) {
        (Answers::AfterEach, _) => "Stuck? Each answer is on the page after its puzzle.".into(),
        (Answers::AtBack, Some(n)) => {
            format!("Stuck? The answers are at the back of the book, from page {n}.")
        }
        _ => "Stuck? The answers are in the answer booklet.".into(),
    });
    steps
}

/// The contents' lines: the puzzles in sections of one level (the stars each maze earns; a
/// section shorter than three puzzles joins its nearest neighbour, and sections merge until
/// they fit `capacity` lines), then the answers when they are at the back.
fn contents_lines(
    s: &Settings,
    stars: &[Option<usize>],
    named: bool,
    page_of: &[u32],
    first_answers: Option<u32>,
    capacity: usize,
) -> Vec<draw::ContentsLine> {
    // (first puzzle, last puzzle, lowest level, highest level)
    let mut runs: Vec<(usize, usize, Option<usize>, Option<usize>)> = Vec::new();
    for (i, &st) in stars.iter().enumerate() {
        match runs.last_mut() {
            Some(r) if r.2 == st && r.3 == st => r.1 = i,
            _ => runs.push((i, i, st, st)),
        }
    }
    let room = capacity
        .saturating_sub(usize::from(first_answers.is_some()))
        .max(1);
    let min_len = if stars.len() >= 9 { 3 } else { 1 };
    while let Some((k, len)) = runs
        .iter()
        .enumerate()
        .map(|(k, r)| (k, r.1 - r.0 + 1))
        .min_by_key(|&(k, len)| (len, k))
    {
        if runs.len() == 1 || (len >= min_len && runs.len() <= room) {
            break;
        }
        // into the neighbour whose level is nearer (the earlier one on a tie)
        let level = |r: &(usize, usize, Option<usize>, Option<usize>)| {
            (r.2.unwrap_or(0) + r.3.unwrap_or(0)) as f64 / 2.0
        };
        let into = match (k.checked_sub(1), runs.get(k + 1)) {
            (Some(p), Some(n)) => {
                if (level(&runs[p]) - level(&runs[k])).abs() <= (level(n) - level(&runs[k])).abs() {
                    p
                } else {
                    k + 1
                }
            }
            (Some(p), None) => p,
            (None, _) => k + 1,
        };
        let (a, b) = (runs[k.min(into)], runs[k.max(into)]);
        let lo = a.2.zip(b.2).map(|(x, y)| x.min(y));
        let hi = a.3.zip(b.3).map(|(x, y)| x.max(y));
        runs[k.min(into)] = (a.0, b.1, lo, hi);
        runs.remove(k.max(into));
    }
    let band = |n: usize| {
        if named {
            crate::difficulty::PRESETS[n.clamp(1, 5) - 1]
                .label
                .to_string()
        } else {
            format!("level {}", n.clamp(1, 5))
        }
    };
    let mut lines: Vec<draw::ContentsLine> = runs
        .iter()
        .map(|&(a, b, lo, hi)| {
            let which = if a == b {
                format!("Puzzle {}", a + 1)
            } else {
                format!("Puzzles {} to {}", a + 1, b + 1)
            };
            let level = match (lo, hi) {
                (Some(l), Some(h)) if l == h && named => format!(": {}", band(l)),
                (Some(l), Some(h)) if l == h => format!(": {} of 5", band(l)),
                (Some(l), Some(h)) if named => format!(": {} to {}", band(l), band(h)),
                (Some(l), Some(h)) => format!(": levels {l} to {h} of 5"),
                _ => String::new(),
            };
            draw::ContentsLine {
                text: format!("{which}{level}"),
                page: page_of[a],
            }
        })
        .collect();
    if let Some(n) = first_answers {
        lines.push(draw::ContentsLine {
            text: s.answers_heading.clone(),
            page: n,
        });
    }
    lines
}

/// A shape as cut: its source, threshold, invert and turn.
type ShapeKey = (String, Option<u8>, bool, bool);

type ShapeCache = BTreeMap<ShapeKey, Arc<Foreground>>;

fn cache_key(d: &Design) -> Option<ShapeKey> {
    d.shape
        .as_ref()
        .map(|_| (shape_key(d), d.threshold, d.invert, d.turn))
}

/// How much more of the page a turned shape's maze must cover (by its grid's cells, or its
/// share of the maze's room) before a book turns it: a shape about as wide as tall stays as
/// drawn.
const TURN_GAIN: f64 = 1.1;

/// How much wider than tall (on a portrait page; taller than wide on a landscape one) a shape
/// must be before a book may turn it.
const CROSSWISE: f64 = 1.2;

/// `spec`'s design as the book makes it: turned for its page or not ([`turned`]).
fn settled(
    spec: &PuzzleSpec,
    settings: &Settings,
    shape: &dyn Fn(bool) -> Result<Option<Arc<Foreground>>>,
) -> Result<Design> {
    Ok(Design {
        turn: turned(spec, settings, shape)?,
        ..spec.design.clone()
    })
}

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
    let measure = |fg: &Foreground| -> Result<f64> {
        let (w, h) = crate::sizing::shape_grid(kind, d.width, fg, spec.size_limit)?;
        if spec.size_limit.is_some() {
            return Ok(f64::from(w) * f64::from(h));
        }
        let (x0, y0, x1, y1) = crate::topology::Topology::new(kind, w, h)?.tess().covered();
        let room = draw::maze_room(&settings.page_setup(1, Some(settings.label_for(1))));
        let (a, p) = ((x1 - x0) / (y1 - y0), room.w / room.h);
        Ok((a / p).min(p / a))
    };
    // only a shape lying across the page turns: a heart or a cat about as wide as tall stays
    // upright whatever a grid's rounding gains
    let (w, h) = crate::sizing::shape_grid(kind, d.width, &plain, None)?;
    let (x0, y0, x1, y1) = crate::topology::Topology::new(kind, w, h)?.tess().covered();
    let room = draw::maze_room(&settings.page_setup(1, Some(settings.label_for(1))));
    let (a, p) = ((x1 - x0) / (y1 - y0), room.w / room.h);
    let across = (a > CROSSWISE && p < 1.0) || (a < 1.0 / CROSSWISE && p > 1.0);
    Ok(across && measure(&turned)? > measure(&plain)? * TURN_GAIN)
}

/// Loads a design's shape picture through `loader` and cuts its foreground; errors name the file.
fn foreground(design: &Design, loader: &dyn Loader) -> Result<Option<Arc<Foreground>>> {
    Ok(load_foreground(design, loader, None)?.map(|(fg, _)| Arc::new(fg)))
}

/// Loads every shape the book's puzzles use, once each; an error names the first page entry
/// that uses the shape (and, for a name that is no built-in shape and has no extension, says
/// that it is neither).
fn load_shapes(book: &Book, loader: &dyn Loader) -> Result<ShapeCache> {
    let mut wanted: BTreeMap<ShapeKey, (&PuzzleSpec, bool)> = BTreeMap::new();
    for p in &book.puzzles {
        // a page whose turn the book decides needs its shape both ways
        let turns: &[bool] = if p.auto_turn {
            &[false, true]
        } else {
            &[p.design.turn]
        };
        for &turn in turns {
            let d = Design {
                turn,
                ..p.design.clone()
            };
            if let Some(k) = cache_key(&d) {
                wanted.entry(k).or_insert((p, turn));
            }
        }
    }
    let loaded: Vec<_> = wanted
        .into_par_iter()
        .map(|(k, (p, turn))| {
            let d = Design {
                turn,
                ..p.design.clone()
            };
            foreground(&d, loader)
                .map(|fg| (k, fg))
                .map_err(|e| named_entry(e, p))
        })
        .collect::<Result<_>>()?;
    Ok(loaded
        .into_iter()
        .filter_map(|(k, fg)| fg.map(|fg| (k, fg)))
        .collect())
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

/// The design a puzzle of the book is made from, on its own: `spec.design` with, when
/// `spec.fit_height`, the height fitted to its shape as [`build`] fits it (the design the
/// manifest records). File shapes are read from the recorded paths through `loader`.
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

struct Page {
    /// The puzzle's page setup, and its key's (answers after each).
    setup: (PageSetup, Option<PageSetup>),
    /// The puzzle page's text and its preflight facts (the drawing itself is made again when
    /// its files are written: [`Sheets`]).
    puzzle: (Drawing, preflight::Page),
    /// The key page's, after each puzzle.
    key: Option<(Drawing, preflight::Page)>,
    warnings: Vec<String>,
    /// The corridors and doors as printed.
    corridor: preflight::Corridors,
    /// How much of its page the maze covers, in percent ([`draw::Layout::coverage`]).
    coverage: f64,
}

#[derive(Serialize)]
struct ManifestPage {
    page: u32,
    kind: PageKind,
    /// The PDF the page is in, when not `book.pdf` (answers = "separate").
    #[serde(skip_serializing_if = "Option::is_none")]
    pdf: Option<&'static str>,
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
    /// How much of its page the maze covers, in percent ([`draw::Layout::coverage`]: the box
    /// round its drawn walls over the page's printable area), to 0.1.
    coverage: f64,
    design: &'a Design,
    /// The measured metrics (mazes of cells and walls).
    #[serde(skip_serializing_if = "Option::is_none")]
    metrics: Option<&'a Metrics>,
    /// Where the maze stands, in words: `harder than 82 % of mazes of this size and shape`
    /// (the numbers are the metrics' `standing`).
    #[serde(skip_serializing_if = "Option::is_none")]
    standing: Option<String>,
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
    /// The answers file and its page count (answers = "separate").
    #[serde(skip_serializing_if = "Option::is_none")]
    answers_pdf: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    answers_page_count: Option<usize>,
    /// Pages in `book.pdf`.
    page_count: usize,
    page_size_mm: [f64; 2],
    /// The cover (`[book] cover`).
    #[serde(skip_serializing_if = "Option::is_none")]
    cover: Option<ManifestCover>,
    settings: &'a Settings,
    pages: Vec<ManifestPage>,
    puzzles: Vec<ManifestPuzzle<'a>>,
    preflight: &'a preflight::Report,
}

/// The cover in the manifest: its file, its page (bleed included) and its spine.
#[derive(Serialize)]
struct ManifestCover {
    pdf: &'static str,
    size_mm: [f64; 2],
    spine_mm: f64,
}

/// The cover's file name (`[book] cover = { ... }`).
pub const COVER_PDF: &str = "cover.pdf";

/// How many of a book's puzzles go on its cover (front and back), and which: one of each
/// look first (shape and topology), in book order, then others spread evenly through the book.
fn cover_picks(book: &Book, n: usize) -> Vec<usize> {
    let mut seen: Vec<String> = Vec::new();
    let mut picks: Vec<usize> = Vec::new();
    for (i, p) in book.puzzles.iter().enumerate() {
        let look = format!("{} {:?}", shape_key(&p.design), p.design.topology);
        if !seen.contains(&look) {
            seen.push(look);
            picks.push(i);
        }
    }
    picks.truncate(n);
    let total = book.puzzles.len();
    let mut k = 0;
    while picks.len() < n.min(total) {
        // the middle of the k-th of n stretches, stepping on past puzzles already taken
        let mut i = (2 * k + 1) * total / (2 * n) % total;
        while picks.contains(&i) {
            i = (i + 1) % total;
        }
        picks.push(i);
        k += 1;
    }
    picks
}

/// The cover of `book` for its `pages` interior pages, and its geometry.
fn make_cover(
    book: &Book,
    c: &super::CoverSettings,
    puzzle: &dyn Fn(usize) -> Result<Drawing>,
    pages: usize,
) -> Result<(Drawing, draw::Wrap)> {
    let s = &book.settings;
    let (trim_w, trim_h) = s.page_setup(1, None).trim_mm();
    let wrap = draw::Wrap {
        trim_w,
        trim_h,
        spine: c.paper.spine_mm(pages),
    };
    let picks = cover_picks(book, draw::FRONT_CARDS + draw::BACK_CARDS);
    let art: Vec<Drawing> = picks.iter().map(|&i| puzzle(i)).collect::<Result<_>>()?;
    let art: Vec<&Drawing> = art.iter().collect();
    let split = art.len().min(draw::FRONT_CARDS);
    let back_art = if art.len() > split {
        art[split..].to_vec()
    } else {
        // a short book: the back shows the front's first mazes again
        art.iter().take(draw::BACK_CARDS).copied().collect()
    };
    let d = draw::cover(&draw::Cover {
        wrap,
        title: s.title.as_deref().unwrap_or("Mazes"),
        subtitle: s.subtitle.as_deref(),
        author: s.author.as_deref(),
        back_text: c.back_text.as_deref(),
        font: s.font,
        spine_text: pages >= draw::SPINE_TEXT_MIN_PAGES,
        front_art: art[..split].to_vec(),
        back_art,
    })
    .map_err(|e| Error::new(e.kind, format!("the cover: {}", e.message)))?;
    Ok((d, wrap))
}

/// The manifest's `format` field.
pub const MANIFEST_FORMAT: &str = "hedge-book";

/// The SVG of page `index` (from 0) of the book (`pages/page-NNN.svg`) or of the answers file
/// (`pages/answers-NNN.svg`).
fn svg_name(index: usize, in_answers_file: bool) -> String {
    let name = if in_answers_file { "answers" } else { "page" };
    format!("pages/{name}-{:03}.svg", index + 1)
}

/// Makes every page of `book` and renders the PDF, the SVGs and the manifest, in memory; the
/// shapes' pictures are read through `loader`, once each. `progress(done, total)` is called from
/// worker threads as steps finish (puzzles, answer pages, then the PDF). Errors name the puzzle
/// (`pages[2] #5 (Puzzle 7): ...`).
pub fn build(
    book: &Book,
    loader: &dyn Loader,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<Built> {
    let s = &book.settings;
    let shapes = load_shapes(book, loader)?;
    let planned = plan(book);
    let in_pdf = planned.iter().filter(|p| !p.in_answers_file).count();
    if s.page_count != PageCount::Any && !s.allow_short && in_pdf < KDP_MIN_PAGES {
        return Err(Error::option(format!(
            "the book has {in_pdf} pages; Amazon KDP prints paperbacks from {KDP_MIN_PAGES}: add \
             puzzles or front pages, or set allow_short = true for a shorter booklet"
        )));
    }
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
                _ => {}
            }
        }
    }
    let first_answers = planned
        .iter()
        .find(|p| p.kind == PageKind::Answers && !p.in_answers_file)
        .map(|p| p.number);

    // every result kept, so the error reported is the first puzzle's whatever the threads
    let made: Vec<Result<(Product, Page)>> = book
        .puzzles
        .par_iter()
        .enumerate()
        .map(|(i, spec)| {
            let r = make_one(book, spec, i, (page_of[i], key_page_of[i]), &shapes);
            tick();
            r.map_err(|e| {
                Error::new(
                    e.kind,
                    format!("{} ({}): {}", spec.source, s.label_for(i + 1), e.message),
                )
            })
        })
        .collect();
    // the mazes, kept to draw each page again when its files are written
    let (products, made): (Vec<Product>, Vec<Page>) = made
        .into_iter()
        .collect::<Result<Vec<_>>>()?
        .into_iter()
        .unzip();

    let labels: Vec<String> = (1..=book.puzzles.len()).map(|n| s.label_for(n)).collect();
    // the keys' labels: with solution_refs, the puzzle's page beside its number
    let key_labels: Vec<String> = page_of
        .iter()
        .enumerate()
        .map(|(i, &p)| s.key_label_for(i + 1, p))
        .collect();
    let which_path = products
        .iter()
        .any(|m| matches!(m, Product::Walls(g) if g.starts.len() > 1));
    // a small solved maze for the how-to page
    let example = if s.front_pages().contains(&Front::HowTo) {
        let mut d = Design {
            width: 6,
            height: 6,
            seed: Some(1),
            ..Design::default()
        };
        // START and FINISH as a child meets them on the puzzles
        d.page.markers = crate::page::MarkerSize::Large;
        Some(make(&d, None, How::default())?)
    } else {
        None
    };
    let grey = s.interior == Interior::Bw;
    let binding = |n: u32| {
        if s.page_setup(n, None).inside_is_left() {
            preflight::Binding::Left
        } else {
            preflight::Binding::Right
        }
    };
    // each page: how it is drawn again when its files are written, its text (for the PDF's
    // fonts) and what preflight reads of it; a big page's drawing is dropped here
    let sheets: Vec<(Sheet, Drawing, preflight::Page)> = planned
        .par_iter()
        .map(|p| -> Result<(Sheet, Drawing, preflight::Page)> {
            let kept = |mut d: Drawing| {
                if grey {
                    d.to_grey();
                }
                let f = preflight::Page::new(&d, binding(p.number));
                (d.text_only(), Sheet::Kept(d), f)
            };
            let (text, sheet, facts) = match p.kind {
                PageKind::Title => {
                    let setup = s.page_setup(p.number, None);
                    kept(draw::title_page(
                        &setup,
                        s.title.as_deref().unwrap_or(""),
                        s.subtitle.as_deref(),
                        s.author.as_deref(),
                    )?)
                }
                PageKind::Copyright => {
                    let setup = s.page_setup(p.number, None);
                    kept(draw::copyright_page(
                        &setup,
                        &draw::Copyright {
                            title: s.title.as_deref().unwrap_or("Mazes"),
                            author: s.author.as_deref().unwrap_or_default(),
                            year: s.year.unwrap_or_default(),
                            isbn: s.isbn.as_deref(),
                            rights: s.rights.as_deref().unwrap_or(DEFAULT_RIGHTS),
                        },
                    )?)
                }
                PageKind::BelongsTo => kept(draw::belongs_to_page(&s.page_setup(p.number, None))?),
                PageKind::HowTo => kept(draw::how_to_page(
                    &s.page_setup(p.number, None),
                    &how_to_steps(s, first_answers, which_path),
                    example.as_ref().map(Product::key_maze),
                )?),
                PageKind::Contents => {
                    let setup = s.page_setup(p.number, None);
                    // the ramp's presets when every puzzle has one, else the stars each
                    // maze earns among mazes of its size
                    let named = book.puzzles.iter().all(|p| p.level.is_some());
                    let levels: Vec<Option<usize>> = if named {
                        book.puzzles
                            .iter()
                            .map(|p| p.level.map(|l| l + 1))
                            .collect()
                    } else {
                        products
                            .iter()
                            .map(|m| m.metrics().and_then(|x| x.standing).map(|x| x.stars()))
                            .collect()
                    };
                    let lines = contents_lines(
                        s,
                        &levels,
                        named,
                        &page_of,
                        first_answers,
                        draw::contents_capacity(&setup),
                    );
                    kept(draw::contents_page(&setup, &lines)?)
                }
                PageKind::Blank => kept(draw::blank_page(&s.page_setup(p.number, None))?),
                PageKind::Puzzle | PageKind::Key => {
                    let i = p.puzzles[0];
                    let key = p.kind == PageKind::Key;
                    let (text, facts) = if key {
                        made[i]
                            .key
                            .clone()
                            .expect("after-each puzzles have their key")
                    } else {
                        made[i].puzzle.clone()
                    };
                    (text, Sheet::Puzzle { puzzle: i, key }, facts)
                }
                PageKind::Answers => {
                    let setup = s.page_setup(p.number, Some(s.answers_heading.clone()));
                    let mut d = answers_page(
                        &setup,
                        &p.puzzles,
                        &|i| &products[i],
                        &key_labels,
                        s.keys_per_page as usize,
                    )?;
                    tick();
                    if grey {
                        d.to_grey();
                    }
                    let f = preflight::Page::new(&d, binding(p.number));
                    let sheet = Sheet::Answers {
                        setup,
                        puzzles: p.puzzles.clone(),
                    };
                    (d.text_only(), sheet, f)
                }
            };
            Ok((sheet, text, facts))
        })
        .collect::<Result<_>>()?;
    let mut texts: Vec<Drawing> = Vec::with_capacity(sheets.len());
    let mut facts: Vec<preflight::Page> = Vec::with_capacity(sheets.len());
    let sheets: Vec<Sheet> = sheets
        .into_iter()
        .map(|(sheet, text, f)| {
            texts.push(text);
            facts.push(f);
            sheet
        })
        .collect();
    let sheets = Arc::new(Sheets {
        sheets,
        products,
        setups: made.iter().map(|m| m.setup.clone()).collect(),
        key_labels,
        keys_per_page: s.keys_per_page as usize,
        grey,
    });

    let title = s.title.as_deref().unwrap_or("Mazes");
    // the pages of book.pdf and of answers.pdf, by their index in the plan
    let (book_pages, answer_pages): (Vec<usize>, Vec<usize>) =
        (0..planned.len()).partition(|&k| !planned[k].in_answers_file);
    let texts_of =
        |pages: &[usize]| -> Vec<&Drawing> { pages.iter().map(|&k| &texts[k]).collect() };
    let info = pdf::Info {
        title,
        author: s.author.as_deref(),
        subject: s.subtitle.as_deref(),
        date: book.date,
    };
    // the PDFs are laid out (text and fonts) now and written page by page, each page drawn
    // again from its maze in its turn: the book never holds its pages' drawings
    let book_pdf = pdf::prepare(&texts_of(&book_pages), &info);
    let cover = match &s.cover {
        Some(c) => Some(make_cover(
            book,
            c,
            &|i| sheets.puzzle(i, false),
            book_pages.len(),
        )?),
        None => None,
    };
    let cover_bytes = cover.as_ref().map(|(d, _)| pdf::pdf_with(&[d], &info));
    let answers_title = format!("{title}: {}", s.answers_heading);
    let answers_pdf = (!answer_pages.is_empty()).then(|| {
        pdf::prepare(
            &texts_of(&answer_pages),
            &pdf::Info {
                title: &answers_title,
                ..info
            },
        )
    });
    tick();
    // each page's SVG name: numbered within its file
    let mut counts = [0usize; 2];
    let svg_names: Vec<String> = planned
        .iter()
        .map(|p| {
            let k = &mut counts[usize::from(p.in_answers_file)];
            *k += 1;
            svg_name(*k - 1, p.in_answers_file)
        })
        .collect();

    let preflight = preflight::check(&preflight::Subject {
        pages: facts,
        fonts: book_pdf.fonts(),
        // the page whose corridors or doors come nearest their minimum (or furthest under it)
        corridor: made
            .iter()
            .map(|m| m.corridor)
            .min_by(|a, b| a.slack().total_cmp(&b.slack())),
        book_pages: Some(planned.len()),
        cover: cover
            .as_ref()
            .zip(cover_bytes.as_ref())
            .map(|((d, wrap), bytes)| preflight::CoverSubject {
                drawing: d,
                wrap: *wrap,
                pages: book_pages.len(),
                pdf: bytes,
            }),
    });
    let (pw, ph) = s.page_setup(1, None).page_mm();
    let products = &sheets.products;
    let manifest = Manifest {
        format: MANIFEST_FORMAT,
        version: 1,
        hedge: env!("CARGO_PKG_VERSION"),
        pdf: "book.pdf",
        answers_pdf: answers_pdf.as_ref().map(|_| ANSWERS_PDF),
        answers_page_count: answers_pdf.as_ref().map(|_| answer_pages.len()),
        page_count: book_pages.len(),
        page_size_mm: [pw, ph],
        cover: cover.as_ref().map(|(_, w)| {
            let (cw, ch) = w.size();
            ManifestCover {
                pdf: COVER_PDF,
                size_mm: [cw, ch],
                spine_mm: w.spine,
            }
        }),
        settings: s,
        pages: planned
            .iter()
            .zip(&svg_names)
            .map(|(p, svg)| ManifestPage {
                page: p.number,
                kind: p.kind,
                pdf: p.in_answers_file.then_some(ANSWERS_PDF),
                svg: svg.clone(),
                puzzles: p.puzzles.iter().map(|i| i + 1).collect(),
            })
            .collect(),
        puzzles: made
            .iter()
            .zip(products)
            .zip(&book.puzzles)
            .enumerate()
            .map(|(i, ((m, product), spec))| ManifestPuzzle {
                number: i + 1,
                label: labels[i].clone(),
                source: &spec.source,
                page: page_of[i],
                key_page: key_page_of[i],
                seed: product.seed(),
                seed_bumped_from: spec.seed_bumped_from,
                algorithm_used: product.algorithm_used(),
                dropped_cells: product.dropped_cells(),
                coverage: (m.coverage * 10.0).round() / 10.0,
                design: product.design(),
                metrics: product.metrics(),
                standing: product
                    .metrics()
                    .and_then(|x| x.standing)
                    .map(|x| x.phrase()),
                tiles: match product {
                    Product::Walls(_) => None,
                    Product::Tiles(t) => Some(TileCounts {
                        open: t.maze.grid.open_count(),
                        solution_length: t.maze.solution.len(),
                    }),
                },
                warnings: &m.warnings,
            })
            .collect(),
        preflight: &preflight,
    };
    let mut json = serde_json::to_vec_pretty(&manifest)
        .map_err(|e| Error::input(format!("cannot write the manifest: {e}")))?;
    json.push(b'\n');

    // a PDF written page by page: page i drawn again from its maze in its turn
    let written = |doc: pdf::Prepared, pages: Vec<usize>| {
        let sheets = sheets.clone();
        Body::Written(Later(Arc::new(move |out: &mut dyn std::io::Write| {
            doc.write(&|i| sheets.draw(pages[i]).map(std::borrow::Cow::Owned), out)
        })))
    };
    let mut files = vec![
        OutputFile {
            path: "book.pdf".into(),
            body: written(book_pdf, book_pages.clone()),
        },
        OutputFile {
            path: "manifest.json".into(),
            body: Body::Bytes(json),
        },
    ];
    if let Some(bytes) = cover_bytes {
        files.insert(
            1,
            OutputFile {
                path: COVER_PDF.into(),
                body: Body::Bytes(bytes),
            },
        );
    }
    if let Some(doc) = answers_pdf {
        files.insert(
            1,
            OutputFile {
                path: ANSWERS_PDF.into(),
                body: written(doc, answer_pages),
            },
        );
    }
    // each page's SVG is drawn again and written when the files are written, one at a time
    files.extend(svg_names.into_iter().enumerate().map(|(k, name)| {
        let sheets = sheets.clone();
        OutputFile {
            path: name.into(),
            body: Body::SvgLater(Later(Arc::new(move || sheets.draw(k)))),
        }
    }));
    let per_puzzle: Vec<&[String]> = made.iter().map(|m| &m.warnings[..]).collect();
    let mut warnings = group_warnings(&per_puzzle, &labels);
    warnings.extend(draw::glyph_warnings(
        texts.iter().chain(cover.as_ref().map(|(d, _)| d)),
    ));
    Ok(Built {
        cover: cover.map(|(d, _)| d),
        files,
        pages: planned.len(),
        puzzles: book.puzzles.len(),
        warnings,
        preflight,
    })
}

/// How a page of a book is drawn again when its files are written.
#[derive(Debug)]
enum Sheet {
    /// A page of the front matter or a blank: small, kept as drawn (in grey for a black and
    /// white interior).
    Kept(Drawing),
    /// Puzzle `puzzle`'s page, or its key's (answers after each).
    Puzzle { puzzle: usize, key: bool },
    /// An answer page of these puzzles' keys.
    Answers {
        setup: PageSetup,
        puzzles: Vec<usize>,
    },
}

/// A book's pages, drawn again from their mazes when their files are written: the book holds
/// its mazes, never its pages' drawings (a 1000 x 1000 maze's page is about 9 MB drawn, its
/// maze 3 MB).
#[derive(Debug)]
struct Sheets {
    /// Each page of the plan.
    sheets: Vec<Sheet>,
    /// Each puzzle's maze.
    products: Vec<Product>,
    /// Each puzzle's page setup, and its key's (answers after each).
    setups: Vec<(PageSetup, Option<PageSetup>)>,
    key_labels: Vec<String>,
    keys_per_page: usize,
    /// A black and white interior: every page in grey.
    grey: bool,
}

impl Sheets {
    /// Puzzle `i`'s page (its key's when `key`), in colour, as it was first drawn.
    fn puzzle(&self, i: usize, key: bool) -> Result<Drawing> {
        let (setup, key_setup) = &self.setups[i];
        let product = &self.products[i];
        Ok(match key_setup {
            Some(ks) => {
                let p = product.pages(setup, ks)?;
                if key { p.key } else { p.puzzle }
            }
            None => match product {
                Product::Walls(g) => draw::puzzle_page(g, setup)?,
                Product::Tiles(_) => product.puzzle_page(setup)?.0,
            },
        })
    }

    /// Page `k` of the plan, as printed.
    fn draw(&self, k: usize) -> Result<Drawing> {
        let mut d = match &self.sheets[k] {
            Sheet::Kept(d) => return Ok(d.clone()),
            Sheet::Puzzle { puzzle, key } => self.puzzle(*puzzle, *key)?,
            Sheet::Answers { setup, puzzles } => answers_page(
                setup,
                puzzles,
                &|i| &self.products[i],
                &self.key_labels,
                self.keys_per_page,
            )?,
        };
        if self.grey {
            d.to_grey();
        }
        Ok(d)
    }
}

/// The answer page of `puzzles`' keys on `setup`.
fn answers_page<'a>(
    setup: &PageSetup,
    puzzles: &[usize],
    product: &dyn Fn(usize) -> &'a Product,
    key_labels: &[String],
    per_page: usize,
) -> Result<Drawing> {
    let keys: Vec<AnswerKey<'_>> = puzzles
        .iter()
        .map(|&i| AnswerKey {
            maze: product(i).key_maze(),
            label: &key_labels[i],
        })
        .collect();
    draw::answers_page(setup, &keys, per_page)
        .map_err(|e| Error::new(e.kind, format!("answer pages: {}", e.message)))
}

/// The puzzles' warnings (`per_puzzle[i]`: puzzle `i + 1`'s, labelled `labels[i]`), one line
/// per kind: a warning only one puzzle has keeps its label in front (`Puzzle 3: ...`); a kind
/// several puzzles share (the same words, numbers aside) is one line, its numbers given as
/// ranges, after how many puzzles and which: `21 puzzles (3, 5, 7, ...): 1 to 4 cells of the
/// shape dropped (not connected)`. Kinds are in the order they first appear.
pub fn group_warnings(per_puzzle: &[&[String]], labels: &[String]) -> Vec<String> {
    // kind -> (puzzles, each number slot's lowest and highest, the text between the numbers)
    struct Kind {
        puzzles: Vec<usize>,
        ranges: Vec<(u64, u64)>,
        words: Vec<String>,
        first: String,
    }
    let mut kinds: Vec<(String, Kind)> = Vec::new();
    for (i, ws) in per_puzzle.iter().enumerate() {
        for w in ws.iter() {
            let (words, numbers) = split_numbers(w);
            let key = words.join("#");
            let at = match kinds.iter().position(|(k, _)| *k == key) {
                Some(at) => at,
                None => {
                    kinds.push((
                        key,
                        Kind {
                            puzzles: Vec::new(),
                            ranges: numbers.iter().map(|&n| (n, n)).collect(),
                            words,
                            first: w.clone(),
                        },
                    ));
                    kinds.len() - 1
                }
            };
            let kind = &mut kinds[at].1;
            if kind.puzzles.last() != Some(&i) {
                kind.puzzles.push(i);
            }
            for (r, &n) in kind.ranges.iter_mut().zip(&numbers) {
                *r = (r.0.min(n), r.1.max(n));
            }
        }
    }
    kinds
        .into_iter()
        .map(|(_, k)| {
            if k.puzzles.len() == 1 {
                return format!("{}: {}", labels[k.puzzles[0]], k.first);
            }
            let mut text = k.words[0].clone();
            for (r, w) in k.ranges.iter().zip(&k.words[1..]) {
                if r.0 == r.1 {
                    text.push_str(&r.0.to_string());
                } else {
                    text.push_str(&format!("{} to {}", r.0, r.1));
                }
                text.push_str(w);
            }
            const SHOWN: usize = 8;
            let mut which: Vec<String> = k
                .puzzles
                .iter()
                .take(SHOWN)
                .map(|i| (i + 1).to_string())
                .collect();
            if k.puzzles.len() > SHOWN {
                which.push("...".into());
            }
            format!("{} puzzles ({}): {text}", k.puzzles.len(), which.join(", "))
        })
        .collect()
}

/// A warning's text split at its whole numbers: the words around them (one more than the
/// numbers) and the numbers.
fn split_numbers(w: &str) -> (Vec<String>, Vec<u64>) {
    let mut words = vec![String::new()];
    let mut numbers = Vec::new();
    let mut chars = w.char_indices().peekable();
    while let Some((at, c)) = chars.next() {
        // a number stands alone: not part of a word or a decimal (`x2`, `0.5`)
        let before = w[..at].chars().next_back();
        let alone = before.is_none_or(|b| !b.is_alphanumeric() && b != '.');
        if c.is_ascii_digit() && alone {
            let mut end = at + 1;
            while let Some(&(i, d)) = chars.peek() {
                if !d.is_ascii_digit() {
                    break;
                }
                end = i + 1;
                chars.next();
            }
            let after = w[end..].chars().next();
            match w[at..end].parse::<u64>() {
                Ok(n) if after.is_none_or(|a| !a.is_alphanumeric() && a != '.') => {
                    numbers.push(n);
                    words.push(String::new());
                }
                _ => words.last_mut().unwrap().push_str(&w[at..end]),
            }
        } else {
            words.last_mut().unwrap().push(c);
        }
    }
    (words, numbers)
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
        || design.placement != Placement::Auto
        || design.starts > 1
        || design.style != Style::Walls
    {
        return Ok(None);
    }
    let other = Design {
        placement: Placement::TopBottom,
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

fn make_one(
    book: &Book,
    spec: &PuzzleSpec,
    i: usize,
    (page, key_page): (u32, u32),
    shapes: &ShapeCache,
) -> Result<(Product, Page)> {
    let s = &book.settings;
    let shape = |turn: bool| -> Result<Option<Arc<Foreground>>> {
        let d = Design {
            turn,
            ..spec.design.clone()
        };
        Ok(cache_key(&d).and_then(|k| shapes.get(&k)).cloned())
    };
    let design = settled(spec, s, &shape)?;
    let fg = cache_key(&design).and_then(|k| shapes.get(&k));
    let how = How {
        fit: Fit {
            height: spec.fit_height,
            size_limit: spec.size_limit,
        },
        search: true,
    };
    let setup = s.puzzle_setup(&spec.design, i + 1, page, key_page);
    let lay_out = |product: &Product| -> Result<(Drawing, Option<Drawing>, draw::Layout)> {
        Ok(if s.answers == Answers::AfterEach {
            let key_setup = crate::page::PageSetup {
                title: Some(s.key_label_for(i + 1, page)),
                ..setup.next_page()
            };
            let p = product.pages(&setup, &key_setup)?;
            (p.puzzle, Some(p.key), p.layout)
        } else {
            let (puzzle, layout) = product.puzzle_page(&setup)?;
            (puzzle, None, layout)
        })
    };
    let mut product = make(&design, fg, how)?;
    let (mut puzzle, mut key, mut layout) = lay_out(&product)?;
    if let Some(again) = placed_above(&product, layout.coverage(), &setup, (&design, fg, how))? {
        (puzzle, key, layout) = lay_out(&again)?;
        product = again;
    }
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
    if product.dropped_cells() > 0 {
        warnings.push(format!(
            "{} cells of the shape dropped (not connected)",
            product.dropped_cells()
        ));
    }
    let binding = |n: u32| {
        if s.page_setup(n, None).inside_is_left() {
            preflight::Binding::Left
        } else {
            preflight::Binding::Right
        }
    };
    // what the book needs of the pages until they are written: their text and preflight facts
    let facts = |mut d: Drawing, n: u32| {
        if s.interior == Interior::Bw {
            d.to_grey();
        }
        let f = preflight::Page::new(&d, binding(n));
        (d.text_only(), f)
    };
    let key_setup = (s.answers == Answers::AfterEach).then(|| crate::page::PageSetup {
        title: Some(s.key_label_for(i + 1, page)),
        ..setup.next_page()
    });
    Ok((
        product,
        Page {
            setup: (setup, key_setup),
            puzzle: facts(puzzle, page),
            key: key.map(|k| facts(k, key_page)),
            warnings,
            corridor: preflight::Corridors::of(&layout),
            coverage: layout.coverage(),
        },
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn book(text: &str) -> Book {
        super::super::parse(text, std::path::Path::new("."), &crate::load::Memory::new()).unwrap()
    }

    fn kinds(b: &Book) -> Vec<(u32, PageKind, bool)> {
        plan(b)
            .iter()
            .map(|p| (p.number, p.kind, p.in_answers_file))
            .collect()
    }

    #[test]
    fn puzzle_one_goes_on_a_right_hand_page_and_the_book_is_padded() {
        use PageKind::*;
        let pages = "[[pages]]\ncount = 3\nseed_from = 1\nwidth = 5\n";
        let b = book(&format!(
            "[book]\nfront = [\"title\", \"contents\"]\npuzzles_start = \"right\"\n\
             page_count = \"multiple-of-4\"\nallow_short = true\n{pages}"
        ));
        assert_eq!(
            kinds(&b),
            [
                (1, Title, false),
                (2, Contents, false),
                (3, Puzzle, false),
                (4, Puzzle, false),
                (5, Puzzle, false),
                (6, Answers, false),
                (7, Blank, false),
                (8, Blank, false)
            ]
        );
        // a first page numbered 2 puts the title on a left-hand page: a blank before puzzle 1
        // goes only where puzzle 1 would be even
        let b = book(&format!(
            "[book]\nfront = [\"title\"]\npuzzles_start = \"right\"\nfirst_page_number = 2\n{pages}"
        ));
        assert_eq!(kinds(&b)[..2], [(2, Title, false), (3, Puzzle, false)]);
        let b = book(&format!(
            "[book]\nfront = [\"title\", \"how-to\", \"belongs-to\"]\npuzzles_start = \"right\"\n{pages}"
        ));
        assert_eq!(
            kinds(&b)[2..5],
            [(3, HowTo, false), (4, Blank, false), (5, Puzzle, false)]
        );
        // separate answers: book.pdf is padded, answers.pdf is not
        let b = book(&format!(
            "[book]\nanswers = \"separate\"\npage_count = \"even\"\n{pages}"
        ));
        assert_eq!(
            kinds(&b),
            [
                (1, Puzzle, false),
                (2, Puzzle, false),
                (3, Puzzle, false),
                (4, Blank, false),
                (1, Answers, true)
            ]
        );
    }

    #[test]
    fn warnings_are_one_line_per_kind_with_counts_and_puzzles() {
        let labels: Vec<String> = (1..=12).map(|n| format!("Puzzle {n}")).collect();
        let dropped = |n: usize| format!("{n} cells of the shape dropped (not connected)");
        let mut per: Vec<Vec<String>> = vec![Vec::new(); 12];
        for (i, n) in [
            (2, 1),
            (4, 4),
            (6, 1),
            (7, 2),
            (8, 3),
            (9, 1),
            (10, 1),
            (11, 1),
            (3, 2),
        ] {
            per[i].push(dropped(n));
        }
        per[5].push("corridors 2.5 mm wide, under the 3 mm asked for".into());
        per[0].push("the title is too long and was shrunk to 0.5 of its size".into());
        per[1].push("the title is too long and was shrunk to 0.5 of its size".into());
        let refs: Vec<&[String]> = per.iter().map(|w| &w[..]).collect();
        assert_eq!(
            group_warnings(&refs, &labels),
            [
                "2 puzzles (1, 2): the title is too long and was shrunk to 0.5 of its size",
                "9 puzzles (3, 4, 5, 7, 8, 9, 10, 11, ...): 1 to 4 cells of the shape dropped \
                 (not connected)",
                "Puzzle 6: corridors 2.5 mm wide, under the 3 mm asked for",
            ]
        );
        assert_eq!(
            split_numbers("x2 and 10 of 0.5"),
            (vec!["x2 and ".into(), " of 0.5".into()], vec![10])
        );
    }

    #[test]
    fn contents_sections_are_runs_of_one_level_merged_to_fit() {
        let s = Settings::default();
        let pages: Vec<u32> = (10..30).collect();
        let lines = |stars: &[Option<usize>], cap: usize| -> Vec<String> {
            contents_lines(&s, stars, true, &pages[..stars.len()], Some(40), cap)
                .iter()
                .map(|l| format!("{} {}", l.text, l.page))
                .collect()
        };
        let ramp: Vec<Option<usize>> = [1, 1, 1, 1, 2, 2, 2, 1, 2, 2, 3, 3, 3]
            .into_iter()
            .map(Some)
            .collect();
        // the lone 1 among the 2s joins them
        assert_eq!(
            lines(&ramp, 10),
            [
                "Puzzles 1 to 4: Ages 3-5 10",
                "Puzzles 5 to 10: Ages 3-5 to Ages 6-8 14",
                "Puzzles 11 to 13: Ages 9-12 20",
                "Answers 40"
            ]
        );
        // two lines of room: one section and the answers
        assert_eq!(
            lines(&ramp, 2),
            ["Puzzles 1 to 13: Ages 3-5 to Ages 9-12 10", "Answers 40"]
        );
        // mazes without a level (tiles): one section, no level
        assert_eq!(
            lines(&[None, None], 10),
            ["Puzzles 1 to 2 10", "Answers 40"]
        );
        assert_eq!(lines(&[Some(5)], 10), ["Puzzle 1: Expert 10", "Answers 40"]);
        // without presets, the stars each maze earns
        let stars = |l: &[Option<usize>]| -> Vec<String> {
            contents_lines(&s, l, false, &pages[..l.len()], None, 10)
                .iter()
                .map(|l| l.text.clone())
                .collect()
        };
        assert_eq!(
            stars(&[Some(4), Some(4), Some(4), Some(5), Some(5), Some(5)]),
            [
                "Puzzles 1 to 3: level 4 of 5",
                "Puzzles 4 to 6: level 5 of 5"
            ]
        );
        assert_eq!(
            stars(&[Some(2), Some(3)]),
            ["Puzzle 1: level 2 of 5", "Puzzle 2: level 3 of 5"]
        );
    }
}
