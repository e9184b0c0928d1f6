//! The editor's file work, off the UI thread: opening and saving design files and book files,
//! reading the start and finish pictures, and the autosave run as background [`Task`]s, one at a
//! time in the order asked for (a save asked for after another lands after it). The UI asks
//! with [`FileTasks::start`]; each frame picks up what finished ([`FileTasks::poll`]) and applies
//! it ([`HedgeApp::file_done`]): the design opened, the saved state, the status line. The task
//! bar at the foot of the window says what is being read or written meanwhile. A failed read or
//! write is the usual one-line error and changes nothing; saves are atomic, as before.

use std::collections::VecDeque;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::HedgeApp;
use super::book_file::{OpenedBook, folder, read_book};
use super::task::{Control, Spawner, Task};
use crate::design::Design;
use crate::picture::Picture;

/// The pictures a design's page and maze draw, as read: the start and finish pictures (`None`:
/// the words, or the theme's), the items' pictures of your own (`None`: built-in pictures by
/// name) and the bytes of the picture file to reveal.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Pictures {
    ends: Option<Arc<[Picture; 2]>>,
    items: Option<Arc<[crate::picture::Art]>>,
    reveal: Option<Arc<[u8]>>,
}

impl Pictures {
    /// Reads the pictures `d` names (paths as given: [`Ends::of`]).
    fn read(d: &Design) -> Result<Pictures, String> {
        let files = &crate::io::Files;
        let mut read = d.clone();
        if let Some(w) = read.walls_mut() {
            w.reveal_file = None;
        }
        crate::load::read_reveal_file(files, &mut read).map_err(|e| e.to_string())?;
        Ok(Pictures {
            ends: crate::load::page_pictures(files, &d.page).map_err(|e| e.to_string())?,
            items: crate::load::item_pictures(files, d, None).map_err(|e| e.to_string())?,
            reveal: read.walls().reveal_file.clone(),
        })
    }

    /// The pictures `d` holds.
    fn of(d: &Design) -> Pictures {
        Pictures {
            ends: d.page.pictures.clone(),
            items: d.walls().item_art.clone(),
            reveal: d.walls().reveal_file.clone(),
        }
    }

    /// Gives `d` these pictures.
    fn give(&self, d: &mut Design) {
        d.page.pictures.clone_from(&self.ends);
        if let Some(w) = d.walls_mut() {
            w.item_art.clone_from(&self.items);
            w.reveal_file.clone_from(&self.reveal);
        }
    }
}

/// What a design's pictures are read from: its page's start and finish files and theme
/// (which stands in for a file not given), its items' names when it collects items and names
/// a file of its own, and its picture file to reveal.
#[derive(Clone, Debug, PartialEq)]
pub struct Ends {
    start: Option<PathBuf>,
    finish: Option<PathBuf>,
    theme: Option<String>,
    items: Vec<String>,
    reveal: Option<PathBuf>,
}

impl Ends {
    /// The ends of `d`'s page, and its items of its own.
    pub fn of(d: &Design) -> Ends {
        let w = d.walls();
        let own = w.collect > 0 && w.items.iter().any(|n| crate::items::is_file(n));
        Ends {
            start: d.page.start_picture.clone(),
            finish: d.page.finish_picture.clone(),
            theme: d.page.theme.clone(),
            items: if own { w.items.clone() } else { Vec::new() },
            reveal: match &w.reveal {
                Some(crate::shape::ShapeSource::File(p)) => Some(p.clone()),
                _ => None,
            },
        }
    }

    /// Whether reading them reads a file.
    fn files(&self) -> bool {
        self.start.is_some()
            || self.finish.is_some()
            || !self.items.is_empty()
            || self.reveal.is_some()
    }
}

/// What a file task does (the task bar's line names it).
#[derive(Clone, Debug, PartialEq)]
pub enum Doing {
    /// Reading a design file.
    OpenDesign(PathBuf),
    /// Writing the design file.
    SaveDesign(PathBuf),
    /// Reading a book file and making its pages' designs.
    OpenBook(PathBuf),
    /// Writing the book file.
    SaveBook(PathBuf),
    /// Reading the start and finish pictures.
    Pictures,
    /// Writing the autosave file.
    Autosave,
}

