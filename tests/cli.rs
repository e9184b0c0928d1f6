//! The command line, run as a user runs it.

use crate::common::{hedge, stderr_of};
use std::fs;

#[cfg(not(feature = "gui"))]
#[test]
fn no_arguments_prints_help() {
    let out = hedge().output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("Usage"), "{text}");
    assert!(text.contains("generate"), "{text}");
}

/// With the editor built in, no arguments opens it; without a display that is one line on
/// stderr and a failure exit, never a panic.
#[cfg(feature = "gui")]
#[test]
fn no_arguments_without_a_display_is_one_line() {
    let out = hedge()
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        err,
        "hedge: no display found; use `hedge generate ...` (see `hedge --help`)\n"
    );
    assert!(out.stdout.is_empty());
}

/// `hedge FILE` opens the file in the editor ("Open with Hedge" passes it): without a display
/// it is the same one line; a name that is no file (a subcommand mistyped, most likely) is one
/// line naming the subcommands, exit 2, and no window.
#[cfg(feature = "gui")]
#[test]
fn a_file_argument_opens_the_editor_and_a_missing_one_is_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let design = dir.path().join("d.toml");
    fs::write(&design, "width = 5\n").unwrap();
    let out = hedge()
        .arg(&design)
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert_eq!(
        stderr_of(&out),
        "hedge: no display found; use `hedge generate ...` (see `hedge --help`)\n"
    );
    let out = hedge().arg("genrate").output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr_of(&out),
        "error: no such file or subcommand 'genrate' (subcommands: generate, shapes, batch, \
         regenerate, completions, man); try 'hedge --help'\n"
    );
    assert!(out.stdout.is_empty());
}

#[test]
fn json_output_is_complete_and_reproducible() {
    let dir = tempfile::tempdir().unwrap();
    let a = dir.path().join("a.json");
    let b = dir.path().join("b.json");
    for p in [&a, &b] {
        let out = hedge()
            .args([
                "generate", "--width", "12", "--height", "8", "--seed", "77", "-o",
            ])
            .arg(p)
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", stderr_of(&out));
        assert!(stderr_of(&out).contains("seed 77"));
    }
    let bytes = fs::read(&a).unwrap();
    assert_eq!(bytes, fs::read(&b).unwrap(), "same seed, same bytes");
    let v: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
    assert_eq!(v["format"], "hedge-maze");
    assert_eq!(v["seed"], 77);
    assert_eq!(v["cells"].as_array().unwrap().len(), 96);
    assert_eq!(v["passages"].as_array().unwrap().len(), 95);
    let sol = v["solution"].as_array().unwrap();
    assert_eq!(sol.first(), Some(&v["entrance"]));
    assert_eq!(sol.last(), Some(&v["exit"]));
}

/// The summary line names the difficulty model's parts (solution, turns, decision points, wrong
/// branches, loops) before the score they give, each with the value the JSON records.
#[test]
fn the_summary_names_the_difficulty_models_parts() {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("m.json");
    let out = hedge()
        .args(["generate", "--width", "14", "--height", "10", "--seed", "5"])
        .args(["--braid", "0.4", "-o"])
        .arg(&json)
        .output()
        .unwrap();
    let err = stderr_of(&out);
    assert!(out.status.success(), "{err}");
    let v: serde_json::Value = serde_json::from_slice(&fs::read(&json).unwrap()).unwrap();
    let m = &v["metrics"];
    let count = |key: &str, one: &str, many: &str| {
        let n = m[key].as_u64().unwrap();
        format!("{n} {}", if n == 1 { one } else { many })
    };
    assert!(m["loops"].as_u64().unwrap() > 1, "{m}");
    let parts = format!(
        "; solution {} cells ({:.1} %), {}, {}, wrong-branch cost {}, {}; difficulty {:.1} (harder \
         than ",
        m["solution_length"],
        100.0 * m["solution_ratio"].as_f64().unwrap(),
        count("turns", "turn", "turns"),
        count("decision_points", "decision point", "decision points"),
        m["branch_cost"],
        count("loops", "loop", "loops"),
        m["difficulty"].as_f64().unwrap()
    );
    let line = err.lines().find(|l| l.starts_with("seed 5: ")).unwrap();
    assert!(line.contains(&parts), "{line}\nwants\n{parts}");
    assert!(
        line.starts_with("seed 5: 140 rect cells, backtracker, "),
        "{line}"
    );
}

#[test]
fn a_random_seed_is_drawn_and_recorded() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("m.json");
    let out = hedge()
        .args(["generate", "--width", "5", "-o"])
        .arg(&p)
        .output()
        .unwrap();
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&fs::read(&p).unwrap()).unwrap();
    let seed = v["seed"].as_u64().unwrap();
    assert!(stderr_of(&out).contains(&format!("seed {seed}")));
}

#[test]
fn design_file_and_flags() {
    let dir = tempfile::tempdir().unwrap();
    let design = dir.path().join("d.toml");
    fs::write(&design, "width = 7\nheight = 5\nseed = 3\nbraid = 0.5\n").unwrap();
    let p = dir.path().join("m.json");
    let out = hedge()
        .args(["generate", "--design"])
        .arg(&design)
        .args(["--height", "6", "-o"])
        .arg(&p)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr_of(&out));
    let v: serde_json::Value = serde_json::from_slice(&fs::read(&p).unwrap()).unwrap();
    assert_eq!(
        (v["width"].as_u64(), v["height"].as_u64()),
        (Some(7), Some(6))
    );
    assert_eq!(v["braid"], 0.5);
    assert_eq!(v["seed"], 3);
}

