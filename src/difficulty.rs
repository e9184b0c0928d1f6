//! Difficulty targets: ranges on the measured metrics ([`Targets`], saved in the design), the
//! reader presets that set several knobs together ([`PRESETS`]), and the [`search`] that makes
//! candidate mazes in parallel until one meets every target or the budget is spent.
//!
//! ## Reproducibility
//!
//! Candidate `k` is a pure function of the design and `k`: candidate 0 is the design itself (its
//! seed, carver and entrance placement); candidate `k > 0` takes the seed `mix(base seed, k)`
//! and, when allowed, a carver and an entrance/exit pair drawn from a generator seeded the same
//! way. Candidates are evaluated in batches of a fixed size (set by the cell count, never by the
//! thread count); after each batch the lowest `k` that meets every target wins, otherwise the
//! search goes on, keeping the best by (distance, k). So one thread and sixteen give the same
//! maze. A candidate budget (`--budget 500`) is fully reproducible; a time budget (`--budget 2s`)
//! is reproducible when a candidate meets the targets in time, but when none does, how many
//! batches fit in the time, and so the best found, depends on the machine's speed and load.
//!
//! ## Distance to the targets
//!
//! For each targeted metric, the shortfall is how far the value lies outside its range (0
//! inside), divided by the bound it misses (at least a small floor per metric: 1 for the score,
//! the dead-end count and the depth, 0.01 for the ratio and the branching factor). The distance
//! is the sum of these relative shortfalls, so missing "score 60.." by 6 points (0.1) weighs the
//! same as missing "ratio ..0.2" by 0.02. A maze meets the targets when its distance is 0.

use std::fmt;
use std::str::FromStr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::carve::{Algorithm, CARVERS};
use crate::design::{Design, MAX_SEED, Style};
use crate::endpoints::{Placement, outline};
use crate::error::{Error, Result};
use crate::grid::Grid;
use crate::mask::Mask;
use crate::metrics::Metrics;
use crate::page::PageSetup;
use crate::pipeline::{Generated, build_grid, edited_mask, generate_on};
use crate::random::{MazeRng, Random, fresh_seed};
use crate::shape::{Foreground, fitted_height};
use crate::topology::{Topology, TopologyKind};

// ---------------------------------------------------------------------------------------------
// ranges and targets

/// A range `min..max` (both ends included), either end optional. Written `A..B`, `A..` or
/// `..B` (and a single number `A` for `A..A`) in design files and on the command line.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct Range {
    /// The smallest value accepted.
    pub min: Option<f64>,
    /// The largest value accepted.
    pub max: Option<f64>,
}

impl Range {
    /// The range `min..max`.
    pub const fn new(min: Option<f64>, max: Option<f64>) -> Range {
        Range { min, max }
    }

    /// How far `v` lies outside the range: negative below `min`, positive above `max`, 0 inside.
    pub fn off(&self, v: f64) -> f64 {
        match (self.min, self.max) {
            (Some(lo), _) if v < lo => v - lo,
            (_, Some(hi)) if v > hi => v - hi,
            _ => 0.0,
        }
    }

    /// Whether `v` lies in the range.
    pub fn contains(&self, v: f64) -> bool {
        self.off(v) == 0.0
    }

    /// The bound `v` misses (`None` inside the range).
    fn missed_bound(&self, v: f64) -> Option<f64> {
        let off = self.off(v);
        if off < 0.0 {
            self.min
        } else if off > 0.0 {
            self.max
        } else {
            None
        }
    }
}

impl fmt::Display for Range {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(lo) = self.min {
            write!(f, "{lo}")?;
        }
        f.write_str("..")?;
        if let Some(hi) = self.max {
            write!(f, "{hi}")?;
        }
        Ok(())
    }
}

impl FromStr for Range {
    type Err = Error;
    fn from_str(s: &str) -> Result<Range> {
        let err = || {
            Error::option(format!(
                "'{s}' is not a range; write MIN..MAX, MIN.. or ..MAX (e.g. 40..60)"
            ))
        };
        let num = |t: &str| -> Result<Option<f64>> {
            let t = t.trim();
            if t.is_empty() {
                return Ok(None);
            }
            match t.parse::<f64>() {
                Ok(v) if v.is_finite() => Ok(Some(v)),
                _ => Err(err()),
            }
        };
        let r = match s.split_once("..") {
            Some((a, b)) => Range::new(num(a)?, num(b)?),
            None => {
                let v = num(s)?.ok_or_else(err)?;
                Range::new(Some(v), Some(v))
            }
        };
        match (r.min, r.max) {
            (None, None) => Err(err()),
            (Some(lo), Some(hi)) if lo > hi => Err(Error::option(format!(
                "the range '{s}' is empty: its minimum is above its maximum"
            ))),
            _ => Ok(r),
        }
    }
}

