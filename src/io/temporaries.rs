//! The temporary files and staging folders this process has made and not yet renamed or
//! removed (a registry the SIGINT / SIGTERM handler empties), their names (which carry the
//! process id), and the removal of those left by runs that are no longer running (probed in
//! `/proc`): a temporary only when it is a regular file, a staging folder only when it is what
//! Hedge writes ([`recover_book`]) and no other run holds its folder's lock.

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard};

use super::journal::{recover_book, remove_staging};
use super::lock::try_lock_folder;
use super::{folder_of, note};

/// The temporary files and staging folders this process has made and not yet renamed or
/// removed: what [`remove_temporaries_then`] removes when the process is interrupted. Each
/// is created while this lock is held, so none appears after the cleanup has run.
static PENDING: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

pub(super) fn pending() -> MutexGuard<'static, Vec<PathBuf>> {
    PENDING.lock().unwrap_or_else(|e| e.into_inner())
}

/// Creates the temporary file `tmp` (replacing a leftover of the same name) and records it.
pub(super) fn create_pending_file(tmp: &Path) -> std::io::Result<fs::File> {
    let mut list = pending();
    let file = fs::File::create(tmp)?;
    list.push(tmp.to_path_buf());
    Ok(file)
}

/// Creates the file `path` (which must not exist) in the staging folder `staging`, under the
/// registry's lock and only while `staging` is recorded: once the interrupt's cleanup has
/// begun (it holds the lock until the process ends) no file appears in a staging folder, so
/// its removal never races a writer.
pub(super) fn create_in_staging(staging: &Path, path: &Path) -> std::io::Result<fs::File> {
    let list = pending();
    if !list.iter().any(|p| p == staging) {
        return Err(std::io::Error::other("interrupted"));
    }
    fs::File::create_new(path)
}

/// Forgets a temporary path that was renamed into place or removed.
pub(super) fn forget(path: &Path) {
    pending().retain(|p| p != path);
}

/// Removes a temporary file and forgets it.
pub(super) fn discard(tmp: &Path) {
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
            // a book: put back the earlier one, or finish the swap that was committed (no
            // writer adds a file meanwhile: see `create_in_staging`)
            recover_book(folder_of(p), p);
        } else if p.is_dir() {
            remove_staging(p);
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
pub(super) fn temp_path(path: &Path, tag: &str) -> PathBuf {
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

/// Removes from `dir` the temporary files and recovers the staging folders of Hedge runs that
/// are no longer running (killed before they could clean up). Best effort: what cannot be
/// removed stays. A temporary's name on anything but a regular file (a link, a folder) is not
/// Hedge's and is left alone, with a note; a staging folder is recovered only when it is what
/// Hedge writes ([`recover_book`]), and only with its folder's lock: `locked` when the caller
/// holds it, else it is taken here, and when another run holds it (a book being written
/// there) the staging folders are left to that run.
pub(super) fn remove_stale(dir: &Path, locked: bool) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    let me = std::process::id();
    let mut stagings = Vec::new();
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(pid) = name.to_str().and_then(temp_owner) else {
            continue;
        };
        if pid == me || process_alive(pid) {
            continue;
        }
        let path = entry.path();
        let Ok(t) = entry.file_type() else { continue };
        if name.to_string_lossy().starts_with(STAGING) {
            stagings.push(path);
        } else if t.is_file() {
            let _ = fs::remove_file(&path);
        } else {
            note(format!(
                "a {} with the name of a Hedge temporary file was left alone: {}",
                if t.is_symlink() {
                    "symbolic link"
                } else if t.is_dir() {
                    "folder"
                } else {
                    "special file"
                },
                path.display()
            ));
        }
    }
    if stagings.is_empty() {
        return;
    }
    let lock = if locked {
        None
    } else {
        match try_lock_folder(dir) {
            Ok(Some(lock)) => Some(lock),
            // another run is writing a book here, or the folder cannot be opened
            _ => return,
        }
    };
    for s in stagings {
        // the interrupt's cleanup waits for a recovery under way
        let _list = pending();
        recover_book(dir, &s);
    }
    drop(lock);
}

/// The prefix of a book's staging folder (then the process id).
pub(super) const STAGING: &str = ".hedge-staging-";

/// Folders a book write created (`out` and missing parents, deepest first), removed again
/// (when empty) by [`remove_temporaries_then`]. Changed only while [`PENDING`] is held.
static MADE_DIRS: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

pub(super) fn made_dirs() -> MutexGuard<'static, Vec<PathBuf>> {
    MADE_DIRS.lock().unwrap_or_else(|e| e.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::io::write_atomic;

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
        fs::create_dir_all(dir.path().join(format!(".hedge-staging-{dead}/new/pages"))).unwrap();
        fs::create_dir(dir.path().join(".hedge-staging-1")).unwrap(); // init: alive
        // a temporary's name on a link or a folder: not Hedge's, left alone
        let link = format!(".l.json.hedge-{dead}.tmp");
        let folder = format!(".f.json.hedge-{dead}.tmp");
        #[cfg(unix)]
        std::os::unix::fs::symlink("m.json", dir.path().join(&link)).unwrap();
        fs::create_dir(dir.path().join(&folder)).unwrap();
        fs::write(dir.path().join(&folder).join("kept"), b"x").unwrap();
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
            folder,
        ];
        #[cfg(unix)]
        want.push(link);
        want.sort();
        assert_eq!(left, want);
    }
}
