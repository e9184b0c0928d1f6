//! A book replaces the earlier one whole or not at all (issue 40, item 3): `hedge batch` stopped
//! at each step of `hedge::io::write_book`'s protocol (the debug build's `HEDGE_TEST_STOP`
//! hook: as a kill would, or with SIGTERM), a file in the way, and an earlier book's files that
//! the new one does not make. No timing: each stop is at a named step.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use crate::common::{assert_ok, hedge, stderr_of};

/// Three puzzles, the answers in `answers.pdf`.
const OLD: &str = "[book]\npage_count = \"any\"\nallow_short = true\nanswers = \"separate\"\n\
                   [[pages]]\ncount = 3\nwidth = 8\nheight = 8\nseed_from = 1\n";
/// Two other puzzles, the answers at the back (no `answers.pdf`).
const NEW: &str = "[book]\npage_count = \"any\"\nallow_short = true\n\
                   [[pages]]\ncount = 2\nwidth = 9\nheight = 9\nseed_from = 5\n";

/// Every file under `dir` (paths relative to it) with its bytes.
fn tree(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    fn walk(root: &Path, dir: &Path, out: &mut BTreeMap<PathBuf, Vec<u8>>) {
        for e in fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                walk(root, &p, out);
            } else {
                out.insert(p.strip_prefix(root).unwrap().into(), fs::read(&p).unwrap());
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(dir, dir, &mut out);
    out
}

/// The names in `dir`, sorted.
fn names(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

/// `hedge batch NAME.toml -o out` in `dir` (the book file written from `text`), with a fixed
/// date so the same book is the same bytes; `stop` sets the `HEDGE_TEST_STOP` hook.
fn batch(
    dir: &Path,
    text: &str,
    name: &str,
    out: &str,
    stop: Option<&str>,
) -> std::process::Output {
    fs::write(dir.join(format!("{name}.toml")), text).unwrap();
    let mut cmd = hedge();
    cmd.current_dir(dir)
        .env("SOURCE_DATE_EPOCH", "1700000000")
        .args(["batch", &format!("{name}.toml"), "-o", out]);
    match stop {
        Some(s) => cmd.env("HEDGE_TEST_STOP", s),
        None => cmd.env_remove("HEDGE_TEST_STOP"),
    };
    cmd.output().unwrap()
}

/// The files of `text`'s book as a run into an empty folder makes them.
fn reference(dir: &Path, text: &str, name: &str) -> BTreeMap<PathBuf, Vec<u8>> {
    assert_ok(&batch(dir, text, name, &format!("ref-{name}"), None));
    tree(&dir.join(format!("ref-{name}")))
}

/// The leftover staging folder in `out`, if any.
fn staging(out: &Path) -> Option<PathBuf> {
    names(out)
        .into_iter()
        .find(|n| n.starts_with(".hedge-staging-"))
        .map(|n| out.join(n))
}

#[test]
fn an_earlier_books_files_go_and_the_users_stay() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    assert_ok(&batch(dir.path(), OLD, "old", "out", None));
    assert!(out.join("answers.pdf").exists());
    fs::write(out.join("notes.txt"), b"mine").unwrap();
    fs::write(out.join(".notes.99999.tmp"), b"mine too").unwrap();
    assert_ok(&batch(dir.path(), NEW, "new", "out", None));
    let mut want = reference(dir.path(), NEW, "new");
    want.insert("notes.txt".into(), b"mine".to_vec());
    want.insert(".notes.99999.tmp".into(), b"mine too".to_vec());
    assert_eq!(tree(&out), want, "no answers.pdf of the earlier book");
}

#[test]
fn an_entry_in_the_way_is_named_and_nothing_changes() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    assert_ok(&batch(dir.path(), OLD, "old", "out", None));
    // a file where the book puts its pages folder; a folder where it writes book.pdf
    fs::remove_dir_all(out.join("pages")).unwrap();
    fs::write(out.join("pages"), b"x").unwrap();
    let before = tree(&out);
    let run = batch(dir.path(), NEW, "new", "out", None);
    assert!(!run.status.success());
    let err = stderr_of(&run);
    assert!(
        err.contains("in the way") && err.trim_end().ends_with("out/pages"),
        "{err}"
    );
    assert_eq!(tree(&out), before, "book.pdf and manifest.json untouched");
    assert_eq!(staging(&out), None);

    let out2 = dir.path().join("out2");
    fs::create_dir_all(out2.join("book.pdf")).unwrap();
    let run = batch(dir.path(), NEW, "new", "out2", None);
    let err = stderr_of(&run);
    assert!(
        err.contains("in the way") && err.trim_end().ends_with("out2/book.pdf"),
        "{err}"
    );
    assert_eq!(names(&out2), ["book.pdf"], "no manifest.json, no pages");
}

