//! Cells clipped to the silhouette's contour: the geometry behind `outline = "shape"`.
//!
//! [`Clip`] intersects every cell of a topology with a [`Contour`] (the shape is inside the
//! contour's rings, even-odd). For each cell crossed by the contour it keeps the parts of each
//! side inside the shape (as parameter intervals along the side, arcs included), the pieces of
//! the contour inside the cell (runs along its flattened rings, drawn as the Bézier curves they
//! come from), the share of the cell's area inside the shape and the centroid of that part.
//! Areas and centroids come from Green's theorem over those boundary pieces, so no clipped
//! polygon needs to be assembled; the pieces are found through a bucket index of the contour's
//! segments (one maze unit per bucket). No polygon boolean operation is needed: only segments and
//! arcs are cut against segments, which is a few lines of exact arithmetic rather than a crate.
//!
//! The rules, in order:
//!
//! - **coverage** (unchanged): a cell is in the mask when the shape covers `coverage` of it
//!   ([`crate::shape::fit`]);
//! - **slivers** ([`Clip::slivers`]): a masked cell is dropped from the graph when less than
//!   [`MIN_SHARE`] of it lies inside the shape, or when a side it shares with another masked cell
//!   is open over less than [`MIN_PASSAGE`] of its length (of the two cells, the one with less
//!   area goes). So every passage the maze can open is at least 0.6 of a full side wide: no
//!   corridor narrower than 0.6 of the nominal corridor. A cell the contour cuts into separate
//!   pieces is its largest piece ([`Cut::main`]): its share is that piece's, and the parts of
//!   its sides on other pieces count as closed, so no passage leads into a pocket;
//! - **merging** ([`Outline::new`]): a cell outside the graph with part of its area inside the
//!   shape (under the coverage rule, dropped as a sliver, or left out by the picture's pixels
//!   where the contour covers a little more) is merged into the graph cell (or
//!   merged cell) it shares the longest open side with; a cell behind the entrance's or exit's
//!   side goes to that endpoint's cell. The merged area is drawn as part of its host; walls
//!   between it and any other cell stay closed, so the graph is the topology's graph minus
//!   cells, and carving, braid, weave, solving and metrics are unchanged;
//! - **thin parts** (`thin.rs`): a merged cell whose part inside the shape lies mostly where
//!   the silhouette is too thin for a crayon's disc (an antenna, a bird's feet, a tail's tip) is
//!   picture, not maze ([`Outline::picture`]): it has no owner, so the maze's outer wall closes
//!   it off, and the page fills it grey rather than leaving an empty tube a child could enter;
//! - **dropped parts** ([`Outline::new`]): the cells keeping the shape's main part dropped (an
//!   ear tip joined to the head only through a sliver) and any cell with area inside the shape
//!   that no maze cell took are picture too, unless behind the entrance or the exit (then they
//!   are its way in): the outline stays whole and the outer wall closes along the kept cells,
//!   never leaving a notch open to the page.
//!
//! This file holds the types, [`Clip`]'s queries and the merging ([`Outline`]); one cell against
//! the contour is `cut.rs`, the geometry along sides and runs `geometry.rs`, and the contour's
//! bucket index `index.rs`.

pub(crate) mod bitmap;
mod cut;
mod geometry;
mod index;
mod neck;
mod thin;

use std::sync::Arc;

pub use crate::design::OutlineStyle;
use crate::design::{Design, Style};
use crate::grid::{CellId, Grid};
use crate::mask::{Mask, row_starts};
use crate::shape::outline::{Contour, Ring, seg_dist, shoelace};
use crate::topology::{Coord, Point, Side, Topology};
use cut::{Scratch, clip_cell};
pub(crate) use geometry::in_polygon;
use geometry::side_points;
pub use geometry::{run_points, side_length, side_point};
use index::Index;

