//! The [`Layer::Items`] layer: the pictures of a "collect the items" maze ([`crate::items`]),
//! each as large as its cell's clear room allows, centred where the key line passes; and on the
//! answer key ([`Layer::Solution`]), the order of those on the path as small numbers beside
//! them. Also the page's instruction line for such a maze ([`with_instruction`]).

use std::borrow::Cow;
use std::sync::Arc;

use super::CAP_HEIGHT_EM;
use super::layout::Layout;
use super::model::{Anchor, Area, Item, Layer, Pos, Rgb, Rotation, Shape, Text};
use super::picture::{Art, Picture, draw_art};
use crate::grid::CellId;
use crate::page::PageSetup;
use crate::pipeline::Generated;
use crate::topology::{Point, Side};

/// The share of a cell's clear room (the circle inside its walls) an item's box takes across.
const ROOM_SHARE: f64 = 1.45;

/// The built-in picture `name`, read once.
fn builtin(name: &str) -> Option<Arc<Picture>> {
    use std::collections::BTreeMap;
    use std::sync::{Mutex, OnceLock};
    static READ: OnceLock<Mutex<BTreeMap<String, Option<Arc<Picture>>>>> = OnceLock::new();
    let read = READ.get_or_init(Default::default);
    let mut read = read.lock().unwrap_or_else(|e| e.into_inner());
    read.entry(name.to_string())
        .or_insert_with(|| {
            let bytes = crate::theme::picture(name)?;
            Picture::from_svg(bytes).ok().map(Arc::new)
        })
        .clone()
}

/// The picture item `i` of `g`'s design shows: the one read with the design (an SVG's paths
/// or a PNG's pixels: [`crate::design::Walls::item_art`]), else the built-in picture of that
/// name.
fn picture_of(g: &Generated, i: usize) -> Option<Art> {
    if let Some(p) = g.design.walls().item_art.as_ref().and_then(|ps| ps.get(i)) {
        return Some(p.clone());
    }
    let names = crate::items::names(&g.design.walls().items);
    builtin(names.get(i)?).map(|p| Art::Vector((*p).clone()))
}

