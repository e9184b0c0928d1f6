//! A cover of its own (issue 59, item 6): `cover = { background, text_colour, front, badge,
//! logo }` through `hedge batch` as a publisher runs it. The colours are in `cover.pdf`'s
//! content (read back with lopdf, not Hedge's code), the artwork inside the front's safe area,
//! the logo in the lower back left of the barcode area, the preflight clean under `--strict`,
//! every bad value refused in one line naming its field, and a cover without the options the
//! same bytes as before.

use std::fs;
use std::path::Path;

use crate::common::{assert_ok, hedge, pdf_texts, stderr_of};

/// A book of `count` 3 x 3 mazes on 6 x 9 in, each with its key after it; `cover` is the
/// `cover = { ... }` table's inside.
fn book(cover: &str, count: usize) -> String {
    format!(
        "[book]\ntitle = \"Animal Mazes\"\nsubtitle = \"For ages 4 to 8\"\nauthor = \"Ada Lovelace\"\n\
         year = 2026\ntrim = \"6x9\"\nanswers = \"after-each\"\ncover = {{ {cover} }}\n\n\
         [[pages]]\ncount = {count}\nseed_from = 1\nwidth = 3\nheight = 3\n"
    )
}

/// Artwork in two colours no other part of a cover uses: an orange disc, a teal square.
const ART: &str = r##"<svg xmlns="http://www.w3.org/2000/svg" width="400" height="300">
<circle cx="150" cy="150" r="140" fill="#e4572e"/>
<rect x="250" y="100" width="140" height="190" fill="#17bebb"/></svg>"##;

/// A logo in a purple of its own.
const LOGO: &str = r##"<svg xmlns="http://www.w3.org/2000/svg" width="200" height="100">
<rect x="0" y="0" width="200" height="100" rx="20" fill="#6a4c93"/></svg>"##;

/// `hedge batch` of the book `text` (written beside `art.svg` and `logo.svg`) into `dir/out`,
/// with a fixed date so two builds can be compared byte for byte.
fn batch(dir: &Path, name: &str, text: &str, strict: bool) -> std::process::Output {
    fs::write(dir.join("art.svg"), ART).unwrap();
    fs::write(dir.join("logo.svg"), LOGO).unwrap();
    let path = dir.join(format!("{name}.toml"));
    fs::write(&path, text).unwrap();
    let mut c = hedge();
    c.env("SOURCE_DATE_EPOCH", "1700000000")
        .arg("batch")
        .arg(&path)
        .arg("-o")
        .arg(dir.join(name));
    if strict {
        c.arg("--strict");
    }
    c.output().unwrap()
}

/// The paths filled in one colour of the cover's content stream: the box of each, in inches
/// from the page's top left.
#[derive(Debug, Default)]
struct Painted {
    boxes: Vec<[f64; 4]>,
}

/// Each fill colour (`rg`, as 0-255 channels) of the single page of `pdf`, with the boxes of
/// the paths filled in it; and the page's height in points.
fn fills(pdf: &[u8]) -> (Vec<([u8; 3], Painted)>, f64) {
    let doc = lopdf::Document::load_mem(pdf).unwrap();
    let id = *doc.get_pages().values().next().unwrap();
    let page = doc.get_dictionary(id).unwrap();
    let media: Vec<f64> = page
        .get(b"MediaBox")
        .unwrap()
        .as_array()
        .unwrap()
        .iter()
        .map(|o| {
            o.as_float()
                .map(f64::from)
                .unwrap_or_else(|_| o.as_i64().unwrap() as f64)
        })
        .collect();
    let height = media[3] - media[1];
    let content = doc.get_page_content(id);
    let text = String::from_utf8_lossy(&content);
    let mut out: Vec<([u8; 3], Painted)> = Vec::new();
    let mut nums: Vec<f64> = Vec::new();
    let mut fill = [0u8; 3];
    let mut path: Vec<(f64, f64)> = Vec::new();
    for tok in text.split_whitespace() {
        if let Ok(v) = tok.parse::<f64>() {
            nums.push(v);
            continue;
        }
        match tok {
            "rg" if nums.len() >= 3 => {
                let n = nums.len();
                let ch = |v: f64| (v * 255.0).round() as u8;
                fill = [ch(nums[n - 3]), ch(nums[n - 2]), ch(nums[n - 1])];
            }
            "g" if !nums.is_empty() => {
                let v = (nums[nums.len() - 1] * 255.0).round() as u8;
                fill = [v, v, v];
            }
            "m" | "l" | "c" if nums.len() >= 2 => {
                for p in nums.chunks(2) {
                    path.push((p[0], p[1]));
                }
            }
            "f" | "f*" => {
                let mut b = [f64::MAX, f64::MAX, f64::MIN, f64::MIN];
                for &(x, y) in &path {
                    let (x, y) = (x / 72.0, (height - y) / 72.0);
                    b = [b[0].min(x), b[1].min(y), b[2].max(x), b[3].max(y)];
                }
                if !path.is_empty() {
                    match out.iter_mut().find(|(c, _)| *c == fill) {
                        Some((_, p)) => p.boxes.push(b),
                        None => out.push((fill, Painted { boxes: vec![b] })),
                    }
                }
                path.clear();
            }
            "S" | "n" => path.clear(),
            _ => {}
        }
        nums.clear();
    }
    (out, height / 72.0)
}

