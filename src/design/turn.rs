//! A design's `turn`: whether the shape stands as drawn, is turned alone, or turns with its
//! whole page ([`Turn`]). Files hold `turn = false`, `turn = true` or `turn = "page"`.

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// How a shape is turned on its page.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Turn {
    /// The shape as drawn, upright with its page (`turn = false`, the default; left out of
    /// files).
    #[default]
    Upright,
    /// The shape alone turned a quarter turn anticlockwise before it is fitted to the grid
    /// ([`crate::shape::Foreground::turned`]): a dog stands on its hind legs, across its
    /// page's text (`turn = true`; only when asked).
    Shape,
    /// The shape upright and the whole page turned with it: the maze, its title, labels, page
    /// number and footnote laid out across the other way and turned a quarter turn onto the
    /// sheet, read with the book turned, as puzzle books print landscape puzzles
    /// ([`crate::page::PageSetup::turned`]; `turn = "page"`).
    Page,
}

impl Turn {
    /// Whether the shape is turned before it is fitted ([`Turn::Shape`]).
    pub fn turns_shape(self) -> bool {
        self == Turn::Shape
    }

    /// Whether the page is turned ([`Turn::Page`]).
    pub fn turns_page(self) -> bool {
        self == Turn::Page
    }

    /// Whether it is the default (left out of files).
    pub fn is_upright(&self) -> bool {
        *self == Turn::Upright
    }
}

impl From<bool> for Turn {
    /// `true` turns the shape alone, `false` leaves it upright.
    fn from(shape: bool) -> Turn {
        if shape { Turn::Shape } else { Turn::Upright }
    }
}

impl Serialize for Turn {
    fn serialize<S: Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        match self {
            Turn::Upright => s.serialize_bool(false),
            Turn::Shape => s.serialize_bool(true),
            Turn::Page => s.serialize_str("page"),
        }
    }
}

impl<'de> Deserialize<'de> for Turn {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Turn, D::Error> {
        struct Visitor;
        impl serde::de::Visitor<'_> for Visitor {
            type Value = Turn;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("false, true or \"page\"")
            }
            fn visit_bool<E: serde::de::Error>(self, v: bool) -> std::result::Result<Turn, E> {
                Ok(Turn::from(v))
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> std::result::Result<Turn, E> {
                match v {
                    "page" => Ok(Turn::Page),
                    _ => Err(E::custom(format!(
                        "must be false, true or \"page\", got \"{}\"",
                        crate::error::clip(v)
                    ))),
                }
            }
        }
        d.deserialize_any(Visitor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, Deserialize, Serialize)]
    struct T {
        turn: Turn,
    }

    #[test]
    fn booleans_and_page_read_and_write_as_they_were() {
        for (text, want) in [
            ("turn = false", Turn::Upright),
            ("turn = true", Turn::Shape),
            ("turn = \"page\"", Turn::Page),
        ] {
            let t: T = toml::from_str(text).unwrap();
            assert_eq!(t.turn, want, "{text}");
            assert_eq!(toml::to_string(&t).unwrap().trim(), text);
            let json = serde_json::to_string(&t).unwrap();
            let back: T = serde_json::from_str(&json).unwrap();
            assert_eq!(back.turn, want);
        }
    }

    #[test]
    fn other_values_are_one_line_errors() {
        for bad in ["turn = \"sideways\"", "turn = 1", "turn = \"Page\""] {
            let e = toml::from_str::<T>(bad).unwrap_err().to_string();
            assert!(e.contains("\"page\""), "{bad}: {e}");
        }
        let e = toml::from_str::<T>("turn = \"sideways\"")
            .unwrap_err()
            .message()
            .to_string();
        assert_eq!(e, "must be false, true or \"page\", got \"sideways\"");
        assert!(!e.contains('\n'));
    }
}
