//! The pipeline: design (+ mask) -> grid -> carve -> braid -> endpoints -> solve -> measure.
//! Under a weave (`design.weave > 0`) the carve is [`crate::weave::carve`] and braid is skipped.
//!
//! [`generate`] makes a maze of cells and walls, [`generate_tiles`] a hex tile maze (style
//! `tiles`); [`shape_mask`] fits a shape's foreground to a design's grid. These are the stages:
//! callers make a page through [`crate::make`] ([`crate::make::prepare`], then
//! [`crate::make::Prepared::make`]), which picks the stage for the design's style. Nothing here
//! reads a file.

use std::sync::Arc;

use crate::braid::braid_keeping;
use crate::carve::{CarveOptions, carve};
use crate::design::Design;
use crate::endpoints::{Endpoint, place};
use crate::error::{Error, Result};
use crate::grid::{CellId, Grid};
use crate::mask::Mask;
use crate::maze::Maze;
use crate::metrics::{Metrics, measure};
use crate::random::{MazeRng, fresh_seed};
use crate::shape::islands::main_part;
use crate::shape::{Foreground, Islands, bridge, fit};
use crate::solve::shortest_path;
use crate::tiles::puzzle::{self, TileMaze};
use crate::tiles::region;
use crate::topology::{Coord, Topology};
use crate::weave;

/// Fewest active cells a maze may have.
pub const MIN_CELLS: usize = 2;

/// A finished maze with everything the back ends need.
#[derive(Clone, Debug)]
pub struct Generated {
    /// The design, with `seed` filled in.
    pub design: Design,
    /// The seed that was used.
    pub seed: u64,
    /// The maze.
    pub maze: Maze,
    /// Where the solver starts.
    pub entrance: Endpoint,
    /// Where the solver leaves.
    pub exit: Endpoint,
    /// Every entrance of a "Which path?" puzzle ([`Design::starts`] above 1), in letter order
    /// (A first); `entrance` is the one joined to the exit ([`crate::forest`]). Empty for a
    /// maze with one entrance.
    pub starts: Vec<Endpoint>,
    /// The shortest path from entrance to exit, both included.
    pub solution: Vec<CellId>,
    /// Measurements of the maze.
    pub metrics: Metrics,
    /// The name of the algorithm that carved the maze.
    pub algorithm_used: &'static str,
    /// Whether braiding was asked for but skipped (under weave).
    pub braid_skipped: bool,
    /// Cells of the mask left out because they were not connected to its largest part.
    pub dropped_cells: usize,
    /// Cells switched on to join the mask's separate parts (when the design bridges islands).
    pub added_cells: usize,
    /// The cells clipped to the shape's outline, when the maze is drawn with it
    /// ([`crate::outline`]; set by [`crate::make::Prepared::make`]).
    pub outline: Option<std::sync::Arc<crate::outline::Outline>>,
    /// The items to collect ([`crate::items`]; the design's `collect`): those on the path in
    /// order, then the decoys. Empty without.
    pub items: Vec<crate::items::Placed>,
    /// How well the solution draws the picture a design reveals ([`crate::reveal`]); `None`
    /// without one.
    pub reveal: Option<crate::reveal::Match>,
}

impl Generated {
    /// The openings in the outer wall: every entrance (the one entrance, or a "Which path?"
    /// puzzle's in letter order), then the exit.
    pub fn openings(&self) -> Vec<Endpoint> {
        let mut out = if self.starts.is_empty() {
            vec![self.entrance]
        } else {
            self.starts.clone()
        };
        out.push(self.exit);
        out
    }

    /// Whether side `side` of `cell` is an opening in the outer wall (an entrance or the exit).
    pub fn is_opening(&self, cell: CellId, side: usize) -> bool {
        let at = |e: &Endpoint| e.cell == cell && e.side == side;
        at(&self.entrance) || at(&self.exit) || self.starts.iter().any(at)
    }

