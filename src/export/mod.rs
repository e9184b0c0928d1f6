//! Export: a [`Drawing`] rendered to file bytes. SVG, PDF and PNG all draw the same display list
//! (see [`crate::draw`]); nothing here recomputes maze geometry, and nothing here touches the
//! file system: every exporter returns bytes and the caller writes them.
//!
//! [`render_with`] lays out the puzzle and answer-key pages and renders both in the chosen
//! [`Format`]; [`crate::make::Made::render`] calls it for either style, and [`render`] (a
//! [`Generated`] maze) and [`render_tiles`] (a hex tile maze) are its two shorthands.

pub mod centreline;
pub mod pdf;
pub mod pdf_fonts;
mod pdf_objects;
mod pdf_subsets;
pub mod plotter;
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
    /// An SVG for pen plotters and laser cutters: the walls as the fewest strokes, ordered for
    /// short pen travel, no fills or text ([`plotter`]); no answer key.
    Plotter,
    /// An SVG of the passages' centre lines, for engraving or CNC routing ([`centreline`]);
    /// cell mazes only, no answer key.
    Centreline,
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

    /// The SVG variant named `name`: `print` (the page as printed), `plotter` or `centreline`.
    pub fn svg_variant(name: &str) -> Option<Format> {
        match name {
            "print" => Some(Format::Svg),
            "plotter" => Some(Format::Plotter),
            "centreline" | "centerline" => Some(Format::Centreline),
            _ => None,
        }
    }

    /// The file extension, without the dot.
    pub fn extension(self) -> &'static str {
        match self {
            Format::Svg | Format::Plotter | Format::Centreline => "svg",
            Format::Pdf => "pdf",
            Format::Png { .. } => "png",
        }
    }

    /// Whether the answer key goes in a separate file (SVG and PNG) rather than on page 2 (PDF,
    /// and the plotter formats, which have none).
    pub fn key_is_separate(self) -> bool {
        matches!(self, Format::Svg | Format::Png { .. })
    }
}

/// A file a maze is written as: the one registry of output formats, which the command line
/// (`generate -o`, picked by extension, `--svg` for the SVG variants) and the editor (its
/// Export menu, every entry of [`OUTPUTS`]) both offer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Output {
    /// The maze graph as JSON (cells, passages, solution).
    Json,
    /// The ASCII drawing (cell mazes).
    Txt,
    /// A printable page.
    Print(Format),
}

/// Every output, in menu order: those an extension names come first of their extension
/// ([`Output::from_extension`] finds them).
pub const OUTPUTS: [Output; 7] = [
    Output::Print(Format::Pdf),
    Output::Print(Format::Svg),
    Output::Print(Format::Png { dpi: DEFAULT_DPI }),
    Output::Print(Format::Plotter),
    Output::Print(Format::Centreline),
    Output::Json,
    Output::Txt,
];

impl Output {
    /// A two-page PDF, the key on page 2.
    pub const PDF: Output = Output::Print(Format::Pdf);
    /// An SVG page, the key beside it.
    pub const SVG: Output = Output::Print(Format::Svg);
    /// A PNG page at [`DEFAULT_DPI`], the key beside it.
    pub const PNG: Output = Output::Print(Format::Png { dpi: DEFAULT_DPI });

    /// The output a file extension names (any case, with or without the dot): `json`, `txt`,
    /// `pdf`, `svg` (the printed page) or `png`; `None` for anything else.
    pub fn from_extension(ext: &str) -> Option<Output> {
        let e = ext.trim_start_matches('.').to_ascii_lowercase();
        OUTPUTS.into_iter().find(|o| o.extension() == e)
    }

    /// The file extension, without the dot.
    pub fn extension(self) -> &'static str {
        match self {
            Output::Json => "json",
            Output::Txt => "txt",
            Output::Print(f) => f.extension(),
        }
    }

    /// Its name in a menu or a message.
    pub fn label(self) -> &'static str {
        match self {
            Output::Json => "JSON",
            Output::Txt => "text",
            Output::Print(Format::Pdf) => "PDF",
            Output::Print(Format::Svg) => "SVG",
            Output::Print(Format::Png { .. }) => "PNG",
            Output::Print(Format::Plotter) => "plotter SVG",
            Output::Print(Format::Centreline) => "centre-line SVG",
        }
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
    /// Warnings for the person printing (narrow corridors, thinned walls, characters no
    /// bundled font has).
    pub warnings: Vec<String>,
}

