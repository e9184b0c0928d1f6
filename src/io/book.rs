//! Writing a set of files under a folder as one step (a book, or any set): staged in a folder
//! of its own, then swapped in under a journal, so the earlier set is replaced whole or not at
//! all. Also the fault hook the tests stop a run with.

use std::collections::BTreeMap;
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use super::journal::{
    BOOK_ENTRIES, JOURNAL, MANIFEST, book_entry, exists, recover_book, remove_staging, roll_back,
    sync_dir,
};
use super::lock::try_lock_folder;
use super::temporaries::{STAGING, create_in_staging, made_dirs, pending, remove_stale};
use super::{Fill, byte_fills, io_error};
use crate::error::{Error, ErrorKind, Result};

/// Writes a set of files under the folder `out` (created if missing) as one step: the book
/// protocol of [`write_book`], for any set of a book's files (`book.pdf`, `answers.pdf`,
/// `cover.pdf`, `manifest.json`, `pages/NAME`; the folder `pages/` is replaced as a whole, so
/// no file of an earlier run is left beside the new ones). On an error the folder is left as
/// it was, and the folders this call created (`out` and any missing parents) are removed
/// again, so a failed run leaves no empty folder.
pub fn write_files_atomic(out: &Path, files: &[(PathBuf, &[u8])]) -> Result<()> {
    write_folder(out, byte_fills(files))
}

/// Writes a book's files ([`crate::book::Built::files`]) under the folder `out`, each page's
/// SVG made as it is written, one at a time, so that the earlier book in `out` is replaced
/// whole or not at all. The protocol, in `out/.hedge-staging-PID/` (`S`):
///
/// 0. The folder's lock is taken ([`super::lock`]): while another run writes a book there,
///    this one stops with one line and changes nothing. Staging folders of dead runs are
///    recovered ([`recover_book`]: only when they are what Hedge writes).
/// 1. Every top-level entry the book makes is checked first: a file where the book puts a
///    folder (or a folder where it writes a file, or a pipe or device) is an error naming it,
///    and nothing is written.
/// 2. Every file is written (and synced) into `S/new/`. An error or an interrupt here removes
///    `S`; `out` was not touched. (Each file is created under the interrupt's lock, so its
///    removal of `S` never races a writer.)
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
/// A failed rename undoes the swap (the new entries moved back, the old ones moved back) and
/// the error names the entry. A run killed outright leaves `S`; the next write into `out`
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

/// Test hook, in debug builds only: `HEDGE_TEST_STOP=STEP` ends the run at `STEP` as a kill
/// would (exit status 86, nothing cleaned up); `HEDGE_TEST_STOP=STEP:term` sends the process
/// SIGTERM there (its handler then runs; outside the swap the run waits for it);
/// `HEDGE_TEST_STOP=STEP:wait` pauses the run there: it writes `test: stopped at STEP` on
/// standard error and goes on when its standard input ends (a test runs something else
/// meanwhile, or signals it, at a known step, with no timing). The steps:
/// `staging` (the first file written into the staging folder), `swap-out` (the earlier
/// manifest moved aside), `swap-in` (the first new entry moved in), `committed` (the new
/// manifest in place, the staging folder not yet removed). `locked`: the caller holds
/// [`PENDING`](super::temporaries::PENDING), so the signal's handler waits for it to be released.
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
    if how == "wait" {
        use std::io::{Read, Write};
        let _ = writeln!(std::io::stderr(), "test: stopped at {step}");
        let _ = std::io::stdin().read_to_end(&mut Vec::new());
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
        if BOOK_ENTRIES.iter().any(|(e, _)| *e == top) && !out.iter().any(|o| o == top) {
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
    check_folder(out)?;
    let tops = top_entries(out, &files)?;
    let dirs = sub_folders(&files);
    // the folders about to be created, deepest first
    let created: Vec<PathBuf> = out
        .ancestors()
        .take_while(|a| !a.as_os_str().is_empty() && !a.exists())
        .map(Path::to_path_buf)
        .collect();
    create_folder(out, &created)?;
    // one book writer at a time in `out`, held until the swap is done
    let _lock = match try_lock_folder(out) {
        Ok(Some(lock)) => lock,
        Ok(None) => {
            // the other run uses the folder: none of it is removed, even one this run made
            let _list = pending();
            made_dirs().retain(|d| !created.contains(d));
            return Err(Error::new(
                ErrorKind::Io,
                format!(
                    "cannot write the book: another Hedge run is writing in this folder (try again when it is done): {}",
                    out.display()
                ),
            ));
        }
        Err(e) => {
            remove_created(&created);
            return Err(io_error("cannot write the book", &e, out));
        }
    };
    remove_stale(out, true);
    let staging = out.join(format!("{STAGING}{}", std::process::id()));
    if exists(&staging) {
        // a dead run's that had this process id
        let _list = pending();
        recover_book(out, &staging);
    }
    if let Err(e) = check_in_the_way(out, &tops) {
        remove_created(&created);
        return Err(e);
    }
    if let Err(e) = write_staged(out, &staging, &dirs, files) {
        {
            let mut list = pending();
            remove_staging(&staging);
            list.retain(|p| p != &staging);
        }
        remove_created(&created);
        return Err(e);
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
            remove_created(&created);
            Err(e)
        }
    }
}