/// Whether `d` is drawn with the shape's outline: `outline = "shape"` where it can be
/// ([`unavailable`]). Cells added to bridge a shape's parts are inside the outline (it runs
/// round them).
pub fn applies(d: &Design) -> bool {
    d.outline == OutlineStyle::Shape && unavailable(d).is_none()
}

/// Why `d` cannot have the shape's outline, whatever its `outline` says: no shape, and tile
/// mazes (their tiles' outline). Inset corridors (a weave maze's) run out to the outline
/// ([`crate::draw`]'s inset walls).
pub fn unavailable(d: &Design) -> Option<&'static str> {
    if d.shape.is_none() {
        Some("the outline follows a shape: pick one first")
    } else if d.style() != Style::Walls {
        Some("tile mazes keep their tiles' outline")
    } else {
        None
    }
}

/// The least share of a masked cell's area inside the shape.
pub const MIN_SHARE: f64 = 0.35;

/// The least open share of a side between two masked cells.
pub const MIN_PASSAGE: f64 = 0.6;

/// Parameters closer than this along a side or segment are the same.
const EPS: f64 = 1e-9;

/// A run of contour inside one cell: along ring `ring`'s flattened segments from segment
/// `s0` at parameter `u0` to segment `s1` at `u1` (wrapping past the ring's end when
/// `s1 < s0`), from point `a` to point `b`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Run {
    /// The ring.
    pub ring: u32,
    /// First segment.
    pub s0: u32,
    /// Parameter on the first segment.
    pub u0: f64,
    /// Last segment.
    pub s1: u32,
    /// Parameter on the last segment.
    pub u1: f64,
    /// Start point.
    pub a: Point,
    /// End point.
    pub b: Point,
}

/// What the shape does to one cell.
#[derive(Clone, Debug, PartialEq)]
pub enum CellClip {
    /// Wholly outside.
    Out,
    /// Wholly inside.
    In,
    /// Crossed by the contour.
    Cut(Box<Cut>),
}

/// A cell crossed by the contour.
#[derive(Clone, Debug, PartialEq)]
pub struct Cut {
    /// Share of the cell's area inside the shape.
    pub share: f64,
    /// Per side (in the topology's order): the parameter intervals inside the shape.
    pub sides: Vec<Vec<(f64, f64)>>,
    /// The contour inside the cell.
    pub runs: Vec<Run>,
    /// Centroid of the part inside the shape.
    pub centroid: Point,
    /// When the contour cuts the cell into separate pieces (a neck of the shape, a notch
    /// across the cell): the side parts of the largest piece, per side, and that piece's share
    /// of the cell. Only the largest piece is the cell in the graph: a passage through a side
    /// part of another piece would lead into a pocket the cell's corridor cannot reach.
    pub main: Option<Box<MainPiece>>,
}

/// The largest of the pieces a cell is cut into ([`Cut::main`]).
#[derive(Clone, Debug, PartialEq)]
pub struct MainPiece {
    /// Per side (in the topology's order): the parameter intervals bounding this piece.
    pub sides: Vec<Vec<(f64, f64)>>,
    /// The piece's share of the cell's area.
    pub share: f64,
}

/// A topology's cells against a contour (see the module documentation).
#[derive(Clone, Debug)]
pub struct Clip {
    contour: Arc<Contour>,
    topology: Topology,
    row_start: Vec<u32>,
    cells: Vec<CellClip>,
    index: Index,
    /// Rings of the shape printed as ink, not part of the maze ([`Clip::with_marks`]).
    marks: Vec<Ring>,
}

impl Clip {
    /// Every cell of `topology` against `contour`.
    pub fn new(contour: Arc<Contour>, topology: Topology) -> Clip {
        let index = Index::new(&contour);
        let t = topology.tess();
        let row_start = row_starts(t).unwrap_or_default();
        let mut cells = Vec::with_capacity(row_start.last().copied().unwrap_or(0) as usize);
        let mut buf = Scratch::default();
        for row in 0..t.rows() {
            for col in 0..t.cols(row) {
                let c = Coord::new(row, col);
                cells.push(clip_cell(&contour, &index, t, c, &mut buf));
            }
        }
        Clip {
            contour,
            topology,
            row_start,
            cells,
            index,
            marks: Vec::new(),
        }
    }