    /// The letter of the entrance joined to the exit on a "Which path?" puzzle (`None` with one
    /// entrance).
    pub fn winner(&self) -> Option<usize> {
        self.starts.iter().position(|s| *s == self.entrance)
    }

    /// One line about the maze, starting with its seed: the maze, the difficulty model's parts
    /// ([`Metrics::parts_line`]) and the score they give, with where it stands:
    /// `seed 7: 400 rect cells, backtracker, 30 dead ends; solution 61 cells (15.2 %), 23 turns,
    /// 9 decision points, wrong-branch cost 140, 0 loops; difficulty 72.3 (harder than 82 %
    /// of mazes of this size and shape)` (and crossings, a skipped braid, and the cells of a
    /// shape dropped or added, when there are any).
    pub fn summary(&self) -> String {
        let m = &self.metrics;
        let mut line = format!(
            "seed {}: {} {} cells, {}, {} dead ends; {}; difficulty {:.1}",
            self.seed,
            m.cells,
            self.design.walls().topology,
            self.algorithm_used,
            m.dead_ends,
            m.parts_line(),
            m.difficulty
        );
        if let Some(s) = m.standing {
            line += &format!(" ({})", s.phrase());
        }
        if self.design.walls().weave > 0.0 {
            line += &format!(", {} crossings", m.crossings);
        }
        if self.braid_skipped {
            line += " (braid skipped under weave)";
        }
        if let Some(r) = &self.reveal {
            line += &format!(
                "; the path reveals the picture: {} of its {} cells, IoU {:.2}",
                r.inside, r.picture_cells, r.iou
            );
        }
        if self.dropped_cells > 0 {
            let n = self.dropped_cells;
            let cells = if n == 1 { "cell" } else { "cells" };
            line += &if self.outline.is_some() {
                format!(", {n} {cells} of the shape drawn as picture (not joined to the maze)")
            } else {
                format!(", {n} {cells} of the shape dropped (not connected)")
            };
        }
        if self.added_cells > 0 {
            line += &format!(
                ", {} cell{} added to join the shape's parts",
                self.added_cells,
                if self.added_cells == 1 { "" } else { "s" }
            );
        }
        line
    }
}

/// Builds the grid for `design`, keeping the largest connected part of `mask` (after joining its
/// parts when the design asks to bridge islands). Returns the grid and how many mask cells were
/// dropped.
pub fn build_grid(design: &Design, mask: Option<&Mask>) -> Result<(Grid, usize)> {
    let (grid, dropped, _) = build_grid_counted(design, mask)?;
    Ok((grid, dropped))
}

/// [`build_grid`], also returning how many cells bridging switched on.
fn build_grid_counted(design: &Design, mask: Option<&Mask>) -> Result<(Grid, usize, usize)> {
    let topology = Topology::new(design.walls().topology, design.width, design.height)?;
    let (grid, dropped, added) = match mask {
        Some(m) => {
            if !m.fits(&topology) {
                return Err(Error::input("the mask was made for a different grid size"));
            }
            let mut m = m.clone();
            // a shape's mask comes bridged from [`shape_mask`] already, as its picture asked
            let added = if design.islands_policy(false) == Islands::Bridge {
                bridge(&mut m, &topology)
            } else {
                0
            };
            let dropped = m.keep_largest_component(&topology);
            (Grid::new(topology, Some(&m))?, dropped, added)
        }
        None => (Grid::new(topology, None)?, 0, 0),
    };
    if grid.len() < MIN_CELLS {
        return Err(Error::empty(format!(
            "the shape leaves {} cell{} at this size; try a larger width",
            grid.len(),
            if grid.len() == 1 { "" } else { "s" }
        )));
    }
    Ok((grid, dropped, added))
}

/// The fewest cells a shape may leave for a maze.
pub const MIN_SHAPE_CELLS: usize = 8;

/// The most of a shape's cells that keeping its main part drops when the design asks for no
/// islands policy: past it, the largest other parts are joined to the main one instead.
pub const MAX_DROPPED_SHARE: f64 = 0.10;

