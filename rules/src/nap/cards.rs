//! Nap's cards: the four suits of the shared [`Card`] type, and the joker a table may add as the
//! highest trump (docs/rules/nap.md#n1-cards-and-seats).

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::card::{Card, CardSet, ParseCardError, Rank, Suit};
use crate::seat::Seat;

/// One card of a Nap pack: a card of the four suits, or the joker.
///
/// In JSON the card's code (`"HA"`, `"S10"`), and `"JK"` for the joker.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum NapCard {
    /// A card of one of the four suits.
    Card(Card),
    /// The joker: the highest trump; in a misère the only one.
    Joker,
}

impl NapCard {
    /// The joker's code.
    pub const JOKER_CODE: &'static str = "JK";

    /// The suit the card belongs to when `trumps` are trumps: its own, or the trump suit for
    /// the joker (none in a misère).
    pub fn suit_under(self, trumps: Option<Suit>) -> Option<Suit> {
        match self {
            NapCard::Card(card) => Some(card.suit()),
            NapCard::Joker => trumps,
        }
    }

    /// The card's code, as in JSON.
    pub fn code(self) -> String {
        match self {
            NapCard::Card(card) => card.code(),
            NapCard::Joker => NapCard::JOKER_CODE.to_owned(),
        }
    }
}

impl From<Card> for NapCard {
    fn from(card: Card) -> Self {
        NapCard::Card(card)
    }
}

impl fmt::Debug for NapCard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NapCard::Card(card) => fmt::Debug::fmt(card, f),
            NapCard::Joker => f.write_str(NapCard::JOKER_CODE),
        }
    }
}

impl fmt::Display for NapCard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self, f)
    }
}

impl FromStr for NapCard {
    type Err = ParseCardError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        if s == NapCard::JOKER_CODE { Ok(NapCard::Joker) } else { s.parse().map(NapCard::Card) }
    }
}

impl Serialize for NapCard {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            NapCard::Card(card) => card.serialize(serializer),
            NapCard::Joker => serializer.serialize_str(NapCard::JOKER_CODE),
        }
    }
}

impl<'de> Deserialize<'de> for NapCard {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let s = <std::borrow::Cow<'de, str>>::deserialize(deserializer)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(feature = "schema")]
impl schemars::JsonSchema for NapCard {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "NapCard".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "type": "string",
            "description": "A Nap card: suit letter (C, S, H, D) then rank (A K Q J 10 9 … 2), or JK for the joker.",
            "pattern": "^([CSHD](A|K|Q|J|10|9|8|7|6|5|4|3|2)|JK)$"
        })
    }
}

/// A set of Nap cards: a [`CardSet`] and whether the joker is in it. In JSON an array of codes,
/// the suit cards lowest first, then `"JK"`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct NapCards {
    /// The suit cards.
    pub cards: CardSet,
    /// Whether the joker is in the set.
    pub joker: bool,
}

impl NapCards {
    /// No card.
    pub const EMPTY: NapCards = NapCards { cards: CardSet::EMPTY, joker: false };

    /// How many cards.
    pub const fn len(self) -> usize {
        self.cards.len() + self.joker as usize
    }

    /// Whether there is no card.
    pub const fn is_empty(self) -> bool {
        self.cards.is_empty() && !self.joker
    }

    /// Whether `card` is in the set.
    pub const fn contains(self, card: NapCard) -> bool {
        match card {
            NapCard::Card(card) => self.cards.contains(card),
            NapCard::Joker => self.joker,
        }
    }

    /// Whether every card of `other` is in the set.
    pub const fn contains_all(self, other: NapCards) -> bool {
        self.cards.contains_all(other.cards) && (self.joker || !other.joker)
    }

    /// Adds a card.
    pub fn insert(&mut self, card: NapCard) {
        match card {
            NapCard::Card(card) => self.cards.insert(card),
            NapCard::Joker => self.joker = true,
        }
    }

    /// Removes a card.
    pub fn remove(&mut self, card: NapCard) {
        match card {
            NapCard::Card(card) => self.cards.remove(card),
            NapCard::Joker => self.joker = false,
        }
    }

    /// The cards of both sets.
    pub const fn union(self, other: NapCards) -> NapCards {
        NapCards { cards: self.cards.union(other.cards), joker: self.joker || other.joker }
    }

    /// The cards of this set that are not in `other`.
    pub const fn difference(self, other: NapCards) -> NapCards {
        NapCards { cards: self.cards.difference(other.cards), joker: self.joker && !other.joker }
    }

    /// The cards common to both sets.
    pub const fn intersection(self, other: NapCards) -> NapCards {
        NapCards { cards: self.cards.intersection(other.cards), joker: self.joker && other.joker }
    }

    /// The cards that belong to `suit` when `trumps` are trumps (the joker belongs to the trump
    /// suit).
    pub fn of_suit(self, suit: Suit, trumps: Option<Suit>) -> NapCards {
        NapCards { cards: self.cards.of_suit(suit), joker: self.joker && trumps == Some(suit) }
    }

    /// The cards, the suit cards lowest first, then the joker.
    pub fn iter(self) -> impl Iterator<Item = NapCard> {
        self.cards.iter().map(NapCard::Card).chain(self.joker.then_some(NapCard::Joker))
    }

    /// Calls `f` with every subset of `1..=max` cards (the purchases a hand may make).
    pub(crate) fn for_each_subset(self, max: usize, f: &mut impl FnMut(NapCards)) {
        let all: Vec<NapCard> = self.iter().collect();
        let n = all.len();
        for mask in 1u32..(1 << n) {
            if mask.count_ones() as usize > max {
                continue;
            }
            let set = (0..n).filter(|i| mask & (1 << i) != 0).map(|i| all[i]).collect();
            f(set);
        }
    }
}

