//! Quick judgements without search: a hand's strength in tricks for a trump suit, the best cards
//! to keep, and the simple card play of the easy bot. The stronger bots use these only to pick
//! candidates worth searching.

use crate::cards::{Bits, PackMasks, beats, highest, lowest, rank_of, suit_of, whole_suit, winning_card};

/// A rough count of the tricks `hand` takes with trump suit number `trump` in Prisdorf's pack
/// (3 is Ruten).
pub fn strength(hand: u64, trump: usize) -> f64 {
    strength_in(&PackMasks::PRISDORF, hand, trump)
}

/// A rough count of the tricks `hand` takes with trump suit number `trump` in `pack`. A suit of
/// a single card (Prisdorf's seven of diamonds) counts as a lone trump when named, and as a
/// small extra otherwise.
pub fn strength_in(pack: &PackMasks, hand: u64, trump: usize) -> f64 {
    let trumps = pack.suits[trump];
    let lone_trump = pack.lone(trump);
    let mut s = 0.0;
    let held_trumps = hand & trumps;
    let count = held_trumps.count_ones();
    if lone_trump {
        if held_trumps != 0 {
            s += 1.0;
        }
    } else {
        s += top_strength(pack, held_trumps, trump, [1.0, 0.85, 0.7], 0.4);
        if count >= 3 {
            s += 0.3 * f64::from(count - 2);
        }
    }
    for side in 0..4 {
        if side == trump || pack.lone(side) {
            continue;
        }
        let cards = hand & pack.suits[side];
        if cards == 0 {
            if !lone_trump && count >= 2 {
                s += 0.25;
            }
            continue;
        }
        // Side winners are safer with a lone trump: only that card can trump them.
        let safety = if lone_trump { 1.0 } else { 0.8 };
        s += safety * top_strength(pack, cards, side, [1.0, 0.7, 0.45], 0.03);
    }
    for side in 0..4 {
        if !lone_trump && side != trump && pack.lone(side) && hand & pack.suits[side] != 0 {
            s += 0.1;
        }
    }
    s
}

/// The value of the top cards of one suit: full value for a card that is the highest left, less
/// for one with a single higher card missing, and so on.
fn top_strength(pack: &PackMasks, cards: u64, suit: usize, by_gap: [f64; 3], low: f64) -> f64 {
    let mut s = 0.0;
    let mut missing_above = 0usize;
    let mut rest = pack.suits[suit];
    while rest != 0 {
        // The pack's cards of the suit, highest first.
        let c = highest(rest);
        rest &= !(1 << c);
        if cards & (1 << c) != 0 {
            let held_above = (cards >> c).count_ones() as usize - 1;
            // Each higher card held covers one missing higher card.
            let gap = missing_above.saturating_sub(held_above);
            s += if gap < 3 { by_gap[gap] } else { low };
        } else {
            missing_above += 1;
        }
    }
    s
}

/// Calls `f` with every `k`-card subset of `cards`.
fn for_each_keep(cards: u64, k: usize, mut f: impl FnMut(u64)) {
    let list: Vec<u8> = Bits(cards).collect();
    let n = list.len();
    if n <= k {
        f(cards);
        return;
    }
    // Every k-subset of n positions (Gosper's hack).
    let mut subset: u32 = (1 << k) - 1;
    while subset < (1 << n) {
        let keep = list.iter().enumerate().filter(|(i, _)| subset & (1 << i) != 0).fold(0u64, |m, (_, &c)| m | 1 << c);
        f(keep);
        let low = subset & subset.wrapping_neg();
        let ripple = subset + low;
        subset = (((ripple ^ subset) >> 2) / low) | ripple;
    }
}

/// The `k` cards of `cards` that make the strongest hand for `trump`, and that strength.
pub fn best_keep(cards: u64, trump: usize, k: usize) -> (u64, f64) {
    best_keep_in(&PackMasks::PRISDORF, cards, trump, k)
}

/// [`best_keep`] in `pack`.
pub fn best_keep_in(pack: &PackMasks, cards: u64, trump: usize, k: usize) -> (u64, f64) {
    let mut best = (cards, f64::MIN);
    for_each_keep(cards, k, |keep| {
        let s = strength_in(pack, keep, trump);
        if s > best.1 {
            best = (keep, s);
        }
    });
    best
}

/// The `count` best keeps of `k` cards from `cards` for `trump`, strongest first.
pub fn top_keeps(cards: u64, trump: usize, k: usize, count: usize) -> Vec<(u64, f64)> {
    top_keeps_in(&PackMasks::PRISDORF, cards, trump, k, count)
}

