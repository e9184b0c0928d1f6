//! ASCII pictures of rect mazes, in the style of *Mazes for Programmers*.
//!
//! Each cell is three spaces wide and one line high; walls are `---` (horizontal) and `|`
//! (vertical), and every corner is `+`:
//!
//! ```text
//! +---+---+
//! |       |
//! +   +---+
//! |       |
//! +---+---+
//! ```
//!
//! On a masked grid, switched-off cells are blank: a wall segment is drawn where it borders at
//! least one active cell and is not a passage (nor an opening), and a corner `+` where at least
//! one of the up to four cells around it is active. Every line ends with `\n` and carries no
//! trailing spaces: a line is cut after its last wall or corner character, so an east opening or
//! switched-off cells at the east end of a row leave nothing behind, and a row whose cells and
//! corners are all switched off prints as an empty line. Lines keep their leading spaces, so
//! columns stay aligned.
//!
//! Weave mazes: a tunnel runs under a cell whose own corridor crosses it, so the walls it passes
//! through stay solid for the corridor above. They are drawn dashed, `- -` for a horizontal wall
//! and `:` for a vertical one, meaning "you can pass under here".

use crate::error::{Error, Result};
use crate::grid::CellId;
use crate::maze::Maze;
use crate::topology::{Coord, TopologyKind};

/// Side names in the rect side order (0 = north, 1 = east, 2 = south, 3 = west).
const SIDE_NAMES: [&str; 4] = ["north", "east", "south", "west"];

/// Row and column steps to the cell across each side, in the rect side order.
const SIDE_STEPS: [(i64, i64); 4] = [(-1, 0), (0, 1), (1, 0), (0, -1)];

/// Draws `maze` (a rect maze) as text, leaving open the outer-wall sides in `openings`.
///
/// Each opening is a cell and one of its sides in the rect side order (0 = north, 1 = east,
/// 2 = south, 3 = west); the side must be on the maze's outline (no active cell across it), as
/// an entrance or exit is. Fails with [`crate::ErrorKind::InvalidOption`] for other topologies,
/// unknown cells, side numbers above 3 and sides between two active cells.
pub fn render(maze: &Maze, openings: &[(CellId, usize)]) -> Result<String> {
    let grid = maze.grid();
    let kind = grid.topology().kind();
    if kind != TopologyKind::Rect {
        return Err(Error::option(format!(
            "ASCII output is available for rect mazes only, not {kind}"
        )));
    }
    let t = grid.topology().tess();
    let (width, height) = (i64::from(t.cols(0)), i64::from(t.rows()));
    let cell = |row: i64, col: i64| -> Option<CellId> {
        if row < 0 || col < 0 || row >= height || col >= width {
            return None;
        }
        grid.id_at(Coord::new(row as u32, col as u32))
    };

    let open = checked_openings(maze, openings, cell)?;
    let is_open = |c: CellId, side: usize| open.contains(&(c, side));
    // the wall between `a` (before: above or left) and `b` (after), seen from `a` through `side`
    let wall = |a: Option<CellId>, b: Option<CellId>, side: usize| match (a, b) {
        (None, None) => false,
        (Some(a), Some(b)) => !maze.linked(a, b),
        (Some(a), None) => !is_open(a, side),
        (None, Some(b)) => !is_open(b, (side + 2) % 4),
    };

    let dashed = dashed_walls(maze);
    let is_dashed = |a: Option<CellId>, b: Option<CellId>| match (a, b) {
        (Some(a), Some(b)) => dashed.binary_search(&(a.min(b), a.max(b))).is_ok(),
        _ => false,
    };

    let line_len = 4 * width as usize + 2;
    let mut out = String::with_capacity(line_len * (2 * height as usize + 1));
    let mut line = String::with_capacity(line_len);
    let finish = |line: &mut String, out: &mut String| {
        out.push_str(line.trim_end_matches(' '));
        out.push('\n');
        line.clear();
    };
    for i in 0..=height {
        // the corners and horizontal walls above row `i`
        for j in 0..=width {
            let corner = cell(i - 1, j - 1).is_some()
                || cell(i - 1, j).is_some()
                || cell(i, j - 1).is_some()
                || cell(i, j).is_some();
            line.push(if corner { '+' } else { ' ' });
            if j < width {
                let (a, b) = (cell(i - 1, j), cell(i, j));
                line.push_str(match (wall(a, b, 2), is_dashed(a, b)) {
                    (true, true) => "- -",
                    (true, false) => "---",
                    _ => "   ",
                });
            }
        }
        finish(&mut line, &mut out);
        if i == height {
            break;
        }
        // row `i`: vertical walls and cell interiors
        for j in 0..=width {
            let (a, b) = (cell(i, j - 1), cell(i, j));
            line.push(match (wall(a, b, 1), is_dashed(a, b)) {
                (true, true) => ':',
                (true, false) => '|',
                _ => ' ',
            });
            if j < width {
                line.push_str("   ");
            }
        }
        finish(&mut line, &mut out);
    }
    Ok(out)
}

