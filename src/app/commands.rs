//! The commands: what the UI asks for ([`Command`]), applied once at the end of each frame, and
//! what they do that is not editing the design: file dialogs (or the test hook standing in for
//! them), opening, saving and exporting.

use std::path::{Path, PathBuf};

use super::background::Shaping;
use super::close::Question;
use super::{HedgeApp, book, targets};
use crate::design::Design;
use crate::random::fresh_seed;
use crate::shape::ShapeSource;

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
    /// A fresh default design with a new seed (asks first when the design has changes not
    /// saved).
    New,
    /// A fresh default design with a new seed, the changes not saved dropped (one undo step).
    NewDiscarding,
    /// Save the design to its own file, or ask where when it has none (Ctrl+S).
    Save,
    /// Draw a new seed.
    NewSeed,
    /// Undo the last knob edit.
    Undo,
    /// Redo the last undone edit.
    Redo,
    /// Load a design file (TOML).
    OpenDesign(PathBuf),
    /// Open whatever `path` is (`hedge FILE`, a file dropped on the window): a design (.toml,
    /// or a maze's .json), a book file (.toml with a `[book]` table or `pages`) or a picture
    /// for the shape.
    OpenFile(PathBuf),
    /// Save the design as TOML at this path (a `.toml` name; without an extension, `.toml` is
    /// added; any other is refused).
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
    /// Use this SVG file (or none) as the start picture, or as the finish picture.
    SetEndPicture {
        /// The finish picture rather than the start picture.
        finish: bool,
        /// The picture file; `None` goes back to the theme's picture or the word.
        path: Option<PathBuf>,
    },
    /// Show a file dialog to pick the start (or the finish) picture.
    EndPictureDialog {
        /// The finish picture rather than the start picture.
        finish: bool,
    },
    /// Use this picture file (SVG, PNG, JPEG, ...) as the item to collect.
    SetItemPicture(PathBuf),
    /// Show a file dialog to pick a picture of your own for the items to collect.
    ItemPictureDialog,
    /// Use this picture file as the picture the path reveals.
    SetRevealPicture(PathBuf),
    /// Show a file dialog to pick a picture of your own for the path to reveal.
    RevealPictureDialog,
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
    /// Forget every lock and re-carved region (one undo step).
    ClearHandWork,
    /// Lock the wall between two neighbouring cells as it stands, or unlock it.
    LockWall {
        /// One cell beside the wall.
        a: crate::topology::Coord,
        /// The cell across it.
        b: crate::topology::Coord,
    },
    /// Carve these cells again from a new seed, the rest of the maze unchanged.
    Recarve {
        /// The region's cells.
        cells: Vec<crate::topology::Coord>,
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
    /// Stop reading the shape's picture (a shape being set is not set).
    CancelReading,
    /// Stop the export running in the background; nothing is written.
    CancelExport,
    /// Stop opening a book file; the book list stays as it was.
    CancelOpening,
}

/// What an export writes: an output of the registry the command line writes from too
/// ([`crate::export::OUTPUTS`]), so the editor exports every format `hedge generate` does.
pub use crate::export::Output as ExportKind;

impl ExportKind {
    /// Every kind, in menu order.
    pub const ALL: [ExportKind; crate::export::OUTPUTS.len()] = crate::export::OUTPUTS;

    /// The kind a file name's extension names.
    pub fn of_path(path: &Path) -> Option<ExportKind> {
        ExportKind::from_extension(path.extension()?.to_str()?)
    }

