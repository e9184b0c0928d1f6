//! Randomness: a small trait the carvers draw from, and the portable seeded generator behind it.
//!
//! Every carver takes `&mut dyn Random`, so tests can inject a scripted coin (the book's hand-run
//! walk-throughs) and the real pipeline uses [`MazeRng`], `rand_chacha`'s ChaCha8 stream, whose
//! output is specified and identical on every platform. Bounded integers are derived here
//! (Lemire's method) rather than through `rand`'s distribution code, so a `rand` upgrade cannot
//! change the mazes a seed makes.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A source of random decisions for the maze stages.
pub trait Random {
    /// 32 uniformly random bits.
    fn next_u32(&mut self) -> u32;

    /// A uniform integer in `0..n`; `n` must be at least 1.
    fn below(&mut self, n: usize) -> usize {
        debug_assert!(n >= 1 && n <= u32::MAX as usize);
        let n = n as u32;
        let mut m = u64::from(self.next_u32()) * u64::from(n);
        let mut low = m as u32;
        if low < n {
            let threshold = n.wrapping_neg() % n;
            while low < threshold {
                m = u64::from(self.next_u32()) * u64::from(n);
                low = m as u32;
            }
        }
        (m >> 32) as usize
    }

    /// A fair coin: `true` is heads.
    fn coin(&mut self) -> bool {
        self.next_u32() >> 31 == 1
    }

    /// Draws `n` fair coins, exactly as `n` calls of [`Random::coin`] would, into the bits of
    /// `out` (coin `i` is bit `i % 64` of word `i / 64`; heads is 1; the bits past `n` are left
    /// as they are). A generator may do it without a call per coin.
    fn coin_bits(&mut self, n: usize, out: &mut [u64]) {
        for i in 0..n {
            out[i / 64] = out[i / 64] & !(1 << (i % 64)) | u64::from(self.coin()) << (i % 64);
        }
    }

    /// `true` with probability `p` (clamped to [0, 1]).
    fn chance(&mut self, p: f64) -> bool {
        if p <= 0.0 {
            return false;
        }
        if p >= 1.0 {
            return true;
        }
        f64::from(self.next_u32()) < p * 4_294_967_296.0
    }
}

/// Shuffles `items` in place (Fisher-Yates, from the back).
pub fn shuffle<T, R: Random + ?Sized>(rng: &mut R, items: &mut [T]) {
    for i in (1..items.len()).rev() {
        let j = rng.below(i + 1);
        items.swap(i, j);
    }
}

/// The pipeline's generator: ChaCha8 seeded from a `u64` (portable, reproducible).
#[derive(Clone, Debug)]
pub struct MazeRng(ChaCha8Rng);

impl MazeRng {
    /// The stream for `seed`.
    pub fn new(seed: u64) -> Self {
        MazeRng(ChaCha8Rng::seed_from_u64(seed))
    }
}

impl Random for MazeRng {
    #[inline]
    fn next_u32(&mut self) -> u32 {
        self.0.next_u32()
    }

    fn coin_bits(&mut self, n: usize, out: &mut [u64]) {
        // whole words straight from the block buffer, little-endian, as `next_u32` reads them:
        // a coin is the top bit of its word, the top bit of the word's last byte
        let mut bytes = [0u8; 256];
        for (k, word) in out[..n.div_ceil(64)].iter_mut().enumerate() {
            let m = (n - k * 64).min(64);
            let words = &mut bytes[..m * 4];
            self.0.fill_bytes(words);
            let mut bits = 0u64;
            for (j, w) in words.chunks_exact(4).enumerate() {
                bits |= u64::from(w[3] >> 7) << j;
            }
            let keep = if m == 64 { 0 } else { !0u64 << m };
            *word = *word & keep | bits;
        }
    }
}