/// Each bad input: a non-zero exit, one clear line on stderr, and no output file.
#[test]
fn bad_input_is_one_line_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let bad_design = dir.path().join("bad.toml");
    fs::write(&bad_design, "width = 10\nbrade = 1\n").unwrap();
    let cases: Vec<(Vec<String>, &str)> = vec![
        (
            vec!["--braid".into(), "1.5".into()],
            "braid must be between 0 and 1",
        ),
        (
            vec!["--weave".into(), "-0.5".into()],
            "weave must be between 0 and 1",
        ),
        (
            vec!["--width".into(), "0".into()],
            "width must be between 1",
        ),
        (vec!["--width".into(), "1".into()], "leaves 1 cell"),
        (
            vec!["--width".into(), "9000".into()],
            "more than 25000000 cells",
        ),
        (vec!["--entrance".into(), "1,1".into()], "needs an --exit"),
        (
            vec![
                "--entrance".into(),
                "2,2".into(),
                "--exit".into(),
                "0,0".into(),
            ],
            "not on the outline",
        ),
        (
            vec!["--entrance".into(), "sideways".into()],
            "unknown entrance",
        ),
        (
            vec!["--seed".into(), "9007199254740992".into()],
            "seed must be at most",
        ),
        (
            vec!["--design".into(), bad_design.display().to_string()],
            "unknown field `brade`",
        ),
        (
            vec!["--design".into(), "/no/such/design.toml".into()],
            "cannot read the design",
        ),
    ];
    for (args, expect) in cases {
        let out_path = dir.path().join("out.json");
        let out = hedge()
            .arg("generate")
            .args(&args)
            .arg("-o")
            .arg(&out_path)
            .output()
            .unwrap();
        let err = stderr_of(&out);
        assert!(!out.status.success(), "{args:?} succeeded");
        assert!(err.contains(expect), "{args:?}: {err}");
        assert_eq!(
            err.trim().lines().count(),
            1,
            "{args:?}: not one line: {err}"
        );
        assert!(!out_path.exists(), "{args:?} left a file");
    }
}