impl Doing {
    /// The task bar's line, if the user waits for it (the autosave goes unmentioned), with
    /// the pages done of a book being opened.
    pub fn line(&self, step: Option<Step>) -> Option<String> {
        let name = |p: &Path| {
            p.file_name()
                .unwrap_or(p.as_os_str())
                .to_string_lossy()
                .into_owned()
        };
        Some(match self {
            Doing::OpenDesign(p) => format!("Opening {}...", name(p)),
            Doing::SaveDesign(p) => format!("Saving {}...", name(p)),
            Doing::OpenBook(p) => match step {
                Some((done, all)) => {
                    format!(
                        "Opening the book {}: {done} of {all} pages made...",
                        name(p)
                    )
                }
                None => format!("Opening the book {}...", name(p)),
            },
            Doing::SaveBook(p) => format!("Saving the book {}...", name(p)),
            Doing::Pictures => "Reading the pictures...".into(),
            Doing::Autosave => return None,
        })
    }
}

/// A design file as read: the design (its picture paths taken from the file's folder) and its
/// start and finish pictures (or why they could not be read).
pub struct Opened {
    design: Design,
    pictures: Result<Pictures, String>,
}

/// What a finished file task gives back.
pub enum Done {
    /// A design file was read (or not).
    Opened(PathBuf, Result<Box<Opened>, String>),
    /// The design was written (or not).
    Saved(PathBuf, Box<Design>, Result<(), String>),
    /// A book file was read (or not).
    BookOpened(PathBuf, Result<Box<OpenedBook>, String>),
    /// The book file was written with this text (or not).
    BookSaved(PathBuf, String, Result<(), String>),
    /// Pictures were read for these ends.
    Pictures(Ends, Result<Pictures, String>),
    /// The autosave file was written with this design (or not).
    Autosaved(Box<Design>, bool),
    /// The task stopped without an answer (a panic): what it was doing, and the line.
    Failed(Doing, String),
}

/// Where a file task has got to: (done, in all); a book being opened reports its pages.
pub type Step = (usize, usize);

type Job = Box<dyn FnOnce(&Control<Step>) -> Done + Send>;

/// The file tasks: the one running and those asked for after it, in order.
pub struct FileTasks {
    spawner: Spawner,
    running: Option<(Doing, Task<Done, Step>)>,
    queue: VecDeque<(Doing, Job)>,
    /// The start and finish pictures last read, and what they were read from.
    pictures_read: Option<(Ends, Result<Pictures, String>)>,
}

impl FileTasks {
    /// File tasks that `spawner` starts.
    pub fn new(spawner: Spawner) -> FileTasks {
        FileTasks {
            spawner,
            running: None,
            queue: VecDeque::new(),
            pictures_read: None,
        }
    }

    /// Queues `job` (it starts once the tasks asked for before it are done).
    pub fn start(
        &mut self,
        doing: Doing,
        job: impl FnOnce(&Control<Step>) -> Done + Send + 'static,
    ) {
        self.queue.push_back((doing, Box::new(job)));
        if self.running.is_none() {
            self.next();
        }
    }

    fn next(&mut self) {
        if let Some((doing, job)) = self.queue.pop_front() {
            let task = self
                .spawner
                .spawn("reading or writing a file", move |c: &Control<Step>| job(c));
            self.running = Some((doing, task));
        }
    }

    /// What finished since the last poll, in order (starting what waits).
    pub fn poll(&mut self) -> Vec<Done> {
        let mut done = Vec::new();
        while let Some((_, task)) = &self.running {
            let Some(r) = task.poll() else { break };
            let (doing, _) = self.running.take().expect("a running task");
            done.push(r.unwrap_or_else(|line| Done::Failed(doing, line)));
            self.next();
        }
        done
    }

    /// Blocks until every task asked for has finished; what they gave, in order (tests, and a
    /// closing window, whose saves must land).
    pub fn wait(&mut self) -> Vec<Done> {
        let mut done = Vec::new();
        while let Some((doing, task)) = self.running.take() {
            done.push(task.wait().unwrap_or_else(|line| Done::Failed(doing, line)));
            self.next();
        }
        done
    }

    /// Whether a task runs or waits.
    pub fn busy(&self) -> bool {
        self.running.is_some() || !self.queue.is_empty()
    }

