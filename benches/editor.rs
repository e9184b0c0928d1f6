//! The editor's knob-to-preview path for a 60x60 masked maze (the built-in cat, rect and hex):
//! the maze made on the shape's mask, its printed pages laid out (the same `draw::pages` the
//! exporters render), and the page tessellated into the preview's mesh. Issue 6 asks for the
//! whole of it within one 16 ms frame. The shape's picture is decoded and cut once, as the
//! editor caches it; knob changes start from the cut.
//!
//! Run: `cargo bench --bench editor` (short runs: `-- --warm-up-time 1 --measurement-time 3`).

use std::hint::black_box;
use std::sync::Arc;

use criterion::{Criterion, criterion_group, criterion_main};
use hedge::app::preview::{CROSSING_TINT, PagePreview, tessellate};
use hedge::app::worker::{Job, run_job};
use hedge::design::Design;
use hedge::pipeline::{generate, shape_mask};
use hedge::shape::{Cut, Foreground, ShapeSource};
use hedge::topology::TopologyKind;

fn cat() -> Arc<Foreground> {
    let loaded = hedge::io::load_shape(&ShapeSource::Builtin("cat".into()), None).unwrap();
    Arc::new(Foreground::from_picture(&loaded.picture, Cut::default()).unwrap())
}

fn design(kind: TopologyKind) -> Design {
    Design {
        topology: kind,
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
        // the preview's scale: a Letter page fitted into about 800 points of panel
        let scale = 800.0 / p.pages.puzzle.height as f32;
        eprintln!(
            "{kind} 60x60 cat: {} cells, {} drawing items, {} mesh vertices",
            g.metrics.cells,
            p.pages.puzzle.items.len(),
            tessellate(&p.pages.puzzle, None, CROSSING_TINT, scale, 1.0)
                .vertices
                .len()
        );
        let mut group = c.benchmark_group(format!("editor/{kind}-60x60-cat"));
        group.bench_function("mask", |b| b.iter(|| shape_mask(black_box(&d), &fg)));
        group.bench_function("generate", |b| {
            b.iter(|| generate(black_box(&d), Some(&mask)))
        });
        group.bench_function("pages", |b| {
            b.iter(|| PagePreview::new(black_box(&g), &d.page))
        });
        group.bench_function("tessellate", |b| {
            b.iter(|| tessellate(black_box(&p.pages.puzzle), None, CROSSING_TINT, scale, 1.0))
        });
        // a knob change end to end: the worker's job (mask, maze, pages), then the mesh
        let job = Job {
            design: d.clone(),
            shape: Some(Arc::clone(&fg)),
        };
        group.bench_function("knob-to-mesh", |b| {
            b.iter(|| {
                let r = run_job(1, black_box(&job));
                let made = r.outcome.unwrap();
                let p = made.preview.unwrap();
                tessellate(&p.pages.puzzle, None, CROSSING_TINT, scale, 1.0)
            })
        });
        group.finish();
    }
}

criterion_group!(benches, editor);
criterion_main!(benches);
