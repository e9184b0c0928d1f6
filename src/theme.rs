//! Themes for children's pages: a picture at the entrance, a picture at the exit and one line
//! of instruction at the top ("Help the bee find the flower"). The pictures are SVG files in
//! `assets/themes/` (embedded by `build.rs`), the pairs and their instructions the table
//! `assets/themes/themes.toml`; adding a theme is a picture or two and a table entry.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use serde::Deserialize;

use crate::error::{Error, Result};

include!(concat!(env!("OUT_DIR"), "/theme_pictures.rs"));

/// A theme: the names of its start and finish pictures and its instruction line.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Theme {
    /// The picture at the entrance.
    pub start: String,
    /// The picture at the exit.
    pub finish: String,
    /// The line printed at the top of the page.
    pub instruction: String,
}

/// Every theme by name (sorted), from `themes.toml`.
fn table() -> &'static BTreeMap<String, Theme> {
    static TABLE: OnceLock<BTreeMap<String, Theme>> = OnceLock::new();
    TABLE.get_or_init(|| {
        toml::from_str(include_str!("../assets/themes/themes.toml"))
            .expect("assets/themes/themes.toml is a table of themes (a test checks it)")
    })
}

/// The theme called `name`.
pub fn get(name: &str) -> Result<&'static Theme> {
    table().get(name).ok_or_else(|| {
        Error::option(format!(
            "unknown theme '{name}' (the themes: {})",
            names().collect::<Vec<_>>().join(", ")
        ))
    })
}

/// The themes' names, sorted.
pub fn names() -> impl Iterator<Item = &'static str> {
    table().keys().map(String::as_str)
}

/// The SVG bytes of the theme picture `name` (`bee`, `flower`, ...).
pub fn picture(name: &str) -> Option<&'static [u8]> {
    PICTURES
        .binary_search_by(|(n, _)| (*n).cmp(name))
        .ok()
        .map(|i| PICTURES[i].1)
}

/// The names of every built-in picture (`apple`, `bee`, ...), sorted.
pub fn picture_names() -> Vec<&'static str> {
    PICTURES.iter().map(|(n, _)| *n).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_theme_has_its_pictures_and_an_instruction() {
        let names: Vec<&str> = names().collect();
        assert!(names.len() >= 8, "{names:?}");
        for n in &names {
            let t = get(n).unwrap();
            for p in [&t.start, &t.finish] {
                assert!(picture(p).is_some(), "{n}: no picture {p}");
            }
            assert!(!t.instruction.trim().is_empty());
        }
        for want in [
            "bee", "mouse", "dog", "rocket", "car", "fish", "bird", "rabbit",
        ] {
            assert!(names.contains(&want), "{want}");
        }
        let e = get("dragon").unwrap_err();
        assert!(e.message.contains("unknown theme 'dragon'") && e.message.contains("bee"));
    }
}
