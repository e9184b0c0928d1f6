//! The Mazer: fills the interior of a tile grid with a maze by the carve rule (see [`super`]).
//!
//! The engine here (`run`) is shared with the [`super::Digger`]: a randomised backtracker with
//! an explicit stack of frames, generic over the order (so the masks and the window rows are
//! constants) and over the way candidates are tested (a `Probe`, chosen by [`Strategy`]).

use super::grid::TileGrid;
use super::masks::{self, CARVE};
use super::{OFFSETS, Tile, check_order, distance_i};
use crate::error::Result;
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
}

/// The heading of a frame that has no parent: all six directions are candidates.
pub(crate) const ROOT: u8 = 6;

/// The candidates of each heading: the two sides and straight ahead; for [`ROOT`], all six.
const CANDIDATES: [&[u8]; 7] = [
    &[5, 0, 1],
    &[0, 1, 2],
    &[1, 2, 3],
    &[2, 3, 4],
    &[3, 4, 5],
    &[4, 5, 0],
    &[0, 1, 2, 3, 4, 5],
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

/// How candidates are tested: [`Probe::prepare`] once per visit of a tile, then
/// [`Probe::passes`] per candidate.
pub(crate) trait Probe<const ORDER: usize> {
    /// What a visit reads once.
    type Visit: Copy;
    /// Reads what the tests of `frame`'s candidates need.
    fn prepare(&self, set: &TileGrid, frame: Frame) -> Self::Visit;
    /// Whether the candidate of `frame` in direction `dir` passes the carve rule.
    fn passes(&self, set: &TileGrid, visit: Self::Visit, frame: Frame, dir: usize) -> bool;
}

/// [`Strategy::Window`].
pub(crate) struct WindowProbe;

impl<const ORDER: usize> Probe<ORDER> for WindowProbe {
    type Visit = u64;
    #[inline(always)]
    fn prepare(&self, set: &TileGrid, f: Frame) -> u64 {
        let (words, centre, stride) = (set.words(), f.idx as usize, set.stride());
        if ORDER == 0 {
            masks::window::<{ masks::rows(0).0 }, { masks::rows(0).1 }>(words, centre, stride)
        } else {
            masks::window::<{ masks::rows(1).0 }, { masks::rows(1).1 }>(words, centre, stride)
        }
    }
    #[inline(always)]
    fn passes(&self, _: &TileGrid, window: u64, f: Frame, dir: usize) -> bool {
        window & CARVE[ORDER][f.parity()][dir] == 0
    }
}

/// [`Strategy::PerTile`]: the bit offsets of every mask, `[col & 1][direction]`, nearest first.
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
                let mut bits: Vec<i32> = (0..49).filter(|b| k >> b & 1 == 1).collect();
                bits.sort_by_key(|&b| (distance_i(at(b % 7 - 3, b / 7 - 3), at(ndc, ndr)), b));
                len = bits.len();
                for (slot, b) in list.iter_mut().zip(bits) {
                    let (dc, dr) = (b as isize % 7 - 3, b as isize / 7 - 3);
                    *slot = dr * stride as isize + dc;
                }
            }
        }
        TileProbe { offsets, len }
    }
}

impl<const ORDER: usize> Probe<ORDER> for TileProbe {
    type Visit = ();
    #[inline(always)]
    fn prepare(&self, _: &TileGrid, _: Frame) {}
    #[inline(always)]
    fn passes(&self, set: &TileGrid, _: (), f: Frame, dir: usize) -> bool {
        let base = f.idx as isize;
        self.offsets[f.parity()][dir][..self.len]
            .iter()
            .all(|&o| !set.bit((base + o) as usize))
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
    match (order, strategy) {
        (0, Strategy::Window) => run::<R, _, 0>(set, stack, rng, &WindowProbe, dug),
        (_, Strategy::Window) => run::<R, _, 1>(set, stack, rng, &WindowProbe, dug),
        (0, Strategy::PerTile) => run::<R, _, 0>(set, stack, rng, &TileProbe::new(0, stride), dug),
        (_, Strategy::PerTile) => run::<R, _, 1>(set, stack, rng, &TileProbe::new(1, stride), dug),
    }
}

/// The backtracker: while the stack is not empty, look at its top tile's candidates; pop it if
/// none passes, else open one drawn from `rng` (no draw when only one passes), push it and call
/// `dug` with it; stop early when `dug` returns `false`. Only interior tiles are opened.
#[inline(always)]
pub(crate) fn run<R, P, const ORDER: usize>(
    set: &mut TileGrid,
    stack: &mut Vec<Frame>,
    rng: &mut R,
    probe: &P,
    mut dug: impl FnMut(&mut TileGrid, Frame) -> bool,
) where
    R: Random + ?Sized,
    P: Probe<ORDER>,
{
    let deltas = neighbour_deltas(set.stride());
    // Interior: 1 <= col <= width - 2, 1 <= row <= height - 2.
    let (iw, ih) = (set.width() as i32 - 2, set.height() as i32 - 2);
    while let Some(&f) = stack.last() {
        let p = f.parity();
        let heading = usize::from(f.heading);
        // Straight ahead already open: both sides touch it, nothing can pass.
        if f.heading != ROOT && set.bit((f.idx as isize + deltas[p][heading]) as usize) {
            stack.pop();
            continue;
        }
        let visit = probe.prepare(set, f);
        let mut passing = [0u8; 6];
        let mut count = 0;
        for &d in CANDIDATES[heading] {
            let (dc, dr) = OFFSETS[p][usize::from(d)];
            let (c, r) = (i32::from(f.col) + dc, i32::from(f.row) + dr);
            let interior = ((c - 1) as u32) < iw as u32 && ((r - 1) as u32) < ih as u32;
            if interior && probe.passes(set, visit, f, usize::from(d)) {
                passing[count] = d;
                count += 1;
            }
        }
        if count == 0 {
            stack.pop();
            continue;
        }
        let d = passing[if count == 1 { 0 } else { rng.below(count) }];
        let (dc, dr) = OFFSETS[p][usize::from(d)];
        let next = Frame {
            idx: (f.idx as isize + deltas[p][usize::from(d)]) as u32,
            col: (i32::from(f.col) + dc) as u16,
            row: (i32::from(f.row) + dr) as u16,
            heading: d,
        };
        set.set_bit(next.idx as usize);
        stack.push(next);
        if !dug(set, next) {
            return;
        }
    }
}
