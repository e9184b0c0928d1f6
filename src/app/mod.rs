//! The desktop editor (egui/eframe), behind the `gui` cargo feature.
//!
//! Split the way the egui demo app and rerun's viewer are: this file holds the state
//! ([`HedgeApp`]) and the logic (the [`Command`]s the UI emits, applied once at the end of each
//! frame); [`ui`] draws the panels; [`preview`] paints the maze; [`worker`] makes mazes in the
//! background so a frame never blocks. Every background job (maze, search, book export,
//! thumbnails) is a [`task::Task`]. The app does its file I/O through [`crate::io`].

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use egui::util::undoer::{self, Undoer};
use serde::{Deserialize, Serialize};

use crate::design::{Design, MAX_SEED};
use crate::draw;
use crate::pipeline::Generated;
use crate::random::fresh_seed;
use crate::shape::{Cut, Foreground, ShapeSource};
use crate::topology::TopologyKind;

pub mod book;
pub mod preview;
pub mod targets;
pub mod task;
pub mod thumbs;
pub mod tiles;
pub mod ui;
pub mod worker;

use preview::{PagePreview, Raster, View};
use task::Spawner;
use worker::{Job, JobResult, Worker};

/// Designs at most this many cells (roughly) are made inside the frame; bigger ones go to the
/// worker thread.
pub const INLINE_CELLS: u64 = 2_500;

/// The most recent files listed.
pub const RECENT: usize = 8;

/// The editor's app id: the window's, and the name of eframe's storage folder.
pub const APP_ID: &str = "hedge";

/// Where the design is autosaved: `autosave.toml` in the folder where eframe keeps the editor's
/// settings (on Linux `$XDG_DATA_HOME/hedge`, or `~/.local/share/hedge`). Tests pass their own
/// path to [`HedgeApp::with_autosave`].
pub fn default_autosave_path() -> Option<PathBuf> {
    Some(eframe::storage_dir(APP_ID)?.join("autosave.toml"))
}

/// The most undo steps kept.
pub const UNDO_DEPTH: usize = 200;

/// What the UI asks for; applied once at the end of the frame by [`HedgeApp::apply`].
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// Replace the design (a knob edit). `coalesce` merges it into the previous undo step (a
    /// slider being dragged).
    Edit {
        /// The new design.
        design: Box<Design>,
        /// Whether this continues the previous edit (no new undo step).
        coalesce: bool,
    },
    /// A fresh default design with a new seed.
    New,
    /// Draw a new seed.
    NewSeed,
    /// Undo the last knob edit.
    Undo,
    /// Redo the last undone edit.
    Redo,
    /// Load a design file (TOML).
    OpenDesign(PathBuf),
    /// Save the design as TOML.
    SaveDesign(PathBuf),
    /// Write the current maze as JSON.
    ExportJson(PathBuf),
    /// Write the printable pages (PDF with the key on page 2; SVG or PNG with the key beside).
    Export(ExportKind, PathBuf),
    /// Write in the format the path's extension names (.json, .pdf, .svg, .png).
    ExportByName(PathBuf),
    /// Show a file dialog to pick a design to open.
    OpenDialog,
    /// Show a file dialog to save the design.
    SaveDialog,
    /// Show a file dialog to export in a format.
    ExportDialog(ExportKind),
    /// Use this silhouette (or none); the height follows its aspect ratio.
    SetShape(Option<ShapeSource>),
    /// Show a file dialog to pick a picture for the shape.
    OpenImageDialog,
    /// Switch cells on or off by hand (a brush stroke; `coalesce` continues the stroke).
    Paint {
        /// The cells and whether each is switched on.
        edits: Vec<crate::design::CellEdit>,
        /// Whether this continues the previous stroke (one undo step).
        coalesce: bool,
    },
    /// Forget every hand edit of the mask.
    ClearEdits,
    /// Put the entrance (or the exit) on this boundary cell.
    PlaceEnd {
        /// The cell clicked.
        cell: crate::topology::Coord,
        /// The exit rather than the entrance.
        exit: bool,
    },
    /// Close the window.
    Quit,
    /// Close even though there are unsaved changes.
    CloseWithoutSaving,
    /// A change to the book list or its window ([`book`]).
    Book(book::BookCommand),
    /// Apply a difficulty preset (by name) as `--difficulty NAME` does: one undo step.
    ApplyPreset(&'static str),
    /// Start the difficulty search ("Find a maze") on a background thread.
    FindMaze,
    /// Stop the difficulty search; the design stays as it is.
    CancelSearch,
}

/// What a primary drag on the preview does.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Tool {
    /// Moves the page.
    #[default]
    Pan,
    /// Switches cells on.
    PaintOn,
    /// Switches cells off.
    PaintOff,
    /// A click on a boundary cell puts the entrance there.
    Entrance,
    /// A click on a boundary cell puts the exit there.
    Exit,
}

/// What an export writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExportKind {
    /// The maze as JSON (cells, passages, solution).
    Json,
    /// A two-page PDF: the maze, then its answer key.
    Pdf,
    /// An SVG page, and its key beside it as NAME-key.svg.
    Svg,
    /// A PNG page at 300 dpi, and its key beside it as NAME-key.png.
    Png,
}

impl ExportKind {
    /// Every kind, in menu order.
    pub const ALL: [ExportKind; 4] = [
        ExportKind::Pdf,
        ExportKind::Svg,
        ExportKind::Png,
        ExportKind::Json,
    ];

