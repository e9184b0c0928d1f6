//! Page setup: the paper, its orientation, margins and bleed, the lines of text printed around the
//! maze, and the pen sizes. A [`PageSetup`] is plain serde data (every field has a default, so
//! older files keep loading); [`PageSetup::validate`] turns bad values into one-line errors.
//!
//! Everything here is in millimetres. Which edge is the *inside* (binding) edge follows the page
//! number: odd pages are right-hand pages (binding on the left), even pages left-hand ones.

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};

/// Millimetres per inch.
pub const MM_PER_INCH: f64 = 25.4;

/// The bleed added around every edge when [`PageSetup::bleed`] is on: 0.125 in.
pub const BLEED_MM: f64 = 0.125 * MM_PER_INCH;

/// The corridor width under which a page is hard to solve with a pencil.
pub const COMFORTABLE_CORRIDOR_MM: f64 = 3.0;

/// The smallest page side accepted, in millimetres.
pub const MIN_PAGE_MM: f64 = 50.0;

/// The largest page side accepted, in millimetres (about 2 m, large-format posters).
pub const MAX_PAGE_MM: f64 = 2000.0;

/// A paper size (portrait dimensions; see [`Orientation`]). Files write it as a name (`"a4"`,
/// `"6x9"`) or, for other sizes, a `custom` table; they may also give any name `--paper` takes
/// (`"150x200mm"`, `"5x7in"`), as a book's `trim` does.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Paper {
    /// ISO A4, 210 x 297 mm.
    A4,
    /// US Letter, 8.5 x 11 in.
    #[default]
    Letter,
    /// Puzzle-book trim 8.5 x 11 in (the size of Letter, named for book printers).
    #[serde(rename = "8.5x11")]
    Trim85x11,
    /// Puzzle-book trim 8 x 10 in.
    #[serde(rename = "8x10")]
    Trim8x10,
    /// Puzzle-book trim 6 x 9 in.
    #[serde(rename = "6x9")]
    Trim6x9,
    /// Any size, in millimetres.
    Custom {
        /// Width in millimetres (portrait: the shorter side is usual, not required).
        width_mm: f64,
        /// Height in millimetres.
        height_mm: f64,
    },
}

/// The table form of a custom paper, as files have always written it:
/// `paper = { custom = { width_mm = 150.0, height_mm = 200.0 } }`.
#[derive(Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
enum PaperTable {
    Custom { width_mm: f64, height_mm: f64 },
}

impl<'de> Deserialize<'de> for Paper {
    /// A name `--paper` takes (`a4`, `letter`, `8.5x11`, `8x10`, `6x9`, `150x200mm`, `5x7in`)
    /// or the `custom` table.
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        struct Visitor;
        impl<'de> serde::de::Visitor<'de> for Visitor {
            type Value = Paper;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a paper name (a4, letter, 8.5x11, 8x10, 6x9, or a size like 150x200mm or 5x7in)")
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> std::result::Result<Paper, E> {
                v.parse::<Paper>().map_err(|e| E::custom(e.message))
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                map: A,
            ) -> std::result::Result<Paper, A::Error> {
                let PaperTable::Custom {
                    width_mm,
                    height_mm,
                } = PaperTable::deserialize(serde::de::value::MapAccessDeserializer::new(map))?;
                Ok(Paper::Custom {
                    width_mm,
                    height_mm,
                })
            }
        }
        d.deserialize_any(Visitor)
    }
}

impl Paper {
    /// Width and height in millimetres, portrait as named.
    pub fn size_mm(self) -> (f64, f64) {
        let inch = |w: f64, h: f64| (w * MM_PER_INCH, h * MM_PER_INCH);
        match self {
            Paper::A4 => (210.0, 297.0),
            Paper::Letter | Paper::Trim85x11 => inch(8.5, 11.0),
            Paper::Trim8x10 => inch(8.0, 10.0),
            Paper::Trim6x9 => inch(6.0, 9.0),
            Paper::Custom {
                width_mm,
                height_mm,
            } => (width_mm, height_mm),
        }
    }

    /// The name used on the command line (`a4`, `letter`, `8.5x11`, `8x10`, `6x9`, `WxHmm`).
    pub fn name(self) -> String {
        match self {
            Paper::A4 => "a4".into(),
            Paper::Letter => "letter".into(),
            Paper::Trim85x11 => "8.5x11".into(),
            Paper::Trim8x10 => "8x10".into(),
            Paper::Trim6x9 => "6x9".into(),
            Paper::Custom {
                width_mm,
                height_mm,
            } => format!("{width_mm}x{height_mm}mm"),
        }
    }
}

