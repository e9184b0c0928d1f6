//! Randomised Kruskal's algorithm, on walls listed once and shuffled up front.
//!
//! Exact variant: list every wall between two neighbouring cells once, shuffle the list into a
//! uniformly random order, then walk it in order and open each wall whose two cells are still in
//! different trees, merging the trees. The trees are kept in a disjoint-set forest
//! ([`UnionFind`]) with path halving and union by rank, so the whole carve is O(E α(n)) after the
//! O(E) shuffle. The shuffle is done in two cache-friendly levels (see `shuffled_walls`) and is
//! still exactly uniform.
//! Texture: many short dead ends, about 30 % on a square grid (Walter Pullen, *Think Labyrinth*;
//! measured 30.5 % on 100x100).

use crate::carve::CarveOptions;
use crate::grid::{CellId, Grid, MAX_DEGREE};
use crate::maze::Maze;
use crate::random::{Random, shuffle};
use crate::topology::LATTICE_DEGREE;

const SLOT_BITS: u32 = MAX_DEGREE.trailing_zeros();

/// Packs the wall between `cell` and its neighbour in `slot` into one `u32`.
///
/// Grids are capped at 25 million cells ([`crate::mask::MAX_CELLS`]), so `cell << 4 | slot` fits.
#[inline]
pub fn pack(cell: CellId, slot: usize) -> u32 {
    debug_assert!(slot < MAX_DEGREE && cell.0 < (1 << (32 - SLOT_BITS)));
    (cell.0 << SLOT_BITS) | slot as u32
}

/// The cell and neighbour slot of a wall packed by [`pack`].
#[inline]
pub fn unpack(wall: u32) -> (CellId, usize) {
    (
        CellId(wall >> SLOT_BITS),
        (wall & (MAX_DEGREE as u32 - 1)) as usize,
    )
}

/// A disjoint-set forest over `0..n`: path halving in [`UnionFind::find`], union by rank.
///
/// One `u32` per element: a parent index, or for a representative the flag `ROOT` with its
/// rank in the low bits, so a find touches one array only.
#[derive(Clone, Debug)]
pub struct UnionFind {
    parent: Vec<u32>,
}

/// The flag marking a representative in [`UnionFind`]'s array (ids stay below 2³¹).
const ROOT: u32 = 1 << 31;

impl UnionFind {
    /// `n` singleton sets.
    pub fn new(n: usize) -> Self {
        assert!(n < ROOT as usize, "too many elements for a UnionFind");
        UnionFind {
            parent: vec![ROOT; n],
        }
    }

    /// The representative of `x`'s set (halving the path on the way).
    #[inline]
    pub fn find(&mut self, mut x: u32) -> u32 {
        loop {
            let p = self.parent[x as usize];
            if p & ROOT != 0 {
                return x;
            }
            let g = self.parent[p as usize];
            if g & ROOT != 0 {
                return p;
            }
            self.parent[x as usize] = g;
            x = g;
        }
    }

    /// Reads `x`'s entry and returns it, so a loop can load an entry it will need soon and
    /// overlap that cache miss with other work.
    #[inline]
    pub fn touch(&self, x: u32) -> u32 {
        self.parent[x as usize]
    }

    /// Merges the sets of `a` and `b`; returns `false` if they were one set already.
    ///
    /// On equal ranks `a`'s representative stays the representative, so merging a singleton
    /// into a set never moves that set's representative.
    #[inline]
    pub fn union(&mut self, a: u32, b: u32) -> bool {
        let (ra, rb) = (self.find(a), self.find(b));
        if ra == rb {
            return false;
        }
        // chosen by value rather than by branch: which rank is larger is a coin toss
        let (ka, kb) = (self.parent[ra as usize], self.parent[rb as usize]);
        let (top, under) = if ka < kb { (rb, ra) } else { (ra, rb) };
        self.parent[under as usize] = top;
        self.parent[top as usize] += u32::from(ka == kb);
        true
    }
}

/// Walls per bucket of the two-level shuffle (a bucket of packed walls fits in L1).
const BUCKET: usize = 2048;

/// A wall between `a` and `b = neighbours(a)[slot]`, packed as `a << 36 | slot << 32 | b`.
#[inline]
fn pack_pair(a: u32, slot: usize, b: u32) -> u64 {
    (u64::from(a) << 36) | ((slot as u64) << 32) | u64::from(b)
}

