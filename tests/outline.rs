//! Shaped mazes drawn with the shape's own outline: corridor widths at every passage, perfect
//! and connected mazes, on every built-in shape and topology.

use hedge::design::Design;
use hedge::design::{Kind, Walls};
use hedge::load::Memory;
use hedge::make::{Fit, Made, prepare};
use hedge::outline::{MIN_PASSAGE, OutlineStyle, POLYGON_TOLERANCE};
use hedge::shape::{ShapeSource, builtin};
use hedge::topology::TopologyKind;

/// The built-in `shape` on a `kind` grid `width` cells across (height fitted), seed 11,
/// prepared for making; an error when the shape leaves too few cells at that size.
fn prepared(
    shape: &str,
    kind: TopologyKind,
    width: u32,
    outline: OutlineStyle,
) -> hedge::error::Result<hedge::make::Prepared> {
    let d = Design {
        kind: Kind::Walls(Walls {
            topology: kind,
            ..Walls::DEFAULT
        }),
        width,
        height: width,
        seed: Some(11),
        shape: Some(ShapeSource::Builtin(shape.into())),
        outline,
        ..Design::default()
    };
    let fit = Fit {
        height: true,
        size_limit: None,
    };
    prepare(&d, &Memory::new(), None, fit)
}

fn made(
    shape: &str,
    kind: TopologyKind,
    width: u32,
    outline: OutlineStyle,
) -> hedge::pipeline::Generated {
    match prepared(shape, kind, width, outline)
        .unwrap()
        .make()
        .unwrap()
    {
        Made::Walls(g) => g,
        Made::Tiles(_) => unreachable!("walls"),
    }
}

/// Every open passage between two cells is at least [`MIN_PASSAGE`] of its side wide, and the
/// maze is perfect and connected, on every built-in shape, topology and 20, 40 and 80 cells.
#[test]
fn no_corridor_is_narrower_than_the_rule() {
    let kinds = [
        TopologyKind::Rect,
        TopologyKind::Hex,
        TopologyKind::Polar,
        TopologyKind::Tri,
    ];
    for shape in builtin::names() {
        for kind in kinds {
            for width in [20, 40, 80] {
                // polar widths are rings: 80 rings is a 160-cell-wide disc
                let width = if kind == TopologyKind::Polar {
                    width / 2
                } else {
                    width
                };
                let g = made(shape, kind, width, OutlineStyle::Shape);
                assert!(g.maze.is_perfect(), "{shape} {kind:?} {width}");
                assert!(g.maze.is_connected(), "{shape} {kind:?} {width}");
                let narrowest = narrowest_passage(&g);
                assert!(
                    narrowest >= MIN_PASSAGE - 1e-9,
                    "{shape} {kind:?} {width}: a passage {narrowest:.3} of its side wide"
                );
            }
        }
    }
}

/// The narrowest open passage between two cells of `g` (drawn with the shape's outline), as a
/// share of its side.
pub(crate) fn narrowest_passage(g: &hedge::pipeline::Generated) -> f64 {
    let o = g.outline.as_ref().expect("drawn with the shape's outline");
    let grid = g.maze.grid();
    let mut sides = Vec::new();
    let mut narrowest: f64 = 1.0;
    for id in grid.cells() {
        sides.clear();
        grid.sides(id, &mut sides);
        for (k, s) in sides.iter().enumerate() {
            let Some(n) = s.neighbour.and_then(|c| grid.id_at(c)) else {
                continue;
            };
            let open = grid
                .slot_of(id, n)
                .is_some_and(|slot| g.maze.linked_slot(id, slot));
            if open {
                narrowest = narrowest.min(o.clip.side_open(grid.coord(id), k));
            }
        }
    }
    narrowest
}

/// A shape whose parts are joined by added cells (a name's letters) keeps the shape's outline:
/// it runs round the joining corridors, which lie inside it, and no passage is narrower than the
/// rule, on every topology.
#[test]
fn bridged_parts_keep_the_shape_outline_round_their_bridges() {
    for kind in [
        TopologyKind::Rect,
        TopologyKind::Hex,
        TopologyKind::Polar,
        TopologyKind::Tri,
    ] {
        let d = Design {
            kind: Kind::Walls(Walls {
                topology: kind,
                ..Walls::DEFAULT
            }),
            width: if kind == TopologyKind::Polar { 20 } else { 40 },
            seed: Some(3),
            shape: Some(ShapeSource::Text {
                text: "EMMA".into(),
                font: Default::default(),
            }),
            ..Design::default()
        };
        let fit = Fit {
            height: true,
            size_limit: None,
        };
        let p = prepare(&d, &Memory::new(), None, fit).unwrap();
        let s = p.shaped().unwrap();
        assert!(!s.added.is_empty(), "{kind:?}: the letters are joined");
        let Made::Walls(g) = p.make().unwrap() else {
            unreachable!("walls")
        };
        assert!(g.maze.is_perfect() && g.maze.is_connected(), "{kind:?}");
        assert_eq!(
            g.maze.len(),
            s.mask.count(),
            "{kind:?}: every cell of the mask"
        );
        let o = g.outline.as_ref().expect("the shape's outline");
        // every added cell is inside the outline
        for &c in &s.added {
            assert!(
                o.clip.share(c) > 0.99,
                "{kind:?}: bridge cell {c:?} {:.2} inside",
                o.clip.share(c)
            );
        }
        let narrowest = narrowest_passage(&g);
        assert!(narrowest >= MIN_PASSAGE - 1e-9, "{kind:?}: {narrowest:.3}");
    }
}

/// `cells` gives the cells' outline: no clipped geometry, the same maze as without the knob's
/// clipping (no slivers dropped).
#[test]
fn cells_outline_is_the_old_look() {
    let g = made("heart", TopologyKind::Rect, 20, OutlineStyle::Cells);
    assert!(g.outline.is_none());
    let s = made("heart", TopologyKind::Rect, 20, OutlineStyle::Shape);
    assert!(s.outline.is_some());
    // slivers leave the graph: the smooth maze has no more cells than the cells' one
    assert!(s.maze.grid().len() <= g.maze.grid().len());
}