impl std::fmt::Display for Paper {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.name())
    }
}

impl std::str::FromStr for Paper {
    type Err = Error;

    /// Parses `a4`, `letter`, `8.5x11`, `8x10`, `6x9`, or a custom size `WxHmm` / `WxHin`.
    fn from_str(s: &str) -> Result<Self> {
        let t = s.trim().to_ascii_lowercase();
        match t.as_str() {
            "a4" => return Ok(Paper::A4),
            "letter" | "us-letter" => return Ok(Paper::Letter),
            "8.5x11" | "8.5x11in" => return Ok(Paper::Trim85x11),
            "8x10" | "8x10in" => return Ok(Paper::Trim8x10),
            "6x9" | "6x9in" => return Ok(Paper::Trim6x9),
            _ => {}
        }
        let bad = || {
            Error::option(format!(
                "unknown paper '{s}' (use a4, letter, 8.5x11, 8x10, 6x9, or a size like 150x200mm or 5x7in)"
            ))
        };
        let (body, unit) = if let Some(b) = t.strip_suffix("mm") {
            (b, 1.0)
        } else if let Some(b) = t.strip_suffix("in") {
            (b, MM_PER_INCH)
        } else {
            return Err(bad());
        };
        let (w, h) = body.split_once('x').ok_or_else(bad)?;
        let num = |v: &str| v.trim().parse::<f64>().map_err(|_| bad());
        let paper = Paper::Custom {
            width_mm: num(w)? * unit,
            height_mm: num(h)? * unit,
        };
        check_size(paper.size_mm())?;
        Ok(paper)
    }
}

/// Which way up the paper is. Its names are the kebab-case variant names. [`Orientation::Auto`]
/// (the default of a single page) is settled when the maze is laid out: the page is turned
/// when the maze gets wider corridors that way (see [`PageSetup::oriented`]).
#[derive(
    Clone,
    Copy,
    Debug,
    Default,
    PartialEq,
    Eq,
    Serialize,
    Deserialize,
    strum::Display,
    strum::IntoStaticStr,
    strum::VariantArray,
)]
#[serde(rename_all = "kebab-case")]
#[strum(serialize_all = "kebab-case")]
pub enum Orientation {
    /// Taller than wide.
    Portrait,
    /// Wider than tall.
    Landscape,
    /// Whichever of the two gives the maze the wider corridors (portrait when they tie): the
    /// default for single pages. Books set their orientation explicitly.
    #[default]
    Auto,
}

impl Orientation {
    /// This orientation, or `fallback` for [`Orientation::Auto`].
    pub fn oriented_or(self, fallback: Orientation) -> Orientation {
        match self {
            Orientation::Auto => fallback,
            fixed => fixed,
        }
    }
}

/// The variant of `T` named `s` (any case, surrounding spaces ignored).
fn by_name<T>(s: &str) -> Option<T>
where
    T: strum::VariantArray + Copy + Into<&'static str>,
{
    T::VARIANTS
        .iter()
        .copied()
        .find(|v| (*v).into().eq_ignore_ascii_case(s.trim()))
}

/// `names` as "a, b or c".
fn or_list(names: &[&str]) -> String {
    match names.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        _ => names.join(""),
    }
}

/// The names of every variant of `T`.
fn names<T>() -> Vec<&'static str>
where
    T: strum::VariantArray + Copy + Into<&'static str>,
{
    T::VARIANTS.iter().map(|&v| v.into()).collect()
}

impl std::str::FromStr for Orientation {
    type Err = Error;

    /// Parses `portrait`, `landscape` or `auto`.
    fn from_str(s: &str) -> Result<Self> {
        by_name(s).ok_or_else(|| {
            Error::option(format!(
                "unknown orientation '{s}' (use {})",
                or_list(&names::<Orientation>())
            ))
        })
    }
}

/// How big the START and FINISH markers print: the labels' size, the arrows' length and
/// weight. A reader preset picks it (ages 3-5 [`MarkerSize::Huge`], ages 6-8
/// [`MarkerSize::Large`]): children who are learning to read need a big word at a big arrow.
#[derive(
    Clone,
    Copy,
    Debug,
    Default,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    Serialize,
    Deserialize,
    strum::IntoStaticStr,
    strum::VariantArray,
)]
#[serde(rename_all = "kebab-case")]
#[strum(serialize_all = "kebab-case")]
pub enum MarkerSize {
    /// 9 pt labels, 6 mm arrows: adults' and older children's pages.
    #[default]
    Normal,
    /// 12 pt labels, 8 mm arrows.
    Large,
    /// 16 pt labels, 10 mm arrows with a 1.2 mm shaft: for ages 3 to 5.
    Huge,
}

