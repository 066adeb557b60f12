//! Bids, their order, and the calls of the auction.

use std::cmp::Ordering;
use std::fmt;

use serde::{Deserialize, Serialize};

/// A bid: a number of tricks with optional Hand and Ruten, or a Kieker.
///
/// ```json
/// {"kind": "tricks", "tricks": 3, "hand": true, "ruten": false}
/// {"kind": "kieker"}
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Bid {
    /// To take at least `tricks` tricks (2..=5), Hand (no skat) and/or Ruten (diamonds) if named.
    Tricks {
        /// 2 to 5.
        tricks: u8,
        /// Played without the skat.
        #[serde(default)]
        hand: bool,
        /// Diamonds trumps: the ♦7 the only trump.
        #[serde(default)]
        ruten: bool,
    },
    /// Skat and stock taken, five discarded, all five tricks to win. Only with no court card.
    Kieker,
}

impl Bid {
    /// A plain bid of `tricks`.
    pub const fn tricks(tricks: u8) -> Bid {
        Bid::Tricks { tricks, hand: false, ruten: false }
    }

    /// Every bid there is, lowest first (ties ordered Hand before Ruten).
    pub const ALL: [Bid; 17] = {
        let mut all = [Bid::Kieker; 17];
        let mut i = 0;
        let mut tricks = 2;
        while tricks <= 5 {
            if tricks == 5 {
                i += 1; // the Kieker, already in place
            }
            let mut d = 0;
            while d < 4 {
                all[i] = Bid::Tricks { tricks, hand: d & 1 == 1, ruten: d & 2 == 2 };
                i += 1;
                d += 1;
            }
            tricks += 1;
        }
        all
    };

    /// Every bid there is, lowest first (ties ordered Hand before Ruten).
    pub fn all() -> impl Iterator<Item = Bid> {
        Bid::ALL.into_iter()
    }

    /// Whether the bid is well formed: 2..=5 tricks, or a Kieker.
    pub const fn is_valid(self) -> bool {
        match self {
            Bid::Tricks { tricks, .. } => tricks >= 2 && tricks <= 5,
            Bid::Kieker => true,
        }
    }

    /// The number of doubles the bid names (Hand, Ruten).
    pub const fn doubles(self) -> u8 {
        match self {
            Bid::Tricks { hand, ruten, .. } => hand as u8 + ruten as u8,
            Bid::Kieker => 0,
        }
    }

    /// The bid's height: more tricks beat fewer, then more doubles beat fewer; a Kieker sits
    /// above every 4 and below every 5. Bids of equal height are equal in the auction.
    pub const fn height(self) -> u8 {
        match self {
            Bid::Tricks { tricks: 5, .. } => 10 + self.doubles(),
            Bid::Tricks { tricks, .. } => (tricks - 2) * 3 + self.doubles(),
            Bid::Kieker => 9,
        }
    }

    /// Compares the heights of two bids: `Equal` for "3 Hand" against "3 Ruten".
    pub fn cmp_height(self, other: Bid) -> Ordering {
        self.height().cmp(&other.height())
    }
}

impl fmt::Display for Bid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Bid::Kieker => f.write_str("Kieker"),
            Bid::Tricks { tricks, hand, ruten } => {
                write!(f, "{tricks}")?;
                if hand {
                    f.write_str(" Hand")?;
                }
                if ruten {
                    f.write_str(" Ruten")?;
                }
                Ok(())
            }
        }
    }
}

/// What a player says in the auction.
///
/// ```json
/// {"call": "bid", "bid": {"kind": "tricks", "tricks": 2, "hand": false, "ruten": false}}
/// {"call": "hold"}
/// {"call": "pass"}
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(tag = "call", rename_all = "snake_case")]
pub enum Call {
    /// A bid of his own.
    Bid {
        /// The bid.
        bid: Bid,
    },
    /// The holder takes over the challenger's bid at equal height.
    Hold,
    /// Out of the auction.
    Pass,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn b(tricks: u8, hand: bool, ruten: bool) -> Bid {
        Bid::Tricks { tricks, hand, ruten }
    }

    #[test]
    fn the_documented_order_holds() {
        // 2 < 2 Hand = 2 Ruten < 2 Hand Ruten < 3 < … < 4 Hand Ruten < Kieker < 5 < 5 Hand = 5 Ruten < 5 Hand Ruten
        let chain = [
            vec![b(2, false, false)],
            vec![b(2, true, false), b(2, false, true)],
            vec![b(2, true, true)],
            vec![b(3, false, false)],
            vec![b(3, true, false), b(3, false, true)],
            vec![b(3, true, true)],
            vec![b(4, false, false)],
            vec![b(4, true, false), b(4, false, true)],
            vec![b(4, true, true)],
            vec![Bid::Kieker],
            vec![b(5, false, false)],
            vec![b(5, true, false), b(5, false, true)],
            vec![b(5, true, true)],
        ];
        for (i, lower) in chain.iter().enumerate() {
            for x in lower {
                for y in lower {
                    assert_eq!(x.cmp_height(*y), Ordering::Equal, "{x} = {y}");
                }
                for higher in &chain[i + 1..] {
                    for y in higher {
                        assert_eq!(x.cmp_height(*y), Ordering::Less, "{x} < {y}");
                        assert_eq!(y.cmp_height(*x), Ordering::Greater, "{y} > {x}");
                    }
                }
            }
        }
        assert_eq!(chain.iter().map(Vec::len).sum::<usize>(), Bid::all().count());
    }

    #[test]
    fn all_pairs_follow_tricks_then_doubles_with_kieker_between_4_and_5() {
        // An independent statement of the order, checked over every pair of bids.
        fn key(bid: Bid) -> (u8, u8) {
            match bid {
                Bid::Kieker => (4, 3), // above every 4 (at most 2 doubles), below every 5
                Bid::Tricks { tricks, .. } => (tricks, bid.doubles()),
            }
        }
        let bids: Vec<Bid> = Bid::all().collect();
        assert_eq!(bids.len(), 17);
        for x in &bids {
            assert!(x.is_valid());
            for y in &bids {
                assert_eq!(x.cmp_height(*y), key(*x).cmp(&key(*y)), "{x} vs {y}");
            }
        }
        assert!(!b(1, false, false).is_valid());
        assert!(!b(6, false, false).is_valid());
    }

    #[test]
    fn json_shape() {
        let json = serde_json::to_string(&Call::Bid { bid: b(3, true, false) }).unwrap();
        assert_eq!(json, r#"{"call":"bid","bid":{"kind":"tricks","tricks":3,"hand":true,"ruten":false}}"#);
        let short: Bid = serde_json::from_str(r#"{"kind":"tricks","tricks":4}"#).unwrap();
        assert_eq!(short, Bid::tricks(4));
        assert_eq!(b(3, true, true).to_string(), "3 Hand Ruten");
    }
}
