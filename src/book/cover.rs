//! A book's full-wrap cover (`cover.pdf`): front, spine and back for its interior's page
//! count and paper, with some of its mazes on the front and the back ([`cover_picks`]).

use std::path::Path;
use std::sync::Arc;

use super::{Book, CoverSettings, shape_key};
use crate::draw::{self, Drawing, Palette, Rgb};
use crate::error::{Error, Result};
use crate::load::Loader;
use crate::picture::{Art, Picture, Raster};
use crate::shape::Format;

/// The cover's file name (`[book] cover = { ... }`).
pub const COVER_PDF: &str = "cover.pdf";

/// How many of a book's puzzles go on its cover (front and back), and which: one of each
/// look first (shape and topology), in book order, then others spread evenly through the book.
fn cover_picks(book: &Book, n: usize) -> Vec<usize> {
    let mut seen: Vec<String> = Vec::new();
    let mut picks: Vec<usize> = Vec::new();
    for (i, p) in book.puzzles.iter().enumerate() {
        let look = format!("{} {:?}", shape_key(&p.design), p.design.walls().topology);
        if !seen.contains(&look) {
            seen.push(look);
            picks.push(i);
        }
    }
    picks.truncate(n);
    let total = book.puzzles.len();
    let mut k = 0;
    while picks.len() < n.min(total) {
        // the middle of the k-th of n stretches, stepping on past puzzles already taken
        let mut i = (2 * k + 1) * total / (2 * n) % total;
        while picks.contains(&i) {
            i = (i + 1) % total;
        }
        picks.push(i);
        k += 1;
    }
    picks
}

/// The cover of `book` for its `pages` interior pages, and its geometry.
pub(super) fn make_cover(
    book: &Book,
    c: &CoverSettings,
    puzzle: &dyn Fn(usize) -> Result<Drawing>,
    pages: usize,
) -> Result<(Drawing, draw::Wrap)> {
    let s = &book.settings;
    let (trim_w, trim_h) = s.page_setup(1, None).trim_mm();
    let wrap = draw::Wrap {
        trim_w,
        trim_h,
        spine: c.paper.spine_mm(pages),
    };
    let picks = cover_picks(book, draw::FRONT_CARDS + draw::BACK_CARDS);
    let art: Vec<Drawing> = picks.iter().map(|&i| puzzle(i)).collect::<Result<_>>()?;
    let art: Vec<&Drawing> = art.iter().collect();
    let split = art.len().min(draw::FRONT_CARDS);
    let back_art = if art.len() > split {
        art[split..].to_vec()
    } else {
        // a short book: the back shows the front's first mazes again
        art.iter().take(draw::BACK_CARDS).copied().collect()
    };
    if c.front.is_some() != c.pictures.front.is_some()
        || c.logo.is_some() != c.pictures.logo.is_some()
    {
        return Err(Error::option(
            "the cover: its front and logo pictures were not read (read the book with book::parse)",
        ));
    }
    let d = draw::cover(&draw::Cover {
        wrap,
        title: s.title_or_default(),
        subtitle: s.subtitle.as_deref(),
        author: s.author.as_deref(),
        back_text: c.back_text.as_deref(),
        font: s.font,
        spine_text: wrap.spine_holds_text(pages),
        front_art: art[..split].to_vec(),
        back_art,
        palette: palette(c)?,
        front_picture: c.pictures.front.as_deref(),
        badge: c.badge.as_deref().map(str::trim),
        logo: c.pictures.logo.as_deref(),
    })
    .map_err(|e| {
        // a text too long names its field first (`book.cover.back_text: ...`)
        if e.message.starts_with("book.") {
            e
        } else {
            Error::new(e.kind, format!("the cover: {}", e.message))
        }
    })?;
    Ok((d, wrap))
}

