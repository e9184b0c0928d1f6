//! Module layering: no module of the library imports a module that imports it back, directly or
//! round a longer circle. Reads `src/**/*.rs`, takes every `crate::NAME` path (in `use` lines and
//! in code, `crate::{a, b}` groups included) as an import of the top-level module `NAME` by the
//! file's top-level module (`src/foo.rs` and `src/foo/...` are both `foo`), and checks the graph.
//! Comments, string and character literals and `#[cfg(test)]` items are left out: tests may reach
//! anywhere. `app` and `cli` are the top layers (the editor and the command line) and are not
//! checked; nothing below may name them.
//!
//! The same holds between files ([`no_two_files_import_each_other_round_a_circle`]): every
//! `crate::`, `super::` and `self::` path (groups expanded) is an import of the file that holds
//! the item, the editor's and the command line's files included. A file and the `mod.rs` of a
//! folder it sits in may name each other (a module declares its parts and they use its types).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Circles known and not yet broken, each as the sorted set of its modules, with who owns the
/// fix. Empty: every circle found so far is broken. Add one only with a comment naming it.
const ALLOWED_CIRCLES: &[&[&str]] = &[];

/// The top layers, left out of the graph.
const TOP: &[&str] = &["app", "cli"];

/// Module -> (imported module -> the first file that imports it).
type Graph = BTreeMap<String, BTreeMap<String, String>>;

#[test]
fn no_module_imports_a_module_that_imports_it_back() {
    let graph = graph();
    assert!(
        graph.contains_key("pipeline") && graph.contains_key("design"),
        "the graph was not read: {:?}",
        graph.keys().collect::<Vec<_>>()
    );
    let mut mutual = Vec::new();
    for (a, deps) in &graph {
        for (b, file) in deps {
            if a < b
                && let Some(back) = graph.get(b).and_then(|d| d.get(a))
                && !allowed(&[a.as_str(), b.as_str()])
            {
                mutual.push(format!("{a} <-> {b} ({file}; {back})"));
            }
        }
    }
    assert!(
        mutual.is_empty(),
        "modules importing each other:\n{}",
        mutual.join("\n")
    );
}

#[test]
fn the_module_graph_has_no_circles() {
    let graph = graph();
    let circles: Vec<String> = strongly_connected(&graph)
        .into_iter()
        .filter(|c| c.len() > 1)
        .filter(|c| !allowed(&c.iter().map(String::as_str).collect::<Vec<_>>()))
        .map(|c| {
            let edges: Vec<String> = c
                .iter()
                .flat_map(|a| {
                    graph[a]
                        .iter()
                        .filter(|(b, _)| c.contains(*b))
                        .map(move |(b, f)| format!("{a} -> {b} ({f})"))
                })
                .collect();
            format!("{{{}}}: {}", c.join(", "), edges.join("; "))
        })
        .collect();
    assert!(
        circles.is_empty(),
        "module circles:\n{}",
        circles.join("\n")
    );
}

#[test]
fn lower_layers_never_name_the_editor_or_the_command_line() {
    let graph = graph();
    let up: Vec<String> = graph
        .iter()
        .flat_map(|(a, deps)| {
            deps.iter()
                .filter(|(b, _)| TOP.contains(&b.as_str()))
                .map(move |(b, f)| format!("{a} -> {b} ({f})"))
        })
        .collect();
    assert!(up.is_empty(), "{}", up.join("\n"));
}

