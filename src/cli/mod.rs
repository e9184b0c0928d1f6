//! The command line: raw arguments (clap) turned into a validated design, then the library's one
//! entry point ([`hedge::make`]), then the output file. Thin by design: everything it does is a
//! library call, and nothing here branches on the maze's style.

/// Writes a line to standard error through [`say_line`] (control characters escaped, warnings
/// held until the run succeeds).
macro_rules! say {
    ($($arg:tt)*) => {
        $crate::cli::say_line(&format!($($arg)*))
    };
}

/// Writes a block of lines (the preflight's) to standard error, each line on its own as
/// [`say_line`] writes it.
pub fn say_block(block: &str) {
    for line in block.lines() {
        say_line(line);
    }
}

/// Warnings wait here until the run is known to succeed: they are printed before the next line
/// that is not a warning, or at the end ([`flush_warnings`]), and dropped when it fails
/// ([`drop_warnings`]), so a warning never precedes the error that ends a run.
static WARNINGS: std::sync::Mutex<Vec<String>> = std::sync::Mutex::new(Vec::new());

/// Writes `line` to standard error on one line (control characters escaped, see
/// [`hedge::error::one_line`]; a value echoed in it at most 200 characters long, see
/// [`hedge::error::short_values`]). A line starting with `warning: ` waits for the run to succeed
/// (see [`WARNINGS`]). A standard error that cannot be written is ignored: it must not panic,
/// nor turn a run that succeeded into a failure.
pub fn say_line(line: &str) {
    let line = hedge::error::one_line(line);
    let line = hedge::error::short_values(&line).into_owned();
    if line.starts_with("warning: ") {
        if let Ok(mut w) = WARNINGS.lock() {
            w.push(line);
        }
        return;
    }
    flush_warnings();
    write_err(&line);
}

/// Prints the warnings held so far (the run succeeded).
pub fn flush_warnings() {
    let held = WARNINGS.lock().map(|mut w| std::mem::take(&mut *w));
    for line in held.unwrap_or_default() {
        write_err(&line);
    }
}

/// Forgets the warnings held so far (the run failed: nothing they speak of was written).
pub fn drop_warnings() {
    if let Ok(mut w) = WARNINGS.lock() {
        w.clear();
    }
}

fn write_err(line: &str) {
    use std::io::Write as _;
    let _ = writeln!(std::io::stderr(), "{line}");
}

mod batch;
mod difficulty;
mod install;
mod print;
mod regenerate;

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

use anyhow::{Context, Result, bail};
use clap::{Args, Parser, Subcommand};

mod shape;

use hedge::carve::{Algorithm, GrowingTreePolicy};
use hedge::design::{Design, Kind, Style, Walls};
use hedge::endpoints::Placement;
use hedge::make::{Fit, Made, Prepared, check_targets, prepare};
use hedge::page::PageSetup;
use hedge::topology::{Coord, TopologyKind};

/// Hedge: turn a silhouette into a print-ready maze.
#[derive(Parser, Debug)]
#[command(
    name = "hedge",
    version,
    about,
    long_about = None,
    args_override_self = true,
    args_conflicts_with_subcommands = true
)]
pub struct Cli {
    /// A file to open in the editor: a design (.toml, or a maze's .json), a book file or a
    /// picture for the shape; without a subcommand or a file, the editor opens empty.
    #[arg(value_name = "FILE")]
    pub file: Option<std::path::PathBuf>,
    /// What to do; without one, the editor opens (help is printed when it is not built in).
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// The subcommands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Make one maze and write it to a file (the extension picks the format).
    Generate(Box<GenerateArgs>),
    /// List the built-in shapes (for `generate --shape NAME`).
    Shapes,
    /// Make a puzzle book (one PDF, per-page SVGs, a manifest) from a book file.
    Batch(batch::BatchArgs),
    /// Print one puzzle of a book again, from the book's manifest.json: the same maze on the
    /// same page, its answer key on the next.
    Regenerate(regenerate::RegenerateArgs),
    /// Print the shell completion script for bash, zsh or fish.
    Completions {
        /// The shell: bash, zsh or fish.
        shell: install::Shell,
    },
    /// Print the manual page, hedge(1), in roff (`hedge man | man -l -`).
    Man,
}

