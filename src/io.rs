//! The one module that touches the file system: [`Files`], the [`Loader`] that reads design
//! files, book files and shape pictures (pictures bounded in size, folders refused), and writing
//! outputs atomically (a temporary file beside the target, then a rename), so a failed or
//! interrupted export never leaves a half-written file and never clobbers the previous one.
//! Decoding and parsing what is read is the library's ([`crate::load`]); the functions here
//! that read (`read_design`, `load_shape`, `read_picture`) are [`Files`] plus that.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use crate::design::Design;
use crate::error::{Error, ErrorKind, Result};
use crate::load::picture_too_big;
pub use crate::load::{LoadedShape, Loader, MAX_SHAPE_FILE_BYTES, design_to_toml, parse_design};
use crate::shape::{ShapeSource, builtin};

fn io_error(what: &str, e: &std::io::Error, path: &Path) -> Error {
    // the OS message without the "(os error N)" tail, path last
    let msg = e.to_string();
    let msg = msg.split(" (os error").next().unwrap_or(&msg).to_string();
    Error::new(ErrorKind::Io, format!("{what}: {msg}: {}", path.display()))
}

fn temp_path(path: &Path) -> PathBuf {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    path.with_file_name(format!(".{name}.{}.tmp", std::process::id()))
}

/// Writes the output of `fill` to `path` atomically. On any error the temporary file is
/// removed and `path` is left as it was.
pub fn write_atomic_with(
    path: &Path,
    fill: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> Result<()> {
    if path.is_dir() {
        return Err(Error::new(
            ErrorKind::Io,
            format!("cannot write: is a directory: {}", path.display()),
        ));
    }
    let tmp = temp_path(path);
    let result = (|| {
        let mut file = fs::File::create(&tmp)?;
        fill(&mut file)?;
        file.sync_all()?;
        drop(file);
        fs::rename(&tmp, path)
    })();
    result.map_err(|e| {
        let _ = fs::remove_file(&tmp);
        io_error("cannot write", &e, path)
    })
}

/// Writes `bytes` to `path` atomically.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    write_atomic_with(path, |w| w.write_all(bytes))
}

/// Writes rendered pages to `path` and, when the answer key is a file of its own (SVG, PNG),
/// the key beside it as `NAME-key.EXT` ([`crate::export::key_file_name`]); each atomically.
/// Returns the files written, the puzzle first.
pub fn write_rendered(rendered: &crate::export::Rendered, path: &Path) -> Result<Vec<PathBuf>> {
    let mut written = vec![path.to_path_buf()];
    if let Some(key) = &rendered.key {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let key_path = path.with_file_name(crate::export::key_file_name(&name));
        write_atomic(&key_path, key)?;
        written.push(key_path);
    }
    write_atomic(path, &rendered.puzzle)?;
    Ok(written)
}

/// Reads a whole text file; the error starts with `what` and ends with the path.
pub fn read_text(path: &Path, what: &str) -> Result<String> {
    let bytes = read_regular(path, what, MAX_TEXT_FILE_BYTES, |path| {
        Error::new(
            ErrorKind::Io,
            format!(
                "{what}: it is larger than {} MB: {}",
                MAX_TEXT_FILE_BYTES >> 20,
                path.display()
            ),
        )
    })?;
    String::from_utf8(bytes).map_err(|_| {
        Error::new(
            ErrorKind::BadInput,
            format!("{what}: it is not UTF-8 text: {}", path.display()),
        )
    })
}

/// The largest design or book file read: 4 MB (real ones are a few kilobytes; a design with
/// tens of thousands of hand-edited cells still fits).
pub const MAX_TEXT_FILE_BYTES: u64 = 4 << 20;

