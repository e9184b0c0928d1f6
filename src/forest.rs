//! "Which path?" puzzles: several entrances, exactly one joined to the exit.
//!
//! [`carve`] makes the maze as a forest, one perfect maze per entrance:
//! 1. the entrances are spread round the outline: the outline cell farthest from the middle of
//!    the outline's box, then each time the outline cell farthest on the page from those
//!    chosen;
//! 2. each entrance grows a region over the grid, the smallest region growing first, so the
//!    regions come out about the same size (each joined, each holding its entrance);
//! 3. each region is carved with the design's carver on its own (a perfect maze of its cells:
//!    every cell belongs to exactly one entrance's tree, and no passage joins two trees);
//! 4. the real entrance is the one whose tree gives the best puzzle: its exit is the outline
//!    cell of its region on the rim of the shape, away from the other entrances on the page,
//!    with the longest way from it that is no longer than the shortest decoy's longest path (so
//!    no decoy gives itself away by dead-ending early), and the entrance nearest that exit on
//!    the page is a decoy when it can be (picking the nearest is no way to win);
//!    [`decoy_ratios`] measures each decoy's longest path over the real way.
//!
//! The entrances are lettered A, B, C, D clockwise round the outline, from the letter the seed
//! gives the real one: the winner is not always A.

use std::collections::VecDeque;
use std::sync::Arc;

use crate::carve::{Algorithm, CarveOptions};
use crate::endpoints::{Endpoint, outline_openings};
use crate::error::{Error, Result};
use crate::grid::{CellId, Grid};
use crate::mask::Mask;
use crate::maze::Maze;
use crate::random::Random;
use crate::solve::{UNREACHED, distances};
use crate::topology::Point;

/// A decoy whose longest path is at least this share of the real way gives nothing away.
pub const GOOD_RATIO: f64 = 0.7;

/// Where the exit may go, tried in turn until an outline cell of the real entrance's region
/// qualifies: (the least page distance from the exit to every entrance, as a share of the
/// outline's diagonal; the least distance from the middle of the outline's box, as a share of
/// the outline cell farthest from it). An exit on the rim of the shape, not in a pocket of it
/// (between a butterfly's feelers), leaves room for its arrow and FINISH.
const EXIT_SPREAD: [(f64, f64); 6] = [
    (0.25, 0.6),
    (0.15, 0.6),
    (0.25, 0.4),
    (0.15, 0.4),
    (0.08, 0.0),
    (0.0, 0.0),
];

/// How far either way from straight out (degrees) an exit's way out must be clear of the maze
/// to count as on the rim ([`crate::endpoints::wide_open`]).
const EXIT_TURN: f64 = 35.0;

/// How many of its outline cells each region tries as the real entrance (evenly spaced, its
/// seed first).
const ENTRANCES_TRIED: usize = 16;

/// The entrances, real and decoys, and the exit of a "Which path?" maze.
#[derive(Clone, Debug, PartialEq)]
pub struct Forest {
    /// Every entrance in letter order (A first).
    pub starts: Vec<Endpoint>,
    /// The entrance joined to the exit (one of `starts`).
    pub entrance: Endpoint,
    /// The exit.
    pub exit: Endpoint,
}

/// The farthest on the page from `from` among `points` (the first on a tie), by index.
fn farthest(points: &[Point], from: &[Point]) -> Option<(usize, f64)> {
    points
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let d = from
                .iter()
                .map(|q| (p.x - q.x).hypot(p.y - q.y))
                .fold(f64::MAX, f64::min);
            (i, d)
        })
        .fold(None, |best, (i, d)| match best {
            Some((_, b)) if b >= d => best,
            _ => Some((i, d)),
        })
}

