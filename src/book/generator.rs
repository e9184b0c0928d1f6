//! A book file's generator entries (`count = N`): the entry's own fields read and checked
//! ([`Generator`]), then each of its pages made from the design fields they share, the ramps
//! and the difficulty ramp at the page's position, and its seed ([`generator`]).

use std::path::Path;

use serde::Deserialize;

use super::entries::{design_from_table, entry_error, resolve_files};
use super::ramp::Slope;
use super::{DifficultyRamp, PuzzleSpec, Ramp, Settings};
use crate::design::{Design, MAX_SEED};
use crate::error::{Error, Result};
use crate::page::PageSetup;
use crate::shape::{ShapeSource, builtin};

/// A generator entry (`count = N`): its own fields; every other key is a design field.
#[derive(Deserialize)]
struct GeneratorEntry {
    count: i64,
    seed_from: Option<i64>,
    shapes: Option<Vec<String>>,
    width: Option<Ramp>,
    height: Option<Ramp>,
    braid: Option<Ramp>,
    difficulty: Option<DifficultyRamp>,
    /// The design fields, shared by every page.
    #[serde(flatten)]
    design: toml::Table,
}

/// The pages a generator entry (`count = N`) makes, its files relative to `base`; `name` is
/// the entry's (`pages[2]`), and each page's source names its place in it (`pages[2] #5`).
pub(super) fn generator(
    entry: &toml::Table,
    base: &Path,
    name: &str,
    settings: &Settings,
) -> Result<Vec<PuzzleSpec>> {
    let g = Generator::read(entry, base)?;
    (0..g.count)
        .map(|k| g.page(k, base, name, settings))
        .collect()
}

/// A generator entry, read and checked: what its pages share.
struct Generator {
    count: usize,
    seed_from: u64,
    /// The shapes, taken in turn (none: the design's).
    shapes: Vec<ShapeSource>,
    width: Option<Ramp>,
    height: Option<Ramp>,
    braid: Option<Ramp>,
    difficulty: Option<DifficultyRamp>,
    /// The design fields every page shares.
    design: Design,
    /// Whether the entry sets `turn` itself (else the book decides, page by page).
    turn_given: bool,
}

impl Generator {
    /// Reads a generator entry and checks its fields; picture files are relative to `base`.
    fn read(entry: &toml::Table, base: &Path) -> Result<Generator> {
        for k in ["seed", "design"] {
            if entry.contains_key(k) {
                return Err(Error::input(format!(
                    "`{k}` does not go in a generator (use seed_from, and design fields directly)"
                )));
            }
        }
        if entry.contains_key("shape") && entry.contains_key("shapes") {
            return Err(Error::input("give shapes = [...] or shape = ..., not both"));
        }
        let turn_given = entry.contains_key("turn");
        let entry: GeneratorEntry = entry.clone().try_into().map_err(entry_error)?;
        if !(1..=1000).contains(&entry.count) {
            return Err(Error::option(format!(
                "count: must be a whole number from 1 to 1000, got {}",
                entry.count
            )));
        }
        let seed_from = check_seed_from(entry.seed_from)?;
        let shapes = shape_list(entry.shapes, base)?;
        let width = entry.width.map(|r| check_size(r, "width")).transpose()?;
        let height = entry.height.map(|r| check_size(r, "height")).transpose()?;
        if let Some(b) = entry.braid
            && !((0.0..=1.0).contains(&b.from) && (0.0..=1.0).contains(&b.to))
        {
            return Err(Error::option(format!(
                "braid: must be between 0 and 1, got {}..{}",
                crate::error::num(b.from),
                crate::error::num(b.to)
            )));
        }
        let design = design_from_table(entry.design)?;
        if design.style() == crate::design::Style::Tiles && entry.difficulty.is_some() {
            return Err(Error::option(
                "difficulty: the presets are for the walls style (tile mazes have no difficulty \
                 knobs)",
            ));
        }
        Ok(Generator {
            count: entry.count as usize,
            seed_from,
            shapes,
            width,
            height,
            braid: entry.braid,
            difficulty: entry.difficulty,
            design,
            turn_given,
        })
    }

