//! Shaped mazes drawn with the shape's own outline: corridor widths at every passage, perfect
//! and connected mazes, on every built-in shape and topology.

use hedge::design::Design;
use hedge::load::Memory;
use hedge::make::{Fit, Made, prepare};
use hedge::outline::{MIN_PASSAGE, OutlineStyle};
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
                let o = g.outline.as_ref().expect("drawn with the shape's outline");
                let grid = g.maze.grid();
                assert!(g.maze.is_perfect(), "{shape} {kind:?} {width}");
                assert!(g.maze.is_connected(), "{shape} {kind:?} {width}");
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
                assert!(
                    narrowest >= MIN_PASSAGE - 1e-9,
                    "{shape} {kind:?} {width}: a passage {narrowest:.3} of its side wide"
                );
            }
        }
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