    /// The file extension (no dot).
    pub fn extension(self) -> &'static str {
        match self {
            ExportKind::Json => "json",
            ExportKind::Pdf => "pdf",
            ExportKind::Svg => "svg",
            ExportKind::Png => "png",
        }
    }

    /// The name shown on buttons.
    pub fn label(self) -> &'static str {
        match self {
            ExportKind::Json => "JSON",
            ExportKind::Pdf => "PDF",
            ExportKind::Svg => "SVG",
            ExportKind::Png => "PNG",
        }
    }

    /// The kind a file name's extension names.
    pub fn of_path(path: &Path) -> Option<ExportKind> {
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        ExportKind::ALL.into_iter().find(|k| k.extension() == ext)
    }
}

/// What a file dialog is asked for (the test hook sees this instead of a real dialog).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DialogRequest {
    /// Pick a design to open.
    OpenDesign,
    /// Pick where to save the design.
    SaveDesign,
    /// Pick where to export.
    Export(ExportKind),
    /// Pick a picture for the shape.
    OpenImage,
    /// Pick a book file to open.
    OpenBook,
    /// Pick where to save the book file.
    SaveBook,
    /// Pick where to write the book's PDF.
    ExportBook,
}

/// Stands in for the file dialogs (tests): returns the path a user would have picked.
pub type DialogHook = Box<dyn FnMut(&DialogRequest) -> Option<PathBuf> + Send>;

/// What is kept between runs: the design, the answer-key toggle, the file path and the book list.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Persisted {
    /// The last design.
    pub design: Design,
    /// Whether the solution was shown.
    pub answer_key: bool,
    /// The path in the file field.
    pub path: String,
    /// Whether weave crossings were tinted.
    pub show_crossings: bool,
    /// Design files opened or saved lately, newest first.
    pub recent: Vec<String>,
    /// The book list.
    pub book: book::BookList,
}

/// The small settings stored with eframe's storage (RON). Every field has a default, so older
/// saves keep loading. The design itself is stored as TOML text under [`DESIGN_KEY`], the same
/// format as design files.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Prefs {
    /// Whether the solution was shown.
    pub answer_key: bool,
    /// The path in the file field.
    pub path: String,
    /// Whether weave crossings were tinted.
    pub show_crossings: bool,
    /// Design files opened or saved lately, newest first.
    pub recent: Vec<String>,
}

/// The storage key of the last design (TOML text).
pub const DESIGN_KEY: &str = "design";

impl Persisted {
    /// Reads what the last run stored; anything missing or unreadable takes its default.
    pub fn load(storage: &dyn eframe::Storage) -> Persisted {
        let prefs: Prefs = eframe::get_value(storage, eframe::APP_KEY).unwrap_or_default();
        let design = storage
            .get_string(DESIGN_KEY)
            .and_then(|t| crate::io::parse_design(&t).ok())
            .unwrap_or_default();
        let book = storage
            .get_string(book::BOOK_KEY)
            .and_then(|t| book::BookList::from_toml(&t).ok())
            .unwrap_or_default();
        Persisted {
            book,
            design,
            answer_key: prefs.answer_key,
            path: prefs.path,
            show_crossings: prefs.show_crossings,
            recent: prefs.recent,
        }
    }

    /// Writes this into eframe's storage.
    pub fn store(&self, storage: &mut dyn eframe::Storage) {
        storage.set_string(DESIGN_KEY, crate::io::design_to_toml(&self.design));
        storage.set_string(book::BOOK_KEY, self.book.to_toml());
        eframe::set_value(
            storage,
            eframe::APP_KEY,
            &Prefs {
                answer_key: self.answer_key,
                path: self.path.clone(),
                show_crossings: self.show_crossings,
                recent: self.recent.clone(),
            },
        );
    }
}

/// The outcome of the newest generation, as shown in the preview and status bar.
#[derive(Debug, Default)]
pub enum Current {
    /// Nothing made yet.
    #[default]
    None,
    /// A maze, its printed pages for the preview, and how long it took.
    Maze {
        /// The maze.
        generated: Box<Generated>,
        /// Its pages (or why the page setup cannot hold it).
        preview: Result<Arc<PagePreview>, String>,
        /// Changes whenever the pages do (the preview's raster key).
        id: u64,
        /// Generation time (maze and pages).
        elapsed: Duration,
    },
    /// The pipeline's error, one line.
    Error(String),
    /// A hex tile maze (the tiles style), its printed pages, and how long it took.
    Tiles {
        /// The tile maze.
        tiles: Box<crate::pipeline::GeneratedTiles>,
        /// Its pages (or why the page setup cannot hold it).
        preview: Result<Arc<PagePreview>, String>,
        /// Changes whenever the pages do (the preview's raster key).
        id: u64,
        /// Generation time (maze and pages).
        elapsed: Duration,
    },
}