    /// Whether a task doing `what` runs or waits.
    pub fn doing(&self, what: impl Fn(&Doing) -> bool) -> bool {
        self.running.iter().map(|(d, _)| d).any(&what) || self.queue.iter().any(|(d, _)| what(d))
    }

    /// The task bar's line of the task running, if the user waits for it.
    pub fn line(&self) -> Option<String> {
        self.running
            .as_ref()
            .and_then(|(d, t)| d.line(t.progress()))
    }

    /// Whether the task running can be cancelled (a book being opened: nothing is written).
    pub fn cancellable(&self) -> bool {
        self.running
            .as_ref()
            .is_some_and(|(d, t)| matches!(d, Doing::OpenBook(_)) && !t.is_cancelled())
    }

    /// Cancels the task running if it can be (see [`FileTasks::cancellable`]): it stops at its
    /// next page and changes nothing.
    pub fn cancel(&mut self) {
        if self.cancellable()
            && let Some((_, t)) = &self.running
        {
            t.cancel();
        }
    }
}

/// The name a design is saved under: `path` itself when it ends in `.toml`, with `.toml` added
/// when it has no extension; any other name is refused (a design is never written over a PDF,
/// a picture or an export), with what to do.
pub fn design_path(path: &Path) -> Result<PathBuf, String> {
    if path.file_name().is_none() {
        return Err(format!(
            "a design is saved as a file: name it, ending with .toml: {}",
            path.display()
        ));
    }
    match path.extension().and_then(|e| e.to_str()) {
        Some(e) if e.eq_ignore_ascii_case("toml") => Ok(path.to_path_buf()),
        None => Ok(path.with_extension("toml")),
        Some(_) => Err(format!(
            "a design is saved as a .toml file, never over another kind of file: end the name \
             with .toml: {}",
            path.display()
        )),
    }
}

/// Refuses to write a design over a file at `path` that is there and is not a design (unless
/// it is the design's own file, `own`).
fn not_over_another_file(path: &Path, own: Option<&Path>) -> Result<(), String> {
    if own == Some(path) {
        return Ok(());
    }
    match crate::io::read_text(path, "cannot read") {
        Ok(text) if crate::io::parse_design(&text).is_err() => Err(format!(
            "not saved: the file there is not a Hedge design, and is left as it was; choose \
             another name: {}",
            path.display()
        )),
        _ => Ok(()),
    }
}

/// Whether the TOML file at `path` is a book file (a `[book]` table or `pages`); a file that
/// cannot be read or parsed is not (opened as a design, its error says why).
fn is_book(path: &Path) -> bool {
    crate::io::read_text(path, "cannot read")
        .ok()
        .and_then(|t| t.parse::<toml::Table>().ok())
        .is_some_and(|t| t.contains_key("book") || t.contains_key("pages"))
}

/// Reads the design file at `path` and its pictures (a file task's job).
fn open_design(path: &Path) -> Result<Opened, String> {
    let mut d = crate::io::read_design(path).map_err(|e| e.to_string())?;
    // its pictures' paths are relative to it
    let dir = path.parent().unwrap_or(Path::new(""));
    d.page.resolve_pictures(dir);
    if let Some(w) = d.walls_mut() {
        w.resolve_items(dir);
    }
    // its page words: a strings file it names, read now (the page prints them)
    d.page.words = crate::load::page_words(&crate::io::Files, &d.page)
        .map_err(|e| e.to_string())?
        .0;
    let pictures = Pictures::read(&d);
    Ok(Opened {
        design: d,
        pictures,
    })
}

impl HedgeApp {
    /// Opens `path` as what it is: a picture becomes the shape; a `.toml` is read in the
    /// background as a book file when it has a `[book]` table or `pages` (the Book list shows
    /// it), else as a design; anything else as a design (a maze's JSON holds its design).
    pub(super) fn open_file(&mut self, path: PathBuf) {
        let ext = path
            .extension()
            .and_then(|e| e.to_str())
            .map(str::to_ascii_lowercase);
        match ext.as_deref() {
            Some("png" | "jpg" | "jpeg" | "gif" | "bmp" | "webp" | "svg") => self.apply(
                super::Command::SetShape(Some(crate::shape::ShapeSource::File(path))),
                None,
            ),
            Some("toml") => {
                self.work.files_mut().start(
                    Doing::OpenDesign(path.clone()),
                    move |c: &Control<Step>| {
                        if is_book(&path) {
                            let r = read_book(&path, c).map(Box::new);
                            Done::BookOpened(path, r)
                        } else {
                            let r = open_design(&path).map(Box::new);
                            Done::Opened(path, r)
                        }
                    },
                );
                self.message = None;
                self.poll_files();
            }
            _ => self.open_design(&path),
        }
    }

