//! The drawing model: a maze laid out on a page as a display list in millimetres.
//!
//! [`puzzle_page`] and [`key_page`] turn a [`Generated`] maze and a [`PageSetup`] into a
//! [`Drawing`]: a page size and a list of [`Item`]s (strokes, fills and text, each tagged with a
//! [`Layer`]), with the origin at the top-left corner of the page and y pointing down. This is the
//! only place where maze geometry meets print style; the SVG, PDF and PNG back ends (and the
//! editor's preview) draw the list as it is and derive no geometry of their own.
//!
//! The display list's types are in `model.rs`; where the maze goes on the page ([`Layout`], the
//! sizes, the header and footer with the title fitted to its line, the label occupancy, the
//! page turned for [`Orientation::Auto`](crate::page::Orientation::Auto)) is `layout.rs`; where
//! every label, arrow and line of text goes, clear of each other and of the maze, is `place.rs`,
//! the one placement step. This file puts the layers together ([`pages`], [`puzzle_page`],
//! [`key_page`], [`layout`]).
//!
//! What goes on a page, bottom to top, and the file that paints each layer:
//! - [`Layer::Page`]: the white page (bleed included); `paper`, here.
//! - [`Layer::Walls`]: every closed cell side, joined into a few long trails (`walls.rs`)
//!   with round caps and joins. Arcs (polar rings) are true arcs, as cubic Béziers.
//! - [`Layer::Crossings`] (`crossings.rs`): for each weave tunnel, the tunnel's side walls
//!   through the crossed cell, then the over-corridor's floor as a white band covering them,
//!   then the over-corridor's walls on top.
//! - [`Layer::Markers`] (`markers.rs`): an arrow through the entrance and the exit openings, and
//!   the START and FINISH labels outside the shape, clear of it.
//! - [`Layer::Text`] (`text.rs`): the title, the name line and the page number.
//! - [`Layer::Solution`] (answer key only, `solution.rs`): a smooth rounded line through the
//!   corridor centres from opening to opening, broken where it passes under a weave crossing,
//!   and an "ANSWER KEY" label. The key page is the puzzle page plus this layer and nothing else.
//! - [`Layer::Overlay`] (the editor only, never printed; [`overlay`]).
//!
//! Hex tile mazes ([`crate::tiles`]) are drawn into the same model by `tiles.rs`
//! ([`tile_pages`]): filled wall tiles instead of wall strokes, the same layout, markers and text.
//! The book's title and answer pages are `book.rs`, its front matter `front.rs`, its full-wrap
//! cover `cover.rs`; the typefaces' metrics are `font.rs`.

mod book;
mod clip;
mod cover;
mod cover_art;
mod crayon;
mod crossings;
pub(crate) mod euler;
mod fit_text;
mod font;
mod front;
mod geometry;
mod inset;
mod items;
mod key_line;
mod layout;
mod markers;
mod model;
mod occupancy;
mod outline_walls;
pub mod overlay;
mod picture;
mod place;
mod reveal;
mod shaping;
mod solution;
mod strokes;
mod text;
mod tiles;
mod trails;
mod walls;

use std::borrow::Cow;

use crate::error::Result;
use crate::maze::Tunnel;
use crate::page::PageSetup;
use crate::pipeline::Generated;

pub use book::{AnswerKey, KeyMaze, MAX_KEYS_PER_PAGE, answers_page, title_page};
pub use cover::{
    BACK_CARDS, BARCODE_MM, COVER_SAFE_MM, Cover, FRONT_CARDS, SPINE_MARGIN_MM,
    SPINE_TEXT_MIN_PAGES, SPINE_TEXT_MIN_PT, Wrap, cover,
};
pub use cover_art::{BADGE_MAX_CHARS, MIN_CONTRAST, Palette, contrast, hex, parse_hex};
pub use crayon::Reach;
use crossings::draw_crossings;
pub(crate) use font::{CAP_HEIGHT_EM, Font, Placed, font, place};
pub use font::{font_bytes, glyph_warnings, missing, printable, reads_right_to_left};
pub use front::{
    ContentsLine, Copyright, belongs_to_page, blank_page, contents_capacity, contents_page,
    copyright_page, how_to_page,
};
pub use layout::{LabelSpot, Layout, TITLE_MIN_SHARE, WIDTH_SLACK_MM, mm_under};
use layout::{geometry, layout_with};
use markers::draw_markers;
pub use model::{Anchor, Area, Drawing, Item, Layer, Path, Pos, Rgb, Rotation, Seg, Shape, Text};
pub use picture::placed;
use place::Plan;
use place::settle;
#[cfg(test)]
pub(crate) use shaping::shape;
use solution::draw_solution;
use text::{PageRole, draw_text};
pub use tiles::{TILE_WALL, tile_layout, tile_pages};
use walls::draw_walls;