/// One file of a printed maze, made as it is written ([`Body::write_to`]): an SVG is written
/// element by element and a PNG rasterised only then, so a big page's file is never held whole
/// in memory, and the puzzle's bytes are gone before the key's are made. A PDF (and a plotter
/// or centre-line SVG) is made whole first: [`Body::Bytes`].
#[derive(Clone, Debug, PartialEq)]
pub enum Body {
    /// The file's bytes, made already.
    Bytes(Vec<u8>),
    /// A page written as an SVG ([`svg::write_svg`]).
    Svg(Drawing),
    /// A page drawn when its file is written, as an SVG (a book's page, drawn again from its
    /// maze: a book holds no page's drawing).
    SvgLater(Later<Draws>),
    /// A file written by a function when it is written (a book's PDF, each page drawn and
    /// compressed in its turn).
    Written(Later<Writes>),
    /// A page rasterised at `dpi` as a PNG ([`png::write_png`]), its size checked when the
    /// body was made ([`png::check`]).
    Png {
        /// The page.
        page: Drawing,
        /// Dots per inch.
        dpi: u32,
    },
}

impl Body {
    /// Writes the file to `out`.
    pub fn write_to(&self, out: &mut dyn std::io::Write) -> std::io::Result<()> {
        match self {
            Body::Bytes(b) => out.write_all(b),
            Body::Svg(d) => svg::write_svg(d, out),
            Body::SvgLater(d) => svg::write_svg(&(d.0)().map_err(std::io::Error::other)?, out),
            Body::Written(w) => (w.0)(out),
            Body::Png { page, dpi } => png::write_png(page, *dpi, out),
        }
    }

    /// The file's bytes.
    pub fn into_bytes(self) -> Result<Vec<u8>> {
        match self {
            Body::Bytes(b) => Ok(b),
            other => other.to_bytes().map(std::borrow::Cow::into_owned),
        }
    }

    /// The file's bytes, made in memory unless they are made already.
    pub fn to_bytes(&self) -> Result<std::borrow::Cow<'_, [u8]>> {
        use std::borrow::Cow;
        match self {
            Body::Bytes(b) => Ok(Cow::Borrowed(b)),
            Body::Svg(d) => Ok(Cow::Owned(svg::svg(d))),
            Body::SvgLater(d) => Ok(Cow::Owned(svg::svg(&(d.0)()?))),
            Body::Written(w) => {
                let mut bytes = Vec::new();
                (w.0)(&mut bytes).map_err(|e| Error::input(e.to_string()))?;
                Ok(Cow::Owned(bytes))
            }
            Body::Png { page, dpi } => png::png(page, *dpi).map(Cow::Owned),
        }
    }

    /// The page's drawing, for a page (an SVG or PNG).
    pub fn drawing(&self) -> Option<Result<std::borrow::Cow<'_, Drawing>>> {
        use std::borrow::Cow;
        match self {
            Body::Svg(d) | Body::Png { page: d, .. } => Some(Ok(Cow::Borrowed(d))),
            Body::SvgLater(d) => Some((d.0)().map(Cow::Owned)),
            Body::Bytes(_) | Body::Written(_) => None,
        }
    }

    /// The bytes when they are made already ([`Body::Bytes`]: a PDF, whose fonts the
    /// preflight reads).
    pub fn bytes(&self) -> Option<&[u8]> {
        match self {
            Body::Bytes(b) => Some(b),
            _ => None,
        }
    }
}

/// Draws a page ([`Body::SvgLater`]).
pub type Draws = dyn Fn() -> Result<Drawing> + Send + Sync;

/// Writes a file ([`Body::Written`]).
pub type Writes = dyn Fn(&mut dyn std::io::Write) -> std::io::Result<()> + Send + Sync;

/// A file's contents made when it is written: equal only to itself (a clone of it).
pub struct Later<F: ?Sized>(pub std::sync::Arc<F>);

