//! The editor's panels: menu bar, knobs on the left, status bar, preview in the middle.
//! The knobs' Maze and Page sections are in `maze_knobs.rs` and `page_knobs.rs`.
//!
//! Nothing here changes the app directly: every action is pushed as a [`Command`] onto
//! the app's queue ([`HedgeApp::queue`]) and applied once at the end of the frame.

use egui::{Color32, ComboBox, Key, KeyboardShortcut, Modifiers, RichText, Slider};

use super::{Command, Current, HedgeApp, Tool, file_ui, preview};
use crate::design::CellEdit;
use crate::design::{Design, Style};
use crate::shape::{Islands, ShapeSource, builtin};

/// The status bar's height, in rows of text: it never changes, so a line that appears or goes
/// (a message, a warning, a file being saved) never moves the page (more lines scroll).
pub const STATUS_ROWS: f32 = 4.0;

/// The knobs panel's width at first, and the least and most it is given (its contents wrap
/// or scroll within it, whatever their length).
pub const KNOBS_WIDTH: f32 = 290.0;
const KNOBS_MIN: f32 = 220.0;
const KNOBS_MAX: f32 = 480.0;

/// Draws the whole window for one frame.
pub fn show(app: &mut HedgeApp, ui: &mut egui::Ui) {
    shortcuts(app, ui);
    file_ui::dropped_files(app, ui);
    file_ui::questions(app, ui);
    super::chooser::window(app, ui);
    egui::Panel::top("menu").show(ui, |ui| file_ui::menu_bar(app, ui));
    let row = ui.spacing().interact_size.y + ui.spacing().item_spacing.y;
    egui::Panel::bottom("status")
        .resizable(false)
        .exact_size(STATUS_ROWS * row + 2.0 * ui.spacing().item_spacing.y + 8.0)
        .show(ui, |ui| {
            egui::ScrollArea::vertical()
                .id_salt("status lines")
                .auto_shrink([false, false])
                .show(ui, |ui| status_bar(app, ui));
        });
    egui::Panel::left("knobs")
        .resizable(true)
        .default_size(KNOBS_WIDTH)
        .size_range(KNOBS_MIN..=KNOBS_MAX)
        .show(ui, |ui| {
            egui::ScrollArea::vertical()
                .id_salt("knobs")
                .auto_shrink([false, false])
                .show(ui, |ui| knobs(app, ui));
        });
    super::book::show(app, ui);
    let walls = app.design().style() == Style::Walls;
    if !walls {
        app.view.pans_only(); // painting and placing the doors are for wall mazes
    }
    egui::CentralPanel::default().show(ui, |ui| {
        // one row that wraps the same way whatever the tool: the page below never moves with it
        let weave = app.generated().is_some_and(|g| g.metrics.crossings > 0);
        ui.horizontal_wrapped(|ui| app.view.toolbar(ui, walls, weave));
        let (response, place) = app.view.show_page(ui, app.work.preview());
        if let Some(place) = place {
            preview_clicks(app, ui, &response, place);
        }
        if app.view.debug_overlay() {
            debug_overlay(app, ui, response.rect);
        }
    });
}

/// The debug overlay: the app's own frame time and the preview raster's figures.
pub fn debug_text(app: &HedgeApp) -> String {
    app.view.debug_text()
}

fn debug_overlay(app: &HedgeApp, ui: &egui::Ui, rect: egui::Rect) {
    let painter = ui.painter_at(rect);
    let galley = painter.layout_no_wrap(
        debug_text(app),
        egui::FontId::monospace(12.0),
        Color32::WHITE,
    );
    let at = rect.left_top() + egui::vec2(8.0, 8.0);
    painter.rect_filled(
        egui::Rect::from_min_size(at, galley.size()).expand(4.0),
        4.0,
        Color32::from_black_alpha(180),
    );
    painter.galley(at, galley, Color32::WHITE);
}