/// The puzzle page: walls, crossings, entrance and exit markers, title, name line, page number.
pub fn puzzle_page(g: &Generated, setup: &PageSetup) -> Result<Drawing> {
    build(g, setup, false)
}

/// The answer-key page: the puzzle page with the same layout plus the [`Layer::Solution`] items
/// (the solution line and an "ANSWER KEY" label) on top; nothing else differs.
pub fn key_page(g: &Generated, setup: &PageSetup) -> Result<Drawing> {
    build(g, setup, true)
}

/// The maze's level as 1 to 5 stars ([`crate::metrics::Standing::stars`]); none without a
/// standing.
fn level_stars(g: &Generated) -> Option<usize> {
    g.metrics.standing.as_ref().map(|s| s.stars())
}

/// The instruction a "Which path?" puzzle's page prints when it has none of its own (with a
/// theme, the theme's finish instead of FINISH; with the dot and flag, the flag), in English:
/// a page in another language prints its words' `which_path` ([`crate::lang`]).
pub const WHICH_PATH: &str = "Which path leads to the FINISH?";

/// `setup`, with the "Which path?" instruction when `g` has several entrances and the page has
/// no instruction of its own (an empty one is none: the answer pages' keys have it): the
/// theme's own line would send a child to find a picture the lettered entrances do not have
/// ("Help the bee find the flower"), so a theme's page asks for its finish ("Which path leads
/// to the flower?").
fn with_instruction<'a>(g: &Generated, setup: &'a PageSetup) -> Cow<'a, PageSetup> {
    if g.starts.is_empty() || setup.instruction.is_some() {
        return Cow::Borrowed(setup);
    }
    let words = setup.words();
    let theme = setup
        .theme
        .as_deref()
        .filter(|t| crate::theme::get(t).is_ok());
    let line = match theme.and_then(|t| words.which_path_to(t)) {
        Some(line) => line.to_string(),
        None if setup.pictures.is_some() => words.get("which_path_finish").to_string(),
        None if setup.symbols => words.get("which_path_flag").to_string(),
        // the page's own FINISH word
        None => words.with_ends("which_path"),
    };
    Cow::Owned(PageSetup {
        instruction: Some(line),
        ..setup.clone()
    })
}

/// `setup` for `g`'s page: with the "Which path?" instruction ([`with_instruction`]). A page
/// turned with its shape is the setup's to say ([`PageSetup::turned`]: a book's puzzle page,
/// [`crate::make::Made`]'s pages for a design's `turn = "page"`), not the maze's: an answer
/// page's key stands upright in its slot.
fn for_maze<'a>(g: &Generated, setup: &'a PageSetup) -> Cow<'a, PageSetup> {
    match with_instruction(g, setup) {
        Cow::Borrowed(s) => items::with_instruction(g, s),
        owned => owned,
    }
}

/// `d`, drawn in the frame of `setup`, on its sheet: turned a quarter turn anticlockwise for
/// a [`PageSetup::turned`] page ([`Drawing::turned`]).
pub(crate) fn on_sheet(d: Drawing, setup: &PageSetup) -> Drawing {
    if setup.turned { d.turned() } else { d }
}

