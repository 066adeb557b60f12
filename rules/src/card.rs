//! Cards: the four suits from two to ace, one card type for every pack the games of the family
//! deal ([`Pack`]): Prisdorf's 25 cards (clubs, spades and hearts from ace to seven, and the
//! seven of diamonds alone), Mecklenburg's 25 (the same with the ace of diamonds instead), the
//! 32-card pack (ace to seven in four suits) and the 52-card pack (ace to two in four suits).

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A suit. In Prisdorf's pack diamonds holds a single card, the seven; naming diamonds as
/// trumps is **Ruten**.
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
    /// ♦ — in Prisdorf's pack only the seven.
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

    /// All thirteen cards of this suit, two to ace, whether a pack holds them or not. For the
    /// cards of the suit in one pack, ask the pack: [`Pack::suit_cards`].
    pub const fn all_cards(self) -> CardSet {
        CardSet(SUIT_BITS << (self as u64 * 16))
    }
}

/// A rank, from two (lowest) to ace (highest); the ten ranks between the jack and the nine.
/// Only the 52-card pack has the ranks below the seven.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Rank {
    /// 2
    Two,
    /// 3
    Three,
    /// 4
    Four,
    /// 5
    Five,
    /// 6
    Six,
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
    pub const ALL: [Rank; 13] = [
        Rank::Two,
        Rank::Three,
        Rank::Four,
        Rank::Five,
        Rank::Six,
        Rank::Seven,
        Rank::Eight,
        Rank::Nine,
        Rank::Ten,
        Rank::Jack,
        Rank::Queen,
        Rank::King,
        Rank::Ace,
    ];

    /// The rank numbered `n` (0 two .. 12 ace), if there is one.
    const fn from_number(n: u8) -> Option<Rank> {
        if (n as usize) < Rank::ALL.len() { Some(Rank::ALL[n as usize]) } else { None }
    }

    const fn code(self) -> &'static str {
        match self {
            Rank::Two => "2",
            Rank::Three => "3",
            Rank::Four => "4",
            Rank::Five => "5",
            Rank::Six => "6",
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

    fn from_code(code: &str) -> Option<Rank> {
        Some(match code {
            "2" => Rank::Two,
            "3" => Rank::Three,
            "4" => Rank::Four,
            "5" => Rank::Five,
            "6" => Rank::Six,
            "7" => Rank::Seven,
            "8" => Rank::Eight,
            "9" => Rank::Nine,
            "10" => Rank::Ten,
            "J" => Rank::Jack,
            "Q" => Rank::Queen,
            "K" => Rank::King,
            "A" => Rank::Ace,
            _ => return None,
        })
    }

    /// Kings, queens and jacks are court cards ("pictures"); a hand with none may bid Kieker.
    pub const fn is_court(self) -> bool {
        matches!(self, Rank::Jack | Rank::Queen | Rank::King)
    }
}

/// The bits of one suit's thirteen cards within its 16.
const SUIT_BITS: u64 = (1 << 13) - 1;

/// One card of the 52, numbered `suit × 16 + rank`: the rank counts from 0 (two) to 12 (ace)
/// and the suits come in the order clubs, spades, hearts, diamonds. So each suit is one run of
/// bits in a [`CardSet`], and within a suit a higher number is a higher card.
///
/// In JSON a card is a short code: suit letter then rank, e.g. `"CA"`, `"S10"`, `"D7"`, `"H2"`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Card(u8);

impl Card {
    /// The seven of diamonds: in Prisdorf's pack the only diamond, and the only trump in Ruten.
    pub const DIAMOND_SEVEN: Card = Card::new(Suit::Diamonds, Rank::Seven);

    /// The card of that suit and rank.
    pub const fn new(suit: Suit, rank: Rank) -> Card {
        Card(suit as u8 * 16 + rank as u8)
    }

    /// The card numbered `index` (`suit × 16 + rank`, see [`Card`]), if there is one.
    pub const fn from_index(index: u8) -> Option<Card> {
        if index < 64 && index % 16 < 13 { Some(Card(index)) } else { None }
    }

    /// This card's number, `suit × 16 + rank` (0..61): the bit it takes in a [`CardSet`].
    pub const fn index(self) -> u8 {
        self.0
    }