/// OUTDIR a link to nowhere: the message says so (it said "File exists"), the link stays a
/// link, and nothing is made where it points.
#[cfg(unix)]
#[test]
fn a_dangling_link_as_the_book_folder_is_named_as_one() {
    let dir = tempfile::tempdir().unwrap();
    std::os::unix::fs::symlink("nowhere", dir.path().join("out")).unwrap();
    let run = batch(dir.path(), NEW, "new", "out", None);
    assert!(!run.status.success());
    let err = stderr_of(&run);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("symbolic link to nowhere") && err.trim_end().ends_with(": out"),
        "{err}"
    );
    assert!(
        fs::symlink_metadata(dir.path().join("out"))
            .unwrap()
            .is_symlink()
    );
    assert!(!dir.path().join("nowhere").exists());
    assert_eq!(names(dir.path()), ["new.toml", "out"]);
}

/// A run killed at each step leaves its staging folder; what the next run does with it
/// (`hedge::io::recover_book`, which `hedge batch` calls first) leaves the earlier book byte
/// for byte, or the new one whole once every new entry is in place.
#[test]
fn a_killed_book_is_undone_or_finished_by_the_next_run() {
    let dir = tempfile::tempdir().unwrap();
    let old = reference(dir.path(), OLD, "old");
    let new = reference(dir.path(), NEW, "new");
    for (step, whole) in [
        ("staging", &old),
        ("swap-out", &old),
        ("swap-in", &old),
        ("committed", &new),
    ] {
        let out = dir.path().join(format!("out-{step}"));
        assert_ok(&batch(dir.path(), OLD, "old", out.to_str().unwrap(), None));
        let run = batch(dir.path(), NEW, "new", out.to_str().unwrap(), Some(step));
        assert_eq!(run.status.code(), Some(86), "{step}: {}", stderr_of(&run));
        let s = staging(&out).unwrap_or_else(|| panic!("{step}: no staging folder left"));
        hedge::io::recover_book(&out, &s);
        assert_eq!(&tree(&out), whole, "{step}");
        assert_eq!(staging(&out), None, "{step}");
    }
    // the next run itself: it recovers first, then writes its book
    let out = dir.path().join("out-next");
    assert_ok(&batch(dir.path(), OLD, "old", "out-next", None));
    let run = batch(dir.path(), NEW, "new", "out-next", Some("swap-in"));
    assert_eq!(run.status.code(), Some(86));
    assert_ok(&batch(dir.path(), NEW, "new", "out-next", None));
    assert_eq!(&tree(&out), &new);
}

