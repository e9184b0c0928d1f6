//! Reader presets ([`PRESETS`]): a carver, a braid, targets and a corridor width on paper set
//! together, and the grid size that keeps that corridor width on a page, found by asking the
//! page layout ([`crate::draw::layout`], the code that lays out the printed page) rather than
//! guessing the room its title, footer and labels take.

use std::sync::Arc;

use crate::carve::Algorithm;
use crate::design::Design;
use crate::draw;
use crate::endpoints::Endpoint;
use crate::error::Result;
use crate::grid::Grid;
use crate::maze::Maze;
use crate::metrics::{LEVEL_BANDS, Metrics};
use crate::page::{MarkerSize, PageSetup};
use crate::pipeline::Generated;
use crate::shape::{Foreground, fitted_height};
use crate::targets::{Range, Targets};
use crate::topology::{Topology, TopologyKind};

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
    /// How big START and FINISH print: big words at big arrows for readers who are learning.
    pub markers: MarkerSize,
    /// Whether a weave the design asks for is kept: the young readers' presets make plain
    /// mazes (a passage under a bridge is one more rule than a child of 3 to 8 needs, and a
    /// weave ignores the preset's carver and braid).
    pub weave: bool,
}

const fn range(min: Option<f64>, max: Option<f64>) -> Option<Range> {
    Some(Range::new(min, max))
}

/// The targets of a level: the band of the grid's spread (percent) and the fewest cells that
/// hold it.
const fn level(lo: f64, hi: f64, min_cells: f64) -> Targets {
    Targets {
        score: None,
        ratio: None,
        branching: None,
        dead_ends: None,
        depth: None,
        cells: range(Some(min_cells), None),
        level: range(Some(lo), Some(hi)),
    }
}

