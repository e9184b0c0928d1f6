//! Silhouette speed: a 2000 x 2000 picture (already decoded) cut into shape and background and
//! fitted onto a 100-cell-wide grid of each topology (the target: under 50 ms each), plus the
//! steps on their own, the decoders and the setting of a text shape.
//!
//! Run: `cargo bench --bench shape` (short runs: `-- --warm-up-time 1 --measurement-time 3`).

use std::hint::black_box;
use std::io::Cursor;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use hedge::shape::text::{self, TextFont};
use hedge::shape::{Cut, Foreground, Picture, builtin, fit, fitted_height};
use hedge::topology::{Topology, TopologyKind};

/// A 2000 x 2000 PNG: a dark cat-like blob (disc body, disc head, two ears, a hole) on white.
fn png_2000() -> Vec<u8> {
    let img = image::RgbaImage::from_fn(2000, 2000, |x, y| {
        let (x, y) = (x as f64, y as f64);
        let d = |cx: f64, cy: f64, r: f64| (x - cx).powi(2) + (y - cy).powi(2) <= r * r;
        let ear = |x0: f64| y > 300.0 && y < 700.0 && (x - x0).abs() < (y - 300.0) * 0.4;
        let on = (d(1000.0, 1300.0, 650.0) || d(1000.0, 650.0, 380.0) || ear(760.0) || ear(1240.0))
            && !d(1000.0, 1350.0, 150.0);
        image::Rgba(if on {
            [30, 20, 10, 255]
        } else {
            [250, 250, 250, 255]
        })
    });
    let mut out = Vec::new();
    img.write_to(&mut Cursor::new(&mut out), image::ImageFormat::Png)
        .unwrap();
    out
}

fn topology(kind: TopologyKind, fg: &Foreground) -> Topology {
    let h = fitted_height(kind, 100, fg).unwrap();
    Topology::new(kind, 100, h).unwrap()
}

fn shape(c: &mut Criterion) {
    let png = png_2000();
    let picture = Picture::decode(&png).unwrap();
    assert_eq!((picture.width(), picture.height()), (2000, 2000));
    let fg = Foreground::from_picture(&picture, Cut::default()).unwrap();

    let mut group = c.benchmark_group("shape");
    group
        .sample_size(20)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3));
    // the whole job from decoded pixels: cut, then fit
    for kind in TopologyKind::ALL {
        let t = topology(kind, &fg);
        group.bench_function(format!("cut+fit/{kind}"), |b| {
            b.iter(|| {
                let fg = Foreground::from_picture(black_box(&picture), Cut::default()).unwrap();
                black_box(fit(&fg, &t, 0.5).unwrap())
            })
        });
    }
    group.bench_function("cut", |b| {
        b.iter(|| {
            black_box(Foreground::from_picture(
                black_box(&picture),
                Cut::default(),
            ))
        })
    });
    for kind in TopologyKind::ALL {
        let t = topology(kind, &fg);
        group.bench_function(format!("fit/{kind}"), |b| {
            b.iter(|| black_box(fit(black_box(&fg), &t, 0.5).unwrap()))
        });
    }
    group.bench_function("decode/png-2000", |b| {
        b.iter(|| black_box(Picture::decode(black_box(&png)).unwrap()))
    });
    let cat = builtin::get("cat").unwrap();
    group.bench_function("decode/svg-cat", |b| {
        b.iter(|| black_box(Picture::decode(black_box(cat)).unwrap()))
    });
    // a name's letters set, thickened and their dots kept apart (what typing a name in the
    // editor waits for before the picture is cut): a short name, and six lines with about 60
    // dots over their letters
    let long = ["Jürgen ißt ölige Äpfel mit Zoë"; 6].join("\n");
    for (name, text) in [("Zoë", "Zoë"), ("6-lines-60-dots", long.as_str())] {
        group.bench_function(format!("text/{name}"), |b| {
            b.iter(|| black_box(text::svg(black_box(text), TextFont::Rounded).unwrap()))
        });
    }
    group.finish();
}

criterion_group!(benches, shape);
criterion_main!(benches);