    /// The file an export of this kind to `path` writes: `path` when its extension is the
    /// kind's, with the extension added when it has none. Another extension, or the design's
    /// own file `design`, is refused: an export never writes over a design or a file of another
    /// kind.
    pub fn file(self, path: &Path, design: Option<&Path>) -> Result<PathBuf, String> {
        let ext = self.extension();
        let file = match path.extension().and_then(|e| e.to_str()) {
            _ if path.file_name().is_none() => {
                return Err(format!(
                    "export to which file? name it, ending with .{ext}: {}",
                    path.display()
                ));
            }
            Some(e) if e.eq_ignore_ascii_case(ext) => path.to_path_buf(),
            None => path.with_extension(ext),
            Some(_) => {
                return Err(format!(
                    "a {} export is written as .{ext}, never over another kind of file: end the \
                     name with .{ext}: {}",
                    self.label(),
                    path.display()
                ));
            }
        };
        if design == Some(file.as_path()) {
            return Err(format!(
                "that is the design's own file; export to another name: {}",
                file.display()
            ));
        }
        Ok(file)
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
    /// Pick an SVG picture for the start (or, `true`, the finish).
    EndPicture(bool),
    /// Pick a picture of your own for the items to collect.
    ItemPicture,
    /// Pick a picture of your own for the path to reveal.
    RevealPicture,
    /// Pick a book file to open.
    OpenBook,
    /// Pick where to save the book file.
    SaveBook,
    /// Pick where to write the book's PDF.
    ExportBook,
}

/// The files a shape's or a picture to reveal's dialog offers (every format a shape is read from).
const PICTURE_FILES: [&str; 7] = ["png", "jpg", "jpeg", "gif", "bmp", "webp", "svg"];

/// Stands in for the file dialogs (tests): returns the path a user would have picked.
pub type DialogHook = Box<dyn FnMut(&DialogRequest) -> Option<PathBuf> + Send>;

impl HedgeApp {
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
            Command::Edit { design, coalesce } => {
                let picked = design.pick != self.design().pick;
                self.set_design(*design, coalesce);
                // a new pick whose cut is not ready: the height follows it once it is
                if picked {
                    self.work.picked();
                }
            }
            Command::New if self.unsaved() => self.close.ask(Question::New),
            Command::New | Command::NewDiscarding => self.new_design(),
            Command::Save => self.save(ctx),
            Command::NewSeed => self.new_seed(),
            Command::Undo => self.undo(),
            Command::Redo => self.redo(),
            Command::OpenDesign(path) => self.open_design(&path),
            Command::OpenFile(path) => self.open_file(path),
            Command::SaveDesign(path) => self.save_design(&path),
            Command::ExportJson(path) => self.start_file_export(ExportKind::Json, path),
            Command::Export(kind, path) => self.start_file_export(kind, path),
            Command::ExportByName(path) => match ExportKind::of_path(&path) {
                Some(kind) => self.apply(Command::Export(kind, path), ctx),
                None => {
                    self.message = Some(Err(format!(
                        "export to which format? end the name with .pdf, .svg, .png, .json or .txt \
                         (a design is saved with Save as): {}",
                        path.display()
                    )));
                }
            },
            Command::OpenDialog => self.choose(DialogRequest::OpenDesign, ctx),
            Command::SaveDialog => self.choose(DialogRequest::SaveDesign, ctx),
            Command::ExportDialog(kind) => self.choose(DialogRequest::Export(kind), ctx),
            Command::SetShape(source) => self.set_shape(source),
            Command::OpenImageDialog => self.choose(DialogRequest::OpenImage, ctx),
            Command::SetEndPicture { finish, path } => self.set_end_picture(finish, path),
            Command::EndPictureDialog { finish } => {
                self.choose(DialogRequest::EndPicture(finish), ctx)
            }
            Command::SetItemPicture(path) => {
                let mut d = self.design().clone();
                if let Some(w) = d.walls_mut() {
                    w.items = vec![path.to_string_lossy().into_owned()];
                }
                self.set_design(d, false);
            }
            Command::ItemPictureDialog => self.choose(DialogRequest::ItemPicture, ctx),
            Command::SetRevealPicture(path) => {
                let mut d = self.design().clone();
                if let Some(w) = d.walls_mut() {
                    w.reveal = Some(ShapeSource::File(path));
                }
                self.set_design(d, false);
            }
            Command::RevealPictureDialog => self.choose(DialogRequest::RevealPicture, ctx),
            Command::Paint { edits, coalesce } => self.paint(edits, coalesce),
            Command::PlaceEnd { cell, exit } => self.place_end(cell, exit),
            Command::LockWall { a, b } => self.lock_wall(a, b),
            Command::Recarve { cells } => self.recarve(cells),
            Command::ClearHandWork => {
                let mut d = self.design().clone();
                super::hand::clear(&mut d);
                self.set_design(d, false);
            }
            Command::ClearEdits => {
                let mut d = self.design().clone();
                d.cell_edits.clear();
                self.set_design(d, false);
            }
            Command::CloseWithoutSaving => {
                self.close.close();
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
            Command::CancelReading => self.cancel_reading(),
            Command::CancelOpening => self.work.files_mut().cancel(),
            Command::CancelExport => self.cancel_export(),
        }
    }

    /// A fresh default design with a new seed and no file (one undo step): nothing to save.
    fn new_design(&mut self) {
        self.close.dismiss();
        self.set_design(
            Design {
                seed: Some(fresh_seed()),
                ..Design::default()
            },
            false,
        );
        self.doc.set_file(None);
        self.doc.mark_saved();
    }

    /// Draws a seed other than the current one (one undo step).
    fn new_seed(&mut self) {
        let mut d = self.design().clone();
        let old = d.seed;
        while d.seed == old {
            d.seed = Some(fresh_seed());
        }
        self.set_design(d, false);
    }

    /// Goes back to the design before the last edit, if there is one.
    fn undo(&mut self) {
        if let Some(old) = self.doc.undo() {
            self.refresh(&old);
        }
    }

    /// Goes forward to the design last undone, if there is one.
    fn redo(&mut self) {
        if let Some(old) = self.doc.redo() {
            self.refresh(&old);
        }
    }

