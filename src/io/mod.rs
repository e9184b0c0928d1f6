//! The one module that touches the file system: [`Files`], the [`Loader`] that reads design
//! files, book files and shape pictures (pictures bounded in size, folders refused), and writing
//! outputs atomically (a temporary file beside the target, then a rename), so a failed or
//! interrupted export never leaves a half-written file and never clobbers the previous one.
//! Several files that belong together (a puzzle and its key) are one set ([`write_set`]): all
//! are renamed into place or none. Writing onto a symbolic link writes the file it points to.
//! Every temporary file and staging folder is recorded while it exists, so the binary's
//! SIGINT / SIGTERM handler removes them ([`remove_temporaries_then`]); those of runs
//! killed outright are removed by the next write into the same folder.
//! Decoding and parsing what is read is the library's ([`crate::load`]); the functions here
//! that read (`read_design`, `load_shape`, `read_picture`) are [`Files`] plus that.
//!
//! Its parts: `temporaries` (the registry of temporary files, their names, and the removal of
//! those of dead runs), `book` (a set of files written under a folder as one step: a book),
//! `journal` (finishing or undoing a book's swap that a run left unfinished, when its staging
//! folder is what Hedge writes), `lock` (one book writer at a time in a folder) and `paths`
//! (where the book file's folder is seen from the output folder, for the manifest). What is
//! left alone because it is not Hedge's (a forged staging folder, a link with a temporary's
//! name) is said in a note ([`take_notes`]).

mod book;
mod journal;
mod lock;
mod paths;
mod temporaries;
mod watch;

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

pub use book::{write_book, write_files_atomic};
pub use journal::recover_book;
pub use paths::relative_folder;
use temporaries::{create_pending_file, discard, forget, pending, remove_stale, temp_path};
pub use temporaries::{remove_temporaries, remove_temporaries_then};
pub use watch::{off_ui_thread, on_ui_thread, ui_thread_io};

use crate::design::Design;
use crate::error::{Error, ErrorKind, Result};
use crate::load::picture_too_big;
pub use crate::load::{LoadedShape, Loader, MAX_SHAPE_FILE_BYTES, design_to_toml, parse_design};
use crate::shape::{ShapeSource, builtin};

fn io_error(what: &str, e: &std::io::Error, path: &Path) -> Error {
    // a file over the process's size limit (`ulimit -f`; the binary ignores SIGXFSZ, so the
    // write fails with EFBIG) or the file system's
    if e.kind() == std::io::ErrorKind::FileTooLarge {
        return Error::new(
            ErrorKind::Io,
            format!("{what} {}: file too large", path.display()),
        );
    }
    // the OS message without the "(os error N)" tail, path last
    let msg = e.to_string();
    let msg = msg.split(" (os error").next().unwrap_or(&msg).to_string();
    Error::new(ErrorKind::Io, format!("{what}: {msg}: {}", path.display()))
}

/// Notes on what was left alone because it is not provably Hedge's (a staging folder that is
/// not as Hedge writes it, a link or folder with a temporary's name), each once, the first 32.
static NOTES: std::sync::Mutex<Vec<String>> = std::sync::Mutex::new(Vec::new());

/// Records a note ([`take_notes`]).
fn note(line: String) {
    let mut notes = NOTES.lock().unwrap_or_else(|e| e.into_inner());
    if notes.len() < 32 && !notes.contains(&line) {
        notes.push(line);
    }
}

/// The notes recorded since the last call, each a line (without `note: `): what the file
/// writes left alone because it was not provably Hedge's. The command line prints them.
pub fn take_notes() -> Vec<String> {
    std::mem::take(&mut *NOTES.lock().unwrap_or_else(|e| e.into_inner()))
}

/// The folder a file is written in (`.` for a bare name).
fn folder_of(path: &Path) -> &Path {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}

/// Where writing `path` puts the bytes: `path` itself, or, when it is a symbolic link (to a
/// link...), the file it finally names, so the link stays and its target gets the content.
fn resolve_links(path: &Path) -> std::io::Result<PathBuf> {
    let mut p = path.to_path_buf();
    for _ in 0..40 {
        match fs::symlink_metadata(&p) {
            Ok(m) if m.file_type().is_symlink() => {
                let to = fs::read_link(&p)?;
                p = if to.is_absolute() {
                    to
                } else {
                    folder_of(&p).join(to)
                };
            }
            _ => return Ok(p),
        }
    }
    Err(std::io::Error::other("too many levels of symbolic links"))
}