fn shortcuts(app: &mut HedgeApp, ui: &mut egui::Ui) {
    super::file_ui::shortcuts(app, ui);
    if ui.ctx().text_edit_focused() {
        return; // a text field has focus: its own undo wins
    }
    if ui.input_mut(|i| i.consume_key(Modifiers::NONE, Key::F12)) {
        app.view.toggle_debug_overlay();
    }
    let redo = KeyboardShortcut::new(Modifiers::COMMAND | Modifiers::SHIFT, Key::Z);
    let redo_y = KeyboardShortcut::new(Modifiers::COMMAND, Key::Y);
    let undo = KeyboardShortcut::new(Modifiers::COMMAND, Key::Z);
    ui.input_mut(|i| {
        // the shift variant first: consume_shortcut matches Ctrl+Z loosely
        if i.consume_shortcut(&redo) || i.consume_shortcut(&redo_y) {
            app.pending.push(Command::Redo);
        } else if i.consume_shortcut(&undo) {
            app.pending.push(Command::Undo);
        }
    });
}

/// One line of measurements, or the error.
pub fn status_text(app: &HedgeApp) -> String {
    match app.work.current() {
        Current::None => "no maze yet".into(),
        Current::Error(e) => format!("error: {e}"),
        Current::Made { made, elapsed, .. } => {
            let generated = match &**made {
                crate::make::Made::Tiles(t) => return super::tiles::status(t, *elapsed),
                crate::make::Made::Walls(g) => g,
            };
            let m = &generated.metrics;
            format!(
                "{} cells · {} dead ends · solution {} ({:.1} %) · branching {:.2} · difficulty {:.1} · {} crossings · {:.1} ms",
                m.cells,
                m.dead_ends,
                m.solution_length,
                100.0 * m.solution_ratio,
                m.branching_factor,
                m.difficulty,
                m.crossings,
                elapsed.as_secs_f64() * 1000.0
            )
        }
    }
}

fn status_bar(app: &mut HedgeApp, ui: &mut egui::Ui) {
    app.task_bar(ui);
    ui.horizontal(|ui| {
        if app.busy() {
            ui.spinner();
            ui.label("making the maze...");
        }
        let text = status_text(app);
        if app.error().is_some() {
            ui.label(RichText::new(text).color(ui.visuals().error_fg_color));
        } else {
            ui.label(text);
        }
    });
    if let Some(msg) = &app.message {
        match msg {
            Ok(m) => ui.label(RichText::new(m).weak()),
            Err(e) => ui.label(RichText::new(e).color(ui.visuals().error_fg_color)),
        };
    }
    if let Some(e) = app.page_error() {
        ui.label(RichText::new(format!("page: {e}")).color(ui.visuals().error_fg_color));
    } else if let Some((_, p)) = app.preview() {
        for w in &p.warnings {
            ui.label(RichText::new(format!("print: {w}")).color(Color32::from_rgb(200, 140, 0)));
        }
    }
    if let Some((id, p)) = app.preview() {
        preflight_panel(ui, id, p);
    }
}

/// The preflight of the page on show (as an SVG or PNG: the PDF's fonts are checked on export),
/// as a collapsed line that opens to one line per check; worked out once per preview.
fn preflight_panel(ui: &mut egui::Ui, id: u64, p: &super::preview::PagePreview) {
    use crate::preflight::{self, Report};
    let key = egui::Id::unique("preflight report");
    let cached = ui
        .ctx()
        .data(|d| d.get_temp::<(u64, std::sync::Arc<Report>)>(key));
    let report = match cached {
        Some((at, r)) if at == id => r,
        _ => {
            let Some(r) = preflight::check_pages(&p.pages, crate::export::Format::Svg, &[]) else {
                return;
            };
            let r = std::sync::Arc::new(r);
            ui.ctx().data_mut(|d| d.insert_temp(key, (id, r.clone())));
            r
        }
    };
    let status = RichText::new(report.status());
    let status = if report.is_clean() {
        status.weak()
    } else {
        status.color(Color32::from_rgb(200, 140, 0))
    };
    egui::CollapsingHeader::new(status)
        .id_salt("preflight")
        .show(ui, |ui| {
            for c in &report.checks {
                ui.label(format!(
                    "{} {}: {}",
                    if c.ok { "ok" } else { "WARN" },
                    c.name,
                    c.text
                ));
            }
        });
}

