//! The picture a design reveals ([`crate::reveal`]): read through a [`Loader`] and cut as a
//! shape is (the default cut), then fitted to the design's grid exactly as its `shape` would
//! be ([`crate::pipeline::shape_mask_with`]), for [`crate::make`]. Nothing here reads a file
//! itself.

use std::path::Path;
use std::sync::Arc;

use crate::design::Design;
use crate::error::{Error, ErrorKind, Result};
use crate::load::{Loader, load_shape};
use crate::mask::Mask;
use crate::shape::{Cut, Foreground, ShapeSource};
use crate::topology::Topology;

/// The picture `design` reveals, read through `loader` (a relative path from `base`) and cut
/// with the default cut; `None` without one. Errors start with `reveal:` (a file's end with
/// its path).
pub fn load(
    design: &Design,
    loader: &dyn Loader,
    base: Option<&Path>,
) -> Result<Option<Arc<Foreground>>> {
    let Some(source) = design.walls().reveal.as_ref() else {
        return Ok(None);
    };
    let said = |e: Error| {
        let message = match source {
            ShapeSource::File(p) if !e.message.ends_with(&p.display().to_string()) => {
                format!("reveal: {}: {}", e.message, p.display())
            }
            _ => format!("reveal: {}", e.message),
        };
        Error::new(e.kind, message)
    };
    let loaded = load_shape(loader, source, base).map_err(said)?;
    let fg = Foreground::from_picture(&loaded.picture, Cut::default()).map_err(said)?;
    Ok(Some(Arc::new(fg)))
}

/// [`load`] with nothing read: a built-in or text picture, or a file whose bytes the design
/// already holds ([`crate::design::Walls::reveal_file`], read by a book or the editor);
/// `None` for a file not read yet, which [`crate::make::prepare`] reads. Books and the
/// editor prepare designs from cut shapes.
pub fn load_builtin(design: &Design) -> Result<Option<Arc<Foreground>>> {
    let w = design.walls();
    match (&w.reveal, &w.reveal_file) {
        (Some(ShapeSource::Builtin(_) | ShapeSource::Text { .. }), _) => {
            load(design, &crate::load::Memory::new(), None)
        }
        (Some(ShapeSource::File(path)), Some(bytes)) => {
            let read = crate::load::Memory::new().with(path.clone(), bytes.to_vec());
            load(design, &read, None)
        }
        _ => Ok(None),
    }
}

/// `fg` (the picture `design` reveals, when read) as a shape's mask on the design's grid,
/// fitted as its `shape` would be; `None` without one. A picture that leaves too few cells
/// gives an empty mask, which [`crate::reveal::cells`] refuses in its own words.
pub fn mask(design: &Design, fg: Option<&Foreground>) -> Result<Option<Mask>> {
    let (Some(source), Some(fg)) = (&design.walls().reveal, fg) else {
        return Ok(None);
    };
    let d = Design {
        shape: Some(source.clone()),
        ..design.clone()
    };
    match crate::pipeline::shape_mask_with(&d, fg, |_, _| {}) {
        Ok(s) => Ok(Some(s.mask)),
        Err(e) if e.kind == ErrorKind::EmptyMask => {
            let t = Topology::new(d.grid_topology(), d.width, d.height)?;
            Ok(Some(Mask::empty(&t)?))
        }
        Err(e) => Err(e),
    }
}