fn build(g: &Generated, setup: &PageSetup, key: bool) -> Result<Drawing> {
    let setup = &*for_maze(g, setup);
    let geo = geometry(g);
    let (lay, _) = settle(setup, &geo)?;
    let setup = &setup.oriented(lay.orientation);
    let plan = place::plan(setup, &lay, &geo, key);
    let tunnels = g.maze.tunnels();
    let maze = maze_items(g, &lay, &plan, &tunnels);
    let d = assemble(g, setup, &lay, &plan, maze, key.then_some(&tunnels));
    Ok(on_sheet(d, setup))
}

/// The room a puzzle page of `setup` leaves its maze and markers: the printable area (inside
/// the margins and the gutter) between the header (title, name line) and the footer.
pub fn maze_room(setup: &PageSetup) -> Area {
    let printable = layout::printable_area(setup);
    layout::content_area(setup, &printable)
}

/// Fits `g` onto the page `setup` describes: the scale, position, orientation, corridor width
/// and warnings (the label placement's included). A turned page's layout
/// ([`PageSetup::turned`]) is in its content's frame, before the page is turned onto its
/// sheet.
pub fn layout(g: &Generated, setup: &PageSetup) -> Result<Layout> {
    let setup = &*for_maze(g, setup);
    let geo = geometry(g);
    let (mut lay, _) = settle(setup, &geo)?;
    let plan = place::plan(&setup.oriented(lay.orientation), &lay, &geo, true);
    lay.notes = plan.warnings;
    Ok(lay)
}

/// The warnings of `plans`, each once, in order.
fn notes<'a>(plans: impl IntoIterator<Item = &'a Plan>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for w in plans.into_iter().flat_map(|p| &p.warnings) {
        if !out.contains(w) {
            out.push(w.clone());
        }
    }
    out
}

/// The puzzle page, its answer key and the puzzle's layout, made together.
#[derive(Clone, Debug, PartialEq)]
pub struct Pages {
    /// The puzzle page.
    pub puzzle: Drawing,
    /// The answer-key page.
    pub key: Drawing,
    /// Where the maze sits on the puzzle page (see [`Layout::warnings`]).
    pub layout: Layout,
}

/// The puzzle page laid out with `setup` and the answer key laid out with `key_setup` (the same
/// setup for an SVG or PNG key, [`PageSetup::next_page`] for page 2 of a PDF). An
/// [`Orientation::Auto`](crate::page::Orientation::Auto) is settled on the puzzle page and the
/// key follows it. The maze is drawn once: when both layouts put it at the same size, the key
/// reuses the puzzle's walls, crossings and markers, moved to the key page's position.
pub fn pages(g: &Generated, setup: &PageSetup, key_setup: &PageSetup) -> Result<Pages> {
    let (setup, key_setup) = (&*for_maze(g, setup), &*for_maze(g, key_setup));
    let geo = geometry(g);
    let (mut lay, shrink) = settle(setup, &geo)?;
    let setup = &setup.oriented(lay.orientation);
    let key_setup = &key_setup.oriented(lay.orientation);
    let key_lay = layout_with(key_setup, &geo, shrink)?;
    let plan = place::plan(setup, &lay, &geo, false);
    let key_plan = place::plan(key_setup, &key_lay, &geo, true);
    let tunnels = g.maze.tunnels();
    let maze = maze_items(g, &lay, &plan, &tunnels);
    let same_size = lay.scale == key_lay.scale
        && lay.wall_mm == key_lay.wall_mm
        && lay.printable.w == key_lay.printable.w
        && lay.printable.h == key_lay.printable.h;
    let key_maze = if same_size {
        let (dx, dy) = (
            key_lay.origin.x - lay.origin.x,
            key_lay.origin.y - lay.origin.y,
        );
        if dx == 0.0 && dy == 0.0 {
            maze.clone()
        } else {
            maze.iter().map(|i| i.translated(dx, dy)).collect()
        }
    } else {
        maze_items(g, &key_lay, &key_plan, &tunnels)
    };
    let key = assemble(g, key_setup, &key_lay, &key_plan, key_maze, Some(&tunnels));
    let puzzle = assemble(g, setup, &lay, &plan, maze, None);
    lay.notes = notes([&plan, &key_plan]);
    // measured in the frame the layout drew it in
    lay.reach = crayon::measure(g, &puzzle, &lay);
    Ok(Pages {
        puzzle: on_sheet(puzzle, setup),
        key: on_sheet(key, key_setup),
        layout: lay,
    })
}