/// Carves `maze` (no passages yet) as a forest of `n` perfect mazes, one per entrance, with
/// `algorithm` (see the module's notes). An error when the outline has fewer than `n + 1`
/// cells, or a carver's.
pub fn carve(
    maze: &mut Maze,
    n: usize,
    algorithm: Algorithm,
    opts: &CarveOptions,
    rng: &mut dyn Random,
) -> Result<Forest> {
    let grid: Arc<Grid> = maze.grid_arc().clone();
    let outline = outline_openings(&grid);
    if outline.len() < n + 1 || grid.len() < 2 * n {
        return Err(Error::empty(format!(
            "the maze is too small for {n} entrances and a finish; use fewer starts or a larger \
             maze"
        )));
    }
    let centres: Vec<Point> = outline.iter().map(|e| grid.center(e.cell)).collect();
    let (x0, y0, x1, y1) = centres.iter().fold(
        (f64::MAX, f64::MAX, f64::MIN, f64::MIN),
        |(a, b, c, d), p| (a.min(p.x), b.min(p.y), c.max(p.x), d.max(p.y)),
    );
    let diag = (x1 - x0).hypot(y1 - y0).max(1e-9);
    let middle = Point::new((x0 + x1) / 2.0, (y0 + y1) / 2.0);
    let rim = centres
        .iter()
        .map(|p| (p.x - middle.x).hypot(p.y - middle.y))
        .fold(1e-9, f64::max);
    // 1. the entrances, spread round the outline
    let picked = spread_entrances(&centres, middle, n);
    let seeds: Vec<Endpoint> = picked.iter().map(|&i| outline[i]).collect();
    // 2. the regions, smallest growing first
    let region = grow_regions(&grid, &seeds);
    // 3. each region carved on its own
    carve_regions(maze, &grid, &region, n, algorithm, opts, rng)?;
    // 4. the real entrance and its exit, in one region: each decoy's longest path from its
    // entrance, then for each region the pair of its outline cells (its entrance, its exit)
    // that makes the best puzzle
    let page = Page::new(&grid, &outline, diag, middle, rim);
    let (winner, entrance, exit) =
        best_pair(maze, &page, &outline, &seeds, &region).ok_or_else(|| {
            Error::empty(format!(
                "no entrance's part of the maze reaches the outline away from the others for \
                 {n} entrances; use fewer starts or a larger maze"
            ))
        })?;
    let mut seeds = seeds;
    seeds[winner] = entrance;
    let starts = lettered(&grid, middle, seeds, entrance, rng);
    Ok(Forest {
        starts,
        entrance,
        exit,
    })
}

/// The indices in `centres` of `n` entrances spread round the outline: the one farthest from
/// `middle` first, then each the farthest from those picked.
fn spread_entrances(centres: &[Point], middle: Point, n: usize) -> Vec<usize> {
    let mut picked: Vec<usize> = Vec::with_capacity(n);
    let first = farthest(centres, &[middle]).expect("an outline").0;
    picked.push(first);
    while picked.len() < n {
        let from: Vec<Point> = picked.iter().map(|&i| centres[i]).collect();
        let (i, _) = farthest(centres, &from).expect("an outline");
        picked.push(i);
    }
    picked
}

/// Each cell's region (the index of its seed in `seeds`): the regions grown breadth first from
/// the seeds, the smallest growing first.
fn grow_regions(grid: &Grid, seeds: &[Endpoint]) -> Vec<u8> {
    let n = seeds.len();
    let mut region = vec![u8::MAX; grid.len()];
    let mut queues: Vec<VecDeque<CellId>> = (0..n).map(|_| VecDeque::new()).collect();
    let mut size = vec![1usize; n];
    for (k, s) in seeds.iter().enumerate() {
        region[s.cell.index()] = k as u8;
        queues[k].push_back(s.cell);
    }
    while let Some(k) = (0..n)
        .filter(|&k| !queues[k].is_empty())
        .min_by_key(|&k| (size[k], k))
    {
        let c = queues[k].pop_front().expect("not empty");
        for nb in grid.neighbours(c) {
            if region[nb.index()] == u8::MAX {
                region[nb.index()] = k as u8;
                size[k] += 1;
                queues[k].push_back(nb);
            }
        }
    }
    region
}

