//! What the Debian package installs besides the binary (`[package.metadata.deb]` in
//! Cargo.toml): the man page and shell completions under `assets/packaging/generated/` are what
//! `hedge man` and `hedge completions SHELL` print today, byte for byte (`UPDATE_SNAPSHOTS=1
//! cargo test --test integration packaging` rewrites them), and they speak of every
//! subcommand; the desktop entry and the AppStream metainfo pass their validators
//! (desktop-file-validate, appstreamcli; skipped with a message when the tool is absent);
//! every file the package lists exists.

use crate::common::{assert_ok, hedge, stderr_of};
use std::path::{Path, PathBuf};
use std::process::Stdio;

/// The subcommands every generated file must name.
const SUBCOMMANDS: [&str; 5] = ["generate", "shapes", "batch", "completions", "man"];

/// `assets/packaging/` in this checkout.
fn packaging() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/packaging")
}

/// Each generated file under `assets/packaging/generated/` with the `hedge` arguments that
/// print it.
fn generated() -> [(&'static str, &'static [&'static str]); 4] {
    [
        ("hedge.1", &["man"]),
        ("hedge.bash", &["completions", "bash"]),
        ("_hedge", &["completions", "zsh"]),
        ("hedge.fish", &["completions", "fish"]),
    ]
}

/// What `hedge ARGS` prints on standard output (the run must succeed and say nothing else).
fn printed(args: &[&str]) -> String {
    let out = hedge().args(args).output().unwrap();
    assert_ok(&out);
    assert_eq!(stderr_of(&out), "", "hedge {}", args.join(" "));
    String::from_utf8(out.stdout).expect("the output is UTF-8")
}

#[test]
fn committed_man_page_and_completions_are_what_hedge_prints() {
    let update = std::env::var_os("UPDATE_SNAPSHOTS").is_some();
    let dir = packaging().join("generated");
    for (name, args) in generated() {
        let fresh = printed(args);
        let path = dir.join(name);
        if update {
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(&path, &fresh).unwrap();
            continue;
        }
        let committed = std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("{}: {e} (run with UPDATE_SNAPSHOTS=1)", path.display()));
        assert!(
            committed == fresh,
            "{} is not what `hedge {}` prints today; run UPDATE_SNAPSHOTS=1 cargo test --test \
             integration packaging and commit it",
            path.display(),
            args.join(" ")
        );
    }
}

#[test]
fn man_page_and_completions_name_every_subcommand() {
    for (name, args) in generated() {
        let text = printed(args);
        for sub in SUBCOMMANDS {
            assert!(text.contains(sub), "{name} does not mention {sub}");
        }
        // and the flags of `generate`, not just the names
        assert!(
            text.contains("shape") && text.contains("topology"),
            "{name} lacks generate's flags"
        );
    }
    // the man page: a section of its own for each subcommand, with its flags (roff escapes
    // a dash as \-)
    let man = printed(&["man"]);
    assert!(
        man.lines().any(|l| l.starts_with(".TH hedge 1 ")),
        "no title line"
    );
    for sub in SUBCOMMANDS {
        let heading = format!(".SH \"HEDGE {}\"", sub.to_uppercase());
        assert!(man.contains(&heading), "no {heading}");
    }
    assert!(man.contains("\\-\\-topology"), "no --topology");
    assert!(
        man.contains("\\-\\-book") || man.contains("BOOK"),
        "no batch argument"
    );
    assert!(
        !man.contains("HEDGE HELP"),
        "the help subcommand has no section"
    );
}

#[test]
fn completions_refuse_an_unknown_shell() {
    let out = hedge().args(["completions", "tcsh"]).output().unwrap();
    assert!(!out.status.success());
    let err = stderr_of(&out);
    assert!(
        err.contains("bash") && err.contains("zsh") && err.contains("fish"),
        "{err}"
    );
}

/// `hedge man | head -1` and the like: a reader gone before anything is written ends the run
/// quietly with status 0, never a panic.
#[test]
fn man_and_completions_into_a_closed_pipe_end_quietly() {
    for args in [
        &["man"][..],
        &["completions", "bash"],
        &["completions", "zsh"],
    ] {
        let (reader, writer) = std::io::pipe().unwrap();
        // closed before hedge starts, so its first write fails with EPIPE
        drop(reader);
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_hedge"))
            .args(args)
            .stdout(writer)
            .stderr(Stdio::piped())
            .output()
            .unwrap();
        let err = stderr_of(&out);
        assert!(
            out.status.success(),
            "hedge {args:?}: {:?}: {err}",
            out.status
        );
        assert_eq!(err, "", "hedge {args:?}");
    }
}

/// Runs a validator on a packaging file, or says it is skipped when the tool is absent.
fn validate(tool: &str, args: &[&str], file: &str) {
    let path = packaging().join(file);
    let run = std::process::Command::new(tool)
        .args(args)
        .arg(&path)
        .output();
    let out = match run {
        Ok(out) => out,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            eprintln!("skipped: {tool} is not installed, {file} not validated");
            return;
        }
        Err(e) => panic!("{tool}: {e}"),
    };
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "{tool} {file}:\n{said}");
    eprintln!("{tool} {file}: {}", said.trim());
}