/// [`top_keeps`] in `pack`.
pub fn top_keeps_in(pack: &PackMasks, cards: u64, trump: usize, k: usize, count: usize) -> Vec<(u64, f64)> {
    let mut all = Vec::new();
    for_each_keep(cards, k, |keep| all.push((keep, strength_in(pack, keep, trump))));
    all.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    all.truncate(count);
    all
}

/// The natural trump suit (clubs, spades or hearts) that makes `cards` strongest after keeping
/// `k` of them: (suit, cards kept, strength).
pub fn best_natural(cards: u64, k: usize) -> (usize, u64, f64) {
    best_natural_in(&PackMasks::PRISDORF, cards, k)
}

/// [`best_natural`] in `pack`: the best of its suits of more than one card.
pub fn best_natural_in(pack: &PackMasks, cards: u64, k: usize) -> (usize, u64, f64) {
    let mut best = (0, cards, f64::MIN);
    for suit in (0..4).filter(|&s| !pack.lone(s)) {
        let (keep, s) = best_keep_in(pack, cards, suit, k);
        if s > best.2 {
            best = (suit, keep, s);
        }
    }
    best
}

/// The easy bot's card: cheap rules of thumb.
/// `trick` is the current trick: each card in order, with whether its player is on the bot's
/// side (for the declarer: never).
pub fn easy_card(hand: u64, playable: u64, trick: &[(u8, bool)], trumps: u64, declarer: bool) -> u8 {
    if trick.is_empty() {
        let my_trumps = hand & trumps;
        if declarer && my_trumps != 0 {
            return highest(my_trumps);
        }
        let aces = playable & fipsen_rules::CardSet::ACES.bits() & !trumps;
        if aces != 0 {
            return lowest(aces);
        }
        // The lowest card of the longest plain suit.
        let mut best: Option<(u32, u8)> = None;
        for suit in 0..4 {
            let cards = playable & whole_suit(suit) & !trumps;
            if cards == 0 {
                continue;
            }
            let len = cards.count_ones();
            if best.is_none_or(|(l, _)| len > l) {
                best = Some((len, lowest(cards)));
            }
        }
        return best.map_or_else(|| lowest(playable), |(_, c)| c);
    }
    let led = trick[0].0;
    let mut mask = 0u64;
    for &(c, _) in trick {
        mask |= 1 << c;
    }
    let best = winning_card(mask, led, trumps);
    let partner_winning = trick.iter().any(|&(c, partner)| c == best && partner);
    let cheapest = |cards: u64| {
        // The lowest card by rank, plain cards before trumps.
        Bits(cards).min_by_key(|&c| (trumps & (1 << c) != 0, rank_of(c), suit_of(c))).unwrap_or(lowest(playable))
    };
    if partner_winning {
        return cheapest(playable);
    }
    let winners: u64 = Bits(playable).filter(|&c| beats(c, best, trumps)).fold(0, |m, c| m | 1 << c);
    if winners != 0 {
        return cheapest(winners);
    }
    cheapest(playable)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::SUIT_MASKS;
    use fipsen_rules::Card;

    fn mask(cards: &[&str]) -> u64 {
        cards.iter().map(|s| 1u64 << s.parse::<Card>().unwrap().index()).fold(0, |a, b| a | b)
    }

    #[test]
    fn strength_prefers_top_trumps_and_keeps_them() {
        let strong = mask(&["CA", "CK", "CQ", "SA", "HA"]);
        let weak = mask(&["C7", "C8", "S9", "H10", "HJ"]);
        assert!(strength(strong, 0) > strength(weak, 0) + 3.0);
        assert!(strength(strong, 0) > strength(strong, 1));
        let seven = mask(&["CA", "CK", "CQ", "SA", "HA", "S7", "H8"]);
        let (keep, _) = best_keep(seven, 0, 5);
        assert_eq!(keep, strong);
        assert_eq!(best_natural(seven, 5).0, 0);
        assert_eq!(top_keeps(seven, 0, 5, 3).len(), 3);
    }

    #[test]
    fn easy_play_follows_simple_rules() {
        let trumps = SUIT_MASKS[0];
        let hand = mask(&["CA", "C7", "SA", "S8"]);
        let c = |s: &str| s.parse::<Card>().unwrap().index();
        assert_eq!(easy_card(hand, hand, &[], trumps, true), c("CA"));
        let spades = hand & SUIT_MASKS[1];
        // An opponent's spade king led: win with the ace.
        assert_eq!(easy_card(hand, spades, &[(c("SK"), false)], trumps, true), c("SA"));
        // The partner's king leads the trick: play low.
        assert_eq!(easy_card(hand, spades, &[(c("SQ"), false), (c("SK"), true)], trumps, false), c("S8"));
    }
}
