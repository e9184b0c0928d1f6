//! The one module that touches the file system: reading design files and writing outputs
//! atomically (a temporary file beside the target, then a rename), so a failed or interrupted
//! export never leaves a half-written file and never clobbers the previous one.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use crate::design::Design;
use crate::error::{Error, ErrorKind, Result};

fn io_error(what: &str, e: &std::io::Error, path: &Path) -> Error {
    // the OS message without the "(os error N)" tail, path last
    let msg = e.to_string();
    let msg = msg.split(" (os error").next().unwrap_or(&msg).to_string();
    Error::new(ErrorKind::Io, format!("{what}: {msg}: {}", path.display()))
}

fn temp_path(path: &Path) -> PathBuf {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    path.with_file_name(format!(".{name}.{}.tmp", std::process::id()))
}

/// Writes the output of `fill` to `path` atomically. On any error the temporary file is
/// removed and `path` is left as it was.
pub fn write_atomic_with(
    path: &Path,
    fill: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> Result<()> {
    if path.is_dir() {
        return Err(Error::new(
            ErrorKind::Io,
            format!("cannot write: is a directory: {}", path.display()),
        ));
    }
    let tmp = temp_path(path);
    let result = (|| {
        let mut file = fs::File::create(&tmp)?;
        fill(&mut file)?;
        file.sync_all()?;
        drop(file);
        fs::rename(&tmp, path)
    })();
    result.map_err(|e| {
        let _ = fs::remove_file(&tmp);
        io_error("cannot write", &e, path)
    })
}

/// Writes `bytes` to `path` atomically.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    write_atomic_with(path, |w| w.write_all(bytes))
}

/// Reads a design file (TOML).
pub fn read_design(path: &Path) -> Result<Design> {
    let text =
        fs::read_to_string(path).map_err(|e| io_error("cannot read the design", &e, path))?;
    parse_design(&text).map_err(|e| Error::input(format!("{}: {}", e.message, path.display())))
}

/// Parses a design from TOML text; the error is one line with the line and column.
pub fn parse_design(text: &str) -> Result<Design> {
    toml::from_str::<Design>(text).map_err(|e| {
        let at = e.span().map(|s| {
            let before = &text[..s.start.min(text.len())];
            let line = before.matches('\n').count() + 1;
            let col = before.len() - before.rfind('\n').map_or(0, |i| i + 1) + 1;
            format!(" (line {line}, column {col})")
        });
        let msg = e
            .message()
            .lines()
            .next()
            .unwrap_or("invalid design")
            .to_string();
        Error::input(format!("bad design file: {msg}{}", at.unwrap_or_default()))
    })
}

/// The design as TOML text.
pub fn design_to_toml(design: &Design) -> String {
    toml::to_string(design).expect("a design always serialises")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn atomic_write_leaves_nothing_on_failure() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("out.txt");
        write_atomic(&p, b"one").unwrap();
        let e = write_atomic_with(&p, |w| {
            w.write_all(b"partial")?;
            Err(std::io::Error::other("boom"))
        })
        .unwrap_err();
        assert!(e.message.starts_with("cannot write: boom"), "{e}");
        assert_eq!(fs::read(&p).unwrap(), b"one");
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1);
        let e = write_atomic(&dir.path().join("no/such/dir/x.json"), b"x").unwrap_err();
        assert!(e.message.contains("No such file or directory"), "{e}");
    }

    #[test]
    fn design_round_trips_through_toml() {
        let d = Design {
            seed: Some(12),
            braid: 0.25,
            ..Design::default()
        };
        assert_eq!(parse_design(&design_to_toml(&d)).unwrap(), d);
        let e = parse_design("width = 10\nbrade = 0.5\n").unwrap_err();
        assert!(
            e.message.contains("brade") && e.message.contains("line 2"),
            "{e}"
        );
        assert!(!e.message.contains('\n'));
    }
}