/// The smallest distance from `p` to the contour's flattened rings.
fn distance_to(c: &hedge::shape::outline::Contour, p: hedge::topology::Point) -> f64 {
    let mut best = f64::MAX;
    for ring in &c.rings {
        let n = ring.flat.len();
        for i in 0..n {
            let (a, b) = (ring.flat[i], ring.flat[(i + 1) % n]);
            best = best.min(hedge::shape::outline::seg_dist(p, a, b));
        }
    }
    best
}

/// Every built-in shape's outline comes from its SVG paths (not its pixels), with as many
/// rings (the owl's eyes are holes), and lies on the contour traced from its pixels: within
/// 0.01 cell on average at 40 cells across (measured 0.004 to 0.007; the traced one rounds
/// sharp tips, up to 0.1 cell).
#[test]
fn built_in_shapes_use_their_vector_paths() {
    use hedge::shape::fit::PixelMap;
    use hedge::shape::outline::{contour, trace};
    for shape in builtin::names() {
        let d = Design {
            width: 40,
            height: 40,
            shape: Some(ShapeSource::Builtin(shape.into())),
            ..Design::default()
        };
        let p = prepare(&d, &Memory::new(), None, Fit::default()).unwrap();
        let fg = p.foreground().unwrap();
        assert!(fg.vector().is_some(), "{shape}: no vector outline");
        let topo = hedge::topology::Topology::new(TopologyKind::Rect, 40, 40).unwrap();
        let place = PixelMap::new(fg, &topo);
        let (vector, traced) = (contour(fg, &place), trace(fg, &place));
        assert_eq!(vector.rings.len(), traced.rings.len(), "{shape}");
        let pts: Vec<_> = vector
            .rings
            .iter()
            .flat_map(|r| r.flat.iter().step_by(17).copied())
            .collect();
        let mean = pts.iter().map(|&q| distance_to(&traced, q)).sum::<f64>() / pts.len() as f64;
        assert!(
            mean < 0.01,
            "{shape}: {mean:.4} cell from the traced contour"
        );
    }
}

/// A raster picture, and an SVG on an opaque background, keep the traced contour.
#[test]
fn pictures_without_vector_outlines_are_traced() {
    use hedge::shape::{Cut, Foreground, Picture};
    let svg = br#"<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100"><rect width="100" height="100" fill="white"/><circle cx="50" cy="50" r="40"/></svg>"#;
    let p = Picture::decode(svg).unwrap();
    assert!(p.vector().is_some());
    let fg = Foreground::from_picture(&p, Cut::default()).unwrap();
    assert!(
        fg.vector().is_none(),
        "the shape is what differs from white"
    );
    let mut rgba = vec![0u8; 64 * 64 * 4];
    for (i, px) in rgba.chunks_exact_mut(4).enumerate() {
        let (x, y) = ((i % 64) as f64 - 31.5, (i / 64) as f64 - 31.5);
        px[3] = if x.hypot(y) < 25.0 { 255 } else { 0 };
    }
    let p = Picture::from_rgba(64, 64, &rgba).unwrap();
    assert!(p.vector().is_none());
    let fg = Foreground::from_picture(&p, Cut::default()).unwrap();
    assert!(fg.vector().is_none());
}

fn ring_area(r: &[serde_json::Value]) -> f64 {
    let p: Vec<(f64, f64)> = r
        .iter()
        .map(|q| (q[0].as_f64().unwrap(), q[1].as_f64().unwrap()))
        .collect();
    (0..p.len())
        .map(|i| {
            let (a, b) = (p[i], p[(i + 1) % p.len()]);
            a.0 * b.1 - b.0 * a.1
        })
        .sum::<f64>()
        / 2.0
}

/// Whether `q` lies on one of the polygon's edges, within `tol`.
fn on_boundary(polygon: &[serde_json::Value], q: (f64, f64), tol: f64) -> bool {
    polygon.iter().any(|r| {
        let r = r.as_array().unwrap();
        (0..r.len()).any(|i| {
            let (a, b) = (&r[i], &r[(i + 1) % r.len()]);
            let (ax, ay, bx, by) = (
                a[0].as_f64().unwrap(),
                a[1].as_f64().unwrap(),
                b[0].as_f64().unwrap(),
                b[1].as_f64().unwrap(),
            );
            let (dx, dy) = (bx - ax, by - ay);
            let l2 = dx * dx + dy * dy;
            let t = (((q.0 - ax) * dx + (q.1 - ay) * dy) / l2).clamp(0.0, 1.0);
            (q.0 - ax - dx * t).hypot(q.1 - ay - dy * t) < tol
        })
    })
}