/// The editor: the design being edited, its history, the newest maze, and the view.
pub struct HedgeApp {
    /// The design being edited (its seed is always set).
    pub design: Design,
    /// Earlier and undone designs (egui's undoer, fed one step per edit: see
    /// [`HedgeApp::set_design`]).
    history: Undoer<Design>,
    /// Whether the last edit may be continued (a slider drag in progress).
    last_coalesce: bool,
    /// The newest maze or error.
    pub current: Current,
    /// Show the solution.
    pub answer_key: bool,
    /// Pan and zoom of the preview.
    pub view: View,
    /// The file path field (Save / Open / Export without a dialog).
    pub path: String,
    /// The last file operation's outcome (shown in the status bar until the next one).
    pub message: Option<Result<String, String>>,
    /// Commands queued this frame.
    pub pending: Vec<Command>,
    /// Tint the weave crossings in the preview.
    pub show_crossings: bool,
    /// Show the mask (and its necks) over the preview.
    pub show_mask: bool,
    /// What a drag on the preview does.
    pub tool: Tool,
    /// Where the page was painted in the last frame.
    pub placement: Option<preview::Placement>,
    /// The screen-to-maze mapping when the current brush stroke started (the page may move
    /// under the pointer as the maze changes; the stroke keeps painting where it began).
    pub stroke: Option<(preview::Placement, Arc<PagePreview>)>,
    /// Thumbnails of the built-in shapes (made on a thread at start).
    pub thumbnails: thumbs::Thumbnails,
    /// The preview's pixels (the page rasterised at the current zoom).
    pub raster: Raster,
    /// Design files opened or saved lately, newest first (at most [`RECENT`]).
    pub recent: Vec<String>,
    /// The design as last opened or saved (or as the editor started): unsaved changes are
    /// anything different from it.
    pub saved: Design,
    /// Where the design is autosaved while the editor runs (removed on a clean exit); `None`
    /// turns autosave off.
    pub autosave: Option<PathBuf>,
    /// The design last written to the autosave file.
    autosaved: Option<Design>,
    /// When the autosave file was last written.
    autosaved_at: Option<Instant>,
    /// The window was asked to close with unsaved changes: the question is showing.
    pub confirm_close: bool,
    /// The user chose to close (no more questions).
    pub closing: bool,
    /// Close once the pending save succeeds ("Save and close").
    pub close_after_save: bool,
    /// Show the debug overlay (frame time, tessellation).
    pub debug_overlay: bool,
    /// Timing of recent frames.
    pub frames: FrameTimes,
    /// When set, file dialogs are not shown: this answers them (tests).
    pub dialog_hook: Option<DialogHook>,
    /// The book list and its window.
    pub book: book::BookPanel,
    /// The Difficulty section's search knobs, running search and last outcome.
    pub targets: targets::TargetsPanel,
    /// Starts the background tasks (maze, search, book export, thumbnails); tests switch it to
    /// inline with [`HedgeApp::run_tasks_inline`].
    pub tasks: Spawner,
    shape: ShapeCache,
    worker: Worker,
    generation: u64,
    next_id: u64,
}

/// How long the app's own work took in recent frames (the debug overlay shows it).
#[derive(Clone, Debug, Default)]
pub struct FrameTimes {
    /// The last frame's time spent in the app (UI, preview, commands), in milliseconds.
    pub last_ms: f32,
    /// The slowest of the last 60 frames.
    pub max_ms: f32,
    /// The last 60 frames, newest last.
    pub recent: std::collections::VecDeque<f32>,
}

impl FrameTimes {
    /// Records one frame.
    pub fn push(&mut self, ms: f32) {
        self.last_ms = ms;
        self.recent.push_back(ms);
        if self.recent.len() > 60 {
            self.recent.pop_front();
        }
        self.max_ms = self.recent.iter().copied().fold(0.0, f32::max);
    }

    /// The mean of the recent frames.
    pub fn mean_ms(&self) -> f32 {
        if self.recent.is_empty() {
            0.0
        } else {
            self.recent.iter().sum::<f32>() / self.recent.len() as f32
        }
    }
}

/// A shape's source and the folder its relative path starts from.
type PictureKey = (ShapeSource, Option<PathBuf>);

/// What a shape's picture and cut came to, kept so knob changes do not decode it again.
#[derive(Default)]
struct ShapeCache {
    /// The source and the folder relative paths start from, and the decoded picture.
    picture: Option<(PictureKey, Result<Arc<crate::io::LoadedShape>, String>)>,
    /// The cut of that picture.
    cut: Option<(Cut, Result<Arc<Foreground>, String>)>,
}

impl ShapeCache {
    fn foreground(
        &mut self,
        source: &ShapeSource,
        base: Option<PathBuf>,
        cut: Cut,
    ) -> Result<Arc<Foreground>, String> {
        let key = (source.clone(), base);
        if self.picture.as_ref().is_none_or(|(k, _)| *k != key) {
            let loaded = crate::io::load_shape(source, key.1.as_deref())
                .map(Arc::new)
                .map_err(|e| e.to_string());
            self.picture = Some((key, loaded));
            self.cut = None;
        }
        let picture = match &self.picture {
            Some((_, Ok(p))) => Arc::clone(p),
            Some((_, Err(e))) => return Err(e.clone()),
            None => return Err("no picture".into()),
        };
        if self.cut.as_ref().is_none_or(|(c, _)| *c != cut) {
            let fg = Foreground::from_picture(&picture.picture, cut)
                .map(Arc::new)
                .map_err(|e| match source {
                    ShapeSource::File(p) => format!("{e}: {}", p.display()),
                    ShapeSource::Builtin(_) => e.to_string(),
                });
            self.cut = Some((cut, fg));
        }
        match &self.cut {
            Some((_, r)) => r.clone(),
            None => Err("no cut".into()),
        }
    }
}

/// Knob values the editor keeps the design within.
pub fn clamp_design(mut d: Design) -> Design {
    d.width = d.width.clamp(1, 500);
    d.height = d.height.clamp(1, 500);
    d.braid = if d.braid.is_finite() {
        d.braid.clamp(0.0, 1.0)
    } else {
        0.0
    };
    d.weave = if d.weave.is_finite() {
        d.weave.clamp(0.0, 1.0)
    } else {
        0.0
    };
    d.seed = Some(d.seed.map_or_else(fresh_seed, |s| s.min(MAX_SEED)));
    d
}

/// Roughly how many cells `d` has (for deciding whether to generate in the frame).
pub fn estimated_cells(d: &Design) -> u64 {
    let (w, h) = (u64::from(d.width), u64::from(d.height));
    match d.grid_topology() {
        // rings double their cell count as they grow: about 2 pi r cells in ring r
        TopologyKind::Polar => 4 * w * w,
        TopologyKind::Tri => 2 * w * h,
        _ => w * h,
    }
}