/// A seed drawn from the operating system, for designs that do not fix one.
pub fn fresh_seed() -> u64 {
    let mut rng = rand::rng();
    rng.next_u64() & ((1 << 53) - 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn below_stays_in_range_and_covers_it() {
        let mut rng = MazeRng::new(7);
        let mut seen = [0u32; 7];
        for _ in 0..7000 {
            seen[rng.below(7)] += 1;
        }
        assert!(seen.iter().all(|&c| (800..1200).contains(&c)), "{seen:?}");
    }

    #[test]
    fn same_seed_same_stream() {
        let a: Vec<usize> = {
            let mut r = MazeRng::new(42);
            (0..32).map(|_| r.below(1000)).collect()
        };
        let b: Vec<usize> = {
            let mut r = MazeRng::new(42);
            (0..32).map(|_| r.below(1000)).collect()
        };
        assert_eq!(a, b);
        let c: Vec<usize> = {
            let mut r = MazeRng::new(43);
            (0..32).map(|_| r.below(1000)).collect()
        };
        assert_ne!(a, c);
    }

    #[test]
    fn coins_are_the_coin_stream() {
        let mut a = MazeRng::new(3);
        let mut b = MazeRng::new(3);
        // runs of every length up to a few blocks, from odd places in the stream
        for len in [1usize, 3, 63, 64, 65, 100, 257, 1000] {
            let mut bulk = vec![u64::MAX; len.div_ceil(64) + 1];
            a.coin_bits(len, &mut bulk);
            let one_by_one: Vec<bool> = (0..len).map(|_| b.coin()).collect();
            let got: Vec<bool> = (0..len)
                .map(|i| bulk[i / 64] >> (i % 64) & 1 == 1)
                .collect();
            assert_eq!(got, one_by_one, "{len}");
            // the bits past `len` are untouched
            assert!((len..bulk.len() * 64).all(|i| bulk[i / 64] >> (i % 64) & 1 == 1));
            assert_eq!(a.next_u32(), b.next_u32());
        }
        // the default (coin by coin) agrees with the fast one
        struct Plain(MazeRng);
        impl Random for Plain {
            fn next_u32(&mut self) -> u32 {
                self.0.next_u32()
            }
        }
        let (mut fast, mut plain) = (MazeRng::new(9), Plain(MazeRng::new(9)));
        let (mut x, mut y) = ([0u64; 3], [0u64; 3]);
        fast.coin_bits(150, &mut x);
        plain.coin_bits(150, &mut y);
        assert_eq!(x, y);
    }

    #[test]
    fn stream_is_pinned() {
        // ChaCha8 is specified; if this changes, every saved seed makes a different maze. The
        // values are written out: a stream compared with itself could never fail.
        let mut r = MazeRng::new(1);
        let words: Vec<u32> = (0..4).map(|_| r.next_u32()).collect();
        assert_eq!(words, [2359561649, 1728662762, 4228812395, 345245400]);
        let mut r = MazeRng::new(1);
        let below: Vec<usize> = (0..8).map(|_| r.below(100)).collect();
        assert_eq!(below, [54, 40, 98, 8, 21, 59, 38, 21]);
        let mut r = MazeRng::new(1);
        let coins: String = (0..16).map(|_| if r.coin() { 'H' } else { 'T' }).collect();
        assert_eq!(coins, "HTHTTHTTHTHHTTHT");
        let mut r = MazeRng::new(2);
        let chances: String = (0..8)
            .map(|_| if r.chance(0.3) { 'y' } else { 'n' })
            .collect();
        assert_eq!(chances, "ynnnynyn");
        let mut v: Vec<u32> = (0..8).collect();
        shuffle(&mut MazeRng::new(5), &mut v);
        assert_eq!(v, [4, 0, 2, 5, 3, 6, 7, 1]);
    }

    #[test]
    fn shuffle_is_a_permutation() {
        let mut v: Vec<u32> = (0..100).collect();
        shuffle(&mut MazeRng::new(3), &mut v);
        let mut s = v.clone();
        s.sort();
        assert_eq!(s, (0..100).collect::<Vec<_>>());
        assert_ne!(v, s);
    }
}
