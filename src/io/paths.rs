//! Where one folder is seen from another ([`relative_folder`]): how a book's manifest names
//! the book file's folder (`book_dir`), so `hedge regenerate` finds the book's pictures from
//! the manifest's folder, wherever it is run.

use std::fs;
use std::path::{Component, Path, PathBuf};

/// `path`'s real, absolute path (links followed): that of the nearest folder above it that
/// exists, and the rest of its name as it is. `None` when nothing of it resolves.
fn real(path: &Path) -> Option<PathBuf> {
    let dot = Path::new(".");
    let mut rest: Vec<Component<'_>> = Vec::new();
    let mut at = if path.as_os_str().is_empty() {
        dot
    } else {
        path
    };
    let mut real = loop {
        match fs::canonicalize(at) {
            Ok(r) => break r,
            Err(_) if at == dot => return None,
            Err(_) => {
                rest.push(at.components().next_back()?);
                at = match at.parent() {
                    Some(p) if !p.as_os_str().is_empty() => p,
                    _ => dot,
                };
            }
        }
    };
    // the part that does not exist yet holds no links
    for c in rest.into_iter().rev() {
        match c {
            Component::ParentDir => {
                real.pop();
            }
            Component::Normal(name) => real.push(name),
            _ => {}
        }
    }
    Some(real)
}

/// The folder `to` as seen from the folder `from` (which need not exist yet): a path relative
/// to `from` (`..`, `../books`, `.`) made from the two folders' real paths, so `from` joined
/// to it names `to` as the system resolves paths, links and all. `None` when either folder
/// cannot be resolved (the current folder is gone).
pub fn relative_folder(from: &Path, to: &Path) -> Option<PathBuf> {
    let (from, to) = (real(from)?, real(to)?);
    let common = from
        .components()
        .zip(to.components())
        .take_while(|(a, b)| a == b)
        .count();
    let mut out = PathBuf::new();
    for _ in from.components().skip(common) {
        out.push("..");
    }
    for c in to.components().skip(common) {
        out.push(c);
    }
    if out.as_os_str().is_empty() {
        out.push(".");
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_folder_is_seen_from_another_through_their_real_paths() {
        let dir = tempfile::tempdir().unwrap();
        let root = fs::canonicalize(dir.path()).unwrap();
        fs::create_dir_all(root.join("proj/books")).unwrap();
        fs::create_dir_all(root.join("elsewhere")).unwrap();
        let rel = |a: &Path, b: &Path| relative_folder(a, b).unwrap();
        // an output folder not made yet, beside the book
        assert_eq!(
            rel(&root.join("proj/out"), &root.join("proj/books")),
            Path::new("../books")
        );
        assert_eq!(
            rel(&root.join("proj/a/b/../c"), &root.join("proj")),
            Path::new("../..")
        );
        assert_eq!(rel(&root.join("proj"), &root.join("proj")), Path::new("."));
        // through a link: the real folder's way, which the system follows too
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink(root.join("elsewhere"), root.join("proj/link")).unwrap();
            let out = root.join("proj/link/out");
            let r = rel(&out, &root.join("proj/books"));
            assert_eq!(r, Path::new("../../proj/books"));
            fs::create_dir(&out).unwrap();
            assert_eq!(
                fs::canonicalize(out.join(&r)).unwrap(),
                root.join("proj/books")
            );
        }
    }
}
