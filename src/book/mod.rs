//! Puzzle books: many pages from one book file, printed as one PDF with an answer section.
//!
//! This module owns the book file format (TOML) and its validation; [`build`] makes the
//! pages (in parallel, each through [`crate::make`]) and renders the PDF, the per-page SVGs and
//! the manifest. It reads nothing itself: book files, design files and pictures come through the
//! caller's [`Loader`](crate::load::Loader) ([`load`], [`parse`], [`build`], [`fitted_design`];
//! the file system's is `io::Files`, which the command line and the editor pass).
//!
//! Its parts: `parse.rs` reads a book file, `entries.rs` its pages of one design,
//! `generator.rs` its generators and `ramp.rs` their ramps. `build.rs` makes the book in
//! phases: `shapes.rs` loads the shapes once and turns and fits them, `plan.rs` plans the pages
//! (and words the how-to and contents pages), `puzzle.rs` makes the mazes, `sheets.rs` draws
//! the pages (and draws them again as their files are written), then `cover.rs`, `manifest.rs`
//! and `warnings.rs`; `reprint.rs` makes one puzzle again from a manifest, whose pictures'
//! digests `digests.rs` notes as the book reads them and checks as they are read again.
//!
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
//! puzzles_start = "right"       # puzzle 1 on a recto, an odd page (a blank page before it if needed):
//!                               # the right-hand page, or the left-hand one of a right-to-left book
//! page_count = "even"           # or "multiple-of-4": blank pages at the end; under 24 pages is an
//!                               # error then, unless allow_short = true
//! solution_refs = true          # "Solution on page N" under each puzzle; "Puzzle 7, page 9" keys
//! stars = true                  # every puzzle's level as 1 to 5 stars
//! interior = "bw"               # black and grey only (DeviceGray): the answer line grey, not
//!                               # red; theme pictures grey (default "color")
//! cover = { paper = "white", back_text = "..." }  # cover.pdf: a full wrap for white (cream,
//!                               # color) paper, the back cover's text wrapped
//!                               # (also background, text_colour = "#RRGGBB", front and
//!                               # logo = "file.svg", badge = "Ages 4-8")
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
//! turn = "page"                 # turn every page with its upright shape; true turns the shape
//!                               # alone, false never turns (default: the book decides the page)
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
//! - a single page's design must carry a seed (a book prints the same every time); without a
//!   `height`, its rows are fitted to its shape (square without one), as the command line's
//!   `--design` fits them;
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
//! A shape is never turned against its page's text unless asked (`turn = true`). A generator's
//! shaped page with a fitted height ([`PuzzleSpec::auto_turn`]; a generator that sets `turn`
//! itself decides) keeps its shape upright, and the whole page turns with it (`turn = "page"`,
//! as the manifest records it) when the upright shape on an upright page would measure under
//! 70 % of what it gets on a turned page ([`shapes::PAGE_TURN_BELOW`]: its grid's cells with a
//! preset's corridor width, else its printed area): a wide dog on a portrait page is printed as
//! a landscape puzzle, its title, stars, labels, page number and "Solution on page N" reading
//! up the sheet with it ([`PageSetup::turned`]), the sheet still the trim's size. The
//! manifest records each puzzle's `coverage`, in percent: the area of the box round the maze's
//! drawn walls (their centre lines) over the page's printable area, inside the margins and the
//! gutter ([`crate::draw::Layout::coverage`]).
//! Every puzzle whose design has targets is searched for ([`crate::difficulty::search`], the
//! default budget, reproducible) when the book is built; the manifest records the seed found.

mod build;
mod cover;
mod digests;
mod entries;
mod generator;
mod manifest;
mod parse;
mod plan;
mod puzzle;
mod ramp;
mod reprint;
mod shapes;
mod sheets;
mod warnings;

use std::collections::BTreeMap;
use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use crate::design::Design;
use crate::error::{Error, Result};
use crate::page::{Orientation, PageSetup, Paper, Typeface};
use crate::shape::ShapeSource;

pub use build::{Built, OutputFile, build};
pub use cover::COVER_PDF;
pub use manifest::{MANIFEST_FORMAT, MANIFEST_VERSION};
pub use parse::{load, parse};
pub use plan::{ANSWERS_PDF, PageKind, puzzle_pages};
pub use puzzle::{Product, regenerate, regenerate_puzzle};
pub use ramp::{DifficultyRamp, Ramp, Slope};
pub use reprint::{BookManifest, Reprint, reprint};
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