/// The share of a shape's cells from which a part is joined to the main one, never dropped,
/// when the design asks for no islands policy (a speck beside the picture holds less).
pub const JOINED_SHARE: f64 = 0.04;

/// A shape's mask, ready for [`generate`], and what its islands came to.
#[derive(Clone, Debug)]
pub struct ShapedMask {
    /// The mask (with corridors added when the design bridges islands).
    pub mask: Mask,
    /// How many separate parts the shape had on the grid.
    pub parts: usize,
    /// Cells outside the main part (dropped when the design keeps the largest part).
    pub island_cells: usize,
    /// The cells dropped from the mask (the parts other than the main one, when the design keeps
    /// the largest part), in row-major order; the editor tints them.
    pub dropped: Vec<Coord>,
    /// The cells switched on to join the parts (when the design bridges islands), in row-major
    /// order.
    pub added: Vec<Coord>,
    /// The islands policy applied: the design's, for this shape
    /// ([`Design::islands_policy`]: a picture that draws text has its letters joined unless
    /// the design says otherwise).
    pub islands: Islands,
}

/// The mask of `design`'s grid ([`Design::grid_topology`]) that the shape `fg` covers (by the
/// design's coverage), with the design's islands policy applied: the parts are bridged, or the
/// main part is kept, the one holding most of the picture's largest part
/// ([`crate::shape::islands::main_part`]; the same part on every topology). Fails when fewer
/// than [`MIN_SHAPE_CELLS`] cells remain.
pub fn shape_mask(design: &Design, fg: &Foreground) -> Result<ShapedMask> {
    design.validate()?;
    shape_mask_with(design, fg, |_, _| {})
}

/// [`shape_mask`] of a design already checked ([`Design::validate`]), with `trim` applied to
/// the mask before the parts are bridged (so bridges join what `trim` leaves: [`crate::make`]
/// drops the cells too thin for a corridor of the shape's outline there).
pub(crate) fn shape_mask_with(
    design: &Design,
    fg: &Foreground,
    trim: impl FnOnce(&Topology, &mut Mask),
) -> Result<ShapedMask> {
    let topology = Topology::new(design.grid_topology(), design.width, design.height)?;
    let mut mask = fit(fg, &topology, design.coverage)?;
    let parts = mask.components(&topology);
    let policy = design.islands_policy(fg.has_text());
    let keep_main = policy == Islands::KeepLargest;
    let main = if keep_main && parts.len() > 1 {
        main_part(&parts, fg, &topology, design.width)
    } else {
        0
    };
    let largest = parts.get(main).map_or(0, Vec::len);
    let others = mask.count() - largest;
    // no policy asked: the parts of some size are joined to the main part by corridors (two
    // hearts, a paw print's toes; a speck beside the picture is dropped); drawn with the
    // shape's outline, so are the parts the picture itself joins to the main part, both as
    // fitted and once the cells too thin for a corridor are gone (a cat's tail at 8 cells
    // across is cut off then); the rest is dropped
    let join = keep_main && design.islands.is_none();
    let joining = Joining {
        join,
        by_picture: join && crate::outline::applies(design),
        shape_cells: mask.count() as f64,
        fg,
        topology: &topology,
        width: design.width,
    };
    let joined = joining.joined(&parts, main);
    let mut dropped = Vec::new();
    if keep_main {
        for (i, part) in parts.iter().enumerate() {
            if i != main && !joined[i] {
                dropped.extend_from_slice(part);
            }
        }
        for &c in &dropped {
            mask.set(c, false);
        }
    }
    trim(&topology, &mut mask);
    let mut joins = joined.contains(&true);
    // the pieces the trim cut off are dropped (and counted) or joined as the parts were
    if keep_main {
        let parts = mask.components(&topology);
        if parts.len() > 1 {
            let main = main_part(&parts, fg, &topology, design.width);
            let joined = joining.joined(&parts, main);
            for (i, part) in parts.iter().enumerate() {
                if i != main && !joined[i] {
                    for &c in part {
                        mask.set(c, false);
                    }
                    dropped.extend_from_slice(part);
                }
            }
            joins |= joined.contains(&true);
        }
    }
    dropped.sort_unstable_by_key(|c| (c.row, c.col));
    let island_cells = if keep_main { dropped.len() } else { others };
    let (kept, added) = match policy {
        Islands::KeepLargest if !joins => (largest, Vec::new()),
        _ => {
            let before = mask.clone();
            // a name's letters are joined along their baseline, as handwriting joins them
            crate::shape::islands::bridge_along(&mut mask, &topology, fg.has_text());
            let added = mask.cells().filter(|&c| !before.get(c)).collect();
            (mask.count(), added)
        }
    };
    if kept < MIN_SHAPE_CELLS {
        let size = design
            .grid_topology()
            .size_label(design.width, design.height);
        return Err(Error::empty(format!(
            "the shape leaves {kept} cell{} on a {size} grid (at least {MIN_SHAPE_CELLS} are \
             needed); try a larger width",
            if kept == 1 { "" } else { "s" }
        )));
    }
    Ok(ShapedMask {
        mask,
        parts: parts.len(),
        island_cells,
        dropped,
        added,
        islands: policy,
    })
}

