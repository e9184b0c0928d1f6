//! One way to make a page: the entry point the command line, the editor and the book builder
//! share, whatever the design's style.
//!
//! - [`prepare`] takes a [`Design`] and a [`Loader`] for what it names: the shape's picture is
//!   decoded and cut ([`cut`]), the height fitted to it when asked ([`Fit`]), the mask made and
//!   its islands kept or bridged. The [`Prepared`] design can be made many times (new seeds, a
//!   search) without decoding the picture again; [`prepare_with`] starts from a foreground
//!   already cut (the editor and the book keep one per picture).
//! - [`Prepared::make`] makes the maze ([`Prepared::search`] looks for one that meets the
//!   design's difficulty targets), and gives back a [`Made`]: a maze of cells and walls or a hex
//!   tile maze, that knows its pages ([`Made::pages`], [`Made::render`]), its summary line, its
//!   JSON, its text drawing and its target report. Callers do not branch on the style.
//!
//! This module sits above [`crate::pipeline`] (the stages) and [`crate::difficulty`] (the
//! search); it reads nothing itself.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use crate::design::{Design, Style};
use crate::difficulty::{self, Found, Progress, Report, SearchOptions};
use crate::draw::{self, Drawing, KeyMaze, Layout, Pages};
use crate::error::{Error, ErrorKind, Result};
use crate::export::{self, Format, Rendered};
use crate::load::{LoadedShape, Loader, load_shape};
use crate::mask::Mask;
use crate::metrics::Metrics;
use crate::outline::{Clip, Outline};
use crate::page::PageSetup;
use crate::pipeline::{
    Generated, GeneratedTiles, ShapedMask, generate_revealing, generate_shaped_unchecked,
    generate_tiles, shape_mask_with,
};
use crate::shape::fit::PixelMap;
use crate::shape::outline::{Ring, ring_box, split_marks};
use crate::shape::wand::Pick;
use crate::shape::{Cut, Foreground, Islands, ShapeSource};
use crate::topology::{Coord, Point, Topology, TopologyKind};

pub use crate::targets::TARGETS_WALLS_ONLY;

/// Checks that `design`'s difficulty targets (if any) can be searched for: an error
/// ([`TARGETS_WALLS_ONLY`]) for a tile design with targets.
pub fn check_targets(design: &Design) -> Result<()> {
    if design.style() == Style::Tiles && !design.targets.is_empty() {
        return Err(Error::option(TARGETS_WALLS_ONLY));
    }
    Ok(())
}

/// The picture `loaded` of `source` cut into its foreground with `design`'s threshold and invert;
/// an error about the picture names its file (path last).
pub fn cut(source: &ShapeSource, loaded: &LoadedShape, cut: Cut) -> Result<Foreground> {
    Foreground::from_picture(&loaded.picture, cut).map_err(|e| at_file(source, e))
}

/// `e` with the file of `source` named last (built-in and text shapes have none). A text that
/// cuts to nothing is blamed, not its picture: its characters draw nothing.
fn at_file(source: &ShapeSource, e: Error) -> Error {
    match source {
        ShapeSource::File(p) => Error::new(e.kind, format!("{}: {}", e.message, p.display())),
        ShapeSource::Text { text, .. } if e.kind == crate::error::ErrorKind::EmptyMask => {
            Error::new(
                e.kind,
                format!(
                    "the text of a text shape has no printable letters: {:?} draws nothing",
                    crate::shape::text::lines(text).join(" ")
                ),
            )
        }
        ShapeSource::Builtin(_) | ShapeSource::Text { .. } => e,
    }
}

/// The cut a design asks for (its threshold and invert knobs).
pub fn design_cut(design: &Design) -> Cut {
    Cut {
        threshold: design.threshold,
        invert: design.invert,
    }
}

/// How a design makes its shape from its picture: the subject its pick selects, or the cut,
/// and whether a picture that looks like a photo is cut anyway.
#[derive(Clone, Debug, PartialEq)]
pub struct Cutting {
    /// The threshold and invert knobs.
    pub cut: Cut,
    /// The subject picked with the wand ([`crate::shape::wand`]), which replaces the cut.
    pub pick: Option<Pick>,
    /// Cut a picture that looks like a photo anyway.
    pub force: bool,
    /// Turn the shape a quarter turn anticlockwise ([`Design::turn`]).
    pub turn: bool,
}

impl Cutting {
    /// What `design` asks for.
    pub fn of(design: &Design) -> Cutting {
        Cutting {
            cut: design_cut(design),
            pick: design.pick.clone(),
            force: design.photo,
            turn: design.turn.turns_shape(),
        }
    }
}

/// The shape's foreground from the picture `loaded` of `source`, as `how` says: the subject
/// picked, else (a file that looks like a photo is refused, unless forced, with
/// [`crate::shape::photo::PHOTO_MESSAGE`]) the cut. Errors name the file last. The command line,
/// books and the editor all cut through here.
pub fn foreground(source: &ShapeSource, loaded: &LoadedShape, how: &Cutting) -> Result<Foreground> {
    let fg = picked_or_cut(source, loaded, how)?;
    Ok(if how.turn { fg.turned() } else { fg })
}

/// [`foreground`] before the turn.
fn picked_or_cut(source: &ShapeSource, loaded: &LoadedShape, how: &Cutting) -> Result<Foreground> {
    if let Some(pick) = &how.pick {
        return crate::shape::wand::select(&loaded.picture, pick).map_err(|e| at_file(source, e));
    }
    if matches!(source, ShapeSource::File(_))
        && !how.force
        && crate::shape::photo::looks_like_photo(&loaded.picture)
    {
        return Err(at_file(
            source,
            Error::input(crate::shape::photo::PHOTO_MESSAGE),
        ));
    }
    cut(source, loaded, how.cut)
}

/// A picture: its source, and the folder a relative path starts from.
type PictureKey = (ShapeSource, Option<PathBuf>);

