//! The 25-card Fipsen pack: clubs, spades and hearts from ace to seven, and the seven of
//! diamonds alone.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A suit. Diamonds holds a single card, the seven; naming diamonds as trumps is **Ruten**.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Suit {
    /// ♣
    Clubs,
    /// ♠
    Spades,
    /// ♥
    Hearts,
    /// ♦ — only the seven is in the pack.
    Diamonds,
}

impl Suit {
    /// All four suits, in the order clubs, spades, hearts, diamonds.
    pub const ALL: [Suit; 4] = [Suit::Clubs, Suit::Spades, Suit::Hearts, Suit::Diamonds];

    /// The letter used in card codes (`C`, `S`, `H`, `D`).
    pub const fn letter(self) -> char {
        match self {
            Suit::Clubs => 'C',
            Suit::Spades => 'S',
            Suit::Hearts => 'H',
            Suit::Diamonds => 'D',
        }
    }

    /// Every card of this suit in the pack.
    pub const fn cards(self) -> CardSet {
        match self {
            Suit::Clubs => CardSet(0xff),
            Suit::Spades => CardSet(0xff << 8),
            Suit::Hearts => CardSet(0xff << 16),
            Suit::Diamonds => CardSet(1 << 24),
        }
    }
}

/// A rank, from seven (lowest) to ace (highest). The ten ranks between the jack and the nine.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Rank {
    /// 7
    Seven,
    /// 8
    Eight,
    /// 9
    Nine,
    /// 10
    Ten,
    /// J (a court card)
    Jack,
    /// Q (a court card)
    Queen,
    /// K (a court card)
    King,
    /// A
    Ace,
}

impl Rank {
    /// All ranks, lowest first.
    pub const ALL: [Rank; 8] =
        [Rank::Seven, Rank::Eight, Rank::Nine, Rank::Ten, Rank::Jack, Rank::Queen, Rank::King, Rank::Ace];

    const fn code(self) -> &'static str {
        match self {
            Rank::Seven => "7",
            Rank::Eight => "8",
            Rank::Nine => "9",
            Rank::Ten => "10",
            Rank::Jack => "J",
            Rank::Queen => "Q",
            Rank::King => "K",
            Rank::Ace => "A",
        }
    }

    /// Kings, queens and jacks are court cards ("pictures"); a hand with none may bid Kieker.
    pub const fn is_court(self) -> bool {
        matches!(self, Rank::Jack | Rank::Queen | Rank::King)
    }
}

/// One card of the pack, numbered 0..25: clubs 7..A are 0..8, spades 8..16, hearts 16..24,
/// and the seven of diamonds is 24. Within a suit a higher number is a higher card.
///
/// In JSON a card is a short code: suit letter then rank, e.g. `"CA"`, `"S10"`, `"D7"`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Card(u8);

impl Card {
    /// The seven of diamonds: the only diamond, and the only trump in Ruten.
    pub const DIAMOND_SEVEN: Card = Card(24);

    /// The card of that suit and rank, if it is in the pack (of diamonds only the seven is).
    pub const fn new(suit: Suit, rank: Rank) -> Option<Card> {
        match suit {
            Suit::Diamonds => match rank {
                Rank::Seven => Some(Card::DIAMOND_SEVEN),
                _ => None,
            },
            _ => Some(Card(suit as u8 * 8 + rank as u8)),
        }
    }

    /// The card numbered `index` (0..25).
    pub const fn from_index(index: u8) -> Option<Card> {
        if index < 25 { Some(Card(index)) } else { None }
    }

    /// This card's number, 0..25.
    pub const fn index(self) -> u8 {
        self.0
    }

    /// The card's suit.
    pub const fn suit(self) -> Suit {
        match self.0 / 8 {
            0 => Suit::Clubs,
            1 => Suit::Spades,
            2 => Suit::Hearts,
            _ => Suit::Diamonds,
        }
    }

    /// The card's rank.
    pub const fn rank(self) -> Rank {
        Rank::ALL[(self.0 % 8) as usize]
    }

    /// The one-card set.
    pub const fn set(self) -> CardSet {
        CardSet(1 << self.0)
    }

    /// The card code used in JSON and logs, e.g. `"H10"`.
    pub fn code(self) -> String {
        format!("{}{}", self.suit().letter(), self.rank().code())
    }
}

impl fmt::Debug for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.suit().letter(), self.rank().code())
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self, f)
    }
}

/// A card code that names no card of the pack.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not a card of the Fipsen pack (cards are written like CA, S10, H7, D7)")]
pub struct ParseCardError(pub String);