    /// The card's suit.
    pub const fn suit(self) -> Suit {
        match self.0 >> 4 {
            0 => Suit::Clubs,
            1 => Suit::Spades,
            2 => Suit::Hearts,
            _ => Suit::Diamonds,
        }
    }

    /// The card's rank.
    pub const fn rank(self) -> Rank {
        match Rank::from_number(self.0 & 15) {
            Some(rank) => rank,
            // Every card is made with a rank below 13.
            None => Rank::Ace,
        }
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

/// A card code that names no card.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not a card (cards are written suit then rank, like CA, S10, H7, D7)")]
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
        let rank = Rank::from_code(chars.as_str()).ok_or_else(err)?;
        Ok(Card::new(suit, rank))
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
            "description": "A card: suit letter (C, S, H, D) then rank (A K Q J 10 9 8 7 6 5 4 3 2), e.g. CA, S10, D7. Prisdorf's pack holds clubs, spades and hearts A to 7 and D7 only.",
            "pattern": "^[CSHD](A|K|Q|J|10|9|8|7|6|5|4|3|2)$"
        })
    }
}

/// A set of cards, kept as a bit mask (bit `i` is the card numbered `i`, see [`Card`]). In JSON:
/// an array of card codes, lowest card first.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct CardSet(u64);

/// The same bits in each suit.
const fn in_every_suit(bits: u64) -> u64 {
    bits * (1 | 1 << 16 | 1 << 32 | 1 << 48)
}

/// The bit of a rank within its suit.
const fn rank_bit(rank: Rank) -> u64 {
    1 << rank as u64
}

impl CardSet {
    /// Calls `f` with every subset of this set of size `k` (a declarer's possible discards).
    pub(crate) fn for_each_subset(self, k: usize, f: &mut impl FnMut(CardSet)) {
        fn go(rest: CardSet, k: usize, chosen: CardSet, f: &mut impl FnMut(CardSet)) {
            if k == 0 {
                f(chosen);
                return;
            }
            if rest.len() < k {
                return;
            }
            let Some(card) = rest.lowest() else { return };
            let rest = rest.difference(card.set());
            go(rest, k - 1, chosen.union(card.set()), f);
            go(rest, k, chosen, f);
        }
        go(self, k, CardSet::EMPTY, f);
    }

    /// No cards.
    pub const EMPTY: CardSet = CardSet(0);
    /// All 52 cards.
    pub const ALL: CardSet = CardSet(in_every_suit(SUIT_BITS));
    /// Prisdorf's pack, the one the rules deal: [`Pack::P25_7`].
    pub const PACK: CardSet = Pack::P25_7.cards();
    /// The four sevens, needed for a Siebener Fips.
    pub const SEVENS: CardSet = CardSet(in_every_suit(rank_bit(Rank::Seven)));
    /// The four aces (Prisdorf's pack has three: no ace of diamonds).
    pub const ACES: CardSet = CardSet(in_every_suit(rank_bit(Rank::Ace)));
    /// Every court card (K, Q, J) of the four suits.
    pub const COURT: CardSet =
        CardSet(in_every_suit(rank_bit(Rank::Jack) | rank_bit(Rank::Queen) | rank_bit(Rank::King)));

    /// The set from its bit mask (bit `i` is the card numbered `i`); bits that number no card
    /// are dropped.
    pub const fn from_bits(bits: u64) -> CardSet {
        CardSet(bits & Self::ALL.0)
    }

    /// The bit mask.
    pub const fn bits(self) -> u64 {
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
        self.intersection(suit.all_cards())
    }

    /// The highest card, if any.
    pub const fn highest(self) -> Option<Card> {
        if self.0 == 0 { None } else { Some(Card(63 - self.0.leading_zeros() as u8)) }
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
pub struct CardIter(u64);

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
            "maxItems": 52
        })
    }
}

/// A pack: the cards a game deals.
///
/// The names are the packs' own: `P25-7` is Prisdorf's, `P25-A` Mecklenburg's.
#[allow(non_camel_case_types)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Pack {
    /// Prisdorf's 25 cards: clubs, spades and hearts from ace to seven, and the seven of diamonds.
    P25_7,
    /// Mecklenburg's 25 cards: clubs, spades and hearts from ace to seven, and the ace of diamonds.
    P25_A,
    /// 32 cards: ace to seven in four suits.
    P32,
    /// 52 cards: ace to two in four suits.
    P52,
}