/// The boxes of the paths filled in `colour`, or none.
fn filled(fills: &[([u8; 3], Painted)], colour: [u8; 3]) -> &[[f64; 4]] {
    fills
        .iter()
        .find(|(c, _)| *c == colour)
        .map_or(&[][..], |(_, p)| &p.boxes[..])
}

/// The text colours (`rg` inside `BT ... ET`) of `pdf`'s page.
fn text_colours(pdf: &[u8]) -> Vec<[u8; 3]> {
    let doc = lopdf::Document::load_mem(pdf).unwrap();
    let id = *doc.get_pages().values().next().unwrap();
    let content = doc.get_page_content(id);
    let text = String::from_utf8_lossy(&content);
    let mut out = Vec::new();
    let mut nums: Vec<f64> = Vec::new();
    let mut inside = false;
    for tok in text.split_whitespace() {
        if let Ok(v) = tok.parse::<f64>() {
            nums.push(v);
            continue;
        }
        match tok {
            "BT" => inside = true,
            "ET" => inside = false,
            "rg" if inside && nums.len() >= 3 => {
                let n = nums.len();
                let ch = |v: f64| (v * 255.0).round() as u8;
                let c = [ch(nums[n - 3]), ch(nums[n - 2]), ch(nums[n - 1])];
                if !out.contains(&c) {
                    out.push(c);
                }
            }
            _ => {}
        }
        nums.clear();
    }
    out
}

