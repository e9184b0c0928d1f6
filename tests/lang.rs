//! Every word on the page in the reader's language (issue 60, its Latin-script part): for each
//! built-in language but English, a page (title, name line, weave legend, answer key) and a
//! small book (copyright page, "This book belongs to", the how-to page, the contents, themed,
//! "Which path?" and weave puzzles, the answers) hold none of the English page words; a
//! strings file replaces words and says which it left out; bad codes and files are one line;
//! the same design gives the same bytes; `hedge regenerate` reprints a book's own words.
//! The text is read with `pdftotext` (poppler-utils) when it is installed, else with lopdf.

use std::collections::BTreeSet;
use std::fs;
use std::path::Path;
use std::process::Command;

use crate::common::{assert_ok, hedge, pdf_texts, stderr_of};

/// The built-in languages written left to right, English left out.
const LANGS: [&str; 7] = ["de", "fr", "es", "it", "pt", "nl", "pl"];

/// The text of the PDF at `path`: `pdftotext`'s, or lopdf's when it is not installed.
fn pdf_text(path: &Path) -> String {
    match Command::new("pdftotext").arg(path).arg("-").output() {
        Ok(out) => {
            assert_ok(&out);
            String::from_utf8(out.stdout).unwrap()
        }
        Err(_) => {
            eprintln!("note: pdftotext is not installed; reading the text with lopdf");
            pdf_texts(&fs::read(path).unwrap()).join("\n")
        }
    }
}

