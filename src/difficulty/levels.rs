//! Levels relative to the maze in hand: the spread of the difficulty score over the structures
//! Hedge offers (every carver that runs on the topology, at the braid values [`BRAIDS`]; braid 0
//! only for a "Which path?" puzzle, sampled with as many entrances) for one grid (its topology,
//! shape and size), sampled once and cached, and where a maze stands in it.
//!
//! A level is a band of that spread, in percent ([`Level`]): ages 3-5 the easiest tenth, easy
//! (ages 6-8) the rest of the easiest quarter, medium (ages 9-12) the middle half, hard (adult)
//! the hardest quarter short of the hardest tenth, expert the hardest tenth. The bands do not
//! overlap, so the levels keep their order at any size.

use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::sync::{Arc, Mutex};

use rayon::prelude::*;

use crate::carve::{Algorithm, CARVERS};
use crate::design::Design;
use crate::grid::Grid;
use crate::metrics::Standing;
use crate::pipeline::{Generated, carve_unchecked};
use crate::targets::{Range, Targets};

/// The braid values the spread is sampled at (the share of dead ends removed).
pub const BRAIDS: [f64; 4] = [0.0, 0.15, 0.35, 0.6];
/// Mazes sampled per grid (fewer on very big grids: [`samples_for`]).
pub const SAMPLES: usize = 96;
/// Above this many cells the spread is not sampled (it would cost more than the maze).
pub const MAX_STANDING_CELLS: usize = 50_000;
/// The seed the samples derive from (the spread is a property of the grid, not of a seed).
const SAMPLE_SEED: u64 = 0x005E_ED1E_7E15;

/// The structures (carver, braid) the spread covers for `design`'s topology: every carver that
/// runs on it (Aldous-Broder left out: it makes the same uniform spanning trees as Wilson's,
/// slowly) at every braid in [`BRAIDS`]. Under a weave only the weave carver runs, unbraided.
pub fn structures(design: &Design) -> Vec<(Algorithm, f64)> {
    if design.walls().weave > 0.0 {
        return vec![(design.walls().algorithm, 0.0)];
    }
    // a "Which path?" puzzle is never braided (loops would join its entrances' trees), nor is
    // a maze with items to collect (a loop could go round one)
    let w = design.walls();
    let braids: &[f64] = if w.starts > 1 || w.collect > 0 || w.reveal.is_some() {
        &[0.0]
    } else {
        &BRAIDS
    };
    CARVERS
        .iter()
        .filter(|c| {
            c.topologies.contains(&design.walls().topology)
                && c.algorithm != Algorithm::AldousBroder
        })
        .flat_map(|c| braids.iter().map(move |&b| (c.algorithm, b)))
        .collect()
}

/// How many mazes are sampled for a grid of `cells` cells: [`SAMPLES`] up to 20,000 cells,
/// then fewer (at least 32) so sampling costs about as much as 96 mazes of 20,000 cells.
pub fn samples_for(cells: usize) -> usize {
    (SAMPLES * 20_000 / cells.max(1)).clamp(32, SAMPLES)
}

/// Sample `i` of the spread of `design`: structure `i` (cycling), a seed derived from `i`.
pub fn sample_design(design: &Design, structures: &[(Algorithm, f64)], i: usize) -> Design {
    let mut d = design.clone();
    let (a, b) = structures[i % structures.len()];
    if let Some(w) = d.walls_mut() {
        w.algorithm = a;
        w.braid = b;
        // the spread is of mazes of the same kind on the grid: a "Which path?" puzzle's real
        // way against other "Which path?" puzzles with as many entrances (against ordinary
        // mazes, whose way crosses the whole grid, every one stood at 0 %), and a maze shaped
        // by hand (locks, regions carved again) against mazes nobody touched
        w.lock = crate::locks::Locks::NONE;
        w.recarve.clear();
        // the items to collect change nothing of the maze's score
        w.collect = 0;
        // a picture maze is measured against the mazes carved on the same grid
        w.reveal = None;
    }
    d.seed = Some(super::candidate_seed(SAMPLE_SEED, i as u64 + 1));
    d.targets = Targets::NONE;
    d
}

/// The sampled scores of one grid, sorted.
#[derive(Clone, Debug, PartialEq)]
pub struct Spread {
    /// The scores, lowest first.
    pub scores: Vec<f64>,
}

impl Spread {
    /// The share of the samples (percent) scoring below `score`, ties counting half.
    pub fn percentile(&self, score: f64) -> f64 {
        if self.scores.is_empty() {
            return 50.0;
        }
        let below = self.scores.partition_point(|&s| s < score - 1e-9);
        let upto = self.scores.partition_point(|&s| s <= score + 1e-9);
        100.0 * (below as f64 + (upto - below) as f64 / 2.0) / self.scores.len() as f64
    }

