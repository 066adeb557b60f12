//! Card masks: the bots work on plain `u64` bit masks numbered as in the rules crate (bit
//! `suit × 16 + rank`, the rank counting from 0 for the two to 12 for the ace, suits in the order
//! clubs, spades, hearts, diamonds), so that a set of cards converts to and from [`CardSet`] for
//! free.
//!
//! The play itself (following suit, who takes a trick) needs only the whole suits
//! ([`suit_mask_of`]): every mask it meets holds cards of the pack being played. What depends on
//! the pack — which cards are unseen, how strong a hand is — takes a [`PackMasks`]:
//! [`PackMasks::PRISDORF`] (25 cards, the seven of diamonds alone) or [`PackMasks::P32`]
//! (Großenaspe's 32 cards). [`PACK`], [`SUIT_MASKS`], [`COURT`] and [`ACES`] are Prisdorf's.

use fipsen_rules::{Card, CardSet, Deal, Pack, Suit};

/// The cards of one pack as masks: what the sampling and the rules of thumb need to know
/// about the pack a game is played with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PackMasks {
    /// Every card of the pack.
    pub cards: u64,
    /// The pack's cards of each suit (clubs, spades, hearts, diamonds).
    pub suits: [u64; 4],
    /// The pack's court cards (K, Q, J).
    pub court: u64,
    /// The pack's aces.
    pub aces: u64,
}

impl PackMasks {
    /// The masks of a pack of the rules crate.
    pub const fn of(pack: Pack) -> PackMasks {
        let cards = pack.cards().bits();
        PackMasks {
            cards,
            suits: [
                pack.suit_cards(Suit::Clubs).bits(),
                pack.suit_cards(Suit::Spades).bits(),
                pack.suit_cards(Suit::Hearts).bits(),
                pack.suit_cards(Suit::Diamonds).bits(),
            ],
            court: CardSet::COURT.bits() & cards,
            aces: CardSet::ACES.bits() & cards,
        }
    }

    /// Prisdorf's 25 cards ([`Deal::PACK`]).
    pub const PRISDORF: PackMasks = PackMasks::of(Deal::PACK);
    /// The 32-card pack of Großenaspe.
    pub const P32: PackMasks = PackMasks::of(Pack::P32);

    /// Whether suit number `s` holds a single card in this pack (Prisdorf's seven of diamonds,
    /// Mecklenburg's ace of diamonds): naming it trumps makes that card the only trump.
    #[inline]
    pub const fn lone(&self, s: usize) -> bool {
        self.suits[s].count_ones() == 1
    }
}

/// Every card of the pack.
pub const PACK: u64 = Deal::PACK.cards().bits();
/// The seven of diamonds.
pub const D7: u64 = Card::DIAMOND_SEVEN.set().bits();
/// The pack's court cards (K, Q, J).
pub const COURT: u64 = CardSet::COURT.bits() & PACK;
/// The pack's aces (three: it has no ace of diamonds).
pub const ACES: u64 = CardSet::ACES.bits() & PACK;

/// The pack's cards of suit number `s` (0 clubs, 1 spades, 2 hearts, 3 diamonds: the seven).
pub const SUIT_MASKS: [u64; 4] = [
    Deal::PACK.suit_cards(Suit::Clubs).bits(),
    Deal::PACK.suit_cards(Suit::Spades).bits(),
    Deal::PACK.suit_cards(Suit::Hearts).bits(),
    Deal::PACK.suit_cards(Suit::Diamonds).bits(),
];

/// The suit number (0..4) of a card index.
#[inline]
pub const fn suit_of(card: u8) -> usize {
    (card >> 4) as usize
}

/// Every card of suit number `s`, two to ace, in any pack.
#[inline]
pub const fn whole_suit(s: usize) -> u64 {
    0x1fff << (16 * s)
}

/// The mask of the whole suit of a card index (all thirteen ranks: intersected with cards of
/// one pack, it gives that pack's cards of the suit).
#[inline]
pub const fn suit_mask_of(card: u8) -> u64 {
    whole_suit(suit_of(card))
}

/// The rank of a card within its suit, 0 (two) to 12 (ace); the seven is 5.
#[inline]
pub const fn rank_of(card: u8) -> u8 {
    card & 15
}

/// The highest card index in a non-empty mask.
#[inline]
pub const fn highest(mask: u64) -> u8 {
    (63 - mask.leading_zeros()) as u8
}

/// The lowest card index in a non-empty mask.
#[inline]
pub const fn lowest(mask: u64) -> u8 {
    mask.trailing_zeros() as u8
}

/// The trump cards when `suit` is named: the pack's cards of that suit (the seven of diamonds
/// alone in Ruten).
pub const fn trump_mask(suit: Suit) -> u64 {
    SUIT_MASKS[suit_index(suit)]
}

/// The suit number used by the masks.
pub const fn suit_index(suit: Suit) -> usize {
    match suit {
        Suit::Clubs => 0,
        Suit::Spades => 1,
        Suit::Hearts => 2,
        Suit::Diamonds => 3,
    }
}

/// The suit with that number.
pub const fn suit_from_index(i: usize) -> Suit {
    match i {
        0 => Suit::Clubs,
        1 => Suit::Spades,
        2 => Suit::Hearts,
        _ => Suit::Diamonds,
    }
}

/// The card of an index.
pub fn card(index: u8) -> Card {
    Card::from_index(index).unwrap_or(Card::DIAMOND_SEVEN)
}

