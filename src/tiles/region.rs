//! Regions: the tiles of a grid a tile maze may use, from a silhouette.
//!
//! The tile grid's geometry is the hex topology's ([`crate::topology::hex`]): odd-q columns of
//! flat-topped hexagons 1 unit across their flats, columns `sqrt(3)/2` apart, odd columns half a
//! tile lower, and the same six neighbours. Tile `(col, row)` is hex cell `Coord { row, col }`
//! moved by `(1/sqrt(3), 1/2)` (the hex topology's first centre), so a shape is rasterised onto
//! the tiles by [`crate::shape::fit`] on a `width` x `height` hex topology, and the height that
//! keeps a shape's aspect ratio is [`crate::shape::fitted_height`] of the hex topology.
//!
//! A region is a [`TileGrid`] whose open tiles are the region's; [`super::puzzle::make_in`]
//! builds the maze inside it.

use super::TileGrid;
use crate::error::Result;
use crate::mask::Mask;
use crate::shape::Foreground;
use crate::topology::{Coord, Topology, TopologyKind};

/// The hex topology with the tile grid's cells: what a shape is fitted to.
pub fn topology(width: u32, height: u32) -> Result<Topology> {
    Topology::new(TopologyKind::Hex, width, height)
}

/// The region of a `width` x `height` tile grid that `mask` (a mask of [`topology`]) covers,
/// keeping its largest connected part only (ties: the part whose first tile comes first).
pub fn from_mask(mask: &Mask, width: u32, height: u32) -> Result<TileGrid> {
    let topo = topology(width, height)?;
    if !mask.fits(&topo) {
        return Err(crate::error::Error::input(
            "the mask was made for a different grid size",
        ));
    }
    let mut m = mask.clone();
    m.keep_largest_component(&topo);
    let mut region = TileGrid::new(width, height)?;
    for row in 0..height {
        for col in 0..width {
            if m.get(Coord::new(row, col)) {
                region.set_open((col, row), true)?;
            }
        }
    }
    Ok(region)
}

/// The region of a `width` x `height` tile grid that the shape `fg` covers by at least
/// `coverage` (0 to 1) of each tile's area ([`crate::shape::fit`] on [`topology`]), largest
/// connected part only.
pub fn from_shape(fg: &Foreground, width: u32, height: u32, coverage: f64) -> Result<TileGrid> {
    let mask = crate::shape::fit(fg, &topology(width, height)?, coverage)?;
    from_mask(&mask, width, height)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tiles::{Direction, centre, neighbour};

    #[test]
    fn tiles_and_hex_cells_share_geometry_and_neighbours() {
        let topo = topology(9, 7).unwrap();
        let t = topo.tess();
        let r = crate::tiles::CIRCUMRADIUS;
        let mut nb = Vec::new();
        for row in 0..7 {
            for col in 0..9 {
                let c = Coord::new(row, col);
                let p = t.center(c);
                let q = centre((col, row));
                assert!((p.x - (q.0 + r)).abs() < 1e-12 && (p.y - (q.1 + 0.5)).abs() < 1e-12);
                nb.clear();
                t.neighbours(c, &mut nb);
                let mut want: Vec<Coord> = Direction::ALL
                    .iter()
                    .filter_map(|&d| neighbour((col, row), d))
                    .filter(|&(nc, nr)| nc < 9 && nr < 7)
                    .map(|(nc, nr)| Coord::new(nr, nc))
                    .collect();
                nb.sort();
                want.sort();
                assert_eq!(nb, want, "{c:?}");
            }
        }
    }

    #[test]
    fn from_mask_keeps_the_largest_part() {
        let topo = topology(6, 3).unwrap();
        let mut m = Mask::empty(&topo).unwrap();
        for (row, col) in [(0, 0), (1, 0), (1, 4), (1, 5), (2, 4)] {
            m.set(Coord::new(row, col), true);
        }
        let region = from_mask(&m, 6, 3).unwrap();
        assert_eq!(region.open_tiles(), vec![(4, 1), (5, 1), (4, 2)]);
        assert!(from_mask(&m, 7, 3).is_err());
    }
}
