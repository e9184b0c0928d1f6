//! A book's staging folder after the fact: its journal (the names of the new entries), and
//! finishing or undoing the swap that a killed or interrupted run left.
//!
//! A staging folder is acted on only when it is what Hedge writes ([`inspect`]): a real
//! folder (not a link) holding only `new/`, `old/` (real folders) and `journal` (a regular
//! file); in `new/` and `old/` only a book's entries (`book.pdf`, `answers.pdf`, `cover.pdf`,
//! `manifest.json` as regular files, `pages/` as a real folder of regular files; in `old/`,
//! where the swap moved the earlier book's entries aside, also a symbolic link); a journal
//! naming only those. Undoing moves only plain names between the folder and the staging
//! folder, never follows a link, and first checks every step against what is there: an entry
//! put back never replaces one in the folder. A folder that is not so, or whose undoing would
//! touch something the run did not make, is left as it is, with a note
//! ([`super::take_notes`]) naming it. So a folder that arrived by unzip or sync, or was made to
//! look like Hedge's, can make Hedge do nothing outside the book's own entries.

use std::collections::BTreeSet;
use std::ffi::{OsStr, OsString};
use std::fs;
use std::path::Path;

use super::note;

/// The staging folder's list of the new entries' names.
pub(super) const JOURNAL: &str = "journal";

/// A book's manifest, the last of its entries moved in.
pub(super) const MANIFEST: &str = "manifest.json";

/// A book's folder of page SVGs.
pub(super) const PAGES: &str = "pages";

/// The top-level names a book's entries have, and whether each is a folder: the only names a
/// book write makes, a journal may list and a staging folder may hold.
pub(super) const BOOK_ENTRIES: [(&str, bool); 5] = [
    ("book.pdf", false),
    (crate::book::ANSWERS_PDF, false),
    (crate::book::COVER_PDF, false),
    (MANIFEST, false),
    (PAGES, true),
];

/// Whether `name` is a book's entry, and if so whether it is a folder.
pub(super) fn book_entry(name: &OsStr) -> Option<bool> {
    BOOK_ENTRIES
        .iter()
        .find(|(n, _)| OsStr::new(n) == name)
        .map(|&(_, dir)| dir)
}

/// The longest journal a book writes (five names and the end mark): a longer one is not one.
const MAX_JOURNAL_BYTES: u64 = 256;

/// Whether something (a link included, not followed) is at `p`.
pub(super) fn exists(p: &Path) -> bool {
    fs::symlink_metadata(p).is_ok()
}

/// Syncs a folder's entries to disk (best effort: renames survive a power cut).
pub(super) fn sync_dir(dir: &Path) {
    if let Ok(f) = fs::File::open(dir) {
        let _ = f.sync_all();
    }
}

/// Removes the staging folder `s`: its journal first (so a removal cut short is never taken
/// for a swap to undo), then the rest, no link followed; again while something is left (a
/// file that appeared meanwhile), a few times.
pub(super) fn remove_staging(s: &Path) {
    if fs::remove_file(s.join(JOURNAL)).is_ok() {
        sync_dir(s);
    }
    for _ in 0..8 {
        match fs::remove_dir_all(s) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => continue,
            _ => return,
        }
    }
}

/// The OS's message for `e`, without its "(os error N)" tail.
fn os(e: &std::io::Error) -> String {
    let msg = e.to_string();
    msg.split(" (os error").next().unwrap_or(&msg).to_string()
}

/// What says that `p` cannot be read, and why.
fn unreadable(p: &Path) -> impl Fn(std::io::Error) -> String + '_ {
    move |e| format!("{} cannot be read: {}", p.display(), os(&e))
}

/// Whether `p` is what a book's entry `folder` (or file) is: a real folder holding only
/// regular files, or a regular file; never a link.
fn is_book_entry_kind(p: &Path, folder: bool) -> Result<(), String> {
    let m = fs::symlink_metadata(p).map_err(unreadable(p))?;
    let t = m.file_type();
    if t.is_symlink() {
        return Err(format!("{} is a symbolic link", p.display()));
    }
    if !folder {
        return if t.is_file() {
            Ok(())
        } else {
            Err(format!("{} is not a regular file", p.display()))
        };
    }
    if !t.is_dir() {
        return Err(format!("{} is not a folder", p.display()));
    }
    let entries = fs::read_dir(p).map_err(unreadable(p))?;
    for e in entries {
        let e = e.map_err(unreadable(p))?;
        let t = e.file_type().map_err(unreadable(&e.path()))?;
        if !t.is_file() {
            return Err(format!("{} is not a regular file", e.path().display()));
        }
    }
    Ok(())
}