/// Shape pictures decoded and cut, each once however many mazes use them: the editor keeps its
/// last picture and cut ([`ShapeCache::keeping`] 1) and asks again as the knobs turn; a book
/// fills one with every shape its pages use ([`ShapeCache::cut_all`], in parallel) and its
/// pages read it ([`ShapeCache::get`]). A picture is decoded once for all its cuts (a book's
/// shape both upright and turned). Failures are kept too, so a bad picture is not read again.
#[derive(Debug, Default)]
pub struct ShapeCache {
    /// Decoded pictures, the newest last.
    pictures: Vec<(PictureKey, Result<Arc<LoadedShape>>)>,
    /// Cuts of them, the newest last.
    cuts: Vec<(PictureKey, Cutting, Result<Arc<Foreground>>)>,
    /// How many pictures, and how many cuts, are kept (the oldest go first); `None` for all.
    keep: Option<usize>,
}

impl ShapeCache {
    /// A cache that keeps the last `n` pictures and the last `n` cuts.
    pub fn keeping(n: usize) -> ShapeCache {
        ShapeCache {
            keep: Some(n.max(1)),
            ..ShapeCache::default()
        }
    }

    /// The shape `source` (a relative path from `base`) read through `loader` and cut as `how`
    /// says ([`foreground`]), from the cache when it holds it.
    pub fn foreground(
        &mut self,
        loader: &dyn Loader,
        source: &ShapeSource,
        base: Option<&Path>,
        how: &Cutting,
    ) -> Result<Arc<Foreground>> {
        let key = (source.clone(), base.map(Path::to_path_buf));
        if let Some(fg) = self.cut_of(&key, how) {
            return fg;
        }
        let picture = match self.pictures.iter().find(|(k, _)| *k == key) {
            Some((_, p)) => p.clone(),
            None => {
                let p = load_shape(loader, source, base).map(Arc::new);
                self.pictures.push((key.clone(), p.clone()));
                trim(&mut self.pictures, self.keep);
                p
            }
        };
        let fg = picture.and_then(|p| foreground(source, &p, how).map(Arc::new));
        self.cuts.push((key, how.clone(), fg.clone()));
        trim(&mut self.cuts, self.keep);
        fg
    }

    /// Reads and cuts every shape of `wanted` (each a source and a cut; relative paths as
    /// given) in parallel, each picture decoded once, and keeps every cut (not the pictures).
    /// Returns each entry's result, in `wanted`'s order.
    pub fn cut_all(
        &mut self,
        loader: &dyn Loader,
        wanted: &[(ShapeSource, Cutting)],
    ) -> Vec<Result<Arc<Foreground>>> {
        use rayon::prelude::*;
        let mut sources: Vec<&ShapeSource> = Vec::new();
        for (s, _) in wanted {
            if !sources.contains(&s) {
                sources.push(s);
            }
        }
        // one task a picture: decoded, cut every way asked, and dropped, so no more pictures
        // are held at once than there are threads
        let per_picture: Vec<Vec<(usize, Result<Arc<Foreground>>)>> = sources
            .par_iter()
            .map(|&source| {
                let picture = load_shape(loader, source, None);
                wanted
                    .iter()
                    .enumerate()
                    .filter(|(_, (s, _))| s == source)
                    .map(|(i, (_, how))| {
                        let fg = match &picture {
                            Ok(p) => foreground(source, p, how).map(Arc::new),
                            Err(e) => Err(e.clone()),
                        };
                        (i, fg)
                    })
                    .collect()
            })
            .collect();
        let mut cut: Vec<Option<Result<Arc<Foreground>>>> = vec![None; wanted.len()];
        for (i, fg) in per_picture.into_iter().flatten() {
            cut[i] = Some(fg);
        }
        let cut: Vec<Result<Arc<Foreground>>> = cut
            .into_iter()
            .map(|c| c.expect("every entry has its picture's task"))
            .collect();
        for ((s, how), fg) in wanted.iter().zip(&cut) {
            self.cuts.push(((s.clone(), None), how.clone(), fg.clone()));
        }
        trim(&mut self.cuts, self.keep);
        cut
    }

    /// The shape `source` (relative paths as given) cut as `how` says, when the cache holds it
    /// cut without error.
    pub fn get(&self, source: &ShapeSource, how: &Cutting) -> Option<Arc<Foreground>> {
        self.cut_of(&(source.clone(), None), how)?.ok()
    }

    /// The picture last decoded, when it decoded (the editor picks a subject in it).
    pub fn picture(&self) -> Option<Arc<LoadedShape>> {
        self.pictures.last()?.1.as_ref().ok().cloned()
    }

    /// The cut kept for `key` and `how`, if any (newest first).
    fn cut_of(&self, key: &PictureKey, how: &Cutting) -> Option<Result<Arc<Foreground>>> {
        self.cuts
            .iter()
            .rev()
            .find(|(k, c, _)| k == key && c == how)
            .map(|(_, _, fg)| fg.clone())
    }
}

/// Drops the oldest entries of `list` past `keep`.
fn trim<T>(list: &mut Vec<T>, keep: Option<usize>) {
    if let Some(n) = keep
        && list.len() > n
    {
        list.drain(..list.len() - n);
    }
}

/// A design's shape, loaded through `loader` and cut ([`foreground`]); `None` without a shape. A
/// relative file path is taken relative to `base` when given. Returns the foreground and the
/// loader's note (e.g. a picture whose content is not the format its name says).
pub fn load_foreground(
    design: &Design,
    loader: &dyn Loader,
    base: Option<&Path>,
) -> Result<Option<(Foreground, Option<String>)>> {
    let Some(source) = &design.shape else {
        return Ok(None);
    };
    let loaded = load_shape(loader, source, base)?;
    let fg = foreground(source, &loaded, &Cutting::of(design))?;
    Ok(Some((fg, loaded.note)))
}

/// The share of a shape's cells above which dropping the parts not joined to the largest is a
/// warning rather than a note.
pub const DROPPED_WARNING_SHARE: f64 = crate::pipeline::MAX_DROPPED_SHARE;

/// How [`prepare`] sizes a shaped design (the rule is [`crate::sizing`]'s).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Fit {
    /// Set the height from the shape's aspect ratio (for the design's width).
    pub height: bool,
    /// With `height`: keep the grid within this size (a preset's corridor width), so a tall
    /// shape gets fewer cells across (polar grids are left as they are).
    pub size_limit: Option<(u32, u32)>,
}

