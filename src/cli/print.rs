//! `hedge generate -o maze.pdf|.svg|.png`: the page flags and writing printable pages.
//!
//! By default (`--key second-page`) a PDF holds the maze on page 1 and its answer key on page 2;
//! SVG and PNG, one page a file, write the key beside the puzzle as `NAME-key.EXT`.
//! `--key separate` writes the key as `NAME-key.EXT` in every format (a PDF then has the puzzle
//! only), `--key none` writes no key. The puzzle and its key are written as one set: both or
//! neither ([`hedge::io::write_rendered`]). Corridors narrower than the `--corridor-mm` minimum (3 mm by
//! default) are reported on stderr as a warning; the pages are written all the same.

use std::path::{Path, PathBuf};

use anyhow::Result;
use clap::Args;

use hedge::export::{self, Format, KeyPlacement};
use hedge::make::Made;
use hedge::page::{Orientation, PageSetup, Paper, Typeface};

/// Page flags (PDF, SVG and PNG output).
#[derive(Args, Debug, Default, Clone)]
pub struct PageArgs {
    /// Paper: a4, letter, 8.5x11, 8x10, 6x9, or a size like 150x200mm or 5x7in.
    #[arg(long, value_name = "PAPER", value_parser = super::parse_with::<Paper>)]
    pub paper: Option<Paper>,
    /// portrait or landscape.
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
    /// Narrowest corridor in mm accepted without a warning (default 3).
    #[arg(long, value_name = "MM", allow_negative_numbers = true)]
    pub corridor_mm: Option<f64>,
    /// The typeface of the page's text: sans (Helvetica), serif (Times) or mono (Courier).
    #[arg(long, value_name = "FONT", value_parser = super::parse_with::<Typeface>)]
    pub font: Option<Typeface>,
    /// PNG resolution in dots per inch (default 300).
    #[arg(long, value_name = "DPI")]
    pub dpi: Option<u32>,
    /// Where the answer key goes: second-page (default: page 2 of a PDF; beside an SVG or PNG
    /// as NAME-key.svg/.png), separate (NAME-key.EXT in every format, the PDF holding the
    /// puzzle only) or none.
    #[arg(long, value_name = "WHERE", value_parser = parse_key)]
    pub key: Option<KeyPlacement>,
}

fn parse_key(s: &str) -> Result<KeyPlacement, String> {
    match s {
        "second-page" => Ok(KeyPlacement::SecondPage),
        "separate" => Ok(KeyPlacement::Separate),
        "none" => Ok(KeyPlacement::None),
        _ => Err("use second-page, separate or none".into()),
    }
}

impl PageArgs {
    /// The page setup the flags describe on top of `base` (the design file's setup), checked.
    pub fn setup(&self, base: &PageSetup) -> Result<PageSetup> {
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
        s.validate()?;
        if let Some(dpi) = self.dpi {
            export::check_dpi(dpi)?;
        }
        Ok(s)
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
/// beside it (both or neither). Returns the files written. Warnings go to stderr.
pub fn write_pages(
    made: &Made,
    setup: &PageSetup,
    format: Format,
    key: KeyPlacement,
    path: &Path,
) -> Result<Vec<PathBuf>> {
    let rendered = export::render_placed(setup, format, key, |s, k| made.pages(s, k))?;
    for w in &rendered.warnings {
        say!("warning: {w}");
    }
    Ok(hedge::io::write_rendered(&rendered, path)?)
}
