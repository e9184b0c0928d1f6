//! Silhouettes: pictures turned into masks.
//!
//! The stage runs in four steps, one file each, none of them touching the file system (the
//! caller hands in bytes: [`crate::load`] gets a design's picture through the caller's loader,
//! and [`crate::make::prepare`] runs the steps for a design):
//!
//! - [`decode`]: bytes -> [`Picture`] (PNG, JPEG, GIF, BMP, WebP, SVG), recognised by content and
//!   downscaled on the way in so memory stays bounded whatever the file says;
//! - [`foreground`]: picture -> [`Foreground`], which pixels are the shape (alpha when the
//!   picture has real transparency, otherwise the difference from the border's colour with an
//!   automatic Otsu threshold), trimmed to the shape's bounding box;
//! - [`fit`]: foreground -> [`crate::mask::Mask`] on any topology, keeping the aspect ratio; a
//!   cell is on when the shape covers enough of its own polygon (supersampled);
//! - [`islands`]: joining separate parts with corridors, and finding one-cell necks.
//!
//! [`builtin`] holds the silhouettes shipped in the binary (`assets/shapes/*.svg`).

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};

pub mod builtin;
pub mod decode;
pub mod fit;
pub mod foreground;
pub mod islands;
pub mod outline;
pub mod parts;
pub mod photo;
pub mod svg;
pub mod text;
pub mod vector;
pub mod wand;

pub use decode::{Format, Picture};
pub use fit::{fit, fitted_height};
pub use foreground::{Cut, Foreground};
pub use islands::{bridge, necks, necks_in};
pub use text::TextFont;

/// Where a design's silhouette comes from. In a design file it is the `[shape]` table with
/// one of `builtin = "NAME"`, `file = "PATH"` or `text = "WORDS"` (and `font = "NAME"` beside
/// a text).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "SourceTable", into = "SourceTable")]
pub enum ShapeSource {
    /// A built-in silhouette, by name (`hedge shapes` lists them).
    Builtin(String),
    /// An image file (PNG, JPEG, GIF, BMP, WebP or SVG). In a design file a relative path is
    /// relative to the design file's folder.
    File(PathBuf),
    /// Words set in a bundled font ([`text`]); lines are separated by line breaks.
    Text {
        /// The words.
        text: String,
        /// The face.
        font: TextFont,
    },
}

/// [`ShapeSource`] as a design file writes it: a table with one source key.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct SourceTable {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    builtin: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    file: Option<PathBuf>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    text: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    font: Option<TextFont>,
}

impl TryFrom<SourceTable> for ShapeSource {
    type Error = String;
    fn try_from(t: SourceTable) -> std::result::Result<Self, String> {
        let font = t.font;
        let s = match (t.builtin, t.file, t.text) {
            (Some(b), None, None) => ShapeSource::Builtin(b),
            (None, Some(f), None) => ShapeSource::File(f),
            (None, None, Some(text)) => {
                return Ok(ShapeSource::Text {
                    text,
                    font: font.unwrap_or_default(),
                });
            }
            _ => {
                return Err(
                    "the shape table takes one of builtin = \"NAME\", file = \"PATH\" or text = \
                     \"WORDS\""
                        .into(),
                );
            }
        };
        if font.is_some() {
            return Err("the shape table's font goes with a text = \"WORDS\"".into());
        }
        Ok(s)
    }
}

impl From<ShapeSource> for SourceTable {
    fn from(s: ShapeSource) -> SourceTable {
        let mut t = SourceTable {
            builtin: None,
            file: None,
            text: None,
            font: None,
        };
        match s {
            ShapeSource::Builtin(b) => t.builtin = Some(b),
            ShapeSource::File(f) => t.file = Some(f),
            ShapeSource::Text { text, font } => {
                t.text = Some(text);
                t.font = (!font.is_default()).then_some(font);
            }
        }
        t
    }
}

impl std::fmt::Display for ShapeSource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ShapeSource::Builtin(name) => f.write_str(name),
            ShapeSource::File(path) => write!(f, "{}", path.display()),
            ShapeSource::Text { text, .. } => write!(f, "text {:?}", text::lines(text).join(" / ")),
        }
    }
}

impl ShapeSource {
    /// Checks that a built-in name exists (files are checked when they are read).
    pub fn check(&self) -> Result<()> {
        match self {
            ShapeSource::Builtin(name) if builtin::get(name).is_none() => Err(Error::option(
                format!("unknown built-in shape (use {}): {name}", builtin::list()),
            )),
            ShapeSource::Text { text, font } => text::check(text, *font),
            _ => Ok(()),
        }
    }

    /// Whether this is a text shape (whose letters are always joined).
    pub fn is_text(&self) -> bool {
        matches!(self, ShapeSource::Text { .. })
    }
}

/// What happens to parts of the shape that are not joined to its largest part. Its names
/// (files, command line, messages) are the kebab-case variant names.
#[derive(
    Clone,
    Copy,
    Debug,
    Default,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    Serialize,
    Deserialize,
    strum::Display,
    strum::EnumString,
    strum::IntoStaticStr,
    strum::VariantArray,
)]
#[serde(rename_all = "kebab-case")]
#[strum(
    serialize_all = "kebab-case",
    parse_err_ty = Error,
    parse_err_fn = unknown_islands
)]
pub enum Islands {
    /// Keep the largest connected part, drop the others.
    #[default]
    KeepLargest,
    /// Join every part to the others with the shortest corridors of cells found.
    Bridge,
}

impl Islands {
    /// The name used in files and on the command line.
    pub fn name(self) -> &'static str {
        self.into()
    }
}

/// The error for an islands policy that is not one.
fn unknown_islands(s: &str) -> Error {
    use strum::VariantArray as _;
    let names: Vec<&str> = Islands::VARIANTS.iter().map(|k| k.name()).collect();
    Error::option(format!(
        "unknown islands policy '{s}' (use {})",
        names.join(" or ")
    ))
}
