//! The Maze section of the editor's knobs: style, topology, size, carver, braid and weave, seed,
//! and the entrances.

use egui::{ComboBox, DragValue, Slider};

use super::{Command, HedgeApp};
use crate::carve::{CARVERS, GrowingTreePolicy};
use crate::design::{Design, MAX_SEED, Walls};
use crate::endpoints::Placement;
use crate::topology::TopologyKind;

/// The growing-tree carver's registry name (its policy knob shows only for it).
const GROWING_TREE: &str = "growing-tree";

/// Why `algorithm` (a registry entry) cannot run on `topology`.
fn why_not(name: &str, supported: &[TopologyKind], topology: TopologyKind) -> String {
    let on: Vec<&str> = supported.iter().map(|t| t.name()).collect();
    format!(
        "{name} does not run on {topology} grids (only on {})",
        on.join(", ")
    )
}

/// Why the carver and braid are off while a weave is on.
const WOVEN: &str = "a weave maze has its own carver and no loops: set Weave to 0 to choose";

/// Why braid and weave are off on a "Which path?" puzzle.
const STARTS_UNBRAIDED: &str =
    "a \"Which path?\" puzzle (Starts above 1) has no loops or bridges: they would join its paths";

/// Why braid and weave are off while the path reveals a picture.
const REVEAL_UNBRAIDED: &str = "a maze whose path reveals a picture (Reveal) has no loops or bridges: a loop would \
     give a way round the picture, a bridge would hide its cells";

/// Why braid and weave are off while there are items to collect.
const COLLECT_UNBRAIDED: &str = "a maze with items to collect (Collect above 0) has no loops or bridges: a loop could go \
     round an item";

/// The Maze section: the heading, then one group of knobs after another, editing `d`.
pub(super) fn section(app: &mut HedgeApp, ui: &mut egui::Ui, d: &mut Design, coalesce: &mut bool) {
    ui.add_space(4.0);
    ui.heading("Maze");
    let walls = super::tiles::style_knobs(ui, d, app.doc.other_kind_mut());
    // the walls knobs edit a copy: written back for a maze of walls, shown greyed for tiles
    let mut w = d.walls().clone();
    topology_knobs(ui, &mut w, walls, app.design().walls().topology);
    if let Some(knobs) = d.walls_mut() {
        *knobs = w.clone();
    }
    size_knobs(app, ui, d, coalesce);
    // a weave is carved by its own carver and never braided: the two knobs wait for weave 0
    let woven = walls && w.weave > 0.0;
    carver_knobs(ui, &mut w, walls, woven, coalesce);
    braid_knobs(ui, &mut w, walls, woven, coalesce);
    seed_knobs(app, ui, d, coalesce);
    entrance_knobs(ui, &mut w, walls, coalesce);
    if collect_knobs(ui, &mut w, walls, coalesce) {
        app.pending.push(super::Command::ItemPictureDialog);
    }
    if reveal_knob(ui, &mut w, walls) {
        app.pending.push(super::Command::RevealPictureDialog);
    }
    if let Some(knobs) = d.walls_mut() {
        *knobs = w;
    }
}

/// The grid's topology; a carver that cannot run on a newly chosen one gives way to the first
/// that can (`was` is the topology before this frame).
fn topology_knobs(ui: &mut egui::Ui, w: &mut Walls, walls: bool, was: TopologyKind) {
    ui.add_enabled_ui(walls, |ui| {
        ComboBox::from_label("Topology")
            .selected_text(w.topology.name())
            .show_ui(ui, |ui| {
                for kind in TopologyKind::ALL {
                    ui.selectable_value(&mut w.topology, kind, kind.name());
                }
            })
            .response
            .on_disabled_hover_text(super::tiles::WALLS_ONLY);
    });
    if w.topology != was && !w.algorithm.supports(w.topology) {
        // keep the design valid: the first carver that runs on the new topology
        if let Some(c) = CARVERS.iter().find(|c| c.topologies.contains(&w.topology)) {
            w.algorithm = c.algorithm;
        }
    }
}

