//! ChaCha8 words from any position of a [`MazeRng`](super::MazeRng)'s stream, for
//! [`Ahead`](super::Ahead): the same words as `rand_chacha`'s generator (the tests compare
//! them), made sixteen blocks at a time with AVX-512 where the processor has it (about 4x the
//! speed of `rand_chacha`, whose widest path is AVX2, on this project's machine: 0.27 against
//! 1.05 ns a word), and by `rand_chacha` itself everywhere else.
//!
//! The stream is ChaCha with 8 rounds, a 256-bit key (the seed), a 64-bit block counter in
//! state words 12 and 13 and a 64-bit stream number in words 14 and 15, as `rand_chacha` lays
//! it out; a word position is the block (`pos / 16`, modulo 2^64 as `set_word_pos` takes it)
//! and the word in it.

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Words in one call of the wide path: sixteen 16-word blocks.
const GROUP: usize = 256;

/// What fixes a stream: the key and the stream number.
#[derive(Clone, Debug)]
pub(crate) struct Stream {
    seed: [u8; 32],
    key: [u32; 8],
    number: u64,
}

impl Stream {
    /// The stream `rng` draws from.
    pub(crate) fn of(rng: &ChaCha8Rng) -> Self {
        let seed = rng.get_seed();
        let key = std::array::from_fn(|i| {
            u32::from_le_bytes([
                seed[4 * i],
                seed[4 * i + 1],
                seed[4 * i + 2],
                seed[4 * i + 3],
            ])
        });
        Stream {
            seed,
            key,
            number: rng.get_stream(),
        }
    }

    /// Fills `out` with the stream's words from word position `pos` on: `out[0]` is the word
    /// a generator set to `pos` would draw first.
    pub(crate) fn fill(&self, pos: u128, out: &mut [u32]) {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx512f") {
            self.fill_wide(pos, out);
            return;
        }
        self.fill_narrow(pos, out);
    }

    /// [`Stream::fill`] by `rand_chacha`.
    fn fill_narrow(&self, pos: u128, out: &mut [u32]) {
        let mut rng = ChaCha8Rng::from_seed(self.seed);
        rng.set_stream(self.number);
        rng.set_word_pos(pos);
        rng.fill(out);
    }

    /// [`Stream::fill`] sixteen blocks at a time: whole groups straight into `out`, a group
    /// that `out` starts or ends inside through a buffer.
    #[cfg(target_arch = "x86_64")]
    fn fill_wide(&self, mut pos: u128, mut out: &mut [u32]) {
        while !out.is_empty() {
            // the block counter as `set_word_pos` takes it: modulo 2^64
            let block = (pos / 16) as u64;
            let skip = (pos % 16) as usize;
            let take = (GROUP - skip).min(out.len());
            let (head, rest) = out.split_at_mut(take);
            match <&mut [u32; GROUP]>::try_from(&mut *head) {
                Ok(whole) => avx512::blocks_checked(self, block, whole),
                Err(_) => {
                    let mut group = [0u32; GROUP];
                    avx512::blocks_checked(self, block, &mut group);
                    head.copy_from_slice(&group[skip..skip + take]);
                }
            }
            pos += take as u128;
            out = rest;
        }
    }
}

#[cfg(target_arch = "x86_64")]
mod avx512 {
    use super::{GROUP, Stream};
    use std::arch::x86_64::*;

    /// Sixteen blocks from block `block` on into `out`, block after block.
    ///
    /// # Panics
    /// If the processor has no AVX-512F (the caller checks first).
    pub(super) fn blocks_checked(stream: &Stream, block: u64, out: &mut [u32; GROUP]) {
        assert!(std::arch::is_x86_feature_detected!("avx512f"));
        // SAFETY: the processor has AVX-512F, checked just above
        unsafe { blocks(stream, block, out) }
    }

