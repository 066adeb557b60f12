//! Bots for Tippen / Dreiblatt: the dealer's choices, play or pass, the exchange and the cards.

use fipsen_rules::tippen::{Action, DealView, SeriesView};
use fipsen_rules::{Card, CardSet};

use crate::bot::Level;

/// A Tippen bot of one level.
#[derive(Debug, Clone)]
pub struct Bot {
    #[allow(dead_code)]
    level: Level,
    #[allow(dead_code)]
    seed: u64,
}

impl Bot {
    /// A bot of `level`, whose choices follow from `seed` and the view alone.
    pub fn new(level: Level, seed: u64) -> Bot {
        Bot { level, seed }
    }

    /// The bot's action in a series, or `None` once it is over.
    pub fn choose_in_series(&mut self, view: &SeriesView) -> Option<Action> {
        if view.over { None } else { self.choose(&view.deal) }
    }

    /// The bot's action, or `None` if the viewer may do nothing now. Always one the prompt
    /// offers: it deals, neither knocks nor sniffs, plays, keeps its cards and plays its lowest
    /// legal card.
    pub fn choose(&mut self, view: &DealView) -> Option<Action> {
        let p = &view.prompt;
        if view.viewer.is_none() || view.turn != view.viewer || p.is_empty() {
            return None;
        }
        let lowest = |cards: CardSet| cards.iter().min_by_key(|c: &Card| c.rank());
        Some(if p.deal {
            Action::Deal
        } else if p.no_knock {
            Action::NoKnock
        } else if p.no_sniff {
            Action::NoSniff
        } else if p.discard.is_some() {
            Action::Discard { cards: std::iter::once(lowest(view.hand?)?).collect() }
        } else if p.join {
            Action::Join
        } else if p.keep {
            Action::Keep
        } else if let Some(card) = lowest(p.cards) {
            Action::Play { card }
        } else if p.pass {
            Action::Pass
        } else if p.drop_out {
            Action::DropOut
        } else {
            Action::Shove
        })
    }
}
