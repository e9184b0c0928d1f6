//! The tiles style in the editor: the Style and Mazer-order knobs, a tile maze's
//! printed pages for the preview, its status line and its exports.
//!
//! The tile maze is made on the worker by [`crate::pipeline::generate_tiles`], the call the
//! command line's `--style tiles` makes (inside the shape's mask when there is a shape: the
//! tiles have the hex topology's geometry, so the shape is fitted as onto a hex grid). Its pages
//! are [`crate::draw::tile_pages`], the drawings the exporters render, so the preview shows
//! them exactly as they print.

use std::time::Duration;

use egui::ComboBox;

use super::{Current, HedgeApp};
use crate::design::{Design, Kind, Style};
use crate::pipeline::GeneratedTiles;

/// The tooltip of knobs that do not apply to tile mazes.
pub const WALLS_ONLY: &str = "not for tile mazes: they are always hex tiles carved by the tile \
     Mazer (see Order), with the entrance and exit placed far apart on the edge";

/// The name a style has in the Style menu.
pub fn style_name(style: Style) -> &'static str {
    match style {
        Style::Walls => "walls",
        Style::Tiles => "hex tiles",
    }
}

/// The name of a Mazer order in the Order menu.
pub fn order_name(order: u32) -> String {
    match order {
        0 => "0: one-tile corridors".into(),
        1 => "1: corridors apart".into(),
        n => format!("{n} (not supported)"),
    }
}

/// The Style choice and, for tile mazes, the Mazer order. Returns whether the knobs of wall
/// mazes (topology, algorithm, braid, weave, entrance) apply. Switching style keeps the knobs
/// of the style left in `other` and gives them back when the user switches again.
pub fn style_knobs(ui: &mut egui::Ui, d: &mut Design, other: &mut Option<Kind>) -> bool {
    let mut style = d.style();
    ComboBox::from_label("Style")
        .selected_text(style_name(style))
        .show_ui(ui, |ui| {
            ui.selectable_value(&mut style, Style::Walls, style_name(Style::Walls))
                .on_hover_text("cells separated by walls, on any topology");
            ui.selectable_value(&mut style, Style::Tiles, style_name(Style::Tiles))
                .on_hover_text("every hexagonal tile is floor or wall (game maps, block mazes)");
        });
    if style != d.style() {
        let left = d.kind.clone();
        d.set_style(style);
        if let Some(kept) = other.take().filter(|k| k.style() == style) {
            d.kind = kept;
        }
        *other = Some(left);
    }
    if let Kind::Tiles(t) = &mut d.kind {
        ComboBox::from_label("Order")
            .selected_text(order_name(t.order))
            .show_ui(ui, |ui| {
                ui.selectable_value(&mut t.order, 0, order_name(0))
                    .on_hover_text("corridors and walls one tile wide");
                ui.selectable_value(&mut t.order, 1, order_name(1))
                    .on_hover_text("like 0, and no two corridors run side by side");
            })
            .response
            .on_hover_text("the tile Mazer's order");
    }
    d.style() == Style::Walls
}

/// The status bar's line for a tile maze: its tile counts and how long it took.
pub fn status(t: &GeneratedTiles, elapsed: Duration) -> String {
    format!(
        "{} · {:.1} ms",
        t.summary().replace(", ", " · "),
        elapsed.as_secs_f64() * 1000.0
    )
}

impl HedgeApp {
    /// The newest tile maze, if the design is a tile maze that is made.
    pub fn tiles(&self) -> Option<&GeneratedTiles> {
        match self.work.current() {
            Current::Made { made, .. } => match &**made {
                crate::make::Made::Tiles(t) => Some(t),
                crate::make::Made::Walls(_) => None,
            },
            _ => None,
        }
    }