/// `hedge generate`'s flags. Flags override the values of `--design`.
#[derive(Args, Debug, Default)]
pub struct GenerateArgs {
    /// A design file (TOML, as the editor saves it); flags given too override its values.
    #[arg(long, value_name = "FILE")]
    pub design: Option<PathBuf>,
    /// Maze style: walls (cells and walls, every topology) or tiles (hex tiles, open or wall).
    #[arg(long, value_parser = parse_style)]
    pub style: Option<Style>,
    /// Tile Mazer order for --style tiles: 0 (one-tile corridors) or 1 (corridors never side by side).
    #[arg(long, value_name = "N")]
    pub order: Option<u32>,
    /// Grid topology: rect, hex, polar or tri.
    #[arg(long, value_parser = parse_with::<TopologyKind>)]
    pub topology: Option<TopologyKind>,
    /// Cells across (for polar: the number of rings, the centre cell being the first).
    #[arg(long, value_name = "N")]
    pub width: Option<u32>,
    /// Cells down (defaults to the width; ignored for polar).
    #[arg(long, value_name = "N")]
    pub height: Option<u32>,
    /// Carving algorithm (docs/carvers.md describes each).
    #[arg(long, value_parser = parse_with::<Algorithm>)]
    pub algorithm: Option<Algorithm>,
    /// Growing-tree policy: newest, random, oldest or mixed:P (P = share of newest picks).
    #[arg(long, value_name = "POLICY", value_parser = parse_policy)]
    pub growing_tree: Option<GrowingTreePolicy>,
    /// Share of dead ends to remove, 0 (perfect maze) to 1.
    #[arg(long, value_name = "F", allow_negative_numbers = true)]
    pub braid: Option<f64>,
    /// Density of weave crossings, 0 to 1 (rect and hex grids).
    #[arg(long, value_name = "F", allow_negative_numbers = true)]
    pub weave: Option<f64>,
    /// Corridor inset, 0 to 0.3 of the cell on each side (rect and hex; default 0.15 for weave
    /// mazes, so a crossing reads as a bridge, and 0 for the rest).
    #[arg(long, value_name = "F", allow_negative_numbers = true)]
    pub inset: Option<f64>,
    /// How the answer key shows the way under a weave bridge: hidden (the line goes under the
    /// bridge) or dashed (a dashed line across it).
    #[arg(long, value_name = "HOW", value_parser = parse_with::<hedge::design::KeyUnder>)]
    pub key_under: Option<hedge::design::KeyUnder>,
    /// Leave out the "Passages can go under bridges" line on weave puzzle pages.
    #[arg(long)]
    pub no_weave_legend: bool,
    /// Random seed (a random one is drawn and reported when omitted).
    #[arg(long, value_name = "N")]
    pub seed: Option<u64>,
    /// Entrance placement: auto, top-bottom, left-right, or a cell ROW,COL (then give --exit).
    #[arg(long, value_name = "WHERE")]
    pub entrance: Option<String>,
    /// Exit cell ROW,COL, with an explicit --entrance cell.
    #[arg(long, value_name = "ROW,COL", value_parser = parse_coord)]
    pub exit: Option<Coord>,
    /// A "Which path?" puzzle: N entrances (2 to 4) lettered A, B, C, D, only one of them
    /// joined to the finish (1, the default, is an ordinary maze). Not with braid, weave, tiles
    /// or a chosen --entrance.
    #[arg(long, value_name = "N")]
    pub starts: Option<u32>,
    /// A "collect the items" puzzle: N pictures to pick up on the way, spread along the path in
    /// order (the key numbers them), and as many decoys at the far ends of dead ends. Without a
    /// number, the --difficulty preset's count (ages 3-5: 3), else 3. Not with braid, weave or
    /// --starts.
    #[arg(long, value_name = "N", num_args = 0..=1, default_missing_value = "preset")]
    pub collect: Option<String>,
    /// The items' pictures, used in turn: built-in picture names (apple, star, carrot, ...) or
    /// SVG, PNG or JPEG files of your own; apple by default.
    #[arg(long, value_name = "NAME,...", value_delimiter = ',')]
    pub items: Option<Vec<String>>,
    /// A picture revealed by the path: the solution is built through the picture's cells (a
    /// built-in shape, a picture file, or text:WORDS), fitted to the grid as --shape would fit
    /// it, and the answer key shades it; the puzzle page gives no hint. Not with braid, weave,
    /// --starts or a chosen --entrance.
    #[arg(long, value_name = "NAME|PATH|text:WORDS")]
    pub reveal: Option<String>,
    /// Output file, its format by extension: .pdf (the maze, then its answer key), .svg or .png
    /// (the key beside as NAME-key.svg/.png; see --key), .json (the maze graph) or .txt (ASCII,
    /// rect only). A symbolic link is written through (its target gets the file).
    /// Without it, rect mazes are drawn on standard output.
    #[arg(short, long, value_name = "OUT")]
    pub output: Option<PathBuf>,
    /// Also write the design the maze was made from (TOML, as the editor saves it): the seed,
    /// size and carver a --difficulty search found, and the page. `--design FILE.toml` makes the
    /// same maze again (so does `--design maze.json`).
    #[arg(long, value_name = "FILE.toml")]
    pub save_design: Option<PathBuf>,
    /// Page flags for .pdf, .svg and .png output.
    #[command(flatten)]
    pub page: print::PageArgs,
    /// The silhouette flags.
    #[command(flatten)]
    pub shape: shape::ShapeArgs,
    /// The difficulty flags (presets, targets, search budget).
    #[command(flatten)]
    pub difficulty: difficulty::DifficultyArgs,
}

