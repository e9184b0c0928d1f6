//! The runtime: what the editor makes from the design. The background tasks (the maze worker,
//! the shape reader, the export, and the test hooks that run or finish them), the current maze
//! or error with its pages, and the shape's cut as the reader last made it.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use super::files::FileTasks;
use super::page_thumbs::PageThumbs;
use super::preview::PagePreview;
use super::task::{Control, Spawner, Task};
use super::thumbs::Thumbnails;
use super::worker::{self, ExportStep, Job, JobResult, ShapeKey, Worker};
use super::{Command, ExportKind, HedgeApp, targets};
use crate::design::Design;
use crate::draw;
use crate::pipeline::Generated;
use crate::shape::{Foreground, ShapeSource};

/// Designs at most this many cells (roughly) are made inside the frame; bigger ones go to the
/// worker thread.
pub const INLINE_CELLS: u64 = 2_500;

/// What a shape's foreground is, while its picture is still being read.
pub const READING: &str = "the picture is still being read";

/// The outcome of the newest generation, as shown in the preview and status bar.
#[derive(Debug, Default)]
pub enum Current {
    /// Nothing made yet.
    #[default]
    None,
    /// What the entry point made (walls or tiles), its printed pages, and how long it took.
    Made {
        /// The maze (shared with an export running in the background).
        made: Arc<crate::make::Made>,
        /// Its pages (or why the page setup cannot hold them).
        preview: Result<Arc<PagePreview>, String>,
        /// Changes whenever the pages do (the preview's raster key).
        id: u64,
        /// Generation time (maze and pages).
        elapsed: Duration,
    },
    /// The pipeline's error, one line.
    Error(String),
}

/// Where a design's shape stands: none, cut, refused, or its picture still being read.
pub(super) enum Shaping {
    /// The design has no shape.
    None,
    /// The foreground.
    Ready(Arc<Foreground>),
    /// Why there is none (one line).
    Failed(String),
    /// A background task is reading or cutting the picture.
    Reading,
}

impl Shaping {
    /// As the editor's `foreground` answers: `None` without a shape, [`READING`] while read.
    fn into_result(self) -> Option<Result<Arc<Foreground>, String>> {
        match self {
            Shaping::None => None,
            Shaping::Ready(fg) => Some(Ok(fg)),
            Shaping::Failed(e) => Some(Err(e)),
            Shaping::Reading => Some(Err(READING.into())),
        }
    }
}

/// A single-file export running in the background ([`worker::export`]): where it writes, and
/// its task (progress: the step it is at; result: the status line).
pub struct Exporting {
    /// The file written (and, for SVG and PNG, its key beside it).
    pub path: PathBuf,
    /// The export's task.
    pub task: Task<Result<String, String>, ExportStep>,
}

/// The background work and what it made (see the module's notes).
pub struct Background {
    /// Starts the background tasks (maze, search, book export, thumbnails); tests switch it to
    /// inline with [`HedgeApp::run_tasks_inline`].
    tasks: Spawner,
    /// Makes the mazes too big for the frame.
    worker: Worker,
    /// Reads and cuts the shapes' pictures.
    reader: worker::Reader,
    /// Opening and saving files, reading the end pictures, the autosave ([`super::files`]).
    files: FileTasks,
    /// The single-file export running in the background, if any.
    export: Option<Exporting>,
    /// Thumbnails of the built-in shapes (background tasks, the first time the list shows).
    thumbnails: Thumbnails,
    /// Thumbnails of the book list's pages, made while the Book window is open.
    page_thumbs: PageThumbs,
    /// The newest maze or error.
    current: Current,
    /// The generation the newest maze is made for (an older job's result is dropped).
    generation: u64,
    /// The last pages' id (the preview's raster key).
    next_id: u64,
    /// The maze waits for its shape's picture to be read.
    awaiting_maze: bool,
    /// A shape being set waits for its picture to be read (the design changes once it is).
    awaiting_shape: Option<ShapeSource>,
    /// A pick changed while its cut was not ready: the height follows it once it is.
    refit: bool,
    /// The grid the last maze of walls was made on (where placed ends were last shown).
    ends_on: Option<super::ends::GridSize>,
}