/// A colour of the cover's table: `"#RRGGBB"`, or one line naming the field.
fn colour(field: &str, value: Option<&str>) -> Result<Option<Rgb>> {
    value
        .map(|v| {
            draw::parse_hex(v.trim()).ok_or_else(|| {
                Error::option(format!(
                    "book.cover.{field}: \"{}\" is not a colour; give \"#RRGGBB\" (six hex digits, \
                     e.g. \"#1c5c46\")",
                    crate::error::one_line(v)
                ))
            })
        })
        .transpose()
}

/// The cover's colours from its table (`background`, `text_colour`), each checked.
fn palette(c: &CoverSettings) -> Result<Palette> {
    Ok(Palette::new(
        colour("background", c.background.as_deref())?,
        colour("text_colour", c.text_colour.as_deref())?,
    ))
}

/// Checks the cover's table: its colours (`"#RRGGBB"`, the texts at least
/// [`draw::MIN_CONTRAST`] to 1 against the ground) and its badge (one line of at most
/// [`draw::BADGE_MAX_CHARS`] characters). Each error is one line naming the field.
pub(super) fn check_settings(c: &CoverSettings) -> Result<()> {
    let p = palette(c)?;
    let (title, text) = (
        draw::contrast(p.title, p.ground),
        draw::contrast(p.text, p.ground),
    );
    if title.min(text) < draw::MIN_CONTRAST {
        // the worse of the two
        let (field, ink, ratio) = if title <= text {
            ("title", p.title, title)
        } else {
            ("other text", p.text, text)
        };
        let which = if c.text_colour.is_some() {
            "book.cover.text_colour"
        } else {
            "book.cover.background"
        };
        return Err(Error::option(format!(
            "{which}: the {field} ({}) on the ground ({}) has a contrast of {:.1} to 1; the cover's \
             text needs at least {} to 1 (WCAG): give text_colour = \"#RRGGBB\" darker or lighter",
            draw::hex(ink),
            draw::hex(p.ground),
            (ratio * 10.0).floor() / 10.0,
            draw::MIN_CONTRAST
        )));
    }
    if let Some(b) = &c.badge {
        let n = b.trim().chars().count();
        if b.contains(['\n', '\r']) || n == 0 {
            return Err(Error::option(
                "book.cover.badge: one short line, e.g. badge = \"Ages 4-8\"",
            ));
        }
        if n > draw::BADGE_MAX_CHARS {
            return Err(Error::option(format!(
                "book.cover.badge: {n} characters; a badge holds at most {}",
                draw::BADGE_MAX_CHARS
            )));
        }
    }
    Ok(())
}

