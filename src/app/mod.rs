//! The desktop editor (egui/eframe), behind the `gui` cargo feature.
//!
//! Split the way the egui demo app and rerun's viewer are. This file holds the editor's state
//! ([`HedgeApp`]), how it starts and its frame; the rest is in files named for what they own.
//! `HedgeApp` has no public fields: its parts keep their state private and are reached
//! through their methods (and the app's own, which tests use):
//! - `document.rs`: the design, its undo history, the saved state and autosave
//!   (`Document`: every change of the design goes through it);
//! - `view_state.rs`: what is shown and how, none of it in the design (`ViewState`);
//! - `background.rs`: the background tasks and the current maze made from the design
//!   (`Background`);
//! - [`close`]: the questions before changes are dropped, and closing (`CloseFlow`);
//! - `commands.rs`: the [`Command`]s the UI emits, applied once at the end of each
//!   frame (files, dialogs, exports);
//! - [`ui`] draws the panels (the knobs' Maze and Page sections in `maze_knobs.rs` and
//!   `page_knobs.rs`), [`picker`] the "Pick the subject" window; [`preview`] shows the page; [`worker`] makes mazes,
//!   reads and cuts shape pictures and exports files in the background, so a frame never
//!   blocks and the UI thread never decodes a picture or writes an export. Every background job
//!   (maze, picture, export, search, book export, thumbnails) is a [`task::Task`].
//!
//! The app does its file I/O through [`crate::io`].

use std::path::PathBuf;
use std::time::{Duration, Instant};

mod background;
pub mod book;
pub mod book_file;
pub mod chooser;
pub mod close;
mod commands;
mod document;
mod ends;
mod file_ui;
mod files;
mod hand;
mod maze_knobs;
mod page_knobs;
pub mod page_thumbs;
pub mod picker;
pub mod preview;
pub mod targets;
pub mod task;
pub mod thumbs;
pub mod tiles;
pub mod ui;
mod view_state;
pub mod worker;

pub use background::{Current, INLINE_CELLS, estimated_cells};
pub use commands::{Command, DialogHook, DialogRequest, ExportKind};
pub use document::{
    DESIGN_KEY, Persisted, Prefs, RECENT, UNDO_DEPTH, clamp_design, default_autosave_path,
};
pub use view_state::{FrameTimes, Tool};

use preview::Raster;
use task::Spawner;

/// The editor's app id: the window's, and the name of eframe's storage folder.
pub const APP_ID: &str = "hedge";

/// The paper sizes offered by name (custom sizes come from design files or the size boxes).
const PAPERS: [crate::page::Paper; 5] = [
    crate::page::Paper::A4,
    crate::page::Paper::Letter,
    crate::page::Paper::Trim85x11,
    crate::page::Paper::Trim8x10,
    crate::page::Paper::Trim6x9,
];

/// The editor: the document, the view, the background work, the close flow, and the panels'
/// own state (the typed path, the status line, the commands queued this frame, the windows).
pub struct HedgeApp {
    /// The design, its undo history, its file and saved state, the autosave ([`document`]).
    doc: document::Document,
    /// What the editor shows and how: the toggles, pan and zoom, the tool ([`view_state`]).
    view: view_state::ViewState,
    /// The file path field (Open / Save as / Shape / Export without a dialog): what was typed,
    /// never where Save writes by itself.
    path: String,
    /// The last file operation's outcome (shown in the status bar until the next one).
    message: Option<Result<String, String>>,
    /// Commands queued this frame.
    pending: Vec<Command>,
    /// The questions before changes not saved are dropped, and the window's closing.
    close: close::CloseFlow,
    /// When set, file dialogs are not shown: this answers them (tests).
    dialog_hook: Option<DialogHook>,
    /// The typed-path window, open when a file dialog gave no file ([`chooser`]).
    chooser: Option<chooser::Chooser>,
    /// The "Pick the subject" window is open ([`picker`]).
    picker: bool,
    /// The picture that window shows.
    picker_view: picker::PickerView,
    /// The book list and its window.
    book: book::BookPanel,
    /// The Difficulty section's search knobs, running search and last outcome.
    targets: targets::TargetsPanel,
    /// The background work and the maze made from the design ([`background`]).
    work: background::Background,
    /// The window title last sent to the window.
    title_shown: Option<String>,
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

    fn with_tasks(p: Persisted, tasks: Spawner) -> Self {
        let raster = Raster::new(tasks.clone());
        HedgeApp {
            doc: document::Document::new(p.design, p.file, p.recent),
            view: view_state::ViewState::new(p.answer_key, p.show_crossings, raster),
            path: p.path,
            message: None,
            pending: Vec::new(),
            close: close::CloseFlow::default(),
            dialog_hook: None,
            chooser: None,
            picker: false,
            picker_view: picker::PickerView::default(),
            book: book::BookPanel::new(p.book),
            targets: targets::TargetsPanel::default(),
            work: background::Background::new(tasks),
            title_shown: None,
        }
    }
}