#[test]
fn argument_errors_name_the_choices() {
    let out = hedge()
        .args(["generate", "--algorithm", "nope"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(stderr_of(&out).contains("backtracker"));
    let out = hedge()
        .args(["generate", "--topology", "cube"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(stderr_of(&out).contains("rect, hex, polar or tri"));
}

/// Issue 40: flags a design cannot use were ignored without a word (`--style tiles` with
/// `--weave`, `--braid`, `--algorithm` or `--topology polar`; `--invert`, `--threshold`,
/// `--coverage` without a shape). Each is now one line naming the flag, and nothing is written.
#[test]
fn flags_the_design_cannot_use_are_errors_not_ignored() {
    let dir = tempfile::tempdir().unwrap();
    let out_path = dir.path().join("m.json");
    let run = |flags: &[&str]| {
        hedge()
            .arg("generate")
            .args(flags)
            .args(["--width", "6", "-o"])
            .arg(&out_path)
            .output()
            .unwrap()
    };
    let cases: [(&[&str], &str); 8] = [
        (
            &["--style", "tiles", "--weave", "0.3"],
            "--weave does not apply to tile mazes",
        ),
        (
            &["--style", "tiles", "--braid", "0.5"],
            "--braid does not apply to tile mazes",
        ),
        (
            &["--style", "tiles", "--algorithm", "prim"],
            "--algorithm does not apply to tile mazes",
        ),
        (
            &["--style", "tiles", "--topology", "polar"],
            "--topology does not apply to tile mazes",
        ),
        (&["--invert"], "--invert goes with a shape"),
        (&["--threshold", "40"], "--threshold goes with a shape"),
        (&["--coverage", "0.4"], "--coverage goes with a shape"),
        (&["--outline", "cells"], "--outline goes with a shape"),
    ];
    for (flags, said) in cases {
        let out = run(flags);
        let err = stderr_of(&out);
        assert_eq!(out.status.code(), Some(1), "{flags:?}: {err}");
        assert!(
            err.contains(said) && err.lines().count() == 1,
            "{flags:?}: {err}"
        );
        assert!(!out_path.exists(), "{flags:?}");
    }
    // the same knobs where they apply still work
    for flags in [
        &["--style", "tiles", "--topology", "hex"][..],
        &["--shape", "heart", "--invert", "--coverage", "0.4"],
    ] {
        let out = run(flags);
        assert!(out.status.success(), "{flags:?}: {}", stderr_of(&out));
    }
}

#[test]
fn output_path_problems() {
    let dir = tempfile::tempdir().unwrap();
    // unknown extension
    let p = dir.path().join("maze.xyz");
    let out = hedge().args(["generate", "-o"]).arg(&p).output().unwrap();
    assert!(!out.status.success());
    assert!(stderr_of(&out).contains("unsupported output format '.xyz'"));
    assert!(!p.exists());
    // unwritable directory: the previous file stays, no temporary left
    let sub = dir.path().join("ro");
    fs::create_dir(&sub).unwrap();
    let target = sub.join("m.json");
    let missing = sub.join("missing").join("m.json");
    let out = hedge()
        .args(["generate", "-o"])
        .arg(&missing)
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = stderr_of(&out);
    assert!(
        err.contains("cannot write") && err.trim().ends_with("m.json"),
        "{err}"
    );
    assert!(!target.exists());
    assert_eq!(fs::read_dir(&sub).unwrap().count(), 0);
    // a directory as output
    let out = hedge().args(["generate", "-o"]).arg(&sub).output().unwrap();
    assert!(!out.status.success());
}

#[test]
fn tile_mazes_from_the_command_line() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("t.json");
    let out = hedge()
        .args([
            "generate", "--style", "tiles", "--width", "17", "--height", "14", "--order", "0",
            "--seed", "9", "-o",
        ])
        .arg(&p)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr_of(&out));
    let v: serde_json::Value = serde_json::from_slice(&fs::read(&p).unwrap()).unwrap();
    assert_eq!(v["format"], "hedge-tiles");
    assert_eq!(v["order"], 0);
    let open = v["open"].as_array().unwrap();
    let sol = v["solution"].as_array().unwrap();
    assert!(open.len() > 50, "{} open tiles", open.len());
    assert_eq!(sol.first(), Some(&v["entrance"]));
    assert_eq!(sol.last(), Some(&v["exit"]));
    for t in sol {
        assert!(open.contains(t), "solution tile {t} is not open");
    }
    let txt = dir.path().join("t.txt");
    let out = hedge()
        .args([
            "generate", "--style", "tiles", "--width", "9", "--height", "9", "--seed", "1", "-o",
        ])
        .arg(&txt)
        .output()
        .unwrap();
    assert!(out.status.success());
    let pic = fs::read_to_string(&txt).unwrap();
    assert_eq!(pic.lines().count(), 18, "two lines per tile row:\n{pic}");
    for (args, expect) in [
        (vec!["--order", "2"], "order > 1 not supported"),
        (vec!["--width", "2"], "at least 3"),
    ] {
        let bad = dir.path().join("bad.json");
        let out = hedge()
            .args(["generate", "--style", "tiles"])
            .args(&args)
            .arg("-o")
            .arg(&bad)
            .output()
            .unwrap();
        assert!(!out.status.success());
        assert!(
            stderr_of(&out).contains(expect),
            "{args:?}: {}",
            stderr_of(&out)
        );
        assert!(!bad.exists());
    }
}

#[test]
fn ascii_output_for_rect_mazes() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("m.txt");
    let out = hedge()
        .args([
            "generate",
            "--width",
            "6",
            "--height",
            "4",
            "--seed",
            "5",
            "--entrance",
            "top-bottom",
            "-o",
        ])
        .arg(&p)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr_of(&out));
    let text = fs::read_to_string(&p).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 9, "{text}");
    // the top and bottom walls each have exactly one opening
    for edge in [lines[0], lines[8]] {
        assert_eq!(edge.len(), 25, "{text}");
        assert_eq!(edge.matches("+   +").count(), 1, "{text}");
    }
    // standard output gets the same drawing when -o is left out
    let out = hedge()
        .args([
            "generate",
            "--width",
            "6",
            "--height",
            "4",
            "--seed",
            "5",
            "--entrance",
            "top-bottom",
        ])
        .output()
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stdout), text);
    // other topologies: a clear error, no file
    let h = dir.path().join("h.txt");
    let out = hedge()
        .args(["generate", "--topology", "hex", "-o"])
        .arg(&h)
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(
        stderr_of(&out).contains("rect mazes only"),
        "{}",
        stderr_of(&out)
    );
    assert!(!h.exists());
}

#[test]
fn rect_only_carvers_name_the_alternatives() {
    let out = hedge()
        .args([
            "generate",
            "--topology",
            "polar",
            "--algorithm",
            "sidewinder",
        ])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = stderr_of(&out);
    assert!(
        err.contains("rect grids only") && err.contains("wilson"),
        "{err}"
    );
    assert_eq!(err.trim().lines().count(), 1);
}

/// A path to a new FIFO in `dir`.
fn fifo(dir: &std::path::Path) -> std::path::PathBuf {
    let p = dir.join("fifo");
    let made = std::process::Command::new("mkfifo")
        .arg(&p)
        .status()
        .unwrap();
    assert!(made.success());
    p
}