/// The knobs on the left, section by section, a parent's path first (who it is for, the
/// shape), then the maze, the page and the difficulty targets; a changed design is one
/// [`Command::Edit`].
fn knobs(app: &mut HedgeApp, ui: &mut egui::Ui) {
    let mut d: Design = app.design().clone();
    let mut coalesce = false;
    ui.add_space(4.0);
    super::targets::presets(app, ui);

    ui.separator();
    egui::CollapsingHeader::new("Shape")
        .default_open(true)
        .show(ui, |ui| shape_knobs(app, ui, &mut d, &mut coalesce));
    super::picker::window(app, ui, &mut d, &mut coalesce);

    ui.separator();
    super::maze_knobs::section(app, ui, &mut d, &mut coalesce);

    ui.separator();
    let mut pick = None;
    egui::CollapsingHeader::new("Page")
        .default_open(true)
        .show(ui, |ui| {
            super::page_knobs::section(ui, &mut d.page, &mut coalesce, &mut pick)
        });
    if let Some(finish) = pick {
        app.pending.push(Command::EndPictureDialog { finish });
    }

    ui.separator();
    egui::CollapsingHeader::new("Difficulty")
        .default_open(true)
        .show(ui, |ui| {
            super::targets::section(app, ui, &mut d, &mut coalesce)
        });

    if d != *app.design() {
        app.pending.push(Command::Edit {
            design: Box::new(d),
            coalesce,
        });
    }

    ui.separator();
    ui.horizontal(|ui| {
        if ui
            .add_enabled(app.can_undo(), egui::Button::new("Undo"))
            .clicked()
        {
            app.pending.push(Command::Undo);
        }
        if ui
            .add_enabled(app.can_redo(), egui::Button::new("Redo"))
            .clicked()
        {
            app.pending.push(Command::Redo);
        }
    });

    ui.separator();
    file_ui::files_section(app, ui);
}

/// Brush strokes on the preview (with a paint tool).
fn preview_clicks(
    app: &mut HedgeApp,
    ui: &egui::Ui,
    response: &egui::Response,
    place: preview::PageOnScreen,
) {
    let on = match app.view.tool() {
        Tool::Pan => return,
        Tool::Lock => {
            if response.clicked()
                && let Some(pos) = response.interact_pointer_pos()
                && let Some((_, p)) = app.preview()
                && let Some((a, b)) = app.wall_at_maze(p.maze_point(place.to_page(pos)))
            {
                app.pending.push(Command::LockWall { a, b });
            }
            return;
        }
        Tool::Recarve => {
            recarve_stroke(app, ui, response, place);
            return;
        }
        Tool::Lasso => {
            super::hand::lasso_stroke(app, ui, response, place);
            return;
        }
        Tool::PaintOn => true,
        Tool::PaintOff => false,
        Tool::Entrance | Tool::Exit => {
            // a click, or a drag let go: the nearest cell on the outline
            // the left button only: a right or middle drag pans
            if (response.clicked() || response.drag_stopped_by(egui::PointerButton::Primary))
                && let Some(pos) = response.interact_pointer_pos()
                && let Some((_, p)) = app.preview()
                && let q = p.maze_point(place.to_page(pos))
                && let Some(cell) = app.opening_at_maze(q).or_else(|| app.cell_at_maze(q))
            {
                app.pending.push(Command::PlaceEnd {
                    cell,
                    exit: app.view.tool() == Tool::Exit,
                });
            }
            return;
        }
    };
    let primary = ui.input(|i| i.pointer.primary_down());
    // paint while the button is down, with the mapping from when the stroke began
    if !(response.is_pointer_button_down_on() && primary) {
        app.view.end_stroke();
        return;
    }
    let Some(pos) = response.interact_pointer_pos() else {
        return;
    };
    let stroke = app.view.stroke(place, app.work.preview().map(|(_, p)| p));
    let Some(q) = stroke.map(|(place, preview)| preview.maze_point(place.to_page(pos))) else {
        return;
    };
    let Some(c) = app.cell_at_maze(q) else {
        return;
    };
    let edit = CellEdit {
        row: c.row,
        col: c.col,
        on,
    };
    if app.design().cell_edits.last() == Some(&edit) {
        return; // still on the same cell
    }
    let coalesce = response.dragged() && !response.drag_started();
    app.pending.push(Command::Paint {
        edits: vec![edit],
        coalesce,
    });
}

