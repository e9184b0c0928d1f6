//! A book's pages: each page of the plan drawn once, in parallel, for its text and what
//! preflight reads of it ([`draw_pages`]), and drawn again from its maze when its files are
//! written ([`Sheets`]): the book never holds its pages' drawings.

use rayon::prelude::*;

use super::plan::{PageKind, PageNumbers, Planned, contents_lines, how_to_steps};
use super::puzzle::{Page, Product, example, printed};
use super::{Book, Front, Interior};
use crate::draw::{self, AnswerKey, Drawing};
use crate::error::{Error, Result};
use crate::page::PageSetup;
use crate::preflight;

/// How a page of a book is drawn again when its files are written.
#[derive(Debug)]
pub(super) enum Sheet {
    /// A page of the front matter or a blank: small, kept as drawn (in grey for a black and
    /// white interior).
    Kept(Drawing),
    /// Puzzle `puzzle`'s page, or its key's (answers after each).
    Puzzle { puzzle: usize, key: bool },
    /// An answer page of these puzzles' keys.
    Answers {
        setup: Box<PageSetup>,
        puzzles: Vec<usize>,
    },
}

/// A book's pages, drawn again from their mazes when their files are written: the book holds
/// its mazes, never its pages' drawings (a 1000 x 1000 maze's page is about 9 MB drawn, its
/// maze 3 MB).
#[derive(Debug)]
pub(super) struct Sheets {
    /// Each page of the plan.
    sheets: Vec<Sheet>,
    /// Each puzzle's maze.
    pub(super) products: Vec<Product>,
    /// Each puzzle's page setup, and its key's (answers after each).
    setups: Vec<(PageSetup, Option<PageSetup>)>,
    key_labels: Vec<String>,
    keys_per_page: usize,
    /// The book's colours: a black and white interior's pages in grey.
    interior: Interior,
}