impl MarkerSize {
    /// Every size, smallest first.
    pub const ALL: [MarkerSize; 3] = [MarkerSize::Normal, MarkerSize::Large, MarkerSize::Huge];

    /// The name in files and on the command line (`normal`, `large`, `huge`).
    pub fn name(self) -> &'static str {
        self.into()
    }

    /// The labels' size in points.
    pub fn label_pt(self) -> f64 {
        match self {
            MarkerSize::Normal => 9.0,
            MarkerSize::Large => 12.0,
            MarkerSize::Huge => 16.0,
        }
    }

    /// How far an arrow reaches out of the maze's outline, in millimetres.
    pub fn arrow_mm(self) -> f64 {
        match self {
            MarkerSize::Normal => 6.0,
            MarkerSize::Large => 8.0,
            MarkerSize::Huge => 10.0,
        }
    }

    /// An arrow's shaft width, in millimetres.
    pub fn shaft_mm(self) -> f64 {
        match self {
            MarkerSize::Normal => 0.6,
            MarkerSize::Large => 0.9,
            MarkerSize::Huge => 1.2,
        }
    }

    /// The widest an arrow head gets, in millimetres (narrower in narrow corridors).
    pub fn head_max_mm(self) -> f64 {
        match self {
            MarkerSize::Normal => 3.0,
            MarkerSize::Large => 4.0,
            MarkerSize::Huge => 5.0,
        }
    }
}

impl std::str::FromStr for MarkerSize {
    type Err = Error;

    /// Parses `normal`, `large` or `huge`.
    fn from_str(s: &str) -> Result<Self> {
        by_name(s).ok_or_else(|| {
            Error::option(format!(
                "unknown marker size '{s}' (use {})",
                or_list(&names::<MarkerSize>())
            ))
        })
    }
}

/// The typeface of a page's text: Liberation Sans, Serif or Mono (metric-compatible with
/// Helvetica, Times and Courier), bundled and embedded in PDFs as subsets, with DejaVu Sans for
/// symbols they lack (see `draw::font`). Its names (files, command line) are the kebab-case
/// variant names.
#[derive(
    Clone,
    Copy,
    Debug,
    Default,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    Serialize,
    Deserialize,
    strum::IntoStaticStr,
    strum::VariantArray,
)]
#[serde(rename_all = "kebab-case")]
#[strum(serialize_all = "kebab-case")]
pub enum Typeface {
    /// Helvetica (a sans serif): clear and friendly, the default.
    #[default]
    Sans,
    /// Times (a serif): bookish.
    Serif,
    /// Courier (a typewriter face, every letter the same width).
    Mono,
}

impl Typeface {
    /// Every typeface, in menu order.
    pub const ALL: [Typeface; 3] = [Typeface::Sans, Typeface::Serif, Typeface::Mono];

    /// The name in files and on the command line (`sans`, `serif`, `mono`).
    pub fn name(self) -> &'static str {
        self.into()
    }

    /// A name for people: the classic font whose metrics it has (it prints in the Liberation
    /// face that matches it).
    pub fn label(self) -> &'static str {
        match self {
            Typeface::Sans => "Helvetica",
            Typeface::Serif => "Times",
            Typeface::Mono => "Courier",
        }
    }
}

impl std::str::FromStr for Typeface {
    type Err = Error;

    fn from_str(s: &str) -> Result<Self> {
        by_name(s).ok_or_else(|| {
            Error::option(format!(
                "unknown font \"{s}\" (known: {})",
                names::<Typeface>().join(", ")
            ))
        })
    }
}