/// SIGTERM at each step: the handler leaves the earlier book byte for byte (while the pages
/// are staged) or the new one whole (a signal during the swap waits for it), no staging
/// folder, exit status 143; a folder the run created is removed again.
#[cfg(unix)]
#[test]
fn a_signalled_book_leaves_one_whole_book_and_no_staging_folder() {
    let dir = tempfile::tempdir().unwrap();
    let old = reference(dir.path(), OLD, "old");
    let new = reference(dir.path(), NEW, "new");
    for (step, whole) in [
        ("staging", &old),
        ("swap-out", &new),
        ("swap-in", &new),
        ("committed", &new),
    ] {
        let out = dir.path().join(format!("out-{step}"));
        assert_ok(&batch(dir.path(), OLD, "old", out.to_str().unwrap(), None));
        let stop = format!("{step}:term");
        let run = batch(dir.path(), NEW, "new", out.to_str().unwrap(), Some(&stop));
        assert_eq!(run.status.code(), Some(143), "{step}: {}", stderr_of(&run));
        assert_eq!(&tree(&out), whole, "{step}");
        assert_eq!(staging(&out), None, "{step}");
    }
    // a new folder (and its new parent) interrupted while staged: gone again
    let run = batch(dir.path(), NEW, "new", "made/out", Some("staging:term"));
    assert_eq!(run.status.code(), Some(143), "{}", stderr_of(&run));
    assert!(!dir.path().join("made").exists());
}

/// A `hedge batch` run paused at a step of the protocol by the `HEDGE_TEST_STOP=STEP:wait`
/// hook: it said so on standard error and goes on when its standard input is closed.
#[cfg(unix)]
struct Paused {
    child: std::process::Child,
    stderr: std::io::BufReader<std::process::ChildStderr>,
}

#[cfg(unix)]
impl Paused {
    /// Starts `hedge batch NAME.toml -o out` in `dir` and returns once it stopped at `step`
    /// (each look at its standard error waits for its next line: no timing).
    fn start(dir: &Path, text: &str, name: &str, out: &str, step: &str) -> Paused {
        use std::io::BufRead;
        fs::write(dir.join(format!("{name}.toml")), text).unwrap();
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_hedge"))
            .current_dir(dir)
            .env("SOURCE_DATE_EPOCH", "1700000000")
            .env("HEDGE_TEST_STOP", format!("{step}:wait"))
            .args(["batch", &format!("{name}.toml"), "-o", out])
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let mut stderr = std::io::BufReader::new(child.stderr.take().unwrap());
        let mut line = String::new();
        loop {
            line.clear();
            let read = stderr.read_line(&mut line).unwrap();
            assert!(read > 0, "the run ended before {step}");
            if line.trim_end() == format!("test: stopped at {step}") {
                break;
            }
        }
        Paused { child, stderr }
    }

    /// Sends the run `signal` (`-TERM`) with `kill`.
    fn signal(&self, signal: &str) {
        let sent = std::process::Command::new("kill")
            .args([signal, &self.child.id().to_string()])
            .status()
            .unwrap();
        assert!(sent.success());
    }

    /// Lets the run go on (closes its standard input) and waits for it: its exit code and the
    /// rest of its standard error.
    fn finish(mut self) -> (Option<i32>, String) {
        use std::io::Read;
        drop(self.child.stdin.take());
        let mut rest = String::new();
        self.stderr.read_to_string(&mut rest).unwrap();
        (self.child.wait().unwrap().code(), rest)
    }
}

