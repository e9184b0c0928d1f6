//! One writer at a time in a book folder: an advisory lock on the folder itself (std's
//! [`fs::File::try_lock`], `flock` on Unix), held by a book write from before it looks at the
//! folder until its swap is done, and by any run while it recovers a dead run's staging folder
//! there. A run that finds the folder locked never waits: a book run stops with one line, and
//! a run that only writes a file into the folder leaves the staging folders to the lock's
//! holder. The lock goes with the process, however it ends.

use std::fs;
use std::path::Path;

/// The lock on a folder, released when dropped.
#[derive(Debug)]
pub(super) struct FolderLock {
    _file: fs::File,
}

/// Takes the lock on the folder `dir` when no other run holds it: `Ok(None)` when one does.
/// A file system without locks (some network ones) counts as unlocked, as before locks: the
/// lock is advisory.
pub(super) fn try_lock_folder(dir: &Path) -> std::io::Result<Option<FolderLock>> {
    let file = fs::File::open(dir)?;
    match file.try_lock() {
        Ok(()) => Ok(Some(FolderLock { _file: file })),
        Err(fs::TryLockError::WouldBlock) => Ok(None),
        Err(fs::TryLockError::Error(_)) => Ok(Some(FolderLock { _file: file })),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_folder_is_locked_by_one_holder_at_a_time() {
        let dir = tempfile::tempdir().unwrap();
        let first = try_lock_folder(dir.path()).unwrap();
        assert!(first.is_some());
        // a second open file (as another process's) finds it held
        assert!(try_lock_folder(dir.path()).unwrap().is_none());
        drop(first);
        assert!(try_lock_folder(dir.path()).unwrap().is_some());
        assert!(try_lock_folder(&dir.path().join("missing")).is_err());
    }
}
