//! The Page section of the editor's knobs: the paper, the children's page (markers, pictures,
//! stars), the margins and the lines printed around the maze.

use egui::{ComboBox, DragValue, Slider};

use crate::page::{Orientation, PageSetup, Paper, Typeface};

/// The page's knobs; a click on a start or finish picture's button sets `pick` (to whether it
/// is the finish's) for the caller to show the file dialog.
pub(super) fn section(
    ui: &mut egui::Ui,
    page: &mut PageSetup,
    coalesce: &mut bool,
    pick: &mut Option<bool>,
) {
    paper_knobs(ui, page, coalesce);
    theme_knobs(ui, page, coalesce);
    // the children's page: markers, pictures and stars, folded away until wanted
    egui::CollapsingHeader::new("Children's page")
        .default_open(false)
        .show(ui, |ui| {
            children_knobs(ui, page, pick);
        });
    margin_knobs(ui, page, coalesce);
    title_knobs(ui, page, coalesce);
}

/// The paper (a named size or custom, with its width and height) and its orientation.
fn paper_knobs(ui: &mut egui::Ui, page: &mut PageSetup, coalesce: &mut bool) {
    let custom = matches!(page.paper, Paper::Custom { .. });
    ComboBox::from_label("Paper")
        .selected_text(page.paper.name())
        .show_ui(ui, |ui| {
            for p in super::PAPERS {
                ui.selectable_value(&mut page.paper, p, p.name());
            }
            if ui.selectable_label(custom, "custom").clicked() && !custom {
                let (w, h) = page.paper.size_mm();
                page.paper = Paper::Custom {
                    width_mm: w.round(),
                    height_mm: h.round(),
                };
            }
        });
    if let Paper::Custom {
        width_mm,
        height_mm,
    } = &mut page.paper
    {
        ui.horizontal(|ui| {
            let r = ui.add(
                DragValue::new(width_mm)
                    .range(50.0..=2000.0)
                    .prefix("w ")
                    .suffix(" mm"),
            );
            *coalesce |= r.dragged() && !r.drag_started();
            let r = ui.add(
                DragValue::new(height_mm)
                    .range(50.0..=2000.0)
                    .prefix("h ")
                    .suffix(" mm"),
            );
            *coalesce |= r.dragged() && !r.drag_started();
        });
    }
    ComboBox::from_label("Orientation")
        .selected_text(match page.orientation {
            Orientation::Portrait => "portrait",
            Orientation::Landscape => "landscape",
            Orientation::Auto => "auto",
        })
        .show_ui(ui, |ui| {
            ui.selectable_value(&mut page.orientation, Orientation::Auto, "auto")
                .on_hover_text("turn the page when the maze gets wider corridors that way");
            ui.selectable_value(&mut page.orientation, Orientation::Portrait, "portrait");
            ui.selectable_value(&mut page.orientation, Orientation::Landscape, "landscape");
        });
}

/// The theme (a picture at the start and the finish, and its instruction line) and the
/// instruction line printed at the top (the theme's unless typed).
fn theme_knobs(ui: &mut egui::Ui, page: &mut PageSetup, coalesce: &mut bool) {
    ComboBox::from_label("Theme")
        .selected_text(page.theme.as_deref().unwrap_or("none"))
        .show_ui(ui, |ui| {
            ui.selectable_value(&mut page.theme, None, "none");
            for t in crate::theme::names() {
                let hint = crate::theme::get(t).map_or(String::new(), |t| t.instruction.clone());
                ui.selectable_value(&mut page.theme, Some(t.to_string()), t)
                    .on_hover_text(hint);
            }
        })
        .response
        .on_hover_text(
            "a picture at the start and at the finish, and an instruction line at the top",
        );
    let label = ui.label("Instruction line");
    let theirs = page
        .theme
        .as_deref()
        .and_then(|t| crate::theme::get(t).ok())
        .map(|t| t.instruction.clone());
    let mut line = page.instruction.clone().unwrap_or_default();
    let r = ui
        .add(
            egui::TextEdit::singleline(&mut line)
                .hint_text(
                    theirs
                        .as_deref()
                        .unwrap_or("printed at the top, e.g. Find the way out"),
                )
                .desired_width(f32::INFINITY),
        )
        .labelled_by(label.id)
        .on_hover_text("printed at the top of the page; empty: the theme's line, if any");
    if r.changed() {
        // typing is one undo step per field visit
        *coalesce |= !r.gained_focus();
        page.instruction = (!line.trim().is_empty()).then_some(line);
    }
}

