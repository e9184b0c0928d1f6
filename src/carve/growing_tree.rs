//! Growing tree: a list of active cells, grown from the one [`GrowingTreePolicy`] picks.
//!
//! Exact variant (Jamis Buck's): the active list starts with one uniformly random cell. Each step
//! picks an active cell by the policy; if it has unvisited neighbours, a uniformly random one is
//! linked to it, marked visited and appended to the list; if it has none, it leaves the list.
//! Policies: [`Newest`](GrowingTreePolicy::Newest) (the last appended: the recursive
//! backtracker, draw for draw), [`Random`](GrowingTreePolicy::Random) (uniform over the active
//! cells: what Jamis Buck calls "simplified Prim's"), [`Oldest`](GrowingTreePolicy::Oldest) (the
//! first appended: long straight corridors fanning out from the start), and
//! [`Mixed(p)`](GrowingTreePolicy::Mixed) (newest with probability `p`, drawn with
//! [`Random::chance`], else random; `Mixed(1.0)` is exactly `Newest` and `Mixed(0.0)` exactly
//! `Random`, same random stream).
//!
//! Texture (dead ends on 100x100, measured): newest 10.0 %, random 27.6 %, oldest 2.6 %,
//! mixed 0.5 20.1 %. The random policy is Prim-like in look (short branches radiating from the
//! start) but is none of the three Prim's in Walter Pullen's table: picking a uniform *cell* of
//! the active list ignores how many unvisited neighbours it has, while Pullen's "simplified"
//! picks a uniform wall on the maze's edge (32 %) and the "modified" one a uniform frontier cell
//! (36 %, this crate's `prim`).
//!
//! The active list ([`Active`]) keeps insertion order so "newest" and "oldest" mean what they say
//! under every policy, with O(1) amortised operations: removal writes a tombstone in place,
//! "newest" and "oldest" first drop tombstones from the ends, "random" draws a slot uniformly from
//! the live window and draws again if it hit a tombstone (a uniform choice among the live
//! cells), and whenever tombstones outnumber live cells the window is compacted in order. So at
//! most half the window is tombstones (fewer than two draws per random pick on average) and each
//! compaction is paid for by the removals since the last one.

use crate::carve::scratch::{CellSet, Openings};
use crate::carve::{CarveOptions, GrowingTreePolicy};
use crate::grid::{CellId, MAX_DEGREE};
use crate::maze::Maze;
use crate::random::Random;

const TOMB: u32 = u32::MAX;

/// The growing tree's active cells, in insertion order, with tombstones for removed ones; each
/// cell carries a payload `T` (the carver keeps the cell's neighbour list there).
#[derive(Clone, Debug)]
pub struct Active<T> {
    items: Vec<(u32, T)>,
    /// Index of the first slot that may be live (everything before it is a tombstone).
    head: usize,
    /// Number of live cells.
    live: usize,
}

impl<T: Copy> Default for Active<T> {
    fn default() -> Self {
        Active {
            items: Vec::new(),
            head: 0,
            live: 0,
        }
    }
}

impl<T: Copy> Active<T> {
    /// An empty list.
    pub fn new() -> Self {
        Self::default()
    }

    /// Number of live cells.
    pub fn len(&self) -> usize {
        self.live
    }

    /// Whether no cell is live.
    pub fn is_empty(&self) -> bool {
        self.live == 0
    }

    /// Appends `c` with its payload (the newest cell from now on).
    pub fn push(&mut self, c: CellId, payload: T) {
        self.items.push((c.0, payload));
        self.live += 1;
    }

    /// The cell in slot `i` (a slot returned by one of the pickers) and its payload.
    #[inline]
    pub fn get(&self, i: usize) -> (CellId, T) {
        let (c, payload) = self.items[i];
        (CellId(c), payload)
    }

    /// The slot of the newest live cell, if any.
    pub fn newest(&mut self) -> Option<usize> {
        while self.items.last().is_some_and(|e| e.0 == TOMB) {
            self.items.pop();
        }
        (self.live > 0).then(|| self.items.len() - 1)
    }

