//! Hand work on a carved maze (`hedge::locks`), as the whole pipeline pays for it on a
//! 1000 x 1000 grid (backtracker, seed 1):
//!
//! - `plain`: the maze with no hand work, to compare with.
//! - `locks/2000`: 1,000 passages locked closed and 1,000 walls locked open, spread over the
//!   maze (each lock walked the whole maze before: 39 s).
//! - `region/10000`: one region of 10,000 parts (pairs of cells a cell apart: each part a grid
//!   of its own before cost a mask of the whole grid, minutes for such a design).
//!
//! Run: `cargo bench --bench hand`.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use hedge::design::{Design, Kind, Walls};
use hedge::locks::{Locks, Recarve};
use hedge::pipeline::generate;

const SIDE: u32 = 1000;

fn design(walls: Walls) -> Design {
    Design {
        kind: Kind::Walls(walls),
        width: SIDE,
        height: SIDE,
        seed: Some(1),
        ..Design::default()
    }
}

/// 1,000 passages of the plain maze locked closed and 1,000 of its walls locked open, spread
/// evenly over it.
fn locks() -> Locks {
    let g = generate(&design(Walls::DEFAULT), None).unwrap();
    let grid = g.maze.grid();
    let (mut walls, mut passages) = (Vec::new(), Vec::new());
    for a in grid.cells() {
        for b in grid.neighbours(a) {
            if a < b {
                let (x, y) = (grid.coord(a), grid.coord(b));
                let lock = [x.row, x.col, y.row, y.col];
                if g.maze.linked(a, b) {
                    passages.push(lock);
                } else {
                    walls.push(lock);
                }
            }
        }
    }
    let every = |list: &Vec<[u32; 4]>| -> Vec<[u32; 4]> {
        (0..1000).map(|i| list[i * list.len() / 1000]).collect()
    };
    Locks {
        closed: every(&passages),
        open: every(&walls),
    }
}

/// A region of 10,000 parts: pairs of cells side by side, a cell apart, on every other row.
fn region() -> Recarve {
    let mut cells = Vec::new();
    for r in (0..200).map(|k| k * 5) {
        for c in (0..50).map(|k| k * 20) {
            cells.push([r, c]);
            cells.push([r, c + 1]);
        }
    }
    Recarve { seed: 3, cells }
}

fn hand(c: &mut Criterion) {
    let mut group = c.benchmark_group("hand");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(8));
    let plain = design(Walls::DEFAULT);
    group.bench_function("plain", |b| {
        b.iter(|| black_box(generate(&plain, None).unwrap()))
    });
    let locked = design(Walls {
        lock: locks(),
        ..Walls::DEFAULT
    });
    group.bench_function("locks/2000", |b| {
        b.iter(|| black_box(generate(&locked, None).unwrap()))
    });
    let regions = design(Walls {
        recarve: vec![region()],
        ..Walls::DEFAULT
    });
    group.bench_function("region/10000", |b| {
        b.iter(|| black_box(generate(&regions, None).unwrap()))
    });
    group.finish();
}

criterion_group!(benches, hand);
criterion_main!(benches);
