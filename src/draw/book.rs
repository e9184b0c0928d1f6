//! Book pages with no maze of their own: the title page, and the answer pages at the back, which
//! hold 1 to 9 answer keys each, in the grid (up to 3 x 3) that prints them largest. A key there is its ordinary key page ([`super::key_page`]),
//! laid out on a small page of its own and scaled into its slot, under a label with its puzzle
//! number; the page fill and the "ANSWER KEY" footer of the small page are left out.

use super::layout::{
    LEADING_EM, LINE_GAP, PT, TITLE_MIN_SHARE, content_area, fit_lines, printable_area,
};
use super::*;
use crate::error::Error;
use crate::page::Typeface;

/// The maze of an answer key: cells and walls, or hex tiles.
#[derive(Clone, Copy, Debug)]
pub enum KeyMaze<'a> {
    /// A maze of cells and walls.
    Walls(&'a Generated),
    /// A hex tile maze.
    Tiles(&'a crate::tiles::puzzle::TileMaze),
}

/// One answer key for an answer page: the maze and the label printed above it ("Puzzle 7").
#[derive(Clone, Copy, Debug)]
pub struct AnswerKey<'a> {
    /// The maze whose solution is drawn.
    pub maze: KeyMaze<'a>,
    /// The label above the key.
    pub label: &'a str,
}

const BOOK_TITLE_SIZE: f64 = 30.0 * PT;
const BOOK_SUBTITLE_SIZE: f64 = 14.0 * PT;
const KEY_LABEL_SIZE: f64 = 10.0 * PT;
/// The gap between answer-key slots, in millimetres.
const SLOT_GAP: f64 = 5.0;
/// The shorter side a key is laid out on before it is scaled into its slot, in millimetres: the
/// size at which the START / FINISH labels and the walls have their page proportions.
const KEY_VIRTUAL_MM: f64 = 120.0;

fn trim_area(setup: &PageSetup) -> Area {
    let (tw, th) = setup.trim_mm();
    let (x, y) = setup.trim_origin_mm();
    Area { x, y, w: tw, h: th }
}

pub(super) fn drawing(setup: &PageSetup, items: Vec<Item>) -> Drawing {
    let (pw, ph) = setup.page_mm();
    Drawing {
        width: pw,
        height: ph,
        trim: trim_area(setup),
        items,
    }
}

/// A centred line of text in `face`, shortened to `max_w` millimetres.
pub(super) fn centred(
    text: &str,
    x: f64,
    y: f64,
    size: f64,
    bold: bool,
    face: Typeface,
    max_w: f64,
) -> Item {
    let mut t = printable(text.trim());
    while t.chars().count() > 1 && font(face, bold).width(&t, size) > max_w {
        t.pop();
    }
    Item {
        layer: Layer::Text,
        shape: Shape::Text(Text {
            rotated: crate::draw::Rotation::Across,
            text: t,
            at: Pos::new(x, y),
            size,
            anchor: Anchor::Middle,
            bold,
            face,
            color: Rgb::BLACK,
        }),
    }
}

