//! KDP's limits on a whole book (issue 59): the page count KDP prints on the book's trim, paper
//! and ink, `--strict` refusing every warning of a build, spine text only where 6 pt fits with
//! 0.0625 in clear of each fold, and `credit = false`. Run through `hedge batch` as a publisher
//! runs it; the books are made of tiny mazes so that hundreds of pages build quickly.

use std::fs;
use std::path::Path;

use crate::common::{assert_ok, hedge, pdf_texts, stderr_of};

/// A book of `count` 3 x 3 mazes, each with its key on the next page (two pages a puzzle), on
/// `trim`; `extra` is added to `[book]`.
fn tiny_book(trim: &str, extra: &str, count: usize) -> String {
    format!(
        "[book]\ntitle = \"Tiny Mazes\"\nauthor = \"Ada Lovelace\"\nyear = 2026\n\
         trim = \"{trim}\"\nanswers = \"after-each\"\n{extra}\n\n\
         [[pages]]\ncount = {count}\nseed_from = 1\nwidth = 3\nheight = 3\n"
    )
}

/// `hedge batch book -o out` (with `--strict` when asked).
fn batch(book: &Path, out: &Path, strict: bool) -> std::process::Output {
    let mut c = hedge();
    c.arg("batch").arg(book).arg("-o").arg(out);
    if strict {
        c.arg("--strict");
    }
    c.output().unwrap()
}