/// Walls, crossings and markers (as `plan` places them) for the maze at `lay`.
fn maze_items(g: &Generated, lay: &Layout, plan: &Plan, tunnels: &[Tunnel]) -> Vec<Item> {
    let mut items = Vec::new();
    draw_walls(g, lay, tunnels, &mut items);
    draw_crossings(g, lay, tunnels, &mut items);
    items::draw_items(g, lay, &mut items);
    draw_markers(lay, &plan.markers, &mut items);
    items
}

/// The page: paper, the maze items, the text, and the solution (with the ANSWER KEY label where
/// `plan` puts it) when `solution` has the tunnels.
fn assemble(
    g: &Generated,
    setup: &PageSetup,
    lay: &Layout,
    plan: &Plan,
    maze: Vec<Item>,
    solution: Option<&Vec<Tunnel>>,
) -> Drawing {
    let (pw, ph) = lay.page;
    let mut items = Vec::with_capacity(maze.len() + 8);
    items.push(paper(lay.page));
    if solution.is_some() {
        reveal::shade(g, lay, &mut items);
    }
    items.extend(maze);
    let role = match solution {
        Some(_) => PageRole::Answers,
        None => PageRole::Puzzle,
    };
    let stars = setup.star_count.or_else(|| level_stars(g));
    draw_text(setup, &lay.printable, role, stars, &mut items);
    if let Some(b) = plan.legend {
        crossings::draw_legend(lay, b, &mut items);
    }
    if let (Some(tunnels), Some(key_box)) = (solution, plan.answer_key) {
        draw_solution(g, lay, tunnels, key_box, &mut items);
        items::draw_order(g, lay, &mut items);
        if let Some(m) = plan.winner.and_then(|w| plan.markers.get(w)) {
            markers::ring_winner(&m.label_box, &mut items);
        }
    }
    Drawing {
        width: pw,
        height: ph,
        trim: lay.trim,
        items,
    }
}

