//! Hedge: masked mazes on four topologies, from silhouette to print-ready page.
//!
//! The pipeline, one module per stage:
//! [`topology`] (cells, neighbours, geometry) -> [`mask`] (which cells exist) -> [`grid`] (the
//! active cells as flat vectors) -> [`carve`] (one file per algorithm) -> [`maze`] (passages and
//! tunnels). [`pipeline`] runs the stages; [`make`] is the one entry point that turns a
//! [`design::Design`] into pages (`make::prepare` then `Prepared::make`, whatever the style),
//! and the command line, the editor and [`book`] call it.
//!
//! What a design or a book names (pictures, design files, book files) reaches the library
//! through a [`load::Loader`] the caller passes in; the one module that touches the file system
//! is [`io`] (its `Files` loader, and atomic writes). The editor (`app`, the `gui` feature)
//! is the only other part outside the library's core; the binary is a thin layer over it all.

#[cfg(feature = "gui")]
pub mod app;
pub mod ascii;
pub mod book;
pub mod carve;
pub mod error;
pub mod grid;
pub mod locks;
pub mod mask;
pub mod maze;
pub mod random;
pub mod shape;
pub mod tiles;
pub mod topology;
pub mod weave;

pub use error::{Error, ErrorKind, Result};
pub mod braid;
pub mod design;
pub mod difficulty;
pub mod draw;
pub mod endpoints;
pub mod export;
pub(crate) mod fonts;
pub mod forest;
pub mod io;
pub mod items;
pub mod json;
pub mod lang;
pub mod load;
pub mod make;
pub mod metrics;
pub mod outline;
pub mod page;
pub mod picture;
pub mod pipeline;
pub mod preflight;
pub mod reveal;
pub mod reveal_fit;
pub mod simulate;
pub mod sizing;
pub mod solve;
pub mod targets;
pub mod theme;