/// How a maze is put on paper.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct PageSetup {
    /// The paper (trim) size.
    pub paper: Paper,
    /// Portrait, landscape, or auto (turned to whichever gives the wider corridors).
    pub orientation: Orientation,
    /// Margin on the top, bottom and outside edges, in millimetres.
    pub margin_mm: f64,
    /// Extra margin on the inside (binding) edge, in millimetres.
    pub gutter_mm: f64,
    /// Whether to add a 0.125 in bleed around the trim (the page grows; nothing is cut off).
    pub bleed: bool,
    /// Whether the page is bound into a book: the bleed then goes on the top, bottom and
    /// outside edges only, none at the binding (Amazon KDP's interior rule: 0.125 in wider and
    /// 0.25 in taller than the trim).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub bound: bool,
    /// A title line at the top of the page.
    pub title: Option<String>,
    /// Whether to print a "Name: ______" line under the title.
    pub name_line: bool,
    /// The page number printed at the foot of the puzzle page (the answer key gets the next one);
    /// `None` prints none. Odd numbers are right-hand pages.
    pub page_number: Option<u32>,
    /// Wall thickness in millimetres (thinned automatically if corridors would close up).
    pub wall_mm: f64,
    /// The narrowest corridor, in millimetres, accepted without a warning.
    pub min_corridor_mm: f64,
    /// The typeface of every text on the page.
    #[serde(skip_serializing_if = "is_sans")]
    pub font: Typeface,
    /// How big the START and FINISH markers print.
    #[serde(skip_serializing_if = "is_normal")]
    pub markers: MarkerSize,
    /// A big green dot at the start and a chequered flag at the finish instead of the words
    /// START and FINISH, for children who cannot read yet.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub symbols: bool,
    /// A theme (see [`crate::theme`]): its pictures at the entrance and the exit instead of
    /// the words, and its instruction line at the top of the page.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub theme: Option<String>,
    /// The instruction line at the top of the page ("Help the bee find the flower"); a theme's
    /// own when not given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub instruction: Option<String>,
    /// The maze's level as 1 to 5 stars at the top right, beside the title.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub stars: bool,
    /// How many of the stars are filled, when the caller decides it (a book gives every
    /// puzzle of a level that level's stars: [`crate::book`]); `None` prints the maze's
    /// standing among mazes of its size and shape. Not kept in files.
    #[serde(skip)]
    pub star_count: Option<usize>,
    /// A short line at the foot of a puzzle page, on the outside edge, beside the page number
    /// (a book's "Solution on page 34").
    #[serde(skip_serializing_if = "Option::is_none")]
    pub footnote: Option<String>,
    /// Your own picture at the entrance (`--start-picture`): an SVG file, relative to the
    /// design or book file that names it. It wins over the theme's start picture.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub start_picture: Option<std::path::PathBuf>,
    /// Your own picture at the exit (`--finish-picture`), as `start_picture`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub finish_picture: Option<std::path::PathBuf>,
    /// The start and finish pictures as read from `start_picture` and `finish_picture` (the
    /// theme's for one not given) by [`crate::load::page_pictures`]; the drawing uses these.
    /// Not kept in files: the paths are.
    #[serde(skip)]
    pub pictures: Option<std::sync::Arc<[crate::picture::Picture; 2]>>,
    /// The page's content turned a quarter turn on the sheet: drawn across the other way (a
    /// landscape puzzle on a portrait book page) and then turned anticlockwise onto the sheet
    /// ([`crate::draw::Drawing::turned`]), so its title, labels and page number read from
    /// the bottom of the sheet up, as printed books set their landscape pages. The sheet stays
    /// the trim's size. A design's `turn = "page"` sets it ([`crate::design::Turn::Page`]).
    /// [`PageSetup::trim_mm`], [`PageSetup::bleed_edges_mm`] and [`PageSetup::margins_mm`]
    /// describe the content's frame (the sheet turned); not kept in files.
    #[serde(skip)]
    pub turned: bool,
    /// The language of the page's own words (START, FINISH, "Name:", the theme's line, a
    /// book's front matter): a code of [`crate::lang::CODES`]; `None` is English.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lang: Option<String>,
    /// A strings file (TOML, key = "text") replacing any of the page's words, relative to the
    /// design or book file that names it; read by [`crate::load::page_words`].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub strings: Option<std::path::PathBuf>,
    /// The page's words as read with `strings` by [`crate::load::page_words`]; `None` prints
    /// the built-in words of `lang`. Not kept in files: the path is.
    #[serde(skip)]
    pub words: Option<std::sync::Arc<crate::lang::Words>>,
}

fn is_normal(m: &MarkerSize) -> bool {
    *m == MarkerSize::Normal
}

fn is_sans(t: &Typeface) -> bool {
    *t == Typeface::Sans
}

impl Default for PageSetup {
    fn default() -> Self {
        PageSetup {
            paper: Paper::Letter,
            orientation: Orientation::Auto,
            margin_mm: 12.7,
            gutter_mm: 0.0,
            bleed: false,
            bound: false,
            title: None,
            name_line: false,
            page_number: None,
            wall_mm: 0.5,
            min_corridor_mm: COMFORTABLE_CORRIDOR_MM,
            font: Typeface::Sans,
            markers: MarkerSize::Normal,
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
            lang: None,
            strings: None,
            words: None,
        }
    }
}

