//! Puzzle books: many pages from one book file, printed as one PDF with an answer section.
//!
//! This module owns the book file format (TOML) and its validation; [`build`] makes the
//! pages (in parallel, each through [`crate::make`]) and renders the PDF, the per-page SVGs and
//! the manifest. It reads nothing itself: book files, design files and pictures come through the
//! caller's [`Loader`] ([`load`], [`parse`], [`build`], [`fitted_design`]; the file system's is
//! `io::Files`, which the command line and the editor pass).
//! The file format:
//!
//! ```toml
//! [book]
//! title = "Animal Mazes"        # printed on the title page (and the PDF's title)
//! subtitle = "24 puzzles"       # under the title on the title page (and the PDF's subject)
//! author = "Ada Lovelace"       # under the subtitle on the title page (and the PDF's author)
//! title_page = true             # a title page first (default false)
//! trim = "8.5x11"               # a4, letter, 8.5x11, 8x10, 6x9, or WxHmm / WxHin
//! orientation = "portrait"      # or landscape
//! bleed = true                  # 0.125 in on the top, bottom and outside edges (KDP)
//! margin_mm = 12.7              # top, bottom and outside margin
//! gutter_mm = 6.35              # extra margin on the inside (binding) edge, mirrored
//! wall_mm = 0.5
//! font = "sans"                 # sans (Helvetica), serif (Times) or mono (Courier)
//! name_line = false             # a "Name: ____" line on every puzzle page
//! first_page_number = 1         # the number of the PDF's first page (the title page counts)
//! answers = "at-back"           # or "after-each" (the key on the page after its puzzle),
//!                               # or "separate" (the answer pages in answers.pdf)
//! keys_per_page = 4             # 1 to 9, for at-back and separate (grids up to 3 x 3)
//! label = "Puzzle {n}"          # the heading of each puzzle page and key; {n} = puzzle number
//! answers_heading = "Answers"   # the heading of the answer pages
//! front = ["title", "copyright", "belongs-to", "how-to", "contents"]  # front pages, in this order
//! year = 2026                   # the copyright page's (with author; isbn and rights optional)
//! puzzles_start = "right"       # puzzle 1 on a right-hand page (a blank page before it if needed)
//! page_count = "even"           # or "multiple-of-4": blank pages at the end; under 24 pages is an
//!                               # error then, unless allow_short = true
//! solution_refs = true          # "Solution on page N" under each puzzle; "Puzzle 7, page 9" keys
//! stars = true                  # every puzzle's level as 1 to 5 stars
//! interior = "bw"               # black and grey only (DeviceGray): the answer line grey, not
//!                               # red; theme pictures grey (default "color")
//! cover = { paper = "white", back_text = "..." }  # cover.pdf: a full wrap for white (cream,
//!                               # color) paper, the back cover's text wrapped
//!
//! [[pages]]                     # one page: a design file, as the editor saves it
//! design = "designs/owl.toml"   # relative to the book file
//!
//! [[pages]]                     # one page: an inline design
//! design = { topology = "hex", width = 30, height = 30, seed = 7, shape = { builtin = "cat" } }
//!
//! [[pages]]                     # a generator: `count` pages
//! count = 24
//! shapes = ["heart", "cat", "fish"]   # built-in names or picture files, taken in turn
//! seed_from = 1000              # page k (from 0) gets seed seed_from + k
//! width = "20..40"              # a number, or a ramp "A..B" from the first page to the last
//! braid = "0.3..0"              # ramps: width, height, braid
//! difficulty = "ages-3-5..ages-9-12"  # presets, interpolated page by page (or one name)
//! turn = true                   # turn every shape a quarter turn (default: the book decides)
//! topology = "hex"              # any other design field applies to every page
//! ```
//!
//! With `answers = "separate"` the answer pages (laid out as at the back) go to `answers.pdf`
//! beside `book.pdf`, numbered from 1, and `book.pdf` holds the title page and the puzzles;
//! the manifest names the file (`answers_pdf`) and each of its pages (`"pdf": "answers.pdf"`).
//!
//! The file is read into serde types: [`Settings`] for `[book]`; each page entry, by whether
//! it has `count`, as a single page (`design` only) or a generator (its own fields, the rest
//! design fields), with [`Ramp`] and [`DifficultyRamp`] parsed from their strings. A serde error
//! becomes one line naming the page and the key (`pages[2]: width: ...`).
//!
//! Rules, checked before anything is made or written:
//! - every page entry is either `design = ...` or `count = ...`; an error names the entry
//!   (`pages[3]`, counting from 1) and the field;
//! - a single page's design must carry a seed (a book prints the same every time);
//! - a generator without `height` fits the height to each shape's aspect ratio (square without a
//!   shape);
//! - no two puzzles share shape + seed: two single pages that do are an error; a generator page
//!   that would is moved to the next free seed (the manifest records the seed used, and
//!   [`Book::notes`] says so).
//!
//! ## Difficulty ramps
//!
//! A generator's `difficulty = "easy..hard"` (any two names of [`crate::difficulty::PRESETS`],
//! or one name for every page) gives page `k` of `n` the preset at position `k / (n - 1)`
//! between the two ([`DifficultyRamp`]), interpolated between the two presets it falls between
//! ([`crate::difficulty::preset_between`]): corridor width, braid and targets run linearly, the
//! carver and markers are the nearer preset's; the page's level ([`PuzzleSpec::level`], which
//! names its contents section) is the nearest preset. Unless the generator gives `width`, the
//! page gets the grid that keeps that corridor width on the book's page, so the grid grows page
//! by page (one name: that preset, exactly, on every page).
//!
//! ## Turned shapes and coverage
//!
//! A generator's shaped page with a fitted height ([`PuzzleSpec::auto_turn`]; a generator that
//! sets `turn` itself decides) is turned a quarter turn ([`Design::turn`]) when the turned shape
//! covers more of the page by at least a tenth: a wide animal stands up on a portrait page. The
//! manifest records each puzzle's `coverage`, in percent: the area of the box round the maze's
//! drawn walls (their centre lines) over the page's printable area, inside the margins and the
//! gutter ([`crate::draw::Layout::coverage`]).
//! Every puzzle whose design has targets is searched for ([`crate::difficulty::search`], the
//! default budget, reproducible) when the book is built; the manifest records the seed found.

mod build;
mod cover;
mod manifest;
mod plan;
mod puzzle;
mod reprint;
mod shapes;
mod sheets;
mod warnings;

use std::collections::BTreeMap;
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::design::{Design, MAX_SEED};
use crate::difficulty::{self, PRESETS, Preset};
use crate::error::{Error, Result};
use crate::load::Loader;
use crate::page::{Orientation, PageSetup, Paper, Typeface};
use crate::shape::{ShapeSource, builtin};