fn parse_with<T: std::str::FromStr<Err = hedge::Error>>(s: &str) -> Result<T, String> {
    s.parse::<T>().map_err(|e| e.message)
}

fn parse_style(s: &str) -> Result<Style, String> {
    s.parse().map_err(|_| "use walls or tiles".into())
}

fn parse_policy(s: &str) -> Result<GrowingTreePolicy, String> {
    if let Ok(plain) = s.parse() {
        return Ok(plain);
    }
    match s.strip_prefix("mixed:").map(str::parse::<f64>) {
        Some(Ok(p)) if (0.0..=1.0).contains(&p) => Ok(GrowingTreePolicy::Mixed(p)),
        _ => Err("use newest, random, oldest or mixed:P with P between 0 and 1".into()),
    }
}

fn parse_coord(s: &str) -> Result<Coord, String> {
    let err = || format!("'{s}' is not a cell; write ROW,COL, e.g. 0,3");
    let (r, c) = s.split_once(',').ok_or_else(err)?;
    Ok(Coord::new(
        r.trim().parse().map_err(|_| err())?,
        c.trim().parse().map_err(|_| err())?,
    ))
}

/// The output formats `generate` writes, picked by extension: the registry the editor exports
/// from too.
pub use hedge::export::Output as OutFormat;

fn out_format(path: &Path) -> Result<OutFormat> {
    let ext = path
        .extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase())
        .unwrap_or_default();
    match ext.as_str() {
        "" => bail!(
            "the output file needs an extension (.json, .txt, .pdf, .svg or .png): {}",
            path.display()
        ),
        other => match OutFormat::from_extension(other) {
            Some(f) => Ok(f),
            None => bail!(
                "unsupported output format '.{other}' (use .json, .txt, .pdf, .svg or .png): {}",
                path.display()
            ),
        },
    }
}