    /// The clip with `marks`: small rings of the shape (the dots over letters, see
    /// [`crate::shape::outline::split_marks`]) left out of its contour, so no cell holds them,
    /// and printed filled beside the maze.
    pub fn with_marks(mut self, marks: Vec<Ring>) -> Clip {
        self.marks = marks;
        self
    }

    /// The rings printed as ink ([`Clip::with_marks`]).
    pub fn marks(&self) -> &[Ring] {
        &self.marks
    }

    /// The contour.
    pub fn contour(&self) -> &Contour {
        &self.contour
    }

    /// The topology.
    pub fn topology(&self) -> &Topology {
        &self.topology
    }

    /// The index of `c` among the topology's cells (row by row).
    pub fn index_of(&self, c: Coord) -> usize {
        self.row_start[c.row as usize] as usize + c.col as usize
    }

    /// What the shape does to cell `c`.
    pub fn cell(&self, c: Coord) -> &CellClip {
        &self.cells[self.index_of(c)]
    }

    /// The share of `c`'s area inside the shape.
    pub fn share(&self, c: Coord) -> f64 {
        match self.cell(c) {
            CellClip::Out => 0.0,
            CellClip::In => 1.0,
            CellClip::Cut(cut) => cut.share,
        }
    }

    /// The parts of side `i` of `c` inside the shape (parameter intervals).
    pub fn side_parts(&self, c: Coord, i: usize) -> &[(f64, f64)] {
        const ALL: &[(f64, f64)] = &[(0.0, 1.0)];
        match self.cell(c) {
            CellClip::Out => &[],
            CellClip::In => ALL,
            CellClip::Cut(cut) => cut.sides.get(i).map_or(&[], |v| v.as_slice()),
        }
    }

    /// The parts of side `i` of `c` that bound the cell's largest piece inside the shape
    /// (all of [`side_parts`](Self::side_parts) unless the contour cuts the cell in pieces):
    /// the only parts a passage of the cell can go through.
    pub fn main_parts(&self, c: Coord, i: usize) -> &[(f64, f64)] {
        match self.cell(c) {
            CellClip::Cut(cut) => match &cut.main {
                Some(m) => m.sides.get(i).map_or(&[], |v| v.as_slice()),
                None => self.side_parts(c, i),
            },
            _ => self.side_parts(c, i),
        }
    }

    /// The share of `c`'s area in its largest piece inside the shape (all of it inside when
    /// the contour does not cut it in pieces).
    pub fn main_share(&self, c: Coord) -> f64 {
        match self.cell(c) {
            CellClip::Cut(cut) => cut.main.as_ref().map_or(cut.share, |m| m.share),
            _ => self.share(c),
        }
    }

    /// The share of side `i` of `c` (of `sides`) a passage of `c` can go through: inside the
    /// shape, on the cell's largest piece.
    pub fn side_open(&self, c: Coord, i: usize) -> f64 {
        self.main_parts(c, i).iter().map(|(a, b)| b - a).sum()
    }

    /// Whether maze point `p` is inside the shape.
    pub fn inside(&self, p: Point) -> bool {
        self.index.inside(&self.contour, p)
    }

    /// Whether any of the contour's flattened segments may meet the box `(x0, y0, x1, y1)`
    /// (their index buckets meet it; `false` means none does).
    pub fn near(&self, b: (f64, f64, f64, f64)) -> bool {
        let (bx0, by0) = self.index.cell(b.0, b.1);
        let (bx1, by1) = self.index.cell(b.2, b.3);
        (by0..=by1)
            .any(|by| (bx0..=bx1).any(|bx| !self.index.buckets[by * self.index.nx + bx].is_empty()))
    }

