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

use std::collections::BTreeMap;
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard};

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

/// The temporary files and staging folders this process has made and not yet renamed or
/// removed: what [`remove_temporaries_then`] removes when the process is interrupted. Each
/// is created while this lock is held, so none appears after the cleanup has run.
static PENDING: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

fn pending() -> MutexGuard<'static, Vec<PathBuf>> {
    PENDING.lock().unwrap_or_else(|e| e.into_inner())
}

/// Creates the temporary file `tmp` (replacing a leftover of the same name) and records it.
fn create_pending_file(tmp: &Path) -> std::io::Result<fs::File> {
    let mut list = pending();
    let file = fs::File::create(tmp)?;
    list.push(tmp.to_path_buf());
    Ok(file)
}

/// Forgets a temporary path that was renamed into place or removed.
fn forget(path: &Path) {
    pending().retain(|p| p != path);
}

/// Removes a temporary file and forgets it.
fn discard(tmp: &Path) {
    let _ = fs::remove_file(tmp);
    forget(tmp);
}

/// Removes every temporary file and staging folder this process has made and not yet renamed
/// (and the folders it made for them, when empty), then runs `then` with the list still
/// locked, so no new temporary file appears meanwhile. For the binary's SIGINT / SIGTERM
/// handler, whose `then` ends the process (exit status 130 / 143): an interrupted run leaves
/// nothing behind but the files it had finished.
pub fn remove_temporaries_then<R>(then: impl FnOnce() -> R) -> R {
    let mut list = pending();
    remove_all(&list);
    list.clear();
    for dir in made_dirs().drain(..) {
        // only when empty: a folder of the user's, or one with files, stays
        let _ = fs::remove_dir(dir);
    }
    then()
}

/// Removes every temporary file and staging folder this process has made and not yet renamed,
/// and forgets them: [`remove_temporaries_then`] with nothing after.
pub fn remove_temporaries() {
    remove_temporaries_then(|| ())
}

fn remove_all(list: &[PathBuf]) {
    for p in list {
        let staging = p
            .file_name()
            .is_some_and(|n| n.to_string_lossy().starts_with(STAGING));
        if staging && p.is_dir() {
            // a book: put back the earlier one, or finish the swap that was committed
            recover_book(folder_of(p), p);
        } else if p.is_dir() {
            // a writer may still be adding a file: try again once
            if fs::remove_dir_all(p).is_err() {
                let _ = fs::remove_dir_all(p);
            }
        } else {
            let _ = fs::remove_file(p);
        }
    }
}

/// The word every temporary name of Hedge's carries before its process id, so a stale one is
/// never confused with a file of the user's (a `.notes.99999.tmp` is not Hedge's).
const TEMP_MARK: &str = "hedge-";

/// The longest file name most file systems take, in bytes.
const NAME_MAX: usize = 255;

/// The temporary name of `path` for this process: `.NAME.hedge-PID.tmp` beside it (`tag` adds a
/// word before the mark: `.NAME.old.hedge-PID.tmp`). A name too long for that (a legal name of
/// up to 255 bytes gains up to 22) is replaced by a digest of it: `.hedge-DIGEST.hedge-PID.tmp`.
fn temp_path(path: &Path, tag: &str) -> PathBuf {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let pid = std::process::id();
    let full = format!(".{name}{tag}.{TEMP_MARK}{pid}.tmp");
    if full.len() <= NAME_MAX {
        return path.with_file_name(full);
    }
    // FNV-1a: a stable digest of the name, no dependency (distinct names in one set stay apart)
    let digest = name.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    });
    path.with_file_name(format!(
        ".{TEMP_MARK}{digest:016x}{tag}.{TEMP_MARK}{pid}.tmp"
    ))
}

/// The process id a temporary name of Hedge's carries: `.NAME.hedge-PID.tmp` (a temporary
/// file or a backup) or `.hedge-staging-PID` (a book's staging folder); `None` for any other
/// name, whatever number it holds.
fn temp_owner(name: &str) -> Option<u32> {
    let pid = if let Some(pid) = name.strip_prefix(".hedge-staging-") {
        pid
    } else {
        let inner = name.strip_prefix('.')?.strip_suffix(".tmp")?;
        inner.rsplit_once('.')?.1.strip_prefix(TEMP_MARK)?
    };
    if pid.is_empty() || !pid.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    pid.parse().ok()
}

