//! The book list: designs collected into a puzzle book, saved as the
//! book file `hedge batch` reads, and exported as the same `book.pdf`.
//!
//! The list is a [`BookList`]: the book settings ([`crate::book::Settings`], the `[book]` table)
//! and one design per puzzle, each a `[[pages]]` entry with its design inline, or the pages of
//! a generator entry kept as it was read (`count = N`; see `book_file.rs`), so the list is a
//! book file ([`BookList::book_file`]). Saving checks that text with [`crate::book::parse`];
//! exporting parses it the same way and makes the book with [`crate::book::build`] as a
//! background [`Task`] (the window shows the steps done), then writes `book.pdf` atomically: the bytes
//! `hedge batch` writes for the saved file. The list is kept between runs (as that text, in
//! eframe's storage, [`BookList::to_toml`]) and is not part of undo; an error never changes it.
//! Opening and saving book files are file tasks ([`super::files`]).

use std::path::{Path, PathBuf};
use std::time::Duration;

use egui::{ComboBox, RichText, Slider};

use super::task::{Control, Task};
use super::{Command, DialogRequest, HedgeApp};
use crate::book::{Answers, Settings};
use crate::design::Design;
use crate::shape::ShapeSource;

/// The storage key of the book list (book-file TOML text).
pub const BOOK_KEY: &str = "book";

pub use super::book_file::{BookList, Page};

/// What the book window asks for; applied with the other [`Command`]s.
#[derive(Clone, Debug, PartialEq)]
pub enum BookCommand {
    /// Show or hide the book window.
    Show(bool),
    /// Add the current design (with its seed) as the last page.
    AddCurrent,
    /// Move page `i` (from 0) one place up.
    MoveUp(usize),
    /// Move page `i` one place down.
    MoveDown(usize),
    /// Take page `i` out of the book.
    Remove(usize),
    /// Open page `i`'s design in the editor (one undo step), to change and put back.
    Edit(usize),
    /// Put the design in the editor back as the page being edited ([`BookCommand::Edit`]).
    PutBack,
    /// Replace the book settings.
    Settings(Box<Settings>),
    /// Read a book file into the list (a generator's pages listed one by one).
    Open(PathBuf),
    /// Write the list as a book file.
    Save(PathBuf),
    /// Make the book and write its PDF (on a thread; see [`BookPanel::progress`]).
    Export(PathBuf),
    /// Ask where to open a book from, then open it.
    OpenDialog,
    /// Ask where to save the book file, then save it.
    SaveDialog,
    /// Ask where to write the book's PDF, then export it.
    ExportDialog,
}

/// A book export running in the background: its progress is (steps done, steps in all).
struct Export {
    path: PathBuf,
    task: Task<std::result::Result<Exported, String>, (usize, usize)>,
}

/// What a book export gives back: the status line, and the preflight of the book as written.
struct Exported {
    message: String,
    preflight: String,
}

/// The book list and its window.
#[derive(Default)]
pub struct BookPanel {
    /// The book.
    pub list: BookList,
    /// Whether the window is shown.
    pub open: bool,
    export: Option<Export>,
    /// The page whose design the editor holds since "Edit" (from 0), until it is put back.
    pub editing: Option<usize>,
    /// The preflight of the book last exported (the status line, then a line per check), as
    /// `hedge batch` prints it.
    pub preflight: Option<String>,
    /// The book file last saved or opened, with the text it holds: while the list is unchanged,
    /// an export is dated like `hedge batch` dates that file, so both make the same bytes.
    pub(super) file: Option<(PathBuf, String)>,
}

impl BookPanel {
    /// The panel for a list kept from the last run.
    pub fn new(list: BookList) -> BookPanel {
        BookPanel {
            list,
            ..BookPanel::default()
        }
    }

    /// Whether a book export is running.
    pub fn exporting(&self) -> bool {
        self.export.is_some()
    }

    /// The running export's steps done and steps in all (0 of 0 until it has counted them).
    pub fn progress(&self) -> Option<(usize, usize)> {
        self.export
            .as_ref()
            .map(|e| e.task.progress().unwrap_or((0, 0)))
    }
}