    /// Opens a design file in the background; the design changes once it is read.
    pub(super) fn open_design(&mut self, path: &Path) {
        let path = path.to_path_buf();
        self.work
            .files_mut()
            .start(Doing::OpenDesign(path.clone()), move |_: &Control<Step>| {
                let r = open_design(&path).map(Box::new);
                Done::Opened(path, r)
            });
        self.message = None;
        self.poll_files();
    }

    /// Saves the design as TOML in the background (atomically); once saved, `path` is the
    /// design's file and the design as it was when asked is the saved one. Only a design file
    /// is written ([`design_path`]); a file already there that is not a design (a book file, an
    /// export renamed) is not written over.
    pub(super) fn save_design(&mut self, path: &Path) {
        let path = match design_path(path) {
            Ok(p) => p,
            Err(e) => {
                self.close.save_failed();
                self.message = Some(Err(e));
                return;
            }
        };
        let design = self.doc.design().clone();
        let own = self.doc.file().map(Path::to_path_buf);
        self.work
            .files_mut()
            .start(Doing::SaveDesign(path.clone()), move |_: &Control<Step>| {
                let text = crate::io::design_to_toml(&design);
                let r = not_over_another_file(&path, own.as_deref()).and_then(|()| {
                    crate::io::write_atomic(&path, text.as_bytes()).map_err(|e| e.to_string())
                });
                Done::Saved(path, Box::new(design), r)
            });
        self.message = None;
        self.poll_files();
    }

    /// Saves the design to its own file, or asks where when it has none (Save, Ctrl+S).
    pub(super) fn save(&mut self, ctx: Option<&egui::Context>) {
        match self.doc.file().map(Path::to_path_buf) {
            Some(file) => self.save_design(&file),
            None => self.apply(super::Command::SaveDialog, ctx),
        }
    }

    /// Whether the design is being saved.
    pub fn saving(&self) -> bool {
        self.work
            .files()
            .doing(|d| matches!(d, Doing::SaveDesign(_)))
    }

    /// Writes the design to the autosave file in the background when it changed (at most once
    /// a second unless `force`, one write at a time). Errors are ignored: autosave must never
    /// get in the way.
    pub fn autosave_now(&mut self, force: bool) {
        if self.work.files().doing(|d| *d == Doing::Autosave) {
            return;
        }
        let Some((path, design)) = self.doc.autosave_due(force) else {
            return;
        };
        self.work
            .files_mut()
            .start(Doing::Autosave, move |_: &Control<Step>| {
                let text = crate::io::design_to_toml(&design);
                let ok = crate::io::write_atomic_in_new_folder(&path, text.as_bytes()).is_ok();
                Done::Autosaved(Box::new(design), ok)
            });
        self.poll_files();
    }

    /// Sets `design`'s pictures (start and finish, its items' of its own): the current
    /// design's when they are of the same files, the ones last read when they are, none when
    /// it has no picture files.
    /// Otherwise they are read in the background and `false` says so (the edit waits for them).
    pub(super) fn end_pictures(&mut self, design: &mut Design) -> bool {
        let ends = Ends::of(design);
        if ends == Ends::of(self.design()) {
            Pictures::of(self.design()).give(design);
            return true;
        }
        if !ends.files() {
            Pictures::default().give(design);
            return true;
        }
        if let Some((read, r)) = &self.work.files().pictures_read
            && *read == ends
        {
            match r {
                Ok(p) => p.give(design),
                Err(e) => {
                    Pictures::default().give(design);
                    self.message = Some(Err(e.clone()));
                }
            }
            return true;
        }
        let d = design.clone();
        self.work
            .files_mut()
            .start(Doing::Pictures, move |_: &Control<Step>| {
                Done::Pictures(ends, Pictures::read(&d))
            });
        false
    }

