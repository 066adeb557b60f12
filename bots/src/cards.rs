//! Card masks: the bots work on plain `u32` bit masks numbered as in the rules crate (clubs 7..A
//! are bits 0..8, spades 8..16, hearts 16..24, the seven of diamonds bit 24), so that a set of
//! cards converts to and from [`CardSet`] for free.

use fipsen_rules::{Card, CardSet, Suit};

/// Every card of the pack.
pub const PACK: u32 = (1 << 25) - 1;
/// The seven of diamonds.
pub const D7: u32 = 1 << 24;
/// Court cards (K, Q, J).
pub const COURT: u32 = CardSet::COURT.bits();
/// The three aces.
pub const ACES: u32 = CardSet::ACES.bits();

/// The cards of suit number `s` (0 clubs, 1 spades, 2 hearts, 3 diamonds).
pub const SUIT_MASKS: [u32; 4] = [0xff, 0xff << 8, 0xff << 16, D7];

/// The suit number (0..4) of a card index.
#[inline]
pub const fn suit_of(card: u8) -> usize {
    (card >> 3) as usize
}

/// The mask of the suit of a card index.
#[inline]
pub const fn suit_mask_of(card: u8) -> u32 {
    SUIT_MASKS[suit_of(card)]
}

/// The rank of a card within its suit, 0 (seven) to 7 (ace).
#[inline]
pub const fn rank_of(card: u8) -> u8 {
    card & 7
}

/// The highest card index in a non-empty mask.
#[inline]
pub const fn highest(mask: u32) -> u8 {
    (31 - mask.leading_zeros()) as u8
}

/// The lowest card index in a non-empty mask.
#[inline]
pub const fn lowest(mask: u32) -> u8 {
    mask.trailing_zeros() as u8
}

/// The trump cards when `suit` is named: its cards, or the seven of diamonds alone in Ruten.
pub const fn trump_mask(suit: Suit) -> u32 {
    suit.cards().bits()
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

/// The card of an index (0..25).
pub fn card(index: u8) -> Card {
    Card::from_index(index).unwrap_or(Card::DIAMOND_SEVEN)
}

/// Iterates the card indices of a mask, lowest first.
#[derive(Debug, Clone, Copy)]
pub struct Bits(pub u32);

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
pub const fn winning_card(trick: u32, led: u8, trumps: u32) -> u8 {
    let t = trick & trumps;
    if t != 0 { highest(t) } else { highest(trick & suit_mask_of(led)) }
}

/// Whether `card` played now would beat the trick's current winner `best`.
#[inline]
pub const fn beats(card: u8, best: u8, trumps: u32) -> bool {
    let ct = trumps & (1 << card) != 0;
    let bt = trumps & (1 << best) != 0;
    if ct != bt { ct } else { suit_of(card) == suit_of(best) && card > best }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fipsen_rules::{Play, Rank, Seat, trick_winner};

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
        assert!(beats(c("D7"), c("CA"), D7));
        assert!(!beats(c("D7"), c("CA"), SUIT_MASKS[1]));
    }
}