/// How a page is listed: its title (or its shape), topology, size and seed.
pub fn page_label(d: &Design) -> String {
    let name = d.page.title.clone().unwrap_or_else(|| match &d.shape {
        None => "no shape".into(),
        Some(ShapeSource::Builtin(n)) => n.clone(),
        Some(ShapeSource::File(p)) => p
            .file_name()
            .map_or_else(|| p.display().to_string(), |n| n.to_string_lossy().into()),
        Some(s @ ShapeSource::Text { .. }) => s.to_string(),
    });
    let size = d.grid_topology().size_label(d.width, d.height);
    let seed = d
        .seed
        .map_or_else(|| "no seed".into(), |s| format!("seed {s}"));
    format!("{name} · {} {size} · {seed}", d.grid_topology().name())
}

/// Makes the book `text` (a book file) describes, dated `date` (seconds since 1970), and writes
/// its PDF to `path`. File paths in the text are relative to `path`'s folder.
fn export_book(
    text: &str,
    path: &Path,
    date: i64,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> std::result::Result<Exported, String> {
    let base = path.parent().unwrap_or(Path::new(""));
    let mut book = crate::book::parse(text, base, &crate::io::Files).map_err(|e| e.to_string())?;
    book.date = Some(date);
    let built =
        crate::book::build(&book, &crate::io::Files, progress).map_err(|e| e.to_string())?;
    let pdf = built
        .files
        .iter()
        .find(|f| f.path == Path::new("book.pdf"))
        .ok_or("the book has no PDF")?;
    // with answers = "separate", the answers beside it as NAME-answers.pdf, both or neither
    let made = |e: crate::error::Error| format!("cannot make the book's PDF: {e}");
    let mut files = vec![(path.to_path_buf(), pdf.body.to_bytes().map_err(made)?)];
    if let Some(answers) = built
        .files
        .iter()
        .find(|f| f.path == Path::new(crate::book::ANSWERS_PDF))
    {
        let stem = path.file_stem().unwrap_or_default().to_string_lossy();
        files.push((
            path.with_file_name(format!("{stem}-answers.pdf")),
            answers.body.to_bytes().map_err(made)?,
        ));
    }
    let files: Vec<(PathBuf, &[u8])> = files.iter().map(|(p, b)| (p.clone(), &b[..])).collect();
    crate::io::write_set(&files).map_err(|e| e.to_string())?;
    let names: Vec<String> = files.iter().map(|(p, _)| p.display().to_string()).collect();
    let mut msg = format!(
        "exported {} ({} puzzles, {} pages) · {}",
        names.join(" and "),
        built.puzzles,
        built.pages,
        built.preflight.status()
    );
    if let Some(w) = built.warnings.first() {
        msg += &format!("; print warnings: {w}");
        if built.warnings.len() > 1 {
            msg += &format!(" (and {} more)", built.warnings.len() - 1);
        }
    }
    Ok(Exported {
        message: msg,
        preflight: built.preflight.block(),
    })
}

impl HedgeApp {
    /// Applies one book command.
    pub(super) fn apply_book(&mut self, cmd: BookCommand) {
        match cmd {
            BookCommand::Show(open) => self.book.open = open,
            BookCommand::AddCurrent => self.message = Some(self.add_current()),
            BookCommand::MoveUp(i) => {
                if i > 0 && i < self.book.list.pages.len() {
                    self.book.list.pages.swap(i - 1, i);
                    self.book.editing = self.book.editing.map(|e| swapped(e, i - 1, i));
                    self.generators_changed();
                }
            }
            BookCommand::MoveDown(i) => {
                if i + 1 < self.book.list.pages.len() {
                    self.book.list.pages.swap(i, i + 1);
                    self.book.editing = self.book.editing.map(|e| swapped(e, i, i + 1));
                    self.generators_changed();
                }
            }
            BookCommand::Remove(i) => {
                if i < self.book.list.pages.len() {
                    self.book.list.pages.remove(i);
                    self.book.editing = match self.book.editing {
                        Some(e) if e == i => None,
                        Some(e) if e > i => Some(e - 1),
                        e => e,
                    };
                    self.generators_changed();
                }
            }
            BookCommand::Edit(i) => {
                if let Some(p) = self.book.list.pages.get(i) {
                    let d = p.design.clone();
                    self.set_design(d, false);
                    self.book.editing = Some(i);
                    self.message = Some(Ok(format!(
                        "editing page {}: change it, then \"Put back in page {}\"",
                        i + 1,
                        i + 1
                    )));
                }
            }
            BookCommand::PutBack => self.message = Some(self.put_back()),
            BookCommand::Settings(s) => self.book.list.settings = *s,
            BookCommand::Open(path) => self.open_book(&path),
            BookCommand::Save(path) => self.save_book(&path),
            BookCommand::Export(path) => {
                if let Err(e) = self.start_export(path) {
                    self.message = Some(Err(e));
                }
            }
            BookCommand::OpenDialog => self.choose(DialogRequest::OpenBook, None),
            BookCommand::SaveDialog => self.choose(DialogRequest::SaveBook, None),
            BookCommand::ExportDialog => self.choose(DialogRequest::ExportBook, None),
        }
    }

    /// Why the current design cannot be added to the book, if it cannot.
    pub fn not_for_book(&self) -> Option<String> {
        if let Some(e) = self.error() {
            return Some(format!("the design makes no maze: {e}"));
        }
        let d = self.design();
        self.book
            .list
            .pages
            .iter()
            .position(|p| p.design.shape == d.shape && p.design.seed == d.seed)
            .map(|i| {
                format!(
                    "page {} has the same shape and seed; a book needs a new seed for another \
                     maze of it (New seed)",
                    i + 1
                )
            })
    }

    fn add_current(&mut self) -> std::result::Result<String, String> {
        if let Some(why) = self.not_for_book() {
            return Err(why);
        }
        let mut d = self.design().clone();
        // a file shape's path as the book needs it wherever the book file is saved
        if let Some(ShapeSource::File(p)) = &mut d.shape {
            if p.is_relative()
                && let Some(base) = self.base_dir()
            {
                *p = base.join(&*p);
            }
            if let Ok(abs) = std::path::absolute(&*p) {
                *p = abs;
            }
        }
        let label = page_label(&d);
        self.book.list.pages.push(Page::single(d));
        Ok(format!(
            "added page {} to the book: {label}",
            self.book.list.pages.len()
        ))
    }

    /// Puts the editor's design back as the page being edited.
    fn put_back(&mut self) -> std::result::Result<String, String> {
        let Some(i) = self.book.editing else {
            return Err("no page is being edited: click \"Edit\" beside a page first".into());
        };
        if let Some(e) = self.error() {
            return Err(format!("the design makes no maze: {e}"));
        }
        let Some(page) = self.book.list.pages.get_mut(i) else {
            return Err("that page is no longer in the book".into());
        };
        let changed = page.design != *self.doc.design();
        page.design = self.doc.design().clone();
        let generator = page.generator.filter(|_| changed).map(|(g, _)| g);
        self.book.editing = None;
        let mut msg = format!("page {} is the design in the editor now", i + 1);
        // a generator cannot hold one changed page: its pages become pages of their own
        if let Some(line) = generator.and_then(|g| self.book.list.split([g])) {
            msg += &format!("; {line}");
        }
        Ok(msg)
    }

    /// After the pages moved or one went: a generator no longer whole becomes single pages,
    /// and the status line says so.
    fn generators_changed(&mut self) {
        if let Some(line) = self.book.list.keep_generators_whole() {
            self.message = Some(Ok(line));
        }
    }

    fn start_export(&mut self, path: PathBuf) -> std::result::Result<(), String> {
        if self.book.exporting() {
            return Err("a book is being exported already; wait for it to finish".into());
        }
        if self.book.list.pages.is_empty() {
            return Err("the book has no pages: add designs with \"Add current design\"".into());
        }
        let folder = super::book_file::folder(&path);
        let text = self.book.list.book_file(&folder);
        // dated as `hedge batch` dates the saved book file when the list is what it holds
        let file = self
            .book
            .file
            .as_ref()
            .filter(|(p, saved)| self.book.list.book_file(&super::book_file::folder(p)) == *saved)
            .map(|(p, _)| p.clone());
        let task = self.work.tasks().spawn("making the book", {
            let path = path.clone();
            move |c: &Control<(usize, usize)>| {
                // the file's date is read here, off the UI thread
                let date = crate::io::source_date(file.as_deref()).map_err(|e| e.to_string())?;
                export_book(&text, &path, date, &|d, t| c.report((d, t)))
            }
        });
        self.book.export = Some(Export { path, task });
        self.message = None;
        // an inline export (tests) has finished already
        self.poll_book();
        Ok(())
    }

    /// Picks up the finished book export, if any (called every frame).
    pub fn poll_book(&mut self) {
        let Some(e) = &self.book.export else { return };
        let Some(r) = e.task.poll() else { return };
        self.book_done(r);
    }

    /// Blocks until the running book export (if any) has finished and shows its outcome (the
    /// app's `finish_tasks` test hook).
    pub(super) fn wait_book(&mut self) {
        if let Some(e) = &self.book.export {
            let r = e.task.wait();
            self.book_done(r);
        }
    }

    fn book_done(&mut self, r: std::result::Result<std::result::Result<Exported, String>, String>) {
        let Some(e) = self.book.export.take() else {
            return;
        };
        // a panic's line gets the path, as the export's own errors have it
        let r = r.unwrap_or_else(|panic| Err(format!("{panic}: {}", e.path.display())));
        self.message = Some(r.map(|done| {
            self.book.preflight = Some(done.preflight);
            done.message
        }));
    }
}

/// The Book menu.
pub fn menu(app: &mut HedgeApp, ui: &mut egui::Ui) {
    let mut open = app.book.open;
    if ui.checkbox(&mut open, "Book list").clicked() {
        app.pending.push(Command::Book(BookCommand::Show(open)));
    }
    let why = app.not_for_book();
    if ui
        .add_enabled(why.is_none(), egui::Button::new("Add current design"))
        .on_disabled_hover_text(why.unwrap_or_default())
        .clicked()
    {
        app.pending.push(Command::Book(BookCommand::AddCurrent));
        app.pending.push(Command::Book(BookCommand::Show(true)));
    }
    files(app, ui);
}

fn files(app: &mut HedgeApp, ui: &mut egui::Ui) {
    if ui.button("Open book...").clicked() {
        app.pending.push(Command::Book(BookCommand::OpenDialog));
    }
    let has_pages = !app.book.list.pages.is_empty();
    let none = "the book has no pages yet";
    if ui
        .add_enabled(has_pages, egui::Button::new("Save book..."))
        .on_hover_text("the book file (TOML) hedge batch reads")
        .on_disabled_hover_text(none)
        .clicked()
    {
        app.pending.push(Command::Book(BookCommand::SaveDialog));
    }
    if ui
        .add_enabled(
            has_pages && !app.book.exporting(),
            egui::Button::new("Export book PDF..."),
        )
        .on_hover_text("the book.pdf hedge batch makes: title page, puzzles, answer keys")
        .on_disabled_hover_text(if has_pages {
            "a book is being exported"
        } else {
            none
        })
        .clicked()
    {
        app.pending.push(Command::Book(BookCommand::ExportDialog));
    }
}

/// Polls the book export and shows the book window when it is open. Called every frame.
pub fn show(app: &mut HedgeApp, ui: &mut egui::Ui) {
    app.poll_book();
    if app.book.exporting() || app.work.page_thumbs().busy() {
        ui.ctx().request_repaint_after(Duration::from_millis(100));
    }
    if !app.book.open {
        return;
    }
    // docked beside the preview, never over it
    let mut open = true;
    egui::Panel::right("book")
        .resizable(true)
        .default_size(320.0)
        .size_range(220.0..=520.0)
        .show(ui, |ui| {
            ui.horizontal(|ui| {
                ui.heading("Book");
                if ui
                    .small_button("×")
                    .on_hover_text("close the book list (Book > Book list opens it)")
                    .clicked()
                {
                    open = false;
                }
            });
            egui::ScrollArea::vertical()
                .id_salt("book list")
                .show(ui, |ui| contents(app, ui));
        });
    if !open {
        app.pending.push(Command::Book(BookCommand::Show(false)));
    }
}

fn contents(app: &mut HedgeApp, ui: &mut egui::Ui) {
    let why = app.not_for_book();
    if ui
        .add_enabled(why.is_none(), egui::Button::new("Add current design"))
        .on_hover_text("the design as it is now, seed included, as the last page")
        .on_disabled_hover_text(why.unwrap_or_default())
        .clicked()
    {
        app.pending.push(Command::Book(BookCommand::AddCurrent));
    }
    let pages = &app.book.list.pages;
    ui.label(format!(
        "{} puzzle{}",
        pages.len(),
        if pages.len() == 1 { "" } else { "s" }
    ));
    if pages.is_empty() {
        ui.label(RichText::new("no pages yet: make a maze, then \"Add current design\"").weak());
    }
    let n = pages.len();
    let designs: Vec<&Design> = app.book.list.pages.iter().map(|p| &p.design).collect();
    app.work.page_thumbs_mut().poll(ui.ctx(), &designs);
    egui::ScrollArea::vertical()
        .max_height(260.0)
        .show(ui, |ui| {
            for (i, p) in app.book.list.pages.iter().enumerate() {
                ui.horizontal(|ui| {
                    match app.work.page_thumbs().get(&p.design) {
                        Some(t) => {
                            let [w, h] = t.size();
                            ui.image((t.id(), egui::vec2(w as f32, h as f32)))
                                .on_hover_text("the puzzle page, as the book prints it");
                        }
                        None => {
                            let w = super::page_thumbs::WIDTH as f32;
                            ui.allocate_space(egui::vec2(w, w * 1.3));
                        }
                    }
                    if ui
                        .add_enabled(i > 0, egui::Button::new("Up").small())
                        .clicked()
                    {
                        app.pending.push(Command::Book(BookCommand::MoveUp(i)));
                    }
                    if ui
                        .add_enabled(i + 1 < n, egui::Button::new("Down").small())
                        .clicked()
                    {
                        app.pending.push(Command::Book(BookCommand::MoveDown(i)));
                    }
                    if ui.add(egui::Button::new("Remove").small()).clicked() {
                        app.pending.push(Command::Book(BookCommand::Remove(i)));
                    }
                    if ui
                        .add(egui::Button::new("Edit").small())
                        .on_hover_text("open this page's design in the editor")
                        .clicked()
                    {
                        app.pending.push(Command::Book(BookCommand::Edit(i)));
                    }
                    let mut label = format!("{}. {}", i + 1, page_label(&p.design));
                    if let Some((g, k)) = p.generator {
                        let n = app.book.list.generators[g].count();
                        label += &format!(" · generator page {} of {n}", k + 1);
                    }
                    if app.book.editing == Some(i) {
                        ui.label(RichText::new(format!("{label} (editing)")).strong());
                    } else {
                        ui.label(label);
                    }
                });
            }
        });
    if let Some(i) = app.book.editing
        && ui
            .button(format!("Put back in page {}", i + 1))
            .on_hover_text("the design in the editor replaces the page's")
            .clicked()
    {
        app.pending.push(Command::Book(BookCommand::PutBack));
    }
    ui.separator();
    let mut s = app.book.list.settings.clone();
    settings(ui, &mut s);
    if s != app.book.list.settings {
        app.pending
            .push(Command::Book(BookCommand::Settings(Box::new(s))));
    }
    ui.separator();
    ui.horizontal_wrapped(|ui| files(app, ui));
    if let Some(block) = &app.book.preflight {
        let mut lines = block.lines();
        let status = lines.next().unwrap_or_default();
        egui::CollapsingHeader::new(format!("Last export: {status}"))
            .id_salt("book preflight")
            .show(ui, |ui| {
                for line in lines {
                    ui.label(RichText::new(line).monospace().small());
                }
            });
    }
    if let Some((done, total)) = app.book.progress() {
        let secs = app
            .book
            .export
            .as_ref()
            .map_or(0.0, |e| e.task.elapsed().as_secs_f64());
        ui.horizontal(|ui| {
            ui.spinner();
            ui.label(if total == 0 {
                format!("making the book... {secs:.0} s")
            } else {
                format!("making the book: {done} of {total} steps, {secs:.0} s")
            });
        });
    }
}

/// Where page `e` is after pages `a` and `b` swap places.
fn swapped(e: usize, a: usize, b: usize) -> usize {
    if e == a {
        b
    } else if e == b {
        a
    } else {
        e
    }
}

/// The paper sizes a book can be trimmed to, by name.
const TRIMS: [crate::page::Paper; 5] = super::PAPERS;

fn answers_name(a: Answers) -> &'static str {
    match a {
        Answers::AfterEach => "after each puzzle",
        Answers::AtBack => "at the back",
        Answers::Separate => "in a separate file",
    }
}