/// Reads a whole regular file of at most `cap` bytes (`too_big` says why not when it is larger).
/// A folder, a pipe (FIFO) or a device is refused before it is opened, so nothing blocks.
fn read_regular(
    path: &Path,
    what: &str,
    cap: u64,
    too_big: impl Fn(&Path) -> Error,
) -> Result<Vec<u8>> {
    use std::io::Read;
    let meta = fs::metadata(path).map_err(|e| io_error(what, &e, path))?;
    if meta.is_dir() {
        return Err(Error::new(
            ErrorKind::Io,
            format!("{what}: it is a folder: {}", path.display()),
        ));
    }
    if !meta.is_file() {
        return Err(Error::new(
            ErrorKind::Io,
            format!(
                "{what}: it is not a regular file (a pipe or a device): {}",
                path.display()
            ),
        ));
    }
    if meta.len() > cap {
        return Err(too_big(path));
    }
    let file = fs::File::open(path).map_err(|e| io_error(what, &e, path))?;
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    file.take(cap + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| io_error(what, &e, path))?;
    if bytes.len() as u64 > cap {
        return Err(too_big(path));
    }
    Ok(bytes)
}

/// Writes a set of files under the folder `out` (created if missing) as one step, as far as a
/// file system allows: every file is first written into a staging folder inside `out`
/// (`.hedge-staging-PID`); only when all of them are written are they renamed into place. A
/// sub-folder (such as `pages/`) is replaced as a whole, so no file of an earlier run is left
/// beside the new ones. On an error before the renames, the staging folder is removed and `out`
/// is left as it was.
pub fn write_files_atomic(out: &Path, files: &[(PathBuf, &[u8])]) -> Result<()> {
    if out.exists() && !out.is_dir() {
        return Err(Error::new(
            ErrorKind::Io,
            format!("cannot write: not a folder: {}", out.display()),
        ));
    }
    fs::create_dir_all(out).map_err(|e| io_error("cannot create the folder", &e, out))?;
    let staging = out.join(format!(".hedge-staging-{}", std::process::id()));
    let _ = fs::remove_dir_all(&staging);
    let written = (|| -> std::io::Result<()> {
        fs::create_dir(&staging)?;
        for (rel, bytes) in files {
            let p = staging.join(rel);
            if let Some(dir) = p.parent() {
                fs::create_dir_all(dir)?;
            }
            let mut f = fs::File::create(&p)?;
            f.write_all(bytes)?;
            f.sync_all()?;
        }
        Ok(())
    })();
    if let Err(e) = written {
        let _ = fs::remove_dir_all(&staging);
        return Err(io_error("cannot write", &e, out));
    }
    // the top-level entries, each renamed into place (a folder replaces the old folder)
    let mut tops: Vec<&std::ffi::OsStr> = files
        .iter()
        .filter_map(|(rel, _)| rel.components().next().map(|c| c.as_os_str()))
        .collect();
    tops.sort();
    tops.dedup();
    let moved = (|| -> std::io::Result<()> {
        for top in &tops {
            let (from, to) = (staging.join(top), out.join(top));
            if from.is_dir() && to.is_dir() {
                let old = staging.join(".old");
                fs::rename(&to, &old)?;
                fs::rename(&from, &to)?;
                fs::remove_dir_all(&old)?;
            } else {
                fs::rename(&from, &to)?;
            }
        }
        Ok(())
    })();
    let _ = fs::remove_dir_all(&staging);
    moved.map_err(|e| io_error("cannot write", &e, out))
}

/// The file system as a [`Loader`]: pictures read with a size bound (folders refused), text
/// files whole. Relative paths are from the working directory.
#[derive(Clone, Copy, Debug, Default)]
pub struct Files;

impl Loader for Files {
    fn picture(&self, path: &Path) -> Result<Vec<u8>> {
        read_limited(path)
    }

    fn text(&self, path: &Path, what: &str) -> Result<String> {
        read_text(path, what)
    }
}

/// Reads a design file (TOML).
pub fn read_design(path: &Path) -> Result<Design> {
    crate::load::read_design(&Files, path)
}