/// Only `io` touches the file system, and only the top layers (and `io` itself) name it: the
/// library reads what a design or a book names through the caller's `Loader`.
#[test]
fn only_the_top_layers_name_the_file_system_module() {
    let graph = graph();
    let named: Vec<String> = graph
        .iter()
        .flat_map(|(a, deps)| {
            deps.iter()
                .filter(|(b, _)| b.as_str() == "io")
                .map(move |(b, f)| format!("{a} -> {b} ({f})"))
        })
        .collect();
    assert!(named.is_empty(), "{}", named.join("\n"));
    // and nothing else reaches for the file system itself
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut touching = Vec::new();
    for file in &files {
        let module = top_module(&src, file);
        if matches!(module.as_deref(), Some("io" | "app" | "cli") | None) {
            continue;
        }
        let code = strip_tests(&code_only(&std::fs::read_to_string(file).unwrap()));
        if ["std::fs", "fs::", "File::open", "File::create"]
            .iter()
            .any(|w| code.contains(w))
        {
            touching.push(file.display().to_string());
        }
    }
    assert!(touching.is_empty(), "file access outside io: {touching:?}");
}

/// The editor makes, searches and prints through the one entry point (`make`), as the command
/// line does (issue 58): nothing in `src/app` (tests left out) calls a function of `pipeline` or
/// the difficulty search itself, so the maze the editor shows is the maze the search scored and
/// the file the command line writes. The pipeline's types (`Generated`) may be named.
#[test]
fn the_editor_calls_no_pipeline_or_search_function() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src.join("app"), &mut files);
    files.sort();
    assert!(files.len() > 10, "src/app was not read: {files:?}");
    let search = [
        "search",
        "search_with",
        "search_on",
        "search_unchecked",
        "parallel_search",
    ];
    let mut calls = Vec::new();
    for file in &files {
        let code = strip_tests(&code_only(&std::fs::read_to_string(file).unwrap()));
        for path in rooted_paths(&code) {
            let named: Vec<&str> = path.iter().map(String::as_str).collect();
            let bad = match named.as_slice() {
                // a function or a module of the pipeline (its types start with a capital)
                ["crate", "pipeline", item, ..] => item.starts_with(|c: char| c.is_lowercase()),
                ["crate", "difficulty", rest @ ..] => rest.iter().any(|s| search.contains(s)),
                _ => false,
            };
            if bad {
                calls.push(format!(
                    "{}: {}",
                    file.strip_prefix(&src).unwrap_or(file).display(),
                    named.join("::")
                ));
            }
        }
    }
    assert!(
        calls.is_empty(),
        "the editor around the entry point: {calls:?}"
    );
}

