//! A book's staging folder after the fact: its journal (the names of the new entries), and
//! finishing or undoing the swap that a killed or interrupted run left.

use std::fs;
use std::path::Path;

/// The staging folder's list of the new entries' names.
pub(super) const JOURNAL: &str = "journal";

/// Whether something (a link included, not followed) is at `p`.
pub(super) fn exists(p: &Path) -> bool {
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
pub(super) fn sync_dir(dir: &Path) {
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
pub(super) fn roll_back(out: &Path, s: &Path, names: &[std::ffi::OsString]) {
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
