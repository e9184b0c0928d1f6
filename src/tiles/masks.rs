//! The carve masks: the window encoding and the 24 precomputed constants.
//!
//! The *window* of a tile `t = (c, r)` is the 7 x 7 block of tiles around it packed in a `u64`:
//! tile `(c + dc, r + dr)`, `-3 <= dc, dr <= 3`, is bit `7 * (dr + 3) + (dc + 3)` (see
//! [`window_bit`]); bits 49..63 are zero. Row `dr + 3` of the window is 7 consecutive bits of one
//! row of the bitset, so a window is 7 (order 0: 5) unaligned 7-bit reads at the same bit offset
//! ([`window`]).
//!
//! Where a tile of the block lies in hex space depends on the parity of `c` (odd-q), so each
//! constant is indexed by `[order][c & 1][direction of the candidate n]`. [`CARVE`] holds, for the
//! candidate `n` next to `t`:
//!
//! * order 0: `n` and its neighbours, except `t` (6 bits);
//! * order 1: every tile within distance 2 of `n`, except `t` and the three neighbours of `t` at
//!   distance 2 of `n` (the tiles *behind* `t`) (15 bits).
//!
//! A candidate passes when `window(t) & CARVE[order][c & 1][d] == 0`. The order-1 mask of the
//! candidate `N` north of a tile `T` in an even column (`CARVE[1][0][0]`), drawn like
//! [`super::TileGrid::render`] (each window row on two lines, the columns with odd `dc` half a
//! row lower): `x` mask bits, `b` the three tiles behind `T` (allowed open), `.` outside the mask.
//!
//! ```text
//!  . x .     dr = -3
//! . x x .
//!  x x x     dr = -2
//! . x x .
//!  x N x     dr = -1
//! . x x .
//!  x T x     dr = 0
//! . b b .
//!  . b .     dr = 1
//! . . . .
//!  . . .     dr = 2
//! . . . .
//!  . . .     dr = 3
//! . . . .
//! ```
//!
//! The tests rebuild every constant from [`super::distance`].

/// The bit of the tile `(c + dc, r + dr)` in the window of `(c, r)`.
pub const fn window_bit(dc: i32, dr: i32) -> u32 {
    (7 * (dr + 3) + (dc + 3)) as u32
}

/// The carve masks, `[order][col & 1][direction]` (directions in [`super::Direction`] order).
pub const CARVE: [[[u64; 6]; 2]; 2] = [
    [
        [
            0x0000000070e00,
            0x00000060e0800,
            0x0000386040000,
            0x00041c2800000,
            0x00000e0c10000,
            0x0000000c38200,
        ],
        [
            0x0000002870400,
            0x00001060e0000,
            0x0008386000000,
            0x000e1c0000000,
            0x00020e0c00000,
            0x0000040c38000,
        ],
    ],
    [
        [
            0x00000044f9f1c,
            0x000030e1e3e10,
            0x001c7ce1c0800,
            0x021f3e6c00000,
            0x00071f0e1c200,
            0x0000060e3cf84,
        ],
        [
            0x0000006cf9f08,
            0x000870e1f1c00,
            0x043e78e0c0000,
            0x071f3e4400000,
            0x010f8f0e18000,
            0x0002070e7c700,
        ],
    ],
];

/// The six neighbours of `t` in its window, `[col & 1]`.
pub const NEIGHBOURS: [u64; 2] = [0x0000082870000, 0x00001c2820000];

/// The first and last window rows a mask of `order` touches.
pub const fn rows(order: usize) -> (usize, usize) {
    if order == 0 { (1, 5) } else { (0, 6) }
}

