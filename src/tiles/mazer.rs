//! The Mazer: fills the interior of a tile grid with a maze by the carve rule (see [`super`]).
//!
//! The engine here (`run`) is shared with the [`super::Digger`]: a randomised backtracker with
//! an explicit stack of frames, generic over the order (so the masks and the window rows are
//! constants) and over the way candidates are tested (a `Probe`, chosen by [`Strategy`]).

use super::grid::TileGrid;
use super::masks::{self, CARVE};
use super::{OFFSETS, Tile, check_order, distance_i};
use crate::error::{Error, Result};
use crate::random::Random;

/// How the backtracker tests a candidate (both make the same tiles from the same seed).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Strategy {
    /// Read the window of the current tile once per visit, then one mask test per candidate.
    #[default]
    Window,
    /// Test the tiles of each candidate's mask one bit at a time, stopping at the first open one.
    PerTile,
}

/// Makes tile mazes of one size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mazer {
    width: u32,
    height: u32,
    strategy: Strategy,
}

impl Mazer {
    /// A Mazer for `width` x `height` grids. Errors on sizes [`TileGrid::new`] refuses.
    pub fn new(width: u32, height: u32) -> Result<Mazer> {
        TileGrid::new(width, height)?;
        Ok(Mazer {
            width,
            height,
            strategy: Strategy::default(),
        })
    }

    /// The same Mazer testing candidates with `strategy`.
    pub fn with_strategy(self, strategy: Strategy) -> Mazer {
        Mazer { strategy, ..self }
    }

    /// A maze of `order` (0 or 1; anything else is an error): starting from an interior tile
    /// drawn from `rng`, the backtracker opens tiles by the carve rule until none can be opened.
    /// Only interior tiles are opened; the result is a tree (connected, no loops).
    pub fn generate<R: Random + ?Sized>(&self, order: u32, rng: &mut R) -> Result<TileGrid> {
        check_order(order)?;
        let mut grid = TileGrid::new(self.width, self.height)?;
        let (iw, ih) = (self.width - 2, self.height - 2);
        let k = if iw * ih == 1 {
            0
        } else {
            rng.below((iw * ih) as usize) as u32
        };
        let start = (1 + k % iw, 1 + k / iw);
        let frame = Frame::new(&grid, start, ROOT);
        grid.set_bit(frame.idx as usize);
        let mut stack = Vec::with_capacity(64);
        stack.push(frame);
        carve(&mut grid, &mut stack, rng, order, self.strategy, |_, _| {
            true
        });
        Ok(grid)
    }

    /// A maze of `order` confined to `region` (a grid of this Mazer's size whose open tiles are
    /// the tiles that belong to the maze, e.g. a silhouette rasterised onto the tiles).
    ///
    /// The region's *interior* plays the part of the grid's interior: its tiles whose six
    /// neighbours all belong to the region. Only those are opened, so the region's outline (its
    /// tiles next to a tile outside it, or to the grid's edge) stays closed, as the grid's outer
    /// ring does in [`generate`](Self::generate). The first tile is drawn uniformly among the
    /// tiles of the largest connected part of the interior (row-major order; ties: the part
    /// whose first tile comes first); from there the backtracker and the carve rule run as in
    /// [`generate`](Self::generate), with candidates outside the interior refused. The result is
    /// a tree obeying the order's rule; parts of the interior the backtracker cannot reach stay
    /// closed. A region covering the whole grid gives exactly [`generate`](Self::generate)'s
    /// tiles. Errors when the region has no interior tile (or is of another size).
    pub fn generate_in<R: Random + ?Sized>(
        &self,
        order: u32,
        region: &TileGrid,
        rng: &mut R,
    ) -> Result<TileGrid> {
        check_order(order)?;
        if (region.width(), region.height()) != (self.width, self.height) {
            return Err(Error::input(format!(
                "the tile region is {}x{}, the maze {}x{}",
                region.width(),
                region.height(),
                self.width,
                self.height
            )));
        }
        let inner = region.interior();
        let part = largest_part(&inner);
        if part.is_empty() {
            return Err(Error::empty(
                "the shape leaves no room for a tile maze (no tile with all six neighbours \
                 inside it); try a larger width",
            ));
        }
        let mut grid = TileGrid::new(self.width, self.height)?;
        let k = if part.len() == 1 {
            0
        } else {
            rng.below(part.len())
        };
        let frame = Frame::new(&grid, part[k], ROOT);
        grid.set_bit(frame.idx as usize);
        let mut stack = Vec::with_capacity(64);
        stack.push(frame);
        carve_in(&mut grid, &mut stack, rng, order, self.strategy, &inner);
        Ok(grid)
    }
}

