//! `hedge generate -o maze.pdf|.svg|.png`: the page flags and writing printable pages.
//!
//! By default (`--key second-page`) a PDF holds the maze on page 1 and its answer key on page 2;
//! SVG and PNG, one page a file, write the key beside the puzzle as `NAME-key.EXT`.
//! `--key separate` writes the key as `NAME-key.EXT` in every format (a PDF then has the puzzle
//! only), `--key none` writes no key. The puzzle and its key are written as one set: both or
//! neither ([`hedge::io::write_printed`]). Corridors narrower than the `--corridor-mm` minimum (3 mm by
//! default) are reported on stderr as a warning; the pages are written all the same.

use std::path::{Path, PathBuf};

use anyhow::Result;
use clap::Args;

use hedge::export::{self, Format, KeyPlacement};
use hedge::make::Made;
use hedge::page::{MarkerSize, Orientation, PageSetup, Paper, Typeface};

/// Page flags (PDF, SVG and PNG output).
#[derive(Args, Debug, Default, Clone)]
pub struct PageArgs {
    /// Paper: a4, letter, 8.5x11, 8x10, 6x9, or a size like 150x200mm or 5x7in.
    #[arg(long, value_name = "PAPER", value_parser = super::parse_with::<Paper>)]
    pub paper: Option<Paper>,
    /// portrait, landscape or auto (the default: the page turns when the maze gets wider
    /// corridors that way).
    #[arg(long, value_parser = super::parse_with::<Orientation>)]
    pub orientation: Option<Orientation>,
    /// Margin on the top, bottom and outside edges, in mm.
    #[arg(long, value_name = "MM", allow_negative_numbers = true)]
    pub margin: Option<f64>,
    /// Extra margin on the inside (binding) edge, in mm.
    #[arg(long, value_name = "MM", allow_negative_numbers = true)]
    pub gutter: Option<f64>,
    /// Add a 0.125 in bleed around the page.
    #[arg(long)]
    pub bleed: bool,
    /// A title line at the top of the page.
    #[arg(long, value_name = "TEXT")]
    pub title: Option<String>,
    /// Print a "Name: ____" line under the title.
    #[arg(long)]
    pub name_line: bool,
    /// Print this page number on the maze page (the answer key gets the next one).
    #[arg(long, value_name = "N")]
    pub page_number: Option<u32>,
    /// Wall thickness in mm.
    #[arg(long, value_name = "MM", allow_negative_numbers = true)]
    pub wall_mm: Option<f64>,
    /// Narrowest corridor in mm accepted without a warning (default 3, or the --difficulty
    /// preset's corridor width).
    #[arg(long, value_name = "MM", allow_negative_numbers = true)]
    pub corridor_mm: Option<f64>,
    /// The typeface of the page's text: sans (Helvetica), serif (Times) or mono (Courier).
    #[arg(long, value_name = "FONT", value_parser = super::parse_with::<Typeface>)]
    pub font: Option<Typeface>,
    /// How big START and FINISH print: normal (9 pt labels, 6 mm arrows), large (12 pt, 8 mm)
    /// or huge (16 pt, 10 mm). --difficulty sets it (ages-3-5 huge, ages-6-8 large).
    #[arg(long, value_name = "SIZE", value_parser = super::parse_with::<MarkerSize>)]
    pub markers: Option<MarkerSize>,
    /// A big green dot at the start and a chequered flag at the finish instead of the words
    /// START and FINISH (for children who cannot read yet).
    #[arg(long)]
    pub symbols: bool,
    /// A theme for a child's page: a picture at the entrance and one at the exit instead of
    /// START and FINISH, and an instruction line at the top: bee, bird, car, dog, fish, mouse,
    /// rabbit or rocket ("Help the bee find the flower").
    #[arg(long, value_name = "NAME")]
    pub theme: Option<String>,
    /// Your own picture at the entrance: an SVG file (solid colours), drawn 16 to 22 mm
    /// across with the markers; with --theme, it replaces the theme's.
    #[arg(long, value_name = "FILE.svg")]
    pub start_picture: Option<PathBuf>,
    /// Your own picture at the exit (see --start-picture).
    #[arg(long, value_name = "FILE.svg")]
    pub finish_picture: Option<PathBuf>,
    /// The instruction line at the top of the page (a theme's own by default).
    #[arg(long, value_name = "TEXT")]
    pub instruction: Option<String>,
    /// The language of the page's own words (START, FINISH, "Name:", a theme's line): en, de,
    /// fr, es, it, pt, nl or pl.
    #[arg(long, value_name = "CODE")]
    pub lang: Option<String>,
    /// A strings file (TOML, key = "text") replacing any of the page's words; see
    /// docs/lang.md for the keys.
    #[arg(long, value_name = "FILE.toml")]
    pub strings: Option<PathBuf>,
    /// The maze's level as 1 to 5 stars beside the title (the preset's band it stands in:
    /// ages-3-5 one star, expert five).
    #[arg(long)]
    pub stars: bool,
    /// PNG resolution in dots per inch (default 300).
    #[arg(long, value_name = "DPI")]
    pub dpi: Option<u32>,
    /// Where the answer key goes: second-page (default: page 2 of a PDF; beside an SVG or PNG
    /// as NAME-key.svg/.png), separate (NAME-key.EXT in every format, the PDF holding the
    /// puzzle only) or none.
    #[arg(long, value_name = "WHERE", value_parser = parse_key)]
    pub key: Option<KeyPlacement>,
    /// What an .svg holds: print (the page as printed; the default), plotter (the walls as few
    /// continuous strokes, no fills or text, for pen plotters and laser cutters) or centreline
    /// (the corridors' centre lines, for engraving or CNC routing).
    #[arg(long, value_name = "KIND", value_parser = parse_svg_kind)]
    pub svg: Option<Format>,
    /// Make the preflight's warnings errors: when a check fails, nothing is written.
    #[arg(long)]
    pub strict: bool,
}