/// Whether the process `pid` is running. Without `/proc` (not Linux) every process counts as
/// running, so nothing is removed.
fn process_alive(pid: u32) -> bool {
    let proc = Path::new("/proc");
    !proc.join("self").exists() || proc.join(pid.to_string()).exists()
}

/// Removes from `dir` the temporary files and staging folders of Hedge runs that are no longer
/// running (killed before they could clean up). Best effort: what cannot be removed stays.
fn remove_stale(dir: &Path) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    let me = std::process::id();
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(pid) = name.to_str().and_then(temp_owner) else {
            continue;
        };
        if pid == me || process_alive(pid) {
            continue;
        }
        let path = entry.path();
        match entry.file_type() {
            Ok(t) if t.is_dir() && name.to_string_lossy().starts_with(STAGING) => {
                recover_book(dir, &path);
            }
            Ok(t) if t.is_dir() => {
                let _ = fs::remove_dir_all(&path);
            }
            Ok(_) => {
                let _ = fs::remove_file(&path);
            }
            Err(_) => {}
        }
    }
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
    remove_stale(folder_of(&target));
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
        Some(file) => fs::metadata(file)
            .and_then(|m| m.modified())
            .map_err(|e| io_error("cannot read the time of", &e, file))?,
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

/// Writes a set of files under the folder `out` (created if missing) as one step: the book
/// protocol of [`write_book`], for any set of files (a sub-folder such as `pages/` is replaced
/// as a whole, so no file of an earlier run is left beside the new ones). On an error the
/// folder is left as it was, and the folders this call created (`out` and any missing parents)
/// are removed again, so a failed run leaves no empty folder.
pub fn write_files_atomic(out: &Path, files: &[(PathBuf, &[u8])]) -> Result<()> {
    write_folder(out, byte_fills(files))
}

/// Writes a book's files ([`crate::book::Built::files`]) under the folder `out`, each page's
/// SVG made as it is written, one at a time, so that the earlier book in `out` is replaced
/// whole or not at all. The protocol, in `out/.hedge-staging-PID/` (`S`):
///
/// 1. Every top-level entry the book makes is checked first: a file where the book puts a
///    folder (or a folder where it writes a file, or a pipe or device) is an error naming it,
///    and nothing is written.
/// 2. Every file is written (and synced) into `S/new/`. An error or an interrupt here removes
///    `S`; `out` was not touched.
/// 3. `S/journal` lists the new book's top-level names (synced, ending in a `.` line).
/// 4. The swap, under the lock the SIGINT / SIGTERM handler takes, so a signal waits for it:
///    the entries of the earlier book are moved aside into `S/old/`, `manifest.json` first (so
///    from then on no manifest vouches for a mixed folder), then the new entries are moved in,
///    `manifest.json` last. The earlier book's entries are the names the new book makes and
///    the ones its `manifest.json` lists (of `book.pdf`, `answers.pdf`, `cover.pdf`,
///    `manifest.json`, `pages/`): a file of an earlier book that this one does not make (an
///    `answers.pdf`) goes; nothing else in `out` is touched.
/// 5. The new manifest in place is the commit; `S` (holding the old book) is removed.
///
/// A failed rename undoes the swap (the new entries removed, the old ones moved back) and the
/// error names the entry. A run killed outright leaves `S`; the next write into `out`
/// ([`recover_book`]) finishes it when every new entry had been moved in, and otherwise puts
/// the earlier book back byte for byte. So a reader can trust `out/manifest.json` and the files
/// it lists whenever `out` holds no `.hedge-staging-*` folder.
pub fn write_book(out: &Path, files: &[crate::book::OutputFile]) -> Result<()> {
    let bodies: Vec<(&Path, Fill<'_>)> = files
        .iter()
        .map(|f| {
            let fill: Fill<'_> = Box::new(move |w: &mut dyn Write| f.body.write_to(w));
            (f.path.as_path(), fill)
        })
        .collect();
    write_folder(out, bodies)
}

/// A book's manifest, the last of its entries moved in.
const MANIFEST: &str = "manifest.json";

/// The top-level names a book's entries have: the only ones an earlier book's manifest can
/// make this run remove.
const BOOK_ENTRIES: [&str; 5] = [
    "book.pdf",
    crate::book::ANSWERS_PDF,
    crate::book::COVER_PDF,
    MANIFEST,
    "pages",
];

/// The staging folder's list of the new entries' names.
const JOURNAL: &str = "journal";

/// The prefix of a book's staging folder (then the process id).
const STAGING: &str = ".hedge-staging-";

/// Folders a book write created (`out` and missing parents, deepest first), removed again
/// (when empty) by [`remove_temporaries_then`]. Changed only while [`PENDING`] is held.
static MADE_DIRS: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

fn made_dirs() -> MutexGuard<'static, Vec<PathBuf>> {
    MADE_DIRS.lock().unwrap_or_else(|e| e.into_inner())
}