/// Reads the cover's `front` and `logo` pictures (SVG, PNG or JPEG files, relative to `base`, the book
/// file's folder) through `loader` into `c.pictures`. An error is one line naming the field,
/// the path last.
pub(super) fn read_pictures(c: &mut CoverSettings, base: &Path, loader: &dyn Loader) -> Result<()> {
    let read = |field: &str, path: &Path| -> Result<Arc<Art>> {
        let path = base.join(path);
        let at = |m: String| Error::input(format!("book.cover.{field}: {m}: {}", path.display()));
        let bytes = loader.picture(&path).map_err(|e| {
            Error::new(
                e.kind,
                format!(
                    "book.cover.{field}: {}",
                    e.message
                        .replacen("cannot read the shape", "cannot read the picture", 1)
                ),
            )
        })?;
        match Format::detect(&bytes) {
            Ok(Format::Svg) => Picture::from_svg(&bytes).map(Art::Vector),
            Ok(_) => Raster::decode(&bytes).map(|r| Art::Raster(Arc::new(r))),
            Err(e) => Err(e),
        }
        .map(Arc::new)
        .map_err(|e| at(e.message))
    };
    c.pictures.front = c.front.as_deref().map(|p| read("front", p)).transpose()?;
    c.pictures.logo = c.logo.as_deref().map(|p| read("logo", p)).transpose()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::load::Memory;

    fn with(f: impl FnOnce(&mut CoverSettings)) -> CoverSettings {
        let mut c = CoverSettings::default();
        f(&mut c);
        c
    }

    #[test]
    fn the_cover_table_is_checked_field_by_field() {
        assert!(check_settings(&CoverSettings::default()).is_ok());
        let ok = with(|c| {
            c.background = Some("#FFF3C4".into());
            c.text_colour = Some(" #1b2a49 ".into());
            c.badge = Some("Ages 4-8".into());
        });
        check_settings(&ok).unwrap();
        let p = palette(&ok).unwrap();
        assert_eq!(
            (p.ground, p.title, p.text),
            (Rgb(255, 243, 196), Rgb(27, 42, 73), Rgb(27, 42, 73))
        );
        for (c, want) in [
            (
                with(|c| c.background = Some("red".into())),
                "book.cover.background: \"red\" is not a colour",
            ),
            (
                with(|c| c.text_colour = Some("#2a6a55".into())),
                "book.cover.text_colour: the title (#2a6a55) on the ground (#1c5c46) has a \
                 contrast of 1.",
            ),
            (
                with(|c| c.text_colour = Some("#ffff\u{7}".into())),
                "book.cover.text_colour: \"#ffff",
            ),
            (
                with(|c| c.background = Some("#ffffff".into())),
                "book.cover.background: the other text (#ffffff) on the ground (#ffffff) has a \
                 contrast of 1.0 to 1",
            ),
            (
                with(|c| c.badge = Some("x".repeat(21))),
                "book.cover.badge: 21 characters; a badge holds at most 20",
            ),
            (
                with(|c| c.badge = Some("a\nb".into())),
                "book.cover.badge: one short line",
            ),
        ] {
            let e = check_settings(&c).unwrap_err().message;
            assert!(e.starts_with(want), "{e}");
            assert_eq!(e.lines().count(), 1, "{e}");
        }
    }

    #[test]
    fn the_front_and_logo_are_read_as_svg_png_or_jpeg_relative_to_the_book() {
        let svg = "<svg xmlns='http://www.w3.org/2000/svg' width='20' height='10'>\
                   <rect width='20' height='10' fill='#e4572e'/></svg>";
        let photo = crate::picture::Raster::new(3, 2, [200, 40, 10, 255].repeat(6))
            .unwrap()
            .png();
        let loader = Memory::new()
            .with("books/art.svg", svg)
            .with("books/photo.png", photo)
            .with(
                "books/logo.png",
                [0x89, b'P', b'N', b'G', 0x0d, 0x0a, 0x1a, 0x0a, 0, 0],
            );
        let mut c = with(|c| c.front = Some("art.svg".into()));
        read_pictures(&mut c, Path::new("books"), &loader).unwrap();
        assert!(matches!(
            **c.pictures.front.as_ref().unwrap(),
            Art::Vector(_)
        ));
        assert_eq!(c.pictures.front.as_ref().unwrap().size(), (20.0, 10.0));
        assert!(c.pictures.logo.is_none());
        // a PNG at its own resolution, every pixel kept
        let mut c = with(|c| c.logo = Some("photo.png".into()));
        read_pictures(&mut c, Path::new("books"), &loader).unwrap();
        match &**c.pictures.logo.as_ref().unwrap() {
            Art::Raster(r) => assert_eq!(
                (r.width, r.height, &r.rgba[..4]),
                (3, 2, &[200, 40, 10, 255][..])
            ),
            other => panic!("{other:?}"),
        }
        // a broken PNG: one line naming the field, the path last
        let mut c = with(|c| c.logo = Some("logo.png".into()));
        let e = read_pictures(&mut c, Path::new("books"), &loader)
            .unwrap_err()
            .message;
        assert!(e.starts_with("book.cover.logo: the PNG image is "), "{e}");
        assert!(e.ends_with(": books/logo.png"), "{e}");
        assert_eq!(e.lines().count(), 1);
        let mut c = with(|c| c.front = Some("gone.svg".into()));
        let e = read_pictures(&mut c, Path::new("books"), &loader)
            .unwrap_err()
            .message;
        assert!(
            e.starts_with("book.cover.front: cannot read the picture"),
            "{e}"
        );
        assert!(e.ends_with("books/gone.svg"), "{e}");
    }
}