impl Sheets {
    /// Puzzle `i`'s page (its key's when `key`), in colour, as it was first drawn.
    pub(super) fn puzzle(&self, i: usize, key: bool) -> Result<Drawing> {
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

    /// Puzzle `i`'s page as its content was drawn: a page turned with its shape
    /// ([`PageSetup::turned`]) turned back, its shape upright (for the cover's cards).
    pub(super) fn upright(&self, i: usize) -> Result<Drawing> {
        let d = self.puzzle(i, false)?;
        Ok(if self.setups[i].0.turned {
            d.turned_back()
        } else {
            d
        })
    }

    /// Page `k` of the plan, as printed.
    pub(super) fn draw(&self, k: usize) -> Result<Drawing> {
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
        self.interior.print(&mut d);
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

/// Draws every page of `planned` in parallel, calling `tick` as each answer page is drawn: how
/// each is drawn again when its files are written ([`Sheets`], which takes the puzzles' mazes),
/// and, in plan order, each page's text (for the PDF's fonts) and what preflight reads of it;
/// a big page's drawing is dropped here.
pub(super) fn draw_pages(
    book: &Book,
    planned: &[Planned],
    numbers: &PageNumbers,
    products: Vec<Product>,
    made: &[Page],
    tick: &(dyn Fn() + Sync),
) -> Result<(Sheets, Vec<Drawing>, Vec<preflight::Page>)> {
    let s = &book.settings;
    // the keys' labels: with solution_refs, the puzzle's page beside its number
    let key_labels: Vec<String> = numbers
        .puzzle
        .iter()
        .enumerate()
        .map(|(i, &p)| s.key_label_for(i + 1, p))
        .collect();
    let which_path = products
        .iter()
        .any(|m| matches!(m, Product::Walls(g) if g.starts.len() > 1));
    let example = if s.front_pages().contains(&Front::HowTo) {
        Some(example()?)
    } else {
        None
    };
    let drawer = Drawer {
        book,
        numbers,
        products: &products,
        made,
        key_labels: &key_labels,
        which_path,
        example,
        tick,
    };
    let drawn: Vec<(Sheet, Drawing, preflight::Page)> = planned
        .par_iter()
        .map(|p| drawer.sheet(p))
        .collect::<Result<_>>()?;
    let mut texts: Vec<Drawing> = Vec::with_capacity(drawn.len());
    let mut facts: Vec<preflight::Page> = Vec::with_capacity(drawn.len());
    let sheets: Vec<Sheet> = drawn
        .into_iter()
        .map(|(sheet, text, f)| {
            texts.push(text);
            facts.push(f);
            sheet
        })
        .collect();
    let sheets = Sheets {
        sheets,
        products,
        setups: made.iter().map(|m| m.setup.clone()).collect(),
        key_labels,
        keys_per_page: s.keys_per_page as usize,
        interior: s.interior,
    };
    Ok((sheets, texts, facts))
}

/// What drawing a book's pages the first time needs.
struct Drawer<'a> {
    book: &'a Book,
    numbers: &'a PageNumbers,
    /// Each puzzle's maze and its pages as made.
    products: &'a [Product],
    made: &'a [Page],
    key_labels: &'a [String],
    /// Whether a puzzle has several starts ("Which path?"): the how-to page says how to solve it.
    which_path: bool,
    /// A small solved maze for the how-to page, when the book has one.
    example: Option<Product>,
    tick: &'a (dyn Fn() + Sync),
}

impl Drawer<'_> {
    /// Page `p` of the plan: how it is drawn again, its text and its preflight facts.
    fn sheet(&self, p: &Planned) -> Result<(Sheet, Drawing, preflight::Page)> {
        let s = &self.book.settings;
        let setup = || s.page_setup(p.number, None);
        let d = match p.kind {
            PageKind::Puzzle | PageKind::Key => return Ok(self.puzzle(p)),
            PageKind::Answers => return self.answers(p),
            PageKind::Title => draw::title_page(
                &setup(),
                s.title.as_deref().unwrap_or(""),
                s.subtitle.as_deref(),
                s.author.as_deref(),
            )?,
            PageKind::Copyright => draw::copyright_page(
                &setup(),
                &draw::Copyright {
                    title: s.title_or_default(),
                    author: s.author.as_deref().unwrap_or_default(),
                    year: s.year.unwrap_or_default(),
                    isbn: s.isbn.as_deref(),
                    rights: s.rights.as_deref().unwrap_or(s.words().get("rights")),
                    credit: s.credit,
                },
            )?,
            PageKind::BelongsTo => draw::belongs_to_page(&setup())?,
            PageKind::HowTo => draw::how_to_page(
                &setup(),
                &how_to_steps(s, self.numbers.first_answers, self.which_path),
                self.example.as_ref().map(Product::key_maze),
            )?,
            PageKind::Contents => self.contents(&setup())?,
            PageKind::Blank => draw::blank_page(&setup())?,
        };
        // a front page or a blank: small, kept as drawn
        let (d, facts) = printed(d, s, p.number);
        let text = d.text_only();
        Ok((Sheet::Kept(d), text, facts))
    }

    /// A puzzle's page or its key's, as made with the puzzle.
    fn puzzle(&self, p: &Planned) -> (Sheet, Drawing, preflight::Page) {
        let i = p.puzzles[0];
        let key = p.kind == PageKind::Key;
        let (text, facts) = if key {
            self.made[i]
                .key
                .clone()
                .expect("after-each puzzles have their key")
        } else {
            self.made[i].puzzle.clone()
        };
        (Sheet::Puzzle { puzzle: i, key }, text, facts)
    }

    /// An answer page.
    fn answers(&self, p: &Planned) -> Result<(Sheet, Drawing, preflight::Page)> {
        let s = &self.book.settings;
        let setup = s.page_setup(p.number, Some(s.answers_heading.clone()));
        let d = answers_page(
            &setup,
            &p.puzzles,
            &|i| &self.products[i],
            self.key_labels,
            s.keys_per_page as usize,
        )?;
        (self.tick)();
        let (d, facts) = printed(d, s, p.number);
        let sheet = Sheet::Answers {
            setup: Box::new(setup),
            puzzles: p.puzzles.clone(),
        };
        Ok((sheet, d.text_only(), facts))
    }

    /// The contents page on `setup`: the puzzles in sections by the stars their pages show
    /// (a preset's level's, [`super::ramp::star_counts`]), named by the ramp's presets when
    /// every puzzle has one.
    fn contents(&self, setup: &PageSetup) -> Result<Drawing> {
        let named = self.book.puzzles.iter().all(|p| p.level.is_some());
        let levels: Vec<Option<usize>> = self.made.iter().map(|m| m.stars).collect();
        let lines = contents_lines(
            &self.book.settings,
            &levels,
            named,
            &self.numbers.puzzle,
            self.numbers.first_answers,
            draw::contents_capacity(setup),
        );
        draw::contents_page(setup, &lines)
    }
}