fn check_size((w, h): (f64, f64)) -> Result<()> {
    for (name, v) in [("width", w), ("height", h)] {
        if !v.is_finite() || !(MIN_PAGE_MM..=MAX_PAGE_MM).contains(&v) {
            return Err(Error::option(format!(
                "the paper {name} must be between {MIN_PAGE_MM} and {MAX_PAGE_MM} mm, got {}",
                crate::error::num(v)
            )));
        }
    }
    Ok(())
}

impl PageSetup {
    /// The instruction line printed at the top: the setup's own, else its theme's.
    pub fn instruction_line(&self) -> Option<&str> {
        self.instruction
            .as_deref()
            .or_else(|| {
                let t = self.theme.as_deref()?;
                crate::theme::get(t).ok()?;
                self.words().theme_line(t)
            })
            .filter(|t| !t.trim().is_empty())
    }

    /// [`PageSetup::words`], shared.
    pub fn shared_words(&self) -> std::sync::Arc<crate::lang::Words> {
        match &self.words {
            Some(w) => w.clone(),
            None => crate::lang::Words::shared(self.lang.as_deref().unwrap_or_default()),
        }
    }

    /// The words the page prints in its language: those read with its strings file, else the
    /// built-in words of [`PageSetup::lang`].
    pub fn words(&self) -> &crate::lang::Words {
        match &self.words {
            Some(w) => w,
            None => crate::lang::Words::builtin(self.lang.as_deref().unwrap_or_default()),
        }
    }

    /// Takes the relative paths of `start_picture`, `finish_picture` and `strings` relative to
    /// `base` (the folder of the design or book file that names them).
    pub fn resolve_pictures(&mut self, base: &std::path::Path) {
        for p in [
            &mut self.start_picture,
            &mut self.finish_picture,
            &mut self.strings,
        ]
        .into_iter()
        .flatten()
        {
            if p.is_relative() {
                *p = base.join(&*p);
            }
        }
    }

    /// Whether this is the default setup (a design file leaves it out then).
    pub fn is_default(&self) -> bool {
        *self == PageSetup::default()
    }

    /// Checks every field; the error names the first bad one.
    pub fn validate(&self) -> Result<()> {
        if self.turned {
            // the sheet's margins and gutter are checked as the sheet has them
            return PageSetup {
                turned: false,
                ..self.clone()
            }
            .validate();
        }
        check_size(self.paper.size_mm())?;
        let (w, h) = self.trim_mm();
        let range = |name: &str, v: f64, lo: f64, hi: f64| {
            if v.is_finite() && (lo..=hi).contains(&v) {
                Ok(())
            } else {
                Err(Error::option(format!(
                    "{name} must be between {lo} and {hi} mm, got {}",
                    crate::error::num(v)
                )))
            }
        };
        range("the margin", self.margin_mm, 0.0, 100.0)?;
        range("the gutter", self.gutter_mm, 0.0, 100.0)?;
        range("the wall thickness", self.wall_mm, 0.05, 10.0)?;
        range(
            "the minimum corridor width",
            self.min_corridor_mm,
            0.0,
            100.0,
        )?;
        let across = w - 2.0 * self.margin_mm - self.gutter_mm;
        let down = h - 2.0 * self.margin_mm;
        if across < 30.0 && down >= 30.0 && w - 2.0 * self.margin_mm >= 30.0 {
            // the margins alone leave room: the gutter is what takes it
            return Err(Error::option(format!(
                "the gutter of {} mm leaves {:.0} x {:.0} mm of a {:.0} x {:.0} mm page beside \
                 margins of {} mm; make the gutter or the margins smaller",
                self.gutter_mm,
                across.max(0.0),
                down,
                w,
                h,
                self.margin_mm
            )));
        }
        if across < 30.0 || down < 30.0 {
            return Err(Error::option(format!(
                "the margins leave {:.0} x {:.0} mm of a {:.0} x {:.0} mm page; make them smaller",
                across.max(0.0),
                down.max(0.0),
                w,
                h
            )));
        }
        if let Some(t) = &self.title
            && t.chars().count() > 200
        {
            return Err(Error::option("the title is longer than 200 characters"));
        }
        if let Some(t) = &self.theme {
            crate::theme::get(t)?;
        }
        if let Some(t) = &self.instruction
            && t.chars().count() > 200
        {
            return Err(Error::option(
                "the instruction is longer than 200 characters",
            ));
        }
        if self.page_number == Some(u32::MAX) {
            return Err(Error::option("the page number is too large"));
        }
        if let Some(l) = &self.lang {
            crate::lang::check_printable(crate::lang::check(l)?)?;
        }
        Ok(())
    }

