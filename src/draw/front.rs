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
    /// Whether the page ends with "Mazes made with Hedge." ([`CREDIT`]).
    pub credit: bool,
}

/// The copyright page's last line, unless the book says `credit = false`.
#[cfg(test)]
const CREDIT: &str = "Mazes made with Hedge.";

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

/// The smallest the copyright page's text is set (6 pt) before a text too long for the page
/// is refused.
pub const SMALLEST_SIZE: f64 = 6.0 * layout::PT;

/// How a text's paragraphs are set when the page is short of room: a blank half line between
/// them, then none, then run on as one paragraph (every character kept).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Paragraphs {
    /// Apart, with a gap between them.
    Apart,
    /// Each on a new line, no gap.
    Close,
    /// Run together, a space between them.
    RunOn,
}

impl Paragraphs {
    /// The ways to set paragraphs, the roomiest first.
    pub(super) const ALL: [Paragraphs; 3] =
        [Paragraphs::Apart, Paragraphs::Close, Paragraphs::RunOn];

    /// `body`'s paragraphs (split by a blank line, each on one line of words) as this sets them.
    pub(super) fn split(self, body: &str) -> Vec<String> {
        let paras = body
            .split("\n\n")
            .map(|p| p.split_whitespace().collect::<Vec<_>>().join(" "))
            .filter(|p| !p.is_empty());
        match self {
            Paragraphs::RunOn => {
                let all = paras.collect::<Vec<_>>().join(" ");
                if all.is_empty() {
                    Vec::new()
                } else {
                    vec![all]
                }
            }
            _ => paras.collect(),
        }
    }

    /// The gap above a paragraph, in lines.
    fn gap(self) -> f64 {
        if self == Paragraphs::Apart { 0.6 } else { 0.0 }
    }
}

/// The copyright page's lines at `size`, wrapped to `w`, the rights' paragraphs set as
/// `paras`: (text, bold, space above in lines, the book field it comes from).
fn copyright_lines(
    words: &crate::lang::Words,
    c: &Copyright<'_>,
    face: Typeface,
    size: f64,
    w: f64,
    paras: Paragraphs,
) -> Vec<(String, bool, f64, &'static str)> {
    let mut lines = Vec::new();
    for l in wrap(c.title, face, true, size, w) {
        lines.push((l, true, 0.0, "book.title"));
    }
    let gap = paras.gap();
    let mut para = |body: &str, field: &'static str| {
        for (i, l) in wrap(body, face, false, size, w).into_iter().enumerate() {
            lines.push((l, false, if i == 0 { gap } else { 0.0 }, field));
        }
    };
    para(
        &words.fill(
            "copyright",
            &[("year", &c.year.to_string()), ("author", c.author.trim())],
        ),
        "book.author",
    );
    for p in paras.split(c.rights) {
        para(&p, "book.rights");
    }
    if let Some(isbn) = c.isbn {
        para(&format!("ISBN {isbn}"), "book.isbn");
    }
    if c.credit {
        para(words.get("credit"), "");
    }
    lines
}

