//! Carver speed, as a user pays it and carver by carver.
//!
//! - `grid/KIND`: building the [`Grid`] alone (plain, and rect under a disc-shaped mask).
//! - `paid/KIND/CARVER`: what a user pays for a maze: grid + maze + carve, every carver on a
//!   ~10^6-cell grid of each topology (1000x1000 rect, hex and tri; 570 polar rings).
//! - `carve/KIND/CARVER`: the carve alone, on a grid built once.
//! - `reference/...`: a minimal hand-written generator (`reference/mod.rs`: a byte grid with
//!   sentinels, allocation included) at 1000x1000 and 3000x3000, to compare the carvers with.
//! - `scaling/rect`: the fast carvers from 100x100 to 3000x3000 (grid + maze + carve).
//! - `pipeline`: the whole generate + solve + measure pipeline.
//!
//! Run: `cargo bench --bench carve` (or with a filter, e.g. `-- paid/rect`). Throughput is
//! reported per cell, so criterion's "elem/s" reads directly as cells per second.

use std::hint::black_box;
use std::sync::Arc;
use std::time::Duration;

use criterion::{BatchSize, Criterion, Throughput, criterion_group, criterion_main};
use hedge::carve::{Algorithm, CARVERS, CarveOptions, carve};
use hedge::design::Design;
use hedge::design::{Kind, Walls};
use hedge::grid::Grid;
use hedge::mask::Mask;
use hedge::maze::Maze;
use hedge::pipeline::generate_on;
use hedge::random::MazeRng;
use hedge::topology::{Coord, Topology, TopologyKind};

mod reference;

fn topology(kind: TopologyKind, w: u32, h: u32) -> Topology {
    Topology::new(kind, w, h).unwrap()
}

/// ~10^6 cells for each topology (polar: 570 rings).
fn million(kind: TopologyKind) -> Topology {
    match kind {
        TopologyKind::Polar => topology(kind, 570, 0),
        _ => topology(kind, 1000, 1000),
    }
}

/// A grid + maze + carve from nothing, as the pipeline makes them.
fn paid(t: &Topology, mask: Option<&Mask>, algorithm: Algorithm, seed: u64) -> Maze {
    let g = Arc::new(Grid::new(t.clone(), mask).unwrap());
    let mut m = Maze::new(g);
    carve(
        &mut m,
        algorithm,
        &mut MazeRng::new(seed),
        &CarveOptions::default(),
    )
    .unwrap();
    m
}

fn quick(group: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>) {
    group
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(4));
}

fn grids(c: &mut Criterion) {
    let mut group = c.benchmark_group("grid");
    quick(&mut group);
    for &kind in TopologyKind::ALL.iter() {
        let t = million(kind);
        let n = Grid::new(t.clone(), None).unwrap().len();
        group.throughput(Throughput::Elements(n as u64));
        group.bench_function(kind.name(), |b| {
            b.iter(|| black_box(Grid::new(t.clone(), None).unwrap()))
        });
    }
    // a disc inscribed in the 1000x1000 square (78.5 % of the cells)
    let t = million(TopologyKind::Rect);
    let mut mask = Mask::empty(&t).unwrap();
    for r in 0..1000u32 {
        for k in 0..1000u32 {
            let (dx, dy) = (f64::from(k) - 499.5, f64::from(r) - 499.5);
            mask.set(Coord::new(r, k), dx.hypot(dy) < 500.0);
        }
    }
    group.throughput(Throughput::Elements(mask.count() as u64));
    group.bench_function("rect-disc", |b| {
        b.iter(|| black_box(Grid::new(t.clone(), Some(&mask)).unwrap()))
    });
    group.finish();
}

fn paid_carvers(c: &mut Criterion) {
    for &kind in TopologyKind::ALL.iter() {
        let t = million(kind);
        let n = Grid::new(t.clone(), None).unwrap().len();
        let mut group = c.benchmark_group(format!("paid/{kind}"));
        quick(&mut group);
        group.throughput(Throughput::Elements(n as u64));
        for info in CARVERS.iter().filter(|i| i.topologies.contains(&kind)) {
            group.bench_function(info.name, |b| {
                let mut seed = 0;
                b.iter(|| {
                    seed += 1;
                    black_box(paid(&t, None, info.algorithm, seed))
                })
            });
        }
        group.finish();
    }
}

fn carvers(c: &mut Criterion) {
    for &kind in TopologyKind::ALL.iter() {
        let g = Arc::new(Grid::new(million(kind), None).unwrap());
        let mut group = c.benchmark_group(format!("carve/{kind}"));
        quick(&mut group);
        group.throughput(Throughput::Elements(g.len() as u64));
        for info in CARVERS.iter().filter(|i| i.topologies.contains(&kind)) {
            group.bench_function(info.name, |b| {
                let mut seed = 0;
                b.iter_batched(
                    || {
                        seed += 1;
                        (Maze::new(g.clone()), MazeRng::new(seed))
                    },
                    |(mut m, mut rng)| {
                        carve(&mut m, info.algorithm, &mut rng, &CarveOptions::default()).unwrap();
                        black_box(m)
                    },
                    BatchSize::PerIteration,
                )
            });
        }
        group.finish();
    }
}

fn references(c: &mut Criterion) {
    let mut group = c.benchmark_group("reference");
    quick(&mut group);
    for side in [1000usize, 3000] {
        group.throughput(Throughput::Elements((side * side) as u64));
        group.bench_function(format!("backtracker/{side}"), |b| {
            let mut seed = 0;
            b.iter(|| {
                seed += 1;
                black_box(reference::backtracker(side, side, &mut MazeRng::new(seed)))
            })
        });
        group.bench_function(format!("kruskal/{side}"), |b| {
            let mut seed = 0;
            b.iter(|| {
                seed += 1;
                black_box(reference::kruskal(side, side, &mut MazeRng::new(seed)))
            })
        });
    }
    group.finish();
    // the references are mazes: one tree over every cell
    for make in [reference::backtracker, reference::kruskal] {
        let m = make(31, 17, &mut MazeRng::new(1));
        assert_eq!(m.passages(), 31 * 17 - 1);
    }
}

fn scaling(c: &mut Criterion) {
    let mut group = c.benchmark_group("scaling/rect");
    quick(&mut group);
    for side in [100u32, 1000, 3000] {
        let t = topology(TopologyKind::Rect, side, side);
        group.throughput(Throughput::Elements(u64::from(side * side)));
        for info in CARVERS.iter() {
            if matches!(info.name, "aldous-broder" | "wilson") && side == 3000 {
                continue;
            }
            group.bench_function(format!("{}/{side}", info.name), |b| {
                b.iter(|| black_box(paid(&t, None, info.algorithm, 7)))
            });
        }
    }
    group.finish();
}

fn pipeline(c: &mut Criterion) {
    let mut group = c.benchmark_group("pipeline");
    quick(&mut group);
    for &kind in TopologyKind::ALL.iter() {
        let g = Arc::new(Grid::new(million(kind), None).unwrap());
        group.throughput(Throughput::Elements(g.len() as u64));
        let design = Design {
            kind: Kind::Walls(Walls {
                topology: kind,
                ..Walls::DEFAULT
            }),
            seed: Some(1),
            ..Design::default()
        };
        group.bench_function(format!("generate-solve-measure/{kind}"), |b| {
            b.iter(|| black_box(generate_on(&design, g.clone(), 0).unwrap()))
        });
    }
    group.finish();
}

criterion_group!(
    benches,
    grids,
    references,
    paid_carvers,
    carvers,
    scaling,
    pipeline
);
criterion_main!(benches);
