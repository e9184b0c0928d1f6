//! Helpers the integration tests share: running the `hedge` binary and reading what it wrote.

use assert_cmd::Command;

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