/// Test hook, in debug builds only: `HEDGE_TEST_STOP=STEP` ends the run at `STEP` as a kill
/// would (exit status 86, nothing cleaned up); `HEDGE_TEST_STOP=STEP:term` sends the process
/// SIGTERM there (its handler then runs; outside the swap the run waits for it). The steps:
/// `staging` (the first file written into the staging folder), `swap-out` (the earlier
/// manifest moved aside), `swap-in` (the first new entry moved in), `committed` (the new
/// manifest in place, the staging folder not yet removed). `locked`: the caller holds
/// [`PENDING`], so the signal's handler waits for it to be released.
#[cfg(debug_assertions)]
fn test_stop(step: &str, locked: bool) {
    let Some(v) = std::env::var_os("HEDGE_TEST_STOP") else {
        return;
    };
    let v = v.to_string_lossy();
    let (at, how) = v.split_once(':').unwrap_or((&v, "exit"));
    if at != step {
        return;
    }
    if how != "term" {
        std::process::exit(86);
    }
    #[cfg(not(all(unix, feature = "cli")))]
    let _ = locked;
    #[cfg(all(unix, feature = "cli"))]
    {
        let _ = signal_hook::low_level::raise(signal_hook::consts::SIGTERM);
        if locked {
            PARK_AFTER_SWAP.store(true, std::sync::atomic::Ordering::SeqCst);
            return;
        }
        loop {
            std::thread::park();
        }
    }
}

#[cfg(not(debug_assertions))]
fn test_stop(_: &str, _: bool) {}

/// Set by [`test_stop`] when it signalled under the lock: the run waits once the lock is free,
/// so the handler's exit is the run's.
#[cfg(debug_assertions)]
static PARK_AFTER_SWAP: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

fn park_if_signalled() {
    #[cfg(debug_assertions)]
    if PARK_AFTER_SWAP.load(std::sync::atomic::Ordering::SeqCst) {
        loop {
            std::thread::park();
        }
    }
}

/// Whether something (a link included, not followed) is at `p`.
fn exists(p: &Path) -> bool {
    fs::symlink_metadata(p).is_ok()
}

/// Removes whatever is at `p` (a folder with its content; a link, not what it points to).
fn remove_entry(p: &Path) -> std::io::Result<()> {
    match fs::symlink_metadata(p) {
        Ok(m) if m.is_dir() => fs::remove_dir_all(p),
        Ok(_) => fs::remove_file(p),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(e),
    }
}

/// Syncs a folder's entries to disk (best effort: renames survive a power cut).
fn sync_dir(dir: &Path) {
    if let Ok(f) = fs::File::open(dir) {
        let _ = f.sync_all();
    }
}

/// The names the journal of staging folder `s` lists, when it was written whole.
fn read_journal(s: &Path) -> Option<Vec<std::ffi::OsString>> {
    let text = fs::read_to_string(s.join(JOURNAL)).ok()?;
    let mut lines: Vec<&str> = text.lines().collect();
    if lines.pop() != Some(".") {
        return None;
    }
    let names: Vec<std::ffi::OsString> = lines.into_iter().map(Into::into).collect();
    // one plain name each: nothing outside the folder is ever named
    names
        .iter()
        .all(|n| {
            let p = Path::new(n);
            p.components().count() == 1
                && matches!(p.components().next(), Some(std::path::Component::Normal(_)))
        })
        .then_some(names)
}

