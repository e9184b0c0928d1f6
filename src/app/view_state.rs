//! The view: how the editor shows the page, none of it part of the design. The answer key,
//! the crossing and mask tints, the pan and zoom, the drag tool and the stroke it draws (a
//! brush, a re-carved region, a lasso), the preview's raster, and the debug overlay with the
//! frame times.
//!
//! [`ViewState`] holds it, its state private: the row of view toggles and the page are drawn
//! from here, and the rest of the editor reads and changes it through these methods.

use std::sync::Arc;

use egui::ComboBox;

use super::preview::{self, PageOnScreen, PagePreview, Raster, View};
use crate::topology::{Coord, Point};

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
    /// A click on a wall locks it as it stands (a passage open, a wall closed), or unlocks it.
    Lock,
    /// A brush stroke over cells carves them again from a new seed, the rest unchanged.
    Recarve,
    /// A loop drawn round cells (a lasso) carves those whose centres it holds again, as the
    /// brush does.
    Lasso,
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

/// What the editor shows and how (see the module's notes).
pub struct ViewState {
    /// Show the solution.
    answer_key: bool,
    /// Pan and zoom of the preview.
    pan_zoom: View,
    /// Tint the weave crossings in the preview.
    show_crossings: bool,
    /// Show the mask (and its necks) over the preview.
    show_mask: bool,
    /// What a drag on the preview does.
    tool: Tool,
    /// Where the page was painted in the last frame.
    placement: Option<PageOnScreen>,
    /// The screen-to-maze mapping when the current brush stroke started (the page may move
    /// under the pointer as the maze changes; the stroke keeps painting where it began).
    stroke: Option<(PageOnScreen, Arc<PagePreview>)>,
    /// The cells of the re-carve brush stroke under way ([`Tool::Recarve`]).
    region: Vec<Coord>,
    /// The lasso being drawn ([`Tool::Lasso`]), in maze units.
    lasso: Vec<Point>,
    /// The preview's pixels (the page rasterised at the current zoom).
    raster: Raster,
    /// Show the debug overlay (frame time, the page raster).
    debug_overlay: bool,
    /// Timing of recent frames.
    frames: FrameTimes,
}

impl ViewState {
    /// The view as the editor opens: the answer key and the crossings' tint as last run,
    /// the whole page in the panel, `raster` making its pixels.
    pub fn new(answer_key: bool, show_crossings: bool, raster: Raster) -> ViewState {
        ViewState {
            answer_key,
            pan_zoom: View::default(),
            show_crossings,
            show_mask: false,
            tool: Tool::default(),
            placement: None,
            stroke: None,
            region: Vec::new(),
            lasso: Vec::new(),
            raster,
            debug_overlay: false,
            frames: FrameTimes::default(),
        }
    }

    /// Whether the solution is shown.
    pub fn answer_key(&self) -> bool {
        self.answer_key
    }

    /// Whether the weave crossings are tinted.
    pub fn show_crossings(&self) -> bool {
        self.show_crossings
    }

    /// The preview's pan and zoom.
    pub fn pan_zoom(&self) -> View {
        self.pan_zoom
    }

    /// The preview's pan and zoom, to change.
    pub fn pan_zoom_mut(&mut self) -> &mut View {
        &mut self.pan_zoom
    }

    /// What a drag on the preview does.
    pub fn tool(&self) -> Tool {
        self.tool
    }

    /// Painting and placing the doors are for wall mazes: a drag pans again.
    pub(super) fn pans_only(&mut self) {
        self.tool = Tool::Pan;
    }

    /// Where the page was painted in the last frame.
    pub fn placement(&self) -> Option<PageOnScreen> {
        self.placement
    }

    /// The preview's pixels.
    pub fn raster(&self) -> &Raster {
        &self.raster
    }

    /// The lasso being drawn, in maze units.
    pub fn lasso(&self) -> &[Point] {
        &self.lasso
    }

    /// The lasso goes on to `q` (a point it is at already is not added again).
    pub(super) fn lasso_to(&mut self, q: Point) {
        if self.lasso.last() != Some(&q) {
            self.lasso.push(q);
        }
    }

    /// The lasso drawn, no longer drawn.
    pub(super) fn take_lasso(&mut self) -> Vec<Point> {
        std::mem::take(&mut self.lasso)
    }

    /// The cells of the re-carve stroke under way.
    pub fn region(&self) -> &[Coord] {
        &self.region
    }

    /// The re-carve stroke goes over `c` (a cell it holds already is not added again).
    pub(super) fn brush(&mut self, c: Coord) {
        if !self.region.contains(&c) {
            self.region.push(c);
        }
    }

    /// The re-carve stroke's cells, the stroke ended.
    pub(super) fn take_region(&mut self) -> Vec<Coord> {
        std::mem::take(&mut self.region)
    }

    /// The mapping the paint stroke under way started with: the page as it is placed now,
    /// and `preview`, when the stroke starts here.
    pub(super) fn stroke(
        &mut self,
        place: PageOnScreen,
        preview: Option<&Arc<PagePreview>>,
    ) -> Option<&(PageOnScreen, Arc<PagePreview>)> {
        if self.stroke.is_none() {
            self.stroke = preview.map(|p| (place, p.clone()));
        }
        self.stroke.as_ref()
    }

