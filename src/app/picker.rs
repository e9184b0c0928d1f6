//! "Pick the subject": the window of the magic wand ([`crate::shape::wand`]). It shows the
//! picture of a file shape with the subject the wand picked tinted green; a click puts a point
//! on the subject, a right-click (or Shift+click) a point on the background; the tolerance
//! slider widens or narrows what counts as the subject's colour; "Clear pick" goes back to the
//! plain cut. The points are the design's `[pick]`, so the saved design makes the same maze on
//! the command line and in a book; the paint tools then refine the cells.

use std::sync::Arc;

use egui::{Color32, ColorImage, Sense, Slider, TextureHandle, TextureOptions, vec2};

use super::HedgeApp;
use crate::design::Design;
use crate::load::LoadedShape;
use crate::shape::Foreground;
use crate::shape::wand::{DEFAULT_TOLERANCE, Pick};

/// The largest size the picture is shown at, in points.
pub const VIEW: egui::Vec2 = egui::Vec2::new(480.0, 360.0);
/// The tint of the picked subject.
const PICKED: [u8; 3] = [0, 200, 70];

/// The picture shown in the window, made again when the picture or the subject changes.
#[derive(Default)]
pub struct PickerView {
    /// The picture and the foreground (by address) the texture shows.
    key: Option<(usize, usize)>,
    texture: Option<TextureHandle>,
}

/// The texture's pixels: `loaded`'s picture at `w` x `h`, the pixels of `fg` (placed at its
/// origin) tinted.
fn pixels(loaded: &LoadedShape, fg: Option<&Foreground>, w: usize, h: usize) -> ColorImage {
    let p = &loaded.picture;
    let (pw, ph) = (p.width() as usize, p.height() as usize);
    let mut out = Vec::with_capacity(w * h);
    for y in 0..h {
        let py = (y * ph / h).min(ph - 1);
        for x in 0..w {
            let px = (x * pw / w).min(pw - 1);
            let c = p.pixel(px as u32, py as u32);
            // transparent pixels over light grey
            let a = u32::from(c[3]);
            let mut rgb = [0u8; 3];
            for i in 0..3 {
                rgb[i] = ((u32::from(c[i]) * a + 220 * (255 - a)) / 255) as u8;
            }
            let picked = fg.is_some_and(|f| {
                let (ox, oy) = f.origin();
                f.get(px as i64 - i64::from(ox), py as i64 - i64::from(oy))
            });
            if picked {
                for i in 0..3 {
                    rgb[i] = ((u16::from(rgb[i]) + u16::from(PICKED[i])) / 2) as u8;
                }
            }
            out.push(Color32::from_rgb(rgb[0], rgb[1], rgb[2]));
        }
    }
    ColorImage::new([w, h], out)
}

/// The "Pick the subject" window, when it is open: edits `d.pick` (and the height, which
/// follows the subject's aspect ratio).
pub fn window(app: &mut HedgeApp, ui: &egui::Ui, d: &mut Design, coalesce: &mut bool) {
    if !app.picker {
        return;
    }
    let Some(loaded) = app.shape_picture() else {
        app.picker = false;
        return;
    };
    // the subject as picked in the picture, not turned
    let unturned = Design {
        turn: crate::design::Turn::Upright,
        ..d.clone()
    };
    let fg = match app.foreground_of(&unturned) {
        Some(Ok(fg)) if d.pick.is_some() => Some(fg),
        _ => None,
    };
    let mut open = true;
    egui::Window::new("Pick the subject")
        .open(&mut open)
        .resizable(false)
        .show(ui.ctx(), |ui| {
            ui.label(
                "Click on the subject; right-click (or Shift+click) on the background where \
                 too much is picked. Then paint cells on or off to finish.",
            );
            let picked = picture(app, ui, &loaded, fg.as_ref(), d);
            let mut tolerance = d.pick.as_ref().map_or(DEFAULT_TOLERANCE, |p| p.tolerance);
            ui.horizontal(|ui| {
                let r = ui
                    .add_enabled(
                        d.pick.is_some(),
                        Slider::new(&mut tolerance, 0.02..=0.6).text("Tolerance"),
                    )
                    .on_hover_text(
                        "how far a colour may be from the subject's and still be picked",
                    );
                *coalesce |= r.dragged() && !r.drag_started();
                if let Some(p) = &mut d.pick {
                    p.tolerance = tolerance;
                }
                if ui
                    .add_enabled(d.pick.is_some(), egui::Button::new("Clear pick"))
                    .clicked()
                {
                    d.pick = None;
                }
            });
            if let Some(e) = picked {
                ui.colored_label(ui.visuals().error_fg_color, e);
            }
        });
    app.picker = open;
    // the height follows the subject's aspect ratio, as it follows a new shape's
    if d.pick != app.design().pick
        && let Some(Ok(fg)) = app.foreground_of(d)
        && let Ok(h) =
            crate::sizing::shape_grid(d.grid_topology(), d.width, &fg, None).map(|(_, h)| h)
    {
        d.height = h;
    }
}