/// Carves each of the `n` regions of `maze` on its own with `algorithm` (a maze of the
/// region's cells), then links the same passages in `maze`.
fn carve_regions(
    maze: &mut Maze,
    grid: &Grid,
    region: &[u8],
    n: usize,
    algorithm: Algorithm,
    opts: &CarveOptions,
    rng: &mut dyn Random,
) -> Result<()> {
    let topology = grid.topology().clone();
    for k in 0..n {
        let mut mask = Mask::full(&topology)?;
        for row in 0..topology.tess().rows() {
            for col in 0..topology.tess().cols(row) {
                mask.set(crate::topology::Coord::new(row, col), false);
            }
        }
        for c in grid.cells().filter(|c| region[c.index()] == k as u8) {
            mask.set(grid.coord(c), true);
        }
        let sub = Arc::new(Grid::new(topology.clone(), Some(&mask))?);
        let mut part = Maze::new(sub.clone());
        crate::carve::carve(&mut part, algorithm, rng, opts)?;
        for (a, b) in part.passage_list() {
            let id = |c: CellId| grid.id_at(sub.coord(c)).expect("a cell of the maze");
            maze.link(id(a), id(b));
        }
    }
    Ok(())
}

/// Where the outline's cells sit on the page, for judging entrances and exits.
struct Page<'a> {
    grid: &'a Grid,
    /// The diagonal of the outline's box (the unit of distances apart).
    diag: f64,
    /// The middle of the outline's box.
    middle: Point,
    /// The distance of the outline cell farthest from `middle`.
    rim: f64,
    /// Whether each outline cell's way out is wide open.
    wide_at: std::collections::HashMap<CellId, bool>,
}

impl<'a> Page<'a> {
    /// The page of `grid`, whose outline cells are `outline`.
    fn new(grid: &'a Grid, outline: &[Endpoint], diag: f64, middle: Point, rim: f64) -> Self {
        // an exit whose way out is not wide open (a pocket of the outline) counts as off the rim
        let wide = crate::endpoints::wide_open(grid, outline, EXIT_TURN);
        let wide_at = outline
            .iter()
            .zip(&wide)
            .map(|(e, &w)| (e.cell, w))
            .collect();
        Page {
            grid,
            diag,
            middle,
            rim,
            wide_at,
        }
    }

    /// How far apart two outline cells are on the page, as a share of the diagonal.
    fn apart(&self, a: &Endpoint, b: &Endpoint) -> f64 {
        let (p, q) = (self.grid.center(a.cell), self.grid.center(b.cell));
        (p.x - q.x).hypot(p.y - q.y) / self.diag
    }

    /// How far out an outline cell is: its distance from the middle as a share of the rim's, at
    /// most 0.3 when its way out is not wide open.
    fn out(&self, e: &Endpoint) -> f64 {
        let p = self.grid.center(e.cell);
        let from_middle = (p.x - self.middle.x).hypot(p.y - self.middle.y) / self.rim;
        if self.wide_at.get(&e.cell).copied().unwrap_or(true) {
            from_middle
        } else {
            from_middle.min(0.3)
        }
    }
}

/// How good an (entrance, exit) pair is, greater better: the exit's place (how far down
/// EXIT_SPREAD it had to go, negated), the decoys as long as the real way, the real entrance
/// not the nearest the exit, the decoys' share of the real way (at most 1), the real way.
type Value = (i32, bool, bool, f64, u32);

/// Whether `a` is a better pair than `b`.
fn better(a: &Value, b: &Value) -> bool {
    (a.0, a.1, a.2)
        .cmp(&(b.0, b.1, b.2))
        .then(a.3.total_cmp(&b.3))
        .then(a.4.cmp(&b.4))
        .is_gt()
}

/// The best pair found so far: (its value, its region, entrance, exit).
type Best = Option<(Value, usize, Endpoint, Endpoint)>;

/// One region as the real entrance's: the decoys are the other regions' seeds.
struct Region {
    /// Its index.
    k: usize,
    /// Its outline cells.
    mine: Vec<Endpoint>,
    /// The other regions' seeds.
    decoys: Vec<Endpoint>,
    /// The shortest of the decoys' longest paths.
    shortest_decoy: u32,
}