impl<F: ?Sized> Clone for Later<F> {
    fn clone(&self) -> Self {
        Later(self.0.clone())
    }
}

impl<F: ?Sized> std::fmt::Debug for Later<F> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Later(..)")
    }
}

impl<F: ?Sized> PartialEq for Later<F> {
    fn eq(&self, other: &Self) -> bool {
        std::sync::Arc::ptr_eq(&self.0, &other.0)
    }
}

/// A maze ready to print: its pages (laid out once, for the files and the preflight alike)
/// and its files, made as they are written ([`Body`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Printed {
    /// The pages the files draw (`None` for a centre-line drawing, which has none).
    pub pages: Option<draw::Pages>,
    /// The puzzle (for PDF: the whole document, the key being page 2).
    pub puzzle: Body,
    /// The answer key as a file of its own, as in [`Rendered::key`].
    pub key: Option<Body>,
    /// Warnings for the person printing, as in [`Rendered::warnings`].
    pub warnings: Vec<String>,
}

impl Printed {
    /// The files' bytes, in memory.
    pub fn rendered(self) -> Result<Rendered> {
        Ok(Rendered {
            puzzle: self.puzzle.into_bytes()?,
            key: self.key.map(Body::into_bytes).transpose()?,
            warnings: self.warnings,
        })
    }
}

/// Lays out and renders the puzzle and its answer key.
pub fn render(g: &Generated, setup: &PageSetup, format: Format) -> Result<Rendered> {
    print(g, setup, format, KeyPlacement::SecondPage)?.rendered()
}

/// Lays out the puzzle and its answer key, the key where `key` says, ready to write
/// ([`Printed`]); a centre-line drawing is made here whole.
pub fn print(
    g: &Generated,
    setup: &PageSetup,
    format: Format,
    key: KeyPlacement,
) -> Result<Printed> {
    if format == Format::Centreline {
        return Ok(Printed {
            pages: None,
            puzzle: Body::Bytes(centreline::centreline(g, setup)?.svg()),
            key: None,
            warnings: draw::layout(g, setup)?.warnings(),
        });
    }
    print_placed(setup, format, key, |s, k| draw::pages(g, s, k))
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
    print_placed(setup, format, key, lay_out)?.rendered()
}

/// Lays out the pages `lay_out(setup, key_setup)` gives for `format`, the key where `key`
/// says, ready to write ([`Printed`]): the one body behind [`render_placed`] and the printing
/// of the command line and the editor. A PNG over [`png::MAX_PIXELS`] is refused before the
/// maze is drawn (the page's size does not depend on the maze).
pub fn print_placed(
    setup: &PageSetup,
    format: Format,
    key: KeyPlacement,
    lay_out: impl FnOnce(&PageSetup, &PageSetup) -> Result<draw::Pages>,
) -> Result<Printed> {
    if let Format::Png { dpi } = format {
        let (w, h) = setup.page_mm();
        let px = |mm: f64| {
            (mm * f64::from(dpi) / 25.4)
                .round()
                .clamp(1.0, f64::from(u32::MAX)) as u32
        };
        png::check_pixels((px(w), px(h)), dpi)?;
    }
    let key_setup = match format {
        Format::Pdf => setup.next_page(),
        _ => setup.clone(),
    };
    let pages = lay_out(setup, &key_setup)?;
    finish(pages, setup, format, key)
}