/// Ace to seven in one suit.
const SEVEN_UP: u64 = SUIT_BITS & !(rank_bit(Rank::Seven) - 1);
/// Ace to seven in clubs, spades and hearts.
const THREE_SUITS_SEVEN_UP: u64 = SEVEN_UP * (1 | 1 << 16 | 1 << 32);

/// The cards of `set` in ascending order, as an array of exactly `N`.
const fn in_order<const N: usize>(set: CardSet) -> [Card; N] {
    let mut out = [Card(0); N];
    let mut bits = set.0;
    let mut i = 0;
    while bits != 0 {
        out[i] = Card(bits.trailing_zeros() as u8);
        bits &= bits - 1;
        i += 1;
    }
    assert!(i == N, "the order lists every card of the pack");
    out
}

/// Prisdorf's pack in its shuffle order ([`Pack::order`] of [`Pack::P25_7`]).
pub(crate) const P25_7_ORDER: [Card; 25] = in_order(Pack::P25_7.cards());
const P25_A_ORDER: [Card; 25] = in_order(Pack::P25_A.cards());
const P32_ORDER: [Card; 32] = in_order(Pack::P32.cards());
const P52_ORDER: [Card; 52] = in_order(Pack::P52.cards());

impl Pack {
    /// Every pack.
    pub const ALL: [Pack; 4] = [Pack::P25_7, Pack::P25_A, Pack::P32, Pack::P52];

    /// The pack's name: `P25-7`, `P25-A`, `P32`, `P52`.
    pub const fn name(self) -> &'static str {
        match self {
            Pack::P25_7 => "P25-7",
            Pack::P25_A => "P25-A",
            Pack::P32 => "P32",
            Pack::P52 => "P52",
        }
    }

    /// The pack's cards.
    pub const fn cards(self) -> CardSet {
        CardSet(match self {
            Pack::P25_7 => THREE_SUITS_SEVEN_UP | rank_bit(Rank::Seven) << 48,
            Pack::P25_A => THREE_SUITS_SEVEN_UP | rank_bit(Rank::Ace) << 48,
            Pack::P32 => in_every_suit(SEVEN_UP),
            Pack::P52 => CardSet::ALL.0,
        })
    }

    /// How many cards the pack has.
    pub const fn size(self) -> usize {
        self.cards().len()
    }

    /// Whether `card` is in the pack.
    pub const fn contains(self, card: Card) -> bool {
        self.cards().contains(card)
    }

    /// The cards of `suit` in this pack: in both 25-card packs diamonds holds one card.
    pub const fn suit_cards(self, suit: Suit) -> CardSet {
        self.cards().of_suit(suit)
    }

    /// The pack in the order a shuffle starts from: clubs, spades, hearts, diamonds, each suit
    /// from its lowest card up (the order of the card numbers). Prisdorf's pack begins ♣7 ♣8 …
    /// ♣A ♠7 … ♥A and ends with ♦7.
    pub const fn order(self) -> &'static [Card] {
        match self {
            Pack::P25_7 => &P25_7_ORDER,
            Pack::P25_A => &P25_A_ORDER,
            Pack::P32 => &P32_ORDER,
            Pack::P52 => &P52_ORDER,
        }
    }
}

impl fmt::Display for Pack {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn card(code: &str) -> Card {
        code.parse().unwrap()
    }

    fn cards(codes: &str) -> Vec<Card> {
        codes.split_whitespace().map(card).collect()
    }