/// Refuses an `out` that is not a folder, or a symbolic link to nothing (creating the folder
/// would fail with "File exists").
fn check_folder(out: &Path) -> Result<()> {
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
    Ok(())
}

/// The top-level entries the files make under `out`, each a folder (`true`) or a file; an
/// error when a path is not plain and inside `out`, or is not a book's file (one of
/// [`BOOK_ENTRIES`] of its kind, or a file in `pages/`).
fn top_entries(
    out: &Path,
    files: &[(&Path, Fill<'_>)],
) -> Result<BTreeMap<std::ffi::OsString, bool>> {
    let mut tops: BTreeMap<std::ffi::OsString, bool> = BTreeMap::new();
    for (rel, _) in files {
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
        // a book's entries only: the names its journal may list and its recovery moves
        if parts.len() > 2 || book_entry(&name) != Some(is_dir) {
            return Err(Error::new(
                ErrorKind::Io,
                format!(
                    "cannot write: not one of a book's files (book.pdf, answers.pdf, cover.pdf, manifest.json, pages/NAME) in {}: {}",
                    out.display(),
                    rel.display()
                ),
            ));
        }
        tops.insert(name, is_dir);
    }
    Ok(tops)
}

/// The sub-folders the files sit in (relative, sorted, each once).
fn sub_folders(files: &[(&Path, Fill<'_>)]) -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = files
        .iter()
        .filter_map(|(rel, _)| rel.parent().filter(|p| !p.as_os_str().is_empty()))
        .map(Path::to_path_buf)
        .collect();
    dirs.sort();
    dirs.dedup();
    dirs
}

/// Removes again the folders a write created (`created`, deepest first; it stops at the first
/// one that is not empty) and forgets them.
fn remove_created(created: &[PathBuf]) {
    let _list = pending();
    for dir in created {
        if fs::remove_dir(dir).is_err() {
            break;
        }
    }
    made_dirs().retain(|d| !created.contains(d));
}

/// Creates the folder `out` with its missing parents (`created`), recorded for the interrupt's
/// cleanup; on an error they are removed again.
fn create_folder(out: &Path, created: &[PathBuf]) -> Result<()> {
    let _list = pending();
    let made = fs::create_dir_all(out);
    made_dirs().extend(created.iter().cloned());
    if let Err(e) = made {
        drop(_list);
        remove_created(created);
        return Err(io_error("cannot create the folder", &e, out));
    }
    Ok(())
}

/// Creates the staging folder `staging` (recorded) with `new/` and its sub-folders `dirs`, and
/// writes every file (synced) into `new/`, each created under the registry's lock while
/// `staging` is recorded ([`create_in_staging`]). An error names the file (as in `out`).
fn write_staged(
    out: &Path,
    staging: &Path,
    dirs: &[PathBuf],
    files: Vec<(&Path, Fill<'_>)>,
) -> Result<()> {
    let new = staging.join("new");
    (|| {
        // every folder made at once: after an interrupt's cleanup none is made again
        let mut list = pending();
        fs::create_dir(staging)?;
        list.push(staging.to_path_buf());
        fs::create_dir(&new)?;
        for d in dirs {
            fs::create_dir_all(new.join(d))?;
        }
        Ok(())
    })()
    .map_err(|e| io_error("cannot write", &e, out))?;
    for (k, (rel, fill)) in files.into_iter().enumerate() {
        (|| {
            let mut f = create_in_staging(staging, &new.join(rel))?;
            {
                let mut w = std::io::BufWriter::with_capacity(1 << 16, &mut f);
                fill(&mut w)?;
                w.flush()?;
            }
            f.sync_all()
        })()
        .map_err(|e| io_error("cannot write", &e, &out.join(rel)))?;
        if k == 0 {
            test_stop("staging", false);
        }
    }
    Ok(())
}

/// Steps 3 to 5 of [`write_book`]'s protocol: the journal, the old entries aside (the
/// manifest first), the new ones in (the manifest last), the staging folder removed; undone
/// on a failed rename, the error naming its entry. Holds [`PENDING`](super::temporaries::PENDING) throughout.
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
            remove_staging(s);
            Ok(())
        }
        Err((e, p)) => {
            roll_back(out, s);
            Err(io_error("cannot write the book", &e, &p))
        }
    };
    list.retain(|p| p != s);
    result
}

#[cfg(test)]
mod tests {
    use super::*;

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
        // only a book's files: the names a journal may list and a recovery moves
        for name in ["notes.txt", "pages/a/b.svg", "pages"] {
            let e = write(&[(PathBuf::from(name), b"x".to_vec())]).unwrap_err();
            assert!(e.message.contains("not one of a book's files"), "{e}");
        }
        assert_eq!(fs::read_dir(&out).unwrap().count(), 2);
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
}
