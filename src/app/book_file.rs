//! The book list ([`BookList`]) and the book file it is: reading one ([`read_book`]: the file
//! read, its pages made into designs as `hedge batch` makes them) and writing the text of one
//! ([`BookList::book_file`]). The file tasks that call these are in `files.rs`; the window in
//! `book.rs`.
//!
//! A generator entry (`count = N`) stays a generator: its pages are listed (and shown) one by
//! one, each tagged with its entry and place, and saving writes the entry back as it was read,
//! same keys, so the saved file makes the same book. A generator cannot say "page 3, but
//! changed": when one of its pages is put back changed, removed, or moved out of its run, the
//! generator becomes single pages, each the design it made (the book stays the same puzzles),
//! and the status line says so.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::task::Control;
use crate::book::Settings;
use crate::design::Design;
use crate::error::{Error, Result};

/// A book file as read: the list and the status line.
pub struct OpenedBook {
    /// The list.
    pub list: BookList,
    /// The status line ("opened the book ...").
    pub message: String,
}

/// A generator entry of a book file, as read: its table (the keys as written) and the folder
/// its relative file names start from.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Generator {
    /// The `[[pages]]` entry, as read.
    pub entry: toml::Table,
    /// The book file's folder.
    pub base: PathBuf,
}

impl Generator {
    /// How many pages it makes.
    pub fn count(&self) -> usize {
        self.entry
            .get("count")
            .and_then(toml::Value::as_integer)
            .map_or(0, |n| n.max(0) as usize)
    }

    /// The entry as written in a book file in `folder`: relative picture files named from
    /// `folder` when it is not the one the entry was read from.
    fn entry_in(&self, folder: &Path) -> toml::Table {
        let mut entry = self.entry.clone();
        if folder == self.base {
            return entry;
        }
        let moved = |s: &str| -> Option<String> {
            let p = Path::new(s);
            (p.is_relative() && crate::shape::builtin::get(s).is_none())
                .then(|| self.base.join(p).display().to_string())
        };
        let fix = |v: &mut toml::Value| {
            if let Some(m) = v.as_str().and_then(moved) {
                *v = toml::Value::String(m);
            }
        };
        if let Some(toml::Value::Array(shapes)) = entry.get_mut("shapes") {
            shapes.iter_mut().for_each(fix);
        }
        if let Some(toml::Value::Table(shape)) = entry.get_mut("shape")
            && let Some(file) = shape.get_mut("file")
        {
            fix(file);
        }
        for key in ["start_picture", "finish_picture"] {
            if let Some(v) = entry.get_mut(key) {
                fix(v);
            }
        }
        entry
    }
}

/// One puzzle of the book: a `[[pages]]` entry with its design inline, or one page a
/// generator entry makes.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Page {
    /// The puzzle's design, seed included (file shapes with absolute paths).
    pub design: Design,
    /// The generator it comes from (an index into [`BookList::generators`]) and its place
    /// there (from 0); `None` for a page of its own.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub generator: Option<(usize, usize)>,
}

impl Page {
    /// A page of its own.
    pub fn single(design: Design) -> Page {
        Page {
            design,
            generator: None,
        }
    }
}

/// The book being collected: its settings, its puzzles in order, and the generator entries
/// some of them come from. Serialised (what eframe's storage keeps), it is a book file when it
/// has no generators; [`BookList::book_file`] is the book file always.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BookList {
    /// The `[book]` settings.
    #[serde(default, rename = "book")]
    pub settings: Settings,
    /// The puzzles, in book order.
    #[serde(default)]
    pub pages: Vec<Page>,
    /// The generator entries pages come from, as read from a book file.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub generators: Vec<Generator>,
}

impl BookList {
    /// The list as TOML (a book file `hedge batch` reads, while it has no generators).
    pub fn to_toml(&self) -> String {
        toml::to_string(self).expect("a book list always serialises")
    }

    /// Reads a list written by [`BookList::to_toml`] (no checks beyond the format: an empty
    /// list is a list). A page naming a generator that is not there, or a generator no longer
    /// whole, is kept as a page of its own.
    pub fn from_toml(text: &str) -> Result<BookList> {
        let mut list: BookList = toml::from_str(text).map_err(|e| {
            Error::input(format!(
                "bad book list: {}",
                e.message().lines().next().unwrap_or("invalid")
            ))
        })?;
        let n = list.generators.len();
        for p in &mut list.pages {
            p.generator = p.generator.filter(|(g, _)| *g < n);
        }
        list.keep_generators_whole();
        Ok(list)
    }
}

