//! A small, fast, deterministic random generator and a hasher to seed it from what a bot sees.
//!
//! The bots draw many random numbers per decision (sampled deals); a cryptographic generator is
//! not needed here, only reproducibility: the same seed and the same view give the same choice.

/// xoshiro256** seeded through SplitMix64.
#[derive(Debug, Clone)]
pub struct Rng {
    s: [u64; 4],
}

fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl Rng {
    /// A generator from a 64-bit seed.
    pub fn new(seed: u64) -> Rng {
        let mut state = seed;
        let s = [splitmix(&mut state), splitmix(&mut state), splitmix(&mut state), splitmix(&mut state)];
        Rng { s }
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        let result = self.s[1].wrapping_mul(5).rotate_left(7).wrapping_mul(9);
        let t = self.s[1] << 17;
        self.s[2] ^= self.s[0];
        self.s[3] ^= self.s[1];
        self.s[1] ^= self.s[2];
        self.s[0] ^= self.s[3];
        self.s[2] ^= t;
        self.s[3] = self.s[3].rotate_left(45);
        result
    }

    /// A uniform number in `0..n` (`n > 0`), without modulo bias.
    pub fn below(&mut self, n: u64) -> u64 {
        debug_assert!(n > 0);
        let zone = u64::MAX - (u64::MAX - n + 1) % n;
        loop {
            let x = self.next_u64();
            if x <= zone {
                return x % n;
            }
        }
    }

    /// A uniform index in `0..n` (`n > 0`).
    pub fn index(&mut self, n: usize) -> usize {
        self.below(n as u64) as usize
    }

    /// A uniform number in `[0, 1)`.
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// Shuffles a slice in place (Fisher–Yates).
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.index(i + 1);
            items.swap(i, j);
        }
    }
}

/// FNV-1a over 64-bit words, to derive a decision's seed from the bot's seed and its view.
#[derive(Debug, Clone)]
pub struct Hasher(u64);

impl Hasher {
    /// A hasher started from `seed`.
    pub fn new(seed: u64) -> Hasher {
        let mut h = Hasher(0xCBF2_9CE4_8422_2325);
        h.word(seed);
        h
    }

    /// Mixes in one word.
    pub fn word(&mut self, w: u64) {
        for b in w.to_le_bytes() {
            self.0 ^= u64::from(b);
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01B3);
        }
    }

    /// The hash so far.
    pub fn finish(&self) -> u64 {
        let mut s = self.0;
        splitmix(&mut s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn below_stays_in_range_and_covers_it() {
        let mut rng = Rng::new(5);
        let mut seen = [0u32; 7];
        for _ in 0..7000 {
            seen[rng.index(7)] += 1;
        }
        assert!(seen.iter().all(|&c| (800..1200).contains(&c)), "{seen:?}");
        let x = rng.unit();
        assert!((0.0..1.0).contains(&x));
    }

    #[test]
    fn same_seed_same_stream() {
        let a: Vec<u64> = (0..5).scan(Rng::new(9), |r, _| Some(r.next_u64())).collect();
        let b: Vec<u64> = (0..5).scan(Rng::new(9), |r, _| Some(r.next_u64())).collect();
        assert_eq!(a, b);
        let mut h1 = Hasher::new(1);
        h1.word(2);
        let mut h2 = Hasher::new(1);
        h2.word(3);
        assert_ne!(h1.finish(), h2.finish());
    }
}
