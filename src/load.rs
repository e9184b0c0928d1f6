//! What the library reads, without reading it: the [`Loader`] trait the caller passes in (the
//! file system's is [`crate::io::Files`]; tests may use [`Memory`]), and the pure steps around
//! it: a shape's picture decoded from its bytes ([`load_shape`], [`decode_picture`]) and a design
//! parsed from its TOML text ([`read_design`], [`parse_design`]).
//!
//! Nothing here opens a file: every byte comes through a [`Loader`].

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Deserialize as _;

use crate::design::Design;
use crate::design::flat::FlatDesign;
use crate::error::{Error, ErrorKind, Result};
use crate::shape::{Format, Picture, ShapeSource, builtin};

/// The largest picture file read, in bytes.
pub const MAX_SHAPE_FILE_BYTES: u64 = 256 * 1024 * 1024;

/// Where the library gets the bytes of the files a design or a book names: shape pictures,
/// design files, book files. Paths are used as given: the library joins a relative path to the
/// folder of the file that named it before asking.
pub trait Loader: Sync {
    /// The bytes of the picture file at `path`, at most [`MAX_SHAPE_FILE_BYTES`] of them (a
    /// larger file is an error, not a long read). Errors end with the path.
    fn picture(&self, path: &Path) -> Result<Vec<u8>>;

    /// The text of the file at `path` (a design or book file). The error starts with `what`
    /// (e.g. "cannot read the design") and ends with the path.
    fn text(&self, path: &Path, what: &str) -> Result<String>;
}

/// A loader over files held in memory, by path (tests, and callers that already have the bytes).
/// Paths are looked up as they are.
#[derive(Clone, Debug, Default)]
pub struct Memory {
    files: BTreeMap<PathBuf, Vec<u8>>,
}

impl Memory {
    /// An empty loader: every file is missing.
    pub fn new() -> Self {
        Self::default()
    }

    /// The loader with `bytes` as the file at `path` (replacing any earlier one).
    pub fn with(mut self, path: impl Into<PathBuf>, bytes: impl Into<Vec<u8>>) -> Self {
        self.files.insert(path.into(), bytes.into());
        self
    }

    fn get(&self, path: &Path, what: &str) -> Result<&[u8]> {
        self.files.get(path).map(Vec::as_slice).ok_or_else(|| {
            Error::new(
                ErrorKind::Io,
                format!("{what}: No such file or directory: {}", path.display()),
            )
        })
    }
}

impl Loader for Memory {
    fn picture(&self, path: &Path) -> Result<Vec<u8>> {
        let bytes = self.get(path, "cannot read the shape")?;
        if bytes.len() as u64 > MAX_SHAPE_FILE_BYTES {
            return Err(picture_too_big(path));
        }
        Ok(bytes.to_vec())
    }

    fn text(&self, path: &Path, what: &str) -> Result<String> {
        let bytes = self.get(path, what)?;
        String::from_utf8(bytes.to_vec()).map_err(|_| {
            Error::new(
                ErrorKind::Io,
                format!(
                    "{what}: stream did not contain valid UTF-8: {}",
                    path.display()
                ),
            )
        })
    }
}

/// The error for a picture file over [`MAX_SHAPE_FILE_BYTES`].
pub fn picture_too_big(path: &Path) -> Error {
    Error::new(
        ErrorKind::BadInput,
        format!(
            "the picture file is larger than {} MB: {}",
            MAX_SHAPE_FILE_BYTES >> 20,
            path.display()
        ),
    )
}

/// A shape's picture, read and decoded.
#[derive(Clone, Debug)]
pub struct LoadedShape {
    /// The decoded (and bounded) picture.
    pub picture: Picture,
    /// The format found in the content.
    pub format: Format,
    /// A remark for the user, e.g. when the content is not the format the file name says.
    pub note: Option<String>,
}

