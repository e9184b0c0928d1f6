//! Plotter and centre-line SVGs (`--svg plotter`, `--svg centreline`): strokes without fills or
//! text, one width, millimetres; far fewer strokes and far less pen travel than the plain
//! per-wall order; every wall drawn exactly once; weave crossings and tile mazes; the CLI flag.

use hedge::design::Design;
use hedge::draw;
use hedge::export::plotter::{self, PlotStats};
use hedge::export::{self, Format, centreline};
use hedge::make::{Fit, Made, prepare};
use hedge::page::PageSetup;
use hedge::pipeline::Generated;
use hedge::shape::ShapeSource;
use hedge::topology::TopologyKind;

use crate::common::{assert_ok, hedge, stderr_of};
use hedge::design::{Kind, Walls};

fn made(topology: TopologyKind, shape: Option<&str>, weave: f64) -> Generated {
    let d = Design {
        kind: Kind::Walls(Walls {
            topology,
            weave,
            ..Walls::DEFAULT
        }),
        width: 30,
        height: 30,
        seed: Some(11),
        shape: shape.map(|s| ShapeSource::Builtin(s.into())),
        ..Design::default()
    };
    let fit = Fit {
        height: shape.is_some(),
        size_limit: None,
    };
    match prepare(&d, &hedge::io::Files, None, fit)
        .unwrap()
        .make()
        .unwrap()
    {
        Made::Walls(g) => g,
        Made::Tiles(_) => panic!("a wall maze"),
    }
}

/// The plot's SVG holds only stroked paths: no fill, no text, one stroke width, mm sizes.
fn check_plain(svg: &str) {
    let doc = roxmltree::Document::parse(svg).unwrap();
    let root = doc.root_element();
    assert!(root.attribute("width").unwrap().ends_with("mm"));
    assert!(root.attribute("height").unwrap().ends_with("mm"));
    assert!(!svg.contains("<text") && !svg.contains("<rect") && !svg.contains("<polygon"));
    let widths: Vec<&str> = doc
        .descendants()
        .filter_map(|n| n.attribute("stroke-width"))
        .collect();
    assert_eq!(widths.len(), 1, "one stroke width");
    for n in doc.descendants().filter(|n| n.is_element()) {
        if let Some(f) = n.attribute("fill") {
            assert_eq!(f, "none");
        }
    }
    let paths = doc.descendants().filter(|n| n.has_tag_name("path"));
    for p in paths {
        let d = p.attribute("d").unwrap();
        assert_eq!(d.matches('M').count(), 1, "one stroke per path: {d}");
    }
}

fn line(name: &str, plot: PlotStats, plain: PlotStats, print: PlotStats) -> String {
    format!(
        "{name:>7}: plotter {:>4} strokes, pen up {:>6.0} mm | per wall {:>5} strokes, pen up {:>7.0} mm | print SVG {:>4} strokes, pen up {:>6.0} mm, ink {:.0} vs {:.0} mm",
        plot.strokes,
        plot.pen_up_mm,
        plain.strokes,
        plain.pen_up_mm,
        print.strokes,
        print.pen_up_mm,
        plot.pen_down_mm,
        print.pen_down_mm,
    )
}

#[test]
fn plotter_svgs_need_few_strokes_and_little_travel() {
    let setup = PageSetup::default();
    let cases = [
        ("rect", TopologyKind::Rect, None),
        ("hex", TopologyKind::Hex, None),
        ("polar", TopologyKind::Polar, None),
        ("tri", TopologyKind::Tri, None),
        ("cat", TopologyKind::Rect, Some("cat")),
    ];
    for (name, t, shape) in cases {
        let g = made(t, shape, 0.0);
        let page = draw::puzzle_page(&g, &setup).unwrap();
        let plot = plotter::plot_walls(&page);
        let (s, plain, print) = (
            plot.stats(),
            plotter::per_wall_stats(&page),
            plotter::drawing_stats(&page),
        );
        println!("{}", line(name, s, plain, print));
        // every wall once: the same ink as the plain order, never more than the print
        assert!((s.pen_down_mm - plain.pen_down_mm).abs() < 1e-6 * plain.pen_down_mm);
        assert!(s.pen_down_mm <= print.pen_down_mm + 1e-6);
        assert!(s.strokes * 3 < plain.strokes, "{name}: {s:?} vs {plain:?}");
        assert!(
            s.pen_up_mm * 4.0 < plain.pen_up_mm,
            "{name}: {s:?} vs {plain:?}"
        );
        let svg = String::from_utf8(plot.svg()).unwrap();
        check_plain(&svg);
        if t == TopologyKind::Polar {
            assert!(svg.contains('C'), "polar rings stay arcs");
        }
    }
}