/// The JSON's per-cell `polygon`: its area is the cell's area inside the shape (its own and its
/// merged cells', from the clipped geometry), and every two cells joined by a passage share the
/// middle of the open part of their side; heart and owl (holes) on every topology.
#[test]
fn json_polygons_redraw_the_clipped_cells() {
    let kinds = [
        TopologyKind::Rect,
        TopologyKind::Hex,
        TopologyKind::Polar,
        TopologyKind::Tri,
    ];
    for shape in ["heart", "owl"] {
        for kind in kinds {
            let g = made(shape, kind, 16, OutlineStyle::Shape);
            let o = g.outline.as_ref().unwrap();
            let grid = g.maze.grid();
            let v: serde_json::Value = serde_json::from_slice(&hedge::json::to_vec(&g)).unwrap();
            assert_eq!(v["outline"], "shape");
            let cells = v["cells"].as_array().unwrap();
            let t = o.clip.topology().tess();
            let mut sides = Vec::new();
            let area_of = |c: hedge::topology::Coord, sides: &mut Vec<_>| {
                sides.clear();
                t.sides(c, sides);
                let mut poly = Vec::new();
                for s in sides.iter() {
                    let n = 64;
                    for k in 0..n {
                        poly.push(hedge::outline::side_point(s, f64::from(k) / f64::from(n)));
                    }
                }
                let length: f64 = sides.iter().map(hedge::outline::side_length).sum();
                (
                    hedge::shape::outline::shoelace(&poly) * o.clip.share(c),
                    length,
                )
            };
            for (id, parts) in grid.cells().zip(o.parts(grid)) {
                let polygon = cells[id.0 as usize]["polygon"].as_array().unwrap();
                let drawn: f64 = polygon
                    .iter()
                    .map(|r| ring_area(r.as_array().unwrap()))
                    .sum();
                let (mut want, mut length) = (0.0, 0.0);
                for &c in &parts {
                    let (a, l) = area_of(c, &mut sides);
                    want += a;
                    length += l;
                }
                // flattened arcs lose up to their tolerance along the sides
                assert!(
                    (drawn - want).abs() < 0.005 * want + POLYGON_TOLERANCE * length,
                    "{shape} {kind:?} cell {}: polygon {drawn:.4}, clipped {want:.4}",
                    id.0
                );
                sides.clear();
                grid.sides(id, &mut sides);
                for (k, s) in sides.iter().enumerate() {
                    let Some(n) = s.neighbour.and_then(|c| grid.id_at(c)) else {
                        continue;
                    };
                    if !grid
                        .slot_of(id, n)
                        .is_some_and(|slot| g.maze.linked_slot(id, slot))
                    {
                        continue;
                    }
                    let m = o.clip.side_mid(grid.coord(id), k, s);
                    // the JSON rounds to 6 decimals; arcs are flattened
                    let tol = if s.arc.is_some() {
                        POLYGON_TOLERANCE + 1e-5
                    } else {
                        1e-5
                    };
                    let other = cells[n.0 as usize]["polygon"].as_array().unwrap();
                    assert!(
                        on_boundary(polygon, (m.x, m.y), tol)
                            && on_boundary(other, (m.x, m.y), tol),
                        "{shape} {kind:?}: cells {} and {} do not share their side",
                        id.0,
                        n.0
                    );
                }
            }
        }
    }
}

/// A blob of up to four discs on a 160-pixel square, with a hole when `hole` is set.
pub(crate) fn blob(
    discs: &[(f64, f64, f64)],
    hole: Option<(f64, f64, f64)>,
) -> Option<hedge::shape::Foreground> {
    let size = 160u32;
    let bits: Vec<bool> = (0..size * size)
        .map(|i| {
            let (x, y) = (f64::from(i % size) + 0.5, f64::from(i / size) + 0.5);
            let on = discs.iter().any(|&(cx, cy, r)| (x - cx).hypot(y - cy) <= r);
            on && !hole.is_some_and(|(cx, cy, r)| (x - cx).hypot(y - cy) <= r)
        })
        .collect();
    hedge::shape::Foreground::from_bits(size, size, &bits).ok()
}

/// Random blobs (one to three discs run together, sometimes a hole) drawn with the shape's
/// outline are connected and perfect at braid 0 on every topology: 48 blobs, each on the four
/// topologies (18 cells across, 9 rings). A blob too small for a maze at that size is a
/// one-line error rather than a maze; such attempts are counted, and at most a tenth of them
/// may be (measured: none of 192).
#[test]
fn random_blobs_make_perfect_connected_mazes() {
    use proptest::test_runner::{Config, TestCaseError, TestRunner};
    use std::cell::Cell;
    let (made_count, skipped) = (Cell::new(0usize), Cell::new(0usize));
    let mut runner = TestRunner::new(Config {
        cases: 48,
        failure_persistence: None,
        ..Config::default()
    });
    let strategy = (
        proptest::collection::vec((30.0..130.0f64, 30.0..130.0f64, 15.0..50.0f64), 1..4),
        proptest::option::of((40.0..120.0f64, 40.0..120.0f64, 5.0..15.0f64)),
        0u64..1000,
    );
    let result = runner.run(&strategy, |(discs, hole, seed)| {
        let Some(fg) = blob(&discs, hole) else {
            skipped.set(skipped.get() + 4);
            return Ok(());
        };
        let fg = std::sync::Arc::new(fg);
        for kind in TopologyKind::ALL {
            let width = if kind == TopologyKind::Polar { 9 } else { 18 };
            let d = Design {
                kind: Kind::Walls(Walls {
                    topology: kind,
                    ..Walls::DEFAULT
                }),
                width,
                height: width,
                seed: Some(seed),
                shape: Some(ShapeSource::File("blob.png".into())),
                ..Design::default()
            };
            let Ok(p) = hedge::make::prepare_with(&d, Some(fg.clone()), Fit::default()) else {
                skipped.set(skipped.get() + 1);
                continue;
            };
            made_count.set(made_count.get() + 1);
            let Made::Walls(g) = p.make().unwrap() else {
                unreachable!("walls")
            };
            let fail = |what: &str| {
                TestCaseError::fail(format!("{kind:?} {discs:?} {hole:?} seed {seed}: {what}"))
            };
            if g.outline.is_none() {
                return Err(fail("not drawn with the shape's outline"));
            }
            if !g.maze.is_connected() {
                return Err(fail("not connected"));
            }
            if !g.maze.is_perfect() {
                return Err(fail("not perfect"));
            }
        }
        Ok(())
    });
    if let Err(e) = result {
        panic!("{e}");
    }
    let (made_count, skipped) = (made_count.get(), skipped.get());
    eprintln!("{made_count} mazes made, {skipped} blobs too small");
    assert!(
        skipped * 10 <= made_count + skipped,
        "{skipped} of {} attempts made no maze",
        made_count + skipped
    );
}

/// A generated silhouette on a 240-pixel square (`inside` says which pixel centres are shape).
fn drawn_shape(inside: impl Fn(f64, f64) -> bool) -> hedge::shape::Foreground {
    let size = 240u32;
    let bits: Vec<bool> = (0..size * size)
        .map(|i| {
            inside(
                f64::from(i % size) + 0.5 - 120.0,
                f64::from(i / size) + 0.5 - 120.0,
            )
        })
        .collect();
    hedge::shape::Foreground::from_bits(size, size, &bits).unwrap()
}

