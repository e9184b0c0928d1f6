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

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use super::cover::{COVER_PDF, make_cover};
use super::digests::Digests;
use super::manifest::Record;
use super::plan::{ANSWERS_PDF, PageKind, PageNumbers, Planned, plan, svg_names};
use super::puzzle::{Page, make_all};
use super::shapes::{load_shapes, varied};
use super::sheets::{Sheets, draw_pages};
use super::warnings::group_warnings;
use super::{Book, KDP_MIN_PAGES, PageCount, Settings};
use crate::draw::{self, Drawing};
use crate::error::{Error, Result};
use crate::export::{Body, Later, pdf};
use crate::load::Loader;
use crate::preflight;

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
    // the shapes' pictures' digests, for the manifest beside the start and finish pictures'
    let read = Digests::recording(loader);
    let shapes = load_shapes(book, &read)?;
    let mut pictures = book.pictures.clone();
    pictures.extend(read.into_read());
    // no shape twice at one grid size: a generator's page that would is resized
    let book = &Book {
        puzzles: varied(book, &shapes),
        ..book.clone()
    };
    let planned = plan(book);
    check_length(s, &planned)?;
    let answer_pages = planned
        .iter()
        .filter(|p| p.kind == PageKind::Answers)
        .count();
    let steps = Steps::start(book.puzzles.len() + answer_pages + 1, progress);
    let tick = || steps.tick();
    let numbers = PageNumbers::of(&planned, book.puzzles.len());
    let (products, made) = make_all(book, &numbers, &shapes, &tick)?;
    let labels: Vec<String> = (1..=book.puzzles.len()).map(|n| s.label_for(n)).collect();
    let (sheets, texts, facts) = draw_pages(book, &planned, &numbers, products, &made, &tick)?;
    let sheets = Arc::new(sheets);
    let mut docs = Documents::lay_out(book, &planned, &sheets, &texts)?;
    steps.tick();
    let svg_names = svg_names(&planned);
    let warnings = warnings(&made, &labels, &texts, docs.cover.as_ref().map(|(d, _)| d));
    let preflight = docs.preflight(facts, &made, s, &warnings);
    let manifest = Record {
        book,
        planned: &planned,
        svg_names: &svg_names,
        numbers: &numbers,
        labels: &labels,
        made: &made,
        products: &sheets.products,
        book_pages: docs.book_pages.len(),
        answer_pages: docs.answers.as_ref().map(|_| docs.answer_pages.len()),
        cover: docs.cover.as_ref().map(|(_, wrap)| wrap),
        preflight: &preflight,
        pictures: &pictures,
    }
    .json()?;
    let cover = docs.cover.take().map(|(d, _)| d);
    let files = docs.files(&sheets, manifest, svg_names);
    Ok(Built {
        warnings,
        cover,
        files,
        pages: planned.len(),
        puzzles: book.puzzles.len(),
        preflight,
    })
}

/// Checks that a book padded to a page count is as long as Amazon KDP prints (unless
/// `allow_short`).
fn check_length(s: &Settings, planned: &[Planned]) -> Result<()> {
    let in_pdf = planned.iter().filter(|p| !p.in_answers_file).count();
    if s.page_count != PageCount::Any && !s.allow_short && in_pdf < KDP_MIN_PAGES {
        return Err(Error::option(format!(
            "the book has {in_pdf} pages; Amazon KDP prints paperbacks from {KDP_MIN_PAGES}: add \
             puzzles or front pages, or set allow_short = true for a shorter booklet"
        )));
    }
    Ok(())
}

/// A build's progress: `report(done, total)` as each step finishes.
struct Steps<'a> {
    done: AtomicUsize,
    total: usize,
    report: &'a (dyn Fn(usize, usize) + Sync),
}

impl<'a> Steps<'a> {
    /// `total` steps, none done yet (and reported so).
    fn start(total: usize, report: &'a (dyn Fn(usize, usize) + Sync)) -> Steps<'a> {
        report(0, total);
        Steps {
            done: AtomicUsize::new(0),
            total,
            report,
        }
    }

    /// One more step done.
    fn tick(&self) {
        (self.report)(self.done.fetch_add(1, Ordering::Relaxed) + 1, self.total);
    }
}

/// A book's PDFs laid out (their text and fonts) and written later page by page, each page
/// drawn again from its maze in its turn: the book never holds its pages' drawings. And its
/// cover, made whole.
struct Documents {
    /// The pages of `book.pdf` and of `answers.pdf`, by their index in the plan.
    book_pages: Vec<usize>,
    answer_pages: Vec<usize>,
    book: pdf::Prepared,
    /// `answers.pdf` (answers = "separate").
    answers: Option<pdf::Prepared>,
    /// The cover and its geometry, and `cover.pdf`'s bytes.
    cover: Option<(Drawing, draw::Wrap)>,
    cover_pdf: Option<Vec<u8>>,
}

impl Documents {
    /// Lays out the PDFs of the `planned` pages from their `texts`, and makes the cover from
    /// the puzzles' pages (`sheets`).
    fn lay_out(
        book: &Book,
        planned: &[Planned],
        sheets: &Sheets,
        texts: &[Drawing],
    ) -> Result<Documents> {
        let s = &book.settings;
        let title = s.title_or_default();
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
        let book_pdf = pdf::prepare(&texts_of(&book_pages), &info);
        let cover = match &s.cover {
            Some(c) => Some(make_cover(
                book,
                c,
                // every shape upright on the cover, its page turned or not
                &|i| sheets.upright(i),
                book_pages.len(),
            )?),
            None => None,
        };
        let cover_pdf = cover.as_ref().map(|(d, _)| pdf::pdf_with(&[d], &info));
        let answers_title = format!("{title}: {}", s.answers_heading);
        let answers = (!answer_pages.is_empty()).then(|| {
            pdf::prepare(
                &texts_of(&answer_pages),
                &pdf::Info {
                    title: &answers_title,
                    ..info
                },
            )
        });
        Ok(Documents {
            book_pages,
            answer_pages,
            book: book_pdf,
            answers,
            cover,
            cover_pdf,
        })
    }