/// Calls `emit` with every wall once, packed by [`pack_pair`], from its smaller-id side: cells
/// in id order, each cell's walls in slot order.
///
/// On an unmasked lattice (rect, hex, tri) a cell clear of the edges has a neighbour in every
/// direction, so its slots are its directions and its neighbours' ids follow from its own by the
/// lattice's steps: only the edge cells read the grid's neighbour lists.
#[inline]
fn for_each_wall(grid: &Grid, mut emit: impl FnMut(u64)) {
    let from_lists = |a: u32, emit: &mut dyn FnMut(u64)| {
        let nbrs = grid.neighbours(CellId(a));
        for (slot, &b) in nbrs.iter().enumerate() {
            if a < b.0 {
                emit(pack_pair(a, slot, b.0));
            }
        }
    };
    let lattice = grid
        .lattice()
        .filter(|l| l.width >= 3 && l.height >= 3)
        .filter(|l| {
            l.steps
                .iter()
                .flatten()
                .all(|&(r, c)| r.abs() <= 1 && c.abs() <= 1)
        });
    let Some(l) = lattice else {
        for a in 0..grid.len() as u32 {
            from_lists(a, &mut emit);
        }
        return;
    };
    let (w, h) = (l.width, l.height);
    // per parity: the directions towards a larger id (a later row, or east on the same row), in
    // direction order, with their id steps
    let mut ahead = [[(0usize, 0u32); LATTICE_DEGREE]; 2];
    let mut count = [0usize; 2];
    for parity in 0..2 {
        for (d, &(dr, dc)) in l.steps[parity].iter().enumerate().take(l.degree) {
            if dr > 0 || (dr == 0 && dc > 0) {
                let step = (dr * w as i32 + dc) as u32;
                ahead[parity][count[parity]] = (d, step);
                count[parity] += 1;
            }
        }
    }
    for r in 0..h {
        let first = r * w;
        if r == 0 || r + 1 == h {
            for a in first..first + w {
                from_lists(a, &mut emit);
            }
            continue;
        }
        from_lists(first, &mut emit);
        for c in 1..w - 1 {
            let a = first + c;
            let parity = l.parity(r, c);
            for &(d, step) in &ahead[parity][..count[parity]] {
                emit(pack_pair(a, d, a + step));
            }
        }
        from_lists(first + w - 1, &mut emit);
    }
}

/// Every wall once (from its smaller-id side), in uniformly random order.
///
/// A Fisher-Yates shuffle of millions of walls misses the cache at every swap, so this shuffles
/// in two levels: each wall draws a uniformly random bucket, the walls are scattered into their
/// buckets in enumeration order, and each bucket (small enough for the L1 cache) is shuffled by
/// Fisher-Yates. That is exactly a uniform permutation: it is sorting by iid uniform keys, with
/// the bucket as the key's leading digit and the in-bucket shuffle standing in for the rest.
fn shuffled_walls(maze: &Maze, rng: &mut dyn Random) -> Vec<u64> {
    shuffled_walls_in(maze, rng, BUCKET)
}

/// [`shuffled_walls`] with `bucket` walls per bucket (on average).
fn shuffled_walls_in(maze: &Maze, rng: &mut dyn Random, bucket: usize) -> Vec<u64> {
    let grid = maze.grid();
    // every wall is in the lists of both its cells
    let m: usize = grid
        .cells()
        .map(|a| grid.neighbours(a).len())
        .sum::<usize>()
        / 2;
    let buckets = (m / bucket).clamp(1, 1 << 16);
    if buckets == 1 {
        let mut all = Vec::with_capacity(m);
        for_each_wall(grid, |w| all.push(w));
        shuffle(rng, &mut all);
        return all;
    }
    let mut which: Vec<u16> = Vec::with_capacity(m);
    let mut start = vec![0u32; buckets + 1];
    for _ in 0..m {
        let k = rng.below(buckets);
        which.push(k as u16);
        start[k + 1] += 1;
    }
    for k in 0..buckets {
        start[k + 1] += start[k];
    }
    let mut out = vec![0u64; m];
    let mut next = start.clone();
    let mut i = 0;
    for_each_wall(grid, |w| {
        let k = usize::from(which[i]);
        out[next[k] as usize] = w;
        next[k] += 1;
        i += 1;
    });
    drop(which);
    for k in 0..buckets {
        shuffle(rng, &mut out[start[k] as usize..start[k + 1] as usize]);
    }
    out
}

/// How many walls ahead the union-find pass touches the two cells' entries, so their cache
/// misses overlap with the work on the walls before them.
const AHEAD: usize = 8;