/// How far the outer boundary drawn on the rendered page lies from the silhouette, in cells:
/// the page (28 cells across, 14 rings) is rasterised by Hedge's PNG export at about 36 pixels
/// a cell, so a wall is 1.7 to 2.3 pixels wide and dark (luma under 128) wherever it falls
/// against the pixel grid (at 12 pixels a cell walls were under a pixel wide, and one straddling
/// two rows of pixels was too light to count: hex and tri pages measured up to 0.13 cell, and
/// 20 % of the ellipse's tri outline as missing). For every 8th pixel edge of the shape's own
/// foreground (mapped onto the page by the mask's placement and the page layout, not by the
/// outline code) the nearest ink within half a cell is found, and half the wall's width added
/// (the distance to the wall's middle, never less). Every point counts: the shape is placed
/// inside the rectangle the cells cover, so no point lies outside every cell. Returns the mean
/// distance and the share of points with no ink that near (the entrance and exit gaps).
fn drawn_distance(
    fg: &std::sync::Arc<hedge::shape::Foreground>,
    kind: TopologyKind,
    outline: OutlineStyle,
) -> (f64, f64) {
    use hedge::shape::fit::PixelMap;
    let width = if kind == TopologyKind::Polar { 14 } else { 28 };
    let d = Design {
        kind: Kind::Walls(Walls {
            topology: kind,
            ..Walls::DEFAULT
        }),
        width,
        height: width,
        seed: Some(3),
        shape: Some(ShapeSource::File("drawn.png".into())),
        outline,
        ..Design::default()
    };
    let fit = Fit {
        height: true,
        size_limit: None,
    };
    let p = hedge::make::prepare_with(&d, Some(fg.clone()), fit).unwrap();
    let made = p.make().unwrap();
    let (drawing, lay) = made.puzzle_page(&d.page).unwrap();
    let dpi = ((36.0 / lay.scale * 25.4).ceil() as u32).clamp(30, 1200);
    let px_per_mm = f64::from(dpi) / 25.4;
    let cell_px = lay.scale * px_per_mm;
    // walls 1.7 to 2.3 pixels wide: dark wherever they fall against the pixel grid
    let half_wall = lay.wall_mm * px_per_mm / 2.0;
    assert!(
        half_wall >= 0.75,
        "{kind:?}: walls {:.2} px wide",
        2.0 * half_wall
    );
    let page = image::load_from_memory(&hedge::export::png::png(&drawing, dpi).unwrap())
        .unwrap()
        .to_luma8();
    let topo = hedge::topology::Topology::new(kind, p.design().width, p.design().height).unwrap();
    let place = PixelMap::new(fg, &topo);
    let (w, h) = (i64::from(fg.width()), i64::from(fg.height()));
    let mut edges = Vec::new();
    for y in 0..h {
        for x in 0..w {
            if !fg.get(x, y) {
                continue;
            }
            let (fx, fy) = (x as f64, y as f64);
            for (dx, dy, m) in [
                (0, -1, (0.5, 0.0)),
                (1, 0, (1.0, 0.5)),
                (0, 1, (0.5, 1.0)),
                (-1, 0, (0.0, 0.5)),
            ] {
                if !fg.get(x + dx, y + dy) {
                    edges.push((fx + m.0, fy + m.1));
                }
            }
        }
    }
    let reach = (cell_px / 2.0).ceil() as i64;
    let (mut total, mut found, mut missed) = (0.0, 0usize, 0usize);
    for &(ex, ey) in edges.iter().step_by(8) {
        let q = hedge::topology::Point::new(place.x0 + ex / place.k, place.y0 + ey / place.k);
        let pos = lay.to_page(q);
        let (cx, cy) = (pos.x * px_per_mm, pos.y * px_per_mm);
        let mut best = f64::MAX;
        for py in (cy as i64 - reach)..=(cy as i64 + reach) {
            for px in (cx as i64 - reach)..=(cx as i64 + reach) {
                if px < 0
                    || py < 0
                    || px >= i64::from(page.width())
                    || py >= i64::from(page.height())
                {
                    continue;
                }
                if page.get_pixel(px as u32, py as u32).0[0] < 128 {
                    let dist = (px as f64 + 0.5 - cx).hypot(py as f64 + 0.5 - cy);
                    best = best.min(dist);
                }
            }
        }
        if best <= cell_px / 2.0 {
            total += (best + half_wall) / cell_px;
            found += 1;
        } else {
            missed += 1;
        }
    }
    (
        total / found as f64,
        missed as f64 / (found + missed) as f64,
    )
}

/// Measured from the rendered page: the drawn outer boundary lies within 0.1 cell of the
/// silhouette on average for the built-in heart and cat (their SVG paths) and three generated
/// pictures (an ellipse, a star, a blob with a hole: traced) on all four topologies, every
/// point of the silhouette counted. No more than 10 % of the contour is in the entrance and exit
/// gaps; the cells' staircase is further than 0.1 cell.
#[test]
fn the_drawn_outline_lies_on_the_silhouette() {
    use std::sync::Arc;
    let builtin_fg = |name: &str| {
        let d = Design {
            shape: Some(ShapeSource::Builtin(name.into())),
            ..Design::default()
        };
        prepare(&d, &Memory::new(), None, Fit::default())
            .unwrap()
            .foreground()
            .unwrap()
            .clone()
    };
    let star = |x: f64, y: f64| {
        let a = y.atan2(x);
        x.hypot(y) <= 70.0 + 40.0 * (5.0 * a).cos()
    };
    let shapes = [
        ("heart", builtin_fg("heart")),
        ("cat", builtin_fg("cat")),
        (
            "ellipse",
            Arc::new(drawn_shape(|x, y| {
                (x / 115.0).powi(2) + (y / 70.0).powi(2) <= 1.0
            })),
        ),
        ("star", Arc::new(drawn_shape(star))),
        (
            "blob",
            Arc::new(drawn_shape(|x, y| {
                let on = (x + 30.0).hypot(y) <= 75.0 || (x - 55.0).hypot(y + 30.0) <= 55.0;
                on && (x + 30.0).hypot(y - 10.0) > 22.0
            })),
        ),
    ];
    let mut failed = Vec::new();
    for (name, fg) in &shapes {
        for kind in [
            TopologyKind::Rect,
            TopologyKind::Hex,
            TopologyKind::Polar,
            TopologyKind::Tri,
        ] {
            let (mean, gaps) = drawn_distance(fg, kind, OutlineStyle::Shape);
            eprintln!(
                "{name} {kind:?}: {mean:.3} cell, {:.1} % in gaps",
                gaps * 100.0
            );
            if mean >= 0.1 || gaps >= 0.1 {
                failed.push(format!(
                    "{name} {kind:?}: {mean:.3} cell, {:.1} % gaps",
                    gaps * 100.0
                ));
            }
        }
    }
    assert!(failed.is_empty(), "{failed:?}");
    let (cells, _) = drawn_distance(&shapes[0].1, TopologyKind::Rect, OutlineStyle::Cells);
    eprintln!("heart Rect cells: {cells:.3} cell");
    assert!(
        cells > 0.1,
        "the cells' staircase measured {cells:.3} cell away"
    );
}