/// The entries of a staging folder's `new/` or `old/` at `dir` (a real folder), each checked
/// to be a book's entry of its kind; in `old/` (`links`) an entry may also be a symbolic link:
/// a link the swap moved aside, moved back as a link, never followed.
fn book_entries_in(dir: &Path, links: bool) -> Result<BTreeSet<OsString>, String> {
    let m = fs::symlink_metadata(dir).map_err(unreadable(dir))?;
    if !m.file_type().is_dir() {
        return Err(format!("{} is not a folder", dir.display()));
    }
    let mut names = BTreeSet::new();
    let entries = fs::read_dir(dir).map_err(unreadable(dir))?;
    for e in entries {
        let e = e.map_err(unreadable(dir))?;
        let name = e.file_name();
        let Some(folder) = book_entry(&name) else {
            return Err(format!(
                "{} is not a file Hedge writes for a book",
                e.path().display()
            ));
        };
        let link = e.file_type().is_ok_and(|t| t.is_symlink());
        if !(links && link) {
            is_book_entry_kind(&e.path(), folder)?;
        }
        names.insert(name);
    }
    Ok(names)
}

/// Reads the journal at `p` (a regular file, opened without following a link): the names it
/// lists when it was written whole (ending in a `.` line), `None` when it was cut short; an
/// error when it names anything but a book's entries.
fn read_journal(p: &Path) -> Result<Option<Vec<OsString>>, String> {
    use std::io::Read;
    let mut options = fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK);
    }
    let file = options.open(p).map_err(unreadable(p))?;
    let m = file.metadata().map_err(unreadable(p))?;
    if !m.is_file() || m.len() > MAX_JOURNAL_BYTES {
        return Err(format!("{} is not a journal Hedge writes", p.display()));
    }
    let mut text = String::new();
    file.take(MAX_JOURNAL_BYTES)
        .read_to_string(&mut text)
        .map_err(|_| format!("{} is not a journal Hedge writes", p.display()))?;
    let mut lines: Vec<&str> = text.split_terminator('\n').collect();
    if lines.pop() != Some(".") || !text.ends_with('\n') {
        // cut short: the swap had not begun
        return Ok(None);
    }
    let mut names: Vec<OsString> = Vec::with_capacity(lines.len());
    for line in lines {
        let name = OsString::from(line);
        if book_entry(&name).is_none() || names.contains(&name) {
            return Err(format!(
                "its journal names \"{line}\", not a file Hedge writes for a book"
            ));
        }
        names.push(name);
    }
    if names.is_empty() {
        return Err(format!("{} is not a journal Hedge writes", p.display()));
    }
    Ok(Some(names))
}

/// What a staging folder holds, checked to be what Hedge writes.
#[derive(Debug)]
struct Staging {
    /// The journal's names, when it is there and whole.
    journal: Option<Vec<OsString>>,
    /// The entries in `new/` (`None`: no `new/`).
    new: Option<BTreeSet<OsString>>,
    /// The entries in `old/`.
    old: BTreeSet<OsString>,
}

/// Checks that the staging folder `s` is what Hedge writes (see the module's doc), and reads
/// it; the error says what is not.
fn inspect(s: &Path) -> Result<Staging, String> {
    let m = fs::symlink_metadata(s).map_err(|e| format!("it cannot be read: {}", os(&e)))?;
    if !m.file_type().is_dir() {
        return Err("it is not a folder".into());
    }
    let mut found = Staging {
        journal: None,
        new: None,
        old: BTreeSet::new(),
    };
    let mut journal = false;
    let entries = fs::read_dir(s).map_err(|e| format!("it cannot be read: {}", os(&e)))?;
    for e in entries {
        let e = e.map_err(|e| format!("it cannot be read: {}", os(&e)))?;
        let name = e.file_name();
        match name.to_str() {
            Some("new") => found.new = Some(book_entries_in(&e.path(), false)?),
            Some("old") => found.old = book_entries_in(&e.path(), true)?,
            Some(JOURNAL) => journal = true,
            _ => {
                return Err(format!(
                    "{} is not something Hedge writes there",
                    e.path().display()
                ));
            }
        }
    }
    if journal {
        found.journal = read_journal(&s.join(JOURNAL))?;
    }
    if let (Some(names), Some(new)) = (&found.journal, &found.new)
        && let Some(stray) = new.iter().find(|n| !names.contains(n))
    {
        return Err(format!(
            "{} is not in its journal",
            s.join("new").join(stray).display()
        ));
    }
    Ok(found)
}