/// The narrowest corridor, in millimetres, a printed page may have: narrower, no pen can
/// follow it and the walls run together (a page under the setup's comfortable minimum is
/// printed with a warning; one under this is refused).
pub const UNPRINTABLE_MM: f64 = 0.5;

/// The refusal of a page whose corridors would be `corridor_mm` wide with walls of `wall_mm`,
/// under [`UNPRINTABLE_MM`]: one line, with the share of the cells across that would print.
fn unprintable(corridor_mm: f64, wall_mm: f64) -> Error {
    // (corridor + wall) is a cell on the page: the share of the cells across that gives the
    // least printable corridor
    let cell = (corridor_mm + wall_mm).max(1e-9);
    let share = cell / (UNPRINTABLE_MM + wall_mm);
    Error::input(format!(
        "the corridors would be {:.2} mm wide on this page, too narrow to print (the least is \
         {UNPRINTABLE_MM} mm): use a larger paper or at most {:.0}% of the cells across",
        corridor_mm.max(0.0),
        (share * 100.0).floor().clamp(1.0, 99.0)
    ))
}

/// A design ready to be made: its shape decoded, cut and fitted to the grid as a mask.
#[derive(Clone, Debug)]
pub struct Prepared {
    design: Design,
    foreground: Option<Arc<Foreground>>,
    shaped: Option<ShapedMask>,
    note: Option<String>,
    /// The cells clipped to the shape's outline, when the design is drawn with it
    /// ([`crate::outline`]).
    clip: Option<Arc<Clip>>,
    /// The picture the design reveals, cut ([`crate::reveal_fit::load`]).
    reveal: Option<Arc<Foreground>>,
}

/// Prepares `design`: loads its shape through `loader` (relative paths from `base`), fits its
/// size as `fit` says and makes its mask. See [`Prepared::make`].
pub fn prepare(
    design: &Design,
    loader: &dyn Loader,
    base: Option<&Path>,
    fit: Fit,
) -> Result<Prepared> {
    // checked before the picture is read: a wrong knob never waits for a big picture
    design.validate()?;
    let (fg, note) = match load_foreground(design, loader, base)? {
        Some((fg, note)) => (Some(Arc::new(fg)), note),
        None => (None, None),
    };
    let mut design = design.clone();
    crate::load::read_item_art(loader, &mut design, base)?;
    let mut p = prepare_unchecked(&design, fg, fit)?;
    p.note = note;
    p.reveal = crate::reveal_fit::load(&design, loader, base)?;
    Ok(p)
}

/// [`prepare`] with the shape's foreground already cut (`None`: the design has no shape, or its
/// shape is to be ignored). The design is checked ([`Design::validate`]) here, once: making,
/// searching and resizing take it as valid.
pub fn prepare_with(
    design: &Design,
    foreground: Option<Arc<Foreground>>,
    fit: Fit,
) -> Result<Prepared> {
    design.validate()?;
    let mut p = prepare_unchecked(design, foreground, fit)?;
    // a built-in or text picture to reveal is cut here, and a file already read (the rest by
    // [`prepare`])
    p.reveal = crate::reveal_fit::load_builtin(design)?;
    Ok(p)
}

/// [`prepare_with`] of a design already checked: [`prepare_fitted`], and for a shape sized by a
/// preset ([`Fit::size_limit`]) whose targets ask for more cells than it leaves (a key, a name,
/// a fish at a 3-year-old's corridor width; the fewest cells, or [`crate::sizing::CELLS_PER_DECISION`]
/// for each decision point asked for), more cells across, step by step, while the grid
/// stays within the size limit widened to the preset's narrowest corridor
/// ([`difficulty::NARROWING`]; the limit's cells scale as one over the corridor, and
/// [`GROW_MARGIN`] keeps what the page's labels and margins take). The corridors stay wide
/// enough for the age; the maze gets enough cells to be one.
fn prepare_unchecked(
    design: &Design,
    foreground: Option<Arc<Foreground>>,
    fit: Fit,
) -> Result<Prepared> {
    let floor = crate::sizing::cells_wanted(design);
    let (Some(fg), Some((lw, lh)), true) = (&foreground, fit.size_limit, fit.height) else {
        return prepare_fitted(design, foreground, fit);
    };
    let grow = |n: u32| (f64::from(n) / (difficulty::NARROWING / GROW_MARGIN)).floor() as u32;
    let (gw, gh) = (grow(lw), grow(lh));
    let kind = design.grid_topology();
    // a shape that leaves too few cells for any maze at the preset's width grows too
    let mut p = prepare_fitted(design, foreground.clone(), fit);
    let mut width = match &p {
        Ok(p) => p.design.width,
        Err(e) if e.kind == ErrorKind::EmptyMask => design.width,
        Err(_) => return p,
    };
    loop {
        let cells = p
            .as_ref()
            .map_or(0, |p| p.shaped.as_ref().map_or(0, |s| s.mask.count()));
        if cells as f64 >= floor {
            return p;
        }
        // the last step stops at the limit rather than past it
        let next = (width + (width / 8).max(1)).min(gw);
        let (w, h) = if kind.uses_height() {
            crate::sizing::shape_grid(kind, next, fg, Some((gw, gh)))?
        } else {
            (next, next)
        };
        if w <= width || w > gw {
            return p.map_err(|e| crate::sizing::at_the_limit(e, kind, (width, gw), fg.has_text()));
        }
        width = w;
        let wider = Design {
            width: w,
            height: h,
            ..design.clone()
        };
        let fixed = Fit {
            height: false,
            size_limit: None,
        };
        match prepare_fitted(&wider, foreground.clone(), fixed) {
            Ok(q) => p = Ok(q),
            // the error names the largest grid tried
            Err(e) if e.kind == ErrorKind::EmptyMask && p.is_err() => p = Err(e),
            Err(e) if e.kind == ErrorKind::EmptyMask => {}
            Err(_) if p.is_ok() => return p,
            Err(e) => return Err(e),
        }
    }
}