/// The width and the height; with a shape, the height follows the width unless "Keep the
/// shape's aspect" is unticked.
fn size_knobs(app: &mut HedgeApp, ui: &mut egui::Ui, d: &mut Design, coalesce: &mut bool) {
    let grid = d.grid_topology().info();
    let r = ui.add(Slider::new(&mut d.width, 2..=200).text(grid.width_label));
    *coalesce |= r.dragged() && !r.drag_started();
    let follows = grid.uses_height && d.shape.is_some() && app.doc.keep_aspect();
    // with a shape, the height follows the width (the shape's aspect kept) unless unticked
    if follows
        && d.width != app.design().width
        && let Some(Ok(fg)) = app.foreground_of(d)
        && let Ok(h) =
            crate::sizing::shape_grid(d.grid_topology(), d.width, &fg, None).map(|(_, h)| h)
    {
        d.height = h;
    }
    if grid.uses_height {
        let r = ui
            .add_enabled(!follows, Slider::new(&mut d.height, 2..=200).text("Height"))
            .on_disabled_hover_text(
                "the height follows the width to keep the shape's aspect: untick \
                 \"Keep the shape's aspect\" to set it by hand",
            );
        *coalesce |= r.dragged() && !r.drag_started();
        if d.shape.is_some() {
            let r = ui
                .checkbox(app.doc.keep_aspect_mut(), "Keep the shape's aspect")
                .on_hover_text("the height follows the width, so the shape is not stretched");
            // ticked again: the height fits the shape at once
            if r.changed()
                && app.doc.keep_aspect()
                && let Some(Ok(fg)) = app.foreground_of(d)
                && let Ok(h) =
                    crate::sizing::shape_grid(d.grid_topology(), d.width, &fg, None).map(|(_, h)| h)
            {
                d.height = h;
            }
        }
    }
}

/// The carver (greyed while a weave is on) and the growing tree's policy.
fn carver_knobs(ui: &mut egui::Ui, w: &mut Walls, walls: bool, woven: bool, coalesce: &mut bool) {
    ui.add_enabled_ui(walls && !woven, |ui| {
        ComboBox::from_label("Algorithm")
            .selected_text(w.algorithm.name())
            .show_ui(ui, |ui| {
                for c in CARVERS {
                    let fits = c.topologies.contains(&w.topology);
                    let r = ui
                        .add_enabled(
                            fits,
                            egui::Button::selectable(w.algorithm == c.algorithm, c.name),
                        )
                        .on_hover_text(c.summary)
                        .on_disabled_hover_text(why_not(c.name, c.topologies, w.topology));
                    if r.clicked() {
                        w.algorithm = c.algorithm;
                    }
                }
            })
            .response
            .on_hover_text(w.algorithm.info().summary)
            .on_disabled_hover_text(if woven {
                WOVEN
            } else {
                super::tiles::WALLS_ONLY
            });

        if w.algorithm.name() == GROWING_TREE {
            growing_tree(ui, &mut w.growing_tree, coalesce);
        }
    });
}

/// Braid, weave and the corridors' inset.
fn braid_knobs(ui: &mut egui::Ui, w: &mut Walls, walls: bool, woven: bool, coalesce: &mut bool) {
    ui.add_enabled_ui(walls, |ui| {
        let one_start = w.starts <= 1 && w.collect == 0 && w.reveal.is_none();
        let why = if w.reveal.is_some() {
            REVEAL_UNBRAIDED
        } else if w.collect > 0 {
            COLLECT_UNBRAIDED
        } else {
            STARTS_UNBRAIDED
        };
        let r = ui
            .add_enabled(
                one_start && !woven,
                Slider::new(&mut w.braid, 0.0..=1.0).text("Braid"),
            )
            .on_disabled_hover_text(if !walls {
                super::tiles::WALLS_ONLY
            } else if woven {
                WOVEN
            } else {
                why
            });
        *coalesce |= r.dragged() && !r.drag_started();
        let rect = crate::weave::weaves(w.topology);
        let r = ui
            .add_enabled(
                rect && one_start,
                Slider::new(&mut w.weave, 0.0..=1.0).text("Weave"),
            )
            .on_disabled_hover_text(if !walls {
                super::tiles::WALLS_ONLY
            } else if !one_start {
                why
            } else {
                "weave crossings need a rect or hex grid"
            });
        *coalesce |= r.dragged() && !r.drag_started();
        // the corridors' inset (0.15 of the cell for weave mazes unless set)
        let mut inset = w.inset_share();
        let r = ui
            .add_enabled(
                rect && walls,
                Slider::new(&mut inset, 0.0..=crate::design::MAX_INSET).text("Inset"),
            )
            .on_hover_text(
                "corridors narrower than their cells: a weave crossing reads as a bridge",
            )
            .on_disabled_hover_text("the inset needs a rect or hex grid of walls");
        if r.changed() {
            w.inset = Some(inset);
        }
        *coalesce |= r.dragged() && !r.drag_started();
    });
}