    /// Picks up finished file tasks and applies them (called every frame).
    pub(super) fn poll_files(&mut self) {
        for done in self.work.files_mut().poll() {
            self.file_done(done);
        }
    }

    /// Blocks until the file tasks are done and applies them (tests; a closing window).
    pub(super) fn wait_files(&mut self) {
        for done in self.work.files_mut().wait() {
            self.file_done(done);
        }
    }

    /// Applies what a file task gave back.
    fn file_done(&mut self, done: Done) {
        match done {
            Done::Opened(path, Ok(o)) => {
                let o = *o;
                self.work.files_mut().pictures_read =
                    Some((Ends::of(&o.design), o.pictures.clone()));
                // only a design file is the design's own (Save never writes over a maze's JSON)
                self.doc
                    .set_file(design_path(&path).ok().filter(|p| *p == path));
                self.set_design(o.design, false);
                self.doc.mark_saved();
                self.doc.remember(&path);
                self.message = Some(match o.pictures {
                    Ok(_) => Ok(format!("opened {}", path.display())),
                    Err(e) => Err(format!(
                        "opened {}, without its pictures: {e}",
                        path.display()
                    )),
                });
            }
            Done::Saved(path, design, Ok(())) => {
                self.doc.saved_as(&path, *design);
                self.message = Some(Ok(format!("saved {}", path.display())));
            }
            Done::Opened(_, Err(e)) | Done::Saved(_, _, Err(e)) => {
                self.close.save_failed();
                self.message = Some(Err(e));
            }
            Done::BookOpened(path, r) => self.book_opened(&path, r),
            Done::BookSaved(path, text, r) => self.book_saved(path, text, r),
            Done::Pictures(ends, r) => {
                self.work.files_mut().pictures_read = Some((ends.clone(), r));
                if let Some((d, coalesce)) = self.doc.take_held() {
                    if Ends::of(&d) == ends {
                        self.set_design(d, coalesce);
                    } else {
                        self.doc.hold(d, coalesce);
                    }
                }
            }
            Done::Autosaved(design, ok) => {
                if ok {
                    self.doc.autosaved(*design);
                }
            }
            Done::Failed(doing, line) => {
                if doing == Doing::Pictures {
                    self.doc.take_held();
                }
                if doing != Doing::Autosave {
                    self.close.save_failed();
                    self.message = Some(Err(line));
                }
            }
        }
    }
}

impl HedgeApp {
    /// Reads a book file in the background; the list changes once it is read.
    pub(super) fn open_book(&mut self, path: &Path) {
        let path = path.to_path_buf();
        self.work
            .files_mut()
            .start(Doing::OpenBook(path.clone()), move |c: &Control<Step>| {
                let r = read_book(&path, c).map(Box::new);
                Done::BookOpened(path, r)
            });
        self.message = None;
        self.poll_files();
    }

    /// Writes the list as a book file in the background, once checked as `hedge batch` reads
    /// it (atomically).
    pub(super) fn save_book(&mut self, path: &Path) {
        if self.book.list.pages.is_empty() {
            self.message = Some(Err(
                "the book has no pages: add designs with \"Add current design\"".into(),
            ));
            return;
        }
        let path = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
        let text = self.book.list.book_file(&folder(&path));
        self.work
            .files_mut()
            .start(Doing::SaveBook(path.clone()), move |_: &Control<Step>| {
                // only a book hedge batch reads is written
                let checked = crate::book::parse(&text, &folder(&path), &crate::io::Files)
                    .map_err(|e| format!("book not saved: {e}"))
                    .and_then(|_| {
                        crate::io::write_atomic(&path, text.as_bytes()).map_err(|e| e.to_string())
                    });
                Done::BookSaved(path, text, checked)
            });
        self.message = None;
        self.poll_files();
    }

    /// Applies a book file read in the background (the Book list shows it).
    pub(super) fn book_opened(&mut self, path: &Path, r: Result<Box<OpenedBook>, String>) {
        self.message = Some(r.map(|o| {
            self.book.open = true;
            self.book.list = o.list;
            self.book.editing = None;
            let path = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
            let text = self.book.list.book_file(&folder(&path));
            self.book.file = Some((path, text));
            o.message
        }));
    }