/// What decides which parts of a shape are joined to its main part by corridors.
struct Joining<'a> {
    /// Whether any part is joined (no policy asked, and the main part kept).
    join: bool,
    /// Whether the parts the picture itself joins to the main part are joined.
    by_picture: bool,
    /// The shape's cell count as fitted.
    shape_cells: f64,
    fg: &'a Foreground,
    topology: &'a Topology,
    /// The design's width.
    width: u32,
}

impl Joining<'_> {
    /// Which of `parts` are joined to the main one (`parts[main]`): the parts the picture joins
    /// (when drawn with the shape's outline), a part of [`JOINED_SHARE`] of the shape, and then
    /// the largest parts left out until what is dropped is at most [`MAX_DROPPED_SHARE`].
    fn joined(&self, parts: &[Vec<Coord>], main: usize) -> Vec<bool> {
        if !self.join || parts.len() < 2 {
            return vec![false; parts.len()];
        }
        let mut joined = if self.by_picture {
            crate::shape::islands::joined_parts(parts, main, self.fg, self.topology, self.width)
        } else {
            vec![false; parts.len()]
        };
        // a part of [`JOINED_SHARE`] of the shape is joined (a paw print's toe), and then the
        // largest parts left out until what is dropped is at most [`MAX_DROPPED_SHARE`]
        for (i, part) in parts.iter().enumerate() {
            joined[i] |= i != main && part.len() as f64 >= JOINED_SHARE * self.shape_cells;
        }
        let mut left: Vec<usize> = (0..parts.len())
            .filter(|&i| {
                i != main && !joined[i] && parts[i].len() >= crate::shape::islands::MIN_JOINED
            })
            .collect();
        left.sort_by_key(|&i| (std::cmp::Reverse(parts[i].len()), i));
        let mut dropped: usize = (0..parts.len())
            .filter(|&i| i != main && !joined[i])
            .map(|i| parts[i].len())
            .sum();
        for i in left {
            if dropped as f64 <= MAX_DROPPED_SHARE * self.shape_cells {
                break;
            }
            joined[i] = true;
            dropped -= parts[i].len();
        }
        joined
    }
}

/// Makes the maze `design` describes, on `mask` when given (a mask of the design's topology).
/// A mask in several parts is bridged here when the design asks for it (see
/// [`Generated::added_cells`]).
/// The design is checked ([`Design::validate`]) here, once: the steps after it take it as
/// valid.
pub fn generate(design: &Design, mask: Option<&Mask>) -> Result<Generated> {
    design.validate()?;
    generate_unchecked(design, mask)
}

/// [`generate`] of a design already checked.
pub(crate) fn generate_unchecked(design: &Design, mask: Option<&Mask>) -> Result<Generated> {
    generate_revealing(design, mask, None)
}