impl Background {
    /// No work yet; `tasks` starts it.
    pub fn new(tasks: Spawner) -> Background {
        Background {
            worker: Worker::new(tasks.clone()),
            reader: worker::Reader::new(tasks.clone()),
            files: FileTasks::new(tasks.clone()),
            export: None,
            thumbnails: Thumbnails::new(tasks.clone()),
            page_thumbs: PageThumbs::new(tasks.clone()),
            tasks,
            current: Current::None,
            generation: 0,
            next_id: 0,
            awaiting_maze: false,
            awaiting_shape: None,
            refit: false,
            ends_on: None,
        }
    }

    /// What starts the background tasks.
    pub fn tasks(&self) -> &Spawner {
        &self.tasks
    }

    /// The newest maze or error.
    pub fn current(&self) -> &Current {
        &self.current
    }

    /// The newest maze's pages, with the id that changes whenever they do.
    pub fn preview(&self) -> Option<(u64, &Arc<PagePreview>)> {
        match &self.current {
            Current::Made {
                preview: Ok(p), id, ..
            } => Some((*id, p)),
            _ => None,
        }
    }

    /// The file tasks.
    pub(super) fn files(&self) -> &FileTasks {
        &self.files
    }

    /// The file tasks, to start, poll or cancel.
    pub(super) fn files_mut(&mut self) -> &mut FileTasks {
        &mut self.files
    }

    /// The built-in shapes' thumbnails.
    pub(super) fn thumbnails_mut(&mut self) -> &mut Thumbnails {
        &mut self.thumbnails
    }

    /// The book pages' thumbnails.
    pub(super) fn page_thumbs(&self) -> &PageThumbs {
        &self.page_thumbs
    }

    /// The book pages' thumbnails, to poll.
    pub(super) fn page_thumbs_mut(&mut self) -> &mut PageThumbs {
        &mut self.page_thumbs
    }

    /// A new pick was made: when its maze waits for the cut, the height follows the pick once
    /// the cut is ready.
    pub(super) fn picked(&mut self) {
        self.refit |= self.awaiting_maze;
    }

    /// The shape being set waits for its picture (`None`: no shape waits any longer).
    pub(super) fn await_shape(&mut self, source: Option<ShapeSource>) {
        self.awaiting_shape = source;
    }
}

/// Roughly how many cells `d` has (for deciding whether to generate in the frame).
pub fn estimated_cells(d: &Design) -> u64 {
    d.grid_topology().estimated_cells(d.width, d.height)
}

impl HedgeApp {
    /// Runs every later background task inline, on the UI thread, before the frame that starts
    /// it ends (or, with `false`, on threads again): tests see each command's outcome at once,
    /// with no waiting.
    pub fn run_tasks_inline(&mut self, inline: bool) {
        self.work.tasks.set_inline(inline);
    }

    /// Blocks until every background task has finished and its result is applied: the maze,
    /// the difficulty search (a search made stale by an edit is cancelled first) and the book
    /// export. A test hook: it waits on the tasks' channels, never by sleeping.
    pub fn finish_tasks(&mut self) {
        self.poll();
        while !self.work.worker.idle()
            || self.searching()
            || self.book.exporting()
            || self.reading()
            || self.exporting()
            || self.work.files.busy()
        {
            self.work.reader.wait();
            self.resume();
            if let Some(r) = self.work.worker.wait() {
                self.accept(r);
            }
            targets::wait(self);
            self.wait_book();
            self.wait_export();
            self.wait_files();
            self.poll();
        }
    }

    /// Whether a maze is being made in the background (or waits for its shape's picture).
    pub fn busy(&self) -> bool {
        self.work.worker.busy() || self.work.awaiting_maze
    }

    /// Whether a picture is being read (decoded and cut) in the background.
    pub fn reading(&self) -> bool {
        self.work.reader.reading()
    }

    /// The newest maze, if the last generation succeeded.
    pub fn generated(&self) -> Option<&Generated> {
        match &self.work.current {
            Current::Made { made, .. } => match &**made {
                crate::make::Made::Walls(g) => Some(g),
                crate::make::Made::Tiles(_) => None,
            },
            _ => None,
        }
    }

    /// The newest error line, if the last generation failed.
    pub fn error(&self) -> Option<&str> {
        match &self.work.current {
            Current::Error(e) => Some(e),
            _ => None,
        }
    }