    /// Page `k` (from 0): the shared design with the ramps' values and the shape for page `k`,
    /// its seed `seed_from + k`, and the difficulty ramp's preset at its position.
    fn page(&self, k: usize, base: &Path, name: &str, settings: &Settings) -> Result<PuzzleSpec> {
        let count = self.count;
        let mut d = self.design.clone();
        if let Some(w) = self.width {
            d.width = w.at(k, count).round() as u32;
        }
        if let Some(h) = self.height {
            d.height = h.at(k, count).round() as u32;
        }
        self.set_braid(&mut d, k);
        if !self.shapes.is_empty() {
            d.shape = Some(self.shapes[k % self.shapes.len()].clone());
        }
        let fit_height = self.height.is_none() && d.shape.is_some();
        if self.height.is_none() && d.shape.is_none() {
            d.height = d.width;
        }
        d.seed = Some(self.seed_from + k as u64);
        let auto_turn = fit_height && !self.turn_given;
        let (size_limit, level, turn_preset) = match &self.difficulty {
            Some(r) => {
                let t = self.position(k);
                let level = r.preset_at(t)?.1;
                let limit = self.apply_difficulty(r, &mut d, k, t, settings)?;
                // what sizes a page turned with its shape at the same corridor
                let preset = match limit {
                    Some(_) if auto_turn => Some(
                        r.preset_at(t)?
                            .0
                            .for_inset(d.inset_share(), settings.wall_mm),
                    ),
                    _ => None,
                };
                (limit, Some(level), preset)
            }
            None => (None, None, None),
        };
        d.validate()?;
        resolve_files(&mut d, base);
        Ok(PuzzleSpec {
            design: d,
            fit_height,
            source: format!("{name} #{}", k + 1),
            seed_bumped_from: None,
            size_limit,
            level,
            auto_turn,
            slope: self.slope(),
            turn_preset,
        })
    }

    /// Which way the generator's pages get harder, by its ramps: more cells across or down,
    /// fewer loops, a harder preset ([`Slope::of`]).
    fn slope(&self) -> Option<Slope> {
        let rising = |r: Option<Ramp>| r.and_then(|r| (r.from != r.to).then_some(r.to > r.from));
        let fewer_loops = self
            .braid
            .and_then(|r| (r.from != r.to).then_some(r.to < r.from));
        let harder_preset = self
            .difficulty
            .as_ref()
            .and_then(|d| d.ends().ok())
            .and_then(|(a, b)| (a != b).then_some(b > a));
        Slope::of(&[
            rising(self.width),
            rising(self.height),
            fewer_loops,
            harder_preset,
        ])
    }

    /// Sets page `k`'s braid from the braid ramp, when the generator gives one.
    fn set_braid(&self, d: &mut Design, k: usize) {
        if let (Some(b), Some(w)) = (self.braid, d.walls_mut()) {
            w.braid = (b.at(k, self.count) * 1e6).round() / 1e6;
        }
    }

    /// Page `k`'s position in the generator: 0 for the first page, 1 for the last.
    fn position(&self, k: usize) -> f64 {
        if self.count > 1 {
            k as f64 / (self.count - 1) as f64
        } else {
            0.0
        }
    }

    /// Applies the difficulty ramp `r` at page `k`'s position `t` to its design `d`
    /// ([`DifficultyRamp::apply`]; a height or a braid the generator gives wins over the
    /// preset's). Returns the page's size limit.
    fn apply_difficulty(
        &self,
        r: &DifficultyRamp,
        d: &mut Design,
        k: usize,
        t: f64,
        settings: &Settings,
    ) -> Result<Option<(u32, u32)>> {
        // a page turned with its shape (`turn = "page"`) is sized on its turned page
        let setup = PageSetup {
            turned: d.turn.turns_page(),
            ..settings.page_setup(1, Some(settings.label_for(1)))
        };
        let mut size_limit = r
            .apply(d, t, &setup, self.width.is_some())
            .map_err(|e| Error::new(e.kind, format!("difficulty: {}", e.message)))?;
        if let (Some(_), Some(h)) = (size_limit, self.height) {
            d.height = h.at(k, self.count).round() as u32;
            size_limit = None;
        }
        // a braid the generator gives wins over the preset's
        self.set_braid(d, k);
        Ok(size_limit)
    }
}

/// Checks `seed_from`: given, and a seed.
fn check_seed_from(seed_from: Option<i64>) -> Result<u64> {
    match seed_from {
        Some(n) if n >= 0 && (n as u64) <= MAX_SEED => Ok(n as u64),
        Some(n) => Err(Error::option(format!(
            "seed_from: must be a whole number from 0 to {MAX_SEED}, got {n}"
        ))),
        None => Err(Error::input(
            "seed_from missing: a generator numbers its seeds from it (seed_from = 1000)",
        )),
    }
}

/// The `shapes` list's shapes: built-in names, or picture files relative to `base`.
fn shape_list(names: Option<Vec<String>>, base: &Path) -> Result<Vec<ShapeSource>> {
    match names {
        None => Ok(Vec::new()),
        Some(a) if a.is_empty() => Err(Error::input(
            "shapes: must be a list of built-in shape names or picture files, got []",
        )),
        Some(a) => Ok(a
            .into_iter()
            .map(|s| match builtin::get(&s) {
                Some(_) => ShapeSource::Builtin(s),
                None => ShapeSource::File(base.join(s)),
            })
            .collect()),
    }
}