impl TryFrom<String> for Range {
    type Error = String;
    fn try_from(s: String) -> std::result::Result<Range, String> {
        s.parse().map_err(|e: Error| e.message)
    }
}

impl From<Range> for String {
    fn from(r: Range) -> String {
        r.to_string()
    }
}

/// The metrics a target can be set on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Metric {
    /// The difficulty score ([`Metrics::difficulty`]).
    Score,
    /// Solution length over cells ([`Metrics::solution_ratio`]).
    Ratio,
    /// Side branches per solution cell ([`Metrics::branching_factor`]).
    Branching,
    /// Dead ends ([`Metrics::dead_ends`]).
    DeadEnds,
    /// The deepest dead end's distance from the solution ([`crate::metrics::DepthStats::max`]).
    Depth,
}

impl Metric {
    /// Every metric, in report order.
    pub const ALL: [Metric; 5] = [
        Metric::Score,
        Metric::Ratio,
        Metric::Branching,
        Metric::DeadEnds,
        Metric::Depth,
    ];

    /// The short name, as in `--target-NAME` and the JSON.
    pub fn name(self) -> &'static str {
        match self {
            Metric::Score => "score",
            Metric::Ratio => "ratio",
            Metric::Branching => "branching",
            Metric::DeadEnds => "dead-ends",
            Metric::Depth => "depth",
        }
    }

    /// A label for people.
    pub fn label(self) -> &'static str {
        match self {
            Metric::Score => "difficulty score",
            Metric::Ratio => "solution ratio",
            Metric::Branching => "branching factor",
            Metric::DeadEnds => "dead ends",
            Metric::Depth => "deepest dead end",
        }
    }

    /// This metric's value in `m`.
    pub fn value(self, m: &Metrics) -> f64 {
        match self {
            Metric::Score => m.difficulty,
            Metric::Ratio => m.solution_ratio,
            Metric::Branching => m.branching_factor,
            Metric::DeadEnds => m.dead_ends as f64,
            Metric::Depth => f64::from(m.dead_end_depths.max),
        }
    }

    /// Whether the metric counts things (shown without decimals).
    pub fn is_count(self) -> bool {
        matches!(self, Metric::DeadEnds | Metric::Depth)
    }

    /// The smallest scale a shortfall is measured against (see the module documentation).
    fn floor(self) -> f64 {
        match self {
            Metric::Ratio | Metric::Branching => 0.01,
            _ => 1.0,
        }
    }

    /// `v` formatted for a report.
    pub fn format(self, v: f64) -> String {
        match self {
            _ if self.is_count() => format!("{v:.0}"),
            Metric::Score => format!("{v:.1}"),
            _ => format!("{v:.3}"),
        }
    }
}

/// Ranges the measured maze should fall in; every one is optional. Saved in the design as the
/// `[targets]` table (e.g. `score = "60..80"`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Targets {
    /// The difficulty score.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub score: Option<Range>,
    /// The solution ratio (solution cells over cells, 0 to 1).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ratio: Option<Range>,
    /// The branching factor along the solution (side branches per path cell).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub branching: Option<Range>,
    /// The number of dead ends.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dead_ends: Option<Range>,
    /// The deepest dead end (steps from the solution path).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub depth: Option<Range>,
}

impl Targets {
    /// No target at all.
    pub const NONE: Targets = Targets {
        score: None,
        ratio: None,
        branching: None,
        dead_ends: None,
        depth: None,
    };

    /// Whether no target is set.
    pub fn is_empty(&self) -> bool {
        Metric::ALL.iter().all(|&m| self.get(m).is_none())
    }

    /// The target on `metric`.
    pub fn get(&self, metric: Metric) -> Option<Range> {
        match metric {
            Metric::Score => self.score,
            Metric::Ratio => self.ratio,
            Metric::Branching => self.branching,
            Metric::DeadEnds => self.dead_ends,
            Metric::Depth => self.depth,
        }
    }

    /// Sets (or clears) the target on `metric`.
    pub fn set(&mut self, metric: Metric, range: Option<Range>) {
        let slot = match metric {
            Metric::Score => &mut self.score,
            Metric::Ratio => &mut self.ratio,
            Metric::Branching => &mut self.branching,
            Metric::DeadEnds => &mut self.dead_ends,
            Metric::Depth => &mut self.depth,
        };
        *slot = range;
    }

