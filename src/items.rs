//! "Collect the items" puzzles: pictures to pick up on the way from START to FINISH.
//!
//! [`place`] puts `n` items on the solution, spread along it (the path is split into `n + 1`
//! stretches and each item falls near the end of one, never on the START or FINISH cell nor
//! beside another item), numbered in the order a solver meets them; and as many decoys at the
//! far ends of dead ends off the path, so that fetching one costs a detour. It draws from a
//! random stream of its own, seeded from the maze's seed, so a maze is carved the same with or
//! without items, and the same design and seed give the same items. Nothing here reads a file;
//! [`check`] says in one line what is wrong with the knobs.

use crate::error::{Error, Result};
use crate::grid::CellId;
use crate::maze::Maze;
use crate::random::{MazeRng, Random};
use crate::solve::{UNREACHED, distances};

/// The item's picture when the design names none.
pub const DEFAULT_ITEM: &str = "apple";

/// The most items a design may ask to collect.
pub const MAX_COLLECT: u32 = 12;

/// Mixed into the maze's seed for the items' own random stream.
const STREAM: u64 = 0xC011_EC75;

/// One item on the maze.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Placed {
    /// The cell it sits in.
    pub cell: CellId,
    /// Which of the design's item pictures it shows (an index into [`names`]).
    pub picture: usize,
    /// Its place in the order a solver meets the items on the path (1 first); `None` for a
    /// decoy at a dead end.
    pub order: Option<u32>,
}

impl Placed {
    /// Whether the item lies on the solution (a decoy does not).
    pub fn on_path(&self) -> bool {
        self.order.is_some()
    }
}

/// The item pictures a design's `items` list names: the list, or [`DEFAULT_ITEM`] alone.
pub fn names(items: &[String]) -> Vec<&str> {
    if items.is_empty() {
        vec![DEFAULT_ITEM]
    } else {
        items.iter().map(String::as_str).collect()
    }
}

/// Whether `name` is a file (an SVG of your own) rather than a built-in picture's name.
pub fn is_file(name: &str) -> bool {
    name.contains('.') || name.contains('/') || name.contains('\\')
}

/// Checks the collect knobs: at most [`MAX_COLLECT`] items; every name a built-in picture or
/// an SVG file; not with weave (an item on a bridge or in the tunnel beneath it could not be
/// told apart), braid (a loop could go round an item) nor several entrances (which path would
/// the items lie on?).
pub fn check(collect: u32, items: &[String], weave: bool, braid: bool, starts: u32) -> Result<()> {
    if collect > MAX_COLLECT {
        return Err(Error::option(format!(
            "collect must be 0 to {MAX_COLLECT}, got {collect}"
        )));
    }
    for name in items {
        check_name(name)?;
    }
    if collect == 0 {
        return Ok(());
    }
    if weave {
        return Err(Error::option(
            "collect does not work with weave (an item on a bridge could not be told from one \
             beneath it): set weave to 0",
        ));
    }
    if braid {
        return Err(Error::option(
            "collect needs a maze without loops (a loop could go round an item): set braid to 0",
        ));
    }
    if starts > 1 {
        return Err(Error::option(
            "collect does not work with a \"Which path?\" puzzle (starts above 1): which path \
             would the items lie on?",
        ));
    }
    Ok(())
}

/// The file extensions an item picture may have: SVG (drawn as paths) and the raster
/// formats (drawn as pixels, [`crate::picture::Raster`]).
pub const ITEM_FILES: [&str; 7] = ["svg", "png", "jpg", "jpeg", "gif", "bmp", "webp"];

/// Checks one item name: a built-in picture, or an SVG, PNG or JPEG (GIF, BMP, WebP) file.
fn check_name(name: &str) -> Result<()> {
    if name.trim().is_empty() {
        return Err(Error::option("an item name is empty"));
    }
    if is_file(name) {
        let known = std::path::Path::new(name)
            .extension()
            .is_some_and(|e| ITEM_FILES.iter().any(|k| e.eq_ignore_ascii_case(k)));
        if !known {
            return Err(Error::option(format!(
                "the item picture {name} is not an SVG, PNG or JPEG file (an item is drawn from \
                 one, or from one of the pictures: {})",
                crate::theme::picture_names().join(", ")
            )));
        }
        return Ok(());
    }
    if crate::theme::picture(name).is_none() {
        return Err(Error::option(format!(
            "unknown item '{name}' (the pictures: {}; or an SVG, PNG or JPEG file)",
            crate::theme::picture_names().join(", ")
        )));
    }
    Ok(())
}

/// The most items a solution of `len` cells (START and FINISH included) holds: each of the
/// `n + 1` stretches it is split into must be at least two cells long.
pub fn capacity(len: usize) -> usize {
    (len / 2).saturating_sub(1)
}

