//! Seeds and the shuffle. The rules crate draws no randomness of its own: the caller hands in
//! a seed (the server makes one with a cryptographically secure generator), and the same seed
//! always gives the same deal.

use std::fmt;

use rand_chacha::ChaCha20Rng;
use rand_core::{Rng, SeedableRng};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::card::{Card, P25_7_ORDER, Pack};

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

    /// Prisdorf's 25 cards ([`Pack::P25_7`]) in shuffled order: [`Seed::shuffle_pack`] of that
    /// pack, without allocating.
    pub fn shuffle(&self) -> [Card; 25] {
        let mut cards = P25_7_ORDER;
        self.shuffle_cards(&mut cards);
        cards
    }

    /// The cards of `pack` in shuffled order: Fisher–Yates over ChaCha20 (without modulo bias),
    /// starting from the pack's [`Pack::order`].
    pub fn shuffle_pack(&self, pack: Pack) -> Vec<Card> {
        let mut cards = pack.order().to_vec();
        self.shuffle_cards(&mut cards);
        cards
    }

    /// Fisher–Yates from the last place down: place `i` swaps with a place drawn from `0..=i`.
    fn shuffle_cards(&self, cards: &mut [Card]) {
        self.shuffle_slice(cards);
    }

    /// [`Seed::shuffle_pack`]'s Fisher–Yates over any items: a game whose pack holds more than
    /// the four suits (Nap's joker) shuffles its own card type the same way.
    pub(crate) fn shuffle_slice<T>(&self, items: &mut [T]) {
        let mut rng = ChaCha20Rng::from_seed(self.0);
        for i in (1..items.len()).rev() {
            let j = below(&mut rng, i as u32 + 1) as usize;
            items.swap(i, j);
        }
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

/// The stream of a master seed whose own streams seed the re-deals of [`DealSeeds::ByCountedDeal`]
/// (below the streams other parts of the rules crate take for themselves at the top).
const REDEAL_STREAM: u64 = u64::MAX - 1;

/// How a series takes each deal's seed from its secret master seed.
///
/// Both ways deal the same as long as no deal is thrown in; they differ in what follows a
/// thrown-in deal (which the same dealer deals again and which does not count towards the
/// series' length).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum DealSeeds {
    /// Deal `k` of the series (from 1, thrown-in deals included) from the master seed's stream
    /// `k − 1`: the platform's way.
    #[default]
    ByDeal,
    /// Duplicate deals: the first dealing of the `d`-th deal that counts from the master seed's
    /// stream `d − 1`, and each re-deal after it was thrown in from a stream of its own, apart
    /// from those. Tables that share a master seed then get the same cards for their `d`-th
    /// deal that counts, dealt by the same dealer, however many deals each throws in.
    ByCountedDeal,
}

impl DealSeeds {
    /// The seed of the next deal of a series with this master seed: `dealt` deals were dealt
    /// before it, `counted` of them count, and the last `redeals` of them were thrown in (so this
    /// is the `redeals`-th re-deal of the deal that counts next; 0 for its first dealing).
    pub fn seed(self, master: &Seed, dealt: u32, counted: u32, redeals: u32) -> Seed {
        match self {
            DealSeeds::ByDeal => master.derive(u64::from(dealt)),
            DealSeeds::ByCountedDeal if redeals == 0 => master.derive(u64::from(counted)),
            DealSeeds::ByCountedDeal => {
                master.derive(REDEAL_STREAM).derive(u64::from(counted)).derive(u64::from(redeals - 1))
            }
        }
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
        for pack in Pack::ALL {
            let cards = seed.shuffle_pack(pack);
            assert_eq!(cards.len(), pack.size());
            assert_eq!(cards.iter().copied().collect::<CardSet>(), pack.cards());
            assert_eq!(cards, seed.shuffle_pack(pack));
        }
    }

    #[test]
    fn prisdorf_shuffle_is_the_same_as_ever() {
        // The shuffle of the 25 cards from clubs 7..A, spades 7..A, hearts 7..A, D7: these
        // orders were made before the card type covered other packs; the same seed must keep
        // dealing the same cards.
        let expect = [
            (0, "HK HA SK SQ CA D7 CQ H7 SA C8 C9 CJ H8 S7 HJ CK C7 S9 SJ H10 C10 H9 HQ S8 S10"),
            (7, "D7 H10 C10 SJ C9 C7 H9 SQ CQ HJ CJ HK HA CK SK HQ CA H7 SA S9 S8 H8 S7 C8 S10"),
            (2026, "CA C9 H9 D7 S9 SK CQ C7 S10 SQ CJ HK H7 C8 S8 HA S7 HJ CK SA HQ SJ H10 C10 H8"),
        ];
        for (n, order) in expect {
            let seed = Seed::from_u64(n);
            let codes: Vec<String> = seed.shuffle().iter().map(|c| c.code()).collect();
            assert_eq!(codes.join(" "), order, "seed {n}");
            assert_eq!(seed.shuffle_pack(Pack::P25_7), seed.shuffle().to_vec());
        }
    }

    #[test]
    fn shuffle_puts_every_card_everywhere_about_equally() {
        // 25 × 25 cells over 20,000 shuffles: each cell expects 800.
        let mut counts = [[0u32; 25]; 25];
        for n in 0..20_000 {
            for (pos, card) in Seed::from_u64(n).shuffle().iter().enumerate() {
                let place = Pack::P25_7.order().iter().position(|c| c == card).unwrap();
                counts[place][pos] += 1;
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
