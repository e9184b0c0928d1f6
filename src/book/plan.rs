//! The page plan of a book: what each page holds and its number ([`PageKind`], `plan`), and
//! what the front pages say of it: the how-to page's steps and the contents' lines.

use serde::Serialize;

use super::{Answers, Book, Front, PuzzlesStart, Settings};
use crate::draw;

/// What a page of the book holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum PageKind {
    /// The title page.
    Title,
    /// A puzzle.
    Puzzle,
    /// One answer key, right after its puzzle.
    Key,
    /// An answer page at the back with several keys.
    Answers,
    /// The copyright page.
    Copyright,
    /// "This book belongs to".
    BelongsTo,
    /// How to solve a maze.
    HowTo,
    /// The contents.
    Contents,
    /// A blank page: before puzzle 1 to put it on a right-hand page, or at the end to pad the
    /// page count.
    Blank,
}

impl From<Front> for PageKind {
    fn from(f: Front) -> PageKind {
        match f {
            Front::Title => PageKind::Title,
            Front::Copyright => PageKind::Copyright,
            Front::BelongsTo => PageKind::BelongsTo,
            Front::HowTo => PageKind::HowTo,
            Front::Contents => PageKind::Contents,
        }
    }
}

/// The book's page plan: what each page is, its number, and its file.
#[derive(Clone, Debug)]
pub(super) struct Planned {
    pub(super) number: u32,
    pub(super) kind: PageKind,
    /// Puzzle indices (from 0) on the page.
    pub(super) puzzles: Vec<usize>,
    /// Whether the page is in `answers.pdf` (answers = "separate") rather than `book.pdf`.
    pub(super) in_answers_file: bool,
}

/// The separate answers file's name (answers = "separate").
pub const ANSWERS_PDF: &str = "answers.pdf";

/// The pages of `book` in order: the front pages, a blank to put puzzle 1 on a right-hand
/// page when asked, the puzzles (each key after its puzzle, or the answer pages after them all
/// or in `answers.pdf`), and blanks to pad `book.pdf` to the page count asked for.
pub(super) fn plan(book: &Book) -> Vec<Planned> {
    let s = &book.settings;
    let mut out = Vec::new();
    let mut number = s.first_page_number;
    let mut push = |kind, puzzles, in_answers_file, number: &mut u32| {
        out.push(Planned {
            number: *number,
            kind,
            puzzles,
            in_answers_file,
        });
        *number += 1;
    };
    for f in s.front_pages() {
        push(f.into(), vec![], false, &mut number);
    }
    if s.puzzles_start == PuzzlesStart::Right && number.is_multiple_of(2) {
        push(PageKind::Blank, vec![], false, &mut number);
    }
    for i in 0..book.puzzles.len() {
        push(PageKind::Puzzle, vec![i], false, &mut number);
        if s.answers == Answers::AfterEach {
            push(PageKind::Key, vec![i], false, &mut number);
        }
    }
    // blank pages at the end of book.pdf up to the page count asked for
    let pad = |out: &mut Vec<Planned>, number: &mut u32| {
        let pages = out.iter().filter(|p| !p.in_answers_file).count();
        for _ in pages..s.page_count.padded(pages) {
            out.push(Planned {
                number: *number,
                kind: PageKind::Blank,
                puzzles: vec![],
                in_answers_file: false,
            });
            *number += 1;
        }
    };
    let separate = s.answers == Answers::Separate;
    if separate {
        pad(&mut out, &mut number);
    }
    if s.answers.on_answer_pages() {
        if separate {
            // a document of its own, numbered from 1
            number = 1;
        }
        let all: Vec<usize> = (0..book.puzzles.len()).collect();
        for chunk in all.chunks(s.keys_per_page as usize) {
            out.push(Planned {
                number,
                kind: PageKind::Answers,
                puzzles: chunk.to_vec(),
                in_answers_file: separate,
            });
            number += 1;
        }
    }
    if !separate {
        pad(&mut out, &mut number);
    }
    out
}

/// The page number of each puzzle of `book` (in puzzle order), as
/// [`build`](fn@super::build) prints it.
pub fn puzzle_pages(book: &Book) -> Vec<u32> {
    PageNumbers::of(&plan(book), book.puzzles.len()).puzzle
}

/// Where each puzzle of a plan is: its page's number, its key's, and where the answers start.
pub(super) struct PageNumbers {
    /// Puzzle `i`'s page number.
    pub(super) puzzle: Vec<u32>,
    /// Puzzle `i`'s key's page number (the page after it, or its answer page).
    pub(super) key: Vec<u32>,
    /// The first answer page's number, when the answers are at the back of `book.pdf`.
    pub(super) first_answers: Option<u32>,
}