    /// The slot of the oldest live cell, if any.
    pub fn oldest(&mut self) -> Option<usize> {
        if self.live == 0 {
            return None;
        }
        while self.items[self.head].0 == TOMB {
            self.head += 1;
        }
        Some(self.head)
    }

    /// The slot of a uniformly random live cell, if any.
    pub fn random(&mut self, rng: &mut dyn Random) -> Option<usize> {
        self.oldest()?;
        self.newest();
        let window = self.items.len() - self.head;
        if window == 1 {
            return Some(self.head);
        }
        loop {
            let i = self.head + rng.below(window);
            if self.items[i].0 != TOMB {
                return Some(i);
            }
        }
    }

    /// Removes the cell in slot `i`, compacting when tombstones outnumber live cells.
    pub fn remove(&mut self, i: usize) {
        debug_assert!(self.items[i].0 != TOMB);
        self.items[i].0 = TOMB;
        self.live -= 1;
        if self.live == 0 {
            self.items.clear();
            self.head = 0;
            return;
        }
        let window = self.items.len() - self.head;
        if window > 2 * self.live + 16 {
            self.items.retain(|e| e.0 != TOMB);
            self.head = 0;
        }
    }
}

/// Carves `maze` with the growing tree, following `opts.growing_tree`.
///
/// Visited cells are a bit set and passages are recorded in `Openings` and linked at the end,
/// so the random jumps across a big grid touch as little memory as possible. An active entry
/// keeps the cell's neighbour list (a slice of the grid's), looked up when the cell was carved
/// into and still in cache, which saves a cache miss each time the entry is picked.
pub fn carve(maze: &mut Maze, rng: &mut dyn Random, opts: &CarveOptions) {
    let n = maze.len();
    let grid = maze.grid();
    let policy = opts.growing_tree;
    let mut visited = CellSet::new(n);
    let mut openings = Openings::new(n);
    let start = CellId(rng.below(n) as u32);
    visited.insert(start);
    let mut active: Active<()> = Active::new();
    active.push(start, ());
    let mut open = [0usize; MAX_DEGREE];
    loop {
        let pick = match policy {
            GrowingTreePolicy::Newest => active.newest(),
            GrowingTreePolicy::Oldest => active.oldest(),
            GrowingTreePolicy::Random => active.random(rng),
            GrowingTreePolicy::Mixed(p) => {
                if active.is_empty() {
                    None
                } else if rng.chance(p) {
                    active.newest()
                } else {
                    active.random(rng)
                }
            }
        };
        let Some(i) = pick else { break };
        let (c, ()) = active.get(i);
        let nbrs = grid.neighbours(c);
        let mut count = 0;
        for (slot, &nb) in nbrs.iter().enumerate() {
            if !visited.contains(nb) {
                open[count] = slot;
                count += 1;
            }
        }
        if count == 0 {
            active.remove(i);
            continue;
        }
        let slot = open[if count == 1 { 0 } else { rng.below(count) }];
        let next = nbrs[slot];
        openings.open(c, slot);
        visited.insert(next);
        active.push(next, ());
    }
    drop(active);
    openings.apply(maze);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::carve::Algorithm;
    use crate::carve::tests::{
        STRANDING_MASKS, Texture, carved_on, random_masks, rect_grid, with_policy,
    };
    use crate::random::MazeRng;

    const POLICIES: [GrowingTreePolicy; 6] = [
        GrowingTreePolicy::Newest,
        GrowingTreePolicy::Random,
        GrowingTreePolicy::Oldest,
        GrowingTreePolicy::Mixed(0.25),
        GrowingTreePolicy::Mixed(0.75),
        GrowingTreePolicy::Mixed(1.0),
    ];

    #[test]
    fn every_policy_is_perfect() {
        let mut grids = vec![
            rect_grid(1, 1, None),
            rect_grid(13, 9, None),
            rect_grid(40, 30, None),
        ];
        grids.extend(
            STRANDING_MASKS
                .iter()
                .map(|&(w, h, m)| rect_grid(w, h, Some(m))),
        );
        grids.extend(
            random_masks(23, 17, 20..24)
                .iter()
                .map(|m| rect_grid(23, 17, Some(m))),
        );
        for g in &grids {
            for policy in POLICIES {
                for seed in 0..4 {
                    let m = carved_on(g, Algorithm::GrowingTree, &with_policy(policy), seed);
                    assert!(m.is_perfect(), "{policy:?} seed {seed}");
                }
            }
        }
    }

    #[test]
    fn mixed_at_the_ends_is_newest_or_random() {
        let g = rect_grid(30, 20, None);
        let carve =
            |p, seed| carved_on(&g, Algorithm::GrowingTree, &with_policy(p), seed).passage_list();
        for seed in 0..4 {
            let newest = carve(GrowingTreePolicy::Newest, seed);
            assert_eq!(carve(GrowingTreePolicy::Mixed(1.0), seed), newest);
            // the newest policy is the recursive backtracker, draw for draw
            let backtracker = carved_on(
                &g,
                Algorithm::Backtracker,
                &with_policy(GrowingTreePolicy::Random),
                seed,
            );
            assert_eq!(backtracker.passage_list(), newest);
            let random = carve(GrowingTreePolicy::Random, seed);
            assert_eq!(carve(GrowingTreePolicy::Mixed(0.0), seed), random);
            assert_ne!(random, newest);
        }
    }

    #[test]
    fn mixed_textures_follow_the_share() {
        let g = rect_grid(100, 100, None);
        let dead = |p| Texture::mean(&g, Algorithm::GrowingTree, &with_policy(p), 0..6).dead;
        let (newest, random) = (
            dead(GrowingTreePolicy::Newest),
            dead(GrowingTreePolicy::Random),
        );
        let backtracker = Texture::mean(
            &g,
            Algorithm::Backtracker,
            &with_policy(GrowingTreePolicy::Random),
            100..106,
        )
        .dead;
        assert!((dead(GrowingTreePolicy::Mixed(1.0)) - backtracker).abs() < 0.5);
        assert!((dead(GrowingTreePolicy::Mixed(0.0)) - random).abs() < 0.01);
        assert!((9.0..11.0).contains(&newest), "{newest}");
        assert!((26.0..29.5).contains(&random), "{random}");
        // in between, the share of dead ends falls as the newest cell is preferred more
        // (measured: 27.5 % at 0.25, 20.1 % at 0.5, 14.3 % at 0.75, 11.7 % at 0.9)
        let mut last = random;
        for p in [0.25, 0.5, 0.75, 0.9] {
            let d = dead(GrowingTreePolicy::Mixed(p));
            assert!(d < last + 0.5 && d > newest, "Mixed({p}): {d}");
            last = d;
        }
        let half = dead(GrowingTreePolicy::Mixed(0.5));
        assert!(
            half > newest + 5.0 && half < random - 5.0,
            "Mixed(0.5): {half}"
        );
    }

    #[test]
    fn active_keeps_order_through_tombstones_and_compaction() {
        let mut a: Active<()> = Active::new();
        for c in 0..100 {
            a.push(CellId(c), ());
        }
        // remove every odd cell from the middle, forcing compactions
        for c in (1..100).step_by(2) {
            let i = a.items.iter().position(|x| x.0 == c).unwrap();
            a.remove(i);
        }
        assert_eq!(a.len(), 50);
        let i = a.newest().unwrap();
        assert_eq!(a.get(i).0, CellId(98));
        let i = a.oldest().unwrap();
        assert_eq!(a.get(i).0, CellId(0));
        a.remove(i);
        let i = a.oldest().unwrap();
        assert_eq!(a.get(i).0, CellId(2));
        let mut rng = MazeRng::new(5);
        let mut seen = [0u32; 100];
        for _ in 0..4900 {
            let i = a.random(&mut rng).unwrap();
            seen[a.get(i).0.index()] += 1;
        }
        for (c, &k) in seen.iter().enumerate() {
            if c % 2 == 1 || c == 0 {
                assert_eq!(k, 0, "removed cell {c} picked");
            } else {
                assert!((50..160).contains(&k), "cell {c} picked {k} times");
            }
        }
        while let Some(i) = a.newest() {
            a.remove(i);
        }
        assert!(a.is_empty());
        assert_eq!(a.random(&mut rng), None);
        assert_eq!(a.oldest(), None);
    }
}