pub use build::{Built, OutputFile, build};
pub use cover::COVER_PDF;
pub use manifest::MANIFEST_FORMAT;
pub use plan::{ANSWERS_PDF, PageKind, puzzle_pages};
pub use puzzle::{Product, regenerate, regenerate_puzzle};
pub use reprint::{Reprint, reprint};
pub use shapes::fitted_design;
pub use warnings::group_warnings;

/// Where the answer keys go.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Answers {
    /// Each key on the page right after its puzzle.
    AfterEach,
    /// An answer section at the back, [`Settings::keys_per_page`] keys a page.
    #[default]
    AtBack,
    /// The answer pages (as at the back) in a file of their own, `answers.pdf` beside
    /// `book.pdf`, numbered from 1; `book.pdf` holds the puzzles only.
    Separate,
}

impl Answers {
    /// Whether the keys are gathered on answer pages ([`Settings::keys_per_page`] a page), at
    /// the back or in `answers.pdf`.
    pub fn on_answer_pages(self) -> bool {
        !matches!(self, Answers::AfterEach)
    }
}

/// A page of a book's front matter (`front = [...]`), printed in this order whatever the
/// order the book file lists them in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Front {
    /// The title page (the same as `title_page = true`).
    Title,
    /// The copyright page: the title, `author`, `year`, `rights` and `isbn`.
    Copyright,
    /// "This book belongs to ____".
    BelongsTo,
    /// How to solve a maze, with a small solved example.
    HowTo,
    /// The contents: the puzzle sections by difficulty, and the answers, with page numbers.
    Contents,
}

/// The colours a book prints in (`interior = ...`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Interior {
    /// As drawn: the red answer line, coloured start marks and theme pictures.
    #[default]
    Color,
    /// Black and grey only (DeviceGray in the PDF, no RGB colour at all): the answer line
    /// mid grey, every other colour the grey of its lightness ([`crate::draw::Drawing::to_grey`]).
    /// KDP's black-and-white interiors print colour as grey anyway, a red line as a weak one.
    Bw,
}

/// Where puzzle 1 goes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum PuzzlesStart {
    /// On the page after the front matter.
    #[default]
    Next,
    /// On a right-hand (odd-numbered) page, after a blank page where needed.
    Right,
}

/// What `book.pdf`'s page count is padded to, with blank pages at the end.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum PageCount {
    /// As many pages as the book has.
    #[default]
    Any,
    /// An even number (a printer's sheet has two sides).
    Even,
    /// A multiple of 4 (saddle-stitched booklets).
    #[serde(rename = "multiple-of-4")]
    MultipleOf4,
}

impl PageCount {
    /// The page count `n` pages are padded to.
    pub fn padded(self, n: usize) -> usize {
        match self {
            PageCount::Any => n,
            PageCount::Even => n.next_multiple_of(2),
            PageCount::MultipleOf4 => n.next_multiple_of(4),
        }
    }
}

/// The fewest pages of a paperback Amazon KDP prints.
pub const KDP_MIN_PAGES: usize = 24;

/// The rights text of a copyright page when the book file gives none.
pub const DEFAULT_RIGHTS: &str = "All rights reserved. No part of this book may be reproduced \
    in any form without written permission from the publisher, except that the buyer may copy \
    the puzzles for use in their own home or classroom.";

/// The most pages one book may have (puzzles, keys and title together).
pub const MAX_PAGES: usize = 2000;

/// The book-level settings (the `[book]` table).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Settings {
    /// The book's title: on the title page and in the PDF's metadata.
    pub title: Option<String>,
    /// A line under the title on the title page.
    pub subtitle: Option<String>,
    /// The author: on the title page (under the subtitle) and in the PDF's metadata.
    pub author: Option<String>,
    /// Whether the book starts with a title page.
    pub title_page: bool,
    /// The trim size (`a4`, `letter`, `8.5x11`, `8x10`, `6x9`, `WxHmm`, `WxHin`).
    #[serde(with = "paper_name")]
    pub trim: Paper,
    /// Portrait or landscape.
    pub orientation: Orientation,
    /// Whether every page has a 0.125 in bleed on its top, bottom and outside edges (none at
    /// the binding: Amazon KDP's interior rule).
    pub bleed: bool,
    /// Top, bottom and outside margin, in millimetres.
    pub margin_mm: f64,
    /// Extra margin on the inside (binding) edge, in millimetres: left on odd pages, right on
    /// even ones.
    pub gutter_mm: f64,
    /// Wall thickness, in millimetres.
    pub wall_mm: f64,
    /// The typeface of every text in the book: `sans` (Helvetica), `serif` (Times) or `mono`
    /// (Courier).
    pub font: Typeface,
    /// Whether puzzle pages have a "Name: ____" line.
    pub name_line: bool,
    /// The number of the PDF's first page (the title page counts but shows no number).
    pub first_page_number: u32,
    /// Where the answer keys go.
    pub answers: Answers,
    /// Answer keys per answer page (1 to 9) when the answers are at the back or separate.
    pub keys_per_page: u32,
    /// The heading of each puzzle page and answer key; `{n}` is the puzzle number.
    pub label: String,
    /// The heading of the answer pages.
    pub answers_heading: String,
    /// The front matter: any of `title`, `copyright`, `belongs-to`, `how-to`, `contents`,
    /// printed in that order, before puzzle 1.
    pub front: Vec<Front>,
    /// The year on the copyright page.
    pub year: Option<u32>,
    /// The ISBN on the copyright page (ISBN-10 or ISBN-13, hyphens allowed; checked).
    pub isbn: Option<String>,
    /// The copyright page's rights text (paragraphs split by a blank line); a standard "All
    /// rights reserved" text when not given.
    pub rights: Option<String>,
    /// Where puzzle 1 goes: `next` or `right` (a right-hand page).
    pub puzzles_start: PuzzlesStart,
    /// Blank pages at the end of `book.pdf` to make its page count `even` or a
    /// `multiple-of-4`; a padded book shorter than KDP's 24 pages is an error unless
    /// `allow_short` is set.
    pub page_count: PageCount,
    /// Allows a padded book of fewer than 24 pages (a booklet, a sampler).
    pub allow_short: bool,
    /// "Solution on page N" at the foot of each puzzle page, and the puzzle's page beside each
    /// answer key ("Puzzle 7, page 9").
    pub solution_refs: bool,
    /// Every puzzle's level as 1 to 5 stars beside its heading.
    pub stars: bool,
    /// `color` (the default) or `bw`: every page in black and grey only.
    pub interior: Interior,
    /// A full-wrap cover (`cover.pdf`) for the book's interior paper, with the back cover's
    /// text.
    pub cover: Option<CoverSettings>,
}

/// The interior paper a cover's spine is measured for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum CoverPaper {
    /// White paper (black-and-white interiors): 0.002252 in a page.
    #[default]
    White,
    /// Cream paper: 0.0025 in a page.
    Cream,
    /// Colour interiors: 0.002347 in a page.
    #[serde(alias = "colour")]
    Color,
}