#[test]
fn desktop_entry_validates() {
    validate(
        "desktop-file-validate",
        &[],
        "io.github.hedge.Hedge.desktop",
    );
    let entry = std::fs::read_to_string(packaging().join("io.github.hedge.Hedge.desktop")).unwrap();
    // "Open with Hedge": the file manager passes the file, which `hedge FILE` opens
    assert!(entry.contains("\nExec=hedge %f\n"), "{entry}");
    assert!(entry.contains("\nIcon=io.github.hedge.Hedge\n"), "{entry}");
}

#[test]
fn metainfo_validates() {
    validate(
        "appstreamcli",
        &["validate", "--no-net"],
        "io.github.hedge.Hedge.metainfo.xml",
    );
    let text =
        std::fs::read_to_string(packaging().join("io.github.hedge.Hedge.metainfo.xml")).unwrap();
    let doc = roxmltree::Document::parse(&text).expect("the metainfo parses");
    let id = doc
        .descendants()
        .find(|n| n.has_tag_name("id"))
        .and_then(|n| n.text());
    assert_eq!(id, Some("io.github.hedge.Hedge"));
    // its screenshots are the README's pictures, which are in the repository
    let shots: Vec<&str> = doc
        .descendants()
        .filter(|n| n.has_tag_name("image"))
        .filter_map(|n| n.text())
        .collect();
    assert!(!shots.is_empty());
    for url in shots {
        let (_, local) = url
            .split_once("/main/")
            .unwrap_or_else(|| panic!("{url} is not a file of the repository"));
        assert!(local.starts_with("assets/readme/"), "{url}");
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(local);
        assert!(path.is_file(), "{url}: no {}", path.display());
    }
    // the version released is this one
    let version = format!("<release version=\"{}\"", env!("CARGO_PKG_VERSION"));
    assert!(text.contains(&version), "no {version}");
}

/// Every file `[package.metadata.deb]` installs but the binary is in the repository, and the
/// PNG icons are the sizes their folders say.
#[test]
fn every_packaged_file_exists() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let manifest: toml::Table = std::fs::read_to_string(root.join("Cargo.toml"))
        .unwrap()
        .parse()
        .unwrap();
    let assets = manifest["package"]["metadata"]["deb"]["assets"]
        .as_array()
        .expect("[package.metadata.deb] lists assets");
    let mut icons = 0;
    for asset in assets {
        let source = asset[0].as_str().unwrap();
        let target = asset[1].as_str().unwrap();
        if source.starts_with("target/") {
            continue;
        }
        let path = root.join(source);
        assert!(path.is_file(), "{source} is missing");
        if let Some(size) = target
            .strip_prefix("usr/share/icons/hicolor/")
            .and_then(|t| t.split_once('x'))
            .and_then(|(w, _)| w.parse::<u32>().ok())
        {
            let (w, h, _) = crate::common::decode_png(&std::fs::read(&path).unwrap());
            assert_eq!((w, h), (size, size), "{source}");
            icons += 1;
        }
    }
    assert_eq!(icons, 6, "16, 32, 48, 64, 128 and 256 px icons");
}
