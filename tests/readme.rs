//! The README and the pages of `docs/` are executed: every example in them that starts with
//! `$ hedge ...` is run, and the
//! output it shows must be what the program prints today (its lines, in order, among the
//! lines printed on stdout and stderr; times like `0.01 s` may differ). Examples write their
//! files into a fresh temporary folder.
//!
//! The README's pictures are what the program makes today, byte for byte: every picture under
//! `assets/readme/` but the editor's screenshots is made again here with Hedge's own rasteriser
//! (pages by the `hedge` binary as PNGs, the sample book's answer pages from the drawing the
//! book prints, the plotter SVGs drawn stroke by stroke) and compared with the committed file;
//! `UPDATE_SNAPSHOTS=1` rewrites them.

use crate::common::hedge;
use hedge::design::{Kind, Walls};

/// The README and every page of `docs/`, one after the other (sorted by name), with the
/// pages' picture links (`../assets/...`) written as the README's (`assets/...`).
fn documents() -> String {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut text = std::fs::read_to_string(root.join("README.md")).expect("the README reads");
    let mut pages: Vec<_> = std::fs::read_dir(root.join("docs"))
        .expect("docs/ reads")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    pages.sort();
    for page in pages {
        let page = std::fs::read_to_string(&page).unwrap();
        text.push('\n');
        text.push_str(&page.replace("](../assets/", "](assets/"));
    }
    text
}