/// A book file: the `[book]` table and the `[[pages]]` entries, in the order a [`BookList`]
/// serialises them (a list without generators is written as it always was, byte for byte).
#[derive(Serialize)]
struct File<'a> {
    #[serde(rename = "book")]
    settings: &'a Settings,
    pages: Vec<Entry<'a>>,
}

/// A `[[pages]]` entry: a page's design inline, or a generator's entry.
#[derive(Serialize)]
#[serde(untagged)]
enum Entry<'a> {
    Single { design: &'a Design },
    Generator(toml::Table),
}

impl BookList {
    /// The list as the book file `hedge batch` reads, to be saved in `folder`: each generator
    /// whose pages are all there, in order, as its entry; every other page inline.
    pub fn book_file(&self, folder: &Path) -> String {
        let mut pages = Vec::new();
        for p in &self.pages {
            pages.push(match p.generator {
                Some((g, 0)) => Entry::Generator(self.generators[g].entry_in(folder)),
                Some(_) => continue,
                None => Entry::Single { design: &p.design },
            });
        }
        let file = File {
            settings: &self.settings,
            pages,
        };
        toml::to_string(&file).expect("a book always serialises")
    }

    /// Makes the generators whose pages are no longer all there, in order, single pages;
    /// returns a line saying which, if any did. Called after every change to the list.
    pub fn keep_generators_whole(&mut self) -> Option<String> {
        let mut split = Vec::new();
        for (g, generator) in self.generators.iter().enumerate() {
            let at: Vec<(usize, usize)> = self
                .pages
                .iter()
                .enumerate()
                .filter_map(|(i, p)| p.generator.filter(|(h, _)| *h == g).map(|(_, k)| (i, k)))
                .collect();
            let whole = at.len() == generator.count()
                && at
                    .iter()
                    .enumerate()
                    .all(|(n, &(i, k))| k == n && i == at[0].0 + n);
            if !at.is_empty() && !whole {
                split.push((g, at.len()));
            }
        }
        self.split(split.iter().map(|&(g, _)| g))
    }

    /// Makes the pages of the generators `gs` single pages; the status line saying so.
    pub fn split(&mut self, gs: impl IntoIterator<Item = usize>) -> Option<String> {
        let mut names = Vec::new();
        for g in gs {
            let mut n = 0;
            for p in &mut self.pages {
                if p.generator.is_some_and(|(h, _)| h == g) {
                    p.generator = None;
                    n += 1;
                }
            }
            if n > 0 {
                names.push(format!(
                    "the generator (count = {}) is {n} single page{} now",
                    self.generators[g].count(),
                    if n == 1 { "" } else { "s" }
                ));
            }
        }
        self.tidy();
        (!names.is_empty()).then(|| {
            format!(
                "{}: a generator makes its pages alike, and one of them was changed, moved or \
                 removed",
                names.join("; ")
            )
        })
    }

    /// Forgets the generators no page comes from (their indices renumbered).
    fn tidy(&mut self) {
        let used: Vec<bool> = (0..self.generators.len())
            .map(|g| {
                self.pages
                    .iter()
                    .any(|p| p.generator.is_some_and(|(h, _)| h == g))
            })
            .collect();
        let mut new_index = Vec::with_capacity(used.len());
        let mut next = 0;
        for &u in &used {
            new_index.push(next);
            next += usize::from(u);
        }
        for p in &mut self.pages {
            if let Some((g, _)) = &mut p.generator {
                *g = new_index[*g];
            }
        }
        let mut keep = used.into_iter();
        self.generators.retain(|_| keep.next().unwrap_or(false));
    }
}

/// The checkpoint a book being opened passes before each page it makes (tests hold it there).
pub const OPENING_PAGE: &str = "opening the book: a page";

