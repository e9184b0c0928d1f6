//! The README is executed: every example in it that starts with `$ hedge ...` is run, and the
//! output it shows must be what the program prints today (its lines, in order, among the
//! lines printed on stdout and stderr; times like `0.01 s` may differ). Examples write their
//! files into a fresh temporary folder.

use crate::common::hedge;

/// Each `$ hedge ...` example: its arguments and the lines it shows.
fn examples() -> Vec<(Vec<String>, Vec<String>)> {
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md"))
        .expect("the README reads");
    let mut out = Vec::new();
    let mut lines = readme.lines();
    while let Some(line) = lines.next() {
        if !line.starts_with("```") {
            continue;
        }
        let Some(first) = lines.next() else { break };
        let Some(command) = first.strip_prefix("$ hedge ") else {
            // not an example: skip to the end of the block
            for l in lines.by_ref() {
                if l.starts_with("```") {
                    break;
                }
            }
            continue;
        };
        let args = command.split_whitespace().map(String::from).collect();
        let shown = lines
            .by_ref()
            .take_while(|l| !l.starts_with("```"))
            .map(String::from)
            .collect();
        out.push((args, shown));
    }
    out
}

/// `line` with every duration (`0.01 s`) written as `N s`.
fn without_times(line: &str) -> String {
    let words: Vec<&str> = line.split(' ').collect();
    let mut out = Vec::with_capacity(words.len());
    for (i, w) in words.iter().enumerate() {
        let next_is_s = words.get(i + 1).is_some_and(|n| n.starts_with('s'));
        let number = !w.is_empty() && w.chars().all(|c| c.is_ascii_digit() || c == '.');
        out.push(if number && next_is_s { "N" } else { w });
    }
    out.join(" ")
}

#[test]
fn every_readme_example_prints_what_the_readme_shows() {
    let examples = examples();
    assert!(examples.len() >= 2, "found {} examples", examples.len());
    for (args, shown) in examples {
        let dir = tempfile::tempdir().unwrap();
        let out = hedge()
            .args(&args)
            .current_dir(dir.path())
            .output()
            .unwrap();
        assert!(out.status.success(), "hedge {}: {:?}", args.join(" "), out);
        let printed: Vec<String> = String::from_utf8_lossy(&out.stdout)
            .lines()
            .chain(String::from_utf8_lossy(&out.stderr).lines())
            .map(without_times)
            .collect();
        let mut at = 0;
        for want in shown.iter().map(|l| without_times(l)) {
            match printed[at..].iter().position(|l| *l == want) {
                Some(i) => at += i + 1,
                None => panic!(
                    "hedge {}: the README shows\n{want}\nbut it printed\n{}",
                    args.join(" "),
                    printed.join("\n")
                ),
            }
        }
    }
}

#[test]
fn times_are_ignored_and_nothing_else() {
    assert_eq!(
        without_times("met by candidate 11 (64 tried in 0.01 s, seed 22)"),
        "met by candidate 11 (64 tried in N s, seed 22)"
    );
    assert_eq!(
        without_times("solution 31 cells (51.7 %)"),
        "solution 31 cells (51.7 %)"
    );
}
