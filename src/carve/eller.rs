//! Eller's algorithm (rect only): one row at a time, cells grouped in sets of already-joined
//! cells.
//!
//! Exact variant: rows from top to bottom. In every row but the last, first walk west to east
//! and, for each pair of side-by-side cells in different sets, flip a coin ([`Random::coin`]):
//! heads opens the wall between them and merges their sets. Then carve down: in each set, one
//! uniformly random cell that has a cell below opens its south wall for sure (chosen by
//! reservoir sampling as the row is walked, so no per-set lists), and every other such cell
//! flips a coin and opens its south wall on heads; the cells below join the set. (Of the usual
//! ways to guarantee a passage per set, this one measured closest to Pullen's figure below;
//! "each cell on a coin, then one more if the set got none" gives about 29.6 %.)
//! Cells of the next row with no passage from above start in sets of their own.
//! The last row opens every wall between side-by-side cells of different sets, so the maze ends
//! in one tree. Only the current row's sets are kept: a small union-find over the row's labels
//! on a masked grid, circular lists of the row's columns on a full one (see [`carve`]); either
//! way the carve is O(n α(n)) or better, in memory proportional to the width.
//!
//! On a masked grid a set can run out of cells with a cell below before the last row, and the
//! last row may not reach every set, leaving a forest; [`join_forest`] then joins the pieces (it
//! does nothing, and draws nothing, when the result is already one tree). Texture: close to
//! Kruskal's, about 28 % dead ends on a square grid (Walter Pullen, *Think Labyrinth*; this
//! variant measures 28.6 % on 100x100).

use crate::carve::{CarveOptions, join_forest, rect};
use crate::grid::CellId;
use crate::maze::Maze;
use crate::random::{Ahead, Random, Words};
use crate::topology::Coord;

/// Carves `maze` (a rect grid) with Eller's algorithm, then joins any pieces a mask left apart.
///
/// Only the current row's sets are kept. On a masked grid (or with a generator other than the
/// pipeline's) each cell of the row carries a set label below the width, and the labels of a
/// row form a small union-find started afresh every row (`carve_masked`); on a full grid the
/// sets are circular lists and no draw takes a branch (`carve_full`). A set's identity never
/// matters to the draws (only which cells share a set), so both draw and carve exactly as a
/// union-find over every cell of the grid would (see the tests against that and each other).
pub fn carve(maze: &mut Maze, rng: &mut dyn Random, _opts: &CarveOptions) {
    match rect::full_size(maze.grid()) {
        Some((width, height)) => match rng.maze_rng() {
            Some(r) => carve_full(maze, &mut Ahead::new(r), width as usize, height),
            None => carve_masked(maze, rng),
        },
        None => carve_masked(maze, rng),
    }
    join_forest(maze, rng);
}

/// The root of `x` in a row's union-find, halving the path on the way.
#[inline]
fn find(parent: &mut [u32], mut x: u32) -> u32 {
    while parent[x as usize] != x {
        let g = parent[parent[x as usize] as usize];
        parent[x as usize] = g;
        x = g;
    }
    x
}