    /// The tile maze to export: `Ok(None)` when the current maze is not a tile maze, an error
    /// while a maze is still being made.
    pub(super) fn ready_tiles(&self) -> Result<Option<&GeneratedTiles>, String> {
        if self.busy() {
            return Err("the maze is still being made; export again in a moment".into());
        }
        Ok(self.tiles())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::tests::settle;
    use crate::app::{Command, Persisted};
    use crate::design::{Kind, Tiles, Walls};

    fn edit(app: &mut HedgeApp, d: Design) {
        crate::app::tests::edit(app, d);
        settle(app);
    }

    #[test]
    fn the_tiles_style_makes_the_clis_tile_maze_and_its_pages() {
        let mut app = HedgeApp::headless(Persisted::default());
        let d = Design {
            kind: Kind::Tiles(Tiles { order: 1 }),
            width: 17,
            height: 14,
            seed: Some(9),
            ..app.design().clone()
        };
        edit(&mut app, d.clone());
        let t = app.tiles().expect("a tile maze");
        assert!(app.generated().is_none());
        let want = crate::pipeline::generate_tiles(&d, None).unwrap();
        assert_eq!(t.maze, want.maze);
        let (_, p) = app.preview().expect("pages");
        let pages = crate::draw::tile_pages(&want.maze, &d.page, &d.page).unwrap();
        assert_eq!(
            p.pages.puzzle, pages.puzzle,
            "the preview is the printed page"
        );
        assert_eq!(p.pages.key, pages.key);
        assert_eq!(p.overlays.cell_count, 17 * 14);
        let line = crate::app::ui::status_text(&app);
        assert!(line.contains(" open · solution "), "{line}");

        // a page change lays the same maze out again
        let mut a4 = d.clone();
        a4.page.paper = crate::page::Paper::A4;
        a4.page.orientation = crate::page::Orientation::Portrait;
        edit(&mut app, a4);
        assert_eq!(app.tiles().unwrap().maze, want.maze);
        assert_eq!(app.preview().unwrap().1.pages.puzzle.width, 210.0);

        // too small for tiles: a readable error, and back to walls gives a maze again
        edit(
            &mut app,
            Design {
                width: 2,
                ..d.clone()
            },
        );
        assert!(app.error().unwrap().contains("3"), "{:?}", app.error());
        app.apply(Command::Undo, None);
        app.apply(Command::Undo, None);
        settle(&mut app);
        assert!(app.tiles().is_some());
        edit(
            &mut app,
            Design {
                kind: Kind::Walls(Walls::DEFAULT),
                ..d
            },
        );
        assert!(app.generated().is_some());
    }

    #[test]
    fn tiles_fill_a_shape_and_the_overlay_shows_its_tiles() {
        let mut app = HedgeApp::headless(Persisted::default());
        let mut d = app.design().clone();
        d.set_style(Style::Tiles);
        edit(&mut app, d);
        app.apply(
            Command::SetShape(Some(crate::shape::ShapeSource::Builtin("heart".into()))),
            None,
        );
        settle(&mut app);
        let t = app.tiles().unwrap_or_else(|| panic!("{:?}", app.error()));
        let region = t.maze.region.as_ref().expect("tiles inside the heart");
        let in_shape = region.open_count();
        // the height was fitted for the tiles' hex geometry
        let fg = app.foreground().unwrap().unwrap();
        let h = crate::shape::fitted_height(crate::topology::TopologyKind::Hex, 20, &fg).unwrap();
        assert_eq!(app.design().height, h);
        assert_eq!(app.preview().unwrap().1.overlays.cell_count, in_shape);
        assert!(crate::app::ui::status_text(&app).contains("tiles in the shape"));
    }

    #[test]
    fn tile_exports_write_pages_and_json() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path();
        let mut app = HedgeApp::headless(Persisted::default());
        let mut d = app.design().clone();
        d.set_style(Style::Tiles);
        edit(&mut app, d);
        let json = dir.join("t.json");
        app.apply(Command::ExportByName(json.clone()), None);
        // the export runs as a background task
        settle(&mut app);
        assert!(matches!(&app.message, Some(Ok(_))), "{:?}", app.message);
        let v: serde_json::Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
        assert_eq!(v["format"], "hedge-tiles");
        assert_eq!(v["seed"], app.design().seed.unwrap());
        let png = dir.join("t.png");
        app.apply(Command::ExportByName(png.clone()), None);
        settle(&mut app);
        assert!(std::fs::read(&png).unwrap().starts_with(b"\x89PNG"));
        assert!(
            std::fs::read(dir.join("t-key.png"))
                .unwrap()
                .starts_with(b"\x89PNG")
        );
    }
}