/// Undoes an unfinished swap from staging folder `s` in `out` (the journal's `names`; `new`,
/// `old`: what `S/new/` and `S/old/` hold): the new entries already moved in (the names
/// absent from `S/new/`) are moved back there, then the earlier ones in `S/old/` moved back
/// into `out`, then `s` is removed. Every step is checked before the first is taken: an entry
/// moved back into `S/new/` must be of its kind, and one moved back into `out` must find its
/// name free. Moving the new entries back rather than removing them makes an undo cut short
/// safe to do again: an earlier entry put back is never taken for a new one.
fn undo(
    out: &Path,
    s: &Path,
    names: &[OsString],
    new: &BTreeSet<OsString>,
    old: &BTreeSet<OsString>,
) -> Result<(), String> {
    let mut moved_in: Vec<&OsString> = Vec::new();
    for n in names.iter().filter(|n| !new.contains(*n)) {
        let p = out.join(n);
        if exists(&p) {
            is_book_entry_kind(&p, book_entry(n) == Some(true))?;
            moved_in.push(n);
        }
    }
    for n in old {
        let p = out.join(n);
        if exists(&p) && !moved_in.contains(&n) {
            return Err(format!(
                "putting back {} would replace {}",
                s.join("old").join(n).display(),
                p.display()
            ));
        }
    }
    for n in moved_in {
        fs::rename(out.join(n), s.join("new").join(n))
            .map_err(|e| format!("{} cannot be moved back: {}", out.join(n).display(), os(&e)))?;
    }
    for n in old {
        fs::rename(s.join("old").join(n), out.join(n)).map_err(|e| {
            format!(
                "{} cannot be put back: {}",
                s.join("old").join(n).display(),
                os(&e)
            )
        })?;
    }
    sync_dir(out);
    remove_staging(s);
    Ok(())
}

/// Undoes an unfinished swap from staging folder `s` in `out` that this run began: the same as
/// a dead run's ([`recover_book`]).
pub(super) fn roll_back(out: &Path, s: &Path) {
    recover_book(out, s);
}