/// Eller's algorithm on a full `width` x `height` rect grid: the same draws and passages as
/// [`carve_masked`], with no grid lookups, no union-find and no branches on the draws.
///
/// - **Sets** are circular lists of a row's columns, in column order (`prev`, `next`), as in
///   the classic one-row Eller: a row's sets never cross (a set's columns between two of
///   another set's would have had to reach them through that set's cells), so two side-by-side
///   cells are in one set exactly when the left one comes just before the right one in its
///   list, merging two sets is four writes, and a cell that does not go down leaves its list in
///   four more. A set's name for the carve down is its leftmost column: the one whose list
///   wraps round to it.
/// - **A row is four loops**, each its own function so each gets the registers to itself
///   (one loop over all of it kept a dozen values on the stack; splitting it made a row about
///   18 % faster): [`merge`], [`carve_down`], [`settle`] and [`write_row`].
/// - **Draws** come from a window on the stream ([`Ahead`]): a loop reads the next word whether
///   or not it draws it, and moves on by one only when it does, so a coin that depends on the
///   sets costs no mispredicted branch.
/// - **Writes** that must not happen either write back the value the entry holds (in the
///   merge, whose entries' old values are known) or go to a spare entry past the row's;
///   `if merge { .. }` compiles to a branch that mispredicts half the time.
/// - **No list load waits on the store just before it.** The merge and the settle carry the
///   next step's list entries in registers (read before this step writes, then corrected by
///   a select), because this step often writes one of them through a chosen index, and a
///   load that waits for such a store makes the steps run one after another.
/// - **Cell words** ([`Maze::carve_links`]; rect slots are north, east, south, west with
///   missing ones left out) are written once a row is decided, by a loop with no carried
///   state, which the compiler vectorises. A full grid's Eller maze is one tree, so its
///   passages are the cells less one (the debug build counts them).
fn carve_full(maze: &mut Maze, ahead: &mut impl Words, width: usize, height: u32) {
    maze.carve_links(|links| {
        // each set of the row as a circular list of its columns, in column order, plus a
        // spare entry past the row's for writes that must not land
        let mut prev: Vec<u32> = (0..=width as u32).collect();
        let mut next: Vec<u32> = (0..=width as u32).collect();
        // per column: its set's leftmost column; per set (by that column): cells seen so far
        // in the carve down and the column picked to go down for sure
        let mut set = vec![0u32; width];
        let mut seen = vec![0u32; width];
        let mut pick = vec![0u32; width + 1];
        let mut heads = vec![false; width];
        // per column: whether its east wall opens on this row, whether its south wall does
        // (it goes down), and whether its north wall does (the row above went down)
        let mut east = vec![false; width];
        let mut south = vec![false; width];
        let mut north = vec![false; width];
        // words a row can draw, rejections in `below` aside: a coin per pair, two per cell
        let budget = 3 * width;
        for row in 0..height as usize {
            let last = row + 1 == height as usize;
            let w = ahead.window(budget);
            let used = match last {
                false => merge::<false>(&mut prev, &mut next, &mut east, w),
                // the last row merges every pair of different sets, with no coin
                true => merge::<true>(&mut prev, &mut next, &mut east, w),
            };
            ahead.advance(used);
            if last {
                south.fill(false);
            } else {
                carve_down(
                    ahead, budget, &prev, &mut set, &mut seen, &mut pick, &mut heads,
                );
                settle(&mut prev, &mut next, &set, &pick, &heads, &mut south);
            }
            let cells = &mut links[row * width..(row + 1) * width];
            write_row(cells, &north, &east, &south, row > 0, !last);
            std::mem::swap(&mut north, &mut south);
        }
        width * height as usize - 1
    });
}

/// The merge side by side of one row: `a` and `b` = a + 1 are in one set when `a` comes just
/// before `b` in it; a coin from `w` only where they are not, and none on the `LAST` row
/// (all merge). Sets `east` and returns the words drawn.
// its own function, so its loop has the registers to itself (see `carve_full`)
#[inline(never)]
fn merge<const LAST: bool>(
    prev: &mut [u32],
    next: &mut [u32],
    east: &mut [bool],
    w: &[u32],
) -> usize {
    let width = east.len();
    let (prev, next) = (&mut prev[..=width], &mut next[..=width]);
    let mut at = 0;
    // `prev[b]` and `next[a]` as the pair before left them, carried in registers: the pair
    // before may have just written either through a chosen index, and a load that waits on
    // such a store costs more than a select
    let (mut lb, mut ra) = (prev[1] as usize, next[0] as usize);
    for b in 1..width {
        let a = b - 1;
        // read before this pair writes
        let (prev_ahead, next_ahead) = (prev[b + 1] as usize, next[b] as usize);
        let differ = lb != a;
        let draw = differ & !LAST;
        let merge = differ & (LAST || w[at] >> 31 == 1);
        at += usize::from(draw);
        east[a] = merge;
        // splice b's list in after a: a -> b .. lb -> (a's old next); without a merge each
        // entry gets back what it holds (`next[lb]` is b, `prev[ra]` is a), so no store's
        // address waits for the coin
        next[lb] = pick_of(merge, ra as u32, b as u32);
        prev[ra] = pick_of(merge, lb as u32, a as u32);
        next[a] = pick_of(merge, b as u32, ra as u32);
        prev[b] = pick_of(merge, a as u32, lb as u32);
        (lb, ra) = (
            pick_of(merge & (ra == b + 1), lb, prev_ahead),
            pick_of(merge & (lb == b), ra, next_ahead),
        );
    }
    at
}