    /// The shape's foreground for the current design, once its picture is read and cut (while
    /// it is being read, the error [`READING`]).
    pub fn foreground(&mut self) -> Option<Result<Arc<Foreground>, String>> {
        let key = self.shape_key(self.design());
        self.shaping(key).into_result()
    }

    /// The decoded picture of the design's file shape (for picking its subject), once read.
    pub fn shape_picture(&mut self) -> Option<Arc<crate::load::LoadedShape>> {
        let source = self.design().shape.clone()?;
        if !matches!(source, ShapeSource::File(_)) {
            return None;
        }
        let key = self.shape_key(self.design());
        let _ = self.shaping(key);
        self.work
            .reader
            .picture(&source, self.base_dir().as_deref())
    }

    /// The foreground `d` would have (its shape with its pick or cut), as [`Self::foreground`].
    pub(super) fn foreground_of(&mut self, d: &Design) -> Option<Result<Arc<Foreground>, String>> {
        let key = self.shape_key(d);
        self.shaping(key).into_result()
    }

    /// `d`'s shape and cut, relative paths from the design file's folder.
    pub(super) fn shape_key(&self, d: &Design) -> Option<ShapeKey> {
        ShapeKey::of(d, self.base_dir().as_deref())
    }

    /// Where the shape `key` stands; a picture not read yet is asked for (never read here).
    pub(super) fn shaping(&mut self, key: Option<ShapeKey>) -> Shaping {
        let Some(key) = key else {
            return Shaping::None;
        };
        if self.work.reader.get(&key).is_none() {
            self.work.reader.want(key.clone());
        }
        match self.work.reader.get(&key).map(|c| &c.foreground) {
            None => Shaping::Reading,
            Some(Ok(fg)) => Shaping::Ready(Arc::clone(fg)),
            Some(Err(e)) => Shaping::Failed(e.clone()),
        }
    }

    /// Whether the picture of `key` was read and looks like a photo.
    pub(super) fn looks_like_photo(&self, key: &ShapeKey) -> bool {
        self.work.reader.get(key).is_some_and(|c| c.photo)
    }

    /// The folder relative shape paths start from: the design file's.
    pub fn base_dir(&self) -> Option<PathBuf> {
        self.doc
            .file()
            .and_then(Path::parent)
            .filter(|d| !d.as_os_str().is_empty())
            .map(Path::to_path_buf)
    }

    /// Starts making the maze for the current design: in the frame when it is small, on the
    /// worker otherwise. Any older job becomes stale. While the shape's picture is being read,
    /// the previous maze stays on show and the maze is made once the picture is read.
    pub fn regenerate(&mut self) {
        let generation = self.work.worker.next_generation();
        self.work.generation = generation;
        let key = self.shape_key(self.design());
        self.work.awaiting_maze = false;
        let shape = match self.shaping(key) {
            Shaping::None => None,
            Shaping::Ready(fg) => Some(fg),
            Shaping::Reading => {
                self.work.worker.mark_done(generation);
                self.work.awaiting_maze = true;
                return;
            }
            Shaping::Failed(e) => {
                self.work.worker.mark_done(generation);
                self.work.current = Current::Error(e);
                return;
            }
        };
        let job = Job {
            design: self.design().clone(),
            shape,
            ends_on: self.work.ends_on,
        };
        if estimated_cells(self.design()) <= INLINE_CELLS {
            let r = worker::run_job(generation, &job);
            self.work.worker.mark_done(generation);
            self.accept(r);
        } else {
            self.work.worker.submit(generation, job);
            // an inline task (tests) has finished already
            if let Some(r) = self.work.worker.poll() {
                self.accept(r);
            }
        }
    }

    /// Brings the preview up to date after the design changed from `old`: a new layout when
    /// only the page setup changed (the same maze), a new maze otherwise.
    pub(super) fn refresh(&mut self, old: &Design) {
        let relayout = old.same_maze(self.design()) && !self.busy();
        match &mut self.work.current {
            Current::Made {
                made, preview, id, ..
            } if relayout => {
                let dropped = preview
                    .as_ref()
                    .map_or_else(|_| Arc::from([]), |p| p.dropped.clone());
                *preview = PagePreview::of(made, &self.doc.design().page, dropped).map(Arc::new);
                self.work.next_id += 1;
                *id = self.work.next_id;
            }
            _ => self.regenerate(),
        }
    }