    /// The paint stroke ended.
    pub(super) fn end_stroke(&mut self) {
        self.stroke = None;
    }

    /// Whether the debug overlay shows.
    pub fn debug_overlay(&self) -> bool {
        self.debug_overlay
    }

    /// The debug overlay's tick.
    pub(super) fn debug_overlay_mut(&mut self) -> &mut bool {
        &mut self.debug_overlay
    }

    /// Shows the debug overlay, or hides it (F12).
    pub(super) fn toggle_debug_overlay(&mut self) {
        self.debug_overlay = !self.debug_overlay;
    }

    /// Records a frame of `ms` milliseconds.
    pub(super) fn frame_done(&mut self, ms: f32) {
        self.frames.push(ms);
    }

    /// The row of view toggles above the page (the answer key, the tints, Fit, the drag tool):
    /// the crossings' tint is offered when the maze has `weave` crossings, the tools beyond
    /// Pan for `walls` mazes.
    pub(super) fn toolbar(&mut self, ui: &mut egui::Ui, walls: bool, weave: bool) {
        ui.checkbox(&mut self.answer_key, "Answer key");
        ui.add_enabled(
            weave,
            egui::Checkbox::new(&mut self.show_crossings, "Show crossings"),
        )
        .on_hover_text("tint each weave crossing (not printed)")
        .on_disabled_hover_text("this maze has no weave crossings");
        if ui
            .button("Fit")
            .on_hover_text("fit the whole page to the panel (or double-click it)")
            .clicked()
        {
            self.pan_zoom = View::default();
        }
        ui.checkbox(&mut self.show_mask, "Show mask")
            .on_hover_text("tint the maze's cells; one-cell necks in red");
        ComboBox::from_label("Drag")
            .width(TOOL_WIDTH)
            .selected_text(tool_name(self.tool))
            .show_ui(ui, |ui| {
                for t in [
                    Tool::Pan,
                    Tool::PaintOn,
                    Tool::PaintOff,
                    Tool::Entrance,
                    Tool::Exit,
                    Tool::Lock,
                    Tool::Recarve,
                    Tool::Lasso,
                ] {
                    ui.add_enabled_ui(walls || t == Tool::Pan, |ui| {
                        ui.selectable_value(&mut self.tool, t, tool_name(t))
                            .on_disabled_hover_text(super::tiles::WALLS_ONLY);
                    });
                }
            })
            .response
            .on_hover_text("what a drag with the left button does; right-drag pans, scroll zooms");
    }

    /// Draws the page (`preview`, the newest maze's pages) and notes where it went.
    pub(super) fn show_page(
        &mut self,
        ui: &mut egui::Ui,
        preview: Option<(u64, &Arc<PagePreview>)>,
    ) -> (egui::Response, Option<PageOnScreen>) {
        let input = preview::Input {
            preview,
            answer_key: self.answer_key,
            crossings: self.show_crossings,
            mask: self.show_mask || matches!(self.tool, Tool::PaintOn | Tool::PaintOff),
            drag_pans: self.tool == Tool::Pan,
        };
        let (response, place) = preview::show(ui, &input, &mut self.pan_zoom, &mut self.raster);
        self.placement = place;
        (response, place)
    }

    /// The debug overlay's text: the app's own frame time and the preview raster's figures.
    pub fn debug_text(&self) -> String {
        let f = &self.frames;
        format!(
            "frame {:.2} ms (mean {:.2}, max {:.2} of {})\npage {} pixels, rasterised {} times, last {:.2} ms{}",
            f.last_ms,
            f.mean_ms(),
            f.max_ms,
            f.recent.len(),
            self.raster.pixels,
            self.raster.builds,
            self.raster.last_build.as_secs_f64() * 1000.0,
            if self.raster.busy() {
                " (rasterising)"
            } else {
                ""
            }
        )
    }
}

/// The Drag box's width: the longest tool's name fits, and the row never changes with it.
const TOOL_WIDTH: f32 = 130.0;

fn tool_name(t: Tool) -> &'static str {
    match t {
        Tool::Pan => "pan",
        Tool::PaintOn => "paint cells on",
        Tool::PaintOff => "paint cells off",
        Tool::Entrance => "place entrance",
        Tool::Exit => "place exit",
        Tool::Lock => "lock walls",
        Tool::Recarve => "re-carve region",
        Tool::Lasso => "re-carve (lasso)",
    }
}

impl super::HedgeApp {
    /// Whether the solution is shown.
    pub fn answer_key(&self) -> bool {
        self.view.answer_key()
    }

    /// Whether the weave crossings are tinted.
    pub fn show_crossings(&self) -> bool {
        self.view.show_crossings()
    }

    /// The preview's pan and zoom.
    pub fn pan_zoom(&self) -> View {
        self.view.pan_zoom()
    }

    /// The preview's pan and zoom, to change as a scroll or a drag does.
    pub fn pan_zoom_mut(&mut self) -> &mut View {
        self.view.pan_zoom_mut()
    }

    /// The preview's pixels.
    pub fn raster(&self) -> &Raster {
        self.view.raster()
    }

    /// The lasso being drawn, in maze units.
    pub fn lasso(&self) -> &[Point] {
        self.view.lasso()
    }

    /// Where the page was painted in the last frame.
    pub fn placement(&self) -> Option<PageOnScreen> {
        self.view.placement()
    }
}
