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
pub mod svg;

pub use decode::{Format, Picture};
pub use fit::{fit, fitted_height};
pub use foreground::{Cut, Foreground};
pub use islands::{bridge, necks, necks_in};

/// Where a design's silhouette comes from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ShapeSource {
    /// A built-in silhouette, by name (`hedge shapes` lists them).
    Builtin(String),
    /// An image file (PNG, JPEG, GIF, BMP, WebP or SVG). In a design file a relative path is
    /// relative to the design file's folder.
    File(PathBuf),
}

impl std::fmt::Display for ShapeSource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ShapeSource::Builtin(name) => f.write_str(name),
            ShapeSource::File(path) => write!(f, "{}", path.display()),
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
            _ => Ok(()),
        }
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