impl PageNumbers {
    /// The numbers of the `puzzles` puzzles in `planned`.
    pub(super) fn of(planned: &[Planned], puzzles: usize) -> PageNumbers {
        let mut puzzle = vec![0u32; puzzles];
        let mut key = vec![0u32; puzzles];
        for p in planned {
            for &i in &p.puzzles {
                match p.kind {
                    PageKind::Puzzle => puzzle[i] = p.number,
                    PageKind::Key | PageKind::Answers => key[i] = p.number,
                    _ => {}
                }
            }
        }
        let first_answers = planned
            .iter()
            .find(|p| p.kind == PageKind::Answers && !p.in_answers_file)
            .map(|p| p.number);
        PageNumbers {
            puzzle,
            key,
            first_answers,
        }
    }
}

/// The steps of the how-to page, for where the book puts its answers (`first_answers`: the
/// first answer page's number when they are at the back) and whether it has "Which path?"
/// puzzles.
pub(super) fn how_to_steps(
    s: &Settings,
    first_answers: Option<u32>,
    which_path: bool,
) -> Vec<String> {
    let w = s.words();
    let mut steps = vec![
        w.with_ends("how_to_start"),
        w.with_ends("how_to_finish"),
        w.with_ends("how_to_dead_end"),
    ];
    if which_path {
        steps.push(w.with_ends("how_to_which_path"));
    }
    steps.push(match (s.answers, first_answers) {
        (Answers::AfterEach, _) => w.with_ends("how_to_stuck_after_each"),
        (Answers::AtBack, Some(n)) => w.fill("how_to_stuck_at_back", &[("page", &n.to_string())]),
        _ => w.with_ends("how_to_stuck_booklet"),
    });
    steps
}

/// The contents' lines: the puzzles in sections of one level (the stars each maze earns; a
/// section shorter than three puzzles joins its nearest neighbour, and sections merge until
/// they fit `capacity` lines), then the answers when they are at the back.
pub(super) fn contents_lines(
    s: &Settings,
    stars: &[Option<usize>],
    named: bool,
    page_of: &[u32],
    first_answers: Option<u32>,
    capacity: usize,
) -> Vec<draw::ContentsLine> {
    // (first puzzle, last puzzle, lowest level, highest level)
    let mut runs: Vec<(usize, usize, Option<usize>, Option<usize>)> = Vec::new();
    for (i, &st) in stars.iter().enumerate() {
        match runs.last_mut() {
            Some(r) if r.2 == st && r.3 == st => r.1 = i,
            _ => runs.push((i, i, st, st)),
        }
    }
    let room = capacity
        .saturating_sub(usize::from(first_answers.is_some()))
        .max(1);
    let min_len = if stars.len() >= 9 { 3 } else { 1 };
    while let Some((k, len)) = runs
        .iter()
        .enumerate()
        .map(|(k, r)| (k, r.1 - r.0 + 1))
        .min_by_key(|&(k, len)| (len, k))
    {
        if runs.len() == 1 || (len >= min_len && runs.len() <= room) {
            break;
        }
        // into the neighbour whose level is nearer (the earlier one on a tie)
        let level = |r: &(usize, usize, Option<usize>, Option<usize>)| {
            (r.2.unwrap_or(0) + r.3.unwrap_or(0)) as f64 / 2.0
        };
        let into = match (k.checked_sub(1), runs.get(k + 1)) {
            (Some(p), Some(n)) => {
                if (level(&runs[p]) - level(&runs[k])).abs() <= (level(n) - level(&runs[k])).abs() {
                    p
                } else {
                    k + 1
                }
            }
            (Some(p), None) => p,
            (None, _) => k + 1,
        };
        let (a, b) = (runs[k.min(into)], runs[k.max(into)]);
        let lo = a.2.zip(b.2).map(|(x, y)| x.min(y));
        let hi = a.3.zip(b.3).map(|(x, y)| x.max(y));
        runs[k.min(into)] = (a.0, b.1, lo, hi);
        runs.remove(k.max(into));
    }
    let w = s.words();
    // a preset's band in the book's words ("Ages 3-5")
    let band = |n: usize| {
        let key = ["ages_3_5", "ages_6_8", "ages_9_12", "adult", "expert"][n.clamp(1, 5) - 1];
        w.get(key).to_string()
    };
    let both = |key: &str, a: &str, b: &str| w.fill(key, &[("a", a), ("b", b)]);
    let mut lines: Vec<draw::ContentsLine> = runs
        .iter()
        .map(|&(a, b, lo, hi)| {
            let which = if a == b {
                s.label_for(a + 1)
            } else if s.label == w.get("puzzle") {
                both("puzzles", &(a + 1).to_string(), &(b + 1).to_string())
            } else if w.lang() == "en" {
                labels_for(&s.label, a + 1, b + 1)
            } else {
                both("range", &s.label_for(a + 1), &s.label_for(b + 1))
            };
            let level = match (lo, hi) {
                (Some(l), Some(h)) if l == h && named => format!(": {}", band(l)),
                (Some(l), Some(h)) if l == h => {
                    format!(
                        ": {}",
                        w.fill("level", &[("n", &l.clamp(1, 5).to_string())])
                    )
                }
                (Some(l), Some(h)) if named => format!(": {}", both("range", &band(l), &band(h))),
                (Some(l), Some(h)) => {
                    format!(": {}", both("levels", &l.to_string(), &h.to_string()))
                }
                _ => String::new(),
            };
            draw::ContentsLine {
                text: format!("{which}{level}"),
                page: page_of[a],
            }
        })
        .collect();
    if let Some(n) = first_answers {
        lines.push(draw::ContentsLine {
            text: s.answers_heading.clone(),
            page: n,
        });
    }
    lines
}