/// Decodes the picture of `source`: a built-in shape, or a file read through `loader`. A relative
/// file path is taken relative to `base` when given (the folder of the design file that named it).
pub fn load_shape(
    loader: &dyn Loader,
    source: &ShapeSource,
    base: Option<&Path>,
) -> Result<LoadedShape> {
    match source {
        ShapeSource::Builtin(name) => {
            let bytes = builtin::get(name).ok_or_else(|| {
                Error::option(format!(
                    "unknown built-in shape (use {}): {name}",
                    builtin::list()
                ))
            })?;
            Ok(LoadedShape {
                picture: Picture::decode_as(bytes, Format::Svg)?,
                format: Format::Svg,
                note: None,
            })
        }
        ShapeSource::Text { text, font } => {
            let svg = crate::shape::text::svg(text, *font)?;
            Ok(LoadedShape {
                picture: Picture::decode_as(svg.as_bytes(), Format::Svg)?.drawing_text(),
                format: Format::Svg,
                note: None,
            })
        }
        ShapeSource::File(path) => {
            let path = match base {
                Some(base) if path.is_relative() => base.join(path),
                _ => path.clone(),
            };
            decode_picture(&loader.picture(&path)?, &path)
        }
    }
}

/// Decodes the bytes of the picture file `path` by their content (not the file's name); the
/// note says so when the name's extension names another format. Errors end with the path.
pub fn decode_picture(bytes: &[u8], path: &Path) -> Result<LoadedShape> {
    let at = |e: Error| Error::new(e.kind, format!("{}: {}", e.message, path.display()));
    let format = Format::detect(bytes).map_err(at)?;
    let named = path
        .extension()
        .and_then(|e| e.to_str())
        .and_then(Format::from_extension);
    let note = match named {
        Some(named) if named != format => {
            let name = path.file_name().map_or_else(
                || path.display().to_string(),
                |n| n.to_string_lossy().into(),
            );
            Some(format!(
                "{name} is a{} {format} image, decoding it as such",
                if format == Format::Svg { "n" } else { "" }
            ))
        }
        _ => None,
    };
    let picture = Picture::decode_as(bytes, format).map_err(at)?;
    Ok(LoadedShape {
        picture,
        format,
        note,
    })
}

/// Reads the design file at `path` through `loader`: TOML, or a maze's JSON ([`parse_design`]).
pub fn read_design(loader: &dyn Loader, path: &Path) -> Result<Design> {
    read_design_file(loader, path).map(|r| r.design)
}

/// A design file as read ([`read_design_file`], [`parse_design_file`]): the design, and
/// whether the file gives the grid's height. A file that gives the width alone has as many
/// rows as columns, as the command line's `--width` alone gives; with a shape, the command
/// line fits the rows to the shape instead, as it does for `--width` and `--shape`.
#[derive(Clone, Debug, PartialEq)]
pub struct ReadDesign {
    /// The design.
    pub design: Design,
    /// Whether the file gives the height (`height = ...`).
    pub height_given: bool,
}

/// [`read_design`], with whether the file gives the height.
pub fn read_design_file(loader: &dyn Loader, path: &Path) -> Result<ReadDesign> {
    let text = loader.text(path, "cannot read the design")?;
    parse_design_file(&text).map_err(|e| Error::input(format!("{}: {}", e.message, path.display())))
}

/// The start and finish pictures of a page: its own (`start_picture`, `finish_picture`, read
/// through `loader`; paths as given, see [`crate::page::PageSetup::resolve_pictures`]), its
/// theme's for one not given. `None` when it names neither picture (a theme alone is drawn from
/// its name). One picture without the other and no theme is an error saying so.
pub fn page_pictures(
    loader: &dyn Loader,
    setup: &crate::page::PageSetup,
) -> Result<Option<std::sync::Arc<[crate::picture::Picture; 2]>>> {
    use crate::picture::Picture;
    if setup.start_picture.is_none() && setup.finish_picture.is_none() {
        return Ok(None);
    }
    let theme = setup.theme.as_deref().map(crate::theme::get).transpose()?;
    let read = |end: &str, file: &Option<PathBuf>, own: Option<&str>| -> Result<Picture> {
        match (file, own) {
            (Some(path), _) => {
                let bytes = loader.picture(path).map_err(|e| {
                    let what = format!("cannot read the {end} picture");
                    Error::new(
                        e.kind,
                        e.message.replacen("cannot read the shape", &what, 1),
                    )
                })?;
                Picture::from_svg(&bytes).map_err(|e| {
                    Error::input(format!(
                        "the {end} picture {}: {} (it must be an SVG file)",
                        path.display(),
                        e.message
                    ))
                })
            }
            (None, Some(name)) => Picture::from_svg(
                crate::theme::picture(name).expect("a theme names its pictures (tested)"),
            ),
            (None, None) => Err(Error::option(format!(
                "the {end} picture is missing: give both a start and a finish picture, or a \
                 theme for the other one"
            ))),
        }
    };
    Ok(Some(std::sync::Arc::new([
        read(
            "start",
            &setup.start_picture,
            theme.map(|t| t.start.as_str()),
        )?,
        read(
            "finish",
            &setup.finish_picture,
            theme.map(|t| t.finish.as_str()),
        )?,
    ])))
}

