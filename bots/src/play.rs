//! Card play with hidden cards: deal the unseen cards many ways consistent with what the seat
//! knows, solve each deal exactly, and play the card with the best average.

use fipsen_rules::{Card, CardSet, DealView, Game, Suit};

use crate::cards::{card, rank_of};
use crate::knowledge::Layout;
use crate::solver::{CardValue, Position, Solver, Stakes};
use crate::table::{base_position, place, stakes};

/// The card with the best average score over `layouts` for the seat to play (the declarer
/// maximises his score, an opponent minimises it), with each card's average.
pub fn best_card(view: &DealView, layouts: &[Layout], solver: &mut Solver) -> Option<(Card, Vec<(Card, f64)>)> {
    let game: Game = view.game?;
    let suit = game.trumps.unwrap_or(Suit::Diamonds);
    let base = base_position(view, suit)?;
    let stakes = stakes(view, &game, suit);
    let declarer = view.viewer == view.declarer;
    if view.prompt.cards.is_empty() {
        return None;
    }
    Some(best_card_at(&base, &stakes, view.prompt.cards, declarer, layouts, solver))
}

/// The card of `legal` with the best average score over `layouts` from the position `base`
/// (hands from each layout) for the seat to play, the declarer if `declarer`; with each card's
/// average. Among equals the lowest card. `legal` must not be empty.
pub fn best_card_at(
    base: &Position,
    stakes: &Stakes,
    legal: CardSet,
    declarer: bool,
    layouts: &[Layout],
    solver: &mut Solver,
) -> (Card, Vec<(Card, f64)>) {
    let mut sums = [0.0f64; 64];
    let mut values: Vec<CardValue> = Vec::with_capacity(10);
    if legal.len() > 1 {
        for layout in layouts {
            let pos = place(base, layout);
            values.clear();
            solver.card_values(&pos, stakes, &mut values);
            for &(c, v) in &values {
                sums[usize::from(c)] += f64::from(v);
            }
        }
    }
    let n = layouts.len().max(1) as f64;
    let averages: Vec<(Card, f64)> = legal.iter().map(|c| (c, sums[usize::from(c.index())] / n)).collect();
    // Best average; among equals the lowest card (a card of no use should cost nothing).
    let chosen = averages.iter().copied().min_by(|a, b| {
        let (x, y) = if declarer { (b.1, a.1) } else { (a.1, b.1) };
        x.total_cmp(&y).then(rank_of(a.0.index()).cmp(&rank_of(b.0.index()))).then(a.0.cmp(&b.0))
    });
    (chosen.map_or_else(|| card(0), |c| c.0), averages)
}

/// Whether going on for Durch beats stopping, on average over `layouts`: going on is worth
/// twice the game's value if he takes every further trick, and loses four times it otherwise.
/// Returns (the average score going on, the score stopping).
pub fn durch_value(view: &DealView, layouts: &[Layout], solver: &mut Solver) -> Option<(f64, f64)> {
    let game = view.game?;
    let suit = game.trumps?;
    let base = base_position(view, suit)?;
    let value = f64::from(game.value());
    Some(durch_value_at(&base, value, 2.0, view.tricks_taken.declarer, layouts, solver))
}

/// [`durch_value`] from the position `base` for a game worth `value` now, a lost game costing
/// `loss_factor` times its value, the declarer having taken `won` tricks: going on is worth
/// twice the value if he takes every further trick, and loses `loss_factor` times that
/// otherwise. Returns (the average score going on, the score stopping).
pub fn durch_value_at(
    base: &Position,
    value: f64,
    loss_factor: f64,
    won: u8,
    layouts: &[Layout],
    solver: &mut Solver,
) -> (f64, f64) {
    let need = 5u8.saturating_sub(won);
    let mut wins = 0usize;
    for layout in layouts {
        if solver.at_least(&place(base, layout), need) {
            wins += 1;
        }
    }
    let p = wins as f64 / layouts.len().max(1) as f64;
    (p * 2.0 * value - (1.0 - p) * loss_factor * 2.0 * value, value)
}

/// The card a seat plays when it has a single legal card, or `None`.
pub fn forced_card(view: &DealView) -> Option<Card> {
    let legal = view.prompt.cards;
    (legal.len() == 1).then(|| legal.lowest()).flatten()
}

/// A mask's cards as [`Card`]s (for reports).
pub fn cards_of(mask: u64) -> Vec<Card> {
    crate::cards::Bits(mask).map(card).collect()
}