/// Puzzles `a` to `b` named by the book's `label` ("Maze {n}"): the label's last word made
/// plural when the number ends it ("Mazes 1 to 10", "Puzzles 1 to 10", "Activities 3 to 9"),
/// else the two labels ("Maze #1 to Maze #10", "No. 1 to No. 10").
fn labels_for(label: &str, a: usize, b: usize) -> String {
    let (before, after) = label.split_once("{n}").unwrap_or((label, ""));
    let word_start = before
        .trim_end_matches(' ')
        .char_indices()
        .rev()
        .find(|(_, c)| !c.is_ascii_alphabetic())
        .map_or(0, |(i, c)| i + c.len_utf8());
    let word = before[word_start..].trim_end_matches(' ');
    if after.is_empty() && word.len() > 1 && before.ends_with(' ') {
        let head = &before[..word_start];
        return format!("{head}{} {a} to {b}", plural(word));
    }
    let one = |n: usize| label.replace("{n}", &n.to_string());
    format!("{} to {}", one(a), one(b))
}

/// An English noun's plural: "Maze" "Mazes", "Box" "Boxes", "Activity" "Activities", "Day"
/// "Days"; a word already plural ("Puzzles") is kept.
fn plural(word: &str) -> String {
    let lower = word.to_ascii_lowercase();
    let upper = word.chars().all(|c| c.is_ascii_uppercase());
    let ends = |e: &str| lower.ends_with(e);
    let (stem, tail) = if ends("ss") || ends("x") || ends("z") || ends("ch") || ends("sh") {
        (word, "es")
    } else if ends("s") {
        (word, "")
    } else if ends("y") && !lower[..lower.len() - 1].ends_with(['a', 'e', 'i', 'o', 'u']) {
        (&word[..word.len() - 1], "ies")
    } else {
        (word, "s")
    };
    let tail = if upper {
        tail.to_ascii_uppercase()
    } else {
        tail.to_string()
    };
    format!("{stem}{tail}")
}

/// The SVG of page `index` (from 0) of the book (`pages/page-NNN.svg`) or of the answers file
/// (`pages/answers-NNN.svg`).
fn svg_name(index: usize, in_answers_file: bool) -> String {
    let name = if in_answers_file { "answers" } else { "page" };
    format!("pages/{name}-{:03}.svg", index + 1)
}