/// The white sheet under everything else, `page` = (width, height) in millimetres.
pub(crate) fn paper(page: (f64, f64)) -> Item {
    let (pw, ph) = page;
    Item {
        layer: Layer::Page,
        shape: Shape::Fill {
            path: Path::polygon(&[
                Pos::new(0.0, 0.0),
                Pos::new(pw, 0.0),
                Pos::new(pw, ph),
                Pos::new(0.0, ph),
            ]),
            color: Rgb::WHITE,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::design::Design;
    use crate::design::{Kind, Walls};
    use crate::pipeline::generate;

    /// A rectangular `w` x `h` maze from `seed`, for the tests of every painter.
    pub(super) fn maze(w: u32, h: u32, seed: u64) -> Generated {
        generate(
            &Design {
                width: w,
                height: h,
                seed: Some(seed),
                ..Design::default()
            },
            None,
        )
        .unwrap()
    }

    #[test]
    fn stars_show_the_level_beside_the_title() {
        let mut g = maze(12, 9, 3);
        for (harder_than, want) in [(5.0, 1), (18.0, 2), (50.0, 3), (80.0, 4), (97.0, 5)] {
            g.metrics.standing = Some(crate::metrics::Standing {
                harder_than,
                samples: 96,
            });
            for title in [
                Some("A long title for a small page, long enough to wrap".into()),
                None,
            ] {
                let s = PageSetup {
                    title,
                    stars: true,
                    paper: crate::page::Paper::Trim6x9,
                    ..PageSetup::default()
                };
                let p = puzzle_page(&g, &s).unwrap();
                let stars: Vec<&Text> = p.texts().filter(|t| t.text.contains('\u{2605}')).collect();
                assert_eq!(stars.len(), 1);
                let t = stars[0];
                assert_eq!(t.text.chars().filter(|&c| c == '\u{2605}').count(), want);
                assert_eq!(t.text.chars().count(), layout::STARS);
                // clear of every other text
                for o in p.texts().filter(|o| !std::ptr::eq(*o, t)) {
                    assert!(!o.bounds().overlaps(&t.bounds()), "{:?} / stars", o.text);
                }
                assert!(layout(&g, &s).unwrap().warnings().is_empty());
            }
        }
        // no standing, no stars; no stars asked, none either
        g.metrics.standing = None;
        let s = PageSetup {
            stars: true,
            ..PageSetup::default()
        };
        assert!(
            !puzzle_page(&g, &s)
                .unwrap()
                .texts()
                .any(|t| t.text.contains('\u{2606}'))
        );
    }

    #[test]
    fn a_which_path_page_asks_which_path_unless_it_says_otherwise() {
        let g = generate(
            &Design {
                kind: Kind::Walls(Walls {
                    starts: 3,
                    ..Walls::DEFAULT
                }),
                width: 10,
                height: 10,
                seed: Some(3),
                ..Design::default()
            },
            None,
        )
        .unwrap();
        let line = |setup: PageSetup| -> Vec<String> {
            let p = puzzle_page(&g, &setup).unwrap();
            p.texts()
                .map(|t| t.text.clone())
                .filter(|t| t.contains(' '))
                .collect()
        };
        assert_eq!(line(PageSetup::default()), [WHICH_PATH]);
        let bee = PageSetup {
            theme: Some("bee".into()),
            ..PageSetup::default()
        };
        assert_eq!(line(bee), ["Which path leads to the flower?"]);
        let flag = PageSetup {
            symbols: true,
            ..PageSetup::default()
        };
        assert_eq!(line(flag), ["Which path leads to the flag?"]);
        let own = PageSetup {
            instruction: Some("Find the cheese".into()),
            theme: Some("bee".into()),
            ..PageSetup::default()
        };
        assert_eq!(line(own), ["Find the cheese"]);
        // one entrance: no line unless asked
        let one = maze(10, 10, 3);
        let p = puzzle_page(&one, &PageSetup::default()).unwrap();
        assert!(!p.texts().any(|t| t.text.contains("Which")));
    }

    #[test]
    fn key_is_puzzle_plus_solution() {
        let g = maze(12, 9, 3);
        let s = PageSetup {
            title: Some("Test".into()),
            name_line: true,
            page_number: Some(5),
            ..PageSetup::default()
        };
        let p = puzzle_page(&g, &s).unwrap();
        let k = key_page(&g, &s).unwrap();
        let rest: Vec<&Item> = k
            .items
            .iter()
            .filter(|i| i.layer != Layer::Solution)
            .collect();
        // the key is the puzzle without its name line (text and rule), plus the solution
        let is_name_line = |i: &&Item| {
            i.layer == Layer::Text
                && match &i.shape {
                    Shape::Text(t) => t.text == "Name:",
                    Shape::Stroke { .. } => true,
                    _ => false,
                }
        };
        let puzzle_rest: Vec<&Item> = p.items.iter().filter(|i| !is_name_line(i)).collect();
        assert_eq!(
            p.items.len() - puzzle_rest.len(),
            2,
            "the name and its rule"
        );
        assert_eq!(rest, puzzle_rest);
        assert!(k.layer(Layer::Solution).count() >= 2);
        let texts: Vec<&str> = p.texts().map(|t| t.text.as_str()).collect();
        for want in ["Test", "Name:", "5", "START", "FINISH"] {
            assert!(texts.contains(&want), "{want} missing from {texts:?}");
        }
        assert!(
            !k.texts().any(|t| t.text == "Name:"),
            "no name line on the key"
        );
    }

    #[test]
    fn a_turned_page_is_its_landscape_page_turned_onto_the_sheet_its_text_reading_up() {
        let g = maze(30, 12, 4);
        let s = PageSetup {
            paper: crate::page::Paper::Trim85x11,
            orientation: crate::page::Orientation::Portrait,
            title: Some("Puzzle 3".into()),
            page_number: Some(7),
            footnote: Some("Solution on page 40".into()),
            gutter_mm: 6.0,
            bleed: true,
            bound: true,
            ..PageSetup::default()
        };
        let turned = PageSetup {
            turned: true,
            ..s.clone()
        };
        let both = pages(&g, &turned, &turned.next_page()).unwrap();
        let p = &both.puzzle;
        // the sheet is the upright page's size; the layout is the landscape frame's
        let upright = puzzle_page(&g, &s).unwrap();
        assert_eq!((p.width, p.height), (upright.width, upright.height));
        assert_eq!(both.layout.page, (p.height, p.width));
        assert!(both.layout.trim.w > both.layout.trim.h);
        // a wide maze prints larger across the turned page
        assert!(both.layout.scale > layout(&g, &s).unwrap().scale * 1.2);
        // every text reads up the sheet: the title, the page number, the footnote, the labels
        let words: Vec<&str> = p.texts().map(|t| t.text.as_str()).collect();
        for want in ["Puzzle 3", "7", "Solution on page 40", "START", "FINISH"] {
            assert!(words.contains(&want), "{want} missing from {words:?}");
        }
        assert!(p.texts().all(|t| t.rotated == Rotation::Up));
        assert!(both.key.texts().all(|t| t.rotated == Rotation::Up));
        // the page's content inside the sheet's trim, the title by the sheet's left edge (the
        // content's top) and the page number by its right (the content's foot)
        let title = p.texts().find(|t| t.text == "Puzzle 3").unwrap().bounds();
        let number = p.texts().find(|t| t.text == "7").unwrap().bounds();
        assert!(title.x < p.width / 4.0 && number.x > p.width * 3.0 / 4.0);
        for t in p.texts() {
            let b = t.bounds();
            let tr = p.trim;
            assert!(b.x >= tr.x && b.x + b.w <= tr.x + tr.w, "{:?}", t.text);
            assert!(b.y >= tr.y && b.y + b.h <= tr.y + tr.h, "{:?}", t.text);
        }
        // turned back, it is the landscape frame's drawing
        let back = p.turned_back();
        assert_eq!((back.width, back.height), both.layout.page);
        assert!(back.texts().all(|t| t.rotated == Rotation::Across));
        // the one-page drawing is the same page
        assert_eq!(puzzle_page(&g, &turned).unwrap(), *p);
    }

    #[test]
    fn pages_match_the_pages_made_one_by_one() {
        let g = maze(14, 11, 8);
        let s = PageSetup {
            gutter_mm: 12.0,
            page_number: Some(3),
            title: Some("T".into()),
            ..PageSetup::default()
        };
        let both = pages(&g, &s, &s.next_page()).unwrap();
        assert_eq!(both.puzzle, puzzle_page(&g, &s).unwrap());
        let key = key_page(&g, &s.next_page()).unwrap();
        assert_eq!(both.key.items.len(), key.items.len());
        let coords = |i: &Item| -> Vec<f64> {
            match &i.shape {
                Shape::Stroke { path, .. }
                | Shape::Fill { path, .. }
                | Shape::Tint { path, .. } => path
                    .segs()
                    .flat_map(|s| match s {
                        Seg::MoveTo(a) | Seg::LineTo(a) => vec![a.x, a.y],
                        Seg::CubicTo(a, b, c) => vec![a.x, a.y, b.x, b.y, c.x, c.y],
                        Seg::Close => vec![],
                    })
                    .collect(),
                Shape::Text(t) => vec![t.at.x, t.at.y],
                Shape::Image { area, .. } => vec![area.x, area.y, area.w, area.h],
            }
        };
        for (a, b) in both.key.items.iter().zip(&key.items) {
            // moved rather than redrawn: equal up to rounding (paths keep single-precision
            // points: within 1e-4 mm on a page)
            assert_eq!(a.layer, b.layer);
            let (ca, cb) = (coords(a), coords(b));
            assert_eq!(ca.len(), cb.len());
            assert!(
                ca.iter().zip(&cb).all(|(x, y)| (x - y).abs() < 1e-4),
                "{a:?} {b:?}"
            );
        }
    }
}