    /// Picks up finished background jobs, if any. Called every frame.
    pub fn poll(&mut self) {
        self.work.reader.poll();
        self.resume();
        if let Some(r) = self.work.worker.poll() {
            self.accept(r);
        }
        targets::poll(self);
        self.poll_export();
        self.poll_files();
    }

    /// Goes on with what waited for a picture, once it is read: the shape being set, the maze
    /// (its height fitted first after a pick made while the cut was not ready).
    pub(super) fn resume(&mut self) {
        if let Some(source) = self.work.awaiting_shape.clone() {
            let d = Design {
                shape: Some(source.clone()),
                pick: None,
                ..self.design().clone()
            };
            let key = self.shape_key(&d);
            if !matches!(self.shaping(key), Shaping::Reading) {
                self.work.awaiting_shape = None;
                self.apply(Command::SetShape(Some(source)), None);
            }
        }
        if !self.work.awaiting_maze {
            return;
        }
        let key = self.shape_key(self.design());
        let shaping = self.shaping(key);
        if matches!(shaping, Shaping::Reading) {
            return;
        }
        let refit = std::mem::take(&mut self.work.refit) && self.doc.keep_aspect();
        match shaping {
            Shaping::Ready(fg) if refit => {
                let d = self.design();
                match crate::sizing::shape_grid(d.grid_topology(), d.width, &fg, None) {
                    Ok((_, h)) if h != d.height => {
                        let d = Design {
                            height: h,
                            ..d.clone()
                        };
                        // the same undo step as the pick that asked for it
                        self.doc.continue_step();
                        self.set_design(d, true);
                    }
                    _ => self.regenerate(),
                }
            }
            _ => self.regenerate(),
        }
    }

    /// Stops reading the picture: a shape being set is not set; a maze waiting for the picture
    /// is not made (the status says so).
    pub(super) fn cancel_reading(&mut self) {
        self.work.reader.cancel();
        self.work.awaiting_shape = None;
        self.work.refit = false;
        if std::mem::take(&mut self.work.awaiting_maze) {
            self.work.current = Current::Error("reading the picture was cancelled".into());
        }
    }

    /// The line of the background work a user waits for (reading a picture, exporting), with
    /// its Cancel button: a line of the status bar while any runs.
    pub(super) fn task_bar(&mut self, ui: &mut egui::Ui) {
        let reading = self.reading() || self.work.awaiting_shape.is_some();
        let export = self.export_line();
        let file = self.work.files.line();
        if !reading && export.is_none() && file.is_none() {
            return;
        }
        ui.horizontal_wrapped(|ui| {
            if reading {
                ui.spinner();
                let secs = self.work.reader.elapsed().unwrap_or_default().as_secs_f32();
                ui.label(format!("Reading picture... {secs:.1} s"));
                if ui.button("Cancel reading").clicked() {
                    self.pending.push(Command::CancelReading);
                }
            }
            if let Some(line) = file {
                ui.spinner();
                ui.label(line);
                if self.work.files.cancellable() && ui.button("Cancel opening").clicked() {
                    self.pending.push(Command::CancelOpening);
                }
            }
            if let Some(line) = export {
                ui.spinner();
                ui.label(line);
                if ui.button("Cancel export").clicked() {
                    self.pending.push(Command::CancelExport);
                }
            }
        });
        ui.ctx().request_repaint_after(Duration::from_millis(100));
    }

    pub(super) fn accept(&mut self, r: JobResult) {
        if r.generation != self.work.generation {
            return;
        }
        self.work.current = match r.outcome {
            Ok(finished) => {
                self.work.next_id += 1;
                if let Some(p) = finished.followed {
                    self.ends_followed(p);
                }
                if matches!(finished.made, crate::make::Made::Walls(_)) {
                    self.work.ends_on = Some(super::ends::grid_size(finished.made.design()));
                }
                Current::Made {
                    made: Arc::new(finished.made),
                    preview: finished.preview.map(Arc::new),
                    id: self.work.next_id,
                    elapsed: r.elapsed,
                }
            }
            Err(e) => Current::Error(e),
        };
    }

    /// START and FINISH moved to `placement` as the maze was made (their cells were off its
    /// outline): written into the design in the same undo step as the edit that moved them,
    /// and said.
    fn ends_followed(&mut self, placement: crate::endpoints::Placement) {
        // the undo point before the edit stays; the design moved on within its step
        self.doc.amend(|d| {
            if let Some(w) = d.walls_mut() {
                w.placement = placement;
            }
        });
        self.message = Some(Ok(super::ends::note(placement)));
    }

