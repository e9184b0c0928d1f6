//! Weave carving speed: a 1000x1000 rect grid at weave 0.5 (and 1.0), next to the plain
//! backtracker it extends, and a 1000x1000 hex grid at 0.5. Budget: under ~300 ns per cell.
//!
//! Run: `cargo bench --bench weave -- --warm-up-time 1 --measurement-time 3`. Throughput is per
//! cell, so criterion's "elem/s" reads directly as cells per second.

use std::hint::black_box;
use std::sync::Arc;
use std::time::Duration;

use criterion::{BatchSize, Criterion, Throughput, criterion_group, criterion_main};
use hedge::carve::{Algorithm, CarveOptions, carve};
use hedge::grid::Grid;
use hedge::maze::Maze;
use hedge::random::MazeRng;
use hedge::topology::{Topology, TopologyKind};

fn weave(c: &mut Criterion) {
    let g =
        Arc::new(Grid::new(Topology::new(TopologyKind::Rect, 1000, 1000).unwrap(), None).unwrap());
    let mut group = c.benchmark_group("weave/rect-1000x1000");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(4));
    group.throughput(Throughput::Elements(g.len() as u64));
    for density in [0.5, 1.0] {
        group.bench_function(format!("weave-{density}"), |b| {
            let mut seed = 0;
            b.iter_batched(
                || {
                    seed += 1;
                    (Maze::new(g.clone()), MazeRng::new(seed))
                },
                |(mut m, mut rng)| {
                    hedge::weave::carve(&mut m, density, &mut rng).unwrap();
                    black_box(m)
                },
                BatchSize::PerIteration,
            )
        });
    }
    group.bench_function("backtracker", |b| {
        let mut seed = 0;
        b.iter_batched(
            || {
                seed += 1;
                (Maze::new(g.clone()), MazeRng::new(seed))
            },
            |(mut m, mut rng)| {
                carve(
                    &mut m,
                    Algorithm::Backtracker,
                    &mut rng,
                    &CarveOptions::default(),
                )
                .unwrap();
                black_box(m)
            },
            BatchSize::PerIteration,
        )
    });
    group.finish();
    // hex: six directions, dives along three axes
    let g =
        Arc::new(Grid::new(Topology::new(TopologyKind::Hex, 1000, 1000).unwrap(), None).unwrap());
    let mut group = c.benchmark_group("weave/hex-1000x1000");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(4));
    group.throughput(Throughput::Elements(g.len() as u64));
    group.bench_function("weave-0.5", |b| {
        let mut seed = 0;
        b.iter_batched(
            || {
                seed += 1;
                (Maze::new(g.clone()), MazeRng::new(seed))
            },
            |(mut m, mut rng)| {
                hedge::weave::carve(&mut m, 0.5, &mut rng).unwrap();
                black_box(m)
            },
            BatchSize::PerIteration,
        )
    });
    group.finish();
}

criterion_group!(benches, weave);
criterion_main!(benches);