/// Reads the book file at `path` into a list (a file task's job): each entry's pages as the
/// book makes them (heights fitted, seeds made unique), a generator's tagged with it. Reports
/// the pages made to `c`, and stops (an error) at the next page once `c` is cancelled.
pub fn read_book(
    path: &Path,
    c: &Control<(usize, usize)>,
) -> std::result::Result<OpenedBook, String> {
    let path = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    let at = |e: crate::error::Error| format!("{}: {}", e.message, path.display());
    let text = crate::io::read_text(&path, "cannot read the book").map_err(|e| e.to_string())?;
    let base = path.parent().unwrap_or(Path::new("")).to_path_buf();
    let book = crate::book::parse(&text, &base, &crate::io::Files).map_err(at)?;
    // the entries as written (parse has checked them)
    let raw: toml::Table = toml::from_str(&text).map_err(|e| format!("{e}"))?;
    let entries: Vec<&toml::Table> = raw
        .get("pages")
        .and_then(toml::Value::as_array)
        .map(|a| a.iter().filter_map(toml::Value::as_table).collect())
        .unwrap_or_default();
    let mut list = BookList {
        settings: book.settings.clone(),
        ..BookList::default()
    };
    let mut specs = book.puzzles.iter();
    for entry in entries {
        let generator = entry.contains_key("count").then(|| {
            list.generators.push(Generator {
                entry: entry.clone(),
                base: base.clone(),
            });
            list.generators.len() - 1
        });
        let n = generator.map_or(1, |g| list.generators[g].count());
        for k in 0..n {
            c.report((list.pages.len(), book.puzzles.len()));
            c.checkpoint(OPENING_PAGE);
            if c.cancelled() {
                return Err(format!(
                    "opening the book {} was cancelled; the book list stays as it was",
                    path.display()
                ));
            }
            let spec = specs
                .next()
                .ok_or("the book's pages do not match its entries")?;
            let design = crate::book::fitted_design(spec, &book.settings, &crate::io::Files)
                .map_err(|e| format!("{}: {e}", spec.source))?;
            list.pages.push(Page {
                design,
                generator: generator.map(|g| (g, k)),
            });
        }
    }
    let n = list.pages.len();
    let mut message = format!("opened the book {} ({n} puzzles)", path.display());
    if let Some(note) = book.notes.first() {
        message += &format!("; note: {note}");
    }
    Ok(OpenedBook { list, message })
}

/// The folder a book file in `path` is in.
pub fn folder(path: &Path) -> PathBuf {
    path.parent().unwrap_or(Path::new("")).to_path_buf()
}

#[cfg(test)]
mod tests {
    use crate::app::book::BookCommand;
    use crate::app::{Command, HedgeApp, Persisted};
    use std::path::Path;

    const BOOK: &str = "[book]\ntitle = \"Gen\"\n\
        [[pages]]\ndesign = { seed = 7, width = 9, height = 9 }\n\
        [[pages]]\ncount = 3\nshapes = [\"heart\", \"cat\"]\nseed_from = 40\nwidth = \"10..14\"\nbraid = 0.1\n\
        [[pages]]\ndesign = { seed = 8, width = 8, height = 8 }\n";

    /// The book file at `path` built (dated 0): its files' bytes.
    fn built(path: &Path) -> Vec<Vec<u8>> {
        let mut book = crate::book::load(path, &crate::io::Files).unwrap();
        book.date = Some(0);
        let b = crate::book::build(&book, &crate::io::Files, &|_, _| {}).unwrap();
        b.files
            .iter()
            .map(|f| f.body.to_bytes().unwrap().into_owned())
            .collect()
    }

    fn opened(dir: &Path) -> (HedgeApp, std::path::PathBuf) {
        let path = dir.join("gen.toml");
        std::fs::write(&path, BOOK).unwrap();
        let mut app = HedgeApp::headless(Persisted::default());
        app.apply(Command::Book(BookCommand::Open(path.clone())), None);
        app.finish_tasks();
        assert!(matches!(&app.message, Some(Ok(_))), "{:?}", app.message);
        (app, path)
    }

    fn save(app: &mut HedgeApp, path: &Path) -> String {
        app.apply(Command::Book(BookCommand::Save(path.to_path_buf())), None);
        app.finish_tasks();
        assert!(matches!(&app.message, Some(Ok(_))), "{:?}", app.message);
        std::fs::read_to_string(path).unwrap()
    }

