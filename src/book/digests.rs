//! The picture files a book reads, each with a digest of its bytes: a [`Digests`] loader
//! passes every read on to the caller's loader and notes the digest (MD5, in hex) of each
//! picture. The manifest records them (`pictures`), and `regenerate` reads through a checking
//! one, which refuses a picture whose bytes are not the ones the book was made from: a page
//! printed again is the book's page, or an error, never another maze.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use crate::error::{Error, Result};
use crate::load::Loader;

/// The digest of a picture file's bytes: MD5, 32 lowercase hex digits.
pub(super) fn digest(bytes: &[u8]) -> String {
    use md5::Digest as _;
    let sum: [u8; 16] = md5::Md5::digest(bytes).into();
    sum.iter().map(|b| format!("{b:02x}")).collect()
}

/// Whether `s` is a digest as [`digest`] writes it.
pub(super) fn is_digest(s: &str) -> bool {
    s.len() == 32 && s.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

/// A loader that notes the digest of every picture read through it (by the path asked for)
/// and, when checking, refuses one whose digest is not the expected one.
pub(super) struct Digests<'a> {
    inner: &'a dyn Loader,
    read: Mutex<BTreeMap<PathBuf, String>>,
    /// When checking: each picture's path (as asked for) and the digest it must have.
    expected: Option<BTreeMap<PathBuf, String>>,
}

impl<'a> Digests<'a> {
    /// Notes what is read through `inner`.
    pub(super) fn recording(inner: &'a dyn Loader) -> Self {
        Digests {
            inner,
            read: Mutex::default(),
            expected: None,
        }
    }

    /// Reads through `inner` only the pictures `expected` names, with their digests.
    pub(super) fn checking(inner: &'a dyn Loader, expected: BTreeMap<PathBuf, String>) -> Self {
        Digests {
            expected: Some(expected),
            ..Self::recording(inner)
        }
    }

    /// Each picture read, by path, with its digest.
    pub(super) fn into_read(self) -> BTreeMap<PathBuf, String> {
        self.read.into_inner().unwrap_or_else(|e| e.into_inner())
    }
}

impl Loader for Digests<'_> {
    fn picture(&self, path: &Path) -> Result<Vec<u8>> {
        let bytes = self.inner.picture(path)?;
        let d = digest(&bytes);
        if let Some(expected) = &self.expected {
            match expected.get(path) {
                Some(e) if *e == d => {}
                Some(_) => {
                    return Err(Error::input(format!(
                        "the picture is not the one the book was made from (its bytes have \
                         changed since): put the book's picture back, or build the book again: \
                         {}",
                        path.display()
                    )));
                }
                None => {
                    return Err(Error::input(format!(
                        "the manifest records no such picture of the book (it was edited?): {}",
                        path.display()
                    )));
                }
            }
        }
        self.read
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(path.to_path_buf(), d);
        Ok(bytes)
    }

    fn text(&self, path: &Path, what: &str) -> Result<String> {
        self.inner.text(path, what)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::load::Memory;

    #[test]
    fn pictures_are_noted_and_checked_by_their_bytes() {
        let files = Memory::new()
            .with("a.svg", "<svg/>")
            .with("b.svg", "<svg></svg>");
        let rec = Digests::recording(&files);
        assert_eq!(rec.picture(Path::new("a.svg")).unwrap(), b"<svg/>");
        assert!(rec.picture(Path::new("missing.svg")).is_err());
        let read = rec.into_read();
        assert_eq!(read.len(), 1);
        let d = &read[Path::new("a.svg")];
        assert!(is_digest(d), "{d}");
        assert_eq!(digest(b""), "d41d8cd98f00b204e9800998ecf8427e");
        // checking: the same bytes pass, other bytes and unrecorded files do not
        let mut expected = read.clone();
        let check = Digests::checking(&files, expected.clone());
        assert!(check.picture(Path::new("a.svg")).is_ok());
        let e = check.picture(Path::new("b.svg")).unwrap_err();
        assert!(e.message.contains("records no such picture"), "{e}");
        expected.insert("b.svg".into(), d.clone());
        let check = Digests::checking(&files, expected);
        let e = check.picture(Path::new("b.svg")).unwrap_err();
        assert!(
            e.message.contains("not the one the book was made from"),
            "{e}"
        );
        assert!(!is_digest("D41D8CD98F00B204E9800998ECF8427E"));
        assert!(!is_digest("d41d8"));
    }
}