/// Finishes or undoes what the book write with staging folder `s` in `out` left (a run
/// killed, or interrupted), when `s` is what Hedge writes: with no whole journal (or no
/// `new/`) the swap had not begun, or its staging folder was being removed, and `s` is
/// removed; when every new entry had been moved in, the new book is whole and `s` (the old
/// one) is removed; otherwise the earlier book is put back ([`undo`]). A staging folder that
/// is not what Hedge writes, or whose undoing would touch anything else, is left as it is, with
/// a note naming it.
pub fn recover_book(out: &Path, s: &Path) {
    let done = inspect(s).and_then(|found| match (found.journal, found.new) {
        (Some(names), Some(new)) if !new.is_empty() => undo(out, s, &names, &new, &found.old),
        _ => {
            remove_staging(s);
            Ok(())
        }
    });
    if let Err(why) = done {
        note(format!(
            "a staging folder that is not as Hedge writes it was left alone ({why}): {}",
            s.display()
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `out` holding the earlier book (`book.pdf`, `manifest.json`, `pages/p1.svg`, each
    /// "old ...") as a run killed in its swap leaves it: the earlier entries in `S/old/`, the
    /// new `book.pdf` and `pages/` moved in, the new manifest still in `S/new/`.
    fn killed_mid_swap(out: &Path) -> std::path::PathBuf {
        let s = out.join(".hedge-staging-4194400");
        fs::create_dir_all(s.join("new")).unwrap();
        fs::create_dir_all(s.join("old/pages")).unwrap();
        fs::create_dir_all(out.join("pages")).unwrap();
        fs::write(s.join(JOURNAL), "book.pdf\nmanifest.json\npages\n.\n").unwrap();
        fs::write(s.join("old/book.pdf"), "old pdf").unwrap();
        fs::write(s.join("old/manifest.json"), "old manifest").unwrap();
        fs::write(s.join("old/pages/p1.svg"), "old page").unwrap();
        fs::write(s.join("new/manifest.json"), "new manifest").unwrap();
        fs::write(out.join("book.pdf"), "new pdf").unwrap();
        fs::write(out.join("pages/p1.svg"), "new page").unwrap();
        s
    }

    fn earlier_book_is_back(out: &Path) {
        assert_eq!(fs::read(out.join("book.pdf")).unwrap(), b"old pdf");
        assert_eq!(
            fs::read(out.join("manifest.json")).unwrap(),
            b"old manifest"
        );
        assert_eq!(fs::read(out.join("pages/p1.svg")).unwrap(), b"old page");
        assert_eq!(fs::read_dir(out).unwrap().count(), 3, "no staging folder");
    }

    #[test]
    fn an_undo_cut_short_is_done_again_without_losing_the_earlier_book() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path();
        let s = killed_mid_swap(out);
        recover_book(out, &s);
        earlier_book_is_back(out);

        // the undo itself killed after it put back the earlier book.pdf: done again, that
        // book.pdf is not taken for the new one (the new one is back in S/new/)
        for f in ["book.pdf", "manifest.json", "pages"] {
            let p = out.join(f);
            if p.is_dir() {
                fs::remove_dir_all(p).unwrap();
            } else {
                fs::remove_file(p).unwrap();
            }
        }
        let s = killed_mid_swap(out);
        fs::rename(out.join("book.pdf"), s.join("new/book.pdf")).unwrap();
        fs::rename(out.join("pages"), s.join("new/pages")).unwrap();
        fs::rename(s.join("old/book.pdf"), out.join("book.pdf")).unwrap();
        recover_book(out, &s);
        earlier_book_is_back(out);

        // a removal cut short after the journal went: the rest is removed, nothing moved
        fs::create_dir_all(s.join("new")).unwrap();
        fs::write(s.join("new/book.pdf"), "new pdf").unwrap();
        fs::create_dir_all(s.join("old")).unwrap();
        recover_book(out, &s);
        earlier_book_is_back(out);
    }

    #[cfg(unix)]
    #[test]
    fn a_link_the_swap_moved_aside_is_put_back_as_a_link_and_any_other_is_left_alone() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("out");
        fs::create_dir(&out).unwrap();
        fs::write(dir.path().join("mine.pdf"), "mine").unwrap();
        // the earlier book.pdf was a link of the user's, moved aside, not followed
        let s = out.join(".hedge-staging-4194400");
        fs::create_dir_all(s.join("new")).unwrap();
        fs::create_dir_all(s.join("old")).unwrap();
        fs::write(s.join(JOURNAL), "book.pdf\nmanifest.json\n.\n").unwrap();
        fs::write(s.join("new/manifest.json"), "new manifest").unwrap();
        std::os::unix::fs::symlink("../mine.pdf", s.join("old/book.pdf")).unwrap();
        fs::write(out.join("book.pdf"), "new pdf").unwrap();
        let _ = super::super::take_notes();
        recover_book(&out, &s);
        assert_eq!(
            fs::read_link(out.join("book.pdf")).unwrap(),
            Path::new("../mine.pdf")
        );
        assert_eq!(fs::read(dir.path().join("mine.pdf")).unwrap(), b"mine");
        assert!(!s.exists());
        // a link among the new entries is not Hedge's: left alone, said once
        fs::create_dir_all(s.join("new")).unwrap();
        std::os::unix::fs::symlink("../../mine.pdf", s.join("new/book.pdf")).unwrap();
        recover_book(&out, &s);
        assert!(s.join("new/book.pdf").is_symlink());
        let notes = super::super::take_notes();
        assert_eq!(notes.len(), 1, "{notes:?}");
        assert!(notes[0].contains("is a symbolic link"), "{notes:?}");
    }
}