    /// The trimmed page size in millimetres, orientation applied (an unsettled
    /// [`Orientation::Auto`] counts as portrait until the layout settles it), as its content
    /// is drawn: the other way round for a [`PageSetup::turned`] page.
    pub fn trim_mm(&self) -> (f64, f64) {
        let (w, h) = self.paper.size_mm();
        let (short, long) = (w.min(h), w.max(h));
        let portrait = match self.orientation {
            Orientation::Portrait | Orientation::Auto => true,
            Orientation::Landscape => false,
        };
        if portrait != self.turned {
            (short, long)
        } else {
            (long, short)
        }
    }

    /// `edges` of the sheet (left, top, right, bottom) as the content's frame has them: for a
    /// [`PageSetup::turned`] page, turned a quarter turn clockwise (its content's top is the
    /// sheet's left edge, its left the sheet's bottom: [`crate::draw::Drawing::turned`]).
    fn framed(&self, [l, t, r, b]: [f64; 4]) -> [f64; 4] {
        if self.turned {
            [b, l, t, r]
        } else {
            [l, t, r, b]
        }
    }

    /// The margins on the left, top, right and bottom edges of the content's frame, in
    /// millimetres: the setup's margin on each, and the gutter on the inside (binding) edge
    /// (the sheet's left on a right-hand page, the top of a turned one's content).
    pub fn margins_mm(&self) -> [f64; 4] {
        let m = self.margin_mm;
        let g = self.gutter_mm;
        self.framed(if self.inside_is_left() {
            [m + g, m, m, m]
        } else {
            [m, m, m + g, m]
        })
    }

    /// This setup turned to `orientation` when its own is [`Orientation::Auto`]; a setup with a
    /// fixed orientation is returned as it is.
    pub fn oriented(&self, orientation: Orientation) -> PageSetup {
        match self.orientation {
            Orientation::Auto => PageSetup {
                orientation,
                ..self.clone()
            },
            _ => self.clone(),
        }
    }

    /// This setup, [`PageSetup::turned`] when `turn` (a design's `turn = "page"`) or already.
    pub fn turned_if(&self, turn: bool) -> PageSetup {
        PageSetup {
            turned: self.turned || turn,
            ..self.clone()
        }
    }

    /// The bleed on each edge that has one, in millimetres (0 without bleed).
    pub fn bleed_mm(&self) -> f64 {
        if self.bleed { BLEED_MM } else { 0.0 }
    }

    /// The bleed on the left, top, right and bottom edges in millimetres: all four, or (on a
    /// [`PageSetup::bound`] page) none on the inside edge; of the content's frame for a
    /// [`PageSetup::turned`] page.
    pub fn bleed_edges_mm(&self) -> [f64; 4] {
        let b = self.bleed_mm();
        self.framed(match (self.bound, self.inside_is_left()) {
            (false, _) => [b, b, b, b],
            (true, true) => [0.0, b, b, b],
            (true, false) => [b, b, 0.0, b],
        })
    }

    /// Where the trimmed page's top-left corner lies on the full page, in millimetres.
    pub fn trim_origin_mm(&self) -> (f64, f64) {
        let [left, top, _, _] = self.bleed_edges_mm();
        (left, top)
    }

    /// The full page (trim plus bleed) in millimetres: the size of the PDF page and the image.
    pub fn page_mm(&self) -> (f64, f64) {
        let (w, h) = self.trim_mm();
        let [l, t, r, b] = self.bleed_edges_mm();
        (w + l + r, h + t + b)
    }

    /// The setup of the page after this one (the answer key's page in a PDF). A numbered page's
    /// number moves on by one, which also moves the gutter to the other edge; an unnumbered
    /// page stays as it is.
    pub fn next_page(&self) -> PageSetup {
        PageSetup {
            page_number: self.page_number.map(|n| n.saturating_add(1)),
            ..self.clone()
        }
    }

    /// Whether this page's inside (binding) edge is on the left: true for odd-numbered pages and
    /// for a page without a number, the other way round for a [`PageSetup::bound`] page in a
    /// right-to-left language ([`PageSetup::right_to_left`]): such a book is bound on its right
    /// edge, so its odd pages (the recto of each leaf, the first side the reader turns to) are
    /// the left-hand pages of the spreads, bound on their right.
    pub fn inside_is_left(&self) -> bool {
        (self.page_number.unwrap_or(1) % 2 == 1) != (self.bound && self.right_to_left())
    }

