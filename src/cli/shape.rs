//! The command line's silhouette flags and `hedge shapes`: resolving `--shape` into the design
//! (loading, cutting and fitting the picture is [`hedge::make::prepare`]'s).

use anyhow::Result;
use clap::Args;

use hedge::design::Design;
use hedge::shape::{Islands, ShapeSource, TextFont, builtin};

/// The silhouette flags of `hedge generate`.
#[derive(Args, Debug, Default)]
pub struct ShapeArgs {
    /// A built-in shape (see `hedge shapes`) or a picture file (PNG, JPEG, GIF, BMP, WebP, SVG);
    /// the maze fills the shape. A built-in name wins over a file of the same name (write
    /// ./NAME for the file).
    #[arg(long, value_name = "NAME|PATH", conflicts_with = "text")]
    pub shape: Option<String>,
    /// Words the maze takes the shape of, set in a bundled font (\n or a line break starts a
    /// new line); the letters are joined into one maze by corridors.
    #[arg(long, value_name = "WORDS")]
    pub text: Option<String>,
    /// The font of --text: rounded (Comic Neue Bold, the default), sans, serif, mono (Liberation
    /// Bold) or dejavu (DejaVu Sans Bold, the most characters).
    #[arg(long, value_name = "FONT", value_parser = parse_text_font)]
    pub text_font: Option<TextFont>,
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
    /// Turn the shape a quarter turn anticlockwise (a wide shape stands up on a portrait page).
    #[arg(long)]
    pub turn: bool,
    /// Parts of the shape not joined to the largest: keep-largest (drop them) or bridge (join
    /// them with corridors). By default the largest is kept, but the letters of a text or of
    /// an SVG that draws text are joined.
    #[arg(long, value_name = "POLICY", value_parser = parse_islands)]
    pub islands: Option<Islands>,
    /// Cut a picture that looks like a photo (its background is not plain) anyway.
    #[arg(long)]
    pub force: bool,
    /// A shaped maze's outer wall: shape (the silhouette's own smooth outline, cells clipped to
    /// it; the default) or cells (the cells' outline).
    #[arg(long, value_name = "shape|cells", value_parser = parse_outline)]
    pub outline: Option<hedge::outline::OutlineStyle>,
}

fn parse_outline(s: &str) -> Result<hedge::outline::OutlineStyle, String> {
    s.parse().map_err(|e: hedge::error::Error| e.message)
}

fn parse_threshold(s: &str) -> Result<u8, String> {
    s.parse::<u8>()
        .map_err(|_| format!("'{s}' is not a threshold; use a whole number from 0 to 255"))
}

fn parse_text_font(s: &str) -> Result<TextFont, String> {
    s.parse::<TextFont>().map_err(|e| e.message)
}

fn parse_islands(s: &str) -> Result<Islands, String> {
    s.parse::<Islands>().map_err(|e| e.message)
}

/// Applies the silhouette flags to `d`.
pub fn apply(args: &ShapeArgs, d: &mut Design) -> Result<()> {
    if let Some(s) = &args.shape {
        let source = hedge::io::shape_source(s)?;
        if d.shape.as_ref() != Some(&source) {
            d.pick = None; // a pick is of the design's own picture
        }
        d.shape = Some(source);
    }
    if let Some(text) = &args.text {
        d.pick = None;
        d.shape = Some(ShapeSource::Text {
            text: text.clone(),
            font: args.text_font.unwrap_or_default(),
        });
    } else if let Some(f) = args.text_font {
        match &mut d.shape {
            Some(ShapeSource::Text { font, .. }) => *font = f,
            _ => anyhow::bail!("--text-font goes with --text (or a design whose shape is a text)"),
        }
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
    if args.force {
        d.photo = true;
    }
    if args.turn {
        d.turn = hedge::design::Turn::Shape;
    }
    if args.islands.is_some() {
        d.islands = args.islands;
    }
    if let Some(o) = args.outline {
        d.outline = o;
    }
    if d.shape.is_none() {
        // what cuts or fits a shape means nothing without one
        let flags = [
            (args.coverage.is_some(), "--coverage"),
            (args.threshold.is_some(), "--threshold"),
            (args.invert, "--invert"),
            (args.turn, "--turn"),
            (args.islands.is_some(), "--islands"),
            (args.force, "--force"),
            (args.outline.is_some(), "--outline"),
        ];
        if let Some((_, flag)) = flags.iter().find(|(given, _)| *given) {
            anyhow::bail!("{flag} goes with a shape (--shape, --text or a design with a shape)");
        }
    }
    Ok(())
}

/// Runs `hedge shapes`: the built-in shape names, one a line.
pub fn run_shapes() -> Result<()> {
    let list: String = builtin::names().map(|n| format!("{n}\n")).collect();
    super::write_out(&list)
}
