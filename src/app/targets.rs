//! The knobs panel's Difficulty section: each measured metric of the maze in the preview drawn
//! against its target band, the targets' bounds (saved in the design, undoable like every
//! knob), the reader presets, and "Find a maze": the entry point's search
//! ([`crate::make::Prepared::search`], the one `hedge generate` runs) as a background [`Task`],
//! with progress and cancel. A preset click applies the preset and searches at once, as
//! `--difficulty NAME` does.
//!
//! The search never writes over newer edits: it works on a copy of the design, and when the
//! design changes while it runs, it is cancelled and its result is dropped. A search that ends
//! (targets met, or the budget spent) writes the whole design it found (seed, carver, braid,
//! entrance) into the design as one undo step (the preset's, after a preset click), so the
//! preview makes and shows the very maze the search scored.

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use egui::{Color32, DragValue, Rect, RichText, Sense, Stroke, vec2};

use std::sync::Arc;

use super::task::{Control, Task};
use super::{Command, HedgeApp};
use crate::design::{Design, Style};
use crate::difficulty::{
    Budget, Found, MAX_CANDIDATES, MAX_SECONDS, Metric, PRESETS, Preset, Progress, Range,
    SearchOptions, Stop, preset,
};
use crate::make::Fit;
use crate::metrics::{FORMULA, Metrics};
use crate::shape::Foreground;

/// The target band on a metric's bar.
pub const BAND: Color32 = Color32::from_rgba_premultiplied(45, 75, 120, 130);
/// The marker of a value inside its target.
pub const MET: Color32 = Color32::from_rgb(40, 170, 80);
/// The marker of a value outside its target.
pub const MISSED: Color32 = Color32::from_rgb(230, 95, 30);
/// The marker of a value without a target.
pub const UNTARGETED: Color32 = Color32::from_gray(150);

/// How the search's budget is counted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum BudgetUnit {
    /// Candidates tried: the same result on every machine.
    #[default]
    Candidates,
    /// Seconds spent.
    Seconds,
}

/// The section's own state (kept with the app, not in the design): the search knobs, the search
/// in progress and what the last one came to.
#[derive(Debug)]
pub struct TargetsPanel {
    /// Whether the budget is candidates or seconds.
    pub unit: BudgetUnit,
    /// The candidate budget.
    pub candidates: u64,
    /// The time budget, in seconds.
    pub seconds: f64,
    /// Let the search try other entrance and exit pairs on the outline.
    pub vary_endpoints: bool,
    /// Let the search try the other carvers that run on the topology.
    pub vary_carver: bool,
    /// The search in progress.
    pub search: Option<Search>,
    /// What the last search came to.
    pub outcome: Option<Outcome>,
}

impl Default for TargetsPanel {
    fn default() -> Self {
        let candidates = match crate::difficulty::DEFAULT_BUDGET {
            Budget::Candidates(n) => n,
            Budget::Seconds(_) => 2000,
        };
        TargetsPanel {
            unit: BudgetUnit::Candidates,
            candidates,
            seconds: 5.0,
            vary_endpoints: false,
            vary_carver: false,
            search: None,
            outcome: None,
        }
    }
}

impl TargetsPanel {
    /// The search options the knobs describe.
    pub fn options(&self) -> SearchOptions {
        SearchOptions {
            budget: Some(match self.unit {
                BudgetUnit::Candidates => Budget::Candidates(self.candidates.max(1)),
                BudgetUnit::Seconds => Budget::Seconds(self.seconds.clamp(0.1, MAX_SECONDS)),
            }),
            vary_endpoints: self.vary_endpoints,
            vary_carver: self.vary_carver,
        }
    }
}

/// A search running in the background (dropping it cancels it).
#[derive(Debug)]
pub struct Search {
    /// The design it searches from: when the app's design differs, the result is stale.
    pub from: Design,
    /// The search itself: its progress reports and its result.
    pub task: Task<Result<Box<Found>, String>, Progress>,
    /// The user pressed Cancel.
    pub cancelled: bool,
    /// The design changed while it ran: cancelled, and its result will not be used.
    pub stale: bool,
    /// Started by a preset click: the maze found joins the preset's undo step.
    pub preset: bool,
}

impl Search {
    /// The newest progress report.
    pub fn progress(&self) -> Option<Progress> {
        self.task.progress()
    }
}

