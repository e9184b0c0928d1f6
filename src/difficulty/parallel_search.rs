//! The parallel [`search`]: candidate mazes of a design made in parallel until one meets every
//! target or the budget is spent.
//!
//! ## Reproducibility
//!
//! Candidate `k` is a pure function of the design and `k`: candidate 0 is the design itself (its
//! seed, carver and entrance placement); candidate `k > 0` takes the seed `mix(base seed, k)`
//! and, when allowed, a carver and an entrance/exit pair drawn from a generator seeded the same
//! way. Candidates are evaluated in batches of a fixed size (set by the cell count, never by the
//! thread count); after each batch the lowest `k` that meets every target wins, otherwise the
//! search goes on, keeping the best by (distance, k) (the distance is
//! [`crate::targets::Targets::distance`]).
//! So one thread and sixteen give the same maze. A candidate budget (`--budget 500`) is fully
//! reproducible; a time budget (`--budget 2s`) is reproducible when a candidate meets the targets
//! in time, but when none does, how many batches fit in the time, and so the best found, depends
//! on the machine's speed and load.

use std::fmt;
use std::str::FromStr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use rayon::prelude::*;

use crate::carve::{Algorithm, CARVERS};
use crate::design::{Design, MAX_SEED, Style};
use crate::endpoints::{Placement, outline};
use crate::error::{Error, Result};
use crate::grid::Grid;
use crate::mask::Mask;
use crate::pipeline::{Generated, build_grid, carve_revealing, edited_mask};
use crate::random::{MazeRng, Random, fresh_seed};
use crate::targets::{Report, Targets};

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

/// The default budget on small and medium grids: 2000 candidates (see [`default_budget`]).
pub const DEFAULT_BUDGET: Budget = Budget::Candidates(2000);
/// The cell work (candidates x cells) the default budget allows: 2000 candidates of a 200x200
/// grid. Past that size the default budget shrinks so the search's cost stays about the same
/// (about 12 s on a 2-core machine at 150 ns a cell and candidate).
pub const DEFAULT_CELL_WORK: u64 = 2000 * 40_000;
/// The fewest candidates the default budget tries, however big the grid.
pub const MIN_DEFAULT_CANDIDATES: u64 = 64;

/// The default budget for a grid of `cells` cells: [`DEFAULT_BUDGET`] (2000 candidates) up to
/// 40,000 cells, then [`DEFAULT_CELL_WORK`] / `cells` candidates (500 on a 400x400 grid, 320 on
/// 500x500), never under [`MIN_DEFAULT_CANDIDATES`]. A candidate count, so as reproducible as
/// any `--budget N`.
pub fn default_budget(cells: usize) -> Budget {
    let Budget::Candidates(most) = DEFAULT_BUDGET else {
        return DEFAULT_BUDGET;
    };
    let n = DEFAULT_CELL_WORK / (cells.max(1) as u64);
    Budget::Candidates(n.clamp(MIN_DEFAULT_CANDIDATES, most))
}
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
    /// When to stop; `None` is the default for the grid's size ([`default_budget`]).
    pub budget: Option<Budget>,
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
    /// Every target but the cell count was met: the grid has fewer (or more) cells than the
    /// targets ask (a level's floor), which no candidate can change, so the search stopped at
    /// the first candidate that met the rest. The report still says the cells are missed.
    TooSmall,
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
    /// The budget the search had (the default one resolved for the grid's size).
    pub budget: Budget,
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
    /// With a level target: the structures (carver, braid) the level's spread covers, which the
    /// candidates draw from.
    structures: Vec<(Algorithm, f64)>,
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
        // the search makes mazes of walls only (search_on_unchecked)
        let Some(w) = d.walls_mut() else {
            return d;
        };
        // a picture maze's path places its openings, and its carver is its own: the seed alone
        if w.reveal.is_some() {
            return d;
        }
        let mut rng = MazeRng::new(seed ^ 0x5EA4_C4ED);
        if !self.structures.is_empty() {
            (w.algorithm, w.braid) = self.structures[rng.below(self.structures.len())];
        } else if self.options.vary_carver && !self.carvers.is_empty() {
            w.algorithm = self.carvers[rng.below(self.carvers.len())];
        }
        // a "Which path?" puzzle spreads its own entrances
        if self.options.vary_endpoints && self.outline.len() >= 2 && w.starts <= 1 {
            // one in four the automatic (longest) placement, otherwise a random outline pair
            w.placement = if rng.below(4) == 0 {
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
    search_unchecked(design, (mask, None), options, cancel, progress)
}

/// [`search_with`] of a design already checked ([`Design::validate`]).
pub(crate) fn search_unchecked(
    design: &Design,
    (mask, picture): (Option<&Mask>, Option<&Mask>),
    options: &SearchOptions,
    cancel: &AtomicBool,
    progress: &mut dyn FnMut(&Progress),
) -> Result<Found> {
    let edited = edited_mask(design, mask)?;
    let (grid, dropped) = build_grid(design, edited.as_ref().or(mask))?;
    let on = Searched {
        grid: Arc::new(grid),
        dropped_cells: dropped,
        picture,
    };
    search_on_unchecked(design, on, options, cancel, progress)
}

/// What a search makes its candidates on: the grid, the cells of the shape it dropped, and
/// the picture the design reveals, fitted to the grid ([`crate::reveal`]).
struct Searched<'a> {
    grid: Arc<Grid>,
    dropped_cells: usize,
    picture: Option<&'a Mask>,
}

