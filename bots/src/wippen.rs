//! A simple greedy Wippen bot, the same at every level for now: it captures the most valuable
//! cards it can (sweeps, ♦10, ♠2, aces and spades first), else builds, else discards its
//! lowest card that scores nothing.

use fipsen_rules::wippen::{Move, Position, SeriesView, value};
use fipsen_rules::{Card, CardSet, Rank, Suit};

use crate::bot::Level;

/// A Wippen bot.
#[derive(Debug, Clone)]
pub struct Bot {
    level: Level,
    seed: u64,
}

/// What capturing a card is worth to the greedy bot.
fn card_worth(card: Card) -> i32 {
    let mut w = 1;
    if card == Card::new(Suit::Diamonds, Rank::Ten) {
        w += 6;
    }
    if card == Card::new(Suit::Spades, Rank::Two) {
        w += 4;
    }
    if card.rank() == Rank::Ace {
        w += 3;
    }
    if card.suit() == Suit::Spades {
        w += 1;
    }
    w
}

impl Bot {
    /// A bot of `level`; `seed` is kept for the stronger bots to come.
    pub fn new(level: Level, seed: u64) -> Bot {
        Bot { level, seed }
    }

    /// The bot's level.
    pub fn level(&self) -> Level {
        self.level
    }

    /// The bot's move for the viewer of `view`, if the view offers one.
    pub fn choose_in_series(&mut self, view: &SeriesView) -> Option<Move> {
        let deal = &view.deal;
        if deal.prompt.is_empty() || view.over {
            return None;
        }
        let seat = deal.viewer?;
        let hand = deal.hand?;
        let _ = self.seed;
        let pos = Position { rules: &deal.rules, table: &deal.table, hand, seat };
        let raw = pos.raw();
        let all: u64 = if deal.table.len() >= 64 { u64::MAX } else { (1u64 << deal.table.len()) - 1 };
        let pile_worth = |mask: u64| -> i32 {
            (0..deal.table.len())
                .filter(|i| mask & (1 << i) != 0)
                .flat_map(|i| deal.table[i].cards())
                .map(card_worth)
                .sum()
        };
        // The best capture: greedy packing of disjoint groups, the promised buildings first.
        let mut best: Option<(i32, Card, u64)> = None;
        for rc in &raw {
            if rc.capture.is_empty() {
                continue;
            }
            let mut groups = rc.capture.clone();
            groups.sort_by_key(|&m| -pile_worth(m));
            let mut used = rc.must_include;
            for m in groups {
                if m & used == 0 {
                    used |= m;
                }
            }
            if used == 0 {
                continue;
            }
            let mut score = pile_worth(used) + card_worth(rc.card);
            if used == all {
                score += 8;
            }
            if best.is_none_or(|(s, _, _)| score > s) {
                best = Some((score, rc.card, used));
            }
        }
        if let Some((_, card, used)) = best
            && let Some(mv) = pos.options_mask(card, used).into_iter().find(|m| matches!(m, Move::Capture { .. }))
        {
            return Some(mv);
        }
        // A build of one core: the one holding the most.
        let mut best_build: Option<(i32, Card, u8, u64)> = None;
        for rc in &raw {
            for b in &rc.builds {
                for &core in &b.cores {
                    if core == 0 {
                        continue;
                    }
                    let score = pile_worth(core) + i32::from(b.value);
                    if best_build.is_none_or(|(s, ..)| score > s) {
                        best_build = Some((score, rc.card, b.value, core));
                    }
                }
            }
        }
        if let Some((_, card, v, core)) = best_build
            && let Some(mv) =
                pos.options_mask(card, core).into_iter().find(|m| matches!(m, Move::Build { value, .. } if *value == v))
        {
            return Some(mv);
        }
        // The discard of least worth.
        let discard = raw
            .iter()
            .filter(|rc| rc.discard)
            .min_by_key(|rc| (card_worth(rc.card), value(rc.card)))
            .map(|rc| Move::Discard { card: rc.card });
        discard.or_else(|| pos.simple_moves().into_iter().next())
    }
}

/// The cards of a set worth the most to capture, for tests.
pub fn worth(cards: CardSet) -> i32 {
    cards.iter().map(card_worth).sum()
}