/// How far inside the preset's narrowest corridor a grown shape's grid stays (see
/// [`prepare_unchecked`]).
const GROW_MARGIN: f64 = 1.08;

/// [`prepare_unchecked`] at the size `fit` gives.
fn prepare_fitted(
    design: &Design,
    foreground: Option<Arc<Foreground>>,
    fit: Fit,
) -> Result<Prepared> {
    let mut d = design.clone();
    let mut clip = None;
    let shaped = match &foreground {
        Some(fg) => {
            if fit.height {
                (d.width, d.height) =
                    crate::sizing::shape_grid(d.grid_topology(), d.width, fg, fit.size_limit)?;
            }
            let outline = crate::outline::applies(&d);
            // with the shape's outline, the cells too thin for a corridor are dropped before
            // the parts are bridged, so the bridges join what is left
            let mut first: Option<Clip> = None;
            let s = shape_mask_with(&d, fg, |topology, mask| {
                if outline {
                    let place = PixelMap::new(fg, topology);
                    let contour = crate::shape::outline::contour(fg, &place);
                    // the dots over a word's letters, too small for a maze, are printed as ink
                    let (contour, marks) = if fg.has_text() {
                        split_marks(
                            contour,
                            MARK_CELLS * crate::shape::outline::mean_cell_area(topology),
                        )
                    } else {
                        (contour, Vec::new())
                    };
                    let clip = Clip::new(Arc::new(contour), topology.clone()).with_marks(marks);
                    let slivers = clip.slivers(mask);
                    for &c in &slivers {
                        mask.set(c, false);
                    }
                    first = Some(clip);
                }
            })?;
            clip = first.map(|clip| marks_clear(bridged_clip(clip, &s), &s.mask));
            Some(s)
        }
        None => None,
    };
    Ok(Prepared {
        design: d,
        foreground,
        shaped,
        note: None,
        clip,
        reveal: None,
    })
}

/// A word's rings of at most this many cells' area, with no ring inside them and a larger ring
/// below them (the dots of i, j, ä, ö, ü at a few cells a letter), are printed as ink, not made
/// part of the maze: a part of a few cells joined to its letter by a corridor reads as a blob,
/// not as a dot.
const MARK_CELLS: f64 = 6.0;

/// How far above the maze's cells a mark stands at least, in cells.
const MARK_CLEARANCE: f64 = 0.15;

/// `clip` with its marks lifted clear of the maze's cells in `mask` as drawn (a bridge
/// between a word's letters may run under a dot): each run of marks side by side (the dots of
/// ë) by the most any of them needs, at most a cell and a half (a mark that would need more
/// stays).
fn marks_clear(clip: Arc<Clip>, mask: &Mask) -> Arc<Clip> {
    if clip.marks().is_empty() {
        return clip;
    }
    let cells: Vec<(f64, f64, f64, f64)> = mask
        .cells()
        .flat_map(|c| clip.polygon(c))
        .map(|ring| ring_box(&ring))
        .collect();
    let boxes: Vec<(f64, f64, f64, f64)> = clip.marks().iter().map(|r| ring_box(&r.flat)).collect();
    let need: Vec<f64> = boxes
        .iter()
        .map(|m| {
            cells
                .iter()
                .filter(|c| c.0 < m.2 && m.0 < c.2 && c.3 > m.1 && c.1 < m.3 + MARK_CLEARANCE)
                .map(|c| m.3 + MARK_CLEARANCE - c.1)
                .fold(0.0, f64::max)
        })
        .collect();
    let side_by_side = |a: &(f64, f64, f64, f64), b: &(f64, f64, f64, f64)| {
        a.1 <= b.3 && b.1 <= a.3 && (b.0 - a.2).max(a.0 - b.2) <= 1.0
    };
    let marks: Vec<Ring> = clip
        .marks()
        .iter()
        .enumerate()
        .map(|(k, ring)| {
            let lift = (0..boxes.len())
                .filter(|&j| side_by_side(&boxes[k], &boxes[j]))
                .map(|j| need[j])
                .fold(0.0, f64::max);
            if lift > 1.5 {
                ring.clone()
            } else {
                ring.moved(0.0, -lift)
            }
        })
        .collect();
    if marks == clip.marks() {
        return clip;
    }
    Arc::new(Clip::clone(&clip).with_marks(marks))
}

/// How much larger than its cell a bridge between a shape's parts is in the outline.
const BRIDGE_GROWTH: f64 = 1.02;

/// `clip` (the shape's cells, with `slivers` dropped from `shaped`'s mask before it was
/// bridged) with the outline running round the cells that bridge the shape's parts, when there
/// are any: the shape's contour united with those cells and the shape's cells they join.
fn bridged_clip(clip: Clip, shaped: &ShapedMask) -> Arc<Clip> {
    if shaped.added.is_empty() {
        return Arc::new(clip);
    }
    let topology = clip.topology().clone();
    let t = topology.tess();
    // the added cells and the cells of the shape they join: the outline of a cell the shape
    // covers only in part would otherwise cross the corridor where the bridge meets it
    let mut cells = shaped.added.clone();
    let mut around = Vec::new();
    for &c in &shaped.added {
        around.clear();
        t.neighbours(c, &mut around);
        cells.extend(around.iter().filter(|&&n| shaped.mask.get(n)));
    }
    cells.sort_unstable_by_key(|c| (c.row, c.col));
    cells.dedup();
    let (mut sides, mut bridges) = (Vec::new(), Vec::new());
    for c in cells {
        let mut polygon = Vec::new();
        sides.clear();
        t.sides(c, &mut sides);
        crate::shape::fit::flatten(&sides, &mut polygon);
        // a little larger than the cell (2 %), so the outline never runs along its sides, where
        // cutting sides against the contour would have to decide which side of a line a line
        // is on
        let o = t.center(c);
        for p in &mut polygon {
            *p = Point::new(
                o.x + (p.x - o.x) * BRIDGE_GROWTH,
                o.y + (p.y - o.y) * BRIDGE_GROWTH,
            );
        }
        bridges.push(polygon);
    }
    let contour = crate::shape::outline::with_cells(clip.contour(), &bridges);
    // the union only widens every cell's part inside and every side's open part, so no cell
    // becomes too thin; a sliver a bridge runs through is a cell again
    Arc::new(Clip::new(Arc::new(contour), topology).with_marks(clip.marks().to_vec()))
}