impl FromStr for Card {
    type Err = ParseCardError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let err = || ParseCardError(s.chars().take(8).collect());
        let mut chars = s.chars();
        let suit = match chars.next().ok_or_else(err)? {
            'C' => Suit::Clubs,
            'S' => Suit::Spades,
            'H' => Suit::Hearts,
            'D' => Suit::Diamonds,
            _ => return Err(err()),
        };
        let rank = match chars.as_str() {
            "7" => Rank::Seven,
            "8" => Rank::Eight,
            "9" => Rank::Nine,
            "10" => Rank::Ten,
            "J" => Rank::Jack,
            "Q" => Rank::Queen,
            "K" => Rank::King,
            "A" => Rank::Ace,
            _ => return Err(err()),
        };
        Card::new(suit, rank).ok_or_else(err)
    }
}

impl Serialize for Card {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut buf = [0u8; 3];
        let code = self.code_into(&mut buf);
        serializer.serialize_str(code)
    }
}

impl Card {
    fn code_into(self, buf: &mut [u8; 3]) -> &str {
        buf[0] = self.suit().letter() as u8;
        let rank = self.rank().code().as_bytes();
        buf[1..1 + rank.len()].copy_from_slice(rank);
        std::str::from_utf8(&buf[..1 + rank.len()]).unwrap_or("?")
    }
}

impl<'de> Deserialize<'de> for Card {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let s = <std::borrow::Cow<'de, str>>::deserialize(deserializer)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(feature = "schema")]
impl schemars::JsonSchema for Card {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Card".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "type": "string",
            "description": "A card: suit letter (C, S, H, D) then rank (A K Q J 10 9 8 7). Of diamonds only D7 exists.",
            "pattern": "^([CSH](A|K|Q|J|10|9|8|7)|D7)$"
        })
    }
}

/// A set of cards, kept as a bit mask. In JSON: an array of card codes, lowest card first.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct CardSet(u32);

impl CardSet {
    /// No cards.
    pub const EMPTY: CardSet = CardSet(0);
    /// The whole 25-card pack.
    pub const PACK: CardSet = CardSet((1 << 25) - 1);
    /// The four sevens, needed for a Siebener Fips.
    pub const SEVENS: CardSet = CardSet(1 | 1 << 8 | 1 << 16 | 1 << 24);
    /// The three aces.
    pub const ACES: CardSet = CardSet(1 << 7 | 1 << 15 | 1 << 23);
    /// Every court card (K, Q, J).
    pub const COURT: CardSet = CardSet(0b0111_0000 * (1 | 1 << 8 | 1 << 16));

    /// The set from its bit mask (bit `i` is the card numbered `i`); bits past 24 are dropped.
    pub const fn from_bits(bits: u32) -> CardSet {
        CardSet(bits & Self::PACK.0)
    }

    /// The bit mask.
    pub const fn bits(self) -> u32 {
        self.0
    }

    /// How many cards.
    pub const fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// Whether the set is empty.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether `card` is in the set.
    pub const fn contains(self, card: Card) -> bool {
        self.0 & (1 << card.0) != 0
    }

    /// Whether every card of `other` is in this set.
    pub const fn contains_all(self, other: CardSet) -> bool {
        self.0 & other.0 == other.0
    }

    /// Both sets together.
    pub const fn union(self, other: CardSet) -> CardSet {
        CardSet(self.0 | other.0)
    }

    /// The cards in both sets.
    pub const fn intersection(self, other: CardSet) -> CardSet {
        CardSet(self.0 & other.0)
    }

    /// The cards of this set that are not in `other`.
    pub const fn difference(self, other: CardSet) -> CardSet {
        CardSet(self.0 & !other.0)
    }

    /// Adds a card.
    pub fn insert(&mut self, card: Card) {
        self.0 |= 1 << card.0;
    }

    /// Removes a card.
    pub fn remove(&mut self, card: Card) {
        self.0 &= !(1 << card.0);
    }

    /// The cards of a suit in this set.
    pub const fn of_suit(self, suit: Suit) -> CardSet {
        self.intersection(suit.cards())
    }

    /// The highest card, if any.
    pub const fn highest(self) -> Option<Card> {
        if self.0 == 0 { None } else { Some(Card(31 - self.0.leading_zeros() as u8)) }
    }

    /// The lowest card, if any.
    pub const fn lowest(self) -> Option<Card> {
        if self.0 == 0 { None } else { Some(Card(self.0.trailing_zeros() as u8)) }
    }

    /// The cards, lowest number first.
    pub fn iter(self) -> CardIter {
        CardIter(self.0)
    }

    /// Whether the set holds a court card (K, Q, J): such a hand may not bid Kieker.
    pub const fn has_court(self) -> bool {
        self.0 & Self::COURT.0 != 0
    }

