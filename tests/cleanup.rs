//! What an interrupted run leaves (issue 20 finding 8: SIGTERM during a big write left a
//! `.NAME.PID.tmp` of hundreds of MB). The binary's SIGINT / SIGTERM handler calls
//! `hedge::io::remove_temporaries_and_exit`; this drives the same removal at a known moment,
//! in the middle of a write, with no signal and no timing. A binary of its own: the removal
//! takes every temporary file of the process, so no other test may be writing meanwhile.

#[test]
fn an_interrupted_write_leaves_no_temporary_file() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("m.json");
    let names = || -> Vec<String> {
        std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect()
    };
    let result = hedge::io::write_atomic_with(&target, |w| {
        w.write_all(b"{\"half\": ")?;
        // mid-write: the temporary file is there, then the interrupt removes it
        assert!(names().iter().any(|n| n.ends_with(".tmp")), "{:?}", names());
        hedge::io::remove_temporaries();
        assert!(names().is_empty(), "{:?}", names());
        Err(std::io::Error::other("interrupted"))
    });
    assert!(result.is_err());
    assert!(names().is_empty(), "{:?}", names());
}