/// The copyright page: the title, "Copyright © YEAR AUTHOR", the rights, the ISBN and (unless
/// [`Copyright::credit`] is false) a "Mazes made with Hedge." line, small and left-aligned at the foot of the printable area, every
/// line wrapped to its width. Text too long for the page at 9 pt is set smaller, down to
/// [`SMALLEST_SIZE`]; then its paragraphs closer, then run on ([`Paragraphs`]); text too
/// long even then is an error naming the book's field that takes the most lines
/// (`book.rights: ...`), never text off the page.
pub fn copyright_page(setup: &PageSetup, c: &Copyright<'_>) -> Result<Drawing> {
    setup.validate()?;
    let pa = printable_area(setup);
    let face = setup.font;
    // the height from the first line's cap height to the last line's descent
    let height = |lines: &[(String, bool, f64, &str)], size: f64| -> f64 {
        let step = LEADING_EM * size;
        let advances: f64 = lines.iter().skip(1).map(|l| (1.0 + l.2) * step).sum();
        advances + (font::CAP_HEIGHT_EM + font::DESCENT_EM) * size
    };
    // from 9 pt down by half points to 6 pt, each way of setting the paragraphs in turn: the
    // first that fits
    let steps = ((SMALL_SIZE - SMALLEST_SIZE) / (0.5 * layout::PT)).round() as usize;
    let sizes = (0..=steps).map(|k| SMALL_SIZE - k as f64 * 0.5 * layout::PT);
    let mut fitted = None;
    let mut smallest = Vec::new();
    'fit: for paras in Paragraphs::ALL {
        for size in sizes.clone() {
            let lines = copyright_lines(setup.words(), c, face, size, pa.w, paras);
            if height(&lines, size) <= pa.h {
                fitted = Some((lines, size));
                break 'fit;
            }
            smallest = lines;
        }
    }
    let Some((lines, size)) = fitted else {
        // the field with the most lines is the one to shorten
        let mut counts: Vec<(&str, usize)> = Vec::new();
        for l in smallest.iter().filter(|l| !l.3.is_empty()) {
            match counts.iter_mut().find(|(f, _)| *f == l.3) {
                Some((_, n)) => *n += 1,
                None => counts.push((l.3, 1)),
            }
        }
        let field = counts
            .iter()
            .max_by_key(|(_, n)| *n)
            .map_or("book.rights", |(f, _)| *f);
        // in lines of 6 pt
        let step = LEADING_EM * SMALLEST_SIZE;
        let box_h = (font::CAP_HEIGHT_EM + font::DESCENT_EM) * SMALLEST_SIZE;
        let holds = ((pa.h - box_h) / step).floor().max(0.0) as usize + 1;
        return Err(crate::error::Error::option(format!(
            "{field}: too long for the copyright page even at 6 pt: its text takes {} lines, a \
             page of this trim holds {holds}; shorten it",
            smallest.len()
        )));
    };
    let step = LEADING_EM * size;
    // the last line's descent sits on the printable area's foot
    let mut y = pa.y + pa.h - height(&lines, size) + font::CAP_HEIGHT_EM * size;
    let mut items = vec![paper(setup.page_mm())];
    for (i, (l, bold, gap, _)) in lines.into_iter().enumerate() {
        if i > 0 {
            y += (1.0 + gap) * step;
        }
        // flush left, or flush right on a right-to-left page
        let (x, anchor) = line_start(setup, &pa);
        items.push(text(l, Pos::new(x, y), size, anchor, bold, face));
    }
    Ok(drawing(setup, items))
}

