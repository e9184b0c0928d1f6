//! Shaped mazes drawn with the shape's own outline: corridor widths at every passage, perfect
//! and connected mazes, on every built-in shape and topology.

use hedge::design::Design;
use hedge::load::Memory;
use hedge::make::{Fit, Made, prepare};
use hedge::outline::{MIN_PASSAGE, OutlineStyle, POLYGON_TOLERANCE};
use hedge::shape::{ShapeSource, builtin};
use hedge::topology::TopologyKind;

fn made(
    shape: &str,
    kind: TopologyKind,
    width: u32,
    outline: OutlineStyle,
) -> hedge::pipeline::Generated {
    let d = Design {
        topology: kind,
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
    let p = prepare(&d, &Memory::new(), None, fit).unwrap();
    match p.make().unwrap() {
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
fn narrowest_passage(g: &hedge::pipeline::Generated) -> f64 {
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
            topology: kind,
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
    use hedge::shape::fit::Placement;
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
        let place = Placement::new(fg, &topo);
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
fn blob(
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

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig {
        cases: 6,
        failure_persistence: None,
        ..proptest::prelude::ProptestConfig::default()
    })]

    /// Random blobs (discs run together, sometimes a hole) drawn with the shape's outline are
    /// connected and perfect at braid 0 on every topology.
    #[test]
    fn random_blobs_make_perfect_connected_mazes(
        discs in proptest::collection::vec((30.0..130.0f64, 30.0..130.0f64, 15.0..50.0f64), 1..4),
        hole in proptest::option::of((40.0..120.0f64, 40.0..120.0f64, 5.0..15.0f64)),
        seed in 0u64..1000,
    ) {
        let Some(fg) = blob(&discs, hole) else { return Ok(()) };
        let fg = std::sync::Arc::new(fg);
        for kind in [TopologyKind::Rect, TopologyKind::Hex, TopologyKind::Polar, TopologyKind::Tri] {
            let width = if kind == TopologyKind::Polar { 9 } else { 18 };
            let d = Design {
                topology: kind,
                width,
                height: width,
                seed: Some(seed),
                shape: Some(ShapeSource::File("blob.png".into())),
                ..Design::default()
            };
            // a blob too small for a maze at this size is a one-line error, not a maze
            let Ok(p) = hedge::make::prepare_with(&d, Some(fg.clone()), Fit::default()) else {
                continue;
            };
            let Made::Walls(g) = p.make().unwrap() else { unreachable!("walls") };
            proptest::prop_assert!(g.outline.is_some(), "{kind:?}");
            proptest::prop_assert!(g.maze.is_connected(), "{kind:?} {discs:?} {hole:?}");
            proptest::prop_assert!(g.maze.is_perfect(), "{kind:?} {discs:?} {hole:?}");
        }
    }
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
/// the page (28 cells across, 14 rings) is rasterised by Hedge's PNG export at about 12 pixels
/// a cell, and for every 8th pixel edge of the shape's own foreground (mapped onto the page by the mask's placement
/// and the page layout, not by the outline code) the nearest ink within half a cell is found.
/// Points outside every cell of the topology (where the silhouette runs along the box of a hex
/// or tri grid, which its cells do not fill) are left out. Returns the mean distance, the share
/// of points with no ink that near (the entrance and exit gaps) and the share left out.
fn drawn_distance(
    fg: &std::sync::Arc<hedge::shape::Foreground>,
    kind: TopologyKind,
    outline: OutlineStyle,
) -> (f64, f64, f64) {
    use hedge::shape::fit::Placement;
    let width = if kind == TopologyKind::Polar { 14 } else { 28 };
    let d = Design {
        topology: kind,
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
    let dpi = ((12.0 / lay.scale * 25.4).ceil() as u32).clamp(30, 600);
    let px_per_mm = f64::from(dpi) / 25.4;
    let cell_px = lay.scale * px_per_mm;
    let page = image::load_from_memory(&hedge::export::png::png(&drawing, dpi).unwrap())
        .unwrap()
        .to_luma8();
    let topo = hedge::topology::Topology::new(kind, p.design().width, p.design().height).unwrap();
    let place = Placement::new(fg, &topo);
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
    // the topology's cells (a hex or tri grid does not cover its whole box)
    let t = topo.tess();
    let mut cells = Vec::new();
    let mut sides = Vec::new();
    for row in 0..t.rows() {
        for col in 0..t.cols(row) {
            sides.clear();
            t.sides(hedge::topology::Coord::new(row, col), &mut sides);
            let poly: Vec<_> = sides
                .iter()
                .flat_map(|s| (0..8).map(|k| hedge::outline::side_point(s, f64::from(k) / 8.0)))
                .collect();
            cells.push(poly);
        }
    }
    let in_grid = |q: hedge::topology::Point| {
        cells.iter().any(|poly| {
            let mut odd = false;
            for i in 0..poly.len() {
                let (a, b) = (poly[i], poly[(i + 1) % poly.len()]);
                if (a.y <= q.y) != (b.y <= q.y)
                    && a.x + (q.y - a.y) * (b.x - a.x) / (b.y - a.y) > q.x
                {
                    odd = !odd;
                }
            }
            odd
        })
    };
    let reach = (cell_px / 2.0).ceil() as i64;
    let (mut total, mut found, mut missed, mut outside) = (0.0, 0usize, 0usize, 0usize);
    for &(ex, ey) in edges.iter().step_by(8) {
        let q = hedge::topology::Point::new(place.x0 + ex / place.k, place.y0 + ey / place.k);
        if !in_grid(q) {
            outside += 1;
            continue;
        }
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
            total += best / cell_px;
            found += 1;
        } else {
            missed += 1;
        }
    }
    let all = (found + missed + outside) as f64;
    (
        total / found as f64,
        missed as f64 / all,
        outside as f64 / all,
    )
}

/// Measured from the rendered page: the drawn outer boundary lies within 0.1 cell of the
/// silhouette on average for the built-in heart and cat (their SVG paths) on all four
/// topologies and for three generated pictures (an ellipse, a star, a blob with a hole: traced)
/// on rect and polar; on hex and tri the ellipse and the blob reach 0.116 to 0.132 (bound 0.15
/// there). No more than 10 % of the contour is in the entrance and exit gaps; the cells'
/// staircase is further than 0.1 cell.
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
            let (mean, gaps, outside) = drawn_distance(fg, kind, OutlineStyle::Shape);
            eprintln!(
                "{name} {kind:?}: {mean:.3} cell, {:.1} % in gaps, {:.1} % outside the grid",
                gaps * 100.0,
                outside * 100.0
            );
            // hex and tri grids do not fill their box: where a traced picture runs along it
            // (the ellipse's long sides, the blob), the outline there is further off (measured
            // 0.116 to 0.132 cell); every other pair is under 0.1 (0.038 to 0.089)
            let bound = match kind {
                TopologyKind::Hex | TopologyKind::Tri => 0.15,
                _ => 0.1,
            };
            if mean >= bound || gaps >= 0.1 {
                failed.push(format!(
                    "{name} {kind:?}: {mean:.3} cell, {:.1} % gaps",
                    gaps * 100.0
                ));
            }
        }
    }
    assert!(failed.is_empty(), "{failed:?}");
    let (cells, _, _) = drawn_distance(&shapes[0].1, TopologyKind::Rect, OutlineStyle::Cells);
    eprintln!("heart Rect cells: {cells:.3} cell");
    assert!(
        cells > 0.1,
        "the cells' staircase measured {cells:.3} cell away"
    );
}