/// [`generate_unchecked`] with the picture a design reveals fitted to its grid (`picture`;
/// [`crate::make`] fits it).
pub(crate) fn generate_revealing(
    design: &Design,
    mask: Option<&Mask>,
    picture: Option<&Mask>,
) -> Result<Generated> {
    let edited = edited_mask(design, mask)?;
    let (grid, dropped, added) = build_grid_counted(design, edited.as_ref().or(mask))?;
    let mut g = carve_revealing(design, Arc::new(grid), dropped, picture)?;
    g.added_cells = added;
    Ok(g)
}

/// [`generate`] on a shape's mask from [`shape_mask`], whose bridges (already in the mask) count
/// as the result's added cells and whose dropped parts (already out of it) as its dropped cells.
pub fn generate_shaped(design: &Design, shaped: &ShapedMask) -> Result<Generated> {
    design.validate()?;
    generate_shaped_unchecked(design, shaped, None)
}

/// [`generate_shaped`] of a design already checked.
pub(crate) fn generate_shaped_unchecked(
    design: &Design,
    shaped: &ShapedMask,
    picture: Option<&Mask>,
) -> Result<Generated> {
    let mut g = generate_revealing(design, Some(&shaped.mask), picture)?;
    g.added_cells += shaped.added.len();
    g.dropped_cells += shaped.dropped.len();
    Ok(g)
}

/// `mask` (or the full grid) with the design's hand edits applied; `None` when there are none.
pub(crate) fn edited_mask(design: &Design, mask: Option<&Mask>) -> Result<Option<Mask>> {
    if design.cell_edits.is_empty() {
        return Ok(None);
    }
    let topology = Topology::new(design.walls().topology, design.width, design.height)?;
    let mut m = match mask {
        Some(m) => m.clone(),
        None => Mask::full(&topology)?,
    };
    for e in &design.cell_edits {
        m.set(e.coord(), e.on);
    }
    Ok(Some(m))
}

/// Like [`generate`], on a grid already built (the editor and the difficulty search reuse one).
/// The result's `added_cells` is 0: the grid is taken as it is.
pub fn generate_on(design: &Design, grid: Arc<Grid>, dropped_cells: usize) -> Result<Generated> {
    design.validate()?;
    carve_unchecked(design, grid, dropped_cells)
}

/// [`generate_on`] of a design already checked: carves, places the openings, solves and
/// measures (the difficulty search runs it once a candidate).
pub(crate) fn carve_unchecked(
    design: &Design,
    grid: Arc<Grid>,
    dropped_cells: usize,
) -> Result<Generated> {
    carve_revealing(design, grid, dropped_cells, None)
}