/// The reader itself: comments, strings and test items do not count; groups do.
#[test]
fn the_reader_sees_code_only() {
    let src = r##"
        //! See [`crate::doc_only`].
        use crate::{alpha, beta::Thing, gamma::{self, x}};
        use std::fmt;
        /* crate::block_comment */
        fn f() -> &'static str { let _c = '{'; let _l: &'a str; "crate::in_string {" }
        fn g() { crate::delta::call(); let _ = r#"crate::raw"#; }
        #[cfg(test)]
        mod tests { use crate::only_tests; fn h() { let _ = "}"; } }
        #[cfg(test)]
        use crate::test_import;
        pub use crate::epsilon::Item;
    "##;
    let refs = references(&strip_tests(&code_only(src)));
    let want: BTreeSet<String> = ["alpha", "beta", "gamma", "delta", "epsilon"]
        .into_iter()
        .map(String::from)
        .collect();
    assert_eq!(refs, want);
}

fn allowed(modules: &[&str]) -> bool {
    let set: BTreeSet<&str> = modules.iter().copied().collect();
    ALLOWED_CIRCLES.iter().any(|c| {
        let allowed: BTreeSet<&str> = c.iter().copied().collect();
        set.is_subset(&allowed)
    })
}

/// The library's module graph (top layers left out as importers).
fn graph() -> Graph {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    files.sort();
    let modules: BTreeSet<String> = files.iter().filter_map(|f| top_module(&src, f)).collect();
    let mut graph = Graph::new();
    for file in &files {
        let Some(module) = top_module(&src, file) else {
            continue;
        };
        if TOP.contains(&module.as_str()) {
            continue;
        }
        let text = std::fs::read_to_string(file).expect("a source file reads");
        let deps = graph.entry(module.clone()).or_default();
        let shown = file
            .strip_prefix(&src)
            .unwrap_or(file)
            .display()
            .to_string();
        for r in references(&strip_tests(&code_only(&text))) {
            if r != module && modules.contains(&r) {
                deps.entry(r).or_insert_with(|| shown.clone());
            }
        }
    }
    graph
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("src reads") {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// `src/foo.rs` and `src/foo/...` are module `foo`; `lib.rs` and `main.rs` are no module.
fn top_module(src: &Path, file: &Path) -> Option<String> {
    let first = file.strip_prefix(src).ok()?.components().next()?;
    let name = first.as_os_str().to_str()?;
    let name = name.strip_suffix(".rs").unwrap_or(name);
    (!matches!(name, "lib" | "main")).then(|| name.to_string())
}

/// `text` with comments blanked and string and character literals emptied (kept as `""` and
/// `' '`), so braces and paths inside them do not count.
fn code_only(text: &str) -> String {
    let c: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < c.len() {
        let at = |k: usize| c.get(k).copied();
        if c[i] == '/' && at(i + 1) == Some('/') {
            while i < c.len() && c[i] != '\n' {
                i += 1;
            }
        } else if c[i] == '/' && at(i + 1) == Some('*') {
            let mut depth = 0;
            while i < c.len() {
                if c[i] == '/' && at(i + 1) == Some('*') {
                    depth += 1;
                    i += 2;
                } else if c[i] == '*' && at(i + 1) == Some('/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
            out.push(' ');
        } else if c[i] == 'r'
            && (at(i + 1) == Some('"') || (at(i + 1) == Some('#') && !is_ident(out.chars().last())))
        {
            // raw string r"..." or r#"..."#
            let mut j = i + 1;
            let mut hashes = 0;
            while c.get(j) == Some(&'#') {
                hashes += 1;
                j += 1;
            }
            if c.get(j) != Some(&'"') {
                out.push(c[i]);
                i += 1;
                continue;
            }
            j += 1;
            while j < c.len() {
                if c[j] == '"' && (0..hashes).all(|h| c.get(j + 1 + h) == Some(&'#')) {
                    j += 1 + hashes;
                    break;
                }
                j += 1;
            }
            out.push_str("\"\"");
            i = j;
        } else if c[i] == '"' {
            i += 1;
            while i < c.len() && c[i] != '"' {
                i += if c[i] == '\\' { 2 } else { 1 };
            }
            i += 1;
            out.push_str("\"\"");
        } else if c[i] == '\'' {
            // a character literal ('x', '\n', '\u{..}') or a lifetime ('a)
            if at(i + 1) == Some('\\') {
                let mut j = i + 2;
                while j < c.len() && c[j] != '\'' {
                    j += 1;
                }
                i = j + 1;
                out.push_str("' '");
            } else if at(i + 2) == Some('\'') {
                i += 3;
                out.push_str("' '");
            } else {
                out.push('\'');
                i += 1;
            }
        } else {
            out.push(c[i]);
            i += 1;
        }
    }
    out
}

fn is_ident(c: Option<char>) -> bool {
    c.is_some_and(|c| c.is_alphanumeric() || c == '_')
}

/// `code` (from [`code_only`]) without the items marked `#[cfg(test)]`.
fn strip_tests(code: &str) -> String {
    let mut out = String::with_capacity(code.len());
    let mut rest = code;
    while let Some(at) = rest.find("#[cfg(test)]") {
        out.push_str(&rest[..at]);
        rest = &rest[at + "#[cfg(test)]".len()..];
        // the item ends at its first `;` outside braces, or where its first brace block closes
        let mut depth = 0usize;
        let mut end = rest.len();
        for (k, ch) in rest.char_indices() {
            match ch {
                '{' => depth += 1,
                '}' => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        end = k + 1;
                        break;
                    }
                }
                ';' if depth == 0 => {
                    end = k + 1;
                    break;
                }
                _ => {}
            }
        }
        rest = &rest[end..];
    }
    out.push_str(rest);
    out
}

/// The top-level modules `code` names after `crate::` (`crate::{a, b::c}` names `a` and `b`).
fn references(code: &str) -> BTreeSet<String> {
    let mut refs = BTreeSet::new();
    let ident = |s: &str| -> String {
        s.chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect()
    };
    let mut rest = code;
    while let Some(at) = rest.find("crate::") {
        let before = rest[..at].chars().last();
        rest = &rest[at + "crate::".len()..];
        if is_ident(before) {
            continue; // e.g. `foo_crate::`
        }
        let after = rest.trim_start();
        if let Some(group) = after.strip_prefix('{') {
            // the names at the group's top level
            let mut depth = 0usize;
            let mut start = true;
            for (k, ch) in group.char_indices() {
                match ch {
                    '{' => depth += 1,
                    '}' if depth == 0 => break,
                    '}' => depth -= 1,
                    ',' if depth == 0 => start = true,
                    c if start && !c.is_whitespace() => {
                        let name = ident(&group[k..]);
                        if !name.is_empty() && name != "self" {
                            refs.insert(name);
                        }
                        start = false;
                    }
                    _ => {}
                }
            }
        } else {
            let name = ident(after);
            if !name.is_empty() {
                refs.insert(name);
            }
        }
    }
    refs
}

/// The strongly connected parts of `graph` (Tarjan's algorithm), each sorted.
fn strongly_connected(graph: &Graph) -> Vec<Vec<String>> {
    struct State<'a> {
        graph: &'a Graph,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        on_stack: BTreeSet<&'a str>,
        parts: Vec<Vec<String>>,
    }
    fn visit<'a>(s: &mut State<'a>, v: &'a str) {
        let n = s.index.len();
        s.index.insert(v, n);
        s.low.insert(v, n);
        s.stack.push(v);
        s.on_stack.insert(v);
        let graph = s.graph;
        for w in graph[v].keys().filter(|w| graph.contains_key(*w)) {
            let w = w.as_str();
            if !s.index.contains_key(w) {
                visit(s, w);
                let lw = s.low[w];
                let lv = s.low.get_mut(v).expect("visited");
                *lv = (*lv).min(lw);
            } else if s.on_stack.contains(w) {
                let iw = s.index[w];
                let lv = s.low.get_mut(v).expect("visited");
                *lv = (*lv).min(iw);
            }
        }
        if s.low[v] == s.index[v] {
            let mut part = Vec::new();
            while let Some(w) = s.stack.pop() {
                s.on_stack.remove(w);
                part.push(w.to_string());
                if w == v {
                    break;
                }
            }
            part.sort();
            s.parts.push(part);
        }
    }
    let mut s = State {
        graph,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        parts: Vec::new(),
    };
    for v in graph.keys() {
        if !s.index.contains_key(v.as_str()) {
            visit(&mut s, v);
        }
    }
    s.parts
}

/// A file's module path: `src/draw/walls.rs` is `draw::walls`, `src/draw/mod.rs` is `draw`,
/// `src/lib.rs` and `src/main.rs` the crate's root (empty).
fn module_path(src: &Path, file: &Path) -> Vec<String> {
    let mut parts: Vec<String> = file
        .strip_prefix(src)
        .unwrap_or(file)
        .with_extension("")
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if parts
        .last()
        .is_some_and(|l| matches!(l.as_str(), "mod" | "lib" | "main"))
    {
        parts.pop();
    }
    parts
}

/// Every path `code` names from `crate::`, `super::` or `self::`, as its segments with the
/// root first (`use super::{a, b::{c, d}}` gives `super::a`, `super::b::c`, `super::b::d`).
fn rooted_paths(code: &str) -> Vec<Vec<String>> {
    fn ident(c: &[char], at: &mut usize) -> String {
        let start = *at;
        while *at < c.len() && (c[*at].is_alphanumeric() || c[*at] == '_') {
            *at += 1;
        }
        c[start..*at].iter().collect()
    }
    fn skip_ws(c: &[char], at: &mut usize) {
        while *at < c.len() && c[*at].is_whitespace() {
            *at += 1;
        }
    }
    /// A path from `at` (after its base), and the paths of any group in it.
    fn path(c: &[char], at: &mut usize, base: Vec<String>, out: &mut Vec<Vec<String>>) {
        let mut segs = base;
        loop {
            skip_ws(c, at);
            if *at < c.len() && c[*at] == '{' {
                *at += 1;
                loop {
                    skip_ws(c, at);
                    if *at >= c.len() || c[*at] == '}' {
                        *at += 1;
                        return;
                    }
                    if c[*at] == ',' {
                        *at += 1;
                        continue;
                    }
                    let before = *at;
                    path(c, at, segs.clone(), out);
                    // skip `as x` and anything else up to the item's end
                    while *at < c.len() && !matches!(c[*at], ',' | '}') {
                        *at += 1;
                    }
                    if *at == before {
                        *at += 1;
                    }
                }
            }
            let name = ident(c, at);
            if name.is_empty() {
                out.push(segs);
                return;
            }
            segs.push(name);
            skip_ws(c, at);
            if c.get(*at) == Some(&':') && c.get(*at + 1) == Some(&':') {
                *at += 2;
            } else {
                out.push(segs);
                return;
            }
        }
    }
    let c: Vec<char> = code.chars().collect();
    let mut out = Vec::new();
    let mut at = 0;
    while at < c.len() {
        let word_start = at == 0 || !(c[at - 1].is_alphanumeric() || c[at - 1] == '_');
        if !word_start || !(c[at].is_alphabetic()) {
            at += 1;
            continue;
        }
        let root = ident(&c, &mut at);
        let rooted = matches!(root.as_str(), "crate" | "super" | "self");
        if rooted && c.get(at) == Some(&':') && c.get(at + 1) == Some(&':') {
            // `super::super::x` and `self::x` stay as written: resolved with the file's path
            at += 2;
            let mut base = vec![root];
            let mut more = at;
            loop {
                let save = more;
                let next = ident(&c, &mut more);
                if next == "super" && c.get(more) == Some(&':') && c.get(more + 1) == Some(&':') {
                    base.push(next);
                    more += 2;
                } else {
                    more = save;
                    break;
                }
            }
            at = more;
            path(&c, &mut at, base, &mut out);
        }
    }
    out
}

/// The file a rooted path names from the file `from`: the longest prefix of the path that is
/// a file's module path.
fn resolve(from: &[String], path: &[String], files: &BTreeSet<Vec<String>>) -> Option<Vec<String>> {
    let mut at: Vec<String> = from.to_vec();
    let mut rest = path;
    match rest.first().map(String::as_str) {
        Some("crate") => {
            at.clear();
            rest = &rest[1..];
        }
        _ => {
            while let Some(first) = rest.first() {
                match first.as_str() {
                    "self" => {}
                    "super" => {
                        at.pop();
                    }
                    _ => break,
                }
                rest = &rest[1..];
            }
        }
    }
    let mut best = None;
    for n in 0..=rest.len() {
        let mut candidate = at.clone();
        candidate.extend(rest[..n].iter().cloned());
        if files.contains(&candidate) {
            best = Some(candidate);
        }
    }
    best
}

/// File -> (file it names -> the first path naming it), between files neither of which is
/// the `mod.rs` of a folder the other sits in.
fn file_graph() -> Graph {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    files.sort();
    let paths: BTreeSet<Vec<String>> = files.iter().map(|f| module_path(&src, f)).collect();
    let mut graph = Graph::new();
    for file in &files {
        let from = module_path(&src, file);
        if from.is_empty() {
            continue; // lib.rs and main.rs declare the modules
        }
        let text = std::fs::read_to_string(file).expect("a source file reads");
        let deps = graph.entry(from.join("::")).or_default();
        for p in rooted_paths(&strip_tests(&code_only(&text))) {
            let Some(to) = resolve(&from, &p, &paths) else {
                continue;
            };
            let nested = to.starts_with(&from) || from.starts_with(&to);
            if !nested {
                deps.entry(to.join("::")).or_insert_with(|| p.join("::"));
            }
        }
    }
    graph
}

#[test]
fn no_two_files_import_each_other_round_a_circle() {
    let graph = file_graph();
    assert!(
        graph
            .get("draw::walls")
            .is_some_and(|d| d.contains_key("draw::model")),
        "the file graph was not read: {:?}",
        graph.get("draw::walls")
    );
    let circles: Vec<String> = strongly_connected(&graph)
        .into_iter()
        .filter(|c| c.len() > 1)
        .map(|c| {
            let edges: Vec<String> = c
                .iter()
                .flat_map(|a| {
                    graph[a]
                        .iter()
                        .filter(|(b, _)| c.contains(*b))
                        .map(move |(b, p)| format!("{a} -> {b} ({p})"))
                })
                .collect();
            format!("{{{}}}: {}", c.join(", "), edges.join("; "))
        })
        .collect();
    assert!(circles.is_empty(), "file circles:\n{}", circles.join("\n"));
}

/// The path reader: groups nest, roots chain, and a path ends where its segments do.
#[test]
fn rooted_paths_are_read_as_written() {
    let code =
        "use super::{a, b::{c, d as e}}; fn f() { crate::x::y(); self::z; super::super::w::v }";
    let got: Vec<String> = rooted_paths(code).iter().map(|p| p.join("::")).collect();
    assert_eq!(
        got,
        [
            "super::a",
            "super::b::c",
            "super::b::d",
            "crate::x::y",
            "self::z",
            "super::super::w::v"
        ]
    );
    let files: BTreeSet<Vec<String>> = [
        vec![],
        vec!["draw".into()],
        vec!["draw".into(), "walls".into()],
    ]
    .into_iter()
    .collect();
    let from = vec!["draw".to_string(), "clip".to_string()];
    let walls = |s: &str| s.split("::").map(String::from).collect::<Vec<_>>();
    assert_eq!(
        resolve(&from, &walls("super::walls::Piece"), &files),
        Some(walls("draw::walls"))
    );
    assert_eq!(
        resolve(&from, &walls("crate::draw::Item"), &files),
        Some(walls("draw"))
    );
}

/// The most lines of code a file of the library may hold (blank lines, comments and
/// `#[cfg(test)]` items left out).
const MAX_FILE_LINES: usize = 800;

/// A function over this many lines of code is long.
const LONG_FUNCTION: usize = 100;

/// How many long functions the library may hold.
const MAX_LONG_FUNCTIONS: usize = 5;

/// Lines of `code` (from [`code_only`] and [`strip_tests`]) that hold something.
fn code_lines(code: &str) -> usize {
    code.lines().filter(|l| !l.trim().is_empty()).count()
}

/// Every function with a body in `code` (from [`code_only`] and [`strip_tests`]): its name and
/// its lines of code from `fn` to the brace that closes its body.
fn functions(code: &str) -> Vec<(String, usize)> {
    let mut out = Vec::new();
    let b = code.as_bytes();
    let mut from = 0;
    while let Some(at) = code[from..].find("fn ").map(|k| from + k) {
        from = at + 3;
        if at > 0 && is_ident(code[..at].chars().last()) {
            continue;
        }
        let name: String = code[at + 3..]
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        if name.is_empty() {
            continue;
        }
        // the body is the first brace block before any `;` (a declaration has none)
        let Some(open) = code[at..].find(['{', ';']).map(|k| at + k) else {
            break;
        };
        if b[open] == b';' {
            continue;
        }
        let mut depth = 0usize;
        let mut close = code.len();
        for (k, &ch) in b.iter().enumerate().skip(open) {
            match ch {
                b'{' => depth += 1,
                b'}' => {
                    depth -= 1;
                    if depth == 0 {
                        close = k;
                        break;
                    }
                }
                _ => {}
            }
        }
        out.push((name, code_lines(&code[at..=close.min(code.len() - 1)])));
    }
    out
}

#[test]
fn files_and_functions_stay_short_enough_to_read() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    files.sort();
    let (mut big, mut long, mut unsafe_at) = (Vec::new(), Vec::new(), Vec::new());
    for file in &files {
        let text = std::fs::read_to_string(file).expect("a source file reads");
        let code = strip_tests(&code_only(&text));
        let shown = file
            .strip_prefix(&src)
            .unwrap_or(file)
            .display()
            .to_string();
        let lines = code_lines(&code);
        if lines > MAX_FILE_LINES {
            big.push(format!("{shown}: {lines} lines"));
        }
        for (name, n) in functions(&code) {
            if n > LONG_FUNCTION {
                long.push(format!("{shown} {name}: {n} lines"));
            }
        }
        if code
            .split(|c: char| !(c.is_alphanumeric() || c == '_'))
            .any(|w| w == "unsafe")
        {
            unsafe_at.push(shown);
        }
    }
    assert!(files.len() > 100, "src was not read: {} files", files.len());
    assert!(
        big.is_empty(),
        "files over {MAX_FILE_LINES} lines of code: {big:?}"
    );
    assert!(
        long.len() <= MAX_LONG_FUNCTIONS,
        "{} functions over {LONG_FUNCTION} lines (at most {MAX_LONG_FUNCTIONS}): {long:?}",
        long.len()
    );
    assert!(unsafe_at.is_empty(), "unsafe code in {unsafe_at:?}");
}