    #[test]
    fn all_52_cards_have_codes_that_round_trip() {
        let all: Vec<Card> = CardSet::ALL.iter().collect();
        assert_eq!(all.len(), 52);
        for suit in Suit::ALL {
            for rank in Rank::ALL {
                let c = Card::new(suit, rank);
                assert_eq!((c.suit(), c.rank()), (suit, rank));
                assert_eq!(Card::from_index(c.index()), Some(c));
                assert!(CardSet::ALL.contains(c));
                let code = c.code();
                assert_eq!(code, format!("{}{}", suit.letter(), rank.code()));
                assert_eq!(code.parse::<Card>(), Ok(c));
                let json = serde_json::to_string(&c).unwrap();
                assert_eq!(json, format!("\"{code}\""));
                assert_eq!(serde_json::from_str::<Card>(&json).unwrap(), c);
            }
        }
        assert_eq!(card("D8").rank(), Rank::Eight);
        assert_eq!(card("H2"), Card::new(Suit::Hearts, Rank::Two));
        for bad in ["X7", "C1", "C11", "C", "", "D", "c7", "S01", "HAA"] {
            assert_eq!(bad.parse::<Card>(), Err(ParseCardError(bad.into())), "{bad}");
        }
        assert_eq!(Card::from_index(13), None);
        assert_eq!(Card::from_index(64), None);
        assert_eq!(CardSet::from_bits(u64::MAX), CardSet::ALL);
    }

    #[test]
    fn numbering_keeps_each_suit_together_and_ranks_ascending() {
        for suit in Suit::ALL {
            let in_suit: Vec<Card> = suit.all_cards().iter().collect();
            let expected: Vec<Card> = Rank::ALL.iter().map(|&r| Card::new(suit, r)).collect();
            assert_eq!(in_suit, expected);
            assert_eq!(suit.all_cards().bits() >> (suit as u32 * 16), (1 << 13) - 1);
        }
        assert_eq!(card("C2").index(), 0);
        assert_eq!(card("CA").index(), 12);
        assert_eq!(card("S2").index(), 16);
        assert_eq!(Card::DIAMOND_SEVEN.index(), 53);
        assert_eq!(card("DA").index(), 60);
    }

    #[test]
    fn every_pack_has_its_cards() {
        let clubs = "C7 C8 C9 C10 CJ CQ CK CA";
        let spades = "S7 S8 S9 S10 SJ SQ SK SA";
        let hearts = "H7 H8 H9 H10 HJ HQ HK HA";
        let diamonds = "D7 D8 D9 D10 DJ DQ DK DA";
        let low = |s: char| format!("{s}2 {s}3 {s}4 {s}5 {s}6");
        let expect = [
            (Pack::P25_7, 25, format!("{clubs} {spades} {hearts} D7")),
            (Pack::P25_A, 25, format!("{clubs} {spades} {hearts} DA")),
            (Pack::P32, 32, format!("{clubs} {spades} {hearts} {diamonds}")),
            (
                Pack::P52,
                52,
                format!("{} {clubs} {} {spades} {} {hearts} {} {diamonds}", low('C'), low('S'), low('H'), low('D')),
            ),
        ];
        for (pack, len, codes) in expect {
            let mut listed = cards(&codes);
            listed.sort();
            assert_eq!(pack.size(), len, "{pack}");
            assert_eq!(pack.cards().len(), len, "{pack}");
            assert_eq!(pack.cards().iter().collect::<Vec<_>>(), listed, "{pack}");
            assert_eq!(pack.order(), &listed[..], "{pack}: the shuffle order is the card order");
            for c in CardSet::ALL {
                assert_eq!(pack.contains(c), listed.contains(&c), "{pack} {c}");
            }
            let by_suit = Suit::ALL.iter().fold(CardSet::EMPTY, |all, &s| all.union(pack.suit_cards(s)));
            assert_eq!(by_suit, pack.cards());
        }
        assert_eq!(Pack::P25_7.suit_cards(Suit::Diamonds).iter().collect::<Vec<_>>(), vec![Card::DIAMOND_SEVEN]);
        assert_eq!(Pack::P25_A.suit_cards(Suit::Diamonds).iter().collect::<Vec<_>>(), vec![card("DA")]);
        assert_eq!(Pack::P25_7.suit_cards(Suit::Hearts).highest(), Some(card("HA")));
        assert_eq!(Pack::P25_7.suit_cards(Suit::Hearts).lowest(), Some(card("H7")));
        assert_eq!(Pack::P52.suit_cards(Suit::Hearts).lowest(), Some(card("H2")));
        assert_eq!(CardSet::PACK, Pack::P25_7.cards());
    }