/// Distance from `p` to the segment `a`-`b`.
fn seg_dist(p: Point, a: Point, b: Point) -> f64 {
    let (dx, dy) = (b.x - a.x, b.y - a.y);
    let len2 = dx * dx + dy * dy;
    let t = if len2 > 0.0 {
        (((p.x - a.x) * dx + (p.y - a.y) * dy) / len2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    let (x, y) = (a.x + t * dx, a.y + t * dy);
    ((p.x - x).powi(2) + (p.y - y).powi(2)).sqrt()
}

/// Where item `cell` of `g` goes (maze units) and the radius of the clear room about it: the
/// point the key line passes through, and its distance to the nearest side of the cell (and,
/// drawn with the shape's outline, to the outline).
fn spot(g: &Generated, cell: CellId, buf: &mut Vec<Side>) -> (Point, f64) {
    let grid = g.maze.grid();
    let p = match g.outline.as_deref() {
        Some(o) => super::key_line::cell_point(o, grid, cell),
        None => grid.center(cell),
    };
    buf.clear();
    grid.sides(cell, buf);
    let mut r = buf
        .iter()
        .map(|s| seg_dist(p, s.a, s.b))
        .fold(f64::INFINITY, f64::min);
    if let Some(o) = g.outline.as_deref() {
        r = r.min(o.clip.clearance(p, r).max(0.0));
    }
    (p, r)
}

/// The box item `cell` is drawn in, on the page at `lay`, in millimetres.
fn item_box(g: &Generated, lay: &Layout, cell: CellId, buf: &mut Vec<Side>) -> Area {
    let (p, r) = spot(g, cell, buf);
    let room = (r * lay.scale - lay.wall_mm / 2.0).max(0.0);
    let side = ROOM_SHARE * room;
    let c = lay.to_page(p);
    Area {
        x: c.x - side / 2.0,
        y: c.y - side / 2.0,
        w: side,
        h: side,
    }
}

/// Appends the items of `g` at `lay` (on [`Layer::Items`]) to `out`.
pub(super) fn draw_items(g: &Generated, lay: &Layout, out: &mut Vec<Item>) {
    let mut buf = Vec::new();
    for it in &g.items {
        let b = item_box(g, lay, it.cell, &mut buf);
        match picture_of(g, it.picture) {
            Some(pic) => draw_art(&pic, &b, Layer::Items, out),
            None => out.push(Item {
                layer: Layer::Items,
                shape: Shape::Fill {
                    path: super::markers::circle(
                        Pos::new(b.x + b.w / 2.0, b.y + b.h / 2.0),
                        b.w / 2.0,
                    ),
                    color: Rgb(0xe8, 0x32, 0x2e),
                },
            }),
        }
    }
}

/// Appends, for the answer key, the order of `g`'s items on the path as numbers beside them
/// ([`Layer::Solution`]) to `out`.
pub(super) fn draw_order(g: &Generated, lay: &Layout, out: &mut Vec<Item>) {
    let mut buf = Vec::new();
    for it in &g.items {
        let b = item_box(g, lay, it.cell, &mut buf);
        if let Some(n) = it.order {
            // a white disc with the number at the box's top right corner
            let size = (0.55 * b.w).clamp(1.6, 5.0);
            let c = Pos::new(b.x + b.w, b.y);
            out.push(Item {
                layer: Layer::Solution,
                shape: Shape::Fill {
                    path: super::markers::circle(c, 0.62 * size),
                    color: Rgb::WHITE,
                },
            });
            out.push(Item {
                layer: Layer::Solution,
                shape: Shape::Stroke {
                    path: super::markers::circle(c, 0.62 * size),
                    width: (0.08 * size).max(0.15),
                    color: Rgb::BLACK,
                },
            });
            out.push(Item {
                layer: Layer::Solution,
                shape: Shape::Text(Text {
                    rotated: Rotation::Across,
                    text: n.to_string(),
                    at: Pos::new(c.x, c.y + CAP_HEIGHT_EM * size / 2.0),
                    size,
                    anchor: Anchor::Middle,
                    bold: true,
                    face: lay.face,
                    color: Rgb::BLACK,
                }),
            });
        }
    }
}

/// `setup`, with the "Collect the 3 apples on your way to the flower" instruction when `g` has
/// items to collect and the page has no instruction of its own (the theme's finish, else the
/// FINISH, the finish picture or the flag).
pub(super) fn with_instruction<'a>(g: &Generated, setup: &'a PageSetup) -> Cow<'a, PageSetup> {
    let n = g.items.iter().filter(|i| i.on_path()).count();
    if n == 0 || setup.instruction.is_some() {
        return Cow::Borrowed(setup);
    }
    let theme = setup
        .theme
        .as_deref()
        .and_then(|t| crate::theme::get(t).ok());
    let finish = match theme {
        Some(t) => format!("the {}", t.finish),
        None if setup.pictures.is_some() => "the finish".into(),
        None if setup.symbols => "the flag".into(),
        None => "the FINISH".into(),
    };
    let names = crate::items::names(&g.design.walls().items);
    Cow::Owned(PageSetup {
        instruction: Some(crate::items::instruction(setup.words(), n, &names, &finish)),
        ..setup.clone()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::design::{Design, Kind, Walls};

    fn collect(n: u32, topology: crate::topology::TopologyKind) -> Generated {
        crate::pipeline::generate(
            &Design {
                kind: Kind::Walls(Walls {
                    topology,
                    collect: n,
                    ..Walls::DEFAULT
                }),
                width: 12,
                height: 12,
                seed: Some(9),
                ..Design::default()
            },
            None,
        )
        .unwrap()
    }

    #[test]
    fn items_are_drawn_inside_their_cells_and_numbered_on_the_key() {
        use crate::topology::TopologyKind::*;
        for t in [Rect, Hex, Polar, Tri] {
            let g = collect(3, t);
            assert_eq!(g.items.len(), 6, "{t:?}");
            let setup = PageSetup::default();
            let both = super::super::pages(&g, &setup, &setup).unwrap();
            let lay = &both.layout;
            let drawn: Vec<&Item> = both.puzzle.layer(Layer::Items).collect();
            assert!(drawn.len() >= 6 * 3, "{t:?}: {} parts", drawn.len());
            // each box inside its cell's clear room, and large enough to read (2 mm and up)
            let mut buf = Vec::new();
            for it in &g.items {
                let b = item_box(&g, lay, it.cell, &mut buf);
                let (p, r) = spot(&g, it.cell, &mut buf);
                let c = lay.to_page(p);
                let half = b.w / 2.0 * std::f64::consts::SQRT_2;
                assert!(half <= r * lay.scale + 1e-9, "{t:?}: box past the cell");
                assert!((b.x + b.w / 2.0 - c.x).abs() < 1e-9);
                assert!(b.w >= 2.0, "{t:?}: {} mm", b.w);
            }
            // the key numbers the path's items 1, 2, 3; the puzzle page shows no numbers
            let numbers: Vec<String> = both
                .key
                .texts()
                .map(|t| t.text.clone())
                .filter(|t| t.parse::<u32>().is_ok())
                .collect();
            for want in ["1", "2", "3"] {
                assert!(numbers.contains(&want.to_string()), "{t:?}: {numbers:?}");
            }
            assert!(
                !both.puzzle.texts().any(|t| t.text == "1"),
                "{t:?}: a number on the puzzle"
            );
            // the instruction says what to collect
            assert!(
                both.puzzle
                    .texts()
                    .any(|t| t.text == "Collect the 3 apples on your way to the FINISH"),
                "{t:?}"
            );
        }
    }

    #[test]
    fn the_instruction_uses_the_theme_and_gives_way_to_the_pages_own() {
        let g = collect(2, crate::topology::TopologyKind::Rect);
        let bee = PageSetup {
            theme: Some("bee".into()),
            ..PageSetup::default()
        };
        assert_eq!(
            with_instruction(&g, &bee).instruction.as_deref(),
            Some("Collect the 2 apples on your way to the flower")
        );
        let own = PageSetup {
            instruction: Some("Go!".into()),
            ..bee
        };
        assert_eq!(
            with_instruction(&g, &own).instruction.as_deref(),
            Some("Go!")
        );
        let none = collect(0, crate::topology::TopologyKind::Rect);
        assert!(
            with_instruction(&none, &PageSetup::default())
                .instruction
                .is_none()
        );
    }
}