    /// How far maze point `p` is from the contour's flattened rings, up to `reach`: positive
    /// inside the shape, negative outside (`reach` or `-reach` when no ring is nearer).
    pub fn clearance(&self, p: Point, reach: f64) -> f64 {
        let mut near = Vec::new();
        self.index.query(
            (p.x - reach, p.y - reach, p.x + reach, p.y + reach),
            &mut near,
        );
        let mut d = reach;
        for &id in &near {
            let (a, b) = self.index.seg(&self.contour, id);
            d = d.min(seg_dist(p, a, b));
        }
        if self.inside(p) { d } else { -d }
    }

    /// Where a line through `c` should pass: its centre when that is inside the shape,
    /// otherwise the centroid of its part inside.
    pub fn point(&self, c: Coord) -> Point {
        let ctr = self.topology.tess().center(c);
        match self.cell(c) {
            CellClip::Cut(cut) if !self.inside(ctr) => cut.centroid,
            _ => ctr,
        }
    }

    /// The middle of the longest part of side `i` (`s`) of `c` inside the shape (the side's
    /// middle when it is inside).
    pub fn side_mid(&self, c: Coord, i: usize, s: &Side) -> Point {
        let parts = match self.main_parts(c, i) {
            [] => self.side_parts(c, i),
            main => main,
        };
        if parts.iter().any(|&(a, b)| a <= 0.5 && b >= 0.5) || parts.is_empty() {
            return side_point(s, 0.5);
        }
        let best = parts
            .iter()
            .max_by(|x, y| (x.1 - x.0).total_cmp(&(y.1 - y.0)))
            .expect("not empty");
        side_point(s, (best.0 + best.1) / 2.0)
    }

    /// The masked cells to drop from the graph as slivers (see the module documentation),
    /// in order.
    pub fn slivers(&self, mask: &Mask) -> Vec<Coord> {
        let t = self.topology.tess();
        let mut drop = vec![false; self.cells.len()];
        let mut sides = Vec::new();
        for row in 0..t.rows() {
            for col in 0..t.cols(row) {
                let c = Coord::new(row, col);
                if mask.get(c) && self.main_share(c) < MIN_SHARE {
                    drop[self.index_of(c)] = true;
                }
            }
        }
        for row in 0..t.rows() {
            for col in 0..t.cols(row) {
                let c = Coord::new(row, col);
                let ic = self.index_of(c);
                if !mask.get(c) || drop[ic] || !matches!(self.cell(c), CellClip::Cut(_)) {
                    continue;
                }
                sides.clear();
                t.sides(c, &mut sides);
                for (i, s) in sides.iter().enumerate() {
                    let Some(n) = s.neighbour else { continue };
                    let inn = self.index_of(n);
                    if !mask.get(n) || drop[inn] || drop[ic] {
                        continue;
                    }
                    if self.side_open(c, i) < MIN_PASSAGE {
                        let (sc, sn) = (self.share(c), self.share(n));
                        if sc < sn || (sc == sn && ic > inn) {
                            drop[ic] = true;
                        } else {
                            drop[inn] = true;
                        }
                    }
                }
            }
        }
        self.necks(mask, &mut drop);
        let mut out = Vec::new();
        for row in 0..t.rows() {
            for col in 0..t.cols(row) {
                let c = Coord::new(row, col);
                if drop[self.index_of(c)] {
                    out.push(c);
                }
            }
        }
        out
    }