    /// Uses `source` as the shape (its painting cleared, the height fitted to it); a photo whose
    /// subject cannot be told opens the picker. A picture not read yet is read in the
    /// background first: the design changes once it is (the previous maze shows meanwhile).
    fn set_shape(&mut self, source: Option<ShapeSource>) {
        self.work.await_shape(None);
        let mut d = self.design().clone();
        if d.shape != source {
            d.pick = None; // a pick is of the picture it was made on
        }
        d.shape = source;
        d.cell_edits.clear();
        // locks and regions are of the old shape's cells, as the painting is
        super::hand::clear(&mut d);
        let key = self.shape_key(&d);
        match self.shaping(key.clone()) {
            Shaping::None => {}
            Shaping::Reading => {
                self.work.await_shape(d.shape);
                return;
            }
            Shaping::Ready(fg) => {
                if let Ok(h) =
                    crate::sizing::shape_grid(d.grid_topology(), d.width, &fg, None).map(|(_, h)| h)
                {
                    d.height = h;
                }
            }
            // a photo is the shape all the same: its subject is picked with the wand
            Shaping::Failed(_) if key.as_ref().is_some_and(|k| self.looks_like_photo(k)) => {
                self.picker = true;
            }
            Shaping::Failed(e) => {
                self.message = Some(Err(e));
                return;
            }
        }
        self.set_design(d, false);
    }

    /// Sets the start (or the finish) picture's file, or goes back to none.
    fn set_end_picture(&mut self, finish: bool, path: Option<PathBuf>) {
        let mut d = self.design().clone();
        let page = &mut d.page;
        *(if finish {
            &mut page.finish_picture
        } else {
            &mut page.start_picture
        }) = path;
        self.set_design(d, false);
    }

    /// Switches the brush's cells on or off (`coalesce` continues the stroke).
    fn paint(&mut self, edits: Vec<crate::design::CellEdit>, coalesce: bool) {
        let mut d = self.design().clone();
        for e in edits {
            d.cell_edits.retain(|o| o.coord() != e.coord());
            d.cell_edits.push(e);
        }
        self.set_design(d, coalesce);
    }

    /// Puts the entrance (or the exit) on `cell`, once tried on the maze shown.
    fn place_end(&mut self, cell: crate::topology::Coord, exit: bool) {
        if self.design().walls().starts > 1 {
            self.message = Some(Err(
                "a \"Which path?\" puzzle places its own entrances and exit (Starts above 1)"
                    .into(),
            ));
            return;
        }
        let Some(g) = self.generated() else { return };
        let grid = g.maze.grid();
        let (mut entrance, mut out) = (grid.coord(g.entrance.cell), grid.coord(g.exit.cell));
        if exit {
            out = cell;
        } else {
            entrance = cell;
        }
        if entrance == out {
            self.message = Some(Err("the entrance and the exit need different cells".into()));
            return;
        }
        let placement = crate::endpoints::Placement::Cells {
            entrance,
            exit: out,
        };
        // try it on the maze shown before changing the design
        match crate::endpoints::place(&g.maze, placement) {
            Ok(_) => {
                let mut d = self.design().clone();
                if let Some(w) = d.walls_mut() {
                    w.placement = placement;
                }
                // an auto page stays the way it is shown: the ends' labels take room on other
                // sides, which could turn the page under the pointer (the Orientation knob then
                // reads the way it is)
                if d.page.orientation == crate::page::Orientation::Auto
                    && let Some((_, p)) = self.preview()
                {
                    d.page.orientation = p.pages.layout.orientation;
                }
                self.message = None;
                self.set_design(d, false);
            }
            Err(e) => self.message = Some(Err(e.to_string())),
        }
    }

    /// Asks for a path: through the test hook when set, an rfd dialog otherwise. `None` (no
    /// dialog could be shown, or the user cancelled) leaves a message pointing at the path box.
    pub(super) fn ask(&mut self, req: &DialogRequest) -> Option<PathBuf> {
        let picked = match &mut self.dialog_hook {
            Some(hook) => hook(req),
            None => self.dialog(req),
        };
        if picked.is_none() {
            self.message = Some(Ok(
                "no file chosen in a dialog: type a path in the window that opened".into(),
            ));
        }
        picked
    }

    pub(super) fn dialog(&self, req: &DialogRequest) -> Option<PathBuf> {
        let mut d = rfd::FileDialog::new();
        if let Some(dir) = self.base_dir().filter(|p| p.is_dir()) {
            d = d.set_directory(dir);
        }
        let stem = self.stem();
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
            DialogRequest::OpenImage | DialogRequest::RevealPicture => {
                d.add_filter("picture", &PICTURE_FILES).pick_file()
            }
            DialogRequest::EndPicture(_) => d.add_filter("SVG picture", &["svg"]).pick_file(),
            DialogRequest::ItemPicture => d
                .add_filter("picture", &crate::items::ITEM_FILES)
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
    pub(super) fn closing_question(&mut self, ctx: &egui::Context) {
        if ctx.input(|i| i.viewport().close_requested()) && self.unsaved() && !self.close.closing()
        {
            ctx.send_viewport_cmd(egui::ViewportCommand::CancelClose);
            self.close.ask(Question::Close);
        }
    }
}
