//! One puzzle of a built book made again from the book's manifest (`hedge regenerate`): the
//! same maze on the same page as in `book.pdf` (its label, page number, gutter side, markers,
//! stars and "Solution on page N"), with its answer key on a page of its own, titled as in the
//! book. Nothing is searched again: the manifest records each puzzle's design as made (its
//! seed, its fitted size, its turn), so the maze is made once, as the book made it.
//!
//! A manifest is read as untrusted input ([`BookManifest::parse`]): it must be one Hedge
//! wrote (format `hedge-book`, a version this Hedge reads, puzzles numbered 1, 2, 3, ... each
//! with its seed, settings and designs that pass their own checks), else one line says what
//! is wrong, quoting at most [`crate::error::ECHO_CHARS`] characters of it. Its files are
//! found from the manifest's own folder, never the current one: a version 2 manifest records
//! the book file's folder (`book_dir`, relative to the manifest's) and every path relative to
//! that, and each picture's digest, so a picture that is not the book's is refused rather than
//! made into another maze.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use super::digests::{Digests, is_digest};
use super::manifest::MANIFEST_VERSION;
use super::{Interior, MANIFEST_FORMAT, MAX_PAGES, Product, Settings, regenerate_puzzle};
use crate::design::Design;
use crate::draw::Pages;
use crate::error::{Error, Result, clip};
use crate::load::Loader;
use crate::page::PageSetup;

/// A puzzle of a book, ready to print again.
pub struct Reprint {
    /// The maze.
    pub product: Product,
    /// Its puzzle page, as in the book.
    pub setup: PageSetup,
    /// Its answer key's page (the page the key is on in the book, alone on it).
    pub key_setup: PageSetup,
    /// The puzzle's label ("Puzzle 7").
    pub label: String,
    /// The book's colours: a black and white book's page is reprinted in grey.
    pub interior: Interior,
}

impl Reprint {
    /// The puzzle's page and its key's, as the book prints them ([`Interior::print`]:
    /// in grey for a black and white interior), and the layout.
    pub fn pages(&self) -> Result<Pages> {
        let mut p = self.product.pages(&self.setup, &self.key_setup)?;
        for d in [&mut p.puzzle, &mut p.key] {
            self.interior.print(d);
        }
        Ok(p)
    }
}

/// What is read of a manifest: its version, the book's folder and pictures, the settings and
/// each puzzle's pages and design.
#[derive(Deserialize)]
struct Raw {
    format: String,
    version: u32,
    #[serde(default)]
    book_dir: Option<PathBuf>,
    #[serde(default)]
    pictures: BTreeMap<PathBuf, String>,
    settings: Settings,
    /// The book's words as its strings file gave them (none recorded: the built-in words of
    /// its language).
    #[serde(default)]
    words: Option<BTreeMap<String, String>>,
    puzzles: Vec<Puzzle>,
}

#[derive(Deserialize)]
struct Puzzle {
    number: usize,
    page: u32,
    key_page: u32,
    /// The seed the maze was made with (the design's own, which must agree).
    #[serde(default)]
    seed: Option<u64>,
    /// The stars its page shows (none recorded: the maze's standing, as before).
    #[serde(default)]
    stars: Option<usize>,
    design: Design,
}

/// A book's manifest, read and checked ([`BookManifest::parse`]).
pub struct BookManifest {
    version: u32,
    book_dir: Option<PathBuf>,
    pictures: BTreeMap<PathBuf, String>,
    settings: Settings,
    puzzles: Vec<Puzzle>,
}

/// The longest path a manifest may record, in bytes (Linux's `PATH_MAX`).
const MAX_PATH_BYTES: usize = 4096;

/// The error for a manifest that is not one Hedge wrote.
fn not_ours(why: impl std::fmt::Display) -> Error {
    Error::input(format!(
        "not a book manifest as hedge batch writes it (manifest.json): {why}"
    ))
}

/// Checks that a path a manifest records is one a file may have.
fn check_path(path: &Path, what: &str) -> Result<()> {
    let bytes = path.as_os_str().len();
    if bytes == 0 || bytes > MAX_PATH_BYTES {
        return Err(not_ours(format!(
            "{what} is a path of {bytes} bytes (1 to {MAX_PATH_BYTES})"
        )));
    }
    Ok(())
}

