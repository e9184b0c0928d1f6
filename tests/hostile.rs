//! Hostile input (issue 20): pictures made to take minutes or all memory, values and file
//! names with control characters, warnings before a failure, and the design-file checks. One
//! test per finding, named after it; each failed (hung, aborted or passed silently) before its
//! fix. The SVG budget refuses before drawing, so these run in well under a second each.

use std::fmt::Write as _;

use hedge::load::parse_design;
use hedge::shape::Picture;

use crate::common::{hedge, stderr_of};

const NS: &str = r#"xmlns="http://www.w3.org/2000/svg""#;

/// A 100 x 100 SVG holding `body`.
fn svg(body: &str) -> Vec<u8> {
    format!(r#"<svg {NS} width="100" height="100">{body}</svg>"#).into_bytes()
}

fn refusal(bytes: &[u8]) -> String {
    let e = Picture::decode(bytes).expect_err("the SVG is refused");
    assert!(!e.message.contains('\n'), "{e}");
    e.message
}

#[test]
fn svg_filters_are_ignored_not_run() {
    // 205 bytes: radius 4 in a 100-unit picture drawn 2048 wide ran past 20 s
    let morph = br#"<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100"><filter id="f" x="-1" y="-1" width="3" height="3"><feMorphology radius="4"/></filter><rect width="100" height="100" filter="url(#f)"/></svg>"#;
    assert_eq!(morph.len(), 205);
    // 1000 octaves overflowed (a panic in a debug build; minutes in a release one)
    let turbulence = svg(
        r#"<filter id="f"><feTurbulence baseFrequency="0.05" numOctaves="1000"/></filter><rect width="50" height="100" filter="url(#f)"/>"#,
    );
    // 500 chained blurs took 1.7 GB at 20 s; 1,200 named floods aborted the process
    let mut blurs = String::from(r#"<filter id="f">"#);
    for i in 0..500 {
        let input = if i == 0 {
            "SourceGraphic".to_string()
        } else {
            format!("r{}", i - 1)
        };
        write!(
            blurs,
            r#"<feGaussianBlur stdDeviation="5" in="{input}" result="r{i}"/>"#
        )
        .unwrap();
    }
    blurs.push_str(r#"</filter><rect width="50" height="100" filter="url(#f)"/>"#);
    let mut floods = String::from(r#"<filter id="f">"#);
    for i in 0..1200 {
        write!(floods, r#"<feFlood flood-color="red" result="f{i}"/>"#).unwrap();
    }
    floods
        .push_str(r#"</filter><rect width="50" height="100" style="filter: url(#f) !important"/>"#);
    for bytes in [morph.to_vec(), turbulence, svg(&blurs), svg(&floods)] {
        let p = Picture::decode(&bytes).expect("decoded without its filters");
        // the shape itself is drawn as it is, without the effect
        assert_eq!(p.pixel(10, 10), [0, 0, 0, 255]);
        if p.width() == 2048 && bytes.len() != 205 {
            assert_eq!(
                p.pixel(2000, 10)[3],
                0,
                "the filter did not spread the rect"
            );
        }
    }
}

#[test]
fn svg_markers_are_ignored_not_copied_onto_every_vertex() {
    // 20,000 vertices x 100 rects a marker made 2 million paths (1 GB, 17 s) while parsing
    let points: String = (1..20_000)
        .map(|i| format!("L{},{} ", i % 100, i / 100))
        .collect();
    let rects: String = (0..100)
        .map(|j| format!(r#"<rect x="{j}" width="1" height="1"/>"#))
        .collect();
    let bytes = svg(&format!(
        r#"<marker id="m" markerWidth="10" markerHeight="10">{rects}</marker><path d="M0,0 {points}" marker-mid="url(#m)" stroke="black" fill="none"/>"#
    ));
    Picture::decode(&bytes).expect("decoded without its markers");
}

#[test]
fn svg_with_too_many_elements_is_refused_with_the_count() {
    // 100,000 circles took 3.4 s; 51,000 shapes through <use> are counted once expanded
    let mut body = String::from(r#"<defs><g id="row">"#);
    for i in 0..1000 {
        write!(body, r#"<circle cx="{}" cy="1" r="0.05"/>"#, i % 100).unwrap();
    }
    body.push_str("</g></defs>");
    for i in 0..51 {
        write!(body, r##"<use href="#row" y="{i}"/>"##).unwrap();
    }
    let e = refusal(&svg(&body));
    assert!(
        e.starts_with("the SVG is too complex to rasterise: 51,"),
        "{e}"
    );
    assert!(e.ends_with("elements (the limit is 50,000)"), "{e}");
}

#[test]
fn svg_layers_clips_masks_and_tiles_past_the_budget_are_refused() {
    // 40 half-transparent layers the size of the picture took 12.8 s
    let layers: String = (0..40)
        .map(|i| {
            format!(
                r#"<g opacity="0.5"><rect x="{}" width="100" height="100"/></g>"#,
                i % 3
            )
        })
        .collect();
    // 30 masks took 25 s
    let masks: String = (0..30)
        .map(|i| {
            format!(
                r#"<mask id="m{i}"><rect width="100" height="100" fill="white"/></mask><rect width="100" height="100" mask="url(#m{i})"/>"#
            )
        })
        .collect();
    // ten nested layers five times the picture's size took 24 s
    let nested = format!(
        "{}<rect x=\"-100\" y=\"-100\" width=\"300\" height=\"300\"/>{}",
        r#"<g opacity="0.9">"#.repeat(10),
        "</g>".repeat(10)
    );
    for body in [layers, masks, nested] {
        let e = refusal(&svg(&body));
        assert!(
            e.starts_with("the SVG is too complex to rasterise: ")
                && e.contains("million pixel operations (the limit is 1,200 million)"),
            "{e}"
        );
    }
    // a pattern tile of 100,000 units a side asked for 16 TB and aborted the process
    let tile = svg(
        r#"<pattern id="p" width="100000" height="100000" patternUnits="userSpaceOnUse"><rect width="50" height="50"/></pattern><rect width="100" height="100" fill="url(#p)"/>"#,
    );
    let e = refusal(&tile);
    assert!(
        e.starts_with("the SVG is too complex to rasterise: "),
        "{e}"
    );
}

#[test]
fn svg_use_bombs_and_huge_texts_are_refused() {
    let mut bomb = String::from(r#"<defs><circle id="a0" r="1" cx="5" cy="5"/>"#);
    for i in 1..8 {
        bomb.push_str(&format!(r#"<g id="a{i}">"#));
        for j in 0..10 {
            bomb.push_str(&format!(r##"<use href="#a{}" x="{j}"/>"##, i - 1));
        }
        bomb.push_str("</g>");
    }
    bomb.push_str(r##"</defs><use href="#a7"/>"##);
    // ten million circles: refused from the XML, before usvg makes a single copy
    let e = refusal(&svg(&bomb));
    assert_eq!(
        e,
        "the SVG is too complex to rasterise: more than 150,000 elements once <use>, patterns, \
         clips and masks are expanded"
    );
    // nesting deeper than the parser's recursion allows
    let deep = svg(&format!(
        "{}<rect/>{}",
        "<g>".repeat(5000),
        "</g>".repeat(5000)
    ));
    let e = refusal(&deep);
    assert!(e.ends_with("elements nested more than 1024 deep"), "{e}");
    // a flat file of 300,000 circles is refused as it is read
    let flat = svg(&r#"<circle r="1"/>"#.repeat(300_000));
    let e = refusal(&flat);
    assert!(e.ends_with("more than 250,000 XML nodes"), "{e}");
    let mut big = svg("");
    big.truncate(big.len() - "</svg>".len());
    big.resize(hedge::shape::svg::MAX_SVG_BYTES + 10, b' ');
    big.extend_from_slice(b"</svg>");
    let e = refusal(&big);
    assert!(e.contains("MB of text (the limit is 32 MB)"), "{e}");
}

/// Issue 40: a circle of radius 1e10 to 1e30 (106 bytes) panicked in tiny-skia's scan
/// converter; geometry that far out is refused before anything is drawn, on the command line
/// too (one line, exit 1, no panic).
#[test]
fn svg_geometry_far_outside_the_picture_is_refused_not_a_panic() {
    for r in ["1e10", "1e20", "1e30"] {
        let bytes = svg(&format!(r#"<circle cx="50" cy="50" r="{r}"/>"#));
        let e = refusal(&bytes);
        assert!(e.contains("far outside its picture"), "{r}: {e}");
    }
    // a shape beside one that far out: refused all the same
    let e = refusal(&svg(
        r#"<circle cx="50" cy="50" r="40"/><rect x="-1e12" width="1" height="1"/>"#,
    ));
    assert!(e.contains("far outside its picture"), "{e}");
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("far.svg");
    std::fs::write(&path, svg(r#"<circle cx="50" cy="50" r="1e10"/>"#)).unwrap();
    let out = hedge()
        .args(["generate", "--width", "8", "--shape"])
        .arg(&path)
        .arg("-o")
        .arg(dir.path().join("m.json"))
        .output()
        .unwrap();
    let err = stderr_of(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("far outside its picture") && !err.contains("panicked"),
        "{err}"
    );
    assert!(!dir.path().join("m.json").exists());
}

/// Issue 40: `--text $'\uffff'` said "the SVG image is corrupt" (the text is set as an SVG);
/// an SVG whose `<svg` came after a 4 KB comment was "not a picture".
#[test]
fn messages_blame_the_text_and_long_svg_preambles_are_read() {
    for (text, code) in [
        ("\u{ffff}", "U+FFFF"),
        ("Zo\u{7}e", "U+0007"),
        ("a\u{fdd0}", "U+FDD0"),
    ] {
        let out = hedge()
            .args(["generate", "--width", "8", "--text", text])
            .output()
            .unwrap();
        let err = stderr_of(&out);
        assert_eq!(out.status.code(), Some(1), "{err}");
        assert!(
            err.contains("has characters that are no letters") && err.contains(code),
            "{err}"
        );
    }
    let mut late = format!("<?xml version=\"1.0\"?>\n<!-- {} -->\n", "x".repeat(5000));
    late.push_str(std::str::from_utf8(&svg(r#"<circle cx="50" cy="50" r="40"/>"#)).unwrap());
    let p = Picture::decode(late.as_bytes()).expect("an SVG after a long comment");
    assert!(p.width() > 0);
}

#[test]
fn ordinary_svgs_stay_well_inside_the_budget() {
    for name in hedge::shape::builtin::names() {
        let bytes = hedge::shape::builtin::get(name).unwrap();
        let tree = hedge::shape::svg::parse(bytes).unwrap();
        let s = tree.size();
        let scale = 2048.0 / s.width().max(s.height());
        let ts = resvg::tiny_skia::Transform::from_scale(scale, scale);
        let cost = hedge::shape::svg::measure(&tree, ts, 2048, 2048).unwrap();
        assert!(
            cost.pixel_work < hedge::shape::svg::MAX_SVG_PIXEL_WORK / 20,
            "{name}: {cost:?}"
        );
    }
}

/// A PNG header and empty data claiming `width` x `height` pixels of `color` type, 8 bits.
fn png_header(width: u32, height: u32, color: u8) -> Vec<u8> {
    png_header_bits(width, height, color, 8)
}

/// [`png_header`] for RGBA at 16 bits a sample.
fn png_header16(width: u32, height: u32) -> Vec<u8> {
    png_header_bits(width, height, 6, 16)
}

/// A PNG header and empty data claiming `width` x `height` pixels of `color` type, `bits` a
/// sample.
fn png_header_bits(width: u32, height: u32, color: u8, bits: u8) -> Vec<u8> {
    fn crc(bytes: &[u8]) -> u32 {
        let mut c = !0u32;
        for &b in bytes {
            c ^= u32::from(b);
            for _ in 0..8 {
                c = if c & 1 == 1 {
                    (c >> 1) ^ 0xEDB8_8320
                } else {
                    c >> 1
                };
            }
        }
        !c
    }
    let mut ihdr = b"IHDR".to_vec();
    ihdr.extend_from_slice(&width.to_be_bytes());
    ihdr.extend_from_slice(&height.to_be_bytes());
    ihdr.extend_from_slice(&[bits, color, 0, 0, 0]);
    let mut png = b"\x89PNG\r\n\x1a\n".to_vec();
    png.extend_from_slice(&13u32.to_be_bytes());
    png.extend_from_slice(&ihdr);
    png.extend_from_slice(&crc(&ihdr).to_be_bytes());
    for chunk in [&b"IDAT"[..], b"IEND"] {
        png.extend_from_slice(&0u32.to_be_bytes());
        png.extend_from_slice(chunk);
        png.extend_from_slice(&crc(chunk).to_be_bytes());
    }
    png
}

#[test]
fn huge_pngs_are_refused_by_their_pixel_data_before_decoding() {
    // 20,000 x 20,000 RGBA: 1.6 GB to inflate (a 500 KB file took minutes)
    let e = Picture::decode(&png_header(20_000, 20_000, 6)).unwrap_err();
    assert!(
        e.message
            .contains("20000 x 20000 pixels, 1526 MB of pixel data; the limit is 512 MB"),
        "{e}"
    );
    // 8192 x 8192 RGBA at 16 bits a sample: 512 MB and its rows' filter bytes, just over the
    // limit, said as over it (it read "512 MB ... the limit is 512 MB")
    let e = Picture::decode(&png_header16(8192, 8192)).unwrap_err();
    assert!(
        e.message
            .contains("8192 x 8192 pixels, 513 MB of pixel data; the limit is 512 MB"),
        "{e}"
    );
}

#[test]
fn big_pictures_are_sampled_not_smeared() {
    // a 6000-wide picture, left third black: the edge stays where it was
    let (w, h) = (6000u32, 30u32);
    let rgba: Vec<u8> = (0..w * h)
        .flat_map(|i| {
            if i % w < 2000 {
                [0, 0, 0, 255]
            } else {
                [255, 255, 255, 255]
            }
        })
        .collect();
    let p = Picture::from_rgba(w, h, &rgba).unwrap();
    assert_eq!((p.width(), p.height()), (2048, 10));
    assert_eq!(p.pixel(680, 5), [0, 0, 0, 255]);
    assert_eq!(p.pixel(685, 5), [255, 255, 255, 255]);
}

#[test]
fn names_and_values_with_control_characters_are_one_line() {
    let dir = tempfile::tempdir().unwrap();
    // a file name with a newline and an escape sequence
    let out = hedge()
        .args(["generate", "--width", "8", "--shape", "a\nb\u{1b}[2J.png"])
        .output()
        .unwrap();
    let err = stderr_of(&out);
    assert!(!out.status.success());
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("a\\nb\\u{1b}[2J.png"), "{err}");
    // a value with a NUL and a newline in a design file: the whole message, on one line
    let design = dir.path().join("d.toml");
    std::fs::write(&design, "algorithm = \"back\\u0000\\ntracker\"\n").unwrap();
    let out = hedge()
        .args(["generate", "--design"])
        .arg(&design)
        .output()
        .unwrap();
    let err = stderr_of(&out);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("unknown variant `back\\0\\ntracker`, expected one of `backtracker`"),
        "{err}"
    );
    // the library's own message is one line too
    let e = parse_design("algorithm = \"a\\nb\"\n").unwrap_err();
    assert!(e.message.contains("`a\\nb`, expected one of"), "{e}");
}

#[test]
fn a_warning_never_precedes_the_error_that_ends_the_run() {
    let dir = tempfile::tempdir().unwrap();
    // the output is a folder: the write fails after the corridor warning was found
    let out_dir = dir.path().join("d.svg");
    std::fs::create_dir(&out_dir).unwrap();
    let out = hedge()
        .args([
            "generate",
            "--width",
            "60",
            "--seed",
            "1",
            "--corridor-mm",
            "40",
            "-o",
        ])
        .arg(&out_dir)
        .output()
        .unwrap();
    let err = stderr_of(&out);
    assert!(!out.status.success());
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.starts_with("error: "), "{err}");
    // when the run succeeds, the warning is printed
    let ok = dir.path().join("m.svg");
    let out = hedge()
        .args([
            "generate",
            "--width",
            "60",
            "--seed",
            "1",
            "--corridor-mm",
            "40",
            "-o",
        ])
        .arg(&ok)
        .output()
        .unwrap();
    let err = stderr_of(&out);
    assert!(out.status.success(), "{err}");
    assert!(err.lines().any(|l| l.starts_with("warning: ")), "{err}");
}

#[test]
fn a_design_page_takes_every_paper_name() {
    let d = parse_design("[page]\npaper = \"150x200mm\"\n").unwrap();
    assert_eq!(d.page.paper.size_mm(), (150.0, 200.0));
    let d = parse_design("[page]\npaper = \"5x7in\"\n").unwrap();
    assert_eq!(d.page.paper.name(), "127x177.79999999999998mm");
    let d = parse_design("[page]\npaper = \"A4\"\n").unwrap();
    assert_eq!(d.page.paper, hedge::page::Paper::A4);
    // the table files have always written still reads
    let d = parse_design("[page.paper.custom]\nwidth_mm = 100.0\nheight_mm = 150.0\n").unwrap();
    assert_eq!(d.page.paper.size_mm(), (100.0, 150.0));
    let e = parse_design("[page]\npaper = \"tabloid\"\n").unwrap_err();
    assert!(e.message.contains("unknown paper 'tabloid' (use a4"), "{e}");
    // and the design writes back what it read
    let d = parse_design("[page]\npaper = \"150x200mm\"\n").unwrap();
    assert_eq!(parse_design(&hedge::load::design_to_toml(&d)).unwrap(), d);
}

#[test]
fn cell_edits_are_checked() {
    let edit = |row: u32, col: u32, extra: &str| {
        format!(
            "width = 5\nheight = 4\n[[cell_edits]]\nrow = {row}\ncol = {col}\non = false\n{extra}"
        )
    };
    assert_eq!(parse_design(&edit(3, 4, "")).unwrap().cell_edits.len(), 1);
    let e = parse_design(&edit(4, 0, "")).unwrap_err();
    assert_eq!(
        e.message,
        "bad design file: cell_edits: the cell at row 4, column 0 is outside the 5 x 4 grid"
    );
    let e = parse_design(&edit(0, 5, "")).unwrap_err();
    assert!(e.message.contains("row 0, column 5 is outside"), "{e}");
    let e = parse_design(&edit(0, 0, "colour = 3\n")).unwrap_err();
    assert!(e.message.contains("unknown field `colour`"), "{e}");
    // polar rings have their own lengths: ring 0 is the one centre cell
    let polar = "topology = \"polar\"\nwidth = 3\n[[cell_edits]]\nrow = 0\ncol = 1\non = false\n";
    assert!(
        parse_design(polar)
            .unwrap_err()
            .message
            .contains("outside the 3 rings grid")
    );
    // the editor may hold edits off a shrunk grid: files leave them out
    let mut d = parse_design(&edit(3, 4, "")).unwrap();
    d.width = 3;
    let text = hedge::load::design_to_toml(&d);
    assert!(parse_design(&text).unwrap().cell_edits.is_empty(), "{text}");
}

#[test]
fn order_above_one_is_refused_with_walls_too() {
    // a walls design holds no order, but a file's order out of range is still refused
    let e = parse_design("order = 2\n").unwrap_err();
    assert!(
        e.message.contains("order > 1 not supported (got order 2)"),
        "{e}"
    );
    assert_eq!(e.message.lines().count(), 1, "{e}");
    // and a tiles file's walls knobs out of range, as before
    let e = parse_design("style = \"tiles\"\nbraid = 5.0\n").unwrap_err();
    assert!(e.message.contains("braid must be between 0 and 1"), "{e}");
    let out = hedge()
        .args(["generate", "--width", "8", "--order", "3"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(stderr_of(&out).contains("--order is for tile mazes"));
    let out = hedge()
        .args([
            "generate", "--width", "8", "--style", "tiles", "--order", "3",
        ])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(stderr_of(&out).contains("order > 1 not supported"));
}

/// Issue 40: five lines with `stroke-dasharray="0.0001"` (530 bytes) ran 12.9 s, and
/// `"0.01"` ran 35 s in the scan converter (every dash a piece of one path, paid for once per
/// other piece on its row); refused by the budget before anything is stroked. An ordinary
/// dashed outline is still drawn.
#[test]
fn svg_dash_patterns_are_counted_before_they_are_stroked() {
    let lines = |dash: &str| {
        svg(&(0..5)
            .map(|i| {
                format!(
                    r#"<line x1="0" y1="{y}" x2="100" y2="{y}" stroke="black" stroke-width="5" stroke-dasharray="{dash}"/>"#,
                    y = 10 + i * 20
                )
            })
            .collect::<String>())
    };
    for dash in ["0.0001", "0.01"] {
        let bytes = lines(dash);
        let e = refusal(&bytes);
        assert!(e.contains("too complex"), "{dash}: {e}");
    }
    let p = Picture::decode(&svg(
        r#"<circle cx="50" cy="50" r="40" stroke="black" stroke-width="6" fill="black" stroke-dasharray="4 2"/>"#,
    ))
    .expect("a dashed circle is drawn");
    assert!(p.width() > 0);
    Picture::decode(&lines("2 1")).expect("dashes a few units long are drawn");
}

/// Issue 40: one self-crossing path of 20,000 random points (136 KB) ran 48 s and out of
/// memory at 5.3 GB (the scan converter's crowded rows, then the vector outline's union);
/// 5,000 points took 12.6 s. The budget refuses the first; a scribble of 1,000 points is
/// drawn from its pixels (its outline is not resolved from the vectors) in bounded time.
#[test]
fn svg_scribbles_are_refused_or_traced_not_resolved() {
    let mut seed = 7_u64;
    let mut next = move || {
        seed = seed
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (seed >> 33) as f64 / (1u64 << 31) as f64 * 100.0
    };
    let mut scribble = |n: usize| {
        let mut d = String::from("M");
        for _ in 0..n {
            let _ = write!(d, "{:.2},{:.2} ", next(), next());
        }
        svg(&format!(r#"<path d="{d}Z" fill="black"/>"#))
    };
    let e = refusal(&scribble(20_000));
    assert!(e.contains("too complex"), "{e}");
    let p = Picture::decode(&scribble(1_000)).expect("a small scribble is drawn");
    assert!(p.width() > 0 && p.vector().is_none());
}

/// Issue 40: files of a few hundred KB that made usvg's conversion run 23 to 41 s (200,000
/// attributes on one element, a 30,000-stop gradient, 10,000 `<tspan>`, 100,000 CSS
/// declarations) are refused before it starts, each naming what is over.
#[test]
fn svg_conversion_work_is_counted_before_it_is_done() {
    let attrs: String = (0..200_000).fold(String::new(), |mut s, i| {
        let _ = write!(s, r#" data-a{i}="1""#);
        s
    });
    let stops: String = (0..30_000).fold(String::new(), |mut s, i| {
        let _ = write!(
            s,
            r#"<stop offset="{}" stop-color="black"/>"#,
            i as f64 / 30_000.0
        );
        s
    });
    let cases = [
        (
            svg(&format!(r#"<rect width="80" height="80"{attrs}/>"#)),
            "attributes",
        ),
        (
            svg(&format!(
                r#"<defs><linearGradient id="g">{stops}</linearGradient></defs><rect width="80" height="80" fill="url(#g)"/>"#
            )),
            "stops",
        ),
        (
            svg(&format!(
                r#"<text x="10" y="50" font-size="10">{}</text><rect width="50" height="50"/>"#,
                "<tspan>a</tspan>".repeat(10_000)
            )),
            "text runs",
        ),
        (
            svg(&format!(
                r#"<style>rect{{{}}}</style><rect width="80" height="80"/>"#,
                "fill:black;".repeat(100_000)
            )),
            "style declarations",
        ),
    ];
    for (bytes, what) in cases {
        let e = refusal(&bytes);
        assert!(e.contains("too complex") && e.contains(what), "{what}: {e}");
    }
}

/// A chain of `levels` paint servers, clip paths or masks (`kind`), each holding ten shapes
/// that use the next by `how` (`attr`: the attribute itself, `style`: a `style` attribute,
/// `sheet`: a class set in a style sheet), the first used by one rectangle.
fn chain(kind: &str, levels: usize, how: &str) -> Vec<u8> {
    let (element, property, open) = match kind {
        "pattern" => (
            "pattern",
            "fill",
            r#"width="10" height="10" patternUnits="userSpaceOnUse""#,
        ),
        "clip" => ("clipPath", "clip-path", ""),
        _ => ("mask", "mask", ""),
    };
    let mut body = String::from("<style>");
    for i in 1..levels {
        let _ = write!(body, ".l{i} {{ {property}: url(#c{i}) }} ");
    }
    body.push_str("</style><defs>");
    for i in 0..levels {
        let _ = write!(body, r#"<{element} id="c{i}" {open}>"#);
        for j in 0..10 {
            let link = match (i + 1 < levels, how) {
                (false, _) => String::new(),
                (true, "attr") => format!(r#" {property}="url(#c{})""#, i + 1),
                (true, "style") => format!(r#" style="{property}: url(#c{})""#, i + 1),
                (true, _) => format!(r#" class="l{}""#, i + 1),
            };
            let white = if kind == "mask" {
                r#" fill="white""#
            } else {
                ""
            };
            let _ = write!(
                body,
                r#"<rect x="{j}" y="{j}" width="80" height="80"{white}{link}/>"#
            );
        }
        let _ = write!(body, "</{element}>");
    }
    let _ = write!(
        body,
        r#"</defs><rect width="100" height="100" {property}="url(#c0)"/>"#
    );
    svg(&body)
}

/// Issue 40: patterns, clip paths and masks ten deep, each holding ten shapes that use the
/// next (6.5 KB), ran for minutes (nine patterns deep 24 s, eight 2.8 s, in usvg's walks over
/// every use of every pattern, before anything is drawn). Each is now counted where it is
/// used, however the use is written, and the chain is refused before usvg sees it; a short
/// chain is drawn.
#[test]
fn svg_pattern_clip_and_mask_chains_are_counted_where_they_are_used() {
    for kind in ["pattern", "clip", "mask"] {
        for how in ["attr", "style", "sheet"] {
            let bytes = chain(kind, 10, how);
            let e = refusal(&bytes);
            assert_eq!(
                e,
                "the SVG is too complex to rasterise: more than 150,000 elements once <use>, \
                 patterns, clips and masks are expanded",
                "{kind} by {how}"
            );
        }
    }
    let p = Picture::decode(&chain("pattern", 2, "attr")).expect("two patterns deep");
    assert!(p.width() > 0);
    let p = Picture::decode(&chain("pattern", 2, "sheet")).expect("two patterns deep, by CSS");
    assert!(p.width() > 0);
}

/// Issue 40: the CSS matcher backtracks through the ancestors for every descendant combinator,
/// so `x g g g g g g g g g g rect` against 40 nested groups (436 bytes) ran past 30 s (and a
/// 1.6 KB file past 60 s). The sheets are matched first under a budget of steps, and an
/// ordinary sheet (300 classes on 3,000 shapes) is well inside it.
#[test]
fn svg_css_selectors_are_matched_under_a_budget() {
    let nested = |selector: &str, depth: usize, k: usize| {
        svg(&format!(
            "<style>x {} rect {{ fill: red }}</style>{}<rect width=\"50\" height=\"50\"/>{}",
            vec![selector; k].join(" "),
            "<g>".repeat(depth),
            "</g>".repeat(depth)
        ))
    };
    for (bytes, size) in [(nested("g", 40, 10), 436), (nested("*", 120, 20), 1016)] {
        assert_eq!(bytes.len(), size);
        let e = refusal(&bytes);
        assert_eq!(
            e,
            "the SVG is too complex to rasterise: its styles take more than 50 million steps \
             to match and resolve (the limit is 50 million)"
        );
    }
    // a use copies what it names, matched again: 2,000 copies of a group that costs some 60,000
    let copies = format!(
        "{}{}",
        std::str::from_utf8(&nested("g", 20, 6))
            .unwrap()
            .trim_end_matches("</svg>"),
        r##"<use href="#u"/>"##.repeat(2000)
    );
    let copies = copies.replacen("<g>", r#"<g id="u">"#, 1) + "</svg>";
    let e = refusal(copies.as_bytes());
    assert!(e.contains("its styles take"), "{e}");
    // a shallow tree with the same selector, and a sheet of many classes, are drawn
    Picture::decode(&nested("g", 3, 10)).expect("the selector on a shallow tree");
    let mut sheet = String::from("<style>");
    let mut shapes = String::new();
    for i in 0..3000 {
        if i < 300 {
            let _ = write!(sheet, ".c{i} {{ fill: black }} ");
        }
        let _ = write!(
            shapes,
            r#"<rect class="c{}" x="{}" y="{}" width="1" height="1"/>"#,
            i % 300,
            i % 100,
            i / 100
        );
    }
    let p = Picture::decode(&svg(&format!("{sheet}</style>{shapes}"))).expect("300 classes");
    assert!(p.width() > 0);
}

/// Issue 40: usvg searches every clip path, mask, pattern and filter (used or not) for links
/// back to itself, and starts over after each one it finds: 3,000 shapes linking to a clip of
/// 3,000 shapes and 300 clips that name themselves (250 KB, nothing drawn but one square) took
/// 46 s. The search is counted first; a clip that names itself is still dropped and the
/// picture drawn.
#[test]
fn svg_self_linking_clips_are_counted_before_usvg_searches_them() {
    let clips = |shapes: usize, loops: usize| {
        let mut body = String::from(r#"<defs><clipPath id="b">"#);
        body.push_str(&r#"<rect width="1" height="1"/>"#.repeat(shapes));
        body.push_str(r#"</clipPath><clipPath id="a">"#);
        body.push_str(&r#"<rect width="1" height="1" clip-path="url(#b)"/>"#.repeat(shapes));
        body.push_str("</clipPath>");
        for i in 0..loops {
            let _ = write!(
                body,
                r#"<clipPath id="r{i}"><rect width="1" height="1" clip-path="url(#r{i})"/></clipPath>"#
            );
        }
        body.push_str(r#"</defs><rect width="10" height="10"/>"#);
        svg(&body)
    };
    let bytes = clips(3000, 300);
    assert!(bytes.len() < 260_000);
    let e = refusal(&bytes);
    assert!(
        e.starts_with(
            "the SVG is too complex to rasterise: checking its patterns, clips and masks for links"
        ),
        "{e}"
    );
    Picture::decode(&clips(30, 3)).expect("a few clips that name themselves");
}

/// Issue 40: usvg resolves `inherit` by searching each ancestor's attributes in turn, so 20
/// properties set to `inherit` by one style rule on 40,000 shapes inside 1,000 nested groups
/// (1.1 MB) took 3 s; the lookups are counted with the style sheet's matching. Shallow
/// `inherit` is drawn.
#[test]
fn svg_inherit_through_deep_nesting_is_counted() {
    let props = [
        "fill",
        "stroke",
        "stroke-width",
        "fill-opacity",
        "stroke-opacity",
        "fill-rule",
        "clip-rule",
        "stroke-linecap",
        "stroke-linejoin",
        "stroke-miterlimit",
        "stroke-dashoffset",
        "font-size",
        "font-family",
        "font-weight",
        "font-style",
        "visibility",
        "color",
        "opacity",
        "letter-spacing",
        "word-spacing",
    ];
    let sheet: Vec<String> = props.iter().map(|p| format!("{p}: inherit")).collect();
    let deep = |depth: usize, shapes: usize| {
        svg(&format!(
            "<style>rect {{ {} }}</style>{}{}{}",
            sheet.join("; "),
            "<g>".repeat(depth),
            r#"<rect width="1" height="1"/>"#.repeat(shapes),
            "</g>".repeat(depth)
        ))
    };
    let e = refusal(&deep(1000, 40_000));
    assert!(e.contains("its styles take"), "{e}");
    Picture::decode(&deep(3, 100)).expect("inherit a few levels deep");
    Picture::decode(&svg(
        r#"<g fill="black"><rect width="50" height="50" fill="inherit"/></g>"#,
    ))
    .expect("an inherited fill");
}

/// Issue 40: laying out one text element takes time that grows with the square of its
/// length: 40,000 characters (40 KB) took 1.2 s, a million (1 MB) over a minute. A text
/// element's characters and the picture's (with `<use>` copies) are counted from the XML.
#[test]
fn svg_long_texts_are_counted_before_they_are_laid_out() {
    let text = |n: usize| {
        format!(
            r#"<text id="t" x="0" y="50" font-size="1">{}</text>"#,
            "W".repeat(n)
        )
    };
    let e = refusal(&svg(&text(40_000)));
    assert_eq!(
        e,
        "the SVG is too complex to rasterise: a text of 40,000 characters (the limit is 10,000)"
    );
    let copies = format!(
        "<defs>{}</defs>{}",
        text(5_000),
        r##"<use href="#t"/>"##.repeat(50)
    );
    let e = refusal(&svg(&copies));
    assert!(
        e.contains("characters of text once <use> is expanded"),
        "{e}"
    );
    Picture::decode(&svg(&text(1_000))).expect("a thousand characters");
}

/// Found by the `svg` fuzz target (issue 40): one arc of radius 7e49 in a built-in shape (880
/// bytes) ran out of memory past 8 GB, the arc cut into hundreds of millions of curves while
/// the file was converted. Arcs are counted as the curves they become, from the XML; ordinary
/// arcs are drawn.
#[test]
fn svg_huge_arcs_are_counted_before_they_are_cut_into_curves() {
    for d in [
        "M55 104 A16 67777777777777777777777777777777777777777777777777 0 1 0 88 104Z",
        "M0 0 A1 1 0 1 0 1e300 0Z",
        "M0 0 a1e-4 1e40 45 1 1 10 10Z",
    ] {
        let e = refusal(&svg(&format!(r#"<path d="{d}"/>"#)));
        assert!(
            e.contains("path points once arcs are converted"),
            "{d}: {e}"
        );
    }
    let p = Picture::decode(&svg(
        r#"<path d="M10 50 A40 40 0 1 0 90 50 A40 40 0 1 0 10 50Z M30 50 a20 5 30 1 1 40 0z"/>"#,
    ))
    .expect("ordinary arcs");
    assert!(p.width() > 0);
    let rabbit = hedge::shape::builtin::get("rabbit").unwrap();
    let broken = std::str::from_utf8(rabbit).unwrap().replace(
        "A16 6 0 1 0 88 104",
        "A16 67777777777777777777777777777777777777777777777777 0 1 0 88 104",
    );
    assert_ne!(broken.as_bytes(), rabbit);
    let e = refusal(broken.as_bytes());
    assert!(e.contains("path points"), "{e}");
}

/// Issue 57 item 9: design files read differently from what they said, silently: `width = 10`
/// without a height gave 10 x 20 (the command line gives 10 x 10); a lock of five numbers or a
/// re-carved cell of three was cut short (the JSON form was refused); locks on a tiles design
/// were ignored; `{"design": []}` gave a random maze; a JSON design with a byte order mark was
/// parsed as TOML.
#[test]
fn design_files_mean_what_they_say() {
    // a width alone: as many rows, TOML and JSON alike; a height given is kept
    for text in [
        "width = 10\n",
        "{\"width\": 10}",
        "{\"design\": {\"width\": 10}}",
    ] {
        let d = parse_design(text).unwrap();
        assert_eq!((d.width, d.height), (10, 10), "{text}");
    }
    let d = parse_design("width = 10\nheight = 4\n").unwrap();
    assert_eq!((d.width, d.height), (10, 4));
    let d = parse_design("height = 4\n").unwrap();
    assert_eq!((d.width, d.height), (20, 4));
    // arrays of the wrong length: one line, TOML and JSON alike
    let cases = [
        ("lock = { open = [[1, 1, 1, 2, 9]] }\n", "four numbers"),
        ("lock = { closed = [[1, 1, 1]] }\n", "four numbers"),
        (
            "[[recarve]]\nseed = 1\ncells = [[0, 0, 0]]\n",
            "two numbers",
        ),
        ("[[recarve]]\nseed = 1\ncells = [[0]]\n", "two numbers"),
        ("{\"lock\": {\"open\": [[1, 1, 1, 2, 9]]}}", "four numbers"),
        (
            "{\"recarve\": [{\"seed\": 1, \"cells\": [[0, 0, 0]]}]}",
            "two numbers",
        ),
    ];
    for (text, want) in cases {
        let e = parse_design(text).unwrap_err();
        assert!(e.message.contains(want), "{text}: {e}");
        assert!(e.message.starts_with("bad design file: "), "{text}: {e}");
        assert_eq!(e.message.lines().count(), 1, "{text}: {e}");
    }
    let ok =
        parse_design("lock = { open = [[1, 1, 1, 2]] }\n[[recarve]]\nseed = 1\ncells = [[0, 0]]\n")
            .unwrap();
    assert_eq!(ok.walls().lock.open, vec![[1, 1, 1, 2]]);
    // hand work on a tiles design: refused, not left behind
    for text in [
        "style = \"tiles\"\nlock = { open = [[1, 1, 1, 2]] }\n",
        "style = \"tiles\"\n[[recarve]]\nseed = 1\ncells = [[0, 0]]\n",
    ] {
        let e = parse_design(text).unwrap_err();
        assert!(e.message.contains("tiles design"), "{text}: {e}");
        assert_eq!(e.message.lines().count(), 1, "{text}: {e}");
    }
    // a JSON design that is not an object of knobs
    for text in [
        "{\"design\": []}",
        "{\"design\": [\"tiles\", 1]}",
        "{\"design\": 3}",
    ] {
        let e = parse_design(text).unwrap_err();
        assert!(e.message.contains("not an object of knobs"), "{text}: {e}");
    }
    // a byte order mark: read past, JSON stays JSON
    let d = parse_design("\u{feff}{\"width\": 7, \"height\": 3}").unwrap();
    assert_eq!((d.width, d.height), (7, 3));
    let d = parse_design("\u{feff}width = 7\nheight = 3\n").unwrap();
    assert_eq!((d.width, d.height), (7, 3));
}

/// The command line reads a design file's width alone as it reads `--width` alone: square,
/// or with a shape, its rows fitted to the shape.
#[test]
fn a_design_files_width_alone_sizes_the_grid_as_the_flag_does() {
    let dir = tempfile::tempdir().unwrap();
    let rows = |args: &[&str], design: Option<&str>| -> (u64, u64) {
        let json = dir.path().join("m.json");
        let mut cmd = hedge();
        cmd.arg("generate")
            .args(args)
            .args(["--seed", "2", "-o"])
            .arg(&json);
        if let Some(text) = design {
            let file = dir.path().join("d.toml");
            std::fs::write(&file, text).unwrap();
            cmd.arg("--design").arg(&file);
        }
        let out = cmd.output().unwrap();
        assert!(out.status.success(), "{args:?}: {}", stderr_of(&out));
        let v: serde_json::Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
        (v["width"].as_u64().unwrap(), v["height"].as_u64().unwrap())
    };
    assert_eq!(rows(&[], Some("width = 10\n")), (10, 10));
    assert_eq!(rows(&["--width", "12"], Some("width = 10\n")), (12, 12));
    assert_eq!(
        rows(&["--width", "12"], Some("width = 10\nheight = 5\n")),
        (12, 5)
    );
    let fitted = rows(&["--shape", "fish", "--width", "30"], None);
    assert_ne!(fitted.1, 30, "a fish is wider than tall");
    let file = "width = 30\n[shape]\nbuiltin = \"fish\"\n";
    assert_eq!(rows(&[], Some(file)), fitted);
    // a height given is the file's
    let file = "width = 30\nheight = 30\n[shape]\nbuiltin = \"fish\"\n";
    assert_eq!(rows(&[], Some(file)), (30, 30));
}

/// Issue 57 item 10: `--text` of a lone combining mark said "the picture is (nearly) all
/// transparent", and a zero-width joiner suggested another font. Marks alone are named as no
/// letters; invisible format characters are left out.
#[test]
fn text_shapes_blame_the_text() {
    let run = |text: &str| {
        hedge()
            .args(["generate", "--width", "30", "--seed", "1", "--text", text])
            .args(["-o", "/nonexistent-dir/m.json"])
            .output()
            .unwrap()
    };
    for text in ["\u{301}", "\u{301}\u{308} \u{20dd}"] {
        let out = run(text);
        let err = stderr_of(&out);
        assert!(!out.status.success());
        assert!(err.contains("has no printable letters"), "{text:?}: {err}");
        assert!(!err.contains("transparent"), "{text:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{err}");
    }
    // a zero-width joiner (and a soft hyphen, a zero-width space) is left out: EMMA is made
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("m.json");
    let out = hedge()
        .args(["generate", "--width", "30", "--seed", "1"])
        .args(["--text", "EM\u{200d}M\u{ad}A\u{200b}", "-o"])
        .arg(&json)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr_of(&out));
    let plain = dir.path().join("plain.json");
    let out = hedge()
        .args([
            "generate", "--width", "30", "--seed", "1", "--text", "EMMA", "-o",
        ])
        .arg(&plain)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr_of(&out));
    let cells = |p: &std::path::Path| {
        let v: serde_json::Value = serde_json::from_slice(&std::fs::read(p).unwrap()).unwrap();
        v["cells"].as_array().unwrap().len()
    };
    assert_eq!(cells(&json), cells(&plain));
}