/// Makes candidate mazes of `design` on `grid` in parallel (on the current rayon pool) until one
/// meets every target in `design.targets` or `options.budget` is spent, and returns the first
/// that meets them all (lowest index) or else the closest (lowest distance, then lowest index).
/// The result does not depend on the number of threads (see the module documentation).
/// A cell count the grid misses (a level's floor) cannot change from candidate to candidate:
/// the search then looks for the first candidate that meets the other targets and stops with
/// [`Stop::TooSmall`] rather than spending its budget.
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
    let on = Searched {
        grid,
        dropped_cells,
        picture: None,
    };
    search_on_unchecked(design, on, options, cancel, progress)
}

/// [`search_on`] of a design already checked: its candidates are made unchecked too (each is
/// the design with another seed, and a carver and braid of the design's own level or
/// topology).
fn search_on_unchecked(
    design: &Design,
    on: Searched,
    options: &SearchOptions,
    cancel: &AtomicBool,
    progress: &mut dyn FnMut(&Progress),
) -> Result<Found> {
    let Searched {
        grid,
        dropped_cells,
        picture,
    } = on;
    if design.style() != Style::Walls {
        return Err(Error::option(crate::targets::TARGETS_WALLS_ONLY));
    }
    let targets = design.targets;
    // every candidate has the grid's cells: a cell count outside its target cannot be helped,
    // so the search aims at the other targets and says so when it meets them
    let cells_missed = targets
        .cells
        .is_some_and(|r| !r.contains(grid.len() as f64));
    let aim = Targets {
        cells: if cells_missed { None } else { targets.cells },
        ..targets
    };
    let met = if cells_missed {
        Stop::TooSmall
    } else {
        Stop::Met
    };
    let start = Instant::now();
    let base_seed = design.seed.unwrap_or_else(fresh_seed);
    let carvers = search_carvers(design);
    let outline_cells = if options.vary_endpoints {
        outline(&grid).into_iter().map(|c| grid.coord(c)).collect()
    } else {
        Vec::new()
    };
    // a level is a band of the grid's spread: sampled (or taken from the cache) first, and the
    // candidates vary the structure (carver and braid) over what the spread covers
    let spread = super::levels::spread(design, &grid, dropped_cells);
    let structures = level_structures(design);
    let space = Space {
        design: design.clone(),
        base_seed,
        carvers,
        structures,
        outline: outline_cells,
        options: *options,
    };
    let evaluate = |k: u64| -> Option<f64> {
        let d = space.candidate(k);
        carve_revealing(&d, grid.clone(), dropped_cells, picture)
            .ok()
            .map(|mut g| {
                if let Some(s) = &spread {
                    g.metrics.standing = Some(s.standing(g.metrics.difficulty));
                }
                aim.distance(&g.metrics)
            })
    };

    let budget = options.budget.unwrap_or_else(|| default_budget(grid.len()));
    let batches = Batches {
        size: batch_size(grid.len()),
        budget,
        limit: match budget {
            Budget::Candidates(n) => n.max(1),
            Budget::Seconds(_) => u64::MAX,
        },
        met,
    };
    let mut best: Option<(u64, f64)> = None;
    let mut stop = Stop::Budget;
    // without targets the design's own maze meets them all: no search
    if targets.is_empty() {
        best = Some((0, 0.0));
        stop = Stop::Met;
    }
    let (tried, best, stop) =
        run_batches(&batches, &evaluate, (best, stop), start, cancel, progress);
    // nothing usable (cancelled at once, or every candidate failed): the design's own maze,
    // whose error, if it has one, is the one to report
    let candidate = best.map_or(0, |(k, _)| k);
    let mut generated = carve_revealing(&space.candidate(candidate), grid, dropped_cells, picture)?;
    if let Some(s) = &spread {
        generated.metrics.standing = Some(s.standing(generated.metrics.difficulty));
    }
    let report = Report::new(&targets, &generated.metrics);
    Ok(Found {
        generated,
        report,
        candidate,
        tried,
        stop,
        base_seed,
        elapsed: start.elapsed(),
        budget,
    })
}