/// The words of `text` (runs of letters), lower case.
fn words(text: &str) -> BTreeSet<String> {
    text.split(|c: char| !c.is_alphabetic())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

/// `text` without its `{field}`s (the words filled in are checked where they print).
fn without_fields(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(i) = rest.find('{') {
        out.push_str(&rest[..i]);
        match rest[i..].find('}') {
            Some(j) => rest = &rest[i + j + 1..],
            None => {
                rest = &rest[i..];
                break;
            }
        }
    }
    out.push_str(rest);
    out
}

/// The words of every text in a built-in table.
fn table_words(code: &str) -> BTreeSet<String> {
    let t = hedge::lang::Words::builtin(code);
    t.keys()
        .flat_map(|k| words(&without_fields(t.get(k))))
        .collect()
}

/// The English page words that language `code`'s own words do not share (German has "Name"
/// and "Start" too; they are German there), three letters or longer.
fn english_only(code: &str) -> BTreeSet<String> {
    let own = table_words(code);
    table_words("en")
        .into_iter()
        .filter(|w| w.chars().count() >= 3 && !own.contains(w))
        .collect()
}

/// The English-only words in `text`.
fn english_in(code: &str, text: &str) -> Vec<String> {
    let english = english_only(code);
    words(text)
        .into_iter()
        .filter(|w| english.contains(w))
        .collect()
}

#[test]
fn the_english_word_list_is_what_a_page_says() {
    // the list the tests look for holds the page words a translation must replace
    let de = english_only("de");
    for w in ["finish", "answer", "key", "solution", "contents", "belongs"] {
        assert!(de.contains(w), "{w}: {de:?}");
    }
    assert!(!de.contains("name") && !de.contains("start"), "{de:?}");
    // and an English page has them
    let en = english_only("fr");
    let dir = tempfile::tempdir().unwrap();
    let pdf = dir.path().join("en.pdf");
    let out = hedge()
        .args([
            "generate", "--shape", "cat", "--seed", "3", "--weave", "0.3",
        ])
        .args(["--name-line", "--title", "7", "-o"])
        .arg(&pdf)
        .output()
        .unwrap();
    assert_ok(&out);
    let found = words(&pdf_text(&pdf));
    for w in ["finish", "answer", "key", "passages", "bridges"] {
        assert!(found.contains(w) && en.contains(w), "{w}: {found:?}");
    }
}

#[test]
fn a_page_in_each_language_has_no_english_word() {
    let dir = tempfile::tempdir().unwrap();
    for code in LANGS {
        let pdf = dir.path().join(format!("{code}.pdf"));
        let out = hedge()
            .args([
                "generate", "--shape", "cat", "--seed", "3", "--weave", "0.3",
            ])
            .args(["--name-line", "--title", "7", "--lang", code, "-o"])
            .arg(&pdf)
            .output()
            .unwrap();
        assert_ok(&out);
        let err = stderr_of(&out);
        assert!(!err.contains("overlaps"), "{code}: {err}");
        let text = pdf_text(&pdf);
        assert_eq!(
            english_in(code, &text),
            Vec::<String>::new(),
            "{code}: {text}"
        );
        // the page's own words are there: the markers, the name line, the key's label, the
        // weave legend
        let w = hedge::lang::Words::builtin(code);
        for key in ["start", "finish", "name", "answer_key", "bridges"] {
            assert!(text.contains(w.get(key)), "{code}.{key}: {text}");
        }
        // the longer words at a four-year-old's size on a small page: placed clear of the
        // maze and of each other all the same
        let small = dir.path().join(format!("{code}-small.pdf"));
        let out = hedge()
            .args(["generate", "--shape", "dog", "--seed", "2", "--width", "12"])
            .args([
                "--markers",
                "huge",
                "--paper",
                "6x9",
                "--name-line",
                "--lang",
                code,
            ])
            .arg("-o")
            .arg(&small)
            .output()
            .unwrap();
        assert_ok(&out);
        let err = stderr_of(&out);
        assert!(
            !err.contains("overlaps") && !err.contains("close to"),
            "{code}: {err}"
        );
        let text = pdf_text(&small);
        assert_eq!(
            english_in(code, &text),
            Vec::<String>::new(),
            "{code}: {text}"
        );
        // a "collect the items" page says what to do in the page's words
        let collect = dir.path().join(format!("{code}-collect.pdf"));
        let out = hedge()
            .args([
                "generate", "--shape", "heart", "--seed", "1", "--width", "10",
            ])
            .args(["--collect", "3", "--lang", code, "-o"])
            .arg(&collect)
            .output()
            .unwrap();
        assert_ok(&out);
        let text = pdf_text(&collect);
        assert_eq!(
            english_in(code, &text),
            Vec::<String>::new(),
            "{code}: {text}"
        );
        let line = w.fill("collect", &[("n", "3"), ("finish", w.get("finish"))]);
        let squeezed = |t: &str| t.split_whitespace().collect::<String>();
        assert!(
            squeezed(&text).contains(&squeezed(&line)),
            "{code}: {line:?} in {text}"
        );
    }
}

/// A small book in `lang`: every front page, solution references, stars, a theme, a weave
/// maze and a "Which path?" puzzle, the answers at the back.
fn book_file(lang: &str, extra: &str) -> String {
    format!(
        r#"[book]
trim = "6x9"
lang = "{lang}"
author = "Ada"
year = 2026
front = ["copyright", "belongs-to", "how-to", "contents"]
name_line = true
solution_refs = true
stars = true
keys_per_page = 4
{extra}

[[pages]]
count = 2
shapes = ["cat", "heart"]
seed_from = 1
width = 10

[[pages]]
count = 1
shapes = ["fish"]
seed_from = 5
width = 12
weave = 0.3
page = {{ theme = "bee" }}

[[pages]]
count = 1
seed_from = 9
width = 8
height = 8
starts = 2
"#
    )
}

#[test]
fn a_book_in_each_language_has_no_english_word() {
    let dir = tempfile::tempdir().unwrap();
    for code in LANGS {
        let book = dir.path().join(format!("{code}.toml"));
        fs::write(&book, book_file(code, "")).unwrap();
        let out_dir = dir.path().join(code);
        let out = hedge()
            .arg("batch")
            .arg(&book)
            .arg("-o")
            .arg(&out_dir)
            .output()
            .unwrap();
        assert_ok(&out);
        let text = pdf_text(&out_dir.join("book.pdf"));
        assert_eq!(
            english_in(code, &text),
            Vec::<String>::new(),
            "{code}: {text}"
        );
        let w = hedge::lang::Words::builtin(code);
        for key in [
            "title",
            "belongs_to",
            "how_to",
            "contents",
            "answers",
            "credit",
            "theme_bee",
        ] {
            assert!(text.contains(w.get(key)), "{code}.{key}: {text}");
        }
        // the "Which path?" puzzle's line and how-to step, and the default rights text
        let first_word = |key: &str| w.get(key).split_whitespace().next().unwrap().to_string();
        for key in ["which_path", "how_to_which_path", "rights"] {
            assert!(text.contains(&first_word(key)), "{code}.{key}: {text}");
        }
    }
}

#[test]
fn a_strings_file_replaces_words_and_says_which_it_left_out() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(
        dir.path().join("words.toml"),
        "finish = \"HAUS\"\nname = \"Ich heiße:\"\n",
    )
    .unwrap();
    fs::write(
        dir.path().join("d.toml"),
        "seed = 4\nshape = { builtin = \"cat\" }\n[page]\nlang = \"de\"\nstrings = \"words.toml\"\nname_line = true\n",
    )
    .unwrap();
    let pdf = dir.path().join("p.pdf");
    let out = hedge()
        .arg("generate")
        .arg("--design")
        .arg(dir.path().join("d.toml"))
        .arg("-o")
        .arg(&pdf)
        .output()
        .unwrap();
    assert_ok(&out);
    let err = stderr_of(&out);
    let warnings: Vec<&str> = err.lines().filter(|l| l.contains("leaves out")).collect();
    assert_eq!(warnings.len(), 1, "{err}");
    assert!(
        warnings[0].starts_with("warning: the strings file "),
        "{err}"
    );
    assert!(warnings[0].contains("Deutsch"), "{err}");
    let text = pdf_text(&pdf);
    // its words, and the built-in German for the rest
    for want in ["HAUS", "Ich heiße:", "START", "LÖSUNG"] {
        assert!(text.contains(want), "{want}: {text}");
    }
    assert!(!text.contains("ZIEL") && !text.contains("FINISH"), "{text}");

    // a book's strings file: the manifest records its words, and regenerate prints them
    fs::write(
        dir.path().join("b.toml"),
        book_file("fr", "strings = \"book-words.toml\""),
    )
    .unwrap();
    fs::write(
        dir.path().join("book-words.toml"),
        "finish = \"MAISON\"\npuzzle = \"Chemin {n}\"\n",
    )
    .unwrap();
    let out_dir = dir.path().join("book");
    let out = hedge()
        .arg("batch")
        .arg(dir.path().join("b.toml"))
        .arg("-o")
        .arg(&out_dir)
        .output()
        .unwrap();
    assert_ok(&out);
    let text = pdf_text(&out_dir.join("book.pdf"));
    for want in ["MAISON", "Chemin 1", "Chemin 4", "DÉPART"] {
        assert!(text.contains(want), "{want}: {text}");
    }
    assert!(!text.contains("ARRIVÉE"), "{text}");
    let manifest: serde_json::Value =
        serde_json::from_slice(&fs::read(out_dir.join("manifest.json")).unwrap()).unwrap();
    assert_eq!(manifest["settings"]["lang"], "fr");
    assert_eq!(manifest["words"]["finish"], "MAISON");
    // reprinted from the manifest alone: the strings file gone
    fs::remove_file(dir.path().join("book-words.toml")).unwrap();
    let again = dir.path().join("again.pdf");
    let out = hedge()
        .arg("regenerate")
        .arg(out_dir.join("manifest.json"))
        .args(["--puzzle", "2", "-o"])
        .arg(&again)
        .output()
        .unwrap();
    assert_ok(&out);
    let text = pdf_text(&again);
    for want in ["MAISON", "Chemin 2", "DÉPART", "Nom :", "SOLUTION"] {
        assert!(text.contains(want), "{want}: {text}");
    }
}

