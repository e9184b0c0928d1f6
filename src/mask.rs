//! Masks: which cells of a topology exist.
//!
//! A mask is one flag per cell of the full topology, stored row by row. The silhouette stage makes
//! masks from pictures; tests make them from ASCII pictures with [`Mask::from_ascii`].

use crate::error::{Error, Result};
use crate::topology::{Coord, Tessellation, Topology};

/// The largest number of cells (active or not) a topology may have.
pub const MAX_CELLS: u64 = 25_000_000;

/// Offsets of each row's first cell in row-major order; the last entry is the cell count.
pub fn row_starts(t: &dyn Tessellation) -> Result<Vec<u32>> {
    let mut starts = Vec::with_capacity(t.rows() as usize + 1);
    let mut total: u64 = 0;
    for row in 0..t.rows() {
        starts.push(total as u32);
        total += u64::from(t.cols(row));
        if total > MAX_CELLS {
            return Err(Error::option(format!(
                "the grid would have more than {MAX_CELLS} cells; choose a smaller size"
            )));
        }
    }
    starts.push(total as u32);
    Ok(starts)
}

/// One on/off flag per cell of a topology.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mask {
    row_start: Vec<u32>,
    on: Vec<bool>,
}

impl Mask {
    /// Every cell of `topology` switched on.
    pub fn full(topology: &Topology) -> Result<Self> {
        let row_start = row_starts(topology.tess())?;
        let n = *row_start.last().unwrap_or(&0) as usize;
        Ok(Mask {
            row_start,
            on: vec![true; n],
        })
    }

    /// Every cell switched off.
    pub fn empty(topology: &Topology) -> Result<Self> {
        let mut m = Self::full(topology)?;
        m.on.fill(false);
        Ok(m)
    }

    /// A mask drawn as text: one line per row (per ring for polar, the centre first), one
    /// character per cell; `.` or a space is off, anything else is on. Lines shorter than their
    /// row are padded with off cells; blank lines before and after the picture are ignored.
    pub fn from_ascii(topology: &Topology, picture: &str) -> Result<Self> {
        let mut mask = Self::empty(topology)?;
        let lines: Vec<&str> = picture.lines().collect();
        let first = lines.iter().position(|l| !l.trim().is_empty()).unwrap_or(0);
        let last = lines
            .iter()
            .rposition(|l| !l.trim().is_empty())
            .map_or(0, |i| i + 1);
        let lines = &lines[first..last.max(first)];
        let t = topology.tess();
        if lines.len() != t.rows() as usize {
            return Err(Error::input(format!(
                "mask picture has {} rows, the grid has {}",
                lines.len(),
                t.rows()
            )));
        }
        for (row, line) in lines.iter().enumerate() {
            let row = row as u32;
            let chars: Vec<char> = line.chars().collect();
            if chars.len() > t.cols(row) as usize {
                return Err(Error::input(format!(
                    "mask picture row {row} has {} cells, the grid has {}",
                    chars.len(),
                    t.cols(row)
                )));
            }
            for (col, ch) in chars.into_iter().enumerate() {
                mask.set(Coord::new(row, col as u32), ch != '.' && ch != ' ');
            }
        }
        Ok(mask)
    }

    fn index(&self, c: Coord) -> Option<usize> {
        let start = *self.row_start.get(c.row as usize)?;
        let end = *self.row_start.get(c.row as usize + 1)?;
        let i = start.checked_add(c.col)?;
        (i < end).then_some(i as usize)
    }

    /// Whether `c` is on (cells outside the topology are off).
    pub fn get(&self, c: Coord) -> bool {
        self.index(c).is_some_and(|i| self.on[i])
    }

    /// Switches `c` on or off; cells outside the topology are ignored.
    pub fn set(&mut self, c: Coord, on: bool) {
        if let Some(i) = self.index(c) {
            self.on[i] = on;
        }
    }

    /// One flag per cell of the topology, row-major.
    pub(crate) fn flags(&self) -> &[bool] {
        &self.on
    }

    /// The cells switched on, in row-major order.
    pub fn cells(&self) -> impl Iterator<Item = Coord> + '_ {
        self.row_start
            .windows(2)
            .enumerate()
            .flat_map(move |(row, w)| {
                (w[0]..w[1])
                    .filter(|&i| self.on[i as usize])
                    .map(move |i| Coord::new(row as u32, i - w[0]))
            })
    }

    /// Number of cells switched on.
    pub fn count(&self) -> usize {
        self.on.iter().filter(|&&b| b).count()
    }

    /// Number of cells in the topology (on or off).
    pub fn len(&self) -> usize {
        self.on.len()
    }

    /// Whether the topology has no cells at all.
    pub fn is_empty(&self) -> bool {
        self.on.is_empty()
    }

    /// Whether this mask was made for a topology with the same rows as `topology`.
    pub fn fits(&self, topology: &Topology) -> bool {
        row_starts(topology.tess()).is_ok_and(|s| s == self.row_start)
    }

    /// The connected parts of the mask (cells joined through sides), largest first; ties keep
    /// row-major order of their first cell.
    pub fn components(&self, topology: &Topology) -> Vec<Vec<Coord>> {
        let t = topology.tess();
        let mut seen = vec![false; self.on.len()];
        let mut parts = Vec::new();
        let mut stack = Vec::new();
        let mut nb = Vec::new();
        for row in 0..t.rows() {
            for col in 0..t.cols(row) {
                let c = Coord::new(row, col);
                let i = self.index(c).unwrap_or(0);
                if !self.on[i] || seen[i] {
                    continue;
                }
                seen[i] = true;
                stack.push(c);
                let mut part = Vec::new();
                while let Some(c) = stack.pop() {
                    part.push(c);
                    nb.clear();
                    t.neighbours(c, &mut nb);
                    for &n in &nb {
                        if let Some(j) = self.index(n)
                            && self.on[j]
                            && !seen[j]
                        {
                            seen[j] = true;
                            stack.push(n);
                        }
                    }
                }
                part.sort();
                parts.push(part);
            }
        }
        parts.sort_by_key(|p| std::cmp::Reverse(p.len()));
        parts
    }

    /// Keeps only the largest connected part; returns how many cells were switched off.
    pub fn keep_largest_component(&mut self, topology: &Topology) -> usize {
        let parts = self.components(topology);
        let mut dropped = 0;
        for part in parts.iter().skip(1) {
            for &c in part {
                self.set(c, false);
            }
            dropped += part.len();
        }
        dropped
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::topology::TopologyKind;

    #[test]
    fn ascii_round_trip_and_components() {
        let t = Topology::new(TopologyKind::Rect, 5, 3).unwrap();
        let m = Mask::from_ascii(&t, "\n##.##\n#...#\n##.##\n").unwrap();
        assert_eq!(m.count(), 10);
        assert!(m.get(Coord::new(0, 0)));
        assert!(!m.get(Coord::new(1, 2)));
        let parts = m.components(&t);
        assert_eq!(parts.len(), 2);
        assert_eq!(parts[0].len(), 5);
        let mut m2 = m.clone();
        assert_eq!(m2.keep_largest_component(&t), 5);
        assert_eq!(m2.count(), 5);
    }

    #[test]
    fn wrong_row_count_is_an_error() {
        let t = Topology::new(TopologyKind::Rect, 3, 3).unwrap();
        let e = Mask::from_ascii(&t, "###\n###").unwrap_err();
        assert!(e.message.contains("2 rows"), "{e}");
        let e = Mask::from_ascii(&t, "###\n####\n###").unwrap_err();
        assert!(e.message.contains("row 1 has 4"), "{e}");
    }
}