    /// The distance from `m` to the targets: the sum of relative shortfalls (see the module
    /// documentation); 0 when every target is met.
    pub fn distance(&self, m: &Metrics) -> f64 {
        Metric::ALL
            .iter()
            .filter_map(|&metric| {
                let r = self.get(metric)?;
                let v = metric.value(m);
                let bound = r.missed_bound(v)?;
                Some(r.off(v).abs() / bound.abs().max(metric.floor()))
            })
            .sum()
    }

    /// Checks the ranges against what the metrics can be (e.g. a ratio above 1).
    pub fn validate(&self) -> Result<()> {
        for metric in Metric::ALL {
            let Some(r) = self.get(metric) else { continue };
            let (lo, hi) = match metric {
                Metric::Ratio => (0.0, 1.0),
                _ => (0.0, f64::INFINITY),
            };
            for v in [r.min, r.max].into_iter().flatten() {
                if !v.is_finite() || v < lo || v > hi {
                    return Err(Error::option(format!(
                        "the {} target {r} is out of bounds ({} can be {lo} to {})",
                        metric.name(),
                        metric.label(),
                        if hi.is_finite() {
                            hi.to_string()
                        } else {
                            "any size".into()
                        }
                    )));
                }
            }
            if let (Some(a), Some(b)) = (r.min, r.max)
                && a > b
            {
                return Err(Error::option(format!(
                    "the {} target {r} is empty",
                    metric.name()
                )));
            }
        }
        Ok(())
    }
}

// ---------------------------------------------------------------------------------------------
// the report

/// One metric against its target.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// Which metric.
    pub metric: Metric,
    /// Its measured value.
    pub value: f64,
    /// The target, if one is set.
    pub target: Option<Range>,
    /// How far outside the target the value is: negative below, positive above, 0 when met
    /// (or without a target).
    pub off: f64,
}

impl Row {
    /// Whether the target is met (always true without a target).
    pub fn met(&self) -> bool {
        self.off == 0.0
    }
}

/// Every metric of a maze against its target.
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    /// One row per metric, in [`Metric::ALL`] order.
    pub rows: Vec<Row>,
    /// The distance to the targets ([`Targets::distance`]).
    pub distance: f64,
}

impl Report {
    /// The report of metrics `m` against `targets`.
    pub fn new(targets: &Targets, m: &Metrics) -> Report {
        let rows = Metric::ALL
            .iter()
            .map(|&metric| {
                let value = metric.value(m);
                let target = targets.get(metric);
                Row {
                    metric,
                    value,
                    target,
                    off: target.map_or(0.0, |r| r.off(value)),
                }
            })
            .collect();
        Report {
            rows,
            distance: targets.distance(m),
        }
    }

    /// Whether every target is met.
    pub fn met(&self) -> bool {
        self.rows.iter().all(Row::met)
    }

    /// The rows whose target is missed.
    pub fn missed(&self) -> impl Iterator<Item = &Row> {
        self.rows.iter().filter(|r| !r.met())
    }

    /// The row of `metric`.
    pub fn row(&self, metric: Metric) -> &Row {
        &self.rows[Metric::ALL
            .iter()
            .position(|&m| m == metric)
            .expect("every metric has a row")]
    }
}

impl fmt::Display for Report {
    /// One line per metric: label, value, target, and "met" or how far off.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, r) in self.rows.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            let m = r.metric;
            let verdict = match r.target {
                None => "no target".to_string(),
                Some(_) if r.met() => "met".to_string(),
                Some(_) => format!(
                    "MISSED: {} {}",
                    m.format(r.off.abs()),
                    if r.off < 0.0 { "too low" } else { "too high" }
                ),
            };
            write!(
                f,
                "  {:<17} {:>9}   target {:<12} {verdict}",
                m.label(),
                m.format(r.value),
                r.target.map_or("-".to_string(), |t| t.to_string()),
            )?;
        }
        Ok(())
    }
}

// ---------------------------------------------------------------------------------------------
// presets

/// A reader preset: several knobs set together. See [`PRESETS`].
#[derive(Clone, Debug, PartialEq)]
pub struct Preset {
    /// The name on the command line (`--difficulty NAME`).
    pub name: &'static str,
    /// A label for people.
    pub label: &'static str,
    /// Other names for it (`easy`, `medium`, `hard`).
    pub aliases: &'static [&'static str],
    /// The clear corridor width on paper, in millimetres: big for small hands and fat pencils.
    pub corridor_mm: f64,
    /// The carver.
    pub algorithm: Algorithm,
    /// The share of dead ends removed (loops make a maze forgiving).
    pub braid: f64,
    /// What the search aims for.
    pub targets: Targets,
}