/// The seed and the "New seed" button.
fn seed_knobs(app: &mut HedgeApp, ui: &mut egui::Ui, d: &mut Design, coalesce: &mut bool) {
    ui.horizontal(|ui| {
        let mut seed = d.seed.unwrap_or(0);
        let r = ui.add(
            DragValue::new(&mut seed)
                .range(0..=MAX_SEED)
                .speed(1.0)
                .prefix("seed "),
        );
        *coalesce |= r.dragged() && !r.drag_started();
        d.seed = Some(seed);
        if ui.button("New seed").clicked() {
            app.pending.push(Command::NewSeed);
        }
    });
}

/// Where the entrance and the exit go, and the starts of a "Which path?" puzzle.
fn entrance_knobs(ui: &mut egui::Ui, w: &mut Walls, walls: bool, coalesce: &mut bool) {
    ui.add_enabled_ui(walls, |ui| {
        ui.add_enabled_ui(w.starts <= 1, |ui| {
            ComboBox::from_label("Entrance")
                .selected_text(placement_name(w.placement))
                .show_ui(ui, |ui| {
                    for p in [Placement::Auto, Placement::TopBottom, Placement::LeftRight] {
                        ui.selectable_value(&mut w.placement, p, placement_name(p));
                    }
                })
                .response
                .on_disabled_hover_text(if walls {
                    "a \"Which path?\" puzzle (Starts above 1) spreads its own entrances"
                } else {
                    super::tiles::WALLS_ONLY
                });
        });
        // a "Which path?" puzzle: entrances A to D, one joined to the finish
        let plain = w.braid == 0.0 && w.weave == 0.0 && w.placement == Placement::Auto;
        let r = ui
            .add_enabled(
                plain,
                Slider::new(&mut w.starts, 1..=crate::design::MAX_STARTS).text("Starts"),
            )
            .on_hover_text(
                "2 to 4: a \"Which path?\" puzzle, entrances lettered A to D and only one \
                 joined to the finish",
            )
            .on_disabled_hover_text(if walls {
                "a \"Which path?\" puzzle needs braid 0, no weave and the entrance on auto"
            } else {
                super::tiles::WALLS_ONLY
            });
        *coalesce |= r.dragged() && !r.drag_started();
    });
}

/// The items to collect on the way ([`crate::items`]): how many, and the picture they show,
/// a built-in one or a file of your own (a design file may name several; the picker then
/// shows the first). `true` when "Picture file..." was picked: the caller asks for the file.
fn collect_knobs(ui: &mut egui::Ui, w: &mut Walls, walls: bool, coalesce: &mut bool) -> bool {
    let mut choose_file = false;
    ui.add_enabled_ui(walls, |ui| {
        let plain = w.braid == 0.0 && w.weave == 0.0 && w.starts <= 1;
        let r = ui
            .add_enabled(
                plain || w.collect > 0,
                Slider::new(&mut w.collect, 0..=crate::items::MAX_COLLECT).text("Collect"),
            )
            .on_hover_text(
                "items to pick up on the way, spread along the path in order (the key numbers \
                 them), and as many decoys at dead ends",
            )
            .on_disabled_hover_text(if walls {
                "items to collect need braid 0, no weave and one start"
            } else {
                super::tiles::WALLS_ONLY
            });
        *coalesce |= r.dragged() && !r.drag_started();
        if w.collect == 0 {
            return;
        }
        let names = crate::items::names(&w.items);
        let shown = names.first().copied().unwrap_or(crate::items::DEFAULT_ITEM);
        let mut pick = shown.to_string();
        ComboBox::from_label("Item")
            .selected_text(crate::items::word(shown))
            .show_ui(ui, |ui| {
                // first: the list of built-ins scrolls
                choose_file = ui
                    .selectable_label(crate::items::is_file(shown), ITEM_FILE)
                    .on_hover_text("a picture of your own: SVG, PNG or JPEG")
                    .clicked();
                for n in crate::theme::picture_names() {
                    ui.selectable_value(&mut pick, n.to_string(), n);
                }
            });
        if pick != shown {
            w.items = if pick == crate::items::DEFAULT_ITEM {
                Vec::new()
            } else {
                vec![pick]
            };
        }
    });
    choose_file
}