/// The files of laid-out pages in `format`, the key where `placement` says.
fn finish(
    pages: draw::Pages,
    setup: &PageSetup,
    format: Format,
    placement: KeyPlacement,
) -> Result<Printed> {
    let (puzzle, key) = (&pages.puzzle, &pages.key);
    let mut warnings = pages.layout.warnings();
    warnings.extend(draw::glyph_warnings([puzzle, key]));
    let title = setup.title.as_deref().unwrap_or("Maze");
    let one = |d: &Drawing| -> Result<Body> {
        Ok(match format {
            Format::Svg => Body::Svg(d.clone()),
            Format::Png { dpi } => {
                png::check(d, dpi)?;
                Body::Png {
                    page: d.clone(),
                    dpi,
                }
            }
            Format::Pdf => Body::Bytes(pdf::pdf(&[d], title)),
            Format::Plotter => Body::Bytes(plotter::plotter_svg(d)),
            Format::Centreline => return Err(centreline_needs_cells()),
        })
    };
    let (puzzle, key) = match (format, placement) {
        (Format::Plotter, _) => (Body::Bytes(plotter::plotter_svg(puzzle)), None),
        (Format::Centreline, _) => return Err(centreline_needs_cells()),
        (Format::Pdf, KeyPlacement::SecondPage) => {
            (Body::Bytes(pdf::pdf(&[puzzle, key], title)), None)
        }
        (_, KeyPlacement::None) => (one(puzzle)?, None),
        _ => (one(puzzle)?, Some(one(key)?)),
    };
    Ok(Printed {
        pages: Some(pages),
        puzzle,
        key,
        warnings,
    })
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
        Format::Plotter => plotter::plotter_svg(d),
        Format::Centreline => return Err(centreline_needs_cells()),
    })
}