impl CoverPaper {
    /// The names a book file may give.
    pub const NAMES: [&str; 3] = ["white", "cream", "color"];

    /// How much one interior page adds to the spine, in inches (KDP's table).
    pub fn inches_per_page(self) -> f64 {
        match self {
            CoverPaper::White => 0.002252,
            CoverPaper::Cream => 0.0025,
            CoverPaper::Color => 0.002347,
        }
    }

    /// The spine of a book of `pages` interior pages, in millimetres.
    pub fn spine_mm(self, pages: usize) -> f64 {
        pages as f64 * self.inches_per_page() * crate::page::MM_PER_INCH
    }
}

/// The `[book] cover = { ... }` table.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct CoverSettings {
    /// The interior paper: `white`, `cream` or `color`; it sets the spine's width.
    #[serde(with = "cover_paper_name")]
    pub paper: CoverPaper,
    /// The back cover's text (paragraphs split by a blank line), wrapped.
    pub back_text: Option<String>,
}

mod cover_paper_name {
    use super::CoverPaper;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    pub fn serialize<S: Serializer>(p: &CoverPaper, s: S) -> Result<S::Ok, S::Error> {
        p.serialize(s)
    }

    /// One line naming the known papers for an unknown one.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<CoverPaper, D::Error> {
        let s = String::deserialize(d)?;
        match s.trim().to_ascii_lowercase().as_str() {
            "white" => Ok(CoverPaper::White),
            "cream" => Ok(CoverPaper::Cream),
            "color" | "colour" => Ok(CoverPaper::Color),
            _ => Err(serde::de::Error::custom(format!(
                "unknown paper \"{}\"; known: {}",
                crate::error::one_line(s.trim()),
                CoverPaper::NAMES.join(", ")
            ))),
        }
    }
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            title: None,
            subtitle: None,
            author: None,
            title_page: false,
            trim: Paper::Trim85x11,
            orientation: Orientation::Portrait,
            bleed: false,
            margin_mm: 12.7,
            gutter_mm: 0.0,
            wall_mm: 0.5,
            font: Typeface::Sans,
            name_line: false,
            first_page_number: 1,
            answers: Answers::AtBack,
            keys_per_page: 4,
            label: "Puzzle {n}".into(),
            answers_heading: "Answers".into(),
            front: Vec::new(),
            year: None,
            isbn: None,
            rights: None,
            puzzles_start: PuzzlesStart::Next,
            page_count: PageCount::Any,
            allow_short: false,
            solution_refs: false,
            stars: false,
            interior: Interior::Color,
            cover: None,
        }
    }
}

mod paper_name {
    use super::Paper;
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(p: &Paper, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&p.name())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Paper, D::Error> {
        let s = String::deserialize(d)?;
        s.parse::<Paper>()
            .map_err(|e| serde::de::Error::custom(e.message))
    }
}

impl Settings {
    /// Checks every setting; the error names the field (`book.NAME: ...`).
    pub fn validate(&self) -> Result<()> {
        let field = |name: &str, e: Error| Error::new(e.kind, format!("book.{name}: {e}"));
        let most = crate::draw::MAX_KEYS_PER_PAGE;
        if !(1..=most as u32).contains(&self.keys_per_page) {
            return Err(Error::option(format!(
                "book.keys_per_page: must be 1 to {most}, got {}",
                self.keys_per_page
            )));
        }
        if !self.label.contains("{n}") {
            return Err(Error::option(format!(
                "book.label: must contain {{n}} (the puzzle number), got \"{}\"",
                self.label
            )));
        }
        for (name, v) in [
            ("label", Some(&self.label)),
            ("title", self.title.as_ref()),
            ("subtitle", self.subtitle.as_ref()),
            ("author", self.author.as_ref()),
            ("answers_heading", Some(&self.answers_heading)),
        ] {
            if v.is_some_and(|t| t.chars().count() > 200) {
                return Err(Error::option(format!(
                    "book.{name}: longer than 200 characters"
                )));
            }
        }
        if self
            .rights
            .as_ref()
            .is_some_and(|t| t.chars().count() > 2000)
        {
            return Err(Error::option("book.rights: longer than 2000 characters"));
        }
        if let Some(y) = self.year
            && !(1000..=9999).contains(&y)
        {
            return Err(Error::option(format!(
                "book.year: must be a year of four digits, got {y}"
            )));
        }
        if let Some(text) = self.cover.as_ref().and_then(|c| c.back_text.as_ref())
            && text.chars().count() > 2000
        {
            return Err(Error::option(
                "book.cover.back_text: longer than 2000 characters",
            ));
        }
        if self.cover.is_some() && self.title.as_deref().is_none_or(|t| t.trim().is_empty()) {
            return Err(Error::option(
                "book.title: the cover needs the book's title (title = \"...\")",
            ));
        }
        if let Some(isbn) = &self.isbn {
            check_isbn(isbn).map_err(|e| field("isbn", e))?;
        }
        if self.front_pages().contains(&Front::Copyright) {
            if self.author.as_deref().is_none_or(|a| a.trim().is_empty()) {
                return Err(Error::option(
                    "book.author: the copyright page needs the author's name (author = \"...\")",
                ));
            }
            if self.year.is_none() {
                return Err(Error::option(
                    "book.year: the copyright page needs the year (year = 2026)",
                ));
            }
        }
        if self.first_page_number == 0 || self.first_page_number > 100_000 {
            return Err(Error::option(format!(
                "book.first_page_number: must be 1 to 100000, got {}",
                self.first_page_number
            )));
        }
        let s = self.page_setup(1, None);
        s.validate().map_err(|e| {
            let name = if e.message.contains("gutter") {
                "gutter_mm"
            } else if e.message.contains("margin") {
                "margin_mm"
            } else if e.message.contains("wall") {
                "wall_mm"
            } else {
                "trim"
            };
            field(name, e)
        })
    }

    /// The front matter pages in print order: `front`'s, and the title page when `title_page`
    /// asks for it.
    pub fn front_pages(&self) -> Vec<Front> {
        let mut f = self.front.clone();
        if self.title_page {
            f.push(Front::Title);
        }
        f.sort();
        f.dedup();
        f
    }

    /// The label of puzzle `n`'s answer key, printed on page `page`: its label, with the page
    /// beside it when `solution_refs` asks ("Puzzle 7, page 13").
    pub fn key_label_for(&self, n: usize, page: u32) -> String {
        if self.solution_refs {
            format!("{}, page {page}", self.label_for(n))
        } else {
            self.label_for(n)
        }
    }

    /// The label of puzzle `n` ("Puzzle 7").
    pub fn label_for(&self, n: usize) -> String {
        self.label.replace("{n}", &n.to_string())
    }

