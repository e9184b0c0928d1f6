//! The editor's file controls: the File menu and its keyboard shortcuts, the Files section of
//! the knobs (the design's own file, the typed path and its buttons), files dropped on the
//! window, and the questions asked before changes not saved are dropped (closing the window,
//! File > New), which say which file Save writes.
//!
//! As in `ui.rs`, nothing here changes the app directly: every action is a [`Command`].

use egui::{Key, KeyboardShortcut, Modifiers, RichText};

use super::close::Question;
use super::{Command, ExportKind, HedgeApp};
use crate::shape::ShapeSource;

/// Ctrl+N, Ctrl+O, Ctrl+S (Ctrl+Shift+S: save as), Ctrl+E: what the File menu's items do.
pub const FILE_SHORTCUTS: [(Modifiers, Key, &str); 5] = [
    (Modifiers::COMMAND, Key::N, "New"),
    (Modifiers::COMMAND, Key::O, "Open design..."),
    (Modifiers::COMMAND, Key::S, "Save"),
    (
        Modifiers::COMMAND.plus(Modifiers::SHIFT),
        Key::S,
        "Save design as...",
    ),
    (Modifiers::COMMAND, Key::E, "Export PDF..."),
];

/// The command of a File menu item (by its label).
fn file_command(item: &str) -> Option<Command> {
    Some(match item {
        "New" => Command::New,
        "Open design..." => Command::OpenDialog,
        "Save" => Command::Save,
        "Save design as..." => Command::SaveDialog,
        "Export PDF..." => Command::ExportDialog(ExportKind::PDF),
        _ => return None,
    })
}

/// The shortcut text shown beside the File menu's item `item`, if it has one.
fn shortcut_of(ui: &egui::Ui, item: &str) -> String {
    FILE_SHORTCUTS
        .iter()
        .find(|(_, _, i)| *i == item)
        .map(|&(m, k, _)| ui.ctx().format_shortcut(&KeyboardShortcut::new(m, k)))
        .unwrap_or_default()
}

/// The file shortcuts; they work with a text field focused too (they are not text edits).
pub(super) fn shortcuts(app: &mut HedgeApp, ui: &mut egui::Ui) {
    // the shift variant first: consume_shortcut matches Ctrl+S loosely
    let mut file = FILE_SHORTCUTS;
    file.sort_by_key(|(m, _, _)| std::cmp::Reverse(m.shift));
    ui.input_mut(|i| {
        if let Some(cmd) = file
            .iter()
            .find(|&&(m, k, _)| i.consume_shortcut(&KeyboardShortcut::new(m, k)))
            .and_then(|(_, _, item)| file_command(item))
        {
            app.pending.push(cmd);
        }
    });
}

/// The question showing, if any: closing with changes not saved, or File > New with them.
pub(super) fn questions(app: &mut HedgeApp, ui: &mut egui::Ui) {
    match app.close.question() {
        Some(Question::Close) => close_question(app, ui),
        Some(Question::New) => new_question(app, ui),
        None => {}
    }
}

/// The menu bar: File, Edit, View and Book.
pub(super) fn menu_bar(app: &mut HedgeApp, ui: &mut egui::Ui) {
    egui::MenuBar::new().ui(ui, |ui| {
        ui.menu_button("File", |ui| {
            for item in ["New", "Open design...", "Save", "Save design as..."] {
                let button = egui::Button::new(item).shortcut_text(shortcut_of(ui, item));
                // (each of these has a shortcut)
                let button = match (item, app.doc.file()) {
                    ("Save", Some(f)) => ui.add(button).on_hover_text(format!(
                        "save to {}",
                        f.file_name().unwrap_or(f.as_os_str()).display()
                    )),
                    ("Save", None) => ui
                        .add(button)
                        .on_hover_text("the design has no file yet: asks where to save it"),
                    _ => ui.add(button),
                };
                if button.clicked()
                    && let Some(cmd) = file_command(item)
                {
                    app.pending.push(cmd);
                }
            }
            ui.add_enabled_ui(!app.doc.recent().is_empty(), |ui| {
                ui.menu_button("Open recent", |ui| {
                    for r in app.doc.recent().to_vec() {
                        if ui.button(&r).clicked() {
                            app.pending
                                .push(Command::OpenDesign(std::path::PathBuf::from(r)));
                        }
                    }
                });
            });
            for kind in ExportKind::ALL {
                let item = format!("Export {}...", kind.label());
                let shortcut = shortcut_of(ui, &item);
                let button = if shortcut.is_empty() {
                    egui::Button::new(item)
                } else {
                    egui::Button::new(item).shortcut_text(shortcut)
                };
                if ui.add(button).clicked() {
                    app.pending.push(Command::ExportDialog(kind));
                }
            }
            ui.separator();
            if ui.button("Quit").clicked() {
                app.pending.push(Command::Quit);
            }
        });
        ui.menu_button("Edit", |ui| {
            let undo = egui::Button::new("Undo").shortcut_text(
                ui.ctx()
                    .format_shortcut(&KeyboardShortcut::new(Modifiers::COMMAND, Key::Z)),
            );
            if ui.add_enabled(app.can_undo(), undo).clicked() {
                app.pending.push(Command::Undo);
            }
            let redo = egui::Button::new("Redo").shortcut_text(ui.ctx().format_shortcut(
                &KeyboardShortcut::new(Modifiers::COMMAND | Modifiers::SHIFT, Key::Z),
            ));
            if ui.add_enabled(app.can_redo(), redo).clicked() {
                app.pending.push(Command::Redo);
            }
        });
        ui.menu_button("View", |ui| {
            ui.checkbox(app.view.debug_overlay_mut(), "Debug overlay")
                .on_hover_text("frame time and preview figures (F12)");
        });
        ui.menu_button("Book", |ui| super::book::menu(app, ui));
    });
}