/// The open tiles of the largest connected part of `set` (flood fill), row-major; ties go to
/// the part whose first tile comes first in row-major order.
fn largest_part(set: &TileGrid) -> Vec<Tile> {
    let w = set.width() as usize;
    let mut seen = vec![false; w * set.height() as usize];
    let mut best: Vec<Tile> = Vec::new();
    for t in set.open_tiles() {
        if seen[t.1 as usize * w + t.0 as usize] {
            continue;
        }
        let part = set.flood(t);
        for &(c, r) in &part {
            seen[r as usize * w + c as usize] = true;
        }
        if part.len() > best.len() {
            best = part;
        }
    }
    best.sort_by_key(|&(c, r)| (r, c));
    best
}

/// The heading of a frame that has no parent: all six directions are candidates.
pub(crate) const ROOT: u8 = 6;

/// The candidates of each heading as a set of directions (bit `d`): the two sides and straight
/// ahead; for [`ROOT`], all six.
const CANDIDATES: [u32; 7] = [
    0b100011, 0b000111, 0b001110, 0b011100, 0b111000, 0b110001, 0b111111,
];

/// The candidates of each heading but [`ROOT`] as a list: one side, straight ahead, the other
/// side.
const FORWARD: [[usize; 3]; 6] = [
    [5, 0, 1],
    [0, 1, 2],
    [1, 2, 3],
    [2, 3, 4],
    [3, 4, 5],
    [4, 5, 0],
];

/// A tile on the backtracker's stack: its bit, its coordinates and the direction it was entered
/// by ([`ROOT`] for none).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Frame {
    pub idx: u32,
    pub col: u16,
    pub row: u16,
    pub heading: u8,
}

impl Frame {
    /// The frame of `tile` in `grid`, entered by `heading`.
    pub fn new(grid: &TileGrid, tile: Tile, heading: u8) -> Frame {
        Frame {
            idx: grid.index(tile) as u32,
            col: tile.0 as u16,
            row: tile.1 as u16,
            heading,
        }
    }

    /// The parity of the column, `0` or `1`.
    #[inline(always)]
    fn parity(self) -> usize {
        usize::from(self.col & 1)
    }
}

/// The bit offset of each neighbour, `[col & 1][direction]`, for a bitset of `stride`.
fn neighbour_deltas(stride: usize) -> [[isize; 6]; 2] {
    let mut d = [[0; 6]; 2];
    for (p, row) in d.iter_mut().enumerate() {
        for (dir, v) in row.iter_mut().enumerate() {
            let (dc, dr) = OFFSETS[p][dir];
            *v = dr as isize * stride as isize + dc as isize;
        }
    }
    d
}

/// How candidates are tested: which of the directions in `candidates` (bit `d`) pass the carve
/// rule from `frame`.
pub(crate) trait Probe<const ORDER: usize> {
    /// The subset of `candidates` (not empty) that passes.
    fn passing(&self, set: &TileGrid, frame: Frame, candidates: u32) -> u32;
}

/// [`Strategy::Window`]: read the window once, then test all six masks without a branch.
pub(crate) struct WindowProbe;