impl Prepared {
    /// The design as it will be made (height fitted, when asked).
    pub fn design(&self) -> &Design {
        &self.design
    }

    /// The shape's foreground, when the design has a shape.
    pub fn foreground(&self) -> Option<&Arc<Foreground>> {
        self.foreground.as_ref()
    }

    /// The shape's mask and what its islands came to, when the design has a shape.
    pub fn shaped(&self) -> Option<&ShapedMask> {
        self.shaped.as_ref()
    }

    /// The shape's mask, when the design has a shape.
    pub fn mask(&self) -> Option<&Mask> {
        self.shaped.as_ref().map(|s| &s.mask)
    }

    /// The same design and shape at `width` x `height` cells (the shape is fitted again, not
    /// loaded again; the picture's note is kept).
    pub fn resized(&self, width: u32, height: u32) -> Result<Prepared> {
        let d = Design {
            width,
            height,
            ..self.design.clone()
        };
        let mut p = prepare_with(&d, self.foreground.clone(), Fit::default())?;
        p.note.clone_from(&self.note);
        p.reveal.clone_from(&self.reveal);
        Ok(p)
    }

    /// The same design and shape fitted again at `width` cells across within `size_limit`, as
    /// [`prepare`] fits it for a preset (more cells for a shape that leaves too few), the
    /// picture's note kept.
    pub fn refitted(&self, width: u32, size_limit: (u32, u32)) -> Result<Prepared> {
        let d = Design {
            width,
            ..self.design.clone()
        };
        let fit = Fit {
            height: true,
            size_limit: Some(size_limit),
        };
        let mut p = prepare_unchecked(&d, self.foreground.clone(), fit)?;
        p.note.clone_from(&self.note);
        p.reveal.clone_from(&self.reveal);
        Ok(p)
    }

    /// The cells clipped to the shape's outline, when the design is drawn with it.
    pub fn clip(&self) -> Option<&Arc<Clip>> {
        self.clip.as_ref()
    }

    /// Gives `g` (made from this preparation) its clipped cells, when the design is drawn with
    /// the shape's outline, and its items' pictures ([`crate::pipeline::finish_items`]).
    pub fn outline(&self, g: &mut Generated) {
        if let Some(clip) = &self.clip {
            let ends: Vec<_> = g.openings().iter().map(|e| (e.cell, e.side)).collect();
            g.outline = Some(Arc::new(Outline::new(
                clip.clone(),
                g.maze.grid(),
                self.dropped(),
                &ends,
            )));
        }
        crate::pipeline::finish_items(g);
    }

    /// The cells of the shape's other parts that keeping its main part dropped (none when the
    /// parts are bridged, or there is one part), in row-major order.
    pub fn dropped(&self) -> &[Coord] {
        self.shaped.as_ref().map_or(&[], |s| &s.dropped)
    }

    /// The share of the shape's cells that keeping its largest part drops (0 when the parts
    /// are bridged, or there is one part).
    pub fn dropped_share(&self) -> f64 {
        match &self.shaped {
            Some(s) if s.islands == Islands::KeepLargest && s.mask.count() > 0 => {
                s.island_cells as f64 / (s.mask.count() + s.dropped.len()) as f64
            }
            _ => 0.0,
        }
    }

    /// Warnings for the user: keeping the largest part drops more than
    /// [`DROPPED_WARNING_SHARE`] of the shape.
    pub fn warnings(&self) -> Vec<String> {
        let share = self.dropped_share();
        match &self.shaped {
            Some(s) if share > DROPPED_WARNING_SHARE => {
                // a shape of one part can still fall into pieces on the grid (a part thinner
                // than a cell)
                let parts = if s.parts > 1 {
                    format!("the largest of the shape's {} parts", s.parts)
                } else {
                    "the largest piece of the shape's cells (a part thinner than a cell splits \
                     them)"
                        .to_string()
                };
                vec![format!(
                    "keeping {parts} drops {} cells, {:.0} % of the shape; --islands bridge \
                     joins the parts",
                    s.island_cells,
                    share * 100.0
                )]
            }
            _ => Vec::new(),
        }
    }

    /// Remarks for the user: the picture's format, and the shape's parts at this size (those
    /// that [`Prepared::warnings`] gives are left out).
    pub fn notes(&self) -> Vec<String> {
        let mut notes: Vec<String> = self.note.iter().cloned().collect();
        if let Some(s) = &self.shaped
            && s.parts > 1
            && self.dropped_share() <= DROPPED_WARNING_SHARE
        {
            let plural = |n: usize| if n == 1 { "" } else { "s" };
            notes.push(match s.islands {
                Islands::KeepLargest if !s.added.is_empty() && s.island_cells == 0 => format!(
                    "the shape has {} separate parts at this size; joined them with {} \
                     added cell{}",
                    s.parts,
                    s.added.len(),
                    plural(s.added.len())
                ),
                Islands::KeepLargest if !s.added.is_empty() => format!(
                    "the shape has {} separate parts at this size; joined the larger with \
                     {} added cell{}, dropped {} cell{} of the rest (--islands bridge joins \
                     them)",
                    s.parts,
                    s.added.len(),
                    plural(s.added.len()),
                    s.island_cells,
                    plural(s.island_cells)
                ),
                Islands::KeepLargest => format!(
                    "the shape has {} separate parts at this size; kept the largest, dropped {} \
                     cell{} (--islands bridge joins them)",
                    s.parts,
                    s.island_cells,
                    if s.island_cells == 1 { "" } else { "s" }
                ),
                Islands::Bridge => format!(
                    "the shape has {} separate parts at this size; joined them with {} added \
                     cell{}",
                    s.parts,
                    s.added.len(),
                    if s.added.len() == 1 { "" } else { "s" }
                ),
            });
        }
        notes
    }

