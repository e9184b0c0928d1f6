//! Difficulty search speed: candidates per second (carve + braid + endpoints + solve + measure)
//! on a 40 x 40 rect grid masked by the built-in heart, on every core rayon finds (the target:
//! at least 2000 per second on two cores). The targets are impossible (a score of 1000), so the
//! search always spends its whole budget of 2048 candidates.
//!
//! Run: `cargo bench --bench difficulty`.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use hedge::design::Design;
use hedge::difficulty::{Budget, Range, SearchOptions, Stop, Targets, search};
use hedge::pipeline::shape_mask;
use hedge::shape::{Cut, Foreground, Picture, ShapeSource, builtin};

const CANDIDATES: u64 = 2048;

fn difficulty(c: &mut Criterion) {
    let picture = Picture::decode(builtin::get("heart").unwrap()).unwrap();
    let fg = Foreground::from_picture(&picture, Cut::default()).unwrap();
    let design = Design {
        width: 40,
        height: 40,
        seed: Some(1),
        shape: Some(ShapeSource::Builtin("heart".into())),
        targets: Targets {
            score: Some(Range::new(Some(1000.0), None)),
            ..Targets::NONE
        },
        ..Design::default()
    };
    let mask = shape_mask(&design, &fg).unwrap().mask;
    let options = SearchOptions {
        budget: Some(Budget::Candidates(CANDIDATES)),
        ..SearchOptions::default()
    };
    let probe = search(&design, Some(&mask), &options).unwrap();
    assert_eq!(probe.stop, Stop::Budget);
    assert_eq!(probe.tried, CANDIDATES);
    eprintln!(
        "difficulty: heart on 40 x 40 = {} cells, {} rayon threads",
        probe.generated.metrics.cells,
        rayon::current_num_threads()
    );

    let mut group = c.benchmark_group("difficulty");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_secs(2))
        .measurement_time(Duration::from_secs(10))
        .throughput(Throughput::Elements(CANDIDATES));
    group.bench_function("search/heart-40x40", |b| {
        b.iter(|| black_box(search(black_box(&design), Some(&mask), &options).unwrap()))
    });
    let vary = SearchOptions {
        vary_endpoints: true,
        vary_carver: true,
        ..options
    };
    group.bench_function("search/heart-40x40/vary", |b| {
        b.iter(|| black_box(search(black_box(&design), Some(&mask), &vary).unwrap()))
    });
    group.finish();
}

criterion_group!(benches, difficulty);
criterion_main!(benches);