/// Each planned page's SVG name, numbered within its file.
pub(super) fn svg_names(planned: &[Planned]) -> Vec<String> {
    let mut counts = [0usize; 2];
    planned
        .iter()
        .map(|p| {
            let k = &mut counts[usize::from(p.in_answers_file)];
            *k += 1;
            svg_name(*k - 1, p.in_answers_file)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn book(text: &str) -> Book {
        super::super::parse(text, std::path::Path::new("."), &crate::load::Memory::new()).unwrap()
    }

    fn kinds(b: &Book) -> Vec<(u32, PageKind, bool)> {
        plan(b)
            .iter()
            .map(|p| (p.number, p.kind, p.in_answers_file))
            .collect()
    }

    #[test]
    fn puzzle_one_goes_on_a_right_hand_page_and_the_book_is_padded() {
        use PageKind::*;
        let pages = "[[pages]]\ncount = 3\nseed_from = 1\nwidth = 5\n";
        let b = book(&format!(
            "[book]\nfront = [\"title\", \"contents\"]\npuzzles_start = \"right\"\n\
             page_count = \"multiple-of-4\"\nallow_short = true\n{pages}"
        ));
        assert_eq!(
            kinds(&b),
            [
                (1, Title, false),
                (2, Contents, false),
                (3, Puzzle, false),
                (4, Puzzle, false),
                (5, Puzzle, false),
                (6, Answers, false),
                (7, Blank, false),
                (8, Blank, false)
            ]
        );
        // a first page numbered 2 puts the title on a left-hand page: a blank before puzzle 1
        // goes only where puzzle 1 would be even
        let b = book(&format!(
            "[book]\nfront = [\"title\"]\npuzzles_start = \"right\"\nfirst_page_number = 2\n{pages}"
        ));
        assert_eq!(kinds(&b)[..2], [(2, Title, false), (3, Puzzle, false)]);
        let b = book(&format!(
            "[book]\nfront = [\"title\", \"how-to\", \"belongs-to\"]\npuzzles_start = \"right\"\n{pages}"
        ));
        assert_eq!(
            kinds(&b)[2..5],
            [(3, HowTo, false), (4, Blank, false), (5, Puzzle, false)]
        );
        // separate answers: book.pdf is padded, answers.pdf is not
        let b = book(&format!(
            "[book]\nanswers = \"separate\"\npage_count = \"even\"\n{pages}"
        ));
        assert_eq!(
            kinds(&b),
            [
                (1, Puzzle, false),
                (2, Puzzle, false),
                (3, Puzzle, false),
                (4, Blank, false),
                (1, Answers, true)
            ]
        );
    }

    #[test]
    fn the_contents_names_puzzles_by_the_books_label() {
        for (label, want) in [
            ("Puzzle {n}", "Puzzles 1 to 10"),
            ("Maze {n}", "Mazes 1 to 10"),
            ("Hidden Maze {n}", "Hidden Mazes 1 to 10"),
            ("Activity {n}", "Activities 1 to 10"),
            ("Day {n}", "Days 1 to 10"),
            ("Box {n}", "Boxes 1 to 10"),
            ("Puzzles {n}", "Puzzles 1 to 10"),
            ("MAZE {n}", "MAZES 1 to 10"),
            ("Maze #{n}", "Maze #1 to Maze #10"),
            ("No. {n}", "No. 1 to No. 10"),
            ("{n}", "1 to 10"),
            ("Maze {n} of 50", "Maze 1 of 50 to Maze 10 of 50"),
            ("Лабиринт {n}", "Лабиринт 1 to Лабиринт 10"),
        ] {
            assert_eq!(labels_for(label, 1, 10), want, "{label}");
        }
        let s = Settings {
            label: "Maze {n}".into(),
            ..Settings::default()
        };
        let lines = contents_lines(&s, &[Some(1); 4], true, &[3, 4, 5, 6], None, 10);
        assert_eq!(lines[0].text, "Mazes 1 to 4: Ages 3-5");
        let lines = contents_lines(&s, &[Some(1), Some(5)], true, &[3, 4], None, 10);
        assert_eq!(lines[1].text, "Maze 2: Expert");
    }

    #[test]
    fn contents_sections_are_runs_of_one_level_merged_to_fit() {
        let s = Settings::default();
        let pages: Vec<u32> = (10..30).collect();
        let lines = |stars: &[Option<usize>], cap: usize| -> Vec<String> {
            contents_lines(&s, stars, true, &pages[..stars.len()], Some(40), cap)
                .iter()
                .map(|l| format!("{} {}", l.text, l.page))
                .collect()
        };
        let ramp: Vec<Option<usize>> = [1, 1, 1, 1, 2, 2, 2, 1, 2, 2, 3, 3, 3]
            .into_iter()
            .map(Some)
            .collect();
        // the lone 1 among the 2s joins them
        assert_eq!(
            lines(&ramp, 10),
            [
                "Puzzles 1 to 4: Ages 3-5 10",
                "Puzzles 5 to 10: Ages 3-5 to Ages 6-8 14",
                "Puzzles 11 to 13: Ages 9-12 20",
                "Answers 40"
            ]
        );
        // two lines of room: one section and the answers
        assert_eq!(
            lines(&ramp, 2),
            ["Puzzles 1 to 13: Ages 3-5 to Ages 9-12 10", "Answers 40"]
        );
        // mazes without a level (tiles): one section, no level
        assert_eq!(
            lines(&[None, None], 10),
            ["Puzzles 1 to 2 10", "Answers 40"]
        );
        assert_eq!(lines(&[Some(5)], 10), ["Puzzle 1: Expert 10", "Answers 40"]);
        // without presets, the stars each maze earns
        let stars = |l: &[Option<usize>]| -> Vec<String> {
            contents_lines(&s, l, false, &pages[..l.len()], None, 10)
                .iter()
                .map(|l| l.text.clone())
                .collect()
        };
        assert_eq!(
            stars(&[Some(4), Some(4), Some(4), Some(5), Some(5), Some(5)]),
            [
                "Puzzles 1 to 3: level 4 of 5",
                "Puzzles 4 to 6: level 5 of 5"
            ]
        );
        assert_eq!(
            stars(&[Some(2), Some(3)]),
            ["Puzzle 1: level 2 of 5", "Puzzle 2: level 3 of 5"]
        );
    }
}