#[test]
fn functions_are_measured_from_fn_to_their_closing_brace() {
    let code = strip_tests(&code_only(
        "trait T { fn declared(&self); }\n\
         fn short() {\n    let s = \"{\";\n}\n\
         // fn in_a_comment() {}\n\
         pub(crate) fn longer(x: u32) -> u32 {\n    if x > 1 {\n        x\n\n    } else {\n        0\n    }\n}\n\
         #[cfg(test)]\nmod tests { fn hidden() {} }\n",
    ));
    assert_eq!(
        functions(&code),
        vec![("short".to_string(), 3), ("longer".to_string(), 7)]
    );
    assert_eq!(code_lines(&code), 11);
}

/// `docs/ARCHITECTURE.md`'s code map names every module of `src/` (a file as `src/NAME.rs`, a
/// folder as `src/NAME/`) and every file of the editor (`src/app/`, one line each), so the map
/// is never missing a part.
#[test]
fn the_architecture_map_lists_every_module() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let map = std::fs::read_to_string(root.join("docs/ARCHITECTURE.md")).unwrap();
    let names = |dir: &Path| -> Vec<(String, bool)> {
        let mut names: Vec<(String, bool)> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.is_dir() || p.extension().is_some_and(|e| e == "rs"))
            .map(|p| {
                (
                    p.file_name().unwrap().to_string_lossy().into_owned(),
                    p.is_dir(),
                )
            })
            .collect();
        names.sort();
        names
    };
    let mut missing = Vec::new();
    for (name, dir) in names(&root.join("src")) {
        let entry = if dir {
            format!("src/{name}/")
        } else {
            format!("src/{name}")
        };
        if !map.contains(&entry) {
            missing.push(entry);
        }
    }
    let app = names(&root.join("src/app"));
    assert!(app.len() > 10, "src/app was not read: {app:?}");
    for (name, _) in app {
        if !map
            .lines()
            .any(|l| l.trim_start().starts_with(&format!("{name} ")))
        {
            missing.push(format!("src/app/{name}"));
        }
    }
    assert!(
        missing.is_empty(),
        "docs/ARCHITECTURE.md's code map lacks: {missing:?}"
    );
}