/// Each `$ hedge ...` example: its arguments and the lines it shows.
fn examples() -> Vec<(Vec<String>, Vec<String>)> {
    let readme = documents();
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
        // the project's own files (`assets/books/sample.toml`) are named from its root
        let args = command
            .split_whitespace()
            .map(|a| match a.starts_with("assets/") {
                true => format!("{}/{a}", env!("CARGO_MANIFEST_DIR")),
                false => a.to_string(),
            })
            .collect();
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

// ---- the README's pictures ----

/// Where the README's pictures live.
const PICTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/assets/readme");

/// The resolution of the README's page pictures (a Letter page is 425 x 550 pixels).
const DPI: u32 = 50;

/// The README's pictures of single pages, each what `hedge generate FLAGS --dpi 50 -o p.png`
/// writes: its file, the flags, and whether the picture is the answer key (`p-key.png`).
const PAGES: &[(&str, &[&str], bool)] = &[
    (
        "collect-heart.png",
        &[
            "--shape",
            "heart",
            "--difficulty",
            "ages-3-5",
            "--collect",
            "--seed",
            "2",
        ],
        false,
    ),
    (
        "collect-heart-key.png",
        &[
            "--shape",
            "heart",
            "--difficulty",
            "ages-3-5",
            "--collect",
            "--seed",
            "2",
        ],
        true,
    ),
    (
        "reveal-heart.png",
        &[
            "--reveal",
            "heart",
            "--difficulty",
            "ages-9-12",
            "--seed",
            "3",
        ],
        false,
    ),
    (
        "reveal-heart-key.png",
        &[
            "--reveal",
            "heart",
            "--difficulty",
            "ages-9-12",
            "--seed",
            "3",
        ],
        true,
    ),
    (
        "which-path.png",
        &[
            "--shape",
            "heart",
            "--difficulty",
            "ages-3-5",
            "--starts",
            "3",
            "--seed",
            "2",
        ],
        false,
    ),
    (
        "theme-bee.png",
        &[
            "--shape",
            "heart",
            "--difficulty",
            "ages-3-5",
            "--theme",
            "bee",
            "--seed",
            "2",
        ],
        false,
    ),
    (
        "text-emma-key.png",
        &[
            "--text", "EMMA", "--width", "40", "--seed", "7", "--title", "Emma",
        ],
        true,
    ),
    (
        "hex-cat-key.png",
        &[
            "--shape",
            "cat",
            "--topology",
            "hex",
            "--width",
            "40",
            "--seed",
            "7",
            "--title",
            "Cat",
        ],
        true,
    ),
    (
        "polar-key.png",
        &[
            "--topology",
            "polar",
            "--width",
            "12",
            "--seed",
            "7",
            "--title",
            "Maze",
            "--name-line",
        ],
        true,
    ),
    (
        "rect-key.png",
        &[
            "--width",
            "16",
            "--seed",
            "7",
            "--title",
            "Maze",
            "--name-line",
        ],
        true,
    ),
    (
        "tri-key.png",
        &[
            "--topology",
            "tri",
            "--width",
            "14",
            "--height",
            "16",
            "--seed",
            "7",
            "--title",
            "Maze",
            "--name-line",
        ],
        true,
    ),
    (
        "weave-key.png",
        &[
            "--weave",
            "0.5",
            "--width",
            "15",
            "--seed",
            "11",
            "--page-number",
            "7",
        ],
        true,
    ),
    (
        "weave-cat-hex.png",
        &[
            "--shape",
            "cat",
            "--topology",
            "hex",
            "--weave",
            "0.5",
            "--width",
            "12",
            "--seed",
            "5",
        ],
        false,
    ),
    (
        "weave-hex-key.png",
        &[
            "--topology",
            "hex",
            "--weave",
            "0.5",
            "--width",
            "20",
            "--seed",
            "3",
        ],
        true,
    ),
    (
        "tiles-heart-key.png",
        &[
            "--style", "tiles", "--shape", "heart", "--width", "31", "--seed", "3",
        ],
        true,
    ),
    (
        "level-easy-key.png",
        &[
            "--width",
            "20",
            "--difficulty",
            "easy",
            "--seed",
            "1",
            "--orientation",
            "portrait",
            "--title",
            "Easy",
        ],
        true,
    ),
    (
        "level-hard-key.png",
        &[
            "--width",
            "20",
            "--difficulty",
            "hard",
            "--seed",
            "1",
            "--orientation",
            "portrait",
            "--title",
            "Hard",
        ],
        true,
    ),
    (
        "page-6x9.png",
        &[
            "--shape",
            "dog",
            "--paper",
            "6x9",
            "--width",
            "24",
            "--seed",
            "2",
            "--wall-mm",
            "0.4",
            "--title",
            "Dog",
            "--name-line",
        ],
        false,
    ),
];

/// The plotter picture's mazes: `hedge generate FLAGS --svg KIND`, left and right.
const PLOTTED: &[&str] = &["--topology", "polar", "--width", "12", "--seed", "5"];

/// The picture of each single page in [`PAGES`], made by the `hedge` binary.
fn page_pictures() -> Vec<(String, Vec<u8>)> {
    let dir = tempfile::tempdir().unwrap();
    std::thread::scope(|s| {
        let runs: Vec<_> = PAGES
            .iter()
            .enumerate()
            .map(|(i, &(name, flags, key))| {
                let dir = dir.path();
                s.spawn(move || {
                    let out = dir.join(format!("p{i}.png"));
                    let run = hedge()
                        .arg("generate")
                        .args(flags)
                        .args(["--dpi", &DPI.to_string(), "-o"])
                        .arg(&out)
                        .output()
                        .unwrap();
                    assert!(run.status.success(), "{name}: {run:?}");
                    let file = if key {
                        dir.join(format!("p{i}-key.png"))
                    } else {
                        out
                    };
                    (name.to_string(), std::fs::read(file).unwrap())
                })
            })
            .collect();
        runs.into_iter().map(|r| r.join().unwrap()).collect()
    })
}

/// The first answer page of the sample book (`assets/books/sample.toml`) with `per_page` keys
/// a page, at the back or (`separate`) in answers.pdf: the drawing `hedge batch` puts in the
/// PDF, made from the puzzles' designs as the book makes them.
fn answer_page(per_page: u32, separate: bool) -> Vec<u8> {
    use hedge::book;
    let files = hedge::io::Files;
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/books/sample.toml");
    let mut b = book::load(&path, &files).unwrap();
    b.settings.keys_per_page = per_page;
    if separate {
        b.settings.answers = book::Answers::Separate;
    }
    let pages = book::puzzle_pages(&b);
    // answers.pdf starts at 1; at the back, after the last puzzle
    let page = if separate {
        1
    } else {
        pages.last().unwrap() + 1
    };
    let made: Vec<_> = b.puzzles[..per_page as usize]
        .iter()
        .map(|spec| {
            let design = book::fitted_design(spec, &b.settings, &files).unwrap();
            book::regenerate_puzzle(&design, &files).unwrap()
        })
        .collect();
    let labels: Vec<String> = (1..=made.len())
        .map(|n| b.settings.key_label_for(n, pages[n - 1]))
        .collect();
    let keys: Vec<_> = made
        .iter()
        .zip(&labels)
        .map(|(m, label)| hedge::draw::AnswerKey {
            maze: m.key_maze(),
            label,
        })
        .collect();
    let setup = b
        .settings
        .page_setup(page, Some(b.settings.answers_heading.clone()));
    let d = hedge::draw::answers_page(&setup, &keys, per_page as usize).unwrap();
    hedge::export::png::png(&d, DPI).unwrap()
}

/// The strokes of a plotter SVG (`M`, `L` and `C` path data, one `<path>` per stroke) as a
/// drawing cropped to them, each stroke in the next colour of a small palette so the strokes
/// can be told apart.
fn plotted(svg: &[u8]) -> hedge::draw::Drawing {
    use hedge::draw::{Area, Drawing, Item, Layer, Path, Pos, Rgb, Seg, Shape};
    const PALETTE: [Rgb; 6] = [
        Rgb(0, 0, 0),
        Rgb(200, 30, 40),
        Rgb(20, 110, 200),
        Rgb(20, 150, 60),
        Rgb(220, 120, 0),
        Rgb(130, 50, 170),
    ];
    let text = std::str::from_utf8(svg).unwrap();
    let doc = roxmltree::Document::parse(text).unwrap();
    let pen: f64 = doc
        .descendants()
        .find_map(|n| n.attribute("stroke-width"))
        .unwrap()
        .parse()
        .unwrap();
    let mut strokes: Vec<Vec<Seg>> = Vec::new();
    for node in doc.descendants().filter(|n| n.has_tag_name("path")) {
        let data = node.attribute("d").unwrap();
        let mut segs = Vec::new();
        let mut op = ' ';
        let mut nums: Vec<f64> = Vec::new();
        let mut flush = |op: char, nums: &mut Vec<f64>| {
            let p: Vec<Pos> = nums.chunks(2).map(|c| Pos::new(c[0], c[1])).collect();
            match (op, p.as_slice()) {
                (' ', []) => {}
                ('M', [a]) => segs.push(Seg::MoveTo(*a)),
                ('L', [a]) => segs.push(Seg::LineTo(*a)),
                ('C', [a, b, c]) => segs.push(Seg::CubicTo(*a, *b, *c)),
                _ => panic!("unexpected path data {op} {nums:?} in {data}"),
            }
            nums.clear();
        };
        // commands are single letters; numbers are separated by spaces or by a command
        let spaced: String = data
            .chars()
            .flat_map(|c| {
                if c.is_ascii_alphabetic() {
                    vec![' ', c, ' ']
                } else {
                    vec![c]
                }
            })
            .collect();
        for word in spaced.split([' ', ',']).filter(|w| !w.is_empty()) {
            match word.parse::<f64>() {
                Ok(v) => nums.push(v),
                Err(_) => {
                    flush(op, &mut nums);
                    op = word.chars().next().unwrap();
                }
            }
        }
        flush(op, &mut nums);
        strokes.push(segs);
    }
    // crop to the strokes, with a margin of 3 mm
    let (mut lo, mut hi) = (Pos::new(f64::MAX, f64::MAX), Pos::new(f64::MIN, f64::MIN));
    for s in strokes.iter().flatten() {
        let p = match *s {
            Seg::MoveTo(p) | Seg::LineTo(p) | Seg::CubicTo(_, _, p) => p,
            Seg::Close => continue,
        };
        lo = Pos::new(lo.x.min(p.x), lo.y.min(p.y));
        hi = Pos::new(hi.x.max(p.x), hi.y.max(p.y));
    }
    let m = 3.0;
    let (w, h) = (hi.x - lo.x + 2.0 * m, hi.y - lo.y + 2.0 * m);
    let items = strokes
        .iter()
        .zip(PALETTE.iter().cycle())
        .map(|(segs, &color)| {
            let path: Path = segs.iter().copied().collect();
            Item {
                layer: Layer::Walls,
                shape: Shape::Stroke {
                    path,
                    width: pen,
                    color,
                },
            }
            .translated(m - lo.x, m - lo.y)
        })
        .collect();
    Drawing {
        width: w,
        height: h,
        trim: Area {
            x: 0.0,
            y: 0.0,
            w,
            h,
        },
        items,
    }
}

/// The plotter SVG and the centre-line SVG of [`PLOTTED`] side by side, each drawn stroke by
/// stroke by Hedge's rasteriser.
fn plotter_picture() -> Vec<u8> {
    let dir = tempfile::tempdir().unwrap();
    let halves: Vec<image::RgbImage> = ["plotter", "centreline"]
        .iter()
        .map(|kind| {
            let out = dir.path().join(format!("{kind}.svg"));
            let run = hedge()
                .arg("generate")
                .args(PLOTTED)
                .args(["--svg", kind, "-o"])
                .arg(&out)
                .output()
                .unwrap();
            assert!(run.status.success(), "{kind}: {run:?}");
            let png = hedge::export::png::png(&plotted(&std::fs::read(out).unwrap()), DPI).unwrap();
            image::load_from_memory(&png).unwrap().to_rgb8()
        })
        .collect();
    let gap = 20;
    let w = halves.iter().map(|h| h.width()).sum::<u32>() + gap;
    let h = halves.iter().map(|h| h.height()).max().unwrap();
    let mut both = image::RgbImage::from_pixel(w, h, image::Rgb([255, 255, 255]));
    let mut x = 0;
    for half in &halves {
        image::imageops::replace(&mut both, half, i64::from(x), 0);
        x += half.width() + gap;
    }
    let mut out = Vec::new();
    both.write_to(&mut std::io::Cursor::new(&mut out), image::ImageFormat::Png)
        .unwrap();
    out
}

/// One crossing of a weave maze's answer key (35 x 35, seed 3, on a `topology` grid) and the
/// cells round it, at print size (300 dpi) on the left and at 4x (1200 dpi) on the right, each
/// in a grey frame: the bridge's walls run across the crossed cell, the tunnel's stop at them,
/// the answer line goes under the bridge.
fn weave_crossing_picture(topology: hedge::topology::TopologyKind) -> Vec<u8> {
    use hedge::design::Design;
    use hedge::draw::{key_page, layout};
    use hedge::export::raster::{Region, rasterise};
    use hedge::page::PageSetup;
    use hedge::pipeline::generate;
    let g = generate(
        &Design {
            kind: Kind::Walls(Walls {
                topology,
                weave: 0.5,
                ..Walls::DEFAULT
            }),
            width: 35,
            height: 35,
            seed: Some(3),
            ..Design::default()
        },
        None,
    )
    .unwrap();
    let setup = PageSetup::default();
    let key = key_page(&g, &setup).unwrap();
    let lay = layout(&g, &setup).unwrap();
    let (grid, tunnels) = (g.maze.grid(), g.maze.tunnels());
    // the first crossing (in the solution's order) the answer goes under and also over, else
    // the first it goes under
    let under: Vec<_> = g
        .solution
        .windows(2)
        .filter_map(|w| {
            tunnels
                .iter()
                .find(|t| (t.from, t.to) == (w[0].min(w[1]), w[0].max(w[1])))
        })
        .collect();
    let t = under
        .iter()
        .find(|t| g.solution.contains(&t.under))
        .or(under.first())
        .unwrap();
    let c = lay.to_page(grid.center(t.under));
    let side_mm = 5.0 * lay.scale;
    let shot = |dpi: f64| {
        let scale = dpi / 25.4;
        let px = (side_mm * scale).round() as u32;
        let region = Region {
            scale,
            x: ((c.x - side_mm / 2.0) * scale).round() as i64,
            y: ((c.y - side_mm / 2.0) * scale).round() as i64,
            width: px,
            height: px,
        };
        let p = rasterise(&key.items, &region).unwrap();
        image::RgbaImage::from_raw(p.width(), p.height(), p.data().to_vec()).unwrap()
    };
    let (small, big) = (shot(300.0), shot(1200.0));
    let gap = 24;
    let mut out = image::RgbaImage::from_pixel(
        small.width() + gap + big.width(),
        big.height(),
        image::Rgba([255, 255, 255, 255]),
    );
    let small_y = (big.height() - small.height()) / 2;
    image::imageops::overlay(&mut out, &small, 0, i64::from(small_y));
    image::imageops::overlay(&mut out, &big, i64::from(small.width() + gap), 0);
    let grey = image::Rgba([160, 160, 160, 255]);
    for (x0, y0, w, h) in [
        (0, small_y, small.width(), small.height()),
        (small.width() + gap, 0, big.width(), big.height()),
    ] {
        for x in x0..x0 + w {
            out.put_pixel(x, y0, grey);
            out.put_pixel(x, y0 + h - 1, grey);
        }
        for y in y0..y0 + h {
            out.put_pixel(x0, y, grey);
            out.put_pixel(x0 + w - 1, y, grey);
        }
    }
    png_bytes(&out)
}

/// The heart and the cat on every topology, drawn with the shape's own outline (rows 1 and 3)
/// and with the cells' outline (rows 2 and 4): the maze and arrows of each puzzle page (24
/// cells across, 12 rings, seed 7), each in a square of 240 pixels.
fn outline_picture() -> Vec<u8> {
    use hedge::design::Design;
    use hedge::load::Memory;
    use hedge::make::{Fit, Made, prepare};
    use hedge::outline::OutlineStyle;
    use hedge::page::PageSetup;
    use hedge::shape::ShapeSource;
    use hedge::topology::TopologyKind;
    const TILE: u32 = 240;
    let kinds = [
        TopologyKind::Rect,
        TopologyKind::Hex,
        TopologyKind::Polar,
        TopologyKind::Tri,
    ];
    let rows = [
        ("heart", OutlineStyle::Shape),
        ("heart", OutlineStyle::Cells),
        ("cat", OutlineStyle::Shape),
        ("cat", OutlineStyle::Cells),
    ];
    let mut out = image::RgbaImage::from_pixel(
        TILE * kinds.len() as u32,
        TILE * rows.len() as u32,
        image::Rgba([255, 255, 255, 255]),
    );
    for (r, (shape, outline)) in rows.iter().enumerate() {
        for (c, &kind) in kinds.iter().enumerate() {
            let width = if kind == TopologyKind::Polar { 12 } else { 24 };
            let d = Design {
                kind: Kind::Walls(Walls {
                    topology: kind,
                    ..Walls::DEFAULT
                }),
                width,
                height: width,
                seed: Some(7),
                shape: Some(ShapeSource::Builtin((*shape).into())),
                outline: *outline,
                ..Design::default()
            };
            let fit = Fit {
                height: true,
                size_limit: None,
            };
            let g = match prepare(&d, &Memory::new(), None, fit)
                .unwrap()
                .make()
                .unwrap()
            {
                Made::Walls(g) => g,
                Made::Tiles(_) => unreachable!("walls"),
            };
            let tile = maze_tile(&g, &PageSetup::default(), TILE - 8, 5.0, false);
            let (w, h) = tile.dimensions();
            let x = c as u32 * TILE + (TILE - w) / 2;
            let y = r as u32 * TILE + (TILE - h) / 2;
            image::imageops::overlay(&mut out, &tile, i64::from(x), i64::from(y));
        }
    }
    png_bytes(&out)
}

/// `img` as PNG bytes.
fn png_bytes(img: &image::RgbaImage) -> Vec<u8> {
    let mut bytes = Vec::new();
    img.write_to(
        &mut std::io::Cursor::new(&mut bytes),
        image::ImageFormat::Png,
    )
    .unwrap();
    bytes
}

/// `g`'s puzzle page on `setup`, cropped to its maze and `margin` millimetres round it, scaled
/// to `size` pixels on its longer side; the page's text kept when `text` (START and FINISH may
/// then be cut by the crop).
fn maze_tile(
    g: &hedge::pipeline::Generated,
    setup: &hedge::page::PageSetup,
    size: u32,
    margin: f64,
    text: bool,
) -> image::RgbaImage {
    use hedge::draw::{layout, puzzle_page};
    use hedge::export::raster::{Region, rasterise};
    let (page, lay) = (puzzle_page(g, setup).unwrap(), layout(g, setup).unwrap());
    let mut b = lay.maze_box;
    if text {
        // the START and FINISH words too
        for i in &page.items {
            if let hedge::draw::Shape::Text(t) = &i.shape {
                let t = t.bounds();
                let (x1, y1) = ((b.x + b.w).max(t.x + t.w), (b.y + b.h).max(t.y + t.h));
                (b.x, b.y) = (b.x.min(t.x), b.y.min(t.y));
                (b.w, b.h) = (x1 - b.x, y1 - b.y);
            }
        }
    }
    let scale = f64::from(size) / (b.w.max(b.h) + 2.0 * margin);
    let (w, h) = (
        ((b.w + 2.0 * margin) * scale).round() as u32,
        ((b.h + 2.0 * margin) * scale).round() as u32,
    );
    let region = Region {
        scale,
        x: ((b.x - margin) * scale).round() as i64,
        y: ((b.y - margin) * scale).round() as i64,
        width: w,
        height: h,
    };
    let items: Vec<_> = page
        .items
        .into_iter()
        .filter(|i| text || !matches!(i.shape, hedge::draw::Shape::Text(_)))
        .collect();
    let p = rasterise(&items, &region).unwrap();
    image::RgbaImage::from_raw(p.width(), p.height(), p.data().to_vec()).unwrap()
}

/// The 15 built-in shapes with the ages 3-5 preset's grid on US Letter, on topology `kind`
/// (five across, three down), as `hedge generate --difficulty ages-3-5 --shape NAME` sizes
/// them, carved with the preset's starting carver (no search) from seed 1: the children's
/// sizes, where a thin part or a gap shows. A shape too small for a maze there is a blank tile.
fn kids_sheet(kind: hedge::topology::TopologyKind) -> Vec<u8> {
    const TILE: u32 = 192;
    let names: Vec<&str> = hedge::shape::builtin::names().collect();
    let cols = 5u32;
    let rows = (names.len() as u32).div_ceil(cols);
    let mut out =
        image::RgbaImage::from_pixel(TILE * cols, TILE * rows, image::Rgba([255, 255, 255, 255]));
    for (k, shape) in names.iter().enumerate() {
        let Some(g) = crate::common::preset_maze("ages-3-5", shape, kind, 1) else {
            continue;
        };
        let tile = maze_tile(&g, &g.design.page, TILE - 8, 2.0, true);
        let (w, h) = tile.dimensions();
        let x = (k as u32 % cols) * TILE + (TILE - w) / 2;
        let y = (k as u32 / cols) * TILE + (TILE - h) / 2;
        image::imageops::overlay(&mut out, &tile, i64::from(x), i64::from(y));
    }
    png_bytes(&out)
}

/// Every picture in the README that the program makes (all but the editor's screenshots),
/// by file name.
fn pictures() -> Vec<(String, Vec<u8>)> {
    let mut all = page_pictures();
    all.push(("book-answers.png".into(), answer_page(4, false)));
    all.push(("answers-9up.png".into(), answer_page(9, true)));
    all.push(("plotter-polar.png".into(), plotter_picture()));
    all.push((
        "weave-crossing.png".into(),
        weave_crossing_picture(hedge::topology::TopologyKind::Rect),
    ));
    all.push((
        "weave-hex-crossing.png".into(),
        weave_crossing_picture(hedge::topology::TopologyKind::Hex),
    ));
    all.push(("outline-shapes.png".into(), outline_picture()));
    all.push(("book-front.png".into(), book_front_picture()));
    all.push(("book-cover.png".into(), book_cover_picture()));
    for (name, kind) in KIDS_SHEETS {
        all.push((name.into(), kids_sheet(kind)));
    }
    all
}

/// The front matter of a small publisher's book (6 x 9 in, 12 puzzles): the title, copyright,
/// "This book belongs to", how-to and contents pages side by side, as `hedge batch` draws them.
fn book_front_picture() -> Vec<u8> {
    use hedge::book;
    let text = "[book]\ntitle = \"Garden Mazes\"\nsubtitle = \"12 puzzles for ages 4 to 8\"\n\
                author = \"The Hedge Authors\"\nyear = 2026\n\
                front = [\"title\", \"copyright\", \"belongs-to\", \"how-to\", \"contents\"]\n\
                puzzles_start = \"right\"\nsolution_refs = true\nstars = true\ntrim = \"6x9\"\n\n\
                [[pages]]\ncount = 12\nshapes = [\"heart\", \"cat\", \"fish\"]\nseed_from = 1\n\
                difficulty = \"ages-3-5..ages-6-8\"\n";
    let files = hedge::io::Files;
    let b = book::parse(text, std::path::Path::new("."), &files).unwrap();
    let built = book::build(&b, &files, &|_, _| {}).unwrap();
    let dpi = 30;
    let pages: Vec<image::RgbaImage> = (1..=5)
        .map(|n| {
            let name = format!("pages/page-{n:03}.svg");
            let f = built
                .files
                .iter()
                .find(|f| f.path.to_str() == Some(&name))
                .unwrap();
            let d = f.body.drawing().expect("a page").unwrap();
            let png = hedge::export::png::png(&d, dpi).unwrap();
            image::load_from_memory(&png).unwrap().to_rgba8()
        })
        .collect();
    let (w, h) = pages[0].dimensions();
    let gap = 8;
    let mut out = image::RgbaImage::from_pixel(
        5 * w + 6 * gap,
        h + 2 * gap,
        image::Rgba([136, 136, 136, 255]),
    );
    for (k, p) in pages.iter().enumerate() {
        let x = gap + k as u32 * (w + gap);
        image::imageops::overlay(&mut out, p, i64::from(x), i64::from(gap));
    }
    png_bytes(&out)
}

/// The sample book's cover (`assets/books/sample.toml`, 26 pages on white paper): the back,
/// the spine (too thin for text) and the front, bleed included, as `cover.pdf` holds it.
fn book_cover_picture() -> Vec<u8> {
    use hedge::book;
    let files = hedge::io::Files;
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/assets/books/sample.toml");
    let b = book::load(std::path::Path::new(path), &files).unwrap();
    let built = book::build(&b, &files, &|_, _| {}).unwrap();
    let cover = built.cover.expect("the sample book has a cover");
    let png = hedge::export::png::png(&cover, 30).unwrap();
    png_bytes(&image::load_from_memory(&png).unwrap().to_rgba8())
}

/// The README's sheets of the built-in shapes at the ages 3-5 preset, one per topology.
const KIDS_SHEETS: [(&str, hedge::topology::TopologyKind); 4] = [
    ("kids-rect.png", hedge::topology::TopologyKind::Rect),
    ("kids-hex.png", hedge::topology::TopologyKind::Hex),
    ("kids-tri.png", hedge::topology::TopologyKind::Tri),
    ("kids-polar.png", hedge::topology::TopologyKind::Polar),
];

/// The README's pictures are what the program makes today, byte for byte. After a deliberate
/// change of the look, `UPDATE_SNAPSHOTS=1 cargo test --test integration readme` rewrites
/// them; look at each before committing. A mismatch writes the new picture to the target
/// folder and names it.
#[test]
fn readme_pictures_are_what_the_program_makes() {
    let readme = documents();
    let update = std::env::var_os("UPDATE_SNAPSHOTS").is_some();
    let mut changed = Vec::new();
    for (name, bytes) in pictures() {
        assert!(
            readme.contains(&format!("(assets/readme/{name})")),
            "the README shows {name}"
        );
        let path = std::path::Path::new(PICTURES).join(&name);
        if update {
            std::fs::write(&path, &bytes).unwrap();
            continue;
        }
        let want = std::fs::read(&path)
            .unwrap_or_else(|e| panic!("{}: {e} (run with UPDATE_SNAPSHOTS=1)", path.display()));
        if want != bytes {
            let new = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(&name);
            std::fs::write(&new, &bytes).unwrap();
            changed.push(format!("{name} (now {})", new.display()));
        }
    }
    assert!(
        changed.is_empty(),
        "README pictures changed: {}",
        changed.join(", ")
    );
}

/// Every picture the README shows exists, and those not made by
/// [`readme_pictures_are_what_the_program_makes`] are the editor's screenshots.
#[test]
fn every_readme_picture_is_made_or_a_screenshot() {
    let readme = documents();
    let made: Vec<&str> = PAGES
        .iter()
        .map(|p| p.0)
        .chain([
            "book-answers.png",
            "book-front.png",
            "book-cover.png",
            "answers-9up.png",
            "plotter-polar.png",
            "weave-crossing.png",
            "weave-hex-crossing.png",
            "outline-shapes.png",
        ])
        .chain(KIDS_SHEETS.iter().map(|k| k.0))
        .collect();
    let screenshots = [
        "editor.png",
        "editor-zoom.png",
        "editor-difficulty.png",
        "editor-hand.png",
    ];
    for shown in readme.split("(assets/readme/").skip(1) {
        let name = shown.split(')').next().unwrap();
        assert!(
            made.contains(&name) || screenshots.contains(&name),
            "{name}: not made by the README test, nor a screenshot"
        );
        assert!(
            std::path::Path::new(PICTURES).join(name).is_file(),
            "{name}"
        );
    }
    for entry in std::fs::read_dir(PICTURES).unwrap() {
        let name = entry.unwrap().file_name().into_string().unwrap();
        assert!(
            readme.contains(&format!("(assets/readme/{name})")),
            "{name} is not in the README"
        );
    }
}

/// GitHub's anchor of a heading: lower case, spaces to `-`, punctuation but `-` and `_` gone.
fn anchor(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

/// Every link between the README, the pages of `docs/` and `benches/README.md` names a file that exists, and a
/// heading in it when it names one (`docs/shapes.md#islands`).
#[test]
fn every_link_between_the_documents_leads_somewhere() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = vec![root.join("README.md"), root.join("benches/README.md")];
    for e in std::fs::read_dir(root.join("docs")).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|e| e == "md") {
            files.push(p);
        }
    }
    let headings = |path: &std::path::Path| -> Vec<String> {
        let text = std::fs::read_to_string(path).unwrap();
        let mut fence = false;
        let mut out = Vec::new();
        for l in text.lines() {
            if l.starts_with("```") {
                fence = !fence;
            } else if !fence && l.starts_with('#') {
                out.push(anchor(l.trim_start_matches('#')));
            }
        }
        out
    };
    let mut checked = 0;
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        for link in text.split("](").skip(1) {
            let target = link.split(')').next().unwrap();
            if target.contains("://") || target.starts_with("mailto:") {
                continue;
            }
            let (path, fragment) = target.split_once('#').unwrap_or((target, ""));
            let dest = match path {
                "" => file.clone(),
                p => file.parent().unwrap().join(p),
            };
            assert!(dest.exists(), "{}: {target} does not exist", file.display());
            if !fragment.is_empty() {
                assert!(
                    headings(&dest).iter().any(|h| h == fragment),
                    "{}: {target}: no such heading",
                    file.display()
                );
            }
            checked += 1;
        }
    }
    assert!(checked > 30, "{checked} links");
}

#[test]
fn anchors_are_githubs() {
    assert_eq!(
        anchor(" The shape's own outline (`--outline shape|cells`)"),
        "the-shapes-own-outline---outline-shapecells"
    );
    assert_eq!(anchor(" Which path? puzzles"), "which-path-puzzles");
}
