//! Seeds and the shuffle. The rules crate draws no randomness of its own: the caller hands in
//! a seed (the server makes one with a cryptographically secure generator), and the same seed
//! always gives the same deal.

use std::fmt;

use rand_chacha::ChaCha20Rng;
use rand_core::{Rng, SeedableRng};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::card::Card;

/// 256 bits that decide a shuffle. In JSON: 64 hexadecimal digits.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Seed(pub [u8; 32]);

impl Seed {
    /// A seed spread from a small number, for tests and reproducible examples. Seeds for real
    /// play must come from a secure generator instead.
    pub fn from_u64(n: u64) -> Seed {
        let mut rng = ChaCha20Rng::seed_from_u64(n);
        let mut bytes = [0u8; 32];
        rng.fill_bytes(&mut bytes);
        Seed(bytes)
    }

    /// The seed of deal number `index` of a series with this master seed: the ChaCha20 key
    /// stream of the master seed on stream `index`. Revealing one deal's seed after the deal
    /// reveals nothing of the master seed or of other deals.
    pub fn derive(&self, index: u64) -> Seed {
        let mut rng = ChaCha20Rng::from_seed(self.0);
        rng.set_stream(index);
        let mut bytes = [0u8; 32];
        rng.fill_bytes(&mut bytes);
        Seed(bytes)
    }

    /// The 25 cards in shuffled order (Fisher–Yates over ChaCha20, without modulo bias).
    pub fn shuffle(&self) -> [Card; 25] {
        let mut rng = ChaCha20Rng::from_seed(self.0);
        let mut cards: [Card; 25] = std::array::from_fn(|i| Card::from_index(i as u8).unwrap_or(Card::DIAMOND_SEVEN));
        for i in (1..25usize).rev() {
            let j = below(&mut rng, i as u32 + 1) as usize;
            cards.swap(i, j);
        }
        cards
    }

    /// The seed as 64 hexadecimal digits.
    pub fn to_hex(&self) -> String {
        self.0.iter().map(|b| format!("{b:02x}")).collect()
    }

    /// Reads 64 hexadecimal digits.
    pub fn from_hex(s: &str) -> Option<Seed> {
        if s.len() != 64 || !s.is_ascii() {
            return None;
        }
        let mut bytes = [0u8; 32];
        for (i, b) in bytes.iter_mut().enumerate() {
            *b = u8::from_str_radix(&s[2 * i..2 * i + 2], 16).ok()?;
        }
        Some(Seed(bytes))
    }
}

/// A uniform number in `0..n` (Lemire's multiply-and-reject).
fn below(rng: &mut ChaCha20Rng, n: u32) -> u32 {
    let threshold = n.wrapping_neg() % n;
    loop {
        let m = u64::from(rng.next_u32()) * u64::from(n);
        if (m as u32) >= threshold {
            return (m >> 32) as u32;
        }
    }
}

impl fmt::Debug for Seed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Seed({})", self.to_hex())
    }
}

impl Serialize for Seed {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.to_hex())
    }
}

impl<'de> Deserialize<'de> for Seed {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let s = <std::borrow::Cow<'de, str>>::deserialize(deserializer)?;
        Seed::from_hex(&s).ok_or_else(|| serde::de::Error::custom("a seed is 64 hexadecimal digits"))
    }
}

#[cfg(feature = "schema")]
impl schemars::JsonSchema for Seed {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Seed".into()
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({ "type": "string", "pattern": "^[0-9a-f]{64}$" })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::card::CardSet;

    #[test]
    fn shuffle_is_a_permutation_and_reproducible() {
        let seed = Seed::from_u64(7);
        let a = seed.shuffle();
        assert_eq!(a.iter().copied().collect::<CardSet>(), CardSet::PACK);
        assert_eq!(a, seed.shuffle());
        assert_ne!(a, Seed::from_u64(8).shuffle());
    }

    #[test]
    fn shuffle_puts_every_card_everywhere_about_equally() {
        // 25 × 25 cells over 20,000 shuffles: each cell expects 800.
        let mut counts = [[0u32; 25]; 25];
        for n in 0..20_000 {
            for (pos, card) in Seed::from_u64(n).shuffle().iter().enumerate() {
                counts[card.index() as usize][pos] += 1;
            }
        }
        for row in counts {
            for c in row {
                assert!((650..950).contains(&c), "cell count {c} far from 800");
            }
        }
    }

    #[test]
    fn hex_round_trip_and_derivation() {
        let seed = Seed::from_u64(1);
        assert_eq!(Seed::from_hex(&seed.to_hex()), Some(seed));
        assert_eq!(Seed::from_hex("zz"), None);
        assert_ne!(seed.derive(0), seed.derive(1));
        assert_eq!(seed.derive(3), seed.derive(3));
        assert_ne!(seed.derive(0), seed);
    }
}