    #[test]
    fn prisdorf_shuffle_order_is_clubs_spades_hearts_seven_up_then_the_diamond_seven() {
        let order: Vec<String> = Pack::P25_7.order().iter().map(|c| c.code()).collect();
        assert_eq!(order.join(" "), "C7 C8 C9 C10 CJ CQ CK CA S7 S8 S9 S10 SJ SQ SK SA H7 H8 H9 H10 HJ HQ HK HA D7");
        assert_eq!(&P25_7_ORDER[..], Pack::P25_7.order());
    }

    #[test]
    fn constants_hold_what_they_name() {
        assert_eq!(CardSet::SEVENS.len(), 4);
        assert!(CardSet::SEVENS.iter().all(|c| c.rank() == Rank::Seven));
        assert_eq!(CardSet::ACES.len(), 4);
        assert!(CardSet::ACES.iter().all(|c| c.rank() == Rank::Ace));
        assert_eq!(CardSet::ACES.intersection(CardSet::PACK).len(), 3);
        assert_eq!(CardSet::COURT.len(), 12);
        assert!(CardSet::COURT.iter().all(|c| c.rank().is_court()));
        assert_eq!(CardSet::COURT.intersection(CardSet::PACK).len(), 9);
        assert_eq!(CardSet::ALL.iter().filter(|c| c.rank().is_court()).count(), 12);
    }

    #[test]
    fn ranks_order_ace_high_and_ten_below_jack() {
        let ten = Card::new(Suit::Hearts, Rank::Ten);
        let jack = Card::new(Suit::Hearts, Rank::Jack);
        let ace = Card::new(Suit::Hearts, Rank::Ace);
        let two = Card::new(Suit::Hearts, Rank::Two);
        assert!(two < ten && ten < jack && jack < ace);
        assert_eq!(Suit::Hearts.all_cards().highest(), Some(ace));
        assert_eq!(Suit::Hearts.all_cards().lowest(), Some(two));
        assert!(Rank::Two < Rank::Seven && Rank::Six < Rank::Seven);
        assert_eq!(serde_json::to_string(&Rank::Two).unwrap(), "\"two\"");
        assert_eq!(serde_json::to_string(&Rank::Seven).unwrap(), "\"seven\"");
    }

    #[test]
    fn card_set_json_is_codes_lowest_first() {
        let set: CardSet = serde_json::from_str(r#"["DA","H2","CA","D7","S10","C2"]"#).unwrap();
        assert_eq!(serde_json::to_string(&set).unwrap(), r#"["C2","CA","S10","H2","D7","DA"]"#);
        let all = serde_json::to_string(&Pack::P52.cards()).unwrap();
        let codes: Vec<String> = CardSet::ALL.iter().map(|c| format!("\"{c}\"")).collect();
        assert_eq!(all, format!("[{}]", codes.join(",")));
        assert!(all.starts_with(r#"["C2","C3","C4","C5","C6","C7","C8","C9","C10","CJ","CQ","CK","CA","S2""#));
        assert!(all.ends_with(r#""DJ","DQ","DK","DA"]"#));
        let prisdorf = serde_json::to_string(&CardSet::PACK).unwrap();
        assert!(prisdorf.starts_with(r#"["C7","C8","C9","C10","CJ","CQ","CK","CA","S7""#), "{prisdorf}");
        assert!(prisdorf.ends_with(r#""HK","HA","D7"]"#), "{prisdorf}");
    }

    #[test]
    fn card_set_json_rejects_duplicates() {
        let set: CardSet = serde_json::from_str(r#"["CA","D7"]"#).unwrap();
        assert_eq!(set.len(), 2);
        assert!(serde_json::from_str::<CardSet>(r#"["CA","CA"]"#).is_err());
    }

    #[test]
    fn siebener_fips_needs_all_sevens_and_an_ace() {
        let ace = Card::new(Suit::Spades, Rank::Ace);
        let king = Card::new(Suit::Spades, Rank::King);
        assert!(CardSet::SEVENS.union(ace.set()).has_siebener_fips());
        assert!(!CardSet::SEVENS.union(king.set()).has_siebener_fips());
        assert!(!CardSet::SEVENS.difference(Card::DIAMOND_SEVEN.set()).union(ace.set()).has_siebener_fips());
    }
}