/// The carve down of one row (not the last): one uniformly random cell of each set goes down
/// for sure (reservoir sampling over the row: `below(n) == 0` on the set's n-th cell, no draw
/// on its first), every other cell on a coin. Fills `set`, `seen` and `pick` (per set) and
/// `heads`.
// its own function, so its loop has the registers to itself (see `carve_full`)
#[inline(never)]
fn carve_down(
    ahead: &mut impl Words,
    budget: usize,
    prev: &[u32],
    set: &mut [u32],
    seen: &mut [u32],
    pick: &mut [u32],
    heads: &mut [bool],
) {
    let width = set.len();
    let spare = width;
    let (prev, seen, heads) = (&prev[..width], &mut seen[..width], &mut heads[..width]);
    let pick = &mut pick[..=width];
    let mut w = ahead.window(budget);
    let mut at = 0;
    for col in 0..width {
        // the set's first cell is its leftmost, named by its own column, and its count
        // starts there (so the counts need no clearing between rows)
        let p = prev[col] as usize;
        let draw = p < col;
        let id = pick_of(draw, set[p] as usize, col);
        set[col] = id as u32;
        let n = pick_of(draw, seen[id] + 1, 1);
        seen[id] = n;
        // `below(n)` as [`Random::below`] draws it (Lemire's method). On a set's first cell
        // nothing is drawn, but n is 1 there, so the same steps change nothing: no word is
        // rejected below 1 and every product is below 2^32 (so the first cell is always
        // kept), and the branch is taken only on a rejection
        let mut m = u64::from(w[at]) * u64::from(n);
        if (m as u32) < n {
            let threshold = n.wrapping_neg() % n;
            while (m as u32) < threshold {
                at += 1;
                if w.len() - at < 2 * width + 2 {
                    ahead.advance(at);
                    w = ahead.window(budget);
                    at = 0;
                }
                m = u64::from(w[at]) * u64::from(n);
            }
        }
        let keep = m >> 32 == 0;
        at += usize::from(draw);
        heads[col] = w[at] >> 31 == 1;
        at += 1;
        pick[pick_of(keep, id, spare)] = col as u32;
    }
    ahead.advance(at);
}

/// The cells that go down keep their sets; every other cell leaves its list and starts the
/// next row in a set of its own. Sets `south` (the cells that go down).
// its own function, so its loop has the registers to itself (see `carve_full`)
#[inline(never)]
fn settle(
    prev: &mut [u32],
    next: &mut [u32],
    set: &[u32],
    pick: &[u32],
    heads: &[bool],
    south: &mut [bool],
) {
    let width = south.len();
    let spare = width;
    let (prev, next) = (&mut prev[..=width], &mut next[..=width]);
    let (set, heads) = (&set[..width], &heads[..width]);
    let pick = &pick[..=width];
    // `prev[col]` and `next[col]` as the cells before left them, carried in registers: the
    // cell before unlinks itself by writing its neighbours' entries, often this cell's
    let (mut l, mut r) = (prev[0] as usize, next[0] as usize);
    for col in 0..width {
        // read before this cell writes (the last cell reads the spare entry, and drops it)
        let (prev_ahead, next_ahead) = (prev[col + 1] as usize, next[col + 1] as usize);
        let go = heads[col] | (pick[set[col] as usize] == col as u32);
        // a cell that stays leaves its list: l -> r; the writes of a cell that goes land in
        // the spare entry
        next[pick_of(go, spare, l)] = r as u32;
        prev[pick_of(go, spare, r)] = l as u32;
        prev[col] = pick_of(go, l as u32, col as u32);
        next[col] = pick_of(go, r as u32, col as u32);
        south[col] = go;
        // what those writes left in the next cell's entries
        (l, r) = (
            pick_of(!go & (r == col + 1), l, prev_ahead),
            pick_of(!go & (l == col + 1), r, next_ahead),
        );
    }
}