    /// Sixteen ChaCha8 blocks, one block per lane: vector `w` holds state word `w` of all
    /// sixteen, so a quarter round is twelve instructions for sixteen blocks; the result is
    /// then transposed to block order.
    #[target_feature(enable = "avx512f")]
    fn blocks(stream: &Stream, block: u64, out: &mut [u32; GROUP]) {
        const SIGMA: [u32; 4] = [0x6170_7865, 0x3320_646e, 0x7962_2d32, 0x6b20_6574];
        let splat = |w: u32| _mm512_set1_epi32(w as i32);
        let mut init = [_mm512_setzero_si512(); 16];
        for (v, &w) in init.iter_mut().zip(SIGMA.iter().chain(&stream.key)) {
            *v = splat(w);
        }
        // lane i counts block + i, carrying into the high word
        let base = _mm512_set1_epi64(block as i64);
        let low8 = _mm512_add_epi64(base, _mm512_set_epi64(7, 6, 5, 4, 3, 2, 1, 0));
        let high8 = _mm512_add_epi64(base, _mm512_set_epi64(15, 14, 13, 12, 11, 10, 9, 8));
        let evens = _mm512_set_epi32(30, 28, 26, 24, 22, 20, 18, 16, 14, 12, 10, 8, 6, 4, 2, 0);
        let odds = _mm512_set_epi32(31, 29, 27, 25, 23, 21, 19, 17, 15, 13, 11, 9, 7, 5, 3, 1);
        init[12] = _mm512_permutex2var_epi32(low8, evens, high8);
        init[13] = _mm512_permutex2var_epi32(low8, odds, high8);
        init[14] = splat(stream.number as u32);
        init[15] = splat((stream.number >> 32) as u32);

        let mut x = init;
        macro_rules! quarter {
            ($a:literal, $b:literal, $c:literal, $d:literal) => {
                x[$a] = _mm512_add_epi32(x[$a], x[$b]);
                x[$d] = _mm512_rol_epi32::<16>(_mm512_xor_si512(x[$d], x[$a]));
                x[$c] = _mm512_add_epi32(x[$c], x[$d]);
                x[$b] = _mm512_rol_epi32::<12>(_mm512_xor_si512(x[$b], x[$c]));
                x[$a] = _mm512_add_epi32(x[$a], x[$b]);
                x[$d] = _mm512_rol_epi32::<8>(_mm512_xor_si512(x[$d], x[$a]));
                x[$c] = _mm512_add_epi32(x[$c], x[$d]);
                x[$b] = _mm512_rol_epi32::<7>(_mm512_xor_si512(x[$b], x[$c]));
            };
        }
        // 8 rounds: a column round and a diagonal round, four times
        for _ in 0..4 {
            quarter!(0, 4, 8, 12);
            quarter!(1, 5, 9, 13);
            quarter!(2, 6, 10, 14);
            quarter!(3, 7, 11, 15);
            quarter!(0, 5, 10, 15);
            quarter!(1, 6, 11, 12);
            quarter!(2, 7, 8, 13);
            quarter!(3, 4, 9, 14);
        }
        for (v, i) in x.iter_mut().zip(init) {
            *v = _mm512_add_epi32(*v, i);
        }

        // transpose: 32-bit then 64-bit interleaves leave, in 128-bit lane L of `s[4g + m]`,
        // words 4g..4g+4 of block 4L + m; two rounds of 128-bit lane shuffles then gather
        // each block's four quarters
        let mut t = [_mm512_setzero_si512(); 16];
        for i in 0..8 {
            t[2 * i] = _mm512_unpacklo_epi32(x[2 * i], x[2 * i + 1]);
            t[2 * i + 1] = _mm512_unpackhi_epi32(x[2 * i], x[2 * i + 1]);
        }
        let mut s = [_mm512_setzero_si512(); 16];
        for g in (0..16).step_by(4) {
            s[g] = _mm512_unpacklo_epi64(t[g], t[g + 2]);
            s[g + 1] = _mm512_unpackhi_epi64(t[g], t[g + 2]);
            s[g + 2] = _mm512_unpacklo_epi64(t[g + 1], t[g + 3]);
            s[g + 3] = _mm512_unpackhi_epi64(t[g + 1], t[g + 3]);
        }
        // lanes 0 and 2 of two vectors, or 1 and 3
        const EVEN: i32 = 0b10_00_10_00;
        const ODD: i32 = 0b11_01_11_01;
        for m in 0..4 {
            let u = _mm512_shuffle_i32x4::<EVEN>(s[m], s[4 + m]);
            let v = _mm512_shuffle_i32x4::<ODD>(s[m], s[4 + m]);
            let u2 = _mm512_shuffle_i32x4::<EVEN>(s[8 + m], s[12 + m]);
            let v2 = _mm512_shuffle_i32x4::<ODD>(s[8 + m], s[12 + m]);
            let blocks = [
                (m, _mm512_shuffle_i32x4::<EVEN>(u, u2)),
                (4 + m, _mm512_shuffle_i32x4::<EVEN>(v, v2)),
                (8 + m, _mm512_shuffle_i32x4::<ODD>(u, u2)),
                (12 + m, _mm512_shuffle_i32x4::<ODD>(v, v2)),
            ];
            for (b, words) in blocks {
                let to = &mut out[16 * b..16 * (b + 1)];
                // SAFETY: `to` is 16 words, the 64 bytes an unaligned store writes
                unsafe { _mm512_storeu_si512(to.as_mut_ptr().cast(), words) };
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What `rand_chacha` draws from `pos` on.
    fn reference(rng: &ChaCha8Rng, pos: u128, n: usize) -> Vec<u32> {
        let mut r = rng.clone();
        r.set_word_pos(pos);
        let mut out = vec![0u32; n];
        r.fill(&mut out[..]);
        out
    }

    fn generators() -> Vec<ChaCha8Rng> {
        let mut out = Vec::new();
        for seed in [0u64, 1, 7, 0xdead_beef_1234_5678] {
            for number in [0u64, 1, 0x8000_0000_ffff_0001] {
                let mut r = ChaCha8Rng::seed_from_u64(seed);
                r.set_stream(number);
                out.push(r);
            }
        }
        out
    }

    /// Positions at block starts and inside blocks, near the start and where the block
    /// counter's low word carries into its high word.
    const POSITIONS: [u128; 7] = [
        0,
        1,
        15,
        16 * 1000 + 3,
        (1 << 32) * 16 - 16 * 5 - 7,
        (1 << 32) * 16 - 1,
        (u64::MAX as u128) * 16 - 100,
    ];

    #[test]
    fn the_words_are_rand_chachas_from_any_position() {
        for rng in generators() {
            let stream = Stream::of(&rng);
            for pos in POSITIONS {
                // lengths that start, end and cross 16-block groups
                for n in [1, 17, 255, 256, 257, 3 * 256 + 40] {
                    let want = reference(&rng, pos, n);
                    let mut got = vec![0u32; n];
                    stream.fill(pos, &mut got);
                    assert_eq!(got, want, "pos {pos} n {n}");
                    stream.fill_narrow(pos, &mut got);
                    assert_eq!(got, want, "narrow: pos {pos} n {n}");
                }
            }
        }
    }

    #[cfg(target_arch = "x86_64")]
    #[test]
    fn the_wide_path_makes_the_same_words() {
        // `fill` takes the wide path on a processor with AVX-512F (this project's machine):
        // call it by name too, over runs of many groups, so this is what is compared there
        if !std::arch::is_x86_feature_detected!("avx512f") {
            eprintln!("no AVX-512F here: only the rand_chacha path is tested");
            return;
        }
        for rng in generators() {
            let stream = Stream::of(&rng);
            for pos in POSITIONS {
                let want = reference(&rng, pos, 4000);
                let mut got = vec![0u32; 4000];
                stream.fill_wide(pos, &mut got);
                assert_eq!(got, want, "pos {pos}");
            }
        }
    }
}
