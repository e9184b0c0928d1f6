//! Fuzz target: any bytes as a book folder's staging folder (`OUTDIR/.hedge-staging-N/`), built
//! in a temporary folder, then recovered as the next run into OUTDIR would recover a dead run's
//! (`hedge::io::recover_book`). Nothing outside OUTDIR (the user's `docs/` beside it, which the
//! forged folder's links point into) and no file of the user's in OUTDIR (`notes.txt`) may be
//! moved, changed or removed, whatever the staging folder holds; a folder left alone is said
//! in one note. The bytes are read two an entry, as `tests/staging.rs` reads its own.
#![no_main]

use std::collections::BTreeMap;
use std::fs;
use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};

use libfuzzer_sys::fuzz_target;

/// Where an entry is made (relative to the staging folder; `../` is OUTDIR).
const PATHS: [&str; 22] = [
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

/// The lines a journal is made of.
const LINES: [&str; 8] = [
    "book.pdf",
    "manifest.json",
    "pages",
    "notes.txt",
    "../docs",
    "answers.pdf",
    ".",
    "",
];

/// Everything under `dir`, links not followed: a file's bytes, a link's target, `<dir>`.
fn tree(dir: &Path, root: &Path, out: &mut BTreeMap<PathBuf, Vec<u8>>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        let rel = p.strip_prefix(root).unwrap().to_path_buf();
        let m = fs::symlink_metadata(&p).unwrap();
        if m.is_symlink() {
            let to = fs::read_link(&p).unwrap();
            out.insert(rel, to.to_string_lossy().as_bytes().to_vec());
        } else if m.is_dir() {
            out.insert(rel, b"<dir>".to_vec());
            tree(&p, root, out);
        } else {
            out.insert(rel, fs::read(&p).unwrap());
        }
    }
}

fn snapshot(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut out = BTreeMap::new();
    tree(dir, dir, &mut out);
    out
}

/// Writes a new file at `p`; nothing when something (a link too) is there already.
fn write_new(p: &Path, bytes: &[u8]) -> std::io::Result<()> {
    use std::io::Write;
    fs::File::create_new(p)?.write_all(bytes)
}

fuzz_target!(|data: &[u8]| {
    let root = std::env::temp_dir().join(format!("hedge-fuzz-staging-{}", std::process::id()));
    let _ = fs::remove_dir_all(&root);
    let docs = root.join("docs");
    let out = root.join("out");
    let s = out.join(".hedge-staging-4194400");
    fs::create_dir_all(docs.join("sub")).unwrap();
    fs::write(docs.join("book.pdf"), b"the user's own book").unwrap();
    fs::write(docs.join("sub/guide.md"), b"# a guide").unwrap();
    fs::create_dir_all(&s).unwrap();
    fs::write(out.join("notes.txt"), b"my notes").unwrap();

    let mut k = 0;
    while k + 1 < data.len() {
        let at = s.join(PATHS[usize::from(data[k]) % PATHS.len()]);
        let what = data[k + 1] % 16;
        k += 2;
        if let Some(parent) = at.parent() {
            let _ = fs::create_dir_all(parent);
        }
        let _ = match what {
            0..=3 => fs::create_dir(&at),
            // never through a link made before: forging changes nothing outside
            4..=10 => write_new(&at, b"forged"),
            11 => symlink(&docs, &at),
            12 => symlink(docs.join("book.pdf"), &at),
            13 => symlink("../notes.txt", &at),
            _ => {
                let pick = data.get(k).copied().unwrap_or(0xff);
                k += 1;
                let mut text = String::new();
                for (b, line) in LINES.iter().enumerate() {
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

    let before = snapshot(&docs);
    let _ = hedge::io::take_notes();
    hedge::io::recover_book(&out, &s);
    assert_eq!(snapshot(&docs), before, "the user's docs/ changed");
    assert_eq!(
        fs::read(out.join("notes.txt")).ok().as_deref(),
        Some(&b"my notes"[..]),
        "the user's notes.txt changed"
    );
    assert!(!fs::symlink_metadata(out.join("notes.txt")).unwrap().is_symlink());
    let notes = hedge::io::take_notes();
    let kept = fs::symlink_metadata(&s).is_ok();
    assert_eq!(notes.len(), usize::from(kept), "{notes:?}");
    for n in &notes {
        assert!(!n.contains('\n'), "{n}");
    }
    let _ = fs::remove_dir_all(&root);
});
