//! A book folder is Hedge's to change only as far as Hedge provably wrote it (issue 57): a
//! `.hedge-staging-N` folder that arrived by unzip or sync, or was forged, is recovered only
//! when it is what a killed Hedge run leaves (item 1), so nothing outside OUTDIR, and no file of
//! the user's in it, is ever moved or removed.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use crate::common::{assert_ok, hedge, stderr_of};

/// A process id above the kernel's largest (4194304): no process has it, so a staging folder
/// named after it is a dead run's.
const DEAD: u32 = 4_194_400;

/// A small book.
const BOOK: &str = "[book]\npage_count = \"any\"\nallow_short = true\n\
                    [[pages]]\ncount = 2\nwidth = 8\nheight = 8\nseed_from = 1\n";

/// Everything under `dir` (links not followed): each path relative to it, with a file's bytes,
/// a link's target (`-> TARGET`) or `<dir>`.
fn tree(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    fn walk(root: &Path, dir: &Path, out: &mut BTreeMap<PathBuf, Vec<u8>>) {
        for e in fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            let rel = p.strip_prefix(root).unwrap().to_path_buf();
            let m = fs::symlink_metadata(&p).unwrap();
            if m.is_symlink() {
                let to = fs::read_link(&p).unwrap();
                out.insert(rel, format!("-> {}", to.display()).into_bytes());
            } else if m.is_dir() {
                out.insert(rel, b"<dir>".to_vec());
                walk(root, &p, out);
            } else {
                out.insert(rel, fs::read(&p).unwrap());
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(dir, dir, &mut out);
    out
}

/// `work/` with the user's `docs/` (a `book.pdf` among them) beside `out/`, which holds the
/// user's `notes.txt` and the forged staging folder `out/.hedge-staging-DEAD/` that `forge`
/// fills; returns (`work`, the staging folder).
fn forged(root: &Path, forge: impl FnOnce(&Path)) -> (PathBuf, PathBuf) {
    let work = root.join("work");
    let docs = work.join("docs");
    fs::create_dir_all(&docs).unwrap();
    fs::write(docs.join("book.pdf"), b"the user's own book").unwrap();
    fs::write(docs.join("guide.md"), b"# a guide").unwrap();
    let out = work.join("out");
    fs::create_dir(&out).unwrap();
    fs::write(out.join("notes.txt"), b"my notes").unwrap();
    let s = out.join(format!(".hedge-staging-{DEAD}"));
    fs::create_dir(&s).unwrap();
    forge(&s);
    fs::write(root.join("book.toml"), BOOK).unwrap();
    (work, s)
}

/// What fills a forged staging folder.
type Forge = fn(&Path);

/// The three forgeries of issue 57 item 1, each named.
#[cfg(unix)]
fn forgeries() -> Vec<(&'static str, Forge)> {
    vec![
        // `old` a link to ../../docs: its files were moved into OUTDIR, docs/book.pdf deleted
        ("old a link out of the folder", |s| {
            fs::create_dir_all(s.join("new")).unwrap();
            fs::write(s.join("new/manifest.json"), b"{}").unwrap();
            fs::write(s.join("journal"), "book.pdf\nmanifest.json\n.\n").unwrap();
            std::os::unix::fs::symlink("../../docs", s.join("old")).unwrap();
        }),
        // a journal naming notes.txt: the user's notes were deleted
        ("a journal naming notes.txt", |s| {
            fs::create_dir_all(s.join("new")).unwrap();
            fs::create_dir_all(s.join("old")).unwrap();
            fs::write(s.join("new/book.pdf"), b"pdf").unwrap();
            fs::write(s.join("journal"), "notes.txt\nbook.pdf\n.\n").unwrap();
        }),
        // old/notes.txt: moved over the user's notes
        ("old/notes.txt", |s| {
            fs::create_dir_all(s.join("new")).unwrap();
            fs::create_dir_all(s.join("old")).unwrap();
            fs::write(s.join("new/book.pdf"), b"pdf").unwrap();
            fs::write(s.join("old/notes.txt"), b"forged").unwrap();
            fs::write(s.join("journal"), "book.pdf\n.\n").unwrap();
        }),
        // the staging folder itself a link to a folder of the user's shaped like one: its
        // journal and files would be removed through the link
        ("the staging folder a link", |s| {
            let staged = s.parent().unwrap().parent().unwrap().join("docs/staged");
            fs::create_dir_all(staged.join("new")).unwrap();
            fs::create_dir_all(staged.join("old")).unwrap();
            fs::write(staged.join("new/book.pdf"), b"pdf").unwrap();
            fs::write(staged.join("journal"), "book.pdf\n.\n").unwrap();
            fs::remove_dir(s).unwrap();
            std::os::unix::fs::symlink("../docs/staged", s).unwrap();
        }),
    ]
}

/// `hedge batch` into a folder holding a forged staging folder, and `hedge generate -o
/// OUTDIR/x.json`: each forged folder is left as it is with a one-line note, nothing outside
/// OUTDIR and no file of the user's in it is touched, and the run does its work.
#[cfg(unix)]
#[test]
fn a_forged_staging_folder_is_left_alone_and_nothing_outside_is_touched() {
    for (what, forge) in forgeries() {
        for run in ["batch", "generate"] {
            let root = tempfile::tempdir().unwrap();
            let (work, _) = forged(root.path(), forge);
            let before = tree(&work);
            let mut cmd = hedge();
            cmd.current_dir(root.path());
            if run == "batch" {
                cmd.args(["batch", "book.toml", "-o", "work/out"]);
            } else {
                cmd.args(["generate", "--width", "5", "--seed", "1", "-o"])
                    .arg("work/out/x.json");
            }
            let done = cmd.output().unwrap();
            assert_ok(&done);
            let after = tree(&work);
            // everything that was there is there, byte for byte (the forged folder too)
            for (p, bytes) in &before {
                assert_eq!(after.get(p), Some(bytes), "{what}, {run}: {}", p.display());
            }
            let err = stderr_of(&done);
            let notes: Vec<&str> = err.lines().filter(|l| l.starts_with("note: ")).collect();
            assert_eq!(notes.len(), 1, "{what}, {run}: {err}");
            assert!(
                notes[0].contains("left alone")
                    && notes[0].ends_with(&format!("work/out/.hedge-staging-{DEAD}")),
                "{what}, {run}: {err}"
            );
            let made = if run == "batch" {
                "work/out/book.pdf"
            } else {
                "work/out/x.json"
            };
            assert!(root.path().join(made).is_file(), "{what}, {run}");
        }
    }
}

/// The paths a forged staging folder's entries are made at (relative to it; `../` is OUTDIR).
const FORGED_PATHS: [&str; 22] = [
    "new",
    "old",
    "journal",
    "new/book.pdf",
    "new/manifest.json",
    "new/pages",
    "new/pages/page-001.svg",
    "new/pages/sub",
    "new/notes.txt",
    "old/book.pdf",
    "old/manifest.json",
    "old/pages",
    "old/pages/page-001.svg",
    "old/notes.txt",
    "old/answers.pdf",
    "x",
    "../book.pdf",
    "../manifest.json",
    "../pages",
    "../pages/page-001.svg",
    "../answers.pdf",
    "../pages/sub",
];

/// The lines a forged journal is made of.
const JOURNAL_LINES: [&str; 8] = [
    "book.pdf",
    "manifest.json",
    "pages",
    "notes.txt",
    "../docs",
    "answers.pdf",
    ".",
    "",
];

#[cfg(unix)]
/// Writes a new file at `p`; nothing when something (a link too) is there already.
fn write_new(p: &Path, bytes: &[u8]) -> std::io::Result<()> {
    use std::io::Write;
    fs::File::create_new(p)?.write_all(bytes)
}

/// Builds in the staging folder `s` (in OUTDIR `out`, beside the user's `docs`) the tree that
/// `bytes` describe, two bytes an entry: where (of [`FORGED_PATHS`]) and what (the second
/// byte's low four bits: a folder 4 times in 16, a file 7, a link to `docs`, to `docs/book.pdf`
/// or to `../notes.txt` 1 each, or a journal whose lines the next byte picks 2). Entries whose folder is missing get it; what cannot be made is skipped.
/// The same reading as the fuzz target `staging` (fuzz/fuzz_targets/staging.rs).
#[cfg(unix)]
fn forge_from_bytes(s: &Path, docs: &Path, bytes: &[u8]) {
    let mut k = 0;
    while k + 1 < bytes.len() {
        let at = s.join(FORGED_PATHS[usize::from(bytes[k]) % FORGED_PATHS.len()]);
        let what = bytes[k + 1] % 16;
        k += 2;
        if let Some(parent) = at.parent() {
            let _ = fs::create_dir_all(parent);
        }
        let _ = match what {
            0..=3 => fs::create_dir(&at),
            // never through a link made before: forging changes nothing outside
            4..=10 => write_new(&at, b"forged"),
            11 => std::os::unix::fs::symlink(docs, &at),
            12 => std::os::unix::fs::symlink(docs.join("book.pdf"), &at),
            13 => std::os::unix::fs::symlink("../notes.txt", &at),
            _ => {
                let pick = bytes.get(k).copied().unwrap_or(0xff);
                k += 1;
                let mut text = String::new();
                for (b, line) in JOURNAL_LINES.iter().enumerate() {
                    if pick & (1 << b) != 0 {
                        text.push_str(line);
                        text.push('\n');
                    }
                }
                if pick & 1 != 0 {
                    text.push_str(".\n");
                }
                write_new(&s.join("journal"), text.as_bytes())
            }
        };
    }
}

/// Staging folders of every shape (a deterministic walk through 400 forged trees: the fuzz
/// target's reading of bytes, the bytes from a fixed generator, half of them trees of the
/// entries a killed run leaves) recovered by `hedge::io::recover_book`:
/// nothing outside OUTDIR and no file of the user's in it is ever moved, changed or removed,
/// whatever the folder holds; a folder left alone is said in a note.
#[cfg(unix)]
#[test]
fn no_staging_folder_makes_recovery_touch_anything_outside_the_book() {
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move || {
        // xorshift64*: the same bytes on every run
        state ^= state >> 12;
        state ^= state << 25;
        state ^= state >> 27;
        (state.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 56) as u8
    };
    let mut left_alone = 0;
    let mut recovered = 0;
    // every other case a tree of the entries a killed run can leave, each of its kind (a
    // folder, a file, a journal naming book.pdf and maybe more of a book's entries)
    let plain: Vec<(u8, u8)> = FORGED_PATHS
        .iter()
        .enumerate()
        .filter(|(_, p)| !p.contains("notes") && !p.ends_with("sub") && **p != "x")
        .map(|(k, p)| {
            let kind = match *p {
                "journal" => 14,
                "new" | "old" | "new/pages" | "old/pages" | "../pages" => 0,
                _ => 4,
            };
            (k as u8, kind)
        })
        .collect();
    for case in 0..400 {
        let len = 2 + usize::from(next()) % 24;
        let bytes: Vec<u8> = if case % 2 == 0 {
            let mut bytes = Vec::new();
            for _ in 0..len / 2 {
                let (at, kind) = plain[usize::from(next()) % plain.len()];
                bytes.extend([at, kind]);
                if kind == 14 {
                    bytes.push(next() & 0b0010_0111 | 1);
                }
            }
            bytes
        } else {
            (0..len).map(|_| next()).collect()
        };
        let root = tempfile::tempdir().unwrap();
        let (work, s) = forged(root.path(), |_| {});
        let docs = work.join("docs");
        forge_from_bytes(&s, &docs, &bytes);
        let docs_before = tree(&docs);
        let out = work.join("out");
        let _ = hedge::io::take_notes();
        hedge::io::recover_book(&out, &s);
        assert_eq!(tree(&docs), docs_before, "case {case}: {bytes:?}");
        assert_eq!(
            fs::read(out.join("notes.txt")).ok().as_deref(),
            Some(&b"my notes"[..]),
            "case {case}: {bytes:?}"
        );
        assert!(
            !fs::symlink_metadata(out.join("notes.txt"))
                .unwrap()
                .is_symlink()
        );
        let notes = hedge::io::take_notes();
        if s.exists() {
            assert_eq!(notes.len(), 1, "case {case}: {bytes:?}: {notes:?}");
            left_alone += 1;
        } else {
            assert!(notes.is_empty(), "case {case}: {bytes:?}: {notes:?}");
            recovered += 1;
        }
    }
    // both kinds were met
    assert!(
        left_alone > 100 && recovered > 100,
        "{left_alone} {recovered}"
    );
}

/// `hedge ARGS` in `dir` under `ulimit -f BLOCKS` (a shell's blocks: 512 or 1024 bytes).
#[cfg(unix)]
fn under_ulimit(dir: &Path, blocks: u32, args: &[&str]) -> std::process::Output {
    std::process::Command::new("sh")
        .arg("-c")
        .arg(format!("ulimit -f {blocks} && exec \"$0\" \"$@\""))
        .arg(env!("CARGO_BIN_EXE_hedge"))
        .args(args)
        .current_dir(dir)
        .env_remove("HEDGE_TEST_STOP")
        .output()
        .unwrap()
}

/// A file past `ulimit -f` (issue 57 item 6): SIGXFSZ killed the run (exit 153, no message),
/// leaving `.NAME.hedge-PID.tmp`, or a staging folder in a new OUTDIR. Now: one line naming
/// the file, exit 1, nothing left (the new OUTDIR and its new parent removed again).
#[cfg(unix)]
#[test]
fn a_file_past_ulimit_f_is_one_line_and_leaves_nothing() {
    let dir = tempfile::tempdir().unwrap();
    // a maze's SVG (and its key's) of over 64 KB, the limit 16 or 32 KB
    let run = under_ulimit(
        dir.path(),
        32,
        &[
            "generate", "--width", "120", "--height", "120", "--seed", "1", "-o", "big.svg",
        ],
    );
    let err = stderr_of(&run);
    assert_eq!(run.status.code(), Some(1), "{err}");
    assert_eq!(err, "error: cannot write big.svg: file too large\n");
    assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 0, "nothing left");
    // the same run with room for it writes it (the limit is what failed)
    let run = under_ulimit(
        dir.path(),
        1 << 20,
        &[
            "generate", "--width", "120", "--height", "120", "--seed", "1", "-o", "big.svg",
        ],
    );
    assert_ok(&run);
    assert!(fs::metadata(dir.path().join("big.svg")).unwrap().len() > 64 << 10);
    fs::remove_file(dir.path().join("big.svg")).unwrap();
    fs::remove_file(dir.path().join("big-key.svg")).unwrap();

    // a book into a new folder: its PDF is past the limit
    fs::write(dir.path().join("book.toml"), BOOK).unwrap();
    let run = under_ulimit(dir.path(), 16, &["batch", "book.toml", "-o", "made/out"]);
    let err = stderr_of(&run);
    assert_eq!(run.status.code(), Some(1), "{err}");
    assert_eq!(
        err,
        "error: cannot write made/out/book.pdf: file too large\n"
    );
    let left: Vec<_> = fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(left, ["book.toml"], "no folder left");
}