    /// Whether these cards make a Siebener Fips: all four sevens and an ace.
    pub const fn has_siebener_fips(self) -> bool {
        self.contains_all(Self::SEVENS) && self.0 & Self::ACES.0 != 0
    }
}

impl FromIterator<Card> for CardSet {
    fn from_iter<I: IntoIterator<Item = Card>>(iter: I) -> Self {
        let mut set = CardSet::EMPTY;
        for card in iter {
            set.insert(card);
        }
        set
    }
}

impl IntoIterator for CardSet {
    type Item = Card;
    type IntoIter = CardIter;
    fn into_iter(self) -> CardIter {
        self.iter()
    }
}

/// Iterator over a [`CardSet`], lowest card first.
#[derive(Debug, Clone)]
pub struct CardIter(u32);

impl Iterator for CardIter {
    type Item = Card;
    fn next(&mut self) -> Option<Card> {
        if self.0 == 0 {
            return None;
        }
        let i = self.0.trailing_zeros();
        self.0 &= self.0 - 1;
        Some(Card(i as u8))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for CardIter {}

impl fmt::Debug for CardSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl Serialize for CardSet {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.iter())
    }
}

impl<'de> Deserialize<'de> for CardSet {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Visitor;
        impl<'de> serde::de::Visitor<'de> for Visitor {
            type Value = CardSet;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an array of distinct card codes")
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<CardSet, A::Error> {
                let mut set = CardSet::EMPTY;
                while let Some(card) = seq.next_element::<Card>()? {
                    if set.contains(card) {
                        return Err(serde::de::Error::custom(format!("card {card} named twice")));
                    }
                    set.insert(card);
                }
                Ok(set)
            }
        }
        deserializer.deserialize_seq(Visitor)
    }
}

#[cfg(feature = "schema")]
impl schemars::JsonSchema for CardSet {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "CardSet".into()
    }

    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        let card = generator.subschema_for::<Card>();
        schemars::json_schema!({
            "type": "array",
            "description": "A set of distinct cards, lowest first.",
            "items": card,
            "uniqueItems": true,
            "maxItems": 25
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pack_has_25_distinct_cards_with_codes_that_round_trip() {
        let cards: Vec<Card> = CardSet::PACK.iter().collect();
        assert_eq!(cards.len(), 25);
        for card in cards {
            let code = card.code();
            assert_eq!(code.parse::<Card>(), Ok(card));
            let json = serde_json::to_string(&card).unwrap();
            assert_eq!(json, format!("\"{code}\""));
        }
        assert_eq!("D8".parse::<Card>(), Err(ParseCardError("D8".into())));
        assert!("X7".parse::<Card>().is_err());
        assert!("C1".parse::<Card>().is_err());
    }

    #[test]
    fn constants_hold_what_they_name() {
        assert_eq!(CardSet::SEVENS.iter().filter(|c| c.rank() == Rank::Seven).count(), 4);
        assert!(CardSet::ACES.iter().all(|c| c.rank() == Rank::Ace));
        assert_eq!(CardSet::COURT.len(), 9);
        assert!(CardSet::COURT.iter().all(|c| c.rank().is_court()));
        assert_eq!(Suit::Diamonds.cards().iter().collect::<Vec<_>>(), vec![Card::DIAMOND_SEVEN]);
    }

    #[test]
    fn ranks_order_ace_high_and_ten_below_jack() {
        let ten = Card::new(Suit::Hearts, Rank::Ten).unwrap();
        let jack = Card::new(Suit::Hearts, Rank::Jack).unwrap();
        let ace = Card::new(Suit::Hearts, Rank::Ace).unwrap();
        assert!(ten < jack && jack < ace);
        assert_eq!(Suit::Hearts.cards().highest(), Some(ace));
    }

    #[test]
    fn card_set_json_rejects_duplicates() {
        let set: CardSet = serde_json::from_str(r#"["CA","D7"]"#).unwrap();
        assert_eq!(set.len(), 2);
        assert!(serde_json::from_str::<CardSet>(r#"["CA","CA"]"#).is_err());
    }

    #[test]
    fn siebener_fips_needs_all_sevens_and_an_ace() {
        let ace = Card::new(Suit::Spades, Rank::Ace).unwrap();
        let king = Card::new(Suit::Spades, Rank::King).unwrap();
        assert!(CardSet::SEVENS.union(ace.set()).has_siebener_fips());
        assert!(!CardSet::SEVENS.union(king.set()).has_siebener_fips());
        assert!(!CardSet::SEVENS.difference(Card::DIAMOND_SEVEN.set()).union(ace.set()).has_siebener_fips());
    }
}
