//! A book's front matter: the copyright page, the "This book belongs to" page, the how-to page
//! (with a small solved maze) and the contents; and the blank page that puts puzzle 1 on a
//! right-hand page or pads a book to an even page count. The title page is [`super::title_page`].
//! None of them prints a page number (front matter in books is unnumbered), and each keeps to
//! the page's printable area (inside the margins and the gutter).

use super::book::{KeyMaze, centred, drawing, key_in};
use super::layout::{LEADING_EM, fit_lines, printable_area};
use super::*;
use crate::page::Typeface;

/// The headings of the front pages, in points.
const HEADING_SIZE: f64 = 22.0 * layout::PT;
/// The body text of the how-to and contents pages.
const BODY_SIZE: f64 = 12.0 * layout::PT;
/// The copyright page's text (small, at the foot of the page, as books print it).
const SMALL_SIZE: f64 = 9.0 * layout::PT;
/// The "This book belongs to" line, large for a child to see.
const BELONGS_SIZE: f64 = 26.0 * layout::PT;
/// How far below a heading's baseline the page's body starts, in millimetres.
const HEADING_GAP: f64 = 14.0;

/// What the copyright page says.
#[derive(Clone, Copy, Debug)]
pub struct Copyright<'a> {
    /// The book's title (bold, first).
    pub title: &'a str,
    /// The author, after "Copyright ©" and the year.
    pub author: &'a str,
    /// The year of the copyright.
    pub year: u32,
    /// The ISBN, when the book has one.
    pub isbn: Option<&'a str>,
    /// The rights text ("All rights reserved. ...").
    pub rights: &'a str,
}

/// One line of the contents: what (a section of puzzles, the answers) and its page number.
#[derive(Clone, Debug, PartialEq)]
pub struct ContentsLine {
    /// The entry's text ("Puzzles 1 to 8: Ages 3-5").
    pub text: String,
    /// The page it starts on.
    pub page: u32,
}