/// Carves `maze` with randomised Kruskal's.
///
/// The union-find pass only records which walls to open (a bit per cell and slot); they are
/// opened afterwards in cell order, which leaves the same maze and keeps that pass cache-friendly.
pub fn carve(maze: &mut Maze, rng: &mut dyn Random, _opts: &CarveOptions) {
    let n = maze.len();
    let walls = shuffled_walls(maze, rng);
    let mut sets = UnionFind::new(n);
    let mut open = vec![0u16; n];
    let mut left = n.saturating_sub(1);
    let mut touched = 0;
    for (i, &w) in walls.iter().enumerate() {
        if left == 0 {
            break;
        }
        if let Some(&later) = walls.get(i + AHEAD) {
            touched ^= sets.touch((later >> 36) as u32) ^ sets.touch(later as u32);
        }
        let (a, slot, b) = ((w >> 36) as u32, (w >> 32) & 0xf, w as u32);
        if sets.union(a, b) {
            open[a as usize] |= 1 << slot;
            left -= 1;
        }
    }
    std::hint::black_box(touched);
    for (a, &bits) in open.iter().enumerate() {
        let mut bits = bits;
        while bits != 0 {
            let slot = bits.trailing_zeros() as usize;
            maze.link_slot(CellId(a as u32), slot);
            bits &= bits - 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::carve::tests::rect_grid;
    use crate::random::MazeRng;
    use std::collections::BTreeMap;

    #[test]
    fn two_level_shuffle_is_uniform() {
        // 2x2 grid: 4 walls, 24 orders; 1 and 2 walls per bucket force the two-level path
        let m = Maze::new(rect_grid(2, 2, None));
        for bucket in [1, 2] {
            let mut rng = MazeRng::new(bucket as u64);
            let mut counts: BTreeMap<Vec<u64>, u32> = BTreeMap::new();
            for _ in 0..24_000 {
                *counts
                    .entry(shuffled_walls_in(&m, &mut rng, bucket))
                    .or_insert(0) += 1;
            }
            assert_eq!(counts.len(), 24);
            // 1000 expected each, standard deviation about 31
            for (order, &k) in &counts {
                assert!(
                    (850..1150).contains(&k),
                    "bucket {bucket}: {order:?} {k} times"
                );
            }
        }
    }

    #[test]
    fn same_maze_as_linking_on_the_spot() {
        for (w, h) in [(1, 1), (5, 3), (64, 64)] {
            let g = rect_grid(w, h, None);
            for seed in 0..3 {
                let mut fast = Maze::new(g.clone());
                carve(&mut fast, &mut MazeRng::new(seed), &CarveOptions::default());
                let mut slow = Maze::new(g.clone());
                let mut sets = UnionFind::new(g.len());
                for wall in shuffled_walls(&slow, &mut MazeRng::new(seed)) {
                    let (a, b) = ((wall >> 36) as u32, wall as u32);
                    if sets.union(a, b) {
                        slow.link(CellId(a), CellId(b));
                    }
                }
                assert_eq!(fast.passage_list(), slow.passage_list());
                assert!(fast.is_perfect());
            }
        }
    }

    #[test]
    fn lattice_walls_are_the_listed_walls() {
        // the arithmetic enumeration on unmasked lattices against the grid's neighbour lists,
        // wall for wall and in the same order; small sizes take the list path throughout
        use crate::topology::{Topology, TopologyKind};
        for kind in [TopologyKind::Rect, TopologyKind::Hex, TopologyKind::Tri] {
            for (w, h) in [(1, 1), (2, 3), (3, 3), (4, 7), (9, 6)] {
                let g = Grid::new(Topology::new(kind, w, h).unwrap(), None).unwrap();
                let mut listed = Vec::new();
                for a in g.cells() {
                    for (slot, &b) in g.neighbours(a).iter().enumerate() {
                        if a < b {
                            listed.push(pack_pair(a.0, slot, b.0));
                        }
                    }
                }
                let mut walked = Vec::new();
                for_each_wall(&g, |w| walked.push(w));
                assert_eq!(walked, listed, "{kind:?} {w}x{h}");
            }
        }
    }

    #[test]
    fn pack_round_trips() {
        for (c, s) in [(0, 0), (7, 3), (24_999_999, 15)] {
            assert_eq!(unpack(pack(CellId(c), s)), (CellId(c), s));
        }
    }

    #[test]
    fn union_find_merges_and_keeps_the_first_root_on_ties() {
        let mut u = UnionFind::new(6);
        assert!(u.union(0, 1));
        assert_eq!(u.find(1), 0);
        assert!(u.union(2, 3));
        assert!(u.union(0, 3));
        assert!(!u.union(1, 2));
        assert_eq!(u.find(3), u.find(0));
        assert_ne!(u.find(4), u.find(0));
    }
}
