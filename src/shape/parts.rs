//! Which part of a shape in several parts is its main part, decided on the picture, before
//! fitting: the largest by area (8-connected pixels, imageproc's connected components). On the
//! grid the main part is the mask's part that holds most of its cells' centres
//! ([`crate::shape::islands::main_part`]), so rect, hex, polar and tri grids keep the same part
//! even when two parts are nearly the same size and the cells round them differently.

use image::{GrayImage, Luma};
use imageproc::distance_transform::Norm;
use imageproc::region_labelling::{Connectivity, connected_components};

/// The flags of the largest 8-connected part of `bits` (a `width` x `height` picture, row by
/// row) once strokes thinner than `2 * radius + 1` pixels are taken away (a morphological
/// opening: a wire joining two parts, too thin to hold a corridor, does not make them one);
/// ties go to the part that starts first in row order. When the opening leaves nothing, the
/// parts are taken as they are. All false when nothing is set.
pub fn largest(bits: &[bool], width: u32, height: u32, radius: u8) -> Vec<bool> {
    let img = GrayImage::from_fn(width, height, |x, y| {
        Luma([u8::from(bits[(y * width + x) as usize]) * 255])
    });
    let opened = if radius > 0 {
        imageproc::morphology::open(&img, Norm::LInf, radius)
    } else {
        img.clone()
    };
    let img = if opened.pixels().any(|p| p.0[0] != 0) {
        opened
    } else {
        img
    };
    let labels = connected_components(&img, Connectivity::Eight, Luma([0u8]));
    let n = labels.pixels().map(|l| l.0[0]).max().unwrap_or(0) as usize;
    let mut size = vec![0usize; n + 1];
    let mut first = vec![usize::MAX; n + 1];
    for (i, l) in labels.pixels().enumerate() {
        let l = l.0[0] as usize;
        size[l] += 1;
        first[l] = first[l].min(i);
    }
    let main = (1..=n)
        .min_by_key(|&l| (std::cmp::Reverse(size[l]), first[l]))
        .unwrap_or(0) as u32;
    labels
        .pixels()
        .map(|l| main != 0 && l.0[0] == main)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_largest_part_by_area() {
        // a block of 4 pixels, and a part of 6 joined through corners (8-connected)
        let rows = ["##.....#.", "##....#..", ".....##..", ".....##.."];
        let (w, h) = (rows[0].len() as u32, rows.len() as u32);
        let bits: Vec<bool> = rows
            .iter()
            .flat_map(|r| r.chars().map(|c| c == '#'))
            .collect();
        let main = largest(&bits, w, h, 0);
        let picked: Vec<usize> = (0..bits.len()).filter(|&i| main[i]).collect();
        // the right part: (0, 7), (1, 6), (2, 5), (2, 6), (3, 5), (3, 6)
        assert_eq!(picked, vec![7, 15, 23, 24, 32, 33]);
        assert!(largest(&[false; 4], 2, 2, 0).iter().all(|&b| !b));
        // two 5 x 5 blocks joined by a one-pixel wire: one part, unless strokes under 3 pixels
        // are taken away, when the wire goes and the first block wins the tie
        let rows = ["#####...#####"; 5];
        let mut bits: Vec<bool> = rows
            .iter()
            .flat_map(|r| r.chars().map(|c| c == '#'))
            .collect();
        for x in 5..8 {
            bits[2 * 13 + x] = true;
        }
        assert_eq!(largest(&bits, 13, 5, 0), bits);
        let opened = largest(&bits, 13, 5, 1);
        assert_eq!(opened.iter().filter(|&&b| b).count(), 25);
        assert!(opened[0] && !opened[12]);
        // a tie: the part that starts first
        let tie = largest(&[true, false, false, true], 4, 1, 0);
        assert_eq!(tie, vec![true, false, false, false]);
    }
}