/// The design that `args` describe: the design file's, overridden by flags; and whether the
/// design file gives the grid's height (without one, the height follows the width, or the
/// shape, as it does for `--width` alone).
pub fn design_from_args(args: &GenerateArgs) -> Result<(Design, bool)> {
    let (mut d, file_height) = design_file(args)?;
    // the style first: the knobs below are the walls' or the tiles'
    if let Some(s) = args.style {
        d.set_style(s);
    }
    if d.style() == Style::Tiles {
        check_tile_flags(args)?;
    }
    // a preset next: the flags below override the knobs it sets
    let setup = args.page.setup(&d.page)?;
    if let Some(w) = d.walls_mut() {
        if let Some(t) = args.topology {
            w.topology = t;
        }
        if let Some(n) = args.starts {
            // before the preset, which leaves a "Which path?" puzzle unbraided
            w.starts = n;
        }
        // before the preset too, which leaves a maze with items to collect unbraided
        apply_collect(args, w)?;
        // and the picture to reveal, which keeps it unbraided too
        if let Some(r) = &args.reveal {
            w.reveal = Some(match r.strip_prefix("text:") {
                Some(text) => hedge::shape::ShapeSource::Text {
                    text: text.to_string(),
                    font: hedge::shape::TextFont::default(),
                },
                None => hedge::io::shape_source(r).map_err(|e| anyhow::anyhow!("--reveal: {e}"))?,
            });
        }
    }
    difficulty::apply_preset(&args.difficulty, &mut d);
    apply_knobs(args, &mut d, file_height)?;
    if args.width.is_none() {
        difficulty::size_for_preset(&args.difficulty, &mut d, &setup, args.height.is_some());
    }
    shape::apply(&args.shape, &mut d)?;
    difficulty::apply_targets(&args.difficulty, &mut d)?;
    apply_entrance(args, &mut d)?;
    d.validate()?;
    Ok((d, file_height))
}

/// The design of `--design` (its pictures' paths resolved), or the default design; and
/// whether the file gives the height.
fn design_file(args: &GenerateArgs) -> Result<(Design, bool)> {
    Ok(match &args.design {
        Some(p) => {
            let read = hedge::io::read_design_file(p)?;
            let mut d = read.design;
            // its pictures' paths are relative to it
            d.page.resolve_pictures(p.parent().unwrap_or(Path::new("")));
            (d, read.height_given)
        }
        None => (Design::default(), false),
    })
}

/// Sets the knobs the flags give on `d`: size, seed, and the knobs of its style (for tiles
/// the order, for walls the carver, braid, weave, inset and key). `file_height`: the design
/// file gives the height (which `--width` alone then leaves as it is).
fn apply_knobs(args: &GenerateArgs, d: &mut Design, file_height: bool) -> Result<()> {
    if let Some(w) = args.width {
        d.width = w;
        if args.height.is_none() && !file_height {
            d.height = w;
        }
    }
    if let Some(h) = args.height {
        d.height = h;
    }
    if args.seed.is_some() {
        d.seed = args.seed;
    }
    match &mut d.kind {
        Kind::Tiles(t) => {
            if let Some(o) = args.order {
                t.order = o;
            }
        }
        Kind::Walls(w) => {
            if args.order.is_some() {
                bail!("--order is for tile mazes (--style tiles)");
            }
            apply_walls_knobs(args, w)?;
        }
    }
    Ok(())
}

/// Sets the knobs of a maze of walls the flags give on `w`.
fn apply_walls_knobs(args: &GenerateArgs, w: &mut Walls) -> Result<()> {
    if let Some(t) = args.topology {
        w.topology = t;
    }
    if let Some(a) = args.algorithm {
        w.algorithm = a;
    }
    if let Some(p) = args.growing_tree {
        w.growing_tree = p;
    }
    if let Some(b) = args.braid {
        w.braid = b;
    }
    if let Some(x) = args.weave {
        w.weave = x;
    }
    if let Some(i) = args.inset {
        if i > 0.0 && !hedge::weave::weaves(w.topology) {
            bail!("--inset needs a rect or hex grid of walls");
        }
        w.inset = Some(i);
    }
    if let Some(k) = args.key_under {
        w.key_under = k;
    }
    if args.no_weave_legend {
        w.weave_legend = false;
    }
    Ok(())
}