fn settings(ui: &mut egui::Ui, s: &mut Settings) {
    let label = ui.label("Book title");
    let mut title = s.title.clone().unwrap_or_default();
    let r = ui
        .add(
            egui::TextEdit::singleline(&mut title)
                .hint_text("on the title page and in the PDF")
                .desired_width(f32::INFINITY),
        )
        .labelled_by(label.id);
    if r.changed() {
        s.title = (!title.trim().is_empty()).then_some(title);
    }
    ui.checkbox(&mut s.title_page, "Title page")
        .on_hover_text("the book starts with a page showing the title");
    ComboBox::from_label("Answer keys")
        .selected_text(answers_name(s.answers))
        .show_ui(ui, |ui| {
            for a in [Answers::AtBack, Answers::AfterEach, Answers::Separate] {
                ui.selectable_value(&mut s.answers, a, answers_name(a));
            }
        });
    ui.add_enabled(
        s.answers.on_answer_pages(),
        Slider::new(&mut s.keys_per_page, 1..=9).text("Keys per page"),
    )
    .on_disabled_hover_text("with the keys after each puzzle, each key has a page");
    let custom = !TRIMS.contains(&s.trim);
    ComboBox::from_label("Trim")
        .selected_text(s.trim.name())
        .show_ui(ui, |ui| {
            for p in TRIMS {
                ui.selectable_value(&mut s.trim, p, p.name());
            }
            if custom {
                ui.label(RichText::new(s.trim.name()).weak());
            }
        })
        .response
        .on_hover_text("the book's page size");
    ComboBox::from_label("Book font")
        .selected_text(s.font.label())
        .show_ui(ui, |ui| {
            for f in crate::page::Typeface::ALL {
                ui.selectable_value(&mut s.font, f, f.label());
            }
        })
        .response
        .on_hover_text("the typeface of every text in the book");
    book_language(ui, s);
}