/// The manifest's preflight check named `name`.
fn check(out: &Path, name: &str) -> serde_json::Value {
    let m: serde_json::Value =
        serde_json::from_slice(&fs::read(out.join("manifest.json")).unwrap()).unwrap();
    m["preflight"]["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == name)
        .cloned()
        .unwrap_or_else(|| panic!("no {name} check: {m}"))
}

/// Asserts `run` failed in one line naming `want`, and that `out` was not made.
fn refused(run: &std::process::Output, out: &Path, want: &[&str]) {
    assert!(!run.status.success(), "{run:?}");
    let err = stderr_of(run);
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(
        err.starts_with("error: preflight failed (--strict): "),
        "{err}"
    );
    assert!(err.trim_end().ends_with("nothing written"), "{err}");
    for w in want {
        assert!(err.contains(w), "{w:?} in {err}");
    }
    assert!(!out.exists(), "a refused book wrote {}", out.display());
}

/// 552 pages on 8.5 x 11 in cream paper: KDP prints at most 550. Refused under `--strict` with
/// nothing written; without it a warning naming the limit, the trim and the paper (read from
/// the build in memory: writing 552 pages of a debug build takes minutes). The same book on
/// white paper (590) is within KDP's limits ([`hedge::preflight`]'s own tests hold the table).
#[test]
fn a_book_over_kdps_maximum_for_its_trim_and_paper_is_warned_and_refused_under_strict() {
    let dir = tempfile::tempdir().unwrap();
    let book = dir.path().join("big.toml");
    // 276 puzzles, each with its key: 552 pages; the gutter KDP asks for 501 to 700 pages
    let text = tiny_book(
        "8.5x11",
        "gutter_mm = 6.5\ncover = { paper = \"cream\" }",
        276,
    );
    fs::write(&book, &text).unwrap();
    let strict = dir.path().join("strict");
    refused(
        &batch(&book, &strict, true),
        &strict,
        &["pages: 552 pages; KDP prints at most 550 on 8.5 x 11 in cream paper"],
    );
    let parsed = hedge::book::load(&book, &hedge::io::Files).unwrap();
    let built = hedge::book::build(&parsed, &hedge::io::Files, &|_, _| {}).unwrap();
    assert_eq!(built.pages, 552);
    assert_eq!(built.preflight.status(), "preflight: 1 problem (pages)");
    let block = built.preflight.block();
    assert!(
        block.contains(
            "WARN pages      552 pages; KDP prints at most 550 on 8.5 x 11 in cream paper"
        ),
        "{block}"
    );
    // the spine of 552 cream pages (1.38 in) is titled
    assert!(block.contains("1.380 in spine (titled)"), "{block}");
}

/// Under KDP's least: 22 pages of a 6 x 9 in book (no padding asked, so no error) warn, name
/// the least and the paper, and are refused under `--strict`; 24 pass. Standard colour's least
/// (72) is said for a colour book, not warned: premium colour prints it.
#[test]
fn a_book_under_kdps_minimum_is_warned_and_refused_under_strict() {
    let dir = tempfile::tempdir().unwrap();
    let book = dir.path().join("short.toml");
    fs::write(&book, tiny_book("6x9", "", 11)).unwrap();
    let strict = dir.path().join("strict");
    refused(
        &batch(&book, &strict, true),
        &strict,
        &["22 pages; KDP prints at least 24 on 6 x 9 in white paper"],
    );
    let out = dir.path().join("out");
    assert_ok(&batch(&book, &out, false));
    let c = check(&out, "pages");
    assert_eq!(c["ok"], false, "{c}");
    assert!(
        c["text"].as_str().unwrap().contains("names no paper"),
        "{c}"
    );
    fs::write(&book, tiny_book("6x9", "", 12)).unwrap();
    let run = batch(&book, &out, true);
    assert_ok(&run);
    assert!(
        stderr_of(&run).contains("preflight: ok ("),
        "{}",
        stderr_of(&run)
    );
    fs::write(&book, tiny_book("6x9", "cover = { paper = \"color\" }", 25)).unwrap();
    let run = batch(&book, &out, true);
    assert_ok(&run);
    let c = check(&out, "pages");
    assert_eq!(
        c["text"],
        "50 pages; KDP prints 24 to 828 on 6 x 9 in premium colour (standard colour prints 72 \
         to 600: choose premium)"
    );
}

/// A warning of the build (here a character no bundled font has, in the puzzles' heading) is
/// a preflight problem: the status is not "ok", the book is written without `--strict`, and
/// `--strict` refuses it in one line with nothing written.
#[test]
fn every_warning_fails_strict_and_the_status_is_not_ok() {
    let dir = tempfile::tempdir().unwrap();
    let book = dir.path().join("warn.toml");
    fs::write(
        &book,
        tiny_book("6x9", "label = \"Maze \u{1F382} {n}\"", 12),
    )
    .unwrap();
    let out = dir.path().join("out");
    let run = batch(&book, &out, false);
    assert_ok(&run);
    let err = stderr_of(&run);
    assert!(err.contains("warning: no bundled font has"), "{err}");
    assert!(!err.contains("preflight: ok"), "{err}");
    assert!(err.contains("preflight: 1 problem (warnings)"), "{err}");
    assert!(
        err.contains("WARN warnings   1 warning: no bundled font has"),
        "{err}"
    );
    assert_eq!(check(&out, "warnings")["ok"], false);
    let strict = dir.path().join("strict");
    refused(
        &batch(&book, &strict, true),
        &strict,
        &["warnings: 1 warning: no bundled font has \u{1F382} (U+1F382)"],
    );
}

/// The occurrences of `what` in the text of `cover.pdf` in `out`.
fn on_cover(out: &Path, what: &str) -> usize {
    pdf_texts(&fs::read(out.join("cover.pdf")).unwrap())
        .concat()
        .matches(what)
        .count()
}

/// On cream paper (0.0025 in a page) 6 pt fits the spine with 0.0625 in at each fold from 81
/// pages: 80 pages have no spine text (the cover check says why, passing), 82 carry the title
/// and author. The cover is a sound PDF with its fonts embedded (qpdf, pdffonts when
/// installed).
#[test]
fn spine_text_only_where_six_points_fit_inside_the_folds() {
    let dir = tempfile::tempdir().unwrap();
    let book = dir.path().join("spine.toml");
    for (count, titled) in [(40, false), (41, true)] {
        fs::write(
            &book,
            tiny_book("6x9", "cover = { paper = \"cream\" }", count),
        )
        .unwrap();
        let out = dir.path().join(format!("out{count}"));
        let run = batch(&book, &out, true);
        assert_ok(&run);
        let pages = 2 * count;
        let c = check(&out, "cover");
        assert_eq!(c["ok"], true, "{c}");
        let text = c["text"].as_str().unwrap();
        // the title is on the front and the back, the author on the front; both on the spine
        // when it is titled
        assert_eq!(
            on_cover(&out, "Tiny Mazes"),
            2 + usize::from(titled),
            "{pages}"
        );
        assert_eq!(
            on_cover(&out, "Ada Lovelace"),
            1 + usize::from(titled),
            "{pages}"
        );
        if titled {
            assert!(text.contains("spine (titled)"), "{text}");
        } else {
            assert!(text.contains("(no text: under 6 pt"), "{text}");
        }
        let pdf = out.join("cover.pdf");
        if let Ok(q) = std::process::Command::new("qpdf")
            .arg("--check")
            .arg(&pdf)
            .output()
        {
            assert!(q.status.success(), "{}", String::from_utf8_lossy(&q.stdout));
        }
        if let Ok(f) = std::process::Command::new("pdffonts").arg(&pdf).output() {
            let table = String::from_utf8_lossy(&f.stdout);
            for row in table.lines().skip(2) {
                let cols: Vec<&str> = row.split_whitespace().collect();
                let n = cols.len();
                assert_eq!((cols[n - 5], cols[n - 4]), ("yes", "yes"), "{table}");
            }
        }
    }
}

/// `credit = false` drops "Mazes made with Hedge." from the copyright page; the default keeps
/// it.
#[test]
fn credit_false_drops_the_credit_line() {
    let dir = tempfile::tempdir().unwrap();
    let book = dir.path().join("credit.toml");
    for (extra, credited) in [("", true), ("credit = false", false)] {
        let extra = format!("front = [\"title\", \"copyright\"]\n{extra}");
        fs::write(&book, tiny_book("6x9", &extra, 11)).unwrap();
        let out = dir.path().join(format!("out{credited}"));
        assert_ok(&batch(&book, &out, false));
        let pages = pdf_texts(&fs::read(out.join("book.pdf")).unwrap());
        let copyright = &pages[1];
        assert!(copyright.contains("Copyright"), "{copyright}");
        assert!(copyright.contains("All rights reserved"), "{copyright}");
        assert_eq!(
            copyright.contains("Mazes made with Hedge."),
            credited,
            "{copyright}"
        );
        assert!(
            pages
                .iter()
                .all(|p| !p.contains("made with Hedge") || credited),
            "{pages:?}"
        );
    }
}