/// One row's cell words from its open walls ([`rect::link_bits`]): `north`, `east` and
/// `south` per column, a cell's west wall being its west neighbour's east one. `above` and
/// `below` say whether the row has rows above and below it.
// its own function, so its loop has the registers to itself (see `carve_full`)
#[inline(never)]
fn write_row(
    cells: &mut [u16],
    north: &[bool],
    east: &[bool],
    south: &[bool],
    above: bool,
    below: bool,
) {
    let width = cells.len();
    let at = |col: usize, west: bool| {
        let e = col + 1 < width;
        rect::link_bits(
            (above, north[col]),
            (e, e & east[col]),
            (below, south[col]),
            west,
        )
    };
    cells[0] = at(0, false);
    if width < 2 {
        return;
    }
    // the cells between the first and the last, with the same neighbours: no carried
    // state, so this loop is vectorised
    let inner = cells[1..width - 1]
        .iter_mut()
        .zip(&north[1..])
        .zip(&east[1..])
        .zip(&south[1..])
        .zip(&east[..width - 1]);
    for ((((cell, &n), &e), &s), &w) in inner {
        *cell = rect::link_bits((above, n), (true, e), (below, s), w);
    }
    cells[width - 1] = at(width - 1, east[width - 2]);
}

/// `a` if `c`, else `b`, without a branch (the conditions here are coin flips).
#[inline(always)]
fn pick_of<T>(c: bool, a: T, b: T) -> T {
    std::hint::select_unpredictable(c, a, b)
}

/// Eller's algorithm on any rect grid, masked or not (see [`carve`]).
// a column indexes several per-column arrays at once
#[allow(clippy::needless_range_loop)]
fn carve_masked(maze: &mut Maze, rng: &mut dyn Random) {
    let t = maze.grid().topology().tess();
    let height = t.rows();
    let width = t.cols(0) as usize;
    let size = rect::full_size(maze.grid());
    // per column: the cell (if on), whether the cell below is on, and the cell's set label
    let mut cells: Vec<Option<CellId>> = vec![None; width];
    let mut below = vec![false; width];
    let mut label: Vec<u32> = (0..width as u32).collect();
    // per label: parent in this row's union-find (a root is its own parent); cells with a cell
    // below seen so far this row and the column picked to go down for sure (per root); and
    // whether the label is taken in the next row
    let mut parent: Vec<u32> = (0..width as u32).collect();
    let mut seen = vec![0u32; width];
    let mut pick = vec![0u32; width];
    let mut taken = vec![false; width];
    let mut root_of = vec![0u32; width];
    let mut heads = vec![false; width];
    let mut down = vec![false; width];
    for row in 0..height {
        let grid = maze.grid();
        let last = row + 1 == height;
        for col in 0..width {
            cells[col] = grid.id_at(Coord::new(row, col as u32));
            below[col] = !last && grid.id_at(Coord::new(row + 1, col as u32)).is_some();
        }
        // merge side by side
        for col in 1..width {
            let (Some(a), Some(b)) = (cells[col - 1], cells[col]) else {
                continue;
            };
            let (ra, rb) = (
                find(&mut parent, label[col - 1]),
                find(&mut parent, label[col]),
            );
            if ra != rb && (last || rng.coin()) {
                match size {
                    Some(_) => rect::link_east(maze, a, row, usize::from(row > 0), size),
                    None => {
                        maze.link(a, b);
                    }
                }
                parent[rb as usize] = ra;
            }
        }
        if last {
            break;
        }
        // carve down: one uniformly random cell of each set for sure (reservoir sampling over
        // the row), every other cell with a cell below on a coin
        for col in 0..width {
            if cells[col].is_none() || !below[col] {
                continue;
            }
            let root = find(&mut parent, label[col]);
            let r = root as usize;
            root_of[col] = root;
            seen[r] += 1;
            if seen[r] == 1 || rng.below(seen[r] as usize) == 0 {
                pick[r] = col as u32;
            }
            heads[col] = rng.coin();
        }
        for col in 0..width {
            down[col] = false;
            let (Some(a), true) = (cells[col], below[col]) else {
                continue;
            };
            let root = root_of[col];
            if heads[col] || pick[root as usize] == col as u32 {
                let s = CellId(match size {
                    Some(_) => a.0 + width as u32,
                    None => grid_id_below(maze, row, col),
                });
                match size {
                    Some(_) => rect::link_north(maze, s, row + 1, size),
                    None => {
                        maze.link(a, s);
                    }
                }
                down[col] = true;
                taken[root as usize] = true;
            }
        }
        // the next row's labels: a cell reached from above keeps its set's root, every other
        // cell takes a label no set uses
        let mut fresh = 0;
        for col in 0..width {
            label[col] = if down[col] {
                root_of[col]
            } else {
                while taken[fresh] {
                    fresh += 1;
                }
                taken[fresh] = true;
                fresh as u32
            };
        }
        for l in 0..width {
            parent[l] = l as u32;
            seen[l] = 0;
            taken[l] = false;
        }
    }
}