/// Places `n` items on `solution` (START first) of `maze` and `n` decoys at the far ends of
/// dead ends off it, none in `openings` (the cells with a door in the outer wall) and all in
/// cells that `fits` (a cell the shape's outline cuts small holds no legible picture), their
/// pictures taken in turn from `kinds` pictures; from the items' own stream of `seed`. The
/// items on the path come first, in order, then the decoys by cell. An error in one line when
/// the path or the dead ends cannot hold them.
pub fn place(
    maze: &Maze,
    solution: &[CellId],
    openings: &[CellId],
    (n, kinds): (usize, usize),
    seed: u64,
    fits: &dyn Fn(CellId) -> bool,
) -> Result<Vec<Placed>> {
    if n == 0 {
        return Ok(Vec::new());
    }
    let kinds = kinds.max(1);
    let mut rng = MazeRng::new(seed ^ STREAM);
    let len = solution.len();
    let room = capacity(len);
    if n > room {
        return Err(Error::input(format!(
            "collect {n}: the path from START to FINISH is {len} cells long, room for {room} \
             item{}; collect fewer or make the maze larger",
            if room == 1 { "" } else { "s" }
        )));
    }
    // the path split into n + 1 stretches: item k near the end of stretch k, moved by up to a
    // quarter of a stretch either way, so no two are bunched and none is at START or FINISH
    let stretch = len as f64 / (n + 1) as f64;
    let jitter = (stretch / 4.0).floor() as usize;
    let mut out = Vec::with_capacity(2 * n);
    let mut last = 0usize;
    let usable = |i: usize| !openings.contains(&solution[i]) && fits(solution[i]);
    let full = || {
        Error::input(format!(
            "collect {n}: the path from START to FINISH has too few cells that hold a picture \
             for {n} items; collect fewer or make the maze larger"
        ))
    };
    for k in 1..=n {
        let centre = (k as f64 * stretch).round() as usize;
        let shift = rng.below(2 * jitter + 1);
        let (lo, hi) = (if k == 1 { 1 } else { last + 2 }, len - 2);
        if lo > hi {
            return Err(full());
        }
        let want = (centre + shift).saturating_sub(jitter).clamp(lo, hi);
        // the usable cell nearest the one wanted (later first on a tie)
        let at = (0..=hi - lo)
            .flat_map(|d| [want + d, want.wrapping_sub(d)])
            .find(|&i| (lo..=hi).contains(&i) && usable(i))
            .ok_or_else(full)?;
        last = at;
        out.push(Placed {
            cell: solution[at],
            picture: (k - 1) % kinds,
            order: Some(k as u32),
        });
    }
    let taken: Vec<CellId> = out.iter().map(|p| p.cell).collect();
    let mut decoys = decoys(maze, solution, openings, n, (fits, &mut rng), taken)?;
    decoys.sort();
    out.extend(decoys.into_iter().enumerate().map(|(j, cell)| Placed {
        cell,
        picture: j % kinds,
        order: None,
    }));
    Ok(out)
}

/// `n` decoy cells for the items `taken` on `solution`: dead ends off the path (none in
/// `openings`, all in cells that `fits`), farthest from it first; `n` picked at random from
/// `rng` among the farthest `2n`, so a wrong turn to fetch one is a long one.
fn decoys(
    maze: &Maze,
    solution: &[CellId],
    openings: &[CellId],
    n: usize,
    (fits, rng): (&dyn Fn(CellId) -> bool, &mut MazeRng),
    mut taken: Vec<CellId>,
) -> Result<Vec<CellId>> {
    // decoys: dead ends off the path, farthest from it first; n of them picked at random
    // among the farthest 2n, so a wrong turn to fetch one is a long one
    let from_path = distances(maze, solution);
    let mut on_path = vec![false; maze.len()];
    for c in solution {
        on_path[c.index()] = true;
    }
    let mut ends: Vec<(u32, CellId)> = maze
        .grid()
        .cells()
        .filter(|&c| {
            maze.degree(c) == 1
                && fits(c)
                && !on_path[c.index()]
                && !openings.contains(&c)
                && from_path[c.index()] != UNREACHED
        })
        .map(|c| (from_path[c.index()], c))
        .collect();
    if ends.len() < n {
        return Err(Error::input(format!(
            "collect {n}: the maze has {} dead end{} off the path for its {n} decoys; make the \
             maze larger{}",
            ends.len(),
            if ends.len() == 1 { "" } else { "s" },
            ", or braid it less"
        )));
    }
    ends.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    ends.truncate((2 * n).max(n));
    let mut pool: Vec<CellId> = ends.into_iter().map(|(_, c)| c).collect();
    crate::random::shuffle(rng, &mut pool);
    // not side by side with another item while the pool has others
    let grid = maze.grid();
    let mut decoys: Vec<CellId> = Vec::with_capacity(n);
    for apart in [true, false] {
        for &c in &pool {
            if decoys.len() == n {
                break;
            }
            let beside = || grid.neighbours(c).iter().any(|x| taken.contains(x));
            if !(decoys.contains(&c) || apart && beside()) {
                decoys.push(c);
                taken.push(c);
            }
        }
    }
    Ok(decoys)
}

/// The plural of a picture's name ("apples", "mice").
fn plural(name: &str) -> String {
    match name {
        "mouse" => "mice".into(),
        "fish" | "sheep" => name.into(),
        _ if name.ends_with('s')
            || name.ends_with("sh")
            || name.ends_with("ch")
            || name.ends_with('x') =>
        {
            format!("{name}es")
        }
        _ => format!("{name}s"),
    }
}