/// The title page: the book's title large, a third of the way down the printable area, and the
/// subtitle under it. A title too long for the line is shrunk (to [`TITLE_MIN_SHARE`] of its
/// size at the least), then wrapped onto more lines, never cut; so is the subtitle.
/// The author's name follows, a little apart. Lines too many for the rest of the page move the
/// whole up (to the top of the printable area at most), then are set smaller (down to half
/// their size); text too long even then is an error naming the book's field that takes the
/// most lines (`book.title: ...`), never text off the page. `setup`'s own title, name line
/// and page number are not printed.
pub fn title_page(
    setup: &PageSetup,
    title: &str,
    subtitle: Option<&str>,
    author: Option<&str>,
) -> Result<Drawing> {
    setup.validate()?;
    let pa = printable_area(setup);
    let cx = pa.x + pa.w / 2.0;
    let parts = [
        (Some(title), BOOK_TITLE_SIZE, true, 0.0, "book.title"),
        (
            subtitle,
            BOOK_SUBTITLE_SIZE,
            false,
            BOOK_TITLE_SIZE * 0.6 + BOOK_SUBTITLE_SIZE + LINE_GAP,
            "book.subtitle",
        ),
        (
            author,
            BOOK_SUBTITLE_SIZE,
            false,
            BOOK_SUBTITLE_SIZE * 2.5 + LINE_GAP,
            "book.author",
        ),
    ];
    // the lines at `scale` of their sizes, the first baseline at 0: each line's text, size,
    // boldness, baseline and field
    let stack = |scale: f64| {
        let mut lines: Vec<(String, f64, bool, f64, &str)> = Vec::new();
        let mut y = 0.0;
        for (text, size, bold, gap, field) in parts {
            let Some(text) = text.filter(|t| !t.trim().is_empty()) else {
                continue;
            };
            if !lines.is_empty() {
                y += gap * scale;
            }
            let size = size * scale;
            let fitted = fit_lines(
                &printable(text.trim()),
                setup.font,
                bold,
                size,
                size * TITLE_MIN_SHARE,
                pa.w,
            );
            for (i, line) in fitted.lines.into_iter().enumerate() {
                if i > 0 {
                    y += LEADING_EM * fitted.size;
                }
                lines.push((line, fitted.size, bold, y, field));
            }
        }
        lines
    };
    // the stack's box about its first baseline: from the first line's cap height to the last
    // line's descent
    let extent = |lines: &[(String, f64, bool, f64, &str)]| {
        let top = lines.first().map_or(0.0, |l| CAP_HEIGHT_EM * l.1);
        let bottom = lines.last().map_or(0.0, |l| l.3 + font::DESCENT_EM * l.1);
        (top, bottom)
    };
    let mut smallest = Vec::new();
    for k in 0..=5 {
        let scale = 1.0 - 0.1 * f64::from(k);
        let lines = stack(scale);
        let (top, bottom) = extent(&lines);
        if top + bottom > pa.h {
            smallest = lines;
            continue;
        }
        // a third of the way down, or higher when the lines need the room
        let base = (pa.y + pa.h / 3.0)
            .min(pa.y + pa.h - bottom)
            .max(pa.y + top);
        let mut items = vec![paper(setup.page_mm())];
        for (line, size, bold, y, _) in lines {
            items.push(Item {
                layer: Layer::Text,
                shape: Shape::Text(Text {
                    rotated: crate::draw::Rotation::Across,
                    text: line,
                    at: Pos::new(cx, base + y),
                    size,
                    anchor: Anchor::Middle,
                    bold,
                    face: setup.font,
                    color: Rgb::BLACK,
                }),
            });
        }
        return Ok(drawing(setup, items));
    }
    let most = ["book.title", "book.subtitle", "book.author"]
        .into_iter()
        .max_by_key(|f| smallest.iter().filter(|l| l.4 == *f).count())
        .unwrap_or("book.title");
    Err(Error::option(format!(
        "{most}: too long for the title page even at half size ({} lines in all); shorten it",
        smallest.len()
    )))
}

/// The most answer keys one answer page holds (a 3 x 3 grid).
pub const MAX_KEYS_PER_PAGE: usize = 9;

/// The height above each key for its label, in millimetres.
fn label_height() -> f64 {
    CAP_HEIGHT_EM * KEY_LABEL_SIZE + font::DESCENT_EM * KEY_LABEL_SIZE + 1.5
}

/// A slot of the answer grid: its width and the height left for the key under its label.
fn slot_size(cols: usize, rows: usize, w: f64, h: f64) -> (f64, f64) {
    let slot_w = (w - SLOT_GAP * (cols - 1) as f64) / cols as f64;
    let slot_h = (h - SLOT_GAP * (rows - 1) as f64) / rows as f64;
    (slot_w, slot_h - label_height())
}

/// Columns and rows of the answer grid for `per_page` keys (1 to 9) in an area `w` x `h`: of
/// the grids of at most 3 x 3 that hold them with no empty row (1 x 1; 1 x 2 or 2 x 1; ...
/// 3 x 3 for 7 to 9), the one whose slots take the largest square key, so each key prints at
/// the largest scale the trim allows (on a tie, the one with fewer slots).
fn grid_for(per_page: usize, w: f64, h: f64) -> (usize, usize) {
    let n = per_page.clamp(1, MAX_KEYS_PER_PAGE);
    let mut best: Option<((usize, usize), f64)> = None;
    for cols in 1..=n.min(3) {
        let rows = n.div_ceil(cols);
        if rows > 3 {
            continue;
        }
        let (sw, kh) = slot_size(cols, rows, w, h);
        let side = sw.min(kh);
        let better = match best {
            None => true,
            Some(((c, r), b)) => side > b + 1e-9 || (side > b - 1e-9 && cols * rows < c * r),
        };
        if better {
            best = Some(((cols, rows), side));
        }
    }
    best.map_or((1, 1), |(g, _)| g)
}

