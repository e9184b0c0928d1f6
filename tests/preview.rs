//! Snapshots of the editor's preview: the pixels it shows for a few designs (a rect maze, the hex
//! cat with its mask shown, a weave maze with its crossings shown), at a small scale, compared
//! exactly with `tests/snapshots/preview-*.png`. The preview is the PNG export's rasteriser
//! (tiny-skia, pure Rust), so the pixels are the same on every machine. After a deliberate
//! change of the look, `UPDATE_SNAPSHOTS=1 cargo test preview` rewrites them; look at them
//! before committing. A mismatch writes `*.new.png` beside the snapshot.

use std::path::PathBuf;
use std::sync::Arc;

use hedge::app::preview::{PagePreview, RasterKey, raster_image};
use hedge::design::Design;
use hedge::design::{Kind, Walls};
use hedge::draw::overlay::Show;
use hedge::export::raster::Region;
use hedge::make::{Fit, Made, prepare};
use hedge::shape::ShapeSource;
use hedge::topology::TopologyKind;

/// Pixels per millimetre of the snapshots (a Letter page is 324 x 419 pixels).
const SCALE: f64 = 1.5;

fn preview(d: &Design) -> PagePreview {
    let fit = Fit {
        height: d.shape.is_some(),
        size_limit: None,
    };
    let made = prepare(d, &hedge::io::Files, None, fit)
        .unwrap()
        .make()
        .unwrap();
    let Made::Walls(g) = made else {
        panic!("a wall maze")
    };
    PagePreview::new(&g, &d.page).unwrap()
}

fn check(name: &str, d: &Design, key: bool, show: Show) {
    let p = Arc::new(preview(d));
    let region = Region::page(p.drawing(key), SCALE);
    let k = RasterKey {
        id: 1,
        key,
        show,
        scale: SCALE,
    };
    let img = raster_image(&p, k, &region).unwrap();
    let [w, h] = img.size;
    let rgba: Vec<u8> = img.pixels.iter().flat_map(|c| c.to_array()).collect();
    let got = image::RgbaImage::from_raw(w as u32, h as u32, rgba).unwrap();
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/snapshots");
    let path = dir.join(format!("preview-{name}.png"));
    if std::env::var_os("UPDATE_SNAPSHOTS").is_some() {
        got.save(&path).unwrap();
        return;
    }
    let want = image::open(&path)
        .unwrap_or_else(|e| panic!("{}: {e} (run with UPDATE_SNAPSHOTS=1)", path.display()))
        .to_rgba8();
    if want != got {
        let new = dir.join(format!("preview-{name}.new.png"));
        got.save(&new).unwrap();
        let differ = want
            .pixels()
            .zip(got.pixels())
            .filter(|(a, b)| a != b)
            .count();
        panic!(
            "the preview of {name} changed ({differ} pixels); see {}",
            new.display()
        );
    }
}

#[test]
fn preview_of_a_rect_maze() {
    let d = Design {
        width: 12,
        height: 12,
        seed: Some(3),
        ..Design::default()
    };
    check("rect", &d, false, Show::default());
}

#[test]
fn preview_of_the_hex_cat_with_its_mask() {
    let d = Design {
        kind: Kind::Walls(Walls {
            topology: TopologyKind::Hex,
            ..Walls::DEFAULT
        }),
        width: 30,
        seed: Some(7),
        shape: Some(ShapeSource::Builtin("cat".into())),
        ..Design::default()
    };
    check(
        "hex-cat-mask",
        &d,
        false,
        Show {
            crossings: false,
            mask: true,
        },
    );
}

#[test]
fn preview_of_weave_crossings_shown_on_the_key() {
    let d = Design {
        kind: Kind::Walls(Walls {
            weave: 0.5,
            ..Walls::DEFAULT
        }),
        width: 10,
        height: 10,
        seed: Some(5),
        ..Design::default()
    };
    check(
        "weave-key-crossings",
        &d,
        true,
        Show {
            crossings: true,
            mask: false,
        },
    );
}