/// A file written to its temporary name, waiting to be renamed into place.
struct Staged {
    /// The path as given (for messages).
    shown: PathBuf,
    /// Where it goes (links resolved).
    target: PathBuf,
    /// Its temporary file beside `target`.
    tmp: PathBuf,
}

/// Checks `path` can be a file, clears stale temporaries beside it, and writes the output of
/// `fill` to its temporary file (synced).
fn stage(path: &Path, fill: impl FnOnce(&mut dyn Write) -> std::io::Result<()>) -> Result<Staged> {
    watch::touched("write", path);
    let target = resolve_links(path).map_err(|e| io_error("cannot write", &e, path))?;
    if target.is_dir() {
        return Err(Error::new(
            ErrorKind::Io,
            format!("cannot write: is a directory: {}", path.display()),
        ));
    }
    // a FIFO, a device or a socket (or a link to one) is not replaced by a regular file
    if let Ok(m) = fs::metadata(&target)
        && !m.file_type().is_file()
    {
        return Err(Error::new(
            ErrorKind::Io,
            format!(
                "cannot write: not a regular file (a pipe, device or socket), left as it is: {}",
                path.display()
            ),
        ));
    }
    remove_stale(folder_of(&target), false);
    let tmp = temp_path(&target, "");
    let written = (|| {
        let mut file = create_pending_file(&tmp)?;
        {
            let mut w = std::io::BufWriter::with_capacity(1 << 16, &mut file);
            fill(&mut w)?;
            w.flush()?;
        }
        file.sync_all()
    })();
    match written {
        Ok(()) => Ok(Staged {
            shown: path.to_path_buf(),
            target,
            tmp,
        }),
        Err(e) => {
            discard(&tmp);
            Err(io_error("cannot write", &e, path))
        }
    }
}

/// Renames staged files into place, all or none: a target that already exists is kept as a
/// hard link (`.NAME.old.hedge-PID.tmp`) until every rename has worked, so a failing rename puts the
/// earlier files back and removes the new ones.
fn commit(staged: Vec<Staged>) -> Result<()> {
    let mut backups: Vec<Option<PathBuf>> = Vec::with_capacity(staged.len());
    for s in &staged {
        let old = fs::symlink_metadata(&s.target).is_ok_and(|m| m.is_file());
        let backup = old.then(|| temp_path(&s.target, ".old")).filter(|b| {
            let mut list = pending();
            let _ = fs::remove_file(b);
            let linked = fs::hard_link(&s.target, b).is_ok();
            if linked {
                list.push(b.clone());
            }
            linked
        });
        backups.push(backup);
    }
    let mut failed = None;
    let mut done = 0;
    for s in &staged {
        if let Err(e) = fs::rename(&s.tmp, &s.target) {
            failed = Some(io_error("cannot write", &e, &s.shown));
            break;
        }
        forget(&s.tmp);
        done += 1;
    }
    if failed.is_some() {
        for (s, backup) in staged[..done].iter().zip(&backups) {
            match backup {
                Some(b) => {
                    let _ = fs::rename(b, &s.target);
                }
                None => {
                    let _ = fs::remove_file(&s.target);
                }
            }
        }
        for s in &staged[done..] {
            discard(&s.tmp);
        }
    }
    for b in backups.iter().flatten() {
        discard(b);
    }
    failed.map_or(Ok(()), Err)
}

/// Writes the output of `fill` to `path` atomically (a temporary file beside it, then a
/// rename). On any error the temporary file is removed and `path` is left as it was. When
/// `path` is a symbolic link, the file it points to is written and the link kept.
pub fn write_atomic_with(
    path: &Path,
    fill: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> Result<()> {
    let staged = stage(path, fill)?;
    commit(vec![staged])
}

/// Writes `bytes` to `path` atomically.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    write_atomic_with(path, |w| w.write_all(bytes))
}

/// Writes `bytes` to `path` atomically, making its folder (and those above) first when it is
/// missing (the editor's autosave file in its settings folder).
pub fn write_atomic_in_new_folder(path: &Path, bytes: &[u8]) -> Result<()> {
    let dir = folder_of(path);
    watch::touched("write", dir);
    fs::create_dir_all(dir).map_err(|e| io_error("cannot make the folder", &e, dir))?;
    write_atomic(path, bytes)
}

/// Removes the file at `path`; a file that is not there is not an error.
pub fn remove_file(path: &Path) -> Result<()> {
    watch::touched("write", path);
    match fs::remove_file(path) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
            Err(io_error("cannot remove", &e, path))
        }
        _ => Ok(()),
    }
}