fn parse_key(s: &str) -> Result<KeyPlacement, String> {
    match s {
        "second-page" => Ok(KeyPlacement::SecondPage),
        "separate" => Ok(KeyPlacement::Separate),
        "none" => Ok(KeyPlacement::None),
        _ => Err("use second-page, separate or none".into()),
    }
}

fn parse_svg_kind(s: &str) -> Result<Format, String> {
    Format::svg_variant(s).ok_or_else(|| "use print, plotter or centreline".into())
}

impl PageArgs {
    /// The page setup the flags describe on top of `base` (the design file's setup), checked.
    pub fn setup(&self, base: &PageSetup) -> Result<PageSetup> {
        self.setup_warned(base).map(|(s, _)| s)
    }

    /// [`PageArgs::setup`], and the warning of a strings file that leaves words out (for the
    /// caller to print once).
    pub fn setup_warned(&self, base: &PageSetup) -> Result<(PageSetup, Option<String>)> {
        let mut s = base.clone();
        if let Some(p) = self.paper {
            s.paper = p;
        }
        if let Some(o) = self.orientation {
            s.orientation = o;
        }
        if let Some(m) = self.margin {
            s.margin_mm = m;
        }
        if let Some(g) = self.gutter {
            s.gutter_mm = g;
        }
        s.bleed |= self.bleed;
        if self.title.is_some() {
            s.title = self.title.clone();
        }
        s.name_line |= self.name_line;
        if self.page_number.is_some() {
            s.page_number = self.page_number;
        }
        if let Some(w) = self.wall_mm {
            s.wall_mm = w;
        }
        if let Some(c) = self.corridor_mm {
            s.min_corridor_mm = c;
        }
        if let Some(f) = self.font {
            s.font = f;
        }
        if let Some(m) = self.markers {
            s.markers = m;
        }
        s.symbols |= self.symbols;
        s.stars |= self.stars;
        if self.theme.is_some() {
            s.theme = self.theme.clone();
        }
        if self.instruction.is_some() {
            s.instruction = self.instruction.clone();
        }
        if let Some(p) = &self.start_picture {
            s.start_picture = Some(p.clone());
        }
        if let Some(p) = &self.finish_picture {
            s.finish_picture = Some(p.clone());
        }
        s.pictures = hedge::load::page_pictures(&hedge::io::Files, &s)?;
        if self.lang.is_some() {
            s.lang = self.lang.clone();
        }
        if let Some(p) = &self.strings {
            s.strings = Some(p.clone());
        }
        let (words, warning) = hedge::load::page_words(&hedge::io::Files, &s)?;
        s.words = words;
        s.validate()?;
        if let Some(dpi) = self.dpi {
            export::check_dpi(dpi)?;
        }
        Ok((s, warning))
    }

    /// The output format for `format` (by the file's extension) with `--dpi` and `--svg`
    /// applied; `--svg` needs an .svg file.
    pub fn output_format(&self, format: Format) -> Result<Format> {
        match (self.apply_dpi(format), self.svg) {
            (f, None) => Ok(f),
            (Format::Svg, Some(kind)) => Ok(kind),
            (_, Some(_)) => anyhow::bail!("--svg goes with an .svg output file"),
        }
    }

    /// `format` with the `--dpi` flag applied (PNG only).
    pub fn apply_dpi(&self, format: Format) -> Format {
        match (format, self.dpi) {
            (Format::Png { .. }, Some(dpi)) => Format::Png { dpi },
            (f, _) => f,
        }
    }
}

/// Renders `made` and writes it to `path` and, when the key is a file of its own, the key
/// beside it (both or neither). Returns the files written. Warnings and the preflight go to
/// stderr; with `strict`, a preflight problem is an error and nothing is written. The pages are
/// laid out once, for the preflight and the files alike, and each file is made as it is written.
pub fn write_pages(
    made: &Made,
    setup: &PageSetup,
    format: Format,
    key: KeyPlacement,
    path: &Path,
    strict: bool,
) -> Result<Vec<PathBuf>> {
    write_printed(&made.print(setup, format, key)?, format, path, strict)
}

/// Writes pages laid out in `format` ([`export::Printed`]) as [`write_pages`] does: the
/// preflight first (with `strict`, a problem writes nothing), the files as one set, then the
/// warnings and the preflight's report on stderr.
pub fn write_printed(
    printed: &export::Printed,
    format: Format,
    path: &Path,
    strict: bool,
) -> Result<Vec<PathBuf>> {
    let report = hedge::preflight::check_printed(printed, format);
    if strict && let Some(r) = report.as_ref().filter(|r| !r.is_clean()) {
        // one line: the problems, not the whole block
        anyhow::bail!(
            "preflight failed (--strict): {}; nothing written",
            r.problems_line()
        );
    }
    let written = hedge::io::write_printed(printed, path)?;
    // warnings and the preflight once the files are written; a failed write is its one line
    for w in &printed.warnings {
        say!("warning: {w}");
    }
    if let Some(r) = report {
        super::say_block(&if r.is_clean() { r.status() } else { r.block() });
    }
    Ok(written)
}