/// The presets, easiest first. Each is a level: a band of the score's spread over every carver
/// and braid Hedge offers on the grid in hand ([`super::levels`]), so it means the same at any
/// size, on any shape and paper: ages 3-5 the easiest tenth, ages 6-8 (easy) the rest of the
/// easiest quarter, ages 9-12 (medium) the middle half, adult (hard) the hardest quarter short
/// of the hardest tenth, expert the hardest tenth. The search may change the carver and braid
/// (the structure) to reach the band; the corridor width sets the cell count for the page
/// ([`Preset::grid_size`]) unless the size is given. Each level also needs a grid big enough
/// to hold it (`cells`): a 40-cell maze is no adult's puzzle however it is carved.
/// The carver and braid are where the search starts (candidate 0), chosen to land in the band
/// often.
pub const PRESETS: &[Preset] = &[
    Preset {
        name: "ages-3-5",
        label: "Ages 3-5",
        aliases: &[],
        corridor_mm: 14.0,
        algorithm: Algorithm::Backtracker,
        braid: 0.6,
        targets: level(0.0, LEVEL_BANDS[0], 16.0),
        markers: MarkerSize::Huge,
        weave: false,
    },
    Preset {
        name: "ages-6-8",
        label: "Ages 6-8",
        aliases: &["easy"],
        corridor_mm: 9.0,
        algorithm: Algorithm::Backtracker,
        braid: 0.35,
        targets: level(LEVEL_BANDS[0], LEVEL_BANDS[1], 50.0),
        markers: MarkerSize::Large,
        weave: false,
    },
    Preset {
        name: "ages-9-12",
        label: "Ages 9-12",
        aliases: &["medium"],
        corridor_mm: 6.0,
        algorithm: Algorithm::GrowingTree,
        braid: 0.0,
        targets: level(LEVEL_BANDS[1], LEVEL_BANDS[2], 120.0),
        markers: MarkerSize::Normal,
        weave: true,
    },
    Preset {
        name: "adult",
        label: "Adult",
        aliases: &["hard"],
        corridor_mm: 4.0,
        algorithm: Algorithm::Wilson,
        braid: 0.0,
        targets: level(LEVEL_BANDS[2], LEVEL_BANDS[3], 300.0),
        markers: MarkerSize::Normal,
        weave: true,
    },
    Preset {
        name: "expert",
        label: "Expert",
        aliases: &[],
        corridor_mm: 3.0,
        algorithm: Algorithm::Wilson,
        braid: 0.0,
        targets: level(LEVEL_BANDS[3], 100.0, 600.0),
        markers: MarkerSize::Normal,
        weave: true,
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

/// A preset part way between two: `a` at `f = 0`, `b` at `f = 1`. The corridor width (hence
/// the grid on the page), the braid and the targets' numbers (the level band's ends, the fewest
/// cells) run linearly between theirs; the carver, the marker size, the name and the label are
/// the nearer preset's (`b`'s from `f = 0.5`, as a position rounds). At `f = 0` it is `a` exactly, at
/// `f = 1` `b`. The numbers are rounded to 6 decimals, so a book's manifest records them as
/// written. A book's difficulty ramp (`difficulty = "ages-3-5..ages-9-12"`) gives each page
/// the preset at its position this way, so the grid grows page by page, not in steps.
pub fn between(a: &Preset, b: &Preset, f: f64) -> Preset {
    let f = if f.is_finite() {
        f.clamp(0.0, 1.0)
    } else {
        0.0
    };
    if f == 0.0 {
        return a.clone();
    }
    if f == 1.0 {
        return b.clone();
    }
    let lerp = |x: f64, y: f64| ((x + (y - x) * f) * 1e6).round() / 1e6;
    let opt = |x: Option<f64>, y: Option<f64>| match (x, y) {
        (Some(x), Some(y)) => Some(lerp(x, y)),
        // a bound only one side has: the nearer side's
        _ => {
            if f < 0.5 {
                x
            } else {
                y
            }
        }
    };
    let range = |x: Option<Range>, y: Option<Range>| match (x, y) {
        (Some(x), Some(y)) => Some(Range::new(opt(x.min, y.min), opt(x.max, y.max))),
        _ => {
            if f < 0.5 {
                x
            } else {
                y
            }
        }
    };
    let (ta, tb) = (&a.targets, &b.targets);
    let near = if f < 0.5 { a } else { b };
    Preset {
        corridor_mm: lerp(a.corridor_mm, b.corridor_mm),
        braid: lerp(a.braid, b.braid),
        targets: Targets {
            score: range(ta.score, tb.score),
            ratio: range(ta.ratio, tb.ratio),
            branching: range(ta.branching, tb.branching),
            dead_ends: range(ta.dead_ends, tb.dead_ends),
            depth: range(ta.depth, tb.depth),
            cells: range(ta.cells, tb.cells),
            level: range(ta.level, tb.level),
        },
        ..near.clone()
    }
}

/// The preset at position `x` along [`PRESETS`] (0 = the first, 1 = the second, 1.5 half way
/// from the second to the third: [`between`] them), and the index of the nearest preset (`x`
/// rounded, a half way position to the harder one). `x` is clamped to the presets.
pub fn preset_between(x: f64) -> (Preset, usize) {
    let last = PRESETS.len() - 1;
    let x = if x.is_finite() {
        x.clamp(0.0, last as f64)
    } else {
        0.0
    };
    let i = (x.floor() as usize).min(last);
    let f = x - i as f64;
    // a position within a millionth of a preset is that preset
    if f < 1e-9 || i == last {
        return (PRESETS[i].clone(), i);
    }
    if f > 1.0 - 1e-9 {
        return (PRESETS[i + 1].clone(), i + 1);
    }
    let nearest = if f < 0.5 { i } else { i + 1 };
    (between(&PRESETS[i], &PRESETS[i + 1], f), nearest)
}

/// How much wider than the preset's corridor the probe layouts must leave the corridors (see
/// [`Preset::grid_size`]).
const PROBE_MARGIN: f64 = 1.05;

/// The most cells (or rings) across or down a preset makes.
const MAX_CELLS: u32 = 2000;

impl Preset {
    /// Sets the preset's carver, braid, targets, marker size and narrowest accepted corridor on
    /// `design`, and turns a weave off for the young readers' presets ([`Preset::weave`]); the
    /// size is separate ([`Preset::grid_size`]).
    ///
    /// A "Which path?" design ([`Design::starts`] above 1) keeps braid 0: loops would join its
    /// entrances' trees.
    pub fn apply(&self, design: &mut Design) {
        design.algorithm = self.algorithm;
        if !self.weave {
            design.weave = 0.0;
        }
        design.braid = if design.starts > 1 { 0.0 } else { self.braid };
        design.targets = self.targets;
        design.page.markers = self.markers;
        // the corridor the preset promises is the narrowest the page accepts (the preflight
        // holds the page to it, and the doors the outline cuts to 0.6 of it)
        design.page.min_corridor_mm = design.page.min_corridor_mm.max(self.corridor_mm);
    }

    /// The largest grid of `kind` whose corridors are at least [`Preset::corridor_mm`] wide on
    /// the page `setup` describes, as the page layout ([`draw::layout`]) places it: walls of
    /// `setup.wall_mm`, the title, name line and page number the setup asks for, and room for
    /// the START and FINISH labels (at the preset's marker size) wherever on the outline they land. `(width, height)`; for kinds
    /// without a height ([`TopologyKind::uses_height`]: polar) the width (rings) twice.
    /// A page of [`Orientation::Auto`](crate::page::Orientation::Auto) is sized portrait (a
    /// full grid fills either way; the page turns later only for a maze that gains by it).
    pub fn grid_size(&self, kind: TopologyKind, setup: &PageSetup) -> (u32, u32) {
        let setup = &PageSetup {
            markers: self.markers,
            ..setup.oriented(crate::page::Orientation::Portrait)
        };
        // the probes put the labels at the outline's extreme sides; openings between them can
        // take a little more room (a label beside its arrow near a corner): PROBE_MARGIN covers it
        let fits = |w: u32, h: u32| {
            corridor_on_page(kind, w, h, setup)
                .is_some_and(|c| c >= self.corridor_mm * PROBE_MARGIN - 1e-9)
        };
        if !kind.uses_height() {
            // rings: the disc must fit both ways
            let w = largest(|w| fits(w, w));
            return (w, w);
        }
        let w = largest(|w| fits(w, 2));
        (w, largest(|h| fits(w, h)))
    }

    /// The grid for a design of `kind` filling the silhouette `fg` on the page `setup`: the
    /// preset's width ([`Preset::grid_size`]) with the height that keeps the shape's aspect
    /// ratio, and fewer cells across when that height would not fit the page (so the corridors
    /// keep their width). Polar grids have no aspect ratio: their rings are the grid size's. On a
    /// page of [`Orientation::Auto`](crate::page::Orientation::Auto) the grid is the larger of
    /// the portrait and the landscape page's (a wide shape gets a landscape page's cells, and the
    /// layout turns the page for it).
    pub fn shaped_size(
        &self,
        kind: TopologyKind,
        setup: &PageSetup,
        fg: &Foreground,
    ) -> Result<(u32, u32)> {
        use crate::page::Orientation;
        if setup.orientation == Orientation::Auto {
            let cells = |(w, h): (u32, u32)| u64::from(w) * u64::from(h);
            let p = self.shaped_size(kind, &setup.oriented(Orientation::Portrait), fg)?;
            let l = self.shaped_size(kind, &setup.oriented(Orientation::Landscape), fg)?;
            return Ok(if cells(l) > cells(p) { l } else { p });
        }
        let (w, h) = self.grid_size(kind, setup);
        let fitted = fitted_height(kind, w, fg)?;
        if !kind.uses_height() || fitted <= h {
            return Ok((w, fitted));
        }
        let narrower = ((u64::from(w) * u64::from(h) / u64::from(fitted)) as u32).max(2);
        Ok((narrower, fitted_height(kind, narrower, fg)?))
    }
}

/// The largest `n` in `2..=MAX_CELLS` for which `fits(n)` holds, or 2 when none does, for a
/// `fits` that holds up to some size and not beyond: doubling steps, then halving the gap.
fn largest(fits: impl Fn(u32) -> bool) -> u32 {
    let (mut lo, mut step) = (2u32, 1u32);
    let mut hi = loop {
        let next = lo + step;
        if next > MAX_CELLS || !fits(next) {
            break next.min(MAX_CELLS + 1);
        }
        lo = next;
        step *= 2;
    };
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if fits(mid) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    lo
}

/// The clear corridor width, in millimetres, the page layout gives a full `kind` grid `w` x `h`
/// on `setup` with its entrance and exit where their labels need the most room (the search
/// may move them anywhere on the outline): on opposite outer sides, facing most nearly left and
/// right (both labels beside the maze), up and down (above and below it), or towards opposite
/// corners, the narrowest of these. `None` when the grid cannot be made or the page leaves it
/// no room.
fn corridor_on_page(kind: TopologyKind, w: u32, h: u32, setup: &PageSetup) -> Option<f64> {
    let grid = Arc::new(Grid::new(Topology::new(kind, w, h).ok()?, None).ok()?);
    let sides = label_sides(&grid)?;
    let mut probe = Generated {
        design: Design {
            topology: kind,
            width: w,
            height: h,
            ..Design::default()
        },
        seed: 0,
        maze: Maze::new(grid),
        entrance: sides[0],
        exit: sides[1],
        starts: Vec::new(),
        solution: Vec::new(),
        metrics: Metrics::default(),
        algorithm_used: "",
        braid_skipped: false,
        dropped_cells: 0,
        added_cells: 0,
        outline: None,
    };
    let mut narrowest = f64::INFINITY;
    for pair in sides.chunks(2) {
        (probe.entrance, probe.exit) = (pair[0], pair[1]);
        narrowest = narrowest.min(draw::layout(&probe, setup).ok()?.corridor_mm);
    }
    Some(narrowest)
}

/// The outer sides of `grid` facing most nearly left and right, up and down, up-left and
/// down-right, up-right and down-left (by the direction from the cell's centre to the side's
/// midpoint), in opposite pairs.
fn label_sides(grid: &Grid) -> Option<[Endpoint; 8]> {
    const D: f64 = std::f64::consts::FRAC_1_SQRT_2;
    const TOWARDS: [(f64, f64); 8] = [
        (-1.0, 0.0),
        (1.0, 0.0),
        (0.0, -1.0),
        (0.0, 1.0),
        (-D, -D),
        (D, D),
        (D, -D),
        (-D, D),
    ];
    let mut sides = Vec::new();
    let mut best: [Option<(f64, Endpoint)>; 8] = [None; 8];
    for cell in grid.cells() {
        sides.clear();
        grid.sides(cell, &mut sides);
        let c = grid.center(cell);
        for (side, s) in sides.iter().enumerate() {
            if s.neighbour.is_some() {
                continue;
            }
            let (dx, dy) = ((s.a.x + s.b.x) / 2.0 - c.x, (s.a.y + s.b.y) / 2.0 - c.y);
            let len = dx.hypot(dy);
            if len <= 0.0 {
                continue;
            }
            let e = Endpoint { cell, side };
            let (x, y) = (dx / len, dy / len);
            for (k, (tx, ty)) in TOWARDS.into_iter().enumerate() {
                let v = x * tx + y * ty;
                if best[k].is_none_or(|(b, _)| v > b + 1e-9) {
                    best[k] = Some((v, e));
                }
            }
        }
    }
    let mut out = [best[0]?.1; 8];
    for (o, b) in out.iter_mut().zip(best) {
        *o = b?.1;
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_young_readers_presets_turn_a_weave_off() {
        for p in PRESETS {
            let mut d = Design {
                weave: 0.4,
                ..Design::default()
            };
            p.apply(&mut d);
            let young = p.name == "ages-3-5" || p.name == "ages-6-8";
            assert_eq!(d.weave, if young { 0.0 } else { 0.4 }, "{}", p.name);
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
    fn presets_between_run_linearly_and_keep_the_ends() {
        let (a, b) = (&PRESETS[0], &PRESETS[1]);
        assert_eq!(between(a, b, 0.0), *a);
        assert_eq!(between(a, b, 1.0), *b);
        for (i, p) in PRESETS.iter().enumerate() {
            assert_eq!(preset_between(i as f64), (p.clone(), i));
        }
        let q = between(a, b, 0.25);
        assert!((q.corridor_mm - 12.75).abs() < 1e-9, "{}", q.corridor_mm);
        assert!((q.braid - 0.5375).abs() < 1e-9, "{}", q.braid);
        // the carver and markers are the nearer preset's, the name too
        assert_eq!(
            (q.name, q.algorithm, q.markers),
            (a.name, a.algorithm, a.markers)
        );
        let r = between(&PRESETS[1], &PRESETS[2], 0.75);
        assert_eq!(
            (r.name, r.algorithm),
            (PRESETS[2].name, PRESETS[2].algorithm)
        );
        // the level band and the fewest cells run between the two
        let band = q.targets.level.unwrap();
        assert!((band.min.unwrap() - LEVEL_BANDS[0] * 0.25).abs() < 1e-9);
        assert!(
            (band.max.unwrap() - (LEVEL_BANDS[0] + 0.25 * (LEVEL_BANDS[1] - LEVEL_BANDS[0]))).abs()
                < 1e-9
        );
        assert!((q.targets.cells.unwrap().min.unwrap() - 24.5).abs() < 1e-9);
        q.targets.validate().unwrap();
        // position 1.6: 60 % of the way from ages-6-8 to ages-9-12, nearest ages-9-12
        let (p, nearest) = preset_between(1.6);
        assert_eq!(nearest, 2);
        assert!((p.corridor_mm - 7.2).abs() < 1e-9);
        // the corridor narrows along the whole ramp, never widening
        let mut last = f64::INFINITY;
        for k in 0..=40 {
            let (p, _) = preset_between(k as f64 / 10.0);
            assert!(p.corridor_mm <= last);
            last = p.corridor_mm;
        }
    }
}