/// The word a picture is called by on the page: a built-in's name, a file's name without its
/// folder and extension.
pub fn word(name: &str) -> String {
    if is_file(name) {
        let stem = std::path::Path::new(name)
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        stem.replace(['_', '-'], " ")
    } else {
        name.to_string()
    }
}

/// The instruction line of a page with `n` items of the pictures `names` (taken in turn) to
/// collect on the way to `finish` ("the flower", "the FINISH"), in the page's words `words`
/// (`collect`, or `collect_one` for one item): in English "Collect the 3 apples on your way to
/// the flower", "Collect the 2 apples and the star on your way to the moon" (`{items}` and
/// `{goal}`); a language that names no pictures counts them (`{n}`, with its FINISH word as
/// `{finish}`).
pub fn instruction(words: &crate::lang::Words, n: usize, names: &[&str], finish: &str) -> String {
    let key = if n == 1 { "collect_one" } else { "collect" };
    words.fill(
        key,
        &[
            ("items", &english_items(n, names)),
            ("goal", finish),
            ("n", &n.to_string()),
            ("finish", words.get("finish")),
        ],
    )
}

/// What an English page collects: "the 3 apples", "the 2 apples and the star".
fn english_items(n: usize, names: &[&str]) -> String {
    let mut kinds: Vec<(String, usize)> = Vec::new();
    for k in 0..n {
        let w = word(names[k % names.len().max(1)]);
        match kinds.iter_mut().find(|(x, _)| *x == w) {
            Some((_, count)) => *count += 1,
            None => kinds.push((w, 1)),
        }
    }
    let phrases: Vec<String> = kinds
        .iter()
        .map(|(w, c)| match c {
            1 => format!("the {w}"),
            c => format!("the {c} {}", plural(w)),
        })
        .collect();
    match phrases.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        Some((last, _)) => last.clone(),
        None => "everything".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_instruction_names_what_to_collect() {
        let en = crate::lang::Words::builtin("en");
        assert_eq!(
            instruction(en, 3, &["apple"], "the flower"),
            "Collect the 3 apples on your way to the flower"
        );
        assert_eq!(
            instruction(en, 1, &["fish"], "the FINISH"),
            "Collect the fish on your way to the FINISH"
        );
        assert_eq!(
            instruction(en, 2, &["apple", "bone"], "the nest"),
            "Collect the apple and the bone on your way to the nest"
        );
        assert_eq!(
            instruction(en, 3, &["apple", "pics/red_star.svg"], "the moon"),
            "Collect the 2 apples and the red star on your way to the moon"
        );
        assert_eq!(
            instruction(en, 3, &["apple", "star", "bone"], "the FINISH"),
            "Collect the apple, the star and the bone on your way to the FINISH"
        );
        assert_eq!(
            instruction(en, 2, &["mouse"], "the cheese"),
            "Collect the 2 mice on your way to the cheese"
        );
        // a language that names no pictures counts them, in its own words
        let de = crate::lang::Words::builtin("de");
        assert_eq!(
            instruction(de, 3, &["apple"], "the flower"),
            "Sammle auf dem Weg alle 3 Bilder ein"
        );
        assert_eq!(
            instruction(de, 1, &["apple"], "the FINISH"),
            "Sammle auf dem Weg das Bild ein"
        );
    }

    #[test]
    fn names_are_checked_in_one_line() {
        assert!(
            check(
                3,
                &["apple".into(), "bee".into(), "a/b.svg".into()],
                false,
                false,
                1
            )
            .is_ok()
        );
        let e = check(3, &["dragon".into()], false, false, 1).unwrap_err();
        assert!(e.message.starts_with("unknown item 'dragon'"), "{e}");
        assert!(e.message.contains("apple"), "{e}");
        assert!(check(3, &["pic.png".into(), "b.JPG".into()], false, false, 1).is_ok());
        let e = check(3, &["pic.tiff".into()], false, false, 1).unwrap_err();
        assert!(e.message.contains("not an SVG, PNG or JPEG file"), "{e}");
        let e = check(3, &[], true, false, 1).unwrap_err();
        assert!(e.message.contains("weave"), "{e}");
        let e = check(3, &[], false, true, 1).unwrap_err();
        assert!(e.message.contains("braid"), "{e}");
        let e = check(3, &[], false, false, 2).unwrap_err();
        assert!(e.message.contains("which path"), "{e}");
        let e = check(13, &[], false, false, 1).unwrap_err();
        assert_eq!(e.message, "collect must be 0 to 12, got 13");
        // no items asked: weave, braid and starts are free
        assert!(check(0, &[], true, true, 3).is_ok());
    }

    #[test]
    fn capacity_leaves_two_cells_a_stretch() {
        assert_eq!(capacity(2), 0);
        assert_eq!(capacity(4), 1);
        assert_eq!(capacity(8), 3);
        assert_eq!(capacity(9), 3);
    }
}
