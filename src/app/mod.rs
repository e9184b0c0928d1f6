//! The desktop editor (egui/eframe), behind the `gui` cargo feature.
//!
//! Split the way the egui demo app and rerun's viewer are: this file holds the state
//! ([`HedgeApp`]) and the logic (the [`Command`]s the UI emits, applied once at the end of each
//! frame); [`ui`] draws the panels; [`preview`] paints the maze; [`worker`] makes mazes on a
//! background thread so a frame never blocks. The app does its file I/O through [`crate::io`].

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::design::{Design, MAX_SEED};
use crate::pipeline::Generated;
use crate::random::fresh_seed;
use crate::topology::TopologyKind;

pub mod preview;
pub mod ui;
pub mod worker;

use preview::{Shapes, View};
use worker::{JobResult, Worker};

/// Designs at most this many cells (roughly) are made inside the frame; bigger ones go to the
/// worker thread.
pub const INLINE_CELLS: u64 = 2_500;

/// The most undo steps kept.
pub const UNDO_DEPTH: usize = 200;

/// What the UI asks for; applied once at the end of the frame by [`HedgeApp::apply`].
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// Replace the design (a knob edit). `coalesce` merges it into the previous undo step (a
    /// slider being dragged).
    Edit {
        /// The new design.
        design: Design,
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
    /// Show a file dialog to pick a design to open.
    OpenDialog,
    /// Show a file dialog to save the design.
    SaveDialog,
    /// Show a file dialog to export JSON.
    ExportDialog,
    /// Close the window.
    Quit,
}

