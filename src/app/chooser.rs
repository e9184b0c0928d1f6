//! Every file chooser also takes a typed path. The system's file dialog comes first (rfd: the
//! desktop portal, else zenity); when it gives no file (there is neither on the desktop, or the
//! user closed it), the editor's own small window asks for the path, the folder and a
//! suggested name filled in, and OK does what the dialog would have done. So opening, saving
//! and exporting designs and books and choosing pictures work on any desktop.

use std::path::{Path, PathBuf};

use egui::RichText;

use super::book::BookCommand;
use super::{Command, DialogRequest, HedgeApp};
use crate::shape::ShapeSource;

/// The typed-path window: what it chooses for, and the path typed so far.
#[derive(Clone, Debug, PartialEq)]
pub struct Chooser {
    /// What the path is for.
    pub request: DialogRequest,
    /// The path as typed.
    pub path: String,
}

impl DialogRequest {
    /// The command a path chosen for this request gives.
    pub fn command(&self, path: PathBuf) -> Command {
        match self {
            DialogRequest::OpenDesign => Command::OpenDesign(path),
            DialogRequest::SaveDesign => Command::SaveDesign(path),
            DialogRequest::Export(kind) => Command::Export(*kind, path),
            DialogRequest::OpenImage => Command::SetShape(Some(ShapeSource::File(path))),
            DialogRequest::EndPicture(finish) => Command::SetEndPicture {
                finish: *finish,
                path: Some(path),
            },
            DialogRequest::ItemPicture => Command::SetItemPicture(path),
            DialogRequest::RevealPicture => Command::SetRevealPicture(path),
            DialogRequest::OpenBook => Command::Book(BookCommand::Open(path)),
            DialogRequest::SaveBook => Command::Book(BookCommand::Save(path)),
            DialogRequest::ExportBook => Command::Book(BookCommand::Export(path)),
        }
    }

    /// What the window asks for, as its title.
    pub fn title(&self) -> String {
        match self {
            DialogRequest::OpenDesign => "Open a design".into(),
            DialogRequest::SaveDesign => "Save the design as".into(),
            DialogRequest::Export(kind) => format!("Export {}", kind.label()),
            DialogRequest::OpenImage => "A picture for the shape".into(),
            DialogRequest::EndPicture(false) => "The start picture (SVG)".into(),
            DialogRequest::EndPicture(true) => "The finish picture (SVG)".into(),
            DialogRequest::ItemPicture => "The items' picture (SVG, PNG or JPEG)".into(),
            DialogRequest::RevealPicture => "The picture the path reveals".into(),
            DialogRequest::OpenBook => "Open a book".into(),
            DialogRequest::SaveBook => "Save the book as".into(),
            DialogRequest::ExportBook => "Export the book's PDF".into(),
        }
    }

    /// The file name suggested for a file to write (`stem` the design's), if it writes one.
    pub fn suggested_name(&self, stem: &str) -> Option<String> {
        Some(match self {
            DialogRequest::SaveDesign => format!("{stem}.toml"),
            DialogRequest::Export(kind) => format!("{stem}.{}", kind.extension()),
            DialogRequest::SaveBook => "book.toml".into(),
            DialogRequest::ExportBook => "book.pdf".into(),
            _ => return None,
        })
    }
}

impl HedgeApp {
    /// The stem of the design's file name (or of the typed path), for suggested names.
    pub(super) fn stem(&self) -> String {
        self.doc
            .file()
            .unwrap_or(Path::new(self.path.trim()))
            .file_stem()
            .and_then(|s| s.to_str())
            .filter(|s| !s.is_empty())
            .unwrap_or("maze")
            .to_string()
    }

    /// Asks for a path for `req` (a file dialog, or the test hook) and applies what it is for;
    /// with no answer, the typed-path window opens.
    pub(super) fn choose(&mut self, req: DialogRequest, ctx: Option<&egui::Context>) {
        match self.ask(&req) {
            Some(p) => self.apply(req.command(p), ctx),
            None => {
                let folder = self
                    .base_dir()
                    .map(|d| format!("{}/", d.display()))
                    .unwrap_or_default();
                let name = req.suggested_name(&self.stem()).unwrap_or_default();
                self.chooser = Some(Chooser {
                    request: req,
                    path: format!("{folder}{name}"),
                });
            }
        }
    }
}

/// The typed-path window, while a chooser waits for a path.
pub fn window(app: &mut HedgeApp, ui: &egui::Ui) {
    let Some(chooser) = &mut app.chooser else {
        return;
    };
    let mut done: Option<Option<PathBuf>> = None;
    egui::Window::new(chooser.request.title())
        .collapsible(false)
        .resizable(false)
        .anchor(egui::Align2::CENTER_CENTER, egui::Vec2::ZERO)
        .show(ui.ctx(), |ui| {
            ui.label(
                RichText::new(
                    "No file was chosen in a file dialog (there may be none on this desktop).",
                )
                .weak(),
            );
            let label = ui.label("Type the file's path:");
            let r = ui
                .add(
                    egui::TextEdit::singleline(&mut chooser.path)
                        .desired_width(360.0)
                        .hint_text("/home/me/mazes/maze.toml"),
                )
                .labelled_by(label.id);
            let typed = !chooser.path.trim().is_empty();
            let entered = r.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
            ui.horizontal(|ui| {
                if ui.add_enabled(typed, egui::Button::new("OK")).clicked() || (entered && typed) {
                    done = Some(Some(PathBuf::from(chooser.path.trim())));
                }
                if ui.button("Cancel").clicked() {
                    done = Some(None);
                }
            });
        });
    if let Some(picked) = done {
        let req = app.chooser.take().map(|c| c.request);
        if let (Some(req), Some(p)) = (req, picked) {
            app.pending.push(req.command(p));
        }
    }
}