const fn range(min: Option<f64>, max: Option<f64>) -> Option<Range> {
    Some(Range::new(min, max))
}

/// The presets, easiest first. The corridor width sets the cell count for the page
/// ([`Preset::grid_size`]). The targets were calibrated on 50 unsearched mazes per preset at
/// that size on a Letter page and inside the built-in heart (about half the cells, about 10
/// points less score; the README's Difficulty section has the figures): the young presets cap the
/// score near the middle of their page's spread and keep dead ends shallow; the older ones set
/// floors every full-page maze meets and that turn away the easiest mazes inside a shape. The
/// search meets every preset within one or two batches on both. A much smaller grid than the
/// preset's own may not reach the older presets' floors, and the report says so.
pub const PRESETS: &[Preset] = &[
    Preset {
        name: "ages-3-5",
        label: "Ages 3-5",
        aliases: &[],
        corridor_mm: 14.0,
        algorithm: Algorithm::Backtracker,
        braid: 0.5,
        targets: Targets {
            score: range(None, Some(60.0)),
            ratio: range(Some(0.3), None),
            branching: None,
            dead_ends: None,
            depth: range(None, Some(12.0)),
        },
    },
    Preset {
        name: "ages-6-8",
        label: "Ages 6-8",
        aliases: &["easy"],
        corridor_mm: 9.0,
        algorithm: Algorithm::Backtracker,
        braid: 0.4,
        targets: Targets {
            score: range(None, Some(71.0)),
            ratio: range(Some(0.2), None),
            branching: None,
            dead_ends: None,
            depth: range(None, Some(25.0)),
        },
    },
    Preset {
        name: "ages-9-12",
        label: "Ages 9-12",
        aliases: &["medium"],
        corridor_mm: 6.0,
        algorithm: Algorithm::GrowingTree,
        braid: 0.0,
        targets: Targets {
            score: range(Some(66.0), None),
            ratio: None,
            branching: range(Some(0.4), None),
            dead_ends: None,
            depth: range(Some(16.0), None),
        },
    },
    Preset {
        name: "adult",
        label: "Adult",
        aliases: &["hard"],
        corridor_mm: 4.0,
        algorithm: Algorithm::Wilson,
        braid: 0.0,
        targets: Targets {
            score: range(Some(80.0), None),
            ratio: None,
            branching: range(Some(0.45), None),
            dead_ends: None,
            depth: range(Some(25.0), None),
        },
    },
    Preset {
        name: "expert",
        label: "Expert",
        aliases: &[],
        corridor_mm: 3.0,
        algorithm: Algorithm::Wilson,
        braid: 0.0,
        targets: Targets {
            score: range(Some(86.0), None),
            ratio: None,
            branching: range(Some(0.45), None),
            dead_ends: None,
            depth: range(Some(40.0), None),
        },
    },
];

/// The preset called `name` (or one of its aliases).
pub fn preset(name: &str) -> Option<&'static Preset> {
    PRESETS
        .iter()
        .find(|p| p.name == name || p.aliases.contains(&name))
}