/// What is kept between runs: the design, the answer-key toggle and the file path.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Persisted {
    /// The last design.
    pub design: Design,
    /// Whether the solution was shown.
    pub answer_key: bool,
    /// The path in the file field.
    pub path: String,
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
        Persisted {
            design,
            answer_key: prefs.answer_key,
            path: prefs.path,
        }
    }

    /// Writes this into eframe's storage.
    pub fn store(&self, storage: &mut dyn eframe::Storage) {
        storage.set_string(DESIGN_KEY, crate::io::design_to_toml(&self.design));
        eframe::set_value(
            storage,
            eframe::APP_KEY,
            &Prefs {
                answer_key: self.answer_key,
                path: self.path.clone(),
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
    /// A maze, its shapes for the preview, and how long it took.
    Maze {
        /// The maze.
        generated: Box<Generated>,
        /// Its lines, in maze units.
        shapes: Shapes,
        /// Generation time.
        elapsed: Duration,
    },
    /// The pipeline's error, one line.
    Error(String),
}

/// The editor: the design being edited, its history, the newest maze, and the view.
pub struct HedgeApp {
    /// The design being edited (its seed is always set).
    pub design: Design,
    /// Earlier designs, newest last.
    pub undo: Vec<Design>,
    /// Undone designs, newest last.
    pub redo: Vec<Design>,
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
    worker: Worker,
    generation: u64,
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
    match d.topology {
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
        let mut app = HedgeApp::with_worker(persisted, Worker::new(move || ctx.request_repaint()));
        app.regenerate();
        app
    }

    /// The editor without a window context (the worker's results are picked up on the next poll).
    pub fn headless(persisted: Persisted) -> Self {
        let mut app = HedgeApp::with_worker(persisted, Worker::new(|| {}));
        app.regenerate();
        app
    }

    fn with_worker(p: Persisted, worker: Worker) -> Self {
        HedgeApp {
            design: clamp_design(p.design),
            undo: Vec::new(),
            redo: Vec::new(),
            last_coalesce: false,
            current: Current::None,
            answer_key: p.answer_key,
            view: View::default(),
            path: p.path,
            message: None,
            pending: Vec::new(),
            worker,
            generation: 0,
        }
    }

    /// What is saved between runs.
    pub fn persisted(&self) -> Persisted {
        Persisted {
            design: self.design.clone(),
            answer_key: self.answer_key,
            path: self.path.clone(),
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

    /// Starts making the maze for the current design: in the frame when it is small, on the
    /// worker otherwise. Any older job becomes stale.
    pub fn regenerate(&mut self) {
        let generation = self.worker.next_generation();
        self.generation = generation;
        if estimated_cells(&self.design) <= INLINE_CELLS {
            let r = worker::run_job(generation, &self.design);
            self.worker.mark_done(generation);
            self.accept(r);
        } else if let Some(r) = self.worker.submit(generation, self.design.clone()) {
            self.worker.mark_done(generation);
            self.accept(r);
        }
    }

    /// Picks up a finished background job, if any. Called every frame.
    pub fn poll(&mut self) {
        if let Some(r) = self.worker.poll() {
            self.accept(r);
        }
    }

    fn accept(&mut self, r: JobResult) {
        if r.generation != self.generation {
            return;
        }
        let old_extent = self.shapes().map(|s| s.extent);
        self.current = match r.outcome {
            Ok(g) => {
                let shapes = Shapes::of(&g);
                if old_extent != Some(shapes.extent) {
                    self.view = View::default();
                }
                Current::Maze {
                    generated: Box::new(g),
                    shapes,
                    elapsed: r.elapsed,
                }
            }
            Err(e) => Current::Error(e),
        };
    }

    /// The preview's lines for the newest maze.
    pub fn shapes(&self) -> Option<&Shapes> {
        match &self.current {
            Current::Maze { shapes, .. } => Some(shapes),
            _ => None,
        }
    }

    fn set_design(&mut self, design: Design, coalesce: bool) {
        let design = clamp_design(design);
        if design == self.design {
            self.last_coalesce = coalesce;
            return;
        }
        if !(coalesce && self.last_coalesce) {
            self.undo.push(self.design.clone());
            if self.undo.len() > UNDO_DEPTH {
                self.undo.remove(0);
            }
        }
        self.last_coalesce = coalesce;
        self.redo.clear();
        self.design = design;
        self.regenerate();
    }

    /// Applies every queued command, in order.
    pub fn apply_pending(&mut self, ctx: Option<&egui::Context>) {
        for cmd in std::mem::take(&mut self.pending) {
            self.apply(cmd, ctx);
        }
    }

    /// Applies one command. `ctx` is needed only for [`Command::Quit`].
    pub fn apply(&mut self, cmd: Command, ctx: Option<&egui::Context>) {
        match cmd {
            Command::Edit { design, coalesce } => self.set_design(design, coalesce),
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
                if let Some(d) = self.undo.pop() {
                    self.redo.push(std::mem::replace(&mut self.design, d));
                    self.last_coalesce = false;
                    self.regenerate();
                }
            }
            Command::Redo => {
                if let Some(d) = self.redo.pop() {
                    self.undo.push(std::mem::replace(&mut self.design, d));
                    self.last_coalesce = false;
                    self.regenerate();
                }
            }
            Command::OpenDesign(path) => {
                self.message = Some(match crate::io::read_design(&path) {
                    Ok(d) => {
                        self.set_design(d, false);
                        self.path = path.display().to_string();
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
                }
            }
            Command::ExportJson(path) => self.message = Some(self.export_json(&path)),
            Command::OpenDialog => {
                if let Some(p) = self.dialog().add_filter("design", &["toml"]).pick_file() {
                    self.apply(Command::OpenDesign(p), ctx);
                } else {
                    self.no_dialog();
                }
            }
            Command::SaveDialog => {
                let dlg = self
                    .dialog()
                    .add_filter("design", &["toml"])
                    .set_file_name("maze.toml");
                if let Some(p) = dlg.save_file() {
                    self.apply(Command::SaveDesign(p), ctx);
                } else {
                    self.no_dialog();
                }
            }
            Command::ExportDialog => {
                let dlg = self
                    .dialog()
                    .add_filter("JSON", &["json"])
                    .set_file_name("maze.json");
                if let Some(p) = dlg.save_file() {
                    self.apply(Command::ExportJson(p), ctx);
                } else {
                    self.no_dialog();
                }
            }
            Command::Quit => {
                if let Some(ctx) = ctx {
                    ctx.send_viewport_cmd(egui::ViewportCommand::Close);
                }
            }
        }
    }

    fn dialog(&self) -> rfd::FileDialog {
        let mut d = rfd::FileDialog::new();
        if let Some(dir) = Path::new(&self.path).parent().filter(|p| p.is_dir()) {
            d = d.set_directory(dir);
        }
        d
    }

    fn no_dialog(&mut self) {
        self.message = Some(Ok(
            "no file chosen (if no dialog appeared, type a path in the File box)".into(),
        ));
    }

    fn export_json(&self, path: &Path) -> Result<String, String> {
        if self.busy() {
            return Err("the maze is still being made; export again in a moment".into());
        }
        let g = match &self.current {
            Current::Maze { generated, .. } => generated,
            Current::Error(e) => return Err(format!("nothing to export: {e}")),
            Current::None => return Err("nothing to export yet".into()),
        };
        crate::io::write_atomic_with(path, |w| crate::json::write(g, w))
            .map(|()| format!("exported {}", path.display()))
            .map_err(|e| e.to_string())
    }
}

impl eframe::App for HedgeApp {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        self.poll();
        ui::show(self, ui);
        let ctx = ui.ctx().clone();
        self.apply_pending(Some(&ctx));
        if self.busy() {
            ctx.request_repaint_after(Duration::from_millis(50));
        }
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
            .with_app_id("hedge")
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
mod tests {
    use super::*;

    fn settle(app: &mut HedgeApp) {
        let start = std::time::Instant::now();
        while app.busy() {
            app.poll();
            assert!(start.elapsed() < Duration::from_secs(30));
            std::thread::sleep(Duration::from_millis(2));
        }
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
                design: d.clone(),
                coalesce: true,
            },
            None,
        );
        d.braid = 0.6;
        app.apply(
            Command::Edit {
                design: d.clone(),
                coalesce: true,
            },
            None,
        );
        assert_eq!(app.undo.len(), 1, "a drag is one undo step");
        app.apply(Command::Undo, None);
        assert_eq!(app.design, first);
        app.apply(Command::Redo, None);
        assert_eq!(app.design.braid, 0.6);
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
                design: d,
                coalesce: false,
            },
            None,
        );
        settle(&mut app);
        assert_eq!(app.generated().unwrap().metrics.cells, 14_400);
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
                design: d,
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