/// A mask of card indices (for tests and examples).
pub fn mask_of(cards: impl IntoIterator<Item = u8>) -> u64 {
    cards.into_iter().fold(0, |m, c| m | 1 << c)
}

/// The same bits in each of the four suits.
const fn in_every_suit(bits: u64) -> u64 {
    bits * (1 | 1 << 16 | 1 << 32 | 1 << 48)
}

/// A mask packed tight, one to one: the cards from seven to ace take 8 bits a suit (bits 0..32,
/// clubs first), the cards from two to six 5 bits a suit above them (bits 32..52).
///
/// The cards of Prisdorf's pack land on bits 0..25 in the order of the pack, so the bots' seeds,
/// which hash packed masks, are the same as when the bots numbered the 25 cards 0..25: a bot's
/// seeded choices stay what they were.
#[inline]
pub const fn packed(mask: u64) -> u64 {
    let high = mask >> 5;
    let high = (high & 0xff) | (high >> 8 & 0xff00) | (high >> 16 & 0xff_0000) | (high >> 24 & 0xff00_0000);
    let low = mask & in_every_suit(0x1f);
    let low = (low & 0x1f) | (low >> 11 & 0x3e0) | (low >> 22 & 0x7c00) | (low >> 33 & 0xf_8000);
    high | low << 32
}

/// The bit of a card index in a [`packed`] mask.
#[inline]
pub const fn packed_index(card: u8) -> u8 {
    packed(1 << card).trailing_zeros() as u8
}

/// Iterates the card indices of a mask, lowest first.
#[derive(Debug, Clone, Copy)]
pub struct Bits(pub u64);

impl Iterator for Bits {
    type Item = u8;
    #[inline]
    fn next(&mut self) -> Option<u8> {
        if self.0 == 0 {
            return None;
        }
        let i = self.0.trailing_zeros() as u8;
        self.0 &= self.0 - 1;
        Some(i)
    }
}

/// The winning card of a trick given as the mask of its cards and the card led: the highest
/// trump, else the highest card of the suit led.
#[inline]
pub const fn winning_card(trick: u64, led: u8, trumps: u64) -> u8 {
    let t = trick & trumps;
    if t != 0 { highest(t) } else { highest(trick & suit_mask_of(led)) }
}

/// Whether `card` played now would beat the trick's current winner `best`.
#[inline]
pub const fn beats(card: u8, best: u8, trumps: u64) -> bool {
    let ct = trumps & (1 << card) != 0;
    let bt = trumps & (1 << best) != 0;
    if ct != bt { ct } else { suit_of(card) == suit_of(best) && card > best }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fipsen_rules::{Pack, Play, Rank, Seat, trick_winner};

    fn c(s: &str) -> u8 {
        s.parse::<Card>().unwrap().index()
    }

    #[test]
    fn winning_card_matches_the_rules_crate() {
        // Every 3-card trick of a few suits and every trump choice.
        let cards: Vec<u8> = ["C7", "CA", "S10", "SQ", "H9", "D7", "CK"].iter().map(|s| c(s)).collect();
        for &a in &cards {
            for &b in &cards {
                for &d in &cards {
                    if a == b || b == d || a == d {
                        continue;
                    }
                    for suit in Suit::ALL {
                        let plays: Vec<Play> = [a, b, d]
                            .iter()
                            .enumerate()
                            .map(|(i, &x)| Play { seat: Seat(i as u8), card: card(x) })
                            .collect();
                        let expected = trick_winner(&plays, suit).0 as usize;
                        let mask = (1 << a) | (1 << b) | (1 << d);
                        let won = winning_card(mask, a, trump_mask(suit));
                        assert_eq!(won, [a, b, d][expected], "{plays:?} trumps {suit:?}");
                    }
                }
            }
        }
        assert_eq!(rank_of(c("HA")), Rank::Ace as u8);
        assert_eq!(rank_of(c("H7")), Rank::Seven as u8);
        assert!(beats(c("D7"), c("CA"), D7));
        assert!(!beats(c("D7"), c("CA"), SUIT_MASKS[1]));
    }

    #[test]
    fn masks_hold_the_packs_cards() {
        assert_eq!(PACK.count_ones(), 25);
        assert_eq!(SUIT_MASKS.iter().fold(0, |a, m| a | m), PACK);
        assert_eq!(SUIT_MASKS[3], D7);
        assert_eq!(COURT.count_ones(), 9);
        assert_eq!(ACES.count_ones(), 3);
        for (i, &m) in SUIT_MASKS.iter().enumerate() {
            assert_eq!(m, Pack::P25_7.suit_cards(suit_from_index(i)).bits());
            assert!(Bits(m).all(|x| suit_of(x) == i));
        }
    }

    #[test]
    fn packing_is_one_to_one_and_numbers_prisdorfs_pack_in_order() {
        for (i, card) in Pack::P25_7.order().iter().enumerate() {
            assert_eq!(usize::from(packed_index(card.index())), i, "{card}");
        }
        assert_eq!(packed(PACK), (1 << 25) - 1);
        assert_eq!(packed(Pack::P32.cards().bits()), u64::from(u32::MAX));
        assert_eq!(packed(CardSet::ALL.bits()), (1 << 52) - 1);
        let mut seen = 0u64;
        for card in CardSet::ALL {
            let bit = packed(card.set().bits());
            assert_eq!(bit.count_ones(), 1, "{card}");
            assert_eq!(seen & bit, 0, "{card}");
            seen |= bit;
        }
    }
}
