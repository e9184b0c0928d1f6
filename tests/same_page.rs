//! One way to make a page: the command line (`hedge generate --design`), the library's entry
//! point (`hedge::make::prepare` + `make`, here with an in-memory loader) and a book page
//! (`hedge::book`) make byte-identical pages for the same design, in both styles. (The editor
//! against the command line is in `gui`.)

use std::path::Path;

use hedge::design::Design;
use hedge::export::Format;
use hedge::load::Memory;
use hedge::make::{Fit, prepare};
use hedge::shape::{ShapeSource, builtin};

use crate::common::{assert_ok, hedge};
use hedge::design::{Kind, Tiles, Walls};

/// The design of each style: a shape from a picture file beside the design, a fixed size and
/// seed.
fn designs() -> Vec<Design> {
    let shape = Some(ShapeSource::File("heart.svg".into()));
    vec![
        Design {
            kind: Kind::Walls(Walls {
                braid: 0.2,
                ..Walls::DEFAULT
            }),
            width: 18,
            height: 16,
            seed: Some(5),
            shape: shape.clone(),
            ..Design::default()
        },
        Design {
            kind: Kind::Tiles(Tiles { order: 1 }),
            width: 25,
            height: 22,
            seed: Some(9),
            shape,
            ..Design::default()
        },
    ]
}

/// The file `hedge generate --design design -o NAME` writes.
fn cli(design: &Path, name: &str) -> Vec<u8> {
    let out_dir = tempfile::tempdir().unwrap();
    let out = out_dir.path().join(name);
    let run = hedge()
        .arg("generate")
        .arg("--design")
        .arg(design)
        .arg("-o")
        .arg(&out)
        .output()
        .unwrap();
    assert_ok(&run);
    std::fs::read(&out).unwrap()
}

#[test]
fn cli_library_and_book_make_the_same_page_in_both_styles() {
    let heart = builtin::get("heart").unwrap();
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("heart.svg"), heart).unwrap();
    // the library reads through a loader: here the picture is in memory, under another folder
    let memory = Memory::new().with("pics/heart.svg", heart);
    for design in designs() {
        let style = design.style();
        // the design with a book page's setup, as a design file beside the picture
        let settings = hedge::book::Settings::default();
        let setup = settings.page_setup(1, Some(settings.label_for(1)));
        let paged = Design {
            page: setup.clone(),
            ..design
        };
        let file = dir.path().join("design.toml");
        std::fs::write(&file, hedge::io::design_to_toml(&paged)).unwrap();
        // a book of that one page (the design file relative to the book's folder)
        let book = hedge::book::parse(
            "[[pages]]\ndesign = \"design.toml\"\n",
            dir.path(),
            &hedge::io::Files,
        )
        .unwrap();
        assert_eq!(book.settings, settings);
        let built = hedge::book::build(&book, &hedge::io::Files, &|_, _| {}).unwrap();
        let book_page = &built
            .files
            .iter()
            .find(|f| f.path == Path::new("pages/page-001.svg"))
            .unwrap()
            .body
            .to_bytes()
            .unwrap();

        let prepared = prepare(&paged, &memory, Some(Path::new("pics")), Fit::default()).unwrap();
        let made = prepared.make().unwrap();
        assert_eq!(made.design().style(), style);
        let entry = made.render(&setup, Format::Svg).unwrap();

        assert_eq!(
            cli(&file, "cli.svg"),
            entry.puzzle,
            "{style:?}: the CLI's page is the entry point's"
        );
        assert_eq!(
            &entry.puzzle[..],
            &book_page[..],
            "{style:?}: the book's page is the entry point's"
        );
        assert_eq!(
            cli(&file, "cli.json"),
            made.json().unwrap(),
            "{style:?}: the CLI's JSON is the entry point's"
        );
    }
}