/// The pictures of a design's items to collect ([`crate::items::names`]), one for each name
/// in order: a built-in picture by its name, or a file read through `loader` (a relative path
/// from `base`): an SVG as paths, a PNG or JPEG (GIF, BMP, WebP) as its pixels. `None` when the
/// design collects nothing or names no file (the drawing reads the built-in pictures by name).
/// A file that cannot be read, or is no picture, is an error in one line naming it.
pub fn item_pictures(
    loader: &dyn Loader,
    design: &Design,
    base: Option<&Path>,
) -> Result<Option<std::sync::Arc<[crate::picture::Art]>>> {
    use crate::picture::{Art, Picture, Raster};
    let w = design.walls();
    if w.collect == 0 || !w.items.iter().any(|n| crate::items::is_file(n)) {
        return Ok(None);
    }
    let read = |name: &str| -> Result<Art> {
        if !crate::items::is_file(name) {
            let bytes = crate::theme::picture(name)
                .ok_or_else(|| Error::option(format!("unknown item '{name}'")))?;
            return Picture::from_svg(bytes).map(Art::Vector);
        }
        let path = match base {
            Some(b) if Path::new(name).is_relative() => b.join(name),
            _ => PathBuf::from(name),
        };
        let bytes = loader.picture(&path).map_err(|e| {
            Error::new(
                e.kind,
                e.message
                    .replacen("cannot read the shape", "cannot read the item picture", 1),
            )
        })?;
        match crate::shape::Format::detect(&bytes) {
            Ok(crate::shape::Format::Svg) => Picture::from_svg(&bytes).map(Art::Vector),
            Ok(_) => Raster::decode(&bytes).map(|r| Art::Raster(std::sync::Arc::new(r))),
            Err(e) => Err(e),
        }
        .map_err(|e| {
            Error::input(format!(
                "the item picture {}: {} (it must be an SVG, PNG or JPEG file)",
                path.display(),
                e.message
            ))
        })
    };
    let pictures = crate::items::names(&w.items)
        .into_iter()
        .map(read)
        .collect::<Result<Vec<_>>>()?;
    Ok(Some(pictures.into()))
}

/// Gives `design` its item pictures of its own ([`crate::design::Walls::item_art`], read by
/// [`item_pictures`]) unless it has them already.
pub fn read_item_art(loader: &dyn Loader, design: &mut Design, base: Option<&Path>) -> Result<()> {
    if design.walls().item_art.is_none() {
        let art = item_pictures(loader, design, base)?;
        if let Some(w) = design.walls_mut() {
            w.item_art = art;
        }
    }
    Ok(())
}

/// Gives `design` the bytes of the picture file it reveals
/// ([`crate::design::Walls::reveal_file`], read through `loader`; its path as given) unless it
/// has them already or reveals no file. A file that cannot be read is an error in one line
/// naming it.
pub fn read_reveal_file(loader: &dyn Loader, design: &mut Design) -> Result<()> {
    let Some(w) = design.walls_mut() else {
        return Ok(());
    };
    if let (Some(ShapeSource::File(path)), None) = (&w.reveal, &w.reveal_file) {
        let bytes = loader.picture(path).map_err(|e| {
            Error::new(
                e.kind,
                e.message.replacen(
                    "cannot read the shape",
                    "cannot read the picture to reveal",
                    1,
                ),
            )
        })?;
        w.reveal_file = Some(bytes.into());
    }
    Ok(())
}

