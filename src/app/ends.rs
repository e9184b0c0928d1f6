//! START and FINISH placed by hand follow the maze. A change of shape, size or grid can leave a
//! placed cell outside the new maze or off its outline, where no opening can be; then each end
//! moves to the outline cell nearest its old place (its place relative to the grid's extent, so
//! an end on the right edge stays on the right edge of a wider grid), in the same undo step,
//! with a note. Where no two cells can be found, the ends go back to the automatic placement,
//! with a note. The preview never goes blank for it.

use std::sync::Arc;

use crate::design::{Design, Style};
use crate::endpoints::Placement;
use crate::error::Error;
use crate::grid::Grid;
use crate::make::{Fit, Made, Prepared, prepare_with};
use crate::shape::Foreground;
use crate::topology::{Coord, Point, Tessellation, Topology, TopologyKind};

/// A grid a design's placed cells were shown on: its topology and size.
pub type GridSize = (TopologyKind, u32, u32);

/// The grid `d` is made on.
pub fn grid_size(d: &Design) -> GridSize {
    (d.grid_topology(), d.width, d.height)
}

/// The smallest and largest cell centres of `tess`, each way.
fn extent(tess: &dyn Tessellation) -> (Point, Point) {
    let (mut lo, mut hi) = (
        Point::new(f64::INFINITY, f64::INFINITY),
        Point::new(f64::NEG_INFINITY, f64::NEG_INFINITY),
    );
    for row in 0..tess.rows() {
        for col in 0..tess.cols(row) {
            let p = tess.center(Coord::new(row, col));
            lo = Point::new(lo.x.min(p.x), lo.y.min(p.y));
            hi = Point::new(hi.x.max(p.x), hi.y.max(p.y));
        }
    }
    (lo, hi)
}

/// Where `c` is on the grid `size`, relative to its extent (0 to 1 each way; a cell outside it
/// is taken at the nearest cell inside).
fn relative(c: Coord, size: GridSize) -> Option<(f64, f64)> {
    let t = Topology::new(size.0, size.1, size.2).ok()?;
    let tess = t.tess();
    let row = c.row.min(tess.rows().checked_sub(1)?);
    let col = c.col.min(tess.cols(row).checked_sub(1)?);
    let p = tess.center(Coord::new(row, col));
    let (lo, hi) = extent(tess);
    let share = |v: f64, a: f64, b: f64| if b > a { (v - a) / (b - a) } else { 0.5 };
    Some((share(p.x, lo.x, hi.x), share(p.y, lo.y, hi.y)))
}

/// The entrance and exit cells on `grid`'s outline nearest the places of `entrance` and `exit`
/// on the grid `was` (relative to its extent), two different cells; `None` when the outline
/// has fewer than two.
pub fn follow(entrance: Coord, exit: Coord, was: GridSize, grid: &Grid) -> Option<Placement> {
    let outline = crate::endpoints::outline(grid);
    let (lo, hi) = extent(grid.topology().tess());
    let target = |c: Coord| {
        relative(c, was)
            .map(|(u, v)| Point::new(lo.x + u * (hi.x - lo.x), lo.y + v * (hi.y - lo.y)))
    };
    let nearest = |q: Point, other: Option<Coord>| {
        outline
            .iter()
            .map(|&id| (grid.center(id), grid.coord(id)))
            .filter(|&(_, c)| Some(c) != other)
            .min_by(|a, b| {
                let d = |p: Point| (p.x - q.x).hypot(p.y - q.y);
                d(a.0).total_cmp(&d(b.0))
            })
            .map(|(_, c)| c)
    };
    let entrance = nearest(target(entrance)?, None)?;
    let exit = nearest(target(exit)?, Some(entrance))?;
    Some(Placement::Cells { entrance, exit })
}

/// A maze made after its placed ends moved: the preparation, the maze and the placement.
pub type Followed = (Prepared, Made, Placement);

