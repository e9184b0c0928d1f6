//! A generator's ramps: a number that runs from its first page to its last ([`Ramp`]), and
//! the reader presets a difficulty ramp walks ([`DifficultyRamp`]), each read from its string.

use serde::{Deserialize, Serialize};

use crate::design::Design;
use crate::difficulty::{self, PRESETS, Preset};
use crate::error::{Error, Result};
use crate::page::PageSetup;

/// A reader-level ramp over a generator's pages (`difficulty = "easy..hard"`, or one preset
/// name for every page): the first page gets the `from` preset, the last the `to` preset, the
/// pages between the presets between them in [`PRESETS`] order. It reads from its string
/// form (`"easy..hard"` or `"hard"`), both names checked.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "String")]
pub struct DifficultyRamp {
    /// The first page's preset name.
    pub from: String,
    /// The last page's preset name.
    pub to: String,
}

impl TryFrom<String> for DifficultyRamp {
    type Error = String;

    /// Parses `"A..B"` or a single preset name `"A"` (both ends `A`), checking the names.
    fn try_from(s: String) -> std::result::Result<Self, String> {
        let (a, b) = s.split_once("..").unwrap_or((&s, &s));
        let r = DifficultyRamp {
            from: a.trim().to_string(),
            to: b.trim().to_string(),
        };
        r.validate().map_err(|e| e.message)?;
        Ok(r)
    }
}

impl DifficultyRamp {
    /// Checks both names against the presets (an unknown name lists the known ones).
    pub fn validate(&self) -> Result<()> {
        self.ends().map(|_| ())
    }

    /// The indices in [`PRESETS`] of the first page's preset and the last's.
    pub(super) fn ends(&self) -> Result<(usize, usize)> {
        let index = |name: &str| {
            let p = difficulty::preset(name).ok_or_else(|| {
                Error::option(format!(
                    "unknown preset \"{name}\" (known: {})",
                    difficulty::preset_names()
                ))
            })?;
            Ok(PRESETS.iter().position(|q| q.name == p.name).unwrap_or(0))
        };
        Ok((index(&self.from)?, index(&self.to)?))
    }

    /// The preset for position `t` (0 = the generator's first page, 1 = its last): the presets
    /// between the ends, interpolated ([`difficulty::preset_between`]: corridor width, braid and
    /// targets linearly between the two presets `t` falls between, the carver the nearer's), and
    /// the index in [`PRESETS`] of the nearest preset (the page's level). A single preset
    /// (`"ages-6-8"`) is that preset on every page, exactly.
    pub fn preset_at(&self, t: f64) -> Result<(Preset, usize)> {
        let (a, b) = self.ends()?;
        let t = if t.is_finite() {
            t.clamp(0.0, 1.0)
        } else {
            0.0
        };
        if a == b {
            return Ok((PRESETS[a].clone(), a));
        }
        Ok(difficulty::preset_between(
            a as f64 + (b as f64 - a as f64) * t,
        ))
    }

    /// Sets the knobs of the preset for position `t` on `design` (carver, braid, targets) and,
    /// unless `size_given`, its size: the preset's [`crate::sizing::page_grid`] for `setup`, so the
    /// corridors keep the preset's width on the book's page. Returns that size as the limit a
    /// shape's fitted height must respect (`None` when the size was given).
    pub fn apply(
        &self,
        design: &mut Design,
        t: f64,
        setup: &PageSetup,
        size_given: bool,
    ) -> Result<Option<(u32, u32)>> {
        let (preset, _) = self.preset_at(t)?;
        preset.apply(design);
        if size_given {
            return Ok(None);
        }
        // a weave's inset corridors keep the preset's width
        let sized = preset.for_inset(design.inset_share(), setup.wall_mm);
        let (w, h) = crate::sizing::page_grid(&sized, design.walls().topology, setup);
        design.width = w;
        design.height = h;
        Ok(Some((w, h)))
    }
}