/// Sets the items to collect from `--collect` (a number, or the preset's count) and `--items`.
fn apply_collect(args: &GenerateArgs, w: &mut Walls) -> Result<()> {
    if let Some(n) = args.collect.as_deref() {
        w.collect = match n {
            "preset" => args.difficulty.difficulty.map_or(3, |p| p.collect),
            n => n.parse().map_err(|_| {
                anyhow::anyhow!("--collect takes a number of items (1 to 12), got '{n}'")
            })?,
        };
    }
    if let Some(items) = &args.items {
        w.items = items.iter().map(|s| s.trim().to_string()).collect();
    }
    Ok(())
}

/// Refuses the flags a tile maze would ignore: tile mazes are hex tiles carved their own way.
fn check_tile_flags(args: &GenerateArgs) -> Result<()> {
    let ignored = [
        (args.weave.is_some(), "--weave"),
        (args.braid.is_some(), "--braid"),
        (args.algorithm.is_some(), "--algorithm"),
        (args.growing_tree.is_some(), "--growing-tree"),
        (args.inset.is_some(), "--inset"),
        (args.key_under.is_some(), "--key-under"),
        (args.no_weave_legend, "--no-weave-legend"),
        (args.starts.is_some_and(|n| n != 1), "--starts"),
        (args.collect.is_some(), "--collect"),
        (args.items.is_some(), "--items"),
        (args.reveal.is_some(), "--reveal"),
        (args.entrance.is_some() || args.exit.is_some(), "--entrance"),
        (
            args.topology
                .is_some_and(|t| t != hedge::topology::TopologyKind::Hex),
            "--topology",
        ),
    ];
    if let Some((_, flag)) = ignored.iter().find(|(given, _)| *given) {
        bail!(
            "{flag} does not apply to tile mazes (--style tiles: hex tiles, carved their own way)"
        );
    }
    Ok(())
}

/// Sets where the maze opens from `--entrance` and `--exit`.
fn apply_entrance(args: &GenerateArgs, d: &mut Design) -> Result<()> {
    let placement = match (args.entrance.as_deref(), args.exit) {
        (None, None) => return Ok(()),
        (Some("auto"), None) => Placement::Auto,
        (Some("top-bottom"), None) => Placement::TopBottom,
        (Some("left-right"), None) => Placement::LeftRight,
        (Some(s), Some(exit)) if s.contains(',') => {
            let entrance = parse_coord(s).map_err(anyhow::Error::msg)?;
            Placement::Cells { entrance, exit }
        }
        (Some(s), None) if s.contains(',') => bail!("an entrance cell needs an --exit cell too"),
        (Some(s), _) if !s.contains(',') && args.exit.is_some() => {
            bail!("--exit goes with an entrance cell (--entrance ROW,COL)")
        }
        (None, Some(_)) => bail!("--exit goes with an entrance cell (--entrance ROW,COL)"),
        (Some(s), _) => {
            bail!("unknown entrance '{s}' (use auto, top-bottom, left-right or ROW,COL)")
        }
    };
    // a tile maze's entrance flags were refused with the other walls flags
    if let Some(w) = d.walls_mut() {
        w.placement = placement;
    }
    Ok(())
}