impl HedgeApp {
    /// The editor, restoring the last design from eframe's storage when there is one.
    pub fn new(cc: &eframe::CreationContext<'_>) -> Self {
        let persisted = cc.storage.map(Persisted::load).unwrap_or_default();
        let ctx = cc.egui_ctx.clone();
        let mut app = HedgeApp::with_tasks(persisted, Spawner::new(move || ctx.request_repaint()));
        app.regenerate();
        // autosave in real runs only (those with eframe storage; tests have none)
        match default_autosave_path().filter(|_| cc.storage.is_some()) {
            Some(p) => app.with_autosave(p),
            None => app,
        }
    }

    /// The editor without a window context (the worker's results are picked up on the next poll).
    pub fn headless(persisted: Persisted) -> Self {
        let mut app = HedgeApp::with_tasks(persisted, Spawner::new(|| {}));
        app.regenerate();
        app
    }

    /// Runs every later background task inline, on the UI thread, before the frame that starts
    /// it ends (or, with `false`, on threads again): tests see each command's outcome at once,
    /// with no waiting.
    pub fn run_tasks_inline(&mut self, inline: bool) {
        self.tasks.set_inline(inline);
    }

    /// Blocks until every background task has finished and its result is applied: the maze,
    /// the difficulty search (a search made stale by an edit is cancelled first) and the book
    /// export. A test hook: it waits on the tasks' channels, never by sleeping.
    pub fn finish_tasks(&mut self) {
        self.poll();
        while !self.worker.idle() || self.searching() || self.book.exporting() {
            if let Some(r) = self.worker.wait() {
                self.accept(r);
            }
            targets::wait(self);
            self.wait_book();
            self.poll();
        }
    }

    fn with_tasks(p: Persisted, tasks: Spawner) -> Self {
        let worker = Worker::new(tasks.clone());
        let mut app = HedgeApp {
            design: clamp_design(p.design),
            history: Undoer::with_settings(undoer::Settings {
                max_undos: UNDO_DEPTH,
                ..undoer::Settings::default()
            }),
            last_coalesce: false,
            current: Current::None,
            answer_key: p.answer_key,
            view: View::default(),
            path: p.path,
            message: None,
            pending: Vec::new(),
            show_crossings: p.show_crossings,
            show_mask: false,
            tool: Tool::default(),
            placement: None,
            stroke: None,
            thumbnails: thumbs::Thumbnails::new(tasks.clone()),
            raster: Raster::default(),
            recent: p.recent,
            saved: Design::default(),
            autosave: None,
            autosaved: None,
            autosaved_at: None,
            confirm_close: false,
            closing: false,
            close_after_save: false,
            debug_overlay: false,
            frames: FrameTimes::default(),
            dialog_hook: None,
            book: book::BookPanel::new(p.book),
            targets: targets::TargetsPanel::default(),
            tasks,
            shape: ShapeCache::default(),
            worker,
            generation: 0,
            next_id: 0,
        };
        app.saved = app.design.clone();
        app
    }

    /// Turns on autosave to `path`. When the file is there already, the last run ended
    /// without closing (a crash, a kill): its design is restored, as an undoable edit.
    pub fn with_autosave(mut self, path: PathBuf) -> Self {
        if let Ok(text) = std::fs::read_to_string(&path)
            && let Ok(d) = crate::io::parse_design(&text)
        {
            let d = clamp_design(d);
            if d != self.design {
                self.set_design(d, false);
                self.message = Some(Ok(format!(
                    "restored the design autosaved before the last run ended ({})",
                    path.display()
                )));
            }
        }
        self.autosaved = Some(self.design.clone());
        self.autosave = Some(path);
        self
    }

    /// Whether the design differs from the one last opened or saved.
    pub fn unsaved(&self) -> bool {
        self.design != self.saved
    }

    /// Writes the design to the autosave file when it changed (at most once a second unless
    /// `now`). Errors are ignored: autosave must never get in the way.
    pub fn autosave_now(&mut self, force: bool) {
        let Some(path) = &self.autosave else { return };
        if self.autosaved.as_ref() == Some(&self.design) {
            return;
        }
        if !force
            && self
                .autosaved_at
                .is_some_and(|t| t.elapsed() < Duration::from_secs(1))
        {
            return;
        }
        if let Some(dir) = path.parent() {
            let _ = std::fs::create_dir_all(dir);
        }
        let text = crate::io::design_to_toml(&self.design);
        if crate::io::write_atomic(path, text.as_bytes()).is_ok() {
            self.autosaved = Some(self.design.clone());
            self.autosaved_at = Some(Instant::now());
        }
    }

    /// A clean exit: the autosave file is no longer needed.
    pub fn remove_autosave(&mut self) {
        if let Some(path) = &self.autosave {
            let _ = std::fs::remove_file(path);
        }
    }

    fn remember(&mut self, path: &Path) {
        let p = path.display().to_string();
        self.recent.retain(|r| *r != p);
        self.recent.insert(0, p);
        self.recent.truncate(RECENT);
    }

    /// What is saved between runs.
    pub fn persisted(&self) -> Persisted {
        Persisted {
            design: self.design.clone(),
            answer_key: self.answer_key,
            path: self.path.clone(),
            show_crossings: self.show_crossings,
            recent: self.recent.clone(),
            book: self.book.list.clone(),
        }
    }

    /// Whether a maze is being made in the background.
    pub fn busy(&self) -> bool {
        self.worker.busy()
    }

    /// The newest maze, if the last generation succeeded.
    pub fn generated(&self) -> Option<&Generated> {
        match &self.current {
            Current::Maze { generated, .. } => Some(generated),
            _ => None,
        }
    }

    /// The newest error line, if the last generation failed.
    pub fn error(&self) -> Option<&str> {
        match &self.current {
            Current::Error(e) => Some(e),
            _ => None,
        }
    }