/// [`carve_unchecked`], with the picture the design reveals fitted to the grid's topology
/// (`picture`): a design with `reveal` needs it, and is carved by [`crate::reveal::carve`].
pub(crate) fn carve_revealing(
    design: &Design,
    grid: Arc<Grid>,
    dropped_cells: usize,
    picture: Option<&Mask>,
) -> Result<Generated> {
    let seed = design.seed.unwrap_or_else(fresh_seed);
    let mut rng = MazeRng::new(seed);
    let mut maze = Maze::new(grid);
    if design.walls().reveal.is_some() {
        let picture = picture.ok_or_else(|| {
            Error::input(
                "reveal: the picture file to reveal was not read (make::prepare or \
                 load::read_reveal_file reads it)",
            )
        })?;
        let on = crate::reveal::cells(maze.grid(), picture)?;
        let r = crate::reveal::carve(&mut maze, &on, &mut rng)?;
        let mut g = finish(
            design,
            seed,
            maze,
            (r.entrance, r.exit, Vec::new()),
            crate::reveal::NAME,
            false,
            dropped_cells,
        )?;
        g.reveal = Some(crate::reveal::Match::of(&g.solution, &on));
        return Ok(g);
    }
    if design.walls().starts > 1 {
        // a "Which path?" puzzle: a forest carved one tree per entrance (never braided or
        // woven: Design::check_starts)
        let opts = CarveOptions {
            growing_tree: design.walls().growing_tree,
        };
        let n = design.walls().starts as usize;
        let f = crate::forest::carve(&mut maze, n, design.walls().algorithm, &opts, &mut rng)?;
        return finish(
            design,
            seed,
            maze,
            (f.entrance, f.exit, f.starts),
            design.walls().algorithm.name(),
            false,
            dropped_cells,
        );
    }
    // Weave replaces the carver, and braid is skipped: loops added afterwards would undo the
    // one-new-cell-per-new-edge property the dives are built on.
    let (algorithm_used, braid_skipped) = if design.walls().weave > 0.0 {
        weave::carve(&mut maze, design.walls().weave, &mut rng)?;
        (weave::NAME, design.walls().braid > 0.0)
    } else {
        let w = design.walls();
        let opts = CarveOptions {
            growing_tree: w.growing_tree,
        };
        carve(&mut maze, w.algorithm, &mut rng, &opts)?;
        let closed = hand_work(&mut maze, w, &opts, seed)?;
        braid_keeping(&mut maze, w.braid, &mut rng, &|a, b| {
            closed.contains(&(a.min(b), a.max(b)))
        });
        (w.algorithm.name(), false)
    };
    let (entrance, exit) = place(&maze, design.walls().placement)?;
    finish(
        design,
        seed,
        maze,
        (entrance, exit, Vec::new()),
        algorithm_used,
        braid_skipped,
        dropped_cells,
    )
}

/// The hand work on a carved maze ([`crate::locks`]): its regions carved again, in order, then
/// its locks applied (their walls ranked from the seed, drawing nothing from the maze's random
/// stream, so the braid after is the same with or without them). Returns the walls locked closed, which the braid leaves standing.
fn hand_work(
    maze: &mut Maze,
    w: &crate::design::Walls,
    opts: &CarveOptions,
    seed: u64,
) -> Result<std::collections::HashSet<(crate::grid::CellId, crate::grid::CellId)>> {
    if w.lock.is_empty() && w.recarve.is_empty() {
        return Ok(Default::default());
    }
    let locked = crate::locks::locked_walls(maze.grid(), &w.lock)?;
    for region in &w.recarve {
        crate::locks::recarve(maze, region, w.algorithm, opts, &locked[0])?;
    }
    crate::locks::lock(maze, &locked, seed ^ 0x10C4_ED00)?;
    let [closed, _] = locked;
    Ok(closed)
}

/// The carved maze with its openings (entrance, exit, and every entrance of a "Which path?"
/// puzzle) solved, measured and put together.
fn finish(
    design: &Design,
    seed: u64,
    maze: Maze,
    (entrance, exit, starts): (Endpoint, Endpoint, Vec<Endpoint>),
    algorithm_used: &'static str,
    braid_skipped: bool,
    dropped_cells: usize,
) -> Result<Generated> {
    let solution = shortest_path(&maze, entrance.cell, exit.cell)
        .ok_or_else(|| Error::empty("the exit cannot be reached from the entrance"))?;
    let metrics = measure(&maze, &solution);
    let mut design = design.clone();
    design.seed = Some(seed);
    Ok(Generated {
        algorithm_used,
        design,
        seed,
        maze,
        entrance,
        exit,
        starts,
        solution,
        metrics,
        braid_skipped,
        dropped_cells,
        added_cells: 0,
        outline: None,
        items: Vec::new(),
        reveal: None,
    })
    .and_then(|mut g| {
        place_items(&mut g, &|_| true)?;
        Ok(g)
    })
}