/// What the last search came to, shown under the Find button while the design is the one it
/// left.
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    /// One or two lines for people.
    pub text: String,
    /// Whether it found a maze meeting every target.
    pub met: bool,
    /// The design when it ended.
    pub design: Design,
    /// The search followed a preset click (its line shows under the presets).
    pub preset: bool,
}

impl HedgeApp {
    /// Whether a difficulty search is running.
    pub fn searching(&self) -> bool {
        self.targets.search.is_some()
    }
}

/// Applies the preset `name` exactly as `hedge generate --difficulty NAME` does: carver, braid
/// and targets, and the grid for the page (a shape keeps its aspect ratio, with fewer cells
/// across when it is taller than the page allows), then searches for a maze at that level
/// (walls only). One undo step, the maze found included.
pub(super) fn apply_preset(app: &mut HedgeApp, name: &str) {
    let Some(p) = preset(name) else {
        app.message = Some(Err(format!("no difficulty preset called {name}")));
        return;
    };
    let mut d = app.design().clone();
    // the corridor the page accepts is this preset's (the library's preset only raises it, as
    // a fresh design on the command line has the default): Adult after Ages 3-5 does not warn
    // about 14 mm corridors
    d.page.min_corridor_mm = crate::page::PageSetup::default().min_corridor_mm;
    p.apply(&mut d);
    let fg = match app.foreground() {
        Some(Ok(fg)) => Some(fg),
        _ => None,
    };
    let kind = d.walls().topology;
    // a weave's inset corridors keep the preset's width
    let p = &p.for_inset(d.inset_share(), d.page.wall_mm);
    let size = crate::sizing::preset_grid(p, kind, &d.page, fg.as_deref());
    // a shape too small for a maze at the preset's width gets more cells, as on the command
    // line (the preparation of the design says how many)
    let size = match (size, &fg) {
        (Ok(size), Some(fg)) => crate::sizing::preset_limit(p, kind, &d.page, fg)
            .and_then(|limit| {
                let at = Design {
                    width: limit.0,
                    ..d.clone()
                };
                let fit = Fit {
                    height: true,
                    size_limit: Some(limit),
                };
                crate::make::prepare_with(&at, Some(fg.clone()), fit)
            })
            .map_or(Ok(size), |p| Ok((p.design().width, p.design().height))),
        (size, _) => size,
    };
    match size {
        Ok((w, h)) => {
            d.width = w;
            d.height = h;
            app.set_design(d, false);
            if app.design().style() == Style::Walls && !app.design().targets.is_empty() {
                drop_search(app);
                search(app, true);
            }
        }
        Err(e) => app.message = Some(Err(e.to_string())),
    }
}

/// Drops the search running, if any (cancelled; its result goes nowhere).
fn drop_search(app: &mut HedgeApp) {
    if let Some(s) = app.targets.search.take() {
        s.task.cancel();
    }
}

/// Starts "Find a maze" on the current design (nothing happens while one is running).
pub(super) fn start(app: &mut HedgeApp) {
    search(app, false);
}

/// Starts the search on the current design unless one runs; `preset`: after a preset click,
/// whose undo step the maze found joins.
fn search(app: &mut HedgeApp, preset: bool) {
    if app.targets.search.is_some() {
        return;
    }
    let design = app.design().clone();
    let refuse = |app: &mut HedgeApp, text: String| {
        app.targets.outcome = Some(Outcome {
            text,
            met: false,
            design: app.design().clone(),
            preset,
        });
    };
    if design.style() != Style::Walls {
        return refuse(
            app,
            "difficulty targets work with the walls style only".into(),
        );
    }
    if design.targets.is_empty() {
        return refuse(app, "set a target first (a min or a max above)".into());
    }
    let shape = match app.foreground() {
        None => None,
        Some(Ok(fg)) => Some(fg),
        Some(Err(e)) => return refuse(app, e),
    };
    let options = app.targets.options();
    let from = design.clone();
    app.targets.outcome = None;
    let task = app
        .work
        .tasks()
        .spawn("searching", move |c: &Control<Progress>| {
            let mut report = |p: &Progress| c.report(*p);
            run(&design, shape, &options, c.cancel_flag(), &mut report).map(Box::new)
        });
    app.targets.search = Some(Search {
        from,
        task,
        cancelled: false,
        stale: false,
        preset,
    });
    // an inline search (tests) has finished already
    poll(app);
}