    /// The neck rule ([`neck`]): a cut cell of `mask` not yet in `drop` where a crayon's disc
    /// ([`neck::disc`]) does not fit is dropped; where the disc fits but cannot get through a
    /// door to another cell of the maze, the one of the two with less area inside the shape is.
    fn necks(&self, mask: &Mask, drop: &mut [bool]) {
        let t = self.topology.tess();
        let d = neck::disc(self);
        let mut sides = Vec::new();
        let mut doors = Vec::new();
        for row in 0..t.rows() {
            for col in 0..t.cols(row) {
                let c = Coord::new(row, col);
                let ic = self.index_of(c);
                if !mask.get(c) || drop[ic] || !matches!(self.cell(c), CellClip::Cut(_)) {
                    continue;
                }
                sides.clear();
                t.sides(c, &mut sides);
                doors.clear();
                for (i, s) in sides.iter().enumerate() {
                    if let Some(n) = s.neighbour
                        && mask.get(n)
                        && !drop[self.index_of(n)]
                        && self.side_open(c, i) > EPS
                    {
                        doors.push(i);
                    }
                }
                let room = neck::room(self, c, &doors, d);
                if !room.fits {
                    drop[ic] = true;
                    continue;
                }
                for k in room.pinched {
                    let Some(n) = sides[k].neighbour else {
                        continue;
                    };
                    let inn = self.index_of(n);
                    if drop[inn] || drop[ic] {
                        continue;
                    }
                    let (sc, sn) = (self.main_share(c), self.main_share(n));
                    if sc < sn || (sc == sn && ic > inn) {
                        drop[ic] = true;
                    } else {
                        drop[inn] = true;
                    }
                }
            }
        }
    }
}

/// How far a polygon's flattened arcs (polar cells' sides) may stray from the arcs, in maze
/// units.
pub const POLYGON_TOLERANCE: f64 = 0.01;

/// Closed rings from directed pieces that join end to start (each ring's pieces in turn: the
/// piece starting nearest where the last one ended comes next).
fn rings_of(mut pieces: Vec<Vec<Point>>) -> Vec<Vec<Point>> {
    let d = |a: Point, b: Point| (a.x - b.x).hypot(a.y - b.y);
    let mut rings = Vec::new();
    while let Some(first) = pieces.pop() {
        let mut ring = first;
        while d(ring[0], ring[ring.len() - 1]) > 1e-7 || ring.len() < 3 {
            let end = ring[ring.len() - 1];
            let next = (0..pieces.len())
                .min_by(|&i, &j| d(pieces[i][0], end).total_cmp(&d(pieces[j][0], end)));
            match next {
                Some(i) if d(pieces[i][0], end) <= d(ring[0], end) + 1e-9 => {
                    let p = pieces.swap_remove(i);
                    ring.extend_from_slice(&p[1..]);
                }
                _ => break,
            }
        }
        ring.pop();
        if ring.len() >= 3 {
            rings.push(ring);
        }
    }
    rings.sort_by(|a, b| shoelace(b).total_cmp(&shoelace(a)));
    rings
}

impl Clip {
    /// The part of topology cell `c` inside the shape as closed rings (the part's outline
    /// clockwise on screen, any hole in it anticlockwise, largest first), arcs flattened within
    /// [`POLYGON_TOLERANCE`]; none when the cell is outside.
    pub fn polygon(&self, c: Coord) -> Vec<Vec<Point>> {
        let t = self.topology.tess();
        let mut sides = Vec::new();
        t.sides(c, &mut sides);
        let mut pieces = Vec::new();
        match self.cell(c) {
            CellClip::Out => {}
            CellClip::In => {
                let mut ring = Vec::new();
                for s in &sides {
                    ring.pop();
                    side_points(s, 0.0, 1.0, POLYGON_TOLERANCE, &mut ring);
                }
                pieces.push(ring);
            }
            CellClip::Cut(cut) => {
                for (s, parts) in sides.iter().zip(&cut.sides) {
                    for &(t0, t1) in parts {
                        let mut piece = Vec::new();
                        side_points(s, t0, t1, POLYGON_TOLERANCE, &mut piece);
                        pieces.push(piece);
                    }
                }
                for r in &cut.runs {
                    let mut piece = Vec::new();
                    run_points(&self.contour.rings[r.ring as usize], r, &mut piece);
                    pieces.push(piece);
                }
            }
        }
        rings_of(pieces)
    }
}