/// The picture with the subject tinted and the points marked; a click adds a point to
/// `d.pick`. Returns the wand's error for the current pick, if any.
fn picture(
    app: &mut HedgeApp,
    ui: &mut egui::Ui,
    loaded: &Arc<LoadedShape>,
    fg: Option<&Arc<Foreground>>,
    d: &mut Design,
) -> Option<String> {
    let p = &loaded.picture;
    let (pw, ph) = (p.width() as f32, p.height() as f32);
    let scale = (VIEW.x / pw).min(VIEW.y / ph);
    let size = vec2(pw * scale, ph * scale).max(vec2(1.0, 1.0));
    let key = (
        Arc::as_ptr(loaded) as usize,
        fg.map_or(0, |f| Arc::as_ptr(f) as usize),
    );
    if app.picker_view.key != Some(key) {
        let (w, h) = (size.x.round() as usize, size.y.round() as usize);
        let image = pixels(loaded, fg.map(|f| &**f), w.max(1), h.max(1));
        app.picker_view.texture = Some(ui.ctx().load_texture(
            "subject picture",
            image,
            TextureOptions::LINEAR,
        ));
        app.picker_view.key = Some(key);
    }
    let (rect, response) = ui.allocate_exact_size(size, Sense::click());
    response.widget_info(|| {
        egui::WidgetInfo::labeled(egui::accesskit::Role::Image, true, "Subject picture")
    });
    if let Some(t) = &app.picker_view.texture {
        ui.painter().image(
            t.id(),
            rect,
            egui::Rect::from_min_max(egui::pos2(0.0, 0.0), egui::pos2(1.0, 1.0)),
            Color32::WHITE,
        );
    }
    if let Some(pick) = &d.pick {
        let at =
            |q: &[f64; 2]| rect.min + vec2(q[0] as f32 * rect.width(), q[1] as f32 * rect.height());
        for (points, colour) in [
            (&pick.subject, Color32::from_rgb(0, 160, 60)),
            (&pick.background, Color32::from_rgb(210, 40, 40)),
        ] {
            for q in points {
                ui.painter()
                    .circle(at(q), 4.0, colour, (1.5, Color32::WHITE));
            }
        }
    }
    let background =
        response.secondary_clicked() || (response.clicked() && ui.input(|i| i.modifiers.shift));
    if (response.clicked() || response.secondary_clicked())
        && let Some(pos) = response.interact_pointer_pos()
    {
        let q = [
            f64::from(((pos.x - rect.min.x) / rect.width()).clamp(0.0, 1.0)),
            f64::from(((pos.y - rect.min.y) / rect.height()).clamp(0.0, 1.0)),
        ];
        // shares of a thousandth: a design file reads them at a glance
        let q = q.map(|v| (v * 1000.0).round() / 1000.0);
        match (&mut d.pick, background) {
            (Some(pick), true) => pick.background.push(q),
            (Some(pick), false) => pick.subject.push(q),
            (None, false) => d.pick = Some(Pick::at(q[0], q[1])),
            (None, true) => {} // a background point alone picks nothing
        }
    }
    match app.foreground_of(d) {
        Some(Err(e)) if d.pick.is_some() => Some(e),
        _ => None,
    }
}
