//! The shape's own outline: the clipped geometry of a 60 x 60 heart on each topology (the
//! contour from the heart's vector paths, every cell cut against it, the slivers found; the
//! target: under 10 ms each), and a 200 x 200 heart page end to end (fit, clip, carve, solve,
//! measure, the page's drawing; the target: under 200 ms).
//!
//! Run: `cargo bench --bench outline` (short runs: `-- --warm-up-time 1 --measurement-time 3`).

use std::hint::black_box;
use std::sync::Arc;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use hedge::design::Design;
use hedge::make::{Fit, prepare_with};
use hedge::outline::Clip;
use hedge::shape::fit::{PixelMap, fit};
use hedge::shape::outline::contour;
use hedge::shape::{Cut, Foreground, Picture, ShapeSource, builtin};
use hedge::topology::{Topology, TopologyKind};

fn outline(c: &mut Criterion) {
    let heart = Picture::decode(builtin::get("heart").unwrap()).unwrap();
    let fg = Arc::new(Foreground::from_picture(&heart, Cut::default()).unwrap());
    assert!(
        fg.vector().is_some(),
        "the heart's outline is its vector paths"
    );
    let mut group = c.benchmark_group("outline");
    group
        .sample_size(20)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3));
    for kind in TopologyKind::ALL {
        // polar widths are rings: 30 rings is 60 cells across
        let n = if kind == TopologyKind::Polar { 30 } else { 60 };
        let topo = Topology::new(kind, n, n).unwrap();
        let mask = fit(&fg, &topo, 0.5).unwrap();
        group.bench_function(format!("clip-60/{kind}"), |b| {
            b.iter(|| {
                let place = PixelMap::new(&fg, &topo);
                let clip = Clip::new(Arc::new(contour(&fg, &place)), topo.clone());
                black_box(clip.slivers(&mask))
            })
        });
    }
    let d = Design {
        width: 200,
        height: 200,
        seed: Some(1),
        shape: Some(ShapeSource::Builtin("heart".into())),
        ..Design::default()
    };
    group.bench_function("page-200/rect", |b| {
        b.iter(|| {
            let p = prepare_with(&d, Some(fg.clone()), Fit::default()).unwrap();
            let made = p.make().unwrap();
            black_box(made.puzzle_page(&d.page).unwrap())
        })
    });
    group.finish();
}

criterion_group!(benches, outline);
criterion_main!(benches);