    /// The page of puzzle `n` (from 1), printed on page `page` with its answer key on page
    /// `key_page`: the book's page with the puzzle's label, the markers, pictures and
    /// instruction of the design's reader preset, stars when the design or the book asks, and
    /// "Solution on page N" under it when `solution_refs` asks.
    pub fn puzzle_setup(&self, design: &Design, n: usize, page: u32, key_page: u32) -> PageSetup {
        let d = &design.page;
        PageSetup {
            markers: d.markers,
            symbols: d.symbols,
            theme: d.theme.clone(),
            instruction: d.instruction.clone(),
            stars: d.stars || self.stars,
            footnote: self.solution_refs.then(|| match self.answers {
                Answers::Separate => format!("Solution in the answers, page {key_page}"),
                _ => format!("Solution on page {key_page}"),
            }),
            start_picture: d.start_picture.clone(),
            finish_picture: d.finish_picture.clone(),
            pictures: d.pictures.clone(),
            ..self.page_setup(page, Some(self.label_for(n)))
        }
    }

    /// Which edge of the book page numbered `page` is bound: the left of odd pages.
    fn binding(&self, page: u32) -> crate::preflight::Binding {
        if self.page_setup(page, None).inside_is_left() {
            crate::preflight::Binding::Left
        } else {
            crate::preflight::Binding::Right
        }
    }

    /// The page setup of the book page numbered `page` with the heading `title`: the gutter is
    /// on the left of odd pages and the right of even ones.
    pub fn page_setup(&self, page: u32, title: Option<String>) -> PageSetup {
        PageSetup {
            paper: self.trim,
            // every page of a book one way up: an "auto" in a book file is portrait
            orientation: self.orientation.oriented_or(Orientation::Portrait),
            margin_mm: self.margin_mm,
            gutter_mm: self.gutter_mm,
            bleed: self.bleed,
            bound: true,
            title,
            name_line: self.name_line,
            page_number: Some(page),
            wall_mm: self.wall_mm,
            min_corridor_mm: crate::page::COMFORTABLE_CORRIDOR_MM,
            font: self.font,
            markers: crate::page::MarkerSize::Normal,
            symbols: false,
            theme: None,
            instruction: None,
            stars: false,
            footnote: None,
            start_picture: None,
            finish_picture: None,
            pictures: None,
        }
    }
}

/// Checks an ISBN: 10 digits (the last may be X) or 13, with hyphens or spaces between, and
/// a right check digit.
fn check_isbn(isbn: &str) -> Result<()> {
    let chars: Vec<char> = isbn.chars().filter(|c| !matches!(c, '-' | ' ')).collect();
    let digit = |c: char| c.to_digit(10);
    let ok = match chars.len() {
        10 => {
            let mut sum = 0;
            let mut good = true;
            for (i, &c) in chars.iter().enumerate() {
                let v = match (digit(c), c, i) {
                    (Some(d), _, _) => d,
                    (None, 'X' | 'x', 9) => 10,
                    _ => {
                        good = false;
                        0
                    }
                };
                sum += v * (10 - i as u32);
            }
            good && sum.is_multiple_of(11)
        }
        13 => {
            let ds: Option<Vec<u32>> = chars.iter().map(|&c| digit(c)).collect();
            ds.is_some_and(|ds| {
                let sum: u32 = ds
                    .iter()
                    .enumerate()
                    .map(|(i, d)| if i % 2 == 0 { *d } else { 3 * d })
                    .sum();
                sum.is_multiple_of(10)
            })
        }
        _ => false,
    };
    if ok {
        Ok(())
    } else {
        Err(Error::option(format!(
            "not a valid ISBN (10 or 13 digits with a right check digit): {isbn}"
        )))
    }
}

/// A reader-level ramp over a generator's pages (`difficulty = "easy..hard"`, or one preset
/// name for every page): the first page gets the `from` preset, the last the `to` preset, the
/// pages between the presets between them in [`PRESETS`] order. It reads from its string
/// form (`"easy..hard"` or `"hard"`), both names checked.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "String")]
pub struct DifficultyRamp {
    /// The first page's preset name.
    pub from: String,
    /// The last page's preset name.
    pub to: String,
}

impl TryFrom<String> for DifficultyRamp {
    type Error = String;

    /// Parses `"A..B"` or a single preset name `"A"` (both ends `A`), checking the names.
    fn try_from(s: String) -> std::result::Result<Self, String> {
        let (a, b) = s.split_once("..").unwrap_or((&s, &s));
        let r = DifficultyRamp {
            from: a.trim().to_string(),
            to: b.trim().to_string(),
        };
        r.validate().map_err(|e| e.message)?;
        Ok(r)
    }
}

impl DifficultyRamp {
    /// Checks both names against the presets (an unknown name lists the known ones).
    pub fn validate(&self) -> Result<()> {
        self.ends().map(|_| ())
    }

    fn ends(&self) -> Result<(usize, usize)> {
        let index = |name: &str| {
            let p = difficulty::preset(name).ok_or_else(|| {
                Error::option(format!(
                    "unknown preset \"{name}\" (known: {})",
                    difficulty::preset_names()
                ))
            })?;
            Ok(PRESETS.iter().position(|q| q.name == p.name).unwrap_or(0))
        };
        Ok((index(&self.from)?, index(&self.to)?))
    }

    /// The preset for position `t` (0 = the generator's first page, 1 = its last): the presets
    /// between the ends, interpolated ([`difficulty::preset_between`]: corridor width, braid and
    /// targets linearly between the two presets `t` falls between, the carver the nearer's), and
    /// the index in [`PRESETS`] of the nearest preset (the page's level). A single preset
    /// (`"ages-6-8"`) is that preset on every page, exactly.
    pub fn preset_at(&self, t: f64) -> Result<(Preset, usize)> {
        let (a, b) = self.ends()?;
        let t = if t.is_finite() {
            t.clamp(0.0, 1.0)
        } else {
            0.0
        };
        if a == b {
            return Ok((PRESETS[a].clone(), a));
        }
        Ok(difficulty::preset_between(
            a as f64 + (b as f64 - a as f64) * t,
        ))
    }

    /// Sets the knobs of the preset for position `t` on `design` (carver, braid, targets) and,
    /// unless `size_given`, its size: the preset's [`crate::sizing::page_grid`] for `setup`, so the
    /// corridors keep the preset's width on the book's page. Returns that size as the limit a
    /// shape's fitted height must respect (`None` when the size was given).
    pub fn apply(
        &self,
        design: &mut Design,
        t: f64,
        setup: &PageSetup,
        size_given: bool,
    ) -> Result<Option<(u32, u32)>> {
        let (preset, _) = self.preset_at(t)?;
        preset.apply(design);
        if size_given {
            return Ok(None);
        }
        let (w, h) = crate::sizing::page_grid(&preset, design.topology, setup);
        design.width = w;
        design.height = h;
        Ok(Some((w, h)))
    }
}