/// Undoes an unfinished swap from staging folder `s` in `out`: the new entries already moved
/// in (`names` absent from `S/new/`) are removed, the earlier ones in `S/old/` moved back;
/// then `s` is removed.
fn roll_back(out: &Path, s: &Path, names: &[std::ffi::OsString]) {
    for n in names {
        if !exists(&s.join("new").join(n)) {
            let _ = remove_entry(&out.join(n));
        }
    }
    if let Ok(entries) = fs::read_dir(s.join("old")) {
        for e in entries.flatten() {
            let _ = fs::rename(e.path(), out.join(e.file_name()));
        }
    }
    sync_dir(out);
    let _ = fs::remove_dir_all(s);
}

/// Finishes or undoes what the book write with staging folder `s` in `out` left (a run
/// killed, or interrupted): with no whole journal the swap had not begun, and `s` is removed;
/// when every new entry had been moved in, the new book is whole and `s` (the old one) is
/// removed; otherwise the earlier book is put back ([`roll_back`]).
pub fn recover_book(out: &Path, s: &Path) {
    match read_journal(s) {
        None => {
            let _ = fs::remove_dir_all(s);
        }
        Some(names) if names.iter().all(|n| !exists(&s.join("new").join(n))) => {
            let _ = fs::remove_dir_all(s);
        }
        Some(names) => roll_back(out, s, &names),
    }
}

/// The top-level entries the book in `out` made, by its `manifest.json` (only a Hedge book's,
/// and only the names a book's entries have); none without one.
fn old_book_entries(out: &Path) -> Vec<std::ffi::OsString> {
    #[derive(serde::Deserialize)]
    struct Cover {
        pdf: Option<String>,
    }
    #[derive(serde::Deserialize)]
    struct Page {
        svg: Option<String>,
        pdf: Option<String>,
    }
    #[derive(serde::Deserialize)]
    struct Old {
        format: String,
        pdf: Option<String>,
        answers_pdf: Option<String>,
        cover: Option<Cover>,
        #[serde(default)]
        pages: Vec<Page>,
    }
    let path = out.join(MANIFEST);
    // a regular file only (a pipe would block)
    if !fs::symlink_metadata(&path).is_ok_and(|m| m.is_file()) {
        return Vec::new();
    }
    let Ok(file) = fs::File::open(&path) else {
        return Vec::new();
    };
    let Ok(old) = serde_json::from_reader::<_, Old>(std::io::BufReader::new(file)) else {
        return Vec::new();
    };
    if old.format != crate::book::MANIFEST_FORMAT {
        return Vec::new();
    }
    let named = [old.pdf, old.answers_pdf, old.cover.and_then(|c| c.pdf)]
        .into_iter()
        .flatten()
        .chain(old.pages.into_iter().flat_map(|p| [p.svg, p.pdf]).flatten());
    let mut out: Vec<std::ffi::OsString> = vec![MANIFEST.into()];
    for n in named {
        let top = n.split('/').next().unwrap_or_default();
        if BOOK_ENTRIES.contains(&top) && !out.iter().any(|o| o == top) {
            out.push(top.into());
        }
    }
    out
}

/// Refuses an entry of `out` that is in the way of what the book makes there: a file (or a
/// pipe, device or socket) where it puts a folder, a folder where it writes a file. A link is
/// moved aside, never followed.
fn check_in_the_way(out: &Path, tops: &BTreeMap<std::ffi::OsString, bool>) -> Result<()> {
    for (name, &is_dir) in tops {
        let p = out.join(name);
        let Ok(m) = fs::symlink_metadata(&p) else {
            continue;
        };
        let t = m.file_type();
        let why = if t.is_symlink() {
            continue;
        } else if is_dir && !t.is_dir() {
            "it is a file where the book puts a folder"
        } else if !is_dir && t.is_dir() {
            "it is a folder where the book writes a file"
        } else if !is_dir && !t.is_file() {
            "it is a pipe, device or socket where the book writes a file"
        } else {
            continue;
        };
        return Err(Error::new(
            ErrorKind::Io,
            format!(
                "cannot write the book: an entry is in the way ({why}; move or rename it): {}",
                p.display()
            ),
        ));
    }
    Ok(())
}