/// Every preset name and alias, for messages.
pub fn preset_names() -> String {
    PRESETS
        .iter()
        .flat_map(|p| std::iter::once(p.name).chain(p.aliases.iter().copied()))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Room kept around the maze for the START and FINISH labels, in millimetres on each axis.
const LABEL_ROOM_MM: f64 = 40.0;
/// Room kept for the footer (page number) and the title, in millimetres.
const FURNITURE_MM: f64 = 12.0;

impl Preset {
    /// Sets the preset's carver, braid and targets on `design` (the size is separate:
    /// [`Preset::grid_size`]).
    pub fn apply(&self, design: &mut Design) {
        design.algorithm = self.algorithm;
        design.braid = self.braid;
        design.targets = self.targets;
    }

    /// The largest grid of `kind` whose corridors are at least [`Preset::corridor_mm`] wide on
    /// the page `setup` describes (walls of `setup.wall_mm`, room left for the labels and the
    /// page number): `(width, height)`, the width in rings for polar.
    pub fn grid_size(&self, kind: TopologyKind, setup: &PageSetup) -> (u32, u32) {
        let (tw, th) = setup.trim_mm();
        let unit = self.corridor_mm + setup.wall_mm;
        let across = (tw - 2.0 * setup.margin_mm - setup.gutter_mm - LABEL_ROOM_MM) / unit;
        let down = (th - 2.0 * setup.margin_mm - LABEL_ROOM_MM - FURNITURE_MM) / unit;
        let extent = |w: u32, h: u32| {
            Topology::new(kind, w, h).map_or((f64::INFINITY, f64::INFINITY), |t| t.tess().extent())
        };
        let fits = |w: u32, h: u32| {
            let (x, y) = extent(w, h);
            x <= across && y <= down
        };
        let mut w = 2;
        while w < 2000 && fits(w + 1, 2) {
            w += 1;
        }
        if kind == TopologyKind::Polar {
            // rings: the disc must fit both ways
            while w > 2 && !fits(w, w) {
                w -= 1;
            }
            return (w, w);
        }
        let mut h = 2;
        while h < 2000 && fits(w, h + 1) {
            h += 1;
        }
        (w, h)
    }

    /// The grid for a design of `kind` filling the silhouette `fg` on the page `setup`: the
    /// preset's width ([`Preset::grid_size`]) with the height that keeps the shape's aspect
    /// ratio, and fewer cells across when that height would not fit the page (so the corridors
    /// keep their width). Polar grids have no aspect ratio: their rings are the grid size's.
    pub fn shaped_size(
        &self,
        kind: TopologyKind,
        setup: &PageSetup,
        fg: &Foreground,
    ) -> Result<(u32, u32)> {
        let (w, h) = self.grid_size(kind, setup);
        let fitted = fitted_height(kind, w, fg)?;
        if kind == TopologyKind::Polar || fitted <= h {
            return Ok((w, fitted));
        }
        let narrower = ((u64::from(w) * u64::from(h) / u64::from(fitted)) as u32).max(2);
        Ok((narrower, fitted_height(kind, narrower, fg)?))
    }
}

// ---------------------------------------------------------------------------------------------
// the search

/// How long the search may go on.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Budget {
    /// At most this many candidates (rounded up to whole batches is *not* done: exactly this
    /// many at most). Reproducible.
    Candidates(u64),
    /// Batches are started until this many seconds have passed. Reproducible only when the
    /// targets are met in time.
    Seconds(f64),
}

/// The default budget: 2000 candidates.
pub const DEFAULT_BUDGET: Budget = Budget::Candidates(2000);
/// The largest candidate budget accepted.
pub const MAX_CANDIDATES: u64 = 100_000_000;
/// The longest time budget accepted, in seconds.
pub const MAX_SECONDS: f64 = 86_400.0;

impl Default for Budget {
    fn default() -> Self {
        DEFAULT_BUDGET
    }
}

impl FromStr for Budget {
    type Err = Error;
    /// `N` candidates or `Ns` seconds (e.g. `500`, `2s`, `0.5s`).
    fn from_str(s: &str) -> Result<Budget> {
        let err = || {
            Error::option(format!(
                "'{s}' is not a budget; write a number of candidates (500) or seconds (2s), \
                 at most {MAX_CANDIDATES} candidates or {MAX_SECONDS} s"
            ))
        };
        let t = s.trim();
        if let Some(secs) = t.strip_suffix('s') {
            match secs.trim().parse::<f64>() {
                Ok(v) if v > 0.0 && v <= MAX_SECONDS => Ok(Budget::Seconds(v)),
                _ => Err(err()),
            }
        } else {
            match t.parse::<u64>() {
                Ok(n) if (1..=MAX_CANDIDATES).contains(&n) => Ok(Budget::Candidates(n)),
                _ => Err(err()),
            }
        }
    }
}

impl fmt::Display for Budget {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Budget::Candidates(n) => write!(f, "{n} candidates"),
            Budget::Seconds(s) => write!(f, "{s} s"),
        }
    }
}

/// What the search may change besides the seed.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SearchOptions {
    /// When to stop.
    pub budget: Budget,
    /// Try other entrance and exit pairs on the outline (recorded as explicit cells).
    pub vary_endpoints: bool,
    /// Try the other carvers that run on the topology (not under a weave).
    pub vary_carver: bool,
}

/// Where the search is, reported after every batch.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Progress {
    /// Candidates evaluated so far.
    pub tried: u64,
    /// The best candidate so far and its distance (`None` if every candidate failed).
    pub best: Option<(u64, f64)>,
    /// Time since the search started.
    pub elapsed: Duration,
    /// How much of the budget is spent, 0 to 1.
    pub fraction: f64,
}

/// Why the search stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// A candidate met every target.
    Met,
    /// The budget ran out first.
    Budget,
    /// The cancel flag was raised.
    Cancelled,
}

