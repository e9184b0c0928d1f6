//! Export: a [`Drawing`] rendered to file bytes. SVG, PDF and PNG all draw the same display list
//! (see [`crate::draw`]); nothing here recomputes maze geometry, and nothing here touches the
//! file system: every exporter returns bytes and the caller writes them.
//!
//! [`render_with`] lays out the puzzle and answer-key pages and renders both in the chosen
//! [`Format`]; [`crate::make::Made::render`] calls it for either style, and [`render`] (a
//! [`Generated`] maze) and [`render_tiles`] (a hex tile maze) are its two shorthands.

pub mod pdf;
pub mod png;
pub mod raster;
pub mod svg;

use crate::draw::{self, Drawing};
use crate::error::{Error, Result};
use crate::page::PageSetup;
use crate::pipeline::Generated;
use crate::tiles::puzzle::TileMaze;

/// The default PNG resolution.
pub const DEFAULT_DPI: u32 = 300;

/// An output format for printable pages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Scalable vector graphics, sized in millimetres.
    Svg,
    /// A two-page PDF: the maze, then its answer key.
    Pdf,
    /// A raster image at `dpi` dots per inch.
    Png {
        /// Resolution in dots per inch.
        dpi: u32,
    },
}

impl Format {
    /// The format for a file extension (`svg`, `pdf`, `png`; any case, with or without the
    /// dot); PNGs get [`DEFAULT_DPI`]. `None` for anything else.
    pub fn from_extension(ext: &str) -> Option<Format> {
        let e = ext.trim_start_matches('.').to_ascii_lowercase();
        match e.as_str() {
            "svg" => Some(Format::Svg),
            "pdf" => Some(Format::Pdf),
            "png" => Some(Format::Png { dpi: DEFAULT_DPI }),
            _ => None,
        }
    }

    /// The file extension, without the dot.
    pub fn extension(self) -> &'static str {
        match self {
            Format::Svg => "svg",
            Format::Pdf => "pdf",
            Format::Png { .. } => "png",
        }
    }

    /// Whether the answer key goes in a separate file (SVG and PNG) rather than on page 2 (PDF).
    pub fn key_is_separate(self) -> bool {
        !matches!(self, Format::Pdf)
    }
}

/// The bytes of a rendered maze.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rendered {
    /// The puzzle (for PDF: the whole document, the key being page 2).
    pub puzzle: Vec<u8>,
    /// The answer key as a file of its own (SVG and PNG, and PDF with
    /// [`KeyPlacement::Separate`]); `None` when it is page 2 of the PDF or left out.
    pub key: Option<Vec<u8>>,
    /// Warnings for the person printing (narrow corridors, thinned walls).
    pub warnings: Vec<String>,
}

/// Lays out and renders the puzzle and its answer key.
pub fn render(g: &Generated, setup: &PageSetup, format: Format) -> Result<Rendered> {
    render_with(setup, format, |s, k| draw::pages(g, s, k))
}

/// Lays out and renders a tile maze's puzzle and answer key, as [`render`] does a cell maze's.
pub fn render_tiles(m: &TileMaze, setup: &PageSetup, format: Format) -> Result<Rendered> {
    render_with(setup, format, |s, k| draw::tile_pages(m, s, k))
}

/// Where a single maze's answer key goes ([`render_placed`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum KeyPlacement {
    /// The owner's default: a PDF's second page; SVG and PNG (one page a file) write the key
    /// as a file of its own.
    #[default]
    SecondPage,
    /// The key as a file of its own in every format (a PDF then has the puzzle only, and the
    /// key is a one-page PDF).
    Separate,
    /// No answer key.
    None,
}

/// Renders the pages `lay_out(setup, key_setup)` lays out in `format`: the one body behind
/// [`render`], [`render_tiles`] and [`crate::make::Made::render`]. The key's setup is the next
/// page's for a PDF (page 2: when numbered, its gutter is on the other edge), `setup` otherwise.
pub fn render_with(
    setup: &PageSetup,
    format: Format,
    lay_out: impl FnOnce(&PageSetup, &PageSetup) -> Result<draw::Pages>,
) -> Result<Rendered> {
    render_placed(setup, format, KeyPlacement::SecondPage, lay_out)
}

/// [`render_with`], with the answer key where `key` says.
pub fn render_placed(
    setup: &PageSetup,
    format: Format,
    key: KeyPlacement,
    lay_out: impl FnOnce(&PageSetup, &PageSetup) -> Result<draw::Pages>,
) -> Result<Rendered> {
    if let Format::Png { dpi } = format {
        check_dpi(dpi)?;
    }
    let key_setup = match format {
        Format::Pdf => setup.next_page(),
        _ => setup.clone(),
    };
    let pages = lay_out(setup, &key_setup)?;
    finish(&pages, setup, format, key)
}

/// Renders laid-out pages in `format`, the key where `placement` says.
fn finish(
    pages: &draw::Pages,
    setup: &PageSetup,
    format: Format,
    placement: KeyPlacement,
) -> Result<Rendered> {
    let warnings = pages.layout.warnings();
    let (puzzle, key) = (&pages.puzzle, &pages.key);
    let title = setup.title.as_deref().unwrap_or("Maze");
    let one = |d: &Drawing| -> Result<Vec<u8>> {
        Ok(match format {
            Format::Svg => svg::svg(d),
            Format::Png { dpi } => png::png(d, dpi)?,
            Format::Pdf => pdf::pdf(&[d], title),
        })
    };
    let rendered = match (format, placement) {
        (Format::Pdf, KeyPlacement::SecondPage) => Rendered {
            puzzle: pdf::pdf(&[puzzle, key], title),
            key: None,
            warnings,
        },
        (_, KeyPlacement::None) => Rendered {
            puzzle: one(puzzle)?,
            key: None,
            warnings,
        },
        _ => Rendered {
            puzzle: one(puzzle)?,
            key: Some(one(key)?),
            warnings,
        },
    };
    Ok(rendered)
}

/// The answer key's file name for a puzzle file name: `maze.svg` -> `maze-key.svg`.
pub fn key_file_name(puzzle: &str) -> String {
    match puzzle.rfind('.') {
        Some(dot) if dot > 0 && !puzzle[dot..].contains('/') => {
            format!("{}-key{}", &puzzle[..dot], &puzzle[dot..])
        }
        _ => format!("{puzzle}-key"),
    }
}

/// Checks a PNG resolution: between 30 and 1200 dpi.
pub fn check_dpi(dpi: u32) -> Result<()> {
    if (30..=1200).contains(&dpi) {
        Ok(())
    } else {
        Err(Error::option(format!(
            "the resolution must be between 30 and 1200 dpi, got {dpi}"
        )))
    }
}

/// Renders one drawing in `format` (for PDF: a one-page document).
pub fn render_drawing(d: &Drawing, format: Format) -> Result<Vec<u8>> {
    Ok(match format {
        Format::Svg => svg::svg(d),
        Format::Pdf => pdf::pdf(&[d], "Maze"),
        Format::Png { dpi } => png::png(d, dpi)?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extensions() {
        assert_eq!(Format::from_extension("PDF"), Some(Format::Pdf));
        assert_eq!(Format::from_extension(".svg"), Some(Format::Svg));
        assert_eq!(
            Format::from_extension("png"),
            Some(Format::Png { dpi: DEFAULT_DPI })
        );
        assert_eq!(Format::from_extension("json"), None);
        assert_eq!(key_file_name("out/maze.svg"), "out/maze-key.svg");
        assert_eq!(key_file_name("maze"), "maze-key");
        assert_eq!(key_file_name("a.b/maze"), "a.b/maze-key");
    }
}