/// The carvers a search may vary over: those of the design's topology, Aldous-Broder left out.
fn search_carvers(design: &Design) -> Vec<Algorithm> {
    CARVERS
        .iter()
        .filter(|c| {
            c.topologies.contains(&design.walls().topology)
                && c.algorithm != Algorithm::AldousBroder
        })
        .map(|c| c.algorithm)
        .collect()
}

/// The structures (carver and braid) a search for a level varies over (none without a level
/// target); a "Which path?" puzzle's are never braided.
fn level_structures(design: &Design) -> Vec<(Algorithm, f64)> {
    if design.targets.level.is_some() {
        let mut s = super::levels::structures(design);
        // a "Which path?" puzzle is never braided: its loops would join the entrances' trees
        let w = design.walls();
        if w.starts > 1 || w.collect > 0 || w.reveal.is_some() {
            s.retain(|&(_, braid)| braid == 0.0);
        }
        s
    } else {
        Vec::new()
    }
}

/// How a search runs its batches.
struct Batches {
    /// Candidates per batch.
    size: u64,
    /// The budget.
    budget: Budget,
    /// The most candidates tried.
    limit: u64,
    /// The stop when a candidate meets the targets aimed at.
    met: Stop,
}

/// Runs batches of candidates, each scored by `evaluate` (its distance from the targets, in
/// parallel), from the best so far and the stop (`from`) until one meets the targets, the
/// budget is spent or `cancel` is raised, calling `progress` after each batch. Returns how many
/// were tried, the best (index, distance) and why the search stopped.
fn run_batches(
    b: &Batches,
    evaluate: &(dyn Fn(u64) -> Option<f64> + Sync),
    from: (Option<(u64, f64)>, Stop),
    start: Instant,
    cancel: &AtomicBool,
    progress: &mut dyn FnMut(&Progress),
) -> (u64, Option<(u64, f64)>, Stop) {
    let (batch, budget, limit, met) = (b.size, b.budget, b.limit, b.met);
    let (mut best, mut stop) = from;
    let mut tried = 0u64;
    while stop != met && tried < limit {
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
                stop = met;
                break;
            }
        }
        tried = hi;
        let elapsed = start.elapsed();
        let fraction = match budget {
            Budget::Candidates(_) => tried as f64 / limit as f64,
            Budget::Seconds(s) => (elapsed.as_secs_f64() / s).min(1.0),
        };
        progress(&Progress {
            tried,
            best,
            elapsed,
            fraction: if stop == met { 1.0 } else { fraction },
        });
        if let Budget::Seconds(s) = budget
            && elapsed.as_secs_f64() >= s
        {
            break;
        }
    }
    (tried, best, stop)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_budget_shrinks_on_big_grids() {
        assert_eq!(default_budget(100), DEFAULT_BUDGET);
        assert_eq!(default_budget(40_000), Budget::Candidates(2000));
        assert_eq!(default_budget(160_000), Budget::Candidates(500));
        assert_eq!(default_budget(250_000), Budget::Candidates(320));
        assert_eq!(default_budget(9_000_000), Budget::Candidates(64));
        assert_eq!(default_budget(0), DEFAULT_BUDGET);
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
    fn candidate_seeds_are_distinct_and_stay_in_range() {
        let seeds: std::collections::BTreeSet<u64> =
            (0..1000).map(|k| candidate_seed(7, k)).collect();
        assert_eq!(seeds.len(), 1000);
        assert!(seeds.iter().all(|&s| s <= MAX_SEED));
        assert_eq!(candidate_seed(7, 0), 7);
    }
}