/// [`write_book`]'s protocol, each file's contents written by its `fill`.
fn write_folder(out: &Path, files: Vec<(&Path, Fill<'_>)>) -> Result<()> {
    if out.exists() && !out.is_dir() {
        return Err(Error::new(
            ErrorKind::Io,
            format!("cannot write: not a folder: {}", out.display()),
        ));
    }
    // a symbolic link to nothing: creating the folder would fail with "File exists"
    if !out.exists()
        && let Ok(to) = fs::read_link(out)
    {
        return Err(Error::new(
            ErrorKind::Io,
            format!(
                "cannot write: the folder is a symbolic link to {}, which does not exist: {}",
                to.display(),
                out.display()
            ),
        ));
    }
    // the top-level entries, each a folder or a file; every path plain and inside `out`
    let mut tops: BTreeMap<std::ffi::OsString, bool> = BTreeMap::new();
    for (rel, _) in &files {
        let parts: Vec<_> = rel.components().collect();
        let plain = !parts.is_empty()
            && parts
                .iter()
                .all(|c| matches!(c, std::path::Component::Normal(_)));
        if !plain {
            return Err(Error::new(
                ErrorKind::Io,
                format!(
                    "cannot write: not a path inside the folder: {}",
                    rel.display()
                ),
            ));
        }
        let is_dir = parts.len() > 1;
        let name = parts[0].as_os_str().to_os_string();
        if *tops.entry(name).or_insert(is_dir) != is_dir {
            return Err(Error::new(
                ErrorKind::Io,
                format!(
                    "cannot write: both a file and a folder: {}",
                    out.join(parts[0]).display()
                ),
            ));
        }
    }
    let mut dirs: Vec<PathBuf> = files
        .iter()
        .filter_map(|(rel, _)| rel.parent().filter(|p| !p.as_os_str().is_empty()))
        .map(Path::to_path_buf)
        .collect();
    dirs.sort();
    dirs.dedup();
    // the folders about to be created, deepest first
    let created: Vec<PathBuf> = out
        .ancestors()
        .take_while(|a| !a.as_os_str().is_empty() && !a.exists())
        .map(Path::to_path_buf)
        .collect();
    let remove_created = || {
        let _list = pending();
        for dir in &created {
            if fs::remove_dir(dir).is_err() {
                break;
            }
        }
        made_dirs().retain(|d| !created.contains(d));
    };
    {
        let _list = pending();
        let made = fs::create_dir_all(out);
        made_dirs().extend(created.iter().cloned());
        if let Err(e) = made {
            drop(_list);
            remove_created();
            return Err(io_error("cannot create the folder", &e, out));
        }
    }
    remove_stale(out);
    let staging = out.join(format!("{STAGING}{}", std::process::id()));
    if exists(&staging) {
        // a dead run's that had this process id
        recover_book(out, &staging);
    }
    if let Err(e) = check_in_the_way(out, &tops) {
        remove_created();
        return Err(e);
    }
    let new = staging.join("new");
    let written = (|| -> std::io::Result<()> {
        {
            // every folder made at once: after an interrupt's cleanup none is made again
            let mut list = pending();
            fs::create_dir(&staging)?;
            list.push(staging.clone());
            fs::create_dir(&new)?;
            for d in &dirs {
                fs::create_dir_all(new.join(d))?;
            }
        }
        for (k, (rel, fill)) in files.into_iter().enumerate() {
            let mut f = fs::File::create_new(new.join(rel))?;
            {
                let mut w = std::io::BufWriter::with_capacity(1 << 16, &mut f);
                fill(&mut w)?;
                w.flush()?;
            }
            f.sync_all()?;
            if k == 0 {
                test_stop("staging", false);
            }
        }
        Ok(())
    })();
    if let Err(e) = written {
        {
            let mut list = pending();
            let _ = fs::remove_dir_all(&staging);
            list.retain(|p| p != &staging);
        }
        remove_created();
        return Err(io_error("cannot write", &e, out));
    }
    let old = old_book_entries(out);
    let swapped = swap(out, &staging, &tops, &old);
    park_if_signalled();
    match swapped {
        Ok(()) => {
            made_dirs().retain(|d| !created.contains(d));
            Ok(())
        }
        Err(e) => {
            remove_created();
            Err(e)
        }
    }
}

/// Steps 3 to 5 of [`write_book`]'s protocol: the journal, the old entries aside (the
/// manifest first), the new ones in (the manifest last), the staging folder removed; undone
/// on a failed rename, the error naming its entry. Holds [`PENDING`] throughout.
fn swap(
    out: &Path,
    s: &Path,
    tops: &BTreeMap<std::ffi::OsString, bool>,
    old_book: &[std::ffi::OsString],
) -> Result<()> {
    let mut list = pending();
    let names: Vec<std::ffi::OsString> = tops.keys().cloned().collect();
    let manifest_first = |v: &mut Vec<std::ffi::OsString>| {
        v.sort_by_key(|n| (n != MANIFEST, n.clone()));
    };
    let mut aside: Vec<std::ffi::OsString> = names
        .iter()
        .chain(old_book)
        .filter(|n| exists(&out.join(n)))
        .cloned()
        .collect();
    manifest_first(&mut aside);
    aside.dedup();
    let mut inward = names.clone();
    manifest_first(&mut inward);
    let first_is_manifest = inward.first().is_some_and(|n| n == MANIFEST);
    inward.rotate_left(usize::from(first_is_manifest));
    let done = (|| -> std::result::Result<(), (std::io::Error, PathBuf)> {
        let journal = s.join(JOURNAL);
        let mut text = String::new();
        for n in &names {
            text.push_str(&n.to_string_lossy());
            text.push('\n');
        }
        text.push_str(".\n");
        (|| {
            let mut f = fs::File::create_new(&journal)?;
            f.write_all(text.as_bytes())?;
            f.sync_all()?;
            fs::create_dir(s.join("old"))
        })()
        .map_err(|e| (e, journal.clone()))?;
        sync_dir(s);
        for n in &aside {
            let p = out.join(n);
            fs::rename(&p, s.join("old").join(n)).map_err(|e| (e, p))?;
            test_stop("swap-out", true);
        }
        for (k, n) in inward.iter().enumerate() {
            let p = out.join(n);
            fs::rename(s.join("new").join(n), &p).map_err(|e| (e, p))?;
            if k == 0 && inward.len() > 1 {
                test_stop("swap-in", true);
            }
        }
        Ok(())
    })();
    let result = match done {
        Ok(()) => {
            sync_dir(out);
            test_stop("committed", true);
            let _ = fs::remove_dir_all(s);
            Ok(())
        }
        Err((e, p)) => {
            roll_back(out, s, &names);
            Err(io_error("cannot write the book", &e, &p))
        }
    };
    list.retain(|p| p != s);
    result
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
    fn temporaries_of_dead_runs_are_removed_and_live_ones_kept() {
        assert_eq!(temp_owner(".m.json.hedge-123.tmp"), Some(123));
        assert_eq!(temp_owner(".m.json.old.hedge-77.tmp"), Some(77));
        assert_eq!(temp_owner(".hedge-staging-9"), Some(9));
        for other in [
            "m.json",
            ".m.json.tmp",
            ".x.12a.tmp",
            ".x.hedge-12a.tmp",
            ".hedge-staging-",
            "a.1.tmp",
            // a user's file with a number where Hedge puts its process id: not Hedge's
            ".notes.99999.tmp",
            ".m.json.123.tmp",
        ] {
            assert_eq!(temp_owner(other), None, "{other}");
        }
        if !Path::new("/proc/self").exists() {
            eprintln!("note: no /proc here; stale temporaries are never removed");
            return;
        }
        let dir = tempfile::tempdir().unwrap();
        // a pid above the kernel's largest (4194304) runs nothing
        let dead = 4_194_400;
        let live = std::process::id(); // this process: kept
        let files = [
            format!(".m.json.hedge-{dead}.tmp"),
            format!(".m.json.hedge-{live}.tmp"),
            "m.json".to_string(),
            ".notes.tmp".to_string(),
            format!(".notes.{dead}.tmp"),
        ];
        for f in &files {
            fs::write(dir.path().join(f), b"x").unwrap();
        }
        fs::create_dir_all(dir.path().join(format!(".hedge-staging-{dead}/pages"))).unwrap();
        fs::create_dir(dir.path().join(".hedge-staging-1")).unwrap(); // init: alive
        write_atomic(&dir.path().join("out.txt"), b"new").unwrap();
        let mut left: Vec<String> = fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        left.sort();
        let mut want = vec![
            ".hedge-staging-1".to_string(),
            format!(".m.json.hedge-{live}.tmp"),
            ".notes.tmp".into(),
            format!(".notes.{dead}.tmp"),
            "m.json".into(),
            "out.txt".into(),
        ];
        want.sort();
        assert_eq!(left, want);
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

    #[cfg(unix)]
    #[test]
    fn a_dangling_link_as_the_folder_is_named_as_such() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("book");
        std::os::unix::fs::symlink(dir.path().join("gone"), &out).unwrap();
        let files: Vec<(PathBuf, &[u8])> = vec![(PathBuf::from("a.txt"), b"a")];
        let e = write_files_atomic(&out, &files).unwrap_err();
        assert!(e.message.contains("symbolic link to"), "{e}");
        assert!(e.message.contains("which does not exist"), "{e}");
        assert!(!dir.path().join("gone").exists());
    }

    #[test]
    fn a_failed_book_write_leaves_no_new_folder() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("new/book");
        let bad: Vec<(PathBuf, &[u8])> = vec![
            (PathBuf::from("book.pdf"), b"pdf"),
            (PathBuf::from("book.pdf/inside"), b"x"),
        ];
        assert!(write_files_atomic(&out, &bad).is_err());
        assert!(!dir.path().join("new").exists());
        // an existing folder stays
        fs::create_dir(dir.path().join("kept")).unwrap();
        assert!(write_files_atomic(&dir.path().join("kept"), &bad).is_err());
        assert!(dir.path().join("kept").is_dir());
    }

    #[test]
    fn a_failed_rename_in_the_swap_puts_the_earlier_book_back_and_names_the_entry() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("book");
        let old: Vec<(PathBuf, &[u8])> = vec![
            (PathBuf::from("book.pdf"), b"old pdf"),
            (PathBuf::from("manifest.json"), b"{}"),
            (PathBuf::from("pages/p1.svg"), b"old page"),
        ];
        write_files_atomic(&out, &old).unwrap();
        // staged by hand, then "pages" vanishes from the staging folder: its rename fails
        // after book.pdf was moved in
        let s = out.join(format!("{STAGING}{}", std::process::id()));
        fs::create_dir_all(s.join("new/pages")).unwrap();
        fs::write(s.join("new/book.pdf"), b"new pdf").unwrap();
        fs::write(s.join("new/manifest.json"), b"{\"new\": 1}").unwrap();
        fs::remove_dir(s.join("new/pages")).unwrap();
        let tops: BTreeMap<std::ffi::OsString, bool> = [
            ("book.pdf".into(), false),
            ("manifest.json".into(), false),
            ("pages".into(), true),
        ]
        .into();
        let e = swap(&out, &s, &tops, &[]).unwrap_err();
        assert!(e.message.starts_with("cannot write the book: "), "{e}");
        assert!(e.message.ends_with("book/pages"), "{e}");
        assert_eq!(fs::read(out.join("book.pdf")).unwrap(), b"old pdf");
        assert_eq!(fs::read(out.join("manifest.json")).unwrap(), b"{}");
        assert_eq!(fs::read(out.join("pages/p1.svg")).unwrap(), b"old page");
        assert_eq!(fs::read_dir(&out).unwrap().count(), 3, "no staging folder");
        // a journal cut short is no journal: nothing in the folder is touched
        fs::create_dir_all(s.join("new")).unwrap();
        fs::write(s.join(JOURNAL), "book.pdf\nmanifest.json\n").unwrap();
        recover_book(&out, &s);
        assert_eq!(fs::read(out.join("book.pdf")).unwrap(), b"old pdf");
        assert!(!s.exists());
        // a manifest that is not a book's names nothing; a book's names only book entries
        assert_eq!(old_book_entries(&out), Vec::<std::ffi::OsString>::new());
        fs::write(
            out.join("manifest.json"),
            r#"{"format": "hedge-book", "pdf": "book.pdf", "answers_pdf": "../x",
               "pages": [{"svg": "pages/a.svg"}, {"svg": "notes.txt"}]}"#,
        )
        .unwrap();
        assert_eq!(
            old_book_entries(&out),
            ["manifest.json", "book.pdf", "pages"]
        );
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