#[test]
fn bad_languages_and_strings_files_are_one_line_and_write_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let pdf = dir.path().join("p.pdf");
    let run = |args: &[&str]| {
        let out = hedge()
            .args(["generate", "--shape", "cat", "--seed", "1"])
            .args(args)
            .arg("-o")
            .arg(&pdf)
            .output()
            .unwrap();
        assert!(!out.status.success(), "{args:?}");
        assert!(!pdf.exists(), "{args:?}");
        let err = stderr_of(&out);
        assert_eq!(err.trim().lines().count(), 1, "{args:?}: {err}");
        err
    };
    let e = run(&["--lang", "xx"]);
    assert!(
        e.contains(
            "unknown language \"xx\" (the languages: en, de, fr, es, it, pt, nl, pl, he, ar)"
        ),
        "{e}"
    );
    let bad = dir.path().join("bad.toml");
    for (text, want) in [
        ("fnish = \"X\"\n", "unknown key \"fnish\" (the keys: "),
        ("start = 1\n", "\"start\" must be text"),
        ("puzzle = \"No {x}\"\n", "{x}, which it cannot fill"),
        ("start = \n", "the strings file"),
    ] {
        fs::write(&bad, text).unwrap();
        let e = run(&["--lang", "fr", "--strings", bad.to_str().unwrap()]);
        assert!(e.contains(want), "{text}: {e}");
    }
    let e = run(&["--strings", dir.path().join("none.toml").to_str().unwrap()]);
    assert!(e.contains("cannot read the strings file"), "{e}");
    // a book's language
    let book = dir.path().join("b.toml");
    fs::write(&book, book_file("zz", "")).unwrap();
    let out = hedge()
        .arg("batch")
        .arg(&book)
        .arg("-o")
        .arg(dir.path().join("out"))
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = stderr_of(&out);
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(err.contains("book.lang: unknown language \"zz\""), "{err}");
    assert!(!dir.path().join("out").exists());
}

#[test]
fn the_same_design_in_a_language_gives_the_same_bytes() {
    let dir = tempfile::tempdir().unwrap();
    let make = |name: &str| {
        let path = dir.path().join(name);
        let out = hedge()
            .args(["generate", "--shape", "cat", "--seed", "8", "--lang", "pl"])
            .args(["--name-line", "--theme", "bee", "-o"])
            .arg(&path)
            .output()
            .unwrap();
        assert_ok(&out);
        fs::read(&path).unwrap()
    };
    for ext in ["pdf", "svg"] {
        let a = make(&format!("a.{ext}"));
        assert_eq!(a, make(&format!("b.{ext}")), "{ext}");
        assert!(
            String::from_utf8_lossy(&a).contains("Pomóż pszczółce") || ext == "pdf",
            "{ext}"
        );
    }
    // and a different language, a different page
    let en = dir.path().join("en.svg");
    let out = hedge()
        .args(["generate", "--shape", "cat", "--seed", "8"])
        .args(["--name-line", "--theme", "bee", "-o"])
        .arg(&en)
        .output()
        .unwrap();
    assert_ok(&out);
    assert_ne!(fs::read(&en).unwrap(), make("c.svg"));
}
