//! The [`Layer::Text`] layer: the title (shrunk, then wrapped, to fit its line: see
//! [`fit_lines`](super::fit_text)), the name line and the page number, at the baselines the
//! layout's furniture leaves for them (the placement step, `place.rs`, keeps everything else
//! off them).

use super::layout::{FOOTER_SIZE, NAME_SIZE, furniture};
use super::model::{Anchor, Area, Item, Layer, Path, Pos, Rgb, Shape, Text};
use super::place::name_rule;
use crate::page::{PageSetup, Typeface};

/// The name line's rule: 0.3 mm (0.85 pt), over the 0.75 pt print services accept.
const NAME_RULE_MM: f64 = 0.3;

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

/// Appends the title, the level's `stars` (1 to 5, when the setup asks for them and the maze
/// has a level), the instruction, the name line (puzzle pages only) and the page number
/// `setup` asks for, in the printable area `pa`, to `items`.
pub(super) fn draw_text(
    setup: &PageSetup,
    pa: &Area,
    role: PageRole,
    stars: Option<usize>,
    items: &mut Vec<Item>,
) {
    let furn = furniture(setup, pa);
    let face = setup.font;
    let text = |text: String, at: Pos, size: f64, anchor: Anchor, bold: bool| {
        text_item(text, at, size, anchor, bold, face)
    };
    if let Some((fitted, bases)) = furn.title {
        for (line, base) in fitted.lines.into_iter().zip(bases) {
            items.push(text(
                line,
                Pos::new(pa.x + pa.w / 2.0, base),
                fitted.size,
                Anchor::Middle,
                true,
            ));
        }
    }
    if let (Some((base, _)), Some(n)) = (furn.stars, stars) {
        // right-aligned; on a right-to-left page left-aligned, the filled stars on the right
        // (where its reading starts)
        let (stars, x, anchor) = if setup.right_to_left() {
            let seen: String = super::layout::stars_text(n).chars().rev().collect();
            (seen, pa.x, Anchor::Start)
        } else {
            (super::layout::stars_text(n), pa.x + pa.w, Anchor::End)
        };
        items.push(text(
            stars,
            Pos::new(x, base),
            super::layout::STAR_SIZE,
            anchor,
            false,
        ));
    }
    if let Some((fitted, bases)) = furn.instruction {
        for (line, base) in fitted.lines.into_iter().zip(bases) {
            let mut item = text(
                line,
                Pos::new(pa.x + pa.w / 2.0, base),
                fitted.size,
                Anchor::Middle,
                false,
            );
            item.layer = Layer::Instruction;
            items.push(item);
        }
    }
    if let (Some(base), PageRole::Puzzle) = (furn.name_base, role) {
        push_name_line(setup, pa, base, items);
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
    if let (Some(note), PageRole::Puzzle) = (setup.footnote.as_deref(), role) {
        items.push(footnote(setup, pa, note, furn.footer_base));
    }
}

/// A line of the page's text in black, not rotated.
fn text_item(text: String, at: Pos, size: f64, anchor: Anchor, bold: bool, face: Typeface) -> Item {
    Item {
        layer: Layer::Text,
        shape: Shape::Text(Text {
            rotated: crate::draw::Rotation::Across,
            text,
            at,
            size,
            anchor,
            bold,
            face,
            color: Rgb::BLACK,
        }),
    }
}

/// Appends the name line ("Name:" and the rule to write on) at the baseline `base` to `items`:
/// from the left edge, or, on a right-to-left page, mirrored from the right edge.
fn push_name_line(setup: &PageSetup, pa: &Area, base: f64, items: &mut Vec<Item>) {
    let (x, anchor) = if setup.right_to_left() {
        (pa.x + pa.w, Anchor::End)
    } else {
        (pa.x, Anchor::Start)
    };
    items.push(text_item(
        setup.words().get("name").into(),
        Pos::new(x, base),
        NAME_SIZE,
        anchor,
        false,
        setup.font,
    ));
    let (x0, x1) = name_rule(setup, pa);
    items.push(Item {
        layer: Layer::Text,
        shape: Shape::Stroke {
            path: Path::polyline(&[Pos::new(x0, base + 0.6), Pos::new(x1, base + 0.6)]),
            width: NAME_RULE_MM,
            color: Rgb::BLACK,
        },
    });
}

/// The footnote `note` at the footer's baseline `footer_base`: on the outside edge (right on
/// a right-hand page; the right, where its line ends, on a turned page), shortened to keep clear of the page number in the middle.
fn footnote(setup: &PageSetup, pa: &Area, note: &str, footer_base: f64) -> Item {
    let face = setup.font;
    let room = pa.w / 2.0 - 2.0 * FOOTER_SIZE;
    let mut note = crate::draw::printable(note.trim());
    while note.chars().count() > 1 && super::font(face, false).width(&note, FOOTER_SIZE) > room {
        note.pop();
    }
    // a turned page's footer runs along the sheet's long edge: the note at its far end
    let (x, anchor) = if setup.inside_is_left() || setup.turned {
        (pa.x + pa.w, Anchor::End)
    } else {
        (pa.x, Anchor::Start)
    };
    text_item(
        note,
        Pos::new(x, footer_base),
        FOOTER_SIZE,
        anchor,
        false,
        face,
    )
}