    /// The score at quantile `q` (0 to 1), interpolated between samples.
    pub fn quantile(&self, q: f64) -> f64 {
        let n = self.scores.len();
        if n == 0 {
            return 0.0;
        }
        let x = q.clamp(0.0, 1.0) * (n - 1) as f64;
        let (i, f) = (x.floor() as usize, x - x.floor());
        let hi = self.scores[(i + 1).min(n - 1)];
        self.scores[i] + f * (hi - self.scores[i])
    }

    /// The score range of the percent band `level` (`0..10`, `90..100`): open at 0 and 100.
    pub fn band(&self, level: Range) -> Range {
        let lo = level
            .min
            .filter(|&p| p > 0.0)
            .map(|p| self.quantile(p / 100.0));
        let hi = level
            .max
            .filter(|&p| p < 100.0)
            .map(|p| self.quantile(p / 100.0));
        Range::new(lo, hi)
    }

    /// Where `score` stands.
    pub fn standing(&self, score: f64) -> Standing {
        Standing {
            harder_than: (self.percentile(score) * 10.0).round() / 10.0,
            samples: self.scores.len(),
        }
    }
}

type Cache = Mutex<HashMap<u64, Arc<Spread>>>;

fn cache() -> &'static Cache {
    static CACHE: std::sync::OnceLock<Cache> = std::sync::OnceLock::new();
    CACHE.get_or_init(|| Mutex::new(HashMap::new()))
}

/// What the spread depends on: the grid's cells and topology, and the design's knobs other than
/// the carver, braid, seed and targets.
fn key(design: &Design, grid: &Grid) -> u64 {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    let w = design.walls();
    format!(
        "{:?}",
        (
            &w.placement,
            w.starts,
            w.collect > 0,
            w.reveal.is_some(),
            w.weave,
            &w.growing_tree,
            w.topology,
            design.style()
        )
    )
    .hash(&mut h);
    format!("{:?}", grid.topology()).hash(&mut h);
    grid.len().hash(&mut h);
    for c in grid.cells() {
        let k = grid.coord(c);
        (k.row, k.col).hash(&mut h);
    }
    h.finish()
}

/// The spread of `design`'s score on `grid` (see the module documentation), cached per grid;
/// `None` above [`MAX_STANDING_CELLS`] or when no sample can be made.
pub fn spread(design: &Design, grid: &Arc<Grid>, dropped_cells: usize) -> Option<Arc<Spread>> {
    if grid.len() > MAX_STANDING_CELLS || grid.len() < 2 {
        return None;
    }
    // checked once here: the samples are the design with other seeds, carvers and braids
    design.validate().ok()?;
    let k = key(design, grid);
    if let Some(s) = cache().lock().ok()?.get(&k) {
        return Some(s.clone());
    }
    let structures = structures(design);
    let n = samples_for(grid.len());
    let mut scores: Vec<f64> = (0..n)
        .into_par_iter()
        .filter_map(|i| {
            carve_unchecked(
                &sample_design(design, &structures, i),
                grid.clone(),
                dropped_cells,
            )
            .ok()
            .map(|g| g.metrics.difficulty)
        })
        .collect();
    if scores.is_empty() {
        return None;
    }
    scores.sort_by(f64::total_cmp);
    let s = Arc::new(Spread { scores });
    let mut c = cache().lock().ok()?;
    if c.len() >= 64 {
        c.clear();
    }
    c.insert(k, s.clone());
    Some(s)
}

/// Fills in `g.metrics.standing` from the spread of its grid (left `None` when there is none).
pub fn stand(g: &mut Generated) {
    let grid = g.maze.grid_arc().clone();
    g.metrics.standing =
        spread(&g.design, &grid, g.dropped_cells).map(|s| s.standing(g.metrics.difficulty));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentiles_quantiles_and_bands() {
        let s = Spread {
            scores: (0..=10).map(f64::from).collect(),
        };
        assert_eq!(s.percentile(-1.0), 0.0);
        assert_eq!(s.percentile(11.0), 100.0);
        assert!((s.percentile(5.0) - 100.0 * 5.5 / 11.0).abs() < 1e-9);
        assert_eq!(s.quantile(0.5), 5.0);
        assert_eq!(s.quantile(0.25), 2.5);
        let b = s.band(Range::new(Some(90.0), Some(100.0)));
        assert_eq!(b, Range::new(Some(9.0), None));
        let b = s.band(Range::new(Some(0.0), Some(10.0)));
        assert_eq!(b, Range::new(None, Some(1.0)));
        assert_eq!(s.standing(11.0).harder_than, 100.0);
        assert_eq!(s.standing(11.0).samples, 11);
    }
}