impl<const ORDER: usize> Probe<ORDER> for WindowProbe {
    #[inline(always)]
    fn passing(&self, set: &TileGrid, f: Frame, candidates: u32) -> u32 {
        let (words, centre, stride) = (set.words(), f.idx as usize, set.stride());
        let window = if ORDER == 0 {
            masks::window::<{ masks::rows(0).0 }, { masks::rows(0).1 }>(words, centre, stride)
        } else {
            masks::window::<{ masks::rows(1).0 }, { masks::rows(1).1 }>(words, centre, stride)
        };
        let k = &CARVE[ORDER][f.parity()];
        let test = |d: usize| u32::from(window & k[d] == 0) << d;
        let pass = match FORWARD.get(usize::from(f.heading)) {
            Some(&[a, b, c]) => test(a) | test(b) | test(c),
            None => (0..6).fold(0, |pass, d| pass | test(d)),
        };
        pass & candidates
    }
}

/// [`Strategy::PerTile`]: the bit offsets of every mask, `[col & 1][direction]`, nearest to the
/// candidate first, tested one by one up to the first open tile.
pub(crate) struct TileProbe {
    offsets: [[[isize; 15]; 6]; 2],
    len: usize,
}

impl TileProbe {
    fn new(order: usize, stride: usize) -> TileProbe {
        let mut offsets = [[[0; 15]; 6]; 2];
        let mut len = 0;
        for (p, per_dir) in offsets.iter_mut().enumerate() {
            for (dir, list) in per_dir.iter_mut().enumerate() {
                let k = CARVE[order][p][dir];
                // Nearest to the candidate first: the candidate, then its neighbours.
                let (ndc, ndr) = OFFSETS[p][dir];
                let at = |dc: i32, dr: i32| (i64::from(p as i32 + 10 + dc), i64::from(dr));
                let mut bits = [0i32; 15];
                len = 0;
                for b in (0..49).filter(|b| k >> b & 1 == 1) {
                    bits[len] = b;
                    len += 1;
                }
                bits[..len]
                    .sort_by_key(|&b| (distance_i(at(b % 7 - 3, b / 7 - 3), at(ndc, ndr)), b));
                for (slot, &b) in list.iter_mut().zip(&bits[..len]) {
                    let (dc, dr) = (b as isize % 7 - 3, b as isize / 7 - 3);
                    *slot = dr * stride as isize + dc;
                }
            }
        }
        TileProbe { offsets, len }
    }
}

impl<const ORDER: usize> Probe<ORDER> for TileProbe {
    #[inline(always)]
    fn passing(&self, set: &TileGrid, f: Frame, candidates: u32) -> u32 {
        let base = f.idx as isize;
        let offsets = &self.offsets[f.parity()];
        let mut pass = 0;
        let mut rest = candidates;
        while rest != 0 {
            let d = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            if offsets[d][..self.len]
                .iter()
                .all(|&o| !set.bit((base + o) as usize))
            {
                pass |= 1 << d;
            }
        }
        pass
    }
}

/// Runs the backtracker from `stack` on `set` with the probe of `strategy`; see [`run`].
pub(crate) fn carve<R: Random + ?Sized>(
    set: &mut TileGrid,
    stack: &mut Vec<Frame>,
    rng: &mut R,
    order: u32,
    strategy: Strategy,
    dug: impl FnMut(&mut TileGrid, Frame) -> bool,
) {
    let stride = set.stride();
    let all = |_: Frame, c: u32| c;
    match (order, strategy) {
        (0, Strategy::Window) => run::<R, _, 0>(set, stack, rng, &WindowProbe, all, dug),
        (_, Strategy::Window) => run::<R, _, 1>(set, stack, rng, &WindowProbe, all, dug),
        (0, Strategy::PerTile) => {
            run::<R, _, 0>(set, stack, rng, &TileProbe::new(0, stride), all, dug)
        }
        (_, Strategy::PerTile) => {
            run::<R, _, 1>(set, stack, rng, &TileProbe::new(1, stride), all, dug)
        }
    }
}