/// The search itself, on its thread: the design prepared by the entry point exactly as the
/// preview's maze is (the shape's mask, its outline's trim, its bridges), then the entry
/// point's search, so the maze it scores is the maze the preview makes of what it finds.
fn run(
    design: &Design,
    shape: Option<Arc<Foreground>>,
    options: &SearchOptions,
    cancel: &AtomicBool,
    progress: &mut dyn FnMut(&Progress),
) -> Result<Found, String> {
    crate::make::prepare_with(design, shape, Fit::default())
        .and_then(|p| p.search(options, cancel, progress))
        .map_err(|e| e.to_string())
}

/// Asks the running search to stop; the design stays as it is.
pub(super) fn cancel(app: &mut HedgeApp) {
    if let Some(s) = &mut app.targets.search {
        s.cancelled = true;
        s.task.cancel();
    }
}

/// Picks up the search's progress and result (every frame). An edit of the design while it
/// runs cancels it.
pub(super) fn poll(app: &mut HedgeApp) {
    let Some(s) = &mut app.targets.search else {
        return;
    };
    if !s.stale && *app.doc.design() != s.from {
        s.stale = true;
        s.task.cancel();
    }
    if let Some(result) = s.task.poll()
        && let Some(s) = app.targets.search.take()
    {
        finish(app, &s, result.and_then(|r| r));
    }
}

/// Blocks until the running search (if any) has finished, and applies its result (the
/// app's `finish_tasks` test hook).
pub(super) fn wait(app: &mut HedgeApp) {
    if let Some(s) = app.targets.search.take() {
        let result = s.task.wait().and_then(|r| r);
        finish(app, &s, result);
    }
}

/// Writes a finished search's maze into the design (one undo step) unless it was cancelled or
/// the design changed meanwhile, and says what happened.
fn finish(app: &mut HedgeApp, s: &Search, result: Result<Box<Found>, String>) {
    let tried = |r: &Result<Box<Found>, String>| match r {
        Ok(f) => f.tried,
        Err(_) => s.progress().map_or(0, |p| p.tried),
    };
    let (text, met) = if s.stale {
        (
            "the design changed during the search, so its result was not used".to_string(),
            false,
        )
    } else if s.cancelled {
        (
            format!(
                "cancelled after {} candidates; the design is unchanged",
                tried(&result)
            ),
            false,
        )
    } else {
        match result {
            Err(e) => (e, false),
            Ok(found) => {
                // the whole design the search made its maze of (seed, carver, braid,
                // entrance), the page as it is (its pictures as read)
                let d = Design {
                    page: app.design().page.clone(),
                    ..found.generated.design.clone()
                };
                if s.preset {
                    // the preset's undo step
                    app.doc.continue_step();
                }
                app.set_design(d, s.preset);
                (headline(&found), found.stop == Stop::Met)
            }
        }
    };
    app.targets.outcome = Some(Outcome {
        text,
        met,
        design: app.design().clone(),
        preset: s.preset,
    });
}

/// The first line of a search's report, as the command line prints it.
fn headline(found: &Found) -> String {
    let secs = found.elapsed.as_secs_f64();
    match found.stop {
        Stop::Met if found.candidate == 0 => {
            format!("the maze shown meets every target ({} tried)", found.tried)
        }
        Stop::Met => format!(
            "found: candidate {} meets every target ({} tried in {secs:.2} s, seed {})",
            found.candidate, found.tried, found.generated.seed
        ),
        Stop::TooSmall => {
            let (cells, min) = found.report.too_small().unwrap_or_default();
            format!(
                "not met: the maze is too small for this level ({cells} cells, it needs at least \
                 {min}); make it wider, use bigger paper or an easier preset (the rest met by \
                 candidate {}, seed {})",
                found.candidate, found.generated.seed
            )
        }
        Stop::Budget | Stop::Cancelled => {
            let missed: Vec<&str> = found.report.missed().map(|r| r.metric.label()).collect();
            format!(
                "not met after {} candidates ({secs:.2} s): the closest (seed {}) misses {}",
                found.tried,
                found.generated.seed,
                missed.join(", ")
            )
        }
    }
}