/// `openings` checked against `maze`: each names one of its cells and a side (0 to 3) with no
/// active cell across it, where `cell` finds the cell at a row and column (`None` outside the
/// grid or switched off).
fn checked_openings(
    maze: &Maze,
    openings: &[(CellId, usize)],
    cell: impl Fn(i64, i64) -> Option<CellId>,
) -> Result<Vec<(CellId, usize)>> {
    let grid = maze.grid();
    let mut open: Vec<(CellId, usize)> = Vec::with_capacity(openings.len());
    for &(c, side) in openings {
        if c.index() >= grid.len() {
            return Err(Error::option(format!(
                "opening names cell {} but the maze has {} cells",
                c.0,
                grid.len()
            )));
        }
        if side >= 4 {
            return Err(Error::option(format!(
                "opening side must be 0 (north), 1 (east), 2 (south) or 3 (west), got {side}"
            )));
        }
        let at = grid.coord(c);
        let (dr, dc) = SIDE_STEPS[side];
        if cell(i64::from(at.row) + dr, i64::from(at.col) + dc).is_some() {
            return Err(Error::option(format!(
                "the {} side of cell ({}, {}) is not on the outer wall",
                SIDE_NAMES[side], at.row, at.col
            )));
        }
        open.push((c, side));
    }
    Ok(open)
}

/// The walls a tunnel passes under, as (the cell above or left, the cell below or right) pairs,
/// sorted.
fn dashed_walls(maze: &Maze) -> Vec<(CellId, CellId)> {
    let mut dashed: Vec<(CellId, CellId)> = Vec::new();
    for t in maze.tunnels() {
        for (a, b) in [(t.from, t.under), (t.under, t.to)] {
            dashed.push(if a < b { (a, b) } else { (b, a) });
        }
    }
    dashed.sort_unstable();
    dashed
}

#[cfg(test)]
mod weave_tests {
    use super::*;
    use crate::grid::Grid;
    use crate::topology::Topology;
    use std::sync::Arc;

    /// A 3x3 maze whose centre is a north-south corridor with an east-west tunnel under it.
    #[test]
    fn tunnel_walls_are_dashed() {
        let t = Topology::new(TopologyKind::Rect, 3, 3).unwrap();
        let g = Arc::new(Grid::new(t, None).unwrap());
        let id = |r, c| g.id_at(Coord::new(r, c)).unwrap();
        let mut m = Maze::new(g.clone());
        for (a, b) in [
            ((0, 0), (0, 1)),
            ((0, 1), (1, 1)),
            ((1, 1), (2, 1)),
            ((0, 1), (0, 2)),
            ((1, 0), (2, 0)),
            ((1, 2), (2, 2)),
        ] {
            m.link(id(a.0, a.1), id(b.0, b.1));
        }
        m.add_tunnel(id(1, 0), id(1, 2), id(1, 1));
        m.link(id(0, 0), id(1, 0));
        assert!(m.is_perfect());
        let pic = render(&m, &[]).unwrap();
        assert_eq!(
            pic,
            "+---+---+---+\n|           |\n+   +   +---+\n|   :   :   |\n+   +   +   +\n|   |   |   |\n+---+---+---+\n"
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Grid;
    use crate::mask::Mask;
    use crate::topology::Topology;
    use std::sync::Arc;

    fn maze(w: u32, h: u32, mask: Option<&str>) -> Maze {
        let t = Topology::new(TopologyKind::Rect, w, h).unwrap();
        let mask = mask.map(|m| Mask::from_ascii(&t, m).unwrap());
        Maze::new(Arc::new(Grid::new(t, mask.as_ref()).unwrap()))
    }

    #[test]
    fn closed_grid_is_all_walls() {
        let m = maze(4, 4, None);
        let all = "+---+---+---+---+\n|   |   |   |   |\n".repeat(4) + "+---+---+---+---+\n";
        assert_eq!(render(&m, &[]).unwrap(), all);
    }

    #[test]
    fn passages_and_openings_leave_gaps() {
        let mut m = maze(2, 2, None);
        m.link(CellId(0), CellId(1));
        m.link(CellId(1), CellId(3));
        m.link(CellId(3), CellId(2));
        let pic = render(&m, &[(CellId(0), 3), (CellId(3), 1)]).unwrap();
        assert_eq!(
            pic, "+---+---+\n        |\n+---+   +\n|\n+---+---+\n",
            "\n{pic}"
        );
        let pic = render(&m, &[(CellId(0), 0), (CellId(3), 2)]).unwrap();
        assert_eq!(
            pic,
            "+   +---+\n|       |\n+---+   +\n|       |\n+---+   +\n"
        );
    }

    #[test]
    fn masked_cells_are_blank() {
        let m = maze(3, 3, Some("##.\n#..\n...\n"));
        let pic = render(&m, &[]).unwrap();
        assert_eq!(
            pic, "+---+---+\n|   |   |\n+---+---+\n|   |\n+---+\n\n\n",
            "\n{pic}"
        );
        let m = maze(3, 2, Some(".#.\n#.#\n"));
        let pic = render(&m, &[]).unwrap();
        assert_eq!(
            pic, "    +---+\n    |   |\n+---+---+---+\n|   |   |   |\n+---+   +---+\n",
            "\n{pic}"
        );
    }

    #[test]
    fn bad_openings_are_refused() {
        let m = maze(2, 2, Some("##\n#.\n"));
        let err = |o: &[(CellId, usize)]| render(&m, o).unwrap_err().kind;
        use crate::ErrorKind::InvalidOption;
        assert_eq!(err(&[(CellId(0), 1)]), InvalidOption);
        assert_eq!(err(&[(CellId(0), 4)]), InvalidOption);
        assert_eq!(err(&[(CellId(3), 0)]), InvalidOption);
        // the east side of (0, 1) and the south side of (1, 0) face the switched-off cell
        assert!(render(&m, &[(CellId(1), 2), (CellId(2), 1)]).is_ok());
    }
}