/// Places the items to collect of `g`'s design on it ([`crate::items::place`]), in the cells
/// that `fits` only, replacing any it had: [`finish`] places them in any cell, and
/// [`crate::make`] again once the shape's outline has cut the cells.
pub fn place_items(g: &mut Generated, fits: &dyn Fn(CellId) -> bool) -> Result<()> {
    let w = g.design.walls();
    let doors: Vec<CellId> = g.openings().iter().map(|e| e.cell).collect();
    g.items = crate::items::place(
        &g.maze,
        &g.solution,
        &doors,
        (w.collect as usize, crate::items::names(&w.items).len()),
        g.seed,
        fits,
    )?;
    Ok(())
}

/// Drawn with the shape's outline, places `g`'s items again clear of the cells the outline
/// cuts small ([`items_in_outline`]); where too few cells are left for them, they stay where
/// they were placed on the whole cells.
pub(crate) fn finish_items(g: &mut Generated) {
    // an error leaves the items as they were
    let _ = items_in_outline(g);
}

/// The share of a whole cell's clear room (the circle inside its walls) a cell the shape's
/// outline cuts must keep to hold an item's picture.
const ITEM_ROOM: f64 = 0.8;

/// Places `g`'s items to collect again, in the cells the shape's outline leaves room for a
/// picture in ([`ITEM_ROOM`]), when it is drawn with the outline and has items.
fn items_in_outline(g: &mut Generated) -> Result<()> {
    let Some(o) = g.outline.clone() else {
        return Ok(());
    };
    if g.items.is_empty() {
        return Ok(());
    }
    let grid = g.maze.grid_arc().clone();
    let room = |p: crate::topology::Point, sides: &[crate::topology::Side]| {
        sides
            .iter()
            .map(|s| {
                let (dx, dy) = (s.b.x - s.a.x, s.b.y - s.a.y);
                let l2 = dx * dx + dy * dy;
                let t = if l2 > 0.0 {
                    (((p.x - s.a.x) * dx + (p.y - s.a.y) * dy) / l2).clamp(0.0, 1.0)
                } else {
                    0.0
                };
                ((p.x - s.a.x - t * dx).powi(2) + (p.y - s.a.y - t * dy).powi(2)).sqrt()
            })
            .fold(f64::INFINITY, f64::min)
    };
    let fits = |c: crate::grid::CellId| {
        let mut sides = Vec::new();
        grid.sides(c, &mut sides);
        let whole = room(grid.center(c), &sides);
        let p = o.clip.point(grid.coord(c));
        let r = room(p, &sides).min(o.clip.clearance(p, whole));
        r >= ITEM_ROOM * whole
    };
    place_items(g, &fits)
}

/// A finished tile maze (style `tiles`) with everything the back ends need.
#[derive(Clone, Debug)]
pub struct GeneratedTiles {
    /// The design, with `seed` filled in.
    pub design: Design,
    /// The seed that was used.
    pub seed: u64,
    /// The tile maze.
    pub maze: TileMaze,
}

impl GeneratedTiles {
    /// One line about the maze: `17x14 tiles, order 0, 97 open, solution 31 tiles` (and the
    /// tiles of the shape, when it has one).
    pub fn summary(&self) -> String {
        let m = &self.maze;
        let mut line = format!(
            "{}x{} tiles, order {}, {} open, solution {} tiles",
            m.grid.width(),
            m.grid.height(),
            m.order,
            m.grid.open_count(),
            m.solution.len()
        );
        if let Some(r) = &m.region {
            line += &format!(", {} tiles in the shape", r.open_count());
        }
        line
    }
}