/// A re-carve brush stroke: the cells under the pointer gather while the button is down, and
/// the region is carved again when it is let go (one undo step).
fn recarve_stroke(
    app: &mut HedgeApp,
    ui: &egui::Ui,
    response: &egui::Response,
    place: preview::PageOnScreen,
) {
    let primary = ui.input(|i| i.pointer.primary_down());
    if response.is_pointer_button_down_on() && primary {
        if let Some(pos) = response.interact_pointer_pos()
            && let Some((_, p)) = app.preview()
            && let Some(c) = app.cell_at_maze(p.maze_point(place.to_page(pos)))
        {
            app.view.brush(c);
        }
    } else if !app.view.region().is_empty() {
        let cells = app.view.take_region();
        app.pending.push(Command::Recarve { cells });
    }
    // the cells brushed so far, tinted on screen until the button is let go
    let (Some(g), Some((_, p))) = (app.generated(), app.preview()) else {
        return;
    };
    let tess = g.maze.grid().topology().tess();
    let mut sides = Vec::new();
    let fill = egui::Color32::from_rgba_unmultiplied(40, 120, 255, 90);
    for &c in app.view.region() {
        sides.clear();
        tess.sides(c, &mut sides);
        let points: Vec<egui::Pos2> = sides
            .iter()
            .map(|s| place.to_screen(p.page_point(s.a)))
            .collect();
        ui.painter().add(egui::Shape::convex_polygon(
            points,
            fill,
            egui::Stroke::NONE,
        ));
    }
}

/// The text shape: a multi-line box (a line a line of the shape), its font, and "Use text".
fn text_shape_knobs(app: &mut HedgeApp, ui: &mut egui::Ui, d: &Design) {
    use crate::shape::TextFont;
    use strum::VariantArray as _;
    let id = egui::Id::unique("hedge shape text");
    let (mut text, mut font, is_text) = match &d.shape {
        Some(ShapeSource::Text { text, font }) => (text.clone(), *font, true),
        _ => (
            ui.data_mut(|m| m.get_temp::<String>(id).unwrap_or_default()),
            TextFont::default(),
            false,
        ),
    };
    let label = ui.label("Text:");
    let edited = ui
        .add(
            egui::TextEdit::multiline(&mut text)
                .desired_rows(2)
                .desired_width(f32::INFINITY)
                .hint_text("a name"),
        )
        .labelled_by(label.id)
        .on_hover_text("the maze takes the shape of these words; one line a line")
        .changed();
    ui.horizontal_wrapped(|ui| {
        let mut refont = false;
        egui::ComboBox::from_label("Text font")
            .selected_text(font.name())
            .show_ui(ui, |ui| {
                for f in TextFont::VARIANTS {
                    refont |= ui.selectable_value(&mut font, *f, f.name()).changed();
                }
            });
        ui.data_mut(|m| m.insert_temp(id, text.clone()));
        let apply = ui
            .add_enabled(!text.trim().is_empty(), egui::Button::new("Use text"))
            .clicked()
            || (is_text && (edited || refont) && !text.trim().is_empty());
        if apply {
            app.pending
                .push(Command::SetShape(Some(ShapeSource::Text { text, font })));
        }
    });
}