    /// Refuses, before the maze is made, a page of `setup` on which its corridors would print
    /// under [`UNPRINTABLE_MM`], with the rule and the message of [`Made::print`]'s check (which
    /// stays, for what the grid's size alone cannot tell): a 3000 x 3000 grid on Letter is
    /// refused from its size in a moment, not after its nine million cells are carved. The
    /// corridor is estimated from the most the page's room (any orientation an auto page may
    /// take) could scale the grid's extent to: the cells' centres of a shape's mask, the whole
    /// grid without one. A real page scales the maze less (its cells reach past their centres,
    /// the markers and labels take room too), so a page refused here would be refused after.
    /// Nothing is refused here for a tile maze or a design with cells painted by hand (whose
    /// grid may lose a part).
    pub fn check_page(&self, setup: &PageSetup) -> Result<()> {
        let d = &self.design;
        if d.style() != Style::Walls || !d.cell_edits.is_empty() {
            return Ok(());
        }
        let topology = Topology::new(d.grid_topology(), d.width, d.height)?;
        let tess = topology.tess();
        let (w, h) = match self.mask() {
            None => tess.extent(),
            Some(mask) => {
                let mut b = [
                    f64::INFINITY,
                    f64::INFINITY,
                    f64::NEG_INFINITY,
                    f64::NEG_INFINITY,
                ];
                for c in mask.cells() {
                    let p = tess.center(c);
                    b = [b[0].min(p.x), b[1].min(p.y), b[2].max(p.x), b[3].max(p.y)];
                }
                (b[2] - b[0], b[3] - b[1])
            }
        };
        if !(w > 0.0 && h > 0.0) {
            return Ok(());
        }
        let room = |o: crate::page::Orientation| {
            let a = draw::maze_room(&setup.oriented(o));
            (a.w / w).min(a.h / h)
        };
        let scale =
            room(crate::page::Orientation::Portrait).max(room(crate::page::Orientation::Landscape));
        // the layout's corridor at that scale ([`Layout::corridor_mm`]): the walls thinned to at
        // most 0.3 of a cell, the narrowest passage of a cell ([`crate::topology::Tessellation::
        // passage`]: a side of the square or hexagon the grids that weave have), an inset
        // corridor narrower by its share of it
        let wall_mm = setup.wall_mm.min(0.3 * scale);
        let corridor_mm = scale * (1.0 - 2.0 * d.inset_share()) * tess.passage() - wall_mm;
        if corridor_mm < UNPRINTABLE_MM {
            return Err(unprintable(corridor_mm, wall_mm));
        }
        Ok(())
    }

    /// Makes the maze the design describes, as it is (its seed; no search): a maze of cells and
    /// walls, or a hex tile maze for the tiles style.
    pub fn make(&self) -> Result<Made> {
        let d = &self.design;
        if d.style() == Style::Tiles {
            return generate_tiles(d, self.mask()).map(Made::Tiles);
        }
        let picture = crate::reveal_fit::mask(&self.design, self.reveal.as_deref())?;
        let mut g = match &self.shaped {
            Some(s) => generate_shaped_unchecked(d, s, picture.as_ref()),
            None => generate_revealing(d, None, picture.as_ref()),
        }?;
        self.outline(&mut g);
        difficulty::levels::stand(&mut g);
        Ok(Made::Walls(g))
    }

    /// Searches for a maze that meets the design's difficulty targets (see
    /// [`difficulty::search_on`]); an error for a tile design ([`check_targets`]). The found
    /// maze counts the cells bridging added, as [`Prepared::make`]'s does.
    pub fn search(
        &self,
        options: &SearchOptions,
        cancel: &AtomicBool,
        progress: &mut dyn FnMut(&Progress),
    ) -> Result<Found> {
        check_targets(&self.design)?;
        let picture = crate::reveal_fit::mask(&self.design, self.reveal.as_deref())?;
        let on = (self.mask(), picture.as_ref());
        let mut found = difficulty::search_unchecked(&self.design, on, options, cancel, progress)?;
        if let Some(s) = &self.shaped {
            found.generated.added_cells += s.added.len();
            found.generated.dropped_cells += s.dropped.len();
        }
        self.outline(&mut found.generated);
        Ok(found)
    }

    /// [`Prepared::search`] when the design is of walls and has targets (no cancel, no
    /// progress), [`Prepared::make`] otherwise.
    pub fn make_or_search(&self, options: &SearchOptions) -> Result<Made> {
        if self.design.style() == Style::Walls && !self.design.targets.is_empty() {
            let found = self.search(options, &AtomicBool::new(false), &mut |_| {})?;
            return Ok(Made::Walls(found.generated));
        }
        self.make()
    }
}

/// A maze made from a design: cells and walls, or hex tiles (the design's style). Everything a
/// caller shows or writes comes from its methods.
// the walls variant is the common one; boxing it would cost every caller a dereference
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug)]
pub enum Made {
    /// A maze of cells and walls.
    Walls(Generated),
    /// A hex tile maze.
    Tiles(GeneratedTiles),
}

impl From<Found> for Made {
    fn from(found: Found) -> Made {
        Made::Walls(found.generated)
    }
}

impl Made {
    /// The design as made (seed, fitted height and anything a search chose filled in).
    pub fn design(&self) -> &Design {
        match self {
            Made::Walls(g) => &g.design,
            Made::Tiles(t) => &t.design,
        }
    }

    /// The seed used.
    pub fn seed(&self) -> u64 {
        match self {
            Made::Walls(g) => g.seed,
            Made::Tiles(t) => t.seed,
        }
    }

