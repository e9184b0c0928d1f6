//! The `[[pages]]` entries of a book file: what they share (a design from a table of design
//! fields, a serde error as one line naming its key, a shape's path resolved against its
//! file's folder), and an entry of one page ([`single`]); a generator's are in
//! [`super::generator`].

use std::path::Path;

use serde::Deserialize;

use super::PuzzleSpec;
use crate::design::Design;
use crate::error::{Error, Result};
use crate::load::Loader;

/// A parser's whole message on one line (a value quoted in it may hold a newline).
pub(super) fn first_line(s: &str) -> String {
    crate::error::one_line(s.trim()).into_owned()
}

/// Takes the relative paths of the files `design` names (its shape's picture, its start,
/// finish and item pictures: [`Design::picture_files`]; its strings file) relative to `base`,
/// the folder of the file that named them.
pub(super) fn resolve_files(design: &mut Design, base: &Path) {
    let mut join = |p: &mut std::path::PathBuf| {
        if p.is_relative() {
            *p = base.join(&*p);
        }
        Ok(())
    };
    // `join` never fails
    let _ = design.picture_files(&mut join);
    if let Some(p) = &mut design.page.strings {
        let _ = join(p);
    }
}

/// A serde error from one entry as one line naming the key: `width: must be ...`.
pub(super) fn entry_error(e: toml::de::Error) -> Error {
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

/// A design from a table of design fields; a bad value's error names its key.
pub(super) fn design_from_table(t: toml::Table) -> Result<Design> {
    t.try_into::<Design>().map_err(entry_error)
}

/// The page a `[[pages]]` entry of one page (`design = ...`) makes: its design (from a file read
/// through `loader`, relative to `base`, or inline) checked and seeded, its files' paths
/// resolved; `name` is the entry's (`pages[2]`).
pub(super) fn single(
    entry: &toml::Table,
    base: &Path,
    name: &str,
    loader: &dyn Loader,
) -> Result<PuzzleSpec> {
    // whether an inline design gives its height (a design file says so as it is read)
    let inline_height = entry
        .get("design")
        .and_then(toml::Value::as_table)
        .is_some_and(|t| t.contains_key("height"));
    let entry: SingleEntry = entry.clone().try_into().map_err(entry_error)?;
    let (mut design, height_given, dir, what) = match entry.design {
        DesignRef::File(file) => {
            let path = base.join(&file);
            let read = crate::load::read_design_file(loader, &path)?;
            let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
            (
                read.design,
                read.height_given,
                dir,
                format!("design file {file}"),
            )
        }
        DesignRef::Inline(d) => (*d, inline_height, base.to_path_buf(), "design".to_string()),
    };
    design
        .validate()
        .map_err(|e| Error::new(e.kind, format!("{what}: {}", e.message)))?;
    if design.seed.is_none() {
        return Err(Error::input(format!(
            "{what}: seed missing; every page of a book needs one so the book prints the same each time"
        )));
    }
    resolve_files(&mut design, &dir);
    // a design without a height has its rows fitted to its shape, as `hedge generate
    // --design` fits them (as many rows as columns without a shape)
    let fit_height = !height_given && design.shape.is_some();
    Ok(PuzzleSpec {
        design,
        fit_height,
        size_limit: None,
        source: name.to_string(),
        seed_bumped_from: None,
        level: None,
        auto_turn: false,
        slope: None,
        turn_preset: None,
    })
}

#[cfg(test)]
mod tests {
    use super::super::{DifficultyRamp, Ramp, parse};
    use super::*;

    fn parse_err(text: &str) -> String {
        let e = parse(text, Path::new("."), &crate::load::Memory::new()).unwrap_err();
        assert!(!e.message.contains('\n'), "{e}");
        e.message
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

    /// Issue 57 item 9: a single page's design without a height had 20 rows whatever its
    /// width; it is sized as `hedge generate --design` sizes it: fitted to its shape, square
    /// without one, and a height given is kept.
    #[test]
    fn a_single_pages_height_follows_its_width_or_shape() {
        let fish = "seed = 1\nshape = { builtin = \"fish\" }\n";
        let files = crate::load::Memory::new()
            .with("w.toml", format!("width = 12\n{fish}"))
            .with("wh.toml", format!("width = 12\nheight = 5\n{fish}"));
        let page = |design: &str| {
            let text = format!("[[pages]]\ndesign = {design}\n");
            let book = parse(&text, Path::new(""), &files).unwrap();
            let p = &book.puzzles[0];
            (p.design.width, p.design.height, p.fit_height)
        };
        // the rows a fitted page is made with: fewer than its columns, a fish being wide
        let text = "[[pages]]\ndesign = \"w.toml\"\n";
        let book = parse(text, Path::new(""), &files).unwrap();
        let made = crate::book::fitted_design(&book.puzzles[0], &book.settings, &files).unwrap();
        assert_eq!(made.width, 12);
        assert!(made.height < 12, "{}", made.height);
        assert_eq!(page("{ width = 12, seed = 1 }"), (12, 12, false));
        assert_eq!(page("{ width = 12, height = 5, seed = 1 }"), (12, 5, false));
        assert_eq!(
            page("{ width = 12, seed = 1, shape = { builtin = \"fish\" } }"),
            (12, 12, true)
        );
        assert_eq!(
            page("{ width = 12, height = 5, seed = 1, shape = { builtin = \"fish\" } }"),
            (12, 5, false)
        );
        assert_eq!(page("\"w.toml\""), (12, 12, true));
        assert_eq!(page("\"wh.toml\""), (12, 5, false));
    }
}