/// The words of a page: its language's, with its strings file (`strings`, read through
/// `loader`; its path as given) on top, and the one warning a strings file that leaves some
/// words out gives. `None` when the page names no strings file (it prints the built-in words of
/// its language). An unknown language or a bad strings file is an error of one line.
pub fn page_words(
    loader: &dyn Loader,
    setup: &crate::page::PageSetup,
) -> Result<(Option<std::sync::Arc<crate::lang::Words>>, Option<String>)> {
    let lang = match &setup.lang {
        Some(l) => crate::lang::check(l)?,
        None => crate::lang::DEFAULT,
    };
    let Some(path) = &setup.strings else {
        return Ok((None, None));
    };
    let text = loader.text(path, "cannot read the strings file")?;
    let (words, warning) =
        crate::lang::Words::builtin(lang).overridden(&text, &path.display().to_string())?;
    Ok((Some(std::sync::Arc::new(words)), warning))
}

/// Parses a design from TOML text, or from a maze's JSON (the design it records: the same maze
/// again); the error is the parser's whole message on one line (control
/// characters escaped), with the line and column. Hand edits (`cell_edits`) must lie on the
/// design's grid. A byte order mark before the text is read past (editors on Windows write
/// one), so a JSON file with one is still read as JSON.
pub fn parse_design(text: &str) -> Result<Design> {
    parse_design_file(text).map(|r| r.design)
}

/// [`parse_design`], with whether the text gives the height ([`ReadDesign`]).
pub fn parse_design_file(text: &str) -> Result<ReadDesign> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let flat = if text.trim_start().starts_with('{') {
        design_of_json(text)?
    } else {
        parse_toml(text)?
    };
    let height_given = flat.height.is_some();
    let design = Design::try_from(flat).map_err(|e| {
        Error::input(format!(
            "bad design file: {}",
            crate::error::one_line(e.message.trim())
        ))
    })?;
    design
        .check_cell_edits()
        .map_err(|e| Error::input(format!("bad design file: {}", e.message)))?;
    Ok(ReadDesign {
        design,
        height_given,
    })
}

/// The design a maze's JSON holds (`hedge generate -o maze.json` writes it under `design`,
/// with the seed, size and carver it was made with), or a design written as JSON: a JSON
/// object either way (an array would be read as the knobs in order, `[]` as every default).
fn design_of_json(text: &str) -> Result<FlatDesign> {
    let bad = |e: &dyn std::fmt::Display| {
        Error::input(format!(
            "bad design file: not a maze's JSON (hedge generate -o maze.json) nor a design: {e}"
        ))
    };
    let mut v: serde_json::Value = serde_json::from_str(text).map_err(|e| bad(&e))?;
    let v = match v.get_mut("design") {
        Some(d) => d.take(),
        None => v,
    };
    if !v.is_object() {
        let kind = match v {
            serde_json::Value::Null => "null",
            serde_json::Value::Bool(_) => "a boolean",
            serde_json::Value::Number(_) => "a number",
            serde_json::Value::String(_) => "a string",
            serde_json::Value::Array(_) => "an array",
            serde_json::Value::Object(_) => "an object",
        };
        return Err(bad(&format_args!(
            "the design is {kind}, not an object of knobs"
        )));
    }
    serde_json::from_value(v).map_err(|e| bad(&e))
}

/// The shape options a design file may write inside its `[shape]` table as well as beside it.
pub const SHAPE_OPTIONS: [&str; 5] = ["coverage", "threshold", "invert", "islands", "turn"];

/// Moves the [`SHAPE_OPTIONS`] written inside the `[shape]` table of `text` beside it (where the
/// design keeps them); `None` when there is nothing to move (or the text is not TOML: the
/// parser then says why). An error when an option is in both places.
fn hoist_shape_options(text: &str) -> Result<Option<toml::Table>> {
    let Ok(mut table) = text.parse::<toml::Table>() else {
        return Ok(None);
    };
    let Some(toml::Value::Table(shape)) = table.get_mut("shape") else {
        return Ok(None);
    };
    let mut moved = Vec::new();
    for key in SHAPE_OPTIONS {
        if let Some(v) = shape.remove(key) {
            moved.push((key, v));
        }
    }
    if moved.is_empty() {
        return Ok(None);
    }
    for (key, v) in moved {
        if table.contains_key(key) {
            return Err(Error::input(format!(
                "bad design file: {key} is given both inside [shape] and beside it; give it once"
            )));
        }
        table.insert(key.into(), v);
    }
    Ok(Some(table))
}