#[test]
fn pipes_devices_and_huge_files_are_refused_not_waited_on() {
    let dir = tempfile::tempdir().unwrap();
    let f = fifo(dir.path());
    // a FIFO nobody writes to: opening it would block forever; the timeout turns a hang into a
    // failure instead of a stuck test run
    for args in [
        vec!["generate", "--design", f.to_str().unwrap()],
        vec!["generate", "--shape", f.to_str().unwrap(), "-o", "x.json"],
    ] {
        let out = hedge()
            .args(&args)
            .current_dir(dir.path())
            .timeout(std::time::Duration::from_secs(60))
            .output()
            .unwrap();
        assert!(!out.status.success(), "{args:?}");
        let err = stderr_of(&out);
        assert!(err.contains("not a regular file"), "{args:?}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    }
    let book = dir.path().join("book.toml");
    fs::write(&book, format!("[[pages]]\ndesign = \"{}\"\n", f.display())).unwrap();
    let out = hedge()
        .args(["batch", book.to_str().unwrap(), "-o", "out"])
        .current_dir(dir.path())
        .timeout(std::time::Duration::from_secs(60))
        .output()
        .unwrap();
    assert!(
        stderr_of(&out).contains("not a regular file"),
        "{}",
        stderr_of(&out)
    );
    assert!(!dir.path().join("out").exists());
    // a design file past the 4 MB cap is refused before it is read
    let big = dir.path().join("big.toml");
    fs::write(&big, vec![b'#'; 5 << 20]).unwrap();
    let out = hedge()
        .args(["generate", "--design", big.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(
        stderr_of(&out).contains("larger than 4 MB"),
        "{}",
        stderr_of(&out)
    );
}

#[test]
fn a_closed_pipe_ends_quietly_and_a_full_disk_is_one_line() {
    use std::io::Read;
    use std::process::Stdio;
    // `hedge generate --width 300 | head -c 10`: the reader goes away after 10 bytes
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_hedge"))
        .args(["generate", "--width", "300", "--seed", "1"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = [0u8; 10];
    child.stdout.take().unwrap().read_exact(&mut first).unwrap();
    // the pipe's reading end is dropped here
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{:?}: {err}", out.status);
    assert!(!err.contains("panicked"), "{err}");
    // standard output on a full disk: one line, a failure
    let full = fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_hedge"))
        .args(["generate", "--width", "10", "--seed", "1"])
        .stdout(full)
        .output()
        .unwrap();
    let err = stderr_of(&out);
    assert!(!out.status.success());
    assert!(err.contains("cannot write to standard output"), "{err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    // standard error on a full disk does not fail a run that succeeded
    let dir = tempfile::tempdir().unwrap();
    let full = fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_hedge"))
        .args(["generate", "--width", "10", "--seed", "1", "-o", "m.json"])
        .current_dir(dir.path())
        .stderr(full)
        .output()
        .unwrap();
    assert!(out.status.success(), "{:?}", out.status);
    assert!(dir.path().join("m.json").exists());
}

/// The files in `dir`, sorted (hidden ones too).
fn names_in(dir: &std::path::Path) -> Vec<String> {
    let mut v: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

/// Issue 20 finding 4: `mkdir d.svg; hedge generate -o d.svg` failed but left `d-key.svg`. A
/// maze's files are one set now: whichever of them cannot be written, none is.
#[test]
fn a_failed_write_leaves_no_stray_key_file() {
    let cases: &[(&str, &str, &[&str])] = &[
        ("d.svg", "d.svg", &[]),
        ("d.png", "d.png", &[]),
        ("d.svg", "d-key.svg", &[]),
        ("d.pdf", "d.pdf", &["--key", "separate"]),
        ("d.pdf", "d-key.pdf", &["--key", "separate"]),
    ];
    for (out, blocked, extra) in cases {
        let dir = tempfile::tempdir().unwrap();
        fs::create_dir(dir.path().join(blocked)).unwrap();
        let run = hedge()
            .args(["generate", "--width", "10", "--seed", "1", "-o"])
            .arg(dir.path().join(out))
            .args(*extra)
            .output()
            .unwrap();
        assert!(!run.status.success(), "{out} with {blocked} a folder");
        let err = stderr_of(&run);
        assert!(
            err.contains("is a directory") && err.lines().count() == 1,
            "{err}"
        );
        assert_eq!(
            names_in(dir.path()),
            [*blocked],
            "{out} with {blocked} a folder"
        );
    }
}

#[test]
fn key_separate_writes_the_key_beside_in_every_format() {
    let dir = tempfile::tempdir().unwrap();
    let pages = |p: &std::path::Path| {
        lopdf::Document::load_mem(&fs::read(p).unwrap())
            .unwrap()
            .get_pages()
            .len()
    };
    for ext in ["pdf", "svg", "png"] {
        let out = dir.path().join(format!("cat.{ext}"));
        let run = hedge()
            .args([
                "generate", "--width", "8", "--seed", "2", "--key", "separate",
            ])
            .args(["--shape", "cat", "-o"])
            .arg(&out)
            .output()
            .unwrap();
        assert!(run.status.success(), "{}", stderr_of(&run));
        let key = dir.path().join(format!("cat-key.{ext}"));
        assert!(key.is_file(), "{ext}");
        assert!(stderr_of(&run).contains(&format!("cat.{ext}, ")), "{ext}");
        if ext == "pdf" {
            assert_eq!((pages(&out), pages(&key)), (1, 1));
        }
    }
    // the default: the key on page 2 of a PDF; none: the puzzle alone
    let two = dir.path().join("two.pdf");
    let none = dir.path().join("none.svg");
    for (p, extra) in [(&two, None), (&none, Some("none"))] {
        let mut cmd = hedge();
        cmd.args(["generate", "--width", "8", "--seed", "2", "-o"])
            .arg(p);
        if let Some(k) = extra {
            cmd.args(["--key", k]);
        }
        assert!(cmd.output().unwrap().status.success());
    }
    assert_eq!(pages(&two), 2);
    assert!(!dir.path().join("two-key.pdf").exists());
    assert!(!dir.path().join("none-key.svg").exists());
    let bad = hedge()
        .args(["generate", "--key", "back", "-o"])
        .arg(dir.path().join("x.pdf"))
        .output()
        .unwrap();
    assert!(stderr_of(&bad).contains("second-page, separate or none"));
    let json = hedge()
        .args(["generate", "--key", "separate", "-o"])
        .arg(dir.path().join("x.json"))
        .output()
        .unwrap();
    assert!(!json.status.success());
    assert!(stderr_of(&json).contains("--key goes with a page output"));
    assert!(!dir.path().join("x.json").exists());
}

/// Issue 20 finding 9: `-o link.json` replaced the symbolic link with a file.
#[cfg(unix)]
#[test]
fn output_onto_a_symbolic_link_writes_its_target() {
    let dir = tempfile::tempdir().unwrap();
    fs::create_dir(dir.path().join("real")).unwrap();
    let link = dir.path().join("link.json");
    std::os::unix::fs::symlink("real/maze.json", &link).unwrap();
    for seed in ["1", "2"] {
        let run = hedge()
            .args(["generate", "--width", "5", "--seed", seed, "-o"])
            .arg(&link)
            .output()
            .unwrap();
        assert!(run.status.success(), "{}", stderr_of(&run));
    }
    assert!(
        fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    let json = fs::read_to_string(dir.path().join("real/maze.json")).unwrap();
    assert!(
        json.contains("\"seed\": 2") || json.contains("\"seed\":2"),
        "{json}"
    );
    assert_eq!(names_in(&dir.path().join("real")), ["maze.json"]);
}

/// Issue 20 finding 8: temporaries and staging folders of killed runs were never removed. The
/// next run into the folder removes those whose process is gone (and keeps a live one's).
#[test]
fn stale_temporaries_of_dead_runs_are_cleaned_by_the_next_run() {
    if !std::path::Path::new("/proc/self").exists() {
        eprintln!("note: no /proc here; skipping the stale-temporary test");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let dead = 4_194_400; // above the kernel's largest pid
    let alive = std::process::id();
    fs::write(dir.path().join(format!(".m.json.hedge-{dead}.tmp")), b"x").unwrap();
    fs::write(dir.path().join(format!(".m.json.hedge-{alive}.tmp")), b"x").unwrap();
    // a file of the user's named like a temporary: never Hedge's to remove
    fs::write(dir.path().join(format!(".notes.{dead}.tmp")), b"mine").unwrap();
    fs::create_dir_all(
        dir.path()
            .join(format!("book/.hedge-staging-{dead}/new/pages")),
    )
    .unwrap();
    let run = hedge()
        .args(["generate", "--width", "5", "-o"])
        .arg(dir.path().join("m.json"))
        .output()
        .unwrap();
    assert!(run.status.success(), "{}", stderr_of(&run));
    assert_eq!(
        names_in(dir.path()),
        [
            format!(".m.json.hedge-{alive}.tmp"),
            format!(".notes.{dead}.tmp"),
            "book".into(),
            "m.json".into()
        ]
    );
    let book = dir.path().join("b.toml");
    fs::write(&book, "[[pages]]\ncount = 1\nseed_from = 1\nwidth = 5\n").unwrap();
    let run = hedge()
        .arg("batch")
        .arg(&book)
        .arg("-o")
        .arg(dir.path().join("book"))
        .output()
        .unwrap();
    assert!(run.status.success(), "{}", stderr_of(&run));
    assert_eq!(
        names_in(&dir.path().join("book")),
        ["book.pdf", "manifest.json", "pages"]
    );
}

/// `--starts N`: a "Which path?" puzzle to JSON, SVG and PDF. The JSON lists the N entrances
/// (`entrance`, the winner, among them, the solution from it to the exit, no passage joining
/// two entrances' trees); the SVG and PDF print A to the Nth letter and FINISH, not START, and
/// the "Which path?" line; the key rings the winner's letter; bad combinations are one-line
/// errors.
#[test]
fn starts_make_a_which_path_puzzle_in_every_format() {
    use crate::common::svg_words;
    let dir = tempfile::tempdir().unwrap();
    for n in 2..=4usize {
        let json = dir.path().join(format!("w{n}.json"));
        let out = hedge()
            .args([
                "generate", "--shape", "heart", "--width", "24", "--seed", "5",
            ])
            .args(["--starts", &n.to_string(), "-o"])
            .arg(&json)
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", stderr_of(&out));
        let v: serde_json::Value = serde_json::from_slice(&fs::read(&json).unwrap()).unwrap();
        let starts: Vec<u64> = v["starts"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s.as_u64().unwrap())
            .collect();
        assert_eq!(starts.len(), n);
        let entrance = v["entrance"].as_u64().unwrap();
        assert!(starts.contains(&entrance));
        assert_eq!(v["openings"].as_array().unwrap().len(), n + 1);
        let solution = v["solution"].as_array().unwrap();
        assert_eq!(solution[0].as_u64(), Some(entrance));
        assert_eq!(solution.last().unwrap(), &v["exit"]);
        assert_eq!(v["design"]["starts"].as_u64(), Some(n as u64));
        // a forest of n trees: cells - n passages, and from each entrance its own cells
        let cells = v["cells"].as_array().unwrap().len();
        let passages = v["passages"].as_array().unwrap();
        assert_eq!(passages.len() + n, cells);
        let mut adjacent = vec![Vec::new(); cells];
        for p in passages {
            let (a, b) = (
                p[0].as_u64().unwrap() as usize,
                p[1].as_u64().unwrap() as usize,
            );
            adjacent[a].push(b);
            adjacent[b].push(a);
        }
        let mut owner = vec![usize::MAX; cells];
        for (k, &s) in starts.iter().enumerate() {
            let mut stack = vec![s as usize];
            while let Some(c) = stack.pop() {
                if owner[c] == usize::MAX {
                    owner[c] = k;
                    stack.extend(&adjacent[c]);
                } else {
                    assert_eq!(owner[c], k, "two entrances reach cell {c}");
                }
            }
        }
        assert!(owner.iter().all(|&o| o != usize::MAX));
        let exit = v["exit"].as_u64().unwrap() as usize;
        let winner = starts.iter().position(|&s| s == entrance).unwrap();
        assert_eq!(owner[exit], winner);
    }
    // the SVG puzzle and key
    let svg = dir.path().join("w.svg");
    let out = hedge()
        .args([
            "generate", "--shape", "heart", "--width", "24", "--seed", "5",
        ])
        .args(["--starts", "3", "-o"])
        .arg(&svg)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr_of(&out));
    let text = fs::read_to_string(&svg).unwrap();
    let doc = roxmltree::Document::parse(&text).unwrap();
    let words = svg_words(&doc);
    for w in ["A", "B", "C", "FINISH", "Which path leads to the FINISH?"] {
        assert!(words.contains(&w), "{w} in {words:?}");
    }
    assert!(
        !words.contains(&"D") && !words.contains(&"START"),
        "{words:?}"
    );
    let key = fs::read_to_string(dir.path().join("w-key.svg")).unwrap();
    let solution = key
        .split("<g id=\"solution\"")
        .nth(1)
        .expect("a solution group");
    // the answer line, the ring round the winner's letter
    assert!(solution.matches("<path").count() >= 2, "{solution}");
    // the PDF: page 1 the puzzle, page 2 the key
    let pdf = dir.path().join("w.pdf");
    let out = hedge()
        .args([
            "generate", "--shape", "heart", "--width", "24", "--seed", "5",
        ])
        .args(["--starts", "3", "-o"])
        .arg(&pdf)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr_of(&out));
    let texts = crate::common::pdf_texts(&fs::read(&pdf).unwrap());
    for t in &texts {
        for w in ["A", "B", "C", "FINISH"] {
            assert!(t.lines().any(|l| l.trim() == w), "{w} in {t}");
        }
    }
    // the same design and seed: the same bytes
    let again = dir.path().join("again.json");
    let out = hedge()
        .args([
            "generate", "--shape", "heart", "--width", "24", "--seed", "5",
        ])
        .args(["--starts", "4", "-o"])
        .arg(&again)
        .output()
        .unwrap();
    assert!(out.status.success());
    assert_eq!(
        fs::read(&again).unwrap(),
        fs::read(dir.path().join("w4.json")).unwrap()
    );
    // what cannot work says so on one line
    for (flags, want) in [
        (vec!["--starts", "5"], "starts must be 1 to 4, got 5"),
        (
            vec!["--starts", "3", "--braid", "0.2"],
            "does not work with braid",
        ),
        (
            vec!["--starts", "2", "--weave", "0.5"],
            "does not work with weave",
        ),
        (
            vec!["--starts", "2", "--style", "tiles"],
            "--starts does not apply to tile mazes",
        ),
        (
            vec!["--style", "tiles", "--entrance", "top-bottom"],
            "--entrance does not apply to tile mazes",
        ),
        (
            vec!["--style", "tiles", "--inset", "0.1"],
            "--inset does not apply to tile mazes",
        ),
        (vec!["--order", "1"], "--order is for tile mazes"),
        (
            vec!["--starts", "2", "--entrance", "top-bottom"],
            "does not work with a chosen entrance",
        ),
    ] {
        let out = hedge()
            .args(["generate", "--width", "10"])
            .args(&flags)
            .output()
            .unwrap();
        assert!(!out.status.success(), "{flags:?}");
        let err = stderr_of(&out);
        assert!(err.contains(want), "{flags:?}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    }
    // a preset's braid is left out of a which-path puzzle
    let out = hedge()
        .args([
            "generate",
            "--difficulty",
            "ages-3-5",
            "--starts",
            "2",
            "--seed",
            "1",
        ])
        .arg("-o")
        .arg(dir.path().join("kid.json"))
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr_of(&out));
}

/// A searched maze can be made again from what Hedge writes (issue 38's recipes): the maze's
/// JSON holds the design it was made from (seed, size and carver the search found), and
/// `--save-design` writes it as a design file; `--design` takes either and makes the same maze
/// (the same JSON, byte for byte), without the `--difficulty` and `--seed` that found it.
#[test]
fn a_searched_maze_is_made_again_from_its_json_or_its_saved_design() {
    let dir = tempfile::tempdir().unwrap();
    let p = |name: &str| dir.path().join(name);
    let run = |args: &[&std::ffi::OsStr]| {
        let out = hedge().arg("generate").args(args).output().unwrap();
        assert!(out.status.success(), "{}", stderr_of(&out));
        stderr_of(&out)
    };
    let first = run(&[
        "--shape".as_ref(),
        "cat".as_ref(),
        "--difficulty".as_ref(),
        "ages-3-5".as_ref(),
        "--seed".as_ref(),
        "3".as_ref(),
        "-o".as_ref(),
        p("a.json").as_os_str(),
        "--save-design".as_ref(),
        p("found.toml").as_os_str(),
    ]);
    let saved = fs::read_to_string(p("found.toml")).unwrap();
    let a: serde_json::Value = serde_json::from_slice(&fs::read(p("a.json")).unwrap()).unwrap();
    let seed = a["seed"].as_u64().unwrap();
    assert_ne!(seed, 3, "the search found another seed");
    assert!(saved.contains(&format!("seed = {seed}")), "{saved}");
    assert!(
        saved.contains(&format!("algorithm = {}", a["algorithm"])),
        "{saved}"
    );
    for (design, out) in [("a.json", "b.json"), ("found.toml", "c.json")] {
        let again = run(&[
            "--design".as_ref(),
            p(design).as_os_str(),
            "-o".as_ref(),
            p(out).as_os_str(),
        ]);
        // byte for byte: the maze, its metrics and the design it records
        assert!(
            fs::read(p(out)).unwrap() == fs::read(p("a.json")).unwrap(),
            "{design}"
        );
        // the same summary line, up to the output's name
        let line = |s: &str| {
            s.lines()
                .last()
                .unwrap()
                .split(" -> ")
                .next()
                .unwrap()
                .to_owned()
        };
        assert_eq!(line(&first), line(&again), "{design}");
    }
    // a JSON that is no maze of Hedge's is one line naming what it wants, and writes nothing
    fs::write(p("other.json"), "{\"width\": \"wide\"}").unwrap();
    let out = hedge()
        .args(["generate", "--design"])
        .arg(p("other.json"))
        .arg("-o")
        .arg(p("d.json"))
        .output()
        .unwrap();
    let err = stderr_of(&out);
    assert!(
        !out.status.success() && err.contains("not a maze's JSON"),
        "{err}"
    );
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(!p("d.json").exists());
}

/// After a search, the line "the same maze again: add FLAGS to this command" is the recipe:
/// the command with those flags added (its own --seed overridden) writes the same JSON, byte
/// for byte, on a plain grid and inside a shape, for three presets.
#[test]
fn the_recipe_line_makes_the_same_maze_again() {
    let dir = tempfile::tempdir().unwrap();
    for (i, base) in [
        "--shape cat --difficulty ages-3-5 --seed 3",
        "--shape heart --difficulty medium --seed 5",
        "--width 24 --difficulty hard --seed 3",
    ]
    .iter()
    .enumerate()
    {
        let (a, b) = (
            dir.path().join(format!("a{i}.json")),
            dir.path().join(format!("b{i}.json")),
        );
        let out = hedge()
            .arg("generate")
            .args(base.split(' '))
            .arg("-o")
            .arg(&a)
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", stderr_of(&out));
        let err = stderr_of(&out);
        let line = err
            .lines()
            .find_map(|l| l.strip_prefix("the same maze again: add "))
            .unwrap_or_else(|| panic!("{base}: no recipe in\n{err}"));
        let flags = line.split(" to this command").next().unwrap();
        assert!(flags.ends_with("--no-search"), "{flags}");
        let out = hedge()
            .arg("generate")
            .args(base.split(' '))
            .arg("-o")
            .arg(&b)
            .args(flags.split(' '))
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", stderr_of(&out));
        assert!(
            fs::read(&a).unwrap() == fs::read(&b).unwrap(),
            "{base} + {flags}"
        );
    }
}

/// A shape of one part that falls into pieces on a coarse grid (the polar cat on 6 rings: its
/// tail thinner than a ring, kept largest as asked: by default its pieces are joined) is not
/// "the largest of the shape's 1 parts".
#[test]
fn a_one_part_shape_split_by_the_grid_is_named_as_such() {
    let dir = tempfile::tempdir().unwrap();
    let out = hedge()
        .args(["generate", "--shape", "cat", "--width", "6"])
        .args(["--islands", "keep-largest"])
        .args(["--topology", "polar", "--seed", "1", "-o"])
        .arg(dir.path().join("cat.json"))
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr_of(&out));
    let err = stderr_of(&out);
    assert!(!err.contains("1 parts"), "{err}");
    assert!(
        err.contains("keeping the largest piece of the shape's cells (a part thinner than a cell"),
        "{err}"
    );
}

/// Runs the binary through `sh` with standard output redirected as `redirect` says
/// (`>/dev/full`, `>&-`).
fn with_stdout(redirect: &str, args: &[&str]) -> std::process::Output {
    std::process::Command::new("sh")
        .arg("-c")
        .arg(format!("exec \"$0\" \"$@\" {redirect}"))
        .arg(env!("CARGO_BIN_EXE_hedge"))
        .args(args)
        .output()
        .unwrap()
}

/// Issue 57 item 8: `hedge --help >/dev/full` exited 0; with standard output closed, `man`,
/// `completions` and an ASCII `generate` exited 0, the last printing "seed 1: ..." for a maze
/// never written. Each is now one line on stderr and exit status 1.
#[test]
fn standard_output_that_cannot_be_written_is_one_line_and_a_failure() {
    let runs: [&[&str]; 7] = [
        &["--help"],
        &["--version"],
        &["generate", "--help"],
        &["man"],
        &["completions", "bash"],
        &["generate", "--width", "10", "--seed", "1"],
        &[
            "generate",
            "--topology",
            "hex",
            "--width",
            "5",
            "--seed",
            "1",
        ],
    ];
    for args in runs {
        for redirect in [">/dev/full", ">&-"] {
            let out = with_stdout(redirect, args);
            let err = stderr_of(&out);
            assert_eq!(out.status.code(), Some(1), "{args:?} {redirect}: {err}");
            assert!(
                err.starts_with("error: cannot write to standard output: "),
                "{args:?} {redirect}: {err}"
            );
            assert_eq!(err.lines().count(), 1, "{args:?} {redirect}: {err}");
            assert!(!err.contains("seed 1"), "{args:?} {redirect}: {err}");
        }
    }
    // a reader that stops reading ends the run quietly, as `head` expects
    for args in [&["man"][..], &["completions", "zsh"], &["--help"]] {
        let out = std::process::Command::new("sh")
            .arg("-c")
            .arg("\"$0\" \"$@\" | head -c 1 >/dev/null; exit 0")
            .arg(env!("CARGO_BIN_EXE_hedge"))
            .args(args)
            .output()
            .unwrap();
        assert_eq!(stderr_of(&out), "", "{args:?}");
    }
    // and written whole, the help is the help
    let out = hedge().arg("--help").output().unwrap();
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).contains("Usage: hedge"));
}

/// Issue 57 item 11: usage errors were 3 to 7 lines (the error, a tip, the usage, a pointer to
/// the help). Each is one line ending with where the help is, exit status 2.
#[test]
fn usage_errors_are_one_line_with_where_the_help_is() {
    let runs: [(&[&str], &str); 5] = [
        (
            &["regenerate", "m.json", "-o", "p.pdf", "--puzzle", "-1"],
            "unexpected argument '-1' found; to pass '-1' as a value, use '-- -1'; try 'hedge \
             regenerate --help'",
        ),
        (
            &["generate", "--starts", "x"],
            "invalid value 'x' for '--starts <N>': invalid digit found in string; try 'hedge \
             generate --help'",
        ),
        (
            &["batch"],
            "the following required arguments were not provided: --output <OUTDIR>, \
             <BOOK.toml>; try 'hedge batch --help'",
        ),
        (&["frobnicate"], "no such file or subcommand 'frobnicate'"),
        (
            &["generate", "--widht", "3"],
            "unexpected argument '--widht' found",
        ),
    ];
    for (args, want) in runs {
        let out = hedge().args(args).output().unwrap();
        let err = stderr_of(&out);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(
            err.starts_with("error: ") && err.contains(want),
            "{args:?}: {err}"
        );
        assert!(err.trim_end().ends_with("--help'"), "{args:?}: {err}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
    // a value of 100,000 characters (about the most one argument may hold) is echoed as 200
    // characters of it, and a megabyte of one in a design file too
    let huge = "7x".repeat(50_000);
    for args in [
        vec!["generate", "--starts", huge.as_str()],
        vec!["generate", "--paper", huge.as_str()],
        vec!["generate", "--shape", huge.as_str()],
    ] {
        let out = hedge().args(&args).output().unwrap();
        let err = stderr_of(&out);
        assert!(!out.status.success(), "{}", &args[1]);
        assert_eq!(
            err.lines().count(),
            1,
            "{}: {}",
            args[1],
            &err[..300.min(err.len())]
        );
        assert!(
            err.len() < 1000,
            "{}: {} bytes: {}",
            args[1],
            err.len(),
            &err[..300]
        );
        assert!(err.contains("… (100000 characters)"), "{}: {err}", args[1]);
    }
    let dir = tempfile::tempdir().unwrap();
    let design = dir.path().join("d.toml");
    for text in [
        format!("algorithm = \"{}\"\n", "x".repeat(1 << 20)),
        format!(
            "[page]\ntitle = 3\npaper = \"{}\"\n",
            "a b ".repeat(1 << 18)
        ),
    ] {
        fs::write(&design, &text).unwrap();
        let out = hedge()
            .args(["generate", "--design"])
            .arg(&design)
            .output()
            .unwrap();
        let err = stderr_of(&out);
        assert!(!out.status.success());
        assert_eq!(err.lines().count(), 1, "{}", &err[..300.min(err.len())]);
        assert!(err.len() < 1000, "{} bytes: {}", err.len(), &err[..300]);
    }
}
