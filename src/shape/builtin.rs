//! The silhouettes shipped inside the binary.
//!
//! `build.rs` turns every `assets/shapes/NAME.svg` into an entry of [`BUILTIN`] (name -> the
//! file's bytes, sorted by name), so dropping an SVG into that folder adds a shape.

include!(concat!(env!("OUT_DIR"), "/shapes.rs"));

/// The bytes of the built-in shape `name` (an SVG document).
pub fn get(name: &str) -> Option<&'static [u8]> {
    BUILTIN
        .binary_search_by(|(n, _)| (*n).cmp(name))
        .ok()
        .map(|i| BUILTIN[i].1)
}

/// The names of the built-in shapes, sorted.
pub fn names() -> impl ExactSizeIterator<Item = &'static str> {
    BUILTIN.iter().map(|(n, _)| *n)
}

/// The names as one comma-separated list, for messages.
pub fn list() -> String {
    names().collect::<Vec<_>>().join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_sorted_and_found() {
        let names: Vec<_> = names().collect();
        assert!(names.len() >= 12, "{names:?}");
        assert!(names.windows(2).all(|w| w[0] < w[1]));
        for n in &names {
            assert!(get(n).is_some_and(|b| b.windows(4).any(|w| w == b"<svg")));
        }
        assert!(get("no-such-shape").is_none());
    }
}
