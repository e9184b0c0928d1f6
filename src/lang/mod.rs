//! The words a page prints, in the reader's language: START and FINISH, ANSWER KEY, "Name:",
//! the themes' instruction lines, a book's front matter (the copyright page, "This book
//! belongs to", the how-to page, the contents), its puzzle labels and "Solution on page N".
//!
//! Each built-in language is one table, `assets/lang/CODE.toml` (key = "text", the same keys
//! as `en.toml`), embedded at build time. A page names its language with `lang = "de"`
//! ([`crate::page::PageSetup::lang`]); a user's strings file (`strings = "FILE.toml"`, the same
//! form) replaces any of the words ([`Words::overridden`]), read by the caller through a
//! [`crate::load::Loader`] and handed in as text: this module does no file I/O.
//!
//! Hebrew and Arabic pages print right to left (the page text is ordered by the Unicode bidi
//! algorithm where it is drawn, [`crate::draw::reads_right_to_left`]), Arabic letters joined
//! by a shaper (harfrust), and a right-to-left page or book mirrors its layout.

use std::collections::BTreeMap;
use std::sync::{Arc, OnceLock};

use crate::error::{Error, Result};

/// Every built-in language's code and its table, English first.
const TABLES: [(&str, &str); 10] = [
    ("en", include_str!("../../assets/lang/en.toml")),
    ("de", include_str!("../../assets/lang/de.toml")),
    ("fr", include_str!("../../assets/lang/fr.toml")),
    ("es", include_str!("../../assets/lang/es.toml")),
    ("it", include_str!("../../assets/lang/it.toml")),
    ("pt", include_str!("../../assets/lang/pt.toml")),
    ("nl", include_str!("../../assets/lang/nl.toml")),
    ("pl", include_str!("../../assets/lang/pl.toml")),
    ("he", include_str!("../../assets/lang/he.toml")),
    ("ar", include_str!("../../assets/lang/ar.toml")),
];

/// The built-in languages' codes, English first.
pub const CODES: [&str; 10] = ["en", "de", "fr", "es", "it", "pt", "nl", "pl", "he", "ar"];

/// The languages written right to left. A page lays their lines out by the Unicode bidi
/// algorithm ([`crate::draw::reads_right_to_left`]).
pub const RIGHT_TO_LEFT: [&str; 2] = ["he", "ar"];

/// The languages a page cannot print correctly yet: none (Arabic was one until its letters
/// were joined by a shaper); [`check_printable`] refuses a language listed here.
pub const NOT_PRINTABLE: [&str; 0] = [];

/// The language a page prints in when it names none.
pub const DEFAULT: &str = "en";

/// The language's name in itself, for the editor's picker.
pub fn native_name(code: &str) -> &'static str {
    match code {
        "en" => "English",
        "de" => "Deutsch",
        "fr" => "Français",
        "es" => "Español",
        "it" => "Italiano",
        "pt" => "Português",
        "nl" => "Nederlands",
        "pl" => "Polski",
        "he" => "עברית",
        "ar" => "العربية",
        _ => "",
    }
}

/// `code` as a built-in language's code, or one clear line listing the codes.
pub fn check(code: &str) -> Result<&'static str> {
    CODES.iter().copied().find(|c| *c == code).ok_or_else(|| {
        Error::option(format!(
            "unknown language \"{}\" (the languages: {})",
            crate::error::one_line(code.trim()),
            CODES.join(", ")
        ))
    })
}

/// An error when a page in `code` cannot be printed correctly yet ([`NOT_PRINTABLE`]).
pub fn check_printable(code: &str) -> Result<()> {
    if NOT_PRINTABLE.contains(&code) {
        return Err(Error::option(format!(
            "lang = \"{code}\": right-to-left page text is not supported yet in this script (its letters must be joined)"
        )));
    }
    Ok(())
}

/// The words of one page language: every key of the English table, each with its text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Words {
    lang: &'static str,
    table: BTreeMap<String, String>,
}