/// [`carve`] with candidates limited to the open tiles of `allowed` (a grid of the same size).
pub(crate) fn carve_in<R: Random + ?Sized>(
    set: &mut TileGrid,
    stack: &mut Vec<Frame>,
    rng: &mut R,
    order: u32,
    strategy: Strategy,
    allowed: &TileGrid,
) {
    let stride = set.stride();
    let deltas = neighbour_deltas(stride);
    // the candidates whose tile is in `allowed` (same size, so the same bit indices)
    let within = |f: Frame, candidates: u32| {
        let mut keep = 0;
        let mut rest = candidates;
        while rest != 0 {
            let d = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            if allowed.bit((f.idx as isize + deltas[f.parity()][d]) as usize) {
                keep |= 1 << d;
            }
        }
        keep
    };
    let dug = |_: &mut TileGrid, _: Frame| true;
    match (order, strategy) {
        (0, Strategy::Window) => run::<R, _, 0>(set, stack, rng, &WindowProbe, within, dug),
        (_, Strategy::Window) => run::<R, _, 1>(set, stack, rng, &WindowProbe, within, dug),
        (0, Strategy::PerTile) => {
            run::<R, _, 0>(set, stack, rng, &TileProbe::new(0, stride), within, dug)
        }
        (_, Strategy::PerTile) => {
            run::<R, _, 1>(set, stack, rng, &TileProbe::new(1, stride), within, dug)
        }
    }
}

/// The directions from the tile of `f` that lead to interior tiles (bit `d`), for a grid whose
/// interior is `iw` x `ih`.
#[inline(always)]
fn inward(f: Frame, iw: u32, ih: u32) -> u32 {
    let (c, r) = (u32::from(f.col), u32::from(f.row));
    // Two tiles from the ring (or more): every neighbour is interior.
    if c.wrapping_sub(2) < iw.wrapping_sub(2) && r.wrapping_sub(2) < ih.wrapping_sub(2) {
        return 0b111111;
    }
    let mut dirs = 0;
    for (d, &(dc, dr)) in OFFSETS[f.parity()].iter().enumerate() {
        let (nc, nr) = (c.wrapping_add_signed(dc), r.wrapping_add_signed(dr));
        if nc.wrapping_sub(1) < iw && nr.wrapping_sub(1) < ih {
            dirs |= 1 << d;
        }
    }
    dirs
}

/// The backtracker: while the stack is not empty, look at its top tile's candidates; pop it if
/// none passes, else open one drawn from `rng` (no draw when only one passes), push it and call
/// `dug` with it; stop early when `dug` returns `false`. Only interior tiles are opened, and of
/// those only the ones `allow` keeps (it maps a frame and its candidate directions to the
/// candidates that may be opened; the identity for a whole grid).
#[inline(always)]
pub(crate) fn run<R, P, const ORDER: usize>(
    set: &mut TileGrid,
    stack: &mut Vec<Frame>,
    rng: &mut R,
    probe: &P,
    allow: impl Fn(Frame, u32) -> u32,
    mut dug: impl FnMut(&mut TileGrid, Frame) -> bool,
) where
    R: Random + ?Sized,
    P: Probe<ORDER>,
{
    let deltas = neighbour_deltas(set.stride());
    let (iw, ih) = (set.width() - 2, set.height() - 2);
    while let Some(&f) = stack.last() {
        let p = f.parity();
        let heading = usize::from(f.heading);
        // Straight ahead already open: both sides touch it, nothing can pass.
        if f.heading != ROOT && set.bit((f.idx as isize + deltas[p][heading]) as usize) {
            stack.pop();
            continue;
        }
        let candidates = allow(f, CANDIDATES[heading] & inward(f, iw, ih));
        let mut pass = if candidates == 0 {
            0
        } else {
            probe.passing(set, f, candidates)
        };
        let count = pass.count_ones() as usize;
        if count == 0 {
            stack.pop();
            continue;
        }
        // The k-th passing direction, in direction order.
        if count > 1 {
            for _ in 0..rng.below(count) {
                pass &= pass - 1;
            }
        }
        let d = pass.trailing_zeros() as usize;
        let (dc, dr) = OFFSETS[p][d];
        let next = Frame {
            idx: (f.idx as isize + deltas[p][d]) as u32,
            col: (i32::from(f.col) + dc) as u16,
            row: (i32::from(f.row) + dr) as u16,
            heading: d as u8,
        };
        set.set_bit(next.idx as usize);
        stack.push(next);
        if !dug(set, next) {
            return;
        }
    }
}
