//! What an interrupted run leaves (issue 20 finding 8: SIGTERM during a big write left a
//! `.NAME.PID.tmp` of hundreds of MB). The binary's SIGINT / SIGTERM handler calls
//! `hedge::io::remove_temporaries_then`; this drives the same removal at a known moment,
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

/// The names in `dir`, sorted.
fn names_in(dir: &std::path::Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// Runs the `hedge` binary with `args` in `dir`, waits (without sleeping: each look is caused by
/// the last one failing) until a name `ready` accepts is in `watch`, sends `signal` to the run and
/// returns its exit code. The run is big enough to be far from done when its first temporary
/// file or staging folder appears; if it ends first the test fails saying so.
#[cfg(unix)]
fn signal_mid_write(
    dir: &std::path::Path,
    watch: &std::path::Path,
    args: &[&str],
    ready: impl Fn(&str) -> bool,
    signal: &str,
) -> Option<i32> {
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_hedge"))
        .args(args)
        .current_dir(dir)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            panic!("the run ended ({status}) before anything was being written");
        }
        if names_in(watch).iter().any(|n| ready(n)) {
            break;
        }
        std::thread::yield_now();
    }
    let pid = child.id().to_string();
    let sent = std::process::Command::new("kill")
        .args([signal, &pid])
        .status()
        .unwrap();
    assert!(sent.success());
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    out.status.code()
}

#[cfg(unix)]
#[test]
fn a_signalled_run_removes_its_temporary_files_and_exits_128_plus_the_signal() {
    // SIGTERM while a big maze's SVG set (puzzle and key) is being written
    let dir = tempfile::tempdir().unwrap();
    let args = [
        "generate",
        "--topology",
        "hex",
        "--width",
        "1000",
        "--height",
        "1000",
        "--seed",
        "1",
        // a page big enough to print it (on Letter its corridors would be refused)
        "--paper",
        "2000x2000mm",
        "-o",
        "big.svg",
    ];
    let code = signal_mid_write(
        dir.path(),
        dir.path(),
        &args,
        |n| n.ends_with(".tmp"),
        "-TERM",
    );
    assert_eq!(code, Some(143));
    assert!(
        names_in(dir.path()).is_empty(),
        "{:?}",
        names_in(dir.path())
    );
}

#[cfg(unix)]
#[test]
fn a_signalled_book_removes_its_staging_folder_and_exits_130() {
    // SIGINT (Ctrl-C) while a book's pages are being written into its staging folder
    let dir = tempfile::tempdir().unwrap();
    let book = dir.path().join("book.toml");
    std::fs::write(
        &book,
        "[[pages]]\ncount = 12\nseed_from = 1\ntopology = \"hex\"\nwidth = 300\nheight = 300\n",
    )
    .unwrap();
    let out = dir.path().join("out");
    std::fs::create_dir(&out).unwrap();
    let args = ["batch", "book.toml", "-o", "out"];
    let code = signal_mid_write(
        dir.path(),
        &out,
        &args,
        |n| n.starts_with(".hedge-staging-"),
        "-INT",
    );
    assert_eq!(code, Some(130));
    assert!(names_in(&out).is_empty(), "{:?}", names_in(&out));
}