/// Writes several files as one set, all or nothing: each is written to a temporary file beside
/// it first, and only when all are written are they renamed into place; on any failure none of
/// the new files remains (a file that was replaced already gets its earlier content back).
/// Symbolic links are written through, as [`write_atomic_with`] does.
pub fn write_set(files: &[(PathBuf, &[u8])]) -> Result<()> {
    write_set_with(byte_fills(files))
}

/// What writes one file's contents (into its temporary file).
type Fill<'a> = Box<dyn FnOnce(&mut dyn Write) -> std::io::Result<()> + 'a>;

/// Each file's bytes as what writes them.
fn byte_fills<'a>(files: &'a [(PathBuf, &[u8])]) -> Vec<(&'a Path, Fill<'a>)> {
    files
        .iter()
        .map(|(path, bytes)| {
            let fill: Fill<'a> = Box::new(move |w: &mut dyn Write| w.write_all(bytes));
            (path.as_path(), fill)
        })
        .collect()
}

/// [`write_set`], each file's contents written by its `fill` when its turn comes: one file's
/// contents are made (and can be dropped) before the next file's.
fn write_set_with(files: Vec<(&Path, Fill<'_>)>) -> Result<()> {
    // every target checked before anything is written
    for (path, _) in &files {
        if resolve_links(path).is_ok_and(|t| t.is_dir()) {
            return Err(Error::new(
                ErrorKind::Io,
                format!("cannot write: is a directory: {}", path.display()),
            ));
        }
    }
    let mut staged = Vec::with_capacity(files.len());
    for (path, fill) in files {
        match stage(path, fill) {
            Ok(s) => staged.push(s),
            Err(e) => {
                for s in &staged {
                    discard(&s.tmp);
                }
                return Err(e);
            }
        }
    }
    commit(staged)
}

/// Writes a printed maze to `path` and, when the answer key is a file of its own, the key
/// beside it as `NAME-key.EXT` ([`crate::export::key_file_name`]), as one set
/// ([`write_set`]): both or neither. Each file is made as it is written
/// ([`crate::export::Body::write_to`]), the puzzle before the key. Returns the files written,
/// the puzzle first.
pub fn write_printed(printed: &crate::export::Printed, path: &Path) -> Result<Vec<PathBuf>> {
    let mut paths = vec![path.to_path_buf()];
    if printed.key.is_some() {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        paths.push(path.with_file_name(crate::export::key_file_name(&name)));
    }
    let bodies = std::iter::once(&printed.puzzle).chain(printed.key.as_ref());
    let files: Vec<(&Path, Fill<'_>)> = paths
        .iter()
        .zip(bodies)
        .map(|(p, body)| {
            let fill: Fill<'_> = Box::new(move |w: &mut dyn Write| body.write_to(w));
            (p.as_path(), fill)
        })
        .collect();
    write_set_with(files)?;
    Ok(paths)
}

/// A book's PDF date, in seconds since 1970: `SOURCE_DATE_EPOCH` when it is set (the
/// reproducible-builds convention), else `file`'s modification time (the book file, so building
/// the same book file again makes the same bytes), else, with no file, the clock.
pub fn source_date(file: Option<&Path>) -> Result<i64> {
    if let Some(v) = std::env::var_os("SOURCE_DATE_EPOCH").filter(|v| !v.is_empty()) {
        let v = v.to_string_lossy();
        return v
            .trim()
            .parse::<i64>()
            .ok()
            .filter(|t| (0..=253_402_300_799).contains(t))
            .ok_or_else(|| {
                Error::option(format!(
                    "SOURCE_DATE_EPOCH must be a number of seconds since 1970, got \"{v}\""
                ))
            });
    }
    let time = match file {
        Some(file) => {
            watch::touched("read", file);
            fs::metadata(file)
                .and_then(|m| m.modified())
                .map_err(|e| io_error("cannot read the time of", &e, file))?
        }
        None => std::time::SystemTime::now(),
    };
    Ok(match time.duration_since(std::time::UNIX_EPOCH) {
        Ok(d) => d.as_secs() as i64,
        Err(e) => -(e.duration().as_secs() as i64),
    })
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
    watch::touched("read", path);
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

/// Reads a design file (TOML), with whether it gives the grid's height
/// ([`crate::load::ReadDesign`]).
pub fn read_design_file(path: &Path) -> Result<crate::load::ReadDesign> {
    crate::load::read_design_file(&Files, path)
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
    use crate::design::{Kind, Walls};

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
    fn a_set_is_written_whole_or_not_at_all() {
        let dir = tempfile::tempdir().unwrap();
        let (a, b) = (dir.path().join("d.svg"), dir.path().join("d-key.svg"));
        // the key's target is a folder: neither file is written
        fs::create_dir(&b).unwrap();
        let e = write_set(&[(a.clone(), b"p"), (b.clone(), b"k")]).unwrap_err();
        assert!(e.message.contains("is a directory"), "{e}");
        assert!(!a.exists());
        // the puzzle's: the same, and no stray key
        fs::remove_dir(&b).unwrap();
        fs::create_dir(&a).unwrap();
        assert!(write_set(&[(a.clone(), b"p"), (b.clone(), b"k")]).is_err());
        assert!(!b.exists());
        assert_eq!(
            fs::read_dir(dir.path()).unwrap().count(),
            1,
            "only the folder"
        );
        // a rename that fails after another one worked puts the earlier file back
        fs::remove_dir(&a).unwrap();
        write_set(&[(a.clone(), b"old"), (b.clone(), b"old key")]).unwrap();
        let staged = vec![
            stage(&a, |w| w.write_all(b"new")).unwrap(),
            stage(&b, |w| w.write_all(b"new key")).unwrap(),
        ];
        fs::remove_file(&staged[1].tmp).unwrap(); // its rename fails
        assert!(commit(staged).is_err());
        assert_eq!(fs::read(&a).unwrap(), b"old");
        assert_eq!(fs::read(&b).unwrap(), b"old key");
        assert_eq!(
            fs::read_dir(dir.path()).unwrap().count(),
            2,
            "no temporaries"
        );
        assert!(pending().iter().all(|p| !p.starts_with(dir.path())));
    }

    #[cfg(unix)]
    #[test]
    fn a_symbolic_link_is_written_through() {
        let dir = tempfile::tempdir().unwrap();
        let real = dir.path().join("real");
        fs::create_dir(&real).unwrap();
        let link = dir.path().join("link.json");
        std::os::unix::fs::symlink("real/target.json", &link).unwrap();
        write_atomic(&link, b"one").unwrap();
        write_atomic(&link, b"two").unwrap();
        assert!(
            fs::symlink_metadata(&link)
                .unwrap()
                .file_type()
                .is_symlink()
        );
        assert_eq!(fs::read(real.join("target.json")).unwrap(), b"two");
        assert_eq!(fs::read_dir(&real).unwrap().count(), 1);
        // a link to a link, absolute
        let again = dir.path().join("again.json");
        std::os::unix::fs::symlink(&link, &again).unwrap();
        write_atomic(&again, b"three").unwrap();
        assert_eq!(fs::read(real.join("target.json")).unwrap(), b"three");
        // a loop is an error, not a hang
        let (x, y) = (dir.path().join("x"), dir.path().join("y"));
        std::os::unix::fs::symlink(&y, &x).unwrap();
        std::os::unix::fs::symlink(&x, &y).unwrap();
        let e = write_atomic(&x, b"z").unwrap_err();
        assert!(e.message.contains("symbolic links"), "{e}");
    }

    #[test]
    fn the_longest_legal_name_is_written() {
        let dir = tempfile::tempdir().unwrap();
        for len in [245usize, 250, 255] {
            let name = format!("{}.svg", "m".repeat(len - 4));
            let path = dir.path().join(&name);
            write_atomic(&path, b"long").unwrap();
            assert_eq!(fs::read(&path).unwrap(), b"long");
            // twice: the second write keeps the first as its backup while it renames
            write_atomic(&path, b"again").unwrap();
            assert_eq!(fs::read(&path).unwrap(), b"again");
        }
        let left: Vec<String> = fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.starts_with('.'))
            .collect();
        assert!(left.is_empty(), "{left:?}");
    }

    #[cfg(unix)]
    #[test]
    fn a_fifo_or_device_is_not_replaced() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("pipe.svg");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        if !made.is_ok_and(|s| s.success()) {
            eprintln!("note: no mkfifo here; skipping");
            return;
        }
        let link = dir.path().join("null.svg");
        std::os::unix::fs::symlink("/dev/null", &link).unwrap();
        for p in [&fifo, &link] {
            let e = write_atomic(p, b"x").unwrap_err();
            assert!(e.message.contains("not a regular file"), "{e}");
        }
        use std::os::unix::fs::FileTypeExt;
        assert!(fs::symlink_metadata(&fifo).unwrap().file_type().is_fifo());
        assert!(
            fs::metadata("/dev/null")
                .unwrap()
                .file_type()
                .is_char_device()
        );
        let names: Vec<_> = fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(names.len(), 2, "no temporary left");
    }

    #[test]
    fn design_round_trips_through_toml() {
        let d = Design {
            kind: Kind::Walls(Walls {
                braid: 0.25,
                ..Walls::DEFAULT
            }),
            seed: Some(12),
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