/// The search's answer.
#[derive(Clone, Debug)]
pub struct Found {
    /// The chosen maze; its design has the chosen seed (and carver and placement, when they were
    /// varied) written in, so [`crate::pipeline::generate`] makes it again without searching.
    pub generated: Generated,
    /// Its metrics against the targets.
    pub report: Report,
    /// The chosen candidate's index (0 is the design as given).
    pub candidate: u64,
    /// Candidates evaluated.
    pub tried: u64,
    /// Why the search stopped.
    pub stop: Stop,
    /// The seed candidates were derived from (the design's, or a fresh one when it had none).
    pub base_seed: u64,
    /// How long the search took.
    pub elapsed: Duration,
}

/// Candidates per batch for a grid of `cells` cells: 64 for small grids, fewer for big ones so a
/// batch stays short (the time budget and the cancel flag are checked between batches). Depends
/// on the grid only, never on the thread count.
pub fn batch_size(cells: usize) -> u64 {
    (400_000 / cells.max(1)).clamp(4, 64) as u64
}

fn splitmix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The seed of candidate `k` (`k > 0`) derived from `base`.
pub fn candidate_seed(base: u64, k: u64) -> u64 {
    if k == 0 {
        base
    } else {
        splitmix(base ^ splitmix(k)) & MAX_SEED
    }
}

/// Everything that turns a candidate index into a design.
struct Space {
    design: Design,
    base_seed: u64,
    carvers: Vec<Algorithm>,
    outline: Vec<crate::topology::Coord>,
    options: SearchOptions,
}

impl Space {
    fn candidate(&self, k: u64) -> Design {
        let mut d = self.design.clone();
        let seed = candidate_seed(self.base_seed, k);
        d.seed = Some(seed);
        if k == 0 {
            return d;
        }
        let mut rng = MazeRng::new(seed ^ 0x5EA4_C4ED);
        if self.options.vary_carver && !self.carvers.is_empty() {
            d.algorithm = self.carvers[rng.below(self.carvers.len())];
        }
        if self.options.vary_endpoints && self.outline.len() >= 2 {
            // one in four the automatic (longest) placement, otherwise a random outline pair
            d.placement = if rng.below(4) == 0 {
                Placement::Auto
            } else {
                let n = self.outline.len();
                let a = rng.below(n);
                let b = (a + 1 + rng.below(n - 1)) % n;
                Placement::Cells {
                    entrance: self.outline[a],
                    exit: self.outline[b],
                }
            };
        }
        d
    }
}

/// Finds a maze of `design` (on `mask`, when given) that meets `design.targets`; see
/// [`search_on`]. No cancel flag and no progress reports.
pub fn search(design: &Design, mask: Option<&Mask>, options: &SearchOptions) -> Result<Found> {
    search_with(design, mask, options, &AtomicBool::new(false), &mut |_| {})
}

/// [`search`] with a cancel flag and progress reports (see [`search_on`]): builds the grid the
/// way [`crate::pipeline::generate`] does (the design's hand-painted cells applied to `mask`)
/// and searches on it.
pub fn search_with(
    design: &Design,
    mask: Option<&Mask>,
    options: &SearchOptions,
    cancel: &AtomicBool,
    progress: &mut dyn FnMut(&Progress),
) -> Result<Found> {
    design.validate()?;
    let edited = edited_mask(design, mask)?;
    let (grid, dropped) = build_grid(design, edited.as_ref().or(mask))?;
    search_on(design, Arc::new(grid), dropped, options, cancel, progress)
}