    #[test]
    fn a_generator_opened_and_saved_is_still_a_generator_and_makes_the_same_book() {
        let dir = tempfile::tempdir().unwrap();
        let (mut app, path) = opened(dir.path());
        let list = &app.book.list;
        assert_eq!(list.pages.len(), 5, "its pages listed one by one");
        assert_eq!(list.generators.len(), 1);
        let tags: Vec<_> = list.pages.iter().map(|p| p.generator).collect();
        assert_eq!(tags, [None, Some((0, 0)), Some((0, 1)), Some((0, 2)), None]);
        let saved = dir.path().join("again.toml");
        let text = save(&mut app, &saved);
        assert_eq!(text.matches("count = 3").count(), 1, "{text}");
        assert!(text.contains("seed_from = 40") && text.contains("width = \"10..14\""));
        assert_eq!(text.matches("[[pages]]").count(), 3, "{text}");
        assert_eq!(built(&saved), built(&path), "the same book, byte for byte");
        // kept between runs as it is; a kept list naming a generator not there reads as single
        // pages
        let back = crate::app::book::BookList::from_toml(&app.book.list.to_toml()).unwrap();
        assert_eq!(back, app.book.list);
        let mut broken = app.book.list.clone();
        broken.generators.clear();
        let back = crate::app::book::BookList::from_toml(&broken.to_toml()).unwrap();
        assert!(back.pages.iter().all(|p| p.generator.is_none()));
        assert_eq!(back.pages.len(), 5);
        // saved in another folder, the generator's relative files still name the same files
        let g = &app.book.list.generators[0];
        let mut entry = g.entry.clone();
        entry.insert("start_picture".into(), "pics/a.svg".into());
        let moved = super::Generator {
            entry,
            base: g.base.clone(),
        }
        .entry_in(Path::new("/elsewhere"));
        assert_eq!(
            moved["start_picture"]
                .as_str()
                .map(std::path::PathBuf::from),
            Some(g.base.join("pics/a.svg"))
        );
        assert_eq!(moved["shapes"], g.entry["shapes"], "built-in names stay");
    }

    #[test]
    fn a_generator_page_changed_moved_or_removed_makes_it_single_pages() {
        let dir = tempfile::tempdir().unwrap();
        let (mut app, path) = opened(dir.path());
        let designs: Vec<_> = app
            .book
            .list
            .pages
            .iter()
            .map(|p| p.design.clone())
            .collect();
        // put back unchanged: still a generator
        app.apply(Command::Book(BookCommand::Edit(2)), None);
        app.apply(Command::Book(BookCommand::PutBack), None);
        assert_eq!(app.book.list.generators.len(), 1, "{:?}", app.message);
        // changed: its three pages are single pages, each the design it made, and it says so
        app.apply(Command::Book(BookCommand::Edit(2)), None);
        crate::app::tests::settle(&mut app);
        let mut d = app.design().clone();
        d.walls_mut().unwrap().braid = 0.4;
        crate::app::tests::edit(&mut app, d.clone());
        crate::app::tests::settle(&mut app);
        app.apply(Command::Book(BookCommand::PutBack), None);
        let msg = app.message.clone().unwrap().unwrap();
        assert!(msg.contains("3 single pages"), "{msg}");
        let list = &app.book.list;
        assert!(list.generators.is_empty());
        assert!(list.pages.iter().all(|p| p.generator.is_none()));
        let now: Vec<_> = list.pages.iter().map(|p| p.design.clone()).collect();
        let mut want = designs.clone();
        want[2] = d;
        assert_eq!(now, want);
        let text = save(&mut app, &dir.path().join("split.toml"));
        assert!(!text.contains("count = 3"), "{text}");
        assert_eq!(text.matches("[[pages]]").count(), 5);

        // removed, or a page moved into its run: the same
        for cmd in [
            BookCommand::Remove(3),
            BookCommand::MoveDown(0),
            BookCommand::MoveUp(1),
        ] {
            let (mut app, _) = opened(dir.path());
            app.apply(Command::Book(cmd.clone()), None);
            assert!(app.book.list.generators.is_empty(), "{cmd:?}");
            assert!(
                matches!(&app.message, Some(Ok(m)) if m.contains("single page")),
                "{cmd:?}: {:?}",
                app.message
            );
        }
        // moves past either end change nothing: it stays whole
        let (mut app, _) = opened(dir.path());
        app.apply(Command::Book(BookCommand::MoveUp(0)), None);
        app.apply(Command::Book(BookCommand::MoveDown(4)), None);
        assert_eq!(app.book.list.generators.len(), 1, "moves that do nothing");
        let text = save(&mut app, &path);
        assert_eq!(text.matches("count = 3").count(), 1, "{text}");
    }
}