/// An answer page: `setup`'s title (the section heading) and page number, and `keys` (at most
/// `per_page`, 1 to [`MAX_KEYS_PER_PAGE`]) in a grid sized for `per_page`, so a last page with
/// fewer keys has the same slots. Each key is labelled with its label (its puzzle's number).
pub fn answers_page(setup: &PageSetup, keys: &[AnswerKey<'_>], per_page: usize) -> Result<Drawing> {
    setup.validate()?;
    if !(1..=MAX_KEYS_PER_PAGE).contains(&per_page) || keys.len() > per_page {
        return Err(Error::option(format!(
            "an answer page holds 1 to {MAX_KEYS_PER_PAGE} keys, got {} for {per_page} a page",
            keys.len()
        )));
    }
    let pa = printable_area(setup);
    let area = content_area(setup, &pa);
    let (cols, rows) = grid_for(per_page, area.w, area.h);
    let (slot_w, key_h) = slot_size(cols, rows, area.w, area.h);
    let slot_h = key_h + label_height();
    let label_h = label_height();
    if slot_w < 20.0 || key_h < 20.0 {
        return Err(Error::option(format!(
            "{per_page} answer keys a page leave {slot_w:.0} x {key_h:.0} mm each; use fewer keys a page or a larger page"
        )));
    }
    let mut items = vec![paper(setup.page_mm())];
    draw_text(setup, &pa, PageRole::Answers, None, &mut items);
    for (i, key) in keys.iter().enumerate() {
        let (c, r) = (i % cols, i / cols);
        let x = area.x + c as f64 * (slot_w + SLOT_GAP);
        let y = area.y + r as f64 * (slot_h + SLOT_GAP);
        items.push(centred(
            key.label,
            x + slot_w / 2.0,
            y + CAP_HEIGHT_EM * KEY_LABEL_SIZE,
            KEY_LABEL_SIZE,
            true,
            setup.font,
            slot_w,
        ));
        let slot = Area {
            x,
            y: y + label_h,
            w: slot_w,
            h: key_h,
        };
        items.extend(key_in(key.maze, &slot, setup)?);
    }
    Ok(drawing(setup, items))
}

/// The answer key of `maze` laid out in `slot` of a page of `setup`: laid out on a page of the
/// slot's shape, at least [`KEY_VIRTUAL_MM`] on its shorter side, then scaled down into it,
/// without its page fill or its "ANSWER KEY" footer.
pub(super) fn key_in(maze: KeyMaze<'_>, slot: &Area, setup: &PageSetup) -> Result<Vec<Item>> {
    let s = (slot.w.min(slot.h) / KEY_VIRTUAL_MM).min(1.0);
    let (vw, vh) = (slot.w / s, slot.h / s);
    let virtual_setup = PageSetup {
        paper: crate::page::Paper::Custom {
            width_mm: vw,
            height_mm: vh,
        },
        orientation: if vw > vh {
            crate::page::Orientation::Landscape
        } else {
            crate::page::Orientation::Portrait
        },
        margin_mm: 0.0,
        gutter_mm: 0.0,
        bleed: false,
        bound: false,
        font: setup.font,
        title: None,
        name_line: false,
        page_number: None,
        wall_mm: setup.wall_mm,
        min_corridor_mm: 0.0,
        markers: crate::page::MarkerSize::Normal,
        symbols: false,
        theme: None,
        instruction: None,
        stars: false,
        star_count: None,
        footnote: None,
        start_picture: None,
        finish_picture: None,
        pictures: None,
        turned: false,
        // the book's words (START and FINISH in its language)
        lang: setup.lang.clone(),
        strings: setup.strings.clone(),
        words: setup.words.clone(),
    };
    let page = match maze {
        // the puzzle's own markers: its pictures, dot and flag or word size (not its
        // instruction line: the key's label says which puzzle it is)
        KeyMaze::Walls(g) => key_page(
            g,
            &PageSetup {
                markers: g.design.page.markers,
                symbols: g.design.page.symbols,
                theme: g.design.page.theme.clone(),
                pictures: g.design.page.pictures.clone(),
                instruction: Some(String::new()),
                ..virtual_setup.clone()
            },
        )?,
        KeyMaze::Tiles(m) => super::tiles::tile_pages(m, &virtual_setup, &virtual_setup)?.key,
    };
    Ok(page
        .items
        .iter()
        .filter(|it| {
            it.layer != Layer::Page
                && !(it.layer == Layer::Solution && matches!(it.shape, Shape::Text(_)))
        })
        .map(|it| {
            let mut it = it.transformed(s, slot.x, slot.y);
            // scaled down, a big maze's answer line (a share of its corridor) would print
            // under 0.75 pt; no printed line of a key is thinner than that
            if let Shape::Stroke { width, color, .. } = &mut it.shape
                && *color != Rgb::WHITE
            {
                *width = width.max(KEY_LINE_MIN_MM);
            }
            it
        })
        .collect())
}

/// The thinnest line an answer key scaled into its slot prints ([`key_in`]): just over KDP's
/// 0.75 pt (0.2646 mm). A 77 x 24 key on a page of four had a 0.19 mm answer line.
const KEY_LINE_MIN_MM: f64 = 0.27;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::draw::tests::maze;

    #[test]
    fn a_title_page_of_long_texts_moves_up_and_is_set_smaller_to_stay_on_the_page() {
        for paper in ["5x8in", "6x9in", "8.5x11"] {
            let setup = PageSetup {
                paper: paper.parse().unwrap(),
                margin_mm: 19.0,
                ..PageSetup::default()
            };
            let pa = printable_area(&setup);
            let (long, words) = ("W".repeat(200), "Mazes and more ".repeat(13));
            for (title, sub, author) in [
                (long.as_str(), long.as_str(), long.as_str()),
                (words.trim(), words.trim(), words.trim()),
                ("Short", "", ""),
            ] {
                let d = title_page(&setup, title, Some(sub), Some(author)).unwrap();
                let texts: Vec<&Text> = d.texts().collect();
                assert!(!texts.is_empty());
                for t in &texts {
                    let b = t.bounds();
                    assert!(
                        b.x >= pa.x - 1e-6
                            && b.x + b.w <= pa.x + pa.w + 1e-6
                            && b.y >= pa.y - 1e-6
                            && b.y + b.h <= pa.y + pa.h + 1e-6,
                        "{paper}: {:?} at {b:?} outside {pa:?}",
                        t.text
                    );
                }
                // nothing dropped, nothing overlapping
                let printed: usize = texts.iter().map(|t| t.text.chars().count()).sum();
                let given = [title, sub, author]
                    .iter()
                    .map(|t| t.replace(' ', "").len())
                    .sum();
                assert!(printed >= given, "{paper}: {printed} < {given}");
                for w in texts.windows(2) {
                    let (a, b) = (w[0].bounds(), w[1].bounds());
                    assert!(a.y + a.h <= b.y + 1e-6, "{paper}: {w:?}");
                }
            }
        }
        // a short title stays a third of the way down at its full size
        let setup = PageSetup::default();
        let pa = printable_area(&setup);
        let d = title_page(&setup, "Mazes", None, None).unwrap();
        let t = d.texts().next().unwrap();
        assert!((t.size - BOOK_TITLE_SIZE).abs() < 1e-9);
        assert!((t.at.y - (pa.y + pa.h / 3.0)).abs() < 1e-9);
    }

    /// A big maze's key scaled into a quarter of a page keeps every printed line at 0.75 pt
    /// or more (its answer line was 0.19 mm on a page of four 77 x 24 keys).
    #[test]
    fn a_small_key_prints_no_line_under_three_quarters_of_a_point() {
        let big = maze(80, 60, 3);
        let keys: Vec<AnswerKey<'_>> = (0..4)
            .map(|_| AnswerKey {
                maze: KeyMaze::Walls(&big),
                label: "Puzzle 1",
            })
            .collect();
        let d = answers_page(&PageSetup::default(), &keys, 4).unwrap();
        let widths: Vec<f64> = d
            .printed()
            .filter_map(|i| match i.shape {
                Shape::Stroke { width, color, .. } if color != Rgb::WHITE => Some(width),
                _ => None,
            })
            .collect();
        assert!(d.layer(Layer::Solution).count() > 0);
        let thinnest = widths.iter().copied().fold(f64::MAX, f64::min);
        assert!(thinnest >= KEY_LINE_MIN_MM - 1e-9, "{thinnest} mm");
        // the answer line was what scaled under it
        assert!(
            d.layer(Layer::Solution)
                .any(|i| matches!(i.shape, Shape::Stroke { width, .. } if (width - KEY_LINE_MIN_MM).abs() < 1e-9)),
            "no answer line at the floor: the test no longer exercises it"
        );
    }

    #[test]
    fn answer_keys_keep_their_puzzles_pictures_but_not_its_instruction() {
        let mut themed = maze(8, 8, 1);
        themed.design.page.theme = Some("bee".into());
        let plain = maze(8, 8, 2);
        let keys = [
            AnswerKey {
                maze: KeyMaze::Walls(&themed),
                label: "Puzzle 1",
            },
            AnswerKey {
                maze: KeyMaze::Walls(&plain),
                label: "Puzzle 2",
            },
        ];
        let d = answers_page(&PageSetup::default(), &keys, 2).unwrap();
        assert!(d.layer(Layer::StartPicture).count() > 0);
        assert!(d.layer(Layer::FinishPicture).count() > 0);
        assert_eq!(d.layer(Layer::Instruction).count(), 0);
        // the plain puzzle's key keeps its words
        let words: Vec<&str> = d.texts().map(|t| t.text.as_str()).collect();
        assert_eq!(
            words.iter().filter(|w| **w == "START").count(),
            1,
            "{words:?}"
        );
    }
}