/// The error for a centre-line drawing of something that is not a maze of cells.
fn centreline_needs_cells() -> Error {
    Error::option(
        "the centre-line drawing is made from a maze of cells and walls; use --svg plotter for \
         a tile maze",
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 60 x 40 mm page with one raster picture (`rgba` of 4 x 2 pixels: its left half red,
    /// its right half a translucent blue) stretched over 40 x 20 mm at (10, 10).
    fn image_page() -> (Drawing, std::sync::Arc<crate::picture::Raster>) {
        use crate::draw::{Area, Item, Layer, Shape};
        let px = [
            [255, 0, 0, 255],
            [255, 0, 0, 255],
            [0, 0, 255, 128],
            [0, 0, 255, 128],
        ];
        let rgba: Vec<u8> = (0..2).flat_map(|_| px.concat()).collect();
        let image = std::sync::Arc::new(crate::picture::Raster::new(4, 2, rgba).unwrap());
        let area = Area {
            x: 10.0,
            y: 10.0,
            w: 40.0,
            h: 20.0,
        };
        let d = Drawing {
            width: 60.0,
            height: 40.0,
            trim: Area {
                x: 0.0,
                y: 0.0,
                w: 60.0,
                h: 40.0,
            },
            items: vec![Item {
                layer: Layer::Picture,
                shape: Shape::Image {
                    area,
                    image: image.clone(),
                },
            }],
        };
        (d, image)
    }

    /// A raster picture prints in every back end where the drawing puts it: the PNG's pixels,
    /// the SVG's `<image>` (its PNG the picture's), the PDF's image XObject with its soft mask,
    /// placed by its `cm`; the same page gives the same bytes.
    #[test]
    fn a_raster_picture_prints_in_every_back_end() {
        use base64::Engine as _;
        let (d, image) = image_page();
        // PNG at 1 px/mm: red on the left, blue over white (half transparent) on the right,
        // white outside the box
        let pixmap = raster::rasterise(d.printed(), &raster::Region::page(&d, 1.0)).unwrap();
        let at = |x: u32, y: u32| {
            let p = pixmap.pixel(x, y).unwrap().demultiply();
            [p.red(), p.green(), p.blue()]
        };
        assert_eq!(at(15, 20), [255, 0, 0]);
        let blue = at(45, 20);
        assert!(blue[2] == 255 && (120..=135).contains(&blue[0]), "{blue:?}");
        assert_eq!(at(5, 5), [255, 255, 255]);
        assert_eq!(at(55, 35), [255, 255, 255]);
        // SVG: an <image> over the box, its data the picture's own PNG
        let text = String::from_utf8(svg::svg(&d)).unwrap();
        let element = text.split("<image ").nth(1).unwrap();
        for attribute in ["x=\"10\"", "y=\"10\"", "width=\"40\"", "height=\"20\""] {
            assert!(element.contains(attribute), "{attribute} in {text}");
        }
        let data = text
            .split("data:image/png;base64,")
            .nth(1)
            .and_then(|t| t.split('"').next())
            .unwrap();
        let png = base64::engine::general_purpose::STANDARD
            .decode(data)
            .unwrap();
        assert_eq!(png, image.png());
        let back = crate::shape::decode::decode_art(&png).unwrap();
        assert_eq!(back, (4, 2, image.rgba.clone()));
        // PDF: one RGB image with a grey soft mask, drawn by `cm` over the box (points, y up)
        let bytes = pdf::pdf(&[&d], "Image");
        assert_eq!(bytes, pdf::pdf(&[&d], "Image"));
        let doc = lopdf::Document::load_mem(&bytes).unwrap();
        let images: Vec<&lopdf::Dictionary> = doc
            .objects
            .values()
            .filter_map(|o| o.as_stream().ok())
            .map(|s| &s.dict)
            .filter(|d| d.get(b"Subtype").and_then(|s| s.as_name()).ok() == Some(b"Image"))
            .collect();
        assert_eq!(images.len(), 2, "the picture and its mask");
        let rgb = images
            .iter()
            .find(|d| d.get(b"SMask").is_ok())
            .expect("a soft mask");
        assert_eq!(rgb.get(b"Width").unwrap().as_i64().unwrap(), 4);
        assert_eq!(
            rgb.get(b"ColorSpace").unwrap().as_name().unwrap(),
            b"DeviceRGB"
        );
        let page = *doc.get_pages().values().next().unwrap();
        let content = String::from_utf8_lossy(&doc.get_page_content(page)).to_string();
        let pt = |mm: f64| format!("{}", (mm * 72.0 / 25.4 * 100.0).round() / 100.0);
        let cm = format!("{} 0 0 {} {} {} cm", pt(40.0), pt(20.0), pt(10.0), pt(10.0));
        assert!(content.contains(&cm), "{cm} in {content}");
        assert!(content.contains(&format!("/Im{} Do", &image.digest[..16])));
    }

    /// The registry names every output once: an extension picks the first output of it (the
    /// printed SVG, not a plotter's), labels are all different, and every print format is in it.
    #[test]
    fn the_output_registry_names_each_output_once() {
        assert_eq!(Output::from_extension(".JSON"), Some(Output::Json));
        assert_eq!(Output::from_extension("txt"), Some(Output::Txt));
        assert_eq!(Output::from_extension("svg"), Some(Output::SVG));
        assert_eq!(Output::from_extension("png"), Some(Output::PNG));
        assert_eq!(Output::from_extension("toml"), None);
        for o in OUTPUTS {
            let first = Output::from_extension(o.extension()).unwrap();
            assert_eq!(first.extension(), o.extension());
            if let Output::Print(f) = o {
                assert_eq!(f.extension(), o.extension());
            }
        }
        let labels: std::collections::BTreeSet<_> = OUTPUTS.iter().map(|o| o.label()).collect();
        assert_eq!(labels.len(), OUTPUTS.len());
        for f in [
            Format::Pdf,
            Format::Svg,
            Format::Plotter,
            Format::Centreline,
        ] {
            assert!(OUTPUTS.contains(&Output::Print(f)), "{f:?}");
        }
    }

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

    #[test]
    fn a_png_past_the_pixel_budget_is_refused_before_the_maze_is_drawn() {
        use crate::page::Paper;
        let setup = PageSetup {
            paper: Paper::Custom {
                width_mm: 400.0,
                height_mm: 400.0,
            },
            ..PageSetup::default()
        };
        // 400 mm at 1200 dpi is 18898 pixels a side: 357 megapixels
        let refused = print_placed(
            &setup,
            Format::Png { dpi: 1200 },
            KeyPlacement::None,
            |_, _| panic!("the pages are laid out"),
        )
        .unwrap_err();
        assert_eq!(
            refused.message,
            "a 18898 x 18898 pixel PNG (357 megapixels) is over the 150 megapixel limit; use 777 \
             dpi or less, or a PDF or SVG"
        );
        // what it suggests fits
        let (w, h) = (
            (400.0 * 777.0 / 25.4_f64).round() as u32,
            (400.0 * 777.0 / 25.4_f64).round() as u32,
        );
        assert!(png::check_pixels((w, h), 777).is_ok());
    }
}