    /// The cell of the current grid (on or off) whose centre is nearest the page position `p`,
    /// if it is within about half a cell.
    pub fn cell_at(&self, p: draw::Pos) -> Option<crate::topology::Coord> {
        let (_, preview) = self.preview()?;
        self.cell_at_maze(preview.maze_point(p))
    }

    /// The cell of the current grid (on or off) whose centre is nearest the maze point `q`, if
    /// it is within about half a cell.
    pub fn cell_at_maze(&self, q: crate::topology::Point) -> Option<crate::topology::Coord> {
        let g = self.generated()?;
        let t = g.maze.grid().topology().tess();
        let mut best = None;
        for row in 0..t.rows() {
            for col in 0..t.cols(row) {
                let c = crate::topology::Coord::new(row, col);
                let m = t.center(c);
                let d = (m.x - q.x).hypot(m.y - q.y);
                if best.is_none_or(|(bd, _)| d < bd) {
                    best = Some((d, c));
                }
            }
        }
        best.filter(|(d, _)| *d < 0.75).map(|(_, c)| c)
    }

    /// The newest maze's pages, with the id that changes whenever they do.
    pub fn preview(&self) -> Option<(u64, &Arc<PagePreview>)> {
        self.work.preview()
    }

    /// The newest maze or error.
    pub fn current(&self) -> &Current {
        self.work.current()
    }

    /// The single-file export running in the background, if any.
    pub fn export(&self) -> Option<&Exporting> {
        self.work.export.as_ref()
    }

    /// What starts the background tasks (tests hold them at a gate with it).
    pub fn tasks(&self) -> &Spawner {
        self.work.tasks()
    }

    /// Why the page setup cannot hold the newest maze, if it cannot.
    pub fn page_error(&self) -> Option<&str> {
        match &self.work.current {
            Current::Made {
                preview: Err(e), ..
            } => Some(e),
            _ => None,
        }
    }
}

impl HedgeApp {
    /// Starts writing the current maze to `path` as `kind` in the background; the status bar
    /// shows it with a Cancel until it is done.
    pub(super) fn start_file_export(&mut self, kind: ExportKind, path: PathBuf) {
        let path = match kind.file(&path, self.doc.file()) {
            Ok(p) => p,
            Err(e) => {
                self.message = Some(Err(e));
                return;
            }
        };
        if self.exporting() {
            self.message = Some(Err(
                "an export is running; wait for it to finish or cancel it".into(),
            ));
            return;
        }
        let made = match self.ready_made() {
            Ok(made) => made,
            Err(e) => {
                self.message = Some(Err(e));
                return;
            }
        };
        let page = self.design().page.clone();
        let task = self.work.tasks.spawn("exporting", {
            let path = path.clone();
            move |c: &Control<ExportStep>| worker::export(&made, &page, kind, &path, c)
        });
        self.work.export = Some(Exporting { path, task });
        self.message = None;
        // an inline export (tests) has finished already
        self.poll_export();
    }

    /// Whether an export runs in the background.
    pub fn exporting(&self) -> bool {
        self.work.export.is_some()
    }

    /// The running export's line for the status bar: the file and the step it is at.
    pub fn export_line(&self) -> Option<String> {
        let e = self.work.export.as_ref()?;
        let name = e.path.file_name().unwrap_or(e.path.as_os_str());
        Some(match e.task.progress() {
            _ if e.task.is_cancelled() => format!("Cancelling the export of {}...", name.display()),
            Some((step, steps, what)) => {
                format!(
                    "Exporting {}: {what} ({step} of {steps})...",
                    name.display()
                )
            }
            None => format!("Exporting {}...", name.display()),
        })
    }

    /// Stops the export running in the background, if any; nothing is written.
    pub(super) fn cancel_export(&mut self) {
        if let Some(e) = &self.work.export {
            e.task.cancel();
        }
    }

    /// Picks up the finished export, if any (called every frame).
    pub(super) fn poll_export(&mut self) {
        let Some(e) = &self.work.export else { return };
        let Some(r) = e.task.poll() else { return };
        self.export_done(r);
    }