/// What a `--shape` argument names: a built-in shape when there is one by that name, otherwise
/// an existing file. Neither is an error listing the built-in names.
pub fn shape_source(arg: &str) -> Result<ShapeSource> {
    if builtin::get(arg).is_some() {
        return Ok(ShapeSource::Builtin(arg.to_string()));
    }
    let path = Path::new(arg);
    if path.exists() {
        return Ok(ShapeSource::File(path.to_path_buf()));
    }
    Err(Error::option(format!(
        "no built-in shape or file by that name (built-in shapes: {}): {arg}",
        builtin::list()
    )))
}

/// Reads and decodes the picture of `source`. A relative file path is taken relative to `base`
/// when given (the folder of the design file that named it).
pub fn load_shape(source: &ShapeSource, base: Option<&Path>) -> Result<LoadedShape> {
    crate::load::load_shape(&Files, source, base)
}

/// Reads a picture file and decodes it by its content (not its name).
pub fn read_picture(path: &Path) -> Result<LoadedShape> {
    crate::load::decode_picture(&read_limited(path)?, path)
}

/// Reads a whole picture file of at most [`MAX_SHAPE_FILE_BYTES`].
fn read_limited(path: &Path) -> Result<Vec<u8>> {
    read_regular(
        path,
        "cannot read the shape",
        MAX_SHAPE_FILE_BYTES,
        picture_too_big,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn atomic_write_leaves_nothing_on_failure() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("out.txt");
        write_atomic(&p, b"one").unwrap();
        let e = write_atomic_with(&p, |w| {
            w.write_all(b"partial")?;
            Err(std::io::Error::other("boom"))
        })
        .unwrap_err();
        assert!(e.message.starts_with("cannot write: boom"), "{e}");
        assert_eq!(fs::read(&p).unwrap(), b"one");
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1);
        let e = write_atomic(&dir.path().join("no/such/dir/x.json"), b"x").unwrap_err();
        assert!(e.message.contains("No such file or directory"), "{e}");
    }

    #[test]
    fn file_sets_replace_folders_and_leave_nothing_on_failure() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("book");
        let files = |n: usize| -> Vec<(PathBuf, Vec<u8>)> {
            let mut v = vec![(PathBuf::from("book.pdf"), b"pdf".to_vec())];
            for k in 0..n {
                v.push((PathBuf::from(format!("pages/p{k}.svg")), vec![b'x'; k]));
            }
            v
        };
        let refs = |v: &[(PathBuf, Vec<u8>)]| -> Vec<(PathBuf, Vec<u8>)> { v.to_vec() };
        let write = |v: &[(PathBuf, Vec<u8>)]| {
            let r: Vec<(PathBuf, &[u8])> = v.iter().map(|(p, b)| (p.clone(), &b[..])).collect();
            write_files_atomic(&out, &r)
        };
        write(&refs(&files(3))).unwrap();
        assert_eq!(fs::read_dir(out.join("pages")).unwrap().count(), 3);
        // a smaller set replaces the folder: no stale page 3
        write(&refs(&files(2))).unwrap();
        assert_eq!(fs::read_dir(out.join("pages")).unwrap().count(), 2);
        assert_eq!(fs::read_dir(&out).unwrap().count(), 2);
        // a file that cannot be written: nothing changes, no staging left
        let mut bad = files(1);
        bad.push((PathBuf::from("book.pdf/inside"), b"x".to_vec()));
        assert!(write(&bad).is_err());
        assert_eq!(fs::read_dir(out.join("pages")).unwrap().count(), 2);
        assert_eq!(fs::read_dir(&out).unwrap().count(), 2);
    }

    #[test]
    fn design_round_trips_through_toml() {
        let d = Design {
            seed: Some(12),
            braid: 0.25,
            ..Design::default()
        };
        assert_eq!(parse_design(&design_to_toml(&d)).unwrap(), d);
        let e = parse_design("width = 10\nbrade = 0.5\n").unwrap_err();
        assert!(
            e.message.contains("brade") && e.message.contains("line 2"),
            "{e}"
        );
        assert!(!e.message.contains('\n'));
    }
}