/// The Item and Reveal pickers' entry for a picture file of your own.
pub(super) const ITEM_FILE: &str = "Picture file…";

/// The picture the path reveals ([`crate::reveal`]): none, a built-in shape or a picture file
/// of your own (a design file may name a text; the picker then shows it). `true` when
/// "Picture file…" was picked: the caller asks for the file.
fn reveal_knob(ui: &mut egui::Ui, w: &mut Walls, walls: bool) -> bool {
    use crate::shape::ShapeSource;
    const NONE: &str = "none";
    let plain = w.braid == 0.0
        && w.weave == 0.0
        && w.starts <= 1
        && w.placement == crate::endpoints::Placement::Auto
        && w.lock.is_empty()
        && w.recarve.is_empty();
    let shown = w
        .reveal
        .as_ref()
        .map_or(NONE.to_string(), ToString::to_string);
    let mut pick = shown.clone();
    let mut choose_file = false;
    ui.add_enabled_ui(walls && (plain || w.reveal.is_some()), |ui| {
        ComboBox::from_label("Reveal")
            .selected_text(&shown)
            .show_ui(ui, |ui| {
                ui.selectable_value(&mut pick, NONE.to_string(), NONE);
                choose_file = ui
                    .selectable_label(matches!(w.reveal, Some(ShapeSource::File(_))), ITEM_FILE)
                    .on_hover_text("a picture of your own: PNG, JPEG or SVG")
                    .clicked();
                for n in crate::shape::builtin::names() {
                    ui.selectable_value(&mut pick, n.to_string(), n);
                }
            })
            .response
            .on_hover_text(
                "a picture revealed by the path: the way through is built through the \
                 picture's cells and the answer key shades it",
            )
            .on_disabled_hover_text(if walls {
                "a picture to reveal needs braid 0, no weave, one start, an automatic \
                 entrance and no hand work"
            } else {
                super::tiles::WALLS_ONLY
            });
    });
    if pick != shown {
        w.reveal = (pick != NONE).then_some(ShapeSource::Builtin(pick));
    }
    choose_file
}

/// The growing tree's policy, and the newest share of a mixed one.
fn growing_tree(ui: &mut egui::Ui, policy: &mut GrowingTreePolicy, coalesce: &mut bool) {
    let name = |p: &GrowingTreePolicy| match p {
        GrowingTreePolicy::Newest => "newest",
        GrowingTreePolicy::Random => "random",
        GrowingTreePolicy::Oldest => "oldest",
        GrowingTreePolicy::Mixed(_) => "mixed",
    };
    ComboBox::from_label("Policy")
        .selected_text(name(policy))
        .show_ui(ui, |ui| {
            for p in [
                GrowingTreePolicy::Newest,
                GrowingTreePolicy::Random,
                GrowingTreePolicy::Oldest,
                GrowingTreePolicy::Mixed(0.5),
            ] {
                let selected = std::mem::discriminant(policy) == std::mem::discriminant(&p);
                if ui.selectable_label(selected, name(&p)).clicked() && !selected {
                    *policy = p;
                }
            }
        });
    if let GrowingTreePolicy::Mixed(share) = policy {
        let r = ui.add(Slider::new(share, 0.0..=1.0).text("Newest share"));
        *coalesce |= r.dragged() && !r.drag_started();
    }
}

/// The Entrance box's name for a placement.
fn placement_name(p: Placement) -> &'static str {
    match p {
        Placement::Auto => "auto",
        Placement::TopBottom => "top-bottom",
        Placement::LeftRight => "left-right",
        Placement::Cells { .. } => "cells (clicked or from the file)",
    }
}