/// Checks that a width or height ramp is whole numbers from 2 to 1000.
fn check_size(r: Ramp, field: &str) -> Result<Ramp> {
    for x in [r.from, r.to] {
        if x.fract() != 0.0 || !(2.0..=1000.0).contains(&x) {
            return Err(Error::option(format!(
                "{field}: must be whole numbers from 2 to 1000, got {}",
                crate::error::num(x)
            )));
        }
    }
    Ok(r)
}

#[cfg(test)]
mod tests {
    use super::super::{Book, parse};
    use super::*;
    use crate::difficulty::{self, NARROWING, PRESETS};

    fn parse_ok(text: &str) -> Book {
        parse(text, Path::new("."), &crate::load::Memory::new()).unwrap()
    }

    #[test]
    fn generator_ramps_width_and_numbers_seeds() {
        let b = parse_ok(
            "[[pages]]\ncount = 5\nshapes = [\"heart\", \"cat\"]\nseed_from = 1000\n\
             width = \"20..40\"\nbraid = \"0..0.4\"\ntopology = \"hex\"\n",
        );
        assert_eq!(b.puzzles.len(), 5);
        let w: Vec<u32> = b.puzzles.iter().map(|p| p.design.width).collect();
        assert_eq!(w, [20, 25, 30, 35, 40]);
        let s: Vec<u64> = b.puzzles.iter().map(|p| p.design.seed.unwrap()).collect();
        assert_eq!(s, [1000, 1001, 1002, 1003, 1004]);
        assert!((b.puzzles[4].design.walls().braid - 0.4).abs() < 1e-9);
        assert_eq!(
            b.puzzles[1].design.shape,
            Some(ShapeSource::Builtin("cat".into()))
        );
        assert!(b.puzzles.iter().all(|p| p.fit_height));
        assert_eq!(b.puzzles[2].source, "pages[1] #3");
        assert_eq!(
            b.puzzles[0].design.walls().topology,
            crate::topology::TopologyKind::Hex
        );
    }

    #[test]
    fn difficulty_ramp_walks_the_presets() {
        let b = parse_ok(
            "[[pages]]\ncount = 5\nseed_from = 1\ndifficulty = \"easy..hard\"\n\
             [[pages]]\ncount = 2\nseed_from = 1\ndifficulty = \"expert\"\nwidth = 12\n\
             braid = 0.1\nshapes = [\"heart\"]\n",
        );
        let by_name = |n: &str| difficulty::preset(n).unwrap();
        // easy..hard is presets 1 to 3: the pages at 1, 1.5, 2, 2.5 and 3, interpolated between
        let levels = [1, 2, 2, 3, 3];
        let setup = b.settings.page_setup(1, Some("Puzzle 1".into()));
        for (k, p) in b.puzzles.iter().take(5).enumerate() {
            let (preset, nearest) = difficulty::preset_between(1.0 + k as f64 / 2.0);
            assert_eq!(nearest, levels[k]);
            assert_eq!(p.level, Some(levels[k]), "{}", p.source);
            assert_eq!(p.design.walls().algorithm, preset.algorithm, "{}", p.source);
            assert_eq!(p.design.targets, preset.targets, "{}", p.source);
            assert!(
                (p.design.walls().braid - preset.braid).abs() < 1e-12,
                "{}",
                p.source
            );
            let size = crate::sizing::page_grid(&preset, p.design.walls().topology, &setup);
            assert_eq!((p.design.width, p.design.height), size, "{}", p.source);
            assert_eq!(p.size_limit, Some(size));
            // the whole-preset pages are the presets themselves
            if k % 2 == 0 {
                assert_eq!(preset, PRESETS[levels[k]], "{}", p.source);
            }
        }
        // the half-way pages: corridors half way, so grids between their neighbours' (the
        // narrowest corridor accepted three quarters of 7.5 mm)
        assert!((b.puzzles[1].design.page.min_corridor_mm - 7.5 * NARROWING).abs() < 1e-9);
        for k in 0..4 {
            assert!(b.puzzles[k].design.width < b.puzzles[k + 1].design.width);
        }
        // one preset for every page: exactly that preset, as before the ramp interpolated
        let single = &b.puzzles[5];
        assert_eq!(single.level, Some(4));
        assert_eq!(single.design.walls().algorithm, by_name("expert").algorithm);
        // easier pages have bigger corridors, so fewer cells
        assert!(b.puzzles[0].design.width < b.puzzles[4].design.width);
        // a given width and braid win over the preset's
        let last = &b.puzzles[6];
        assert_eq!(last.design.width, 12);
        assert_eq!(last.size_limit, None);
        assert!((last.design.walls().braid - 0.1).abs() < 1e-9);
        assert_eq!(last.design.targets, by_name("expert").targets);
    }
}