/// The id of the cell below column `col` of `row` (which is on).
fn grid_id_below(maze: &Maze, row: u32, col: usize) -> u32 {
    let at = Coord::new(row + 1, col as u32);
    maze.grid().id_at(at).expect("the cell below is on").0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::carve::kruskal::UnionFind;
    use crate::carve::tests::rect_grid;
    use crate::random::MazeRng;

    /// Eller's algorithm with a union-find over every cell of the grid, as it was first
    /// written: the row-local sets must draw and carve exactly as this does.
    fn carve_with_global_sets(maze: &mut Maze, rng: &mut dyn Random) {
        let n = maze.len();
        let t = maze.grid().topology().tess();
        let (height, width) = (t.rows(), t.cols(0));
        let mut sets = UnionFind::new(n);
        let (mut seen, mut pick) = (vec![0u32; n], vec![0u32; n]);
        let mut root_of = vec![0u32; width as usize];
        let mut heads = vec![false; width as usize];
        let mut roots: Vec<u32> = Vec::new();
        for row in 0..height {
            let grid = maze.grid().clone();
            let last = row + 1 == height;
            let at = |r: u32, c: u32| grid.id_at(Coord::new(r, c));
            for col in 1..width {
                let (Some(a), Some(b)) = (at(row, col - 1), at(row, col)) else {
                    continue;
                };
                if sets.find(a.0) != sets.find(b.0) && (last || rng.coin()) {
                    maze.link(a, b);
                    sets.union(a.0, b.0);
                }
            }
            if last {
                break;
            }
            for col in 0..width {
                let (Some(a), Some(_)) = (at(row, col), at(row + 1, col)) else {
                    continue;
                };
                let root = sets.find(a.0);
                let r = root as usize;
                root_of[col as usize] = root;
                if seen[r] == 0 {
                    roots.push(root);
                }
                seen[r] += 1;
                if seen[r] == 1 || rng.below(seen[r] as usize) == 0 {
                    pick[r] = col;
                }
                heads[col as usize] = rng.coin();
            }
            for col in 0..width {
                let (Some(a), Some(s)) = (at(row, col), at(row + 1, col)) else {
                    continue;
                };
                let root = root_of[col as usize];
                if heads[col as usize] || pick[root as usize] == col {
                    maze.link(a, s);
                    sets.union(root, s.0);
                }
            }
            for &root in &roots {
                seen[root as usize] = 0;
            }
            roots.clear();
        }
        join_forest(maze, rng);
    }

    #[test]
    fn the_full_grid_path_carves_as_the_general_one() {
        // `carve_full` (no grid lookups, its own labels, MazeRng called directly) against
        // `carve_masked` on the same full grids: same draws, same passages, same stream after;
        // every size up to 9x6 (width 1 and height 1 included), where sets nest and merge in
        // every way a small row allows, and a few wide or tall ones
        let mut sizes: Vec<(u32, u32)> =
            (1..=9).flat_map(|w| (1..=6).map(move |h| (w, h))).collect();
        sizes.extend([(40, 25), (64, 3), (130, 40), (3, 90)]);
        for (w, h) in sizes {
            let g = rect_grid(w, h, None);
            for seed in 0..8 {
                let mut a = Maze::new(g.clone());
                let mut ra = MazeRng::new(seed);
                carve(&mut a, &mut ra, &CarveOptions::default());
                let mut b = Maze::new(g.clone());
                let mut rb = MazeRng::new(seed);
                carve_masked(&mut b, &mut rb);
                join_forest(&mut b, &mut rb);
                assert_eq!(a.passage_list(), b.passage_list(), "{w}x{h} seed {seed}");
                assert!(a.is_perfect(), "{w}x{h} seed {seed}");
                assert_eq!(ra.next_u32(), rb.next_u32(), "{w}x{h} seed {seed}");
            }
        }
    }

    /// The same words, scripted: as [`Words`] for `carve_full` and as [`Random`] for
    /// `carve_masked`.
    struct Script {
        words: Vec<u32>,
        at: usize,
    }

    impl Script {
        /// A stream that keeps hitting Lemire's rejection in `below` (words 0 and 1 leave a low
        /// half under the threshold for most `n`) among plain coins of both faces; some of its
        /// zeros fall on a set's first cell, where nothing is drawn but the full-grid path
        /// still multiplies by 1 and enters the rejection branch (checked by hand: a panic
        /// put there fires).
        fn new(len: usize) -> Self {
            let pattern = [
                0x8000_0000,
                0,
                7,
                0xffff_ffff,
                1,
                0x1234_5678,
                0,
                0x9abc_def0,
            ];
            let mut r = MazeRng::new(3);
            let words = (0..len)
                .map(|i| match i % 5 {
                    0 => pattern[i / 5 % pattern.len()],
                    _ => r.next_u32(),
                })
                .collect();
            Script { words, at: 0 }
        }
    }

    impl Words for Script {
        fn window(&mut self, n: usize) -> &[u32] {
            // exactly `n` words: a rejection runs past the row's budget and takes a new window
            &self.words[self.at..self.at + n]
        }
        fn advance(&mut self, n: usize) {
            self.at += n;
        }
    }

    impl Random for Script {
        fn next_u32(&mut self) -> u32 {
            self.at += 1;
            self.words[self.at - 1]
        }
    }

    #[test]
    fn rejected_draws_carve_as_the_general_path() {
        // words that make `below` reject and redraw, with windows that run out mid-row
        for (w, h) in [(2, 2), (5, 4), (9, 6), (40, 25), (3, 60)] {
            let g = rect_grid(w, h, None);
            let words = (w * h * 8) as usize;
            let mut a = Maze::new(g.clone());
            let mut sa = Script::new(words);
            carve_full(&mut a, &mut sa, w as usize, h);
            let mut b = Maze::new(g.clone());
            let mut sb = Script::new(words);
            carve_masked(&mut b, &mut sb);
            assert_eq!(a.passage_list(), b.passage_list(), "{w}x{h}");
            assert_eq!(sa.at, sb.at, "{w}x{h}: words used");
            assert!(a.is_perfect(), "{w}x{h}");
        }
    }

    #[test]
    fn row_local_sets_carve_as_global_ones() {
        let mut grids = Vec::new();
        for (w, h) in [(1, 1), (1, 6), (6, 1), (2, 2), (7, 5), (30, 20)] {
            grids.push(rect_grid(w, h, None));
        }
        // masked: a ring, and holes that split columns and rows
        for art in [
            "########\n#......#\n#.####.#\n#.#..#.#\n#......#\n########",
            "##.#####\n#..##.##\n###.####\n.#######\n####.###\n##.#####",
        ] {
            grids.push(rect_grid(8, 6, Some(art)));
        }
        for g in grids {
            for seed in 0..6 {
                let mut a = Maze::new(g.clone());
                carve(&mut a, &mut MazeRng::new(seed), &CarveOptions::default());
                let mut b = Maze::new(g.clone());
                carve_with_global_sets(&mut b, &mut MazeRng::new(seed));
                assert_eq!(a.passage_list(), b.passage_list(), "seed {seed}");
            }
        }
    }
}
