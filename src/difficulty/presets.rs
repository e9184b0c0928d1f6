//! Reader presets ([`PRESETS`]): a carver, a braid, targets and a corridor width on paper set
//! together, and the grid size that keeps that corridor width on a page.

use crate::carve::Algorithm;
use crate::design::Design;
use crate::error::Result;
use crate::page::PageSetup;
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
        if !kind.uses_height() {
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
        if !kind.uses_height() || fitted <= h {
            return Ok((w, fitted));
        }
        let narrower = ((u64::from(w) * u64::from(h) / u64::from(fitted)) as u32).max(2);
        Ok((narrower, fitted_height(kind, narrower, fg)?))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