/// Runs `hedge generate`: the design from the flags, then [`hedge::make::prepare`] and
/// [`hedge::make::Prepared::make`] (or its search), then the output, whatever the style.
/// With a shape, a tile maze fills the tiles the shape covers (fitted as on a hex grid, whose
/// geometry the tiles share; see `hedge::tiles::region`).
pub fn run_generate(args: &GenerateArgs) -> Result<()> {
    let (design, file_height) = design_from_args(args)?;
    let format = args.output.as_deref().map(out_format).transpose()?;
    if args.page.key.is_some() && !matches!(format, Some(OutFormat::Print(_))) {
        bail!("--key goes with a page output (-o NAME.pdf, .svg or .png)");
    }
    check_targets(&design)?;
    let (setup, strings_warning) = args.page.setup_warned(&design.page)?;
    let prepared = prepare_design(args, &design, file_height, &setup)?;
    if let Some(w) = strings_warning {
        say!("warning: {w}");
    }
    for note in prepared.notes() {
        say!("note: {note}");
    }
    for warning in prepared.warnings() {
        say!("warning: {warning}");
    }
    // a page too fine to print is refused from the grid's size, before it is carved
    if matches!(format, Some(OutFormat::Print(_))) {
        prepared.check_page(&setup)?;
    }
    // test hook, in debug builds only: the run stops where the maze would be made
    #[cfg(debug_assertions)]
    if std::env::var_os("HEDGE_TEST_NO_MAZE").is_some() {
        bail!("HEDGE_TEST_NO_MAZE: the maze would be made here");
    }
    let made = make_maze(args, prepared)?;
    write_maze(args, &made, format, &setup)?;
    // the design as made, once the maze is written
    if let Some(path) = &args.save_design {
        let found = Design {
            page: setup.clone(),
            ..made.design().clone()
        };
        hedge::io::write_atomic(path, hedge::io::design_to_toml(&found).as_bytes())?;
    }
    Ok(())
}

/// Prepares `design` on the page `setup`: its shape decoded and fitted, the height following
/// the shape unless the flags or the design file give it (`file_height`).
fn prepare_design(
    args: &GenerateArgs,
    design: &Design,
    file_height: bool,
    setup: &PageSetup,
) -> Result<Prepared> {
    // with a shape, the height follows its aspect ratio unless given (or kept from a design
    // file that gives it); a preset's grid (sized for its corridor width when no width is
    // given) is the limit, so a shape taller than the page gets fewer cells across
    let height = args.height.is_none()
        && (!file_height
            || args.width.is_some()
            || args.shape.shape.is_some()
            || args.shape.text.is_some());
    let preset_sized = args.difficulty.difficulty.is_some() && args.width.is_none();
    let fit = Fit {
        height,
        size_limit: preset_sized.then_some((design.width, design.height)),
    };
    // a relative shape path in a design file is relative to that file
    let base = match args.shape.shape {
        None if args.shape.text.is_none() => args.design.as_deref().and_then(Path::parent),
        _ => None,
    };
    let mut prepared = prepare(design, &hedge::io::Files, base, fit)?;
    // a preset's shape: the largest grid of its aspect the page holds (on an auto page, of
    // whichever orientation holds more cells)
    if let (Some(p), true, Some(fg)) = (
        args.difficulty.difficulty,
        preset_sized && height,
        prepared.foreground(),
    ) {
        let p = p.for_inset(design.inset_share(), setup.wall_mm);
        let limit = hedge::sizing::preset_limit(&p, design.grid_topology(), setup, fg)?;
        if Some(limit) != fit.size_limit {
            prepared = prepared.refitted(limit.0, limit)?;
        }
    }
    Ok(prepared)
}

/// Makes the maze, or searches for one that meets the design's targets (unless `--no-search`),
/// reporting on the targets.
fn make_maze(args: &GenerateArgs, prepared: Prepared) -> Result<Made> {
    Ok(if prepared.design().targets.is_empty() {
        prepared.make()?
    } else if args.difficulty.no_search {
        let made = prepared.make()?;
        if let Some(r) = made.report() {
            for l in difficulty::report_unsearched(&r).lines() {
                say!("{l}");
            }
        }
        made
    } else {
        let options = args.difficulty.options();
        let bar = difficulty::SearchBar::new();
        let found = prepared.search(&options, &AtomicBool::new(false), &mut |p| bar.update(p));
        bar.finish();
        let found = found?;
        for l in difficulty::report(&found).lines() {
            say!("{l}");
        }
        say!(
            "the same maze again: add {} to this command (or keep its design with --save-design \
             FILE.toml)",
            difficulty::recipe(&found.generated.design)
        );
        Made::from(found)
    })
}