/// A maze's clipped cells: which graph cell owns each topology cell's area.
#[derive(Clone, Debug)]
pub struct Outline {
    /// The clipped topology.
    pub clip: Arc<Clip>,
    /// Per topology cell (row by row): the graph cell its area is drawn as part of.
    pub owner: Vec<Option<CellId>>,
    /// The parts of the shape drawn as picture, not maze ([`Outline::new`]): the thin parts,
    /// the dropped cells and the cells no maze cell could take; topology cells, sorted, with no
    /// owner.
    pub picture: Vec<Coord>,
}

impl Outline {
    /// The owners of `grid`'s topology cells: graph cells own themselves; cells outside the
    /// graph with area inside the shape are merged (module documentation): the ones under
    /// the coverage rule, the slivers, and the ones the picture's pixels left out where the
    /// contour puts more than `coverage` inside. `endpoints` are the entrance's and exit's
    /// cells and sides; `dropped` the cells of the shape that
    /// keeping its main part left out of the mask (sorted row-major, as
    /// [`crate::pipeline::ShapedMask::dropped`]): behind an endpoint they are its way in,
    /// elsewhere picture, as are the cells with area inside the shape that no maze cell could
    /// take, so the shape's outline stays whole and the maze's outer wall closes along the
    /// kept cells (no open notch where an ear tip was dropped).
    pub fn new(
        clip: Arc<Clip>,
        grid: &Grid,
        dropped: &[Coord],
        endpoints: &[(CellId, usize)],
    ) -> Outline {
        let t = clip.topology.tess();
        let mut owner: Vec<Option<CellId>> = vec![None; clip.cells.len()];
        debug_assert!(dropped.windows(2).all(|w| w[0] < w[1]), "dropped sorted");
        let mut cand = Vec::new();
        for row in 0..t.rows() {
            for col in 0..t.cols(row) {
                let c = Coord::new(row, col);
                let i = clip.index_of(c);
                match grid.id_at(c) {
                    Some(id) => owner[i] = Some(id),
                    None => {
                        if clip.share(c) > 1e-9 && dropped.binary_search(&c).is_err() {
                            cand.push(c);
                        }
                    }
                }
            }
        }
        // the cells behind the endpoints' sides go to the endpoints
        let mut sides = Vec::new();
        for &(id, side) in endpoints {
            sides.clear();
            grid.sides(id, &mut sides);
            if let Some(n) = sides.get(side).and_then(|s| s.neighbour) {
                let i = clip.index_of(n);
                if owner[i].is_none()
                    && (cand.binary_search(&n).is_ok() || dropped.binary_search(&n).is_ok())
                {
                    owner[i] = Some(id);
                }
            }
        }
        loop {
            let mut changed = false;
            for &c in &cand {
                let i = clip.index_of(c);
                if owner[i].is_some() {
                    continue;
                }
                sides.clear();
                t.sides(c, &mut sides);
                let mut best: Option<(f64, CellId)> = None;
                for (k, s) in sides.iter().enumerate() {
                    let Some(n) = s.neighbour else { continue };
                    let Some(o) = owner[clip.index_of(n)] else {
                        continue;
                    };
                    let open = clip.side_open(c, k) * side_length(s);
                    if open <= 1e-9 {
                        continue;
                    }
                    if best.is_none_or(|(l, bo)| open > l + 1e-12 || (open > l - 1e-12 && o < bo)) {
                        best = Some((open, o));
                    }
                }
                if let Some((_, o)) = best {
                    owner[i] = Some(o);
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        let behind: Vec<Coord> = endpoints
            .iter()
            .filter_map(|&(id, side)| {
                sides.clear();
                grid.sides(id, &mut sides);
                sides.get(side).and_then(|s| s.neighbour)
            })
            .collect();
        let mut picture = thin_parts(&clip, grid, &owner, &behind);
        // the shape's cells no maze cell took: the dropped ones and the candidates left over
        picture.extend(
            cand.iter()
                .chain(dropped)
                .copied()
                .filter(|&c| owner[clip.index_of(c)].is_none() && clip.share(c) > 1e-9),
        );
        picture.sort_unstable_by_key(|c| (c.row, c.col));
        picture.dedup();
        for &c in &picture {
            owner[clip.index_of(c)] = None;
        }
        Outline {
            clip,
            owner,
            picture,
        }
    }

    /// The picture's thin parts as closed rings ([`Outline::polygon`] of [`Outline::picture`]).
    pub fn picture_rings(&self) -> Vec<Vec<Point>> {
        if self.picture.is_empty() {
            return Vec::new();
        }
        self.polygon(&self.picture)
    }

    /// The graph cell that owns topology cell `c`'s area.
    pub fn owner(&self, c: Coord) -> Option<CellId> {
        self.owner[self.clip.index_of(c)]
    }

    /// The topology cells with an owner, row by row: calls `f` with the cell, its owner and its
    /// sides.
    pub fn each_owned(&self, mut f: impl FnMut(Coord, CellId, &[Side])) {
        let t = self.clip.topology().tess();
        let mut sides = Vec::new();
        for row in 0..t.rows() {
            for col in 0..t.cols(row) {
                let c = Coord::new(row, col);
                let Some(id) = self.owner(c) else { continue };
                sides.clear();
                t.sides(c, &mut sides);
                f(c, id, &sides);
            }
        }
    }

    /// Per graph cell of `grid` (by id): the topology cells whose area it owns, itself first,
    /// then row by row.
    pub fn parts(&self, grid: &Grid) -> Vec<Vec<Coord>> {
        let mut parts: Vec<Vec<Coord>> = grid.cells().map(|id| vec![grid.coord(id)]).collect();
        let t = self.clip.topology.tess();
        for row in 0..t.rows() {
            for col in 0..t.cols(row) {
                let c = Coord::new(row, col);
                if let Some(o) = self.owner(c)
                    && grid.coord(o) != c
                {
                    parts[o.0 as usize].push(c);
                }
            }
        }
        parts
    }

    /// The area a graph cell is drawn with (the topology cells `parts`, from
    /// [`Outline::parts`], clipped to the shape and united) as closed rings: its outline
    /// clockwise on screen, then any holes anticlockwise; arcs flattened within
    /// [`POLYGON_TOLERANCE`].
    pub fn polygon(&self, parts: &[Coord]) -> Vec<Vec<Point>> {
        let mut rings: Vec<Vec<Point>> = parts.iter().flat_map(|&c| self.clip.polygon(c)).collect();
        if parts.len() > 1 {
            let flat: Vec<Vec<[f64; 2]>> = rings
                .iter()
                .map(|r| r.iter().map(|p| [p.x, p.y]).collect())
                .collect();
            rings = crate::shape::vector::union(&flat)
                .into_iter()
                .map(|r| r.into_iter().map(|p| Point::new(p[0], p[1])).collect())
                .collect();
        }
        rings
    }
}

/// The thin parts of the shape drawn as picture ([`thin`]): merged cells ([`Outline::new`])
/// whose part inside the shape is mostly where the silhouette is too thin for a crayon's disc
/// ([`neck::disc`]), sorted. The cells behind the entrance and the exit (`behind`) stay merged:
/// they are the way in.
fn thin_parts(clip: &Clip, grid: &Grid, owner: &[Option<CellId>], behind: &[Coord]) -> Vec<Coord> {
    let t = clip.topology.tess();
    let merged = |c: Coord| {
        owner[clip.index_of(c)].is_some() && grid.id_at(c).is_none() && !behind.contains(&c)
    };
    let any = (0..t.rows()).any(|row| (0..t.cols(row)).any(|col| merged(Coord::new(row, col))));
    if !any {
        return Vec::new();
    }
    let Some(map) = thin::ThinMap::new(clip, neck::disc(clip)) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for row in 0..t.rows() {
        for col in 0..t.cols(row) {
            let c = Coord::new(row, col);
            if merged(c) && map.mostly_thin(clip, c) {
                out.push(c);
            }
        }
    }
    out
}