/// The region, entrance and exit of the best (entrance, exit) pair over every region of
/// `region` (the real entrance's region seeded at `seeds[k]`, the other seeds its decoys);
/// `None` when no region has one.
fn best_pair(
    maze: &Maze,
    page: &Page,
    outline: &[Endpoint],
    seeds: &[Endpoint],
    region: &[u8],
) -> Option<(usize, Endpoint, Endpoint)> {
    let n = seeds.len();
    let reach: Vec<u32> = seeds
        .iter()
        .map(|s| {
            distances(maze, &[s.cell])
                .into_iter()
                .filter(|&d| d != UNREACHED)
                .max()
                .unwrap_or(0)
        })
        .collect();
    let mut best: Best = None;
    for k in 0..n {
        let decoys: Vec<Endpoint> = (0..n).filter(|&j| j != k).map(|j| seeds[j]).collect();
        let shortest_decoy = (0..n)
            .filter(|&j| j != k)
            .map(|j| reach[j])
            .min()
            .unwrap_or(0);
        let mine: Vec<Endpoint> = outline
            .iter()
            .copied()
            .filter(|e| region[e.cell.index()] == k as u8)
            .collect();
        let r = Region {
            k,
            mine,
            decoys,
            shortest_decoy,
        };
        for a in entrances(page, &r, seeds[k]) {
            judge_exits(maze, page, &r, a, &mut best);
        }
    }
    best.map(|(_, k, a, e)| (k, a, e))
}

/// The region's entrances to try: its seed, or another of its outline cells as far from the
/// decoys (a few, evenly spaced).
fn entrances(page: &Page, r: &Region, seed: Endpoint) -> Vec<Endpoint> {
    let far_enough = |e: &Endpoint| {
        r.decoys
            .iter()
            .map(|d| page.apart(e, d))
            .fold(f64::MAX, f64::min)
    };
    let least = far_enough(&seed).min(0.25);
    let step = r.mine.len().div_ceil(ENTRANCES_TRIED).max(1);
    std::iter::once(seed)
        .chain(
            r.mine
                .iter()
                .copied()
                .filter(|e| *e != seed && far_enough(e) >= least)
                .step_by(step),
        )
        .collect()
}

/// Weighs every exit of the region for the entrance `a`, keeping in `best` the best pair.
fn judge_exits(maze: &Maze, page: &Page, r: &Region, a: Endpoint, best: &mut Best) {
    let d = distances(maze, &[a.cell]);
    let openings: Vec<Endpoint> = r.decoys.iter().copied().chain([a]).collect();
    // the entrance nearest an exit on the page: a child who picks the entrance
    // nearest the finish must not be right by luck
    let nearest_is_mine = |e: &Endpoint| {
        let mine = page.apart(e, &a);
        r.decoys.iter().all(|d| page.apart(e, d) > mine)
    };
    // (exit, its way, its distance from the entrances, from the middle)
    let ends: Vec<(Endpoint, u32, f64, f64)> = r
        .mine
        .iter()
        .filter(|e| e.cell != a.cell && d[e.cell.index()] > 0)
        .map(|e| {
            let apart = openings
                .iter()
                .map(|o| page.apart(e, o))
                .fold(f64::MAX, f64::min);
            (*e, d[e.cell.index()], apart, page.out(e))
        })
        .collect();
    let ok = |e: &(Endpoint, u32, f64, f64), (spread, rim): (f64, f64)| e.2 >= spread && e.3 >= rim;
    let Some(level) = EXIT_SPREAD
        .iter()
        .position(|&f| ends.iter().any(|e| ok(e, f)))
    else {
        return;
    };
    let floor = EXIT_SPREAD[level];
    for e in ends.iter().filter(|e| ok(e, floor)) {
        let ratio = f64::from(r.shortest_decoy) / f64::from(e.1.max(1));
        // an exit with room for its arrow and label, then decoys as long as the real
        // way, then not the nearest, then as close to that as can be, then the longer
        // real way
        let value = (
            -(level as i32),
            ratio >= 1.0,
            !nearest_is_mine(&e.0),
            ratio.min(1.0),
            e.1,
        );
        if best.as_ref().is_none_or(|b| better(&value, &b.0)) {
            *best = Some((value, r.k, a, e.0));
        }
    }
}