/// A built-in table parsed (they are checked by the tests: a parse error is a build bug).
fn parse_builtin(code: &str, text: &str) -> BTreeMap<String, String> {
    toml::from_str(text).unwrap_or_else(|e| panic!("assets/lang/{code}.toml: {e}"))
}

impl Words {
    /// The built-in words of `code` ([`check`] it first: an unknown code gives English).
    pub fn builtin(code: &str) -> &'static Words {
        Self::all()
            .iter()
            .find(|w| w.lang == code)
            .unwrap_or(&Self::all()[0])
    }

    /// [`Words::builtin`], shared.
    pub fn shared(code: &str) -> Arc<Words> {
        let all = Self::all();
        all.iter()
            .find(|w| w.lang == code)
            .unwrap_or(&all[0])
            .clone()
    }

    /// Every built-in language's words, in [`CODES`] order.
    fn all() -> &'static [Arc<Words>] {
        static ALL: OnceLock<Vec<Arc<Words>>> = OnceLock::new();
        ALL.get_or_init(|| {
            let en = parse_builtin("en", TABLES[0].1);
            TABLES
                .iter()
                .map(|&(lang, text)| {
                    let mut table = en.clone();
                    // a key a table lacks keeps the English (the tests keep every table whole)
                    for (k, v) in parse_builtin(lang, text) {
                        if table.contains_key(&k) {
                            table.insert(k, v);
                        }
                    }
                    Arc::new(Words { lang, table })
                })
                .collect()
        })
    }

    /// The language's code.
    pub fn lang(&self) -> &'static str {
        self.lang
    }

    /// Every key, sorted.
    pub fn keys(&self) -> impl Iterator<Item = &str> {
        self.table.keys().map(String::as_str)
    }

    /// The text of `key` (one of [`Words::keys`]).
    pub fn get(&self, key: &str) -> &str {
        match self.table.get(key) {
            Some(t) => t,
            None => {
                debug_assert!(false, "no page word \"{key}\"");
                ""
            }
        }
    }

    /// The text of `key` with its `{name}` fields filled from `args` (a field not in `args`
    /// is kept as written; filled text is not looked at again).
    pub fn fill(&self, key: &str, args: &[(&str, &str)]) -> String {
        fill(self.get(key), args)
    }

    /// The text of `key` with `{start}` and `{finish}` filled with this language's START and
    /// FINISH words (the how-to page's steps name them).
    pub fn with_ends(&self, key: &str) -> String {
        self.fill(
            key,
            &[("start", self.get("start")), ("finish", self.get("finish"))],
        )
    }

    /// The instruction line of the theme `name`, or `None` for a name with no line.
    pub fn theme_line(&self, name: &str) -> Option<&str> {
        self.table.get(&format!("theme_{name}")).map(String::as_str)
    }

    /// The "Which path?" line for a theme `name` ("Which path leads to the flower?").
    pub fn which_path_to(&self, name: &str) -> Option<&str> {
        self.table
            .get(&format!("which_path_{name}"))
            .map(String::as_str)
    }

    /// These words with a user's strings file (`text`, a TOML table of key = "text", read from
    /// `file`) on top. A key that is not a page word, a value that is not text or names a
    /// field its key does not have, is an error naming it; the keys the file leaves out keep
    /// this language's words, and one warning (the second value) says which.
    pub fn overridden(&self, text: &str, file: &str) -> Result<(Words, Option<String>)> {
        let at = |m: String| Error::input(format!("the strings file {file}: {m}"));
        let given: toml::Table = toml::from_str(text).map_err(|e| {
            // the parser's message and where, on one line
            let place = e
                .span()
                .map(|r| {
                    let before = text.get(..r.start).unwrap_or(text);
                    let line = before.matches('\n').count() + 1;
                    let col = before.len() - before.rfind('\n').map_or(0, |i| i + 1) + 1;
                    format!(" (line {line}, column {col})")
                })
                .unwrap_or_default();
            let first = e.message().lines().next().unwrap_or_default().trim();
            at(format!("{}{place}", crate::error::one_line(first)))
        })?;
        let mut table = self.table.clone();
        for (k, v) in &given {
            let Some(own) = self.table.get(k) else {
                return Err(at(format!(
                    "unknown key \"{}\" (the keys: {})",
                    crate::error::one_line(k),
                    self.keys().collect::<Vec<_>>().join(", ")
                )));
            };
            let toml::Value::String(v) = v else {
                return Err(at(format!("\"{k}\" must be text in quotes")));
            };
            let allowed = fields(own);
            if let Some(bad) = fields(v).into_iter().find(|f| !allowed.contains(f)) {
                let known = if allowed.is_empty() {
                    "none".to_string()
                } else {
                    allowed
                        .iter()
                        .map(|f| format!("{{{f}}}"))
                        .collect::<Vec<_>>()
                        .join(", ")
                };
                return Err(at(format!(
                    "\"{k}\" has {{{bad}}}, which it cannot fill (its fields: {known})"
                )));
            }
            table.insert(k.clone(), v.clone());
        }
        let missing: Vec<&str> = self.keys().filter(|k| !given.contains_key(*k)).collect();
        let warning = (!missing.is_empty()).then(|| {
            let shown: Vec<&str> = missing.iter().take(5).copied().collect();
            let more = if missing.len() > shown.len() {
                format!(" and {} more", missing.len() - shown.len())
            } else {
                String::new()
            };
            format!(
                "the strings file {file} leaves out {} of the {} page words ({}{more}); they \
                 print in the built-in {} words",
                missing.len(),
                self.table.len(),
                shown.join(", "),
                native_name(self.lang)
            )
        });
        Ok((
            Words {
                lang: self.lang,
                table,
            },
            warning,
        ))
    }

    /// The words of `lang` as a table records them (a book's manifest): every key of the
    /// built-in table taken from `table` where it has it. A key not a page word is an error.
    pub fn from_table(lang: &str, table: &BTreeMap<String, String>) -> Result<Words> {
        let base = Words::builtin(check(lang)?);
        let mut out = base.clone();
        for (k, v) in table {
            if !base.table.contains_key(k) {
                return Err(Error::input(format!("unknown page word \"{k}\"")));
            }
            out.table.insert(k.clone(), v.clone());
        }
        Ok(out)
    }

    /// Every key with its text.
    pub fn table(&self) -> &BTreeMap<String, String> {
        &self.table
    }
}