/// A number, or a linear ramp from the first page of a generator to its last. It reads from a
/// number or a string `"A..B"`; both ends must be finite.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "RampText")]
pub struct Ramp {
    /// The first page's value.
    pub from: f64,
    /// The last page's value.
    pub to: f64,
}

/// What a [`Ramp`] is written as: a number or a string.
#[derive(Deserialize)]
#[serde(untagged, expecting = "must be a number or a ramp \"A..B\"")]
enum RampText {
    Number(f64),
    Text(String),
}

impl TryFrom<RampText> for Ramp {
    type Error = String;

    fn try_from(v: RampText) -> std::result::Result<Self, String> {
        let (r, shown) = match v {
            RampText::Number(x) => (Some(Ramp { from: x, to: x }), x.to_string()),
            RampText::Text(s) => {
                let num = |t: &str| t.trim().parse::<f64>().ok();
                let r = s.split_once("..").and_then(|(a, b)| {
                    Some(Ramp {
                        from: num(a)?,
                        to: num(b)?,
                    })
                });
                (r, format!("\"{s}\""))
            }
        };
        r.filter(|r| r.from.is_finite() && r.to.is_finite())
            .ok_or_else(|| format!("must be a number or a ramp \"A..B\", got {shown}"))
    }
}

impl Ramp {
    /// The value at page `k` of `n` (from 0).
    pub fn at(&self, k: usize, n: usize) -> f64 {
        if n <= 1 {
            self.from
        } else {
            self.from + (self.to - self.from) * k as f64 / (n - 1) as f64
        }
    }
}

/// A puzzle to make: its design (seed set), whether its height is to be fitted to its shape,
/// and where in the book file it came from.
#[derive(Clone, Debug, PartialEq)]
pub struct PuzzleSpec {
    /// The design; file shapes carry paths already resolved against the file that named them.
    pub design: Design,
    /// Whether the height follows the shape's aspect ratio (generators without `height`).
    pub fit_height: bool,
    /// Where it came from: `pages[2]` or `pages[3] #5` (the fifth page of a generator).
    pub source: String,
    /// The seed the generator asked for, when it had to be moved to stay unique.
    pub seed_bumped_from: Option<u64>,
    /// The largest grid that keeps a difficulty preset's corridor width on the page: a shape
    /// whose fitted height exceeds it gets fewer cells across instead.
    pub size_limit: Option<(u32, u32)>,
    /// The reader preset a difficulty ramp gave this page (an index into [`PRESETS`]); the
    /// contents page names its sections by it.
    pub level: Option<usize>,
    /// Whether the book decides the shape's turn ([`Design::turn`]): a generator's page with a
    /// shape and a fitted height that does not set `turn` itself. The build turns the shape a
    /// quarter turn when that makes the maze cover more of the page (a dog or a fish on a
    /// portrait page stands up).
    pub auto_turn: bool,
}

/// A validated book: settings and puzzles, in order.
#[derive(Clone, Debug, PartialEq)]
pub struct Book {
    /// The `[book]` settings.
    pub settings: Settings,
    /// The puzzles, in book order.
    pub puzzles: Vec<PuzzleSpec>,
    /// Remarks for the user (seeds moved to stay unique).
    pub notes: Vec<String>,
    /// The PDFs' creation and modification date, in seconds since 1970-01-01 UTC: the
    /// caller's to give (the command line takes `SOURCE_DATE_EPOCH`, else the book file's
    /// modification time), so a rebuild makes the same bytes. `None` (what [`parse`] gives)
    /// leaves the dates out of the PDFs.
    pub date: Option<i64>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawBook {
    #[serde(default)]
    book: Settings,
    #[serde(default)]
    pages: Vec<toml::Table>,
}

/// A parser's whole message on one line (a value quoted in it may hold a newline).
fn first_line(s: &str) -> String {
    crate::error::one_line(s.trim()).into_owned()
}

/// The line and column of byte `at` in `text`.
fn line_col(text: &str, at: usize) -> String {
    let before = &text[..at.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let col = before.len() - before.rfind('\n').map_or(0, |i| i + 1) + 1;
    format!(" (line {line}, column {col})")
}

/// Reads (through `loader`) and validates the book file at `path`; design files it names are
/// read too.
pub fn load(path: &Path, loader: &dyn Loader) -> Result<Book> {
    let text = loader.text(path, "cannot read the book")?;
    let base = path.parent().unwrap_or(Path::new(""));
    parse(&text, base, loader)
        .map_err(|e| Error::new(e.kind, format!("{}: {}", e.message, path.display())))
}

/// Parses and validates a book file's text. `base` is the book file's folder: design files and
/// picture files named in the book are relative to it (the paths are joined here). Design files
/// are read through `loader`, and so are the pages' start and finish pictures (small SVG files:
/// a bad one is its entry's error); shape pictures are not (see [`build`]).
pub fn parse(text: &str, base: &Path, loader: &dyn Loader) -> Result<Book> {
    let raw: RawBook = toml::from_str(text).map_err(|e| {
        let at = e
            .span()
            .map(|s| line_col(text, s.start))
            .unwrap_or_default();
        Error::input(format!("bad book file: {}{at}", first_line(e.message())))
    })?;
    raw.book.validate()?;
    if raw.pages.is_empty() {
        return Err(Error::input(
            "the book has no pages: add [[pages]] entries (design = ... or count = ...)",
        ));
    }
    let mut puzzles = Vec::new();
    for (i, entry) in raw.pages.iter().enumerate() {
        let name = format!("pages[{}]", i + 1);
        let at = |e: Error| Error::new(e.kind, format!("{name}: {}", e.message));
        let first = puzzles.len();
        if entry.contains_key("count") {
            puzzles.extend(generator(entry, base, &name, &raw.book).map_err(at)?);
        } else if entry.contains_key("design") {
            puzzles.push(single(entry, base, &name, loader).map_err(at)?);
        } else {
            return Err(Error::input(format!(
                "{name}: give design = (a file or a table) for one page, or count = N for a generator"
            )));
        }
        // the entry's start and finish pictures, read once for all its pages
        let pictures =
            crate::load::page_pictures(loader, &puzzles[first].design.page).map_err(at)?;
        for p in &mut puzzles[first..] {
            p.design.page.pictures.clone_from(&pictures);
        }
    }
    let notes = unique_seeds(&mut puzzles)?;
    let keys = if raw.book.answers.on_answer_pages() {
        puzzles.len().div_ceil(raw.book.keys_per_page as usize)
    } else {
        puzzles.len()
    };
    let total = puzzles.len() + keys + raw.book.front_pages().len();
    if total > MAX_PAGES {
        return Err(Error::option(format!(
            "the book has {total} pages; at most {MAX_PAGES} are allowed"
        )));
    }
    Ok(Book {
        settings: raw.book,
        puzzles,
        notes,
        date: None,
    })
}

/// Resolves a file shape's path against `base` (the folder of the file that named it).
fn resolve_shape(design: &mut Design, base: &Path) {
    if let Some(ShapeSource::File(p)) = &mut design.shape
        && p.is_relative()
    {
        *p = base.join(&*p);
    }
}

/// A serde error from one entry as one line naming the key: `width: must be ...`.
fn entry_error(e: toml::de::Error) -> Error {
    // the message is the first line; a value's key path follows as "in `a.b`"
    let text = e.to_string();
    let key = text
        .lines()
        .rev()
        .find_map(|l| l.strip_prefix("in `")?.strip_suffix('`'));
    let message = first_line(e.message());
    Error::input(match key {
        Some(k) => format!("{k}: {message}"),
        None => message,
    })
}

/// A `[[pages]]` entry for one page.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SingleEntry {
    /// A design file's name (relative to the book file) or an inline design table.
    design: DesignRef,
}

/// A single page's design: a file or a table.
#[derive(Deserialize)]
#[serde(try_from = "toml::Value")]
enum DesignRef {
    File(String),
    Inline(Box<Design>),
}

impl TryFrom<toml::Value> for DesignRef {
    type Error = String;