/// The book's language: its own words (START and FINISH, the front matter, the puzzle labels,
/// the answers' heading). A label or heading left at one language's words takes the new
/// language's, as a book file's do. A book whose strings file sets its words keeps them: its
/// language is changed in the book file.
fn book_language(ui: &mut egui::Ui, s: &mut Settings) {
    let current = s
        .lang
        .clone()
        .unwrap_or_else(|| crate::lang::DEFAULT.into());
    let mut chosen = current.clone();
    ui.add_enabled_ui(s.strings.is_none(), |ui| {
        ComboBox::from_label("Book language")
            .selected_text(crate::lang::native_name(&current))
            .show_ui(ui, |ui| {
                for code in crate::lang::CODES {
                    if !crate::lang::RIGHT_TO_LEFT.contains(&code) {
                        ui.selectable_value(
                            &mut chosen,
                            code.to_string(),
                            crate::lang::native_name(code),
                        );
                    }
                }
            })
            .response
            .on_hover_text("the language of the book's own words (lang in the book file)")
            .on_disabled_hover_text(
                "the book's strings file sets its words (strings in the book file)",
            );
    });
    if chosen != current {
        let (old, new) = (
            crate::lang::Words::builtin(&current),
            crate::lang::Words::builtin(&chosen),
        );
        if s.label == old.get("puzzle") {
            s.label = new.get("puzzle").to_string();
        }
        if s.answers_heading == old.get("answers") {
            s.answers_heading = new.get("answers").to_string();
        }
        s.lang = (chosen != crate::lang::DEFAULT).then_some(chosen);
        s.words = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::Persisted;
    use crate::app::tests::settle;
    use crate::design::Style;

    fn add(app: &mut HedgeApp, seed: u64) {
        let mut d = app.design().clone();
        d.seed = Some(seed);
        app.apply(
            Command::Edit {
                design: Box::new(d),
                coalesce: false,
            },
            None,
        );
        app.apply(Command::Book(BookCommand::AddCurrent), None);
        assert!(matches!(&app.message, Some(Ok(_))), "{:?}", app.message);
    }

    fn export(app: &mut HedgeApp, path: &Path) {
        app.apply(Command::Book(BookCommand::Export(path.to_path_buf())), None);
        app.finish_tasks();
        assert!(!app.book.exporting());
        // the book's preflight, as hedge batch prints it, for the panel
        if matches!(&app.message, Some(Ok(_))) {
            let p = app.book.preflight.as_deref().expect("a preflight");
            assert!(p.starts_with("preflight: "), "{p}");
            assert!(p.lines().count() > 1, "{p}");
            assert!(
                app.message
                    .as_ref()
                    .unwrap()
                    .as_ref()
                    .unwrap()
                    .contains("preflight: ")
            );
        }
    }

    #[test]
    fn a_book_list_is_a_book_file_that_batch_reads() {
        let mut app = HedgeApp::headless(Persisted::default());
        add(&mut app, 11);
        // the same shape and seed twice: refused, the list unchanged
        app.apply(Command::Book(BookCommand::AddCurrent), None);
        assert!(
            matches!(&app.message, Some(Err(e)) if e.contains("page 1")),
            "{:?}",
            app.message
        );
        assert_eq!(app.book.list.pages.len(), 1);
        app.apply(
            Command::SetShape(Some(ShapeSource::Builtin("fish".into()))),
            None,
        );
        add(&mut app, 12);
        app.book.list.settings.title = Some("Fish".into());
        let text = app.book.list.to_toml();
        assert_eq!(BookList::from_toml(&text).unwrap(), app.book.list);
        let book = crate::book::parse(&text, Path::new("."), &crate::io::Files).unwrap();
        let designs: Vec<&Design> = book.puzzles.iter().map(|p| &p.design).collect();
        let want: Vec<&Design> = app.book.list.pages.iter().map(|p| &p.design).collect();
        assert_eq!(designs, want);
        assert!(book.puzzles.iter().all(|p| !p.fit_height));
        // and an empty list is still a list (kept between runs), but not a book
        assert_eq!(
            BookList::from_toml(&BookList::default().to_toml()).unwrap(),
            BookList::default()
        );
    }

    #[test]
    fn a_page_is_edited_in_the_editor_and_put_back() {
        let mut app = HedgeApp::headless(Persisted::default());
        add(&mut app, 5);
        add(&mut app, 6);
        add(&mut app, 7);
        let second = app.book.list.pages[1].design.clone();
        // put back with nothing edited: a message, the list stays
        let before = app.book.list.clone();
        app.apply(Command::Book(BookCommand::PutBack), None);
        assert!(matches!(&app.message, Some(Err(e)) if e.contains("Edit")));
        assert_eq!(app.book.list, before);
        // page 2 opens in the editor, one undo step
        app.apply(Command::Book(BookCommand::Edit(1)), None);
        settle(&mut app);
        assert_eq!(*app.design(), second);
        assert_eq!(app.book.editing, Some(1));
        // changed, and the page moved up meanwhile: it follows
        let mut d = app.design().clone();
        d.walls_mut().unwrap().braid = 0.3;
        crate::app::tests::edit(&mut app, d.clone());
        settle(&mut app);
        app.apply(Command::Book(BookCommand::MoveUp(1)), None);
        assert_eq!(app.book.editing, Some(0));
        app.apply(Command::Book(BookCommand::PutBack), None);
        assert!(app.message.as_ref().unwrap().is_ok(), "{:?}", app.message);
        assert_eq!(app.book.list.pages[0].design, d);
        assert_eq!(app.book.list.pages.len(), 3);
        assert_eq!(app.book.editing, None);
        // a removed page is no longer edited
        app.apply(Command::Book(BookCommand::Edit(2)), None);
        app.apply(Command::Book(BookCommand::Remove(2)), None);
        assert_eq!(app.book.editing, None);
    }

    #[test]
    fn tile_designs_go_in_and_errors_leave_the_list_alone() {
        let mut app = HedgeApp::headless(Persisted::default());
        add(&mut app, 5);
        let mut d = app.design().clone();
        d.set_style(Style::Tiles);
        d.seed = Some(6);
        app.apply(
            Command::Edit {
                design: Box::new(d),
                coalesce: false,
            },
            None,
        );
        app.apply(Command::Book(BookCommand::AddCurrent), None);
        assert_eq!(app.book.list.pages.len(), 2, "{:?}", app.message);
        assert_eq!(app.book.list.pages[1].design.style(), Style::Tiles);
        let before = app.book.list.clone();
        app.apply(
            Command::Book(BookCommand::Open("/no/such/book.toml".into())),
            None,
        );
        app.finish_tasks();
        assert!(matches!(&app.message, Some(Err(e)) if e.contains("/no/such/book.toml")));
        app.apply(
            Command::Book(BookCommand::Save("/no/such/dir/b.toml".into())),
            None,
        );
        app.finish_tasks();
        assert!(matches!(&app.message, Some(Err(e)) if e.contains("/no/such/dir")));
        export(&mut app, Path::new("/no/such/dir/book.pdf"));
        assert!(
            matches!(&app.message, Some(Err(e)) if e.contains("/no/such/dir")),
            "{:?}",
            app.message
        );
        assert_eq!(app.book.list, before);
        // moving past either end does nothing
        app.apply(Command::Book(BookCommand::MoveUp(0)), None);
        app.apply(Command::Book(BookCommand::MoveDown(1)), None);
        app.apply(Command::Book(BookCommand::Remove(3)), None);
        assert_eq!(app.book.list, before);
    }

    #[test]
    fn opening_a_book_with_a_generator_lists_its_pages_as_made() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("gen.toml");
        std::fs::write(
            &path,
            "[book]\ntitle = \"Gen\"\nanswers = \"after-each\"\n\
             [[pages]]\ncount = 3\nshapes = [\"heart\"]\nseed_from = 40\nwidth = \"10..14\"\n",
        )
        .unwrap();
        let mut app = HedgeApp::headless(Persisted::default());
        app.apply(Command::Book(BookCommand::Open(path.clone())), None);
        app.finish_tasks();
        assert!(matches!(&app.message, Some(Ok(_))), "{:?}", app.message);
        let list = app.book.list.clone();
        assert_eq!(list.pages.len(), 3);
        assert_eq!(list.settings.answers, Answers::AfterEach);
        // the heights were fitted as the book fits them: the list makes the same PDF
        let a = dir.path().join("a.pdf");
        let b = dir.path().join("b.pdf");
        export(&mut app, &a);
        assert!(matches!(&app.message, Some(Ok(m)) if m.contains("6 pages")));
        // dated as `hedge batch` dates the book file it was opened from
        let mut book = crate::book::load(&path, &crate::io::Files).unwrap();
        book.date = Some(crate::io::source_date(Some(&path)).unwrap());
        let built = crate::book::build(&book, &crate::io::Files, &|_, _| {}).unwrap();
        std::fs::write(&b, built.files[0].body.to_bytes().unwrap()).unwrap();
        assert!(std::fs::read(&a).unwrap() == std::fs::read(&b).unwrap());
    }
}