/// The Files section: the design's own file, the path box and its Open, Save as, Shape and
/// Export buttons (a typed path where no file dialog shows), and an export button for each
/// format. Save writes the design's own file only; the box never decides where Save writes.
pub(super) fn files_section(app: &mut HedgeApp, ui: &mut egui::Ui) {
    ui.heading("Files");
    ui.horizontal_wrapped(|ui| {
        ui.label("Design file:");
        match app.doc.file() {
            Some(f) => ui
                .label(
                    RichText::new(f.file_name().unwrap_or(f.as_os_str()).display().to_string())
                        .strong(),
                )
                .on_hover_text(f.display().to_string()),
            None => ui.label(RichText::new("none yet").weak()),
        };
        if app.unsaved() {
            ui.label(RichText::new("(changed)").weak());
        }
    });
    let label = ui.label("Path");
    ui.add(
        egui::TextEdit::singleline(&mut app.path)
            .hint_text("/path/to/maze.toml, .pdf, .png...")
            .desired_width(f32::INFINITY),
    )
    .labelled_by(label.id);
    let path = std::path::PathBuf::from(app.path.trim());
    let has_path = !app.path.trim().is_empty();
    ui.horizontal_wrapped(|ui| {
        if ui
            .add_enabled(has_path, egui::Button::new("Open"))
            .on_hover_text("open the design file (.toml, or a maze .json) at this path")
            .clicked()
        {
            app.pending.push(Command::OpenDesign(path.clone()));
        }
        if ui
            .add_enabled(has_path, egui::Button::new("Save as"))
            .on_hover_text("save the design to this path, which must end with .toml")
            .clicked()
        {
            app.pending.push(Command::SaveDesign(path.clone()));
        }
        if ui
            .add_enabled(has_path, egui::Button::new("Shape"))
            .on_hover_text("use the picture at this path as the shape")
            .clicked()
        {
            app.pending
                .push(Command::SetShape(Some(ShapeSource::File(path.clone()))));
        }
        if ui
            .add_enabled(has_path, egui::Button::new("Export"))
            .on_hover_text("writes the format the name ends with: .pdf, .svg, .png, .json or .txt")
            .clicked()
        {
            app.pending.push(Command::ExportByName(path.clone()));
        }
    });
    ui.horizontal_wrapped(|ui| {
        ui.label("Export:");
        for kind in ExportKind::ALL {
            if ui
                .button(format!("{}...", kind.label()))
                .on_hover_text(format!("export {} through a file dialog", kind.label()))
                .clicked()
            {
                app.pending.push(Command::ExportDialog(kind));
            }
        }
    });
}

/// A file dropped on the window is opened as what it is: a design file (.toml, .json) or a
/// book file, or any other file as a picture for the shape.
pub(super) fn dropped_files(app: &mut HedgeApp, ui: &egui::Ui) {
    let dropped = ui.input(|i| i.raw.dropped_files.clone());
    for f in dropped {
        let path = f.path().to_path_buf();
        if path.as_os_str().is_empty() {
            continue;
        }
        let file = path
            .extension()
            .and_then(|e| e.to_str())
            .is_some_and(|e| e.eq_ignore_ascii_case("toml") || e.eq_ignore_ascii_case("json"));
        app.pending.push(if file {
            Command::OpenFile(path)
        } else {
            Command::SetShape(Some(ShapeSource::File(path)))
        });
    }
}

/// Where Save writes, for the questions: "NAME" or that it asks.
fn save_target(app: &HedgeApp) -> String {
    match app.doc.file() {
        Some(f) => format!("Save writes {}.", f.display()),
        None => "The design has no file yet: Save asks where to save it.".into(),
    }
}

/// "Save your changes?" when the window is closed with unsaved changes; it says which file
/// Save writes.
fn close_question(app: &mut HedgeApp, ui: &mut egui::Ui) {
    egui::Modal::new(egui::Id::unique("close-question")).show(ui.ctx(), |ui| {
        ui.heading("Unsaved changes");
        ui.label("The design has changes that are not saved to a file.");
        ui.label(save_target(app));
        ui.horizontal(|ui| {
            if ui.button("Save and close").clicked() {
                app.pending.push(Command::Save);
                app.close.save_and_close();
            }
            if ui.button("Close without saving").clicked() {
                app.pending.push(Command::CloseWithoutSaving);
            }
            if ui.button("Cancel").clicked() {
                app.close.dismiss();
            }
        });
    });
}

/// "Discard your changes?" when File > New is asked for with unsaved changes.
fn new_question(app: &mut HedgeApp, ui: &mut egui::Ui) {
    egui::Modal::new(egui::Id::unique("new-question")).show(ui.ctx(), |ui| {
        ui.heading("Start a new design?");
        ui.label("The design has changes that are not saved to a file; a new design drops them.");
        ui.label(save_target(app));
        ui.horizontal(|ui| {
            if ui.button("Save first").clicked() {
                app.pending.push(Command::Save);
                app.close.dismiss();
            }
            if ui.button("Discard and start new").clicked() {
                app.pending.push(Command::NewDiscarding);
            }
            if ui.button("Cancel").clicked() {
                app.close.dismiss();
            }
        });
    });
}
