//! A book's manifest (`manifest.json`): its files, its settings, each page and each puzzle as
//! made (seed, design, metrics, coverage, warnings) and the preflight report, so a puzzle can
//! be made again ([`super::reprint`]) and a rebuild checked.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Serialize;

use super::Book;
use super::Settings;
use super::cover::COVER_PDF;
use super::plan::{ANSWERS_PDF, PageKind, PageNumbers, Planned};
use super::puzzle::{Page, Product};
use crate::design::Design;
use crate::draw;
use crate::error::{Error, Result};
use crate::metrics::Metrics;
use crate::preflight;

/// The manifest's `format` field.
pub const MANIFEST_FORMAT: &str = "hedge-book";

/// The manifest's `version`: 2 records the book file's folder (`book_dir`), every path
/// relative to it, and each picture's digest (`pictures`); 1 (before) recorded the paths as
/// the book file was named when the book was built.
pub const MANIFEST_VERSION: u32 = 2;

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
    /// As made, its files' paths relative to the book file's folder.
    design: Design,
    /// The measured metrics (mazes of cells and walls).
    #[serde(skip_serializing_if = "Option::is_none")]
    metrics: Option<&'a Metrics>,
    /// Where the maze stands, in words: `harder than 82 % of mazes of this size and shape`
    /// (the numbers are the metrics' `standing`).
    #[serde(skip_serializing_if = "Option::is_none")]
    standing: Option<String>,
    /// The stars its page shows, 1 to 5, when it shows them (its preset's level, or the
    /// measured ones kept from falling along its generator's ramp): `hedge regenerate` prints
    /// the same.
    #[serde(skip_serializing_if = "Option::is_none")]
    stars: Option<usize>,
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
    /// The book file's folder, relative to the manifest's (or absolute): the designs' file
    /// paths and `pictures` are relative to it.
    #[serde(skip_serializing_if = "Option::is_none")]
    book_dir: Option<&'a Path>,
    /// Every picture file the book read (shapes, start and finish pictures), relative to
    /// `book_dir`, with the MD5 of its bytes.
    pictures: BTreeMap<PathBuf, &'a str>,
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
    /// The book's words when its strings file changed them (`hedge regenerate` prints them).
    #[serde(skip_serializing_if = "Option::is_none")]
    words: Option<&'a BTreeMap<String, String>>,
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

/// What the manifest records of a book as built.
pub(super) struct Record<'a> {
    pub(super) book: &'a Book,
    /// The page plan, and each page's SVG's name.
    pub(super) planned: &'a [Planned],
    pub(super) svg_names: &'a [String],
    pub(super) numbers: &'a PageNumbers,
    /// Each puzzle's label, its pages as made and its maze.
    pub(super) labels: &'a [String],
    pub(super) made: &'a [Page],
    pub(super) products: &'a [Product],
    /// Pages in `book.pdf`.
    pub(super) book_pages: usize,
    /// Pages in `answers.pdf`, when the answers are separate.
    pub(super) answer_pages: Option<usize>,
    /// The cover's geometry, when the book has one.
    pub(super) cover: Option<&'a draw::Wrap>,
    pub(super) preflight: &'a preflight::Report,
    /// Each picture file read, by path (as read), with its digest.
    pub(super) pictures: &'a BTreeMap<PathBuf, String>,
}

/// `path` relative to the book file's folder `base` when it was joined to it (a relative path
/// in a book or design file); an absolute path of the book's as it is.
fn from_book(path: &Path, base: &Path) -> PathBuf {
    path.strip_prefix(base).unwrap_or(path).to_path_buf()
}

/// `design` with its files' paths relative to the book file's folder `base` ([`from_book`]).
pub(super) fn relative_design(design: &Design, base: &Path) -> Design {
    let mut d = design.clone();
    // the closure never fails
    let _ = d.picture_files(&mut |p| {
        *p = from_book(p, base);
        Ok(())
    });
    d
}

impl Record<'_> {
    /// The manifest's bytes: pretty JSON and a newline.
    pub(super) fn json(&self) -> Result<Vec<u8>> {
        let s = &self.book.settings;
        let (pw, ph) = s.page_setup(1, None).page_mm();
        let manifest = Manifest {
            format: MANIFEST_FORMAT,
            version: MANIFEST_VERSION,
            hedge: env!("CARGO_PKG_VERSION"),
            book_dir: self.book.book_dir.as_deref(),
            pictures: self
                .pictures
                .iter()
                .map(|(p, d)| (from_book(p, &self.book.base), d.as_str()))
                .collect(),
            pdf: "book.pdf",
            answers_pdf: self.answer_pages.map(|_| ANSWERS_PDF),
            answers_page_count: self.answer_pages,
            page_count: self.book_pages,
            page_size_mm: [pw, ph],
            cover: self.cover.map(|w| {
                let (cw, ch) = w.size();
                ManifestCover {
                    pdf: COVER_PDF,
                    size_mm: [cw, ch],
                    spine_mm: w.spine,
                }
            }),
            settings: s,
            words: s.words.as_deref().map(crate::lang::Words::table),
            pages: self.pages(),
            puzzles: self.puzzles(),
            preflight: self.preflight,
        };
        let mut json = serde_json::to_vec_pretty(&manifest)
            .map_err(|e| Error::input(format!("cannot write the manifest: {e}")))?;
        json.push(b'\n');
        Ok(json)
    }

    /// Each page of the plan: its number, kind, file and puzzles.
    fn pages(&self) -> Vec<ManifestPage> {
        self.planned
            .iter()
            .zip(self.svg_names)
            .map(|(p, svg)| ManifestPage {
                page: p.number,
                kind: p.kind,
                pdf: p.in_answers_file.then_some(ANSWERS_PDF),
                svg: svg.clone(),
                puzzles: p.puzzles.iter().map(|i| i + 1).collect(),
            })
            .collect()
    }

    /// Each puzzle as made.
    fn puzzles(&self) -> Vec<ManifestPuzzle<'_>> {
        self.made
            .iter()
            .zip(self.products)
            .zip(&self.book.puzzles)
            .enumerate()
            .map(|(i, ((m, product), spec))| ManifestPuzzle {
                number: i + 1,
                label: self.labels[i].clone(),
                source: &spec.source,
                page: self.numbers.puzzle[i],
                key_page: self.numbers.key[i],
                seed: product.seed(),
                seed_bumped_from: spec.seed_bumped_from,
                algorithm_used: product.algorithm_used(),
                dropped_cells: product.dropped_cells(),
                coverage: (m.coverage * 10.0).round() / 10.0,
                design: relative_design(product.design(), &self.book.base),
                metrics: product.metrics(),
                standing: product
                    .metrics()
                    .and_then(|x| x.standing)
                    .map(|x| x.phrase()),
                stars: m.stars.filter(|_| m.setup.0.stars),
                tiles: match product {
                    Product::Walls(_) => None,
                    Product::Tiles(t) => Some(TileCounts {
                        open: t.maze.grid.open_count(),
                        solution_length: t.maze.solution.len(),
                    }),
                },
                warnings: &m.warnings,
            })
            .collect()
    }
}