/// A number, or a linear ramp from the first page of a generator to its last. It reads from a
/// number or a string `"A..B"`; both ends must be finite.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "RampText")]
pub struct Ramp {
    /// The first page's value.
    pub from: f64,
    /// The last page's value.
    pub to: f64,
}

/// What a [`Ramp`] is written as: a number or a string.
#[derive(Deserialize)]
#[serde(untagged, expecting = "must be a number or a ramp \"A..B\"")]
enum RampText {
    Number(f64),
    Text(String),
}

impl TryFrom<RampText> for Ramp {
    type Error = String;

    fn try_from(v: RampText) -> std::result::Result<Self, String> {
        let (r, shown) = match v {
            RampText::Number(x) => (Some(Ramp { from: x, to: x }), crate::error::num(x)),
            RampText::Text(s) => {
                let num = |t: &str| t.trim().parse::<f64>().ok();
                let r = s.split_once("..").and_then(|(a, b)| {
                    Some(Ramp {
                        from: num(a)?,
                        to: num(b)?,
                    })
                });
                (r, format!("\"{}\"", crate::error::clip(&s)))
            }
        };
        r.filter(|r| r.from.is_finite() && r.to.is_finite())
            .ok_or_else(|| format!("must be a number or a ramp \"A..B\", got {shown}"))
    }
}

impl Ramp {
    /// The value at page `k` of `n` (from 0).
    pub fn at(&self, k: usize, n: usize) -> f64 {
        if n <= 1 {
            self.from
        } else {
            self.from + (self.to - self.from) * k as f64 / (n - 1) as f64
        }
    }
}

/// Which way a generator's pages get harder along it: its size ramps growing, its braid
/// (loops) ramp falling, or its difficulty ramp rising make it [`Slope::Harder`]; the opposite
/// [`Slope::Easier`]. A generator whose ramps disagree, or that has none, has no slope.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Slope {
    /// Each page at least as hard as the one before.
    Harder,
    /// Each page at most as hard as the one before.
    Easier,
}

impl Slope {
    /// The slope of ramps that each get harder (`Some(true)`), easier (`Some(false)`) or stay
    /// level (`None`): the one they agree on, none when they disagree or all stay level.
    pub fn of(ramps: &[Option<bool>]) -> Option<Slope> {
        let harder = ramps.contains(&Some(true));
        let easier = ramps.contains(&Some(false));
        match (harder, easier) {
            (true, false) => Some(Slope::Harder),
            (false, true) => Some(Slope::Easier),
            _ => None,
        }
    }
}

/// The stars each puzzle of a book prints, in book order: a puzzle a difficulty preset made
/// (`levels[i]`, an index into [`PRESETS`]) shows that preset's, one star for ages 3-5 to
/// five for expert, so the stars, the contents' sections and the level agree; another shows
/// the stars its maze earns among mazes of its size and shape (`measured[i]`), except that
/// along a generator whose pages get harder (`slopes[i]`, one run per generator: `runs[i]`
/// names it) they never fall, nor rise where its pages get easier: the stars nearest the
/// measured ones that keep to the slope (a least-squares monotone fit, pool adjacent
/// violators, rounded).
pub(super) fn star_counts(
    levels: &[Option<usize>],
    measured: &[Option<usize>],
    slopes: &[Option<Slope>],
    runs: &[&str],
) -> Vec<Option<usize>> {
    let mut stars: Vec<Option<usize>> = levels
        .iter()
        .zip(measured)
        .map(|(l, m)| l.map(|l| (l + 1).clamp(1, STARS)).or(*m))
        .collect();
    let mut i = 0;
    while i < stars.len() {
        // a generator's pages without a level, that all have measured stars
        let mut j = i;
        while j < stars.len()
            && runs[j] == runs[i]
            && levels[j].is_none()
            && measured[j].is_some()
            && slopes[j].is_some()
        {
            j += 1;
        }
        if j == i {
            i += 1;
            continue;
        }
        let values: Vec<f64> = measured[i..j]
            .iter()
            .map(|m| m.unwrap_or(1) as f64)
            .collect();
        let fitted = match slopes[i] {
            Some(Slope::Easier) => {
                let mut v: Vec<f64> = values.into_iter().rev().collect();
                v = rising_fit(&v);
                v.reverse();
                v
            }
            _ => rising_fit(&values),
        };
        for (k, f) in fitted.into_iter().enumerate() {
            stars[i + k] = Some((f.round() as usize).clamp(1, STARS));
        }
        i = j;
    }
    stars
}

