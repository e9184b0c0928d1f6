//! Fitting a text to a width ([`fit_lines`]): at its size when it fits, else shrunk, else
//! wrapped onto more lines, never dropping a character. The page titles and instruction lines,
//! and the book's title page, front matter and cover, are set this way.

use super::font::font;
use crate::page::Typeface;

/// The smallest a title is shrunk to, as a share of its normal size, before it wraps onto
/// more lines (60 %: an 18 pt page title goes down to 10.8 pt, a 30 pt book title to 18 pt).
pub const TITLE_MIN_SHARE: f64 = 0.6;
/// Baseline to baseline of a wrapped title's lines, in ems.
pub(super) const LEADING_EM: f64 = 1.2;

/// A text fitted to a width ([`fit_lines`]): the size it is set in and its lines.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Fitted {
    /// The em size in millimetres.
    pub(super) size: f64,
    /// One line, or more when the text had to wrap. Never empty.
    pub(super) lines: Vec<String>,
}

/// Fits `text` (already printable) into lines at most `max_w` millimetres wide, never dropping a
/// character: at `size` when it fits; else shrunk, down to `min_size`; else on two lines broken
/// at the word boundary that makes the longer line shortest, at the largest size from `min_size`
/// to `size` at which both fit; else wrapped word by word at `min_size` onto as many lines as it
/// takes (a word longer than a whole line is broken between characters).
pub(super) fn fit_lines(
    text: &str,
    face: Typeface,
    bold: bool,
    size: f64,
    min_size: f64,
    max_w: f64,
) -> Fitted {
    let f = font(face, bold);
    // widths are proportional to the size: measure at 1 mm and scale
    let unit = |t: &str| f.width(t, 1.0);
    let one = unit(text);
    if one * size <= max_w || one <= 0.0 {
        return Fitted {
            size,
            lines: vec![text.to_string()],
        };
    }
    if one * min_size <= max_w {
        return Fitted {
            size: max_w / one,
            lines: vec![text.to_string()],
        };
    }
    let words: Vec<&str> = text.split_whitespace().collect();
    let best_pair = (1..words.len())
        .map(|k| {
            let (a, b) = (words[..k].join(" "), words[k..].join(" "));
            let w = unit(&a).max(unit(&b));
            (w, a, b)
        })
        .min_by(|x, y| x.0.total_cmp(&y.0));
    if let Some((w, a, b)) = best_pair
        && w * min_size <= max_w
    {
        return Fitted {
            size: (max_w / w).min(size),
            lines: vec![a, b],
        };
    }
    // more lines at the smallest size
    let fits = |t: &str| unit(t) * min_size <= max_w;
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for word in words {
        let joined = if line.is_empty() {
            word.to_string()
        } else {
            format!("{line} {word}")
        };
        if fits(&joined) {
            line = joined;
            continue;
        }
        if !line.is_empty() {
            lines.push(std::mem::take(&mut line));
        }
        // a word too long for a line of its own is broken between characters
        for c in word.chars() {
            line.push(c);
            if !fits(&line) && line.chars().count() > 1 {
                line.pop();
                lines.push(std::mem::take(&mut line));
                line.push(c);
            }
        }
    }
    if !line.is_empty() || lines.is_empty() {
        lines.push(line);
    }
    Fitted {
        size: min_size,
        lines,
    }
}