/// Whether `p` lies inside the contour (even-odd over its flattened rings).
fn inside(c: &hedge::shape::outline::Contour, p: hedge::topology::Point) -> bool {
    let mut odd = false;
    for ring in &c.rings {
        let n = ring.flat.len();
        for i in 0..n {
            let (a, b) = (ring.flat[i], ring.flat[(i + 1) % n]);
            if (a.y <= p.y) != (b.y <= p.y) && a.x + (p.y - a.y) * (b.x - a.x) / (b.y - a.y) > p.x {
                odd = !odd;
            }
        }
    }
    odd
}

/// The subpaths of `path` (page millimetres) as polylines in maze units, each cubic cut into
/// 16 straight pieces.
fn maze_polylines(
    path: &hedge::draw::Path,
    lay: &hedge::draw::Layout,
) -> Vec<Vec<hedge::topology::Point>> {
    use hedge::draw::Seg;
    let mut out: Vec<Vec<hedge::topology::Point>> = Vec::new();
    let mut at = hedge::draw::Pos::new(0.0, 0.0);
    for seg in path.segs() {
        match seg {
            Seg::MoveTo(p) => {
                out.push(vec![lay.to_maze(p)]);
                at = p;
            }
            Seg::LineTo(p) => {
                out.last_mut().unwrap().push(lay.to_maze(p));
                at = p;
            }
            Seg::CubicTo(p1, p2, p3) => {
                for k in 1..=16 {
                    let t = f64::from(k) / 16.0;
                    let u = 1.0 - t;
                    let (a, b, c, d) = (u * u * u, 3.0 * u * u * t, 3.0 * u * t * t, t * t * t);
                    let q = hedge::draw::Pos::new(
                        a * at.x + b * p1.x + c * p2.x + d * p3.x,
                        a * at.y + b * p1.y + c * p2.y + d * p3.y,
                    );
                    out.last_mut().unwrap().push(lay.to_maze(q));
                }
                at = p3;
            }
            Seg::Close => {
                let first = out.last().unwrap()[0];
                out.last_mut().unwrap().push(first);
            }
        }
    }
    out
}

/// How far outside the contour the polylines stray at worst: 0 when every point (and every
/// piece's middle) is inside, else the largest distance to the contour of a point outside.
fn worst_outside(
    c: &hedge::shape::outline::Contour,
    lines: &[Vec<hedge::topology::Point>],
) -> (f64, hedge::topology::Point) {
    use hedge::topology::Point;
    let mut worst = (0.0, Point::new(0.0, 0.0));
    for line in lines {
        for (i, &p) in line.iter().enumerate() {
            let mut probe = vec![p];
            if let Some(&q) = line.get(i + 1) {
                probe.push(Point::new((p.x + q.x) / 2.0, (p.y + q.y) / 2.0));
            }
            for q in probe {
                if !inside(c, q) {
                    let d = distance_to(c, q);
                    if d > worst.0 {
                        worst = (d, q);
                    }
                }
            }
        }
    }
    worst
}

/// The shapes and sizes the drawing checks run on: three built-ins (the owl has holes) on
/// every topology, 24 cells across (12 rings).
fn drawn_cases() -> Vec<(&'static str, TopologyKind, hedge::pipeline::Generated)> {
    let mut out = Vec::new();
    for shape in ["heart", "cat", "owl"] {
        for kind in TopologyKind::ALL {
            let width = if kind == TopologyKind::Polar { 12 } else { 24 };
            out.push((shape, kind, made(shape, kind, width, OutlineStyle::Shape)));
        }
    }
    out
}