    fn try_from(v: toml::Value) -> std::result::Result<Self, String> {
        match v {
            toml::Value::String(file) => Ok(DesignRef::File(file)),
            toml::Value::Table(t) => design_from_table(t)
                .map(|d| DesignRef::Inline(Box::new(d)))
                .map_err(|e| e.message),
            _ => Err("must be a file name (a string) or a design table".into()),
        }
    }
}

/// A generator entry (`count = N`): its own fields; every other key is a design field.
#[derive(Deserialize)]
struct GeneratorEntry {
    count: i64,
    seed_from: Option<i64>,
    shapes: Option<Vec<String>>,
    width: Option<Ramp>,
    height: Option<Ramp>,
    braid: Option<Ramp>,
    difficulty: Option<DifficultyRamp>,
    /// The design fields, shared by every page.
    #[serde(flatten)]
    design: toml::Table,
}

/// A design from a table of design fields; a bad value's error names its key.
fn design_from_table(t: toml::Table) -> Result<Design> {
    t.try_into::<Design>().map_err(entry_error)
}

fn single(entry: &toml::Table, base: &Path, name: &str, loader: &dyn Loader) -> Result<PuzzleSpec> {
    let entry: SingleEntry = entry.clone().try_into().map_err(entry_error)?;
    let (mut design, dir, what) = match entry.design {
        DesignRef::File(file) => {
            let path = base.join(&file);
            let d = crate::load::read_design(loader, &path)?;
            let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
            (d, dir, format!("design file {file}"))
        }
        DesignRef::Inline(d) => (*d, base.to_path_buf(), "design".to_string()),
    };
    design
        .validate()
        .map_err(|e| Error::new(e.kind, format!("{what}: {}", e.message)))?;
    if design.seed.is_none() {
        return Err(Error::input(format!(
            "{what}: seed missing; every page of a book needs one so the book prints the same each time"
        )));
    }
    resolve_shape(&mut design, &dir);
    design.page.resolve_pictures(&dir);
    Ok(PuzzleSpec {
        design,
        fit_height: false,
        size_limit: None,
        source: name.to_string(),
        seed_bumped_from: None,
        level: None,
        auto_turn: false,
    })
}

/// Checks that a width or height ramp is whole numbers from 2 to 1000.
fn check_size(r: Ramp, field: &str) -> Result<Ramp> {
    for x in [r.from, r.to] {
        if x.fract() != 0.0 || !(2.0..=1000.0).contains(&x) {
            return Err(Error::option(format!(
                "{field}: must be whole numbers from 2 to 1000, got {x}"
            )));
        }
    }
    Ok(r)
}

fn generator(
    entry: &toml::Table,
    base: &Path,
    name: &str,
    settings: &Settings,
) -> Result<Vec<PuzzleSpec>> {
    for k in ["seed", "design"] {
        if entry.contains_key(k) {
            return Err(Error::input(format!(
                "`{k}` does not go in a generator (use seed_from, and design fields directly)"
            )));
        }
    }
    if entry.contains_key("shape") && entry.contains_key("shapes") {
        return Err(Error::input("give shapes = [...] or shape = ..., not both"));
    }
    let turn_given = entry.contains_key("turn");
    let entry: GeneratorEntry = entry.clone().try_into().map_err(entry_error)?;
    if !(1..=1000).contains(&entry.count) {
        return Err(Error::option(format!(
            "count: must be a whole number from 1 to 1000, got {}",
            entry.count
        )));
    }
    let count = entry.count as usize;
    let seed_from = match entry.seed_from {
        Some(n) if n >= 0 && (n as u64) <= MAX_SEED => n as u64,
        Some(n) => {
            return Err(Error::option(format!(
                "seed_from: must be a whole number from 0 to {MAX_SEED}, got {n}"
            )));
        }
        None => {
            return Err(Error::input(
                "seed_from missing: a generator numbers its seeds from it (seed_from = 1000)",
            ));
        }
    };
    let shapes: Vec<ShapeSource> = match entry.shapes {
        None => Vec::new(),
        Some(a) if a.is_empty() => {
            return Err(Error::input(
                "shapes: must be a list of built-in shape names or picture files, got []",
            ));
        }
        Some(a) => a
            .into_iter()
            .map(|s| match builtin::get(&s) {
                Some(_) => ShapeSource::Builtin(s),
                None => ShapeSource::File(base.join(s)),
            })
            .collect(),
    };
    let width = entry.width.map(|r| check_size(r, "width")).transpose()?;
    let height = entry.height.map(|r| check_size(r, "height")).transpose()?;
    let braid = entry.braid;
    if let Some(b) = braid
        && !((0.0..=1.0).contains(&b.from) && (0.0..=1.0).contains(&b.to))
    {
        return Err(Error::option(format!(
            "braid: must be between 0 and 1, got {}..{}",
            b.from, b.to
        )));
    }
    let difficulty = entry.difficulty;
    let base_design = design_from_table(entry.design)?;
    if base_design.style == crate::design::Style::Tiles && difficulty.is_some() {
        return Err(Error::option(
            "difficulty: the presets are for the walls style (tile mazes have no difficulty \
             knobs)",
        ));
    }
    let mut out = Vec::with_capacity(count);
    for k in 0..count {
        let mut d = base_design.clone();
        if let Some(w) = width {
            d.width = w.at(k, count).round() as u32;
        }
        if let Some(h) = height {
            d.height = h.at(k, count).round() as u32;
        }
        if let Some(b) = braid {
            d.braid = (b.at(k, count) * 1e6).round() / 1e6;
        }
        if !shapes.is_empty() {
            d.shape = Some(shapes[k % shapes.len()].clone());
        }
        let fit_height = height.is_none() && d.shape.is_some();
        if height.is_none() && d.shape.is_none() {
            d.height = d.width;
        }
        d.seed = Some(seed_from + k as u64);
        let mut size_limit = None;
        let mut level = None;
        if let Some(r) = &difficulty {
            let t = if count > 1 {
                k as f64 / (count - 1) as f64
            } else {
                0.0
            };
            let setup = settings.page_setup(1, Some(settings.label_for(1)));
            level = Some(r.preset_at(t)?.1);
            size_limit = r
                .apply(&mut d, t, &setup, width.is_some())
                .map_err(|e| Error::new(e.kind, format!("difficulty: {}", e.message)))?;
            if let (Some(_), Some(h)) = (size_limit, height) {
                d.height = h.at(k, count).round() as u32;
                size_limit = None;
            }
            // a braid the generator gives wins over the preset's
            if let Some(b) = braid {
                d.braid = (b.at(k, count) * 1e6).round() / 1e6;
            }
        }
        d.validate()?;
        resolve_shape(&mut d, base);
        d.page.resolve_pictures(base);
        out.push(PuzzleSpec {
            design: d,
            fit_height,
            source: format!("{name} #{}", k + 1),
            seed_bumped_from: None,
            size_limit,
            level,
            auto_turn: fit_height && !turn_given,
        });
    }
    Ok(out)
}

/// What makes two pages "the same puzzle": the shape (or none) and the seed.
fn shape_key(d: &Design) -> String {
    match &d.shape {
        None => "(no shape)".into(),
        Some(ShapeSource::Builtin(n)) => format!("built-in {n}"),
        Some(ShapeSource::File(p)) => format!("file {}", p.display()),
        Some(s @ ShapeSource::Text { .. }) => s.to_string(),
    }
}

/// Makes shape + seed unique: single pages must be already; generator pages move up to the next
/// free seed. Returns notes about the moves.
fn unique_seeds(puzzles: &mut [PuzzleSpec]) -> Result<Vec<String>> {
    let mut taken: BTreeMap<(String, u64), String> = BTreeMap::new();
    for p in puzzles.iter().filter(|p| !p.source.contains('#')) {
        let key = (shape_key(&p.design), p.design.seed.unwrap_or(0));
        if let Some(other) = taken.insert(key.clone(), p.source.clone()) {
            return Err(Error::option(format!(
                "{} and {} share the shape ({}) and the seed {}; change one seed",
                other, p.source, key.0, key.1
            )));
        }
    }
    let mut notes = Vec::new();
    for p in puzzles.iter_mut().filter(|p| p.source.contains('#')) {
        let shape = shape_key(&p.design);
        let asked = p.design.seed.unwrap_or(0);
        let mut seed = asked;
        while taken.contains_key(&(shape.clone(), seed)) {
            seed += 1;
            if seed > MAX_SEED {
                return Err(Error::option(format!("{}: no free seed left", p.source)));
            }
        }
        if seed != asked {
            notes.push(format!(
                "{}: seed {asked} is already used with {shape}; using {seed}",
                p.source
            ));
            p.design.seed = Some(seed);
            p.seed_bumped_from = Some(asked);
        }
        taken.insert((shape, seed), p.source.clone());
    }
    Ok(notes)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_ok(text: &str) -> Book {
        parse(text, Path::new("."), &crate::load::Memory::new()).unwrap()
    }

    fn parse_err(text: &str) -> String {
        let e = parse(text, Path::new("."), &crate::load::Memory::new()).unwrap_err();
        assert!(!e.message.contains('\n'), "{e}");
        e.message
    }

    #[test]
    fn generator_ramps_width_and_numbers_seeds() {
        let b = parse_ok(
            "[[pages]]\ncount = 5\nshapes = [\"heart\", \"cat\"]\nseed_from = 1000\n\
             width = \"20..40\"\nbraid = \"0..0.4\"\ntopology = \"hex\"\n",
        );
        assert_eq!(b.puzzles.len(), 5);
        let w: Vec<u32> = b.puzzles.iter().map(|p| p.design.width).collect();
        assert_eq!(w, [20, 25, 30, 35, 40]);
        let s: Vec<u64> = b.puzzles.iter().map(|p| p.design.seed.unwrap()).collect();
        assert_eq!(s, [1000, 1001, 1002, 1003, 1004]);
        assert!((b.puzzles[4].design.braid - 0.4).abs() < 1e-9);
        assert_eq!(
            b.puzzles[1].design.shape,
            Some(ShapeSource::Builtin("cat".into()))
        );
        assert!(b.puzzles.iter().all(|p| p.fit_height));
        assert_eq!(b.puzzles[2].source, "pages[1] #3");
        assert_eq!(
            b.puzzles[0].design.topology,
            crate::topology::TopologyKind::Hex
        );
    }

    #[test]
    fn difficulty_ramp_walks_the_presets() {
        let b = parse_ok(
            "[[pages]]\ncount = 5\nseed_from = 1\ndifficulty = \"easy..hard\"\n\
             [[pages]]\ncount = 2\nseed_from = 1\ndifficulty = \"expert\"\nwidth = 12\n\
             braid = 0.1\nshapes = [\"heart\"]\n",
        );
        let by_name = |n: &str| difficulty::preset(n).unwrap();
        // easy..hard is presets 1 to 3: the pages at 1, 1.5, 2, 2.5 and 3, interpolated between
        let levels = [1, 2, 2, 3, 3];
        let setup = b.settings.page_setup(1, Some("Puzzle 1".into()));
        for (k, p) in b.puzzles.iter().take(5).enumerate() {
            let (preset, nearest) = difficulty::preset_between(1.0 + k as f64 / 2.0);
            assert_eq!(nearest, levels[k]);
            assert_eq!(p.level, Some(levels[k]), "{}", p.source);
            assert_eq!(p.design.algorithm, preset.algorithm, "{}", p.source);
            assert_eq!(p.design.targets, preset.targets, "{}", p.source);
            assert!(
                (p.design.braid - preset.braid).abs() < 1e-12,
                "{}",
                p.source
            );
            let size = crate::sizing::page_grid(&preset, p.design.topology, &setup);
            assert_eq!((p.design.width, p.design.height), size, "{}", p.source);
            assert_eq!(p.size_limit, Some(size));
            // the whole-preset pages are the presets themselves
            if k % 2 == 0 {
                assert_eq!(preset, PRESETS[levels[k]], "{}", p.source);
            }
        }
        // the half-way pages: corridors half way, so grids between their neighbours'
        assert!((b.puzzles[1].design.page.min_corridor_mm - 7.5).abs() < 1e-9);
        for k in 0..4 {
            assert!(b.puzzles[k].design.width < b.puzzles[k + 1].design.width);
        }
        // one preset for every page: exactly that preset, as before the ramp interpolated
        let single = &b.puzzles[5];
        assert_eq!(single.level, Some(4));
        assert_eq!(single.design.algorithm, by_name("expert").algorithm);
        // easier pages have bigger corridors, so fewer cells
        assert!(b.puzzles[0].design.width < b.puzzles[4].design.width);
        // a given width and braid win over the preset's
        let last = &b.puzzles[6];
        assert_eq!(last.design.width, 12);
        assert_eq!(last.size_limit, None);
        assert!((last.design.braid - 0.1).abs() < 1e-9);
        assert_eq!(last.design.targets, by_name("expert").targets);
    }

    #[test]
    fn duplicate_shape_and_seed() {
        // two single pages: an error naming both
        let e = parse_err(
            "[[pages]]\ndesign = { seed = 5, shape = { builtin = \"cat\" } }\n\
             [[pages]]\ndesign = { seed = 5, width = 30, shape = { builtin = \"cat\" } }\n",
        );
        assert!(
            e.contains("pages[1] and pages[2]") && e.contains("seed 5"),
            "{e}"
        );
        // a generator page moves to the next free seed
        let b = parse_ok(
            "[[pages]]\ndesign = { seed = 11, shape = { builtin = \"cat\" } }\n\
             [[pages]]\ncount = 2\nshapes = [\"cat\"]\nseed_from = 10\n",
        );
        let s: Vec<u64> = b.puzzles.iter().map(|p| p.design.seed.unwrap()).collect();
        assert_eq!(s, [11, 10, 12]);
        assert_eq!(b.puzzles[2].seed_bumped_from, Some(11));
        assert_eq!(b.notes.len(), 1);
    }

    #[test]
    fn bad_entries_name_the_page_and_field() {
        let cases = [
            (
                "[[pages]]\ndesign = { sed = 5 }\n",
                "pages[1]: design: unknown field `sed`",
            ),
            (
                "[[pages]]\ndesign = { width = 9 }\n",
                "pages[1]: design: seed missing",
            ),
            (
                "[[pages]]\ndesign = { seed = 1 }\n[[pages]]\ncount = 3\nseed_from = 1\nwidth = \"x..40\"\n",
                "pages[2]: width",
            ),
            (
                "[[pages]]\ncount = 3\nseed_from = 1\nbraid = 2\n",
                "pages[1]: braid",
            ),
            ("[[pages]]\ncount = 3\n", "pages[1]: seed_from missing"),
            (
                "[[pages]]\ncount = 3\nseed_from = 1\nshapes = [\"heart\"]\nalgoritm = \"wilson\"\n",
                "pages[1]: unknown field `algoritm`",
            ),
            ("[[pages]]\nwidth = 3\n", "pages[1]: give design"),
            (
                "[book]\nkeys_per_page = 10\n[[pages]]\ncount = 1\nseed_from = 1\n",
                "book.keys_per_page",
            ),
            ("[book]\ntrim = \"tabloid\"\n", "unknown paper"),
            (
                "[book]\nlabel = \"Maze\"\n[[pages]]\ncount = 1\nseed_from = 1\n",
                "book.label",
            ),
            (
                "[book]\nmargin_mm = 200\n[[pages]]\ncount = 1\nseed_from = 1\n",
                "book.margin_mm",
            ),
            ("[book]\ntitel = \"x\"\n", "unknown field `titel`"),
            ("[book]\n", "no pages"),
            (
                "[[pages]]\ncount = 2\nseed_from = 1\ndifficulty = \"easy..impossible\"\n",
                "pages[1]: difficulty: unknown preset \"impossible\" (known: ages-3-5",
            ),
            (
                "[[pages]]\ndesign = \"no/such/design.toml\"\n",
                "cannot read the design",
            ),
        ];
        for (text, want) in cases {
            let e = parse_err(text);
            assert!(e.contains(want), "{text:?}: {e}");
        }
    }

    #[test]
    fn book_files_design_files_and_pictures_come_through_the_loader() {
        use crate::load::{Memory, design_to_toml};
        let d = Design {
            width: 12,
            seed: Some(4),
            shape: Some(ShapeSource::File("heart.svg".into())),
            ..Design::default()
        };
        let files = Memory::new()
            .with("b/book.toml", "[[pages]]\ndesign = \"d/one.toml\"\n")
            .with("b/d/one.toml", design_to_toml(&d))
            .with("b/d/heart.svg", builtin::get("heart").unwrap());
        let book = load(Path::new("b/book.toml"), &files).unwrap();
        // the picture's path is joined to the design file's folder
        assert_eq!(
            book.puzzles[0].design.shape,
            Some(ShapeSource::File("b/d/heart.svg".into()))
        );
        let built = build(&book, &files, &|_, _| {}).unwrap();
        assert_eq!((built.puzzles, built.pages), (1, 2));
        let again = regenerate_puzzle(&book.puzzles[0].design, &files).unwrap();
        assert_eq!(again.seed(), 4);
        // a missing picture is an error naming it, nothing read from the disk
        let e = build(&book, &Memory::new(), &|_, _| {}).unwrap_err();
        assert!(e.message.ends_with("b/d/heart.svg"), "{e}");
    }

    #[test]
    fn serde_errors_are_one_line_naming_the_page_and_key() {
        let cases = [
            (
                "[[pages]]\ncount = 3\nseed_from = 1\nwidth = true\n",
                "pages[1]: width: must be a number or a ramp \"A..B\"",
            ),
            (
                "[[pages]]\ncount = 3\nseed_from = 1\nbraid = \"0..nan\"\n",
                "pages[1]: braid: must be a number or a ramp \"A..B\", got \"0..nan\"",
            ),
            (
                "[[pages]]\ncount = \"x\"\nseed_from = 1\n",
                "pages[1]: count: invalid type",
            ),
            (
                "[[pages]]\ncount = 3\nseed_from = 1\ndifficulty = 3\n",
                "pages[1]: difficulty: invalid type",
            ),
            (
                "[[pages]]\ncount = 3\nseed_from = 1\ntopology = \"x\"\n",
                "pages[1]: topology: unknown variant `x`",
            ),
            (
                "[[pages]]\ndesign = \"a.toml\"\nfoo = 1\n",
                "pages[1]: unknown field `foo`",
            ),
            (
                "[[pages]]\ndesign = 3\n",
                "pages[1]: design: must be a file name",
            ),
        ];
        for (text, want) in cases {
            let e = parse_err(text);
            assert!(e.starts_with(want), "{text:?}: {e}");
        }
        let r: DifficultyRamp = toml::Value::from("hard").try_into().unwrap();
        assert_eq!((r.from.as_str(), r.to.as_str()), ("hard", "hard"));
        let r: Ramp = toml::Value::from(" 3 .. 5").try_into().unwrap();
        assert_eq!((r.from, r.to), (3.0, 5.0));
        let r: Ramp = toml::Value::from(7).try_into().unwrap();
        assert_eq!((r.from, r.to), (7.0, 7.0));
    }
}