/// The starts lettered clockwise round the outline from the top, turned so the real entrance
/// gets the letter the seed picks.
fn lettered(
    grid: &Grid,
    middle: Point,
    seeds: Vec<Endpoint>,
    entrance: Endpoint,
    rng: &mut dyn Random,
) -> Vec<Endpoint> {
    let n = seeds.len();
    let mut starts = seeds;
    let angle = |e: &Endpoint| {
        let p = grid.center(e.cell);
        // clockwise on the page (y down) from straight up
        let a = (p.x - middle.x).atan2(middle.y - p.y);
        if a < 0.0 {
            a + std::f64::consts::TAU
        } else {
            a
        }
    };
    starts.sort_by(|a, b| angle(a).total_cmp(&angle(b)).then(a.cell.cmp(&b.cell)));
    let at = starts
        .iter()
        .position(|e| *e == entrance)
        .expect("the real entrance is a start");
    let letter = rng.below(n);
    starts.rotate_left((at + n - letter) % n);
    starts
}

/// The longest path from each decoy entrance of `starts` (all but `entrance`) inside its own
/// tree, over the real path's length (`solution_steps`, the steps from `entrance` to the exit),
/// in the order of `starts`.
pub fn decoy_ratios(
    maze: &Maze,
    starts: &[Endpoint],
    entrance: CellId,
    solution_steps: usize,
) -> Vec<f64> {
    starts
        .iter()
        .filter(|s| s.cell != entrance)
        .map(|s| {
            let d = distances(maze, &[s.cell]);
            let far = d
                .iter()
                .filter(|&&x| x != UNREACHED)
                .max()
                .copied()
                .unwrap_or(0);
            f64::from(far) / solution_steps.max(1) as f64
        })
        .collect()
}