/// The paths of the picture files `design` names ([`Design::picture_files`]).
fn design_paths(design: &Design) -> Vec<PathBuf> {
    let mut paths = Vec::new();
    // the closure never fails
    let _ = design.clone().picture_files(&mut |p| {
        paths.push(p.clone());
        Ok(())
    });
    paths
}

impl BookManifest {
    /// Reads and checks a manifest's text: one line naming what is wrong when it is not a
    /// manifest Hedge wrote (format, version, settings, puzzle numbers, pages, seeds, designs,
    /// recorded paths and digests).
    pub fn parse(text: &str) -> Result<BookManifest> {
        let raw: Raw = serde_json::from_str(text).map_err(|e| not_ours(clip(&e.to_string())))?;
        if raw.format != MANIFEST_FORMAT {
            return Err(not_ours(format!(
                "its format is \"{}\", not \"{MANIFEST_FORMAT}\"",
                clip(&raw.format)
            )));
        }
        if !(1..=MANIFEST_VERSION).contains(&raw.version) {
            return Err(Error::input(format!(
                "the manifest is of version {}, which this Hedge does not read (it reads 1 to \
                 {MANIFEST_VERSION}): build the book again with this Hedge",
                raw.version
            )));
        }
        raw.settings
            .validate()
            .map_err(|e| Error::new(e.kind, format!("the manifest's settings: {}", e.message)))?;
        let n = raw.puzzles.len();
        if n == 0 || n > MAX_PAGES {
            return Err(not_ours(format!(
                "it has {n} puzzles (a book has 1 to {MAX_PAGES})"
            )));
        }
        // the book's page numbers run from its first page's, and a book has MAX_PAGES at most
        let last_page = raw
            .settings
            .first_page_number
            .saturating_add(MAX_PAGES as u32);
        for (i, p) in raw.puzzles.iter().enumerate() {
            let at = |m: String| not_ours(format!("puzzles[{i}]: {m}"));
            if p.number != i + 1 {
                return Err(at(format!(
                    "its number is {}; the puzzles are numbered 1, 2, 3, ... in order",
                    p.number
                )));
            }
            for (what, page) in [("page", p.page), ("key_page", p.key_page)] {
                if page == 0 || page > last_page {
                    return Err(at(format!(
                        "{what} {page} is not a page of the book (1 to {last_page})"
                    )));
                }
            }
            if let Some(n) = p.stars
                && !(1..=5).contains(&n)
            {
                return Err(at(format!("its page shows {n} stars (1 to 5)")));
            }
            let what = format!("puzzle {}", p.number);
            p.design
                .validate()
                .map_err(|e| Error::new(e.kind, format!("the manifest's {what}: {}", e.message)))?;
            match (p.design.seed, p.seed) {
                (None, _) => {
                    return Err(at(
                        "its design has no seed, so it does not say which maze it is".into(),
                    ));
                }
                (Some(d), Some(s)) if d != s => {
                    return Err(at(format!("its seed is {s} but its design's is {d}")));
                }
                _ => {}
            }
            for path in &design_paths(&p.design) {
                check_path(path, &format!("puzzles[{i}]'s picture"))?;
            }
        }
        if let Some(dir) = &raw.book_dir {
            check_path(dir, "book_dir")?;
        }
        let words = match &raw.words {
            Some(table) => Some(std::sync::Arc::new(
                crate::lang::Words::from_table(
                    raw.settings.lang.as_deref().unwrap_or(crate::lang::DEFAULT),
                    table,
                )
                .map_err(|e| not_ours(e.message))?,
            )),
            None => None,
        };
        for (path, digest) in &raw.pictures {
            check_path(path, "a picture")?;
            if !is_digest(digest) {
                return Err(not_ours(format!(
                    "the digest of {} is \"{}\", not 32 hex digits",
                    path.display(),
                    clip(digest)
                )));
            }
        }
        Ok(BookManifest {
            version: raw.version,
            book_dir: raw.book_dir,
            pictures: raw.pictures,
            settings: Settings {
                words,
                ..raw.settings
            },
            puzzles: raw.puzzles,
        })
    }