    /// The maze as an answer key on a shared answer page.
    pub fn key_maze(&self) -> KeyMaze<'_> {
        match self {
            Made::Walls(g) => KeyMaze::Walls(g),
            Made::Tiles(t) => KeyMaze::Tiles(&t.maze),
        }
    }

    /// The name of the algorithm that made the maze (`tiles` for a tile maze).
    pub fn algorithm_used(&self) -> &'static str {
        match self {
            Made::Walls(g) => g.algorithm_used,
            Made::Tiles(_) => "tiles",
        }
    }

    /// Cells of the shape left out because they were not connected (0 for tile mazes).
    pub fn dropped_cells(&self) -> usize {
        match self {
            Made::Walls(g) => g.dropped_cells,
            Made::Tiles(_) => 0,
        }
    }

    /// Cells of the shape the page leaves out: the ones [`Made::dropped_cells`] counts when
    /// the maze is drawn with its cells' outline (with the shape's outline they print as
    /// picture, [`crate::outline::Outline::picture`], and the silhouette stays whole).
    pub fn lost_cells(&self) -> usize {
        match self {
            Made::Walls(g) if g.outline.is_none() => g.dropped_cells,
            _ => 0,
        }
    }

    /// The measurements of a maze of cells and walls (`None` for tile mazes).
    pub fn metrics(&self) -> Option<&Metrics> {
        match self {
            Made::Walls(g) => Some(&g.metrics),
            Made::Tiles(_) => None,
        }
    }

    /// One line about the maze, starting with its seed:
    /// `seed 7: 400 rect cells, backtracker, 30 dead ends; solution 61 cells (15.2 %), ...` or
    /// `seed 9: 17x14 tiles, order 0, 97 open, solution 31 tiles`.
    pub fn summary(&self) -> String {
        match self {
            Made::Walls(g) => g.summary(),
            Made::Tiles(t) => format!("seed {}: {}", t.seed, t.summary()),
        }
    }

    /// The maze as JSON (the maze graph, or the tile maze).
    pub fn json(&self) -> Result<Vec<u8>> {
        match self {
            Made::Walls(g) => {
                let mut out = Vec::new();
                crate::json::write(g, &mut out)
                    .map_err(|e| Error::input(format!("cannot write the JSON: {e}")))?;
                Ok(out)
            }
            Made::Tiles(t) => Ok(t.maze.to_json(t.seed)),
        }
    }

    /// Writes the maze as JSON ([`Made::json`]) to `out`, streamed: a maze of cells and walls
    /// is never held as a whole document in memory.
    pub fn write_json(&self, out: &mut dyn std::io::Write) -> std::io::Result<()> {
        match self {
            Made::Walls(g) => crate::json::write(g, out),
            Made::Tiles(t) => out.write_all(&t.maze.to_json(t.seed)),
        }
    }

    /// The maze drawn in text (rect mazes of cells and walls, and tile mazes; an error for the
    /// other topologies).
    pub fn text(&self) -> Result<String> {
        match self {
            Made::Walls(g) => {
                let openings: Vec<_> = g.openings().iter().map(|e| (e.cell, e.side)).collect();
                crate::ascii::render(&g.maze, &openings)
            }
            Made::Tiles(t) => Ok(t.maze.grid.render()),
        }
    }

    /// Whether the maze has a text drawing ([`Made::text`]).
    pub fn has_text(&self) -> bool {
        match self {
            Made::Walls(g) => g.design.walls().topology == TopologyKind::Rect,
            Made::Tiles(_) => true,
        }
    }

    /// The maze's difficulty targets against its measurements (`None` without targets, and for
    /// tile mazes).
    pub fn report(&self) -> Option<Report> {
        match self {
            Made::Walls(g) if !g.design.targets.is_empty() => {
                Some(Report::new(&g.design.targets, &g.metrics))
            }
            _ => None,
        }
    }

    /// The puzzle page on `setup` and the answer-key page on `key_setup`, laid out.
    pub fn pages(&self, setup: &PageSetup, key_setup: &PageSetup) -> Result<Pages> {
        let (s, k) = (&self.turned(setup), &self.turned(key_setup));
        match self {
            Made::Walls(g) => draw::pages(g, s, k),
            Made::Tiles(t) => draw::tile_pages(&t.maze, s, k),
        }
    }

    /// `setup`, turned with the maze's shape when its design turns its page (`turn =
    /// "page"`: [`PageSetup::turned`]).
    pub fn turned(&self, setup: &PageSetup) -> PageSetup {
        setup.turned_if(self.design().turn.turns_page())
    }

    /// The puzzle page alone on `setup`, and its layout (for its warnings).
    pub fn puzzle_page(&self, setup: &PageSetup) -> Result<(Drawing, Layout)> {
        let setup = &self.turned(setup);
        match self {
            Made::Walls(g) => Ok((draw::puzzle_page(g, setup)?, draw::layout(g, setup)?)),
            Made::Tiles(t) => {
                let p = draw::tile_pages(&t.maze, setup, setup)?;
                Ok((p.puzzle, p.layout))
            }
        }
    }

    /// The puzzle and its answer key rendered in `format` (see [`export::render`]), the key on
    /// page 2 of a PDF.
    pub fn render(&self, setup: &PageSetup, format: Format) -> Result<Rendered> {
        self.render_placed(setup, format, export::KeyPlacement::SecondPage)
    }

    /// The puzzle and its answer key rendered in `format`, the key where `key` says (see
    /// [`export::render_placed`]); a centre-line drawing is of the maze's cells, so walls only.
    pub fn render_placed(
        &self,
        setup: &PageSetup,
        format: Format,
        key: export::KeyPlacement,
    ) -> Result<Rendered> {
        self.print(setup, format, key)?.rendered()
    }

    /// Where the maze goes on `setup`'s puzzle page.
    pub fn layout(&self, setup: &PageSetup) -> Result<Layout> {
        let setup = &self.turned(setup);
        match self {
            Made::Walls(g) => draw::layout(g, setup),
            Made::Tiles(t) => draw::tile_layout(&t.maze, setup),
        }
    }

    /// The puzzle and its answer key laid out once, ready to write (see [`export::Printed`]:
    /// the pages for the preflight, the files made as they are written), the key where `key`
    /// says. A page whose corridors would be under [`UNPRINTABLE_MM`] is an error, before
    /// anything is drawn.
    pub fn print(
        &self,
        setup: &PageSetup,
        format: Format,
        key: export::KeyPlacement,
    ) -> Result<export::Printed> {
        let setup = &self.turned(setup);
        let lay = self.layout(setup)?;
        if lay.corridor_mm < UNPRINTABLE_MM {
            return Err(unprintable(lay.corridor_mm, lay.wall_mm));
        }
        match self {
            Made::Walls(g) => export::print(g, setup, format, key),
            Made::Tiles(_) => export::print_placed(setup, format, key, |s, k| self.pages(s, k)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::design::{Kind, Tiles};
    use crate::load::Memory;

    /// A loader that counts the pictures it is asked for.
    struct Counting {
        files: Memory,
        reads: std::sync::atomic::AtomicUsize,
    }

    impl Loader for Counting {
        fn picture(&self, path: &Path) -> Result<Vec<u8>> {
            self.reads
                .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            self.files.picture(path)
        }
        fn text(&self, path: &Path, what: &str) -> Result<String> {
            self.files.text(path, what)
        }
    }

    fn counting_heart() -> Counting {
        let heart = crate::shape::builtin::get("heart").unwrap();
        Counting {
            files: Memory::new().with("pics/heart.svg", heart),
            reads: Default::default(),
        }
    }

    fn reads(l: &Counting) -> usize {
        l.reads.load(std::sync::atomic::Ordering::Relaxed)
    }

    #[test]
    fn the_shape_cache_decodes_a_picture_once_for_all_its_cuts() {
        let files = counting_heart();
        let source = ShapeSource::File("heart.svg".into());
        let base = Some(Path::new("pics"));
        let plain = Cutting::of(&Design::default());
        let inverted = Cutting {
            cut: Cut {
                invert: true,
                ..plain.cut
            },
            ..plain.clone()
        };
        let mut cache = ShapeCache::keeping(1);
        let a = cache.foreground(&files, &source, base, &plain).unwrap();
        let again = cache.foreground(&files, &source, base, &plain).unwrap();
        assert!(Arc::ptr_eq(&a, &again), "the same cut comes from the cache");
        let b = cache.foreground(&files, &source, base, &inverted).unwrap();
        assert_ne!(a.count(), b.count(), "another cut is another shape");
        assert_eq!(reads(&files), 1, "one picture read for two cuts");
        assert!(cache.picture().is_some());
        // it keeps one cut: the first is made again, from the picture it kept
        let c = cache.foreground(&files, &source, base, &plain).unwrap();
        assert!(!Arc::ptr_eq(&a, &c));
        assert_eq!(a.count(), c.count());
        assert_eq!(reads(&files), 1);
        // a missing picture is an error, kept like a shape
        let missing = ShapeSource::File("cat.png".into());
        assert!(cache.foreground(&files, &missing, base, &plain).is_err());
        assert!(cache.foreground(&files, &missing, base, &plain).is_err());
        assert_eq!(reads(&files), 2);
    }

    #[test]
    fn a_book_cuts_every_shape_in_parallel_and_each_entry_gets_its_own_result() {
        let files = counting_heart();
        let heart = ShapeSource::File("pics/heart.svg".into());
        let missing = ShapeSource::File("pics/cat.png".into());
        let upright = Cutting::of(&Design::default());
        let turned = Cutting {
            turn: true,
            ..upright.clone()
        };
        let wanted = vec![
            (heart.clone(), upright.clone()),
            (missing.clone(), upright.clone()),
            (heart.clone(), turned.clone()),
        ];
        let mut cache = ShapeCache::default();
        let cut = cache.cut_all(&files, &wanted);
        assert_eq!(cut.len(), 3);
        assert!(cut[0].is_ok() && cut[2].is_ok());
        assert!(cut[1].as_ref().unwrap_err().message.contains("cat.png"));
        assert_eq!(reads(&files), 2, "each picture read once");
        let (a, b) = (cut[0].as_ref().unwrap(), cut[2].as_ref().unwrap());
        assert_eq!((a.width(), a.height()), (b.height(), b.width()), "turned");
        assert!(Arc::ptr_eq(a, &cache.get(&heart, &upright).unwrap()));
        assert!(Arc::ptr_eq(b, &cache.get(&heart, &turned).unwrap()));
        assert!(cache.get(&missing, &upright).is_none());
    }

    #[test]
    fn one_entry_for_both_styles_with_an_in_memory_picture() {
        let heart = crate::shape::builtin::get("heart").unwrap();
        let files = Memory::new().with("pics/heart.svg", heart);
        for style in [Style::Walls, Style::Tiles] {
            let mut d = Design {
                width: 25,
                height: 5,
                seed: Some(3),
                shape: Some(ShapeSource::File("heart.svg".into())),
                ..Design::default()
            };
            d.set_style(style);
            let fit = Fit {
                height: true,
                size_limit: None,
            };
            let p = prepare(&d, &files, Some(Path::new("pics")), fit).unwrap();
            assert_ne!(p.design().height, d.height, "height fitted to the heart");
            let made = p.make().unwrap();
            assert_eq!(made.seed(), 3);
            assert!(made.summary().starts_with("seed 3: "), "{}", made.summary());
            assert!(!made.json().unwrap().is_empty());
            let setup = PageSetup::default();
            let r = made.render(&setup, Format::Svg).unwrap();
            let pages = made.pages(&setup, &setup).unwrap();
            assert_eq!(r.puzzle, export::svg::svg(&pages.puzzle));
            // made again from the same preparation: the same maze
            assert_eq!(p.make().unwrap().json().unwrap(), made.json().unwrap());
            assert!(made.report().is_none());
        }
        // a missing picture names its path, joined to the base
        let d = Design {
            shape: Some(ShapeSource::File("owl.png".into())),
            ..Design::default()
        };
        let e = prepare(&d, &files, Some(Path::new("pics")), Fit::default()).unwrap_err();
        assert!(e.message.ends_with("pics/owl.png"), "{e}");
        // targets with tiles: said once, here
        let mut t = Design {
            kind: Kind::Tiles(Tiles::DEFAULT),
            ..Design::default()
        };
        assert!(check_targets(&t).is_ok());
        t.targets
            .set(difficulty::Metric::Score, Some("1..".parse().unwrap()));
        assert_eq!(check_targets(&t).unwrap_err().message, TARGETS_WALLS_ONLY);
    }
}