/// Where a flush line starts on the printable area `pa`: its left edge, or, on a right-to-left
/// page, its right edge (the text anchored at its end there).
fn line_start(setup: &PageSetup, pa: &Area) -> (f64, Anchor) {
    if setup.right_to_left() {
        (pa.x + pa.w, Anchor::End)
    } else {
        (pa.x, Anchor::Start)
    }
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
            setup.words().get("belongs_to"),
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
    let mut y = heading(setup, &pa, setup.words().get("how_to"), &mut items);
    let step = LEADING_EM * BODY_SIZE;
    let indent = font(face, true).width("0. ", BODY_SIZE);
    // the numbers at the left edge and the steps indented after them, or mirrored on a
    // right-to-left page
    let (x, anchor) = line_start(setup, &pa);
    let indented = if setup.right_to_left() {
        x - indent
    } else {
        x + indent
    };
    for (n, s) in steps.iter().enumerate() {
        let lines = wrap(s, face, false, BODY_SIZE, pa.w - indent);
        for (i, l) in lines.into_iter().enumerate() {
            if i == 0 {
                items.push(text(
                    format!("{}.", n + 1),
                    Pos::new(x, y),
                    BODY_SIZE,
                    anchor,
                    true,
                    face,
                ));
            }
            items.push(text(
                l,
                Pos::new(indented, y),
                BODY_SIZE,
                anchor,
                false,
                face,
            ));
            y += step;
        }
        y += step * 0.5;
    }
    if let Some(maze) = example {
        let caption = setup.words().with_ends("solved_example");
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
                &caption,
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
/// number on the right and dot leaders between (mirrored on a right-to-left page: the text on
/// the right, the number on the left, the leaders running from the text leftwards to it). At
/// most [`contents_capacity`] lines (an error beyond: the caller merges sections to fit).
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
    let mut y = heading(setup, &pa, setup.words().get("contents"), &mut items);
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
        // (where the entry starts, its anchor; where the number ends, its anchor; where the
        // leaders end next to the number, their anchor)
        let rtl = setup.right_to_left();
        let (entry_anchor, number_anchor, number_x) = if rtl {
            (Anchor::End, Anchor::Start, pa.x)
        } else {
            (Anchor::Start, Anchor::End, pa.x + pa.w)
        };
        let (entry_x, leaders_x) = if rtl {
            (pa.x + pa.w, pa.x + number_w + dot)
        } else {
            (pa.x, pa.x + pa.w - number_w - dot)
        };
        items.push(text(
            entry,
            Pos::new(entry_x, y),
            BODY_SIZE,
            entry_anchor,
            false,
            face,
        ));
        items.push(text(
            number,
            Pos::new(number_x, y),
            BODY_SIZE,
            number_anchor,
            false,
            face,
        ));
        let gap = pa.w - entry_w - number_w - 2.0 * dot;
        let n = (gap / dot).floor().max(0.0) as usize;
        if n >= 2 {
            items.push(text(
                ". ".repeat(n).trim_end().to_string(),
                Pos::new(leaders_x, y),
                BODY_SIZE,
                number_anchor,
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
                credit: true,
            },
        )
        .unwrap();
        let words: Vec<&str> = d.texts().map(|t| t.text.as_str()).collect();
        assert_eq!(words.last(), Some(&CREDIT), "{words:?}");
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

    /// A rights text of `n` characters: sentences, split into paragraphs every `para` of them.
    fn rights_text(n: usize, para: usize) -> String {
        let sentence =
            "No part of this book may be reproduced, stored or transmitted in any form. ";
        let mut out = String::new();
        let mut k = 0;
        while out.chars().count() < n {
            out.push_str(sentence);
            k += 1;
            if k % para == 0 {
                out.push_str("\n\n");
            }
        }
        out.chars().take(n).collect()
    }

    #[test]
    fn a_long_rights_text_is_set_smaller_to_stay_on_the_page_or_refused() {
        // issue 57: 1,933 characters (under the 2,000 limit) ran off the top of the page
        for (paper, margin) in [
            (crate::page::Paper::Trim6x9, 12.7),
            (crate::page::Paper::Trim85x11, 12.7),
            ("5x8in".parse().unwrap(), 19.0),
        ] {
            let setup = PageSetup {
                paper,
                margin_mm: margin,
                ..PageSetup::default()
            };
            for (rights, what) in [
                (rights_text(1933, 1000), "one paragraph"),
                (rights_text(1933, 1), "a paragraph a sentence"),
                ("W".repeat(1933), "one long word"),
                (rights_text(1933, 2).replace(' ', "\n"), "a word a line"),
            ] {
                let c = Copyright {
                    title: &"T".repeat(200),
                    author: &"A".repeat(200),
                    year: 2026,
                    isbn: Some("978-3-16-148410-0"),
                    rights: &rights,
                    credit: true,
                };
                let d = copyright_page(&setup, &c).unwrap_or_else(|e| panic!("{what}: {e}"));
                inside(&d, &setup);
                // every character of the rights is on the page
                let printed: String = d.texts().map(|t| t.text.as_str()).collect();
                let letters = |t: &str| t.chars().filter(|c| !c.is_whitespace()).count();
                assert!(letters(&printed) > letters(&rights), "{what}");
                assert!(printed.contains("ISBN 978-3-16-148410-0"), "{what}");
                // smaller, but never below 6 pt
                for t in d.texts() {
                    assert!(t.size >= SMALLEST_SIZE - 1e-9 && t.size <= SMALL_SIZE + 1e-9);
                }
            }
        }
        // a short text keeps its 9 pt
        let setup = PageSetup::default();
        let c = Copyright {
            title: "Mazes",
            author: "Ada",
            year: 2026,
            isbn: None,
            rights: "All rights reserved.",
            credit: true,
        };
        let d = copyright_page(&setup, &c).unwrap();
        assert!(d.texts().all(|t| (t.size - SMALL_SIZE).abs() < 1e-9));
        // credit = false: the same page without the credit line, its last line at the foot
        let quiet = copyright_page(&setup, &Copyright { credit: false, ..c }).unwrap();
        let lines = |d: &Drawing| d.texts().map(|t| t.text.clone()).collect::<Vec<_>>();
        let mut without = lines(&d);
        assert_eq!(without.pop().as_deref(), Some(CREDIT));
        assert_eq!(lines(&quiet), without);
        let foot = |d: &Drawing| d.texts().map(|t| t.at.y).fold(0.0, f64::max);
        assert!((foot(&quiet) - foot(&d)).abs() < 1e-9);
        // issue 57's text: 1,933 characters of short paragraphs, more than any size of them
        // holds apart: run on
        let setup = PageSetup {
            paper: crate::page::Paper::Trim6x9,
            ..PageSetup::default()
        };
        let many: String = "word\n\n".repeat(400).chars().take(1933).collect();
        let d = copyright_page(&setup, &Copyright { rights: &many, ..c }).unwrap();
        inside(&d, &setup);
        assert_eq!(
            d.texts()
                .map(|t| t.text.matches("word").count())
                .sum::<usize>(),
            322
        );
        // a text no size fits (on a small page): one line naming the field and what the page
        // holds
        let small = PageSetup {
            paper: "60x60mm".parse().unwrap(),
            margin_mm: 5.0,
            ..PageSetup::default()
        };
        let e = copyright_page(
            &small,
            &Copyright {
                rights: &"W".repeat(1933),
                ..c
            },
        )
        .unwrap_err()
        .message;
        assert!(
            e.starts_with("book.rights: too long for the copyright page even at 6 pt"),
            "{e}"
        );
        assert!(
            e.contains("a page of this trim holds") && !e.contains('\n'),
            "{e}"
        );
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
    fn a_right_to_left_contents_runs_its_leaders_the_other_way() {
        let setup = PageSetup {
            lang: Some("ar".into()),
            ..PageSetup::default()
        };
        let w = setup.words();
        let lines: Vec<ContentsLine> = (1..=3)
            .map(|k| ContentsLine {
                text: w.fill("puzzle", &[("n", &k.to_string())]),
                page: 6 + k,
            })
            .collect();
        let d = contents_page(&setup, &lines).unwrap();
        inside(&d, &setup);
        let pa = printable_area(&setup);
        let (left, right) = (pa.x, pa.x + pa.w);
        let find = |p: &dyn Fn(&Text) -> bool| d.texts().filter(|t| p(t)).collect::<Vec<_>>();
        let numbers = find(&|t| t.text.chars().all(|c| c.is_ascii_digit()));
        let entries = find(&|t| t.text.starts_with(w.fill("puzzle", &[("n", "")]).trim()));
        let leaders = find(&|t| t.text.starts_with(". ."));
        assert_eq!((numbers.len(), entries.len(), leaders.len()), (3, 3, 3));
        for ((n, e), l) in numbers.iter().zip(&entries).zip(&leaders) {
            // the number at the left edge, the entry ending at the right edge
            assert!((n.left() - left).abs() < 1e-9, "{}", n.left());
            assert!((e.left() + e.width() - right).abs() < 1e-9);
            // the leaders between: from right of the number to left of the entry
            assert!(
                l.left() > n.left() + n.width(),
                "{} {}",
                l.left(),
                n.width()
            );
            assert!(l.left() + l.width() < e.left());
        }
        // the copyright page's lines are flush right
        let c = Copyright {
            title: "متاهات",
            author: "Ada",
            year: 2026,
            isbn: None,
            rights: w.get("rights"),
            credit: true,
        };
        let c = copyright_page(&setup, &c).unwrap();
        for t in c.texts() {
            assert!((t.left() + t.width() - right).abs() < 1e-6, "{}", t.text);
        }
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
