//! The command line's difficulty flags: `--difficulty PRESET`, `--target-*` ranges, `--budget`,
//! and the search report printed on standard error.

use anyhow::Result;
use clap::Args;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use hedge::design::Design;
use hedge::difficulty::{
    Budget, Found, Metric, Preset, Progress, Range, Report, SearchOptions, Stop, preset,
    preset_names,
};
use hedge::page::PageSetup;

/// The difficulty flags of `hedge generate`.
#[derive(Args, Debug, Default)]
pub struct DifficultyArgs {
    /// A reader preset: easy, medium, hard, expert, or ages-3-5, ages-6-8, ages-9-12, adult.
    /// Sets the carver, braid, targets and (unless --width is given) the cell count that keeps
    /// the preset's corridor width on the page; other flags override it.
    #[arg(long, value_name = "PRESET", value_parser = parse_preset)]
    pub difficulty: Option<&'static Preset>,
    /// Target range for the difficulty score: A..B, A.. or ..B.
    #[arg(long, value_name = "A..B", value_parser = parse_range)]
    pub target_score: Option<Range>,
    /// Target range for the solution ratio (solution cells / cells, 0 to 1).
    #[arg(long, value_name = "A..B", value_parser = parse_range)]
    pub target_ratio: Option<Range>,
    /// Target range for the branching factor along the solution (side branches per path cell).
    #[arg(long, value_name = "A..B", value_parser = parse_range)]
    pub target_branching: Option<Range>,
    /// Target range for the number of dead ends.
    #[arg(long, value_name = "A..B", value_parser = parse_range)]
    pub target_dead_ends: Option<Range>,
    /// Target range for the deepest dead end (steps from the solution path).
    #[arg(long, value_name = "A..B", value_parser = parse_range)]
    pub target_depth: Option<Range>,
    /// Target range for the decision points on the solution (where a wrong turn is possible).
    #[arg(long, value_name = "A..B", value_parser = parse_range)]
    pub target_decisions: Option<Range>,
    /// How long the search for a maze meeting the targets may go on: N candidates (the same
    /// result on every machine) or Ns seconds (e.g. 2s). Default: 2000 candidates, fewer past
    /// 40,000 cells (2000 x 40,000 / cells: 320 on a 500x500 grid, at least 64).
    #[arg(long, value_name = "N|Ns", value_parser = super::parse_with::<Budget>)]
    pub budget: Option<Budget>,
    /// Let the search try other entrance and exit pairs on the outline.
    #[arg(long)]
    pub vary_endpoints: bool,
    /// Let the search try the other carvers that run on the topology.
    #[arg(long)]
    pub vary_carver: bool,
    /// Make the design's maze as it is (its seed) and report it against the targets, without
    /// searching.
    #[arg(long)]
    pub no_search: bool,
}

fn parse_preset(s: &str) -> Result<&'static Preset, String> {
    preset(s).ok_or_else(|| format!("unknown difficulty '{s}' (use one of: {})", preset_names()))
}

fn parse_range(s: &str) -> Result<Range, String> {
    s.parse::<Range>().map_err(|e| e.message)
}

impl DifficultyArgs {
    /// The search options the flags describe.
    pub fn options(&self) -> SearchOptions {
        SearchOptions {
            budget: self.budget,
            vary_endpoints: self.vary_endpoints,
            vary_carver: self.vary_carver,
        }
    }

    /// Whether any flag asks for a search setting (so a design without targets can be told).
    fn search_flags(&self) -> bool {
        self.budget.is_some() || self.vary_endpoints || self.vary_carver
    }
}

/// Applies the preset (before the other flags, which override it) to `d`: carver, braid,
/// targets.
pub fn apply_preset(args: &DifficultyArgs, d: &mut Design) {
    if let Some(p) = args.difficulty {
        p.apply(d);
    }
}

/// The grid size for the page `setup` of the preset, once the other flags are set (the
/// topology, and a weave whose inset corridors the cells must widen for: [`Preset::for_inset`]):
/// the width, and the height unless `height_given`.
pub fn size_for_preset(
    args: &DifficultyArgs,
    d: &mut Design,
    setup: &PageSetup,
    height_given: bool,
) {
    if let Some(p) = args.difficulty {
        let p = p.for_inset(d.inset_share(), setup.wall_mm);
        let (w, h) = hedge::sizing::page_grid(&p, d.walls().topology, setup);
        d.width = w;
        if !height_given {
            d.height = h;
        }
    }
}

/// Applies the `--target-*` flags to `d` (over the preset's and the design file's targets).
pub fn apply_targets(args: &DifficultyArgs, d: &mut Design) -> Result<()> {
    for (metric, range) in [
        (Metric::Score, args.target_score),
        (Metric::Ratio, args.target_ratio),
        (Metric::Branching, args.target_branching),
        (Metric::DeadEnds, args.target_dead_ends),
        (Metric::Depth, args.target_depth),
        (Metric::Decisions, args.target_decisions),
    ] {
        if range.is_some() {
            d.targets.set(metric, range);
        }
    }
    if d.targets.is_empty() && args.search_flags() {
        anyhow::bail!(
            "--budget, --vary-endpoints and --vary-carver need difficulty targets (--difficulty or \
             --target-score and the like)"
        );
    }
    Ok(())
}

