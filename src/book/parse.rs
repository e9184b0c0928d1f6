//! Reading a book file: the TOML read into serde types ([`load`], [`parse`]), each
//! `[[pages]]` entry made into its puzzles, the whole checked, and shape + seed made unique.

use std::collections::BTreeMap;
use std::path::Path;

use serde::Deserialize;

use super::digests::Digests;
use super::entries::{first_line, single};
use super::generator::generator;
use super::{Book, MAX_PAGES, PuzzleSpec, Settings, shape_key};
use crate::design::MAX_SEED;
use crate::error::{Error, Result};
use crate::load::Loader;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawBook {
    #[serde(default)]
    book: Settings,
    #[serde(default)]
    pages: Vec<toml::Table>,
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
/// a bad one is its entry's error); shape pictures are not (see [`build`](fn@super::build)).
pub fn parse(text: &str, base: &Path, loader: &dyn Loader) -> Result<Book> {
    let mut raw: RawBook = toml::from_str(text).map_err(|e| {
        let at = e
            .span()
            .map(|s| line_col(text, s.start))
            .unwrap_or_default();
        Error::input(format!("bad book file: {}{at}", first_line(e.message())))
    })?;
    raw.book.validate()?;
    let mut notes = read_words(&mut raw.book, base, loader)?;
    if raw.pages.is_empty() {
        return Err(Error::input(
            "the book has no pages: add [[pages]] entries (design = ... or count = ...)",
        ));
    }
    let mut puzzles = Vec::new();
    let pictures = Digests::recording(loader);
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
        let read =
            crate::load::page_pictures(&pictures, &puzzles[first].design.page).map_err(at)?;
        for p in &mut puzzles[first..] {
            p.design.page.pictures.clone_from(&read);
        }
        // and its item pictures of its own
        let art =
            crate::load::item_pictures(&pictures, &puzzles[first].design, None).map_err(at)?;
        for w in puzzles[first..]
            .iter_mut()
            .filter_map(|p| p.design.walls_mut())
        {
            w.item_art.clone_from(&art);
        }
        // and its picture to reveal, a file of its own
        let mut first_design = puzzles[first].design.clone();
        crate::load::read_reveal_file(&pictures, &mut first_design).map_err(at)?;
        let bytes = first_design.walls().reveal_file.clone();
        for w in puzzles[first..]
            .iter_mut()
            .filter_map(|p| p.design.walls_mut())
        {
            w.reveal_file.clone_from(&bytes);
        }
    }
    if let Some(c) = &mut raw.book.cover {
        super::cover::read_pictures(c, base, &pictures)?;
    }
    notes.extend(unique_seeds(&mut puzzles)?);
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
        base: base.to_path_buf(),
        book_dir: None,
        pictures: pictures.into_read(),
    })
}

/// Reads the book's strings file (relative to the book file's folder `base`) into `s.words`, and gives the puzzles'
/// label and the answers' heading the book's words when the file leaves them at the English
/// defaults. Returns the strings file's warning, if any.
fn read_words(s: &mut Settings, base: &Path, loader: &dyn Loader) -> Result<Vec<String>> {
    let mut notes = Vec::new();
    if let Some(path) = &s.strings {
        // read from beside the book file; the setting keeps the path as written
        let mut setup = s.page_setup(1, None);
        setup.strings = Some(base.join(path));
        let (words, warning) = crate::load::page_words(loader, &setup)
            .map_err(|e| Error::new(e.kind, format!("book.strings: {}", e.message)))?;
        s.words = words;
        notes.extend(warning);
    }
    let english = Settings::default();
    let w = s.words().clone();
    if s.label == english.label {
        if !w.get("puzzle").contains("{n}") {
            return Err(Error::option(
                "book.strings: \"puzzle\" must contain {n} (the puzzle number)",
            ));
        }
        s.label = w.get("puzzle").to_string();
    }
    if s.answers_heading == english.answers_heading {
        s.answers_heading = w.get("answers").to_string();
    }
    s.validate()?;
    Ok(notes)
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
    use super::super::{build, regenerate_puzzle};
    use super::*;
    use crate::design::Design;
    use crate::shape::{ShapeSource, builtin};

    fn parse_ok(text: &str) -> Book {
        parse(text, Path::new("."), &crate::load::Memory::new()).unwrap()
    }

    fn parse_err(text: &str) -> String {
        let e = parse(text, Path::new("."), &crate::load::Memory::new()).unwrap_err();
        assert!(!e.message.contains('\n'), "{e}");
        e.message
    }

    #[test]
    fn a_books_language_sets_its_default_label_and_heading_and_reads_its_strings_file() {
        let page = "[[pages]]\ndesign = { seed = 5, shape = { builtin = \"cat\" } }\n";
        let b = parse_ok(&format!("[book]\nlang = \"de\"\n{page}"));
        assert_eq!(
            (
                b.settings.label.as_str(),
                b.settings.answers_heading.as_str()
            ),
            ("Rätsel {n}", "Lösungen")
        );
        assert_eq!(b.settings.page_setup(3, None).words().get("finish"), "ZIEL");
        // a label of its own is kept
        let b = parse_ok(&format!(
            "[book]\nlang = \"de\"\nlabel = \"Nr. {{n}}\"\n{page}"
        ));
        assert_eq!(b.settings.label, "Nr. {n}");
        // the strings file beside the book file, its path kept as written
        let loader = crate::load::Memory::new().with("dir/w.toml", "puzzle = \"Weg {n}\"\n");
        let text = format!("[book]\nlang = \"de\"\nstrings = \"w.toml\"\n{page}");
        let b = parse(&text, Path::new("dir"), &loader).unwrap();
        assert_eq!(b.settings.strings.as_deref(), Some(Path::new("w.toml")));
        assert_eq!(b.settings.label, "Weg {n}");
        assert_eq!(b.settings.words().get("contents"), "Inhalt");
        assert!(
            b.notes.iter().any(|n| n.contains("leaves out")),
            "{:?}",
            b.notes
        );
        // a label the file gives without {n} is the label's error
        let loader = crate::load::Memory::new().with("dir/w.toml", "puzzle = \"Weg\"\n");
        let e = parse(&text, Path::new("dir"), &loader).unwrap_err().message;
        assert!(
            e.starts_with("book.strings: \"puzzle\" must contain {n}"),
            "{e}"
        );
        // Arabic prints (shaped), as every built-in language does
        assert!(
            parse(
                &format!("[book]\nlang = \"ar\"\n{page}"),
                Path::new("."),
                &crate::load::Memory::new()
            )
            .is_ok()
        );
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
}
