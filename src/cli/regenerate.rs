//! `hedge regenerate OUTDIR/manifest.json --puzzle 7 -o p7.pdf`: one puzzle of a built book
//! printed again ([`hedge::book::reprint`]), the same maze on the same page as in `book.pdf`,
//! with its answer key on the next page (or beside an SVG or PNG, as `hedge generate` writes
//! them). For a page lost, spoiled or wanted on its own (a handout, a proof). The manifest's
//! pictures are found from its own folder (the book file's folder it records), wherever the
//! command is run.

use std::path::{Path, PathBuf};

use anyhow::{Result, bail};
use clap::Args;

use hedge::export::{self, Format, KeyPlacement};

use super::print::write_printed;

/// `hedge regenerate`'s arguments.
#[derive(Args, Debug)]
pub struct RegenerateArgs {
    /// The book's manifest.json (in the folder `hedge batch` wrote).
    #[arg(value_name = "MANIFEST")]
    pub manifest: PathBuf,
    /// The puzzle's number, as printed in the book (from 1).
    #[arg(long, value_name = "N")]
    pub puzzle: usize,
    /// The file to write: .pdf (the puzzle, then its key), .svg or .png (the key beside it as
    /// NAME-key.svg/.png).
    #[arg(short, long, value_name = "FILE")]
    pub output: PathBuf,
    /// PNG resolution in dots per inch (default 300).
    #[arg(long, value_name = "DPI")]
    pub dpi: Option<u32>,
    /// Make the preflight's warnings errors: when a check fails, nothing is written.
    #[arg(long)]
    pub strict: bool,
}

/// Runs `hedge regenerate`.
pub fn run_regenerate(args: &RegenerateArgs) -> Result<()> {
    let format = match super::out_format(&args.output)? {
        super::OutFormat::Print(f @ (Format::Pdf | Format::Svg | Format::Png { .. })) => f,
        _ => bail!(
            "a puzzle is printed as .pdf, .svg or .png: {}",
            args.output.display()
        ),
    };
    let format = match (format, args.dpi) {
        (Format::Png { .. }, Some(dpi)) => {
            export::check_dpi(dpi)?;
            Format::Png { dpi }
        }
        (_, Some(_)) => bail!("--dpi goes with a .png output file"),
        (f, None) => f,
    };
    let text = hedge::io::read_text(&args.manifest, "the manifest")?;
    // the manifest's paths are taken from its own folder, never the current one
    let dir = args.manifest.parent().unwrap_or(Path::new(""));
    let r = hedge::book::reprint(&text, dir, args.puzzle, &hedge::io::Files)?;
    // the pages as the book printed them (in grey for a black and white book)
    let printed =
        export::print_placed(&r.setup, format, KeyPlacement::SecondPage, |_, _| r.pages())?;
    let written = write_printed(&printed, format, &args.output, args.strict)?;
    let names: Vec<String> = written.iter().map(|p| p.display().to_string()).collect();
    say!(
        "{}: {} -> {}",
        r.label,
        r.product.summary(),
        names.join(", ")
    );
    Ok(())
}