impl eframe::App for HedgeApp {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        // debug builds count any file I/O made on this thread while the frame runs
        crate::io::on_ui_thread(|| self.frame(ui));
    }

    fn on_exit(&mut self, _gl: Option<&eframe::glow::Context>) {
        self.remove_autosave();
    }

    fn save(&mut self, storage: &mut dyn eframe::Storage) {
        self.persisted().store(storage);
    }
}

impl HedgeApp {
    /// One frame: the finished background work picked up, the window drawn, the commands
    /// applied.
    fn frame(&mut self, ui: &mut egui::Ui) {
        let start = Instant::now();
        self.poll();
        ui::show(self, ui);
        let ctx = ui.ctx().clone();
        self.apply_pending(Some(&ctx));
        if self.busy() || self.reading() || self.exporting() || self.work.files().busy() {
            ctx.request_repaint_after(Duration::from_millis(50));
        }
        // "Save and close": once the save has landed (a failed one keeps the window open)
        if !self.saving() && self.close.save_landed() && !self.unsaved() {
            self.apply(Command::CloseWithoutSaving, Some(&ctx));
        }
        self.autosave_now(false);
        self.closing_question(&ctx);
        let title = self.window_title();
        if self.title_shown.as_ref() != Some(&title) {
            ctx.send_viewport_cmd(egui::ViewportCommand::Title(title.clone()));
            self.title_shown = Some(title);
        }
        self.view.frame_done(start.elapsed().as_secs_f32() * 1000.0);
    }

    /// The question showing before changes not saved are dropped, if any.
    pub fn question(&self) -> Option<close::Question> {
        self.close.question()
    }

    /// Whether the user chose to close the window (no more questions).
    pub fn closing(&self) -> bool {
        self.close.closing()
    }

    /// The window's title: the design file's name (or "Untitled"), marked `*` while it has
    /// changes not saved, then "Hedge".
    pub fn window_title(&self) -> String {
        let name = self.doc.file().map_or("Untitled".into(), |f| {
            f.file_name()
                .unwrap_or(f.as_os_str())
                .to_string_lossy()
                .into_owned()
        });
        let mark = if self.unsaved() { "*" } else { "" };
        format!("{mark}{name} - Hedge")
    }

    /// The last file operation's outcome, as the status bar shows it.
    pub fn message(&self) -> &Option<Result<String, String>> {
        &self.message
    }

    /// Shows `message` in the status bar as a file operation's outcome would (tests).
    pub fn set_message(&mut self, message: Option<Result<String, String>>) {
        self.message = message;
    }

    /// Queues `cmd`, applied at the end of the frame as the panels' commands are.
    pub fn queue(&mut self, cmd: Command) {
        self.pending.push(cmd);
    }

    /// Types `path` in the file path box.
    pub fn type_path(&mut self, path: String) {
        self.path = path;
    }

    /// Stands `hook` in for the file dialogs (tests), or shows them again (`None`).
    pub fn set_dialog_hook(&mut self, hook: Option<DialogHook>) {
        self.dialog_hook = hook;
    }

    /// The typed-path window, when it is open.
    pub fn chooser(&self) -> Option<&chooser::Chooser> {
        self.chooser.as_ref()
    }

    /// The typed-path window, when it is open, to type in.
    pub fn chooser_mut(&mut self) -> Option<&mut chooser::Chooser> {
        self.chooser.as_mut()
    }

    /// Whether the "Pick the subject" window is open.
    pub fn picker_open(&self) -> bool {
        self.picker
    }

    /// The book list and its window.
    pub fn book(&self) -> &book::BookPanel {
        &self.book
    }

    /// The Difficulty section's search knobs, running search and last outcome.
    pub fn targets(&self) -> &targets::TargetsPanel {
        &self.targets
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

/// Opens the editor window and runs it until it is closed, with `file` open in it when given
/// (`hedge FILE`: a design, a maze's JSON, a book file or a picture; see
/// [`Command::OpenFile`]). Errors are one line for stderr.
pub fn run(file: Option<PathBuf>) -> Result<(), String> {
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
        Box::new(|cc| {
            let mut app = HedgeApp::new(cc);
            if let Some(f) = file {
                app.apply(Command::OpenFile(f), None);
            }
            Ok(Box::new(app))
        }),
    )
    .map_err(|e| format!("hedge: cannot open the editor: {e}"))
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::design::Design;

    /// Blocks until the worker (and any difficulty search) is done.
    pub(crate) fn settle(app: &mut HedgeApp) {
        app.finish_tasks();
        assert!(!app.busy() && !app.searching());
    }

    /// Replaces the design as a knob edit does (its own undo step); nothing is waited for.
    pub(crate) fn edit(app: &mut HedgeApp, d: Design) {
        app.apply(
            Command::Edit {
                design: Box::new(d),
                coalesce: false,
            },
            None,
        );
    }
}