impl FromIterator<NapCard> for NapCards {
    fn from_iter<I: IntoIterator<Item = NapCard>>(iter: I) -> Self {
        let mut set = NapCards::EMPTY;
        for card in iter {
            set.insert(card);
        }
        set
    }
}

impl From<CardSet> for NapCards {
    fn from(cards: CardSet) -> Self {
        NapCards { cards, joker: false }
    }
}

impl fmt::Debug for NapCards {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl Serialize for NapCards {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.iter())
    }
}

impl<'de> Deserialize<'de> for NapCards {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let cards = Vec::<NapCard>::deserialize(deserializer)?;
        let set: NapCards = cards.iter().copied().collect();
        if set.len() != cards.len() {
            return Err(serde::de::Error::custom("a card appears twice in a set"));
        }
        Ok(set)
    }
}

#[cfg(feature = "schema")]
impl schemars::JsonSchema for NapCards {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "NapCards".into()
    }

    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        let card = generator.subschema_for::<NapCard>();
        schemars::json_schema!({
            "type": "array",
            "description": "A set of distinct Nap cards, the suit cards lowest first, then JK.",
            "items": card,
            "uniqueItems": true,
            "maxItems": 53
        })
    }
}

/// The lowest rank of the stripped pack at a table of `players` (docs/rules/nap.md#n1-cards-and-seats):
/// 24 cards (A–9) for two or three, 28 (A–8) for four, 32 (A–7) for five, 36 (A–6) for six,
/// 40 (A–5) for seven.
pub const fn stripped_lowest(players: u8) -> Rank {
    match players {
        0..=3 => Rank::Nine,
        4 => Rank::Eight,
        5 => Rank::Seven,
        6 => Rank::Six,
        _ => Rank::Five,
    }
}

/// The suit cards from `lowest` up to the ace in all four suits.
pub fn cards_from(lowest: Rank) -> CardSet {
    Suit::ALL
        .iter()
        .flat_map(|&suit| Rank::ALL.iter().filter(move |&&r| r >= lowest).map(move |&rank| Card::new(suit, rank)))
        .collect()
}

/// A card played to a trick.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "NapPlay"))]
pub struct NapPlay {
    /// Who played it.
    pub seat: Seat,
    /// The card.
    pub card: NapCard,
}

/// Who takes a complete (or partial) trick (docs/rules/nap.md#n5-the-play): the joker if it
/// is in it; else the best trump; else the best card of the suit led.
pub fn trick_winner(trick: &[NapPlay], trumps: Option<Suit>) -> Option<Seat> {
    let first = trick.first()?;
    if let Some(joker) = trick.iter().find(|p| p.card == NapCard::Joker) {
        return Some(joker.seat);
    }
    let best_of = |suit: Suit| {
        trick
            .iter()
            .filter_map(|p| match p.card {
                NapCard::Card(card) if card.suit() == suit => Some((card, p.seat)),
                _ => None,
            })
            .max()
            .map(|(_, seat)| seat)
    };
    if let Some(winner) = trumps.and_then(best_of) {
        return Some(winner);
    }
    // Without a joker in the trick, the lead is a suit card.
    first.card.suit_under(trumps).and_then(best_of)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn play(seat: u8, code: &str) -> NapPlay {
        NapPlay { seat: Seat(seat), card: code.parse().unwrap() }
    }

    #[test]
    fn codes_read_back_and_the_joker_is_jk() {
        for code in ["HA", "S10", "C2", "JK"] {
            let card: NapCard = code.parse().unwrap();
            assert_eq!(card.code(), code);
            assert_eq!(serde_json::to_string(&card).unwrap(), format!("\"{code}\""));
        }
        assert!("XX".parse::<NapCard>().is_err());
        let set: NapCards = serde_json::from_str(r#"["JK","HA","C2"]"#).unwrap();
        assert_eq!(serde_json::to_string(&set).unwrap(), r#"["C2","HA","JK"]"#);
        assert!(serde_json::from_str::<NapCards>(r#"["HA","HA"]"#).is_err());
    }

    #[test]
    fn stripped_packs_hold_enough_for_every_table() {
        for (players, size) in [(2, 24), (3, 24), (4, 28), (5, 32), (6, 36), (7, 40)] {
            let pack = cards_from(stripped_lowest(players));
            assert_eq!(pack.len(), size, "{players} players");
            assert!(pack.len() > 5 * usize::from(players), "a stock is left");
        }
        assert_eq!(cards_from(Rank::Two), CardSet::ALL);
    }

    #[test]
    fn tricks_go_to_the_joker_then_the_best_trump_then_the_best_of_the_suit_led() {
        let hearts = Some(Suit::Hearts);
        let trick = [play(0, "S9"), play(1, "SA"), play(2, "H2"), play(3, "SK")];
        assert_eq!(trick_winner(&trick, hearts), Some(Seat(2)));
        assert_eq!(trick_winner(&trick, None), Some(Seat(1)));
        let trick = [play(0, "S9"), play(1, "JK"), play(2, "HA")];
        assert_eq!(trick_winner(&trick, hearts), Some(Seat(1)));
        assert_eq!(trick_winner(&trick, None), Some(Seat(1)), "the joker is the only trump of a misère");
        let trick = [play(0, "C3"), play(1, "DA"), play(2, "C4")];
        assert_eq!(trick_winner(&trick, hearts), Some(Seat(2)), "a card of another suit never wins");
        assert_eq!(trick_winner(&[], hearts), None);
    }
}