    /// The shape's foreground for the current design (decoded and cut once, then cached).
    pub fn foreground(&mut self) -> Option<Result<Arc<Foreground>, String>> {
        let source = self.design.shape.clone()?;
        let cut = Cut {
            threshold: self.design.threshold,
            invert: self.design.invert,
        };
        Some(self.shape.foreground(&source, self.base_dir(), cut))
    }

    /// The folder relative shape paths start from: the design file's.
    pub fn base_dir(&self) -> Option<PathBuf> {
        let p = Path::new(self.path.trim());
        p.parent()
            .filter(|d| !d.as_os_str().is_empty())
            .map(Path::to_path_buf)
    }

    /// Starts making the maze for the current design: in the frame when it is small, on the
    /// worker otherwise. Any older job becomes stale.
    pub fn regenerate(&mut self) {
        let generation = self.worker.next_generation();
        self.generation = generation;
        let shape = match self.foreground() {
            None => None,
            Some(Ok(fg)) => Some(fg),
            Some(Err(e)) => {
                self.worker.mark_done(generation);
                self.current = Current::Error(e);
                return;
            }
        };
        let job = Job {
            design: self.design.clone(),
            shape,
        };
        if estimated_cells(&self.design) <= INLINE_CELLS {
            let r = worker::run_job(generation, &job);
            self.worker.mark_done(generation);
            self.accept(r);
        } else {
            self.worker.submit(generation, job);
            // an inline task (tests) has finished already
            if let Some(r) = self.worker.poll() {
                self.accept(r);
            }
        }
    }

    /// Brings the preview up to date after the design changed from `old`: a new layout when
    /// only the page setup changed (the same maze), a new maze otherwise.
    fn refresh(&mut self, old: &Design) {
        let relayout = old.same_maze(&self.design) && !self.busy();
        match &mut self.current {
            Current::Maze {
                generated,
                preview,
                id,
                ..
            } if relayout => {
                *preview = PagePreview::new(generated, &self.design.page).map(Arc::new);
                self.next_id += 1;
                *id = self.next_id;
            }
            Current::Tiles {
                tiles, preview, id, ..
            } if relayout => {
                *preview = tiles::page_preview(&tiles.maze, &self.design.page).map(Arc::new);
                self.next_id += 1;
                *id = self.next_id;
            }
            _ => self.regenerate(),
        }
    }

    /// Picks up a finished background job, if any. Called every frame.
    pub fn poll(&mut self) {
        if let Some(r) = self.worker.poll() {
            self.accept(r);
        }
        targets::poll(self);
    }

    fn accept(&mut self, r: JobResult) {
        if r.generation != self.generation {
            return;
        }
        self.current = match r.outcome {
            Ok(made) => {
                self.next_id += 1;
                let preview = made.preview.map(Arc::new);
                let (id, elapsed) = (self.next_id, r.elapsed);
                match made.product {
                    worker::Product::Walls(generated) => Current::Maze {
                        generated,
                        preview,
                        id,
                        elapsed,
                    },
                    worker::Product::Tiles(tiles) => Current::Tiles {
                        tiles,
                        preview,
                        id,
                        elapsed,
                    },
                }
            }
            Err(e) => Current::Error(e),
        };
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
        match &self.current {
            Current::Maze {
                preview: Ok(p), id, ..
            }
            | Current::Tiles {
                preview: Ok(p), id, ..
            } => Some((*id, p)),
            _ => None,
        }
    }

    /// Why the page setup cannot hold the newest maze, if it cannot.
    pub fn page_error(&self) -> Option<&str> {
        match &self.current {
            Current::Maze {
                preview: Err(e), ..
            }
            | Current::Tiles {
                preview: Err(e), ..
            } => Some(e),
            _ => None,
        }
    }

    /// Makes `design` the design: a new undo step, unless `coalesce` continues the previous
    /// edit (a slider drag or a brush stroke is one step).
    fn set_design(&mut self, design: Design, coalesce: bool) {
        let design = clamp_design(design);
        if design == self.design {
            self.last_coalesce = coalesce;
            return;
        }
        if !(coalesce && self.last_coalesce) {
            // the design before the edit becomes an undo point
            self.history.add_undo(&self.design);
        }
        self.last_coalesce = coalesce;
        let old = std::mem::replace(&mut self.design, design);
        // tells the undoer the design moved on, so it drops the undone steps; its clock stands
        // still, so it never adds undo points of its own (steps are the edits, not pauses)
        self.history.feed_state(0.0, &self.design);
        self.refresh(&old);
    }

    /// Whether there is an edit to undo.
    pub fn can_undo(&self) -> bool {
        self.history.has_undo(&self.design)
    }

    /// Whether there is an undone edit to redo.
    pub fn can_redo(&self) -> bool {
        self.history.has_redo(&self.design)
    }

    /// How many edits can be undone, one after another (counted on a copy of the history).
    pub fn undo_steps(&self) -> usize {
        let mut history = self.history.clone();
        let mut design = self.design.clone();
        let mut steps = 0;
        while let Some(d) = history.undo(&design) {
            design = d.clone();
            steps += 1;
        }
        steps
    }

    /// Applies every queued command, in order.
    pub fn apply_pending(&mut self, ctx: Option<&egui::Context>) {
        let pending = std::mem::take(&mut self.pending);
        if let Some(ctx) = ctx.filter(|_| !pending.is_empty()) {
            // the commands changed the state after this frame drew it: draw the next one
            ctx.request_repaint();
        }
        for cmd in pending {
            self.apply(cmd, ctx);
        }
    }