/// The preset's knobs in one line, for its button's hover text.
fn describe(p: &Preset) -> String {
    let targets: Vec<String> = Metric::ALL
        .iter()
        .filter_map(|&m| p.targets.get(m).map(|r| format!("{} {r}", m.name())))
        .collect();
    format!(
        "{} mm corridors on the page, {}, braid {}; targets: {}",
        p.corridor_mm,
        p.algorithm.name(),
        p.braid,
        targets.join(", ")
    )
}

/// Draws the section. Target edits go into `d` (the knobs' copy of the design, applied as one
/// edit at the end of the frame); presets and the search are commands.
pub fn section(app: &mut HedgeApp, ui: &mut egui::Ui, d: &mut Design, coalesce: &mut bool) {
    let walls = d.style() == Style::Walls;
    if !walls {
        ui.label(RichText::new("difficulty targets work with the walls style only").color(MISSED));
    }
    ui.add_enabled_ui(walls, |ui| {
        let metrics = app.generated().map(|g| g.metrics.clone());
        if let Some(m) = &metrics {
            parts(ui, m);
        }
        for metric in Metric::ALL {
            metric_row(ui, metric, metrics.as_ref(), d, coalesce);
        }
        ui.add_space(4.0);
        search_controls(app, ui, d);
    });
}

/// The age presets, first among the knobs: one click sizes the maze for the page, sets the
/// carver, braid and targets, and finds a maze at that level (as `--difficulty NAME`); the
/// search's progress and its outcome show under them.
pub fn presets(app: &mut HedgeApp, ui: &mut egui::Ui) {
    let walls = app.design().style() == Style::Walls;
    ui.label(RichText::new("Who is it for?").strong());
    ui.add_enabled_ui(walls, |ui| {
        ui.horizontal_wrapped(|ui| {
            for p in PRESETS {
                if ui
                    .button(p.label)
                    .on_hover_text(describe(p))
                    .on_disabled_hover_text(crate::make::TARGETS_WALLS_ONLY)
                    .clicked()
                {
                    app.pending.push(Command::ApplyPreset(p.name));
                }
            }
        });
    });
    if app.targets.search.as_ref().is_some_and(|s| s.preset) {
        ui.horizontal(|ui| {
            ui.spinner();
            ui.label("finding a maze at this level...");
        });
        ui.ctx().request_repaint_after(Duration::from_millis(100));
    } else if let Some(o) = &app.targets.outcome
        && o.preset
        && o.design == *app.design()
    {
        ui.label(RichText::new(&o.text).color(if o.met { MET } else { MISSED }));
    }
}

/// The difficulty model's parts and where the maze stands, as the command line reports them.
fn parts(ui: &mut egui::Ui, m: &Metrics) {
    ui.label(
        RichText::new(format!(
            "difficulty {:.1}{}",
            m.difficulty,
            m.standing
                .map_or(String::new(), |s| format!(": {}", s.phrase()))
        ))
        .strong(),
    );
    ui.label(m.parts_line()).on_hover_text(FORMULA);
}

/// One metric: its name, value and verdict, the bar, and the two bounds.
fn metric_row(
    ui: &mut egui::Ui,
    metric: Metric,
    metrics: Option<&Metrics>,
    d: &mut Design,
    coalesce: &mut bool,
) {
    let value = metrics.map(|m| metric.value(m));
    let target = d.targets.get(metric);
    let off = match (value, target) {
        (Some(v), Some(r)) => Some(r.off(v)),
        _ => None,
    };
    ui.horizontal(|ui| {
        ui.label(metric.label());
        ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
            // short, to fit the panel: "12 low" is 12 below the minimum
            let verdict = match off {
                None => RichText::new("").weak(),
                Some(0.0) => RichText::new("met").color(MET),
                Some(o) => RichText::new(format!(
                    "{} {}",
                    metric.format(o.abs()),
                    if o < 0.0 { "low" } else { "high" }
                ))
                .color(MISSED),
            };
            ui.label(verdict).on_hover_text(match off {
                Some(o) if o < 0.0 => "this much below the target's minimum",
                Some(o) if o > 0.0 => "this much above the target's maximum",
                Some(_) => "inside the target",
                None => "no target on this metric",
            });
            ui.label(RichText::new(value.map_or("-".into(), |v| metric.format(v))).strong());
        });
    });
    bar(ui, metric, value, target);
    let (mut min, mut max) = (target.and_then(|r| r.min), target.and_then(|r| r.max));
    ui.horizontal(|ui| {
        let top = match metric {
            Metric::Ratio => 1.0,
            Metric::Level => 100.0,
            _ => f64::MAX,
        };
        bound(
            ui,
            metric,
            "min",
            &mut min,
            value,
            0.0..=max.unwrap_or(top),
            coalesce,
        );
        bound(
            ui,
            metric,
            "max",
            &mut max,
            value,
            min.unwrap_or(0.0)..=top,
            coalesce,
        );
    });
    let range = (min.is_some() || max.is_some()).then(|| Range::new(min, max));
    if range != target {
        d.targets.set(metric, range);
    }
}