    /// How many puzzles the book has.
    pub fn puzzles(&self) -> usize {
        self.puzzles.len()
    }

    /// Puzzle `number`'s design (from 1) as the manifest records it (its paths relative to
    /// the book file's folder).
    pub fn design(&self, number: usize) -> Option<&Design> {
        self.puzzles.get(number.checked_sub(1)?).map(|p| &p.design)
    }

    /// The folder the manifest's relative paths are taken from, for a manifest in folder
    /// `dir`: the book file's folder it records, joined to `dir`; `dir` itself when it records
    /// none.
    fn root(&self, dir: &Path) -> PathBuf {
        match &self.book_dir {
            Some(b) => dir.join(b),
            None => dir.to_path_buf(),
        }
    }

    /// Puzzle `number` (from 1) made again, the manifest being in folder `dir` (as the caller
    /// names it: `OUTDIR` for `OUTDIR/manifest.json`, `""` for a bare name). Its pictures are
    /// read through `loader` from the paths the manifest records, relative to the book
    /// file's folder it records (joined to `dir`), and must be the book's (their digests).
    pub fn reprint(&self, dir: &Path, number: usize, loader: &dyn Loader) -> Result<Reprint> {
        let count = self.puzzles.len();
        let p = number
            .checked_sub(1)
            .and_then(|i| self.puzzles.get(i))
            .ok_or_else(|| {
                Error::option(format!(
                    "the book has no puzzle {number}: its puzzles are 1 to {count}"
                ))
            })?;
        let root = self.root(dir);
        let mut design = p.design.clone();
        let mut expected = BTreeMap::new();
        let mut resolve = |path: &mut PathBuf| -> Result<()> {
            if self.version < 2 && path.is_relative() {
                return Err(Error::input(format!(
                    "this manifest (version 1) records its pictures' paths from the folder \
                     hedge batch ran in, which it does not name: build the book again with \
                     this Hedge to print its puzzles from anywhere: {}",
                    path.display()
                )));
            }
            let full = root.join(&*path);
            if self.version >= 2 {
                let digest = self.pictures.get(&*path).ok_or_else(|| {
                    not_ours(format!(
                        "it records no digest for the picture {}",
                        path.display()
                    ))
                })?;
                expected.insert(full.clone(), digest.clone());
            }
            *path = full;
            Ok(())
        };
        design.picture_files(&mut resolve)?;
        // a version 2 manifest's pictures are read only when they are the book's
        let checked;
        let loader: &dyn Loader = if self.version >= 2 {
            checked = Digests::checking(loader, expected);
            &checked
        } else {
            loader
        };
        let s = &self.settings;
        let art = crate::load::item_pictures(loader, &design, None)?;
        if let Some(w) = design.walls_mut() {
            w.item_art = art;
        }
        crate::load::read_reveal_file(loader, &mut design)?;
        let product = regenerate_puzzle(&design, loader)?;
        let mut setup = s.puzzle_setup(&design, number, (p.page, p.key_page), p.stars);
        setup.pictures = crate::load::page_pictures(loader, &setup)?;
        let key_setup = PageSetup {
            title: Some(s.key_label_for(number, p.page)),
            page_number: Some(p.key_page),
            ..setup.clone()
        };
        Ok(Reprint {
            product,
            setup,
            key_setup,
            label: s.label_for(number),
            interior: s.interior,
        })
    }
}

/// Puzzle `number` (from 1) of the book whose `manifest.json` (its text `manifest`) is in
/// folder `dir`, made again: [`BookManifest::parse`], then [`BookManifest::reprint`]. File
/// shapes and start and finish pictures are read through `loader`, from the book file's
/// folder the manifest records, never from the current folder.
pub fn reprint(manifest: &str, dir: &Path, number: usize, loader: &dyn Loader) -> Result<Reprint> {
    BookManifest::parse(manifest)?.reprint(dir, number, loader)
}
