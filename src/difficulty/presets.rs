//! Reader presets ([`PRESETS`]): a carver, a braid, targets and a corridor width on paper set
//! together. The grid size that keeps that corridor width on a page is decided with every other
//! grid size, in [`crate::sizing`].

use crate::carve::Algorithm;
use crate::design::Design;
use crate::metrics::LEVEL_BANDS;
use crate::page::MarkerSize;
use crate::targets::{Range, Targets};

/// How narrow a preset's corridors may get for a shape that leaves too few cells at the
/// preset's width ([`Preset::narrowest_mm`]): ages 3-5 from 14 mm down to 10.5 mm, still a
/// crayon's width (puzzle makers give 10-14 mm for that age).
pub const NARROWING: f64 = 0.75;

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
    /// How many items a "collect the items" puzzle for the readers asks for
    /// ([`crate::items`]; `hedge generate --collect` without a number).
    pub collect: u32,
}

const fn range(min: Option<f64>, max: Option<f64>) -> Option<Range> {
    Some(Range::new(min, max))
}

/// The targets of a level: the band of the grid's spread (percent), the fewest cells that
/// hold it and the fewest decision points on the solution (a maze for the age, not one
/// corridor).
const fn level(lo: f64, hi: f64, min_cells: f64, min_decisions: f64) -> Targets {
    Targets {
        score: None,
        ratio: None,
        branching: None,
        dead_ends: None,
        depth: None,
        decisions: range(Some(min_decisions), None),
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
/// ([`crate::sizing::page_grid`]) unless the size is given. Each level also needs a grid big enough
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
        targets: level(0.0, LEVEL_BANDS[0], 20.0, 2.0),
        markers: MarkerSize::Huge,
        weave: false,
        collect: 3,
    },
    Preset {
        name: "ages-6-8",
        label: "Ages 6-8",
        aliases: &["easy"],
        corridor_mm: 9.0,
        algorithm: Algorithm::Backtracker,
        braid: 0.35,
        targets: level(LEVEL_BANDS[0], LEVEL_BANDS[1], 40.0, 4.0),
        markers: MarkerSize::Large,
        weave: false,
        collect: 4,
    },
    Preset {
        name: "ages-9-12",
        label: "Ages 9-12",
        aliases: &["medium"],
        corridor_mm: 6.0,
        algorithm: Algorithm::GrowingTree,
        braid: 0.0,
        targets: level(LEVEL_BANDS[1], LEVEL_BANDS[2], 120.0, 6.0),
        markers: MarkerSize::Normal,
        weave: true,
        collect: 5,
    },
    Preset {
        name: "adult",
        label: "Adult",
        aliases: &["hard"],
        corridor_mm: 4.0,
        algorithm: Algorithm::Wilson,
        braid: 0.0,
        targets: level(LEVEL_BANDS[2], LEVEL_BANDS[3], 300.0, 8.0),
        markers: MarkerSize::Normal,
        weave: true,
        collect: 6,
    },
    Preset {
        name: "expert",
        label: "Expert",
        aliases: &[],
        corridor_mm: 3.0,
        algorithm: Algorithm::Wilson,
        braid: 0.0,
        targets: level(LEVEL_BANDS[3], 100.0, 600.0, 10.0),
        markers: MarkerSize::Normal,
        weave: true,
        collect: 8,
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
            decisions: range(ta.decisions, tb.decisions),
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

impl Preset {
    /// The narrowest corridor the preset accepts, in millimetres: [`NARROWING`] of its width
    /// (a shape too small for a maze at the preset's width gets more cells, down to this).
    pub fn narrowest_mm(&self) -> f64 {
        self.corridor_mm * NARROWING
    }

    /// The preset as a grid drawn with corridors inset by `inset` of a side (a weave's, room
    /// for its bridges: [`Design::inset_share`]) is sized: its corridor widened so that the
    /// inset corridor, `1 - 2 * inset` of the cell less the wall of `wall_mm`, keeps the
    /// preset's width. Itself when `inset` is 0.
    pub fn for_inset(&self, inset: f64, wall_mm: f64) -> Preset {
        let keep = 1.0 - 2.0 * inset.clamp(0.0, 0.49);
        let mut p = self.clone();
        if keep < 1.0 {
            let wall = wall_mm.max(0.0);
            p.corridor_mm = (self.corridor_mm + wall) / keep - wall;
        }
        p
    }

    /// Sets the preset's carver, braid, targets, marker size and narrowest accepted corridor on
    /// `design`, and turns a weave off for the young readers' presets ([`Preset::weave`]); the
    /// size is separate ([`crate::sizing::page_grid`]).
    ///
    /// A design with items to collect keeps braid 0 too (a loop could go round an item), as
    /// does one that reveals a picture (a loop would give a way round it).
    /// A "Which path?" design ([`Design::starts`] above 1) keeps braid 0: loops would join its
    /// entrances' trees.
    pub fn apply(&self, design: &mut Design) {
        if let Some(w) = design.walls_mut() {
            w.algorithm = self.algorithm;
            if !self.weave {
                w.weave = 0.0;
            }
            w.braid = if w.starts > 1 || w.collect > 0 || w.reveal.is_some() {
                0.0
            } else {
                self.braid
            };
        }
        design.targets = self.targets;
        // a picture maze's path is as long as its picture: where it stands among the mazes
        // of its grid is the picture's doing, so its level is not asked (its floors are)
        if design.walls().reveal.is_some() {
            design.targets.level = None;
        }
        design.page.markers = self.markers;
        // the narrowest corridor the preset accepts is the narrowest the page accepts (the
        // preflight holds the page to it, and the crayon's way to 0.6 of it)
        design.page.min_corridor_mm = design.page.min_corridor_mm.max(self.narrowest_mm());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::design::{Kind, Walls};

    #[test]
    fn the_young_readers_presets_turn_a_weave_off() {
        for p in PRESETS {
            let mut d = Design {
                kind: Kind::Walls(Walls {
                    weave: 0.4,
                    ..Walls::DEFAULT
                }),
                ..Design::default()
            };
            p.apply(&mut d);
            let young = p.name == "ages-3-5" || p.name == "ages-6-8";
            assert_eq!(d.walls().weave, if young { 0.0 } else { 0.4 }, "{}", p.name);
        }
    }

    #[test]
    fn an_inset_preset_keeps_its_corridor_inside_the_inset() {
        let p = preset("medium").unwrap();
        assert_eq!(p.for_inset(0.0, 0.8), *p);
        let q = p.for_inset(0.2, 0.8);
        // the cell (corridor + wall) of the widened preset, inset by 0.2 each side, holds the
        // preset's corridor and its wall
        assert!((0.6 * (q.corridor_mm + 0.8) - 0.8 - p.corridor_mm).abs() < 1e-9);
        assert!(q.corridor_mm > p.corridor_mm / 0.6);
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
        assert!((q.targets.cells.unwrap().min.unwrap() - 25.0).abs() < 1e-9);
        assert!((q.targets.decisions.unwrap().min.unwrap() - 2.5).abs() < 1e-9);
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
