//! Print benchmarks: a 200x200 maze laid out and rendered to PDF, SVG and a 300-dpi Letter PNG.
//! Targets: drawing + PDF under 100 ms, drawing + SVG under 50 ms, the PNG under 1 s.

use criterion::{Criterion, criterion_group, criterion_main};
use hedge::design::Design;
use hedge::draw;
use hedge::export::{self, Format, pdf, png, svg};
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
    // The machine may be shared: besides criterion's wall-clock times, report the CPU time this
    // thread spent on each operation (Linux: /proc/thread-self/schedstat), a median of 7 runs.
    report_cpu("drawing (puzzle page)", || {
        draw::puzzle_page(&g, &setup).expect("layout");
    });
    report_cpu("drawing, both pages", || {
        draw::pages(&g, &setup, &setup.next_page()).expect("layout");
    });
    report_cpu("pdf from drawings", || {
        pdf::pdf(&[&page, &key], "Benchmark");
    });
    report_cpu("drawing + pdf (render)", || {
        export::render(&g, &setup, Format::Pdf).expect("pdf");
    });
    report_cpu("drawing + svg", || {
        svg::svg(&draw::puzzle_page(&g, &setup).expect("layout"));
    });
    report_cpu("drawing + png 300 dpi", || {
        png::png(&draw::puzzle_page(&g, &setup).expect("layout"), 300).expect("png");
    });
    let mut group = c.benchmark_group("print_200x200");
    group.sample_size(10);
    group.bench_function("drawing", |b| {
        b.iter(|| draw::puzzle_page(black_box(&g), &setup).expect("layout"))
    });
    group.bench_function("drawing+pdf(2 pages)", |b| {
        b.iter(|| export::render(black_box(&g), &setup, Format::Pdf).expect("pdf"))
    });
    group.bench_function("pdf only(2 pages)", |b| {
        b.iter(|| pdf::pdf(&[black_box(&page), &key], "Benchmark"))
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

/// Nanoseconds this thread has run on a CPU, if the kernel says.
fn cpu_ns() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    s.split_whitespace().next()?.parse().ok()
}

fn report_cpu(name: &str, mut f: impl FnMut()) {
    let mut times = Vec::new();
    for _ in 0..7 {
        let (Some(a), t) = (cpu_ns(), std::time::Instant::now()) else {
            return;
        };
        f();
        let wall = t.elapsed();
        if let Some(b) = cpu_ns() {
            times.push(((b - a) as f64 / 1e6, wall.as_secs_f64() * 1e3));
        }
    }
    times.sort_by(|a, b| a.0.total_cmp(&b.0));
    if let Some((cpu, wall)) = times.get(times.len() / 2) {
        eprintln!("cpu time {name}: {cpu:.1} ms (wall {wall:.1} ms)");
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
