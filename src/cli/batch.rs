//! `hedge batch BOOK.toml -o OUTDIR`: a whole puzzle book, with a progress bar on a terminal.

use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{Context, Result};
use clap::Args;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// `hedge batch`'s arguments.
#[derive(Args, Debug)]
pub struct BatchArgs {
    /// The book file (TOML; see docs/books.md).
    #[arg(value_name = "BOOK.toml")]
    pub book: PathBuf,
    /// The output folder: book.pdf (and answers.pdf with answers = "separate"), manifest.json
    /// and pages/page-NNN.svg go there.
    #[arg(short, long, value_name = "OUTDIR")]
    pub output: PathBuf,
    /// Worker threads (default: one per core). The output is the same whatever the number.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=256))]
    pub threads: Option<u16>,
    /// Make the preflight's warnings errors: when a check fails, nothing is written.
    #[arg(long)]
    pub strict: bool,
}

fn bar() -> ProgressBar {
    // drawn only when standard error is a terminal (indicatif's stderr target checks)
    let bar = ProgressBar::with_draw_target(Some(0), ProgressDrawTarget::stderr());
    if let Ok(style) =
        ProgressStyle::with_template("{bar:40} {pos}/{len} steps, {elapsed} (about {eta} left)")
    {
        bar.set_style(style);
    }
    bar
}

/// Runs `hedge batch`.
pub fn run_batch(args: &BatchArgs) -> Result<()> {
    let start = Instant::now();
    let mut book = hedge::book::load(&args.book, &hedge::io::Files)?;
    book.date = Some(hedge::io::source_date(Some(&args.book))?);
    // the manifest names the book file's folder from the output folder, so `hedge regenerate`
    // finds the book's pictures wherever it is run
    let folder = args.book.parent().unwrap_or(Path::new(""));
    book.book_dir = hedge::io::relative_folder(&args.output, folder)
        .or_else(|| std::path::absolute(folder).ok());
    for note in &book.notes {
        say!("note: {note}");
    }
    let pool = {
        let mut b = rayon::ThreadPoolBuilder::new();
        if let Some(n) = args.threads {
            b = b.num_threads(usize::from(n));
        }
        b.build().context("cannot start the worker threads")?
    };
    let bar = bar();
    let built = pool.install(|| {
        hedge::book::build(&book, &hedge::io::Files, &|done, total| {
            bar.set_length(total as u64);
            bar.set_position(done as u64);
        })
    });
    bar.finish_and_clear();
    let built = built?;
    if args.strict && !built.preflight.is_clean() {
        // one line: the problems, not the whole block
        anyhow::bail!(
            "preflight failed (--strict): {}; nothing written",
            built.preflight.problems_line()
        );
    }
    hedge::io::write_book(&args.output, &built.files)?;
    for w in &built.warnings {
        say!("warning: {w}");
    }
    // the preflight once the book is written: a failed write is its one line
    if built.preflight.is_clean() {
        say!("{}", built.preflight.status());
    } else {
        super::say_block(&built.preflight.block());
    }
    let mut pdfs = vec![
        Path::new(&args.output)
            .join("book.pdf")
            .display()
            .to_string(),
    ];
    if built
        .files
        .iter()
        .any(|f| f.path == Path::new(hedge::book::ANSWERS_PDF))
    {
        let answers = Path::new(&args.output).join(hedge::book::ANSWERS_PDF);
        pdfs.push(answers.display().to_string());
    }
    say!(
        "{} puzzles, {} pages in {:.1} s -> {}",
        built.puzzles,
        built.pages,
        start.elapsed().as_secs_f64(),
        pdfs.join(", ")
    );
    Ok(())
}
