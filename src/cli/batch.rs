//! `hedge batch BOOK.toml -o OUTDIR`: a whole puzzle book, with a progress bar on a terminal.

use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{Context, Result};
use clap::Args;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// `hedge batch`'s arguments.
#[derive(Args, Debug)]
pub struct BatchArgs {
    /// The book file (TOML; see the README's "Puzzle books" section).
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

/// The PDFs' date, in seconds since 1970: `SOURCE_DATE_EPOCH` when it is set (the
/// reproducible-builds convention), else `file`'s modification time; so building the same book
/// file again makes the same bytes.
pub fn source_date(file: &Path) -> Result<i64> {
    if let Some(v) = std::env::var_os("SOURCE_DATE_EPOCH").filter(|v| !v.is_empty()) {
        let v = v.to_string_lossy();
        return v
            .trim()
            .parse::<i64>()
            .ok()
            .filter(|t| (0..=253_402_300_799).contains(t))
            .with_context(|| {
                format!("SOURCE_DATE_EPOCH must be a number of seconds since 1970, got \"{v}\"")
            });
    }
    let modified = std::fs::metadata(file)
        .and_then(|m| m.modified())
        .with_context(|| format!("cannot read the time of {}", file.display()))?;
    Ok(match modified.duration_since(std::time::UNIX_EPOCH) {
        Ok(d) => d.as_secs() as i64,
        Err(e) => -(e.duration().as_secs() as i64),
    })
}

/// Runs `hedge batch`.
pub fn run_batch(args: &BatchArgs) -> Result<()> {
    let start = Instant::now();
    let mut book = hedge::book::load(&args.book, &hedge::io::Files)?;
    book.date = Some(source_date(&args.book)?);
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
        super::say_block(&built.preflight.block());
        anyhow::bail!("preflight failed (--strict): nothing written");
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
