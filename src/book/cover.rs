//! A book's full-wrap cover (`cover.pdf`): front, spine and back for its interior's page
//! count and paper, with some of its mazes on the front and the back ([`cover_picks`]).

use super::{Book, CoverSettings, shape_key};
use crate::draw::{self, Drawing};
use crate::error::{Error, Result};

/// The cover's file name (`[book] cover = { ... }`).
pub const COVER_PDF: &str = "cover.pdf";

/// How many of a book's puzzles go on its cover (front and back), and which: one of each
/// look first (shape and topology), in book order, then others spread evenly through the book.
fn cover_picks(book: &Book, n: usize) -> Vec<usize> {
    let mut seen: Vec<String> = Vec::new();
    let mut picks: Vec<usize> = Vec::new();
    for (i, p) in book.puzzles.iter().enumerate() {
        let look = format!("{} {:?}", shape_key(&p.design), p.design.walls().topology);
        if !seen.contains(&look) {
            seen.push(look);
            picks.push(i);
        }
    }
    picks.truncate(n);
    let total = book.puzzles.len();
    let mut k = 0;
    while picks.len() < n.min(total) {
        // the middle of the k-th of n stretches, stepping on past puzzles already taken
        let mut i = (2 * k + 1) * total / (2 * n) % total;
        while picks.contains(&i) {
            i = (i + 1) % total;
        }
        picks.push(i);
        k += 1;
    }
    picks
}

/// The cover of `book` for its `pages` interior pages, and its geometry.
pub(super) fn make_cover(
    book: &Book,
    c: &CoverSettings,
    puzzle: &dyn Fn(usize) -> Result<Drawing>,
    pages: usize,
) -> Result<(Drawing, draw::Wrap)> {
    let s = &book.settings;
    let (trim_w, trim_h) = s.page_setup(1, None).trim_mm();
    let wrap = draw::Wrap {
        trim_w,
        trim_h,
        spine: c.paper.spine_mm(pages),
    };
    let picks = cover_picks(book, draw::FRONT_CARDS + draw::BACK_CARDS);
    let art: Vec<Drawing> = picks.iter().map(|&i| puzzle(i)).collect::<Result<_>>()?;
    let art: Vec<&Drawing> = art.iter().collect();
    let split = art.len().min(draw::FRONT_CARDS);
    let back_art = if art.len() > split {
        art[split..].to_vec()
    } else {
        // a short book: the back shows the front's first mazes again
        art.iter().take(draw::BACK_CARDS).copied().collect()
    };
    let d = draw::cover(&draw::Cover {
        wrap,
        title: s.title.as_deref().unwrap_or("Mazes"),
        subtitle: s.subtitle.as_deref(),
        author: s.author.as_deref(),
        back_text: c.back_text.as_deref(),
        font: s.font,
        spine_text: wrap.spine_holds_text(pages),
        front_art: art[..split].to_vec(),
        back_art,
    })
    .map_err(|e| {
        // a text too long names its field first (`book.cover.back_text: ...`)
        if e.message.starts_with("book.") {
            e
        } else {
            Error::new(e.kind, format!("the cover: {}", e.message))
        }
    })?;
    Ok((d, wrap))
}