/// Makes the hex tile maze `design` describes (its width, height, order and seed; the cell
/// knobs do not apply): the whole grid, or inside `mask` when given (a mask of the design's
/// [`Design::grid_topology`], e.g. from [`shape_mask`]; its largest part is used). The design
/// is checked already ([`crate::make::prepare_with`] checks it).
pub(crate) fn generate_tiles(design: &Design, mask: Option<&Mask>) -> Result<GeneratedTiles> {
    let seed = design.seed.unwrap_or_else(fresh_seed);
    let mut rng = MazeRng::new(seed);
    let (w, h) = (design.width, design.height);
    let maze = match mask {
        Some(m) => puzzle::make_in(&region::from_mask(m, w, h)?, design.tiles().order, &mut rng)?,
        None => puzzle::make(w, h, design.tiles().order, &mut rng)?,
    };
    let mut design = design.clone();
    design.seed = Some(seed);
    Ok(GeneratedTiles { design, seed, maze })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::design::{Kind, Tiles, Walls};

    #[test]
    fn tile_mazes_by_design_whole_grid_and_inside_a_shape() {
        use crate::random::MazeRng;
        let d = Design {
            kind: Kind::Tiles(Tiles { order: 1 }),
            width: 17,
            height: 14,
            seed: Some(9),
            ..Design::default()
        };
        let t = generate_tiles(&d, None).unwrap();
        let want = puzzle::make(17, 14, 1, &mut MazeRng::new(9)).unwrap();
        assert_eq!(t.maze, want, "the CLI's tile maze for the same knobs");
        assert_eq!((t.seed, t.design.seed), (9, Some(9)));
        assert!(
            t.summary().starts_with("17x14 tiles, order 1, "),
            "{}",
            t.summary()
        );
        // a shape is fitted onto the hex topology, whatever the design's own topology
        let heart = crate::shape::builtin::get("heart").unwrap();
        let picture = crate::shape::Picture::decode_as(heart, crate::shape::Format::Svg).unwrap();
        let fg = Foreground::from_picture(&picture, crate::shape::Cut::default()).unwrap();
        let shaped_d = Design {
            width: 25,
            height: 22,
            ..d.clone()
        };
        let shaped = shape_mask(&shaped_d, &fg).unwrap();
        let t = generate_tiles(&shaped_d, Some(&shaped.mask)).unwrap();
        let region = t.maze.region.as_ref().expect("a region");
        assert!(t.maze.grid.open_tiles().iter().all(|&x| region.is_open(x)));
        assert!(
            t.summary().ends_with("tiles in the shape"),
            "{}",
            t.summary()
        );
        // too small for tiles: an error, not a panic
        let tiny = Design { width: 2, ..d };
        assert!(generate_tiles(&tiny, None).is_err());
    }

    #[test]
    fn same_seed_same_maze() {
        let d = Design {
            seed: Some(99),
            ..Design::default()
        };
        let a = generate(&d, None).unwrap();
        let b = generate(&d, None).unwrap();
        assert_eq!(a.maze.passage_list(), b.maze.passage_list());
        assert_eq!(a.solution, b.solution);
        let c = generate(
            &Design {
                seed: Some(100),
                ..d
            },
            None,
        )
        .unwrap();
        assert_ne!(a.maze.passage_list(), c.maze.passage_list());
    }

    #[test]
    fn hand_edits_switch_cells() {
        use crate::design::CellEdit;
        use crate::topology::Coord;
        let d = Design {
            width: 6,
            height: 6,
            seed: Some(4),
            cell_edits: vec![
                CellEdit {
                    row: 0,
                    col: 0,
                    on: false,
                },
                CellEdit {
                    row: 5,
                    col: 5,
                    on: false,
                },
                CellEdit {
                    row: 5,
                    col: 5,
                    on: true,
                },
                CellEdit {
                    row: 99,
                    col: 0,
                    on: false,
                },
            ],
            ..Design::default()
        };
        let g = generate(&d, None).unwrap();
        assert_eq!(g.metrics.cells, 35);
        assert!(g.maze.grid().id_at(Coord::new(0, 0)).is_none());
        assert!(g.maze.grid().id_at(Coord::new(5, 5)).is_some());
    }

    #[test]
    fn bad_knobs_are_errors() {
        let d = Design {
            kind: Kind::Walls(Walls {
                braid: 1.5,
                ..Walls::DEFAULT
            }),
            ..Design::default()
        };
        assert!(generate(&d, None).unwrap_err().message.contains("braid"));
        let d = Design {
            width: 1,
            height: 1,
            ..Design::default()
        };
        assert!(generate(&d, None).unwrap_err().message.contains("1 cell"));
    }
}