    /// Whether the page's language is written right to left (Hebrew, Arabic:
    /// [`crate::lang::RIGHT_TO_LEFT`]): its layout mirrors (the name line on the right, the
    /// stars on the left, the contents' numbers on the left, a book bound on the right).
    pub fn right_to_left(&self) -> bool {
        self.lang
            .as_deref()
            .is_some_and(|l| crate::lang::RIGHT_TO_LEFT.contains(&l))
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_bound_page_bleeds_on_the_outside_only() {
        let mut s = PageSetup {
            paper: Paper::Trim85x11,
            bleed: true,
            bound: true,
            page_number: Some(1),
            ..PageSetup::default()
        };
        let b = BLEED_MM;
        // KDP: 0.125 in wider, 0.25 in taller than the trim
        let (w, h) = s.page_mm();
        assert!((w - (215.9 + b)).abs() < 1e-9 && (h - (279.4 + 2.0 * b)).abs() < 1e-9);
        // a right-hand (odd) page binds on the left: no bleed there
        assert_eq!(s.bleed_edges_mm(), [0.0, b, b, b]);
        assert_eq!(s.trim_origin_mm(), (0.0, b));
        s.page_number = Some(2);
        assert_eq!(s.bleed_edges_mm(), [b, b, 0.0, b]);
        assert_eq!(s.trim_origin_mm(), (b, b));
        assert_eq!(s.page_mm(), (w, h));
        // a loose sheet bleeds on all four edges
        s.bound = false;
        assert_eq!(s.bleed_edges_mm(), [b; 4]);
        s.bleed = false;
        assert_eq!(s.page_mm(), s.trim_mm());
    }

    #[test]
    fn a_right_to_left_book_binds_on_the_right() {
        let b = BLEED_MM;
        let mut s = PageSetup {
            paper: Paper::Trim6x9,
            bleed: true,
            bound: true,
            margin_mm: 10.0,
            gutter_mm: 5.0,
            page_number: Some(1),
            lang: Some("ar".into()),
            ..PageSetup::default()
        };
        for lang in ["ar", "he"] {
            s.lang = Some(lang.into());
            assert!(s.right_to_left());
            // the odd page (the recto) is the spread's left-hand page: bound on its right,
            // where the gutter goes and no bleed
            s.page_number = Some(1);
            assert!(!s.inside_is_left());
            assert_eq!(s.margins_mm(), [10.0, 10.0, 15.0, 10.0]);
            assert_eq!(s.bleed_edges_mm(), [b, b, 0.0, b]);
            s.page_number = Some(2);
            assert!(s.inside_is_left());
            assert_eq!(s.margins_mm(), [15.0, 10.0, 10.0, 10.0]);
        }
        // left to right: as before
        for lang in [None, Some("en"), Some("de")] {
            s.lang = lang.map(String::from);
            assert!(!s.right_to_left());
            s.page_number = Some(1);
            assert!(s.inside_is_left());
            assert_eq!(s.margins_mm(), [15.0, 10.0, 10.0, 10.0]);
        }
        // a loose right-to-left sheet has no binding to mirror
        s.lang = Some("he".into());
        s.bound = false;
        assert!(s.inside_is_left());
    }

    use super::*;

    #[test]
    fn papers_parse_and_have_sizes() {
        assert_eq!("A4".parse::<Paper>().unwrap(), Paper::A4);
        let (w, h) = "6x9".parse::<Paper>().unwrap().size_mm();
        assert!((w - 152.4).abs() < 1e-9 && (h - 228.6).abs() < 1e-9);
        let c: Paper = "150x200mm".parse().unwrap();
        assert_eq!(c.size_mm(), (150.0, 200.0));
        let c: Paper = "5x7in".parse().unwrap();
        assert!((c.size_mm().0 - 127.0).abs() < 1e-9);
        let e = "10x10mm".parse::<Paper>().unwrap_err();
        assert!(e.message.contains("between 50"), "{e}");
        let e = "tabloid".parse::<Paper>().unwrap_err();
        assert!(e.message.contains("unknown paper"), "{e}");
        assert!("axbmm".parse::<Paper>().is_err());
    }

    #[test]
    fn orientation_swaps_and_bleed_grows() {
        let mut s = PageSetup {
            paper: Paper::A4,
            ..PageSetup::default()
        };
        // auto is the default, portrait until the layout settles it
        assert_eq!(s.orientation, Orientation::Auto);
        assert_eq!(s.trim_mm(), (210.0, 297.0));
        assert_eq!("Auto".parse::<Orientation>().unwrap(), Orientation::Auto);
        let turned = s.oriented(Orientation::Landscape);
        assert_eq!(turned.trim_mm(), (297.0, 210.0));
        assert_eq!(
            turned.oriented(Orientation::Portrait),
            turned,
            "fixed stays fixed"
        );
        s.orientation = Orientation::Landscape;
        assert_eq!(s.trim_mm(), (297.0, 210.0));
        s.bleed = true;
        let (w, h) = s.page_mm();
        assert!((w - 297.0 - 6.35).abs() < 1e-9 && (h - 210.0 - 6.35).abs() < 1e-9);
    }

    #[test]
    fn bad_setups_are_one_line_errors() {
        let bad = [
            PageSetup {
                margin_mm: -1.0,
                ..PageSetup::default()
            },
            PageSetup {
                margin_mm: 100.0,
                ..PageSetup::default()
            },
            PageSetup {
                wall_mm: f64::NAN,
                ..PageSetup::default()
            },
            PageSetup {
                paper: Paper::Custom {
                    width_mm: 0.0,
                    height_mm: 100.0,
                },
                ..PageSetup::default()
            },
        ];
        for s in bad {
            let e = s.validate().unwrap_err();
            assert!(!e.message.contains('\n'));
        }
        PageSetup::default().validate().unwrap();
    }

    #[test]
    fn serde_fills_defaults() {
        let s: PageSetup = serde_json::from_str(r#"{"paper":"6x9","title":"Owl"}"#).unwrap();
        assert_eq!(s.paper, Paper::Trim6x9);
        assert_eq!(s.title.as_deref(), Some("Owl"));
        assert_eq!(s.wall_mm, PageSetup::default().wall_mm);
        let c: PageSetup =
            serde_json::from_str(r#"{"paper":{"custom":{"width_mm":100,"height_mm":150}}}"#)
                .unwrap();
        assert_eq!(c.paper.size_mm(), (100.0, 150.0));
    }

    #[test]
    fn gutter_side_follows_page_parity() {
        let s = PageSetup::default();
        assert!(s.inside_is_left());
        assert_eq!(s.next_page(), s);
        let s = PageSetup {
            page_number: Some(1),
            ..s
        };
        assert!(!s.next_page().inside_is_left());
        assert_eq!(s.next_page().page_number, Some(2));
    }

    #[test]
    fn a_turned_page_is_drawn_across_its_sheet_with_the_gutter_at_its_top_or_foot() {
        let b = BLEED_MM;
        let sheet = PageSetup {
            paper: Paper::Trim85x11,
            orientation: Orientation::Portrait,
            bleed: true,
            bound: true,
            margin_mm: 10.0,
            gutter_mm: 5.0,
            page_number: Some(1),
            ..PageSetup::default()
        };
        let turned = PageSetup {
            turned: true,
            ..sheet.clone()
        };
        // the content's frame is landscape; the full page is the sheet's, turned
        let (sw, sh) = sheet.trim_mm();
        assert!(sh > sw);
        assert_eq!(turned.trim_mm(), (sh, sw));
        let (w, h) = sheet.page_mm();
        assert_eq!(turned.page_mm(), (h, w));
        // a right-hand page binds on the sheet's left: the top of its content's frame, where
        // the gutter goes and no bleed
        assert_eq!(sheet.margins_mm(), [15.0, 10.0, 10.0, 10.0]);
        assert_eq!(turned.margins_mm(), [10.0, 15.0, 10.0, 10.0]);
        assert_eq!(turned.bleed_edges_mm(), [b, 0.0, b, b]);
        // a left-hand page binds on the sheet's right: the foot of its content's frame
        let left = turned.next_page();
        assert_eq!(left.margins_mm(), [10.0, 10.0, 10.0, 15.0]);
        assert_eq!(left.bleed_edges_mm(), [b, b, b, 0.0]);
        // an auto sheet is portrait, its content landscape; checked as the sheet is
        let auto = PageSetup {
            orientation: Orientation::Auto,
            ..turned.clone()
        };
        assert_eq!(auto.trim_mm(), (sh, sw));
        assert!(turned.validate().is_ok());
        let narrow = PageSetup {
            gutter_mm: 100.0,
            margin_mm: 50.0,
            ..turned
        };
        assert_eq!(
            narrow.validate().unwrap_err().message,
            PageSetup {
                turned: false,
                ..narrow.clone()
            }
            .validate()
            .unwrap_err()
            .message
        );
    }
}