    /// Applies a book file written in the background.
    pub(super) fn book_saved(&mut self, path: PathBuf, text: String, r: Result<(), String>) {
        self.message = Some(r.map(|()| {
            let msg = format!("saved the book {}", path.display());
            self.book.file = Some((path, text));
            msg
        }));
    }
}

#[cfg(test)]
mod tests {
    use crate::app::{Command, HedgeApp, Persisted};
    use std::sync::mpsc::{Receiver, Sender, channel};
    use std::sync::{Arc, Mutex};

    /// A gate that holds the file tasks at their start (the first `n` of them) until the test
    /// sends a go for each.
    fn gate(app: &HedgeApp, n: usize) -> (Receiver<()>, Sender<()>) {
        let (at_tx, at) = channel();
        let (go_tx, go) = channel::<()>();
        let (at_tx, go) = (Mutex::new(at_tx), Mutex::new(go));
        let held = std::sync::atomic::AtomicUsize::new(0);
        app.work.tasks().set_gate(Some(Arc::new(move |label: &str| {
            if label == "reading or writing a file"
                && held.fetch_add(1, std::sync::atomic::Ordering::SeqCst) < n
            {
                let _ = at_tx.lock().unwrap().send(());
                let _ = go.lock().unwrap().recv();
            }
        })));
        (at, go_tx)
    }

    fn picture(dir: &std::path::Path) -> std::path::PathBuf {
        let svg = dir.join("p.svg");
        std::fs::write(
            &svg,
            r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect width="10" height="10"/></svg>"#,
        )
        .unwrap();
        svg
    }

    #[test]
    fn an_end_picture_edit_waits_for_its_picture_and_a_newer_edit_wins() {
        let dir = tempfile::tempdir().unwrap();
        let svg = picture(dir.path());
        let mut app = HedgeApp::headless(Persisted::default());
        crate::app::tests::settle(&mut app);
        let (at, go) = gate(&app, 2);
        let before = app.design().clone();
        let set = |finish| Command::SetEndPicture {
            finish,
            path: Some(svg.clone()),
        };
        // held while its picture is read: the design stays, a no-op edit does not drop it
        app.apply(set(false), None);
        at.recv().unwrap();
        assert_eq!(*app.design(), before);
        crate::app::tests::edit(&mut app, before.clone());
        go.send(()).unwrap();
        app.finish_tasks();
        assert_eq!(app.design().page.start_picture.as_deref(), Some(&*svg));
        assert_eq!(app.undo_steps(), 1, "one undo step");
        // a newer edit while the picture is read wins; the waiting edit is dropped
        app.apply(set(true), None);
        at.recv().unwrap();
        let mut d = app.design().clone();
        d.walls_mut().unwrap().braid = 0.3;
        crate::app::tests::edit(&mut app, d.clone());
        go.send(()).unwrap();
        app.finish_tasks();
        assert_eq!(app.design().walls().braid, 0.3);
        assert_eq!(app.design().page.finish_picture, None);
        assert_eq!(app.undo_steps(), 2);
        app.work.tasks().set_gate(None);
    }

    #[test]
    fn file_tasks_run_one_at_a_time_in_the_order_asked() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("d.toml");
        let mut app = HedgeApp::headless(Persisted::default());
        let (at, go) = gate(&app, 1);
        let first = app.design().clone();
        app.apply(Command::SaveDesign(path.clone()), None);
        at.recv().unwrap();
        // a second save of another design waits behind the first (held at its start)
        let mut d = first.clone();
        d.seed = Some(99);
        crate::app::tests::edit(&mut app, d.clone());
        app.apply(Command::SaveDesign(path.clone()), None);
        assert!(app.saving());
        assert_eq!(app.work.files().queue.len(), 1, "waiting, not started");
        assert_eq!(app.work.files().line().as_deref(), Some("Saving d.toml..."));
        assert!(!path.exists());
        // released, both run, the first asked first (the second is not held)
        go.send(()).unwrap();
        app.finish_tasks();
        assert_eq!(
            crate::io::read_design(&path).unwrap(),
            d,
            "the later save lands last"
        );
        assert!(!app.unsaved());
        app.work.tasks().set_gate(None);
    }
}