/// Two `hedge batch` runs into one folder (issue 57 item 2): the second failed with
/// "Directory not empty: out/pages" and its roll-back deleted the first's `book.pdf`. Now the
/// first holds the folder's lock from before it looks at the folder until its swap is done:
/// a second run started meanwhile (the first paused there by the test hook) stops in one line
/// and touches nothing, `generate -o out/x.json` writes its file but leaves a dead run's
/// staging folder to the lock's holder, and the first run's book is whole.
#[cfg(unix)]
#[test]
fn a_second_book_run_into_a_folder_in_use_stops_and_loses_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let old = reference(dir.path(), OLD, "old");
    let new = reference(dir.path(), NEW, "new");
    let dead = ".hedge-staging-4194400";
    for step in ["staging", "swap-out", "swap-in"] {
        let out = dir.path().join(format!("out-{step}"));
        let out_name = format!("out-{step}");
        assert_ok(&batch(dir.path(), NEW, "new", &out_name, None));
        let first = Paused::start(dir.path(), OLD, "old", &out_name, step);
        let second = batch(dir.path(), NEW, "new", &out_name, None);
        assert_eq!(second.status.code(), Some(1), "{step}");
        assert_eq!(
            stderr_of(&second),
            format!(
                "error: cannot write the book: another Hedge run is writing in this folder \
                 (try again when it is done): {out_name}\n"
            ),
            "{step}"
        );
        // a killed run's staging folder (pages staged, no journal): not recovered meanwhile
        fs::create_dir_all(out.join(dead).join("new/pages")).unwrap();
        fs::write(out.join(dead).join("new/pages/page-001.svg"), b"<svg/>").unwrap();
        let x = hedge()
            .current_dir(dir.path())
            .args(["generate", "--width", "5", "--seed", "1", "-o"])
            .arg(format!("{out_name}/x.json"))
            .output()
            .unwrap();
        assert_ok(&x);
        assert!(out.join(dead).join("new/pages/page-001.svg").is_file());
        let (code, err) = first.finish();
        assert_eq!(code, Some(0), "{step}: {err}");
        let mut want = old.clone();
        want.insert("x.json".into(), fs::read(out.join("x.json")).unwrap());
        want.insert(
            PathBuf::from(dead).join("new/pages/page-001.svg"),
            b"<svg/>".to_vec(),
        );
        assert_eq!(tree(&out), want, "{step}: the first run's book, whole");
        // the next run recovers the dead run's folder and writes its book
        assert_ok(&batch(dir.path(), NEW, "new", &out_name, None));
        let mut want = new.clone();
        want.insert("x.json".into(), fs::read(out.join("x.json")).unwrap());
        assert_eq!(tree(&out), want, "{step}");
    }
}

/// SIGTERM while a book's pages are being written (issue 57 item 7): the handler's removal of
/// the staging folder raced the page writer, which went on creating files in it, and about one
/// run in four left `.hedge-staging-PID` with partial files. Now each file is created under the
/// handler's lock, so once the handler has begun no file appears. The run (a book of 14
/// pages) is paused by the test hook after its first file and signalled: while the writer
/// stays paused, the handler removes the folder, the earlier book stays byte for byte, exit
/// status 143. Let go at once after the signal, the writer goes on while the handler works:
/// whichever gets there first, no staging folder is left and the folder holds one whole book
/// (the earlier one, or the new one when its swap came first).
#[cfg(unix)]
#[test]
fn sigterm_while_pages_are_written_leaves_no_staging_folder() {
    const BIG: &str = "[book]\npage_count = \"any\"\nallow_short = true\n\
                       [[pages]]\ncount = 12\nwidth = 8\nheight = 8\nseed_from = 5\n";
    let dir = tempfile::tempdir().unwrap();
    let old = reference(dir.path(), OLD, "old");
    let new = reference(dir.path(), BIG, "big");
    assert!(new.len() > 12, "{}", new.len());
    for (k, let_go) in [false, true, true, true].into_iter().enumerate() {
        let out_name = format!("out-{k}");
        let out = dir.path().join(&out_name);
        assert_ok(&batch(dir.path(), OLD, "old", &out_name, None));
        let run = Paused::start(dir.path(), BIG, "big", &out_name, "staging");
        assert!(staging(&out).is_some());
        run.signal("-TERM");
        if !let_go {
            // the writer stays paused (its standard input open: `wait` would close it): the
            // handler does not wait for it
            let Paused { mut child, .. } = run;
            let stdin = child.stdin.take();
            assert_eq!(child.wait().unwrap().code(), Some(143), "{k}");
            drop(stdin);
            assert_eq!(staging(&out), None, "{k}");
            assert_eq!(tree(&out), old, "{k}");
            continue;
        }
        let (code, err) = run.finish();
        assert!(matches!(code, Some(143 | 0)), "{k}: {code:?} {err}");
        assert_eq!(staging(&out), None, "{k}");
        let now = tree(&out);
        assert!(now == old || now == new, "{k}: {code:?}, a mixed folder");
        if code == Some(0) {
            assert!(now == new, "{k}");
        }
    }
}