/// Every built-in shape on every topology, 24 cells across (12 rings), made one at a time.
fn builtin_cases() -> impl Iterator<Item = (&'static str, TopologyKind, hedge::pipeline::Generated)>
{
    builtin::names().flat_map(|shape| {
        TopologyKind::ALL.into_iter().map(move |kind| {
            let width = if kind == TopologyKind::Polar { 12 } else { 24 };
            (shape, kind, made(shape, kind, width, OutlineStyle::Shape))
        })
    })
}

/// The answer key never crosses the outline: on every built-in shape on every topology, every
/// point of the key line drawn on the answer page (cubics cut into 16 pieces, mapped back to
/// maze units by the page layout) lies inside the shape's contour, or within 0.005 cell of it
/// (its two ends are the openings, on the contour). It once did not: on the cat at 24 cells
/// (rect) a quadratic from one side's middle to the next, through the clipped cell's centroid,
/// cut 0.075 cell across the tip of a notch of the contour near (9.4, 11.6); and on four cells
/// of the path (rabbit hex and tri, dog tri, butterfly polar, 0.12 to 0.21 cell out) the
/// clipped area was in two pieces, a thin spike of the outside between them, with the side the
/// line entered by on one piece and the side it left by on the other. A cell cut in pieces now
/// opens passages only through the sides of its largest piece (`Cut::main`): a side of another
/// piece counts as closed in the sliver rule, so the cell or its neighbour there leaves the
/// graph.
#[test]
fn the_answer_key_stays_inside_the_outline_on_every_builtin() {
    let failed = key_outside(builtin_cases());
    assert!(failed.is_empty(), "{failed:#?}");
}

/// The cases whose key line strays more than 0.005 cell outside the contour, described.
fn key_outside(
    cases: impl IntoIterator<Item = (&'static str, TopologyKind, hedge::pipeline::Generated)>,
) -> Vec<String> {
    use hedge::draw::{Layer, Shape};
    let mut failed = Vec::new();
    for (shape, kind, g) in cases {
        let o = g.outline.as_ref().expect("the shape's outline");
        let page = &g.design.page;
        let key = hedge::draw::key_page(&g, page).unwrap();
        let lay = hedge::draw::layout(&g, page).unwrap();
        let mut lines = Vec::new();
        for item in key.layer(Layer::Solution) {
            if let Shape::Stroke { path, .. } = &item.shape {
                lines.extend(maze_polylines(path, &lay));
            }
        }
        assert!(
            lines.iter().map(Vec::len).sum::<usize>() > 10,
            "{shape} {kind:?}: no key line"
        );
        let (worst, at) = worst_outside(o.clip.contour(), &lines);
        if worst > 0.005 {
            let grid = g.maze.grid();
            failed.push(format!(
                "{shape} {kind:?}: {worst:.4} cell outside at {at:?} (entrance {:?}, exit {:?})",
                grid.center(g.entrance.cell),
                grid.center(g.exit.cell)
            ));
        }
    }
    failed
}

/// The walls stay inside the shape: every point of every stroke of the walls layer (the inner
/// walls cut to the shape, and the outline itself) lies inside the contour or within 0.005 cell
/// of it.
#[test]
fn the_walls_stay_inside_the_shape() {
    use hedge::draw::{Layer, Shape};
    let mut failed = Vec::new();
    for (shape, kind, g) in drawn_cases() {
        let o = g.outline.as_ref().expect("the shape's outline");
        let (page, lay) = (
            hedge::draw::puzzle_page(&g, &g.design.page).unwrap(),
            hedge::draw::layout(&g, &g.design.page).unwrap(),
        );
        let mut lines = Vec::new();
        for item in page.layer(Layer::Walls) {
            if let Shape::Stroke { path, .. } = &item.shape {
                lines.extend(maze_polylines(path, &lay));
            }
        }
        assert!(!lines.is_empty(), "{shape} {kind:?}: no walls");
        let (worst, at) = worst_outside(o.clip.contour(), &lines);
        if worst > 0.005 {
            failed.push(format!(
                "{shape} {kind:?}: {worst:.4} cell outside at {at:?}"
            ));
        }
    }
    assert!(failed.is_empty(), "{failed:#?}");
}

/// The walls layer of `g`'s puzzle page as polylines in maze units, each with its stroke's
/// width in maze units.
fn wall_lines(
    g: &hedge::pipeline::Generated,
    lay: &hedge::draw::Layout,
) -> Vec<(Vec<hedge::topology::Point>, f64)> {
    use hedge::draw::{Layer, Shape};
    let page = hedge::draw::puzzle_page(g, &g.design.page).unwrap();
    let mut out = Vec::new();
    for item in page.layer(Layer::Walls) {
        if let Shape::Stroke { path, width, .. } = &item.shape {
            for line in maze_polylines(path, lay) {
                out.push((line, width / lay.scale));
            }
        }
    }
    out
}

/// How far `p` is from the nearest stroke of `lines` (from its edge: the distance to its
/// middle less half its width).
fn stroke_distance(lines: &[(Vec<hedge::topology::Point>, f64)], p: hedge::topology::Point) -> f64 {
    let mut best = f64::MAX;
    for (line, width) in lines {
        for w in line.windows(2) {
            best = best.min(hedge::shape::outline::seg_dist(p, w[0], w[1]) - width / 2.0);
        }
        if let [only] = line.as_slice() {
            best = best.min((p.x - only.x).hypot(p.y - only.y) - width / 2.0);
        }
    }
    best
}

/// The markers of `g`'s puzzle page in maze units: per arrow its label, its shaft (tail
/// first) with the shaft's width, and its head (tip first).
#[allow(clippy::type_complexity)]
fn arrows(
    g: &hedge::pipeline::Generated,
    lay: &hedge::draw::Layout,
) -> Vec<(
    String,
    Vec<hedge::topology::Point>,
    f64,
    Vec<hedge::topology::Point>,
)> {
    use hedge::draw::{Layer, Shape};
    let page = hedge::draw::puzzle_page(g, &g.design.page).unwrap();
    let (mut shaft, mut head) = (None, None);
    let mut out = Vec::new();
    for item in page.layer(Layer::Markers) {
        match &item.shape {
            Shape::Stroke { path, width, .. } => {
                shaft = Some((maze_polylines(path, lay).remove(0), width / lay.scale));
            }
            Shape::Fill { path, .. } => head = Some(maze_polylines(path, lay).remove(0)),
            Shape::Text(t) => {
                let (line, width) = shaft.take().expect("a shaft");
                out.push((t.text.clone(), line, width, head.take().expect("a head")));
            }
            _ => {}
        }
    }
    out
}

/// The entrance and exit arrows point along the outward normal of the curve at their gaps:
/// the code snaps the normal to the nearest eighth of a turn (so the START and FINISH labels
/// can sit beside the arrow), so an arrow is at most 22.5 degrees off the true normal (0.5
/// degree allowed for the page's single-precision points). The entrance's arrow points in, the
/// exit's out. The normal is measured where the arrow's line, from its inner end, first
/// crosses a part of the contour that is a gap (no stroke of the walls layer on it): once this
/// took the first crossing of any part, and on the owl's ear (rect, 24 cells), whose tip is
/// the gap, it measured the ear's other edge, 139 degrees off.
#[test]
fn the_arrows_point_along_the_curves_normal() {
    use hedge::topology::Point;
    let mut failed = Vec::new();
    for (shape, kind, g) in drawn_cases() {
        let o = g.outline.as_ref().expect("the shape's outline");
        let c = o.clip.contour();
        let lay = hedge::draw::layout(&g, &g.design.page).unwrap();
        let walls = wall_lines(&g, &lay);
        let arrows = arrows(&g, &lay);
        assert_eq!(arrows.len(), 2, "{shape} {kind:?}: two markers");
        for (label, shaft, _, head) in arrows {
            let (tail, tip) = (shaft[0], head[0]);
            let entrance = label == "START";
            // the arrow's inner end: the entrance's tip, the exit's tail
            let (inner, outer) = if entrance { (tip, tail) } else { (tail, tip) };
            let (dx, dy) = (inner.x - outer.x, inner.y - outer.y);
            // where the arrow's line crosses a gap of the contour nearest its inner end
            let mut best: Option<(f64, Point, Point)> = None;
            for ring in &c.rings {
                let n = ring.flat.len();
                for i in 0..n {
                    let (a, b) = (ring.flat[i], ring.flat[(i + 1) % n]);
                    let (ex, ey) = (b.x - a.x, b.y - a.y);
                    let den = dx * ey - dy * ex;
                    if den.abs() < 1e-12 {
                        continue;
                    }
                    let t = ((a.x - outer.x) * ey - (a.y - outer.y) * ex) / den;
                    let u = ((a.x - outer.x) * dy - (a.y - outer.y) * dx) / den;
                    if !(-1e-9..=1.0 + 1e-9).contains(&u) {
                        continue;
                    }
                    let x = Point::new(outer.x + dx * t, outer.y + dy * t);
                    if stroke_distance(&walls, x) < 0.01 {
                        continue;
                    }
                    let far = (t - 1.0).abs();
                    if best.is_none_or(|(f, _, _)| far < f) {
                        best = Some((far, x, Point::new(ex, ey)));
                    }
                }
            }
            let (_, at, along) = best.expect("the arrow's line crosses a gap");
            // the outward normal there: the side of the contour that is not the shape
            let l = along.x.hypot(along.y);
            let mut normal = (along.y / l, -along.x / l);
            if inside(
                c,
                Point::new(at.x + normal.0 * 1e-4, at.y + normal.1 * 1e-4),
            ) {
                normal = (-normal.0, -normal.1);
            }
            // the arrow's outward direction: against the entrance's, along the exit's
            let len = dx.hypot(dy);
            let out = (-dx / len, -dy / len);
            let angle = (out.0 * normal.0 + out.1 * normal.1)
                .clamp(-1.0, 1.0)
                .acos()
                .to_degrees();
            if angle > 22.5 + 0.5 {
                failed.push(format!("{shape} {kind:?} {label}: {angle:.1} degrees"));
            }
        }
    }
    assert!(failed.is_empty(), "{failed:#?}");
}

/// No arrow lies over the shape: on every built-in shape on every topology, every point of each
/// arrow (its shaft, the edges of its head, 16 points to a piece) is outside the contour and
/// clear of every stroke of the walls layer (the outline included), counting the shaft's width.
/// The arrows stop outside their gaps: once they reached 0.3 cell into the gap's cell, on the
/// owl's ear (rect, 24 cells) the head ran into the ear's narrow tip, the bird's tri START arrow
/// (at a gap on one side of a crack between the beak and the body) now turns out along the
/// crack, and the tree's tri START arrow, which lay 0.4 cell over the shape beside a gap too
/// short for its head, stands further out along the gap's normal.
#[test]
fn no_arrow_lies_over_the_shape_on_every_builtin() {
    let failed = arrows_over_the_shape(builtin_cases());
    assert!(failed.is_empty(), "{failed:#?}");
}

/// The arrows of `cases` that lie over the shape, described.
fn arrows_over_the_shape(
    cases: impl IntoIterator<Item = (&'static str, TopologyKind, hedge::pipeline::Generated)>,
) -> Vec<String> {
    use hedge::topology::Point;
    let mut failed = Vec::new();
    for (shape, kind, g) in cases {
        let o = g.outline.as_ref().expect("the shape's outline");
        let c = o.clip.contour();
        let lay = hedge::draw::layout(&g, &g.design.page).unwrap();
        let walls = wall_lines(&g, &lay);
        for (label, shaft, width, head) in arrows(&g, &lay) {
            let mut pieces: Vec<(Point, Point, f64)> = shaft
                .windows(2)
                .map(|w| (w[0], w[1], width / 2.0))
                .collect();
            let n = head.len();
            pieces.extend((0..n).map(|i| (head[i], head[(i + 1) % n], 0.0)));
            let mut worst: Option<(f64, Point)> = None;
            for (a, b, half) in pieces {
                for k in 0..=16 {
                    let t = f64::from(k) / 16.0;
                    let p = Point::new(a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t);
                    let clear = if inside(c, p) {
                        -distance_to(c, p)
                    } else {
                        stroke_distance(&walls, p) - half
                    };
                    if worst.is_none_or(|(w, _)| clear < w) {
                        worst = Some((clear, p));
                    }
                }
            }
            let (clear, at) = worst.expect("an arrow");
            if clear < 0.0 {
                failed.push(format!(
                    "{shape} {kind:?} {label}: {:.3} cell over the shape at {at:?}",
                    -clear
                ));
            }
        }
    }
    failed
}

/// The SVG of a shaped maze keeps its groups: `page`, `walls`, `markers` and `text` on the
/// puzzle, and `solution` too on the key, with those ids and nothing else (no weave, so no
/// `crossings`; the outline is drawn in `walls`, as cubic curves).
#[test]
fn shaped_svgs_keep_their_groups() {
    use hedge::export::Format;
    fn ids(svg: &[u8]) -> (Vec<String>, String) {
        let text = std::str::from_utf8(svg).unwrap();
        let doc = roxmltree::Document::parse(text).expect("the SVG parses");
        let mut walls = String::new();
        let ids = doc
            .root_element()
            .children()
            .filter(|n| n.is_element())
            .map(|n| {
                let id = n.attribute("id").unwrap_or("").to_string();
                if id == "walls" {
                    walls = text[n.range()].to_string();
                }
                id
            })
            .collect();
        (ids, walls)
    }
    for kind in TopologyKind::ALL {
        let width = if kind == TopologyKind::Polar { 10 } else { 20 };
        let mut d = Design {
            kind: Kind::Walls(Walls {
                topology: kind,
                ..Walls::DEFAULT
            }),
            width,
            height: width,
            seed: Some(5),
            shape: Some(ShapeSource::Builtin("heart".into())),
            ..Design::default()
        };
        d.page.title = Some("Heart".into());
        let fit = Fit {
            height: true,
            size_limit: None,
        };
        let made = prepare(&d, &Memory::new(), None, fit)
            .unwrap()
            .make()
            .unwrap();
        let Made::Walls(g) = &made else {
            unreachable!("walls")
        };
        assert!(g.outline.is_some(), "{kind:?}: the shape's outline");
        let r = made.render(&d.page, Format::Svg).unwrap();
        let (puzzle, walls) = ids(&r.puzzle);
        assert_eq!(puzzle, ["page", "walls", "markers", "text"], "{kind:?}");
        assert!(walls.contains('C'), "{kind:?}: the outline's curves");
        let (key, _) = ids(&r.key.unwrap());
        assert_eq!(
            key,
            ["page", "walls", "markers", "text", "solution"],
            "{kind:?}"
        );
    }
}

/// A design file's `outline = "cells"` or `"shape"` reaches the maze (the JSON says which it
/// got); a bad value is a one-line error naming the two values, and writes nothing.
#[test]
fn design_files_choose_the_outline() {
    let dir = tempfile::tempdir().unwrap();
    let design = dir.path().join("d.toml");
    let out_path = dir.path().join("m.json");
    let generate = || {
        crate::common::hedge()
            .args(["generate", "--design"])
            .arg(&design)
            .arg("-o")
            .arg(&out_path)
            .output()
            .unwrap()
    };
    for (value, want) in [
        (Some("cells"), "cells"),
        (Some("shape"), "shape"),
        (None, "shape"),
    ] {
        let line = value.map_or(String::new(), |v| format!("outline = \"{v}\"\n"));
        std::fs::write(
            &design,
            format!("width = 14\nheight = 14\nseed = 5\n{line}[shape]\nbuiltin = \"heart\"\n"),
        )
        .unwrap();
        let out = generate();
        crate::common::assert_ok(&out);
        let v: serde_json::Value =
            serde_json::from_slice(&std::fs::read(&out_path).unwrap()).unwrap();
        assert_eq!(v["outline"], want, "{value:?}");
        let polygons = v["cells"][0].get("polygon").is_some();
        assert_eq!(polygons, want == "shape", "{value:?}: per-cell polygons");
        std::fs::remove_file(&out_path).unwrap();
    }
    std::fs::write(
        &design,
        "width = 14\noutline = \"smooth\"\n[shape]\nbuiltin = \"heart\"\n",
    )
    .unwrap();
    let out = generate();
    assert!(!out.status.success());
    let err = crate::common::stderr_of(&out);
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(
        err.contains("smooth") && err.contains("shape") && err.contains("cells"),
        "{err}"
    );
    assert!(!out_path.exists());
}

/// Weave mazes have inset corridors by default, on rect and hex grids alike; inset or not
/// (`inset = 0`, full-width corridors) they get the shape's outline and stay perfect.
#[test]
fn weave_mazes_get_the_shapes_outline_inset_or_not() {
    for kind in [TopologyKind::Rect, TopologyKind::Hex] {
        for inset in [None, Some(0.0)] {
            let d = Design {
                kind: Kind::Walls(Walls {
                    topology: kind,
                    weave: 0.5,
                    inset,
                    ..Walls::DEFAULT
                }),
                width: 20,
                height: 20,
                seed: Some(4),
                shape: Some(ShapeSource::Builtin("heart".into())),
                ..Design::default()
            };
            let fit = Fit {
                height: true,
                size_limit: None,
            };
            let p = prepare(&d, &Memory::new(), None, fit).unwrap();
            let Made::Walls(g) = p.make().unwrap() else {
                unreachable!("walls")
            };
            assert!(g.outline.is_some(), "{kind:?} {inset:?}");
            assert!(!g.maze.tunnels().is_empty(), "{kind:?} {inset:?}: woven");
            assert!(
                g.maze.is_perfect() && g.maze.is_connected(),
                "{kind:?} {inset:?}"
            );
        }
    }
}

/// No part of the shape is left undrawn: on every built-in shape and topology at the sizes of
/// kids' pages (8 and 12 cells across, 4 and 6 rings) and at 24 (12 rings), every cell with
/// area inside the shape is either drawn as part of a maze cell or printed as picture, so the
/// outline is whole and the maze's outer wall closes along the kept cells. Cells dropped
/// because they are not joined to the main part used to belong to neither: a rabbit's foot or
/// ear tip, a turtle's head were a notch open to the page, the contour stopping at its sides.
#[test]
fn dropped_cells_leave_no_open_notch() {
    let mut with_drops = 0;
    for shape in builtin::names() {
        for kind in TopologyKind::ALL {
            let widths: &[u32] = if kind == TopologyKind::Polar {
                &[4, 6, 12]
            } else {
                &[8, 12, 24]
            };
            for &width in widths {
                // a shape that leaves too few cells at this size makes no maze: nothing to draw
                let Ok(p) = prepared(shape, kind, width, OutlineStyle::Shape) else {
                    continue;
                };
                let Ok(Made::Walls(g)) = p.make() else {
                    continue;
                };
                let o = g.outline.as_ref().expect("drawn with the shape's outline");
                let t = o.clip.topology().tess();
                for row in 0..t.rows() {
                    for col in 0..t.cols(row) {
                        let c = hedge::topology::Coord::new(row, col);
                        if o.clip.share(c) > 1e-9 {
                            assert!(
                                o.owner(c).is_some() || o.picture.binary_search(&c).is_ok(),
                                "{shape} {kind:?} {width}: cell {c:?} ({:.2} inside) undrawn; dropped {} {:?} mask {:?}",
                                o.clip.share(c),
                                g.dropped_cells,
                                p.dropped(),
                                p.mask().map(|m| m.get(c))
                            );
                        }
                    }
                }
                if g.dropped_cells > 0 {
                    with_drops += 1;
                    for c in p.dropped() {
                        assert!(
                            o.picture.binary_search(c).is_ok() || o.owner(*c).is_some(),
                            "{shape} {kind:?} {width}: dropped {c:?}"
                        );
                    }
                    // the line says what the page shows
                    assert!(g.summary().contains("drawn as picture"), "{}", g.summary());
                }
            }
        }
    }
    println!("{with_drops} of the cases drop cells");
    assert!(with_drops >= 5, "only {with_drops} cases drop cells");
}