fn text(text: String, at: Pos, size: f64, anchor: Anchor, bold: bool, face: Typeface) -> Item {
    Item {
        layer: Layer::Text,
        shape: Shape::Text(Text {
            rotated: false,
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

/// `body` wrapped to `w` millimetres at `size` (never shrunk), word by word as a paragraph is
/// set: each line takes as many words as fit (a word wider than a line is broken).
fn wrap(body: &str, face: Typeface, bold: bool, size: f64, w: f64) -> Vec<String> {
    let f = font(face, bold);
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for word in printable(body.trim()).split_whitespace() {
        let joined = if line.is_empty() {
            word.to_string()
        } else {
            format!("{line} {word}")
        };
        if f.width(&joined, size) <= w {
            line = joined;
            continue;
        }
        if !line.is_empty() {
            lines.push(std::mem::take(&mut line));
        }
        if f.width(word, size) <= w {
            line = word.to_string();
        } else {
            let mut broken = fit_lines(word, face, bold, size, size, w).lines;
            line = broken.pop().unwrap_or_default();
            lines.extend(broken);
        }
    }
    if !line.is_empty() || lines.is_empty() {
        lines.push(line);
    }
    lines
}

/// A blank page (no number, nothing printed).
pub fn blank_page(setup: &PageSetup) -> Result<Drawing> {
    setup.validate()?;
    Ok(drawing(setup, vec![paper(setup.page_mm())]))
}

/// The copyright page: the title, "Copyright © YEAR AUTHOR", the rights, the ISBN and a
/// "Made with Hedge" line, small and left-aligned at the foot of the printable area.
pub fn copyright_page(setup: &PageSetup, c: &Copyright<'_>) -> Result<Drawing> {
    setup.validate()?;
    let pa = printable_area(setup);
    let face = setup.font;
    // (text, bold, space above in lines)
    let mut lines: Vec<(String, bool, f64)> = Vec::new();
    for l in wrap(c.title, face, true, SMALL_SIZE, pa.w) {
        lines.push((l, true, 0.0));
    }
    let mut para = |body: &str, gap: f64| {
        for (i, l) in wrap(body, face, false, SMALL_SIZE, pa.w)
            .into_iter()
            .enumerate()
        {
            lines.push((l, false, if i == 0 { gap } else { 0.0 }));
        }
    };
    para(
        &format!("Copyright \u{a9} {} {}", c.year, c.author.trim()),
        0.6,
    );
    for p in c.rights.split("\n\n").filter(|p| !p.trim().is_empty()) {
        para(&p.split_whitespace().collect::<Vec<_>>().join(" "), 0.6);
    }
    if let Some(isbn) = c.isbn {
        para(&format!("ISBN {isbn}"), 0.6);
    }
    para("Mazes made with Hedge.", 0.6);
    let step = LEADING_EM * SMALL_SIZE;
    let height: f64 = lines.iter().map(|(_, _, gap)| (1.0 + gap) * step).sum();
    // the last line's descent sits on the printable area's foot
    let mut y = pa.y + pa.h - height - font::DESCENT_EM * SMALL_SIZE;
    let mut items = vec![paper(setup.page_mm())];
    for (l, bold, gap) in lines {
        y += (1.0 + gap) * step;
        items.push(text(
            l,
            Pos::new(pa.x, y),
            SMALL_SIZE,
            Anchor::Start,
            bold,
            face,
        ));
    }
    Ok(drawing(setup, items))
}

/// The "This book belongs to" page: the line large, a third of the way down, and a long rule
/// under it to write a name on.
pub fn belongs_to_page(setup: &PageSetup) -> Result<Drawing> {
    setup.validate()?;
    let pa = printable_area(setup);
    let cx = pa.x + pa.w / 2.0;
    let y = pa.y + pa.h / 3.0;
    let mut items = vec![
        paper(setup.page_mm()),
        centred(
            "This book belongs to",
            cx,
            y,
            BELONGS_SIZE,
            true,
            setup.font,
            pa.w,
        ),
    ];
    let rule_y = y + 28.0;
    let half = (pa.w * 0.4).min(80.0);
    items.push(Item {
        layer: Layer::Text,
        shape: Shape::Stroke {
            path: Path::polyline(&[Pos::new(cx - half, rule_y), Pos::new(cx + half, rule_y)]),
            width: 0.5,
            color: Rgb::BLACK,
        },
    });
    Ok(drawing(setup, items))
}

/// The heading of a front page at the top of the printable area; returns where its body
/// starts (a little below the heading's baseline).
fn heading(setup: &PageSetup, pa: &Area, title: &str, items: &mut Vec<Item>) -> f64 {
    let base = pa.y + font::CAP_HEIGHT_EM * HEADING_SIZE;
    items.push(centred(
        title,
        pa.x + pa.w / 2.0,
        base,
        HEADING_SIZE,
        true,
        setup.font,
        pa.w,
    ));
    base + HEADING_GAP
}

/// The how-to page: "How to solve a maze", the numbered `steps` (wrapped), and under them
/// `example`'s answer key (a small solved maze), as large as the rest of the page allows up
/// to 100 mm, with a caption.
pub fn how_to_page(
    setup: &PageSetup,
    steps: &[String],
    example: Option<KeyMaze<'_>>,
) -> Result<Drawing> {
    setup.validate()?;
    let pa = printable_area(setup);
    let face = setup.font;
    let mut items = vec![paper(setup.page_mm())];
    let mut y = heading(setup, &pa, "How to solve a maze", &mut items);
    let step = LEADING_EM * BODY_SIZE;
    let indent = font(face, true).width("0. ", BODY_SIZE);
    for (n, s) in steps.iter().enumerate() {
        let lines = wrap(s, face, false, BODY_SIZE, pa.w - indent);
        for (i, l) in lines.into_iter().enumerate() {
            if i == 0 {
                items.push(text(
                    format!("{}.", n + 1),
                    Pos::new(pa.x, y),
                    BODY_SIZE,
                    Anchor::Start,
                    true,
                    face,
                ));
            }
            items.push(text(
                l,
                Pos::new(pa.x + indent, y),
                BODY_SIZE,
                Anchor::Start,
                false,
                face,
            ));
            y += step;
        }
        y += step * 0.5;
    }
    if let Some(maze) = example {
        let caption = "A solved maze: the line is the way from START to FINISH.";
        let room = pa.y + pa.h - y - 2.0 * step;
        let side = room.min(pa.w).min(100.0);
        if side >= 40.0 {
            let slot = Area {
                x: pa.x + (pa.w - side) / 2.0,
                y: y + step * 0.5,
                w: side,
                h: side,
            };
            items.extend(key_in(maze, &slot, setup)?);
            items.push(centred(
                caption,
                pa.x + pa.w / 2.0,
                slot.y + side + step,
                BODY_SIZE * 0.85,
                false,
                face,
                pa.w,
            ));
        }
    }
    Ok(drawing(setup, items))
}

/// How many contents lines a page of `setup` holds under its heading.
pub fn contents_capacity(setup: &PageSetup) -> usize {
    let pa = printable_area(setup);
    let top = pa.y + font::CAP_HEIGHT_EM * HEADING_SIZE + HEADING_GAP;
    ((pa.y + pa.h - top) / (LEADING_EM * BODY_SIZE * 1.5))
        .floor()
        .max(0.0) as usize
        + 1
}

/// The contents page: "Contents" and one line per entry, its text on the left, its page
/// number on the right and dot leaders between. At most [`contents_capacity`] lines (an
/// error beyond: the caller merges sections to fit).
pub fn contents_page(setup: &PageSetup, lines: &[ContentsLine]) -> Result<Drawing> {
    setup.validate()?;
    if lines.len() > contents_capacity(setup) {
        return Err(crate::error::Error::option(format!(
            "the contents has {} lines; a page holds {}",
            lines.len(),
            contents_capacity(setup)
        )));
    }
    let pa = printable_area(setup);
    let face = setup.font;
    let f = font(face, false);
    let mut items = vec![paper(setup.page_mm())];
    let mut y = heading(setup, &pa, "Contents", &mut items);
    let dot = f.width(". ", BODY_SIZE);
    for line in lines {
        let number = line.page.to_string();
        let number_w = f.width(&number, BODY_SIZE);
        // the entry keeps a third of the line clear for its leaders and number at least
        let mut entry = printable(line.text.trim());
        while entry.chars().count() > 1 && f.width(&entry, BODY_SIZE) > pa.w * 0.75 {
            entry.pop();
        }
        let entry_w = f.width(&entry, BODY_SIZE);
        items.push(text(
            entry,
            Pos::new(pa.x, y),
            BODY_SIZE,
            Anchor::Start,
            false,
            face,
        ));
        items.push(text(
            number,
            Pos::new(pa.x + pa.w, y),
            BODY_SIZE,
            Anchor::End,
            false,
            face,
        ));
        let gap = pa.w - entry_w - number_w - 2.0 * dot;
        let n = (gap / dot).floor().max(0.0) as usize;
        if n >= 2 {
            items.push(text(
                ". ".repeat(n).trim_end().to_string(),
                Pos::new(pa.x + pa.w - number_w - dot, y),
                BODY_SIZE,
                Anchor::End,
                false,
                face,
            ));
        }
        y += LEADING_EM * BODY_SIZE * 1.5;
    }
    Ok(drawing(setup, items))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::draw::tests::maze;

    fn inside(d: &Drawing, setup: &PageSetup) {
        let pa = printable_area(setup);
        for t in d.texts() {
            let b = t.bounds();
            assert!(
                b.x >= pa.x - 1e-6
                    && b.x + b.w <= pa.x + pa.w + 1e-6
                    && b.y >= pa.y - 1e-6
                    && b.y + b.h <= pa.y + pa.h + 1e-6,
                "{:?} outside the printable area",
                t.text
            );
        }
    }

    #[test]
    fn the_copyright_page_says_who_when_and_sits_at_the_foot() {
        let setup = PageSetup {
            paper: crate::page::Paper::Trim6x9,
            ..PageSetup::default()
        };
        let d = copyright_page(
            &setup,
            &Copyright {
                title: "Animal Mazes",
                author: "Ada Lovelace",
                year: 2026,
                isbn: Some("978-3-16-148410-0"),
                rights: "All rights reserved. No part of this book may be reproduced without \
                         written permission from the publisher, except for the pages a buyer \
                         copies for their own family or classroom.",
            },
        )
        .unwrap();
        let words: Vec<&str> = d.texts().map(|t| t.text.as_str()).collect();
        assert!(
            words.contains(&"Copyright \u{a9} 2026 Ada Lovelace"),
            "{words:?}"
        );
        assert!(words.contains(&"ISBN 978-3-16-148410-0"), "{words:?}");
        assert!(words.len() >= 6, "the rights wrap: {words:?}");
        inside(&d, &setup);
        // at the foot: the last line within a line of the printable area's bottom
        let pa = printable_area(&setup);
        let last = d.texts().map(|t| t.at.y).fold(0.0, f64::max);
        assert!(pa.y + pa.h - last < 5.0, "{last} vs {}", pa.y + pa.h);
    }

    #[test]
    fn contents_lines_have_leaders_and_right_aligned_numbers() {
        let setup = PageSetup::default();
        let lines: Vec<ContentsLine> = (1..=5)
            .map(|k| ContentsLine {
                text: format!("Puzzles {} to {}", k * 8 - 7, k * 8),
                page: 6 + 8 * k as u32,
            })
            .collect();
        let d = contents_page(&setup, &lines).unwrap();
        inside(&d, &setup);
        let pa = printable_area(&setup);
        let numbers: Vec<&Text> = d
            .texts()
            .filter(|t| t.text.chars().all(|c| c.is_ascii_digit()))
            .collect();
        assert_eq!(numbers.len(), 5);
        for n in numbers {
            assert_eq!(n.anchor, Anchor::End);
            assert!((n.at.x - (pa.x + pa.w)).abs() < 1e-9);
        }
        assert_eq!(d.texts().filter(|t| t.text.starts_with(". .")).count(), 5);
        // too many lines for the page is an error, not text off the page
        let many = vec![lines[0].clone(); contents_capacity(&setup) + 1];
        assert!(contents_page(&setup, &many).is_err());
        assert!(contents_capacity(&setup) >= 20);
    }

    #[test]
    fn the_how_to_page_has_its_steps_and_a_solved_example() {
        let setup = PageSetup {
            paper: crate::page::Paper::Trim6x9,
            ..PageSetup::default()
        };
        let g = maze(5, 5, 3);
        let steps = vec![
            "Put your pencil on START.".to_string(),
            "Find the way to FINISH without crossing a wall; if you come to a dead end, go back \
             and try another way."
                .to_string(),
        ];
        let d = how_to_page(&setup, &steps, Some(KeyMaze::Walls(&g))).unwrap();
        inside(&d, &setup);
        assert!(
            d.layer(Layer::Solution).count() > 0,
            "the example is solved"
        );
        assert!(d.layer(Layer::Walls).count() > 0);
        let words: Vec<&str> = d.texts().map(|t| t.text.as_str()).collect();
        assert!(words.contains(&"1.") && words.contains(&"2."), "{words:?}");
        let b = belongs_to_page(&setup).unwrap();
        inside(&b, &setup);
        assert!(b.texts().any(|t| t.text == "This book belongs to"));
        assert_eq!(blank_page(&setup).unwrap().texts().count(), 0);
    }
}
