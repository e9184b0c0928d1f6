//! Helpers the integration tests share: running the `hedge` binary and reading what it wrote.

use assert_cmd::Command;
use hedge::design::{Kind, Walls};

/// The `hedge` binary this build made, ready to run.
pub fn hedge() -> Command {
    Command::cargo_bin("hedge").expect("the hedge binary is built")
}

/// A finished command's standard error, as text.
pub fn stderr_of(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Fails the test with the command's standard error unless it succeeded.
pub fn assert_ok(out: &std::process::Output) {
    assert!(out.status.success(), "{}", stderr_of(out));
}

/// A PNG's width, height and pixels (decoded with the `png` crate, not Hedge's own code).
pub fn decode_png(bytes: &[u8]) -> (u32, u32, Vec<u8>) {
    let dec = png::Decoder::new(std::io::Cursor::new(bytes));
    let mut reader = dec.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    buf.truncate(info.buffer_size());
    (info.width, info.height, buf)
}

/// The words of an SVG document's `<text>` elements, trimmed, in document order.
pub fn svg_words<'a>(doc: &'a roxmltree::Document<'_>) -> Vec<&'a str> {
    doc.descendants()
        .filter(|n| n.has_tag_name("text"))
        .filter_map(|n| n.text())
        .map(str::trim)
        .collect()
}

/// The text of each page of a PDF, as its `/ToUnicode` maps give it back (lopdf's extraction,
/// not Hedge's own code): one string a page, pieces separated by line breaks.
pub fn pdf_texts(bytes: &[u8]) -> Vec<String> {
    let doc = lopdf::Document::load_mem(bytes).expect("the PDF parses");
    (1..=doc.get_pages().len() as u32)
        .map(|n| doc.extract_text(&[n]).expect("the text extracts"))
        .collect()
}

/// The fonts a PDF uses, by their `/BaseFont` names without the subset tag, each with whether
/// it is embedded (has a font program) and subset (its name has a `ABCDEF+` tag), sorted.
pub fn pdf_fonts(bytes: &[u8]) -> Vec<(String, bool, bool)> {
    let doc = lopdf::Document::load_mem(bytes).expect("the PDF parses");
    let mut out = Vec::new();
    for object in doc.objects.values() {
        let Ok(dict) = object.as_dict() else { continue };
        let is = |k: &[u8], v: &[u8]| dict.get(k).and_then(|o| o.as_name()).is_ok_and(|n| n == v);
        if !is(b"Type", b"Font") || is(b"Subtype", b"CIDFontType2") {
            continue;
        }
        let name =
            String::from_utf8_lossy(dict.get(b"BaseFont").unwrap().as_name().unwrap()).into_owned();
        // a Type0 font's program hangs off its descendant's descriptor
        let descendant = dict
            .get(b"DescendantFonts")
            .and_then(|d| d.as_array())
            .ok()
            .and_then(|a| a.first())
            .and_then(|r| r.as_reference().ok())
            .and_then(|r| doc.get_dictionary(r).ok());
        let descriptor = descendant
            .unwrap_or(dict)
            .get(b"FontDescriptor")
            .and_then(|r| r.as_reference())
            .and_then(|r| doc.get_dictionary(r));
        let embedded = descriptor
            .is_ok_and(|d| d.has(b"FontFile") || d.has(b"FontFile2") || d.has(b"FontFile3"));
        let (subset, bare) = match name.split_once('+') {
            Some((tag, rest)) if tag.len() == 6 && tag.bytes().all(|b| b.is_ascii_uppercase()) => {
                (true, rest.to_string())
            }
            _ => (false, name.clone()),
        };
        out.push((bare, embedded, subset));
    }
    out.sort();
    out
}

/// Built-in `shape` on `kind` with reader preset `preset`'s knobs and grid on US Letter (as
/// `hedge generate --difficulty PRESET --shape SHAPE` sizes it), carved from `seed` as it is
/// (no search); `None` when the shape is too small for a maze there.
pub fn preset_maze(
    preset: &str,
    shape: &str,
    kind: hedge::topology::TopologyKind,
    seed: u64,
) -> Option<hedge::pipeline::Generated> {
    use hedge::make::{Fit, Made, prepare};
    let preset = hedge::difficulty::preset(preset).expect("a preset");
    let mut d = hedge::design::Design {
        kind: Kind::Walls(Walls {
            topology: kind,
            ..Walls::DEFAULT
        }),
        seed: Some(seed),
        shape: Some(hedge::shape::ShapeSource::Builtin(shape.into())),
        ..hedge::design::Design::default()
    };
    preset.apply(&mut d);
    (d.width, d.height) = hedge::sizing::page_grid(preset, kind, &d.page);
    let fit = Fit {
        height: true,
        size_limit: Some((d.width, d.height)),
    };
    // as the command line sizes it: on an auto page, the orientation that holds more of the
    // shape ([`hedge::sizing::preset_limit`]), a shape too small for the preset's cells grown
    let made = prepare(&d, &hedge::load::Memory::new(), None, fit).and_then(|p| {
        let limit = match p.foreground() {
            Some(fg) => hedge::sizing::preset_limit(preset, kind, &d.page, fg)?,
            None => return p.make(),
        };
        if Some(limit) == fit.size_limit {
            p.make()
        } else {
            p.refitted(limit.0, limit)?.make()
        }
    });
    match made {
        Ok(Made::Walls(g)) => Some(g),
        _ => None,
    }
}

/// `d` with its walls knobs changed by `f` (a test's shorthand for one knob on a helper's design).
pub fn walled(mut d: hedge::design::Design, f: impl FnOnce(&mut Walls)) -> hedge::design::Design {
    f(d.walls_mut().expect("a design of walls"));
    d
}

/// The image XObjects of a PDF (soft masks included): each one's width and colour space.
pub fn pdf_images(bytes: &[u8]) -> Vec<(i64, String)> {
    let lo = lopdf::Document::load_mem(bytes).unwrap();
    lo.objects
        .values()
        .filter_map(|o| o.as_stream().ok())
        .filter(|s| s.dict.get(b"Subtype").and_then(|v| v.as_name()).ok() == Some(b"Image"))
        .map(|s| {
            let width = s.dict.get(b"Width").unwrap().as_i64().unwrap();
            let space = s.dict.get(b"ColorSpace").unwrap().as_name().unwrap();
            (width, String::from_utf8_lossy(space).into_owned())
        })
        .collect()
}

/// Writes a `size` x `size` PNG at `path`: a round coin of `rgb` on transparency.
pub fn coin_png(path: &std::path::Path, size: u32, rgb: [u8; 3]) {
    let c = size as i32 / 2;
    let r = c * 4 / 5;
    image::RgbaImage::from_fn(size, size, |x, y| {
        let (dx, dy) = (x as i32 - c, y as i32 - c);
        image::Rgba(if dx * dx + dy * dy < r * r {
            [rgb[0], rgb[1], rgb[2], 255]
        } else {
            [0, 0, 0, 0]
        })
    })
    .save(path)
    .unwrap();
}