/// Window rows `FIRST..=LAST` of the tile at bit `centre` of a bitset with `stride` bits per row,
/// a multiple of 64 (other rows read as zero). The margin of the bitset keeps every read in
/// bounds; the last word is a spare, so a row's 7 bits may straddle two words.
#[inline(always)]
pub fn window<const FIRST: usize, const LAST: usize>(
    words: &[u64],
    centre: usize,
    stride: usize,
) -> u64 {
    debug_assert_eq!(stride % 64, 0);
    let first = centre + FIRST * stride - 3 * stride - 3;
    // Every row has the same bit offset in its word.
    let (q, o, step) = (first >> 6, first & 63, stride >> 6);
    let rows = &words[q..=q + (LAST - FIRST) * step + 1];
    let mut w = 0;
    if o <= 57 {
        // The 7 bits of every row lie in one word (57 columns in 64).
        for (k, row) in (FIRST..=LAST).enumerate() {
            w |= (rows[k * step] >> o & 0x7f) << (7 * row);
        }
    } else {
        for (k, row) in (FIRST..=LAST).enumerate() {
            let bits = rows[k * step] >> o | rows[k * step + 1] << (64 - o);
            w |= (bits & 0x7f) << (7 * row);
        }
    }
    w
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tiles::{OFFSETS, distance_i};

    /// The definition of `CARVE[order][parity][dir]`, from hex distance alone.
    fn definition(order: usize, parity: usize, dir: usize) -> u64 {
        // Put t in a column of the right parity; rows may go negative, distance_i copes.
        let t = (parity as i64 + 10, 0i64);
        let (dc, dr) = OFFSETS[parity][dir];
        let n = (t.0 + i64::from(dc), i64::from(dr));
        let mut k = 0;
        for wr in -3..=3 {
            for wc in -3..=3 {
                let x = (t.0 + i64::from(wc), i64::from(wr));
                let (dn, dt) = (distance_i(x, n), distance_i(x, t));
                let inside = match order {
                    0 => dn <= 1 && x != t,
                    _ => dn <= 2 && x != t && !(dt == 1 && dn == 2),
                };
                if inside {
                    k |= 1 << window_bit(wc, wr);
                }
            }
        }
        k
    }

    #[test]
    fn every_carve_mask_matches_its_definition() {
        for order in 0..2 {
            for parity in 0..2 {
                for dir in 0..6 {
                    let k = CARVE[order][parity][dir];
                    assert_eq!(
                        k,
                        definition(order, parity, dir),
                        "CARVE[{order}][{parity}][{dir}] = {k:#x}"
                    );
                    assert_eq!(k.count_ones(), [6, 15][order]);
                    // The candidate itself is in its mask, t is not.
                    let (dc, dr) = OFFSETS[parity][dir];
                    assert_ne!(k & 1 << window_bit(dc, dr), 0);
                    assert_eq!(k & 1 << window_bit(0, 0), 0);
                    // The mask lies in the rows the order reads.
                    let (first, last) = rows(order);
                    let in_rows = (1u64 << (7 * (last + 1))) - (1u64 << (7 * first));
                    assert_eq!(k & !in_rows, 0);
                }
            }
        }
    }

    #[test]
    fn the_three_behind_are_neighbours_of_t() {
        // Order 1 minus order 0's ball of radius 2 leaves out exactly t and three neighbours of t.
        for parity in 0..2 {
            for dir in 0..6 {
                let behind = NEIGHBOURS[parity] & !CARVE[1][parity][dir];
                // Neighbours of t outside the order-1 mask: the three behind t.
                assert_eq!(behind.count_ones(), 3, "parity {parity} dir {dir}");
                let opposite = OFFSETS[parity][(dir + 3) % 6];
                assert_ne!(behind & 1 << window_bit(opposite.0, opposite.1), 0);
            }
        }
    }

    #[test]
    fn neighbour_masks_match_the_offsets() {
        for parity in 0..2 {
            let k = OFFSETS[parity]
                .iter()
                .fold(0u64, |k, &(dc, dr)| k | 1 << window_bit(dc, dr));
            assert_eq!(k, NEIGHBOURS[parity]);
        }
    }

    #[test]
    fn window_reads_the_block_around_a_tile() {
        let mut g = crate::tiles::TileGrid::new(9, 9).unwrap();
        // Open a few tiles around (4, 4) and at the corners of its block.
        let open = [(4, 4), (1, 1), (7, 7), (1, 7), (5, 3), (3, 6)];
        for &t in &open {
            g.set_open(t, true).unwrap();
        }
        let w = window::<0, 6>(g.words(), g.index((4, 4)), g.stride());
        let mut expect = 0;
        for &(c, r) in &open {
            expect |= 1 << window_bit(c as i32 - 4, r as i32 - 4);
        }
        assert_eq!(w, expect);
        // Order 0 reads rows 1..=5 only.
        let w5 = window::<1, 5>(g.words(), g.index((4, 4)), g.stride());
        assert_eq!(w5, expect & ((1 << 42) - (1 << 7)));
        // At a corner, the margin reads as closed.
        let w0 = window::<0, 6>(g.words(), g.index((0, 0)), g.stride());
        assert_eq!(w0, 1 << window_bit(1, 1));
    }
}