/// The children's page: the START / FINISH markers, the start and finish pictures,
/// the stars and the dot and flag; a picture's button sets `pick`.
fn children_knobs(ui: &mut egui::Ui, page: &mut PageSetup, pick: &mut Option<bool>) {
    ComboBox::from_label("START / FINISH")
        .selected_text(page.markers.name())
        .show_ui(ui, |ui| {
            for m in crate::page::MarkerSize::ALL {
                ui.selectable_value(&mut page.markers, m, m.name())
                    .on_hover_text(format!(
                        "{} pt labels, {} mm arrows",
                        m.label_pt(),
                        m.arrow_mm()
                    ));
            }
        });
    for (finish, name) in [(false, "Start picture"), (true, "Finish picture")] {
        let own = if finish {
            &mut page.finish_picture
        } else {
            &mut page.start_picture
        };
        ui.horizontal(|ui| {
            let file = own.as_deref().and_then(|p| p.file_name());
            let shown = file.map_or_else(
                || "choose…".to_string(),
                |f| f.to_string_lossy().into_owned(),
            );
            ui.label(name);
            if ui
                .button(shown)
                .on_hover_text("your own SVG picture, instead of the theme's or the word")
                .clicked()
            {
                *pick = Some(finish);
            }
            if own.is_some()
                && ui
                    .small_button("×")
                    .on_hover_text("back to the theme's picture or the word")
                    .clicked()
            {
                *own = None;
            }
        });
    }
    ui.checkbox(&mut page.stars, "Stars")
        .on_hover_text("the maze's level as 1 to 5 stars beside the title");
    ui.checkbox(&mut page.symbols, "Dot and flag")
        .on_hover_text("a green dot at the start and a chequered flag at the finish instead of the words, for children who cannot read yet");
}

/// The margin, gutter, wall and corridor sliders and the bleed.
fn margin_knobs(ui: &mut egui::Ui, page: &mut PageSetup, coalesce: &mut bool) {
    let mut slider = |ui: &mut egui::Ui, v: &mut f64, range, text: &str| {
        let r = ui.add(Slider::new(v, range).text(text).max_decimals(2));
        *coalesce |= r.dragged() && !r.drag_started();
    };
    slider(ui, &mut page.margin_mm, 0.0..=50.0, "Margin mm");
    slider(ui, &mut page.gutter_mm, 0.0..=30.0, "Gutter mm");
    slider(ui, &mut page.wall_mm, 0.1..=3.0, "Wall mm");
    slider(ui, &mut page.min_corridor_mm, 1.0..=20.0, "Corridor mm");
    ui.checkbox(&mut page.bleed, "Bleed")
        .on_hover_text("add 0.125 in around the page for printers that trim");
}

/// The title, the name line, the page number and the typeface.
fn title_knobs(ui: &mut egui::Ui, page: &mut PageSetup, coalesce: &mut bool) {
    let label = ui.label("Title");
    let mut title = page.title.clone().unwrap_or_default();
    let r = ui
        .add(
            egui::TextEdit::singleline(&mut title)
                .hint_text("printed at the top")
                .desired_width(f32::INFINITY),
        )
        .labelled_by(label.id);
    if r.changed() {
        // typing is one undo step per field visit
        *coalesce |= !r.gained_focus();
        page.title = (!title.trim().is_empty()).then_some(title);
    }
    ui.checkbox(&mut page.name_line, "Name line")
        .on_hover_text("a \"Name: ____\" line under the title");
    ui.horizontal(|ui| {
        let mut numbered = page.page_number.is_some();
        ui.checkbox(&mut numbered, "Page number");
        let mut n = page.page_number.unwrap_or(1);
        if numbered {
            let r = ui.add(DragValue::new(&mut n).range(1..=9999).prefix("no. "));
            *coalesce |= r.dragged() && !r.drag_started();
        }
        page.page_number = numbered.then_some(n);
    });
    ComboBox::from_label("Font")
        .selected_text(page.font.label())
        .show_ui(ui, |ui| {
            for f in Typeface::ALL {
                ui.selectable_value(&mut page.font, f, f.label());
            }
        })
        .response
        .on_hover_text("the typeface of the title, labels and page number (Liberation, metric-compatible with the font named; embedded in PDFs)");
    language_knob(ui, page);
}

/// The page's language: the words it prints (START, FINISH, "Name:", a theme's line). The
/// right-to-left languages (Hebrew, Arabic) are left out: the editor's own font has no Hebrew
/// or Arabic letters to name them with, nor to show a right-to-left title as it is typed (a
/// design file's `lang = "he"` or `lang = "ar"` prints, and the preview shows its page).
fn language_knob(ui: &mut egui::Ui, page: &mut PageSetup) {
    let current = page
        .lang
        .clone()
        .unwrap_or_else(|| crate::lang::DEFAULT.into());
    let mut chosen = current.clone();
    ComboBox::from_label("Language")
        .selected_text(crate::lang::native_name(&current))
        .show_ui(ui, |ui| {
            for code in crate::lang::CODES {
                if crate::lang::RIGHT_TO_LEFT.contains(&code) {
                    continue;
                }
                ui.selectable_value(&mut chosen, code.to_string(), crate::lang::native_name(code));
            }
        })
        .response
        .on_hover_text("the language of the page's words: START and FINISH, the name line, a theme's instruction (lang in the design file)");
    if chosen != current {
        page.lang = (chosen != crate::lang::DEFAULT).then_some(chosen);
        // a strings file's words go on top of the new language's, read again
        page.words = crate::load::page_words(&crate::io::Files, page)
            .ok()
            .and_then(|w| w.0);
    }
}