    /// Applies one command. `ctx` is needed only for [`Command::Quit`] (and lets a book export
    /// or a search wake the window).
    pub fn apply(&mut self, cmd: Command, ctx: Option<&egui::Context>) {
        match cmd {
            Command::Edit { design, coalesce } => self.set_design(*design, coalesce),
            Command::New => self.set_design(
                Design {
                    seed: Some(fresh_seed()),
                    ..Design::default()
                },
                false,
            ),
            Command::NewSeed => {
                let mut d = self.design.clone();
                let old = d.seed;
                while d.seed == old {
                    d.seed = Some(fresh_seed());
                }
                self.set_design(d, false);
            }
            Command::Undo => {
                if let Some(d) = self.history.undo(&self.design).cloned() {
                    let old = std::mem::replace(&mut self.design, d);
                    self.last_coalesce = false;
                    self.refresh(&old);
                }
            }
            Command::Redo => {
                if let Some(d) = self.history.redo(&self.design).cloned() {
                    let old = std::mem::replace(&mut self.design, d);
                    self.last_coalesce = false;
                    self.refresh(&old);
                }
            }
            Command::OpenDesign(path) => {
                self.message = Some(match crate::io::read_design(&path) {
                    Ok(d) => {
                        self.path = path.display().to_string();
                        self.set_design(d, false);
                        self.saved = self.design.clone();
                        self.remember(&path);
                        Ok(format!("opened {}", path.display()))
                    }
                    Err(e) => Err(e.to_string()),
                });
            }
            Command::SaveDesign(path) => {
                let text = crate::io::design_to_toml(&self.design);
                self.message = Some(
                    crate::io::write_atomic(&path, text.as_bytes())
                        .map(|()| format!("saved {}", path.display()))
                        .map_err(|e| e.to_string()),
                );
                if self.message.as_ref().is_some_and(Result::is_ok) {
                    self.path = path.display().to_string();
                    self.saved = self.design.clone();
                    self.remember(&path);
                }
            }
            Command::ExportJson(path) => self.message = Some(self.export_json(&path)),
            Command::Export(kind, path) => self.message = Some(self.export(kind, &path)),
            Command::ExportByName(path) => match ExportKind::of_path(&path) {
                Some(kind) => self.apply(Command::Export(kind, path), ctx),
                None => {
                    self.message = Some(Err(format!(
                        "export to which format? end the name with .pdf, .svg, .png or .json: {}",
                        path.display()
                    )));
                }
            },
            Command::OpenDialog => {
                if let Some(p) = self.ask(&DialogRequest::OpenDesign) {
                    self.apply(Command::OpenDesign(p), ctx);
                }
            }
            Command::SaveDialog => {
                if let Some(p) = self.ask(&DialogRequest::SaveDesign) {
                    self.apply(Command::SaveDesign(p), ctx);
                }
            }
            Command::ExportDialog(kind) => {
                if let Some(p) = self.ask(&DialogRequest::Export(kind)) {
                    self.apply(Command::Export(kind, p), ctx);
                }
            }
            Command::SetShape(source) => {
                let mut d = self.design.clone();
                d.shape = source;
                d.cell_edits.clear();
                if let Some(src) = &d.shape {
                    let cut = Cut {
                        threshold: d.threshold,
                        invert: d.invert,
                    };
                    match self.shape.foreground(src, self.base_dir(), cut) {
                        Ok(fg) => {
                            if let Ok(h) =
                                crate::shape::fitted_height(d.grid_topology(), d.width, &fg)
                            {
                                d.height = h;
                            }
                        }
                        Err(e) => {
                            self.message = Some(Err(e));
                            return;
                        }
                    }
                }
                self.set_design(d, false);
            }
            Command::OpenImageDialog => {
                if let Some(p) = self.ask(&DialogRequest::OpenImage) {
                    self.apply(Command::SetShape(Some(ShapeSource::File(p))), ctx);
                }
            }
            Command::Paint { edits, coalesce } => {
                let mut d = self.design.clone();
                for e in edits {
                    d.cell_edits.retain(|o| o.coord() != e.coord());
                    d.cell_edits.push(e);
                }
                self.set_design(d, coalesce);
            }
            Command::PlaceEnd { cell, exit } => {
                let Some(g) = self.generated() else { return };
                let grid = g.maze.grid();
                let (mut entrance, mut out) =
                    (grid.coord(g.entrance.cell), grid.coord(g.exit.cell));
                if exit {
                    out = cell;
                } else {
                    entrance = cell;
                }
                if entrance == out {
                    self.message =
                        Some(Err("the entrance and the exit need different cells".into()));
                    return;
                }
                let placement = crate::endpoints::Placement::Cells {
                    entrance,
                    exit: out,
                };
                // try it on the maze shown before changing the design
                match crate::endpoints::place(&g.maze, placement) {
                    Ok(_) => {
                        let mut d = self.design.clone();
                        d.placement = placement;
                        self.message = None;
                        self.set_design(d, false);
                    }
                    Err(e) => self.message = Some(Err(e.to_string())),
                }
            }
            Command::ClearEdits => {
                let mut d = self.design.clone();
                d.cell_edits.clear();
                self.set_design(d, false);
            }
            Command::CloseWithoutSaving => {
                self.closing = true;
                self.confirm_close = false;
                if let Some(ctx) = ctx {
                    ctx.send_viewport_cmd(egui::ViewportCommand::Close);
                }
            }
            Command::Quit => {
                if let Some(ctx) = ctx {
                    ctx.send_viewport_cmd(egui::ViewportCommand::Close);
                }
            }
            Command::Book(c) => self.apply_book(c),
            Command::ApplyPreset(name) => targets::apply_preset(self, name),
            Command::FindMaze => targets::start(self),
            Command::CancelSearch => targets::cancel(self),
        }
    }