/// The value's place on a bar from 0 to a round number above the value and the bounds, with
/// the target band shaded and the value marked: green inside the band, orange outside.
fn bar(ui: &mut egui::Ui, metric: Metric, value: Option<f64>, target: Option<Range>) {
    let width = ui.available_width().max(40.0);
    let (rect, response) = ui.allocate_exact_size(vec2(width, 10.0), Sense::hover());
    let top = scale(metric, value, target);
    let x = |v: f64| rect.left() + ((v / top).clamp(0.0, 1.0) as f32) * rect.width();
    let painter = ui.painter_at(rect.expand(2.0));
    painter.rect_filled(rect, 2.0, ui.visuals().extreme_bg_color);
    if let Some(r) = target {
        let (a, b) = (x(r.min.unwrap_or(0.0)), x(r.max.unwrap_or(top)));
        let band = Rect::from_x_y_ranges(a..=b.max(a + 2.0), rect.y_range());
        painter.rect_filled(band, 2.0, BAND);
    }
    if let Some(v) = value {
        let colour = match target {
            None => UNTARGETED,
            Some(r) if r.contains(v) => MET,
            Some(_) => MISSED,
        };
        let at = x(v);
        painter.line_segment(
            [
                egui::pos2(at, rect.top() - 2.0),
                egui::pos2(at, rect.bottom() + 2.0),
            ],
            Stroke::new(3.0, colour),
        );
    }
    response.on_hover_text(format!(
        "{}: {} (target {}); the bar runs from 0 to {}",
        metric.label(),
        value.map_or("-".into(), |v| metric.format(v)),
        target.map_or("none".into(), |r| r.to_string()),
        metric.format(top)
    ));
}

/// The top of a metric's bar: a round number above the value and the bounds.
pub fn scale(metric: Metric, value: Option<f64>, target: Option<Range>) -> f64 {
    match metric {
        Metric::Ratio => return 1.0,
        Metric::Level => return 100.0,
        _ => {}
    }
    let floor = match metric {
        Metric::Branching => 0.5,
        Metric::Score => 20.0,
        _ => 5.0,
    };
    let biggest = [
        value,
        target.and_then(|r| r.min),
        target.and_then(|r| r.max),
    ]
    .into_iter()
    .flatten()
    .fold(floor, f64::max)
        * 1.2;
    // 1, 2 or 5 times a power of ten
    let step = 10f64.powf(biggest.log10().floor());
    [1.0, 2.0, 5.0, 10.0]
        .into_iter()
        .map(|m| m * step)
        .find(|&t| t >= biggest)
        .unwrap_or(10.0 * step)
}

/// One bound of a target: a checkbox (no bound when off) and its value. Switched on, the bound
/// starts at the maze's own value.
fn bound(
    ui: &mut egui::Ui,
    metric: Metric,
    which: &str,
    v: &mut Option<f64>,
    current: Option<f64>,
    range: std::ops::RangeInclusive<f64>,
    coalesce: &mut bool,
) {
    let name = metric.name();
    let mut on = v.is_some();
    ui.checkbox(&mut on, which)
        .on_hover_text(format!("a {which}imum {}", metric.label()))
        .accessible_name(format!("{name} {which}"));
    let (decimals, speed) = match metric {
        Metric::Score => (1, 0.2),
        Metric::Ratio | Metric::Branching => (2, 0.005),
        Metric::DeadEnds | Metric::Depth | Metric::Decisions | Metric::Level => (0, 0.2),
        Metric::Cells => (0, 1.0),
    };
    let unit = 10f64.powi(decimals as i32);
    let start = current.map_or(0.0, |c| (c * unit).round() / unit);
    let mut x = v.unwrap_or(start).clamp(*range.start(), *range.end());
    let r = ui
        .add_enabled(
            on,
            DragValue::new(&mut x)
                .range(range)
                .speed(speed)
                .fixed_decimals(decimals),
        )
        .accessible_name(format!("{name} {which} value"));
    *coalesce |= r.dragged() && !r.drag_started();
    if r.changed() {
        // a drag moves by fractions: keep the decimals shown (a bound from a file stays as is)
        x = (x * unit).round() / unit;
    }
    *v = on.then_some(x);
}