impl Interior {
    /// Page `d` as a book of these colours prints it: in grey for a black and white interior
    /// ([`Drawing::to_grey`](crate::draw::Drawing::to_grey)). Every page of a book goes
    /// through here, and so does a puzzle printed again from its manifest ([`Reprint::pages`]).
    pub fn print(self, d: &mut crate::draw::Drawing) {
        if self == Interior::Bw {
            d.to_grey();
        }
    }
}

/// Where puzzle 1 goes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum PuzzlesStart {
    /// On the page after the front matter.
    #[default]
    Next,
    /// On a recto, the odd-numbered page, after a blank page where needed: the right-hand page
    /// of the spread in a left-to-right book. A right-to-left book (`lang = "he"` or `"ar"`) is
    /// bound on its right edge, so its recto, where puzzle 1 goes all the same, is the
    /// left-hand page of the spread, its gutter on its right ([`PageSetup::inside_is_left`](crate::page::PageSetup::inside_is_left)).
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
    /// Whether the copyright page ends with "Mazes made with Hedge." (`credit = false` drops
    /// the line).
    pub credit: bool,
    /// The language of the book's own words (START and FINISH, the front matter, the labels):
    /// a code of [`crate::lang::CODES`]; `None` is English.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lang: Option<String>,
    /// A strings file (TOML, key = "text") replacing any of the book's words, relative to the
    /// book file.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub strings: Option<std::path::PathBuf>,
    /// The words as read with `strings` (by [`parse`](fn@parse)); `None` prints the built-in
    /// words of `lang`. Not kept in files: the manifest records them.
    #[serde(skip)]
    pub words: Option<std::sync::Arc<crate::lang::Words>>,
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

    /// The paper and ink of KDP's page-count limits ([`crate::preflight::KDP_PAGE_LIMITS`]):
    /// `color` as premium colour, the one that prints every count standard colour does and
    /// more (the preflight says when standard colour would not print the book).
    pub fn paper_ink(self) -> crate::preflight::PaperInk {
        match self {
            CoverPaper::White => crate::preflight::PaperInk::White,
            CoverPaper::Cream => crate::preflight::PaperInk::Cream,
            CoverPaper::Color => crate::preflight::PaperInk::PremiumColor,
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
    /// The ground's colour, `"#RRGGBB"` (a dark green when not given).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub background: Option<String>,
    /// Every text's colour, `"#RRGGBB"` (a yellow title and white lines when not given); at
    /// least [`crate::draw::MIN_CONTRAST`] to 1 against the ground.
    #[serde(alias = "text_color", skip_serializing_if = "Option::is_none")]
    pub text_colour: Option<String>,
    /// The book's own artwork on the front in place of the maze cards: an SVG file (sharp at
    /// any size) or a PNG or JPEG picture (printed at its own resolution, 300 dpi wanted),
    /// relative to the book file.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub front: Option<std::path::PathBuf>,
    /// A short text in a round badge on the front and the lower back ("Ages 4-8"), one line
    /// of at most [`crate::draw::BADGE_MAX_CHARS`] characters.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub badge: Option<String>,
    /// A logo on the lower back, left of the barcode area: an SVG, PNG or JPEG file, relative
    /// to the book file.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub logo: Option<std::path::PathBuf>,
    /// `front` and `logo` as read (by [`parse`](fn@parse)); the cover draws these. Not kept in
    /// files: the paths are.
    #[serde(skip)]
    pub pictures: CoverPictures,
}

/// A cover's own pictures, read: its front artwork and its logo.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CoverPictures {
    /// The front's artwork (`front`).
    pub front: Option<std::sync::Arc<crate::picture::Art>>,
    /// The logo (`logo`).
    pub logo: Option<std::sync::Arc<crate::picture::Art>>,
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
            lang: None,
            strings: None,
            words: None,
            cover: None,
            credit: true,
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
        if let Some(l) = &self.lang {
            crate::lang::check(l)
                .and_then(crate::lang::check_printable)
                .map_err(|e| field("lang", e))?;
        }
        let most = crate::draw::MAX_KEYS_PER_PAGE;
        if !(1..=most as u32).contains(&self.keys_per_page) {
            return Err(Error::option(format!(
                "book.keys_per_page: must be 1 to {most}, got {}",
                self.keys_per_page
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
        if !self.label.contains("{n}") {
            return Err(Error::option(format!(
                "book.label: must contain {{n}} (the puzzle number), got \"{}\"",
                crate::error::one_line(&self.label)
            )));
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
        if let Some(c) = &self.cover {
            cover::check_settings(c)?;
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
            self.words().fill(
                "key_label",
                &[("label", &self.label_for(n)), ("page", &page.to_string())],
            )
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
    /// instruction of the design's reader preset, stars when the design or the book asks
    /// (`star_count` of them filled, when the book decided: else the maze's standing),
    /// "Solution on page N" under it when `solution_refs` asks; turned with its shape when the
    /// design says `turn = "page"` ([`PageSetup::turned`]).
    pub fn puzzle_setup(
        &self,
        design: &Design,
        n: usize,
        (page, key_page): (u32, u32),
        star_count: Option<usize>,
    ) -> PageSetup {
        let d = &design.page;
        PageSetup {
            markers: d.markers,
            symbols: d.symbols,
            theme: d.theme.clone(),
            instruction: d.instruction.clone(),
            stars: d.stars || self.stars,
            star_count,
            footnote: self.solution_refs.then(|| {
                let key = match self.answers {
                    Answers::Separate => "solution_in_answers",
                    _ => "solution_on_page",
                };
                self.words().fill(key, &[("page", &key_page.to_string())])
            }),
            start_picture: d.start_picture.clone(),
            finish_picture: d.finish_picture.clone(),
            pictures: d.pictures.clone(),
            turned: design.turn.turns_page(),
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
            star_count: None,
            footnote: None,
            start_picture: None,
            finish_picture: None,
            pictures: None,
            turned: false,
            lang: self.lang.clone(),
            strings: self.strings.clone(),
            words: self.words.clone(),
        }
    }

    /// The words the book prints in its language: those read with its strings file, else the
    /// built-in words of [`Settings::lang`].
    pub fn words(&self) -> &crate::lang::Words {
        match &self.words {
            Some(w) => w,
            None => crate::lang::Words::builtin(self.lang.as_deref().unwrap_or_default()),
        }
    }

    /// The book's title, or the words' "Mazes" when it has none.
    pub fn title_or_default(&self) -> &str {
        self.title
            .as_deref()
            .unwrap_or_else(|| self.words().get("title"))
    }
}

/// The longest ISBN written out: 13 digits and 4 hyphens (`978-3-16-148410-0`).
pub const MAX_ISBN_CHARS: usize = 17;

/// Checks an ISBN: 10 digits (the last may be X) or 13 (starting 978 or 979), single hyphens or
/// spaces between digits (at most four, none first or last), and a right check digit. The
/// error quotes at most [`MAX_ISBN_CHARS`] characters of a longer value.
fn check_isbn(isbn: &str) -> Result<()> {
    let n = isbn.chars().count();
    if n > MAX_ISBN_CHARS {
        return Err(Error::option(format!(
            "not an ISBN: {n} characters; an ISBN is 10 or 13 digits with at most 4 hyphens or \
             spaces between them ({MAX_ISBN_CHARS} characters at most)"
        )));
    }
    let bad = || {
        Error::option(format!(
            "not a valid ISBN (10 or 13 digits, single hyphens or spaces between them, a right \
             check digit): {}",
            crate::error::one_line(isbn)
        ))
    };
    let chars: Vec<char> = isbn.chars().collect();
    let separator = |c: char| matches!(c, '-' | ' ');
    let seps = chars.iter().filter(|&&c| separator(c)).count();
    if seps > 4
        || chars.first().is_none_or(|&c| separator(c))
        || chars.last().is_none_or(|&c| separator(c))
        || chars.windows(2).any(|w| separator(w[0]) && separator(w[1]))
    {
        return Err(bad());
    }
    let digits: Vec<char> = chars.into_iter().filter(|&c| !separator(c)).collect();
    let value = |i: usize, c: char| match c {
        '0'..='9' => c.to_digit(10),
        // an ISBN-10's check digit may be 10, written X
        'X' | 'x' if i == 9 && digits.len() == 10 => Some(10),
        _ => None,
    };
    let values: Option<Vec<u32>> = digits
        .iter()
        .enumerate()
        .map(|(i, &c)| value(i, c))
        .collect();
    let ok = match values {
        Some(v) if v.len() == 10 => {
            let sum: u32 = v.iter().enumerate().map(|(i, d)| d * (10 - i as u32)).sum();
            sum.is_multiple_of(11)
        }
        Some(v) if v.len() == 13 => {
            let sum: u32 = v
                .iter()
                .enumerate()
                .map(|(i, d)| if i % 2 == 0 { *d } else { 3 * d })
                .sum();
            (v.starts_with(&[9, 7, 8]) || v.starts_with(&[9, 7, 9])) && sum.is_multiple_of(10)
        }
        _ => false,
    };
    if ok { Ok(()) } else { Err(bad()) }
}

#[cfg(test)]
mod isbn_tests {
    use super::check_isbn;

    #[test]
    fn an_isbn_is_ten_or_thirteen_digits_with_a_right_check_digit() {
        for good in [
            "978-3-16-148410-0",
            "9783161484100",
            "978 3 16 148410 0",
            "0-306-40615-2",
            "0306406152",
            "0-8044-2957-X",
            "080442957x",
            "979-10-90636-07-1",
        ] {
            assert!(check_isbn(good).is_ok(), "{good}");
        }
        for bad in [
            "",
            "978-3-16-148410-1",
            "0-306-40615-3",
            "X-306-40615-2",
            "-9783161484100",
            "9783161484100-",
            "978--3161484100",
            "9-7-8-3-1-61484100",
            "123-4-56-789012-8",
            "97831614841000",
            "ISBN 9783161484100",
            "978316148410\u{663}",
        ] {
            let e = check_isbn(bad).unwrap_err();
            assert!(!e.message.contains('\n'), "{e}");
        }
        // a very long value is refused in one short line, not echoed
        let long = format!("978{}3161484100", "-".repeat(100_000));
        let e = check_isbn(&long).unwrap_err().message;
        assert!(e.len() < 200 && e.contains("100013 characters"), "{e}");
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
    /// The reader preset a difficulty ramp gave this page (an index into [`crate::difficulty::PRESETS`]); the
    /// contents page names its sections by it.
    pub level: Option<usize>,
    /// Whether the book decides the page's turn ([`Design::turn`]): a generator's page with a
    /// shape and a fitted height that does not set `turn` itself. The build turns the page
    /// with its upright shape (`turn = "page"`) when the shape would print much smaller on an
    /// upright page (a dog or a fish on a portrait page: [`shapes::PAGE_TURN_BELOW`]); it
    /// never turns the shape alone.
    pub auto_turn: bool,
    /// Which way its generator's pages get harder ([`Slope`]): its stars, when no preset
    /// gives it a level, never go against it ([`ramp::star_counts`]). `None` for a single page
    /// and a generator without ramps.
    pub slope: Option<Slope>,
    /// The reader preset (sized for the page's inset) a page turned with its shape is sized
    /// for, when the page has a preset's size limit and the book decides its turn: the turned
    /// page's grid is the largest of the shape's aspect that keeps its corridor
    /// ([`crate::sizing::aspect_grid`]).
    pub turn_preset: Option<crate::difficulty::Preset>,
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
    /// The folder the book's relative paths were joined to: the book file's own, as the caller
    /// named it ([`parse`]'s `base`). The manifest records every path relative to it.
    pub base: PathBuf,
    /// The book file's folder as seen from the output folder (a path relative to it, or an
    /// absolute one): the manifest records it (`book_dir`), so `hedge regenerate` finds the
    /// book's pictures wherever it is run. The caller's to give, like `date` (the command line
    /// works it out from the two folders); `None` (what [`parse`] gives) records none, and
    /// the pictures are then looked for from the manifest's own folder.
    pub book_dir: Option<PathBuf>,
    /// The digest of each picture file read while reading the book (the pages' start and
    /// finish pictures), by its path; the build adds the shapes' and the manifest records
    /// them all (`pictures`).
    pub pictures: BTreeMap<PathBuf, String>,
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