    /// Asks for a path: through the test hook when set, an rfd dialog otherwise. `None` (no
    /// dialog could be shown, or the user cancelled) leaves a message pointing at the path box.
    fn ask(&mut self, req: &DialogRequest) -> Option<PathBuf> {
        let picked = match &mut self.dialog_hook {
            Some(hook) => hook(req),
            None => self.dialog(req),
        };
        if picked.is_none() {
            self.message = Some(Ok(
                "no file chosen (if no dialog appeared, type a path in the File box)".into(),
            ));
        }
        picked
    }

    fn dialog(&self, req: &DialogRequest) -> Option<PathBuf> {
        let mut d = rfd::FileDialog::new();
        if let Some(dir) = self.base_dir().filter(|p| p.is_dir()) {
            d = d.set_directory(dir);
        }
        let stem = Path::new(self.path.trim())
            .file_stem()
            .and_then(|s| s.to_str())
            .filter(|s| !s.is_empty())
            .unwrap_or("maze")
            .to_string();
        match req {
            DialogRequest::OpenDesign => d.add_filter("design", &["toml"]).pick_file(),
            DialogRequest::SaveDesign => d
                .add_filter("design", &["toml"])
                .set_file_name(format!("{stem}.toml"))
                .save_file(),
            DialogRequest::Export(kind) => d
                .add_filter(kind.label(), &[kind.extension()])
                .set_file_name(format!("{stem}.{}", kind.extension()))
                .save_file(),
            DialogRequest::OpenImage => d
                .add_filter(
                    "picture",
                    &["png", "jpg", "jpeg", "gif", "bmp", "webp", "svg"],
                )
                .pick_file(),
            DialogRequest::OpenBook => d.add_filter("book", &["toml"]).pick_file(),
            DialogRequest::SaveBook => d
                .add_filter("book", &["toml"])
                .set_file_name("book.toml")
                .save_file(),
            DialogRequest::ExportBook => d
                .add_filter("PDF", &["pdf"])
                .set_file_name("book.pdf")
                .save_file(),
        }
    }

    /// Asks before the window closes with unsaved changes.
    fn closing_question(&mut self, ctx: &egui::Context) {
        if ctx.input(|i| i.viewport().close_requested()) && self.unsaved() && !self.closing {
            ctx.send_viewport_cmd(egui::ViewportCommand::CancelClose);
            self.confirm_close = true;
        }
    }

    fn export(&self, kind: ExportKind, path: &Path) -> Result<String, String> {
        use crate::export::{self, Format};
        let format = match kind {
            ExportKind::Json => return self.export_json(path),
            ExportKind::Pdf => Format::Pdf,
            ExportKind::Svg => Format::Svg,
            ExportKind::Png => Format::Png {
                dpi: export::DEFAULT_DPI,
            },
        };
        let page = &self.design.page;
        let rendered = match self.ready_tiles()? {
            Some(t) => export::render_tiles(&t.maze, page, format),
            None => export::render(self.ready()?, page, format),
        }
        .map_err(|e| e.to_string())?;
        let written = crate::io::write_rendered(&rendered, path).map_err(|e| e.to_string())?;
        let names: Vec<String> = written.iter().map(|p| p.display().to_string()).collect();
        Ok(format!("exported {}", names.join(" and ")))
    }

    /// The maze to export, or why there is none.
    fn ready(&self) -> Result<&Generated, String> {
        if self.busy() {
            return Err("the maze is still being made; export again in a moment".into());
        }
        match &self.current {
            Current::Maze { generated, .. } => Ok(generated),
            Current::Tiles { .. } => Err("a tile maze has no cells and walls".into()),
            Current::Error(e) => Err(format!("nothing to export: {e}")),
            Current::None => Err("nothing to export yet".into()),
        }
    }

    fn export_json(&self, path: &Path) -> Result<String, String> {
        if let Some(t) = self.ready_tiles()? {
            return crate::io::write_atomic(path, &t.maze.to_json(t.seed))
                .map(|()| format!("exported {}", path.display()))
                .map_err(|e| e.to_string());
        }
        let g = self.ready()?;
        crate::io::write_atomic_with(path, |w| crate::json::write(g, w))
            .map(|()| format!("exported {}", path.display()))
            .map_err(|e| e.to_string())
    }
}

impl eframe::App for HedgeApp {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        let start = Instant::now();
        self.poll();
        ui::show(self, ui);
        let ctx = ui.ctx().clone();
        self.apply_pending(Some(&ctx));
        if self.busy() {
            ctx.request_repaint_after(Duration::from_millis(50));
        }
        if std::mem::take(&mut self.close_after_save) && !self.unsaved() {
            self.apply(Command::CloseWithoutSaving, Some(&ctx));
        }
        self.autosave_now(false);
        self.closing_question(&ctx);
        self.frames.push(start.elapsed().as_secs_f32() * 1000.0);
    }

    fn on_exit(&mut self, _gl: Option<&eframe::glow::Context>) {
        self.remove_autosave();
    }

    fn save(&mut self, storage: &mut dyn eframe::Storage) {
        self.persisted().store(storage);
    }
}

/// The message printed when there is no display to open a window on.
pub const NO_DISPLAY: &str =
    "hedge: no display found; use `hedge generate ...` (see `hedge --help`)";

/// Whether the environment names a display (X11 or Wayland).
pub fn display_available() -> bool {
    ["DISPLAY", "WAYLAND_DISPLAY"]
        .iter()
        .any(|v| std::env::var_os(v).is_some_and(|s| !s.is_empty()))
}