/// Writes the maze to `-o` in its `format`, or draws it on standard output, and says where it
/// went.
fn write_maze(
    args: &GenerateArgs,
    made: &Made,
    format: Option<OutFormat>,
    setup: &PageSetup,
) -> Result<()> {
    let line = made.summary();
    match (&args.output, format) {
        (Some(path), Some(OutFormat::Json)) => {
            hedge::io::write_atomic_with(path, |w| made.write_json(w))?;
            say!("{line} -> {}", path.display());
        }
        (Some(path), Some(OutFormat::Print(f))) => {
            let written = print::write_pages(
                made,
                setup,
                args.page.output_format(f)?,
                args.page.key.unwrap_or_default(),
                path,
                args.page.strict,
            )?;
            let names: Vec<String> = written.iter().map(|p| p.display().to_string()).collect();
            say!("{line} -> {}", names.join(", "));
        }
        (Some(path), Some(OutFormat::Txt)) => {
            hedge::io::write_atomic(path, made.text()?.as_bytes())?;
            say!("{line} -> {}", path.display());
        }
        _ if made.has_text() => {
            write_out(&made.text()?)?;
            say!("{line}");
        }
        _ => write_out(&format!("{line}\n"))?,
    }
    Ok(())
}

/// Writes `text` to standard output. A reader that closed the pipe (`hedge ... | head`) ends
/// the program quietly with exit status 0, as Unix tools do; any other failure (a full disk,
/// `>/dev/full`, standard output closed with `>&-`) is an error, so nothing is reported as
/// written that was not.
pub fn write_out(text: &str) -> Result<()> {
    use std::io::Write as _;
    let cannot = |e: std::io::Error| {
        // the OS message without its "(os error N)" tail
        let msg = e.to_string();
        let msg = msg.split(" (os error").next().unwrap_or(&msg).to_string();
        anyhow::anyhow!("cannot write to standard output: {msg}")
    };
    if stdout_was_closed() {
        return Err(anyhow::anyhow!(
            "cannot write to standard output: it is closed"
        ));
    }
    let mut out = std::io::stdout().lock();
    let written = out.flush().and_then(|()| {
        // the standard library takes a closed standard output for one that swallows
        // everything; a copy of its descriptor says whether it is open, and writes to it
        // report every failure
        #[cfg(unix)]
        {
            use std::os::fd::AsFd as _;
            let fd = out.as_fd().try_clone_to_owned()?;
            let mut file = std::fs::File::from(fd);
            file.write_all(text.as_bytes()).and_then(|()| file.flush())
        }
        #[cfg(not(unix))]
        {
            out.write_all(text.as_bytes()).and_then(|()| out.flush())
        }
    });
    match written {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => std::process::exit(0),
        Err(e) => Err(cannot(e)),
    }
}

/// Whether standard output was closed when the program started (`hedge man >&-`). The Rust
/// runtime puts `/dev/null` there, opened for reading and writing, so that writes vanish
/// without an error; a shell's `>/dev/null` opens it for writing only, which stays a place to
/// write to. (Linux, where `/proc` says how a descriptor was opened; elsewhere, never.)
fn stdout_was_closed() -> bool {
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::fs::{FileTypeExt as _, MetadataExt as _};
        let Ok(info) = std::fs::read_to_string("/proc/self/fdinfo/1") else {
            return false;
        };
        let flags = info
            .lines()
            .find_map(|l| l.strip_prefix("flags:"))
            .and_then(|f| u32::from_str_radix(f.trim(), 8).ok());
        // O_ACCMODE is 3, O_RDWR 2
        if flags.is_none_or(|f| f & 3 != 2) {
            return false;
        }
        match (
            std::fs::metadata("/dev/null"),
            std::fs::metadata("/proc/self/fd/1"),
        ) {
            (Ok(null), Ok(out)) => out.file_type().is_char_device() && out.rdev() == null.rdev(),
            _ => false,
        }
    }
    #[cfg(not(target_os = "linux"))]
    {
        false
    }
}