/// The `{name}` fields of `text`, in order.
fn fields(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(i) = rest.find('{') {
        rest = &rest[i + 1..];
        if let Some(j) = rest.find('}') {
            let name = &rest[..j];
            if !name.is_empty() && name.chars().all(|c| c.is_ascii_lowercase() || c == '_') {
                out.push(name);
                rest = &rest[j + 1..];
            }
        }
    }
    out
}

/// `text` with each `{name}` that `args` has replaced by its value, in one pass.
fn fill(text: &str, args: &[(&str, &str)]) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find('{') {
        out.push_str(&rest[..i]);
        let after = &rest[i + 1..];
        let value = after.find('}').and_then(|j| {
            let name = &after[..j];
            args.iter().find(|(n, _)| *n == name).map(|(_, v)| (*v, j))
        });
        match value {
            Some((v, j)) => {
                out.push_str(v);
                rest = &after[j + 1..];
            }
            None => {
                out.push('{');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_table_has_every_key_and_the_same_fields() {
        let en = parse_builtin("en", TABLES[0].1);
        assert!(en.len() >= 50, "{}", en.len());
        assert_eq!(
            TABLES.iter().map(|t| t.0).collect::<Vec<_>>(),
            CODES.to_vec()
        );
        for (code, text) in TABLES {
            let t = parse_builtin(code, text);
            let keys = |m: &BTreeMap<String, String>| m.keys().cloned().collect::<Vec<_>>();
            assert_eq!(keys(&t), keys(&en), "{code}");
            for (k, v) in &t {
                let mut want = fields(&en[k]);
                let mut got = fields(v);
                want.sort();
                got.sort();
                if k.starts_with("collect") {
                    // English names what to collect ({items}, {goal}); a language whose nouns
                    // would need their own plurals and cases counts them ({n}, {finish})
                    let any = ["finish", "goal", "items", "n"];
                    assert!(got.iter().all(|f| any.contains(f)), "{code}.{k}: {v}");
                    continue;
                }
                assert_eq!(got, want, "{code}.{k}: {v}");
                assert!(!v.trim().is_empty(), "{code}.{k}");
            }
        }
    }

    #[test]
    fn every_theme_has_its_lines_in_every_language() {
        for code in CODES {
            let w = Words::builtin(code);
            for name in crate::theme::names() {
                assert!(w.theme_line(name).is_some(), "{code} {name}");
                assert!(w.which_path_to(name).is_some(), "{code} {name}");
            }
        }
        // the English table's lines are the themes' own
        for name in crate::theme::names() {
            assert_eq!(
                Words::builtin("en").theme_line(name),
                Some(crate::theme::get(name).unwrap().instruction.as_str())
            );
        }
    }

    #[test]
    fn the_bundled_fonts_draw_every_printable_word() {
        for code in CODES.iter().filter(|c| !NOT_PRINTABLE.contains(c)) {
            for (k, v) in Words::builtin(code).table() {
                for face in crate::page::Typeface::ALL {
                    for bold in [false, true] {
                        let m = crate::draw::missing(v, face, bold);
                        assert!(m.is_empty(), "{code}.{k} in {face:?}: {m:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn fill_replaces_known_fields_once() {
        assert_eq!(fill("Puzzle {n}", &[("n", "7")]), "Puzzle 7");
        assert_eq!(
            fill(
                "© {year} {author}",
                &[("year", "2026"), ("author", "{year}")]
            ),
            "© 2026 {year}"
        );
        assert_eq!(fill("a {x} {", &[("n", "1")]), "a {x} {");
        assert_eq!(fields("{label}, page {page} {Bad} {}"), ["label", "page"]);
        let de = Words::builtin("de");
        assert_eq!(de.with_ends("solved_example").matches("ZIEL").count(), 1);
    }

    #[test]
    fn codes_are_checked_in_one_line() {
        assert_eq!(check("fr").unwrap(), "fr");
        let e = check("xx").unwrap_err().message;
        assert!(e.starts_with("unknown language \"xx\""), "{e}");
        assert!(e.contains("en, de, fr, es, it, pt, nl, pl, he, ar"), "{e}");
        assert!(!e.contains('\n'));
        assert!(check_printable("de").is_ok());
        assert!(check_printable("he").is_ok());
        assert!(check_printable("ar").is_ok());
    }

    #[test]
    fn a_strings_file_overrides_and_says_what_it_left_out() {
        let de = Words::builtin("de");
        let (w, warn) = de
            .overridden("finish = \"HAUS\"\nname = \"Wer bin ich?\"\n", "s.toml")
            .unwrap();
        assert_eq!(w.get("finish"), "HAUS");
        assert_eq!(w.get("start"), "START");
        assert_eq!(w.get("contents"), "Inhalt");
        assert_eq!(w.with_ends("how_to_finish").matches("HAUS").count(), 1);
        let warn = warn.unwrap();
        assert!(
            warn.contains("leaves out") && warn.contains("Deutsch"),
            "{warn}"
        );
        // a whole file: no warning
        let all: String = de
            .table()
            .iter()
            .map(|(k, v)| format!("{k} = {}\n", toml::Value::String(v.clone())))
            .collect();
        assert!(de.overridden(&all, "s.toml").unwrap().1.is_none());
        for (text, want) in [
            ("fnish = \"X\"", "unknown key \"fnish\""),
            ("start = 3", "\"start\" must be text"),
            (
                "puzzle = \"Nr. {number}\"",
                "{number}, which it cannot fill",
            ),
            ("start = ", "the strings file s.toml"),
        ] {
            let e = de.overridden(text, "s.toml").unwrap_err().message;
            assert!(e.contains(want), "{text}: {e}");
            assert!(!e.contains('\n'), "{e}");
        }
    }
}