/// `design` (on `shape`) made again when making it failed (`failed`) and its START and FINISH
/// are placed cells: with the ends moved to the nearest outline cells of the new maze (their
/// places on the grid `was`, the grid they were last shown on; the design's own grid when not
/// known), or else placed automatically. `failed` itself when the maze fails for another
/// reason too.
pub fn remake(
    design: &Design,
    shape: Option<Arc<Foreground>>,
    was: Option<GridSize>,
    failed: Error,
) -> Result<Followed, Error> {
    let Placement::Cells { entrance, exit } = design.walls().placement else {
        return Err(failed);
    };
    if design.style() != Style::Walls || design.walls().starts > 1 {
        return Err(failed);
    }
    let with = |placement: Placement| {
        let mut d = design.clone();
        if let Some(w) = d.walls_mut() {
            w.placement = placement;
        }
        let prepared = prepare_with(&d, shape.clone(), Fit::default())?;
        let made = prepared.make()?;
        Ok::<_, Error>((prepared, made))
    };
    // the maze with its ends placed automatically: where the outline is
    let Ok((prepared, made)) = with(Placement::Auto) else {
        return Err(failed);
    };
    let Made::Walls(g) = &made else {
        return Err(failed);
    };
    let was = was.unwrap_or_else(|| grid_size(design));
    if let Some(p) = follow(entrance, exit, was, g.maze.grid())
        && let Ok((prepared, made)) = with(p)
    {
        return Ok((prepared, made, p));
    }
    Ok((prepared, made, Placement::Auto))
}

/// The note shown when the ends moved to `placement`.
pub fn note(placement: Placement) -> String {
    match placement {
        Placement::Cells { .. } => {
            "START and FINISH were off the new maze's outline: moved to its \
                                    nearest cells (undo puts them back)"
                .into()
        }
        _ => "START and FINISH were off the new maze's outline: placed automatically again \
              (Entrance: auto)"
            .into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::design::Design;

    fn grid(w: u32, h: u32) -> Arc<Grid> {
        let d = Design {
            width: w,
            height: h,
            seed: Some(1),
            ..Design::default()
        };
        let Made::Walls(g) = prepare_with(&d, None, Fit::default())
            .unwrap()
            .make()
            .unwrap()
        else {
            unreachable!()
        };
        g.maze.grid_arc().clone()
    }

    #[test]
    fn ends_keep_their_places_relative_to_the_grid() {
        let rect = |w, h| (TopologyKind::Rect, w, h);
        // FINISH on the right edge of a 10x10 grid stays on the right edge of a 20x10 one;
        // START in the top-left corner stays there
        let p = follow(
            Coord::new(0, 0),
            Coord::new(5, 9),
            rect(10, 10),
            &grid(20, 10),
        );
        assert_eq!(
            p,
            Some(Placement::Cells {
                entrance: Coord::new(0, 0),
                exit: Coord::new(5, 19)
            })
        );
        // a cell outside a smaller grid: the nearest outline cell where it was (row 9 of 20 is
        // 47 % down; 47 % of 6 rows' extent is row 2.4)
        let p = follow(
            Coord::new(9, 0),
            Coord::new(0, 19),
            rect(20, 20),
            &grid(6, 6),
        );
        assert_eq!(
            p,
            Some(Placement::Cells {
                entrance: Coord::new(2, 0),
                exit: Coord::new(0, 5)
            })
        );
    }

    #[test]
    fn a_maze_whose_placed_end_left_the_grid_is_made_with_the_end_moved() {
        let d = Design {
            width: 8,
            height: 8,
            seed: Some(4),
            kind: crate::design::Kind::Walls(crate::design::Walls {
                placement: Placement::Cells {
                    entrance: Coord::new(0, 3),
                    exit: Coord::new(11, 11),
                },
                ..crate::design::Walls::DEFAULT
            }),
            ..Design::default()
        };
        let failed = prepare_with(&d, None, Fit::default())
            .unwrap()
            .make()
            .unwrap_err();
        let was = Some((TopologyKind::Rect, 12, 12));
        let (_, made, p) = remake(&d, None, was, failed.clone()).unwrap();
        let Placement::Cells { entrance, exit } = p else {
            panic!("{p:?}")
        };
        assert_eq!((entrance, exit), (Coord::new(0, 2), Coord::new(7, 7)));
        assert_eq!(made.design().walls().placement, p);
        // not placed by hand: the error stands
        let auto = Design {
            width: 8,
            height: 8,
            ..Design::default()
        };
        assert_eq!(
            remake(&auto, None, was, failed.clone()).unwrap_err(),
            failed
        );
    }
}
