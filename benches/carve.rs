//! Carver speed: every carver on a ~10^6-cell grid of each topology, scaling of the fast carvers
//! from 100x100 to 3000x3000, and the whole generate + solve + measure pipeline.
//!
//! Run: `cargo bench --bench carve` (or with a filter, e.g. `-- carve/rect`). Throughput is
//! reported per cell, so criterion's "elem/s" reads directly as cells per second.

use std::hint::black_box;
use std::sync::Arc;
use std::time::Duration;

use criterion::{BatchSize, Criterion, Throughput, criterion_group, criterion_main};
use hedge::carve::{CARVERS, CarveOptions, carve};
use hedge::design::Design;
use hedge::grid::Grid;
use hedge::maze::Maze;
use hedge::pipeline::generate_on;
use hedge::random::MazeRng;
use hedge::topology::{Topology, TopologyKind};

fn grid(kind: TopologyKind, w: u32, h: u32) -> Arc<Grid> {
    Arc::new(Grid::new(Topology::new(kind, w, h).unwrap(), None).unwrap())
}

/// ~10^6 cells for each topology (polar: 570 rings).
fn million(kind: TopologyKind) -> Arc<Grid> {
    match kind {
        TopologyKind::Polar => grid(kind, 570, 0),
        _ => grid(kind, 1000, 1000),
    }
}

fn carvers(c: &mut Criterion) {
    for &kind in TopologyKind::ALL.iter() {
        let g = million(kind);
        let mut group = c.benchmark_group(format!("carve/{kind}"));
        group
            .sample_size(10)
            .warm_up_time(Duration::from_secs(1))
            .measurement_time(Duration::from_secs(4));
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

fn scaling(c: &mut Criterion) {
    let mut group = c.benchmark_group("scaling/rect");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(4));
    for side in [100u32, 1000, 3000] {
        let g = grid(TopologyKind::Rect, side, side);
        group.throughput(Throughput::Elements(g.len() as u64));
        for info in CARVERS.iter() {
            if matches!(info.name, "aldous-broder" | "wilson") && side == 3000 {
                continue;
            }
            group.bench_function(format!("{}/{side}", info.name), |b| {
                b.iter_batched(
                    || (Maze::new(g.clone()), MazeRng::new(7)),
                    |(mut m, mut rng)| {
                        carve(&mut m, info.algorithm, &mut rng, &CarveOptions::default()).unwrap();
                        black_box(m)
                    },
                    BatchSize::PerIteration,
                )
            });
        }
    }
    group.finish();
}

fn pipeline(c: &mut Criterion) {
    let mut group = c.benchmark_group("pipeline");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(4));
    for &kind in TopologyKind::ALL.iter() {
        let g = million(kind);
        group.throughput(Throughput::Elements(g.len() as u64));
        let design = Design {
            topology: kind,
            seed: Some(1),
            ..Design::default()
        };
        group.bench_function(format!("generate-solve-measure/{kind}"), |b| {
            b.iter(|| black_box(generate_on(&design, g.clone(), 0).unwrap()))
        });
    }
    group.finish();
}

criterion_group!(benches, carvers, scaling, pipeline);
criterion_main!(benches);