/// Budget, what the search may vary, Find / Cancel, progress and the last outcome.
fn search_controls(app: &mut HedgeApp, ui: &mut egui::Ui, d: &Design) {
    let panel = &mut app.targets;
    ui.horizontal(|ui| {
        ui.label("Budget");
        match panel.unit {
            BudgetUnit::Candidates => {
                ui.add(DragValue::new(&mut panel.candidates).range(1..=MAX_CANDIDATES))
                    .accessible_name("Budget candidates");
            }
            BudgetUnit::Seconds => {
                ui.add(
                    DragValue::new(&mut panel.seconds)
                        .range(0.1..=MAX_SECONDS)
                        .speed(0.1)
                        .suffix(" s"),
                )
                .accessible_name("Budget seconds");
            }
        }
        ui.radio_value(&mut panel.unit, BudgetUnit::Candidates, "candidates");
        ui.radio_value(&mut panel.unit, BudgetUnit::Seconds, "seconds");
    });
    ui.horizontal(|ui| {
        ui.checkbox(&mut panel.vary_endpoints, "other entrances")
            .on_hover_text("the search may also try other entrance and exit pairs on the outline");
        ui.checkbox(&mut panel.vary_carver, "other carvers")
            .on_hover_text("the search may also try the other carvers that run on this grid");
    });
    if let Some(s) = &panel.search {
        ui.horizontal(|ui| {
            ui.spinner();
            let text = match s.progress() {
                None => "searching...".to_string(),
                Some(p) => match p.best {
                    Some((_, dist)) => {
                        format!("{} tried, best {dist:.2}", p.tried)
                    }
                    None => format!("{} tried", p.tried),
                },
            };
            ui.label(text);
            if ui.button("Cancel").clicked() {
                app.pending.push(Command::CancelSearch);
            }
        });
        let fraction = s.progress().map_or(0.0, |p| p.fraction) as f32;
        ui.add(egui::ProgressBar::new(fraction).desired_height(6.0));
        ui.ctx().request_repaint_after(Duration::from_millis(100));
    } else {
        let ready = !d.targets.is_empty();
        if ui
            .add_enabled(ready, egui::Button::new("Find a maze"))
            .on_hover_text("try new seeds until a maze meets every target or the budget is spent")
            .on_disabled_hover_text("set a target first (a min or a max above)")
            .clicked()
        {
            app.pending.push(Command::FindMaze);
        }
    }
    if let Some(o) = &app.targets.outcome
        && o.design == *app.design()
        && !o.preset
    {
        let colour = if o.met { MET } else { MISSED };
        ui.label(RichText::new(&o.text).color(colour));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::tests::settle;

    /// A 10x10 maze (100 cells) is too small for the adult level (300): the search stops at the
    /// first maze in the band, and the section says how small and what to change.
    #[test]
    fn a_maze_too_small_for_its_level_says_so() {
        let mut d = Design {
            width: 10,
            height: 10,
            seed: Some(1),
            ..Design::default()
        };
        preset("hard").unwrap().apply(&mut d);
        let found = crate::difficulty::search(&d, None, &SearchOptions::default()).unwrap();
        assert_eq!(found.stop, Stop::TooSmall);
        assert!(found.tried <= 64, "{}", found.tried);
        let text = headline(&found);
        assert!(
            text.starts_with(
                "not met: the maze is too small for this level (100 cells, it needs at least \
                 300); make it wider, use bigger paper or an easier preset"
            ),
            "{text}"
        );
    }

    #[test]
    fn bars_end_on_a_round_number_above_everything_shown() {
        let r = |a, b| Some(Range::new(a, b));
        assert_eq!(scale(Metric::Ratio, Some(0.7), None), 1.0);
        assert_eq!(scale(Metric::Score, Some(62.0), r(None, Some(60.0))), 100.0);
        assert_eq!(scale(Metric::Score, Some(90.0), r(Some(80.0), None)), 200.0);
        assert_eq!(scale(Metric::Depth, Some(3.0), None), 10.0);
        assert_eq!(scale(Metric::DeadEnds, Some(420.0), None), 1000.0);
        assert_eq!(
            scale(Metric::Branching, Some(0.3), r(Some(0.45), None)),
            1.0
        );
        assert_eq!(scale(Metric::Score, None, None), 50.0);
    }

    fn with_targets(app: &mut HedgeApp, targets: crate::difficulty::Targets) {
        let mut d = app.design().clone();
        d.targets = targets;
        crate::app::tests::edit(app, d);
    }

    #[test]
    fn a_found_maze_is_one_undo_step_and_a_stale_one_is_dropped() {
        let mut app = HedgeApp::headless(super::super::Persisted::default());
        let seed = app.design().seed;
        // every maze meets "score 1..": candidate 0, the design itself
        with_targets(
            &mut app,
            crate::difficulty::Targets {
                score: "1..".parse().ok(),
                ..Default::default()
            },
        );
        let undo = app.undo_steps();
        app.apply(Command::FindMaze, None);
        assert!(app.searching());
        settle(&mut app);
        let o = app.targets.outcome.clone().unwrap();
        assert!(o.met, "{}", o.text);
        assert_eq!(app.design().seed, seed, "candidate 0 is the design itself");
        assert_eq!(app.undo_steps(), undo, "nothing to write, no undo step");

        // an impossible target and a large budget: an edit meanwhile makes the result stale
        with_targets(
            &mut app,
            crate::difficulty::Targets {
                score: "900..".parse().ok(),
                ..Default::default()
            },
        );
        app.targets.candidates = 10_000_000;
        app.apply(Command::FindMaze, None);
        let mut edited = app.design().clone();
        edited.walls_mut().unwrap().braid = 0.3;
        app.apply(
            Command::Edit {
                design: Box::new(edited.clone()),
                coalesce: false,
            },
            None,
        );
        settle(&mut app);
        assert_eq!(*app.design(), edited, "the newer edit stands");
        assert!(app.targets.outcome.unwrap().text.contains("design changed"));
    }

    #[test]
    fn a_preset_sets_size_and_targets_and_searches_in_one_step() {
        let mut app = HedgeApp::headless(super::super::Persisted::default());
        settle(&mut app);
        let before = app.design().clone();
        app.apply(Command::ApplyPreset("ages-3-5"), None);
        assert!(app.searching(), "the preset searches at once");
        settle(&mut app);
        let p = preset("ages-3-5").unwrap();
        let d = app.design();
        assert_eq!(
            (d.width, d.height),
            crate::sizing::page_grid(p, d.walls().topology, &d.page),
            "sized for the page"
        );
        assert_eq!(d.targets, p.targets);
        let o = app.targets.outcome.clone().unwrap();
        assert!(o.met, "{}", o.text);
        let g = app.generated().unwrap();
        assert_eq!(
            g.design.walls(),
            app.design().walls(),
            "the maze shown is the found one"
        );
        assert!(crate::difficulty::Report::new(&d.targets, &g.metrics).met());
        assert_eq!(app.undo_steps(), 1, "the preset and its maze: one step");
        app.apply(Command::Undo, None);
        assert_eq!(*app.design(), before);
    }

    /// The crayon warning follows the preset now chosen: the narrowest corridor the page
    /// accepts is the last preset's, not the widest any preset asked for.
    #[test]
    fn the_narrowest_corridor_is_the_last_presets() {
        let mut app = HedgeApp::headless(super::super::Persisted::default());
        for name in ["ages-3-5", "adult"] {
            app.apply(Command::ApplyPreset(name), None);
            settle(&mut app);
            let want = preset(name)
                .unwrap()
                .narrowest_mm()
                .max(crate::page::PageSetup::default().min_corridor_mm);
            assert_eq!(app.design().page.min_corridor_mm, want, "{name}");
        }
    }
}