fn shape_knobs(app: &mut HedgeApp, ui: &mut egui::Ui, d: &mut Design, coalesce: &mut bool) {
    app.work.thumbnails_mut().poll(ui.ctx());
    ui.horizontal_wrapped(|ui| {
        if ui
            .add(egui::Button::selectable(d.shape.is_none(), "no shape"))
            .clicked()
            && d.shape.is_some()
        {
            app.pending.push(Command::SetShape(None));
        }
        for name in builtin::names() {
            let selected = matches!(&d.shape, Some(ShapeSource::Builtin(n)) if n == name);
            let button = match app.work.thumbnails_mut().get(name) {
                Some(tex) => egui::Button::image_and_text(
                    egui::Image::new(tex).fit_to_exact_size(egui::vec2(28.0, 28.0)),
                    name,
                )
                .selected(selected),
                None => egui::Button::selectable(selected, name),
            };
            if ui.add(button).clicked() && !selected {
                app.pending
                    .push(Command::SetShape(Some(ShapeSource::Builtin(name.into()))));
            }
        }
    });
    text_shape_knobs(app, ui, d);
    ui.horizontal(|ui| {
        if ui
            .button("Open image...")
            .on_hover_text("a PNG, JPEG, GIF, BMP, WebP or SVG; or drop one on the window")
            .clicked()
        {
            app.pending.push(Command::OpenImageDialog);
        }
        if let Some(ShapeSource::File(p)) = &d.shape {
            ui.label(
                RichText::new(
                    p.file_name()
                        .map(|n| n.to_string_lossy().into_owned())
                        .unwrap_or_default(),
                )
                .weak(),
            );
        }
    });
    if matches!(d.shape, Some(ShapeSource::File(_))) {
        ui.horizontal(|ui| {
            if ui
                .selectable_label(app.picker, "Pick the subject...")
                .on_hover_text("click on the subject of a photo: the wand picks it by colour")
                .clicked()
            {
                app.picker = !app.picker;
            }
            if d.pick.is_some() {
                ui.label(RichText::new("subject picked").weak());
            }
        });
    }
    let has_shape = d.shape.is_some();
    ui.add_enabled_ui(has_shape, |ui| {
        let mut auto = d.threshold.is_none();
        ui.horizontal(|ui| {
            ui.checkbox(&mut auto, "Auto threshold");
            let mut t = d.threshold.unwrap_or(128);
            if !auto {
                let r = ui.add(Slider::new(&mut t, 0..=255).text("Threshold"));
                *coalesce |= r.dragged() && !r.drag_started();
            }
            d.threshold = (!auto).then_some(t);
        });
        ui.checkbox(&mut d.invert, "Invert");
        let r = ui.add(Slider::new(&mut d.coverage, 0.05..=1.0).text("Coverage"));
        *coalesce |= r.dragged() && !r.drag_started();
        // automatic: the largest part is kept, parts of 4 % of the shape or more and the
        // letters of a picture of text joined
        ComboBox::from_label("Islands")
            .selected_text(d.islands.map_or("auto", Islands::name))
            .show_ui(ui, |ui| {
                ui.selectable_value(&mut d.islands, None, "auto");
                for i in [Islands::KeepLargest, Islands::Bridge] {
                    ui.selectable_value(&mut d.islands, Some(i), i.name());
                }
            });
    });
    outline_toggle(ui, d);
    if !d.cell_edits.is_empty() {
        ui.horizontal(|ui| {
            ui.label(counted(d.cell_edits.len(), "cell painted", "cells painted"));
            if ui.button("Clear painting").clicked() {
                app.pending.push(Command::ClearEdits);
            }
        });
    }
    let w = d.walls();
    if !w.lock.is_empty() || !w.recarve.is_empty() {
        ui.horizontal(|ui| {
            let locks = w.lock.open.len() + w.lock.closed.len();
            ui.label(format!(
                "{}, {}",
                counted(locks, "wall locked", "walls locked"),
                counted(
                    w.recarve.len(),
                    "region carved again",
                    "regions carved again"
                )
            ));
            if ui.button("Clear hand work").clicked() {
                app.pending.push(Command::ClearHandWork);
            }
        });
    }
}

/// `n` and the words for it: "1 wall locked", "2 walls locked".
fn counted(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// The shape's outline or the cells': greyed, with why, where the shape's cannot be drawn.
fn outline_toggle(ui: &mut egui::Ui, d: &mut Design) {
    use crate::outline::{OutlineStyle, unavailable};
    let why = unavailable(d);
    ui.add_enabled_ui(why.is_none(), |ui| {
        ui.horizontal(|ui| {
            ui.label("Outline");
            ui.selectable_value(&mut d.outline, OutlineStyle::Shape, "shape")
                .on_hover_text("the outer wall is the shape's own smooth outline");
            ui.selectable_value(&mut d.outline, OutlineStyle::Cells, "cells")
                .on_hover_text("the outer wall follows the cells (a staircase on a curve)");
        });
    })
    .response
    .on_disabled_hover_text(why.unwrap_or_default());
}
