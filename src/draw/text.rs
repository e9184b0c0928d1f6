//! The [`Layer::Text`] layer: the title (shortened to fit its line), the name line and the
//! page number, at the baselines the layout's furniture leaves for them.

use super::font::{font, printable};
use super::layout::{FOOTER_SIZE, NAME_SIZE, TITLE_SIZE, furniture};
use super::model::{Anchor, Area, Item, Layer, Path, Pos, Rgb, Shape, Text};
use crate::page::PageSetup;

/// Whether a page is one a child solves (it gets the name line) or an answer page (it does
/// not: the line is for the solver's name, and its space is left empty so the maze sits where
/// it sits on the puzzle page).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum PageRole {
    /// A puzzle page.
    Puzzle,
    /// An answer-key page.
    Answers,
}

/// Appends the title, the name line (puzzle pages only) and the page number `setup` asks for,
/// in the printable area `pa`, to `items`.
pub(super) fn draw_text(setup: &PageSetup, pa: &Area, role: PageRole, items: &mut Vec<Item>) {
    let furn = furniture(setup, pa);
    let face = setup.font;
    let text = |text: String, at: Pos, size: f64, anchor: Anchor, bold: bool| Item {
        layer: Layer::Text,
        shape: Shape::Text(Text {
            text,
            at,
            size,
            anchor,
            bold,
            face,
            color: Rgb::BLACK,
        }),
    };
    if let (Some(base), Some(title)) = (furn.title_base, setup.title.as_deref()) {
        let mut t = printable(title.trim());
        // shorten a title too long for the line
        while t.chars().count() > 1 && font(face, true).width(&t, TITLE_SIZE) > pa.w {
            t.pop();
        }
        items.push(text(
            t,
            Pos::new(pa.x + pa.w / 2.0, base),
            TITLE_SIZE,
            Anchor::Middle,
            true,
        ));
    }
    if let (Some(base), PageRole::Puzzle) = (furn.name_base, role) {
        let label = "Name:";
        items.push(text(
            label.into(),
            Pos::new(pa.x, base),
            NAME_SIZE,
            Anchor::Start,
            false,
        ));
        let x0 = pa.x + font(face, false).width("Name: ", NAME_SIZE) + 1.0;
        let x1 = (pa.x + pa.w * 0.6).max(x0 + 20.0).min(pa.x + pa.w);
        items.push(Item {
            layer: Layer::Text,
            shape: Shape::Stroke {
                path: Path::polyline(&[Pos::new(x0, base + 0.6), Pos::new(x1, base + 0.6)]),
                width: 0.25,
                color: Rgb::BLACK,
            },
        });
    }
    if let Some(n) = setup.page_number {
        items.push(text(
            n.to_string(),
            Pos::new(pa.x + pa.w / 2.0, furn.footer_base),
            FOOTER_SIZE,
            Anchor::Middle,
            false,
        ));
    }
}