/// Makes candidate mazes of `design` on `grid` in parallel (on the current rayon pool) until one
/// meets every target in `design.targets` or `options.budget` is spent, and returns the first
/// that meets them all (lowest index) or else the closest (lowest distance, then lowest index).
/// The result does not depend on the number of threads (see the module documentation).
///
/// `cancel` is polled between batches and before each candidate; when raised, the search stops
/// with the best of the batches finished (or the design's own maze, if none finished).
/// `progress` is called on the calling thread after every batch.
pub fn search_on(
    design: &Design,
    grid: Arc<Grid>,
    dropped_cells: usize,
    options: &SearchOptions,
    cancel: &AtomicBool,
    progress: &mut dyn FnMut(&Progress),
) -> Result<Found> {
    design.validate()?;
    if design.style != Style::Walls {
        return Err(Error::option(
            "difficulty targets work with the walls style only",
        ));
    }
    let targets = design.targets;
    let start = Instant::now();
    let base_seed = design.seed.unwrap_or_else(fresh_seed);
    let carvers = CARVERS
        .iter()
        .filter(|c| {
            c.topologies.contains(&design.topology) && c.algorithm != Algorithm::AldousBroder
        })
        .map(|c| c.algorithm)
        .collect();
    let outline_cells = if options.vary_endpoints {
        outline(&grid).into_iter().map(|c| grid.coord(c)).collect()
    } else {
        Vec::new()
    };
    let space = Space {
        design: design.clone(),
        base_seed,
        carvers,
        outline: outline_cells,
        options: *options,
    };
    let evaluate = |k: u64| -> Option<f64> {
        let d = space.candidate(k);
        generate_on(&d, grid.clone(), dropped_cells)
            .ok()
            .map(|g| targets.distance(&g.metrics))
    };

    let batch = batch_size(grid.len());
    let limit = match options.budget {
        Budget::Candidates(n) => n.max(1),
        Budget::Seconds(_) => u64::MAX,
    };
    let mut tried = 0u64;
    let mut best: Option<(u64, f64)> = None;
    let mut stop = Stop::Budget;
    // without targets the design's own maze meets them all: no search
    if targets.is_empty() {
        best = Some((0, 0.0));
        stop = Stop::Met;
    }
    while stop != Stop::Met && tried < limit {
        if cancel.load(Ordering::Relaxed) {
            stop = Stop::Cancelled;
            break;
        }
        let hi = tried.saturating_add(batch).min(limit);
        let results: Vec<Option<Option<f64>>> = (tried..hi)
            .into_par_iter()
            .map(|k| (!cancel.load(Ordering::Relaxed)).then(|| evaluate(k)))
            .collect();
        if results.iter().any(Option::is_none) {
            // cancelled part-way: the batch is incomplete, so it is not used
            stop = Stop::Cancelled;
            break;
        }
        for (k, r) in (tried..hi).zip(results) {
            let Some(dist) = r.flatten() else { continue };
            if best.is_none_or(|(_, b)| dist < b) {
                best = Some((k, dist));
            }
            if dist == 0.0 {
                stop = Stop::Met;
                break;
            }
        }
        tried = hi;
        let elapsed = start.elapsed();
        let fraction = match options.budget {
            Budget::Candidates(_) => tried as f64 / limit as f64,
            Budget::Seconds(s) => (elapsed.as_secs_f64() / s).min(1.0),
        };
        progress(&Progress {
            tried,
            best,
            elapsed,
            fraction: if stop == Stop::Met { 1.0 } else { fraction },
        });
        if let Budget::Seconds(s) = options.budget
            && elapsed.as_secs_f64() >= s
        {
            break;
        }
    }
    // nothing usable (cancelled at once, or every candidate failed): the design's own maze,
    // whose error, if it has one, is the one to report
    let candidate = best.map_or(0, |(k, _)| k);
    let generated = generate_on(&space.candidate(candidate), grid, dropped_cells)?;
    let report = Report::new(&targets, &generated.metrics);
    Ok(Found {
        generated,
        report,
        candidate,
        tried,
        stop,
        base_seed,
        elapsed: start.elapsed(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metrics::DepthStats;

    fn metrics(score: f64, ratio: f64, branching: f64, dead_ends: usize, depth: u32) -> Metrics {
        Metrics {
            difficulty: score,
            solution_ratio: ratio,
            branching_factor: branching,
            dead_ends,
            dead_end_depths: DepthStats {
                max: depth,
                ..DepthStats::default()
            },
            ..Metrics::default()
        }
    }

    #[test]
    fn ranges_parse_print_and_measure() {
        let r: Range = "40..60".parse().unwrap();
        assert_eq!(r, Range::new(Some(40.0), Some(60.0)));
        assert_eq!(r.to_string(), "40..60");
        assert_eq!("0.2..".parse::<Range>().unwrap().to_string(), "0.2..");
        assert_eq!("..7".parse::<Range>().unwrap(), Range::new(None, Some(7.0)));
        assert_eq!(
            "5".parse::<Range>().unwrap(),
            Range::new(Some(5.0), Some(5.0))
        );
        for bad in ["..", "", "a..b", "9..3", "1..2..3", "nan..", "..inf"] {
            assert!(bad.parse::<Range>().is_err(), "{bad}");
        }
        assert_eq!(r.off(30.0), -10.0);
        assert_eq!(r.off(65.0), 5.0);
        assert_eq!(r.off(60.0), 0.0);
        assert!(r.contains(40.0) && !r.contains(39.9));
    }

    #[test]
    fn distance_is_the_sum_of_relative_shortfalls() {
        let t = Targets {
            score: "60..".parse().ok(),
            ratio: "..0.2".parse().ok(),
            depth: "10..".parse().ok(),
            ..Targets::NONE
        };
        // score 6 below 60 (0.1), ratio 0.02 above 0.2 (0.1), depth met
        let m = metrics(54.0, 0.22, 0.5, 10, 12);
        assert!((t.distance(&m) - 0.2).abs() < 1e-12);
        let m = metrics(70.0, 0.1, 0.5, 10, 10);
        assert_eq!(t.distance(&m), 0.0);
        // a zero bound is measured against the metric's floor
        let z = Targets {
            dead_ends: "..0".parse().ok(),
            ..Targets::NONE
        };
        assert_eq!(z.distance(&metrics(0.0, 0.0, 0.0, 3, 0)), 3.0);
        assert_eq!(Targets::NONE.distance(&m), 0.0);
    }

    #[test]
    fn report_says_met_or_how_far_off() {
        let t = Targets {
            score: "60..".parse().ok(),
            branching: "0.1..0.3".parse().ok(),
            ..Targets::NONE
        };
        let r = Report::new(&t, &metrics(50.0, 0.3, 0.2, 12, 4));
        assert!(!r.met());
        let score = r.row(Metric::Score);
        assert_eq!(score.off, -10.0);
        assert!(!score.met());
        assert!(r.row(Metric::Branching).met());
        assert!(r.row(Metric::DeadEnds).target.is_none());
        assert_eq!(
            r.missed().map(|x| x.metric).collect::<Vec<_>>(),
            vec![Metric::Score]
        );
        let text = r.to_string();
        assert_eq!(text.lines().count(), 5);
        assert!(text.contains("MISSED: 10.0 too low"), "{text}");
        assert!(text.contains("no target"), "{text}");
    }

    #[test]
    fn targets_round_trip_through_toml_in_the_design() {
        let d = Design {
            targets: Targets {
                score: "60..80".parse().ok(),
                dead_ends: "..40".parse().ok(),
                ..Targets::NONE
            },
            ..Design::default()
        };
        let text = crate::io::design_to_toml(&d);
        assert!(text.contains("[targets]"), "{text}");
        assert!(text.contains("score = \"60..80\""), "{text}");
        assert_eq!(crate::io::parse_design(&text).unwrap(), d);
        // no targets: no table, and files without one still load
        let plain = crate::io::design_to_toml(&Design::default());
        assert!(!plain.contains("targets"), "{plain}");
        let e = crate::io::parse_design("[targets]\nscore = \"9..3\"\n").unwrap_err();
        assert!(e.message.contains("empty"), "{e}");
        let e = crate::io::parse_design("[targets]\nlength = \"1..\"\n").unwrap_err();
        assert!(e.message.contains("unknown field"), "{e}");
        let bad = Design {
            targets: Targets {
                ratio: "0.5..2".parse().ok(),
                ..Targets::NONE
            },
            ..Design::default()
        };
        assert!(bad.validate().unwrap_err().message.contains("ratio"));
    }

    #[test]
    fn budgets_parse() {
        assert_eq!("500".parse::<Budget>().unwrap(), Budget::Candidates(500));
        assert_eq!("2s".parse::<Budget>().unwrap(), Budget::Seconds(2.0));
        assert_eq!("0.5s".parse::<Budget>().unwrap(), Budget::Seconds(0.5));
        for bad in ["0", "-3", "s", "0s", "1e9", "abc", "100000s"] {
            assert!(bad.parse::<Budget>().is_err(), "{bad}");
        }
    }

    #[test]
    fn presets_are_found_by_name_and_alias() {
        assert_eq!(preset("easy").unwrap().name, "ages-6-8");
        assert_eq!(preset("medium").unwrap().name, "ages-9-12");
        assert_eq!(preset("hard").unwrap().name, "adult");
        assert_eq!(preset("expert").unwrap().name, "expert");
        assert_eq!(preset("ages-3-5").unwrap().label, "Ages 3-5");
        assert!(preset("nope").is_none());
        // easiest first: corridors narrow as the presets get harder
        for w in PRESETS.windows(2) {
            assert!(w[0].corridor_mm > w[1].corridor_mm);
        }
        for p in PRESETS {
            p.targets.validate().unwrap();
        }
    }

    #[test]
    fn candidate_seeds_are_distinct_and_stay_in_range() {
        let seeds: std::collections::BTreeSet<u64> =
            (0..1000).map(|k| candidate_seed(7, k)).collect();
        assert_eq!(seeds.len(), 1000);
        assert!(seeds.iter().all(|&s| s <= MAX_SEED));
        assert_eq!(candidate_seed(7, 0), 7);
    }
}
