//! Tile Mazer benchmarks: both candidate-test strategies at 17x14 and 1000x1000, orders 0 and 1.
//!
//! Run with `cargo bench --bench tiles -- --warm-up-time 1 --measurement-time 3`. The figures
//! are recorded in the doc comment of `hedge::tiles`.

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use hedge::random::MazeRng;
use hedge::tiles::{Mazer, Strategy};

fn mazer(c: &mut Criterion) {
    for (w, h, samples) in [(17, 14, 100), (1000, 1000, 10)] {
        let mut group = c.benchmark_group(format!("mazer_{w}x{h}"));
        group.sample_size(samples);
        for order in 0..2 {
            for (name, strategy) in [
                ("window", Strategy::Window),
                ("per_tile", Strategy::PerTile),
            ] {
                let m = Mazer::new(w, h).unwrap().with_strategy(strategy);
                let mut seed = 0u64;
                group.bench_function(BenchmarkId::new(name, format!("order{order}")), |b| {
                    b.iter(|| {
                        seed += 1;
                        let g = m.generate(order, &mut MazeRng::new(seed)).unwrap();
                        black_box(g.width())
                    })
                });
            }
        }
        group.finish();
    }
}

criterion_group!(benches, mazer);
criterion_main!(benches);