#[test]
fn weave_crossings_are_cut_where_the_bridge_covers_them() {
    let g = made(TopologyKind::Rect, None, 0.6);
    assert!(!g.maze.tunnels().is_empty());
    let page = draw::puzzle_page(&g, &PageSetup::default()).unwrap();
    let plot = plotter::plot_walls(&page);
    // the tunnels' side walls are broken under every bridge: less ink than the page draws
    assert!(plot.stats().pen_down_mm < plotter::drawing_stats(&page).pen_down_mm);
    check_plain(&String::from_utf8(plot.svg()).unwrap());
}

#[test]
fn centre_lines_are_one_tree_on_the_printed_layout() {
    let setup = PageSetup::default();
    for (t, shape) in [
        (TopologyKind::Rect, None),
        (TopologyKind::Hex, None),
        (TopologyKind::Polar, None),
        (TopologyKind::Rect, Some("heart")),
    ] {
        let g = made(t, shape, 0.0);
        let plot = centreline::centreline(&g, &setup).unwrap();
        let s = plot.stats();
        let svg = String::from_utf8(plot.svg()).unwrap();
        check_plain(&svg);
        // a tree of n cells: n - 1 passages; long strokes, far fewer than passages
        let cells = g.maze.grid().len();
        assert!(s.strokes * 3 < cells, "{t:?}: {s:?} for {cells} cells");
        println!(
            "{t:?} {shape:?}: centre line {} strokes, pen up {:.0} mm, {cells} cells",
            s.strokes, s.pen_up_mm
        );
        let rendered = export::render(&g, &setup, Format::Centreline).unwrap();
        assert_eq!(rendered.puzzle, plot.svg());
        assert!(rendered.key.is_none());
    }
}

#[test]
fn the_cli_writes_plotter_and_centreline_svgs() {
    let dir = tempfile::tempdir().unwrap();
    for kind in ["plotter", "centreline"] {
        let path = dir.path().join(format!("{kind}.svg"));
        let out = hedge()
            .args([
                "generate", "--width", "12", "--seed", "4", "--svg", kind, "-o",
            ])
            .arg(&path)
            .output()
            .unwrap();
        assert_ok(&out);
        let svg = std::fs::read_to_string(&path).unwrap();
        check_plain(&svg);
        assert!(
            !dir.path().join(format!("{kind}-key.svg")).exists(),
            "no key"
        );
    }
    // tiles: the plotter draws the wall tiles' outlines; no centre line
    let path = dir.path().join("tiles.svg");
    let out = hedge()
        .args([
            "generate", "--style", "tiles", "--width", "12", "--seed", "4",
        ])
        .args(["--svg", "plotter", "-o"])
        .arg(&path)
        .output()
        .unwrap();
    assert_ok(&out);
    check_plain(&std::fs::read_to_string(&path).unwrap());
    let out = hedge()
        .args([
            "generate", "--style", "tiles", "--width", "12", "--seed", "4",
        ])
        .args(["--svg", "centreline", "-o"])
        .arg(dir.path().join("tc.svg"))
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(
        stderr_of(&out).contains("centre-line"),
        "{}",
        stderr_of(&out)
    );
    // --svg needs an .svg file
    let out = hedge()
        .args(["generate", "--width", "8", "--svg", "plotter", "-o"])
        .arg(dir.path().join("m.pdf"))
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(stderr_of(&out).contains("--svg"), "{}", stderr_of(&out));
}
