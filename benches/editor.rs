//! The editor's knob-to-preview path for a 60x60 masked maze (the built-in cat, rect and hex):
//! the maze made on the shape's mask, its printed pages laid out (the same `draw::pages` the
//! exporters render), and the page rasterised into the preview's pixels (the PNG export's
//! rasteriser, at the fitted zoom). Issue 14 asks for the whole of it within one 16 ms frame. The shape's picture is decoded and cut once, as the
//! editor caches it; knob changes start from the cut.
//!
//! Run: `cargo bench --bench editor` (short runs: `-- --warm-up-time 1 --measurement-time 3`).

use std::hint::black_box;
use std::sync::Arc;

use criterion::{Criterion, criterion_group, criterion_main};
use hedge::app::preview::{PagePreview, RasterKey, raster_image};
use hedge::app::worker::{Job, run_job};
use hedge::design::Design;
use hedge::design::{Kind, Walls};
use hedge::draw::overlay::Show;
use hedge::export::raster::Region;
use hedge::pipeline::{generate, shape_mask};
use hedge::shape::{Cut, Foreground, ShapeSource};
use hedge::topology::TopologyKind;

fn cat() -> Arc<Foreground> {
    let loaded = hedge::io::load_shape(&ShapeSource::Builtin("cat".into()), None).unwrap();
    Arc::new(Foreground::from_picture(&loaded.picture, Cut::default()).unwrap())
}

fn design(kind: TopologyKind) -> Design {
    Design {
        kind: Kind::Walls(Walls {
            topology: kind,
            ..Walls::DEFAULT
        }),
        width: 60,
        height: 60,
        seed: Some(7),
        shape: Some(ShapeSource::Builtin("cat".into())),
        ..Design::default()
    }
}

fn editor(c: &mut Criterion) {
    let fg = cat();
    for kind in [TopologyKind::Rect, TopologyKind::Hex] {
        let d = design(kind);
        let mask = shape_mask(&d, &fg).unwrap().mask;
        let g = generate(&d, Some(&mask)).unwrap();
        let p = PagePreview::new(&g, &d.page).unwrap();
        // the preview's scale: a Letter page fitted into about 800 pixels of panel
        let k = 800.0 / p.pages.puzzle.height;
        let key = RasterKey {
            id: 1,
            key: false,
            show: Show::default(),
            scale: k,
        };
        let region = Region::page(&p.pages.puzzle, k);
        eprintln!(
            "{kind} 60x60 cat: {} cells, {} drawing items, {} x {} pixels",
            g.metrics.cells,
            p.pages.puzzle.items.len(),
            region.width,
            region.height
        );
        let mut group = c.benchmark_group(format!("editor/{kind}-60x60-cat"));
        group.bench_function("mask", |b| b.iter(|| shape_mask(black_box(&d), &fg)));
        group.bench_function("generate", |b| {
            b.iter(|| generate(black_box(&d), Some(&mask)))
        });
        group.bench_function("pages", |b| {
            b.iter(|| PagePreview::new(black_box(&g), &d.page))
        });
        group.bench_function("rasterise", |b| {
            b.iter(|| raster_image(black_box(&p), key, &region))
        });
        // a knob change end to end: the worker's job (mask, maze, pages), then the pixels
        let job = Job {
            design: d.clone(),
            shape: Some(Arc::clone(&fg)),
        };
        group.bench_function("knob-to-pixels", |b| {
            b.iter(|| {
                let r = run_job(1, black_box(&job));
                let made = r.outcome.unwrap();
                let p = made.preview.unwrap();
                raster_image(&p, key, &region)
            })
        });
        group.finish();
    }
}

criterion_group!(benches, editor);
criterion_main!(benches);