/// The manifest's preflight check named `name`.
fn check(out: &Path, name: &str) -> serde_json::Value {
    let m: serde_json::Value =
        serde_json::from_slice(&fs::read(out.join("manifest.json")).unwrap()).unwrap();
    m["preflight"]["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == name)
        .cloned()
        .unwrap_or_else(|| panic!("no {name} check: {m}"))
}

const OWN: &str = "paper = \"white\", back_text = \"Twenty-five little mazes.\", \
                   background = \"#FFF3C4\", text_colour = \"#1b2a49\", front = \"art.svg\", \
                   badge = \"Ages 4-8\", logo = \"logo.svg\"";

/// The cover's own colours, artwork, badge and logo, where a printer wants them, and clean
/// under `--strict`; the manifest records the options and the pictures' digests.
#[test]
fn a_cover_of_its_own_has_its_colours_artwork_badge_and_logo_in_the_safe_areas() {
    let dir = tempfile::tempdir().unwrap();
    let run = batch(dir.path(), "own", &book(OWN, 25), true);
    assert_ok(&run);
    let out = dir.path().join("own");
    let c = check(&out, "cover");
    assert_eq!(c["ok"], true, "{c}");
    let pdf = fs::read(out.join("cover.pdf")).unwrap();
    let (fills, height) = fills(&pdf);
    // the ground over the whole wrap, bleed included
    let ground = filled(&fills, [0xff, 0xf3, 0xc4]);
    assert!(!ground.is_empty(), "no ground in {fills:?}");
    let pages = 50; // 25 puzzles, each with its key after it
    let spine = pages as f64 * 0.002252;
    let width = 0.25 + 12.0 + spine;
    assert!(
        ground
            .iter()
            .any(|b| b[0].abs() < 1e-3 && b[1].abs() < 1e-3 && (b[2] - width).abs() < 1e-3),
        "{ground:?}"
    );
    assert!((height - 9.25).abs() < 1e-3);
    // the default green is gone; every text in the chosen colour
    assert!(filled(&fills, [28, 92, 70]).is_empty());
    let inks = text_colours(&pdf);
    assert!(inks.contains(&[0x1b, 0x2a, 0x49]), "{inks:?}");
    // the artwork inside the front's safe area, as large as the room between the texts allows
    let front = [
        0.125 + 6.0 + spine + 0.25,
        0.125 + 0.25,
        0.125 + 6.0 + spine + 6.0 - 0.25,
        0.125 + 9.0 - 0.25,
    ];
    let within = |b: &[f64; 4], a: &[f64; 4]| {
        b[0] >= a[0] - 1e-3 && b[1] >= a[1] - 1e-3 && b[2] <= a[2] + 1e-3 && b[3] <= a[3] + 1e-3
    };
    let mut art = [f64::MAX, f64::MAX, f64::MIN, f64::MIN];
    for colour in [[0xe4, 0x57, 0x2e], [0x17, 0xbe, 0xbb]] {
        let boxes = filled(&fills, colour);
        assert!(!boxes.is_empty(), "the artwork's {colour:?} is not drawn");
        for b in boxes {
            assert!(
                within(b, &front),
                "{b:?} outside the front's safe area {front:?}"
            );
            art = [
                art[0].min(b[0]),
                art[1].min(b[1]),
                art[2].max(b[2]),
                art[3].max(b[3]),
            ];
        }
    }
    // 400 x 300: its aspect kept, and large (over half the safe width)
    let (w, h) = (art[2] - art[0], art[3] - art[1]);
    assert!((w / h - 390.0 / 290.0).abs() < 0.02, "{w} x {h}");
    assert!(w > 2.75, "{w} in across");
    // the logo on the lower back, left of the barcode area (2 x 1.2 in, 0.25 in from the
    // spine fold and the foot), inside the back's safe area
    let logo = filled(&fills, [0x6a, 0x4c, 0x93]);
    assert_eq!(logo.len(), 1, "{logo:?}");
    let barcode_left = 0.125 + 6.0 - 0.25 - 2.0;
    let back = [0.375, 0.375, 0.125 + 6.0 - 0.25, 0.125 + 9.0 - 0.25];
    assert!(within(&logo[0], &back), "{logo:?}");
    assert!(logo[0][2] < barcode_left, "{logo:?}");
    assert!(logo[0][1] >= 0.125 + 9.0 - 0.25 - 1.2 - 1e-3, "{logo:?}");
    // the badge: a disc in the text's colour on the front (and again on the lower back), its
    // words in the ground's colour
    let discs = filled(&fills, [0x1b, 0x2a, 0x49]);
    assert!(discs.iter().any(|b| within(b, &front)), "{discs:?}");
    assert!(
        discs
            .iter()
            .any(|b| within(b, &back) && b[2] < barcode_left),
        "{discs:?}"
    );
    assert!(inks.contains(&[0xff, 0xf3, 0xc4]), "{inks:?}");
    let words = pdf_texts(&pdf).concat();
    for w in ["Ages", "4-8", "Animal Mazes", "Twenty-five little mazes."] {
        assert!(words.contains(w), "{w:?} in {words:?}");
    }
    // nothing in the barcode area but the ground
    let barcode = [
        barcode_left,
        0.125 + 9.0 - 0.25 - 1.2,
        0.125 + 6.0 - 0.25,
        9.125 - 0.25,
    ];
    for (colour, p) in &fills {
        if colour == &[0xff, 0xf3, 0xc4] {
            continue;
        }
        for b in &p.boxes {
            let apart = b[2] <= barcode[0] || b[0] >= barcode[2] || b[3] <= barcode[1];
            assert!(
                apart || b[1] >= barcode[3],
                "{colour:?} {b:?} in the barcode area"
            );
        }
    }
    // the manifest records the options (the paths as given) and the pictures' digests
    let m: serde_json::Value =
        serde_json::from_slice(&fs::read(out.join("manifest.json")).unwrap()).unwrap();
    let cover = &m["settings"]["cover"];
    assert_eq!(cover["background"], "#FFF3C4", "{cover}");
    assert_eq!(cover["text_colour"], "#1b2a49");
    assert_eq!(cover["front"], "art.svg");
    assert_eq!(cover["logo"], "logo.svg");
    assert_eq!(cover["badge"], "Ages 4-8");
    let pictures = m["pictures"].to_string();
    assert!(
        pictures.contains("art.svg") && pictures.contains("logo.svg"),
        "{pictures}"
    );
}

/// A cover without the new options is the cover it was, byte for byte: the default green
/// given as `background` draws the same `cover.pdf`, and the manifest names no option.
#[test]
fn a_cover_without_its_own_options_is_unchanged() {
    let dir = tempfile::tempdir().unwrap();
    let plain = "paper = \"cream\", back_text = \"Small mazes.\"";
    assert_ok(&batch(dir.path(), "plain", &book(plain, 12), false));
    let green = format!("{plain}, background = \"#1c5c46\"");
    assert_ok(&batch(dir.path(), "green", &book(&green, 12), false));
    let a = fs::read(dir.path().join("plain/cover.pdf")).unwrap();
    let b = fs::read(dir.path().join("green/cover.pdf")).unwrap();
    assert!(a == b, "the default colour given draws another cover");
    let (fills, _) = fills(&a);
    assert!(!filled(&fills, [28, 92, 70]).is_empty());
    assert!(text_colours(&a).contains(&[255, 214, 92]));
    let m: serde_json::Value =
        serde_json::from_slice(&fs::read(dir.path().join("plain/manifest.json")).unwrap()).unwrap();
    let cover = m["settings"]["cover"].as_object().unwrap();
    let mut keys: Vec<&str> = cover.keys().map(String::as_str).collect();
    keys.sort_unstable();
    assert_eq!(keys, ["back_text", "paper"]);
}

/// Every bad value is refused before anything is made, in one line naming its field.
#[test]
fn bad_cover_values_are_refused_in_one_line_naming_the_field() {
    let dir = tempfile::tempdir().unwrap();
    let png: &[u8] = &[
        0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, b'I', b'H', b'D', b'R',
    ];
    fs::write(dir.path().join("photo.png"), png).unwrap();
    fs::write(
        dir.path().join("empty.svg"),
        "<svg xmlns=\"http://www.w3.org/2000/svg\"/>",
    )
    .unwrap();
    for (table, want) in [
        (
            "background = \"green\"",
            "book.cover.background: \"green\" is not a colour; give \"#RRGGBB\"",
        ),
        (
            "background = \"#12345\"",
            "book.cover.background: \"#12345\"",
        ),
        (
            "text_colour = \"#1c5c4g\"",
            "book.cover.text_colour: \"#1c5c4g\"",
        ),
        (
            "text_colour = \"#2a6a55\"",
            "book.cover.text_colour: the title (#2a6a55) on the ground (#1c5c46) has a \
             contrast of 1.2 to 1; the cover's text needs at least 4.5 to 1 (WCAG)",
        ),
        (
            "background = \"#fff3c4\"",
            "book.cover.background: the other text (#ffffff) on the ground (#fff3c4) has a \
             contrast of 1.1 to 1",
        ),
        (
            "badge = \"Ages four to eight, too\"",
            "book.cover.badge: 23 characters; a badge holds at most 20",
        ),
        ("badge = \"Ages\\n4-8\"", "book.cover.badge: one short line"),
        ("badge = \"  \"", "book.cover.badge: one short line"),
        (
            "front = \"missing.svg\"",
            "book.cover.front: cannot read the picture",
        ),
        (
            "front = \"photo.png\"",
            "book.cover.front: the PNG image is ",
        ),
        ("logo = \"empty.svg\"", "book.cover.logo: "),
        ("colour = \"#ffffff\"", "unknown field `colour`"),
    ] {
        let run = batch(
            dir.path(),
            "bad",
            &book(&format!("paper = \"white\", {table}"), 3),
            false,
        );
        assert!(!run.status.success(), "{table}");
        let err = stderr_of(&run);
        assert_eq!(err.trim().lines().count(), 1, "{table}: {err}");
        assert!(err.starts_with("error: "), "{table}: {err}");
        assert!(err.contains(want), "{table}: {err}");
        assert!(
            !dir.path().join("bad").exists(),
            "{table}: a refused book was written"
        );
    }
}

/// The images of the one-page `pdf`: (width, height, whether it has a soft mask, its colour
/// space) of each image XObject, and each `Do` of the page's content with the box its `cm`
/// puts it in (inches from the page's top left: x0, y0, x1, y1).
#[allow(clippy::type_complexity)]
fn images(pdf: &[u8]) -> (Vec<(i64, i64, bool, String)>, Vec<(String, [f64; 4])>) {
    let doc = lopdf::Document::load_mem(pdf).unwrap();
    let mut found: Vec<(i64, i64, bool, String)> = doc
        .objects
        .values()
        .filter_map(|o| o.as_stream().ok())
        .map(|s| &s.dict)
        .filter(|d| d.get(b"Subtype").and_then(|s| s.as_name()).ok() == Some(b"Image"))
        .map(|d| {
            (
                d.get(b"Width").unwrap().as_i64().unwrap(),
                d.get(b"Height").unwrap().as_i64().unwrap(),
                d.get(b"SMask").is_ok(),
                String::from_utf8_lossy(d.get(b"ColorSpace").unwrap().as_name().unwrap())
                    .to_string(),
            )
        })
        .collect();
    found.sort();
    let (_, height) = fills(pdf);
    let id = *doc.get_pages().values().next().unwrap();
    let content = String::from_utf8_lossy(&doc.get_page_content(id)).to_string();
    let words: Vec<&str> = content.split_whitespace().collect();
    let mut placed = Vec::new();
    for (i, w) in words.iter().enumerate() {
        if *w == "cm" && words.get(i + 2) == Some(&"Do") {
            let n: Vec<f64> = words[i - 6..i].iter().map(|v| v.parse().unwrap()).collect();
            let (w, h, x, y) = (n[0] / 72.0, n[3] / 72.0, n[4] / 72.0, n[5] / 72.0);
            placed.push((
                words[i + 1].to_string(),
                [x, height - y - h, x + w, height - y],
            ));
        }
    }
    (found, placed)
}

/// Artwork and a logo given as PNG pictures (a publisher's art is often painted, not drawn
/// in SVG; issue 59, item 6): `cover.pdf` holds each at its own resolution (checked with
/// lopdf and poppler's `pdfimages`), the logo's transparency as a soft mask, placed where the
/// SVG art goes and printed at 300 dpi or more; the page rendered by poppler shows them; the
/// same book gives the same bytes. A picture that would print under 300 dpi fails the
/// preflight's cover check in one line, and `--strict` refuses the book.
#[test]
fn raster_artwork_prints_at_its_own_resolution_and_a_blurry_one_is_refused_under_strict() {
    let dir = tempfile::tempdir().unwrap();
    let (orange, teal, purple) = ([0xe4, 0x57, 0x2e], [0x17, 0xbe, 0xbb], [0x6a, 0x4c, 0x93]);
    // 1800 x 1350: orange, its right third teal
    image::RgbImage::from_fn(1800, 1350, |x, _| {
        image::Rgb(if x >= 1200 { teal } else { orange })
    })
    .save(dir.path().join("art.png"))
    .unwrap();
    // 600 x 300: purple, its corners transparent
    image::RgbaImage::from_fn(600, 300, |x, y| {
        let corner = !(40..560).contains(&x) && !(40..260).contains(&y);
        image::Rgba(if corner {
            [0, 0, 0, 0]
        } else {
            [purple[0], purple[1], purple[2], 255]
        })
    })
    .save(dir.path().join("logo.png"))
    .unwrap();
    image::RgbImage::from_pixel(300, 225, image::Rgb(orange))
        .save(dir.path().join("small.png"))
        .unwrap();
    let own = "paper = \"white\", front = \"art.png\", logo = \"logo.png\", badge = \"Ages 4-8\"";
    assert_ok(&batch(dir.path(), "photo", &book(own, 12), true));
    let out = dir.path().join("photo");
    let c = check(&out, "cover");
    assert_eq!(c["ok"], true, "{c}");
    let pdf = fs::read(out.join("cover.pdf")).unwrap();
    let (found, placed) = images(&pdf);
    assert_eq!(
        found,
        [
            (600, 300, false, "DeviceGray".to_string()),
            (600, 300, true, "DeviceRGB".to_string()),
            (1800, 1350, false, "DeviceRGB".to_string()),
        ]
    );
    assert_eq!(placed.len(), 2, "{placed:?}");
    let spine = 24.0 * 0.002252;
    let front = [
        6.125 + spine + 0.25,
        0.375,
        6.125 + spine + 6.0 - 0.25,
        9.125 - 0.25,
    ];
    let back = [0.375, 0.375, 6.125 - 0.25, 9.125 - 0.25];
    let within = |b: &[f64; 4], a: &[f64; 4]| {
        b[0] >= a[0] - 1e-3 && b[1] >= a[1] - 1e-3 && b[2] <= a[2] + 1e-3 && b[3] <= a[3] + 1e-3
    };
    let (art, logo) = if placed[0].1[0] > placed[1].1[0] {
        (placed[0].1, placed[1].1)
    } else {
        (placed[1].1, placed[0].1)
    };
    assert!(within(&art, &front), "{art:?} in {front:?}");
    assert!(
        (art[2] - art[0]) / (art[3] - art[1]) - 4.0 / 3.0 < 0.01,
        "{art:?}"
    );
    let dpi = 1800.0 / (art[2] - art[0]);
    assert!(dpi >= 300.0 && art[2] - art[0] > 4.0, "{dpi} dpi, {art:?}");
    assert!(within(&logo, &back), "{logo:?}");
    assert!(
        logo[2] < 6.125 - 0.25 - 2.0,
        "{logo:?} reaches the barcode area"
    );
    assert!(600.0 / (logo[2] - logo[0]) >= 300.0, "{logo:?}");
    // poppler lists the same images, the art at its resolution
    if let Ok(list) = std::process::Command::new("pdfimages")
        .arg("-list")
        .arg(out.join("cover.pdf"))
        .output()
    {
        let text = String::from_utf8_lossy(&list.stdout).to_string();
        let rows: Vec<Vec<&str>> = text
            .lines()
            .skip(2)
            .map(|l| l.split_whitespace().collect())
            .collect();
        let art_row = rows
            .iter()
            .find(|r| r[3] == "1800")
            .expect("the art listed");
        let ppi: f64 = art_row[12].parse().unwrap();
        assert!((ppi - dpi).abs() < 2.0, "{text}");
        assert!(rows.iter().any(|r| r[2] == "smask"), "{text}");
    }
    // rendered: the art's colours where it was placed, the logo's purple on the back
    let png = dir.path().join("cover");
    let run = std::process::Command::new("pdftoppm")
        .args(["-r", "20", "-png", "-singlefile"])
        .arg(out.join("cover.pdf"))
        .arg(&png)
        .status();
    if run.is_ok_and(|s| s.success()) {
        let img = image::open(png.with_extension("png")).unwrap().to_rgb8();
        let at = |x: f64, y: f64| img.get_pixel((x * 20.0) as u32, (y * 20.0) as u32).0;
        let near = |a: [u8; 3], b: [u8; 3]| a.iter().zip(b).all(|(p, q)| p.abs_diff(q) < 12);
        let mid_y = (art[1] + art[3]) / 2.0;
        let third = (art[2] - art[0]) / 3.0;
        assert!(near(at(art[0] + third, mid_y), orange));
        assert!(near(at(art[2] - third / 2.0, mid_y), teal));
        assert!(near(
            at((logo[0] + logo[2]) / 2.0, (logo[1] + logo[3]) / 2.0),
            purple
        ));
    }
    // the same book, the same bytes
    assert_ok(&batch(dir.path(), "again", &book(own, 12), true));
    assert!(pdf == fs::read(dir.path().join("again/cover.pdf")).unwrap());
    // 300 pixels across the front's art: under 300 dpi
    let blurry = "paper = \"white\", front = \"small.png\"";
    let run = batch(dir.path(), "blurry", &book(blurry, 12), false);
    assert_ok(&run);
    let c = check(&dir.path().join("blurry"), "cover");
    assert_eq!(c["ok"], false, "{c}");
    let text = c["text"].as_str().unwrap();
    assert!(
        text.starts_with("the cover's front picture prints at ")
            && text.contains(" dpi (300 x 225 pixels over ")
            && text.ends_with("print needs 300 dpi: give a larger picture or an SVG"),
        "{text}"
    );
    let run = batch(dir.path(), "refused", &book(blurry, 12), true);
    assert!(!run.status.success());
    let err = stderr_of(&run);
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(err.contains("prints at "), "{err}");
    assert!(!dir.path().join("refused").exists());
}
