//! The editor's knob-to-preview path for a 60x60 masked maze (the built-in cat, rect and hex):
//! the maze made on the shape's mask, its printed pages laid out (the same `draw::pages` the
//! exporters render), and the page rasterised into the preview's pixels (the PNG export's
//! rasteriser, at the fitted zoom). Issue 14 asks for the whole of it within one 16 ms frame. The shape's picture is decoded and cut once, as the
//! editor caches it; knob changes start from the cut.
//!
//!
//! `editor/frame-while-*`: the time of one editor frame (`update`, driven by egui_kittest with
//! the tasks on threads, as in the editor) while a 4000 x 4000 PNG is read and cut, and while
//! a 200 x 200 maze is exported as a PDF, both in the background; beside each, the work the
//! frame did itself before it moved to a task (`...-on-the-ui-thread`).
//!
//! Run: `cargo bench --bench editor` (short runs: `-- --warm-up-time 1 --measurement-time 3`).

use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group, criterion_main};
use egui_kittest::Harness;
use hedge::app::preview::{PagePreview, RasterKey, raster_image};
use hedge::app::task::Spawner;
use hedge::app::worker::{Job, run_job};
use hedge::app::{Command, ExportKind, HedgeApp};
use hedge::design::Design;
use hedge::design::{Kind, Walls};
use hedge::draw::overlay::Show;
use hedge::export::raster::Region;
use hedge::make::{Cutting, ShapeCache};
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
            shape: Some(Arc::clone(&fg)),
            ..Job::plain(d.clone())
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

/// A black disc on white, `side` pixels square, as a greyscale PNG.
fn disc_png(path: &Path, side: u32) {
    let (r, c) = (f64::from(side) * 0.45, f64::from(side) / 2.0);
    image::GrayImage::from_fn(side, side, |x, y| {
        let d = (f64::from(x) - c).hypot(f64::from(y) - c);
        image::Luma([if d < r { 0 } else { 255 }])
    })
    .save(path)
    .unwrap();
}

/// The editor with its tasks on threads (as when it runs), at its default window size.
fn window() -> Harness<'static, HedgeApp> {
    let mut h = Harness::builder()
        .with_size([1100.0, 750.0])
        .build_eframe(|cc| HedgeApp::new(cc));
    h.state_mut().start_from_seed(7);
    h.state_mut().finish_tasks();
    for _ in 0..3 {
        h.step();
    }
    h
}

/// Times `frames` frames of `h`, starting `start` whenever `busy` says nothing runs; returns
/// their total time and prints the slowest.
fn frames(
    h: &mut Harness<'static, HedgeApp>,
    iters: u64,
    what: &str,
    busy: impl Fn(&HedgeApp) -> bool,
    mut start: impl FnMut(&mut HedgeApp),
) -> Duration {
    let (mut total, mut slowest, mut started) = (Duration::ZERO, Duration::ZERO, 0);
    for _ in 0..iters {
        if !busy(h.state()) {
            start(h.state_mut());
            started += 1;
        }
        let t = Instant::now();
        h.step();
        let took = t.elapsed();
        total += took;
        slowest = slowest.max(took);
    }
    eprintln!(
        "{what}: {iters} frames over {started} runs, mean {:.2} ms, slowest {:.2} ms",
        total.as_secs_f64() * 1000.0 / iters as f64,
        slowest.as_secs_f64() * 1000.0
    );
    total
}

fn background(c: &mut Criterion) {
    let dir = tempfile::tempdir().unwrap();
    // more pictures than the editor remembers cuts of: every load decodes
    let pictures: Vec<PathBuf> = (0..6)
        .map(|i| {
            let p = dir.path().join(format!("disc{i}.png"));
            disc_png(&p, 4000);
            p
        })
        .collect();
    let mut group = c.benchmark_group("editor/background");
    group.sample_size(20);
    group.bench_function("read-4000px-png-on-the-ui-thread", |b| {
        let d = Design::default();
        let source = ShapeSource::File(pictures[0].clone());
        b.iter(|| {
            ShapeCache::keeping(1)
                .foreground(&hedge::io::Files, &source, None, &Cutting::of(&d))
                .unwrap()
        })
    });
    let mut h = window();
    let mut next = 0;
    group.bench_function("frame-while-a-4000px-png-loads", |b| {
        b.iter_custom(|iters| {
            frames(
                &mut h,
                iters,
                "frames while a 4000 x 4000 PNG loads",
                |app| app.reading() || app.busy(),
                |app| {
                    next = (next + 1) % pictures.len();
                    let shape = Some(ShapeSource::File(pictures[next].clone()));
                    app.queue(Command::SetShape(shape));
                },
            )
        })
    });
    h.state_mut().finish_tasks();

    // a 200 x 200 maze, no shape, exported as a PDF again and again
    let d = Design {
        width: 200,
        height: 200,
        shape: None,
        ..h.state().design().clone()
    };
    h.state_mut().queue(Command::Edit {
        design: Box::new(d),
        coalesce: false,
    });
    h.step();
    h.state_mut().finish_tasks();
    h.step();
    let pdf = dir.path().join("maze.pdf");
    group.bench_function("export-200x200-pdf-on-the-ui-thread", |b| {
        let made = match h.state().current() {
            hedge::app::Current::Made { made, .. } => Arc::clone(made),
            _ => panic!("a maze"),
        };
        let page = h.state().design().page.clone();
        let inline = Spawner::new(|| {});
        inline.set_inline(true);
        b.iter(|| {
            let (made, page, pdf) = (Arc::clone(&made), page.clone(), pdf.clone());
            inline
                .spawn("exporting", move |c| {
                    hedge::app::worker::export(&made, &page, ExportKind::PDF, &pdf, c)
                })
                .wait()
                .unwrap()
                .unwrap()
        })
    });
    group.bench_function("frame-while-a-200x200-pdf-exports", |b| {
        b.iter_custom(|iters| {
            frames(
                &mut h,
                iters,
                "frames while a 200 x 200 PDF exports",
                HedgeApp::exporting,
                |app| app.queue(Command::Export(ExportKind::PDF, pdf.clone())),
            )
        })
    });
    h.state_mut().finish_tasks();
    group.finish();
}

criterion_group!(benches, editor, background);
criterion_main!(benches);