/// The letter of entrance `i` (0 is A).
pub fn letter(i: usize) -> &'static str {
    ["A", "B", "C", "D"].get(i).copied().unwrap_or("?")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::carve::Algorithm;
    use crate::design::Design;
    use crate::design::{Kind, Walls};
    use crate::pipeline::{Generated, generate, generate_shaped, shape_mask};
    use crate::shape::{Cut, Foreground, Picture, builtin};
    use crate::solve::shortest_path;
    use crate::topology::TopologyKind;

    /// The tree each cell belongs to: the index in `starts` of the start its passages reach,
    /// checking on the way that no cell is reached from two starts.
    fn trees(g: &Generated) -> Vec<usize> {
        let mut owner = vec![usize::MAX; g.maze.len()];
        for (k, s) in g.starts.iter().enumerate() {
            let d = distances(&g.maze, &[s.cell]);
            for (i, &x) in d.iter().enumerate() {
                if x != UNREACHED {
                    assert_eq!(
                        owner[i],
                        usize::MAX,
                        "cell {i} in trees {} and {k}",
                        owner[i]
                    );
                    owner[i] = k;
                }
            }
        }
        owner
    }

    /// Checks every invariant of a "Which path?" maze and returns its decoys' ratios.
    fn check(g: &Generated, what: &str) -> Vec<f64> {
        let n = g.design.walls().starts as usize;
        assert_eq!(g.starts.len(), n, "{what}");
        let owner = trees(g);
        // every cell in exactly one start's tree
        assert!(
            owner.iter().all(|&o| o != usize::MAX),
            "{what}: a cell no start reaches"
        );
        // each tree connected (reached from its start, above) and without loops: a forest of
        // n trees over the cells has cells - n passages
        assert_eq!(g.maze.passage_count() + n, g.maze.len(), "{what}: a loop");
        // the starts are distinct outline cells with openings, and not the exit
        let outline = outline_openings(g.maze.grid());
        for (k, s) in g.starts.iter().enumerate() {
            assert!(
                outline.iter().any(|e| e == s),
                "{what}: start {k} is not an opening"
            );
            assert_ne!(s.cell, g.exit.cell, "{what}");
        }
        // exactly one tree holds the exit: the entrance's, and the solution runs from it
        let w = g.winner().expect("the entrance is a start");
        assert_eq!(owner[g.exit.cell.index()], w, "{what}");
        assert_eq!(g.solution.first(), Some(&g.entrance.cell), "{what}");
        assert_eq!(g.solution.last(), Some(&g.exit.cell), "{what}");
        assert_eq!(
            shortest_path(&g.maze, g.entrance.cell, g.exit.cell).as_ref(),
            Some(&g.solution)
        );
        decoy_ratios(&g.maze, &g.starts, g.entrance.cell, g.solution.len() - 1)
    }

    fn shape(name: &str) -> Foreground {
        let bytes = builtin::get(name).unwrap();
        let picture = Picture::decode_as(bytes, crate::shape::Format::Svg).unwrap();
        Foreground::from_picture(&picture, Cut::default()).unwrap()
    }

    /// Every topology, five carvers, plain grids and two built-in shapes (a heart; an owl, whose
    /// eyes are holes), 2 to 4 starts, two seeds: the forest's invariants hold, and the decoys
    /// are as long as the real way (measured and printed: each one at least 0.5, most at least
    /// [`GOOD_RATIO`]; in fact every one at least 1.0).
    #[test]
    fn every_start_has_its_own_tree_and_only_one_reaches_the_exit() {
        let shapes = [None, Some(shape("heart")), Some(shape("owl"))];
        let mut ratios = Vec::new();
        let mut letters = [0usize; 4];
        let mut poor = Vec::new();
        // how often the real entrance is the one nearest the exit on the page
        let (mut nearest, mut mazes) = (0, 0);
        // the real way's steps over its tree's share of the cells (cells / n)
        let mut share = Vec::new();
        for kind in TopologyKind::ALL {
            for algorithm in [
                Algorithm::Backtracker,
                Algorithm::Prim,
                Algorithm::Kruskal,
                Algorithm::Wilson,
                Algorithm::GrowingTree,
            ] {
                for (s, fg) in shapes.iter().enumerate() {
                    let shaped = fg.is_some();
                    for n in 2..=4u32 {
                        for seed in [1u64, 2] {
                            let (w, h) = if kind == TopologyKind::Polar {
                                (8, 8)
                            } else {
                                (16, 14)
                            };
                            let d = Design {
                                kind: Kind::Walls(Walls {
                                    topology: kind,
                                    algorithm,
                                    starts: n,
                                    ..Walls::DEFAULT
                                }),
                                width: if shaped { w + 6 } else { w },
                                height: if shaped { h + 6 } else { h },
                                seed: Some(seed),
                                ..Design::default()
                            };
                            let g = match fg {
                                Some(fg) => {
                                    generate_shaped(&d, &shape_mask(&d, fg).unwrap()).unwrap()
                                }
                                None => generate(&d, None).unwrap(),
                            };
                            let what = format!("{kind} {algorithm:?} shape {s} n {n} seed {seed}");
                            let r = check(&g, &what);
                            assert_eq!(r.len(), n as usize - 1, "{what}");
                            if let Some(&x) = r.iter().min_by(|a, b| a.total_cmp(b))
                                && x < 0.5
                            {
                                poor.push(format!("{what}: {x:.2}"));
                            }
                            ratios.extend(r);
                            letters[g.winner().unwrap()] += 1;
                            let grid = g.maze.grid();
                            let q = grid.center(g.exit.cell);
                            let near = g
                                .starts
                                .iter()
                                .min_by(|a, b| {
                                    let d = |e: &&Endpoint| {
                                        let p = grid.center(e.cell);
                                        (p.x - q.x).hypot(p.y - q.y)
                                    };
                                    d(a).total_cmp(&d(b))
                                })
                                .unwrap();
                            nearest += usize::from(*near == g.entrance);
                            mazes += 1;
                            share.push(
                                (g.solution.len() - 1) as f64 / g.maze.len() as f64 * n as f64,
                            );
                        }
                    }
                }
            }
        }
        ratios.sort_by(f64::total_cmp);
        share.sort_by(f64::total_cmp);
        eprintln!(
            "real way over cells / starts: smallest {:.2}, median {:.2}",
            share[0],
            share[share.len() / 2]
        );
        let good = ratios.iter().filter(|&&r| r >= GOOD_RATIO).count();
        let good_share = good as f64 / ratios.len() as f64;
        eprintln!(
            "{} decoys: smallest {:.2}, median {:.2}, {:.0} % at least {GOOD_RATIO}; winners by letter {letters:?}",
            ratios.len(),
            ratios[0],
            ratios[ratios.len() / 2],
            good_share * 100.0
        );
        eprintln!("the real entrance is the nearest the exit in {nearest} of {mazes} mazes");
        // measured: 5 of 360 (by chance it would be a half with two starts, a quarter with four)
        assert!(nearest * 3 <= mazes, "{nearest} of {mazes}");
        for p in &poor {
            eprintln!("  under 0.5: {p}");
        }
        assert!(
            poor.is_empty(),
            "{} mazes with a decoy under half the real way",
            poor.len()
        );
        assert!(
            good_share >= 0.9,
            "{:.0} % of decoys at least {GOOD_RATIO}",
            good_share * 100.0
        );
        // the winner is not always A
        assert!(
            letters.iter().filter(|&&c| c > 0).count() >= 3,
            "{letters:?}"
        );
    }

    #[test]
    fn one_start_is_the_ordinary_maze_and_the_same_seed_the_same_forest() {
        let d = Design {
            width: 12,
            height: 10,
            seed: Some(7),
            ..Design::default()
        };
        let one = generate(&d, None).unwrap();
        assert!(one.starts.is_empty());
        assert!(one.maze.is_perfect());
        let three = Design {
            kind: Kind::Walls(Walls {
                starts: 3,
                ..d.walls().clone()
            }),
            ..d
        };
        let a = generate(&three, None).unwrap();
        let b = generate(&three, None).unwrap();
        assert_eq!(a.starts, b.starts);
        assert_eq!(a.maze.passage_list(), b.maze.passage_list());
        // a forest of three trees over the same cells
        assert_eq!(a.maze.passage_count(), one.maze.passage_count() - 2);
    }

    #[test]
    fn starts_that_cannot_work_are_clear_errors() {
        for (d, want) in [
            (
                Design {
                    kind: Kind::Walls(Walls {
                        starts: 5,
                        ..Walls::DEFAULT
                    }),
                    ..Design::default()
                },
                "starts must be 1 to 4, got 5",
            ),
            (
                Design {
                    kind: Kind::Walls(Walls {
                        starts: 0,
                        ..Walls::DEFAULT
                    }),
                    ..Design::default()
                },
                "starts must be 1 to 4, got 0",
            ),
            (
                Design {
                    kind: Kind::Walls(Walls {
                        starts: 2,
                        braid: 0.3,
                        ..Walls::DEFAULT
                    }),
                    ..Design::default()
                },
                "braid",
            ),
            (
                Design {
                    kind: Kind::Walls(Walls {
                        starts: 3,
                        weave: 0.5,
                        ..Walls::DEFAULT
                    }),
                    ..Design::default()
                },
                "weave",
            ),
        ] {
            let e = d.validate().unwrap_err();
            assert!(e.message.contains(want), "{e}");
            assert!(!e.message.contains('\n'));
        }
        // too small a maze for its starts: an error, not a panic
        let tiny = Design {
            kind: Kind::Walls(Walls {
                starts: 4,
                ..Walls::DEFAULT
            }),
            width: 2,
            height: 2,
            seed: Some(1),
            ..Design::default()
        };
        assert!(generate(&tiny, None).is_err());
    }
}
