//! The command line's silhouette flags and `hedge shapes`: resolving `--shape`, loading the
//! picture (through `hedge::io`), fitting the height and making the mask.

use std::path::Path;

use anyhow::Result;
use clap::Args;

use hedge::design::Design;
use hedge::pipeline::{ShapedMask, shape_mask};
use hedge::shape::{Cut, Foreground, Islands, ShapeSource, builtin, fitted_height};

/// The silhouette flags of `hedge generate`.
#[derive(Args, Debug, Default)]
pub struct ShapeArgs {
    /// A built-in shape (see `hedge shapes`) or a picture file (PNG, JPEG, GIF, BMP, WebP, SVG);
    /// the maze fills the shape. A built-in name wins over a file of the same name (write
    /// ./NAME for the file).
    #[arg(long, value_name = "NAME|PATH")]
    pub shape: Option<String>,
    /// Share of a cell's area the shape must cover for the cell to be in the maze (0 to 1).
    #[arg(long, value_name = "F", allow_negative_numbers = true)]
    pub coverage: Option<f64>,
    /// How different from the background a pixel must be to count as shape (0-255; colour
    /// distance, or opacity for pictures with transparency); automatic by default.
    #[arg(long, value_name = "T", value_parser = parse_threshold)]
    pub threshold: Option<u8>,
    /// Swap the shape and its background.
    #[arg(long)]
    pub invert: bool,
    /// Parts of the shape not joined to the largest: keep-largest (drop them) or bridge (join
    /// them with corridors).
    #[arg(long, value_name = "POLICY", value_parser = parse_islands)]
    pub islands: Option<Islands>,
}

fn parse_threshold(s: &str) -> Result<u8, String> {
    s.parse::<u8>()
        .map_err(|_| format!("'{s}' is not a threshold; use a whole number from 0 to 255"))
}

fn parse_islands(s: &str) -> Result<Islands, String> {
    s.parse::<Islands>().map_err(|e| e.message)
}

/// Applies the silhouette flags to `d`.
pub fn apply(args: &ShapeArgs, d: &mut Design) -> Result<()> {
    if let Some(s) = &args.shape {
        d.shape = Some(hedge::io::shape_source(s)?);
    }
    if let Some(c) = args.coverage {
        d.coverage = c;
    }
    if args.threshold.is_some() {
        d.threshold = args.threshold;
    }
    if args.invert {
        d.invert = true;
    }
    if let Some(i) = args.islands {
        d.islands = i;
    }
    Ok(())
}

/// A shape's mask with the notes to print.
pub struct Prepared {
    /// The mask and what its islands came to.
    pub shaped: ShapedMask,
    /// The picture's foreground (cut with the design's threshold and invert).
    pub foreground: Foreground,
    /// Remarks for standard error.
    pub notes: Vec<String>,
}

/// Loads `design`'s shape (if any), sets the height from its aspect ratio when `fit_height`,
/// and makes the mask. `base` is the folder relative shape paths of a design file start from.
pub fn prepare(
    design: &mut Design,
    fit_height: bool,
    base: Option<&Path>,
) -> Result<Option<Prepared>> {
    let Some(source) = design.shape.clone() else {
        return Ok(None);
    };
    let loaded = hedge::io::load_shape(&source, base)?;
    let cut = Cut {
        threshold: design.threshold,
        invert: design.invert,
    };
    let fg = Foreground::from_picture(&loaded.picture, cut).map_err(|e| match &source {
        // the picture's problem, named by its file (path last)
        ShapeSource::File(path) => anyhow::anyhow!("{e}: {}", path.display()),
        ShapeSource::Builtin(_) => e.into(),
    })?;
    if fit_height {
        design.height = fitted_height(design.grid_topology(), design.width, &fg)?;
    }
    let shaped = shape_mask(design, &fg)?;
    let mut notes: Vec<String> = loaded.note.into_iter().collect();
    if shaped.parts > 1 {
        notes.push(match design.islands {
            Islands::KeepLargest => format!(
                "the shape has {} separate parts at this size; kept the largest, dropped {} cell{} \
                 (--islands bridge joins them)",
                shaped.parts,
                shaped.island_cells,
                if shaped.island_cells == 1 { "" } else { "s" }
            ),
            Islands::Bridge => format!(
                "the shape has {} separate parts at this size; joined them with {} added cell{}",
                shaped.parts,
                shaped.added_cells,
                if shaped.added_cells == 1 { "" } else { "s" }
            ),
        });
    }
    Ok(Some(Prepared {
        shaped,
        notes,
        foreground: fg,
    }))
}

/// Runs `hedge shapes`: the built-in shape names, one a line.
pub fn run_shapes() -> Result<()> {
    for name in builtin::names() {
        println!("{name}");
    }
    Ok(())
}
