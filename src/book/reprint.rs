//! One puzzle of a built book made again from the book's manifest (`hedge regenerate`): the
//! same maze on the same page as in `book.pdf` (its label, page number, gutter side, markers,
//! stars and "Solution on page N"), with its answer key on a page of its own, titled as in the
//! book. Nothing is searched again: the manifest records each puzzle's design as made (its
//! seed, its fitted size, its turn), so the maze is made once, as the book made it.

use serde::Deserialize;

use super::{MANIFEST_FORMAT, Product, Settings, regenerate_puzzle};
use crate::design::Design;
use crate::error::{Error, Result};
use crate::load::Loader;
use crate::page::PageSetup;

/// A puzzle of a book, ready to print again.
pub struct Reprint {
    /// The maze.
    pub product: Product,
    /// Its puzzle page, as in the book.
    pub setup: PageSetup,
    /// Its answer key's page (the page the key is on in the book, alone on it).
    pub key_setup: PageSetup,
    /// The puzzle's label ("Puzzle 7").
    pub label: String,
}

/// What is read of a manifest: the settings and each puzzle's pages and design.
#[derive(Deserialize)]
struct Manifest {
    format: String,
    settings: Settings,
    puzzles: Vec<Puzzle>,
}

#[derive(Deserialize)]
struct Puzzle {
    number: usize,
    page: u32,
    key_page: u32,
    design: Design,
}

/// Puzzle `number` (from 1) of the book whose `manifest.json` is `manifest`, made again. File
/// shapes and start and finish pictures are read through `loader` from the paths the manifest
/// records (as the book file gave them, joined to the book file's folder).
pub fn reprint(manifest: &str, number: usize, loader: &dyn Loader) -> Result<Reprint> {
    let m: Manifest = serde_json::from_str(manifest).map_err(|e| {
        Error::input(format!(
            "not a book manifest (the manifest.json hedge batch writes): {e}"
        ))
    })?;
    if m.format != MANIFEST_FORMAT {
        return Err(Error::input(format!(
            "not a book manifest: its format is \"{}\", not \"{MANIFEST_FORMAT}\"",
            m.format
        )));
    }
    let count = m.puzzles.len();
    let p = m
        .puzzles
        .into_iter()
        .find(|p| p.number == number)
        .ok_or_else(|| {
            Error::option(format!(
                "the book has no puzzle {number}: its puzzles are 1 to {count}"
            ))
        })?;
    let s = &m.settings;
    let product = regenerate_puzzle(&p.design, loader)?;
    let mut setup = s.puzzle_setup(&p.design, number, p.page, p.key_page);
    setup.pictures = crate::load::page_pictures(loader, &setup)?;
    let key_setup = PageSetup {
        title: Some(s.key_label_for(number, p.page)),
        page_number: Some(p.key_page),
        ..setup.clone()
    };
    Ok(Reprint {
        product,
        setup,
        key_setup,
        label: s.label_for(number),
    })
}