/// The search's report for standard error: a headline, then one line per metric.
pub fn report(found: &Found) -> String {
    let secs = found.elapsed.as_secs_f64();
    let tried = found.tried;
    let head = match found.stop {
        Stop::Met if tried == 0 => "difficulty targets: met".to_string(),
        Stop::Met => format!(
            "difficulty targets: met by candidate {} ({} tried in {secs:.2} s, seed {})",
            found.candidate, tried, found.generated.seed
        ),
        Stop::TooSmall => format!(
            "difficulty targets: NOT MET, the maze is too small; the rest met by candidate {} \
             ({} tried in {secs:.2} s, seed {})",
            found.candidate, tried, found.generated.seed
        ),
        Stop::Budget | Stop::Cancelled => {
            let missed: Vec<&str> = found.report.missed().map(|r| r.metric.name()).collect();
            format!(
                "difficulty targets: NOT MET after {tried} candidates ({secs:.2} s, budget {}); \
                 the closest, candidate {} (seed {}, distance {:.3}), misses {}",
                found.budget,
                found.candidate,
                found.generated.seed,
                found.report.distance,
                missed.join(", ")
            )
        }
    };
    format!("{head}\n{}{}", found.report, too_small(&found.report))
}

/// The flags that, added to the command that ran a search, make its maze again without
/// searching: the seed, size, carver (and growing-tree policy), braid and placement the search
/// wrote into `d`, and `--no-search`.
pub fn recipe(d: &Design) -> String {
    use hedge::carve::GrowingTreePolicy;
    use hedge::design::Style;
    use hedge::endpoints::Placement;
    let mut f = vec![format!("--seed {}", d.seed.unwrap_or_default())];
    f.push(format!("--width {}", d.width));
    if d.grid_topology().uses_height() {
        f.push(format!("--height {}", d.height));
    }
    if d.style() == Style::Walls {
        f.push(format!("--algorithm {}", d.walls().algorithm.name()));
        if d.walls().algorithm.name() == "growing-tree" {
            f.push(match d.walls().growing_tree {
                GrowingTreePolicy::Newest => "--growing-tree newest".into(),
                GrowingTreePolicy::Random => "--growing-tree random".into(),
                GrowingTreePolicy::Oldest => "--growing-tree oldest".into(),
                GrowingTreePolicy::Mixed(p) => format!("--growing-tree mixed:{p}"),
            });
        }
        f.push(format!("--braid {}", d.walls().braid));
    }
    match d.walls().placement {
        Placement::Auto => {}
        Placement::TopBottom => f.push("--entrance top-bottom".into()),
        Placement::LeftRight => f.push("--entrance left-right".into()),
        Placement::Cells { entrance, exit } => f.push(format!(
            "--entrance {},{} --exit {},{}",
            entrance.row, entrance.col, exit.row, exit.col
        )),
    }
    f.push("--no-search".into());
    f.join(" ")
}

/// A hint when the maze has fewer cells than its level needs: how small, and what to change.
fn too_small(r: &Report) -> String {
    match r.too_small() {
        Some((cells, min)) => format!(
            "\nthe maze is too small for this level: {cells} cells, the level needs at least {min}; \
             give a larger --width, a bigger --paper, or an easier --difficulty"
        ),
        None => String::new(),
    }
}

/// The report of a maze made without searching.
pub fn report_unsearched(r: &Report) -> String {
    let head = if r.met() {
        "difficulty targets: met (no search)".to_string()
    } else {
        let missed: Vec<&str> = r.missed().map(|x| x.metric.name()).collect();
        format!(
            "difficulty targets: NOT MET (no search; distance {:.3}), misses {}",
            r.distance,
            missed.join(", ")
        )
    };
    format!("{head}\n{r}{}", too_small(r))
}

/// The search's progress on standard error: a bar drawn only when standard error is a terminal
/// (indicatif's stderr target checks), so scripts and pipes see just the final report.
pub struct SearchBar(ProgressBar);

impl SearchBar {
    /// A bar for a search whose progress is reported as a fraction of its budget.
    pub fn new() -> SearchBar {
        let bar = ProgressBar::with_draw_target(Some(1000), ProgressDrawTarget::stderr());
        if let Ok(style) =
            ProgressStyle::with_template("searching {bar:30} {msg}, {elapsed} (about {eta} left)")
        {
            bar.set_style(style);
        }
        SearchBar(bar)
    }

    /// Shows `p`: the share of the budget spent, candidates tried and the best distance so far.
    pub fn update(&self, p: &Progress) {
        self.0
            .set_position((p.fraction.clamp(0.0, 1.0) * 1000.0) as u64);
        let best = p
            .best
            .map_or_else(|| "none yet".to_string(), |(_, d)| format!("{d:.3}"));
        self.0
            .set_message(format!("{} candidates, closest distance {best}", p.tried));
    }

    /// Removes the bar (before the report is printed).
    pub fn finish(&self) {
        self.0.finish_and_clear();
    }
}