/// The most stars a page prints.
const STARS: usize = 5;

/// The non-decreasing sequence nearest `values` by least squares (pool adjacent violators:
/// each run that falls is replaced by its mean).
fn rising_fit(values: &[f64]) -> Vec<f64> {
    // (sum, count) of each pooled block
    let mut blocks: Vec<(f64, usize)> = Vec::with_capacity(values.len());
    for &v in values {
        blocks.push((v, 1));
        while blocks.len() > 1 {
            let (s1, n1) = blocks[blocks.len() - 1];
            let (s0, n0) = blocks[blocks.len() - 2];
            if s0 / n0 as f64 <= s1 / n1 as f64 {
                break;
            }
            blocks.pop();
            *blocks.last_mut().expect("two blocks") = (s0 + s1, n0 + n1);
        }
    }
    blocks
        .into_iter()
        .flat_map(|(s, n)| std::iter::repeat_n(s / n as f64, n))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stars_follow_the_level_and_never_fall_along_a_ramp() {
        // a difficulty ramp: the preset's stars, whatever the mazes measured
        let levels = [Some(0), Some(1), Some(1), Some(2)];
        let measured = [Some(3), Some(1), Some(4), Some(2)];
        let slopes = [Some(Slope::Harder); 4];
        let runs = ["pages[1]"; 4];
        assert_eq!(
            star_counts(&levels, &measured, &slopes, &runs),
            [Some(1), Some(2), Some(2), Some(3)]
        );
        // a width ramp: the measured stars, made to rise, as near them as can be
        let none = [None; 6];
        let measured = [Some(2), Some(4), Some(1), Some(3), Some(3), Some(5)];
        let stars = star_counts(&none, &measured, &[Some(Slope::Harder); 6], &["p"; 6]);
        assert_eq!(
            stars,
            [Some(2), Some(3), Some(3), Some(3), Some(3), Some(5)]
        );
        assert!(stars.windows(2).all(|w| w[0] <= w[1]));
        // getting easier: never rising
        let stars = star_counts(&none, &measured, &[Some(Slope::Easier); 6], &["p"; 6]);
        assert!(stars.windows(2).all(|w| w[0] >= w[1]), "{stars:?}");
        // no slope (the ramps disagree, or none): as measured
        assert_eq!(
            star_counts(&none, &measured, &[None; 6], &["p"; 6]),
            measured
        );
        // two generators are fitted each on its own: the second may start lower
        let runs = ["a", "a", "a", "b", "b", "b"];
        let measured = [Some(3), Some(2), Some(4), Some(1), Some(2), Some(1)];
        assert_eq!(
            star_counts(&none, &measured, &[Some(Slope::Harder); 6], &runs),
            [Some(3), Some(3), Some(4), Some(1), Some(2), Some(2)]
        );
        // a maze without a measure (tiles) keeps none
        assert_eq!(
            star_counts(&[None], &[None], &[Some(Slope::Harder)], &["t"]),
            [None]
        );
        assert_eq!(
            Slope::of(&[Some(true), None]),
            Some(Slope::Harder),
            "one ramp rising"
        );
        assert_eq!(Slope::of(&[Some(true), Some(false)]), None);
        assert_eq!(Slope::of(&[None, None]), None);
    }

    #[test]
    fn the_monotone_fit_is_the_nearest_rising_sequence() {
        assert_eq!(rising_fit(&[1.0, 2.0, 3.0]), [1.0, 2.0, 3.0]);
        assert_eq!(rising_fit(&[3.0, 1.0]), [2.0, 2.0]);
        assert_eq!(rising_fit(&[1.0, 4.0, 2.0, 3.0]), [1.0, 3.0, 3.0, 3.0]);
    }
}
