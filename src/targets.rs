//! The saved difficulty targets: ranges on the measured metrics ([`Targets`], the design's
//! `[targets]` table), their parsing and printing, and the [`Report`] of a maze against them.
//! A leaf of the library: it knows the metrics and nothing of the pipeline, so the design, the
//! JSON export and the search all build on it.
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

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::metrics::Metrics;

// ---------------------------------------------------------------------------------------------
// ranges and targets

/// Why a design with difficulty targets cannot be made in the tiles style (said here only).
pub const TARGETS_WALLS_ONLY: &str = "difficulty targets work with the walls style only";

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

/// The metrics a target can be set on. Its short names (`--target-NAME`, the JSON) are the
/// kebab-case variant names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, strum::IntoStaticStr)]
#[strum(serialize_all = "kebab-case")]
pub enum Metric {
    /// The difficulty score ([`Metrics::difficulty`]).
    Score,
    /// Where the score stands among mazes of the same grid, in percent
    /// ([`crate::metrics::Standing::harder_than`]); unknown (never missed) when not sampled.
    Level,
    /// Solution length over cells ([`Metrics::solution_ratio`]).
    Ratio,
    /// Side branches per solution cell ([`Metrics::branching_factor`]).
    Branching,
    /// Dead ends ([`Metrics::dead_ends`]).
    DeadEnds,
    /// The deepest dead end's distance from the solution ([`crate::metrics::DepthStats::max`]).
    Depth,
    /// Decision points on the solution ([`Metrics::decision_points`]): a children's preset
    /// sets a floor, so its maze is more than one corridor.
    Decisions,
    /// Active cells ([`Metrics::cells`]): a level needs room (a preset sets a floor).
    Cells,
}

impl Metric {
    /// Every metric, in report order.
    pub const ALL: [Metric; 8] = [
        Metric::Score,
        Metric::Level,
        Metric::Ratio,
        Metric::Branching,
        Metric::DeadEnds,
        Metric::Depth,
        Metric::Decisions,
        Metric::Cells,
    ];

    /// The short name, as in `--target-NAME` and the JSON.
    pub fn name(self) -> &'static str {
        self.into()
    }

    /// A label for people.
    pub fn label(self) -> &'static str {
        match self {
            Metric::Score => "difficulty score",
            Metric::Ratio => "solution ratio",
            Metric::Branching => "branching factor",
            Metric::DeadEnds => "dead ends",
            Metric::Depth => "deepest dead end",
            Metric::Decisions => "decision points",
            Metric::Cells => "cells",
            Metric::Level => "harder than (%)",
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
            Metric::Decisions => m.decision_points as f64,
            Metric::Cells => m.cells as f64,
            Metric::Level => m.standing.map_or(f64::NAN, |s| s.harder_than),
        }
    }

    /// Whether the metric counts things (shown without decimals).
    pub fn is_count(self) -> bool {
        matches!(
            self,
            Metric::DeadEnds | Metric::Depth | Metric::Decisions | Metric::Cells
        )
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
            _ if v.is_nan() => "-".to_string(),
            _ if self.is_count() => format!("{v:.0}"),
            Metric::Level => format!("{v:.0}"),
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
    /// The decision points on the solution (a children's preset's floor).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub decisions: Option<Range>,
    /// The number of cells (a level's floor: a maze too small cannot hold it).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cells: Option<Range>,
    /// A level: a band of the score's spread over the structures Hedge offers on this grid, in
    /// percent (`90..100`: harder than 90 % of them; `crate::difficulty::levels`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub level: Option<Range>,
}

impl Targets {
    /// No target at all.
    pub const NONE: Targets = Targets {
        score: None,
        ratio: None,
        branching: None,
        dead_ends: None,
        depth: None,
        decisions: None,
        cells: None,
        level: None,
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
            Metric::Decisions => self.decisions,
            Metric::Cells => self.cells,
            Metric::Level => self.level,
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
            Metric::Decisions => &mut self.decisions,
            Metric::Cells => &mut self.cells,
            Metric::Level => &mut self.level,
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
            // the range as given, its numbers short (a target of 1e308 is not 309 digits)
            let shown = |v: Option<f64>| v.map(crate::error::num).unwrap_or_default();
            let r_shown = format!("{}..{}", shown(r.min), shown(r.max));
            let (lo, hi) = match metric {
                Metric::Ratio => (0.0, 1.0),
                Metric::Level => (0.0, 100.0),
                _ => (0.0, f64::INFINITY),
            };
            for v in [r.min, r.max].into_iter().flatten() {
                if !v.is_finite() || v < lo || v > hi {
                    return Err(Error::option(format!(
                        "the {} target {r_shown} is out of bounds ({} can be {lo} to {})",
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
                    "the {} target {r_shown} is empty",
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

    /// When the maze has fewer cells than its targets ask (a level's floor): its cells and the
    /// fewest the targets accept. No search can help it; a bigger grid can.
    pub fn too_small(&self) -> Option<(usize, usize)> {
        let row = self.row(Metric::Cells);
        let min = row.target?.min?;
        (row.off < 0.0).then_some((row.value as usize, min.ceil() as usize))
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
        assert_eq!(r.too_small(), None);
        let text = r.to_string();
        assert_eq!(text.lines().count(), 8);
        assert!(text.contains("MISSED: 10.0 too low"), "{text}");
        assert!(text.contains("no target"), "{text}");
    }

    #[test]
    fn too_few_cells_for_a_floor_are_said() {
        let t = Targets {
            cells: "300..".parse().ok(),
            ..Targets::NONE
        };
        let small = Metrics {
            cells: 266,
            ..Metrics::default()
        };
        assert_eq!(Report::new(&t, &small).too_small(), Some((266, 300)));
        let big = Metrics {
            cells: 300,
            ..Metrics::default()
        };
        assert_eq!(Report::new(&t, &big).too_small(), None);
        // a ceiling missed is not "too small"
        let t = Targets {
            cells: "..100".parse().ok(),
            ..Targets::NONE
        };
        assert_eq!(Report::new(&t, &big).too_small(), None);
    }
}
