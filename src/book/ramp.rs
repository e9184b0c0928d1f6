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

    fn ends(&self) -> Result<(usize, usize)> {
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
