//! Print benchmarks: a 200x200 maze laid out and rendered to PDF, SVG and a 300-dpi Letter PNG.
//! Targets: drawing + PDF under 100 ms, drawing + SVG under 50 ms, the PNG under 1 s.

use criterion::{Criterion, criterion_group, criterion_main};
use hedge::design::Design;
use hedge::draw;
use hedge::export::{pdf, png, svg};
use hedge::page::PageSetup;
use hedge::pipeline::generate;
use std::hint::black_box;

fn bench(c: &mut Criterion) {
    let g = generate(
        &Design {
            width: 200,
            height: 200,
            seed: Some(1),
            ..Design::default()
        },
        None,
    )
    .expect("a 200x200 maze");
    let setup = PageSetup {
        title: Some("Benchmark".into()),
        ..PageSetup::default()
    };
    let page = draw::puzzle_page(&g, &setup).expect("layout");
    let key = draw::key_page(&g, &setup.next_page()).expect("layout");
    eprintln!(
        "200x200: {} wall strokes; PDF {} bytes, SVG {} bytes",
        page.wall_strokes(),
        pdf::pdf(&[&page, &key], "Benchmark").len(),
        svg::svg(&page).len()
    );
    let mut group = c.benchmark_group("print_200x200");
    group.sample_size(10);
    group.bench_function("drawing", |b| {
        b.iter(|| draw::puzzle_page(black_box(&g), &setup).expect("layout"))
    });
    group.bench_function("drawing+pdf(2 pages)", |b| {
        b.iter(|| {
            let p = draw::puzzle_page(black_box(&g), &setup).expect("layout");
            let k = draw::key_page(black_box(&g), &setup.next_page()).expect("layout");
            pdf::pdf(&[&p, &k], "Benchmark")
        })
    });
    group.bench_function("drawing+svg", |b| {
        b.iter(|| svg::svg(&draw::puzzle_page(black_box(&g), &setup).expect("layout")))
    });
    group.bench_function("drawing+png(300dpi letter)", |b| {
        b.iter(|| {
            png::png(
                &draw::puzzle_page(black_box(&g), &setup).expect("layout"),
                300,
            )
            .expect("png")
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