/// What to do with a command line clap could not take as it is: print the help or the
/// version it asks for on standard output (`hedge --help`, `hedge generate --help`, `hedge
/// --version`), or a usage error in one line ([`usage_line`]). Returns the exit status.
pub fn refused(e: &clap::Error) -> std::process::ExitCode {
    use clap::error::ErrorKind;
    if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) {
        // styled as clap styles it on a terminal, plain text into a file or a pipe
        use std::io::IsTerminal as _;
        let text = match std::io::stdout().is_terminal() {
            true => e.render().ansi().to_string(),
            false => e.render().to_string(),
        };
        return match write_out(&text) {
            Ok(()) => std::process::ExitCode::SUCCESS,
            Err(e) => {
                say_line(&format!("error: {e}"));
                std::process::ExitCode::FAILURE
            }
        };
    }
    say_line(&usage_line(&e.render().to_string(), &subcommand()));
    std::process::ExitCode::from(2)
}

/// The command the arguments name: `hedge` and its subcommand when the first argument is one
/// (`hedge batch`), for where its help is.
fn subcommand() -> String {
    use clap::CommandFactory as _;
    let first = std::env::args_os().nth(1);
    let name = first
        .as_ref()
        .and_then(|a| a.to_str())
        .filter(|a| Cli::command().get_subcommands().any(|s| s.get_name() == *a));
    match name {
        Some(sub) => format!("hedge {sub}"),
        None => "hedge".into(),
    }
}

/// clap's usage error (`error: ...`, the values or arguments it lists, tips, the usage and
/// "For more information, try '--help'.") as one line: the error, the list joined by commas,
/// the tips, then where the help of `command` is (the usage's own command when it names one),
/// e.g. `error: the following required arguments were not provided: --output <OUTDIR>,
/// <BOOK.toml>; try 'hedge batch --help'`.
pub fn usage_line(rendered: &str, command: &str) -> String {
    let mut lines = rendered.lines();
    let first = lines.next().unwrap_or("").trim();
    let mut line = first
        .strip_prefix("error:")
        .unwrap_or(first)
        .trim()
        .to_string();
    let (mut items, mut tips) = (Vec::new(), Vec::new());
    let mut command = command.to_string();
    let mut in_usage = false;
    for l in lines {
        let t = l.trim();
        if t.is_empty() {
            in_usage = false;
        } else if let Some(usage) = t.strip_prefix("Usage:") {
            in_usage = true;
            // the command's name: the words before its arguments
            let words: Vec<&str> = usage
                .split_whitespace()
                .take_while(|w| !w.starts_with(['<', '[', '-']))
                .collect();
            if !words.is_empty() {
                command = words.join(" ");
            }
        } else if let Some(tip) = t.strip_prefix("tip:") {
            tips.push(tip.trim().to_string());
        } else if !in_usage && !t.starts_with("For more information") && l.starts_with(' ') {
            items.push(t.to_string());
        }
    }
    if !items.is_empty() {
        let colon = if line.ends_with(':') { "" } else { ":" };
        line = format!("{line}{colon} {}", items.join(", "));
    }
    for tip in tips {
        line.push_str(&format!("; {tip}"));
    }
    format!("error: {line}; try '{command} --help'")
}

/// Runs the command line; returns the process exit code.
pub fn main_with(cli: Cli) -> Result<()> {
    match cli.command {
        Some(Command::Generate(args)) => run_generate(&args).context("generate"),
        Some(Command::Shapes) => shape::run_shapes(),
        Some(Command::Batch(args)) => batch::run_batch(&args).context("batch"),
        Some(Command::Regenerate(args)) => regenerate::run_regenerate(&args).context("regenerate"),
        Some(Command::Completions { shell }) => install::run_completions(shell),
        Some(Command::Man) => install::run_man(),
        None if cli.file.is_some() => anyhow::bail!(
            "this hedge has no editor (built without the `gui` feature) to open {}: use `hedge \
             generate --design FILE -o maze.pdf`",
            cli.file.unwrap_or_default().display()
        ),
        None => {
            use clap::CommandFactory;
            write_out(&format!("{}\n", Cli::command().render_help()))
        }
    }
}