fn parse_toml(text: &str) -> Result<FlatDesign> {
    if let Some(table) = hoist_shape_options(text)? {
        return FlatDesign::deserialize(table).map_err(|e| {
            Error::input(format!(
                "bad design file: {}",
                crate::error::one_line(e.message().trim())
            ))
        });
    }
    toml::from_str::<FlatDesign>(text).map_err(|e| {
        let at = e.span().map(|s| {
            let before = &text[..s.start.min(text.len())];
            let line = before.matches('\n').count() + 1;
            let col = before.len() - before.rfind('\n').map_or(0, |i| i + 1) + 1;
            format!(" (line {line}, column {col})")
        });
        // the whole message, on one line: a value quoted in it may hold a newline
        let msg = crate::error::one_line(e.message().trim());
        Error::input(format!("bad design file: {msg}{}", at.unwrap_or_default()))
    })
}

/// The design as TOML text (hand edits outside the grid left out, see
/// [`Design::without_edits_outside`]).
pub fn design_to_toml(design: &Design) -> String {
    toml::to_string(&*design.without_edits_outside()).expect("a design always serialises")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn memory_loader_reads_designs_and_pictures() {
        let d = Design {
            seed: Some(5),
            width: 7,
            ..Design::default()
        };
        let heart = builtin::get("heart").unwrap();
        let m = Memory::new()
            .with("d.toml", design_to_toml(&d))
            .with("heart.png", heart);
        assert_eq!(read_design(&m, Path::new("d.toml")).unwrap(), d);
        let e = read_design(&m, Path::new("nope.toml")).unwrap_err();
        assert_eq!(
            e.message,
            "cannot read the design: No such file or directory: nope.toml"
        );
        // an SVG named .png: decoded as SVG, with a note
        let s = load_shape(&m, &ShapeSource::File("heart.png".into()), None).unwrap();
        assert_eq!(s.format, Format::Svg);
        assert!(s.note.unwrap().contains("is an SVG image"));
        let b = load_shape(&m, &ShapeSource::Builtin("heart".into()), None).unwrap();
        assert_eq!(b.picture, s.picture);
    }

    #[test]
    fn page_pictures_are_the_pages_own_then_its_themes() {
        use crate::page::PageSetup;
        let blue = r##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 4 2"><rect width="4" height="2" fill="#3060d0"/></svg>"##;
        let m = Memory::new()
            .with("d/blue.svg", blue)
            .with("d/x.svg", "not svg");
        let mut page = PageSetup::default();
        assert!(page_pictures(&m, &page).unwrap().is_none(), "nothing named");
        page.theme = Some("bee".into());
        assert!(
            page_pictures(&m, &page).unwrap().is_none(),
            "a theme alone: by name"
        );
        // relative to the file that names them
        page.start_picture = Some("blue.svg".into());
        page.resolve_pictures(Path::new("d"));
        assert_eq!(page.start_picture.as_deref(), Some(Path::new("d/blue.svg")));
        let both = page_pictures(&m, &page).unwrap().unwrap();
        let own = crate::picture::Picture::from_svg(blue.as_bytes()).unwrap();
        let bee = crate::theme::get("bee").unwrap();
        let flower = crate::picture::Picture::from_svg(crate::theme::picture(&bee.finish).unwrap());
        assert_eq!(both[0], own);
        assert_eq!(both[1], flower.unwrap());
        // without the theme the finish is missing; a bad file is named
        page.theme = None;
        let e = page_pictures(&m, &page).unwrap_err();
        assert!(
            e.message.contains("the finish picture is missing"),
            "{}",
            e.message
        );
        page.finish_picture = Some("d/x.svg".into());
        let e = page_pictures(&m, &page).unwrap_err();
        assert!(
            e.message.contains("the finish picture d/x.svg"),
            "{}",
            e.message
        );
        page.finish_picture = Some("d/gone.svg".into());
        let e = page_pictures(&m, &page).unwrap_err();
        assert!(
            e.message.contains("cannot read the finish picture"),
            "{}",
            e.message
        );
    }
}