    /// What a print service would check: the pages' `facts`, the fonts of `book.pdf`, the
    /// puzzle whose corridors or doors come nearest their minimum (or furthest under it),
    /// `book.pdf`'s page count on the book's trim and paper (`s`), its cover, and the
    /// `warnings` the making gave.
    fn preflight(
        &self,
        facts: Vec<preflight::Page>,
        made: &[Page],
        s: &Settings,
        warnings: &[String],
    ) -> preflight::Report {
        preflight::check(&preflight::Subject {
            pages: facts,
            fonts: self.book.fonts(),
            corridor: made
                .iter()
                .map(|m| m.corridor)
                .min_by(|a, b| a.slack().total_cmp(&b.slack())),
            // KDP prints book.pdf: the front matter, the puzzles and the answers in it (not
            // answers.pdf's pages)
            book_pages: Some(self.book_pages.len()),
            print: Some(preflight::Print {
                trim_mm: s.page_setup(1, None).trim_mm(),
                paper: s.cover.as_ref().map(|c| c.paper.paper_ink()),
            }),
            cover: self
                .cover
                .as_ref()
                .zip(self.cover_pdf.as_ref())
                .map(|((d, wrap), bytes)| preflight::CoverSubject {
                    drawing: d,
                    wrap: *wrap,
                    pages: self.book_pages.len(),
                    pdf: bytes,
                }),
            warnings,
        })
    }

    /// The book's files, in [`Built::files`]' order, with the `manifest` and the pages' SVGs
    /// (`svg_names`, in plan order): each PDF's pages and each SVG drawn again from `sheets` as
    /// the file is written, one at a time.
    fn files(
        self,
        sheets: &Arc<Sheets>,
        manifest: Vec<u8>,
        svg_names: Vec<String>,
    ) -> Vec<OutputFile> {
        let mut files = vec![
            OutputFile {
                path: "book.pdf".into(),
                body: written(sheets, self.book, self.book_pages),
            },
            OutputFile {
                path: "manifest.json".into(),
                body: Body::Bytes(manifest),
            },
        ];
        if let Some(bytes) = self.cover_pdf {
            files.insert(
                1,
                OutputFile {
                    path: COVER_PDF.into(),
                    body: Body::Bytes(bytes),
                },
            );
        }
        if let Some(doc) = self.answers {
            files.insert(
                1,
                OutputFile {
                    path: ANSWERS_PDF.into(),
                    body: written(sheets, doc, self.answer_pages),
                },
            );
        }
        files.extend(svg_names.into_iter().enumerate().map(|(k, name)| {
            let sheets = sheets.clone();
            OutputFile {
                path: name.into(),
                body: Body::SvgLater(Later(Arc::new(move || sheets.draw(k)))),
            }
        }));
        files
    }
}

/// A PDF written page by page: page `i` of `doc` is page `pages[i]` of the plan, drawn again
/// from its maze in its turn.
fn written(sheets: &Arc<Sheets>, doc: pdf::Prepared, pages: Vec<usize>) -> Body {
    let sheets = sheets.clone();
    Body::Written(Later(Arc::new(move |out: &mut dyn std::io::Write| {
        doc.write(&|i| sheets.draw(pages[i]).map(std::borrow::Cow::Owned), out)
    })))
}

/// The book's warnings: the puzzles' (`made`, labelled `labels`), one line per kind, then the
/// characters no font of the pages (`texts`) or the cover prints.
fn warnings(
    made: &[Page],
    labels: &[String],
    texts: &[Drawing],
    cover: Option<&Drawing>,
) -> Vec<String> {
    let per_puzzle: Vec<&[String]> = made.iter().map(|m| &m.warnings[..]).collect();
    let mut warnings = group_warnings(&per_puzzle, labels);
    warnings.extend(draw::glyph_warnings(texts.iter().chain(cover)));
    warnings
}