/// Opens the editor window and runs it until it is closed. Errors are one line for stderr.
pub fn run() -> Result<(), String> {
    if !display_available() {
        return Err(NO_DISPLAY.into());
    }
    let options = eframe::NativeOptions {
        renderer: eframe::Renderer::Glow,
        viewport: egui::ViewportBuilder::default()
            .with_title("Hedge")
            .with_app_id(APP_ID)
            .with_inner_size([1100.0, 750.0])
            .with_min_inner_size([640.0, 420.0]),
        ..Default::default()
    };
    eframe::run_native(
        "Hedge",
        options,
        Box::new(|cc| Ok(Box::new(HedgeApp::new(cc)))),
    )
    .map_err(|e| format!("hedge: cannot open the editor: {e}"))
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// Blocks until the worker (and any difficulty search) is done.
    pub(crate) fn settle(app: &mut HedgeApp) {
        app.finish_tasks();
        assert!(!app.busy() && !app.searching());
    }

    /// An in-memory [`eframe::Storage`].
    #[derive(Default)]
    struct Memory(std::collections::BTreeMap<String, String>);

    impl eframe::Storage for Memory {
        fn get_string(&self, key: &str) -> Option<String> {
            self.0.get(key).cloned()
        }
        fn set_string(&mut self, key: &str, value: String) {
            self.0.insert(key.to_string(), value);
        }
        fn remove_string(&mut self, key: &str) {
            self.0.remove(key);
        }
        fn flush(&mut self) {}
    }

    #[test]
    fn the_last_design_survives_a_restart() {
        use eframe::Storage as _;
        let p = Persisted {
            design: Design {
                topology: TopologyKind::Hex,
                braid: 0.25,
                seed: Some(77),
                growing_tree: crate::carve::GrowingTreePolicy::Mixed(0.3),
                ..Design::default()
            },
            answer_key: true,
            path: "/tmp/x.toml".into(),
            show_crossings: true,
            recent: vec!["/tmp/x.toml".into()],
            book: book::BookList {
                pages: vec![book::Page {
                    design: Design {
                        seed: Some(3),
                        shape: Some(ShapeSource::Builtin("owl".into())),
                        ..Design::default()
                    },
                }],
                ..book::BookList::default()
            },
        };
        let mut m = Memory::default();
        p.store(&mut m);
        assert_eq!(Persisted::load(&m), p);
        // garbage and old saves fall back to defaults instead of failing
        m.set_string(DESIGN_KEY, "width = \"wide\"".into());
        m.set_string(eframe::APP_KEY, "(answer_key: true, future_knob: 3)".into());
        let back = Persisted::load(&m);
        assert_eq!(back.design, Design::default());
        assert_eq!(Persisted::load(&Memory::default()), Persisted::default());
    }

    #[test]
    fn edits_undo_and_redo() {
        let mut app = HedgeApp::headless(Persisted::default());
        let first = app.design.clone();
        assert!(first.seed.is_some());
        let mut d = first.clone();
        d.braid = 0.5;
        app.apply(
            Command::Edit {
                design: Box::new(d.clone()),
                coalesce: true,
            },
            None,
        );
        d.braid = 0.6;
        app.apply(
            Command::Edit {
                design: Box::new(d.clone()),
                coalesce: true,
            },
            None,
        );
        assert_eq!(app.undo_steps(), 1, "a drag is one undo step");
        app.apply(Command::Undo, None);
        assert_eq!(app.design, first);
        app.apply(Command::Redo, None);
        assert_eq!(app.design.braid, 0.6);
    }

    /// Edits the braid to `braid` as its own step.
    fn braid(app: &mut HedgeApp, braid: f64) {
        let mut d = app.design.clone();
        d.braid = braid;
        app.apply(
            Command::Edit {
                design: Box::new(d),
                coalesce: false,
            },
            None,
        );
    }

    #[test]
    fn a_new_edit_drops_the_undone_ones_and_the_history_has_a_depth() {
        let mut app = HedgeApp::headless(Persisted::default());
        let first = app.design.clone();
        assert!(!app.can_undo() && !app.can_redo());
        braid(&mut app, 0.1);
        braid(&mut app, 0.2);
        braid(&mut app, 0.3);
        app.apply(Command::Undo, None);
        app.apply(Command::Undo, None);
        assert_eq!(app.design.braid, 0.1);
        assert!(app.can_redo());
        // a new edit: 0.2 and 0.3 cannot come back
        braid(&mut app, 0.5);
        assert!(!app.can_redo());
        app.apply(Command::Redo, None);
        assert_eq!(app.design.braid, 0.5);
        assert_eq!(app.undo_steps(), 2);
        app.apply(Command::Undo, None);
        assert_eq!(app.design.braid, 0.1);
        app.apply(Command::Redo, None);
        assert_eq!(app.design.braid, 0.5, "the redo is the new edit");
        app.apply(Command::Undo, None);
        app.apply(Command::Undo, None);
        assert_eq!(app.design, first);
        assert!(!app.can_undo());
        // the oldest steps go past the depth
        for i in 0..UNDO_DEPTH + 20 {
            braid(&mut app, (i + 1) as f64 / 1000.0);
        }
        assert_eq!(app.undo_steps(), UNDO_DEPTH);
    }

    #[test]
    fn big_designs_go_to_the_worker() {
        let mut app = HedgeApp::headless(Persisted::default());
        let d = Design {
            width: 120,
            height: 120,
            ..app.design.clone()
        };
        app.apply(
            Command::Edit {
                design: Box::new(d),
                coalesce: false,
            },
            None,
        );
        settle(&mut app);
        assert_eq!(app.generated().unwrap().metrics.cells, 14_400);
        assert!(app.preview().is_some());
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
        let d = Design {
            placement: hedge_placement_inside(),
            ..app.design.clone()
        };
        app.apply(
            Command::Edit {
                design: Box::new(d),
                coalesce: false,
            },
            None,
        );
        settle(&mut app);
        assert!(app.error().unwrap().contains("not on the outline"));
        app.apply(Command::OpenDesign("/no/such/file.toml".into()), None);
        assert!(matches!(&app.message, Some(Err(e)) if e.contains("/no/such/file.toml")));
    }
}