    /// Blocks until the running export (if any) has finished and shows its outcome (the app's
    /// `finish_tasks` test hook).
    pub(super) fn wait_export(&mut self) {
        if let Some(e) = &self.work.export {
            let r = e.task.wait();
            self.export_done(r);
        }
    }

    fn export_done(&mut self, r: Result<Result<String, String>, String>) {
        let Some(e) = self.work.export.take() else {
            return;
        };
        // a panic's line gets the path, as the export's own errors have it
        self.message =
            Some(r.unwrap_or_else(|panic| Err(format!("{panic}: {}", e.path.display()))));
    }

    /// The maze to export (walls or tiles), or why there is none.
    fn ready_made(&self) -> Result<Arc<crate::make::Made>, String> {
        // an error while a maze is still being made
        self.ready_tiles()?;
        match &self.work.current {
            Current::Made { made, .. } => Ok(Arc::clone(made)),
            Current::Error(e) => Err(format!("nothing to export: {e}")),
            Current::None => Err("nothing to export yet".into()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::tests::settle;
    use crate::app::{Command, Persisted};
    use crate::design::{Kind, Walls};

    #[test]
    fn big_designs_go_to_the_worker() {
        let mut app = HedgeApp::headless(Persisted::default());
        let d = Design {
            width: 120,
            height: 120,
            ..app.design().clone()
        };
        crate::app::tests::edit(&mut app, d);
        settle(&mut app);
        assert_eq!(app.generated().unwrap().metrics.cells, 14_400);
        assert!(app.preview().is_some());
    }

    #[test]
    fn a_shape_is_set_once_its_picture_is_read_in_the_background() {
        let mut app = HedgeApp::headless(Persisted::default());
        settle(&mut app);
        let before = app.generated().unwrap().metrics.cells;
        let heart = ShapeSource::Builtin("heart".into());
        app.apply(Command::SetShape(Some(heart.clone())), None);
        // (a task on a thread: it may or may not have finished; nothing waited for it)
        if app.design().shape.is_none() {
            assert!(app.reading() || app.work.awaiting_shape.is_some());
            assert_eq!(app.generated().unwrap().metrics.cells, before);
        }
        settle(&mut app);
        assert_eq!(app.design().shape, Some(heart));
        assert!(app.generated().unwrap().metrics.cells < before);
        assert!(matches!(app.foreground(), Some(Ok(_))));
        // a cut asked for while reading is the error line, never a block
        let d = Design {
            threshold: Some(100),
            ..app.design().clone()
        };
        match app.foreground_of(&d) {
            Some(Ok(_)) => {}
            Some(Err(e)) => assert_eq!(e, READING),
            None => panic!("a shape"),
        }
        settle(&mut app);
        assert!(matches!(app.foreground_of(&d), Some(Ok(_))));
    }

    /// An entrance in the middle of the maze: a design the pipeline refuses.
    fn hedge_placement_inside() -> crate::endpoints::Placement {
        use crate::topology::Coord;
        crate::endpoints::Placement::Cells {
            entrance: Coord::new(5, 5),
            exit: Coord::new(0, 0),
        }
    }

    #[test]
    fn errors_are_text_not_panics() {
        let mut app = HedgeApp::headless(Persisted::default());
        // START placed inside the maze: it moves to the outline (issue 58), no error
        let d = Design {
            kind: Kind::Walls(Walls {
                placement: hedge_placement_inside(),
                ..app.design().walls().clone()
            }),
            ..app.design().clone()
        };
        crate::app::tests::edit(&mut app, d);
        settle(&mut app);
        assert!(app.error().is_none(), "{:?}", app.error());
        assert!(matches!(&app.message, Some(Ok(m)) if m.contains("nearest")));
        let g = app.generated().unwrap();
        assert_eq!(g.design.walls().placement, app.design().walls().placement);
        // a picture that is not there: one line, no panic
        let mut d = app.design().clone();
        d.shape = Some(crate::shape::ShapeSource::File(
            "/no/such/picture.png".into(),
        ));
        crate::app::tests::edit(&mut app, d);
        settle(&mut app);
        assert!(app.error().unwrap().contains("/no/such/picture.png"));
        app.apply(Command::OpenDesign("/no/such/file.toml".into()), None);
        // read by a file task: its outcome is applied once it is done
        app.finish_tasks();
        assert!(matches!(&app.message, Some(Err(e)) if e.contains("/no/such/file.toml")));
    }
}
